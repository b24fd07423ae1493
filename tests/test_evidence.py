"""The evidence layer (issue 3) on the demo site: frozen inputs and their fingerprints, the
probe rule, the score ladders, the failure record and the provenance of every table and
figure. Every number is recomputed here from the raw files (`conftest`: json, hashlib and
numpy, no sitegen code), then looked for on the pages and in the downloads.
"""

from __future__ import annotations

import csv
import hashlib
import html
import io
import json
import posixpath
import re
from collections import Counter, defaultdict
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from sitegen.build import build, validate
from sitegen.config import load_config
from sitegen.errors import InputError
from sitegen.site_families import FAMILIES

from conftest import (BIBLES_DIR, CELLS_REL, EXTERNAL_REL, FREEZE_REL, OUTPUTS_REL, PROBES_REL, SWEEP_REL, Ref,
                      compute_family, enable_only, freeze_record, only, read_cells, read_json, read_sweep, ref_ladders, ref_probes,
                      ref_rubric_fingerprint, ref_status, ref_text_fingerprint, ref_weighted, reference, write_json,
                      where, write_sweep)


def problems_of(root):
    with pytest.raises(InputError) as exc:
        validate(load_config(root))
    return exc.value.problems


@pytest.fixture
def site_copy(site_copy):
    """Canonic alone: these tests are about its inputs and its pages, and a validation or build
    of the other families would only repeat theirs."""
    return enable_only(site_copy, ["canonic"])


@pytest.fixture(scope="module")
def ref(built_site) -> Ref:
    return reference(built_site.root)


# --------------------------------------------------------------------------- reading pages


