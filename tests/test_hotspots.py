"""The three profiled hot spots, made faster, against the plain code they replaced.

Each reference below is a verbatim copy of the code before the optimisation; the new code must
agree with it exactly on many seeded random inputs and on the edge cases that an optimisation
could get wrong (ties, repeats, non-ASCII case mapping, overlaps, paths the fast path skips).
"""

from __future__ import annotations

import dataclasses

import posixpath
import random
import re

import pytest

from sitegen.aggregate import find_aggregate_fields_in_bytes, find_aggregate_fields_in_text
from sitegen.families.nextchapter import screen as screen_mod
from sitegen.families.nextchapter.screen import (MARKDOWN, PREAMBLE, REFUSAL, SEED, TERMINAL, Flags,
                                                 longest_copied_run, screen, words)
from sitegen.render import relative_url

# --------------------------------------------------------------------------- references


def ref_longest_copied_run(text: str, source: str) -> tuple[int, str]:
    a, b = words(text), words(source)
    where: dict[tuple[str, ...], list[int]] = {}
    for j in range(len(b) - SEED + 1):
        where.setdefault(tuple(b[j : j + SEED]), []).append(j)
    best, at = 0, 0
    for i in range(len(a) - SEED + 1):
        for j in where.get(tuple(a[i : i + SEED]), ()):
            if i and j and a[i - 1] == b[j - 1]:
                continue  # inside a run that started earlier
            k = SEED
            while i + k < len(a) and j + k < len(b) and a[i + k] == b[j + k]:
                k += 1
            if k > best:
                best, at = k, i
    if best == 0:  # no shared triple: the longest run is a shared pair, a shared word or nothing
        pairs = set(zip(b, b[1:]))
        i = next((i for i in range(len(a) - 1) if (a[i], a[i + 1]) in pairs), None)
        if i is not None:
            best, at = 2, i
        else:
            vocab = set(b)
            i = next((i for i, w in enumerate(a) if w in vocab), None)
            best, at = (1, i) if i is not None else (0, 0)
    return best, " ".join(a[at : at + best])


def ref_screen(text: str, source_chapter: str, author_chapter: str, threshold: int) -> Flags:
    run_src = ref_longest_copied_run(text, source_chapter)
    run_auth = ref_longest_copied_run(text, author_chapter)
    (n, passage), origin = max((run_src, "source chapter"), (run_auth, "author's chapter"), key=lambda x: x[0][0])
    head = text.lstrip().split("\n", 1)[0]
    return Flags(
        copied_words=n, copied_from=origin, copied_passage=passage, memorised=n >= threshold,
        refusal=bool(REFUSAL.match(text)), preamble=bool(PREAMBLE.match(head)),
        truncated=not TERMINAL.search(text), markdown=bool(MARKDOWN.search(text)),
    )


_REF_TEXT_FIELD = re.compile(
    r"(?<![A-Za-z0-9_])(overall[_-][A-Za-z0-9_]+|aggregate[_-]score|grand[_-]mean|total[_-]score|cross[_-]domain[_-][A-Za-z0-9_]+)(?![A-Za-z0-9_])",
    re.IGNORECASE,
)


def ref_find_aggregate_fields_in_text(text: str) -> list[str]:
    return sorted({m.group(1) for m in _REF_TEXT_FIELD.finditer(text)})


def ref_relative_url(target: str, from_page: str) -> str:
    path, _, frag = target.partition("#")
    rel = ""
    if path:
        rel = posixpath.relpath(path, posixpath.dirname(from_page) or ".")
        if path.endswith("/"):
            rel = "./" if rel == "." else rel + "/"
    return rel + (f"#{frag}" if frag else "")


# --------------------------------------------------------------------------- longest_copied_run

VOCAB = ["the", "The", "a", "cat", "sat", "on", "mat", "it's", "dog's", "café", "naïve", "STRASSE", "straße",
         "ſun", "İstanbul", "x1", "42", "and", "And"]
PUNCT = [" ", " ", " ", ", ", ". ", "; ", " — ", "\n", "! ", " \"", "' ", "’"]


