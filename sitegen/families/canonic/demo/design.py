"""The frozen design: sweep identity, judges, models, shows, the six domain rubrics and the
tasks, and the sweep document (``sweep.json``) built from them."""

from __future__ import annotations

import numpy as np

from sitegen.families.canonic.demo.task_texts import GENERATION_PROMPT, JUDGE_PROMPT, task_wording
from sitegen.families.canonic.models import Task
from sitegen.families.canonic.evidence_intake import task_set_fingerprint

ANCHOR_FLOATS = (0.0, 0.25, 0.5, 0.75, 1.0)

SWEEP = {"id": "full-001", "date": "2026-08-08", "frozen_at": "2026-08-08T07:36:31.813872Z"}
GENERATION = {"temperature": 0.7, "max_tokens": 12000, "retries": 1}

JUDGES = (
    {"id": "z-ai/glm-5.2", "name": "GLM 5.2", "family": "zai"},
    {"id": "mistralai/mistral-large-2512", "name": "Mistral Large 2512", "family": "mistral"},
)
JUDGE_LENIENCY = (0.03, -0.02)  # additive, on the 0-1 anchor scale: GLM 5.2 is slightly more lenient

# (id, name, family, base latent quality on the 0-1 anchor scale). Four tiers with gaps
# between them, so the boards show rows whose intervals overlap and rows wholly apart.
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
# The rubric-tuning subset, known by neutral labels until the freeze released the mapping.
DEVELOPMENT = (("Lantern", "openai/gpt-5.5"), ("Harbour", "deepseek/deepseek-v4"), ("Meridian", "mistralai/mistral-medium-3.5"))
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
    return task_wording(tasks)


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
        "task_set_version": "1",
        "generation": dict(GENERATION),
        "development": {"models": [{"label": label, "model": model} for label, model in DEVELOPMENT],
                        "released_at": SWEEP["frozen_at"]},
        "prompts": {"generation": {"version": "1", "text": GENERATION_PROMPT}, "judge": {"version": "1", "text": JUDGE_PROMPT}},
        "judges": [dict(j) for j in JUDGES],
        "models": [{"id": m[0], "name": m[1], "family": m[2]} for m in models],
        "shows": [{**s, "bible_version": "1"} for s in SHOWS],
        "domains": domains,
        "tasks": tasks,
    }
