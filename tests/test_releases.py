"""Releases: every build checked against the previous release (sitegen.releases, release_checks).

A previous release is built from an unedited copy of the demo (ChronicleBench, with its frozen
protocol, amendment log and v1.0 archive, and Vignette, with its archived sweep s1); each quiet
edit is then made on a copy and built against it, and refused with a line naming what changed,
nothing written. Legitimate changes pass and appear in the release record.
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import shutil
import threading
from pathlib import Path

import pytest

from conftest import copy_site, pin_sweeps, run_cli
from sitegen.build import build
from sitegen.config import load_config
from sitegen.errors import InputError
from sitegen.fingerprint import text_fingerprint
from sitegen.release_source import read_previous
from sitegen.verify import verify

FAMILIES = ["chronicle", "vignette"]
PREVIOUS_EPOCH = "1796083200"  # 2026-12-01: the previous release's date
LATER_EPOCH = "1797292800"  # 2026-12-15: the builds that follow it
DAY_AFTER = "1797379200"  # 2026-12-16
PROTOCOL = "content/chronicle/protocol.md"
FREEZE = "data/chronicle/freeze.json"


def release_one(tmp_path_factory, name: str, families: list[str]) -> tuple[Path, Path]:
    """(the unedited site of FAMILIES, its build: release 1 dated 2026-12-01)."""
    mp = pytest.MonkeyPatch()
    mp.setenv("SOURCE_DATE_EPOCH", PREVIOUS_EPOCH)
    root = copy_site(tmp_path_factory.mktemp(name) / "site", families=families)
    out = root.parent / "release-1"
    build(load_config(root), out)
    mp.undo()
    return root, out


@pytest.fixture(scope="module")
def released(tmp_path_factory):
    return release_one(tmp_path_factory, "releases", FAMILIES)


@pytest.fixture
def later(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", LATER_EPOCH)


def edited(released, tmp_path: Path, families: list[str] = FAMILIES) -> Path:
    """A copy of the released site's inputs, with its cache, to edit."""
    root, _out = released
    return copy_site(tmp_path / "site", cache_from=root, families=families)


def refused(root: Path, previous: Path, out: Path) -> list[str]:
    with pytest.raises(InputError) as e:
        build(load_config(root), out, previous=read_previous(str(previous)))
    assert not out.exists()  # nothing written
    return [str(p) for p in e.value.problems]


def built(root: Path, previous, out: Path) -> dict:
    build(load_config(root), out, previous=read_previous(str(previous)))
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))["release"]


def new_entry(root: Path, fid: str, entry_id: str, date: str, title: str = "A later change") -> str:
    rel = f"content/{fid}/amendments/{entry_id}.md"
    extra = "timing: AFTER generation\ndirected_by: maintainers\nscope: methodology\n" if fid == "chronicle" else ""
    (root / rel).write_text(f"---\nid: {entry_id}\nkind: amendment\ntitle: \"{title}\"\ndate: {date}\n{extra}---\n\nWhat changed, and why.\n",
                            encoding="utf-8")
    return rel


def freeze_doc(root: Path) -> dict:
    return json.loads((root / FREEZE).read_text(encoding="utf-8"))


def write_freeze(root: Path, doc: dict) -> None:
    (root / FREEZE).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")


def protocol_edited(root: Path) -> str:
    """The frozen protocol with a rule deleted; its new fingerprint."""
    path = root / PROTOCOL
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("Every future model addition follows §6 verbatim. ", ""), encoding="utf-8")
    return text_fingerprint(path.read_bytes())


def protocol_item(doc: dict) -> dict:
    return next(i for i in doc["items"] if i["kind"] == "protocol")


# --------------------------------------------------------------------------- quiet edits, refused


def test_an_amendment_edited_is_refused(released, tmp_path, later):
    root = edited(released, tmp_path)
    path = root / "content/vignette/amendments/A1.md"
    path.write_text(path.read_text(encoding="utf-8").replace("item for item", "mostly"), encoding="utf-8")
    lines = refused(root, released[1], tmp_path / "out")
    assert any(line.startswith("content/vignette/amendments/A1.md: expected entry A1 byte for byte as release 1 (2026-12-01) published it")
               and "a correction is a new entry" in line and "its file was edited" in line for line in lines), lines


