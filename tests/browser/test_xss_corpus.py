"""The XSS corpus: every payload of xss_payloads.PAYLOADS planted in the untrusted fields of
every benchmark family (xss_payloads.FIELDS), one build, then three kinds of check:

- static: no built HTML, SVG or XML file carries live markup (a <script> element, an event
  handler attribute, a script URL, a frame, plugin, form, <base> or <meta http-equiv>), no raw
  payload, the Atom feeds are well-formed and their HTML content escaped, and the data files
  are served with their types and `nosniff`;
- shown: each payload and each field really reached the pages as text (a payload that was
  dropped on the way proves nothing);
- browser: every page carrying a payload, and one page of each type, loaded and interacted
  with under the site's Content-Security-Policy sent as report-only: it blocks nothing, so
  escaping alone must hold (nothing may run), and it reports every attempt the policy would
  have blocked (not one may show up).

Fields whose contract refuses markup (ids, enumerations) are checked to be refused, with a
problem naming the file and the path.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import urllib.request
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import (
    FREEZE_REL,
    REPO_ROOT,
    SWEEP_REL,
    copy_site,
    read_json,
    ref_fingerprint,
    ref_prompt_fingerprint,
    ref_rubric_fingerprint,
    ref_text_fingerprint,
    write_json,
)

from sitegen.build import build, validate
from sitegen.config import load_config
from sitegen.errors import InputError, SitegenError
from sitegen.netlify import headers_for, load_header_rules

from .conftest import CSP_REPORT_ONLY, html_pages, one_page_per_type, page_type, serve, visit
from .xss_payloads import ALL, FIELDS, JS, PAYLOADS, REFUSED, Field, fits, marker, planted

CHRONICLE_FREEZE = "data/chronicle/freeze.json"
ITEMS_REL = "data/nextchapter/items.jsonl"
LATER = "2099-01-01T00:00:00Z"  # when the planted edits are "frozen": after every real version
MARKER = re.compile(r"\bxss(\d\d)\b")
URL_ATTRS = {"href", "src", "xlink:href", "action", "formaction", "data", "poster", "srcset", "cite", "background", "to",
             "values", "from", "by", "srcdoc"}
BAD_SCHEMES = ("javascript:", "vbscript:", "data:")
FORBIDDEN_ELEMENTS = {"script", "iframe", "object", "embed", "base", "form", "frame", "frameset", "applet", "style"}
MARKUP_SUFFIXES = (".html", ".svg", ".xml")


# --------------------------------------------------------------------------- planting
#
# A plant is one payload in one field of one record: what the pages must show for it.


@dataclass(frozen=True)
class Plant:
    field: Field
    payload: int  # index into PAYLOADS

    @property
    def text(self) -> str:
        return planted(self.payload)


def _parse_path(path: str) -> list[str | int]:
    """'$.a[*].b[-1].c' -> ['a', '*', 'b', -1, 'c']."""
    steps: list[str | int] = []
    for part in path.removeprefix("$.").split("."):
        name, *indexes = part.split("[")
        if name:
            steps.append(name)
        steps += ["*" if i == "*]" else int(i.rstrip("]")) for i in indexes]
    return steps


def _slots(value, steps: list) -> list[tuple[object, object]]:
    """Every (container, key) whose value is a string, reached by STEPS from VALUE, in
    document order."""
    if not steps:
        return []
    head, rest = steps[0], steps[1:]
    if head == "*":
        keys = range(len(value)) if isinstance(value, list) else []
    else:
        keys = [head] if (isinstance(value, dict) and head in value) or isinstance(value, list) else []
    found = []
    for k in keys:
        child = value[k]
        if not rest:
            if isinstance(child, str):
                found.append((value, k))
        else:
            found += _slots(child, rest)
    return found


def _spread(items: list, n: int) -> list:
    """N of ITEMS, evenly spread (all of them when there are no more than N)."""
    if len(items) <= n:
        return items
    return [items[i * len(items) // n] for i in range(n)]


class Distributor:
    """Hands out payloads to fields in rotation, each field starting at its own offset, so every
    field gets several payloads, every payload lands in several fields, and no value exceeds
    the field's length limit."""

    def __init__(self) -> None:
        self.offset = 0

    def take(self, field: Field, count: int) -> list[int]:
        if count == ALL:
            chosen = list(range(len(PAYLOADS)))
        else:
            chosen, tried, length = [], 0, 0
            while len(chosen) < count and tried < len(PAYLOADS):
                i = self.offset % len(PAYLOADS)
                self.offset += 1
                tried += 1
                text = planted(i)
                if not fits(PAYLOADS[i], field):
                    continue
                if length + len(text) + 1 > field.max_len:
                    continue
                chosen.append(i)
                length += len(text) + 1
        chosen = [i for i in chosen if fits(PAYLOADS[i], field)]
        assert chosen, f"no payload fits {field.where}"
        return chosen

    def skip(self, n: int) -> None:
        self.offset += n


