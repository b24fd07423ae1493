"""The build, stage by stage. This is the only module that knows the order:

    load -> validate -> store -> compute -> render -> write -> figures -> index -> manifest -> verify -> swap

(STAGES below, the names on_stage reports.) Each stage hands a typed result to the next.
Nothing is written to the output directory until every page has rendered: files go to a
staging directory, which is re-hashed against the manifest ("verify") and replaces the
output only at the end, so a failure anywhere leaves the previous site as it was.

A rebuild reuses what the content-keyed cache (sitegen/incremental.py) holds for inputs that
did not change: a family whose declared inputs are byte-identical is neither loaded nor computed
(nor imported), and its pages are not rendered again unless the templates or the site context
changed; an authored page, unless it or a family whose sections it places changed. Every
stage is still entered (and reported) in order, and everything is written and verified, so a
rebuild's output is the cold build's, byte for byte (tests/test_incremental.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

import jinja2
import orjson
from markupsafe import Markup

from sitegen import __version__
from sitegen import figures as figures_mod
from sitegen import aggregate_scope, amendments, collector, disk_writer, incremental, numbers, publish, render, site_files, site_index
from sitegen.aggregate import find_aggregate_fields_in_text
from sitegen.clock import today as build_date
from sitegen.config import SiteConfig
from sitegen.errors import BuildError, InputError, Problem, SitegenError, short_repr
from sitegen.fields import name_fault
from sitegen.families import Outputs, Page, declared, defers, published, template_dirs
from sitegen.site_families import for_site, installed
from sitegen.load import Loaded, MarkdownDoc, SourceFile, discover, input_bytes, input_problems, read_markdown, rel_path

CACHE_DIR = incremental.CACHE_DIR

# The stages, in the order build() runs them and reports them to on_stage.
STAGES = ("load", "validate", "store", "compute", "render", "write", "figures", "index", "manifest", "verify", "swap")
# Also timed in BuildResult.seconds, though not stages (nothing can fail there that loses
# output): hashing the inputs and answering a no-op before them, saving cache entries after.
KEY_STEP, SAVE_STEP = incremental.KEY_STEP, incremental.SAVE_STEP
# Also in BuildResult.seconds, across the stages it happens in: the time spent writing files,
# and apart from it the writer process's checks of them (publish.Writer).
WRITING = "writing (all stages)"
WRITING_CPU = "writing, CPU (all stages)"  # the processor's part of WRITING
WRITER_CHECKS = "checking written files (all stages)"


@dataclass
class BuildResult:
    out_dir: Path | None
    pages: int
    files: int
    seconds: dict[str, float] = field(default_factory=dict)
    up_to_date: bool = False  # out_dir already held this very build: nothing was done
    # What the user must know though the build succeeded (the cache could not be used or
    # saved), one line each; the CLI prints them on stderr.
    warnings: list[str] = field(default_factory=list)


def _no_hook(stage: str) -> None:
    return None


@dataclass
class Intake:
    """What the load stage read: the authored pages, and for each family either its validated
    input (and the files it read) or, when the cache holds its result, that cache entry."""

    loaded: Loaded
    docs: list[MarkdownDoc]
    inputs: dict[str, Any] = field(default_factory=dict)
    read: dict[str, list[SourceFile]] = field(default_factory=dict)
    cached: dict[str, dict] = field(default_factory=dict)
    # The text of every family's amendment log as read by this build: what the tokens its pages
    # and feeds hold for them are replaced by as they are written (sitegen.amendments)
    texts: amendments.Texts = field(default_factory=lambda: amendments.Texts({}, {}, {}))


def _load(config: SiteConfig, keys: dict[str, str] | None = None, cache: incremental.Cache | None = None) -> Intake:
    """With a cache and the families' keys, a family whose entry is there is not read again.
    Every family's amendment log is read for its text, and checked, either way."""
    root = config.root
    loaded = Loaded()
    # Whatever reads them, and whether or not the cache holds the families' results.
    loaded.problems.extend(input_problems(root, incremental.INPUT_PARTS))
    # content/<family>/ belongs to that family: not published at all when the family is not
    # enabled, and not rendered as plain pages when the family renders it itself.
    families = {**installed(), **for_site(root, config.families)}
    claimed = tuple(f"content/{f.content_dir}/" for f in families.values() if f.content_dir)
    claimed += tuple(f"content/{fid}/" for fid in installed() if fid not in config.families)
    # and so does a declared family's folder (content/<id>/benchmark.toml) when it is not enabled
    claimed += tuple(f"content/{fid}/" for fid in declared.found(root) if fid not in config.families)
    # and every family's amendment log, read by the family itself (sitegen.amendments)
    claimed += tuple(f"{amendments.log_dir(fid)}/" for fid in config.families)
    paths = [p for p in discover(root, "content", (".md",)) if not rel_path(root, p).startswith(claimed)]
    docs = [d for p in paths if (d := read_markdown(root, p, loaded, config.limits.max_file_bytes))]
    # The site's own prose speaks for every family it publishes: held to the rule when one of
    # them forbids an aggregate (aggregate_scope).
    prose_checked = bool(aggregate_scope.guarded({fid: families[fid] for fid in config.families if fid in families}))
    for d in docs:
        if "title" not in d.meta:
            loaded.problems.append(Problem(d.source.rel, 1, "title", "a title in the front matter", "none"))
        elif fault := name_fault(d.meta["title"]):  # a title names its page on every list of pages
            loaded.problems.append(Problem(d.source.rel, d.meta_lines["title"], "title", fault[0].replace("a name", "a title", 1), fault[1]))
        for i, line in enumerate(d.body.split("\n") if prose_checked else ()):
            for name in find_aggregate_fields_in_text(line):
                loaded.problems.append(Problem(d.source.rel, d.body_line + i, "", "no cross-domain aggregate field in published text", name))
    intake = Intake(loaded, docs)
    today = build_date()
    for fid in config.families:
        entry = cache.get(f"families/{fid}", keys[fid]) if cache is not None and keys is not None else None
        # A result whose inputs were dated on or before the build's date when it was cached, but
        # hold a date after today's build date (SOURCE_DATE_EPOCH set back), would skip the check
        # that refuses a future date: it is a miss.
        if _is_family_entry(entry) and dated_until({fid: entry["outputs"]}) <= today:
            intake.cached[fid] = entry
            loaded.files.extend(entry["files"])
            continue
        first = len(loaded.files)
        intake.inputs[fid] = families[fid].load(root, loaded, config.limits)
        intake.read[fid] = _declared_reads(families[fid], loaded.files[first:])
    # A family's result is keyed on its log's front matter, not its text: the text is read, and
    # checked, on every build, and a cached family's log files are listed as they are now.
    intake.texts = amendments.read_texts(root, config.families, loaded, config.limits, render.markdown_renderer())
    for fid in config.families:
        if (log_check := getattr(families[fid], "log_check", None)) is not None:
            log_check(root, loaded, config.limits)
    now = intake.texts.files
    for fid, entry in intake.cached.items():
        entry["files"] = [now.get(f.rel, f) for f in entry["files"]]
    loaded.files[:] = [now.get(f.rel, f) for f in loaded.files]
    return intake


