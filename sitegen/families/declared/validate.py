"""The declarative family's intake: its configuration, its models, prompts and sweeps, and
every rule across them. Every problem is collected before the build stops.

Rules checked here, beyond each record's shape: the configuration's own (models in config.py);
the boards field is on every prompt; ids are unique and display names distinct; each sweep
has at least one item (an empty items file is refused, not published as boards without
rows); in each sweep an item names a known model and prompt, an iteration within the declared repeats, once per
(model, prompt, iteration); its attempts are within the policy, every failed one gives a
reason the policy lists, and only the last may succeed (or, when the configuration says
attempts are not recorded, it has no attempts list, and its `final` gives a listed reason); an
item whose last attempt succeeded has one judgment by each of the sweep's judges and no other,
and a failed item has none; a judgment without scores (status "unscored") has the judge's
reply and neither scores nor an item score, and any other judgment scores exactly the configured criteria, each within its scale, null only where the
criterion is optional, at least one criterion scored; a stated item score agrees with the
configured formula within the tolerance (and is required when the configuration says the
harness states it); the sweep's date lies in each of its judges' dates; every board has items
in the newest sweep. What a file that was not wholly read, or a refused record, would hold is
not checked against: an item naming it has that file's or record's problem already.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from sitegen import amendments, names
from sitegen import freeze as freeze_mod
from sitegen.contract import duplicates, problems_from, validate_many, validate_one
from sitegen.fingerprint import record_fingerprint
from sitegen.errors import Problem, short_repr
from sitegen.fields import Name
from sitegen.load import JsonRecord, Loaded, SourceFile, decode_utf8, read_bytes, read_json, read_jsonl
from sitegen.numbers import display
from sitegen.parquet import ParquetReader, parse_batch
from sitegen.families.declared import CONFIG_NAME
from sitegen.families.declared.config import BenchmarkConfig, Criterion
from sitegen.families.declared import inspect_logs, scorers, settings
from sitegen.families.declared.inspect_logs import INSTALL, LogIdentity, Where, read_sweep
from sitegen.families.declared.models import Item, Judgment, Model, Prompt

_MODELS = TypeAdapter(list[Model])
_PROMPTS = TypeAdapter(list[Prompt])
_ITEMS = TypeAdapter(list[Item])
_NAME = TypeAdapter(Name)


def config_rel(fid: str) -> str:
    return f"content/{fid}/{CONFIG_NAME}"


def data_rel(fid: str, name: str) -> str:
    return f"data/{fid}/{name}"


@dataclass(frozen=True)
class SweepInput:
    id: str
    files: tuple[str, ...]  # its items file, or the Inspect logs it read
    items: list[Item]
    where: list[Where]  # where each item came from, for its problems
    logs: tuple[LogIdentity, ...] = ()  # each Inspect log's own identity


@dataclass(frozen=True)
class DeclaredInput:
    fid: str
    config: BenchmarkConfig
    models: list[Model]
    prompts: list[Prompt]
    sweeps: list[SweepInput]  # in the configuration's order
    files: dict[str, SourceFile]
    log: amendments.Log  # content/<family>/amendments/
    frozen: list[freeze_mod.FrozenCheck]  # with a recorded freeze: each frozen input, as checked
    fingerprints: tuple[str, ...] = ()  # each sweep's settings fingerprint (settings.py), in the configuration's order
    pairwise: object = None  # pairwise.validate.PairwiseInput, when [pairwise] is declared


def judgment_score(config: BenchmarkConfig, j: Judgment) -> float:
    """An item's score by one judge, 0-100, under CONFIG (a sweep's: settings.for_sweep): each
    scored criterion normalised onto 0-1 by its scale, turned round when lower is better, and
    averaged with the criteria's weights over the criteria the judge scored (an unscored optional
    criterion leaves the others' weights to share its part)."""
    total = weight = 0.0
    for c in config.criteria:
        v = j.scores.get(c.id)
        if v is None:
            continue
        x = (v - c.min) / (c.max - c.min)
        total += c.weight * (1.0 - x if c.direction == "lower" else x)
        weight += c.weight
    return 100.0 * total / weight