def test_an_amendment_deleted_with_its_freeze_record_is_refused(released, tmp_path, later):
    root = edited(released, tmp_path)
    (root / "content/chronicle/amendments/A6.md").unlink()
    doc = freeze_doc(root)
    doc["items"] = [i for i in doc["items"] if i["id"] != "entry-a6"]
    write_freeze(root, doc)
    lines = refused(root, released[1], tmp_path / "out")
    assert any(line.startswith("content/chronicle/amendments/A6.md: expected entry A6 as release 1 (2026-12-01) published it")
               and "never deleted; found no such file" in line for line in lines), lines
    assert any(line.startswith(f"{FREEZE} $.items: expected the item log-entry/entry-a6 as release 1 (2026-12-01) published it")
               for line in lines), lines


def test_an_amendment_back_dated_before_the_previous_release_is_refused(released, tmp_path, later):
    root = edited(released, tmp_path)
    rel = new_entry(root, "vignette", "A2", "2026-11-20")
    lines = refused(root, released[1], tmp_path / "out")
    assert f"{rel} date: expected a date on or after 2026-12-01, the date of release 1 (2026-12-01): an entry new since then is not dated before it; found 2026-11-20" in lines


def test_a_frozen_fingerprint_rewritten_in_place_is_refused(released, tmp_path, later):
    root = edited(released, tmp_path)
    doc = freeze_doc(root)
    item = protocol_item(doc)
    was = item["history"][-1]["fingerprint"]
    item["history"][-1]["fingerprint"] = fingerprint = protocol_edited(root)
    write_freeze(root, doc)
    lines = refused(root, released[1], tmp_path / "out")
    at = doc["items"].index(item)
    assert any(line.startswith(f"{FREEZE} $.items[{at}].history[1]: expected version v1.1.1 of protocol/protocol-v1.1 as release 1 (2026-12-01) "
                               f"published it (fingerprint {was})") and line.endswith(f"found fingerprint {fingerprint}") for line in lines), lines


def test_a_version_bump_without_its_amendment_is_refused(released, tmp_path, later):
    root = edited(released, tmp_path)
    doc = freeze_doc(root)
    protocol_item(doc)["history"].append({"version": "v1.1.2", "fingerprint": protocol_edited(root), "frozen_at": "2026-12-10T09:00:00Z",
                                          "note": "Wording only."})
    write_freeze(root, doc)
    lines = refused(root, released[1], tmp_path / "out")
    assert (f"{FREEZE} $.items[{doc['items'].index(protocol_item(doc))}].history[2].amendment: expected the id of the entry of content/chronicle/amendments/ new since release 1 "
            "(2026-12-01) that records version v1.1.2 of protocol/protocol-v1.1; found none") in lines


def test_an_archived_sweep_rescored_is_refused(released, tmp_path, later):
    root = edited(released, tmp_path)
    path = root / "data/vignette/sweep-s1.jsonl"
    lines = path.read_text(encoding="utf-8").split("\n")
    first = json.loads(lines[0])
    first["judgments"][0]["scores"]["voice"] = 20.0
    lines[0] = json.dumps(first, ensure_ascii=False, separators=(",", ":"))
    path.write_text("\n".join(lines), encoding="utf-8")
    problems = refused(root, released[1], tmp_path / "out")
    rescored = [line for line in problems if line.startswith("vignette/sweeps/s1/") and "an archived table is never rescored" in line]
    assert rescored and all("changed since: data/vignette/sweep-s1.jsonl" in line for line in rescored), problems
    assert any(line.startswith("vignette/sweeps/s1/items.csv:2 column voice: expected \"16.5\" as release 1") and line.endswith('found "20.0"')
               for line in rescored), rescored


def rewrite_jsonl(path: Path, edit) -> None:
    """Each record of the JSON-lines file at PATH passed through EDIT (which changes it in place)."""
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for record in records:
        edit(record)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")


def test_a_rerun_hidden_by_deleting_its_superseded_attempt_is_refused(released, tmp_path, later):
    root = edited(released, tmp_path)
    hidden = []

    def drop(run):
        if run.get("superseded") and not hidden:
            hidden.append(run["id"])
            run["superseded"] = []
    rewrite_jsonl(root / "data/chronicle/runs.jsonl", drop)
    lines = refused(root, released[1], tmp_path / "out")
    assert any(line.startswith(f"data/chronicle/runs.jsonl: expected the superseded attempt 1 of run {hidden[0]} (rerun after a ")
               and line.endswith("as release 1 (2026-12-01) published it (a published record is never deleted); found none")
               for line in lines), lines


