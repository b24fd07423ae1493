"""Screenshots of one page per page type (from its top, up to four windows long), for a person
to look at: desktop and phone widths in the light scheme, desktop in the dark one. They go to
artifacts/screenshots/ at the repository root (ignored by git; the CI workflow uploads the folder).

The pages are served with the site's CSP, so a picture shows what a visitor gets.
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from conftest import REPO_ROOT

from .conftest import WIDTHS, visit

SHOTS = REPO_ROOT / "artifacts" / "screenshots"
# (width, colour scheme): light at both widths, dark at the desktop width.
VARIANTS = [(1280, "light"), (320, "light"), (1280, "dark")]
SCREENS = 4  # a picture holds at most this many window heights of its page
MIN_BYTES = 8_000  # a blank or broken page compresses to a few KB at these sizes


def shot_name(kind: str, width: int, scheme: str) -> str:
    return f"{kind.replace('/', '-')}-{width}{'-dark' if scheme == 'dark' else ''}.png"


def png_size(path: Path) -> tuple[int, int]:
    """(width, height) from a PNG's header; fails on anything that is not a PNG."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{path.name} is not a PNG"
    return struct.unpack(">II", head[16:24])


@pytest.fixture(scope="module", autouse=True)
def fresh_folder():
    """Start from an empty folder so the artifact holds only this run's pictures."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for old in SHOTS.glob("*.png"):
        old.unlink()


@pytest.mark.parametrize(("width", "scheme"), VARIANTS, ids=[f"{w}-{s}" for w, s in VARIANTS])
def test_a_screenshot_of_every_page_type(width, scheme, new_page, site_server, typed_pages):
    page = new_page(width)
    page.emulate_media(color_scheme=scheme)
    problems = []
    for kind, rel in typed_pages.items():
        visit(page, site_server.url(rel))
        path = SHOTS / shot_name(kind, width, scheme)
        # The page from its top, at most SCREENS windows of it: what a reader sees first and
        # the start of what follows. (Laying out and encoding a page 20,000 px long took most
        # of this test's time, and no one looks at its end.)
        page.screenshot(path=str(path), full_page=True, clip={"x": 0, "y": 0, "width": width, "height": SCREENS * WIDTHS[width]})
        if not path.is_file():
            problems.append(f"{path.name}: not written")
            continue
        w, h = png_size(path)
        size = path.stat().st_size
        # Wider than the viewport would mean the page scrolls sideways (tested on its own).
        if w < width or h < 200 or size < MIN_BYTES:
            problems.append(f"{path.name}: {w}x{h} px, {size} bytes")
    assert not problems, "screenshots that look empty or broken:\n" + "\n".join(problems)
