"""What a later release must keep of Canonic's records as this one publishes them
(sitegen.families.Kept; checked by sitegen.release_checks against the previous release)."""

from __future__ import annotations

from sitegen.families import Kept
from sitegen.families.canonic.evidence_intake import SWEEP_FILE


def records(inp) -> dict[str, Kept]:
    """A sweep, once published, keeps its date, the task-set version it ran and its models' ids:
    a later release may replace it by a new sweep (a new id), never relabel it."""
    s = inp.sweep
    ran = f"dated {s.sweep.date} (frozen {s.sweep.frozen_at}), task-set version {s.task_set_version} (fingerprint {s.task_set_fingerprint})"
    models = ", ".join(sorted(m.id for m in s.models))
    return {f"sweeps/{s.sweep.id}": Kept(SWEEP_FILE, f"sweep {s.sweep.id} (a re-sweep is a new sweep, with a new id)", ran, may_go=True),
            # the models it published, by id: renamed or dropped under the same sweep, a link or a
            # citation of the old id would find nothing
            f"sweeps/{s.sweep.id}/models": Kept(SWEEP_FILE, f"the models of sweep {s.sweep.id}, by id", models, may_go=True)}
