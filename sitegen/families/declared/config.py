"""The declarative family's configuration: content/<family>/benchmark.toml, as pydantic models.

A team describes its benchmark here instead of writing Python: what is judged (criteria on
their own scales and directions), by whom (one judge or several, each with the dates it
applied), how items become a board (by a prompt field, or one board), how repeats are
resampled, what the generation policy allows, which rows publish, and whether anything was
frozen. Every key is checked; a wrong one is a problem naming the key, expected and found.
`sitegen schema` writes its JSON Schema into schemas/ (benchmark-config.schema.json).
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationInfo, field_validator, model_validator

from sitegen.amendments import EntryId
from sitegen.contract import duplicates
from sitegen.fields import IsoDate, Name, NoControl
from sitegen.families.declared.pairwise.config import Pairwise


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)


Id = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]{0,63}$")]
Line = Annotated[str, StringConstraints(min_length=1, max_length=400), NoControl]


JudgeKind = Literal["model", "human", "rule", "unknown"]


class Judge(_Strict):
    """A judge: what kind of grader it is, and the dates it judged (inclusive; `until` absent
    while it still judges). A model judge is pinned (the provider's model id and version, the
    house that trained it); people, a rule, or a grader whose kind its records do not say
    (Inspect logs do not record who graded) are named and dated, and only what is true of them
    is asked: the pages say "judged by a rule", "by people", or that the logs (or records) do
    not record the grader."""

    id: Id = Field(description="The judge's id, named by each judgment (`judge`) and by a sweep's `judges`.")
    name: Name = Field(description="The name the pages show, such as \"Juniper 2\".")
    # Before model, version and house: their validators read it.
    kind: JudgeKind = Field(default="model", description="What graded: `model` (a model, pinned by `model`, `version` and `house`), "
                            "`human` (people), `rule` (a program or rule, such as an exact match), or `unknown` (the records do not "
                            "say, as Inspect logs do not).")
    model: Annotated[str, StringConstraints(min_length=1, max_length=200), NoControl] | None = Field(
        default=None, validate_default=True, description="The provider's model id, exactly as called: required for a model judge, refused for any other.")
    version: Annotated[str, StringConstraints(min_length=1, max_length=100), NoControl] | None = Field(
        default=None, validate_default=True, description="The pinned version or snapshot of that model: required for a model judge, refused for any other.")
    house: Name | None = Field(default=None, validate_default=True, description="The house that trained it, required for a model judge; "
                               "for people, the house they grade for, if any. A model of that house on a board is marked as judged by its own family; "
                               "without a house nothing is marked. Refused for a rule or an unknown grader.")
    since: IsoDate = Field(description="The first day it judged (a sweep it judged lies within since..until).")
    until: IsoDate | None = Field(default=None, description="The last day it judged; absent while it still judges.")

    # Strict both ways, each key judged on its own so every wrong one is named at once: a model
    # judge without its pin cannot be reproduced, and a model id on a rule would be shown as if
    # a model had graded. `house` stays open to people, since a house's own staff grading its
    # model is the conflict the self-family mark discloses; a rule has no house, and an unknown
    # grader's house cannot be known.
    @field_validator("model", "version")
    @classmethod
    def _pin(cls, value, info: ValidationInfo):
        kind = info.data.get("kind")
        if kind is None:  # the kind itself was refused, and is named
            return value
        if kind == "model" and value is None:
            what = "the provider's model id" if info.field_name == "model" else "the model's pinned version"
            raise ValueError(f'{what} (required when kind is "model")')
        if kind != "model" and value is not None:
            raise ValueError(f'no {info.field_name} (kind is "{kind}": only a model judge has one)')
        return value

    @field_validator("house")
    @classmethod
    def _house(cls, value, info: ValidationInfo):
        kind = info.data.get("kind")
        if kind == "model" and value is None:
            raise ValueError("the house that trained the judge model (required when kind is \"model\")")
        if kind in ("rule", "unknown") and value is not None:
            raise ValueError(f'no house (kind is "{kind}": only a model judge or people have one)')
        return value

    @model_validator(mode="after")
    def _dates_in_order(self) -> "Judge":
        if self.until is not None and self.until < self.since:
            raise ValueError(f"until ({self.until}) on or after since ({self.since})")
        return self


SCALE_LIMIT = 1e9  # the largest magnitude of a criterion's min or max


class Criterion(_Strict):
    """One thing the judge scores per item, on its own scale. `direction` says which end is
    good; `optional` lets the judge leave it unscored on an item (null), in which case the
    item's score is taken over the criteria it did score, their weights renormalised."""

    id: Id = Field(description="The key of this criterion in each judgment's `scores`.")
    label: Name = Field(description="The name the pages show.")
    # Bounded: a scale of 1e30 (or ±1.7e308, whose width is not even a float) is no judge's, and
    # its scores could neither be normalised nor shown to two decimals.
    min: float = Field(ge=-SCALE_LIMIT, le=SCALE_LIMIT, description="The lowest score on its scale.")
    max: float = Field(ge=-SCALE_LIMIT, le=SCALE_LIMIT, description="The highest score on its scale (above min).")
    direction: Literal["higher", "lower"] = Field(default="higher", description="Which end is good: `lower` for a fault such as cliché, turned round before it counts.")
    weight: float = Field(default=1.0, gt=0, le=1000, description="Its weight in the item score, relative to the other criteria's.")
    optional: bool = Field(default=False, description="The judge may leave it unscored (null) on an item; the item's score is then taken over the criteria scored.")
    question: Annotated[str, StringConstraints(max_length=2000), NoControl] = Field(default="", description="What the judge is asked, shown on the method page when given.")

    @model_validator(mode="after")
    def _scale(self) -> "Criterion":
        if not self.max > self.min:
            raise ValueError(f"max ({self.max}) above min ({self.min})")
        return self


