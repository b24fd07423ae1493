"""The ChronicleBench v1.1 artifact contract (seed 000), as pydantic models.

Files under data/chronicle/:

- cohort.json        the frozen design: benchmark identity (and its former name), eligibility
                     band, windows, the pinned OBR instrument, weight profiles, briefs, roster,
                     boards, cohorts and the controlled exhibit;
- runs.jsonl         one line per scored run: per-call records, manuscript hash, words, stop
                     reason, and for each of the five windows its span (chapter and section)
                     and three judge runs, each citing 1-3 located quotes per dimension scored;
- reference.jsonl    one line per human reference novel (36 v1.1 + 14 legacy anchors), its
                     windows judged and evidenced the same way;
- selection.json     the reference corpus's selection record (protocol section 7): the seed,
                     the places per stratum, when genres were assigned and when the title list
                     and manuscript hashes were committed, and the full candidate pool with the
                     facts eligibility is decided from. Which candidates are excluded (and
                     why), eligible and drawn is computed (selection.py), never stated;
- archive-v1.0.json  the archived v1.0 board, published as it was, never rescored.

The benchmark was developed as SagaBench with a "SagaScore"; archived data keeps `sagascore`
fields, accepted here as declared aliases of `score`. Pages always say "ChronicleBench Score".
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, AliasChoices, BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from sitegen.amendments import EntryId, EntryMeta
from sitegen.fields import exact_integer, IsoDate, IsoTime, Name, NoControl, Sha256, Slug, Text

WINDOWS = ("opening", "25k", "50k", "75k", "ending")
LEGACY_WINDOWS = ("opening", "25k", "50k", "ending")  # v1.0's four-window metric
DIMENSIONS = ("hook", "prose", "character", "dialogue", "pacing", "structure", "originality", "coherence")
_DIMENSION_SET = frozenset(DIMENSIONS)
ARMS = ("free-run", "sustained", "system")
JUDGE_RUNS = 3
WEIGHT_TOLERANCE = 1e-9
# A bound on one call's cost, far above any real one, so that the sums of costs the site
# publishes stay finite (two calls of 1.7e308 dollars would add up to infinity).
MAX_CALL_COST_USD = 1_000_000


# Three runs per (entrant, brief): the JSON integer 3 itself, not true or 3.0.
Three = exact_integer(3)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True, populate_by_name=True)


def _sagascore_in_schema(schema: dict) -> None:
    """The published JSON Schema accepts the archived key too, as the contract does."""
    props = schema.get("properties", {})
    if "score" in props:
        props["sagascore"] = {**props["score"], "title": "Sagascore",
                              "description": "The archived name of score (SagaScore, before the rename). Give one of the two, not both."}
        required = schema.get("required", [])
        if "score" in required:  # exactly one of the two names
            required.remove("score")
            schema["oneOf"] = [{"required": ["score"]}, {"required": ["sagascore"]}]
        else:  # at most one
            schema["not"] = {"required": ["score", "sagascore"]}
AmendmentId = EntryId
Window = Literal["opening", "25k", "50k", "75k", "ending"]
Dimension = Literal["hook", "prose", "character", "dialogue", "pacing", "structure", "originality", "coherence"]


class Identity(Strict):
    name: Name  # ChronicleBench
    version: Slug  # v1.1
    score_name: Name  # ChronicleBench Score
    formerly: Name  # SagaBench
    formerly_score: Name  # SagaScore
    renamed_on: IsoDate


class Eligibility(Strict):
    min_words: int = Field(gt=0)
    max_words: int = Field(gt=0)

    @model_validator(mode="after")
    def _ordered(self) -> "Eligibility":
        if self.min_words >= self.max_words:
            raise ValueError("min_words below max_words")
        return self


class Instrument(Strict):
    id: Name  # the pinned system-prompt hash, e.g. obr-v2.1-2026-03-08
    judge: Name
    judge_slug: Slug
    temperature: float = Field(ge=0, le=0)
    runs: Three


class WeightProfile(Strict):
    id: Slug
    weights: dict[Dimension, float]

    @field_validator("weights")
    @classmethod
    def _all_dims_sum_one(cls, w: dict[str, float]) -> dict[str, float]:
        if sorted(w) != sorted(DIMENSIONS):
            raise ValueError(f"a weight for each of the eight dimensions ({', '.join(DIMENSIONS)})")
        if any(v <= 0 for v in w.values()):
            raise ValueError("positive weights")
        total = sum(w[d] for d in DIMENSIONS)
        if abs(total - 1.0) > WEIGHT_TOLERANCE:
            raise ValueError(f"weights summing to 1, got {total:.12g}")
        return w


class Brief(Strict):
    id: Slug  # b2, n1
    code: Name  # B2, N1
    title: Name
    genre: Name
    profile: Slug  # the weight profile its books are scored under
    sha256: Sha256  # of the brief's text, verbatim from the corpus, as the harness hashed it


class Gate(Strict):
    """One frozen length-calibration gate of a system's release: a measured value that must lie
    in [min, max]. Whether it passed is recomputed, never taken from the file."""

    id: Slug
    description: Name
    min: float
    max: float
    value: float

    @property
    def passed(self) -> bool:
        return self.min <= self.value <= self.max


class Release(Strict):
    """The engine release a system entrant generated on (protocol section 3: Chronicle's entry
    generates "after its length-calibration release passes its own frozen gates")."""

    version: Name
    frozen_on: IsoDate  # when its gates were frozen and passed, before any of its runs
    gates: list[Gate] = Field(min_length=1)


class Entrant(Strict):
    """A pinned model (or system) of the roster."""

    id: Slug
    name: Name
    provider: Slug
    kind: Literal["model", "system"]
    status: Literal["active", "withdrawn"] = "active"
    withdrawn_by: AmendmentId | None = None  # the amendment that withdrew it
    cohort: Slug  # the cohort entry it joined with
    release: Release | None = None  # a system's engine release: required for a system, none for a model
    # The ids it was published under before a rename: a release that drops a published id
    # without naming it here is refused (sitegen.release_checks), so an old link still finds it.
    formerly: list[Slug] = Field(default_factory=list, max_length=20)

    @model_validator(mode="after")
    def _withdrawal(self) -> "Entrant":
        if self.id in self.formerly:
            raise ValueError(f"formerly lists the ids it was published under before, not its own id {self.id!r}")
        if (self.status == "withdrawn") != (self.withdrawn_by is not None):
            raise ValueError("withdrawn_by exactly when status is withdrawn")
        if (self.kind == "system") != (self.release is not None):
            raise ValueError("a release exactly for a system entrant")
        return self


class Board(Strict):
    id: Slug
    number: int = Field(ge=1, le=9)
    title: Name
    arm: Literal["free-run", "sustained", "system"]
    description: Text


class Vocabulary(Strict):
    """The instrument's controlled vocabularies (protocol section 3a): the tags of the engagement
    timeline and the diagnosis taxonomy its top issues come from."""

    tags: list[Slug] = Field(min_length=1)
    issues: list[Slug] = Field(min_length=1)


class Cohort(Strict):
    """A dated entry of the cohort changelog: the day it landed on the site, the instrument its
    runs were scored on. Listed oldest first; every run of a cohort was generated on or before
    its date (an addition is a new dated cohort, never a run slipped into an older one)."""

    id: Slug
    date: IsoDate
    changelog: Text
    instrument: Name


class Exhibit(Strict):
    """The controlled comparison: the system against its own base model, on its own page."""

    system: Slug
    base_model: Slug
    description: Text


class CohortFile(Strict):
    """data/chronicle/cohort.json"""

    schema_: Literal["chronicle.cohort/1"] = Field(alias="schema")
    synthetic: bool
    benchmark: Identity
    protocol_frozen_on: IsoDate
    eligibility: Eligibility
    # The replicates of each arm on each brief (protocol section 2: three free-run and three
    # sustained per model and brief; three books per brief for a system). An entrant ranks only
    # when every one of them was run (section 6: no partial cohorts on a headline board).
    replicates: int = Field(ge=1, le=9)
    # The one sampling temperature of every model call (section 2), where the endpoint takes
    # one; an endpoint that refuses it is recorded with params_transformed: true instead.
    temperature: float = Field(ge=0, le=2)
    # The harness's hard word cap (section 2: below the eligibility ceiling, so a runaway model
    # run stops there rather than becoming an over-length DNF): no model run goes beyond it,
    # and a run stopped by it ("cap") ends on it.
    hard_cap_words: int = Field(gt=0, le=2_000_000)
    # The frozen generation template's hash, recorded in every model run's manifest (section 2:
    # byte-identical harness).
    template_sha256: Sha256
    windows: list[Window]
    instrument: Instrument
    vocabulary: Vocabulary
    profiles: list[WeightProfile] = Field(min_length=1)
    briefs: list[Brief] = Field(min_length=1)
    entrants: list[Entrant] = Field(min_length=1)
    boards: list[Board] = Field(min_length=1)
    cohorts: list[Cohort] = Field(min_length=1)
    exhibit: Exhibit | None = None


class Cap(Strict):
    value: float = Field(ge=0, le=100)
    reason: Text


# The judge's evidence (protocol section 3a: "every dimension score must cite 1-3 short quotes
# with chapter/section locations"). A location is where the production parser puts the passage:
# its chapter, and its section within that chapter, both numbered from 1. A quote is short: at
# most QUOTE_MAX_CHARS characters (two or three sentences; a longer excerpt is a passage, not a
# quote), with at least one character that is not a space. LOCATION_MAX bounds both numbers far
# above any novel's (the longest run to a few hundred chapters), so a runaway number is refused
# even where no window span can place it.
QUOTES_MIN, QUOTES_MAX = 1, 3
QUOTE_MAX_CHARS = 300
LOCATION_MAX = 10_000


def _not_blank(v: str) -> str:
    if not v.strip():
        raise ValueError("a quote with at least one character that is not a space")
    return v


class Location(Strict):
    """A place in a manuscript as the parser numbers it: chapter, and section within it."""

    ch: int = Field(ge=1, le=LOCATION_MAX, title="Chapter", description="The chapter, numbered from 1.")
    sec: int = Field(ge=1, le=LOCATION_MAX, title="Section", description="The section within the chapter, numbered from 1.")


class Quote(Location):
    """One quote the judge cites for a dimension's score, where it found it."""

    quote: Annotated[str, StringConstraints(min_length=1, max_length=QUOTE_MAX_CHARS), NoControl, AfterValidator(_not_blank)] = Field(
        description=f"The quoted text, as the judge quoted it: 1 to {QUOTE_MAX_CHARS} characters, not all spaces.")


