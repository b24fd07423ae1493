"""The store's row fetches: rows_shared gives exactly what rows() gives (values, their types,
their order), with each distinct string one object, whatever the column types and however
many batches the result comes in."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from sitegen import store

ROWS = [("m-b", "counted", 3, 2.5, True), ("m-a", None, 1, None, False), ("m-b", "counted", 2, -0.0, None),
        ("m-a", "reframe", 1, 1e-300, True), ("m-c", "counted", None, 7.0, False)]


@pytest.fixture()
def db():
    con = store.connect()
    con.execute("CREATE TABLE t (model VARCHAR, status VARCHAR, n INTEGER, score DOUBLE, ok BOOLEAN)")
    con.executemany("INSERT INTO t VALUES (?, ?, ?, ?, ?)", ROWS * 7)
    yield con
    con.close()


def typed(rows: list[tuple]) -> list[tuple]:
    # -0.0 == 0.0 and 1 == 1.0 == True: compare the types (and a zero's sign) too
    return [tuple((type(v), repr(v)) for v in row) for row in rows]


QUERY = "SELECT model, status, n, score, ok, n * 2 AS twice FROM t ORDER BY model, n, score, status, ok"


def test_rows_shared_gives_the_rows_of_rows(db, monkeypatch):
    monkeypatch.setattr(store, "SHARED_BATCH", 4)  # several batches, a string seen in more than one
    got = store.rows_shared(db, QUERY)
    assert typed(got) == typed(store.rows(db, QUERY))
    assert len(got) == len(ROWS) * 7
    same = [row[0] for row in got if row[0] == "m-b"]
    assert len({id(s) for s in same}) == 1  # one object for every "m-b", across batches


def test_rows_shared_with_parameters(db):
    sql = "SELECT model, score FROM t WHERE status = ? ORDER BY model, score"
    assert typed(store.rows_shared(db, sql, ["counted"])) == typed(store.rows(db, sql, ["counted"]))


def test_rows_shared_with_other_column_types(db):
    # a date, a decimal and a sum of integers (a HUGEINT, which Arrow carries as a decimal):
    # their Python values come as DuckDB gives them
    sql = """SELECT model, DATE '2026-12-04' + min(n) AS day, CAST(max(score) AS DECIMAL(6, 2)) AS d, sum(n) AS total
             FROM t WHERE n IS NOT NULL GROUP BY model ORDER BY model"""
    got = store.rows_shared(db, sql)
    assert typed(got) == typed(store.rows(db, sql))
    assert [type(v) for v in got[0][1:]] == [datetime.date, Decimal, int]


def test_rows_shared_of_no_rows_and_without_order(db):
    assert store.rows_shared(db, "SELECT model FROM t WHERE n > 100 ORDER BY model") == []
    with pytest.raises(ValueError, match="ORDER BY"):
        store.rows_shared(db, "SELECT model FROM t")


GROUPED = "SELECT model, status, score FROM t WHERE score IS NOT NULL AND status IS NOT NULL ORDER BY model, status, n, score"


@pytest.mark.parametrize("batch", [2, 3, 65_536], ids=["keys across batches", "odd batches", "one batch"])
def test_float_groups_are_the_rows_grouped_by_key_in_order(db, monkeypatch, batch):
    """What the bootstraps resample: each key's floats in the query's order, with the zero's
    sign kept, however the rows fall into batches."""
    monkeypatch.setattr(store, "SHARED_BATCH", batch)
    expected: dict[tuple, list[float]] = {}
    for model, status, score in store.rows(db, GROUPED):
        expected.setdefault((model, status), []).append(score)
    got = store.float_groups(db, GROUPED)
    assert [k for k, _ in got] == list(expected)
    for (key, values), want in zip(got, expected.values()):
        assert values.dtype == "float64" and [repr(v) for v in values.tolist()] == [repr(v) for v in want]
    counted = [key[1] for key, _ in got if key[1] == "counted"]
    assert len(counted) > 1 and all(c is counted[0] for c in counted)  # one text object, however many keys hold it


def test_float_groups_refuses_what_it_cannot_group(db):
    with pytest.raises(ValueError, match="come together"):  # ordered by score first: a key's rows are apart
        store.float_groups(db, "SELECT model, score FROM t WHERE score IS NOT NULL ORDER BY score, model")
    with pytest.raises(ValueError, match="NULL"):
        store.float_groups(db, "SELECT model, score FROM t ORDER BY model, score")
    with pytest.raises(ValueError, match="DOUBLE"):
        store.float_groups(db, "SELECT model, n FROM t ORDER BY model, n")
    with pytest.raises(ValueError, match="ORDER BY"):
        store.float_groups(db, "SELECT model, score FROM t")
    assert store.float_groups(db, "SELECT model, score FROM t WHERE false ORDER BY model") == []


@pytest.mark.parametrize("batch", [2, 3, 65_536], ids=["keys across batches", "odd batches", "one batch"])
def test_column_groups_are_the_rows_grouped_by_key_in_order(db, monkeypatch, batch):
    """What a row page shows: each key's values, a list per column, as rows() gives them."""
    monkeypatch.setattr(store, "SHARED_BATCH", batch)
    query = "SELECT model, status, n, score, ok FROM t WHERE status IS NOT NULL ORDER BY model, status, n, score"
    expected: dict[tuple, list[tuple]] = {}
    for model, status, *rest in store.rows(db, query):
        expected.setdefault((model, status), []).append(tuple(rest))
    got = store.column_groups(db, query, 2)
    assert [k for k, _ in got] == list(expected)
    for (_key, columns), want in zip(got, expected.values()):
        assert typed(list(zip(*columns))) == typed(want)
    with pytest.raises(ValueError, match="come together"):
        store.column_groups(db, "SELECT model, n FROM t ORDER BY score, model", 1)
    with pytest.raises(ValueError, match="NULL key"):
        store.column_groups(db, "SELECT status, n FROM t ORDER BY status, n", 1)


