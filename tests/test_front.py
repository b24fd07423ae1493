"""The reader's way through the site: the home leads with each benchmark's result (who is tied
for first on each board, as the boards' own downloads say), and every page of a family carries
the same navigation, with no link to a family the site does not publish."""

from __future__ import annotations

import csv
import html
import io
import re
from pathlib import Path

from sitegen.build import build
from sitegen.config import load_config

from test_chronicle import chronicle_only


def _text(page: str) -> str:
    """A page's visible text, one run of whitespace read as one space."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


def _firsts(out: Path, stem: str, name_col: str, keep=lambda row: True) -> list[str]:
    """The names a board's CSV download ranks first (rank_best 1), in its row order."""
    rows = csv.DictReader(io.StringIO((out / f"{stem}.csv").read_text(encoding="utf-8")))
    return [r[name_col] for r in rows if r["rank_best"] == "1" and keep(r)]


def _headline(names: list[str]) -> str:
    return ("Tied for first: " if len(names) > 1 else "First: ") + ", ".join(names)


# A board page, by its folder, and the CSV download of its table, with the column naming a row.
BOARD_DOWNLOADS = {
    r"canonic/([a-z-]+)/": (r"canonic/\1/board", "model_name"),
    r"chronicle/boards/([a-z-]+)/": (r"chronicle/boards/\1", "name"),
    r"nextchapter/": ("nextchapter/standings", "name"),
}


def _home_results(out: Path) -> dict[str, str]:
    """The home page's result lines: board page it links (from the site root) -> the headline."""
    page = (out / "index.html").read_text(encoding="utf-8")
    lines = re.findall(r'<li><a href="([^"]+)">.*?</a> — (.*?)</li>', page)
    return {href.removeprefix("./"): html.unescape(headline) for href, headline in lines}


def test_home_states_who_is_first_on_every_board_as_its_download_does(built_site):
    out = built_site.out
    results = _home_results(out)
    assert len(results) == 6 + 3 + 1  # every board of the three families
    for href, headline in results.items():
        pattern, (stem, col) = next((p, d) for p, d in BOARD_DOWNLOADS.items() if re.fullmatch(p, href))
        keep = (lambda r: r.get("shown_as", "headline") == "headline")
        assert headline == _headline(_firsts(out, re.sub(pattern, stem, href), col, keep)), href
    home = _text((out / "index.html").read_text(encoding="utf-8"))
    # the results come before the generator's description, dated from the data
    assert home.index("Tied for first") < home.index("How the numbers are made")
    assert "Sweep of 2026-08-08" in home and "Run of 2026-10-20" in home
