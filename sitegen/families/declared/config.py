"""The declarative family's configuration: content/<family>/benchmark.toml, as pydantic models.

A team describes its benchmark here instead of writing Python: what is judged (criteria on
their own scales and directions), by whom (one judge or several, each with the dates it
applied), how items become a board (by a prompt field, or one board), how repeats are
resampled, what the generation policy allows, which rows publish, and whether anything was
frozen. Every key is checked; a wrong one is a problem naming the key, expected and found.
`sitegen schema` writes its JSON Schema into schemas/ (benchmark-config.schema.json).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from sitegen.contract import duplicates
from sitegen.fields import IsoDate, Name, NoControl, Text


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)


Id = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]{0,63}$")]
Line = Annotated[str, StringConstraints(min_length=1, max_length=400), NoControl]


class Judge(_Strict):
    """A judge model, pinned: the provider's model id and version, the house that trained it,
    and the dates it judged (inclusive; `until` absent while it still judges)."""

    id: Id
    name: Name
    model: Annotated[str, StringConstraints(min_length=1, max_length=200), NoControl]
    version: Annotated[str, StringConstraints(min_length=1, max_length=100), NoControl]
    house: Name
    since: IsoDate
    until: IsoDate | None = None

    @model_validator(mode="after")
    def _dates_in_order(self) -> "Judge":
        if self.until is not None and self.until < self.since:
            raise ValueError(f"until ({self.until}) on or after since ({self.since})")
        return self


class Criterion(_Strict):
    """One thing the judge scores per item, on its own scale. `direction` says which end is
    good; `optional` lets the judge leave it unscored on an item (null), in which case the
    item's score is taken over the criteria it did score, their weights renormalised."""

    id: Id
    label: Name
    min: float
    max: float
    direction: Literal["higher", "lower"] = "higher"
    weight: float = Field(default=1.0, gt=0, le=1000)
    optional: bool = False
    question: Annotated[str, StringConstraints(max_length=2000), NoControl] = ""

    @model_validator(mode="after")
    def _scale(self) -> "Criterion":
        if not self.max > self.min:
            raise ValueError(f"max ({self.max}) above min ({self.min})")
        return self


class ItemScore(_Strict):
    """How an item's score (0-100) is had: computed from the criteria, or stated by the harness
    (the item's `score` field) and checked against the computation within `tolerance`."""

    source: Literal["criteria", "stated"] = "criteria"
    tolerance: float = Field(default=0.01, ge=0, le=100)


class Boards(_Strict):
    """`by` names the prompt field whose values are the boards ("category"); absent: one board.
    `overall` publishes a board across them all: the benchmark's explicit choice, off unless set."""

    by: Id | None = None
    overall: bool = False
    overall_label: Name = "Overall"


class Repeats(_Strict):
    """Iterations per prompt. The bootstrap resamples prompts and keeps each prompt's
    iterations together (a prompt's score is the mean of its iterations)."""

    iterations: int = Field(default=1, ge=1, le=1000)


class Generation(_Strict):
    """The generation policy: how many attempts an item may take, and the reasons an attempt may
    fail for. An item whose every attempt failed is a failure on the site, with its reason."""

    attempts: int = Field(default=1, ge=1, le=100)
    failure_reasons: list[Id] = Field(default_factory=lambda: ["empty", "refusal", "truncated", "error"], min_length=1)


class Gate(_Strict):
    """A row publishes when at least this share of its expected items was scored; otherwise it
    is withheld, and its reason is shown."""

    min_scored_share: float = Field(default=0.8, ge=0, le=1)


class Freeze(_Strict):
    """`none`: nothing was fingerprinted before the sweeps, and the site says so and claims no
    freeze. (A recorded freeze, checked on every build as Canonic's is, is not offered yet: a
    kind the build could not check would be a claim it cannot stand behind.)"""

    kind: Literal["none"] = "none"


class Sweep(_Strict):
    """One pass of judging: its items file under data/<family>/, the judge, and its date. The
    newest sweep is the one the boards show; every earlier one stays published, archived."""

    id: Id
    date: IsoDate
    judges: list[Id] = Field(min_length=1)
    # JSONL, or Parquet (a harness at scale writes Parquet; DuckDB reads it)
    items: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-][A-Za-z0-9._-]*\.(jsonl|parquet)$")]
    note: Annotated[str, StringConstraints(max_length=2000), NoControl] = ""


class BenchmarkConfig(_Strict):
    """content/<family>/benchmark.toml"""

    title: Name
    description: Line
    synthetic: bool = False
    judges: list[Judge] = Field(min_length=1)
    criteria: list[Criterion] = Field(min_length=1)
    item_score: ItemScore = Field(default_factory=ItemScore)
    boards: Boards = Field(default_factory=Boards)
    repeats: Repeats = Field(default_factory=Repeats)
    generation: Generation = Field(default_factory=Generation)
    gate: Gate = Field(default_factory=Gate)
    freeze: Freeze = Field(default_factory=Freeze)
    sweeps: list[Sweep] = Field(min_length=1)
    seed_rule: Text = "seed = derive_seed(sweep id, model id, board id)"

    @model_validator(mode="after")
    def _cross(self) -> "BenchmarkConfig":
        problems = []
        for what, ids in (("judge", [j.id for j in self.judges]), ("criterion", [c.id for c in self.criteria]),
                          ("sweep", [s.id for s in self.sweeps])):
            problems += [f"each {what} id once ({d!r} repeats)" for d in duplicates(ids)]
        known = {j.id for j in self.judges}
        for s in self.sweeps:
            problems += [f"sweep {s.id!r} names judge {j!r}, which [[judges]] does not declare" for j in s.judges if j not in known]
        if problems:
            raise ValueError("; ".join(problems))
        return self