def dated_until(outputs: dict[str, Outputs]) -> str:
    """The latest date the families' inputs hold, as their summaries give it (YYYY-MM-DD; "" when
    none does). A summary whose date is not a date string is taken as dated in the future, so
    that nothing cached from it skips a check."""
    dates = [o.summary.get("dated_until", "") for o in outputs.values()]
    return max((d if isinstance(d, str) else "9999-12-31" for d in dates), default="")


def _is_family_entry(entry: Any) -> bool:
    return (isinstance(entry, dict) and entry.keys() == {"outputs", "files"} and isinstance(entry["outputs"], Outputs)
            and isinstance(entry["files"], list) and all(isinstance(f, SourceFile) for f in entry["files"]))


def _family(config: SiteConfig, fid: str):
    """The family `fid` of this site (installed, or declared by its configuration file)."""
    return for_site(config.root, config.families)[fid]


def _guarded(config: SiteConfig) -> set[str]:
    """The site's families whose protocol forbids an aggregate (aggregate_scope)."""
    return aggregate_scope.guarded(for_site(config.root, config.families))


def _title_source(config: SiteConfig, fid: str) -> tuple[str, str]:
    """Where a family's title (and id) is written: a declared benchmark's in its benchmark.toml."""
    family = _family(config, fid)
    if isinstance(family, declared.Declared):
        return f"content/{fid}/{declared.CONFIG_NAME}", "$.title"
    return "pyproject.toml", "$.tool.sitegen.families"


def _checked_paths(config: SiteConfig, docs: list[MarkdownDoc], outputs: dict[str, Outputs]) -> set[str]:
    """The output paths the writer checks for aggregate fields (aggregate_scope.checked_paths)."""
    owner = {name: fid for fid, o in outputs.items() for name in o.fragments}
    md = render.markdown_renderer()
    placed = [(doc_output_path(d.source.rel), [owner[n] for n in render.placements(md, d.body).values() if n in owner]) for d in docs]
    return aggregate_scope.checked_paths(outputs, _guarded(config), placed)


def _template_dirs(config: SiteConfig) -> list[Path]:
    """The template folders the site's families ship in their packages, after templates/."""
    return template_dirs(for_site(config.root, config.families).values())


def _declared_reads(family, files: list[SourceFile]) -> list[SourceFile]:
    """`files`, the files `family` read, when its declared inputs cover every one: a file
    read outside them would escape its cache key (a bug in the family, whatever the input)."""
    fid, inputs = family.id, family.inputs
    stray = sorted({f.rel for f in files if not incremental.covers(inputs, f.rel)})
    if stray:
        raise BuildError(f"the {fid} family read {', '.join(stray)}, outside its declared inputs ({', '.join(inputs)})")
    return files


def _store(config: SiteConfig, inputs: dict):
    """A DuckDB connection holding the tables of every family in `inputs` (the caller closes
    it); None when none of them computes in DuckDB (DuckDB is then not even imported)."""
    if not any(getattr(_family(config, fid), "needs_store", True) for fid in inputs):
        return None
    from sitegen import store

    db = store.connect()
    try:
        for fid in inputs:
            _family(config, fid).store(db, inputs[fid])
    except BaseException:
        db.close()
        raise
    return db


def _compute(config: SiteConfig, inputs: dict) -> dict:
    """Store and compute in one call (validate and `sitegen verify` need no stage between)."""
    db = _store(config, inputs)
    try:
        return {fid: _family(config, fid).compute(db, inputs[fid]) for fid in inputs}
    finally:
        if db is not None:
            db.close()


def _family_outputs(config: SiteConfig, intake: Intake, compute: Callable[[str], Any], cache: incremental.Cache | None,
                    digest: dict[str, str] | None, keys: dict[str, str] | None,
                    made: Callable[[Outputs], None] = lambda o: None) -> tuple[dict[str, Outputs], Callable[[str], Outputs], dict]:
    """Every family's Outputs, in the configured order: computed ones (`compute(fid)`, its
    result; queued for the cache, split by _light), and cached ones as the cache holds them,
    without their page contexts; `made(o)` is called with each as soon as it is made (a build
    hands its figures to be drawn while the next family computes). Also `full(fid)`: the
    family's Outputs with its page contexts, which for a cached family means loading and
    computing it again (only when its pages or sections must be rendered); and the results of
    the families computed."""
    outputs: dict[str, Outputs] = {}
    results: dict = {}
    for fid in config.families:
        if fid in intake.cached:
            outputs[fid] = intake.cached[fid]["outputs"]
            made(outputs[fid])
            continue
        results[fid] = compute(fid)
        outputs[fid] = published(_family(config, fid), results[fid], render.synthetic_note)
        made(outputs[fid])
        if cache is not None and not defers(outputs[fid]):  # a deferred table or page is not data to keep
            entry = incremental.family_entry(digest, intake.read[fid], _light(outputs[fid]))
            if entry:
                cache.put(f"families/{fid}", keys[fid], entry)
    guarded = _guarded(config)
    if problems := aggregate_scope.header_problems(config.title, outputs, guarded, lambda fid: _title_source(config, fid)):
        raise InputError(problems)
    complete = {fid: o for fid, o in outputs.items() if fid not in intake.cached}

    def full(fid: str) -> Outputs:
        if fid not in complete:
            complete[fid] = _fresh_outputs(config, fid, intake.cached[fid]["files"])
        return complete[fid]

    return outputs, full, results


