"""Synthetic demo data for the ChronicleBench v1.1 family: a seeded, deterministic generator.

Writes the family's artifact files under ``<root>/data/chronicle/``:

- ``cohort.json``        the frozen design (``CohortFile``): identity and former name, the
  80,000-95,000-word band, five windows, the pinned OBR instrument, three weight profiles, the
  B2 and N1 briefs, 16 entrants (12 active roster models, Kimi K3 and GLM 5.3 withdrawn by A4,
  Command A 2 added by a later dated cohort, and the Chronicle system), three boards, two
  cohorts and the Chronicle-against-Sonnet exhibit;
- ``runs.jsonl``         169 runs sorted by id: 13 active models x 2 briefs x (3 free-run + 3
  sustained), Chronicle's 2 briefs x 3 system books, and 7 partial runs of the withdrawn models;
- ``selection.json``     the reference corpus's selection record: the seed, 12 places per stratum,
  the 110,000-word extended ceiling, when genres were assigned and the list committed, and a pool
  of 61 candidates with the facts eligibility is decided from (a translated work, a collection,
  a fragment, a volume, a play, an anthology, a duplicate of a legacy anchor, a text that is not
  cleanly extractable, over-length works and the one content exclusion recorded by A3);
- ``reference.jsonl``    50 human reference novels sorted by id: the 36 v1.1 novels the family's
  seeded selection draws from that pool (12 per stratum, five windows; broader-controls is short
  and two of its novels run to 95,001-110,000 words), each with its committed manuscript hash and
  the time it was scored, and 14 legacy v1.0 anchors (four windows, ``sagascore`` keys);
- ``archive-v1.0.json``  the archived v1.0 board (``sagascore`` keys), never rescored;
- ``freeze.json``        the freeze record of the protocol: the fingerprint of
  ``content/chronicle/protocol.md`` (hand-written; read, never written here).

EVERYTHING HERE IS SYNTHETIC. The structure follows the ChronicleBench v1.1 cohort protocol
(seed 000); the words, costs, timestamps and judge scores are random draws, not measurements of
any model or book; ``cohort.json`` and ``archive-v1.0.json`` say so with ``"synthetic": true``.

Scores: each entrant has a latent quality on the judge's 1-10 scale, a fixed per-dimension
profile and a per-brief offset; a run adds its own offset, each window an arm-specific
positional effect (sustained books sag in the late windows) and noise. Each of the three OBR
judge runs rounds the window's true dimension values plus judge noise to integers 1-10. About
one judge run in 40 (one in 120 for human novels) carries a hard cap. Every stated number is the
contract's own arithmetic: a judge run's composite is min(cap, 10 * sum of weight * score over
DIMENSIONS in order), a window's is the median of its three runs, a run's score the mean of its
windows. The weights are multiples of 1/16, so every composite is exact in binary floating
point whatever the order of summation.

Runs: sustained books land at 85,000-93,800 words on a stop, except six stalls below the band
(DNF, drawn three times as often from N1, as A6 reports), one stall inside it and two runs cut by
the 94,000-word hard cap. In sustained runs some calls stop voluntarily and are followed by a
CONTINUE; free-run runs continue only while ``finish`` is ``length``; the system's calls are
chapters. Fable 5.1 and the two Sol models send no temperature (``params_transformed``); one
DeepSeek V4 call returns a dated model id, to show it is recorded. Costs are scaled per entrant
to a stated total (about $374 for the 12 roster models). About one run in five carries the
archived ``sagascore`` key instead of ``score``. Command A 2 generated in late September 2026
for the dated addition cohort.

Run: ``python -m sitegen.families.chronicle.demo [--root DIR]``.
"""

from __future__ import annotations

import argparse
import bisect
import hashlib
import re
import statistics
import unicodedata
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np

from sitegen.families.demo_files import write_json, write_jsonl
from sitegen.families.chronicle.published import entry_item_id
from sitegen.families.chronicle.validate import expected_windows
from sitegen.families.chronicle.models import (
    DIMENSIONS, LEGACY_WINDOWS, WINDOWS, ArchiveFile, CohortFile, ReferenceNovel, Run, SelectionFile,
)
from sitegen.families.chronicle.selection import select
from sitegen.fingerprint import text_fingerprint

DATA_DIR = "data/chronicle"
COHORT_FILE = f"{DATA_DIR}/cohort.json"
RUNS_FILE = f"{DATA_DIR}/runs.jsonl"
REFERENCE_FILE = f"{DATA_DIR}/reference.jsonl"
SELECTION_FILE = f"{DATA_DIR}/selection.json"
ARCHIVE_FILE = f"{DATA_DIR}/archive-v1.0.json"
FREEZE_FILE = f"{DATA_DIR}/freeze.json"
PROTOCOL_FILE = "content/chronicle/protocol.md"  # hand-written; fingerprinted, never written
AMENDMENTS_DIR = "content/chronicle/amendments"  # hand-written; each entry fingerprinted, never written
ALL_FILES = (COHORT_FILE, RUNS_FILE, SELECTION_FILE, REFERENCE_FILE, ARCHIVE_FILE, FREEZE_FILE)

DEMO_SEED = 20260821
"""The one seed (the protocol's freeze date). Streams: [seed, 0] design (entrant profiles,
which sustained runs stall or hit the cap), [seed, 1, i] every draw of entrant i's runs in
ENTRANTS order, [seed, 2] the reference corpus, [seed, 3] the v1.0 archive, [seed, 4] the
candidate pool's words, [seed, 8, k] the rest of run k's score file, [seed, 9, k] run k's
evidence (chapters, window spans, quotes) and [seed, 10, k] reference novel k's. Each file
draws from its own streams, so changing one never changes another."""

FROZEN_AT = "2026-08-21T06:00:00Z"
INSTRUMENT_ID = "obr-v2.1-2026-03-08"
REPLICATES = 3  # of each arm on each brief (protocol section 2)
TEMPERATURE = 0.8  # every model call's, where the endpoint takes one (section 2)
COHORT_V11 = "v1.1"
COHORT_ADD = "v1.1-add-2026-10"
BAND = (80_000, 95_000)
HARD_CAP_WORDS = 94_000  # §2: below the ceiling, so runaway generation cannot go over-length
WINDOW_START = {"opening": 0, "25k": 25_000, "50k": 50_000, "75k": 75_000, "ending": 0}
WORDS_PER_TOKEN = 0.74