OVERALL = "overall"  # the address of the board across all the others, when one is published


def board_slug(value: str) -> str:
    """A board's address from its name: ASCII letters and digits lower-cased, every other run
    of characters one hyphen ("Ghost story" -> "ghost-story")."""
    slug = "".join(c if c.isascii() and c.isalnum() else "-" for c in value.lower()).strip("-")
    while "--" in slug:
        slug = slug.replace("--", "-")
    return slug or "board"


def load_declared(fid: str, root: Path, loaded: Loaded, limits) -> DeclaredInput | None:
    out = loaded.problems
    before = len(out)
    files: dict[str, SourceFile] = {}
    raw: dict = {}  # the configuration and the prompts as written, for the freeze's fingerprints
    config = _config(fid, root, loaded, limits, files, raw)
    # The ids of models and prompts refused by their model: an item naming one has its problem
    # there already, not a second one here for an unknown model or prompt.
    refused: dict[str, set] = {"model": set(), "prompt": set()}
    models, model_where = _lines(root, data_rel(fid, "models.jsonl"), _MODELS, loaded, limits, files, refused=refused["model"])
    # The prompts: prompts.jsonl, or when every sweep reads Inspect logs and the site has none,
    # the logs' samples (their input and string metadata).
    # Read from the table as written, so that a configuration refused for another key does not add a
    # problem of a prompts.jsonl it never needed.
    written = (raw.get(config_rel(fid)) or {}).get("sweeps")
    from_logs = (isinstance(written, list) and bool(written) and all(isinstance(s, dict) and s.get("logs") for s in written)
                 and not os.path.lexists(root / data_rel(fid, "prompts.jsonl")))
    prompts, prompt_where = ([], []) if from_logs else _lines(root, data_rel(fid, "prompts.jsonl"), _PROMPTS, loaded, limits, files, raw,
                                                              refused["prompt"])
    log = amendments.read(root, fid, loaded, limits)
    amendments.check(log, out)
    sweeps: list[SweepInput] = []
    fingerprints: tuple[str, ...] = ()
    if config is not None:
        _check_sweep_amendments(fid, config, log, out)
        fingerprints = tuple(settings.fingerprint(raw[config_rel(fid)], i) for i in range(len(config.sweeps)))
        _check_pinned(fid, config, fingerprints, out)
        logged: dict[str, tuple[Prompt, Where]] = {}
        unreadable = any(s.logs for s in config.sweeps) and inspect_logs.reader() is None
        if unreadable:  # one problem for the site, not one per sweep
            out.append(Problem(config_rel(fid), None, "$.sweeps", INSTALL, "inspect_ai is not installed"))
            loaded.incomplete.add(config_rel(fid))
        for i, s in enumerate(config.sweeps):
            if s.items is None and unreadable:
                continue
            if s.items is not None:
                rel = data_rel(fid, s.items)
                items, where = _lines(root, rel, _ITEMS, loaded, limits, files)
                sweeps.append(SweepInput(s.id, (rel,), items, where))
                _check_not_empty(fid, i, s, sweeps[-1], out[before:], out)
                continue
            read = read_sweep(root, fid, s.logs, s.judges[0], scorers.scoring(settings.for_sweep(config, i)), config.inspect.failure_reason,
                              loaded, limits, files, (config_rel(fid), None, f"$.sweeps[{i}].logs"), sweep=s, at=f"$.sweeps[{i}]")
            items, where = _located(_ITEMS, read.items, read.item_where, out)
            sweeps.append(SweepInput(s.id, tuple(read.files), items, where, tuple(read.logs)))
            _check_not_empty(fid, i, s, sweeps[-1], out[before:], out)
            if from_logs:
                for p, w in zip(*_located(_PROMPTS, read.prompts, read.prompt_where, out)):
                    if p.id not in logged:
                        logged[p.id] = (p, w)
                    elif logged[p.id][0] != p:
                        out.append(Problem(*w("$.text"), f"the same input and metadata as sample {p.id} has in every other sweep", "a different one"))
        if from_logs:
            prompts, prompt_where = [p for p, _w in logged.values()], [w for _p, w in logged.values()]
        if config_rel(fid) not in loaded.incomplete:  # else a sweep of logs was not read, and sweeps lacks it
            _check(fid, config, models, model_where, prompts, prompt_where, sweeps, out, loaded.incomplete & set(files), refused)
    pairwise = None
    if config is not None and config.pairwise is not None and config_rel(fid) not in loaded.incomplete:
        from sitegen.families.declared.pairwise import validate as pairwise_validate  # only a benchmark that declares one loads it

        pairwise = pairwise_validate.load(fid, config, models, prompts, prompt_where, sweeps,
                                          lambda rel, adapter: _lines(root, rel, adapter, loaded, limits, files), loaded, out, refused)
    frozen = _freeze(fid, root, config, raw, loaded, limits, files) if config is not None and config.freeze.kind == "recorded" else []
    if config is None or len(out) > before:
        return None
    return DeclaredInput(fid, config, models, prompts, sweeps, files, log, frozen, fingerprints, pairwise)


