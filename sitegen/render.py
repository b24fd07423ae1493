"""Pages to HTML: jinja2 with autoescape and StrictUndefined; markdown through markdown-it-py
with raw HTML off.

Authored markdown is untrusted in the same way model output is: `js-default` escapes raw
HTML and refuses javascript:/vbscript:/file:/data: links. Generated HTML reaches a page only
as a family's fragment, placed by a `{{< name >}}` line.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import re
import sys
import threading
import weakref
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import jinja2
import jinja2.bccache
import jinja2.meta
import jinja2.nodes
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markupsafe import Markup

from sitegen.errors import Problem
from sitegen.interval_chart import rank_text
from sitegen.load import MarkdownDoc, input_target
from sitegen.numbers import display

SHORTCODE = re.compile(r"^\{\{<\s*([a-z0-9][a-z0-9._-]*)\s*>\}\}\s*$")


def slugify(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug or "section"


def unique_id(env: dict, base: str) -> str:
    """`base`, or `base-2`, `base-3`... : the first not yet in env["ids"], the ids taken on the
    page so far (a page rendered in chunks shares one env; see render_markdown)."""
    taken = env.setdefault("ids", set())
    rid, n = base, 1
    while rid in taken:
        n += 1
        rid = f"{base}-{n}"
    taken.add(rid)
    return rid


def _heading_ids(md: MarkdownIt) -> None:
    """Give every heading an id from its text, so each section can be linked."""

    def rule(state) -> None:
        env = state.env if isinstance(state.env, dict) else {}
        tokens = state.tokens
        for i, tok in enumerate(tokens):
            if tok.type == "heading_open" and i + 1 < len(tokens):
                tok.attrSet("id", unique_id(env, slugify(tokens[i + 1].content)))

    md.core.ruler.push("heading_ids", rule)


def row_ids(prefix: str, keys) -> dict[str, str]:
    """A stable, page-unique id for each row of a table keyed by a model (or an entrant, an
    item): `<prefix>-<slug of the key>` (the bare slug without a prefix), so a row can be linked. Two keys can share a slug
    ('openai/gpt-5.5' and 'openai-gpt-5-5'): the first of them in sorted order keeps the plain
    slug and every other one gets 8 hex digits of its key's SHA-256. An id therefore depends
    on the keys alone, never on the order the rows are shown in."""
    ids: dict[str, str] = {}
    taken: set[str] = set()
    for key in sorted(set(keys)):
        rid = f"{prefix}-{slugify(key)}" if prefix else slugify(key)
        if rid in taken:
            rid = f"{rid}-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:8]}"
        taken.add(rid)
        ids[key] = rid
    return ids


_ALIGN = re.compile(r"^text-align:(left|right|center)$")


def _inline_text(tok) -> str:
    return "".join(c.content for c in (tok.children or []) if c.type in ("text", "code_inline"))


def _tables(md: MarkdownIt) -> None:
    """Authored tables as the generated ones are: a caption (the heading of the section the
    table sits in; a second table in one section is numbered), column headers scoped, the first
    cell of each body row a row header, alignment as a class (the site's CSP blocks the
    style="text-align:..." markdown-it writes), and the table inside a keyboard-focusable
    scroll region so a wide one scrolls by itself on a phone instead of the page."""

    def rule(state) -> None:
        # A page rendered in chunks (around its shortcodes) shares one env: a table's section
        # heading may sit in an earlier chunk, and caption numbers count over the page.
        env = state.env if isinstance(state.env, dict) else {}
        seen: dict[str, int] = env.setdefault("table_captions", {})
        tokens = state.tokens
        first_cell = in_body = False
        for i, tok in enumerate(tokens):
            if tok.type == "heading_open" and i + 1 < len(tokens):
                env["table_section"] = _inline_text(tokens[i + 1]) or tokens[i + 1].content
            elif tok.type == "table_open":
                section = env.get("table_section", "")
                base = f"table-{slugify(section)}" if section else "table"
                n = seen[base] = seen.get(base, 0) + 1
                caption = section or "Table"
                if n > 1 or not section:
                    caption += f" (table {n})" if section else f" {n}"
                tok.meta = {"caption": caption, "id": unique_id(env, base)}
            elif tok.type == "tbody_open":
                in_body = True
            elif tok.type == "tbody_close":
                in_body = False
            elif tok.type == "tr_open":
                first_cell = in_body
            elif tok.type in ("th_open", "td_open", "th_close", "td_close"):
                if tok.type.endswith("_open"):
                    style = tok.attrs.pop("style", None)
                    m = _ALIGN.match(str(style or "").replace(" ", ""))
                    if m:
                        tok.attrJoin("class", f"align-{m.group(1)}")
                    if tok.type == "th_open":
                        tok.attrSet("scope", "col")
                if first_cell:  # the row's label: a row header
                    tok.tag = "th"
                    if tok.type == "td_open":
                        tok.attrSet("scope", "row")
                    else:
                        first_cell = False

    md.core.ruler.push("table_captions", rule)

    def table_open(self, tokens, idx, options, env) -> str:
        meta = tokens[idx].meta or {"caption": "Table", "id": "table"}
        cid = escapeHtml(meta["id"])
        return (f'<div class="table-scroll" role="region" aria-labelledby="{cid}" tabindex="0">\n'
                f'<table class="md-table">\n<caption id="{cid}">{escapeHtml(meta["caption"])}</caption>\n')

    def table_close(self, tokens, idx, options, env) -> str:
        return "</table>\n</div>\n"

    md.add_render_rule("table_open", table_open)
    md.add_render_rule("table_close", table_close)


def markdown_renderer() -> MarkdownIt:
    md = MarkdownIt("js-default")
    _heading_ids(md)
    _tables(md)
    return md


@dataclass
class RenderedDoc:
    html: Markup
    problems: list[Problem]


_ID_ATTR = re.compile(r'(?<![\w-])id="([^"]*)"')


def html_ids(html: str) -> set[str]:
    """The ids an HTML text gives its elements."""
    return set(_ID_ATTR.findall(html))


def placements(md: MarkdownIt, body: str) -> dict[int, str]:
    """The `{{< name >}}` lines of a markdown body that place a section, by 0-based line:
    those outside a fenced or indented code block, as markdown-it reads the body (a line
    inside one is shown as written)."""
    found = {i: m.group(1) for i, line in enumerate(body.split("\n")) if (m := SHORTCODE.match(line))}
    if found:
        code = {i for tok in md.parse(body, {}) if tok.type in ("fence", "code_block") and tok.map for i in range(*tok.map)}
        found = {i: name for i, name in found.items() if i not in code}
    return found


def render_markdown(md: MarkdownIt, doc: MarkdownDoc, fragment: Callable[[str], Markup], known: list[str],
                    taken: set[str] = frozenset()) -> RenderedDoc:
    """Markdown to HTML, with each `{{< name >}}` line replaced by that generated fragment.
    The headings' and tables' ids are unique on the page: none is one of `taken` (the ids of
    the page's template), of a placed fragment or of another heading, in any chunk."""
    problems: list[Problem] = []
    placed = placements(md, doc.body)
    sections: dict[str, str] = {}
    first: dict[str, int] = {}
    for offset, name in placed.items():
        line = doc.body_line + offset
        if name not in known:
            names = ", ".join(known) or "none"
            problems.append(Problem(doc.source.rel, line, "", f"a known shortcode ({names})", f"{{{{< {name} >}}}}"))
        elif name in first:  # its ids would then be on the page twice
            problems.append(Problem(doc.source.rel, line, "", f"each section placed once on a page (first at line {first[name]})", f"{{{{< {name} >}}}}"))
        else:
            first[name] = line
            sections[name] = str(fragment(name))
    env: dict = {"ids": set(taken).union(*map(html_ids, sections.values()))}  # shared by the chunks (see _tables)
    parts: list[str] = []
    chunk: list[str] = []
    for offset, line in enumerate(doc.body.split("\n")):
        if offset not in placed:
            chunk.append(line)
            continue
        parts.append(md.render("\n".join(chunk), env))
        chunk = []
        parts.append(sections.get(placed[offset], ""))
    parts.append(md.render("\n".join(chunk), env))
    return RenderedDoc(Markup("".join(parts)), problems)


_H2 = re.compile(r'<h2 id="([^"]*)">(.*?)</h2>', re.S)


def contents(html: str) -> list[tuple[str, Markup]]:
    """The sections of a rendered page, for its table of contents: each <h2>'s id and its
    text without markup (already escaped)."""
    return [(i, Markup(re.sub(r"<[^>]+>", "", text))) for i, text in _H2.findall(html)]


# places_body's answers by environment and template name. An environment's templates do not
# change under it (environment() turns auto_reload off), and parsing a template to find out
# was most of an authored page's render when done for every page (10,000 one-line pages: 1.5
# of 2.5 ms a page, every page parsing page.html again).
_PLACES_BODY: "weakref.WeakKeyDictionary[jinja2.Environment, dict[str, bool]]" = weakref.WeakKeyDictionary()


def places_body(env: jinja2.Environment, name: str) -> bool:
    """Whether template `name`, or one it extends, outputs `body`: a template for authored
    pages. A generated page's template, a partial or the bare layout has no body to place,
    and rendered with an authored page's context it fails or publishes an empty page."""
    known = _PLACES_BODY.setdefault(env, {})
    if name not in known:
        known[name] = _places_body(env, name)
    return known[name]


def _places_body(env: jinja2.Environment, name: str) -> bool:
    seen: set[str] = set()
    while name not in seen:
        seen.add(name)
        try:
            ast = env.parse(env.loader.get_source(env, name)[0])
        except jinja2.TemplateNotFound:
            return False
        if "body" in jinja2.meta.find_undeclared_variables(ast):
            return True
        parent = ast.find(jinja2.nodes.Extends)
        if parent is None or not isinstance(parent.template, jinja2.nodes.Const):
            return False
        name = parent.template.value
    return False


def relative_url(target: str, from_page: str) -> str:
    """A link from one output path to another that works under any base URL.
    A target ending in '/' means that folder (its index.html); '' means this page."""
    path, _, frag = target.partition("#")
    rel = ""
    if path:
        rel = _relpath(path, posixpath.dirname(from_page) or ".")
        if path.endswith("/"):
            rel = "./" if rel == "." else rel + "/"
    return rel + (f"#{frag}" if frag else "")


def _relpath(path: str, start: str) -> str:
    """posixpath.relpath(path, start), without its cost for the usual case.

    Every link on every page comes here. relpath makes both paths absolute (os.getcwd() and
    normpath) before comparing them; for two relative paths without '..' that only drops empty
    and '.' components, since the working directory is a common prefix that cancels out.
    Anything else (an absolute path, a '..') goes to relpath itself."""
    if path.startswith("/") or start.startswith("/") or ".." in path or ".." in start:
        return posixpath.relpath(path, start)
    p = [c for c in path.split("/") if c and c != "."]
    s = [c for c in start.split("/") if c and c != "."]
    i, n = 0, min(len(p), len(s))
    while i < n and p[i] == s[i]:
        i += 1
    return "/".join([".."] * (len(s) - i) + p[i:]) or "."


FIGURE_MARK = "<!--sitegen:figure {name}-->"
_FIGURE_MARK = re.compile(r"<!--sitegen:figure ([A-Za-z0-9._/-]+)-->")


def inline_figure(name: str) -> Markup:
    """A placeholder for a figure's inline SVG. Pages render before figures are drawn (so a
    template error does not wait for the slowest stage); place_figures() fills them in.
    Untrusted text cannot forge one: it is escaped, and '<!--' does not survive escaping."""
    return Markup(FIGURE_MARK.format(name=name))


def shows_figures(html: str) -> bool:
    """Whether a rendered page has a figure to place (it waits for the figures to be drawn)."""
    return _FIGURE_MARK.search(html) is not None


def place_figures(html: str, drawn: dict) -> str:
    from sitegen.figures import inline_svg

    def sub(m: re.Match) -> str:
        name = m.group(1)
        return inline_svg(drawn[name].svg, "f-" + re.sub(r"[^a-z0-9]+", "-", name.lower()))

    return _FIGURE_MARK.sub(sub, html)


def rank_range(row) -> str:
    """A ranked row's rank range as shown: "1–4" (en dash), or "3" when best and worst agree;
    "–" for a row with no rank. The board figures write it the same way (one function)."""
    return rank_text(row.rank_best, row.rank_worst)


# The built-in theme: the pages every site has (base, page, home, downloads) and their shared
# pieces, and the stylesheet and icon they link (sitegen/theme/assets/).
PACKAGE_DIR = Path(__file__).resolve().parent
THEME_TEMPLATES = PACKAGE_DIR / "theme" / "templates"
THEME_ASSETS = PACKAGE_DIR / "theme" / "assets"


class _CompiledTemplates(jinja2.BytecodeCache):
    """Compiled templates kept in this process, by template path and source: compiling costs
    about 30 ms a template (over a second for a site's templates), and a process that builds
    many times (`sitegen serve`, a test suite) compiles each template once. jinja2 checks the
    source's checksum on every load, so an edited template is compiled again. Every
    environment() is configured alike, so compiled code never crosses configurations. At most
    MAX entries: the oldest go first.

    The templates sitegen ships (its theme's and its families') are also kept on disk, in the
    package's own __pycache__ as Python keeps the package's compiled modules, so a new process
    (every `sitegen build` in CI) does not compile them again. That folder is as trusted as
    the code beside it: whoever can write it can change sitegen itself. A site's own templates
    are never kept on disk (see environment()). As for Python's own, nothing is written under
    PYTHONDONTWRITEBYTECODE, and a folder that cannot be written is simply not used. Each file
    is named by the template, this cache's environment configuration, jinja2's version and
    the interpreter's, and jinja2 itself refuses one whose source checksum differs."""

    MAX = 1024

    def __init__(self, flavour: str, options: tuple) -> None:
        self._code: dict[str, bytes] = {}
        self._lock = threading.Lock()
        self._flavour = hashlib.sha256(repr((flavour, options, jinja2.__version__)).encode()).hexdigest()[:16]
        self._disk_dir = PACKAGE_DIR / "__pycache__" / "templates"

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None, source: str) -> jinja2.bccache.Bucket:
        bucket = super().get_bucket(environment, name, filename, source)  # (from memory, by load_bytecode)
        disk = self._disk_path(bucket.key, filename)
        if bucket.code is None and disk is not None:
            try:
                bucket.bytecode_from_string(disk.read_bytes())  # jinja2 checks the source checksum
            except Exception:  # noqa: BLE001 - unreadable or damaged: a miss, compiled again
                bucket.reset()
            if bucket.code is not None:
                self._remember(bucket.key, bucket.bytecode_to_string())
        bucket.disk = disk  # where dump_bytecode writes, if anywhere
        return bucket

    def _disk_path(self, key: str, filename: str | None) -> Path | None:
        if filename is None or not Path(filename).resolve().is_relative_to(PACKAGE_DIR):
            return None
        return self._disk_dir / f"{key}-{self._flavour}.{sys.implementation.cache_tag}.jinja"

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with self._lock:
            data = self._code.get(bucket.key)
        if data is not None:
            bucket.bytecode_from_string(data)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        data = bucket.bytecode_to_string()
        self._remember(bucket.key, data)
        disk = getattr(bucket, "disk", None)
        if disk is not None and not sys.dont_write_bytecode:
            tmp = disk.with_name(f"{disk.name}.{os.getpid()}.{threading.get_ident()}.tmp")
            try:
                disk.parent.mkdir(parents=True, exist_ok=True)
                tmp.write_bytes(data)
                tmp.replace(disk)  # whole or not at all, also with another process writing it
            except OSError:
                tmp.unlink(missing_ok=True)

    def _remember(self, key: str, data: bytes) -> None:
        with self._lock:
            self._code.pop(key, None)
            self._code[key] = data
            while len(self._code) > self.MAX:
                del self._code[next(iter(self._code))]


