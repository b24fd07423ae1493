"""The three families that ship with sitegen, declared for the `sitegen.families` entry points
in pyproject.toml. A declaration names a family's id, inputs and content folder without
importing its package, so a build that takes a family from the cache never imports it."""

from __future__ import annotations

from pathlib import Path

from sitegen.families import Registered

_HERE = Path(__file__).resolve().parent


def _templates(fid: str) -> str:
    return str(_HERE / fid / "templates")  # holds templates/<fid>/*.html, named "<fid>/board.html"


canonic = Registered("canonic", ("data/canonic/", "content/canonic/bibles/*.md", "content/canonic/amendments/*.md"), None, "sitegen.families.canonic", _templates("canonic"),
                     forbids_aggregate=True)
chronicle = Registered("chronicle", ("data/chronicle/", "content/chronicle/"), "chronicle", "sitegen.families.chronicle", _templates("chronicle"),
                       "sitegen.families.chronicle.published:check_log", forbids_aggregate=True)
nextchapter = Registered("nextchapter", ("data/nextchapter/", "content/nextchapter/amendments/*.md"), None, "sitegen.families.nextchapter", _templates("nextchapter"))
