"""Shared fixtures and helpers.

Nothing here ever writes into the repository: every build runs from a copy of the site
inputs in a tmp dir (a build also writes its figure cache under its root, so even the demo
build is made from a copy).
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import functools
import gc
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import traceback
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

from sitegen import collector
from sitegen.build import build, compute
from sitegen.config import load_config

# --------------------------------------------------------------------------- where tests write
#
# A run writes gigabytes of site copies and builds, and deletes most of them again. On a disk
# mounted with online discard (as the one this suite was measured on), deleting a tree stalls
# the creation of every file after it: 2,000 files took 1.0-1.5 s to create right after 2,000 were
# deleted, against 0.04-0.08 s otherwise (measured). So the run's temporary folders, and the
# programs it starts (builds, Chromium), go to a memory-backed filesystem when there is one with
# room: /dev/shm, a tmpfs with at least MEMORY_TMP_MIN_FREE free. SITEGEN_TEST_TMPDIR names
# another folder. Nothing a test checks depends on where its folders are; a passing test's
# folder is deleted as it ends (pyproject.toml: tmp_path_retention_policy), a passing run's at
# its end, so the run holds a little over a gigabyte at most.

MEMORY_TMP = "/dev/shm"
MEMORY_TMP_MIN_FREE = 8 << 30


def _is_tmpfs(path: str) -> bool:
    try:
        with open("/proc/mounts", encoding="utf-8") as mounts:
            return any(f.split()[1:3] == [path, "tmpfs"] for f in mounts if len(f.split()) > 2)
    except OSError:
        return False


def _test_tmpdir() -> str | None:
    chosen = os.environ.get("SITEGEN_TEST_TMPDIR")
    if chosen:
        return chosen
    try:
        st = os.statvfs(MEMORY_TMP)
    except OSError:
        return None
    roomy = st.f_bavail * st.f_frsize >= MEMORY_TMP_MIN_FREE
    return MEMORY_TMP if roomy and os.access(MEMORY_TMP, os.W_OK) and _is_tmpfs(MEMORY_TMP) else None


if (_tmp := _test_tmpdir()) is not None:
    os.environ["TMPDIR"] = _tmp  # for the programs the tests start, pytest's workers among them
    tempfile.tempdir = None  # read TMPDIR again at the next use: pytest's own folders go there too


# The test processes' own work (reading and parsing what builds wrote, fixtures that hold a
# whole demo's results for the session) collects garbage as sitegen's own work does
# (sitegen/collector.py): rarely, and never by rescanning what was there long before.
gc.set_threshold(*collector.THRESHOLDS)

# Hypothesis keeps an example database and caches under its home directory; keep them out of
# the working tree (the suite writes only into tmp dirs).
_HYPOTHESIS_HOME = tempfile.mkdtemp(prefix="sitegen-tests-hypothesis-")
set_hypothesis_home_dir(_HYPOTHESIS_HOME)
atexit.register(shutil.rmtree, _HYPOTHESIS_HOME, True)
settings.register_profile("sitegen", database=None)
settings.load_profile("sitegen")

REPO_ROOT = Path(__file__).resolve().parent.parent


# --------------------------------------------------------------------------- waiting
#
# Every wait in the suite is one of these budgets times one scale. A budget is what a machine
# shared with other jobs needs, many times a passing run; a test that polls still ends as soon
# as what it waits for happens, so a long budget costs nothing unless something is broken.
# SITEGEN_TEST_TIMEOUT_SCALE=3 stretches them all on a machine slower still.


def _timeout_scale() -> float:
    text = os.environ.get("SITEGEN_TEST_TIMEOUT_SCALE", "1")
    try:
        scale = float(text)
    except ValueError:
        scale = 0.0
    if not 0 < scale < float("inf"):
        raise pytest.UsageError(f"SITEGEN_TEST_TIMEOUT_SCALE must be a positive number; found {text!r}")
    return scale


TIMEOUT_SCALE = _timeout_scale()


def scaled(seconds: float) -> float:
    return seconds * TIMEOUT_SCALE


COMMAND_SECONDS = scaled(300)  # one sitegen command in a subprocess: at most a cold build of the demo
STARTUP_SECONDS = scaled(180)  # a server started, a rebuild served, a file a detached process deletes
REQUEST_SECONDS = scaled(60)  # one HTTP request, one read of a stream that is being written
SITE_INPUTS = ("content", "data", "templates", "assets", "pyproject.toml")
CACHE_DIR = ".sitegen-cache"
SWEEP_REL = "data/canonic/sweep.json"
CELLS_REL = "data/canonic/cells.jsonl"
FREEZE_REL = "data/canonic/freeze.json"
PROBES_REL = "data/canonic/probes.json"
EXTERNAL_REL = "data/canonic/external.json"
OUTPUTS_REL = "data/canonic/outputs.jsonl"
BIBLES_DIR = "content/canonic/bibles"


# --------------------------------------------------------------------------- the order files run in
#
# Two workers take whole files (pyproject.toml: -n 2 --dist loadfile --no-loadscope-reorder),
# in the order collected here: the longest files first, so that neither worker is left running
# one of them alone at the end while the other has nothing to do. (xdist's own order, by number
# of tests, started the mutation corpus halfway through.) Measured with --durations=0.
LONGEST_FIRST = (
    "test_incremental.py", "test_mutations.py", "browser/test_axe.py", "browser/test_xss_corpus.py",
    "test_chronicle.py", "test_chronicle_procedure.py", "browser/test_screenshots.py", "test_input_files.py",
    "test_atomic.py", "browser/test_tables.py", "test_cache_differential.py", "test_semantic_faults.py",
    "test_canonic_contract.py", "test_verify.py", "test_site_install.py",
)


def pytest_collection_modifyitems(items) -> None:
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0].removeprefix("tests/"), len(rank)))  # stable


# --------------------------------------------------------------------------- copying a site


def copy_site(dest: Path, *, cache_from: Path | None = None, schemas: bool = False, families: list[str] | None = None) -> Path:
    """Copy the repository's site inputs into `dest` (created) and return it; with `families`,
    only those are enabled (enable_only).

    `cache_from`: a site root whose cache is copied too (its figures, computed families and
    rendered pages, not its record of which output holds which build): a build then redoes
    only what the test's edits change, as a maintainer's CI does with a restored cache. The
    cache may skip work, never a check; the differential tests prove a warm build equals a
    cold one, and `cold_site_copy` is for the tests where nothing may be cached."""
    dest.mkdir(parents=True, exist_ok=True)
    names = SITE_INPUTS + (("schemas",) if schemas else ())
    for name in names:
        src = REPO_ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name)
        elif src.exists():  # the demo has no templates/ or assets/ of its own: the theme serves it
            shutil.copy2(src, dest / name)
    if cache_from is not None and (cache_from / CACHE_DIR).is_dir():
        shutil.copytree(cache_from / CACHE_DIR, dest / CACHE_DIR, ignore=shutil.ignore_patterns("builds.json"))
    return dest if families is None else enable_only(dest, families)


def one_family(dest: Path, fid: str) -> Path:
    """A copy of the site inputs with only family FID enabled: the demo's own files, a smaller
    build."""
    return copy_site(dest, families=[fid])


def enable_only(root: Path, fids: list[str]) -> Path:
    """The site at ROOT with only the families FIDS enabled (its pyproject.toml rewritten), for
    the tests about those families' inputs and pages: a build or a validation then reads and
    computes them alone. Returns ROOT."""
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    lines = text.split("\n")
    assert any(line.startswith("families = ") for line in lines), "pyproject.toml lists no families"
    listed = "families = [" + ", ".join(f'"{fid}"' for fid in fids) + "]"
    lines = [listed if line.startswith("families = ") else line for line in lines]
    pyproject.write_text("\n".join(lines), encoding="utf-8")
    return root


# --------------------------------------------------------------------------- editing inputs


def pin_sweeps(root: Path, fid: str) -> None:
    """Pin every sweep of content/FID/benchmark.toml to the fingerprint of its settings as they
    are now (`settings_fingerprint`): what a team does after changing, on purpose, settings an
    archived sweep takes from the top level. Each sweep's line goes after its `id`."""
    import re
    import tomllib

    from sitegen.families.declared import settings

    path = root / "content" / fid / "benchmark.toml"
    text = re.sub(r'(?m)^settings_fingerprint = .*\n', "", path.read_text(encoding="utf-8"))
    table = tomllib.loads(text)
    pins = iter([settings.fingerprint(table, i) for i in range(len(table["sweeps"]))])
    parts = text.split("[[sweeps]]\n")
    parts[1:] = [re.sub(r'(?m)^(id = .*\n)', lambda m: m.group(1) + f'settings_fingerprint = "{next(pins)}"\n', part, count=1) for part in parts[1:]]
    path.write_text("[[sweeps]]\n".join(parts), encoding="utf-8")


