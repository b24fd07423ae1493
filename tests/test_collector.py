"""The garbage collector's settings while sitegen works (sitegen/collector.py): relaxed during a
build, a validation and a verification, and the process's own again afterwards, also when the
work fails. `sitegen serve` and any program that calls the library keeps its own settings."""

from __future__ import annotations

import gc

import pytest

from conftest import run_cli

from sitegen import collector
from sitegen.build import build, validate
from sitegen.config import load_config
from sitegen.errors import InputError
from sitegen.verify import verify


@pytest.fixture
def small_site(tmp_path):
    site = tmp_path / "bench"
    r = run_cli("new", "site", str(site), "--id", "shortbench", "--title", "Short")
    assert r.returncode == 0, r.stderr
    return site


@pytest.fixture
def own_settings():
    """The test process's collector settings, set to values of its own and restored after."""
    saved = gc.get_threshold()
    gc.set_threshold(1234, 11, 12)
    try:
        yield (1234, 11, 12)
    finally:
        gc.set_threshold(*saved)


def test_a_build_relaxes_the_collector_while_it_works_and_restores_the_callers_settings(small_site, tmp_path, own_settings):
    seen = []

    def on_stage(name):
        seen.append((name, gc.get_threshold(), gc.get_freeze_count() > 0))

    build(load_config(small_site), tmp_path / "out", on_stage=on_stage)
    assert seen and all(t == collector.THRESHOLDS and frozen for _name, t, frozen in seen), seen
    assert gc.get_threshold() == own_settings and gc.get_freeze_count() == 0


def test_a_failed_build_restores_the_settings_too(small_site, tmp_path, own_settings):
    def fail(name):
        if name == "render":
            raise RuntimeError("injected")

    with pytest.raises(RuntimeError, match="injected"):
        build(load_config(small_site), tmp_path / "out", on_stage=fail)
    assert gc.get_threshold() == own_settings and gc.get_freeze_count() == 0


def test_validate_and_verify_restore_the_settings(small_site, tmp_path, own_settings):
    config = load_config(small_site)
    build(config, tmp_path / "out")
    validate(config)
    assert verify(tmp_path / "out") == []
    assert gc.get_threshold() == own_settings and gc.get_freeze_count() == 0
    (small_site / "data" / "shortbench" / "models.jsonl").write_text("{not json\n", encoding="utf-8")
    with pytest.raises(InputError):
        validate(config)
    assert gc.get_threshold() == own_settings and gc.get_freeze_count() == 0


def test_working_is_reentrant_and_restores_only_at_the_outermost_end(own_settings):
    with collector.working():
        with collector.working():
            assert gc.get_threshold() == collector.THRESHOLDS
        assert gc.get_threshold() == collector.THRESHOLDS and gc.get_freeze_count() > 0
    assert gc.get_threshold() == own_settings and gc.get_freeze_count() == 0
