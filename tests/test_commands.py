"""The smaller commands and the site configuration: `sitegen new amendment`, `sitegen schema`,
and the `families` list of [tool.sitegen]."""

from __future__ import annotations

import json
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sitegen.config import Limits, load_config
from sitegen.errors import BuildError, InputError
from sitegen import scaffold_amendment as scaffold
from sitegen.families.chronicle import AMENDMENT_FIELDS
from sitegen.load import Loaded, read_markdown

from conftest import REPO_ROOT, REQUEST_SECONDS, copy_site, hash_tree, run_cli

# --------------------------------------------------------------------------- new amendment


@pytest.mark.parametrize("epoch", ["yesterday", "-86400", "1.5", "1e9", "99999999999999999999", "9" * 5000])
def test_a_malformed_source_date_epoch_is_one_line_naming_it_and_writes_nothing(tmp_path, epoch):
    r = run_cli("new", "amendment", "--root", str(tmp_path), "--title", "Retries logged",
                env={"SOURCE_DATE_EPOCH": epoch})
    assert r.returncode == 1
    assert r.stderr.startswith(f'SOURCE_DATE_EPOCH must be a whole number of seconds since 1970-01-01; found "{epoch[:40]}')
    assert r.stderr.count("\n") == 1
    assert list(tmp_path.rglob("*.md")) == []


def new_amendment(root: Path, title: str) -> Path:
    """What `sitegen new amendment --family chronicle --title TITLE` writes."""
    return scaffold.new_entry(root, "chronicle", title, "amendment", AMENDMENT_FIELDS)


def title_read_back(root: Path, path: Path) -> str:
    loaded = Loaded()
    doc = read_markdown(root, path, loaded, Limits())
    assert doc is not None and loaded.problems == [], loaded.problems
    return doc.meta["title"]


HARD_TITLES = ['"Quoted" policy', '"Quoted"', "'Single'", "It's the \"new\" guard", "C:\\runs\\A7: paths",
               "Budget: $360 # total", "# not a comment", "  leading and trailing  ", "---", "'", '"']


@pytest.mark.parametrize("title", HARD_TITLES)
def test_a_scaffolded_title_reads_back_exactly(tmp_path, title):
    path = new_amendment(tmp_path, title)
    assert title_read_back(tmp_path, path) == title


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(codec="utf-8"), max_size=40))
@example("a\nb")
@example("   ")
def test_any_title_reads_back_exactly_or_is_refused_leaving_no_file(title):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        try:
            path = new_amendment(root, title)
        except BuildError as exc:
            assert str(exc).startswith("--title: expected ") and "\n" not in str(exc)
            assert list(root.rglob("*.md")) == []
        else:
            assert title_read_back(root, path) == title


def test_concurrent_runs_write_one_amendment_each_none_overwritten(tmp_path, monkeypatch):
    """Runs that all listed the folder before any of them wrote (the slow step between the two
    forced here by holding each run at the clock) take consecutive numbers."""
    root = copy_site(tmp_path / "site")
    runs = 4
    together = threading.Barrier(runs, timeout=REQUEST_SECONDS)
    real_today = scaffold.today

    def held_today() -> str:
        together.wait()
        return real_today()

    monkeypatch.setattr(scaffold, "today", held_today)
    written: dict[str, Path] = {}
    errors: list[BaseException] = []

    def run(title: str) -> None:
        try:
            written[title] = new_amendment(root, title)
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(f"Concurrent change {i}",)) for i in range(runs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(REQUEST_SECONDS)
    assert errors == []
    assert sorted(p.name for p in written.values()) == sorted(f"A{n}.md" for n in range(7, 7 + runs))
    for title, path in written.items():
        assert title_read_back(root, path) == title


# --------------------------------------------------------------------------- schema


HAND_WRITTEN = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "local.notes.schema.json",
                "type": "object"}


def test_schema_keeps_a_hand_written_schema_and_check_does_not_call_it_stale(tmp_path):
    root = copy_site(tmp_path / "site", schemas=True)
    mine = root / "schemas" / "local.notes.schema.json"
    mine.write_text(json.dumps(HAND_WRITTEN, indent=2) + "\n", encoding="utf-8")
    before = mine.read_bytes()

    r = run_cli("schema", "--check", "--root", str(root))
    assert r.returncode == 0, r.stderr
    r = run_cli("schema", "--root", str(root))
    assert r.returncode == 0, r.stderr
    assert mine.read_bytes() == before
    after = hash_tree(root / "schemas")
    del after[mine.name]
    assert after == hash_tree(REPO_ROOT / "schemas")


def test_schema_deletes_a_schema_it_generated_for_a_kind_that_is_gone(tmp_path):
    root = copy_site(tmp_path / "site", schemas=True)
    ours = json.loads((root / "schemas" / "canonic.cell.schema.json").read_text(encoding="utf-8"))
    retired = root / "schemas" / "canonic.retired.schema.json"
    retired.write_text(json.dumps({**ours, "$id": retired.name}, indent=2) + "\n", encoding="utf-8")

    r = run_cli("schema", "--check", "--root", str(root))
    assert r.returncode == 1 and retired.name in r.stderr
    assert run_cli("schema", "--root", str(root)).returncode == 0
    assert not retired.exists()
    assert hash_tree(root / "schemas") == hash_tree(REPO_ROOT / "schemas")


def test_schema_replaces_a_link_in_schemas_never_writing_through_it(tmp_path):
    root = copy_site(tmp_path / "site", schemas=True)
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text("{}\n", encoding="utf-8")
    link = root / "schemas" / "canonic.cell.schema.json"
    link.unlink()
    link.symlink_to(elsewhere)
    assert run_cli("schema", "--root", str(root)).returncode == 0
    assert elsewhere.read_text(encoding="utf-8") == "{}\n"
    assert not link.is_symlink() and hash_tree(root / "schemas") == hash_tree(REPO_ROOT / "schemas")


# --------------------------------------------------------------------------- configuration


def config_problems(tmp_path: Path, families: str) -> list[str]:
    (tmp_path / "pyproject.toml").write_text(f"[tool.sitegen]\nfamilies = {families}\n", encoding="utf-8")
    with pytest.raises(InputError) as ei:
        load_config(tmp_path)
    return [str(p) for p in ei.value.problems]


def test_a_family_listed_twice_is_one_problem_at_families(tmp_path):
    assert config_problems(tmp_path, '["chronicle", "canonic", "chronicle"]') == [
        'pyproject.toml $.tool.sitegen.families: expected each family once; found "chronicle" listed again']


def test_no_family_is_one_problem_at_families(tmp_path):
    assert config_problems(tmp_path, "[]") == [
        "pyproject.toml $.tool.sitegen.families: expected at least one family; found an empty list"]


def test_the_demo_configuration_loads():
    assert load_config(REPO_ROOT).families == ["canonic", "chronicle", "nextchapter", "vignette"]


# --------------------------------------------------------------------------- the package


def test_every_file_the_package_reads_is_in_its_package_data():
    """A wheel holds the package's Python files and what [tool.setuptools.package-data] names: a
    template or sentences file left out builds from a checkout and fails once installed."""
    import tomllib
    from fnmatch import fnmatchcase

    patterns = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]["sitegen"]
    package = REPO_ROOT / "sitegen"
    missing = [rel for p in sorted(package.rglob("*")) if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
               and not any(fnmatchcase(rel := p.relative_to(package).as_posix(), pat) and rel.count("/") == pat.count("/")
                           for pat in patterns)]
    assert missing == []
