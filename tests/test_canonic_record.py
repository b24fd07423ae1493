"""Canonic's record as seeds 002 and 003 describe it: every task published word for word with
the prompt it was sent in; both prompt templates published and frozen; the task set's
fingerprint binding every word; a bumped input refused until the sweep ran under it; every
refusal given its one reframed retry; each judge's anchors and rationale shown wherever a
judgment is (ladders, the worked example, each board row's cells); the freeze procedure; the
judges' orderings, each row's exclusions and the contamination split per show.

Every expected value is computed here from the raw artifact, never taken from the site."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections import Counter

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from sitegen.build import validate
from sitegen.config import load_config
from sitegen.errors import InputError
from sitegen.families.canonic.validate import contains_word

from conftest import (CELLS_REL, FREEZE_REL, SWEEP_REL, enable_only, find_cell_line, only, read_cells, read_sweep,
                      ref_fingerprint, ref_ladders, ref_probes, ref_status, reference, rewrite_cell_line, run_cli, where,
                      write_freeze, write_sweep)


@pytest.fixture
def site_copy(site_copy):
    return enable_only(site_copy, ["canonic"])


@pytest.fixture(scope="module")
def ref(built_site):
    return reference(built_site.root)


def problems_of(root):
    with pytest.raises(InputError) as exc:
        validate(load_config(root))
    return exc.value.problems


def page(out, rel: str) -> str:
    return (out / rel).read_text(encoding="utf-8")


def text_of(markup: str) -> str:
    """The text a reader sees, tags dropped and entities read."""
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def filled(template: str, task: dict) -> str:
    """The generation prompt of TASK as the method page documents it: each slot {{name}}
    filled, the constraints one per line after "- "."""
    values = {"premise": task["premise"], "constraints": "\n".join(f"- {c}" for c in task["constraints"]),
              "output_form": task["output_form"]}
    return re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: values[m.group(1)], template)


# --------------------------------------------------------------------------- the pages


def test_every_task_has_a_page_with_its_words_and_the_prompt_it_was_sent_in(built_site, ref):
    out, sweep = built_site.out, ref.sweep
    index = page(out, "canonic/tasks/index.html")
    for t in sweep["tasks"]:
        assert f'href="{t["id"]}/"' in index, f"the task list does not link {t['id']}"
        shown = text_of(page(out, f"canonic/tasks/{t['id']}/index.html"))
        for words in (t["premise"], *t["constraints"], t["output_form"]):
            assert words in shown, f"{t['id']}: {words!r} is not on its page"
        assert filled(sweep["prompts"]["generation"]["text"], t) in shown, f"{t['id']}: the prompt as sent is not on its page"


def test_both_prompt_templates_are_published_word_for_word(built_site, ref):
    for rel in ("canonic/tasks/index.html", "canonic/method/index.html"):
        shown = text_of(page(built_site.out, rel))
        for key in ("generation", "judge"):
            assert ref.sweep["prompts"][key]["text"] in shown, f"{rel}: the {key} prompt is not shown whole"
        assert "pasted word for word" in shown  # the judge prompt's {{show_bible}} slot, explained


def test_the_share_of_novel_premises_is_counted_from_the_tasks(built_site, ref):
    tasks = ref.sweep["tasks"]
    novel = sum(t["premise_origin"] == "novel" for t in tasks)
    shown = text_of(page(built_site.out, "canonic/method/index.html"))
    assert f"{novel} of the {len(tasks)} tasks ({100 * novel / len(tasks):.1f}%) use a premise invented" in shown
    rows = json.loads((built_site.out / "canonic/task-origins.json").read_text())["rows"]
    for show in {t["show"] for t in tasks if t["show"]}:
        mine = [t for t in tasks if t["show"] == show]
        row = next(r for r in rows if r["show"] == show)
        assert (row["tasks"], row["novel"]) == (len(mine), sum(t["premise_origin"] == "novel" for t in mine))


def test_the_generation_settings_on_the_method_page_come_from_the_sweep(site_copy, tmp_path):
    sweep = read_sweep(site_copy)
    sweep["generation"].update({"temperature": 0.9, "max_tokens": 8000})
    write_sweep(site_copy, sweep)
    done = run_cli("build", "--root", str(site_copy), "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    shown = text_of(page(tmp_path / "out", "canonic/method/index.html"))
    assert "at temperature 0.9, capped at 8,000 tokens" in shown


def test_a_ladder_shows_its_task_and_each_judges_anchors_and_rationale(built_site, ref):
    cells = {(c["model"], c["task"]): c for c in read_cells(built_site.root)}
    tasks = {t["id"]: t for t in ref.sweep["tasks"]}
    judge_name = {j["id"]: j["name"] for j in ref.sweep["judges"]}
    ladders = ref_ladders(ref)
    assert ladders
    for lad in ladders[:: max(1, len(ladders) // 12)]:  # a spread of them, every domain's among them
        markup = page(built_site.out, f"canonic/ladders/{lad.task}/index.html")
        shown = text_of(markup)
        assert tasks[lad.task]["premise"] in shown and tasks[lad.task]["output_form"] in shown
        for position, model, _score in lad.rungs:
            section = text_of(markup.split(f'id="rung-{position}"', 1)[1].split("</section>", 1)[0])
            for j in (j for j in cells[(model, lad.task)]["judgments"] if j["prompt"] == "standard"):
                assert f"{judge_name[j['judge']]}'s rationale: {j['rationale']}" in section, (lad.task, position)
            # each dimension's row: its id, its weight, then each judge's anchor in judge order
            table = markup.split(f'id="anchors-{position}"', 1)[1].split("</table>", 1)[0]
            for dim, anchors in _anchor_rows(table).items():
                expected = [j["anchors"][dim] for jid in judge_name for j in cells[(model, lad.task)]["judgments"]
                            if j["judge"] == jid and j["prompt"] == "standard"]
                assert anchors == expected, (lad.task, position, dim)


def _anchor_rows(table: str) -> dict[str, list[float]]:
    rows = {}
    for row in re.findall(r"<tr><th scope=\"row\"><code>([^<]+)</code></th>(.*?)</tr>", table):
        dim, cells = row
        values = [float(v) for v in re.findall(r'<td class="n">([^<]+)</td>', cells)]
        rows[dim] = values[1:]  # the first is the weight
    assert rows, "no dimension rows"
    return rows


def test_the_worked_example_shows_each_judges_rationale(built_site, ref):
    model, task, _domain = ref.first_counted
    cell = next(c for c in read_cells(built_site.root) if (c["model"], c["task"]) == (model, task))
    shown = text_of(page(built_site.out, "canonic/method/index.html"))
    judge_name = {j["id"]: j["name"] for j in ref.sweep["judges"]}
    for j in (j for j in cell["judgments"] if j["prompt"] == "standard"):
        assert f"{judge_name[j['judge']]}'s rationale: {j['rationale']}" in shown


# --------------------------------------------------------------------------- the rules


def test_one_character_of_a_task_changed_after_the_freeze_fails_the_build(site_copy, tmp_path):
    """The sweep's own fingerprint updated to match, so only the freeze record can tell: the
    premise is covered by the fingerprint like every other field."""
    sweep = read_sweep(site_copy)
    t = sweep["tasks"][7]
    t["premise"] = t["premise"][:-1] + ("!" if t["premise"][-1] != "!" else ".")
    sweep["task_set_fingerprint"] = ref_fingerprint(sweep["tasks"])
    write_sweep(site_copy, sweep)
    p = only(problems_of(site_copy))
    assert where(p) == f"{SWEEP_REL} $.tasks" and FREEZE_REL in p.expected and sweep["task_set_fingerprint"] in p.found
    done = run_cli("build", "--root", str(site_copy), "--out", str(tmp_path / "out"))
    assert done.returncode == 1 and not (tmp_path / "out").exists()


@pytest.mark.parametrize("key", ["generation", "judge"])
def test_a_prompt_template_edited_after_the_freeze_fails(site_copy, key):
    sweep = read_sweep(site_copy)
    sweep["prompts"][key]["text"] = sweep["prompts"][key]["text"].replace("piece", "story", 1)
    write_sweep(site_copy, sweep)
    p = only(problems_of(site_copy))
    assert where(p) == f"{SWEEP_REL} $.prompts.{key}" and "prompt" in p.expected and FREEZE_REL in p.expected


def test_a_bumped_task_set_without_a_re_sweep_fails(site_copy):
    """The freeze record bumps the task set to version 2 (the right fingerprint, since nothing
    changed) while the sweep still says it ran version 1: no re-sweep, no build."""
    freeze = json.loads((site_copy / FREEZE_REL).read_text())
    item = next(i for i in freeze["items"] if i["kind"] == "task-set")
    item["history"].append({**item["history"][-1], "version": "2", "frozen_at": "2027-01-01T00:00:00Z"})
    (site_copy / FREEZE_REL).write_text(json.dumps(freeze), encoding="utf-8")
    p = only(problems_of(site_copy))
    assert where(p) == f"{SWEEP_REL} $.task_set_version" and "version 2" in p.expected and p.found == '"1"'


def test_a_template_missing_a_slot_or_naming_an_unknown_one_is_refused(site_copy):
    sweep = read_sweep(site_copy)
    sweep["prompts"]["generation"]["text"] = sweep["prompts"]["generation"]["text"].replace("{{constraints}}", "{{rules}}")
    sweep["prompts"]["judge"]["text"] = sweep["prompts"]["judge"]["text"].replace("{{show_bible}}", "")
    write_sweep(site_copy, sweep)
    write_freeze(site_copy, sweep)  # frozen as they are: the slot rules alone must refuse them
    found = sorted((where(p), p.expected, p.found) for p in problems_of(site_copy))
    assert found == [
        (f"{SWEEP_REL} $.prompts.generation.text", "slots among {{premise}}, {{constraints}}, {{output_form}}", "{{rules}}"),
        (f"{SWEEP_REL} $.prompts.generation.text", "the slot {{constraints}}", "none"),
        (f"{SWEEP_REL} $.prompts.judge.text", "the slot {{show_bible}}", "none"),
    ]


def test_a_task_without_its_premise_constraints_or_output_form_is_refused(site_copy):
    sweep = read_sweep(site_copy)
    del sweep["tasks"][3]["premise"]
    sweep["tasks"][4]["constraints"] = []
    sweep["tasks"][5]["output_form"] = ""
    write_sweep(site_copy, sweep)
    paths = {p.path for p in problems_of(site_copy) if p.file == SWEEP_REL}
    assert {"$.tasks[3].premise", "$.tasks[4].constraints", "$.tasks[5].output_form"} <= paths


def test_a_refusal_without_its_reframed_retry_is_refused(site_copy):
    def refused_then_retried(rec):
        std = [j for j in rec["judgments"] if j["prompt"] == "standard" and j["outcome"] == "refusal"]
        return bool(std) and any(j["prompt"] == "reframe" for j in rec["judgments"])

    line, rec = find_cell_line(site_copy, refused_then_retried)
    judge = next(j["judge"] for j in rec["judgments"] if j["prompt"] == "reframe")
    rewrite_cell_line(site_copy, line, lambda r: r.update(judgments=[j for j in r["judgments"] if j["prompt"] != "reframe"]))
    p = only(problems_of(site_copy))
    assert where(p) == f"{CELLS_REL}:{line} $.judgments" and f"a reframed retry from judge {judge}" in p.expected


def test_every_refusal_in_the_demo_has_its_one_reframed_retry(built_site):
    for c in read_cells(built_site.root):
        for j in (j for j in c["judgments"] if j["prompt"] == "standard" and j["outcome"] == "refusal"):
            retries = [r for r in c["judgments"] if r["prompt"] == "reframe" and r["judge"] == j["judge"]]
            assert len(retries) == 1, (c["model"], c["task"], j["judge"])


# --------------------------------------------------------------------------- the freeze procedure


def test_the_method_page_shows_every_fingerprint_in_full_and_the_tuning_labels(built_site, ref):
    shown = text_of(page(built_site.out, "canonic/method/index.html"))
    freeze = json.loads((built_site.root / FREEZE_REL).read_text())
    for item in freeze["items"]:
        assert item["history"][-1]["fingerprint"] in shown, (item["kind"], item["id"])
    dev = ref.sweep["development"]
    assert dev["released_at"] == ref.sweep["sweep"]["frozen_at"] and f"released at {dev['released_at']}, the time of the freeze" in shown
    names = {m["id"]: m["name"] for m in ref.sweep["models"]}
    markup = page(built_site.out, "canonic/method/index.html")
    rows = [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", r)).split()) for r in re.findall(r"<tr>(.*?)</tr>", markup, re.S)]
    for x in dev["models"]:
        assert f"{x['label']} {names[x['model']]} {x['model']}" in rows


def test_a_tuning_label_that_gives_a_model_away_or_a_mapping_released_before_the_freeze_is_refused(site_copy):
    sweep = read_sweep(site_copy)
    dev = sweep["development"]
    dev["models"][0]["label"] = "The " + sweep["models"][3]["name"] + " one"
    dev["models"][1]["model"] = "nobody/unpinned"
    dev["released_at"] = "2026-01-01T00:00:00Z"
    assert "meta" in {m["family"] for m in sweep["models"]}
    dev["models"][2]["label"] = "Metalwork"  # a house's name inside a word gives nothing away
    write_sweep(site_copy, sweep)
    found = sorted(where(p) for p in problems_of(site_copy))
    assert found == [f"{SWEEP_REL} $.development.models[0].label", f"{SWEEP_REL} $.development.models[1].model",
                     f"{SWEEP_REL} $.development.released_at"]


def test_a_release_without_a_tuning_record_says_so(site_copy, tmp_path):
    sweep = read_sweep(site_copy)
    del sweep["development"]
    write_sweep(site_copy, sweep)
    done = run_cli("build", "--root", str(site_copy), "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert "This release records no tuning subset" in text_of(page(tmp_path / "out", "canonic/method/index.html"))


# --------------------------------------------------------------------------- each board row's cells


def test_every_board_row_opens_its_cells_with_each_calls_anchors_and_rationale(built_site, ref):
    """Every cell of every row: its status as the reference counting gives it, each judge call's
    outcome and rationale, each scoring call's anchors; the board row links the page."""
    out, sweep = built_site.out, ref.sweep
    tasks = {t["id"]: t for t in sweep["tasks"]}
    dims = {d["id"]: [x["id"] for x in d["rubric"]["dimensions"]] for d in sweep["domains"]}
    by_row: dict[tuple[str, str], list[dict]] = {}
    for c in read_cells(built_site.root):
        by_row.setdefault((c["model"], tasks[c["task"]]["domain"]), []).append(c)
    for (model, domain), cells in by_row.items():
        rel = f"canonic/{domain}/cells/{model}/index.html"
        assert f'href="cells/{model}/"' in page(out, f"canonic/{domain}/index.html"), rel
        rows = json.loads((out / f"canonic/{domain}/cells/{model}/cells.json").read_text())["rows"]
        shown = text_of(page(out, rel))
        for c in cells:
            mine = [r for r in rows if r["task"] == c["task"]]
            assert {r["status"] for r in mine} == {ref_status(c)}, (rel, c["task"])
            for j in c["judgments"]:
                if j.get("rationale"):
                    assert j["rationale"] in shown, (rel, c["task"], j["judge"])
                if j["outcome"] == "score":
                    call = only([r for r in mine if r["judge"] == j["judge"] and r["prompt"] == j["prompt"]])
                    assert {d: call[f"anchor_{d}"] for d in dims[domain]} == {d: j["anchors"][d] for d in dims[domain]}, (rel, c["task"])
                    assert call["rationale"] == j["rationale"] and call["judge_weighted_score"] is not None


