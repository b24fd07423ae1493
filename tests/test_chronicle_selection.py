"""ChronicleBench protocol section 7 and amendment A3: the human reference corpus's selection
record (data/chronicle/selection.json), the seeded selection computed from it, and
reference.jsonl held to it.

The selection is recomputed here from the raw files with json and hashlib, following the
reference page's own description (each stratum's eligible ids sorted, ordered by the SHA-256 of
"seed:id", the first 12 drawn; a stratum with fewer than 12 eligible works within the band
extends its ceiling to 110,000 words and fills its remaining places, in the same order, from
its eligible works over the band). Nothing is copied from sitegen's own computation, except in
the one test that calls its selection function to show it is a function of the seed.

Problem tests edit a private copy reduced to the ChronicleBench family and run the family's
load, where every input problem is raised; page tests build that copy.
"""

from __future__ import annotations

import copy
import csv
import hashlib
import io
import json
import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import numpy as np
import pytest

from sitegen.config import load_config
from sitegen.errors import Problem
from sitegen.site_families import FAMILIES
from sitegen.load import Loaded

from conftest import edit_line, read_jsonl
from test_chronicle import COHORT_REL, REFS_REL, build_site, chronicle_only, read_json, ref_score, weights_by_profile, write_json

SEL_REL = "data/chronicle/selection.json"
AMEND_DIR = "content/chronicle/amendments"
STRATA = ("plot-forward", "character-forward", "broader-controls")
SEED = "sagabench-v1.1-gutenberg"


@pytest.fixture
def chron(tmp_path: Path) -> Path:
    return chronicle_only(tmp_path / "site")


def problems(root: Path) -> list[str]:
    """What `sitegen validate` prints for the family's inputs, one line per problem, sorted."""
    loaded = Loaded()
    FAMILIES["chronicle"].load(root, loaded, load_config(root).limits)
    return sorted(str(p) for p in loaded.problems)


