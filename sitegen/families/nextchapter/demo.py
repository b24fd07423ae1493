"""Synthetic demo data for NextChapterBench (seed 001): a seeded, deterministic generator.

Writes the family's artifact files under ``<root>/data/nextchapter/``:

- ``run.json``        the run ``first`` (``RunFile``): the judge Sonnet 5, the frozen reference
  (Fable 5.1 at xhigh, written 2026-09-20), ten models from six houses with their effort
  variants (Fable 5.1 at low and Fable 5 at medium ``incomplete``: stopped on The Secret Garden by
  the model's own content filter; Hy3 at medium ``not-judged``) and the effort each was first run
  at and why, the judge audition (three candidates' readings of the same chapters of two audition
  items), the earlier three-judge panel's marks on its five-point scale, and the memorisation
  threshold (30 words);
- ``items.jsonl``     ten items sorted by id (``Item``), each from a public-domain novel: a
  source chapter, a divergent brief (beats, prohibitions, end state, word range), five hidden
  continuity traps whose facts occur verbatim in the source chapter, the frozen reference
  chapter with its SHA-256, and a stand-in for the author's real next chapter;
- ``chapters.jsonl``  one line per (model, effort, item) sorted by those keys (``Chapter``): every
  judged or incomplete setting on every item, each with its attempts and their tokens and cost;
  the two incomplete settings record twelve ``content-filter`` attempts on The Secret Garden,
  Fable 5.1 (xhigh) one output of tool-call markup regenerated, GLM 5.3 Flash three chapters cut
  off before its output budget was doubled;
- ``calls.jsonl``     one judge call per chapter that is a chapter, sorted by the same keys
  (``Call``): the shuffled order the two continuations were shown in, the eight craft readings of
  the candidate and of the frozen reference chapter and the author's five, each with its
  worst-flaw and best-quality sentence, and every compliance check of both continuations with
  its quotation.

EVERYTHING HERE IS SYNTHETIC. The structure follows the NextChapterBench method page (seed 001);
every text (source chapters, author's chapters, reference and candidate chapters) is assembled
from this module's own sentence templates and the items' hand-written plot and trap sentences,
not copied from any book, and every score is a random draw, not a measurement of any model.
``run.json`` says so with ``"synthetic": true``.

Texts: authors' texts (source and author's chapters) and models' texts (the reference and the
candidates) draw their filler sentences from two disjoint template banks, so accidental shared
word runs stay short; every model's text is then screened against its item's source and
author's chapters and any sentence inside a shared run of ``SCREEN_N`` (11) words is redrawn,
so no chapter shares a run of more than ten words with them -- except the one planted case:
Claude Opus 5 (high) on Persuasion copies a passage of at least 30 consecutive words of the
author's chapter, which the screen must catch. Also planted: a preamble (Gemini 3.5 Flash on
Middlemarch), a chapter cut off mid-sentence (GPT-5.5 medium on Dracula), stray markdown
(GLM 5.3 Flash on Great Expectations) and a refusal returned as text (GPT-5.6 Terra on The Sun
Also Rises), which is judged and fails every compliance check.

Compliance: a passed check quotes the sentence of the chapter that shows it; a failed beat or
end state quotes nothing, a failed prohibition quotes the violating sentence, a failed trap
quotes the contradicting sentence (or nothing). Exactly two passed checks carry a quotation that
is NOT in the text (the judge paraphrased: GPT-5.5 medium on The Moonstone, beat 1; Gemini 3.5
Flash on North and South, trap t3), so the verbatim rule must turn them into fails. Two
contradicted traps follow the method page: GPT-5.6 Sol (high) lands the Wells cylinder on the
wrong evening, Gemini 3.5 Pro gives the Burnett nursery door to the wrong character.

Scores: each effort setting has a latent craft level (the better models higher), each item a
difficulty, each model a fixed per-dimension profile; a chapter adds generation noise (SD 3) and
the judge per-dimension noise. The frozen reference chapter has a true per-item profile and is
re-read in every call with a per-call shift (SD 2.9) plus per-dimension noise (SD 1.5): the
noise gauge. The authors sit near 90. Claude Opus 5 (high) and Fable 5.1 (xhigh) are made a tie:
Opus's readings are shifted by a whole number of points so that the two craft
headlines end within one point of each other, and their failed checks are of the same kinds on
the same items. Fable 5.1 (xhigh) is the reference model: the frozen reference chapters are its
first drafts, and its entry is a second draft, read in each call as that call's reading of the
reference plus a per-item generation change recentred to -1.3 points and clipped to +/-7 (so
generation noise is measured within the same calls).

Run: ``python -m sitegen.families.nextchapter.demo [--root DIR]``.
"""

from __future__ import annotations

import argparse
import hashlib
import re
from pathlib import Path

import numpy as np

from sitegen.families.demo_files import write_json, write_jsonl
from sitegen.families.nextchapter.models import (
    AUTHOR,
    CRAFT,
    Call,
    Chapter,
    Item,
    RunFile,
)

DATA_DIR = "data/nextchapter"
RUN_FILE = f"{DATA_DIR}/run.json"
ITEMS_FILE = f"{DATA_DIR}/items.jsonl"
CHAPTERS_FILE = f"{DATA_DIR}/chapters.jsonl"
CALLS_FILE = f"{DATA_DIR}/calls.jsonl"
ALL_FILES = (RUN_FILE, ITEMS_FILE, CHAPTERS_FILE, CALLS_FILE)

DEMO_SEED = 20260915
"""The one seed (the reference chapters' freeze month). Streams: [seed, 0] design (model
profiles, item difficulties, the reference's and authors' true readings, second-draft changes),
[seed, 1, i, r] item i's texts (r = 0 source, 1 author's chapter, 2 reference chapter,
3 the planted passage's position), [seed, 2, v, i, 1] the text of setting v (in MODELS order) on
item i, [seed, 3, v, i, 1] that chapter's judge call, [seed, 4, v, i, 1] its compliance plan,
[seed, 5, v, i] the order shown and the reference's and author's sentences in that call,
[seed, 6, v, i] its tokens and cost, [seed, 7] the audition's readings, [seed, 8] the earlier
panel's marks. Each text and call draws from its own stream, so changing one never changes another."""

RUN_ID = "first"
RUN_DATE = "2026-10-20"
MEMORISATION_THRESHOLD = 30
SCREEN_N = 11  # a model's text never shares this many consecutive words with its item's authors' texts
PLANTED_MIN_WORDS = 34  # the planted memorised passage: comfortably over the 30-word threshold

JUDGE = {"id": "anthropic/claude-sonnet-5", "name": "Sonnet 5", "house": "anthropic"}
REFERENCE = {"model": "fable/fable-5.1", "name": "Fable 5.1", "effort": "xhigh", "written_on": "2026-09-20"}
REF_KEY = (REFERENCE["model"], REFERENCE["effort"])

FILTER_ITEM = "secret-garden"
FILTER_REASON = ("Stopped by the model's own output content filter, at this setting only. The chapter is the most "
                 "memorised text in the corpus, and the likeliest explanation is that at this effort the model "
                 "reproduces Burnett closely enough to trip a filter against recitation.")
FILTER_ATTEMPTS = 12
FILTER_NOTE = ("Stopped on The Secret Garden by the model's own output content filter, at this setting only.")

# (id, name, house, [(effort, status, latent craft level, compliance pass rate, note)])
MODELS = (
    ("fable/fable-5.1", "Fable 5.1", "fable", (
        ("low", "incomplete", 73.0, 0.88, FILTER_NOTE),
        ("medium", "judged", 76.0, 0.92, ""),
        ("high", "judged", 76.5, 0.93, ""),
        ("xhigh", "judged", 79.5, 0.95,
         ("The frozen reference chapters are this setting's first drafts, written on 2026-09-20; this entry is a "
          "second draft of the same items, judged beside the first in the same calls.")),
    )),
    ("fable/fable-5", "Fable 5", "fable", (
        ("medium", "incomplete", 71.5, 0.87, FILTER_NOTE),
        ("high", "judged", 73.5, 0.90, ""),
    )),
    ("anthropic/claude-opus-5", "Claude Opus 5", "anthropic", (
        ("high", "judged", 80.0, 0.95, ""),
    )),
    ("openai/gpt-5.6-sol", "GPT-5.6 Sol", "openai", (
        ("medium", "judged", 76.5, 0.92, ""),
        ("high", "judged", 77.0, 0.92, ""),
        ("xhigh", "judged", 76.6, 0.92, ""),
    )),
    ("openai/gpt-5.5", "GPT-5.5", "openai", (
        ("medium", "judged", 73.0, 0.90, ""),
    )),
    ("openai/gpt-5.6-terra", "GPT-5.6 Terra", "openai", (
        ("medium", "judged", 71.0, 0.88, ("Its refusal to write in Hemingway's voice was returned as text, judged like "
                                          "any other chapter, and scores zero on compliance.")),
    )),
    ("google/gemini-3.5-pro", "Gemini 3.5 Pro", "google", (
        ("default", "judged", 75.5, 0.90, ""),
    )),
    ("google/gemini-3.5-flash", "Gemini 3.5 Flash", "google", (
        ("default", "judged", 68.0, 0.85, ""),
    )),
    ("z-ai/glm-5.3-flash", "GLM 5.3 Flash", "z-ai", (
        ("high", "judged", 64.0, 0.82, ("Run with twice the default output budget: it spends most of its budget "
                                        "thinking, and three chapters were cut off mid-sentence until the budget was doubled.")),
    )),
    ("tencent/hy3", "Hy3", "tencent", (
        ("medium", "not-judged", 0.0, 0.0, ("Not judged yet: it spends most of its output budget thinking and is "
                                           "queued for a rerun with twice the default budget.")),
    )),
)
# The setting each model was first run at, and why that one.
STARTING = {
    "fable/fable-5.1": ("high", "its command-line default"),
    "fable/fable-5": ("high", "its command-line default"),
    "anthropic/claude-opus-5": ("high", "its command-line default"),
    "openai/gpt-5.6-sol": ("medium", "Codex's default"),
    "openai/gpt-5.5": ("medium", "Codex's default"),
    "openai/gpt-5.6-terra": ("medium", "Codex's default"),
    "google/gemini-3.5-pro": ("default", "the effort baked into its model name"),
    "google/gemini-3.5-flash": ("default", "the effort baked into its model name"),
    "z-ai/glm-5.3-flash": ("high", "its API default"),
    "tencent/hy3": ("medium", "its API default"),
}
VARIANTS = tuple((m[0], v[0]) for m in MODELS for v in m[3])
VARIANT_SPEC = {(m[0], v[0]): v for m in MODELS for v in m[3]}
TIE = (("anthropic/claude-opus-5", "high"), REF_KEY)  # the two headlines made to tie
TIE_TARGET = 0.5  # Opus ahead by this much, give or take half a point

CANDIDATES = (
    JUDGE,
    {"id": "openai/gpt-5.6-sol", "name": "GPT-5.6 Sol", "house": "openai"},
    {"id": "google/gemini-3.1-pro", "name": "Gemini 3.1 Pro", "house": "google"},
)
AUDITION_ITEMS = (
    {"id": "woman-in-white", "novel": "The Woman in White", "author": "Wilkie Collins"},
    {"id": "cranford", "novel": "Cranford", "author": "Elizabeth Gaskell"},
)
# (id, name, house, true craft): the chapters every candidate read on both audition items; the
# real author's chapter is the writer "author".
AUDITION_WRITERS = (
    ("anthropic/claude-opus-4.7", "Claude Opus 4.7", "anthropic", 87.0),
    ("anthropic/claude-sonnet-4.7", "Claude Sonnet 4.7", "anthropic", 85.0),
    ("fable/fable-5", "Fable 5", "fable", 85.0),
    ("fable/fable-4.6", "Fable 4.6", "fable", 82.0),
    ("openai/gpt-5.5", "GPT-5.5", "openai", 69.0),
    ("openai/gpt-5.6-sol", "GPT-5.6 Sol", "openai", 72.0),
    ("google/gemini-3-flash", "Gemini 3 Flash", "google", 65.0),
    ("z-ai/glm-5", "GLM 5", "z-ai", 60.0),
    ("author", "The real author", "author", 93.0),
)
# How each candidate reads: points added on chapters of a house, the readings it gives the real
# authors when it crowds them at the top of the scale (Sol), and the noise of its readings.
# Gemini's one outlier is planted: a model's chapter on the Collins item read as near-perfect.
AUDITION_BIAS = {
    "anthropic/claude-sonnet-5": ({"anthropic": -7.5}, None, 1.5),
    "openai/gpt-5.6-sol": ({"openai": 11.8}, (98, 99), 3.0),
    "google/gemini-3.1-pro": ({}, None, 3.5),
}
AUDITION_OUTLIER = ("google/gemini-3.1-pro", "woman-in-white", "openai/gpt-5.6-sol", 99, 74)  # a model read at 99, the author at 74

