"""`sitegen serve`: a live preview. Build the site, serve the output directory over HTTP with
the headers netlify.toml declares, rebuild when an input changes, reload the open pages.

The built files are never altered: the reload script is added to HTML responses as they are
sent (`<script src="/__sitegen/livereload.js" data-generation="N" defer>` before `</body>`),
an external script so that the site's strict Content-Security-Policy allows it. The server's
own files and endpoints live under /__sitegen/, a path no site publishes:

    /__sitegen/livereload.js   the reload script (sitegen/serve_assets/)
    /__sitegen/serve.css       the stylesheet of the server's own pages
    /__sitegen/events          server-sent events: the build generation, on connect and after each build
    /__sitegen/version         {"generation": N, "ok": true|false} for anything that polls

Every build, failed or not, starts a new generation. A failed build leaves the previous
output as it was (the build guarantees that); until a later build succeeds, every page
request gets an error page listing the problems, and files (CSS, figures) still come from
the previous output.

A request whose Host header names neither loopback (127.0.0.1, localhost, [::1]) nor the name or
address the server listens on, with its port, gets a 421 and nothing of the site: a page of
another site whose name resolves to this machine (DNS rebinding) cannot read the preview.

Inputs are watched by polling a cheap signature (path, size, mtime) every POLL_SECONDS:
no dependency, and it works the same on every file system, network mounts included.
"""

from __future__ import annotations

import html
import json
import os
import socket
import stat
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import TextIO
from urllib.parse import unquote, urlsplit

from sitegen import folders, progress, publish
from sitegen.build import build
from sitegen.config import load_config
from sitegen.errors import SitegenError
from sitegen.load import INPUT_PARTS, is_skipped
from sitegen.netlify import HeaderRule, headers_for, load_header_rules

WATCHED = INPUT_PARTS + ("netlify.toml",)  # what the build reads, and the headers it is served with
POLL_SECONDS = 0.3
QUIET_SECONDS = 0.3  # a burst of saves (an editor, a formatter, git) is built once it has settled
KEEPALIVE_SECONDS = 15  # an idle event stream sends a comment this often, so a closed tab is noticed

PREFIX = "/__sitegen/"
LIVERELOAD_URL = PREFIX + "livereload.js"
STYLESHEET_URL = PREFIX + "serve.css"
EVENTS_URL = PREFIX + "events"
VERSION_URL = PREFIX + "version"
SERVED_ASSETS = {"livereload.js": "text/javascript; charset=utf-8", "serve.css": "text/css; charset=utf-8"}

# Explicit types for what a site publishes: the system's mimetypes table varies by machine, and
# netlify.toml's `X-Content-Type-Options: nosniff` makes browsers trust the declared type.
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8",
    ".json": "application/json", ".jsonl": "text/plain; charset=utf-8", ".csv": "text/csv; charset=utf-8",
    ".md": "text/plain; charset=utf-8", ".txt": "text/plain; charset=utf-8", ".xml": "application/xml; charset=utf-8",
    ".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon", ".woff2": "font/woff2",
    ".ttf": "font/ttf",
}

Signature = frozenset[tuple[str, int, int]]


# --------------------------------------------------------------------------- watching the inputs


def input_signature(root: Path) -> Signature:
    """(relative path, size, mtime_ns) of every watched input: any save, creation, deletion or
    rename changes it. Only stat calls, so polling a large site stays cheap. A folder that
    cannot be listed or lies too deep is an entry of its own (the build names it): the watcher
    never dies of a tree it cannot walk."""
    entries: set[tuple[str, int, int]] = set()
    faults: list[folders.Fault] = []
    for name in WATCHED:
        top = root / name
        found = ((e.path, f"{rel}/{e.name}") for _, rel, es in folders.walk(str(top), name, faults, is_skipped)
                 for e in es) if top.is_dir() else [(str(top), name)]
        for path, rel in found:  # no dot-file or editor dropping: not inputs, saved on every keystroke
            try:
                st = os.stat(path)
            except OSError:  # absent, or deleted since the listing: the next poll sees it gone
                continue
            if stat.S_ISREG(st.st_mode):
                entries.add((rel, st.st_size, st.st_mtime_ns))
    entries.update((f.rel, -1, -1) for f in faults)
    return frozenset(entries)


