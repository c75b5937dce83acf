"""Fixtures of the fast front-end tests (frontend_harness.py): one local
server per session, a fresh page per test that fails on any page error."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import frontend_harness as fh  # noqa: E402  (tests/frontend/frontend_harness.py)


@pytest.fixture(scope="session")
def server():
    s = fh.Server()
    yield s
    s.stop()


@pytest.fixture(scope="session")
def chromium(shared_browser):
    return shared_browser.browser


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 900, "height": 640})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    yield pg
    context.close()
    assert not errors, f"errors in the page: {errors}"
