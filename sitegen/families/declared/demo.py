"""The demo's fourth benchmark, Vignette: synthetic data for the declarative family, written by
`python -m sitegen.families.declared.demo` (seed 20261202) into data/vignette/.

Shaped like a public creative-writing leaderboard's per-item results: one judge per sweep;
22 criteria on 0-20, nine of them lower-is-better, three optional and left unscored on some
items; 32 prompts in eight categories; three iterations per prompt; up to three generation
attempts, with failures; no freeze; and a judge change (sweep 2 re-judges the same outputs
with another judge); and a pairwise sweep of sweep s2's outputs (pairwise/demo.py, seeded apart,
so the items stay as they were). Every model, prompt, output and rationale is invented here;
nothing is a real model's work. The build never imports this module.
"""

from __future__ import annotations

import random
from pathlib import Path

from sitegen.families.declared.pairwise import demo as pairwise_demo
from sitegen.families.demo_files import write_jsonl

SEED = 20261202
FID = "vignette"
ITERATIONS = 3
ATTEMPTS = 3

# (id, label, direction, optional): the order of content/vignette/benchmark.toml's [[criteria]].
CRITERIA = [
    ("voice", "Distinct voice", "higher", False), ("imagery", "Concrete imagery", "higher", False),
    ("dialogue", "Dialogue that sounds spoken", "higher", True), ("character", "Characters with wants", "higher", False),
    ("structure", "Shape of the piece", "higher", False), ("pacing", "Pacing", "higher", False),
    ("brief", "Follows the brief", "higher", False), ("ending", "An earned ending", "higher", False),
    ("subtext", "Subtext", "higher", False), ("humour", "Humour where it belongs", "higher", True),
    ("originality", "Originality", "higher", False), ("sentences", "Sentence craft", "higher", False),
    ("world", "Sense of place", "higher", True),
    ("cliche", "Cliché", "lower", False), ("purple", "Purple prose", "lower", False),
    ("telling", "Telling instead of showing", "lower", False), ("moralising", "Moralising", "lower", False),
    ("repetition", "Repetition", "lower", False), ("incoherence", "Incoherence", "lower", False),
    ("unearned", "Unearned turns", "lower", False), ("flatness", "Flat affect", "lower", False),
    ("padding", "Padding", "lower", False),
]

CATEGORIES = ["Ghost story", "Heist", "First contact", "Family dinner", "Fable", "Noir", "Love letter", "Monologue"]

# (id, name, house, quality, how often an attempt fails)
MODELS = [
    ("lumen/lark-3", "Lark 3", "Lumen", 0.78, 0.01), ("lumen/lark-3-mini", "Lark 3 Mini", "Lumen", 0.62, 0.01),
    ("orrery/tern-2", "Tern 2", "Orrery", 0.75, 0.02), ("orrery/tern-2-fast", "Tern 2 Fast", "Orrery", 0.60, 0.02),
    ("quill/heron-1", "Heron 1", "Quill Labs", 0.72, 0.01), ("quill/heron-1-long", "Heron 1 Long", "Quill Labs", 0.70, 0.03),
    ("basalt/sable-7", "Sable 7", "Basalt", 0.66, 0.02), ("basalt/sable-7-r", "Sable 7 R", "Basalt", 0.67, 0.04),
    ("meridian/wren-5", "Wren 5", "Meridian", 0.55, 0.02), ("meridian/wren-5-lite", "Wren 5 Lite", "Meridian", 0.48, 0.03),
    ("tessera/kite-0.9", "Kite 0.9", "Tessera", 0.52, 0.30), ("fathom/ibis-4", "Ibis 4", "Fathom", 0.69, 0.02),
]

# Per sweep: (id, judge id, judge's leniency on the 0-1 scale, judge's noise)
SWEEPS = [("s1", "judge-a", 0.03, 0.09), ("s2", "judge-b", -0.02, 0.07)]

NOUNS = ["lantern", "harbour", "letter", "orchard", "staircase", "violin", "ledger", "kettle", "tram", "glacier",
         "attic", "radio", "quarry", "bakery", "lighthouse", "wedding", "mirror", "garden", "ferry", "archive"]
VERBS = ["waits", "remembers", "breaks", "hums", "returns", "listens", "burns", "forgets", "opens", "drifts"]
PEOPLE = ["a retired diver", "two sisters", "a night guard", "the last tenant", "a courier", "an old magician",
          "a translator", "a beekeeper", "the mayor's son", "a stranded pilot"]