# --------------------------------------------------------------------------- the analyses


def _ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def _pearson(x: list[float], y: list[float]) -> float:
    mx, my = sum(x) / len(x), sum(y) / len(y)
    num = sum((a - mx) * (b - my) for a, b in zip(x, y))
    return num / (sum((a - mx) ** 2 for a in x) * sum((b - my) ** 2 for b in y)) ** 0.5


def test_each_judges_ordering_and_their_rank_correlation_are_recomputed_per_domain(built_site, ref):
    judges = [j["id"] for j in ref.sweep["judges"]]
    task_domain = {t["id"]: t["domain"] for t in ref.sweep["tasks"]}
    means: dict[tuple[str, str], dict[str, list[float]]] = {}
    for (model, task), scores in ref.judge_scores.items():
        domain = task_domain[task]
        if ref.rows[(model, domain)].published:
            for judge, w in scores:
                means.setdefault((domain, model), {}).setdefault(judge, []).append(w)
    agreement = {r["domain"]: r for r in json.loads((built_site.out / "canonic/judge-agreement.json").read_text())["rows"]}
    orderings = json.loads((built_site.out / "canonic/judge-orderings.json").read_text())["rows"]
    for domain in {d for d, _ in means}:
        models = sorted(m for d, m in means if d == domain)
        per_judge = [[sum(means[(domain, m)][j]) / len(means[(domain, m)][j]) for m in models] for j in judges]
        assert agreement[domain]["models"] == len(models)
        assert agreement[domain]["spearman_rho"] == pytest.approx(_pearson(_ranks(per_judge[0]), _ranks(per_judge[1])), abs=1e-9)
        for k, j in enumerate(judges):
            ranks = dict(zip(models, _ranks([-v for v in per_judge[k]])))
            for row in (r for r in orderings if r["domain"] == domain):
                assert row[f"rank_{j}"] == ranks[row["model"]]
                assert row[f"mean_{j}"] == pytest.approx(per_judge[k][models.index(row["model"])], abs=1e-9)


