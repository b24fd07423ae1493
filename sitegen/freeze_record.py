"""`sitegen freeze record` and `sitegen freeze bump`: a family's freeze record
(data/<family>/freeze.json, sitegen.freeze) written by a command, never by hand.

- `record` adds an item, at version 1 and the fingerprint of the input as it is now, for every
  input the family freezes that the record does not hold yet: a new amendment-log entry, a new
  Show Bible. It never touches an item already there.
- `bump KIND/ID --version V --amendment AID` adds a version to an item whose input was edited:
  its fingerprint now, the amendment-log entry that records why (release_checks refuses a
  version added since the previous release without one new since then). A frozen document's
  text at the version it replaces is kept, from git's HEAD, where its page shows it
  (sitegen.frozen_texts).

Both take the time from the build's clock (SOURCE_DATE_EPOCH when set, sitegen.clock) and what
the family freezes from its own load (Loaded.frozen), so the rules are the build's: the record
is written, the family is loaded again, and if that load finds a problem it did not find before,
the file is put back as it was and every such problem is said. Nothing else is written.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from sitegen import amendments, clock
from sitegen.config import SiteConfig
from sitegen.errors import BuildError, InputError, Problem
from sitegen.fingerprint import text_fingerprint
from sitegen.freeze import Wanted, record_rel
from sitegen.frozen_texts import versions_dir
from sitegen.load import Loaded
from sitegen.site_families import for_site


def _frozen(config: SiteConfig, fid: str) -> tuple[list[Wanted], list[Problem]]:
    """What family FID freezes, with the fingerprints now, and the problems its load found."""
    family = for_site(config.root, [fid]).get(fid)
    if family is None or fid not in config.families:
        raise BuildError(f"--family: expected one of the site's families ({', '.join(config.families)}); found {fid!r}")
    loaded = Loaded()
    family.load(config.root, loaded, config.limits)
    if (log_check := getattr(family, "log_check", None)) is not None:  # the log's recorded entries against their text
        log_check(config.root, loaded, config.limits)
    wanted = loaded.frozen.get(record_rel(fid))
    if wanted is None:
        # the record could not be read, or the family keeps none: say why, with the load's problems
        if loaded.problems:
            raise InputError(loaded.problems)
        raise BuildError(f"the family {fid} keeps no freeze record ({record_rel(fid)}): nothing to record")
    return wanted, loaded.problems


def _read(config: SiteConfig, fid: str) -> tuple[bytes | None, dict]:
    """The record's bytes and JSON; (None, a new empty record) when there is none yet."""
    path = config.root / record_rel(fid)
    if not path.exists():
        return None, {"schema": f"{fid}.freeze/1", "frozen_at": clock.now_iso(), "items": []}
    data = path.read_bytes()
    return data, json.loads(data)


