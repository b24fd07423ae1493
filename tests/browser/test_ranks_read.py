"""Rank ranges as a reader meets them in Chromium: on every ranked table, the ranks shown are the
pairwise rule applied to the table's own download (fetched from the link beside it), the rows run
in score order, and no text on a page, visible or read aloud, calls rows tied when their
intervals do not overlap."""

from __future__ import annotations

import csv
import io
import itertools
import re

from test_ranks import TABLES, brute_force, interval, one_per_entrant, overlap, shown_range

from .conftest import visit

# The board table of a page, as the reader sees it: each body row's id, its first cell (the rank)
# and its row header's first line (the name).
# The rows a reader sees on arrival (a model's other settings are rows shown only on request).
BOARD_ROWS = r"""() => [...document.querySelectorAll("table.board tbody tr")].filter(tr => tr.getClientRects().length).map(tr => ({
  id: tr.id,
  rank: tr.cells[0].innerText.trim(),
  name: tr.querySelector("th").innerText.split("\n")[0].trim(),
}))"""

# What a page says: its visible text cut into sentences, and every accessible name it gives
# (the figures' text alternatives among them).
PAGE_WORDS = r"""() => [document.body.innerText,
  ...[...document.querySelectorAll("[aria-label]")].map(el => el.getAttribute("aria-label"))]"""

_TIED_LIST = re.compile(r"\btied(?: for first)?: (.+)$", re.I)
FAMILY_HOMES = ["canonic/index.html", "chronicle/index.html", "nextchapter/index.html", "index.html"]


def download(page, rel_csv: str) -> list[dict]:
    """The table's CSV, fetched through the link the page puts beside it."""
    link = page.locator(f'a[href$="{rel_csv.rsplit("/", 1)[1]}"]').first
    url = link.evaluate("a => a.href")
    response = page.request.get(url)
    assert response.status == 200, url
    return list(csv.DictReader(io.StringIO(response.text())))


def test_every_ranked_table_shows_the_pairwise_ranks_of_its_download_in_score_order(new_page, site_server):
    page = new_page(1280)
    for rel, t in TABLES.items():
        visit(page, site_server.url(t["page"]))
        rows = one_per_entrant(rel, download(page, rel))
        ranked = [r for r in rows if t["ranked"](r)]
        assert ranked and rows[:len(ranked)] == ranked, rel  # ranked rows first, the rest after
        keys = [(-float(r[t["score"]]), r[t["id"]]) for r in ranked]
        assert keys == sorted(keys), rel  # by score
        ivs = [interval(t, r) for r in ranked]
        want = brute_force(ivs)
        assert {r[t["id"]]: (int(r["rank_best"]), int(r["rank_worst"])) for r in ranked} == want, rel
        for a, b in itertools.permutations(ivs, 2):
            (ab, aw), (bb, bw) = want[a.key], want[b.key]
            if overlap(a, b):  # a tie is never ordered
                assert ab <= bw and bb <= aw, (rel, a, b)
            if a.low > b.high:  # and no chain of overlaps puts a row level with one wholly above it
                assert ab < bb and aw < bw, (rel, a, b)
        shown = page.evaluate(BOARD_ROWS)
        assert [s["name"] for s in shown] == [r[t["name"]] for r in rows], rel
        assert [s["rank"] for s in shown] == [shown_range(r) if t["ranked"](r) else "–" for r in rows], rel


def test_no_page_a_reader_opens_calls_rows_tied_unless_their_intervals_overlap(new_page, site_server):
    page = new_page(1280)
    firsts: dict[str, list[dict]] = {}  # family -> per ranked table, the rows that may rank first
    names: set[str] = set()
    for rel, t in TABLES.items():
        visit(page, site_server.url(t["page"]))
        ranked = [r for r in one_per_entrant(rel, download(page, rel)) if t["ranked"](r)]
        names |= {r[t["name"]] for r in ranked}
        firsts.setdefault(rel.split("/")[0], []).append({r[t["name"]]: interval(t, r) for r in ranked if r["rank_best"] == "1"})
    everyone = [f for tables in firsts.values() for f in tables]
    claims = 0
    for rel in sorted({t["page"] for t in TABLES.values()} | set(FAMILY_HOMES)):
        visit(page, site_server.url(rel))
        family = rel.split("/")[0] if "/" in rel else None
        candidates = firsts.get(family, everyone)
        for text in page.evaluate(PAGE_WORDS):
            for sentence in re.split(r"(?<=[.!?])\s+|\n", text or ""):
                if not re.search(r"\btied\b", sentence, re.I):
                    continue
                m = _TIED_LIST.search(sentence.strip().removesuffix("."))
                if m is None:  # the rule stated, naming no row
                    assert not any(re.search(rf"\b{re.escape(n)}\b", sentence) for n in names), (rel, sentence)
                    continue
                claims += 1
                named = sorted(x.strip() for x in re.split(r",|;", m.group(1)) if x.strip())
                assert len(named) > 1, (rel, sentence)  # a row alone is first, not tied
                matches = [f for f in candidates if sorted(f) == named]
                assert matches, (rel, sentence)
                for first in matches:
                    assert all(overlap(a, b) for a, b in itertools.combinations(first.values(), 2)), (rel, sentence)
    assert claims >= 10, claims


# A common phone screen, in CSS pixels.
PHONE = (390, 844)


def test_on_a_phone_every_boards_first_row_is_on_the_first_screen(browser, site_server):
    """The result first: on a 390 x 844 screen, each ranked table's first row is in view on
    arrival, below the navigation and the title; how the board is read comes after it."""
    context = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]})
    try:
        page = context.new_page()
        late = []
        for rel in sorted({t["page"] for t in TABLES.values()}):
            visit(page, site_server.url(rel))
            bottom = page.evaluate("""() => { const tr = document.querySelector("table.board tbody tr");
                                             return tr.getBoundingClientRect().bottom + window.scrollY; }""")
            if bottom > PHONE[1]:
                late.append(f"{rel}: the first row ends {bottom:.0f} px down, on a {PHONE[1]} px screen")
        assert not late, "\n".join(late)
    finally:
        context.close()
