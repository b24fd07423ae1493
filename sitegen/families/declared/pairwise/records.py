"""A pairwise judgment, one line of the `[pairwise]` judgments file: a prompt, its two models
(`a` and `b`) with their outputs (the text itself, or the iteration of the model's item in the
sweep `outputs_from` names), which of them the judge was shown first, the verdict in the order
shown (`first`, `second` or `tie`), a margin on the declared scale, the judge and its reasoning.

The model checks one record's shape; what needs the configuration or another record (a known
model, a margin on the scale, an item that exists) is in validate.py.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from sitegen.fields import LongText, Slug, Text
from sitegen.families.declared.pairwise.config import Id, MarginLabel


class PairJudgment(BaseModel):
    """One judgment of two outputs to the same prompt (the pairwise judgments file, one line each):
    which the judge was shown first, its verdict in that order, its margin and its reasoning."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)

    prompt: Slug = Field(description="A prompt of prompts.jsonl.")
    model_a: Slug = Field(description="A model of models.jsonl.")
    model_b: Slug = Field(description="Another model of models.jsonl.")
    output_a: LongText | None = Field(default=None, description="Model a's output as the judge read it (or `iteration_a`).")
    output_b: LongText | None = Field(default=None, description="Model b's output as the judge read it (or `iteration_b`).")
    iteration_a: int | None = Field(default=None, ge=1, le=1000, description="Instead of `output_a`: the iteration of model a's item for "
                                    "this prompt in the sweep `pairwise.outputs_from` names, whose output the judge read.")
    iteration_b: int | None = Field(default=None, ge=1, le=1000, description="Instead of `output_b`: as `iteration_a`, for model b.")
    shown_first: Literal["a", "b"] = Field(description="Which output the judge was shown first.")
    verdict: Literal["first", "second", "tie"] = Field(description="The better output in the order shown: `first`, `second`, or `tie`.")
    margin: MarginLabel | None = Field(default=None, description="By how much, on the declared `pairwise.margins` scale: on every verdict "
                                       "but a tie when a scale is declared, never otherwise.")
    judge: Id = Field(description="One of `pairwise.judges`.")
    reasoning: Text | None = Field(default=None, description="The judge's reasoning, shown with the verdict.")

    @property
    def winner(self) -> str | None:
        """`a`, `b`, or None for a tie: the verdict turned from the order shown to the models."""
        if self.verdict == "tie":
            return None
        second = "b" if self.shown_first == "a" else "a"
        return self.shown_first if self.verdict == "first" else second


ARTIFACT_KINDS = {"declared-pairwise-judgment": PairJudgment}
