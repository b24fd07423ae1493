"""The shared string types: free text without control characters, names without bidi tricks."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError

from sitegen.fields import Name, Text


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
