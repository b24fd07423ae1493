"""The human reference corpus's seeded selection (protocol section 7), computed from the facts of
selection.json. The record states no outcome: which candidates are excluded and why, which are
eligible and which are drawn is decided here, and validate.py holds reference.jsonl to it.

Eligibility. A candidate is excluded for every rule it fails, not only the first:

- original-language    its original language is not English (en);
- translated           it names a translator;
- form                 it is not a single complete novel (a collection, play, fragment,
                       volume, abridgement or anthology);
- not-cleanly-extractable  its prose cannot be extracted cleanly;
- windows              its words do not reach all five scoring windows;
- duplicate            it duplicates, adapts or is an alternate edition of a work of the pool
                       or of a legacy anchor (duplicate_of), or is itself a legacy anchor;
- content-exclusion    an individually recorded content exclusion (amendment A3);
- under-length         fewer words than the band's floor (cohort.json);
- over-length          more words than its stratum's ceiling: the band's, or the extended
                       ceiling when the stratum is short.

The extension. A stratum is short when fewer of its candidates than its places are eligible
within the band. Its ceiling then extends to the record's extended_max_words: every eligible
work within the band is drawn, and the remaining places are filled, in the seeded order, from
the eligible works between the band's ceiling and the extended one.

The draw. Within each stratum the eligible Gutenberg ids are sorted; each id's key is the
SHA-256 (hex) of the seed string, a colon and the id in decimal ("sagabench-v1.1-gutenberg:1013");
the ids are ordered by key (two equal keys, which SHA-256 makes practically impossible, by id)
and the first ones fill the places. A work's draw rank is its place in that order, the works
within the band first and then, in a short stratum, those under the extended ceiling.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Callable

from sitegen.families.chronicle.models import Candidate, SelectionFile

ENGLISH = "en"
REASONS = ("original-language", "translated", "form", "not-cleanly-extractable", "windows", "duplicate", "content-exclusion",
           "under-length", "over-length")
STRATA = ("plot-forward", "character-forward", "broader-controls")
SELECTED, NOT_DRAWN, EXCLUDED = "selected", "eligible-not-drawn", "excluded"


@dataclass(frozen=True)
class Reason:
    code: str  # one of REASONS
    detail: str | None = None  # the fact it was decided from: the language, the form, the id duplicated, a bound


@dataclass(frozen=True)
class Outcome:
    candidate: Candidate
    index: int  # its place in selection.json's candidates
    key: str  # the SHA-256 its draw is ordered by
    reasons: tuple[Reason, ...]  # every rule it fails, in REASONS order; none when eligible
    rank: int | None  # its place in its stratum's draw order (eligible works only)
    status: str  # SELECTED, NOT_DRAWN or EXCLUDED
    extended: bool  # eligible only under a short stratum's extended ceiling

    @property
    def eligible(self) -> bool:
        return not self.reasons


@dataclass(frozen=True)
class StratumDraw:
    stratum: str
    candidates: int
    in_band: int  # eligible within the band
    short: bool  # fewer eligible within the band than places: the ceiling extends
    ceiling: int  # the band's ceiling, or the extended one
    extended: int  # eligible between the band's ceiling and the extended one (short strata only)
    drawn: tuple[int, ...]  # the Gutenberg ids drawn, in draw order
    drawn_extended: int  # of them, under the extended ceiling


@dataclass(frozen=True)
class Selection:
    outcomes: tuple[Outcome, ...]  # in the record's order
    strata: tuple[StratumDraw, ...]  # in STRATA order
    places: int

    @property
    def drawn(self) -> dict[int, Outcome]:
        return {o.candidate.gutenberg_id: o for o in self.outcomes if o.status == SELECTED}

    @property
    def short(self) -> bool:
        return any(s.short for s in self.strata)

    def reason_counts(self) -> list[tuple[str, int]]:
        """(reason, candidates failing it), every reason in REASONS order, zeros included."""
        return [(r, sum(any(x.code == r for x in o.reasons) for o in self.outcomes)) for r in REASONS]


def draw_key(seed: str, gutenberg_id: int) -> str:
    return hashlib.sha256(f"{seed}:{gutenberg_id}".encode("utf-8")).hexdigest()


def _fixed_reasons(c: Candidate, pool: set[int], anchors: set[int], windows_of: Callable[[int], list[str]],
                   windows: list[str]) -> list[Reason]:
    """The reasons that do not depend on the stratum's ceiling."""
    out = []
    if c.original_language != ENGLISH:
        out.append(Reason("original-language", c.original_language))
    if c.translator is not None:
        out.append(Reason("translated", c.translator))
    if c.form != "novel":
        out.append(Reason("form", c.form))
    if not c.cleanly_extractable:
        out.append(Reason("not-cleanly-extractable"))
    missing = [w for w in windows if w not in windows_of(c.words)]
    if missing:
        out.append(Reason("windows", ", ".join(missing)))
    if c.duplicate_of is not None and c.duplicate_of != c.gutenberg_id and (c.duplicate_of in pool or c.duplicate_of in anchors):
        out.append(Reason("duplicate", str(c.duplicate_of)))
    elif c.gutenberg_id in anchors:
        out.append(Reason("duplicate", str(c.gutenberg_id)))
    if c.exclusion is not None:
        out.append(Reason("content-exclusion", c.exclusion.documented_by))
    return out