def test_every_rows_exclusions_are_counted_and_the_withheld_row_says_why(built_site, ref):
    tasks = {t["id"]: t["domain"] for t in ref.sweep["tasks"]}
    want: dict[tuple[str, str], Counter] = {}
    for c in read_cells(built_site.root):
        want.setdefault((c["model"], tasks[c["task"]]), Counter())[ref_status(c)] += 1
    rows = json.loads((built_site.out / "canonic/exclusions-by-row.json").read_text())["rows"]
    assert len(rows) == len(want)
    for r in rows:
        got = {k.replace("_", " "): v for k, v in r.items() if k not in ("model", "model_name", "domain", "domain_name", "published",
                                                                         "withheld_reason") and v}
        assert got == dict(want[(r["model"], r["domain"])]), (r["model"], r["domain"])
        assert r["published"] == ref.rows[(r["model"], r["domain"])].published
    shown = text_of(page(built_site.out, "canonic/verification/index.html"))
    for (model, domain), row in ref.rows.items():
        if not row.published:
            name = next(m["name"] for m in ref.sweep["models"] if m["id"] == model)
            dname = next(d["name"] for d in ref.sweep["domains"] if d["id"] == domain)
            assert f"withheld: {name} on {dname}, only {row.counted} of {row.total}" in shown


