"""Canonic tables and every SQL statement the family runs.

Tables (one row each):
  models(id, name, family, self_family, ord)   domains(id, name, ord)
  tasks(id, domain, show, origin)              cells(model, task, gen_status, gen_reason)
  judgments(model, task, judge, seq, prompt, outcome, weighted, rationale, id)
  anchors(judgment, dimension, anchor)   (scored judgments only; judgment = the judgment's id)

Views:
  cell_status  one row per cell: its status ('counted' or the exclusion reason) and task score
  md_rows      one row per (model, domain) of the full grid: attempted, counted, total

cells, judgments and anchors are views that decode the validated tables' codes (codes.py):
_cells, _judgments and _anchors hold them (_anchors reads the narrow columns of _anchor_codes
at full width), and _model_ids, _task_ids, _judge_ids and _dimension_ids map each code to its
id. cell_status decodes _cell_status, a table of codes worked out once. The queries over every
judgment or anchor join the codes themselves and decode only what they return.
"""

from __future__ import annotations

import math

import numpy as np
import pyarrow as pa

from sitegen import store
from sitegen.families.canonic.validate import CanonicInput

# The exclusion reasons, in the order the counting rule tests them. The first that applies wins.
REASONS = ("generation failure", "reframe", "refusal", "single judge", "error")

# Each cell's status, worked out once from the coded tables and kept as a table of codes
# (model, task, status, task score): every analysis reads it, and a view that grouped every
# judgment again for each query held hundreds of MB of string-keyed hash tables at 100x data.
# Joins on codes (int32) stay small; cell_status decodes them for the queries that want ids.
_STATUS_SQL = """
CREATE TABLE _cell_status AS
WITH j AS (
  SELECT model, task,
    count(*) FILTER (WHERE prompt = 'standard' AND outcome = 'score')   AS std_scores,
    count(*) FILTER (WHERE prompt = 'standard' AND outcome = 'refusal') AS std_refusals,
    count(*) FILTER (WHERE prompt = 'reframe'  AND outcome = 'score')   AS reframe_scores,
    avg(weighted) FILTER (WHERE prompt = 'standard' AND outcome = 'score') AS mean_std
  FROM _judgments GROUP BY model, task
)
SELECT c.model, c.task,
  CASE
    WHEN c.gen_status = 'failed'   THEN 'generation failure'
    WHEN j.std_scores = 2          THEN 'counted'
    WHEN j.reframe_scores > 0      THEN 'reframe'
    WHEN j.std_refusals > 0        THEN 'refusal'
    WHEN j.std_scores = 1          THEN 'single judge'
    ELSE 'error'
  END AS status,
  CASE WHEN c.gen_status = 'ok' AND j.std_scores = 2 THEN j.mean_std END AS task_score
FROM _cells c LEFT JOIN j USING (model, task)
"""

# A task's place in the sweep (its code) beside what the queries ask of it.
_TASK_CODES_SQL = """
CREATE VIEW _task_info AS
SELECT c.code, t.id, t.domain, t.show, t.origin FROM _task_ids c JOIN tasks t ON t.id = c.id
"""

_STATUS_VIEW_SQL = """
CREATE VIEW cell_status AS
SELECT m.id AS model, t.id AS task, t.domain, t.show, t.origin, s.status, s.task_score
FROM _cell_status s JOIN _model_ids m ON m.code = s.model JOIN _task_info t ON t.code = s.task
"""

# The cells' tables as the queries read them: each code joined to the id it stands for.
_DECODED = {
    "cells": """CREATE VIEW cells AS
        SELECT m.id AS model, t.id AS task, c.gen_status, c.gen_reason, c.line FROM _cells c
        JOIN _model_ids m ON m.code = c.model JOIN _task_ids t ON t.code = c.task""",
    "judgments": """CREATE VIEW judgments AS
        SELECT m.id AS model, t.id AS task, g.id AS judge, j.seq, j.prompt, j.outcome, j.weighted, j.rationale, j.id
        FROM _judgments j JOIN _model_ids m ON m.code = j.model JOIN _task_ids t ON t.code = j.task
        JOIN _judge_ids g ON g.code = j.judge""",
    "anchors": """CREATE VIEW anchors AS
        SELECT a.judgment, d.id AS dimension, a.anchor FROM _anchors a JOIN _dimension_ids d ON d.code = a.dimension""",
}

# The anchors are held narrow (validate.SCHEMAS: int32, int16, float32, each value exact) and
# read as every query was written for them: a judgment row as BIGINT like the judgments' id,
# a code as INTEGER like the other codes, an anchor as DOUBLE.
_ANCHORS_SQL = """
CREATE VIEW _anchors AS
SELECT CAST(judgment AS BIGINT) AS judgment, CAST(dimension AS INTEGER) AS dimension, CAST(anchor AS DOUBLE) AS anchor
FROM _anchor_codes
"""

