"""A declared benchmark's prompt pages at a real benchmark's size (sitegen.families.declared.shaped:
30 models, 32 prompts, 3 iterations, two sweeps of the same 1,000-word outputs): each rationale
once on a page, every long text inside an output's <details>, every sweep's readings in a section
of its own, and the size rule (pages.PAGE_BYTES): a prompt's page that would pass it is split
into a page per model, no page of the shaped site passes it, and every summary row links an
output that exists."""

from __future__ import annotations

import json
import posixpath
import re
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from conftest import compute_family, one_family
from markupsafe import escape

from sitegen.build import build
from sitegen.config import load_config
from sitegen.families.declared import pages, shaped

FID = shaped.FID


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _esc(text: str) -> str:
    """TEXT as a page shows it (escaped as the templates escape)."""
    return str(escape(text))


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _unopened(page: str) -> str:
    """What a reader sees without opening anything: the page without its outputs' blocks."""
    return re.sub(r'<details class="judged".*?</details>', "", page, flags=re.S)


def _edit_sweep(root: Path, sid: str, edit) -> None:
    path = root / f"data/{FID}/sweep-{sid}.jsonl"
    recs = _jsonl(path)
    for r in recs:
        edit(r)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8")


@pytest.fixture(scope="module")
def full(tmp_path_factory) -> tuple[Path, Path]:
    """The shaped site at its full size, built once."""
    base = tmp_path_factory.mktemp("shaped-full")
    root, out = shaped.write_site(base / "site"), base / "out"
    build(load_config(root), out)
    return root, out


# The small site: 12 models (36 outputs a prompt, past the size with two sweeps' readings); p32's
# outputs cut to their first paragraph, so its page stays whole; and one output of p02 that
# sweep s1 holds in another text than s2, so the two sweeps' texts are shown apart.
SHORT, OTHER = "p32", ("p02", 1)


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("shaped-small")
    root, out = shaped.write_site(base / "site", models=12), base / "out"
    first = _jsonl(root / f"data/{FID}/models.jsonl")[0]["id"]

    def cut(r):
        if r["prompt"] == SHORT and "output" in r:
            r["output"] = r["output"].split("\n\n")[0]
    for sid in ("s1", "s2"):
        _edit_sweep(root, sid, cut)
    _edit_sweep(root, "s1", lambda r: r.update(output="An earlier draft, judged in sweep s1 only.")
                if (r["model"], r["prompt"], r["iteration"]) == (first, *OTHER) else None)
    build(load_config(root), out)
    return root, out


def test_no_page_of_the_real_shape_passes_the_stated_size(full):
    root, out = full
    sizes = {p.relative_to(out).as_posix(): p.stat().st_size for p in out.rglob("*.html")}
    over = {p: n for p, n in sizes.items() if n > pages.PAGE_BYTES}
    assert not over, over
    # every prompt's page is split: one page per model below it, each model's outputs there
    models = _jsonl(root / f"data/{FID}/models.jsonl")
    slugs = pages.model_slugs([type("M", (), m) for m in models])
    for p in _jsonl(root / f"data/{FID}/prompts.jsonl"):
        for m in models:
            assert f"{FID}/items/{p['id']}/{slugs[m['id']]}/index.html" in sizes, (p["id"], m["id"])
    assert "Here 32 of the 32 prompts' pages are split so." in _read(out / FID / "method/index.html")


def test_each_rationale_and_output_once_and_every_long_text_inside_its_details(full):
    root, out = full
    s1, s2 = (_jsonl(root / f"data/{FID}/sweep-{s}.jsonl") for s in ("s1", "s2"))
    key = lambda r: (r["model"], r["prompt"], r["iteration"])  # noqa: E731
    s2_by = {key(r): r for r in s2}
    slugs = pages.model_slugs([type("M", (), m) for m in _jsonl(root / f"data/{FID}/models.jsonl")])
    rationale = lambda r: r["judgments"][0].get("rationale") if r.get("judgments") else None  # noqa: E731
    every = [rationale(r) for r in s1 + s2]
    checked = 0
    for r in s1[::97]:  # about thirty items, over every prompt
        other = s2_by.get(key(r))
        if not rationale(r) or other is None or not rationale(other):
            continue
        page = _read(out / FID / "items" / r["prompt"] / slugs[r["model"]] / "index.html")
        prompt_page = _read(out / FID / "items" / r["prompt"] / "index.html")
        for text in (rationale(r), rationale(other)):
            if every.count(text) == 1:  # a rationale no other reading gave
                assert page.count(_esc(text)) == 1, (key(r), text)
                assert _esc(text) not in prompt_page
        # the output re-judged in s2 is the same text: shown once, with both sweeps' readings under it
        assert page.count(_esc(r["output"])) == 1
        block = re.search(r'<details class="judged" id="[^"]+">\n<summary>[^<]*iteration %d:.*?</details>' % r["iteration"], page, re.S)
        assert block and _esc(r["output"]) in block.group(0) and _esc(rationale(other)) in block.group(0)
        assert block.group(0).index("Sweep s2, Lark 3 (as judge)") < block.group(0).index("Sweep s1, Juniper 2")
        unopened = _unopened(page)
        assert _esc(r["output"][:200]) not in unopened and _esc(rationale(r)) not in unopened
        assert "<script" not in page and "<script" not in prompt_page
        checked += 1
    assert checked >= 20
    # a reply without scores is shown inside its output's block, with the judge's words as received
    r = next(r for r in s2 if r.get("judgments") and r["judgments"][0].get("status") == "unscored")
    page = _read(out / FID / "items" / r["prompt"] / slugs[r["model"]] / "index.html")
    assert _esc(r["judgments"][0]["reply"]) in page and _esc(r["judgments"][0]["reply"]) not in _unopened(page)


