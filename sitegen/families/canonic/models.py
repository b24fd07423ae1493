"""The Canonic Stage 1 artifact contract (seeds 002 and 003), as pydantic models.

Two files make the artifact, both under data/canonic/:

- sweep.json   the frozen design: sweep identity, pins, shows, domains with rubrics, tasks.
- cells.jsonl  one line per (model, task): the generation record and every judge record.

The models check the shape of one document. Rules that need two documents (a cell naming a
task the sweep does not have, anchors for the rubric's dimensions) live in validate.py.
Strict everywhere: no coercion from strings, no NaN or infinity, no unknown keys.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from sitegen.fields import exact_integer, IsoDate, IsoTime, Name, NoControl, Slug, Text
from sitegen.freeze import FreezeFile

ANCHOR_VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)
WEIGHT_TOLERANCE = 1e-9


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)


Hex32 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{32}$")]


One = exact_integer(1)


class Sweep(Strict):
    id: Slug
    date: IsoDate
    frozen_at: IsoTime


class Pin(Strict):
    """A model or judge, pinned to an exact provider slug. `family` is the house that trained it."""

    id: Slug
    name: Name
    family: Slug


class GenerationConfig(Strict):
    temperature: float = Field(ge=0, le=2)
    max_tokens: int = Field(gt=0, le=1_000_000)
    retries: One


class Show(Strict):
    id: Slug
    name: Name
    format: Literal["single-camera mockumentary", "multi-camera ensemble"]
    bible_version: Slug  # the version of its Show Bible the sweep was judged under (freeze.json)


class Anchor(Strict):
    value: float
    descriptor: Text


class Dimension(Strict):
    id: Slug
    question: Text
    scope: Literal["portable", "show-conditioned"] = "portable"
    weight: float = Field(gt=0, le=1)
    anchors: list[Anchor]

    @field_validator("anchors")
    @classmethod
    def _five_anchors(cls, anchors: list[Anchor]) -> list[Anchor]:
        values = tuple(a.value for a in anchors)
        if values != ANCHOR_VALUES:
            raise ValueError(f"five anchors at 0, 0.25, 0.5, 0.75, 1.0 in that order, got {list(values)}")
        return anchors


class Rubric(Strict):
    version: Slug
    dimensions: list[Dimension] = Field(min_length=1)

    # Weights summing to 1 are checked in validate.py, which can report the sum it found.

    @model_validator(mode="after")
    def _unique_dimensions(self) -> "Rubric":
        ids = [d.id for d in self.dimensions]
        if len(set(ids)) != len(ids):
            raise ValueError(f"unique dimension ids, got {ids}")
        return self


class Domain(Strict):
    id: Slug
    name: Name
    rubric: Rubric


class Task(Strict):
    """One task, as every model received it: a premise, constraints and the output's form,
    filled into the sweep's generation prompt (Prompts). Every field is in the task-set
    fingerprint, so changing one character of a task after the freeze fails the build."""

    id: Slug
    domain: Slug
    premise_origin: Literal["novel", "canonical-anchored"]
    show: Slug | None = None
    premise: Text
    constraints: list[Text] = Field(min_length=1, max_length=20)
    output_form: Text


class Prompt(Strict):
    """A prompt template, word for word, and the version of it the sweep ran under (frozen in
    freeze.json like a rubric, whose version it carries the same way). A slot is written
    {{name}}; the slots each template takes are prompts.GENERATION_SLOTS and
    prompts.JUDGE_SLOTS (checked in validate.py, which can name the slot that is wrong)."""

    version: Slug
    text: Text


class Prompts(Strict):
    generation: Prompt  # the wrapper every model received, one task filled in
    judge: Prompt  # what each judge received for one output


class DevelopmentModel(Strict):
    label: Name  # the neutral label the model went by while the rubrics were tuned
    model: Slug


class Development(Strict):
    """The freeze procedure as far as data records it: the rubrics were tuned on a subset of
    the models known only by neutral labels, and the mapping from label to model was released
    by the freeze itself (validate.py checks both)."""

    models: list[DevelopmentModel] = Field(min_length=1, max_length=50)
    released_at: IsoTime


class SweepFile(Strict):
    """data/canonic/sweep.json"""

    schema_: Literal["canonic.sweep/1"] = Field(alias="schema")
    synthetic: bool
    sweep: Sweep
    task_set_fingerprint: Hex32
    task_set_version: Slug  # the version of the task set the sweep ran (freeze.json)
    generation: GenerationConfig
    prompts: Prompts
    development: Development | None = None  # optional: a release may not record its tuning
    judges: list[Pin] = Field(min_length=2, max_length=2)
    models: list[Pin] = Field(min_length=1)
    shows: list[Show]
    domains: list[Domain] = Field(min_length=1)
    tasks: list[Task] = Field(min_length=1)

    model_config = ConfigDict(populate_by_name=False)


class Generation(Strict):
    """The one output per (model, task). Empty, filtered or truncated output gets one retry."""

    status: Literal["ok", "failed"]
    attempts: int = Field(ge=1, le=2)
    failure_reason: Literal["empty", "filtered", "truncated"] | None = None

    @model_validator(mode="after")
    def _failure_shape(self) -> "Generation":
        if self.status == "failed":
            if self.attempts != 2:
                raise ValueError("a failed generation to record 2 attempts (the output and its one retry)")
            if self.failure_reason is None:
                raise ValueError("a failed generation to carry its failure_reason")
        elif self.failure_reason is not None:
            raise ValueError("no failure_reason on a generation with status ok")
        return self


class Judgment(Strict):
    """One judge call. The judge picks anchors; the number is computed, never supplied by the judge."""

    judge: Slug
    prompt: Literal["standard", "reframe"]
    outcome: Literal["score", "refusal", "error"]
    anchors: dict[Slug, float] | None = None
    rationale: Annotated[str, StringConstraints(max_length=20_000), NoControl] = ""
    weighted_score: float | None = Field(default=None, ge=0, le=100)

    @model_validator(mode="after")
    def _outcome_shape(self) -> "Judgment":
        if self.outcome == "score":
            if not self.anchors:
                raise ValueError("anchors for every rubric dimension when the outcome is score")
        else:
            if self.anchors is not None or self.weighted_score is not None:
                raise ValueError(f"no anchors and no weighted_score when the outcome is {self.outcome}")
        return self


class Cell(Strict):
    """data/canonic/cells.jsonl, one line: a (model, task) cell."""

    model: Slug
    task: Slug
    generation: Generation
    judgments: list[Judgment]


class ProbeJudgment(Strict):
    judge: Slug
    anchors: dict[Slug, float]
    rationale: Annotated[str, StringConstraints(max_length=20_000), NoControl] = ""


class Probe(Strict):
    """A reward-hacking probe: an engineered output that should not score well, scored by
    both judges like any output. Caught when its score is at or below `max_score`."""

    id: Slug
    domain: Slug
    task: Slug
    attack: Text  # what the engineered output tries, in words
    output: Annotated[str, StringConstraints(min_length=1, max_length=200_000), NoControl]
    max_score: float = Field(ge=0, le=100)
    judgments: list[ProbeJudgment] = Field(min_length=2, max_length=2)


class ProbesFile(Strict):
    """data/canonic/probes.json"""

    schema_: Literal["canonic.probes/1"] = Field(alias="schema")
    synthetic: bool
    probes: list[Probe] = Field(min_length=1)


class ExternalEntry(Strict):
    model: Slug  # compared only when it equals a model id of the sweep exactly
    name: Name
    score: float


class ExternalBoard(Strict):
    """data/canonic/external.json: an external leaderboard to compare domain orders with."""

    schema_: Literal["canonic.external/1"] = Field(alias="schema")
    synthetic: bool
    name: Name
    source: Text  # the citation: who published it, where, when it was read
    predeclared: list[Slug]  # domains whose comparison was declared before the sweep
    entries: list[ExternalEntry] = Field(min_length=1)


class Output(Strict):
    """data/canonic/outputs.jsonl, one line: the text a model produced for a task."""

    model: Slug
    task: Slug
    text: Annotated[str, StringConstraints(min_length=1, max_length=500_000), NoControl]


ARTIFACT_KINDS: dict[str, type[BaseModel]] = {
    "canonic.sweep": SweepFile,
    "canonic.cell": Cell,
    "canonic.freeze": FreezeFile,  # the core's freeze record (sitegen.freeze)
    "canonic.probes": ProbesFile,
    "canonic.external": ExternalBoard,
    "canonic.output": Output,
}
