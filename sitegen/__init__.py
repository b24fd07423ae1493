"""sitegen: a static-site generator that publishes benchmark evidence.

The public API is small::

    from sitegen import load_config, validate
    from sitegen.build import build
    result = build(load_config(root), out_dir)

(`build` is reached through its module: `sitegen.build` names the module, which a package
attribute of the same name could not also be.)

Everything else is private to its module.
"""

from sitegen.errors import BuildError, InputError, Problem, SitegenError

__all__ = ["build", "validate", "load_config", "InputError", "Problem", "SitegenError", "BuildError"]
__version__ = "0.1.0"
# The name sitegen is installed by. The import package and the command are `sitegen`, but on the
# public package index that name belongs to an unrelated project: an install line that said
# `pip install sitegen` would fetch and run someone else's code.
DISTRIBUTION = "sitegen-evidence"


def requirement(extra: str | None = None) -> str:
    """The pinned requirement that installs this very version (with EXTRA, such as "inspect"),
    as the files sitegen writes for a site name it: a site deploys with the generator that made
    it until its team moves the pin."""
    return f"{DISTRIBUTION}{f'[{extra}]' if extra else ''}=={__version__}"


def __getattr__(name: str):
    # Lazy, so `import sitegen.errors` (or a family's models) does not pay for DuckDB and jinja2.
    if name == "validate":
        from sitegen.build import validate

        return validate
    if name == "load_config":
        from sitegen.config import load_config

        return load_config
    raise AttributeError(name)