def _write_checked(config: SiteConfig, fid: str, before: bytes | None, doc: dict, problems_before: list[Problem]) -> None:
    """Write DOC as the freeze record, then load the family again: if the load finds a problem
    it did not find before, put the bytes BEFORE back and raise those problems. (A problem that
    was there before, such as an edit still to be bumped, is not this record's to fix.)"""
    path = config.root / record_rel(fid)
    _replace(path, (json.dumps(doc, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    try:
        _wanted, problems = _frozen(config, fid)
    except BaseException:
        _replace(path, before)
        raise
    known = set(map(str, problems_before))
    new = [p for p in problems if str(p) not in known]
    if new:
        _replace(path, before)
        raise InputError(new)


def _replace(path: Path, data: bytes | None) -> None:
    if data is None:  # there was no record before
        path.unlink(missing_ok=True)
        return
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)


def record(config: SiteConfig, fid: str) -> list[str]:
    """Add an item for every input FID freezes that its record does not hold; return
    "KIND/ID" of each item added (none: the record holds them all)."""
    wanted, problems = _frozen(config, fid)
    before, doc = _read(config, fid)
    held = {(i.get("kind"), i.get("id")) for i in doc.get("items", [])}
    unreadable = [w for w in wanted if (w.kind, w.id) not in held and w.recomputed is None]
    if unreadable:
        raise InputError([Problem(w.document.partition(" ")[0], None, "", f"a readable input to record as {w.kind}/{w.id}", "it cannot be read "
                                  "(sitegen validate says why)") for w in unreadable])
    now = clock.now_iso()
    added = []
    for w in wanted:
        if (w.kind, w.id) in held:
            continue
        document = w.document.partition(" ")[0]
        path = document if document.startswith("content/") and document.endswith(".md") and " " not in w.document else None
        doc["items"].append({"kind": w.kind, "id": w.id, "path": path,
                             "history": [{"version": "1", "fingerprint": w.recomputed, "frozen_at": now, "note": ""}]})
        added.append(f"{w.kind}/{w.id}")
    if added:
        _write_checked(config, fid, before, doc, problems)
    return added


def bump(config: SiteConfig, fid: str, key: str, version: str, amendment: str, note: str) -> str:
    """Add VERSION to the item KEY ("KIND/ID") of FID's freeze record, at the fingerprint of its
    input now, recorded by the amendment-log entry AMENDMENT; return what was added, in words."""
    kind, _, item_id = key.partition("/")
    wanted, problems_before = _frozen(config, fid)
    rel = record_rel(fid)
    w = next((w for w in wanted if (w.kind, w.id) == (kind, item_id)), None)
    if w is None:
        raise BuildError(f"{key}: expected one of the inputs {fid} freezes ({', '.join(f'{x.kind}/{x.id}' for x in wanted)}); found none such")
    before, doc = _read(config, fid)
    k, item = next(((k, i) for k, i in enumerate(doc["items"]) if (i.get("kind"), i.get("id")) == (kind, item_id)), (None, None))
    if item is None:
        raise BuildError(f"{rel} $.items: expected an item {key} to add a version to; found none (`sitegen freeze record` adds it)")
    where = f"{rel} $.items[{k}].history"
    last = item["history"][-1]
    problems = []
    if w.recomputed is None:
        problems.append(Problem(w.document.partition(" ")[0], None, "", f"a readable input to fingerprint as {key}", "it cannot be read"))
    elif w.recomputed == last.get("fingerprint"):
        problems.append(Problem(rel, None, f"$.items[{k}].history[{len(item['history']) - 1}]", f"an edit of {w.document} since version "
                                f"{last.get('version')} (a version is added for a changed input)", f"fingerprint {w.recomputed}, unchanged"))
    if any(h.get("version") == version for h in item["history"]):
        problems.append(Problem(rel, None, f"$.items[{k}].history", f"a version {key} has not had", f"version {version} already there"))
    dated = _entry_date(config, fid, amendment)
    if dated is None:
        problems.append(Problem(f"{amendments.log_dir(fid)}/{amendment}.md", None, "", f"the amendment-log entry {amendment} that records "
                                f"why {key} changed (`sitegen new amendment` writes one)", "no such entry"))
    elif dated < str(last.get("frozen_at", ""))[:10]:
        problems.append(Problem(f"{amendments.log_dir(fid)}/{amendment}.md", None, "date", f"a date on or after {str(last['frozen_at'])[:10]}, "
                                f"when version {last.get('version')} was frozen (an entry recording a later version)", dated))
    if problems:
        raise InputError(problems)
    item["history"].append({"version": version, "fingerprint": w.recomputed, "frozen_at": clock.now_iso(), "note": note,
                            "amendment": amendment})
    kept, said = _keep_text(config, fid, item, last)
    try:
        _write_checked(config, fid, before, doc, problems_before)
    except BaseException:
        if kept is not None:
            kept.unlink(missing_ok=True)
        raise
    return f"{where}: {key} version {version} (fingerprint {w.recomputed}), recorded by {amendment}{said}"


def _keep_text(config: SiteConfig, fid: str, item: dict, last: dict) -> tuple[Path | None, str]:
    """A frozen document's text at the version being replaced, kept where its page reads it
    (sitegen.frozen_texts), from git's HEAD when it is that version there: (the file written,
    or None; what to add to the message)."""
    rel = item.get("path")
    if not rel:
        return None, ""
    target = config.root / versions_dir(fid, item["id"]) / f"{last['version']}.md"
    if target.exists():
        return None, ""
    try:
        done = subprocess.run(["git", "-C", str(config.root), "show", f"HEAD:./{rel}"], capture_output=True, timeout=60, check=False)
        data = done.stdout if done.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired):
        data = None
    rel_target = target.relative_to(config.root).as_posix()
    if data is None or text_fingerprint(data) != last.get("fingerprint"):
        return None, (f"; the text of version {last['version']} is not in git's HEAD, so its page cannot show it: put it at {rel_target} "
                      f"(its fingerprint must be {last.get('fingerprint')})")
    target.parent.mkdir(parents=True, exist_ok=True)
    _replace(target, data)
    return target, f"; the text of version {last['version']} kept at {rel_target}"


def _entry_date(config: SiteConfig, fid: str, entry_id: str) -> str | None:
    """The date entry ENTRY_ID of FID's log states, or None when the log has no such entry."""
    log = amendments.read(config.root, fid, Loaded(), config.limits)
    for _rel, e, d in log.stated:
        if e == entry_id:
            return d
    return None
