"""The previous release is the reference: what a build (or a built site) must keep of it.

Given the previous release (sitegen.release_source) and this build (releases.Current), every
problem at once, each naming the file, the key, what the previous release published and what
is found now:

- the previous release itself: its manifest.json as a build writes it, its releases.json the
  bytes its manifest lists, every chain hash recomputed, its last record the manifest's
  "release" (else it was tampered with, and nothing is checked against it);
- every amendment-log entry it published is present and byte-identical (a correction is a new
  entry); no entry new since is dated before its date;
- every freeze record's item history it published is a prefix of today's (no version rewritten
  in place, none removed); a version appended since is frozen on or after its date and names,
  in `amendment`, an entry of the family's log that is new since it;
- every archived table it published is published still, never rescored: the CSV's bytes are
  compared first, and only when they differ are both CSVs read, where a column added since (a
  newer sitegen's) is allowed and a value changed, or a row or column removed or added, is not;
- every record a family keeps (sitegen.families.Kept: a run, a superseded attempt, an
  exclusion, a judged reference chapter's hash, a sweep's date and version) is there still with
  its value, unless it may go (a sweep replaced by a new sweep), and never rewritten;
- every model id it published is published still, or named in `formerly` by the model renamed
  from it;
- this release is not dated before it.

The rules for the log and the freeze records also take a commit as the witness, the one before
(log_rules, freeze_rules; sitegen.history).

The date rules are by day, as a release's date is a day: "on or after", so that work done on
the day of a release can follow it.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from typing import Any

from typing_extensions import NotRequired, TypedDict

from pydantic import TypeAdapter, ValidationError

from sitegen import publish, releases
from sitegen.errors import InputError, Problem
from sitegen.freeze import FreezeEntry
from sitegen.release_source import MANIFEST, RELEASES, Previous


def previous_release(prev: Previous) -> tuple[dict, list[dict] | None, str]:
    """The previous release's manifest and chain (None: a site published before release
    records) and its manifest's SHA-256; an InputError naming every way it is not a release a
    build wrote."""
    from sitegen.verify import read_manifest

    where = f"{prev.where.rstrip('/')}" if prev.where.endswith(MANIFEST) else f"{prev.where.rstrip('/')}/{MANIFEST}"
    rel_releases = where.removesuffix(MANIFEST) + RELEASES
    manifest, lines = read_manifest(prev.manifest_bytes)
    if lines:
        raise InputError([Problem(where, None, "", "the previous release's manifest.json as a build writes it", line) for line in lines])
    sha = hashlib.sha256(prev.manifest_bytes).hexdigest()
    if "release" not in manifest and prev.releases_bytes is None:
        return manifest, None, sha
    problems = []
    listed = manifest["files"].get(RELEASES)
    got = hashlib.sha256(prev.releases_bytes).hexdigest() if prev.releases_bytes is not None else None
    if got is None or listed != got:
        problems.append(Problem(rel_releases, None, "", f"the releases.json its manifest lists (SHA-256 {listed})",
                                "none" if got is None else f"SHA-256 {got}: a tampered previous release"))
    try:
        chain = json.loads(prev.releases_bytes) if prev.releases_bytes is not None else None
    except ValueError as e:
        chain = None
        problems.append(Problem(rel_releases, None, "", "JSON", f"invalid JSON ({e})"))
    if chain is not None:
        problems += [Problem(p.file, p.line, p.path, p.expected, p.found + " in the previous release") for p in releases.chain_problems(chain, rel_releases)]
    if chain and not problems and manifest.get("release") != chain[-1]:
        problems.append(Problem(where, None, "$.release", "the last record of its releases.json", "another record: a tampered previous release"))
    if not problems:
        problems += _ledger_problems(manifest.get("ledger"), chain[-1], where)
    if problems:
        raise InputError(problems)
    return manifest, chain, sha


class _LogRecord(TypedDict):
    family: str
    id: str
    date: str
    sha256: str


class _Item(TypedDict):
    key: str
    history: list[dict[str, Any]]


class _Freeze(TypedDict):
    family: str
    items: list[_Item]


class _Archived(TypedDict):
    csv_sha256: str


class _Kept(TypedDict):
    family: str
    file: str
    what: str
    value: str
    may_go: bool


class _Entities(TypedDict):
    file: str
    ids: dict[str, list[str]]


class _Ledger(TypedDict):
    log: dict[str, _LogRecord]
    freeze: dict[str, _Freeze]
    archived: dict[str, _Archived]
    # a release made before sitegen kept records and entity ids has neither
    kept: NotRequired[dict[str, _Kept]]
    entities: NotRequired[dict[str, _Entities]]


_LEDGER = TypeAdapter(_Ledger)
_VERSION = TypeAdapter(FreezeEntry)


def _ledger_problems(ledger, record: dict, where: str) -> list[Problem]:
    """The previous manifest's ledger as a build writes it, and the one its record's hash names."""
    try:
        _LEDGER.validate_python(ledger, strict=True)
        for rec in ledger["freeze"].values():
            for item in rec["items"]:
                for entry in item["history"]:
                    _VERSION.validate_python(entry, strict=True)
    except ValidationError as e:
        err = e.errors()[0]
        path = "$.ledger" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"])
        return [Problem(where, None, path, "the ledger of what later releases must keep, as a build writes it", err["msg"])]
    if releases.ledger_sha256(ledger) != record.get("ledger_sha256"):
        return [Problem(where, None, "$.ledger", f"the ledger whose SHA-256 release {record.get('number')} records ({record.get('ledger_sha256')})",
                        f"SHA-256 {releases.ledger_sha256(ledger)}: a tampered previous release")]
    return []


def check(prev: dict, chain: list[dict] | None, read, current: releases.Current) -> list[Problem]:
    """Every rule of the module's docstring, PREV the previous manifest, CHAIN its releases,
    READ(rel) its files (None when absent)."""
    if chain is None:  # a site published before release records: only its inputs' hashes are known
        return _log(prev, None, current)
    last = chain[-1]
    out = (_log(prev, last, current) + _freeze(prev["ledger"], last, current) + _archived(prev, last, read, current)
           + _kept(prev["ledger"], last, current) + _entities(prev["ledger"], last, current))
    if current.date < last["date"]:
        source = "SOURCE_DATE_EPOCH" if current.date_from == "SOURCE_DATE_EPOCH" else "the inputs' newest date"
        out.append(Problem(source, None, "", f"a release date on or after {last['date']}, the date of release {last['number']}", current.date))
    return out


def _release(last: dict | None) -> str:
    if last and "label" in last:  # a commit, when the history is the witness (sitegen.history)
        return last["label"]
    return f"release {last['number']} ({last['date']})" if last else "the previous release"


def _log(prev: dict, last: dict | None, current: releases.Current) -> list[Problem]:
    out = []
    ledger = prev.get("ledger", {}).get("log") if last else None
    if ledger is None:  # without a ledger: every log entry's file among the previous inputs
        folders = tuple(f"content/{fid}/amendments/" for fid in prev.get("families", []))
        ledger = {rel: {"sha256": sha, "date": "", "id": rel.rsplit("/", 1)[-1][:-3]} for rel, sha in prev.get("sources", {}).items()
                  if rel.startswith(folders) and rel.endswith(".md")}
    now = current.ledger["log"]
    for rel, was in sorted(ledger.items()):
        dated = f", dated {was['date']}" if was.get("date") else ""
        if rel not in now:
            out.append(Problem(rel, None, "", f"entry {was['id']} as {_release(last)} published it{dated} (SHA-256 {was['sha256']}): "
                               "an entry is never deleted", "no such file"))
        elif now[rel]["sha256"] != was["sha256"]:
            out.append(Problem(rel, None, "", f"entry {was['id']} byte for byte as {_release(last)} published it (SHA-256 {was['sha256']}): "
                               "a correction is a new entry", f"SHA-256 {now[rel]['sha256']}: its file was edited"))
    # A family whose log the previous release did not publish starts its log now: its entries
    # may be older than that release (a benchmark that joins a site brings its history).
    logged = {rel.split("/")[1] for rel in ledger}
    for rel, entry in sorted(now.items()):
        if rel not in ledger and last and entry["date"] < last["date"] and rel.split("/")[1] in logged:
            out.append(Problem(rel, None, "date", f"a date on or after {last['date']}, the date of {_release(last)}: an entry new since "
                               "then is not dated before it", entry["date"]))
    return out


def _freeze(prev_ledger: dict, last: dict, current: releases.Current, dated: bool = False) -> list[Problem]:
    """The freeze records against the previous ones. `dated` (a commit as the witness): an entry
    dated on or after it counts as new since it too, so that a version recorded in a later
    commit than its entry, on the same day or after, is not refused."""
    out, when = [], _release(last)
    now_log = current.ledger["log"]
    new_ids = {(e["family"], e["id"]) for rel, e in now_log.items() if rel not in prev_ledger.get("log", {})
               or (dated and str(e["date"]) >= last["date"])}
    for rel, was in sorted(prev_ledger.get("freeze", {}).items()):
        listed = current.ledger["freeze"].get(rel, {}).get("items", [])
        items, index = releases.frozen_items(listed), {item["key"]: i for i, item in enumerate(listed)}
        for key, history in releases.frozen_items(was["items"]).items():
            if key not in items:
                out.append(Problem(rel, None, "$.items", f"the item {key} as {when} published it, with its {len(history)} versions "
                                   "(a frozen input's record is never removed)", "none"))
                continue
            at, today = f"$.items[{index[key]}].history", items[key]
            for k, entry in enumerate(history):
                if k >= len(today):
                    out.append(Problem(rel, None, at, f"the {len(history)} versions of {key} {when} published, up to {history[-1]['version']}",
                                       f"{len(today)} versions: version {entry['version']} was removed"))
                    break
                if today[k] != entry:
                    diff = sorted(f for f in entry.keys() | today[k].keys() if entry.get(f) != today[k].get(f))
                    out.append(Problem(rel, None, f"{at}[{k}]", f"version {entry['version']} of {key} as {when} published it ("
                                       + ", ".join(f"{f} {entry.get(f)}" for f in diff) + "): a frozen version is never rewritten, "
                                       "an edit is a new version", ", ".join(f"{f} {today[k].get(f)}" for f in diff)))
            for k in range(len(history), len(today)):
                out += _new_version(rel, f"{at}[{k}]", key, today[k], was["family"], new_ids, last)
    return out


# The rules for the log and the freeze records, for a commit as the witness (sitegen.history)
log_rules, freeze_rules = _log, _freeze


def _new_version(rel: str, at: str, key: str, entry: dict, fid: str, new_ids: set, last: dict) -> list[Problem]:
    out, when = [], _release(last)
    if entry["frozen_at"][:10] < last["date"]:
        out.append(Problem(rel, None, f"{at}.frozen_at", f"a time on or after {last['date']}, the date of {when}: a version added "
                           "since is frozen after it", entry["frozen_at"]))
    named = entry.get("amendment")
    if (fid, named) not in new_ids:
        out.append(Problem(rel, None, f"{at}.amendment", f"the id of the entry of content/{fid}/amendments/ new since {when} that "
                           f"records version {entry['version']} of {key}",
                           "none" if named is None else f"{named}, which is not an entry new since {when}"))
    return out


def _archived(prev: dict, last: dict, read, current: releases.Current) -> list[Problem]:
    out, when = [], _release(last)
    for stem, was in sorted(prev["ledger"].get("archived", {}).items()):
        rel = f"{stem}.csv"
        csv = current.csv(stem)
        if csv is None:
            out.append(Problem(rel, None, "", f"the archived table {when} published (never rescored, never removed)", "no such table now"))
            continue
        if csv.sha256 == was["csv_sha256"]:
            continue
        data = csv.data()
        before = read(rel) if publish.is_plain_path(rel) else None
        if before is None or hashlib.sha256(before).hexdigest() != was["csv_sha256"]:
            out.append(Problem(rel, None, "", f"the archived table as {when} published it (SHA-256 {was['csv_sha256']}), to compare with",
                               "none at the previous release" if before is None else "another file at the previous release"))
            continue
        changed = _changed_inputs(prev, current, stem)
        out += [Problem(rel, line, path, f"{want} as {when} published it (an archived table is never rescored){changed}", found)
                for line, path, want, found in csv_changes(before, data)]
    return out


def _kept(prev_ledger: dict, last: dict, current: releases.Current) -> list[Problem]:
    """Every record the previous release kept (a superseded attempt, an exclusion, a reference's
    hash) is there still, unchanged; one that may go is unchanged while it is there."""
    out, when, now = [], _release(last), current.ledger.get("kept", {})
    for key, was in sorted(prev_ledger.get("kept", {}).items()):
        have = now.get(key)
        if have is None and not was["may_go"]:
            out.append(Problem(was["file"], None, "", f"{was['what']}, as {when} published it (a published record is never deleted)", "none"))
        elif have is not None and have["value"] != was["value"]:
            out.append(Problem(have["file"], None, "", f"{was['what']} as {when} published it ({was['value']}): a published record is never rewritten",
                               have["value"]))
    return out


def _entities(prev_ledger: dict, last: dict, current: releases.Current) -> list[Problem]:
    """Every model id the previous release published is published still, under that id or as a
    former id (`formerly`) of the model renamed from it."""
    out, when = [], _release(last)
    for fid, was in sorted(prev_ledger.get("entities", {}).items()):
        now = current.ledger.get("entities", {}).get(fid, {}).get("ids", {})
        former = {old for olds in now.values() for old in olds}
        out += [Problem(was["file"], None, "", f"the model {eid} that {when} published, under that id or named in "
                        "`formerly` by the model renamed from it (a link or citation of the old id must still find its model)", "no such id now")
                for eid in sorted(was["ids"]) if eid not in now and eid not in former]
    return out


def _changed_inputs(prev: dict, current: releases.Current, stem: str) -> str:
    """Which of a table's inputs changed since the previous release, as words to add."""
    was = (prev.get("artifacts", {}).get(stem) or {}).get("sources", {})
    now = (current.artifacts.get(stem) or {}).get("sources", {})
    changed = sorted(r for r in was.keys() | now.keys() if was.get(r) != now.get(r))
    return f"; changed since: {', '.join(changed)}" if changed else ""


