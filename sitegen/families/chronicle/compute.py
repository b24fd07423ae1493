"""Every number ChronicleBench publishes, recomputed from the runs and the reference corpus.

- A run is eligible when its words lie in the band (inclusive); an ineligible run is scored
  and published as a DNF diagnostic, never ranked.
- A run's ChronicleBench Score is the mean of its window composites; a window composite is the
  median of three judge runs' capped composites (validate.py recomputes and checks both).
- An entrant ranks only when its runs hold the full protocol (both arms for a model, its own
  arm for a system, every brief, every replicate; failed runs count, they are on record):
  otherwise its rows are unranked on every board, as a partial cohort, naming the missing runs.
- Boards 1 and 2 rank an entrant by the mean score of its eligible runs, with a 95% percentile
  bootstrap interval over those runs (10,000 resamples, seed from "v1.1|board|entrant"). Board 3
  ranks the free-run arm by voluntary length: the median words a model wrote before stopping on
  its own, over all its free runs, with a 95% percentile bootstrap interval of that median drawn
  the same way. Every board gives each ranked row the rank range of stats.rank_ranges and
  lists ranked rows by their measure, then entrant id.
- A row is self-family when its entrant comes from the judge's house. The contract names the
  house of neither: both are pinned by their slugs, vendor/model, and the vendor is the house
  (an entrant's `provider` is where it is served from, not who made it).
- The human band is the median and interquartile range of the 36 v1.1 reference novels; each
  ranked entrant is placed as a percentile of it, with the percentiles of its interval's ends.
- The length-sensitivity analysis (protocol section 7), when a stratum was short and novels
  over the band's ceiling were drawn under the extended one: the band without those novels, and
  each scoring board's ranked entrants placed as a percentile of it beside their percentile of
  the whole band. None when no stratum was short.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from dataclasses import dataclass, replace

import numpy as np

from sitegen import stats
from sitegen.families.chronicle.validate import (
    ChronicleInput, book_score, capped_composite, median_composite, weighted_composite, window_composite,
)

V11 = "v1.1"
COST_PLACES = 6  # dollars are recorded to the micro-dollar


@dataclass(frozen=True)
class JudgeComposite:
    """One judge run's composite on one window: as weighted, and as capped (the same when no
    cap binds)."""

    weighted: float
    capped: float
    cap: object | None  # models.Cap, as recorded

    @property
    def binding(self) -> bool:
        """The cap lowered the composite."""
        return self.capped < self.weighted


@dataclass(frozen=True)
class RunResult:
    run: object  # models.Run
    score: float | None  # None when the run has no window at all
    eligible: bool
    windows: dict[str, float]
    cost: float
    judges: dict[str, tuple[JudgeComposite, ...]]  # window -> its judge runs, in the recorded order
    whole_book: float  # the median of the whole-book judge runs: a diagnostic, never part of the score

    @property
    def binding_caps(self) -> int:
        return sum(j.binding for js in self.judges.values() for j in js)

    @property
    def caps(self) -> list[tuple[str, int, JudgeComposite]]:
        """(window, judge run from 1, its composite) of every recorded cap, binding or not."""
        return [(w, i, j) for w, js in self.judges.items() for i, j in enumerate(js, start=1) if j.cap is not None]


@dataclass(frozen=True)
class Row:
    entrant: str
    name: str
    runs: int
    eligible: int
    score: float | None = None
    low: float | None = None
    high: float | None = None  # low and high: the 95% interval of the board's measure (score, or median words)
    rank_best: int | None = None
    rank_worst: int | None = None
    percentile: float | None = None
    pct_low: float | None = None
    pct_high: float | None = None
    median_words: float | None = None  # board 3
    min_words: int | None = None
    max_words: int | None = None
    seed: int | None = None
    reason: str | None = None  # why the row has no rank: DNF, or partial-cohort
    missing: tuple[tuple[str, str, int], ...] = ()  # partial-cohort: the (arm, brief, replicate) runs it lacks
    required: int = 0  # the runs the full protocol asks of the entrant, over all its arms
    self_family: bool = False  # the entrant comes from the judge's house
    cohort: str = ""  # the cohort it joined with
    binding_caps: int = 0  # judge runs a hard cap lowered, over the runs the row's measure uses


@dataclass(frozen=True)
class BoardResult:
    id: str
    number: int
    title: str
    arm: str
    description: str
    metric: str  # "score" or "voluntary-length"
    rows: list[Row]

    @property
    def first(self) -> list[Row]:
        """The rows whose rank range starts at 1: tied for first when there are several."""
        return [r for r in self.rows if r.rank_best == 1]


@dataclass(frozen=True)
class Band:
    n: int
    median: float
    q1: float
    q3: float


@dataclass(frozen=True)
class Exhibit:
    """The system against its base model. The difference is None when either side has no
    eligible run or ran part of the protocol: the exhibit is then published without it, as a
    loss publishes like any other (protocol section 8), never dropped."""

    system: Row
    base: Row
    difference: float | None
    low: float | None
    high: float | None
    seed: int | None


@dataclass(frozen=True)
class Sensitivity:
    """The band with and without the novels drawn under a short stratum's extended ceiling."""

    extended: list[tuple[object, float]]  # (ReferenceNovel, score) of those novels, by id
    without: Band | None  # None when every novel was drawn over the band's ceiling
    # (board, row, percentile of the whole band, percentile of the band without them), each
    # scoring board's ranked rows in its order
    rows: list[tuple[object, Row, float, float]]


