"""The process a build writes its files through (sitegen/disk_writer.py), and what it must
not change: it reports the files' hashes every publish.SYNC_EVERY files and whenever the build
asks, and a file of disk_writer.STREAM_BYTES or more is checked by the build and streamed."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sitegen import disk_writer, publish
from sitegen.build import WRITING, WRITING_CPU, build
from sitegen.config import load_config
from sitegen.errors import InputError

from conftest import COMMAND_SECONDS, copy_site, hash_tree, leftovers_beside, read_sweep, scaled, write_sweep


@pytest.fixture(scope="module")
def canonic(tmp_path_factory, built_site):
    """A site of the demo's Canonic alone and its output built with the usual settings."""
    base = tmp_path_factory.mktemp("processes")
    root = copy_site(base / "site", families=["canonic"])
    build(load_config(root), base / "one", cache=False)
    return root, hash_tree(base / "one")


def test_hashes_reported_every_few_files_and_files_streamed_give_the_same_site(canonic, monkeypatch, tmp_path):
    """Every 7 files the writer reports, and every file of 1,000 bytes or more is checked by
    the build and streamed to disk (what the downloads page at 1000x data is)."""
    root, one_process = canonic
    monkeypatch.setattr(publish, "SYNC_EVERY", 7)
    monkeypatch.setattr(disk_writer, "STREAM_BYTES", 1000)
    result = build(load_config(root), tmp_path / "out", cache=False)
    assert hash_tree(tmp_path / "out") == one_process and result.files == len(one_process)
    # `--timings` reports the seconds spent writing and the processor's part of them (the
    # benchmark's write-floor goal): one process's CPU time never exceeds its wall time.
    assert 0 < result.seconds[WRITING_CPU] <= result.seconds[WRITING] + 0.01


@pytest.mark.parametrize("streamed", [False, True], ids=["checked by the writer", "checked by the build"])
def test_an_aggregate_field_is_refused_however_the_file_is_sent(canonic, monkeypatch, tmp_path, streamed):
    """A model named like an aggregate field passes intake (a value, not a key) but no page may
    show it: refused by the writer process, or by the build for a file it streams, and then
    reported at the input's key."""
    if streamed:
        monkeypatch.setattr(disk_writer, "STREAM_BYTES", 1)
    root = copy_site(tmp_path / "site", families=["canonic"])
    sweep = read_sweep(root)
    sweep["models"][-1]["name"] = "Model total_score"
    write_sweep(root, sweep)
    out = tmp_path / "out"
    with pytest.raises(InputError, match=r"data/canonic/sweep\.json \$\.models\[\d+\]\.name: .* found total_score, in \"Model total_score\""):
        build(load_config(root), out, cache=False)
    assert not out.exists() and leftovers_beside(out) == []


@pytest.mark.parametrize("keep", [True, False], ids=["kept for the next build", "ended after the figures"])
def test_the_command_lines_single_build_ends_its_figure_workers_once_the_figures_are_drawn(canonic, tmp_path, keep):
    """`sitegen build` builds once: its figure workers (a vl-convert runtime each) are gone by
    the stages after the figures, so their memory is not held to the end. A process that
    builds again (serve, this test suite) keeps them."""
    from sitegen import figures, parallel

    if parallel.workers() < 2:
        pytest.skip("one worker: figures are drawn in the build's own process")
    root, one_process = canonic
    figures.end_workers()  # this process's earlier builds may have left a pool: start from none
    seen = {}

    def hook(name: str) -> None:
        if name == "index":
            seen["pool"] = parallel.running_pool() is not None

    build(load_config(root), tmp_path / "out", on_stage=hook, cache=False, keep_workers=keep)
    assert seen == {"pool": keep}
    assert hash_tree(tmp_path / "out") == one_process