def read_csv(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def shown1(x: float) -> str:
    return str(Decimal(repr(float(x))).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


# --------------------------------------------------------------------------- the reference selection


def key(seed: str, gid: int) -> str:
    return hashlib.sha256(f"{seed}:{gid}".encode("utf-8")).hexdigest()


def ref_selection(root: Path, sel: dict | None = None) -> dict[int, dict]:
    """Gutenberg id -> {status, rank, reasons, extended, stratum, index}, as the page describes."""
    sel = read_json(root, SEL_REL) if sel is None else sel
    band = read_json(root, COHORT_REL)["eligibility"]
    lo, hi, ext, places = band["min_words"], band["max_words"], sel["extended_max_words"], sel["places_per_stratum"]
    anchors = {r["gutenberg_id"] for _, r in read_jsonl(root, REFS_REL) if r["corpus"] == "legacy-v1.0"}

    def fixed(c):
        out = []
        if c["original_language"] != "en":
            out.append("original-language")
        if c["translator"] is not None:
            out.append("translated")
        if c["form"] != "novel":
            out.append("form")
        if not c["cleanly_extractable"]:
            out.append("not-cleanly-extractable")
        if c["words"] <= 75_000:  # the 75K window starts after word 75,000
            out.append("windows")
        if c["duplicate_of"] is not None or c["gutenberg_id"] in anchors:
            out.append("duplicate")
        if c.get("exclusion") is not None:
            out.append("content-exclusion")
        return out

    out = {}
    for stratum in STRATA:
        members = [(i, c) for i, c in enumerate(sel["candidates"]) if c["stratum"] == stratum]
        in_band = [c for _, c in members if not fixed(c) and lo <= c["words"] <= hi]
        ceiling = ext if len(in_band) < places else hi
        over = [c for _, c in members if not fixed(c) and hi < c["words"] <= ceiling]
        order = [c["gutenberg_id"] for c in sorted(in_band, key=lambda c: (key(sel["seed"], c["gutenberg_id"]), c["gutenberg_id"]))]
        order += [c["gutenberg_id"] for c in sorted(over, key=lambda c: (key(sel["seed"], c["gutenberg_id"]), c["gutenberg_id"]))]
        for i, c in members:
            g = c["gutenberg_id"]
            reasons = fixed(c) + (["under-length"] if c["words"] < lo else ["over-length"] if c["words"] > ceiling else [])
            rank = order.index(g) + 1 if g in order else None
            status = "excluded" if reasons else "selected" if rank <= places else "eligible-not-drawn"
            out[g] = {"status": status, "rank": rank, "reasons": reasons, "extended": c["words"] > hi and not reasons,
                      "stratum": stratum, "index": i, "title": c["title"], "words": c["words"]}
    return out


def v11_lines(root: Path) -> dict[int, tuple[int, dict]]:
    return {r["gutenberg_id"]: (line, r) for line, r in read_jsonl(root, REFS_REL) if r["corpus"] == "v1.1"}


def drawn_in(ref: dict, stratum: str) -> list[int]:
    return [g for g, o in sorted(ref.items(), key=lambda kv: kv[1]["rank"] or 0) if o["stratum"] == stratum and o["status"] == "selected"]


def next_not_drawn(ref: dict, stratum: str) -> int:
    return min((o["rank"], g) for g, o in ref.items() if o["stratum"] == stratum and o["status"] == "eligible-not-drawn")[1]


def missing_line(ref: dict, gid: int) -> str:
    o = ref[gid]
    return (f"{SEL_REL} $.candidates[{o['index']}]: expected a line of {REFS_REL} for this work, which the seeded selection draws "
            f"({o['stratum']}, draw rank {o['rank']}: {gid}, {o['title']!r}); found no line of {REFS_REL} for it")


def edit_candidate(root: Path, gid: int, **facts) -> dict:
    sel = read_json(root, SEL_REL)
    cand = next(c for c in sel["candidates"] if c["gutenberg_id"] == gid)
    cand.update(facts)
    write_json(root, SEL_REL, sel)
    return sel


# --------------------------------------------------------------------------- the demo


def test_the_demo_corpus_is_the_seeded_draw_of_the_eligible_pool(built_site):
    root, out = built_site.root, built_site.out
    sel = read_json(root, SEL_REL)
    assert sel["seed"] == SEED and sel["places_per_stratum"] == 12 and sel["extended_max_words"] == 110_000
    # the record states facts only: no status, rank, reason or eligibility
    assert all(set(c) <= {"gutenberg_id", "title", "author", "stratum", "words", "original_language", "translator", "form",
                          "cleanly_extractable", "duplicate_of", "manuscript_sha256", "exclusion"} for c in sel["candidates"])
    ref = ref_selection(root)
    lines = v11_lines(root)
    for stratum in STRATA:
        assert sorted(g for g, (_, r) in lines.items() if r["stratum"] == stratum) == sorted(drawn_in(ref, stratum))
        assert len(drawn_in(ref, stratum)) == 12
    cands = {c["gutenberg_id"]: c for c in sel["candidates"]}
    for g, (_, r) in lines.items():
        assert r["manuscript_sha256"] == cands[g]["manuscript_sha256"] and r["words"] == cands[g]["words"]
        assert sel["committed_at"] < r["scored_at"] and sel["genres_assigned_at"] <= sel["committed_at"]
    # one stratum is short, and one or two novels over 95,000 words were drawn under the extension
    extended = [g for g, o in ref.items() if o["status"] == "selected" and o["extended"]]
    assert 1 <= len(extended) <= 2 and all(95_000 < cands[g]["words"] <= 110_000 for g in extended)
    assert {ref[g]["stratum"] for g in extended} == {"broader-controls"}
    # every rule excludes someone, including the translated work, the collection, the volume,
    # the duplicate of a legacy anchor, the unextractable text and the one A3 exclusion
    every = {r for o in ref.values() for r in o["reasons"]}
    assert every == {"original-language", "translated", "form", "not-cleanly-extractable", "windows", "duplicate", "content-exclusion",
                     "under-length", "over-length"}
    assert {cands[g]["form"] for g, o in ref.items() if "form" in o["reasons"]} >= {"collection", "volume"}
    anchors = {r["gutenberg_id"] for _, r in read_jsonl(root, REFS_REL) if r["corpus"] == "legacy-v1.0"}
    assert any(cands[g]["duplicate_of"] in anchors for g, o in ref.items() if "duplicate" in o["reasons"])
    (clansman,) = [c for c in sel["candidates"] if c.get("exclusion")]
    assert clansman["exclusion"]["documented_by"] == "A3" and "Clansman" in clansman["title"]
    # the published candidate table is that computation, row for row
    published = {int(r["gutenberg_id"]): r for r in read_csv(out / "chronicle/reference-candidates.csv")}
    assert set(published) == set(ref)
    for g, o in ref.items():
        row = published[g]
        assert row["status"] == o["status"], g
        assert row["draw_rank"] == ("" if o["rank"] is None else str(o["rank"])), g
        assert row["exclusion_reasons"] == "; ".join(o["reasons"]), g
        assert row["draw_key_sha256"] == key(SEED, g)
    # Anna Karenina fails three rules and is listed with all three
    (anna,) = [g for g, c in cands.items() if c["title"] == "Anna Karenina"]
    assert published[anna]["exclusion_reasons"] == "original-language; translated; over-length"


def test_the_reference_page_shows_the_procedure_the_exclusions_and_the_length_sensitivity(built_site):
    root, out = built_site.root, built_site.out
    page = (out / "chronicle/reference/index.html").read_text(encoding="utf-8")
    sel = read_json(root, SEL_REL)
    ref = ref_selection(root)
    # the procedure in words, with the seed and an example key, the extension and the times
    first_row = read_csv(out / "chronicle/reference-candidates.csv")[0]
    g = int(first_row["gutenberg_id"])
    assert f"(for id {g}, the SHA-256 of <code>{SEED}:{g}</code>, which begins <code>{key(SEED, g)[:12]}</code>)" in page
    assert "the first 12 are drawn" in page and "extends to 110,000 words" in page
    assert f"committed at {sel['committed_at']}, before the first scoring" in page
    first = min(r["scored_at"] for _, r in read_jsonl(root, REFS_REL) if r["corpus"] == "v1.1")
    assert f"at {first})" in page
    # the pool and the exclusions by reason, equal to the download and to the recomputation
    excluded = sum(o["status"] == "excluded" for o in ref.values())
    assert f"The pool held <strong>{len(ref)}</strong> works: {len(ref) - excluded} eligible, of which 36 were drawn, and {excluded} excluded." in page
    counts = {r["reason"]: int(r["candidates"]) for r in read_csv(out / "chronicle/reference-exclusions.csv")}
    assert counts == {reason: sum(reason in o["reasons"] for o in ref.values()) for reason in counts}
    shown = re.findall(r'<tr><th scope="row">[^<]+</th><td class="n">(\d+)</td></tr>', page.split('id="ex-caption"')[1].split("</table>")[0])
    assert [int(n) for n in shown] == list(counts.values())
    # the length-sensitivity analysis: the band without the novels drawn over 95,000 words
    weights = weights_by_profile(read_json(root, COHORT_REL))
    v11 = [r for _, r in read_jsonl(root, REFS_REL) if r["corpus"] == "v1.1"]
    every = np.array([ref_score(r, weights) for r in v11])
    kept = np.array([ref_score(r, weights) for r in v11 if not ref[r["gutenberg_id"]]["extended"]])
    assert len(kept) == len(every) - sum(o["extended"] and o["status"] == "selected" for o in ref.values()) < 36
    table = {r["group"]: r for r in read_csv(out / "chronicle/reference-length-sensitivity.csv")}
    for group, values in (("v1.1", every), ("v1.1-within-band", kept)):
        q1, med, q3 = np.percentile(values, [25, 50, 75])
        row = table[group]
        assert int(row["novels"]) == len(values)
        assert [float(row[k]) for k in ("median", "q1", "q3")] == pytest.approx([med, q1, q3], abs=1e-9)
    without = table["v1.1-within-band"]
    assert (f'<td class="n">{len(kept)}</td><td class="n">{shown1(float(without["median"]))}</td><td class="ci">'
            f'{shown1(float(without["q1"]))} – {shown1(float(without["q3"]))}</td>') in page
    pct = read_csv(out / "chronicle/reference-length-sensitivity-percentiles.csv")
    assert pct
    for r in pct:
        s = float(r["score"])
        for col, values in (("human_percentile", every), ("percentile_within_band", kept)):
            assert float(r[col]) == pytest.approx(100 * ((values < s).sum() + 0.5 * (values == s).sum()) / len(values), abs=1e-9)
        assert (f'<th scope="row">{r["name"]}</th><td class="n">{shown1(s)}</td><td class="n">{shown1(float(r["human_percentile"]))}</td>'
                f'<td class="n">{shown1(float(r["percentile_within_band"]))}</td>') in page


def test_with_no_short_stratum_the_page_says_so_and_publishes_no_sensitivity_table(chron):
    """The two novels over 95,000 words made broader-controls' own band full at 94,000 words each:
    the same twelve are drawn, within the band, and there is nothing to analyse."""
    ref = ref_selection(chron)
    extended = [g for g, o in ref.items() if o["status"] == "selected" and o["extended"]]
    sel = read_json(chron, SEL_REL)
    for c in sel["candidates"]:
        if c["gutenberg_id"] in extended:
            c["words"] = 94_000
    write_json(chron, SEL_REL, sel)
    lines = v11_lines(chron)
    for g in extended:
        edit_line(chron, REFS_REL, lines[g][0], lambda r: r.update(words=94_000))
    assert problems(chron) == []
    out = build_site(chron)
    page = (out / "chronicle/reference/index.html").read_text(encoding="utf-8")
    assert "No stratum was short: each had at least 12 eligible works within the band" in page
    assert not (out / "chronicle/reference-length-sensitivity.csv").exists()
    assert {r["short"] for r in read_csv(out / "chronicle/reference-selection-strata.csv")} == {"False"}


# --------------------------------------------------------------------------- eligibility


@pytest.mark.parametrize("facts, reasons", [
    ({"original_language": "ru", "translator": "Constance Garnett"}, "original-language, translated"),
    ({"form": "collection"}, "form"),
    ({"duplicate_of": 1342}, "duplicate"),  # Pride and Prejudice, a legacy anchor
    ({"exclusion": {"reason": "Recorded individually.", "documented_by": "A3"}}, "content-exclusion"),
    ({"cleanly_extractable": False, "form": "volume", "translator": "A. Translator", "words": 101_500},
     "translated, form, not-cleanly-extractable, over-length"),
])
def test_a_drawn_work_that_fails_a_rule_is_excluded_and_its_reference_line_refused(chron, facts, reasons):
    """A drawn plot-forward work (a full stratum) recorded as translated, a collection, a duplicate
    of a legacy anchor, content-excluded, or failing several rules at once: excluded for every
    rule it fails, so its line in reference.jsonl is not a drawn work, and the next work in the
    seeded order is drawn in its place and missing."""
    ref = ref_selection(chron)
    gid = drawn_in(ref, "plot-forward")[0]
    line = v11_lines(chron)[gid][0]
    new = ref_selection(chron, edit_candidate(chron, gid, **facts))
    assert new[gid]["reasons"] == reasons.split(", ")
    promoted = next_not_drawn(ref, "plot-forward")
    assert new[promoted]["rank"] == 12 and new[promoted]["status"] == "selected"
    assert problems(chron) == sorted([
        missing_line(new, promoted),
        f"{REFS_REL}:{line} $.gutenberg_id: expected a work the seeded selection of {SEL_REL} draws (protocol section 7); "
        f"found {gid}, excluded: {reasons} ($.candidates[{ref[gid]['index']}])"])


def test_a_content_exclusion_needs_an_amendment_made_before_the_scoring(chron):
    ref = ref_selection(chron)
    (i,) = [o["index"] for o in ref.values() if "content-exclusion" in o["reasons"]]
    sel = read_json(chron, SEL_REL)
    sel["candidates"][i]["exclusion"]["documented_by"] = "A9"
    write_json(chron, SEL_REL, sel)
    got = problems(chron)
    assert got == [f"{SEL_REL} $.candidates[{i}].exclusion.documented_by: expected an entry of the amendment log "
                   f"(A1, A2, A3, A4, A5, A6, C1, R1); found \"A9\""]
    # an amendment that exists but was made after the first reference scoring
    a3 = (chron / AMEND_DIR / "A3.md").read_text(encoding="utf-8")
    a7 = re.sub(r"(?m)^id: A3$", "id: A7", re.sub(r"(?m)^date: .*$", "date: 2026-09-10", a3))
    (chron / AMEND_DIR / "A7.md").write_text(a7, encoding="utf-8")
    sel["candidates"][i]["exclusion"]["documented_by"] = "A7"
    write_json(chron, SEL_REL, sel)
    first_line, first = min(((line, r["scored_at"]) for line, r in read_jsonl(chron, REFS_REL) if r["corpus"] == "v1.1"), key=lambda p: p[1])
    assert problems(chron) == [
        f"{SEL_REL} $.candidates[{i}].exclusion.documented_by: expected an amendment dated on or before {first[:10]}, when the reference "
        f"scoring began ({REFS_REL}:{first_line}): exclusions are made before any scoring (amendment A3); found A7, dated 2026-09-10"]


def test_a_duplicate_of_must_name_a_work_of_the_pool_or_a_legacy_anchor(chron):
    ref = ref_selection(chron)
    gid = next(g for g, o in ref.items() if o["status"] == "eligible-not-drawn" and o["stratum"] == "plot-forward")
    edit_candidate(chron, gid, duplicate_of=987_654)
    assert problems(chron) == [f"{SEL_REL} $.candidates[{ref[gid]['index']}].duplicate_of: expected the Gutenberg id of another work of the "
                               f"pool or of a legacy anchor ({REFS_REL}); found 987654"]


# --------------------------------------------------------------------------- reference.jsonl against the record


def test_a_reference_novel_the_seed_did_not_draw_and_one_it_drew_missing_are_both_named(chron):
    ref = ref_selection(chron)
    lines = v11_lines(chron)
    dropped = drawn_in(ref, "character-forward")[-1]
    intruder = next_not_drawn(ref, "character-forward")
    cand = next(c for c in read_json(chron, SEL_REL)["candidates"] if c["gutenberg_id"] == intruder)
    line = lines[dropped][0]
    edit_line(chron, REFS_REL, line, lambda r: r.update(gutenberg_id=intruder, title=cand["title"], author=cand["author"], words=cand["words"],
                                                        manuscript_sha256=cand["manuscript_sha256"]))
    assert problems(chron) == sorted([
        missing_line(ref, dropped),
        f"{REFS_REL}:{line} $.gutenberg_id: expected a work the seeded selection of {SEL_REL} draws (protocol section 7); found {intruder}, "
        f"eligible but not drawn: draw rank {ref[intruder]['rank']} in character-forward, which has 12 places ($.candidates[{ref[intruder]['index']}])"])


def test_a_manuscript_hash_other_than_the_committed_one_is_refused(chron):
    gid, (line, rec) = next(iter(v11_lines(chron).items()))
    ref = ref_selection(chron)
    committed = rec["manuscript_sha256"]
    edit_line(chron, REFS_REL, line, lambda r: r.update(manuscript_sha256="0" * 64))
    assert problems(chron) == [f"{REFS_REL}:{line} $.manuscript_sha256: expected {committed}, as committed for work {gid} in {SEL_REL} "
                               f"$.candidates[{ref[gid]['index']}]; found {'0' * 64}"]


def test_a_commit_after_the_first_scoring_is_refused(chron):
    first_line, first = min(((line, r["scored_at"]) for line, r in read_jsonl(chron, REFS_REL) if r["corpus"] == "v1.1"), key=lambda p: p[1])
    sel = read_json(chron, SEL_REL)
    sel["committed_at"] = "2026-08-23T00:00:00Z"
    write_json(chron, SEL_REL, sel)
    assert problems(chron) == [f"{SEL_REL} $.committed_at: expected a time before {first}, when the first v1.1 reference novel was scored "
                               f"({REFS_REL}:{first_line}): the title list and manuscript hashes are committed before any scoring "
                               "(protocol section 7); found 2026-08-23T00:00:00Z"]
    # and genres are assigned before the commit
    sel["committed_at"] = "2026-08-21T10:00:00Z"
    write_json(chron, SEL_REL, sel)
    assert problems(chron) == [f"{SEL_REL} $.committed_at: expected a time at or after {sel['genres_assigned_at']}, when the genres were "
                               "assigned (protocol section 7); found 2026-08-21T10:00:00Z"]


# --------------------------------------------------------------------------- the seed


def test_the_selection_is_a_function_of_the_seed(built_site):
    from sitegen.families.chronicle.models import SelectionFile
    from sitegen.families.chronicle.selection import select
    from sitegen.families.chronicle.validate import expected_windows

    raw = read_json(built_site.root, SEL_REL)
    anchors = {r["gutenberg_id"] for _, r in read_jsonl(built_site.root, REFS_REL) if r["corpus"] == "legacy-v1.0"}
    windows = ["opening", "25k", "50k", "75k", "ending"]

    def drawn(seed, order=lambda cs: cs):
        rec = SelectionFile.model_validate({**raw, "seed": seed, "candidates": order(copy.deepcopy(raw["candidates"]))}, strict=True)
        return sorted(select(rec, 80_000, 95_000, anchors, lambda w: expected_windows(w, windows), windows).drawn)

    once = drawn(SEED)
    assert once == drawn(SEED) == drawn(SEED, lambda cs: cs[::-1])  # the pool's order changes nothing
    assert once == sorted(g for g, o in ref_selection(built_site.root).items() if o["status"] == "selected")
    other = drawn("another-seed")
    assert other != once and len(other) == 36
    assert other == sorted(g for g, o in ref_selection(built_site.root, {**raw, "seed": "another-seed"}).items() if o["status"] == "selected")


def test_a_seed_other_than_the_protocols_is_refused(chron):
    sel = read_json(chron, SEL_REL)
    sel["seed"] = "another-seed"
    write_json(chron, SEL_REL, sel)
    protocol = (chron / "content/chronicle/protocol.md").read_text(encoding="utf-8").split("\n")
    line = next(i for i, t in enumerate(protocol, start=1) if "seed string" in t)
    got = problems(chron)
    assert f"{SEL_REL} $.seed: expected {SEED!r}, the seed string the frozen protocol states (content/chronicle/protocol.md:{line}); " \
           "found \"another-seed\"" in got
    assert any(p.startswith(f"{REFS_REL}:") and "$.gutenberg_id" in p for p in got)  # and the draw it gives is another


# --------------------------------------------------------------------------- the extension


def test_a_novel_over_the_band_is_refused_in_a_full_stratum(chron):
    """101,500 words in plot-forward, which has more than 12 eligible works within the band: the
    ceiling stays at 95,000, so the work is excluded and its line refused."""
    ref = ref_selection(chron)
    gid = drawn_in(ref, "plot-forward")[0]
    line = v11_lines(chron)[gid][0]
    new = ref_selection(chron, edit_candidate(chron, gid, words=101_500))
    edit_line(chron, REFS_REL, line, lambda r: r.update(words=101_500))
    promoted = next_not_drawn(ref, "plot-forward")
    got = problems(chron)
    assert got == sorted([
        missing_line(new, promoted),
        f"{REFS_REL}:{line} $.gutenberg_id: expected a work the seeded selection of {SEL_REL} draws (protocol section 7); "
        f"found {gid}, excluded: over-length ($.candidates[{ref[gid]['index']}])"])


def test_a_novel_over_the_band_is_drawn_in_a_short_stratum_only_for_its_remaining_places(chron):
    """broader-controls is short: its 101,500-word novel is drawn and valid. One more eligible
    work within the band leaves one remaining place, which goes to the first over-the-band work in
    the seeded order; the other is then eligible but not drawn."""
    ref = ref_selection(chron)
    over = [g for g in drawn_in(ref, "broader-controls") if ref[g]["extended"]]
    assert any(ref[g]["words"] == 101_500 for g in over) and problems(chron) == []
    sel = read_json(chron, SEL_REL)
    template = next(c for c in sel["candidates"] if c["gutenberg_id"] == drawn_in(ref, "broader-controls")[0])
    sel["candidates"].append({**template, "gutenberg_id": 35, "title": "The Time Machine", "author": "H. G. Wells", "words": 88_000,
                              "manuscript_sha256": hashlib.sha256(b"pg35").hexdigest()})
    write_json(chron, SEL_REL, sel)
    new = ref_selection(chron, sel)
    kept, lost = sorted(over, key=lambda g: ref[g]["rank"])
    assert new[kept]["status"] == "selected" and new[lost]["status"] == "eligible-not-drawn" and new[35]["status"] == "selected"
    line = v11_lines(chron)[lost][0]
    assert problems(chron) == sorted([
        missing_line(new, 35),
        f"{REFS_REL}:{line} $.gutenberg_id: expected a work the seeded selection of {SEL_REL} draws (protocol section 7); found {lost}, "
        f"eligible but not drawn: draw rank {new[lost]['rank']} in broader-controls, which has 12 places ($.candidates[{new[lost]['index']}])"])


def test_a_v1_1_novel_records_its_hash_and_when_it_was_scored(chron):
    gid, (line, _rec) = next(iter(v11_lines(chron).items()))

    def drop(r):
        del r["manuscript_sha256"]
        del r["scored_at"]
    edit_line(chron, REFS_REL, line, drop)
    assert problems(chron) == sorted([
        f"{REFS_REL}:{line} $.manuscript_sha256: expected the SHA-256 of its manuscript as committed in the selection record (protocol section 7); "
        "found none",
        f"{REFS_REL}:{line} $.scored_at: expected the time it was scored (after the selection record's commit) (protocol section 7); found none"])
