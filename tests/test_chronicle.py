"""ChronicleBench (seed 000): the frozen protocol and its amendment log, the recomputed window
medians and run means with their caps, the eligibility band's edges, three boards that are
never blended, the human reference band, the SagaScore -> ChronicleBench Score rename, the old
addresses and `sitegen verify`.

Every number is recomputed here from the raw files with json, statistics, hashlib and numpy,
following the protocol page, the board page and the module docstrings; nothing is copied from
sitegen's own computation. Read-only checks use the session's demo build (`built_site`).
Anything that edits inputs works on a private copy of the site reduced to the ChronicleBench
family (the Canonic inputs removed, `families = ["chronicle"]`), which builds in well under a
second and publishes the same ChronicleBench files as the demo.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import math
import re
import shutil
import statistics
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from sitegen.build import build, validate
from sitegen.config import load_config
from sitegen.errors import InputError, Problem
from sitegen.families.chronicle.models import JudgeRun
from sitegen.families.chronicle.validate import capped_composite
from sitegen.render import row_ids
from sitegen.verify import verify

from conftest import (REPO_ROOT, copy_site, edit_line, read_jsonl, ref_bootstrap, ref_text_fingerprint, run_cli,
                      set_words_stalled)

COHORT_REL = "data/chronicle/cohort.json"
RUNS_REL = "data/chronicle/runs.jsonl"
REFS_REL = "data/chronicle/reference.jsonl"
FREEZE_REL = "data/chronicle/freeze.json"
PROTOCOL_REL = "content/chronicle/protocol.md"
AMEND_DIR = "content/chronicle/amendments"
WITHDRAWN = {"moonshotai/kimi-k3": "Kimi K3", "z-ai/glm-5.3": "GLM 5.3"}
SYSTEM = "chronicle/chronicle-engine"
TOL = 1e-9
FEED_TAG = "tag:chroniclebench,2026:"
ATOM = "{http://www.w3.org/2005/Atom}"


# --------------------------------------------------------------------------- a site to edit


def chronicle_only(dest: Path) -> Path:
    """A copy of the site inputs with only the ChronicleBench family enabled."""
    root = copy_site(dest)
    shutil.rmtree(root / "content" / "canonic")
    shutil.rmtree(root / "data" / "canonic")
    cfg = root / "pyproject.toml"
    text, n = re.subn(r"(?m)^families = \[.*\]$", 'families = ["chronicle"]', cfg.read_text(encoding="utf-8"))
    assert n == 1
    cfg.write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def chron(tmp_path: Path) -> Path:
    return chronicle_only(tmp_path / "site")


def problems(root: Path) -> list[Problem]:
    """The problems `validate` reports for the site at root (it must report some)."""
    with pytest.raises(InputError) as ei:
        validate(load_config(root))
    assert str(ei.value).startswith(f"{len(ei.value.problems)} problem")
    return ei.value.problems


def build_site(root: Path) -> Path:
    out = root.parent / "out"
    build(load_config(root), out)
    return out


# --------------------------------------------------------------------------- reading and editing raw files


def read_json(root: Path, rel: str):
    return json.loads((root / rel).read_text(encoding="utf-8"))


def write_json(root: Path, rel: str, value) -> None:
    (root / rel).write_text(json.dumps(value, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def read_csv(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def front_matter(path: Path) -> dict[str, str]:
    """The 'key: value' lines between the two '---' lines (surrounding quotes dropped)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[0].strip() == "---"
    end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    meta = {}
    for raw in lines[1:end]:
        key, _, value = raw.partition(":")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        meta[key.strip()] = value
    return meta


def set_front(path: Path, key: str, value: str | None) -> None:
    """Replace (or with None, drop) one front matter line of a markdown file."""
    text = path.read_text(encoding="utf-8")
    pattern = re.compile(rf"(?m)^{re.escape(key)}:.*\n")
    assert pattern.search(text), key
    path.write_text(pattern.sub("" if value is None else f"{key}: {value}\n", text, count=1), encoding="utf-8")


def close(a: float, b: float, tol: float = TOL) -> bool:
    return math.isclose(a, b, rel_tol=0.0, abs_tol=tol)


# --------------------------------------------------------------------------- the reference computation
#
# From the protocol (section 3a) and the board page: a judge run's composite is 10 x the weighted
# sum of its eight 1-10 scores under its weight profile, then min(cap, composite); a window is
# the median of its three judge runs; a book's score the mean of its windows; a run is eligible
# with 80,000 to 95,000 words inclusive; a score board ranks the active entrants with runs of its
# arm by the mean score of their eligible runs, with a percentile bootstrap interval seeded from
# the SHA-256 of "v1.1|board|entrant"; ranks are the pairwise rule on those intervals, and the
# voluntary-length board bootstraps the median words of all an entrant's free runs the same way.


def weights_by_profile(cohort: dict) -> dict[str, dict[str, float]]:
    return {p["id"]: p["weights"] for p in cohort["profiles"]}


def ref_capped(jr: dict, weights: dict[str, dict[str, float]]) -> float:
    w = weights[jr["profile"]]
    raw = 10.0 * sum(w[dim] * score for dim, score in jr["dimensions"].items())
    cap = jr.get("cap")
    return min(cap["value"], raw) if cap else raw


def ref_window(window: dict, weights) -> float:
    return statistics.median(ref_capped(jr, weights) for jr in window["runs"])


def ref_score(rec: dict, weights) -> float:
    wins = [ref_window(w, weights) for w in rec["windows"]]
    return sum(wins) / len(wins)


def ref_eligible(rec: dict, cohort: dict) -> bool:
    return cohort["eligibility"]["min_words"] <= rec["words"] <= cohort["eligibility"]["max_words"]


def ref_seed(board: str, entrant: str) -> int:
    return int.from_bytes(hashlib.sha256(f"v1.1|{board}|{entrant}".encode("utf-8")).digest()[:8], "big")


def ref_ranks(rows: dict[str, tuple[float, float]]) -> dict[str, tuple[int, int]]:
    """The pairwise rule on closed intervals: best = 1 + the intervals wholly above (their low >
    this high), worst = the intervals reaching this low (their high >= it), this one included."""
    return {k: (1 + sum(1 for lo, _ in rows.values() if lo > hi), sum(1 for _, h in rows.values() if h >= lo))
            for k, (lo, hi) in rows.items()}


