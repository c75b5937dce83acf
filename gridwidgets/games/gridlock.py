"""Gridlock: place markers, never beside the opponent's (RULES GL-1..GL-6).

Source: ``seeds/gridlock.md``; exact rules in ``RULES.md``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.errors import IllegalMoveError
from ..core.game import CellMove, Game
from ..core.notation import Cell, cell_name, parse_cell

__all__ = ["Gridlock"]

EMPTY = -1
MAX_SIZE = 26


class Gridlock(Game):
    """A game of Gridlock on a ``rows x cols`` board.

    Args:
        rows, cols: board size, each 1 to 26 (RULES GL-1; default 4x4).

    Raises:
        ValueError: for a size outside 1..26.

    Players are ``("X", "O")``: X (player 0) moves first (GL-2). A move
    places the mover's marker on an empty cell not orthogonally adjacent
    to an opponent's marker (GL-3); a player with no legal move loses
    (GL-4). ``board`` is an ``int8`` array ``(rows, cols)``: ``-1`` empty,
    else the owner's player id. ``scores`` counts the markers each player
    has placed.

    Example:
        >>> g = Gridlock()
        >>> g.play("B2")
        CellMove('B2')
        >>> g.play((2, 2))
        CellMove('C3')
        >>> g.current_player
        0
    """

    game_id = "gridlock"
    players = ("X", "O")
    end_rule = "GL-4"
    turn_rule = "GL-2"
    forbidden_rule = "GL-3"

    def __init__(self, rows: int = 4, cols: int = 4) -> None:
        for name, value in (("rows", rows), ("cols", cols)):
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
                raise ValueError(f"{name} must be an int, got {value!r} (GL-1)")
            if not 1 <= value <= MAX_SIZE:
                raise ValueError(f"{name} must be 1 to {MAX_SIZE}, got {value} (GL-1)")
        super().__init__()
        self.rows = int(rows)
        self.cols = int(cols)
        self._board = np.full((self.rows, self.cols), EMPTY, dtype=np.int8)
        self._to_move = 0
        self._legal_cache: np.ndarray | None = None

    # -- rules ---------------------------------------------------------
    def options(self) -> dict[str, Any]:
        return {"rows": self.rows, "cols": self.cols}

    def legal_mask(self, player: int | None = None) -> np.ndarray:
        """Boolean ``(rows, cols)`` array of the cells ``player`` may use now (GL-3).

        Args:
            player: 0 or 1; default the player to move.
        """
        if player is None:
            player = self._to_move
            if self._legal_cache is not None:
                return self._legal_cache.copy()
        mask = self._mask(player)
        if player == self._to_move:
            self._legal_cache = mask
        return mask.copy()

    def _mask(self, player: int) -> np.ndarray:
        b = self._board
        opp = b == 1 - player
        near = np.zeros_like(opp)
        near[1:, :] |= opp[:-1, :]
        near[:-1, :] |= opp[1:, :]
        near[:, 1:] |= opp[:, :-1]
        near[:, :-1] |= opp[:, 1:]
        return (b == EMPTY) & ~near

    def _legal(self) -> np.ndarray:
        if self._legal_cache is None:
            self._legal_cache = self._mask(self._to_move)
        return self._legal_cache

    def legal_moves(self) -> list[CellMove]:
        """The cells X or O may use now (GL-3), row by row; ``[]`` once the game is over."""
        rows, cols = np.nonzero(self._legal())
        return [CellMove((int(r), int(c))) for r, c in zip(rows, cols, strict=True)]

    def forbidden_cells(self) -> list[Cell]:
        """Empty cells the mover may not use: next to an opponent's marker (GL-3)."""
        near = (self._board == EMPTY) & ~self._legal()
        return [(int(r), int(c)) for r, c in zip(*np.nonzero(near), strict=True)]

    def parse_move(self, value: Any) -> CellMove:
        """Read ``"B2"``, ``"2 2"``, ``(1, 1)`` or a :class:`CellMove` (GL-5, C-2).

        Raises:
            IllegalMoveError: (``C-2``/``C-1``) unreadable or off the board.
        """
        if isinstance(value, CellMove):
            value = value.cell
        return CellMove(parse_cell(value, self.rows, self.cols))

    def _check(self, move: CellMove) -> None:
        r, c = move.cell
        name = cell_name(move.cell)
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise IllegalMoveError(f"{name} is off the board", rule="C-1", move=move)
        owner = int(self._board[r, c])
        if owner != EMPTY:
            raise IllegalMoveError(
                f"{name} is not empty: it holds {self.players[owner]}", rule="GL-3", move=move
            )
        if not self._legal()[r, c]:
            opp = self.players[1 - self._to_move]
            raise IllegalMoveError(
                f"{name} is next to an {opp} marker: you cannot place next to an opponent's marker",
                rule="GL-3",
                move=move,
            )

    def _apply(self, move: CellMove) -> None:
        self._board[move.cell] = self._to_move
        self._to_move = 1 - self._to_move
        self._legal_cache = None

    def _snapshot(self) -> tuple[np.ndarray, int]:
        return self._board.copy(), self._to_move

    def _restore(self, snapshot: tuple[np.ndarray, int]) -> None:
        board, to_move = snapshot
        self._board = board.copy()
        self._to_move = to_move
        self._legal_cache = None

    # -- state ---------------------------------------------------------
    @property
    def player_to_move(self) -> int:
        """Whose turn it is by alternation (GL-2), also once the game is over:
        at the end it is the player who had no legal move and lost."""
        return self._to_move

    @property
    def current_player(self) -> int | None:
        """0 (X) or 1 (O); ``None`` once the mover has no legal move (GL-4)."""
        return self._to_move if self._legal().any() else None

    @property
    def winners(self) -> tuple[int, ...]:
        """``(winner,)`` once over (GL-4: no draws), else ``()``."""
        if self._legal().any():
            return ()
        return (1 - self._to_move,)

    @property
    def scores(self) -> tuple[int, ...]:
        """Markers placed by X and by O."""
        return (int((self._board == 0).sum()), int((self._board == 1).sum()))

    @property
    def board(self) -> np.ndarray:
        """Read-only ``int8`` array ``(rows, cols)``: ``-1`` empty, ``0`` X, ``1`` O."""
        view = self._board.view()
        view.flags.writeable = False
        return view

    def status(self) -> str:
        """The seed's words: ``Player 1 (X), it's your turn.`` or the GL-4 result
        ``Player 1 has no legal moves remaining. Player 2 (O) wins the game!``."""
        p = self._to_move
        if self.is_over:
            w = 1 - p
            return (
                f"Player {p + 1} has no legal moves remaining. "
                f"Player {w + 1} ({self.players[w]}) wins the game!"
            )
        return f"Player {p + 1} ({self.players[p]}), it's your turn."
