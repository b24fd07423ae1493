"""The sweep's two prompt templates (sweep.json $.prompts): their slots, the rules a template
must follow, and a task's generation prompt with its fields filled in.

A slot is written {{name}}. The generation prompt takes each of GENERATION_SLOTS exactly once;
the judge prompt each of JUDGE_SLOTS, except that {{show_bible}} is required only when some
rubric has a show-conditioned dimension (the Show Bible is pasted there word for word, so a
judge scores fidelity to the published document rather than to its recollection of the show).
A slot a template does not know is refused: it would reach a model as literal braces.
"""

from __future__ import annotations

import re

# A slot is a word in double braces; other text in braces ("{{< x >}}", "{{ }}") is the
# template's own words, sent as written.
SLOT = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}")

# The slots each template takes, in the order the method page describes them (the words for
# what fills each are in the page's template, canonic/_prompts.html).
GENERATION_SLOTS = ("premise", "constraints", "output_form")
JUDGE_SLOTS = ("task", "rubric", "show_bible", "output")


def slots(template: str) -> list[str]:
    """The slot names of a template, in order of appearance (repeats kept)."""
    return [m.group(1) for m in SLOT.finditer(template)]


def slot_problems(template: str, known: tuple[str, ...], required: set[str]) -> list[tuple[str, str]]:
    """(expected, found) for each rule a template breaks: every required slot exactly once,
    no slot it does not know, no slot twice."""
    found = slots(template)
    out = []
    for name in found:
        if name not in known:
            out.append((f"slots among {{{{{'}}, {{'.join(known)}}}}}", f"{{{{{name}}}}}"))
    for name in known:
        n = found.count(name)
        if n == 0 and name in required:
            out.append((f"the slot {{{{{name}}}}}", "none"))
        elif n > 1:
            out.append((f"the slot {{{{{name}}}}} once", f"{n} times"))
    return out


def fill_generation(template: str, task) -> str:
    """The generation prompt of one task: the template with its slots filled as
    the method page states (constraints one per line, each after "- "). Text inside a task's fields is never read as a slot."""
    values = {
        "premise": task.premise,
        "constraints": "\n".join(f"- {c}" for c in task.constraints),
        "output_form": task.output_form,
    }
    return SLOT.sub(lambda m: values[m.group(1)], template)