def ref_median_bootstrap(words: list[int], seed: int) -> tuple[float, float]:
    arr = np.asarray(words, dtype=np.float64)
    idx = np.random.default_rng(seed).integers(0, len(arr), size=(10000, len(arr)))
    lo, hi = np.percentile(np.median(arr[idx], axis=1), [2.5, 97.5])
    return float(lo), float(hi)


def ref_percentile(x: float, band: list[float]) -> float:
    """Share of the v1.1 novels scoring below x, ties counted half, in percent."""
    below = sum(1 for v in band if v < x - TOL)
    ties = sum(1 for v in band if abs(v - x) <= TOL)
    return 100.0 * (below + 0.5 * ties) / len(band)


def ref_band_values(root: Path, cohort: dict) -> list[float]:
    weights = weights_by_profile(cohort)
    return [ref_score(rec, weights) for _, rec in read_jsonl(root, REFS_REL) if rec["corpus"] == "v1.1"]


def ref_score_boards(root: Path) -> dict[str, list[dict]]:
    """Every score board's rows, in the published order: ranked rows by score then entrant id,
    then the entrants without an eligible run."""
    cohort = read_json(root, COHORT_REL)
    weights = weights_by_profile(cohort)
    runs = [rec for _, rec in read_jsonl(root, RUNS_REL)]
    entrants = {e["id"]: e for e in cohort["entrants"]}
    band_values = ref_band_values(root, cohort)
    out = {}
    for b in cohort["boards"]:
        if b["arm"] == "free-run":
            continue
        per: dict[str, list[dict]] = {}
        for rec in runs:  # runs.jsonl order, which is also runs.csv's
            if rec["arm"] == b["arm"] and entrants[rec["entrant"]]["status"] == "active":
                per.setdefault(rec["entrant"], []).append(rec)
        rows, unranked = [], []
        for eid, recs in sorted(per.items()):
            ok = [ref_score(r, weights) for r in recs if ref_eligible(r, cohort)]
            row = {"entrant": eid, "name": entrants[eid]["name"], "runs": len(recs), "eligible": len(ok)}
            # protocol section 6: every brief x replicate of each of its arms, or no rank
            arms = ["system"] if entrants[eid]["kind"] == "system" else ["free-run", "sustained"]
            full = {(a, br["id"], k) for a in arms for br in cohort["briefs"] for k in range(1, cohort["replicates"] + 1)}
            if not ok or not full <= {(r["arm"], r["brief"], r["replicate"]) for r in runs if r["entrant"] == eid}:
                unranked.append(row)
                continue
            seed = ref_seed(b["id"], eid)
            low, high = ref_bootstrap(ok, seed)
            score = float(np.mean(ok))
            row.update(score=score, low=low, high=high, seed=seed, pct=ref_percentile(score, band_values),
                       pct_low=ref_percentile(low, band_values), pct_high=ref_percentile(high, band_values))
            rows.append(row)
        ranks = ref_ranks({r["entrant"]: (r["low"], r["high"]) for r in rows})
        for r in rows:
            r["rank"] = ranks[r["entrant"]]
        rows.sort(key=lambda r: (-r["score"], r["entrant"]))
        out[b["id"]] = rows + unranked
    return out


def assert_score_board(csv_rows: list[dict[str, str]], expected: list[dict], board_id: str) -> None:
    assert [r["entrant"] for r in csv_rows] == [e["entrant"] for e in expected]
    for got, want in zip(csv_rows, expected):
        who = want["entrant"]
        assert got["board"] == board_id
        assert (int(got["runs"]), int(got["eligible_runs"])) == (want["runs"], want["eligible"]), who
        if "score" not in want:
            assert got["score"] == got["rank_best"] == got["rank_worst"] == "" and "DNF" in got["unranked_reason"], who
            continue
        assert (int(got["rank_best"]), int(got["rank_worst"])) == want["rank"], who
        assert int(got["bootstrap_seed"]) == want["seed"], who
        for col, key in (("score", "score"), ("ci_low", "low"), ("ci_high", "high"), ("human_percentile", "pct"),
                         ("percentile_low", "pct_low"), ("percentile_high", "pct_high")):
            assert close(float(got[col]), want[key]), (who, col, got[col], want[key])


# --------------------------------------------------------------------------- 1. amendment validation
# (a reused id and a date before the freeze: tests/test_semantic_faults.py)


def _bad_file_name(root):
    (root / AMEND_DIR / "A6.md").rename(root / AMEND_DIR / "A6-guards.md")


AMENDMENT_CASES = {
    "gap": (lambda root: (root / AMEND_DIR / "A4.md").unlink(),
            lambda p: p.file == AMEND_DIR and p.found == "no A4"),
    "missing scope": (lambda root: set_front(root / AMEND_DIR / "A5.md", "scope", None),
                      lambda p: p.file == f"{AMEND_DIR}/A5.md" and p.path.removeprefix("$.") == "scope" and "required" in p.expected),
    "scope outside the allowed values": (lambda root: set_front(root / AMEND_DIR / "A5.md", "scope", "administrative"),
                                         lambda p: p.file == f"{AMEND_DIR}/A5.md" and p.path.removeprefix("$.") == "scope"
                                         and "administrative" in p.found and "methodology" in p.expected),
    "directed by someone outside the declared roles": (lambda root: set_front(root / AMEND_DIR / "A5.md", "directed_by", "the intern"),
                                                      lambda p: p.file == f"{AMEND_DIR}/A5.md" and p.path.removeprefix("$.") == "directed_by"
                                                      and "the intern" in p.found and "owner-approved" in p.expected),
    "file name disagrees with the id": (_bad_file_name,
                                        lambda p: p.file == f"{AMEND_DIR}/A6-guards.md" and p.path == "id" and "A6.md" in p.expected),
    "id prefix disagrees with the kind": (lambda root: set_front(root / AMEND_DIR / "C1.md", "kind", "amendment"),
                                          lambda p: p.file == f"{AMEND_DIR}/C1.md" and "starting with A" in p.expected),
    "empty text": (lambda root: (root / AMEND_DIR / "A2.md").write_text(
                       (root / AMEND_DIR / "A2.md").read_text(encoding="utf-8").split("\n---\n")[0] + "\n---\n\n", encoding="utf-8"),
                   lambda p: p.file == f"{AMEND_DIR}/A2.md" and p.found == "nothing"),
}


