"""Gridlock: place markers, never beside the opponent's (rules GL-1..GL-6).

The rules, with every decision of ours marked, are on the documentation's
page *Rules: Gridlock* (``docs/rules/gridlock.md``); the ids (``GL-3``)
are cited below.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, ClassVar

import numpy as np

from ...core.errors import IllegalMoveError, shorten
from ...core.game import Game
from ...core.gametype import GameType, MoveKind
from ...core.moves import CellMove
from ...core.notation import Cell, cell_name, count_of, parse_cell
from .knowledge import GridlockKnowledge

__all__ = ["Gridlock"]

EMPTY = -1
MAX_SIZE = 26


@lru_cache(maxsize=64)
def _geometry(rows: int, cols: int) -> tuple[int, int, int, tuple[CellMove, ...]]:
    """Bit masks of the whole board, of every column but the first, of every
    column but the last; and one :class:`CellMove` per cell (bit order)."""
    n = rows * cols
    full = (1 << n) - 1
    first = sum(1 << (r * cols) for r in range(rows))
    last = sum(1 << (r * cols + cols - 1) for r in range(rows))
    moves = tuple(CellMove(divmod(i, cols)) for i in range(n))  # type: ignore[arg-type]
    return full, full & ~first, full & ~last, moves


class Gridlock(GridlockKnowledge, Game):
    """A game of Gridlock on a ``rows x cols`` board.

    Args:
        rows: number of rows, 1 to 26 (rule GL-1; default 4).
        cols: number of columns, 1 to 26 (default 4).

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

    game_type = GameType(
        short_name="gridlock",
        long_name="Gridlock",
        move_kinds=(MoveKind.CELL,),
        rules="rules/gridlock.md",
    )
    players = ("X", "O")
    presets: ClassVar[dict[str, tuple[str, dict[str, Any]]]] = {
        "4x4": ("4×4 (the book)", {"rows": 4, "cols": 4}),
        "5x5": ("5×5", {"rows": 5, "cols": 5}),
        "6x6": ("6×6", {"rows": 6, "cols": 6}),
    }
    how_to_play = (
        "Click an empty cell to place your mark, never beside, above or below a mark of the other "
        "player (GL-3). Whoever cannot move loses (GL-4)."
    )
    small_options: ClassVar[dict[str, Any]] = {"rows": 4, "cols": 5}
    end_rule = "GL-4"
    turn_rule = "GL-2"
    forbidden_rule = "GL-3"
    compiled_module = "gridwidgets.games.gridlock.kernel"
    #: the seed's dialogue (GL-6) for ``python -m gridwidgets play gridlock``
    terminal_dialogue = "gridwidgets.games.gridlock.terminal:GridlockDialogue"
    #: the players panel heads the score column with this; the picture is the generic one
    #: (X and O as marks, GL-2; the forbidden cells, GL-3, come with the generic state)
    score_label = "Marks"

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
        # the same position as bit masks (bit r*cols+c), for fast legal moves
        self._bits = [0, 0]
        self._to_move = 0
        self._geo = _geometry(self.rows, self.cols)
        self._legal_bits: int | None = None

    _static = frozenset({"_geo"})

    # -- rules ---------------------------------------------------------
    def options(self) -> dict[str, Any]:
        return {"rows": self.rows, "cols": self.cols}

    def _mask_bits(self, player: int) -> int:
        """Bit mask of the cells ``player`` may use (GL-3): empty, and no
        orthogonal neighbour holds an opponent's marker."""
        full, not_first, not_last, _ = self._geo
        opp = self._bits[1 - player]
        near = ((opp & not_last) << 1) | ((opp & not_first) >> 1) | (opp << self.cols) | (opp >> self.cols)
        return full & ~(self._bits[0] | self._bits[1] | near)

    def _legal(self) -> int:
        if self._legal_bits is None:
            self._legal_bits = self._mask_bits(self._to_move)
        return self._legal_bits

    def legal_mask(self, player: int | None = None) -> np.ndarray:
        """Boolean ``(rows, cols)`` array of the cells ``player`` may use now (GL-3).

        Args:
            player: 0 or 1; default the player to move.
        """
        bits = self._legal() if player is None else self._mask_bits(player)
        flat = np.array([(bits >> i) & 1 for i in range(self.rows * self.cols)], dtype=bool)
        return flat.reshape(self.rows, self.cols)

    def legal_moves(self, player: int | None = None) -> list[CellMove]:
        """The cells X or O may use now (GL-3), row by row; ``[]`` once the game
        is over, and for ``player`` when it is not their turn (GL-2)."""
        if player is not None and player != self._to_move:
            return []
        bits = self._legal()
        moves = self._geo[3]
        out = []
        while bits:
            low = bits & -bits
            out.append(moves[low.bit_length() - 1])
            bits ^= low
        return out

    def forbidden_cells(self) -> list[Cell]:
        """Empty cells the mover may not use: next to an opponent's marker (GL-3)."""
        full = self._geo[0]
        near = full & ~(self._bits[0] | self._bits[1]) & ~self._legal()
        return [divmod(i, self.cols) for i in range(self.rows * self.cols) if near >> i & 1]  # type: ignore[misc]

    def all_moves(self, player: int) -> list[CellMove]:
        """Every cell row by row (GL-3, GL-5): this board's own move objects,
        which :meth:`play` takes without reading them again."""
        return list(self._geo[3])

    def parse_move(self, value: Any, player: int | None = None) -> CellMove:
        """Read ``"B2"``, ``"2 2"``, ``(1, 1)`` or a :class:`CellMove` (GL-5, C-2).

        Raises:
            InvalidMoveError: (``C-2``) unreadable.
            IllegalMoveError: (``C-1``) off the board.
        """
        if type(value) is CellMove:
            # fast path: one of this board's own move objects (what legal_moves gives)
            try:
                r, c = value.cell
                cols = self.cols
                if 0 <= r < self.rows and 0 <= c < cols and self._geo[3][r * cols + c] is value:
                    return value
            except (TypeError, ValueError, IndexError):
                pass
            value = value.cell  # a move made by hand is read like its notation (C-1, C-2)
        return CellMove(parse_cell(value, self.rows, self.cols))

    def _check(self, move: CellMove) -> None:
        r, c = move.cell
        if self._legal() >> (r * self.cols + c) & 1:
            return
        name = cell_name(move.cell)
        owner = int(self._board[r, c])
        if owner != EMPTY:
            raise IllegalMoveError(
                f"{name} is not empty: it holds {self.players[owner]}", rule="GL-3", move=move
            )
        opp = self.players[1 - self._to_move]
        raise IllegalMoveError(
            f"{name} is next to an {opp} marker: you cannot place next to an opponent's marker",
            rule="GL-3",
            move=move,
        )

    def _apply(self, move: CellMove) -> None:
        r, c = move.cell
        self._board[r, c] = self._to_move
        self._bits[self._to_move] |= 1 << (r * self.cols + c)
        self._to_move = 1 - self._to_move
        self._legal_bits = None

    def _do(self, move: CellMove) -> tuple[int, int, int | None]:
        # a small undo record (see Game._do): the cell and the legal mask before
        r, c = move.cell
        record = (r, c, self._legal_bits)
        self._apply(move)
        return record

    def _undo(self, record: tuple[int, int, int | None]) -> None:
        r, c, legal = record
        self._to_move = 1 - self._to_move
        self._board[r, c] = EMPTY
        self._bits[self._to_move] &= ~(1 << (r * self.cols + c))
        self._legal_bits = legal

    def _snapshot(self) -> tuple[np.ndarray, int, list[int]]:
        return self._board.copy(), self._to_move, list(self._bits)

    def _restore(self, snapshot: tuple[np.ndarray, int, list[int]]) -> None:
        board, to_move, bits = snapshot
        self._board = board.copy()
        self._to_move = to_move
        self._bits = list(bits)
        self._legal_bits = None

    # -- the position as text ------------------------------------------
    def _write_position(self) -> str:
        """``ROWSxCOLS row/row/... MOVER``: the board row by row from the top,
        ``.`` an empty cell, then the player to move (GL-1, GL-2)."""
        mover = self.players[self._to_move]
        return f"{self.rows}x{self.cols} {'/'.join(self.text_rows())} {mover}"

    @classmethod
    def _read_position(cls, body: str) -> Gridlock:
        """A game at ``body``: :meth:`position`'s fields, or the text board of
        ``print(g)`` (the player to move is then X if both have placed as
        many markers, else O). Refused with the rule: a size off GL-1, counts
        that alternation cannot give (GL-2), an X next to an O (GL-3)."""
        if "|" in body:
            grid = [[cell.strip() or "." for cell in line.split("|")[1:-1]]
                    for line in body.splitlines() if line.count("|") >= 2]
            if not grid or any(len(row) != len(grid[0]) for row in grid):
                raise ValueError("a Gridlock text board has rows of cells between '|', all as long (GL-1)")
            mover = None
        else:
            parts = body.split()
            if len(parts) != 3:
                raise ValueError("a Gridlock position is 'ROWSxCOLS row/row/... X|O', e.g. "
                                 "'4x4 ..../.X../..O./.... X' (GL-1, GL-2)")
            size, rows_text, mover = parts
            r_text, x, c_text = size.partition("x")
            r, c = count_of(r_text, 3), count_of(c_text, 3)
            if not x or r is None or c is None:
                raise ValueError(f"the size is ROWSxCOLS, e.g. 4x4, not {shorten(size)} (GL-1)")
            grid = [list(row) for row in rows_text.split("/")]
            if len(grid) != r or any(len(row) != c for row in grid):
                raise ValueError(f"a {r}x{c} board has {r} rows of {c} cells, separated by '/' (GL-1)")
            if mover not in cls.players:
                raise ValueError(f"the player to move is X or O, not {shorten(mover)} (GL-2)")
        game = cls(rows=len(grid), cols=len(grid[0]))
        marks = {".": EMPTY, cls.players[0]: 0, cls.players[1]: 1}
        for r, row in enumerate(grid):
            for c, ch in enumerate(row):
                if ch not in marks:
                    raise ValueError(f"{cell_name((r, c))} holds {shorten(ch)}: a cell is X, O or empty (GL-1)")
                if marks[ch] != EMPTY:
                    game._board[r, c] = marks[ch]
                    game._bits[marks[ch]] |= 1 << (r * game.cols + c)
        nx, no = (int((game._board == p).sum()) for p in (0, 1))
        if mover is None:
            mover = cls.players[0] if nx == no else cls.players[1]
        to_move = cls.players.index(mover)
        if nx - no != to_move:
            raise ValueError(f"{nx} X and {no} O with {mover} to move: X moves first and they alternate (GL-2)")
        for r in range(game.rows):
            for c in range(game.cols):
                p = int(game._board[r, c])
                for rr, cc in ((r + 1, c), (r, c + 1)):
                    if p != EMPTY and rr < game.rows and cc < game.cols and int(game._board[rr, cc]) == 1 - p:
                        raise ValueError(f"{cell_name((r, c))} and {cell_name((rr, cc))} hold X and O side by "
                                         "side: no marker goes next to an opponent's (GL-3)")
        game._to_move = to_move
        game._legal_bits = None
        return game

    # -- state ---------------------------------------------------------
    @property
    def player_to_move(self) -> int:
        """Whose turn it is by alternation (GL-2), also once the game is over:
        at the end it is the player who had no legal move and lost."""
        return self._to_move

    @property
    def current_player(self) -> int | None:
        """0 (X) or 1 (O); ``None`` once the mover has no legal move (GL-4)."""
        return self._to_move if self._legal() else None

    @property
    def winners(self) -> tuple[int, ...]:
        """``(winner,)`` once over (GL-4: no draws), else ``()``."""
        if self._legal():
            return ()
        return (1 - self._to_move,)

    @property
    def scores(self) -> tuple[int, ...]:
        """Markers placed by X and by O."""
        return (self._bits[0].bit_count(), self._bits[1].bit_count())

    @property
    def board(self) -> np.ndarray:
        """Read-only ``int8`` array ``(rows, cols)``: ``-1`` empty, ``0`` X, ``1`` O."""
        view = self._board.view()
        view.flags.writeable = False
        return view

    def status(self) -> str:
        """The seed's words: ``Player 1 (X), it's your turn.`` or the GL-4 result
        ``Player 1 (X) has no legal moves remaining. Player 2 (O) wins the game!``."""
        p = self._to_move
        if self.is_over:
            w = 1 - p
            return (
                f"Player {p + 1} ({self.players[p]}) has no legal moves remaining. "
                f"Player {w + 1} ({self.players[w]}) wins the game!"
            )
        return f"Player {p + 1} ({self.players[p]}), it's your turn."

    def scene(self, *, show_legal: bool = False, show_forbidden: bool = False) -> Any:
        """The generic picture (X and O as marks, GL-2), with the mover's mark
        as the piece a click puts down (``next_piece``)."""
        from dataclasses import replace

        from ...core.scene import Piece, default_scene

        base = default_scene(self, show_legal=show_legal, show_forbidden=show_forbidden)
        if self.is_over:
            return base
        p = self._to_move
        return replace(base, next_piece=Piece((0, 0), "mark", p, self.players[p]))

    # -- what agents and the solver know (hooks of Game) -------------------
    def max_game_length(self) -> int:
        """Every move fills a cell: at most ``rows * cols`` moves."""
        return self.rows * self.cols
