"""The pairwise judgments' intake: each line's shape (records.py), then every rule across it, the
configuration and the other records. Every problem is collected before the build stops.

Rules: the file has at least one judgment; a judgment names a known prompt and two different
known models; each side gives its output either as text or by iteration, never both and never
neither; an iteration names an item of the sweep `outputs_from` declares (model, prompt,
iteration) that has an output; the judge is one of the pairwise judges, who judged on the
pairwise date; a margin is on the declared scale, given with every verdict but a tie when a
scale is declared, and never otherwise; every prompt has the field `pairwise.by` names; each
anchor is a known model. What a file not wholly read, or a refused record, would hold is not
checked against (as for items). Whether the ratings exist (the comparison graph) is compute's.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import TypeAdapter

from sitegen.errors import Problem, short_repr
from sitegen.load import SourceFile
from sitegen.families.declared.pairwise.records import PairJudgment

ADAPTER = TypeAdapter(list[PairJudgment])


@dataclass(frozen=True)
class PairwiseInput:
    file: str  # the judgments file, relative to the site's root
    judgments: list[PairJudgment]
    where: list  # where each judgment came from (validate.Where), for its problems
    outputs: dict[tuple[str, str, int], str]  # (model, prompt, iteration) -> text, of the outputs_from sweep


def load(fid: str, cfg, models, prompts, prompt_where, sweeps, lines, loaded, out: list[Problem], refused: dict[str, set]) -> PairwiseInput | None:
    """The judgments of CFG.pairwise, checked. LINES reads a JSONL file as validate._lines does
    (rel, adapter) -> (records, where). None when any problem was found."""
    pw, rel, cfg_rel = cfg.pairwise, f"data/{fid}/{cfg.pairwise.judgments}", f"content/{fid}/benchmark.toml"
    before = len(out)
    judgments, where = lines(rel, ADAPTER)
    unread = loaded.incomplete
    if not judgments and rel not in unread and not any(p.file == rel for p in out[before:]):
        out.append(Problem(rel, None, "", "at least one judgment (the pairwise judgments the configuration names)", "none"))
    model_ids, prompt_ids = {m.id for m in models}, {p.id for p in prompts}
    models_read, prompts_read = f"data/{fid}/models.jsonl" not in unread, f"data/{fid}/prompts.jsonl" not in unread
    outputs = _outputs(cfg, sweeps)
    without = _without_output(cfg, sweeps)
    named: dict[tuple[str, str, int], list[int]] = {}  # an item of outputs_from with no output -> the lines that name it
    labels = {m.label for m in pw.margins}
    for j, w in zip(judgments, where):
        if j.prompt not in prompt_ids and j.prompt not in refused["prompt"] and prompts_read:
            out.append(Problem(*w("$.prompt"), f"a prompt of data/{fid}/prompts.jsonl", short_repr(j.prompt)))
        for side in ("a", "b"):
            mid = getattr(j, f"model_{side}")
            if mid not in model_ids and mid not in refused["model"] and models_read:
                out.append(Problem(*w(f"$.model_{side}"), f"a model of data/{fid}/models.jsonl", short_repr(mid)))
            _check_output(j, side, w, pw.outputs_from, outputs, out)
            key = (mid, j.prompt, getattr(j, f"iteration_{side}"))
            if key in without:
                named.setdefault(key, []).append(w("")[1])
        if j.model_a == j.model_b:
            out.append(Problem(*w("$.model_b"), "a model other than model_a (a judgment compares two)", short_repr(j.model_b)))
        if j.judge not in pw.judges:
            out.append(Problem(*w("$.judge"), f"one of pairwise.judges ({', '.join(pw.judges)})", short_repr(j.judge)))
        _check_margin(j, w, labels, pw.margins, out)
    # the item is where the output is missing, too: a judgment read it
    out.extend(Problem(*without[key]("$.output"), f"the output {len(lines)} pairwise judgment{'s' if len(lines) != 1 else ''} read "
                       f"(the first at {rel}:{lines[0]})", "none") for key, lines in named.items())
    _check_config(fid, cfg, models, zip(prompts, prompt_where), cfg_rel, out, refused, models_read)
    if len(out) > before:
        return None
    return PairwiseInput(rel, judgments, where, outputs)


def _outputs(cfg, sweeps) -> dict[tuple[str, str, int], str]:
    src = cfg.pairwise.outputs_from
    for s in sweeps:
        if s.id == src:
            return {(it.model, it.prompt, it.iteration): it.output for it in s.items if it.output is not None}
    return {}


def _without_output(cfg, sweeps) -> dict:
    """(model, prompt, iteration) -> where the item is, for each item of the outputs_from sweep
    that has no output."""
    for s in sweeps:
        if s.id == cfg.pairwise.outputs_from:
            return {(it.model, it.prompt, it.iteration): w for it, w in zip(s.items, s.where) if it.output is None}
    return {}


def _check_output(j: PairJudgment, side: str, w, outputs_from, outputs: dict, out: list[Problem]) -> None:
    text, it = getattr(j, f"output_{side}"), getattr(j, f"iteration_{side}")
    if (text is None) == (it is None):
        found = "both" if text is not None else "neither"
        out.append(Problem(*w(f"$.output_{side}"), f"exactly one of output_{side} (the text) and iteration_{side} (an item of pairwise.outputs_from)", found))
    elif it is not None and outputs_from is None:
        out.append(Problem(*w(f"$.iteration_{side}"), "output_{0} (pairwise.outputs_from names no sweep to take iteration_{0} from)".format(side), str(it)))
    elif it is not None and (getattr(j, f"model_{side}"), j.prompt, it) not in outputs:
        out.append(Problem(*w(f"$.iteration_{side}"), f"an item of sweep {outputs_from} with an output (model {getattr(j, f'model_{side}')}, "
                           f"prompt {j.prompt})", str(it)))


def _check_margin(j: PairJudgment, w, labels: set, margins, out: list[Problem]) -> None:
    if not margins:
        if j.margin is not None:
            out.append(Problem(*w("$.margin"), "no margin (pairwise.margins declares no scale)", short_repr(j.margin)))
    elif j.verdict == "tie" and j.margin is not None:
        out.append(Problem(*w("$.margin"), "no margin on a tie", short_repr(j.margin)))
    elif j.verdict != "tie" and j.margin not in labels:
        out.append(Problem(*w("$.margin"), f"one of the margins {', '.join(m.label for m in margins)} (pairwise.margins)",
                           "nothing" if j.margin is None else short_repr(j.margin)))


def _check_config(fid, cfg, models, prompts, cfg_rel: str, out: list[Problem], refused, models_read: bool) -> None:
    pw = cfg.pairwise
    judges = {j.id: j for j in cfg.judges}
    for jid in pw.judges:
        j = judges.get(jid)
        if j is not None and not (j.since <= pw.date and (j.until is None or pw.date <= j.until)):
            out.append(Problem(cfg_rel, None, "$.pairwise.date", f"a date when judge {jid!r} judged ({j.since} to {j.until or 'now'})", pw.date))
    known = {m.id for m in models}
    for k, a in enumerate(pw.anchors):
        if a.model not in known and a.model not in refused["model"] and models_read:
            out.append(Problem(cfg_rel, None, f"$.pairwise.anchors[{k}].model", f"a model of data/{fid}/models.jsonl", short_repr(a.model)))
    if pw.by is not None:
        out.extend(Problem(*w(f"$.{pw.by}"), f"the field pairwise.by names ({pw.by!r}, in {cfg_rel})", "nothing")
                   for p, w in prompts if p.field(pw.by) is None)