def _prose(rng: random.Random, vocab: list[str], n: int) -> str:
    return "".join(rng.choice(vocab) + rng.choice(PUNCT) for _ in range(n))


def _spliced(rng: random.Random, source: str, vocab: list[str]) -> str:
    """A text that copies several pieces of `source` (some of equal length) among its own words."""
    src = source.split()
    parts = []
    for _ in range(rng.randrange(0, 6)):
        parts.append(_prose(rng, vocab, rng.randrange(0, 8)))
        if src:
            n = rng.choice([1, 2, 3, 4, 4, 5, 8])
            start = rng.randrange(len(src))
            piece = src[start : start + n]
            parts.append(" ".join(w.upper() if rng.random() < 0.2 else w for w in piece) + " ")
    return "".join(parts)


def check_run(text: str, source: str) -> None:
    assert longest_copied_run(text, source) == ref_longest_copied_run(text, source), (text, source)


@pytest.mark.parametrize("text,source", [
    ("", ""), ("", "a b c"), ("a b c", ""), ("a", "a"), ("a b", "b a"), ("a b", "a b"),
    ("one two three", "four five six"),                      # nothing shared
    ("x y z p q r", "p q r x y z"),                          # tie: the first run in the text wins
    ("p q r x y z", "x y z p q r"),
    ("a b c d a b c d", "a b c d"),                          # the same run twice in the text
    ("a b c d", "a b c d a b c d"),                          # twice in the source
    ("a a a a a a a", "a a a a"),                            # runs inside runs
    ("a a a a", "a a a a a a a"),
    ("The CAT sat, on the mat.", "the cat sat on the MAT"),  # case and punctuation are ignored
    ("it's a dog's life", "It’s a dog’s life indeed"),
    ("café naïve straße", "cafe naive strasse"),             # non-ASCII letters split words
    ("ſun İstanbul KELVIN", "sun istanbul kelvin"),
    ("u v w u v", "v u v w"),                                # a pair, no triple
    ("q r s", "s t q"),                                      # a single word
])
def test_screen_longest_copied_run_edge_cases(text, source):
    check_run(text, source)
    check_screen(text, source, "")


def check_screen(text: str, source: str, other: str) -> None:
    """screen() agrees with the reference on every flag; its copied passage is the reference's
    run as the text writes it: a stretch of the text whose words are the run's (where the text
    lines up with its lower case; otherwise the run's words themselves)."""
    got, want = screen(text, source, other, 4), ref_screen(text, source, other, 4)
    assert dataclasses.replace(got, copied_passage="") == dataclasses.replace(want, copied_passage="")
    if len(text.lower()) != len(text):
        assert got.copied_passage == want.copied_passage
    else:
        assert " ".join(screen_mod.words(got.copied_passage)) == want.copied_passage
        assert got.copied_passage in text


def test_screen_the_first_of_equally_long_runs_in_the_text_wins():
    # Both runs are three words long; the source has the later one first.
    assert longest_copied_run("a b c then x y z", "x y z and a b c") == (3, "a b c")
    assert longest_copied_run("a b then x y", "x y and a b") == (2, "a b")
    assert longest_copied_run("a then x", "x and a") == (1, "a")


@pytest.mark.parametrize("seed", range(12))
def test_screen_longest_copied_run_matches_the_reference_on_random_texts(seed):
    rng = random.Random(1000 + seed)
    vocab = rng.sample(VOCAB, rng.randrange(2, len(VOCAB)))  # small vocabularies: many repeats and ties
    # A few sources, each screened against many texts, as in a build (and past the memo's bound).
    sources = [_prose(rng, vocab, rng.randrange(0, 120)) for _ in range(40)] + [""]
    for _ in range(150):
        source = rng.choice(sources)
        text = _spliced(rng, source, vocab) if rng.random() < 0.7 else _prose(rng, vocab, rng.randrange(0, 80))
        check_run(text, source)
        other = rng.choice(sources)
        check_screen(text, source, other)


