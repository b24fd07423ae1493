"""Where the demo's artifact files go (written by sitegen.families.demo_files)."""

from __future__ import annotations

from sitegen.families.canonic.validate import CELLS_FILE, CELLS_PARQUET, SWEEP_FILE  # noqa: F401 - the demo writes one of the two cells files

FREEZE_FILE = "data/canonic/freeze.json"
PROBES_FILE = "data/canonic/probes.json"
EXTERNAL_FILE = "data/canonic/external.json"
OUTPUTS_FILE = "data/canonic/outputs.jsonl"
BIBLES_DIR = "content/canonic/bibles"  # hand-written; read (fingerprinted), never written

ALL_FILES = (SWEEP_FILE, CELLS_FILE, FREEZE_FILE, PROBES_FILE, EXTERNAL_FILE, OUTPUTS_FILE)
