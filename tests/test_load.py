"""sitegen.load: strict JSON / JSONL intake. Each bad input is reported with where it is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sitegen.build import validate
from sitegen.config import load_config
from sitegen.errors import InputError
from sitegen.load import Loaded, read_json, read_jsonl

from conftest import CELLS_REL, SWEEP_REL, find_cell_line, one_family, rewrite_cell_line, where

MAX = 10_000_000


def jsonl(tmp_path: Path, data: bytes) -> tuple[Loaded, list]:
    """Read `data` as the JSONL file data/x.jsonl: (what was loaded, the good records)."""
    p = tmp_path / "data" / "x.jsonl"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)
    loaded = Loaded()
    _src, records = read_jsonl(tmp_path, p, loaded, MAX)
    return loaded, records


def one_json(tmp_path: Path, text: str | bytes, name: str = "x.json"):
    """Read `text` as the JSON document data/<name>: (value or None, problems)."""
    p = tmp_path / "data" / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    loaded = Loaded()
    _src, rec = read_json(tmp_path, p, loaded, MAX)
    return (None if rec is None else rec.value), loaded.problems


def one_line(tmp_path: Path, text: str, line: int):
    """Read `text` as line `line` of data/x.jsonl (earlier lines valid): (value or None, its problems)."""
    loaded, records = jsonl(tmp_path, ("{}\n" * (line - 1) + text + "\n").encode("utf-8"))
    value = next((r.value for r in records if r.line == line), None)
    return value, loaded.problems


# --------------------------------------------------------------------------- duplicate keys


def test_duplicate_top_level_key_rejected_with_its_path(tmp_path):
    value, problems = one_json(tmp_path, '{"model": "a", "model": "b"}')
    assert value is None
    assert len(problems) == 1
    p = problems[0]
    assert (p.file, p.path) == ("data/x.json", "$.model")
    assert "repeated" in p.found


def test_duplicate_nested_key_rejected_with_its_path(tmp_path):
    text = '{"judgments": [{"judge": "a", "anchors": {"voice": 0.5, "voice": 1.0}}]}'
    value, problems = one_line(tmp_path, text, 7)
    assert value is None
    assert [(p.line, p.path) for p in problems] == [(7, "$.judgments[0].anchors.voice")]
    assert str(problems[0]).startswith("data/x.jsonl:7 $.judgments[0].anchors.voice: ")


def test_every_duplicate_is_reported(tmp_path):
    text = '{"a": 1, "a": 2, "b": {"c": 1, "c": 2}, "d": [{"e": 1, "e": 1}]}'
    _value, problems = one_json(tmp_path, text)
    assert sorted(p.path for p in problems) == ["$.a", "$.b.c", "$.d[0].e"]


def test_same_key_in_different_objects_is_fine(tmp_path):
    value, problems = one_json(tmp_path, '{"a": {"k": 1}, "b": {"k": 2}}')
    assert problems == [] and value == {"a": {"k": 1}, "b": {"k": 2}}


def test_duplicate_key_in_the_sweep_fails_validation(site_copy):
    path = site_copy / SWEEP_REL
    text = path.read_text(encoding="utf-8")
    start = text.index("{") + 1
    path.write_text(text[:start] + '"synthetic": true, ' + text[start:], encoding="utf-8")
    with pytest.raises(InputError) as exc:
        validate(load_config(site_copy))
    assert f"{SWEEP_REL} $.synthetic: expected each key once per object" in str(exc.value)


# --------------------------------------------------------------------------- NaN / Infinity


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_literals_rejected(tmp_path, literal):
    value, problems = one_line(tmp_path, '{"weighted_score": %s}' % literal, 3)
    assert value is None
    assert len(problems) == 1 and problems[0].line == 3
    assert literal.lstrip("-") in problems[0].found
    assert problems[0].path == "$.weighted_score"
    # In a whole-file document there is no line to name: the JSON path says where, for each one.
    value, problems = one_json(tmp_path, '{"a": [1, {"b": %s}], "c": %s}' % (literal, literal))
    assert value is None
    assert [(p.path, p.found) for p in problems] == [("$.a[1].b", literal), ("$.c", literal)]


@pytest.mark.parametrize("literal", ["NaN", "Infinity"])
def test_nan_in_a_cell_line_fails_validation_at_that_line(site_copy, literal):
    line, rec = find_cell_line(site_copy, lambda r: r["generation"]["status"] == "ok"
                               and r["judgments"] and r["judgments"][0]["outcome"] == "score")
    dim = next(iter(rec["judgments"][0]["anchors"]))
    rewrite_cell_line(site_copy, line, lambda r: r["judgments"][0]["anchors"].__setitem__(dim, 12345.0))
    path = site_copy / CELLS_REL
    path.write_text(path.read_text(encoding="utf-8").replace("12345.0", literal), encoding="utf-8")
    with pytest.raises(InputError) as exc:
        validate(load_config(site_copy))
    assert [p.line for p in exc.value.problems] == [line]
    assert exc.value.problems[0].file == CELLS_REL


def test_number_overflowing_to_infinity_rejected(site_copy):
    """1e999 is valid JSON syntax that Python reads as inf: the contract must still refuse it."""
    line, rec = find_cell_line(site_copy, lambda r: r["generation"]["status"] == "ok"
                               and r["judgments"] and r["judgments"][0]["outcome"] == "score")
    dim = next(iter(rec["judgments"][0]["anchors"]))
    rewrite_cell_line(site_copy, line, lambda r: r["judgments"][0]["anchors"].__setitem__(dim, 12345.0))
    path = site_copy / CELLS_REL
    path.write_text(path.read_text(encoding="utf-8").replace("12345.0", "1e999"), encoding="utf-8")
    with pytest.raises(InputError) as exc:
        validate(load_config(site_copy))
    assert [(p.line, p.path) for p in exc.value.problems] == [(line, f"$.judgments[0].anchors.{dim}")]


# --------------------------------------------------------------------------- UTF-8


def test_invalid_utf8_rejected_with_its_line(tmp_path):
    loaded, records = jsonl(tmp_path, b'{"a": 1}\n{"a": 2}\n{"a": "caf\xe9"}\n{"a": 4}\n')
    assert 3 not in [r.line for r in records]
    assert [(p.file, p.line) for p in loaded.problems] == [("data/x.jsonl", 3)]
    assert "UTF-8" in loaded.problems[0].expected
    assert "0xe9" in loaded.problems[0].found


def test_invalid_utf8_in_json_document_rejected(tmp_path):
    p = tmp_path / "data" / "x.json"
    p.parent.mkdir(parents=True)
    p.write_bytes(b'{\n"a":\n"\xff"}')
    loaded = Loaded()
    _src, rec = read_json(tmp_path, p, loaded, MAX)
    assert rec is None
    assert [(q.file, q.line) for q in loaded.problems] == [("data/x.json", 3)]


def test_invalid_utf8_in_cells_fails_validation_at_that_line(site_copy):
    path = site_copy / CELLS_REL
    data = path.read_bytes().split(b"\n")
    assert data[41].endswith(b"}")
    data[41] = data[41][:-1] + b', "note": "\xc3\x28"}'  # 0xc3 starts a 2-byte sequence; 0x28 cannot follow
    path.write_bytes(b"\n".join(data))
    with pytest.raises(InputError) as exc:
        validate(load_config(site_copy))
    assert [(p.file, p.line) for p in exc.value.problems] == [(CELLS_REL, 42)]


# --------------------------------------------------------------------------- JSONL lines


def test_empty_line_reported_with_its_number(tmp_path):
    loaded, records = jsonl(tmp_path, b'{"a": 1}\n{"a": 2}\n\n{"a": 4}\n')
    assert [(p.line, p.found) for p in loaded.problems] == [(3, "an empty line")]
    assert [r.line for r in records] == [1, 2, 4]


def test_whitespace_only_line_is_an_empty_line(tmp_path):
    loaded, _ = jsonl(tmp_path, b'{"a": 1}\n   \t\n{"a": 3}\n')
    assert [p.line for p in loaded.problems] == [2]


def test_trailing_blank_line_after_final_newline_is_reported(tmp_path):
    loaded, records = jsonl(tmp_path, b'{"a": 1}\n\n')
    assert [p.line for p in loaded.problems] == [2]
    assert len(records) == 1


def test_final_newline_is_not_an_empty_record(tmp_path):
    loaded, records = jsonl(tmp_path, b'{"a": 1}\n{"a": 2}\n')
    assert loaded.problems == [] and [r.value for r in records] == [{"a": 1}, {"a": 2}]
    loaded, records = jsonl(tmp_path, b'{"a": 1}\n{"a": 2}')
    assert loaded.problems == [] and len(records) == 2


def test_every_bad_line_reported_not_only_the_first(tmp_path):
    data = b"\n".join([
        b'{"a": 1}',
        b'{"a": ',  # truncated
        b'{"a": 3}',
        b'{"a": NaN}',
        b'',
        b'{"a": 6, "a": 7}',
        b'[1, 2',
        b'{"a": 8}',
    ]) + b"\n"
    loaded, records = jsonl(tmp_path, data)
    assert sorted(p.line for p in loaded.problems) == [2, 4, 5, 6, 7]
    assert all(p.file == "data/x.jsonl" for p in loaded.problems)
    assert [r.line for r in records] == [1, 3, 8]


def test_line_numbers_stay_right_in_a_long_file(tmp_path):
    """Large artifacts are read in pieces; a reader must still be sent to the right line."""
    n = 12_001
    bad = {1, 4999, 5000, 5001, 10_000, 10_001, n}
    lines = [b'{"a": ' if i in bad else b'{"a": %d}' % i for i in range(1, n + 1)]
    lines[7000 - 1] = b""
    loaded, records = jsonl(tmp_path, b"\n".join(lines) + b"\n")
    assert sorted(p.line for p in loaded.problems) == sorted(bad | {7000})
    assert len(records) == n - len(bad) - 1
    assert all(r.value == {"a": r.line} for r in records)


def test_byte_order_mark_at_the_start_is_tolerated(tmp_path):
    loaded, records = jsonl(tmp_path, b'\xef\xbb\xbf{"a": 1}\n{"a": 2}\n')
    assert loaded.problems == [] and [r.value for r in records] == [{"a": 1}, {"a": 2}]


def test_every_bad_line_of_cells_reported_through_validate(site_copy):
    path = site_copy / CELLS_REL
    lines = path.read_text(encoding="utf-8").split("\n")
    bad = [5, 300, 2000]
    for n in bad:
        lines[n - 1] = lines[n - 1][: len(lines[n - 1]) // 2]  # cut the record in half
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(InputError) as exc:
        validate(load_config(site_copy))
    assert sorted(p.line for p in exc.value.problems) == bad
    text = str(exc.value)
    for n in bad:
        assert f"{CELLS_REL}:{n}: expected valid JSON" in text


def test_a_syntax_error_in_a_json_document_names_its_line_and_column(tmp_path):
    """A maintainer fixing a hand-edited sweep.json needs the line, not just 'invalid JSON'."""
    value, [problem] = one_json(tmp_path, '{\n  "a": 1,\n  "b": tru\n}\n')
    assert value is None
    assert (problem.line, problem.expected) == (3, "valid JSON")
    assert "column 8" in problem.found and " at at " not in str(problem)


# --------------------------------------------------------------------------- a file that is not UTF-8


def _problems(root: Path) -> list:
    with pytest.raises(InputError) as exc:
        validate(load_config(root))
    return exc.value.problems


def _recode(root: Path, rel: str, encoding: str) -> None:
    p = root / rel
    p.write_bytes(p.read_text(encoding="utf-8").encode(encoding))


@pytest.mark.parametrize("fid, rel, encoding, found", [
    ("vignette", "data/vignette/prompts.jsonl", "utf-16", "UTF-16 text (byte-order mark FF FE)"),
    ("vignette", "data/vignette/models.jsonl", "utf-16-le", "UTF-16 or UTF-32 text (NUL bytes in its first line)"),
    ("nextchapter", "data/nextchapter/items.jsonl", "utf-16", "UTF-16 text (byte-order mark FF FE)"),
    ("canonic", CELLS_REL, "utf-16-be", "UTF-16 or UTF-32 text (NUL bytes in its first line)"),
    ("canonic", SWEEP_REL, "utf-32", "UTF-32 text (byte-order mark FF FE 00 00)"),
    ("chronicle", "data/chronicle/reference.jsonl", "utf-16", "UTF-16 text (byte-order mark FF FE)"),
])
def test_a_data_file_in_utf16_is_one_problem_and_nothing_that_depends_on_it_is_reported(tmp_path, fid, rel, encoding, found):
    # Before, a UTF-16 prompts.jsonl gave 2,338 problems: one per line, then one for every item
    # naming a prompt that could not be read.
    root = one_family(tmp_path / "site", fid)
    _recode(root, rel, encoding)
    assert [str(p) for p in _problems(root)] == [f"{rel}: expected UTF-8 text; found {found}"]


def test_problems_independent_of_the_unreadable_file_are_still_reported(tmp_path):
    root = one_family(tmp_path / "site", "vignette")
    _recode(root, "data/vignette/prompts.jsonl", "utf-16")
    rel = "data/vignette/sweep-s2.jsonl"
    lines = (root / rel).read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[0])
    rec["attempts"] = [{"outcome": "failed", "reason": "error"}] * 3 + [{"outcome": "ok"}]  # over generation.attempts
    lines[0] = json.dumps(rec)
    (root / rel).write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert sorted(where(p) for p in _problems(root)) == ["data/vignette/prompts.jsonl", f"{rel}:1 $.attempts"]


def test_a_line_that_does_not_parse_is_its_own_problem_not_one_per_item_that_names_it(tmp_path):
    root = one_family(tmp_path / "site", "vignette")
    rel = "data/vignette/prompts.jsonl"
    lines = (root / rel).read_text(encoding="utf-8").splitlines()
    lines[0] = lines[0][:-1]  # the record of p01, cut short: 72 items name p01
    (root / rel).write_text("\n".join(lines) + "\n", encoding="utf-8")
    problems = _problems(root)
    assert [where(p) for p in problems] == [f"{rel}:1"], "\n".join(map(str, problems))


def test_a_stray_nul_byte_is_its_lines_problem_not_the_files_encoding(tmp_path):
    loaded, records = jsonl(tmp_path, b'{"id": "a", "note": "x"}\x00\n{"id": "b"}\n')
    assert [(p.line, p.expected) for p in loaded.problems] == [(1, "valid JSON")]
    assert [r.value for r in records] == [{"id": "b"}]
    loaded, records = jsonl(tmp_path, '{"id": "a"}\n'.encode("utf-16-le"))
    assert [str(p) for p in loaded.problems] == ["data/x.jsonl: expected UTF-8 text; found UTF-16 or UTF-32 text (NUL bytes in its first line)"]
    assert records == [] and loaded.incomplete == {"data/x.jsonl"}