def _links(page: str) -> list[str]:
    table = page[page.index('<section aria-labelledby="sweep-'):page.index('<h2 id="outputs">')]
    return re.findall(r'<th scope="row"><a href="([^"]+)">', table)


def _resolve(out: Path, page_rel: str, href: str) -> tuple[Path, str]:
    parts = urlsplit(href)
    target = posixpath.normpath(posixpath.join(posixpath.dirname(page_rel), parts.path)) if parts.path else page_rel
    if parts.path:
        target = posixpath.join(target, "index.html") if parts.path.endswith("/") else target
    return out / target, parts.fragment


def test_a_prompt_page_past_the_size_is_split_and_its_summary_links_resolve(small):
    root, out = small
    split_rel, whole_rel = f"{FID}/items/p01/index.html", f"{FID}/items/{SHORT}/index.html"
    split, whole = _read(out / split_rel), _read(out / whole_rel)
    assert f"would pass {pages.PAGE_BYTES // 1000} kB of HTML" in split and '<details class="judged"' not in split
    assert "would pass" not in whole and whole.count('<details class="judged"') == 12 * shaped.ITERATIONS
    models = _jsonl(root / f"data/{FID}/models.jsonl")
    for rel, page in ((split_rel, split), (whole_rel, whole)):
        links = _links(page)
        rows = sum(1 for s in ("s1", "s2") for r in _jsonl(root / f"data/{FID}/sweep-{s}.jsonl") if r["prompt"] == rel.split("/")[2])
        assert len(links) == rows  # every row of both sweeps' tables links its output
        for href in links:
            target, anchor = _resolve(out, rel, href)
            assert target.is_file(), href
            assert f'id="{anchor}"' in _read(target), href
            assert target.stat().st_size < pages.PAGE_BYTES
        if page is split:
            assert {_resolve(out, rel, h)[0].parent.name for h in links} == set(pages.model_slugs([type("M", (), m) for m in models]).values())
    # the method page counts the prompts' pages split
    assert "Here 31 of the 32 prompts" in _read(out / FID / "method/index.html")


def test_the_estimate_holds_to_the_rendered_page(small):
    """The split is decided from an estimate of the page: it is never below the page it
    estimates, and not far above, on the unsplit page of short outputs and, with the size
    lifted, on a page of 36 full-length outputs."""
    root, out = small
    res = compute_family(root, FID)
    by_prompt: dict = {}
    for s in res.sweeps:
        for x in s.items:
            by_prompt.setdefault((s.id, x.item.prompt), []).append(x)
    models = {m.id: m for m in res.input.models}
    prompts = {p.id: p for p in res.input.prompts}
    estimate = pages.page_bytes(prompts[SHORT], pages.shown_outputs(res, SHORT, by_prompt, models), len(res.sweeps))
    actual = (out / FID / "items" / SHORT / "index.html").stat().st_size
    assert actual <= estimate <= 1.25 * actual, (actual, estimate)
    full_estimate = pages.page_bytes(prompts["p01"], pages.shown_outputs(res, "p01", by_prompt, models), len(res.sweeps))
    assert full_estimate > pages.PAGE_BYTES
    parts = sum(p.stat().st_size for p in (out / FID / "items" / "p01").glob("*/index.html"))
    assert parts > 0.8 * full_estimate - 12 * 12_000  # the model pages hold what the whole page would have


