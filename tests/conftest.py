"""Shared test setup. Notebooks under tests/ are fixtures of the browser
tests, not tutorials: keep nbval away from them."""

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).resolve().parent / "browser"))

collect_ignore_glob = ["**/*.ipynb"]


@pytest.fixture(scope="session")
def shared_browser():
    """One Playwright and one Debian Chromium for the whole run, shared by the
    JupyterLab tests (tests/browser) and the front-end tests (tests/frontend):
    only one sync Playwright may run in a thread."""
    import lab_harness  # tests/browser/lab_harness.py

    if not lab_harness.chromium_available():
        pytest.skip(f"{lab_harness.CHROMIUM} is missing (apt-get install chromium)")
    browser = lab_harness.Browser()
    browser.start()
    yield browser
    browser.stop()

settings.register_profile("ci", max_examples=150, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