def read_cells(root: Path) -> list[dict]:
    text = (root / CELLS_REL).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.split("\n") if line.strip()]


def read_sweep(root: Path) -> dict:
    return json.loads((root / SWEEP_REL).read_text(encoding="utf-8"))


def write_sweep(root: Path, sweep: dict) -> None:
    (root / SWEEP_REL).write_text(json.dumps(sweep, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def rewrite_cell_line(root: Path, lineno: int, edit: Callable[[dict], Any] | str) -> None:
    """Replace line `lineno` (1-based) of cells.jsonl.

    `edit` is either the new raw text of the line, or a function that mutates the parsed
    record in place (its return value is ignored)."""
    path = root / CELLS_REL
    lines = path.read_text(encoding="utf-8").split("\n")
    assert 1 <= lineno <= len(lines) and lines[lineno - 1].strip(), f"no record at line {lineno}"
    if isinstance(edit, str):
        new = edit
    else:
        rec = json.loads(lines[lineno - 1])
        edit(rec)
        new = json.dumps(rec, ensure_ascii=False)
    lines[lineno - 1] = new
    path.write_text("\n".join(lines), encoding="utf-8")


def set_sweep_key(root: Path, loc: tuple, value: Any) -> None:
    """Set one key of sweep.json, addressed by a path such as ('judges', 1, 'family')."""
    sweep = read_sweep(root)
    target = sweep
    for part in loc[:-1]:
        target = target[part]
    target[loc[-1]] = value
    write_sweep(root, sweep)


def find_cell_line(root: Path, pred: Callable[[dict], bool]) -> tuple[int, dict]:
    """(1-based line, record) of the first cell of cells.jsonl that satisfies `pred`."""
    for i, rec in enumerate(read_cells(root), start=1):
        if pred(rec):
            return i, rec
    raise AssertionError("no cell matches")


def two_standard_scores(rec: dict) -> bool:
    js = rec["judgments"]
    return (rec["generation"]["status"] == "ok" and len(js) == 2
            and all(j["prompt"] == "standard" and j["outcome"] == "score" for j in js))


# --------------------------------------------------------------------------- inspecting outputs


def override_template(root: Path, name: str) -> Path:
    """templates/NAME of the site at ROOT, written as the built-in theme's copy when the site has
    none (a site overrides a theme template by name): the file a test then edits."""
    from sitegen.render import THEME_TEMPLATES

    path = root / "templates" / name
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes((THEME_TEMPLATES / name).read_bytes())
    return path


def hash_tree(root: Path) -> dict[str, str]:
    """Relative POSIX path -> SHA-256 of every file under root."""
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*")) if p.is_file()
    }


def leftovers_beside(out: Path) -> list[str]:
    """Staging or retired directories a build left next to its output directory."""
    return sorted(p.name for p in out.parent.iterdir()
                  if p.name.startswith((".sitegen-staging-", ".sitegen-retired-")))


def run_cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
            process: bool = False) -> subprocess.CompletedProcess:
    """`sitegen ARGS`: its exit status, stdout and stderr.

    By default it runs in this process through click's test runner: the command's own code
    from sitegen.cli.main on, with ENV set and CWD entered for the call, and an uncaught
    exception written to stderr as the interpreter writes it (exit status 1). That spares each
    call a new interpreter's imports, template compilation and figure workers (about 3 s of
    CPU). `process=True` runs a real `python -m sitegen`, for what only a process of its own
    shows: a hang its timeout must end, an environment read at interpreter start
    (PYTHONPATH), what the command imports."""
    if process:
        full_env = {**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})}
        return subprocess.run([sys.executable, "-m", "sitegen", *args], cwd=cwd, capture_output=True,
                              text=True, env=full_env, timeout=COMMAND_SECONDS)
    from click.testing import CliRunner

    from sitegen.cli import main

    with contextlib.chdir(cwd) if cwd is not None else contextlib.nullcontext():
        result = CliRunner().invoke(main, list(args), env=env, catch_exceptions=True)
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += "".join(traceback.format_exception(result.exception))
    return subprocess.CompletedProcess(["sitegen", *args], result.exit_code, result.stdout, stderr)