def test_every_sweeps_readings_each_in_its_section_current_first(small):
    root, out = small
    page = _read(out / FID / "items" / "p02" / "index.html")
    s2_at, s1_at = page.index('<h2 id="sweep-s2">'), page.index('<h2 id="sweep-s1">')
    assert s2_at < s1_at < page.index('<h2 id="outputs">')
    s2_part, s1_part = page[s2_at:s1_at], page[s1_at:page.index('<h2 id="outputs">')]
    assert "2026-11-02" in s2_part and "Lark 3 (as judge)" in s2_part and "the current sweep" in s2_part
    assert "2026-09-14" in s1_part and "Juniper 2" in s1_part and "archived" in s1_part
    assert "sweeps/s2/items.csv" in s2_part and "sweeps/s1/items.csv" not in s2_part and "sweeps/s1/items.csv" in s1_part
    # the output that s1 holds in another text: two blocks, each with its own sweep's reading
    first = _jsonl(root / f"data/{FID}/models.jsonl")[0]
    slug = pages.model_slugs([type("M", (), m) for m in _jsonl(root / f"data/{FID}/models.jsonl")])[first["id"]]
    model_page = _read(out / FID / "items" / "p02" / slug / "index.html")
    blocks = re.findall(r'<details class="judged" id="([^"]+)">\n<summary>[^<]*iteration 1:(.*?)</details>', model_page, re.S)
    assert len(blocks) == 2, [b[0] for b in blocks]
    (a_id, a), (b_id, b) = blocks
    assert a_id != b_id
    texts = {s: next(r for r in _jsonl(root / f"data/{FID}/sweep-{s}.jsonl") if (r["model"], r["prompt"], r["iteration"]) == (first["id"], *OTHER))
             for s in ("s1", "s2")}
    for block, own, other in ((a, "s2", "s1"), (b, "s1", "s2")):
        assert _esc(texts[own]["output"]) in block and _esc(texts[other]["output"]) not in block
        assert _esc(texts[own]["judgments"][0]["rationale"]) in block
        assert f"Sweep {other}," not in block
    # the summary rows of each sweep link that sweep's block
    for sid, anchor in (("s2", a_id), ("s1", b_id)):
        part = s2_part if sid == "s2" else s1_part
        assert f"#{anchor}\">{_esc(first['name'])}</a>" in part


def test_the_demo_keeps_one_page_a_prompt_with_both_sweeps(tmp_path):
    """Vignette's outputs are short: each prompt's page stays whole, each rationale on it once,
    and both sweeps' readings under each output."""
    root = one_family(tmp_path / "site", "vignette")
    out = tmp_path / "out"
    build(load_config(root), out)
    page = _read(out / "vignette/items/p01/index.html")
    assert not [p for p in (out / "vignette/items/p01").iterdir() if p.is_dir()]
    recs = {s: [r for r in _jsonl(root / f"data/vignette/sweep-{s}.jsonl") if r["prompt"] == "p01" and r.get("judgments")] for s in ("s1", "s2")}
    assert page.count('<details class="judged"') == len({(r["model"], r["iteration"]) for s in recs for r in recs[s]})
    for s, name in (("s1", "Juniper 2"), ("s2", "Lark 3 (as judge)")):
        assert page.count(f"Sweep {s}, {_esc(name)}</strong>") == len(recs[s])


def test_each_sweeps_readings_are_shown_on_its_own_criteria(tmp_path):
    """A sweep with its own criteria (here sweep s2 relabels one): each reading names the
    criteria its sweep was judged on, and each sweep's scales are stated apart."""
    root = one_family(tmp_path / "site", "vignette")
    cfg = root / "content/vignette/benchmark.toml"
    text = cfg.read_text(encoding="utf-8")
    lines = []
    for c in tomllib.loads(text)["criteria"]:
        c = {**c, "label": "Voice, read aloud"} if c["id"] == "voice" else c
        lines.append("[[sweeps.criteria]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in c.items()))
    cfg.write_text(text + "\n" + "\n".join(lines), encoding="utf-8")  # the file's last [[sweeps]] is s2
    out = tmp_path / "out"
    build(load_config(root), out)
    page = _read(out / "vignette/items/p01/index.html")
    blocks = re.findall(r'<details class="judged".*?</details>', page, re.S)
    assert blocks
    for block in blocks:
        s2 = block[block.index("Sweep s2, "):block.index("Sweep s1, ")]
        s1 = block[block.index("Sweep s1, "):]
        assert "Voice, read aloud " in s2 and "Distinct voice " not in s2
        assert "Distinct voice " in s1 and "Voice, read aloud" not in s1
    assert "Scales in sweep s2: Voice, read aloud 0–20" in page and "Scales in sweep s1: Distinct voice 0–20" in page