def _value(field: Field, payloads: list[int], old: str) -> str:
    if field.per_slot == ALL:
        # Long texts keep what they had after the payloads (quotations, screens and word
        # counts still find it), and put the payloads first so an excerpt shows them.
        return "\n\n".join(planted(i) for i in payloads) + "\n\n" + old
    return " ".join(planted(i) for i in payloads)


def _record_filter(name: str | None, root: Path):
    """Which records of a JSON-lines file a field is planted in."""
    if name is None:
        return lambda rec: True
    if name == "ladder-tasks":
        # The outputs of the first task of each domain: whichever model is a rung of that task's
        # ladder, its output carries the payloads.
        sweep = read_json(root, SWEEP_REL)
        firsts = {}
        for t in sweep["tasks"]:
            firsts.setdefault(t["domain"], t["id"])
        tasks = set(firsts.values())
        return lambda rec: rec["task"] in tasks
    if name == "not-judged":
        return lambda rec: rec.get("attempts", [{}])[-1].get("outcome") != "chapter"
    if name == "legacy":  # ChronicleBench's legacy anchors, which no selection record restates
        return lambda rec: rec["corpus"] == "legacy-v1.0"
    if name == "not-drawn":  # the works of ChronicleBench's candidate pool that no reference line restates
        lines = (root / "data/chronicle/reference.jsonl").read_text(encoding="utf-8").splitlines()
        drawn = {json.loads(line)["gutenberg_id"] for line in lines if line.strip()}
        return lambda candidate: candidate["gutenberg_id"] not in drawn
    raise AssertionError(f"unknown record filter {name!r}")


def _entries(doc, steps: list, container) -> list:
    """The entries of the list STEPS lead to (from DOC) that hold CONTAINER, at any depth."""
    head = doc
    for step in steps[:-1]:
        head = head[step]
    return [e for e in head if _holds(e, container)]


def _holds(value, target) -> bool:
    if value is target:
        return True
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return any(_holds(v, target) for v in children)


def plant_json_field(root: Path, field: Field, dist: Distributor) -> list[Plant]:
    path = root / field.file
    steps = _parse_path(field.path)
    if field.file.endswith(".jsonl"):
        lines = path.read_text(encoding="utf-8").split("\n")
        keep = _record_filter(field.records, root)
        recs = {i: json.loads(line) for i, line in enumerate(lines) if line.strip()}
        slots = [(i, s) for i, rec in recs.items() if keep(rec) for s in _slots(rec, steps)]
    else:
        doc = json.loads(path.read_text(encoding="utf-8"))
        keep = _record_filter(field.records, root)  # applied to the entry of the path's first list
        first = steps.index("*") + 1 if "*" in steps else None
        slots = [(None, s) for s in _slots(doc, steps)
                 if field.records is None or any(keep(entry) for entry in _entries(doc, steps[:first], s[0]))]
    slots = _spread(slots, field.slots)
    assert slots, f"{field.where}: no string there to plant in"
    plants, touched = [], set()
    for line, (container, key) in slots:
        chosen = dist.take(field, field.per_slot)
        container[key] = _value(field, chosen, container[key])
        plants += [Plant(field, i) for i in chosen]
        touched.add(line)
    if field.file.endswith(".jsonl"):
        for i in touched:
            lines[i] = json.dumps(recs[i], ensure_ascii=False)
        path.write_text("\n".join(lines), encoding="utf-8")
    else:
        path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return plants


