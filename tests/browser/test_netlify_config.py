"""netlify.toml as Netlify itself reads it (@netlify/config, offline).

Netlify drops a header or redirect entry it cannot parse with only a warning, and the deploy
still succeeds: a typo would silently ship a site without its Content-Security-Policy. So the
config is resolved by Netlify's own parser and the security headers are asserted on its result.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import tomllib
from pathlib import Path

import pytest

from conftest import COMMAND_SECONDS, REPO_ROOT
from sitegen.netlify import headers_for, load_header_rules

from .conftest import NETLIFY_CONFIG, require_command, require_file

ONE_YEAR = 365 * 24 * 60 * 60


def netlify_config(root: Path) -> dict:
    """The output of `netlify-config --offline --stable` in ROOT: netlify.toml as Netlify
    resolves it. Fails when Netlify reports an entry it cannot parse."""
    require_command("node")
    tool = require_file(NETLIFY_CONFIG, "netlify-config (@netlify/config)")
    proc = subprocess.run([str(tool), "--offline", "--stable"], cwd=root, capture_output=True,
                          text=True, timeout=COMMAND_SECONDS)
    assert proc.returncode == 0, f"netlify-config exited {proc.returncode}:\n{proc.stderr[-3000:]}"
    # Netlify reports a bad entry as a warning on stderr and drops the entry.
    assert "syntax error" not in proc.stderr.lower(), f"Netlify cannot parse netlify.toml:\n{proc.stderr}"
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def resolved() -> dict:
    return netlify_config(REPO_ROOT)


@pytest.fixture(scope="module")
def declared() -> dict:
    """netlify.toml as written."""
    return tomllib.loads((REPO_ROOT / "netlify.toml").read_text(encoding="utf-8"))


def csp_directives(policy: str) -> dict[str, list[str]]:
    """A Content-Security-Policy value -> {directive: [source, ...]}."""
    out = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            out[words[0].lower()] = words[1:]
    return out


def site_headers(resolved: dict) -> dict[str, str]:
    """The headers Netlify sends with every page (the rule for /*), names lower-cased."""
    rules = [h for h in resolved["config"]["headers"] if h["for"] == "/*"]
    assert rules, f"no header rule for /*: {resolved['config']['headers']}"
    return {k.lower(): v for rule in rules for k, v in rule["values"].items()}


def test_build_command_writes_the_directory_netlify_publishes(resolved):
    build = resolved["config"]["build"]
    publish = Path(build["publish"])
    assert publish == REPO_ROOT / "_site", build["publish"]
    words = shlex.split(build["command"])
    assert "sitegen" in words and "build" in words, build["command"]
    # The build must write where Netlify publishes from, whatever else the command does.
    assert words[words.index("--out") + 1] == publish.name, build["command"]


def test_every_declared_redirect_survives_and_lands_on_a_page(resolved, declared, built_site):
    got = [(r["from"], r["to"], r["status"]) for r in resolved["config"]["redirects"]]
    want = [(r["from"], r["to"], r.get("status", 301)) for r in declared.get("redirects", [])]
    assert got == want, "Netlify dropped or changed a redirect of netlify.toml"
    # The pages published under the benchmark's former name keep working.
    assert ("/sagabench/*", "/chronicle/:splat", 301) in got
    assert all(status == 301 for _, _, status in got)
    for _, to, _ in got:
        target = built_site.out / to.replace(":splat", "").lstrip("/")
        if to.endswith("/") or target.is_dir():
            target = target / "index.html"
        assert target.is_file(), f"redirect target {to} is not a page of the built site"


def test_every_page_gets_a_strict_content_security_policy(resolved):
    policy = site_headers(resolved).get("content-security-policy")
    assert policy, "no Content-Security-Policy for /*"
    csp = csp_directives(policy)
    script_src = csp.get("script-src", csp.get("default-src"))
    assert script_src is not None, policy
    assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src, policy
    assert csp.get("object-src") == ["'none'"], policy
    assert csp.get("base-uri") == ["'none'"], policy
    assert csp.get("frame-ancestors") == ["'none'"], policy


def test_every_page_gets_the_other_security_headers(resolved):
    headers = site_headers(resolved)
    assert headers.get("x-content-type-options", "").lower() == "nosniff", headers
    assert headers.get("referrer-policy"), headers
    hsts = headers.get("strict-transport-security", "")
    m = re.search(r"max-age=(\d+)", hsts)
    assert m and int(m.group(1)) >= ONE_YEAR, f"HSTS max-age under a year: {hsts!r}"


def test_the_preview_server_resolves_the_same_header_rules_as_netlify(resolved):
    """sitegen.netlify reads netlify.toml for `sitegen serve` and the browser tests: it must see
    the same rules Netlify does, or a page could pass here and break on the host."""
    ours = [(r.pattern, r.values) for r in load_header_rules(REPO_ROOT)]
    netlify = [(h["for"], h["values"]) for h in resolved["config"]["headers"]]
    assert ours == netlify
    for path in ("/", "/canonic/", "/canonic/book-opening/board.csv", "/assets/site.css"):
        applied = headers_for(load_header_rules(REPO_ROOT), path)
        assert applied.get("Content-Security-Policy"), f"{path} would be served without the CSP"


def test_a_header_entry_netlify_cannot_parse_is_caught(tmp_path):
    """Netlify itself only warns and drops the entry: the check must turn that into a failure."""
    (tmp_path / "netlify.toml").write_text('[build]\n  publish = "_site"\n[[headers]]\n  for = "/*"\n  values = "oops"\n',
                                           encoding="utf-8")
    with pytest.raises(AssertionError, match="cannot parse"):
        netlify_config(tmp_path)
