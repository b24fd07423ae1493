"""NextChapterBench (seed 001): chapter continuations judged by one judge beside a frozen
reference chapter, hidden continuity traps, a mechanical memorisation screen, effort variants."""

from __future__ import annotations

from sitegen.families import PythonFamily

_M = "sitegen.families.nextchapter"
# Its method page (content/nextchapter/method.md) is an ordinary page with generated sections.
FAMILY = PythonFamily("nextchapter", "NextChapterBench", ("data/nextchapter/", "content/nextchapter/amendments/*.md"), None,
                      f"{_M}.validate:load_nextchapter", f"{_M}.compute:compute", f"{_M}.pages:outputs", f"{_M}.models:ARTIFACT_KINDS")