def plant_markdown_field(root: Path, field: Field, dist: Distributor) -> list[Plant]:
    path = root / field.file
    text = path.read_text(encoding="utf-8")
    chosen = dist.take(field, field.per_slot)
    if field.kind == "frontmatter":
        key = field.path.removeprefix("front matter: ")
        value = " ".join(planted(i) for i in chosen)
        # Quoted, so a payload that starts or ends with a quote keeps it (the loader strips one
        # pair of matching quotes).
        text, n = re.subn(rf"^{key}: .*$", lambda m: f'{key}: "{value}"', text, count=1, flags=re.MULTILINE)
        assert n == 1, f"{field.file} has no {key} line"
    else:
        # Appended: shortcodes and headings earlier in the page stay where they were.
        text = text.rstrip("\n") + "\n\n" + "\n\n".join(planted(i) for i in chosen) + "\n"
    path.write_text(text, encoding="utf-8")
    return [Plant(field, i) for i in chosen]


def refreeze(root: Path) -> None:
    """Record the planted edits of frozen inputs as new frozen versions, as a maintainer would:
    a rubric's or a prompt's version is bumped in the sweep and the freeze record, the task set's
    and a Show Bible's fingerprint get a new history entry whose version the sweep then records,
    the protocol's a new history entry, a reference chapter its new SHA-256."""
    def bump(freeze: dict, kind: str, item_id: str, fingerprint: str, version: str | None = None, note: str = "", at: str = LATER) -> str:
        item = next(i for i in freeze["items"] if i["kind"] == kind and i["id"] == item_id)
        last = item["history"][-1]
        if last["fingerprint"] == fingerprint:
            return last["version"]
        version = version or last["version"] + "-xss"
        item["history"].append({"version": version, "fingerprint": fingerprint, "frozen_at": at, "note": note})
        return version

    sweep = read_json(root, SWEEP_REL)
    freeze = read_json(root, FREEZE_REL)
    for d in sweep["domains"]:
        item = next(i for i in freeze["items"] if i["kind"] == "rubric" and i["id"] == d["id"])
        if ref_rubric_fingerprint(d["rubric"]) != item["history"][-1]["fingerprint"]:
            d["rubric"]["version"] = item["history"][-1]["version"] + "-xss"
            bump(freeze, "rubric", d["id"], ref_rubric_fingerprint(d["rubric"]), d["rubric"]["version"])
    for key, prompt in sweep["prompts"].items():
        item = next(i for i in freeze["items"] if i["kind"] == "prompt" and i["id"] == key)
        if ref_prompt_fingerprint(prompt) != item["history"][-1]["fingerprint"]:
            prompt["version"] = item["history"][-1]["version"] + "-xss"
            bump(freeze, "prompt", key, ref_prompt_fingerprint(prompt), prompt["version"])
    # the sweep says it ran what is frozen now: each bump is a re-sweep here
    sweep["task_set_fingerprint"] = ref_fingerprint(sweep["tasks"])
    # frozen on the sweep's own day, after the version before: a sweep runs a version frozen by then
    sweep["task_set_version"] = bump(freeze, "task-set", "task-set", sweep["task_set_fingerprint"], at=f"{sweep['sweep']['date']}T23:59:59Z")
    for sh in sweep["shows"]:
        sh["bible_version"] = bump(freeze, "show-bible", sh["id"], ref_text_fingerprint((root / f"content/canonic/bibles/{sh['id']}.md").read_bytes()))
    write_json(root, SWEEP_REL, sweep)
    write_json(root, FREEZE_REL, freeze)

    # The judge's name is the frozen protocol's too (section 3a), and must read the same there:
    # the planted name is stated in the protocol's sentence before the protocol is refrozen.
    judge = read_json(root, "data/chronicle/cohort.json")["instrument"]["judge"]
    protocol = root / "content/chronicle/protocol.md"
    text, n = re.subn(r"The judge model is\s+(.+?)\s+at temperature", lambda m: f"The judge model is {judge} at temperature",
                      protocol.read_text(encoding="utf-8"), count=1, flags=re.S)
    assert n == 1
    protocol.write_text(text, encoding="utf-8")
    chron = read_json(root, CHRONICLE_FREEZE)
    bump(chron, "protocol", "protocol-v1.1", ref_text_fingerprint((root / "content/chronicle/protocol.md").read_bytes()))
    # the published log entries and the v1.0 archive: a correction each, recorded by the newest entry
    for item in chron["items"]:
        if item["kind"] == "log-entry":
            eid = item["id"].removeprefix("entry-").upper()
            bump(chron, "log-entry", item["id"], ref_text_fingerprint((root / f"content/chronicle/amendments/{eid}.md").read_bytes()),
                 note="Corrected as the newest entry, R1, records.")
        elif item["kind"] == "archive":
            bump(chron, "archive", item["id"], ref_text_fingerprint((root / "data/chronicle/archive-v1.0.json").read_bytes()))
    write_json(root, CHRONICLE_FREEZE, chron)

    path = root / ITEMS_REL
    lines = path.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines):
        if line.strip():
            rec = json.loads(line)
            digest = hashlib.sha256(rec["reference_chapter"].encode("utf-8")).hexdigest()
            if digest != rec["reference_sha256"]:
                rec["reference_sha256"] = digest
                lines[i] = json.dumps(rec, ensure_ascii=False)
    path.write_text("\n".join(lines), encoding="utf-8")


