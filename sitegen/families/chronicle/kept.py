"""What a later release must keep of ChronicleBench's records as this one publishes them
(sitegen.families.Kept; checked by sitegen.release_checks against the previous release)."""

from __future__ import annotations

from sitegen.fingerprint import record_fingerprint
from sitegen.families import Kept
from sitegen.families.chronicle.files import RUNS_FILE, SELECTION_FILE


def records(inp) -> dict[str, Kept]:
    """What a later release must keep of this one: every run, by the manuscript it judged (a
    run is never deleted nor its text replaced); every superseded first attempt of a rerun (a
    rerun is never hidden); every individually recorded content exclusion."""
    kept = {f"runs/{r.id}": Kept(RUNS_FILE, f"run {r.id} of {r.entrant}, judged on the manuscript with this SHA-256", r.manuscript_sha256)
            for r in inp.runs}
    for r in inp.runs:
        for k, a in enumerate(r.superseded, start=1):
            kept[f"runs/{r.id}/superseded/{k}"] = Kept(RUNS_FILE, f"the superseded attempt {k} of run {r.id} (rerun after a {a.failure} failure)",
                                                       record_fingerprint(a.model_dump(mode="json")))
    for cand in inp.selection_record.candidates:
        if cand.exclusion is not None:
            kept[f"selection/{cand.gutenberg_id}/exclusion"] = Kept(SELECTION_FILE, f"the content exclusion of candidate {cand.gutenberg_id} "
                                                                    f"({cand.title})", record_fingerprint(cand.exclusion.model_dump(mode="json")))
    return kept