# The options every environment() and _sentence_env() is made with: they are part of what a
# compiled template depends on (a change of them must not reuse code compiled under others).
_PAGE_OPTIONS = dict(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                     keep_trailing_newline=True)

try:
    from markupsafe import _escape_inner  # MarkupSafe 3: the C escape behind markupsafe.escape
except ImportError:  # pragma: no cover - an older MarkupSafe: its own escape, unchanged
    _escape_inner = None


def _output_escape(value: Any) -> str:
    """What `{{ value }}` writes in a page: markupsafe.escape's text, as a str. A compiled
    template calls `escape` on every value it writes (430,000 of them in the demo's pages) and
    only ever joins what it returns, so wrapping each in a Markup, a Python-level constructor,
    was a third of rendering (the demo's family pages: 0.91 s, against 0.61 s without). Numbers
    have nothing to escape."""
    kind = type(value)
    if kind is str:
        return _escape_inner(value)
    if kind is int or kind is float:
        return str(value)
    html = getattr(value, "__html__", None)
    if html is not None:
        return html()
    return _escape_inner(str(value))


class _PageTemplate(jinja2.Template):
    """A page template whose output escape is _output_escape. The name `escape` in a compiled
    template's module is used by its output statements alone (jinja2's compiler writes it
    nowhere else); the filter `|e` and markup_join keep markupsafe's."""

    @classmethod
    def from_code(cls, environment, code, globals, uptodate=None):
        template = super().from_code(environment, code, globals, uptodate)
        if _escape_inner is not None:
            template.root_render_func.__globals__["escape"] = _output_escape
        return template
