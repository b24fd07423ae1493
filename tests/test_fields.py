"""The shared string types: free text without control characters, names without bidi tricks,
slugs and contract paths that name one place."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError

from sitegen.fields import Name, Slug, Text
from sitegen.freeze import ContentPath


class Row(BaseModel):
    name: Name
    text: Text


def test_ordinary_names_and_prose_pass():
    Row(name="Qwen3.5 Max (thinking)", text="Line one.\n\tIndented line, «quoted», 日本語, emoji 🙂.")


@pytest.mark.parametrize("bad", ["\x00", "\x01", "\x1b[31m", "\x7f"])
def test_control_characters_are_refused_in_text(bad):
    with pytest.raises(ValidationError) as exc:
        Row(name="ok", text=f"before{bad}after")
    [err] = exc.value.errors()
    assert err["loc"] == ("text",) and "control characters" in err["msg"] and "character 7" in err["msg"]


def test_a_lone_surrogate_is_refused_in_text():
    with pytest.raises(ValidationError) as exc:
        Row(name="ok", text="half a pair: \ud800")
    assert exc.value.errors()[0]["loc"] == ("text",)


@pytest.mark.parametrize("bad", ["\u202e", "\u2066", "\u200f", "\n"])
def test_a_name_is_one_line_without_bidi_controls(bad):
    with pytest.raises(ValidationError) as exc:
        Row(name=f"GPT{bad}5", text="fine")
    assert exc.value.errors()[0]["loc"] == ("name",)
    Row(name="ok", text=f"prose may carry it: {bad}")  # the same character is fine in prose


class Named(BaseModel):
    slug: Slug
    path: ContentPath


@pytest.mark.parametrize("slug", ["x", "gpt-5.1", "canonic/drama", "a/b.c/d_e"])
def test_normal_slugs_pass(slug):
    Named(slug=slug, path="content/canonic/bibles/x.md")


@pytest.mark.parametrize("slug", ["x/", "x/.", "x/./y", "x//y", "x/..", "x/../y", ".x", "/x"])
def test_a_slug_is_normal_segments_without_dots_or_empty_ones(slug):
    with pytest.raises(ValidationError) as exc:
        Named(slug=slug, path="content/x.md")
    assert [e["loc"] for e in exc.value.errors()] == [("slug",)]


@pytest.mark.parametrize("path", ["content/../../x.md", "content/a/../../../x.md", "content/./x.md", "content//x.md", "content/x/.md"])
def test_a_contract_path_cannot_climb_out_or_be_unnormal(path):
    with pytest.raises(ValidationError) as exc:
        Named(slug="x", path=path)
    assert [e["loc"] for e in exc.value.errors()] == [("path",)]