# --------------------------------------------------------------------------- the reference
#
# An independent recomputation of every Canonic number from the raw files, with json, hashlib
# and numpy alone, following the method page (content/canonic/method.md). It shares no code
# with sitegen, so a wrong number on a page cannot also be wrong here in the same way.


@dataclass
class RefRow:
    model: str
    domain: str
    total: int
    attempted: int = 0
    task_scores: dict[str, float] = field(default_factory=dict)  # task id -> task score (counted only)
    published: bool = False
    score: float | None = None
    low: float | None = None
    high: float | None = None
    seed: int | None = None
    rank_best: int | None = None
    rank_worst: int | None = None

    @property
    def counted(self) -> int:
        return len(self.task_scores)


@dataclass
class Ref:
    sweep: dict
    rows: dict[tuple[str, str], RefRow]
    status: Counter  # reason (or "counted") -> cells
    cells_total: int  # every model given every task: a task with no cell is a gap, not a cell fewer
    first_counted: tuple[str, str, str] | None  # (model, task, domain) in roster, domain, task order
    judge_scores: dict[tuple[str, str], list[tuple[str, float]]]  # counted cell -> [(judge, weighted)]


def ref_weighted(dims: list[dict], anchors: dict) -> float:
    return 100.0 * sum(d["weight"] * anchors[d["id"]] for d in dims)


