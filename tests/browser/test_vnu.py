"""The Nu HTML checker (the W3C validator, vnu.jar) over every page of the built site.

One JVM checks the whole output directory: starting Java per page would cost minutes.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import scaled

from .conftest import VNU_JAR, require_command, require_file


def nu_errors(site: Path) -> list[dict]:
    """The checker's error messages for every HTML file under SITE."""
    java = require_command("java")
    jar = require_file(VNU_JAR, "the Nu HTML checker (vnu-jar)")
    proc = subprocess.run([java, "-jar", str(jar), "--errors-only", "--format", "json", "--skip-non-html", str(site)],
                          capture_output=True, text=True, timeout=scaled(600))
    # Exit 1 means "errors found"; the JSON report goes to stderr either way.
    assert proc.returncode in (0, 1), f"vnu.jar exited {proc.returncode}:\n{proc.stderr[-3000:]}"
    try:
        report = json.loads(proc.stderr)
    except json.JSONDecodeError:
        raise AssertionError(f"vnu.jar wrote no JSON report:\n{proc.stderr[-3000:]}") from None
    errors = [m for m in report["messages"] if m.get("type") in ("error", "non-document-error")
              or m.get("subType") == "fatal"]
    assert errors or proc.returncode == 0, f"vnu.jar exited 1 without an error message:\n{proc.stderr[-3000:]}"
    return errors


def describe(message: dict, site: Path) -> str:
    url = message.get("url", "")
    where = url.removeprefix("file:").removeprefix(str(site)).lstrip("/") or "(no file)"
    return f"{where}:{message.get('lastLine', '?')}: {message.get('message', '').strip()}"


def test_every_page_is_valid_html(site_out):
    # vnu checks files in parallel: sort its report so a failure reads the same every run.
    errors = sorted(nu_errors(site_out), key=lambda m: (m.get("url", ""), m.get("lastLine", 0)))
    files = {describe(m, site_out).split(":")[0] for m in errors}
    assert not errors, (f"{len(errors)} HTML errors in {len(files)} files; the first:\n"
                        + "\n".join(describe(m, site_out) for m in errors[:30]))


def test_the_checker_reports_invalid_markup(tmp_path):
    """The checker is really running: a page with a stray element is reported."""
    (tmp_path / "index.html").write_text('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>'
                                         "</head><body><figure><figcaption>x</figcaption><p>late</p></figure>"
                                         "<li>stray</li></body></html>", encoding="utf-8")
    errors = nu_errors(tmp_path)
    assert errors and all(describe(m, tmp_path).startswith("index.html:") for m in errors)
