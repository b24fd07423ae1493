"""The configuration and record reference of the declarative family, generated from its pydantic
models (config.py, models.py): every key, its type, its default, and what it does, as the
build checks it. The guide (docs/publish-your-own-benchmark.md) holds it between two markers;
`python -m sitegen.families.declared.reference docs/publish-your-own-benchmark.md` rewrites
that part, and the test suite fails when it is stale, so the guide cannot drift from the code.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from sitegen.families.declared import config as C
from sitegen.families.declared import models as M
from sitegen.families.declared.pairwise import config as P
from sitegen.families.declared.pairwise import records as R

START = "<!-- configuration reference: generated from the models, do not edit by hand -->"
END = "<!-- end of the configuration reference -->"

# (heading, how the keys are written, model): the configuration file's tables in the order a
# team fills them in, then the records a harness writes.
SECTIONS: list[tuple[str, str, type[BaseModel]]] = [
    ("`content/<id>/benchmark.toml`: the top level", "", C.BenchmarkConfig),
    ("`[[judges]]`: one table per judge", "judges.", C.Judge),
    ("`[[criteria]]`: one table per criterion", "criteria.", C.Criterion),
    ("`[item_score]`", "item_score.", C.ItemScore),
    ("`[boards]`", "boards.", C.Boards),
    ("`[repeats]`", "repeats.", C.Repeats),
    ("`[generation]`", "generation.", C.Generation),
    ("`[gate]`", "gate.", C.Gate),
    ("`[freeze]`", "freeze.", C.Freeze),
    ("`[[sweeps]]`: one table per sweep", "sweeps.", C.Sweep),
    ("`[inspect]`: when a sweep reads Inspect AI logs", "inspect.", C.Inspect),
    ("`[[inspect.scorers]]`: one table per scorer of the logs, each a metric", "inspect.scorers.", C.Scorer),
    ("`[pairwise]`: pairwise judgments and their rating", "pairwise.", P.Pairwise),
    ("`pairwise.margins[]`: one per step of the margin scale", "pairwise.margins[].", P.Margin),
    ("`pairwise.anchors[]`: a model pinned to a rating", "pairwise.anchors[].", P.Anchor),
    ("`[pairwise.gate]`", "pairwise.gate.", P.PairwiseGate),
    ("`data/<id>/models.jsonl`: one line per model", "", M.Model),
    ("`data/<id>/prompts.jsonl`: one line per prompt, plus any string fields of your own", "", M.Prompt),
    ("A sweep's items file (`data/<id>/<items>`, JSONL or Parquet): one record per model, prompt and iteration", "", M.Item),
    ("`attempts[]`: one per generation attempt", "attempts[].", M.Attempt),
    ("`judgments[]`: one per judge of the sweep", "judgments[].", M.Judgment),
    ("The pairwise judgments file (`data/<id>/<judgments>`, JSONL): one record per judgment", "", R.PairJudgment),
]


# The id patterns, in words (the models' own patterns: a test holds each description to them).
PATTERNS = {
    C.Id.__metadata__[0].pattern: "an id of 1 to 64 lower-case letters a-z, digits, `_` and `-`, starting with a letter or digit",
    M.Slug.__metadata__[0].pattern: "an id of lower-case letters a-z, digits, `.`, `_` and `-`, starting with a letter or digit, "
                                    "in parts joined by `/` (no part `.` or `..`)",
}


def _type(schema: dict, defs: dict) -> str:
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return "table" if defs.get(name, {}).get("type") == "object" else name
    if "anyOf" in schema:
        parts = [_type(s, defs) for s in schema["anyOf"] if s.get("type") != "null"]
        return " or ".join(parts) + (", or absent" if any(s.get("type") == "null" for s in schema["anyOf"]) else "")
    if "enum" in schema:
        return " or ".join(f"`{json.dumps(v)}`" for v in schema["enum"])
    if "const" in schema:
        return f"`{json.dumps(schema['const'])}`"
    kind = schema.get("type")
    if kind == "array":
        return f"list of {_type(schema.get('items', {}), defs)}"
    if kind == "object":
        extra = schema.get("additionalProperties")
        return f"table of {_type(extra, defs)}" if isinstance(extra, dict) else "table"
    words = {"string": "text", "number": "number", "integer": "whole number", "boolean": "true or false"}.get(kind, kind or "any")
    if schema.get("format") == "date" or schema.get("pattern") == r"^\d{4}-\d{2}-\d{2}$":
        return "date (YYYY-MM-DD)"
    if "pattern" in schema:  # an id: what it may hold, in words, then the pattern the build applies
        words = PATTERNS.get(schema["pattern"], "text")
        return f"{words} (`{schema['pattern']}`" + (f", at most {schema['maxLength']} characters)" if "maxLength" in schema else ")")
    if kind == "string" and ("minLength" in schema or "maxLength" in schema):
        return f"text of {schema.get('minLength', 0)} to {schema['maxLength']:,} characters" if "maxLength" in schema else f"text of {schema['minLength']} characters or more"
    bounds = [f"{op} {schema[k]}" for k, op in (("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤")) if k in schema]
    return words + (f" ({', '.join(bounds)})" if bounds else "")


def _default(field) -> str:
    if field.is_required():
        return "required"
    if field.default_factory is not None:
        value = field.default_factory()
        if isinstance(value, BaseModel):
            return "its defaults"
        return f"`{json.dumps(value, ensure_ascii=False)}`"
    if field.default is PydanticUndefined or field.default is None:
        return "absent"
    return f"`{json.dumps(field.default, ensure_ascii=False)}`"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def section(heading: str, prefix: str, model: type[BaseModel]) -> str:
    schema = model.model_json_schema()
    defs, props = schema.get("$defs", {}), schema.get("properties", {})
    lines = [f"### {heading}", ""]
    doc = (model.__doc__ or "").strip()
    if doc and model is not C.BenchmarkConfig:
        lines += [" ".join(doc.split()), ""]
    lines += ["| key | type | default | what it does |", "| --- | --- | --- | --- |"]
    for name, field in model.model_fields.items():
        lines.append(f"| `{prefix}{name}` | {_cell(_type(props.get(name, {}), defs))} | {_default(field)} | {_cell(field.description or '')} |")
    return "\n".join(lines)


def reference() -> str:
    return "\n\n".join(section(*s) for s in SECTIONS) + "\n"


def with_reference(text: str) -> str:
    """TEXT with the part between the markers replaced by the reference."""
    head, start, rest = text.partition(START)
    _old, end, tail = rest.partition(END)
    if not start or not end:
        raise ValueError(f"the guide has no {START!r} ... {END!r} section")
    return f"{head}{START}\n\n{reference()}\n{END}{tail}"


if __name__ == "__main__":
    path = Path(sys.argv[1])
    path.write_text(with_reference(path.read_text(encoding="utf-8")), encoding="utf-8")
