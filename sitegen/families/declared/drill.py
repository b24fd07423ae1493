"""From a published number back to the log it came from, and what a sweep's model count says.

A sweep that reads Inspect logs gives its downloads the log behind each row: an items row the
log file (as the manifest and the method page name it), the sample's id and its epoch; a row of
no record (missing) the model's log, in which the sample is not; a board row the log its model's
items were taken from. A sweep of an items file keeps its columns as they were.

A sweep that ran fewer models than the sweep before it (by date) names how many fewer and
which, so a sweep of one model's re-run cannot pass for a result of the whole field.
"""

from __future__ import annotations

from dataclasses import dataclass

ITEM_COLUMNS = ["log", "sample", "epoch"]
BOARD_COLUMNS = ["log"]


def _input(res, sweep_id: str):
    return next(s for s in res.input.sweeps if s.id == sweep_id)


def reads_logs(res, sweep_id: str) -> bool:
    return bool(_input(res, sweep_id).logs)


def model_logs(res, sweep_id: str) -> dict[str, str]:
    """model id -> the log its items in the sweep came from (the used logs of one model; one)."""
    inp = _input(res, sweep_id)
    found: dict[str, list[str]] = {}
    for item, where in zip(inp.items, inp.where):
        if where.file not in found.setdefault(item.model, []):
            found[item.model].append(where.file)
    return {m: "; ".join(files) for m, files in found.items()}


def item_rows(res, sweep_id: str, rows: list[tuple]) -> list[tuple]:
    """ROWS of the sweep's items table (sweep, model, prompt, iteration, ...) with the log, the
    sample id and the epoch each came from."""
    inp = _input(res, sweep_id)
    at = {(item.model, item.prompt, item.iteration): w for item, w in zip(inp.items, inp.where)}
    logs = model_logs(res, sweep_id)
    out = []
    for row in rows:
        w = at.get(row[1:4])
        out.append((*row, w.file, w.sample_id, w.epoch) if w is not None else (*row, logs.get(row[1]), None, None))
    return out


def board_rows(res, sweep_id: str, rows: list[tuple], model_at: int = 2) -> list[tuple]:
    logs = model_logs(res, sweep_id)
    return [(*row, logs.get(row[model_at])) for row in rows]


@dataclass(frozen=True)
class Fewer:
    before: object  # the sweep before it (a SweepResult)
    dropped: list  # the models (models.Model) that sweep ran and this one does not, by name
    count: int  # how many fewer models it ran


def fewer(res, sweep) -> Fewer | None:
    """How SWEEP's models fall short of the sweep before it by date, or None when they do not."""
    order = res.sweeps  # newest first
    k = next(i for i, s in enumerate(order) if s.id == sweep.id)  # SWEEP may be one of its other metrics' results (scorers.py)
    if k + 1 >= len(order):
        return None
    before = order[k + 1]
    now, then = set(sweep.models), set(before.models)
    if len(now) >= len(then):
        return None
    names = {m.id: m for m in res.input.models}
    dropped = sorted((names[m] for m in then - now), key=lambda m: (m.name, m.id))
    return Fewer(before, dropped, len(then) - len(now))