# Multiples of 1/16: exact sums, exact composites.
PROFILES = {
    "default_v2": (0.125, 0.125, 0.1875, 0.0625, 0.125, 0.125, 0.125, 0.125),
    "scifi_v2": (0.125, 0.0625, 0.125, 0.0625, 0.1875, 0.125, 0.1875, 0.125),
    "literary_v2": (0.0625, 0.1875, 0.25, 0.125, 0.0625, 0.125, 0.0625, 0.125),
}
WEIGHTS = {p: dict(zip(DIMENSIONS, w)) for p, w in PROFILES.items()}
BRIEFS = (
    {"id": "b2", "code": "B2", "title": "The Long Quiet at Halley Station", "genre": "science fiction", "profile": "scifi_v2"},
    {"id": "n1", "code": "N1", "title": "The Ashdown Inheritance", "genre": "ensemble family drama", "profile": "literary_v2"},
)
BRIEF_PROFILE = {b["id"]: b["profile"] for b in BRIEFS}
# The hashes the harness writes into every manifest (protocol section 2): of the frozen
# generation template and of each brief's text. Synthetic texts, hashed here.
TEMPLATE_SHA256 = hashlib.sha256(b"SYNTHETIC ChronicleBench demo: the frozen wave-1 generation template").hexdigest()
SYSTEM_TEMPLATE_SHA256 = hashlib.sha256(b"SYNTHETIC ChronicleBench demo: the system's 85K commission").hexdigest()
BRIEF_SHA256 = {b["id"]: hashlib.sha256(f"SYNTHETIC ChronicleBench demo brief {b['code']}: {b['title']}".encode()).hexdigest() for b in BRIEFS}

# (id, name, provider, kind, status, cohort, latent quality on the 1-10 scale, max_tokens,
#  temperature supported, words per second, cost target in USD over all its runs)
ENTRANTS = (
    ("anthropic/claude-opus-5", "Claude Opus 5", "anthropic", "model", "active", COHORT_V11, 7.35, 32768, True, 17.0, 81.2),
    ("anthropic/claude-sonnet-4.6", "Claude Sonnet 4.6", "anthropic", "model", "active", COHORT_V11, 6.75, 32768, True, 24.0, 31.4),
    ("openai/gpt-5.6-sol", "GPT-5.6 Sol", "openai", "model", "active", COHORT_V11, 6.95, 32768, False, 21.0, 40.8),
    ("openai/gpt-5.6-sol-pro", "GPT-5.6 Sol Pro", "openai", "model", "active", COHORT_V11, 7.3, 32768, False, 14.0, 79.6),
    ("fable/fable-5.1", "Fable 5.1", "fable", "model", "active", COHORT_V11, 7.15, 32768, False, 16.0, 47.3),
    ("google/gemini-3.5-pro", "Gemini 3.5 Pro", "google-vertex", "model", "active", COHORT_V11, 7.0, 32768, True, 26.0, 28.6),
    ("deepseek/deepseek-v4", "DeepSeek V4", "deepseek", "model", "active", COHORT_V11, 6.45, 16384, True, 19.0, 7.1),
    ("qwen/qwen3.5-max", "Qwen3.5 Max", "alibaba", "model", "active", COHORT_V11, 6.35, 32768, True, 22.0, 12.7),
    ("x-ai/grok-5", "Grok 5", "xai", "model", "active", COHORT_V11, 6.5, 32768, True, 25.0, 25.9),
    ("mistralai/mistral-large-3", "Mistral Large 3", "mistral", "model", "active", COHORT_V11, 5.95, 32768, True, 28.0, 11.4),
    ("meta-llama/llama-5-maverick", "Llama 5 Maverick", "together", "model", "active", COHORT_V11, 5.6, 32768, True, 30.0, 3.3),
    ("minimax/minimax-m3", "MiniMax M3", "minimax", "model", "active", COHORT_V11, 5.8, 32768, True, 23.0, 4.6),
    ("moonshotai/kimi-k3", "Kimi K3", "moonshotai", "model", "withdrawn", COHORT_V11, 6.3, 32768, True, 18.0, 2.9),
    ("z-ai/glm-5.3", "GLM 5.3", "z-ai", "model", "withdrawn", COHORT_V11, 6.2, 32768, True, 20.0, 4.6),
    ("cohere/command-a-2", "Command A 2", "cohere", "model", "active", COHORT_ADD, 6.0, 32768, True, 24.0, 15.5),
    ("chronicle/chronicle-engine", "Chronicle", "chronicle", "system", "active", COHORT_V11, 7.65, 32768, True, 12.0, 58.0),
)
SYSTEM_ID = "chronicle/chronicle-engine"
BASE_MODEL_ID = "anthropic/claude-sonnet-4.6"
ODD_RETURN = ("deepseek/deepseek-v4", "sustained-n1-deepseek-deepseek-v4-r2", 2, "deepseek/deepseek-v4-0821")

# The withdrawn models' partial runs (A4): (brief, arm, replicate, stop reason, words).
WITHDRAWN_RUNS = {
    "moonshotai/kimi-k3": (("b2", "sustained", 1, "stall", 38_900), ("b2", "sustained", 2, "error", 22_100),
                           ("b2", "sustained", 3, "budget-guard", 12_400)),
    "z-ai/glm-5.3": (("b2", "sustained", 1, "word-target", 87_300), ("b2", "sustained", 2, "word-target", 86_100),
                     ("b2", "sustained", 3, "stall", 47_800), ("n1", "sustained", 1, "budget-guard", 31_000)),
}
# The system's engine release and the length-calibration gates it passed before the cohort
# generated (protocol section 3): synthetic values.
SYSTEM_RELEASE = {"version": "chronicle-engine 4.2.0 (length calibration)", "frozen_on": "2026-08-19", "gates": [
    {"id": "median-words", "description": "Median cleaned words of the 12 calibration books", "min": 82_000, "max": 90_000, "value": 86_240},
    {"id": "in-band-share", "description": "Share of calibration books inside 80,000-95,000 words", "min": 0.9, "max": 1.0, "value": 1.0},
    {"id": "longest-book", "description": "Longest calibration book, in cleaned words", "min": 80_000, "max": 94_000, "value": 91_870},
]}
STREAM_ERROR = "502: the provider closed the stream mid-response"  # the message of a call ended by an error
# A4: at 109 runs the account ran out of credits; the runs then starting failed with a
# recorded Insufficient credits error before any content and were each run again once, with
# identical parameters, after the top-up (section 2's infrastructure rule).
CREDIT_FAILURES = ("sustained-b2-openai-gpt-5.6-sol-pro-r3", "sustained-n1-anthropic-claude-opus-5-r2", "sustained-n1-fable-fable-5.1-r3")
SUSTAINED_PLAN = (("stall-dnf", 6), ("stall-in-band", 1), ("cap", 2))  # of the 78 sustained runs

# Positional window effects by arm, on the 1-10 scale (sustained books sag late).
WINDOW_EFFECT = {
    "free-run": {"opening": 0.15, "25k": 0.0, "50k": -0.1, "75k": -0.2, "ending": 0.05},
    "sustained": {"opening": 0.25, "25k": 0.05, "50k": -0.15, "75k": -0.3, "ending": -0.2},
    "system": {"opening": 0.1, "25k": 0.05, "50k": 0.0, "75k": 0.0, "ending": 0.1},
    "human": {"opening": 0.0, "25k": -0.05, "50k": -0.1, "75k": -0.05, "ending": 0.15},
}
HUMAN_PROFILE = dict(zip(DIMENSIONS, (-0.2, 0.35, 0.2, 0.0, -0.3, 0.05, 0.1, 0.1)))
JUDGE_SD, WINDOW_SD, DIM_SD = 0.35, 0.15, 0.2
CAP_RATE, HUMAN_CAP_RATE = 1 / 40, 1 / 120
CAPS = (
    (55.0, "manuscript-level canonical contradiction of a central identity"),
    (60.0, "central plot thread left unresolved at the ending"),
    (50.0, "duplicated passage over 5% of the window"),
    (65.0, "abrupt mid-scene truncation of the text"),
)