def test_sitegen_build_ends_its_figure_workers(canonic, tmp_path, monkeypatch):
    """The command asks its one build to end the workers after the figures (the test above)."""
    from sitegen import figures
    from sitegen.cli import main

    ended = []
    monkeypatch.setattr(figures, "end_workers", lambda: ended.append(True))
    root, one_process = canonic
    main(["build", "--root", str(root), "--out", str(tmp_path / "out"), "--no-cache"], prog_name="sitegen", standalone_mode=False)
    assert ended == [True] and hash_tree(tmp_path / "out") == one_process


def test_a_build_with_every_figure_to_draw_starts_its_workers_before_it_loads(canonic, tmp_path):
    """Nothing in the figure cache: the workers (and vl-convert's runtime in each) start while
    the build loads its inputs, on the core the load leaves idle, so that neither the bootstraps
    of its compute nor its first figure wait for them. With the figure cache holding the
    figures, no worker is started."""
    from sitegen import figures, parallel

    if parallel.workers() < 2:
        pytest.skip("one worker: figures are drawn in the build's own process")
    _, one_process = canonic
    root = copy_site(tmp_path / "site", families=["canonic"])  # its own: these builds fill its cache
    seen = []

    def hook(name: str) -> None:
        if name == "load":
            seen.append(parallel.running_pool() is not None)

    for out in ("cold", "warm"):
        figures.end_workers()
        build(load_config(root), tmp_path / out, on_stage=hook)  # the first fills the figure cache
        assert hash_tree(tmp_path / out) == one_process
    assert seen == [True, False]


@pytest.mark.parametrize("keep", [True, False], ids=["a process that builds again", "the command line"])
def test_a_build_failing_while_its_workers_start_leaves_none_starting_in_a_process_that_exits(keep):
    """A worker still starting when its parent exits prints a traceback under the build's
    one-line error: the command line ends them before it reports the failure; a process that
    builds again keeps them."""
    from sitegen import figures, parallel

    if parallel.workers() < 2:
        pytest.skip("one worker: figures are drawn in the build's own process")
    figures.end_workers()
    with pytest.raises(RuntimeError, match="compute failed"):
        with figures.workers_starting(True, keep):
            raise RuntimeError("compute failed")
    assert (parallel.running_pool() is not None) == keep


def _bar_chart(data):  # at module level: a figure worker imports it to draw
    return {"$schema": "https://vega.github.io/schema/vega-lite/v5.json", "data": {"values": data}, "mark": "bar",
            "encoding": {"x": {"field": "k", "type": "nominal"}, "y": {"field": "v", "type": "quantitative"}}}


def _bars(name: str, n: int):
    from sitegen.families import Figure

    return Figure(name, [{"k": str(i), "v": i} for i in range(n)], _bar_chart, "alt", {}, "test")


def test_a_familys_figures_are_drawn_as_it_hands_them_over_one_job_per_worker_at_a_time(monkeypatch, tmp_path):
    """A build hands each family's figures to the drawing as soon as they are made: they are
    drawn (and put in the figure cache) while the next family computes, before the last
    family's are handed over. The workers are the process's, shared with the bootstraps and
    the screens the build waits for: at most one job per worker is handed to them at a time, so
    that a job submitted meanwhile starts after one figure, not after every figure queued. The
    figures are the same as drawn one by one."""

    from sitegen import figures, incremental, parallel

    if parallel.workers() < 2:
        pytest.skip("one worker: figures are drawn in the build's own process")
    pool = parallel.pool()
    handed, most = [], [0]

    class Counting:  # the pool, counting at each job handed to it those not done yet
        def submit(self, fn, *args):
            job = pool.submit(fn, *args)
            handed.append(job)
            most[0] = max(most[0], sum(not j.done() for j in handed))
            return job

    monkeypatch.setattr(figures, "_pool", lambda: Counting())
    first = [_bars(f"first-{i}", 3 + i) for i in range(5)]
    second = [_bars("second", 4)]
    cache = tmp_path / "figures"
    cache.mkdir()
    drawing = figures.Drawing(cache)
    try:
        drawing.add(first)
        deadline = time.monotonic() + 120  # five small figures take about a second
        while len(list(cache.glob(f"*{incremental.ENTRY_SUFFIX}"))) < len(first):
            assert time.monotonic() < deadline, "the first family's figures were not drawn before the next was handed over"
            time.sleep(0.05)
        drawing.add(second)
        drawing.close()
        drawn = drawing.finish()
    finally:
        drawing.cancel()
    assert sorted(drawn) == sorted(f.name for f in first + second)
    assert len(handed) == 2 * len(first + second)  # an SVG and a PNG each
    assert most[0] <= parallel.workers()
    for fig in first + second:
        assert drawn[fig.name] == figures.render(fig)