# The earlier panel: three judges marking each chapter on a five-point scale. The best five models
# received a 4 on most of their marks: the scale had no room left at the top.
PANEL_JUDGES = (
    {"id": "anthropic/claude-sonnet-4.7", "name": "Claude Sonnet 4.7", "house": "anthropic"},
    {"id": "openai/gpt-5.5", "name": "GPT-5.5", "house": "openai"},
    {"id": "google/gemini-3-pro", "name": "Gemini 3 Pro", "house": "google"},
)
PANEL_MODELS = (  # (id, name, house, chance of a 4, else spread below)
    ("anthropic/claude-opus-4.7", "Claude Opus 4.7", "anthropic", 0.82),
    ("fable/fable-5", "Fable 5", "fable", 0.80),
    ("openai/gpt-5.6-sol", "GPT-5.6 Sol", "openai", 0.80),
    ("fable/fable-4.6", "Fable 4.6", "fable", 0.78),
    ("anthropic/claude-sonnet-4.7", "Claude Sonnet 4.7", "anthropic", 0.80),
    ("google/gemini-3-pro", "Gemini 3 Pro", "google", 0.55),
    ("openai/gpt-5.5", "GPT-5.5", "openai", 0.50),
    ("z-ai/glm-5", "GLM 5", "z-ai", 0.30),
)
PANEL_UNTIL = "2026-09-14"
PANEL_TOP = 5
PANEL_SCALE = 5

# Generation attempts that did not give a chapter, besides the content filter's.
MARKUP_ITEM = "dracula"  # Fable 5.1 (xhigh): one output of tool-call markup, regenerated
MARKUP_REASON = ("Ten thousand words of tool-call markup with the chapter buried inside it and a loop of shell commands "
                 "after it; not a chapter, so treated like a timeout and generated again.")
CUT_OFF_ITEMS = ("middlemarch", "moonstone", "persuasion")  # GLM 5.3 Flash: cut off at the default output budget
CUT_OFF_REASON = "Cut off mid-sentence at the default output budget; generated again with the budget doubled."
# Reasoning tokens per chapter by effort, and what a million tokens cost per house (synthetic).
REASONING = {"minimal": 500, "low": 3_000, "medium": 7_000, "high": 12_000, "xhigh": 34_000, "default": 9_000}
THINKING_HEAVY = {"z-ai/glm-5.3-flash": 2.2, "tencent/hy3": 2.5}
PRICE_PER_MTOK = {"fable": 30.0, "anthropic": 25.0, "openai": 12.0, "google": 10.0, "z-ai": 2.5, "tencent": 2.0}

# ---------------------------------------------------------------- the items
#
# Per item: the cast (third-person items: the first is the point-of-view character; first-person
# items: the narrator is "I" and not in the cast), places and objects for the filler templates,
# the source chapter's and the author's chapter's plot sentences, five traps (fact verbatim in
# the source sentence `src`; `wrong` is the contradicting version; `clauses` are the models'
# sentences, with {f} for the fact), the brief's beats and end state (text, clause) and
# prohibitions (text, adherence clause, violation clause). All of it is written for this demo.

