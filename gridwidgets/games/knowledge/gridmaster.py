"""What agents and the solver know of GridMaster4 beyond its rules: the knowledge hooks of
:class:`~gridwidgets.core.Game` (evaluation, position keys, symmetries, the moves a search considers).

A mixin of :class:`~gridwidgets.games.gridmaster.GridMaster4` (``games/gridmaster.py`` holds the rules)."""

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