# 1 to 3 quotes (protocol section 3a: every dimension score cites 1-3 short quotes).
Quotes = Annotated[list[Quote], Field(min_length=QUOTES_MIN, max_length=QUOTES_MAX)]


class Evidence(Strict):
    """The quotes behind each of the eight scores of a judge run: every dimension scored cites
    its evidence, and no evidence stands for a dimension that is not scored."""

    hook: Quotes
    prose: Quotes
    character: Quotes
    dialogue: Quotes
    pacing: Quotes
    structure: Quotes
    originality: Quotes
    coherence: Quotes


assert tuple(Evidence.model_fields) == DIMENSIONS


class JudgeRun(Strict):
    """One OBR run on one window: eight 1-10 scores under a weight profile, each with the quotes
    it cites as evidence, maybe capped."""

    profile: Slug
    dimensions: dict[Dimension, int]
    evidence: Evidence
    cap: Cap | None = None
    composite: float | None = Field(default=None, ge=0, le=100)  # stated; recomputed and compared

    @field_validator("dimensions")
    @classmethod
    def _eight_in_range(cls, d: dict[str, int]) -> dict[str, int]:
        if d.keys() != _DIMENSION_SET:
            raise ValueError(f"a score for each of the eight dimensions ({', '.join(DIMENSIONS)})")
        if not all(1 <= v <= 10 for v in d.values()):  # every judge run of every window passes here
            bad = {k: v for k, v in d.items() if not 1 <= v <= 10}
            raise ValueError(f"scores from 1 to 10, got {bad}")
        return d


