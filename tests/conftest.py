"""Shared test setup. Notebooks under tests/ are fixtures of the browser
tests, not tutorials: keep nbval away from them."""

import os

from hypothesis import settings

collect_ignore_glob = ["**/*.ipynb"]

settings.register_profile("ci", max_examples=150, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
