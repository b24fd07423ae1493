"""What `sitegen verify` derives again, beside the tables, from the outputs it recomputed from
a site's raw records: each family's own generated files (a feed of its own), the site's Atom
feed, SHA256SUMS and each family's archive (downloads/<family>.zip).

A file the build makes from the others is checked against what the others give, not against
the manifest alone (which whoever changed it could have rewritten too):

- a family's generated files and feed.xml are made again from the recomputed outputs and the
  amendment logs under raw/, and compared byte for byte. Only feed.xml's head (the site's
  title and address) is taken from the feed itself: the records do not hold it;
- SHA256SUMS is made again from the published files' SHA-256s, which the manifest check has
  just held to the files' bytes;
- an archive must hold exactly the family's downloads (no extra member, none missing, none
  twice), each member byte for byte the file published at the same path. An archive is only
  read, member by member and in pieces, never unpacked.
"""

from __future__ import annotations

import html
import json
import re
import zipfile
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

from sitegen import site_index
from sitegen.publish import json_bytes

if TYPE_CHECKING:
    from sitegen.config import SiteConfig
    from sitegen.families import Outputs

_PIECE = 1 << 20  # bytes of an archive member and its published file compared at a time


def derived_checks(files: dict[str, Path], hashes: dict[str, str], outputs: dict[str, "Outputs"], config: "SiteConfig",
                   feed: list = ()) -> list[str]:
    """One line per file among those above that is not what the recomputed OUTPUTS (their
    amendment logs' text placed) and the published FILES give. HASHES: the manifest's SHA-256
    of each file."""
    out = []
    for o in outputs.values():
        for rel, data in sorted(o.files.items()):
            out.extend(_same_bytes(files, rel, data))
    out.extend(_feed_checks(files, outputs, config, feed))
    present = {rel: sha for rel, sha in hashes.items() if rel in files}
    sizes = {rel: files[rel].lstat().st_size for rel in present}
    sections = site_index.downloads(outputs, present, sizes)
    by_id = {s.id: s for s in sections}
    # what no family's outputs name (the site's own feed aside) is a file no build writes
    for group in by_id["dl-site"].groups if "dl-site" in by_id else ():
        out += [f"{f.path}: published, but not a table, figure, raw record or file of any family" for f in group.files
                if f.path not in (site_index.FEED_FILE, site_index.RELEASES_FILE)]  # (the releases: release_checks.site_checks)
    for fid in outputs:
        if (sec := by_id.get(f"dl-{fid}")) is None:
            continue
        rel = site_index.archive_path(fid)
        members = {f.path: files[f.path] for f in sec.files if f.path != rel}
        if rel not in files:
            out.append(f"{rel}: not published, though the {fid} family publishes {len(members)} downloads")
        else:
            out.extend(archive_checks(rel, files[rel], members))
    out.extend(_same_bytes(files, site_index.SUMS_FILE, site_index.sha256sums(sections), by_line=True))
    return out


def _same_bytes(files: dict[str, Path], rel: str, derived: bytes, by_line: bool = False) -> list[str]:
    if rel not in files:
        return [f"{rel}: derived from the records but not published"]
    published = files[rel].read_bytes()
    if published == derived:
        return []
    if by_line:  # a list: every line that differs, not only the first
        a, b = published.decode("utf-8", "replace").splitlines(), derived.decode("utf-8").splitlines()
        return ([f"{rel}: {shown(x)} is not a line the published files give" for x in sorted(set(a) - set(b))]
                + [f"{rel}: lacks {shown(x)}, a line the published files give" for x in sorted(set(b) - set(a))]
                or [first_difference(rel, published, derived, "derived")])
    return [first_difference(rel, published, derived, "derived")]


def record_checks(manifest: dict, records: dict) -> list[str]:
    """The manifest's "artifacts" and "provenance" against RECORDS, those the recomputed outputs
    give (build.manifest_records): one line per record that differs, is extra or is missing."""
    derived = json.loads(json_bytes(records))  # as a manifest holds them: lists, not tuples
    out = []
    for key in ("artifacts", "provenance"):
        published, want = manifest.get(key, {}), derived.get(key, {})
        if not isinstance(published, dict):
            out.append(f"manifest.json $.{key}: expected an object of records; found {type(published).__name__}")
            continue
        for name in sorted(published.keys() | want.keys()):
            where = f"manifest.json $.{key}[{json.dumps(name, ensure_ascii=False)}]"
            if name not in want:
                out.append(f"{where}: not a record the raw records give")
            elif name not in published:
                out.append(f"{where}: missing; the raw records give it")
            elif published[name] != want[name]:
                out.append(f"{where}: differs from the record the raw records give")
    return out


# --------------------------------------------------------------------------- the site's feed

_HEAD_TITLE = re.compile(r"<title>Updates · (.*?)</title>")
_HEAD_SELF = re.compile(r'<link rel="self" href="([^"]*)"/>')
_ENTRY = re.compile(r"  <entry>\n    <id>(.*?)</id>\n.*?  </entry>\n", re.S)


