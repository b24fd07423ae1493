"""The three families that ship with sitegen, declared for the `sitegen.families` entry points
in pyproject.toml. A declaration names a family's id, inputs and content folder without
importing its package, so a build that takes a family from the cache never imports it."""

from __future__ import annotations

from sitegen.families import Registered

canonic = Registered("canonic", ("data/canonic/", "content/canonic/bibles/*.md"), None, "sitegen.families.canonic")
chronicle = Registered("chronicle", ("data/chronicle/", "content/chronicle/"), "chronicle", "sitegen.families.chronicle")
nextchapter = Registered("nextchapter", ("data/nextchapter/",), None, "sitegen.families.nextchapter")
