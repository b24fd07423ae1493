"""The cells (``cells.jsonl``): the noise model, each model's latent quality, the exclusion
plan of each replica group, and the writer that draws and formats one model's cells."""

from __future__ import annotations

import json
import os

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from sitegen.families.canonic.demo.design import (
    ANCHOR_FLOATS,
    BASE_MODELS,
    DOMAINS,
    GATE_FAIL_DOMAIN,
    GATE_FAIL_MODEL,
    JUDGE_LENIENCY,
    MAX_DIMS,
    SHOWS,
    S,
)
from sitegen.families.canonic.demo.seed import _rng
from sitegen.families.canonic.models import SweepFile
from sitegen.families.canonic.validate import weighted_score

# Noise model, on the 0-1 anchor scale.
DOMAIN_SD = 0.02  # a model's per-domain deviation from its base quality
DIMENSION_SD = 0.04  # a model's per-dimension profile within a domain
SHOW_SD = 0.05  # a model's per-show offset on the show-conditioned sitcom dimensions
TASK_SD = 0.05  # task difficulty, shared by all models
OUTPUT_SD = 0.08  # one output's quality, shared by both judges
JUDGE_SD = 0.15  # one judge's reading of one dimension
REPLICA_SD = 0.03  # a replica's shift from its base model (plus REPLICA_SD / 1.5 per domain)
RETRY_OK_RATE = 0.02  # ok generations that needed their one retry

# The exclusion plan, per replica group: exact counts by reason.
# generation = failed generation; refusal = a judge refused on the standard prompt and its one
# reframed retry refused again (about one in three) or ended in an error; reframe = a judge refused, its reframed retry
# scored; error = both judges errored; single-judge = one judge scored, the other errored.
GATE_ROW_PLAN = (("generation", 3), ("refusal", 3), ("reframe", 2), ("single-judge", 1))  # 9 of 30
SPREAD_PLAN = (("generation", 11), ("refusal", 7), ("reframe", 6), ("error", 6), ("single-judge", 8))  # 38
MAX_SPREAD_PER_ROW = 2
FAILURE_REASONS = ("empty", "filtered", "truncated")

ODD_RATIONALE_RATE = 1 / 200  # rationales carrying <, >, & and quotes, which the pipeline must escape
RATIONALES = (
    "Synthetic rationale: {hi} is the clearest strength; {lo} holds the score back.",
    "Synthetic rationale: solid {hi}, but {lo} sits below what the task asks for.",
    "Synthetic rationale: {lo} is the weakest dimension, while {hi} carries the piece.",
    "Synthetic rationale: strongest on {hi}; {lo} needs another pass.",
)
EVEN_RATIONALE = "Synthetic rationale: even across dimensions, every anchor at {a}."
ODD_RATIONALES = (
    'Synthetic rationale: the draft marks its beats as "<setup>" & "<turn>", so {lo} reads as scaffolding; {hi} is fine.',
    "Synthetic rationale: {hi} > {lo} here; the 'button' & the \"tag\" both land a beat late.",
    'Synthetic rationale: frames the conflict as "A < B" & "B > A" instead of dramatising it; {lo} suffers.',
)
REFUSAL_NOTE = "Synthetic note: the judge declined to score this output under the standard prompt."
REFRAME_REFUSAL_NOTE = "Synthetic note: the judge declined again with the craft framing made explicit."
REFRAME_ERROR_NOTE = "Synthetic note: the reframed retry timed out at the provider; no usable response."
ERROR_NOTES = (
    "Synthetic note: provider timeout; no usable response.",
    "Synthetic note: the judge response was not valid JSON.",
    "Synthetic note: the judge response named a dimension outside the rubric.",
)


# ---------------------------------------------------------------- latent quality


def _latent(scale: int) -> dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """group -> (quality [model, domain], dimension profile [model, domain, dim], show offset [model, show])."""
    n, nd, ns = len(BASE_MODELS), len(DOMAINS), len(SHOWS)
    rng = _rng(1)
    base = np.array([m[3] for m in BASE_MODELS])[:, None] + rng.normal(0.0, DOMAIN_SD, (n, nd))
    profile = rng.normal(0.0, DIMENSION_SD, (n, nd, MAX_DIMS))
    show = rng.normal(0.0, SHOW_SD, (n, ns))
    out = {1: (base, profile, show)}
    for g in range(2, scale + 1):
        r = _rng(1, g)
        q = base + r.normal(0.0, REPLICA_SD, (n, 1)) + r.normal(0.0, REPLICA_SD / 1.5, (n, nd))
        out[g] = (np.clip(q, 0.05, 0.95), profile + r.normal(0.0, DIMENSION_SD / 2, profile.shape), show + r.normal(0.0, SHOW_SD / 2, show.shape))
    return out


# ---------------------------------------------------------------- exclusion plan


