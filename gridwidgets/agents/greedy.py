"""A one-ply greedy agent, scoring positions by each game's evaluation hook.

One-ply search ("greedy" or "1-ply lookahead"): try every legal move, score
the position it leads to with a static evaluation function, play the best
(Russell & Norvig, *Artificial Intelligence: A Modern Approach*, 4th ed.,
2020, ch. 5.4 "Heuristic Alpha-Beta Tree Search": evaluation functions;
here with a search depth of one). The evaluation is the game's own
(:meth:`~gridwidgets.core.Game.evaluate`, or
:meth:`~gridwidgets.core.Game.move_value` when the game scores moves
itself), documented on each game's rules page.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

from ..core.game import Game
from .base import Agent

__all__ = ["GreedyAgent", "heuristic"]


def position_rng(seed: int | None, game: Game, fallback: random.Random) -> random.Random:
    """A ``random.Random`` that is a function of ``seed`` and the position
    (game, options, public history), as :class:`~gridwidgets.agents.RandomAgent`
    seeds its moves; ``fallback`` (an unseeded stream) when ``seed`` is None."""
    if seed is None:
        return fallback
    try:
        opts = json.dumps(game.options(), sort_keys=True, default=str)
    except Exception:  # pragma: no cover - options() is JSON-able by contract
        opts = repr(game.options())
    position = " ".join(str(m) for m in game.history)
    return random.Random(f"{seed}|{game.game_id}|{opts}|{position}")


def heuristic(game: Game, player: int) -> float | None:
    """The greedy heuristic of ``player`` in this position: the game's
    :meth:`~gridwidgets.core.Game.evaluate` hook, or ``None`` for a game
    without one."""
    return game.evaluate(player)


class GreedyAgent(Agent):
    """Plays the legal move whose resulting position scores best by the
    game's evaluation (one-ply search; see the module docstring).

    A move that wins at once is always played; a move that loses at once
    only when every move does. Otherwise the move whose position has the
    highest :meth:`~gridwidgets.core.Game.evaluate` for the mover is
    played (or the best :meth:`~gridwidgets.core.Game.move_value`, for a
    game that scores moves itself). Only the moves a search considers
    (:meth:`~gridwidgets.core.Game.search_moves`) are tried: a setup phase
    whose only move that matters ends it gets that move.

    - **A simultaneous node** (hidden submissions): a uniformly random
      legal move (seeded), since the others' choices are unknown and a
      one-ply look at a hidden submission sees no change.
    - **A game without an evaluation**: a uniformly random legal move (seeded).

    Ties are broken at random: with a ``seed``, as a function of the seed
    and the position (same seed, same position, same move, as
    :class:`~gridwidgets.agents.RandomAgent`); without one, from an
    unseeded stream.

    Args:
        seed: seeds the tie-breaks (and the random choices above).
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    @property
    def name(self) -> str:
        return f"GreedyAgent(seed={self.seed})" if self.seed is not None else "GreedyAgent()"

    def reset(self) -> None:
        self._rng = random.Random(self.seed)

    def choose(self, game: Game) -> Any:
        """The best legal move by the game's evaluation; ``game`` is not changed.

        Raises:
            ValueError: if the game is over.
        """
        me = game.current_player
        moves = game.legal_moves()
        if me is None or not moves:
            raise ValueError("the game is over: there is no move to choose")
        rng = position_rng(self.seed, game, self._rng)
        if len(moves) == 1:
            return moves[0]
        if game.is_simultaneous_node():
            return moves[rng.randrange(len(moves))]
        work = game.view_for(me)
        considered = work.search_moves()
        if len(considered) == 1:
            return considered[0]
        if work.evaluate(me) is None and work.move_value(considered[0], me) is None:
            return moves[rng.randrange(len(moves))]
        best: list[Any] = []
        best_key: tuple[float, ...] | None = None
        for move in considered:
            key = self._score(work, move, me)
            if best_key is None or key > best_key:
                best, best_key = [move], key
            elif key == best_key:
                best.append(move)
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]

    @staticmethod
    def _score(game: Game, move: Any, me: int) -> tuple[float, ...]:
        """``(outcome, value, tie-break)`` of playing ``move``, compared as tuples."""
        own = game.move_value(move, me)
        if own is not None:
            return own
        game.play(move)
        try:
            if game.is_over:
                r = game.returns()[me]
                return (r, 0.0 if r <= 0 else math.inf, 0.0)
            value = game.evaluate(me)
            return (0.0, float(value) if value is not None else 0.0, 0.0)
        finally:
            game.undo()
