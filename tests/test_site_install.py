"""A site from Inspect logs deploys as its files say: the generated workflow's install line, run
in a clean virtual environment, installs this very checkout (a wheel of it, which the pinned
`sitegen-evidence[inspect]==<version>` resolves to through --find-links; its dependencies come
from the package index), and its validate, build and verify steps pass there, as does the
netlify.toml build command. Nothing of the test process's own sitegen is on that path.

Slow (a virtual environment and an install of every dependency, about 30 s with a warm pip
cache, which it uses): SITEGEN_SKIP_INSTALL_TEST=1 leaves it out.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

pytest.importorskip("inspect_ai")

from test_inspect import MODELS, write_log  # noqa: E402

import sitegen  # noqa: E402
from conftest import REPO_ROOT, run_cli  # noqa: E402

pytestmark = pytest.mark.skipif(os.environ.get("SITEGEN_SKIP_INSTALL_TEST") == "1", reason="SITEGEN_SKIP_INSTALL_TEST=1")


def wheel_of_this_checkout(tmp: Path) -> Path:
    """A wheel of this checkout, built from a copy so that the build leaves nothing in it."""
    src = tmp / "src"
    shutil.copytree(REPO_ROOT / "sitegen", src / "sitegen", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO_ROOT / name, src / name)
    wheels = tmp / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(src)], check=True, timeout=600)
    return wheels


def test_the_generated_workflow_installs_and_builds_the_site_in_a_clean_environment(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    for m in MODELS:
        write_log(logs / f"{m.split('/')[1]}.eval", m, 1)
    site = tmp_path / "site"
    assert run_cli("new", "site", str(site), "--id", "tales", "--title", "Tales", "--from-inspect", str(logs)).returncode == 0
    config = site / "content/tales/benchmark.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('description = "FILL IN: one sentence on what the benchmark measures."',
                                                                 'description = "Short tales."'), encoding="utf-8")
    steps = yaml.safe_load((site / ".github/workflows/site.yml").read_text(encoding="utf-8"))["jobs"]["build-verify-deploy"]["steps"]
    run = {s["name"]: s["run"] for s in steps if "run" in s}
    install = run["Install sitegen"]
    assert install == f"pip install '{sitegen.requirement('inspect')}'"
    netlify = tomllib.loads((site / "netlify.toml").read_text(encoding="utf-8"))["build"]["command"]
    assert netlify == f'{install} && SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null) sitegen build --out _site ${{URL:+--previous "$URL"}}'

    wheels = wheel_of_this_checkout(tmp_path)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"

    def sh(line: str) -> subprocess.CompletedProcess:
        return subprocess.run(["bash", "-c", line], cwd=site, env=env, capture_output=True, text=True, timeout=900)

    done = sh(f"{install} --find-links {wheels}")
    assert done.returncode == 0, done.stderr[-3000:]
    where = sh("command -v sitegen && python -c 'import sitegen, inspect_ai; print(sitegen.__file__)'")
    assert where.returncode == 0 and where.stdout.startswith(str(venv)), where.stdout + where.stderr
    assert str(venv) in where.stdout.splitlines()[-1]  # the installed wheel, not this checkout
    # the workflow runs in a checkout with its whole history (fetch-depth: 0): Validate reads it
    assert run["Validate"] == "sitegen validate --history"
    assert next(s for s in steps if s.get("uses", "").startswith("actions/checkout"))["with"]["fetch-depth"] == 0
    identity = "-c user.name=m -c user.email=m@example.org"
    assert sh(f"git init -q && git add -A && git {identity} commit -q -m 'the site'").returncode == 0
    for name in ("Validate", "Build", "Verify"):
        done = sh(run[name])
        assert done.returncode == 0, (name, done.stdout[-2000:], done.stderr[-2000:])
    assert (site / "_site/tales/index.html").is_file()
    shutil.rmtree(site / "_site")
    done = sh(netlify)  # the install is already satisfied: the build half runs as Netlify runs it
    assert done.returncode == 0, done.stderr[-2000:]
    assert "the logs do not record the grader" in (site / "_site/tales/index.html").read_text(encoding="utf-8")
    # The installed package carries the whole skeleton, its dotfiles too.
    done = sh(f"sitegen new site {tmp_path / 'fresh'} --id fresh --title Fresh")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "fresh/.gitignore").is_file() and (tmp_path / "fresh/.github/workflows/site.yml").is_file()
