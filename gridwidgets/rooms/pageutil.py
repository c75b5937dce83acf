"""Helpers of the rooms' pages: a click handler that says a refusal on the
page and logs anything else on the server's terminal (never on the page)."""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable
from typing import Any

from .model import RoomError

__all__ = ["log_page_error", "safe_action"]


def log_page_error(what: str) -> None:
    """An error of a page, with its traceback, on the server's terminal (never on the page)."""
    print(f"rooms page: {what}\n{traceback.format_exc()}", file=sys.stderr, flush=True)


def safe_action(action: Callable[[], Any], say: Callable[[str], None] | None = None) -> Callable[[], None]:
    """``action`` as a click handler: a refusal (RoomError, ValueError) is said with
    ``say``; anything else is logged on the server and said in general words."""

    def run() -> None:
        try:
            action()
        except (RoomError, ValueError) as exc:
            if say is not None:
                say(str(exc))
        except Exception:
            log_page_error("an action failed")
            if say is not None:
                say("That did not work; the class goes on. Try again, or reload the page.")

    return run
