"""The tasks as a reader reads them: a page per task (its premise, constraints, output form and
the generation prompt it was sent in), the task list with both prompt templates, and the
method page's account of how the tasks were built, computed from the tasks themselves."""

from __future__ import annotations

from collections import Counter

from sitegen.families import Outputs, Page, Table
from sitegen.families.canonic import prompts
from sitegen.families.canonic.compute import CanonicResults
from sitegen.families.canonic.evidence_pages import ladder_path
from sitegen.families.canonic.sentences import SENTENCES
from sitegen.families.canonic.validate import SWEEP_FILE

TASKS_INDEX = "canonic/tasks/index.html"
TASKS_DIR = "canonic/tasks/"  # a task's page is the folder of its id in here


def task_path(task: str) -> str:
    return f"{TASKS_DIR}{task}/index.html"


def origin_rows(sweep) -> list[tuple]:
    """(domain, show or None, tasks, novel, canonical-anchored) per domain, and per show within
    a domain whose tasks name shows (the split applies per show there), in sweep order."""
    shows = {sh.id: sh for sh in sweep.shows}
    rows = []
    for d in sweep.domains:
        tasks = [t for t in sweep.tasks if t.domain == d.id]
        groups = [(None, tasks)]
        if any(t.show for t in tasks):
            groups += [(sh, [t for t in tasks if t.show == sh]) for sh in shows if any(t.show == sh for t in tasks)]
        for show, ts in groups:
            n = Counter(t.premise_origin for t in ts)
            rows.append((d.id, show, len(ts), n["novel"], n["canonical-anchored"]))
    return rows


def task_outputs(res: CanonicResults, common: dict, out: Outputs) -> None:
    s = res.sweep
    sweep_only = {SWEEP_FILE: common["sources"][SWEEP_FILE]}
    domain_name = {d.id: d.name for d in s.domains}
    shows = {sh.id: sh for sh in s.shows}
    laddered = {lad.task for lad in res.evidence.ladders} if res.evidence else set()
    origins = origin_rows(s)
    novel = sum(t.premise_origin == "novel" for t in s.tasks)

    out.tables.append(Table("canonic/tasks", SENTENCES.table_tasks(),
                            ["task", "domain", "show", "premise_origin", "premise", "constraints", "output_form"],
                            [(t.id, t.domain, t.show, t.premise_origin, t.premise, "\n".join(t.constraints), t.output_form) for t in s.tasks],
                            sweep_only, "canonic.tasks"))
    out.tables.append(Table("canonic/task-origins", SENTENCES.table_task_origins(),
                            ["domain", "show", "tasks", "novel", "canonical_anchored", "novel_share"],
                            [(d, sh, n, a, b, a / n) for d, sh, n, a, b in origins], sweep_only, "canonic.tasks"))
    # The task set's versions, oldest first, as the freeze record holds them: the tasks on the
    # page are the version the sweep ran (the contract refuses any other).
    task_set = next((f for f in res.input.freeze.checks if f.kind == "task-set"), None)
    ctx = {**common, "domain_name": domain_name, "shows": shows, "task_path": task_path, "ladder_path": ladder_path,
           "laddered": laddered, "origins": origins, "novel": novel, "prompt_slots": slots_in_use(s),
           "task_set_versions": task_set.history if task_set is not None else []}
    out.fragments["canonic.tasks"] = ("canonic/_tasks.html", ctx)
    out.fragments["canonic.prompts"] = ("canonic/_prompts.html", ctx)
    out.fragments["canonic.bibles"] = ("canonic/_bibles.html", ctx)
    if s.development is not None:
        out.tables.append(Table("canonic/development", SENTENCES.table_development(), ["label", "model"],
                                [(x.label, x.model) for x in s.development.models], sweep_only, "canonic.freeze"))
    out.fragments["canonic.freeze-procedure"] = ("canonic/_freeze_procedure.html", {**ctx, "model_name": {m.id: m.name for m in s.models}})
    out.pages.append(Page(TASKS_INDEX, "canonic/tasks.html", SENTENCES.page_tasks(), ctx))
    for t in s.tasks:
        out.pages.append(Page(task_path(t.id), "canonic/task.html", SENTENCES.page_task(t),
                              {**ctx, "task": t, "prompt": prompts.fill_generation(s.prompts.generation.text, t)}))


def slots_in_use(sweep) -> dict[str, list[str]]:
    """Template -> the slots it uses, in the order the method page describes them."""
    return {key: [n for n in known if n in prompts.slots(getattr(sweep.prompts, key).text)]
            for key, known in (("generation", prompts.GENERATION_SLOTS), ("judge", prompts.JUDGE_SLOTS))}
