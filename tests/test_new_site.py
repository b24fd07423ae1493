"""`sitegen new site DIR`: a site repository for a declared benchmark that builds and verifies as
it is written, with no Python, no templates and no assets of its own."""

from __future__ import annotations

import re
import subprocess
import tomllib

import yaml

import sitegen
from conftest import REPO_ROOT, run_cli


def assert_installs_this_sitegen(site, requirement):
    """Every install line of the new site's files installs this project's distribution at this
    version: `pip install sitegen` would fetch an unrelated project of that name from the public
    package index, and an unpinned name whatever is newest there. The workflow keeps the job
    token out of .git/config."""
    assert tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["name"] == sitegen.DISTRIBUTION
    assert sitegen.DISTRIBUTION != "sitegen" and requirement.endswith(f"=={sitegen.__version__}")
    workflow = yaml.safe_load((site / ".github" / "workflows" / "site.yml").read_text(encoding="utf-8"))
    steps = workflow["jobs"]["build-verify-deploy"]["steps"]
    checkout = next(s for s in steps if s.get("uses", "").startswith("actions/checkout@"))
    assert checkout["with"]["persist-credentials"] is False
    lines = [s["run"] for s in steps if "pip install" in s.get("run", "")]
    lines.append(tomllib.loads((site / "netlify.toml").read_text(encoding="utf-8"))["build"]["command"])
    lines += re.findall(r"^pip install .*$", (site / "README.md").read_text(encoding="utf-8"), re.M)
    assert len(lines) == 3
    for line in lines:
        assert line.startswith(f"pip install '{requirement}'"), line


def test_a_new_site_builds_and_verifies_as_it_is(tmp_path):
    site = tmp_path / "bench"
    r = run_cli("new", "site", str(site), "--id", "shortbench", "--title", 'Short "Bench"')
    assert r.returncode == 0, r.stderr
    files = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())
    assert files == [".github/workflows/site.yml", ".gitignore", "README.md", "content/index.md", "content/shortbench/benchmark.toml",
                     "content/shortbench/method.md", "data/shortbench/items-s1.jsonl", "data/shortbench/models.jsonl",
                     "data/shortbench/prompts.jsonl", "netlify.toml", "pyproject.toml"]
    assert not any(p.suffix == ".py" for p in site.rglob("*"))
    readme = (site / "README.md").read_text(encoding="utf-8")
    assert "sitegen verify _site --source ." in readme
    assert_installs_this_sitegen(site, sitegen.requirement())
    r = run_cli("build", "--root", str(site))
    assert r.returncode == 0, r.stderr
    out = site / "_site"
    home = (out / "shortbench" / "index.html").read_text(encoding="utf-8")
    assert 'Short "Bench"' in home.replace("&#34;", '"') and "judged by one judge, Example Judge" in home
    assert "No freeze was recorded." in home
    assert (out / "shortbench" / "boards" / "fiction" / "index.html").is_file() and (out / "shortbench" / "boards" / "poetry" / "index.html").is_file()
    assert (out / "assets" / "site.css").is_file()  # the built-in theme's
    assert "Synthetic demo data." in (out / "index.html").read_text(encoding="utf-8")
    r = run_cli("verify", str(out), "--source", str(site))
    assert r.returncode == 0, r.stderr + r.stdout
    assert_builds_leave_git_clean(site)


def assert_builds_leave_git_clean(site):
    """After a build, the site's repository shows its own files as new and nothing the build
    wrote (the output, the cache): its .gitignore keeps them out of a commit."""
    assert (site / "_site").is_dir() and (site / ".sitegen-cache").is_dir()
    subprocess.run(["git", "init", "-q", str(site)], check=True, timeout=60)
    status = subprocess.run(["git", "-C", str(site), "status", "--porcelain", "--untracked-files=all"],
                            capture_output=True, text=True, check=True, timeout=60).stdout.splitlines()
    untracked = sorted(line[3:] for line in status)
    assert ".gitignore" in untracked and "README.md" in untracked
    assert not [p for p in untracked if p.startswith(("_site", ".sitegen-"))], untracked


def test_a_new_site_is_never_written_over_files_and_refuses_a_bad_id(tmp_path):
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "notes.txt").write_text("mine", encoding="utf-8")
    r = run_cli("new", "site", str(taken))
    assert r.returncode == 1 and "exists and is not an empty folder: nothing was written" in r.stderr
    assert sorted(p.name for p in taken.iterdir()) == ["notes.txt"]
    r = run_cli("new", "site", str(tmp_path / "fresh"), "--id", "Bad Id")
    assert r.returncode == 1 and "--id: expected a family id" in r.stderr and not (tmp_path / "fresh").exists()


def test_the_guide_holds_the_configuration_reference_the_models_give():
    # regenerate with: python -m sitegen.families.declared.reference docs/publish-your-own-benchmark.md
    from conftest import REPO_ROOT

    from sitegen.families.declared import config, models
    from sitegen.families.declared.reference import with_reference

    guide = (REPO_ROOT / "docs" / "publish-your-own-benchmark.md").read_text(encoding="utf-8")
    assert with_reference(guide) == guide, "the guide's reference is stale"
    for model in (config.BenchmarkConfig, config.Judge, config.Criterion, config.Sweep, models.Item, models.Judgment):
        for name, field in model.model_fields.items():
            assert field.description, f"{model.__name__}.{name} has no description for the reference"
            assert f"`{name}`" in guide or f".{name}`" in guide, name


def test_a_new_site_refuses_the_id_of_an_installed_family_and_writes_nothing(tmp_path):
    # The installed family would take the id: it would read data/canonic/ as its own records,
    # not the declared benchmark the site was written for, and the site would not build.
    for fid in ("canonic", "vignette-not-installed"):
        site = tmp_path / fid
        r = run_cli("new", "site", str(site), "--id", fid)
        if fid == "canonic":
            assert r.returncode == 1, r.stdout
            assert "--id: expected an id that no installed family has (canonic, chronicle, nextchapter)" in r.stderr
            assert "found \"canonic\"" in r.stderr and "Traceback" not in r.stderr
            assert not site.exists()
        else:  # any other free id is still written, and builds
            assert r.returncode == 0, r.stderr
            assert run_cli("validate", "--root", str(site)).returncode == 0
