"""`sitegen new site DIR --from-inspect LOGS`: a site repository for a benchmark whose harness is
Inspect AI, from a folder of its evaluation logs.

The logs are copied as they are into data/<id>/logs/, and the configuration is written from what
they hold, and nothing they do not: one sweep of them (dated by the newest log; of two logs of
one model and task, the older by eval.created named superseded: superseded()), every scorer as
an [[inspect.scorers]] metric of the kind its values show (scorers_of(): a dict, whose keys are
the criteria in the scorer's order; numbers, on the conventional scale holding them; C/I/P/N or
booleans, a rate), the first dict scorer (else the first) the headline, any scorer it cannot
read named in a comment with why, the errored-sample rule written with a comment, the epochs as
iterations, the retries as attempts, a sample metadata field that every sample carries as a
string as the boards' field. Each criterion's scale is the conventional one holding every score
seen, both ends (scale()), marked to be confirmed, and its direction left to declare. The logs
do not record who graded, so the grader is written as kind = "unknown", which the pages say,
with a comment to declare it. Only what the site cannot do without is left as a placeholder the
build refuses until it is written ("FILL IN: ..."): what the benchmark measures. models.jsonl
names each model by its id and its house by the provider in that id, to be checked.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from sitegen import requirement
from sitegen.errors import BuildError
from sitegen.families.declared.inspect_logs import INSTALL, reader, said
from sitegen.families.declared.inspect_rules import instant
from sitegen.families.declared.scorers import rate
from sitegen.families.demo_files import jsonl_line
from sitegen.scaffold_site import _toml_string, check_new, skeleton, write_files

PLACEHOLDER = "FILL IN"
SCALES = (1.0, 5.0, 10.0, 20.0, 100.0)
_CRITERION = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")

INSPECT_DATA = """The records in `data/__ID__/logs/` are Inspect AI evaluation logs, copied as they were by
`sitegen new site --from-inspect`; `content/__ID__/benchmark.toml` maps them ([inspect] and each
sweep's `logs`). Write what the placeholder ("FILL IN") asks, declare the grader (the logs do not
record it), confirm the criteria's scales and declare their directions, check the houses in
`data/__ID__/models.jsonl`, then build. A model run again is taken from its newer log only where
the sweep names the older in `superseded` (written for each re-run found here), which stays
published, marked superseded; a later log never replaces an earlier one unnamed. `sitegen
validate` lists every problem at once, naming the log, the sample by id and epoch, and the field."""


def new_site_from_inspect(target: Path, fid: str, title: str, logs_dir: Path) -> list[Path]:
    check_new(target, fid, title)
    read = reader()
    if read is None:
        raise BuildError(f"--from-inspect needs {INSTALL}")
    paths = sorted(p for p in Path(logs_dir).iterdir() if p.suffix in (".eval", ".json") and p.is_file() and not p.is_symlink()) \
        if Path(logs_dir).is_dir() else []
    if not paths:
        raise BuildError(f"--from-inspect {logs_dir}: expected a folder holding Inspect logs (.eval or .json); found none")
    if len({p.suffix for p in paths}) > 1:
        raise BuildError(f"--from-inspect {logs_dir}: expected logs of one format (.eval or .json); found both")
    logs = []
    for p in paths:
        try:
            logs.append(read(str(p)))
        except Exception as exc:  # noqa: BLE001 - named, with the log and what Inspect said of it
            raise BuildError(f"--from-inspect: {p.name} is not an Inspect log Inspect can read ({said(exc)})") from None
    files = {rel: text.encode("utf-8") for rel, text in skeleton(fid, title, requirement("inspect"), INSPECT_DATA)
             if not rel.endswith("benchmark.toml")}
    files[f"content/{fid}/benchmark.toml"] = _config(title, logs, paths).encode("utf-8")
    files[f"data/{fid}/models.jsonl"] = "".join(jsonl_line(m) for m in _models(logs)).encode("utf-8")
    for p in paths:
        files[f"data/{fid}/logs/{p.name}"] = p.read_bytes()
    return write_files(target, files)


@dataclass
class Found:
    """A scorer of the logs as the scaffold writes it: its kind inferred from every value seen (a
    dict on every sample: criteria; numbers: numeric, with the lowest and highest seen; C/I/P/N or
    booleans: a rate), or why it cannot be read."""

    name: str
    kind: str | None = None  # None: not read, for the reason below
    why: str = ""
    seen: dict[str, tuple[float, float]] = field(default_factory=dict)  # criteria: each key's lowest and highest; numeric: "" -> both
    id: str | None = None  # the metric's id, when the name is not one


def _kind(values: list) -> tuple[str | None, str]:
    if all(isinstance(v, dict) for v in values):
        return "criteria", ""
    numbers = [isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in values]
    if all(numbers):
        return "numeric", ""
    if all(isinstance(rate(v), float) for v in values) and not any(isinstance(v, dict) for v in values):
        return "rate", ""
    found = sorted({type(v).__name__ for v in values if not isinstance(rate(v), float) or isinstance(v, dict)})
    return None, f"its values are neither a dict, numbers, nor C/I/P/N or booleans (found {', '.join(found)})"


def scorers_of(logs) -> list[Found]:
    """Every scorer the logs' samples hold, by name, each with its kind; at most one of kind
    criteria (the first by name: a second dict scorer is named, not read, since the [[criteria]]
    are one scorer's keys)."""
    values: dict[str, list] = {}
    for log in logs:
        for sample in log.samples or []:
            for name, score in (sample.scores or {}).items():
                values.setdefault(name, []).append(score.value)
    out, dicts = [], 0
    for name in sorted(values):
        kind, why = _kind(values[name])
        if kind == "criteria" and dicts:
            kind, why = None, "a second dict scorer: the [[criteria]] are the keys of one"
        found = Found(name, kind, why)
        dicts += kind == "criteria"
        for v in values[name] if kind == "criteria" else ():
            for k, x in v.items():
                if isinstance(x, (int, float)) and not isinstance(x, bool):
                    low, high = found.seen.get(k, (x, x))
                    found.seen[k] = (min(low, x), max(high, x))
        if kind == "numeric":
            found.seen[""] = (min(values[name]), max(values[name]))
        out.append(found)
    if not any(f.kind for f in out):
        raise BuildError("--from-inspect: expected a scorer whose values are a dict of criterion scores, numbers, or C/I/P/N (or booleans); "
                         f"found {'none in the logs' if not out else ', '.join(f'{f.name} ({f.why})' for f in out)}")
    taken = {k for f in out if f.kind == "criteria" for k in f.seen}
    bad = [(k, f.name) for f in out if f.kind == "criteria" for k in f.seen if not _CRITERION.fullmatch(k)]
    if bad:
        raise BuildError(f"--from-inspect: expected criterion names of lower-case letters, digits, - and _; found {bad[0][0]!r} in scorer {bad[0][1]!r}")
    for f in out:
        if f.kind in ("numeric", "rate"):
            base = f.name if _CRITERION.fullmatch(f.name) else (re.sub(r"[^a-z0-9_-]+", "-", f.name.lower()).strip("-_")[:60] or "metric")
            mid, n = base, 1
            while mid in taken:
                n += 1
                mid = f"{base}-{n}"
            taken.add(mid)
            f.id = mid if mid != f.name else None
    return out


def scale(low: float, high: float) -> tuple[float, float]:
    """The conventional scale that holds every score seen, both ends: its top the smallest of
    SCALES at or above the highest (the highest itself above 100); its bottom 1 when the top is
    5 or 10 and no score below 1 was seen (the 1-5 and 1-10 scales a rubric counts from 1), the
    lowest seen when it is negative, else 0. A 0-10 scorer that never gave a 0 reads 1-10: the
    written file says to confirm it."""
    top = next((s for s in SCALES if high <= s), float(high))
    if low < 0:
        return float(low), top
    return (1.0 if top in (5.0, 10.0) and low >= 1 else 0.0), top


def _board_field(logs) -> str | None:
    """A metadata field every sample carries as a string, with more than one value (the first by name)."""
    fields: dict[str, set[str]] | None = None
    for log in logs:
        for sample in log.samples or []:
            mine = {k: {v} for k, v in (sample.metadata or {}).items() if isinstance(v, str) and k not in ("id", "title", "text")}
            fields = mine if fields is None else {k: fields[k] | mine[k] for k in fields.keys() & mine.keys()}
    return next((k for k in sorted(fields or {}) if len(fields[k]) > 1 and _CRITERION.fullmatch(k)), None)


def superseded(logs, paths: list[Path]) -> list[tuple[Path, object, Path, object]]:
    """(older path, its log, newer path, its log) for each log that a newer log of the same model
    and task (by eval.created, then name) replaces: a re-run, which the sweep takes the model from."""
    runs: dict[tuple[str, str], list[tuple[Path, object]]] = {}
    for p, log in zip(paths, logs):
        runs.setdefault((log.eval.model, log.eval.task), []).append((p, log))
    out = []
    for group in runs.values():
        ordered = sorted(group, key=lambda r: (instant(str(r[1].eval.created)), r[0].name))
        out += [(p, log, *ordered[-1]) for p, log in ordered[:-1]]
    return sorted(out, key=lambda r: r[0].name)


def _config(title: str, all_logs, paths: list[Path]) -> str:
    older = superseded(all_logs, paths)
    gone = {id(r[1]) for r in older}
    logs = [log for log in all_logs if id(log) not in gone]  # what the sweep reads: a superseded log's samples are not used
    found = scorers_of(logs)
    read = [f for f in found if f.kind]
    headline = next((f for f in read if f.kind == "criteria"), read[0])
    seen = headline.seen if headline.kind == "criteria" else next((f.seen for f in read if f.kind == "criteria"), {})
    errored = sum(s.error is not None for log in logs for s in log.samples or [])
    created = sorted(str(log.eval.created)[:10] for log in all_logs)
    epochs = max((s.epoch for log in logs for s in log.samples or []), default=1)
    attempts = max((len(s.error_retries or []) + 1 for log in logs for s in log.samples or []), default=1)
    board = _board_field(logs)
    lines = [
        "# Written by `sitegen new site --from-inspect` from the logs in data/<id>/logs/.",
        f'title = "{_toml_string(title)}"',
        f'description = "{PLACEHOLDER}: one sentence on what the benchmark measures."',
        "synthetic = false",
        "",
        "[inspect]",
        "# A sample that errored: \"excluded\" leaves it unscored (counted against the gate), \"failing\" scores it the",
        f"# lowest value of every metric. {errored} sample{'s' if errored != 1 else ''} errored in these logs: declare which the benchmark means.",
        'errored = "excluded"',
        *_scorer_lines(found, headline),
        "",
        "[boards]",
        (f'by = "{board}"  # a board per value of this sample metadata field' if board else "# by = \"field\"  # no metadata field varies: one board"),
        "",
        "[repeats]",
        f"iterations = {epochs}  # the logs' epochs",
        "",
        "[generation]",
        f"attempts = {attempts}  # a sample's retries, and the attempt that counted",
        'failure_reasons = ["error"]',
        "",
        "[freeze]",
        'kind = "none"',
        "",
        "# Inspect logs do not record who graded, so the grader is declared unknown and every page says",
        "# so. Declare it: kind = \"model\" with model, version and house (a model of that house is then",
        "# marked self-family), \"human\" for people (house if they grade for one), or \"rule\" for a program.",
        "[[judges]]",
        'id = "grader"',
        f'name = "{_toml_string(_grader(read))}"',
        'kind = "unknown"',
        f'since = "{created[0]}"  # the oldest log',
        "",
        "[[sweeps]]",
        'id = "s1"',
        f'date = "{created[-1]}"  # the newest log',
        'judges = ["grader"]',
        f'logs = "logs/*{paths[0].suffix}"',
    ]
    if older:
        lines += ["# Two logs of one model and task: the older (by eval.created) is superseded by its re-run, which the sweep",
                  "# reads; the older stays published and listed, marked superseded, its samples not used. Remove a line to",
                  "# refuse the pair instead, or move the re-run to a sweep of its own.",
                  "superseded = ["]
        lines += [f'  "logs/{_toml_string(p.name)}",  # {_toml_string(log.eval.model)}, created {log.eval.created}; its re-run {_toml_string(new.name)}, created '
                  f"{new_log.eval.created}" for p, log, new, new_log in older]
        lines.append("]")
    for key, (low, high) in seen.items():
        bottom, top = scale(low, high)
        lines += ["", "[[criteria]]", f'id = "{key}"', f'label = "{key.replace("_", " ").replace("-", " ").capitalize()}"',
                  f"min = {bottom!r}  # the conventional scale holding every score seen ({low:g} to {high:g}): confirm both ends",
                  f"max = {top!r}",
                  '# direction = "lower"  # the logs do not say which end is good: declare "lower" for a fault, or leave higher as better']
    return "\n".join(lines) + "\n"


def _grader(read: list[Found]) -> str:
    names = [f.name for f in read]
    return f"Inspect scorer {names[0]}" if len(names) == 1 else f"Inspect scorers {', '.join(names[:-1])} and {names[-1]}"


def _scorer_lines(found: list[Found], headline: Found) -> list[str]:
    """Every scorer of the logs as an [[inspect.scorers]] table, or a comment naming one that
    cannot be read and why: none is left out unsaid."""
    lines = []
    for f in found:
        if f.kind is None:
            lines += ["", f"# Scorer {_toml_string(f.name)} is not read: {f.why}."]
            continue
        label = f.name.replace("_", " ").replace("-", " ").capitalize()
        lines += ["", "[[inspect.scorers]]", f'name = "{_toml_string(f.name)}"']
        lines += [f'id = "{f.id}"  # the metric\'s id in its pages\' addresses (the name is not one)'] if f.id else []
        lines += [f'label = "{_toml_string(label)}"']
        if f.kind == "criteria":
            lines.append('kind = "criteria"  # its value is a dict: its keys are the criteria below')
        elif f.kind == "rate":
            lines.append('kind = "rate"  # C 1, P 0.5 (partial credit), I 0, N 0, booleans 1 and 0, as Inspect\'s value_to_float reads them')
        else:
            low, high = f.seen[""]
            bottom, top = scale(low, high)
            lines += ['kind = "numeric"', f"min = {bottom!r}  # the conventional scale holding every value seen ({low:g} to {high:g}): confirm both ends",
                      f"max = {top!r}", '# direction = "lower"  # the logs do not say which end is good: declare "lower" for a fault']
        if f is headline:
            lines.append("headline = true  # its boards are the benchmark's; move this line to another scorer to lead with it")
    return lines


def _models(logs) -> list[dict]:
    """Each model the logs ran: its id, its name (the id's last part) and its house (the
    provider the id names first): to be checked."""
    ids = sorted({log.eval.model for log in logs})
    return [{"id": m, "name": m.rsplit("/", 1)[-1], "house": m.split("/", 1)[0]} for m in ids]