@dataclass(frozen=True)
class ChronicleResults:
    input: ChronicleInput
    runs: list[RunResult]
    boards: list[BoardResult]
    band: Band
    band_by_stratum: dict[str, Band]
    band_by_window: dict[str, Band]
    legacy: Band
    recognition: dict[str, Band]
    exhibit: Exhibit | None
    cost_by_entrant: dict[str, float]
    cost_by_cohort: dict[str, float]
    references: list[tuple[object, float]]  # (ReferenceNovel, recomputed score)
    sensitivity: Sensitivity | None  # None when no stratum was short


def _band(values: list[float]) -> Band:
    a = np.asarray(values, dtype=np.float64)
    q1, med, q3 = np.percentile(a, [25, 50, 75])
    return Band(len(a), float(med), float(q1), float(q3))


def dollars(costs) -> float:
    """A sum of costs, rounded to the micro-dollar the calls are recorded in: the download
    carries it and the pages round it, so both start from one number (the float sum of 6.283548
    and 5.739102 lies just under 12.02265, which a page would round down to 12.0226)."""
    return round(math.fsum(costs), COST_PLACES)


def percentile_of(x: float, reference: np.ndarray) -> float:
    """The share of reference novels scoring below x, ties counted half, in percent."""
    below = float((reference < x).sum())
    ties = float((reference == x).sum())
    return 100.0 * (below + 0.5 * ties) / len(reference)


