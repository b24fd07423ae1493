"""The amendment log, for any family: dated markdown entries under content/<family>/amendments/.

A benchmark changes after it is frozen or first published: a budget moves, a judge is replaced,
a rule is clarified. Each change is one entry, `A<n>.md` (an amendment), `C<n>.md` (a
clarification) or `R<n>.md` (a rename note), with front matter (id, kind, title, date, and any
fields the family adds) and the text of the change. The family reads its log in its own load
(so the log keys its cached result like any input), checks it with check() and publishes it
with the theme's log (theme/templates/_amendment_log.html) or its own template. Every family
reads its folder: an entry is never silently ignored. `sitegen new amendment` writes the next
entry (scaffold_amendment.py).

A family reads its entries' front matter, never their text: the entries it is given carry no
text, and what its pages show of one (its text, its file's SHA-256) is a token that the build
replaces as the page is written (read_texts, Texts.place). So a family's result and its
rendered pages are keyed on its entries' front matter, not their text, and the usual edit of a
log, an entry's text while it is drafted, neither loads, computes nor renders its family again.
The rules on an entry's text are the build's, checked on every build (read_texts).

Rules every log keeps: the file is named after its id; ids are unique and gap-free per kind
(A1, A2, ... with no A3 missing: an entry is never quietly deleted); the id's letter is its
kind's; nothing is left as the scaffold's placeholder; the text is not empty; and no entry
is dated before the date the family says the log starts (a protocol's freeze), nor after the
build's date (sitegen.clock); and within a kind, no entry is dated before the one numbered below it.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Literal

from markupsafe import Markup
from pydantic import BaseModel, ConfigDict, StringConstraints, TypeAdapter, ValidationError, ValidationInfo, field_validator

from sitegen import clock
from sitegen.contract import validate_one
from sitegen.errors import InputError, Problem
from sitegen.fields import IsoDate, Name
from sitegen.load import Loaded, MarkdownDoc, SourceFile, discover, input_bytes, read_markdown

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
        if m is not None:
            if p.stem != m.id:
                loaded.problems.append(Problem(doc.source.rel, 1, "id", f"the file's name ({m.id}.md)", p.name))
            # without its text or its file's hash: what a page shows of them are tokens (bodies, publish)
            entries.append(Entry(m, replace(doc, source=replace(doc.source, sha256="", size=0), body="")))
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


def bodies(entries) -> dict[str, Markup]:
    """What a page shows for each entry's text, by id: its token, replaced by the text rendered
    by the site's markdown renderer (which escapes raw HTML) when the page is written."""
    return {e.meta.id: Markup(text_token(e.doc.source.rel)) for e in entries}


# A token is plain letters, digits and hyphens, so escaping (a page's, a feed's XML) leaves it
# as it is; it names the entry's file by a hash of its path, the same from build to build, so
# that a page cached or taken with tokens in it is the same page.
TOKEN = "sitegen-log-"
_TOKENS = re.compile(re.escape(TOKEN) + r"(?:text|sha256)-[0-9a-f]{24}")


def _token(kind: str, rel: str) -> str:
    return f"{TOKEN}{kind}-{hashlib.sha256(rel.encode('utf-8')).hexdigest()[:24]}"


def text_token(rel: str) -> str:
    """What a page holds for the text of the entry in file REL until it is written."""
    return _token("text", rel)


def sha_token(rel: str) -> str:
    """... and for its file's SHA-256."""
    return _token("sha256", rel)


@dataclass(frozen=True)
class Texts:
    """Every entry's text (rendered) and its file's SHA-256 as this build read them, by token."""

    by_token: dict[str, str]
    # fid -> a hash of its entries' files as read: what its pages with tokens are made from
    digests: dict[str, str]
    files: dict[str, SourceFile]  # every entry's file as read, by path

    def place(self, text: str) -> str:
        """TEXT (a page, HTML) with every token replaced; a token of no entry read is left as it
        is (a page never holds one: a family's entries are the files read here)."""
        if TOKEN not in text:
            return text
        return _TOKENS.sub(lambda m: self.by_token.get(m.group(0), m.group(0)), text)

    def place_xml(self, data: bytes) -> bytes:
        """An XML file's bytes (a feed, whose entries' HTML is escaped text) with every token
        replaced by its text escaped as XML character data."""
        if TOKEN.encode() not in data:
            return data
        from sitegen.atom import escape  # as the feed escapes any text, characters XML forbids too

        text = data.decode("utf-8")
        return _TOKENS.sub(lambda m: escape(self.by_token[m.group(0)]) if m.group(0) in self.by_token else m.group(0), text).encode("utf-8")


