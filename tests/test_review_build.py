"""A review build: the pages a pull request's deploy preview shows before anything is published
(ChronicleBench protocol section 8: "v1.1 outputs build separately for review"). Every page of
it says it is not the published site and asks not to be indexed; a published build says neither,
and one never passes for the other (the no-op check keys them apart)."""

from __future__ import annotations

import shlex
import tomllib
from pathlib import Path

from conftest import REPO_ROOT, one_family, run_cli

BANNER = "<strong>Review build.</strong>"
NOINDEX = '<meta name="robots" content="noindex, nofollow">'


def pages(out: Path) -> list[Path]:
    return sorted(out.rglob("*.html"))


def test_every_page_of_a_review_build_says_so_and_a_published_build_never_does(tmp_path):
    root = one_family(tmp_path / "site", "chronicle")
    out = tmp_path / "out"
    review = run_cli("build", "--root", str(root), "--out", str(out), "--review")
    assert review.returncode == 0, review.stderr
    reviewed = pages(out)
    assert reviewed and all(BANNER in p.read_text(encoding="utf-8") and NOINDEX in p.read_text(encoding="utf-8") for p in reviewed)
    # the same inputs, published: not "up to date" over the review build's pages
    published = run_cli("build", "--root", str(root), "--out", str(out))
    assert published.returncode == 0 and published.stdout.startswith("built "), published.stdout
    assert [p.relative_to(out) for p in pages(out)] == [p.relative_to(out) for p in reviewed]
    assert not any(BANNER in p.read_text(encoding="utf-8") for p in pages(out))
    # only the not-found page keeps search engines away, and without the review build's nofollow
    assert [p.relative_to(out).as_posix() for p in pages(out) if 'name="robots"' in p.read_text(encoding="utf-8")] == ["404.html"]
    assert NOINDEX not in (out / "404.html").read_text(encoding="utf-8")
    again = run_cli("build", "--root", str(root), "--out", str(out))
    assert again.stdout.startswith("up to date"), again.stdout


def test_review_is_a_property_of_one_build_not_a_setting_of_the_site(tmp_path):
    root = one_family(tmp_path / "site", "chronicle")
    cfg = root / "pyproject.toml"
    cfg.write_text(cfg.read_text(encoding="utf-8").replace("[tool.sitegen]\n", "[tool.sitegen]\nreview = true\n", 1), encoding="utf-8")
    done = run_cli("validate", "--root", str(root))
    assert done.returncode == 1
    assert "pyproject.toml $.tool.sitegen.review: expected no review key: a review build is asked for on the command line" in done.stderr


def test_netlify_builds_deploy_previews_and_branch_deploys_as_review_builds():
    config = tomllib.loads((REPO_ROOT / "netlify.toml").read_text(encoding="utf-8"))
    assert "--review" not in shlex.split(config["build"]["command"])  # production publishes
    for context in ("deploy-preview", "branch-deploy"):
        words = shlex.split(config["context"][context]["command"])
        assert words[words.index("sitegen"):] == ["sitegen", "build", "--review", "--out", config["build"]["publish"]], context