def _exclusion_plan(g: int, tasks: list[dict]) -> dict[tuple[int, int], tuple]:
    """(base model index, task index) -> (reason, judge index, detail) for one replica group."""
    rng = _rng(3, g)
    domain_ids = list(DOMAINS)
    by_domain = {d: [i for i, t in enumerate(tasks) if t["domain"] == d] for d in domain_ids}
    gate_model = next(i for i, m in enumerate(BASE_MODELS) if m[0] == GATE_FAIL_MODEL)
    gate_domain = domain_ids.index(GATE_FAIL_DOMAIN)

    def detail(reason: str, gate: bool) -> tuple:
        judge = int(rng.integers(2))
        if reason == "generation":
            return ("generation", judge, "filtered" if gate else FAILURE_REASONS[int(rng.integers(3))])
        if reason == "refusal":  # about one in three reframed retries refuses again; the rest end in an error
            return ("refusal", judge, "reframe-refused" if rng.random() < 1 / 3 else None)
        if reason in ("error", "single-judge"):  # detail: which error note
            return (reason, judge, int(rng.integers(len(ERROR_NOTES))))
        return (reason, judge, None)

    plan: dict[tuple[int, int], tuple] = {}
    reasons = [r for r, n in GATE_ROW_PLAN for _ in range(n)]
    picked = rng.choice(by_domain[GATE_FAIL_DOMAIN], size=len(reasons), replace=False)
    for ti, reason in zip(picked.tolist(), reasons):
        plan[(gate_model, ti)] = detail(reason, True)

    rows = [(m, d) for m in range(len(BASE_MODELS)) for d in range(len(domain_ids)) if (m, d) != (gate_model, gate_domain)]
    slots = [row for row in rows for _ in range(MAX_SPREAD_PER_ROW)]
    reasons = [r for r, n in SPREAD_PLAN for _ in range(n)]
    rng.shuffle(reasons)
    chosen = sorted(rng.choice(len(slots), size=len(reasons), replace=False).tolist())
    per_row: dict[tuple[int, int], int] = {}
    for k in chosen:
        per_row[slots[k]] = per_row.get(slots[k], 0) + 1
    it = iter(reasons)
    for (m, d), count in per_row.items():
        for ti in rng.choice(by_domain[domain_ids[d]], size=count, replace=False).tolist():
            plan[(m, ti)] = detail(next(it), False)
    return plan


# ---------------------------------------------------------------- cells


