"""The amendment log, for any family: dated markdown entries under content/<family>/amendments/.

A benchmark changes after it is frozen or first published: a budget moves, a judge is replaced,
a rule is clarified. Each change is one entry, `A<n>.md` (an amendment), `C<n>.md` (a
clarification) or `R<n>.md` (a rename note), with front matter (id, kind, title, date, and any
fields the family adds) and the text of the change. The family reads its log in its own load
(so the log keys its cached result like any input), checks it with check() and publishes it
with the theme's log (theme/templates/_amendment_log.html) or its own template. Every family
reads its folder: an entry is never silently ignored. `sitegen new amendment` writes the next
entry (scaffold_amendment.py).

Rules every log keeps: the file is named after its id; ids are unique and gap-free per kind
(A1, A2, ... with no A3 missing: an entry is never quietly deleted); the id's letter is its
kind's; nothing is left as the scaffold's placeholder; the text is not empty; and no entry
is dated before the date the family says the log starts (a protocol's freeze), nor after the
build's date (sitegen.clock); and within a kind, no entry is dated before the one numbered below it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Literal

from markupsafe import Markup
from pydantic import BaseModel, ConfigDict, StringConstraints, TypeAdapter, ValidationError, ValidationInfo, field_validator

from sitegen import clock
from sitegen.contract import validate_one
from sitegen.errors import Problem
from sitegen.fields import IsoDate, Name
from sitegen.load import Loaded, MarkdownDoc, discover, read_markdown

PLACEHOLDER = "FILL IN"  # `sitegen new amendment` writes it; the build refuses it until replaced
KIND_PREFIX = {"amendment": "A", "clarification": "C", "rename-note": "R"}
# The log's order on one date: amendments, then clarifications, then the rename note.
KIND_ORDER = {"amendment": 0, "clarification": 1, "rename-note": 2}

EntryId = Annotated[str, StringConstraints(pattern=r"^[ACR][1-9][0-9]*$")]


def log_dir(fid: str) -> str:
    return f"content/{fid}/amendments"


class EntryMeta(BaseModel):
    """The front matter every entry has. A family that records more about each change (when it
    was made relative to the run, who directed it) subclasses this with those fields."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    # kind before id, so that the id's check knows the kind (pydantic validates in this order)
    kind: Literal["amendment", "clarification", "rename-note"]
    id: EntryId
    title: Name
    date: IsoDate

    @field_validator("id")
    @classmethod
    def _prefix(cls, v: str, info: ValidationInfo) -> str:
        kind = info.data.get("kind")
        if kind is not None and not v.startswith(KIND_PREFIX[kind]):
            raise ValueError(f"an id starting with {KIND_PREFIX[kind]} for a {kind}")
        return v

    @field_validator("*")
    @classmethod
    def _filled_in(cls, v):
        if isinstance(v, str) and v.startswith(PLACEHOLDER):
            raise ValueError("the entry's own text, not the scaffold's placeholder")
        return v


@dataclass(frozen=True)
class Entry:
    meta: EntryMeta
    doc: MarkdownDoc


@dataclass(frozen=True)
class Log:
    """A family's log as read: its valid entries (in file order) and the id of every entry file,
    valid or not (a broken A5.md is still there: the log has a broken entry, not a gap)."""

    dir: str
    entries: tuple[Entry, ...]
    present: frozenset[str]
    # (file, id, date) of every entry file, with the id and the date as written when each is
    # valid on its own (else None), even where another field of the entry is not: the rules
    # across entries then hold for a broken entry too, so that every problem is reported at once,
    # not in rounds as each fix uncovers the next.
    stated: tuple[tuple[str, str | None, str | None], ...] = ()

    @property
    def ids(self) -> set[str]:
        return {e.meta.id for e in self.entries}

    def newest_first(self) -> list[Entry]:
        return newest_first(self.entries)

    def get(self, entry_id: str) -> Entry | None:
        return next((e for e in self.entries if e.meta.id == entry_id), None)


def number(entry_id: str) -> int:
    return int(entry_id[1:])


def newest_first(entries) -> list[Entry]:
    """The order every log is shown in: newest first by date; on one date, amendments by
    descending number, then clarifications, then the rename note."""
    return sorted(entries, key=lambda e: (e.meta.date, -KIND_ORDER[e.meta.kind], number(e.meta.id)), reverse=True)


def front_matter(model: type[BaseModel], doc: MarkdownDoc, loaded: Loaded):
    """Validate a markdown document's front matter; its problems name the key as written
    ("date"), not a JSON path."""
    meta, errs = validate_one(model, doc.meta, doc.source.rel, 1)
    loaded.problems.extend(replace(e, path=e.path.removeprefix("$.")) for e in errs)
    return meta


