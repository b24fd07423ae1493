"""Releases: what was published stays published.

Every build is a release of the site, recorded in its manifest.json ("release") and published
with every release before it as releases.json (oldest first) and the releases page. A record
holds its number, its date, the generator, the SHA-256 of the previous release's manifest.json
(null for a first release), what changed against that release, and a chain hash: the SHA-256
of the previous record's chain hash (nothing for the first) followed by this record's canonical
JSON without the chain hash (keys sorted, no spaces, UTF-8). Editing any earlier record breaks
every chain hash after it.

The manifest also carries a "ledger" of what later releases must keep (its SHA-256 in the record): every amendment-log
entry (its date and its file's SHA-256), every freeze record's item histories, and the SHA-256
of the CSV of every table a family marks archived (Table.archived: an archived sweep's board,
never rescored). `sitegen build --previous SRC` (and `sitegen verify DIR --previous SRC`)
holds the build to the previous release's ledger (release_checks.py); this module makes the
ledger, the record and the chain, and checks a chain.

The release's date never comes from the machine's clock (identical inputs give identical
bytes): SOURCE_DATE_EPOCH's date when it is set, else the newest date the inputs hold. A build
whose inputs, generator and ledger equal the previous release's is that same release, with no
new number: rebuilding one commit changes nothing.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from sitegen import amendments, publish
from sitegen.freeze import record_rel
from sitegen.errors import BuildError, Problem
from sitegen.load import Loaded, input_bytes, read_markdown

RELEASES_FILE = "releases.json"
PAGE = "releases/index.html"
HREF = "releases/"
# What each kind of change is listed under, in the record's "changes" and on the page.
CHANGE_KEYS = ("log_entries_added", "frozen_versions_added", "frozen_items_added", "tables_added", "tables_changed",
               "tables_removed", "inputs_added", "inputs_changed", "inputs_removed")


def canonical(value) -> bytes:
    """The one encoding a record is hashed in."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def chain_hash(previous: str | None, record: dict) -> str:
    body = {k: v for k, v in record.items() if k != "chain_sha256"}
    return hashlib.sha256((previous or "").encode("ascii") + canonical(body)).hexdigest()


def ledger_sha256(ledger: dict) -> str:
    """The SHA-256 of a ledger's canonical JSON, which its release's record holds: the chain
    covers what later releases must keep, not only what changed."""
    return hashlib.sha256(canonical(ledger)).hexdigest()


def chain_problems(chain, where: str) -> list[Problem]:
    """One Problem per record of CHAIN (releases.json as parsed, at WHERE) that is not what a
    build writes: numbered 1, 2, ... in order, dated in order, each chain hash recomputed."""
    if not isinstance(chain, list) or not chain or not all(isinstance(r, dict) for r in chain):
        return [Problem(where, None, "$", "a list of release records, oldest first", type(chain).__name__ if not isinstance(chain, list) else "none")]
    out, before = [], None
    for i, r in enumerate(chain):
        if r.get("number") != i + 1:
            out.append(Problem(where, None, f"$[{i}].number", f"{i + 1}", json.dumps(r.get("number"))))
        date = r.get("date")
        if not isinstance(date, str) or (i and isinstance(chain[i - 1].get("date"), str) and date < chain[i - 1]["date"]):
            out.append(Problem(where, None, f"$[{i}].date", "a date on or after the release before it", json.dumps(date)))
        want = chain_hash(before, r)
        if r.get("chain_sha256") != want:
            out.append(Problem(where, None, f"$[{i}].chain_sha256", f"{want}, recomputed from the record and the one before it",
                               f"{r.get('chain_sha256')} (an earlier record, or this one, was edited)"))
        before = r.get("chain_sha256") if isinstance(r.get("chain_sha256"), str) else want
    return out


# --------------------------------------------------------------------------- the ledger


def ledger(root: Path, sources: dict[str, str], families, archived_csv: dict[str, ArchivedCsv], limits, outputs=None) -> dict:
    """What later releases must keep, from the inputs at ROOT (a site repository, or a built
    site's raw/) whose SHA-256s SOURCES gives, ARCHIVED_CSV (archived_tables), and the
    families' OUTPUTS (their kept records and entity ids: kept_records)."""
    log, freeze = {}, {}
    for fid in families:
        folder = amendments.log_dir(fid) + "/"
        for rel in sorted(r for r in sources if r.startswith(folder) and r.endswith(".md")):
            doc = read_markdown(root, root / rel, Loaded(), limits)
            meta = doc.meta if doc is not None else {}
            log[rel] = {"family": fid, "id": meta.get("id", Path(rel).stem), "date": meta.get("date", ""), "sha256": sources[rel]}
        rel = record_rel(fid)
        if rel in sources:
            doc = json.loads(input_bytes(root, root / rel))
            # a list, in the file's order, so that a problem names the item where it is
            freeze[rel] = {"family": fid, "items": [{"key": f"{item['kind']}/{item['id']}", "history": item["history"]} for item in doc.get("items", [])]}
    archived = {stem: {"csv_sha256": csv.sha256} for stem, csv in sorted(archived_csv.items())}
    kept, entities = kept_records(outputs or {})
    return {"log": log, "freeze": freeze, "archived": archived, "kept": kept, "entities": entities}


