"""The command line: parse flags, call the library, turn errors into messages and exit codes.

Exit status: 0 success; 1 invalid input or a failed build (the previous output untouched);
2 a usage error (click's own).

`build` reports an unexpected exception (a bug, a full disk) in one line and exits 1 like any
failed build; `--debug` or the environment variable SITEGEN_DEBUG=1 shows the traceback too.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from pathlib import Path

import click

from sitegen import __version__
from sitegen.errors import SHOWN_PER_FILE, BuildError, InputError, SitegenError

root_option = click.option(
    "--root", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True,
    help="The site repository's root (holds content/, data/, templates/, assets/).")


CLEAN_HELP = ("Delete what the output directory holds besides the files its last build wrote (without it, such files "
              "are named and the build is refused); a .git at its top is kept either way.")


def _fail(exc: SitegenError) -> None:
    click.echo(str(exc), err=True)
    sys.exit(1)


@click.group()
@click.version_option(version=__version__, prog_name="sitegen")
def main() -> None:
    """sitegen: publish benchmark evidence as a static site."""


def _fail_unexpected(exc: Exception, debug: bool) -> None:
    """A failure sitegen did not foresee: one line for the user, the traceback on request."""
    if debug:
        traceback.print_exception(exc, file=sys.stderr)
    first = str(exc).strip().splitlines()
    detail = f": {first[0]}" if first else ""
    hint = "" if debug else " (--debug or SITEGEN_DEBUG=1 shows the traceback)"
    click.echo(f"build failed: unexpected {type(exc).__name__}{detail}; nothing was published{hint}", err=True)
    sys.exit(1)


@main.command()
@root_option
@click.option("--out", type=click.Path(path_type=Path), default=None, help="Output directory [default: ROOT/_site].")
@click.option("--debug", is_flag=True, help="Show the traceback of an unexpected failure (also SITEGEN_DEBUG=1).")
@click.option("--no-cache", is_flag=True, help="Build everything from scratch: neither read nor write the build cache.")
@click.option("--timings", is_flag=True, help="Also print each stage's seconds, as one JSON line on stdout.")
@click.option("--review", is_flag=True, help="A review build: every page says it is not the published site, and is not to be indexed.")
@click.option("--clean", is_flag=True, help=CLEAN_HELP)
@click.option("--previous", "previous_src", default=None, metavar="SRC",
              help="The previous release (a built site's folder, its manifest.json, or the live site's URL): refuse what does not keep what it published.")
def build(root: Path, out: Path | None, debug: bool, no_cache: bool, timings: bool, review: bool, clean: bool, previous_src: str | None) -> None:
    """Validate, compute, render and write the site."""
    started = time.perf_counter()
    out_dir = out if out is not None else root / "_site"
    previous = _previous(previous_src)
    if not no_cache:
        # A no-op rebuild is answered here, before DuckDB, pydantic or Altair are imported.
        from sitegen import incremental

        # A cache that cannot be used is not read at all: the build says why, and builds without it.
        usable = incremental.unusable(root) is None
        from sitegen.build import _release_key

        key = incremental.build_key(incremental.digest_inputs(root), review, _release_key(previous))
        record = incremental.up_to_date(root, out_dir, key) if usable else None
        if record is not None:
            seconds = time.perf_counter() - started
            _report_timings(timings, {incremental.KEY_STEP: seconds}, record["pages"], record["files"])
            click.echo(f"up to date: {record['pages']} pages, {record['files']} files in {out_dir} (checked in {seconds:.2f} s)")
            return
    from sitegen import progress
    from sitegen.build import build as run_build
    from sitegen.config import load_config

    try:
        config = load_config(root)
        if review:
            config = config.model_copy(update={"review": True})
        with progress.for_terminal() as shown:  # on a terminal only: CI logs and pipes stay as they were
            result = run_build(config, out_dir, on_stage=shown.stage, on_figure=shown.figures, cache=not no_cache, keep_workers=False,
                               clean=clean, previous=previous)
    except SitegenError as exc:
        _fail(exc)
    except Exception as exc:  # noqa: BLE001 - the last line of defence for a user, not a silencer
        _fail_unexpected(exc, debug or os.environ.get("SITEGEN_DEBUG", "") not in ("", "0"))
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    _report_timings(timings, result.seconds, result.pages, result.files)
    click.echo(f"built {result.pages} pages, {result.files} files into {result.out_dir} in {time.perf_counter() - started:.2f} s")


def _previous(src: str | None):
    """The previous release `--previous SRC` names (release_source.Previous), read now; None
    without it, or when the URL has no site yet (a 404: the first release, said here)."""
    if src is None:
        return None
    from sitegen.release_source import read_previous

    try:
        previous = read_previous(src)
    except SitegenError as exc:
        _fail(exc)
    if previous is None:
        click.echo(f"no previous release at {src} (404): this is the site's first release")
    return previous


def _report_timings(wanted: bool, seconds: dict[str, float], pages: int, files: int) -> None:
    if wanted:
        import json

        click.echo(json.dumps({"stages": seconds, "pages": pages, "files": files}, sort_keys=True))


@main.command()
@root_option
@click.option("--out", type=click.Path(path_type=Path), default=None, help="Output directory [default: ROOT/_site].")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on, and only that one.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="The port (0: any free one).")
@click.option("--clean", is_flag=True, help=CLEAN_HELP)
def serve(root: Path, out: Path | None, host: str, port: int, clean: bool) -> None:
    """Build, serve with netlify.toml's headers, rebuild and reload the page on every change."""
    import threading

    from sitegen.serve import Preview

    try:
        preview = Preview(root, out, host, port, clean=clean)
    except SitegenError as exc:
        _fail(exc)
    except OSError as exc:  # the port is taken, or the address is not this machine's
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    try:
        preview.rebuild()  # a failed build is reported and served as an error page; the server stays up
        click.echo(f"serving {preview.out} at {preview.start()} (Ctrl-C to stop)")
        preview.watch(threading.Event())
    except KeyboardInterrupt:
        click.echo("stopped")
    finally:
        preview.close()


