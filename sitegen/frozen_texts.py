"""The text of every version of a frozen document, so that its page shows what each version
said and what changed between them, not only their fingerprints.

The version in force is the document itself. An earlier version is kept in the repository at
content/<family>/versions/<item id>/<version>.md, and checked like the document: its text must
hash (sitegen.fingerprint.text_fingerprint) to the fingerprint the freeze record holds for that
version, or the build fails. `sitegen freeze bump` keeps the text of the version it replaces
there, from git's HEAD when the working copy is already edited (sitegen.freeze_record). An older
version whose text was not kept is said to be so on the page, with its fingerprint.

The changes between two versions are listed sentence by sentence (difflib, on the text split at
sentence ends and line breaks): a rule deleted under a note that says "wording only" is there
for the reader to see, since no check can tell a rule from its wording.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

from sitegen.errors import Problem
from sitegen.fingerprint import canonical_text, text_fingerprint
from sitegen.freeze import FrozenCheck
from sitegen.load import Loaded, read_bytes


def versions_dir(fid: str, item_id: str) -> str:
    return f"content/{fid}/versions/{item_id}"


@dataclass(frozen=True)
class Version:
    version: str
    frozen_at: str
    fingerprint: str
    note: str
    amendment: str | None
    text: str | None  # None: not kept in the repository
    in_force: bool
    removed: tuple[str, ...] = ()  # sentences of the version before that this one no longer has
    added: tuple[str, ...] = ()  # and the ones it has that the one before did not


def read(root: Path, fid: str, check: FrozenCheck, current: bytes, loaded: Loaded, limits, freeze_rel: str) -> list[Version]:
    """Every version of the frozen document CHECK (oldest first) with its text where it is kept;
    a Problem in LOADED for a kept text that is not the version it is named for, and for a file
    named for no earlier version."""
    folder = versions_dir(fid, check.id)
    kept = {p.stem: p for p in sorted((root / folder).glob("*.md"))} if (root / folder).is_dir() else {}
    earlier = {h.version for h in check.history[:-1]}
    for name in sorted(set(kept) - earlier):
        loaded.problems.append(Problem(f"{folder}/{name}.md", None, "", f"the text of an earlier version of {check.kind}/{check.id} "
                                       f"({', '.join(sorted(earlier)) or 'it has none'}: {freeze_rel})", f"a file for version {name}"))
    texts: list[str | None] = []
    for k, h in enumerate(check.history):
        if k == len(check.history) - 1:
            texts.append(canonical_text(current).decode("utf-8"))
            continue
        path = kept.get(h.version)
        data = read_bytes(root, path, loaded, limits)[1] if path is not None else None
        if data is not None and text_fingerprint(data) != h.fingerprint:
            loaded.problems.append(Problem(f"{folder}/{h.version}.md", None, "", f"the text of version {h.version} of {check.kind}/{check.id}, "
                                           f"fingerprint {h.fingerprint} ({freeze_rel})", f"fingerprint {text_fingerprint(data)}"))
            data = None
        texts.append(canonical_text(data).decode("utf-8") if data is not None else None)
    out = []
    for k, h in enumerate(check.history):
        removed, added = _changes(texts[k - 1], texts[k]) if k and texts[k - 1] is not None and texts[k] is not None else ((), ())
        out.append(Version(h.version, h.frozen_at, h.fingerprint, h.note, h.amendment, texts[k], k == len(check.history) - 1, removed, added))
    return out


# A sentence ends at . ! or ? after a word (not "6." numbering a list item), followed by space.
def read_files(root: Path, fid: str, loaded: Loaded, limits) -> None:
    """Read every kept text of FID's frozen documents for its problems alone (a file over the
    size limit, one that is not a regular file), when the documents they are versions of could
    not be read: each input file's problem is reported whatever else is broken."""
    folder = root / f"content/{fid}/versions"
    for path in sorted(folder.rglob("*.md")) if folder.is_dir() else ():
        read_bytes(root, path, loaded, limits)


_SENTENCE = re.compile(r"(?<=[^\d\s][.!?])\s+")


def sentences(text: str) -> list[str]:
    """TEXT's sentences, each on one line: paragraphs (split at blank lines) have their line
    breaks joined first, as a text wrapped at a width reads."""
    out = []
    for para in re.split(r"\n\s*\n", text):
        out += [s for s in _SENTENCE.split(" ".join(para.split())) if s]
    return out


def _changes(before: str, after: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The sentences BEFORE has and AFTER lacks, and the other way round, in text order."""
    a, b = sentences(before), sentences(after)
    removed, added = [], []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            removed += a[i1:i2]
        if tag in ("replace", "insert"):
            added += b[j1:j2]
    return tuple(removed), tuple(added)