def plant_all(root: Path) -> list[Plant]:
    dist = Distributor()
    plants: list[Plant] = []
    # The freeze record's notes last: refreeze() appends versions, and the note must sit on the
    # version in force to be shown.
    ordered = sorted(FIELDS, key=lambda f: f.frozen == "note")
    for field in ordered:
        if field.frozen == "note":
            refreeze(root)
        dist.skip(7)  # each field starts elsewhere in the corpus
        plant = plant_markdown_field if field.kind in ("markdown", "frontmatter") else plant_json_field
        plants += plant(root, field, dist)
    if not any(f.frozen == "note" for f in FIELDS):
        refreeze(root)
    return plants


@dataclass(frozen=True)
class Corpus:
    root: Path
    out: Path
    plants: list[Plant]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, built_site) -> Corpus:
    """The site built with every payload in every field."""
    base = tmp_path_factory.mktemp("xss-corpus")
    root = copy_site(base / "site", cache_from=built_site.root)
    plants = plant_all(root)
    out = base / "out"
    try:
        build(load_config(root), out)
    except SitegenError as exc:
        pytest.fail(f"the build refused the planted inputs, so no payload got in:\n{exc}", pytrace=False)
    return Corpus(root, out, plants)


# --------------------------------------------------------------------------- reading the output


