"""GridBloc, the basic game: a runner against a blocker (rules GB-1..GB-10).

The rules, with every decision of ours marked, are on the documentation's
page *Rules: GridBloc* (``docs/rules/gridbloc.md``); the ids (``GB-3``) are
cited below.

Tiles are cells (C-1, C-2). A wall lies on the edge between two
orthogonally adjacent tiles and is written with the two tiles, top or left
first: ``"C4|D4"`` (GB-8). The runner steps to one of the 8 neighbouring
tiles (GB-3); the blocker then places one wall (GB-4). A round ends as soon
as no unscored tile can be reached (GB-6); the players then swap roles and
the walls go back to the original ones (GB-7).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, ClassVar

import numpy as np

from ...core.errors import IllegalMoveError, InvalidMoveError, shorten
from ...core.game import Game
from ...core.gametype import GameType, MoveKind
from ...core.moves import CellMove
from ...core.notation import Cell, cell_name, count_of, parse_cell
from .knowledge import GridBlocKnowledge
from .picture import GridBlocPicture
from .view import GridBlocView

__all__ = ["Done", "GridBloc", "StartMove", "Wall", "load_preset"]

MIN_SIZE, MAX_SIZE = 2, 26
_DIRS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


@dataclass(frozen=True, order=True)
class Wall:
    """A wall between two orthogonally adjacent tiles, ``a`` above or left of ``b`` (GB-2, GB-8)."""

    a: Cell
    b: Cell

    @property
    def edge(self) -> tuple[Cell, Cell]:
        """The two tiles the wall separates (the edge of the game protocol's ``MoveKind.EDGE``)."""
        return (self.a, self.b)

    def __str__(self) -> str:
        return f"{cell_name(self.a)}|{cell_name(self.b)}"

    def __repr__(self) -> str:
        return f"Wall({str(self)!r})"


@dataclass(frozen=True)
class StartMove:
    """Setup (GB-10): move the start tile to ``cell``; written ``"start E5"``."""

    cell: Cell

    def __str__(self) -> str:
        return f"start {cell_name(self.cell)}"

    def __repr__(self) -> str:
        return f"StartMove({str(self)!r})"


@dataclass(frozen=True)
class Done:
    """Setup (GB-10): player 0 ends the setup and round one begins; written ``"done"``."""

    def __str__(self) -> str:
        return "done"


def _pair(wall: Wall, size: int) -> tuple[int, int]:
    """The tile indices of a wall's two tiles, or ``(-1, -1)`` if they are not
    int cells of a ``size x size`` board (a wall made by hand)."""
    a, b = wall.a, wall.b
    try:
        if 0 <= a[0] < size and 0 <= a[1] < size and 0 <= b[0] < size and 0 <= b[1] < size:
            return (a[0] * size + a[1], b[0] * size + b[1])
    except (TypeError, IndexError):
        pass
    return (-1, -1)


def _points(n: int) -> str:
    return f"{n} point{'s' if n != 1 else ''}"


def load_preset(name: str) -> dict[str, Any]:
    """A board shipped with the package (GB-1): ``{"size", "start", "walls", "holes"}``.

    Raises:
        ValueError: for an unknown name.
    """
    if name == "blank":
        return {"walls": [], "holes": []}
    try:
        text = resources.files(__package__).joinpath("presets", f"{name}.json").read_text()
    except FileNotFoundError:
        raise ValueError(f"unknown GridBloc preset {name!r}: use 'classic' or 'blank' (GB-1)") from None
    return json.loads(text)


@lru_cache(maxsize=64)
def _geometry(
    size: int,
) -> tuple[dict[tuple[int, int], int], list[tuple[int, int]], list[list[tuple[int, ...]]], tuple[Wall, ...]]:
    """Edge ids (``(i, j)`` tile indices, i < j, orthogonal neighbours -> id),
    the tiles of each edge, per tile its 8 possible steps (GB-3):
    ``(j, e)`` for an orthogonal step across edge ``e``, ``(j, ab, bd, ac, cd)``
    for a diagonal one, with the four edges around the corner it passes;
    and the :class:`Wall` of each edge."""
    edges: dict[tuple[int, int], int] = {}
    back: list[tuple[int, int]] = []
    for r in range(size):
        for c in range(size):
            i = r * size + c
            for j in ((i + 1) if c + 1 < size else -1, (i + size) if r + 1 < size else -1):
                if j >= 0:
                    edges[(i, j)] = len(back)
                    back.append((i, j))

    def e(i: int, j: int) -> int:
        return edges[(i, j) if i < j else (j, i)]

    steps: list[list[tuple[int, ...]]] = []
    for r in range(size):
        for c in range(size):
            i = r * size + c
            out: list[tuple[int, ...]] = []
            for dr, dc in _DIRS:
                rr, cc = r + dr, c + dc
                if not (0 <= rr < size and 0 <= cc < size):
                    continue
                j = rr * size + cc
                if dr == 0 or dc == 0:
                    out.append((j, e(i, j)))
                else:
                    b = rr * size + c  # beside both, in A's column
                    k = r * size + cc  # beside both, in A's row
                    out.append((j, e(i, b), e(b, j), e(i, k), e(k, j)))
            steps.append(out)
    walls = tuple(Wall(divmod(i, size), divmod(j, size)) for i, j in back)  # type: ignore[arg-type]
    return edges, back, steps, walls


class GridBloc(GridBlocKnowledge, GridBlocPicture, GridBlocView, Game):
    """A game of GridBloc, basic rules (rules GB-1..GB-10, on the docs page *Rules: GridBloc*).

    Args:
        size: the board is ``size x size`` tiles, 2 to 26 (GB-1; default 9).
        preset: ``"classic"`` (a fixed 9x9 layout of ours) or ``"blank"``;
            by default ``"classic"`` on 9x9 and ``"blank"`` on other sizes,
            and ``"blank"`` with ``setup=True`` (GB-10: the book's setup
            starts from a blank board).
        start: the start tile, ``"E5"`` or ``(4, 4)``; default the preset's,
            else row and column ``size // 2``.
        walls: original walls added to the preset's, e.g. ``["C4|D4"]``.
        holes: tiles masked out of the board (``["A1"]``): not tiles; every
            edge next to one is closed.
        setup: open in the book's setup phase (GB-10): player 0 places
            original walls and may move the start, then plays ``"done"``.
        board: a whole board instead of ``preset`` (a dict or its JSON, as
            :meth:`board_preset` writes): ``size``, ``start``, ``walls``, ``holes``.

    Raises:
        ValueError: for a board that is not valid (size out of range, a
            wall between tiles that are not neighbours or on the border, the
            start on a hole or off the board).

    Player 0 (the book's Player One) blocks in round one while player 1
    runs; they swap in round two (GB-7). ``board`` is an ``int8`` array:
    ``-2`` a hole, ``-1`` a tile not visited this round, else the id of the
    runner who visited it (the start included). ``scores`` are each
    player's runner points over both rounds (GB-5).
    """

    game_type = GameType(
        short_name="gridbloc",
        long_name="GridBloc",
        move_kinds=(MoveKind.CELL, MoveKind.EDGE, MoveKind.CHOICE),
        rules="rules/gridbloc.md",
    )
    presets: ClassVar[dict[str, tuple[str, dict[str, Any]]]] = {
        "9x9": ("9×9, the classic board", {"size": 9}),
        "7x7": ("7×7, an open board", {"size": 7}),
        "5x5": ("5×5, a short game (about 70 moves)", {"size": 5}),
    }
    how_to_play = (
        "The runner steps to a neighbouring tile (diagonals too) and scores each new tile; the "
        "blocker clicks a line between two tiles to build a wall. Roles swap for round two (GB-7)."
    )
    small_options: ClassVar[dict[str, Any]] = {"size": 5}
    _static = frozenset(
        {"_edge_ids", "_edge_tiles", "_step_table", "_wall_objs", "_hole_mask", "_hole_edge", "_holes"}
    )
    players = ("Player 1", "Player 2")
    end_rule = "GB-7"
    compiled_module = "gridwidgets.games.gridbloc.kernel"
    #: its own words for ``python -m gridwidgets play`` (``gridwidgets.terminal``)
    terminal_dialogue = "gridwidgets.games.gridbloc.terminal:GridBlocDialogue"
    turn_rule = "GB-4"

    def __init__(
        self,
        size: int | None = None,
        preset: str | None = None,
        start: Any = None,
        walls: Iterable[Any] = (),
        holes: Iterable[Any] = (),
        setup: bool = False,
        board: Mapping[str, Any] | str | None = None,
    ) -> None:
        spec: dict[str, Any]
        if board is not None:
            spec = self._read_board(board)
            if size is not None and size != spec.get("size"):
                raise ValueError(f"size {size} does not match the board's size {spec.get('size')}")
        else:
            if size is None:
                size = 9
            if preset is None:
                preset = "blank" if setup or size != 9 else "classic"
            spec = dict(load_preset(preset))
            if preset != "blank" and spec.get("size") != size:
                raise ValueError(
                    f"the {preset!r} preset is {spec.get('size')}x{spec.get('size')}, not {size}x{size} (GB-1)"
                )
            spec["size"] = size
            spec["preset"] = preset
        size = spec["size"]
        if not isinstance(size, (int, np.integer)) or isinstance(size, bool) or not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(f"size must be an int from {MIN_SIZE} to {MAX_SIZE}, got {size!r} (GB-1)")
        super().__init__()
        self.size = self.rows = self.cols = int(size)
        self._preset = spec.get("preset")
        n = self.size * self.size
        self._edge_ids, self._edge_tiles, self._step_table, self._wall_objs = _geometry(self.size)
        try:
            self._holes = sorted({self._tile(h) for h in [*spec.get("holes", []), *holes]})
            if start is None:
                start = spec.get("start", (self.size // 2, self.size // 2))
            self._start = self._tile(start)
            originals = {self._wall_edge(w) for w in [*spec.get("walls", []), *walls]}
        except IllegalMoveError as exc:
            raise ValueError(f"not a valid GridBloc board: {exc}") from None
        if self._start in self._holes:
            raise ValueError(f"the start tile {cell_name(divmod(self._start, self.size))} is a hole (GB-1)")
        if len(self._holes) >= n:
            raise ValueError("every tile is a hole (GB-1)")
        self._hole_mask = [False] * n
        for h in self._holes:
            self._hole_mask[h] = True
        self._hole_edge = [self._hole_mask[i] or self._hole_mask[j] for i, j in self._edge_tiles]
        # edges next to a hole are closed, never walls (GB-1)
        self._original = sorted(e for e in originals if not self._touches_hole(e))
        self._setup = bool(setup)
        self._phase = "setup" if setup else "play"
        self._round = 1
        self._round_scores = [[0, 0], [0, 0]]  # [round][player]
        self._winners: tuple[int, ...] = ()
        self._events: list[str] = []
        self._begin_round(first=True)

    # ------------------------------------------------------------------
    # Boards and presets
    # ------------------------------------------------------------------
    @staticmethod
    def _read_board(board: Mapping[str, Any] | str) -> dict[str, Any]:
        if isinstance(board, str):
            try:
                board = json.loads(board)
            except json.JSONDecodeError as exc:
                raise ValueError(f"not a GridBloc board: not valid JSON ({exc})") from None
        if not isinstance(board, Mapping):
            raise ValueError("a GridBloc board is a JSON object with size, start, walls and holes")
        unknown = set(board) - {"size", "start", "walls", "holes", "format", "game", "preset"}
        if unknown:
            raise ValueError(f"unknown keys in the board: {sorted(unknown)}")
        for key in ("walls", "holes"):
            if not isinstance(board.get(key, []), list):
                raise ValueError(f"the board's {key!r} must be a list")
        if "size" not in board:
            raise ValueError("the board has no 'size'")
        return {"walls": [], "holes": [], **board, "preset": None}

    def board_preset(self) -> dict[str, Any]:
        """This board as a preset (the original walls, start and holes) that
        ``GridBloc(board=...)`` loads; ``json.dumps`` it to save it."""
        return {
            "format": "gridbloc-board",
            "size": self.size,
            "start": cell_name(divmod(self._start, self.size)),
            "walls": [str(self._edge_wall(e)) for e in self._original],
            "holes": [cell_name(divmod(h, self.size)) for h in self._holes],
        }

    def options(self) -> dict[str, Any]:
        spec = self.board_preset()
        del spec["format"]
        if self._setup:
            # the setup's walls and start are moves in the history: save the board before them
            spec["walls"] = [str(self._edge_wall(e)) for e in self._setup_original]
            spec["start"] = cell_name(divmod(self._setup_start, self.size))
        return {"board": spec, "setup": self._setup}

    # ------------------------------------------------------------------
    # Geometry
    # ------------------------------------------------------------------
    def _tile(self, value: Any) -> int:
        r, c = parse_cell(value, self.size, self.size)
        return r * self.size + c

    def _wall_edge(self, value: Any) -> int:
        """The edge id of a wall given as ``"C4|D4"``, a :class:`Wall` or a pair of cells.

        Raises:
            IllegalMoveError: (``GB-2``) not two orthogonally adjacent tiles.
        """
        if type(value) is Wall and value is self._wall_objs[self._edge_ids.get(_pair(value, self.size), 0)]:
            return self._edge_ids[_pair(value, self.size)]  # this board's own wall object: checked already
        if isinstance(value, Wall):
            a, b = parse_cell(value.a, self.size, self.size), parse_cell(value.b, self.size, self.size)
        elif isinstance(value, str) and value.count("|") == 1:
            left, right = value.split("|")
            a, b = parse_cell(left, self.size, self.size), parse_cell(right, self.size, self.size)
        elif isinstance(value, (tuple, list)) and len(value) == 2:
            a, b = parse_cell(value[0], self.size, self.size), parse_cell(value[1], self.size, self.size)
        else:
            raise InvalidMoveError(f"cannot read {shorten(value)} as a wall: write it like 'C4|D4'", rule="GB-8",
                                   move=value)
        i, j = sorted((a[0] * self.size + a[1], b[0] * self.size + b[1]))
        edge = self._edge_ids.get((i, j))
        if edge is None:
            raise IllegalMoveError(
                f"{cell_name(a)} and {cell_name(b)} are not orthogonal neighbours: a wall lies on the edge "
                "between two adjacent tiles (the outer border is always closed)",
                rule="GB-2",
                move=value,
            )
        return edge

    def _edge_wall(self, edge: int) -> Wall:
        return self._wall_objs[edge]

    def _touches_hole(self, edge: int) -> bool:
        i, j = self._edge_tiles[edge]
        return self._hole_mask[i] or self._hole_mask[j]

    def _closed(self, i: int, j: int) -> bool:
        """The edge between orthogonal neighbours ``i`` and ``j`` is a wall or next to a hole."""
        return self._shut[self._edge_ids[(i, j) if i < j else (j, i)]]

    def _can_step(self, i: int, j: int) -> bool:
        """GB-3: a step from tile ``i`` to its neighbour ``j`` (8 directions)."""
        return j in self._steps(i)

    def _steps(self, i: int) -> list[int]:
        """The tiles the runner may step to from ``i`` (GB-3). A diagonal step
        passes the corner it shares with the two tiles beside both; it is
        blocked when walls close both sides of that corner."""
        shut, hole = self._shut, self._hole_mask
        out = []
        for t in self._step_table[i]:
            j = t[0]
            if hole[j]:
                continue
            if len(t) == 2:
                if not shut[t[1]]:
                    out.append(j)
            elif not ((shut[t[1]] or shut[t[2]]) and (shut[t[3]] or shut[t[4]])):
                out.append(j)
        return out

    def reachable(self, cell: Any = None) -> list[Cell]:
        """Every tile the runner could reach from ``cell`` (default: the
        runner's tile) by steps with the walls as they are (GB-3), row by row."""
        start = self._runner if cell is None else self._tile(cell)
        seen = {start}
        todo = [start]
        while todo:
            for j in self._steps(todo.pop()):
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
        return [divmod(i, self.size) for i in sorted(seen)]  # type: ignore[misc]

    def unscored_reachable(self) -> int:
        """How many unscored tiles the runner can still reach: the number GB-6 watches."""
        return sum(1 for r, c in self.reachable() if not self._visited[r * self.size + c])

    def _trapped(self) -> bool:
        """GB-6: no unscored tile can be reached from the runner's tile (stops at the first one)."""
        seen = {self._runner}
        todo = [self._runner]
        visited = self._visited
        while todo:
            for j in self._steps(todo.pop()):
                if j not in seen:
                    if not visited[j]:
                        return False
                    seen.add(j)
                    todo.append(j)
        return True

    # ------------------------------------------------------------------
    # Rounds
    # ------------------------------------------------------------------
    def _begin_round(self, first: bool = False) -> None:
        n = self.size * self.size
        self._walls = [False] * len(self._edge_tiles)
        for e in self._original:
            self._walls[e] = True
        self._shut = [w or h for w, h in zip(self._walls, self._hole_edge, strict=True)]
        self._placed: list[int] = []
        self._visited = [False] * n
        self._runner = self._start
        self._visited[self._start] = True  # the start tile is worth nothing (GB-5)
        self._to_act = "run"
        if first and self._setup:
            self._setup_original = list(self._original)
            self._setup_start = self._start
            return
        if self._trapped():
            self._end_round("the start tile is sealed")

    @property
    def runner_player(self) -> int:
        """Who runs this round: player 1 in round one, player 0 in round two (GB-7)."""
        return 1 if self._round == 1 else 0

    @property
    def blocker_player(self) -> int:
        """Who blocks this round: player 0 in round one (the book's Player One), player 1 in round two."""
        return 1 - self.runner_player

    def _end_round(self, why: str) -> None:
        runner = self.runner_player
        points = self._round_scores[self._round - 1][runner]
        self._events.append(
            f"Round {self._round} over, {why}: {self.player_label(runner)} scored {points} (GB-6)"
        )
        if self._round == 1:
            self._round = 2
            self._events.append(
                f"Round 2: {self.player_label(self.runner_player)} runs, "
                f"{self.player_label(self.blocker_player)} blocks; "
                "back to the original walls, no tile scored (GB-7)"
            )
            self._begin_round()
            return
        self._phase = "over"
        totals = self.scores
        if totals[0] == totals[1]:
            self._winners = (0, 1)
            self._events.append(f"Game over: a draw, {totals[0]} each (GB-7)")
        else:
            w = 0 if totals[0] > totals[1] else 1
            self._winners = (w,)
            self._events.append(f"Game over: {self.player_label(w)} wins, {totals[w]} to {totals[1 - w]} (GB-7)")

    # ------------------------------------------------------------------
    # Moves
    # ------------------------------------------------------------------
    def parse_move(self, value: Any, player: int | None = None) -> CellMove | Wall | StartMove | Done:
        """Read a step (``"D5"`` or ``(4, 3)``), a wall (``"C4|D4"``, either order),
        or in the setup ``"start E5"`` and ``"done"`` (GB-8, GB-10).

        Raises:
            InvalidMoveError: (``GB-8``/``C-2``) if it cannot be read; on the
                blocker's turn the message shows the wall form ``C4|D4``.
            IllegalMoveError: (``GB-2``/``C-1``) a wall between tiles that
                are not neighbours, a tile off the board.
        """
        kind = type(value)
        if kind is Wall:
            # this board's own wall objects come back as they are; a wall made
            # by hand is read like its notation (C-1, GB-2)
            return self._wall_objs[self._wall_edge(value)]
        if kind is CellMove or kind is StartMove:
            try:
                r, c = value.cell
                if type(r) is int and type(c) is int and 0 <= r < self.size and 0 <= c < self.size:
                    return value
            except (TypeError, ValueError):
                pass
            return kind(parse_cell(value.cell, self.size, self.size))
        if isinstance(value, (Wall, StartMove, CellMove)):
            if isinstance(value, Wall):
                return self._edge_wall(self._wall_edge(value))
            cell = parse_cell(value.cell, self.size, self.size)
            return value if cell == value.cell else type(value)(cell)
        if isinstance(value, Done):
            return value
        if isinstance(value, str):
            if len(value) > 64:
                raise InvalidMoveError(f"cannot read {shorten(value)} as a GridBloc move", rule="GB-8", move=value)
            text = value.strip()
            if text.lower() == "done":
                return Done()
            if text.lower().startswith("start"):
                return StartMove(parse_cell(text[5:].strip(), self.size, self.size))
            if "|" in text:
                return self._edge_wall(self._wall_edge(text))
            if self.to_act in ("block", "setup") and any(ch in text for ch in "-/\\_,;:") and any(
                    ch.isalpha() for ch in text):
                raise InvalidMoveError(
                    f"cannot read {shorten(value)}: a wall is written with the two tiles it separates joined "
                    "by '|', like 'C4|D4' (top or left tile first)",
                    rule="GB-8",
                    move=value,
                )
        try:
            return CellMove(parse_cell(value, self.size, self.size))
        except InvalidMoveError as exc:
            if self.to_act == "block":
                raise InvalidMoveError(
                    f"{exc}; it is the blocker's turn: a wall is written like 'C4|D4'", rule=exc.rule, move=value
                ) from None
            raise

    def legal_moves(self, player: int | None = None) -> list[Any]:
        """The moves of the player to act: the runner's steps (GB-3), the
        blocker's open interior edges (GB-4), or in the setup every open edge,
        every start tile and ``done`` (GB-10); ``[]`` when over, and for
        ``player`` when it is not their turn (GB-4)."""
        if self._phase == "over" or (player is not None and player != self.current_player):
            return []
        if self._phase == "setup":
            walls = self._open_walls()
            starts = [StartMove(divmod(i, self.size)) for i in range(self.size**2)  # type: ignore[arg-type]
                      if not self._hole_mask[i] and i != self._start]
            return [*walls, *starts, Done()]
        if self._to_act == "run":
            return [CellMove(divmod(j, self.size)) for j in sorted(self._steps(self._runner))]  # type: ignore[arg-type]
        return self._open_walls()

    def open_walls(self) -> list[Wall]:
        """Every open interior edge, where a wall could go (not a wall, not next to a hole; GB-1, GB-2)."""
        return self._open_walls()

    def parse_wall(self, value: Any) -> Wall:
        """Read a wall: ``"C4|D4"`` (either order), a :class:`Wall`, or a pair of cells (GB-8).

        Raises:
            InvalidMoveError: (``GB-8``) unreadable.
            IllegalMoveError: (``GB-2``) not two orthogonally adjacent tiles.
        """
        return self._edge_wall(self._wall_edge(value))

    def _open_walls(self) -> list[Wall]:
        """Every open interior edge as a :class:`Wall` (not a wall, not next to a hole)."""
        walls = self._wall_objs
        return [walls[e] for e, shut in enumerate(self._shut) if not shut]

    def _is_open(self, edge: int) -> bool:
        return not self._shut[edge]

    def _check(self, move: Any) -> None:
        if self._phase == "setup":
            if isinstance(move, Wall):
                self._check_open(self._wall_edge(move), move)
            elif isinstance(move, StartMove):
                i = move.cell[0] * self.size + move.cell[1]
                if self._hole_mask[i]:
                    raise IllegalMoveError(f"{cell_name(move.cell)} is a hole, not a tile", rule="GB-1", move=move)
                if i == self._start:
                    raise IllegalMoveError(
                        f"the start is already on {cell_name(move.cell)}: 'start' moves it to another tile",
                        rule="GB-10",
                        move=move,
                    )
            elif not isinstance(move, Done):
                raise IllegalMoveError(
                    "in the setup, Player 1 places original walls ('C4|D4'), moves the start ('start E5') "
                    "or ends the setup ('done')",
                    rule="GB-10",
                    move=move,
                )
            return
        if isinstance(move, (StartMove, Done)):
            raise IllegalMoveError(f"{move!s} is only for the setup phase", rule="GB-10", move=move)
        runner, blocker = self.players[self.runner_player], self.players[self.blocker_player]
        if self._to_act == "run":
            if not isinstance(move, CellMove):
                raise IllegalMoveError(
                    f"it is the runner's turn ({runner}): step to a neighbouring tile first", rule="GB-4", move=move
                )
            r, c = move.cell
            j = r * self.size + c
            ri, ci = divmod(self._runner, self.size)
            if (r, c) == (ri, ci):
                raise IllegalMoveError(
                    f"the runner is on {cell_name(move.cell)}: a step goes to one of the 8 neighbouring tiles",
                    rule="GB-3",
                    move=move,
                )
            if max(abs(r - ri), abs(c - ci)) != 1:
                raise IllegalMoveError(
                    f"{cell_name(move.cell)} is not next to the runner on {cell_name((ri, ci))}: one step to one "
                    "of the 8 neighbouring tiles",
                    rule="GB-3",
                    move=move,
                )
            if self._hole_mask[j]:
                raise IllegalMoveError(f"{cell_name(move.cell)} is a hole, not a tile", rule="GB-1", move=move)
            if not self._can_step(self._runner, j):
                how = "a wall" if (r == ri or c == ci) else "walls closing both sides of the corner"
                raise IllegalMoveError(
                    f"the step to {cell_name(move.cell)} is blocked by {how}", rule="GB-3", move=move
                )
            return
        if not isinstance(move, Wall):
            raise IllegalMoveError(
                f"it is the blocker's turn ({blocker}): place one wall", rule="GB-4", move=move
            )
        self._check_open(self._wall_edge(move), move)

    def _check_open(self, edge: int, move: Any) -> None:
        """A new wall goes on an open edge: not next to a hole (GB-1), not on a wall (GB-2)."""
        if self._touches_hole(edge):
            raise IllegalMoveError(f"{move} is next to a hole: that edge is always closed", rule="GB-1", move=move)
        if self._walls[edge]:
            raise IllegalMoveError(f"{move} is already a wall: one wall per edge", rule="GB-2", move=move)

    def _apply(self, move: Any) -> None:
        self._events = []
        if self._phase == "setup":
            if isinstance(move, Wall):
                e = self._wall_edge(move)
                self._original = sorted([*self._original, e])
                self._walls[e] = self._shut[e] = True
            elif isinstance(move, StartMove):
                self._start = move.cell[0] * self.size + move.cell[1]
                self._visited = [False] * (self.size**2)
                self._visited[self._start] = True
                self._runner = self._start
            else:
                self._phase = "play"
                self._events.append("Setup done: round one begins (GB-10)")
                self._begin_round()
            return
        if isinstance(move, CellMove):
            j = move.cell[0] * self.size + move.cell[1]
            self._runner = j
            if not self._visited[j]:
                self._visited[j] = True
                self._round_scores[self._round - 1][self.runner_player] += 1
            self._to_act = "block"
            if self._trapped():
                self._end_round("the runner is trapped after a step")
            return
        e = self._wall_edge(move)
        self._walls[e] = self._shut[e] = True
        self._placed.append(e)
        self._to_act = "run"
        if self._trapped():
            self._end_round("the runner is trapped")

    # ------------------------------------------------------------------
    # The position as text
    # ------------------------------------------------------------------
    def _write_position(self) -> str:
        """``SIZE TILES start=E5 runner=D5 walls=W,.. placed=W,.. round=N points=A,B ACT``:
        the tiles row by row from the top, rows separated by ``/`` (``#`` a
        hole, ``+`` visited this round, the start included, ``.`` not, GB-1,
        GB-5), the start and the runner's tile, the original walls and the
        walls placed this round (``-``: none; GB-2, GB-8), the round (GB-7),
        the points of round one's runner and of round two's (GB-5), and who
        acts: ``setup`` (GB-10), ``run``, ``block`` (GB-4) or ``over``."""
        n = self.size
        tiles = "/".join(
            "".join("#" if self._hole_mask[i] else "+" if self._visited[i] else "." for i in range(r * n, r * n + n))
            for r in range(n))
        walls = ",".join(str(self._edge_wall(e)) for e in sorted(self._original)) or "-"
        placed = ",".join(str(self._edge_wall(e)) for e in sorted(self._placed)) or "-"
        act = self._phase if self._phase != "play" else self._to_act
        points = f"{self._round_scores[0][1]},{self._round_scores[1][0]}"
        return (f"{n} {tiles} start={cell_name(self.start)} runner={cell_name(self.runner)} walls={walls} "
                f"placed={placed} round={self._round} points={points} {act}")

    @classmethod
    def _read_position(cls, body: str) -> GridBloc:
        """A game at ``body`` (:meth:`position`'s fields). Refused with the
        rule: a size or tiles off GB-1, a start or runner on a hole or not
        visited (GB-5), a wall that is not between neighbours (GB-2, GB-8),
        twice, or next to a hole (GB-1), points that are not the tiles
        scored (GB-5), more tiles scored than steps could score (GB-4), a
        runner trapped in a round still going or free at the end (GB-6), a
        round or an end off GB-7, a setup after play began (GB-10). The text
        board of ``print(g)`` is refused: it does not tell the original walls
        from the placed ones, nor round one's points."""
        if "\n" in body or "+---" in body:
            raise ValueError("a GridBloc text board (print(g)) shows the walls but not which are original, nor "
                             "round one's points: give g.position()'s text instead (GB-7)")
        parts = body.split()
        keys = ("start", "runner", "walls", "placed", "round", "points")
        if len(parts) != 9:
            raise ValueError("a GridBloc position is 'SIZE TILES start=.. runner=.. walls=.. placed=.. round=N "
                             "points=A,B run|block|setup|over', e.g. '3 .../.+./... start=B2 runner=B2 walls=- "
                             "placed=- round=1 points=0,0 run' (GB-1)")
        size_text, tiles_text, *fields, act = parts
        values = {}
        for key, text in zip(keys, fields, strict=True):
            head, eq, value = text.partition("=")
            if head != key or not eq or not value:
                raise ValueError(f"{shorten(text)} is not {key}=...: the fields are {', '.join(keys)}, in this "
                                 "order (GB-8)")
            values[key] = value
        size = count_of(size_text, 2)
        if size is None or not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(f"the size is {MIN_SIZE} to {MAX_SIZE}, not {shorten(size_text)} (GB-1)")
        n = size
        rows = tiles_text.split("/")
        if len(rows) != n or any(len(row) != n for row in rows) or not set(tiles_text) <= set("#+./"):
            raise ValueError(f"a {n}x{n} board is {n} rows of {n} tiles separated by '/': '#' a hole, '+' "
                             "visited this round, '.' not (GB-1)")
        flat = "".join(rows)
        holes = [cell_name(divmod(i, n)) for i, ch in enumerate(flat) if ch == "#"]
        if act not in ("setup", "run", "block", "over"):
            raise ValueError(f"who acts is setup, run, block or over, not {shorten(act)} (GB-4)")
        try:
            start = parse_cell(values["start"], n, n)
            runner = parse_cell(values["runner"], n, n)
        except IllegalMoveError as exc:
            raise ValueError(f"{exc} (GB-1)") from None
        for name, (r, c) in (("start", start), ("runner", runner)):
            if flat[r * n + c] != "+":
                raise ValueError(f"the {name} tile {cell_name((r, c))} is "
                                 f"{'a hole' if flat[r * n + c] == '#' else 'not visited'}: "
                                 "it is a tile, visited this round (GB-1, GB-5)")
        try:
            game = cls(board={"size": n, "start": cell_name(start), "walls": [], "holes": holes},
                       setup=act == "setup")
        except ValueError as exc:
            raise ValueError(f"not a GridBloc board: {shorten(str(exc), 120)}") from None
        edges: list[list[int]] = [[], []]
        seen: set[int] = set()
        for k, key in enumerate(("walls", "placed")):
            if values[key] == "-":
                continue
            for text in values[key].split(","):
                try:
                    e = game._wall_edge(text)
                except IllegalMoveError as exc:
                    raise ValueError(f"{key}: {exc}") from None
                if game._touches_hole(e):
                    raise ValueError(f"{shorten(text)} is next to a hole: that edge is always closed, "
                                     "not a wall (GB-1)")
                if e in seen:
                    raise ValueError(f"{shorten(text)} is given twice: one wall per edge (GB-2)")
                seen.add(e)
                edges[k].append(e)
        game._check_position(edges[0], edges[1], [ch == "+" for ch in flat], runner, values, act)
        return game

    def _check_position(self, original: list[int], placed: list[int], visited: list[bool], runner: Cell,
                        values: dict[str, str], act: str) -> None:
        """Set the walls, runner, round and points of a game read from a
        position, refusing a position no game reaches (GB-4..GB-7, GB-10)."""
        round_text, points_text = values["round"], values["points"]
        if round_text not in ("1", "2"):
            raise ValueError(f"the round is 1 or 2, not {shorten(round_text)} (GB-7)")
        points = points_text.split(",")
        if len(points) != 2 or any(count_of(x, 4) is None for x in points):
            raise ValueError(f"the points are those of round one's runner and round two's, like 3,0, not "
                             f"{shorten(points_text)} (GB-5)")
        first, second = (int(x) for x in points)
        rnd = int(round_text)
        scored = sum(visited) - 1
        now = first if rnd == 1 else second
        if now != scored or (rnd == 1 and second):
            raise ValueError(f"round {rnd}'s runner has {now} points with {scored} tiles scored this round, and "
                             f"round two's points come after round one: a new tile scores 1 (GB-5)")
        if first > self.size ** 2 - len(self._holes) - 1:
            raise ValueError(f"{first} points in round one: more than the board's tiles (GB-5)")
        if act == "setup" and (rnd != 1 or placed or scored or self._tile(runner) != self._start):
            raise ValueError("the setup comes before round one: no wall placed, no tile scored, the runner "
                             "on the start (GB-10)")
        if act == "over" and rnd != 2:
            raise ValueError("the game ends after round two (GB-7)")
        steps_min = scored  # each tile scored took a step; the runner steps, then the blocker walls (GB-4)
        if act == "run" and (len(placed) < steps_min or (not placed and self._tile(runner) != self._start)):
            raise ValueError(f"{scored} tiles scored with {len(placed)} walls placed, the runner to step: "
                             "runner and blocker alternate, one step, one wall (GB-4)")
        if act in ("block", "over") and len(placed) + 1 < steps_min:
            raise ValueError(f"{scored} tiles scored with {len(placed)} walls placed: runner and blocker "
                             "alternate, one step, one wall (GB-4)")
        for e in original + placed:
            self._walls[e] = True
        self._original = sorted(original)
        if act == "setup":
            self._setup_original = list(self._original)
        self._shut = [w or h for w, h in zip(self._walls, self._hole_edge, strict=True)]
        self._placed = sorted(placed)
        self._visited = visited
        self._runner = self._tile(runner)
        self._round = rnd
        self._round_scores = [[0, first], [second, 0]]
        self._to_act = "block" if act == "block" else "run"
        self._phase = "play" if act in ("run", "block") else act
        self._events = []
        self._winners = ()
        trapped = self._trapped()
        if act in ("run", "block") and trapped:
            raise ValueError(f"the runner on {cell_name(runner)} can reach no unscored tile: the round is over "
                             "here (GB-6)")
        if act == "over":
            if not trapped:
                raise ValueError(f"the runner on {cell_name(runner)} can still reach an unscored tile: round two "
                                 "goes on (GB-6)")
            self._winners = (0, 1) if first == second else ((0,) if second > first else (1,))

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            self._walls[:], self._placed[:], self._visited[:], self._runner, self._to_act, self._round,
            [r[:] for r in self._round_scores], self._phase, self._winners, self._events[:], self._original[:],
            self._start,
        )

    def _restore(self, s: tuple[Any, ...]) -> None:
        (walls, placed, visited, self._runner, self._to_act, self._round, scores, self._phase, self._winners,
         events, original, self._start) = s
        self._walls, self._placed, self._visited = walls[:], placed[:], visited[:]
        self._shut = [w or h for w, h in zip(self._walls, self._hole_edge, strict=True)]
        self._round_scores = [r[:] for r in scores]
        self._events, self._original = events[:], original[:]

    # ------------------------------------------------------------------
    # State
    # ------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """``"setup"`` (GB-10), ``"play"`` or ``"over"``."""
        return self._phase

    @property
    def round(self) -> int:
        """1 or 2 (GB-7)."""
        return self._round

    @property
    def to_act(self) -> str | None:
        """``"run"`` or ``"block"`` (GB-4), ``"setup"``, or ``None`` when over."""
        if self._phase == "over":
            return None
        return "setup" if self._phase == "setup" else self._to_act

    @property
    def current_player(self) -> int | None:
        """The runner or the blocker, whoever acts (GB-4); player 0 in the setup; ``None`` when over."""
        if self._phase == "over":
            return None
        if self._phase == "setup":
            return 0
        return self.runner_player if self._to_act == "run" else self.blocker_player

    @property
    def winners(self) -> tuple[int, ...]:
        """The higher total after round two, or both for a draw (GB-7, C-4); ``()`` while ongoing."""
        return self._winners if self._phase == "over" else ()

    @property
    def scores(self) -> tuple[int, ...]:
        """Each player's runner points so far, over both rounds (GB-5)."""
        first, second = self._round_scores
        return (first[0] + second[0], first[1] + second[1])

    @property
    def round_scores(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Points per round and player: ``((round 1: p0, p1), (round 2: p0, p1))``."""
        return tuple(tuple(r) for r in self._round_scores)  # type: ignore[return-value]

    @property
    def runner(self) -> Cell:
        """The runner's tile."""
        return divmod(self._runner, self.size)  # type: ignore[return-value]

    @property
    def start(self) -> Cell:
        """The start tile (GB-1)."""
        return divmod(self._start, self.size)  # type: ignore[return-value]

    @property
    def holes(self) -> list[Cell]:
        """The masked-out cells (GB-1)."""
        return [divmod(h, self.size) for h in self._holes]  # type: ignore[misc]

    @property
    def original_walls(self) -> list[Wall]:
        """The original walls (GB-1, GB-10), in notation order."""
        return [self._edge_wall(e) for e in self._original]

    @property
    def placed_walls(self) -> list[Wall]:
        """The walls the blocker placed this round, in order (GB-4)."""
        return [self._edge_wall(e) for e in self._placed]

    @property
    def walls(self) -> list[Wall]:
        """Every wall on the board now: original and placed."""
        return [self._edge_wall(e) for e, w in enumerate(self._walls) if w]

    @property
    def scored(self) -> list[Cell]:
        """The tiles visited this round, the start included (it scores nothing)."""
        return [divmod(i, self.size) for i, v in enumerate(self._visited) if v]  # type: ignore[misc]

    @property
    def events(self) -> list[str]:
        """What the last move caused, for people (round ends and changes, the end)."""
        return list(self._events)

    def all_moves(self, player: int) -> list[Any]:
        """Every move (the action ids of the frameworks): a step to each tile
        (GB-3), a wall on each interior edge (GB-4), then the setup's start
        tiles and ``done`` (GB-10); the same list for both players."""
        cells = [divmod(i, self.size) for i in range(self.size**2)]
        return [*(CellMove(c) for c in cells), *self._wall_objs,  # type: ignore[arg-type]
                *(StartMove(c) for c in cells), Done()]  # type: ignore[arg-type]

    def observation_features(self, player: int | None) -> np.ndarray:
        """Beyond the visited tiles: each interior edge shut (a wall, GB-2),
        the runner's tile one-hot (``size * size``), who acts (run, block,
        setup), the round (1, 2) and each round's points over the tiles (GB-6)."""
        n = self.size**2
        runner = np.zeros(n, dtype=np.float32)
        if self._phase != "over":
            runner[self._runner] = 1
        act = [self._phase == "setup", self._phase == "play" and self._to_act == "run",
               self._phase == "play" and self._to_act == "block"]
        points = np.asarray(self._round_scores, dtype=np.float32).ravel() / n
        return np.concatenate([np.asarray(self._walls, dtype=np.float32), runner, np.asarray(act, dtype=np.float32),
                               np.asarray([self._round == 1, self._round == 2], dtype=np.float32), points])

    @property
    def board(self) -> np.ndarray:
        """Read-only ``int8`` array ``(size, size)``: ``-2`` hole, ``-1`` not
        visited this round, else the runner's id on the tiles visited this round."""
        runner = self.runner_player
        a = np.array(
            [-2 if h else runner if v else -1 for h, v in zip(self._hole_mask, self._visited, strict=True)],
            dtype=np.int8,
        ).reshape(self.size, self.size)
        a.flags.writeable = False
        return a

    def cell_text(self, cell: Cell) -> str:
        i = cell[0] * self.size + cell[1]
        if self._hole_mask[i]:
            return "#"
        if i == self._runner:
            return "R"
        if i == self._start:
            return "*"
        return "." if self._visited[i] else ""

    def text_rows(self) -> list[str]:
        return ["".join((self.cell_text((r, c)) or " ") for c in range(self.size)) for r in range(self.size)]

    def __repr__(self) -> str:
        name = self._preset or "custom"
        moves = len(self._history)
        return f"<GridBloc {self.size}x{self.size} ({name}): {moves} move{'s' if moves != 1 else ''}, {self.status()}>"

    def status(self) -> str:
        """Round, who acts and the score, or the result (GB-7)."""
        if self._phase == "over":
            t = self.scores
            if len(self._winners) == 2:
                return f"Game over: a draw, {t[0]} to {t[1]}."
            w = self._winners[0]
            return f"Game over: {self.player_label(w)} wins, {t[w]} to {t[1 - w]}."
        if self._phase == "setup":
            return "Setup: Player 1 places original walls and the start, then 'done' (GB-10)."
        runner, blocker = self.player_label(self.runner_player), self.player_label(self.blocker_player)
        pts = self._round_scores[self._round - 1][self.runner_player]
        if self._to_act == "run":
            return f"Round {self._round}: {runner} (runner, {_points(pts)}) to step."
        return f"Round {self._round}: {blocker} (blocker) to place a wall; {runner} has {_points(pts)}."

    def _replace_with(self, other: GridBloc) -> None:
        """Become ``other`` (kept for the widget's editor; see :meth:`Game.replace_with`)."""
        self.replace_with(other)

    def _rollout(self, rng: random.Random) -> None:
        while self._phase != "over":
            moves = self.search_moves()
            self.play(moves[rng.randrange(len(moves))])

    def max_game_length(self) -> int | None:
        """A round holds at most one wall per open interior edge and one step
        more than walls (GB-4, GB-6), two rounds (GB-7): ``2 * (2 * edges + 1)``;
        ``None`` with ``setup=True``, whose phase has no bound (GB-10: the
        start may move as often as Player 1 likes)."""
        if self._setup:
            return None
        edges = sum(1 for h in self._hole_edge if not h)
        return 2 * (2 * edges + 1)

