"""The declarative family: a benchmark whose unit is a judged item, described by one file,
content/<family>/benchmark.toml (config.py), with no Python of its own.

A site names it in [tool.sitegen] families by any id that is not an installed family's and
has that file; `Declared(id)` is then its family. Importing this package is light: the family's
modules (pydantic models, numpy) load when it is first loaded, computed or published.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

CONFIG_NAME = "benchmark.toml"
TEMPLATES = str(Path(__file__).parent / "templates")


def config_path(root: Path, fid: str) -> Path:
    return root / "content" / fid / CONFIG_NAME


def found(root: Path) -> list[str]:
    """The ids of every folder content/<id>/ of the site at ROOT that holds a benchmark.toml,
    sorted: the declared benchmarks it has, whether or not its configuration enables them."""
    return sorted(p.parent.name for p in (Path(root) / "content").glob(f"*/{CONFIG_NAME}"))


@dataclass(frozen=True)
class Declared:
    id: str
    needs_store = False  # its numbers are computed in Python from the validated items
    content_dir = None  # its method page (content/<id>/method.md) is an ordinary page
    templates = TEMPLATES
    amendment_fields = ()  # its log records the core's fields (sitegen.amendments)

    @property
    def title(self) -> str:
        return self.id

    @property
    def inputs(self) -> tuple[str, ...]:
        return (f"data/{self.id}/", f"content/{self.id}/{CONFIG_NAME}", f"content/{self.id}/amendments/*.md")

    def load(self, root, loaded, limits):
        from sitegen.families.declared.validate import load_declared

        return load_declared(self.id, root, loaded, limits)

    def store(self, db, inp) -> None:
        return None

    def compute(self, db, inp):
        from sitegen.families.declared.compute import compute

        return compute(inp)

    def outputs(self, results):
        from sitegen.families.declared.pages import outputs

        return outputs(results)

    def artifact_kinds(self) -> dict[str, type]:
        from sitegen.families.declared.config import BenchmarkConfig
        from sitegen.families.declared.models import ARTIFACT_KINDS
        from sitegen.families.declared.pairwise.records import ARTIFACT_KINDS as PAIRWISE_KINDS

        return {"benchmark-config": BenchmarkConfig, **ARTIFACT_KINDS, **PAIRWISE_KINDS}