@main.command()
@root_option
@click.option("--no-cache", is_flag=True, help="Check everything again: do not read the build cache.")
@click.option("--all", "every", is_flag=True, help="List every problem: no cap on the lines shown per file.")
@click.option("--history", "history", is_flag=True,
              help="Also check every commit that changed an amendment log or a freeze record against the one before (needs git history).")
@click.option("--since", default=None, metavar="REV", help="With --history: start from commit REV instead of the first.")
def validate(root: Path, no_cache: bool, every: bool, history: bool, since: str | None) -> None:
    """Run every check a build makes, write nothing; list every problem."""
    from sitegen import history as history_mod
    from sitegen.build import validate as run_validate
    from sitegen.config import load_config

    def report(problems: list) -> None:
        if problems:
            click.echo(InputError(problems).render(None if every else SHOWN_PER_FILE), err=True)

    problems, checked = [], None
    try:
        if since is not None and not history:
            raise BuildError("--since: expected --history with it (the commit to check the history from)")
        config = load_config(root)
        try:
            for warning in run_validate(config, cache=not no_cache):
                click.echo(f"warning: {warning}", err=True)
        except InputError as exc:
            problems += exc.problems
        if history:
            checked, found = history_mod.check(config, since)
            problems += found
    except SitegenError as exc:
        report(problems)  # what was found before the history could not be checked
        _fail(exc)
    if problems:
        report(problems)
        sys.exit(1)
    click.echo("valid: every artifact meets its contract and every stated number agrees")
    if checked is not None:
        click.echo(f"history: {checked} states of the amendment logs and freeze records, each keeping what the one before held"
                   if checked > 1 else "history: no commit before this one changed an amendment log or a freeze record")


@main.command()
@root_option
@click.option("--check", is_flag=True, help="Exit 1 if schemas/ differs from the models, without writing.")
def schema(root: Path, check: bool) -> None:
    """Write the JSON Schema of every artifact kind into schemas/."""
    from sitegen.contract import schema_documents, stale_schemas
    from sitegen.site_families import installed
    from sitegen.families.declared import Declared

    # Every installed family's artifacts, and the declarative family's configuration and records.
    families = [*installed().values(), Declared("declared")]
    kinds = {k: m for fam in families for k, m in fam.artifact_kinds().items()}
    docs = schema_documents(kinds)
    target = root / "schemas"
    stale = stale_schemas(target, docs)
    if check:
        if stale:
            click.echo("schemas/ is stale: " + ", ".join(stale) + " (run `sitegen schema`)", err=True)
            sys.exit(1)
        click.echo(f"schemas/ is up to date ({len(docs)} artifact kinds)")
        return
    from sitegen.families.demo_files import write_atomic

    try:
        for name, text in docs.items():
            # a new file in place of the name: a link there is replaced, never written through
            write_atomic(target / name, lambda fh, text=text: fh.write(text))
        for name in stale:
            if name not in docs:
                (target / name).unlink()
    except OSError as exc:
        _fail(BuildError(f"cannot write {exc.filename or target}: {exc.strerror or exc}"))
    click.echo(f"wrote {len(docs)} schemas into {target}")