class _Cells:
    """Draws and formats the cells of one model. Shared, read-only design state lives here."""

    def __init__(self, sweep: SweepFile, tasks: list[dict], difficulty: np.ndarray):
        self.judge_ids = [j.id for j in sweep.judges]
        self.task_ids = [t["id"] for t in tasks]
        domain_ids = list(DOMAINS)
        show_ids = [s["id"] for s in SHOWS]
        self.rubrics = [next(d.rubric for d in sweep.domains if d.id == did) for did in domain_ids]
        self.dim_ids = [[d.id for d in r.dimensions] for r in self.rubrics]
        self.dim_words = [[d.replace("-", " ") for d in ids] for ids in self.dim_ids]
        self.t_domain = np.array([domain_ids.index(t["domain"]) for t in tasks])
        self.t_show = np.array([show_ids.index(t["show"]) if t["show"] else -1 for t in tasks])
        self.t_ndims = [len(self.dim_ids[d]) for d in self.t_domain.tolist()]
        # [task, dim]: 1 where the dimension is show-conditioned, 0 elsewhere (and on padding)
        self.t_showdim = np.zeros((len(tasks), MAX_DIMS))
        for ti, d in enumerate(self.t_domain.tolist()):
            for k, dim in enumerate(self.rubrics[d].dimensions):
                self.t_showdim[ti, k] = dim.scope == S
        self.difficulty = difficulty
        self.leniency = np.array(JUDGE_LENIENCY)
        self._scores: dict[tuple, float] = {}

    def score(self, d: int, idx: tuple[int, ...]) -> float:
        key = (d, idx)
        w = self._scores.get(key)
        if w is None:
            anchors = dict(zip(self.dim_ids[d], (ANCHOR_FLOATS[i] for i in idx)))
            w = self._scores[key] = weighted_score(self.rubrics[d], anchors)
        return w

    def _scored(self, judge: str, prompt: str, d: int, idx: tuple[int, ...], template: int, odd: bool) -> dict:
        words = self.dim_words[d]
        if min(idx) == max(idx):
            text = EVEN_RATIONALE.format(a=ANCHOR_FLOATS[idx[0]])
        else:
            hi = words[idx.index(max(idx))]
            lo = words[idx.index(min(idx))]
            text = (ODD_RATIONALES[template % len(ODD_RATIONALES)] if odd else RATIONALES[template]).format(hi=hi, lo=lo)
        return {
            "judge": judge,
            "prompt": prompt,
            "outcome": "score",
            "anchors": dict(zip(self.dim_ids[d], (ANCHOR_FLOATS[i] for i in idx))),
            "rationale": text,
            "weighted_score": self.score(d, idx),
        }

    def _other(self, judge: str, prompt: str, outcome: str, note: str) -> dict:
        return {"judge": judge, "prompt": prompt, "outcome": outcome, "anchors": None, "rationale": note, "weighted_score": None}

    def lines(self, model_id: str, g: int, mi: int, latent: tuple, plan: dict) -> list[str]:
        """The model's cells as lines of cells.jsonl."""
        return [json.dumps(cell, ensure_ascii=False, separators=(",", ":")) + "\n" for cell in self.records(model_id, g, mi, latent, plan)]

    def records(self, model_id: str, g: int, mi: int, latent: tuple, plan: dict) -> list[dict]:
        """The model's cells, one record per task."""
        quality, profile, show = latent
        rng = _rng(4, g, mi)
        n = len(self.task_ids)
        output = rng.normal(0.0, OUTPUT_SD, n)
        noise = rng.normal(0.0, JUDGE_SD, (n, 3, MAX_DIMS))  # judge 0, judge 1, a reframed retry
        retried = (rng.random(n) < RETRY_OK_RATE).tolist()
        template = rng.integers(0, len(RATIONALES), (n, 3)).tolist()
        odd = (rng.random((n, 3)) < ODD_RATIONALE_RATE).tolist()

        # [task, dim]: the output's true quality on each dimension, before any judge reads it
        per_task = quality[mi][self.t_domain] + self.difficulty + output
        per_show = np.where(self.t_show >= 0, show[mi][self.t_show], 0.0)
        mean = per_task[:, None] + profile[mi][self.t_domain] + self.t_showdim * per_show[:, None]
        lenient = np.array([self.leniency[0], self.leniency[1], self.leniency[0]])
        value = mean[:, None, :] + lenient[None, :, None] + noise
        idx = np.clip(np.rint(value * 4), 0, 4).astype(np.int8).tolist()

        j0, j1 = self.judge_ids
        out = []
        for ti in range(n):
            d = int(self.t_domain[ti])
            nd = self.t_ndims[ti]
            ex = plan.get((mi, ti))
            gen = {"status": "ok", "attempts": 2 if retried[ti] else 1, "failure_reason": None}
            judgments: list[dict] = []
            if ex is not None and ex[0] == "generation":
                gen = {"status": "failed", "attempts": 2, "failure_reason": ex[2]}
            else:
                for j, jid in enumerate((j0, j1)):
                    if ex is None or (ex[0] != "error" and j != ex[1]):
                        judgments.append(self._scored(jid, "standard", d, tuple(idx[ti][j][:nd]), template[ti][j], odd[ti][j]))
                    elif ex[0] in ("error", "single-judge"):
                        note = ERROR_NOTES[(ex[2] + j) % len(ERROR_NOTES)]
                        judgments.append(self._other(jid, "standard", "error", note))
                    else:  # refusal or reframe, by judge ex[1]
                        judgments.append(self._other(jid, "standard", "refusal", REFUSAL_NOTE))
                        if ex[0] == "reframe":
                            judgments.append(self._scored(jid, "reframe", d, tuple(idx[ti][2][:nd]), template[ti][2], odd[ti][2]))
                        elif ex[2] == "reframe-refused":
                            judgments.append(self._other(jid, "reframe", "refusal", REFRAME_REFUSAL_NOTE))
                        else:  # every refusal gets its one reframed retry: here the call ended in an error
                            judgments.append(self._other(jid, "reframe", "error", REFRAME_ERROR_NOTE))
            out.append({"model": model_id, "task": self.task_ids[ti], "generation": gen, "judgments": judgments})
        return out


# cells.parquet as the demo writes it: the JSON record of a line, column by column. Any Arrow
# types that say the same JSON are read alike (sitegen.parquet); this is one such encoding.
_JUDGMENT = pa.struct([("judge", pa.string()), ("prompt", pa.string()), ("outcome", pa.string()),
                       ("anchors", pa.map_(pa.string(), pa.float64())), ("rationale", pa.string()),
                       ("weighted_score", pa.float64())])
PARQUET_SCHEMA = pa.schema([("model", pa.string()), ("task", pa.string()),
                            ("generation", pa.struct([("status", pa.string()), ("attempts", pa.int64()),
                                                      ("failure_reason", pa.string())])),
                            ("judgments", pa.list_(_JUDGMENT))])


def write_parquet(path, groups) -> None:
    """Write each group of cell records (a model's) as a row group of a Parquet file, written
    aside and renamed, so memory holds one model's cells at a time."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with pq.ParquetWriter(tmp, PARQUET_SCHEMA, compression="zstd") as writer:
        for records in groups:
            writer.write_table(pa.Table.from_pylist(records, schema=PARQUET_SCHEMA))
    os.replace(tmp, path)
