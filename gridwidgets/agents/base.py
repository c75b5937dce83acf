"""The agent interface and the simplest agents."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Any

from ..core.game import Game

__all__ = ["Agent", "RandomAgent", "ScriptedAgent"]


class Agent(ABC):
    """Base class: an agent chooses a move for the player to act.

    Subclasses implement :meth:`choose`. ``name`` is shown on the widget's
    seat labels.
    """

    @property
    def name(self) -> str:
        return type(self).__name__

    @abstractmethod
    def choose(self, game: Game) -> Any:
        """One of ``game.legal_moves()`` for ``game.current_player``; the game is not changed.

        Raises:
            ValueError: if the game is over (there is nothing to choose).
        """

    def reset(self) -> None:  # noqa: B027 - a hook: agents without state need not override it
        """Forget any state kept between moves (a new game starts)."""

    def __repr__(self) -> str:
        return self.name


class RandomAgent(Agent):
    """Plays a uniformly random legal move.

    Args:
        seed: with a seed, the move is a function of the seed and the
            moves played so far: the same seed in the same position always
            gives the same move, also after an undo. Without one, moves come
            from one unseeded ``random.Random`` stream.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    @property
    def name(self) -> str:
        return f"RandomAgent(seed={self.seed})" if self.seed is not None else "RandomAgent()"

    def choose(self, game: Game) -> Any:
        moves = game.legal_moves()
        if not moves:
            raise ValueError("the game is over: there is no move to choose")
        rng = self._rng
        if self.seed is not None:
            position = " ".join(str(m) for m in game.history)
            rng = random.Random(f"{self.seed}|{game.game_id}|{position}")
        return moves[rng.randrange(len(moves))]

    def reset(self) -> None:
        self._rng = random.Random(self.seed)


class ScriptedAgent(Agent):
    """Plays the given moves in order (a solution to play back, a recorded game).

    Move ``k`` of the script is played when the game holds ``start + k``
    moves, so undoing in the game replays the same script.

    Args:
        moves: moves in notation or as move objects.
        start: how many moves the game holds when the script begins; by
            default, as many as at the first :meth:`choose`.
    """

    def __init__(self, moves: Iterable[Any], start: int | None = None) -> None:
        self.moves = [str(m) for m in moves]
        self.start = start
        self._first_start = start

    @property
    def name(self) -> str:
        return f"ScriptedAgent({len(self.moves)} moves)"

    def choose(self, game: Game) -> Any:
        """The script's move for this position.

        Raises:
            ValueError: before the script's start or after its end.
        """
        if self.start is None:
            self.start = len(game.history)
        k = len(game.history) - self.start
        if not 0 <= k < len(self.moves):
            raise ValueError(f"the script has no move {k + 1} (it holds {len(self.moves)})")
        return game.parse_move(self.moves[k])

    def reset(self) -> None:
        self.start = self._first_start
