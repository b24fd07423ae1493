"""The output texts (``outputs.jsonl``): one synthetic text in the shape of its domain per
ok cell, built from seeded templates."""

from __future__ import annotations

import json
import random

import numpy as np

from sitegen.families.canonic.demo.design import DOMAINS
from sitegen.families.canonic.demo.seed import _rng
from sitegen.families.canonic.demo.wordlists import (
    BOOK_DETAILS,
    BOOK_OPENERS,
    BOOK_SENTENCES,
    EVENTS,
    MEME_FORMATS,
    MEME_IMAGES,
    MEME_SETUPS,
    MEME_TURNS,
    OBJECTS,
    ODD_LINES,
    PEOPLE,
    PLACES,
    SCREEN_ACTIONS,
    SCREEN_LINES,
    SCREEN_NAMES,
    SCREEN_PARENTHETICALS,
    SCREEN_PLACES,
    SCREEN_TIMES,
    SITCOM,
    SITCOM_BUTTONS,
    SITCOM_LINES,
    SITCOM_STAGE,
    SITCOM_TALKING_HEADS,
    SONG_HOOKS,
    SONG_LINES,
    STANDUP_BEATS,
    STANDUP_DIRECTIONS,
    STANDUP_PREMISES,
    WANTS,
)

# ---------------------------------------------------------------- evidence layer: output texts
#
# Synthetic prose in each domain's shape, assembled from the word lists in wordlists.py by a
# per-cell random.Random seeded from the stream [seed, 6, g, i]. Only Random.random() is used
# (its sequence is guaranteed across Python versions), never choice() or shuffle(). Ordinary
# texts use typographic apostrophes and quotes (’ “ ”), so they contain nothing a web page must
# escape; about one in ODD_TEXT_RATE carries one line with <, >, & and ASCII quotes.

OUTPUT_LENGTH = (300, 1500)  # characters of an ordinary text
LONG_LENGTH = (3000, 6000)  # characters of a long one, which the site has to excerpt
LONG_TEXT_RATE = 1 / 100
ODD_TEXT_RATE = 1 / 200
# domain -> (shortest, longest) target length of an ordinary text, within OUTPUT_LENGTH
TARGET_LENGTH = {
    "book-opening": (450, 1400), "meme-caption": (320, 700), "movie-scene": (550, 1400),
    "sitcom-scene": (550, 1400), "song-lyrics": (450, 1200), "standup-set": (450, 1400),
}


class _Pick:
    """Draws from word lists with one random stream; fresh() avoids repeating within a text
    (a few re-draws, then it accepts a repeat, so long texts still terminate)."""

    __slots__ = ("rand", "used")

    def __init__(self, rand):
        self.rand = rand
        self.used: set[str] = set()

    def __call__(self, bank):
        return bank[int(self.rand() * len(bank))]

    def fresh(self, bank):
        for _ in range(8):
            x = bank[int(self.rand() * len(bank))]
            if x not in self.used:
                break
        self.used.add(x)
        return x