@pytest.mark.parametrize("batch", [2, 65_536], ids=["several batches", "one batch"])
def test_coded_columns_give_each_rows_values(db, monkeypatch, batch):
    """A result as arrays: the text of row i is names[codes[i]] whichever batch held it."""
    monkeypatch.setattr(store, "SHARED_BATCH", batch)
    query = "SELECT model, status, n, score FROM t WHERE status IS NOT NULL AND n IS NOT NULL AND score IS NOT NULL ORDER BY model, n, score, status"
    model, status, n, score = store.coded_columns(db, query)
    rebuilt = [(model.names[a], status.names[b], int(c), float(d)) for a, b, c, d in zip(model.codes, status.codes, n, score)]
    assert typed(rebuilt) == typed(store.rows(db, query))
    assert model.code("m-b") == model.names.index("m-b") and model.code("no such model") == -1
    with pytest.raises(ValueError, match="NULL"):
        store.coded_columns(db, "SELECT model, score FROM t ORDER BY model, score")


def test_positions_by_groups_rows_by_key_in_row_order_and_key_order():
    import numpy as np

    key = np.array([3, 1, 3, 0, 1, 3, 7], dtype=np.int64)
    grouped = store.positions_by(key)
    assert [k for k, _ in grouped] == [0, 1, 3, 7]
    assert {k: at.tolist() for k, at in grouped} == {0: [3], 1: [1, 4], 3: [0, 2, 5], 7: [6]}
    assert store.positions_by(np.empty(0, dtype=np.int64)) == []


def test_run_starts_finds_where_each_run_of_equal_keys_begins():
    import numpy as np

    a = np.array([0, 0, 1, 1, 1, 0])
    b = np.array([5, 5, 5, 6, 6, 6])
    assert store.run_starts([a, b]).tolist() == [0, 2, 3, 5]
    assert store.run_starts([a]).tolist() == [0, 2, 5]
    assert store.run_starts([np.empty(0, dtype=np.int64)]).tolist() == []