def _fresh_outputs(config: SiteConfig, fid: str, files: list[SourceFile]) -> Outputs:
    """One family's Outputs computed from its inputs, outside the stages (a cached family whose
    pages must be rendered again), which must be the `files` its cached result was made from:
    its pages may not show other inputs than its tables."""
    loaded = Loaded()
    inp = _family(config, fid).load(config.root, loaded, config.limits)
    if loaded.problems:
        raise InputError(loaded.problems)
    if {(f.rel, f.sha256) for f in _declared_reads(_family(config, fid), loaded.files)} != {(f.rel, f.sha256) for f in files}:
        raise BuildError(f"the inputs of the {fid} family changed during the build; nothing was published (build again)")
    return published(_family(config, fid), _compute(config, {fid: inp})[fid], render.synthetic_note)


def validate(config: SiteConfig, *, cache: bool = True) -> list[str]:
    """Every check a build makes, without drawing figures or writing anything; returns what the
    user must know though the inputs are valid (the cache could not be read). Raises InputError
    with every problem.

    With `cache`, the build cache is read as a build reads it and never written: a family, or
    a page, whose key holds there passed these same checks with these same inputs and code,
    and is not checked again (the cache may skip work, never a check). Entries found are marked
    recently used; none is added."""
    return checked_outputs(config, cache=cache)[1]


def compute(config: SiteConfig) -> dict:
    """Every check `validate` makes, from the inputs alone (no cache), and each family's results."""
    return _checked(config, None)[0]


def checked_outputs(config: SiteConfig, *, cache: bool = True) -> tuple[dict[str, Outputs], list[str]]:
    """Every check `validate` makes, with the cache read as validate reads it, and every
    family's Outputs (a family whose cache entry holds them, as the entry holds them: tables,
    figure data, texts, summary; pages without their contexts); and the warnings validate
    would give. What `sitegen paper` publishes from."""
    warnings: list[str] = []
    outputs = _checked(config, _cache_for(config, warnings, "checked") if cache else None)[1]
    return outputs, warnings


def _checked(config: SiteConfig, cached: tuple | None) -> tuple[dict, dict[str, Outputs]]:
    """validate's checks, with the cache `cached` (_cache_for) or none; the results of the
    families computed (every family, without a cache), and every family's Outputs. Computed
    results are queued for the cache as a build queues them, but nothing here saves them."""
    store_, digest, keys = cached if cached else (None, None, None)
    with collector.working():
        intake = _load(config, keys, store_)
        if intake.loaded.problems:
            raise InputError(intake.loaded.problems)
        outputs, full, results = _family_outputs(config, intake, _compute(config, intake.inputs).__getitem__, store_, digest, keys)
        checked = numbers.check_finite({fid: outputs[fid] for fid in results})
        for fid in results:  # a table its family makes when written is made here to be checked
            for t in outputs[fid].tables:
                numbers.table_rows(t)
        try:
            _render(config, intake.docs, outputs, None, _render_keys(config, store_, digest, keys), full,
                    _aggregate_check(config, intake, outputs), checked=checked)
            # the build's refusal at its index stage, of what the shared files would show
            aggregate_scope.refuse_contributions({fid: _placed(o, intake.texts) for fid, o in outputs.items()}, _guarded(config),
                                                 disk_writer.AggregateFieldError)
        except disk_writer.AggregateFieldError as exc:
            raise _located(config, intake, exc) from None
    return results, outputs


def _aggregate_check(config: SiteConfig, intake: Intake, outputs: dict[str, Outputs]) -> Callable[[str, str], None]:
    """`emit(path, html)` for validate's _render: each page the build's writer would check for
    aggregate fields, checked as it checks it (its amendment text placed), so that a name its
    pages show is refused by validate in the build's words; and the family's own files."""
    paths = _checked_paths(config, intake.docs, outputs)
    for fid, o in outputs.items():
        for rel, data in _placed(o, intake.texts).files.items():
            if rel in paths:
                disk_writer.check_no_aggregate(rel, data)

    def emit(path: str, html: str) -> None:
        if path in paths:
            html = intake.texts.place(html)
            disk_writer.check_no_aggregate(path, html.encode("utf-8"), html)

    return emit


def _located(config: SiteConfig, intake: Intake, exc: disk_writer.AggregateFieldError) -> SitegenError:
    """A generated file's aggregate field as the problems of the input values it comes from (the
    same in validate and build), or the build's error itself when no input value holds it."""
    guarded = _guarded(config)
    files = {fid: [f.rel for f in (intake.read[fid] if fid in intake.read else intake.cached[fid]["files"])]
             for fid in config.families if fid in guarded}
    problems = aggregate_scope.shown_value_problems(config.root, files, exc.fields)
    return InputError(problems) if problems else exc


def _cache_for(config: SiteConfig, warnings: list[str], done: str = "built") -> tuple[incremental.Cache, dict[str, str], dict[str, str]] | None:
    """The build cache of the site, the digest of its inputs and each family's key; None (and
    a warning saying why) when the cache folder cannot hold a cache."""
    if unusable := incremental.unusable(config.root):
        warnings.append(f"the build cache {CACHE_DIR}/ {unusable}: {done} without it")
        return None
    digest = incremental.digest_inputs(config.root)
    limits = config.limits.model_dump(mode="json")
    # an amendment log's entries by their front matter (sitegen.amendments)
    fronts = amendments.front_matter_keys(config.root, digest, config.families)
    keys = {fid: incremental.family_key(digest, fid, _family(config, fid).inputs, limits, fronts) for fid in config.families}
    return incremental.Cache(config.root), digest, keys


