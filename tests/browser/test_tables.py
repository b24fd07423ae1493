"""Tables as a reader sees them in Chromium: a column's heading sits where its cells sit, a short
table is no wider than its content, a run's calls fit a desktop screen, and on a phone a wide table
keeps its row headers in view and shows that it scrolls."""

from __future__ import annotations

import base64
import html
import re

import pytest
from conftest import scaled

from .conftest import WIDTHS, pages_by_type, visit

# A page type with this many pages or fewer is checked page by page: its pages (the boards of a
# family, the authored pages) can hold tables the first one does not. A longer type is one
# template over rows of one shape, so its first page stands for the rest.
EVERY_PAGE_UP_TO = 10

# For every table: the body cells (td) of each column, placed on a grid that honours rowspan
# and colspan, against the heading of that column in the last header row. A column whose cells
# all align one way must have its heading aligned the same way.
MISALIGNED_HEADINGS = r"""() => {
  const align = el => getComputedStyle(el).textAlign.replace("start", "left").replace("end", "right");
  const found = [];
  for (const table of document.querySelectorAll("table")) {
    if (!table.tHead) continue;
    const heads = [];
    let col = 0;
    for (const th of table.tHead.rows[table.tHead.rows.length - 1].cells) {
      for (let k = 0; k < th.colSpan; k++) heads[col + k] = th;
      col += th.colSpan;
    }
    const columns = {};
    for (const body of table.tBodies) {
      const taken = [];  // row offset within this body -> set of columns a rowspan holds
      [...body.rows].forEach((tr, r) => {
        let c = 0;
        for (const cell of tr.cells) {
          while (taken[r] && taken[r].has(c)) c++;
          for (let dr = 1; dr < cell.rowSpan; dr++)
            for (let k = 0; k < cell.colSpan; k++) (taken[r + dr] ||= new Set()).add(c + k);
          if (cell.tagName === "TD" && cell.colSpan === 1) (columns[c] ||= []).push(align(cell));
          c += cell.colSpan;
        }
      });
    }
    for (const [c, aligns] of Object.entries(columns)) {
      const head = heads[c];
      if (!head || new Set(aligns).size !== 1) continue;
      if (align(head) !== aligns[0])
        found.push(`table "${(table.caption ? table.caption.textContent : "").trim().slice(0, 60)}", ` +
                   `column "${head.textContent.trim()}": cells ${aligns[0]}, heading ${align(head)}`);
    }
  }
  return found;
}"""


def pages_to_check(out) -> list[str]:
    rels = []
    for pages in pages_by_type(out).values():
        rels += pages if len(pages) <= EVERY_PAGE_UP_TO else pages[:1]
    return rels




# Every shown table of at most three columns, with its width and the width its content needs.
# The downloads page's lists are left out: its sections share the page's width on purpose, so
# that their columns line up from one section to the next.
NARROW_TABLES = r"""() => [...document.querySelectorAll("table:not(.download-list)")]
  .filter(t => t.getClientRects().length && t.tHead)
  .map(t => ({columns: [...t.tHead.rows[t.tHead.rows.length - 1].cells].reduce((n, c) => n + c.colSpan, 0),
              caption: (t.caption ? t.caption.textContent : "").trim().slice(0, 60), table: t}))
  .filter(x => x.columns <= 3)
  .map(({caption, table}) => {
    const width = table.getBoundingClientRect().width;
    table.style.width = "max-content";
    const needed = table.getBoundingClientRect().width;
    table.style.width = "";
    return {caption, width: Math.round(width), needed: Math.round(needed)};
  })"""


@pytest.fixture(scope="module")
def desktop_tables(browser, site_server, site_out) -> dict[str, tuple[list, list]]:
    """Each page of pages_to_check at the desktop width, loaded once for both tests below:
    page -> (MISALIGNED_HEADINGS, NARROW_TABLES). NARROW_TABLES runs last, as it resizes
    tables while it measures them (and puts them back)."""
    context = browser.new_context(viewport={"width": 1280, "height": WIDTHS[1280]})
    context.set_default_timeout(scaled(20) * 1000)
    page = context.new_page()
    found = {}
    try:
        for rel in pages_to_check(site_out):
            visit(page, site_server.url(rel))
            found[rel] = (page.evaluate(MISALIGNED_HEADINGS), page.evaluate(NARROW_TABLES))
    finally:
        context.close()
    return found


