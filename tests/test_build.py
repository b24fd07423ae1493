"""The build as a whole: deterministic output, failures that lose nothing, the CLI's exit codes."""

from __future__ import annotations

import json

import pytest

from sitegen.build import build
from sitegen.config import load_config
from sitegen.errors import InputError

from conftest import (CELLS_REL, copy_site, find_cell_line, hash_tree, leftovers_beside, read_sweep,
                      rewrite_cell_line, run_cli, two_standard_scores, write_sweep)

# The stage names build() reports through on_stage, in order (see sitegen/build.py).
STAGES = ["load", "validate", "store+compute", "render", "figures", "write", "manifest", "swap"]


class Injected(Exception):
    """The failure a test injects into a build."""


def break_one_cell(root) -> int:
    line, rec = find_cell_line(root, two_standard_scores)
    dim = next(iter(rec["judgments"][0]["anchors"]))

    def edit(r):
        r["judgments"][0]["anchors"][dim] = 0.3
        r["judgments"][0].pop("weighted_score", None)

    rewrite_cell_line(root, line, edit)
    return line


def fake_previous_site(out) -> dict[str, str]:
    """A previous output that differs from anything a new build would write."""
    (out / "canonic" / "old-domain").mkdir(parents=True)
    (out / "index.html").write_text("<!doctype html><title>the previous site</title>\n", encoding="utf-8")
    (out / "canonic" / "old-domain" / "board.csv").write_text("domain,band\nold-domain,1\n", encoding="utf-8")
    (out / "manifest.json").write_text(json.dumps({"files": {}}), encoding="utf-8")
    (out / "keep.bin").write_bytes(bytes(range(256)))
    return hash_tree(out)


# --------------------------------------------------------------------------- determinism


def test_two_builds_of_the_same_inputs_are_byte_identical(tmp_path):
    # two separate copies (different roots, each rendering its figures afresh), two out dirs,
    # two processes with different hash seeds (so set and dict-of-set orders differ)
    a = copy_site(tmp_path / "a" / "site")
    b = copy_site(tmp_path / "b" / "elsewhere")
    ra = run_cli("build", "--root", str(a), "--out", str(tmp_path / "a" / "out"), env={"PYTHONHASHSEED": "1"})
    rb = run_cli("build", "--root", str(b), "--out", str(tmp_path / "b" / "public"), env={"PYTHONHASHSEED": "2"})
    assert ra.returncode == 0 and rb.returncode == 0, (ra.stderr, rb.stderr)
    ha, hb = hash_tree(tmp_path / "a" / "out"), hash_tree(tmp_path / "b" / "public")
    assert len(ha) >= 20
    assert sorted(ha) == sorted(hb)
    differing = [k for k in ha if ha[k] != hb[k]]
    assert differing == []
    # and no trace of where the inputs lived
    for p in (tmp_path / "a" / "out").rglob("*"):
        if p.is_file() and p.suffix in (".html", ".json", ".csv", ".svg"):
            text = p.read_text(encoding="utf-8")
            assert str(tmp_path) not in text, p


def test_rebuilding_into_the_same_out_dir_gives_the_same_bytes(cached_site_copy, tmp_path):
    out = tmp_path / "out"
    config = load_config(cached_site_copy)
    build(config, out)
    first = hash_tree(out)
    build(config, out)
    assert hash_tree(out) == first
    assert leftovers_beside(out) == []


# --------------------------------------------------------------------------- failures lose nothing


def test_invalid_input_exits_1_and_leaves_previous_output_untouched(cached_site_copy, tmp_path):
    out = tmp_path / "out"
    r = run_cli("build", "--root", str(cached_site_copy), "--out", str(out))
    assert r.returncode == 0, r.stderr
    before = hash_tree(out)
    assert "index.html" in before

    line = break_one_cell(cached_site_copy)
    r = run_cli("build", "--root", str(cached_site_copy), "--out", str(out))
    assert r.returncode == 1
    assert f"{CELLS_REL}:{line} $.judgments[0].anchors." in r.stderr
    assert hash_tree(out) == before
    assert leftovers_beside(out) == []


def test_invalid_input_into_a_new_out_dir_creates_nothing(site_copy, tmp_path):
    break_one_cell(site_copy)
    out = tmp_path / "fresh" / "out"
    with pytest.raises(InputError):
        build(load_config(site_copy), out)
    assert not out.exists()
    assert not out.parent.exists() or leftovers_beside(out) == []


def test_build_reports_the_documented_stages_in_order(built_site):
    assert built_site.stages == STAGES


@pytest.mark.parametrize("stage", STAGES)
def test_failure_injected_at_any_stage_leaves_previous_output_untouched(cached_site_copy, tmp_path, stage):
    out = tmp_path / "out"
    before = fake_previous_site(out)

    def hook(name: str) -> None:
        if name == stage:
            raise Injected(stage)

    with pytest.raises(Injected):
        build(load_config(cached_site_copy), out, on_stage=hook)
    assert hash_tree(out) == before
    assert leftovers_beside(out) == []


def test_failure_in_the_middle_of_writing_leaves_previous_output_untouched(cached_site_copy, tmp_path):
    """A model name that reads like an aggregate field passes intake (it is a value, not a key)
    but the writer's last check refuses the page that would show it: the build fails while
    files are being written, and nothing of it may reach the output."""
    out = tmp_path / "out"
    before = fake_previous_site(out)
    sweep = read_sweep(cached_site_copy)
    sweep["models"][-1]["name"] = "Model total_score"
    write_sweep(cached_site_copy, sweep)
    r = run_cli("build", "--root", str(cached_site_copy), "--out", str(out))
    assert r.returncode == 1
    assert "total_score" in r.stderr and "Traceback" not in r.stderr
    assert hash_tree(out) == before
    assert leftovers_beside(out) == []


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


def test_stale_staging_dir_from_a_killed_build_is_cleaned_up(cached_site_copy, tmp_path):
    out = tmp_path / "out"
    stale = tmp_path / ".sitegen-staging-out-999999"
    (stale / "canonic").mkdir(parents=True)
    (stale / "canonic" / "half.html").write_text("<p>half", encoding="utf-8")
    build(load_config(cached_site_copy), out)
    assert leftovers_beside(out) == []
    assert (out / "index.html").is_file()


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
    assert r.returncode == 0 and r.stdout.strip()


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
    (root2 / "schemas" / "canonic.retired.schema.json").write_text("{}\n", encoding="utf-8")
    r = run_cli("schema", "--check", "--root", str(root2))
    assert r.returncode == 1 and "canonic.retired.schema.json" in r.stderr


def test_schema_rewrites_stale_schemas_so_check_passes_again(tmp_path, repo_root):
    root = copy_site(tmp_path / "site", schemas=True)
    target = sorted((root / "schemas").glob("*.schema.json"))[0]
    target.write_text("{}\n", encoding="utf-8")
    assert run_cli("schema", "--root", str(root)).returncode == 0
    assert run_cli("schema", "--check", "--root", str(root)).returncode == 0
    assert hash_tree(root / "schemas") == hash_tree(repo_root / "schemas")