class Text(HTMLParser):
    """The text of a page (entities decoded), the text of each <blockquote class="output">,
    each table row's cells with the row's id, and every href."""

    def __init__(self, markup: str):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.quotes: list[str] = []
        self.rows: list[tuple[str | None, list[str]]] = []
        self.links: list[str] = []
        self._quote: list[str] | None = None
        self._row: tuple[str | None, list[str]] | None = None
        self._cell: list[str] | None = None
        self.feed(markup)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag == "blockquote" and "output" in (a.get("class") or "").split():
            self._quote = []
        if tag == "tr":
            self._row = (a.get("id"), [])
        if tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "blockquote" and self._quote is not None:
            self.quotes.append("".join(self._quote))
            self._quote = None
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row[1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        if tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None

    def handle_data(self, data):
        self.parts.append(data)
        if self._quote is not None:
            self._quote.append(data)
        if self._cell is not None:
            self._cell.append(data)

    @property
    def text(self) -> str:
        return " ".join("".join(self.parts).split())


def read_page(out: Path, rel: str) -> tuple[str, Text]:
    markup = (out / rel).read_text(encoding="utf-8")
    return markup, Text(markup)


def read_csv(path: Path) -> list[dict]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def fmt(x: float, spec: str) -> set[str]:
    """How x may be displayed with a format spec (allowing for an ulp on a rounding edge)."""
    return {format(v, spec) for v in (x, x - 1e-9, x + 1e-9)}


def names(ref: Ref) -> dict[str, str]:
    return {m["id"]: m["name"] for m in ref.sweep["models"]}


def resolve(from_page: str, href: str) -> str:
    target = href.split("#")[0]
    path = posixpath.normpath(posixpath.join(posixpath.dirname(from_page), target))
    return posixpath.join(path, "index.html") if target.endswith("/") else path


def bible_rel(show_id: str) -> str:
    return f"{BIBLES_DIR}/{show_id}.md"


def edit_wording(text: str) -> str:
    """Change one word of a bible's body (after its front matter)."""
    head, sep, body = text.partition("\n---\n")
    assert sep and " the " in body
    return head + sep + body.replace(" the ", " a ", 1)


# --------------------------------------------------------------------------- frozen inputs
# (a rubric or a Show Bible edited without a version bump: tests/test_semantic_faults.py)


def test_verification_page_lists_every_fingerprint_as_recomputed_here(built_site, ref):
    out = built_site.out
    mine = freeze_record(built_site.root)
    kinds = Counter(item["kind"] for item in mine["items"])
    assert kinds == {"rubric": 6, "show-bible": 4, "task-set": 1, "prompt": 2, "probe-maximums": 1}
    recorded = {(i["kind"], i["id"]): i["history"][-1]["fingerprint"] for i in read_json(built_site.root, FREEZE_REL)["items"]}
    _, ver = read_page(out, "canonic/verification/index.html")
    rows = {cells[0]: cells for _id, cells in ver.rows if cells}
    table = {(r["kind"], r["id"]): r for r in read_csv(out / "canonic/fingerprints.csv")}
    assert sorted(table) == sorted((i["kind"], i["id"]) for i in mine["items"])
    for item in mine["items"]:
        key = (item["kind"], item["id"])
        fp = item["history"][0]["fingerprint"]
        assert recorded[key] == fp, key  # the committed freeze record holds what the documented forms give
        assert table[key]["recorded"] == table[key]["recomputed"] == fp, key
        (row,) = [cells for head, cells in rows.items() if head.startswith(f"{item['kind']} {item['id']}")]
        assert fp in row[2] and "matches" in row[2], key
        assert row[3], f"{key}: no statement of what a mismatch would prove"
    text = ver.text
    cells_sha = hashlib.sha256((built_site.root / CELLS_REL).read_bytes()).hexdigest()
    assert cells_sha in text and read_json(built_site.root, FREEZE_REL)["frozen_at"] in text
    for pin in ref.sweep["judges"] + ref.sweep["models"]:
        assert pin["id"] in text, pin["id"]


def test_each_show_bible_is_published_in_full(built_site, ref):
    out = built_site.out
    _, ver = read_page(out, "canonic/verification/index.html")
    for sh in ref.sweep["shows"]:
        rel = f"canonic/bibles/{sh['id']}/index.html"
        assert rel in {resolve("canonic/verification/index.html", h) for h in ver.links}, sh["id"]
        text = read_page(out, rel)[1].text
        source = (built_site.root / bible_rel(sh["id"])).read_text(encoding="utf-8").split("\n---\n", 1)[1]
        for line in source.splitlines():
            words = " ".join(re.sub(r"^\s*(#+|[-*])\s+", "", line).replace("**", "").replace("`", "").split())
            if words:
                assert words in text, (sh["id"], words)


@pytest.mark.parametrize("change", ["CRLF line endings", "a trailing newline", "a byte-order mark and CRLF"])
def test_line_endings_and_a_final_newline_do_not_change_a_bible_fingerprint(site_copy, change):
    show = read_sweep(site_copy)["shows"][-1]["id"]
    path = site_copy / bible_rel(show)
    before = path.read_bytes()
    if change == "CRLF line endings":
        after = before.replace(b"\n", b"\r\n")
    elif change == "a trailing newline":
        after = before + b"\n"
    else:
        after = b"\xef\xbb\xbf" + before.replace(b"\n", b"\r\n")
    assert after != before
    path.write_bytes(after)
    res = compute_family(site_copy, "canonic")  # raises if the build would fail
    (check,) = [f for f in res.input.freeze.checks if f.kind == "show-bible" and f.id == show]
    assert check.recomputed == check.recorded == ref_text_fingerprint(before)


def test_a_version_bump_in_the_freeze_record_accepts_an_edit_and_shows_on_the_verification_page(cached_site_copy, tmp_path):
    root = cached_site_copy
    show = read_sweep(root)["shows"][1]
    path = root / bible_rel(show["id"])
    original = path.read_text(encoding="utf-8")
    edited = edit_wording(original)
    (changed,) = [b for a, b in zip(original.splitlines(), edited.splitlines()) if a != b]
    path.write_text(edited, encoding="utf-8")
    new = ref_text_fingerprint(path.read_bytes())
    freeze = read_json(root, FREEZE_REL)
    item = next(i for i in freeze["items"] if i["kind"] == "show-bible" and i["id"] == show["id"])
    old = item["history"][-1]
    # a bump that records the wrong fingerprint is still a mismatch
    item["history"].append({"version": "2", "fingerprint": old["fingerprint"], "frozen_at": "2027-01-01T00:00:00Z",
                            "note": "reworded one sentence"})
    write_json(root, FREEZE_REL, freeze)
    with pytest.raises(InputError) as exc:
        validate(load_config(root))
    assert bible_rel(show["id"]) in {p.file for p in exc.value.problems}

    item["history"][-1]["fingerprint"] = new
    write_json(root, FREEZE_REL, freeze)
    # the right fingerprint, but the sweep was judged under version 1: a bump needs a re-sweep
    i = read_sweep(root)["shows"].index(show)
    p = only(problems_of(root))
    assert where(p) == f"{SWEEP_REL} $.shows[{i}].bible_version" and "version 2" in p.expected and p.found == '"1"'
    # the re-sweep: the sweep now says it was judged under version 2
    sweep = read_sweep(root)
    sweep["shows"][i]["bible_version"] = "2"
    write_sweep(root, sweep)
    out = tmp_path / "out"
    build(load_config(root), out)
    _, ver = read_page(out, "canonic/verification/index.html")
    (row,) = [cells for _id, cells in ver.rows if cells and cells[0].startswith(f"show-bible {show['id']}")]
    assert row[1].startswith("2") and old["version"] in row[1] and "successor" in row[1]
    assert new in row[2] and old["fingerprint"] not in row[2]
    (csv_row,) = [r for r in read_csv(out / "canonic/fingerprints.csv") if r["id"] == show["id"]]
    assert (csv_row["version"], csv_row["recorded"], csv_row["recomputed"]) == ("2", new, new)
    # the page publishes the bible as it now reads
    bible = read_page(out, f"canonic/bibles/{show['id']}/index.html")[1].text
    assert " ".join(changed.split()) in bible


def test_a_bump_of_one_rubric_does_not_change_the_stated_freeze_time(cached_site_copy, tmp_path):
    root = cached_site_copy
    sweep = read_sweep(root)
    rubric = sweep["domains"][0]["rubric"]
    rubric["version"] = "2"
    rubric["dimensions"][0]["anchors"][1]["descriptor"] += " (clarified)"
    write_sweep(root, sweep)
    freeze = read_json(root, FREEZE_REL)
    bump = "2027-03-03T00:00:00Z"
    item = next(i for i in freeze["items"] if i["kind"] == "rubric" and i["id"] == sweep["domains"][0]["id"])
    item["history"].append({"version": "2", "fingerprint": ref_rubric_fingerprint(rubric), "frozen_at": bump, "note": "clarified"})
    write_json(root, FREEZE_REL, freeze)
    out = tmp_path / "out"
    build(load_config(root), out)
    text = read_page(out, "canonic/verification/index.html")[1].text
    assert f"frozen at {freeze['frozen_at']}" in text
    assert f"frozen at {bump}" not in text


def test_a_missing_freeze_record_fails_the_build(site_copy):
    (site_copy / FREEZE_REL).unlink()
    with pytest.raises(InputError) as exc:
        validate(load_config(site_copy))
    assert FREEZE_REL in [p.file for p in exc.value.problems]


# --------------------------------------------------------------------------- probes


def probe_table(out: Path) -> dict[str, dict]:
    return {r["probe"]: r for r in read_csv(out / "canonic/probes.csv")}


def check_probes_published(out: Path, probes) -> None:
    table = probe_table(out)
    assert sorted(table) == sorted(p.id for p in probes)
    _, diag = read_page(out, "canonic/diagnostics/index.html")
    rows = {rid: cells for rid, cells in diag.rows if rid}
    for p in probes:
        r = table[p.id]
        assert float(r["score"]) == pytest.approx(p.score, abs=1e-9)
        assert float(r["max_score"]) == p.max_score
        for judge, s in p.judge_scores:
            assert float(r[f"score_{judge}"]) == pytest.approx(s, abs=1e-9)
        assert r["caught"] == str(p.caught), p.id
        cells = rows[f"probe-{p.id}"]
        assert cells[-1] == ("caught" if p.caught else "not caught"), p.id
        assert cells[-3] in fmt(p.score, ".1f") and cells[-2] in fmt(p.max_score, ".1f")
    caught = sum(p.caught for p in probes)
    assert f"{caught} of {len(probes)} probes were caught; {len(probes) - caught} were not" in diag.text


def test_probe_scores_are_the_mean_of_both_judges_and_caught_at_or_below_the_maximum(built_site, ref):
    probes = ref_probes(built_site.root, ref.sweep)
    assert (len(probes), sum(p.caught for p in probes)) == (8, 6)
    check_probes_published(built_site.out, probes)
    quotes = read_page(built_site.out, "canonic/diagnostics/index.html")[1].quotes
    for p in read_json(built_site.root, PROBES_REL)["probes"]:
        assert p["output"] in quotes, p["id"]  # each engineered output is published, as text


def test_a_probe_verdict_follows_its_maximum(cached_site_copy, tmp_path, ref):
    """Lower one caught probe's maximum below its score: it is no longer caught. Set another
    caught probe's maximum to exactly its score: at the maximum still counts as caught. Either
    needs a new version of the frozen maximums first."""
    root = cached_site_copy
    probes = ref_probes(root, ref.sweep)
    caught = [p for p in probes if p.caught and p.score >= 1.0]
    assert len(caught) >= 2
    flipped, boundary = caught[0], caught[1]
    doc = read_json(root, PROBES_REL)
    for p in doc["probes"]:
        if p["id"] == flipped.id:
            p["max_score"] = round(flipped.score - 0.5, 6)
        elif p["id"] == boundary.id:
            p["max_score"] = boundary.score
    write_json(root, PROBES_REL, doc)
    # the maximums are frozen: moved after the judges scored, they fail the build
    p = only(problems_of(root))
    assert where(p) == f"{PROBES_REL} $.probes" and "probe-maximums" in p.expected and FREEZE_REL in p.expected
    # frozen anew (a version bump in the freeze record), they decide the verdicts
    freeze = read_json(root, FREEZE_REL)
    item = next(i for i in freeze["items"] if i["kind"] == "probe-maximums")
    item["history"].append({"version": "2", "fingerprint": ref_rubric_fingerprint({p["id"]: p["max_score"] for p in doc["probes"]}),
                            "frozen_at": "2027-01-01T00:00:00Z", "note": "maximums revised"})
    write_json(root, FREEZE_REL, freeze)
    now = ref_probes(root, ref.sweep)
    verdicts = {p.id: p.caught for p in now}
    assert (verdicts[flipped.id], verdicts[boundary.id]) == (False, True)
    out = tmp_path / "out"
    build(load_config(root), out)
    check_probes_published(out, now)
    assert probe_table(out)[flipped.id]["caught"] == "False"
    assert probe_table(out)[boundary.id]["caught"] == "True"
    assert sum(p.caught for p in now) == sum(p.caught for p in probes) - 1


# --------------------------------------------------------------------------- score ladders


def test_ladder_eligibility_rungs_and_strict_order_are_recomputed(built_site, ref):
    out = built_site.out
    mine = ref_ladders(ref)
    rows = read_csv(out / "canonic/ladders.csv")
    by_task: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_task[r["task"]].append(r)
    assert sorted(by_task) == sorted(lad.task for lad in mine)
    judges = [j["id"] for j in ref.sweep["judges"]]
    for lad in mine:
        got = by_task[lad.task]
        assert [(r["rung"], r["model"]) for r in got] == [(pos, m) for pos, m, _ in lad.rungs], lad.task
        for r, (_pos, model, score) in zip(got, lad.rungs):
            assert r["domain"] == lad.domain and int(r["publishable_outputs"]) == lad.candidates
            assert float(r["task_score"]) == pytest.approx(score, abs=1e-9)
            ws = dict(ref.judge_scores[(model, lad.task)])
            for j in judges:
                assert float(r[f"score_{j}"]) == pytest.approx(ws[j], abs=1e-9)
            assert r["both_judges_strict"] == str(lad.strict), lad.task
    n, m, k = len(mine), len(ref.sweep["tasks"]), sum(lad.strict for lad in mine)
    _, page = read_page(out, "canonic/ladders/index.html")
    assert f"{n} of {m} tasks are eligible; on {k} of these {n} both judges placed the three rungs in strict low-to-high order" in page.text
    # one page per eligible ladder, none for another task
    pages = {p.parent.name for p in (out / "canonic/ladders").glob("*/index.html")}
    assert pages == {lad.task for lad in mine}


def test_ladder_pages_show_each_rung_as_text_and_excerpt_long_outputs(built_site, ref):
    out = built_site.out
    texts = {}
    for line in (built_site.root / OUTPUTS_REL).read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        texts[(rec["model"], rec["task"])] = rec["text"]
    long_seen = short_seen = 0
    for lad in ref_ladders(ref):
        rel = f"canonic/ladders/{lad.task}/index.html"
        _, ladder = read_page(out, rel)
        assert len(ladder.quotes) == 3, lad.task
        for quote, (pos, model, _score) in zip(ladder.quotes, lad.rungs):
            full = texts[(model, lad.task)]
            full_page = out / f"canonic/ladders/{lad.task}/{pos}/index.html"
            if len(full) > 1500:
                long_seen += 1
                assert quote.endswith(" …") and full.startswith(quote.removesuffix(" …").rstrip()), (lad.task, pos)
                assert len(quote) <= 1502
                assert full_page.is_file()
                assert f"canonic/ladders/{lad.task}/{pos}/index.html" in {resolve(rel, h) for h in ladder.links}
                assert read_page(out, full_page.relative_to(out).as_posix())[1].quotes == [full]
            else:
                short_seen += 1
                assert quote == full, (lad.task, pos)
                assert not full_page.exists()
    assert long_seen and short_seen  # the demo exercises both


def test_a_task_with_two_publishable_outputs_gets_no_ladder(tmp_path):
    """Hand-made: Model B's alpha row is withheld by the gate (3 of 5 counted), so its counted
    alpha cells are not publishable and every alpha task keeps only 2 outputs; on beta-03 Model
    C's cell is excluded, leaving 2. The other four beta tasks have 3 and get a ladder."""
    from test_counting import B, C, J1, J2, error, grid, ok, refusal, run

    cells = grid({**{(B, t): ok(B, t, [refusal(J1), refusal(J1, "reframe"), refusal(J2), refusal(J2, "reframe")])
                     for t in ("alpha-02", "alpha-04")},
                  (C, "beta-03"): ok(C, "beta-03", [error(J1), error(J2)])})
    res = run(tmp_path, cells)
    ref = reference(tmp_path / "tiny")
    assert not ref.rows[(B, "alpha")].published and ref.rows[(C, "beta")].published
    mine = ref_ladders(ref)
    assert [lad.task for lad in mine] == ["beta-01", "beta-02", "beta-04", "beta-05"]
    got = res.evidence.ladders
    assert [(lad.task, lad.candidates) for lad in got] == [(lad.task, lad.candidates) for lad in mine]
    assert [[(r.position, r.model) for r in lad.rungs] for lad in got] == [[(p, m) for p, m, _ in lad.rungs] for lad in mine]
    assert [lad.strict for lad in got] == [lad.strict for lad in mine]
    texts = FAMILIES["canonic"].outputs(res).texts
    assert f"{len(mine)} of 10 tasks are eligible" in texts["canonic.ladders"]


def test_model_output_text_cannot_inject_markup(cached_site_copy, tmp_path, built_site):
    """An output that becomes a ladder rung (a long one, so its full-text page is checked too)
    carries markup: every page shows it as text."""
    evil = "<script>alert(1)</script><img src=x onerror=alert(1)>"
    root = cached_site_copy
    lines = (root / OUTPUTS_REL).read_text(encoding="utf-8").splitlines()
    index = {(r["model"], r["task"]): i for i, r in enumerate(map(json.loads, lines))}
    target = None
    for row in read_csv(built_site.out / "canonic/ladders.csv"):
        i = index[(row["model"], row["task"])]
        if len(json.loads(lines[i])["text"]) > 1500:
            target = (row["task"], row["rung"], i)
            break
    assert target, "no long rung in the demo"
    task, rung, i = target
    rec = json.loads(lines[i])
    rec["text"] = evil + " " + rec["text"]
    lines[i] = json.dumps(rec, ensure_ascii=False)
    (root / OUTPUTS_REL).write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    build(load_config(root), out)
    for p in sorted(out.rglob("*.html")):
        lowered = p.read_text(encoding="utf-8").lower()
        assert "<script" not in lowered and "<img" not in lowered, p
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"
    for rel in (f"canonic/ladders/{task}/index.html", f"canonic/ladders/{task}/{rung}/index.html"):
        markup, doc = read_page(out, rel)
        assert escaped in markup, rel
        assert any(q.startswith(evil) for q in doc.quotes), rel  # shown intact, as text


# --------------------------------------------------------------------------- the failure record


def difference_interval(a: list[float], b: list[float], seed: int) -> tuple[float, float]:
    """The recipe on the verification page: each group resampled on its own, 10,000 times."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    rng = np.random.default_rng(seed)
    ia = rng.integers(0, len(a), size=(10000, len(a)))
    ib = rng.integers(0, len(b), size=(10000, len(b)))
    lo, hi = np.percentile(a[ia].mean(axis=1) - b[ib].mean(axis=1), [2.5, 97.5])
    return float(lo), float(hi)


def test_contamination_split_is_recomputed_with_its_documented_seed(built_site, ref):
    origin = {t["id"]: t["premise_origin"] for t in ref.sweep["tasks"]}
    sweep_id = ref.sweep["sweep"]["id"]
    expected = {}
    for (model, domain), row in ref.rows.items():
        if not row.published:
            continue
        novel = [row.task_scores[t] for t in sorted(row.task_scores) if origin[t] == "novel"]
        canon = [row.task_scores[t] for t in sorted(row.task_scores) if origin[t] == "canonical-anchored"]
        if novel and canon:
            expected[(model, domain)] = (novel, canon)
    table = {(r["model"], r["domain"]): r for r in read_csv(built_site.out / "canonic/contamination.csv")}
    assert sorted(table) == sorted(expected)
    _, ver = read_page(built_site.out, "canonic/verification/index.html")
    shown = {(cells[0], cells[1]): cells for _id, cells in ver.rows if len(cells) == 6}
    domain_names = {d["id"]: d["name"] for d in ref.sweep["domains"]}
    for (model, domain), (novel, canon) in expected.items():
        r = table[(model, domain)]
        diff = float(np.mean(novel)) - float(np.mean(canon))
        assert (int(r["n_novel"]), int(r["n_canonical"])) == (len(novel), len(canon))
        assert float(r["novel_mean"]) == pytest.approx(np.mean(novel), abs=1e-9)
        assert float(r["canonical_mean"]) == pytest.approx(np.mean(canon), abs=1e-9)
        assert float(r["difference"]) == pytest.approx(diff, abs=1e-9)
        seed = int.from_bytes(hashlib.sha256(f"{sweep_id}|{model}|{domain}|contamination".encode("utf-8")).digest()[:8], "big")
        assert int(r["bootstrap_seed"]) == seed
        lo, hi = difference_interval(novel, canon, seed)
        assert (float(r["ci_low"]), float(r["ci_high"])) == pytest.approx((lo, hi), abs=1e-9), (model, domain)
        cells = shown[(names(ref)[model], domain_names[domain])]
        assert cells[4] in fmt(diff, "+.1f") and any(f"{a} to {b}" == cells[5] for a in fmt(lo, "+.1f") for b in fmt(hi, "+.1f"))
    assert "one contamination pathway only" in ver.text


def test_contamination_by_show_is_recomputed_pooled_and_model_by_model(built_site, ref):
    """Per show, over the counted cells of published rows: every model pooled, then each model,
    wherever both origins have cells; the means and counts of each origin."""
    task = {t["id"]: t for t in ref.sweep["tasks"]}
    groups: dict[tuple[str, str | None], dict[str, list[float]]] = defaultdict(lambda: {"novel": [], "canonical-anchored": []})
    for (model, _domain), row in ref.rows.items():
        if not row.published:
            continue
        for t, score in row.task_scores.items():
            if task[t].get("show"):
                for key in ((task[t]["show"], None), (task[t]["show"], model)):
                    groups[key][task[t]["premise_origin"]].append(score)
    expected = {key: g for key, g in groups.items() if g["novel"] and g["canonical-anchored"]}
    rows = read_csv(built_site.out / "canonic/contamination-by-show.csv")
    assert len(expected) > 2 and sorted((r["show"], r["model"]) for r in rows) == sorted((show, model or "") for show, model in expected)
    for r in rows:
        g = expected[(r["show"], r["model"] or None)]
        assert (int(r["n_novel"]), int(r["n_canonical"])) == (len(g["novel"]), len(g["canonical-anchored"]))
        assert float(r["novel_mean"]) == pytest.approx(np.mean(g["novel"]), abs=1e-9)
        assert float(r["canonical_mean"]) == pytest.approx(np.mean(g["canonical-anchored"]), abs=1e-9)


def test_judge_calibration_is_recomputed_and_published_as_measured(built_site, ref):
    judges = [j["id"] for j in ref.sweep["judges"]]
    task_domain = {t["id"]: t["domain"] for t in ref.sweep["tasks"]}
    pairs: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for (model, task), ws in ref.judge_scores.items():
        by = dict(ws)
        pairs[task_domain[task]].append((by[judges[0]], by[judges[1]]))
    table = {r["domain"]: r for r in read_csv(built_site.out / "canonic/calibration.csv")}
    assert sorted(table) == sorted(pairs)
    _, ver = read_page(built_site.out, "canonic/verification/index.html")
    domain_names = {d["id"]: d["name"] for d in ref.sweep["domains"]}
    shown = {cells[0]: cells for _id, cells in ver.rows if len(cells) == 6 and cells[0] in domain_names.values()}
    for d, ps in pairs.items():
        arr = np.array(ps)
        a, b = arr.mean(axis=0)
        dis = float(np.abs(arr[:, 0] - arr[:, 1]).mean())
        r = table[d]
        assert int(r["cells"]) == len(ps) and (r["judge_a"], r["judge_b"]) == tuple(judges)
        assert (float(r["judge_a_mean"]), float(r["judge_b_mean"])) == pytest.approx((a, b), abs=1e-9)
        assert float(r["offset_a_minus_b"]) == pytest.approx(a - b, abs=1e-9)
        assert float(r["mean_abs_disagreement"]) == pytest.approx(dis, abs=1e-9)
        cells = shown[domain_names[d]]
        assert cells[4] in fmt(a - b, "+.2f") and cells[5] in fmt(dis, ".2f")
    assert "no correction is applied" in ver.text


def test_reframe_appendix_lists_exactly_the_cells_excluded_as_reframe(built_site, ref):
    cells = read_cells(built_site.root)
    dims = {d["id"]: d["rubric"]["dimensions"] for d in ref.sweep["domains"]}
    task_domain = {t["id"]: t["domain"] for t in ref.sweep["tasks"]}
    expected = set()
    for c in cells:
        if ref_status(c) == "reframe":
            for j in c["judgments"]:
                if j["prompt"] == "reframe" and j["outcome"] == "score":
                    expected.add((task_domain[c["task"]], c["task"], c["model"], j["judge"],
                                  round(ref_weighted(dims[task_domain[c["task"]]], j["anchors"]), 9)))
    assert expected, "the demo has reframed cells"
    got = {(r["domain"], r["task"], r["model"], r["judge"], round(float(r["reframed_score"]), 9))
           for r in read_csv(built_site.out / "canonic/reframes.csv")}
    assert got == expected
    assert {(m, t) for _d, t, m, _j, _s in got} == {(c["model"], c["task"]) for c in cells if ref_status(c) == "reframe"}
    # and none of them is counted anywhere
    for _d, t, m, _j, _s in got:
        assert t not in ref.rows[(m, task_domain[t])].task_scores
    _, ver = read_page(built_site.out, "canonic/verification/index.html")
    assert f"Reframed retries that scored ({len(expected)})" in ver.text


def test_exclusions_by_model_and_figure_2_match_the_recount(built_site, ref):
    per_model: dict[str, Counter] = defaultdict(Counter)
    for c in read_cells(built_site.root):
        per_model[c["model"]][ref_status(c)] += 1
    rows = {r["model"]: r for r in read_csv(built_site.out / "canonic/exclusions-by-model.csv")}
    assert sorted(rows) == sorted(per_model)
    fig = read_csv(built_site.out / "canonic/figure-2-models.csv")
    for model, counts in per_model.items():
        r = rows[model]
        assert int(r["counted"]) == counts["counted"]
        for reason in ("generation failure", "reframe", "refusal", "single judge", "error"):
            assert int(r[reason.replace(" ", "_")]) == counts[reason], (model, reason)
            (bar,) = [x for x in fig if x["group"] == f"{names(ref)[model]} ({counts['counted']} counted)" and x["reason"] == reason]
            assert int(bar["cells"]) == counts[reason]


def test_figure_2_by_domain_matches_the_recount(built_site, ref):
    task_domain = {t["id"]: t["domain"] for t in ref.sweep["tasks"]}
    per_domain: dict[str, Counter] = defaultdict(Counter)
    for c in read_cells(built_site.root):
        per_domain[task_domain[c["task"]]][ref_status(c)] += 1
    fig = read_csv(built_site.out / "canonic/figure-2-domains.csv")
    for d in ref.sweep["domains"]:
        counts = per_domain[d["id"]]
        bars = {x["reason"]: int(x["cells"]) for x in fig if x["group"] == f"{d['name']} ({counts['counted']} counted)"}
        assert bars == {r: counts[r] for r in ("generation failure", "reframe", "refusal", "single judge", "error")}, d["id"]


def test_show_dimension_means_match_the_recount(built_site, ref):
    """The 2x2 of format against voice: the mean anchor per show and sitcom dimension over both
    judges' standard-prompt scores of counted cells."""
    show_of = {t["id"]: t["show"] for t in ref.sweep["tasks"] if t.get("show")}
    anchors: dict[tuple[str, str], list[float]] = defaultdict(list)
    for c in read_cells(built_site.root):
        if c["task"] in show_of and ref_status(c) == "counted":
            for j in c["judgments"]:
                if j["prompt"] == "standard":
                    for dim, a in j["anchors"].items():
                        anchors[(show_of[c["task"]], dim)].append(a)
    rows = {(r["show"], r["dimension"]): r for r in read_csv(built_site.out / "canonic/show-dimensions.csv")}
    assert sorted(rows) == sorted(anchors)
    for key, values in anchors.items():
        assert int(rows[key]["judgments"]) == len(values)
        assert float(rows[key]["mean_anchor"]) == pytest.approx(np.mean(values), abs=1e-9)
    _, diag = read_page(built_site.out, "canonic/diagnostics/index.html")
    sitcom = next(d for d in ref.sweep["domains"] if any(x["scope"] == "show-conditioned" for x in d["rubric"]["dimensions"]))
    conditioned = [x["id"] for x in sitcom["rubric"]["dimensions"] if x["scope"] == "show-conditioned"]
    for sh in ref.sweep["shows"]:
        # (Figure 3's data table has rows naming the show too: they also carry its id.)
        (cells,) = [c for _id, c in diag.rows if sh["name"] in c and sh["id"] not in c and len(c) >= len(conditioned) + 1]
        shown = cells[-len(conditioned):]
        for dim, cell in zip(conditioned, shown):
            assert cell in fmt(100 * float(np.mean(anchors[(sh["id"], dim)])), ".1f"), (sh["id"], dim)


def test_sitcom_transfer_per_show_and_figure_3_match_the_recount(built_site, ref):
    show_of = {t["id"]: t["show"] for t in ref.sweep["tasks"] if t.get("show")}
    show_names = {sh["id"]: sh["name"] for sh in ref.sweep["shows"]}
    expected: dict[tuple[str, str], list[float]] = defaultdict(list)
    for (model, _domain), row in ref.rows.items():
        for task, sc in row.task_scores.items():
            if task in show_of:
                expected[(model, show_of[task])].append(sc)
    rows = {(r["model"], r["show"]): r for r in read_csv(built_site.out / "canonic/sitcom-by-show.csv")}
    assert sorted(rows) == sorted(expected)
    fig = {(r["model"], r["show"]): float(r["score"]) for r in read_csv(built_site.out / "canonic/figure-3.csv")}
    for (model, show), scores in expected.items():
        assert int(rows[(model, show)]["counted"]) == len(scores)
        assert float(rows[(model, show)]["score"]) == pytest.approx(np.mean(scores), abs=1e-9)
        assert fig[(names(ref)[model], show_names[show])] == pytest.approx(np.mean(scores), abs=1e-9)


def average_ranks(values: list[float]) -> list[float]:
    ranks = []
    for v in values:
        below = sum(1 for w in values if w < v)
        equal = sum(1 for w in values if w == v)
        ranks.append(below + (equal + 1) / 2)
    return ranks


def spearman(x: list[float], y: list[float]) -> float | None:
    if len(x) < 2:
        return None
    rx, ry = np.array(average_ranks(x)), np.array(average_ranks(y))
    dx, dy = rx - rx.mean(), ry - ry.mean()
    denom = np.sqrt((dx ** 2).sum() * (dy ** 2).sum())
    return None if denom == 0 else float((dx * dy).sum() / denom)


def test_external_rank_comparison_uses_exact_model_ids_only(built_site, ref):
    ext = read_json(built_site.root, EXTERNAL_REL)
    sweep_ids = {m["id"] for m in ref.sweep["models"]}
    assert "openai/gpt-5.5-chat" in {e["model"] for e in ext["entries"]}  # the near miss is there...
    assert "openai/gpt-5.5-chat" not in sweep_ids and "openai/gpt-5.5" in sweep_ids
    scores = {e["model"]: e["score"] for e in ext["entries"]}
    table = {r["domain"]: r for r in read_csv(built_site.out / "canonic/external-comparison.csv")}
    _, diag = read_page(built_site.out, "canonic/diagnostics/index.html")
    domain_names = {d["id"]: d["name"] for d in ref.sweep["domains"]}
    shown = {cells[0]: cells for _id, cells in diag.rows if len(cells) == 4 and cells[0] in domain_names.values()}
    assert sorted(table) == sorted(domain_names)
    for d in domain_names:
        pub = [r for (m, dd), r in ref.rows.items() if dd == d and r.published and m in scores]  # ...and is not matched
        rho = spearman([r.score for r in pub], [scores[r.model] for r in pub])
        r = table[d]
        assert int(r["shared_models"]) == len(pub), d
        assert r["predeclared"] == str(d in ext["predeclared"])
        assert float(r["spearman_rho"]) == pytest.approx(rho, abs=1e-9), d
        cells = shown[domain_names[d]]
        assert cells[1] == ("predeclared" if d in ext["predeclared"] else "exploratory")
        assert cells[2] == str(len(pub)) and cells[3] in fmt(rho, ".3f")
    assert ext["predeclared"] == ["book-opening"]


# --------------------------------------------------------------------------- manifest and provenance


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_raw_inputs_are_republished_byte_for_byte_without_the_outputs(built_site, ref):
    out, root = built_site.out, built_site.root
    raw = {p.relative_to(out / "raw").as_posix() for p in (out / "raw").rglob("*") if p.is_file()}
    raw = {rel for rel in raw if "/canonic/" in rel}  # other families publish their own raw records
    expected = {SWEEP_REL, CELLS_REL, FREEZE_REL, PROBES_REL, EXTERNAL_REL} | {bible_rel(sh["id"]) for sh in ref.sweep["shows"]}
    assert raw == expected
    for rel in raw:
        assert (out / "raw" / rel).read_bytes() == (root / rel).read_bytes(), rel


def test_manifest_binds_every_table_and_figure_to_its_files_sources_and_computation(built_site, ref):
    out, root = built_site.out, built_site.root
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    artifacts = manifest["artifacts"]
    for d in ref.sweep["domains"]:
        assert artifacts[f"canonic/{d['id']}/board"]["kind"] == "table"
        assert artifacts[f"canonic/{d['id']}/figure"]["kind"] == "figure"
    for name in ("canonic/figure-2-domains", "canonic/figure-2-models", "canonic/figure-3"):
        assert artifacts[name]["kind"] == "figure"
        assert sorted(artifacts[name]["files"]) == sorted(f"{name}{s}" for s in (".svg", ".png", ".vl.json", ".csv"))
    for name, a in artifacts.items():
        assert a["kind"] in ("table", "figure") and a["computation"].strip(), name
        assert a["files"], name
        for f in a["files"]:
            assert (out / f).is_file() and manifest["files"][f] == sha(out / f), (name, f)
        assert a["sources"], name
        for src, digest in a["sources"].items():
            assert digest == sha(root / src) == sha(out / "raw" / src), (name, src)
    # every data download of the site belongs to a table or figure
    listed = {f for a in artifacts.values() for f in a["files"]}
    downloads = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.suffix in (".csv", ".svg", ".png")
                 and not p.relative_to(out).as_posix().startswith(("raw/", "assets/"))}
    assert downloads <= listed


