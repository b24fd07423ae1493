"""Rank ranges: the pairwise rule (sitegen.stats.rank_ranges), its properties, and every ranked
table of the built demo site read back from its download and its page.

The rule: best = 1 + the number of rows whose interval lies wholly above this row's (their low
> this high); worst = the number of rows whose interval reaches this row's low (their high >=
this low), itself included. Intervals are closed: touching counts as overlap.
"""

from __future__ import annotations

import doctest
import html
import itertools
import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen import stats
from sitegen.render import row_ids
from sitegen.stats import Interval, percentile_bootstrap, rank_example, rank_ranges

from test_site import page, read_csv


def iv(key, low, high):
    return Interval(key, float(low), float(high))


def overlap(a: Interval, b: Interval) -> bool:
    return a.low <= b.high and b.low <= a.high


def brute_force(ivs: list[Interval]) -> dict[str, tuple[int, int]]:
    return {a.key: (1 + sum(b.low > a.high for b in ivs), sum(b.high >= a.low for b in ivs)) for a in ivs}


@st.composite
def interval_sets(draw):
    """Intervals on a small grid, so that touching ends and identical intervals are common;
    each with a point score inside it."""
    n = draw(st.integers(min_value=0, max_value=12))
    ivs, scores = [], {}
    for k in range(n):
        a = draw(st.integers(min_value=0, max_value=30))
        w = draw(st.integers(min_value=0, max_value=8))
        key = f"m{k:02d}"
        ivs.append(Interval(key, float(a), float(a + w)))
        scores[key] = float(a + draw(st.integers(min_value=0, max_value=w)))
    return ivs, scores


# --------------------------------------------------------------------------- the rule


def test_a_wide_interval_does_not_chain_the_field_together():
    # the shape: one wide row overlaps both a high row and a low row that do not overlap
    ranks = rank_ranges([iv("top", 72.5, 74.2), iv("wide", 52.0, 73.0), iv("low", 52.7, 59.3)])
    assert ranks == {"top": (1, 2), "wide": (1, 3), "low": (2, 3)}
    # a row wholly below the wide one alone ranks after both of the others
    assert rank_ranges([iv("top", 72.5, 74.2), iv("wide", 60.0, 73.0), iv("low", 52.7, 59.3)])["low"] == (3, 3)


def test_the_examples_in_the_docstrings_hold():
    result = doctest.testmod(stats)
    assert result.attempted >= 3 and result.failed == 0


def test_touching_intervals_overlap_and_a_point_on_an_end_touches():
    assert rank_ranges([iv("a", 50, 60), iv("b", 40, 50)]) == {"a": (1, 2), "b": (1, 2)}
    assert rank_ranges([iv("a", 50, 60), iv("b", 60, 60), iv("c", 30, 49.999)]) == {"a": (1, 2), "b": (1, 2), "c": (3, 3)}


def test_disjoint_intervals_get_single_ranks_from_the_top_whatever_the_input_order():
    ivs = [iv("a", 0, 1), iv("b", 2, 3), iv("c", 4, 5), iv("d", 6, 7)]
    for perm in itertools.permutations(ivs):
        assert rank_ranges(list(perm)) == {"d": (1, 1), "c": (2, 2), "b": (3, 3), "a": (4, 4)}


def test_no_rows_no_ranks():
    assert rank_ranges([]) == {}
    assert rank_example([]) is None


@given(interval_sets())
@settings(max_examples=300, deadline=None)
def test_rank_ranges_equal_the_rule_counted_pair_by_pair(case):
    ivs, _ = case
    assert rank_ranges(ivs) == brute_force(ivs)


