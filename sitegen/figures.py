"""Figures: Vega-Lite specs rendered to SVG at build time, cached by content.

Rendering is the costliest step per item (vl-convert: ~0.9 s for its first call, ~0.1 s per
chart after), and Altair's import alone is ~0.5 s, so neither is paid when the cache already
holds the SVG for the same figure name, data and drawing code. The SVG has no script and
is byte-stable across runs, so a cached file is exactly what a fresh render would give.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
from concurrent.futures import ProcessPoolExecutor
from importlib import metadata
from pathlib import Path

from sitegen.families import Figure


def figure_key(fig: Figure) -> str:
    """SHA-256 over the figure's name, its data, the source of its drawing function and
    the versions of the libraries that turn it into SVG."""
    h = hashlib.sha256()
    h.update(fig.name.encode())
    h.update(json.dumps(fig.data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode())
    h.update(inspect.getsource(inspect.getmodule(fig.draw)).encode())
    h.update(fig.draw.__qualname__.encode())
    for dist in ("altair", "vl-convert-python"):
        h.update(f"{dist}={metadata.version(dist)}".encode())
    return h.hexdigest()


def render_svg(fig: Figure) -> str:
    import vl_convert as vlc  # late: only when a figure must actually be drawn

    return vlc.vegalite_to_svg(fig.draw(fig.data))


def render_all(figures: list[Figure], cache_dir: Path | None) -> dict[str, str]:
    """name -> SVG text for every figure, from the cache where possible. Misses render in
    worker processes: vl-convert serialises calls within one process."""
    out: dict[str, str] = {}
    misses: list[tuple[Figure, Path | None]] = []
    for fig in figures:
        cached = cache_dir / f"{figure_key(fig)}.svg" if cache_dir else None
        if cached is not None and cached.is_file():
            out[fig.name] = cached.read_text(encoding="utf-8")
        else:
            misses.append((fig, cached))
    workers = min(len(misses), os.cpu_count() or 1, 4)
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            svgs = list(pool.map(render_svg, [fig for fig, _ in misses]))
    else:
        svgs = [render_svg(fig) for fig, _ in misses]
    for (fig, cached), svg in zip(misses, svgs):
        if cached is not None:
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(svg, encoding="utf-8")
            tmp.replace(cached)  # a killed build never leaves a half-written cache entry
        out[fig.name] = svg
    return out