@pytest.mark.parametrize("case", list(AMENDMENT_CASES))
def test_an_invalid_amendment_log_is_an_input_error_naming_the_file(chron, case):
    break_it, matches = AMENDMENT_CASES[case]
    break_it(chron)
    found = problems(chron)
    hits = [p for p in found if matches(p)]
    assert hits, [str(p) for p in found]
    # the user reads the file's name at the start of a line of the message
    text = str(InputError(found))
    assert any(line.startswith(hits[0].file) for line in text.splitlines()[1:])


def test_one_bad_field_is_reported_once_not_also_as_a_missing_entry(chron):
    set_front(chron / AMEND_DIR / "A5.md", "scope", "administrative")
    # the field, and the edit of a published entry (its recorded fingerprint): never a missing A5
    assert sorted((p.file, p.path.removeprefix("$.")) for p in problems(chron)) == [(f"{AMEND_DIR}/A5.md", ""), (f"{AMEND_DIR}/A5.md", "scope")]


def test_the_repository_amendments_validate_and_every_one_is_on_the_protocol_page(built_site):
    html = (built_site.out / "chronicle/protocol/index.html").read_text(encoding="utf-8")
    ids = sorted(p.stem for p in (built_site.root / AMEND_DIR).glob("*.md"))
    assert ids == ["A1", "A2", "A3", "A4", "A5", "A6", "C1", "R1"]
    for eid in ids:
        meta = front_matter(built_site.root / AMEND_DIR / f"{eid}.md")
        assert meta["date"] >= "2026-08-21"
        assert f'<section class="amendment" id="{eid}"' in html
        assert f'<a href="#{eid}">{eid}</a>' in html
        assert meta["timing"] in html and f"scope: <strong>{meta['scope']}</strong>" in html


def test_scaffolded_amendment_fails_the_build_until_filled_in_then_publishes(chron):
    moment = dt.datetime(2026, 10, 5, 12, 0, tzinfo=dt.timezone.utc)
    title = "Judge retries after a schema failure are logged per window"
    r = run_cli("new", "amendment", "--root", str(chron), "--family", "chronicle", "--title", title,
                env={"SOURCE_DATE_EPOCH": str(int(moment.timestamp()))})
    assert r.returncode == 0, r.stderr
    path = chron / AMEND_DIR / "A7.md"
    assert path.is_file() and "A7.md" in r.stdout
    meta = front_matter(path)
    assert (meta["id"], meta["kind"], meta["title"], meta["date"]) == ("A7", "amendment", title, "2026-10-05")
    assert all(meta[k].startswith("FILL IN") for k in ("timing", "directed_by", "scope"))

    # the build refuses it, writes nothing, and names every placeholder
    out = chron.parent / "out"
    with pytest.raises(InputError) as ei:
        build(load_config(chron), out)
    assert not out.exists()
    a7 = [p for p in ei.value.problems if p.file == f"{AMEND_DIR}/A7.md"]
    assert {p.path.removeprefix("$.") for p in a7} == {"timing", "directed_by", "scope", ""}
    assert all(p.file == f"{AMEND_DIR}/A7.md" for p in ei.value.problems)

    # the fields filled in, the text still the placeholder: still refused
    set_front(path, "timing", "after scoring")
    set_front(path, "directed_by", "maintainers")
    set_front(path, "scope", "operational only")
    assert [(p.file, p.path) for p in problems(chron)] == [(f"{AMEND_DIR}/A7.md", "")]

    head = path.read_text(encoding="utf-8").split("\n---\n")[0]
    path.write_text(head + "\n---\n\nRetries are now logged per window; no score changes.\n", encoding="utf-8")
    build(load_config(chron), out)

    html = (out / "chronicle/protocol/index.html").read_text(encoding="utf-8")
    order = re.findall(r'<section class="amendment" id="([^"]+)"', html)
    assert order[0] == "A7"  # the newest date
    assert '<section class="amendment" id="A7"' in html and '<a href="#A7">A7</a>' in html
    assert title in html and "Retries are now logged per window" in html
    assert "2026-10-05 · after scoring · directed by maintainers · scope: <strong>operational only</strong>" in html

    feed = ET.parse(out / "chronicle/feed.xml").getroot()
    assert feed.tag == f"{ATOM}feed"
    entries = {e.findtext(f"{ATOM}id"): e for e in feed.findall(f"{ATOM}entry")}
    entry = entries[f"{FEED_TAG}amendment/A7"]
    assert entry.findtext(f"{ATOM}title") == f"A7: {title}"
    assert entry.findtext(f"{ATOM}updated") == "2026-10-05T00:00:00Z"
    assert entry.find(f"{ATOM}link").get("href") == "protocol/#A7"  # relative to chronicle/feed.xml
    assert "Retries are now logged per window" in entry.findtext(f"{ATOM}content")
    assert feed.findtext(f"{ATOM}updated") == "2026-10-05T00:00:00Z"


def test_an_impossible_calendar_date_in_the_amendment_log_is_rejected(chron):
    set_front(chron / AMEND_DIR / "C1.md", "date", "2026-09-31")
    assert any(p.file == f"{AMEND_DIR}/C1.md" and p.path == "date" for p in problems(chron))


# --------------------------------------------------------------------------- 2. the log's stated order

KIND_RANK = {"amendment": 0, "clarification": 1, "rename-note": 2}


def my_log_order(folder: Path) -> list[str]:
    """Newest date first; on one date amendments by descending number, then clarifications
    (descending number), then the rename note."""
    metas = [front_matter(p) for p in folder.glob("*.md")]
    return [m["id"] for m in sorted(metas, key=lambda m: (-dt.date.fromisoformat(m["date"]).toordinal(),
                                                          KIND_RANK[m["kind"]], -int(m["id"][1:])))]


def page_log_order(html: str) -> list[str]:
    return re.findall(r'<section class="amendment" id="([^"]+)"', html)


