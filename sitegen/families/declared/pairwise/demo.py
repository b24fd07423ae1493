"""Vignette's pairwise sweep: synthetic judgments written by the demo's seeded script
(demo.py calls `judgments` with its own prompts and generations), seed PAIRWISE_SEED.

The judge (Lark 3 as judge, sweep s2's) reads two outputs of sweep s2 to the same prompt, named
by iteration, each unordered pair of eleven models on every prompt in both orders; its verdict
follows the models' invented quality with noise, it leans towards the output shown first (so
the order changes some verdicts), calls close pairs a tie, and gives a margin of "+" to "+++" by
how far apart it finds them. Read side by side, it takes to some models more than a rubric does
(TASTE), so the two orderings differ a little, as a real benchmark's do. Wren 5 Lite and Kite 0.9 are judged only against each other, in a
run of their own whose records carry the outputs' text: a part of the comparison graph of its own.
Every verdict and reason is invented here; nothing is a real model's work.
"""

from __future__ import annotations

import math
import random

PAIRWISE_SEED = 20261209
JUDGE = "judge-b"
SOLO = ("meridian/wren-5-lite", "tessera/kite-0.9")  # judged only against each other, their outputs in the records
FIRST_LEAN = 0.35  # the judge's lean towards the output shown first, in log-odds
TIE_BAND = 0.25  # a preference this close (in log-odds) is called a tie
NOISE = 0.6  # the spread of the judge's reading of one pair, in log-odds
SPREAD = 9.0  # log-odds per unit of quality
TASTE = {"quill/heron-1-long": 0.07, "basalt/sable-7-r": 0.06, "orrery/tern-2": -0.05, "fathom/ibis-4": -0.04}  # quality, read side by side

REASONS_FOR = ["its voice holds to the end", "its images are exact", "its ending is earned", "its dialogue sounds spoken",
               "its structure is deliberate"]
REASONS_AGAINST = ["the other's middle sags", "the other leans on a cliché", "the other tells more than it shows",
                   "the other's turn is unearned", "the other pads its ending"]


def _first_ok(generations: dict, model: str, prompt: str, iterations: int) -> int | None:
    for it in range(1, iterations + 1):
        if generations[(model, prompt, it)][1] is not None:
            return it
    return None


def _verdict(rng: random.Random, gap: float) -> tuple[str, str | None]:
    """From the judge's preference for the output shown first (log-odds, its lean and its noise
    included): a verdict in the order shown and its margin."""
    pref = gap + FIRST_LEAN + rng.gauss(0, NOISE)
    if abs(pref) < TIE_BAND:
        return "tie", None
    size = abs(pref)
    return "first" if pref > 0 else "second", "+" if size < 1.0 else "++" if size < 2.0 else "+++"


def judgments(prompts: list[dict], generations: dict, models: list[tuple], iterations: int) -> list[dict]:
    """Every pairwise judgment of the demo, in file order. GENERATIONS: (model, prompt,
    iteration) -> (attempts, output or None), as demo.py made them."""
    rng = random.Random(PAIRWISE_SEED)
    quality = {m[0]: m[3] + TASTE.get(m[0], 0.0) for m in models}
    main = [m[0] for m in models if m[0] not in SOLO]
    out = []
    for p in prompts:
        pairs = [(a, b) for i, a in enumerate(main) for b in main[i + 1:]] + [SOLO]
        for a, b in pairs:
            sides = {}
            for m in (a, b):
                it = _first_ok(generations, m, p["id"], iterations)
                sides[m] = None if it is None else {"output": generations[(m, p["id"], it)][1]} if (a, b) == SOLO else {"iteration": it}
            if None in sides.values():
                continue  # a model with no output for the prompt is in no judgment of it
            for first in ("a", "b"):
                shown, other = (a, b) if first == "a" else (b, a)
                verdict, margin = _verdict(rng, SPREAD * (quality[shown] - quality[other]))
                winner = None if verdict == "tie" else shown if verdict == "first" else other
                rec = {"prompt": p["id"], "model_a": a, "model_b": b}
                for side, m in (("a", a), ("b", b)):
                    key, value = next(iter(sides[m].items()))
                    rec[f"{key}_{side}"] = value
                rec.update(shown_first=first, verdict=verdict)
                if margin is not None:
                    rec["margin"] = margin
                rec["judge"] = JUDGE
                rec["reasoning"] = ("Neither is better: both hold, and both falter." if winner is None else
                                    f"The {'first' if winner == shown else 'second'} output is better: {rng.choice(REASONS_FOR)}, "
                                    f"and {rng.choice(REASONS_AGAINST)}.")
                out.append(rec)
    return out
