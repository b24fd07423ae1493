"""Only regular files inside the repository are inputs, and every input a build reads goes
through a reader that says what is wrong with it: a symlink out of the repository, a FIFO or a
device is one problem naming it and is never opened; an editor's lock file is skipped; what
`validate` accepts, `build` publishes (a byte-order mark, a large integer); a file nested too
deep, or an object of a million keys, gets a bounded report.

Every command-line run carries run_cli's timeout, so a reader that blocked would fail the test
instead of hanging it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitegen.load import Loaded, _has_long_digit_run, _max_depth, _too_deep, read_json

from conftest import CELLS_REL, FREEZE_REL, PROBES_REL, copy_site, hash_tree, read_json as read_json_file, run_cli, write_json

NOT_AN_INPUT = "expected a regular file inside the repository; found"


def build_cli(root: Path, out: Path, *flags: str, process: bool = False):
    return run_cli("build", "--root", str(root), "--out", str(out), *flags, process=process)


def problem_lines(r) -> list[str]:
    """The problem lines of a run that must have failed on its inputs (exit 1, no traceback)."""
    text = r.stdout + r.stderr
    assert r.returncode == 1, text
    assert "Traceback" not in text and "unexpected" not in text, text
    lines = text.splitlines()
    start = next(i for i, t in enumerate(lines) if t.endswith("in the inputs:"))
    return lines[start + 1:]


def files_containing(tree: Path, needle: bytes) -> list[str]:
    """The regular files under tree holding `needle` (symlinks not followed)."""
    return sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*")
                  if not p.is_symlink() and p.is_file() and needle in p.read_bytes())


# --------------------------------------------------------------------------- what is an input


def test_symlinks_out_of_the_repository_are_refused_by_name_and_nothing_of_them_is_published(tmp_path, built_site):
    site, out = copy_site(tmp_path / "site", cache_from=built_site.root, families=["canonic"]), tmp_path / "out"
    assert build_cli(site, out).returncode == 0
    before = hash_tree(out)
    secret = b"MY_SECRET_TOKEN=s3cr3t-0f-the-build-host"
    host = tmp_path / "host"
    host.mkdir()
    (host / "environ").write_bytes(secret + b"\n")
    (host / "leak.md").write_bytes(b"---\ntitle: Leaked\n---\n" + secret + b"\n")
    (site / "assets").mkdir(exist_ok=True)
    (site / "assets" / "env.txt").symlink_to(host / "environ")
    (site / "content" / "leak.md").symlink_to(host / "leak.md")
    (site / "data" / "canonic" / "zero.json").symlink_to("/dev/zero")

    for r in (build_cli(site, out, process=True), run_cli("validate", "--root", str(site), process=True)):  # /dev/zero: a hang ends at the timeout
        assert problem_lines(r) == [
            f"assets/env.txt: {NOT_AN_INPUT} a symlink to a path outside it",
            f"content/leak.md: {NOT_AN_INPUT} a symlink to a path outside it",
            f"data/canonic/zero.json: {NOT_AN_INPUT} a symlink to a path outside it",
        ]
        assert secret.decode() not in r.stdout + r.stderr
    assert hash_tree(out) == before
    assert files_containing(tmp_path, secret) == ["host/environ", "host/leak.md"]


def test_a_symlink_to_an_untracked_file_inside_the_repository_is_refused_by_name_and_nothing_of_it_is_published(tmp_path, built_site):
    """A link that stays inside the repository but leads to no input: .git/config (where a CI
    checkout keeps the job token), an untracked .env, the cache, the output. Each is one problem
    naming the link, in build and validate alike, and no byte of what it leads to is published."""
    site = copy_site(tmp_path / "site", cache_from=built_site.root, families=["nextchapter"])
    out = site / "_site"
    assert build_cli(site, out).returncode == 0
    before = hash_tree(out)
    token = b"AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46c2VjcmV0"
    secret = b"API_KEY=s3cr3t-in-an-untracked-env"
    (site / ".git").mkdir()
    (site / ".git" / "config").write_bytes(b'[http "https://example.invalid/"]\n\textraheader = ' + token + b"\n")
    (site / ".env").write_bytes(secret + b"\n")
    (site / "assets").mkdir(exist_ok=True)
    (site / "assets" / "x.txt").symlink_to("../.git/config")
    (site / "assets" / "env.txt").symlink_to("../.env")
    (site / "assets" / "page.html").symlink_to("../_site/index.html")
    (site / "templates").mkdir(exist_ok=True)
    (site / "templates" / "page.html").symlink_to("../.env")
    (site / "content" / "cached.md").symlink_to("../.sitegen-cache/anything.md")
    (site / "content" / "notes.md").symlink_to("../README.md")
    (site / "README.md").write_text("---\ntitle: Notes\n---\nnot an input\n", encoding="utf-8")
    hidden, dot = f"{NOT_AN_INPUT} a symlink to", "which is not an input (a dot-file or inside a dot-folder)"
    expected = [
        f"assets/env.txt: {hidden} .env, {dot}",
        f"assets/page.html: {hidden} _site/index.html, which is not an input (outside the input folders)",
        f"assets/x.txt: {hidden} .git/config, {dot}",
        f"content/cached.md: {hidden} .sitegen-cache/anything.md, {dot}",
        f"content/notes.md: {hidden} README.md, which is not an input (outside the input folders)",
        f"templates/page.html: {hidden} .env, {dot}",
    ]
    for r in (build_cli(site, out), run_cli("validate", "--root", str(site))):
        assert problem_lines(r) == expected
    assert hash_tree(out) == before
    assert files_containing(out, token) == files_containing(out, secret) == []


def test_dot_files_in_the_input_folders_are_not_inputs_and_no_template_reads_one(tmp_path, built_site):
    """A dot-file or dot-folder inside an input folder is skipped as an editor's dropping is
    (.DS_Store, .gitkeep, a .env beside the assets); a template that names one does not find it."""
    site = copy_site(tmp_path / "site", cache_from=built_site.root, families=["nextchapter"])
    out = tmp_path / "out"
    secret = b"API_KEY=s3cr3t-in-a-dot-file"
    (site / "assets" / ".private").mkdir(parents=True)
    (site / "assets" / ".env").write_bytes(secret + b"\n")
    (site / "assets" / ".private" / "key.txt").write_bytes(secret + b"\n")
    (site / "content" / ".drafts").mkdir()
    (site / "content" / ".drafts" / "draft.md").write_text("---\ntitle: Draft\n---\n" + secret.decode() + "\n", encoding="utf-8")
    r = build_cli(site, out)
    assert r.returncode == 0, r.stdout + r.stderr
    assert files_containing(out, secret) == []
    (site / "templates").mkdir(exist_ok=True)
    (site / "templates" / ".env.html").write_bytes(secret + b"\n")
    (site / "content" / "leak.md").write_text("---\ntitle: Leak\ntemplate: .env.html\n---\nbody\n", encoding="utf-8")
    lines = problem_lines(build_cli(site, out))
    assert len(lines) == 1 and lines[0].startswith("content/leak.md:") and ".env.html" in lines[0], lines
    assert files_containing(out, secret) == []


def test_a_fifo_in_a_data_folder_is_one_problem_under_a_warm_cache_never_a_hang(tmp_path, built_site):
    site, out = copy_site(tmp_path / "site", cache_from=built_site.root, families=["canonic"]), tmp_path / "out"
    assert build_cli(site, out).returncode == 0
    before = hash_tree(out)
    cells = site / CELLS_REL
    cells.unlink()
    os.mkfifo(cells)  # read by the family: one problem, not also "no such file"
    os.mkfifo(site / "data" / "canonic" / "notes.fifo")  # read by nobody, still in an input folder
    expected = [f"{CELLS_REL}: {NOT_AN_INPUT} a FIFO", f"data/canonic/notes.fifo: {NOT_AN_INPUT} a FIFO"]
    # In processes of their own: a read that hangs ends at their timeout, not the suite's.
    assert problem_lines(build_cli(site, out, process=True)) == expected
    assert problem_lines(build_cli(site, out, "--no-cache", process=True)) == expected
    assert problem_lines(run_cli("validate", "--root", str(site), process=True)) == expected
    assert hash_tree(out) == before


def test_an_amendment_entry_that_is_a_fifo_or_a_symlink_out_is_one_problem_never_opened(tmp_path, built_site):
    """A log entry is keyed by its front matter, read before any family loads: only an input is
    ever read for it, so a FIFO there is never opened (a hang) and a link out never followed."""
    site, out = copy_site(tmp_path / "site", cache_from=built_site.root, families=["nextchapter"]), tmp_path / "out"
    assert build_cli(site, out).returncode == 0
    before = hash_tree(out)
    log = site / "content" / "nextchapter" / "amendments"
    log.mkdir(parents=True, exist_ok=True)
    os.mkfifo(log / "A8.md")
    (tmp_path / "host.md").write_text("---\nid: A9\n---\nhost\n", encoding="utf-8")
    (log / "A9.md").symlink_to(tmp_path / "host.md")
    expected = [f"content/nextchapter/amendments/A8.md: {NOT_AN_INPUT} a FIFO",
                f"content/nextchapter/amendments/A9.md: {NOT_AN_INPUT} a symlink to a path outside it"]
    assert problem_lines(build_cli(site, out, process=True)) == expected
    assert problem_lines(run_cli("validate", "--root", str(site), process=True)) == expected
    assert hash_tree(out) == before


def test_an_emacs_lock_file_is_skipped_and_publishes_nothing(tmp_path, built_site):
    site, out = copy_site(tmp_path / "site", cache_from=built_site.root, families=["nextchapter"]), tmp_path / "out"
    # What emacs leaves beside a file being edited: a symlink to "user@host.pid:boot", dangling.
    (site / "content" / ".#index.md").symlink_to("editor@host.4242:1764600000")
    (site / "content" / "index.md~").write_text("---\ntitle: Backup\n---\nold\n", encoding="utf-8")
    r = build_cli(site, out)
    assert r.returncode == 0, r.stdout + r.stderr
    assert not [rel for rel in hash_tree(out) if ".#" in rel or "~" in rel or "Backup" in rel]
    assert files_containing(out, b"editor@host") == []
    assert build_cli(site, out).stdout.startswith("up to date")


def test_a_symlink_to_a_file_inside_the_repository_is_read_as_that_file(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "real.json").write_text('{"a": 1}', encoding="utf-8")
    (tmp_path / "data" / "alias.json").symlink_to("real.json")
    (tmp_path / "data" / "dangling.json").symlink_to("gone.json")
    loaded = Loaded()
    src, rec = read_json(tmp_path, tmp_path / "data" / "alias.json", loaded, 1000)
    assert (src.rel, rec.value, loaded.problems) == ("data/alias.json", {"a": 1}, [])
    src, rec = read_json(tmp_path, tmp_path / "data" / "dangling.json", loaded, 1000)
    assert (src, rec) == (None, None)
    assert [str(p) for p in loaded.problems] == [f"data/dangling.json: {NOT_AN_INPUT} a dangling symlink"]


# --------------------------------------------------------------------------- paths the contract names


def test_a_freeze_path_cannot_climb_out_of_content(tmp_path, site_copy):
    outside = tmp_path / "x.md"
    outside.write_text("# not part of the site\n", encoding="utf-8")
    freeze = read_json_file(site_copy, FREEZE_REL)
    i = next(i for i, item in enumerate(freeze["items"]) if item["kind"] == "show-bible")
    freeze["items"][i]["path"] = "content/../../x.md"
    write_json(site_copy, FREEZE_REL, freeze)
    lines = problem_lines(run_cli("validate", "--root", str(site_copy)))
    assert len(lines) == 1 and lines[0].startswith(f"{FREEZE_REL} $.items[{i}].path: expected "), lines


def test_a_freeze_path_through_a_symlinked_folder_is_refused_by_name(tmp_path, site_copy):
    # The Show Bibles' folder moved out of the repository and linked back: every Bible the
    # freeze record names is reached through the link, so each is refused by its path.
    shelf = tmp_path / "shelf"
    bibles = site_copy / "content" / "canonic" / "bibles"
    shutil.move(bibles, shelf)
    bibles.symlink_to(shelf)  # a folder: not walked, so not a page either
    freeze = read_json_file(site_copy, FREEZE_REL)
    paths = sorted(item.get("path") or f"content/canonic/bibles/{item['id']}.md"
                   for item in freeze["items"] if item["kind"] == "show-bible")
    assert problem_lines(run_cli("validate", "--root", str(site_copy))) == [
        f"{path}: {NOT_AN_INPUT} a path that leads outside it" for path in paths]


@pytest.mark.parametrize("version", ["1/", "1/."])
def test_a_slug_that_is_not_normal_is_refused_at_its_json_path(site_copy, version):
    freeze = read_json_file(site_copy, FREEZE_REL)
    i = next(i for i, item in enumerate(freeze["items"]) if item["kind"] == "task-set")
    freeze["items"][i]["history"][-1]["version"] = version
    write_json(site_copy, FREEZE_REL, freeze)
    lines = problem_lines(run_cli("validate", "--root", str(site_copy)))
    k = len(freeze["items"][i]["history"]) - 1
    assert len(lines) == 1 and lines[0].startswith(f"{FREEZE_REL} $.items[{i}].history[{k}].version: expected "), lines


# --------------------------------------------------------------------------- what validate accepts, build publishes

BOM = b"\xef\xbb\xbf"


def test_a_byte_order_mark_is_accepted_by_validate_and_build_alike_and_published_as_it_is(tmp_path, cached_site_copy):
    site, out = cached_site_copy, tmp_path / "out"
    # A JSON document, a JSON Lines file and a page of the two families that rebuild fastest
    # (the reading is the same for every family's files).
    marked = ["data/nextchapter/run.json", "data/vignette/prompts.jsonl", "data/nextchapter/items.jsonl", "content/index.md"]
    for rel in marked:
        (site / rel).write_bytes(BOM + (site / rel).read_bytes())
    v = run_cli("validate", "--root", str(site))
    assert v.returncode == 0, v.stdout + v.stderr
    b = build_cli(site, out)
    assert b.returncode == 0, b.stdout + b.stderr
    for rel in marked[:3]:  # the raw records, byte for byte
        assert (out / "raw" / rel).read_bytes() == (site / rel).read_bytes()
    assert run_cli("verify", str(out)).returncode == 0


def test_an_integer_beyond_64_bits_is_refused_by_validate_and_build_alike_at_its_path(tmp_path, site_copy):
    rel = "data/chronicle/reference.jsonl"
    lines = (site_copy / rel).read_text(encoding="utf-8").split("\n")
    rec = json.loads(lines[0])
    rec["gutenberg_id"] = 2**64
    lines[0] = json.dumps(rec)
    (site_copy / rel).write_text("\n".join(lines), encoding="utf-8")
    expected = [f"{rel}:1 $.gutenberg_id: expected an integer between -2^63 and 2^63-1; found {2**64}"]
    assert problem_lines(run_cli("validate", "--root", str(site_copy))) == expected
    assert problem_lines(build_cli(site_copy, tmp_path / "out")) == expected
    assert not (tmp_path / "out").exists()


def test_the_integer_range_is_signed_64_bits_and_every_integer_outside_is_named(tmp_path):
    huge = "1" + "0" * 5000  # more digits than Python converts at all
    (tmp_path / "n.json").write_text(f'{{"ok": [{2**63 - 1}, {-(2**63)}, 0], "big": [{2**63}, {-(2**63) - 1}, {huge}]}}', encoding="utf-8")
    loaded = Loaded()
    _src, rec = read_json(tmp_path, tmp_path / "n.json", loaded, 100_000)
    assert rec is None
    assert [str(p) for p in loaded.problems] == [
        f"n.json $.big[0]: expected an integer between -2^63 and 2^63-1; found {2**63}",
        f"n.json $.big[1]: expected an integer between -2^63 and 2^63-1; found {-(2**63) - 1}",
        "n.json $.big[2]: expected an integer between -2^63 and 2^63-1; found an integer of 5,001 digits",
    ]
    (tmp_path / "n.json").write_text(json.dumps([2**63 - 1, -(2**63)]), encoding="utf-8")
    _src, rec = read_json(tmp_path, tmp_path / "n.json", Loaded(), 100_000)
    assert rec.value == [2**63 - 1, -(2**63)]


# --------------------------------------------------------------------------- bounded reports


def test_json_nested_a_thousand_deep_is_one_problem_naming_the_file_and_line(tmp_path, site_copy):
    (site_copy / PROBES_REL).write_text("[" * 1000 + "]" * 1000, encoding="utf-8")
    lines = (site_copy / CELLS_REL).read_text(encoding="utf-8").split("\n")
    lines[2] = '{"a":' * 1000 + "1" + "}" * 1000
    (site_copy / CELLS_REL).write_text("\n".join(lines), encoding="utf-8")
    expected = [f"{CELLS_REL}:3: expected JSON nested at most 200 levels deep; found level 201 at column 1001",
                f"{PROBES_REL}:1: expected JSON nested at most 200 levels deep; found level 201 at column 201"]
    assert problem_lines(run_cli("validate", "--root", str(site_copy))) == expected
    assert problem_lines(build_cli(site_copy, tmp_path / "out")) == expected


def test_nesting_up_to_the_limit_is_read(tmp_path):
    (tmp_path / "deep.json").write_text('{"a":' * 199 + "[1]" + "}" * 199, encoding="utf-8")
    loaded = Loaded()
    _src, rec = read_json(tmp_path, tmp_path / "deep.json", loaded, 100_000)
    assert loaded.problems == [] and rec is not None


def _unknown_keys_on_line_5(site_copy, n: int) -> None:
    lines = (site_copy / CELLS_REL).read_text(encoding="utf-8").split("\n")
    lines[4] = lines[4].rstrip()[:-1] + "," + ",".join(f'"k{i}":0' for i in range(n)) + "}"
    (site_copy / CELLS_REL).write_text("\n".join(lines), encoding="utf-8")


def test_a_line_of_five_thousand_unknown_keys_prints_twenty_of_them_and_how_many_more(site_copy):
    _unknown_keys_on_line_5(site_copy, 5_000)
    r = run_cli("validate", "--root", str(site_copy))
    shown = problem_lines(r)
    assert (r.stdout + r.stderr).splitlines()[0] == "5,000 problems in the inputs:"
    assert len(shown) == 22
    assert all(line.startswith(f"{CELLS_REL}:5 $.k") for line in shown[:20])
    assert shown[20:] == [f"{CELLS_REL}: 4,980 more problems not shown", "(run sitegen validate --all to list them all)"]


def test_a_line_of_a_million_unknown_keys_is_one_problem_never_a_million(site_copy):
    # An object of more keys than any contract has is refused as a whole, before validation
    # would make (and hold in memory) a problem for every one of its keys.
    _unknown_keys_on_line_5(site_copy, 1_000_000)
    r = run_cli("validate", "--root", str(site_copy))
    n_keys = len(json.loads((site_copy / CELLS_REL).read_text(encoding="utf-8").split("\n")[4]))
    assert problem_lines(r) == [f"{CELLS_REL}:5 $: expected an object of at most 10,000 keys; found an object of {n_keys:,} keys"]


def test_each_file_shows_at_most_twenty_problems_and_counts_the_rest():
    from sitegen.errors import InputError, Problem

    problems = [Problem("data/a.jsonl", i, "$.x", "a number", f'"{i}"') for i in range(1, 26)]
    problems.append(Problem("data/b.json", None, "$.y", "a number", "null"))
    lines = str(InputError(problems)).splitlines()
    assert lines[0] == "26 problems in the inputs:"
    assert lines[1:21] == [f'data/a.jsonl:{i} $.x: expected a number; found "{i}"' for i in range(1, 21)]
    assert lines[21:] == ["data/a.jsonl: 5 more problems not shown", "data/b.json $.y: expected a number; found null",
                          "(run sitegen validate --all to list them all)"]


def test_a_text_asset_that_is_not_utf8_is_published_as_it_is(tmp_path, built_site):
    site, out = copy_site(tmp_path / "site", cache_from=built_site.root, families=["nextchapter"]), tmp_path / "out"
    (site / "assets").mkdir(exist_ok=True)
    (site / "assets" / "latin-1.txt").write_bytes("café, naïve\n".encode("latin-1"))
    assert run_cli("validate", "--root", str(site)).returncode == 0
    r = build_cli(site, out)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (out / "assets" / "latin-1.txt").read_bytes() == "café, naïve\n".encode("latin-1")


@pytest.mark.parametrize("text, depth", [
    ('{"a": "[[[[[[[[[[", "b": [1, {"c": "\\"]]]]"}]}', 3),
    ('{"a": "\\\\", "b": [[[]]]}', 4),
    ('[' * 5 + ']' * 5, 5),
    ('{}', 1),
])
def test_the_nesting_depth_skips_brackets_inside_strings(text, depth):
    json.loads(text)
    assert _max_depth(text) == depth


def _depth(value) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(alphabet='[]{}"\\ab,:é'),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(alphabet='[]{}"\\a'), inner, max_size=4),
                           max_leaves=30)


@given(JSON_VALUES, st.booleans())
def test_the_nesting_depth_of_any_json_text_is_the_depth_of_its_value(value, ascii_only):
    assert _max_depth(json.dumps(value, ensure_ascii=ascii_only)) == _depth(value)


@given(st.lists(st.text(alphabet="0123456789", min_size=1, max_size=22) | st.text(alphabet=' ."\u0663é', min_size=1, max_size=3)).map("".join))
def test_a_run_of_19_digits_is_found_where_a_regular_expression_finds_one(text):
    # (U+0663, an Arabic-Indic digit, is not a JSON digit: [0-9] does not match it)
    assert _has_long_digit_run(text) == bool(re.search("[0-9]{19}", text))


def test_a_deep_document_with_many_brackets_in_strings_is_still_found_where_it_goes_too_deep():
    strings = ",".join(['"[[[{{{\\"]]"'] * 100)
    ok = "[" + strings + ",[[1]]]"
    assert _too_deep(ok) is None
    deep = "[" + strings + "," + "[" * 200 + "]" * 200 + "]"
    assert _too_deep(deep) == len("[" + strings + ",") + 199
