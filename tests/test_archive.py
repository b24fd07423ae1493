"""A family's archive (downloads/<family>.zip): the bytes of a zip written member by member
with writestr at the archive's level, whatever the members' sizes, and made without holding a
large member in memory (the raw cells at 1000x data are hundreds of megabytes)."""

from __future__ import annotations

import io
import random
import tracemalloc
import zipfile

from sitegen import site_index


def _whole(files: dict[str, bytes]) -> bytes:
    """The archive as it was made before members were copied in pieces: each one whole."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for rel in sorted(files):
            info = zipfile.ZipInfo(rel, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = 0o100644 << 16
            zf.writestr(info, files[rel], compresslevel=3)
    return buf.getvalue()


def test_an_archive_is_the_same_bytes_as_one_written_whole(tmp_path):
    rng = random.Random(19)  # seeded: the same members on every run
    words = [bytes(rng.choices(b"abcdefgh ", k=rng.randint(1, 9))) for _ in range(500)]
    files = {
        "canonic/raw/cells.jsonl": b"\n".join(rng.choices(words, k=700_000)),  # several pieces, the last one short
        "canonic/board.csv": b"model,score\nm-a,71.5\n",
        "canonic/empty.json": b"",
        "canonic/a/b.json": bytes(rng.getrandbits(8) for _ in range(5000)),  # incompressible
    }
    assert len(files["canonic/raw/cells.jsonl"]) > 2 * site_index._ZIP_PIECE
    members = []
    for rel, data in files.items():
        (tmp_path / rel.replace("/", "_")).write_bytes(data)
        members.append((rel, str(tmp_path / rel.replace("/", "_"))))
    out = io.BytesIO()
    site_index.archive(out, members)
    assert out.getvalue() == _whole(files)
    with zipfile.ZipFile(out) as zf:
        assert {i.filename: zf.read(i) for i in zf.infolist()} == files


def test_a_large_member_is_never_held_whole(tmp_path):
    big = tmp_path / "cells.jsonl"
    with open(big, "wb") as fh:
        for n in range(48):
            fh.write(bytes([48 + n % 10]) * (1 << 20))  # 48 MiB
    tracemalloc.start()
    try:
        site_index.archive(io.BytesIO(), [("canonic/raw/cells.jsonl", str(big))])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20, f"{peak / 2**20:.1f} MiB held while archiving a 48 MiB member"