def test_the_demo_amendment_log_is_in_the_stated_order(built_site):
    html = (built_site.out / "chronicle/protocol/index.html").read_text(encoding="utf-8")
    assert page_log_order(html) == my_log_order(built_site.root / AMEND_DIR)
    assert page_log_order(html) == ["R1", "C1", "A6", "A5", "A4", "A3", "A2", "A1"]


def test_the_log_order_on_shared_dates_and_past_nine(chron):
    def entry(eid, kind, date):
        (chron / AMEND_DIR / f"{eid}.md").write_text(
            f"---\nid: {eid}\nkind: {kind}\ntitle: \"Entry {eid}\"\ndate: {date}\ntiming: mid-generation\n"
            f"directed_by: owner\nscope: operational only\n---\n\nThe text of {eid}.\n", encoding="utf-8")

    # (numbers follow the order changes are made: an entry is never dated before a lower number)
    for n in (7, 8, 9, 10):
        entry(f"A{n}", "amendment", "2026-08-21")  # the date of A1-A6; numbers compare as numbers, not as text
    entry("C2", "clarification", "2026-09-01")  # the rename note's date
    out = build_site(chron)
    order = page_log_order((out / "chronicle/protocol/index.html").read_text(encoding="utf-8"))
    assert order == my_log_order(chron / AMEND_DIR)
    assert order == ["C2", "R1", "C1", "A10", "A9", "A8", "A7", "A6", "A5", "A4", "A3", "A2", "A1"]


# --------------------------------------------------------------------------- 3. the frozen protocol
# (an edit without a version bump: tests/test_semantic_faults.py)


def test_the_recorded_protocol_fingerprint_is_the_documented_canonical_form(built_site):
    record = read_json(built_site.root, FREEZE_REL)
    (item,) = [i for i in record["items"] if i.get("path") == PROTOCOL_REL]
    recorded = item["history"][-1]["fingerprint"]
    assert ref_text_fingerprint((built_site.root / PROTOCOL_REL).read_bytes()) == recorded
    html = (built_site.out / "chronicle/protocol/index.html").read_text(encoding="utf-8")
    frozen = re.search(r'<p class="frozen">(.*?)</p>', html, re.S).group(1)
    assert "<strong>FROZEN</strong>" in frozen
    assert front_matter(built_site.root / PROTOCOL_REL)["frozen_on"] == "2026-08-21" == read_json(built_site.root, COHORT_REL)["protocol_frozen_on"]
    assert "2026-08-21" in frozen
    assert recorded in frozen


def test_line_endings_and_trailing_blank_lines_do_not_unfreeze_the_protocol(chron):
    path = chron / PROTOCOL_REL
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n") + b"\r\n\r\n")
    validate(load_config(chron))  # documented canonical form: no change of wording, no change of fingerprint


# --------------------------------------------------------------------------- 4. medians, means and caps


def test_every_run_window_and_score_in_runs_csv_is_recomputed(built_site):
    cohort = read_json(built_site.root, COHORT_REL)
    weights = weights_by_profile(cohort)
    runs = read_jsonl(built_site.root, RUNS_REL)
    published = read_csv(built_site.out / "chronicle/runs.csv")
    assert [r["run"] for r in published] == [rec["id"] for _, rec in runs]
    assert len(runs) == 169
    capped = 0
    for (_, rec), row in zip(runs, published):
        have = {w["window"]: ref_window(w, weights) for w in rec["windows"]}
        capped += sum(1 for w in rec["windows"] for jr in w["runs"] if jr.get("cap"))
        for w in cohort["windows"]:
            cell = row[f"window_{w}"]
            if w in have:
                assert close(float(cell), have[w]), (rec["id"], w)
            else:
                assert cell == "", (rec["id"], w)
        assert close(float(row["score"]), ref_score(rec, weights)), rec["id"]
        assert int(row["words"]) == rec["words"]
        assert row["eligible"] == str(ref_eligible(rec, cohort))
    assert capped > 0  # the demo exercises caps


@pytest.mark.parametrize("where", ["windows[0].runs[0].composite", "windows[0].composite", "score"])
def test_a_stated_number_one_point_off_is_rejected_with_line_and_json_path(chron, where):
    weights = weights_by_profile(read_json(chron, COHORT_REL))
    line, rec = next((i, r) for i, r in read_jsonl(chron, RUNS_REL) if "score" in r)
    if where == "score":
        right = ref_score(rec, weights)
    elif where == "windows[0].composite":
        right = ref_window(rec["windows"][0], weights)
    else:
        right = ref_capped(rec["windows"][0]["runs"][0], weights)

    def bump(r):
        target = r
        *parents, last = re.findall(r"[a-z_]+|\d+", where)
        for part in parents:
            target = target[int(part)] if part.isdigit() else target[part]
        target[last] += 1

    bumped = edit_line(chron, RUNS_REL, line, bump)
    (p,) = problems(chron)
    assert str(p).startswith(f"{RUNS_REL}:{line} $.{where}: expected {right:.6f}")
    stated = bumped["score"] if where == "score" else (
        bumped["windows"][0]["composite"] if where == "windows[0].composite" else bumped["windows"][0]["runs"][0]["composite"])
    assert close(stated, right + 1, 1e-6) and p.found == repr(stated)


def judge_run(dims: list[int], cap: float | None = None):
    names = ["hook", "prose", "character", "dialogue", "pacing", "structure", "originality", "coherence"]
    return JudgeRun.model_validate({"profile": "p", "dimensions": dict(zip(names, dims)),
                                    "evidence": {n: [{"ch": 1, "sec": 1, "quote": "A line."}] for n in names},
                                    "cap": None if cap is None else {"value": cap, "reason": "test"}})


@pytest.mark.parametrize("cap", [None, 99.0, 75.5, 75.0, 60.0, 0.0])
def test_a_cap_lowers_a_composite_above_it_and_leaves_one_below_it(cap):
    weights = {"hook": 0.2, "prose": 0.15, "character": 0.15, "dialogue": 0.1, "pacing": 0.1, "structure": 0.1,
               "originality": 0.1, "coherence": 0.1}
    dims = [9, 8, 7, 6, 8, 7, 9, 5]
    raw = 10.0 * sum(w * d for w, d in zip(weights.values(), dims))  # 75.5
    assert close(raw, 75.5)
    got = capped_composite(judge_run(dims, cap), weights)
    if cap is None or cap >= raw:
        assert close(got, raw)
    else:
        assert got < raw
        assert got == cap
    d = judge_run(dims, cap).model_dump()
    assert close(got, ref_capped({**d, "profile": "p"}, {"p": weights}))