@main.command()
@click.argument("site", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--source", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="The site repository SITE was built from: build it again from scratch and compare every file byte for byte.")
@click.option("--previous", "previous_src", default=None, metavar="SRC",
              help="The release SITE was built against (a folder, a manifest.json or a URL): check that SITE keeps what it published.")
def verify(site: Path, source: Path | None, previous_src: str | None) -> None:
    """Check a built site: every hash in its manifest, every table recomputed from its raw
    records, its feeds, checksums and archives made again from them (pages and figures' drawings
    by hash only); with --source, every byte against a fresh build of the repository."""
    from sitegen.verify import verify as run_verify

    previous = _previous(previous_src) if previous_src is not None else False
    try:
        problems = run_verify(site, source, previous)
    except SitegenError as exc:
        click.echo(f"--source {source} does not build, so {site} cannot be compared with it:", err=True)
        _fail(exc)
    for line in problems:
        click.echo(line, err=True)
    if problems:
        click.echo(f"{len(problems)} mismatch{'es' if len(problems) != 1 else ''}: the site does not match its records", err=True)
        sys.exit(1)
    if source is not None:
        click.echo(f"verified: every file of {site} is byte for byte the one a fresh build of {source} writes, and no file is missing or added")
        return
    # Each claim is a check of sitegen.verify; tests/test_verify.py edits a file of each kind and
    # rewrites the hashes to match, to see it caught or named here as checked by hash only.
    if previous is not False:
        click.echo(f"verified against the previous release ({previous_src}): {site} keeps every log entry, frozen version and archived table it published")
    click.echo(f"verified: every file matches manifest.json; from {site}/raw every table and every figure's data were "
               "recomputed, and derived again: the manifest's artifacts and provenance, feed.xml's entries, each family's "
               "own generated files (its feed), every family's archive (each member byte for byte the published file, none missing or extra) "
               "and SHA256SUMS")
    click.echo("checked by hash only, against a manifest that could have been rewritten with them: the pages (and every "
               "number they show), figures' SVG, PNG and Vega-Lite specs, assets, sitemap.xml and robots.txt, feed.xml's "
               "title and address, and the SHA-256s of sources not published under raw/; "
               f"`sitegen verify {site} --source REPO` rebuilds the site and checks every byte")


@main.command()
@root_option
@click.option("--out", type=click.Path(path_type=Path), required=True, help="Directory for the paper's figures, tables and text.")
@click.option("--no-cache", is_flag=True, help="Check and compute everything again: do not read the build cache.")
@click.option("--clean", is_flag=True, help=CLEAN_HELP)
def paper(root: Path, out: Path, no_cache: bool, clean: bool) -> None:
    """Write the figures, tables and sentences the paper requires ([tool.sitegen.paper])."""
    from sitegen.config import load_config
    from sitegen.paper import paper as run_paper

    try:
        names, warnings = run_paper(load_config(root), out, cache=not no_cache, clean=clean)
        for warning in warnings:
            click.echo(f"warning: {warning}", err=True)
    except SitegenError as exc:
        _fail(exc)
    click.echo(f"wrote {len(names)} required items into {out}")


@main.group()
def new() -> None:
    """Scaffold a new site, or a new authored entry."""


@new.command("site")
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--id", "fid", default="mybench", show_default=True, help="The benchmark's family id (its folder under content/ and data/).")
@click.option("--title", default="My benchmark", show_default=True, help="The benchmark's title.")
@click.option("--from-inspect", "logs", type=click.Path(path_type=Path), default=None,
              help="A folder of Inspect AI evaluation logs: the site publishes them instead of example data.")
def new_site(directory: Path, fid: str, title: str, logs: Path | None) -> None:
    """Write a site repository for a declared benchmark into DIRECTORY: its configuration, a
    method page, a small synthetic example dataset (or, with --from-inspect, the Inspect logs
    given), a README, netlify.toml and a CI workflow. Without --from-inspect it builds as it is:
    `cd DIRECTORY && sitegen build`."""
    try:
        if logs is None:
            from sitegen.scaffold_site import new_site as scaffold

            written = scaffold(directory, fid, title)
        else:
            from sitegen.scaffold_inspect import new_site_from_inspect

            written = new_site_from_inspect(directory, fid, title, logs)
    except SitegenError as exc:
        _fail(exc)
    if logs is None:
        click.echo(f"wrote {len(written)} files into {directory}: `cd {directory} && sitegen build`, then replace the example data with yours")
    else:
        click.echo(f"wrote {len(written)} files into {directory}: write what content/{fid}/benchmark.toml marks FILL IN, "
                   f"declare its grader, confirm its criteria's scales and directions, check data/{fid}/models.jsonl, then `cd {directory} && sitegen build`")


@new.command("amendment")
@root_option
@click.option("--title", required=True, help="The entry's title.")
@click.option("--family", "fid", default=None, help="The family whose log it joins (needed when the site has several).")
@click.option("--kind", type=click.Choice(["amendment", "clarification", "rename-note"]), default="amendment",
              show_default=True, help="An amendment (A<n>), a clarification (C<n>) or a rename note (R<n>).")
def new_amendment(root: Path, title: str, fid: str | None, kind: str) -> None:
    """Write the next entry of a family's amendment log (next id of its kind, today's date)
    into content/<family>/amendments/, with FILL IN where only a person knows the answer."""
    from sitegen.config import load_config
    from sitegen.site_families import for_site
    from sitegen.scaffold_amendment import new_entry, today

    try:
        today()  # a malformed SOURCE_DATE_EPOCH is said first, whatever else is wrong
        config = load_config(root)
        if fid is None:
            if len(config.families) != 1:
                raise BuildError(f"--family: expected one of the site's families ({', '.join(config.families)}); found none given")
            fid = config.families[0]
        elif fid not in config.families:
            raise BuildError(f"--family: expected one of the site's families ({', '.join(config.families)}); found {fid!r}")
        family = for_site(root, [fid])[fid]
        path = new_entry(root, fid, title, kind, getattr(family, "amendment_fields", ()))
    except SitegenError as exc:
        _fail(exc)
    click.echo(f"wrote {path}: replace every FILL IN, then build")


@main.group()
def freeze() -> None:
    """Write a family's freeze record (data/<family>/freeze.json) by command, not by hand."""


@freeze.command("record")
@root_option
@click.option("--family", "fid", required=True, help="The family whose freeze record it is.")
def freeze_record_cmd(root: Path, fid: str) -> None:
    """Record, at version 1 and its fingerprint now, every input the family freezes that its
    record does not hold yet (a new amendment-log entry, a new frozen document)."""
    from sitegen.config import load_config
    from sitegen.freeze import record_rel
    from sitegen.freeze_record import record

    try:
        added = record(load_config(root), fid)
    except SitegenError as exc:
        _fail(exc)
    click.echo(f"recorded in {record_rel(fid)}: {', '.join(added)}" if added else f"{record_rel(fid)} already records every input {fid} freezes")


@freeze.command("bump")
@root_option
@click.argument("key", metavar="KIND/ID")
@click.option("--family", "fid", required=True, help="The family whose freeze record it is.")
@click.option("--version", "version", required=True, help="The new version's label (v1.1.2).")
@click.option("--amendment", required=True, help="The amendment-log entry that records why it changed (A7).")
@click.option("--note", default="", help="What changed, in a sentence.")
def freeze_bump_cmd(root: Path, key: str, fid: str, version: str, amendment: str, note: str) -> None:
    """Add a version to a frozen input that was edited: its fingerprint now, and the entry of
    the amendment log that records why."""
    from sitegen.config import load_config
    from sitegen.freeze_record import bump

    try:
        click.echo(f"recorded {bump(load_config(root), fid, key, version, amendment, note)}")
    except SitegenError as exc:
        _fail(exc)
