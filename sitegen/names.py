"""Names are identity: what a reader sees must tell two rows apart.

- check_name (applied to every Name of every contract, sitegen/fields.py) refuses characters
  that show nothing or show as something else: format characters (zero-width space and
  joiners, word joiner, invisible operators, byte-order mark, soft hyphen, bidi controls),
  spaces other than U+0020, line and paragraph separators; and words that mix the Latin,
  Greek, Cyrillic, Armenian or Cherokee letters that look alike ("Clаude" with a Cyrillic а).
  A name may hold words of different scripts ("Война и мир / War and Peace"); one word may not.
- clashes finds display names that differ only in what a reader cannot see: case, Unicode
  compatibility forms and runs of whitespace (name_key).
- label_expr shows the names on a figure's axis whose rows are keyed by id.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Iterable

from sitegen.errors import Problem, short_repr

# Scripts whose letters are confusable with one another, by the first word of a letter's
# Unicode name (unicodedata has no script property).
_LOOKALIKE_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC", "ARMENIAN", "CHEROKEE")


def invisible(ch: str) -> bool:
    """A character that shows nothing or shows as a space it is not: a format character (the
    bidi controls among them), a line or paragraph separator, a space other than U+0020."""
    cat = unicodedata.category(ch)
    return cat == "Cf" or cat in ("Zl", "Zp") or (cat == "Zs" and ch != " ")


def _script(ch: str) -> str | None:
    if not unicodedata.category(ch).startswith("L"):
        return None
    word = unicodedata.name(ch, "").split(" ", 1)[0]
    return word if word in _LOOKALIKE_SCRIPTS else None


def check_name(v: str) -> str:
    # ASCII holds no format character, no space but U+0020 and letters of one script (Latin):
    # most names are ASCII, and this check runs on every name of every record.
    if v.isascii():
        return v
    for i, ch in enumerate(v):
        if invisible(ch):
            raise ValueError(f"a name without invisible or non-ASCII space characters (found U+{ord(ch):04X} at character {i + 1})")
    word: list[str] = []
    for ch in v + " ":
        if unicodedata.category(ch)[0] in "LM":
            word.append(ch)
            continue
        scripts = sorted({s for c in word if (s := _script(c))})
        if len(scripts) > 1:
            raise ValueError(f"a name whose every word is written in one script (found {' and '.join(s.title() for s in scripts)} "
                             f"letters in {short_repr(''.join(word))})")
        word = []
    return v


def path_key(rel: str) -> str:
    """What two paths must differ in to be two files on every checkout: a case-insensitive file
    system (macOS's, Windows') holds Board.md and board.md as one file, and macOS's holds the
    NFC and NFD spellings of café.md as one."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", rel).casefold())


def name_key(name: str) -> str:
    """What two names must differ in to be told apart on a page."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def clashes(named: Iterable[tuple[str, int | None, str, str]], what: str) -> list[Problem]:
    """For (file, line, JSON path, name) in document order, a Problem at every name that reads
    as an earlier one, naming that one. `what` says whose names they are ("model", "entrant")."""
    first: dict[str, tuple[int | None, str, str]] = {}
    out = []
    for rel, line, path, name in named:
        key = name_key(name)
        if key in first:
            at_line, at_path, earlier = first[key]
            at = f"line {at_line} {at_path}" if at_line is not None else at_path
            out.append(Problem(rel, line, path, f"a name unlike every other {what}'s, ignoring case, Unicode forms and spacing",
                               f"{short_repr(name)}, which reads as {short_repr(earlier)} at {at}"))
        else:
            first[key] = (line, path, name)
    return out


def label_expr(labels: dict[str, str]) -> str:
    """A Vega expression that shows each axis value (a row's id) as its name. Figures are keyed
    by id, so two rows are never drawn as one, and labelled by name. The names are written as
    JSON strings, whose escapes the expression language shares: no name ends its literal."""
    return json.dumps(labels, ensure_ascii=True, sort_keys=True) + "[datum.value]"
