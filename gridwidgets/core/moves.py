"""The move value types every game shares: a cell move, the revealed joint
action of a simultaneous node, a hidden submission, and one step of the
history (what undo takes back at once)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .notation import Cell, cell_name

__all__ = ["CellMove", "Hidden", "JointMove", "Step"]


@dataclass(frozen=True, order=True)
class CellMove:
    """A move that is one cell (a marker, a tile, a step; ``MoveKind.CELL``).

    ``str(move)`` is its notation (``"B2"``, rule C-2); ``move.cell`` the
    0-based ``(row, col)`` tuple (rule C-1).
    """

    cell: Cell

    def __str__(self) -> str:
        return cell_name(self.cell)

    def __repr__(self) -> str:
        try:
            return f"CellMove({cell_name(self.cell)!r})"
        except Exception:  # a hand-made move off every board still shows itself
            return f"CellMove({self.cell!r})"


@dataclass(frozen=True)
class JointMove:
    """The revealed joint action of a simultaneous node: one move per player.

    ``str`` is the moves' notation joined by ``" + "`` (``"IO + IL"``).

    Attributes:
        players: the players who submitted, in increasing order.
        moves: their moves, in the same order.
    """

    players: tuple[int, ...]
    moves: tuple[Any, ...]

    def __str__(self) -> str:
        return " + ".join(str(m) for m in self.moves)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.moves)

    def __len__(self) -> int:
        return len(self.moves)

    def move_of(self, player: int) -> Any:
        """The move ``player`` submitted.

        Raises:
            KeyError: if ``player`` took no part.
        """
        for p, m in zip(self.players, self.moves, strict=True):
            if p == player:
                return m
        raise KeyError(player)


@dataclass(frozen=True)
class Hidden:
    """Stands for a submission ``player`` made that the viewer may not see
    (in a game from :meth:`Game.view_for`). ``str`` is ``"?"``."""

    player: int

    def __str__(self) -> str:
        return "?"


@dataclass(frozen=True)
class Step:
    """One step of the history: what ``undo`` takes back and ``redo`` replays at once.

    Attributes:
        moves: every history entry of the step, in order: the decision (one
            move, or each submission of a joint action) then the moves the
            rules made by themselves.
        players: for a joint action, the submitting players (the first
            ``len(players)`` entries of ``moves`` are theirs); ``None`` for
            a single move.
    """

    moves: tuple[Any, ...]
    players: tuple[int, ...] | None = None

    @property
    def decision(self) -> Any:
        """The move chosen, or the :class:`JointMove` of a simultaneous node."""
        if self.players is None:
            return self.moves[0]
        return JointMove(self.players, self.moves[: len(self.players)])

    @property
    def automatic(self) -> tuple[Any, ...]:
        """The moves the rules made by themselves after the decision."""
        return self.moves[1 if self.players is None else len(self.players) :]

    def __str__(self) -> str:
        auto = self.automatic
        text = str(self.decision)
        return text + (" (" + ", ".join(str(m) for m in auto) + ")" if auto else "")
