"""Canonic Stage 1: six domains, two judges, seeded bootstrap intervals, a publication gate,
pairwise rank ranges, and no overall score anywhere (seeds 002 and 003)."""

from __future__ import annotations

from sitegen.families.canonic import compute as _compute
from sitegen.families.canonic import models as _models
from sitegen.families.canonic import pages as _pages
from sitegen.families.canonic import store as _store
from sitegen.families.canonic import validate as _validate


class Canonic:
    id = "canonic"
    title = "Canonic Stage 1"
    # The Show Bibles are read for their freeze fingerprints (and are ordinary pages too); the
    # amendment log is the family's own input (sitegen.amendments).
    inputs = ("data/canonic/", "content/canonic/bibles/*.md", "content/canonic/amendments/*.md")
    content_dir = None  # its method page and Show Bibles are ordinary pages

    def load(self, root, loaded, limits):
        return _validate.load_canonic(root, loaded, limits)

    def store(self, db, inp) -> None:
        _store.load(db, inp)

    def compute(self, db, inp):
        return _compute.compute(db, inp)

    def outputs(self, results):
        return _pages.outputs(results)

    def artifact_kinds(self):
        return _models.ARTIFACT_KINDS


FAMILY = Canonic()