def _render_keys(config: SiteConfig, store_: incremental.Cache | None, digest, keys) -> RenderKeys | None:
    if store_ is None:
        return None
    # a family's templates shipped inside sitegen's own package are part of its code (code_key)
    templates = incremental.key_of(incremental.code_key(), {r: h for r, h in digest.items() if r.startswith("templates/")},
                                   [incremental.digest_tree(d, [""]) if not incremental.in_code(d) else str(d) for d in _template_dirs(config)])
    return RenderKeys(store_, keys, templates)


# The files the site as a whole publishes besides its pages, claimed before any family's
# (reserved whether or not this build writes them: no base URL, no sitemap).
SITE_FILES = {
    "manifest.json": "the manifest", site_index.SUMS_FILE: "the site's SHA256SUMS", site_index.FEED_FILE: "the site's Atom feed",
    site_index.SITEMAP_FILE: "the sitemap", site_index.ROBOTS_FILE: "robots.txt", site_index.DOWNLOADS_PAGE: "the downloads page",
    "releases.json": "the site's releases", "releases/index.html": "the releases page",
}
ASSET_SUFFIXES = (".css", ".svg", ".png", ".woff2", ".ttf", ".ico", ".js", ".txt")


def _assets(root: Path) -> list[tuple[str, Callable[[], bytes]]]:
    """(output path, its bytes when called) of every asset: the site's assets/, and the built-in
    theme's (render.THEME_ASSETS) where the site has no file of the same name, in path order."""
    site = {rel_path(root, p): (lambda p=p: input_bytes(root, p)) for p in discover(root, "assets", ASSET_SUFFIXES)}
    theme = {f"assets/{p.name}": p.read_bytes for p in sorted(render.THEME_ASSETS.iterdir()) if p.suffix in ASSET_SUFFIXES}
    return sorted({**theme, **site}.items())


def _claim_outputs(config: SiteConfig, docs: list[MarkdownDoc], outputs: dict[str, Outputs]) -> list[Problem]:
    """Every output path the build will write, claimed once (see publish.OutputPaths): the
    site's own files, each family's pages, tables, figures, raw copies and files, the assets,
    then the authored pages, so that a markdown file taking a generated page's path is the
    file the problem names."""
    claims = publish.OutputPaths()
    for rel, what in SITE_FILES.items():
        claims.claim(rel, publish.Claimant("pyproject.toml", what))
    for fid in outputs:
        claims.claim(site_index.archive_path(fid), publish.Claimant("pyproject.toml", f"the {fid} archive"))
    for fid, o in outputs.items():
        title = o.summary.get("title", fid)
        folder = _family(config, fid).inputs[0]  # its data folder, where a problem of its outputs points
        for p in o.pages:
            claims.claim(p.path, publish.Claimant(folder, f'the {title} page "{p.title}"'))
        for t in o.tables:
            for suffix in publish.TABLE_SUFFIXES:
                claims.claim(t.stem + suffix, publish.Claimant(folder, f'the {title} table "{t.title}"'))
        for f in o.figures:
            for suffix in publish.FIGURE_SUFFIXES:
                claims.claim(f.name + suffix, publish.Claimant(folder, f"the {title} figure {f.name}"))
        for rel in o.raw_files:
            claims.claim(f"raw/{rel}", publish.Claimant(folder, f"the {title} copy of {rel}"))
        for rel in o.files:
            claims.claim(rel, publish.Claimant(folder, f"the {title} file {rel}"))
    for rel, _read in _assets(config.root):
        claims.claim(rel, publish.Claimant(rel, f"the asset {rel}"))
    for d in docs:
        claims.claim(doc_output_path(d.source.rel), publish.Claimant(d.source.rel, d.source.rel))
    return claims.problems


def doc_output_path(rel: str) -> str:
    """content/index.md -> index.html; content/canonic/method.md -> canonic/method/index.html."""
    stem = rel.removeprefix("content/").removesuffix(".md")
    if stem == "index" or stem.endswith("/index"):
        return stem + ".html"
    return stem + "/index.html"


# Sections of the site as a whole that an authored page may place: drawn from every family's
# summary, which is part of the site context every page's cache key holds.
SITE_SECTIONS = {"site.results": ("_results.html", {})}


@dataclass(frozen=True)
class RenderKeys:
    """What rendered pages depend on besides their own family's result (see incremental.py)."""

    cache: incremental.Cache
    families: dict[str, str]  # family id -> its key
    templates: str  # the key of templates/ and the generator's code


# A family's rendered pages are kept in the cache as one entry while they are at most this
# large: a larger family (Canonic at 100x data: 2.4 GB of HTML) would cost a rebuild more to
# read back, and a build its memory to hold, than rendering it again.
PAGE_CACHE_BYTES = 256 * 2**20


