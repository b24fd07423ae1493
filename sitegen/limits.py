"""The bounds on the inputs ([tool.sitegen.limits] in pyproject.toml): a module of its own, so
that the readers (sitegen.load) and the configuration (sitegen.config) both take them from
below instead of from each other."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Limits(BaseModel):
    """Inputs beyond these sizes are refused with a clear error instead of exhausting memory or
    time ([tool.sitegen.limits]). The defaults leave ample room for the 100x benchmark data
    (247,000 cells lines, files of several hundred MB) and for whole novels as model outputs."""

    model_config = ConfigDict(extra="forbid", strict=True)
    # any input file: JSON, JSONL or markdown
    max_file_bytes: int = Field(default=2_000_000_000, gt=0)
    # any JSON string or key: a 95,000-word novel is about 550,000 characters, the demo's
    # longest string (a NextChapterBench chapter) about 16,000
    max_string_chars: int = Field(default=5_000_000, gt=0)
    # lines of one JSONL file: the 100x benchmark's cells.jsonl has 247,000
    max_records: int = Field(default=10_000_000, gt=0)