ITEMS = (
    {
        "id": "persuasion", "novel": "Persuasion", "author": "Jane Austen", "year": 1817, "narrator": None,
        "style": "ornate", "words": (1800, 3200),
        "cast": (("Anne", "f"), ("Sir Walter", "m"), ("Elizabeth", "f"), ("Lady Russell", "f"), ("Mr Shepherd", "m"),
                 ("Mrs Clay", "f"), ("Mary", "f")),
        "places": ("drawing-room", "shrubbery", "library", "park", "village", "breakfast-parlour", "gravel walk"),
        "objects": ("Baronetage", "account-book", "letter from the bank", "tea-urn", "list of retrenchments", "card-table"),
        "source_plot": (
            "Sir Walter turned, as he did every morning, to his own page in the Baronetage, and found there the only history he cared to read.",
            "The accounts, when at last they were laid open, showed a great deal more spent than had ever been received.",
        ),
        "author_plot": (
            "It was Lady Russell's opinion, after long consideration, that a removal from Kellynch was the only cure for the debts.",
            "Bath was named at last, and Sir Walter discovered that he could bear the idea of it very well.",
        ),
        "traps": (
            {"fact": "twelve thousand pounds", "wrong": "twenty thousand pounds",
             "src": "Mr Shepherd put the whole of the debt at twelve thousand pounds and would not be argued lower.",
             "clauses": ("a debt of {f} was not to be wished away by any quantity of good looks",
                         "the sum owing, {f} on the steward's reckoning, had not grown smaller overnight")},
            {"fact": "half past nine", "wrong": "a quarter to eleven",
             "src": "Lady Russell's carriage was ordered for half past nine, and she was never known to keep it waiting.",
             "clauses": ("Lady Russell arrived at {f}, punctual to the minute",
                         "by {f} the carriage from the lodge stood at the door")},
            {"fact": "the east window of the library", "wrong": "the bay window of the drawing-room",
             "src": "Anne had taken her work to the east window of the library, where the morning light was kindest.",
             "clauses": ("Anne kept to her place at {f} while the others talked",
                         "from {f} Anne could see the whole length of the avenue")},
            {"fact": "three miles", "wrong": "nine miles",
             "src": "Uppercross lay three miles off, near enough for Mary to complain of it daily.",
             "clauses": ("Uppercross, only {f} away, might as well have been in another county",
                         "Mary's notes travelled the {f} from Uppercross twice a week")},
            {"fact": "Mr Pellow", "wrong": "Mr Hatch",
             "src": "The steward, Mr Pellow, had been at Kellynch for thirty years and trusted nobody's arithmetic but his own.",
             "clauses": ("the steward, {f}, was sent for with the ledgers",
                         "{f} brought the ledgers up himself and stood by while they were read")},
        ),
        "beats": (
            ("Lady Russell proposes that the family stay in Somerset and let only the home farm.",
             "Lady Russell laid before Sir Walter a plan by which the family might stay in Somerset and let only the home farm"),
            ("Anne is asked for her opinion in front of her father and sister, and gives it plainly.",
             "Anne, asked at last for her opinion before her father and Elizabeth, gave it plainly and without apology"),
            ("Mr Shepherd reports that a naval officer has enquired after the dower house, not the hall.",
             "Mr Shepherd let fall that a naval gentleman had been asking after the dower house, and not the hall at all"),
        ),
        "prohibitions": (
            ("The family does not go to Bath, and Bath is never proposed as a new home.",
             "Nobody proposed a removal anywhere, and the word Bath was not spoken once",
             "By the end of the week it was settled that they should take a house in Bath"),
            ("Captain Wentworth neither appears nor is named.",
             "The navy came into the conversation only as a word in Mr Shepherd's mouth, and went out of it again",
             "Anne thought, as she had not let herself think for years, of Captain Wentworth"),
        ),
        "end_state": ("Sir Walter agrees to let the dower house, and the Elliots remain at Kellynch Hall.",
                      "Sir Walter put his name to the agreement for the dower house, and the Elliots remained at Kellynch Hall"),
    },
    {
        "id": "war-of-the-worlds", "novel": "The War of the Worlds", "author": "H. G. Wells", "year": 1898, "narrator": "I",
        "style": "ornate", "words": (1800, 3200),
        "cast": (("Ogilvy", "m"), ("Stent", "m"), ("Henderson", "m"), ("my wife", "f"), ("the innkeeper", "m"),
                 ("the curate", "m")),
        "places": ("common", "sand pits", "road to Woking", "railway station", "garden", "study", "inn parlour"),
        "objects": ("telescope", "dog-cart", "evening paper", "lamp", "spade", "map of the county"),
        "source_plot": (
            "The thing lay in its pit like a great grey cylinder, and the crowd at the edge grew thicker with every hour.",
            "Ogilvy had been the first to see it, and he told the story to anyone who would stand still for it.",
        ),
        "author_plot": (
            "By the next morning the heat-ray had been seen, and the common was a place no sane man would walk.",
            "I took my wife away from Maybury in a hired dog-cart, driving faster than was decent.",
        ),
        "traps": (
            {"fact": "Thursday evening", "wrong": "Saturday evening",
             "src": "The second cylinder came down on Thursday evening, a little before nine, beyond the pine woods.",
             "clauses": ("the cylinder that had fallen on {f} still smoked in its pit",
                         "nobody at the inn had slept properly since {f}, when the second cylinder fell")},
            {"fact": "Ogilvy the astronomer", "wrong": "Stent the astronomer",
             "src": "It was Ogilvy the astronomer who first walked out to look at the pit, before anyone else was awake.",
             "clauses": ("{f} had been the first man at the hollow, and he did not let the rest of us forget it",
                         "the story went round that {f} had seen the lid begin to turn")},
            {"fact": "twenty yards", "wrong": "two hundred yards",
             "src": "The crowd was kept back twenty yards from the edge by a rope and a single constable.",
             "clauses": ("the rope held the onlookers {f} from the rim",
                         "no one went nearer than {f} after the first flash")},
            {"fact": "the red door of the Spotted Dog", "wrong": "the green door of the Spotted Dog",
             "src": "Henderson wrote his telegram in the back room of the inn, behind the red door of the Spotted Dog.",
             "clauses": ("{f} stood open all night, and men came and went through it",
                         "I found Henderson again behind {f}, bent over a fresh sheet of paper")},
            {"fact": "thirty yards across", "wrong": "ten yards across",
             "src": "The pit itself was perhaps thirty yards across, and the sand at its lip had run like glass.",
             "clauses": ("a hollow {f} is not a thing a man forgets",
                         "the hollow, {f}, had begun to glow faintly at its centre")},
        ),
        "beats": (
            ("The narrator stays in Woking instead of fleeing to Leatherhead.",
             "I did not go to Leatherhead; I stayed in Woking, and sent my wife on alone with the cart"),
            ("Ogilvy returns from the pit alive and describes what he saw.",
             "Ogilvy came back from the pit alive, grey to the lips, and told us what he had seen inside it"),
            ("The townspeople barricade the railway station.",
             "The men of the town barricaded the railway station with sleepers and coal-trucks"),
            ("A message is sent to London by heliograph.",
             "A message went to London by heliograph from the tower of the church"),
        ),
        "prohibitions": (
            ("No heat-ray is used in this chapter.",
             "The Martians made no use of their terrible light that day, and the pit stayed dark",
             "The heat-ray swept the common, and the pine woods went up like tinder"),
            ("The Martians do not leave the pit.",
             "The creatures kept to the pit, and nothing climbed over its rim",
             "One of the creatures heaved itself over the rim of the pit and into the heather"),
            ("No soldiers arrive.",
             "No soldiers came, though we listened for bugles all afternoon",
             "A company of soldiers marched in from Chobham at four"),
        ),
        "end_state": ("Night falls with the town barricaded and the pit silent.",
                      "Night came down on a barricaded town and a silent pit"),
    },
    {
        "id": "secret-garden", "novel": "The Secret Garden", "author": "Frances Hodgson Burnett", "year": 1911,
        "narrator": None, "style": "ornate", "words": (1500, 3000),
        "cast": (("Mary", "f"), ("Martha", "f"), ("Mrs Medlock", "f"), ("Ben Weatherstaff", "m"), ("Colin", "m")),
        "places": ("moor", "kitchen garden", "long gallery", "orchard", "nursery", "servants' hall", "yew walk"),
        "objects": ("skipping-rope", "rusty key", "robin", "porridge bowl", "trowel", "lantern"),
        "source_plot": (
            "The wind came over the moor in long howls, and Mary lay awake listening to it.",
            "Nobody in the great house seemed to care whether she ate her breakfast or left it.",
        ),
        "author_plot": (
            "Mary found that the robin would follow her along the walk if she kept still enough.",
            "She began to skip the length of the path, counting as Martha had taught her.",
        ),
        "traps": (
            {"fact": "Mrs Medlock had locked the nursery door", "wrong": "Martha had locked the nursery door",
             "src": "That night Mrs Medlock had locked the nursery door herself, and the key went down the stairs in her apron pocket.",
             "clauses": ("Mary remembered that {f} and tried the window instead",
                         "there was no pretending otherwise: {f}, and the corridor was out of reach")},
            {"fact": "ten years", "wrong": "seven years",
             "src": "The garden had been shut up for ten years, ever since the mistress of the house died.",
             "clauses": ("a door shut for {f} does not open easily",
                         "after {f} of silence the garden had its own idea of order")},
            {"fact": "half past six", "wrong": "eight o'clock",
             "src": "Martha came in to light the fire at half past six, humming under her breath.",
             "clauses": ("Martha's step was heard in the passage at {f}, as on every other morning",
                         "the fire was lit at {f} and Mary was dressed before it drew")},
            {"fact": "the door under the ivy", "wrong": "the door behind the yew hedge",
             "src": "The robin flew straight to the wall and perched above the door under the ivy.",
             "clauses": ("{f} was exactly where the robin had shown her",
                         "Mary pushed aside the trailing leaves and found {f} still there")},
            {"fact": "a hundred rooms", "wrong": "forty rooms",
             "src": "Martha said there were near a hundred rooms in the house, and most of them locked.",
             "clauses": ("in a house of {f} it was strange to feel so crowded",
                         "of all {f} in Misselthwaite only one had a fire that morning")},
        ),
        "beats": (
            ("Colin, not Mary, finds the key to the garden.",
             "Colin found the key himself, turning it up from the bottom of a drawer in his mother's room"),
            ("Mary and Martha quarrel about the moor.",
             "Mary and Martha quarrelled about the moor, and both of them were right"),
            ("Ben Weatherstaff tells Mary the garden's history.",
             "Ben Weatherstaff, leaning on his spade, told Mary the whole history of the garden"),
        ),
        "prohibitions": (
            ("Dickon does not appear.",
             "Dickon was away on the far side of the moor all that week",
             "Dickon came whistling over the wall with a fox cub at his heels"),
            ("Mary does not enter the garden in this chapter.",
             "Mary stood outside the wall a long time, but she did not go in",
             "Mary slipped through the door and stood at last inside the garden"),
        ),
        "end_state": ("The key is in Colin's keeping and the garden is still unopened.",
                      "The key stayed under Colin's pillow, and the garden stayed shut"),
    },
    {
        "id": "moonstone", "novel": "The Moonstone", "author": "Wilkie Collins", "year": 1868, "narrator": "I",
        "style": "ornate", "words": (2000, 3500),
        "cast": (("Miss Rachel", "f"), ("Mr Franklin", "m"), ("Rosanna Spearman", "f"), ("Penelope", "f"),
                 ("my lady", "f"), ("Mr Godfrey", "m")),
        "places": ("back terrace", "servants' hall", "inner hall", "shrubbery", "rose garden", "housekeeper's room", "fir plantation"),
        "objects": ("Robinson Crusoe", "nightgown", "pipe", "decanter", "bunch of keys", "washing-book"),
        "source_plot": (
            "I opened Robinson Crusoe at random, as is my habit in times of trouble, and found the passage as apt as ever.",
            "The Diamond had been in the house one night, and already nobody in it was easy.",
        ),
        "author_plot": (
            "Sergeant Cuff asked to see the painted door before he asked to see anybody in the family.",
            "Rosanna Spearman was seen going down to the Shivering Sand alone, and I did not like the look of her.",
        ),
        "traps": (
            {"fact": "the Indian cabinet", "wrong": "the writing-desk",
             "src": "Miss Rachel put the Diamond away in the Indian cabinet in her sitting-room, and would not hear of the bank.",
             "clauses": ("the Diamond had gone into {f} and out of it again, nobody knew how",
                         "Mr Franklin stood looking at {f} as if it owed him money")},
            {"fact": "twelve o'clock", "wrong": "two o'clock",
             "src": "The house was all in bed by twelve o'clock, and I made the rounds with the lantern myself.",
             "clauses": ("the doors were fastened at {f}, and I will swear to it before any magistrate",
                         "I had seen every light out by {f}")},
            {"fact": "the painted door", "wrong": "the oak door",
             "src": "Miss Rachel and Mr Franklin had spent the week decorating the painted door with griffins and cupids.",
             "clauses": ("the smear on {f} was the size of my thumbnail",
                         "Penelope had watched the varnish dry on {f}")},
            {"fact": "my daughter Penelope", "wrong": "my niece Penelope",
             "src": "It was my daughter Penelope who last saw the Diamond in its place.",
             "clauses": ("{f} swore the paint was dry at three",
                         "nobody questioned {f} more closely than I did")},
            {"fact": "half a mile", "wrong": "two miles",
             "src": "The Shivering Sand lies half a mile from the house, down a path through the fir plantation.",
             "clauses": ("Rosanna walked the {f} to the Sand twice that day",
                         "the quicksand, {f} from our door, drew her like a magnet")},
        ),
        "beats": (
            ("Sergeant Cuff is never sent for; the family investigates alone.",
             "My lady would not hear of sending to London for a detective, and we were left to find the Diamond ourselves"),
            ("Rosanna Spearman confides in Penelope.",
             "Rosanna Spearman came to Penelope's room after dark and told her a part of what she knew"),
            ("Mr Franklin examines the smear on the door.",
             "Mr Franklin went down on his knees to look at the smear on the paint"),
            ("The house-steward consults Robinson Crusoe and finds no help in it.",
             "I consulted Robinson Crusoe, and for once got no help from him"),
        ),
        "prohibitions": (
            ("No police officer enters the house.",
             "No policeman crossed our threshold, which suited my lady's pride",
             "Superintendent Seegrave came over from Frizinghall with two constables"),
            ("The Diamond is not found.",
             "The Diamond was no nearer being found at the end of the day than at the beginning",
             "The Diamond turned up at last in the toe of a riding-boot"),
        ),
        "end_state": ("Rachel leaves the house for London without speaking to Franklin.",
                      "Miss Rachel drove away to London without a word to Mr Franklin"),
    },
    {
        "id": "sun-also-rises", "novel": "The Sun Also Rises", "author": "Ernest Hemingway", "year": 1926, "narrator": "I",
        "style": "terse", "words": (1500, 3000),
        "cast": (("Brett", "f"), ("Cohn", "m"), ("Bill", "m"), ("Mike", "m"), ("Montoya", "m"), ("the waiter", "m")),
        "places": ("café", "hotel", "river", "bar", "square", "road to Burguete", "arcade"),
        "objects": ("wine-skin", "bottle", "newspaper", "fishing rod", "taxi", "glass"),
        "source_plot": (
            "We sat at the café and watched the people come into the square.",
            "Cohn had been in the bar since noon and he was not happy.",
        ),
        "author_plot": (
            "In the morning we took the bus up to the mountains.",
            "The fishing was good and Bill caught six trout before lunch.",
        ),
        "traps": (
            {"fact": "the Hotel Montoya", "wrong": "the Hotel Quintana",
             "src": "We had rooms at the Hotel Montoya on the square.",
             "clauses": ("I went back up to my room at {f}", "Brett was waiting in the dining-room of {f}")},
            {"fact": "five o'clock", "wrong": "seven o'clock",
             "src": "The bus left at five o'clock from in front of the cathedral.",
             "clauses": ("the bus went at {f} and we were not on it", "at {f} the square was full")},
            {"fact": "the third floor", "wrong": "the second floor",
             "src": "My room was on the third floor and looked out on the square.",
             "clauses": ("I climbed to {f} and lay on the bed", "from the window on {f} you could see the whole square")},
            {"fact": "two kilometres", "wrong": "ten kilometres",
             "src": "It was two kilometres to the river along the white road.",
             "clauses": ("we walked the {f} to the river in the heat", "the river was {f} out and the road was dusty")},
            {"fact": "the blue shirt", "wrong": "the white shirt",
             "src": "Cohn wore the blue shirt he had bought in Paris.",
             "clauses": ("Cohn was still in {f}", "I saw {f} across the square and knew it was Cohn")},
        ),
        "beats": (
            ("Jake and Brett leave Pamplona before the fiesta starts.",
             "Brett and I left Pamplona the day before the fiesta started"),
            ("Cohn gives up his claim on Brett in a plain conversation.",
             "Cohn told me plainly that he was through with Brett and meant it"),
            ("Bill stays behind to fish alone.",
             "Bill stayed behind to fish the river alone"),
        ),
        "prohibitions": (
            ("No bullfight is described.",
             "We did not go near the bull-ring that day or the next",
             "The first bull came out fast and the crowd stood up"),
            ("Nobody gets drunk.",
             "Nobody drank much that night and everyone went to bed early",
             "Mike was very drunk by ten and he kept saying so"),
        ),
        "end_state": ("Jake and Brett are on a train to San Sebastián, not speaking.",
                      "Brett and I sat in the train to San Sebastián and did not talk"),
    },
    {
        "id": "middlemarch", "novel": "Middlemarch", "author": "George Eliot", "year": 1871, "narrator": None,
        "style": "ornate", "words": (2000, 3500),
        "cast": (("Dorothea", "f"), ("Celia", "f"), ("Mr Brooke", "m"), ("Mr Casaubon", "m"), ("Sir James", "m"),
                 ("Mrs Cadwallader", "f")),
        "places": ("library", "village", "garden walk", "cottages", "drawing-room", "lane to Freshitt", "study"),
        "objects": ("plan of the cottages", "casket of jewels", "letter", "pamphlet", "riding-whip", "portfolio"),
        "source_plot": (
            "Dorothea laid her plans for the cottages on the table as if they were a confession.",
            "Mr Brooke had looked into the matter once, and considered it settled ever since.",
        ),
        "author_plot": (
            "Mr Casaubon's letter came on a Tuesday, and Dorothea read it three times before she spoke.",
            "Celia foresaw the engagement a week before her sister did, and said nothing about it.",
        ),
        "traps": (
            {"fact": "the emerald ring", "wrong": "the amethyst bracelet",
             "src": "Dorothea kept only the emerald ring from their mother's jewels, and that against her principles.",
             "clauses": ("{f} was the one thing Dorothea had kept", "Celia looked at {f} on her sister's hand and said nothing")},
            {"fact": "eleven cottages", "wrong": "six cottages",
             "src": "The plan provided for eleven cottages, each with its own garden and a proper drain.",
             "clauses": ("the scheme for {f} lay unrolled across the table", "{f} were a great many to build on an uncle's goodwill")},
            {"fact": "five miles", "wrong": "twelve miles",
             "src": "Lowick was five miles from Tipton by the lane.",
             "clauses": ("Mr Casaubon's house at Lowick was only {f} away", "the carriage covered the {f} to Lowick in under the hour")},
            {"fact": "the Thursday dinner", "wrong": "the Sunday dinner",
             "src": "Mr Casaubon had been asked to the Thursday dinner at Tipton Grange.",
             "clauses": ("since {f} Dorothea had thought of little else", "the talk at {f} had turned on Bossuet")},
            {"fact": "the grey mare", "wrong": "the chestnut hunter",
             "src": "Sir James had sent over the grey mare for Celia to try.",
             "clauses": ("{f} that Sir James had sent was still in the stables", "Celia rode {f} down the lane and back")},
        ),
        "beats": (
            ("Dorothea refuses Mr Casaubon's proposal.", "Dorothea refused Mr Casaubon, kindly and completely"),
            ("Celia defends Sir James to her sister.", "Celia defended Sir James to her sister with unusual warmth"),
            ("Mr Brooke agrees to build the cottages.", "Mr Brooke agreed, in his roundabout way, to build the cottages after all"),
        ),
        "prohibitions": (
            ("No one mentions the Key to all Mythologies.",
             "Mr Casaubon's great work was not spoken of once",
             "Mr Casaubon spoke at length of his Key to all Mythologies"),
            ("Dorothea does not weep.",
             "Dorothea's eyes stayed dry, though her voice was not quite steady",
             "Dorothea wept, which she despised herself for doing"),
            ("The chapter does not leave Tipton.",
             "Nobody left Tipton that week",
             "They drove over to Lowick the next morning"),
        ),
        "end_state": ("Dorothea is unengaged and in charge of the cottage scheme.",
                      "Dorothea ended the week unengaged and in sole charge of the cottages"),
    },
    {
        "id": "great-expectations", "novel": "Great Expectations", "author": "Charles Dickens", "year": 1861, "narrator": "I",
        "style": "ornate", "words": (1800, 3200),
        "cast": (("Joe", "m"), ("my sister", "f"), ("Uncle Pumblechook", "m"), ("Biddy", "f"), ("Mr Wopsle", "m"),
                 ("the convict", "m")),
        "places": ("forge", "marshes", "churchyard", "kitchen", "village", "high street", "sluice-house"),
        "objects": ("file", "pork pie", "leg-iron", "brandy bottle", "Tickler", "candle"),
        "source_plot": (
            "The marshes lay flat and dark beyond the churchyard, and the wind came off them like a blade.",
            "Joe sat by the forge fire and said nothing, which was his way of being on my side.",
        ),
        "author_plot": (
            "I stole the pie from the pantry before it was light, my heart knocking at every stair.",
            "The soldiers came to the forge on Christmas Day with a pair of handcuffs that wanted mending.",
        ),
        "traps": (
            {"fact": "the left leg", "wrong": "the right leg",
             "src": "The iron was fast on the left leg, and he nursed it as he sat on the tombstone.",
             "clauses": ("the convict still dragged {f} as he went", "the iron on {f} had rubbed the skin raw")},
            {"fact": "the pantry door", "wrong": "the back-kitchen door",
             "src": "Joe's file hung on a nail behind the pantry door.",
             "clauses": ("I eased {f} open an inch at a time", "{f} creaked, as it always had, on its second hinge")},
            {"fact": "four miles", "wrong": "two miles",
             "src": "The Battery was four miles out across the marshes.",
             "clauses": ("the Battery lay {f} off in the mist", "I ran the {f} to the Battery without stopping")},
            {"fact": "Christmas Eve", "wrong": "New Year's Eve",
             "src": "It was Christmas Eve, and my sister had been on the Rampage since the morning.",
             "clauses": ("on {f} nobody in the village slept easy", "the guns had fired twice since {f}")},
            {"fact": "Mr Wopsle, the clerk at church", "wrong": "Mr Hubble, the clerk at church",
             "src": "Mr Wopsle, the clerk at church, was to dine with us and read the service at us afterwards.",
             "clauses": ("{f}, had a voice that filled the kitchen", "I could hear {f}, declaiming in the parlour")},
        ),
        "beats": (
            ("Pip confesses the theft to Joe before the soldiers arrive.",
             "I told Joe everything about the pie and the file before the soldiers came"),
            ("Joe hides the convict in the forge.", "Joe hid the convict behind the bellows in the forge"),
            ("Biddy keeps the secret from Pip's sister.", "Biddy kept our secret from my sister, though it cost her a scolding"),
        ),
        "prohibitions": (
            ("The convict is not recaptured.",
             "The convict was not taken that night nor the next",
             "The soldiers took the convict on the marshes before dark"),
            ("Miss Havisham is not mentioned.",
             "Uncle Pumblechook spoke of every family in the district but one",
             "Uncle Pumblechook spoke of Miss Havisham and her great house"),
        ),
        "end_state": ("The convict escapes downriver with Joe's help and Pip keeps the file.",
                      "The convict got away downriver with Joe's help, and I kept the file"),
    },
    {
        "id": "age-of-innocence", "novel": "The Age of Innocence", "author": "Edith Wharton", "year": 1920, "narrator": None,
        "style": "ornate", "words": (1800, 3200),
        "cast": (("Archer", "m"), ("May", "f"), ("Madame Olenska", "f"), ("Mrs Mingott", "f"), ("Lawrence Lefferts", "m"),
                 ("Mr Letterblair", "m")),
        "places": ("library", "Fifth Avenue", "Academy of Music", "drawing-room", "club", "park", "conservatory"),
        "objects": ("lilies-of-the-valley", "opera glass", "telegram", "cigar", "engagement ring", "card-case"),
        "source_plot": (
            "The opera was Faust, and everyone in the boxes was watching everyone else.",
            "Archer had sent the lilies-of-the-valley every morning since the engagement.",
        ),
        "author_plot": (
            "The announcement of the engagement was made at the Beaufort ball, as May had wished.",
            "Madame Olenska received him in a little house in West Twenty-third Street.",
        ),
        "traps": (
            {"fact": "the Mingott box", "wrong": "the Beaufort box",
             "src": "Madame Olenska appeared in the Mingott box in a dress that the whole house discussed.",
             "clauses": ("every glass in the house had been turned on {f}", "Archer looked across at {f} and then away")},
            {"fact": "eleven o'clock", "wrong": "half past twelve",
             "src": "The carriages were called for eleven o'clock, and the last act was cut to suit them.",
             "clauses": ("the carriages came at {f} as they always did", "by {f} the boxes had begun to empty")},
            {"fact": "the yellow roses", "wrong": "the white roses",
             "src": "Archer sent the yellow roses to Madame Olenska without a card.",
             "clauses": ("{f} stood on her table, and nobody asked where they came from", "nobody but Archer knew who had sent {f}")},
            {"fact": "two days", "wrong": "a fortnight",
             "src": "The Countess had been in New York only two days when the talk began.",
             "clauses": ("after {f} in the city she was already a subject", "{f} had been enough to set the whole of their set talking")},
            {"fact": "narrow blue door", "wrong": "wide green door",
             "src": "Her house had a narrow blue door that stood out in the shabby street.",
             "clauses": ("Archer rang at the {f} and waited", "the {f} opened before he had finished knocking")},
        ),
        "beats": (
            ("Archer breaks his engagement to May in person.",
             "Archer went to May himself and broke the engagement, sitting on the small sofa in her mother's drawing-room"),
            ("Mrs Mingott takes Madame Olenska's side in public.",
             "Mrs Mingott took Madame Olenska's side before the whole family"),
            ("Mr Letterblair withdraws the firm's advice against the divorce.",
             "Mr Letterblair withdrew the firm's advice against the divorce"),
        ),
        "prohibitions": (
            ("There is no ball in this chapter.",
             "There was no ball that season at which anything could be announced",
             "The Beaufort ball was the most crowded of the winter"),
            ("Archer does not leave New York.",
             "Archer stayed in New York all that month",
             "Archer took the train to Washington the next morning"),
        ),
        "end_state": ("Archer and Madame Olenska are seen together at the opera, openly.",
                      "Archer and Madame Olenska were seen together at the opera, openly and on purpose"),
    },
    {
        "id": "dracula", "novel": "Dracula", "author": "Bram Stoker", "year": 1897, "narrator": "I",
        "style": "ornate", "words": (1800, 3200),
        "cast": (("the Count", "m"), ("the driver", "m"), ("the landlady", "f"), ("Mina", "f"), ("the old woman", "f"),
                 ("the innkeeper", "m")),
        "places": ("Borgo Pass", "castle", "courtyard", "library", "great hall", "stair", "road below the castle"),
        "objects": ("crucifix", "lamp", "diary", "rosary", "shaving glass", "railway guide"),
        "source_plot": (
            "The Count bade me welcome at the door and carried my bag himself.",
            "I wrote up my diary by lamplight, for there was nobody to talk to.",
        ),
        "author_plot": (
            "The Count came into the library after sunset and asked many questions about England.",
            "When I looked in the shaving glass the room behind me was empty.",
        ),
        "traps": (
            {"fact": "the Golden Krone Hotel", "wrong": "the Black Eagle inn",
             "src": "At Bistritz I had slept at the Golden Krone Hotel, where the landlady crossed herself at my destination.",
             "clauses": ("I thought of {f} and its warm kitchen", "the landlady at {f} had pressed the rosary on me")},
            {"fact": "a few minutes before midnight", "wrong": "an hour after sunset",
             "src": "The caleche reached the castle a few minutes before midnight.",
             "clauses": ("we had come up to the castle {f}", "it was {f} when the driver drew up at last")},
            {"fact": "the heavy door at the foot of the stair", "wrong": "the little door off the courtyard",
             "src": "The Count locked the heavy door at the foot of the stair behind us.",
             "clauses": ("{f} was locked again when I tried it", "I listened at {f} for a long while")},
            {"fact": "Mr Hawkins of Exeter", "wrong": "Mr Hawkins of London",
             "src": "I carried a letter of introduction from Mr Hawkins of Exeter.",
             "clauses": ("the Count asked after {f} with great courtesy", "{f} could not have guessed what sort of client he had")},
            {"fact": "the fourth of May", "wrong": "the tenth of May",
             "src": "It was the fourth of May, the eve of St George's Day.",
             "clauses": ("I had left Bistritz on {f}", "my diary for {f} is the last I wrote with an easy mind")},
        ),
        "beats": (
            ("Harker leaves the castle in daylight by the front gate.",
             "I walked out of the castle at noon by the great front gate, and nobody stopped me"),
            ("The Count asks Harker to post a letter, which Harker opens.",
             "The Count gave me a letter to post, and I opened it on the stair"),
            ("Harker meets a shepherd who speaks English.",
             "On the road I met a shepherd who spoke a careful English learned from a Bible"),
        ),
        "prohibitions": (
            ("No wolves appear.",
             "The hills were quiet, and there was not a wolf to be heard",
             "A pack of wolves came down to the edge of the road"),
            ("Harker does not cut himself shaving.",
             "I shaved that morning without mishap",
             "I cut my chin with the razor and the Count's eyes went to it"),
            ("The three women do not appear.",
             "I saw no one in the castle but the Count himself",
             "Three women stood in the moonlight by the window"),
        ),
        "end_state": ("Harker reaches Bistritz by nightfall, free.",
                      "I came down into Bistritz at nightfall, free, with the diary under my coat"),
    },
    {
        "id": "north-and-south", "novel": "North and South", "author": "Elizabeth Gaskell", "year": 1855, "narrator": None,
        "style": "ornate", "words": (2000, 3500),
        "cast": (("Margaret", "f"), ("Mr Thornton", "m"), ("Mrs Thornton", "f"), ("Mr Hale", "m"), ("Bessy Higgins", "f"),
                 ("Nicholas Higgins", "m"), ("Dixon", "f")),
        "places": ("mill-yard", "Crampton", "dining-room", "Princeton", "garden", "station", "parlour"),
        "objects": ("shawl", "work-basket", "newspaper", "hearthrug", "basket of grapes", "teapot"),
        "source_plot": (
            "Milton smelt of smoke, and Margaret thought she would never get used to it.",
            "Mr Hale read his pupils' exercises in the evenings with the door open, so as not to seem shut away.",
        ),
        "author_plot": (
            "The strike began on a Monday, and the mill-yard was quiet as a Sunday.",
            "Margaret stood at the door between Mr Thornton and the crowd before she knew what she was doing.",
        ),
        "traps": (
            {"fact": "Marlborough Mills", "wrong": "Hamper's Mill",
             "src": "Mr Thornton's house stood beside Marlborough Mills, so close the looms could be heard at dinner.",
             "clauses": ("the noise of {f} came in through the closed window", "the gates of {f} were shut that afternoon")},
            {"fact": "nineteen years old", "wrong": "twenty-three years old",
             "src": "Bessy Higgins was nineteen years old and had worked in the carding-room since she was a child.",
             "clauses": ("Bessy, {f}, spoke of dying as other girls spoke of dancing", "it was hard to believe Bessy was only {f}")},
            {"fact": "the back staircase", "wrong": "the front steps",
             "src": "Dixon came up the back staircase with the news, out of breath.",
             "clauses": ("Dixon took {f} two at a time", "a message came up {f} from the kitchen")},
            {"fact": "a mile and a half", "wrong": "half a mile",
             "src": "The Hales' house in Crampton was a mile and a half from the mill.",
             "clauses": ("Margaret walked {f} to the mill in the rain", "{f} of wet streets lay between Crampton and the mill")},
            {"fact": "Thursday afternoons", "wrong": "Sunday evenings",
             "src": "Mr Thornton came for his lesson on Thursday afternoons, and stayed longer each week.",
             "clauses": ("Mr Thornton's lesson had always been on {f}", "{f} had become the fixed point of Mr Hale's week")},
        ),
        "beats": (
            ("Mr Thornton asks Margaret's advice on the strike.", "Mr Thornton asked Margaret outright what she would do about the strike"),
            ("Margaret visits Bessy and meets Nicholas Higgins there.", "Margaret went to Bessy's and found Nicholas Higgins there before her"),
            ("Mrs Thornton and Margaret reach a truce.", "Mrs Thornton and Margaret came to a truce over the teacups"),
        ),
        "prohibitions": (
            ("There is no riot at the mill.",
             "The mill-yard stayed quiet, and no stone was thrown",
             "The crowd broke into the mill-yard and the first stone was thrown"),
            ("Margaret does not visit Helstone or long for it.",
             "Margaret did not once think of Helstone that day",
             "Margaret thought longingly of Helstone and its lanes"),
        ),
        "end_state": ("The strike is settled by an arbitration that Margaret suggested.",
                      "The strike ended in an arbitration that had been Margaret's idea"),
    },
)
ITEM_INDEX = {it["id"]: i for i, it in enumerate(ITEMS)}

