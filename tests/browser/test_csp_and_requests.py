"""One page of every page type in Chromium, served with the netlify.toml headers, as a visitor
gets it from the host: the Content-Security-Policy blocks nothing the page needs, nothing is
requested from another host, a phone-width screen never scrolls sideways, and the content is
all there with JavaScript off.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from sitegen.netlify import headers_for, load_header_rules

from conftest import REPO_ROOT

from .conftest import url_path, visit

# Init scripts run before the page's own and are not subject to its CSP, so this listener sees
# every violation, including those of the first stylesheet or image.
WATCH_VIOLATIONS = r"""
window.__violations = [];
document.addEventListener("securitypolicyviolation", e => window.__violations.push({
  directive: e.effectiveDirective, blocked: e.blockedURI || "inline", line: e.lineNumber, sample: e.sample,
  element: e.target && e.target.tagName ? e.target.tagName.toLowerCase() + (e.target.className && typeof e.target.className === "string"
    ? "." + e.target.className.trim().split(/\s+/).join(".") : "") : ""}));
"""
# Violation events are queued as tasks: give them one turn of the event loop after "load".
SETTLE = "() => new Promise(r => setTimeout(() => requestAnimationFrame(() => r(window.__violations || [])), 0))"
LOCAL_SCHEMES = ("data", "blob", "about")

OVERFLOWING = r"""width => [...document.querySelectorAll("body *")]
  .filter(el => el.getBoundingClientRect().right > width + 0.5 && !el.closest("details:not([open]) > :not(summary)"))
  .filter(el => !el.parentElement || el.parentElement.getBoundingClientRect().right <= width + 0.5)
  .slice(0, 5)
  .map(el => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className && typeof el.className === "string"
        ? "." + el.className.trim().split(/\s+/).join(".") : "") + " right=" + Math.round(el.getBoundingClientRect().right))"""

MAIN_CONTENT = r"""() => {
  const main = document.querySelector("main");
  const shown = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const all = main ? [...main.querySelectorAll("svg")] : [];
  // Figures drawn on the page: outermost <svg>s, except those folded inside a closed <details>.
  const open = all.filter(s => !s.parentElement.closest("svg") && !s.closest("details:not([open])"));
  return {text: main ? main.innerText.trim().length : -1, h1: !!document.querySelector("h1") && shown(document.querySelector("h1")),
          svgs: all.length, shownSvgs: open.filter(shown).length, openSvgs: open.length};
}"""


@pytest.fixture
def watched(new_page, site_server):
    """watched(width): a page under the site's CSP that records violations, console errors and
    every request it makes."""

    def make(width: int, **options):
        page = new_page(width, **options)
        page.add_init_script(WATCH_VIOLATIONS)
        page.requests, page.console_errors = [], []
        page.on("request", lambda request: page.requests.append(request.url))
        # The console says only "Failed to load resource: 404"; the response names the URL.
        page.on("response", lambda r: page.console_errors.append(f"HTTP {r.status} for {r.url}")
                if r.status >= 400 else None)
        page.on("console", lambda msg: page.console_errors.append(console_line(msg)) if is_page_error(msg) else None)
        page.on("pageerror", lambda exc: page.console_errors.append(str(exc)))
        return page

    return make


def describe_violations(where: str, violations: list[dict]) -> list[str]:
    """One line per distinct (directive, what was blocked, element), with its count and lines:
    a markdown table with aligned columns can raise forty identical ones."""
    groups: dict[tuple, list[int]] = {}
    for v in violations:
        groups.setdefault((v["directive"], v["blocked"], v["element"], v["sample"]), []).append(v["line"])
    return [f"{where}: CSP {directive} blocked {blocked} on <{element or '?'}>{f' {sample!r}' if sample else ''}"
            f" x{len(lines)} (lines {', '.join(map(str, sorted(set(lines))[:8]))})"
            for (directive, blocked, element, sample), lines in groups.items()]


def is_page_error(msg) -> bool:
    # Every page links its icon (assets/favicon.svg), so Chromium has no reason to probe
    # /favicon.ico: a 404 there is a real missing file like any other.
    return msg.type == "error"


def console_line(msg) -> str:
    where = msg.location.get("url") if msg.location else ""
    return f"{msg.text} ({where})" if where else msg.text


def leaves_the_site(url: str, origin: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme not in LOCAL_SCHEMES and f"{parts.scheme}://{parts.netloc}" != origin


def test_the_csp_blocks_nothing_and_no_request_leaves_the_site(watched, site_server, typed_pages):
    page = watched(1280)
    rules = load_header_rules(REPO_ROOT)
    problems = []
    for kind, rel in typed_pages.items():
        page.requests.clear()
        page.console_errors.clear()
        response = visit(page, site_server.url(rel))
        violations = page.evaluate(SETTLE)
        expected_csp = headers_for(rules, url_path(rel))["Content-Security-Policy"]
        if response.headers.get("content-security-policy") != expected_csp:
            problems.append(f"{kind} {rel}: served without the site's CSP: {response.headers}")
        problems += describe_violations(f"{kind} {rel}", violations)
        # Chromium also logs each CSP violation to the console: those are reported above.
        problems += [f"{kind} {rel}: console error: {text}" for text in dict.fromkeys(page.console_errors)
                     if "Content Security Policy" not in text]
        problems += [f"{kind} {rel}: request to {url}" for url in page.requests if leaves_the_site(url, site_server.origin)]
        if not page.requests:
            problems.append(f"{kind} {rel}: no request recorded (the request listener is broken)")
    assert not problems, f"{len(problems)} problems under the site's CSP:\n" + "\n".join(problems[:40])


def test_the_violation_listener_sees_a_blocked_inline_script(watched, site_server):
    """The listener works under the site's CSP: an inline script is blocked and reported."""
    page = watched(1280)
    visit(page, site_server.url("index.html"))
    page.evaluate("""() => { const s = document.createElement("script"); s.textContent = "window.__ran = 1";
                            document.body.append(s); }""")
    violations = page.evaluate(SETTLE)
    assert page.evaluate("() => window.__ran") is None
    assert any(v["directive"].startswith("script-src") for v in violations), violations


