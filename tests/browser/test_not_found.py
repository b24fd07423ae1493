"""An address the site has no file at gets the site's own 404 page, as the host serves it
(Netlify serves /404.html, with status 404, for any such address; the test server does the
same): styled, with the site's navigation, every link of it working from wherever it is shown,
and kept out of the sitemap and search indexes."""

from __future__ import annotations

import re
from urllib.parse import urljoin

import pytest


@pytest.mark.parametrize("address", ["/no-such-page", "/canonic/boards/no-such-board/", "/vignette/items/p99/lark-3/deeper/"])
def test_a_missing_address_shows_the_sites_404_page_styled_and_every_link_works(new_page, site_server, address):
    page = new_page(320)
    response = page.goto(site_server.origin + address, wait_until="load")
    assert response is not None and response.status == 404
    assert page.title().startswith("Page not found")
    # the stylesheet applied at any depth: the header's title is not the browser's default serif
    assert "serif" != page.evaluate("getComputedStyle(document.body).fontFamily").strip().lower()
    assert page.evaluate("document.styleSheets.length") >= 1 and page.evaluate("document.styleSheets[0].cssRules.length") > 10
    hrefs = page.evaluate("[...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))")
    targets = {urljoin(page.url, h) for h in hrefs if not h.startswith("#")}
    families = page.evaluate("[...document.querySelectorAll('main li a')].map(a => a.textContent)")
    assert {"Canonic Stage 1", "ChronicleBench", "NextChapterBench", "Vignette"} <= set(families)
    for url in sorted(targets):
        got = page.request.get(url)
        assert got.status == 200, (address, url, got.status)


def test_the_404_page_is_not_indexed_nor_in_the_sitemap(site_out):
    html = (site_out / "404.html").read_text(encoding="utf-8")
    assert '<meta name="robots" content="noindex">' in html and 'rel="canonical"' not in html
    assert "404" not in (site_out / "sitemap.xml").read_text(encoding="utf-8")
    assert all(h.startswith(("/", "#")) for h in re.findall(r'href="([^"]*)"', html))  # from the root, at any depth
