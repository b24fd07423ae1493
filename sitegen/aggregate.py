"""The no-overall-score rule, in one place.

Canonic's protocol forbids any cross-domain aggregate. The rule is enforced at three
doors: artifact intake (a key at any depth), every data download the site writes, and
every generated page (a field-like token in the text). Prose may say "there is no overall
score"; what it may never carry is a field that could hold one.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Iterator

_EXACT = {"aggregate", "aggregatescore", "grandmean", "totalscore", "overall"}
_PREFIXES = ("overall", "crossdomain", "grandmean")

# Field-like spellings in generated text: an identifier with an underscore or a hyphen.
_TEXT_FIELD = re.compile(
    r"(?<![A-Za-z0-9_])(overall[_-][A-Za-z0-9_]+|aggregate[_-]score|grand[_-]mean|total[_-]score|cross[_-]domain[_-][A-Za-z0-9_]+)(?![A-Za-z0-9_])",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)  # every row of every JSON download repeats the same few keys
def is_aggregate_key(key: str) -> bool:
    norm = re.sub(r"[^a-z0-9]", "", key.lower())
    return norm in _EXACT or norm.startswith(_PREFIXES)


def find_aggregate_keys(value: Any, loc: tuple = ()) -> Iterator[tuple]:
    """Yield the location of every key in a JSON value that could hold a cross-domain aggregate."""
    if isinstance(value, dict):
        for k, v in value.items():
            if is_aggregate_key(str(k)):
                yield loc + (k,)
            if isinstance(v, (dict, list)):  # only containers hold keys: no generator per scalar
                yield from find_aggregate_keys(v, loc + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            if isinstance(v, (dict, list)):
                yield from find_aggregate_keys(v, loc + (i,))


def has_aggregate_key(value: Any) -> bool:
    """Whether find_aggregate_keys(value) finds anything: the same search without building a
    location for every container (a site's JSON downloads are megabytes of rows)."""
    stack = [value]
    clean: set = set()  # keys found not to be aggregates: rows repeat the same few keys
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            new = v.keys() - clean  # a set difference in C, empty for all but the first rows
            if new:
                if any(map(is_aggregate_key, map(str, new))):
                    return True
                clean |= new
            inside = v.values()
        else:
            inside = v
        if _SCALARS.issuperset(map(type, inside)):  # a row of plain values: one pass in C
            continue
        for x in inside:
            t = type(x)
            if t is dict or t is list or (t not in _SCALARS and isinstance(x, (dict, list))):
                stack.append(x)
    return False


_SCALARS = frozenset({str, int, float, bool, type(None)})


# What a _TEXT_FIELD match starts with, lower-cased. Under re.IGNORECASE each of these letters
# matches only its own ASCII upper and lower case, so a match can start only where the
# lower-cased text starts with one of them. ("cross" is cut to "cro": IGNORECASE also lets 's'
# match 'ſ', U+017F, which lower() leaves as it is.)
_STEMS = ("overall", "aggregate", "grand", "total", "cro")


def find_aggregate_fields_in_text(text: str) -> list[str]:
    """The distinct field-like tokens (_TEXT_FIELD) in `text`, sorted."""
    # Every generated page passes through here (megabytes in all), and _TEXT_FIELD, with a
    # lookbehind and IGNORECASE, is slow to try at every position. str.find on the lower-cased
    # text finds the few positions where a match could start; the regex is tried only there
    # (its lookbehind still sees the characters before the position).
    lower = text.lower()
    if len(lower) != len(text):  # a character lowered to several: positions would not line up
        return sorted({m.group(1) for m in _TEXT_FIELD.finditer(text)})
    return sorted(_matches(_TEXT_FIELD, text, lower, _STEMS))


def _matches(pattern, original, lower, starts) -> set:
    """The distinct group(1)s of `pattern`'s matches in `original`, tried only where one of
    `starts` occurs in `lower` (the same positions, lowered), in order, as finditer would find
    them: none inside the previous match. str or bytes alike."""
    at_all = []
    for start in starts:
        at = lower.find(start)
        while at != -1:
            at_all.append(at)
            at = lower.find(start, at + 1)
    found = set()
    end = 0
    for at in sorted(at_all):
        if at < end:
            continue  # inside the previous match: finditer's matches do not overlap
        m = pattern.match(original, at)
        if m:
            found.add(m.group(1))
            end = m.end()
    return found


# The same search in a file's UTF-8 bytes, for the writer process, which has the bytes and would
# otherwise decode every page it writes. In bytes, lower() lowers ASCII letters alone and "-"
# can be made "_" in place, so positions stay those of the bytes, and each token the pattern
# finds starts where one of five fixed strings does in the result: five searches in C, about
# half the time of the search of the decoded text (whose five stems are shorter, and whose
# characters take two bytes each once one is beyond Latin-1). Under re.IGNORECASE a text
# pattern also matches four characters beyond ASCII to ASCII letters (its character class
# [A-Za-z0-9_] too); a file holding any of them is searched as text. Every other character
# beyond ASCII, and every byte of one, matches no part of the pattern in either search, so the
# two find the same tokens (tests/test_hotspots.py compares them).
_TEXT_FIELD_BYTES = re.compile(_TEXT_FIELD.pattern.encode("ascii"), re.IGNORECASE)
_BYTE_STARTS = (b"overall_", b"aggregate_score", b"grand_mean", b"total_score", b"cross_domain_")
_FOLDED_TO_ASCII = tuple(c.encode("utf-8") for c in ("\u0130", "\u0131", "\u017f", "\u212a"))  # İ ı ſ, the Kelvin sign
_FOLDED_BYTES = (b"\xc4", b"\xc5", b"\xaa")  # a byte of each of them, looked for first: one byte is found fastest


def find_aggregate_fields_in_bytes(data: bytes) -> list[str]:
    """find_aggregate_fields_in_text of the text that `data` encodes in UTF-8 (a byte that is not
    UTF-8 read as U+FFFD)."""
    if any(b in data for b in _FOLDED_BYTES) and any(c in data for c in _FOLDED_TO_ASCII):
        return find_aggregate_fields_in_text(data.decode("utf-8", errors="replace"))
    lower = data.lower().replace(b"-", b"_")
    return sorted(m.decode("ascii") for m in _matches(_TEXT_FIELD_BYTES, data, lower, _BYTE_STARTS))
