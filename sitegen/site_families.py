"""Which families a site has: those installed as plug-ins, and the benchmarks it declares.

An installed family is registered under the `sitegen.families` entry-point group (its name the
family's id, its object the family or a `Registered` declaration of it); the three built-ins
register the same way in this project's own pyproject.toml. A site may also name an id no
installed family has, when it holds content/<id>/benchmark.toml: that benchmark is published
by the declarative family (families/declared), with no Python of its own.

This module sits above the Family interface (sitegen.families) and the declarative family, so
neither needs to know the other's place.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sitegen.errors import BuildError
from sitegen.families import Family
from sitegen.families.declared import Declared, config_path

ENTRY_POINT_GROUP = "sitegen.families"


class PluginError(BuildError):
    """The installed plug-ins contradict each other or themselves (two distributions register
    one id, an entry point names a missing object): a fault of the installation, not the site."""


def _discover() -> dict[str, Family]:
    """Every family registered under ENTRY_POINT_GROUP, by id, in id order. Loading an entry
    point imports only the module it names: the built-ins name light declarations."""
    from importlib.metadata import entry_points

    found: dict[str, list] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name, []).append(ep)
    out: dict[str, Family] = {}
    for name in sorted(found):
        eps = found[name]
        values = sorted({ep.value for ep in eps})
        if len(values) > 1:  # the same distribution seen twice on sys.path registers one value
            raise PluginError(f"the family id {name!r} is registered by more than one plug-in ({', '.join(values)}); uninstall one")
        try:
            family = eps[0].load()
        except Exception as exc:  # noqa: BLE001 - any failure to import a plug-in is reported as that plug-in's
            raise PluginError(f"the family plug-in {name!r} ({values[0]}) cannot be loaded: {type(exc).__name__}: {exc}") from None
        if getattr(family, "id", None) != name:
            raise PluginError(f"the family plug-in {name!r} ({values[0]}) has id {getattr(family, 'id', None)!r}; "
                              "an entry point's name must be its family's id")
        out[name] = family
    return out


_installed: list[dict[str, Family]] = []


def installed() -> dict[str, Family]:
    """The installed families by id, discovered on first use and kept (entry points are read
    once per process); a PluginError when the installed plug-ins contradict each other."""
    if not _installed:
        _installed.append(_discover())
    return _installed[0]


def for_site(root: Path, ids) -> dict[str, Family]:
    """The families a site names, by id, in its order: an installed family, or a declared one
    when no installed family has the id and the site has its content/<id>/benchmark.toml. An
    id that is neither is left out (config.py reports it)."""
    families = installed()
    out: dict[str, Family] = {}
    for fid in ids:
        if fid in families:
            out[fid] = families[fid]
        elif config_path(Path(root), fid).is_file():
            out[fid] = Declared(fid)
    return out


def __getattr__(name: str) -> Any:
    # `from sitegen.site_families import FAMILIES`: the same dict as installed(), for the tests.
    if name == "FAMILIES":
        return installed()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