@given(interval_sets())
@settings(max_examples=300, deadline=None)
def test_properties_of_the_ranges(case):
    ivs, scores = case
    ranks = rank_ranges(ivs)
    n = len(ivs)
    for a in ivs:
        best, worst = ranks[a.key]
        assert 1 <= best <= worst <= n
    for a, b in itertools.permutations(ivs, 2):
        (ab, aw), (bb, bw) = ranks[a.key], ranks[b.key]
        if overlap(a, b):
            # overlapping rows are not ordered: their ranges overlap
            assert ab <= bw and bb <= aw, (a, b)
        if a.low > b.high:
            # a row wholly above another ranks ahead of it at both ends
            assert ab < bb and aw < bw, (a, b)
            # and their ranges are disjoint unless a third interval spans the gap between them
            if not any(c.low <= b.high and c.high >= a.low for c in ivs if c not in (a, b)):
                assert aw < bb, (a, b)
    # with each score inside its interval, a row's place in score order lies in its range
    order = sorted(ivs, key=lambda x: (-scores[x.key], x.key))
    for place, a in enumerate(order, start=1):
        assert ranks[a.key][0] <= place <= ranks[a.key][1], (a, place)
    # the rows whose range starts at 1 overlap pairwise: "tied for first" is true of them
    first = [a for a in ivs if ranks[a.key][0] == 1]
    assert all(overlap(a, b) for a, b in itertools.combinations(first, 2))
    assert (len(first) == 0) == (n == 0)


@given(interval_sets())
@settings(max_examples=200, deadline=None)
def test_the_worked_example_lists_the_intervals_that_fix_its_range(case):
    ivs, _ = case
    ex = rank_example(ivs)
    if not ivs:
        return
    assert (ex.rank_best, ex.rank_worst) == rank_ranges(ivs)[ex.row.key]
    assert all(o.low > ex.row.high for o in ex.above) and ex.row in ex.reaching
    assert all(o.high >= ex.row.low for o in ex.reaching)


def test_the_median_bootstrap_is_the_published_recipe():
    words = np.array([8984, 40830, 21000, 28301, 30000, 12000], dtype=np.float64)
    seed = 20260821
    idx = np.random.default_rng(seed).integers(0, len(words), size=(10000, len(words)))
    want = np.percentile(np.median(words[idx], axis=1), [2.5, 97.5])
    assert percentile_bootstrap(words, seed, statistic=np.median) == (float(want[0]), float(want[1]))


# --------------------------------------------------------------------------- the built site


def ranked_tables() -> dict[str, dict]:
    """Every ranked table of the demo by its CSV download, with the page that shows it and the
    columns the rule reads: id, name, score, interval, and which rows are ranked."""
    def table(page, id_, name, score, low, high, ranked):
        return {"page": page, "id": id_, "name": name, "score": score, "low": low, "high": high, "ranked": ranked}

    tables = {f"canonic/{d}/board.csv": table(f"canonic/{d}/index.html", "model", "model_name", "score", "ci_low", "ci_high",
                                               lambda r: r["status"] == "published")
              for d in ("book-opening", "meme-caption", "movie-scene", "sitcom-scene", "song-lyrics", "standup-set")}
    for board in ("system", "sustained"):
        tables[f"chronicle/boards/{board}.csv"] = table(f"chronicle/boards/{board}/index.html", "entrant", "name", "score",
                                                        "ci_low", "ci_high", lambda r: r["score"] != "")
    tables["chronicle/boards/voluntary.csv"] = table("chronicle/boards/voluntary/index.html", "entrant", "name", "median_words",
                                                     "median_low", "median_high", lambda r: r["median_words"] != "")
    tables["nextchapter/standings.csv"] = table("nextchapter/index.html", "model", "name", "craft", "craft_low", "craft_high",
                                                lambda r: r["shown_as"] == "headline")
    for board in ("ghost-story", "heist", "first-contact", "family-dinner", "fable", "noir", "love-letter", "monologue"):
        tables[f"vignette/boards/{board}/board.csv"] = table(f"vignette/boards/{board}/index.html", "model", "name", "score",
                                                             "low", "high", lambda r: r["published"] == "True")
    tables["vignette/pairwise/head-to-head/board.csv"] = table("vignette/pairwise/head-to-head/index.html", "model", "name", "rating",
                                                               "low", "high", lambda r: r["part"] == "0")
    return tables


TABLES = ranked_tables()


def read_rows(out: Path, rel: str) -> list[dict]:
    """A ranked table's rows in file order, one per entrant: in the standings a model's first
    row, its headline where it has one (the settings beneath it are variants, never ranked)."""
    return one_per_entrant(rel, read_csv(out / rel)[1])


def one_per_entrant(rel: str, rows: list[dict]) -> list[dict]:
    """The standings list a model's settings beneath its headline; the table shows one row each."""
    if rel != "nextchapter/standings.csv":
        return rows
    first: dict[str, dict] = {}
    for r in rows:
        first.setdefault(r["model"], r)
    return list(first.values())


