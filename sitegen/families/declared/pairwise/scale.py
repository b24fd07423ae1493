"""A pairwise benchmark at arena scale, synthetic and seeded (SEED): the site the build benchmark
(`python -m sitegen.bench --pairwise`) builds. N models (50 by default) answer P prompts (32) once,
scored on one criterion (the rubric board beside the pairwise one), and a judge compares every
pair of models on every prompt in both orders: N(N-1)P judgments, 78,400 for 50 x 32, with ties,
margins and a lean towards the output shown first, the outputs named by iteration. Every name and
text is invented here. The build never imports it.

    python -m sitegen.families.declared.pairwise.scale DIR [--models N] [--prompts P]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from sitegen import requirement
from sitegen.families.demo_files import jsonl_line
from sitegen.scaffold_site import check_new, skeleton, write_files

SEED = 20261210
FID = "arena"
TITLE = "Arena"
MODELS = 50
PROMPTS = 32
WORDS = 300  # an output's length, about
NOUNS = ["lantern", "harbour", "letter", "orchard", "staircase", "violin", "ledger", "kettle", "tram", "glacier"]
VERBS = ["waited", "remembered", "broke", "hummed", "returned", "listened", "burned", "forgot", "opened", "drifted"]


def _config(models: list[str]) -> str:
    return "\n".join([
        f'title = "{TITLE}"', 'description = "Short fiction compared two at a time by an LLM judge, at an arena\'s size."', "synthetic = true", "",
        "[pairwise]", 'id = "h1"', 'measures = "Which of two outputs to the same prompt the judge prefers, as a Bradley-Terry rating."',
        'date = "2026-11-09"', 'judges = ["judge"]', 'judgments = "pairwise.jsonl"', 'outputs_from = "s1"',
        'margins = [{ label = "+", wins = 1.0 }, { label = "++", wins = 2.0 }]', "resamples = 1000",
        f'anchors = [{{ model = "{models[0]}", rating = 1500.0 }}]', "",
        "[[judges]]", 'id = "judge"', 'name = "Juniper 2"', 'model = "juniper/juniper-2-2026-08-01"', 'version = "2026-08-01"',
        'house = "Juniper"', 'since = "2026-08-01"', "",
        "[[sweeps]]", 'id = "s1"', 'date = "2026-11-02"', 'judges = ["judge"]', 'items = "sweep-s1.jsonl"', "",
        "[[criteria]]", 'id = "overall"', 'label = "Quality"', "min = 0.0", "max = 10.0", ""])


def _output(rng: random.Random, noun: str) -> str:
    words, out = 0, []
    while words < WORDS:
        s = f"The {noun} {rng.choice(VERBS)} by the {rng.choice(NOUNS)} and nobody {rng.choice(VERBS)} it twice."
        out.append(s)
        words += len(s.split())
    return " ".join(out) + " (Synthetic text.)"


def files(models: int = MODELS, prompts: int = PROMPTS) -> dict[str, str]:
    rng = random.Random(SEED)
    ms = [(f"house-{i % 10}/model-{i:03d}", f"Model {i:03d}", f"House {i % 10}", rng.gauss(0, 1)) for i in range(models)]
    ps = [{"id": f"p{k + 1:03d}", "title": f"The {NOUNS[k % len(NOUNS)]} {k + 1}"} for k in range(prompts)]
    items, judgments = [], []
    for mid, _n, _h, q in ms:
        for p in ps:
            items.append(jsonl_line({"model": mid, "prompt": p["id"], "iteration": 1, "attempts": [{"outcome": "ok"}],
                                     "output": _output(rng, p["title"].split()[1]),
                                     "judgments": [{"judge": "judge", "scores": {"overall": min(10.0, max(0.0, round(5 + 2 * q + rng.gauss(0, 1), 1)))}}]}))
    for p in ps:
        for i, (a, _na, _ha, qa) in enumerate(ms):
            for b, _nb, _hb, qb in ms[i + 1:]:
                for first in ("a", "b"):
                    gap = (qa - qb) if first == "a" else (qb - qa)
                    pref = gap + 0.3 + rng.gauss(0, 1.0)
                    rec = {"prompt": p["id"], "model_a": a, "model_b": b, "iteration_a": 1, "iteration_b": 1, "shown_first": first}
                    if abs(pref) < 0.2:
                        rec["verdict"] = "tie"
                    else:
                        rec |= {"verdict": "first" if pref > 0 else "second", "margin": "+" if abs(pref) < 1.5 else "++"}
                    rec |= {"judge": "judge", "reasoning": f"The {'first' if pref > 0 else 'second'} holds its voice; the other drifts (reading {rng.randint(1, 9999)})."}
                    judgments.append(jsonl_line(rec))
    return {f"content/{FID}/benchmark.toml": _config([m[0] for m in ms]),
            f"data/{FID}/models.jsonl": "".join(jsonl_line({"id": m, "name": n, "house": h}) for m, n, h, _q in ms),
            f"data/{FID}/prompts.jsonl": "".join(jsonl_line(p) for p in ps),
            f"data/{FID}/sweep-s1.jsonl": "".join(items), f"data/{FID}/pairwise.jsonl": "".join(judgments)}


def write_site(target: Path, models: int = MODELS, prompts: int = PROMPTS) -> Path:
    """A complete site (`sitegen new site`'s skeleton) of the arena benchmark in TARGET (absent or empty)."""
    check_new(target, FID, TITLE)
    out = dict(skeleton(FID, TITLE, requirement(), "The data in `data/arena/` is synthetic, written by sitegen.families.declared.pairwise.scale."))
    out.update(files(models, prompts))
    write_files(target, {rel: text.encode("utf-8") for rel, text in out.items()})
    return target


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("target", type=Path)
    ap.add_argument("--models", type=int, default=MODELS)
    ap.add_argument("--prompts", type=int, default=PROMPTS)
    args = ap.parse_args()
    write_site(args.target, args.models, args.prompts)
    print(f"wrote {args.target} (seed {SEED})")
