"""The mechanical memorisation screen, kept apart from the judge: the longest run of consecutive
words a chapter copies verbatim from another text, and the flags for refusals, preambles,
truncation and stray markdown.

Words are compared case-insensitively with punctuation stripped, so a copied sentence is found
however it was re-punctuated. The longest common run is found by binary search on its length
with rolling hashes of word windows (every hash hit is confirmed word by word), in time about
proportional to the texts' length times log of it.

>>> longest_copied_run("It was a truth universally acknowledged, that a single man", "a truth universally acknowledged that")[0]
5
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WORD = re.compile(r"[0-9a-z]+(?:['’][0-9a-z]+)*")
_MOD = (1 << 61) - 1
_BASE = 1_000_003

REFUSAL = re.compile(r"\b(I can(?:no|')t|I won't|I will not|I'm unable|I am unable|as an AI)\b", re.IGNORECASE)
PREAMBLE = re.compile(r"^\s*(certainly|sure|of course|here is|here's|below is|absolutely)\b", re.IGNORECASE)
MARKDOWN = re.compile(r"^\s*(#{1,6}\s|```|\*\*\S)|\*\*[^*\n]+\*\*", re.MULTILINE)
TERMINAL = re.compile(r"[.!?…][\"'”’)\]]*\s*$")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _window_hashes(ids: list[int], k: int) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    if k > len(ids):
        return out
    top = pow(_BASE, k - 1, _MOD)
    h = 0
    for i in range(k):
        h = (h * _BASE + ids[i]) % _MOD
    out.setdefault(h, []).append(0)
    for i in range(k, len(ids)):
        h = ((h - ids[i - k] * top) * _BASE + ids[i]) % _MOD
        out.setdefault(h, []).append(i - k + 1)
    return out


def _common_at(a: list[int], b: list[int], k: int) -> int | None:
    """Start (in a) of some run of k words that also occurs in b, or None."""
    if k == 0:
        return 0
    hb = _window_hashes(b, k)
    for h, starts in _window_hashes(a, k).items():
        for j in hb.get(h, ()):
            for i in starts:
                if a[i : i + k] == b[j : j + k]:
                    return i
    return None


def longest_copied_run(text: str, source: str) -> tuple[int, str]:
    """(length in words, the copied words) of the longest run of `text` found verbatim in `source`."""
    tw, sw = words(text), words(source)
    vocab: dict[str, int] = {}
    a = [vocab.setdefault(w, len(vocab) + 1) for w in tw]
    b = [vocab.setdefault(w, len(vocab) + 1) for w in sw]
    lo, hi, at = 0, min(len(a), len(b)), 0
    while lo < hi:  # the largest k with a common run of k words
        mid = (lo + hi + 1) // 2
        start = _common_at(a, b, mid)
        if start is None:
            hi = mid - 1
        else:
            lo, at = mid, start
    return lo, " ".join(tw[at : at + lo])


@dataclass(frozen=True)
class Flags:
    copied_words: int
    copied_from: str  # "source chapter" or "author's chapter"
    copied_passage: str
    memorised: bool
    refusal: bool
    preamble: bool
    truncated: bool
    markdown: bool

    @property
    def any(self) -> bool:
        return self.memorised or self.refusal or self.preamble or self.truncated or self.markdown


def screen(text: str, source_chapter: str, author_chapter: str, threshold: int) -> Flags:
    run_src = longest_copied_run(text, source_chapter)
    run_auth = longest_copied_run(text, author_chapter)
    (n, passage), origin = max((run_src, "source chapter"), (run_auth, "author's chapter"), key=lambda x: x[0][0])
    head = text.lstrip().split("\n", 1)[0]
    return Flags(
        copied_words=n, copied_from=origin, copied_passage=passage, memorised=n >= threshold,
        refusal=bool(REFUSAL.search(text[:600])), preamble=bool(PREAMBLE.match(head)),
        truncated=not TERMINAL.search(text), markdown=bool(MARKDOWN.search(text)),
    )
