"""Why one judge, and why this one, computed from the readings the run records.

The audition: every candidate judge read the same chapters (models' chapters and each item's
real author's). From those readings:

- the rank correlation of every two candidates (Spearman's rho over the chapters both read);
- each candidate's mean correlation with the others (who agreed most closely with the rest);
- leniency: for each candidate and each house, the mean over that house's chapters of the
  candidate's reading minus the mean of the other candidates' readings of the same chapter;
- where each candidate put the real author on each item, and whether above every model there;
- the houses each candidate put at the top (by the mean of each house's chapters), and whether
  every candidate put the same ones there.

The earlier panel: the best `top` models by mean mark, and how many of their marks sat at the
single most given mark: a scale that has run out of room at the top.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass

from sitegen import stats
from sitegen.families.nextchapter.models import AUTHOR_WRITER, Audition, EarlierPanel

TOP_HOUSES = 2  # "the same houses at the top": the two best houses by mean reading, as a set


@dataclass(frozen=True)
class AuthorPlace:
    judge: str
    item: str
    author: float  # its reading of the real author's chapter
    best_model: float  # its highest reading of a model's chapter on that item
    best_writer: str  # whose chapter that was

    @property
    def above(self) -> bool:
        return self.author > self.best_model


@dataclass(frozen=True)
class AuditionResult:
    correlations: list[tuple[str, str, float | None, int]]  # a, b, rho, chapters both read
    mean_rho: dict[str, float]  # candidate -> mean of its correlations with the others
    leniency: list[tuple[str, str, float, int]]  # judge, house, offset, chapters
    authors: list[AuthorPlace]  # every candidate on every item, in candidate then item order
    top_houses: dict[str, list[str]]  # candidate -> its TOP_HOUSES best houses, best first

    @property
    def closest(self) -> str | None:
        """The candidate whose mean correlation with the others is highest (ties: the first listed)."""
        return max(self.mean_rho, key=lambda j: self.mean_rho[j]) if self.mean_rho else None

    @property
    def same_top(self) -> bool:
        tops = [frozenset(h) for h in self.top_houses.values()]
        return bool(tops) and all(t == tops[0] for t in tops)

    def author_always_first(self, judge: str) -> bool:
        return all(p.above for p in self.authors if p.judge == judge)

    def own_house(self, judge: str, house: str) -> float | None:
        return next((o for j, h, o, _n in self.leniency if j == judge and h == house), None)


def audition(a: Audition) -> AuditionResult:
    judges = [c.id for c in a.candidates]
    house = {w.id: w.house for w in a.writers}
    score: dict[str, dict[tuple[str, str], float]] = defaultdict(dict)
    for r in a.readings:
        score[r.judge][(r.item, r.writer)] = r.craft
    correlations = []
    for i, x in enumerate(judges):
        for y in judges[i + 1 :]:
            common = sorted(set(score[x]) & set(score[y]))
            correlations.append((x, y, stats.spearman_rho([score[x][k] for k in common], [score[y][k] for k in common]), len(common)))
    mean_rho = {}
    for j in judges:
        mine = [rho for x, y, rho, _n in correlations if j in (x, y) and rho is not None]
        if mine:
            mean_rho[j] = statistics.fmean(mine)
    houses = sorted({h for w, h in house.items() if w != AUTHOR_WRITER})
    leniency = []
    for j in judges:
        others = [o for o in judges if o != j]
        for h in houses:
            gaps = [score[j][k] - statistics.fmean(score[o][k] for o in others)
                    for k in sorted(score[j]) if house[k[1]] == h and all(k in score[o] for o in others)]
            if gaps and others:
                leniency.append((j, h, statistics.fmean(gaps), len(gaps)))
    authors = []
    for j in judges:
        for item in [i.id for i in a.items]:
            models = [(v, w) for (it, w), v in score[j].items() if it == item and w != AUTHOR_WRITER]
            if (item, AUTHOR_WRITER) in score[j] and models:
                best, writer = max(models, key=lambda t: (t[0], t[1]))
                authors.append(AuthorPlace(j, item, score[j][(item, AUTHOR_WRITER)], best, writer))
    top_houses = {}
    for j in judges:
        means = {h: statistics.fmean(v for (it, w), v in score[j].items() if house[w] == h)
                 for h in houses if any(house[w] == h for (it, w) in score[j])}
        top_houses[j] = sorted(means, key=lambda h: (-means[h], h))[:TOP_HOUSES]
    return AuditionResult(correlations, mean_rho, leniency, authors, top_houses)


@dataclass(frozen=True)
class PanelResult:
    top: list[tuple[str, float]]  # the best models by mean mark: (model id, mean), best first
    marks: int  # the marks those models received
    modal: int | None  # the mark most often given them (the higher of equally common ones)
    at_modal: int  # how many of their marks were that mark
    scale_max: int


def panel(p: EarlierPanel) -> PanelResult:
    by_model: dict[str, list[int]] = defaultdict(list)
    for m in p.marks:
        by_model[m.model].append(m.mark)
    means = sorted(((mid, statistics.fmean(v)) for mid, v in by_model.items()), key=lambda t: (-t[1], t[0]))
    top = means[: p.top]
    marks = [x for mid, _mean in top for x in by_model[mid]]
    counts = Counter(marks)
    modal = max(counts, key=lambda k: (counts[k], k)) if counts else None
    return PanelResult(top, len(marks), modal, counts[modal] if modal is not None else 0, p.scale_max)
