"""axe-core's WCAG 2.2 A/AA rules on one page of every page type, at a desktop and a phone width.

Automated rules cover only part of WCAG: they catch contrast, names, landmarks, table and list
structure and the like, not whether a keyboard user can follow the focus.

axe is injected as a script tag, which the site's own Content-Security-Policy (script-src 'self')
forbids; so these pages run with the CSP bypassed. The CSP itself is tested in
test_csp_and_requests.py.
"""

from __future__ import annotations

import pytest

from .conftest import AXE_JS, WIDTHS, require_file, visit

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
BLOCKING = ("serious", "critical")

RUN_AXE = """([type, values]) => axe.run(document, {runOnly: {type: type, values: values}, resultTypes: ["violations"]})
  .then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                      targets: v.nodes.map(n => n.target.join(" "))})))"""


def axe_violations(page, url: str, only: tuple[str, list[str]] = ("tag", TAGS)) -> list[dict]:
    visit(page, url)
    page.add_script_tag(path=str(AXE_JS))
    return page.evaluate(RUN_AXE, list(only))


# Every rule at both widths in the light theme. In the dark theme, at the desktop width, only
# the rules a theme's colours can break (the contrast of text, and links told apart from the
# text around them), which do not depend on the width: every other rule reads the markup,
# the same in both themes. (Contrast is 40% of axe's time on these pages.)
THEME_RULES = ["color-contrast", "link-in-text-block"]
RUNS = [(w, "light", ("tag", TAGS)) for w in sorted(WIDTHS, reverse=True)] + [(max(WIDTHS), "dark", ("rule", THEME_RULES))]


@pytest.mark.parametrize("width,scheme,only", RUNS, ids=[f"{w}-{s}" for w, s, _ in RUNS])
def test_no_serious_or_critical_accessibility_violation(width, scheme, only, new_page, site_server, typed_pages):
    require_file(AXE_JS, "axe-core")
    page = new_page(width, bypass_csp=True)
    page.emulate_media(color_scheme=scheme)
    problems = []
    for kind, rel in typed_pages.items():
        for v in axe_violations(page, site_server.url(rel), only):
            if v["impact"] in BLOCKING:
                targets = ", ".join(v["targets"][:3]) + (f" (+{len(v['targets']) - 3} more)" if len(v["targets"]) > 3 else "")
                problems.append(f"{v['id']} ({v['impact']}) on {kind} {rel}: {v['help']} — {targets}")
    assert not problems, f"{len(problems)} serious/critical axe violations at {width}px ({scheme}):\n" + "\n".join(problems)


def test_axe_reports_a_violation_it_should(new_page, site_server):
    """axe really runs and its results are read: an image without a text alternative is found."""
    require_file(AXE_JS, "axe-core")
    page = new_page(1280, bypass_csp=True)
    visit(page, site_server.url("index.html"))
    page.set_content('<!doctype html><html lang="en"><title>t</title><main><img src="x.png"></main></html>')
    page.add_script_tag(path=str(AXE_JS))
    found = {v["id"]: v for v in page.evaluate(RUN_AXE, ["tag", TAGS])}
    assert "image-alt" in found and found["image-alt"]["impact"] in BLOCKING, found
