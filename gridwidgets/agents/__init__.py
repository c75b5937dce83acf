"""Players that choose moves: one interface for every game.

An agent has ``choose(game) -> move``: it returns one of
``game.legal_moves()`` for ``game.current_player`` and never changes the
game. Give agents seats in a widget with ``g.widget(agents={1: agent})``.
"""

from .base import Agent, RandomAgent, ScriptedAgent

__all__ = ["Agent", "RandomAgent", "ScriptedAgent"]