def _render(config: SiteConfig, docs: list[MarkdownDoc], outputs: dict[str, Outputs], env=None,
            keys: RenderKeys | None = None, full: Callable[[str], Outputs] | None = None,
            emit: Callable[[str, str], None] | None = None, checked: numbers.Checked | None = None,
            take: Callable[[str, str, str], bool] | None = None, logs: dict[str, str] | None = None,
            mark: Callable[[str, str], None] | None = None, release=None) -> list[str]:
    """Render every page, handing each to `emit(path, html)` as soon as it is rendered (none:
    rendered, checked and dropped, as validate does), so that a build holds one page at a
    time, not the site; the output paths of them all, sorted. Authored pages' problems (an
    unknown shortcode, a template that does not exist) are InputErrors naming the markdown
    file, with every output path claimed twice (_claim_outputs: validate and build both come
    here); they are all raised before any family's page is rendered.

    With `keys`, a family's pages come from the cache when its result, the templates, the site
    context and the code are unchanged, and an authored page when its own file and the families
    whose sections it places are; what is rendered goes into the cache (a family's pages while
    they fit PAGE_CACHE_BYTES). `full(fid)` gives a family's Outputs with its page contexts and
    sections, which a family taken from the cache leaves out of `outputs` (see _light) and reads
    only for pages it must render again.

    `take(group, key, path)` (publish.Writer.take, in a build with the cache): a family's pages
    made from the same key as the output being replaced are linked from it, neither read from
    the cache nor rendered (nor computed, for a family whose pages outgrow the cache). A page
    that shows the family's amendment log holds tokens for its text, placed as it is written
    (sitegen.amendments): its final bytes are made from the log's files too (`logs`: fid ->
    amendments.Texts.digests), and it is taken only when they are unchanged as well.
    `mark(group, key)` (publish.Writer.mark) records what each group is made from, taken or not."""
    env = env or render.environment(config.root / "templates", _template_dirs(config))
    full = full or outputs.__getitem__
    emit = emit or (lambda path, html: None)
    site = _site_context(config, outputs, release)
    site_key = incremental.key_of(site)

    def key(owner: str, key_parts: tuple) -> str:
        return incremental.key_of("pages", owner, keys.templates, site_key, *key_parts)

    problems = _claim_outputs(config, docs, outputs)
    owner = {name: fid for fid, o in outputs.items() for name in o.fragments}  # section -> family
    known = sorted([*owner, *SITE_SECTIONS])

    def section(name: str) -> tuple:
        return SITE_SECTIONS[name] if name in SITE_SECTIONS else full(owner[name]).fragments[name]

    md = render.markdown_renderer()
    authored: dict[str, str] = {}
    for d in docs:
        # An authored page depends on the families whose generated sections it places.
        used = sorted(set(render.placements(md, d.body).values()))
        needs = sorted({(owner[n], keys.families[owner[n]]) for n in used if n in owner}) if keys else []
        try:
            if keys is None:
                authored.update(_render_doc(env, md, site, d, section, known))
                continue
            k = key("authored", (d.source.rel, d.source.sha256, needs))
            html = keys.cache.get("pages/authored", k)
            if html is None:
                html = _render_doc(env, md, site, d, section, known)
                keys.cache.put("pages/authored", k, html, incremental.KEEP_PER_KIND * max(1, len(docs)))
            authored.update(html)
        except InputError as e:
            problems.extend(e.problems)
    if problems:
        raise InputError(problems)

    paths = list(authored)
    for fid in outputs:
        k = key(fid, (keys.families[fid],)) if keys else None
        taken: set[str] = set()
        if k and take:
            # the final bytes of a page (figures and the log's text placed) are made from its
            # family's pages key too, and those of a page that shows the log from its files as
            # well; which pages show it is known from their rendering (a page of the same key)
            shown = keys.cache.get(f"pages-log/{fid}", k)  # {path: HTML, or None past PAGE_CACHE_BYTES} of the pages with tokens
            shown = shown if isinstance(shown, dict) else None
            with_log = incremental.key_of(k, (logs or {}).get(fid, ""))
            if mark is not None:  # every page is made from these, taken or rendered, whichever group it is in
                mark(f"pages/{fid}", k)
                mark(f"pages/{fid}/log", with_log)
            for p in outputs[fid].pages:
                log_page = shown is None or p.path in shown
                if take(f"pages/{fid}/log", with_log, p.path) if log_page else take(f"pages/{fid}", k, p.path):
                    taken.add(p.path)
            # when only pages with tokens are left (the log's text edited), they are in that small entry
            if shown is not None and all(p.path in taken or shown.get(p.path) is not None for p in outputs[fid].pages):
                for path, html in shown.items():
                    if path not in taken:
                        emit(path, html)
                        taken.add(path)
        paths += taken
        if taken and len(taken) == len(outputs[fid].pages):
            continue
        hit = keys.cache.get(f"pages/{fid}", k) if keys else None
        if hit is not None:
            for path, html in hit.items():
                if path not in taken:
                    emit(path, html)
                    paths.append(path)
            keys.cache.put(f"pages-log/{fid}", k, _log_pages(hit.items()))
            continue
        kept: dict[str, str] | None = {} if keys and not taken else None
        size = 0
        log_pages: list[tuple[str, str]] | None = [] if keys and not taken else None
        for p in full(fid).pages:
            if p.path in taken:
                continue
            if callable(p.context):  # made now, and checked as check_finite checks the rest
                p = replace(p, context=p.context())
                (checked or numbers.Checked()).context(fid, p.path, p.context)
            html = _page_html(env, site, p)
            emit(p.path, html)
            paths.append(p.path)
            if log_pages is not None and amendments.TOKEN in html:
                log_pages.append((p.path, html))
            if kept is not None:
                kept[p.path] = html
                size += len(html)
                if size > PAGE_CACHE_BYTES:
                    kept = None
        if kept is not None:
            keys.cache.put(f"pages/{fid}", k, kept)
        if log_pages is not None:
            keys.cache.put(f"pages-log/{fid}", k, _log_pages(log_pages))
    for path, html in authored.items():
        emit(path, html)
    return sorted(paths)


def _log_pages(pages) -> dict[str, str | None]:
    """Of a family's (path, HTML), those that show its amendment log (hold its tokens), by path,
    with their HTML while it adds up to at most PAGE_CACHE_BYTES (then None: a log shown on
    every page of a large family is not kept twice)."""
    out: dict[str, str | None] = {}
    size = 0
    for path, html in pages:
        if amendments.TOKEN in html:
            size += len(html)
            out[path] = html if size <= PAGE_CACHE_BYTES else None
    return out