_SENTENCE_OPTIONS = dict(autoescape=False, undefined=jinja2.StrictUndefined)
_COMPILED = _CompiledTemplates("pages", tuple(sorted((k, repr(v)) for k, v in _PAGE_OPTIONS.items())))


class _SiteTemplates(jinja2.FileSystemLoader):
    """The site's templates/, serving only the templates that are inputs (load.input_target): no
    template name, `extends` or `include` reads a dot-file, or a file a symlink leads to outside
    the input folders (the build refuses such a link by name before it renders)."""

    def __init__(self, folder: Path):
        super().__init__(str(folder))
        self._root = folder.parent

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        path = Path(self.searchpath[0], *jinja2.loaders.split_template_path(template))
        if os.path.lexists(path) and input_target(self._root, path)[0] is None:
            raise jinja2.TemplateNotFound(template)
        return super().get_source(environment, template)


def environment(templates_dir: Path, family_dirs: Sequence[Path] = ()) -> jinja2.Environment:
    """The site's jinja2 environment: the site's templates/ first, then the templates each
    family ships in its package, then the built-in theme's. A site overrides any of them by
    writing a template of the same name, and needs none of its own to build. Compiled templates
    are kept in memory for the life of the process (_COMPILED), and only sitegen's own on disk,
    beside its code: jinja2's bytecode is marshalled code, and whoever can write a cache folder
    (the site's .sitegen-cache holds data only) could then run code in the build."""
    env = jinja2.Environment(
        # One environment serves one build, whose templates do not change under it: no stat of
        # every template a page extends, imports and includes on each of its renders.
        auto_reload=False,
        bytecode_cache=_COMPILED,
        loader=jinja2.ChoiceLoader([_SiteTemplates(templates_dir), *(jinja2.FileSystemLoader(str(d)) for d in (*family_dirs, THEME_TEMPLATES))]),
        **_PAGE_OPTIONS,
    )
    env.template_class = _PageTemplate
    _number_filters(env)
    env.filters["short"] = lambda h, n=12: h[:n]
    env.filters["rank_range"] = rank_range
    env.globals["inline_figure"] = inline_figure
    env.globals["row_ids"] = row_ids
    return env


