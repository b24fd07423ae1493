"""NextChapterBench (seed 001): chapter continuations judged by one judge beside a frozen
reference chapter, hidden continuity traps, a mechanical memorisation screen, effort variants."""

from __future__ import annotations

from sitegen.families.nextchapter import compute as _compute
from sitegen.families.nextchapter import models as _models
from sitegen.families.nextchapter import pages as _pages
from sitegen.families.nextchapter import validate as _validate


class NextChapter:
    id = "nextchapter"
    title = "NextChapterBench"
    content_dir = None  # its method page is an ordinary page with generated sections

    def load(self, root, loaded, limits):
        return _validate.load_nextchapter(root, loaded, limits.max_file_bytes)

    def store(self, db, inp) -> None:
        return None  # a few hundred calls: computed in Python from the validated records

    def compute(self, db, inp):
        return _compute.compute(inp)

    def outputs(self, results):
        return _pages.outputs(results)

    def artifact_kinds(self):
        return _models.ARTIFACT_KINDS


FAMILY = NextChapter()
