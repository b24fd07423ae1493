"""The NextChapterBench artifact contract (seed 001), as pydantic models.

Files under data/nextchapter/:

- run.json         the run: the single judge, the frozen reference (model, effort), the eight
                   craft and five author dimensions, the models with their effort variants and
                   each variant's status, the judge audition disclosure, the screen threshold;
- items.jsonl      one line per item: the public-domain novel, the source chapter text, the
                   divergent brief (beats, prohibitions, end state, word range), the five hidden
                   continuity traps, the frozen reference chapter and the author's real chapter;
- chapters.jsonl   one line per (model, effort, item, draft): the candidate's text, or the
                   outcome that kept it from being judged, with its reason;
- calls.jsonl      one line per judge call: craft scores for the candidate and the reference,
                   the author's five readings, every compliance check with its quotation, and
                   the worst-flaw and best-quality sentences.

Texts from models are untrusted: they are validated as text and always escaped on the pages.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from sitegen.fields import IsoDate, LongText, Name, NoControl, Sha256, Slug, Text

CRAFT = ("voice", "prose", "character", "scene", "integration", "momentum", "restraint", "specificity")
AUTHOR = ("voice", "prose", "character", "restraint", "specificity")  # the dimensions about the writing
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

    @field_validator("variants")
    @classmethod
    def _one_per_effort(cls, v: list[Variant]) -> list[Variant]:
        efforts = [x.effort for x in v]
        if len(set(efforts)) != len(efforts):
            raise ValueError(f"each effort setting once, got {efforts}")
        return v


class Correlation(Strict):
    a: Slug  # ids of two audition candidates (checked in validate.py)
    b: Slug
    rho: float = Field(ge=-1, le=1)


class Leniency(Strict):
    judge: Slug  # an audition candidate's id (checked in validate.py)
    house: Slug
    # Points relative to the other candidates, on the 0-100 craft scale: a difference of two
    # scores on that scale, so it lies within -100..100.
    offset: float = Field(ge=-100, le=100)


class Audition(Strict):
    """The judge audition, published as the benchmark's disclosure."""

    candidates: list[Judge] = Field(min_length=2)
    # The audition's results are what justify the chosen judge: an audition with no
    # correlation or no leniency measured discloses nothing, so each needs at least one entry.
    correlations: list[Correlation] = Field(min_length=1)
    leniency: list[Leniency] = Field(min_length=1)
    chosen: Slug  # the candidate chosen, which is the run's judge (checked in validate.py)
    reasons: Text


class RunFile(Strict):
    """data/nextchapter/run.json"""

    schema_: Literal["nextchapter.run/1"] = Field(alias="schema")
    synthetic: bool
    run: Slug  # e.g. "first"
    date: IsoDate
    judge: Judge
    reference: Reference
    models: list[ModelEntry] = Field(min_length=1)
    audition: Audition
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


class Chapter(Strict):
    """data/nextchapter/chapters.jsonl, one line: one generation of one item."""

    model: Slug
    effort: Effort
    item: Slug
    draft: int = Field(ge=1, le=9)  # 2 when a model wrote its chapters twice (generation noise)
    outcome: Literal["chapter", "content-filter", "timeout", "regenerated"]
    text: LongText | None = None
    reason: Annotated[str, StringConstraints(max_length=2000), NoControl] = ""

    @model_validator(mode="after")
    def _text_iff_chapter(self) -> "Chapter":
        if (self.outcome == "chapter") != (self.text is not None):
            raise ValueError("a text exactly when the outcome is chapter")
        if self.outcome != "chapter" and not self.reason:
            raise ValueError(f"a reason for the outcome {self.outcome}")
        return self


class Check(Strict):
    """One compliance check of one chapter: pass only with a verbatim quotation that shows it."""

    kind: Literal["beat", "prohibition", "end-state", "trap"]
    index: int = Field(ge=0)  # which beat / prohibition / trap (0 for the end state)
    passed: bool
    quote: Annotated[str, StringConstraints(max_length=5000), NoControl] = ""


class Readings(Strict):
    craft: dict[str, Score]

    @field_validator("craft")
    @classmethod
    def _eight(cls, v: dict[str, float]) -> dict[str, float]:
        if sorted(v) != sorted(CRAFT):
            raise ValueError(f"a score for each craft dimension ({', '.join(CRAFT)})")
        return v


class Call(Strict):
    """data/nextchapter/calls.jsonl, one line: the judge's one call on one candidate chapter."""

    model: Slug
    effort: Effort
    item: Slug
    draft: int = Field(ge=1, le=9)
    candidate: Readings
    reference: Readings
    author: dict[str, Score]
    candidate_checks: list[Check]
    reference_checks: list[Check]
    worst_flaw: Text
    best_quality: Text

    @field_validator("author")
    @classmethod
    def _five(cls, v: dict[str, float]) -> dict[str, float]:
        if sorted(v) != sorted(AUTHOR):
            raise ValueError(f"a score for each of the author's five dimensions ({', '.join(AUTHOR)})")
        return v


ARTIFACT_KINDS: dict[str, type[BaseModel]] = {
    "nextchapter.run": RunFile,
    "nextchapter.item": Item,
    "nextchapter.chapter": Chapter,
    "nextchapter.call": Call,
}
