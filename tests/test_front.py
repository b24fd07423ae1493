"""The reader's way through the site: the home leads with each benchmark's result (who is tied
for first on each board, as the boards' own downloads say), and every page of a family carries
the same navigation, with no link to a family the site does not publish."""

from __future__ import annotations

import csv
import hashlib
import html
import io
import re
import zipfile
from pathlib import Path

from sitegen.build import build
from sitegen.config import load_config

from test_chronicle import chronicle_only


def _text(page: str) -> str:
    """A page's visible text, one run of whitespace read as one space."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


def _firsts(out: Path, stem: str, name_col: str, keep=lambda row: True) -> tuple[list[str], int, int]:
    """The names a board's CSV download ranks first (rank_best 1), in its row order; how many
    rows it ranks, and how many it has."""
    rows = [r for r in csv.DictReader(io.StringIO((out / f"{stem}.csv").read_text(encoding="utf-8"))) if keep(r)]
    return [r[name_col] for r in rows if r["rank_best"] == "1"], sum(r["rank_best"] != "" for r in rows), len(rows)


def _headline(board: tuple[list[str], int, int]) -> str:
    """A board with one ranked row ranks it against nothing: it is the only one, never first."""
    names, ranked, rows = board
    if ranked == 1:
        return (f"Only entrant tested: {names[0]}, with no competitor on this board" if rows == 1
                else f"Only ranked entrant: {names[0]} (the other {rows - 1} not ranked)")
    return ("Tied for first: " if len(names) > 1 else "First: ") + ", ".join(names)


# A board page, by its folder, and the CSV download of its table, with the column naming a row.
BOARD_DOWNLOADS = {
    r"canonic/([a-z-]+)/": (r"canonic/\1/board", "model_name"),
    r"chronicle/boards/([a-z-]+)/": (r"chronicle/boards/\1", "name"),
    r"nextchapter/": ("nextchapter/standings", "name"),
    r"vignette/boards/([a-z-]+)/": (r"vignette/boards/\1/board", "name"),
    r"vignette/pairwise/([a-z-]+)/": (r"vignette/pairwise/\1/board", "name"),
}


def _home_results(out: Path) -> dict[str, str]:
    """The home page's result lines: board page it links (from the site root) -> the headline."""
    page = (out / "index.html").read_text(encoding="utf-8")
    lines = re.findall(r'<li><a href="([^"]+)">.*?</a> — (.*?)</li>', page)
    return {href.removeprefix("./"): html.unescape(headline) for href, headline in lines}


def test_home_states_who_is_first_on_every_board_as_its_download_does(built_site):
    out = built_site.out
    results = _home_results(out)
    assert len(results) == 6 + 3 + 1 + 8 + 1  # every board of the four benchmarks, Vignette's pairwise one too
    for href, headline in results.items():
        pattern, (stem, col) = next((p, d) for p, d in BOARD_DOWNLOADS.items() if re.fullmatch(p, href))
        keep = (lambda r: r.get("shown_as", "headline") == "headline")
        assert headline == _headline(_firsts(out, re.sub(pattern, stem, href), col, keep)), href
    home = _text((out / "index.html").read_text(encoding="utf-8"))
    # the results come before the generator's description, dated from the data
    assert home.index("Tied for first") < home.index("How the numbers are made")
    assert "Sweep of 2026-08-08" in home and "Run of 2026-10-20" in home


NAV = re.compile(r'<nav class="subnav" aria-label="([^"]+)"><ul>(.*?)</ul></nav>', re.S)
PARTS = ["Home", "Boards", "Method", "Evidence", "Data"]


def _family_nav(page: str) -> tuple[str, list[str]] | None:
    """The family navigation of a page: whose it is and the names of its parts, in order."""
    m = NAV.search(page)
    if m is None:
        return None
    items = re.findall(r"<li>(.*?)</li>", m.group(2), re.S)
    return m.group(1), [re.sub(r"<[^>]+>", "", i).split(":")[0].strip() for i in items]


