"""Every sentence chronicle builds before its pages render (a figure's text alternative, its
summary line, a text a paper cites, a feed entry) is a macro of templates/chronicle/sentences.txt,
called through render.sentences: sentences live in templates, never in Python strings."""

from __future__ import annotations

from pathlib import Path

from sitegen import render

SENTENCES = render.sentences(Path(__file__).resolve().parent / "templates", "chronicle/sentences.txt")
