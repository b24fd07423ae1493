"""`sitegen verify DIR` on a built site: it passes on the demo build as written, and it catches
tampering with a download, a figure, the file list and the raw records, one line each; with
`--source REPO`, a page whose hashes were rewritten too. Whatever was edited with the hashes
rewritten to match is either caught (a table, an archive's member, a feed entry, SHA256SUMS, a
raw record) or named in the closing words as checked by hash only (a page, a figure's SVG). A
malformed manifest is one line, and nothing outside DIR is read.

Every test works on the session's demo build, on a copy of its Canonic alone, or on a small
site of its own; verify itself only reads.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import errno
import os
import re
import shutil
import zipfile
from pathlib import Path

import pytest

from conftest import CELLS_REL, copy_site, hash_tree, ref_status, reference, run_cli, two_standard_scores

from sitegen.build import build
from sitegen.config import load_config


@pytest.fixture(scope="module")
def canonic_out(built_site, tmp_path_factory) -> Path:
    """The demo's Canonic alone, built once from the demo build's cache: the tampering below is
    all Canonic's, and verify recomputes every table a site publishes, so a site of the whole
    demo would only make each check here several times slower. (The first and the `--source`
    tests verify the whole demo.)"""
    base = tmp_path_factory.mktemp("verify")
    root = copy_site(base / "source", cache_from=built_site.root, families=["canonic"])
    build(load_config(root), base / "out")
    return base / "out"


@pytest.fixture
def site(canonic_out, tmp_path) -> Path:
    """A private copy of the built Canonic site."""
    return Path(shutil.copytree(canonic_out, tmp_path / "site"))


def verify(site: Path):
    r = run_cli("verify", str(site))
    return r.returncode, r.stderr.splitlines()


def bump_first_score(path: Path) -> tuple[int, str, str]:
    """Add 1 to the score of the first published row of a board CSV, leaving every other byte
    as it was. Returns the row number (1 = first data row), the old and the new text."""
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    col = rows[0].index("score")
    row_no = next(i for i in range(1, len(rows)) if rows[i][col])
    old = rows[row_no][col]
    rows[row_no][col] = new = repr(float(old) + 1.0)
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")
    return row_no, old, new


def lines_about(lines: list[str], rel: str) -> list[str]:
    return [x for x in lines if x.startswith(rel)]


def test_verify_passes_on_the_built_demo_site_and_changes_nothing(built_site):
    before = hash_tree(built_site.out)
    r = run_cli("verify", str(built_site.out))
    assert r.returncode == 0, r.stderr
    assert "verified" in r.stdout
    assert hash_tree(built_site.out) == before


def test_a_changed_score_in_a_board_csv_is_caught_by_hash_and_by_recomputation(site):
    rel = "canonic/book-opening/board.csv"
    path = site / rel
    row_no, old, new = bump_first_score(path)

    code, out = verify(site)
    assert code == 1
    about = lines_about(out, rel)
    assert any("SHA-256" in x and "manifest" in x for x in about), out
    (recomputed,) = [x for x in about if f"row {row_no} column score" in x]
    assert new in recomputed and old in recomputed

    # updating the manifest's hash too does not hide it: the number is recomputed from raw/
    manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"][rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    (site / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    code, out = verify(site)
    assert code == 1
    assert [x for x in lines_about(out, rel) if "SHA-256" in x] == []
    assert [x for x in lines_about(out, rel) if f"row {row_no} column score" in x], out


def test_one_flipped_byte_of_a_figure_svg_is_caught(site):
    rel = "canonic/figure-3.svg"
    data = bytearray((site / rel).read_bytes())
    i = next(m.start() for m in re.finditer(rb"[0-9]", bytes(data)) if m.start() > 200)
    data[i] = ord("1") if data[i] != ord("1") else ord("2")
    (site / rel).write_bytes(bytes(data))
    code, out = verify(site)
    assert code == 1
    assert len(lines_about(out, rel)) == 1, out
    assert "SHA-256" in lines_about(out, rel)[0]


def test_a_deleted_file_and_an_unlisted_file_are_both_reported(site):
    gone = "canonic/diagnostics/index.html"
    (site / gone).unlink()
    (site / "canonic" / "extra.csv").write_text("domain,score\nall,99\n", encoding="utf-8")
    code, out = verify(site)
    assert code == 1
    assert any(x.startswith(gone) and "missing" in x for x in out), out
    assert any(x.startswith("canonic/extra.csv") and "not listed" in x for x in out), out


def test_an_edited_raw_record_is_reported(site, built_site):
    """One anchor of one counted cell in raw/data/canonic/cells.jsonl: the raw file no longer
    has the hash the site was built from, and the boards recomputed from it differ."""
    ref = reference(built_site.root)
    raw = site / "raw" / CELLS_REL
    lines = raw.read_text(encoding="utf-8").split("\n")
    task_domain = {t["id"]: t["domain"] for t in ref.sweep["tasks"]}
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        rec = json.loads(line)
        if two_standard_scores(rec) and ref.rows[(rec["model"], task_domain[rec["task"]])].published:
            j = rec["judgments"][0]
            dim = next(d for d, v in j["anchors"].items() if v != 1.0)
            j["anchors"][dim] = 1.0
            j.pop("weighted_score", None)
            lines[i] = json.dumps(rec, ensure_ascii=False)
            break
    raw.write_text("\n".join(lines), encoding="utf-8")
    domain = task_domain[rec["task"]]
    assert ref_status(rec) == "counted"

    code, out = verify(site)
    assert code == 1
    assert lines_about(out, f"raw/{CELLS_REL}"), out
    board = f"canonic/{domain}/board.csv"
    assert any(x.startswith(f"{board} row ") and "column score" in x for x in out), out


def test_a_manifest_cannot_switch_recomputation_off(site):
    rel = "canonic/book-opening/board.csv"
    path = site / rel
    bump_first_score(path)
    manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"][rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    manifest["families"] = []
    (site / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    code, out = verify(site)
    assert code == 1
    assert any(x.startswith(rel) for x in out), out


def rewrite_hashes(site: Path, rel: str) -> None:
    """Make the manifest (and SHA256SUMS, when it lists the file) attest to rel's new bytes, as
    someone who changed rel after the build could."""
    sha = hashlib.sha256((site / rel).read_bytes()).hexdigest()
    sums = site / "SHA256SUMS"
    lines = sums.read_text(encoding="utf-8").splitlines(keepends=True)
    sums.write_text("".join(f"{sha}  {rel}\n" if x.rstrip("\n").endswith(f"  {rel}") else x for x in lines), encoding="utf-8")
    manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"][rel] = sha
    manifest["files"]["SHA256SUMS"] = hashlib.sha256(sums.read_bytes()).hexdigest()
    (site / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")


def test_a_page_edited_with_its_hashes_rewritten_passes_hash_only_verify_but_not_verify_source(tmp_path):
    # A site of one family: `--source` rebuilds it cold, whatever its size (the demo's own
    # rebuild is the next test's).
    source = copy_site(tmp_path / "source", families=["nextchapter"])
    site = tmp_path / "site"
    build(load_config(source), site)
    rel = "nextchapter/index.html"
    page = (site / rel).read_text(encoding="utf-8")
    cell = re.search(r'<td class="n">([0-9.]+)</td>', page)
    assert cell, f"no number in a cell of {rel}"
    was, now = cell.group(1), "95.25" if cell.group(1) != "95.25" else "95.5"
    (site / rel).write_text(page[:cell.start(1)] + now + page[cell.end(1):], encoding="utf-8")
    rewrite_hashes(site, rel)

    r = run_cli("verify", str(site))  # the documented limit of a check by hash alone
    assert r.returncode == 0, r.stderr
    assert "checked by hash only" in r.stdout and "--source" in r.stdout

    (site / "robots.txt").unlink()
    (site / "extra.html").write_text("<p>not built</p>\n", encoding="utf-8")
    r = run_cli("verify", str(site), "--source", str(source))
    assert r.returncode == 1
    out = r.stderr.splitlines()
    (line,) = lines_about(out, f"{rel} line ")
    assert "published" in line and now in line and "rebuilt" in line and was in line, line
    assert len(line) < 200
    assert any(x.startswith("manifest.json line ") for x in out), out
    assert "robots.txt: built from the source but not published" in out
    assert "extra.html: published but not built from the source" in out


def test_verify_source_passes_on_the_site_as_built(built_site):
    r = run_cli("verify", str(built_site.out), "--source", str(built_site.root))  # (verify only reads)
    assert r.returncode == 0, r.stderr
    assert "byte for byte" in r.stdout


def test_verify_source_of_a_repository_that_does_not_build_fails_in_one_message(site, tmp_path):
    (tmp_path / "empty").mkdir()
    r = run_cli("verify", str(site), "--source", str(tmp_path / "empty"))
    assert r.returncode == 1
    assert "does not build" in r.stderr and "Traceback" not in r.stderr


def tiny_site(tmp_path: Path, manifest: bytes) -> Path:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<p>hello</p>\n", encoding="utf-8")
    (site / "manifest.json").write_bytes(manifest)
    return site


OUTSIDE_TEXT = b"a file beside the site, not of it\n"
OUTSIDE_SHA = hashlib.sha256(OUTSIDE_TEXT).hexdigest()
INDEX_SHA = hashlib.sha256(b"<p>hello</p>\n").hexdigest()


@pytest.mark.parametrize(("manifest", "says"), [
    (b"{\"files\": {", "expected JSON"),
    (b"\xff\xfe not UTF-8", "expected JSON"),
    (b"[]", "$: expected an object"),
    (b"{\"files\": []}", "$.files: expected an object"),
    (b"{\"sources\": {}}", "$.files: expected an object"),
    (json.dumps({"files": {"index.html": INDEX_SHA, "../outside.txt": OUTSIDE_SHA}}).encode(), '$.files["../outside.txt"]: expected a plain relative path'),
    (json.dumps({"files": {"index.html": INDEX_SHA, "OUTSIDE": OUTSIDE_SHA}}).encode(), '$.files["/'),
    (json.dumps({"files": {"index.html": INDEX_SHA, "sub\\..\\..\\outside.txt": OUTSIDE_SHA}}).encode(), "expected a plain relative path"),
    (json.dumps({"files": {"index.html": INDEX_SHA, "./index.html": INDEX_SHA}}).encode(), "expected a plain relative path"),
    (json.dumps({"files": {"index.html": INDEX_SHA, "a//index.html": INDEX_SHA}}).encode(), "expected a plain relative path"),
    (json.dumps({"files": {"index.html": "abc"}}).encode(), '$.files["index.html"]: expected a SHA-256'),
    (json.dumps({"files": {"index.html": INDEX_SHA}, "sources": {"../../outside.txt": OUTSIDE_SHA}}).encode(), '$.sources["../../outside.txt"]'),
    (json.dumps({"files": {"index.html": INDEX_SHA}, "families": "canonic"}).encode(), "$.families: expected a list"),
], ids=["truncated", "not-utf8", "list", "files-list", "no-files", "dotdot", "absolute", "backslash", "dot", "empty-part", "bad-sha", "source-dotdot", "families"])
def test_a_malformed_manifest_is_one_line_naming_it_and_nothing_outside_is_read(tmp_path, manifest, says):
    (tmp_path / "outside.txt").write_bytes(OUTSIDE_TEXT)
    manifest = manifest.replace(b"OUTSIDE", str(tmp_path / "outside.txt").encode())
    site = tiny_site(tmp_path, manifest)
    code, out = verify(site)
    assert code == 1
    about = lines_about(out, "manifest.json")
    assert len(about) == 1 and says in about[0], out
    assert not any("outside" in x for x in out if x not in about), out
    assert not any("Traceback" in x for x in out), out


def test_symbolic_links_in_the_site_are_reported_not_followed(site, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_bytes(OUTSIDE_TEXT)
    (site / "canonic" / "leak.txt").symlink_to(outside / "secret.txt")
    (site / "canonic" / "more").symlink_to(outside, target_is_directory=True)
    manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"]["canonic/leak.txt"] = OUTSIDE_SHA
    manifest["files"]["canonic/more/secret.txt"] = OUTSIDE_SHA
    (site / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    code, out = verify(site)
    assert code == 1
    assert "canonic/leak.txt: a symbolic link inside the site; not followed" in out
    assert "canonic/more: a symbolic link inside the site; not followed" in out
    assert "canonic/more/secret.txt: listed in manifest.json but missing" in out


def test_the_example_workflow_verifies_every_byte_and_restores_only_an_exact_cache(repo_root):
    text = (repo_root / "examples" / "ci" / "github-actions.yml").read_text(encoding="utf-8")
    import yaml

    steps = yaml.safe_load(text)["jobs"]["test-build-deploy"]["steps"]
    runs = [s.get("run", "").strip().splitlines()[-1] for s in steps if "run" in s]
    # both against the live site's release when LIVE_SITE is set (sitegen.releases), dated by the commit
    previous = '${LIVE_SITE:+--previous "$LIVE_SITE"}'
    assert runs.index(f"sitegen verify _site --source . {previous}") > runs.index(f"sitegen build --out _site {previous}")
    assert runs.index('echo "SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)" >> "$GITHUB_ENV"') < runs.index(f"sitegen build --out _site {previous}")
    # a cache restored by a key prefix would be another run's, built from other inputs
    assert not [x for x in text.splitlines() if x.strip().startswith("restore-keys:")]


# --------------------------------------------------------------------------- edits with every hash rewritten


def rehash(site: Path, *rels: str) -> None:
    """rewrite_hashes for each of RELS, and for a raw record the manifest's "sources" too; an
    archive that holds one of RELS gets its new bytes: all that someone who edited RELS after
    the build could rewrite to match."""
    for rel in rels:
        for archive in sorted((site / "downloads").glob("*.zip")):
            with zipfile.ZipFile(archive) as zf:
                held = rel in zf.namelist()
            if held:
                rewrite_zip(archive, lambda m, rel=rel: m.update({rel: (site / rel).read_bytes()}))
                rewrite_hashes(site, archive.relative_to(site).as_posix())
        rewrite_hashes(site, rel)
        if rel.startswith("raw/"):
            manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
            manifest["sources"][rel.removeprefix("raw/")] = manifest["files"][rel]
            (site / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")


def rewrite_zip(path: Path, edit) -> None:
    """The archive at PATH with EDIT(members) applied to its {name: bytes}, written again."""
    with zipfile.ZipFile(path) as zf:
        members = {i.filename: zf.read(i) for i in zf.infolist()}
    edit(members)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)


BOARD = "canonic/book-opening/board.csv"


def edit_page(site: Path) -> str:
    rel = "canonic/index.html"
    page = (site / rel).read_text(encoding="utf-8")
    cell = re.search(r'<td class="n">([0-9.]+)</td>', page)
    assert cell, f"no number in a cell of {rel}"
    (site / rel).write_text(page[:cell.start(1)] + cell.group(1) + "1" + page[cell.end(1):], encoding="utf-8")
    return rel


def edit_svg(site: Path) -> str:
    rel = "canonic/figure-3.svg"
    data = bytearray((site / rel).read_bytes())
    i = next(m.start() for m in re.finditer(rb"[0-9]", bytes(data)) if m.start() > 200)
    data[i] = ord("1") if data[i] != ord("1") else ord("2")
    (site / rel).write_bytes(bytes(data))
    return rel


def edit_zip_member(site: Path) -> str:
    rewrite_zip(site / "downloads/canonic.zip", lambda m: m.update({BOARD: m[BOARD].replace(b"\n", b"\nedited,", 1)}))
    return "downloads/canonic.zip"


def edit_zip_list(site: Path) -> str:
    def edit(m: dict) -> None:
        del m["canonic/boards.json"]
        m["canonic/notes.txt"] = b"not a download of the family\n"
    rewrite_zip(site / "downloads/canonic.zip", edit)
    return "downloads/canonic.zip"


def edit_feed_entry(site: Path) -> str:
    text = (site / "feed.xml").read_text(encoding="utf-8")
    title = re.search(r"<entry>\n    <id>[^<]*</id>\n    <title>([^<]*)</title>", text)
    (site / "feed.xml").write_text(text[:title.end(1)] + " (revised)" + text[title.end(1):], encoding="utf-8")
    return "feed.xml"


def edit_sums(site: Path) -> str:
    """SHA256SUMS made to attest to other bytes of the board, as if the board had been replaced."""
    sums = site / "SHA256SUMS"
    sums.write_text("".join(f"{'0' * 64}  {BOARD}\n" if x.endswith(f"  {BOARD}\n") else x
                            for x in sums.read_text(encoding="utf-8").splitlines(keepends=True)), encoding="utf-8")
    return "SHA256SUMS"


def edit_raw_record(site: Path) -> str:
    """The score of every judgment of the first counted cell, as a harness would never write it:
    the boards recomputed from the edited cells differ from the published ones."""
    raw = site / "raw" / CELLS_REL
    lines = raw.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines):
        rec = json.loads(line) if line.strip() else None
        if rec and two_standard_scores(rec) and ref_status(rec) == "counted":
            for j in rec["judgments"]:
                j["anchors"] = {d: 1.0 for d in j["anchors"]}
                j.pop("weighted_score", None)
            lines[i] = json.dumps(rec, ensure_ascii=False)
            break
    raw.write_text("\n".join(lines), encoding="utf-8")
    return f"raw/{CELLS_REL}"


CAUGHT = {
    "zip-member": (edit_zip_member, [f"downloads/canonic.zip: {BOARD} is "]),
    "zip-list": (edit_zip_list, ["downloads/canonic.zip: lacks canonic/boards.json, a download the family publishes",
                                 "downloads/canonic.zip: holds canonic/notes.txt, which is not a download the family publishes"]),
    "feed-entry": (edit_feed_entry, ["feed.xml entry tag:"]),
    "sums": (edit_sums, [f"SHA256SUMS: {'0' * 64}  {BOARD} is not a line the published files give"]),
    "raw-record": (edit_raw_record, ["canonic/"]),
}


@pytest.mark.parametrize("kind", list(CAUGHT))
def test_an_edit_with_every_hash_rewritten_is_caught_where_the_site_gives_the_file_again(site, kind):
    edit, says = CAUGHT[kind]
    rehash(site, edit(site))
    code, out = verify(site)
    assert code == 1, kind
    for start in says:
        assert any(x.startswith(start) for x in out), (start, out)
    if kind == "raw-record":  # the boards recomputed from it
        assert any(re.match(r"canonic/[a-z-]+/board\.csv row [0-9]+ column score", x) for x in out), out
    assert not any("Traceback" in x for x in out), out


@pytest.mark.parametrize(("edit", "named"), [(edit_page, "the pages (and every number they show)"), (edit_svg, "figures' SVG")],
                         ids=["page", "figure-svg"])
def test_an_edit_verify_cannot_catch_is_named_in_its_closing_words_as_checked_by_hash_only(site, edit, named):
    rehash(site, edit(site))
    r = run_cli("verify", str(site))
    assert r.returncode == 0, r.stderr
    verified, hash_only = r.stdout.splitlines()
    assert verified.startswith("verified: every file matches manifest.json")
    assert "every published number" not in r.stdout  # a page's numbers are not recomputed
    assert hash_only.startswith("checked by hash only") and named in hash_only and "--source REPO" in hash_only


def test_the_family_feed_and_a_file_no_family_gives_are_caught_with_their_hashes_rewritten(built_site, tmp_path):
    site = Path(shutil.copytree(built_site.out, tmp_path / "site"))
    feed = site / "chronicle/feed.xml"
    feed.write_text(feed.read_text(encoding="utf-8").replace("<title>", "<title>Revised: ", 2), encoding="utf-8")
    (site / "canonic/extra.csv").write_text("domain,score\nall,99\n", encoding="utf-8")
    rehash(site, "chronicle/feed.xml", "canonic/extra.csv")
    code, out = verify(site)
    assert code == 1
    (line,) = lines_about(out, "chronicle/feed.xml line ")
    assert "published" in line and "Revised: " in line and "derived" in line, line
    assert "canonic/extra.csv: published, but not a table, figure, raw record or file of any family" in out


def test_an_edited_artifact_record_of_the_manifest_is_caught(site):
    manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
    name = "canonic/book-opening/board"
    manifest["artifacts"][name]["computation"] = "copied from the harness"
    (site / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    code, out = verify(site)
    assert code == 1
    assert out[:-1] == [f'manifest.json $.artifacts["{name}"]: differs from the record the raw records give'], out


def test_a_folder_of_the_site_that_cannot_be_read_is_one_line_naming_it(site, monkeypatch):
    locked = site / "canonic" / "diagnostics"
    real = os.scandir

    def scandir(path=".", real=real):  # root reads a 0000 folder anyway: deny it as the kernel denies anyone else
        if Path(os.fsdecode(path)) == locked:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fsdecode(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    r = run_cli("verify", str(site))
    assert r.returncode == 1
    assert r.stderr.splitlines()[:2] == ["canonic/diagnostics: expected a folder that can be read; found Permission denied (not read)",
                                         "1 mismatch: the site does not match its records"], r.stderr
    assert "Traceback" not in r.stderr
