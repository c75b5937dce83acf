"""Errors shared by every game (rule C-5) and the helper that keeps their
messages short."""

from __future__ import annotations

__all__ = ["IllegalMoveError", "InvalidMoveError", "shorten"]

#: the most characters of a user's input that an error message repeats
ECHO_LIMIT = 40


def shorten(value: object, limit: int = ECHO_LIMIT) -> str:
    """``repr(value)`` cut to about ``limit`` characters, for error messages.

    Input of any size is echoed in bounded time and space: a 10 MB string
    becomes ``'aaaa…' (10,000,000 characters)``.

    Example:
        >>> shorten("B2")
        "'B2'"
        >>> shorten("x" * 10_000_000, limit=4)
        "'xxxx'… (10,000,000 characters)"
    """
    if isinstance(value, (str, bytes)) and len(value) > limit:
        head = repr(value[:limit])[: limit + 2]  # escapes never make the echo longer
        return f"{head}… ({len(value):,} characters)"
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ never hides the real error
        return f"<{type(value).__name__}>"
    return text if len(text) <= limit + 2 else text[:limit] + "…"


class IllegalMoveError(ValueError):
    """A move that the rules forbid, or that cannot be read (rule C-5).

    The state of the game is unchanged when this is raised.

    Attributes:
        rule: the id of the rule that forbids the move, or of the notation
            rule (``"C-2"``, or the game's own) when it could not be read.
        move: what was given, as given.
    """

    def __init__(self, message: str, *, rule: str, move: object = None) -> None:
        self.rule = rule
        self.move = move
        text = message if message.endswith(f"({rule})") else f"{message} ({rule})"
        super().__init__(text)


class InvalidMoveError(IllegalMoveError):
    """A move that cannot be read at all: not notation of this game (rule C-2).

    A subclass of :class:`IllegalMoveError` (and so of ``ValueError``): code
    that catches illegal moves catches these too, and code that wants to
    tell "cannot read" from "breaks a rule" catches this one first. The
    name follows python-chess, whose ``InvalidMoveError`` is likewise a move
    that is not syntactically valid.
    """
