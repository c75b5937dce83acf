"""A one-ply greedy agent with a hand-made heuristic per game.

One-ply search ("greedy" or "1-ply lookahead"): try every legal move, score
the position it leads to with a static evaluation function, play the best
(Russell & Norvig, *Artificial Intelligence: A Modern Approach*, 4th ed.,
2020, ch. 5.4 "Heuristic Alpha-Beta Tree Search": evaluation functions;
here with a search depth of one). The heuristics are ours, one per game,
and documented on :class:`GreedyAgent`.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
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


# ----------------------------------------------------------------------
# Heuristics: a number for ``player`` (higher is better) after a move
# ----------------------------------------------------------------------
def _gridlock(game: Any, player: int) -> float:
    """Mobility (GL-3, GL-4): the player's legal cells minus the opponent's."""
    return float(game.legal_mask(player).sum() - game.legal_mask(1 - player).sum())


def _gridmaster(game: Any, player: int) -> float:
    """Mobility for the next turn (GM-3..GM-5): the open jump cells of the
    player's active tiles (their normal moves if the board stayed as it is),
    plus 0.1 per active tile (more tiles to jump from later)."""
    from ..games.gridmaster import jump_cells

    board = game.board
    active = game.active_tiles(player)
    targets = {j for a in active for j in jump_cells(a, game.size) if board[j] < 0}
    return len(targets) + 0.1 * len(active)


def _blockfour(game: Any, player: int) -> float:
    """Field control (BF-9), then spaces: ``100 * (fields - opponent's fields)
    + (spaces - opponent's spaces)`` (the gap fill, BF-8, counts too)."""
    f = game.fields_controlled()
    s = game.spaces()
    return 100.0 * (f[player] - f[1 - player]) + (s[player] - s[1 - player])


_HEURISTICS: dict[str, Callable[[Any, int], float]] = {
    "gridlock": _gridlock,
    "gridmaster4": _gridmaster,
    "blockfour": _blockfour,
}


def heuristic(game: Game, player: int) -> float | None:
    """The greedy heuristic of ``player`` in this position (see
    :class:`GreedyAgent`), or ``None`` for a game without one. GridBloc's
    depends on the move (round ends), so it is not given here."""
    f = _HEURISTICS.get(game.game_id)
    return None if f is None else f(game, player)


class GreedyAgent(Agent):
    """Plays the legal move whose resulting position scores best by a
    hand-made heuristic (one-ply search; see the module docstring).

    A move that wins at once is always played; a move that loses at once
    only when every move does. Otherwise, per game (heuristics ours):

    - **Gridlock** (mobility): own legal cells minus the opponent's after
      the move (GL-3).
    - **GridMaster4** (mobility): the open jump cells of the mover's active
      tiles after the move, i.e. their normal moves next turn if nobody
      moved in between, plus 0.1 per active tile (GM-3..GM-5).
    - **Block Four**, placements (field control): ``100 * (own fields -
      opponent's fields) + (own spaces - opponent's spaces)`` after the
      placement and its gap fill (BF-8, BF-9). **Bids are chosen at random**
      (seeded): the other bid is unknown (BF-5), and a one-ply look at a
      bid sees no board change, so the heuristic cannot tell bids apart.
    - **GridBloc** (reachable unscored area): the runner maximises its
      points this round plus ``unscored_reachable()`` after the step
      (a step onto a new tile trades one reachable tile for one point, so it
      is not penalised), preferring the step that scores now on a tie; the
      blocker minimises ``unscored_reachable()`` after the wall. A move that
      ends the round counts 0 reachable tiles. In the setup phase (GB-10) it
      plays ``done``.
    - **Any other game**: a uniformly random legal move (seeded), since
      there is no heuristic for it.

    Ties are broken at random: with a ``seed``, as a function of the seed
    and the position (same seed, same position, same move, as
    :class:`~gridwidgets.agents.RandomAgent`); without one, from an
    unseeded stream.

    Args:
        seed: seeds the tie-breaks (and Block Four's bids).
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
        """The best legal move by the game's heuristic; ``game`` is not changed.

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
        gid = game.game_id
        if gid == "gridbloc" and getattr(game, "phase", None) == "setup":
            return next(m for m in moves if str(m) == "done")
        if gid == "blockfour" and getattr(game, "phase", None) == "bid":
            return moves[rng.randrange(len(moves))]
        if gid not in _HEURISTICS and gid != "gridbloc":
            return moves[rng.randrange(len(moves))]
        work = game.view_for(me)
        best: list[Any] = []
        best_key: tuple[float, ...] | None = None
        for move in moves:
            key = self._score(work, move, me)
            if best_key is None or key > best_key:
                best, best_key = [move], key
            elif key == best_key:
                best.append(move)
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]

    def _score(self, game: Any, move: Any, me: int) -> tuple[float, ...]:
        """``(outcome, heuristic, tie-break)`` of playing ``move``, compared as tuples."""
        gid = game.game_id
        if gid == "gridbloc":
            rnd = game.round
            runner = game.runner_player
            game.play(move)
            try:
                if game.is_over:
                    return (game.returns()[me], 0.0, 0.0)
                ended = game.round != rnd
                unscored = 0 if ended else game.unscored_reachable()
                points = game.round_scores[rnd - 1][runner]
                if me == runner:
                    return (0.0, float(points + unscored), float(points))
                return (0.0, -float(unscored), 0.0)
            finally:
                game.undo()
        game.play(move)
        try:
            if game.is_over:
                r = game.returns()[me]
                return (r, 0.0 if r <= 0 else math.inf, 0.0)
            return (0.0, _HEURISTICS[gid](game, me), 0.0)
        finally:
            game.undo()
