"""What agents and the solver know of Block Four beyond its rules: the knowledge hooks of
:class:`~gridwidgets.core.Game` (evaluation, position keys, symmetries, the moves a search considers).

A mixin of :class:`~gridwidgets.games.blockfour.BlockFour` (``rules.py`` beside it holds the rules)."""

from __future__ import annotations

from typing import Any


class BlockFourKnowledge:
    """Knowledge hooks of Block Four."""

    def stage_matrix(self, **options: Any) -> Any:
        """The bid of this turn as a matrix game (BF-5, BF-6): the
        :func:`~gridwidgets.games.blockfour.bids.bid_matrix` of the position
        (its options: ``rollouts``, ``seed``, ``agent``)."""
        from .bids import bid_matrix

        return bid_matrix(self, **options)

    def evaluate(self, player: int) -> float:
        """Field control (BF-9), then spaces, ours: ``100 * (fields -
        opponent's fields) + (spaces - opponent's spaces)`` (the gap fill,
        BF-8, counts too)."""
        f = self.fields_controlled()
        s = self.spaces()
        return 100.0 * (f[player] - f[1 - player]) + (s[player] - s[1 - player])

    def position_key(self, symmetry: Any = None) -> Any:
        """The board, hands, tables, what is left to place, the phase, the
        stall count and who has bid (never what): the rest of the game
        depends on nothing else."""
        return (tuple(self._board), tuple(map(tuple, self._hands)), tuple(map(tuple, self._tables)),
                tuple(self._queue), self._phase, self._stall, tuple(sorted(self._pending)), self._winners)