def kept_records(outputs) -> tuple[dict, dict]:
    """The families' kept records (Outputs.kept) by "family/key", and their entity ids with the
    ids each was published under before, by family."""
    kept = {f"{fid}/{key}": {"family": fid, "file": k.file, "what": k.what, "value": k.value, "may_go": k.may_go}
            for fid, o in sorted(outputs.items()) for key, k in sorted(o.kept.items())}
    entities = {fid: {"file": o.entities_file, "ids": {e: sorted(was) for e, was in sorted(o.entities.items())}}
                for fid, o in sorted(outputs.items()) if o.entities}
    return kept, entities


@dataclass(frozen=True)
class ArchivedCsv:
    """An archived table's CSV as this build publishes it: its SHA-256, and `data()` its bytes."""

    sha256: str
    data: Callable[[], bytes]


def archived_tables(outputs, known: Callable[[str, str], str | None] = lambda fid, rel: None) -> dict[str, ArchivedCsv]:
    """Every archived table's CSV, by stem. KNOWN(fid, rel): its SHA-256 when the output being
    replaced was made from the family's key of this build, whose write stage then takes the
    file from there, not made again (a rebuild after an edit elsewhere serialises no table);
    its bytes are made only if a check needs them (a changed hash)."""
    found = {}
    for fid, o in outputs.items():
        for t in (t for t in o.tables if t.archived):
            rel = f"{t.stem}.csv"
            sha, make = known(fid, rel), functools.partial(_table_csv, t, rel)
            if sha is None:
                data = make()
                sha, make = hashlib.sha256(data).hexdigest(), functools.partial(bytes, data)
            found[t.stem] = ArchivedCsv(sha, make)
    return found


def _table_csv(table, rel: str) -> bytes:
    return publish.table_files(table)[rel]


def frozen_items(items: list) -> dict[str, list]:
    """A ledger's freeze items by key ("kind/id"): their histories."""
    return {i["key"]: i["history"] for i in items if isinstance(i, dict) and "key" in i}


# --------------------------------------------------------------------------- the date


def release_date(dated_until: str, outputs, ledger: dict) -> tuple[str, str]:
    """(the release's date, where it comes from): SOURCE_DATE_EPOCH's date when it is set, else
    the newest date the inputs hold: DATED_UNTIL (the families' summaries), their feed entries'
    dates (a sweep's, a run's: from the data), the log's and the frozen versions' (LEDGER)."""
    if os.environ.get("SOURCE_DATE_EPOCH"):
        from sitegen import clock

        return clock.today(), "SOURCE_DATE_EPOCH"
    dates = [dated_until, *(e.updated[:10] for o in outputs.values() for e in o.feed), *(e["date"] for e in ledger["log"].values()),
             *(v["frozen_at"][:10] for f in ledger["freeze"].values() for i in f["items"] for v in i["history"])]
    dated_until = max((d for d in dates if isinstance(d, str)), default="")
    if not dated_until:
        raise BuildError("no input holds a date to date the release by: set SOURCE_DATE_EPOCH (the commit's time, `git log -1 --format=%ct`)")
    return dated_until, "inputs"


# --------------------------------------------------------------------------- what changed


def changes(prev: dict, current: "Current") -> dict:
    """What changed from the previous release's manifest PREV to this build."""
    before, now = prev.get("sources", {}), current.sources
    pl, nl = prev.get("ledger", {}) or {}, current.ledger
    tables = lambda arts: {k: v for k, v in arts.items() if isinstance(v, dict) and v.get("kind") == "table"}  # noqa: E731
    pt, nt = tables(prev.get("artifacts", {}) or {}), tables(current.artifacts)
    versions, items = [], []
    for rel, rec in nl["freeze"].items():
        old = frozen_items(((pl.get("freeze") or {}).get(rel) or {}).get("items", []))
        for key, history in frozen_items(rec["items"]).items():
            if key not in old:
                items.append(f"{rel} {key}")
            versions += [f"{rel} {key} {e['version']}" + (f" ({e['amendment']})" if e.get("amendment") else "")
                         for e in history[len(old.get(key, [])):] if key in old]
    old_log = (pl.get("log") or {}) if pl else {r: None for r in before}
    return {
        "log_entries_added": sorted(r for r in nl["log"] if r not in old_log),
        "frozen_versions_added": versions, "frozen_items_added": items,
        "tables_added": sorted(nt.keys() - pt.keys()), "tables_removed": sorted(pt.keys() - nt.keys()),
        "tables_changed": sorted(k for k in nt.keys() & pt.keys() if nt[k] != pt[k]
                                 or (k in nl["archived"]) and (pl.get("archived") or {}).get(k) != nl["archived"][k]),
        "inputs_added": sorted(now.keys() - before.keys()), "inputs_removed": sorted(before.keys() - now.keys()),
        "inputs_changed": sorted(r for r in now.keys() & before.keys() if now[r] != before[r]),
    }