class ItemScore(_Strict):
    """How an item's score (0-100) is had: computed from the criteria, or stated by the harness
    (the item's `score` field) and checked against the computation within `tolerance`."""

    source: Literal["criteria", "stated"] = Field(default="criteria", description="`criteria`: computed from the criteria; `stated`: each judgment carries a `score` from the harness, checked against the computation.")
    tolerance: float = Field(default=0.01, ge=0, le=100, description="How far (0-100 points) a stated score may lie from the computed one.")


class Boards(_Strict):
    """`by` names the prompt field whose values are the boards ("category"); absent: one board.
    `overall` publishes a board across them all: the benchmark's explicit choice, off unless set."""

    by: Id | None = Field(default=None, description="The prompt field whose values are the boards, such as `category`; absent: one board.")
    overall: bool = Field(default=False, description="Also publish a board across every prompt. Off unless set: a score across boards is the benchmark's explicit choice.")
    overall_label: Name = Field(default="Overall", description="The name of that board.")
    min_prompts: int = Field(default=4, ge=1, le=1000, description="The fewest prompts a board is ranked on: below it a board shows its "
                             "scores and counts, with no interval and no rank (with 3 prompts or fewer the 95% percentile interval is "
                             "the range of the prompt scores, not an inference).")


class Repeats(_Strict):
    """Iterations per prompt. The bootstrap resamples prompts and keeps each prompt's
    iterations together (a prompt's score is the mean of its iterations)."""

    iterations: int = Field(default=1, ge=1, le=1000, description="Iterations per (model, prompt); the bootstrap resamples prompts with all their iterations.")


class Generation(_Strict):
    """The generation policy: how many attempts an item may take, and the reasons an attempt may
    fail for. An item whose every attempt failed is a failure on the site, with its reason."""

    attempts: int = Field(default=1, ge=1, le=100, description="Generation attempts an item may take; only the last may succeed.")
    failure_reasons: list[Id] = Field(default_factory=lambda: ["empty", "refusal", "truncated", "error"], min_length=1,
                                      description="The reasons a failed attempt may give.")
    attempts_recorded: bool = Field(default=True, description="`false` when the harness keeps only each item's final output: items then carry no "
                                    "`attempts` list (a failed generation gives `final`), and the site says attempts were not recorded instead of counting them.")


