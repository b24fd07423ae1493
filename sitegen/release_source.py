"""Where the previous release is read from: `--previous SRC` (sitegen.releases).

SRC is a folder holding a built site, that site's manifest.json (its releases.json and files
beside it), or the URL of the live site (https; http only on this machine's loopback address,
for a copy served locally). Of it only what the checks need is read: manifest.json and
releases.json, and an archived table's CSV when its bytes differ from this build's.

At a URL, a 404 for manifest.json means there is no live site yet: the build is a first
release, and says so. Any other failure (no answer within TIMEOUT seconds, another HTTP
status, a missing manifest.json in a folder) is an error: a check that cannot be made is not
passed.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

from sitegen.errors import BuildError, short_repr

MANIFEST = "manifest.json"
RELEASES = "releases.json"
TIMEOUT = 30  # seconds for one request to the live site
MAX_BYTES = 1 << 30  # the most read of one file: a manifest at 1000x data is tens of megabytes
_LOOPBACK = ("127.0.0.1", "localhost", "::1")


@dataclass
class Previous:
    """The previous release as read: its manifest's bytes, its releases.json's (None when it
    publishes none), and `read(rel)`, any other file of it by its path (None when absent)."""

    where: str  # SRC as given, for messages
    manifest_bytes: bytes
    releases_bytes: bytes | None
    read: Callable[[str], bytes | None] = field(repr=False)


def read_previous(src: str) -> Previous | None:
    """The previous release at SRC; None when SRC is a URL with no site yet (a 404)."""
    if src.startswith(("http://", "https://")):
        return _from_url(src)
    path = Path(src)
    if path.is_dir():
        base = path
    elif path.is_file():
        base = path.parent
    else:
        raise BuildError(f"--previous {short_repr(src)}: expected a folder holding a built site, its {MANIFEST} or the live site's URL; "
                         "found no such file or folder")
    manifest = path / MANIFEST if path.is_dir() else path
    if not manifest.is_file():
        raise BuildError(f"--previous {short_repr(src)}: expected a built site; found no {MANIFEST} in it")

    def read(rel: str) -> bytes | None:
        p = base / rel
        return _bounded(p.read_bytes(), str(p)) if p.is_file() and not p.is_symlink() else None

    return Previous(src, _bounded(manifest.read_bytes(), str(manifest)), read(RELEASES), read)


def _bounded(data: bytes, where: str) -> bytes:
    if len(data) > MAX_BYTES:
        raise BuildError(f"--previous: {where} is larger than {MAX_BYTES} bytes, more than a release's file can be")
    return data


def _from_url(src: str) -> Previous | None:
    parts = urlsplit(src)
    if not parts.hostname or parts.query or parts.fragment or parts.username:
        raise BuildError(f"--previous {short_repr(src)}: expected the site's address, such as https://benchmarks.example.org/")
    if parts.scheme == "http" and parts.hostname not in _LOOPBACK:
        raise BuildError(f"--previous {short_repr(src)}: expected an https URL (http only on 127.0.0.1 or localhost): "
                         "the previous release is the witness, and plain http lets anyone on the way rewrite it")
    base = src.removesuffix(MANIFEST) if src.endswith("/" + MANIFEST) else src if src.endswith("/") else src + "/"

    def read(rel: str) -> bytes | None:
        return _fetch(base + rel)

    manifest = read(MANIFEST)
    if manifest is None:
        return None
    return Previous(src, manifest, read(RELEASES), read)


def _fetch(url: str) -> bytes | None:
    """The body at URL; None for a 404 (or 410). Anything else that is not a 200 is an error."""
    request = urllib.request.Request(url, headers={"User-Agent": "sitegen (checking the previous release)"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:  # noqa: S310 - the scheme is checked above
            data = response.read(MAX_BYTES + 1)
    except urllib.error.HTTPError as exc:
        if exc.code in (404, 410):
            return None
        raise BuildError(f"--previous: {url} answered HTTP {exc.code} ({exc.reason}); the previous release could not be read") from None
    except (urllib.error.URLError, OSError) as exc:  # no such host, refused, timed out
        reason = getattr(exc, "reason", exc)
        raise BuildError(f"--previous: {url} could not be read ({reason}); the previous release could not be checked") from None
    return _bounded(data, url)
