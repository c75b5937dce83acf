"""Analysis for teaching: exact solutions, the Block Four bid as a matrix
game, its equilibria, and tournaments between agents.

- ``solve(game)``: the value under perfect play, the optimal moves and the
  value of every legal move (Gridlock, GridBloc endgames), with a
  transposition table and board symmetries; ``SolveBudgetExceeded`` past the
  budget.
- ``bid_table(game)`` lists what every pair of bids earns (RULES BF-6);
  ``bid_matrix(game)`` estimates X's value of every pair by rollouts. Both
  return a :class:`BidTable` (``to_frame()``, a notebook HTML table, ``plot()``).
- ``equilibrium(...)``: a Nash equilibrium of the bid stage (LP when zero-sum,
  nashpy otherwise).
- ``tournament(...)``: a round robin between agents, in parallel with joblib.
"""

from .bids import WIN_VALUE, BidTable, bid_matrix, bid_table, describe_order, position_value
from .equilibrium import Equilibrium, equilibrium
from .solve import Solution, SolveBudgetExceeded, solve
from .tournament import TournamentResult, elo_ratings, tournament, wilson_interval

__all__ = ["WIN_VALUE", "BidTable", "bid_matrix", "bid_table", "describe_order", "position_value"]
__all__ += ["Equilibrium", "TournamentResult", "elo_ratings", "equilibrium", "tournament", "wilson_interval"]
__all__ += ["Solution", "SolveBudgetExceeded", "solve"]