def test_every_page_of_a_family_has_the_family_navigation(built_site):
    titles = {"canonic": "Canonic Stage 1", "chronicle": "ChronicleBench", "nextchapter": "NextChapterBench", "vignette": "Vignette"}
    seen = 0
    for path in sorted(built_site.out.rglob("*.html")):
        rel = path.relative_to(built_site.out).as_posix()
        fam = rel.split("/")[0]
        nav = _family_nav(path.read_text(encoding="utf-8"))
        if fam in titles:
            assert nav == (titles[fam], PARTS), rel
            seen += 1
        else:  # the site's home and downloads belong to no family
            assert nav is None, rel
    assert seen > 300  # run, item and model pages among them


def test_verify_links_open_a_page_that_shows_the_checks(built_site):
    """ChronicleBench and NextChapterBench linked "verify" to the 280 KB manifest.json."""
    links = 0
    for path in [*built_site.out.glob("chronicle/**/*.html"), *built_site.out.glob("nextchapter/**/*.html")]:
        verify = re.findall(r'<a href="([^"]*)">verify</a>', path.read_text(encoding="utf-8"))
        assert all(v.endswith("downloads/#checking") for v in verify), path
        links += len(verify)
    assert links > 100
    assert 'id="checking"' in (built_site.out / "downloads/index.html").read_text(encoding="utf-8")


def test_a_one_family_site_links_to_no_other_family(tmp_path):
    """A ChronicleBench board linked its seed derivation to Canonic's method page, which a
    ChronicleBench-only site does not have."""
    root = chronicle_only(tmp_path / "site")
    out = tmp_path / "out"
    build(load_config(root), out)
    written = {p.relative_to(out).as_posix() for p in out.rglob("*")}
    for path in out.rglob("*.html"):
        page = path.read_text(encoding="utf-8")
        for href in re.findall(r'href="([^"#]*)', page):
            if href and not re.match(r"[a-z]+:", href):
                base = out if href.startswith("/") else path.parent  # the not-found page links from the root
                target = (base / href.lstrip("/")).resolve().relative_to(out.resolve()).as_posix()
                assert not target.startswith(("canonic", "nextchapter")), (path, href)
                assert target in written or f"{target}/index.html".lstrip("/") in written or target == ".", (path, href)


def _board_row_links(page: str) -> dict[str, str]:
    """A board's rows: the row's id -> where the name in its row header links."""
    rows = re.findall(r'<tr id="(row-[^"]+)"[^>]*>.*?<th scope="row"><a href="([^"]+)">', page, re.S)
    return dict(rows)


def _target(out: Path, page: Path, href: str) -> tuple[Path, str]:
    path, _, frag = href.partition("#")
    target = (page.parent / path).resolve()
    return (target / "index.html" if target.is_dir() else target), frag


def test_board_rows_link_to_what_stands_behind_the_score(built_site):
    out = built_site.out
    # Canonic: the row's own cells, each with its judges' anchors and rationales
    for b in built_site.results.boards:
        page = out / f"canonic/{b.domain}/index.html"
        links = _board_row_links(page.read_text(encoding="utf-8"))
        assert len(links) == len(b.rows)
        for r, href in zip(b.rows, links.values()):
            target, _frag = _target(out, page, href)
            assert target == out / f"canonic/{b.domain}/cells/{r.model}/index.html"
            assert f"<h1>{html.escape(r.name)} on {html.escape(b.name)}: every cell</h1>" in target.read_text(encoding="utf-8")
    # ChronicleBench: the entrant's first run on the board's arm, in the runs table
    runs = list(csv.DictReader(io.StringIO((out / "chronicle/runs.csv").read_text(encoding="utf-8"))))
    checked = 0
    for page in out.glob("chronicle/boards/*/index.html"):
        text = page.read_text(encoding="utf-8")
        for row_id, href in _board_row_links(text).items():
            target, frag = _target(out, page, href)
            assert target == out / "chronicle/cohorts/index.html"
            row = re.search(rf'<tr id="{re.escape(frag)}"><th scope="row"><a href="[^"]*">([^<]+)</a></th><td>([^<]+)</td><td>([^<]+)</td>',
                            target.read_text(encoding="utf-8"))
            assert row, href
            run = next(r for r in runs if r["run"] == row.group(1))
            mine = [r for r in runs if r["entrant"] == run["entrant"] and r["arm"] == run["arm"]]
            assert mine[0] is run and html.unescape(row.group(2)) in text
            checked += 1
    assert checked > 20
    # NextChapterBench: the model's page
    page = out / "nextchapter/index.html"
    names = re.findall(r'<tr id="row-[^"]+"[^>]*>.*?<th scope="row"><a href="([^"]+)">([^<]+)</a>', page.read_text(encoding="utf-8"), re.S)
    assert len(names) >= 5
    for href, name in names:
        target, _ = _target(out, page, href)
        assert target.relative_to(out).as_posix().startswith("nextchapter/models/")
        assert f"<h1>{name} " in target.read_text(encoding="utf-8")