def test_screen_longest_copied_run_on_chapter_sized_texts():
    rng = random.Random(2024)
    vocab = [f"w{i}" for i in range(300)] + ["the", "and", "of", "a"] * 40
    sources = [_prose(rng, vocab, 2000) for _ in range(3)]
    for n in range(30):
        source = sources[n % 3]
        text = _spliced(rng, source, vocab) + _prose(rng, vocab, 1500)
        planted = source.split()[n * 20 : n * 20 + 10 + n]
        text += " ".join(planted) + " " + _prose(rng, vocab, 300)
        check_run(text, source)
        check_run(source, text)


def test_screen_the_memoised_source_index_is_not_changed_by_use():
    source = "a b c d e f a b c"
    before = screen_mod._source_index(source)
    snapshot = (before[0], {k: list(v) for k, v in before[1].items()})
    for text in ["a b c", "d e f a b", "x y", ""]:
        check_run(text, source)
    after = screen_mod._source_index(source)
    assert (after[0], after[1]) == snapshot


# --------------------------------------------------------------------------- find_aggregate_fields_in_text

AGG_PIECES = ["overall", "OVERALL", "Overall", "aggregate", "AGGREGATE", "score", "SCORE", "ſcore", "grand", "Grand",
              "mean", "total", "TOTAL", "cross", "croſs", "CROSS", "domain", "domaın", "DOMAIN", "cro", "tot", "over",
              "_", "_", "-", "-", "--", "x", "Z", "9", "0", " ", " ", "\n", "<td>", "</td>", "\"", "=", ".", ",",
              "é", "ß", "K", "ı", "ſ", "日本",
              # joined spellings, so that random texts often hold a field (or nearly one)
              "overall_", "Overall-", "aggregate_", "grand-", "total_", "TOTAL-", "cross_domain_", "croſs-", "domain_",
              "_score", "-mean", "_ſcore", "_x"]
LENGTH_CHANGING = ["İ", "ẞx"]  # "İ".lower() is two characters: the fallback path


@pytest.mark.parametrize("text", [
    "", "overall", "overall_", "overall_x", "_overall_x", "overall_x_", "1overall_x", "overall_x1", "xoverall_y",
    "OVERALL-Score", "overall-x-y", "aggregate_score", "aggregate-scores", "AGGREGATE_SCORE9", "grand_mean",
    "grand-mean-", "-grand-mean", "total_score", "total_ſcore", "total_SCORE_", "cross_domain_x", "croſs-domaın-y",
    "cross_domain_", "cross_domain", "overall-total-score", "total_score_total_score", "total_score-total_score",
    "grand_mean grand_mean GRAND_MEAN", "there is no overall score", "total score", "x_total_score",
    "İ overall_x", "overall_x İ", "İoverall_x", "ẞ total-score", "Kroſs_domain_x", "overall_K", "overall_ſ",
    "<td>overall_rank</td><td>total_score</td>", "café-overall_été", "9grand_mean", "grand_mean9",
])
def test_find_aggregate_fields_edge_cases(text):
    assert find_aggregate_fields_in_text(text) == ref_find_aggregate_fields_in_text(text)
    assert find_aggregate_fields_in_bytes(text.encode("utf-8")) == ref_find_aggregate_fields_in_text(text)


# bytes that are not UTF-8, each read as U+FFFD by the text search the writer's bytes search stands for
NOT_UTF8 = [b"\xff", b"\xc4", b"\xc5", b"\xaa", b"\xe2\x84", b"\x80"]


@pytest.mark.parametrize("seed", range(10))
def test_the_bytes_search_finds_what_the_text_search_finds(seed):
    """The writer searches each file's bytes (find_aggregate_fields_in_bytes), not its decoded
    text: the same tokens, whatever characters beyond ASCII, or bytes that are not UTF-8, lie
    around them."""
    rng = random.Random(3000 + seed)
    hits = 0
    for n in range(400):
        pieces = AGG_PIECES + LENGTH_CHANGING + ["\u212a", "ª", "’", "—"]
        data = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 60))).encode("utf-8")
        if n % 3 == 0:
            at = rng.randrange(len(data) + 1)
            data = data[:at] + rng.choice(NOT_UTF8) + data[at:]
        want = ref_find_aggregate_fields_in_text(data.decode("utf-8", errors="replace"))
        assert find_aggregate_fields_in_bytes(data) == want, data
        hits += bool(want)
    assert hits > 20