def test_no_page_scrolls_sideways_on_a_320px_screen(watched, site_server, typed_pages):
    page = watched(320)
    problems = []
    for kind, rel in typed_pages.items():
        visit(page, site_server.url(rel))
        width = page.evaluate("() => document.documentElement.scrollWidth")
        if width > 320:
            culprits = page.evaluate(OVERFLOWING, 320)
            problems.append(f"{kind} {rel}: scrollWidth {width}px; widest: {', '.join(culprits) or '?'}")
    assert not problems, "pages wider than a 320px screen:\n" + "\n".join(problems)


def test_every_page_type_shows_its_content_without_javascript(watched, site_server, site_out, typed_pages):
    page = watched(1280, java_script_enabled=False)
    problems = []
    for kind, rel in typed_pages.items():
        visit(page, site_server.url(rel))
        got = page.evaluate(MAIN_CONTENT)
        html = (site_out / rel).read_text(encoding="utf-8")
        main_html = html[html.find("<main"): html.rfind("</main>")]
        svgs_in_file = len(re.findall(r"<svg\b", main_html))
        if got["text"] < 40:
            problems.append(f"{kind} {rel}: <main> shows {got['text']} characters")
        if not got["h1"]:
            problems.append(f"{kind} {rel}: no visible <h1>")
        if got["svgs"] != svgs_in_file or got["shownSvgs"] != got["openSvgs"]:
            problems.append(f"{kind} {rel}: {svgs_in_file} <svg> in the HTML, {got['svgs']} in the page, "
                            f"{got['shownSvgs']} of {got['openSvgs']} not in a closed <details> drawn")
    assert not problems, "without JavaScript:\n" + "\n".join(problems)