def test_every_column_heading_aligns_with_its_cells(desktop_tables):
    problems = [f"{rel}: {p}" for rel, (misaligned, _) in desktop_tables.items() for p in misaligned]
    assert not problems, "\n".join(problems)


def test_a_table_of_two_or_three_columns_is_as_wide_as_its_content(desktop_tables):
    problems = [f"{rel}: table \"{t['caption']}\" is {t['width']} px wide, its content {t['needed']} px"
                for rel, (_, narrow) in desktop_tables.items() for t in narrow if t["width"] > t["needed"] + 1]
    assert not problems, "\n".join(problems)


def test_every_column_of_a_runs_calls_is_in_view_at_desktop_width(new_page, site_server, site_out):
    """A run's manifest is read whole at 1280 px: no column (Finish and Cost come last) is left
    behind the edge of its scroll region, on the runs whose calls are widest (widest_calls)."""
    page = new_page(1280)
    runs = widest_calls(site_out, pages_by_type(site_out)["chronicle/run"], WIDEST_RUNS)
    clipped = []
    for rel in runs:
        visit(page, site_server.url(rel))
        box = page.evaluate("""() => { const b = document.querySelector("#calls-caption").closest(".table-scroll");
                                       return [b.clientWidth, b.scrollWidth]; }""")
        if box[1] > box[0] + 1:
            clipped.append(f"{rel}: {box[1]} px of calls in a {box[0]} px region")
    assert not clipped, "\n".join(clipped)


# A calls table is as wide as its widest cell in each column: the runs whose tables have the
# longest such cells, counted in characters over all columns, are the ones that could overflow.
WIDEST_RUNS = 8
_CALLS_TABLE = re.compile(r'id="calls-caption".*?</table>', re.S)
_ROW = re.compile(r"<tr\b.*?</tr>", re.S)
_CELL = re.compile(r"<t[hd]\b[^>]*>(.*?)</t[hd]>", re.S)
_TAG = re.compile(r"<[^>]+>")


def widest_calls(out, runs: list[str], n: int) -> list[str]:
    """The N run pages (of RUNS) whose calls tables hold the most text in their widest cells."""
    def width(rel: str) -> int:
        table = _CALLS_TABLE.search((out / rel).read_text(encoding="utf-8"))
        assert table, f"{rel}: no calls table"
        widest: dict[int, int] = {}
        for row in _ROW.findall(table.group(0)):
            for i, cell in enumerate(_CELL.findall(row)):
                widest[i] = max(widest.get(i, 0), len(html.unescape(_TAG.sub("", cell)).strip()))
        return sum(widest.values())
    assert len(runs) >= n
    return sorted(sorted(runs, key=lambda rel: -width(rel))[:n])


# The table regions of the page that hold more than their width, every <details> opened (a
# figure's data table is read that way): their index among the page's regions.
WIDE_REGIONS = r"""() => {
  document.querySelectorAll("details").forEach(d => { d.open = true; });
  return [...document.querySelectorAll(".table-scroll")].map((box, i) => [box, i])
    .filter(([box]) => box.checkVisibility() && box.scrollWidth > box.clientWidth + 1).map(([, i]) => i);
}"""

# Scrolls region I sideways to its end, then reads where its first body row's header is and
# what a reader sees at that header's centre.
ROW_HEADER_AFTER_SCROLLING = r"""(i) => {
  const box = document.querySelectorAll(".table-scroll")[i];
  const th = box.querySelector('tbody th[scope="row"]');
  if (!th) return null;
  th.scrollIntoView({block: "center", inline: "nearest"});
  box.scrollLeft = box.scrollWidth;
  const b = box.getBoundingClientRect(), r = th.getBoundingClientRect();
  const seen = document.elementFromPoint(r.left + Math.min(r.width / 2, 20), r.top + r.height / 2);
  return {caption: (box.querySelector("caption") || {}).textContent || "", scrolled: box.scrollLeft,
          left: Math.round(r.left - b.left), right: Math.round(b.right - r.right), seen: th.contains(seen)};
}"""