def read_ranked(out: Path, rel: str) -> list[dict]:
    return [r for r in read_rows(out, rel) if TABLES[rel]["ranked"](r)]


def interval(t: dict, r: dict) -> Interval:
    return Interval(r[t["id"]], float(r[t["low"]]), float(r[t["high"]]))


def shown_range(r: dict) -> str:
    return r["rank_best"] if r["rank_best"] == r["rank_worst"] else f"{r['rank_best']}–{r['rank_worst']}"


def test_every_ranked_download_is_in_score_order_with_the_pairwise_ranks(built_site):
    for rel, t in TABLES.items():
        rows = read_rows(built_site.out, rel)
        ranked = [r for r in rows if t["ranked"](r)]
        assert ranked, rel
        # ranked rows first, by score then id; the rest after them, with no rank
        assert rows[:len(ranked)] == ranked, rel
        keys = [(-float(r[t["score"]]), r[t["id"]]) for r in ranked]
        assert keys == sorted(keys), rel
        assert all(r["rank_best"] == r["rank_worst"] == "" for r in rows[len(ranked):]), rel
        # the ranks are the pairwise rule on the download's own interval columns
        ivs = [interval(t, r) for r in ranked]
        want = brute_force(ivs)
        assert {r[t["id"]]: (int(r["rank_best"]), int(r["rank_worst"])) for r in ranked} == want, rel
        for a, b in itertools.permutations(ivs, 2):
            (ab, aw), (bb, bw) = want[a.key], want[b.key]
            if overlap(a, b):
                assert ab <= bw and bb <= aw, (rel, a, b)
            if a.low > b.high:  # no chain of overlaps puts a row level with one wholly above it
                assert ab < bb and aw < bw, (rel, a, b)


def test_every_ranked_json_download_carries_the_csvs_ranks(built_site):
    for rel in TABLES:
        _, rows = read_csv(built_site.out / rel)
        doc = json.loads((built_site.out / rel).with_suffix(".json").read_text(encoding="utf-8"))
        assert [(j["rank_best"], j["rank_worst"]) for j in doc["rows"]] == [
            (int(r["rank_best"]) if r["rank_best"] else None, int(r["rank_worst"]) if r["rank_worst"] else None) for r in rows], rel


def test_the_standings_bands_are_craft_minus_and_plus_its_standard_error(built_site):
    _, rows = read_csv(built_site.out / "nextchapter/standings.csv")
    judged = [r for r in rows if r["craft"]]
    assert judged
    for r in judged:
        craft, se = float(r["craft"]), float(r["craft_se"])
        assert (float(r["craft_low"]), float(r["craft_high"])) == (craft - se, craft + se), r["model"]


def test_every_ranked_page_shows_the_range_of_its_download_in_its_order(built_site):
    for rel, t in TABLES.items():
        rows = read_rows(built_site.out, rel)
        ids = row_ids("row", [r[t["id"]] for r in rows])
        _, shown = page(built_site.out, t["page"])
        cells = {row["attrs"]["id"]: row["cells"] for row in shown.board_rows}
        assert list(cells) == [ids[r[t["id"]]] for r in rows], t["page"]
        for r in rows:
            assert cells[ids[r[t["id"]]]][0] == (shown_range(r) if t["ranked"](r) else "–"), (t["page"], r[t["id"]])


_TIED_LIST = re.compile(r"\btied(?: for first)?: (.+)$", re.I)


def page_fragments(text: str) -> list[str]:
    """The words of a page a reader meets, as fragments cut at tags and at full stops: the text
    and the text alternatives (aria-label, alt, title)."""
    attrs = re.findall(r'\b(?:aria-label|alt|title)="([^"]*)"', text)
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S)
    chunks = [html.unescape(a) for a in attrs] + [html.unescape(re.sub(r"<[^>]+>", "|", body))]
    return [" ".join(f.split()).removesuffix(".") for c in chunks for f in re.split(r"\||\.\s", c) if f.strip()]


