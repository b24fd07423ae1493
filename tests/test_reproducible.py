"""Reproducible builds: the same inputs give the same bytes, whatever the machine around them.

Two builds of the demo site, each in its own process, from two copies of the inputs in
different directories, differ in everything that must not matter: working directory, root,
time zone, locale, hash seed, umask, DuckDB's thread count, the order and mtimes in which
the input files were created, and a cold against a warm figure cache. Only
SOURCE_DATE_EPOCH is the same (the build's date: no output depends on it, and no input may be
dated after it, sitegen/clock.py).
Every output file must be byte-identical.

Mode policy: a built site is meant to be served, so its files are 0644 and its directories
0755 whatever the umask (sitegen/publish.py); manifest.json covers the bytes, not the modes.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

from conftest import CACHE_DIR, COMMAND_SECONDS, REPO_ROOT, SITE_INPUTS, copy_site, hash_tree

SOURCE_DATE_EPOCH = "1798761600"  # 2027-01-01T00:00:00Z, after every date of the demo


def other_locale() -> str:
    """A UTF-8 locale other than C.UTF-8 when the machine has one (Turkish first: its dotted
    and dotless i break naive case mapping), else POSIX, whose encoding is ASCII."""
    found = subprocess.run(["locale", "-a"], capture_output=True, text=True).stdout.split() if shutil.which("locale") else []
    for want in ("tr_TR.utf8", "de_DE.utf8", "en_US.utf8"):
        if want in found:
            return want
    return "POSIX"


def copy_site_shuffled(dest: Path) -> Path:
    """Like copy_site, but the files are created in reverse path order, each with its own
    made-up mtime, so neither directory listing order nor mtimes resemble the first copy's."""
    files = []
    for name in SITE_INPUTS:
        src = REPO_ROOT / name
        if src.exists():  # the demo has no templates/ or assets/ of its own
            files += sorted(p for p in src.rglob("*") if p.is_file()) if src.is_dir() else [src]
    for i, src in enumerate(reversed(files)):
        target = dest / src.relative_to(REPO_ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(src.read_bytes())
        mtime = 946684800 + (i * 7919) % 10**8  # 2000 onwards, in no particular order
        os.utime(target, (mtime, mtime))
    return dest


def start_build(root: Path, out: Path, cwd: Path, umask: str, env: dict[str, str]) -> subprocess.Popen:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "SITEGEN_")) and k not in ("LANG", "TZ")}
    cmd = ["sh", "-c", f'umask {umask} && exec "$@"', "sh", sys.executable, "-m", "sitegen", "build",
           "--root", str(root), "--out", str(out)]
    return subprocess.Popen(cmd, cwd=cwd, env={**base, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH, **env},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(proc: subprocess.Popen) -> None:
    stdout, stderr = proc.communicate(timeout=COMMAND_SECONDS)
    assert proc.returncode == 0, stderr


def modes(out: Path) -> set[tuple[str, int]]:
    return {("dir" if p.is_dir() else "file", stat.S_IMODE(p.stat().st_mode)) for p in [out, *out.rglob("*")]}


def test_two_builds_in_different_environments_are_byte_identical(tmp_path, built_site):
    a_root = copy_site(tmp_path / "a" / "site")  # cold figure cache: every figure drawn afresh
    b_root = copy_site_shuffled(tmp_path / "b" / "other-tree-q9z" / "site")
    shutil.copytree(built_site.root / CACHE_DIR, b_root / CACHE_DIR)  # warm: every figure from the cache
    a_out, b_out = tmp_path / "a" / "out", tmp_path / "b" / "public"
    # both at once: the cold one spends most of its time drawing figures
    a = start_build(a_root, a_out, cwd=a_root, umask="022", env={
        "TZ": "UTC", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PYTHONHASHSEED": "0", "SITEGEN_THREADS": "1"})
    b = start_build(Path("site"), b_out, cwd=b_root.parent, umask="077", env={  # a relative --root
        "TZ": "Pacific/Kiritimati", "LANG": other_locale(), "LC_ALL": other_locale(), "PYTHONHASHSEED": "12345",
        "SITEGEN_THREADS": "4", "PYTHONIOENCODING": "utf-8"})
    finish(a)
    finish(b)
    assert not (b_root / "_site").exists()  # --out was honoured, not the default

    ha, hb = hash_tree(a_out), hash_tree(b_out)
    assert len(ha) > 900
    assert sorted(ha) == sorted(hb), (sorted(set(ha) ^ set(hb)))[:10]
    differing = [rel for rel in sorted(ha) if ha[rel] != hb[rel]]
    assert differing == [], f"{len(differing)} files differ, first: {differing[:10]}"

    # no trace of where the inputs lived or who built them
    for p in a_out.rglob("*"):
        if p.is_file() and p.suffix in (".html", ".json", ".csv", ".svg", ".xml", ".txt"):
            text = p.read_text(encoding="utf-8")
            assert str(tmp_path) not in text and "other-tree-q9z" not in text, p

    # readable by a web server under either umask
    assert modes(a_out) == modes(b_out) == {("dir", 0o755), ("file", 0o644)}


def test_published_means_do_not_depend_on_duckdbs_thread_count(monkeypatch):
    """At the demo's size every table fits one DuckDB row group, so the build above runs its
    aggregates on one thread whatever SITEGEN_THREADS says. Here the per-show means of the
    sitcom transfer table get 300,000 counted cells, enough for DuckDB to split them across
    threads, where a floating-point avg() differs in its last bits between thread counts."""
    import numpy as np
    import pyarrow as pa

    from sitegen import store
    from sitegen.families.canonic import store as cstore

    rng = np.random.default_rng(7)
    n, models = 300_000, [f"m{i:02d}" for i in range(8)]
    cells = pa.table({
        "model": pa.array(rng.choice(models, n)), "show": pa.array(rng.choice(["s1", "s2", "s3"], n)),
        "task": pa.array([f"t{i:06d}" for i in range(n)]), "status": pa.array(["counted"] * n),
        "task_score": pa.array(rng.random(n) * 100),
    })

    def means(threads: str) -> list[tuple]:
        monkeypatch.setenv("SITEGEN_THREADS", threads)
        db = store.connect()
        store.load_columns(db, "models", {"id": models, "ord": list(range(len(models)))}, {"id": pa.string(), "ord": pa.int32()})
        store.load_arrow(db, "cell_status", cells)
        assert db.execute("SELECT current_setting('threads')").fetchone()[0] == int(threads)
        try:
            return cstore.sitcom_by_show(db)
        finally:
            db.close()

    one = means("1")
    assert len(one) == 24
    assert all(means("4") == one for _ in range(3))
