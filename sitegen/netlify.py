"""The response headers netlify.toml declares, so a local server sends what the host will.

`sitegen serve` and the browser tests serve the built site with these headers: a page that
breaks the Content-Security-Policy breaks on the preview server too, not first in production.
Paths match as Netlify's `for` patterns do: `*` matches anything (slashes included), `:name`
matches one path segment; every matching rule applies, later rules overriding earlier ones.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from sitegen.errors import InputError, Problem

NETLIFY_FILE = "netlify.toml"


@dataclass(frozen=True)
class HeaderRule:
    pattern: str
    values: dict[str, str]

    def matches(self, url_path: str) -> bool:
        return _pattern_regex(self.pattern).fullmatch(url_path) is not None


def _pattern_regex(pattern: str) -> re.Pattern:
    parts = re.split(r"(\*|:[A-Za-z_][A-Za-z0-9_]*)", pattern)
    regex = "".join(".*" if p == "*" else "[^/]+" if p.startswith(":") else re.escape(p) for p in parts)
    return re.compile(regex)


def load_header_rules(root: Path) -> list[HeaderRule]:
    """The [[headers]] tables of ROOT/netlify.toml, in file order; none when there is no file."""
    path = root / NETLIFY_FILE
    if not path.is_file():
        return []
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputError([Problem(NETLIFY_FILE, None, "", "valid TOML", str(exc))]) from None
    rules, problems = [], []
    for i, entry in enumerate(doc.get("headers", [])):
        values = entry.get("values", {}) if isinstance(entry, dict) else None
        if not isinstance(entry, dict) or not isinstance(entry.get("for"), str) or not isinstance(values, dict) \
                or not all(isinstance(v, str) for v in values.values()):
            problems.append(Problem(NETLIFY_FILE, None, f"$.headers[{i}]", "a table with `for` (a path) and string `values`", repr(entry)))
            continue
        rules.append(HeaderRule(entry["for"], dict(values)))
    if problems:
        raise InputError(problems)
    return rules


def headers_for(rules: list[HeaderRule], url_path: str) -> dict[str, str]:
    """The headers sent with URL_PATH (the path part of the request, starting with '/')."""
    out: dict[str, str] = {}
    for rule in rules:
        if rule.matches(url_path):
            out.update(rule.values)
    return out
