"""ChronicleBench's judging evidence (protocol section 3a: "every dimension score must cite 1-3
short quotes with chapter/section locations"): the contract refuses a score without its quotes,
quotes for no score, no quote or more than three, an empty quote and a quote outside the text
its judge run read. Edits work on a ChronicleBench-only copy of the site.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import edit_line, read_jsonl
from sitegen.errors import Problem
from test_chronicle import REFS_REL, RUNS_REL, build_site, chronicle_only, problems


@pytest.fixture
def chron(tmp_path: Path) -> Path:
    return chronicle_only(tmp_path / "site")


def first_run(root: Path, at_least_windows: int = 5) -> tuple[int, dict]:
    """The first run line with at least that many windows."""
    return next((i, r) for i, r in read_jsonl(root, RUNS_REL) if len(r["windows"]) >= at_least_windows)


def only(found: list[Problem], path: str) -> Problem:
    hits = [p for p in found if p.path == path]
    assert len(hits) == 1, (path, [str(p) for p in found])
    return hits[0]


# --------------------------------------------------------------------------- the contract


def test_a_score_without_its_evidence_is_refused_naming_file_line_and_dimension(chron):
    line, _ = first_run(chron)

    def drop(rec):
        del rec["windows"][2]["runs"][1]["evidence"]["pacing"]

    edit_line(chron, RUNS_REL, line, drop)
    (p,) = problems(chron)
    assert (p.file, p.line, p.path) == (RUNS_REL, line, "$.windows[2].runs[1].evidence.pacing")
    assert str(p) == f"{RUNS_REL}:{line} $.windows[2].runs[1].evidence.pacing: expected this key (it is required); found nothing"


def test_evidence_for_a_dimension_not_scored_is_refused(chron):
    line, _ = first_run(chron)

    def extra(rec):
        rec["windows"][0]["runs"][0]["evidence"]["voice"] = [{"ch": 1, "sec": 1, "quote": "A voice."}]

    edit_line(chron, RUNS_REL, line, extra)
    (p,) = problems(chron)
    assert (p.file, p.line, p.path) == (RUNS_REL, line, "$.windows[0].runs[0].evidence.voice")
    assert p.expected == "no such key (the contract does not define it)"


@pytest.mark.parametrize("n", [0, 4])
def test_no_quote_or_four_quotes_for_a_score_are_refused(chron, n):
    line, rec = first_run(chron)
    quote = rec["windows"][1]["runs"][2]["evidence"]["hook"][0]

    def count(rec):
        rec["windows"][1]["runs"][2]["evidence"]["hook"] = [quote] * n

    edit_line(chron, RUNS_REL, line, count)
    (p,) = problems(chron)
    assert (p.file, p.line, p.path) == (RUNS_REL, line, "$.windows[1].runs[2].evidence.hook")
    assert p.expected.startswith("a list that should have " + ("at least 1 item" if n == 0 else "at most 3 items"))


@pytest.mark.parametrize("text, expected", [
    ("", "a string that should have at least 1 character"),
    ("   \t ", "a quote with at least one character that is not a space"),
    ("x" * 301, "a string that should have at most 300 characters"),
])
def test_an_empty_blank_or_long_quote_is_refused(chron, text, expected):
    line, _ = first_run(chron)

    def set_quote(rec):
        rec["windows"][0]["runs"][0]["evidence"]["prose"][0]["quote"] = text

    edit_line(chron, RUNS_REL, line, set_quote)
    (p,) = problems(chron)
    assert (p.file, p.line, p.path) == (RUNS_REL, line, "$.windows[0].runs[0].evidence.prose[0].quote")
    assert p.expected == expected


def test_a_location_below_chapter_1_is_refused(chron):
    line, _ = first_run(chron)

    def zero(rec):
        rec["scoring"]["whole_book"][0]["evidence"]["coherence"][0]["sec"] = 0

    edit_line(chron, RUNS_REL, line, zero)
    (p,) = problems(chron)
    assert (p.file, p.line, p.path) == (RUNS_REL, line, "$.scoring.whole_book[0].evidence.coherence[0].sec")
    assert p.expected == "greater than or equal to 1"


def test_every_problem_of_the_evidence_is_reported_at_once(chron):
    lines = [i for i, r in read_jsonl(chron, RUNS_REL) if len(r["windows"]) >= 2][:2]
    ref_line = read_jsonl(chron, REFS_REL)[0][0]
    edit_line(chron, RUNS_REL, lines[0], lambda r: r["windows"][1]["runs"][0]["evidence"].pop("dialogue"))
    edit_line(chron, RUNS_REL, lines[1], lambda r: r["windows"][0]["runs"][2]["evidence"]["hook"][0].update(quote=""))
    edit_line(chron, REFS_REL, ref_line, lambda r: r["windows"][-1]["runs"][1]["evidence"].pop("structure"))
    got = {(p.file, p.line, p.path) for p in problems(chron)}
    assert got == {(RUNS_REL, lines[0], "$.windows[1].runs[0].evidence.dialogue"),
                   (RUNS_REL, lines[1], "$.windows[0].runs[2].evidence.hook[0].quote"),
                   (REFS_REL, ref_line, f"$.windows[{len(read_jsonl(chron, REFS_REL)[0][1]['windows']) - 1}].runs[1].evidence.structure")}


# --------------------------------------------------------------------------- where a quote lies


def after(loc: dict) -> dict:
    return {"ch": loc["ch"], "sec": loc["sec"] + 1}


def test_a_quote_outside_its_window_is_refused_and_one_at_its_edge_is_not(chron):
    line, rec = first_run(chron)
    opening = rec["windows"][0]["span"]
    first, last = opening["first"], opening["last"]

    def edge(rec):
        rec["windows"][0]["runs"][1]["evidence"]["hook"][0].update(last)  # the window's last section: inside

    edit_line(chron, RUNS_REL, line, edge)
    build_site(chron)  # accepted

    outside = after(last)

    def beyond(rec):
        rec["windows"][0]["runs"][1]["evidence"]["hook"][0].update(outside)

    edit_line(chron, RUNS_REL, line, beyond)
    (p,) = problems(chron)
    assert (p.file, p.line, p.path) == (RUNS_REL, line, "$.windows[0].runs[1].evidence.hook[0]")
    assert p.expected.startswith(f"a location inside the opening window's span, chapter {first['ch']} section {first['sec']} "
                                 f"to chapter {last['ch']} section {last['sec']}")
    assert p.found == f"chapter {outside['ch']} section {outside['sec']}"


def test_a_late_window_quoting_the_first_chapter_is_refused(chron):
    line, rec = first_run(chron)
    ending = rec["windows"][-1]
    assert ending["window"] == "ending" and ending["span"]["first"]["ch"] > 1

    def early(rec):
        rec["windows"][-1]["runs"][2]["evidence"]["originality"][-1].update({"ch": 1, "sec": 1})

    edit_line(chron, RUNS_REL, line, early)
    (p,) = problems(chron)
    assert p.path == f"$.windows[{len(rec['windows']) - 1}].runs[2].evidence.originality[{len(ending['runs'][2]['evidence']['originality']) - 1}]"
    assert p.found == "chapter 1 section 1"


def test_a_whole_book_quote_after_the_books_last_section_is_refused(chron):
    line, rec = first_run(chron)
    end = rec["windows"][-1]["span"]["last"]
    edit_line(chron, RUNS_REL, line, lambda r: r["scoring"]["whole_book"][1]["evidence"]["prose"][0].update({"ch": end["ch"] + 1, "sec": 1}))
    (p,) = problems(chron)
    assert (p.line, p.path) == (line, "$.scoring.whole_book[1].evidence.prose[0]")
    assert f"to chapter {end['ch']} section {end['sec']}" in p.expected


def test_a_reference_novels_quote_outside_its_window_is_refused(chron):
    line, rec = read_jsonl(chron, REFS_REL)[3]
    last = rec["windows"][1]["span"]["last"]
    edit_line(chron, REFS_REL, line, lambda r: r["windows"][1]["runs"][0]["evidence"]["character"][0].update(after(last)))
    (p,) = problems(chron)
    assert (p.file, p.line, p.path) == (REFS_REL, line, "$.windows[1].runs[0].evidence.character[0]")


def test_window_spans_must_begin_at_the_start_and_run_in_order(chron):
    line, rec = first_run(chron)
    w25 = rec["windows"][1]["span"]

    def broken(rec):
        rec["windows"][0]["span"]["first"] = {"ch": 1, "sec": 2}  # the opening begins the book
        rec["windows"][2]["span"]["first"] = dict(w25["first"], sec=w25["first"]["sec"])  # fine: may begin where 25k does
        rec["windows"][3]["span"]["last"] = {"ch": rec["windows"][-1]["span"]["last"]["ch"] + 1, "sec": 1}  # past the ending

    edit_line(chron, RUNS_REL, line, broken)
    found = problems(chron)
    only(found, "$.windows[0].span.first")
    assert only(found, "$.windows[3].span.last").expected.endswith("(where the ending window, kept from the tail, ends)")
    assert all(p.path.startswith(("$.windows[0]", "$.windows[3]")) for p in found), [str(p) for p in found]
