"""The Family interface: what a benchmark family gives the build, and what it publishes.

A benchmark family plugs into the build's stages through five functions; the core never
imports a family's internals, and `build.py` alone decides the order::

    load(root, loaded, limits)   -> validated input, or None (problems go into `loaded`)
    store(db, input)             -> None: its tables in the build's DuckDB
    compute(db, input)           -> results: every number it publishes
    outputs(results)             -> Outputs: pages, tables (CSV + JSON), figures, fragments,
                                    feed entries

A family is found as a plug-in (sitegen.site_families): any installed distribution can
register one under the `sitegen.families` entry-point group, its name the family's id, its
object the family (or a `Registered` declaration of it, which imports the family on first use).
The three built-in families register the same way, in this project's own pyproject.toml
(families/builtin.py), so a team ships its family as a package of its own and names it in
`[tool.sitegen] families`. Nothing here knows which families exist.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Protocol


@dataclass(frozen=True)
class Table:
    """A data download: written as <stem>.csv and <stem>.json, next to the page that shows it."""

    stem: str  # output path without suffix, e.g. "canonic/book-opening/board"
    title: str
    columns: list[str]
    # The rows, or a function that makes them when the table is written (a family at scale
    # defers its thousands of per-row tables rather than hold them all at once; publish.
    # table_files makes and checks them, by numbers.table_rows).
    rows: list[tuple] | Callable[[], list[tuple]]
    sources: dict[str, str]  # artifact file -> SHA-256 it was computed from
    computation: str  # the name of the computation that produced it (recorded in the manifest)
    # Set by published() for a family whose data is synthetic: the downloads say so (a CSV
    # column `synthetic`, a JSON key), so a file passed on without its page still does.
    synthetic: bool = False
    # A table of an archived sweep, cohort or board: never rescored. Each release records its
    # CSV's SHA-256, and a later release that changes a value of it, or drops a row or a column,
    # is refused (sitegen.release_checks).
    archived: bool = False


# The most rows a figure draws (a board's entries, a heatmap's models). Past it a chart runs to
# metres of page that no reader follows, and drawing it was the largest single cost of a large
# site: at 1000x data, 13,000-row panels held 0.8 GB in each drawing process and as much again
# inlined in their pages. A figure cut short draws its first rows, in the order its caption
# names, and says so and where every row is (the theme's figure macro). Up to this many rows a
# board's figure writes each row's rank range beside it (interval_chart.RANK_TEXT_ROWS), as its
# caption says.
FIGURE_ROWS = 80


def first_rows(rows: list, table: str) -> tuple[list, tuple[int, int, str] | None]:
    """The first FIGURE_ROWS of a figure's ROWS, and its `cut` when there were more: (rows
    drawn, rows in all, the stem of the table that lists every one of them)."""
    if len(rows) <= FIGURE_ROWS:
        return rows, None
    return rows[:FIGURE_ROWS], (FIGURE_ROWS, len(rows), table)


@dataclass(frozen=True)
class Figure:
    """A chart drawn at build time. `draw(data)` returns a Vega-Lite spec (dict); it is only
    called when the figure cache has no SVG for (name, data, the drawing code)."""

    name: str  # output path without suffix, e.g. "canonic/book-opening/figure"
    data: list[dict]  # also published as <name>.csv and shown as the figure's data table
    draw: Callable[[list[dict]], dict]
    alt: str  # the text alternative: what the figure shows, in words
    sources: dict[str, str]
    computation: str
    # figures.figure_key(), when already known: a family's figures taken from the build cache
    # carry it, with `draw` a reference by name (incremental.DrawRef), so nothing is imported.
    key: str | None = None
    # Set by published() for a family whose data is synthetic: the note drawn into the SVG and
    # PNG (and the data CSV's `synthetic` column), part of the figure's cache key.
    synthetic_note: str | None = None
    # (rows drawn, rows in all, the table listing all of them) when the figure draws only its
    # first FIGURE_ROWS rows (first_rows); `data` then holds only what is drawn.
    cut: tuple[int, int, str] | None = None
    # Set by a family only part of whose data is synthetic (a declared benchmark's synthetic
    # sweep beside a real one) on a figure of that part: published() gives it the note.
    synthetic: bool = False

    @property
    def columns(self) -> list[str]:
        return list(self.data[0]) if self.data else []

    @property
    def drawn(self) -> dict | None:
        """How much of its rows a figure cut short draws, as the manifests record it."""
        return {"rows": self.cut[0], "of": self.cut[1], "every_row_in": f"{self.cut[2]}.csv"} if self.cut else None


@dataclass(frozen=True)
class Page:
    path: str  # output path, e.g. "canonic/book-opening/index.html"
    template: str
    title: str
    # What the template is given, or a function that makes it when the page is rendered (as a
    # deferred table's rows are).
    context: dict[str, Any] | Callable[[], dict[str, Any]]


def defers(o: "Outputs") -> bool:
    """Whether a family's outputs make some of their tables or pages only when written: such
    a result is not cached (its rows and contexts exist only while they are written)."""
    return any(callable(t.rows) for t in o.tables) or any(callable(p.context) for p in o.pages)


@dataclass(frozen=True)
class FeedEntry:
    """One dated event a family announces in the site's Atom feed (feed.xml): an amendment, a
    cohort, a sweep or a run published. Its date comes from the data, never from the clock, so
    the feed is byte-identical across builds."""

    id: str  # a permanent IRI that does not depend on where the site is hosted (a tag: URI)
    title: str
    updated: str  # "2026-10-05" (read as midnight UTC) or "2026-08-08T07:36:31.8Z" (UTC)
    href: str  # the page it announces, as an output path from the site root: "chronicle/protocol/#A7"
    html: str  # its content as HTML; every untrusted text in it already escaped


@dataclass(frozen=True)
class Kept:
    """A record a later release must keep as this one publishes it: a superseded attempt, an
    exclusion, the hash a frozen reference was judged by. A later build given this release
    (`--previous`) is refused if the record is gone or its value changed (sitegen.release_checks);
    `may_go`: it may be gone (a sweep replaced by a new sweep), never changed while it is there."""

    file: str  # the input file that holds it
    what: str  # in words, for a refusal: "the superseded first attempt of run r1"
    value: str  # what must stay: a SHA-256 (fingerprint.record_fingerprint of the record), or a short value
    may_go: bool = False


@dataclass
class Outputs:
    pages: list[Page] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    # Generated sections that authored markdown places with a `{{< name >}}` line:
    # name -> (template, context), rendered by the core like any page.
    fragments: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    # What the site's navigation and home say about this family (templates/base.html,
    # _family_nav.html, _results.html): id, title, href (its home, "canonic/"), line (one
    # sentence), synthetic (a bool), nav ([(part, [(label, href)])], parts from home, boards,
    # method, evidence, data) and result ({dated, date, boards: [{number, name, href, first,
    # and optionally ranked and entrants, the counts of ranked rows and of rows: a board with
    # one ranked row names it as the only one, not as first; and optionally unranked, why a
    # board ranks no row, such as "1 prompt: too few prompts to rank"}]}), and dated_until (optional): the
    # latest date its inputs hold, YYYY-MM-DD. A cached result dated after the build's date
    # (sitegen.clock) is not used: the family is checked again, and refuses the future date.
    summary: dict[str, Any] = field(default_factory=dict)
    # Input files published as they are under raw/, so `sitegen verify` can recompute from them.
    raw_files: list[str] = field(default_factory=list)
    # Generated text a paper can cite, by name: "canonic.public-rows" -> "77 of 78 rows ...".
    texts: dict[str, str] = field(default_factory=dict)
    # Other generated files by output path (a feed, say), written as they are.
    files: dict[str, bytes] = field(default_factory=dict)
    # What this family contributes to the site's Atom feed, in any order (the feed sorts).
    feed: list[FeedEntry] = field(default_factory=list)
    # What an input says it is beyond its bytes, by input file (an Inspect log's eval and run
    # ids, task, model, generation config): recorded in manifest.json beside the SHA-256s.
    provenance: dict[str, dict[str, Any]] = field(default_factory=dict)
    # What a later release must keep of this one's records, by a key unique in the family
    # ("runs/r1/superseded/1"); see Kept. Recorded in the manifest's ledger.
    kept: dict[str, Kept] = field(default_factory=dict)
    # The ids this family publishes its models (entrants) under, each with the ids it was
    # published under before (`formerly`): a later release may rename an id only by listing
    # the old one there, so a link or a citation of the old id still finds its model.
    entities: dict[str, list[str]] = field(default_factory=dict)
    entities_file: str = ""  # the input file that lists them, for a refusal to name


class Family(Protocol):
    id: str
    title: str
    # Every file its load may read, as folders ("data/canonic/") and globs
    # ("content/canonic/bibles/*.md") relative to the site root: what keys its cached result.
    # A read outside them fails the build (a bug in the family, not in the input).
    inputs: tuple[str, ...]
    # Markdown under this content/ folder is the family's own input (read and validated by its
    # load, rendered by its pages), not a plain page. None when it claims no content.
    content_dir: str | None
    # Optional: a folder of templates shipped with the family's package, looked up after the
    # site's templates/ (so a site overrides one by name). Absent or None: the site's only.
    # templates: str | None
    # Optional: True when the family's protocol forbids a cross-domain aggregate (Canonic's
    # "no overall score"). Its files are then refused if they carry a field that could hold
    # one (sitegen.aggregate), and so is what it gives the site's shared pages. Absent: False,
    # for the rule is a protocol's, never the site's (forbids_aggregate()).
    # forbids_aggregate: bool

    def load(self, root, loaded, limits) -> Any: ...
    # Optional: log_check(root, loaded, limits), the family's checks on its amendment log's
    # text (a published entry's fingerprint), run on every build, its result cached or not: a
    # family's load is given its entries' front matter only (sitegen.amendments).
    def store(self, db, inp) -> None: ...
    def compute(self, db, inp) -> Any: ...
    def outputs(self, results) -> Outputs: ...
    def artifact_kinds(self) -> dict[str, type]: ...


@dataclass(frozen=True)
class PythonFamily:
    """A family that computes in Python from its validated records, without the DuckDB store
    (a few hundred runs or calls do not need one): wired from its modules' functions, each
    named "module:attribute" and imported on first use. Importing the family's package then
    imports none of its modules: a figure worker that unpickles a drawing function of the
    family's pays for that module alone, not for its models, validation and pages."""

    id: str
    title: str
    inputs: tuple[str, ...]
    content_dir: str | None
    _load: str  # "module:function" of load(root, loaded, limits)
    _compute: str  # of compute(input)
    _outputs: str  # of outputs(results)
    _kinds: str  # "module:ATTRIBUTE" of the artifact kinds' dict
    # Fields its amendment log records beyond the core's, as (name, hint) for `sitegen new
    # amendment` (sitegen.amendments).
    amendment_fields: tuple[tuple[str, str], ...] = ()
    _log_check: str | None = None  # "module:function" of log_check(root, loaded, limits), if any
    forbids_aggregate: bool = False  # its protocol forbids a cross-domain aggregate (Family)

    def load(self, root, loaded, limits):
        return _named(self._load)(root, loaded, limits)

    def log_check(self, root, loaded, limits) -> None:
        if self._log_check is not None:
            _named(self._log_check)(root, loaded, limits)

    needs_store = False  # no DuckDB connection is opened for it

    def store(self, db, inp) -> None:
        return None

    def compute(self, db, inp):
        return _named(self._compute)(inp)

    def outputs(self, results) -> Outputs:
        return _named(self._outputs)(results)

    def artifact_kinds(self) -> dict[str, type]:
        return _named(self._kinds)


