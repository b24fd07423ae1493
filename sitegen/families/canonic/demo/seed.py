"""The demo's one seed and its random streams: every draw in the generator comes from here."""

from __future__ import annotations

import numpy as np

DEMO_SEED = 20260808
"""The one seed. Streams: [seed, 0] design, [seed, 1(, g)] latent quality, [seed, 3, g]
exclusion plan, [seed, 4, g, i] the draws for model i of replica group g, [seed, 5] the external
leaderboard, [seed, 6, g, i] the output texts of model i of replica group g. Each file's draws
come from its own streams, so adding a file never changes another."""


def _rng(*stream: int) -> np.random.Generator:
    return np.random.default_rng([DEMO_SEED, *stream])
