"""The NextChapterBench artifact contract (seed 001), as pydantic models.

Files under data/nextchapter/:

- run.json         the run: the single judge, the frozen reference (model, effort), the models
                   with their effort variants, each variant's status and the effort each model
                   was first run at and why; the judge audition (every candidate's reading of
                   every audition chapter, from which the site computes the correlations and
                   leniency offsets); the earlier panel's marks (why one judge); the screen
                   threshold;
- items.jsonl      one line per item: the public-domain novel, the source chapter text, the
                   divergent brief (beats, prohibitions, end state, word range), the five hidden
                   continuity traps, the frozen reference chapter and the author's real chapter;
- chapters.jsonl   one line per (model, effort, item): every generation attempt in order with
                   its outcome, the text of the last when it is a chapter, and the tokens and
                   cost of them all;
- calls.jsonl      one line per judge call: the order the two continuations were shown in, the
                   judge's readings of the candidate, the frozen reference and the author's
                   chapter, each with its worst-flaw and best-quality sentence, and every
                   compliance check of the candidate and the reference with its quotation.

The frozen reference chapter is the reference model's first draft of each item; the reference
model's own entry (its model at its effort) is a fresh, second draft of the same items, judged
beside the first in the same calls. Generation noise is read from those calls alone.

Texts from models are untrusted: they are validated as text and always escaped on the pages.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from sitegen.fields import IsoDate, LongText, Name, NoControl, Sha256, Slug, Text

CRAFT = ("voice", "prose", "character", "scene", "integration", "momentum", "restraint", "specificity")
AUTHOR = ("voice", "prose", "character", "restraint", "specificity")  # the dimensions about the writing
NOT_READ_IN_AUTHOR = tuple(d for d in CRAFT if d not in AUTHOR)  # about following the brief, which the author never saw
TRAPS_PER_ITEM = 5


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)


Score = Annotated[float, Field(ge=0, le=100)]
# In order of effort, the order every listing of settings follows (scoring.by_effort).
Effort = Literal["minimal", "low", "medium", "high", "xhigh", "default"]


class Judge(Strict):
    id: Slug
    name: Name
    house: Slug


class Reference(Strict):
    """The fixed reference chapter's author: one model at one effort, frozen for every call."""

    model: Slug
    name: Name
    effort: Effort
    written_on: IsoDate


class Variant(Strict):
    effort: Effort
    status: Literal["judged", "incomplete", "not-judged"]
    note: Annotated[str, StringConstraints(max_length=2000), NoControl] = ""


class ModelEntry(Strict):
    id: Slug
    name: Name
    house: Slug
    variants: list[Variant] = Field(min_length=1)
    # The setting the model was first run at, and why that one (a house's default, say): the
    # method page groups them by house.
    starting_effort: Effort
    starting_reason: Text

    @field_validator("variants")
    @classmethod
    def _one_per_effort(cls, v: list[Variant]) -> list[Variant]:
        efforts = [x.effort for x in v]
        if len(set(efforts)) != len(efforts):
            raise ValueError(f"each effort setting once, got {efforts}")
        return v

    @model_validator(mode="after")
    def _started_at_a_variant(self) -> "ModelEntry":
        if self.starting_effort not in {v.effort for v in self.variants}:
            raise ValueError(f"starting_effort {self.starting_effort!r} among the model's variants")
        return self


class AuditionItem(Strict):
    id: Slug
    novel: Name
    author: Name


class Writer(Strict):
    """Whose chapter an audition reading is of: a model, or the item's real author (house "author")."""

    id: Slug
    name: Name
    house: Slug


AUTHOR_WRITER = "author"  # the id and house of the real author's chapter among the audition's writers


class AuditionReading(Strict):
    judge: Slug  # a candidate's id
    item: Slug  # an audition item's id
    writer: Slug  # a writer's id
    craft: Score  # the candidate's craft reading of that chapter, 0-100


class Audition(Strict):
    """The judge audition: every candidate read the same chapters. The site computes from the
    readings what the audition published (rank correlations, leniency by house, where each put
    the real authors); nothing of it is stated here."""

    candidates: list[Judge] = Field(min_length=2)
    items: list[AuditionItem] = Field(min_length=1)
    writers: list[Writer] = Field(min_length=2)
    readings: list[AuditionReading] = Field(min_length=1)
    chosen: Slug  # the candidate chosen, which is the run's judge (checked in validate.py)


class PanelMark(Strict):
    model: Slug  # a panel model's id
    judge: Slug  # a panel judge's id
    item: Slug
    mark: int = Field(ge=1)


class EarlierPanel(Strict):
    """The panel the single judge replaced: its judges, its scale (1 to scale_max) and every
    mark it gave; the site computes how many of the top models' marks sat at one value."""

    until: IsoDate
    judges: list[Judge] = Field(min_length=2)
    models: list[Writer] = Field(min_length=2)
    scale_max: int = Field(ge=2, le=100)
    top: int = Field(ge=2)  # how many of the best models the method page looks at
    marks: list[PanelMark] = Field(min_length=1)

    @model_validator(mode="after")
    def _marks_on_scale(self) -> "EarlierPanel":
        over = [m.mark for m in self.marks if m.mark > self.scale_max]
        if over:
            raise ValueError(f"marks from 1 to scale_max ({self.scale_max}), found {over[0]}")
        if self.top > len(self.models):
            raise ValueError(f"top ({self.top}) at most the number of panel models ({len(self.models)})")
        return self


