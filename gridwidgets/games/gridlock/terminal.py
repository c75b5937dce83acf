"""Gridlock in a terminal: the seed's dialogue, word for word (GL-6).

The prompt ``Player 1 (X), it's your turn. Enter your move (row and
column):``, the confirmation ``You placed an 'X' at position (2,2).``, the
invalid-move message and the final line. Reached through the game's terminal
hooks (``python -m gridwidgets play gridlock``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, TextIO

from ...core.errors import IllegalMoveError
from ...terminal import Dialogue
from .rules import Gridlock

__all__ = ["GridlockDialogue", "play_gridlock"]

ADJACENT = "Invalid move. You cannot place next to an opponent's marker. Please choose a different cell."
OCCUPIED = "Invalid move. That cell is already taken. Please choose a different cell."


class GridlockDialogue(Dialogue):
    """The seed's words (GL-6) on the one play loop: no help or undo words, every line played."""

    help_words = frozenset()
    undo_words = frozenset()
    refusals = (IllegalMoveError,)

    def prompt(self, player: int, legal: Any) -> str:
        return f"Player {player + 1} ({self.game.players[player]}), it's your turn. Enter your move (row and column): "

    def invalid(self, exc: Exception) -> str:
        game = self.game
        rule = getattr(exc, "rule", "")
        if rule == "GL-3":
            return OCCUPIED if "not empty" in str(exc) else ADJACENT
        if rule == "C-1":
            return (f"Invalid move. Rows must be 1 to {game.rows} and columns 1 to {game.cols}. "
                    "Please choose a different cell.")
        return "Invalid input. Enter the row and column as two numbers, for example: 2 2"

    def moved(self, player: int, move: Any, agent: Any) -> list[str]:
        r, c = move.cell
        return [f"You placed an '{self.game.players[player]}' at position ({r + 1},{c + 1}).", str(self.game)]

    def end(self) -> list[str]:
        game = self.game
        loser = game.player_to_move
        winner = 1 - loser
        # the seed's final lines (GL-6), word for word
        return [f"Player {loser + 1} ({game.players[loser]}), it's your turn. Enter your move (row and column):",
                f"Player {loser + 1} has no legal moves remaining. "
                f"Player {winner + 1} ({game.players[winner]}) wins the game!"]


def play_gridlock(
    game: Gridlock,
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
) -> Gridlock:
    """Play ``game`` to its end in a terminal with the seed's dialogue (GL-6).

    Args:
        game: the game to play on (it may already hold moves).
        read: the prompt function (``input`` by default).
        out: where to print (``sys.stdout`` by default).

    Returns:
        The same game, over. Ends early, leaving the game as it is, on end
        of input or when ``quit`` is typed.
    """
    return GridlockDialogue(game, read=read, out=out).run()  # type: ignore[no-any-return]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rows", type=int, default=4, help="board rows, 1-26 (default 4)")
    parser.add_argument("--cols", type=int, default=4, help="board columns, 1-26 (default 4)")


def session(args: argparse.Namespace) -> Callable[[], Any]:
    game = Gridlock(rows=args.rows, cols=args.cols)
    return lambda: play_gridlock(game)