_ROWS_SQL = """
CREATE VIEW md_rows AS
SELECT m.id AS model, d.id AS domain,
  (SELECT count(*) FROM tasks t WHERE t.domain = d.id) AS total,
  count(s.task) AS attempted,
  count(s.task) FILTER (WHERE s.status = 'counted') AS counted
FROM models m CROSS JOIN domains d
LEFT JOIN cell_status s ON s.model = m.id AND s.domain = d.id
GROUP BY m.id, d.id
"""


def load(db, inp: CanonicInput) -> None:
    s = inp.sweep
    judge_families = {j.family for j in s.judges}
    store.load_columns(db, "models", {
        "id": [m.id for m in s.models], "name": [m.name for m in s.models], "family": [m.family for m in s.models],
        "self_family": [m.family in judge_families for m in s.models], "ord": list(range(len(s.models))),
    }, {"id": pa.string(), "name": pa.string(), "family": pa.string(), "self_family": pa.bool_(), "ord": pa.int32()})
    store.load_columns(db, "domains", {
        "id": [d.id for d in s.domains], "name": [d.name for d in s.domains], "ord": list(range(len(s.domains))),
    }, {"id": pa.string(), "name": pa.string(), "ord": pa.int32()})
    store.load_columns(db, "tasks", {
        "id": [t.id for t in s.tasks], "domain": [t.domain for t in s.tasks],
        "show": [t.show for t in s.tasks], "origin": [t.premise_origin for t in s.tasks],
    }, {"id": pa.string(), "domain": pa.string(), "show": pa.string(), "origin": pa.string()})

    # The validated cells, judgments, anchors and outputs are queried where they are, as views
    # of their Arrow tables: a copy into DuckDB's own storage doubled their memory (+450 MB at
    # 100x data) for queries that each scan them once. The cells' tables hold codes (codes.py):
    # each is a view of its Arrow table with every code turned back into its id, so every
    # query reads ids.
    ids = inp.ids
    for vocabulary, words in ids.items():
        store.load_columns(db, f"_{vocabulary}_ids", {"code": list(range(len(words))), "id": words},
                           {"code": pa.int32(), "id": pa.string()})
    for name, table in inp.tables.items():
        if name not in _DECODED:
            store.view_arrow(db, name, table)
            continue
        if name == "anchors":
            store.view_arrow(db, "_anchor_codes", table)
            store.execute(db, _ANCHORS_SQL)
        else:
            store.view_arrow(db, f"_{name}", table)
        store.execute(db, _DECODED[name])
    store.execute(db, _STATUS_SQL)
    store.execute(db, _TASK_CODES_SQL)
    store.execute(db, _STATUS_VIEW_SQL)
    store.execute(db, _ROWS_SQL)


def grid(db) -> list[tuple]:
    """(model, domain, total, attempted, counted) for every model x domain, in roster x domain order."""
    return store.rows(db, """
        SELECT r.model, r.domain, r.total, r.attempted, r.counted
        FROM md_rows r JOIN models m ON m.id = r.model JOIN domains d ON d.id = r.domain
        ORDER BY d.ord, m.ord""")


def counted_scores(db) -> list[tuple[tuple[str, str], np.ndarray]]:
    """((model, domain), its counted cells' task scores in task order: what its bootstrap
    resamples) for every model and domain with a counted cell."""
    return store.float_groups(db, """
        SELECT model, domain, task_score FROM cell_status
        WHERE status = 'counted' ORDER BY model, domain, task""")


def exclusions_by_reason(db) -> list[tuple]:
    """(domain, status, cells) for every domain and status present."""
    return store.rows(db, """
        SELECT s.domain, s.status, count(*) FROM cell_status s JOIN domains d ON d.id = s.domain
        GROUP BY s.domain, d.ord, s.status ORDER BY d.ord, s.status""")


def first_counted_cell(db) -> tuple | None:
    """The worked example: the first counted cell, in roster, domain and task order."""
    found = store.rows(db, """
        SELECT s.model, s.task, s.domain FROM cell_status s
        JOIN models m ON m.id = s.model JOIN domains d ON d.id = s.domain
        WHERE s.status = 'counted' ORDER BY m.ord, d.ord, s.task LIMIT 1""")
    return found[0] if found else None


def exclusions_by_model(db) -> list[tuple]:
    """(model, status, cells) for every model and status present, in roster order."""
    return store.rows(db, """
        SELECT s.model, s.status, count(*) FROM cell_status s JOIN models m ON m.id = s.model
        GROUP BY s.model, m.ord, s.status ORDER BY m.ord, s.status""")


