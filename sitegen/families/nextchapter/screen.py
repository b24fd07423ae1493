"""The mechanical memorisation screen, kept apart from the judge: the longest run of consecutive
words a chapter copies verbatim from another text, and the flags for refusals, preambles,
truncation and stray markdown.

Words are compared case-insensitively with punctuation stripped, so a copied sentence is found
however it was re-punctuated.

>>> longest_copied_run("It was a truth universally acknowledged, that a single man", "a truth universally acknowledged that")[0]
5
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress, count, islice

_WORD = re.compile(r"[0-9a-z]+(?:['’][0-9a-z]+)*")

# A refusal returned as text opens with it (a chapter that opens with dialogue opens with a quote mark).
REFUSAL = re.compile(r"^\s*(I'm sorry|I am sorry|I can(?:no|'|’)t|I won't|I will not|I'm unable|I am unable|As an AI)\b", re.IGNORECASE)
PREAMBLE = re.compile(r"^\s*(certainly|sure|of course|here is|here's|below is|absolutely)\b", re.IGNORECASE)
MARKDOWN = re.compile(r"^\s*(#{1,6}\s|```|\*\*\S)|\*\*[^*\n]+\*\*", re.MULTILINE)
TERMINAL = re.compile(r"[.!?…][\"'”’)\]]*\s*$")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


SEED = 3  # runs are grown from shared word triples; shorter runs are found by set intersection


@lru_cache(maxsize=32)
def _source_index(source: str) -> tuple[tuple[str, ...], dict[tuple[str, str, str], list[int]]]:
    """The words of `source` and where each word triple starts, in ascending order.

    Memoised because several models continue the same source chapter (and are checked against
    the same author's chapter), so one source is screened against many texts. Bounded: an entry
    is a few hundred kB for a chapter of a few thousand words. The result is shared: callers
    must not mutate it.
    """
    b = tuple(words(source))
    where: dict[tuple[str, str, str], list[int]] = {}
    for j, triple in enumerate(zip(b, b[1:], b[2:])):
        where.setdefault(triple, []).append(j)
    return b, where


def longest_copied_run(text: str, source: str) -> tuple[int, str]:
    """(length in words, the copied words) of the longest run of `text` found verbatim in `source`.
    Of equally long runs, the one that comes first in `text` is returned.

    A run of three or more words starts at a shared word triple whose preceding words differ
    (the start of a maximal run), so each start is extended once. Seeding on triples, not
    single words, keeps common words ("the", "and") from pairing every occurrence with every
    other: the work is about the number of shared triples, small for two different chapters.
    The source's words and triples are indexed once and memoised, since many texts continue
    the same source.
    """
    return _longest_run(tuple(words(text)), source)


def _longest_run(a: tuple[str, ...], source: str) -> tuple[int, str]:
    """longest_copied_run() for the words `a` of a text (screen() splits its text once for two sources)."""
    best, at = _longest_at(a, source)
    return best, " ".join(a[at : at + best])


def _longest_at(a: tuple[str, ...], source: str) -> tuple[int, int]:
    """(length, where in `a` it starts) of the longest run of `a` found in `source`."""
    b, where = _source_index(source)
    # Where the text has a triple the source also has, found in C (zip, map, compress, with no
    # Python bytecode per word): two different chapters share few triples, so the Python loop
    # below visits only those positions, not every word of the text.
    starts = list(compress(count(), map(where.__contains__, zip(a, a[1:], a[2:]))))
    best, at = 0, 0
    if starts:
        la, lb = len(a), len(b)
        # i ascending, then j ascending, replacing only on a strictly longer run: the first
        # maximal run in `text` order wins a tie.
        for i in starts:
            for j in where[a[i : i + SEED]]:
                if i and j and a[i - 1] == b[j - 1]:
                    continue  # inside a run that started earlier
                # Common triples ("of the house") pair up often: a run can beat `best` only if
                # it reaches word best + 1, so check that word, then the whole stretch (in C),
                # before extending word by word.
                if best >= SEED:
                    if not (i + best < la and j + best < lb and a[i + best] == b[j + best]
                            and a[i : i + best] == b[j : j + best]):
                        continue
                    k = best + 1
                else:
                    k = SEED
                while i + k < la and j + k < lb and a[i + k] == b[j + k]:
                    k += 1
                if k > best:
                    best, at = k, i
    else:  # no shared triple: the longest run is a shared pair, a shared word or nothing
        pairs = set(zip(b, b[1:]))
        i = next((i for i in range(len(a) - 1) if (a[i], a[i + 1]) in pairs), None)
        if i is not None:
            best, at = 2, i
        else:
            vocab = set(b)
            i = next((i for i, w in enumerate(a) if w in vocab), None)
            best, at = (1, i) if i is not None else (0, 0)
    return best, at


@dataclass(frozen=True)
class Flags:
    copied_words: int
    copied_from: str  # "source chapter" or "author's chapter"
    copied_passage: str  # as the chapter writes it (its case and punctuation)
    memorised: bool
    refusal: bool
    preamble: bool
    truncated: bool
    markdown: bool

    @property
    def any(self) -> bool:
        return self.memorised or self.refusal or self.preamble or self.truncated or self.markdown


def as_written(text: str, at: int, n: int, passage: str) -> str:
    """Words at..at+n-1 of `text` (as words() counts them) as the chapter writes them, from the
    first word's first letter to the last word's last: its case and punctuation kept. `passage`
    (those words as words() reads them) when the text cannot be lined up with its lower case
    (a letter that lower-cases to two)."""
    lower = text.lower()
    if n == 0 or len(lower) != len(text):
        return passage
    found = list(islice(_WORD.finditer(lower), at, at + n))  # skipped in C: no Python step per word
    return text[found[0].start() : found[-1].end()] if len(found) == n else passage


def screen(text: str, source_chapter: str, author_chapter: str, threshold: int) -> Flags:
    a = tuple(words(text))  # split once, screened against both chapters
    run_src = _longest_at(a, source_chapter)
    run_auth = _longest_at(a, author_chapter)
    (n, at), origin = max((run_src, "source chapter"), (run_auth, "author's chapter"), key=lambda x: x[0][0])
    head = text.lstrip().split("\n", 1)[0]
    return Flags(
        copied_words=n, copied_from=origin, copied_passage=as_written(text, at, n, " ".join(a[at : at + n])), memorised=n >= threshold,
        refusal=bool(REFUSAL.match(text)), preamble=bool(PREAMBLE.match(head)),
        truncated=not TERMINAL.search(text), markdown=bool(MARKDOWN.search(text)),
    )
