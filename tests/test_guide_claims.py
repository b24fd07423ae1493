"""The guide (docs/publish-your-own-benchmark.md) says what the product does: each claim a
team acts on is done here, on a site `sitegen new site` wrote, as the guide tells it. The
reference's id patterns are the ones validate applies; a historical amendment is written with
SOURCE_DATE_EPOCH and a new sweep follows it; adding a sweep asks for the archived one's pin, and
gives it. (What applies per sweep: test_declared_sweeps.py; boards too small to rank:
test_declared_overall.py; judge failures and unknown attempts: test_declared_records.py.)"""

from __future__ import annotations

import json
import re
from calendar import timegm
from pathlib import Path
from time import strptime

import pytest
from conftest import run_cli

from sitegen.build import build, validate
from sitegen.config import load_config
from sitegen.errors import InputError

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "publish-your-own-benchmark.md"
FID = "gsb"
CONFIG = f"content/{FID}/benchmark.toml"


@pytest.fixture()
def site(tmp_path) -> Path:
    root = tmp_path / "site"
    r = run_cli("new", "site", str(root), "--id", FID, "--title", "Guide")
    assert r.returncode == 0, r.stderr
    return root


def _stated_pattern(key: str, section: str) -> str:
    """The pattern the guide's reference states for KEY, in the section whose heading holds SECTION."""
    text = GUIDE.read_text(encoding="utf-8")
    part = text[text.index(section):]
    row = next(ln for ln in part.splitlines() if ln.startswith(f"| `{key}` |"))
    return re.search(r"\(`(\^[^`]+\$)`", row).group(1)


def _problems(root: Path) -> list[tuple[str, str]]:
    with pytest.raises(InputError) as ei:
        validate(load_config(root))
    return [(p.file, p.path) for p in ei.value.problems]


def _edit_jsonl(path: Path, line: int, **fields) -> None:
    recs = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    recs[line] = {**recs[line], **fields}
    path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")


@pytest.mark.parametrize("bad, good", [("Alpha 1", "lumen/lark-3.5"), ("example/./alpha", "example/alpha_1")])
def test_a_model_id_the_reference_pattern_refuses_is_refused_and_one_it_allows_builds(site, bad, good):
    pattern = _stated_pattern("id", "`data/<id>/models.jsonl`")
    assert re.fullmatch(pattern, good) and (not re.fullmatch(pattern, bad) or "/./" in f"/{bad}/")
    models, items = site / f"data/{FID}/models.jsonl", site / f"data/{FID}/items-s1.jsonl"
    old = json.loads(models.read_text(encoding="utf-8").splitlines()[0])["id"]
    for new in (bad, good):
        models.write_text(models.read_text(encoding="utf-8").replace(f'"{old}"', f'"{new}"'), encoding="utf-8")
        items.write_text(items.read_text(encoding="utf-8").replace(f'"{old}"', f'"{new}"'), encoding="utf-8")
        if new == bad:
            # the id where it is declared, and where each item names it (an item's model is an id too)
            assert set(_problems(site)) == {(f"data/{FID}/models.jsonl", "$.id"), (f"data/{FID}/items-s1.jsonl", "$.model")}
        else:
            validate(load_config(site))
        old = new


def test_a_criterion_id_must_be_an_id_as_the_reference_states(site):
    pattern = _stated_pattern("criteria.id", "`[[criteria]]`")
    assert not re.fullmatch(pattern, "Overall-Impression") and re.fullmatch(pattern, "overall_impression")
    cfg = site / CONFIG
    cfg.write_text(cfg.read_text(encoding="utf-8").replace('id = "voice"', 'id = "Overall-Impression"'), encoding="utf-8")
    assert (CONFIG, "$.criteria[0].id") in _problems(site)


def test_boards_are_named_by_a_field_value_whose_address_is_its_own(site):
    """The guide: one board per value of boards.by, a name, never empty; two values that would
    share an address are refused, naming the prompt."""
    prompts = site / f"data/{FID}/prompts.jsonl"
    _edit_jsonl(prompts, 0, category="")
    assert (f"data/{FID}/prompts.jsonl", "$.category") in _problems(site)
    _edit_jsonl(prompts, 0, category="fiction!")  # the address of "Fiction" again
    problems = _problems(site)
    assert (f"data/{FID}/prompts.jsonl", "$.category") in problems


def test_a_historical_amendment_is_dated_with_source_date_epoch_and_a_new_sweep_follows_it(site):
    epoch = str(timegm(strptime("2026-02-20", "%Y-%m-%d")))
    r = run_cli("new", "amendment", "--root", str(site), "--title", "Judge replaced", env={"SOURCE_DATE_EPOCH": epoch})
    assert r.returncode == 0, r.stderr
    entry = site / f"content/{FID}/amendments/A1.md"
    assert "date: 2026-02-20" in entry.read_text(encoding="utf-8")
    entry.write_text(entry.read_text(encoding="utf-8").replace("FILL IN: what changed, why, and what did not change with it.",
                                                                 "The judge was retired; the same outputs were read by its successor."), encoding="utf-8")
    # the guide's steps for a change of judge: the new judge, an until for the old, a sweep naming A1
    cfg = site / CONFIG
    text = cfg.read_text(encoding="utf-8").replace('since = "2026-01-01"\n', 'since = "2026-01-01"\nuntil = "2026-02-19"\n', 1)
    text += ('\n[[judges]]\nid = "judge2"\nname = "Second Judge"\nmodel = "example/judge-2"\nversion = "2"\nhouse = "Other House"\n'
             'since = "2026-02-20"\n\n[[sweeps]]\nid = "s2"\ndate = "2026-02-21"\njudges = ["judge2"]\nitems = "items-s2.jsonl"\namendment = "A1"\n')
    cfg.write_text(text, encoding="utf-8")
    items = (site / f"data/{FID}/items-s1.jsonl").read_text(encoding="utf-8").replace('"judge": "judge"', '"judge": "judge2"').replace('"judge":"judge"', '"judge":"judge2"')
    (site / f"data/{FID}/items-s2.jsonl").write_text(items, encoding="utf-8")
    # adding a sweep archives s1: the build asks for its pin and gives the value, as the guide says
    [p] = [p for p in pytest.raises(InputError, validate, load_config(site)).value.problems]
    assert (p.file, p.path, p.found) == (CONFIG, "$.sweeps[0].settings_fingerprint", "none")
    pin = re.search(r"[0-9a-f]{64}", p.expected).group(0)
    cfg.write_text(cfg.read_text(encoding="utf-8").replace('id = "s1"\n', f'id = "s1"\nsettings_fingerprint = "{pin}"\n'), encoding="utf-8")
    out = site / "_site"
    build(load_config(site), out, cache=False)
    home = re.sub(r"<[^>]+>", "", (out / FID / "index.html").read_text(encoding="utf-8"))
    assert "The sweep follows amendment A1." in home
    assert (out / FID / "compare" / "s1" / "s2" / "index.html").is_file()  # the same outputs, read by another judge
    # an amendment dated after the sweep it introduces is refused at the sweep's key
    entry.write_text(entry.read_text(encoding="utf-8").replace("date: 2026-02-20", "date: 2026-02-22"), encoding="utf-8")
    assert (CONFIG, "$.sweeps[1].amendment") in _problems(site)
