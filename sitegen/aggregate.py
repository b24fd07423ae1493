"""The no-overall-score rule, in one place.

Canonic's protocol forbids any cross-domain aggregate. The rule is enforced at three
doors: artifact intake (a key at any depth), every data download the site writes, and
every generated page (a field-like token in the text). Prose may say "there is no overall
score"; what it may never carry is a field that could hold one.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

_EXACT = {"aggregate", "aggregatescore", "grandmean", "totalscore", "overall"}
_PREFIXES = ("overall", "crossdomain", "grandmean")

# Field-like spellings in generated text: an identifier with an underscore or a hyphen.
_TEXT_FIELD = re.compile(
    r"(?<![A-Za-z0-9_])(overall[_-][A-Za-z0-9_]+|aggregate[_-]score|grand[_-]mean|total[_-]score|cross[_-]domain[_-][A-Za-z0-9_]+)(?![A-Za-z0-9_])",
    re.IGNORECASE,
)


def is_aggregate_key(key: str) -> bool:
    norm = re.sub(r"[^a-z0-9]", "", key.lower())
    return norm in _EXACT or norm.startswith(_PREFIXES)


def find_aggregate_keys(value: Any, loc: tuple = ()) -> Iterator[tuple]:
    """Yield the location of every key in a JSON value that could hold a cross-domain aggregate."""
    if isinstance(value, dict):
        for k, v in value.items():
            if is_aggregate_key(str(k)):
                yield loc + (k,)
            yield from find_aggregate_keys(v, loc + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from find_aggregate_keys(v, loc + (i,))


def find_aggregate_fields_in_text(text: str) -> list[str]:
    return sorted({m.group(1) for m in _TEXT_FIELD.finditer(text)})