# --------------------------------------------------------------------------- the release


@dataclass(frozen=True)
class Current:
    """This build as the release checks see it: its inputs' SHA-256s, its artifacts and ledger
    (as its manifest will hold them), generator, families and date, and `csv(stem)`, the bytes
    of an archived table's CSV as it publishes it."""

    sources: dict[str, str]
    artifacts: dict
    ledger: dict
    generator: str
    families: list[str]
    date: str
    date_from: str
    csv: Callable[[str], ArchivedCsv | None]


@dataclass(frozen=True)
class Release:
    chain: list[dict]  # every release, oldest first, this one last
    ledger: dict

    @property
    def record(self) -> dict:
        return self.chain[-1]

    def view(self, changes: bool = True) -> dict:
        """What the pages say of this release (the theme's _release.html). Without `changes`,
        only what the previous release and the date fix: every page shows that much, so an edit
        anywhere must not change it, or every page would be rendered again (what changed, and
        the chain's hash, are on the downloads and releases pages, made every build)."""
        r = self.record
        before = self.chain[-2] if len(self.chain) > 1 else None
        view = {"number": r["number"], "date": r["date"], "date_from": r["date_from"], "href": HREF, "anchor": anchor(r),
                "previous": {"number": before["number"], "date": before["date"], "anchor": anchor(before)} if before else None,
                "previous_manifest_sha256": r["previous_manifest_sha256"]}
        return {**view, "counts": counts(r), "chain_sha256": r["chain_sha256"]} if changes else view


def anchor(record: dict) -> str:
    return f"release-{record['number']}"


def counts(record: dict) -> dict[str, int] | None:
    """How many of each kind of change a record lists (None for a first release)."""
    ch = record.get("changes")
    return None if ch is None else {k: len(ch.get(k, [])) for k in CHANGE_KEYS}


def same_release(prev: dict, current: Current) -> bool:
    """Whether this build is the previous release itself: the same inputs, generator, families
    and ledger give every other byte of it (builds are reproducible), so comparing them is
    comparing the files without the circle of pages that name their release."""
    return (prev.get("sources") == current.sources and prev.get("generator") == current.generator
            and prev.get("families") == current.families and prev.get("ledger") == current.ledger)


def first(current: Current, previous_sha: str | None = None, prev: dict | None = None) -> Release:
    """A first release: nothing before it (or, with PREVIOUS_SHA, a site published before
    release records, whose manifest PREV is compared with for what changed)."""
    record = {"number": 1, "date": current.date, "date_from": current.date_from, "generator": current.generator,
              "ledger_sha256": ledger_sha256(current.ledger), "previous_manifest_sha256": previous_sha, "changes": changes(prev, current) if prev is not None else None}
    record["chain_sha256"] = chain_hash(None, record)
    return Release([record], current.ledger)


def following(chain: list[dict], prev: dict, prev_sha: str, current: Current) -> Release:
    """The release after CHAIN (the previous release's, verified), whose manifest PREV hashes
    to PREV_SHA; the previous release itself when nothing changed (same_release)."""
    if same_release(prev, current):
        return Release(chain, current.ledger)
    last = chain[-1]
    record = {"number": last["number"] + 1, "date": current.date, "date_from": current.date_from, "generator": current.generator,
              "ledger_sha256": ledger_sha256(current.ledger), "previous_manifest_sha256": prev_sha, "changes": changes(prev, current)}
    record["chain_sha256"] = chain_hash(last["chain_sha256"], record)
    return Release([*chain, record], current.ledger)


def releases_bytes(release: Release) -> bytes:
    return publish.json_bytes(release.chain)


# --------------------------------------------------------------------------- feed and page


def feed_entries(chain: list[dict]):
    """Every release of CHAIN as an entry of the site's feed, with its category."""
    from sitegen import render
    from sitegen.atom import Category
    from sitegen.families import FeedEntry

    words = render.sentences(render.THEME_TEMPLATES, "sentences.txt")
    cat = Category("releases", words.releases_category())
    return [(FeedEntry(f"tag:sitegen,{r['date']}:releases/{r['number']}", words.release_title(r["number"]), r["date"],
                       f"{HREF}#{anchor(r)}", str(_escape(words.release_feed(r["number"], r["date"], counts(r))))), cat)
            for r in chain if isinstance(r, dict) and isinstance(r.get("number"), int) and isinstance(r.get("date"), str)]


def _escape(text: str) -> str:
    from markupsafe import escape

    return f"<p>{escape(text)}</p>"


def page(release: Release):
    """The releases page: every release, newest first, with what changed."""
    from sitegen.families import Page

    return Page(PAGE, "releases.html", "Releases", {"releases": list(reversed(release.chain)), "this": release.view(),
                                                   "keys": CHANGE_KEYS, "counts": counts, "anchor": anchor})
