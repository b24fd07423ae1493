"""A declared benchmark of a real benchmark's shape, synthetic and seeded (SEED): the site the
build benchmark (`python -m sitegen.bench --shaped`) and the page-size tests build.

The shape of a public creative-writing leaderboard's results: 30 models, 32 prompts in 23
categories (18 categories of one prompt, whose boards are too few prompts to rank), 3
iterations, one judge per sweep, 22 criteria on 0-20 (nine lower-is-better, two of them
labelled "Overall Reader Engagement" and "Overall Impression"), attempts not recorded, a few
generations failed, a few replies without scores, a few records missing, and two sweeps: the
second re-judges the same outputs with another judge and a changed weight, recorded by
amendment A1. The texts are as long as a real benchmark's (outputs about 1,000 words,
rationales about 80), so its pages weigh what a real one's do. Every name and text is invented here. The build never imports it.

    python -m sitegen.families.declared.shaped DIR [--models N]
"""

from __future__ import annotations

import argparse
import random
import tomllib
from pathlib import Path

from sitegen import requirement
from sitegen.families.declared import settings
from sitegen.families.demo_files import jsonl_line
from sitegen.scaffold_site import check_new, skeleton, write_files

SEED = 20261207
FID = "shaped"
TITLE = "Shaped"
MODELS = 30
ITERATIONS = 3
WORDS = 1000  # an output's length, about
RATIONALE_WORDS = 80

# Prompts per category: 32 prompts in 23 categories, two boards of four prompts ranked.
CATEGORY_SIZES = [4, 4, 2, 2, 2] + [1] * 18
CATEGORIES = ["Ghost story", "Heist", "First contact", "Family dinner", "Fable", "Noir", "Love letter", "Monologue",
              "Western", "Fairy tale", "Satire", "Elegy", "Courtroom", "Road trip", "Myth", "Diary", "Spy thriller",
              "Pastoral", "Horror", "Farce", "Epistolary", "Sea story", "Parable"]

# (id, label, direction); nine lower-is-better, two "Overall" criteria as the real one has.
CRITERIA = [
    ("voice", "Distinct voice", "higher"), ("imagery", "Concrete imagery", "higher"), ("dialogue", "Dialogue", "higher"),
    ("character", "Characters with wants", "higher"), ("structure", "Shape of the piece", "higher"),
    ("pacing", "Pacing", "higher"), ("brief", "Follows the brief", "higher"), ("ending", "An earned ending", "higher"),
    ("subtext", "Subtext", "higher"), ("originality", "Originality", "higher"), ("sentences", "Sentence craft", "higher"),
    ("engagement", "Overall Reader Engagement", "higher"), ("impression", "Overall Impression", "higher"),
    ("cliche", "Cliché", "lower"), ("purple", "Purple prose", "lower"), ("telling", "Telling instead of showing", "lower"),
    ("moralising", "Moralising", "lower"), ("repetition", "Repetition", "lower"), ("incoherence", "Incoherence", "lower"),
    ("unearned", "Unearned turns", "lower"), ("flatness", "Flat affect", "lower"), ("padding", "Padding", "lower"),
]

# Per sweep: id, date, judge id, leniency, noise, and the lines its [[sweeps]] table adds.
SWEEPS = [("s1", "2026-09-14", "judge-a", 0.03, 0.09, ""),
          ("s2", "2026-11-02", "judge-b", -0.02, 0.07, 'amendment = "A1"\n')]
# Amendment A1 also doubles the weight of "Overall Impression": today's rubric (the top level) has
# it, and the archived sweep s1 carries the rubric it was computed with as its own table.
REWEIGHTED = ("impression", 2.0)

HOUSES = ["Lumen", "Orrery", "Quill Labs", "Basalt", "Meridian", "Tessera", "Fathom", "Cobalt", "Halcyon", "Verdant"]
BIRDS = ["lark", "tern", "heron", "sable", "wren", "kite", "ibis", "plover", "swift", "rook", "egret", "finch"]
NOUNS = ["lantern", "harbour", "letter", "orchard", "staircase", "violin", "ledger", "kettle", "tram", "glacier",
         "attic", "radio", "quarry", "bakery", "lighthouse", "wedding", "mirror", "garden", "ferry", "archive",
         "window", "bridge", "suitcase", "clock", "field", "kitchen", "river", "photograph", "coat", "station"]
VERBS = ["waited", "remembered", "broke", "hummed", "returned", "listened", "burned", "forgot", "opened", "drifted",
         "answered", "folded", "carried", "watched", "leaned", "counted", "whispered", "refused", "kept", "turned"]
ADJ = ["cold", "narrow", "patient", "borrowed", "grey", "bright", "unfinished", "quiet", "heavy", "salt-stained",
       "crooked", "familiar", "late", "thin", "warm", "empty", "careful", "old", "small", "distant"]
