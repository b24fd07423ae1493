"""The XSS corpus: script payloads, and the untrusted fields of every benchmark family they are
planted in (see test_xss_corpus.py).

Every payload that could execute sets a canary, `top.__xss` (top, so that a payload running
inside a frame is seen by the page too), and carries a marker, `xss07`, planted just before it
so the tests can find each payload on the pages even where markdown changed the rest of it.

A field is where a visitor's page shows untrusted text: a model's display name, a model
output, a judge's rationale, a quotation, an authored markdown page. FIELDS lists each one with
the file and JSON path (or front-matter key) it goes into, and how it is planted. Fields whose
contract refuses markup (ids, slugs, enumerations) are in REFUSED: the build must refuse them
with a problem naming the file and path.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

# The canary every executing payload runs: a counter on the top window.
JS = "top.__xss=(top.__xss||0)+1"
_B64_PAGE = base64.b64encode(f"<script>{JS}</script>".encode()).decode()


@dataclass(frozen=True)
class Payload:
    id: str
    text: str

    @property
    def single_line(self) -> bool:
        """Front-matter values are one line each: a payload with a newline cannot go there."""
        return "\n" not in self.text and "\r" not in self.text

    @property
    def control_free(self) -> bool:
        """The artifacts' text fields refuse C0 control characters (sitegen.fields): a payload
        carrying one goes into authored markdown only (test_fields and the mutation corpus
        prove the refusal)."""
        return not any(ord(c) < 32 and c not in "\t\n\r" or c == "\x7f" for c in self.text)

    @property
    def name_safe(self) -> bool:
        """A Name is one line without tabs or bidi controls."""
        return self.control_free and not any(c in self.text for c in "\t\n\r\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _corpus() -> list[Payload]:
    p = [
        # <script> in every spelling a sanitiser might miss
        ("script-plain", f"<script>{JS}</script>"),
        ("script-mixed-case", f"<ScRiPt>{JS}</sCrIpT>"),
        ("script-attributes", f'<script type="text/javascript" defer async>{JS}</script>'),
        ("script-split", f"<scr<script>ipt>{JS}</scr</script>ipt>"),
        ("script-src-data", f'<script src="data:text/javascript,{JS}"></script>'),
        # event handlers, on elements that fire them without help and with a hover/focus/click
        ("img-onerror", f'<img src=x onerror="{JS}">'),
        ("img-onerror-unquoted", f"<IMG SRC=/ oNeRrOr={JS}>"),
        ("svg-onload", f'<svg onload="{JS}">'),
        ("body-onload", f'<body onload="{JS}">'),
        ("details-ontoggle", f'<details open ontoggle="{JS}"><summary>s</summary></details>'),
        ("input-autofocus", f'<input autofocus onfocus="{JS}">'),
        ("a-onmouseover", f'<a href="#" onmouseover="{JS}" onclick="{JS}" onfocus="{JS}">hover me</a>'),
        ("video-source-onerror", f'<video><source onerror="{JS}"></video>'),
        ("marquee-onstart", f'<marquee onstart="{JS}">m</marquee>'),
        # javascript: links, in any case and with whitespace, control characters and entities
        ("js-link", f'<a href="javascript:{JS}">click</a>'),
        ("js-link-case", f'<a href="JaVaScRiPt:{JS}">click</a>'),
        ("js-link-tab", f'<a href="java\tscript:{JS}">click</a>'),
        ("js-link-entity-dec", f'<a href="&#106;avascript:{JS}">click</a>'),
        ("js-link-entity-hex", f'<a href="&#x6A;avascript:{JS}">click</a>'),
        ("js-link-entity-tab", f'<a href="jav&#x09;ascript:{JS}">click</a>'),
        ("js-link-control", f'<a href=" \x01\x0ejavascript:{JS}">click</a>'),
        ("data-html-link", f'<a href="data:text/html,<script>{JS}</script>">click</a>'),
        ("data-base64-link", f'<a href="data:text/html;base64,{_B64_PAGE}">click</a>'),
        ("vbscript-link", '<a href="vbscript:msgbox(1)">click</a>'),
        # attribute break-outs
        ("double-quote-breakout", f'"><script>{JS}</script>'),
        ("double-quote-handler", f'" autofocus onfocus="{JS}" x="'),
        ("single-quote-breakout", f"' onmouseover='{JS}' x='"),
        ("backtick-breakout", f"` onmouseover={JS} x=`"),
        # SVG
        ("svg-script", f"<svg><script>{JS}</script></svg>"),
        ("svg-xlink-href", f'<svg><a xlink:href="javascript:{JS}"><text x="9" y="9">click</text></a></svg>'),
        ("svg-animate-onbegin", f'<svg><animate onbegin="{JS}" attributeName="x" dur="1s"/></svg>'),
        ("svg-set-href", f'<svg><a><set attributeName="href" to="javascript:{JS}"/><text y="9">click</text></a></svg>'),
        # frames, plugins, navigation, forms
        ("iframe-srcdoc", f'<iframe srcdoc="&lt;script&gt;{JS}&lt;/script&gt;"></iframe>'),
        ("iframe-js-src", f'<iframe src="javascript:{JS}"></iframe>'),
        ("object-data", f'<object data="javascript:{JS}"></object>'),
        ("embed-src", f'<embed src="javascript:{JS}">'),
        ("meta-refresh", f'<meta http-equiv="refresh" content="0;url=javascript:{JS}">'),
        ("base-href", f'<base href="javascript:{JS}//">'),
        ("form-action", f'<form action="javascript:{JS}"><button>go</button></form>'),
        ("button-formaction", f'<button form="f" formaction="javascript:{JS}">go</button>'),
        # MathML
        ("math-href", f'<math href="javascript:{JS}"><mi>click</mi></math>'),
        ("math-mglyph-mxss", f'<math><mtext><table><mglyph><style><img src=x onerror="{JS}">'),
        # closing the element the field might sit in
        ("close-textarea", f"</textarea><script>{JS}</script>"),
        ("close-title", f"</title><script>{JS}</script>"),
        ("close-style", f"</style><script>{JS}</script>"),
        ("close-script", f"</script><script>{JS}</script>"),
        # comments, and the figure placeholder render.py fills in after rendering
        ("comment-close", f"--><script>{JS}</script>"),
        ("figure-placeholder", "<!--sitegen:figure canonic/figure-3-->"),
        # template syntax: data must never be evaluated as a template
        ("jinja-expression", "{{ 7*7 }} {{ cycler.__init__.__globals__ }}"),
        ("jinja-statement", '{% raw %}{% endraw %}{% include "base.html" %}'),
        ("other-templates", "${7*7} #{7*7} <%= 7*7 %>"),
        ("shortcode", "{{< canonic.worked-example >}}"),
        # markdown links and images
        ("markdown-link", f"[click](javascript:{JS})"),
        ("markdown-image", f"![x](javascript:{JS})"),
        ("markdown-autolink", f"<javascript:{JS}>"),
        ("markdown-reference-link", f"[click][xr]\n\n[xr]: javascript:{JS}"),
        ("markdown-data-link", f"[click](data:text/html;base64,{_B64_PAGE})"),
        # DOM clobbering
        ("clobber-proto", "<a id=__proto__><a id=__proto__ name=polluted>"),
        ("clobber-getelementbyid", "<form name=getElementById></form><img name=cookie>"),
        # CSS
        ("style-import", f'<style>@import url("javascript:{JS}");body{{background:url("javascript:{JS}")}}</style>'),
        ("style-attribute", f'<div style="background:url(javascript:{JS});width:expression({JS})">x</div>'),
        # unicode
        ("fullwidth-script", f"＜script＞{JS}＜/script＞"),
        ("rtl-override", f"\u202e<script>{JS}</script>\u202c"),
        ("nul-in-tag", f"<scr\x00ipt>{JS}</script>\x00<img src=x onerror=\"{JS}\">"),
    ]
    return [Payload(i, t) for i, t in p]


PAYLOADS: list[Payload] = _corpus()
assert len({p.id for p in PAYLOADS}) == len(PAYLOADS)


def marker(index: int) -> str:
    """The marker of the INDEXth payload: plain letters and digits, which neither markdown nor
    escaping changes."""
    return f"xss{index:02d}"


def planted(index: int) -> str:
    """The exact text planted for a payload: its marker, a space, the payload."""
    return f"{marker(index)} {PAYLOADS[index].text}"


# --------------------------------------------------------------------------- the fields
#
# kind: "data"        a JSON string shown as text (escaped by the templates);
#       "markdown"    an authored markdown body (escaped by markdown-it: raw HTML off);
#       "frontmatter" a front-matter value of a markdown file (one line).
# slots: how many records (or list entries) get a payload; the payloads rotate over them.
# per_slot: payloads joined into one value (short Name fields hold at most 200 characters).
# shown: False when the field is published only as downloadable data, never on a page.


def fits(payload: Payload, field: "Field") -> bool:
    """Whether the field's contract admits the payload's characters (not its markup: markup is
    what the site must escape)."""
    if field.kind == "frontmatter":
        return payload.single_line
    if field.kind == "markdown":
        return True
    return payload.name_safe if field.max_len <= 200 else payload.control_free


@dataclass(frozen=True)
class Field:
    family: str
    file: str
    path: str  # JSON path of the string ("[*]" over list entries) or "front matter: title" / "body"
    kind: str = "data"
    slots: int = 3
    per_slot: int = 1
    shown: bool = True
    frozen: str | None = None  # the freeze record the edit has to be recorded in
    max_len: int = 200  # the contract's limit (Name: 200; Text: 20,000)
    records: str | None = None  # which records of a JSON-lines file, or list entries of a JSON file (see test_xss_corpus._record_filter); None: all

    @property
    def where(self) -> str:
        return f"{self.file} {self.path}"


_C, _H, _N = "canonic", "chronicle", "nextchapter"
ALL = -1  # per_slot: every payload (long text fields hold all of them)

FIELDS: list[Field] = [
    # Canonic Stage 1
    Field(_C, "data/canonic/sweep.json", "$.models[*].name", slots=3, per_slot=2),
    Field(_C, "data/canonic/sweep.json", "$.judges[*].name", slots=2),
    Field(_C, "data/canonic/sweep.json", "$.shows[*].name", slots=4),
    Field(_C, "data/canonic/sweep.json", "$.domains[*].name", slots=6),
    Field(_C, "data/canonic/sweep.json", "$.tasks[*].premise", slots=6, frozen="task-set", max_len=2000),
    Field(_C, "data/canonic/sweep.json", "$.tasks[*].constraints[*]", slots=6, frozen="task-set", max_len=2000),
    Field(_C, "data/canonic/sweep.json", "$.tasks[*].output_form", slots=6, frozen="task-set", max_len=2000),
    Field(_C, "data/canonic/sweep.json", "$.prompts.generation.text", slots=1, per_slot=ALL, frozen="prompt", max_len=2000),
    Field(_C, "data/canonic/sweep.json", "$.prompts.judge.text", slots=1, per_slot=ALL, frozen="prompt", max_len=2000),
    Field(_C, "data/canonic/sweep.json", "$.development.models[*].label", slots=3),
    Field(_C, "data/canonic/sweep.json", "$.domains[*].rubric.dimensions[*].question", slots=6, frozen="rubric", max_len=2000),
    Field(_C, "data/canonic/sweep.json", "$.domains[*].rubric.dimensions[*].anchors[*].descriptor", slots=6, frozen="rubric", max_len=2000),
    Field(_C, "data/canonic/outputs.jsonl", "$.text", slots=78, per_slot=ALL, records="ladder-tasks"),
    Field(_C, "data/canonic/cells.jsonl", "$.judgments[*].rationale", slots=4, per_slot=ALL, max_len=2000),
    Field(_C, "data/canonic/probes.json", "$.probes[*].attack", slots=8, max_len=2000),
    Field(_C, "data/canonic/probes.json", "$.probes[*].output", slots=2, per_slot=ALL, max_len=2000),
    Field(_C, "data/canonic/probes.json", "$.probes[*].judgments[*].rationale", slots=4, per_slot=4, max_len=2000),
    Field(_C, "data/canonic/external.json", "$.name", slots=1, per_slot=2),
    Field(_C, "data/canonic/external.json", "$.source", slots=1, per_slot=6, max_len=2000),
    Field(_C, "data/canonic/external.json", "$.entries[*].name", slots=8),
    Field(_C, "data/canonic/freeze.json", "$.items[*].history[-1].note", slots=3, frozen="note", max_len=2000),
    Field(_C, "content/canonic/method.md", "front matter: title", kind="frontmatter", slots=1, per_slot=2),
    Field(_C, "content/canonic/method.md", "body", kind="markdown", slots=1, per_slot=ALL, max_len=2000),
    Field(_C, "content/canonic/bibles/friends.md", "front matter: title", kind="frontmatter", slots=1, per_slot=2, frozen="show-bible"),
    Field(_C, "content/canonic/bibles/friends.md", "body", kind="markdown", slots=1, per_slot=ALL, frozen="show-bible", max_len=2000),
    # ChronicleBench
    Field(_H, "data/chronicle/cohort.json", "$.entrants[*].name", slots=2, per_slot=3),
    Field(_H, "data/chronicle/cohort.json", "$.briefs[*].title", slots=2),
    Field(_H, "data/chronicle/cohort.json", "$.briefs[*].genre", slots=2),
    Field(_H, "data/chronicle/cohort.json", "$.boards[*].title", slots=3),
    Field(_H, "data/chronicle/cohort.json", "$.boards[*].description", slots=3, per_slot=3, max_len=2000),
    Field(_H, "data/chronicle/cohort.json", "$.cohorts[*].changelog", slots=2, per_slot=4, max_len=2000),
    Field(_H, "data/chronicle/cohort.json", "$.exhibit.description", slots=1, per_slot=4, max_len=2000),
    # stated in the frozen protocol too, which must say the same: refreeze() writes it there
    Field(_H, "data/chronicle/cohort.json", "$.instrument.judge", slots=1, per_slot=2),
    # A v1.1 novel's title and author are its candidate's in selection.json: the legacy anchors
    # carry theirs alone, and the pool's works that were not drawn carry theirs alone.
    Field(_H, "data/chronicle/reference.jsonl", "$.title", slots=6, records="legacy"),
    Field(_H, "data/chronicle/reference.jsonl", "$.author", slots=6, records="legacy"),
    Field(_H, "data/chronicle/selection.json", "$.candidates[*].title", slots=6, records="not-drawn"),
    Field(_H, "data/chronicle/selection.json", "$.candidates[*].author", slots=6, records="not-drawn"),
    Field(_H, "data/chronicle/selection.json", "$.candidates[*].exclusion.reason", slots=1, per_slot=4, max_len=2000, records="not-drawn"),
    Field(_H, "data/chronicle/runs.jsonl", "$.calls[*].request_id", slots=3),
    # (the string fields below exist only where the harness recorded one: the calls that ended
    # in an error, the reruns' first attempts, the capped judge runs, the system's release)
    Field(_H, "data/chronicle/runs.jsonl", "$.calls[*].message", slots=1, per_slot=4, max_len=2000),
    Field(_H, "data/chronicle/runs.jsonl", "$.superseded[*].message", slots=3, per_slot=2, max_len=2000),
    Field(_H, "data/chronicle/runs.jsonl", "$.superseded[*].request_id", slots=3),
    Field(_H, "data/chronicle/runs.jsonl", "$.windows[*].runs[*].cap.reason", slots=6, per_slot=2, max_len=2000),
    Field(_H, "data/chronicle/reference.jsonl", "$.windows[*].runs[*].cap.reason", slots=3, per_slot=2, max_len=2000),
    Field(_H, "data/chronicle/runs.jsonl", "$.windows[*].runs[*].evidence.hook[*].quote", slots=6, per_slot=2, max_len=300),
    Field(_H, "data/chronicle/runs.jsonl", "$.scoring.whole_book[*].evidence.dialogue[*].quote", slots=3, per_slot=2, max_len=300),
    Field(_H, "data/chronicle/reference.jsonl", "$.windows[*].runs[*].evidence.prose[*].quote", slots=3, per_slot=2, max_len=300, shown=False),
    Field(_H, "data/chronicle/cohort.json", "$.entrants[*].release.version", slots=1, per_slot=2),
    Field(_H, "data/chronicle/cohort.json", "$.entrants[*].release.gates[*].description", slots=3),
    Field(_H, "data/chronicle/archive-v1.0.json", "$.note", slots=1, per_slot=4, max_len=2000),
    Field(_H, "data/chronicle/archive-v1.0.json", "$.rows[*].entrant", slots=4),
    Field(_H, "content/chronicle/amendments/A1.md", "front matter: title", kind="frontmatter", slots=1, per_slot=2),
    Field(_H, "content/chronicle/amendments/A2.md", "front matter: title", kind="frontmatter", slots=1, per_slot=2),
    Field(_H, "content/chronicle/amendments/A3.md", "front matter: timing", kind="frontmatter", slots=1, per_slot=2),
    Field(_H, "content/chronicle/amendments/A1.md", "body", kind="markdown", slots=1, per_slot=ALL, max_len=2000),
    Field(_H, "content/chronicle/protocol.md", "body", kind="markdown", slots=1, per_slot=ALL, frozen="protocol", max_len=2000),
    # NextChapterBench
    Field(_N, "data/nextchapter/run.json", "$.models[*].name", slots=6),
    Field(_N, "data/nextchapter/run.json", "$.models[*].variants[*].note", slots=4, per_slot=3, max_len=2000),
    Field(_N, "data/nextchapter/run.json", "$.judge.name", slots=1, per_slot=2),
    Field(_N, "data/nextchapter/run.json", "$.reference.name", slots=1, per_slot=2),
    Field(_N, "data/nextchapter/run.json", "$.audition.candidates[*].name", slots=3),
    Field(_N, "data/nextchapter/run.json", "$.models[*].starting_reason", slots=3, max_len=2000),
    Field(_N, "data/nextchapter/run.json", "$.audition.writers[*].name", slots=3),
    Field(_N, "data/nextchapter/run.json", "$.audition.items[*].novel", slots=2),
    Field(_N, "data/nextchapter/run.json", "$.earlier_panel.judges[*].name", slots=3),
    Field(_N, "data/nextchapter/run.json", "$.earlier_panel.models[*].name", slots=3),
    Field(_N, "data/nextchapter/items.jsonl", "$.novel", slots=4),
    Field(_N, "data/nextchapter/items.jsonl", "$.author", slots=4),
    Field(_N, "data/nextchapter/items.jsonl", "$.source_chapter", slots=2, per_slot=ALL, max_len=2000),
    Field(_N, "data/nextchapter/items.jsonl", "$.brief.beats[*]", slots=4, max_len=2000),
    Field(_N, "data/nextchapter/items.jsonl", "$.brief.prohibitions[*]", slots=4, max_len=2000),
    Field(_N, "data/nextchapter/items.jsonl", "$.brief.end_state", slots=4, max_len=2000),
    Field(_N, "data/nextchapter/items.jsonl", "$.traps[*].fact", slots=5, max_len=2000),
    Field(_N, "data/nextchapter/items.jsonl", "$.reference_chapter", slots=1, per_slot=ALL, frozen="sha256", max_len=2000),
    Field(_N, "data/nextchapter/items.jsonl", "$.author_chapter", slots=1, per_slot=ALL, max_len=2000),
    Field(_N, "data/nextchapter/chapters.jsonl", "$.text", slots=10, per_slot=ALL, max_len=2000),
    Field(_N, "data/nextchapter/chapters.jsonl", "$.attempts[*].reason", slots=3, max_len=2000, records="not-judged"),
    Field(_N, "data/nextchapter/calls.jsonl", "$.candidate_checks[*].quote", slots=6, max_len=2000),
    Field(_N, "data/nextchapter/calls.jsonl", "$.candidate.worst_flaw", slots=4, max_len=2000),
    Field(_N, "data/nextchapter/calls.jsonl", "$.candidate.best_quality", slots=4, max_len=2000),
    Field(_N, "data/nextchapter/calls.jsonl", "$.reference.worst_flaw", slots=2, max_len=2000),
    Field(_N, "data/nextchapter/calls.jsonl", "$.author.best_quality", slots=2, max_len=2000),
    Field(_N, "content/nextchapter/method.md", "front matter: title", kind="frontmatter", slots=1, per_slot=2),
    Field(_N, "content/nextchapter/method.md", "body", kind="markdown", slots=1, per_slot=ALL, max_len=2000),
]


# Fields whose contract refuses markup: an id pattern or an enumeration. The build must refuse a
# payload there, naming the file and the path.
@dataclass(frozen=True)
class Refused:
    family: str
    file: str
    path: str  # as the problem names it
    contract: str

    @property
    def where(self) -> str:
        return f"{self.file} {self.path}"


REFUSED: list[Refused] = [
    Refused(_C, "data/canonic/sweep.json", "$.models[0].id", "a slug ^[a-z0-9][a-z0-9._/-]*$"),
    Refused(_C, "data/canonic/sweep.json", "$.shows[0].format", "one of two show formats"),
    Refused(_H, "data/chronicle/cohort.json", "$.entrants[0].id", "a slug"),
    Refused(_H, "data/chronicle/cohort.json", "$.briefs[0].profile", "a slug"),
    Refused(_N, "data/nextchapter/run.json", "$.models[0].id", "a slug"),
    Refused(_N, "data/nextchapter/run.json", "$.date", "an ISO date"),
    Refused(_H, "content/chronicle/amendments/A2.md", "id", "an amendment id ^[ACR][1-9][0-9]*$"),
    Refused(_H, "content/chronicle/amendments/A2.md", "scope", "one of four scopes"),
    Refused(_H, "content/chronicle/amendments/A4.md", "directed_by", "one of the declared roles"),
]
