"""Figures: Vega-Lite specs rendered at build time to SVG and PNG, cached by content.

Every figure is published three ways under one stem: `<name>.svg` (also inlined in its page),
`<name>.png` (2x, for slides and papers) and `<name>.vl.json` (the Vega-Lite spec with its
data, so anyone can re-render it). Rendering is the costliest step per item (vl-convert:
~0.9 s for its first call in a process, ~0.1 s per chart after; Altair's import ~0.5 s), so
nothing is drawn when the cache holds the files for the same name, data and drawing code.
vl-convert's output has no script and is byte-stable, so a cached file is exactly what a
fresh render would give. A cache entry is one file, the three under a header with their key
and checksum (incremental.write_entry): one whose bytes do not match is drawn again.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import queue
import re
import threading
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Callable, Iterator

from sitegen import figure_fonts, parallel
from sitegen.errors import BuildError
from sitegen.families import Figure
from sitegen.incremental import ENTRY_SUFFIX, read_entry, write_entry

PNG_SCALE = 2
PNG_MAX_SIDE = 4000  # pixels: a figure with a thousand rows is rasterised smaller, not as a 15 MB PNG


@dataclass(frozen=True)
class Rendered:
    svg: str
    png: bytes
    spec: bytes  # the Vega-Lite JSON, deterministic


def with_note(spec: dict, note: str) -> dict:
    """SPEC with NOTE drawn under its title (or as a small title of its own), so the SVG and
    the PNG carry it wherever they are passed on."""
    title = spec.get("title")
    if title is None:
        title = {"text": note, "fontSize": 11, "fontWeight": "normal", "anchor": "start"}
    elif isinstance(title, dict):
        title = {**title, "subtitle": note}
    else:
        title = {"text": title, "subtitle": note}
    return {**spec, "title": title}


def figure_key(fig: Figure) -> str:
    """SHA-256 over everything a figure's three files depend on, each of which
    tests/test_figure_fonts.py changes in turn:
    - the spec: the figure's name, its data, its synthetic note, the source of its drawing
      function's module and of the sitegen modules it takes helpers from (the board chart, its
      colours and sizes: the figures' theme), and Altair's version (it writes most specs);
    - the rendering: the source of this module's code that turns a spec into the files
      (RENDERING), the PNG's scale and limit, and vl-convert's version (its Vega, Vega-Lite
      and resvg, and the Liberation Sans it draws the characters Noto Sans lacks with);
    - the font: figure_fonts.key(), the family every chart names and the faces' bytes, the only
      font the renderer has (sitegen/figure_fonts.py).
    Nothing of the machine: each process's renderer starts with those fonts alone and in UTC
    (figure_fonts.ready()), so the same key gives the same bytes anywhere."""
    h = hashlib.sha256()
    h.update(fig.name.encode())
    h.update(json.dumps(fig.data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode())
    for module in _drawing_modules(fig.draw):
        h.update(inspect.getsource(module).encode())
    h.update(fig.draw.__qualname__.encode())
    for dist in ("altair", "vl-convert-python"):
        h.update(f"{dist}={metadata.version(dist)}".encode())
    h.update(f"png@{PNG_SCALE}x<={PNG_MAX_SIDE}".encode())
    for part in RENDERING:
        h.update(inspect.getsource(part).encode())
    h.update(_COUNTED_ID.pattern.encode())
    h.update(b"font:" + figure_fonts.key().encode())
    if fig.synthetic_note is not None:
        h.update(b"synthetic:" + fig.synthetic_note.encode())
    return h.hexdigest()


def _drawing_modules(draw: Callable) -> list:
    """The drawing function's module, then every sitegen module whose functions it imports, and
    theirs in turn (the shared board chart, the labels, the rounding rule): a change to any of
    them draws the figure again."""
    own = inspect.getmodule(draw)
    found: dict[str, object] = {}
    todo = [own]
    while todo:
        module = todo.pop()
        for v in vars(module).values():
            m = inspect.getmodule(v) if inspect.isfunction(v) else None
            if m is not None and m is not own and m.__name__.startswith("sitegen.") and m.__name__ not in found:
                found[m.__name__] = m
                todo.append(m)
    return [own, *(found[name] for name in sorted(found))]


def render(fig: Figure) -> Rendered:
    svg, spec = _draw(fig)
    return Rendered(svg=svg, png=_rasterise(svg), spec=spec)


def _draw(fig: Figure) -> tuple[str, bytes]:
    """The figure's SVG and its Vega-Lite spec (JSON bytes): the first half of render()."""
    import vl_convert as vlc  # late: only when a figure must actually be drawn

    figure_fonts.ready()
    spec = fig.draw(fig.data)
    if fig.synthetic_note is not None:
        spec = with_note(spec, fig.synthetic_note)
    spec = figure_fonts.pinned(spec, fig.name)
    try:
        svg = vlc.vegalite_to_svg(spec)
    except ValueError as exc:  # vl-convert's own refusal (a spec Vega cannot draw): say which figure
        said = " ".join(str(exc).split())
        raise BuildError(f"figure {fig.name}: Vega-Lite could not draw it: {said[:300]}") from None
    svg = _numbered_from_zero(svg)
    return svg, (json.dumps(spec, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


_COUNTED_ID = re.compile(r'(id="|url\(#|href="#)([A-Za-z]+_?)(\d+)(?=[")])')


def _numbered_from_zero(svg: str) -> str:
    """The SVG with Vega's counted ids (gradient_0, clip3) renumbered from 0 in order of first
    appearance, per prefix. Vega numbers them with counters that live as long as its runtime,
    so a worker that has drawn a gradient before draws the next as gradient_1: the same figure
    must give the same bytes whichever worker draws it, and after however many others."""
    seen: dict[tuple[str, str], str] = {}
    counts: dict[str, int] = {}

    def renumber(m: re.Match) -> str:
        name = (m.group(2), m.group(3))
        if name not in seen:
            seen[name] = str(counts.get(m.group(2), 0))
            counts[m.group(2)] = counts.get(m.group(2), 0) + 1
        return m.group(1) + m.group(2) + seen[name]

    return _COUNTED_ID.sub(renumber, svg)


def _rasterise(svg: str) -> bytes:
    """The PNG of a drawn SVG: the second half of render()."""
    import vl_convert as vlc

    figure_fonts.ready()  # a worker may rasterise before it has drawn
    return vlc.svg_to_png(svg, scale=_png_scale(svg))  # from the SVG: same bytes, ~2.5x faster than re-running Vega


def _png_scale(svg: str) -> float:
    m = re.search(r'<svg[^>]*\bwidth="([\d.]+)"[^>]*\bheight="([\d.]+)"', svg)
    side = max(float(m.group(1)), float(m.group(2))) if m else 0.0
    return PNG_SCALE if side * PNG_SCALE <= PNG_MAX_SIDE else round(PNG_MAX_SIDE / side, 4)


# The code between a figure's spec and its files, in its cache key (figure_key).
RENDERING = (with_note, figure_fonts.pinned, _draw, _numbered_from_zero, _rasterise, _png_scale)


def _read_cache(cache_dir: Path, key: str) -> Rendered | None:
    parts = read_entry(cache_dir / f"{key}{ENTRY_SUFFIX}", "figures", key)
    if parts is None or len(parts) != 3:
        return None
    try:
        return Rendered(parts[0].decode("utf-8"), parts[1], parts[2])
    except UnicodeDecodeError:
        return None


def _write_cache(cache_dir: Path, key: str, r: Rendered) -> None:
    try:
        write_entry(cache_dir / f"{key}{ENTRY_SUFFIX}", "figures", key, [r.svg.encode("utf-8"), r.png, r.spec])
    except OSError:  # the figure is drawn and published all the same; the next build draws it again
        pass


class Drawing:
    """render_all() running in a background thread from its creation, so that pages render while
    the figures are drawn: add() hands it a family's figures as soon as they are made (the
    workers, idle while the other families compute, start on them at once), close() says there
    are no more; finish() waits for them all, cancel() stops what has not started and waits for
    the rest."""

    def __init__(self, cache_dir: Path | None):
        self._lock = threading.Lock()
        self._latest, self._report = (0, 0), None
        self._stop = threading.Event()
        self._batches: queue.SimpleQueue[list[Figure] | None] = queue.SimpleQueue()
        self._result: dict[str, Rendered] | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(cache_dir,), name="figures", daemon=True)
        self._thread.start()

    def add(self, figures: list[Figure]) -> None:
        self._batches.put(list(figures))

    def close(self) -> None:
        self._batches.put(None)

    def _run(self, cache_dir: Path | None) -> None:
        try:
            self._result = render_all(self._batches, cache_dir, self._progress, self._stop)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller by finish()
            self._error = exc

    def _progress(self, done: int, total: int) -> None:
        with self._lock:  # reported only once the caller waits (its figures stage has begun)
            self._latest, report = (done, total), self._report
        if report is not None:
            report(done, total)

    def finish(self, progress: Callable[[int, int], None] | None = None) -> dict[str, Rendered]:
        """Every figure added, drawn (close() first)."""
        if progress is not None:
            with self._lock:
                self._report, latest = progress, self._latest
            progress(*latest)
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result

    def cancel(self) -> None:
        """No more figures are started; returns once the figures being drawn (at most one per
        worker) are done and the workers have exited. A build that fails while figures are
        drawn (a page refused as it is written, Ctrl-C) then says only why it failed: a worker
        still starting when the process exits finds its pool gone and prints a traceback."""
        self._stop.set()
        self._batches.put(None)  # wakes a thread waiting for figures
        self._thread.join()


def render_all(figures: list[Figure] | queue.SimpleQueue, cache_dir: Path | None,
               progress: Callable[[int, int], None] | None = None,
               stop: threading.Event | None = None) -> dict[str, Rendered]:
    """name -> rendered figure, from the cache where possible. `figures`: a list, or a queue of
    lists ended by None (Drawing), each drawn as it comes. Misses render in worker processes
    (vl-convert serialises calls within one process), except a lone one while no worker is
    running: starting them would cost more than drawing it here. `progress(done, total)` is
    called as each list's cache has been read and after each figure drawn. Once `stop` is set,
    no further job starts and what was drawn so far is returned (the caller has failed)."""
    report = progress or (lambda done, total: None)
    if isinstance(figures, list):
        batches: queue.SimpleQueue[list[Figure] | None] = queue.SimpleQueue()
        batches.put(figures)
        batches.put(None)
    else:
        batches = figures
    out: dict[str, Rendered] = {}
    keys: dict[str, str | None] = {}
    total = 0
    pool = None
    # Two jobs per figure, the SVG and then its PNG (each about half the time), the biggest
    # figures' SVGs first: small jobs keep both workers busy to the end, where one job per
    # figure left a worker idle while the other drew the last large figure.
    # A job is handed to the pool only when a worker is free for it (at most one per worker in
    # flight), not queued there all at once: the pool is the process's (sitegen.parallel), and
    # jobs that a build waits for (its bootstraps, its screens) then start after one figure, not
    # after every figure queued before them.
    todo: deque[tuple[Figure, tuple[str, bytes] | None]] = deque()  # a figure to draw, or drawn (SVG, spec) to rasterise
    svg_jobs: dict[Future, Figure] = {}
    png_jobs: dict[Future, tuple[Figure, tuple[str, bytes]]] = {}
    pending: set[Future] = set()
    more = True
    try:
        while more or pending or todo:
            if stop is not None and stop.is_set():
                _cancel(pending)
                return out
            while todo and len(pending) < parallel.workers():
                fig, drawn = todo.popleft()
                if drawn is None:
                    job = pool.submit(_draw, fig)
                    svg_jobs[job] = fig
                else:
                    job = pool.submit(_rasterise, drawn[0])
                    png_jobs[job] = (fig, drawn)
                pending.add(job)
            if more:
                try:  # a new list; waited for only while nothing is being drawn (and `stop` looked at meanwhile)
                    batch = batches.get_nowait() if pending else batches.get(timeout=0.2)
                except queue.Empty:
                    batch = []  # none yet: as a family without figures
                if batch is None:
                    more = False
                elif batch:
                    total += len(batch)
                    misses = []
                    for fig in batch:
                        keys[fig.name] = key = (fig.key or figure_key(fig)) if cache_dir else None
                        hit = _read_cache(cache_dir, key) if key is not None else None
                        if hit is not None:
                            out[fig.name] = hit
                        else:
                            misses.append(fig)
                    report(len(out), total)
                    if pool is None and misses and parallel.workers() > 1 and (len(misses) > 1 or parallel.running_pool() is not None):
                        pool = _pool()
                    if pool is None:
                        for fig in misses:
                            _done(out, fig, render(fig), cache_dir, keys)
                            report(len(out), total)
                    else:
                        todo.extend((fig, None) for fig in sorted(misses, key=lambda f: -len(f.data)))
                        continue  # handed to the workers first
            if not pending:
                continue
            finished, pending = wait(pending, timeout=0.2 if not more else 0.05, return_when=FIRST_COMPLETED)
            for future in finished:
                if future in svg_jobs:  # drawn: its PNG goes to the back of the queue
                    fig = svg_jobs.pop(future)
                    todo.append((fig, future.result()))
                else:  # a figure complete
                    fig, (svg, spec) = png_jobs.pop(future)
                    _done(out, fig, Rendered(svg=svg, png=future.result(), spec=spec), cache_dir, keys)
                    report(len(out), total)
    except BrokenProcessPool:
        parallel.retire_pool()  # a worker died: the next build starts a new pool
        raise
    except BaseException:
        _cancel(pending)
        raise
    return out


def _done(out: dict[str, Rendered], fig: Figure, r: Rendered, cache_dir: Path | None, keys: dict[str, str | None]) -> None:
    key = keys[fig.name]
    if key is not None:
        _write_cache(cache_dir, key, r)
    out[fig.name] = r


# The figures are drawn by the process's worker pool (sitegen.parallel.pool), started at the
# first build with figures to draw (before it loads, when its figure cache holds none:
# workers_starting) and kept for the life of the process (the command line ends it after its one
# build's figures: end_workers): vl-convert's runtime takes about a second to start in each
# worker, so a process that builds many times (`sitegen serve`, a test suite) pays it once
# rather than once per build. Each job carries its figure, and its output depends on nothing
# else. The forkserver imports Altair (~0.5 s) before it forks a worker, which then starts with
# it imported: once per process rather than once per worker. Importing Altair and vl_convert
# starts no thread, so forking after it is safe; vl-convert's runtime starts in the worker, at
# its first figure.
PRELOAD = ("altair", "vl_convert")


def _pool() -> ProcessPoolExecutor:
    return parallel.pool(PRELOAD)


_WARM_SPEC = {"data": {"values": [{"x": 1}]}, "mark": "point", "encoding": {"x": {"field": "x", "type": "quantitative"}}}


def _warm() -> None:
    import vl_convert as vlc

    figure_fonts.ready()
    vlc.vegalite_to_svg(_WARM_SPEC)  # starts the worker's vl-convert runtime


@contextmanager
def workers_starting(start: bool, keep: bool) -> Iterator[None]:
    """With `start`, the figure workers start, and vl-convert's runtime in each (about a
    second a worker), from a thread of their own while the block runs (the build's load and
    compute): the first figure then does not wait for them, nor the bootstraps, which run on the
    same workers (sitegen.parallel.Background). Leaving the block waits for the thread. When
    the block fails in a process that exits next (`keep` False: the command line), the workers
    are killed first: one still starting when its parent exits prints a traceback, and waiting
    for them to finish starting would delay the report of the failure."""
    thread = _start_workers() if start else None
    try:
        yield
    except BaseException:
        if thread is not None:
            thread.join()
            if not keep:
                parallel.retire_pool(kill=True)
        raise
    if thread is not None:
        thread.join()


def _start_workers() -> threading.Thread | None:
    if parallel.workers() < 2:  # figures are drawn in this process
        return None

    pool = _pool()  # at once (its processes start with its first job): jobs submitted from now on go to it

    def start() -> None:
        try:
            for _ in range(parallel.workers()):
                pool.submit(_warm)
        except Exception:  # noqa: BLE001 - a head start only: drawing starts the pool itself
            pass

    thread = threading.Thread(target=start, name="figure-workers", daemon=True)
    thread.start()
    return thread


def end_workers() -> None:
    """End the figure workers now, for a process that builds once (the command line): what
    they hold (a vl-convert runtime each, about 150 MiB) is then not kept through the stages
    after the figures. The next build of the process would start new ones."""
    parallel.retire_pool(wait=True)


def _cancel(pending: set[Future]) -> None:
    """Stop the jobs of this build that have not started, and wait for those running (at most
    one per worker): the pool is then free for the next build, and a failed build says only
    why it failed."""
    for future in pending:
        future.cancel()
    wait(pending)


_ID = re.compile(r'\bid="([^"]+)"')


def inline_svg(svg: str, prefix: str) -> str:
    """SVG text ready to sit inside an HTML page: no XML prolog, and any ids (clip paths,
    gradients) prefixed so that two figures on one page cannot collide."""
    svg = re.sub(r"^<\?xml[^>]*>\s*", "", svg)
    ids = set(_ID.findall(svg))
    for i in sorted(ids, key=len, reverse=True):
        svg = svg.replace(f'id="{i}"', f'id="{prefix}-{i}"').replace(f"url(#{i})", f"url(#{prefix}-{i})").replace(f'href="#{i}"', f'href="#{prefix}-{i}"')
    return svg.replace("<svg ", '<svg aria-hidden="true" focusable="false" ', 1)
