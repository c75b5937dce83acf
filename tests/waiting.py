"""Waiting for a condition in a test: poll it with a bound and a message that
says what did not happen, never a fixed sleep (the suite must pass on a
loaded machine)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def wait_until(condition: Callable[[], Any], timeout: float, what: str, poll: float = 0.01) -> Any:
    """Poll ``condition`` until it returns something true, and return that;
    raise ``AssertionError`` naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(poll)
    return value