class Markup(HTMLParser):
    """What a browser would make live (elements, event handlers, script URLs), and the text it
    would show, entities decoded (attribute values too: HTMLParser decodes them)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.live: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in FORBIDDEN_ELEMENTS:
            self.live.append(f"<{tag}> element")
        for name, value in attrs:
            value = value or ""
            if tag == "meta" and name == "http-equiv":
                self.live.append(f"<meta http-equiv={value!r}>")
            if name.startswith("on"):
                self.live.append(f"<{tag} {name}=...> event handler")
            # A browser drops ASCII whitespace and control characters from a URL before it
            # reads the scheme: so does this check.
            squeezed = re.sub(r"[\x00-\x20\x7f]", "", value).lower()
            if name in URL_ATTRS and squeezed.startswith(BAD_SCHEMES):
                self.live.append(f"<{tag} {name}={value[:60]!r}>")
            if name == "style" and re.search(r"javascript:|expression\(|@import|url\(", squeezed):
                self.live.append(f"<{tag} style={value[:60]!r}>")
            if name in ("title", "aria-label", "alt", "content", "value"):
                self.text.append(" " + value + " ")  # shown to a visitor, or read out

    handle_startendtag = handle_starttag

    def handle_data(self, data):
        self.text.append(data)


def read_markup(text: str) -> Markup:
    parser = Markup()
    parser.feed(text)
    parser.close()
    return parser


def squash(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def shown_text(corpus) -> dict[str, str]:
    """Relative path of every HTML page -> the text a visitor sees on it (whitespace squashed)."""
    return {rel: squash("".join(read_markup((corpus.out / rel).read_text(encoding="utf-8")).text))
            for rel in html_pages(corpus.out)}


def markers_in(text: str) -> set[int]:
    return {int(m) for m in MARKER.findall(text)}


def output_files(out: Path, suffixes: tuple[str, ...]) -> list[Path]:
    return sorted(p for p in out.rglob("*") if p.is_file() and p.name.endswith(suffixes))


# --------------------------------------------------------------------------- static checks


def test_no_payload_becomes_markup(corpus):
    problems = []
    dangerous = [(i, p.text) for i, p in enumerate(PAYLOADS) if "<" in p.text]
    for path in output_files(corpus.out, MARKUP_SUFFIXES):
        rel = path.relative_to(corpus.out).as_posix()
        text = path.read_text(encoding="utf-8")
        if "<script" in text.lower():
            problems.append(f"{rel}: the text '<script' appears unescaped")
        problems += [f"{rel}: {item}" for item in read_markup(text).live]
        problems += [f"{rel}: payload {PAYLOADS[i].id} appears raw" for i, raw in dangerous if raw in text]
    assert not problems, f"live markup in the built site ({len(problems)}):\n" + "\n".join(problems[:60])


def test_the_feeds_are_well_formed_and_their_html_escaped(corpus):
    feeds = [p for p in output_files(corpus.out, (".xml",)) if b"http://www.w3.org/2005/Atom" in p.read_bytes()]
    assert len(feeds) >= 2, f"Atom feeds found: {[p.name for p in feeds]}"
    problems, carried = [], set()
    for path in output_files(corpus.out, (".xml",)):
        rel = path.relative_to(corpus.out).as_posix()
        try:
            tree = ET.parse(path)
        except ET.ParseError as exc:
            problems.append(f"{rel}: not well-formed XML: {exc}")
            continue
        for el in tree.iter():
            if el.get("type") == "html" and el.text:
                # The element's text is HTML once unescaped: it must hold the payloads as text.
                problems += [f"{rel} <{el.tag.split('}')[-1]}>: {item}" for item in read_markup(el.text).live]
                carried |= markers_in(el.text)
    assert not problems, "\n".join(problems[:40])
    assert carried, "no payload reached a feed's HTML content: the feed check proved nothing"


def test_the_data_files_parse_and_are_served_with_their_types(corpus):
    """CSV and JSON downloads carry payloads as data; a browser must never sniff them as HTML."""
    bad = []
    for path in output_files(corpus.out, (".json",)):
        try:
            json.loads(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            bad.append(f"{path.relative_to(corpus.out)}: {exc}")
    for path in output_files(corpus.out, (".csv",)):
        list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))
    assert not bad, bad
    rules = load_header_rules(REPO_ROOT)
    for url in ("/x.csv", "/x.json", "/x.svg", "/x/"):
        assert headers_for(rules, url).get("X-Content-Type-Options") == "nosniff", f"netlify.toml: no nosniff for {url}"
    assert headers_for(rules, "/x.csv").get("Content-Type", "").startswith("text/csv")
    # And as served: a CSV and a JSON that carry payloads.
    samples = {}
    for path in output_files(corpus.out, (".csv", ".json")):
        suffix = path.suffix
        if suffix not in samples and markers_in(path.read_text(encoding="utf-8")):
            samples[suffix] = path.relative_to(corpus.out).as_posix()
    assert set(samples) == {".csv", ".json"}, f"no payload in the downloads: {samples}"
    wanted = {".csv": "text/csv", ".json": "application/json"}
    with serve(corpus.out) as server:
        for suffix, rel in samples.items():
            with urllib.request.urlopen(server.url(rel)) as response:
                assert response.headers["Content-Type"].startswith(wanted[suffix]), (rel, response.headers["Content-Type"])
                assert response.headers["X-Content-Type-Options"] == "nosniff", rel


# --------------------------------------------------------------------------- the payloads were shown


def test_every_payload_is_shown_whole_as_text(corpus, shown_text):
    """Guards every other test: a payload dropped or mangled on the way proves nothing. Each one
    must appear, exactly as planted, as text on a page, from a field the templates escape."""
    missing = []
    for i, p in enumerate(PAYLOADS):
        # The one change allowed: a NUL becomes U+FFFD (markdown-it does this, as CommonMark
        # requires; the JSON contract refuses NUL outright, so it only reaches pages via markdown).
        want = squash(planted(i).replace("\x00", "\ufffd"))
        if not any(want in text for text in shown_text.values()):
            fields = sorted({pl.field.where for pl in corpus.plants if pl.payload == i})
            missing.append(f"{p.id} (planted in {fields})")
    assert not missing, "payloads never shown whole as text on any page:\n" + "\n".join(missing)


def test_every_field_reaches_the_output(corpus, shown_text):
    """Each field shows at least one of its payloads' markers on a page (or, for a field that is
    published only as data, in a download)."""
    on_pages = set().union(*(markers_in(t) for t in shown_text.values()))
    downloads = set().union(*(markers_in(p.read_text(encoding="utf-8")) for p in output_files(corpus.out, (".csv", ".json"))))
    problems = []
    for field in FIELDS:
        mine = {pl.payload for pl in corpus.plants if pl.field == field}
        assert len(mine) >= 1
        where = on_pages if field.shown else downloads
        if not mine & where:
            problems.append(f"{field.where}: none of {sorted(marker(i) for i in mine)} is "
                            f"{'on any page' if field.shown else 'in any download'}")
    assert not problems, "\n".join(problems)


def test_every_field_gets_several_payloads(corpus):
    per_field = {f.where: {pl.payload for pl in corpus.plants if pl.field == f} for f in FIELDS}
    few = {w: len(s) for w, s in per_field.items() if len(s) < 2}
    assert not few, f"fields with fewer than 2 payloads: {few}"


# --------------------------------------------------------------------------- refused by contract


def test_fields_that_refuse_markup_refuse_it_by_name(cached_site_copy):
    """A payload in an id, a slug or an enumeration is an input error naming its file and path."""
    root = cached_site_copy
    payload = planted(0)
    for r in REFUSED:
        path = root / r.file
        if r.file.endswith(".md"):
            text = path.read_text(encoding="utf-8")
            path.write_text(re.sub(rf"^{r.path}: .*$", f'{r.path}: "{payload}"', text, count=1, flags=re.MULTILINE), encoding="utf-8")
        else:
            doc = json.loads(path.read_text(encoding="utf-8"))
            (container, key), = _slots(doc, _parse_path(r.path))
            container[key] = payload
            path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        validate(load_config(root))
    named = {(p.file, p.path) for p in exc.value.problems}
    not_named = [r.where for r in REFUSED if (r.file, r.path) not in named]
    assert not not_named, f"refused, but without a problem naming these: {not_named}\n{exc.value}"


# --------------------------------------------------------------------------- in the browser

# Init scripts run before the page's own and are not subject to its CSP: this listener sees
# every violation, even one from the first element parsed.
WATCH_VIOLATIONS = r"""
window.__violations = [];
document.addEventListener("securitypolicyviolation", e => window.__violations.push(
  e.effectiveDirective + " " + (e.blockedURI || "inline") + " " + (e.sample || "")));
