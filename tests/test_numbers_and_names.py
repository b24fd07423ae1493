"""Numbers that are numbers, rows that are who they say, one rounding rule.

- Every computed number the site publishes is finite, or the build (and `sitegen verify`)
  fails naming the inputs it was computed from; inputs are bounded so that their sums cannot
  overflow.
- A name shows what it is: no invisible characters, no word mixing look-alike scripts, and no
  two display names of one family that read the same. Figures are keyed by id and labelled
  by name, so two rows are never drawn as one.
- One rounding rule for every displayed number (sitegen.numbers.display, stated on the method
  pages): half away from zero at the published value's decimal digits, so 68.55 shows as 68.6.
"""

from __future__ import annotations

import csv
import html
import io
import math
import re
from pathlib import Path

import pytest

from sitegen import figures, numbers
from sitegen.build import build, validate
from sitegen.config import load_config
from sitegen.errors import InputError
from sitegen.families import Figure
from sitegen.families.canonic.figure import draw_domain_panel, draw_transfer
from sitegen.families.chronicle import compute as chronicle_compute
from sitegen.numbers import display
from sitegen.verify import verify

from conftest import SWEEP_REL, copy_site, edit_line, read_json, run_cli, set_sweep_key, write_json
from test_chronicle import chronicle_only

RUNS_REL = "data/chronicle/runs.jsonl"
COHORT_REL = "data/chronicle/cohort.json"


@pytest.fixture
def chron(tmp_path: Path) -> Path:
    return chronicle_only(tmp_path / "site")


# --------------------------------------------------------------------------- finite numbers


def test_call_costs_whose_sum_overflows_are_refused_by_the_contract(chron: Path):
    def huge_costs(rec: dict) -> None:
        first = rec["calls"][0]
        rec["calls"] = [{**first, "seq": 1, "words_to": first["words_from"], "cost_usd": 1.7e308, "finish": "length"},
                        {**first, "seq": 2, "cost_usd": 1.7e308}]

    edit_line(chron, RUNS_REL, 1, huge_costs)
    out = chron.parent / "out"
    r = run_cli("build", "--root", str(chron), "--out", str(out))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Traceback" not in r.stderr and "inf" not in r.stderr.replace("in the inputs", "")
    lines = r.stderr.strip().split("\n")
    assert lines[0] == "2 problems in the inputs:", r.stderr
    for k in (0, 1):
        assert f"{RUNS_REL}:1 $.calls[{k}].cost_usd: expected less than or equal to 1000000; found 1.7e+308" in lines, r.stderr
    assert not out.exists()


def _nan_percentile(monkeypatch) -> None:
    """A computation fault: the human percentile of every ranked entrant comes out as NaN."""
    monkeypatch.setattr(chronicle_compute, "percentile_of", lambda x, reference: math.nan)


def test_a_computed_number_that_is_not_finite_fails_the_build_naming_its_inputs(chron: Path, monkeypatch):
    _nan_percentile(monkeypatch)
    out = chron.parent / "out"
    with pytest.raises(InputError) as ei:
        build(load_config(chron), out, cache=False)
    text = str(ei.value)
    sources = "data/chronicle/cohort.json, data/chronicle/reference.jsonl, data/chronicle/runs.jsonl"
    assert (f"{sources}: expected finite computed numbers; found nan in table chronicle/boards/sustained, "
            "row 1, column human_percentile") in text.split("\n"), text
    # every non-finite number is named, not only the first
    assert sum("column percentile_low" in line for line in text.split("\n")) >= 2, text
    assert not out.exists()


def test_a_sentence_made_from_a_number_that_is_not_finite_fails_the_build_naming_its_inputs(chron: Path, monkeypatch):
    """The human band's median is written into a generated sentence before the check runs."""
    monkeypatch.setattr(chronicle_compute, "_band", lambda values: chronicle_compute.Band(len(values), math.nan, math.nan, math.nan))
    with pytest.raises(InputError) as ei:
        build(load_config(chron), chron.parent / "out", cache=False)
    assert any("data/chronicle/reference.jsonl: expected finite computed numbers; found nan in table chronicle/reference-strata" in line
               for line in str(ei.value).split("\n")), str(ei.value)


