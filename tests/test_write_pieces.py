"""A page too large to hold whole, the downloads page at 1000x data (64 MB of HTML), is written
part by part as it renders (publish.Writer.write_pieces): the bytes and hash of the whole text
written at once, the aggregate-field check as strict, and only about one part held at a time."""

from __future__ import annotations

import tracemalloc

import pytest

from sitegen import publish
from sitegen.errors import BuildError


@pytest.fixture()
def writer(tmp_path):
    w = publish.Writer(tmp_path / "out")
    yield w
    w.abort()


def test_a_text_written_in_pieces_is_the_text_written_whole(writer):
    pieces = ["<p>a</p>\n<p>b", "é</p>\n", "", "\n", "ends without a line break"]
    writer.write_pieces("a/page.html", iter(pieces))
    writer.write_text("b/page.html", "".join(pieces))
    files = writer.files
    assert files["a/page.html"] == files["b/page.html"]
    assert (writer.staging / "a/page.html").read_bytes() == "".join(pieces).encode("utf-8")
    assert writer.sizes["a/page.html"] == writer.sizes["b/page.html"] == len("".join(pieces).encode("utf-8"))
    assert list(files)[-2:] == ["a/page.html", "b/page.html"]  # listed in the order written


@pytest.mark.parametrize("pieces", [
    ["<td>over", "all_", "score</td>\n<td>fine</td>\n"],  # a field cut across three pieces
    ["<td>fine</td>\nsee total_", "score"],  # at the very end, after the last line break
    ["cross-domain_mean\n"],
], ids=["across pieces", "at the end", "in one piece"])
def test_an_aggregate_field_is_found_wherever_the_pieces_cut_it(writer, pieces):
    with pytest.raises(BuildError) as pieces_error:
        writer.write_pieces("pieces.html", iter(pieces))
    with pytest.raises(BuildError) as whole_error:  # the same text, checked whole by the writer process
        writer.write_text("whole.html", "".join(pieces))
        writer.files  # its refusal is raised by the next step that waits for it
    assert str(pieces_error.value) == str(whole_error.value).replace("whole.html", "pieces.html")


def test_a_page_written_in_pieces_is_never_held_whole(writer):
    row = "<tr><th scope=\"row\"><a href=\"raw/x.json\">raw/x.json</a></th><td>1.2 KiB</td></tr>\n"
    parts = 400  # 400 parts of 1,000 rows: 32 MB of text

    def pieces():
        for _ in range(parts):
            yield row * 1000

    tracemalloc.start()
    try:
        writer.write_pieces("downloads/index.html", pieces())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert writer.sizes["downloads/index.html"] == len(row) * 1000 * parts
    assert peak < 4 * 2**20, f"{peak / 2**20:.1f} MiB held for {len(row) * 1000 * parts / 2**20:.0f} MiB written"
