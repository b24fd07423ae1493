"""Tables as a reader sees them in Chromium: a column's heading sits where its cells sit."""

from __future__ import annotations

from .conftest import pages_by_type, visit

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


def test_every_column_heading_aligns_with_its_cells(new_page, site_server, site_out):
    page = new_page(1280)
    problems = []
    for rel in pages_to_check(site_out):
        visit(page, site_server.url(rel))
        problems += [f"{rel}: {p}" for p in page.evaluate(MISALIGNED_HEADINGS)]
    assert not problems, "\n".join(problems)


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


def test_a_table_of_two_or_three_columns_is_as_wide_as_its_content(new_page, site_server, site_out):
    page = new_page(1280)
    problems = []
    for rel in pages_to_check(site_out):
        visit(page, site_server.url(rel))
        problems += [f"{rel}: table \"{t['caption']}\" is {t['width']} px wide, its content {t['needed']} px"
                     for t in page.evaluate(NARROW_TABLES) if t["width"] > t["needed"] + 1]
    assert not problems, "\n".join(problems)


def test_every_column_of_a_runs_calls_is_in_view_at_desktop_width(new_page, site_server, site_out):
    """A run's manifest is read whole at 1280 px: no column (Finish and Cost come last) is left
    behind the edge of its scroll region."""
    page = new_page(1280)
    runs = pages_by_type(site_out)["chronicle/run"]
    clipped = []
    for rel in runs:
        visit(page, site_server.url(rel))
        box = page.evaluate("""() => { const b = document.querySelector("#calls-caption").closest(".table-scroll");
                                       return [b.clientWidth, b.scrollWidth]; }""")
        if box[1] > box[0] + 1:
            clipped.append(f"{rel}: {box[1]} px of calls in a {box[0]} px region")
    assert not clipped, "\n".join(clipped)