def _named(ref: str) -> Any:
    """The attribute a "module:attribute" reference names, its module imported on first use."""
    import importlib

    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


@dataclass(frozen=True)
class Registered:
    """A family known by its id, declared inputs and content folder before its package is
    imported. The package (and what it imports: DuckDB, numpy, its models) loads on first use
    of anything else, so a rebuild that takes a family's results from the cache does not pay
    for it. tests/test_incremental.py checks that these agree with the package's own."""

    id: str
    inputs: tuple[str, ...]
    content_dir: str | None
    module: str
    templates: str | None = None
    # The family's log_check, as "module:function" (PythonFamily._log_check): run on every
    # build, so declared here, where calling it does not import the family's package.
    _log_check: str | None = None
    forbids_aggregate: bool = False  # as the family says (Family), known without importing it

    def log_check(self, root, loaded, limits) -> None:
        if self._log_check is not None:
            _named(self._log_check)(root, loaded, limits)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # copy, pickle and dataclass machinery: not the family's
            raise AttributeError(name)
        return getattr(_import(self.module), name)


def published(family: "Family", results: Any, note: Callable[[], str]) -> Outputs:
    """The family's Outputs as the site publishes them: those of a family whose summary says
    its data is synthetic have every table and figure marked, so each download carries the
    marker as every page does. NOTE gives the words drawn into a figure (the theme's). A family
    only part of whose data is synthetic marks those tables and figures itself (Table.synthetic,
    Figure.synthetic), and only they are marked."""
    o = family.outputs(results)
    whole = bool(o.summary.get("synthetic"))
    if not whole and not any(f.synthetic for f in o.figures):
        return o
    words = note()
    return replace(o, tables=[replace(t, synthetic=True) if whole else t for t in o.tables],
                   figures=[replace(f, synthetic_note=words) if whole or f.synthetic else f for f in o.figures])


def forbids_aggregate(family: "Family") -> bool:
    """Whether FAMILY's protocol forbids a cross-domain aggregate (Family.forbids_aggregate)."""
    return bool(getattr(family, "forbids_aggregate", False))


def template_dirs(families) -> list[Path]:
    """The template folders the given families ship (Family.templates), in the order given."""
    return [Path(d) for f in families if (d := getattr(f, "templates", None))]


def _import(module: str) -> Family:
    import importlib

    return importlib.import_module(module).FAMILY
