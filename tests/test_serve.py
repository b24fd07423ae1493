"""`sitegen serve` (the live preview) and build progress on a terminal.

Every server binds 127.0.0.1 on a free port (--port 0) and builds from a copy of the site in
tmp_path. The copies enable one benchmark family (ChronicleBench: no figures, a build in about
a second; NextChapterBench where a figure is needed): serving does not depend on the family,
and the whole demo would make every rebuild several times slower.
"""

from __future__ import annotations

import http.client
import io
import json
import os
import pty
import queue
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import tomllib
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Callable, Iterator
from urllib.parse import urlsplit

import pytest

from sitegen import progress
from sitegen.serve import Preview

from conftest import COMMAND_SECONDS, REPO_ROOT, REQUEST_SECONDS, STARTUP_SECONDS, copy_site, hash_tree


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: str


def fetch(url: str) -> Reply:
    try:
        with urllib.request.urlopen(url, timeout=REQUEST_SECONDS) as r:
            return Reply(r.status, dict(r.headers), r.read().decode("utf-8"))
    except urllib.error.HTTPError as err:
        return Reply(err.code, dict(err.headers), err.read().decode("utf-8"))


def wait_for(what: str, check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {STARTUP_SECONDS:.0f} s: {what}")
        time.sleep(0.1)


def version(url: str) -> dict:
    return json.loads(fetch(url + "__sitegen/version").body)


def declared_csp(root: Path) -> str:
    rules = tomllib.loads((root / "netlify.toml").read_text(encoding="utf-8"))["headers"]
    return next(r["values"]["Content-Security-Policy"] for r in rules if r["for"] == "/*")


def without_reload_tag(page: str) -> str:
    return re.sub(r'<script src="/__sitegen/livereload\.js" data-generation="\d+" defer></script>', "", page)


def site_with_one_family(dest: Path, family: str) -> Path:
    """A copy of the demo site's inputs, netlify.toml included (copy_site leaves it out), that
    publishes one benchmark family."""
    root = copy_site(dest, families=[family])
    shutil.copy2(REPO_ROOT / "netlify.toml", root / "netlify.toml")
    return root


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return site_with_one_family(tmp_path / "site", "chronicle")


@dataclass
class Served:
    root: Path
    out: Path
    url: str
    stderr: io.StringIO


@pytest.fixture
def served(site: Path, tmp_path: Path) -> Iterator[Served]:
    """A preview server in this process, built once and watching its inputs."""
    stderr = io.StringIO()
    preview = Preview(site, tmp_path / "out", "127.0.0.1", 0, stdout=io.StringIO(), stderr=stderr)
    stop = threading.Event()
    watcher = threading.Thread(target=preview.watch, args=(stop,), daemon=True)
    try:
        assert preview.rebuild(), stderr.getvalue()
        url = preview.start()
        watcher.start()
        yield Served(site, preview.out, url, stderr)
    finally:
        stop.set()
        if watcher.is_alive():
            watcher.join(STARTUP_SECONDS)
        preview.close()


# --------------------------------------------------------------------------- the command


class Lines:
    """The lines a process writes to STREAM, read in a thread so that a silent process fails
    the test instead of hanging it, and one that exits fails it at once."""

    def __init__(self, stream: IO[str]):
        self.seen: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[str]) -> None:
        for line in iter(stream.readline, ""):
            self._queue.put(line)
        self._queue.put(None)  # the stream closed: nothing more will come

    def wait_for(self, pattern: str) -> re.Match:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            try:
                line = self._queue.get(timeout=0.2)
            except queue.Empty:
                continue
            if line is None:
                break
            self.seen.append(line)
            if m := re.search(pattern, line):
                return m
        raise AssertionError(f"no line matching {pattern!r} in {self.seen!r}")

    def rest(self) -> str:
        """Everything, once the process has exited."""
        self._thread.join(REQUEST_SECONDS)
        while not self._queue.empty():
            if (line := self._queue.get()) is not None:
                self.seen.append(line)
        return "".join(self.seen)


def as_from_a_terminal() -> None:
    """In the child, before it runs: Ctrl-C delivered and handled as a shell starts a command,
    whatever this test process inherited or blocked."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def signal_state(pid: int) -> str:
    """The kernel's view of a process's signals (blocked, ignored, caught masks), for a failure."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    except OSError:
        return "no /proc status"
    return "; ".join(line for line in status.splitlines() if line.startswith(("State", "SigBlk", "SigIgn", "SigCgt", "Threads")))


