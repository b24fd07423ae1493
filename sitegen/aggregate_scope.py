"""Where the no-overall-score rule applies (sitegen.aggregate has what it looks for).

The rule is a protocol's, never the site's: Canonic's protocol forbids any cross-domain
aggregate, and ChronicleBench's boards are never blended, so those families say so
(Family.forbids_aggregate) and every file they publish is checked, as is an authored page that
places one of their generated sections. Of the site's shared files (the home page, the
downloads page, the feed, the manifest) the rule reads what those families give them: their
summary, feed entries and download titles, checked where they are made. A declared benchmark
that publishes the overall board it declares, or scores a criterion called "Overall
impression", is then published as it is, beside Canonic or alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import orjson

from sitegen.aggregate import find_aggregate_fields_in_text
from sitegen.errors import Problem, short_repr
from sitegen.load import input_bytes, json_path
from sitegen.families import Outputs, forbids_aggregate
from sitegen.publish import FIGURE_SUFFIXES, TABLE_SUFFIXES


def guarded(families: dict[str, Any]) -> set[str]:
    """The ids of the families (id -> family) whose protocol forbids an aggregate."""
    return {fid for fid, f in families.items() if forbids_aggregate(f)}


def family_paths(o: Outputs) -> Iterator[str]:
    """Every output path a family's Outputs publish (publish.table_files, figures' files,
    raw copies, its own files)."""
    for p in o.pages:
        yield p.path
    for t in o.tables:
        yield from (t.stem + s for s in TABLE_SUFFIXES)
    for f in o.figures:
        yield from (f.name + s for s in FIGURE_SUFFIXES)
    yield from (f"raw/{rel}" for rel in o.raw_files)
    yield from o.files


def checked_paths(outputs: dict[str, Outputs], guarded_ids: set[str], placed: Iterable[tuple[str, list[str]]]) -> set[str]:
    """The output paths the aggregate-field check reads: every file of a guarded family, and
    each authored page (output path, the families whose sections it places) placing one."""
    paths = {rel for fid in guarded_ids if fid in outputs for rel in family_paths(outputs[fid])}
    paths.update(path for path, owners in placed if guarded_ids.intersection(owners))
    return paths


def contribution_fields(o: Outputs) -> list[str]:
    """The aggregate fields in what a family gives the site's shared files: its summary (the
    navigation and the home page's results), its feed entries, its downloads' titles and
    names (the downloads page and the manifest)."""
    texts = list(_strings(o.summary))
    texts += [s for e in o.feed for s in (e.id, e.title, e.href, e.html)]
    texts += [s for t in o.tables for s in (t.stem, t.title)]
    texts += [s for f in o.figures for s in (f.name, f.alt)]
    return sorted({name for s in texts for name in find_aggregate_fields_in_text(s)})


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def refuse_contributions(outputs: dict[str, Outputs], guarded_ids: set[str], error: Callable[[str, list[str]], Exception]) -> None:
    """Raise error(message, fields) when a guarded family gives the shared files an aggregate field."""
    for fid in sorted(guarded_ids & outputs.keys()):
        if found := contribution_fields(outputs[fid]):
            raise error(f"the {fid} family's summary, feed or download titles (shown on the site's shared pages) "
                        f"carry a cross-domain aggregate field, which its protocol forbids: {', '.join(found)}", found)


def header_problems(site_title: str, outputs: dict[str, Outputs], guarded_ids: set[str],
                    where: Callable[[str], tuple[str, str]]) -> list[Problem]:
    """Every page of a guarded family is headed by the site's title and each family's name and
    address (base.html): a field-like token there would be refused in that family's files, so
    it is a problem of the input it comes from (`where(fid)`: the file and key of a family's
    title; the site's title is pyproject.toml's). None when no family forbids an aggregate."""
    if not guarded_ids & outputs.keys():
        return []
    guarded_names = ", ".join(sorted(guarded_ids & outputs.keys()))
    expected = f"no field-like token such as overall_x (it heads every page of {guarded_names}, whose protocol forbids an aggregate field)"
    out = [Problem("pyproject.toml", None, "$.tool.sitegen.title", expected, name) for name in find_aggregate_fields_in_text(site_title)]
    for fid, o in outputs.items():
        file, key = where(fid)
        out += [Problem(file, None, key, expected, name) for name in find_aggregate_fields_in_text(str(o.summary.get("title", "")))]
        href = str(o.summary.get("href", ""))
        out += [Problem(file, None, "", expected, f"{name}, in its address {href}") for name in find_aggregate_fields_in_text(href)]
    return out


def shown_value_problems(root: Path, files: dict[str, list[str]], fields: list[str]) -> list[Problem]:
    """Where in the inputs of the guarded families (fid -> its input files) a generated file's
    aggregate `fields` come from: every string of their JSON and JSON Lines records that holds
    one (a model's name, a label), at its file, line and JSON path, and every line of their
    other text files (an amendment's title). A value passes intake, but
    the pages that show it may not carry the field, so it is the input's problem."""
    tokens = {name for f in fields for name in find_aggregate_fields_in_text(f)}
    out: list[Problem] = []
    for fid, rels in sorted(files.items()):
        expected = f"no field-like token such as overall_x (the {fid} pages show this value, and its protocol forbids an aggregate field)"
        for rel in sorted(set(rels)):
            if rel.endswith(".parquet"):
                continue
            data = input_bytes(root, root / rel)
            if not rel.endswith((".json", ".jsonl")):  # markdown: its front matter and text, line by line
                for line, text in enumerate(data.decode("utf-8", errors="replace").split("\n"), 1):
                    for name in sorted(tokens.intersection(find_aggregate_fields_in_text(text))):
                        out.append(Problem(rel, line, "", expected, f"{name}, in {short_repr(text.strip())}"))
                continue
            records = [(None, data)] if rel.endswith(".json") else [(i, line) for i, line in enumerate(data.split(b"\n"), 1) if line.strip()]
            for line, raw in records:
                try:
                    value = orjson.loads(raw.removeprefix(b"\xef\xbb\xbf"))
                except orjson.JSONDecodeError:  # refused at intake; never here
                    continue
                for loc, text in _located_strings(value, ()):
                    for name in sorted(tokens.intersection(find_aggregate_fields_in_text(text))):
                        out.append(Problem(rel, line, json_path(loc), expected, f"{name}, in {short_repr(text)}"))
    return out


def _located_strings(value: Any, loc: tuple) -> Iterator[tuple[tuple, str]]:
    if isinstance(value, str):
        yield loc, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _located_strings(v, loc + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _located_strings(v, loc + (i,))
