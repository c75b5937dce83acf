"""What agents and the solver know of GridMaster4 beyond its rules: the knowledge hooks of
:class:`~gridwidgets.core.Game` (evaluation, position keys, symmetries, the moves a search considers).

A mixin of :class:`~gridwidgets.games.gridmaster.GridMaster4` (``rules.py`` beside it holds the rules)."""

from __future__ import annotations

from typing import Any


class GridMaster4Knowledge:
    """Knowledge hooks of GridMaster4."""

    def evaluate(self, player: int) -> float:
        """Mobility for the next turn (GM-3..GM-5), ours: the open jump cells
        of ``player``'s active tiles (their normal moves if the board stayed
        as it is), plus 0.1 per active tile (more tiles to jump from later)."""
        owner, jumps = self._owner, self._jumps
        active = self._active[player]
        targets = {j for a in active for j in jumps[a] if owner[j] < 0}
        return len(targets) + 0.1 * len(active)

    def position_key(self, symmetry: Any = None) -> Any:
        """The cells' owners and tile numbers, the active tiles, who is in
        play and owed what, and who is to move: everything the rest of the
        game depends on (GM-4..GM-8)."""
        return (tuple(self._owner), tuple(self._tile), tuple(frozenset(a) for a in self._active),
                tuple(self._in_play), tuple(self._owed), tuple(self._opened), self._to_move, self._over)

    def solve(self, seed: int = 0, restarts: int = 200) -> list[Any]:
        """A complete tour for the one-player puzzle, from the current position:
        every remaining tile placed (GM-8), found by Warnsdorff's rule with
        random tie-breaks and restarts.

        Warnsdorff, H. C. (1823), *Des Rösselsprunges einfachste und
        allgemeinste Lösung*: always move to the cell with the fewest onward
        moves.

        Args:
            seed: seeds the tie-breaks.
            restarts: attempts before giving up.

        Returns:
            The moves of the tour, in order (the game itself is unchanged);
            play them with ``for m in tour: g.play(m)``.

        Raises:
            ValueError: for more than one player, or if no tour was found.
        """
        from .tour import warnsdorff_tour

        if len(self.players) != 1:
            raise ValueError("solve() is for the one-player puzzle (players=1)")
        tour = warnsdorff_tour(self, seed=seed, restarts=restarts)
        if tour is None:
            raise ValueError(f"no complete tour found from this position in {restarts} attempts")
        return tour
