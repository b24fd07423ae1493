"""`sitegen new site DIR --from-inspect LOGS`: a site repository for a benchmark whose harness is
Inspect AI, from a folder of its evaluation logs.

The logs are copied as they are into data/<id>/logs/, and the configuration is written from what
they hold, and nothing they do not: one sweep of them (dated by the newest log; of two logs of
one model and task, the older by eval.created named superseded: superseded()), the scorer whose
value is a dict of scores (its keys are the criteria, in the scorer's order), the epochs as
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
import re
from pathlib import Path

from sitegen import requirement
from sitegen.errors import BuildError
from sitegen.families.declared.inspect_logs import INSTALL, reader, said
from sitegen.families.declared.inspect_rules import instant
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


def _scorer(logs) -> tuple[str, dict[str, tuple[float, float]]]:
    """The scorer whose value is a dict on every scored sample (the first by name when several
    are), and the lowest and highest score seen of each of its keys, in the scorer's own order
    (the order of its value's keys, as first seen)."""
    kinds: dict[str, bool] = {}
    for log in logs:
        for sample in log.samples or []:
            for name, score in (sample.scores or {}).items():
                kinds[name] = kinds.get(name, True) and isinstance(score.value, dict)
    names = sorted(n for n, is_dict in kinds.items() if is_dict)
    if not names:
        raise BuildError("--from-inspect: expected a scorer whose value is a dict of criterion scores; found none in the logs")
    seen: dict[str, tuple[float, float]] = {}
    for log in logs:
        for sample in log.samples or []:
            score = (sample.scores or {}).get(names[0])
            for k, v in (score.value.items() if score is not None else ()):
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    low, high = seen.get(k, (v, v))
                    seen[k] = (min(low, v), max(high, v))
    bad = [k for k in seen if not _CRITERION.fullmatch(k)]
    if bad:
        raise BuildError(f"--from-inspect: expected criterion names of lower-case letters, digits, - and _; found {bad[0]!r} in scorer {names[0]!r}")
    return names[0], seen


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
    scorer, seen = _scorer(logs)
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
        f'scorer = "{scorer}"  # the scorer whose value holds the criteria\'s scores',
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
        f'name = "Inspect scorer {scorer}"',
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


def _models(logs) -> list[dict]:
    """Each model the logs ran: its id, its name (the id's last part) and its house (the
    provider the id names first): to be checked."""
    ids = sorted({log.eval.model for log in logs})
    return [{"id": m, "name": m.rsplit("/", 1)[-1], "house": m.split("/", 1)[0]} for m in ids]