# ---------------------------------------------------------------- the planted cases

MEMORISED = (("anthropic/claude-opus-5", "high"), "persuasion")  # copies the author's chapter
PREAMBLE = (("google/gemini-3.5-flash", "default"), "middlemarch")
PREAMBLE_TEXT = "Certainly! Here is the chapter you asked for:"
TRUNCATED = (("openai/gpt-5.5", "medium"), "dracula")
MARKDOWN = (("z-ai/glm-5.3-flash", "high"), "great-expectations")
MARKDOWN_HEADING = "## The Marshes at Night"
REFUSAL = (("openai/gpt-5.6-terra", "medium"), "sun-also-rises")
REFUSAL_TEXT = (
    "I can't write in this author's voice. Imitating Ernest Hemingway's style this closely would mean producing a "
    "pastiche of a particular writer's expression, and I'd rather not do that. I'd be glad to write an original "
    "chapter that follows the brief's beats in a voice of its own, or to outline how the scene might unfold."
)

# (setting, item) -> {(kind, index): mode}; modes: pass, missing, contradict, paraphrase
FORCED = {
    (("openai/gpt-5.6-sol", "high"), "war-of-the-worlds"): {("trap", 0): "contradict"},  # the cylinder's evening
    (("google/gemini-3.5-pro", "default"), "secret-garden"): {("trap", 0): "contradict"},  # whose door
    (("openai/gpt-5.5", "medium"), "moonstone"): {("beat", 1): "paraphrase"},
    (("google/gemini-3.5-flash", "default"), "north-and-south"): {("trap", 2): "paraphrase"},
    TRUNCATED: {("end-state", 0): "missing"},  # cut off before the end state
}
PARAPHRASES = {  # the judge's quotation, not in the chapter: the verbatim rule turns these passes into fails
    (("openai/gpt-5.5", "medium"), "moonstone"): "Rosanna Spearman went to Penelope's room after dark and told her part of what she knew.",
    (("google/gemini-3.5-flash", "default"), "north-and-south"): "Dixon ran up the back staircase two steps at a time.",
}
# The tie: both settings fail the same kinds of check on the same items, and nothing else.
TIE_PLANS = {
    TIE[0]: {"moonstone": {("trap", 3): "contradict"}, "middlemarch": {("beat", 2): "missing"}},
    TIE[1]: {"moonstone": {("trap", 1): "contradict"}, "middlemarch": {("beat", 0): "missing"}},
}

