"""What agents and the solver know of Gridlock beyond its rules: the knowledge hooks of
:class:`~gridwidgets.core.Game` (evaluation, position keys, symmetries, the moves a search considers).

A mixin of :class:`~gridwidgets.games.gridlock.Gridlock` (``rules.py`` beside it holds the rules)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any


def _exact_solver(game: Any, **budget: Any) -> Any:
    from .solver import solve_gridlock

    return solve_gridlock(game, **budget)


class GridlockKnowledge:
    """Knowledge hooks of Gridlock."""

    #: ``analysis.solve`` uses this game's own exact search (``solver.py`` beside it)
    exact_solver = staticmethod(_exact_solver)

    def evaluate(self, player: int) -> float:
        """Mobility (GL-3, GL-4), ours: ``player``'s legal cells minus the opponent's."""
        return float(self._mask_bits(player).bit_count() - self._mask_bits(1 - player).bit_count())

    def symmetries(self) -> list[tuple[int, ...]]:
        """The board's symmetries (GL-3 looks the same under each): 3 for a
        rectangle, 7 for a square, as row-major cell permutations."""
        return list(board_symmetries(self.rows, self.cols))

    def position_key(self, symmetry: Any = None) -> tuple[int, int, int]:
        """``(X's cells, O's cells, player to move)`` as bit masks; under a
        symmetry, of the mapped board. Everything the rest of the game
        depends on (GL-3, GL-4)."""
        a, b = self._bits
        if symmetry is not None:
            a, b = _permute(a, symmetry), _permute(b, symmetry)
        return (a, b, self._to_move)


@lru_cache(maxsize=64)
def board_symmetries(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """The distinct non-identity cell permutations of the board's symmetries:
    ``perm[i]`` is the image of cell ``i`` (row-major)."""
    maps: list[Any] = [
        lambda r, c: (rows - 1 - r, c),
        lambda r, c: (r, cols - 1 - c),
        lambda r, c: (rows - 1 - r, cols - 1 - c),
    ]
    if rows == cols:
        n = rows
        maps += [
            lambda r, c: (c, r),
            lambda r, c: (n - 1 - c, n - 1 - r),
            lambda r, c: (c, n - 1 - r),
            lambda r, c: (n - 1 - c, r),
        ]
    identity = tuple(range(rows * cols))
    perms: list[tuple[int, ...]] = []
    for f in maps:
        p = []
        for r in range(rows):
            for c in range(cols):
                rr, cc = f(r, c)
                p.append(rr * cols + cc)
        t = tuple(p)
        if t != identity and t not in perms:
            perms.append(t)
    return tuple(perms)


def _permute(bits: int, perm: Any) -> int:
    out = 0
    while bits:
        low = bits & -bits
        out |= 1 << perm[low.bit_length() - 1]
        bits ^= low
    return out
