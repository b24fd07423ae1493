"""A page's inline figures show in Chromium with the font they were measured and drawn with at
build time (sitegen/figure_fonts.py): the site's own copy of it, loaded under the site's CSP.
That the files served are the renderer's, byte for byte, is tests/test_figure_fonts.py's."""

from __future__ import annotations

import re

from sitegen import figure_fonts

from .conftest import visit
from .test_csp_and_requests import SETTLE, WATCH_VIOLATIONS

# The faces of the figures' family the page has loaded, once every font it uses has arrived.
LOADED_FACES = """family => document.fonts.ready.then(() => [...document.fonts]
  .filter(f => f.family.replace(/["']/g, "") === family && f.status === "loaded").map(f => f.weight).sort())"""
# What each text of the page's figures is drawn with: its font-family and whether it is available.
FIGURE_TEXT = """family => [...document.querySelectorAll("figure.chart svg text")].map(t => {
  const s = getComputedStyle(t);
  return [s.fontFamily, s.fontWeight, document.fonts.check(`${s.fontWeight} ${s.fontSize} "${family}"`)];
})"""


def test_a_pages_figures_show_with_the_font_they_were_measured_with(new_page, site_server, site_out):
    rel = "canonic/book-opening/index.html"  # a board: its figure inline, a title in bold
    html = (site_out / rel).read_text(encoding="utf-8")
    assert re.search(r'<figure class="chart".*?font-weight="bold"', html, re.S)
    page = new_page(1280)
    page.add_init_script(WATCH_VIOLATIONS)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    visit(page, site_server.url(rel))
    assert page.evaluate(LOADED_FACES, figure_fonts.FAMILY) == ["400", "700"]
    texts = page.evaluate(FIGURE_TEXT, figure_fonts.FAMILY)
    assert len(texts) > 10
    assert {(family.strip('"'), ok) for family, _, ok in texts} == {(figure_fonts.FAMILY, True)}
    assert page.evaluate(SETTLE) == []  # the CSP let the fonts in
    assert sorted(u.rsplit("/", 1)[1] for u in requests if u.endswith(".ttf")) == sorted(figure_fonts.FACES)
