"""NextChapterBench's numbers, as pure functions: craft, compliance (with the verbatim
quotation rule and double-counted traps), a model's headline with its standard error, ties,
and the collapse of effort settings into one row per model.

>>> from sitegen.families.nextchapter.models import Check
>>> text = "The door was on the left. She left at nine."
>>> checks = [Check(kind="beat", index=0, passed=True, quote="She left at nine."),
...           Check(kind="trap", index=0, passed=True, quote="the door was on the right")]
>>> compliance(checks, text)  # the trap's quotation is not in the text: it fails, and counts double
33.333333333333336
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from dataclasses import dataclass
from typing import Sequence, get_args

from sitegen.families.nextchapter.models import CRAFT, Effort

TRAP_WEIGHT = 2  # a contradicted continuity trap costs twice what any other failed check costs

# Settings are listed from least to most effort, never alphabetically (high before low); "default",
# the effort a model's name fixes, is no level of its own and comes after every named one.
EFFORT_ORDER = get_args(Effort)


def by_effort(effort: str) -> int:
    """A sort key that lists effort settings from minimal to xhigh, then default."""
    return EFFORT_ORDER.index(effort)

_SPACE = re.compile(r"\s+")


@lru_cache(maxsize=1024)  # a chapter is normalised once, not once per check
def normalise(text: str) -> str:
    """Whitespace runs collapsed to one space: a quotation is matched verbatim, word for word
    and character for character, but not across different line wrapping."""
    return _SPACE.sub(" ", text).strip()


def quote_holds(quote: str, text: str) -> bool:
    q = normalise(quote)
    return bool(q) and q in normalise(text)


def check_passes(check, text: str) -> bool:
    """A check passes only when the judge said so AND its quotation occurs verbatim in the text."""
    return check.passed and quote_holds(check.quote, text)


def compliance(checks: Sequence, text: str) -> float:
    """100 x weighted share of checks passed; every check weighs 1 except traps, which weigh 2."""
    total = passed = 0
    for c in checks:
        w = TRAP_WEIGHT if c.kind == "trap" else 1
        total += w
        passed += w if check_passes(c, text) else 0
    return 100.0 * passed / total if total else 0.0


def craft(readings: dict[str, float]) -> float:
    """The mean of the eight craft dimensions."""
    return sum(readings[d] for d in CRAFT) / len(CRAFT)


@dataclass(frozen=True)
class Headline:
    mean: float
    se: float  # standard error of the per-item scores (sample SD / sqrt(n)); 0 for one item
    n: int

    @property
    def low(self) -> float:
        return self.mean - self.se

    @property
    def high(self) -> float:
        return self.mean + self.se


def headline(per_item: Sequence[float]) -> Headline:
    n = len(per_item)
    if n == 0:
        raise ValueError("a headline needs at least one item")
    mean = sum(per_item) / n
    if n == 1:
        return Headline(mean, 0.0, 1)
    var = sum((x - mean) ** 2 for x in per_item) / (n - 1)
    return Headline(mean, math.sqrt(var) / math.sqrt(n), n)


def tied(a: Headline, b: Headline) -> bool:
    """Two rows whose mean +/- SE bands overlap (touching counts) are read as a tie."""
    return a.low <= b.high and b.low <= a.high


@dataclass(frozen=True)
class VariantResult:
    effort: str
    status: str  # judged, incomplete, not-judged
    items: int  # items with a judged chapter
    craft: Headline | None
    compliance: Headline | None

    @property
    def marker(self) -> str:
        """✳ for a setting that could not complete every item, — for one not yet judged."""
        return {"incomplete": "✳", "not-judged": "—"}.get(self.status, "")


def collapse(variants: Sequence[VariantResult], n_items: int) -> tuple[VariantResult | None, list[VariantResult]]:
    """The row a model stands on: its best-scoring effort setting among those that completed
    every item; the other settings are listed beneath it in order of effort (reference only when
    incomplete)."""
    complete = [v for v in variants if v.status == "judged" and v.items == n_items and v.craft is not None]
    if not complete:
        return None, sorted(variants, key=lambda v: by_effort(v.effort))
    best = max(complete, key=lambda v: (v.craft.mean, v.effort))
    return best, sorted((v for v in variants if v is not best), key=lambda v: by_effort(v.effort))