# --------------------------------------------------------------------------- a build killed


# A build that stops as its figures stage begins (its figure workers started as it loaded, its
# writer process since the render stage) and says so on stdout, to be SIGKILLed there: no
# cleanup code of any kind runs in it.
STOPPED_AT_FIGURES = """
import sys, time
from pathlib import Path
from sitegen.build import build
from sitegen.config import load_config

def hook(name):
    if name == "figures":
        print("figures", flush=True)
        time.sleep(3600)

build(load_config(Path(sys.argv[1])), Path(sys.argv[2]), on_stage=hook, cache=False)
"""


def _processes() -> dict[int, tuple[int, bytes]]:
    """pid -> (parent pid, command line) of every process that is not a zombie."""
    found = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            state, ppid = (proc / "stat").read_text().rsplit(")", 1)[1].split()[:2]
            cmdline = (proc / "cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        if state != "Z":
            found[int(proc.name)] = (int(ppid), cmdline)
    return found


def _descendants(pid: int) -> dict[int, bytes]:
    procs, out, todo = _processes(), {}, [pid]
    while todo:
        parent = todo.pop()
        for child, (ppid, cmdline) in procs.items():
            if ppid == parent and child not in out:
                out[child] = cmdline
                todo.append(child)
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc, as on Linux")
def test_a_sigkilled_build_leaves_neither_its_figure_workers_nor_its_writer_running(canonic, tmp_path):
    """The figure workers (a vl-convert runtime each, about 190 MB) are forked by the
    multiprocessing forkserver, not by the build: when the build is SIGKILLed they must go too,
    and so must the forkserver, the resource tracker and the writer process, within seconds."""
    from sitegen import parallel

    if parallel.workers() < 2:
        pytest.skip("one worker: figures are drawn in the build's own process")
    root, _ = canonic
    stderr = tmp_path / "stderr"
    with open(stderr, "wb") as err:
        build_proc = subprocess.Popen([sys.executable, "-c", STOPPED_AT_FIGURES, str(root), str(tmp_path / "out")],
                                      stdout=subprocess.PIPE, stderr=err)
    left: dict[int, bytes] = {}
    try:
        ready, _, _ = select.select([build_proc.stdout], [], [], COMMAND_SECONDS)
        assert ready and build_proc.stdout.readline() == b"figures\n", stderr.read_text()
        started = _descendants(build_proc.pid)
        servers = [pid for pid, cmd in started.items() if b"multiprocessing.forkserver" in cmd and
                   _processes()[pid][0] == build_proc.pid]
        workers = [pid for pid in started if servers and _processes().get(pid, (0,))[0] == servers[0]]
        writers = [pid for pid, cmd in started.items() if b"sitegen.disk_writer" in cmd]
        assert len(servers) == 1 and len(workers) == parallel.workers() and len(writers) == 1, started
        os.kill(build_proc.pid, signal.SIGKILL)
        build_proc.wait()
        deadline = time.monotonic() + scaled(30)
        while (left := {pid: cmd for pid, cmd in started.items() if pid in _processes()}) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not left, f"still running 30 s after the build was killed: {sorted(left)} {sorted(set(left.values()))}"
    finally:
        if build_proc.poll() is None:
            build_proc.kill()
            build_proc.wait()
        for pid in left:  # what this test started and the fix did not end
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        build_proc.stdout.close()
