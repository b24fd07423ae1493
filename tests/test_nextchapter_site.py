"""NextChapterBench on the built demo site: every headline recomputed from the raw calls and
chapters, the effort variants and their markers, the memorisation screen catching the planted
passage, the verbatim-quotation rule, and untrusted text escaped."""

from __future__ import annotations

import csv
import json
import re
import statistics
from pathlib import Path

import pytest

from sitegen.build import build, validate
from sitegen.config import load_config
from sitegen.errors import InputError

CRAFT = ("voice", "prose", "character", "scene", "integration", "momentum", "restraint", "specificity")


def jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def raw(built_site):
    d = built_site.root / "data" / "nextchapter"
    return {"run": json.loads((d / "run.json").read_text()), "items": jsonl(d / "items.jsonl"),
            "chapters": jsonl(d / "chapters.jsonl"), "calls": jsonl(d / "calls.jsonl")}


def norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def my_compliance(call: dict, text: str) -> float:
    total = passed = 0
    for c in call["candidate_checks"]:
        w = 2 if c["kind"] == "trap" else 1
        total += w
        if c["passed"] and c["quote"] and norm(c["quote"]) in norm(text):
            passed += w
    return 100 * passed / total


def texts_of(raw: dict) -> dict[tuple, str]:
    """(model, effort, item) -> the judged chapter's text (the last attempt's, when a chapter)."""
    return {(c["model"], c["effort"], c["item"]): c["text"] for c in raw["chapters"] if c["attempts"][-1]["outcome"] == "chapter"}


def test_every_headline_is_the_mean_and_standard_error_of_ten_items(built_site, raw):
    texts = texts_of(raw)
    per: dict[tuple, dict[str, list[float]]] = {}
    for call in raw["calls"]:
        key = (call["model"], call["effort"])
        text = texts[(call["model"], call["effort"], call["item"])]
        d = per.setdefault(key, {"craft": [], "compliance": []})
        d["craft"].append(statistics.fmean(call["candidate"]["scores"][k] for k in CRAFT))
        refusal = re.match(r"\s*(I'm sorry|I am sorry|I can(?:no|'|’)t|I won't|I will not|I'm unable|I am unable|As an AI)\b", text, re.I)
        d["compliance"].append(0.0 if refusal else my_compliance(call, text))
    rows = list(csv.DictReader((built_site.out / "nextchapter/standings.csv").open(encoding="utf-8")))
    assert rows
    for r in rows:
        if r["status"] == "not-judged":
            assert r["craft"] == "" and r["marker"] == "—"
            continue
        d = per[(r["model"], r["effort"])]
        assert int(r["items"]) == len(d["craft"])
        assert abs(float(r["craft"]) - statistics.fmean(d["craft"])) < 1e-9
        assert abs(float(r["compliance"]) - statistics.fmean(d["compliance"])) < 1e-9
        if len(d["craft"]) > 1:
            assert abs(float(r["craft_se"]) - statistics.stdev(d["craft"]) / len(d["craft"]) ** 0.5) < 1e-9


def test_each_model_stands_on_its_best_complete_setting_with_the_others_beneath(built_site, raw):
    rows = list(csv.DictReader((built_site.out / "nextchapter/standings.csv").open(encoding="utf-8")))
    n_items = len(raw["items"])
    for m in raw["run"]["models"]:
        mine = [r for r in rows if r["model"] == m["id"]]
        heads = [r for r in mine if r["shown_as"] == "headline"]
        complete = [r for r in mine if r["status"] == "judged" and int(r["items"]) == n_items]
        if complete:
            assert len(heads) == 1
            assert float(heads[0]["craft"]) == max(float(r["craft"]) for r in complete)
        else:
            assert heads == []
        for r in mine:
            assert r["marker"] == {"incomplete": "✳", "not-judged": "—"}.get(r["status"], "")
    assert any(r["marker"] == "✳" for r in rows) and any(r["marker"] == "—" for r in rows)


def test_the_planted_memorised_passage_is_the_only_one_flagged(built_site, raw):
    rows = list(csv.DictReader((built_site.out / "nextchapter/chapters.csv").open(encoding="utf-8")))
    flagged = [r for r in rows if r["memorised"] == "True"]
    assert len(flagged) == 1 and int(flagged[0]["copied_words"]) >= 30
    assert all(int(r["copied_words"]) < 30 for r in rows if r["memorised"] != "True")
    item = flagged[0]["item"]
    page = (built_site.out / f"nextchapter/items/{item}/index.html").read_text(encoding="utf-8")
    assert "Copied verbatim from the" in page


