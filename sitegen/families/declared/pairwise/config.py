"""The `[pairwise]` table of content/<family>/benchmark.toml: a benchmark's pairwise judgments and
how they become a rating. Its own module so that the rubric unit's configuration (config.py one
folder up) only names it; the ids and names follow that module's rules.

A rating is Bradley-Terry's: P(i beats j) = 1 / (1 + 10^((R_j - R_i) / points)), `points` being
Elo's 400 (a model 400 points above another is expected to win ten judgments to its one). Without
anchors a board's ratings average `base`; with one anchor the scale is shifted so that model has
its declared rating; with two, shifted and stretched so both have theirs (and `points` no longer
holds: the page says so). Each fit, the full one and every bootstrap refit, is normalised alike.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from sitegen.contract import duplicates
from sitegen.fields import IsoDate, Name, NoControl, Slug

Id = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]{0,63}$")]  # as config.Id
Line = Annotated[str, StringConstraints(min_length=1, max_length=400), NoControl]
MarginLabel = Annotated[str, StringConstraints(min_length=1, max_length=20), NoControl]
RATING_LIMIT = 1e6  # the largest magnitude of a base or an anchor's rating


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)


class Margin(_Strict):
    """One step of the margin scale a judge may give a verdict ("+", "++", ...): the number of
    wins the verdict counts for the winner."""

    label: MarginLabel = Field(description="The margin as each judgment writes it, such as `+++`.")
    wins: float = Field(gt=0, le=100, description="How many wins a verdict of this margin counts for the winner (the loser gets none).")


class Anchor(_Strict):
    """A model whose rating is pinned to a declared value on every board."""

    model: Slug = Field(description="A model of models.jsonl, on every pairwise board.")
    rating: float = Field(ge=-RATING_LIMIT, le=RATING_LIMIT, description="The rating it is pinned to.")


class PairwiseGate(_Strict):
    """A model is rated on a board when it takes part in at least this many of its judgments;
    otherwise it is withheld, with its count, and its judgments leave the fit."""

    min_judgments: int = Field(default=10, ge=1, le=1_000_000, description="The fewest judgments a model takes part in on a board for it "
                               "to be rated there; below it the model is withheld and its judgments are left out of the fit.")


class Pairwise(_Strict):
    """[pairwise]: judgments of two outputs to the same prompt, and the rating made of them."""

    id: Id = Field(default="pairwise", description="The pairwise sweep's id: in its pages' addresses and its bootstrap seeds.")
    label: Name = Field(default="Head to head", description="The name of its boards' kind, as the pages show it.")
    measures: Line = Field(description="One sentence: what the rating measures (its boards say it beside the rubric boards' own).")
    date: IsoDate = Field(description="The day the judgments were made.")
    judges: list[Id] = Field(min_length=1, description="The judges of these judgments, each declared in [[judges]].")
    judgments: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-][A-Za-z0-9._-]*\.jsonl$")] = Field(
        description="The judgments file under data/<family>/, one line per judgment.")
    outputs_from: Id | None = Field(default=None, description="A sweep ([[sweeps]]) whose outputs a judgment may name by iteration "
                                    "(`iteration_a`, `iteration_b`) instead of carrying them.")
    by: Id | None = Field(default=None, description="The prompt field whose values are the pairwise boards; absent: one board of every prompt.")
    min_prompts: int = Field(default=4, ge=1, le=1000, description="The fewest prompts a board is ranked on: below it, ratings without intervals or ranks.")
    margins: list[Margin] = Field(default_factory=list, max_length=20, description="The margin scale, weakest first; empty: verdicts carry no "
                                  "margin and a win counts once.")
    base: float = Field(default=1000.0, ge=-RATING_LIMIT, le=RATING_LIMIT, description="The mean rating of a board without anchors.")
    points: float = Field(default=400.0, gt=0, le=10_000, description="Rating points for tenfold odds (Elo's 400).")
    anchors: list[Anchor] = Field(default_factory=list, max_length=2, description="Up to two models pinned to declared ratings.")
    prior_ties: float = Field(default=0.0, ge=0, le=100, description="Virtual ties added to every pair of models compared, in every fit: "
                              "0 is the plain maximum-likelihood rating, which does not exist when a model wins (or loses) every judgment.")
    resamples: int = Field(default=1000, ge=100, le=10_000, description="Bootstrap refits per board.")
    gate: PairwiseGate = Field(default_factory=PairwiseGate, description="Which models are rated.")

    @model_validator(mode="after")
    def _cross(self) -> "Pairwise":
        problems = [f"each margin label once ({d!r} repeats)" for d in duplicates(m.label for m in self.margins)]
        problems += [f"each anchor's model once ({d!r} repeats)" for d in duplicates(a.model for a in self.anchors)]
        problems += [f"each judge once ({d!r} repeats)" for d in duplicates(self.judges)]
        if len(self.anchors) == 2 and self.anchors[0].rating == self.anchors[1].rating:
            problems.append(f"two anchors at different ratings (both {self.anchors[0].rating:g})")
        if problems:
            raise ValueError("; ".join(problems))
        return self
