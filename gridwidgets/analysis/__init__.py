"""Analysis of positions: the bid of a Block Four turn as a matrix game.

``bid_table(game)`` lists what every pair of bids earns (RULES BF-6);
``bid_matrix(game)`` estimates X's value of every pair by rollouts. Both
return a :class:`BidTable` (``to_frame()``, a notebook HTML table, ``plot()``).
"""

from .bids import WIN_VALUE, BidTable, bid_matrix, bid_table, describe_order, position_value
from .equilibrium import Equilibrium, equilibrium
from .tournament import TournamentResult, elo_ratings, tournament, wilson_interval

__all__ = ["WIN_VALUE", "BidTable", "bid_matrix", "bid_table", "describe_order", "position_value"]
__all__ += ["Equilibrium", "TournamentResult", "elo_ratings", "equilibrium", "tournament", "wilson_interval"]