def _render_doc(env, md, site: dict, d: MarkdownDoc, section: Callable[[str], tuple], known: list[str]) -> dict[str, str]:
    """One authored page, with its `{{< name >}}` sections (`section(name)`: template, context)."""
    path = doc_output_path(d.source.rel)
    template = d.meta.get("template", "page.html")
    line = d.meta_lines.get("template")
    if not render.places_body(env, template):
        authored = ", ".join(t for t in env.list_templates() if render.places_body(env, t))
        raise InputError([Problem(d.source.rel, line, "template", f"a template for authored pages, one that places the body ({authored})",
                                  short_repr(template))])

    def fragment(name: str) -> Markup:
        tpl, ctx = section(name)  # rendered where it is placed, so its links resolve from there
        return Markup(render.render_page(env, tpl, path, {**ctx, "site": site}))

    page = Page(path, template, d.meta.get("title", ""), {"body": Markup(""), "meta": d.meta, "source": d.source.rel, "contents": []})
    try:
        chrome = _page_html(env, site, page)  # the template's own ids, which no heading may take
    except jinja2.UndefinedError as e:  # the template asks the page for what it does not have
        raise InputError([Problem(d.source.rel, line, "template", "a template that needs only what an authored page has "
                                  "(body, meta, source, title, site)", f"{short_repr(template)}: {e.message}")]) from None
    doc = render.render_markdown(md, d, fragment, known, render.html_ids(chrome))
    if doc.problems:
        raise InputError(doc.problems)
    page.context["body"] = doc.html
    if d.meta.get("contents") == "true":  # front matter `contents: true`: a table of contents of its sections
        page.context["contents"] = render.contents(doc.html)
    return {path: _page_html(env, site, page)}


def _light(o: Outputs) -> Outputs:
    """A family's Outputs as the cache holds them: what every build needs to write the family's
    files (tables, figure data with their keys, feed, summary; pages and sections without
    their contexts). It refers to no class or function of the family, so reading it imports
    nothing of it."""
    figures = [replace(f, draw=incremental.DrawRef(f.draw.__module__, f.draw.__qualname__), key=figures_mod.figure_key(f))
               for f in o.figures]
    return replace(o, pages=[replace(p, context={}) for p in o.pages], figures=figures,
                   fragments={name: (tpl, {}) for name, (tpl, _ctx) in o.fragments.items()})


def _site_context(config: SiteConfig, outputs: dict[str, Outputs], release=None, changes: bool = False) -> dict:
    """What every page knows about the site (base.html's header, head and footer), and which
    release it is (sitegen.releases; None where no release is made: validate, paper). What the
    release changed only with `changes`: the site's own pages, made every build, show it; a
    family's page that did would be rendered again after any edit anywhere."""
    return {
        "release": release.view(changes) if release is not None else None,
        "title": config.title,
        "synthetic": any(o.summary.get("synthetic") for o in outputs.values()),
        "families": [o.summary for o in outputs.values()],
        "version": __version__,
        "review": config.review,
        **site_index.head_context(config, outputs),
    }


def _page_html(env, site: dict, p: Page) -> str:
    return render.render_page(env, p.template, p.path, {**p.context, "site": site, "title": p.title})


def _page_parts(env, site: dict, p: Page):
    return render.render_parts(env, p.template, p.path, {**p.context, "site": site, "title": p.title})


def _manifest(loaded, outputs: dict[str, Outputs], files: dict[str, str], config: SiteConfig, release) -> dict:
    """What was built from what: every output file's SHA-256, and for every table and figure
    the files it was published as, the artifacts (with SHA-256) it came from and the name of
    the computation that produced it."""
    return {
        "generator": publish.GENERATOR,
        "families": list(config.families),
        "sources": {f.rel: f.sha256 for f in sorted(loaded.files, key=lambda f: f.rel)},
        **manifest_records(outputs),
        "files": dict(sorted(files.items())),
        "release": release.record,  # this release (sitegen.releases), the last of releases.json
        "ledger": release.ledger,  # what every later release must keep of this one
    }


def _release(config: SiteConfig, loaded: Loaded, outputs: dict[str, Outputs], previous, made: publish.Made | None = None,
             keys: dict[str, str] | None = None):
    """This build's release, checked against PREVIOUS (release_source.Previous, or None for a
    first release): an InputError with every way this build does not keep what it published.
    MADE, KEYS: what the output being replaced was made from, and this build's family keys (an
    archived table of an unchanged family is known by the hash that output's manifest lists)."""
    from sitegen import release_checks, releases

    def known(fid: str, rel: str) -> str | None:
        same = made is not None and keys is not None and made.keys.get(f"family/{fid}") == keys.get(fid)
        return made.files.get(rel) if same else None

    sources = {f.rel: f.sha256 for f in sorted(loaded.files, key=lambda f: f.rel)}
    archived = releases.archived_tables(outputs, known)
    ledger = releases.ledger(config.root, sources, config.families, archived, config.limits, outputs)
    as_json = lambda value: orjson.loads(publish.json_bytes(value))  # noqa: E731 - compared with a manifest's JSON
    date, date_from = releases.release_date(dated_until(outputs), outputs, ledger)
    current = releases.Current(sources, as_json(manifest_records(outputs)["artifacts"]), as_json(ledger), publish.GENERATOR,
                               list(config.families), date, date_from, archived.get)
    return release_checks.prepare(previous, current)


def manifest_records(outputs: dict[str, Outputs]) -> dict:
    """The manifest's "artifacts" and (when any input says what it is) "provenance": what the
    outputs alone give, so `sitegen verify` derives them again from the raw records."""
    artifacts = {}
    for o in outputs.values():
        for t in o.tables:
            artifacts[t.stem] = {"kind": "table", "title": t.title, "files": [t.stem + s for s in publish.TABLE_SUFFIXES],
                                 "sources": t.sources, "computation": t.computation}
        for f in o.figures:
            artifacts[f.name] = {"kind": "figure", "files": [f.name + s for s in publish.FIGURE_SUFFIXES],
                                 "sources": f.sources, "computation": f.computation}
            if f.cut:  # drawn short (families.first_rows), as its page says
                artifacts[f.name]["drawn"] = f.drawn
    records = {"artifacts": dict(sorted(artifacts.items()))}
    provenance = {rel: facts for o in outputs.values() for rel, facts in o.provenance.items()}
    if provenance:  # what an input says it is, beside its SHA-256 under "sources"
        records["provenance"] = dict(sorted(provenance.items()))
    return records