def compute(inp: ChronicleInput) -> ChronicleResults:
    c = inp.cohort
    weights = {p.id: p.weights for p in c.profiles}.__getitem__
    lo, hi = c.eligibility.min_words, c.eligibility.max_words
    runs = []
    for r in inp.runs:
        wins = {w.window: window_composite(w, weights) for w in r.windows}
        judges = {w.window: tuple(JudgeComposite(weighted_composite(j, weights(j.profile)), capped_composite(j, weights(j.profile)), j.cap)
                                  for j in w.runs) for w in r.windows}
        whole = median_composite(r.scoring.whole_book, weights)
        runs.append(RunResult(r, book_score(r.windows, weights) if r.windows else None, lo <= r.words <= hi, wins,
                              dollars(call.cost_usd for call in r.calls), judges, whole))
    refs = [(ref, book_score(ref.windows, weights)) for ref in inp.references]
    v11 = [(ref, s) for ref, s in refs if ref.corpus == V11]
    band_values = np.array([s for _, s in v11])
    entrants = {e.id: e for e in c.entrants}
    judge_house = house(c.instrument.judge_slug)
    missing = {eid: _missing_runs(e, c, inp.runs) for eid, e in entrants.items()}

    boards = []
    for b in sorted(c.boards, key=lambda b: b.number):
        board_runs: dict[str, list[RunResult]] = defaultdict(list)
        for rr in runs:
            e = entrants[rr.run.entrant]
            if rr.run.arm == b.arm and e.status == "active":  # withdrawn models: diagnostics only
                board_runs[e.id].append(rr)
        for e in c.entrants:  # an active entrant with no run on this arm yet is a row too: a partial one
            if e.status == "active" and b.arm in required_arms(e):
                board_runs.setdefault(e.id, [])
        partial = {eid: missing[eid] for eid in board_runs if missing[eid]}
        if b.arm == "free-run":
            metric, rows = "voluntary-length", _length_rows(b.id, board_runs, entrants, partial)
        else:
            metric, rows = "score", _score_rows(b.id, board_runs, entrants, band_values, partial)
        rows = [replace(r, self_family=house(r.entrant) == judge_house, cohort=entrants[r.entrant].cohort,
                        required=len(required_runs(entrants[r.entrant], c))) for r in rows]
        boards.append(BoardResult(b.id, b.number, b.title, b.arm, b.description, metric, rows))

    by_stratum: dict[str, list[float]] = defaultdict(list)
    by_window: dict[str, list[float]] = defaultdict(list)
    recog: dict[str, list[float]] = defaultdict(list)
    for ref, s in v11:
        by_stratum[ref.stratum].append(s)
        recog["recognized" if ref.recognized else "not recognized"].append(s)
        for w in ref.windows:
            by_window[w.window].append(window_composite(w, weights))
    legacy = [s for ref, s in refs if ref.corpus != V11]

    cost_entrant: dict[str, list[float]] = defaultdict(list)
    cost_cohort: dict[str, list[float]] = defaultdict(list)
    for rr in runs:
        cost_entrant[rr.run.entrant].append(rr.cost)
        cost_cohort[rr.run.cohort].append(rr.cost)

    return ChronicleResults(
        input=inp, runs=runs, boards=boards, band=_band(list(band_values)),
        band_by_stratum={k: _band(v) for k, v in sorted(by_stratum.items())},
        band_by_window={w: _band(by_window[w]) for w in c.windows if by_window.get(w)},
        legacy=_band(legacy) if legacy else Band(0, 0.0, 0.0, 0.0),
        recognition={k: _band(v) for k, v in sorted(recog.items())},
        exhibit=_exhibit(inp, runs, boards),
        cost_by_entrant={e: dollars(v) for e, v in sorted(cost_entrant.items())},
        cost_by_cohort={k: dollars(v) for k, v in sorted(cost_cohort.items())},
        references=refs,
        sensitivity=_sensitivity(inp, v11, band_values, boards),
    )


def _sensitivity(inp: ChronicleInput, v11: list[tuple[object, float]], band_values: np.ndarray, boards: list[BoardResult]) -> Sensitivity | None:
    drawn = inp.selection.drawn
    extended = [(ref, s) for ref, s in v11 if ref.gutenberg_id in drawn and drawn[ref.gutenberg_id].extended]
    if not extended:
        return None
    kept = np.array([s for ref, s in v11 if not (ref.gutenberg_id in drawn and drawn[ref.gutenberg_id].extended)])
    if not len(kept):  # every novel drawn over the band's ceiling: nothing to compare with
        return Sensitivity(sorted(extended, key=lambda p: p[0].id), None, [])
    rows = [(b, r, percentile_of(r.score, band_values), percentile_of(r.score, kept))
            for b in boards if b.metric == "score" for r in b.rows if r.rank_best is not None]
    return Sensitivity(sorted(extended, key=lambda p: p[0].id), _band(list(kept)), rows)


def required_runs(entrant, c) -> list[tuple[str, str, int]]:
    """The (arm, brief, replicate) runs the full protocol asks of an entrant (protocol sections 2
    and 6): a model runs both arms, a system its own, each on every brief, every replicate."""
    return [(arm, b.id, rep) for arm in required_arms(entrant) for b in c.briefs for rep in range(1, c.replicates + 1)]


def required_arms(entrant) -> tuple[str, ...]:
    return ("system",) if entrant.kind == "system" else ("free-run", "sustained")


def _missing_runs(entrant, c, runs) -> tuple[tuple[str, str, int], ...]:
    """The runs of the full protocol an entrant has no record of. A failed run is a record:
    failures stay visible and count as run (section 2); only an absent run makes a cohort
    partial, and a partial entrant ranks on no board (section 6)."""
    have = {(r.arm, r.brief, r.replicate) for r in runs if r.entrant == entrant.id}
    return tuple(k for k in required_runs(entrant, c) if k not in have)