# The human reference corpus's candidate pool (protocol section 7), by stratum: each stratum's
# weight profile and latent quality, and its candidates as (title, author, Gutenberg id, judge
# likely to recognize it, words or None for a draw inside the band, facts). The facts are those
# eligibility is decided from; a candidate without any is an English single complete novel,
# cleanly extractable, duplicating nothing. Which candidates are drawn is the family's own
# seeded selection (selection.py), run on this pool: broader-controls has only ten eligible works
# within the band, so its ceiling extends to 110,000 words and two of the three eligible works
# between 95,001 and 110,000 words are drawn; the two other strata draw 12 of 17.
POOL = {
    "plot-forward": ("scifi_v2", 7.15, (
        ("The War of the Worlds", "H. G. Wells", 36, True, None, {}), ("The Lost World", "Arthur Conan Doyle", 139, False, None, {}),
        ("King Solomon's Mines", "H. Rider Haggard", 2166, True, None, {}), ("Kidnapped", "Robert Louis Stevenson", 421, False, None, {}),
        ("Tarzan of the Apes", "Edgar Rice Burroughs", 78, True, None, {}), ("The Iron Heel", "Jack London", 1164, False, None, {}),
        ("The First Men in the Moon", "H. G. Wells", 1013, False, None, {}), ("The Secret Adversary", "Agatha Christie", 1155, False, None, {}),
        ("The Hound of the Baskervilles", "Arthur Conan Doyle", 2852, True, None, {}),
        ("The Circular Staircase", "Mary Roberts Rinehart", 434, False, None, {}),
        ("The Sea-Wolf", "Jack London", 1074, False, None, {}), ("The Riddle of the Sands", "Erskine Childers", 2360, False, None, {}),
        ("The Valley of Fear", "Arthur Conan Doyle", 3289, False, None, {}), ("The Scarlet Pimpernel", "Baroness Orczy", 60, True, None, {}),
        ("The Man Who Was Thursday", "G. K. Chesterton", 1695, False, None, {}), ("Captain Blood", "Rafael Sabatini", 1965, False, None, {}),
        ("The Thirty-Nine Steps", "John Buchan", 558, True, None, {}),
        ("Twenty Thousand Leagues under the Sea", "Jules Verne", 164, True, 89_400,
         {"original_language": "fr", "translator": "F. P. Walter"}),
        ("The Adventures of Sherlock Holmes", "Arthur Conan Doyle", 1661, True, 104_800, {"form": "collection"}),
        ("The Mystery of Edwin Drood", "Charles Dickens", 564, False, 93_700, {"form": "fragment"}),
        ("The Last of the Mohicans", "James Fenimore Cooper", 940, True, 101_500, {}),
    )),
    "character-forward": ("literary_v2", 6.95, (
        ("Persuasion", "Jane Austen", 105, True, None, {}), ("Northanger Abbey", "Jane Austen", 121, True, None, {}),
        ("The Secret Garden", "Frances Hodgson Burnett", 113, True, None, {}), ("My Ántonia", "Willa Cather", 242, False, None, {}),
        ("Silas Marner", "George Eliot", 550, False, None, {}), ("The Age of Innocence", "Edith Wharton", 541, False, None, {}),
        ("Howards End", "E. M. Forster", 2946, False, None, {}), ("A Room with a View", "E. M. Forster", 2641, False, None, {}),
        ("Cranford", "Elizabeth Gaskell", 394, False, None, {}), ("Washington Square", "Henry James", 2870, False, None, {}),
        ("Anne of Green Gables", "L. M. Montgomery", 45, True, None, {}), ("Under the Greenwood Tree", "Thomas Hardy", 2662, False, None, {}),
        ("The Professor", "Charlotte Brontë", 1028, False, None, {}), ("The Europeans", "Henry James", 179, False, None, {}),
        ("Rebecca of Sunnybrook Farm", "Kate Douglas Wiggin", 498, False, None, {}), ("Pollyanna", "Eleanor H. Porter", 1450, True, None, {}),
        ("The Custom of the Country", "Edith Wharton", 11051, False, None, {}),
        ("Pride and Prejudice (illustrated edition)", "Jane Austen", 42671, True, 86_200, {"duplicate_of": 1342}),
        ("Anna Karenina", "Leo Tolstoy", 1399, True, 349_700, {"original_language": "ru", "translator": "Constance Garnett"}),
        ("Clarissa Harlowe; or the History of a Young Lady, Volume 1", "Samuel Richardson", 9296, False, 91_800, {"form": "volume"}),
        ("Middlemarch", "George Eliot", 145, True, 316_100, {}),
        ("The Importance of Being Earnest", "Oscar Wilde", 844, True, 21_900, {"form": "play"}),
    )),
    "broader-controls": ("default_v2", 7.1, (
        ("The Scarlet Letter", "Nathaniel Hawthorne", 33, True, None, {}),
        ("Frankenstein; Or, The Modern Prometheus", "Mary Wollstonecraft Shelley", 84, True, None, {}),
        ("The Picture of Dorian Gray", "Oscar Wilde", 174, True, None, {}), ("Erewhon", "Samuel Butler", 1906, False, None, {}),
        ("Zuleika Dobson", "Max Beerbohm", 1845, False, None, {}), ("The House of the Seven Gables", "Nathaniel Hawthorne", 77, False, None, {}),
        ("The Prince and the Pauper", "Mark Twain", 1837, False, None, {}), ("Three Men in a Boat", "Jerome K. Jerome", 308, False, None, {}),
        ("The Red Badge of Courage", "Stephen Crane", 73, True, None, {}), ("Looking Backward: 2000-1887", "Edward Bellamy", 624, False, None, {}),
        ("A Connecticut Yankee in King Arthur's Court", "Mark Twain", 86, False, 101_500, {}),
        ("The Master of Ballantrae", "Robert Louis Stevenson", 864, False, 97_800, {}),
        ("The Beetle", "Richard Marsh", 5164, False, 108_300, {}),
        ("Vanity Fair", "William Makepeace Thackeray", 599, True, 267_400, {}),
        ("The Clansman: An Historical Romance of the Ku Klux Klan", "Thomas Dixon", 26240, False, 91_400,
         {"exclusion": {"reason": "Its primary subject is the promotion of racial violence: excluded from the public reference corpus, "
                                  "recorded individually.", "documented_by": "A3"}}),
        ("The Life and Opinions of Tristram Shandy, Gentleman", "Laurence Sterne", 1079, False, 88_600, {"cleanly_extractable": False}),
        ("Dracula's Guest", "Bram Stoker", 10150, False, 45_300, {"form": "collection"}),
        ("Great Ghost Stories", "Various", 15143, False, 84_900, {"form": "anthology"}),
    )),
}
GENRES_ASSIGNED_AT = "2026-08-21T14:00:00Z"  # after the freeze (06:00) and A3, the same day
COMMITTED_AT = "2026-08-21T19:30:00Z"  # the title list and manuscript hashes, before any scoring
SCORING_FROM = datetime(2026, 8, 22, 8, 0, tzinfo=timezone.utc)  # the first reference novel scored
SCORING_STEP = timedelta(hours=3, minutes=47)  # between two novels' scorings, in id order
SEED_STRING = "sagabench-v1.1-gutenberg"  # protocol section 7
PLACES = 12
EXTENDED_MAX_WORDS = 110_000
LEGACY = (  # (title, author, Gutenberg id, profile, recognized-prone)
    ("Pride and Prejudice", "Jane Austen", 1342, "literary_v2", True), ("Wuthering Heights", "Emily Brontë", 768, "literary_v2", True),
    ("Dracula", "Bram Stoker", 345, "default_v2", True), ("Emma", "Jane Austen", 158, "literary_v2", True),
    ("Sense and Sensibility", "Jane Austen", 161, "literary_v2", False), ("The Adventures of Tom Sawyer", "Mark Twain", 74, "default_v2", True),
    ("A Tale of Two Cities", "Charles Dickens", 98, "default_v2", True), ("The Moonstone", "Wilkie Collins", 155, "scifi_v2", False),
    ("The Mayor of Casterbridge", "Thomas Hardy", 143, "literary_v2", False), ("White Fang", "Jack London", 910, "scifi_v2", False),
    ("The Invisible Man", "H. G. Wells", 5230, "scifi_v2", True), ("Great Expectations", "Charles Dickens", 1400, "literary_v2", True),
    ("Little Women", "Louisa May Alcott", 514, "literary_v2", False), ("Jane Eyre", "Charlotte Brontë", 1260, "literary_v2", True),
)
ARCHIVE_ROWS = (  # v1.0 entrants: (name, latent quality, runs)
    ("Claude Opus 5", 7.2, 4), ("GPT-5.6 Terra", 6.95, 4), ("GPT-5.6 Sol Pro", 7.1, 4), ("Claude Sonnet 4.6", 6.7, 6),
    ("Gemini 3.5 Pro", 6.9, 4), ("Fable 5.1", 7.0, 2), ("DeepSeek V4", 6.4, 4), ("Kimi K3", 6.3, 2), ("Llama 5 Maverick", 5.5, 2),
)