def provenance_lines(markup: str) -> list[str]:
    return re.findall(r'<p class="prov">(.*?)</p>', markup, re.S)


def check_provenance(out: Path, rel: str, prov: str, artifact: dict) -> None:
    hrefs = re.findall(r'href="([^"]+)"', prov)
    targets = {resolve(rel, html.unescape(h)) for h in hrefs}
    # Canonic links to its verification page; the other families, which have none, to the
    # downloads page's account of the checks (sha256sum -c, sitegen verify).
    verify = "canonic/verification/index.html" if rel.startswith("canonic/") else "downloads/index.html"
    assert verify in targets, (rel, prov)
    assert set(artifact["files"]) & targets, (rel, "no link to the download")
    for t in targets:
        assert (out / t).is_file(), (rel, t)
    for digest in artifact["sources"].values():
        assert digest[:12] in prov, (rel, digest)


def test_every_board_and_figure_carries_a_provenance_line(built_site, ref):
    out = built_site.out
    artifacts = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["artifacts"]
    figures_seen = set()
    for p in sorted(out.rglob("*.html")):
        rel = p.relative_to(out).as_posix()
        markup = p.read_text(encoding="utf-8")
        for fig_id, body in re.findall(r'<figure class="chart" id="([^"]+)">(.*?)</figure>', markup, re.S):
            (prov,) = provenance_lines(body)
            svg = next(resolve(rel, h) for h in re.findall(r'href="([^"]+\.svg)"', prov))
            name = svg.removesuffix(".svg")
            check_provenance(out, rel, prov, artifacts[name])
            figures_seen.add(name)
    assert figures_seen == {n for n, a in artifacts.items() if a["kind"] == "figure"}
    for d in ref.sweep["domains"]:
        rel = f"canonic/{d['id']}/index.html"
        markup = (out / rel).read_text(encoding="utf-8")
        board = markup.index('<table class="board">')
        provs = [m for m in re.finditer(r'<p class="prov">(.*?)</p>', markup, re.S)
                 if f"canonic/{d['id']}/board.csv" in {resolve(rel, h) for h in re.findall(r'href="([^"]+)"', m.group(1))}]
        assert provs, rel
        between = markup[markup.index("</table>", board):provs[0].start()]
        assert re.fullmatch(r"</table>\s*</div>\s*", between), rel  # right below the table it describes
        check_provenance(out, rel, provs[0].group(1), artifacts[f"canonic/{d['id']}/board"])