def _check_not_empty(fid: str, i: int, s, sweep: SweepInput, found: list[Problem], out: list[Problem]) -> None:
    """A sweep with no item at all, and no problem that says why: its boards would have no row
    (an archived sweep's still described by its note) and its pages nothing to show."""
    if sweep.items or any(p.file in sweep.files or p.path.startswith(f"$.sweeps[{i}]") for p in found):
        return
    expected = f"at least one item record (the items sweep {s.id} judged)"
    if s.items is not None:
        out.append(Problem(sweep.files[0], None, "", expected, "none"))
    else:
        out.append(Problem(config_rel(fid), None, f"$.sweeps[{i}].logs", f"logs holding {expected}", "none"))


def _check_sweep_amendments(fid: str, config: BenchmarkConfig, log: amendments.Log, out: list[Problem]) -> None:
    """A sweep whose judges or settings are not the previous sweep's (by date) names the
    amendment that records the change; a named entry is in the log, is an amendment, and is not
    dated after the sweep it introduces."""
    rel = config_rel(fid)
    order = sorted(range(len(config.sweeps)), key=lambda i: (config.sweeps[i].date, i))
    for before, i in zip([None, *order], order):
        s = config.sweeps[i]
        where = f"$.sweeps[{i}].amendment"
        if s.amendment is not None:
            entry = log.get(s.amendment)
            if entry is None:
                out.append(Problem(rel, None, where, f"an entry of the amendment log ({log.dir})", short_repr(s.amendment)))
            elif entry.meta.kind != "amendment":
                out.append(Problem(rel, None, where, "an amendment (a clarification or rename note changes no sweep)", f"{s.amendment}, a {entry.meta.kind}"))
            elif entry.meta.date > s.date:
                out.append(Problem(rel, None, where, f"an amendment dated on or before the sweep ({s.date})", f"{s.amendment} of {entry.meta.date}"))
        elif before is not None:
            prev = config.sweeps[before]
            if sorted(prev.judges) != sorted(s.judges):
                out.append(Problem(rel, None, where, f"the amendment that records the change of judges from sweep {prev.id} "
                                   f"({', '.join(prev.judges)}) to sweep {s.id} ({', '.join(s.judges)})", "none"))
            changed = settings.changes(settings.for_sweep(config, before), settings.for_sweep(config, i))
            if changed:
                out.append(Problem(rel, None, where, f"the amendment that records the change of settings from sweep {prev.id} to sweep {s.id} "
                                   f"({'; '.join(changed)})", "none"))