class Span(Strict):
    """Where a window lies in its text, as the parser cut it: from the section holding its first
    word to the section holding its last (a window is cut on paragraph boundaries, so it may
    start and end inside a section). Its quotes must lie within it."""

    first: Location
    last: Location


class WindowScore(Strict):
    window: Window
    span: Span
    runs: list[JudgeRun] = Field(min_length=JUDGE_RUNS, max_length=JUDGE_RUNS)
    composite: float | None = Field(default=None, ge=0, le=100)  # stated median; recomputed and compared


class Call(Strict):
    """One generation call as the harness recorded it."""

    seq: int = Field(ge=1)
    returned_model: Slug
    returned_provider: Slug
    request_id: Name
    timestamp: IsoTime
    params: dict[Slug, float | int | str | bool]
    cost_usd: float = Field(ge=0, le=MAX_CALL_COST_USD)
    words_from: int = Field(ge=0)
    words_to: int = Field(ge=0)
    finish: Literal["stop", "length", "error", "stall", "refusal"]
    message: Text | None = None  # the error or the refusal as returned: given exactly for those

    @model_validator(mode="after")
    def _offsets(self) -> "Call":
        if self.words_to < self.words_from:
            raise ValueError("words_to at or after words_from")
        if (self.message is not None) != (self.finish in ("error", "refusal")):
            raise ValueError("a message exactly when the call ended in an error or a refusal")
        return self


