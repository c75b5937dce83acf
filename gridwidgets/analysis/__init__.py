"""Analysis for teaching: exact solutions, equilibria of matrix games,
tournaments between agents, and what each game brings of its own.

- ``solve(game)``: the value under perfect play, the optimal moves and the
  value of every legal move, for two-player zero-sum perfect-information
  games (a game's own exact solver when it has one), with a transposition
  table and board symmetries; ``SolveBudgetExceeded`` past the budget.
- ``equilibrium(...)``: a Nash equilibrium of a matrix game, or of the
  matrix game at a game's simultaneous node (LP when zero-sum, nashpy
  otherwise).
- ``tournament(...)``: a round robin between agents, in parallel with joblib.
- ``sprt(...)``: a two-agent match that stops as soon as a sequential test
  (SPRT) decides whether one is stronger.
- ``stage_game(...)``: a game's simultaneous stage (or a matrix game) as a
  ``StageGame``: normal and extensive form, Gambit ``.nfg``/``.efg`` files,
  best responses, exploitability, a slider panel, and a match against a
  mixed strategy (``play_against``, a ``MatrixMatch``).
- ``dominated(stage, player)`` and ``iterated_elimination(stage)``: the
  pure strategies another pure strategy dominates (strictly or weakly), and
  the game left after deleting them round by round.

A game's own tables and plots (its ``analysis_tools`` hook) are served here
by name too, e.g. ``gridwidgets.analysis.bid_table`` (see each game's rules
page).
"""

from typing import Any

from .dominance import EliminationStep, dominated, iterated_elimination
from .equilibrium import Equilibrium, equilibrium
from .solve import Solution, SolveBudgetExceeded, solve
from .sprt import SPRTResult, sprt
from .stage import StageGame, stage_game
from .tournament import TournamentResult, elo_ratings, tournament, wilson_interval
from .versus import MatchRound, MatrixMatch

__all__ = ["Equilibrium", "TournamentResult", "elo_ratings", "equilibrium", "tournament", "wilson_interval"]
__all__ += ["EliminationStep", "dominated", "iterated_elimination"]
__all__ += ["MatchRound", "MatrixMatch"]
__all__ += ["SPRTResult", "Solution", "SolveBudgetExceeded", "StageGame", "solve", "sprt", "stage_game"]


def __getattr__(name: str) -> Any:
    """An analysis tool a registered game contributes (its ``analysis_tools`` hook)."""
    from ..core import registry

    try:
        return registry.resolve("analysis_tools", name)
    except AttributeError:
        raise AttributeError(f"module 'gridwidgets.analysis' has no attribute {name!r}") from None


def __dir__() -> list[str]:
    from ..core import registry

    return sorted(set(globals()) | set(registry.contributed("analysis_tools")))