def test_the_fingerprint_table_names_every_document_it_recomputes(built_site, ref):
    artifacts = json.loads((built_site.out / "manifest.json").read_text(encoding="utf-8"))["artifacts"]
    sources = artifacts["canonic/fingerprints"]["sources"]
    for sh in ref.sweep["shows"]:
        assert sources.get(bible_rel(sh["id"])) == sha(built_site.root / bible_rel(sh["id"]))


def test_an_output_text_changed_during_the_build_publishes_nothing(tmp_path):
    """The ladders' texts are read back from outputs.jsonl when their pages are made (the build
    holds only where each line lies and its SHA-256): a line changed after it was validated
    fails the build, and nothing is published."""
    from sitegen.errors import BuildError

    from conftest import copy_site

    root = copy_site(tmp_path / "site", families=["canonic"])
    path = root / OUTPUTS_REL

    def tamper(stage: str) -> None:
        if stage == "compute":  # after every line was read and checked
            data = path.read_bytes()
            path.write_bytes(data.replace(b"a", b"e"))  # the same length: every line where it was

    out = tmp_path / "out"
    with pytest.raises(BuildError, match=r"data/canonic/outputs.jsonl changed during the build"):
        build(load_config(root), out, on_stage=tamper, cache=False)
    assert not out.exists()