def _rng(*stream: int) -> np.random.Generator:
    return np.random.default_rng([DEMO_SEED, *stream])


def _slug_part(entrant: str) -> str:
    return entrant.replace("/", "-")


def run_id(arm: str, brief: str, entrant: str, replicate: int) -> str:
    return f"{arm}-{brief}-{_slug_part(entrant)}-r{replicate}"


# ---------------------------------------------------------------- scoring


def composite(profile: str, dims: dict[str, int], cap: dict | None) -> float:
    """The contract's judge-run composite: the weighted mean x 10, then the cap if lower."""
    raw = 10 * sum(WEIGHTS[profile][d] * dims[d] for d in DIMENSIONS)
    return min(cap["value"], raw) if cap is not None else raw


def _windows(rng, level: float, profile: str, dim_profile: dict[str, float], words: int, arm: str,
             cap_rate: float, windows=WINDOWS, late_sag: float = 0.0) -> tuple[list[dict], float]:
    """Score the windows a text of `words` words reaches: three judge runs each."""
    out = []
    for w in windows:
        if w != "ending" and WINDOW_START[w] >= words:
            continue
        wl = level + WINDOW_EFFECT[arm][w] + rng.normal(0, WINDOW_SD) - (late_sag if w in ("75k", "ending", "50k") else 0.0)
        true = {d: wl + dim_profile[d] + rng.normal(0, DIM_SD) for d in DIMENSIONS}
        runs = []
        for _ in range(3):
            dims = {d: int(np.clip(round(true[d] + rng.normal(0, JUDGE_SD)), 1, 10)) for d in DIMENSIONS}
            cap = None
            if rng.random() < cap_rate:
                value, reason = CAPS[int(rng.integers(len(CAPS)))]
                cap = {"value": value, "reason": reason}
            runs.append({"profile": profile, "dimensions": dims, "cap": cap, "composite": composite(profile, dims, cap)})
        out.append({"window": w, "runs": runs, "composite": statistics.median(r["composite"] for r in runs)})
    return out, statistics.mean(x["composite"] for x in out)


# The instrument's controlled vocabularies (section 3a): timeline tags and the diagnosis taxonomy.
TAGS = ("strong_hook", "tension_spike", "filler_scene", "pacing_sag", "strong_close", "reveal", "quiet_interlude")
ISSUES = ("pacing-sag-middle", "flat-secondary-cast", "repetitive-phrasing", "unresolved-thread", "exposition-dump",
          "tonal-drift", "rushed-ending", "thin-stakes")


def _add_scoring(rng, run: dict) -> None:
    """The rest of the run's score file: the deterministic layer, the engagement timeline and its
    top issues, the whole-book composite (a diagnostic) and the scoring cost. Synthetic."""
    words = run["words"]
    level = statistics.mean(w["composite"] for w in run["windows"]) / 10
    profile = run["windows"][0]["runs"][0]["profile"]
    n = int(rng.integers(8, 13))
    cuts = sorted(int(c) for c in rng.choice(np.arange(1, words), n - 1, replace=False)) if words > n else list(range(1, n))
    bounds = [0, *cuts, words]
    segments = []
    for s in range(n):
        score = int(np.clip(round(level + rng.normal(0, 1.1)), 1, 10))
        tags = sorted(set(str(t) for t in rng.choice(TAGS, int(rng.integers(0, 3)), replace=False)))
        if s == 0 and score >= 7:
            tags = sorted(set(tags) | {"strong_hook"})
        segments.append({"words_from": bounds[s], "words_to": bounds[s + 1], "score": score, "tags": tags})
    issues = sorted(str(t) for t in rng.choice(ISSUES, int(rng.integers(3, 6)), replace=False))
    whole = []
    for _ in range(3):
        dims = {d: int(np.clip(round(level + rng.normal(0, 0.7)), 1, 10)) for d in DIMENSIONS}
        whole.append({"profile": profile, "dimensions": dims, "cap": None, "composite": composite(profile, dims, None)})
    run["scoring"] = {
        "deterministic": {"sentence_cv": round(float(np.clip(rng.normal(0.55, 0.08), 0.2, 1.2)), 3),
                          "type_token_ratio": round(float(np.clip(rng.normal(0.42, 0.03), 0.25, 0.6)), 3),
                          "ai_tells_per_kw": round(float(max(0.0, rng.normal(2.6 - 0.25 * (level - 6), 0.5))), 2)},
        "engagement": segments, "issues": issues, "whole_book": whole,
        "cost_usd": round(0.35 + words / 1000 * 0.018 + float(rng.uniform(0, 0.2)), 4),
    }