class SupersededAttempt(Strict):
    """A first attempt of a run that died on infrastructure before any content and was run
    again (protocol section 2: "The only permitted rerun is a documented infrastructure failure
    (transport death before any content), re-run once under identical parameters")."""

    failure: Literal["transport", "insufficient-credits"]
    message: Text  # the error as recorded
    request_id: Name
    timestamp: IsoTime
    params: dict[Slug, float | int | str | bool]
    words: int = Field(ge=0)  # content received before it died: must be none
    documented_by: AmendmentId | None = None  # the amendment that records the incident, if one does


class Deterministic(Strict):
    """The instrument's deterministic layer on the whole manuscript (code, no model)."""

    sentence_cv: float = Field(ge=0, le=10)  # sentence-length variability
    type_token_ratio: float = Field(gt=0, le=1)  # lexical diversity
    ai_tells_per_kw: float = Field(ge=0, le=1000)  # AI-tell phrases per 1,000 words


class Segment(Strict):
    """One window of the engagement timeline: its words, a 1-10 score, tags from the vocabulary."""

    words_from: int = Field(ge=0)
    words_to: int = Field(ge=0)
    score: int = Field(ge=1, le=10)
    tags: list[Slug]


class Scoring(Strict):
    """What the score file records beside the window scores (protocol section 3a): the
    deterministic layer, the engagement timeline (8 to 12 segments covering the text) with its
    3 to 5 top issues, the whole-book composite kept as a diagnostic (three judge runs, like a
    window, never part of the score), and what the scoring cost."""

    deterministic: Deterministic
    engagement: list[Segment] = Field(min_length=8, max_length=12)
    issues: list[Slug] = Field(min_length=3, max_length=5)
    whole_book: list[JudgeRun] = Field(min_length=JUDGE_RUNS, max_length=JUDGE_RUNS)
    cost_usd: float = Field(ge=0, le=MAX_CALL_COST_USD)


class Run(Strict):
    model_config = ConfigDict(json_schema_extra=_sagascore_in_schema)

    """data/chronicle/runs.jsonl, one line."""

    id: Slug
    entrant: Slug
    brief: Slug
    arm: Literal["free-run", "sustained", "system"]
    replicate: int = Field(ge=1, le=9)
    cohort: Slug
    manuscript_sha256: Sha256
    words: int = Field(ge=0)
    stop_reason: Literal["voluntary-stop", "word-target", "stall", "cap", "budget-guard", "error"]
    calls: list[Call] = Field(min_length=1)
    superseded: list[SupersededAttempt] = Field(default_factory=list)  # the attempt it reran, if any
    template_sha256: Sha256  # the generation template it ran (a system's: its own commission)
    brief_sha256: Sha256  # the brief it was given
    instrument: Name  # the OBR system-prompt hash its windows were scored with (section 3a)
    windows: list[WindowScore]
    scoring: Scoring
    score: float | None = Field(default=None, ge=0, le=100, validation_alias=AliasChoices("score", "sagascore"))


class ReferenceNovel(Strict):
    model_config = ConfigDict(json_schema_extra=_sagascore_in_schema)

    """data/chronicle/reference.jsonl, one line: a public-domain novel of the human band."""

    id: Slug
    title: Name
    author: Name
    gutenberg_id: int = Field(gt=0)
    stratum: Literal["plot-forward", "character-forward", "broader-controls", "legacy"]
    corpus: Literal["v1.1", "legacy-v1.0"]
    # A bound on what a novel can be (the longest published ones run to under two million
    # words); a v1.1 addition's are its candidate's in selection.json (validate.py).
    words: int = Field(gt=0, le=2_000_000)
    profile: Slug
    recognized: bool  # the post-scoring recognition probe: did the judge identify the work?
    instrument: Name  # the OBR system-prompt hash its windows were scored with
    windows: list[WindowScore]
    score: float | None = Field(default=None, ge=0, le=100, validation_alias=AliasChoices("score", "sagascore"))
    # A v1.1 novel's manuscript as committed in selection.json, and when it was scored (after
    # that commit): required of every v1.1 novel (validate.py), optional for a legacy anchor.
    manuscript_sha256: Sha256 | None = None
    scored_at: IsoTime | None = None


