"""Analysis for teaching: exact solutions, equilibria of matrix games,
tournaments between agents, and what each game brings of its own.

- ``solve(game)``: the value under perfect play, the optimal moves and the
  value of every legal move, for two-player zero-sum perfect-information
  games (a game's own exact solver when it has one), with a transposition
  table and board symmetries; ``SolveBudgetExceeded`` past the budget.
- ``equilibrium(...)``: a Nash equilibrium of a matrix game, or of the
  matrix game at a game's simultaneous node (LP when zero-sum, nashpy
  otherwise); ``equilibria(...)``: every equilibrium of a small bimatrix
  game (the extreme ones of a degenerate game), by nashpy's vertex
  enumeration.
- ``tournament(...)``: a round robin between agents, in parallel with joblib.
- ``sprt(...)``: a two-agent match that stops as soon as a sequential test
  (SPRT) decides whether one is stronger.
- ``stage_game(...)``: a game's simultaneous stage (or a matrix game) as a
  ``StageGame``: normal and extensive form, Gambit ``.nfg``/``.efg`` files,
  best responses, every equilibrium, exploitability (zero-sum games),
  regrets and NashConv of a profile (any game), a slider panel, and a match
  against a mixed strategy (``play_against``, a ``MatrixMatch``).
- ``dominated(stage, player)``, ``iterated_elimination(stage)`` and
  ``rationalizable(stage)``: the pure strategies another strategy of the
  same player dominates, pure or mixed (strictly or weakly; mixed
  dominators by linear programming), the game left after deleting them
  round by round, and what survives strict elimination: the rationalizable
  strategies.
- ``solve_simultaneous(game)``: the exact subgame-perfect solution of a
  two-player zero-sum game with simultaneous moves (backward induction with a
  matrix game at every simultaneous node, SMAB pruning, a transposition table),
  and ``SubgamePerfectAgent``, which plays it where the solver settles the
  position in time.
- ``to_efg(game)``: the whole game tree from a position as a Gambit ``.efg``
  file (a simultaneous node as two information sets), ``tree_size(game)``,
  and the same tree solved outside the package, by Gambit
  (``gambit_solve``) and by OpenSpiel (``openspiel_solve``), each a
  sequence-form LP, to check ``solve_simultaneous`` against.

A game's own tables and plots (its ``analysis_tools`` hook) are served here
by name too, e.g. ``gridwidgets.analysis.bid_table`` (see each game's rules
page).
"""

from typing import Any

from .dominance import EliminationStep, dominated, iterated_elimination, rationalizable
from .equilibrium import Equilibrium, equilibria, equilibrium
from .extensive import ExternalSolution, gambit_solve, openspiel_solve, to_efg, tree_size
from .simultaneous import SimultaneousNode, SubgamePerfectAgent, SubgamePerfectSolution, solve_simultaneous
from .solve import Solution, SolveBudgetExceeded, solve
from .sprt import SPRTResult, sprt
from .stage import StageGame, stage_game
from .tournament import TournamentResult, elo_ratings, tournament, wilson_interval
from .versus import MatchRound, MatrixMatch

__all__ = ["Equilibrium", "TournamentResult", "elo_ratings", "equilibrium", "tournament", "wilson_interval"]
__all__ += ["EliminationStep", "dominated", "equilibria", "iterated_elimination", "rationalizable"]
__all__ += ["MatchRound", "MatrixMatch"]
__all__ += ["ExternalSolution", "gambit_solve", "openspiel_solve", "to_efg", "tree_size"]
__all__ += ["SimultaneousNode", "SubgamePerfectAgent", "SubgamePerfectSolution", "solve_simultaneous"]
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