def csv_changes(before: bytes, now: bytes) -> list[tuple[int | None, str, str, str]]:
    """(line, column, what was published, what is found) for every way NOW is not BEFORE with at
    most columns added."""
    a = list(csv.reader(io.StringIO(before.decode("utf-8", "replace"))))
    b = list(csv.reader(io.StringIO(now.decode("utf-8", "replace"))))
    ha, hb = (a[0] if a else []), (b[0] if b else [])
    gone = [c for c in ha if c not in hb]
    if gone:
        return [(1, "", "the columns " + ", ".join(ha), "no column " + ", ".join(gone))]
    out = []
    if len(a) != len(b):
        out.append((None, "", f"{len(a) - 1} rows", f"{len(b) - 1} rows"))
    at = [hb.index(c) for c in ha]
    for i, (x, y) in enumerate(zip(a[1:], b[1:]), start=2):
        for c, j in zip(ha, at):
            old, new = (x[ha.index(c)] if ha.index(c) < len(x) else ""), (y[j] if j < len(y) else "")
            if old != new:
                out.append((i, f"column {c}", json.dumps(old, ensure_ascii=False), json.dumps(new, ensure_ascii=False)))
    return out


def prepare(previous: Previous | None, current: releases.Current) -> releases.Release:
    """This build's release: a first one without PREVIOUS; else the release after it, or the
    previous release itself when nothing changed. An InputError with every problem when this
    build does not keep what the previous release published."""
    if previous is None:
        return releases.first(current)
    manifest, chain, sha = previous_release(previous)
    if chain is not None and releases.same_release(manifest, current):
        return releases.Release(chain, current.ledger)
    if problems := check(manifest, chain, previous.read, current):
        raise InputError(problems)
    return releases.first(current, sha, manifest) if chain is None else releases.following(chain, manifest, sha, current)