class RunFile(Strict):
    """data/nextchapter/run.json"""

    schema_: Literal["nextchapter.run/2"] = Field(alias="schema")
    synthetic: bool
    run: Slug  # e.g. "first"
    date: IsoDate
    judge: Judge
    reference: Reference
    models: list[ModelEntry] = Field(min_length=1)
    audition: Audition
    earlier_panel: EarlierPanel
    memorisation_threshold: int = Field(default=30, ge=5, le=1000)  # consecutive copied words that flag


class Trap(Strict):
    """A hidden continuity fact carried over from the source chapter; never announced."""

    id: Slug
    fact: Text


class Brief(Strict):
    beats: list[Text] = Field(min_length=1)
    prohibitions: list[Text] = Field(min_length=1)
    end_state: Text
    words_min: int = Field(gt=0)
    words_max: int = Field(gt=0)

    @model_validator(mode="after")
    def _range(self) -> "Brief":
        if self.words_min >= self.words_max:
            raise ValueError("words_min below words_max")
        return self


class Item(Strict):
    """data/nextchapter/items.jsonl, one line."""

    id: Slug
    novel: Name
    author: Name
    year: int = Field(ge=1000, le=2100)
    source_chapter: LongText
    brief: Brief
    traps: list[Trap] = Field(min_length=TRAPS_PER_ITEM, max_length=TRAPS_PER_ITEM)
    reference_chapter: LongText
    reference_sha256: Sha256  # of the frozen reference chapter's UTF-8 text; recomputed on every build
    author_chapter: LongText


class Attempt(Strict):
    """One generation attempt. Output that is not a chapter (tool-call markup, say) is treated
    like a timeout: recorded, and the chapter generated again."""

    outcome: Literal["chapter", "content-filter", "timeout", "not-a-chapter", "cut-off"]
    reason: Annotated[str, StringConstraints(max_length=2000), NoControl] = ""

    @model_validator(mode="after")
    def _reason(self) -> "Attempt":
        if self.outcome != "chapter" and not self.reason:
            raise ValueError(f"a reason for the outcome {self.outcome}")
        return self


class Usage(Strict):
    """What all of a chapter's attempts took together."""

    output_tokens: int = Field(ge=0, le=10**9)
    reasoning_tokens: int = Field(ge=0, le=10**9)
    cost_usd: float = Field(ge=0, le=1_000_000)


class Chapter(Strict):
    """data/nextchapter/chapters.jsonl, one line: one model at one effort on one item."""

    model: Slug
    effort: Effort
    item: Slug
    attempts: list[Attempt] = Field(min_length=1, max_length=100)  # in order; only the last may be a chapter
    text: LongText | None = None  # the last attempt's chapter
    usage: Usage

    @property
    def outcome(self) -> str:
        return self.attempts[-1].outcome

    @model_validator(mode="after")
    def _text_iff_chapter(self) -> "Chapter":
        if any(a.outcome == "chapter" for a in self.attempts[:-1]):
            raise ValueError("only the last attempt may be a chapter (the one judged)")
        if (self.outcome == "chapter") != (self.text is not None):
            raise ValueError("a text exactly when the last attempt is a chapter")
        return self


class Check(Strict):
    """One compliance check of one chapter: pass only with a verbatim quotation that shows it."""

    kind: Literal["beat", "prohibition", "end-state", "trap"]
    index: int = Field(ge=0)  # which beat / prohibition / trap (0 for the end state)
    passed: bool
    quote: Annotated[str, StringConstraints(max_length=5000), NoControl] = ""


class Reading(Strict):
    """The judge's reading of one chapter in one call: a score on each dimension it reads, and
    one sentence naming the worst flaw and one the best quality."""

    scores: dict[str, Score]
    worst_flaw: Text
    best_quality: Text


def _dimensions(reading: Reading, wanted: tuple[str, ...], whose: str) -> Reading:
    if sorted(reading.scores) != sorted(wanted):
        raise ValueError(f"a score for each of the {whose} dimensions ({', '.join(wanted)})")
    return reading


Continuation = Literal["candidate", "reference"]


class Call(Strict):
    """data/nextchapter/calls.jsonl, one line: the judge's one call on one candidate chapter."""

    model: Slug
    effort: Effort
    item: Slug
    # The two continuations in the order the judge was shown them, shuffled per call: the judge
    # is not told which is the candidate. The author's chapter is declared as the author's.
    order: list[Continuation] = Field(min_length=2, max_length=2)
    candidate: Reading
    reference: Reading
    author: Reading
    candidate_checks: list[Check]
    reference_checks: list[Check]

    @field_validator("order")
    @classmethod
    def _both(cls, v: list[str]) -> list[str]:
        if sorted(v) != ["candidate", "reference"]:
            raise ValueError("the candidate and the reference, once each, in the order shown")
        return v

    @field_validator("candidate", "reference")
    @classmethod
    def _eight(cls, v: Reading) -> Reading:
        return _dimensions(v, CRAFT, "eight craft")

    @field_validator("author")
    @classmethod
    def _five(cls, v: Reading) -> Reading:
        return _dimensions(v, AUTHOR, "author's five")


ARTIFACT_KINDS: dict[str, type[BaseModel]] = {
    "nextchapter.run": RunFile,
    "nextchapter.item": Item,
    "nextchapter.chapter": Chapter,
    "nextchapter.call": Call,
}
