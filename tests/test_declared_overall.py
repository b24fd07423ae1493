"""A real benchmark's shape, declared: categories of very different sizes (one of a single
prompt), criteria called "Overall …", and an overall board the benchmark chooses to publish.

The no-overall-score rule is Canonic's and ChronicleBench's, not the site's: such a benchmark
publishes as it is, alone or beside them, while their own files still refuse an aggregate
field. A board of fewer prompts than boards.min_prompts shows its scores without an interval,
a rank range or a first place, and a ranked board of few prompts says how many distinct
resamples its intervals rest on."""

from __future__ import annotations

import csv
import html
import json
import re
from math import comb
from pathlib import Path

import pytest
from conftest import copy_site, one_family, pin_sweeps, read_sweep, write_sweep
from test_declared import _jsonl, _reference

from sitegen.build import build
from sitegen.config import load_config
from sitegen.errors import InputError

FID = "vignette"
CONFIG = f"content/{FID}/benchmark.toml"
RENAMED = {"originality": ("overall_engagement", "Overall Reader Engagement"), "sentences": ("overall_impression", "Overall Impression")}
LONE = "Epistolary"  # the category of a single prompt


def _shape(root: Path) -> Path:
    """The demo's Vignette made like the real benchmark: an overall board, two criteria named
    "Overall …" (ids too), the last prompt alone in a category of its own, a site title
    with "Overall-" in it."""
    cfg = root / CONFIG
    text = cfg.read_text(encoding="utf-8").replace("overall = false", "overall = true")
    for old, (new, label) in RENAMED.items():
        old_label = re.search(rf'id = "{old}"\nlabel = "([^"]+)"', text).group(1)
        text = text.replace(f'id = "{old}"\nlabel = "{old_label}"', f'id = "{new}"\nlabel = "{label}"')
    cfg.write_text(text, encoding="utf-8")
    pin_sweeps(root, FID)  # the archived sweep, too, is this benchmark's, made so on purpose
    for items in (root / "data" / FID).glob("sweep-*.jsonl"):
        body = items.read_text(encoding="utf-8")
        for old, (new, _label) in RENAMED.items():
            body = body.replace(f'"{old}":', f'"{new}":')
        items.write_text(body, encoding="utf-8")
    prompts = root / "data" / FID / "prompts.jsonl"
    recs = _jsonl(prompts)
    recs[-1]["category"] = LONE
    prompts.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    pyproject = root / "pyproject.toml"
    pyproject.write_text(re.sub(r'(?m)^title = ".*"$', 'title = "Overall-Fiction Bench"', pyproject.read_text(encoding="utf-8"), count=1),
                         encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def shaped(tmp_path_factory):
    base = tmp_path_factory.mktemp("overall")
    root = _shape(one_family(base / "site", FID))
    build(load_config(root), base / "out", cache=False)
    return root, base / "out"


def _text(page: Path) -> str:
    """What a reader sees of a page's main part: its text, tags dropped, entities read."""
    main = re.search(r"<main.*?</main>", page.read_text(encoding="utf-8"), re.S).group(0)
    main = re.sub(r"</?(a|code|strong|em|span)\b[^>]*>", "", main)  # inline: no break in the text
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", main)))


def _board_csv(out: Path, board: str) -> list[dict]:
    with (out / FID / "boards" / board / "board.csv").open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _sizes(root: Path) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for p in _jsonl(root / "data" / FID / "prompts.jsonl"):
        slug = "".join(ch if ch.isalnum() else "-" for ch in p["category"].lower())
        sizes[slug] = sizes.get(slug, 0) + 1
    return sizes


def test_the_overall_board_and_overall_criteria_publish_as_the_benchmarks_own_choice(shaped):
    root, out = shaped
    board = _text(out / FID / "boards" / "overall" / "index.html")
    assert "a score across boards, which this benchmark publishes by its own choice (boards.overall in content/vignette/benchmark.toml)" in board
    rows = _board_csv(out, "overall")
    n_prompts = len(_jsonl(root / "data" / FID / "prompts.jsonl"))
    assert {int(r["expected"]) for r in rows} == {n_prompts * 3}
    assert all(r["rank_best"] and r["low"] for r in rows if r["published"] == "True")  # ranked, with intervals
    assert 'id="overall-caption"' in (out / FID / "boards" / "overall" / "index.html").read_text(encoding="utf-8")
    with (out / FID / "sweeps" / "s2" / "items.csv").open(encoding="utf-8", newline="") as fh:
        header = next(csv.reader(fh))
    assert {"overall_engagement", "overall_impression"} <= set(header)
    method = _text(out / FID / "method" / "index.html")
    assert "Overall Reader Engagement" in method and "Overall Impression" in method
    assert "the “Overall” board takes every prompt together, by this benchmark's choice" in method
    assert "Overall-Fiction Bench" in (out / "index.html").read_text(encoding="utf-8")


def test_a_board_below_the_minimum_shows_scores_and_counts_but_no_interval_rank_or_first(shaped):
    root, out = shaped
    sizes = _sizes(root)
    assert sizes["epistolary"] == 1
    page = _text(out / FID / "boards" / "epistolary" / "index.html")
    assert "1 prompt × 3 iterations per model." in page
    assert ("Too few prompts to rank: this benchmark ranks a board of at least 4 prompts, and a bootstrap over 1 prompt "
            "can draw only 1 distinct resample of it, so no interval, rank range or first place is given.") in page
    assert "first" not in page.lower().replace("first place is given", "").replace("first contact", "")
    assert "its interval wholly above" not in page and "A row's rank is a range" not in page
    assert '<figure' not in (out / FID / "boards" / "epistolary" / "index.html").read_text(encoding="utf-8")
    ref = _reference(root)
    rows = _board_csv(out, "epistolary")
    assert len(rows) == 12
    for r in rows:
        want = ref[("s2", "epistolary", r["model"])]
        assert (int(r["scored"]), int(r["expected"])) == (want["scored"], 3)
        assert r["published"] == "True" and float(r["score"]) == pytest.approx(want["score"], abs=1e-9)
        assert (r["low"], r["high"], r["rank_best"], r["rank_worst"], r["seed"]) == ("", "", "", "", "")
    table = (out / FID / "boards" / "epistolary" / "index.html").read_text(encoding="utf-8")
    assert table.count("too few prompts to rank</td>") == 12
    # a category left with 3 prompts is below the minimum too: 10 distinct resamples
    three = next(b for b, n in sizes.items() if n == 3)
    assert f"a bootstrap over 3 prompts can draw only {comb(5, 3)} distinct resamples of them" in _text(out / FID / "boards" / three / "index.html")
    # the archived sweep's board is not ranked either
    archived = (out / FID / "sweeps" / "s1" / "index.html").read_text(encoding="utf-8")
    assert "Epistolary: score of every model, sweep s1 (too few prompts to rank)" in archived


def test_the_home_pages_make_no_first_claim_for_a_board_too_small_to_rank(shaped):
    root, out = shaped
    home = _text(out / FID / "index.html")
    assert f"{LONE}: 12 of 12 models published; 1 prompt, too few prompts to rank." in home
    site = _text(out / "index.html")
    assert f"{LONE} — 1 prompt: too few prompts to rank" in site
    ranked = [b for b, n in _sizes(root).items() if n >= 4]
    assert ranked and all(re.search(rf"{b.replace('-', ' ')}: 12 of 12 models published; (tied for )?first", home, re.I)
                          or re.search(rf"{b.replace('-', ' ')}: 11 of 12 models published; (tied for )?first", home, re.I) for b in ranked)


def test_a_ranked_board_of_few_prompts_says_how_many_distinct_resamples_its_intervals_rest_on(shaped):
    root, out = shaped
    sizes = _sizes(root)
    four = next(b for b, n in sizes.items() if n == 4)
    page = _text(out / FID / "boards" / four / "index.html")
    assert (f"With 4 prompts the bootstrap can draw at most {comb(7, 4)} distinct resamples of them, so its 10,000 draws "
            f"repeat them: no interval here rests on more than {comb(7, 4)}.") in page
    overall = _text(out / FID / "boards" / "overall" / "index.html")
    assert "distinct resamples" not in overall  # 32 prompts: far more distinct resamples than draws
    method = _text(out / FID / "method" / "index.html")
    assert "A board is ranked only when it has at least 4 prompts (boards.min_prompts, its default)." in method
    assert f"Below it in sweep s2: " in method and f"{LONE} (1 prompt)" in method


def test_the_minimum_is_the_benchmarks_to_set(tmp_path):
    root = _shape(one_family(tmp_path / "site", FID))
    cfg = root / CONFIG
    cfg.write_text(cfg.read_text(encoding="utf-8").replace("overall = true", "overall = true\nmin_prompts = 5"), encoding="utf-8")
    pin_sweeps(root, FID)
    out = tmp_path / "out"
    build(load_config(root), out, cache=False)
    assert all(r["rank_best"] == "" for r in _board_csv(out, "noir"))  # 4 prompts, below 5
    assert _board_csv(out, "overall")[0]["rank_best"] == "1"
    assert "at least 5 prompts (boards.min_prompts)." in _text(out / FID / "method" / "index.html")


# --------------------------------------------------------------------------- the rule stays with its families


def test_beside_canonic_the_declared_overall_publishes_and_canonic_still_refuses_an_aggregate_field(tmp_path):
    root = _shape(copy_site(tmp_path / "site", families=["canonic", FID]))
    out = tmp_path / "out"
    # The site's title heads every Canonic page: a field-like token in it is named at its input.
    with pytest.raises(InputError) as exc:
        build(load_config(root), out, cache=False)
    assert [(p.file, p.path, p.found) for p in exc.value.problems] == [("pyproject.toml", "$.tool.sitegen.title", "Overall-Fiction")]
    assert not out.exists()
    pyproject = root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8").replace("Overall-Fiction Bench", "Overall Fiction Bench"), encoding="utf-8")
    build(load_config(root), out, cache=False)
    assert (out / FID / "boards" / "overall" / "index.html").is_file()
    assert 'href="../vignette/"' in (out / "canonic" / "index.html").read_text(encoding="utf-8")  # its pages link to it
    sweep = read_sweep(root)
    sweep["models"][-1]["name"] = "Model overall_score"
    write_sweep(root, sweep)
    with pytest.raises(InputError) as exc:  # named at the key it comes from
        build(load_config(root), tmp_path / "out2", cache=False)
    assert [(p.file, p.path, p.found) for p in exc.value.problems] == [
        ("data/canonic/sweep.json", f"$.models[{len(sweep['models']) - 1}].name", 'overall_score, in "Model overall_score"')]
    assert not (tmp_path / "out2").exists()


def test_chronicle_still_refuses_an_aggregate_field(tmp_path):
    root = copy_site(tmp_path / "site", families=["chronicle"])
    cohort = root / "data" / "chronicle" / "cohort.json"
    doc = json.loads(cohort.read_text(encoding="utf-8"))
    doc["entrants"][0]["name"] = "Model total_score"
    cohort.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    with pytest.raises(InputError) as exc:  # named at the key it comes from
        build(load_config(root), tmp_path / "out", cache=False)
    assert [(p.file, p.path, p.found) for p in exc.value.problems] == [
        ("data/chronicle/cohort.json", "$.entrants[0].name", 'total_score, in "Model total_score"')]
    assert not (tmp_path / "out").exists()


def test_each_family_says_whether_its_protocol_forbids_an_aggregate():
    """The declarations the build reads without importing a family agree with the families."""
    import importlib

    from sitegen.families import builtin, declared, forbids_aggregate

    said = {fid: forbids_aggregate(getattr(builtin, fid)) for fid in ("canonic", "chronicle", "nextchapter")}
    assert said == {"canonic": True, "chronicle": True, "nextchapter": False}
    for fid, value in said.items():
        assert forbids_aggregate(importlib.import_module(getattr(builtin, fid).module).FAMILY) is value
    assert forbids_aggregate(declared.Declared(FID)) is False
