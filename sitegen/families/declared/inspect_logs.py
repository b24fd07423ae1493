"""Inspect AI evaluation logs as a declared benchmark's items, read with Inspect's own reader.

A sweep that names `logs` (a glob under data/<family>/) takes its items from the logs it
matches instead of an items file. Each log is one model's run of the task (`eval.model`), and
each of its samples, by id and epoch, one item (prompt, iteration); the rest is mapped as the
configuration's [inspect] table says (config.Inspect):

    sample.scores[...].value            a judgment's scores: every metric's (scorers.py: a dict
                                        scorer's criteria, a numeric value, a rate)
    sample.scores[...].explanation      its rationale (each scorer's, named, when several give one)
    sample.output.completion            the output
    sample.error_retries, sample.error  failed attempts, each with its message
    sample.input, string metadata       the prompt's text and fields (when the site has no prompts.jsonl),
                                        metadata.title its title

The records made here are the family's own (models.Item, models.Prompt), checked by every rule
an items file is; a problem is located in the log: its file, the sample by id and epoch, and the
field as Inspect names it. Which logs' samples a sweep uses is inspect_rules' to decide: logs of
one task only, one log per model, a model's older log used by no sweep unless named superseded (a
later log never silently replaces an earlier one), and no log created after the sweep's date. A
used log whose status is not `success` is a problem. Each log's own identity (eval and run ids,
task and its version, dataset, model, generation config, epochs, created, and the log that
supersedes it) is kept beside its SHA-256 for the manifest and the method page, whether its
samples are used or not.

Inspect is an optional dependency (`pip install "sitegen-evidence[inspect]"`); without it a site that
names logs gets one problem saying what to install, and a site that names none never imports it.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sitegen.errors import Problem, short_repr
from sitegen.families.declared import inspect_rules
from sitegen.load import JsonRecord, Loaded, SourceFile, read_bytes

INSTALL = 'the Inspect AI log reader (pip install "sitegen-evidence[inspect]")'


@dataclass(frozen=True)
class LogIdentity:
    """What a log says it is, published beside its SHA-256."""

    file: str
    sha256: str
    status: str
    eval_id: str
    run_id: str
    task: str
    task_id: str
    task_version: str
    model: str
    created: str
    generation_config: dict
    samples: int
    dataset: dict  # eval.dataset's name, location and number of samples, where the log records them
    epochs: int | None  # eval.config.epochs, or where the log records none, its samples' highest epoch
    superseded_by: str | None = None  # the newer log of the same model and task the sweep reads instead (its `superseded`)

    def as_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(frozen=True)
class Where:
    """Where an item record came from: a line of an items file, or a sample of a log. Called with
    a path in the record (`$.judgments[0].scores.voice`), it gives (file, line, path) for a
    Problem, the path as the source names it."""

    file: str
    line: int | None
    sample: str | None = None  # "$.samples[id=p1, epoch=2]" for a log
    scorer: Any = ""  # for a log, its scorers (scorers.Scoring), which say where a score lies in it
    sample_id: str | None = None  # the sample's id and epoch, for a log
    epoch: int | None = None

    def __call__(self, path: str) -> tuple[str, int | None, str]:
        if self.sample is None:
            return self.file, self.line, path
        return self.file, None, _log_path(self.sample, self.scorer, path)


_RULES = (  # a record's path -> the log's, in order: the first that matches
    (re.compile(r"^\$\.model\b"), lambda m, s, sc: "$.eval.model"),
    (re.compile(r"^\$\.prompt\b"), lambda m, s, sc: f"{s}.id"),
    (re.compile(r"^\$\.iteration\b"), lambda m, s, sc: f"{s}.epoch"),
    (re.compile(r"^\$\.output\b"), lambda m, s, sc: f"{s}.output.completion"),
    (re.compile(r"^\$\.attempts\b"), lambda m, s, sc: f"{s}.error_retries"),
    (re.compile(r"^\$\.judgments\[\d+\]\.scores(.*)$"), lambda m, s, sc: f"{s}.{sc.value_path(m.group(1))}"),
    (re.compile(r"^\$\.judgments\[\d+\]\.rationale$"), lambda m, s, sc: f"{s}.{sc.explanation_path()}"),
    (re.compile(r"^\$\.judgments\b"), lambda m, s, sc: f"{s}.{sc.scorer_path()}"),
    (re.compile(r"^\$\.title\b"), lambda m, s, sc: f"{s}.metadata.title"),
    (re.compile(r"^\$\.text\b"), lambda m, s, sc: f"{s}.input"),
    (re.compile(r"^\$\.id\b"), lambda m, s, sc: f"{s}.id"),
    (re.compile(r"^\$\.(.+)$"), lambda m, s, sc: f"{s}.metadata.{m.group(1)}"),  # a prompt's field is the sample's metadata
)


def _log_path(sample: str, scorer, path: str) -> str:
    for pattern, make in _RULES:
        if m := pattern.match(path):
            return make(m, sample, scorer)
    return sample


@dataclass
class LogSweep:
    """One sweep's logs, as the family's records."""

    items: list[JsonRecord] = field(default_factory=list)  # line = the record's place, 1-based
    item_where: list[Where] = field(default_factory=list)
    prompts: list[JsonRecord] = field(default_factory=list)  # one per sample id, first seen
    prompt_where: list[Where] = field(default_factory=list)
    logs: list[LogIdentity] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


def reader():
    """inspect_ai.log.read_eval_log, or None when Inspect is not installed."""
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        return None
    return read_eval_log


def read_sweep(root: Path, fid: str, pattern: str, judge: str, scorer, failure_reason: str,
               loaded: Loaded, limits, files: dict[str, SourceFile], where_config: tuple[str, str], *, sweep, at: str) -> LogSweep:
    """The records of the logs PATTERN matches. SWEEP (its configuration's [[sweeps]] entry, at
    path AT of the configuration) gives its id, date and superseded logs, which inspect_rules
    decides from; every matched log is hashed and its identity kept, whether its samples are
    used or not."""
    out = LogSweep()
    base = root / "data" / fid
    paths = sorted(p for p in base.glob(pattern) if p.is_file() or p.is_symlink())
    if not paths:
        loaded.problems.append(Problem(*where_config, f"Inspect logs under data/{fid}/ matching {pattern!r}", "none"))
        loaded.incomplete.add(where_config[0])
        return out
    read = reader()  # the caller has said once what to install when it is missing
    runs: list[_Run] = []
    for path in paths:
        src, data = read_bytes(root, path, loaded, limits)
        if data is None:
            continue
        files[src.rel] = src
        out.files.append(src.rel)
        log = _parse(read, data, path.suffix, src.rel, loaded)
        if log is not None:  # its records now, so that only they (not the whole log) are held until the plan
            runs.append(_run(src, log, judge, scorer, failure_reason))
    plan = inspect_rules.plan([r.spec for r in runs], sweep.superseded or [], f"data/{fid}", sweep.id, at, where_config[0], sweep.date,
                              loaded.problems)
    out.logs = [replace(r.identity, superseded_by=plan.superseded_by.get(r.spec.file)) for r in runs]
    seen: dict[tuple[str, str, int], str] = {}  # (model, sample id, epoch) -> the log it is in
    prompts: dict[str, dict] = {}
    for r in runs:
        if r.spec.file not in plan.read:
            continue
        loaded.problems.extend(r.problems)
        for (item, where), (prompt, _w) in zip(r.items, r.prompts):
            key = (r.spec.model, where.sample_id, where.epoch)
            if key in seen:
                loaded.problems.append(Problem(r.spec.file, None, where.sample, "each sample and epoch of a model once in the sweep",
                                               f"also in {seen[key]}"))
                continue
            seen[key] = r.spec.file
            out.items.append(JsonRecord(r.spec.file, len(out.items) + 1, item))
            out.item_where.append(where)
            sid = where.sample_id
            if sid not in prompts:
                prompts[sid] = prompt
                out.prompts.append(JsonRecord(r.spec.file, len(out.prompts) + 1, prompt))
                out.prompt_where.append(where)
            elif prompts[sid] != prompt:
                loaded.problems.append(Problem(r.spec.file, None, f"{where.sample}.input", f"the same input and metadata as sample {sid} "
                                               "has in every other log", "a different one"))
    return out


@dataclass
class _Run:
    """One log, read: what the rules decide from, its identity, and its records."""

    spec: inspect_rules.Spec
    identity: LogIdentity
    items: list[tuple[dict, Where]]
    prompts: list[tuple[dict, Where]]  # one per item, beside it
    problems: list[Problem]  # of the log itself, told only when its samples are used


def _run(src: SourceFile, log, judge: str, scorer, failure_reason: str) -> _Run:
    spec = log.eval
    samples = log.samples or []
    epochs = spec.config.epochs if spec.config is not None and spec.config.epochs is not None else max((s.epoch for s in samples), default=None)
    rules = inspect_rules.spec_of(src.rel, spec)
    identity = LogIdentity(src.rel, src.sha256, str(log.status), spec.eval_id, spec.run_id, spec.task, spec.task_id,
                           str(spec.task_version), spec.model, str(spec.created),
                           spec.model_generate_config.model_dump(exclude_none=True, mode="json"), len(samples),
                           {k: v for k, v in rules.dataset.items() if v is not None and k != "sample_ids"}, epochs)
    problems = []
    if log.status != "success":
        problems.append(Problem(src.rel, None, "$.status", "a log whose run succeeded (\"success\")",
                                f"{short_repr(str(log.status))}" + (f": {log.error.message.splitlines()[0]}" if log.error else "")))
    items, prompts = [], []
    for sample in samples:
        sid, epoch = str(sample.id), sample.epoch
        where = Where(src.rel, None, f"$.samples[id={sid}, epoch={epoch}]", scorer, sid, epoch)
        items.append((_item(spec.model, sample, judge, scorer, failure_reason), where))
        prompts.append((_prompt(sample), where))
    return _Run(rules, identity, items, prompts, problems)


def _parse(read, data: bytes, suffix: str, rel: str, loaded: Loaded):
    """The log, read by Inspect from the very bytes that were hashed."""
    with tempfile.TemporaryDirectory(prefix="sitegen-inspect-") as tmp:
        path = Path(tmp) / f"log{suffix}"
        path.write_bytes(data)
        try:
            return read(str(path))
        except Exception as exc:  # noqa: BLE001 - whatever the reader refuses is a problem of this input
            loaded.problems.append(Problem(rel, None, "", "an Inspect AI evaluation log", said(exc)))
            loaded.incomplete.add(rel)
            return None


def said(exc: Exception) -> str:
    """What the reader said when it refused a log: the exception's class and its own message, on
    one line (a validation error's first field and what it expected, without the link to docs)."""
    lines = [x.strip() for x in str(exc).strip().splitlines() if x.strip() and not x.strip().startswith("For further information")]
    text = ": ".join(lines[:3])
    return f"{type(exc).__name__}: {text[:300]}" if text else type(exc).__name__


def _item(model: str, sample, judge: str, scorer, failure_reason: str) -> dict[str, Any]:
    attempts = [{"outcome": "failed", "reason": failure_reason, "detail": _message(r.message)} for r in (sample.error_retries or [])]
    item: dict[str, Any] = {"model": model, "prompt": str(sample.id), "iteration": sample.epoch}
    if sample.error is not None:
        attempts.append({"outcome": "failed", "reason": failure_reason, "detail": _message(sample.error.message)})
        item["attempts"] = attempts
        return item
    attempts.append({"outcome": "ok"})
    item["attempts"] = attempts
    completion = sample.output.completion if sample.output is not None else ""
    if completion:
        item["output"] = completion
    scores, rationale = scorer.read(sample)  # every metric's scores (scorers.Scoring)
    if scores is None:
        # no judgment: the family's rule (one per judge of the sweep) reports it, at .scores.<scorer>
        item["judgments"] = []
        return item
    judgment: dict[str, Any] = {"judge": judge, "scores": scores}
    if rationale:
        judgment["rationale"] = rationale
    item["judgments"] = [judgment]
    return item


def _message(text: str) -> str:
    """An error's message as a failure's detail: its first line, within the detail's bound."""
    return (text.strip().splitlines() or [""])[0][:2000]


def _prompt(sample) -> dict[str, Any]:
    """The prompt a sample stands for: its id, its metadata's title, its input as text, and its
    metadata's other strings."""
    prompt: dict[str, Any] = {"id": str(sample.id)}
    title = (sample.metadata or {}).get("title")
    if isinstance(title, str):  # the dataset's own title for the sample, which its pages show
        prompt["title"] = title
    text = _input_text(sample.input)
    if text:
        prompt["text"] = text
    for k, v in sorted((sample.metadata or {}).items()):
        if isinstance(v, str) and k not in ("id", "title", "text"):
            prompt[k] = v
    return prompt


def _input_text(value) -> str:
    if isinstance(value, str):
        return value
    parts = []
    for message in value or []:
        content = message.content
        if isinstance(content, str):
            parts.append(content)
        else:
            parts.extend(c.text for c in content if getattr(c, "type", "") == "text")
    return "\n\n".join(p for p in parts if p)
