"""What a later release must keep of NextChapterBench's records as this one publishes them
(sitegen.families.Kept; checked by sitegen.release_checks against the previous release)."""

from __future__ import annotations

from sitegen.families import Kept
from sitegen.families.nextchapter.validate import ITEMS_FILE, RUN_FILE


def records(inp) -> dict[str, Kept]:
    """Each frozen reference chapter the run was judged against, by its SHA-256, and the run's
    models by id: never replaced under the same run (a new reference, or another roster, is a
    new run, which may replace this one)."""
    run = inp.run.run
    kept = {f"runs/{run}/reference/{i.id}": Kept(ITEMS_FILE, f"the frozen reference chapter of {i.id} in run {run}, by its SHA-256",
                                                 i.reference_sha256, may_go=True) for i in inp.items}
    kept[f"runs/{run}/models"] = Kept(RUN_FILE, f"the models of run {run}, by id", ", ".join(sorted(m.id for m in inp.run.models)), may_go=True)
    return kept
