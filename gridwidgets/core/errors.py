"""Errors shared by every game (RULES C-5)."""

from __future__ import annotations

__all__ = ["IllegalMoveError"]


class IllegalMoveError(ValueError):
    """A move that the rules forbid, or that cannot be read (RULES C-5).

    The state of the game is unchanged when this is raised.

    Attributes:
        rule: the ``RULES.md`` id of the rule that forbids the move
            (``"GL-3"``), or ``"C-2"`` when the move could not be read.
        move: what was given, as given.
    """

    def __init__(self, message: str, *, rule: str, move: object = None) -> None:
        self.rule = rule
        self.move = move
        text = message if message.endswith(f"({rule})") else f"{message} ({rule})"
        super().__init__(text)