def select(record: SelectionFile, min_words: int, max_words: int, anchors: set[int], windows_of: Callable[[int], list[str]],
           windows: list[str]) -> Selection:
    """The selection the record's facts give: ANCHORS are the legacy anchors' Gutenberg ids,
    WINDOWS_OF(words) the windows a text of that length has, WINDOWS all of them. A duplicate_of
    that resolves to nothing is validate.py's problem to report; it excludes nothing here."""
    places = record.places_per_stratum
    pool = {c.gutenberg_id for c in record.candidates}
    fixed = [_fixed_reasons(c, pool, anchors, windows_of, windows) for c in record.candidates]
    keys = [draw_key(record.seed, c.gutenberg_id) for c in record.candidates]
    status: dict[int, tuple[list[Reason], int | None, str, bool]] = {}
    strata = []
    for stratum in STRATA:
        members = [i for i, c in enumerate(record.candidates) if c.stratum == stratum]
        cands = record.candidates
        in_band = [i for i in members if not fixed[i] and min_words <= cands[i].words <= max_words]
        short = len(in_band) < places
        ceiling = record.extended_max_words if short and record.extended_max_words > max_words else max_words
        above = [i for i in members if not fixed[i] and max_words < cands[i].words <= ceiling]
        order = sorted(in_band, key=lambda i: (keys[i], cands[i].gutenberg_id)) + sorted(above, key=lambda i: (keys[i], cands[i].gutenberg_id))
        rank = {i: k for k, i in enumerate(order, start=1)}
        drawn = order[:places]
        for i in members:
            reasons = list(fixed[i])
            if cands[i].words < min_words:
                reasons.append(Reason("under-length", str(min_words)))
            elif cands[i].words > ceiling:
                reasons.append(Reason("over-length", str(ceiling)))
            st = SELECTED if i in drawn else NOT_DRAWN if i in rank else EXCLUDED
            status[i] = (reasons, rank.get(i), st, i in rank and cands[i].words > max_words)
        strata.append(StratumDraw(stratum, len(members), len(in_band), short, ceiling, len(above),
                                  tuple(cands[i].gutenberg_id for i in drawn), sum(cands[i].words > max_words for i in drawn)))
    outcomes = []
    for i, c in enumerate(record.candidates):
        reasons, rank, st, extended = status[i]  # reasons already in REASONS order
        outcomes.append(Outcome(c, i, keys[i], tuple(reasons), rank, st, extended))
    return Selection(tuple(outcomes), tuple(strata), places)
