"""The build as a whole: its stages, the output directory it will and will not replace, the CLI's
exit codes. Atomic publication under failures: test_atomic.py; reproducibility: test_reproducible.py."""

from __future__ import annotations

import json

import pytest

import sitegen.build
from sitegen.build import build
from sitegen.config import load_config
from sitegen.errors import InputError

import sitegen
from conftest import copy_site, hash_tree, leftovers_beside, run_cli

# The stage names build() reports through on_stage, in order (see sitegen/build.py).
STAGES = ["load", "validate", "store", "compute", "render", "write", "figures", "index", "manifest", "verify", "swap"]


def fake_previous_site(out) -> dict[str, str]:
    """A previous output that differs from anything a new build would write."""
    (out / "canonic" / "old-domain").mkdir(parents=True)
    (out / "index.html").write_text("<!doctype html><title>the previous site</title>\n", encoding="utf-8")
    (out / "canonic" / "old-domain" / "board.csv").write_text("domain,band\nold-domain,1\n", encoding="utf-8")
    (out / "keep.bin").write_bytes(bytes(range(256)))
    files = hash_tree(out)  # every file its build wrote, as its manifest lists them
    (out / "manifest.json").write_text(json.dumps({"generator": "sitegen 0.1.0", "files": files}), encoding="utf-8")
    return hash_tree(out)


# --------------------------------------------------------------------------- determinism


def test_rebuilding_into_the_same_out_dir_gives_the_same_bytes(cached_site_copy, tmp_path):
    out = tmp_path / "out"
    config = load_config(cached_site_copy)
    build(config, out)
    first = hash_tree(out)
    build(config, out)
    assert hash_tree(out) == first
    assert leftovers_beside(out) == []


# --------------------------------------------------------------------------- stages and the output directory
#
# Failures at each stage, killed builds and the verify stage: tests/test_atomic.py.


def test_build_reports_the_documented_stages_in_order(built_site):
    assert built_site.stages == STAGES
    assert list(sitegen.build.STAGES) == STAGES  # the list bench's stage table follows


@pytest.mark.parametrize("where", [".", "data", "content/canonic", "templates", ".."])
def test_out_dir_that_would_destroy_inputs_is_refused(cached_site_copy, where):
    before = hash_tree(cached_site_copy)
    out = cached_site_copy / where
    r = run_cli("build", "--root", str(cached_site_copy), "--out", str(out))
    assert r.returncode == 1
    assert "--out" in r.stderr and "Traceback" not in r.stderr
    assert hash_tree(cached_site_copy) == before


def test_out_dir_that_is_not_a_previous_site_is_refused(cached_site_copy, tmp_path):
    out = tmp_path / "documents"
    out.mkdir()
    (out / "thesis.txt").write_text("years of work", encoding="utf-8")
    before = hash_tree(out)
    r = run_cli("build", "--root", str(cached_site_copy), "--out", str(out))
    assert r.returncode == 1
    assert hash_tree(out) == before


def test_out_path_that_is_an_existing_file_is_refused(cached_site_copy, tmp_path):
    out = tmp_path / "notes.txt"
    out.write_text("my notes", encoding="utf-8")
    r = run_cli("build", "--root", str(cached_site_copy), "--out", str(out))
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert out.is_file() and out.read_text(encoding="utf-8") == "my notes"
    assert leftovers_beside(out) == []


def test_a_successful_build_replaces_the_previous_output_entirely(cached_site_copy, tmp_path):
    out = tmp_path / "out"
    fake_previous_site(out)
    build(load_config(cached_site_copy), out)
    assert not (out / "keep.bin").exists() and not (out / "canonic" / "old-domain").exists()
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert set(manifest["files"]) == set(hash_tree(out)) - {"manifest.json"}
    assert leftovers_beside(out) == []


# --------------------------------------------------------------------------- the CLI


def test_cli_build_writes_the_site_and_exits_0(cached_site_copy):
    r = run_cli("build", "--root", str(cached_site_copy))
    assert r.returncode == 0, r.stderr
    out = cached_site_copy / "_site"  # the documented default
    assert (out / "index.html").is_file() and (out / "canonic" / "index.html").is_file()


@pytest.mark.parametrize("args", [
    ["build", "--no-such-option"],
    ["validate", "--out"],  # validate takes no --out
    ["schema", "--check", "extra-argument"],
    ["no-such-command"],
])
def test_usage_error_exits_2(args, tmp_path):
    r = run_cli(*args, cwd=tmp_path)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "Usage" in r.stderr or "Error" in r.stderr


def test_unknown_site_setting_is_an_input_error(site_copy):
    cfg = site_copy / "pyproject.toml"
    cfg.write_text(cfg.read_text(encoding="utf-8").replace("[tool.sitegen]\n", "[tool.sitegen]\ncolour = \"red\"\n"),
                   encoding="utf-8")
    r = run_cli("validate", "--root", str(site_copy))
    assert r.returncode == 1
    assert "pyproject.toml $.tool.sitegen.colour" in r.stderr


