"""Every sentence a family puts on a page is in a template (render.sentences and the families'
templates/<family>/sentences.txt), never in a Python string: a team changes the wording of its
site by editing templates, and what a sentence claims sits beside the data it is computed from."""

from __future__ import annotations

import ast
import re

from conftest import REPO_ROOT

# The modules that arrange what a family publishes (its pages, feed and evidence).
PUBLISHING = sorted(p for fam in ("canonic", "chronicle", "nextchapter", "declared")
                    for p in (REPO_ROOT / "sitegen" / "families" / fam).glob("*.py")
                    if p.name in ("pages.py", "feed.py", "evidence_pages.py"))
SENTENCE = re.compile(r"[A-Za-z][a-z]* [a-z]+ [a-z]+ [a-z]+")  # four words in a row: a sentence, not a label


def _literals(path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef)) and n.body
                  and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings]


def test_no_family_writes_a_sentence_in_python():
    assert len(PUBLISHING) >= 6
    found = [f"{p.relative_to(REPO_ROOT)}:{line}: {text[:60]!r}" for p in PUBLISHING for line, text in _literals(p) if SENTENCE.search(text)]
    assert found == [], "\n".join(found)


def test_a_sentence_is_one_line_of_text_with_its_numbers_computed(built_site):
    from sitegen.families.canonic.sentences import SENTENCES

    line = SENTENCES.line(built_site.results)  # Canonic's summary line, from its results
    assert line == (f"Six creative-writing domains scored separately by two judges; {built_site.results.rows_published} of "
                    f"{built_site.results.rows_total} model-domain rows published; no overall score.")
    assert line in (built_site.out / "index.html").read_text(encoding="utf-8")