# ---------------------------------------------------------------- evidence

# The judge's evidence (section 3a): every dimension score of every judge run cites 1-3 short
# quotes with their chapter and section. The quotes are synthetic lines drawn from small pools
# per text (the B2 station, the N1 family, the reference novels), short so the files stay small:
# mostly one quote per dimension, sometimes two or three.
QUOTE_COUNTS, QUOTE_COUNT_P = (1, 2, 3), (0.92, 0.06, 0.02)
WINDOW_WORDS = 10_000  # each positional window, and the ending (kept from the tail)
QUOTE_POOLS = {
    "b2": (("Okafor", "Mira", "The relay", "Vance", "The dish", "The ice"),
           ("counted the dead channels", "hummed under the floor", "logged silence as weather", "kept the heat at half",
            "found frost in the airlock", "slept in the radio room", "had not answered in days")),
    "n1": (("Margaret", "Tom", "Aunt Celia", "Ruth", "The house", "The will"),
           ("kept the letters in a tin", "would not sit in his chair", "priced the silver", "left the east wing cold",
            "laughed at the wrong time", "signed without reading", "burned the second draft")),
    "human": (("The captain", "Her mother", "Old Hanley", "My uncle", "The letter", "The girl"),
              ("stood at the gate in rain", "said nothing of the debt", "came back without the horse", "was read twice",
               "never forgave the parson", "kept her own counsel", "looked older by candlelight")),
}
SPEAKERS = {"b2": ("Okafor", "Mira", "Vance"), "n1": ("Margaret", "Tom", "Ruth"), "human": ("she", "he", "Hanley")}
SPEECH = ("You kept them all", "Nobody asked me", "We leave at dawn", "It was never yours", "Say it again", "Not tonight")


def _layout(rng, words: int) -> tuple[list[int], list[tuple[int, int]]]:
    """The text's parsed structure: the first word of every section, and its (chapter,
    section), in reading order. Chapters of 2,800-4,600 words, one to four sections each."""
    n = max(1, round(words / float(rng.uniform(2_800, 4_600))))
    chapter_words = np.floor(rng.dirichlet([30.0] * n) * words).astype(int).tolist()
    starts, where, at = [], [], 0
    for ch, size in enumerate(chapter_words, start=1):
        k = int(rng.integers(1, 5))
        cuts = sorted(int(c) for c in rng.choice(np.arange(1, size), k - 1, replace=False)) if size > k else []
        for sec, cut in enumerate([0, *cuts], start=1):
            starts.append(at + cut)
            where.append((ch, sec))
        at += size
    return starts, where


def _locate(starts: list[int], where: list[tuple[int, int]], word: int) -> dict:
    ch, sec = where[bisect.bisect_right(starts, word) - 1]
    return {"ch": ch, "sec": sec}


def _window_range(window: str, words: int) -> tuple[int, int]:
    """[first word, last word + 1) of a window of a text of `words` words."""
    if window == "ending":
        return max(0, words - WINDOW_WORDS), words
    return WINDOW_START[window], min(WINDOW_START[window] + WINDOW_WORDS, words)


def _quote(rng, pool: str, dimension: str) -> str:
    subjects, predicates = QUOTE_POOLS[pool]
    who = subjects[int(rng.integers(len(subjects)))]
    if dimension == "dialogue":
        return f"\u201c{SPEECH[int(rng.integers(len(SPEECH)))]},\u201d {SPEAKERS[pool][int(rng.integers(len(SPEAKERS[pool])))]} said."
    return f"{who} {predicates[int(rng.integers(len(predicates)))]}."


def _evidence(rng, pool: str, starts, where, lo: int, hi: int) -> dict:
    """A judge run's quotes for each dimension, at words drawn inside [lo, hi), in reading order."""
    out = {}
    for d in DIMENSIONS:
        n = int(rng.choice(QUOTE_COUNTS, p=QUOTE_COUNT_P))
        at = sorted(int(w) for w in rng.integers(lo, hi, n))
        out[d] = [{**_locate(starts, where, w), "quote": _quote(rng, pool, d)} for w in at]
    return out


def _with_evidence(run: dict, evidence: dict) -> dict:
    """A judge run with its evidence after its scores (the file reads score, then quotes)."""
    return {"profile": run["profile"], "dimensions": run["dimensions"], "evidence": evidence,
            **{k: v for k, v in run.items() if k not in ("profile", "dimensions")}}


def _add_evidence(rng, text: dict, pool: str) -> None:
    """Lay the text out in chapters and sections, give each window its span and each judge run
    (of the windows, and of the whole book for a run) its quotes, located in what it read."""
    words = text["words"]
    starts, where = _layout(rng, words)
    windows = []
    for w in text["windows"]:
        lo, hi = _window_range(w["window"], words)
        span = {"first": _locate(starts, where, lo), "last": _locate(starts, where, hi - 1)}
        runs = [_with_evidence(jr, _evidence(rng, pool, starts, where, lo, hi)) for jr in w["runs"]]
        windows.append({"window": w["window"], "span": span, **{k: v for k, v in w.items() if k != "window"}, "runs": runs})
    text["windows"] = windows
    if "scoring" in text:
        s = text["scoring"]
        s["whole_book"] = [_with_evidence(jr, _evidence(rng, pool, starts, where, 0, words)) for jr in s["whole_book"]]


# ---------------------------------------------------------------- runs


def _split(rng, words: int, cap_words: int, last_finish: str, arm: str) -> list[tuple[int, str]]:
    """Per-call (words, finish): full calls end on `length`; in sustained runs some calls stop
    voluntarily below 85,000 words and get a neutral CONTINUE; system calls are chapters."""
    if arm == "system":
        n = int(rng.integers(21, 27))
        sizes = np.floor(rng.dirichlet([40.0] * n) * words).astype(int).tolist()
        sizes[-1] += words - sum(sizes)
        return [(int(s), "stop") for s in sizes]
    chunks, done = [], 0
    while words - done > cap_words:
        voluntary = int(cap_words * rng.uniform(0.3, 0.8))
        if arm == "sustained" and rng.random() < 0.3 and done + voluntary < 85_000:
            c, fin = voluntary, "stop"  # a voluntary stop below the target: CONTINUE follows
        else:
            c, fin = int(cap_words * rng.uniform(0.96, 1.0)), "length"
            rest = words - done - c
            if arm == "sustained" and rest < 3_000 and words - 3_000 < 85_000:
                c, fin = words - done - int(rng.integers(3_000, 8_000)), "stop"  # stop early, CONTINUE once more
            elif rest < 300:
                c -= 300  # the last call returns at least a few hundred words
        chunks.append((c, fin))
        done += c
    chunks.append((words - done, last_finish))
    return chunks


def _outcome_words(rng, outcome: str) -> tuple[int, str, str]:
    """(words, stop reason, finish of the last call) of a sustained run."""
    if outcome == "stall-dnf":
        return int(rng.integers(52_000, 79_000)), "stall", "stall"
    if outcome == "stall-in-band":
        return int(rng.integers(80_500, 84_500)), "stall", "stall"
    if outcome == "cap":
        return HARD_CAP_WORDS, "cap", "length"
    return int(rng.integers(85_000, 93_800)), "word-target", "stop"


