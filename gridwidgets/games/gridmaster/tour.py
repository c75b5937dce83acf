"""Warnsdorff's rule for the one-player GridMaster puzzle (RULES GM-1..GM-5).

Warnsdorff, H. C. (1823), *Des Rösselsprunges einfachste und allgemeinste
Lösung*: from the current cell, move to the cell with the fewest onward
moves. Ties are broken at random (seeded) and the search restarts from the
same position until a full tour is found.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ...core.moves import CellMove

if TYPE_CHECKING:  # pragma: no cover
    from .rules import GridMaster4

__all__ = ["warnsdorff_tour"]


def warnsdorff_tour(game: GridMaster4, seed: int = 0, restarts: int = 200) -> list[CellMove] | None:
    """A sequence of moves that places every remaining tile of the single
    player of ``game`` (or ``None`` after ``restarts`` failed attempts).

    The position of ``game`` is not changed. At the opening (no tile yet)
    the start cell is chosen too (random order over the open cells).

    Onward moves are counted by the rules of a normal move (GM-4, GM-5):
    after placing on cell ``c``, the active tiles are ``c`` and the old
    active tiles not on a jump cell of ``c``; the onward moves are the open
    jump cells of those.
    """
    if len(game.players) != 1:
        raise ValueError("Warnsdorff's tour is for one player")
    rng = random.Random(seed)
    size, jumps, moves = game.size, game._jumps, game._moves
    need = game.tiles_per_player - game._score[0]
    if game.is_over or need <= 0:
        return []
    owner0 = game._owner
    active0 = set(game._active[0])
    opened = game._opened[0]
    free0 = game._owed[0] if opened else 0
    open_cells = [i for i in range(size * size) if owner0[i] < 0]
    if len(open_cells) < need:
        return None

    for attempt in range(max(1, restarts)):
        owner = owner0[:]
        active = set(active0)
        path: list[int] = []
        free = free0
        if not opened:
            start = open_cells[rng.randrange(len(open_cells))] if attempt else _best_start(open_cells, jumps, owner)
            owner[start] = 0
            active = {start}
            path.append(start)
        while len(path) < need:
            if free:
                # a free placement (GM-7): any open cell; take the one with most onward moves
                cands = [i for i in range(size * size) if owner[i] < 0]
                pick = max(cands, key=lambda i: (_onward(i, active, owner, jumps, True), rng.random()))
                owner[pick] = 0
                active.add(pick)
                path.append(pick)
                free -= 1
                continue
            targets = {j for a in active for j in jumps[a] if owner[j] < 0}
            if not targets:
                break
            best = min(targets, key=lambda t: (_onward(t, active, owner, jumps, False), rng.random()))
            owner[best] = 0
            active.difference_update(jumps[best])
            active.add(best)
            path.append(best)
        if len(path) == need:
            return [moves[i] for i in path]
    return None


def _onward(cell: int, active: set[int], owner: list[int], jumps, free: bool) -> int:
    """Onward moves after placing on ``cell`` (free: nothing is deactivated)."""
    after = set(active) if free else active.difference(jumps[cell])
    after.add(cell)
    return len({j for a in after for j in jumps[a] if owner[j] < 0 and j != cell})


def _best_start(open_cells: list[int], jumps, owner: list[int]) -> int:
    """The first attempt starts in a corner-most cell (fewest jumps), as Warnsdorff would."""
    return min(open_cells, key=lambda i: (len(jumps[i]), i))