def changed_paths(before: Signature, after: Signature) -> list[str]:
    """The inputs that differ between two signatures (added, removed or modified)."""
    return sorted({path for path, _, _ in before ^ after})


# --------------------------------------------------------------------------- what is being served


@dataclass(frozen=True)
class Status:
    """The outcome of the latest build, replaced whole after each one."""

    generation: int
    problems: str | None = None  # the text `sitegen build` prints, when the build failed
    rules: list[HeaderRule] = field(default_factory=list)  # netlify.toml's header rules


class Generations:
    """The current Status, shared by the builder and the request threads; event streams wait
    here for the next build."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._status = Status(0)
        self._closed = False

    @property
    def status(self) -> Status:
        with self._changed:
            return self._status

    def publish(self, problems: str | None, rules: list[HeaderRule] | None) -> Status:
        """Start the next generation. `rules` None keeps the previous rules (netlify.toml did not load)."""
        with self._changed:
            old = self._status
            self._status = Status(old.generation + 1, problems, old.rules if rules is None else rules)
            self._changed.notify_all()
            return self._status

    def wait(self, seen: int | None, timeout: float) -> Status | None:
        """The status once its generation differs from SEEN (or after TIMEOUT, unchanged);
        None once the server is closing."""
        with self._changed:
            self._changed.wait_for(lambda: self._closed or self._status.generation != seen, timeout)
            return None if self._closed else self._status

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()


# --------------------------------------------------------------------------- responses


@dataclass(frozen=True)
class Response:
    status: int
    headers: dict[str, str]
    body: bytes
    own: bool = False  # a page of the server's own: its Content-Type wins over netlify.toml's (a 404 for a .csv is HTML)


def livereload_tag(generation: int) -> str:
    return f'<script src="{LIVERELOAD_URL}" data-generation="{generation}" defer></script>'


def inject_livereload(page: bytes, generation: int) -> bytes:
    """The page with the reload script before its last </body> (at the end when it has none)."""
    tag = livereload_tag(generation).encode("ascii")
    at = page.lower().rfind(b"</body>")
    return page + tag if at < 0 else page[:at] + tag + page[at:]


def _own_page(title: str, heading: str, body_html: str, generation: int, heading_class: str = "") -> bytes:
    """A page of the server's own (error, not found): no inline style or script, for the CSP."""
    cls = f' class="{heading_class}"' if heading_class else ""
    page = (f'<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)} · sitegen serve</title>\n"
            f'<link rel="stylesheet" href="{STYLESHEET_URL}">\n</head>\n<body>\n<main>\n'
            f"<h1{cls}>{html.escape(heading)}</h1>\n{body_html}</main>\n</body>\n</html>\n")
    return inject_livereload(page.encode("utf-8"), generation)


def error_page(problems: str, generation: int) -> bytes:
    """The page every HTML request gets while the latest build has failed. The problems quote
    the inputs (untrusted text), so they are escaped."""
    body = ("<p>The previous build is still on disk, unchanged. Fix the inputs listed here and save: "
            "this page reloads when the site builds again.</p>\n"
            f"<pre>{html.escape(problems)}</pre>\n")
    return _own_page("Build failed", "The build failed", body, generation, "failed")


def not_found_page(url_path: str, generation: int) -> bytes:
    body = f'<p>Nothing is built at <code>{html.escape(url_path)}</code>. <a href="/">The home page</a>.</p>\n'
    return _own_page("Not found", "Not found", body, generation)


def _html_response(status: int, body: bytes) -> Response:
    return Response(status, {"Content-Type": CONTENT_TYPES[".html"]}, body, own=True)


def _file_under(out_dir: Path, url_path: str) -> Path | None:
    """The file or directory URL_PATH names inside OUT_DIR; None for a path that would leave it."""
    parts = [p for p in unquote(url_path).split("/") if p not in ("", ".")]
    if any(p == ".." or "\\" in p or "\0" in p for p in parts):
        return None
    return out_dir.joinpath(*parts)


