"""The wording of the demo's tasks: a premise, constraints and the output's form per task, and
the two prompt templates of the sweep (``sweep.json`` $.tasks, $.prompts).

Synthetic, like everything the demo writes. A canonical-anchored premise names the structural
pattern it is built on (a stranger arrives, a reunion goes wrong) and invents its particulars;
it never quotes a source. A novel premise is invented whole. The draws come from the stream
[seed, 7], so the wording changes no score: the cells are drawn from their own streams.
"""

from __future__ import annotations

import numpy as np

from sitegen.families.canonic.demo.seed import _rng
from sitegen.families.canonic.demo.wordlists import EVENTS, MEME_IMAGES, OBJECTS, PEOPLE, PLACES, SCREEN_NAMES, SITCOM, WANTS

GENERATION_PROMPT = (
    "You are taking part in a creative-writing evaluation. Write the piece described below.\n\n"
    "Premise: {{premise}}\n\n"
    "Constraints:\n{{constraints}}\n\n"
    "Output: {{output_form}}\n\n"
    "Reply with the piece itself: no title unless the output form asks for one, no notes, no commentary."
)
JUDGE_PROMPT = (
    "You are one of two judges scoring a piece of creative writing against a fixed rubric. You do not know which "
    "model wrote it.\n\n"
    "The task the writer was given:\n{{task}}\n\n"
    "The rubric. For every dimension, pick exactly one of its five anchors (0, 0.25, 0.5, 0.75 or 1.0), the one whose "
    "descriptor fits the piece best. Do not give any other number and do not compute a total.\n{{rubric}}\n\n"
    "{{show_bible}}\n\n"
    "The piece:\n{{output}}\n\n"
    "Reply in JSON: an object mapping each dimension id to the anchor you chose, and a field \"rationale\" of at most "
    "three sentences that names what decided the lowest and the highest anchor. This is an evaluation of craft: "
    "the piece is fiction written to a brief."
)

# The objects that belong to no one named: a premise gives them to a character of either gender.
THINGS = tuple(o for o in OBJECTS if not {"his", "her"} & set(o.split()))
# Structural patterns of canonical work a canonical-anchored premise is built on.
PATTERNS = (
    "a stranger arrives and unsettles a closed community", "a homecoming that no one asked for",
    "a reunion that goes wrong", "an inheritance with a condition attached", "a secret kept for the sake of a family",
    "two rivals forced to work together", "a journey to return something to where it belongs",
    "a confession that arrives too late", "the last night before everything changes", "a promise made to someone now gone",
)
GENRES = ("literary fiction", "a crime novel", "a ghost story", "a family saga", "a comic novel", "a coming-of-age novel")
POVS = ("close third person", "first person, past tense", "first person, present tense")
SETS = ("3", "5", "7")
TOPICS = ("moving house", "a first driving lesson at forty", "a neighbour’s new hobby", "a family group chat",
          "a smart fridge", "airport security", "a wedding speech", "a houseplant that will not die")
SONG_SUBJECTS = ("leaving a small town", "a friendship that outlasted a marriage", "the last shift before a factory closes",
                 "driving home at dawn", "a letter never sent", "a city that changed while you were away")
SITUATIONS = ("setting up for a party nobody wants", "a surprise that has been found out early",
              "a borrowed item that came back broken", "a bet about who can go a day without complaining",
              "a visitor who will not leave", "a rumour about a promotion", "a dinner with one chair too few",
              "a charity event that has gone over budget", "a lie told to get out of a trip", "an apology rehearsed too often")

OUTPUT_FORMS = {
    "book-opening": "The opening of a novel: 400 to 600 words of prose, with no title or chapter heading.",
    "meme-caption": "The caption text for the image, in the format named in the constraints, one line per text box.",
    "movie-scene": "One scene in screenplay format: a scene heading, action lines and dialogue, two to three pages.",
    "sitcom-scene": "One scene in script format, in a single setting, about three minutes of screen time.",
    "song-lyrics": "Lyrics only, each section labelled in square brackets (Verse 1, Chorus, Bridge).",
    "standup-set": "A transcript of the set as it would be performed, with stage directions in parentheses.",
}


class _Draw:
    def __init__(self, rng: np.random.Generator):
        self.rng = rng

    def __call__(self, options):
        return options[int(self.rng.integers(len(options)))]


def task_wording(tasks: list[dict]) -> list[dict]:
    """Each task of TASKS (in their order) with premise, constraints and output_form added."""
    draw = _Draw(_rng(7))
    return [{**t, **_words(t, draw)} for t in tasks]


def _words(task: dict, draw: _Draw) -> dict:
    domain, novel = task["domain"], task["premise_origin"] == "novel"
    name = draw(PEOPLE)[0]
    place, thing, event, want = draw(PLACES), draw(THINGS), draw(EVENTS), draw(WANTS)
    frame = "" if novel else f"Built on a familiar pattern ({draw(PATTERNS)}): "
    a_ = "A" if novel else "a"  # the premise's first word, after the frame or at its start
    if domain == "book-opening":
        premise = f"{frame}{name} comes back to {place} the winter after {event}, carrying {thing}."
        constraints = [f"Genre: {draw(GENRES)}.", f"Point of view: {draw(POVS)}.", "Begin in the middle of an action, not with backstory.",
                       f"By the end of the excerpt, {name} must want {want}."]
    elif domain == "meme-caption":
        premise = f"{frame}{a_}n image of {draw(MEME_IMAGES)}, captioned to land one everyday frustration about {draw(TOPICS)}."
        constraints = ["At most 20 words of caption in all.", "No hashtags, emoji or brand names.",
                       f"Format: {draw(('top and bottom text', 'two-panel approve and reject', 'labelled image'))}."]
    elif domain == "movie-scene":
        i = int(draw.rng.integers(len(SCREEN_NAMES)))
        a, b = SCREEN_NAMES[i].title(), SCREEN_NAMES[(i + 1) % len(SCREEN_NAMES)].title()
        premise = f"{frame}{a} has to ask {b} for {want} at {place}, and {b} already knows about {thing}."
        constraints = ["Two speaking characters only.", "Neither character states what they want outright.",
                       "End the scene on an action, not a line of dialogue."]
    elif domain == "sitcom-scene":
        cast = SITCOM[task["show"]][0]
        premise = f"{frame}{cast[0].title()} and {cast[1].title()} are caught up in {draw(SITUATIONS)}."
        constraints = ["Use only the show’s established characters.", "Keep to the show’s format conventions.",
                       "End on a button: a final beat that turns the scene’s last line."]
    elif domain == "song-lyrics":
        premise = f"{frame}{a_} song about {draw(SONG_SUBJECTS)}, from the point of view of someone who wants {want}."
        constraints = ["Verse, chorus, verse, chorus, bridge, chorus.", "The chorus repeats word for word each time.",
                       "No rhyme on the words love, heart or night."]
    else:  # standup-set
        premise = f"{frame}{a_} set about {draw(TOPICS)}, told by a performer who {draw(('over-prepares for everything', 'has just moved back in with a parent', 'cannot say no'))}."
        constraints = [f"About {draw(SETS)} minutes when performed.", "Clean: no profanity.",
                       "At least one callback to the opening bit."]
    return {"premise": premise, "constraints": constraints, "output_form": OUTPUT_FORMS[domain]}
