"""Fixtures of the browser tests: one JupyterLab and one Chromium per session.

Each test gets its own copy of a notebook (so its own kernel) in the
server's temporary root.  The test modules skip themselves when Debian's
Chromium or Playwright is missing; the fixtures start nothing until used.
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import lab_harness as harness  # noqa: E402  (tests/browser/lab_harness.py)


@pytest.fixture(scope="session")
def lab_root():
    root = Path(tempfile.mkdtemp(prefix="gw-lab-root-"))
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def lab(lab_root):
    server = harness.JupyterLab(lab_root)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser(shared_browser):
    return shared_browser


@pytest.fixture
def open_notebook(lab, lab_root, browser, request, tmp_path):
    """``open_notebook(src)`` copies ``src`` (a notebook in tests/browser) under a
    name unique to the test, opens it in JupyterLab and returns the page."""
    opened = []

    def _open(src: str | Path):
        src = HERE / src
        name = re.sub(r"[^A-Za-z0-9_]+", "_", request.node.name) + f"_{len(opened)}.ipynb"
        shutil.copy(src, lab_root / name)
        nb = browser.open_notebook(lab, name)
        opened.append(nb)
        return nb

    yield _open
    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    for nb in opened:
        if failed:
            try:
                nb.page.screenshot(path=str(tmp_path / f"failure-{nb.path}.png"))
                (tmp_path / f"console-{nb.path}.txt").write_text("\n".join(nb.page.console_messages))
                print(f"failure screenshot and console log in {tmp_path}")
            except Exception:
                pass
        nb.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    setattr(item, "rep_" + rep.when, rep)
