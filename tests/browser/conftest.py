"""Fixtures for the tests that check the built site with real tools: a browser, axe-core, the Nu
HTML checker and Netlify's own config parser.

The demo site is the session's `built_site` (tests/conftest.py), served over HTTP on 127.0.0.1
with the response headers netlify.toml declares, so a page that breaks the
Content-Security-Policy here breaks on the host too. One Chromium runs per session.

The tools come from scripts/install-test-tools (Debian's Chromium, Java, the npm packages locked
in package-lock.json). When one is missing the tests that need it fail and say so: a check that
silently skips on CI is a check that never runs.
"""

from __future__ import annotations

import re
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from conftest import REPO_ROOT, REQUEST_SECONDS, scaled
from sitegen.netlify import HeaderRule, headers_for, load_header_rules

NODE_MODULES = REPO_ROOT / "node_modules"
AXE_JS = NODE_MODULES / "axe-core" / "axe.min.js"
VNU_JAR = NODE_MODULES / "vnu-jar" / "build" / "dist" / "vnu.jar"
NETLIFY_CONFIG = NODE_MODULES / ".bin" / "netlify-config"
CHROMIUM = Path("/usr/bin/chromium")
# --no-sandbox: CI runs as root. The background/component flags keep Chromium from calling
# home (the network is closed, so it would only flood it with refused connections).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage"]
INSTALL_HINT = "run scripts/install-test-tools (it installs Chromium, Java and the npm test tools)"
WIDTHS = {1280: 800, 320: 640}  # viewport width -> height

_PAGE_TYPE = re.compile(r"<body\b[^>]*\sdata-page-type=\"([^\"]*)\"")


# --------------------------------------------------------------------------- tools


def require_file(path: Path, what: str) -> Path:
    """PATH, or fail the test: a missing tool is an install problem, never a skip."""
    if not path.is_file():
        pytest.fail(f"{what} is missing ({path.relative_to(REPO_ROOT) if path.is_relative_to(REPO_ROOT) else path}): "
                    f"{INSTALL_HINT}", pytrace=False)
    return path


def require_command(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"`{name}` is not on PATH: {INSTALL_HINT}", pytrace=False)
    return found


# --------------------------------------------------------------------------- the built site


def html_pages(out: Path) -> list[str]:
    """Every HTML page of a built site, as relative POSIX paths in sorted order."""
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*.html"))


def page_type(html: str) -> str | None:
    """The template a page was rendered from, as its <body data-page-type> names it."""
    m = _PAGE_TYPE.search(html)
    return m.group(1) if m else None


def pages_by_type(out: Path) -> dict[str, list[str]]:
    """Page type -> every page of that type (sorted). Fails when a page names no type, since
    such a page would silently escape every per-type check."""
    found: dict[str, list[str]] = {}
    untyped = []
    for rel in html_pages(out):
        kind = page_type((out / rel).read_text(encoding="utf-8"))
        if kind is None:
            untyped.append(rel)
        else:
            found.setdefault(kind, []).append(rel)
    assert not untyped, f"pages without <body data-page-type>: {untyped[:10]}"
    return dict(sorted(found.items()))


def one_page_per_type(out: Path) -> dict[str, str]:
    """Page type -> the first page of that type in sorted path order."""
    return {kind: rels[0] for kind, rels in pages_by_type(out).items()}


def url_path(rel: str) -> str:
    """The URL path a page is served at: a directory's index.html is its directory URL."""
    if rel == "index.html":
        return "/"
    if rel.endswith("/index.html"):
        return "/" + rel[: -len("index.html")]
    return "/" + rel


@pytest.fixture(scope="session")
def site_out(built_site) -> Path:
    return built_site.out


@pytest.fixture(scope="session")
def typed_pages(site_out) -> dict[str, str]:
    """One page per page type of the demo site (type -> relative path)."""
    pages = one_page_per_type(site_out)
    assert len(pages) >= 10, f"only {len(pages)} page types found: {sorted(pages)}"
    return pages