PEOPLE = ["the diver", "her sister", "the night guard", "the last tenant", "the courier", "the old magician",
          "the translator", "the beekeeper", "the mayor's son", "the pilot", "their mother", "the stranger"]
PRAISE = ["The voice holds from the first line to the last", "The images are exact and earn their place",
          "The ending lands because the middle prepared it", "The dialogue sounds spoken rather than written",
          "The structure is deliberate and the turns are well placed", "The piece trusts the reader with its subtext"]
FAULTS = ["the middle sags under repeated description", "one turn arrives without being earned",
          "a cliché slips into the climax", "the prose turns purple near the end",
          "it tells the reader what the scene already shows", "the constraint is met only on a technicality"]


def _sentence(rng: random.Random, noun: str) -> str:
    a, b = rng.choice(PEOPLE), rng.choice(NOUNS)
    shapes = [f"{a.capitalize()} {rng.choice(VERBS)} by the {rng.choice(ADJ)} {b} while the {noun} {rng.choice(VERBS)} behind the door.",
              f"Nobody {rng.choice(VERBS)} the {b} twice, and {a} knew it, and said nothing about the {rng.choice(ADJ)} {noun}.",
              f"“You {rng.choice(VERBS)} the {b},” said {a}, and the {rng.choice(ADJ)} room {rng.choice(VERBS)} with them.",
              f"In the morning the {noun} was {rng.choice(ADJ)} again, and {a} {rng.choice(VERBS)} as if the {b} had never {rng.choice(VERBS)}."]
    return rng.choice(shapes)


def _output(rng: random.Random, noun: str) -> str:
    paragraphs, words = [], 0
    while words < WORDS:
        para = " ".join(_sentence(rng, noun) for _ in range(rng.randint(4, 8)))
        words += len(para.split())
        paragraphs.append(para)
    return "\n\n".join(paragraphs) + "\n\n(Synthetic text, invented for the shaped example.)"


def _rationale(rng: random.Random, noun: str) -> str:
    parts = [f"{rng.choice(PRAISE)}, and the {noun} is used as more than a prop.",
             f"However {rng.choice(FAULTS)}, which costs it on pacing.",
             f"The handling of {rng.choice(PEOPLE)} is {rng.choice(ADJ)} but convincing, and the {rng.choice(NOUNS)} scene is the strongest.",
             f"Still, {rng.choice(FAULTS)}, and {rng.choice(FAULTS)}.",
             f"Reading {rng.randint(1000, 9999)}: a {rng.choice(ADJ)} piece that a careful editor would cut by a fifth before it reached a reader."]
    return " ".join(parts)


def _scores(rng: random.Random, quality: float, leniency: float, noise: float) -> dict:
    out = {}
    for cid, _label, direction in CRITERIA:
        x = min(1.0, max(0.0, quality + leniency + rng.gauss(0, noise)))
        out[cid] = round(20.0 * (x if direction == "higher" else 1.0 - x) * 2) / 2
    return out


def _config() -> str:
    """benchmark.toml, each sweep a newer one archives pinned to its settings' fingerprint."""
    table = tomllib.loads(_config_text({}))
    return _config_text({sid: settings.fingerprint(table, i) for i, (sid, *_rest) in enumerate(SWEEPS[:-1])})


def _config_text(pins: dict[str, str]) -> str:
    lines = [f'title = "{TITLE}"', 'description = "Short fiction written to prompts in 23 categories, read criterion by criterion by an LLM judge, '
             'at a real benchmark\'s size."', "synthetic = true", "", "[boards]", 'by = "category"', "", "[repeats]",
             f"iterations = {ITERATIONS}", "", "[generation]", "attempts = 1", "attempts_recorded = false", "",
             "[[judges]]", 'id = "judge-a"', 'name = "Juniper 2"', 'model = "juniper/juniper-2-2026-08-01"', 'version = "2026-08-01"',
             'house = "Juniper"', 'since = "2026-08-01"', 'until = "2026-10-15"', "",
             "[[judges]]", 'id = "judge-b"', 'name = "Lark 3 (as judge)"', 'model = "lumen/lark-3-2026-10-20"', 'version = "2026-10-20"',
             'house = "Lumen"', 'since = "2026-10-20"', ""]
    for sid, date, judge, _l, _n, extra in SWEEPS:
        lines += ["[[sweeps]]", f'id = "{sid}"', f'date = "{date}"', f'judges = ["{judge}"]', f'items = "sweep-{sid}.jsonl"']
        lines += [extra.rstrip("\n")] if extra else []
        lines += [f'settings_fingerprint = "{pins[sid]}"'] if sid in pins else []
        lines.append("")
        if sid != SWEEPS[-1][0]:  # an archived sweep: the rubric before A1, every weight 1
            lines += _criteria("sweeps.criteria", {})
    return "\n".join(lines + _criteria("criteria", dict([REWEIGHTED])))


