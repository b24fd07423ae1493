"""Frozen inputs: the record of what was frozen, and the check every build makes against it.

A family lists what must be frozen (a rubric, a Show Bible, a protocol...) with the fingerprint
of its content as it is now (sitegen.fingerprint); the freeze record (data/<family>/freeze.json)
holds, per input, the history of its frozen versions. The last version is in force: its
fingerprint must equal the recomputed one, or the build fails naming the document, the
recorded and the recomputed fingerprint. Editing a frozen input therefore needs a new history
entry, a version bump, which the site then shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, model_validator

from sitegen.errors import Problem, short_repr
from sitegen.fields import IsoTime, NoControl, Slug, normal_segments

Fingerprint = Annotated[str, StringConstraints(pattern=r"^([0-9a-f]{32}|[0-9a-f]{64})$")]
ContentPath = Annotated[str, StringConstraints(pattern=r"^content/([A-Za-z0-9._-]+/)*[A-Za-z0-9._-]+\.md$", max_length=300), AfterValidator(normal_segments)]


def record_rel(fid: str) -> str:
    """Where family FID keeps its freeze record."""
    return f"data/{fid}/freeze.json"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)


class FreezeEntry(_Strict):
    """One frozen version of an input: what it hashed to and when it was frozen."""

    version: Slug
    fingerprint: Fingerprint
    frozen_at: IsoTime
    note: Annotated[str, StringConstraints(max_length=2000), NoControl] = ""
    # The amendment-log entry (its id, "A7") that records why this version was frozen: a
    # version added since the previous release is refused without one that is new since then
    # (sitegen.release_checks).
    amendment: Annotated[str, StringConstraints(pattern=r"^[ACR][1-9][0-9]*$")] | None = None


class FrozenItem(_Strict):
    """A frozen input. `history` is oldest first; the last entry is the version in force."""

    kind: Slug
    id: Slug
    path: ContentPath | None = None  # the markdown document, for inputs that are documents
    history: list[FreezeEntry] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_versions(self) -> "FrozenItem":
        versions = [e.version for e in self.history]
        if len(set(versions)) != len(versions):
            raise ValueError(f"each version once in the history, got {versions}")
        return self


class FreezeFile(_Strict):
    """data/<family>/freeze.json"""

    schema_: Annotated[str, StringConstraints(pattern=r"^[a-z]+\.freeze/1$")] = Field(alias="schema")
    frozen_at: IsoTime
    items: list[FrozenItem] = Field(min_length=1)


@dataclass(frozen=True)
class Wanted:
    """An input that must be frozen, as the build finds it now."""

    kind: str
    id: str
    document: str  # "content/x.md", or "data/x.json $.json.path" for a record inside a file
    # None when the document could not be read (a problem already says why): its item is
    # matched, so it is not also reported as an item for nothing, but not compared.
    recomputed: str | None
    version_in_use: str | None = None  # the version the artifact says it used, if it says
    version_at: str | None = None  # where it says so ("file $.path"); by default document + ".version"


@dataclass(frozen=True)
class FrozenCheck:
    kind: str
    id: str
    document: str
    version: str
    recorded: str
    recomputed: str
    frozen_at: str
    history: list

    @property
    def matches(self) -> bool:
        return self.recorded == self.recomputed


def check(freeze: FreezeFile, freeze_rel: str, wanted: list[Wanted], problems: list[Problem]) -> list[FrozenCheck]:
    """Compare every wanted input with the freeze record; append a Problem per mismatch."""
    items: dict[tuple[str, str], tuple[int, FrozenItem]] = {}
    for i, item in enumerate(freeze.items):
        key = (item.kind, item.id)
        if key in items:
            problems.append(Problem(freeze_rel, None, f"$.items[{i}]", "one item per frozen input", f"{item.kind} {item.id!r} again"))
        items.setdefault(key, (i, item))
        for k in range(1, len(item.history)):
            if item.history[k].frozen_at <= item.history[k - 1].frozen_at:
                problems.append(Problem(freeze_rel, None, f"$.items[{i}].history[{k}].frozen_at", "a time after the previous version's",
                                        short_repr(item.history[k].frozen_at)))
    checks = []
    for w in wanted:
        entry = items.pop((w.kind, w.id), None)
        if entry is None:
            problems.append(Problem(freeze_rel, None, "$.items", f"a {w.kind} item for {w.id!r}", "none"))
            continue
        _i, item = entry
        if w.recomputed is None:
            continue
        current = item.history[-1]
        where, _, path = w.document.partition(" ")
        compare(item, w, freeze_rel, problems)
        if w.version_in_use is not None and w.version_in_use != current.version:
            v_where, _, v_path = (w.version_at or f"{where} {path}.version").partition(" ")
            problems.append(Problem(v_where, None, v_path,
                                    f"version {current.version}, the version in force in {freeze_rel} (a bumped input needs a re-run)",
                                    short_repr(w.version_in_use)))
        checks.append(FrozenCheck(w.kind, w.id, w.document, current.version, current.fingerprint, w.recomputed, current.frozen_at, list(item.history)))
    for (kind, item_id), (i, _item) in sorted(items.items()):
        problems.append(Problem(freeze_rel, None, f"$.items[{i}]", "items only for inputs this release freezes", f"{kind} {item_id!r}"))
    return checks


def compare(item: FrozenItem, w: Wanted, freeze_rel: str, problems: list[Problem]) -> None:
    """The version in force of ITEM against W's recomputed fingerprint: a Problem when they differ."""
    current = item.history[-1]
    if w.recomputed is not None and w.recomputed != current.fingerprint:
        where, _, path = w.document.partition(" ")
        problems.append(Problem(where, None, path,
                                f"fingerprint {current.fingerprint} ({w.kind} {w.id!r} version {current.version}, frozen {current.frozen_at}, "
                                f"recorded in {freeze_rel}); an edit after the freeze needs a version bump there",
                                f"fingerprint {w.recomputed} recomputed from the content as it is now"))