"""
# Error events, animation starts and CSP reports are queued as tasks: give them a turn.
SETTLE = ("() => new Promise(r => setTimeout(() => requestAnimationFrame(() => "
          "r({xss: window.__xss, violations: window.__violations || []})), 20))")
# The first few links in <main> whose text carries a payload marker (hovered, focused, clicked).
PAYLOAD_LINKS = r"""() => [...document.querySelectorAll("main a")]
  .map((a, i) => [a, i]).filter(([a]) => /\bxss\d\d\b/.test(a.textContent)).slice(0, 3).map(([a, i]) => i)"""
INTERACTIONS = 3
INTERACT_PAGES_PER_TYPE = 2


def browser_pages(corpus: Corpus, shown_text: dict[str, str]) -> list[str]:
    """The pages to load: one page of each type, and every page that carries a payload, except
    that of pages rendered from one template with the same payloads only the first is loaded
    (the 169 run pages of ChronicleBench differ in scores, not in where the untrusted text goes;
    the static checks read every page). Plus the standalone SVG figures that carry a payload:
    opened directly, an SVG runs its own scripts."""
    pages, seen = set(one_page_per_type(corpus.out).values()), set()
    for rel, text in sorted(shown_text.items()):
        found = frozenset(markers_in(text))
        kind = page_type((corpus.out / rel).read_text(encoding="utf-8"))
        if found and (kind, found) not in seen:
            seen.add((kind, found))
            pages.add(rel)
    svgs = [p.relative_to(corpus.out).as_posix() for p in output_files(corpus.out, (".svg",))
            if markers_in(p.read_text(encoding="utf-8"))]
    return sorted(pages) + svgs


def _exercise(page, url: str, interact: bool = True) -> tuple[list[str], int]:
    """Load URL, hover, focus and click the first links that carry payload text; return what
    ran or tried to (the canary counter, a navigation nobody asked for, a violation of the
    Content-Security-Policy, which is served report-only: it blocks nothing and reports all)
    and how many links were tried."""
    found, links = [], []
    response = visit(page, url)
    if url.endswith((".html", "/")) and CSP_REPORT_ONLY.lower() not in response.headers:
        found.append(f"{url}: served without {CSP_REPORT_ONLY}, so no violation would be reported")

    def check(when: str) -> None:
        state = page.evaluate(SETTLE)
        if state["xss"] is not None:
            found.append(f"{url}: window.__xss={state['xss']} {when}")
        found.extend(f"{url}: CSP violation {when}: {v}" for v in state["violations"])

    check("after load")
    if page.url != url:
        found.append(f"{url}: navigated by itself to {page.url}")
    if interact:
        links = page.evaluate(PAYLOAD_LINKS)[:INTERACTIONS]
        anchors = page.locator("main a")
        for n in links:
            link = anchors.nth(n)
            link.hover()
            link.focus()
            check(f"after hovering/focusing main link {n}")
        if links:
            # A click may navigate (a model's page, say): that is fine; check wherever it lands.
            anchors.nth(links[0]).click()
            page.wait_for_load_state("load")
            check(f"after clicking main link {links[0]} (now at {page.url})")
    return found, len(links)


def test_no_payload_runs_in_the_browser(corpus, shown_text, new_page):
    """Escaping alone must hold, and nothing may even try to run: the pages are served with the
    site's Content-Security-Policy as report-only, so the browser blocks nothing (a payload the
    escaping let through would run and trip the canary) and reports every violation the policy
    would have blocked (there must be none). One load per page checks both."""
    pages = browser_pages(corpus, shown_text)
    page = new_page(1280)
    page.context.add_init_script(WATCH_VIOLATIONS)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(f"{d.type}: {d.message} on {page.url}"), d.dismiss()))
    ran: list[str] = []
    tried = 0
    interacted: dict[str, int] = {}  # page type -> pages interacted with
    with serve(corpus.out, csp_report_only=True) as server:
        for rel in pages:
            kind = page_type((corpus.out / rel).read_text(encoding="utf-8")) if rel.endswith(".html") else None
            # Pages of one type share their links: hovering, focusing and clicking them on the
            # first pages of each type is enough.
            interact = kind is not None and interacted.get(kind, 0) < INTERACT_PAGES_PER_TYPE
            if interact:
                interacted[kind] = interacted.get(kind, 0) + 1
            found, n = _exercise(page, server.url(rel), interact)
            ran += found
            tried += n
    assert not ran and not dialogs, f"payloads ran or tried to ({len(ran) + len(dialogs)}):\n" + "\n".join((ran + dialogs)[:30])
    assert tried >= 10, f"only {tried} links carrying a payload were hovered, focused and clicked"
    assert len(pages) > 20, f"only {len(pages)} pages checked"


def test_the_browser_check_catches_a_payload_that_runs(new_page, tmp_path):
    """The detectors themselves: an unescaped payload is caught by the browser check (it runs,
    and the report-only policy reports it), and by the static reading; a page served without
    the report-only policy is caught too, since it could report nothing."""
    html = f'<!doctype html><title>t</title><main><p><img src=x onerror="{JS}"></p><a href="#" onmouseover="{JS}">xss01</a></main>'
    (tmp_path / "index.html").write_text(html, encoding="utf-8")
    page = new_page(1280)
    page.context.add_init_script(WATCH_VIOLATIONS)
    with serve(tmp_path, csp_report_only=True) as server:
        found, _ = _exercise(page, server.url("index.html"))
    assert any("window.__xss" in f and "after load" in f for f in found), found
    assert any("window.__xss" in f and "hovering" in f for f in found), found
    assert any("CSP violation after load: script-src-attr" in f for f in found), found
    with serve(tmp_path, netlify_headers=False) as server:
        unprotected, _ = _exercise(page, server.url("index.html"), interact=False)
    assert any(f"served without {CSP_REPORT_ONLY}" in f for f in unprotected), unprotected
    assert read_markup(html).live == ["<img onerror=...> event handler", "<a onmouseover=...> event handler"]
