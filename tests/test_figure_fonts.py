"""The figures' font: the same bytes whatever fonts the machine has, the pages serve what the
figures were measured with, and the figure cache key covers everything a figure's bytes depend
on (sitegen/figure_fonts.py, sitegen/figures.py figure_key)."""

from __future__ import annotations

import hashlib
import os
import re
import struct
import subprocess
import sys
from dataclasses import replace
from importlib import metadata
from pathlib import Path

import pytest

from conftest import COMMAND_SECONDS, copy_site, hash_tree
from sitegen import figure_fonts, figures
from sitegen.errors import BuildError
from sitegen.families import Figure
from sitegen.interval_chart import interval_chart

SOURCE_DATE_EPOCH = "1798761600"


# --------------------------------------------------------------------------- fonts made for a test


def renamed_font(data: bytes, family: str, weight: int) -> bytes:
    """A TrueType font DATA under another family name (a new `name` table) and weight class:
    a face the machine could have installed under a name the charts could ask for."""
    num_tables = struct.unpack(">H", data[4:6])[0]
    records = {data[12 + 16 * i:16 + 16 * i]: 12 + 16 * i for i in range(num_tables)}
    strings = [(1, family), (2, "Regular"), (4, f"{family} Regular"), (6, family.replace(" ", "") + "-Regular")]
    encoded = [s.encode("utf-16-be") for _, s in strings]
    table = struct.pack(">HHH", 0, len(strings), 6 + 12 * len(strings))
    offset = 0
    for (name_id, _), raw in zip(strings, encoded):
        table += struct.pack(">HHHHHH", 3, 1, 0x409, name_id, len(raw), offset)
        offset += len(raw)
    table += b"".join(encoded)
    out = bytearray(data + b"\0" * (-len(data) % 4))
    entry = records[b"name"]
    struct.pack_into(">II", out, entry + 8, len(out), len(table))  # the name table, appended
    out += table
    os2 = struct.unpack(">I", out[records[b"OS/2"] + 8:records[b"OS/2"] + 12])[0]
    struct.pack_into(">H", out, os2 + 4, weight)  # usWeightClass
    return bytes(out)


def extra_fonts(home: Path) -> Path:
    """HOME with two fonts in the user's font directory, where fontconfig's configuration
    (and so vl-convert) finds them: the bold Noto Sans named "Arial" (vl-convert's first choice
    for sans-serif), and the same face named "Noto Sans" at the regular weight (a machine's own
    Noto Sans, of another version than the theme's)."""
    fonts = home / ".local" / "share" / "fonts"
    fonts.mkdir(parents=True)
    bold = (figure_fonts.FONT_DIR / "noto-sans-latin-700-normal.ttf").read_bytes()
    (fonts / "Arial.ttf").write_bytes(renamed_font(bold, "Arial", 400))
    (fonts / "NotoSans-Regular.ttf").write_bytes(renamed_font(bold, "Noto Sans", 400))
    return home


def no_fonts(folder: Path) -> Path:
    """A fontconfig configuration whose one font directory is empty: a machine without fonts."""
    (folder / "none").mkdir(parents=True)
    conf = folder / "fonts.conf"
    conf.write_text(f'<?xml version="1.0"?>\n<fontconfig><dir>{folder / "none"}</dir></fontconfig>\n', encoding="utf-8")
    return conf