def _plan(entrant: str, kind: str, status: str, outcomes: dict) -> list[tuple]:
    """(brief, arm, replicate, stop reason or None, words or None) in the runner's order."""
    if status == "withdrawn":
        return list(WITHDRAWN_RUNS[entrant])
    if kind == "system":
        return [(b["id"], "system", r, None, None) for b in BRIEFS for r in range(1, REPLICATES + 1)]
    return [(b["id"], arm, r, outcomes.get((entrant, b["id"], r)) if arm == "sustained" else None, None)
            for b in BRIEFS for arm in ("free-run", "sustained") for r in range(1, REPLICATES + 1)]


def _entrant_runs(i: int, spec: tuple, profile: dict, brief_offset: dict, outcomes: dict) -> list[dict]:
    eid, _, provider, kind, status, cohort, quality, max_tokens, temp_ok, wps, cost_target = spec
    rng = _rng(1, i)
    cap_words = int(max_tokens * WORDS_PER_TOKEN)
    params = {"temperature": TEMPERATURE, "max_tokens": max_tokens} if temp_ok else {"max_tokens": max_tokens, "params_transformed": True}
    if kind == "system":
        params = {"commission_words": 85_000}
    start = datetime(2026, 9, 30, 7, 0, tzinfo=timezone.utc) if cohort == COHORT_ADD else datetime(2026, 8, 21, 6, 30, tzinfo=timezone.utc)
    clock = start + timedelta(seconds=97 * i)
    voluntary_median = float(rng.uniform(7_000, 22_000))
    runs, raw_costs = [], []
    for brief, arm, rep, stop, words in _plan(eid, kind, status, outcomes):
        rid = run_id(arm, brief, eid, rep)
        sag = 0.0
        if arm == "free-run":
            words = int(voluntary_median * np.exp(rng.normal(0, 0.5)))
            while not 2_400 <= words <= 61_000:  # redraw rather than pile up at a bound
                words = int(voluntary_median * np.exp(rng.normal(0, 0.5)))
            stop, last = "voluntary-stop", "stop"
        elif arm == "system":
            words, stop, last = int(rng.integers(85_000, 90_001)), "word-target", "stop"
        elif words is None:  # an active model's sustained run
            words, stop, last = _outcome_words(rng, stop or "normal")
        else:  # a withdrawn model's partial run
            last = {"stall": "stall", "error": "error", "budget-guard": "stop", "word-target": "stop"}[stop]
        if stop == "stall":
            sag = 0.3
        stall_words = int(rng.integers(0, 400)) if last == "stall" else 0
        chunks = _split(rng, words - stall_words, cap_words, "stop" if last == "stall" else last, arm)
        if last == "stall":
            chunks.append((stall_words, "stall"))
        calls, done = [], 0
        for seq, (n, fin) in enumerate(chunks, 1):
            context = 6_000 if arm == "system" else done
            raw_costs.append((n + 0.2 * context) / 1000 + (0.08 if arm == "system" else 0.0))
            returned = ODD_RETURN[3] if (eid, rid, seq) == ODD_RETURN[:3] else eid
            calls.append({
                "seq": seq, "returned_model": returned, "returned_provider": provider,
                "request_id": "gen-" + rng.bytes(12).hex(), "timestamp": clock.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "params": dict(params), "cost_usd": 0.0, "words_from": done, "words_to": done + n, "finish": fin,
                **({"message": STREAM_ERROR} if fin == "error" else {}),
            })
            done += n
            clock += timedelta(seconds=int(n / wps + rng.integers(15, 90)))
        clock += timedelta(seconds=int(rng.integers(20, 120)))
        level = quality + brief_offset[brief] + rng.normal(0, 0.15 if kind == "system" else 0.2)
        windows, score = _windows(rng, level, BRIEF_PROFILE[brief], profile, words, arm, CAP_RATE, late_sag=sag)
        sha = hashlib.sha256(f"SYNTHETIC ChronicleBench demo manuscript {rid} {rng.bytes(16).hex()}".encode()).hexdigest()
        key = "sagascore" if rng.random() < 0.2 else "score"
        runs.append({"id": rid, "entrant": eid, "brief": brief, "arm": arm, "replicate": rep, "cohort": cohort,
                     "manuscript_sha256": sha, "words": words, "stop_reason": stop, "calls": calls,
                     "template_sha256": SYSTEM_TEMPLATE_SHA256 if kind == "system" else TEMPLATE_SHA256, "brief_sha256": BRIEF_SHA256[brief],
                     "instrument": INSTRUMENT_ID, "windows": windows, key: score})
    for run in runs:
        if run["id"] in CREDIT_FAILURES:
            first = run["calls"][0]
            at = datetime.strptime(first["timestamp"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc) - timedelta(minutes=41)
            run["superseded"] = [{"failure": "insufficient-credits", "message": "402: Insufficient credits. Add more using the account page.",
                                  "request_id": "gen-" + hashlib.sha256(f"superseded {run['id']}".encode()).hexdigest()[:24],
                                  "timestamp": at.strftime("%Y-%m-%dT%H:%M:%SZ"), "params": dict(first["params"]), "words": 0, "documented_by": "A4"}]
    factor = cost_target / sum(raw_costs)
    costs = iter(raw_costs)
    for run in runs:
        for call in run["calls"]:
            call["cost_usd"] = round(next(costs) * factor, 6)
    return runs


def _design() -> tuple[dict, dict, dict]:
    """Per-entrant dimension profiles and brief offsets; which sustained runs stall or cap."""
    rng = _rng(0)
    profiles = {e[0]: dict(zip(DIMENSIONS, rng.normal(0, 0.3, len(DIMENSIONS)).round(3).tolist())) for e in ENTRANTS}
    offsets = {e[0]: dict(zip((b["id"] for b in BRIEFS), rng.normal(0, 0.15, len(BRIEFS)).tolist())) for e in ENTRANTS}
    sustained = [(e[0], b["id"], r) for e in ENTRANTS if e[3] == "model" and e[4] == "active" for b in BRIEFS for r in range(1, REPLICATES + 1)]
    # N1 stalls more (A6): n1 runs are three times as likely to be picked for a stall
    p = np.array([3.0 if key[1] == "n1" else 1.0 for key in sustained])
    total = sum(n for _, n in SUSTAINED_PLAN)
    picked = rng.choice(len(sustained), total, replace=False, p=p / p.sum()).tolist()
    outcomes, k = {}, 0
    for outcome, n in SUSTAINED_PLAN:
        for idx in picked[k:k + n]:
            outcomes[sustained[idx]] = outcome
        k += n
    return profiles, offsets, outcomes


# ---------------------------------------------------------------- documents


def _cohort_document() -> dict:
    entrants = []
    for eid, name, provider, kind, status, cohort, *_ in ENTRANTS:
        entrant = {"id": eid, "name": name, "provider": provider, "kind": kind, "status": status, "cohort": cohort}
        if status == "withdrawn":
            # amendment A4 (owner budget decision)
            entrant["withdrawn_by"] = "A4"
        if kind == "system":
            entrant["release"] = SYSTEM_RELEASE
        entrants.append(entrant)
    return {
        "schema": "chronicle.cohort/1",
        "synthetic": True,
        "benchmark": {"name": "ChronicleBench", "version": "v1.1", "score_name": "ChronicleBench Score",
                      "formerly": "SagaBench", "formerly_score": "SagaScore", "renamed_on": "2026-09-01"},
        "protocol_frozen_on": "2026-08-21",
        "eligibility": {"min_words": BAND[0], "max_words": BAND[1]},
        "replicates": REPLICATES,
        "temperature": TEMPERATURE,
        "hard_cap_words": HARD_CAP_WORDS,
        "windows": list(WINDOWS),
        "vocabulary": {"tags": list(TAGS), "issues": list(ISSUES)},
        "instrument": {"id": INSTRUMENT_ID, "judge": "Claude Sonnet 4.6", "judge_slug": "anthropic/claude-sonnet-4.6",
                       "temperature": 0.0, "runs": 3},
        "profiles": [{"id": p, "weights": dict(w)} for p, w in WEIGHTS.items()],
        "template_sha256": TEMPLATE_SHA256,
        "briefs": [{**b, "sha256": BRIEF_SHA256[b["id"]]} for b in BRIEFS],
        "entrants": entrants,
        "boards": [
            {"id": "system", "number": 1, "arm": "system", "title": "Complete-novel system entrants",
             "description": "Systems that deliver a complete novel under the explicit 85K commission, ranked only against other systems."},
            {"id": "sustained", "number": 2, "arm": "sustained", "title": "Sustained model + standard harness",
             "description": "Roster models kept writing by a neutral CONTINUE until 85,000 words, ranked on their in-band books."},
            {"id": "voluntary", "number": 3, "arm": "free-run", "title": "Short-horizon voluntary generation",
             "description": "Roster models left to stop when they choose, ranked by voluntary length; their books are scored as DNF diagnostics."},
        ],
        "cohorts": [
            {"id": COHORT_V11, "date": "2026-08-21", "instrument": INSTRUMENT_ID,
             "changelog": "The contemporaneous cohort of 14 models and the Chronicle system, generated under the frozen v1.1 protocol; "
                          "reduced to 12 models by A4 (Kimi K3 and GLM 5.3 withdrawn, diagnostics only). Instrument obr-v2.1-2026-03-08."},
            {"id": COHORT_ADD, "date": "2026-10-02", "instrument": INSTRUMENT_ID,
             "changelog": "Added Command A 2 (cohere/command-a-2) under the standing procedure of section 6: both arms, both briefs, "
                          "all replicates, the same parameters and guards, scored on the same instrument obr-v2.1-2026-03-08."},
        ],
        "exhibit": {"system": SYSTEM_ID, "base_model": BASE_MODEL_ID,
                    "description": "Chronicle against raw Claude Sonnet 4.6, its own base model, on the same briefs and instrument: "
                                   "the controlled architecture comparison, outside all three boards."},
    }


def _selection_document() -> dict:
    """The selection record: the pool with its facts, never which works are drawn."""
    rng = _rng(4)
    candidates = []
    for stratum, (_profile, _mean, books) in POOL.items():
        for title, author, gid, _famous, words, facts in books:
            drawn_words = int(rng.integers(BAND[0], BAND[1] + 1))  # drawn for every candidate: one fact changed moves no other
            candidates.append({
                "gutenberg_id": gid, "title": title, "author": author, "stratum": stratum, "words": drawn_words if words is None else words,
                "original_language": facts.get("original_language", "en"), "translator": facts.get("translator"),
                "form": facts.get("form", "novel"), "cleanly_extractable": facts.get("cleanly_extractable", True),
                "duplicate_of": facts.get("duplicate_of"),
                "manuscript_sha256": hashlib.sha256(f"SYNTHETIC ChronicleBench demo reference manuscript pg{gid}".encode()).hexdigest(),
                **({"exclusion": facts["exclusion"]} if "exclusion" in facts else {}),
            })
    candidates.sort(key=lambda c: c["gutenberg_id"])
    return {"schema": "chronicle.selection/1", "synthetic": True, "seed": SEED_STRING, "places_per_stratum": PLACES,
            "extended_max_words": EXTENDED_MAX_WORDS, "genres_assigned_at": GENRES_ASSIGNED_AT, "committed_at": COMMITTED_AT,
            "candidates": candidates}


def _reference_lines(record: SelectionFile) -> list[dict]:
    """The 36 novels the seeded selection draws from the pool (the family's own rule) and the
    14 legacy anchors, scored."""
    anchors = {gid for _title, _author, gid, _profile, _famous in LEGACY}
    drawn = select(record, BAND[0], BAND[1], anchors, lambda words: expected_windows(words, list(WINDOWS)), list(WINDOWS)).drawn
    famous = {gid: f for _stratum, (_p, _m, books) in POOL.items() for _t, _a, gid, f, _w, _facts in books}
    rng = _rng(2)
    out = []
    for stratum, (profile, mean, _books) in POOL.items():
        for o in sorted((o for o in drawn.values() if o.candidate.stratum == stratum), key=lambda o: o.candidate.gutenberg_id):
            c = o.candidate
            level = mean + rng.normal(0, 0.3)
            dims = {d: HUMAN_PROFILE[d] + rng.normal(0, 0.15) for d in DIMENSIONS}
            windows, score = _windows(rng, level, profile, dims, c.words, "human", HUMAN_CAP_RATE)
            line = _novel(c.title, c.author, c.gutenberg_id, stratum, "v1.1", c.words, profile,
                          bool(rng.random() < (0.7 if famous[c.gutenberg_id] else 0.15)), windows, "score", score)
            out.append({**line, "manuscript_sha256": c.manuscript_sha256})
    for title, author, gid, profile, famous_legacy in LEGACY:
        words = int(rng.integers(72_400, 99_000))
        level = 7.2 + rng.normal(0, 0.35)
        dims = {d: HUMAN_PROFILE[d] + rng.normal(0, 0.15) for d in DIMENSIONS}
        windows, score = _windows(rng, level, profile, dims, words, "human", HUMAN_CAP_RATE, windows=LEGACY_WINDOWS)
        out.append(_novel(title, author, gid, "legacy", "legacy-v1.0", words, profile,
                          bool(rng.random() < (0.7 if famous_legacy else 0.15)), windows, "sagascore", score))
    out.sort(key=lambda r: r["id"])
    at = SCORING_FROM
    for r in out:  # scored one after another, in id order, after the commit
        if r["corpus"] == "v1.1":
            r["scored_at"] = at.strftime("%Y-%m-%dT%H:%M:%SZ")
            at += SCORING_STEP
    return out


def _novel(title, author, gid, stratum, corpus, words, profile, recognized, windows, key, score) -> dict:
    plain = unicodedata.normalize("NFKD", title.lower()).encode("ascii", "ignore").decode("ascii")
    slug = "".join(c if c.isalnum() else "-" for c in plain)
    slug = "-".join(p for p in slug.split("-") if p)
    return {"id": f"pg{gid}-{slug}", "title": title, "author": author, "gutenberg_id": gid, "stratum": stratum,
            "corpus": corpus, "words": words, "profile": profile, "recognized": recognized, "instrument": INSTRUMENT_ID,
            "windows": windows, key: score}


def _archive_document() -> dict:
    rng = _rng(3)
    rows = [{"entrant": name, "sagascore": round(float(10 * (q + rng.normal(0, 0.12))), 2), "runs": n} for name, q, n in ARCHIVE_ROWS]
    rows.sort(key=lambda r: (-r["sagascore"], r["entrant"]))
    return {
        "schema": "chronicle.archive/1", "synthetic": True, "version": "v1.0", "contract": "v1.0.1", "published_on": "2026-07-15",
        "note": "Archived: the v1.0 board exactly as published on 2026-07-15, never rescored. Its ChronicleBench Score (then "
                "SagaScore) is the mean of four windows (opening, 25K, 50K, ending) under the 72,250-word floor, a different "
                "metric object from the v1.1 five-window score.",
        "rows": rows,
    }


# After the run, the protocol's wording about its old address was corrected (it said the page
# was mirrored there; the address is a redirect) and the text frozen again: the freeze record
# holds both versions. (old text, text in force) of each change, to recompute the first version.
REWORDED = (
    ("This document is the canonical methodology reference and is mirrored on this site at\n`/protocol-v1.1.html`; every "
     "future model addition follows §6 verbatim.",
     "This document is the canonical methodology reference; its old address on this site,\n`/protocol-v1.1.html`, redirects "
     "here. Every future model addition follows §6 verbatim."),
    ("6. The public methodology page (`/protocol-v1.1.html`) is updated in the same change that adds\n   the model.",
     "6. The public methodology page (this page; `/protocol-v1.1.html` redirects here) is updated in\n   the same change that adds the model."),
)
REFROZEN_AT = "2026-09-02T09:00:00Z"


def _entry_records(root: Path) -> list[dict]:
    """A freeze record item for each entry of the hand-written amendment log, recorded on the
    day it was published (its date), and for the v1.0 archive, recorded at the freeze: what
    the site published can then not change without a recorded correction (validate.py)."""
    items = []
    for path in sorted((root / AMENDMENTS_DIR).glob("*.md"), key=lambda p: (p.stem[0], int(p.stem[1:]))):
        date = re.search(r"(?m)^date: (\S+)$", path.read_text(encoding="utf-8")).group(1)
        items.append({"kind": "log-entry", "id": entry_item_id(path.stem), "path": f"{AMENDMENTS_DIR}/{path.name}",
                      "history": [{"version": "1", "fingerprint": text_fingerprint(path.read_bytes()), "frozen_at": f"{date}T18:00:00Z", "note": ""}]})
    archive = (root / ARCHIVE_FILE).read_bytes()
    items.append({"kind": "archive", "id": "archive-v1.0",
                  "history": [{"version": "1", "fingerprint": text_fingerprint(archive), "frozen_at": FROZEN_AT, "note": ""}]})
    return items


def _freeze_document(protocol: bytes, root: Path) -> dict:
    text = protocol.decode("utf-8")
    for old, new in REWORDED:
        if new not in text:
            raise ValueError(f"{PROTOCOL_FILE} no longer holds the reworded sentence {new[:40]!r}...: update REWORDED")
        text = text.replace(new, old)
    history = [{"version": "v1.1", "fingerprint": text_fingerprint(text.encode("utf-8")), "frozen_at": FROZEN_AT, "note": ""},
               {"version": "v1.1.1", "fingerprint": text_fingerprint(protocol), "frozen_at": REFROZEN_AT,
                "note": "Wording only: /protocol-v1.1.html is a redirect to this page, not a mirror of it. No rule, threshold or date changed."}]
    return {"schema": "chronicle.freeze/1", "frozen_at": FROZEN_AT,
            "items": [{"kind": "protocol", "id": "protocol-v1.1", "path": PROTOCOL_FILE, "history": history}, *_entry_records(root)]}


# ---------------------------------------------------------------- entry points


def generate(root: Path) -> None:
    """Write the synthetic ChronicleBench artifact files under root/data/chronicle/ (seeded,
    deterministic). The hand-written protocol root/content/chronicle/protocol.md must exist:
    freeze.json fingerprints it. Every document is validated against the contract first."""
    root = Path(root)
    protocol_path = root / PROTOCOL_FILE
    if not protocol_path.is_file():
        raise FileNotFoundError(f"{PROTOCOL_FILE} is missing under {root}: freeze.json fingerprints the hand-written protocol")
    protocol = protocol_path.read_bytes()

    cohort = _cohort_document()
    CohortFile.model_validate(cohort, strict=True)  # the demo never writes what intake would refuse
    profiles, offsets, outcomes = _design()
    runs = [r for i, spec in enumerate(ENTRANTS) for r in _entrant_runs(i, spec, profiles[spec[0]], offsets[spec[0]], outcomes)]
    runs.sort(key=lambda r: r["id"])
    for k, r in enumerate(runs):  # after the runs: a stream of its own, so nothing drawn before moves
        _add_scoring(_rng(8, k), r)
    for k, r in enumerate(runs):  # the evidence last, on streams of its own: no score moves
        _add_evidence(_rng(9, k), r, r["brief"])
    selection = _selection_document()
    record = SelectionFile.model_validate(selection, strict=True)
    reference = _reference_lines(record)
    for k, r in enumerate(reference):
        _add_evidence(_rng(10, k), r, "human")
    archive = _archive_document()
    for r in runs:
        Run.model_validate(r, strict=True)
    for r in reference:
        ReferenceNovel.model_validate(r, strict=True)
    ArchiveFile.model_validate(archive, strict=True)

    write_json(root / COHORT_FILE, cohort)
    write_jsonl(root / RUNS_FILE, runs)
    write_json(root / SELECTION_FILE, selection)
    write_jsonl(root / REFERENCE_FILE, reference)
    write_json(root / ARCHIVE_FILE, archive)
    write_json(root / FREEZE_FILE, _freeze_document(protocol, root))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m sitegen.families.chronicle.demo",
        description=f"Write SYNTHETIC ChronicleBench v1.1 demo data (seed {DEMO_SEED}) to ROOT/{DATA_DIR}/: "
        + ", ".join(Path(f).name for f in ALL_FILES) + f". Needs the protocol at ROOT/{PROTOCOL_FILE}.",
    )
    parser.add_argument("--root", type=Path, default=Path("."), help="site root (default: the current directory)")
    args = parser.parse_args(argv)
    try:
        generate(args.root)
    except FileNotFoundError as exc:
        parser.exit(1, f"error: {exc}\n")
    print(f"wrote {', '.join(ALL_FILES)} (synthetic, seed {DEMO_SEED})")


if __name__ == "__main__":
    main()
