"""Any OpenSpiel bot on a seat of our boards."""

from __future__ import annotations

from typing import Any

from ..core.game import Game
from .base import Agent

__all__ = ["OpenSpielAgent"]


class OpenSpielAgent(Agent):
    """An OpenSpiel bot (``pyspiel.Bot`` or a Python bot with ``step(state)``)
    playing one of our games: ``g.widget(agents={1: OpenSpielAgent(bot)})``.

    Each choice converts the position to a pyspiel state
    (:func:`gridwidgets.interop.openspiel.from_game`), asks ``bot.step(state)``
    for an action and returns that action's move. At a simultaneous node the
    bot answers for the player it was made for (OpenSpiel bots hold a
    ``player_id``), and our agent plays it for ``game.current_player``.

    Args:
        bot: the bot, made for a game from
            :func:`gridwidgets.interop.openspiel.load` with the same options.
        name: shown on the seat label (default ``"OpenSpiel <class>"``).

    Raises:
        ImportError: (when choosing) ``open_spiel`` is not installed.
    """

    def __init__(self, bot: Any, name: str | None = None) -> None:
        self.bot = bot
        self._name = name or f"OpenSpiel {type(bot).__name__}"
        self._games: dict[str, Any] = {}

    @property
    def name(self) -> str:
        return self._name

    def choose(self, game: Game) -> Any:
        from ..interop import openspiel

        p = game.current_player
        if p is None:
            raise ValueError("the game is over: there is no move to choose")
        key = openspiel.register(game.game_type.short_name)
        params = openspiel.params_of(game)
        cache_key = repr(sorted(params.items()))
        spiel_game = self._games.get(cache_key)
        if spiel_game is None:
            spiel_game = self._games[cache_key] = openspiel.pyspiel.load_game(key, params)
        state = openspiel.from_game(game, spiel_game)
        action = self.bot.step(state)
        return spiel_game.actions.move(int(action), p)

    def reset(self) -> None:
        restart = getattr(self.bot, "restart", None)
        if callable(restart):
            restart()