# --------------------------------------------------------------------------- authored content


def append_to_home_page(root, text: str) -> int:
    """Append lines to content/index.md; returns the 1-based line number of the first one."""
    page = root / "content" / "index.md"
    body = page.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    page.write_text(body + text, encoding="utf-8")
    return body.count("\n") + 1


def test_unknown_shortcode_fails_the_build_with_file_and_line(site_copy, tmp_path):
    line = append_to_home_page(site_copy, "{{< canonic.no-such-fragment >}}\n")
    with pytest.raises(InputError) as exc:
        build(load_config(site_copy), tmp_path / "out")
    assert [(p.file, p.line) for p in exc.value.problems] == [("content/index.md", line)]


def test_validate_catches_what_build_catches_unknown_shortcode(site_copy):
    line = append_to_home_page(site_copy, "{{< canonic.no-such-fragment >}}\n")
    r = run_cli("validate", "--root", str(site_copy))
    assert r.returncode == 1
    assert f"content/index.md:{line}" in r.stderr


def test_front_matter_naming_a_missing_template_is_a_clean_input_error(site_copy, tmp_path):
    page = site_copy / "content" / "index.md"
    page.write_text(page.read_text(encoding="utf-8").replace("template: home.html", "template: homepage.html"),
                    encoding="utf-8")
    assert "homepage.html" in page.read_text(encoding="utf-8")
    r = run_cli("build", "--root", str(site_copy), "--out", str(tmp_path / "out"))
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert "content/index.md" in r.stderr and "homepage.html" in r.stderr
    assert run_cli("validate", "--root", str(site_copy)).returncode == 1


def test_aggregate_field_in_authored_text_fails_with_file_and_line(site_copy):
    line = append_to_home_page(site_copy, "Ranked by overall_score across domains.\n")
    r = run_cli("validate", "--root", str(site_copy))
    assert r.returncode == 1
    assert f"content/index.md:{line}" in r.stderr and "overall_score" in r.stderr


def test_cli_version_and_help_exit_0():
    assert run_cli("--help").returncode == 0
    r = run_cli("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"sitegen, version {sitegen.__version__}"


# --------------------------------------------------------------------------- schemas


def test_schema_check_passes_on_the_repository(repo_root):
    r = run_cli("schema", "--check", "--root", str(repo_root))
    assert r.returncode == 0, r.stderr


def test_schema_check_fails_when_a_schema_is_modified(tmp_path):
    root = copy_site(tmp_path / "site", schemas=True)
    files = sorted((root / "schemas").glob("*.schema.json"))
    assert files
    r = run_cli("schema", "--check", "--root", str(root))
    assert r.returncode == 0, r.stderr

    doc = json.loads(files[0].read_text(encoding="utf-8"))
    doc["description"] = "edited by hand"
    files[0].write_text(json.dumps(doc, indent=2), encoding="utf-8")
    r = run_cli("schema", "--check", "--root", str(root))
    assert r.returncode == 1
    assert files[0].name in r.stderr


def test_schema_check_fails_when_a_schema_is_missing_or_extra(tmp_path):
    root = copy_site(tmp_path / "site", schemas=True)
    files = sorted((root / "schemas").glob("*.schema.json"))
    files[-1].unlink()
    r = run_cli("schema", "--check", "--root", str(root))
    assert r.returncode == 1 and files[-1].name in r.stderr

    root2 = copy_site(tmp_path / "site2", schemas=True)
    (root2 / "schemas" / "canonic.retired.schema.json").write_text('{"$comment": "generated by sitegen schema"}\n', encoding="utf-8")
    r = run_cli("schema", "--check", "--root", str(root2))
    assert r.returncode == 1 and "canonic.retired.schema.json" in r.stderr


def test_schema_rewrites_stale_schemas_so_check_passes_again(tmp_path, repo_root):
    root = copy_site(tmp_path / "site", schemas=True)
    target = sorted((root / "schemas").glob("*.schema.json"))[0]
    target.write_text("{}\n", encoding="utf-8")
    assert run_cli("schema", "--root", str(root)).returncode == 0
    assert run_cli("schema", "--check", "--root", str(root)).returncode == 0
    assert hash_tree(root / "schemas") == hash_tree(repo_root / "schemas")


def test_the_public_api_imports_as_its_docstring_shows():
    """The imports the package docstring shows, in a fresh interpreter, give the functions
    (`from sitegen import build` used to recurse until Python gave up)."""
    import subprocess
    import sys

    from conftest import COMMAND_SECONDS

    probe = ("from sitegen import load_config, validate; from sitegen.build import build; "
             "print(build.__module__, validate.__name__, load_config.__name__)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=COMMAND_SECONDS)
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.split() == ["sitegen.build", "validate", "load_config"]
