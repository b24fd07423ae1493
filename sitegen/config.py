"""Site configuration: the [tool.sitegen] table of the site repository's pyproject.toml.

A site repository needs no other config file. Every key has a default; an unknown key or a
wrong type is an InputError like any other bad input.

`base_url` is where the site is served, ending with '/'. Links inside pages are relative
whatever it is, so a site works from any folder. When it is an absolute http(s) URL
("https://benchmarks.example.org/"), the build also writes what needs the full address: a
`<link rel="canonical">` on every page, `sitemap.xml`, `robots.txt` pointing at it, and
absolute entry links in `feed.xml`. When it is a path ("/", "/bench/"), none of those is
written (a sitemap must list absolute URLs) and the feed's links are relative. Crawlers read
robots.txt only at the root of a host, so under a base URL with a path it is written but unread.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from sitegen.contract import duplicates, problems_from
from sitegen.fields import Name
from sitegen.limits import Limits
from sitegen.errors import InputError, Problem, short_repr
from sitegen.load import input_bytes

CONFIG_FILE = "pyproject.toml"


class PaperConfig(BaseModel):
    """What `sitegen paper` must produce: figure names, table stems and text names."""

    model_config = ConfigDict(extra="forbid", strict=True)
    required: list[str] = Field(default_factory=list)


class SiteConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    root: Path = Path(".")
    title: Name = "Benchmark evidence"  # a name's rules: it heads every page
    base_url: str = "/"
    families: list[str] = Field(default_factory=lambda: ["canonic"])
    limits: Limits = Field(default_factory=Limits)
    paper: PaperConfig = Field(default_factory=PaperConfig)
    # A review build (`sitegen build --review`, as netlify.toml's deploy previews run it): every
    # page says it is not the published site and asks search engines not to index it. Set by
    # the command line, never by pyproject.toml.
    review: bool = False

    @field_validator("base_url")
    @classmethod
    def _check_base_url(cls, value: str) -> str:
        if not _is_absolute_url(value) and not _is_site_path(value):
            raise ValueError("an absolute http(s) URL or a path starting with '/', ending with '/' "
                             "(such as \"https://benchmarks.example.org/\" or \"/\")")
        return value

    @property
    def absolute_base_url(self) -> str | None:
        """base_url when it is an absolute http(s) URL (canonical links, sitemap), else None."""
        return self.base_url if _is_absolute_url(self.base_url) else None


def _is_absolute_url(value: str) -> bool:
    parts = urlsplit(value)
    return (parts.scheme in ("http", "https") and bool(parts.hostname) and value.endswith("/")
            and parts.username is None and _plain(value))


def _is_site_path(value: str) -> bool:
    # "//host/" is a network-path reference (another host), not a path on this one
    return value.startswith("/") and not value.startswith("//") and value.endswith("/") and _plain(value)


def _plain(value: str) -> bool:
    """No query, fragment, whitespace, quotes or angle brackets: a base URL is a folder, and it
    goes as it is into HTML, XML and robots.txt."""
    return not any(c.isspace() or c in "?#\"'<>\\" for c in value)


def load_config(root: Path | str = ".") -> SiteConfig:
    root = Path(root).resolve()
    table: dict = {}
    path = root / CONFIG_FILE
    if path.is_file():
        try:
            # read as every input is: a symlink to ../.env or to a host file is refused by name
            table = tomllib.loads(input_bytes(root, path).decode("utf-8")).get("tool", {}).get("sitegen", {})
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise InputError([Problem(CONFIG_FILE, None, "", "valid TOML", str(exc))]) from None
    if "review" in table:  # a property of one build, not of the site
        raise InputError([Problem(CONFIG_FILE, None, "$.tool.sitegen.review", "no review key: a review build is asked for on the command line "
                                  "(sitegen build --review)", short_repr(table["review"]))])
    try:
        cfg = SiteConfig.model_validate({**table, "root": root}, strict=False)
    except ValidationError as exc:
        raise InputError(problems_from(exc, lambda loc: (CONFIG_FILE, None, ("tool", "sitegen", *loc)))) from None
    from sitegen.site_families import for_site, installed  # late: discovering them imports the declarations

    problems = _family_problems(cfg.families, sorted(installed()), sorted(for_site(root, cfg.families)))
    if problems:
        raise InputError(problems)
    return cfg


def _family_problems(families: list[str], installed: list[str], found: list[str]) -> list[Problem]:
    """A site publishes each family once (a second would write its pages twice) and at least
    one; each is installed, or declared by its content/<id>/benchmark.toml (`found` holds both)."""
    where = (CONFIG_FILE, None, "$.tool.sitegen.families")
    problems = [Problem(*where, "each family once", f"{short_repr(name)} listed again") for name in duplicates(families)]
    unknown = [f for f in families if f not in found]
    if unknown:
        problems.append(Problem(*where, f"families from {installed}, or a family declared by content/<id>/benchmark.toml",
                                repr(unknown)))
    if not families:
        problems.append(Problem(*where, "at least one family", "an empty list"))
    return problems
