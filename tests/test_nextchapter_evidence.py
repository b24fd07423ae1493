"""NextChapterBench, what stands behind every number (seed 001): each test recomputes a rule from
the raw records on its own (no sitegen code) and holds the built site's pages and downloads to it.

- every judge call's readings on its item page, named and in the method's order, for the
  candidate, the reference and the author, with every chapter's worst-flaw and best-quality
  sentence; the reference's compliance; the author's five dimensions and why not the other three;
- the copied passage as the chapter writes it;
- generation noise from the reference model's entry and the frozen reference in the same calls,
  and the separability margin drawn from it;
- every setting a row of its own (without script), each with its own flags and, when complete,
  the rank range it would have if it stood for its model; every model's effort stated;
- settings that could not complete an item: attempts and reasons on the standings, the item page
  and the model page, with the standings' markers;
- the effort history (gain, noise, cost) per house; the earlier panel and the audition computed
  from their readings; the order each call showed; the worked example's two rules;
- a CSV and JSON behind every number the method page states.
"""

from __future__ import annotations

import csv
import html as htmlmod
import json
import math
import re
import statistics
from itertools import combinations

import pytest

CRAFT = ("voice", "prose", "character", "scene", "integration", "momentum", "restraint", "specificity")
AUTHOR = ("voice", "prose", "character", "restraint", "specificity")


