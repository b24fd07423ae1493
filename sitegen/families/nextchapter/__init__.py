"""NextChapterBench (seed 001): chapter continuations judged by one judge beside a frozen
reference chapter, hidden continuity traps, a mechanical memorisation screen, effort variants."""

from __future__ import annotations

from sitegen.families import PythonFamily
from sitegen.families.nextchapter import compute, models, pages, validate

# Its method page (content/nextchapter/method.md) is an ordinary page with generated sections.
FAMILY = PythonFamily("nextchapter", "NextChapterBench", ("data/nextchapter/", "content/nextchapter/amendments/*.md"), None, validate.load_nextchapter, compute.compute,
                      pages.outputs, models.ARTIFACT_KINDS)
