"""What agents and the solver know of GridBloc beyond its rules: the knowledge hooks of
:class:`~gridwidgets.core.Game` (evaluation, position keys, symmetries, the moves a search considers).

A mixin of :class:`~gridwidgets.games.gridbloc.GridBloc` (``rules.py`` beside it holds the rules)."""

from __future__ import annotations

from typing import Any


def _exact_solver(game: Any, **budget: Any) -> Any:
    from .solver import solve_gridbloc

    return solve_gridbloc(game, **budget)


class GridBlocKnowledge:
    """Knowledge hooks of GridBloc."""

    #: ``analysis.solve`` uses this game's own exact search (``solver.py`` beside it)
    exact_solver = staticmethod(_exact_solver)

    def search_moves(self) -> list[Any]:
        """In the setup phase only ``done`` (GB-10: more original walls or another
        start do not make the contest; searching them would never end)."""
        if self._phase == "setup":
            from .rules import Done

            return [Done()]
        return self.legal_moves()

    def move_value(self, move: Any, player: int) -> tuple[float, ...]:
        """One ply ahead, ours (GB-5..GB-7): the runner maximises its points
        this round plus ``unscored_reachable()`` after the step (a step onto
        a new tile trades one reachable tile for one point, so it is not
        penalised), preferring the step that scores now on a tie; the blocker
        minimises ``unscored_reachable()`` after the wall. A move that ends
        the round counts 0 reachable tiles; one that ends the game, its
        returns."""
        rnd, runner = self._round, self.runner_player
        self.play(move)
        try:
            if self.is_over:
                return (self.returns()[player], 0.0, 0.0)
            unscored = 0 if self._round != rnd else self.unscored_reachable()
            points = self.round_scores[rnd - 1][runner]
            if player == runner:
                return (0.0, float(points + unscored), float(points))
            return (0.0, -float(unscored), 0.0)
        finally:
            self.undo()

    def evaluate(self, player: int) -> float:
        """GB-5..GB-7, ours: ``player``'s points minus the other's over both
        rounds, plus ``unscored_reachable()`` if ``player`` is the runner,
        minus it if they block (the runner may still score up to that many)."""
        if self._phase == "over":
            return float(self.scores[player] - self.scores[1 - player])
        s = self.scores
        u = self.unscored_reachable()
        return float(s[player] - s[1 - player]) + (u if player == self.runner_player else -u)

    def position_key(self, symmetry: Any = None) -> Any:
        """The walls, the runner's tile, the tiles scored this round, the
        round, who acts and the points per round: everything the rest of the
        game depends on (GB-3..GB-7)."""
        return (tuple(self._walls), self._runner, tuple(self._visited), self._round, self._to_act, self._phase,
                tuple(map(tuple, self._round_scores)), self._start, tuple(self._original))
