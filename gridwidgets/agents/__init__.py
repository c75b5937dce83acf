"""Players that choose moves: one interface for every game.

An agent has ``choose(game) -> move``: it returns one of
``game.legal_moves()`` for ``game.current_player`` and never changes the
game. Give agents seats in a widget with ``g.widget(agents={1: agent})``.

- :class:`RandomAgent`: a uniformly random legal move.
- :class:`ScriptedAgent`: plays back given moves.
- :class:`GreedyAgent`: one-ply search with a heuristic per game.
- :class:`MCTSAgent`: Monte Carlo tree search (UCT; decoupled UCT for
  Block Four's simultaneous bids), with root statistics for hints.
- :class:`EquilibriumAgent`: Block Four bids drawn from the bid stage's Nash
  equilibrium (``gridwidgets.analysis.equilibrium``).
- :class:`AlphaBetaAgent`: negamax with alpha-beta, iterative deepening and
  a transposition table, for Gridlock and GridBloc.
"""

from .alphabeta import AlphaBetaAgent
from .base import Agent, RandomAgent, ScriptedAgent
from .equilibrium import EquilibriumAgent
from .greedy import GreedyAgent
from .mcts import MCTSAgent

__all__ = [
    "Agent",
    "AlphaBetaAgent",
    "EquilibriumAgent",
    "GreedyAgent",
    "MCTSAgent",
    "RandomAgent",
    "ScriptedAgent",
]