def test_caps_in_the_runs_file_lower_only_what_is_above_them(chron, built_site):
    """A cap of 99 on a judge run changes nothing (its stated composites still agree); a cap
    below the composite is rejected until the stated numbers are restated, and then lowers the
    published window and score."""
    cohort = read_json(chron, COHORT_REL)
    weights = weights_by_profile(cohort)
    runs = read_jsonl(chron, RUNS_REL)
    before = {r["run"]: r for r in read_csv(built_site.out / "chronicle/runs.csv")}
    (lx, x), (ly, y) = [(i, r) for i, r in runs if r["arm"] == "sustained" and len(r["windows"]) == 5
                        and not any(jr.get("cap") for w in r["windows"] for jr in w["runs"])][:2]

    assert ref_capped(x["windows"][2]["runs"][1], weights) < 99.0
    edit_line(chron, RUNS_REL, lx, lambda r: r["windows"][2]["runs"][1].update(cap={"value": 99.0, "reason": "high cap"}))
    validate(load_config(chron))  # nothing to restate: the cap is above the composite

    low = min(ref_capped(jr, weights) for jr in y["windows"][0]["runs"]) - 10.0
    assert low > 0

    def cap_opening(r):
        for jr in r["windows"][0]["runs"]:
            jr["cap"] = {"value": low, "reason": "central identity contradicted"}

    edit_line(chron, RUNS_REL, ly, cap_opening)
    found = problems(chron)
    assert any(str(p).startswith(f"{RUNS_REL}:{ly} $.windows[0].runs[0].composite: expected {low:.6f}") for p in found)
    assert {p.line for p in found} == {ly}

    def restate(r):
        for w in r["windows"]:
            for jr in w["runs"]:
                jr["composite"] = ref_capped(jr, weights)
            w["composite"] = ref_window(w, weights)
        r["sagascore" if "sagascore" in r else "score"] = ref_score(r, weights)

    y2 = edit_line(chron, RUNS_REL, ly, restate)
    after = {r["run"]: r for r in read_csv(build_site(chron) / "chronicle/runs.csv")}
    assert after[x["id"]] == before[x["id"]]
    assert float(after[y["id"]]["window_opening"]) == low < float(before[y["id"]]["window_opening"])
    assert close(float(after[y["id"]]["score"]), ref_score(y2, weights))
    assert float(after[y["id"]]["score"]) < float(before[y["id"]]["score"])


# --------------------------------------------------------------------------- 5. the eligibility band's edges


def test_the_band_edges_80000_and_95000_are_in_and_one_word_beyond_is_out(chron):
    cohort = read_json(chron, COHORT_REL)
    assert cohort["eligibility"] == {"min_words": 80000, "max_words": 95000}
    # The floor on model runs (two entrants); the ceiling on the system's runs, since no model run
    # may pass the harness's hard word cap of 94,000 (protocol section 2) while the system runs its
    # own engine, held to its release's gates instead.
    picks, seen = {"sustained": [], "system": []}, set()
    for line, rec in read_jsonl(chron, RUNS_REL):
        if (rec["arm"] in picks and rec["entrant"] not in WITHDRAWN and (rec["arm"] == "system" or rec["entrant"] not in seen)
                and len(rec["windows"]) == 5 and ref_eligible(rec, cohort)):
            picks[rec["arm"]].append((line, rec["id"], rec["entrant"]))
            seen.add(rec["entrant"])
    assert cohort["hard_cap_words"] < 95_000
    targets = {80_000: True, 95_000: True, 79_999: False, 95_001: False}
    chosen = {80_000: picks["sustained"][0], 79_999: picks["sustained"][1], 95_000: picks["system"][0], 95_001: picks["system"][1]}
    # each target keeps all five windows: 75,000 < 79,999 (validate.py's expected_windows)
    for words, (line, _, _) in chosen.items():
        edit_line(chron, RUNS_REL, line, lambda r, w=words: set_words_stalled(r, w))
    out = build_site(chron)

    runs = {r["run"]: r for r in read_csv(out / "chronicle/runs.csv")}
    dnf = {r["run"] for r in read_csv(out / "chronicle/dnf.csv")}
    diagnostics = (out / "chronicle/diagnostics/index.html").read_text(encoding="utf-8")
    for words, (_, run_id, _) in chosen.items():
        ok = targets[words]
        assert (int(runs[run_id]["words"]), runs[run_id]["eligible"]) == (words, str(ok))
        assert (run_id in dnf) is (not ok)
        assert (f">{run_id}</a>" in diagnostics) is (not ok)
        page = (out / f"chronicle/runs/{run_id}/index.html").read_text(encoding="utf-8")
        assert f"{words:,} (" in page
        assert ("inside the eligibility band" in page) is ok and ("DNF diagnostic" in page) is (not ok)
    # every DNF run, and only those, lies outside the band
    assert dnf == {rid for rid, r in runs.items() if not 80_000 <= int(r["words"]) <= 95_000}
    # the sustained board counts and averages only the in-band runs (recomputed with the edits)
    assert_score_board(read_csv(out / "chronicle/boards/sustained.csv"), ref_score_boards(chron)["sustained"], "sustained")


# --------------------------------------------------------------------------- 6. three boards, never blended
# (an entrant on the board of another kind, two boards for one arm: tests/test_semantic_faults.py)


