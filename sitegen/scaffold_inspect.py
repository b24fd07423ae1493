"""`sitegen new site DIR --from-inspect LOGS`: a site repository for a benchmark whose harness is
Inspect AI, from a folder of its evaluation logs.

The logs are copied as they are into data/<id>/logs/, and the configuration is written from what
they hold: one sweep of them (dated by the newest log), the scorer whose value is a dict of
scores (its keys are the criteria), the epochs as iterations, the retries as attempts, a sample
metadata field that every sample carries as a string as the boards' field. What the logs cannot
tell is left as a placeholder the build refuses until it is written ("FILL IN: ..."): what the
benchmark measures and who the grader is. The criteria's scales are the smallest of 1, 5, 10,
20 or 100 that holds every score seen, each marked to be checked; models.jsonl names each model
by its id and its house by the provider in that id, to be checked likewise.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from sitegen import requirement
from sitegen.errors import BuildError
from sitegen.families.declared.inspect_logs import INSTALL, reader
from sitegen.families.demo_files import jsonl_line
from sitegen.scaffold_site import _toml_string, check_new, skeleton, write_files

PLACEHOLDER = "FILL IN"
SCALES = (1.0, 5.0, 10.0, 20.0, 100.0)
_CRITERION = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")

INSPECT_DATA = """The records in `data/__ID__/logs/` are Inspect AI evaluation logs, copied as they were by
`sitegen new site --from-inspect`; `content/__ID__/benchmark.toml` maps them ([inspect] and each
sweep's `logs`). Write what the placeholders ("FILL IN") ask, check the criteria's scales and the
houses in `data/__ID__/models.jsonl`, then build. A re-run of the harness is a new sweep with logs
of its own: a later log never replaces an earlier one. `sitegen validate` lists every problem at
once, naming the log, the sample by id and epoch, and the field."""


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
        except Exception as exc:  # noqa: BLE001 - named, with the log
            raise BuildError(f"--from-inspect: {p.name} is not an Inspect log Inspect can read ({type(exc).__name__})") from None
    files = {rel: text.encode("utf-8") for rel, text in skeleton(fid, title, requirement("inspect"), INSPECT_DATA)
             if not rel.endswith("benchmark.toml")}
    files[f"content/{fid}/benchmark.toml"] = _config(title, logs, paths[0].suffix).encode("utf-8")
    files[f"data/{fid}/models.jsonl"] = "".join(jsonl_line(m) for m in _models(logs)).encode("utf-8")
    for p in paths:
        files[f"data/{fid}/logs/{p.name}"] = p.read_bytes()
    return write_files(target, files)


def _scorer(logs) -> tuple[str, dict[str, float]]:
    """The scorer whose value is a dict on every scored sample (the first by name when several
    are), and the highest score seen of each of its keys."""
    kinds: dict[str, bool] = {}
    for log in logs:
        for sample in log.samples or []:
            for name, score in (sample.scores or {}).items():
                kinds[name] = kinds.get(name, True) and isinstance(score.value, dict)
    names = sorted(n for n, is_dict in kinds.items() if is_dict)
    if not names:
        raise BuildError("--from-inspect: expected a scorer whose value is a dict of criterion scores; found none in the logs")
    highest: dict[str, float] = {}
    for log in logs:
        for sample in log.samples or []:
            score = (sample.scores or {}).get(names[0])
            for k, v in (score.value.items() if score is not None else ()):
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    highest[k] = max(highest.get(k, v), v)
    bad = [k for k in highest if not _CRITERION.fullmatch(k)]
    if bad:
        raise BuildError(f"--from-inspect: expected criterion names of lower-case letters, digits, - and _; found {bad[0]!r} in scorer {names[0]!r}")
    return names[0], highest


def _board_field(logs) -> str | None:
    """A metadata field every sample carries as a string, with more than one value (the first by name)."""
    fields: dict[str, set[str]] | None = None
    for log in logs:
        for sample in log.samples or []:
            mine = {k: {v} for k, v in (sample.metadata or {}).items() if isinstance(v, str) and k not in ("id", "title", "text")}
            fields = mine if fields is None else {k: fields[k] | mine[k] for k in fields.keys() & mine.keys()}
    return next((k for k in sorted(fields or {}) if len(fields[k]) > 1 and _CRITERION.fullmatch(k)), None)


def _config(title: str, logs, suffix: str) -> str:
    scorer, highest = _scorer(logs)
    created = sorted(str(log.eval.created)[:10] for log in logs)
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
        "[[judges]]",
        'id = "grader"',
        f'name = "{PLACEHOLDER}: the grader\'s name, as the pages show it"',
        f'model = "{PLACEHOLDER}: the grader model, exactly as called"',
        f'version = "{PLACEHOLDER}: its pinned version"',
        f'house = "{PLACEHOLDER}: the house that trained it"',
        f'since = "{created[0]}"',
        "",
        "[[sweeps]]",
        'id = "s1"',
        f'date = "{created[-1]}"  # the newest log',
        'judges = ["grader"]',
        f'logs = "logs/*{suffix}"',
    ]
    for key in sorted(highest):
        top = next((s for s in SCALES if highest[key] <= s), max(highest[key], 1.0))
        lines += ["", "[[criteria]]", f'id = "{key}"', f'label = "{key.replace("_", " ").replace("-", " ").capitalize()}"',
                  "min = 0.0", f"max = {float(top)!r}  # the smallest round scale holding every score seen: check it"]
    return "\n".join(lines) + "\n"


def _models(logs) -> list[dict]:
    """Each model the logs ran: its id, its name (the id's last part) and its house (the
    provider the id names first): to be checked."""
    ids = sorted({log.eval.model for log in logs})
    return [{"id": m, "name": m.rsplit("/", 1)[-1], "house": m.split("/", 1)[0]} for m in ids]