class Gate(_Strict):
    """A row publishes when at least this share of its expected items was scored; otherwise it
    is withheld, and its reason is shown."""

    min_scored_share: float = Field(default=0.8, ge=0, le=1, description="The share of a row's expected items (prompts x iterations) that must be scored for it to publish.")


class Freeze(_Strict):
    """`none`: nothing was fingerprinted before the sweeps, and the site says so and claims no
    freeze. `recorded`: data/<family>/freeze.json (the record every family keeps: sitegen.freeze)
    holds the fingerprints of the rubric (criteria and item_score) and of the prompts, with
    their history of versions; every build recomputes them and fails on a mismatch, and each
    sweep's page says whether it ran after the version in force was frozen."""

    kind: Literal["none", "recorded"] = Field(default="none", description="`none`: no freeze, and the site says so; `recorded`: data/<family>/freeze.json fixes the rubric and the prompts.")


LOGS_GLOB = r"^[A-Za-z0-9_-][A-Za-z0-9._*?-]*(/[A-Za-z0-9_*?-][A-Za-z0-9._*?-]*)*\.(eval|json)$"
LOG_FILE = r"^[A-Za-z0-9_-][A-Za-z0-9._-]*(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*\.(eval|json)$"


class Sweep(_Strict):
    """One pass of judging: its items (a file under data/<family>/, or the Inspect AI logs a
    glob there matches), the judge, and its date. The newest sweep is the one the boards show;
    every earlier one stays published, archived."""

    id: Id = Field(description="The sweep's id, in its pages' addresses.")
    date: IsoDate = Field(description="The day it was judged; the newest sweep is the one the boards show.")
    judges: list[Id] = Field(min_length=1, description="The judges of this sweep: every scored item has one judgment by each.")
    # JSONL, or Parquet (a harness at scale writes Parquet; DuckDB reads it)
    items: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-][A-Za-z0-9._-]*\.(jsonl|parquet)$")] | None = Field(
        default=None, description="Its items file under data/<family>/, JSONL or Parquet (or `logs` instead).")
    logs: Annotated[str, StringConstraints(pattern=LOGS_GLOB)] | None = Field(
        default=None, description="Instead of `items`: a glob under data/<family>/ matching the Inspect AI evaluation logs "
                                  "(`.eval` or `.json`) of this sweep, such as `logs/s1/*.eval` ([inspect] maps them).")
    superseded: list[Annotated[str, StringConstraints(pattern=LOG_FILE)]] | None = Field(
        default=None, description="With `logs`: the logs its glob matches that a newer log of the same model and task replaces, such as "
                                  "`[\"logs/s1/model-1-first.eval\"]` (paths under data/<family>/). Each is still read, hashed and published, "
                                  "marked superseded on the method page and in the manifest; its samples are not used. Without it, a second "
                                  "log of one model in a sweep is refused.")
    note: Annotated[str, StringConstraints(max_length=2000), NoControl] = Field(default="", description="A sentence the sweep's pages and feed entry show.")
    amendment: EntryId | None = Field(default=None, description="The amendment (content/<family>/amendments/) that records why this sweep was run; required when its judges or settings are not the previous sweep's.")
    # What the sweep was computed with, when it is not the top level's (settings.py): a sweep whose
    # rubric, gate or boards changed is a new sweep with its own tables, never the old one recomputed.
    criteria: list[Criterion] | None = Field(default=None, min_length=1, description="This sweep's own criteria ([[sweeps.criteria]]), in place of the top level's.")
    item_score: ItemScore | None = Field(default=None, description="This sweep's own [sweeps.item_score].")
    boards: Boards | None = Field(default=None, description="This sweep's own [sweeps.boards].")
    repeats: Repeats | None = Field(default=None, description="This sweep's own [sweeps.repeats].")
    generation: Generation | None = Field(default=None, description="This sweep's own [sweeps.generation].")
    gate: Gate | None = Field(default=None, description="This sweep's own [sweeps.gate].")
    synthetic: bool | None = Field(default=None, description="Whether this sweep's data is synthetic, in place of the top level's `synthetic`.")
    inspect: "Inspect | None" = Field(default=None, description="This sweep's own [sweeps.inspect]: how its logs' scorers are read, in place of the top level's.")
    settings_fingerprint: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")] | None = Field(
        default=None, description="The fingerprint of the settings this sweep was published with (its own tables, else the top level's, as "
                                  "written); required once a newer sweep archives it, so a later edit of the top level cannot recompute it.")

    @model_validator(mode="after")
    def _one_source(self) -> "Sweep":
        if (self.items is None) == (self.logs is None):
            raise ValueError("exactly one of items (a JSONL or Parquet file) and logs (a glob of Inspect logs)")
        if self.logs is not None and len(self.judges) != 1:
            raise ValueError("one judge for a sweep of Inspect logs: the scores of its [inspect] scorers are that judge's")
        if self.superseded is not None and self.logs is None:
            raise ValueError("superseded only with logs (it names Inspect logs the sweep's glob matches)")
        if self.superseded is not None and (twice := duplicates(self.superseded)):
            raise ValueError(f"each superseded log once ({twice[0]!r} repeats)")
        return self


