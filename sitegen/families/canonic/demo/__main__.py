"""``python -m sitegen.families.canonic.demo [--root DIR] [--scale K]``: see the package docstring."""

from sitegen.families.canonic.demo import main

if __name__ == "__main__":
    main()