def _criteria(table: str, weights: dict[str, float]) -> list[str]:
    lines = []
    for cid, label, direction in CRITERIA:
        lines += [f"[[{table}]]", f'id = "{cid}"', f'label = "{label}"', "min = 0.0", "max = 20.0", f'direction = "{direction}"']
        lines += [f"weight = {weights[cid]!r}"] if cid in weights else []
        lines.append("")
    return lines


AMENDMENT = """---
id: A1
kind: amendment
title: "Juniper 2 retired; the same outputs judged again by Lark 3"
date: 2026-10-20
---

Juniper 2's provider retired the model on 2026-10-15. Sweep s2 judges the outputs of sweep s1
again, item for item, with Lark 3: no model generated anything new. From this sweep on,
"Overall Impression" weighs twice any other criterion in an item's score. Sweep s1 stays
published as Juniper 2 scored it, with the rubric it was computed with.
"""


def data(models: int = MODELS) -> dict[str, str]:
    """The benchmark's records, by path: `models` models (30 by default), seeded with SEED."""
    rng = random.Random(SEED)
    ms = [(f"{HOUSES[i % len(HOUSES)].lower().replace(' ', '-')}/{BIRDS[i % len(BIRDS)]}-{i // len(BIRDS) + 1}",
           f"{BIRDS[i % len(BIRDS)].capitalize()} {i // len(BIRDS) + 1}", HOUSES[i % len(HOUSES)], 0.45 + 0.4 * rng.random())
          for i in range(models)]
    prompts, n = [], 0
    for cat, size in zip(CATEGORIES, CATEGORY_SIZES):
        for _ in range(size):
            n += 1
            noun = NOUNS[n % len(NOUNS)]
            prompts.append({"id": f"p{n:02d}", "title": f"The {noun}", "category": cat,
                            "text": f"Write a {cat.lower()} of about {WORDS} words in which a stranger and a {noun} meet."})
    # Generation happens once: sweep s2 re-judges the outputs of sweep s1.
    outputs = {}
    for mid, _name, _house, _q in ms:
        for p in prompts:
            for it in range(1, ITERATIONS + 1):
                outputs[(mid, p["id"], it)] = None if rng.random() < 0.004 else _output(rng, p["title"][4:])
    files = {f"data/{FID}/models.jsonl": "".join(jsonl_line({"id": m, "name": nm, "house": h}) for m, nm, h, _q in ms),
             f"data/{FID}/prompts.jsonl": "".join(jsonl_line(p) for p in prompts)}
    for sid, _date, judge, leniency, noise, _extra in SWEEPS:
        lines = []
        for mid, _name, _house, quality in ms:
            for p in prompts:
                for it in range(1, ITERATIONS + 1):
                    if rng.random() < 0.002:
                        continue  # a record the harness lost
                    text = outputs[(mid, p["id"], it)]
                    rec = {"model": mid, "prompt": p["id"], "iteration": it}
                    if text is None:
                        rec["final"] = {"outcome": "failed", "reason": "error", "detail": "The provider returned an error after the time limit."}
                    elif rng.random() < 0.003:
                        rec |= {"output": text, "judgments": [{"judge": judge, "status": "unscored",
                                                               "reply": f"I will now score the piece criterion by criterion. Distinct voice: the {p['title'][4:]}"}]}
                    else:
                        rec |= {"output": text, "judgments": [{"judge": judge, "scores": _scores(rng, quality, leniency, noise),
                                                               "rationale": _rationale(rng, p["title"][4:])}]}
                    lines.append(jsonl_line(rec))
        files[f"data/{FID}/sweep-{sid}.jsonl"] = "".join(lines)
    return files


def write_site(target: Path, models: int = MODELS) -> Path:
    """A complete site (`sitegen new site`'s skeleton) of the shaped benchmark in TARGET (absent or empty)."""
    check_new(target, FID, TITLE)
    files = dict(skeleton(FID, TITLE, requirement(), "The data in `data/shaped/` is synthetic, written by sitegen.families.declared.shaped."))
    files[f"content/{FID}/benchmark.toml"] = _config()
    files[f"content/{FID}/amendments/A1.md"] = AMENDMENT
    files.update(data(models))
    write_files(target, {rel: text.encode("utf-8") for rel, text in files.items()})
    return target


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("target", type=Path)
    ap.add_argument("--models", type=int, default=MODELS)
    args = ap.parse_args()
    write_site(args.target, args.models)
    print(f"wrote {args.target} (seed {SEED})")