@pytest.mark.parametrize("seed", range(10))
def test_find_aggregate_fields_matches_the_reference_on_random_texts(seed):
    rng = random.Random(2000 + seed)
    hits = 0
    for n in range(400):
        pieces = AGG_PIECES + (LENGTH_CHANGING if n % 4 == 0 else [])
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 60)))
        want = ref_find_aggregate_fields_in_text(text)
        assert find_aggregate_fields_in_text(text) == want, text
        hits += bool(want)
    assert hits > 20  # the inputs do exercise matches, not only misses


def test_find_aggregate_fields_on_a_page_sized_text():
    rng = random.Random(31)
    filler = ["<p>", "</p>", "the total of ", "an overall view ", "cross-check ", "grandest ", "aggregated ",
              "Ünïcödé ", "data-x=\"1\" ", "\n"]
    fields = ["overall_rank", "Total-Score", "aggregate_score", "grand_mean", "cross_domain_mean", "x_total_score"]
    text = "".join(rng.choice(filler) if rng.random() < 0.97 else rng.choice(fields) for _ in range(50_000))
    assert find_aggregate_fields_in_text(text) == ref_find_aggregate_fields_in_text(text)
    assert find_aggregate_fields_in_text(text + "İ") == ref_find_aggregate_fields_in_text(text + "İ")
    for page in (text, text + "İ", text + "\u212a"):
        assert find_aggregate_fields_in_bytes(page.encode("utf-8")) == ref_find_aggregate_fields_in_text(page)


# --------------------------------------------------------------------------- relative_url

PARTS = ["a", "b", "c", "index.html", "x.y", "", ".", "..", "a..b", "é", "sub dir"]


def _path(rng: random.Random) -> str:
    path = "/".join(rng.choice(PARTS) for _ in range(rng.randrange(0, 5)))
    if rng.random() < 0.1:
        path = "/" + path
    if rng.random() < 0.3:
        path += "/"
    return path


def _page(rng: random.Random) -> str:
    return "/".join(rng.choice(["a", "b", "c", "d", ".", "", "..", "é"]) for _ in range(rng.randrange(0, 4))) \
        + rng.choice(["index.html", "/index.html", "page.html", "", "/"])


@pytest.mark.parametrize("target,page", [
    ("", "index.html"), ("#top", "a/b/index.html"), ("./", "index.html"), ("./", "a/b/index.html"),
    ("a/", "a/index.html"), ("a/", "a/b/index.html"), ("a/b/c.csv", "a/b/index.html"), ("a/b/c.csv#x", "index.html"),
    ("assets/site.css", "canonic/ladders/movie-scene-27/index.html"), ("manifest.json", ""), ("a", "a"),
    ("a//b/", "a/./b/index.html"), ("/abs/x", "a/index.html"), ("a/../b", "c/index.html"), ("a", "../x/index.html"),
    ("a#b#c", "x/y.html"), ("a/b", "a/b/"), (".", "index.html"), ("./a/./b/", "a/index.html"),
])
def test_render_relative_url_edge_cases(target, page):
    assert relative_url(target, page) == ref_relative_url(target, page)


@pytest.mark.parametrize("cwd", ["repo", "/"])
def test_render_relative_url_matches_the_reference_on_random_paths(cwd, monkeypatch, tmp_path):
    # posixpath.relpath reads the working directory; the fast path must not depend on it.
    monkeypatch.chdir(tmp_path if cwd == "repo" else "/")
    rng = random.Random(3000)
    for _ in range(5000):
        target = _path(rng) + (f"#{rng.choice(['', 'x', 'a#b'])}" if rng.random() < 0.2 else "")
        page = _page(rng)
        assert relative_url(target, page) == ref_relative_url(target, page), (target, page)