def _is_page_url(url_path: str) -> bool:
    """Whether a browser asking for URL_PATH expects a page: a directory URL, an .html file, or
    a path without a file suffix."""
    last = url_path.rsplit("/", 1)[-1]
    return last == "" or last.endswith(".html") or "." not in last


def site_response(out_dir: Path, status: Status, url_path: str) -> Response:
    """What the preview sends for URL_PATH (the headers from netlify.toml are added by the caller)."""
    target = _file_under(out_dir, url_path)
    if target is not None and target.is_dir():
        if not url_path.endswith("/"):  # so that the page's relative links resolve from the directory
            return Response(301, {"Location": url_path + "/"}, b"")
        target = target / "index.html"
    if status.problems is not None and _is_page_url(url_path):
        return _html_response(500, error_page(status.problems, status.generation))
    if target is None or not target.is_file():
        return _html_response(404, not_found_page(url_path, status.generation))
    try:
        body = target.read_bytes()
    except OSError:  # replaced by a rebuild's swap between the check and the read
        return _html_response(404, not_found_page(url_path, status.generation))
    if target.suffix == ".html":
        body = inject_livereload(body, status.generation)
    return Response(200, {"Content-Type": CONTENT_TYPES.get(target.suffix, "application/octet-stream")}, body)


def own_response(status: Status, url_path: str) -> Response:
    """The server's own files under /__sitegen/ (the event stream is handled by the handler)."""
    name = url_path.removeprefix(PREFIX)
    if url_path == VERSION_URL:
        body = json.dumps({"generation": status.generation, "ok": status.problems is None}).encode("utf-8")
        return Response(200, {"Content-Type": "application/json"}, body)
    if name in SERVED_ASSETS:
        body = resources.files("sitegen").joinpath("serve_assets", name).read_bytes()
        return Response(200, {"Content-Type": SERVED_ASSETS[name]}, body)
    return _html_response(404, not_found_page(url_path, status.generation))


# --------------------------------------------------------------------------- the HTTP server


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    server_version = "sitegen-serve"

    def do_GET(self) -> None:
        self._respond(send_body=True)

    def do_HEAD(self) -> None:
        self._respond(send_body=False)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the terminal is for build output, not one line per request."""

    def _respond(self, send_body: bool) -> None:
        if (self.headers.get("Host") or "").lower() not in self.server.hosts:
            self._misdirected(send_body)
            return
        preview = self.server.preview
        url_path = urlsplit(self.path).path or "/"
        status = preview.generations.status
        if url_path == EVENTS_URL and send_body:
            self._stream_events(preview.generations)
            return
        if url_path.startswith(PREFIX):
            response = own_response(status, url_path)
        else:
            response = site_response(preview.out, status, url_path)
        # What Netlify would send for this path (CSP first of all), with caching off: a preview
        # must show each rebuild, never a copy the browser kept.
        declared = headers_for(status.rules, url_path)
        headers = {**declared, **response.headers} if response.own else {**response.headers, **declared}
        headers["Cache-Control"] = "no-store"
        self.send_response(response.status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        if send_body:
            self.wfile.write(response.body)

    def _misdirected(self, send_body: bool) -> None:
        """A request naming another host: a page of some other site whose name was pointed at this
        machine (DNS rebinding) must not read the preview, so it gets nothing of it."""
        body = f"421 Misdirected Request: this preview answers only to {self.server.url}\n".encode("utf-8")
        self.send_response(421)
        self.send_header("Content-Type", CONTENT_TYPES[".txt"])
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if send_body:
            self.wfile.write(body)

    def _stream_events(self, generations: Generations) -> None:
        """Server-sent events: `data: N` with the generation on connect and after each build."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        seen: int | None = None
        self.wfile.write(b"retry: 1000\n\n")  # reconnect within a second when the server restarts
        while (status := generations.wait(seen, KEEPALIVE_SECONDS)) is not None:
            if status.generation == seen:
                self.wfile.write(b": keepalive\n\n")  # fails once the tab is gone, ending this thread
            else:
                seen = status.generation
                self.wfile.write(f"data: {seen}\n\n".encode("ascii"))


