"""`sitegen verify DIR`: check a built site against itself and against its raw records.

1. Every file listed in manifest.json has the SHA-256 the manifest gives; nothing is missing
   and nothing unlisted was added.
2. Every source artifact under raw/ has the SHA-256 the manifest records for it.
3. Every published table and every figure's data is recomputed from the raw records (the same
   validation and computation a build runs) and compared with the published CSV and JSON byte
   for byte; a difference is reported down to the row and column.
4. What the build makes from those outputs is made again and compared (verify_derived.py):
   the manifest's artifacts and provenance, each family's own files, feed.xml's entries,
   SHA256SUMS, and every family's archive member by member; a download no family gives is
   reported.

Anyone can run it on a downloaded copy of the site: it needs the site, not the repository.
Pages (and the numbers they show), figures' SVG, PNG and Vega-Lite specs, assets, the sitemap
and robots.txt, and feed.xml's title and address are then checked by hash alone, against a
manifest that whoever changed them could have rewritten too; the CLI's closing words say so.
A folder or file that cannot be read is one line naming it. With the repository the site was built
from (`verify DIR --source REPO`), the site is built again from scratch and every file of DIR
compared with the rebuilt one byte for byte instead: builds are reproducible, so any
difference is a change made after the build.

Only regular files inside DIR are read: a manifest entry that is not a plain relative path
is a problem of the manifest, and a symbolic link (or any other non-regular file) inside DIR
is reported, never followed.
"""

from __future__ import annotations

import csv
import io
import json
import re
import tempfile
from pathlib import Path

from sitegen import amendments, collector, numbers, output_dir, publish, render
from sitegen.site_files import MANIFEST, listed_checks, tree
from sitegen.errors import InputError, Problem, short_repr
from sitegen.families import declared, published
from sitegen.site_families import for_site, installed
from sitegen.load import Loaded, sha256_bytes

RAW_DIR = "raw"


_SHA256 = re.compile(r"[0-9a-f]{64}")
PLAIN_PATH = "a plain relative path (no leading /, no empty, . or .. part, no backslash, no control character)"


def _plain_relative(rel: object) -> bool:
    """A path a build writes (publish.is_plain_path), and without what no build writes either:
    a backslash (another separator on some systems) or a control character."""
    return (isinstance(rel, str) and "\\" not in rel and not any(ord(c) < 32 or c == "\x7f" for c in rel)
            and publish.is_plain_path(rel))


def read_manifest(data: bytes) -> tuple[dict, list[str]]:
    """manifest.json parsed, and one line per way it is not what a build writes: JSON, an
    object, "files" (and "sources", when present) an object of plain relative paths to
    SHA-256s, "families" (when present) a list of names. Nothing is read on a path it gives
    unless it passes."""
    def problem(path: str, expected: str, found: str, line: int | None = None) -> str:
        return str(Problem(MANIFEST, line, path, expected, found))

    try:
        manifest = json.loads(data)
    except (ValueError, RecursionError) as e:
        return {}, [problem("", "JSON", f"invalid JSON ({getattr(e, 'msg', type(e).__name__)})", getattr(e, "lineno", None))]
    if not isinstance(manifest, dict):
        return {}, [problem("$", "an object", short_repr(manifest))]
    out = []
    if "files" not in manifest:
        out.append(problem("$.files", "an object of path -> SHA-256", "none"))
    for key in ("files", "sources"):
        listed = manifest.get(key, {})
        if not isinstance(listed, dict):
            out.append(problem(f"$.{key}", "an object of path -> SHA-256", short_repr(listed)))
            continue
        for rel, sha in listed.items():
            where = f"$.{key}[{json.dumps(rel, ensure_ascii=False)}]"
            if not _plain_relative(rel):
                out.append(problem(where, PLAIN_PATH, short_repr(rel)))
            if not (isinstance(sha, str) and _SHA256.fullmatch(sha)):
                out.append(problem(where, "a SHA-256 (64 lowercase hex digits)", short_repr(sha)))
    families = manifest.get("families", [])
    if not (isinstance(families, list) and all(isinstance(f, str) for f in families)):
        out.append(problem("$.families", "a list of family names", short_repr(families)))
    return (manifest if not out else {}), out


