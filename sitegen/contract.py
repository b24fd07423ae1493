"""Pydantic on the core's terms: validation errors as Problems, JSON Schemas as files.

Families define their artifact models; this module turns what pydantic says about them into
the one-line-per-problem form the CLI prints, and writes their JSON Schemas into schemas/.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any, Callable

from pydantic import BaseModel, TypeAdapter, ValidationError

from sitegen.errors import Problem, capped, short_repr
from sitegen.load import json_path


def _expected(err: dict) -> str:
    kind, msg = err["type"], err["msg"]
    if kind == "missing":
        return "this key (it is required)"
    if kind == "extra_forbidden":
        return "no such key (the contract does not define it)"
    if kind == "value_error":
        return msg.removeprefix("Value error, ")
    if msg.startswith("Input should be "):
        return msg.removeprefix("Input should be ")
    if msg.startswith("String should "):
        return "a string that should " + msg.removeprefix("String should ")
    if msg.startswith("List should "):
        return "a list that should " + msg.removeprefix("List should ")
    return msg[0].lower() + msg[1:]


def _found(err: dict) -> str:
    if err["type"] == "missing":
        return "nothing"
    if err["type"] == "extra_forbidden":
        return f"key {short_repr(err['loc'][-1])}"
    return short_repr(err.get("input"))


def problems_from(exc: ValidationError, locate: Callable[[tuple], tuple[str, int | None, tuple]]) -> list[Problem]:
    """Map pydantic's errors to Problems, at most KEPT_PER_DOCUMENT per document (errors.capped).
    `locate(loc)` turns pydantic's location into (file, line, location inside that document) -
    for a list of JSONL records the first element of loc is the record index."""
    located = ((locate(tuple(err["loc"])), err) for err in exc.errors(include_url=False))
    out: list[Problem] = []
    for _doc, group in itertools.groupby(located, key=lambda e: e[0][:2]):
        out += capped(group, _problem)
    return out


def _problem(located: tuple[tuple[str, int | None, tuple], dict]) -> Problem:
    (rel, line, loc), err = located
    # pydantic appends the validator's own name for function-validators; drop it from paths.
    loc = tuple(p for p in loc if not (isinstance(p, str) and p.startswith("function-")))
    return Problem(rel, line, json_path(loc), _expected(err), _found(err))


def validate_one(model: type[BaseModel], value: Any, rel: str, line: int | None) -> tuple[BaseModel | None, list[Problem]]:
    try:
        return model.model_validate(value, strict=True), []
    except ValidationError as exc:
        return None, problems_from(exc, lambda loc: (rel, line, loc))


def validate_many(adapter: TypeAdapter, records: list, rel: str) -> tuple[list, list[Problem]]:
    """Validate JSONL records in one pydantic call (an order of magnitude faster than one
    call per line). On failure, fall back to per-record validation so the valid records are
    still returned for the cross-record checks."""
    values = [r.value for r in records]
    try:
        return adapter.validate_python(values, strict=True), []
    except ValidationError as exc:
        problems = problems_from(exc, lambda loc: (rel, records[loc[0]].line, loc[1:]))
    bad = {p.line for p in problems}
    good = [r for r in records if r.line not in bad]
    kept = adapter.validate_python([r.value for r in good], strict=True) if good else []
    return kept, problems


def duplicates(items) -> list:
    """Every item that occurs again after its first occurrence, in order (ids in a list)."""
    seen, out = set(), []
    for x in items:
        if x in seen:
            out.append(x)
        seen.add(x)
    return out


def schema_documents(kinds: dict[str, type[BaseModel]]) -> dict[str, str]:
    """file name -> JSON Schema text, stable byte for byte."""
    out = {}
    for kind, model in sorted(kinds.items()):
        schema = model.model_json_schema(by_alias=True)
        schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": f"{kind}.schema.json", **schema}
        out[f"{kind}.schema.json"] = json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    return out


def stale_schemas(schemas_dir: Path, docs: dict[str, str]) -> list[str]:
    stale = []
    for name, text in docs.items():
        p = schemas_dir / name
        if not p.is_file() or p.read_text(encoding="utf-8") != text:
            stale.append(name)
    present = {p.name for p in schemas_dir.glob("*.schema.json")} if schemas_dir.is_dir() else set()
    stale.extend(sorted(present - set(docs)))
    return stale