PRAISE = ["the voice holds", "the images are exact", "the ending is earned", "the dialogue breathes", "the structure is deliberate"]
FAULTS = ["the middle sags", "one turn is unearned", "a cliché slips in", "the prose turns purple near the end", "it tells more than it shows"]


def _prompts(rng: random.Random) -> list[dict]:
    out = []
    for c, cat in enumerate(CATEGORIES):
        for k, noun in enumerate(rng.sample(NOUNS, 4)):  # four different objects per category
            person = rng.choice(PEOPLE)
            out.append({"id": f"p{c * 4 + k + 1:02d}", "title": f"The {noun}", "category": cat,
                        "text": f"Write a {cat.lower()} of at most 800 words in which {person} and a {noun} meet. "
                                f"Constraint: the word “{rng.choice(NOUNS)}” must not appear."})
    return out


def _output(rng: random.Random, prompt: dict) -> str:
    noun = prompt["title"].removeprefix("The ")
    lines = [f"The {noun} {rng.choice(VERBS)}.", f"{rng.choice(PEOPLE).capitalize()} {rng.choice(VERBS)} by the {rng.choice(NOUNS)}.",
             f"Nobody {rng.choice(VERBS)} the {rng.choice(NOUNS)} twice.", f"In the end the {noun} {rng.choice(VERBS)}."]
    return " ".join(lines) + " (Synthetic text for the demo.)"


def _scores(rng: random.Random, quality: float, difficulty: float, leniency: float, noise: float) -> dict:
    out = {}
    for cid, _label, direction, optional in CRITERIA:
        if optional and rng.random() < 0.15:
            out[cid] = None  # the judge left it unscored on this item
            continue
        x = min(1.0, max(0.0, quality - difficulty + leniency + rng.gauss(0, noise)))
        v = 20.0 * (x if direction == "higher" else 1.0 - x)
        out[cid] = round(v * 2) / 2  # the judge scores in half points
    return out


def _attempts(rng: random.Random, fail_rate: float) -> list[dict]:
    out = []
    for _ in range(ATTEMPTS):
        if rng.random() < fail_rate:
            out.append({"outcome": "failed", "reason": rng.choice(["empty", "refusal", "truncated", "error"])})
        else:
            out.append({"outcome": "ok"})
            break
    return out


def generate(root: Path) -> None:
    rng = random.Random(SEED)
    prompts = _prompts(rng)
    difficulty = {p["id"]: rng.gauss(0, 0.05) for p in prompts}
    # Generation happens once: both sweeps judge the same outputs (sweep 2 re-judges sweep 1's).
    generations = {}
    for mid, _name, _house, _q, fail in MODELS:
        for p in prompts:
            for it in range(1, ITERATIONS + 1):
                attempts = _attempts(rng, fail * (2.5 if mid == "tessera/kite-0.9" and p["category"] == "Noir" else 1))
                generations[(mid, p["id"], it)] = (attempts, _output(rng, p) if attempts[-1]["outcome"] == "ok" else None)
    data = root / "data" / FID
    write_jsonl(data / "models.jsonl", [{"id": m, "name": n, "house": h} for m, n, h, _q, _f in MODELS])
    write_jsonl(data / "prompts.jsonl", prompts)
    for sid, judge, leniency, noise in SWEEPS:
        items = []
        for mid, _name, _house, quality, _fail in MODELS:
            for p in prompts:
                for it in range(1, ITERATIONS + 1):
                    attempts, output = generations[(mid, p["id"], it)]
                    rec = {"model": mid, "prompt": p["id"], "iteration": it, "attempts": attempts}
                    if output is not None:
                        rec["output"] = output
                        rec["judgments"] = [{"judge": judge, "scores": _scores(rng, quality, difficulty[p["id"]], leniency, noise),
                                             "rationale": f"{rng.choice(PRAISE).capitalize()}, but {rng.choice(FAULTS)}."}]
                    items.append(rec)
        write_jsonl(data / f"sweep-{sid}.jsonl", items)
    write_jsonl(data / "pairwise.jsonl", pairwise_demo.judgments(prompts, generations, MODELS, ITERATIONS))


if __name__ == "__main__":
    generate(Path("."))
    print(f"wrote data/{FID}/ (seed {SEED})")