def _feed_checks(files: dict[str, Path], outputs: dict[str, "Outputs"], config: "SiteConfig", extra: list) -> list[str]:
    """feed.xml against the entries the records give: the families', and EXTRA, the site's
    releases as its releases.json (checked apart) gives them."""
    rel = site_index.FEED_FILE
    n = sum(len(o.feed) for o in outputs.values()) + len(extra)
    if rel not in files:
        return [f"{rel}: not published, though the records give {n} entries for it"] if n else []
    published = files[rel].read_bytes()
    head = published.split(b"<entry>", 1)[0].decode("utf-8", "replace")
    title, self_link = _HEAD_TITLE.search(head), _HEAD_SELF.search(head)
    if not (title and self_link):
        return [f"{rel}: no head of a site feed (the title \"Updates · ...\" and a self link) to derive its entries under"]
    href = html.unescape(self_link.group(1))
    base = href.removesuffix(rel) if href != rel else "/"  # a feed linked relatively is the same feed under any relative base
    derived = site_index.site_feed(config.model_copy(update={"title": html.unescape(title.group(1)), "base_url": base}), outputs, extra)
    if derived is None:
        return [f"{rel}: published, but the records give no entry for a feed"]
    if derived == published:
        return []
    text, want = published.decode("utf-8", "replace"), derived.decode("utf-8")
    a = {m.group(1): m.group(0) for m in _ENTRY.finditer(text)}
    b = {m.group(1): m.group(0) for m in _ENTRY.finditer(want)}
    lines = []
    for eid in sorted(a.keys() | b.keys()):
        if eid not in b:
            lines.append(f"{rel}: entry {shown(eid)} is not one the records give")
        elif eid not in a:
            lines.append(f"{rel}: lacks entry {shown(eid)}, which the records give")
        elif a[eid] != b[eid]:
            lines.append(first_difference(f"{rel} entry {shown(eid)}", a[eid].encode(), b[eid].encode(), "derived"))
    return lines or [first_difference(rel, published, derived, "derived")]


# --------------------------------------------------------------------------- archives

# What reading a damaged or hostile zip can raise: a bad header or CRC, a broken deflate stream,
# a truncated file, an encrypted or unsupported member.
_ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError, ValueError, OSError)


def archive_checks(rel: str, path: Path, members: dict[str, Path]) -> list[str]:
    """The archive at PATH (output path REL) against MEMBERS, the files it must hold by the
    path each is published at: one line per member missing, extra, held twice, or not byte for
    byte the published file."""
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            names = [i.filename for i in infos]
            out = [f"{rel}: holds {shown(n)} {names.count(n)} times" for n in sorted({n for n in names if names.count(n) > 1})]
            out += [f"{rel}: holds {shown(n)}, which is not a download the family publishes" for n in sorted(set(names) - members.keys())]
            out += [f"{rel}: lacks {shown(n)}, a download the family publishes" for n in sorted(members.keys() - set(names))]
            for info in infos:
                if info.filename in members and names.count(info.filename) == 1:
                    out.extend(_member_check(rel, zf, info, members[info.filename]))
            return out
    except _ZIP_ERRORS as exc:
        return [f"{rel}: not a readable zip archive ({exc})"]


def _member_check(rel: str, zf: zipfile.ZipFile, info: zipfile.ZipInfo, published: Path) -> list[str]:
    where = f"{rel}: {shown(info.filename)}"
    size = published.lstat().st_size
    if info.file_size != size:
        return [f"{where} is {info.file_size} bytes, the published file {size}"]
    at = 0
    try:
        with zf.open(info) as member, open(published, "rb") as pub:
            while True:  # (zipfile reads no more than the size the member declares)
                a, b = member.read(_PIECE), pub.read(_PIECE)
                if a != b:
                    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                    return [f"{where} differs from the published file from byte {at + first}"]
                if not a:
                    return []
                at += len(a)
    except _ZIP_ERRORS as exc:
        return [f"{where} cannot be read from the archive ({exc})"]


# --------------------------------------------------------------------------- differences


def shown(text: str) -> str:
    """A name from a file as a line shows it: as it is, or quoted when it holds a control
    character or spaces at its ends."""
    if text.strip() == text and not any(ord(c) < 32 or c == "\x7f" for c in text):
        return text
    return json.dumps(text, ensure_ascii=False)


def _snippet(line: str, at: int) -> str:
    start, end = max(0, at - 30), at + 30
    text = ("..." if start else "") + line[start:end] + ("..." if end < len(line) else "")
    return json.dumps(text, ensure_ascii=False)


def first_difference(rel: str, published: bytes, other: bytes, other_name: str = "rebuilt") -> str:
    """Where a published file first differs from OTHER (the rebuilt or the derived one): the
    line, for text."""
    try:
        a, b = published.decode("utf-8").split("\n"), other.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        at = next((i for i, (x, y) in enumerate(zip(published, other)) if x != y), min(len(published), len(other)))
        return f"{rel}: differs from the {other_name} file from byte {at} (published {len(published)} bytes, {other_name} {len(other)})"
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    x, y = (a[i] if i < len(a) else None), (b[i] if i < len(b) else None)
    if x is None or y is None:
        return f"{rel} line {i + 1}: the {'published' if x is None else other_name} file ends before it"
    at = next((j for j, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
    return f"{rel} line {i + 1}: published {_snippet(x, at)} {other_name} {_snippet(y, at)}"