# --------------------------------------------------------------------------- a built site


def site_checks(files: dict, manifest: dict, outputs: dict, root, families: list[str], limits) -> tuple[list[str], list[dict] | None]:
    """`sitegen verify`'s checks of a built site's release (FILES: its files by path; ROOT: its
    raw/; OUTPUTS: recomputed from it): releases.json's chain recomputes, its last record is the
    manifest's "release", and the manifest's "ledger" is the one its raw records and recomputed
    tables give. Returns the lines, and the chain (None when it cannot be read)."""
    rel = releases.RELEASES_FILE
    if rel not in files:
        return [f"{rel}: not published (every build publishes its releases)"], None
    try:
        chain = json.loads(files[rel].read_bytes())
    except ValueError as e:
        return [f"{rel}: not JSON ({e})"], None
    out = [str(p) for p in releases.chain_problems(chain, rel)]
    if isinstance(chain, list) and chain and manifest.get("release") != chain[-1]:
        out.append(f"{MANIFEST} $.release: differs from the last record of {rel}")
    sources = {r: sha for r, sha in manifest.get("sources", {}).items() if f"raw/{r}" in files}
    derived = json.loads(publish.json_bytes(releases.ledger(root, sources, families, releases.archived_tables(outputs), limits, outputs)))
    ledger = manifest.get("ledger")
    if not isinstance(ledger, dict):
        out.append(f"{MANIFEST} $.ledger: expected the ledger of what later releases must keep; found none")
    else:
        for part in ("log", "freeze", "archived", "kept", "entities"):
            have, want = ledger.get(part, {}), derived[part]
            have = have if isinstance(have, dict) else {}
            out += [f"{MANIFEST} $.ledger.{part}[{json.dumps(k, ensure_ascii=False)}]: "
                    + ("missing; the raw records give it" if k not in have else "not one the raw records give" if k not in want
                       else "differs from what the raw records give")
                    for k in sorted(have.keys() | want.keys()) if have.get(k) != want.get(k)]
    return out, chain if isinstance(chain, list) and not out else None