def exclusions_by_row(db) -> list[tuple]:
    """(model, domain, status, cells) for every model-domain row and status present, in
    roster then domain order."""
    return store.rows(db, """
        SELECT s.model, s.domain, s.status, count(*) FROM cell_status s
        JOIN models m ON m.id = s.model JOIN domains d ON d.id = s.domain
        GROUP BY s.model, m.ord, s.domain, d.ord, s.status ORDER BY m.ord, d.ord, s.status""")


def cell_statuses(db) -> list[tuple[tuple[str, str], tuple[list, list, list]]]:
    """((model, domain), (tasks, statuses, task scores or None)) of every model and domain's
    cells, in roster, domain and task order: what a board row's drill-down lists."""
    return store.column_groups(db, """
        SELECT s.model, s.domain, s.task, s.status, s.task_score FROM cell_status s
        JOIN models m ON m.id = s.model JOIN domains d ON d.id = s.domain
        ORDER BY m.ord, d.ord, s.task""", 2)


def counted_with_origin(db) -> list:
    """The model, domain, origin, task (each store.Coded) and task score (float64) of every
    counted cell, a column each."""
    return store.coded_columns(db, """
        SELECT model, domain, origin, task, task_score FROM cell_status
        WHERE status = 'counted' ORDER BY model, domain, origin, task""")


def counted_by_origin(db) -> list[tuple[tuple[str, str, str], np.ndarray]]:
    """((model, domain, origin), its counted cells' task scores in task order: what the
    contamination split resamples) for every model, domain and origin with a counted cell."""
    return store.float_groups(db, """
        SELECT model, domain, origin, task_score FROM cell_status
        WHERE status = 'counted' ORDER BY model, domain, origin, task""")


def judge_pairs(db) -> list:
    """The domain, task, model, judge (each store.Coded) and weighted score (float64) of both
    standard scores of every counted cell, a column each, ordered by domain, task, model and
    judge: a cell's two rows are consecutive."""
    return store.coded_columns(db, """
        SELECT t.domain, t.id, m.id, g.id, j.weighted
        FROM _cell_status s JOIN _judgments j ON j.model = s.model AND j.task = s.task
        JOIN _task_info t ON t.code = s.task JOIN _model_ids m ON m.code = s.model JOIN _judge_ids g ON g.code = j.judge
        WHERE s.status = 'counted' AND j.prompt = 'standard' AND j.outcome = 'score'
        ORDER BY t.domain, t.id, m.id, g.id""")


def reframed(db) -> list[tuple]:
    """(domain, task, model, judge, reframed weighted score) of every cell excluded as reframe."""
    return store.rows(db, """
        SELECT t.domain, t.id, m.id, g.id, j.weighted
        FROM _cell_status s JOIN _judgments j ON j.model = s.model AND j.task = s.task
        JOIN _task_info t ON t.code = s.task JOIN domains d ON d.id = t.domain
        JOIN _model_ids mi ON mi.code = s.model JOIN models m ON m.id = mi.id JOIN _judge_ids g ON g.code = j.judge
        WHERE s.status = 'reframe' AND j.prompt = 'reframe' AND j.outcome = 'score'
        ORDER BY d.ord, t.id, m.ord, g.id""")


def sitcom_by_show(db) -> list[tuple]:
    """(model, show, counted tasks, mean task score) for counted cells of tasks with a show.

    The mean is taken here with math.fsum (exactly rounded, so independent of row order), not
    with DuckDB's avg(): a floating-point avg split across DuckDB's threads can differ in its
    last bits from run to run, and this number is published."""
    scores: dict[tuple[str, str], list[float]] = {}
    for model, show, score in store.rows(db, """
            SELECT s.model, s.show, s.task_score FROM cell_status s
            JOIN models m ON m.id = s.model
            WHERE s.status = 'counted' AND s.show IS NOT NULL
            ORDER BY m.ord, s.show, s.task"""):
        scores.setdefault((model, show), []).append(score)
    return [(model, show, len(v), math.fsum(v) / len(v)) for (model, show), v in scores.items()]