_SENTENCES_COMPILED = _CompiledTemplates("sentences", tuple(sorted((k, repr(v)) for k, v in _SENTENCE_OPTIONS.items())))
_sentence_envs: dict[str, jinja2.Environment] = {}


class Sentences:
    """The macros of a family's sentences template, each called as a function that returns one
    line of plain text (whitespace runs, line breaks included, become one space). A family puts
    sentences into its outputs before any page renders (a figure's text alternative, its
    summary line, a text a paper cites, a feed entry): they are written in this template, like
    every other sentence a page shows, and the page that shows one escapes it."""

    def __init__(self, template_dir: str | Path, name: str):
        self._dir, self._name = str(template_dir), name

    def __getattr__(self, name: str) -> Callable[..., str]:
        if name.startswith("_"):
            raise AttributeError(name)
        # looked up at each use: jinja2 reloads the template when its file has changed
        macro = getattr(_sentence_env(self._dir).get_template(self._name).module, name)
        return lambda *args, **kwargs: " ".join(str(macro(*args, **kwargs)).split())


def synthetic_note() -> str:
    """The words a synthetic family's figures carry (the theme's sentences.txt)."""
    return sentences(THEME_TEMPLATES, "sentences.txt").synthetic_note()


def sentences(template_dir: str | Path, name: str) -> Sentences:
    """The Sentences of template NAME (say "canonic/sentences.txt") in a family's template
    folder, with the page environment's number filters (fmt, fmt1, thousands, pct, words)."""
    return Sentences(template_dir, name)


