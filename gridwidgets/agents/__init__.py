"""Players that choose moves: one interface for every game.

An agent has ``choose(game) -> move``: it returns one of
``game.legal_moves()`` for ``game.current_player`` and never changes the
game. Give agents seats in a widget with ``g.widget(agents={1: agent})``.

- :class:`RandomAgent`: a uniformly random legal move.
- :class:`ScriptedAgent`: plays back given moves.
- :class:`GreedyAgent`: one-ply search with the game's evaluation.
- :class:`MCTSAgent`: Monte Carlo tree search (UCT; decoupled UCT at
  simultaneous nodes), with root statistics for hints.
- :class:`SMMCTSAgent`: simultaneous-move MCTS with a Hannan-consistent
  selection rule (regret matching or Exp3; Lisý et al. 2013), whose root
  mean strategy converges toward an equilibrium (:func:`sm_mcts`).
- :class:`OpenSpielAgent`: any OpenSpiel bot (``open_spiel`` extra).
- :class:`AlphaBetaAgent`: negamax with alpha-beta, iterative deepening and
  a transposition table, for two-player zero-sum turn-based games.
- :class:`MaxnAgent`: max^n search (Luckhardt & Irani 1986), for turn-based
  games of any number of players: each player maximises its own entry of
  a vector of values.
- :class:`ParanoidAgent`: paranoid search with alpha-beta (Sturtevant &
  Korf 2000): the others are assumed to be a coalition against the mover.

A game may bring agents of its own (its ``agents`` hook); they are served
here by name too, e.g. ``gridwidgets.agents.MyopicBidder`` (see
:func:`gridwidgets.core.registry.contributed`).
"""

from typing import Any

from .alphabeta import AlphaBetaAgent
from .base import Agent, RandomAgent, ScriptedAgent
from .greedy import GreedyAgent
from .mcts import MCTSAgent
from .multiplayer import MaxnAgent, ParanoidAgent
from .openspiel import OpenSpielAgent
from .smmcts import SMMCTSAgent, SMMCTSResult, sm_mcts

__all__ = [
    "Agent",
    "AlphaBetaAgent",
    "GreedyAgent",
    "MCTSAgent",
    "MaxnAgent",
    "OpenSpielAgent",
    "ParanoidAgent",
    "RandomAgent",
    "SMMCTSAgent",
    "SMMCTSResult",
    "ScriptedAgent",
    "sm_mcts",
]


def __getattr__(name: str) -> Any:
    """An agent a registered game contributes (its ``agents`` hook)."""
    from ..core import registry

    try:
        return registry.resolve("agents", name)
    except AttributeError:
        raise AttributeError(f"module 'gridwidgets.agents' has no attribute {name!r}") from None


def __dir__() -> list[str]:
    from ..core import registry

    return sorted(set(globals()) | set(registry.contributed("agents")))
