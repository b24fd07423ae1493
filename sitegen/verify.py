"""`sitegen verify DIR`: check a built site against itself and against its raw records.

1. Every file listed in manifest.json has the SHA-256 the manifest gives; nothing is missing
   and nothing unlisted was added.
2. Every source artifact under raw/ has the SHA-256 the manifest records for it.
3. Every published table and every figure's data is recomputed from the raw records (the same
   validation and computation a build runs) and compared with the published CSV and JSON byte
   for byte; a difference is reported down to the row and column.

Anyone can run it on a downloaded copy of the site: it needs the site, not the repository.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from sitegen import numbers, publish
from sitegen.errors import BuildError, InputError
from sitegen.families import FAMILIES
from sitegen.load import Loaded, sha256_bytes

RAW_DIR = "raw"


def file_checks(site: Path, listed: dict[str, str]) -> list[str]:
    """Every file under `site` against `listed` (path -> SHA-256, as in manifest.json's
    "files"): a listed file missing or with other bytes, or a file present but not listed
    (manifest.json itself excepted). One line each, naming the file."""
    out = []
    for rel, sha in sorted(listed.items()):
        p = site / rel
        if not p.is_file():
            out.append(f"{rel}: listed in manifest.json but missing")
            continue
        found = sha256_bytes(p.read_bytes())
        if found != sha:
            out.append(f"{rel}: SHA-256 {found} differs from the manifest's {sha}")
    present = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    for rel in sorted(present - set(listed) - {"manifest.json"}):
        out.append(f"{rel}: present but not listed in manifest.json")
    return out


def check_staged(staging: Path, manifest: dict) -> None:
    """The build's verify stage, run on the staging directory just before it is swapped in:
    the bytes on disk are re-read and re-hashed against the manifest about to be published,
    and manifest.json on disk must be that manifest. A torn or corrupted write, or a file
    the manifest does not list, fails the build instead of being published."""
    problems = file_checks(staging, manifest.get("files", {}))
    mf = staging / "manifest.json"
    if not mf.is_file() or mf.read_bytes() != publish.json_bytes(manifest):
        problems.append("manifest.json: the staged copy differs from the manifest being published")
    if problems:
        raise BuildError("the staged output does not match its manifest; nothing was published:\n" + "\n".join(problems))


def _hash_checks(site: Path, manifest: dict) -> list[str]:
    out = file_checks(site, manifest.get("files", {}))
    for rel, sha in sorted(manifest.get("sources", {}).items()):
        raw = site / RAW_DIR / rel
        if raw.is_file() and sha256_bytes(raw.read_bytes()) != sha:
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


def _recompute_checks(site: Path, manifest: dict) -> list[str]:
    """Recompute every family whose raw records the site publishes. Which families those are
    is read from raw/, not taken from the manifest, so an edited manifest cannot switch
    recomputation off."""
    root = site / RAW_DIR
    families = [fid for fid in FAMILIES if (root / "data" / fid).is_dir()]
    out = []
    claimed = manifest.get("families", [])
    if sorted(claimed) != sorted(families):
        out.append(f"manifest.json: families {claimed} differ from those whose raw records are published {families}")
    if not families:
        return out + [f"{RAW_DIR}/: no raw records to recompute anything from"]
    from sitegen.config import SiteConfig  # late: `sitegen build` checks an output with file_checks alone

    config = SiteConfig(root=root, families=families)
    loaded = Loaded()
    inputs = {fid: FAMILIES[fid].load(root, loaded, config.limits) for fid in families}
    if loaded.problems:
        return out + [f"raw records do not validate: {p}" for p in InputError(loaded.problems).problems]
    from sitegen.build import _compute  # the same computation a build runs

    results = _compute(config, inputs)
    outputs = {fid: FAMILIES[fid].outputs(results[fid]) for fid in families}
    try:
        numbers.check_finite(outputs)  # a number that is not finite is published the same twice
    except InputError as e:
        out.extend(f"recomputed numbers: {p}" for p in e.problems)
    for fid in families:
        o = outputs[fid]
        for t in o.tables:
            for rel, data in publish.table_files(t).items():
                p = site / rel
                if not p.is_file():
                    out.append(f"{rel}: recomputed but not published")
                elif p.read_bytes() != data:
                    out.extend(_csv_diff(rel, p.read_bytes(), data) if rel.endswith(".csv") else [f"{rel}: differs from the recomputed table"])
        for f in o.figures:
            rel = f"{f.name}.csv"
            data = publish.figure_data_csv(f)
            p = site / rel
            if not p.is_file():
                out.append(f"{rel}: the data of figure {f.name} is not published")
            elif p.read_bytes() != data:
                out.extend(_csv_diff(rel, p.read_bytes(), data))
    return out


def verify(site: Path) -> list[str]:
    """Every mismatch found, one line each; an empty list means the site checks out."""
    site = Path(site)
    mf = site / "manifest.json"
    if not mf.is_file():
        return [f"{site}: no manifest.json (not a sitegen build)"]
    manifest = json.loads(mf.read_bytes())
    return _hash_checks(site, manifest) + _recompute_checks(site, manifest)
