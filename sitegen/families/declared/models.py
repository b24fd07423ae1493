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
    id: Slug
    name: Name
    house: Name


FieldValue = Annotated[str, StringConstraints(min_length=1, max_length=200), NoControl]


class Prompt(BaseModel):
    """A prompt. Fields beyond id, title and text are the harness's own (a category, a genre)
    and must be strings; `boards.by` names the one whose values are the boards."""

    model_config = ConfigDict(extra="allow", strict=True, allow_inf_nan=False, frozen=True)
    __pydantic_extra__: dict[str, FieldValue] = Field(init=False)

    id: Slug
    title: Name | None = None
    text: LongText | None = None

    def field(self, name: str) -> str | None:
        return (self.__pydantic_extra__ or {}).get(name)


class Attempt(_Strict):
    """One generation attempt: ok, or failed with one of the policy's failure reasons."""

    outcome: Literal["ok", "failed"]
    reason: Id | None = None
    detail: Annotated[str, StringConstraints(max_length=2000), NoControl] = ""


class Judgment(_Strict):
    """One judge's reading of one output: a score per criterion (null where the criterion is
    optional and the judge left it unscored), its rationale, and, when the harness states it,
    the item score it computed (checked against the configuration's formula)."""

    judge: Id
    scores: dict[Id, float | None]
    rationale: Text | None = None
    score: float | None = Field(default=None, ge=0, le=100)


class Item(_Strict):
    model: Slug
    prompt: Slug
    iteration: int = Field(ge=1, le=1000)
    attempts: list[Attempt] = Field(min_length=1, max_length=100)
    output: LongText | None = None
    judgments: list[Judgment] = Field(default_factory=list)


ARTIFACT_KINDS = {"declared-model": Model, "declared-prompt": Prompt, "declared-item": Item}
