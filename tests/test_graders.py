"""The grader as it is: a judge's kind (a model, people, a rule, or a grader the records do not
describe) decides what the configuration asks of it and what every page says of it.

An Inspect site (logs written with Inspect's own API, as tests/test_inspect.py writes them)
declares its grader unknown, since the logs do not record who graded, and builds so; a plain
new site is given each other kind in turn.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")

from test_inspect import FID, MODELS, write_log  # noqa: E402

from conftest import run_cli  # noqa: E402
from sitegen.build import build, validate  # noqa: E402
from sitegen.config import load_config  # noqa: E402
from sitegen.errors import InputError  # noqa: E402

JUDGED_BY = re.compile(r"judged by (?!its own family)(.*?)(?:[.:;]|</span>)", re.S)  # who judged, not the self-family sentence


def pages(out: Path) -> dict[str, str]:
    return {p.relative_to(out).as_posix(): p.read_text(encoding="utf-8") for p in sorted(out.rglob("*.html"))}


def describe_judge(root: Path, fid: str, table: str) -> None:
    """Replace the first [[judges]] table's keys between name and since with TABLE's."""
    path = root / f"content/{fid}/benchmark.toml"
    text = path.read_text(encoding="utf-8")
    text, n = re.subn(r'(\[\[judges\]\]\nid = "[^"]+"\n)(?:.*\n)*?(since = )', lambda m: m.group(1) + table + m.group(2), text, count=1)
    assert n == 1
    path.write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def inspect_site(tmp_path_factory) -> Path:
    logs = tmp_path_factory.mktemp("logs")
    for m in MODELS:
        write_log(logs / f"{m.split('/')[1]}.eval", m, 1)
    root = tmp_path_factory.mktemp("site") / "tales"
    r = run_cli("new", "site", str(root), "--id", FID, "--title", "Tales", "--from-inspect", str(logs))
    assert r.returncode == 0, r.stderr
    config = root / f"content/{FID}/benchmark.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(re.sub(r'^description = "FILL IN[^"]*"', 'description = "Short tales."', text, flags=re.M), encoding="utf-8")
    return root


def test_an_inspect_site_declares_its_grader_unknown_and_every_page_says_the_logs_do_not_record_it(inspect_site):
    config = (inspect_site / f"content/{FID}/benchmark.toml").read_text(encoding="utf-8")
    judge = config[config.index("[[judges]]"):config.index("[[sweeps]]")]
    assert 'kind = "unknown"' in judge and "FILL IN" not in judge and not re.search(r"^(model|version|house) =", judge, re.M)
    assert "Declare it" in config  # the comment that tells the team to
    validate(load_config(inspect_site))  # with only the description written, it is valid: nothing about the grader is invented
    out = inspect_site / "_site"
    build(load_config(inspect_site), out)
    shown = pages(out / FID)
    said = {rel: JUDGED_BY.findall(html) for rel, html in shown.items()}
    assert {"index.html", "boards/fiction/index.html", "items/p1/index.html"} <= {rel for rel, s in said.items() if s}
    for rel, phrases in said.items():
        for phrase in phrases:
            assert phrase == "Inspect scorers length and rubric (the logs do not record the grader)", (rel, phrase)
    method = shown["method/index.html"]
    assert "Sweep s1 (2026-11-20): Inspect scorers length and rubric (the logs do not record the grader)." in method
    assert "The logs do not record the grader (a model, people or a rule)" in method and "One judge reads each item" not in method
    assert "No grader of sweep s1 has a recorded house, so no model on its boards is marked" in method
    for rel, html in shown.items():  # no pin shown that nobody declared
        assert not re.search(r"\bNone\b(?! of )", html) and "not recorded ," not in html and "version" not in " ".join(said[rel]), rel
        assert 'class="flag"' not in html, rel  # self-family needs a known house


@pytest.mark.parametrize("kind, table, phrase, sentence, flagged", [
    ("model", 'name = "Juniper 2"\nmodel = "alpha/juniper-2"\nversion = "2026-01-01"\nhouse = "Alpha Labs"\n',
     "one judge, Juniper 2 (<code>alpha/juniper-2</code>, version 2026-01-01, Alpha Labs)", "One judge reads each item", True),
    ("human", 'name = "The annotators"\nkind = "human"\nhouse = "Alpha Labs"\n',
     "people, The annotators (Alpha Labs)", "People grade each item, recorded as one judge", True),
    ("human", 'name = "The annotators"\nkind = "human"\n', "people, The annotators", "People grade each item, recorded as one judge", False),
    ("rule", 'name = "Exact match"\nkind = "rule"\n', "a rule, Exact match", "A rule scores each item, and no other grader is compared with it", False),
    ("unknown", 'name = "Harness grader"\nkind = "unknown"\n', "Harness grader (the records do not record the grader)",
     "The records do not record the grader (a model, people or a rule)", False),
], ids=["model", "people-of-a-house", "people", "rule", "unknown"])
def test_each_kind_of_grader_is_said_as_it_is_and_marks_self_family_only_with_a_house(tmp_path, kind, table, phrase, sentence, flagged):
    root = tmp_path / "bench"
    assert run_cli("new", "site", str(root), "--id", "bench", "--title", "Bench").returncode == 0
    describe_judge(root, "bench", table)
    build(load_config(root), root / "_site")
    shown = pages(root / "_site" / "bench")
    assert f"judged by {phrase}." in shown["index.html"]
    assert f"judged by {phrase}." in shown["boards/fiction/index.html"]
    assert sentence in shown["method/index.html"]
    board = shown["boards/fiction/index.html"]
    alpha = re.search(r"<tr id=\"[^\"]*\"[^>]*>\n(?:<td>[^\n]*\n)<th scope=\"row\">Alpha 1.*?</tr>", board, re.S).group(0)
    assert ('class="flag"' in alpha) is flagged  # the example's Alpha 1 is of Alpha Labs
    assert ("the model comes from the same house as the judge" in board) is flagged
    assert ("has a recorded house" in shown["method/index.html"]) is not flagged


def test_a_judge_is_asked_only_what_its_kind_has_and_every_wrong_key_is_named_at_once(tmp_path):
    root = tmp_path / "bench"
    assert run_cli("new", "site", str(root), "--id", "bench", "--title", "Bench").returncode == 0
    describe_judge(root, "bench", 'name = "Exact match"\nkind = "rule"\nmodel = "x/m"\nversion = "1"\nhouse = "Alpha Labs"\n')
    config = root / "content/bench/benchmark.toml"
    config.write_text(config.read_text(encoding="utf-8") + '\n[[judges]]\nid = "panel"\nname = "Panel"\nsince = "2026-01-01"\n'
                      '\n[[judges]]\nid = "people"\nname = "People"\nkind = "human"\nmodel = "x/m"\nsince = "2026-01-01"\n', encoding="utf-8")
    r = run_cli("validate", "--root", str(root))
    assert r.returncode == 1, r.stdout
    where = "content/bench/benchmark.toml"
    for line in [
        f'{where} $.judges[0].model: expected no model (kind is "rule": only a model judge has one); found "x/m"',
        f'{where} $.judges[0].version: expected no version (kind is "rule": only a model judge has one); found "1"',
        f'{where} $.judges[0].house: expected no house (kind is "rule": only a model judge or people have one); found "Alpha Labs"',
        f"{where} $.judges[1].model: expected the provider's model id (required when kind is \"model\")",
        f"{where} $.judges[1].version: expected the model's pinned version (required when kind is \"model\")",
        f"{where} $.judges[1].house: expected the house that trained the judge model (required when kind is \"model\")",
        f'{where} $.judges[2].model: expected no model (kind is "human": only a model judge has one); found "x/m"',
    ]:
        assert line in r.stderr, (line, r.stderr)
    assert "$.judges[2].house" not in r.stderr  # people may have no house
    with pytest.raises(InputError):
        validate(load_config(root))