def test_each_board_csv_holds_only_its_own_board_and_arm(built_site):
    cohort = read_json(built_site.root, COHORT_REL)
    runs = [rec for _, rec in read_jsonl(built_site.root, RUNS_REL)]
    status = {e["id"]: e["status"] for e in cohort["entrants"]}
    boards = {}
    for b in cohort["boards"]:
        rows = read_csv(built_site.out / f"chronicle/boards/{b['id']}.csv")
        assert rows and {r["board"] for r in rows} == {b["id"]}
        with_arm = {r["entrant"] for r in runs if r["arm"] == b["arm"] and status[r["entrant"]] == "active"}
        assert [r["entrant"] for r in rows if r["entrant"] not in with_arm] == []
        assert {r["entrant"] for r in rows} == with_arm
        assert len(rows) == len(with_arm)  # one row per entrant
        # the page shows exactly the rows of its download, in the same order
        page = (built_site.out / f"chronicle/boards/{b['id']}/index.html").read_text(encoding="utf-8")
        ids = row_ids("row", [r["entrant"] for r in rows])
        assert re.findall(r'<tr id="([^"]+)">', page) == [ids[r["entrant"]] for r in rows]
        boards[b["id"]] = {r["entrant"] for r in rows}
    # what is asserted: no entrant is a row of both score boards (system, sustained); a model is a
    # row of the sustained board and of the voluntary-length board only through its two arms.
    assert boards["system"] & boards["sustained"] == set()
    assert boards["system"] == {SYSTEM}
    assert SYSTEM not in boards["sustained"] | boards["voluntary"]
    for eid in boards["sustained"] & boards["voluntary"]:
        arms = {r["arm"] for r in runs if r["entrant"] == eid}
        assert {"sustained", "free-run"} <= arms and "system" not in arms


def test_withdrawn_models_are_on_no_board_but_on_the_diagnostics_page(built_site):
    out = built_site.out / "chronicle"
    runs = [rec for _, rec in read_jsonl(built_site.root, RUNS_REL)]
    cohort = read_json(built_site.root, COHORT_REL)
    assert {e["id"]: e["name"] for e in cohort["entrants"] if e["status"] == "withdrawn"} == WITHDRAWN
    board_pages = [p for p in (out / "boards").glob("*/index.html")] + [out / "index.html"]
    if (out / "exhibit/index.html").exists():
        board_pages.append(out / "exhibit/index.html")
    for eid, name in WITHDRAWN.items():
        assert any(r["entrant"] == eid for r in runs)
        for f in (out / "boards").glob("*.csv"):
            assert eid not in {r["entrant"] for r in read_csv(f)}, f
        for page in board_pages:
            text = page.read_text(encoding="utf-8")
            assert name not in text and row_ids("row", [eid])[eid] not in text, page
    # including GLM 5.3's runs inside the band, which are not DNF but still never ranked
    assert any(ref_eligible(r, cohort) for r in runs if r["entrant"] == "z-ai/glm-5.3")
    diag = (out / "diagnostics/index.html").read_text(encoding="utf-8")
    withdrawn = diag[diag.index('id="withdrawn"'):]
    for eid, name in WITHDRAWN.items():
        assert f"<strong>{name}</strong>" in withdrawn
        for r in runs:
            if r["entrant"] == eid:
                assert f">{r['id']}</a>" in withdrawn


def test_score_boards_scores_intervals_percentiles_and_rank_ranges_are_recomputed(built_site):
    expected = ref_score_boards(built_site.root)
    assert set(expected) == {"system", "sustained"}
    for board_id, rows in expected.items():
        assert_score_board(read_csv(built_site.out / f"chronicle/boards/{board_id}.csv"), rows, board_id)


def test_the_voluntary_length_board_is_recomputed(built_site):
    runs = sorted((rec for _, rec in read_jsonl(built_site.root, RUNS_REL)), key=lambda r: r["id"])
    per: dict[str, list[int]] = {}
    for r in runs:
        if r["arm"] == "free-run" and r["entrant"] not in WITHDRAWN:
            per.setdefault(r["entrant"], []).append(r["words"])
    intervals = {e: ref_median_bootstrap(w, ref_seed("voluntary", e)) for e, w in per.items()}
    ranks = ref_ranks(intervals)
    want = sorted(((-statistics.median(w), e, min(w), max(w), len(w), *intervals[e], *ranks[e], ref_seed("voluntary", e))
                   for e, w in per.items()))
    got = read_csv(built_site.out / "chronicle/boards/voluntary.csv")
    assert [(-float(r["median_words"]), r["entrant"], int(r["min_words"]), int(r["max_words"]), int(r["runs"]),
             float(r["median_low"]), float(r["median_high"]), int(r["rank_best"]), int(r["rank_worst"]), int(r["bootstrap_seed"]))
            for r in got] == want


def test_the_exhibit_and_the_costs_are_recomputed(built_site):
    cohort = read_json(built_site.root, COHORT_REL)
    weights = weights_by_profile(cohort)
    runs = [rec for _, rec in read_jsonl(built_site.root, RUNS_REL)]
    ex = cohort["exhibit"]
    a = [ref_score(r, weights) for r in runs if r["entrant"] == ex["system"] and ref_eligible(r, cohort)]
    b = [ref_score(r, weights) for r in runs if r["entrant"] == ex["base_model"] and r["arm"] == "sustained" and ref_eligible(r, cohort)]
    diff = float(np.mean(a) - np.mean(b))
    page = (built_site.out / "chronicle/exhibit/index.html").read_text(encoding="utf-8")
    assert f"<strong>{diff:+.1f}</strong>" in page
    cost: dict[str, float] = {}
    for r in runs:
        cost[r["entrant"]] = cost.get(r["entrant"], 0.0) + sum(c["cost_usd"] for c in r["calls"])
    got = {r["entrant"]: float(r["cost_usd"]) for r in read_csv(built_site.out / "chronicle/costs.csv")}
    assert set(got) == set(cost)
    assert all(close(got[e], cost[e], 1e-6) for e in cost)


# --------------------------------------------------------------------------- 7. the SagaScore alias


def test_sagascore_lines_validate_and_are_published_as_the_recomputed_score(built_site):
    weights = weights_by_profile(read_json(built_site.root, COHORT_REL))
    published = {r["run"]: r for r in read_csv(built_site.out / "chronicle/runs.csv")}
    old = [rec for _, rec in read_jsonl(built_site.root, RUNS_REL) if "sagascore" in rec]
    assert old and all("score" not in rec for rec in old)
    for rec in old:
        assert close(rec["sagascore"], ref_score(rec, weights), 1e-6)
        assert close(float(published[rec["id"]]["score"]), ref_score(rec, weights))
    legacy = [rec for _, rec in read_jsonl(built_site.root, REFS_REL) if "sagascore" in rec]
    assert legacy
    refs = {r["id"]: r for r in read_csv(built_site.out / "chronicle/reference.csv")}
    assert all(close(float(refs[rec["id"]]["score"]), ref_score(rec, weights)) for rec in legacy)


