"""Synthetic demo data for the Canonic Stage 1 family: a seeded, deterministic generator.

Writes the Canonic family's artifact files, under ``<root>/data/canonic/``:

- ``sweep.json``     the frozen design: sweep identity, pins (2 judges, 13 models), the four
  sitcom shows, six domains with their rubrics, and 190 tasks with their fingerprint;
- ``cells.jsonl``    one line per (model, task): the generation record and every judge record;
- ``freeze.json``    the freeze record: one rubric item per domain, one Show Bible item per show
  and the task set, each with its fingerprint and the sweep's ``frozen_at``;
- ``probes.json``    eight reward-hacking probes (hand-written engineered outputs with both
  judges' anchors): six caught, two not;
- ``external.json``  a synthetic stand-in for an external creative-writing leaderboard: nine
  exact matches with sweep models, three models the sweep lacks and one near-miss id;
- ``outputs.jsonl``  one line per (model, task) whose generation is ok: the output text, in the
  order of ``cells.jsonl``, built from seeded templates in the shape of the domain.

It reads, and never writes, the hand-written Show Bibles ``<root>/content/canonic/bibles/<show>.md``
(the freeze record fingerprints them; generate() stops with an error if one is missing).

EVERYTHING HERE IS SYNTHETIC. The structure follows the Canonic Stage 1 paper and its
"How this works" page (2,470 cells, 2,423 counted, 77 of 78 model-domain rows published,
Kimi K3 on song lyrics withheld), but the scores, rationales and exclusions are random draws,
not evaluations of any real model; ``sweep.json`` says so with ``"synthetic": true``.

Determinism: every draw comes from ``numpy.random.default_rng`` seeded from ``DEMO_SEED``
(20260808) plus a fixed stream label, so the same call writes byte-identical files.

Scores: each model has a latent quality per domain (plus a small per-dimension profile and,
for sitcom, a per-show offset). A cell's output quality is that latent plus task difficulty
plus output noise; each judge adds its additive leniency offset and per-dimension noise and
picks the nearest anchor. The stated ``weighted_score`` is computed with the harness's own
``weighted_score()``.

Exclusions (per replica group, exact): 47 of 2,470 cells do not count. Nine of them sit in
Kimi K3's song-lyrics row (21 of 30 counted, below the 80 % gate); the other 38 are spread
over the remaining 77 rows, at most two per row.

Scale: ``generate(root, scale=k)`` writes 13*k models: the base 13 plus, for each replica
group g = 2..k, copies with ids suffixed ``-r<g>``, names suffixed `` (replica <g>)`` and a
perturbed latent quality. Tasks are the same; each group has the same exclusion plan shape
(so exactly one gate-failing row per group: that group's Kimi K3 on song lyrics).
``freeze.json``, ``probes.json`` and ``external.json`` describe the base sweep and are the
same at every scale; ``outputs.jsonl`` has a text for every ok cell of all 13*k models.

Run: ``python -m sitegen.families.canonic.demo [--root DIR] [--scale K]``.

Layout: ``design.py`` (sweep, judges, models, shows, rubrics, tasks; ``sweep.json``), ``cells.py``
(noise model, latent quality, exclusion plan; ``cells.jsonl``), ``evidence.py`` (``freeze.json``,
``probes.json``, ``external.json``), ``texts.py`` and ``wordlists.py`` (``outputs.jsonl``),
``seed.py`` (the seed and its streams), ``files.py`` (paths and atomic writes); this module holds
``generate()`` and ``main()``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from sitegen.families.canonic.demo.cells import TASK_SD, _Cells, _exclusion_plan, _latent, write_parquet
from sitegen.families.canonic.demo.design import BASE_MODELS, _models, _sweep_document, _tasks
from sitegen.families.canonic.demo.evidence import (
    _check_bibles,
    _external_document,
    _freeze_document,
    _probes_document,
    probe_score,
)
from sitegen.families.canonic.demo.files import (
    ALL_FILES,
    BIBLES_DIR,
    CELLS_FILE,
    CELLS_PARQUET,
    EXTERNAL_FILE,
    FREEZE_FILE,
    OUTPUTS_FILE,
    PROBES_FILE,
    SWEEP_FILE,
)
from sitegen.families.canonic.demo.seed import DEMO_SEED, _rng
from sitegen.families.demo_files import write_atomic, write_json
from sitegen.families.canonic.demo.texts import _Texts
from sitegen.families.canonic.models import ExternalBoard, FreezeFile, ProbesFile, SweepFile

__all__ = [
    "ALL_FILES",
    "BIBLES_DIR",
    "DEMO_SEED",
    "EXTERNAL_FILE",
    "FREEZE_FILE",
    "OUTPUTS_FILE",
    "PROBES_FILE",
    "generate",
    "main",
    "probe_score",
]


def generate(root: Path, scale: int = 1, cells_format: str = "jsonl") -> None:
    """Write the synthetic Canonic artifact files under root/data/canonic/ (seeded, deterministic).

    sweep.json and cells.jsonl: scale=1 is 13 models x 190 tasks = 2,470 cells, 2,423 counted,
    77 of 78 rows past the gate; scale=k is 13*k models (replica groups 2..k suffixed -r<g>),
    2,470*k cells, streamed to disk. freeze.json, probes.json and external.json describe the
    base sweep and are the same at every scale; outputs.jsonl has one text per ok cell of every
    model, streamed to disk. The Show Bibles under root/content/canonic/bibles/ must exist (the
    freeze record fingerprints them); they are read, never written.

    cells_format="parquet" writes the same cells as cells.parquet instead (what a harness at
    scale writes; cells.PARQUET_SCHEMA), a row group per model, and removes a cells.jsonl."""
    if cells_format not in ("jsonl", "parquet"):
        raise ValueError(f"cells_format must be jsonl or parquet, got {cells_format!r}")
    if scale < 1:
        raise ValueError(f"scale must be at least 1, got {scale}")
    root = Path(root)
    bibles = _check_bibles(root)  # before anything is written
    design = _rng(0)
    tasks = _tasks(design)
    difficulty = design.normal(0.0, TASK_SD, len(tasks))
    models = _models(scale)

    doc = _sweep_document(tasks, models)
    sweep = SweepFile.model_validate(doc, strict=True)  # the demo never writes what intake would refuse
    text = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    write_atomic(root / SWEEP_FILE, lambda fh: fh.write(text))

    latent = _latent(scale)
    plans = {g: _exclusion_plan(g, tasks) for g in range(1, scale + 1)}
    cells = _Cells(sweep, tasks, difficulty)

    if cells_format == "parquet":
        write_parquet(root / CELLS_PARQUET, (cells.records(mid, g, mi, latent[g], plans[g]) for mid, _, _, g, mi in models))
        (root / CELLS_FILE).unlink(missing_ok=True)  # a site holds one cells file
    else:
        def write_cells(fh) -> None:
            for mid, _, _, g, mi in models:
                fh.writelines(cells.lines(mid, g, mi, latent[g], plans[g]))

        write_atomic(root / CELLS_FILE, write_cells)
        (root / CELLS_PARQUET).unlink(missing_ok=True)

    for path, doc, model in (
        (FREEZE_FILE, _freeze_document(sweep, bibles), FreezeFile),
        (PROBES_FILE, _probes_document(sweep), ProbesFile),
        (EXTERNAL_FILE, _external_document(), ExternalBoard),
    ):
        model.model_validate(doc, strict=True)
        write_json(root / path, doc)

    texts = _Texts(tasks, difficulty)

    def write_outputs(fh) -> None:
        for mid, _, _, g, mi in models:
            fh.writelines(texts.lines(mid, g, mi, latent[g][0], plans[g]))

    write_atomic(root / OUTPUTS_FILE, write_outputs)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m sitegen.families.canonic.demo",
        description=f"Write SYNTHETIC Canonic Stage 1 demo data (seed {DEMO_SEED}) to ROOT/data/canonic/: "
        + ", ".join(Path(f).name for f in ALL_FILES) + f". Needs the Show Bibles in ROOT/{BIBLES_DIR}/.",
    )
    parser.add_argument("--root", type=Path, default=Path("."), help="site root (default: the current directory)")
    parser.add_argument("--scale", type=int, default=1, help="replica groups of 13 models (default 1: 2,470 cells)")
    parser.add_argument("--cells", choices=("jsonl", "parquet"), default="jsonl",
                        help="write the cells as cells.jsonl (default) or cells.parquet, as a harness at scale does")
    args = parser.parse_args(argv)
    if args.scale < 1:
        parser.error("--scale must be at least 1")
    try:
        generate(args.root, args.scale, args.cells)
    except FileNotFoundError as exc:
        parser.exit(1, f"error: {exc}\n")
    n = len(BASE_MODELS) * args.scale
    written = [CELLS_PARQUET if f == CELLS_FILE and args.cells == "parquet" else f for f in ALL_FILES]
    print(f"wrote {', '.join(written)}: {n} models x 190 tasks = {n * 190:,} synthetic cells (seed {DEMO_SEED})")