def start_build(root: Path, out: Path, env: dict[str, str]) -> subprocess.Popen:
    base = {k: v for k, v in os.environ.items() if k not in ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "FONTCONFIG_FILE")}
    return subprocess.Popen([sys.executable, "-m", "sitegen", "build", "--root", str(root), "--out", str(out), "--no-cache"],
                            env={**base, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH, **env},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_build_with_extra_fonts_visible_has_the_bytes_of_one_with_no_font_at_all(tmp_path):
    """Two cold builds of the demo: one on a machine with two more fonts in the user's font
    folder, one whose font configuration finds no font at all. Before the font was pinned,
    the "Arial" made every figure's text narrower (44 files: the SVGs, PNGs and the pages
    they are inlined in) and a machine without Liberation Sans drew the PNGs' text otherwise."""
    root = copy_site(tmp_path / "site")
    home = extra_fonts(tmp_path / "home")
    a = start_build(root, tmp_path / "a", {"HOME": str(home)})
    b = start_build(root, tmp_path / "b", {"HOME": str(tmp_path / "empty-home"), "FONTCONFIG_FILE": str(no_fonts(tmp_path / "nofonts"))})
    for proc in (a, b):
        _, stderr = proc.communicate(timeout=COMMAND_SECONDS)
        assert proc.returncode == 0, stderr
    ha, hb = hash_tree(tmp_path / "a"), hash_tree(tmp_path / "b")
    assert sum(rel.endswith(".svg") for rel in ha) >= 20
    assert sorted(ha) == sorted(hb)
    differing = [rel for rel in sorted(ha) if ha[rel] != hb[rel]]
    assert differing == [], f"{len(differing)} files differ, first: {differing[:10]}"


# --------------------------------------------------------------------------- what the pages serve


def test_the_pages_serve_the_font_files_the_figures_are_measured_with(built_site):
    out = built_site.out
    css = (out / "assets" / "site.css").read_text(encoding="utf-8")
    faces = re.findall(r"@font-face\s*\{([^}]*)\}", css)
    served = {}
    for face in faces:
        assert f'font-family: "{figure_fonts.FAMILY}"' in face, face
        url = re.search(r"url\(([^)]+)\)", face).group(1)
        served[re.search(r"font-weight: (\d+)", face).group(1)] = (out / "assets" / url).read_bytes()
    assert sorted(served) == ["400", "700"]
    assert sorted(served.values()) == sorted((figure_fonts.FONT_DIR / f).read_bytes() for f in figure_fonts.FACES)
    licence = (out / "assets" / "noto-sans-OFL.txt").read_text(encoding="utf-8")
    assert "SIL Open Font License" in licence and "@fontsource/noto-sans" in licence
    # every text of every figure names the font, in the SVG and in the spec published beside it
    for svg in sorted(out.rglob("*.svg")):
        if svg.parent.name == "assets":
            continue
        families = set(re.findall(r'font-family="([^"]*)"', svg.read_text(encoding="utf-8")))
        assert families <= {figure_fonts.FAMILY}, (svg, families)
    for spec in sorted(out.rglob("*.vl.json")):
        assert f'"font": "{figure_fonts.FAMILY}"' in spec.read_text(encoding="utf-8"), spec


def cmap(font: bytes) -> set[int]:
    """The characters a TrueType font has glyphs for (its Unicode BMP subtable, format 4)."""
    num_tables = struct.unpack(">H", font[4:6])[0]
    tables = {font[12 + 16 * i:16 + 16 * i]: struct.unpack(">I", font[20 + 16 * i:24 + 16 * i])[0] for i in range(num_tables)}
    base = tables[b"cmap"]
    for i in range(struct.unpack(">H", font[base + 2:base + 4])[0]):
        platform, encoding, offset = struct.unpack(">HHI", font[base + 4 + 8 * i:base + 12 + 8 * i])
        sub = base + offset
        if (platform, encoding) in ((3, 1), (0, 3)) and struct.unpack(">H", font[sub:sub + 2])[0] == 4:
            segs = struct.unpack(">H", font[sub + 6:sub + 8])[0] // 2
            ends = struct.unpack(f">{segs}H", font[sub + 14:sub + 14 + 2 * segs])
            starts = struct.unpack(f">{segs}H", font[sub + 16 + 2 * segs:sub + 16 + 4 * segs])
            return {c for s, e in zip(starts, ends) if s != 0xFFFF for c in range(s, e + 1)}
    raise AssertionError("no format 4 Unicode cmap")


def test_every_character_the_demo_figures_draw_is_in_the_font(built_site):
    """No text of the demo needs a glyph the pinned font lacks (which vl-convert would draw with
    its own Liberation Sans, and a browser with a font of its own choosing)."""
    have = set.intersection(*(cmap((figure_fonts.FONT_DIR / f).read_bytes()) for f in figure_fonts.FACES))
    drawn = set()
    for svg in sorted(built_site.out.rglob("*.svg")):
        for text in re.findall(r"<text[^>]*>([^<]*)</text>", svg.read_text(encoding="utf-8")):
            drawn |= {ord(c) for c in re.sub(r"&(#x?[0-9a-fA-F]+|[a-z]+);", "&", text)}
    assert len(drawn) > 60
    assert sorted(chr(c) for c in drawn - have) == []


def test_a_spec_that_names_another_font_is_refused_naming_the_figure():
    def comic(data):
        return {"data": {"values": data}, "mark": {"type": "text", "font": "Comic Sans MS"},
                "encoding": {"text": {"field": "a"}, "x": {"field": "a", "type": "nominal", "axis": {"labelFont": "serif"}}}}

    with pytest.raises(BuildError, match=r"figure t/comic: its spec names the font Comic Sans MS, serif; figures are drawn with Noto Sans"):
        figures.render(Figure("t/comic", [{"a": "x"}], comic, "alt", {}, ""))
    # a field of the data called "font" is data, not a font
    spec = figure_fonts.pinned({"datasets": {"rows": [{"font": "Arial"}]}, "config": {"view": {}}}, "t/data")
    assert spec["config"] == {"view": {}, "font": figure_fonts.FAMILY}


# --------------------------------------------------------------------------- the cache key


def _board(data):
    return interval_chart(data, id_field="id", label_field="name", value="v", low="lo", high="hi", measure="m", bounds=(0, 100))


FIG = Figure("t/board", [{"id": "a", "name": "A", "v": 50.0, "lo": 40.0, "hi": 60.0, "rank_best": 1, "rank_worst": 1}],
             _board, "", {}, "test", synthetic_note=None)


def _font_copy(tmp_path: Path, edit=None) -> Path:
    folder = tmp_path / "fonts"
    folder.mkdir()
    for name in figure_fonts.FACES:
        data = (figure_fonts.FONT_DIR / name).read_bytes()
        (folder / name).write_bytes(edit(data) if edit and name == figure_fonts.FACES[0] else data)
    return folder


PERTURBATIONS = {
    "its name": lambda mp, tmp: replace(FIG, name="t/other"),
    "its data": lambda mp, tmp: replace(FIG, data=[{**FIG.data[0], "hi": 61.0}]),
    "its synthetic note": lambda mp, tmp: replace(FIG, synthetic_note="Synthetic data."),
    "its drawing code": lambda mp, tmp: mp.setattr(figures.inspect, "getsource", _edited(lambda o: getattr(o, "__name__", "") == __name__)),
    "a module its drawing code reaches (the chart's colours)": lambda mp, tmp: mp.setattr(
        figures.inspect, "getsource", _edited(lambda o: getattr(o, "__name__", "") == "sitegen.interval_chart")),
    "the code from spec to files": lambda mp, tmp: mp.setattr(figures.inspect, "getsource", _edited(lambda o: o is figures._numbered_from_zero)),
    "the font pinning": lambda mp, tmp: mp.setattr(figures.inspect, "getsource", _edited(lambda o: o is figure_fonts.pinned)),
    "the PNG's scale": lambda mp, tmp: mp.setattr(figures, "PNG_SCALE", 3),
    "the PNG's largest side": lambda mp, tmp: mp.setattr(figures, "PNG_MAX_SIDE", 5000),
    "Altair's version": lambda mp, tmp: mp.setattr(figures.metadata, "version", _version("altair")),
    "vl-convert's version": lambda mp, tmp: mp.setattr(figures.metadata, "version", _version("vl-convert-python")),
    "a byte of the font": lambda mp, tmp: mp.setattr(figure_fonts, "FONT_DIR", _font_copy(tmp, lambda d: d[:-1] + bytes([d[-1] ^ 1]))),
    "the font's family": lambda mp, tmp: mp.setattr(figure_fonts, "FAMILY", "Noto Serif"),
    "the font configuration": lambda mp, tmp: mp.setattr(figure_fonts, "FONTS_CONF", _conf_copy(tmp)),
}


def _edited(which):
    real = figures.inspect.getsource
    return lambda o: real(o) + ("\n# edited" if which(o) else "")


def _version(dist):
    real = metadata.version
    return lambda name: real(name) + (".1" if name == dist else "")


def _conf_copy(tmp_path: Path) -> Path:
    conf = tmp_path / "fonts.conf"
    conf.write_bytes(figure_fonts.FONTS_CONF.read_bytes().replace(b"</fontconfig>", b"<dir>~/.fonts</dir></fontconfig>"))
    return conf


@pytest.mark.parametrize("what", sorted(PERTURBATIONS))
def test_the_figure_key_changes_with_everything_a_figures_bytes_depend_on(what, monkeypatch, tmp_path):
    monkeypatch.setattr(figure_fonts, "_key", [])
    before = figures.figure_key(FIG)
    assert figures.figure_key(FIG) == before
    monkeypatch.setattr(figure_fonts, "_key", [])
    fig = PERTURBATIONS[what](monkeypatch, tmp_path) or FIG
    assert figures.figure_key(fig) != before, what


def test_the_font_key_is_the_hash_of_the_faces_the_renderer_has():
    """The faces the key hashes are every font file the renderer's one directory holds."""
    in_dir = sorted(p.name for p in figure_fonts.FONT_DIR.iterdir() if p.suffix.lower() in (".ttf", ".otf", ".ttc", ".otc"))
    assert in_dir == sorted(figure_fonts.FACES)
    assert '<dir prefix="relative">assets</dir>' in figure_fonts.FONTS_CONF.read_text(encoding="utf-8")
    assert re.fullmatch(r"[0-9a-f]{64}", figure_fonts.key())


# --------------------------------------------------------------------------- the time zone

TEMPORAL = r"""
import hashlib
from sitegen.families import Figure
from sitegen.figures import render

def draw(data):
    return {"data": {"values": data}, "mark": "line",
            "encoding": {"x": {"field": "t", "type": "temporal"}, "y": {"field": "v", "type": "quantitative"}}}

r = render(Figure("t/days", [{"t": "2024-01-01T00:00:00Z", "v": 1}, {"t": "2024-01-03T00:00:00Z", "v": 2}], draw, "", {}, ""))
print(hashlib.sha256(r.svg.encode() + r.png).hexdigest())
"""


def test_a_temporal_axis_is_drawn_the_same_in_every_time_zone():
    """Vega's runtime takes its time zone from the environment as it starts: a figure with a
    time axis drawn in Los Angeles had other ticks than in Kiritimati."""
    runs = {tz: subprocess.run([sys.executable, "-c", TEMPORAL], env={**os.environ, "TZ": tz}, capture_output=True,
                               text=True, timeout=COMMAND_SECONDS) for tz in ("UTC", "Pacific/Kiritimati", "America/Los_Angeles")}
    assert all(p.returncode == 0 for p in runs.values()), {tz: p.stderr[-500:] for tz, p in runs.items()}
    assert len({p.stdout for p in runs.values()}) == 1, {tz: p.stdout for tz, p in runs.items()}