def _hash_checks(files: dict[str, Path], manifest: dict) -> list[str]:
    out = listed_checks(files, manifest["files"])
    for rel, sha in sorted(manifest.get("sources", {}).items()):
        raw = files.get(f"{RAW_DIR}/{rel}")
        if raw is not None and sha256_bytes(raw.read_bytes()) != sha:
            out.append(f"{RAW_DIR}/{rel}: SHA-256 differs from the source the site was built from ({sha})")
    return out


def _csv_diff(rel: str, published: bytes, recomputed: bytes) -> list[str]:
    pub = list(csv.reader(io.StringIO(published.decode("utf-8", "replace"))))
    rec = list(csv.reader(io.StringIO(recomputed.decode("utf-8"))))
    out = []
    if pub[:1] != rec[:1]:
        return [f"{rel}: columns {pub[:1]} differ from the recomputed {rec[:1]}"]
    header = rec[0] if rec else []
    for i in range(1, max(len(pub), len(rec))):
        a = pub[i] if i < len(pub) else None
        b = rec[i] if i < len(rec) else None
        if a == b:
            continue
        if a is None or b is None:
            out.append(f"{rel} row {i}: {'missing' if a is None else 'extra'} row (recomputed: {b})")
            continue
        for col, x, y in zip(header, a, b):
            if x != y:
                out.append(f"{rel} row {i} column {col}: published {x!r}, recomputed {y!r}")
    return out


def _recompute_checks(site: Path, files: dict[str, Path], manifest: dict, previous=None) -> list[str]:
    """Recompute every family whose raw records the site publishes. Which families those are
    is read from raw/, not taken from the manifest, so an edited manifest cannot switch
    recomputation off."""
    root = site / RAW_DIR
    families = [fid for fid in installed() if (root / "data" / fid).is_dir()]
    families += [fid for fid in declared.found(root) if fid not in installed() and (root / "data" / fid).is_dir()]
    out = []
    claimed = manifest.get("families", [])
    if sorted(claimed) != sorted(families):
        out.append(f"manifest.json: families {claimed} differ from those whose raw records are published {families}")
    if not families:
        return out + [f"{RAW_DIR}/: no raw records to recompute anything from"]
    from sitegen.config import SiteConfig  # late: only a recomputation needs the configuration's pydantic model

    config = SiteConfig(root=root, families=families)
    loaded = Loaded()
    site = for_site(root, families)
    inputs = {fid: site[fid].load(root, loaded, config.limits) for fid in families}
    texts = amendments.read_texts(root, families, loaded, config.limits, render.markdown_renderer())
    if loaded.problems:
        return out + [f"raw records do not validate: {p}" for p in InputError(loaded.problems).problems]
    from sitegen.build import _compute, _placed, manifest_records  # the same computation a build runs
    from sitegen.verify_derived import derived_checks, record_checks

    results = _compute(config, inputs)
    outputs = {fid: _placed(published(site[fid], results[fid], render.synthetic_note), texts) for fid in families}
    try:
        numbers.check_finite(outputs)  # a number that is not finite is published the same twice
    except InputError as e:
        out.extend(f"recomputed numbers: {p}" for p in e.problems)
    for fid in families:
        o = outputs[fid]
        for t in o.tables:
            for rel, data in publish.table_files(t).items():
                p = files.get(rel)
                if p is None:
                    out.append(f"{rel}: recomputed but not published")
                elif p.read_bytes() != data:
                    out.extend(_csv_diff(rel, p.read_bytes(), data) if rel.endswith(".csv") else [f"{rel}: differs from the recomputed table"])
        for f in o.figures:
            rel = f"{f.name}.csv"
            data = publish.figure_data_csv(f)
            p = files.get(rel)
            if p is None:
                out.append(f"{rel}: the data of figure {f.name} is not published")
            elif p.read_bytes() != data:
                out.extend(_csv_diff(rel, p.read_bytes(), data))
    from sitegen import release_checks, releases

    lines, chain = release_checks.site_checks(files, manifest, outputs, root, families, config.limits)
    if chain is not None and previous is not False:
        lines += release_checks.against_previous(files, manifest, chain, previous)
    feed = releases.feed_entries(chain) if chain is not None else []
    return out + derived_checks(files, manifest["files"], outputs, config, feed) + record_checks(manifest, manifest_records(outputs)) + lines