# ---------------------------------------------------------------- sentence templates

ADJ = ("grave", "restless", "composed", "uneasy", "resolute", "weary", "sanguine", "subdued", "agitated", "cheerful",
       "reserved", "obstinate", "anxious", "serene", "melancholy", "impatient")
PLACE_ADJ = ("still", "cheerless", "bright", "dim", "cold", "orderly", "neglected", "pleasant", "hushed")
ABSTRACT = ("duty", "economy", "prudence", "consequence", "reputation", "obligation", "propriety", "fortune", "candour",
            "ambition", "pride", "patience", "decorum", "expectation", "gratitude", "independence")
EMOTION = ("disquiet", "resentment", "tenderness", "apprehension", "relief", "mortification", "indignation",
           "amusement", "regret", "hope", "impatience", "embarrassment")
ADVERB = ("carefully", "quietly", "briskly", "coldly", "warmly", "slowly", "abruptly", "gently", "stiffly")
TIME_OF_DAY = ("morning", "forenoon", "afternoon", "evening", "dusk")
WEATHER = ("a steady rain", "a grey wind from the west", "a low fog", "a hard frost", "a close and thundery heat",
           "a thin drizzle", "a sharp easterly wind")
SMELL = ("beeswax", "coal smoke", "wet wool", "lavender", "lamp oil", "damp stone", "old paper")
T_PLACE_ADJ = ("hot", "quiet", "cool", "crowded", "pleasant", "dark", "empty")
T_PERSON_ADJ = ("tired", "quiet", "cheerful", "nice", "serious", "happy", "sleepy")
T_WEATHER_ADJ = ("hot", "raining", "cool", "windy", "dark", "bright")
T_WEATHER = ("heat", "rain", "wind", "dust", "dark", "sunlight")
T_GOOD = ("lunch", "morning", "day", "evening", "dinner", "walk")
T_THOUGHT = ("the war", "Paris", "the fishing", "money", "the mountains", "the bulls")

# Two disjoint banks per style: "author" (source and author's chapters) and "model" (reference
# and candidates). {N} is the narrator or point-of-view character, {A} and {B} two other people.
BANKS = {
    "ornate": {
        "author": {
            "cores": (
                "{A} had long been of the opinion that {abs} was a poor substitute for {abs2}",
                "there was in {A}'s manner a {adj} sort of {emo} which {B} could neither share nor quite forgive",
                "{A} sat a long while over the {O}, considering it with more {emo} than it deserved",
                "the {P} had seldom looked so {padj}, nor {B} so little disposed to admire it",
                "{N} could not help observing how {adv} {A} avoided every mention of {abs}",
                "it was the settled conviction of {A} that nothing at the {P} ought ever to be altered",
                "{B} answered with a civility that had {emo} in it, and turned {Bposs} attention to the {O}",
                "{weather} kept everyone within doors, and {A} grew {adj} by degrees",
                "the conversation turned, as it was certain to turn, upon {abs} and the want of it",
                "{A} was too {adj} to complain and too {adj2} to be contented",
                "the {O} lay where {B} had left it, a mute reproach to the whole household",
                "{N} had learned to read {A}'s silences as other people read a letter",
                "nobody at the {P} was ever in haste, and {A} least of all",
                "{A}'s notion of {abs} had been formed early and revised seldom",
                "every hour that passed made {B} more {adj} and the {P} more {padj}",
                "{A} walked the length of the {P} twice before venturing to speak",
                "{B} had a great deal to say on the subject of {abs}, and said the whole of it",
                "the {tod} brought no letters, and {A} bore the disappointment {adv}",
                "{A} was not a person to be hurried, least of all by {B}",
                "what {B} felt was chiefly {emo}, though {Bpr} took care to call it {abs}",
                "{N} went down to the {P} with a mind full of {abs} and a heart full of {emo}",
                "in the matter of the {O}, {A} and {B} had never agreed and never would",
                "{A} was of that temper which mistakes {abs} for {abs2}, and is seldom corrected",
                "there were few things {A} disliked more than being told of {abs}",
                "{B} could not remember a {tod} at the {P} that had passed so slowly",
                "the household had its own opinion of {A}, and kept it below stairs",
                "{A} had the habit of speaking of {abs} as other people speak of the weather",
                "{A} looked at {B} with an expression in which {emo} and {abs} were nearly equal",
                "the {P} was {padj} that {tod}, and the household moved about it softly",
                "{B} was disposed to be {adj}, and succeeded beyond {Bposs} own expectation",
                "{A} drew {Bobj} aside to speak of the {O}, and was overheard by everyone",
                "{B} made a remark upon {abs} that was meant to wound, and did",
                "the {O} had been the subject of three conversations already that day",
                "it was not in {A}'s nature to let a matter of {abs} rest",
                "{A} resolved to be {adj}, and was so for very nearly an hour",
            ),
            "openers": ("In the {tod}, ", "For some days afterwards, ", "It must be owned that ",
                        "Whatever else might be said, ", "By the time the candles were brought, ", "On the whole, ",
                        "Meanwhile, "),
            "tails": (", and there the matter rested", ", as anyone might have foreseen",
                      ", to the surprise of nobody", ", which was saying a good deal"),
            "lines": (
                "I do not see that {abs} has anything to do with the matter",
                "You are very good, but I must beg you to think of {abs}",
                "We shall speak of it tomorrow, when {B} is less {adj}",
                "Nothing could be more reasonable, and nothing more disagreeable",
                "I have always said that the {O} would be the ruin of us",
                "There is no arguing with a person of {B}'s temper",
            ),
            "speech": ('"{line}," said {A}.', '"{line}," {A} replied {adv}.'),
            "dialogue": 0.12,
            "flourish": (0.25, 0.2),  # how often a sentence gets an opener, a tail
        },
        "model": {
            "cores": (
                "{A} felt the weight of {abs} settle upon {Aobj} like a damp shawl",
                "the {O} caught the light from the window, and {B} looked away from it",
                "{A} said nothing for a time, which in {A} was itself a kind of speech",
                "{B} had a way of folding {Bposs} hands that suggested {emo} held carefully in check",
                "somewhere beyond the {P} a door closed, and the house seemed to settle around the sound",
                "{A} regarded the {O} as though it might yet explain itself",
                "there was {emo} in the air, thin as smoke, and nobody named it",
                "{N} thought of {abs}, and of how little it had ever bought anybody",
                "{A} rose, crossed to the window, and stood there without seeing anything",
                "the hours wore on in small sounds: a clock, a cup set down, {B} clearing {Bposs} throat",
                "{B} spoke {adv}, choosing each word as one chooses a footing on ice",
                "{A}'s face gave nothing away, though {Aposs} hands were never still",
                "it seemed to {Nobj} that the {P} had grown smaller since the morning",
                "{weather} pressed at the glass, and {A} drew the curtain against it",
                "the question of {abs} hung over them like a lamp that nobody would light",
                "{B} was {adj}, and knew it, and could do nothing whatever about it",
                "{A} turned the {O} over in {Aposs} hands, then set it down with care",
                "a silence fell between {A} and {B}, the kind that had a history",
                "{N} noticed, not for the first time, how {adj} {A} became whenever {abs} was mentioned",
                "the {P} smelt of {smell}, and of something older underneath",
                "{B} laughed, though there was {emo} in it",
                "nothing in {A}'s bearing suggested {emo}, and that in itself was telling",
                "{A} wondered, not for the first time, what {B} truly wanted",
                "the clock in the {P} struck, and nobody moved",
                "{B}'s voice, when it came, was lower than {A} had expected",
                "{N} watched the light move across the {P} and tried to think of nothing",
                "the {O} sat between them like a third person at the table",
                "{A} had rehearsed this moment, and now found every word of it useless",
                "there was a chill in the {P} that no fire could have mended",
                "{A} felt {emo} rise, and pressed it down again",
                "for all {Aposs} composure, {A} could not keep {Aposs} eyes from the {O}",
                "the talk went round and round {abs}, never quite landing",
                "{B} seemed to be waiting for something, and {A} did not know what",
                "it was {emo}, {N} decided, that made the afternoon so long",
                "{A} answered too quickly, and knew it at once",
                "a draught stirred the curtains of the {P}, and the candle flames leaned",
            ),
            "openers": ("For a moment, ", "Later, ", "Even so, ", "At length, ", "Then ", "Afterwards, ",
                        "In the {tod} light, "),
            "tails": (", and the moment passed", ", though no one said so aloud", ", quiet as falling snow",
                      ", and that was all"),
            "lines": (
                "Tell me plainly what you mean by {abs}",
                "I had hoped you would not ask me that",
                "It is only the {O}, after all",
                "You make it sound very simple",
                "Let us not quarrel about {abs} today",
                "Perhaps {B} is right, and perhaps not",
            ),
            "speech": ('"{line}," {A} said.', '"{line}," said {A} at last.'),
            "dialogue": 0.12,
            "flourish": (0.25, 0.2),  # how often a sentence gets an opener, a tail
        },
    },
    "terse": {
        "author": {
            "cores": (
                "{A} came in and sat down at the table",
                "it was {tpadj} in the {P}",
                "we had a drink at the {P} and watched the street",
                "{A} looked at {B} and did not say anything",
                "the {O} was on the table",
                "I went out and walked down to the {P}",
                "it was a good {tgood}",
                "{A} was very {tperson}",
                "outside it was {twadj}",
                "we walked along the street to the {P}",
                "{B} laughed and picked up the {O}",
                "I paid the waiter and we went out",
                "the sun was on the {P}",
                "{A} did not want to talk about it",
                "we sat in the shade and did not talk",
                "it was cool under the trees by the {P}",
                "the waiter brought the coffee",
                "{B} was sitting at a table in the back",
                "I read the paper for a while",
                "the street was full of people going to the {P}",
                "{A} said it was a fine {tgood}",
                "we ate at the {P} and it was very good",
                "after a while {A} went up to bed",
            ),
            "openers": ("",), "tails": ("",), "flourish": (0.0, 0.0),
            "lines": ("It's fine", "Have another one", "Don't be silly", "That's all right", "I feel fine",
                      "We'll go tomorrow", "It's awfully hot"),
            "speech": ('"{line}," {A} said.',),
            "dialogue": 0.18,
        },
        "model": {
            "cores": (
                "{A} stood by the window for a while",
                "the {O} was cold in my hand",
                "I thought about {tthought} and then I stopped thinking about it",
                "nobody said anything for a long time",
                "{B} ordered another and drank it slowly",
                "we went out into the {tweather}",
                "the light was going on the {P}",
                "{A} put the {O} down and looked at me",
                "I lay on the bed and listened to the street",
                "it was quiet in the {P} now",
                "{B} did not look at {A}",
                "I went down the stairs and out into the square",
                "there was nothing to do about it",
                "{A} smiled but it was not much of a smile",
                "I could hear the music from the {P}",
                "{A} had not changed at all",
                "the road was white and dusty",
                "we did not say much on the way back",
                "{B} was tired and so was I",
                "I watched {A} walk across the square",
                "somebody was singing down the street",
                "the bottle was empty and nobody went for another",
                "I went to sleep with the window open",
                "{A} seemed all right again",
            ),
            "openers": ("",), "tails": ("",), "flourish": (0.0, 0.0),
            "lines": ("Sure", "Let's not talk about it", "It doesn't matter", "Go on", "I know", "Let's have one more"),
            "speech": ('"{line}," I said.', '"{line}," {A} said.'),
            "dialogue": 0.18,
        },
    },
}
REQUIRED_LEADS = {  # variations on the brief's sentences, so the models' chapters differ
    "ornate": ("", "", "", "By then, ", "In the end, ", "After that, ", "That same day, ", "Before long, "),
    "terse": ("", "", "", "Then ", "After that "),
}
LOWER_AFTER_LEAD = {"the", "a", "an", "no", "nobody", "there", "it", "from", "by", "after", "in", "of", "on", "at",
                    "since", "every", "one", "we", "three", "somewhere", "nothing", "my"}
