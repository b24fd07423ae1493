"""A change of judge (or of settings) shown as a change: two consecutive sweeps compared.

For each sweep and the one before it (by date) that judged at least one of the same outputs
(the same model, prompt and iteration, with the same text), and for each board both publish
with the same prompts: per model published in both, its score in each and its rank range in
each, and the shift (later minus earlier) over the prompts it was scored on in both, with a 95%
interval from a paired bootstrap over those prompts (stats.percentile_bootstrap of the per-prompt
differences: a draw takes a prompt with both its readings), seeded with
stats.derive_seed("shift", earlier, later, model, board). And Spearman's rho between the two
sweeps' model scores, over the prompts every compared model was scored on in both, with a 95%
interval that resamples those prompts (stats.spearman_bootstrap, seeded with
stats.derive_seed("rho", earlier, later, board)). A board either sweep could not rank (fewer
prompts than its boards.min_prompts) gets the numbers without an interval.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sitegen import stats
from sitegen.families.declared.compute import Board, DeclaredResults, Row, SweepResult

MIN_RHO_MODELS = 3  # with two models a rank correlation is +1 or -1 and says nothing


@dataclass(frozen=True)
class Shift:
    model: str
    name: str
    before: Row
    after: Row
    shift: float  # over the prompts scored in both
    prompts: int
    low: float | None = None
    high: float | None = None
    seed: int | None = None


@dataclass(frozen=True)
class BoardChange:
    id: str
    label: str
    ranked: bool  # both sweeps ranked it: intervals computed
    shifts: list[Shift]  # by the later sweep's order
    rho: float | None
    rho_prompts: int  # the prompts every compared model was scored on in both
    rho_low: float | None = None
    rho_high: float | None = None
    rho_seed: int | None = None


@dataclass(frozen=True)
class Comparison:
    before: SweepResult
    after: SweepResult
    same: int  # outputs judged in both sweeps with the same text
    judged: int  # outputs the later sweep judged
    boards: list[BoardChange]

    @property
    def slug(self) -> str:
        return f"{self.before.id}/{self.after.id}"


def comparisons(res: DeclaredResults) -> list[Comparison]:
    """Each sweep against the one before it by date, where the later re-judged outputs of the
    earlier; newest first."""
    out = []
    for after, before in zip(res.sweeps, res.sweeps[1:]):
        texts = {_key(x): x.item.output for x in before.items if x.item.output is not None}
        judged = [x for x in after.items if x.item.judgments]
        same = sum(1 for x in judged if x.item.output is not None and texts.get(_key(x)) == x.item.output)
        if same:
            out.append(Comparison(before, after, same, len(judged), _boards(before, after)))
    return out


def _key(x) -> tuple[str, str, int]:
    return (x.item.model, x.item.prompt, x.item.iteration)


def _prompt_means(s: SweepResult) -> dict[tuple[str, str], float]:
    """(model, prompt) -> the mean of its scored iterations in sweep S, as the board takes it."""
    got: dict[tuple[str, str], list[float]] = {}
    for x in s.items:
        if x.state == "scored":
            got.setdefault((x.item.model, x.item.prompt), []).append(x.score)
    return {k: float(np.mean(v)) for k, v in got.items()}


def _boards(before: SweepResult, after: SweepResult) -> list[BoardChange]:
    old = {b.id: b for b in before.boards}
    a_means, b_means = _prompt_means(before), _prompt_means(after)
    return [_board(old[b.id], b, before.id, after.id, a_means, b_means) for b in after.boards
            if b.id in old and old[b.id].prompts == b.prompts]


def _board(a: Board, b: Board, sa: str, sb: str, a_means: dict, b_means: dict) -> BoardChange:
    ranked = a.ranked and b.ranked
    earlier = {r.model: r for r in a.published}
    shifts = []
    for r in b.published:
        if r.model not in earlier:
            continue
        both = [p for p in b.prompts if (r.model, p) in a_means and (r.model, p) in b_means]
        diffs = np.array([b_means[(r.model, p)] - a_means[(r.model, p)] for p in both])
        if ranked:
            seed = stats.derive_seed("shift", sa, sb, r.model, b.id)
            lo, hi = stats.percentile_bootstrap(diffs, seed)
            shifts.append(Shift(r.model, r.name, earlier[r.model], r, float(diffs.mean()), len(both), lo, hi, seed))
        else:
            shifts.append(Shift(r.model, r.name, earlier[r.model], r, float(diffs.mean()), len(both)))
    models = [s.model for s in shifts]
    complete = [p for p in b.prompts if all((m, p) in a_means and (m, p) in b_means for m in models)]
    if len(models) < MIN_RHO_MODELS or not complete:
        return BoardChange(b.id, b.label, ranked, shifts, None, len(complete))
    before = np.array([[a_means[(m, p)] for m in models] for p in complete])
    after = np.array([[b_means[(m, p)] for m in models] for p in complete])
    rho = stats.spearman_rho(list(before.mean(axis=0)), list(after.mean(axis=0)))
    if not ranked or rho is None:
        return BoardChange(b.id, b.label, ranked, shifts, rho, len(complete))
    seed = stats.derive_seed("rho", sa, sb, b.id)
    interval = stats.spearman_bootstrap(before, after, seed)
    lo, hi = interval if interval else (None, None)
    return BoardChange(b.id, b.label, ranked, shifts, rho, len(complete), lo, hi, seed)
