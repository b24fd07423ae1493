"""The one font the figures are measured and drawn with, whatever fonts the machine has.

vl-convert measures every text of a figure (Vega's layout: label widths, axis offsets, the
figure's size) and draws it (the PNG) with the faces of its font database, which it fills
once per process, at its first use, from the machine's font directories (fontconfig's
configuration: FONTCONFIG_FILE, else the user's and /etc/fonts' files) and then its built-in
Liberation Sans. A machine with one more font package, or another version of a font a chart
names, drew the same figure a pixel wider. So:

- every chart names FAMILY, the theme's Noto Sans (pinned() sets it in the spec's config and
  refuses any other font a spec names);
- each process fills vl-convert's database from FONTS_CONF, a configuration that lists one
  directory, the theme's assets (ready(), before the process's first figure): the database
  holds the theme's faces and vl-convert's own Liberation Sans, nothing of the machine;
- a character Noto Sans lacks is drawn with the first face of that database that has it
  (vl-convert's Liberation Sans: Latin Extended, Greek, Cyrillic), and one no face has is
  measured and drawn as resvg does a missing glyph; both the same on every machine with the
  same vl-convert, whose version is in the figure key (figures.figure_key), as the font
  files' bytes are (key());
- the pages serve the same files (assets/site.css, @font-face), so a figure shows in a browser
  with the font it was measured with.

The same start pins one more thing of the machine that reaches a figure: the time zone, which
Vega's runtime takes from the environment as it starts (ready() starts it in UTC).

vl-convert has no way to empty a database already filled: a process that used vl-convert
before its first figure (another library) keeps the fonts it found then. sitegen's own
processes (the command line, its figure workers, `sitegen serve`) draw only through ready().
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

from sitegen.errors import BuildError

THEME = Path(__file__).resolve().parent / "theme"
FONT_DIR = THEME / "assets"  # published as assets/<name>; site.css names them
FONTS_CONF = THEME / "fonts.conf"  # <dir prefix="relative">assets</dir>, nothing else
FAMILY = "Noto Sans"
FACES = ("noto-sans-latin-400-normal.ttf", "noto-sans-latin-700-normal.ttf")

_lock = threading.Lock()
_ready = False
_key: list[str] = []


def key() -> str:
    """SHA-256 over the family the charts name, the font configuration and every face's bytes:
    what the renderer measures with, so a changed font draws every figure again."""
    if not _key:
        h = hashlib.sha256(FAMILY.encode() + b"\0" + FONTS_CONF.read_bytes())
        for name in FACES:
            h.update(b"\0" + name.encode() + b"\0" + (FONT_DIR / name).read_bytes())
        _key.append(h.hexdigest())
    return _key[0]


def ready() -> None:
    """This process's vl-convert started as on any machine, once, before its first figure: its
    font database filled from FONTS_CONF alone, and its runtime (Vega's JavaScript) started in
    UTC, the time zone it then keeps for a temporal axis's ticks and labels. The environment is
    changed only while they start (vl-convert reads it then and never again) and restored
    after, so that nothing else this process starts later sees it."""
    global _ready
    if _ready:
        return
    with _lock:
        if _ready:
            return
        import vl_convert as vlc

        before = {name: os.environ.get(name) for name in _STARTED_WITH}
        os.environ.update(_STARTED_WITH)
        try:
            # vl-convert's first use in the process: the database fills now, from FONTS_CONF.
            # Registering the same directory adds its faces once more, behind Liberation Sans,
            # which changes no choice (a query and a fallback take the first face that fits).
            vlc.register_font_directory(str(FONT_DIR))
            vlc.vegalite_to_svg(_START)
        finally:
            for name, value in before.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
        _ready = True


_STARTED_WITH = {"FONTCONFIG_FILE": str(FONTS_CONF), "TZ": "UTC"}
_START = {"data": {"values": [{"x": 1}]}, "mark": "point", "encoding": {"x": {"field": "x", "type": "quantitative"}}}


def pinned(spec: dict, name: str) -> dict:
    """SPEC with FAMILY as its config's font, the default of every text Vega draws. A spec that
    names another font (a mark's, an axis's, a legend's, a title's) is refused: the renderer
    has no other, and a browser would show one the figure was not measured with."""
    others = sorted({value for value in _fonts(spec) if value != FAMILY})
    if others:
        raise BuildError(f"figure {name}: its spec names the font {', '.join(others)}; figures are drawn with "
                         f"{FAMILY} only, set in their config (sitegen/figure_fonts.py)")
    return {**spec, "config": {**(spec.get("config") or {}), "font": FAMILY}}


def _fonts(node) -> list[str]:
    """Every font a Vega-Lite spec names: the values of its keys `font` and `...Font`
    (titleFont, labelFont), outside its data."""
    found = []
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("data", "datasets"):
                continue
            if (k == "font" or k.endswith("Font")) and not isinstance(v, (dict, list)):
                found.append(str(v))
            else:
                found += _fonts(v)
    elif isinstance(node, list):
        for v in node:
            found += _fonts(v)
    return found
