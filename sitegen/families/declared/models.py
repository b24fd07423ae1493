"""The declarative family's records, as pydantic models: what a harness writes under
data/<family>/. Three files, plus one items file per sweep:

- models.jsonl   one line per model: id, name, house (the lab that trained it).
- prompts.jsonl  one line per prompt: id, optional title and text, and any further fields
                 as strings (the one `boards.by` names groups prompts into boards).
- <sweep>.jsonl  one line per (model, prompt, iteration): every generation attempt, the
                 output, and each of the sweep's judges' scores per criterion.

The models check one record's shape; everything that needs the configuration or another
record (a criterion's scale, a judge of the sweep, a prompt that exists) is in validate.py.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from sitegen.fields import LongText, Name, NoControl, Slug, Text
from sitegen.families.declared.config import Id


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)


class Model(_Strict):
    """A model on the boards (models.jsonl, one line each)."""

    id: Slug = Field(description="The model's id, named by each item's `model`.")
    name: Name = Field(description="The name the pages show.")
    house: Name = Field(description="The house that trained it (compared with each judge's house).")


FieldValue = Annotated[str, StringConstraints(min_length=1, max_length=200), NoControl]


class Prompt(BaseModel):
    """A prompt. Fields beyond id, title and text are the harness's own (a category, a genre)
    and must be strings; `boards.by` names the one whose values are the boards."""

    model_config = ConfigDict(extra="allow", strict=True, allow_inf_nan=False, frozen=True)
    __pydantic_extra__: dict[str, FieldValue] = Field(init=False)

    id: Slug = Field(description="The prompt's id, named by each item's `prompt`.")
    title: Name | None = Field(default=None, description="A short title the pages show; the id when absent.")
    text: LongText | None = Field(default=None, description="The prompt as the models received it, shown on its page.")

    def field(self, name: str) -> str | None:
        return (self.__pydantic_extra__ or {}).get(name)


class Attempt(_Strict):
    """One generation attempt: ok, or failed with one of the policy's failure reasons."""

    outcome: Literal["ok", "failed"] = Field(description="`ok`, or `failed` (only the last attempt may be ok).")
    reason: Id | None = Field(default=None, description="Why a failed attempt failed: one of generation.failure_reasons.")
    detail: Annotated[str, StringConstraints(max_length=2000), NoControl] = Field(default="", description="The harness's message, shown with the failure.")


class Judgment(_Strict):
    """One judge's reading of one output: a score per criterion (null where the criterion is
    optional and the judge left it unscored), its rationale, and, when the harness states it,
    the item score it computed (checked against the configuration's formula). A reply that
    came back without scores (truncated, say) is `unscored`: its reply is kept and shown, and
    the item is judged without scores, neither scored nor a generation failure."""

    judge: Id = Field(description="One of the sweep's judges.")
    status: Literal["scored", "unscored"] = Field(default="scored", description="`unscored`: the output was sent to the judge and its reply "
                                                  "carried no scores; give `reply` and no `scores`.")
    scores: dict[Id, float | None] | None = Field(default=None, description="Every configured criterion's score on its scale; null only where the "
                                                  "criterion is optional. Required when scored; absent when unscored.")
    reply: LongText | None = Field(default=None, description="The judge's raw reply as received: required when `unscored`, shown on the item page.")
    rationale: Text | None = Field(default=None, description="The judge's reasoning, shown beside its scores.")
    score: float | None = Field(default=None, ge=0, le=100, description="The item score the harness computed (required when item_score.source is `stated`).")


class Item(_Strict):
    """One (model, prompt, iteration) of a sweep (its items file, one line or Parquet row each)."""

    model: Slug = Field(description="A model of models.jsonl.")
    prompt: Slug = Field(description="A prompt of prompts.jsonl.")
    iteration: int = Field(ge=1, le=1000, description="1 to repeats.iterations.")
    attempts: list[Attempt] | None = Field(default=None, min_length=1, max_length=100,
                                           description="Every generation attempt, in order; absent when generation.attempts_recorded is false.")
    final: Attempt | None = Field(default=None, description="Only when generation.attempts_recorded is false: the outcome of the generation "
                                  "the harness kept, `failed` with its reason when it produced nothing; absent: ok.")
    output: LongText | None = Field(default=None, description="The output of the successful attempt, shown on its prompt's page.")
    judgments: list[Judgment] = Field(default_factory=list, description="One per judge of the sweep when the last attempt is ok; none when it failed.")

    @property
    def last(self) -> Attempt:
        """The attempt whose outcome the item has: the last recorded, or the one kept."""
        return self.attempts[-1] if self.attempts else self.final or _OK

    @property
    def unscored(self) -> bool:
        """Judged, but a judge's reply carried no scores."""
        return any(j.status == "unscored" for j in self.judgments)


_OK = Attempt(outcome="ok")


ARTIFACT_KINDS = {"declared-model": Model, "declared-prompt": Prompt, "declared-item": Item}
