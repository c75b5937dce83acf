"""GridMaster4: four players, numbered tiles and jumps (rules GM-1..GM-10).

A four-player version of the solitaire *The Grid Master*. The rules, with
every decision of ours marked, are on the documentation's page *Rules:
GridMaster4* (``docs/rules/gridmaster4.md``); the ids (``GM-5``) are cited below.

The engine keeps the board as flat Python lists with a precomputed jump
table per board size: a move costs a few microseconds, so thousands of
random games run per second (``benchmarks/gridmaster_speed.py``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np

from ...core.errors import IllegalMoveError, shorten
from ...core.game import Game
from ...core.gametype import GameType, MoveKind, Utility
from ...core.moves import CellMove
from ...core.notation import cell_name, count_of, parse_cell
from .knowledge import GridMaster4Knowledge
from .picture import GridMaster4Picture
from .view import GridMaster4View

__all__ = ["JUMPS", "GridMaster4", "jump_cells"]

#: GM-3: the jump offsets (row, col): 3 orthogonally, 2 diagonally
JUMPS = ((-3, 0), (3, 0), (0, -3), (0, 3), (-2, -2), (-2, 2), (2, -2), (2, 2))
#: GM-1: player names in turn order
NAMES = ("orange", "magenta", "lime", "aqua")
#: CSS colours of the players (GM-1, GM-10)
COLOURS = ("#f97316", "#d946ef", "#84cc16", "#06b6d4")
MAX_SIZE = 26

#: turn kinds
NORMAL, OPENING, FREE = "normal", "opening", "free"


@lru_cache(maxsize=64)
def _tables(rows: int, cols: int) -> tuple[tuple[tuple[int, ...], ...], tuple[CellMove, ...]]:
    jumps = []
    for r in range(rows):
        for c in range(cols):
            jumps.append(
                tuple((r + dr) * cols + (c + dc) for dr, dc in JUMPS if 0 <= r + dr < rows and 0 <= c + dc < cols)
            )
    moves = tuple(CellMove((i // cols, i % cols)) for i in range(rows * cols))
    return tuple(jumps), moves


def jump_cells(cell: tuple[int, int], size: int) -> list[tuple[int, int]]:
    """The jump cells of ``cell`` on a ``size x size`` board (GM-3): up to 8."""
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in JUMPS if 0 <= r + dr < size and 0 <= c + dc < size]


class GridMaster4(GridMaster4Knowledge, GridMaster4Picture, GridMaster4View, Game):
    """A game of GridMaster4 (rules GM-1..GM-10, on the docs page *Rules: GridMaster4*).

    Args:
        size: the board is ``size x size`` cells, 1 to 26 (GM-1; default 20).
        players: 1 to 4 players, in the order orange, magenta, lime, aqua.
            One player on 10x10 is the original puzzle *The Grid Master*.
        tiles: tiles per player, numbered 1..tiles (default 100); placing
            the last one wins at once (GM-8).
        deactivate: ``"own"`` (default, GM-5): a move deactivates the
            mover's own active tiles on the new tile's jump cells;
            ``"all"``: every player's (the book's literal variant).

    Raises:
        ValueError: for an option out of range.

    ``board`` is an ``int8`` array ``(size, size)``: ``-1`` empty, else the
    owner's player id; ``tiles`` the tile numbers (0 empty); ``active`` a
    boolean array of the active tiles. ``scores`` is each player's highest
    tile (GM-4). Moves are cells (GM-9).
    """

    game_type = GameType(
        short_name="gridmaster4",
        long_name="GridMaster4",
        utility=Utility.GENERAL_SUM,
        min_players=1,
        max_players=4,
        move_kinds=(MoveKind.CELL,),
        rules="rules/gridmaster4.md",
    )
    presets: ClassVar[dict[str, tuple[str, dict[str, Any]]]] = {
        "20x20-4": ("20×20, four players (the book)", {"size": 20, "players": 4}),
        "10x10-2": ("10×10, two players", {"size": 10, "players": 2}),
        "10x10-1": ("10×10, one player (the puzzle)", {"size": 10, "players": 1}),
    }
    how_to_play = (
        "Your first tile goes on any open cell (GM-2); each next tile goes 3 cells straight or 2 "
        "diagonally from one of your active tiles (GM-4). The highest tile wins."
    )
    small_options: ClassVar[dict[str, Any]] = {"size": 8, "tiles": 20}
    #: the players' colours are named after them (GM-1): the palette's colours of these names
    player_colours: ClassVar[tuple[str, ...]] = NAMES
    _static = frozenset({"_jumps", "_moves"})
    end_rule = "GM-8"
    turn_rule = "GM-1"
    compiled_module = "gridwidgets.games.gridmaster.kernel"
    #: its own words for ``python -m gridwidgets play`` (``gridwidgets.terminal``)
    terminal_dialogue = "gridwidgets.games.gridmaster.terminal:GridMaster4Dialogue"
    #: the one-player puzzle's exercise, "reach tile N from here" (exercises.py beside it)
    exercise_kinds: ClassVar[dict[str, Any]] = {
        "reach-tile": "gridwidgets.games.gridmaster.exercises:REACH_TILE"}

    def __init__(self, size: int = 20, players: int = 4, tiles: int = 100, deactivate: str = "own") -> None:
        for name, value, low, high in (("size", size, 1, MAX_SIZE), ("players", players, 1, 4)):
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or not low <= value <= high:
                raise ValueError(f"{name} must be an int from {low} to {high}, got {shorten(value)} (GM-1)")
        if not isinstance(tiles, (int, np.integer)) or isinstance(tiles, bool) or tiles < 1:
            raise ValueError(f"tiles must be a positive int, got {shorten(tiles)} (GM-1)")
        if deactivate not in ("own", "all"):
            raise ValueError(f"deactivate must be 'own' or 'all', got {shorten(deactivate)} (GM-5)")
        if players == 1 and tiles > size * size:
            raise ValueError(
                f"{tiles} tiles cannot all be placed on {size * size} cells: the one-player puzzle is to place "
                f"every tile (GM-1, GM-8); choose tiles <= {size * size} or a larger board"
            )
        super().__init__()
        self.size = self.rows = self.cols = int(size)
        self.players = NAMES[: int(players)]
        self.tiles_per_player = int(tiles)
        self.deactivate = deactivate
        self._n = self.size * self.size
        self._jumps, self._moves = _tables(self.size, self.size)
        p = len(self.players)
        self._owner = [-1] * self._n
        self._tile = [0] * self._n
        self._active: list[set[int]] = [set() for _ in range(p)]
        self._score = [0] * p
        self._in_play = [True] * p
        self._owed = [0] * p
        self._opened = [False] * p
        self._open = self._n
        self._to_move = 0
        self._over = False
        self._winners: tuple[int, ...] = ()
        self._events: list[str] = []
        self._deactivated: list[int] = []
        self._legal: list[int] | None = None
        self._start_turn()

    # ------------------------------------------------------------------
    # Rules
    # ------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "players": len(self.players),
            "tiles": self.tiles_per_player,
            "deactivate": self.deactivate,
        }

    def turn_kind(self) -> str | None:
        """What the player to act places: ``"opening"`` (tile 1 anywhere, GM-2),
        ``"free"`` (a free placement anywhere, GM-7), ``"normal"`` (a jump, GM-4);
        ``None`` once the game is over."""
        if self._over:
            return None
        p = self._to_move
        if not self._opened[p]:
            return OPENING
        return FREE if self._owed[p] else NORMAL

    def _normal_targets(self, p: int) -> list[int]:
        owner, jumps = self._owner, self._jumps
        return sorted({j for a in self._active[p] for j in jumps[a] if owner[j] < 0})

    def _has_normal_move(self, p: int) -> bool:
        owner, jumps = self._owner, self._jumps
        for a in self._active[p]:
            for j in jumps[a]:
                if owner[j] < 0:
                    return True
        return False

    def _legal_indices(self) -> list[int]:
        if self._legal is None:
            if self._over:
                self._legal = []
            elif self._opened[self._to_move] and not self._owed[self._to_move]:
                self._legal = self._normal_targets(self._to_move)
            else:
                owner = self._owner  # every open cell (GM-2, GM-7)
                self._legal = [i for i in range(self._n) if owner[i] < 0]
        return self._legal

    def legal_moves(self, player: int | None = None) -> list[CellMove]:
        """The cells the player to act may use, row by row (GM-2, GM-4, GM-7);
        ``[]`` once the game is over, and for ``player`` when it is not their
        turn (GM-1). A cell reachable from two tiles is one move."""
        if player is not None and (player != self._to_move or self._over):
            return []
        moves = self._moves
        return [moves[i] for i in self._legal_indices()]

    def all_moves(self, player: int) -> list[CellMove]:
        """Every cell row by row (GM-2, GM-4): this board's own move objects,
        which :meth:`play` takes without reading them again."""
        return list(self._moves)

    def parse_move(self, value: Any, player: int | None = None) -> CellMove:
        """Read ``"K10"``, ``"10 11"``, ``(9, 10)`` or a :class:`CellMove` (GM-9, C-2).

        Raises:
            InvalidMoveError: (``C-2``) unreadable.
            IllegalMoveError: (``C-1``) off the board.
        """
        if type(value) is CellMove:
            # fast path: one of this board's own move objects (what legal_moves gives)
            try:
                r, c = value.cell
                size = self.size
                if 0 <= r < size and 0 <= c < size and self._moves[r * size + c] is value:
                    return value
            except (TypeError, ValueError, IndexError):
                pass
            value = value.cell  # a move made by hand is read like its notation (C-1, C-2)
        return CellMove(parse_cell(value, self.size, self.size))

    def _check(self, move: CellMove) -> None:
        r, c = move.cell
        i = r * self.size + c
        p = self._to_move
        if self._owner[i] < 0:
            if not self._opened[p] or self._owed[p]:
                return  # GM-2, GM-7: any open cell (the game is not over: play() checked)
            # GM-4: jumps are symmetric, so i is a jump cell of an active tile
            # exactly when an active tile stands on a jump cell of i
            mine = self._active[self._to_move]
            for j in self._jumps[i]:
                if j in mine:
                    return
        kind = self.turn_kind()
        name = cell_name(move.cell)
        player = self.players[self._to_move]
        if self._owner[i] >= 0:
            rule = {OPENING: "GM-2", FREE: "GM-7"}.get(kind or "", "GM-4")
            raise IllegalMoveError(
                f"{name} is taken by {self.players[self._owner[i]]} tile {self._tile[i]}: "
                "a tile goes on an open cell",
                rule=rule,
                move=move,
            )
        raise IllegalMoveError(
            f"{name} is not a jump cell of any active {player} tile "
            "(3 cells up, down, left or right, or 2 diagonally)",
            rule="GM-4",
            move=move,
        )

    def _apply(self, move: CellMove) -> None:
        r, c = move.cell
        self._place(r * self.size + c)

    def _do(self, move: CellMove) -> tuple[Any, ...]:
        # a small undo record instead of a full snapshot (see Game._do)
        r, c = move.cell
        i = r * self.size + c
        p = self._to_move
        record = (
            i, p, self._opened[p], self._in_play, self._owed, self._over,
            self._winners, self._events, self._deactivated,
        )
        self._place(i)
        return record

    def _undo(self, record: tuple[Any, ...]) -> None:
        i, p, opened, in_play, owed, over, winners, events, deactivated = record
        owner = self._owner
        for j in self._deactivated:
            self._active[owner[j]].add(j)
        self._active[p].discard(i)
        owner[i] = -1
        self._tile[i] = 0
        self._score[p] -= 1
        self._open += 1
        self._opened[p] = opened
        # the lists in a record are never changed in place (copy on write below)
        self._in_play, self._owed = in_play, owed
        self._to_move, self._over, self._winners = p, over, winners
        self._events, self._deactivated = events, deactivated
        self._legal = None

    def _place(self, i: int) -> None:
        """Place the mover's next tile on cell index ``i`` (legal, unchecked)."""
        p = self._to_move
        owner = self._owner
        self._score[p] += 1
        number = self._score[p]
        owner[i] = p
        self._tile[i] = number
        self._open -= 1
        events: list[str] = []
        deactivated: list[int] = []
        if not self._opened[p]:
            self._opened[p] = True  # GM-2: the opening deactivates nothing
        elif self._owed[p]:
            self._owed = self._owed[:]  # copy on write: undo records share these lists
            self._owed[p] -= 1  # GM-7: a free placement deactivates nothing
        else:
            # GM-5: the mover's (variant: everyone's) active tiles on the new tile's jump cells
            active = self._active
            if self.deactivate == "own":
                mine = active[p]
                for j in self._jumps[i]:
                    if j in mine:
                        mine.discard(j)
                        deactivated.append(j)
            else:
                for j in self._jumps[i]:
                    q = owner[j]
                    if q >= 0 and j in active[q]:
                        active[q].discard(j)
                        deactivated.append(j)
        self._active[p].add(i)
        self._deactivated = deactivated
        self._legal = None
        if number == self.tiles_per_player:
            self._over = True
            self._winners = (p,)
            events.append(f"{self.player_label(p)} placed tile {number}, their last, and wins (GM-8)")
        elif self._open == 0:
            self._finish(events, "the board is full")
        else:
            self._to_move = (p + 1) % len(self.players)
            self._start_turn(events)
        self._events = events

    def _start_turn(self, events: list[str] | None = None) -> None:
        """Resolve the start of turns (GM-6, GM-7): skip players out of play,
        block a player with no move and no free placement, until someone can act."""
        if events is None:
            events = self._events = []
        n = len(self.players)
        while True:
            p = self._to_move
            if not self._in_play[p]:
                # (someone in play: the common case, checked first; none left: the end, GM-8)
                if not any(self._in_play):
                    self._finish(events, "every player is blocked")
                    return
                self._to_move = (p + 1) % n
                continue
            if not self._opened[p] or self._owed[p] or self._has_normal_move(p):
                self._legal = None
                return
            self._in_play = self._in_play[:]  # copy on write: undo records share these lists
            self._owed = self._owed[:]
            self._in_play[p] = False
            others = [q for q in range(n) if self._in_play[q]]
            for q in others:
                self._owed[q] += 1
            text = f"{self.player_label(p)} is blocked (GM-6)"
            if others:
                text += (
                    ": " + ", ".join(self.player_label(q) for q in others)
                    + (" is" if len(others) == 1 else " are each")
                    + " owed a free placement (GM-7)"
                )
            events.append(text)
            self._to_move = (p + 1) % n

    def _finish(self, events: list[str], why: str) -> None:
        self._over = True
        self._legal = None
        best = max(self._score)
        self._winners = tuple(q for q, s in enumerate(self._score) if s == best)
        names = " and ".join(self.player_label(q) for q in self._winners)
        verb = "wins" if len(self._winners) == 1 else "share the win"
        events.append(f"Game over, {why}: {names} {verb} with {best} (GM-8)")

    # -- the position as text ------------------------------------------
    def _write_position(self) -> str:
        """``SIZE PLAYERSp TILESt own|all row/row/... MOVER BLOCKED OWED``: the
        board row by row from the top, its cells separated by ``,`` (``.``
        open, ``O12`` orange's tile 12 active, ``o12`` inactive, GM-5), the
        initial of the player to move (``-`` once over), the initials of the
        blocked players (``-``: none, GM-6) and the free placements owed to
        each player (GM-7)."""
        rows = []
        for r in range(self.size):
            cells = []
            for c in range(self.size):
                i = r * self.size + c
                q = self._owner[i]
                if q < 0:
                    cells.append(".")
                else:
                    letter = self.players[q][0]
                    cells.append((letter.upper() if i in self._active[q] else letter) + str(self._tile[i]))
            rows.append(",".join(cells))
        mover = "-" if self._over else self.players[self._to_move][0].upper()
        blocked = "".join(self.players[q][0].upper() for q in range(len(self.players)) if not self._in_play[q]) or "-"
        owed = ",".join(str(k) for k in self._owed)
        return (f"{self.size} {len(self.players)}p {self.tiles_per_player}t {self.deactivate} {'/'.join(rows)} "
                f"{mover} {blocked} {owed}")

    @classmethod
    def _read_position(cls, body: str) -> GridMaster4:
        """A game at ``body`` (:meth:`position`'s fields). Refused with the
        rule: options off GM-1, a tile of no player or beyond the tiles,
        a player's tiles not numbered 1, 2, ... without a gap (GM-3), a
        player's last tile inactive under ``own`` (GM-5), the player to move
        blocked (GM-6), owed placements that are not counts (GM-7). The text
        board of ``print(g)`` is refused: it lacks the options, the blocked
        players and the placements owed."""
        if "\n" in body:
            raise ValueError("a GridMaster4 text board (print(g)) shows the tiles, not the players and tiles of "
                             "the options, the blocked players or the free placements owed: give g.position()'s "
                             "text instead (GM-1, GM-6, GM-7)")
        parts = body.split()
        if len(parts) != 8:
            raise ValueError("a GridMaster4 position is 'SIZE PLAYERSp TILESt own|all row/row/... MOVER BLOCKED "
                             "OWED', e.g. '3 2p 4t own .,.,./.,.,./.,.,. O - 0,0' (GM-1)")
        size, players, tiles, deactivate, rows_text, mover, blocked, owed_text = parts
        numbers = []
        for text, suffix in ((size, ""), (players, "p"), (tiles, "t")):
            digits = text[: len(text) - len(suffix)] if suffix and text.endswith(suffix) else text
            number = count_of(digits, 6)
            if number is None:
                raise ValueError(f"{shorten(text)} is not a count in the digits 0-9"
                                 f"{' ending in ' + suffix if suffix else ''} (GM-1)")
            numbers.append(number)
        game = cls(size=numbers[0], players=numbers[1], tiles=numbers[2], deactivate=deactivate)
        n, k = game.size, len(game.players)
        initials = [name[0] for name in game.players]
        rows = rows_text.split("/")
        grid = [row.split(",") for row in rows]
        if len(grid) != n or any(len(row) != n for row in grid):
            raise ValueError(f"a {n}x{n} board has {n} rows of {n} cells, rows separated by '/', cells by ',' (GM-1)")
        numbered: list[list[int]] = [[] for _ in range(k)]
        for r, row in enumerate(grid):
            for c, cell in enumerate(row):
                if cell == ".":
                    continue
                letter, digits = cell[:1], cell[1:]
                q = initials.index(letter.lower()) if letter.lower() in initials else -1
                number = count_of(digits, 6)
                if q < 0 or number is None or not 1 <= number <= game.tiles_per_player:
                    raise ValueError(f"{cell_name((r, c))} holds {shorten(cell)}: a tile is a player's initial and "
                                     f"its number 1..{game.tiles_per_player}, or '.' for an open cell (GM-1)")
                i = r * n + c
                game._owner[i], game._tile[i] = q, number
                numbered[q].append(number)
                if letter.isupper():
                    game._active[q].add(i)
        for q, got in enumerate(numbered):
            if sorted(got) != list(range(1, len(got) + 1)):
                raise ValueError(f"{game.player_label(q)}'s tiles are not numbered 1 to {len(got)} without a gap or "
                                 "a repeat: each tile is the next number (GM-3)")
            game._score[q] = len(got)
            game._opened[q] = bool(got)
            last = next((i for i in range(n * n) if game._owner[i] == q and game._tile[i] == len(got)), None)
            if game.deactivate == "own" and last is not None and last not in game._active[q]:
                raise ValueError(f"{game.player_label(q)}'s last tile {len(got)} is inactive: a move deactivates "
                                 "only the mover's older tiles (GM-5)")
        game._open = n * n - sum(game._score)
        game._in_play = [initials[q].upper() not in (blocked if blocked != "-" else "") for q in range(k)]
        if blocked != "-" and any(ch.lower() not in initials for ch in blocked):
            raise ValueError(f"the blocked players are initials of this game's players or '-', not {shorten(blocked)} "
                             "(GM-6)")
        owed = owed_text.split(",")
        if len(owed) != k or any(count_of(x, 6) is None for x in owed):
            raise ValueError(f"the free placements owed are {k} counts separated by ',', "
                             f"not {shorten(owed_text)} (GM-7)")
        game._owed = [int(x) for x in owed]
        done = [q for q in range(k) if game._score[q] == game.tiles_per_player]
        if done or game._open == 0 or not any(game._in_play):
            if mover != "-":
                raise ValueError("the game is over here (a last tile placed, the board full or everyone blocked): "
                                 "the player to move is '-' (GM-8)")
            if done:
                game._over, game._winners = True, (done[0],)
            else:
                game._finish([], "the position given")
        else:
            if mover.lower() not in initials:
                raise ValueError(f"the player to move is an initial of this game's players, "
                                 f"not {shorten(mover)} (GM-4)")
            game._to_move = initials.index(mover.lower())
            if not game._in_play[game._to_move]:
                raise ValueError(f"{game.player_label(game._to_move)} is blocked and cannot be to move (GM-6)")
            game._start_turn()
        game._events, game._deactivated, game._legal = [], [], None
        return game

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            self._owner[:],
            self._tile[:],
            [set(a) for a in self._active],
            self._score[:],
            self._in_play[:],
            self._owed[:],
            self._opened[:],
            self._open,
            self._to_move,
            self._over,
            self._winners,
            self._events,
            self._deactivated,
        )

    def _restore(self, snapshot: tuple[Any, ...]) -> None:
        (owner, tile, active, score, in_play, owed, opened, self._open, self._to_move, self._over,
         self._winners, self._events, self._deactivated) = snapshot
        self._owner, self._tile, self._score = owner[:], tile[:], score[:]
        self._active = [set(a) for a in active]
        self._in_play, self._owed, self._opened = in_play[:], owed[:], opened[:]
        self._legal = None

    # ------------------------------------------------------------------
    # State
    # ------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        """The player to act (0 orange, 1 magenta, 2 lime, 3 aqua); ``None`` when over."""
        return None if self._over else self._to_move

    @property
    def winners(self) -> tuple[int, ...]:
        """The winner, or every player sharing the highest score (GM-8, C-4); ``()`` while ongoing."""
        return self._winners if self._over else ()

    @property
    def scores(self) -> tuple[int, ...]:
        """Each player's highest tile on the board (GM-4), 0 before their opening."""
        return tuple(self._score)

    def observation_features(self, player: int | None) -> np.ndarray:
        """Beyond the owners of the board: each cell's tile number over the
        tiles per player (``size * size``), active tiles (``size * size``, GM-5),
        then per player blocked (GM-6) and tiles placed over tiles per player."""
        n = float(self.tiles_per_player)
        placed = [(self.tiles_per_player - r) / n for r in self.remaining]
        return np.concatenate([
            np.asarray(self._tile, dtype=np.float32) / n,
            np.asarray(self.active, dtype=np.float32).ravel(),
            np.asarray(self.blocked, dtype=np.float32),
            np.asarray(placed, dtype=np.float32),
        ])

    @property
    def board(self) -> np.ndarray:
        """Read-only ``int8`` array ``(size, size)``: ``-1`` empty, else the owner id."""
        a = np.array(self._owner, dtype=np.int8).reshape(self.size, self.size)
        a.flags.writeable = False
        return a

    @property
    def tiles(self) -> np.ndarray:
        """Read-only ``int16`` array ``(size, size)`` of tile numbers, 0 for an empty cell."""
        a = np.array(self._tile, dtype=np.int16).reshape(self.size, self.size)
        a.flags.writeable = False
        return a

    @property
    def active(self) -> np.ndarray:
        """Read-only boolean array ``(size, size)``: True where an active tile stands (GM-5)."""
        a = np.zeros(self._n, dtype=bool)
        for cells in self._active:
            a[list(cells)] = True
        a = a.reshape(self.size, self.size)
        a.flags.writeable = False
        return a

    @property
    def blocked(self) -> tuple[bool, ...]:
        """Per player: removed from play (GM-6)."""
        return tuple(not x for x in self._in_play)

    @property
    def owed(self) -> tuple[int, ...]:
        """Per player: free placements owed (GM-7)."""
        return tuple(self._owed)

    @property
    def remaining(self) -> tuple[int, ...]:
        """Per player: tiles not yet placed."""
        return tuple(self.tiles_per_player - s for s in self._score)

    def active_tiles(self, player: int) -> list[tuple[int, int]]:
        """The cells of ``player``'s active tiles, row by row (GM-5)."""
        return [(i // self.size, i % self.size) for i in sorted(self._active[player])]

    @property
    def events(self) -> list[str]:
        """What the last move caused, for people (blocks GM-6, free placements GM-7, the end GM-8)."""
        return list(self._events)

    @property
    def last_deactivated(self) -> list[tuple[int, int]]:
        """Cells whose tiles the last move made inactive (GM-5)."""
        return [(i // self.size, i % self.size) for i in self._deactivated]

    def cell_text(self, cell: tuple[int, int]) -> str:
        t = self._tile[cell[0] * self.size + cell[1]]
        return str(t) if t else ""

    def text_rows(self) -> list[str]:
        """One string per row: each cell ``.`` or the owner's initial (upper case if active)."""
        out = []
        for r in range(self.size):
            row = []
            for c in range(self.size):
                i = r * self.size + c
                q = self._owner[i]
                if q < 0:
                    row.append(".")
                else:
                    letter = self.players[q][0]
                    row.append(letter.upper() if i in self._active[q] else letter)
            out.append("".join(row))
        return out

    def status(self) -> str:
        """Whose turn and what kind, or the result (GM-8)."""
        if self._over:
            best = max(self._score)
            if len(self._winners) == 1:
                w = self._winners[0]
                if self._score[w] == self.tiles_per_player:
                    return f"{self.player_label(w)} placed tile {best}, their last, and wins (GM-8)."
                return f"Game over: {self.player_label(w)} wins with {best} (GM-8)."
            names = " and ".join(self.player_label(q) for q in self._winners)
            return f"Game over: {names} share the win with {best} (GM-8)."
        name = self.player_label(self._to_move)
        kind = self.turn_kind()
        if kind == OPENING:
            return f"{name} to move: opening, tile 1 on any open cell (GM-2)."
        if kind == FREE:
            owed = self._owed[self._to_move]
            more = f" ({owed} owed)" if owed > 1 else ""
            return f"{name} to move: free placement, any open cell (GM-7){more}."
        return f"{name} to move: tile {self._score[self._to_move] + 1} on a jump cell (GM-4)."

    # ------------------------------------------------------------------
    # Simulation and the solitaire puzzle
    # ------------------------------------------------------------------
    def _rollout(self, rng: random.Random) -> None:
        """Play uniformly random legal moves to the end without history or
        observers (fast; :meth:`simulate` uses it on fresh games)."""
        while not self._over:
            legal = self._legal_indices()
            self._place(legal[rng.randrange(len(legal))])

    def result_row(self) -> dict[str, Any]:
        """``simulate``'s row, plus ``last_tile`` (won by placing the last
        tile, GM-8) and ``blocked_<name>`` per player (GM-6); ``length``
        counts tiles placed (a rollout keeps no history)."""
        row = super().result_row()
        row["length"] = sum(self._score)
        row["last_tile"] = len(self._winners) == 1 and max(self._score) == self.tiles_per_player
        for p, name in enumerate(self.players):
            row[f"blocked_{name}"] = not self._in_play[p]
        return row

    def max_game_length(self) -> int:
        """Every move places a tile on an open cell: at most ``min(players *
        tiles, size * size)`` moves (GM-1, GM-8)."""
        return min(len(self.players) * self.tiles_per_player, self._n)

    @classmethod
    def from_moves(cls, moves: Sequence[Any], **options: Any) -> GridMaster4:
        """A game with ``moves`` played (notation or tuples)."""
        g = cls(**options)
        for m in moves:
            g.play(m)
        return g