def test_serve_sends_the_netlify_headers_and_adds_the_reload_script_only_to_responses(site, tmp_path):
    out = tmp_path / "out"
    command = [sys.executable, "-m", "sitegen", "serve", "--root", str(site), "--out", str(out), "--port", "0"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"}, preexec_fn=as_from_a_terminal) as proc:
        stdout, errors = Lines(proc.stdout), Lines(proc.stderr)  # both read as they come: a full pipe would stall the server
        try:
            url = stdout.wait_for(r"at (http://127\.0\.0\.1:\d+/) ").group(1)

            home = fetch(url)
            assert home.status == 200
            assert home.headers["Content-Security-Policy"] == declared_csp(site)
            assert home.headers["X-Content-Type-Options"] == "nosniff"
            assert home.headers["Content-Type"] == "text/html; charset=utf-8"
            assert re.search(r'<script src="/__sitegen/livereload\.js" data-generation="1" defer></script></body>', home.body)
            on_disk = (out / "index.html").read_text(encoding="utf-8")
            assert without_reload_tag(home.body) == on_disk  # the one difference: the tag, added in flight
            assert [p for p in out.rglob("*.html") if "__sitegen" in p.read_text(encoding="utf-8")] == []

            script = fetch(url + "__sitegen/livereload.js")
            assert script.status == 200 and script.headers["Content-Type"].startswith("text/javascript")
            assert "EventSource" in script.body and "/__sitegen/events" in script.body

            csv_rel = next(out.rglob("*.csv")).relative_to(out).as_posix()
            assert fetch(url + csv_rel).headers["Content-Type"] == "text/csv; charset=utf-8"  # netlify.toml's [[headers]] for /*.csv
            section = fetch(url + "chronicle")  # a directory URL: redirected to its slash, then its index.html
            assert section.status == 200 and "</body>" in section.body

            missing = fetch(url + "no/such/page.csv")
            assert missing.status == 404
            assert missing.headers["Content-Type"] == "text/html; charset=utf-8"  # our page, though the path says csv
            assert "/no/such/page.csv" in missing.body and missing.headers["Content-Security-Policy"] == declared_csp(site)
        finally:
            proc.send_signal(signal.SIGINT)  # Ctrl-C
            try:
                proc.wait(timeout=REQUEST_SECONDS)
            except subprocess.TimeoutExpired:
                state = signal_state(proc.pid)
                proc.kill()
                raise AssertionError(f"serve did not stop on Ctrl-C ({state}); stderr: {errors.rest()[-2000:]!r}") from None
        stderr, printed = errors.rest(), stdout.rest()
    assert proc.returncode == 0, stderr
    assert printed.endswith("stopped\n")
    assert "Traceback" not in stderr and "building:" not in stderr  # stderr is a pipe: no progress line


def request_with_host(url: str, path: str, host: str, address: str = "127.0.0.1") -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection(address, urlsplit(url).port, timeout=REQUEST_SECONDS)
    conn.request("GET", path, headers={"Host": host})
    return conn.getresponse()


def test_a_request_naming_another_host_gets_nothing_of_the_site(served):
    port = urlsplit(served.url).port
    for path in ("/", "/chronicle/", "/__sitegen/version", "/__sitegen/events"):
        for host in (f"attacker.example:{port}", "attacker.example", f"127.0.0.1.attacker.example:{port}",
                     f"localhost:{port + 1}", ""):
            reply = request_with_host(served.url, path, host)
            body = reply.read().decode("utf-8")
            assert reply.status == 421, (path, host)
            assert reply.headers["Content-Type"] == "text/plain; charset=utf-8"
            assert body == f"421 Misdirected Request: this preview answers only to {served.url}\n"
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LocalHost:{port}", f"[::1]:{port}"):
        reply = request_with_host(served.url, "/", host)
        assert reply.status == 200 and "</body>" in reply.read().decode("utf-8"), host


def test_the_name_given_to_listen_on_is_answered_too(site, tmp_path):
    name = socket.gethostname()
    try:
        address = socket.gethostbyname(name)
    except OSError:
        pytest.skip(f"this machine's name {name!r} does not resolve")
    preview = Preview(site, tmp_path / "out", name, 0, stdout=io.StringIO(), stderr=io.StringIO())
    try:
        url = preview.start()
        assert urlsplit(url).hostname == address
        reply = request_with_host(url, "/__sitegen/version", f"{name}:{urlsplit(url).port}", address)
        assert reply.status == 200 and json.loads(reply.read()) == {"generation": 0, "ok": True}
    finally:
        preview.close()


# --------------------------------------------------------------------------- rebuilding


def test_a_saved_markdown_page_is_rebuilt_served_and_announced(served):
    events = http.client.HTTPConnection("127.0.0.1", urlsplit(served.url).port, timeout=REQUEST_SECONDS)
    events.request("GET", "/__sitegen/events")
    stream = events.getresponse()
    assert stream.headers["Content-Type"] == "text/event-stream"

    def next_generation() -> int:
        # each read returns within a keepalive; the deadline bounds a build that never comes
        deadline = time.monotonic() + STARTUP_SECONDS
        while not (line := stream.readline().decode()).startswith("data: "):
            assert line and time.monotonic() < deadline, f"no new generation within {STARTUP_SECONDS:.0f} s"
        return int(line.removeprefix("data: "))

    try:
        assert next_generation() == 1
        page = served.root / "content" / "index.md"
        page.write_text(page.read_text(encoding="utf-8") + "\nFreshly saved paragraph.\n", encoding="utf-8")
        assert next_generation() == 2  # what the reload script waits for
        assert "<p>Freshly saved paragraph.</p>" in fetch(served.url).body
        assert "Freshly saved paragraph." in (served.out / "index.html").read_text(encoding="utf-8")
        assert version(served.url) == {"generation": 2, "ok": True}
    finally:
        events.close()


def test_a_broken_artifact_shows_its_problems_escaped_and_a_fix_recovers(served):
    before = hash_tree(served.out)
    artifact = served.root / "data" / "chronicle" / "cohort.json"
    good = artifact.read_bytes()
    artifact.write_text('{"<script>alert(1)</script>": 1, "<script>alert(1)</script>": 2}\n', encoding="utf-8")
    wait_for("the failed build is served", lambda: not version(served.url)["ok"])

    page = fetch(served.url + "chronicle/")
    assert page.status == 500
    assert "The build failed" in page.body and "data/chronicle/cohort.json" in page.body
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.body
    assert "<script>alert" not in page.body
    assert re.findall(r"<script[^>]*>", page.body) == ['<script src="/__sitegen/livereload.js" data-generation="2" defer>']
    assert " style=" not in page.body and "<style" not in page.body  # the CSP allows neither
    assert page.headers["Content-Security-Policy"] == declared_csp(served.root)
    sheet = re.search(r'<link rel="stylesheet" href="(/[^"]+)">', page.body).group(1)
    assert fetch(served.url + sheet.lstrip("/")).headers["Content-Type"] == "text/css; charset=utf-8"
    assert "cohort.json" in served.stderr.getvalue()  # the terminal shows them too

    assert hash_tree(served.out) == before  # the previous output, untouched
    assert fetch(served.url + "assets/site.css").status == 200  # and its files still served

    artifact.write_bytes(good)
    wait_for("the fixed build is served", lambda: version(served.url) == {"generation": 3, "ok": True})
    page = fetch(served.url + "chronicle/")
    assert page.status == 200 and "The build failed" not in page.body


# --------------------------------------------------------------------------- progress


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_the_stage_its_time_and_the_figure_count_on_a_terminal():
    term = FakeTerminal()
    with progress.for_terminal(term, environ={}) as shown:
        shown.stage("render")
        time.sleep(progress.REDRAW_SECONDS * 3)  # redrawn while the stage runs: the time moves
        shown.stage("figures")
        shown.figures(12, 40)
    text = term.getvalue()
    assert len(re.findall(r"building: render  \d+\.\d s", text)) >= 2
    assert "building: figures 12/40  0.0 s" in text
    assert text.endswith("\r\x1b[K")  # the line is erased when the build ends


@pytest.mark.parametrize("stream, environ", [(FakeTerminal(), {"CI": "true"}), (io.StringIO(), {})], ids=["CI", "not a TTY"])
def test_no_progress_in_ci_or_when_not_a_terminal(stream, environ):
    with progress.for_terminal(stream, environ=environ) as shown:
        shown.stage("figures")
        shown.figures(12, 40)
    assert stream.getvalue() == ""


def test_sitegen_build_shows_progress_on_a_real_terminal(tmp_path):
    site = site_with_one_family(tmp_path / "site", "nextchapter")  # its three figures, drawn afresh
    parent, child = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    proc = subprocess.Popen([sys.executable, "-m", "sitegen", "build", "--root", str(site), "--out", str(tmp_path / "out")],
                            stdout=subprocess.PIPE, stderr=child, env=env)
    os.close(child)
    shown = b""
    deadline = time.monotonic() + COMMAND_SECONDS
    try:
        while time.monotonic() < deadline:
            if not select.select([parent], [], [], 0.2)[0]:
                continue
            try:
                chunk = os.read(parent, 4096)
            except OSError:  # the build exited and closed the terminal
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(parent)
        stdout, _ = proc.communicate(timeout=REQUEST_SECONDS)
    assert proc.returncode == 0
    text = shown.decode("utf-8")
    assert "building: load" in text and "building: render" in text
    # The figure count ends at 3/3. Where it starts depends on how busy the machine is: the
    # figures are drawn while pages are written, so the stage may begin with them all done.
    assert "building: figures 3/3  " in text
    assert text.endswith("\r\x1b[K")
    assert stdout.decode().startswith("built ")