def test_the_contamination_split_per_show_is_recomputed(built_site, ref):
    show_of = {t["id"]: t["show"] for t in ref.sweep["tasks"]}
    origin = {t["id"]: t["premise_origin"] for t in ref.sweep["tasks"]}
    pooled: dict[str, dict[str, list[float]]] = {}
    for (model, domain), row in ref.rows.items():
        if row.published:
            for task, score in row.task_scores.items():
                if show_of[task]:
                    pooled.setdefault(show_of[task], {"novel": [], "canonical-anchored": []})[origin[task]].append(score)
    rows = {r["show"]: r for r in json.loads((built_site.out / "canonic/contamination-by-show.json").read_text())["rows"] if r["model"] is None}
    assert sorted(rows) == sorted(pooled)
    for show, g in pooled.items():
        a, b = g["novel"], g["canonical-anchored"]
        assert (rows[show]["n_novel"], rows[show]["n_canonical"]) == (len(a), len(b))
        assert rows[show]["difference"] == pytest.approx(sum(a) / len(a) - sum(b) / len(b), abs=1e-9)


def test_figure_2c_draws_every_probe_against_its_frozen_maximum(built_site, ref):
    probes = ref_probes(built_site.root, ref.sweep)
    rows = list(csv.DictReader(io.StringIO((built_site.out / "canonic/figure-2-probes.csv").read_text())))
    assert [r["probe_id"] for r in rows] == [p.id for p in probes]
    for r, p in zip(rows, probes):
        assert float(r["score"]) == pytest.approx(p.score, abs=1e-9) and float(r["max_score"]) == p.max_score
        assert r["caught"] == str(p.caught) and r["verdict"] == ("caught" if p.caught else "not caught")
    assert 'id="figure-2-probes"' in page(built_site.out, "canonic/verification/index.html")