def ref_status(cell: dict) -> str:
    """The method page's table: the first reason that applies wins."""
    if cell["generation"]["status"] == "failed":
        return "generation failure"
    js = cell["judgments"]
    std_scores = [j for j in js if j["prompt"] == "standard" and j["outcome"] == "score"]
    if len(std_scores) == 2:
        return "counted"
    if any(j["prompt"] == "reframe" and j["outcome"] == "score" for j in js):
        return "reframe"
    if any(j["prompt"] == "standard" and j["outcome"] == "refusal" for j in js):
        return "refusal"
    if len(std_scores) == 1:
        return "single judge"
    return "error"


def ref_fingerprint(tasks: list[dict]) -> str:
    """The task-set fingerprint as documented: first 32 hex digits of the SHA-256 of the tasks'
    canonical JSON (sorted by id, every field, keys sorted, no whitespace, UTF-8; an absent show
    is null)."""
    canon = sorted(({"show": None, **t} for t in tasks), key=lambda t: t["id"])
    data = json.dumps(canon, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:32]


def ref_text_fingerprint(data: bytes) -> str:
    """A Show Bible's fingerprint, as documented on the verification page: UTF-8, a leading
    byte-order mark dropped, line endings normalised to LF, trailing whitespace at the end
    dropped, exactly one final newline; the SHA-256 of that, in hex."""
    text = data.decode("utf-8")
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n").rstrip() + "\n"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def ref_prompt_fingerprint(prompt: dict) -> str:
    """A prompt template's fingerprint, as documented: like a rubric's, its JSON (version and
    text) with sorted keys and no whitespace."""
    return ref_rubric_fingerprint(prompt)