def _sentence_env(template_dir: str) -> jinja2.Environment:
    env = _sentence_envs.get(template_dir)
    if env is None:
        # Line breaks are kept (and then folded into spaces): a sentence may end a line of the
        # template at a tag and the next begin on the next line.
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(template_dir), bytecode_cache=_SENTENCES_COMPILED, **_SENTENCE_OPTIONS)
        _number_filters(env)
        env.globals["zip"] = zip
        _sentence_envs[template_dir] = env
    return env


_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def number_words(n: int) -> str:
    """A count in words up to ten, as a sentence writes it ("six domains"); digits above."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def _number_filters(env: jinja2.Environment) -> None:
    # Every number a page shows is rounded by numbers.display (the rule the method pages state):
    # {{ x | fmt(4) }}, {{ d | fmt(1, sign=true) }}; a missing number shows as a dash.
    env.filters["fmt"] = lambda x, places, **how: "–" if x is None else display(x, places, **how)
    env.filters["fmt1"] = lambda x: env.filters["fmt"](x, 1)
    env.filters["fmt2"] = lambda x: env.filters["fmt"](x, 2)
    env.filters["thousands"] = lambda n: f"{n:,}"
    env.filters["pct"] = lambda x: display(x, 1, times100=True) + "%"
    env.filters["words"] = number_words
    # Jinja's own round rounds half to even (7382.5 to 7382): a number rounded in a template
    # follows the site's rule too.
    env.filters["round"] = lambda x, precision=0, method="common": _round(x, precision, method)


def _round(x: float, precision: int, method: str) -> float:
    if method != "common":
        raise jinja2.TemplateRuntimeError(f"round: only the site's rounding (half away from zero) is available, not {method!r}")
    return float(display(x, precision))


def render_page(env: jinja2.Environment, template: str, path: str, context: dict[str, Any]) -> str:
    parts = list(render_parts(env, template, path, context))
    return parts[0] if len(parts) == 1 else "".join(parts)


PIECES = 65_536  # a page's pieces joined at a time


def render_parts(env: jinja2.Environment, template: str, path: str, context: dict[str, Any]) -> Iterator[str]:
    """The page's text in consecutive parts, each of up to PIECES of the template's pieces: what
    Template.render returns, never holding every piece of the page at once (a page's millions
    of small strings, the downloads page at 1000x data, took four times the page's own size
    until joined). Joined, they are render_page's text; a page too large to hold whole is
    written part by part (publish.Writer.write_pieces)."""
    # page_type names the template, so tests can pick one page of each kind
    compiled = env.get_template(template)
    link = _rooted(context["link_root"]) if "link_root" in context else _linker(path)
    ctx = compiled.new_context({**context, "page_path": path, "page_type": template.removesuffix(".html"), "link": link})
    # what Template.generate iterates, less its own generator: every piece of a page passes
    # up through each generator it is yielded from (a block, the templates it extends)
    pieces = compiled.root_render_func(ctx)
    while True:
        try:
            batch = list(islice(pieces, PIECES))
        except Exception:
            env.handle_exception()  # raises it, its traceback pointing into the template as jinja2's own
        if not batch:
            return
        yield "".join(batch)


def _rooted(root: str):
    """Links from the site's root path ROOT ("/", "/bench/"): for a page served at any address,
    as a host serves its 404 page, where a relative link would resolve against the address
    asked for."""
    return lambda target: root + ("" if target in ("", "./") else target)


def _linker(from_page: str):
    """relative_url(target, from_page) for one page, each target worked out once: a page links
    to the same few targets many times (its navigation, a method link on every row)."""
    done: dict[str, str] = {}

    def link(target: str) -> str:
        rel = done.get(target)
        if rel is None:
            rel = done[target] = relative_url(target, from_page)
        return rel

    return link