def test_each_models_sitcom_dimensions_by_format_are_recomputed(built_site, ref):
    """Format against voice, model by model: each model's mean anchor per show format and
    dimension, over both judges' standard scores of its counted sitcom cells."""
    shows = {s["id"]: s["format"] for s in ref.sweep["shows"]}
    show_of = {t["id"]: t["show"] for t in ref.sweep["tasks"]}
    want: dict[tuple[str, str, str], list[float]] = {}
    for c in read_cells(built_site.root):
        show = show_of[c["task"]]
        if show is None or ref_status(c) != "counted":
            continue
        for j in (j for j in c["judgments"] if j["prompt"] == "standard"):
            for dim, a in j["anchors"].items():
                want.setdefault((c["model"], shows[show], dim), []).append(a)
    rows = json.loads((built_site.out / "canonic/model-dimensions.json").read_text())["rows"]
    assert len(rows) == len(want)
    for r in rows:
        values = want[(r["model"], r["format"], r["dimension"])]
        assert (r["judgments"], r["mean_anchor"]) == (len(values), pytest.approx(sum(values) / len(values), abs=1e-12))


@given(st.text(alphabet="ab1-/ .ſK", max_size=12), st.text(alphabet="ab1-/ .", max_size=4))
@example("metalwork", "meta")
@example("the meta one", "meta")
@example("meta", "meta")
@example("ab", "")
@example("", "")
@example("openai/gpt-5 labs", "gpt-5")
def test_a_tuning_label_is_searched_for_whole_words_as_the_published_pattern_reads(label, word):
    """The label check's word search (no regex compiled per word, for sweeps of thousands of
    models) finds exactly what (?<![a-z0-9])word(?![a-z0-9]) finds."""
    pattern = rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])"
    assert contains_word(label, word) == (re.search(pattern, label) is not None)


