"""The menus of games, boards and agents: what a class picks from, the same
for the classroom app (:mod:`gridwidgets.classroom`, ipywidgets) and the
rooms server (:mod:`gridwidgets.rooms`, Solara), read from the registry.

No UI here: the menus are data, and :func:`start_game` makes a game from a
choice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .agents import Agent, GreedyAgent, MCTSAgent, RandomAgent
from .core import registry
from .core.game import Game
from .core.gametype import Chance

__all__ = ["AGENTS", "GAMES", "PERSON", "AgentChoice", "BoardChoice", "GameChoice", "games_menu", "start_game"]

#: the seat value for a person (clicks on the board)
PERSON = "person"
@dataclass(frozen=True)
class AgentChoice:
    """One entry of the seat menu.

    Attributes:
        label: what the menu shows, e.g. ``"MCTS, strong (2 s a move)"``.
        make: ``make(seed) -> agent``; ``seed`` is None (unseeded) or an int.
    """

    label: str
    make: Callable[[int | None], Agent]


@dataclass(frozen=True)
class BoardChoice:
    """One entry of the board menu of a game.

    Attributes:
        label: what the menu shows, e.g. ``"5×5"``.
        options: keyword arguments of the game's constructor, e.g. ``{"rows": 5, "cols": 5}``.
    """

    label: str
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameChoice:
    """One entry of the game menu.

    Attributes:
        label: the game's name as shown.
        cls: the game class.
        boards: ``{key: BoardChoice}``, the first one the default (the game's ``presets``).
        how: one or two sentences on how to play on the board (the game's ``how_to_play``).
        seeded: the constructor takes a ``seed`` (a setup drawn by chance).
    """

    label: str
    cls: type[Game]
    boards: Mapping[str, BoardChoice]
    how: str
    seeded: bool = False


#: the seat menu besides ``PERSON``: key -> choice. MCTS runs on a time
#: budget so every game answers in about the same time (the kernel is busy
#: meanwhile; 2 s is the longest wait).
AGENTS: dict[str, AgentChoice] = {
    "random": AgentChoice("Random", lambda seed: RandomAgent(seed=seed)),
    "greedy": AgentChoice("Greedy", lambda seed: GreedyAgent(seed=seed)),
    "mcts-quick": AgentChoice("MCTS, quick (0.5 s a move)", lambda seed: MCTSAgent(time=0.5, seed=seed)),
    "mcts-strong": AgentChoice("MCTS, strong (2 s a move)", lambda seed: MCTSAgent(time=2.0, seed=seed)),
}

def games_menu() -> dict[str, GameChoice]:
    """The game menu from the registry: key (``game_type.short_name``) -> choice,
    boards from each game's ``presets`` and the text from its ``how_to_play``."""
    menu = {}
    for key, cls in registry.games().items():
        presets = cls.presets or {"default": ("the default board", {})}
        menu[key] = GameChoice(
            cls.game_type.long_name,
            cls,
            {k: BoardChoice(label, dict(opts)) for k, (label, opts) in presets.items()},
            cls.how_to_play,
            seeded=cls.game_type.chance is Chance.SEEDED_SETUP,
        )
    return menu


#: the game menu when this module was imported (see :func:`games_menu`)
GAMES: dict[str, GameChoice] = games_menu()


def start_game(game: str, board: str | None = None, *, seed: int | None = None) -> Game:
    """A new game for the classroom: ``game`` a key of :func:`games_menu`,
    ``board`` a key of its boards (default: the first); ``seed`` seeds a setup
    drawn by chance (None: a different one each time).

    Raises:
        ValueError: for an unknown game or board.
    """
    menu = games_menu()
    if game not in menu:
        raise ValueError(f"unknown game {str(game)[:40]!r}: one of {', '.join(menu)}")
    choice = menu[game]
    board = board if board is not None else next(iter(choice.boards))
    if board not in choice.boards:
        raise ValueError(f"unknown board {str(board)[:40]!r} for {choice.label}: one of {', '.join(choice.boards)}")
    options = dict(choice.boards[board].options)
    if choice.seeded:
        options["seed"] = seed
    return choice.cls(**options)