# --------------------------------------------------------------------------- the server


CSP = "Content-Security-Policy"
CSP_REPORT_ONLY = "Content-Security-Policy-Report-Only"


def _handler(directory: Path, rules: list[HeaderRule], csp_report_only: bool) -> type[SimpleHTTPRequestHandler]:
    class Handler(SimpleHTTPRequestHandler):
        """Serves DIRECTORY (a directory URL serves its index.html) with the headers that
        netlify.toml gives the request's path (its CSP as report-only, if asked)."""

        def _rule_headers(self) -> dict[str, str]:
            headers = headers_for(rules, urlsplit(getattr(self, "path", "/")).path)
            if csp_report_only and CSP in headers:
                headers = {(CSP_REPORT_ONLY if k == CSP else k): v for k, v in headers.items()}
            return headers

        def send_header(self, keyword: str, value: str) -> None:
            # A rule overrides a header the file server sets itself (the Content-Type of CSVs).
            if keyword.lower() not in {k.lower() for k in self._rule_headers()}:
                super().send_header(keyword, value)

        def end_headers(self) -> None:
            for keyword, value in self._rule_headers().items():
                super().send_header(keyword, value)
            super().end_headers()

        def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
            # As Netlify does: an address with no file gets the site's 404.html, status 404.
            page = directory / "404.html"
            if code != 404 or not page.is_file():
                return super().send_error(code, message, explain)
            body = page.read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
            pass  # a line per request would bury the test output

    return partial(Handler, directory=str(directory))  # type: ignore[return-value]


class SiteServer:
    def __init__(self, httpd: ThreadingHTTPServer, directory: Path):
        self.httpd = httpd
        self.directory = directory
        self.origin = f"http://127.0.0.1:{httpd.server_address[1]}"

    def url(self, rel: str) -> str:
        """The URL of a file of the served directory, given as a relative path."""
        return self.origin + url_path(rel)


@contextmanager
def serve(directory: Path, *, netlify_headers: bool = True, csp_report_only: bool = False) -> Iterator[SiteServer]:
    """Serve DIRECTORY on 127.0.0.1 (a free port) in a background thread, with the response
    headers of the repository's netlify.toml, or with none at all. With `csp_report_only`, its
    Content-Security-Policy is sent as Content-Security-Policy-Report-Only: the browser blocks
    nothing but reports every violation the policy would have blocked."""
    rules = load_header_rules(REPO_ROOT) if netlify_headers else []
    if netlify_headers:
        assert rules, "netlify.toml declares no [[headers]]: the preview server would send none"
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(directory, rules, csp_report_only))
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, name=f"serve {directory.name}", daemon=True)
    thread.start()
    try:
        yield SiteServer(httpd, directory)
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=REQUEST_SECONDS)


@pytest.fixture(scope="session")
def site_server(site_out) -> Iterator[SiteServer]:
    """The demo site, served with the netlify.toml headers."""
    with serve(site_out) as server:
        yield server


# --------------------------------------------------------------------------- the browser


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the whole session (Debian's build, driven by Playwright)."""
    require_file(CHROMIUM, "Chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail(f"the Python package playwright is not installed: {INSTALL_HINT}", pytrace=False)
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def new_page(browser):
    """new_page(width, **context_options): a page in a fresh context with a viewport of that
    width (see WIDTHS), closed when the test ends. A test makes one per width and reuses it."""
    contexts = []

    def make(width: int, **options):
        context = browser.new_context(viewport={"width": width, "height": WIDTHS[width]}, **options)
        context.set_default_timeout(scaled(20) * 1000)  # milliseconds
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def visit(page, url: str):
    """Load URL in PAGE and return the response; fails on anything but a 200."""
    response = page.goto(url, wait_until="load")
    assert response is not None and response.status == 200, f"{url}: HTTP {response.status if response else 'no response'}"
    return response
