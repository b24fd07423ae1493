"""Content fingerprints of frozen inputs, in a canonical form any machine reproduces.

- A text document (markdown): decoded as UTF-8, a leading byte-order mark dropped, CRLF and
  lone CR turned into LF, trailing whitespace at the end of the file dropped, then exactly one
  final LF; the SHA-256 of those UTF-8 bytes, in hex. An editor that changes line endings or
  adds a final newline does not change the fingerprint; any change of wording does.
- A structured record (a rubric): its JSON with keys sorted, no whitespace, non-ASCII kept as
  UTF-8; the SHA-256 of those bytes, in hex.

>>> text_fingerprint(b"a\\r\\nb") == text_fingerprint(b"\\xef\\xbb\\xbfa\\nb\\n\\n")
True
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_text(data: bytes) -> bytes:
    text = data.decode("utf-8").removeprefix("\ufeff")
    text = text.replace("\r\n", "\n").replace("\r", "\n").rstrip() + "\n"
    return text.encode("utf-8")


def text_fingerprint(data: bytes) -> str:
    return hashlib.sha256(canonical_text(data)).hexdigest()


def record_fingerprint(value: Any) -> str:
    data = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(data).hexdigest()
