"""`sitegen new amendment --title "..." [--family ID] [--kind KIND]`: the next entry of a
family's amendment log (sitegen.amendments), ready to fill in.

The file gets the next free number of its kind (A for an amendment, C for a clarification, R for
a rename note) and today's date (UTC, or SOURCE_DATE_EPOCH when set, so a scripted run is
reproducible). The fields only a person can know (the text, and any fields the family records
about a change: Family.amendment_fields) are written as "FILL IN: ..." and the build refuses
them until they are replaced, so an unfinished entry cannot publish.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from sitegen.contract import problems_from
from sitegen.errors import BuildError, short_repr
from sitegen.amendments import KIND_PREFIX, PLACEHOLDER, log_dir
from sitegen.clock import today
from sitegen.fields import Name

_TITLE = TypeAdapter(Name)  # the type of EntryMeta.title: what the build will accept
# Concurrent runs each take the next free number; this many taken by others in a row is not a race.
_CREATE_TRIES = 20


def front_matter_value(title: str) -> str:
    """TITLE as a front matter value that sitegen.load.read_markdown reads back unchanged, once
    the contract's rules for a title allow it (one line: the reader has no line breaks).

    The reader strips the value, then one pair of matching quotes around it, and decodes no
    escapes: so quotes keep surrounding spaces and a quote at either end. Unless a title holds a
    single quote together with a backslash or a double quote, YAML reads the value the same way."""
    if not title.strip():
        raise BuildError(f"--title: expected the amendment's title; found {short_repr(title)}")
    try:
        _TITLE.validate_python(title, strict=True)
    except ValidationError as exc:
        found = problems_from(exc, lambda loc: ("--title", None, loc))
        raise BuildError("\n".join(f"--title: expected {p.expected}; found {p.found}" for p in found)) from None
    if "'" not in title and ("\\" in title or '"' in title):
        return f"'{title}'"
    return f'"{title}"'


def _next_number(folder: Path, prefix: str) -> int:
    numbers = [int(p.stem[1:]) for p in folder.glob(f"{prefix}*.md") if p.stem[1:].isdigit()]
    return max(numbers, default=0) + 1


def new_entry(root: Path, fid: str, title: str, kind: str = "amendment", fields: tuple[tuple[str, str], ...] = ()) -> Path:
    """Write the next entry of kind KIND into content/FID/amendments/ and return its path.
    `fields`: (name, hint) for each field the family records beyond the core's."""
    value = front_matter_value(title)
    date = today()
    prefix = KIND_PREFIX[kind]
    rel = log_dir(fid)
    folder = root / rel
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for _ in range(_CREATE_TRIES):
            entry_id = f"{prefix}{_next_number(folder, prefix)}"
            path = folder / f"{entry_id}.md"
            try:
                # exclusive: a run that took this number since the listing keeps its file
                with open(path, "x", encoding="utf-8", newline="\n") as f:
                    f.write(_scaffold(entry_id, kind, value, date, fields))
                return path
            except FileExistsError:
                continue
    except OSError as exc:
        raise BuildError(f"cannot write the entry into {rel}: {exc.strerror or exc}") from None
    raise BuildError(f"cannot write the entry into {rel}: its next number was taken {_CREATE_TRIES} times in a row")


def _scaffold(entry_id: str, kind: str, title_value: str, date: str, fields: tuple[tuple[str, str], ...]) -> str:
    return (
        "---\n"
        f"id: {entry_id}\n"
        f"kind: {kind}\n"
        f"title: {title_value}\n"
        f"date: {date}\n"
        + "".join(f'{name}: "{PLACEHOLDER}: {hint}"\n' for name, hint in fields)
        + "---\n\n"
        f"{PLACEHOLDER}: what changed, why, and what did not change with it.\n"
    )