ScorerName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.:/-]{0,99}$")]


class Scorer(_Strict):
    """One scorer of the logs, published as a metric with boards of its own. `criteria`: its value is
    a dict whose keys are the [[criteria]] (as the single `scorer` form reads it); `numeric`: one
    number on a declared min..max, shown as a percentage of that scale; `rate`: one value read as
    Inspect's own value_to_float reads it (C = 1, P = 0.5, I = 0, N = 0; true/yes 1, false/no 0; a
    number as it is, on 0..1), shown as a percentage. The headline metric's boards are the
    benchmark's boards; every other metric's stand apart, never blended with them."""

    name: ScorerName = Field(description="The scorer as the logs name it (the key of `sample.scores`), such as `match` or `model_graded_qa`.")
    # Before the keys whose validators read it.
    kind: Literal["criteria", "numeric", "rate"] = Field(description="`criteria` (a dict of the [[criteria]]'s scores), `numeric` (one number on "
                                                         "`min`..`max`) or `rate` (C/I/P/N, a boolean, or a number on 0..1, as Inspect's value_to_float reads it).")
    id: Id | None = Field(default=None, validate_default=True, description="The metric's id, in its pages' addresses; the scorer's name when that is an id.")
    label: Name | None = Field(default=None, description="The metric's name on the pages; the scorer's name when absent.")
    headline: bool = Field(default=False, description="The metric whose boards are the benchmark's boards and its home's result: exactly one scorer has it.")
    min: float | None = Field(default=None, ge=-SCALE_LIMIT, le=SCALE_LIMIT, validate_default=True,
                              description="For a numeric scorer: the lowest value on its scale (required); refused for another kind.")
    max: float | None = Field(default=None, ge=-SCALE_LIMIT, le=SCALE_LIMIT, validate_default=True,
                              description="For a numeric scorer: the highest value on its scale, above min (required); refused for another kind.")
    direction: Literal["higher", "lower"] | None = Field(default=None, validate_default=True,
                                                         description="For a numeric scorer: which end is good (default `higher`); refused for another kind.")

    @field_validator("id")
    @classmethod
    def _id(cls, value, info: ValidationInfo):
        name = info.data.get("name")
        if value is None and name is not None and not re.fullmatch(Id.__metadata__[0].pattern, name):
            raise ValueError(f"an id for the metric (the scorer's name {name!r} is not one: 1 to 64 lower-case letters, digits, _ and -)")
        return value

    @field_validator("min", "max", "direction")
    @classmethod
    def _numeric_only(cls, value, info: ValidationInfo):
        kind = info.data.get("kind")
        if kind == "numeric" and value is None and info.field_name != "direction":
            raise ValueError(f"the {info.field_name} of the scorer's scale (required when kind is \"numeric\")")
        if kind is not None and kind != "numeric" and value is not None:
            raise ValueError(f'no {info.field_name} (kind is "{kind}": only a numeric scorer has a declared scale)')
        return value

    @model_validator(mode="after")
    def _scale(self) -> "Scorer":
        if self.kind == "numeric" and self.min is not None and self.max is not None and not self.max > self.min:
            raise ValueError(f"max ({self.max}) above min ({self.min})")
        return self

    @property
    def metric(self) -> str:
        return self.id or self.name