def read(root: Path, fid: str, loaded: Loaded, limits, meta: type[EntryMeta] = EntryMeta) -> Log:
    """The family's log (empty when it has no folder); every problem of an entry goes to
    `loaded`."""
    entries, present, stated = [], set(), []
    folder = log_dir(fid)
    for p in discover(root, folder, (".md",)):
        present.add(p.stem)
        doc = read_markdown(root, p, loaded, limits)
        if doc is None:
            continue
        m = front_matter(meta, doc, loaded)
        entry_id, date = (_valid_alone(adapter, doc.meta.get(key)) for adapter, key in ((_ID, "id"), (_DATE, "date")))
        stated.append((doc.source.rel, entry_id, date))
        if m is None and entry_id is not None and p.stem != entry_id:
            loaded.problems.append(Problem(doc.source.rel, 1, "id", f"the file's name ({entry_id}.md)", p.name))
        if not doc.body.strip():
            loaded.problems.append(Problem(doc.source.rel, doc.body_line, "", "the entry's text after the front matter", "nothing"))
        elif PLACEHOLDER in doc.body:
            loaded.problems.append(Problem(doc.source.rel, doc.body_line, "", "the entry's own text, not the scaffold's placeholder", f"{PLACEHOLDER} in the text"))
        if m is not None:
            if p.stem != m.id:
                loaded.problems.append(Problem(doc.source.rel, 1, "id", f"the file's name ({m.id}.md)", p.name))
            entries.append(Entry(m, doc))
    return Log(folder, tuple(entries), frozenset(present | {e.meta.id for e in entries}), tuple(stated))


_ID, _DATE = TypeAdapter(EntryId), TypeAdapter(IsoDate)


def _valid_alone(adapter: TypeAdapter, value) -> str | None:
    try:
        return adapter.validate_python(value, strict=True)
    except ValidationError:
        return None


def check(log: Log, out: list[Problem], starts: tuple[str, str] | None = None) -> None:
    """The rules every log keeps (the module's docstring). `starts`: (date, what it is), the
    earliest date an entry may have, such as ("2026-08-21", "the protocol's freeze")."""
    seen: dict[str, str] = {}
    today = clock.today()  # no entry is dated after the build: a later date is a mistake or a back-dating trick
    for rel, entry_id, date in log.stated:
        if entry_id is not None and entry_id in seen:
            out.append(Problem(rel, 1, "id", f"a unique id ({entry_id} is also {seen[entry_id]})", entry_id))
        if entry_id is not None:
            seen.setdefault(entry_id, rel)
        if starts is not None and date is not None and date < starts[0]:
            out.append(Problem(rel, 1, "date", f"a date on or after {starts[1]} ({starts[0]})", date))
        if date is not None and date > today:
            out.append(Problem(rel, 1, "date", f"a date on or before {today}, the build's date (SOURCE_DATE_EPOCH, or today)", date))
    ids = {i for i in log.present if i[:1] in "ACR" and i[1:].isdigit()}
    for prefix in sorted({i[0] for i in ids}):
        numbers = sorted({int(i[1:]) for i in ids if i[0] == prefix})
        missing = sorted(set(range(1, max(numbers) + 1)) - set(numbers))
        if missing:
            out.append(Problem(log.dir, None, "", f"gap-free ids {prefix}1 to {prefix}{max(numbers)}",
                               "no " + ", ".join(f"{prefix}{n}" for n in missing)))
    # Numbers are taken in the order changes are made: an entry dated before the one numbered
    # below it was back-dated (it would slip in among older entries of the log).
    dated = sorted(((e[0], int(e[1:]), d, rel) for rel, e, d in log.stated if e is not None and d is not None), key=lambda t: (t[0], t[1]))
    for (p1, n1, d1, rel1), (p2, n2, d2, rel2) in zip(dated, dated[1:]):
        if p1 == p2 and d2 < d1 and (starts is None or d2 >= starts[0]):  # (one before the log starts is said above)
            out.append(Problem(rel2, 1, "date", f"a date on or after {d1}, the date of {p1}{n1} ({rel1}): numbers follow the order changes are made", d2))


def bodies(entries, md) -> dict[str, Markup]:
    """Each entry's text rendered by the site's markdown renderer (which escapes raw HTML)."""
    return {e.meta.id: Markup(md.render(e.doc.body)) for e in entries}


def page_path(fid: str) -> str:
    return f"{fid}/amendments/index.html"


def publish(out, fid: str, family_title: str, log: Log, md, context: dict | None = None, template: str = "amendments.html") -> list[Entry]:
    """Add a family's log to its outputs (a sitegen.families.Outputs): its page (the theme's
    amendments.html unless the family names its own template), its feed entries, its files
    under raw/, and a link among the family's method pages. Nothing when the log is empty.
    Returns the entries newest first."""
    from sitegen.families import FeedEntry, Page

    entries = log.newest_first()
    if not entries:
        return entries
    texts = bodies(entries, md)
    href = page_path(fid).removesuffix("index.html")
    files = {e.doc.source.rel: e.doc.source.sha256 for e in sorted(entries, key=lambda e: e.doc.source.rel)}
    out.pages.append(Page(page_path(fid), template, f"Amendment log: {family_title}",
                          {**(context or {}), "fid": fid, "family_title": family_title, "log": entries, "bodies": texts,
                           "log_files": files}))
    out.feed.extend(FeedEntry(f"tag:sitegen,{e.meta.date}:{fid}/amendment/{e.meta.id}", f"{e.meta.id}: {e.meta.title}",
                              e.meta.date, f"{href}#{e.meta.id}", str(texts[e.meta.id])) for e in entries)
    out.raw_files = sorted({*out.raw_files, *files})
    out.summary["dated_until"] = max(out.summary.get("dated_until", ""), *(e.meta.date for e in entries))
    for part, links in out.summary.get("nav", []):
        if part == "method":
            links.append(("Amendments", href))
    return entries
