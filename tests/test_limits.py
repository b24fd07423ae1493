"""Scale limits ([tool.sitegen.limits]): a file over `max_file_bytes`, a JSON string or key over
`max_string_chars` and a JSONL file over `max_records` lines each stop the build with one clear
problem. Every test configures small limits in a copy of the demo site (no giant files), and
the command-line runs carry a timeout, so a reader that read on would fail, not hang.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sitegen.build import validate
from sitegen.config import Limits, load_config
from sitegen.errors import InputError, Problem
from sitegen.load import Loaded, SourceFile, read_json, read_jsonl

from conftest import BIBLES_DIR, CELLS_REL, SWEEP_REL, enable_only, find_cell_line, read_sweep, rewrite_cell_line, run_cli, two_standard_scores, write_sweep


def set_limits(root: Path, **limits: int) -> None:
    """Add a [tool.sitegen.limits] table to the site's pyproject.toml."""
    path = root / "pyproject.toml"
    text = path.read_text(encoding="utf-8")
    assert "[tool.sitegen.limits]" not in text
    table = "".join(f"{k} = {v}\n" for k, v in limits.items())
    path.write_text(text + "\n[tool.sitegen.limits]\n" + table, encoding="utf-8")


def problems_of(root: Path) -> list[Problem]:
    with pytest.raises(InputError) as exc:
        validate(load_config(root))
    return exc.value.problems


def cli_validate(root: Path) -> list[str]:
    """`sitegen validate` on the site: it must exit 1 (within run_cli's timeout); its problem lines."""
    r = run_cli("validate", "--root", str(root))
    assert r.returncode == 1, r.stdout + r.stderr
    lines = (r.stdout + r.stderr).splitlines()
    start = next(i for i, t in enumerate(lines) if " problem" in t and t.endswith("in the inputs:"))
    return lines[start + 1:]


# --------------------------------------------------------------------------- the defaults


def test_the_defaults_are_documented_and_leave_room_for_the_100x_data():
    d = Limits()
    assert d.max_file_bytes >= 1_000_000_000  # files of several hundred MB
    assert d.max_records >= 10 * 247_000  # ten times the 100x benchmark's 247,000 cells lines
    assert d.max_string_chars >= 5_000_000  # whole novels as model outputs, with room to spare


def test_limits_are_read_from_the_site_config_and_checked(site_copy):
    set_limits(site_copy, max_file_bytes=123_456, max_string_chars=7_890, max_records=42)
    assert load_config(site_copy).limits == Limits(max_file_bytes=123_456, max_string_chars=7_890, max_records=42)


@pytest.mark.parametrize("key, value", [("max_records", "-1"), ("max_string_chars", "0"), ("max_lines", "5")])
def test_a_bad_limit_setting_is_an_input_error_naming_it(site_copy, key, value):
    set_limits(site_copy, **{key: value})
    with pytest.raises(InputError) as exc:
        load_config(site_copy)
    (p,) = exc.value.problems
    assert (p.file, p.path) == ("pyproject.toml", f"$.tool.sitegen.limits.{key}")


# --------------------------------------------------------------------------- max_file_bytes


def test_every_kind_of_input_file_over_the_size_limit_is_one_clear_problem(site_copy):
    limit = 15_000
    # a Show Bible is read twice (as a page and for its fingerprint) and reported once
    bible = site_copy / BIBLES_DIR / f"{read_sweep(site_copy)['shows'][0]['id']}.md"
    bible.write_text(bible.read_text(encoding="utf-8") + "\nPadding.\n" * 2_000, encoding="utf-8")
    set_limits(site_copy, max_file_bytes=limit)
    over = {p.relative_to(site_copy).as_posix(): p.stat().st_size
            for d in ("content", "data") for p in (site_copy / d).rglob("*") if p.is_file() and p.stat().st_size > limit}
    kinds = {Path(rel).suffix for rel in over}
    assert kinds == {".json", ".jsonl", ".md"}  # every kind of input file is among them
    assert over.keys() >= {"content/chronicle/protocol.md", SWEEP_REL, CELLS_REL, bible.relative_to(site_copy).as_posix()}
    lines = cli_validate(site_copy)
    # Exactly one size problem for every file over the limit, each reported once: a refused
    # sweep.json hides no other file's problem.
    expected = {rel: f"{rel}: expected a file of at most {limit:,} bytes; found {size:,} bytes" for rel, size in over.items()}
    assert len(lines) == len(set(lines))
    assert set(lines) == set(expected.values())


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    p = tmp_path / "data" / "big.json"
    p.parent.mkdir()
    p.write_text(json.dumps({"a": "x" * 1_000}), encoding="utf-8")
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail(f"{self} was read whole"))
    loaded = Loaded()
    src, rec = read_json(tmp_path, p, loaded, 100)
    assert rec is None and src.size == p.stat().st_size
    assert [str(x) for x in loaded.problems] == [f"data/big.json: expected a file of at most 100 bytes; found {src.size:,} bytes"]


# --------------------------------------------------------------------------- max_string_chars


