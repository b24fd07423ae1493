"""ChronicleBench v1.1 (formerly SagaBench): long novels scored in five windows by a pinned
instrument, three boards never blended, a human reference band, a frozen protocol with its
amendment log (seed 000)."""

from __future__ import annotations

from sitegen.families.chronicle import compute as _compute
from sitegen.families.chronicle import models as _models
from sitegen.families.chronicle import pages as _pages
from sitegen.families.chronicle import validate as _validate


class Chronicle:
    id = "chronicle"
    title = "ChronicleBench"
    content_dir = "chronicle"  # the protocol and the amendment log are this family's inputs

    def load(self, root, loaded, limits):
        return _validate.load_chronicle(root, loaded, limits.max_file_bytes)

    def store(self, db, inp) -> None:
        return None  # a few hundred runs: computed in Python from the validated records

    def compute(self, db, inp):
        return _compute.compute(inp)

    def outputs(self, results):
        return _pages.outputs(results)

    def artifact_kinds(self):
        return _models.ARTIFACT_KINDS


FAMILY = Chronicle()
