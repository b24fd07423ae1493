"""ChronicleBench's judging evidence (protocol section 3a: "every dimension score must cite 1-3
short quotes with chapter/section locations"): the contract refuses a score without its quotes,
quotes for no score, no quote or more than three, an empty quote and a quote outside the text
its judge run read; the run pages show every quote, escaped, where it was found; the downloads
hold every quote, one row each, as the raw files do.

Expected rows are rebuilt here from the raw JSON lines with json alone, not with sitegen's code.
Read-only checks use the session's demo build; edits work on a ChronicleBench-only copy.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest

from conftest import edit_line, read_jsonl
from sitegen.errors import Problem
from test_chronicle import REFS_REL, RUNS_REL, build_site, chronicle_only, problems, read_csv

DIMENSIONS = ["hook", "prose", "character", "dialogue", "pacing", "structure", "originality", "coherence"]


@pytest.fixture
def chron(tmp_path: Path) -> Path:
    return chronicle_only(tmp_path / "site")


def first_run(root: Path, at_least_windows: int = 5) -> tuple[int, dict]:
    """The first run line with at least that many windows."""
    return next((i, r) for i, r in read_jsonl(root, RUNS_REL) if len(r["windows"]) >= at_least_windows)


def esc(text: str) -> str:
    """Text as the pages escape it (markupsafe): & < > " and '."""
    return html.escape(text, quote=True).replace("&quot;", "&#34;").replace("&#x27;", "&#39;")


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


# --------------------------------------------------------------------------- on the site


def test_the_run_page_shows_each_quote_escaped_with_its_location(chron):
    line, rec = first_run(chron)
    text = 'She wrote <script>alert("x")</script> & left.'
    q = rec["windows"][2]["runs"][1]["evidence"]["dialogue"][0]
    edit_line(chron, RUNS_REL, line, lambda r: r["windows"][2]["runs"][1]["evidence"]["dialogue"][0].update(quote=text))
    out = build_site(chron)
    page = (out / f"chronicle/runs/{rec['id']}/index.html").read_text(encoding="utf-8")
    assert "<script>alert" not in page
    w = rec["windows"][2]
    section = page[page.index(f'<details class="evidence" id="evidence-{w["window"]}">'):]
    section = section[:section.index("</details>")]
    span = w["span"]
    assert (f"Window {w['window']}: chapter {span['first']['ch']} section {span['first']['sec']} to chapter {span['last']['ch']} "
            f"section {span['last']['sec']}</summary>") in section
    row = section[section.index('<th scope="row">dialogue</th>'):]
    row = row[:row.index("</tr>")]
    cells = row.split("<td>")[1:]
    assert len(cells) == 3
    escaped = esc(text)
    assert f"<strong>{rec['windows'][2]['runs'][1]['dimensions']['dialogue']}</strong>" in cells[1]
    assert f"<q>{escaped}</q>&nbsp;<span class=\"loc\">{q['ch']}.{q['sec']}</span>" in cells[1]


def test_every_quote_of_a_demo_run_is_on_its_page(built_site):
    _line, rec = read_jsonl(built_site.root, RUNS_REL)[40]
    page = (built_site.out / f"chronicle/runs/{rec['id']}/index.html").read_text(encoding="utf-8")
    texts = [(w["window"], w["runs"]) for w in rec["windows"]] + [("whole-book", rec["scoring"]["whole_book"])]
    for window, runs in texts:
        section = page[page.index(f'id="evidence-{window}"'):]
        section = section[:section.index("</details>")]
        for d in DIMENSIONS:
            row = section[section.index(f'<th scope="row">{d}</th>'):]
            cells = row[:row.index("</tr>")].split("<td>")[1:]
            for cell, jr in zip(cells, runs, strict=True):
                expected = f"<td><strong>{jr['dimensions'][d]}</strong>" + "".join(
                    f" <q>{esc(q['quote'])}</q>&nbsp;<span class=\"loc\">{q['ch']}.{q['sec']}</span>"
                    for q in jr["evidence"][d]) + "</td>"
                assert "<td>" + cell == expected, (window, d)