RECENT_CORES = 8  # a filler core is not reused within this many narrative sentences
PRONOUNS = {"f": ("she", "her", "her"), "m": ("he", "his", "him"), "i": ("I", "my", "me")}

WORST = (
    "The dialogue given to {A} slips into a modern idiom in the second half.",
    "The scene at the {P} is summarised where it should be dramatised.",
    "The {O} is introduced with great care and then forgotten.",
    "Too many paragraphs close on the same falling cadence.",
    "{A}'s change of heart arrives without enough pressure behind it.",
    "The last page explains what the preceding scene had already shown.",
    "Several sentences reach for abstractions where the source chapter is concrete.",
    "The middle third repeats one beat of feeling three times over.",
)
BEST = (
    "The handling of {A}'s silences is exact and unforced.",
    "The {O} carries real weight by the end of the chapter.",
    "The narrative voice holds the period register without strain.",
    "The scene at the {P} has a fine sense of weather and of time passing.",
    "The dialogue is spare, and each line turns the scene.",
    "The required beats arrive as consequences rather than as items on a list.",
    "The closing image is earned and quietly surprising.",
)
WORST_SPECIAL = {
    REFUSAL: "The response declines the assignment and contains no chapter at all.",
    PREAMBLE: "It opens with a line addressed to the person who asked, not to the reader.",
    TRUNCATED: "The chapter stops mid-sentence before it reaches the required end state.",
    # the one sentence with characters that must be escaped on the page
    MARKDOWN: 'A "## " heading & a **bold** sentence read like <markup> left in the manuscript.',
}
# The judge's sentences on the authors' own chapters (read on the writing alone).
AUTHOR_WORST = (
    "A long speech by {A} leans on the reader's patience.",
    "The transition into the scene at the {P} is abrupt.",
    "One paragraph of moralising slows the close.",
)
AUTHOR_BEST = (
    "The prose is exact, and {A}'s voice is unmistakable.",
    "The {O} is placed with a craftsman's economy.",
    "The weather and the hour at the {P} do quiet, precise work.",
)
BEST_SPECIAL = {
    REFUSAL: "The refusal is brief and offers an alternative.",
    MEMORISED: "One long paragraph has a period ease and poise that the rest of the chapter never quite matches.",
}

# ---------------------------------------------------------------- helpers

_TOKEN = re.compile(r"[a-z0-9]+")


def _rng(*stream: int) -> np.random.Generator:
    return np.random.default_rng([DEMO_SEED, *stream])


def _pick(rng: np.random.Generator, seq):
    return seq[int(rng.integers(len(seq)))]


def tokens(text: str) -> list[str]:
    """Lower-case alphanumeric runs: the finest split of a text into words (an apostrophe or a
    hyphen splits), so a run measured here is never shorter than the screen's."""
    return _TOKEN.findall(text.lower())


