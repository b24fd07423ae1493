"""The build, stage by stage. This is the only module that knows the order:

    load -> validate -> store -> compute -> render -> figures -> write -> manifest -> verify -> swap

(STAGES below, the names on_stage reports.) Each stage hands a typed result to the next.
Nothing is written to the output directory until every page has rendered: files go to a
staging directory, which is re-hashed against the manifest ("verify") and replaces the
output only at the end, so a failure anywhere leaves the previous site as it was.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from markupsafe import Markup

from sitegen import __version__
from sitegen import figures as figures_mod
from sitegen import publish, render, site_index, store
from sitegen import verify as verify_mod
from sitegen.aggregate import find_aggregate_fields_in_text
from sitegen.config import SiteConfig
from sitegen.errors import InputError, Problem
from sitegen.families import FAMILIES, Outputs, Page
from sitegen.load import Loaded, MarkdownDoc, discover, read_markdown, rel_path

CACHE_DIR = ".sitegen-cache"

# The stages, in the order build() runs them and reports them to on_stage.
STAGES = ("load", "validate", "store", "compute", "render", "figures", "write", "manifest", "verify", "swap")


@dataclass
class BuildResult:
    out_dir: Path | None
    pages: int
    files: int
    seconds: dict[str, float] = field(default_factory=dict)


def _no_hook(stage: str) -> None:
    return None


def _load(config: SiteConfig) -> tuple[Loaded, list[MarkdownDoc], dict]:
    root = config.root
    loaded = Loaded()
    # content/<family>/ belongs to that family: not published at all when the family is not
    # enabled, and not rendered as plain pages when the family renders it itself.
    claimed = tuple(f"content/{f.content_dir}/" for f in FAMILIES.values() if f.content_dir)
    claimed += tuple(f"content/{fid}/" for fid in FAMILIES if fid not in config.families)
    paths = [p for p in discover(root, "content", (".md",)) if not rel_path(root, p).startswith(claimed)]
    docs = [d for p in paths if (d := read_markdown(root, p, loaded, config.limits.max_file_bytes))]
    for d in docs:
        if "title" not in d.meta:
            loaded.problems.append(Problem(d.source.rel, 1, "title", "a title in the front matter", "none"))
        for i, line in enumerate(d.body.split("\n")):
            for name in find_aggregate_fields_in_text(line):
                loaded.problems.append(Problem(d.source.rel, d.body_line + i, "", "no cross-domain aggregate field in published text", name))
    inputs = {fid: FAMILIES[fid].load(root, loaded, config.limits) for fid in config.families}
    return loaded, docs, inputs


def _store(config: SiteConfig, inputs: dict):
    """A DuckDB connection holding every family's tables (the caller closes it)."""
    db = store.connect()
    try:
        for fid in config.families:
            FAMILIES[fid].store(db, inputs[fid])
    except BaseException:
        db.close()
        raise
    return db


def _compute_stored(config: SiteConfig, db, inputs: dict) -> dict:
    return {fid: FAMILIES[fid].compute(db, inputs[fid]) for fid in config.families}


def _compute(config: SiteConfig, inputs: dict) -> dict:
    """Store and compute in one call (validate and `sitegen verify` need no stage between)."""
    db = _store(config, inputs)
    try:
        return _compute_stored(config, db, inputs)
    finally:
        db.close()


def validate(config: SiteConfig) -> dict:
    """Every check a build makes, without drawing figures or writing anything. Returns each
    family's results."""
    loaded, docs, inputs = _load(config)
    if loaded.problems:
        raise InputError(loaded.problems)
    results = _compute(config, inputs)
    _render(config, docs, {fid: FAMILIES[fid].outputs(results[fid]) for fid in config.families})
    return results


def doc_output_path(rel: str) -> str:
    """content/index.md -> index.html; content/canonic/method.md -> canonic/method/index.html."""
    stem = rel.removeprefix("content/").removesuffix(".md")
    if stem == "index" or stem.endswith("/index"):
        return stem + ".html"
    return stem + "/index.html"


def _render(config: SiteConfig, docs: list[MarkdownDoc], outputs: dict[str, Outputs]) -> dict[str, str]:
    """Every page as HTML, by output path. Authored pages' problems (an unknown shortcode, a
    template that does not exist) are InputErrors naming the markdown file."""
    env = render.environment(config.root / "templates")
    md = render.markdown_renderer()
    site = _site_context(config, outputs)
    fragments = {name: spec for o in outputs.values() for name, spec in o.fragments.items()}
    pages: list[Page] = [p for o in outputs.values() for p in o.pages]
    problems: list[Problem] = []
    for d in docs:
        path = doc_output_path(d.source.rel)
        template = d.meta.get("template", "page.html")
        if template not in env.list_templates():
            problems.append(Problem(d.source.rel, None, "template", "the name of a template in templates/", repr(template)))
            continue

        def fragment(name: str, path: str = path) -> Markup:
            tpl, ctx = fragments[name]  # rendered where it is placed, so its links resolve from there
            return Markup(render.render_page(env, tpl, path, {**ctx, "site": site}))

        doc = render.render_markdown(md, d, fragment, sorted(fragments))
        problems.extend(doc.problems)
        pages.append(Page(path, template, d.meta.get("title", ""), {"body": doc.html, "meta": d.meta, "source": d.source.rel}))
    if problems:
        raise InputError(problems)
    return {p.path: _page_html(env, site, p) for p in pages}


