"""What a later release must keep of NextChapterBench's records as this one publishes them
(sitegen.families.Kept; checked by sitegen.release_checks against the previous release)."""

from __future__ import annotations

from sitegen.families import Kept
from sitegen.families.nextchapter.validate import ITEMS_FILE


def records(inp) -> dict[str, Kept]:
    """Each frozen reference chapter the run was judged against, by its SHA-256: the text
    judged beside every model's chapter is never replaced under the same run (a new reference
    is a new run)."""
    run = inp.run.run
    return {f"runs/{run}/reference/{i.id}": Kept(ITEMS_FILE, f"the frozen reference chapter of {i.id} in run {run}, by its SHA-256",
                                                 i.reference_sha256) for i in inp.items}