def _source_checks(files: dict[str, Path], source: Path, manifest: dict, previous=False) -> list[str]:
    """Build `source` from scratch, without reading or writing any cache, into a temporary
    directory, against the same previous release (`previous`), and compare every published
    file with the rebuilt one, both ways. A site built against a previous release cannot be
    built again without it: that is said in one line."""
    from sitegen.build import build
    from sitegen.config import load_config
    from sitegen.verify_derived import first_difference

    record = manifest.get("release")
    if previous is False and isinstance(record, dict) and record.get("previous_manifest_sha256"):
        return [f"{MANIFEST}: the site is release {record.get('number')}, built against a previous release; "
                "pass --previous SRC, the release it was built against, to build it again"]
    config = load_config(source)
    with tempfile.TemporaryDirectory(prefix="sitegen-verify-") as tmp:
        rebuilt, _ = tree(build(config, Path(tmp) / "site", cache=False, previous=previous or None).out_dir)
        out = []
        for rel in sorted(files.keys() | rebuilt.keys()):
            if rel not in rebuilt:
                out.append(f"{rel}: published but not built from the source")
            elif rel not in files:
                out.append(f"{rel}: built from the source but not published")
            elif (a := files[rel].read_bytes()) != (b := rebuilt[rel].read_bytes()):
                out.append(first_difference(rel, a, b))
        return out


def verify(site: Path, source: Path | None = None, previous=False) -> list[str]:
    """Every mismatch found, one line each; an empty list means the site checks out. With
    `source`, the site is compared byte for byte with a build of that repository (a
    SitegenError when it does not build). `previous`: the previous release
    (release_source.Previous; None for `--previous` at a URL with no site yet), whose
    successor the site must be (sitegen.release_checks); False when none was given."""
    site = Path(site)
    with collector.working():
        try:
            return _verify(site, source, previous)
        except OSError as exc:  # a folder or file of the site its owner's permissions keep from us
            name = Path(exc.filename) if exc.filename else site
            shown = name.relative_to(site).as_posix() if name.is_relative_to(site) and name != site else str(name)
            return [f"{shown}: cannot be read ({exc.strerror or exc}); nothing further was verified"]


def _verify(site: Path, source: Path | None, previous=False) -> list[str]:
    unread: list[str] = []
    files, odd = tree(site, frozenset([output_dir.GIT]), unread)  # the repository a built output is published from is not the site's
    if unread:  # what it holds would be reported missing, file by file: the folder is the one problem
        return odd
    if MANIFEST not in files:
        return odd + [f"{site}: no regular file manifest.json (not a sitegen build)"]
    manifest, problems = read_manifest(files[MANIFEST].read_bytes())
    if problems:
        return odd + problems
    if source is not None:
        return odd + _source_checks(files, Path(source), manifest, previous)
    out = odd + _hash_checks(files, manifest)
    if any(line.startswith((f"{RAW_DIR}:", f"{RAW_DIR}/")) for line in odd):
        return out + [f"{RAW_DIR}/: holds entries that are not regular files; nothing was recomputed from it"]
    return out + _recompute_checks(site, files, manifest, previous)