Form = Literal["novel", "collection", "play", "fragment", "volume", "abridgement", "anthology"]
# An ISO 639 language code, lower case: en, fr, ru, grc.
Language = Annotated[str, StringConstraints(pattern=r"^[a-z]{2,3}$")]


class ContentExclusion(Strict):
    """A work excluded individually on its content, by an amendment made before any reference
    scoring (amendment A3: works whose primary subject is the promotion of racial violence)."""

    reason: Text
    documented_by: AmendmentId  # the amendment that records it: must exist and predate the scoring


class Candidate(Strict):
    """One work of the candidate pool, as recorded before any scoring: its identity, the stratum
    its genre was assigned to, its cleaned words and the facts each eligibility rule reads.
    Whether it is eligible, excluded (and why) or drawn is computed, never recorded here."""

    gutenberg_id: int = Field(gt=0)
    title: Name
    author: Name
    stratum: Literal["plot-forward", "character-forward", "broader-controls"]
    words: int = Field(gt=0, le=2_000_000)  # cleaned words: the bound of ReferenceNovel.words
    original_language: Language
    translator: Name | None  # null for a work read in the language it was written in
    form: Form
    cleanly_extractable: bool  # can the prose be extracted cleanly from the Gutenberg text?
    # The Gutenberg id of a work (in the pool, or a legacy anchor of the corpus) this one
    # duplicates, adapts or is an alternate edition of: null for none.
    duplicate_of: int | None = Field(gt=0)
    manuscript_sha256: Sha256  # of the cleaned text, as committed before scoring
    exclusion: ContentExclusion | None = None  # an individually recorded content exclusion


class SelectionFile(Strict):
    """data/chronicle/selection.json: the human reference corpus's selection record."""

    schema_: Literal["chronicle.selection/1"] = Field(alias="schema")
    synthetic: bool
    seed: Name  # the seed string the frozen protocol states (section 7)
    places_per_stratum: int = Field(ge=1, le=1000)  # the protocol's "three strata of 12"
    extended_max_words: int = Field(gt=0, le=2_000_000)  # the ceiling a short stratum extends to
    genres_assigned_at: IsoTime  # every candidate's stratum assigned, before any scoring
    committed_at: IsoTime  # the title list and the manuscript hashes committed, before any scoring
    candidates: list[Candidate] = Field(min_length=1)


class ArchivedRow(Strict):
    model_config = ConfigDict(json_schema_extra=_sagascore_in_schema)

    entrant: Name
    score: float = Field(ge=0, le=100, validation_alias=AliasChoices("score", "sagascore"))
    runs: int = Field(ge=1)


class ArchiveFile(Strict):
    """data/chronicle/archive-v1.0.json: the v1.0 board, as published then."""

    schema_: Literal["chronicle.archive/1"] = Field(alias="schema")
    synthetic: bool
    version: Literal["v1.0"]
    contract: Name
    published_on: IsoDate
    note: Text
    rows: list[ArchivedRow] = Field(min_length=1)


ARTIFACT_KINDS: dict[str, type[BaseModel]] = {
    "chronicle.cohort": CohortFile,
    "chronicle.run": Run,
    "chronicle.reference": ReferenceNovel,
    "chronicle.archive": ArchiveFile,
    "chronicle.selection": SelectionFile,
}




# Who may direct a change, as the protocol's amendments name them: the owner, the maintainers
# with the owner's approval, or the maintainers alone (whatever else the entry's text says).
Role = Literal["owner", "owner-approved", "maintainers"]


class AmendmentMeta(EntryMeta):
    """The front matter of one entry of the amendment log (content/chronicle/amendments/*.md):
    the core's (sitegen.amendments: id, kind, title, date) and what ChronicleBench records about
    every change."""

    timing: Name  # when, relative to the run: "BEFORE any generation", "mid-generation", "post-scoring"
    directed_by: Role  # who directed it
    scope: Literal["operational only", "methodology", "reporting", "branding only"]


class ProtocolMeta(Strict):
    """The front matter of the frozen protocol (content/chronicle/protocol.md)."""

    title: Name
    status: Literal["FROZEN"]
    version: Slug
    frozen_on: IsoDate
