"""Canonic's cells as Parquet, what a harness at scale writes instead of JSONL: the same
contract and the same numbers, with problems that name the row and the JSON path of the
column."""

from __future__ import annotations

import math

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sitegen.build import build, validate
from sitegen.config import load_config
from sitegen.errors import InputError
from sitegen.families.canonic.demo.cells import PARQUET_SCHEMA, write_parquet

from conftest import CELLS_REL, copy_site, read_cells

PARQUET_REL = "data/canonic/cells.parquet"


@pytest.fixture
def site(tmp_path):
    """The demo's Canonic inputs alone, without a cache (a Parquet site shares no result with
    the JSONL one)."""
    return copy_site(tmp_path / "site", families=["canonic"])


def as_parquet(root, cells: list[dict], schema=PARQUET_SCHEMA) -> None:
    """The cells written as cells.parquet (a row group per 500 cells), cells.jsonl removed."""
    write_parquet(root / PARQUET_REL, (cells[i:i + 500] for i in range(0, len(cells), 500))) if schema is PARQUET_SCHEMA \
        else pq.write_table(pa.Table.from_pylist(cells, schema=schema), root / PARQUET_REL)
    (root / CELLS_REL).unlink()


def problems_of(root) -> list[str]:
    with pytest.raises(InputError) as exc:
        validate(load_config(root), cache=False)
    return [str(p) for p in exc.value.problems]


def test_cells_as_parquet_publish_every_table_the_jsonl_cells_do(site, built_site, tmp_path):
    as_parquet(site, read_cells(site))
    out = tmp_path / "out"
    build(load_config(site), out, cache=False)
    tables = sorted(p.relative_to(built_site.out).as_posix() for p in (built_site.out / "canonic").rglob("*.csv"))
    assert len(tables) > 100
    for rel in tables:  # a table's CSV names no source file: the same bytes
        assert (out / rel).read_bytes() == (built_site.out / rel).read_bytes(), rel
    assert (out / "raw" / PARQUET_REL).read_bytes() == (site / PARQUET_REL).read_bytes()
    assert not (out / "raw" / CELLS_REL).exists()
    board = (out / "canonic/book-opening/index.html").read_text(encoding="utf-8")
    assert "<code>cells.parquet</code>" in board and "cells.jsonl" not in board


def test_problems_in_parquet_cells_name_the_row_and_the_json_path(site):
    cells = read_cells(site)
    scored = [i for i, c in enumerate(cells) if c["judgments"] and c["judgments"][0]["outcome"] == "score"]
    bad_anchor, not_finite, extra = scored[16], scored[40], scored[60]
    dim = next(iter(cells[bad_anchor]["judgments"][0]["anchors"]))
    cells[bad_anchor]["judgments"][0]["anchors"][dim] = 0.3
    dim2 = next(iter(cells[not_finite]["judgments"][0]["anchors"]))
    cells[not_finite]["judgments"][0]["anchors"][dim2] = math.nan
    cells[not_finite]["judgments"][0]["weighted_score"] = None
    schema = PARQUET_SCHEMA.append(pa.field("overall_score", pa.float64()))
    for c in cells:
        c["overall_score"] = None
    cells[extra]["overall_score"] = 71.5
    as_parquet(site, cells, schema)
    found = problems_of(site)
    assert (f"{PARQUET_REL} row {bad_anchor + 1} $.judgments[0].anchors.{dim}: expected one of the anchors "
            "0, 0.25, 0.5, 0.75, 1.0; found 0.3") in found
    assert (f"{PARQUET_REL} row {not_finite + 1} $.judgments[0].anchors.{dim2}: expected a finite number "
            "(JSON has no NaN or infinity); found nan") in found
    assert any(p.startswith(f"{PARQUET_REL} row {extra + 1} $.overall_score: expected no cross-domain aggregate field") for p in found)
    assert len(found) == 3, found  # a null column is an absent key: no other row is refused


def test_a_map_holding_a_key_twice_and_a_type_json_lacks_are_refused_at_their_row(site):
    cells = read_cells(site)
    i = next(i for i, c in enumerate(cells) if c["judgments"] and c["judgments"][0]["outcome"] == "score")
    anchors = cells[i]["judgments"][0]["anchors"]
    dim = next(iter(anchors))
    pairs = [*anchors.items(), (dim, anchors[dim])]
    schema = PARQUET_SCHEMA.append(pa.field("run_at", pa.timestamp("s")))
    for c in cells:
        c["run_at"] = None
        for j in c["judgments"]:
            if j["anchors"] is not None:
                j["anchors"] = list(j["anchors"].items())
    cells[i]["judgments"][0]["anchors"] = pairs
    cells[i + 1]["run_at"] = 0
    as_parquet(site, cells, schema)
    found = problems_of(site)
    assert f"{PARQUET_REL} row {i + 1} $.judgments[0].anchors.{dim}: expected each key of a map once; found \"{dim}\" again" in found
    assert any(p.startswith(f"{PARQUET_REL} row {i + 2} $.run_at: expected a string, number, boolean, list, struct or map") for p in found)


def test_a_site_holding_both_cells_files_is_refused(site):
    as_parquet(site, read_cells(site))
    (site / CELLS_REL).write_text("", encoding="utf-8")
    assert problems_of(site) == [f"{PARQUET_REL}: expected one file of cells ({CELLS_REL} or this one, not both); found both"]


def test_a_file_that_is_not_parquet_is_one_problem(site):
    (site / CELLS_REL).unlink()
    (site / PARQUET_REL).write_bytes(b"PAR1 this is not a Parquet file")
    found = problems_of(site)
    assert len(found) == 1 and found[0].startswith(f"{PARQUET_REL}: expected a Parquet file; found ")