def allowed_hosts(listening: tuple[str, ...], port: int) -> frozenset[str]:
    """The Host headers the preview answers: loopback by name or address, and the name and the
    address it listens on (--host and what it resolved to), with the port (a browser leaves out
    only :80)."""
    names = {"127.0.0.1", "localhost", "[::1]", *((f"[{h}]" if ":" in h else h).lower() for h in listening)}
    with_port = {f"{name}:{port}" for name in names}
    return frozenset(with_port | names if port == 80 else with_port)


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # an open event stream must not hold up the exit

    def __init__(self, host: str, port: int, preview: Preview):
        self.preview = preview
        if ":" in host:
            self.address_family = socket.AF_INET6
        super().__init__((host, port), _Handler)
        self.hosts = allowed_hosts((host, self.server_address[0]), self.server_address[1])

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"

    def handle_error(self, request: object, client_address: object) -> None:
        # A browser that closes a connection early (a reload, a closed tab) is not an error.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


# --------------------------------------------------------------------------- the preview


class Preview:
    """A site being served and rebuilt. Binds HOST:PORT when created (port 0: any free port);
    `rebuild()` builds, `start()` serves in a background thread, `watch()` rebuilds on change
    until its stop event is set, `close()` stops serving."""

    def __init__(self, root: Path, out: Path | None, host: str, port: int, *,
                 stdout: TextIO | None = None, stderr: TextIO | None = None, clean: bool = False):
        self.root = Path(root).resolve()
        given = Path(out) if out is not None else self.root / "_site"
        self.clean = clean  # every rebuild, as `sitegen build --clean`
        publish.check_output_dir(given, self.root, clean)  # a wrong --out is refused now, not after a build
        self.out = given.resolve()
        self.stdout = stdout or sys.stdout
        self.stderr = stderr or sys.stderr
        self.generations = Generations()
        self._seen: Signature = frozenset()
        self._thread: threading.Thread | None = None
        self._server = _Server(host, port, self)

    @property
    def url(self) -> str:
        return self._server.url

    def rebuild(self) -> bool:
        """Build once and start the next generation. Never raises for a failed build (only for
        Ctrl-C): its problems go to stderr and to the error page. True when the build succeeded."""
        self._seen = input_signature(self.root)  # before building: a save during the build triggers the next one
        started = time.perf_counter()
        rules: list[HeaderRule] | None = None
        try:
            rules = load_header_rules(self.root)
            with progress.for_terminal(self.stderr) as shown:
                result = build(load_config(self.root), self.out, on_stage=shown.stage, on_figure=shown.figures, clean=self.clean)
        except SitegenError as exc:
            problems = str(exc)
        except Exception:  # a bug in a stage, not bad input: show it, keep serving
            problems = "the build crashed:\n" + traceback.format_exc()
        else:
            problems = None
            for warning in result.warnings:
                self._say(f"warning: {warning}", self.stderr)
            self._say(f"built {result.pages} pages, {result.files} files into {result.out_dir} "
                      f"in {time.perf_counter() - started:.2f} s", self.stdout)
        if problems is not None:
            self._say(problems, self.stderr)
            self._say(f"the previous output in {self.out} is unchanged; pages show these problems until a build succeeds", self.stderr)
        self.generations.publish(problems, rules)
        return problems is None

    def start(self) -> str:
        """Serve in a background thread; returns the URL."""
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.2},
                                        name="sitegen-serve", daemon=True)
        self._thread.start()
        return self.url

    def watch(self, stop: threading.Event) -> None:
        """Poll the inputs and rebuild after each settled change, until STOP is set."""
        while not stop.wait(POLL_SECONDS):
            now = input_signature(self.root)
            if now == self._seen:
                continue
            while not stop.wait(QUIET_SECONDS):  # wait for the burst of saves to end
                later = input_signature(self.root)
                if later == now:
                    break
                now = later
            else:
                return
            changed = changed_paths(self._seen, now)
            self._say(f"changed: {', '.join(changed[:3])}" + (f" and {len(changed) - 3} more" if len(changed) > 3 else ""), self.stdout)
            self.rebuild()

    def close(self) -> None:
        """Stop serving: end the event streams, stop the server thread, release the port."""
        self.generations.close()
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join()
        self._server.server_close()

    @staticmethod
    def _say(text: str, stream: TextIO) -> None:
        print(text, file=stream, flush=True)
