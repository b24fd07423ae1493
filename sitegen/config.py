"""Site configuration: the [tool.sitegen] table of the site repository's pyproject.toml.

A site repository needs no other config file. Every key has a default; an unknown key or a
wrong type is an InputError like any other bad input.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sitegen.contract import problems_from
from sitegen.errors import InputError, Problem

CONFIG_FILE = "pyproject.toml"


class Limits(BaseModel):
    """Inputs beyond these sizes are refused with a clear error instead of exhausting memory."""

    model_config = ConfigDict(extra="forbid", strict=True)
    max_file_bytes: int = Field(default=2_000_000_000, gt=0)


class PaperConfig(BaseModel):
    """What `sitegen paper` must produce: figure names, table stems and text names."""

    model_config = ConfigDict(extra="forbid", strict=True)
    required: list[str] = Field(default_factory=list)


class SiteConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    root: Path = Path(".")
    title: str = "Benchmark evidence"
    base_url: str = "/"
    families: list[str] = Field(default_factory=lambda: ["canonic"])
    limits: Limits = Field(default_factory=Limits)
    paper: PaperConfig = Field(default_factory=PaperConfig)


def load_config(root: Path | str = ".") -> SiteConfig:
    root = Path(root).resolve()
    table: dict = {}
    path = root / CONFIG_FILE
    if path.is_file():
        try:
            table = tomllib.loads(path.read_text(encoding="utf-8")).get("tool", {}).get("sitegen", {})
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise InputError([Problem(CONFIG_FILE, None, "", "valid TOML", str(exc))]) from None
    try:
        cfg = SiteConfig.model_validate({**table, "root": root}, strict=False)
    except ValidationError as exc:
        raise InputError(problems_from(exc, lambda loc: (CONFIG_FILE, None, ("tool", "sitegen", *loc)))) from None
    from sitegen.families import FAMILIES  # late: the registry imports the families

    unknown = [f for f in cfg.families if f not in FAMILIES]
    if unknown:
        raise InputError([Problem(CONFIG_FILE, None, "$.tool.sitegen.families", f"families from {sorted(FAMILIES)}", repr(unknown))])
    return cfg
