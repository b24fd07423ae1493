"""axe-core's WCAG 2.2 A/AA rules on one page of every page type, at a desktop and a phone width.

Automated rules cover only part of WCAG: they catch contrast, names, landmarks, table and list
structure and the like, not whether a keyboard user can follow the focus.

axe is injected as a script tag, which the site's own Content-Security-Policy (script-src 'self')
forbids; so these pages run with the CSP bypassed. The CSP itself is tested in
test_csp_and_requests.py.
"""

from __future__ import annotations

import re

import pytest

from conftest import REPO_ROOT

from .conftest import AXE_JS, WIDTHS, require_file, serve, visit

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
BLOCKING = ("serious", "critical")

RUN_AXE = """([type, values, skipped]) => axe.run(document, {runOnly: {type: type, values: values}, resultTypes: ["violations"],
                                                         rules: Object.fromEntries((skipped || []).map(id => [id, {enabled: false}]))})
  .then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                      targets: v.nodes.map(n => n.target.join(" "))})))"""


def axe_page(new_page, width: int):
    """A page that loads axe into every document it opens, before the document's own scripts
    (once compiled, not once per page as a script tag would: a quarter of a second a page)."""
    page = new_page(width, bypass_csp=True)
    page.context.add_init_script(path=str(require_file(AXE_JS, "axe-core")))
    return page


def axe_violations(page, url: str, only: tuple = ("tag", TAGS)) -> list[dict]:
    """axe's violations on URL, in a page from axe_page; `only`: ("tag" or "rule", which
    ones[, the rules left out])."""
    visit(page, url)
    return page.evaluate(RUN_AXE, list(only))


# Every rule at the desktop width in the light theme. In the dark theme, at the desktop width,
# only the rules a theme's colours can break (the contrast of text, and links told apart from
# the text around them): every other rule reads the markup, the same in both themes. At the
# phone width every rule but the contrast of text: the stylesheet changes no colour, and shows
# or hides nothing, by width (test_the_stylesheet_changes_only_sizes_by_width), so the same
# text stands on the same colours at both widths, while the rules that read the layout (the
# size of targets, regions that scroll) run at both. (Contrast is nearly all of axe's time on
# these pages.)
THEME_RULES = ["color-contrast", "link-in-text-block"]
WIDTH_FREE_RULES = ["color-contrast"]
RUNS = [(max(WIDTHS), "light", ("tag", TAGS)), (min(WIDTHS), "light", ("tag", TAGS, WIDTH_FREE_RULES)),
        (max(WIDTHS), "dark", ("rule", THEME_RULES))]


@pytest.mark.parametrize("width,scheme,only", RUNS, ids=[f"{w}-{s}" for w, s, _ in RUNS])
def test_no_serious_or_critical_accessibility_violation(width, scheme, only, new_page, site_server, typed_pages):
    page = axe_page(new_page, width)
    page.emulate_media(color_scheme=scheme)
    problems = []
    for kind, rel in typed_pages.items():
        for v in axe_violations(page, site_server.url(rel), only):
            if v["impact"] in BLOCKING:
                targets = ", ".join(v["targets"][:3]) + (f" (+{len(v['targets']) - 3} more)" if len(v["targets"]) > 3 else "")
                problems.append(f"{v['id']} ({v['impact']}) on {kind} {rel}: {v['help']} — {targets}")
    assert not problems, f"{len(problems)} serious/critical axe violations at {width}px ({scheme}):\n" + "\n".join(problems)


def test_axe_reports_a_violation_it_should(new_page, tmp_path):
    """axe really runs, the way the test above runs it, and its results are read: an image
    without a text alternative is found."""
    (tmp_path / "index.html").write_text('<!doctype html><html lang="en"><title>t</title><main><img src="x.png"></main></html>',
                                         encoding="utf-8")
    with serve(tmp_path, netlify_headers=False) as server:
        found = {v["id"]: v for v in axe_violations(axe_page(new_page, 1280), server.url("index.html"))}
    assert "image-alt" in found and found["image-alt"]["impact"] in BLOCKING, found


STYLESHEET = REPO_ROOT / "sitegen" / "theme" / "assets" / "site.css"
# What would make a page's text stand on other colours, or show other elements, at one width.
COLOUR_OR_SHOWN = re.compile(r"(?<![\w-])(color|background(-color|-image)?|display|visibility|opacity|filter|mix-blend-mode|content|--[\w-]+)\s*:")


def width_media_blocks(css: str) -> list[tuple[str, str]]:
    """(condition, body) of every @media block whose condition reads the viewport's width."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    found = []
    for m in re.finditer(r"@media([^{]*)\{", css):
        depth, i = 1, m.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(css[i], 0)
            i += 1
        if "width" in m.group(1):
            found.append((m.group(1).strip(), css[m.end():i - 1]))
    return found


def test_the_stylesheet_changes_only_sizes_by_width():
    """What lets the phone-width run above leave out the contrast of text: no colour, and
    nothing shown or hidden, depends on the width."""
    blocks = width_media_blocks(STYLESHEET.read_text(encoding="utf-8"))
    assert len(blocks) >= 2, "the stylesheet has no width-dependent rules: the test reads it wrongly"
    changed = [f"@media {cond}: {m.group(0)}" for cond, body in blocks for m in COLOUR_OR_SHOWN.finditer(body)]
    assert not changed, "colours or visibility that depend on the width (run axe's color-contrast at every width):\n" + "\n".join(changed)
    assert COLOUR_OR_SHOWN.search("@media x { p { color: red } }"), "the pattern finds a colour"