def ref_rubric_fingerprint(rubric: dict) -> str:
    """A rubric's fingerprint, as documented: its JSON with sorted keys and no whitespace."""
    data = json.dumps(rubric, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def freeze_record(root: Path, sweep: dict | None = None, frozen_at: str = "2026-01-02T03:04:05Z") -> dict:
    """A valid freeze record for the site at `root`, computed from its files as they are now:
    one item per rubric, per show (its bible under content/canonic/bibles/<show>.md) and the
    task set and the prompts, each with a single version: the one the sweep says it ran under."""
    sweep = sweep if sweep is not None else read_sweep(root)

    def item(kind: str, item_id: str, fingerprint: str, version: str = "1", path: str | None = None) -> dict:
        return {"kind": kind, "id": item_id, "path": path,
                "history": [{"version": version, "fingerprint": fingerprint, "frozen_at": frozen_at, "note": ""}]}

    items = [item("rubric", d["id"], ref_rubric_fingerprint(d["rubric"]), d["rubric"]["version"]) for d in sweep["domains"]]
    for sh in sweep["shows"]:
        rel = f"{BIBLES_DIR}/{sh['id']}.md"
        items.append(item("show-bible", sh["id"], ref_text_fingerprint((root / rel).read_bytes()), sh.get("bible_version", "1"), rel))
    items.append(item("task-set", "task-set", ref_fingerprint(sweep["tasks"]), sweep.get("task_set_version", "1")))
    items += [item("prompt", key, ref_prompt_fingerprint(sweep["prompts"][key]), sweep["prompts"][key]["version"])
              for key in ("generation", "judge")]
    if (root / PROBES_REL).is_file():  # the probes' maximums are frozen with the rubrics
        probes = json.loads((root / PROBES_REL).read_text(encoding="utf-8"))["probes"]
        items.append(item("probe-maximums", "probes", ref_rubric_fingerprint({p["id"]: p["max_score"] for p in probes})))
    return {"schema": "canonic.freeze/1", "frozen_at": frozen_at, "items": items}


def write_freeze(root: Path, sweep: dict | None = None) -> dict:
    """Write data/canonic/freeze.json for a site written from scratch (see freeze_record)."""
    record = freeze_record(root, sweep)
    path = root / FREEZE_REL
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return record


def read_json(root: Path, rel: str) -> Any:
    return json.loads((root / rel).read_text(encoding="utf-8"))


def write_json(root: Path, rel: str, value: Any) -> None:
    (root / rel).write_text(json.dumps(value, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def ref_bootstrap(scores: list[float], seed: int) -> tuple[float, float]:
    arr = np.asarray(scores, dtype=np.float64)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(arr), size=(10000, len(arr)))
    lo, hi = np.percentile(arr[idx].mean(axis=1), [2.5, 97.5])
    return float(lo), float(hi)


def ref_ranks(rows: list[RefRow]) -> None:
    """The pairwise rule, row against row: best = 1 + the rows wholly above (their low > its
    high), worst = the rows reaching its low (their high >= its low), itself included."""
    for r in rows:
        r.rank_best = 1 + sum(1 for o in rows if o.low > r.high)
        r.rank_worst = sum(1 for o in rows if o.high >= r.low)


def reference(root: Path) -> Ref:
    sweep = json.loads((root / SWEEP_REL).read_text(encoding="utf-8"))
    cells = [json.loads(x) for x in (root / CELLS_REL).read_text(encoding="utf-8").splitlines() if x.strip()]
    dims = {d["id"]: d["rubric"]["dimensions"] for d in sweep["domains"]}
    task_domain = {t["id"]: t["domain"] for t in sweep["tasks"]}
    totals = Counter(task_domain.values())
    rows = {(m["id"], d["id"]): RefRow(m["id"], d["id"], totals[d["id"]]) for m in sweep["models"] for d in sweep["domains"]}
    status: Counter = Counter()
    judge_scores = {}
    for cell in cells:
        domain = task_domain[cell["task"]]
        r = rows[(cell["model"], domain)]
        r.attempted += 1
        st = ref_status(cell)
        status[st] += 1
        if st == "counted":
            ws = [(j["judge"], ref_weighted(dims[domain], j["anchors"])) for j in cell["judgments"]]
            judge_scores[(cell["model"], cell["task"])] = ws
            r.task_scores[cell["task"]] = (ws[0][1] + ws[1][1]) / 2
    sweep_id = sweep["sweep"]["id"]
    for r in rows.values():
        r.published = r.attempted == r.total and Fraction(r.counted, r.total) >= Fraction(4, 5)
        if r.published:
            scores = [r.task_scores[t] for t in sorted(r.task_scores)]
            r.score = float(np.mean(scores))
            text = f"{sweep_id}|{r.model}|{r.domain}"
            r.seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
            r.low, r.high = ref_bootstrap(scores, r.seed)
    for d in sweep["domains"]:
        ref_ranks([r for (m, dom), r in rows.items() if dom == d["id"] and r.published])
    first = None
    for m in sweep["models"]:
        for d in sweep["domains"]:
            counted = sorted(rows[(m["id"], d["id"])].task_scores)
            if counted and first is None:
                first = (m["id"], counted[0], d["id"])
    return Ref(sweep, rows, status, len(sweep["models"]) * len(sweep["tasks"]), first, judge_scores)


# --------------------------------------------------------------------------- the evidence reference
#
# The failure record and the ladders recomputed from the raw files, in the same spirit as
# `reference`: json, hashlib and numpy, following the pages' own descriptions.


@dataclass
class RefProbe:
    id: str
    max_score: float
    judge_scores: list[tuple[str, float]]  # in the sweep's judge order
    score: float
    caught: bool


def ref_probes(root: Path, sweep: dict) -> list[RefProbe]:
    """Each probe: both judges' weighted scores from their anchors and the domain's rubric,
    their mean, and caught when that mean is at or below the probe's predetermined maximum."""
    dims = {d["id"]: d["rubric"]["dimensions"] for d in sweep["domains"]}
    order = [j["id"] for j in sweep["judges"]]
    out = []
    for p in read_json(root, PROBES_REL)["probes"]:
        by_judge = {j["judge"]: ref_weighted(dims[p["domain"]], j["anchors"]) for j in p["judgments"]}
        scores = [(j, by_judge[j]) for j in order]
        score = (scores[0][1] + scores[1][1]) / 2
        out.append(RefProbe(p["id"], p["max_score"], scores, score, score <= p["max_score"]))
    return out


@dataclass
class RefLadder:
    domain: str
    task: str
    candidates: int
    rungs: list[tuple[str, str, float]]  # (position, model, task score)
    strict: bool


def ref_ladders(ref: Ref) -> list[RefLadder]:
    """A task is eligible with at least three publishable outputs: counted cells of rows that
    pass the gate. Its rungs: sorted by task score then model id, the first, the one at index
    (n - 1) // 2 and the last. Strict: every judge scored low < middle < high."""
    task_domain = {t["id"]: t["domain"] for t in ref.sweep["tasks"]}
    judges = [j["id"] for j in ref.sweep["judges"]]
    per_task: dict[str, list[tuple[float, str]]] = {}
    for (model, domain), row in ref.rows.items():
        if row.published:
            for task, sc in row.task_scores.items():
                per_task.setdefault(task, []).append((sc, model))
    out = []
    for task in sorted(per_task):
        cands = sorted(per_task[task])
        if len(cands) < 3:
            continue
        picks = [("low", cands[0]), ("middle", cands[(len(cands) - 1) // 2]), ("high", cands[-1])]
        by_judge = [dict(ref.judge_scores[(m, task)]) for _, (_, m) in picks]
        strict = all(by_judge[0][j] < by_judge[1][j] < by_judge[2][j] for j in judges)
        out.append(RefLadder(task_domain[task], task, len(cands), [(pos, m, sc) for pos, (sc, m) in picks], strict))
    return out


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture
def cold_site_copy(tmp_path: Path) -> Path:
    """A private copy of the site inputs with no cache at all; returns its root."""
    return copy_site(tmp_path / "site")


@dataclass(frozen=True)
class BuiltSite:
    root: Path  # the copy of the site inputs the build read
    out: Path  # the built site
    stages: list[str]  # the stage names build() reported through on_stage, in order

    @functools.cached_property
    def results(self) -> Any:
        """Canonic's results, computed from the inputs (sitegen.build.compute) in this worker
        when a test first asks (few do), with Canonic alone enabled."""
        return compute_family(self.root, "canonic")


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, request) -> BuiltSite:
    """The demo site, built once per test run from a copy of the repository's inputs: the
    first worker to ask builds it, under a lock in the run's temporary folder, and the other
    waits and reads the same files (tests only read them; a build copies the site first).
    Each worker computes the Canonic results in its own process, if a test asks for them."""
    shared = tmp_path_factory.getbasetemp()
    if hasattr(request.config, "workerinput"):  # a pytest-xdist worker
        shared = shared.parent  # the run's folder, above each worker's own
    base = shared / "demo"
    root, out, done = base / "site", base / "out", base / "stages.json"
    with open(shared / "demo.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also if the build fails
        if not done.is_file():
            shutil.rmtree(base, ignore_errors=True)  # what a failed build left
            copy_site(root)
            stages: list[str] = []
            build(load_config(root), out, on_stage=stages.append)
            done.write_text(json.dumps(stages), encoding="utf-8")
    return BuiltSite(root, out, json.loads(done.read_text(encoding="utf-8")))


def compute_family(root: Path, fid: str) -> Any:
    """Family FID's results (sitegen.build.compute) with it alone enabled: the other families'
    inputs are not read, so a test about one family pays for that family only."""
    config = load_config(root)
    return compute(config.model_copy(update={"families": [fid]}))[fid]


@pytest.fixture
def site_copy(tmp_path: Path, built_site: BuiltSite) -> Path:
    """A private copy of the site inputs with the demo build's cache: a build redoes only what
    its edits change (the families whose inputs they touch, the pages and figures those
    change). A cached result is byte for byte the one a fresh computation gives (each entry's
    key covers its inputs and the code; tests/test_cache_differential.py proves warm equals
    cold), and a build from it takes the demo 1.8 CPU-s, against 6.6 with only its figures
    cached. Returns its root."""
    return copy_site(tmp_path / "site", cache_from=built_site.root)


@pytest.fixture
def cached_site_copy(site_copy: Path) -> Path:
    """site_copy, by the name older tests use."""
    return site_copy


# --------------------------------------------------------------------------- problems and raw records
# Shared by the contract and fault tests: what a reader of an error sees, and line-level edits.


def only(problems: list) -> Any:
    """The one problem of a list that must hold exactly one (the others shown if not)."""
    assert len(problems) == 1, "\n".join(map(str, problems))
    return problems[0]


def where(p) -> str:
    """What a reader sees first: file[:line] and JSON path."""
    return str(p).split(": expected ", 1)[0]


def rubric_dims(root: Path, task_id: str) -> list[dict]:
    """The rubric dimensions of a Canonic task's domain."""
    sweep = read_sweep(root)
    domain = next(t["domain"] for t in sweep["tasks"] if t["id"] == task_id)
    return next(d["rubric"]["dimensions"] for d in sweep["domains"] if d["id"] == domain)


def weighted(dims: list[dict], anchors: dict) -> float:
    return 100.0 * sum(d["weight"] * anchors[d["id"]] for d in dims)


def read_jsonl(root: Path, rel: str) -> list[tuple[int, dict]]:
    """(1-based line, record) of every record of a JSONL file."""
    text = (root / rel).read_text(encoding="utf-8")
    return [(i, json.loads(t)) for i, t in enumerate(text.split("\n"), start=1) if t.strip()]


def set_words(rec: dict, words: int) -> None:
    """Set a run's words and spread its calls' offsets so they add up to them (contiguous), and
    its engagement timeline's segments likewise (the timeline covers the text)."""
    for parts in (rec["calls"], rec.get("scoring", {}).get("engagement", [])):
        k = len(parts)
        bounds = [round(words * i / k) for i in range(k + 1)]
        for i, part in enumerate(parts):
            part["words_from"], part["words_to"] = bounds[i], bounds[i + 1]
    rec["words"] = words


def set_words_stalled(rec: dict, words: int) -> None:
    """set_words, and a sustained run cut below the protocol's 85,000-word target said to have
    stalled there (its last call a stall), as the harness records such a run: a run said to reach
    the target short of it is refused (protocol section 2)."""
    set_words(rec, words)
    if rec["arm"] == "sustained" and rec["stop_reason"] == "word-target" and words < 85_000:
        rec["stop_reason"] = "stall"
        rec["calls"][-1]["finish"] = "stall"


def edit_line(root: Path, rel: str, lineno: int, edit) -> dict:
    """Apply `edit` to the record on line LINENO of a JSONL file and write it back; returns it."""
    path = root / rel
    lines = path.read_text(encoding="utf-8").split("\n")
    rec = json.loads(lines[lineno - 1])
    edit(rec)
    lines[lineno - 1] = json.dumps(rec, ensure_ascii=False)
    path.write_text("\n".join(lines), encoding="utf-8")
    return rec
