"""A family at scale makes its per-row tables and pages when they are written (Canonic's row
drill-downs above DEFER_ROWS board rows: 493,000 judge calls at 100x data): the same bytes as
when they are made at once, every number still checked, and such a result never cached."""

from __future__ import annotations

import math

import pytest

import sitegen.families.canonic.row_pages as row_pages
from sitegen import incremental
from sitegen.build import build, validate
from sitegen.config import load_config
from sitegen.errors import InputError

from conftest import copy_site, hash_tree


@pytest.fixture
def deferred(monkeypatch):
    monkeypatch.setattr(row_pages, "DEFER_ROWS", 0)  # the demo's 78 rows are then "at scale"


def test_rows_made_when_written_publish_the_bytes_made_at_once(deferred, built_site, tmp_path):
    root = copy_site(tmp_path / "site")
    out = tmp_path / "out"
    build(load_config(root), out)
    assert hash_tree(out) == hash_tree(built_site.out)
    families = root / incremental.CACHE_DIR / "families"
    assert not list(families.glob("canonic/*")) and list(families.glob("chronicle/*"))  # deferred: not cached
    build(load_config(root), tmp_path / "again")  # a rebuild computes Canonic again: the same bytes
    assert hash_tree(tmp_path / "again") == hash_tree(built_site.out)


def test_a_number_that_is_not_finite_in_a_row_made_when_written_fails_validate_and_build(deferred, tmp_path, monkeypatch):
    made = row_pages._table_rows

    def with_nan(model, domain, dims, cells, calls):
        rows = made(model, domain, dims, cells, calls)
        if model == "anthropic/claude-opus-5" and domain == "book-opening":
            rows[0] = (*rows[0][:4], math.nan, *rows[0][5:])
        return rows

    monkeypatch.setattr(row_pages, "_table_rows", with_nan)
    root = copy_site(tmp_path / "site", families=["canonic"])
    for run in (lambda: validate(load_config(root), cache=False), lambda: build(load_config(root), tmp_path / "out", cache=False)):
        with pytest.raises(InputError) as exc:
            run()
        assert "nan in table canonic/book-opening/cells/anthropic/claude-opus-5/cells, row 1, column task_score" in str(exc.value)
    assert not (tmp_path / "out").exists()


def test_a_number_that_is_not_finite_in_a_page_made_when_written_fails_the_build(deferred, tmp_path, monkeypatch):
    made = row_pages._with_cells

    def with_nan(page, cells, calls):
        ctx = made(page, cells, calls)
        if page["row"].model == "anthropic/claude-opus-5" and page["board"].domain == "book-opening":
            ctx["cells"][0] = (ctx["cells"][0][0], ctx["cells"][0][1], math.inf, *ctx["cells"][0][3:])
        return ctx

    monkeypatch.setattr(row_pages, "_with_cells", with_nan)
    root = copy_site(tmp_path / "site", families=["canonic"])
    with pytest.raises(InputError) as exc:
        build(load_config(root), tmp_path / "out", cache=False)
    assert ("inf in what canonic gives canonic/book-opening/cells/anthropic/claude-opus-5/index.html to show ([\"cells\"][0][2])"
            in str(exc.value))
    assert not (tmp_path / "out").exists()


def test_calls_gathered_for_a_block_of_rows_across_the_intakes_batches_are_each_rows_own(built_site):
    """A row's judge calls are gathered with the next rows' (row_pages.BLOCK). At scale the
    intake's tables come in many batches, and a take from them returns rows batch by batch:
    each row must still get exactly its own calls with their own anchors, as gathered alone."""
    import pyarrow as pa

    res = built_site.results
    task_domain = {t.id: t.domain for t in res.sweep.tasks}
    order = [(r.model, b.domain) for b in res.boards for r in b.rows]
    tables = res.input.tables
    # the demo's tables are one batch each; cut into batches of 7 rows, as a large intake's are
    cut = {**tables, **{name: pa.Table.from_batches(tables[name].to_batches(max_chunksize=7), schema=tables[name].schema)
                        for name in ("judgments", "anchors")}}
    alone = row_pages._CallIndex(tables, res.input.ids, task_domain, [], {})  # no order: each row gathered by itself
    blocks = row_pages._CallIndex(cut, res.input.ids, task_domain, order, {})
    assert len(order) > row_pages.BLOCK  # more than one block, the last one short
    for key in order:
        mine = alone.calls(*key)
        assert mine and blocks.calls(*key) == mine, key


def test_the_judge_calls_numbers_are_checked_whole_where_the_calls_are_gathered(built_site):
    """A row page shows its judge calls, whose numbers all come from two columns of the
    validated tables. Those are checked whole when the calls' index is made, before any page:
    a number that is not finite there names the inputs, the column and where in it. (The check of
    each page's context then does not search the calls again: at 100x data that search of
    493,000 calls took 3 s.)"""
    import pyarrow as pa

    res = built_site.results
    task_domain = {t.id: t.domain for t in res.sweep.tasks}
    tables = res.input.tables
    for name, column, what in (("judgments", "weighted", "the judge calls' weighted scores"), ("anchors", "anchor", "the judge calls' anchors")):
        t = tables[name]
        values = t.column(column).to_pylist()
        at = next(k for k, v in enumerate(values) if v is not None)
        values[at] = math.inf
        bad = {**tables, name: t.set_column(t.schema.get_field_index(column), t.schema.field(column),
                                            pa.array(values, t.schema.field(column).type))}
        with pytest.raises(InputError) as exc:
            row_pages._CallIndex(bad, res.input.ids, task_domain, [], {"data/canonic/cells.jsonl": "0" * 64})
        assert (f"data/canonic/cells.jsonl: expected finite computed numbers; found inf in {what} (number {at + 1} of them, in the file's order)"
                in str(exc.value))
    row_pages._CallIndex(tables, res.input.ids, task_domain, [], {})  # the demo's own: all finite