def _check_pinned(fid: str, config: BenchmarkConfig, fingerprints: tuple[str, ...], out: list[Problem]) -> None:
    """Every sweep a newer one archives pins the fingerprint of its settings, and the settings it
    would be computed with now have it: an edit of the top level (a weight, the gate) cannot
    recompute an old sweep. A sweep whose settings changed on purpose gets its own tables as
    they were; one whose rubric changes is a new sweep."""
    newest = max(range(len(config.sweeps)), key=lambda i: (config.sweeps[i].date, i))
    for i, s in enumerate(config.sweeps):
        now, where = fingerprints[i], f"$.sweeps[{i}].settings_fingerprint"
        if s.settings_fingerprint is None and i != newest:
            out.append(Problem(config_rel(fid), None, where, f"the fingerprint of the settings sweep {s.id} was published with, since a newer "
                               f"sweep archives it (its settings as they are now have {now}: if those are the ones it was published with, pin them)", "none"))
        elif s.settings_fingerprint is not None and s.settings_fingerprint != now:
            out.append(Problem(config_rel(fid), None, where, f"the settings sweep {s.id} was published with (fingerprint {s.settings_fingerprint}): "
                               f"an archived sweep is not recomputed with today's configuration; give sweeps[{i}] its own tables as they were",
                               f"settings whose fingerprint is {now}"))


def freeze_rel(fid: str) -> str:
    return data_rel(fid, "freeze.json")


def frozen_inputs(fid: str, table: dict, prompts: list | None) -> list[freeze_mod.Wanted]:
    """What a recorded freeze fixes, with the fingerprints of the inputs as they are now: the
    rubric (the configuration's criteria and item_score tables, as written) and the prompts
    (prompts.jsonl's records, as written, in file order). Each is a record fingerprint
    (sitegen.fingerprint): the SHA-256 of its JSON with keys sorted and no whitespace, so
    anyone can recompute it from the files with a JSON library, and a change of layout or
    key order changes nothing while any change of a value does."""
    rubric = {"criteria": table.get("criteria"), "item_score": table.get("item_score")}
    return [freeze_mod.Wanted("rubric", "rubric", f"{config_rel(fid)} $.criteria", record_fingerprint(rubric)),
            freeze_mod.Wanted("prompts", "prompts", data_rel(fid, "prompts.jsonl"), None if prompts is None else record_fingerprint(prompts))]


def _freeze(fid: str, root: Path, config: BenchmarkConfig, raw: dict, loaded: Loaded, limits, files: dict[str, SourceFile]) -> list[freeze_mod.FrozenCheck]:
    rel = freeze_rel(fid)
    wanted = frozen_inputs(fid, raw[config_rel(fid)], raw.get(data_rel(fid, "prompts.jsonl")))
    if not os.path.lexists(root / rel):
        loaded.frozen[rel] = wanted  # `sitegen freeze record` writes it
        loaded.problems.append(Problem(rel, None, "", f"the freeze record (freeze.kind = \"recorded\" in {config_rel(fid)}: "
                                       f"`sitegen freeze record --family {fid}` writes it)", "no such file"))
        return []
    src, rec = read_json(root, root / rel, loaded, limits)
    if src is not None:
        files[rel] = src
    if rec is None:
        return []
    record, errs = validate_one(freeze_mod.FreezeFile, rec.value, rel, None)
    loaded.problems.extend(errs)
    if record is None:
        return []
    loaded.frozen[rel] = wanted
    return freeze_mod.check(record, rel, wanted, loaded.problems)


