"""GridBloc in a terminal (GB-1..GB-10; ``python -m gridwidgets play
gridbloc``, ``--setup`` for the book's setup phase, GB-10; or
:func:`gridwidgets.terminal.play_game`).

The book has no dialogue; ours is the generic one (the board, the players'
table with roles and points per round, the round in the notes) with the
board's walls in text and the runner's steps marked, the open edges nearest
the runner offered to the blocker, and each step saying whether it scored
(GB-5)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.notation import cell_name
from ...terminal import Dialogue
from .rules import Done, StartMove, Wall

__all__ = ["GridBlocDialogue"]


class GridBlocDialogue(Dialogue):
    """GridBloc's words on the one play loop (GB-1..GB-10)."""

    legend = "R runner  * start  . scored  + a step that scores  (.) a step back, no point (GB-5)  # hole"
    how_to_type = ("Step: D5 (or 5 4, row and column), to one of the 8 neighbouring tiles (GB-3). Wall: C4|D4, "
                   "the two tiles it separates (GB-8). Setup (GB-10): a wall, start E5, or done.")

    def board(self, game: Any) -> str:
        return game.board_text(mark_legal=True)  # type: ignore[no-any-return]

    def show(self, viewer: int | None = None) -> list[str]:
        """The generic show, then how many unscored tiles the runner can still reach (GB-6)."""
        game, lines = self.game, super().show(viewer)
        if game.phase not in ("setup", "over"):
            k = game.unscored_reachable()
            lines.append(f"{game.player_label(game.runner_player)} on {cell_name(game.runner)}: "
                         f"{k} unscored tile{'s' if k != 1 else ''} in reach (GB-6).")
        return lines

    def some_moves(self, legal: Sequence[Any]) -> list[Any]:
        """The walls nearest the runner, nearest first (where a blocker looks first)."""
        if not all(isinstance(m, Wall) for m in legal) or self.game.runner is None:
            return super().some_moves(legal)
        r0, c0 = self.game.runner
        return sorted(legal, key=lambda w: (sum(max(abs(r - r0), abs(c - c0)) for r, c in (w.a, w.b)), w))[:self.some]

    def agent_move(self, player: int) -> Any:
        """An agent seat in the setup keeps the board as it is (``done``)."""
        return Done() if self.game.phase == "setup" else super().agent_move(player)

    def move_line(self, who: str, player: int, move: Any) -> str:
        game = self.game
        if isinstance(move, StartMove):
            return f"{who} moves the start to {cell_name(move.cell)} (GB-10)."
        if isinstance(move, Done):
            k = len(game.original_walls)
            return f"{who} ends the setup: {k} original wall{'s' if k != 1 else ''}, start {cell_name(game.start)}."
        if isinstance(move, Wall):
            return f"{who} placed {'an original' if game.phase == 'setup' else 'a'} wall on {move}."
        if game.scores[player] > self.scores_before[player]:
            return f"{who} stepped to {move}: 1 point ({game.scores[player]} in all)."
        return f"{who} stepped to {move}: scored already, no point (GB-5)."
