"""Root hooks: while nbval runs a tutorial (``notebooks/*.ipynb``), watch that
no later cell plays on a board shown for the reader (``tests/tutorial_watch.py``).
A fault fails the notebook's last cell at teardown, naming both cells."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "tests"))

import tutorial_watch  # noqa: E402  (tests/tutorial_watch.py)


def _tutorial(item) -> Path | None:
    """The tutorial notebook an nbval cell item belongs to, or None."""
    path = getattr(item.parent, "fspath", None)
    if path is None or not hasattr(item.parent, "kernel"):
        return None
    path = Path(str(path))
    return path if path.suffix == ".ipynb" and path.parent == ROOT / "notebooks" else None


def _faults_file(item) -> Path:
    return Path(item.config._tmp_path_factory.getbasetemp()) / f"board-faults-{_tutorial(item).stem}.json"


@pytest.hookimpl(trylast=True)
def pytest_runtest_setup(item):
    notebook = _tutorial(item)
    if notebook is None or getattr(item.parent, "_gw_watched", False):
        return
    item.parent._gw_watched = True
    kernel = item.parent.kernel
    msg_id = kernel.kc.execute(tutorial_watch.watcher(_faults_file(item)), silent=True, stop_on_error=False)
    kernel.await_idle(msg_id, 60)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    result = yield  # nbval's own teardown (the kernel stopped after the last cell) runs first
    notebook = _tutorial(item)
    if notebook is not None and (nextitem is None or nextitem.parent is not item.parent):
        found = tutorial_watch.faults(_faults_file(item), notebook)
        if found:
            pytest.fail("\n".join(found), pytrace=False)
    return result