def test_verify_refuses_a_published_table_whose_numbers_are_not_finite(chron: Path, monkeypatch):
    """A site published without the check, its costs download saying inf: the recomputation
    agrees with it byte for byte, and still the site does not verify."""
    monkeypatch.setattr(chronicle_compute, "dollars", lambda costs: math.inf)
    monkeypatch.setattr(numbers, "check_finite", lambda outputs: None)
    out = chron.parent / "out"
    build(load_config(chron), out, cache=False)
    assert "inf" in (out / "chronicle/costs.csv").read_text(encoding="utf-8")
    monkeypatch.undo()
    monkeypatch.setattr(chronicle_compute, "dollars", lambda costs: math.inf)
    found = verify(out)
    assert any(line.startswith("recomputed numbers: ") and "found inf in table chronicle/costs, row 1, column cost_usd" in line
               for line in found), found


# --------------------------------------------------------------------------- identity of rows


def problem_lines(root: Path) -> list[str]:
    with pytest.raises(InputError) as ei:
        validate(load_config(root))
    return [str(p) for p in ei.value.problems]


def set_entrant_name(root: Path, i: int, name: str) -> None:
    cohort = read_json(root, COHORT_REL)
    cohort["entrants"][i]["name"] = name
    write_json(root, COHORT_REL, cohort)


@pytest.mark.parametrize("name, found", [
    ("Claude\u200bOpus 5", "U+200B at character 7"),
    ("Claude\u2060Opus 5", "U+2060 at character 7"),
    ("Claude\u00a0Opus 5", "U+00A0 at character 7"),
    ("Claude Opus\u00ad 5", "U+00AD at character 12"),
    ("Claude Opus 5\ufeff", "U+FEFF at character 14"),
])
def test_a_name_with_an_invisible_character_is_refused(chron: Path, name: str, found: str):
    set_entrant_name(chron, 0, name)
    assert problem_lines(chron) == [
        f"{COHORT_REL} $.entrants[0].name: expected a name without invisible or non-ASCII space characters (found {found})"
        f'; found "{name}"']


def test_a_word_mixing_latin_and_cyrillic_letters_is_refused(chron: Path):
    set_entrant_name(chron, 1, "Cl\u0430ude Sonnet 4.6")  # a Cyrillic а
    assert problem_lines(chron) == [
        f'{COHORT_REL} $.entrants[1].name: expected a name whose every word is written in one script '
        f'(found Cyrillic and Latin letters in "Cl\u0430ude"); found "Cl\u0430ude Sonnet 4.6"']


def test_words_of_different_scripts_side_by_side_are_a_valid_name(chron: Path):
    set_entrant_name(chron, 1, "GigaChat Гигачат 2")
    validate(load_config(chron))


def test_two_entrants_whose_names_read_alike_are_refused_at_the_second(chron: Path):
    set_entrant_name(chron, 4, "claude  opus 5")
    assert problem_lines(chron) == [
        f'{COHORT_REL} $.entrants[4].name: expected a name unlike every other entrant\'s, ignoring case, Unicode forms '
        f'and spacing; found "claude  opus 5", which reads as "Claude Opus 5" at $.entrants[0].name']


def test_two_models_whose_names_differ_in_unicode_forms_only_are_refused(tmp_path: Path):
    root = copy_site(tmp_path / "site")
    set_sweep_key(root, ("models", 1, "name"), "\uff27\uff30\uff34-5.5")  # fullwidth: GPT-5.5 after NFKC
    assert problem_lines(root) == [
        f'{SWEEP_REL} $.models[9].name: expected a name unlike every other model\'s, ignoring case, Unicode forms and spacing; '
        f'found "GPT-5.5", which reads as "\uff27\uff30\uff34-5.5" at $.models[1].name']


# --------------------------------------------------------------------------- figures keyed by id


def svg_texts(svg: str) -> list[tuple[str, str]]:
    """(translate, text) of every text element of an SVG."""
    out = []
    for attrs, text in re.findall(r"<text([^>]*)>([^<]*)</text>", svg):
        pos = re.search(r'transform="translate\(([^)]*)\)"', attrs)
        out.append((pos.group(1) if pos else "", html.unescape(text)))
    return out


def test_figure_3_draws_two_models_of_one_name_as_two_rows():
    """Names are unique once validated; the figure does not rely on it."""
    data = [{"model": "Twin", "show": "FRIENDS", "score": 74.4, "model_id": "a/one", "show_id": "friends"},
            {"model": "Twin", "show": "FRIENDS", "score": 39.1, "model_id": "b/two", "show_id": "friends"}]
    texts = svg_texts(figures.render(Figure("t/figure-3", data, draw_transfer, "", {}, "test")).svg)
    cells = {t: pos for pos, t in texts if t in ("74.4", "39.1")}
    assert len(cells) == 2 and cells["74.4"] != cells["39.1"], texts
    assert [t for _, t in texts].count("Twin") == 2, texts