def test_a_content_exclusion_deleted_is_refused(released, tmp_path, later):
    root = edited(released, tmp_path)
    path = root / "data/chronicle/selection.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    cand = next(c for c in doc["candidates"] if c.get("exclusion"))
    cand["exclusion"] = None
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    # the seeded selection, drawn again, then holds the work: refused before the release is compared
    lines = refused(root, released[1], tmp_path / "out")
    assert any(cand["title"] in line and "found no line of data/chronicle/reference.jsonl for it" in line for line in lines), lines


def renamed(root: Path, was: str, now: str, formerly: bool) -> None:
    for rel in ("data/chronicle/cohort.json", "data/chronicle/runs.jsonl"):
        path = root / rel
        path.write_text(path.read_text(encoding="utf-8").replace(f'"{was}"', f'"{now}"'), encoding="utf-8")
    if formerly:
        path = root / "data/chronicle/cohort.json"
        doc = json.loads(path.read_text(encoding="utf-8"))
        next(e for e in doc["entrants"] if e["id"] == now)["formerly"] = [was]
        path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def test_a_model_renamed_without_its_former_id_is_refused_and_with_it_passes(released, tmp_path, later):
    root = edited(released, tmp_path)
    renamed(root, "cohere/command-a-2", "cohere/command-a-2-0325", formerly=False)
    lines = refused(root, released[1], tmp_path / "out")
    assert ("data/chronicle/cohort.json: expected the model cohere/command-a-2 that release 1 (2026-12-01) published, under that id or named in "
            "`formerly` by the model renamed from it (a link or citation of the old id must still find its model); found no such id now") in lines
    renamed(root, "cohere/command-a-2-0325", "cohere/command-a-2-0325", formerly=True)
    (root / "data/chronicle/cohort.json").write_text((root / "data/chronicle/cohort.json").read_text(encoding="utf-8").replace(
        '"formerly": [\n        "cohere/command-a-2-0325"\n      ]', '"formerly": [\n        "cohere/command-a-2"\n      ]'), encoding="utf-8")
    record = built(root, released[1], tmp_path / "out")
    assert record["number"] == 2 and "data/chronicle/cohort.json" in record["changes"]["inputs_changed"]


@pytest.fixture(scope="module")
def released_nextchapter(tmp_path_factory):
    return release_one(tmp_path_factory, "nextchapter", ["nextchapter"])


def test_a_judged_reference_chapter_edited_with_its_hash_is_refused(released_nextchapter, tmp_path, later):
    """The reference chapter judged beside every model's is edited and its stored SHA-256
    updated to match: the file is consistent with itself, but not with what was published."""
    root = edited(released_nextchapter, tmp_path, ["nextchapter"])
    first = []

    def edit(item):
        if not first:
            first.append((item["id"], item["reference_sha256"]))
            item["reference_chapter"] = item["reference_chapter"].replace("the", "a", 1)
            item["reference_sha256"] = hashlib.sha256(item["reference_chapter"].encode("utf-8")).hexdigest()
            first.append(item["reference_sha256"])
    rewrite_jsonl(root / "data/nextchapter/items.jsonl", edit)
    lines = refused(root, released_nextchapter[1], tmp_path / "out")
    (item, was), now = first
    assert any(line.startswith(f"data/nextchapter/items.jsonl: expected the frozen reference chapter of {item} in run ")
               and f"as release 1 (2026-12-01) published it ({was})" in line and line.endswith(f"found {now}") for line in lines), lines


@pytest.fixture(scope="module")
def released_canonic(tmp_path_factory):
    return release_one(tmp_path_factory, "canonic", ["canonic"])


def canonic_copy(released_canonic, tmp_path: Path) -> tuple[Path, dict, dict]:
    root = edited(released_canonic, tmp_path, ["canonic"])
    return root, json.loads((root / "data/canonic/sweep.json").read_text(encoding="utf-8")), \
        json.loads((root / "data/canonic/freeze.json").read_text(encoding="utf-8"))