class Inspect(_Strict):
    """How Inspect AI evaluation logs map onto the family's records: each log is one model's run
    of the task (its `eval.model`), each sample (id, epoch) one item (prompt, iteration), every
    scorer's value the sweep's judge's scores (`scorer`, one dict scorer, or `[[inspect.scorers]]`,
    each a metric of its own) and their explanations the judge's rationale, the sample's string
    metadata the prompt's fields (so `boards.by` can name one), its input the prompt's text, a
    sample error a failed attempt and each retried error one more."""

    scorer: Id | None = Field(default=None, description="The one scorer read, whose value is a dict of the criteria's scores (`Score.value`), "
                              "such as `rubric`: the headline and only metric. Or `[[inspect.scorers]]` instead.")
    scorers: list[Scorer] | None = Field(default=None, min_length=1, description="Instead of `scorer`: every scorer of the logs, each a metric "
                                         "with boards of its own ([[inspect.scorers]]), one of them `headline = true`.")
    errored: Literal["excluded", "failing"] | None = Field(default=None, description="What a sample that errored counts as: `excluded` (unscored, "
                                                           "left out of every score and counted against the gate, as Inspect's own metrics leave it "
                                                           "out) or `failing` (scored the lowest value of every metric). Absent: `excluded`, and "
                                                           "the method page says the rule was not declared.")
    failure_reason: Id = Field(default="error", description="The reason (one of generation.failure_reasons) a sample's error, or a retried one, is recorded under.")

    @field_validator("scorers")
    @classmethod
    def _metrics(cls, value):
        if value is None:
            return value
        problems = []
        heads = [s.name for s in value if s.headline]
        if len(heads) != 1:
            problems.append(f"exactly one scorer with headline = true (the metric whose boards are the benchmark's); found {len(heads)}"
                            + (f" ({', '.join(heads)})" if heads else ""))
        problems += [f"each scorer once ({d!r} repeats)" for d in duplicates(s.name for s in value)]
        problems += [f"each metric id once ({d!r} repeats)" for d in duplicates(s.metric for s in value)]
        dicts = [s.name for s in value if s.kind == "criteria"]
        if len(dicts) > 1:
            problems.append(f"at most one scorer of kind \"criteria\" (its keys are the [[criteria]]); found {len(dicts)} ({', '.join(dicts)})")
        if problems:
            raise ValueError("; ".join(problems))
        return value

    @model_validator(mode="after")
    def _one_form(self) -> "Inspect":
        if (self.scorer is None) == (self.scorers is None):
            raise ValueError("exactly one of scorer (the one dict scorer) and scorers ([[inspect.scorers]], every scorer a metric)")
        return self

    @property
    def reads_criteria(self) -> bool:
        """Whether a scorer's value is a dict of the [[criteria]]."""
        return self.scorer is not None or any(s.kind == "criteria" for s in self.scorers or ())


