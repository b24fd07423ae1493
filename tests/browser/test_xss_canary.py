"""Script payloads planted in the untrusted fields of every benchmark family (model names, model
outputs, judge rationales, amendment markdown, novel titles, chapter texts) must reach the pages
as text, never as markup.

The site is served here WITHOUT its Content-Security-Policy, so only escaping stands between a
payload and the visitor: the CSP is a second line of defence, not the first.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import (CELLS_REL, OUTPUTS_REL, copy_site, read_json, read_sweep, rewrite_cell_line, two_standard_scores,
                      write_json, write_sweep)
from sitegen.build import build
from sitegen.config import load_config
from sitegen.errors import SitegenError

from .conftest import html_pages, one_page_per_type, serve, visit

# Each sets window.__xss if it ever runs. Kept free of markdown syntax (no `*`, no `_` pairs
# around words) so a markdown field shows them verbatim.
SCRIPT_TAG = "<script>window.__xss=1</script>"
IMG_ONERROR = '<img src=x onerror="window.__xss=1">'
SVG_BREAKOUT = '"><svg onload="window.__xss=1">'
TITLE_BREAKOUT = "</title><script>window.__xss=1</script>"
MARKDOWN_LINK = "[read more](javascript:window.__xss=1)"
ALL = (SCRIPT_TAG, IMG_ONERROR, SVG_BREAKOUT, TITLE_BREAKOUT)

AMENDMENTS = "content/chronicle/amendments"
COHORT_REL = "data/chronicle/cohort.json"
REFERENCE_REL = "data/chronicle/reference.jsonl"
RUN_REL = "data/nextchapter/run.json"
CHAPTERS_REL = "data/nextchapter/chapters.jsonl"
URL_ATTRS = {"href", "src", "xlink:href", "action", "formaction", "data", "poster", "srcset", "cite"}


@dataclass(frozen=True)
class Plant:
    family: str
    field: str
    text: str  # exactly what a visitor must see where the field is shown


# --------------------------------------------------------------------------- planting


def rewrite_jsonl(root: Path, rel: str, edit, first_only: bool = True, pred=lambda rec: True) -> None:
    """Apply EDIT to the records of a JSON-lines file that satisfy PRED (the first one only by
    default), keeping every other line byte for byte."""
    path = root / rel
    lines = path.read_text(encoding="utf-8").split("\n")
    done = False
    for i, line in enumerate(lines):
        if line.strip() and not (done and first_only):
            rec = json.loads(line)
            if pred(rec):
                edit(rec)
                lines[i] = json.dumps(rec, ensure_ascii=False)
                done = True
    assert done, f"no record of {rel} to edit"
    path.write_text("\n".join(lines), encoding="utf-8")


def plant_canonic(root: Path) -> list[Plant]:
    sweep = read_sweep(root)
    name = f"Canary {IMG_ONERROR}"
    sweep["models"][0]["name"] = name
    write_sweep(root, sweep)
    # A model output shown on a score ladder: plant it in every output of the first task, so
    # whichever model is a rung of that ladder carries it. Outputs are not fingerprinted.
    task = sweep["tasks"][0]["id"]
    output = f"{SCRIPT_TAG}\n\n{SVG_BREAKOUT}\n\n{TITLE_BREAKOUT}"
    rewrite_jsonl(root, OUTPUTS_REL, lambda rec: rec.__setitem__("text", rec["text"] + "\n\n" + output),
                  first_only=False, pred=lambda rec: rec["task"] == task)
    # A judge's rationale (published with the raw records, if at all).
    line = next(i for i, x in enumerate((root / CELLS_REL).read_text(encoding="utf-8").splitlines(), 1)
                if x.strip() and two_standard_scores(json.loads(x)))
    rewrite_cell_line(root, line, lambda rec: rec["judgments"][0].__setitem__("rationale", f"{SCRIPT_TAG} {IMG_ONERROR}"))
    return [Plant("canonic", "model name", name), Plant("canonic", "model output", SCRIPT_TAG),
            Plant("canonic", "model output", SVG_BREAKOUT), Plant("canonic", "judge rationale", f"{SCRIPT_TAG} {IMG_ONERROR}")]


def plant_chronicle(root: Path) -> list[Plant]:
    # The amendment log is hand-written markdown: a body with every payload and a javascript:
    # link, and a front-matter title that tries to close <title>.
    amendment = sorted((root / AMENDMENTS).glob("*.md"))[0]
    text = amendment.read_text(encoding="utf-8")
    title = f"Canary {TITLE_BREAKOUT}"
    text, n = re.subn(r"^title: .*$", "title: " + json.dumps(title), text, count=1, flags=re.M)
    assert n == 1, f"{amendment.name} has no title line"
    body = "\n\n".join([f"Canary {p}" for p in ALL] + [f"Canary {MARKDOWN_LINK}"])
    amendment.write_text(text.rstrip("\n") + "\n\n" + body + "\n", encoding="utf-8")
    # An entrant's display name and a reference novel's title (data, not markdown).
    cohort = read_json(root, COHORT_REL)
    entrant = f"Canary {IMG_ONERROR}"
    cohort["entrants"][0]["name"] = entrant
    write_json(root, COHORT_REL, cohort)
    novel = f"Canary {SVG_BREAKOUT}"
    rewrite_jsonl(root, REFERENCE_REL, lambda rec: rec.__setitem__("title", novel))
    return [Plant("chronicle", f"amendment {amendment.stem} title", title),
            *(Plant("chronicle", f"amendment {amendment.stem} body", f"Canary {p}") for p in ALL),
            Plant("chronicle", "entrant name", entrant), Plant("chronicle", "reference novel title", novel)]


def plant_nextchapter(root: Path) -> list[Plant]:
    run = read_json(root, RUN_REL)
    name = f"Canary {TITLE_BREAKOUT}"
    run["models"][0]["name"] = name
    write_json(root, RUN_REL, run)
    chapter = f"{SCRIPT_TAG}\n\n{IMG_ONERROR}\n\n{SVG_BREAKOUT}"
    rewrite_jsonl(root, CHAPTERS_REL, lambda rec: rec.__setitem__("text", chapter + "\n\n" + rec["text"]),
                  pred=lambda rec: rec.get("outcome") == "chapter")
    return [Plant("nextchapter", "model name", name), Plant("nextchapter", "chapter text", SCRIPT_TAG),
            Plant("nextchapter", "chapter text", IMG_ONERROR)]


@pytest.fixture(scope="module")
def canary(tmp_path_factory, built_site) -> tuple[Path, list[Plant]]:
    """(the built site with payloads in every family, the payloads planted)."""
    base = tmp_path_factory.mktemp("xss")
    root = copy_site(base / "site", cache_from=built_site.root)
    plants = plant_canonic(root) + plant_chronicle(root) + plant_nextchapter(root)
    out = base / "out"
    try:
        build(load_config(root), out)
    except SitegenError as exc:
        pytest.fail(f"the build refused the planted inputs, so no payload got in:\n{exc}", pytrace=False)
    return out, plants


# --------------------------------------------------------------------------- reading the pages


class _Markup(HTMLParser):
    """What a browser would make live: elements, event-handler attributes, URL schemes; and the
    text it would show, entities decoded."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.live: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.live.append("<script> element")
        for name, value in attrs:
            if name.startswith("on"):
                self.live.append(f"<{tag} {name}=...> event handler")
            squeezed = re.sub(r"[\x00-\x20]", "", value or "").lower()
            if name in URL_ATTRS and squeezed.startswith(("javascript:", "vbscript:", "data:text/html")):
                self.live.append(f"<{tag} {name}={value!r}>")
            if name in ("title", "aria-label", "alt"):
                self.text.append(value or "")  # shown to a visitor too

    handle_startendtag = handle_starttag

    def handle_data(self, data):
        self.text.append(data)