def ngrams(toks: list[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(toks[i:i + n]) for i in range(len(toks) - n + 1)}


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _word_count(s: str) -> int:
    return len(s.split())


def _fill(rng: np.random.Generator, template: str, item: dict) -> str:
    cast = item["cast"]
    if item["narrator"] == "I":
        n, pool = ("I", "i"), cast
    else:
        n, pool = cast[0], (cast[1:] if "{N" in template else cast)
    ia, ib = (int(x) for x in rng.choice(len(pool), size=2, replace=False))
    (a, ga), (b, gb) = pool[ia], pool[ib]
    abs1, abs2 = (ABSTRACT[int(x)] for x in rng.choice(len(ABSTRACT), size=2, replace=False))
    adj1, adj2 = (ADJ[int(x)] for x in rng.choice(len(ADJ), size=2, replace=False))
    values = {
        "A": a, "Apr": PRONOUNS[ga][0], "Aposs": PRONOUNS[ga][1], "Aobj": PRONOUNS[ga][2],
        "B": b, "Bpr": PRONOUNS[gb][0], "Bposs": PRONOUNS[gb][1], "Bobj": PRONOUNS[gb][2],
        "N": n[0], "Nposs": PRONOUNS[n[1]][1], "Nobj": PRONOUNS[n[1]][2],
        "P": _pick(rng, item["places"]), "O": _pick(rng, item["objects"]),
        "adj": adj1, "adj2": adj2, "abs": abs1, "abs2": abs2,
        "padj": _pick(rng, PLACE_ADJ), "emo": _pick(rng, EMOTION), "adv": _pick(rng, ADVERB),
        "tod": _pick(rng, TIME_OF_DAY), "weather": _pick(rng, WEATHER), "smell": _pick(rng, SMELL),
        "tpadj": _pick(rng, T_PLACE_ADJ), "tperson": _pick(rng, T_PERSON_ADJ), "twadj": _pick(rng, T_WEATHER_ADJ),
        "tweather": _pick(rng, T_WEATHER), "tgood": _pick(rng, T_GOOD), "tthought": _pick(rng, T_THOUGHT),
    }
    return template.format(**values)


def _filler(rng: np.random.Generator, item: dict, bank: str, narrative: bool = False,
            recent: list[int] | None = None) -> tuple[str, bool]:
    """One filler sentence in the item's style from the bank: (sentence, is it a line of
    dialogue). `recent` holds the last few cores used in this text, which are not reused."""
    b = BANKS[item["style"]][bank]
    if not narrative and rng.random() < b["dialogue"]:
        line = _pick(rng, b["lines"])  # filled together with its speech tag: one cast draw for both
        return _fill(rng, _pick(rng, b["speech"]).replace("{line}", line), item), True
    core = int(rng.integers(len(b["cores"])))
    while recent is not None and core in recent:
        core = int(rng.integers(len(b["cores"])))
    if recent is not None:
        recent.append(core)
        del recent[:-RECENT_CORES]
    p_open, p_tail = b["flourish"]
    opener, tail = _pick(rng, b["openers"]), _pick(rng, b["tails"])
    template = (opener if rng.random() < p_open else "") + b["cores"][core] + (tail if rng.random() < p_tail else "")
    return _cap(_fill(rng, template, item)) + ".", False


def _required(rng: np.random.Generator, clause: str, item: dict, banned: set | None) -> str:
    """A sentence of the brief as a model writes it: the clause after one of a few lead-ins,
    chosen so that it shares no SCREEN_N-word run with the item's authors' texts."""
    leads = REQUIRED_LEADS[item["style"]]
    first = clause.split(" ", 1)[0]
    for t in rng.permutation(len(leads)):
        lead = leads[int(t)]
        body = first[:1].lower() + clause[1:] if lead and first.lower() in LOWER_AFTER_LEAD else clause
        s = _cap(lead + body) + "."
        if not banned or not (ngrams(tokens(s), SCREEN_N) & banned):
            return s
    raise RuntimeError(f"{item['id']}: the sentence {clause!r} shares {SCREEN_N} words with the authors' texts")


class _Unit:
    __slots__ = ("dialogue", "planted", "protected", "text")

    def __init__(self, text: str, protected: bool = False, dialogue: bool = False, planted: bool = False):
        self.text, self.protected, self.dialogue, self.planted = text, protected, dialogue, planted


def _compose(rng: np.random.Generator, item: dict, bank: str, words: int, required: list[str] = (),
             banned: set | None = None, planted: str | None = None) -> list[list[str]]:
    """A chapter as paragraphs of sentences: filler from the bank up to `words`, the required
    sentences spread through it in order (never two side by side, never first or last), then
    every unprotected sentence inside a shared SCREEN_N-word run with `banned` redrawn."""
    req = [_Unit(s, protected=True) for s in required]
    if planted is not None:
        req.insert(min(1, len(req)), _Unit(planted, protected=True, planted=True))
    total = sum(_word_count(u.text) for u in req)
    units: list[_Unit] = []
    recent: list[int] = []
    while total < words or len(units) < 2 * len(req) + 2:
        s, d = _filler(rng, item, bank, narrative=not units, recent=recent)
        units.append(_Unit(s, dialogue=d))
        total += _word_count(s)
    if units[-1].dialogue:
        units[-1] = _Unit(_filler(rng, item, bank, narrative=True, recent=recent)[0])
    if req:
        n = len(units)
        raw = [(j + 1) * (n - 1) / (len(req) + 1) + rng.uniform(-1.5, 1.5) for j in range(len(req))]
        positions, last = [], 0
        for j, x in enumerate(raw):  # strictly increasing in [1, n-1], room left for the rest
            p = min(max(round(x), last + 1), n - 1 - (len(req) - 1 - j))
            positions.append(p)
            last = p
        merged, k = [], 0
        for i, u in enumerate(units):
            if k < len(req) and positions[k] == i:
                merged.append(req[k])
                k += 1
            merged.append(u)
        units = merged
    if banned:
        for _ in range(100):
            flat, owner = [], []
            for ui, u in enumerate(units):
                t = tokens(u.text)
                flat += t
                owner += [ui] * len(t)
            bad: set[int] = set()
            for i in range(len(flat) - SCREEN_N + 1):
                if tuple(flat[i:i + SCREEN_N]) in banned:
                    us = set(owner[i:i + SCREEN_N])
                    if not any(units[u].planted for u in us):
                        bad |= us
            if not bad:
                break
            fixable = sorted(u for u in bad if not units[u].protected)
            if not fixable:
                raise RuntimeError(f"{item['id']}: a protected sentence shares {SCREEN_N} words with the authors' texts")
            for u in fixable:  # the first and the last sentence stay narrative
                s, d = _filler(rng, item, bank, narrative=u in (0, len(units) - 1), recent=recent)
                units[u] = _Unit(s, dialogue=d)
        else:
            raise RuntimeError(f"{item['id']}: could not clear the shared runs")
    paragraphs, cur = [], []
    size = int(rng.integers(3, 7)) if item["style"] == "ornate" else int(rng.integers(2, 6))
    for u in units:
        if u.dialogue:
            if cur:
                paragraphs.append(cur)
                cur = []
            paragraphs.append([u.text])
            continue
        cur.append(u.text)
        if len(cur) >= size:
            paragraphs.append(cur)
            cur = []
            size = int(rng.integers(3, 7)) if item["style"] == "ornate" else int(rng.integers(2, 6))
    if cur:
        paragraphs.append(cur)
    return paragraphs


def _join(paragraphs: list[list[str]]) -> str:
    return "\n\n".join(" ".join(p) for p in paragraphs)


# ---------------------------------------------------------------- items


def _author_texts(i: int, item: dict) -> tuple[list[list[str]], list[list[str]]]:
    """The source chapter (with every trap's sentence) and the author's chapter, both in the
    authors' bank."""
    lo, hi = 1600, 2600
    rs, ra = _rng(1, i, 0), _rng(1, i, 1)
    source_req = list(item["source_plot"][:1]) + [t["src"] for t in item["traps"]] + list(item["source_plot"][1:])
    source = _compose(rs, item, "author", int(rs.integers(lo, hi)), source_req)
    author = _compose(ra, item, "author", int(ra.integers(lo, hi)), list(item["author_plot"]))
    return source, author


def _banned(source: str, author: str) -> set:
    return ngrams(tokens(source), SCREEN_N) | ngrams(tokens(author), SCREEN_N)


def _brief(item: dict) -> dict:
    lo, hi = item["words"]
    return {"beats": [b[0] for b in item["beats"]], "prohibitions": [p[0] for p in item["prohibitions"]],
            "end_state": item["end_state"][0], "words_min": lo, "words_max": hi}


def _plan_sentences(rng: np.random.Generator, item: dict, modes: dict, banned: set) -> tuple[list[str], dict]:
    """The brief's sentences a chapter carries given each check's mode, in chapter order (beats
    in order, prohibitions and traps among them, the end state last), and (kind, index) ->
    the sentence that check quotes (absent when the check has nothing to quote)."""
    quotes: dict[tuple[str, int], str] = {}
    for i, (_, clause) in enumerate(item["beats"]):
        if modes[("beat", i)] in ("pass", "paraphrase"):
            quotes[("beat", i)] = _required(rng, clause, item, banned)
    for i, (_, keep, breach) in enumerate(item["prohibitions"]):
        quotes[("prohibition", i)] = _required(rng, keep if modes[("prohibition", i)] == "pass" else breach, item, banned)
    for i, trap in enumerate(item["traps"]):
        mode = modes[("trap", i)]
        if mode != "missing":
            clause = _pick(rng, trap["clauses"]).replace("{f}", trap["wrong"] if mode == "contradict" else trap["fact"])
            quotes[("trap", i)] = _required(rng, clause, item, banned)
    end = None
    if modes[("end-state", 0)] in ("pass", "paraphrase"):
        end = quotes[("end-state", 0)] = _required(rng, item["end_state"][1], item, banned)
    beats = [quotes[k] for k in sorted(quotes) if k[0] == "beat"]
    others = [quotes[k] for k in sorted(quotes) if k[0] in ("prohibition", "trap")]
    keys = sorted(rng.uniform(size=len(beats)).tolist())
    order = sorted([(k, 0, j) for j, k in enumerate(keys)] + [(float(rng.uniform()), 1, j) for j in range(len(others))])
    ordered = [beats[j] if kind == 0 else others[j] for _, kind, j in order]
    return ordered + ([end] if end else []), quotes


def _check_keys(item: dict) -> list[tuple[str, int]]:
    return ([("beat", i) for i in range(len(item["beats"]))] + [("prohibition", i) for i in range(len(item["prohibitions"]))]
            + [("end-state", 0)] + [("trap", i) for i in range(len(item["traps"]))])


def _reference_chapter(i: int, item: dict, banned: set) -> tuple[str, dict]:
    """The frozen reference chapter (Fable 5.1 at xhigh): it passes every check."""
    rng = _rng(1, i, 2)
    modes = {k: "pass" for k in _check_keys(item)}
    sentences, quotes = _plan_sentences(rng, item, modes, banned)
    text = _join(_compose(rng, item, "model", int(rng.integers(1800, 2800)), sentences, banned))
    return text, quotes


# ---------------------------------------------------------------- chapters and calls


def _modes(v: int, setting: tuple, item: dict) -> dict:
    """Each check's mode for one chapter: pass, missing, contradict or paraphrase."""
    rng = _rng(4, v, ITEM_INDEX[item["id"]], 1)
    keys = _check_keys(item)
    if (setting, item["id"]) == REFUSAL:
        return {k: "missing" for k in keys}
    if setting in TIE_PLANS:
        plan = TIE_PLANS[setting].get(item["id"], {})
        return {k: plan.get(k, "pass") for k in keys}
    p = VARIANT_SPEC[setting][3]
    modes = {}
    for k in keys:
        u, w = float(rng.uniform()), float(rng.uniform())
        if u < p:
            modes[k] = "pass"
        elif k[0] == "prohibition":
            modes[k] = "contradict"
        elif k[0] == "trap":
            modes[k] = "contradict" if w < 0.75 else "missing"
        else:
            modes[k] = "missing"
    modes.update(FORCED.get((setting, item["id"]), {}))
    return modes


def _chapter_text(v: int, setting: tuple, i: int, item: dict, banned: set, modes: dict,
                  author_paras: list[list[str]]) -> tuple[str, dict]:
    key = (setting, item["id"])
    if key == REFUSAL:
        return REFUSAL_TEXT, {}
    rng = _rng(2, v, i, 1)
    lo = item["words"][0]
    sentences, quotes = _plan_sentences(rng, item, modes, banned)
    planted = _planted_passage(i, author_paras) if key == MEMORISED else None
    words = int(rng.integers(lo, lo + 900))
    paragraphs = _compose(rng, item, "model", words, sentences, banned, planted)
    if key == TRUNCATED:  # cut the last sentence off mid-way, leaving no final punctuation
        last = paragraphs[-1][-1].split()
        paragraphs[-1][-1] = " ".join(last[:max(4, len(last) * 5 // 9)]).rstrip(",;:.!?\"'")
    if key == MARKDOWN:  # a heading line and a bold sentence, as if a chat answer
        mid = len(paragraphs) // 3
        j = next(j for j in range(mid + 1, len(paragraphs)) if paragraphs[j][0] not in quotes.values()
                 and not paragraphs[j][0].startswith('"'))
        paragraphs[j] = ["**" + paragraphs[j][0] + "**"] + paragraphs[j][1:]
        paragraphs.insert(mid, [MARKDOWN_HEADING])
    text = _join(paragraphs)
    if key == PREAMBLE:
        text = PREAMBLE_TEXT + "\n\n" + text
    return text, quotes


def _planted_passage(i: int, author_paras: list[list[str]]) -> str:
    """Consecutive sentences of one paragraph of the author's chapter, PLANTED_MIN_WORDS words or
    more, none of them a plot sentence (so the copy breaks no rule of the brief)."""
    rng = _rng(1, i, 3)
    plot = set(ITEMS[i]["author_plot"])
    spans = []
    for p in author_paras:
        if p[0].startswith('"'):
            continue
        for a in range(len(p)):
            for b in range(a + 1, len(p) + 1):
                if plot & set(p[a:b]):
                    break
                if sum(_word_count(s) for s in p[a:b]) >= PLANTED_MIN_WORDS:
                    spans.append(" ".join(p[a:b]))
                    break
    if not spans:
        raise RuntimeError("no paragraph of the author's chapter is long enough to plant a memorised passage")
    return spans[int(rng.integers(len(spans) // 3, 2 * len(spans) // 3 + 1))]


def _score(x: float) -> int:
    return int(min(100, max(0, round(x))))


def _design() -> dict:
    rng = _rng(0)
    models = [m[0] for m in MODELS]
    profile = {}
    for m in models:
        p = rng.normal(0, 2.0, len(CRAFT))
        profile[m] = p - p.mean()
    difficulty = rng.normal(0, 2.5, len(ITEMS))
    ref_true = 79.0 + rng.normal(0, 2.0, (len(ITEMS), 1)) + rng.normal(0, 2.5, (len(ITEMS), len(CRAFT)))
    author_true = 89.5 + rng.normal(0, 2.0, (len(ITEMS), 1)) + rng.normal(0, 2.5, (len(ITEMS), len(AUTHOR)))
    raw = rng.normal(0, 3.5, len(ITEMS))
    draft2 = np.clip(raw - raw.mean() - 1.3, -7.0, 7.0)
    return {"profile": profile, "difficulty": difficulty, "ref_true": ref_true, "author_true": author_true, "draft2": draft2}


def _candidate_craft(rng: np.random.Generator, design: dict, setting: tuple, i: int, key: tuple) -> dict[str, int]:
    if key == REFUSAL:
        return {d: int(rng.integers(2, 13)) for d in CRAFT}
    level = VARIANT_SPEC[setting][2] + design["difficulty"][i] + rng.normal(0, 3.0) + rng.normal(0, 1.0)
    dims = level + design["profile"][setting[0]] + rng.normal(0, 2.5, len(CRAFT))
    out = dict(zip(CRAFT, dims.tolist()))
    if key == MEMORISED:  # the borrowed passage impresses the judge
        for d in ("voice", "prose", "specificity"):
            out[d] += 5
    if key == PREAMBLE:
        out["restraint"] -= 3
    if key == TRUNCATED:
        out["momentum"] -= 6
        out["scene"] -= 4
    if key == MARKDOWN:
        out["restraint"] -= 5
    return {d: _score(x) for d, x in out.items()}


def _readings(rng: np.random.Generator, design: dict, i: int) -> tuple[dict[str, int], dict[str, int]]:
    """The frozen reference chapter and the author's chapter as read in one call."""
    ref = design["ref_true"][i] + rng.normal(0, 2.9) + rng.normal(0, 1.5, len(CRAFT))
    auth = design["author_true"][i] + rng.normal(0, 1.5) + rng.normal(0, 1.5, len(AUTHOR))
    return ({d: _score(x) for d, x in zip(CRAFT, ref.tolist())}, {d: _score(x) for d, x in zip(AUTHOR, auth.tolist())})


def _checks(item: dict, modes: dict, quotes: dict, paraphrase: str | None) -> list[dict]:
    out = []
    for kind, index in _check_keys(item):
        mode = modes[(kind, index)]
        if mode == "pass":
            out.append({"kind": kind, "index": index, "passed": True, "quote": quotes[(kind, index)]})
        elif mode == "paraphrase":
            out.append({"kind": kind, "index": index, "passed": True, "quote": paraphrase})
        elif mode == "contradict":
            out.append({"kind": kind, "index": index, "passed": False, "quote": quotes[(kind, index)]})
        else:
            out.append({"kind": kind, "index": index, "passed": False, "quote": ""})
    return out


def _sentences_for(rng: np.random.Generator, item: dict, key: tuple, modes: dict) -> tuple[str, str]:
    people = [c for c in item["cast"] if c[0] != "I"]
    slots = {"A": _pick(rng, people)[0], "P": _pick(rng, item["places"]), "O": _pick(rng, item["objects"])}
    worst = _cap(_pick(rng, WORST).format(**slots))
    best = _cap(_pick(rng, BEST).format(**slots))
    contradicted = [k for k in _check_keys(item) if k[0] == "trap" and modes[k] == "contradict"]
    if contradicted:
        trap = item["traps"][contradicted[0][1]]
        worst = f'It writes "{trap["wrong"]}" where the source chapter has "{trap["fact"]}".'
    return WORST_SPECIAL.get(key, worst), BEST_SPECIAL.get(key, best)


def _plain_sentences(rng: np.random.Generator, item: dict, worst_bank, best_bank) -> tuple[str, str]:
    people = [c for c in item["cast"] if c[0] != "I"]
    slots = {"A": _pick(rng, people)[0], "P": _pick(rng, item["places"]), "O": _pick(rng, item["objects"])}
    return _cap(_pick(rng, worst_bank).format(**slots)), _cap(_pick(rng, best_bank).format(**slots))


def _usage(setting: tuple, house: str, i: int, v: int, words: int, attempts: int) -> dict:
    """Tokens and cost of a chapter's attempts (synthetic): output about 1.35 tokens a word,
    reasoning by effort (more for the models that think before they write)."""
    rng = _rng(6, v, i)
    output = int(words * 1.35 * attempts + rng.integers(0, 400))
    reasoning = int(REASONING[setting[1]] * THINKING_HEAVY.get(setting[0], 1.0) * attempts * float(rng.uniform(0.85, 1.15)))
    return {"output_tokens": output, "reasoning_tokens": reasoning,
            "cost_usd": round((output + reasoning) * PRICE_PER_MTOK[house] / 1e6, 4)}


def _runs(design: dict, items_texts: dict) -> tuple[list[dict], list[dict]]:
    chapters, calls = [], []
    by_setting: dict[tuple, list[dict]] = {}
    house = {m[0]: m[2] for m in MODELS}
    for v, setting in enumerate(VARIANTS):
        status = VARIANT_SPEC[setting][1]
        if status == "not-judged":
            continue
        for i, item in enumerate(ITEMS):
            base = {"model": setting[0], "effort": setting[1], "item": item["id"]}
            if status == "incomplete" and item["id"] == FILTER_ITEM:
                chapters.append({**base, "attempts": [{"outcome": "content-filter", "reason": FILTER_REASON}] * FILTER_ATTEMPTS,
                                 "text": None, "usage": _usage(setting, house[setting[0]], i, v, 60, FILTER_ATTEMPTS)})
                continue
            key = (setting, item["id"])
            modes = _modes(v, setting, item)
            t = items_texts[item["id"]]
            text, quotes = _chapter_text(v, setting, i, item, t["banned"], modes, t["author_paras"])
            failed = []
            if setting == REF_KEY and item["id"] == MARKUP_ITEM:
                failed = [{"outcome": "not-a-chapter", "reason": MARKUP_REASON}]
            if setting[0] == "z-ai/glm-5.3-flash" and item["id"] in CUT_OFF_ITEMS:
                failed = [{"outcome": "cut-off", "reason": CUT_OFF_REASON}]
            attempts = failed + [{"outcome": "chapter", "reason": ""}]
            chapters.append({**base, "attempts": attempts, "text": text,
                             "usage": _usage(setting, house[setting[0]], i, v, len(text.split()), len(attempts))})
            rng = _rng(3, v, i, 1)
            cand = _candidate_craft(rng, design, setting, i, key)
            ref, auth = _readings(rng, design, i)
            worst, best = _sentences_for(rng, item, key, modes)
            r2 = _rng(5, v, i)
            order = ["candidate", "reference"] if r2.uniform() < 0.5 else ["reference", "candidate"]
            ref_worst, ref_best = _plain_sentences(r2, item, WORST, BEST)
            auth_worst, auth_best = _plain_sentences(r2, item, AUTHOR_WORST, AUTHOR_BEST)
            if setting == REF_KEY:  # the second draft, read beside the first in this very call
                e = r2.normal(0, 2.0, len(CRAFT))
                e -= e.mean()
                cand = {d: _score(ref[d] + design["draft2"][i] + x) for d, x in zip(CRAFT, e.tolist())}
            call = {**base, "order": order,
                    "candidate": {"scores": cand, "worst_flaw": worst, "best_quality": best},
                    "reference": {"scores": ref, "worst_flaw": ref_worst, "best_quality": ref_best},
                    "author": {"scores": auth, "worst_flaw": auth_worst, "best_quality": auth_best},
                    "candidate_checks": _checks(item, modes, quotes, PARAPHRASES.get(key)),
                    "reference_checks": _reference_checks(rng, item, t["ref_quotes"])}
            calls.append(call)
            by_setting.setdefault(setting, []).append(call)
    _make_tie(by_setting)
    return chapters, calls


def _reference_checks(rng: np.random.Generator, item: dict, quotes: dict) -> list[dict]:
    """The reference chapter passes everything; now and then the judge misses a check (no quote)."""
    out = []
    for kind, index in _check_keys(item):
        if rng.uniform() < 0.03:
            out.append({"kind": kind, "index": index, "passed": False, "quote": ""})
        else:
            out.append({"kind": kind, "index": index, "passed": True, "quote": quotes[(kind, index)]})
    return out


def _craft_mean(calls: list[dict]) -> float:
    return float(np.mean([np.mean([c["candidate"]["scores"][d] for d in CRAFT]) for c in calls]))


def _make_tie(by_setting: dict) -> None:
    """Shift the first tied setting's readings by whole points so the two headlines end within
    half a point of TIE_TARGET apart (the second is the reference model's entry, whose readings
    are tied to the reference's in the same calls)."""
    a, b = TIE
    shift = round(_craft_mean(by_setting[b]) - _craft_mean(by_setting[a]) + TIE_TARGET)
    for call in by_setting[a]:
        call["candidate"]["scores"] = {d: _score(x + shift) for d, x in call["candidate"]["scores"].items()}


def _audition() -> dict:
    """Every candidate's reading of every audition chapter: a chapter's true craft, plus the
    candidate's leniency towards its house and its noise; a candidate that crowds the authors at
    the top reads them at its fixed marks."""
    rng = _rng(7)
    readings = []
    for j in CANDIDATES:
        lean, authors, sd = AUDITION_BIAS[j["id"]]
        for n, it in enumerate(AUDITION_ITEMS):
            for wid, _name, house, true in AUDITION_WRITERS:
                x = true + lean.get(house, 0.0) + float(rng.normal(0, sd))
                if wid == "author" and authors:
                    x = authors[n % len(authors)]
                readings.append({"judge": j["id"], "item": it["id"], "writer": wid, "craft": _score(x)})
    judge, item, writer, model_at, author_at = AUDITION_OUTLIER
    for r in readings:
        if (r["judge"], r["item"]) == (judge, item):
            r["craft"] = model_at if r["writer"] == writer else author_at if r["writer"] == "author" else r["craft"]
    return {"candidates": list(CANDIDATES), "items": list(AUDITION_ITEMS),
            "writers": [{"id": w, "name": n, "house": h} for w, n, h, _t in AUDITION_WRITERS],
            "readings": readings, "chosen": JUDGE["id"]}


def _panel() -> dict:
    rng = _rng(8)
    marks = []
    for mid, _name, _house, p4 in PANEL_MODELS:
        for j in PANEL_JUDGES:
            for it in ITEMS:
                u = float(rng.uniform())
                mark = 4 if u < p4 else (3 if u < p4 + (1 - p4) * 0.8 else (5 if p4 > 0.7 else 2))
                marks.append({"model": mid, "judge": j["id"], "item": it["id"], "mark": mark})
    return {"until": PANEL_UNTIL, "judges": list(PANEL_JUDGES), "models": [{"id": m, "name": n, "house": h} for m, n, h, _p in PANEL_MODELS],
            "scale_max": PANEL_SCALE, "top": PANEL_TOP, "marks": marks}


# ---------------------------------------------------------------- documents


def _run_document() -> dict:
    models = []
    for mid, name, house, variants in sorted(MODELS):
        models.append({"id": mid, "name": name, "house": house,
                       "variants": [{"effort": e, "status": s, "note": note} for e, s, _, _, note in variants],
                       "starting_effort": STARTING[mid][0], "starting_reason": STARTING[mid][1]})
    return {"schema": "nextchapter.run/2", "synthetic": True, "run": RUN_ID, "date": RUN_DATE, "judge": JUDGE,
            "reference": REFERENCE, "models": models, "audition": _audition(), "earlier_panel": _panel(),
            "memorisation_threshold": MEMORISATION_THRESHOLD}


def _documents() -> tuple[dict, list[dict], list[dict], list[dict]]:
    design = _design()
    items, texts = [], {}
    for i, item in enumerate(ITEMS):
        source_paras, author_paras = _author_texts(i, item)
        source, author = _join(source_paras), _join(author_paras)
        banned = _banned(source, author)
        reference, ref_quotes = _reference_chapter(i, item, banned)
        texts[item["id"]] = {"banned": banned, "author_paras": author_paras, "ref_quotes": ref_quotes}
        items.append({
            "id": item["id"], "novel": item["novel"], "author": item["author"], "year": item["year"],
            "source_chapter": source, "brief": _brief(item),
            "traps": [{"id": f"t{k + 1}", "fact": t["fact"]} for k, t in enumerate(item["traps"])],
            "reference_chapter": reference,
            "reference_sha256": hashlib.sha256(reference.encode("utf-8")).hexdigest(),
            "author_chapter": author,
        })
    chapters, calls = _runs(design, texts)
    items.sort(key=lambda r: r["id"])
    chapters.sort(key=lambda r: (r["model"], r["effort"], r["item"]))
    calls.sort(key=lambda r: (r["model"], r["effort"], r["item"]))
    return _run_document(), items, chapters, calls


# ---------------------------------------------------------------- entry points


def generate(root: Path) -> None:
    """Write the synthetic NextChapterBench artifact files under root/data/nextchapter/ (seeded,
    deterministic). Every document is validated against the contract first."""
    root = Path(root)
    run, items, chapters, calls = _documents()
    RunFile.model_validate(run, strict=True)  # the demo never writes what intake would refuse
    for doc in items:
        Item.model_validate(doc, strict=True)
    for doc in chapters:
        Chapter.model_validate(doc, strict=True)
    for doc in calls:
        Call.model_validate(doc, strict=True)
    write_json(root / RUN_FILE, run)
    write_jsonl(root / ITEMS_FILE, items)
    write_jsonl(root / CHAPTERS_FILE, chapters)
    write_jsonl(root / CALLS_FILE, calls)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m sitegen.families.nextchapter.demo",
        description=f"Write SYNTHETIC NextChapterBench demo data (seed {DEMO_SEED}) to ROOT/{DATA_DIR}/: "
        + ", ".join(Path(f).name for f in ALL_FILES) + ".",
    )
    parser.add_argument("--root", type=Path, default=Path("."), help="site root (default: the current directory)")
    args = parser.parse_args(argv)
    generate(args.root)
    print(f"wrote {', '.join(ALL_FILES)} (synthetic, seed {DEMO_SEED})")


if __name__ == "__main__":
    main()
