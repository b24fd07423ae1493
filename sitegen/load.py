"""Intake: find the inputs, read their bytes once, parse JSON / JSONL / markdown strictly.

Why not orjson here: it silently keeps the last of two duplicate keys, and a duplicated key
in a score artifact is exactly the kind of quiet change this tool exists to refuse. The
standard library's C scanner with an ``object_pairs_hook`` sees every pair.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from sitegen.errors import Problem, short_repr


@dataclass(frozen=True)
class SourceFile:
    """An input file's identity: where it is, what it hashed to when read."""

    rel: str  # relative to the site root, forward slashes
    sha256: str
    size: int


@dataclass
class JsonRecord:
    """One parsed JSON document (a .json file, or one line of a .jsonl file)."""

    source: str
    line: int | None
    value: Any


@dataclass
class MarkdownDoc:
    source: SourceFile
    meta: dict[str, str]
    body: str
    body_line: int  # 1-based line where the body starts, for error messages


@dataclass
class Loaded:
    """Everything read from disk, plus the problems met while reading it."""

    files: list[SourceFile] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def rel_path(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def discover(root: Path, sub: str, suffixes: tuple[str, ...]) -> list[Path]:
    """Files under root/sub with the given suffixes, sorted by their POSIX relative path
    (independent of locale and of the order the file system lists them)."""
    base = root / sub
    if not base.is_dir():
        return []
    found = [p for p in base.rglob("*") if p.is_file() and p.suffix in suffixes]
    return sorted(found, key=lambda p: rel_path(root, p))


class _DupDict(dict):
    """A dict that remembers which keys appeared more than once in its JSON object."""

    dups: tuple[str, ...] = ()


def _pairs_hook(pairs: list[tuple[str, Any]]) -> dict:
    d = _DupDict(pairs)
    if len(d) != len(pairs):
        seen: set[str] = set()
        dups = []
        for k, _ in pairs:
            if k in seen:
                dups.append(k)
            seen.add(k)
        d.dups = tuple(dups)
        return d
    return dict(pairs)


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs_hook, parse_constant=_reject_constant)


def json_path(loc: tuple | list) -> str:
    """('judgments', 0, 'anchors', 'voice') -> '$.judgments[0].anchors.voice'."""
    out = "$"
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", str(part)):
            out += f".{part}"
        else:
            out += "[" + json.dumps(str(part), ensure_ascii=False) + "]"
    return out


def _find_dups(value: Any, loc: tuple = ()) -> Iterator[tuple[tuple, str]]:
    if isinstance(value, _DupDict):
        for k in value.dups:
            yield loc + (k,), k
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _find_dups(v, loc + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _find_dups(v, loc + (i,))


def parse_json_text(text: str, rel: str, line: int | None) -> tuple[Any, list[Problem]]:
    """Parse one JSON document. Returns (value or None, problems)."""
    try:
        value = _DECODER.decode(text)
    except ValueError as exc:  # json.JSONDecodeError is a ValueError; so is our NaN refusal
        detail = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
        pos = f" at column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
        return None, [Problem(rel, line, "", "valid JSON", f"{detail}{pos}")]
    problems = [
        Problem(rel, line, json_path(loc), "each key once per object", f"key {short_repr(k)} repeated")
        for loc, k in _find_dups(value)
    ]
    return value, problems


def read_bytes(root: Path, path: Path, loaded: Loaded, max_bytes: int) -> tuple[SourceFile, bytes | None]:
    rel = rel_path(root, path)
    data = path.read_bytes()
    src = SourceFile(rel, sha256_bytes(data), len(data))
    loaded.files.append(src)
    if len(data) > max_bytes:
        loaded.problems.append(Problem(rel, None, "", f"a file of at most {max_bytes:,} bytes", f"{len(data):,} bytes"))
        return src, None
    return src, data


def decode_utf8(data: bytes, rel: str, problems: list[Problem]) -> str | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        problems.append(Problem(rel, line, "", "UTF-8 text", f"invalid byte 0x{data[exc.start]:02x} at offset {exc.start}"))
        return None
    return text.removeprefix("\ufeff")


def read_json(root: Path, path: Path, loaded: Loaded, max_bytes: int) -> tuple[SourceFile, JsonRecord | None]:
    src, data = read_bytes(root, path, loaded, max_bytes)
    if data is None:
        return src, None
    text = decode_utf8(data, src.rel, loaded.problems)
    if text is None:
        return src, None
    value, problems = parse_json_text(text, src.rel, None)
    loaded.problems.extend(problems)
    return src, (JsonRecord(src.rel, None, value) if value is not None and not problems else None)


def read_jsonl(root: Path, path: Path, loaded: Loaded, max_bytes: int) -> tuple[SourceFile, list[JsonRecord]]:
    """Every line a JSON document. A bad line is reported and skipped so the rest are checked too."""
    src, data = read_bytes(root, path, loaded, max_bytes)
    if data is None:
        return src, []
    text = decode_utf8(data, src.rel, loaded.problems)
    if text is None:
        return src, []
    records = []
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the final newline ends the last record; it does not start an empty one
    for i, line in enumerate(lines, start=1):
        if not line.strip():
            loaded.problems.append(Problem(src.rel, i, "", "one JSON object per line", "an empty line"))
            continue
        value, problems = parse_json_text(line, src.rel, i)
        loaded.problems.extend(problems)
        if value is not None and not problems:
            records.append(JsonRecord(src.rel, i, value))
    return src, records


_FRONT_KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*):\s*(.*)$")


def read_markdown(root: Path, path: Path, loaded: Loaded, max_bytes: int) -> MarkdownDoc | None:
    """Markdown with optional front matter between '---' lines: 'key: value' scalars only.

    A deliberately small subset of YAML: front matter here carries titles and dates, and a
    full YAML parser would bring its type guessing (NO -> false) into a tool about exactness.
    """
    src, data = read_bytes(root, path, loaded, max_bytes)
    if data is None:
        return None
    text = decode_utf8(data, src.rel, loaded.problems)
    if text is None:
        return None
    text = text.replace("\r\n", "\n")
    meta: dict[str, str] = {}
    body_line = 1
    lines = text.split("\n")
    if lines and lines[0].strip() == "---":
        try:
            end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
        except StopIteration:
            loaded.problems.append(Problem(src.rel, 1, "", "front matter closed by a '---' line", "no closing line"))
            return None
        for i in range(1, end):
            raw = lines[i]
            if not raw.strip() or raw.lstrip().startswith("#"):
                continue
            m = _FRONT_KEY.match(raw)
            if not m:
                loaded.problems.append(Problem(src.rel, i + 1, "", "front matter line 'key: value'", short_repr(raw)))
                continue
            key, value = m.group(1), m.group(2).strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
            if key in meta:
                loaded.problems.append(Problem(src.rel, i + 1, key, "each front matter key once", f"{key!r} repeated"))
            meta[key] = value
        body = "\n".join(lines[end + 1 :])
        body_line = end + 2
    else:
        body = text
    return MarkdownDoc(src, meta, body, body_line)