def read_markup(path: Path) -> _Markup:
    parser = _Markup()
    parser.feed(path.read_text(encoding="utf-8"))
    parser.close()
    return parser


def test_no_payload_becomes_markup(canary):
    out, _ = canary
    problems = []
    for path in sorted(out.rglob("*.html")) + sorted(out.rglob("*.svg")) + sorted(out.rglob("*.xml")):
        rel = path.relative_to(out).as_posix()
        if "<script" in path.read_text(encoding="utf-8").lower():
            problems.append(f"{rel}: the text '<script' appears unescaped")
        problems += [f"{rel}: {item}" for item in read_markup(path).live]
    assert not problems, "live markup in the built site:\n" + "\n".join(problems[:40])


def test_every_family_shows_its_payloads_as_text(canary):
    """Guards the other tests: a payload that was dropped or mangled proves nothing."""
    out, plants = canary
    texts = {rel: " ".join("".join(read_markup(out / rel).text).split()) for rel in html_pages(out)}
    shown = {p: [rel for rel, text in texts.items() if " ".join(p.text.split()) in text] for p in plants}
    for family in sorted({p.family for p in plants}):
        mine = [p for p in plants if p.family == family]
        assert any(shown[p] for p in mine), (f"no {family} payload appears as text on any page; planted: "
                                             + "; ".join(f"{p.field}: {p.text!r}" for p in mine))
    missing = [f"{p.family} {p.field}" for p in plants if not shown[p]]
    # The fields that are published must show their payload whole; list those that are not.
    assert set(missing) <= {"canonic judge rationale"}, f"payloads not shown as text anywhere: {missing}"


def test_no_payload_runs_in_the_browser_without_the_csp(canary, new_page):
    out, _ = canary
    with_payload = [rel for rel in html_pages(out) if "__xss" in (out / rel).read_text(encoding="utf-8")]
    assert with_payload, "no page carries a payload"
    pages = sorted(set(with_payload) | set(one_page_per_type(out).values()))
    page = new_page(1280)
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(f"{dialog.type}: {dialog.message}"), dialog.dismiss()))
    ran = []
    with serve(out, netlify_headers=False) as server:
        for rel in pages:
            response = visit(page, server.url(rel))
            assert "content-security-policy" not in response.headers, "this check must run without the CSP"
            # An <img onerror> fires once the image fails: after "load", give it one more turn.
            if page.evaluate("() => new Promise(r => setTimeout(() => r(window.__xss), 0))") is not None:
                ran.append(rel)
    assert not ran and not dialogs, f"a payload ran on {ran[:10]}; dialogs: {dialogs[:5]}"


def test_the_browser_check_catches_a_payload_that_runs(new_page, tmp_path):
    """The detector itself: an unescaped payload on an unprotected page is caught."""
    (tmp_path / "index.html").write_text(f"<!doctype html><title>t</title><p>{IMG_ONERROR}</p>", encoding="utf-8")
    page = new_page(1280)
    with serve(tmp_path, netlify_headers=False) as server:
        visit(page, server.url("index.html"))
        assert page.evaluate("() => new Promise(r => setTimeout(() => r(window.__xss), 0))") == 1
    assert read_markup(tmp_path / "index.html").live == ["<img onerror=...> event handler"]