def _expected_rows(root: Path, rel: str, key: str, whole_book: bool) -> list[list[str]]:
    rows = []
    for _i, rec in read_jsonl(root, rel):
        texts = [(w["window"], w["runs"]) for w in rec["windows"]]
        if whole_book:
            texts.append(("whole-book", rec["scoring"]["whole_book"]))
        for window, runs in texts:
            for k, jr in enumerate(runs, start=1):
                for d in DIMENSIONS:
                    for q in jr["evidence"][d]:
                        rows.append([rec[key], window, str(k), d, str(jr["dimensions"][d]), str(q["ch"]), str(q["sec"]), q["quote"]])
    return rows


COLUMNS = ["window", "judge_run", "dimension", "score", "chapter", "section", "quote"]


def test_the_evidence_downloads_hold_every_quote_of_the_raw_files(built_site):
    runs = read_csv(built_site.out / "chronicle/evidence.csv")
    assert list(runs[0]) == ["run", *COLUMNS, "synthetic"]
    assert [[r[c] for c in ("run", *COLUMNS)] for r in runs] == _expected_rows(built_site.root, RUNS_REL, "id", True)
    refs = read_csv(built_site.out / "chronicle/reference-evidence.csv")
    assert [[r[c] for c in ("id", *COLUMNS)] for r in refs] == _expected_rows(built_site.root, REFS_REL, "id", False)
    doc = json.loads((built_site.out / "chronicle/evidence.json").read_text(encoding="utf-8"))
    assert len(doc["rows"]) == len(runs)


def test_the_window_spans_download_holds_every_window_and_each_runs_whole_book(built_site):
    got = [[r[c] for c in ("text", "kind", "window", "first_chapter", "first_section", "last_chapter", "last_section")]
           for r in read_csv(built_site.out / "chronicle/window-spans.csv")]
    want = []
    for rel, kind in ((RUNS_REL, "run"), (REFS_REL, "reference")):
        for _i, rec in read_jsonl(built_site.root, rel):
            spans = [(w["window"], w["span"]["first"], w["span"]["last"]) for w in rec["windows"]]
            if kind == "run":
                spans.append(("whole-book", {"ch": 1, "sec": 1}, rec["windows"][-1]["span"]["last"]))
            want += [[rec["id"], kind, w, str(a["ch"]), str(a["sec"]), str(b["ch"]), str(b["sec"])] for w, a, b in spans]
    assert got == want


def test_the_reference_and_protocol_pages_link_the_evidence(built_site):
    ref = (built_site.out / "chronicle/reference/index.html").read_text(encoding="utf-8")
    assert 'href="../reference-evidence.csv"' in ref and 'href="../window-spans.csv"' in ref
    protocol = (built_site.out / "chronicle/protocol/index.html").read_text(encoding="utf-8")
    section = protocol[protocol.index('<h2 id="evidence">'):protocol.index('<h2 id="cohorts">')]
    assert "one to three quotes, each at most 300 characters long" in section
    assert "What the build cannot check" in section
    for name in ("evidence.csv", "reference-evidence.csv", "window-spans.csv"):
        assert f'href="../{name}"' in section


def test_the_demo_quotes_are_short_and_placed_through_the_book(built_site):
    """The synthetic demo: quotes of a few dozen characters, and an opening that cites earlier
    chapters than the ending."""
    for _i, rec in read_jsonl(built_site.root, RUNS_REL):
        w = rec["windows"]
        if len(w) == 5:
            assert w[0]["span"]["last"]["ch"] < w[-1]["span"]["first"]["ch"]
        for win in w:
            for jr in win["runs"]:
                for d in DIMENSIONS:
                    assert all(len(q["quote"]) <= 60 for q in jr["evidence"][d])