def _config(fid: str, root: Path, loaded: Loaded, limits, files: dict[str, SourceFile], raw: dict) -> BenchmarkConfig | None:
    rel = config_rel(fid)
    src, data = read_bytes(root, root / rel, loaded, limits)
    if data is None:
        return None
    files[rel] = src
    text = decode_utf8(data, rel, loaded.problems)
    if text is None:
        return None
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        loaded.problems.append(Problem(rel, None, "", "valid TOML", str(exc)))
        return None
    for path, value in _placeholders(table, "$"):  # left by `sitegen new site --from-inspect` where the logs cannot tell
        loaded.problems.append(Problem(rel, None, path, "the benchmark's own value (this is a placeholder to write)", short_repr(value)))
    try:
        raw[rel] = table
        return BenchmarkConfig.model_validate(table, strict=True)
    except ValidationError as exc:
        loaded.problems.extend(problems_from(exc, lambda loc: (rel, None, loc)))
        return None


PLACEHOLDER = "FILL IN"


def _placeholders(value, path: str):
    """(path, text) of every string of the configuration that is still a scaffold's placeholder."""
    if isinstance(value, str):
        if value.startswith(PLACEHOLDER):
            yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _placeholders(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _placeholders(v, f"{path}[{i}]")


def _lines(root: Path, rel: str, adapter: TypeAdapter, loaded: Loaded, limits, files: dict[str, SourceFile], raw: dict | None = None,
           refused: set | None = None):
    path = root / rel
    if not os.path.lexists(path):
        loaded.problems.append(Problem(rel, None, "", "this file (the family's configuration names it)", "no such file"))
        loaded.incomplete.add(rel)
        return [], []
    if rel.endswith(".parquet"):
        src, records = read_parquet(root, path, loaded, limits)
    else:
        src, records = read_jsonl(root, path, loaded, limits)
    if src is None:
        return [], []
    files[rel] = src
    if raw is not None:
        raw[rel] = [r.value for r in records]
    return _located(adapter, records, [Where(rel, r.line) for r in records], loaded.problems, refused)


def _located(adapter: TypeAdapter, records: list[JsonRecord], where: list[Where], out: list[Problem],
             refused: set | None = None) -> tuple[list, list[Where]]:
    """The records that meet ADAPTER's model, with where each came from; a problem of any other
    is put where its record came from (a line of a file, or a sample of an Inspect log), and its
    id, when it names one, goes into REFUSED."""
    at = {r.line: w for r, w in zip(records, where)}
    values, errs = validate_many(adapter, records, "")
    out.extend(Problem(*at[e.line](e.path), e.expected, e.found, e.more) for e in errs)
    bad = {e.line for e in errs}
    if refused is not None:
        refused.update(r.value["id"] for r in records if r.line in bad and isinstance(r.value, dict) and isinstance(r.value.get("id"), str))
    return values, [at[r.line] for r in records if r.line not in bad]


def read_parquet(root: Path, path: Path, loaded: Loaded, limits) -> tuple[SourceFile | None, list[JsonRecord]]:
    """The rows of a Parquet items file as records, row n (1-based) in place of a line number
    (sitegen.parquet). A null inside a judgment's scores is kept: there it means "not scored"."""
    reader = ParquetReader(root, path, loaded, limits)
    records: list[JsonRecord] = []
    for raw in reader.raw_batches():
        found, problems = parse_batch(raw, keep_nulls=frozenset({"scores"}))
        records += found
        loaded.problems.extend(problems)
    return reader.source, records


def _check(fid, config, models, model_where, prompts, prompt_where, sweeps, out, unread: set[str], refused: dict[str, set]) -> None:
    """UNREAD: the files whose records are not all there (one that did not decode, a line that
    did not parse): what they would hold is not checked against, so an item naming a model or
    prompt in them is not reported as naming an unknown one; nor one of REFUSED's ids."""
    cfg = config_rel(fid)
    models_rel, prompts_rel = data_rel(fid, "models.jsonl"), data_rel(fid, "prompts.jsonl")
    for d in duplicates(m.id for m in models):
        out.append(Problem(*model_where[[m.id for m in models].index(d)]("$.id"), "a unique model id", short_repr(d)))
    out.extend(names.clashes(((*w("$.name"), m.name) for m, w in zip(models, model_where)), "model"))
    for d in duplicates(p.id for p in prompts):
        out.append(Problem(prompts_rel, None, "$.id", "a unique prompt id", short_repr(d)))
    # Each sweep's boards, by its own boards table; the newest's are the ones checked for items.
    newest = max(range(len(config.sweeps)), key=lambda i: (config.sweeps[i].date, i))
    boards_of: dict = {}
    for i in [newest, *range(len(config.sweeps))]:
        own = settings.for_sweep(config, i)
        if own.boards not in boards_of:
            found: list[Problem] = []
            boards_of[own.boards] = _board_of(own, prompts, prompt_where, cfg, found)
            out.extend(p for p in found if p not in out)  # a prompt lacking the field is told once, whichever sweeps group by it
    board_of = boards_of[settings.for_sweep(config, newest).boards]
    prompts_read = prompts_rel not in unread
    if not prompts and prompts_read:
        out.append(Problem(prompts_rel, None, "", "at least one prompt", "none"))
    judges = {j.id: j for j in config.judges}
    for i, s in enumerate(config.sweeps):
        for jid in s.judges:
            j = judges.get(jid)
            if j is not None and not (j.since <= s.date and (j.until is None or s.date <= j.until)):
                until = j.until or "now"
                out.append(Problem(cfg, None, f"$.sweeps[{i}].date", f"a date when judge {jid!r} judged ({j.since} to {until})", s.date))
    model_ids, prompt_ids = {m.id for m in models}, {p.id for p in prompts}
    for i, (s, sweep) in enumerate(zip(config.sweeps, sweeps)):
        own = settings.for_sweep(config, i)  # its criteria, repeats and policy, not necessarily the top level's
        criteria = {c.id: c for c in scorers.all_criteria(own)}  # every metric's
        repeats = f"sweeps[{i}].repeats.iterations" if s.repeats else "repeats.iterations"
        seen: set[tuple[str, str, int]] = set()
        for item, where in zip(sweep.items, sweep.where):
            if item.model not in model_ids and item.model not in refused["model"] and models_rel not in unread:
                out.append(Problem(*where("$.model"), f"a model of {models_rel}", short_repr(item.model)))
            if item.prompt not in prompt_ids and item.prompt not in refused["prompt"] and prompts_read:
                out.append(Problem(*where("$.prompt"), f"a prompt of {prompts_rel}", short_repr(item.prompt)))
            if item.iteration > own.repeats.iterations:
                out.append(Problem(*where("$.iteration"), f"at most {own.repeats.iterations} ({repeats} in {cfg})", str(item.iteration)))
            key = (item.model, item.prompt, item.iteration)
            if key in seen:
                out.append(Problem(*where(""), "one record per model, prompt and iteration", f"{item.model} {item.prompt} #{item.iteration} again"))
            seen.add(key)
            _check_attempts(own, item, where, out)
            _check_judgments(own, s.judges, criteria, item, where, out)
    if prompts_read and not refused["prompt"]:
        _check_boards_have_items(config, sweeps, board_of, unread, out)


def _board_of(config: BenchmarkConfig, prompts: list[Prompt], prompt_where: list, cfg: str, out: list[Problem]) -> dict[str, tuple[str, tuple]]:
    """prompt id -> (its board's name, where its field is), under CONFIG's boards (a sweep's)."""
    by = config.boards.by
    board_of: dict[str, tuple[str, tuple]] = {}  # prompt id -> (its board's name, where its field is)
    if by is None:
        board_of = {p.id: (config.title, w("")) for p, w in zip(prompts, prompt_where)}
    else:
        boards: dict[str, str] = {}  # address -> the first value that took it
        if config.boards.overall:
            boards[OVERALL] = config.boards.overall_label
        for p, w in zip(prompts, prompt_where):
            value = p.field(by)
            if value is None:
                out.append(Problem(*w(f"$.{by}"), f"the field boards.by names ({by!r}, in {cfg})", "nothing"))
                continue
            try:  # a board's name is identity, held to a name's rules (no bidi controls, no invisible characters)
                _NAME.validate_python(value, strict=True)
            except ValidationError as exc:
                out.extend(Problem(*w(f"$.{by}"), p_.expected, p_.found) for p_ in problems_from(exc, lambda loc: ("", None, ())))
                continue
            slug = board_slug(value)
            if boards.setdefault(slug, value) != value:
                out.append(Problem(*w(f"$.{by}"), f"a board whose address differs from every other board's "
                                   f"({boards[slug]!r} already has {slug!r})", short_repr(value)))
                continue
            board_of[p.id] = (value, w(f"$.{by}"))
    return board_of


def _check_boards_have_items(config: BenchmarkConfig, sweeps: list[SweepInput], board_of: dict[str, tuple[str, tuple]],
                             unread: set[str], out: list[Problem]) -> None:
    """Every board has an item in the newest sweep, the one the boards show: a board no model
    was run on (a category whose prompts no item names) would be a page of nothing."""
    newest = max(range(len(config.sweeps)), key=lambda i: (config.sweeps[i].date, i))
    sweep = sweeps[newest]
    if not sweep.items or unread & set(sweep.files):  # no items at all is the sweep's own problem
        return
    named = {item.prompt for item in sweep.items}
    run = {board_of[p][0] for p in named if p in board_of}
    told: set[str] = set()
    for name, where in board_of.values():
        if name not in run and name not in told:
            told.add(name)
            out.append(Problem(*where, f"a board with items in sweep {sweep.id} (the newest, which the boards show)",
                               f"{short_repr(name)}, whose prompts no item of {', '.join(sweep.files)} names"))


def _check_attempts(config: BenchmarkConfig, item: Item, where: tuple, out: list[Problem]) -> None:
    policy = config.generation
    if not policy.attempts_recorded:  # the harness kept only the final output: no list to check
        if item.attempts is not None:
            out.append(Problem(*where("$.attempts"), "no attempts list (generation.attempts_recorded is false)", f"{len(item.attempts)} attempts"))
        elif item.final is not None and item.final.outcome == "failed" and item.final.reason not in policy.failure_reasons:
            out.append(Problem(*where("$.final.reason"), f"one of {policy.failure_reasons} (generation.failure_reasons)", short_repr(item.final.reason)))
        elif item.final is not None and item.final.outcome == "ok" and item.final.reason is not None:
            out.append(Problem(*where("$.final.reason"), "no reason on a successful attempt", short_repr(item.final.reason)))
        return
    if item.final is not None:
        out.append(Problem(*where("$.final"), "no final (the attempts list records every attempt; final is for generation.attempts_recorded = false)", "a final"))
    if item.attempts is None:
        out.append(Problem(*where("$.attempts"), "every generation attempt (or generation.attempts_recorded = false)", "nothing"))
        return
    if len(item.attempts) > policy.attempts:
        out.append(Problem(*where("$.attempts"), f"at most {policy.attempts} attempts (generation.attempts)", f"{len(item.attempts)}"))
    for k, a in enumerate(item.attempts):
        if a.outcome == "ok" and k < len(item.attempts) - 1:
            out.append(Problem(*where(f"$.attempts[{k}].outcome"), "\"failed\": only the last attempt may succeed", "\"ok\""))
        if a.outcome == "failed" and a.reason not in policy.failure_reasons:
            out.append(Problem(*where(f"$.attempts[{k}].reason"), f"one of {policy.failure_reasons} (generation.failure_reasons)", short_repr(a.reason)))
        if a.outcome == "ok" and a.reason is not None:
            out.append(Problem(*where(f"$.attempts[{k}].reason"), "no reason on a successful attempt", short_repr(a.reason)))


def _check_judgments(config: BenchmarkConfig, sweep_judges: list[str], criteria: dict[str, Criterion], item: Item,
                     where: tuple, out: list[Problem]) -> None:
    ok = item.last.outcome == "ok"
    if not ok:
        if item.judgments:
            out.append(Problem(*where("$.judgments"), "no judgments: " + ("every attempt failed" if item.attempts else "the generation failed") + ", so nothing was judged", f"{len(item.judgments)}"))
        return
    named = [j.judge for j in item.judgments]
    if sorted(named) != sorted(sweep_judges):
        out.append(Problem(*where("$.judgments"), f"one judgment by each of the sweep's judges ({', '.join(sweep_judges)})",
                           ", ".join(named) or "none"))
    for k, j in enumerate(item.judgments):
        path = f"$.judgments[{k}]"
        if not _judged_as_stated(j, path, where, out):
            continue
        missing = [c for c in criteria if c not in j.scores]
        extra = [c for c in j.scores if c not in criteria]
        if missing:
            out.append(Problem(*where(f"{path}.scores"), "a score (or null, if optional) for every criterion", "none for " + ", ".join(missing)))
        for c in extra:
            out.append(Problem(*where(f"{path}.scores.{c}"), "a criterion of the configuration", short_repr(c)))
        for cid, v in j.scores.items():
            c = criteria.get(cid)
            if c is None:
                continue
            if v is None and not c.optional:
                out.append(Problem(*where(f"{path}.scores.{cid}"), f"a score on {display(c.min, 2)}-{display(c.max, 2)} (the criterion is not optional)", "null"))
            elif v is not None and not c.min <= v <= c.max:
                out.append(Problem(*where(f"{path}.scores.{cid}"), f"a score on {display(c.min, 2)}-{display(c.max, 2)}", short_repr(v)))
        if missing or extra or any(v is None and not criteria[c].optional for c, v in j.scores.items() if c in criteria):
            continue
        if empty := scorers.empty_metrics(config, j.scores):
            out.extend(Problem(*where(f"{path}.scores"), f"at least one criterion scored{what}", "every one null") for what in empty)
            continue
        if any(v is not None and not criteria[c].min <= v <= criteria[c].max for c, v in j.scores.items()):
            continue
        computed = judgment_score(scorers.restrict(config, scorers.metrics_of(config)[0]), j)  # the headline's
        if j.score is None and config.item_score.source == "stated":
            out.append(Problem(*where(f"{path}.score"), "the item score the harness computed (item_score.source is \"stated\")", "nothing"))
        elif j.score is not None and abs(j.score - computed) > config.item_score.tolerance:
            out.append(Problem(*where(f"{path}.score"), f"{display(computed, 4)} (the configured formula), within {display(config.item_score.tolerance, 4)}",
                               short_repr(j.score)))


def _judged_as_stated(j: Judgment, path: str, where: tuple, out: list[Problem]) -> bool:
    """Whether J has scores to check: a scored judgment has them; an unscored one (a reply
    without scores) has its reply and neither scores nor an item score."""
    if j.status == "scored":
        if j.scores is None:
            out.append(Problem(*where(f"{path}.scores"), "a score (or null, if optional) for every criterion, or status \"unscored\" with the judge's reply", "nothing"))
        return j.scores is not None
    if j.scores is not None:
        out.append(Problem(*where(f"{path}.scores"), "no scores (status is \"unscored\": the judge's reply carried none)", f"{len(j.scores)} scores"))
    if j.score is not None:
        out.append(Problem(*where(f"{path}.score"), "no item score (status is \"unscored\")", short_repr(j.score)))
    if j.reply is None:
        out.append(Problem(*where(f"{path}.reply"), "the judge's reply as received (status is \"unscored\")", "nothing"))
    return False
