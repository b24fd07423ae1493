"""Canonic Stage 1: six domains, two judges, seeded bootstrap intervals, a publication gate,
pairwise rank ranges, and no overall score anywhere (seeds 002 and 003).

Importing this package imports none of its modules: each method imports what it calls, so a
figure worker that unpickles a drawing function (figure.py) does not pay for the models,
DuckDB and the pages."""

from __future__ import annotations


class Canonic:
    id = "canonic"
    title = "Canonic Stage 1"
    # The Show Bibles are read for their freeze fingerprints (and are ordinary pages too); the
    # amendment log is the family's own input (sitegen.amendments).
    inputs = ("data/canonic/", "content/canonic/bibles/*.md", "content/canonic/amendments/*.md")
    content_dir = None  # its method page and Show Bibles are ordinary pages
    forbids_aggregate = True  # the protocol: no overall score, and no field that could hold one

    def load(self, root, loaded, limits):
        from sitegen.families.canonic.validate import load_canonic

        return load_canonic(root, loaded, limits)

    def store(self, db, inp) -> None:
        from sitegen.families.canonic.store import load

        load(db, inp)

    def compute(self, db, inp):
        from sitegen.families.canonic.compute import compute

        return compute(db, inp)

    def outputs(self, results):
        from sitegen.families.canonic.pages import outputs

        return outputs(results)

    def artifact_kinds(self):
        from sitegen.families.canonic.models import ARTIFACT_KINDS

        return ARTIFACT_KINDS


FAMILY = Canonic()