def _site_context(config: SiteConfig, outputs: dict[str, Outputs]) -> dict:
    """What every page knows about the site (base.html's header, head and footer)."""
    return {
        "title": config.title,
        "synthetic": any(o.summary.get("synthetic") for o in outputs.values()),
        "families": [o.summary for o in outputs.values()],
        "version": __version__,
        **site_index.head_context(config, outputs),
    }


def _page_html(env, site: dict, p: Page) -> str:
    return render.render_page(env, p.template, p.path, {**p.context, "site": site, "title": p.title})


def _manifest(loaded, outputs: dict[str, Outputs], files: dict[str, str], config: SiteConfig) -> dict:
    """What was built from what: every output file's SHA-256, and for every table and figure
    the files it was published as, the artifacts (with SHA-256) it came from and the name of
    the computation that produced it."""
    artifacts = {}
    for o in outputs.values():
        for t in o.tables:
            artifacts[t.stem] = {"kind": "table", "title": t.title, "files": [t.stem + s for s in publish.TABLE_SUFFIXES],
                                 "sources": t.sources, "computation": t.computation}
        for f in o.figures:
            artifacts[f.name] = {"kind": "figure", "files": [f.name + s for s in publish.FIGURE_SUFFIXES],
                                 "sources": f.sources, "computation": f.computation}
    return {
        "generator": f"sitegen {__version__}",
        "families": list(config.families),
        "sources": {f.rel: f.sha256 for f in sorted(loaded.files, key=lambda f: f.rel)},
        "artifacts": dict(sorted(artifacts.items())),
        "files": dict(sorted(files.items())),
    }


def build(config: SiteConfig, out_dir: Path | str, on_stage: Callable[[str], None] = _no_hook,
          on_figure: Callable[[int, int], None] | None = None) -> BuildResult:
    """Build the site into out_dir. `on_stage(name)` is called as each stage begins (tests use
    it to inject failures; STAGES lists them); the output directory changes only in the last
    one, "swap".
    `on_figure(done, total)` reports the figures stage's progress (the terminal display)."""
    clock: dict[str, float] = {}
    current: list = [None, time.perf_counter()]  # the stage running and when it began

    def stage(name: str | None) -> None:
        now = time.perf_counter()
        if current[0] is not None:
            clock[current[0]] = now - current[1]
        current[:] = [name, now]
        if name is not None:
            on_stage(name)

    root = config.root
    publish.check_output_dir(Path(out_dir), root)
    stage("load")
    loaded, docs, inputs = _load(config)
    stage("validate")
    if loaded.problems:
        raise InputError(loaded.problems)

    stage("store")
    db = _store(config, inputs)
    try:
        stage("compute")
        results = _compute_stored(config, db, inputs)
    finally:
        db.close()
    outputs: dict[str, Outputs] = {fid: FAMILIES[fid].outputs(results[fid]) for fid in config.families}

    stage("render")  # before figures: a template error should not wait for the slowest stage
    html = _render(config, docs, outputs)

    stage("figures")
    drawn = figures_mod.render_all([f for o in outputs.values() for f in o.figures], root / CACHE_DIR / "figures", on_figure)
    html = {path: render.place_figures(text, drawn) for path, text in html.items()}

    stage("write")
    writer = publish.Writer(Path(out_dir))
    try:
        for path in sorted(html):
            writer.write_text(path, html[path])
        for o in outputs.values():
            for tbl in o.tables:
                for rel, data in publish.table_files(tbl).items():
                    writer.write(rel, data)
            for fig in o.figures:
                r = drawn[fig.name]
                writer.write_text(f"{fig.name}.svg", r.svg)
                writer.write(f"{fig.name}.png", r.png)
                writer.write(f"{fig.name}.vl.json", r.spec)
                writer.write(f"{fig.name}.csv", publish.figure_data_csv(fig))
            for rel in o.raw_files:
                writer.write(f"raw/{rel}", (root / rel).read_bytes())
            for rel, data in sorted(o.files.items()):
                writer.write(rel, data)
        for p in discover(root, "assets", (".css", ".svg", ".png", ".woff2", ".ico", ".js", ".txt")):
            writer.write(rel_path(root, p), p.read_bytes())
        # last: the downloads page and SHA256SUMS list the bytes of everything written above
        env, site = render.environment(root / "templates"), _site_context(config, outputs)
        index_pages = site_index.write_index(writer, config, outputs, sorted(html), lambda page: _page_html(env, site, page))
        stage("manifest")
        manifest = _manifest(loaded, outputs, writer.files, config)
        writer.write("manifest.json", publish.json_bytes(manifest))
        stage("verify")  # what is on disk, not what was meant to be written, is what gets swapped in
        verify_mod.check_staged(writer.staging, manifest)
        stage("swap")
        writer.commit()
    except BaseException:
        writer.abort()
        raise
    stage(None)
    return BuildResult(Path(out_dir), len(html) + len(index_pages), len(writer.files), clock)