def test_a_wide_tables_row_headers_stay_in_view_when_it_scrolls_sideways(new_page, site_server, typed_pages):
    page = new_page(320)
    problems, checked = [], 0
    for kind, rel in typed_pages.items():
        visit(page, site_server.url(rel))
        for i in page.evaluate(WIDE_REGIONS):
            m = page.evaluate(ROW_HEADER_AFTER_SCROLLING, i)
            if m is None:
                continue
            checked += 1
            if m["scrolled"] <= 0 or min(m["left"], m["right"]) < -1 or not m["seen"]:
                problems.append(f"{kind} ({rel}), table \"{m['caption'].strip()[:60]}\": scrolled {m['scrolled']} px, "
                                f"its row header {m['left']} px inside the region's left edge and {m['right']} px inside "
                                f"its right, {'shown' if m['seen'] else 'covered by what scrolled'}")
    assert checked >= 5, f"only {checked} wide tables with row headers found at 320 px"
    assert not problems, "\n".join(problems)


SHADOW_PX = 16  # the width of the shadow (1rem)
SHADOW_REGIONS_PER_PAGE = 3

# How far the pixels of a PNG stray from a colour: the largest difference in any channel.
PNG_STRAY = r"""async ([b64, rgb]) => {
  const bytes = Uint8Array.from(atob(b64), c => c.charCodeAt(0));
  const bmp = await createImageBitmap(new Blob([bytes], {type: "image/png"}));
  const canvas = new OffscreenCanvas(bmp.width, bmp.height), ctx = canvas.getContext("2d");
  ctx.drawImage(bmp, 0, 0);
  const d = ctx.getImageData(0, 0, bmp.width, bmp.height).data;
  let most = 0;
  for (let k = 0; k < d.length; k += 4)
    for (let c = 0; c < 3; c++) most = Math.max(most, Math.abs(d[k + c] - rgb[c]));
  return most;
}"""

# Region I with its table hidden (its layout kept, so it scrolls as far), scrolled to START or
# to its end, and its middle (where the shadow is darkest) brought to the middle of the window:
# the page's background colour and the strip along the region's right edge that is in view,
# above where a scroll bar would be. (A clip of the window, not of the full page: a full-page
# shot lays the whole page out again, a second or more per shot on a long page.)
RIGHT_EDGE = r"""([i, start]) => {
  document.querySelectorAll("details").forEach(d => { d.open = true; });
  const box = document.querySelectorAll(".table-scroll")[i];
  box.querySelector("table").style.visibility = "hidden";
  box.scrollLeft = start ? 0 : box.scrollWidth;
  box.scrollIntoView({block: "center", inline: "nearest"});
  const b = box.getBoundingClientRect();
  const top = Math.max(0, b.top), bottom = Math.min(window.innerHeight, b.bottom - 20);
  const bg = getComputedStyle(document.documentElement).backgroundColor.match(/\d+/g).map(Number);
  return {bg, caption: (box.querySelector("caption") || {}).textContent || "", hidden: box.scrollWidth - box.clientWidth,
          clip: {x: b.right - 6, y: top, width: 5, height: Math.max(1, bottom - top)}};
}"""


SHOW_AGAIN = r"""(i) => {
  const box = document.querySelectorAll(".table-scroll")[i];
  box.querySelector("table").style.visibility = "";
  box.scrollLeft = 0;
}"""


def test_a_wide_table_shows_a_shadow_at_its_edge_until_scrolled_to_its_end(new_page, site_server, typed_pages):
    page = new_page(320)
    decoder = new_page(320)  # a blank page, under no CSP, to read the pixels
    problems, checked = [], 0
    for kind, rel in typed_pages.items():
        visit(page, site_server.url(rel))
        # The first regions of each page type: every table scrolls in the same kind of region,
        # styled by one rule, and each region takes two screenshots.
        for i in page.evaluate(WIDE_REGIONS)[:SHADOW_REGIONS_PER_PAGE]:
            stray = {}
            for start in (True, False):
                edge = page.evaluate(RIGHT_EDGE, [i, start])
                png = page.screenshot(clip=edge["clip"])
                stray[start] = decoder.evaluate(PNG_STRAY, [base64.b64encode(png).decode(), edge["bg"]])
            if edge["hidden"] < SHADOW_PX:
                continue  # the shadow shows as much of itself as there is left to scroll
            checked += 1
            if stray[True] < 40 or stray[False] > 2:
                problems.append(f"{kind} ({rel}), table \"{edge['caption'].strip()[:60]}\": its right edge strays "
                                f"{stray[True]} from the background with more to scroll, {stray[False]} at the end")
            page.evaluate(SHOW_AGAIN, i)  # the table shown again, for the next region
    assert checked >= 5, f"only {checked} wide tables found at 320 px"
    assert not problems, "\n".join(problems)