def test_a_string_over_the_length_limit_in_a_jsonl_line_is_a_problem_at_its_line_and_path(site_copy):
    set_limits(site_copy, max_string_chars=20_000)  # above the demo's longest string (16,447)
    line, _ = find_cell_line(site_copy, two_standard_scores)
    rewrite_cell_line(site_copy, line, lambda r: r["judgments"][1].__setitem__("rationale", "é" * 20_001))
    lines = cli_validate(site_copy)
    assert lines == [f"{CELLS_REL}:{line} $.judgments[1].rationale: expected a string of at most 20,000 characters; found 20,001 characters"]


def test_a_string_at_the_length_limit_passes(site_copy):
    set_limits(site_copy, max_string_chars=20_000)
    line, _ = find_cell_line(site_copy, two_standard_scores)
    rewrite_cell_line(site_copy, line, lambda r: r["judgments"][1].__setitem__("rationale", "é" * 20_000))
    validate(load_config(site_copy))


def test_a_key_over_the_length_limit_in_a_json_document_is_a_problem_at_its_object(site_copy):
    set_limits(site_copy, max_string_chars=20_000)
    sweep = read_sweep(site_copy)
    sweep["models"][2]["k" * 20_001] = 1
    write_sweep(site_copy, sweep)
    (p,) = problems_of(site_copy)
    assert str(p) == f"{SWEEP_REL} $.models[2]: expected a key of at most 20,000 characters; found 20,001 characters"


def read_jsonl_text(tmp_path: Path, text: str, limits: Limits) -> tuple[Loaded, SourceFile, list]:
    """data/x.jsonl holding `text`, read under `limits`: what was loaded, the file, its records."""
    p = tmp_path / "data" / "x.jsonl"
    p.parent.mkdir()
    p.write_text(text, encoding="utf-8")
    loaded = Loaded()
    src, records = read_jsonl(tmp_path, p, loaded, limits)
    return loaded, src, records


def test_escapes_count_as_the_characters_they_stand_for(tmp_path):
    # 40 characters of text, 5 characters of string: within a limit of 5; 6 are not
    loaded, _src, records = read_jsonl_text(tmp_path, '{"s": "\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9"}\n["\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9"]\n',
                                            Limits(max_string_chars=5))
    assert [r.line for r in records] == [1]
    assert [str(x) for x in loaded.problems] == ["data/x.jsonl:2 $[0]: expected a string of at most 5 characters; found 6 characters"]


# --------------------------------------------------------------------------- max_records


def test_a_jsonl_file_over_the_record_limit_stops_with_one_problem(site_copy):
    n_cells = len((site_copy / CELLS_REL).read_text(encoding="utf-8").splitlines())
    limit = n_cells - 10  # only cells.jsonl is over it (outputs.jsonl has fewer lines)
    enable_only(site_copy, ["canonic"])  # Vignette's pairwise judgments are more lines still
    set_limits(site_copy, max_records=limit)
    lines = cli_validate(site_copy)
    assert lines == [f"{CELLS_REL}:{limit + 1}: expected a file of at most {limit:,} records (lines); found more (reading stopped at this line)"]


def test_reading_stops_at_the_record_limit(tmp_path):
    loaded, src, records = read_jsonl_text(tmp_path, "{}\n{}\n{}\nnot json\n{}\n", Limits(max_records=3))
    assert [r.line for r in records] == [1, 2, 3]
    # the bad line after the limit is never parsed: one problem, not one per line read on
    assert [str(x) for x in loaded.problems] == ["data/x.jsonl:4: expected a file of at most 3 records (lines); found more (reading stopped at this line)"]
    assert src.size == (tmp_path / "data" / "x.jsonl").stat().st_size  # the file's identity is still its whole content


def test_more_judgments_than_one_build_can_number_is_one_clear_error(tmp_path, monkeypatch):
    """Each anchor names its judgment's row in 32 bits (canonic validate.SCHEMAS): an artifact
    with more judgments than that (lowered here to 100; the real bound is 2^31 - 1) is refused
    by name, never numbered wrong."""
    from conftest import copy_site
    from sitegen.errors import BuildError
    from sitegen.families.canonic import validate as canonic_validate

    root = copy_site(tmp_path / "site", families=["canonic"])
    monkeypatch.setattr(canonic_validate, "JUDGMENT_ROWS", 100)
    monkeypatch.setattr(canonic_validate, "CHUNK", 40)  # several chunks, so rows are numbered across them
    with pytest.raises(BuildError, match=r"the Canonic cells hold more than 100 judgments"):
        validate(load_config(root))


def test_cells_read_in_many_chunks_publish_what_one_chunk_does(tmp_path, monkeypatch):
    """A large cells file is checked in chunks and joined: each anchor's judgment row moves by
    the judgments of the chunks before it. Read in chunks of 97 cells, the demo's Canonic tables
    (the ladders', the dimension means', each row's calls) are the ones read in one chunk."""
    from conftest import compute_family, copy_site
    from sitegen.families.canonic import validate as canonic_validate
    from sitegen.families.canonic.pages import outputs
    from sitegen.numbers import table_rows

    root = copy_site(tmp_path / "site", families=["canonic"])

    def tables() -> dict[str, list[tuple]]:
        return {t.stem: table_rows(t) for t in outputs(compute_family(root, "canonic")).tables}

    whole = tables()
    monkeypatch.setattr(canonic_validate, "CHUNK", 97)
    assert tables() == whole
    assert any("/cells/" in stem for stem in whole) and "canonic/show-dimensions" in whole
