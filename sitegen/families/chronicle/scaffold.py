"""`sitegen new amendment --title "..."`: the next entry of the amendment log, ready to fill in.

The file gets the next free A-number and today's date (UTC, or SOURCE_DATE_EPOCH when set, so a
scripted run is reproducible). The fields only a person can know are written as "FILL IN: ..."
and the build refuses them until they are replaced, so an unfinished amendment cannot publish.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from sitegen.errors import BuildError
from sitegen.families.chronicle.models import PLACEHOLDER
from sitegen.families.chronicle.validate import AMENDMENTS_DIR


def today() -> str:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    moment = dt.datetime.fromtimestamp(int(epoch), dt.timezone.utc) if epoch else dt.datetime.now(dt.timezone.utc)
    return moment.date().isoformat()


def new_amendment(root: Path, title: str) -> Path:
    title = " ".join(title.split())
    if not title:
        raise BuildError("an amendment needs a title (--title)")
    folder = root / AMENDMENTS_DIR
    numbers = [int(p.stem[1:]) for p in folder.glob("A*.md") if p.stem[1:].isdigit()] if folder.is_dir() else []
    entry_id = f"A{max(numbers, default=0) + 1}"
    path = folder / f"{entry_id}.md"
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "---\n"
        f"id: {entry_id}\n"
        "kind: amendment\n"
        f"title: {title}\n"  # unquoted: front matter values run to the end of the line
        f"date: {today()}\n"
        f'timing: "{PLACEHOLDER}: when, relative to the run (for example mid-generation)"\n'
        f'directed_by: "{PLACEHOLDER}: who directed it (for example owner)"\n'
        f'scope: "{PLACEHOLDER}: operational only | methodology | reporting | branding only"\n'
        "---\n\n"
        f"{PLACEHOLDER}: what changed, why, and what did not change with it.\n",
        encoding="utf-8",
    )
    return path