def test_a_figure_shows_names_with_quotes_and_backslashes_as_written():
    names = ['Quote " me', "Back\\slash", "It's </text>", "Ünïcode 😀"]
    data = [{"domain": "Book Opening", "model": n, "score": 60.0 - i, "low": 40.0, "high": 60.0, "rank_best": 1, "rank_worst": 4,
             "model_id": f"m/{i}"} for i, n in enumerate(names)]
    texts = [t for _, t in svg_texts(figures.render(Figure("t/figure", data, draw_domain_panel, "", {}, "test")).svg)]
    assert [t for t in texts if t in names] == names, texts  # in the board's order


# --------------------------------------------------------------------------- one rounding rule


def test_display_rounds_halves_away_from_zero_at_their_decimal_digits():
    assert [display(x, 1) for x in (0.05, 0.15, 68.55, -0.05, 0.04)] == ["0.1", "0.2", "68.6", "-0.1", "0.0"]
    assert display(2.675, 2) == "2.68"  # the float nearest 2.675 lies below it: printf gives 2.67
    assert display(11.25, 1) == "11.3" and display(78.125, 2) == "78.13"  # exact halves too, not to even
    assert display(0.6855, 1, times100=True) == "68.6" and display(0.5, 0, times100=True) == "50"
    assert display(0.0, 1, sign=True) == "+0.0" and display(-1.25, 1, sign=True) == "-1.3"
    assert display(7, 2) == "7.00"


def test_a_number_that_rounds_to_zero_shows_no_minus_sign():
    """-0.0 (a difference of two equal scores, a product with a negative zero) and -0.04 at one
    place used to show as "-0.0", a value below zero. The downloads keep the float as computed:
    -0.0 reads back as the very number, equal to 0 in every reader, and verify recomputes them."""
    assert [display(x, 1) for x in (-0.0, -0.04, -0.049999)] == ["0.0", "0.0", "0.0"]
    assert display(-0.0, 0) == "0" and display(-0.4, 0, grouped=True) == "0"
    assert display(-0.0004, 1, times100=True) == "0.0" and display(-0.0, 1, sign=True) == "+0.0"
    assert display(-0.05, 1) == "-0.1"  # what rounds away from zero keeps its sign


@pytest.mark.parametrize("title, expected, found", [
    ("Results \u202egnorw", "a title on one line without bidi controls", "U+202E at character 9"),
    ("Re\u2066sults", "a title on one line without bidi controls", "U+2066 at character 3"),
    ("Re\u200bsults", "a title without invisible or non-ASCII space characters", "U+200B at character 3"),
    ("Tab\there", "a title on one line without bidi controls", "U+0009 at character 4"),
])
def test_a_page_title_refuses_what_a_name_refuses(chron: Path, title: str, expected: str, found: str):
    """A page's title names it in every list of pages, as a name names a row: a bidi override in
    one used to be published as written."""
    (chron / "content" / "x.md").write_text(f"---\ntitle: {title}\n---\nText.\n", encoding="utf-8")
    assert problem_lines(chron) == [f"content/x.md:2 title: expected {expected}; found {found}"]


def test_the_site_title_refuses_what_a_name_refuses(chron: Path):
    pyproject = chron / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(re.sub(r'(?m)^title = ".*"$', 'title = "Bench\u202ekram"', text, count=1), encoding="utf-8")
    r = run_cli("validate", "--root", str(chron))
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.splitlines()[1].startswith(
        "pyproject.toml $.tool.sitegen.title: expected a name on one line without bidi controls (found U+202E at character 6)"), r.stderr


def test_display_shows_numbers_of_any_size_instead_of_failing():
    # A float past 10**26 has more digits at two places than decimal's default 28: the
    # rounding raised decimal.InvalidOperation, from any page showing such a number.
    assert display(1e30, 2) == "1" + "0" * 30 + ".00"
    assert display(-1.7e308, 0) == "-17" + "0" * 307
    assert display(1.7e308, 1, times100=True, grouped=True).endswith(",000.0")