def test_provenance_lines_link_the_raw_files_they_name(built_site):
    out = built_site.out
    n = 0
    for page in [out / "canonic/book-opening/index.html", out / "chronicle/index.html", out / "nextchapter/index.html"]:
        text = page.read_text(encoding="utf-8")
        for prov in re.findall(r'<p class="prov">(.*?)</p>', text, re.S):
            for href, name, sha in re.findall(r'<a href="([^"]+)"><code>([^<]+)</code></a> <abbr title="SHA-256 ([0-9a-f]{64})">', prov):
                target, _ = _target(out, page, href)
                assert target.name == name and "/raw/" in target.as_posix(), href
                assert hashlib.sha256(target.read_bytes()).hexdigest() == sha
                n += 1
    assert n >= 6


def test_canonic_method_page_opens_on_its_contents_with_the_rubrics_collapsed(built_site):
    page = (built_site.out / "canonic/method/index.html").read_text(encoding="utf-8")
    toc = re.search(r'<nav class="toc" aria-label="Contents">(.*?)</nav>', page, re.S)
    assert toc and page.index(toc.group(0)) < page.index("<h1")
    listed = re.findall(r'<li><a href="#([^"]+)">([^<]+)</a></li>', toc.group(1))
    sections = re.findall(r'<h2 id="([^"]+)">([^<]+)</h2>', page)
    assert listed == sections and len(listed) >= 8
    rubrics = re.findall(r'<details class="table-group">\s*<summary><h3 id="rubric-([a-z-]+)">', page)
    assert sorted(rubrics) == sorted(b.domain for b in built_site.results.boards)
    assert "<details open" not in page


def test_each_family_has_one_zip_of_its_downloads_listed_with_size_and_sha256(built_site):
    out = built_site.out
    sums = dict(reversed(line.split("  ", 1)) for line in (out / "SHA256SUMS").read_text(encoding="utf-8").splitlines())
    page = (out / "downloads/index.html").read_text(encoding="utf-8")
    contents = re.search(r'<nav class="toc" aria-label="Contents">(.*?)</nav>', page, re.S).group(1)
    in_zips: set[str] = set()
    for fid in load_config(built_site.root).families:
        rel = f"downloads/{fid}.zip"
        data = (out / rel).read_bytes()
        assert sums[rel] == hashlib.sha256(data).hexdigest()
        row = re.search(rf'<a href="{re.escape(fid)}.zip">.*?</a></th><td class="n">([^<]+)<br><span class="note">([\d,]+) bytes</span></td><td><code class="hash">([0-9a-f]+)</code>',
                        page, re.S)
        assert row and row.group(2) == f"{len(data):,}" and row.group(3) == sums[rel]
        assert f'href="#dl-{fid}"' in contents and f'href="#dl-{fid}-archive"' in contents
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = zf.infolist()
            names = [i.filename for i in infos]
            assert names == sorted(names) and rel not in names
            for i in infos:  # unpacked, every file is the site's own, so SHA256SUMS checks it
                assert hashlib.sha256(zf.read(i)).hexdigest() == sums[i.filename], i.filename
                assert i.date_time == (1980, 1, 1, 0, 0, 0) and (i.external_attr >> 16) & 0o777 == 0o644
        assert any(n.startswith("raw/") for n in names) and any(n.endswith(".csv") for n in names)
        assert not in_zips & set(names)  # each file in its own family's archive only
        in_zips |= set(names)
    # every download is in an archive but the archives and the site-wide feed and release chain
    assert set(sums) - in_zips == {*(f"downloads/{f}.zip" for f in load_config(built_site.root).families), "feed.xml", "releases.json"}