def _page_writer(writer: publish.Writer, texts: amendments.Texts) -> tuple[Callable[[str, str], None], dict[str, str]]:
    """`emit(path, html)` for _render: a page, with the amendment logs' text placed, that shows
    no figure is written at once; one that shows figures waits, in the dict returned, until
    they are drawn (_write_figures)."""
    waiting: dict[str, str] = {}

    def emit(path: str, html: str) -> None:
        html = texts.place(html)
        if render.shows_figures(html):
            waiting[path] = html
        else:
            writer.write_text(path, html)

    return emit, waiting


def _placed(o: Outputs, texts: amendments.Texts) -> Outputs:
    """A family's Outputs with its amendment log's text placed in its feed entries and its
    generated feeds (its files ending .xml), as in its pages (sitegen.amendments)."""
    feed = [replace(e, html=texts.place(e.html)) for e in o.feed]
    files = {rel: texts.place_xml(data) if rel.endswith(".xml") else data for rel, data in o.files.items()}
    return replace(o, feed=feed, files=files)


def _write_all_but_figures(writer: publish.Writer, root: Path, outputs: dict[str, Outputs], keys: dict[str, str] | None) -> None:
    """Write every table, figure's data, raw record, family file and asset: all that is ready
    while the figures are drawn. A family's table and figure-data files are made from its key
    (`keys`, with the cache): taken from the output they replace when that was made from it too."""
    for fid, o in outputs.items():
        group, key = f"family/{fid}", keys[fid] if keys is not None else None
        for tbl in o.tables:
            names = [tbl.stem + s for s in publish.TABLE_SUFFIXES]
            if left := [rel for rel in names if not writer.take(group, key, rel)]:
                made = publish.table_files(tbl)
                for rel in left:
                    writer.write(rel, made[rel])
        for fig in o.figures:
            if not writer.take(group, key, f"{fig.name}.csv"):
                writer.write(f"{fig.name}.csv", publish.figure_data_csv(fig))
        for rel in o.raw_files:
            writer.write(f"raw/{rel}", input_bytes(root, root / rel))
        for rel, data in sorted(o.files.items()):
            writer.write(rel, data)
    for rel, read in _assets(root):
        writer.write(rel, read())


def _write_figures(writer: publish.Writer, waiting: dict[str, str], outputs: dict[str, Outputs],
                   drawn: dict[str, figures_mod.Rendered]) -> None:
    """Write each figure's SVG, PNG and Vega-Lite spec, and the pages that show them."""
    for o in outputs.values():
        for fig in o.figures:
            r = drawn[fig.name]
            writer.write_text(f"{fig.name}.svg", r.svg)
            writer.write(f"{fig.name}.png", r.png)
            writer.write(f"{fig.name}.vl.json", r.spec)
    for path in sorted(waiting):
        writer.write_text(path, render.place_figures(waiting[path], drawn))


def _release_key(previous) -> list:
    """What a build's key holds of its release beyond the inputs: the previous release's bytes
    and the date SOURCE_DATE_EPOCH gives (a no-op rebuild must be the same release)."""
    import hashlib
    import os

    prev = [hashlib.sha256(b).hexdigest() for b in (previous.manifest_bytes, previous.releases_bytes or b"")] if previous else None
    return [prev, os.environ.get("SOURCE_DATE_EPOCH", "")]


def _write_release(writer: publish.Writer, env, site: dict, release) -> list[str]:
    """releases.json and the releases page; returns the page's path."""
    from sitegen import releases

    writer.write(releases.RELEASES_FILE, releases.releases_bytes(release))
    writer.write_text(releases.PAGE, _page_html(env, site, releases.page(release)))
    return [releases.PAGE]


def _release_feed(release) -> list:
    from sitegen import releases

    return releases.feed_entries(release.chain)


def build(config: SiteConfig, out_dir: Path | str, on_stage: Callable[[str], None] = _no_hook,
          on_figure: Callable[[int, int], None] | None = None, *, cache: bool = True, keep_workers: bool = True,
          clean: bool = False, previous=None) -> BuildResult:
    """Build the site into out_dir. `on_stage(name)` is called as each stage begins (tests use
    it to inject failures; STAGES lists them); the output directory changes only in the last
    one, "swap".
    `on_figure(done, total)` reports the figures stage's progress (the terminal display).

    With `cache` (the default) the content-keyed cache is used: when out_dir already holds the
    build of these very inputs and this code, and its files are as its manifest says, nothing
    is done and no stage is entered (BuildResult.up_to_date); otherwise unchanged families and
    pages are reused (see the module docstring).

    `keep_workers` (the default): the figure workers stay for the process's next build (`sitegen
    serve`, a test suite). The command line builds once, and ends them once the figures are
    drawn, so that the stages after it do not hold their memory.

    An output holding entries its last build did not write (its manifest.json does not list
    them) is refused, naming them, before any work and again at the swap; with `clean` they
    are deleted with it. A `.git` at its top is carried over into the new output either way
    (sitegen.output_dir).

    `previous`: the previous release (release_source.Previous, read from `--previous`), which
    this build must keep (sitegen.release_checks), checked before anything is written; None
    makes a first release."""
    publish.check_output_dir(Path(out_dir), config.root, clean)
    with publish.output_lock(Path(out_dir)), collector.working():  # one build at a time writes an output
        return _build(config, Path(out_dir), on_stage, on_figure, cache, keep_workers, clean, previous)


