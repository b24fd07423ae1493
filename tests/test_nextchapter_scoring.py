"""NextChapterBench's scoring rules and memorisation screen, on hand-made cases and against
brute-force references (the family's pages come in a later change; these rules come first)."""

from __future__ import annotations

import random
import statistics

from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.families.nextchapter.models import CRAFT, Check
from sitegen.families.nextchapter.scoring import (
    Headline, VariantResult, check_passes, collapse, compliance, craft, headline, tied,
)
from sitegen.families.nextchapter.screen import longest_copied_run, screen, words

TEXT = "Anne walked to the gate at half past nine. The door of the study was on the left.\nShe did not go to Bath."


def check(kind, passed, quote, index=0):
    return Check(kind=kind, index=index, passed=passed, quote=quote)


# --------------------------------------------------------------------------- compliance


def test_a_contradicted_trap_costs_twice_a_failed_beat():
    beat_fails = [check("beat", False, ""), check("trap", True, "at half past nine")]
    trap_fails = [check("beat", True, "Anne walked to the gate"), check("trap", False, "")]
    # weights: beat 1, trap 2 -> losing the beat leaves 2/3, losing the trap leaves 1/3
    assert compliance(beat_fails, TEXT) == 100 * 2 / 3
    assert compliance(trap_fails, TEXT) == 100 * 1 / 3


def test_every_kind_counts_once_except_traps():
    checks = [check("beat", True, "Anne walked"), check("prohibition", True, "She did not go to Bath."),
              check("end-state", False, ""), *[check("trap", True, "the study", i) for i in range(5)]]
    assert compliance(checks, TEXT) == 100 * (1 + 1 + 0 + 10) / (1 + 1 + 1 + 10)


def test_a_pass_whose_quotation_is_not_in_the_text_is_a_fail():
    assert check_passes(check("beat", True, "Anne walked to the gate"), TEXT)
    assert not check_passes(check("beat", True, "Anne ran to the gate"), TEXT)  # not verbatim
    assert not check_passes(check("beat", True, ""), TEXT)  # no quotation at all
    assert not check_passes(check("beat", False, "Anne walked to the gate"), TEXT)  # the judge said fail


def test_quotations_match_across_line_wrapping_but_not_across_wording():
    assert check_passes(check("trap", True, "on the left.  She did not"), TEXT)
    assert not check_passes(check("trap", True, "on the left. she did not"), TEXT)  # case is part of verbatim


# --------------------------------------------------------------------------- headline, ties


def test_craft_is_the_mean_of_the_eight_dimensions():
    readings = {d: float(10 * i) for i, d in enumerate(CRAFT)}
    assert craft(readings) == statistics.fmean(readings.values())


def test_headline_is_the_mean_with_the_standard_error_of_the_items():
    scores = [70.0, 72.5, 68.0, 75.0, 71.0, 69.5, 73.0, 70.5, 74.0, 72.0]
    h = headline(scores)
    assert h.mean == statistics.fmean(scores)
    assert abs(h.se - statistics.stdev(scores) / len(scores) ** 0.5) < 1e-12
    assert h.n == 10


def test_overlapping_bands_are_a_tie_and_touching_counts():
    assert tied(Headline(70.0, 1.0, 10), Headline(71.5, 1.0, 10))
    assert tied(Headline(70.0, 1.0, 10), Headline(72.0, 1.0, 10))  # 71 touches 71
    assert not tied(Headline(70.0, 1.0, 10), Headline(72.5, 1.0, 10))


# --------------------------------------------------------------------------- effort variants


def v(effort, status, items, mean):
    return VariantResult(effort, status, items, Headline(mean, 1.0, items) if mean is not None else None, None)


def test_the_best_complete_setting_stands_for_the_model_and_the_others_go_beneath():
    best, rest = collapse([v("low", "incomplete", 9, 80.0), v("medium", "judged", 10, 74.0),
                           v("xhigh", "judged", 10, 76.0), v("high", "not-judged", 0, None)], 10)
    assert best.effort == "xhigh"  # the incomplete low setting scores higher but cannot stand
    assert [x.effort for x in rest] == ["low", "medium", "high"]
    assert [x.marker for x in rest] == ["✳", "", "—"]


def test_a_model_with_no_complete_setting_has_no_row_of_its_own():
    best, rest = collapse([v("low", "incomplete", 9, 80.0)], 10)
    assert best is None and [x.effort for x in rest] == ["low"]


# --------------------------------------------------------------------------- the memorisation screen


def brute_longest(a: list[str], b: list[str]) -> int:
    best = 0
    prev = [0] * (len(b) + 1)
    for i in range(1, len(a) + 1):
        cur = [0] * (len(b) + 1)
        for j in range(1, len(b) + 1):
            if a[i - 1] == b[j - 1]:
                cur[j] = prev[j - 1] + 1
                best = max(best, cur[j])
        prev = cur
    return best


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from("a b c d e".split()), max_size=40), st.lists(st.sampled_from("a b c d e".split()), max_size=40))
def test_the_longest_copied_run_equals_a_brute_force_search(a, b):
    n, passage = longest_copied_run(" ".join(a), " ".join(b))
    assert n == brute_longest(a, b)
    if n:
        assert passage in " ".join(b) and passage in " ".join(a)


def test_a_planted_thirty_word_passage_is_flagged_and_quoted():
    rng = random.Random(7)
    vocab = [f"w{i}" for i in range(400)]
    author = " ".join(rng.choice(vocab) for _ in range(600)) + "."
    planted = " ".join(author.split()[200:235])  # 35 consecutive words of the author's chapter
    other = " ".join(f"x{rng.randrange(400)}" for _ in range(500))
    chapter = f"{other} {planted} {other}."
    flags = screen(chapter, source_chapter="nothing shared here.", author_chapter=author, threshold=30)
    assert flags.memorised and flags.copied_words >= 35 and flags.copied_from == "author's chapter"
    assert flags.copied_passage.split()[:5] == words(planted)[:5]


def test_unplanted_text_is_not_flagged_even_with_common_phrases():
    source = "She went to the window and looked out at the rain. It was a long night."
    chapter = "He went to the window and saw the snow. It was a long winter, and nobody came."
    flags = screen(chapter, source, "A different book altogether.", threshold=30)
    assert not flags.memorised and flags.copied_words < 6


def test_the_threshold_is_configurable():
    text = "one two three four five six seven eight nine ten."
    assert screen(text, text, "", threshold=10).memorised
    assert not screen(text, text, "", threshold=11).memorised


def test_refusals_preambles_truncation_and_markdown_are_flagged():
    assert screen("I can't write in this author's voice.", "", "", 30).refusal
    assert not screen("“I can't,” she said, and went to the window.", "", "", 30).refusal  # dialogue is not a refusal
    assert screen("Certainly! Here is the chapter you asked for:\n\nIt rained.", "", "", 30).preamble
    assert screen("It rained, and she turned toward the", "", "", 30).truncated
    assert screen("## Chapter Two\n\nIt rained.", "", "", 30).markdown
    clean = screen("It rained. “Go,” she said.", "", "", 30)
    assert not (clean.refusal or clean.preamble or clean.truncated or clean.markdown)
