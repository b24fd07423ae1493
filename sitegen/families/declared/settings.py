"""What a sweep was computed with: its settings, its own where the sweep gives them, else the
top level's. An archived sweep is never recomputed with today's configuration.

A sweep's settings are the configuration's criteria, item_score, boards, repeats, generation,
gate, synthetic and inspect tables (SWEEP_SETTINGS: how its logs' scorers are read is as much
a part of its numbers as its rubric). A `[[sweeps]]` entry may carry any of them; what it
does not carry it takes from the top level. So a rubric change is a new sweep with its own
criteria (and the amendment that records why), and the old sweep keeps the top level's, or its
own, as they were.

What stops a later edit of the top level from quietly recomputing an old sweep: each sweep's
settings have a fingerprint (sitegen.fingerprint's record fingerprint of the tables as written,
the sweep's own in place of the top level's, keys sorted), and a sweep archived by a newer one
must pin it (`settings_fingerprint`). The build recomputes it and refuses a mismatch. As written,
not as resolved with defaults: a default a later version of sitegen adds does not unpin every
sweep, just as a freeze fingerprints the rubric as written.
"""

from __future__ import annotations

from sitegen.families.declared.config import BenchmarkConfig
from sitegen.fingerprint import record_fingerprint

SWEEP_SETTINGS = ("criteria", "item_score", "boards", "repeats", "generation", "gate", "synthetic", "inspect")


def for_sweep(config: BenchmarkConfig, index: int) -> BenchmarkConfig:
    """The configuration sweep INDEX is computed with: the top level's, its own tables in place."""
    s = config.sweeps[index]
    own = {k: getattr(s, k) for k in SWEEP_SETTINGS if getattr(s, k) is not None}
    return config.model_copy(update=own) if own else config


def written(table: dict, index: int) -> dict:
    """Sweep INDEX's settings as written in the configuration TABLE (the parsed TOML): per key,
    the sweep's own value where it has one, else the top level's; a key written in neither is
    left out (its default applies)."""
    sweep = table["sweeps"][index]
    return {k: sweep[k] if k in sweep else table[k] for k in SWEEP_SETTINGS if k in sweep or k in table}


def fingerprint(table: dict, index: int) -> str:
    return record_fingerprint(written(table, index))


def changes(before: BenchmarkConfig, after: BenchmarkConfig) -> list[str]:
    """What differs between two sweeps' settings, each as a phrase ("the weight of Originality
    1 → 2", "gate.min_scored_share 0.8 → 0.9", "criterion Pace added"), in the settings' order;
    empty when they were computed alike."""
    out: list[str] = []
    for key in SWEEP_SETTINGS:
        a, b = getattr(before, key), getattr(after, key)
        if key == "criteria":
            out += _criteria_changes(a, b)
        elif key == "synthetic":
            if a != b:
                out.append(f"synthetic {_show(a)} → {_show(b)}")
        elif a is None or b is None:  # a table only one of them has (inspect, on a site of logs and items files)
            if a != b:
                out.append(f"{key} {'added' if a is None else 'removed'}")
        else:
            da, db = a.model_dump(mode="json"), b.model_dump(mode="json")
            out += [f"{key}.{f} {_show(da[f])} → {_show(db[f])}" if not _tables(da[f], db[f]) else f"{key}.{f} changed"
                    for f in da if da[f] != db[f]]
    return out


def _criteria_changes(a: list, b: list) -> list[str]:
    old, new = {c.id: c for c in a}, {c.id: c for c in b}
    out = [f"criterion {c.label} removed" for c in a if c.id not in new]
    out += [f"criterion {c.label} added" for c in b if c.id not in old]
    for c in b:
        if c.id in old:
            da, db = old[c.id].model_dump(mode="json"), c.model_dump(mode="json")
            out += [f"the {f} of {c.label} {_show(da[f])} → {_show(db[f])}" for f in da if da[f] != db[f] and f != "id"]
    if not out and [c.id for c in a] != [c.id for c in b]:
        out.append("the order of the criteria")
    return out


def _tables(*values) -> bool:
    """Whether any of VALUES is a list of tables ([[inspect.scorers]]): too long for a phrase."""
    return any(isinstance(v, list) and any(isinstance(x, dict) for x in v) for v in values)


def _show(v) -> str:
    if isinstance(v, bool) or v is None:
        return {True: "true", False: "false", None: "none"}[v]
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, list):
        return ", ".join(_show(x) for x in v) or "none"
    return str(v)
