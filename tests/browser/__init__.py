"""Checks of the built site with real tools: Chromium, axe-core, the Nu HTML checker, Netlify's
config parser, and standard-library link and weight checks. A package, so that its conftest does
not shadow tests/conftest.py (whose helpers the other test modules import as `conftest`)."""