def show_dimension_means(db) -> list[tuple]:
    """(show, dimension, mean anchor) over both judges' standard scores of counted cells.
    The largest join of the build (every anchor), so it joins codes and decodes only the result."""
    return store.rows(db, """
        WITH sums AS (
          SELECT s.task, a.dimension, sum(a.anchor) AS total, count(*) AS n FROM _cell_status s
          JOIN _judgments j ON j.model = s.model AND j.task = s.task
          JOIN _anchors a ON a.judgment = j.id
          WHERE s.status = 'counted' AND j.prompt = 'standard'
          GROUP BY s.task, a.dimension
        )
        SELECT t.show, d.id, sum(x.total) / sum(x.n), sum(x.n)::BIGINT FROM sums x
        JOIN _task_info t ON t.code = x.task JOIN _dimension_ids d ON d.code = x.dimension
        WHERE t.show IS NOT NULL
        GROUP BY t.show, d.id ORDER BY t.show, d.id""")


def model_format_dimension_means(db, formats: dict[str, str]) -> list[tuple]:
    """(model, show format, dimension, mean anchor, judgments) over both judges' standard
    scores of the counted cells of tasks with a show (FORMATS: show -> its format), in roster
    order, then in the order the query meets them. The mean is math.fsum's (see sitcom_by_show): it is published."""
    # Every anchor is a quarter step (validated), so each partial sum is exact and the sums
    # per show add up to the very fsum of the anchors one by one; the order of the result is
    # the order in which the anchors, by roster, show, dimension and task, first meet each key.
    sums: dict[tuple[str, str, str], list] = {}
    for model, show, dimension, total, n in store.rows(db, """
            WITH sums AS (
              SELECT s.model, t.show, a.dimension, sum(a.anchor) AS total, count(*) AS n FROM _cell_status s
              JOIN _task_info t ON t.code = s.task
              JOIN _judgments j ON j.model = s.model AND j.task = s.task
              JOIN _anchors a ON a.judgment = j.id
              WHERE s.status = 'counted' AND t.show IS NOT NULL AND j.prompt = 'standard'
              GROUP BY s.model, t.show, a.dimension
            )
            SELECT m.id, x.show, d.id, x.total, x.n FROM sums x
            JOIN _model_ids mi ON mi.code = x.model JOIN models m ON m.id = mi.id JOIN _dimension_ids d ON d.code = x.dimension
            ORDER BY m.ord, x.show, d.id"""):
        totals = sums.setdefault((model, formats[show], dimension), [])
        totals.append((total, n))
    return [(model, fmt, dim, math.fsum(t for t, _ in v) / sum(n for _, n in v), sum(n for _, n in v))
            for (model, fmt, dim), v in sums.items()]


def ladder_candidates(db) -> list:
    """The domain, task, model (each store.Coded) and task score (float64) of every counted
    cell, a column each, by domain and task, then by score, then by model id."""
    return store.coded_columns(db, """
        SELECT domain, task, model, task_score FROM cell_status
        WHERE status = 'counted' ORDER BY domain, task, task_score, model""")


def standard_scores(db, keys: list[tuple[str, str]]) -> dict[tuple[str, str], dict[str, tuple[dict[str, float], str]]]:
    """For each (model, task) asked for: judge -> (dimension -> anchor, rationale) of its
    standard-prompt score, as a page shows a judgment beside the anchors it chose."""
    if not keys:
        return {}
    wanted = pa.table({"model": [k[0] for k in keys], "task": [k[1] for k in keys]})
    db.register("_wanted", wanted)
    try:
        found = store.rows(db, """
            SELECT j.model, j.task, j.judge, j.rationale, a.dimension, a.anchor
            FROM judgments j JOIN _wanted w USING (model, task)
            JOIN anchors a ON a.judgment = j.id
            WHERE j.prompt = 'standard' AND j.outcome = 'score'
            ORDER BY j.model, j.task, j.judge, a.dimension""")
    finally:
        db.unregister("_wanted")
    out: dict[tuple[str, str], dict[str, tuple[dict[str, float], str]]] = {}
    for model, task, judge, rationale, dimension, anchor in found:
        anchors, _ = out.setdefault((model, task), {}).setdefault(judge, ({}, rationale))
        anchors[dimension] = anchor
    return out


def output_spans(db, keys: list[tuple[str, str]]) -> list[tuple[tuple[str, str], int, int, bytes]]:
    """Where the output of each (model, task) asked for lies in outputs.jsonl, where the release
    has it: ((model, task), byte offset, length, SHA-256 of the line), for OutputTexts.read."""
    if not keys or not store.has_table(db, "outputs"):
        return []
    wanted = pa.table({"model": [k[0] for k in keys], "task": [k[1] for k in keys]})
    db.register("_wanted", wanted)
    try:
        found = store.rows(db, """
            SELECT o.model, o.task, o."offset", o.length, o.sha256 FROM outputs o JOIN _wanted w USING (model, task)
            ORDER BY o.model, o.task""")
    finally:
        db.unregister("_wanted")
    return [((m, t), offset, length, bytes(digest)) for m, t, offset, length, digest in found]