def front_matter_digest(root: Path, rel: str) -> str | None:
    """What keys an entry's file for its family: a hash of its front matter as written (its
    text left out); None when the file has no closed front matter, is not an input (a symlink
    out of the repository, a FIFO: never opened) or cannot be read as text. It is then keyed by
    what the inputs' digest says of it, and its family's load reports what is wrong."""
    try:
        text = input_bytes(root, root / rel).decode("utf-8").replace("\r\n", "\n")
    except (InputError, UnicodeDecodeError):
        return None
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return None
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
    if end is None:
        return None
    return hashlib.sha256("\n".join(lines[: end + 1]).encode("utf-8")).hexdigest()


def read_texts(root: Path, fids, loaded: Loaded, limits, md) -> Texts:
    """Every entry of every family's log in FIDS, read for its text (rendered by MD) and its
    file's SHA-256, and checked for what the rules ask of a text: not empty, not the scaffold's
    placeholder. Problems go to `loaded`, but one the family's own load reports too (the file
    cannot be read) is reported once. Run on every build, whether or not the family is cached."""
    by_token: dict[str, str] = {}
    digests: dict[str, str] = {}
    read_files: dict[str, SourceFile] = {}
    for fid in fids:
        read = Loaded()
        files: list[SourceFile] = []
        for p in discover(root, log_dir(fid), (".md",)):
            doc = read_markdown(root, p, read, limits)
            if doc is None:
                continue
            rel = doc.source.rel
            files.append(doc.source)
            read_files[rel] = doc.source
            if not doc.body.strip():
                read.problems.append(Problem(rel, doc.body_line, "", "the entry's text after the front matter", "nothing"))
            elif PLACEHOLDER in doc.body:
                read.problems.append(Problem(rel, doc.body_line, "", "the entry's own text, not the scaffold's placeholder", f"{PLACEHOLDER} in the text"))
            by_token[text_token(rel)] = md.render(doc.body)
            by_token[sha_token(rel)] = doc.source.sha256
        digests[fid] = hashlib.sha256("\n".join(f"{f.rel} {f.sha256}" for f in sorted(files, key=lambda f: f.rel)).encode()).hexdigest()
        loaded.problems.extend(e for e in read.problems if e not in loaded.problems)
    return Texts(by_token, digests, read_files)


def front_matter_keys(root: Path, digest: dict[str, str], fids) -> dict[str, str]:
    """What keys each entry of the logs of FIDS for its family instead of its bytes (`digest`:
    every input's SHA-256, by path): its front matter's hash, where it has one."""
    out = {}
    for fid in fids:
        folder = log_dir(fid) + "/"
        for rel, sha in digest.items():
            # what read() reads (discover), and only an input (the digest's "not an input: ..." else)
            if rel.startswith(folder) and rel.endswith(".md") and not sha.startswith("not an input"):
                if (front := front_matter_digest(root, rel)) is not None:
                    out[rel] = f"front matter {front}"
    return out


def page_path(fid: str) -> str:
    return f"{fid}/amendments/index.html"


def publish(out, fid: str, family_title: str, log: Log, context: dict | None = None, template: str = "amendments.html") -> list[Entry]:
    """Add a family's log to its outputs (a sitegen.families.Outputs): its page (the theme's
    amendments.html unless the family names its own template), its feed entries, its files
    under raw/, and a link among the family's method pages. Nothing when the log is empty.
    Returns the entries newest first."""
    from sitegen.families import FeedEntry, Page

    entries = log.newest_first()
    if not entries:
        return entries
    texts = bodies(entries)
    href = page_path(fid).removesuffix("index.html")
    files = {e.doc.source.rel: sha_token(e.doc.source.rel) for e in sorted(entries, key=lambda e: e.doc.source.rel)}
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
