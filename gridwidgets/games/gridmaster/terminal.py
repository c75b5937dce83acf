"""GridMaster4 in a terminal (GM-1..GM-10; ``python -m gridwidgets play
gridmaster4``, or :func:`gridwidgets.terminal.play_game`).

The book has no dialogue; ours is the generic one (the board, the players'
table and the notes of the page) with the board in text, lettered columns
(C-2), active tiles in upper case and the legal cells marked, and each move
saying the tiles it made inactive (GM-5)."""

from __future__ import annotations

from typing import Any

from ...core.notation import cell_name
from ...terminal import Dialogue

__all__ = ["GridMaster4Dialogue"]


class GridMaster4Dialogue(Dialogue):
    """GridMaster4's words on the one play loop (GM-1..GM-10)."""

    legend = "Upper case: active tile, lower case: inactive (GM-5); + a legal cell (GM-4); . open."
    how_to_type = "Type a cell: K10 (column letter, row number) or 10 11 (row, column)."
    some = 16

    def board(self, game: Any) -> str:
        return game.board_text(mark_legal=True)  # type: ignore[no-any-return]

    def move_line(self, who: str, player: int, move: Any) -> str:
        """The tile and cell, and the tiles the move made inactive (GM-5),
        an opponent's named (``deactivate="all"``)."""
        game = self.game
        text = f"{who} placed tile {game.scores[player]} on {move}"
        if game.last_deactivated:
            text += "; now inactive: " + ", ".join(
                cell_name(c) + ("" if game.board[c] == player else f" ({game.players[int(game.board[c])]})")
                for c in game.last_deactivated) + " (GM-5)"
        return text + "."