def against_previous(files: dict, manifest: dict, chain: list[dict], previous: Previous | None) -> list[str]:
    """`sitegen verify DIR --previous SRC`: DIR's release is the one a build of its inputs
    against PREVIOUS makes (its chain, byte for byte as records), and keeps what it published."""
    record = chain[-1]

    def csv_of(stem: str) -> releases.ArchivedCsv | None:
        p = files.get(f"{stem}.csv")
        if p is None:
            return None
        data = p.read_bytes()
        return releases.ArchivedCsv(hashlib.sha256(data).hexdigest(), lambda: data)

    current = releases.Current(manifest.get("sources", {}), manifest.get("artifacts", {}), manifest["ledger"], manifest.get("generator", ""),
                               manifest.get("families", []), record["date"], record.get("date_from", ""), csv_of)
    try:
        want = prepare(previous, current).chain
    except InputError as e:
        return [str(p) for p in e.problems]
    if want != chain:
        at = next((i for i, (a, b) in enumerate(zip(want, chain)) if a != b), min(len(want), len(chain)))
        return [f"{releases.RELEASES_FILE} $[{at}]: expected the record a build against the previous release makes "
                f"({json.dumps(want[at]) if at < len(want) else 'none'}); found {json.dumps(chain[at]) if at < len(chain) else 'none'}"]
    return []