def house(slug: str) -> str:
    """The house that made a pinned model: the vendor part of its slug (anthropic/claude-opus-5)."""
    return slug.split("/", 1)[0]


def _score_rows(board_id: str, board_runs, entrants, band_values: np.ndarray, partial) -> list[Row]:
    rows = []
    for eid, rrs in sorted(board_runs.items()):
        ok = [rr.score for rr in sorted(rrs, key=lambda rr: rr.run.id) if rr.eligible]  # run-id order: the bootstrap's input order
        name = entrants[eid].name
        if eid in partial:
            rows.append(Row(eid, name, len(rrs), len(ok), reason="partial-cohort", missing=partial[eid]))
            continue
        if not ok:
            rows.append(Row(eid, name, len(rrs), 0, reason="DNF"))
            continue
        arr = np.array(ok)
        seed = stats.derive_seed(V11, board_id, eid)
        low, high = stats.percentile_bootstrap(arr, seed)
        score = float(arr.mean())
        rows.append(Row(eid, name, len(rrs), len(ok), score, low, high, binding_caps=sum(rr.binding_caps for rr in rrs if rr.eligible),
                        percentile=percentile_of(score, band_values), pct_low=percentile_of(low, band_values),
                        pct_high=percentile_of(high, band_values), seed=seed))
    return _ranked(rows, lambda r: r.score)


def _length_rows(board_id: str, board_runs, entrants, partial) -> list[Row]:
    rows = []
    for eid, rrs in sorted(board_runs.items()):
        words = [rr.run.words for rr in sorted(rrs, key=lambda rr: rr.run.id)]  # run-id order: the bootstrap's input order
        if eid in partial:
            rows.append(Row(eid, entrants[eid].name, len(rrs), sum(rr.eligible for rr in rrs), reason="partial-cohort", missing=partial[eid]))
            continue
        seed = stats.derive_seed(V11, board_id, eid)
        low, high = stats.percentile_bootstrap(np.array(words, dtype=np.float64), seed, statistic=np.median)
        rows.append(Row(eid, entrants[eid].name, len(rrs), sum(rr.eligible for rr in rrs), low=low, high=high,
                        median_words=float(statistics.median(words)), min_words=min(words), max_words=max(words), seed=seed))
    return _ranked(rows, lambda r: r.median_words)


def _ranked(rows: list[Row], measure) -> list[Row]:
    """Rows with an interval get their rank range and lead, by measure then entrant id; the
    others follow in the order given, each with its reason."""
    ranked = [r for r in rows if r.low is not None]
    ranks = stats.rank_ranges([stats.Interval(r.entrant, r.low, r.high) for r in ranked])
    ranked = sorted((replace(r, rank_best=ranks[r.entrant][0], rank_worst=ranks[r.entrant][1]) for r in ranked),
                    key=lambda r: (-measure(r), r.entrant))
    return ranked + [r for r in rows if r.low is None]


# The base model's side of the exhibit: its sustained runs, continued to the word target as the
# system's books are; its free runs stop where it chooses, which is another quantity.
EXHIBIT_BASE_ARM = "sustained"


def _exhibit(inp: ChronicleInput, runs: list[RunResult], boards: list[BoardResult]) -> Exhibit | None:
    ex = inp.cohort.exhibit
    if ex is None:
        return None
    rows = {r.entrant: r for b in boards if b.metric == "score" for r in b.rows}
    names = {e.id: e.name for e in inp.cohort.entrants}
    # A side with no row on a score board (a withdrawn entrant) is shown with no run.
    system, base = (rows.get(e) or Row(e, names[e], 0, 0) for e in (ex.system, ex.base_model))
    sys_scores = [rr.score for rr in runs if rr.run.entrant == ex.system and rr.eligible]
    base_scores = [rr.score for rr in runs if rr.run.entrant == ex.base_model and rr.run.arm == EXHIBIT_BASE_ARM and rr.eligible]
    if not sys_scores or not base_scores or any(r.reason == "partial-cohort" or r.runs == 0 for r in (system, base)):
        return Exhibit(system, base, None, None, None, None)
    seed = stats.derive_seed(V11, "exhibit", ex.system, ex.base_model)
    a, b = np.array(sys_scores), np.array(base_scores)
    low, high = stats.difference_bootstrap(a, b, seed)
    return Exhibit(system, base, float(a.mean() - b.mean()), low, high, seed)
