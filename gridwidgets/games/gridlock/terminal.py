"""Gridlock in a terminal: the seed's dialogue, word for word (GL-6).

The prompt ``Player 1 (X), it's your turn. Enter your move (row and
column):``, the confirmation ``You placed an 'X' at position (2,2).``, the
invalid-move message and the final line (``python -m gridwidgets play
gridlock``, or :func:`gridwidgets.terminal.play_game`)."""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalMoveError
from ...terminal import Dialogue

__all__ = ["GridlockDialogue"]

ADJACENT = "Invalid move. You cannot place next to an opponent's marker. Please choose a different cell."
OCCUPIED = "Invalid move. That cell is already taken. Please choose a different cell."


class GridlockDialogue(Dialogue):
    """The seed's words (GL-6) on the one play loop: the text board after each
    move, no help or undo words, every line typed is played."""

    help_words = frozenset()
    undo_words = frozenset()
    skip_empty = False
    refusals = (IllegalMoveError,)

    def intro(self) -> list[str]:
        return [str(self.game)]

    def turn_lines(self, player: int, legal: Any) -> list[str]:
        return []

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
        by = f"{self.who(player, agent)} placed" if agent is not None else "You placed"
        return [f"{by} an '{self.game.players[player]}' at position ({r + 1},{c + 1}).", str(self.game)]

    def end(self) -> list[str]:
        game = self.game
        loser = game.player_to_move
        winner = 1 - loser
        # the seed's final lines (GL-6), word for word
        return [f"Player {loser + 1} ({game.players[loser]}), it's your turn. Enter your move (row and column):",
                f"Player {loser + 1} has no legal moves remaining. "
                f"Player {winner + 1} ({game.players[winner]}) wins the game!"]