@pytest.mark.parametrize("rel", [RUNS_REL, REFS_REL])
def test_a_wrong_sagascore_is_rejected_like_a_wrong_score(chron, rel):
    weights = weights_by_profile(read_json(chron, COHORT_REL))
    line, rec = next((i, r) for i, r in read_jsonl(chron, rel) if "sagascore" in r)
    edit_line(chron, rel, line, lambda r: r.update(sagascore=r["sagascore"] + 1))
    (p,) = problems(chron)
    assert (p.file, p.line) == (rel, line)
    assert p.expected.startswith(f"{ref_score(rec, weights):.6f}")
    assert close(float(p.found), rec["sagascore"] + 1, 1e-6)


def test_a_wrong_sagascore_is_reported_at_the_key_the_line_has(chron):
    line, _ = next((i, r) for i, r in read_jsonl(chron, RUNS_REL) if "sagascore" in r)
    edit_line(chron, RUNS_REL, line, lambda r: r.update(sagascore=r["sagascore"] + 1))
    (p,) = problems(chron)
    assert p.path == "$.sagascore"


@pytest.mark.parametrize("delta", [0.0, 5.0])
def test_a_line_with_both_score_and_sagascore_is_rejected_not_silently_resolved(chron, delta):
    line, _ = next((i, r) for i, r in read_jsonl(chron, RUNS_REL) if "score" in r)
    edit_line(chron, RUNS_REL, line, lambda r: r.update(sagascore=r["score"] + delta))
    found = problems(chron)
    assert [(p.file, p.line, p.path) for p in found] == [(RUNS_REL, line, "$.sagascore")]


def test_the_published_json_schemas_accept_the_declared_sagascore_alias():
    for name, where in (("chronicle.run", ()), ("chronicle.reference", ()), ("chronicle.archive", ("$defs", "ArchivedRow"))):
        schema = json.loads((REPO_ROOT / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))
        for key in where:
            schema = schema[key]
        assert "sagascore" in json.dumps(schema["properties"]) or schema.get("additionalProperties") is not False, name


def test_pages_say_chroniclebench_score_and_sagascore_only_where_the_rename_is_explained(built_site):
    out = built_site.out
    allowed_whole = {"chronicle/archive/v1.0/index.html"}
    for page in sorted(out.rglob("*.html")):
        rel = page.relative_to(out).as_posix()
        if rel.startswith("raw/") or rel in allowed_whole:
            continue
        text = page.read_text(encoding="utf-8")
        text = re.sub(r'<p class="sources">.*?</p>', "", text, flags=re.S)  # the sources footer explains it
        text = re.sub(r'<section class="amendment" id="R1".*?</section>', "", text, flags=re.S)  # the rename note
        assert "SagaScore" not in text, rel
    archive = (out / "chronicle/archive/v1.0/index.html").read_text(encoding="utf-8")
    assert "SagaScore" in archive and "ChronicleBench Score" in archive
    protocol = (out / "chronicle/protocol/index.html").read_text(encoding="utf-8")
    r1 = re.search(r'<section class="amendment" id="R1".*?</section>', protocol, re.S).group(0)
    assert "SagaScore" in r1 and "ChronicleBench Score" in r1
    for page in (out / "chronicle/boards").glob("*/index.html"):
        assert "ChronicleBench Score" in page.read_text(encoding="utf-8"), page
    for board_id in ("system", "sustained"):
        page = (out / f"chronicle/boards/{board_id}/index.html").read_text(encoding="utf-8")
        assert '<th scope="col" class="n">ChronicleBench Score</th>' in page


# --------------------------------------------------------------------------- 8. the human band