# parse_batch converts a usual row through converters worked out once from the Arrow type, and
# hands any other row to _Row, the row-by-row conversion that finds and places problems. The two
# must agree on every row: what each row becomes, which rows are screened, and every problem.

_FUZZ_SCHEMA = pa.schema([
    ("name", pa.string()),
    ("count", pa.int64()),
    ("big", pa.uint64()),
    ("small", pa.int8()),
    ("flag", pa.bool_()),
    ("share", pa.float32()),
    ("when", pa.timestamp("s")),
    ("label", pa.dictionary(pa.int32(), pa.string())),
    ("tags", pa.list_(pa.string())),
    ("pairs", pa.large_list(pa.int32())),
    ("fixed", pa.list_(pa.float64(), 2)),
    ("scores", pa.map_(pa.string(), pa.struct([("x", pa.float64()), ("note", pa.string())]))),
    ("kept", pa.struct([("x", pa.float64()), ("note", pa.string())])),
    ("overall_score", pa.float64()),
    ("calls", pa.list_(pa.struct([
        ("judge", pa.string()),
        ("anchors", pa.map_(pa.string(), pa.float64())),
        ("by_id", pa.map_(pa.int32(), pa.string())),
        ("raw", pa.binary()),
    ]))),
])


def _fuzz_rows(rng, n: int) -> list[dict]:
    """Rows of every kind: nulls at every level, and now and then a value or a key that _Row
    refuses or screens (NaN, infinity, past 64 bits, too long, a date, bytes, a key twice, an
    aggregate-like key, a map keyed by numbers, an aggregate-like column)."""
    def maybe(value, p_null=0.15):
        return None if rng.random() < p_null else value

    def rare(good, bad, p_bad=0.02):
        return rng.choice(bad) if rng.random() < p_bad else rng.choice(good)

    def text():
        return rare(["", "plain", "ümlaut", "overall"], ["x" * 12, "overall_score"])

    def number():
        return rare([0.0, -1.5, 33.75, 1e308], [math.nan, math.inf, -math.inf])

    def pairs_of(values):
        keys = [rare(["hook", "voice", "pace", "kept", "scores", "overall"], ["overall_score", "k" * 12, "hook"]) for _ in range(rng.randrange(4))]
        keys = list(dict.fromkeys(keys)) if rng.random() > 0.03 else keys  # a key twice, now and then
        return [(k, maybe(values())) for k in keys]

    rows = []
    for _ in range(n):
        rows.append({
            "name": maybe(text()),
            "count": maybe(rng.choice([0, -2**63, 2**63 - 1, 7])),
            "big": maybe(rare([0, 2**63 - 1], [2**63, 2**64 - 1])),
            "small": maybe(rng.choice([-128, 127, 0])),
            "flag": maybe(rng.choice([True, False])),
            "share": maybe(rare([0.5, 1.0], [math.nan])),
            "when": maybe(0, p_null=0.99),
            "label": maybe(text()),
            "tags": maybe([maybe(text()) for _ in range(rng.randrange(3))]),
            "pairs": maybe([maybe(rng.randrange(-5, 5)) for _ in range(rng.randrange(3))]),
            "fixed": maybe([maybe(number()), maybe(number())]),
            "scores": maybe(pairs_of(lambda: {"x": maybe(number()), "note": maybe(text())})),
            "kept": maybe({"x": maybe(number()), "note": maybe(text())}),
            "overall_score": maybe(number(), p_null=0.99),
            "calls": maybe([maybe({
                "judge": maybe(text()),
                "anchors": maybe(pairs_of(number)),
                "by_id": [(rng.randrange(3), "t")] if rng.random() < 0.01 else None,
                "raw": maybe(b"\x00", p_null=0.99),
            }) for _ in range(rng.randrange(3))]),
        })
    return rows


def _row_by_row(raw, screen, keep_nulls):
    """parse_batch as it was before the converters: every row converted value by value."""
    from sitegen.parquet import row_by_value

    records, problems = [], []
    row_type = pa.struct(list(raw.batch.schema))
    for row, value in enumerate(raw.batch.to_pylist(), start=raw.first_row):
        record, found = row_by_value(raw, row, value, row_type, screen, keep_nulls)
        problems.extend(found)
        records += [record] if record is not None else []
    return records, problems


@pytest.mark.parametrize("seed", range(6))
def test_parquet_rows_convert_as_the_row_by_row_reference_does(seed):
    import json
    import random

    from sitegen.aggregate import is_aggregate_key
    from sitegen.parquet import RawBatch, parse_batch

    rng = random.Random(seed)
    table = pa.Table.from_pylist(_fuzz_rows(rng, 300), schema=_FUZZ_SCHEMA)
    passed = failed = screened = 0
    for screen, max_chars, keep in [(is_aggregate_key, 10, frozenset({"kept", "scores", "hook"})),
                                    (is_aggregate_key, None, frozenset()), (None, None, frozenset())]:
        raw = RawBatch("data/x.parquet", 41, table.to_batches()[0], max_chars)
        got, expected = parse_batch(raw, screen, keep), _row_by_row(raw, screen, keep)
        # json.dumps keeps each object's key order, which == on dicts does not compare
        assert [(r.line, json.dumps(r.value), r.screened) for r in got[0]] == \
            [(r.line, json.dumps(r.value), r.screened) for r in expected[0]]
        assert [str(p) for p in got[1]] == [str(p) for p in expected[1]]
        passed += len(expected[0])
        failed += len({p.line for p in expected[1]})
        screened += sum(r.screened for r in expected[0])
    assert passed > 300 and failed > 100 and screened > 5  # rows of every kind, under each setting