def _build(config: SiteConfig, out_dir: Path, on_stage: Callable[[str], None],
           on_figure: Callable[[int, int], None] | None, cache: bool, keep_workers: bool, clean: bool, previous=None) -> BuildResult:
    clock: dict[str, float] = {}
    current: list = [None, time.perf_counter()]  # the stage running and when it began

    def stage(name: str | None) -> None:
        now = time.perf_counter()
        if current[0] is not None:
            clock[current[0]] = now - current[1]
        current[:] = [name, now]
        if name is not None:
            on_stage(name)

    root, out = config.root, out_dir
    build_key = inputs_after = None
    warnings: list[str] = []
    cached = _cache_for(config, warnings) if cache else None
    cache = cached is not None
    store_, digest, keys = cached if cached else (None, None, None)
    if cached:
        build_key = incremental.build_key(digest, config.review, _release_key(previous))
        record = incremental.up_to_date(root, out, build_key)
        clock[KEY_STEP] = time.perf_counter() - current[1]
        if record is not None:
            return BuildResult(out, record["pages"], record["files"], clock, up_to_date=True)

    # A build that will draw every figure (nothing in its figure cache) starts the workers
    # now, so that their start-up overlaps the load (which leaves the second core idle) rather
    # than compute and render. Every family draws figures, so a site with one is taken to draw
    # some.
    figure_cache = root / CACHE_DIR / "figures"
    nothing_drawn = not cache or not figure_cache.is_dir() or next(figure_cache.iterdir(), None) is None
    with figures_mod.workers_starting(bool(config.families) and nothing_drawn, keep_workers):
        stage("load")
        intake = _load(config, keys, store_)
        stage("validate")
        if intake.loaded.problems:
            raise InputError(intake.loaded.problems)
        stage("store")
        db = _store(config, intake.inputs)
        # A family's figures are drawn in worker processes from when its Outputs are made, while
        # the next family computes, the pages render and everything that does not show a figure
        # is written; the figures stage waits for them. Without the cache not even the figure
        # cache is read: a build from scratch (`verify --source`) draws every figure itself.
        drawing = figures_mod.Drawing(figure_cache if cache else None)
        try:
            try:
                stage("compute")
                outputs, full, results = _family_outputs(config, intake, lambda fid: _family(config, fid).compute(db, intake.inputs[fid]),
                                                         store_, digest, keys, lambda o: drawing.add(o.figures))
            finally:
                if db is not None:
                    db.close()
            drawing.close()
            checked = numbers.check_finite({fid: outputs[fid] for fid in results})
        except BaseException:
            drawing.cancel()
            raise
        outputs = {fid: _placed(o, intake.texts) for fid, o in outputs.items()}
        made = incremental.made_before(root, out) if cache else None  # what this build may take from the output it replaces
        made = publish.Made(*made) if made else None
        release = _release(config, intake.loaded, outputs, previous, made, keys)  # before anything is written

    stage("render")  # before figures: a template error should not wait for the slowest stage
    try:
        env = render.environment(root / "templates", _template_dirs(config))
        writer = publish.Writer(Path(out_dir), made, clean)
        writer.checked = _checked_paths(config, intake.docs, outputs).__contains__
        try:
            # Each page goes to the staging directory as it is rendered (one page in memory at a
            # time, not the site): the render stage's time includes writing the pages.
            emit, waiting = _page_writer(writer, intake.texts)
            paths = _render(config, intake.docs, outputs, env, _render_keys(config, store_, digest, keys), full, emit, checked,
                            writer.take, intake.texts.digests, writer.mark, release)
            stage("write")
            _write_all_but_figures(writer, root, outputs, keys)
            stage("figures")
            drawn = drawing.finish(on_figure)
            if not keep_workers:
                figures_mod.end_workers()
            _write_figures(writer, waiting, outputs, drawn)
            # last: the downloads page and SHA256SUMS list the bytes of everything written above
            stage("index")
            # What a guarded family gives the shared files, checked once its own files are (the
            # wait for the writer): a field its pages show too is reported at the page.
            _ = writer.files
            aggregate_scope.refuse_contributions(outputs, _guarded(config), disk_writer.AggregateFieldError)
            site = _site_context(config, outputs, release, changes=True)
            release_pages = _write_release(writer, env, site, release)
            index_pages = release_pages + site_index.write_index(writer, config, outputs, paths + release_pages,
                                                                 lambda page: _page_parts(env, site, page),
                                                                 incremental.code_key() if cache else None, _release_feed(release))
            stage("manifest")
            manifest = _manifest(intake.loaded, outputs, writer.files, config, release)
            manifest_bytes = publish.json_bytes(manifest)
            writer.write("manifest.json", manifest_bytes)
            writer.finish()  # every file on disk, and no failure in writing any
            stage("verify")  # what is on disk, not what was meant to be written, is what gets swapped in
            # Every input has been read by now: hash them again meanwhile, to check none changed.
            if store_ is not None:
                inputs_after = incremental.digest_inputs_later(root)
            site_files.check_staged(writer.staging, manifest)
            stage("swap")
            writer.commit()
        except BaseException:
            writer.abort()
            raise
    except disk_writer.AggregateFieldError as exc:
        drawing.cancel()
        raise _located(config, intake, exc) from None
    except BaseException:
        drawing.cancel()
        raise
    stage(None)
    clock[WRITING] = writer.seconds
    clock[WRITING_CPU] = writer.cpu_seconds
    clock[WRITER_CHECKS] = writer.check_seconds
    result = BuildResult(out, len(paths) + len(index_pages), len(writer.files), clock, warnings=warnings)
    # Cache entries and the no-op record only when no input changed while this build read them.
    if inputs_after is not None and inputs_after.result() == digest:
        saving = time.perf_counter()
        try:
            store_.save()
            incremental.record_build(root, out, build_key, result.pages, result.files, manifest_bytes, dated_until(outputs),
                                     writer.files, writer.made)
        except Exception as exc:  # noqa: BLE001 - the site is published: a failure here must not say otherwise
            warnings.append(f"published; the build cache could not be saved: {exc}")
        clock[SAVE_STEP] = time.perf_counter() - saving
    return result