def read_csv(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def page_rows(path: Path) -> dict[str, list[str]]:
    """Each table row of a page that has an id, by the text of its row header: the text of its
    other cells, tags removed."""
    out = {}
    for body in re.findall(r'<tr id="[^"]*"[^>]*>(.*?)</tr>', path.read_text(encoding="utf-8"), re.S):
        name = re.search(r'<th scope="row">(.*?)<a class="permalink"', body, re.S)
        cells = [html.unescape(re.sub(r"<[^>]*>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", body, re.S)]
        if name:
            out[html.unescape(re.sub(r"<[^>]*>", "", name.group(1)))] = cells
    return out


def shown(value: str, places: int = 1) -> str:
    return display(float(value), places)


def test_the_archived_board_shows_each_score_as_its_download_rounds(built_site):
    rows = page_rows(built_site.out / "chronicle/archive/v1.0/index.html")
    download = read_csv(built_site.out / "chronicle/archive-v1.0.csv")
    assert sorted(rows) == sorted(r["entrant"] for r in download)
    for r in download:
        assert rows[r["entrant"]][0] == shown(r["v1_0_score"]), r
    assert [rows[r["entrant"]][0] for r in download if r["v1_0_score"] == "68.55"] == ["68.6"]


def test_every_canonic_board_shows_its_download_rounded_by_the_rule(built_site):
    for board in sorted(built_site.out.glob("canonic/*/board.csv")):
        rows = page_rows(board.parent / "index.html")
        for r in read_csv(board):
            cells = rows[r["model_name"]]
            if r["status"] == "published":
                assert {shown(r["score"]), f"{shown(r['ci_low'])} – {shown(r['ci_high'])}"} <= set(cells), (board, r, cells)
            assert f"{r['counted']} / {r['total']}" in cells, (board, r)


def test_every_chronicle_score_board_shows_its_download_rounded_by_the_rule(built_site):
    boards = [b for b in sorted(built_site.out.glob("chronicle/boards/*.csv")) if "score" in read_csv(b)[0]]
    assert boards
    for board in boards:
        rows = page_rows(built_site.out / "chronicle/boards" / board.stem / "index.html")
        for r in read_csv(board):
            if not r["score"]:
                continue
            wanted = {shown(r["score"]), f"{shown(r['ci_low'])} – {shown(r['ci_high'])}",
                      f"{shown(r['human_percentile'])} ({shown(r['percentile_low'])} – {shown(r['percentile_high'])})"}
            assert wanted <= set(rows[r["name"]]), r


def test_the_nextchapter_standings_show_their_download_rounded_by_the_rule(built_site):
    rows = page_rows(built_site.out / "nextchapter/index.html")
    headlines = [r for r in read_csv(built_site.out / "nextchapter/standings.csv") if r["shown_as"] == "headline"]
    assert headlines
    for r in headlines:
        wanted = {f"{shown(r['craft'])} ± {shown(r['craft_se'])}", f"{shown(r['compliance'])} ± {shown(r['compliance_se'])}"}
        assert wanted <= set(rows[r["name"]]), r


def test_a_run_page_shows_its_cost_as_the_download_rounds_it(chron: Path):
    """6.283548 + 5.739102 is 12.02265, which the float sum falls just short of."""
    def two_calls(rec: dict) -> None:
        first = rec["calls"][0]
        rec["calls"] = [{**first, "seq": 1, "words_to": first["words_from"], "cost_usd": 6.283548, "finish": "length"},
                        {**first, "seq": 2, "cost_usd": 5.739102}]

    rec = edit_line(chron, RUNS_REL, 1, two_calls)
    out = chron.parent / "out"
    build(load_config(chron), out, cache=False)
    (row,) = [r for r in read_csv(out / "chronicle/runs.csv") if r["run"] == rec["id"]]
    assert row["cost_usd"] == "12.02265"
    page = (out / f"chronicle/runs/{rec['id']}/index.html").read_text(encoding="utf-8")
    assert "<dt>Cost</dt><dd>$12.0227 over 2 calls</dd>" in page


@pytest.mark.parametrize("rows,bad", [([(1.7e308, "a"), (1.7e308, "b")], []),  # finite values whose sum overflows
                                      ([(1.0, "a"), (math.inf, "b")], ["inf in table t, row 2, column x"]),
                                      ([(math.nan, "a"), (-math.inf, "b")], ["nan in table t, row 1, column x", "-inf in table t, row 2, column x"])])
def test_every_non_finite_cell_of_a_table_is_named_and_no_finite_one(rows, bad):
    from sitegen.families import Outputs, Table

    table = Table("t", "T", ["x", "y"], rows, {"data/f/x.json": "0" * 64}, "")
    if not bad:
        numbers.check_finite({"f": Outputs(tables=[table])})
        return
    with pytest.raises(InputError) as e:
        numbers.check_finite({"f": Outputs(tables=[table])})
    assert sorted(p.found for p in e.value.problems) == sorted(bad)