class _Texts:
    """Builds one synthetic output text per (model, task). Shared, read-only design state."""

    def __init__(self, tasks: list[dict], difficulty: np.ndarray):
        self.task_ids = [t["id"] for t in tasks]
        self.domains = [t["domain"] for t in tasks]
        self.shows = [t["show"] for t in tasks]
        domain_ids = list(DOMAINS)
        self.t_domain = np.array([domain_ids.index(d) for d in self.domains])
        self.difficulty = difficulty
        self.builders = {
            "book-opening": self._book, "meme-caption": self._meme, "movie-scene": self._movie,
            "sitcom-scene": self._sitcom, "song-lyrics": self._song, "standup-set": self._standup,
        }

    def lines(self, model_id: str, g: int, mi: int, quality: np.ndarray, plan: dict) -> list[str]:
        """The outputs.jsonl lines of one model: its ok cells, in task order."""
        rng = _rng(6, g, mi)
        n = len(self.task_ids)
        seeds = rng.integers(0, 2**62, n).tolist()
        long = (rng.random(n) < LONG_TEXT_RATE).tolist()
        odd = (rng.random(n) < ODD_TEXT_RATE).tolist()
        where = rng.random(n).tolist()
        # richness 0..2 from the latent quality of this output (task difficulty included, no judge noise)
        rich = np.digitize(quality[mi][self.t_domain] + self.difficulty, (0.5, 0.7)).tolist()
        out = []
        for ti in range(n):
            ex = plan.get((mi, ti))
            if ex is not None and ex[0] == "generation":
                continue  # a failed generation has no text
            domain = self.domains[ti]
            pick = _Pick(random.Random(seeds[ti]).random)
            lo, hi = (LONG_LENGTH[0] + 200, LONG_LENGTH[1] - 400) if long[ti] else TARGET_LENGTH[domain]
            target = lo + int((hi - lo) * pick.rand())
            limit = LONG_LENGTH[1] if long[ti] else OUTPUT_LENGTH[1]
            text = self.builders[domain](pick, rich[ti], target, limit, self.shows[ti], where[ti] if odd[ti] else None)
            out.append(json.dumps({"model": model_id, "task": self.task_ids[ti], "text": text}, ensure_ascii=False, separators=(",", ":")) + "\n")
        return out

    @staticmethod
    def _fill(parts: list[str], sep: str, target: int, limit: int, piece, odd_line: str | None, where: float | None) -> str:
        """Append pieces until the text reaches `target` characters, never past `limit`; an odd
        line (characters to escape) goes in at a drawn position after the first part."""
        n = sum(map(len, parts)) + len(sep) * (len(parts) - 1)
        if odd_line is not None:
            n += len(sep) + len(odd_line)
        while n < target:
            p = piece()
            if n + len(sep) + len(p) > limit:
                break
            parts.append(p)
            n += len(sep) + len(p)
        if odd_line is not None:
            parts.insert(1 + int(where * len(parts)), odd_line)
        return sep.join(parts)

    def _book(self, pick, rich, target, limit, show, where):
        name, s, p = pick(PEOPLE)
        o = "her" if s == "she" else "him"
        slots = {"N": name, "s": s, "S": s.capitalize(), "p": p, "P": p.capitalize(), "o": o,
                 "obj": pick(OBJECTS), "place": pick(PLACES), "event": pick(EVENTS), "want": pick(WANTS)}
        details = BOOK_DETAILS[rich]

        def paragraph(first: bool = False) -> str:
            out = [pick(BOOK_OPENERS)] if first else []
            for _ in range(2 + int(pick.rand() * 2)):
                out.append(pick.fresh(BOOK_SENTENCES))
                if pick.rand() < 0.5:
                    out.append(pick.fresh(details))
            slots["obj"], slots["place"] = pick(OBJECTS), pick(PLACES)
            return " ".join(out).format(**slots)

        odd = ODD_LINES["book-opening"] if where is not None else None
        return self._fill([paragraph(True)], "\n\n", target, limit, paragraph, odd, where)

    def _meme(self, pick, rich, target, limit, show, where):
        fmt_name, fmt = pick(MEME_FORMATS)

        def caption() -> str:
            setup, turn = pick.fresh(MEME_SETUPS), pick.fresh(MEME_TURNS)
            return fmt.format(A=setup.upper(), B=turn.upper(), a=setup, b=turn)

        head = f"Format: {fmt_name}\nImage: {pick(MEME_IMAGES)}\n{caption()}"
        odd = ODD_LINES["meme-caption"] if where is not None else None
        return self._fill([head], "\n\n", target, limit, lambda: "Alternate caption:\n" + caption(), odd, where)

    def _movie(self, pick, rich, target, limit, show, where):
        a = pick(SCREEN_NAMES)
        b = pick([x for x in SCREEN_NAMES if x != a])
        turn = [a]

        def action() -> str:
            return pick.fresh(SCREEN_ACTIONS).format(A=a, B=b)

        def beat() -> str:
            k = pick.rand()
            if k < 0.1:
                return f"INT. {pick(SCREEN_PLACES)} - {pick(SCREEN_TIMES)}\n\n{action()}"
            if k < 0.3:
                return action()
            who = turn[0]
            turn[0] = b if who == a else a
            paren = pick(SCREEN_PARENTHETICALS) + "\n" if rich and pick.rand() < 0.2 else ""
            return f"{who}\n{paren}{pick.fresh(SCREEN_LINES)}"

        head = f"INT. {pick(SCREEN_PLACES)} - {pick(SCREEN_TIMES)}\n\n{action()}"
        odd = ODD_LINES["movie-scene"].format(A=a) if where is not None else None
        return self._fill([head], "\n\n", target, limit, beat, odd, where)

    def _sitcom(self, pick, rich, target, limit, show, where):
        cast, sets, mockumentary = SITCOM[show]
        a = pick(cast)
        b = pick([c for c in cast if c != a])
        last = [b]

        def beat() -> str:
            k = pick.rand()
            if mockumentary and k < 0.12:
                return f"TALKING HEAD - {pick((a, b))}\n{pick.fresh(SITCOM_TALKING_HEADS)}"
            if k < 0.28:
                return pick.fresh(SITCOM_STAGE).format(A=a, B=b)
            who = pick(cast) if pick.rand() < 0.2 else (b if last[0] == a else a)
            if who == last[0]:
                who = b if who == a else a
            last[0] = who
            return f"{who}\n{pick.fresh(SITCOM_LINES)}"

        head = f"INT. {pick(sets)} - DAY\n\n" + pick.fresh(SITCOM_STAGE).format(A=a, B=b)
        odd = ODD_LINES["sitcom-scene"].format(A=a) if where is not None else None
        text = self._fill([head], "\n\n", target - 80, limit - 80, beat, odd, where)
        button = pick(SITCOM_BUTTONS).format(A=a, B=b)
        return f"{text}\n\n{button}" if len(text) + 2 + len(button) <= limit else text

    def _song(self, pick, rich, target, limit, show, where):
        hook = pick(SONG_HOOKS)
        chorus = "[Chorus]\n" + "\n".join((hook[0], hook[1], hook[0], pick.fresh(SONG_LINES)))
        state = {"verse": 0, "k": 1}

        def section() -> str:
            state["k"] += 1
            if state["k"] % 2 == 0:
                return chorus
            if state["k"] % 6 == 5:
                return "[Bridge]\n" + "\n".join(pick.fresh(SONG_LINES) for _ in range(2))
            state["verse"] += 1
            return f"[Verse {state['verse']}]\n" + "\n".join(pick.fresh(SONG_LINES) for _ in range(4))

        first = "[Verse 1]\n" + "\n".join(pick.fresh(SONG_LINES) for _ in range(4))
        state["verse"] = 1
        odd = ODD_LINES["song-lyrics"] if where is not None else None
        return self._fill([first], "\n\n", target, limit, section, odd, where)

    def _standup(self, pick, rich, target, limit, show, where):
        told: list[str] = []

        def bit() -> str:
            out = [pick.fresh(STANDUP_PREMISES)]
            beat, callback = pick.fresh(STANDUP_BEATS)
            out.append(beat)
            if pick.rand() < 0.4:
                out.append(pick(STANDUP_DIRECTIONS))
            beat2, callback2 = pick.fresh(STANDUP_BEATS)
            out.append(beat2)
            if rich and told and pick.rand() < 0.6:
                out.append(pick(told))  # a callback to an earlier bit
            told.extend((callback, callback2))
            return " ".join(out)

        odd = ODD_LINES["standup-set"] if where is not None else None
        return self._fill([bit()], "\n\n", target, limit, bit, odd, where)
