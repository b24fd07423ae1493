"""Printing: every page type fits an A4 page's width, keeps the synthetic-data notice, drops the
site navigation, and prints its tables whole (not cut off inside a scroll box)."""

from __future__ import annotations

from .conftest import visit

# A4 at 96 CSS px per inch, less 15 mm margins each side: what Chromium lays a printed page out in.
PRINT_WIDTH = 680

MEASURE = r"""() => {
  const shown = el => el && getComputedStyle(el).display !== "none" && el.getBoundingClientRect().height > 0;
  const clipped = [...document.querySelectorAll(".table-scroll")]
    .filter(box => box.scrollWidth > box.clientWidth + 1).length;
  return {width: document.documentElement.scrollWidth, notice: shown(document.querySelector(".synthetic")),
          nav: shown(document.querySelector(".site-header nav")), clipped};
}"""


def test_every_page_type_prints_within_the_page(new_page, site_server, typed_pages):
    page = new_page(320)
    page.set_viewport_size({"width": PRINT_WIDTH, "height": 960})
    page.emulate_media(media="print")
    problems = []
    for kind, rel in typed_pages.items():
        visit(page, site_server.url(rel))
        m = page.evaluate(MEASURE)
        if m["width"] > PRINT_WIDTH:
            problems.append(f"{kind} ({rel}): printed {m['width']} px wide on a {PRINT_WIDTH} px page")
        if not m["notice"]:
            problems.append(f"{kind} ({rel}): the synthetic-data notice is not printed")
        if m["nav"]:
            problems.append(f"{kind} ({rel}): the site navigation is printed")
        if m["clipped"]:
            problems.append(f"{kind} ({rel}): {m['clipped']} table(s) cut off inside a scroll box in print")
    assert not problems, "\n".join(problems)
