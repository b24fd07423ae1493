"""`sitegen paper --out DIR`: the figures, tables and generated sentences a paper cites,
computed by the same build from the same artifact, for the items the site declares required:

    [tool.sitegen.paper]
    required = ["canonic/figure-2-domains", "canonic/book-opening/board", "canonic.public-rows"]

A figure is written as SVG, PNG and Vega-Lite JSON; a table as CSV; a sentence into
text/<name>.txt and all sentences into fragments.json. Its manifest.json records, per item,
what kind it is, the computation that made it and the SHA-256 of every artifact it came from,
as the site's manifest does (a sentence: every artifact its family's tables and figures came
from, since a sentence records no sources of its own). The paper build fails when a required
item does not exist, and when any generated text or data carries an overall-score field or
phrase: the protocol forbids a cross-domain aggregate, in a paper as on the site.
"""

from __future__ import annotations

import re
from pathlib import Path

from sitegen import figures as figures_mod
from sitegen import incremental, publish
from sitegen.aggregate import find_aggregate_fields_in_text
from sitegen.build import CACHE_DIR, checked_outputs
from sitegen.config import CONFIG_FILE, SiteConfig
from sitegen.errors import BuildError, InputError, Problem

# Phrases that state or imply a single number across domains.
_PHRASE = re.compile(r"\b(overall[\s-]+(score|rank(ing)?|winner|leader(board)?)|aggregate[\s-]+score|grand[\s-]+mean|"
                     r"averaged?\s+across\s+(all\s+)?domains|cross[\s-]+domain\s+(score|average|mean))\b", re.IGNORECASE)


def forbidden_in(text: str) -> list[str]:
    return find_aggregate_fields_in_text(text) + sorted({m.group(0) for m in _PHRASE.finditer(text)})


def paper(config: SiteConfig, out_dir: Path, *, cache: bool = True, clean: bool = False) -> tuple[list[str], list[str]]:
    """Write every required item into out_dir (replaced whole, like a site, and only when it is
    empty or a sitegen output: its manifest names the generator; `clean`, as for a build: what
    else it holds is deleted rather than refused). Returns the names, and what
    the user must know though the inputs are valid (the cache could not be read).

    Every check a build makes runs first, with the build cache read as `validate` reads it (a
    family whose key holds there passed these checks with these inputs and code: its entry's
    tables, figure data and texts are what a build publishes), never written."""
    publish.check_output_dir(out_dir, config.root, clean)  # a folder it must not replace is refused before any work
    outputs, warnings = checked_outputs(config, cache=cache)
    figures = {f.name: f for o in outputs.values() for f in o.figures}
    tables = {t.stem: t for o in outputs.values() for t in o.tables}
    texts = {k: v for o in outputs.values() for k, v in o.texts.items()}
    text_sources = {k: dict(sorted({rel: sha for item in (*o.tables, *o.figures) for rel, sha in item.sources.items()}.items()))
                    for o in outputs.values() for k in o.texts}
    required = config.paper.required
    missing = [name for name in required if name not in figures and name not in tables and name not in texts]
    if missing:
        known = sorted([*figures, *tables, *texts])
        raise InputError([Problem(CONFIG_FILE, None, "$.tool.sitegen.paper.required", f"items the build produces ({', '.join(known)})", name)
                          for name in missing])

    files: dict[str, bytes] = {}
    fragments = {}
    items: dict[str, dict] = {}
    for name in required:
        if name in figures:
            fig = figures[name]
            items[name] = {"kind": "figure", "computation": fig.computation, "sources": dict(sorted(fig.sources.items()))}
            if fig.cut:  # drawn short (families.first_rows): the paper's reader learns it as the site's does
                items[name]["drawn"] = fig.drawn
        elif name in tables:
            items[name] = {"kind": "table", "computation": tables[name].computation, "sources": dict(sorted(tables[name].sources.items()))}
        else:
            items[name] = {"kind": "text", "computation": None, "sources": text_sources[name]}
        if name in texts:
            fragments[name] = texts[name]
            files[f"text/{name}.txt"] = (texts[name] + "\n").encode("utf-8")
        elif name in tables:
            t = tables[name]
            files[f"tables/{name}.csv"] = publish.table_files(t)[f"{t.stem}.csv"]  # the site's own bytes
    # the figure cache as the build's: not read without the cache, nor when it cannot be used
    figure_cache = config.root / CACHE_DIR / "figures" if cache and incremental.unusable(config.root) is None else None
    drawn = figures_mod.render_all([figures[n] for n in required if n in figures], figure_cache)
    for name, r in drawn.items():
        files[f"figures/{name}.svg"] = r.svg.encode("utf-8")
        files[f"figures/{name}.png"] = r.png
        files[f"figures/{name}.vl.json"] = r.spec
    files["fragments.json"] = publish.json_bytes(fragments)

    bad = []
    for rel, data in sorted(files.items()):
        if rel.endswith(".png"):
            continue
        for hit in forbidden_in(data.decode("utf-8")):
            bad.append(f"{rel}: carries {hit!r}")
    if bad:
        raise BuildError("the paper would state a cross-domain aggregate, which the protocol forbids:\n" + "\n".join(bad))

    with publish.output_lock(out_dir):
        writer = publish.Writer(out_dir, clean=clean)
        try:
            for rel, data in sorted(files.items()):
                writer.write(rel, data)
            writer.write("manifest.json", publish.json_bytes({"generator": publish.GENERATOR, "required": list(required),
                                                              "items": items, "files": dict(sorted(writer.files.items()))}))
            writer.commit()
        except BaseException:
            writer.abort()
            raise
    return list(required), warnings
