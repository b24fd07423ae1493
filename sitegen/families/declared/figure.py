"""A declared benchmark's board figure: the shared interval chart, on the 0-100 item score."""

from __future__ import annotations

from sitegen.interval_chart import interval_chart


def draw_board(data: list[dict]) -> dict:
    """One row per published model in the board's order: point = score, line = 95% interval,
    the rank range at the right, the rows that may rank first shaded. Rows are keyed by model
    id, labelled by name."""
    return interval_chart(data, id_field="model", label_field="name", value="score", low="low", high="high",
                          measure="score (95% interval)", bounds=(0.0, 100.0))