def shown1(x: float) -> str:
    """A number as the pages show it to one place: rounded half away from zero from its
    decimal digits (72.25 shows as 72.3, where Python's format gives 72.2)."""
    from decimal import ROUND_HALF_UP, Decimal
    return str(Decimal(repr(float(x))).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def band_from_page(html: str) -> tuple[str, str, str]:
    m = re.search(r"median <strong>(\d+\.\d)</strong>, interquartile range (\d+\.\d) to (\d+\.\d)", html)
    assert m
    return m.groups()


def test_the_human_band_is_the_36_v1_1_novels(built_site):
    cohort = read_json(built_site.root, COHORT_REL)
    weights = weights_by_profile(cohort)
    refs = read_jsonl(built_site.root, REFS_REL)
    v11 = [rec for _, rec in refs if rec["corpus"] == "v1.1"]
    assert len(v11) == 36 and len(refs) - len(v11) == 14
    scores = np.array([ref_score(rec, weights) for rec in v11])
    q1, med, q3 = np.percentile(scores, [25, 50, 75])
    page = (built_site.out / "chronicle/reference/index.html").read_text(encoding="utf-8")
    assert band_from_page(page) == (f"{shown1(med)}", f"{shown1(q1)}", f"{shown1(q3)}")
    home = (built_site.out / "chronicle/index.html").read_text(encoding="utf-8")
    assert f"<strong>{shown1(med)}</strong> (interquartile range {shown1(q1)} to {shown1(q3)})" in home
    # every novel's score, the 14 legacy ones on their four windows
    published = {r["id"]: r for r in read_csv(built_site.out / "chronicle/reference.csv")}
    assert len(published) == 50
    for _, rec in refs:
        assert close(float(published[rec["id"]]["score"]), ref_score(rec, weights)), rec["id"]
        assert published[rec["id"]]["corpus"] == rec["corpus"]
        assert len(rec["windows"]) == (4 if rec["corpus"] == "legacy-v1.0" else 5)
    # per stratum
    for stratum in ("plot-forward", "character-forward", "broader-controls"):
        s = np.array([ref_score(r, weights) for r in v11 if r["stratum"] == stratum])
        a, m, b = np.percentile(s, [25, 50, 75])
        row = f'<tr><th scope="row">{stratum}</th><td class="n">{len(s)}</td><td class="n">{shown1(m)}</td><td class="ci">{shown1(a)} – {shown1(b)}</td></tr>'
        assert row in page, stratum


def test_a_legacy_novel_cannot_move_the_band_but_a_v1_1_novel_can(chron, built_site):
    cohort = read_json(chron, COHORT_REL)
    weights = weights_by_profile(cohort)
    refs = read_jsonl(chron, REFS_REL)
    demo_page = (built_site.out / "chronicle/reference/index.html").read_text(encoding="utf-8")
    demo_boards = {b: read_csv(built_site.out / f"chronicle/boards/{b}.csv") for b in ("system", "sustained")}

    def all_tens(r):
        for w in r["windows"]:
            for jr in w["runs"]:
                jr["dimensions"] = {k: 10 for k in jr["dimensions"]}
                jr["cap"] = None
                jr.pop("composite", None)
            w.pop("composite", None)
        r.pop("score", None)
        r.pop("sagascore", None)

    legacy_line, legacy = next((i, r) for i, r in refs if r["corpus"] == "legacy-v1.0")
    edit_line(chron, REFS_REL, legacy_line, all_tens)
    out = build_site(chron)
    assert float({r["id"]: r for r in read_csv(out / "chronicle/reference.csv")}[legacy["id"]]["score"]) == 100.0
    assert band_from_page((out / "chronicle/reference/index.html").read_text(encoding="utf-8")) == band_from_page(demo_page)
    for b, rows in demo_boards.items():
        cols = ("human_percentile", "percentile_low", "percentile_high")
        assert [[r[c] for c in cols] for r in read_csv(out / f"chronicle/boards/{b}.csv")] == [[r[c] for c in cols] for r in rows]

    # the same edit on the lowest v1.1 novel moves the band (so the check above can fail)
    low_line, _ = min(((i, r) for i, r in refs if r["corpus"] == "v1.1"), key=lambda ir: ref_score(ir[1], weights))
    edit_line(chron, REFS_REL, low_line, all_tens)
    out = build_site(chron)
    scores = np.array([ref_score(rec, weights) for _, rec in read_jsonl(chron, REFS_REL) if rec["corpus"] == "v1.1"])
    q1, med, q3 = np.percentile(scores, [25, 50, 75])
    moved = band_from_page((out / "chronicle/reference/index.html").read_text(encoding="utf-8"))
    assert moved == (shown1(med), shown1(q1), shown1(q3)) != band_from_page(demo_page)


def test_entrant_percentiles_are_share_below_plus_half_ties(built_site):
    band = ref_band_values(built_site.root, read_json(built_site.root, COHORT_REL))
    assert ref_percentile(min(band) - 1, band) == 0.0 and ref_percentile(max(band) + 1, band) == 100.0
    for board_id in ("system", "sustained"):
        for r in read_csv(built_site.out / f"chronicle/boards/{board_id}.csv"):
            if r["score"]:
                for value, pct in (("score", "human_percentile"), ("ci_low", "percentile_low"), ("ci_high", "percentile_high")):
                    assert close(float(r[pct]), ref_percentile(float(r[value]), band)), (r["entrant"], pct)


# --------------------------------------------------------------------------- 9. the old addresses


def test_netlify_redirects_the_old_protocol_path_and_the_sagabench_paths(built_site):
    config = tomllib.loads((REPO_ROOT / "netlify.toml").read_text(encoding="utf-8"))
    redirects = {r["from"]: r for r in config["redirects"]}
    assert redirects["/protocol-v1.1.html"]["to"] == "/chronicle/protocol/"
    assert redirects["/sagabench/*"]["to"] == "/chronicle/:splat"
    for r in redirects.values():
        assert r.get("status", 301) in (301, 308)
        target = r["to"].replace(":splat", "")
        assert target.startswith("/") and (built_site.out / target.lstrip("/") / "index.html").is_file(), r


# --------------------------------------------------------------------------- 10. verify


def test_verify_passes_on_the_demo_and_reports_a_tampered_sustained_board(built_site, tmp_path):
    assert verify(built_site.out) == []
    site = Path(shutil.copytree(built_site.out, tmp_path / "site"))
    path = site / "chronicle/boards/sustained.csv"
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    col = rows[0].index("score")
    old = rows[1][col]
    rows[1][col] = repr(float(old) + 0.5)
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")
    r = run_cli("verify", str(site))
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert any(x.startswith("chronicle/boards/sustained.csv: SHA-256") for x in lines), lines
    assert any(x.startswith("chronicle/boards/sustained.csv row 1 column score") and repr(float(old)) in x for x in lines), lines


# --------------------------------------------------------------------------- the weight profile a text is scored under


def _rescore_under(profile):
    def edit(r):
        for w in r["windows"]:
            for jr in w["runs"]:
                jr["profile"] = profile
                jr.pop("composite", None)
            w.pop("composite", None)
        r.pop("score", None)
        r.pop("sagascore", None)
    return edit


PROFILE_CASES = {
    # a B2 (science fiction, scifi_v2) run whose judge runs say literary_v2, stated numbers dropped
    "run under another brief's profile": (RUNS_REL, lambda r: r["brief"] == "b2", _rescore_under("literary_v2"),
                                          "$.windows[0].runs[0].profile", "scifi_v2"),
    # a reference novel whose declared profile names no profile of cohort.json
    "novel declaring an unknown profile": (REFS_REL, lambda r: True, lambda r: r.update(profile="no-such-profile"),
                                           "$.profile", "literary_v2"),
    # a scifi_v2 reference novel whose judge runs used default_v2
    "novel scored under another profile": (REFS_REL, lambda r: r["profile"] == "scifi_v2", _rescore_under("default_v2"),
                                           "$.windows[0].runs[0].profile", "scifi_v2"),
}


@pytest.mark.parametrize("case", list(PROFILE_CASES))
def test_a_text_scored_under_the_wrong_weight_profile_is_rejected(chron, case):
    """Protocol 3a: each text is scored under the profile its genre maps to (B2 -> scifi_v2,
    N1 -> literary_v2, a reference novel -> its stratum topic's profile, recorded in the file)."""
    rel, pick, edit, path, named = PROFILE_CASES[case]
    line, _ = next((i, r) for i, r in read_jsonl(chron, rel) if pick(r))
    edit_line(chron, rel, line, edit)
    found = problems(chron)
    hits = [p for p in found if (p.file, p.line, p.path) == (rel, line, path)]
    assert hits and named in hits[0].expected, [str(p) for p in found]
    assert {(p.file, p.line) for p in found} == {(rel, line)}