def test_no_page_calls_rows_tied_unless_their_intervals_overlap(built_site):
    """Every fragment that names rows as tied names exactly the rows that may rank first on one
    of its family's ranked tables (any family's, on the site's own pages), every two of which
    overlap; any other use of the word names no row."""
    out = built_site.out
    firsts: dict[str, list[dict[str, Interval]]] = {}  # family -> per table, the rows whose range starts at 1
    names: set[str] = set()
    for rel, t in TABLES.items():
        ranked = read_ranked(out, rel)
        names |= {r[t["name"]] for r in ranked}
        firsts.setdefault(rel.split("/")[0], []).append({r[t["name"]]: interval(t, r) for r in ranked if r["rank_best"] == "1"})
    seen = 0
    everyone = [first for tables in firsts.values() for first in tables]
    for path in sorted(out.rglob("*.html")):
        family = path.relative_to(out).parts[0]
        candidates = firsts.get(family, everyone)  # the site's own pages (its home) speak of every family
        for frag in page_fragments(path.read_text(encoding="utf-8")):
            if not re.search(r"\btied\b", frag, re.I):
                continue
            m = _TIED_LIST.search(frag)
            if m is None:
                assert not any(re.search(rf"\b{re.escape(n)}\b", frag) for n in names), (path, frag)  # a rule, naming no row
                continue
            seen += 1
            named = sorted(x.strip() for x in m.group(1).split(","))
            assert len(named) > 1, (path, frag)  # one row alone is first, not tied
            matches = [first for first in candidates if sorted(first) == named]
            assert matches, (path, frag)
            for first in matches:
                assert all(overlap(a, b) for a, b in itertools.combinations(first.values(), 2)), (path, frag)
    assert seen >= 15  # the Canonic home and its figure panels, ChronicleBench's overview, the standings


def test_the_overviews_name_the_rows_tied_for_first_on_each_board(built_site):
    out = built_site.out
    _, home = page(out, "chronicle/index.html")
    _, overview = read_csv(out / "chronicle/boards-overview.csv")
    for b in overview:
        rel = f"chronicle/boards/{b['board']}.csv"
        first = [r["name"] for r in read_ranked(out, rel) if r["rank_best"] == "1"]
        assert b["top"] == "; ".join(first), b["board"]
        (cell,) = [r[3] for r in home.all_rows if len(r) == 4 and r[0] == f"{b['number']}. {b['title']}"]
        ranked = [r for r in read_ranked(out, rel) if r["rank_best"]]
        if len(ranked) == 1:  # ranked against nothing: named as the only one, never as first
            alone = "the only entrant tested: no competitor" if int(b["entrants"]) == 1 else "the only one ranked"
            assert cell == f"{first[0]} ({alone})", cell
            continue
        assert cell.startswith("tied: ") == (len(first) > 1), cell
        assert [x.strip() for x in cell.removeprefix("tied: ").split(",")] == first, cell
    first = [r["name"] for r in read_ranked(out, "nextchapter/standings.csv") if r["rank_best"] == "1"]
    text, _ = page(out, "nextchapter/index.html")
    lede = html.unescape(re.sub(r"<[^>]+>", "", re.search(r'<p class="lede">(.*?)</p>', text, re.S).group(1)))
    assert (f"Tied for first: {', '.join(first)}." if len(first) > 1 else f"First: {first[0]},") in lede


@pytest.mark.parametrize("rel, rows", [("canonic/method/index.html", "canonic/book-opening/board.csv"),
                                       ("nextchapter/method/index.html", "nextchapter/standings.csv"),
                                       ("chronicle/boards/sustained/index.html", "chronicle/boards/sustained.csv"),
                                       ("chronicle/boards/voluntary/index.html", "chronicle/boards/voluntary.csv")])
def test_the_rule_is_worked_through_a_row_of_the_data(built_site, rel, rows):
    out, t = built_site.out, TABLES[rows]
    ranked = read_ranked(out, rows)
    worked = re.search(r'<p class="worked">(.*?)</p>', (out / rel).read_text(encoding="utf-8"), re.S)
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", "", worked.group(1))).split())
    (row,) = [r for r in ranked if f" of {r[t['name']]} runs from " in text]
    me = interval(t, row)
    above = [r[t["name"]] for r in ranked if float(r[t["low"]]) > me.high]
    reaching = [r[t["name"]] for r in ranked if float(r[t["high"]]) >= me.low]
    assert f"so its best rank is 1 + {len(above)} = {row['rank_best']}" in text, text
    assert f"{len(reaching)} in all, so its worst rank is {row['rank_worst']}" in text, text
    assert all(n in text for n in above + reaching), text
    assert f"It ranks {shown_range(row)}." in text, text