def test_a_passed_check_whose_quotation_is_not_in_the_chapter_is_shown_as_a_fail(built_site, raw):
    texts = texts_of(raw)
    bogus = [(call, c) for call in raw["calls"] for c in call["candidate_checks"]
             if c["passed"] and c["quote"] and norm(c["quote"]) not in norm(texts[(call["model"], call["effort"], call["item"])])]
    assert bogus, "the demo plants passed checks whose quotation is not in the text"
    for call, _c in bogus:
        page = (built_site.out / f"nextchapter/items/{call['item']}/index.html").read_text(encoding="utf-8")
        assert "fail: the quotation is not in the chapter" in page


def test_model_text_is_escaped_everywhere(built_site):
    for page in (built_site.out / "nextchapter").rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert "<script" not in html.lower(), page
        assert not re.search(r"<[a-z]+[^>]*\son[a-z]+=", html, re.IGNORECASE), page


def test_a_call_missing_a_trap_check_is_rejected(site_copy):
    path = site_copy / "data/nextchapter/calls.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    call = json.loads(lines[0])
    call["candidate_checks"] = [c for c in call["candidate_checks"] if not (c["kind"] == "trap" and c["index"] == 4)]
    lines[0] = json.dumps(call)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as ei:
        validate(load_config(site_copy))
    assert any(p.file == "data/nextchapter/calls.jsonl" and p.line == 1 and p.path == "$.candidate_checks" and "trap" in p.found
               for p in ei.value.problems)


def test_an_edited_reference_chapter_no_longer_matches_its_frozen_hash(site_copy):
    path = site_copy / "data/nextchapter/items.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    item = json.loads(lines[2])
    item["reference_chapter"] += " An added sentence."
    lines[2] = json.dumps(item)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as ei:
        build(load_config(site_copy), site_copy / "out")
    assert any(p.file == "data/nextchapter/items.jsonl" and p.line == 3 and p.path == "$.reference_sha256" for p in ei.value.problems)


EFFORTS = ["minimal", "low", "medium", "high", "xhigh", "default"]  # least to most, then a model's own


def in_effort_order(efforts: list[str]) -> bool:
    return efforts == sorted(efforts, key=EFFORTS.index)


def test_effort_settings_are_listed_from_least_to_most_effort_everywhere(built_site, raw):
    out = built_site.out
    declared = {m["id"]: [v["effort"] for v in m["variants"]] for m in raw["run"]["models"]}
    # the demo has models whose settings read differently alphabetically, so the order shows
    assert any(sorted(e) != sorted(e, key=EFFORTS.index) for e in declared.values())
    standings = list(csv.DictReader((out / "nextchapter/standings.csv").open(encoding="utf-8")))
    chapters = list(csv.DictReader((out / "nextchapter/chapters.csv").open(encoding="utf-8")))
    html = (out / "nextchapter/index.html").read_text(encoding="utf-8")
    # the standings page lists each model's settings as rows: headline first, then the others in order of effort
    unordered = []
    for body in re.findall(r'<tbody id="settings-[^"]+">(.*?)</tbody>', html, re.S):
        efforts = re.findall(r'<span class="note">effort: (\w+)', body)
        if not in_effort_order(efforts[1:]):
            unordered.append(f"standings page: {efforts}")
    for model in declared:
        beneath = [r["effort"] for r in standings if r["model"] == model and r["shown_as"] == "beneath"]
        written = list(dict.fromkeys(r["effort"] for r in chapters if r["model"] == model))
        page = (out / f"nextchapter/models/{model}/index.html").read_text(encoding="utf-8")
        listed = re.findall(r"<li>(\w+)(?: [✳—])?: ", page.split("</h1>", 1)[1].split("</ul>", 1)[0])
        assert sorted(listed) == sorted(declared[model])
        unordered += [f"{where} of {model}: {efforts}" for where, efforts in
                      (("standings.csv", beneath), ("chapters.csv", written), ("model page", listed)) if not in_effort_order(efforts)]
    assert unordered == []


def test_the_effort_tables_reasoning_tokens_round_half_away_from_zero_as_every_number_does(built_site):
    """The effort table's tokens per chapter follow the site's rounding rule (numbers.display),
    not Jinja's half-to-even: the demo holds a setting whose mean is exactly half a token."""
    import math

    from sitegen.numbers import display

    out = built_site.out
    rows = list(csv.DictReader((out / "nextchapter/effort.csv").open(encoding="utf-8")))
    halves = [r for r in rows if r["reasoning_tokens"] and float(r["reasoning_tokens"]) % 1 == 0.5]
    assert halves, "the demo has no setting whose tokens per chapter end in .5: this test would not see the rule"
    html = (out / "nextchapter/method/index.html").read_text(encoding="utf-8")
    for r in halves:
        tokens = float(r["reasoning_tokens"])
        shown = f"{math.floor(tokens) + 1:,}"  # half away from zero, for a positive count
        assert f'<td class="n">{shown}</td><td class="n">${display(float(r["cost_per_chapter_usd"]), 3)}</td>' in html, (r["model"], r["effort"], shown)
