"""Where the demo's artifact files go, and how they are written (atomically, UTF-8, LF)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from sitegen.families.canonic.validate import CELLS_FILE, SWEEP_FILE

FREEZE_FILE = "data/canonic/freeze.json"
PROBES_FILE = "data/canonic/probes.json"
EXTERNAL_FILE = "data/canonic/external.json"
OUTPUTS_FILE = "data/canonic/outputs.jsonl"
BIBLES_DIR = "content/canonic/bibles"  # hand-written; read (fingerprinted), never written

ALL_FILES = (SWEEP_FILE, CELLS_FILE, FREEZE_FILE, PROBES_FILE, EXTERNAL_FILE, OUTPUTS_FILE)


def _write_atomic(path: Path, write) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        write(fh)
    os.replace(tmp, path)


def _write_json(path: Path, doc: dict) -> None:
    text = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    _write_atomic(path, lambda fh: fh.write(text))