def test_a_model_with_no_cell_in_a_domain_is_a_gap_the_counts_and_the_verification_page_show(site_copy):
    """Every model is given every task: a domain of one model with no cell at all is 30 cells
    without a record, counted as not counted (the total stays models x tasks), its row stays
    in the by-row tables (withheld, with its reason) and the gaps are listed and downloadable."""
    from sitegen.build import build

    model = read_sweep(site_copy)["models"][0]["id"]
    gone = {t["id"] for t in read_sweep(site_copy)["tasks"] if t["domain"] == "meme-caption"}
    for rel in (CELLS_REL, "data/canonic/outputs.jsonl"):
        path = site_copy / rel
        lines = [line for line in path.read_text(encoding="utf-8").splitlines()
                 if not (json.loads(line)["model"] == model and json.loads(line)["task"] in gone)]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    sweep = read_sweep(site_copy)
    total, recorded = len(sweep["models"]) * len(sweep["tasks"]), len(read_cells(site_copy))
    assert total - recorded == len(gone)
    out = site_copy.parent / "out"
    build(load_config(site_copy), out)
    verification = text_of(page(out, "canonic/verification/index.html"))
    assert f"of {total:,} cells counted (every model given every task). {len(gone)} of them have no record in the cells file" in verification
    assert f"of {total:,} ({len(gone)} without a record)" in verification
    rows = {(r["model"], r["domain"]): r for r in json.loads((out / "canonic/exclusions-by-row.json").read_text())["rows"]}
    assert len(rows) == len(sweep["models"]) * len({t["domain"] for t in sweep["tasks"]})
    assert rows[(model, "meme-caption")]["published"] is False and "not attempted" in rows[(model, "meme-caption")]["withheld_reason"]
    with (out / "canonic/cells-without-record.csv").open(encoding="utf-8", newline="") as f:
        assert [(r["model"], r["domain"], r["cells"]) for r in csv.DictReader(f)] == [(model, "meme-caption", str(len(gone)))]
