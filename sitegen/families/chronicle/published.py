"""What ChronicleBench has published of its amendment log stays as published: each entry is
recorded in the freeze record (kind log-entry, id entry-a1, ...) by the fingerprint of its text,
checked on every build (check_log), whether or not the family's result is cached: the family is
keyed on its entries' front matter, not their text (sitegen.amendments). This module imports
none of the family's models, so a build that takes the family from its cache stays light.
"""

from __future__ import annotations

import os
from pathlib import Path

from sitegen import amendments
from sitegen import freeze as freeze_mod
from sitegen.config import Limits
from sitegen.contract import validate_one
from sitegen.errors import InputError
from sitegen.fingerprint import text_fingerprint
from sitegen.load import Loaded, input_bytes, read_json

FREEZE_FILE = "data/chronicle/freeze.json"
# The freeze record's kinds for an entry of the log and the archived v1.0 board
ENTRY_KIND, ARCHIVE_KIND, ARCHIVE_ID = "log-entry", "archive", "archive-v1.0"


def entry_item_id(entry_id: str) -> str:
    """The freeze record's id of an entry of the log: A2 -> entry-a2."""
    return f"entry-{entry_id.lower()}"


def entry_records(freeze) -> list[freeze_mod.FrozenCheck]:
    """Each published entry of the log as the freeze record holds it (what the protocol page
    shows beside the entry). Its fingerprint is compared with the entry's text by check_log."""
    return [freeze_mod.FrozenCheck(item.kind, item.id, item.path or "", item.history[-1].version, item.history[-1].fingerprint,
                                   item.history[-1].fingerprint, item.history[-1].frozen_at, list(item.history))
            for item in freeze.items if item.kind == ENTRY_KIND]


def check_log(root: Path, loaded: Loaded, limits: Limits) -> None:
    """What the site has published of the log stays as published: each entry the freeze record
    holds must still hash to the fingerprint recorded for it. Run on every build, the family
    cached or not: the family's result is keyed on its entries' front matter, not their text
    (sitegen.amendments). Nothing when the freeze record cannot be read (the family's load says
    why), nor for an entry that cannot (read_texts says why)."""
    read = Loaded()
    freeze = None
    if os.path.lexists(root / FREEZE_FILE):
        _src, rec = read_json(root, root / FREEZE_FILE, read, limits)
        if rec is not None:
            freeze, _errs = validate_one(freeze_mod.FreezeFile, rec.value, FREEZE_FILE, None)
    if freeze is None or read.problems:
        return
    log = amendments.read(root, "chronicle", read, limits)
    where = {}
    for rel, e, _d in log.stated:
        if e is not None:
            where.setdefault(e, rel)
    for item in freeze.items:
        eid = item.id.removeprefix("entry-").upper()
        rel = where.get(eid) or (f"{log.dir}/{eid}.md" if eid in log.present else None)
        if item.kind != ENTRY_KIND or rel is None:
            continue
        try:
            fingerprint = text_fingerprint(input_bytes(root, root / rel))
        except (InputError, UnicodeDecodeError):
            continue
        freeze_mod.compare(item, freeze_mod.Wanted(ENTRY_KIND, item.id, rel, fingerprint), FREEZE_FILE, loaded.problems)
