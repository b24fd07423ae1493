"""A declared benchmark's metrics: every scorer of its Inspect logs, each published with boards of
its own, one of them the headline.

Internally a metric is a set of criteria, so that one machinery (validate.py's checks, compute.py's
boards, criteria_board.py's cells) serves all of them, each metric computed apart and never blended:

- `criteria`: the [[criteria]] (a sweep's own where it gives them), read from the scorer's dict, as
  the single `[inspect] scorer` form reads them; an items file's judgments are this metric too.
- `numeric`: one criterion whose id is the metric's, on the scorer's declared min..max.
- `rate`: one criterion whose id is the metric's, on 0..1, the value read as Inspect's own
  inspect_ai.scorer.value_to_float reads it (C = 1, P = 0.5, I = 0, N = 0, true and "yes" 1,
  false and "no" 0, a number or a numeric string as it is). A value it cannot read (it would
  warn and give 0) is refused instead, at the sample.

An item's score on a metric is the family's item score (validate.judgment_score) over the metric's
criteria alone: a numeric value's place on its scale, a rate's value, times 100. Each metric's
boards are computed by compute.py from the configuration restricted to its criteria (restrict()).

Errored samples (`[inspect] errored`): `excluded` leaves them unscored, as every failed generation
is (absent, this is the rule, and the method page says it was not declared); `failing` scores them
the lowest value of every criterion of every metric (item score 0), counted among the scored.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sitegen.families.declared.config import BenchmarkConfig, Criterion

# The values a rate reads as Inspect's value_to_float's defaults do, and the strings it reads apart
# from numbers (value_to_float lower-cases them first).
RATE_LETTERS = {"C": 1.0, "P": 0.5, "I": 0.0, "N": 0.0}
RATE_WORDS = ("yes", "true", "no", "false")


@dataclass(frozen=True)
class Metric:
    id: str  # its boards' addresses (the headline's boards keep the family's own)
    label: str
    kind: str  # "criteria", "numeric" or "rate"
    scorer: str | None  # the scorer as the logs name it; None for an items file's judgments
    headline: bool
    criteria: tuple[Criterion, ...]


def metrics_of(cfg: BenchmarkConfig) -> list[Metric]:
    """CFG's metrics (a sweep's configuration: settings.for_sweep), the headline first, then the
    others in the order [[inspect.scorers]] lists them."""
    inspect = cfg.inspect
    if inspect is None or inspect.scorers is None:
        return [Metric("score", cfg.title, "criteria", inspect.scorer if inspect else None, True, tuple(cfg.criteria))]
    out = []
    for s in inspect.scorers:
        label = s.label or s.name
        if s.kind == "criteria":
            criteria = tuple(cfg.criteria)
        else:
            low, high = (s.min, s.max) if s.kind == "numeric" else (0.0, 1.0)
            criteria = (Criterion(id=s.metric, label=label, min=low, max=high, direction=s.direction or "higher"),)
        out.append(Metric(s.metric, label, s.kind, s.name, s.headline, criteria))
    return sorted(out, key=lambda m: not m.headline)


def restrict(cfg: BenchmarkConfig, metric: Metric) -> BenchmarkConfig:
    """CFG as METRIC is computed with: its criteria alone (CFG itself when they are CFG's)."""
    if list(metric.criteria) == list(cfg.criteria):
        return cfg
    return cfg.model_copy(update={"criteria": list(metric.criteria)})


def all_criteria(cfg: BenchmarkConfig) -> list[Criterion]:
    """Every criterion a judgment of CFG scores: every metric's."""
    return [c for m in metrics_of(cfg) for c in m.criteria]


def empty_metrics(cfg: BenchmarkConfig, scores: dict) -> list[str]:
    """For each metric of CFG none of whose criteria SCORES scores (each left null, where optional):
    "" with one metric, else " of metric <label>". An item score needs one criterion per metric."""
    ms = metrics_of(cfg)
    return [("" if len(ms) == 1 else f" of metric {m.label}") for m in ms if all(scores.get(c.id) is None for c in m.criteria)]


def errored_rule(cfg: BenchmarkConfig) -> str:
    return (cfg.inspect.errored if cfg.inspect is not None else None) or "excluded"


def lowest(criteria) -> dict[str, float]:
    """Each criterion's worst end: what a sample that errored scores under errored = "failing"."""
    return {c.id: (c.max if c.direction == "lower" else c.min) for c in criteria}


def rate(value) -> float | str:
    """VALUE as a rate: Inspect's value_to_float's number where it reads one, else the reason it
    cannot (a string to show as found). Inspect's own function gives the number."""
    from inspect_ai.scorer import value_to_float

    readable = ((isinstance(value, str) and value in RATE_LETTERS) or isinstance(value, bool)
                or (isinstance(value, (int, float)) and math.isfinite(value))
                or (isinstance(value, str) and (value.lower() in RATE_WORDS or _numeric(value))))
    if not readable:
        return "unreadable"
    return float(value_to_float()(value))


def _numeric(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


@dataclass(frozen=True)
class Scoring:
    """How a sample's scores become a judgment, and where a judgment's problem lies in the log:
    built once per configuration, passed to inspect_logs as its `scorer`."""

    metrics: tuple[Metric, ...]

    @property
    def headline(self) -> str:
        return self.metrics[0].scorer or ""

    def read(self, sample) -> tuple[dict[str, Any] | None, str]:
        """(scores, rationale) of SAMPLE: every metric's criteria's scores in one dict, None when it
        holds no scorer of them. A scorer a sample lacks is null (refused, at it); a value that
        cannot be read stays as found, so the family's checks refuse it there."""
        got = sample.scores or {}
        if not any(m.scorer in got for m in self.metrics):
            return None, ""
        scores: dict[str, Any] = {}
        notes = []
        for m in self.metrics:
            score = got.get(m.scorer)
            if m.kind == "criteria":
                if score is not None:
                    if not isinstance(score.value, dict) and len(self.metrics) == 1:
                        return score.value, score.explanation or ""  # refused whole, as the one dict scorer's value
                    scores.update(score.value if isinstance(score.value, dict) else {c.id: score.value for c in m.criteria})
            elif score is None:
                scores[m.id] = None
            elif m.kind == "rate":
                value = rate(score.value)
                scores[m.id] = value if isinstance(value, float) else score.value
            else:
                scores[m.id] = score.value
            if score is not None and score.explanation:
                notes.append((m.label, score.explanation))
        rationale = notes[0][1] if len(notes) == 1 else "\n\n".join(f"{label}: {text}" for label, text in notes)
        return scores, rationale

    def value_path(self, rest: str) -> str:
        """The log's path of a judgment's scores path REST (".voice", "" for the scores whole)."""
        key = rest[1:].split(".", 1)[0] if rest.startswith(".") else ""
        own = next((m for m in self.metrics if m.kind != "criteria" and m.id == key), None)
        if own is not None:
            return f"scores.{own.scorer}.value"
        dicts = [m for m in self.metrics if m.kind == "criteria"]
        if dicts:
            return f"scores.{dicts[0].scorer}.value{rest}"
        return "scores"

    def scorer_path(self) -> str:
        return f"scores.{self.headline}" if len(self.metrics) == 1 else "scores"

    def explanation_path(self) -> str:
        return f"scores.{self.headline}.explanation"


def scoring(cfg: BenchmarkConfig) -> Scoring:
    return Scoring(tuple(metrics_of(cfg)))
