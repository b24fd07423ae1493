"""Synthetic demo data for the Canonic Stage 1 family: a seeded, deterministic generator.

Writes the two artifact files the Canonic family reads, under ``<root>/data/canonic/``:

- ``sweep.json``   the frozen design: sweep identity, pins (2 judges, 13 models), the four
  sitcom shows, six domains with their rubrics, and 190 tasks with their fingerprint;
- ``cells.jsonl``  one line per (model, task): the generation record and every judge record.

EVERYTHING HERE IS SYNTHETIC. The structure follows the Canonic Stage 1 paper and its
"How this works" page (2,470 cells, 2,423 counted, 77 of 78 model-domain rows published,
Kimi K3 on song lyrics withheld), but the scores, rationales and exclusions are random draws,
not evaluations of any real model; ``sweep.json`` says so with ``"synthetic": true``.

Determinism: every draw comes from ``numpy.random.default_rng`` seeded from ``DEMO_SEED``
(20260808) plus a fixed stream label, so the same call writes byte-identical files.

Scores: each model has a latent quality per domain (plus a small per-dimension profile and,
for sitcom, a per-show offset). A cell's output quality is that latent plus task difficulty
plus output noise; each judge adds its additive leniency offset and per-dimension noise and
picks the nearest anchor. The stated ``weighted_score`` is computed with the harness's own
``weighted_score()``.

Exclusions (per replica group, exact): 47 of 2,470 cells do not count. Nine of them sit in
Kimi K3's song-lyrics row (21 of 30 counted, below the 80 % gate); the other 38 are spread
over the remaining 77 rows, at most two per row.

Scale: ``generate(root, scale=k)`` writes 13*k models: the base 13 plus, for each replica
group g = 2..k, copies with ids suffixed ``-r<g>``, names suffixed `` (replica <g>)`` and a
perturbed latent quality. Tasks are the same; each group has the same exclusion plan shape
(so exactly one gate-failing row per group: that group's Kimi K3 on song lyrics).

Run: ``python -m sitegen.families.canonic.demo [--root DIR] [--scale K]``.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import numpy as np

from sitegen.families.canonic.models import SweepFile, Task
from sitegen.families.canonic.validate import CELLS_FILE, SWEEP_FILE, task_set_fingerprint, weighted_score

DEMO_SEED = 20260808
"""The one seed. Streams: [seed, 0] design, [seed, 1(, g)] latent quality, [seed, 3, g]
exclusion plan, [seed, 4, g, i] the draws for model i of replica group g."""

ANCHOR_FLOATS = (0.0, 0.25, 0.5, 0.75, 1.0)

SWEEP = {"id": "full-001", "date": "2026-08-08", "frozen_at": "2026-08-08T07:36:31.813872Z"}
GENERATION = {"temperature": 0.7, "max_tokens": 12000, "retries": 1}

JUDGES = (
    {"id": "z-ai/glm-5.2", "name": "GLM 5.2", "family": "zai"},
    {"id": "mistralai/mistral-large-2512", "name": "Mistral Large 2512", "family": "mistral"},
)
JUDGE_LENIENCY = (0.03, -0.02)  # additive, on the 0-1 anchor scale: GLM 5.2 is slightly more lenient

# (id, name, family, base latent quality on the 0-1 anchor scale). Four tiers with gaps
# between them, so the boards show several rank bands and ties within each.
BASE_MODELS = (
    ("anthropic/claude-opus-5", "Claude Opus 5", "anthropic", 0.8),
    ("openai/gpt-5.5", "GPT-5.5", "openai", 0.79),
    ("google/gemini-3.5-pro", "Gemini 3.5 Pro", "google", 0.775),
    ("moonshotai/kimi-k3", "Kimi K3", "moonshot", 0.66),
    ("deepseek/deepseek-v4", "DeepSeek V4", "deepseek", 0.65),
    ("z-ai/glm-5.3", "GLM 5.3", "zai", 0.645),
    ("qwen/qwen3.5-max", "Qwen3.5 Max", "qwen", 0.635),
    ("x-ai/grok-5", "Grok 5", "xai", 0.52),
    ("minimax/minimax-m3", "MiniMax M3", "minimax", 0.51),
    ("mistralai/mistral-medium-3.5", "Mistral Medium 3.5", "mistral", 0.5),
    ("meta-llama/llama-5-maverick", "Llama 5 Maverick", "meta", 0.38),
    ("cohere/command-a-2", "Command A 2", "cohere", 0.37),
    ("amazon/nova-pro-2", "Nova Pro 2", "amazon", 0.36),
)
GATE_FAIL_MODEL = "moonshotai/kimi-k3"
GATE_FAIL_DOMAIN = "song-lyrics"

SHOWS = (
    {"id": "the-office", "name": "The Office", "format": "single-camera mockumentary"},
    {"id": "modern-family", "name": "Modern Family", "format": "single-camera mockumentary"},
    {"id": "friends", "name": "FRIENDS", "format": "multi-camera ensemble"},
    {"id": "the-big-bang-theory", "name": "The Big Bang Theory", "format": "multi-camera ensemble"},
)

TASKS_PER_DOMAIN = 30
TASKS_PER_SHOW = 10
NOVEL_PER_TEN = 3  # roughly three tasks in ten use a premise invented for the benchmark

P, S = "portable", "show-conditioned"

# domain id -> (name, [(dimension id, question, scope, weight, five anchor descriptors 0 .. 1)])
DOMAINS: dict[str, tuple[str, list[tuple[str, str, str, float, tuple[str, str, str, str, str]]]]] = {
    "book-opening": ("Book Opening", [
        ("hook", "Does the first paragraph raise a specific question that the reader needs the following pages to resolve?", P, 0.25, (
            "No open question: the opening summarises or describes without creating any reason to read on.",
            "A question exists only in generic form (something is wrong, someone is unhappy) and is not tied to this story's particulars.",
            "A specific question emerges, but only after several paragraphs of setup that delay it.",
            "A specific question is raised in the first paragraph, though a later line answers or deflates it too early.",
            "The first paragraph plants a question particular to this story, and the excerpt sharpens it without answering it.")),
        ("narrative-voice", "Is the narrating voice distinct and consistent, with diction and rhythm suited to the genre the task names?", P, 0.2, (
            "No discernible voice: neutral report prose any narrator could have written, or a voice at odds with the genre.",
            "Flashes of voice in isolated lines, but the diction drifts between registers within the excerpt.",
            "A consistent but familiar voice: it fits the genre without marking this narrator as anyone in particular.",
            "A distinct voice with recognisable diction and rhythm, with one or two lapses into generic phrasing.",
            "A voice identifiable from any single paragraph, held throughout, and suited to the named genre.")),
        ("exposition-economy", "Are setting and backstory conveyed through action and concrete detail rather than blocks of explanation?", P, 0.2, (
            "Opens with, or consists mainly of, explanatory backstory or world description before anything happens.",
            "Action is present but repeatedly paused for paragraphs of explanation the scene does not yet need.",
            "Mostly dramatised, with one noticeable block of exposition or an 'as you know' exchange.",
            "Context arrives through action and detail; a single sentence of explanation could be cut.",
            "Every piece of setting or history rides on something happening or a concrete detail; nothing inferable is explained.")),
        ("character-stake", "By the end of the excerpt, does a point-of-view character want something specific and face an obstacle to it?", P, 0.2, (
            "No character with a discernible want; the excerpt is description or reflection only.",
            "A character is present, but the want is vague (happiness, change) and nothing opposes it.",
            "A specific want is stated, but the obstacle is absent or only implied.",
            "A specific want meets a concrete obstacle, though the cost of failing is unclear.",
            "A specific want, a concrete obstacle and a visible cost of failure are all established within the excerpt.")),
        ("constraint-adherence", "Does the opening honour every stated constraint of the task: point of view, tense, length and any required element?", P, 0.15, (
            "Ignores the task's constraints or answers a different prompt.",
            "Meets one constraint and violates two or more, e.g. the wrong point of view and far outside the length.",
            "Violates one constraint outright, or several marginally.",
            "Every constraint met, one only technically (e.g. the required element mentioned in passing).",
            "Every constraint met, with the required element integral to the opening rather than inserted.")),
    ]),
    "meme-caption": ("Meme Caption", [
        ("image-dependence", "Does the caption depend on the described image, so that it would lose its point if paired with a different image?", P, 0.3, (
            "The caption ignores the image; it would read the same under any picture or none.",
            "The caption refers to the image's subject only nominally, naming what is shown.",
            "The caption uses the image's situation, but a generic stock image would serve equally well.",
            "The caption relies on a specific element of the image (an expression, a gesture, a detail), with slight overlap with what is shown.",
            "Caption and image each supply half of the point; neither works alone and nothing the image shows is restated.")),
        ("format-convention", "Does the caption follow the structural convention of the named meme format, such as top and bottom text, panel labels or a two-panel contrast?", P, 0.25, (
            "Ignores the named format, e.g. a paragraph of prose for a two-panel template.",
            "Recognisably aimed at the format but breaks its core structure (labels on the wrong element, missing contrast panel).",
            "Follows the structure but misuses one convention, such as reversing the approve and reject panels.",
            "Follows the format correctly, with a minor deviation in register or casing from how the format is used.",
            "Uses the format exactly as its conventions specify, including placement, register and casing.")),
        ("compression", "Is the caption as short as it can be while keeping its turn, so that no word could be removed without loss?", P, 0.25, (
            "Verbose: several sentences where a phrase would do, with the turn buried.",
            "Several words or a whole clause could be cut; the turn arrives late.",
            "One clause could be cut or rephrased shorter without losing anything.",
            "Tight, with a single removable word or a slightly padded setup.",
            "No word can be removed, and the turn sits on the final word or beat.")),
        ("situational-specificity", "Does the caption name a specific, recognisable situation rather than a generic category of experience?", P, 0.2, (
            "Pure generality ('when life is hard') with no situation a reader could picture.",
            "A category of situation (work, relationships) with no concrete detail.",
            "A situation a reader can picture, described in familiar, widely used terms.",
            "A concrete situation with one precise detail that makes it recognisable.",
            "A precisely observed situation, exact enough that readers recognise their own experience in it.")),
    ]),
    "movie-scene": ("Movie Scene", [
        ("scene-objective", "Does each character in the scene pursue a clear objective, and does the scene turn on the collision of those objectives?", P, 0.25, (
            "No character wants anything in the scene; it is conversation or description without conflict.",
            "One character has an objective; the others react without wanting anything themselves.",
            "Objectives are present but never collide; the scene ends where it began.",
            "Opposing objectives collide and the balance shifts, though the turn is signalled early.",
            "Every character pursues an objective, and their collision produces a turn that leaves the situation changed.")),
        ("subtext", "Do characters leave the important things unsaid, with meaning carried by action and implication rather than stated feelings?", P, 0.2, (
            "Characters announce their feelings and motives directly throughout.",
            "Mostly on-the-nose dialogue, with an occasional line that implies more than it says.",
            "The central emotion is implied, but a climactic line spells it out.",
            "Meaning is carried mainly by implication, with one line that explains what the scene had already shown.",
            "The scene's key emotion is never stated, yet is unmistakable from behaviour and from what is avoided.")),
        ("visual-storytelling", "Do the action lines give a director filmable images that advance the scene, rather than interior states a camera cannot record?", P, 0.2, (
            "Action lines describe thoughts, backstory or feelings the camera cannot capture.",
            "Some filmable action, but key beats are conveyed only through unfilmable narration.",
            "Filmable throughout, but the images decorate the scene rather than advance it.",
            "Images advance most beats; one key beat relies on dialogue that an image could carry.",
            "At least one key beat is carried purely by an image, and every action line describes something a camera can record.")),
        ("screenplay-format", "Is the scene in usable screenplay form: scene headings, action lines, character cues, and parentheticals used sparingly?", P, 0.15, (
            "Prose narrative, or a script-like layout a production could not use.",
            "Screenplay elements present but applied inconsistently (missing headings, cues run into action).",
            "Correct elements, with recurring errors such as camera directions or parentheticals on most lines.",
            "Clean format with isolated errors.",
            "Standard format throughout, with parentheticals and transitions only where they earn their place.")),
        ("premise-fidelity", "Does the scene deliver the situation, characters and constraints stated in the task's premise?", P, 0.2, (
            "The scene does not address the task's premise.",
            "The premise is mentioned, but the scene is about something else.",
            "The premise is addressed, but a stated constraint or required character is missing.",
            "Premise and constraints delivered, with one element treated perfunctorily.",
            "Premise and every constraint delivered, each of them load-bearing in the scene.")),
    ]),
    "sitcom-scene": ("Sitcom Scene", [
        ("character-voice", "Does every established character speak and act as the Show Bible describes them, so that lines could not be swapped between characters?", S, 0.25, (
            "Characters are interchangeable, or contradict their Show Bible descriptions.",
            "Names match the show, but most lines could be spoken by anyone, and at least one characterisation contradicts the Bible.",
            "Principal characters are recognisable by catchphrases or surface traits; secondary characters are generic.",
            "Every character is consistent with the Bible; one or two lines could be reassigned without loss.",
            "Each line is attributable to its speaker from the Bible's description alone, secondary characters included.")),
        ("comedic-mechanism", "Does the humour work through the comedic mechanism the Show Bible names for this show, rather than a generic joke style?", S, 0.2, (
            "A mechanism the Bible rules out for this show (e.g. broad slapstick in a cringe-driven show), or no discernible mechanism.",
            "Generic sitcom joke forms (puns, insult exchanges) with no link to the Bible's named mechanism.",
            "The named mechanism appears in one beat; the rest relies on generic joke forms.",
            "The named mechanism drives most beats, with one generic beat the show would not use.",
            "Every comedic beat runs on the Bible's named mechanism, and the scene's climax escalates it.")),
        ("format-conventions", "Does the scene use the format conventions the Show Bible specifies: talking heads and camera awareness for mockumentary, or set-bound staging, entrances and act-break buttons for multi-camera?", S, 0.15, (
            "The staging belongs to the other format, e.g. talking heads in a multi-camera show.",
            "The format is ignored: staging is unspecified or would fit any show.",
            "One convention of the show's format is used; others the premise invites are missing.",
            "The format's conventions are used correctly, one of them mechanically rather than for effect.",
            "The conventions are used correctly and do structural work, e.g. a talking head that contradicts the scene just shown.")),
        ("scene-structure", "Does the scene have a setup, an escalation and a button, with the situation changed by the end?", P, 0.15, (
            "No structure: the scene starts and stops without a situation developing.",
            "A setup is present, but the scene does not escalate and has no button.",
            "Setup and escalation, but the scene trails off instead of landing a button.",
            "Complete structure; the escalation plateaus for a beat or the button is predictable.",
            "Clean setup, steady escalation, and a button that changes the situation.")),
        ("dialogue-economy", "Does each exchange move the scene forward, without filler lines, restated beats or throat-clearing?", P, 0.1, (
            "Most exchanges are filler, greetings or restatements.",
            "Frequent filler; the same beat is played two or three times.",
            "Some filler or one repeated beat; the scene could lose a fifth of its length.",
            "Lean, with one or two lines that could be cut.",
            "Every line advances character, situation or a setup that is paid off later.")),
        ("premise-fidelity", "Does the scene deliver the task's premise, its required characters and its constraints?", P, 0.15, (
            "The scene does not address the task's premise.",
            "The premise appears only as a mention; the scene is about something else.",
            "The premise is addressed, but a required character or constraint is missing.",
            "Premise, characters and constraints delivered, one of them perfunctorily.",
            "Premise, required characters and every constraint delivered, each doing work in the scene.")),
    ]),
    "song-lyrics": ("Song Lyrics", [
        ("prosody", "Do the lines scan, with parallel lines sharing syllable counts and stress patterns, so the lyric could be sung to a repeated melody?", P, 0.25, (
            "No metrical pattern; parallel lines vary widely in length and stress.",
            "A pattern is audible in places, but most parallel lines would force the melody to change.",
            "Verses scan with each other, but the chorus or several lines break the pattern.",
            "Consistent scansion, with one or two lines that need a crammed or stretched syllable.",
            "Parallel lines match in syllables and stress throughout, with natural word stress on the strong beats.")),
        ("rhyme-craft", "Are rhymes, perfect or slant, placed deliberately, without forced word order or words chosen only to complete a rhyme?", P, 0.2, (
            "No rhyme where the form calls for it, or rhymes that consistently force inverted syntax.",
            "Rhymes present but stock pairs (heart/apart, fire/desire), several of them forcing filler words.",
            "A consistent scheme with mostly natural syntax; one or two forced or stock pairs.",
            "Deliberate placement with some fresh or slant rhymes; a single forced pair.",
            "Rhymes land on meaningful words, include fresh or slant pairings, and never bend the syntax.")),
        ("song-structure", "Are the sections the form requires (verse, chorus, bridge, or the form the task names) distinguishable, with the chorus carrying the central idea?", P, 0.2, (
            "No discernible sections: a single block of lines.",
            "Sections labelled but indistinguishable in content or function.",
            "Sections distinct, but the chorus does not carry the song's central idea.",
            "Clear sections with a chorus that states the central idea; the verses or bridge add little new.",
            "Each section has a distinct function: the verses develop, the chorus states the idea, the bridge shifts perspective.")),
        ("concrete-imagery", "Does the lyric use concrete, specific images rather than abstract statements of emotion?", P, 0.2, (
            "Entirely abstract emotion words (love, pain, forever) with no images.",
            "Images present but stock (rain on the window, a broken heart).",
            "A mix of stock and specific images; the emotional core is stated abstractly.",
            "Mostly specific images carrying the emotion, with one abstract line.",
            "The emotion is carried entirely by specific, unexpected images particular to this song's situation.")),
        ("constraint-adherence", "Does the lyric follow the task's stated constraints: genre, point of view, required theme or phrase, and length?", P, 0.15, (
            "Ignores the task's constraints.",
            "Meets one constraint but misses the genre or the required theme.",
            "Misses one constraint, such as the required phrase or the point of view.",
            "Every constraint met; the genre is signalled by surface markers rather than by form.",
            "Every constraint met, with the genre's conventions reflected in form and diction.")),
    ]),
    "standup-set": ("Stand-Up Set", [
        ("premise-clarity", "Is each bit built on a clearly stated premise, an attitude about a specific subject, before the act-outs and tags?", P, 0.2, (
            "No premise: observations listed without any attitude toward them.",
            "Subjects named, but the attitude is missing or shifts within a bit.",
            "Most bits have a premise, but at least one rests on a topic alone.",
            "Every bit has a clear premise; one is a familiar take on a common subject.",
            "Every bit states a specific, personal attitude toward a specific subject before building on it.")),
        ("setup-punch-structure", "Does each joke separate setup from punchline, with the reveal word at or near the end of the line?", P, 0.25, (
            "No setup and punchline separation; the text reads as narrative or opinion.",
            "Punchlines exist but are routinely explained after the reveal or buried mid-sentence.",
            "Clear setups, but reveal words often land before the end of the line.",
            "Consistent structure with reveals at line ends; an occasional setup runs longer than its payoff needs.",
            "Lean setups throughout, each reveal word placed last, with tags extending the punches that work.")),
        ("persona-consistency", "Does the set keep a consistent comic persona whose point of view explains why this performer says these things?", P, 0.2, (
            "No persona; the material could come from any performer.",
            "A persona is declared, but the material contradicts it.",
            "A consistent but thin persona that colours some bits and not others.",
            "A defined persona shapes most bits; one bit could belong to a different act.",
            "Every bit is filtered through a defined persona whose point of view is the source of the material.")),
        ("callback-architecture", "Does the set return to earlier material through callbacks, tags or a closer that ties back, rather than listing unrelated bits?", P, 0.15, (
            "A list of unrelated bits with no transitions.",
            "Transitions present, but no material is revisited.",
            "One callback, placed where it restates rather than extends the earlier joke.",
            "Callbacks extend earlier material, but the closer does not tie back.",
            "Callbacks extend earlier material and the closer reframes the set's opening premise.")),
        ("performability", "Is the set written for the ear: speakable rhythms, stage directions only where needed, and a length that fits the requested set time?", P, 0.2, (
            "Unspeakable as written (dense prose, lists, long asides) or far outside the requested length.",
            "Speakable in parts; long sentences or heavy stage directions interrupt delivery.",
            "Speakable throughout, but the length misses the requested time by a wide margin.",
            "Written for delivery and near the requested length; a few sentences would trip a performer.",
            "Every line is natural to say aloud, with pauses built into the rhythm, and the length fits the requested time.")),
    ]),
}
MAX_DIMS = max(len(dims) for _, dims in DOMAINS.values())

# Noise model, on the 0-1 anchor scale.
DOMAIN_SD = 0.02  # a model's per-domain deviation from its base quality
DIMENSION_SD = 0.04  # a model's per-dimension profile within a domain
SHOW_SD = 0.05  # a model's per-show offset on the show-conditioned sitcom dimensions
TASK_SD = 0.05  # task difficulty, shared by all models
OUTPUT_SD = 0.08  # one output's quality, shared by both judges
JUDGE_SD = 0.15  # one judge's reading of one dimension
REPLICA_SD = 0.03  # a replica's shift from its base model (plus REPLICA_SD / 1.5 per domain)
RETRY_OK_RATE = 0.02  # ok generations that needed their one retry

# The exclusion plan, per replica group: exact counts by reason.
# generation = failed generation; refusal = a judge refused on the standard prompt (some
# followed by a reframe that refused again); reframe = a judge refused, its reframed retry
# scored; error = both judges errored; single-judge = one judge scored, the other errored.
GATE_ROW_PLAN = (("generation", 3), ("refusal", 3), ("reframe", 2), ("single-judge", 1))  # 9 of 30
SPREAD_PLAN = (("generation", 11), ("refusal", 7), ("reframe", 6), ("error", 6), ("single-judge", 8))  # 38
MAX_SPREAD_PER_ROW = 2
FAILURE_REASONS = ("empty", "filtered", "truncated")

ODD_RATIONALE_RATE = 1 / 200  # rationales carrying <, >, & and quotes, which the pipeline must escape
RATIONALES = (
    "Synthetic rationale: {hi} is the clearest strength; {lo} holds the score back.",
    "Synthetic rationale: solid {hi}, but {lo} sits below what the task asks for.",
    "Synthetic rationale: {lo} is the weakest dimension, while {hi} carries the piece.",
    "Synthetic rationale: strongest on {hi}; {lo} needs another pass.",
)
EVEN_RATIONALE = "Synthetic rationale: even across dimensions, every anchor at {a}."
ODD_RATIONALES = (
    'Synthetic rationale: the draft marks its beats as "<setup>" & "<turn>", so {lo} reads as scaffolding; {hi} is fine.',
    "Synthetic rationale: {hi} > {lo} here; the 'button' & the \"tag\" both land a beat late.",
    'Synthetic rationale: frames the conflict as "A < B" & "B > A" instead of dramatising it; {lo} suffers.',
)
REFUSAL_NOTE = "Synthetic note: the judge declined to score this output under the standard prompt."
REFRAME_REFUSAL_NOTE = "Synthetic note: the judge declined again with the craft framing made explicit."
ERROR_NOTES = (
    "Synthetic note: provider timeout; no usable response.",
    "Synthetic note: the judge response was not valid JSON.",
    "Synthetic note: the judge response named a dimension outside the rubric.",
)


def _rng(*stream: int) -> np.random.Generator:
    return np.random.default_rng([DEMO_SEED, *stream])


# ---------------------------------------------------------------- design (sweep.json)


def _tasks(rng: np.random.Generator) -> list[dict]:
    """190 tasks: 30 per domain, sitcom 10 per show; 3 in 10 novel, per show for sitcom."""
    tasks = []
    for domain, (_, dims) in DOMAINS.items():
        show_conditioned = any(d[2] == S for d in dims)
        groups = [(s["id"], f"{domain}-{s['id']}", TASKS_PER_SHOW) for s in SHOWS] if show_conditioned else [(None, domain, TASKS_PER_DOMAIN)]
        for show, prefix, n in groups:
            novel = set(rng.choice(n, size=n * NOVEL_PER_TEN // 10, replace=False).tolist())
            for i in range(n):
                origin = "novel" if i in novel else "canonical-anchored"
                tasks.append({"id": f"{prefix}-{i + 1:02d}", "domain": domain, "premise_origin": origin, "show": show})
    tasks.sort(key=lambda t: t["id"])
    return tasks


def _models(scale: int) -> list[tuple[str, str, str, int, int]]:
    """(id, name, family, group, base index), sorted by id: the order of sweep.json and cells.jsonl."""
    out = []
    for g in range(1, scale + 1):
        for i, (mid, name, family, _) in enumerate(BASE_MODELS):
            if g == 1:
                out.append((mid, name, family, g, i))
            else:
                out.append((f"{mid}-r{g}", f"{name} (replica {g})", family, g, i))
    out.sort(key=lambda m: m[0])
    return out


def _sweep_document(tasks: list[dict], models: list[tuple]) -> dict:
    fingerprint = task_set_fingerprint([Task(**t) for t in tasks])
    domains = [
        {
            "id": did,
            "name": name,
            "rubric": {
                "version": "1",
                "dimensions": [
                    {
                        "id": dim_id,
                        "question": question,
                        "scope": scope,
                        "weight": weight,
                        "anchors": [{"value": v, "descriptor": text} for v, text in zip(ANCHOR_FLOATS, anchors)],
                    }
                    for dim_id, question, scope, weight, anchors in dims
                ],
            },
        }
        for did, (name, dims) in DOMAINS.items()
    ]
    return {
        "schema": "canonic.sweep/1",
        "synthetic": True,
        "sweep": dict(SWEEP),
        "task_set_fingerprint": fingerprint,
        "generation": dict(GENERATION),
        "judges": [dict(j) for j in JUDGES],
        "models": [{"id": m[0], "name": m[1], "family": m[2]} for m in models],
        "shows": [dict(s) for s in SHOWS],
        "domains": domains,
        "tasks": tasks,
    }


# ---------------------------------------------------------------- latent quality


def _latent(scale: int) -> dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """group -> (quality [model, domain], dimension profile [model, domain, dim], show offset [model, show])."""
    n, nd, ns = len(BASE_MODELS), len(DOMAINS), len(SHOWS)
    rng = _rng(1)
    base = np.array([m[3] for m in BASE_MODELS])[:, None] + rng.normal(0.0, DOMAIN_SD, (n, nd))
    profile = rng.normal(0.0, DIMENSION_SD, (n, nd, MAX_DIMS))
    show = rng.normal(0.0, SHOW_SD, (n, ns))
    out = {1: (base, profile, show)}
    for g in range(2, scale + 1):
        r = _rng(1, g)
        q = base + r.normal(0.0, REPLICA_SD, (n, 1)) + r.normal(0.0, REPLICA_SD / 1.5, (n, nd))
        out[g] = (np.clip(q, 0.05, 0.95), profile + r.normal(0.0, DIMENSION_SD / 2, profile.shape), show + r.normal(0.0, SHOW_SD / 2, show.shape))
    return out


# ---------------------------------------------------------------- exclusion plan


def _exclusion_plan(g: int, tasks: list[dict]) -> dict[tuple[int, int], tuple]:
    """(base model index, task index) -> (reason, judge index, detail) for one replica group."""
    rng = _rng(3, g)
    domain_ids = list(DOMAINS)
    by_domain = {d: [i for i, t in enumerate(tasks) if t["domain"] == d] for d in domain_ids}
    gate_model = next(i for i, m in enumerate(BASE_MODELS) if m[0] == GATE_FAIL_MODEL)
    gate_domain = domain_ids.index(GATE_FAIL_DOMAIN)

    def detail(reason: str, gate: bool) -> tuple:
        judge = int(rng.integers(2))
        if reason == "generation":
            return ("generation", judge, "filtered" if gate else FAILURE_REASONS[int(rng.integers(3))])
        if reason == "refusal":  # about one in three refusals gets a reframe that refuses again
            return ("refusal", judge, "reframe-refused" if rng.random() < 1 / 3 else None)
        if reason in ("error", "single-judge"):  # detail: which error note
            return (reason, judge, int(rng.integers(len(ERROR_NOTES))))
        return (reason, judge, None)

    plan: dict[tuple[int, int], tuple] = {}
    reasons = [r for r, n in GATE_ROW_PLAN for _ in range(n)]
    picked = rng.choice(by_domain[GATE_FAIL_DOMAIN], size=len(reasons), replace=False)
    for ti, reason in zip(picked.tolist(), reasons):
        plan[(gate_model, ti)] = detail(reason, True)

    rows = [(m, d) for m in range(len(BASE_MODELS)) for d in range(len(domain_ids)) if (m, d) != (gate_model, gate_domain)]
    slots = [row for row in rows for _ in range(MAX_SPREAD_PER_ROW)]
    reasons = [r for r, n in SPREAD_PLAN for _ in range(n)]
    rng.shuffle(reasons)
    chosen = sorted(rng.choice(len(slots), size=len(reasons), replace=False).tolist())
    per_row: dict[tuple[int, int], int] = {}
    for k in chosen:
        per_row[slots[k]] = per_row.get(slots[k], 0) + 1
    it = iter(reasons)
    for (m, d), count in per_row.items():
        for ti in rng.choice(by_domain[domain_ids[d]], size=count, replace=False).tolist():
            plan[(m, ti)] = detail(next(it), False)
    return plan


# ---------------------------------------------------------------- cells


class _Cells:
    """Draws and formats the cells of one model. Shared, read-only design state lives here."""

    def __init__(self, sweep: SweepFile, tasks: list[dict], difficulty: np.ndarray):
        self.judge_ids = [j.id for j in sweep.judges]
        self.task_ids = [t["id"] for t in tasks]
        domain_ids = list(DOMAINS)
        show_ids = [s["id"] for s in SHOWS]
        self.rubrics = [next(d.rubric for d in sweep.domains if d.id == did) for did in domain_ids]
        self.dim_ids = [[d.id for d in r.dimensions] for r in self.rubrics]
        self.dim_words = [[d.replace("-", " ") for d in ids] for ids in self.dim_ids]
        self.t_domain = np.array([domain_ids.index(t["domain"]) for t in tasks])
        self.t_show = np.array([show_ids.index(t["show"]) if t["show"] else -1 for t in tasks])
        self.t_ndims = [len(self.dim_ids[d]) for d in self.t_domain.tolist()]
        # [task, dim]: 1 where the dimension is show-conditioned, 0 elsewhere (and on padding)
        self.t_showdim = np.zeros((len(tasks), MAX_DIMS))
        for ti, d in enumerate(self.t_domain.tolist()):
            for k, dim in enumerate(self.rubrics[d].dimensions):
                self.t_showdim[ti, k] = dim.scope == S
        self.difficulty = difficulty
        self.leniency = np.array(JUDGE_LENIENCY)
        self._scores: dict[tuple, float] = {}

    def score(self, d: int, idx: tuple[int, ...]) -> float:
        key = (d, idx)
        w = self._scores.get(key)
        if w is None:
            anchors = dict(zip(self.dim_ids[d], (ANCHOR_FLOATS[i] for i in idx)))
            w = self._scores[key] = weighted_score(self.rubrics[d], anchors)
        return w

    def _scored(self, judge: str, prompt: str, d: int, idx: tuple[int, ...], template: int, odd: bool) -> dict:
        words = self.dim_words[d]
        if min(idx) == max(idx):
            text = EVEN_RATIONALE.format(a=ANCHOR_FLOATS[idx[0]])
        else:
            hi = words[idx.index(max(idx))]
            lo = words[idx.index(min(idx))]
            text = (ODD_RATIONALES[template % len(ODD_RATIONALES)] if odd else RATIONALES[template]).format(hi=hi, lo=lo)
        return {
            "judge": judge,
            "prompt": prompt,
            "outcome": "score",
            "anchors": dict(zip(self.dim_ids[d], (ANCHOR_FLOATS[i] for i in idx))),
            "rationale": text,
            "weighted_score": self.score(d, idx),
        }

    def _other(self, judge: str, prompt: str, outcome: str, note: str) -> dict:
        return {"judge": judge, "prompt": prompt, "outcome": outcome, "anchors": None, "rationale": note, "weighted_score": None}

    def lines(self, model_id: str, g: int, mi: int, latent: tuple, plan: dict) -> list[str]:
        quality, profile, show = latent
        rng = _rng(4, g, mi)
        n = len(self.task_ids)
        output = rng.normal(0.0, OUTPUT_SD, n)
        noise = rng.normal(0.0, JUDGE_SD, (n, 3, MAX_DIMS))  # judge 0, judge 1, a reframed retry
        retried = (rng.random(n) < RETRY_OK_RATE).tolist()
        template = rng.integers(0, len(RATIONALES), (n, 3)).tolist()
        odd = (rng.random((n, 3)) < ODD_RATIONALE_RATE).tolist()

        # [task, dim]: the output's true quality on each dimension, before any judge reads it
        per_task = quality[mi][self.t_domain] + self.difficulty + output
        per_show = np.where(self.t_show >= 0, show[mi][self.t_show], 0.0)
        mean = per_task[:, None] + profile[mi][self.t_domain] + self.t_showdim * per_show[:, None]
        lenient = np.array([self.leniency[0], self.leniency[1], self.leniency[0]])
        value = mean[:, None, :] + lenient[None, :, None] + noise
        idx = np.clip(np.rint(value * 4), 0, 4).astype(np.int8).tolist()

        j0, j1 = self.judge_ids
        out = []
        for ti in range(n):
            d = int(self.t_domain[ti])
            nd = self.t_ndims[ti]
            ex = plan.get((mi, ti))
            gen = {"status": "ok", "attempts": 2 if retried[ti] else 1, "failure_reason": None}
            judgments: list[dict] = []
            if ex is not None and ex[0] == "generation":
                gen = {"status": "failed", "attempts": 2, "failure_reason": ex[2]}
            else:
                for j, jid in enumerate((j0, j1)):
                    if ex is None or (ex[0] != "error" and j != ex[1]):
                        judgments.append(self._scored(jid, "standard", d, tuple(idx[ti][j][:nd]), template[ti][j], odd[ti][j]))
                    elif ex[0] in ("error", "single-judge"):
                        note = ERROR_NOTES[(ex[2] + j) % len(ERROR_NOTES)]
                        judgments.append(self._other(jid, "standard", "error", note))
                    else:  # refusal or reframe, by judge ex[1]
                        judgments.append(self._other(jid, "standard", "refusal", REFUSAL_NOTE))
                        if ex[0] == "reframe":
                            judgments.append(self._scored(jid, "reframe", d, tuple(idx[ti][2][:nd]), template[ti][2], odd[ti][2]))
                        elif ex[2] == "reframe-refused":
                            judgments.append(self._other(jid, "reframe", "refusal", REFRAME_REFUSAL_NOTE))
            cell = {"model": model_id, "task": self.task_ids[ti], "generation": gen, "judgments": judgments}
            out.append(json.dumps(cell, ensure_ascii=False, separators=(",", ":")) + "\n")
        return out


# ---------------------------------------------------------------- entry points


def _write_atomic(path: Path, write) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        write(fh)
    os.replace(tmp, path)


def generate(root: Path, scale: int = 1) -> None:
    """Write root/data/canonic/sweep.json and root/data/canonic/cells.jsonl (synthetic, seeded).

    scale=1: 13 models x 190 tasks = 2,470 cells, 2,423 counted, 77 of 78 rows past the gate.
    scale=k: 13*k models (replica groups 2..k suffixed -r<g>), 2,470*k cells, streamed to disk."""
    if scale < 1:
        raise ValueError(f"scale must be at least 1, got {scale}")
    root = Path(root)
    design = _rng(0)
    tasks = _tasks(design)
    difficulty = design.normal(0.0, TASK_SD, len(tasks))
    models = _models(scale)

    doc = _sweep_document(tasks, models)
    sweep = SweepFile.model_validate(doc, strict=True)  # the demo never writes what intake would refuse
    text = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    _write_atomic(root / SWEEP_FILE, lambda fh: fh.write(text))

    latent = _latent(scale)
    plans = {g: _exclusion_plan(g, tasks) for g in range(1, scale + 1)}
    cells = _Cells(sweep, tasks, difficulty)

    def write_cells(fh) -> None:
        for mid, _, _, g, mi in models:
            fh.writelines(cells.lines(mid, g, mi, latent[g], plans[g]))

    _write_atomic(root / CELLS_FILE, write_cells)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m sitegen.families.canonic.demo",
        description=f"Write SYNTHETIC Canonic Stage 1 demo data (seed {DEMO_SEED}) to ROOT/{SWEEP_FILE} and ROOT/{CELLS_FILE}.",
    )
    parser.add_argument("--root", type=Path, default=Path("."), help="site root (default: the current directory)")
    parser.add_argument("--scale", type=int, default=1, help="replica groups of 13 models (default 1: 2,470 cells)")
    args = parser.parse_args(argv)
    if args.scale < 1:
        parser.error("--scale must be at least 1")
    generate(args.root, args.scale)
    n = len(BASE_MODELS) * args.scale
    print(f"wrote {SWEEP_FILE} and {CELLS_FILE}: {n} models x 190 tasks = {n * 190:,} synthetic cells (seed {DEMO_SEED})")


if __name__ == "__main__":
    main()
