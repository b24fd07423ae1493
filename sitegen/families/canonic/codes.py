"""The codes the validated cells' tables hold instead of ids: a model, task, judge or dimension
is its place in the sweep's own list of them. The intake writes them (validate.py), the store
decodes them for every query (store.py) and the row pages for their calls (row_pages.py)."""

from __future__ import annotations

CODED = {"model": "model", "task": "task", "judge": "judge", "dimension": "dimension"}  # column -> vocabulary
UNKNOWN = -1  # the code of an id the sweep does not have (a problem of its own: the load fails)


def vocabularies(sweep) -> dict[str, list[str]]:
    """The ids each code stands for, in the sweep's order: what a coded column decodes to."""
    return {"model": [m.id for m in sweep.models], "task": [t.id for t in sweep.tasks], "judge": [j.id for j in sweep.judges],
            "dimension": list(dict.fromkeys(d.id for dom in sweep.domains for d in dom.rubric.dimensions))}


def decoded(table, column: str, ids: dict[str, list[str]]) -> list[str | None]:
    """A coded column of an Arrow table as the ids it stands for (None for UNKNOWN)."""
    words = ids[CODED[column]]
    return [words[c] if c is not None and c >= 0 else None for c in table.column(column).to_pylist()]