def jsonl(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def raw(built_site):
    d = built_site.root / "data" / "nextchapter"
    return {"run": json.loads((d / "run.json").read_text()), "items": {i["id"]: i for i in jsonl(d / "items.jsonl")},
            "chapters": jsonl(d / "chapters.jsonl"), "calls": jsonl(d / "calls.jsonl")}


def page(built_site, rel: str) -> str:
    return (built_site.out / rel).read_text(encoding="utf-8")


def text_of(html: str) -> str:
    """A page's text as a reader sees it: tags dropped, entities read, whitespace folded."""
    html = re.sub(r"<svg.*?</svg>", " ", html, flags=re.S)
    html = re.sub(r"</?(?:strong|em|a|code|span|abbr)\b[^>]*>", "", html)  # inline: no space where a tag was
    return re.sub(r"\s+", " ", htmlmod.unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def rows(built_site, rel: str) -> list[dict]:
    with (built_site.out / rel).open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def shown(x: float, places: int) -> str:
    """The site's rounding rule (half away from zero on the shortest decimal), written out here."""
    from decimal import ROUND_HALF_UP, Decimal
    return str(Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def compliance(checks: list[dict], text: str) -> float:
    total = passed = 0
    for c in checks:
        w = 2 if c["kind"] == "trap" else 1
        total += w
        passed += w if c["passed"] and c["quote"] and norm(c["quote"]) in norm(text) else 0
    return 100 * passed / total


def craft(scores: dict) -> float:
    return sum(scores[d] for d in CRAFT) / len(CRAFT)


def sections(html: str) -> dict[str, str]:
    """An item page's chapter sections by their heading text."""
    found = re.findall(r'<section id="chapter-[^"]+"[^>]*>\s*<h3[^>]*>(.*?)</h3>(.*?)</section>', html, re.S)
    return {htmlmod.unescape(h): body for h, body in found}


def names(raw) -> dict[str, str]:
    return {m["id"]: m["name"] for m in raw["run"]["models"]}


# --------------------------------------------------------------------------- the drill-down


def test_every_call_shows_its_readings_named_in_the_methods_order_with_every_chapters_sentences(built_site, raw):
    nm = names(raw)
    for item in raw["items"]:
        html = page(built_site, f"nextchapter/items/{item}/index.html")
        secs = sections(html)
        for call in (c for c in raw["calls"] if c["item"] == item):
            body = secs[f"{nm[call['model']]} ({call['effort']})"]
            table = re.search(r"<tbody>(.*?)</tbody>", body, re.S).group(1)
            got = [(htmlmod.unescape(d), [text_of(c) for c in cells]) for d, cells in
                   ((m.group(1), re.findall(r"<td[^>]*>(.*?)</td>", m.group(2))) for m in
                    re.finditer(r'<th scope="row">(.*?)</th>(.*?)</tr>', table, re.S))]
            want = [(d.capitalize(), [shown(call["candidate"]["scores"][d], 1), shown(call["reference"]["scores"][d], 1),
                                      shown(call["author"]["scores"][d], 1) if d in AUTHOR else "not read"]) for d in CRAFT]
            assert got[:len(CRAFT)] == want, (item, call["model"], call["effort"])
            text = text_of(body)
            for who in ("candidate", "reference", "author"):
                assert text_of(htmlmod.escape(call[who]["worst_flaw"])) in text and text_of(htmlmod.escape(call[who]["best_quality"])) in text
            first = "first" if call["order"][0] == "candidate" else "second"
            assert f"Shown to the judge {first} of the two continuations" in text


def test_the_references_compliance_is_computed_from_its_own_checks_in_every_call(built_site, raw):
    per: dict[str, list[float]] = {}
    for call in raw["calls"]:
        per.setdefault(call["item"], []).append(compliance(call["reference_checks"], raw["items"][call["item"]]["reference_chapter"]))
    noise = {r["item"]: r for r in rows(built_site, "nextchapter/noise.csv")}
    assert set(noise) == set(per)
    for item, values in per.items():
        assert float(noise[item]["reference_compliance"]) == pytest.approx(statistics.fmean(values), abs=1e-9)
        text = text_of(page(built_site, f"nextchapter/items/{item}/index.html"))
        assert f"compliance {shown(statistics.fmean(values), 1)} on average over the same calls" in text
    # and per call, on the item pages' tables
    chapters = {(r["model"], r["effort"], r["item"]): r for r in rows(built_site, "nextchapter/chapters.csv")}
    for call in raw["calls"]:
        got = float(chapters[(call["model"], call["effort"], call["item"])]["reference_compliance"])
        assert got == pytest.approx(compliance(call["reference_checks"], raw["items"][call["item"]]["reference_chapter"]), abs=1e-9)


def test_the_authors_five_dimensions_are_named_with_the_reason_the_other_three_are_not_read(built_site, raw):
    for item in raw["items"]:
        calls = [c for c in raw["calls"] if c["item"] == item]
        text = text_of(page(built_site, f"nextchapter/items/{item}/index.html"))
        assert ("read on the five dimensions about the writing (voice, prose, character, restraint, specificity), "
                "not on scene, integration, momentum: it was written to the real book, not to the brief") in text
        means = [statistics.fmean(c["author"]["scores"][d] for c in calls) for d in AUTHOR]
        overall = statistics.fmean(statistics.fmean(c["author"]["scores"][d] for d in AUTHOR) for c in calls)
        assert " ".join(shown(x, 1) for x in means) + " " + shown(overall, 1) in text
    table = {r["item"]: r for r in rows(built_site, "nextchapter/author-readings.csv")}
    assert set(table) == set(raw["items"])


def test_a_copied_passage_is_shown_as_the_chapter_writes_it(built_site, raw):
    flagged = [r for r in rows(built_site, "nextchapter/chapters.csv") if r["memorised"] == "True"]
    assert flagged
    chapters = {(c["model"], c["effort"], c["item"]): c["text"] for c in raw["chapters"] if c["text"]}
    for r in flagged:
        body = sections(page(built_site, f"nextchapter/items/{r['item']}/index.html"))[f"{names(raw)[r['model']]} ({r['effort']})"]
        passage = htmlmod.unescape(re.search(r"words\): “(.*?)”</p>", body, re.S).group(1))
        assert passage in chapters[(r["model"], r["effort"], r["item"])]  # verbatim: its case and punctuation
        assert passage != passage.lower()  # the demo's copied passage has capitals, so case is kept


# --------------------------------------------------------------------------- generation noise


def generation(raw) -> list[tuple[str, float, float]]:
    ref = raw["run"]["reference"]
    return sorted((c["item"], craft(c["reference"]["scores"]), craft(c["candidate"]["scores"])) for c in raw["calls"]
                  if (c["model"], c["effort"]) == (ref["model"], ref["effort"]))


def test_generation_noise_is_read_within_the_same_calls_and_stated_in_the_text(built_site, raw):
    gen = generation(raw)
    diffs = [b - a for _i, a, b in gen]
    assert len(gen) == len(raw["items"])
    table = rows(built_site, "nextchapter/generation-noise.csv")
    assert [(r["item"], float(r["first_draft_craft"]), float(r["second_draft_craft"])) for r in table] == gen
    text = text_of(page(built_site, "nextchapter/method/index.html"))
    ahead = sum(1 for d in diffs if d > 0)
    assert (f"the second draft came out {'+' if statistics.fmean(diffs) >= 0 else ''}{shown(statistics.fmean(diffs), 2)} craft points "
            f"against the first, ahead on {ahead} of {len(diffs)} items, with single chapters moving by up to "
            f"{shown(max(abs(d) for d in diffs), 1)} points either way") in text


def test_two_headlines_closer_than_the_separability_margin_are_called_not_separable(built_site, raw):
    readings: dict[str, list[float]] = {}
    for c in raw["calls"]:
        readings.setdefault(c["item"], []).append(craft(c["reference"]["scores"]))
    pooled = math.sqrt(statistics.fmean(statistics.stdev(v) ** 2 for v in readings.values()))
    noise_on_mean = pooled / math.sqrt(len(raw["items"]))
    diffs = [b - a for _i, a, b in generation(raw)]
    margin = noise_on_mean + abs(statistics.fmean(diffs))
    summary = {r["quantity"]: float(r["value"]) for r in rows(built_site, "nextchapter/noise-summary.csv")}
    assert summary["pooled_sd"] == pytest.approx(pooled, abs=1e-9)
    assert summary["judge_noise_on_mean"] == pytest.approx(noise_on_mean, abs=1e-9)
    assert summary["separability_margin"] == pytest.approx(margin, abs=1e-9)
    heads = sorted((r for r in rows(built_site, "nextchapter/standings.csv") if r["shown_as"] == "headline"),
                   key=lambda r: -float(r["craft"]))
    group = [r["name"] for r in heads if float(heads[0]["craft"]) - float(r["craft"]) < margin]
    assert len(group) > 1  # the demo's top is such a group
    method = text_of(page(built_site, "nextchapter/method/index.html"))
    assert f"Two models within {shown(margin, 1)} points of each other on the headline are not separable." in method
    assert f"On the standings, {', '.join(group)} are within that of the leader" in method
    standings = text_of(page(built_site, "nextchapter/index.html"))
    assert f"{', '.join(group)} are within {shown(margin, 1)} points of one another on the headline" in standings


# --------------------------------------------------------------------------- settings as rows


def rank_range(band: tuple[float, float], others: list[tuple[float, float]]) -> tuple[int, int]:
    low, high = band
    return 1 + sum(1 for lo, _hi in others if lo > high), 1 + sum(1 for _lo, hi in others if hi >= low)


def test_every_setting_is_a_row_with_its_own_flags_and_the_rank_it_would_have(built_site, raw):
    table = rows(built_site, "nextchapter/standings.csv")
    n_items = len(raw["items"])
    heads = {r["model"]: (float(r["craft_low"]), float(r["craft_high"])) for r in table if r["shown_as"] == "headline"}
    flagged = {}
    for r in rows(built_site, "nextchapter/chapters.csv"):
        if any(r[f] == "True" for f in ("memorised", "refusal", "preamble", "truncated", "markdown")):
            flagged[(r["model"], r["effort"])] = flagged.get((r["model"], r["effort"]), 0) + 1
    for r in table:
        assert int(r["flagged_chapters"]) == flagged.get((r["model"], r["effort"]), 0)
        if r["status"] == "judged" and int(r["items"]) == n_items:
            others = [b for m, b in heads.items() if m != r["model"]]
            assert (int(r["rank_best"]), int(r["rank_worst"])) == rank_range((float(r["craft_low"]), float(r["craft_high"])), others), r
        else:
            assert r["rank_best"] == r["rank_worst"] == ""
    html = page(built_site, "nextchapter/index.html")
    bodies = re.findall(r'<tbody id="settings-([^"]+)">(.*?)</tbody>', html, re.S)
    assert len(bodies) == len(raw["run"]["models"])
    per_model = {}
    for r in table:
        per_model.setdefault(r["model"], []).append(r)
    for (rid, body), model in zip(bodies, [m for m in dict.fromkeys(r["model"] for r in table)]):
        trs = re.findall(r"<tr[ >].*?</tr>", body, re.S)
        assert len(trs) == len(per_model[model])  # one row per setting, no list inside a cell
        assert "<ul" not in body and "<details" not in body
        hidden = [t for t in trs if 'class="setting"' in t]
        assert len(hidden) == len(trs) - 1
        more = re.search(r"Show every setting \((\d+) more\)", body)
        assert (int(more.group(1)) if more else 0) == len(trs) - 1  # one setting: no "(1 more)"
        for t in trs:  # every row states its effort
            assert re.search(r'<span class="note">effort: \w+', t)
        for t, r in zip(trs, per_model[model]):  # the flags in a row are its own setting's
            assert len(re.findall(r'<span class="flag"(?! title="This model)', t)) == int(r["flagged_chapters"])
    css = (built_site.out / "assets/site.css").read_text(encoding="utf-8")
    assert "table.settings tr.setting { display: none; }" in css and "tbody:target tr.setting" in css  # expands without script


def test_settings_that_could_not_complete_an_item_show_their_attempts_and_reason_wherever_they_appear(built_site, raw):
    stopped = [c for c in raw["chapters"] if c["attempts"][-1]["outcome"] != "chapter"]
    assert stopped
    standings = text_of(page(built_site, "nextchapter/index.html"))
    for c in stopped:
        reason = c["attempts"][-1]["reason"]
        n = len(c["attempts"])
        where = [standings, text_of(page(built_site, f"nextchapter/items/{c['item']}/index.html")),
                 text_of(page(built_site, f"nextchapter/models/{c['model']}/index.html"))]
        for text in where:
            assert f"{c['effort']} ✳" in text and f"{n} attempts, each ended by the model's own content filter" in text
            assert text_of(htmlmod.escape(reason)) in text
    got = rows(built_site, "nextchapter/unjudged.csv")
    assert sorted((r["model"], r["effort"], r["item"], int(r["attempts"])) for r in got) == \
        sorted((c["model"], c["effort"], c["item"], len(c["attempts"])) for c in stopped)


def test_model_pages_use_the_standings_markers_and_state_the_starting_effort(built_site, raw):
    for m in raw["run"]["models"]:
        html = page(built_site, f"nextchapter/models/{m['id']}/index.html")
        listed = html.split("</h1>", 1)[1].split("</ul>", 1)[0]
        assert "incomplete" not in listed and "not-judged" not in listed
        for v in m["variants"]:
            marker = {"incomplete": " ✳", "not-judged": " —"}.get(v["status"], "")
            assert f"<li>{v['effort']}{marker}: " in listed
        assert f"First run at {m['starting_effort']}: {m['starting_reason']}." in text_of(html)


# --------------------------------------------------------------------------- the method page


def spearman(x: list[float], y: list[float]) -> float:
    def ranks(v):
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return r
    rx, ry = ranks(x), ranks(y)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    return num / math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))


def test_the_audition_is_computed_from_its_readings(built_site, raw):
    a = raw["run"]["audition"]
    score = {}
    for r in a["readings"]:
        score.setdefault(r["judge"], {})[(r["item"], r["writer"])] = r["craft"]
    judges = [c["id"] for c in a["candidates"]]
    got = {(r["judge_a"], r["judge_b"]): float(r["rho"]) for r in rows(built_site, "nextchapter/audition.csv")}
    for x, y in combinations(judges, 2):
        keys = sorted(score[x])
        assert got[(x, y)] == pytest.approx(spearman([score[x][k] for k in keys], [score[y][k] for k in keys]), abs=1e-9)
    house = {w["id"]: w["house"] for w in a["writers"]}
    leniency = {(r["judge"], r["house"]): float(r["offset"]) for r in rows(built_site, "nextchapter/audition-leniency.csv")}
    for j in judges:
        for h in {h for h in house.values() if h != "author"}:
            gaps = [score[j][k] - statistics.fmean(score[o][k] for o in judges if o != j) for k in score[j] if house[k[1]] == h]
            assert leniency[(j, h)] == pytest.approx(statistics.fmean(gaps), abs=1e-9)
    text = text_of(page(built_site, "nextchapter/method/index.html"))
    tops = []
    for j in judges:
        means = {}
        for (it, w), v in score[j].items():
            if house[w] != "author":
                means.setdefault(house[w], []).append(v)
        tops.append(frozenset(sorted(means, key=lambda h: (-statistics.fmean(means[h]), h))[:2]))
    if len(set(tops)) == 1:
        assert f"put the same two houses at the top by their mean reading of each house's chapters: {' and '.join(sorted(tops[0]))}" in text
    else:
        assert "did not put the same houses at the top" in text
    for c in a["candidates"]:
        first = all(score[c["id"]][(it["id"], "author")] > max(v for (i2, w), v in score[c["id"]].items() if i2 == it["id"] and w != "author")
                    for it in a["items"])
        assert (f"{c['name']} placed the real author ahead of every model" in text) == first
    assert "reasons" not in a and "correlations" not in a  # nothing of the audition's results is stated in the data


def test_the_earlier_panel_share_is_computed_from_its_marks(built_site, raw):
    p = raw["run"]["earlier_panel"]
    marks = {}
    for m in p["marks"]:
        marks.setdefault(m["model"], []).append(m["mark"])
    top = sorted(marks, key=lambda k: (-statistics.fmean(marks[k]), k))[: p["top"]]
    theirs = [x for k in top for x in marks[k]]
    modal = max(set(theirs), key=lambda v: (theirs.count(v), v))
    text = text_of(page(built_site, "nextchapter/method/index.html"))
    assert f"received a {modal} on {theirs.count(modal)} of their {len(theirs)} marks" in text
    assert f"a panel of {['no', 'one', 'two', 'three', 'four', 'five'][len(p['judges'])]} judges" in text


def test_the_method_page_states_the_pipeline_the_blind_order_the_anchors_and_the_flag_exception(built_site, raw):
    text = text_of(page(built_site, "nextchapter/method/index.html"))
    for stage in ("The divergent brief.", "The continuity traps.", "Generation.", "The judge.", "The screen and the score."):
        assert stage in text
    assert "The judge is not told which of the two is the candidate." in text and "declared as the author's" in text
    first = sum(1 for c in raw["calls"] if c["order"][0] == "candidate")
    assert f"made {len(raw['calls'])} calls and was shown the candidate first in {first} of them" in text
    assert "100 is as good as the finest published fiction in this voice could be, and 50 is competent commercial prose." in text
    assert "a flag does not change a score, with one exception" in text and "scores zero on compliance" in text


def test_the_worked_example_shows_a_double_counted_trap_and_a_quotation_failure(built_site, raw):
    ex = rows(built_site, "nextchapter/worked-example.csv")
    assert any(r["check"] == "trap" and r["weight"] == "2" and r["counts_as"] == "fail" for r in ex)
    assert any(r["judge"] == "pass" and r["counts_as"] == "fail" for r in ex)


def test_the_effort_history_is_computed_per_house_against_the_first_setting(built_site, raw):
    chapters = {}
    for c in raw["chapters"]:
        chapters.setdefault((c["model"], c["effort"]), []).append(c)
    crafts = {}
    for c in raw["calls"]:
        crafts.setdefault((c["model"], c["effort"]), []).append(craft(c["candidate"]["scores"]))
    got = {(r["model"], r["effort"]): r for r in rows(built_site, "nextchapter/effort.csv")}
    assert set(got) == set(chapters)
    for m in raw["run"]["models"]:
        start = (m["id"], m["starting_effort"])
        for key in (k for k in chapters if k[0] == m["id"]):
            r = got[key]
            cost = statistics.fmean(c["usage"]["cost_usd"] for c in chapters[key])
            assert float(r["cost_per_chapter_usd"]) == pytest.approx(cost, abs=1e-12)
            if key != start and key in crafts and start in crafts:
                base_cost = statistics.fmean(c["usage"]["cost_usd"] for c in chapters[start])
                assert float(r["cost_ratio"]) == pytest.approx(cost / base_cost, abs=1e-12)
                assert float(r["craft_gain"]) == pytest.approx(statistics.fmean(crafts[key]) - statistics.fmean(crafts[start]), abs=1e-9)
    text = text_of(page(built_site, "nextchapter/method/index.html"))
    for house in {m["house"] for m in raw["run"]["models"]}:
        assert f"{house}: " in text  # each house's starting settings and why


def test_the_judges_house_stands_beside_the_standings(built_site, raw):
    judge = raw["run"]["judge"]
    text = text_of(page(built_site, "nextchapter/index.html"))
    assert f"one judge, {judge['name']} (from {judge['house']})" in text
    flagged = [r for r in rows(built_site, "nextchapter/standings.csv") if r["self_family"] == "True"]
    assert {r["house"] for r in flagged} == {judge["house"]}
