"""Which of a sweep's Inspect logs it takes its items from, and the rules across them.

Every log a sweep's glob matches is read and hashed; which of them give items is decided here,
from what each log says it is (its eval spec), before any of their samples is used:

- The logs of a sweep are runs of one task. Each is held to the task most of the sweep's logs
  ran (the first such log, in file order, named): its eval.task, eval.task_version and
  eval.dataset (name, location, number of samples, sample ids; a field only where both logs
  record it). A log that differs is one problem naming both files and each differing field with
  both values, and none of its samples is read, so neither distinct ids (two tasks merged into one
  board) nor colliding ones (reported as a second run) can follow from it.
- One log per model. A model run again is taken from its newer log only when the sweep names the
  older in `superseded`: that log is still read, hashed and published, marked superseded and by
  which log, its samples never used. Without it each older log of the model is one problem
  (not one per sample) saying how to declare it, and only the newest log's samples are read. A
  superseded log must be one the sweep's glob matches, and a log of the same model and task
  that the sweep reads must have been created after it.
- A sweep is dated on or after the day (eval.created's date) each of its logs was created.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone

from sitegen.errors import Problem, short_repr

DATASET_FIELDS = ("name", "location", "samples", "sample_ids")


@dataclass(frozen=True)
class Spec:
    """What the rules read of one log: its file (as the manifest names it) and its eval spec."""

    file: str
    model: str
    task: str
    task_version: str
    created: str
    dataset: dict  # DATASET_FIELDS, None where the log records none


@dataclass
class Plan:
    read: set[str] = field(default_factory=set)  # the logs whose samples the sweep uses
    superseded_by: dict[str, str] = field(default_factory=dict)  # superseded log -> the newer log that replaces it


def spec_of(file: str, spec) -> Spec:
    ds = spec.dataset
    dataset = {k: getattr(ds, k, None) for k in DATASET_FIELDS} if ds is not None else dict.fromkeys(DATASET_FIELDS)
    return Spec(file, spec.model, spec.task, str(spec.task_version), str(spec.created), dataset)


def plan(logs: list[Spec], superseded: list[str], data_dir: str, sweep: str, at: str, config: str, date: str,
         out: list[Problem]) -> Plan:
    """Which of LOGS (read, in file order) sweep SWEEP takes items from. SUPERSEDED: the sweep's
    `superseded` entries, relative to DATA_DIR ("data/<family>"); AT: the sweep's path in CONFIG
    ("$.sweeps[0]"); DATE: its date."""
    result = Plan()
    by_file = {g.file: g for g in logs}
    named: dict[str, int] = {}
    for k, entry in enumerate(superseded):
        rel = f"{data_dir}/{entry}"
        if rel in by_file:
            named[rel] = k
        else:
            out.append(Problem(config, None, f"{at}.superseded[{k}]", f"a log the sweep's logs glob matches under {data_dir}/ "
                               "(a superseded log is still read and published)", short_repr(entry)))
    candidates = [g for g in logs if g.file not in named]
    for g in _belonging(candidates, out):
        result.read.add(g.file)
    reading = [g for g in candidates if g.file in result.read]
    _one_per_model(reading, result, sweep, at, config, data_dir, out)
    reading = [g for g in reading if g.file in result.read]
    for rel, k in named.items():
        old = by_file[rel]
        newer = [g for g in reading if (g.model, g.task) == (old.model, old.task) and _later(g.created, old.created)]
        if newer:
            result.superseded_by[rel] = newer[0].file  # one log per model is read, so at most one
            continue
        same = [g for g in reading if (g.model, g.task) == (old.model, old.task)]
        out.append(Problem(config, None, f"{at}.superseded[{k}]",
                           f"a log that a newer one replaces: a log of model {old.model} and task {old.task} that the sweep reads, "
                           f"created after this one ({old.created})",
                           "; ".join(f"{g.file}, created {g.created}" for g in same) or "none"))
    _dated(logs, date, at, config, out)
    return result


def _belonging(logs: list[Spec], out: list[Problem]) -> list[Spec]:
    """The logs of the task most of LOGS ran; a problem for each other log."""
    if not logs:
        return []
    counts = Counter(_task_key(g) for g in logs)
    most = max(counts.values())
    ref = next(g for g in logs if counts[_task_key(g)] == most)
    kept = []
    for g in logs:
        differing = _differences(g, ref)
        if not differing:
            kept.append(g)
            continue
        out.append(Problem(g.file, None, "$.eval", f"a run of the task the sweep's other logs ran, as {ref.file} records it "
                           "(its task, task version and dataset): the logs of one sweep are runs of one task",
                           "; ".join(differing)))
    return kept


def _task_key(g: Spec) -> tuple:
    ids = g.dataset["sample_ids"]
    return (g.task, g.task_version, *(g.dataset[k] for k in DATASET_FIELDS[:-1]), None if ids is None else tuple(sorted(map(str, ids))))


def _differences(g: Spec, ref: Spec) -> list[str]:
    """Each field in which G differs from REF, with both values ('task "poems" where REF has "tales"')."""
    out = []
    for name, a, b in (("eval.task", g.task, ref.task), ("eval.task_version", g.task_version, ref.task_version)):
        if a != b:
            out.append(f"{name} {short_repr(a)} where {ref.file} has {short_repr(b)}")
    for k in DATASET_FIELDS:
        a, b = g.dataset[k], ref.dataset[k]
        if a is None or b is None:  # a field only one log records is not a difference it shows
            continue
        if k == "sample_ids":
            mine, theirs = {str(x) for x in a}, {str(x) for x in b}
            if mine != theirs:
                out.append(f"eval.dataset.sample_ids: {_ids(mine - theirs)} not among {ref.file}'s, and {_ids(theirs - mine)} of its not here")
        elif a != b:
            out.append(f"eval.dataset.{k} {short_repr(a)} where {ref.file} has {short_repr(b)}")
    return out


def _ids(ids: set[str]) -> str:
    if not ids:
        return "none"
    shown = sorted(ids)[:5]
    return f"{len(ids)} ({', '.join(shown)}{', …' if len(ids) > len(shown) else ''})"


def _one_per_model(logs: list[Spec], result: Plan, sweep: str, at: str, config: str, data_dir: str, out: list[Problem]) -> None:
    """Each model's newest log alone is read; each older one is a problem saying how to declare
    it superseded."""
    by_model: dict[str, list[Spec]] = {}
    for g in logs:
        by_model.setdefault(g.model, []).append(g)
    for model, runs in by_model.items():
        if len(runs) < 2:
            continue
        ordered = sorted(runs, key=lambda g: (instant(g.created), g.file))
        newest = ordered[-1]
        for g in ordered[:-1]:
            result.read.discard(g.file)
            entry = g.file.removeprefix(f"{data_dir}/")
            out.append(Problem(g.file, None, "$.eval.model",
                               f"one log of model {model} in sweep {sweep}: to take the model from its newer log, name this one in "
                               f"the sweep's superseded list ({at}.superseded in {config}: superseded = [\"{entry}\"]), which keeps "
                               "it published, marked superseded",
                               f"also {newest.file}, created {newest.created} (this log: {g.created})"))


def _dated(logs: list[Spec], date: str, at: str, config: str, out: list[Problem]) -> None:
    """A sweep is not dated before its logs were created (the date part of eval.created)."""
    later = sorted((g for g in logs if g.created[:10] > date), key=lambda g: (g.created[:10], g.file))
    if later:
        newest = later[-1]
        more = f", and {len(later) - 1} more log{'s' if len(later) > 2 else ''} created after {date}" if len(later) > 1 else ""
        out.append(Problem(config, None, f"{at}.date", f"a day on or after each of the sweep's logs was created "
                           f"({newest.file} on {newest.created[:10]}{more})", date))


def instant(created: str):
    """eval.created as a moment, so that logs written in different time zones are ordered right;
    a value Inspect wrote in another form is ordered as text, after every moment."""
    try:
        moment = datetime.fromisoformat(created)
    except ValueError:
        return (1, 0.0, created)
    return (0, (moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)).timestamp(), "")


def _later(a: str, b: str) -> bool:
    return instant(a) > instant(b)
