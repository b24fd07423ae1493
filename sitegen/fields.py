"""The string types every family's contract shares: ids, names, free text, dates and hashes.

Free text is untrusted (model outputs, rationales, titles) and is always escaped on the pages;
escaping cannot help a character that the site's formats forbid outright. So:

- Text refuses C0 control characters other than tab, LF and CR, and lone surrogates. A NUL or
  a U+0001 cannot be written into the Atom feeds or an SVG (XML 1.0 forbids them even escaped).
- A Name (a model, judge, show, novel, board) also refuses line breaks and the Unicode bidi
  controls: a name is identity, and an invisible right-to-left override inside one makes two
  rows look alike or a name read backwards on the board.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BeforeValidator, StringConstraints

from sitegen.names import check_name  # invisible and look-alike characters

_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
_NAME_ONLY = re.compile("[\t\n\r\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _clean_text(v: str) -> str:
    if v.isprintable():  # no control character, no lone surrogate (the usual case, in C)
        return v
    if m := _CONTROL.search(v):
        raise ValueError(f"text without control characters (found U+{ord(m.group()):04X} at character {m.start() + 1})")
    return v


def _clean_name(v: str) -> str:
    _clean_text(v)
    if m := _NAME_ONLY.search(v):
        raise ValueError(f"a name on one line without bidi controls (found U+{ord(m.group()):04X} at character {m.start() + 1})")
    return v


def name_fault(v: str) -> tuple[str, str] | None:
    """(expected, found) when `v` breaks a Name's rules, for a name or title read outside a
    contract (a page's front matter): the same rules, the same words."""
    try:
        check_name(_clean_name(v))
    except ValueError as exc:
        expected, _, found = str(exc).rpartition(" (found ")
        return expected, found.removesuffix(")")
    return None


# For a free-text field with its own length bounds: Annotated[str, StringConstraints(...), NoControl].
NoControl = AfterValidator(_clean_text)

def _real_date(v: str) -> str:
    dt.date.fromisoformat(v)  # 2026-09-31 matches the pattern but is no date
    return v


def _real_time(v: str) -> str:
    dt.datetime.fromisoformat(v[:19])
    return v


def normal_segments(v: str) -> str:
    """A path-like value is normal: it names one place, so a slug cannot become two outputs
    (x and x/.) nor a contract path climb out of its folder (content/../../x.md). The patterns
    already refuse empty segments and a trailing slash."""
    framed = f"/{v}/"  # a segment is "." or ".." exactly when it sits between two slashes
    if "/./" in framed or "/../" in framed:
        raise ValueError("a path without '.' or '..' segments")
    return v


Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9._-]*(/[a-z0-9._-]+)*$", max_length=120), AfterValidator(normal_segments)]
Sha256 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
IsoDate = Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}$"), AfterValidator(_real_date)]
IsoTime = Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$"), AfterValidator(_real_time)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=200), AfterValidator(_clean_name), AfterValidator(check_name)]
Text = Annotated[str, StringConstraints(min_length=1, max_length=20_000), AfterValidator(_clean_text)]
LongText = Annotated[str, StringConstraints(min_length=1, max_length=400_000), AfterValidator(_clean_text)]


def exact_integer(n: int):
    """Literal[n] alone compares with ==, so even in strict mode it takes true for 1 (and 1.0
    for 1): a fixed count must be the JSON integer itself. The JSON Schema stays {"const": n},
    which already refuses true."""

    def check(v: object) -> object:
        if type(v) is not int:
            raise ValueError(f"the integer {n}")
        return v

    return Annotated[Literal[n], BeforeValidator(check)]
