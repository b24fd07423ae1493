"""sitegen: a static-site generator that publishes benchmark evidence.

The public API is small::

    from sitegen import build, validate, load_config
    result = build(load_config(root), out_dir)

Everything else is private to its module.
"""

from sitegen.errors import BuildError, InputError, Problem, SitegenError

__all__ = ["build", "validate", "load_config", "InputError", "Problem", "SitegenError", "BuildError"]
__version__ = "0.1.0"


def __getattr__(name: str):
    # Lazy, so `import sitegen.errors` (or a family's models) does not pay for DuckDB and jinja2.
    if name in ("build", "validate"):
        import importlib  # not `from sitegen import build`: that asks this very function again

        return getattr(importlib.import_module("sitegen.build"), name)
    if name == "load_config":
        from sitegen.config import load_config

        return load_config
    raise AttributeError(name)