class BenchmarkConfig(_Strict):
    """content/<family>/benchmark.toml"""

    title: Name = Field(description="The benchmark's name, on every page of it.")
    description: Line = Field(description="One sentence: what the benchmark measures (its home page and the site's).")
    synthetic: bool = Field(default=False, description="The data is synthetic: every page of it says so.")
    judges: list[Judge] = Field(min_length=1, description="Every judge that scored a sweep ([[judges]]).")
    criteria: list[Criterion] = Field(default_factory=list, description="What each judgment scores ([[criteria]]), in the order the pages show: "
                                      "at least one, unless every [[inspect.scorers]] is numeric or a rate.")
    item_score: ItemScore = Field(default_factory=ItemScore, description="How an item's 0-100 score is had.")
    boards: Boards = Field(default_factory=Boards, description="How prompts become boards.")
    repeats: Repeats = Field(default_factory=Repeats, description="Iterations per prompt.")
    generation: Generation = Field(default_factory=Generation, description="The generation policy.")
    gate: Gate = Field(default_factory=Gate, description="The publication gate.")
    freeze: Freeze = Field(default_factory=Freeze, description="Whether the rubric and prompts were frozen before judging.")
    sweeps: list[Sweep] = Field(min_length=1, description="Every pass of judging ([[sweeps]]); earlier ones stay published, never rescored.")
    inspect: Inspect | None = Field(default=None, description="How Inspect AI logs map onto items, for sweeps that name `logs` ([inspect]).")
    pairwise: Pairwise | None = Field(default=None, description="Judgments of two outputs to the same prompt, and the rating made of them "
                                      "([pairwise], the pairwise unit: sitegen/families/declared/pairwise/).")

    @model_validator(mode="after")
    def _cross(self) -> "BenchmarkConfig":
        problems = []
        for what, ids in (("judge", [j.id for j in self.judges]), ("criterion", [c.id for c in self.criteria]),
                          ("sweep", [s.id for s in self.sweeps])):
            problems += [f"each {what} id once ({d!r} repeats)" for d in duplicates(ids)]
        known = {j.id for j in self.judges}
        for s in self.sweeps:
            problems += [f"sweep {s.id!r} names judge {j!r}, which [[judges]] does not declare" for j in s.judges if j not in known]
            problems += [f"each criterion id of sweep {s.id!r} once ({d!r} repeats)" for d in duplicates(c.id for c in s.criteria or ())]
        if self.freeze.kind == "recorded":  # the freeze fixes one rubric: the top level's, which every sweep is then judged under
            problems += [f"sweep {s.id!r} without its own criteria or item_score (freeze.kind is \"recorded\": the frozen rubric is the top level's)"
                         for s in self.sweeps if s.criteria is not None or s.item_score is not None]
        problems += _criteria_read(self)
        if any(s.logs for s in self.sweeps):
            if self.inspect is None:
                problems.append("an [inspect] table naming the scorer, since a sweep names Inspect logs")
            else:  # each sweep of logs is read under its own generation policy (once per policy said)
                lacking = {f"sweep {s.id!r}'s generation.failure_reasons" if s.generation else "generation.failure_reasons": None
                           for s in self.sweeps if s.logs and self.inspect.failure_reason not in (s.generation or self.generation).failure_reasons}
                problems += [f"inspect.failure_reason {self.inspect.failure_reason!r} among {where}" for where in lacking]
        if self.pairwise is not None:
            problems += [f"pairwise names judge {j!r}, which [[judges]] does not declare" for j in self.pairwise.judges if j not in known]
            if self.pairwise.outputs_from is not None and self.pairwise.outputs_from not in {s.id for s in self.sweeps}:
                problems.append(f"pairwise.outputs_from names sweep {self.pairwise.outputs_from!r}, which [[sweeps]] does not declare")
        if problems:
            raise ValueError("; ".join(problems))
        return self


def _criteria_read(config: BenchmarkConfig) -> list[str]:
    """The [[criteria]] are read from one place: a dict scorer, or an items file's judgments. So
    there is at least one where one reads them, none where no scorer does, and a numeric or rate
    metric's id (its one criterion's) is no criterion's."""
    scorers = config.inspect.scorers if config.inspect is not None else None
    tops = [("criteria", config.criteria)] + [(f"sweep {s.id!r}'s criteria", s.criteria) for s in config.sweeps if s.criteria is not None]
    if scorers is None:
        return [] if config.criteria else ["at least one criterion ([[criteria]])"]
    problems = []
    if config.inspect.reads_criteria and not config.criteria:
        problems.append("at least one criterion ([[criteria]]), which the scorer of kind \"criteria\" reads")
    if not config.inspect.reads_criteria:
        problems += [f"no {where} (no scorer of [[inspect.scorers]] is of kind \"criteria\", to read them)" for where, c in tops if c]
    ids = {s.metric for s in scorers if s.kind != "criteria"}
    for where, criteria in tops:
        problems += [f"a metric id of [[inspect.scorers]] other than every criterion id of {where} ({c.id!r} is both)" for c in criteria or () if c.id in ids]
    return problems
