"""How every family's demo generator writes its files: atomically (a killed run never leaves
half a file), UTF-8 with LF line endings, JSON documents indented by two with a final newline,
JSONL as one compact object per line."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable, Iterable, TextIO


def write_atomic(path: Path, write: Callable[[TextIO], None]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        write(fh)
    os.replace(tmp, path)


def write_json(path: Path, doc: dict) -> None:
    text = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    write_atomic(path, lambda fh: fh.write(text))


def jsonl_line(doc: dict) -> str:
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"


def write_jsonl(path: Path, docs: Iterable[dict]) -> None:
    write_atomic(path, lambda fh: fh.writelines(jsonl_line(d) for d in docs))
