"""`sitegen new site DIR`: a site repository for a declared benchmark, ready to build.

It copies the skeleton shipped with sitegen (sitegen/skeleton/: the configuration, the
benchmark's description, a method page, a README with the two commands, netlify.toml and a CI
workflow), with the benchmark's id and title put in, and writes a small synthetic example
dataset for it, seeded (SEED) so that two runs write the same bytes. The site has no
templates/ or assets/ of its own: the build's built-in theme serves it until it adds some.
"""

from __future__ import annotations

import json
import random
import re
import tomllib
from importlib import resources
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from sitegen import requirement
from sitegen.errors import BuildError, short_repr
from sitegen.families.demo_files import jsonl_line
from sitegen.fields import Name

SEED = 20260101
_ID = re.compile(r"^[a-z][a-z0-9_-]{0,63}$")
_TITLE = TypeAdapter(Name)


# The README's paragraph on the data, for a site made with example data.
EXAMPLE_DATA = """The example data in `data/__ID__/` is synthetic, written by `sitegen new site`; replace it with
your harness's output (one line per model, per prompt, and per model, prompt and iteration; the
JSON Schemas are written by `sitegen schema` into `schemas/`), and describe your benchmark in
`content/__ID__/benchmark.toml`. `sitegen validate` lists every problem at once, with its file,
line, JSON path, expected and found."""


def new_site(target: Path, fid: str, title: str) -> list[Path]:
    """Write the site into TARGET (absent or an empty folder); return the files written."""
    check_new(target, fid, title)
    files = dict(skeleton(fid, title, requirement(), EXAMPLE_DATA))
    config = tomllib.loads(files[f"content/{fid}/benchmark.toml"])
    files.update(example_data(fid, config))
    return write_files(target, {rel: text.encode("utf-8") for rel, text in files.items()})


def check_new(target: Path, fid: str, title: str) -> None:
    """Refuse a bad id or title, or a TARGET that is not absent or an empty folder."""
    if not _ID.fullmatch(fid):
        raise BuildError(f"--id: expected a family id of lower-case letters, digits, - and _ (starting with a letter); found {short_repr(fid)}")
    from sitegen.site_families import installed  # late: reading the entry points imports the plug-ins' declarations

    taken = installed()
    if fid in taken:  # the installed family would publish the site's data, not its benchmark.toml: it would not build
        raise BuildError(f"--id: expected an id that no installed family has ({', '.join(sorted(taken))}); "
                         f"found {short_repr(fid)}, the installed family's: nothing was written")
    try:
        _TITLE.validate_python(title, strict=True)
    except ValidationError:
        raise BuildError(f"--title: expected a title on one line without control characters; found {short_repr(title)}") from None
    if target.is_symlink() or (target.exists() and (not target.is_dir() or any(target.iterdir()))):
        raise BuildError(f"{target} exists and is not an empty folder: nothing was written")


def write_files(target: Path, files: dict[str, bytes]) -> list[Path]:
    written = []
    try:
        for rel, data in sorted(files.items()):
            path = target / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "xb") as fh:  # never over a file
                fh.write(data)
            written.append(path)
    except OSError as exc:
        raise BuildError(f"cannot write the site into {target}: {exc.strerror or exc}") from None
    return written


def _toml_string(text: str) -> str:
    """TEXT inside a TOML basic string: JSON's escapes are TOML's for every character a Name allows."""
    return json.dumps(text, ensure_ascii=False)[1:-1]


def skeleton(fid: str, title: str, package: str, data_paragraph: str):
    """The skeleton's files, with the id, the title, the package to install (a pinned requirement,
    single-quoted for the shell: an extra's brackets are a glob) and the README's paragraph on the
    data put in."""
    for rel, text in _skeleton(fid, title):
        yield rel, text.replace("__PACKAGE__", f"'{package}'").replace("__DATA__", data_paragraph.replace("__ID__", fid))


def _skeleton(fid: str, title: str):
    root = resources.files("sitegen").joinpath("skeleton")
    stack = [(root, "")]
    while stack:
        folder, prefix = stack.pop()
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            rel = f"{prefix}{entry.name}".replace("__ID__", fid)
            if entry.is_dir():
                stack.append((entry, rel + "/"))
            elif not entry.name.endswith((".pyc", ".pyo")):
                text = entry.read_text(encoding="utf-8")
                value = _toml_string(title) if rel.endswith(".toml") else title
                yield rel, text.replace("__ID__", fid).replace("__TITLE__", value)


def example_data(fid: str, config: dict) -> dict[str, str]:
    """A small synthetic dataset for CONFIG's criteria, judges and first sweep: four models, eight
    prompts in two categories (four each: a board of fewer is not ranked, boards.min_prompts), the configured iterations, an occasional failed attempt and an
    optional criterion sometimes left unscored."""
    rng = random.Random(SEED)
    models = [("example/alpha-1", "Alpha 1", "Alpha Labs", 0.74), ("example/beta-2", "Beta 2", "Beta Works", 0.66),
              ("example/gamma-3", "Gamma 3", "Gamma AI", 0.58), ("example/delta-4", "Delta 4", "Delta Systems", 0.51)]
    prompts = [{"id": f"p{i + 1}", "title": f"Example prompt {i + 1}", "category": "Fiction" if i < 4 else "Poetry",
                "text": f"An example prompt ({'a short story' if i < 4 else 'a poem'}); replace it with your benchmark's."} for i in range(8)]
    sweep = config["sweeps"][0]
    iterations = config.get("repeats", {}).get("iterations", 1)
    attempts = config.get("generation", {}).get("attempts", 1)
    items = []
    for mid, _name, _house, quality in models:
        for p in prompts:
            for it in range(1, iterations + 1):
                tries = [{"outcome": "failed", "reason": "empty"}] if attempts > 1 and rng.random() < 0.08 else []
                tries.append({"outcome": "ok"})
                scores = {}
                for c in config["criteria"]:
                    if c.get("optional") and rng.random() < 0.2:
                        scores[c["id"]] = None
                        continue
                    x = min(1.0, max(0.0, quality + rng.gauss(0, 0.1)))
                    x = 1.0 - x if c.get("direction") == "lower" else x
                    scores[c["id"]] = round(c["min"] + x * (c["max"] - c["min"]), 1)
                items.append({"model": mid, "prompt": p["id"], "iteration": it, "attempts": tries,
                              "output": f"Example output {it} of {mid} for {p['id']} (synthetic).",
                              "judgments": [{"judge": j, "scores": scores, "rationale": "An example rationale."} for j in sweep["judges"]]})
    return {f"data/{fid}/models.jsonl": "".join(jsonl_line({"id": m, "name": n, "house": h}) for m, n, h, _q in models),
            f"data/{fid}/prompts.jsonl": "".join(jsonl_line(p) for p in prompts),
            f"data/{fid}/{sweep['items']}": "".join(jsonl_line(i) for i in items)}
