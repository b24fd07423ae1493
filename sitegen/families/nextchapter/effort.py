"""What higher effort bought and what it cost, model by model and house by house.

Each effort setting of a model that reached the judge is compared with the setting the model
was first run at (run.json's `starting_effort`): the change in craft, whether that change is
inside the noise (the two settings' craft bands overlap, the standings' own rule for a tie),
and what a chapter took on average (output and reasoning tokens, cost in US dollars, over every
chapter record of the setting, attempts that never reached the judge included: they were paid
for too).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from sitegen.families.nextchapter.scoring import Headline, by_effort, headline, tied


@dataclass(frozen=True)
class EffortRow:
    house: str
    model: str
    name: str
    effort: str
    status: str
    starting: bool  # the setting the model was first run at
    chapters: int  # chapter records (items attempted)
    craft: Headline | None  # over its judged chapters
    output_tokens: float  # per chapter record, on average
    reasoning_tokens: float
    cost_per_chapter: float
    gain: float | None  # craft minus the starting setting's craft
    within_noise: bool | None  # its band overlaps the starting setting's
    cost_ratio: float | None  # its cost per chapter over the starting setting's


def effort_history(run, chapters, results) -> list[EffortRow]:
    rows = []
    for m in sorted(run.models, key=lambda m: (m.house, m.id)):
        per = {}
        for v in sorted(m.variants, key=lambda v: by_effort(v.effort)):
            mine = [c for c in chapters if c.model == m.id and c.effort == v.effort]
            if not mine:
                continue
            crafts = [r.craft for r in results if r.model == m.id and r.effort == v.effort]
            per[v.effort] = (v, mine, headline(crafts) if crafts else None)
        start = per.get(m.starting_effort)
        for effort, (v, mine, craft) in per.items():
            cost = statistics.fmean(c.usage.cost_usd for c in mine)
            base_cost = statistics.fmean(c.usage.cost_usd for c in start[1]) if start else None
            base = start[2] if start else None
            compare = craft is not None and base is not None and effort != m.starting_effort
            rows.append(EffortRow(
                m.house, m.id, m.name, effort, v.status, effort == m.starting_effort, len(mine), craft,
                statistics.fmean(c.usage.output_tokens for c in mine), statistics.fmean(c.usage.reasoning_tokens for c in mine), cost,
                craft.mean - base.mean if compare else None, tied(craft, base) if compare else None,
                cost / base_cost if compare and base_cost else None))
    return rows