def write_canonic(root: Path, sweep: dict, freeze: dict) -> None:
    (root / "data/canonic/sweep.json").write_text(json.dumps(sweep, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (root / "data/canonic/freeze.json").write_text(json.dumps(freeze, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def test_a_canonic_task_edited_with_its_freeze_entry_rewritten_is_refused(released_canonic, tmp_path, later):
    """The task's text and both fingerprints that cover it rewritten to match: consistent with
    itself, so only the previous release can tell."""
    from sitegen.families.canonic.evidence_intake import task_set_fingerprint
    from sitegen.families.canonic.models import SweepFile

    root, sweep, freeze = canonic_copy(released_canonic, tmp_path)
    sweep["tasks"][0]["premise"] += " And then it rained."
    fingerprint = task_set_fingerprint(SweepFile.model_validate(sweep).tasks)
    sweep["task_set_fingerprint"] = fingerprint
    k = next(k for k, i in enumerate(freeze["items"]) if i["kind"] == "task-set")
    was = freeze["items"][k]["history"][0]["fingerprint"]
    freeze["items"][k]["history"][0]["fingerprint"] = fingerprint
    write_canonic(root, sweep, freeze)
    lines = refused(root, released_canonic[1], tmp_path / "out")
    assert any(line.startswith(f"data/canonic/freeze.json $.items[{k}].history[0]: expected version 1 of task-set/task-set as release 1 "
                               f"(2026-12-01) published it (fingerprint {was})") and line.endswith(f"found fingerprint {fingerprint}")
               for line in lines), lines
    assert any(line.startswith("data/canonic/sweep.json: expected sweep full-001 (a re-sweep is a new sweep, with a new id) as release 1")
               and line.endswith(f"task-set version 1 (fingerprint {fingerprint})") for line in lines), lines


def test_a_canonic_model_renamed_under_the_published_sweep_is_refused(released_canonic, tmp_path, later):
    root = edited(released_canonic, tmp_path, ["canonic"])
    for path in sorted((root / "data/canonic").glob("*.json*")):
        path.write_text(path.read_text(encoding="utf-8").replace('"amazon/nova-pro-2"', '"amazon/nova-pro-2-0301"'), encoding="utf-8")
    lines = refused(root, released_canonic[1], tmp_path / "out")
    assert any(line.startswith("data/canonic/sweep.json: expected the models of sweep full-001, by id as release 1 (2026-12-01) published it (")
               and "amazon/nova-pro-2-0301" in line.rsplit("found", 1)[1] for line in lines), lines


def test_a_canonic_re_sweep_that_is_only_a_version_label_is_refused(released_canonic, tmp_path, later):
    root, sweep, freeze = canonic_copy(released_canonic, tmp_path)
    item = next(i for i in freeze["items"] if i["kind"] == "task-set")
    item["history"].append({**item["history"][-1], "version": "2", "frozen_at": "2026-12-10T09:00:00Z", "note": "A re-sweep."})
    sweep["task_set_version"] = "2"
    write_canonic(root, sweep, freeze)
    lines = refused(root, released_canonic[1], tmp_path / "out")
    assert any(line.startswith("data/canonic/sweep.json $.sweep.date: expected a date on or after 2026-12-10, when task-set version 2 it ran "
                               "was frozen") and line.endswith("found 2026-08-08") for line in lines), lines


def test_a_tampered_previous_release_is_refused(released, tmp_path, later):
    root, out = released
    prev = tmp_path / "previous"
    shutil.copytree(out, prev)
    chain = json.loads((prev / "releases.json").read_text(encoding="utf-8"))
    chain[0]["date"] = "2026-11-01"
    data = (json.dumps(chain, indent=2) + "\n").encode()
    (prev / "releases.json").write_bytes(data)
    lines = refused(root, prev, tmp_path / "out")
    assert any(line.startswith(f"{prev}/releases.json: expected the releases.json its manifest lists") and "a tampered previous release" in line
               for line in lines), lines
    # and with the manifest's hash of it rewritten to match, the chain hash still tells
    manifest = json.loads((prev / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"]["releases.json"] = hashlib.sha256(data).hexdigest()
    (prev / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    lines = refused(root, prev, tmp_path / "out")
    assert any(line.startswith(f"{prev}/releases.json $[0].chain_sha256: expected ") and "was edited" in line for line in lines), lines


def test_a_previous_ledger_rewritten_is_refused(released, tmp_path, later):
    """A log entry struck from the previous manifest's ledger (so that deleting it would pass)
    no longer hashes to what its release's record holds."""
    root, out = released
    prev = tmp_path / "previous"
    shutil.copytree(out, prev)
    manifest = json.loads((prev / "manifest.json").read_text(encoding="utf-8"))
    del manifest["ledger"]["log"]["content/chronicle/amendments/A6.md"]
    (prev / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    lines = refused(root, prev, tmp_path / "out")
    assert len(lines) == 1 and lines[0].startswith(f"{prev}/manifest.json $.ledger: expected the ledger whose SHA-256 release 1 records")
    assert lines[0].endswith("a tampered previous release"), lines


# --------------------------------------------------------------------------- legitimate changes


def test_a_new_amendment_and_a_version_bump_with_its_amendment_make_release_2(released, tmp_path, later):
    root = edited(released, tmp_path)
    vignette = new_entry(root, "vignette", "A2", "2026-12-10")
    chronicle = new_entry(root, "chronicle", "A7", "2026-12-10", "A rule of section 6 withdrawn")
    doc = freeze_doc(root)
    protocol_item(doc)["history"].append({"version": "v1.1.2", "fingerprint": protocol_edited(root), "frozen_at": "2026-12-10T09:00:00Z",
                                          "note": "A rule withdrawn, as A7 records.", "amendment": "A7"})
    write_freeze(root, doc)
    record = built(root, released[1], tmp_path / "out")
    assert record["number"] == 2 and record["date"] == "2026-12-15" and record["date_from"] == "SOURCE_DATE_EPOCH"
    assert record["previous_manifest_sha256"] == hashlib.sha256((released[1] / "manifest.json").read_bytes()).hexdigest()
    assert record["changes"]["log_entries_added"] == [chronicle, vignette]
    assert record["changes"]["frozen_versions_added"] == [f"{FREEZE} protocol/protocol-v1.1 v1.1.2 (A7)"]
    assert set(record["changes"]["inputs_changed"]) == {FREEZE, PROTOCOL}
    page = (tmp_path / "out/releases/index.html").read_text(encoding="utf-8")
    assert "Release 2, 2026-12-15" in page and f"<code>{vignette}</code>" in page and "Release 1, 2026-12-01" in page
    assert page.index("Release 2, 2026-12-15") < page.index("Release 1, 2026-12-01")  # newest first
    downloads = (tmp_path / "out/downloads/index.html").read_text(encoding="utf-8")
    assert "This is release 2 of the site, dated 2026-12-15. It was built against release 1 (2026-12-01)" in downloads
    assert "Against it: 2 log entries added; 1 frozen version added; " in downloads
    feed = (tmp_path / "out/feed.xml").read_text(encoding="utf-8")
    assert "<id>tag:sitegen,2026-12-15:releases/2</id>" in feed
    assert "Release 2 of the site, dated 2026-12-15. Against the release before it: 2 log entries added; 1 frozen version added;" in feed
    assert verify(tmp_path / "out", previous=read_previous(str(released[1]))) == []


def test_a_new_sweep_is_a_new_release_and_archives_the_one_before(released, tmp_path, later):
    root = edited(released, tmp_path)
    shutil.copy(root / "data/vignette/sweep-s2.jsonl", root / "data/vignette/sweep-s3.jsonl")
    config = root / "content/vignette/benchmark.toml"
    text = config.read_text(encoding="utf-8")
    s2 = text[text.index("[[sweeps]]", text.index("sweep-s1.jsonl")):]
    s2 = s2[: s2.index("\n\n") + 1] if "\n\n" in s2 else s2
    s3 = s2.replace('"s2"', '"s3"').replace("2026-11-02", "2026-12-12").replace("sweep-s2.jsonl", "sweep-s3.jsonl").replace('"A1"', '"A2"')
    config.write_text(text.rstrip("\n") + "\n\n" + s3, encoding="utf-8")
    new_entry(root, "vignette", "A2", "2026-12-12", "Sweep s3: the same judge again")
    pin_sweeps(root, "vignette")  # s2, archived by s3, pins the settings it was published with
    record = built(root, released[1], tmp_path / "out")
    assert record["number"] == 2
    assert "data/vignette/sweep-s3.jsonl" in record["changes"]["inputs_added"]
    assert any(t.startswith("vignette/sweeps/s2/") for t in record["changes"]["tables_added"]), record["changes"]["tables_added"]
    ledger = json.loads((tmp_path / "out/manifest.json").read_text(encoding="utf-8"))["ledger"]["archived"]
    assert any(stem.startswith("vignette/sweeps/s2/") for stem in ledger)  # s2 is archived now: never rescored from here on


def test_three_releases_chain_and_a_rebuild_is_the_same_release(released, tmp_path, later, monkeypatch):
    root = edited(released, tmp_path)
    new_entry(root, "vignette", "A2", "2026-12-10")
    two = tmp_path / "release-2"
    assert built(root, released[1], two)["number"] == 2
    monkeypatch.setenv("SOURCE_DATE_EPOCH", DAY_AFTER)
    new_entry(root, "vignette", "A3", "2026-12-16")
    three = tmp_path / "release-3"
    assert built(root, two, three)["number"] == 3
    chain = json.loads((three / "releases.json").read_text(encoding="utf-8"))
    assert [r["number"] for r in chain] == [1, 2, 3] and chain[:2] == json.loads((two / "releases.json").read_text(encoding="utf-8"))
    assert verify(three, previous=read_previous(str(two))) == []
    # the same inputs built again against release 3 are release 3, byte for byte
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(DAY_AFTER) + 86400))  # a day later: the date of a new release, were it one
    again = tmp_path / "again"
    assert built(root, three, again)["number"] == 3
    assert {p.relative_to(again): p.read_bytes() for p in again.rglob("*") if p.is_file()} == \
        {p.relative_to(three): p.read_bytes() for p in three.rglob("*") if p.is_file()}


# --------------------------------------------------------------------------- where the previous release is read from


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def test_previous_as_a_folder_a_manifest_and_a_url(released, tmp_path, later):
    root, out = released
    root = edited(released, tmp_path)
    new_entry(root, "vignette", "A2", "2026-12-10")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        records = [built(root, src, tmp_path / f"out-{i}") for i, src in enumerate([out, out / "manifest.json", url, url + "manifest.json"])]
        assert all(r == records[0] and r["number"] == 2 for r in records)
        # a URL with no site yet (a 404) is the first release
        assert read_previous(url + "not-yet/") is None
    finally:
        server.shutdown()
        server.server_close()


# --------------------------------------------------------------------------- the command line and verify


def test_verify_refuses_a_release_record_edited_in_a_built_site(released, tmp_path):
    _root, out = released
    site = tmp_path / "site"
    shutil.copytree(out, site)
    chain = json.loads((site / "releases.json").read_text(encoding="utf-8"))
    chain[0]["changes"] = {}
    (site / "releases.json").write_text(json.dumps(chain), encoding="utf-8")
    rewrite = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
    rewrite["files"]["releases.json"] = hashlib.sha256((site / "releases.json").read_bytes()).hexdigest()
    (site / "manifest.json").write_text(json.dumps(rewrite), encoding="utf-8")
    lines = verify(site)
    assert any(line.startswith("releases.json $[0].chain_sha256: expected ") for line in lines), lines
    assert "manifest.json $.release: differs from the last record of releases.json" in lines


def test_the_command_line_says_a_first_release_and_verify_source_asks_for_the_previous(released, tmp_path, later):
    root = edited(released, tmp_path)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/no-site-yet/"
        done = run_cli("build", "--root", str(root), "--out", str(tmp_path / "first"), "--previous", url)
        assert done.returncode == 0, done.stderr
        assert f"no previous release at {url} (404): this is the site's first release" in done.stdout
        assert json.loads((tmp_path / "first/releases.json").read_text(encoding="utf-8"))[0]["previous_manifest_sha256"] is None
    finally:
        server.shutdown()
        server.server_close()
    new_entry(root, "vignette", "A2", "2026-12-10")
    assert built(root, released[1], tmp_path / "two")["number"] == 2
    done = run_cli("verify", str(tmp_path / "two"), "--source", str(root))
    assert done.returncode == 1
    assert "the site is release 2, built against a previous release; pass --previous SRC" in done.stderr
    done = run_cli("verify", str(tmp_path / "two"), "--source", str(root), "--previous", str(released[1]))
    assert done.returncode == 0, done.stderr
    done = run_cli("build", "--root", str(root), "--out", str(tmp_path / "x"), "--previous", str(tmp_path / "nowhere"))
    assert done.returncode == 1 and "--previous" in done.stderr and "no such file or folder" in done.stderr
