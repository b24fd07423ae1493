"""ChronicleBench v1.1 (formerly SagaBench): long novels scored in five windows by a pinned
instrument, three boards never blended, a human reference band, a frozen protocol with its
amendment log (seed 000)."""

from __future__ import annotations

from sitegen.families import PythonFamily
from sitegen.families.chronicle import compute, models, pages, validate

# content/chronicle/ (the protocol and the amendment log) is this family's input.
FAMILY = PythonFamily("chronicle", "ChronicleBench", ("data/chronicle/", "content/chronicle/"), "chronicle", validate.load_chronicle, compute.compute,
                      pages.outputs, models.ARTIFACT_KINDS, models.AMENDMENT_FIELDS)
