"""`sitegen freeze record` and `sitegen freeze bump` (sitegen.freeze_record): a freeze record
written by a command, refusing what the build's rules refuse and leaving the file as it was."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import copy_site, run_cli
from sitegen.build import validate
from sitegen.config import load_config
from sitegen.errors import InputError
from sitegen.fingerprint import text_fingerprint
from sitegen.freeze_record import bump, record

FREEZE = "data/chronicle/freeze.json"
PROTOCOL = "content/chronicle/protocol.md"
LATER = "1797292800"  # 2026-12-15T00:00:00Z


@pytest.fixture
def site(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", LATER)
    return copy_site(tmp_path / "site", families=["chronicle"])


def new_entry(root: Path, entry_id: str = "A7", date: str = "2026-12-15") -> None:
    (root / f"content/chronicle/amendments/{entry_id}.md").write_text(
        f"---\nid: {entry_id}\nkind: amendment\ntitle: \"A rule of section 6 withdrawn\"\ndate: {date}\ntiming: AFTER generation\n"
        "directed_by: maintainers\nscope: methodology\n---\n\nWhat changed, and why.\n", encoding="utf-8")


def items(root: Path) -> dict:
    return {f"{i['kind']}/{i['id']}": i for i in json.loads((root / FREEZE).read_text(encoding="utf-8"))["items"]}


def test_record_adds_a_new_entry_once_and_the_command_line_says_so(site):
    new_entry(site)
    done = run_cli("freeze", "record", "--root", str(site), "--family", "chronicle")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"recorded in {FREEZE}: log-entry/entry-a7"
    item = items(site)["log-entry/entry-a7"]
    assert item["path"] == "content/chronicle/amendments/A7.md"
    assert item["history"] == [{"version": "1", "fingerprint": text_fingerprint((site / item["path"]).read_bytes()),
                                "frozen_at": "2026-12-15T00:00:00Z", "note": ""}]
    validate(load_config(site), cache=False)
    again = run_cli("freeze", "record", "--root", str(site), "--family", "chronicle")
    assert again.returncode == 0 and again.stdout.strip() == f"{FREEZE} already records every input chronicle freezes"


def test_bump_refuses_every_fault_at_once_and_writes_nothing(site):
    before = (site / FREEZE).read_bytes()
    config = load_config(site)
    with pytest.raises(InputError) as e:
        bump(config, "chronicle", "protocol/protocol-v1.1", "v1.1.1", "A9", "")
    lines = [str(p) for p in e.value.problems]
    assert lines == [  # by file, as every error lists its problems
        "content/chronicle/amendments/A9.md: expected the amendment-log entry A9 that records why protocol/protocol-v1.1 changed "
        "(`sitegen new amendment` writes one); found no such entry",
        f"{FREEZE} $.items[0].history: expected a version protocol/protocol-v1.1 has not had; found version v1.1.1 already there",
        f"{FREEZE} $.items[0].history[1]: expected an edit of {PROTOCOL} since version v1.1.1 (a version is added for a changed input); "
        "found fingerprint 4b1e369b354bd2451663c345a09f52c780d723e9569e45d44cad7281736afeee, unchanged"]
    assert (site / FREEZE).read_bytes() == before
    done = run_cli("freeze", "bump", "task-set/x", "--root", str(site), "--family", "chronicle", "--version", "2", "--amendment", "A6")
    assert done.returncode == 1 and "task-set/x: expected one of the inputs chronicle freezes (protocol/protocol-v1.1, " in done.stderr


def commit_all(root: Path) -> None:
    for args in (["init", "-q"], ["add", "-A"], ["-c", "user.name=m", "-c", "user.email=m@example.org", "commit", "-q", "-m", "site"]):
        subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, timeout=60)


def test_a_rule_deleted_under_a_wording_only_bump_is_on_the_protocol_page(site, tmp_path):
    """The edit alone is refused; bumped with its amendment it builds, the text of the version
    it replaced is kept from git's HEAD, and the protocol page lists the deleted rule, whatever
    the note says: no check can tell a rule from its wording, a reader can."""
    from sitegen.build import build

    commit_all(site)
    path = site / PROTOCOL
    path.write_text(path.read_text(encoding="utf-8").replace("Every future model addition follows §6 verbatim. ", ""), encoding="utf-8")
    with pytest.raises(InputError):
        validate(load_config(site), cache=False)
    new_entry(site)
    record(load_config(site), "chronicle")
    said = bump(load_config(site), "chronicle", "protocol/protocol-v1.1", "v1.1.2", "A7", "Wording only.")
    fingerprint = text_fingerprint(path.read_bytes())
    kept = "content/chronicle/versions/protocol-v1.1/v1.1.1.md"
    assert said == (f"{FREEZE} $.items[0].history: protocol/protocol-v1.1 version v1.1.2 (fingerprint {fingerprint}), recorded by A7; "
                    f"the text of version v1.1.1 kept at {kept}")
    assert text_fingerprint((site / kept).read_bytes()) == items(site)["protocol/protocol-v1.1"]["history"][1]["fingerprint"]
    assert items(site)["protocol/protocol-v1.1"]["history"][-1] == {
        "version": "v1.1.2", "fingerprint": fingerprint, "frozen_at": "2026-12-15T00:00:00Z", "note": "Wording only.", "amendment": "A7"}
    build(load_config(site), tmp_path / "out")
    page = (tmp_path / "out/chronicle/protocol/index.html").read_text(encoding="utf-8")
    at = page.index('<h4 id="version-v1.1.2">')
    assert "Against version v1.1.1: one sentence removed.</p>" in page[at:]
    assert "<li><del><span class=\"change\">Removed:</span> Every future model addition follows §6 verbatim.</del></li></ul>" in page[at:]
    # a kept text that is not the version it is named for is refused
    (site / kept).write_text("Something else.\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        validate(load_config(site), cache=False)
    assert any(str(p).startswith(f"{kept}: expected the text of version v1.1.1 of protocol/protocol-v1.1, fingerprint ") for p in e.value.problems)


def test_a_bump_the_build_would_refuse_is_put_back(site, monkeypatch):
    """Frozen at a time before the version in force (the clock set back): the family's own
    load refuses the record, and the file is as it was."""
    path = site / PROTOCOL
    path.write_text(path.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    new_entry(site, date="2026-09-02")
    record(load_config(site), "chronicle")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1788325200")  # 2026-09-02T05:00:00Z, before v1.1.1 (that day at 09:00)
    before = (site / FREEZE).read_bytes()
    with pytest.raises(InputError) as e:
        bump(load_config(site), "chronicle", "protocol/protocol-v1.1", "v1.1.2", "A7", "")
    assert any(str(p).startswith(f"{FREEZE} $.items[0].history[2].frozen_at: expected a time after the previous version's") for p in e.value.problems), \
        e.value.problems
    assert (site / FREEZE).read_bytes() == before


def test_a_canonic_bible_bumped_under_the_published_sweep_asks_for_a_re_sweep(tmp_path, monkeypatch):
    """Canonic's rule holds for the command too: a Show Bible's new version is for a new sweep
    that ran it; bumped under the sweep that ran version 1, it is refused and nothing written."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", LATER)
    root = copy_site(tmp_path / "site", families=["canonic"])
    bible = root / "content/canonic/bibles/friends.md"
    bible.write_text(bible.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    (root / "content/canonic/amendments").mkdir(parents=True, exist_ok=True)
    (root / "content/canonic/amendments/A1.md").write_text(
        "---\nid: A1\nkind: amendment\ntitle: \"A line added to the Friends bible\"\ndate: 2026-12-15\n---\n\nWhat changed, and why.\n", encoding="utf-8")
    rel = "data/canonic/freeze.json"
    before = (root / rel).read_bytes()
    with pytest.raises(InputError) as e:
        bump(load_config(root), "canonic", "show-bible/friends", "2", "A1", "")
    assert [str(p) for p in e.value.problems] == [
        "data/canonic/sweep.json $.shows[2].bible_version: expected version 2, the version in force in data/canonic/freeze.json "
        "(a bumped input needs a re-run); found \"1\""]
    assert (root / rel).read_bytes() == before


def test_a_declared_benchmark_s_first_freeze_is_written_by_record(tmp_path, monkeypatch):
    """`kind = "recorded"` and no freeze.json yet: the build names the command, and the command
    writes the record with the fingerprints the method states (JSON, keys sorted, no spaces)."""
    import hashlib
    import tomllib

    monkeypatch.setenv("SOURCE_DATE_EPOCH", LATER)
    root = copy_site(tmp_path / "site", families=["vignette"])
    config = root / "content/vignette/benchmark.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('kind = "none"', 'kind = "recorded"'), encoding="utf-8")
    with pytest.raises(InputError) as e:
        validate(load_config(root), cache=False)
    assert any("`sitegen freeze record --family vignette` writes it" in str(p) for p in e.value.problems)
    assert record(load_config(root), "vignette") == ["rubric/rubric", "prompts/prompts"]

    def fingerprint(value) -> str:
        return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")).hexdigest()
    table = tomllib.loads(config.read_text(encoding="utf-8"))
    prompts = [json.loads(line) for line in (root / "data/vignette/prompts.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    doc = json.loads((root / "data/vignette/freeze.json").read_text(encoding="utf-8"))
    assert doc["schema"] == "vignette.freeze/1" and doc["frozen_at"] == "2026-12-15T00:00:00Z"
    assert {i["id"]: i["history"][0]["fingerprint"] for i in doc["items"]} == {
        "rubric": fingerprint({"criteria": table["criteria"], "item_score": table["item_score"]}), "prompts": fingerprint(prompts)}
