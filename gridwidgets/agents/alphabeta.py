"""Alpha-beta search for any two-player, zero-sum, turn-based game with an
evaluation (the game's ``evaluate`` hook, or one given).

Sources:

- Negamax with alpha-beta pruning: D. E. Knuth and R. W. Moore (1975),
  "An Analysis of Alpha-Beta Pruning", Artificial Intelligence 6(4),
  pp. 293-326 (the ``F2`` procedure is this negamax form).
- Iterative deepening with move ordering from the previous iteration and a
  transposition table: D. J. Slate and L. R. Atkin (1977), "CHESS 4.5 -
  The Northwestern University Chess Program", in *Chess Skill in Man and
  Machine*, Springer, pp. 82-118; the bound flags stored with each entry
  (exact, lower, upper) as in T. A. Marsland (1986), "A Review of Game-Tree
  Pruning", ICCA Journal 9(1).
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Callable
from typing import Any

from ..core.game import Game
from .base import Agent
from .greedy import position_rng

__all__ = ["AlphaBetaAgent"]

#: the value of a won game (from the winner's side); a proven win found
#: with ``d`` plies of search depth still left scores ``WIN + d``
WIN = 1_000_000.0
_EXACT, _LOWER, _UPPER = 0, 1, 2
_MAX_DEPTH = 1000
_TT_LIMIT = 2_000_000


class _Timeout(Exception):
    pass


def _own_evaluation(game: Game, player: int) -> float:
    value = game.evaluate(player)
    return 0.0 if value is None else value


class AlphaBetaAgent(Agent):
    """Negamax with alpha-beta pruning, iterative deepening and a
    transposition table (see the module docstring for the sources), for
    two-player zero-sum turn-based games (as their ``game_type`` declares).

    Values are from the side to move. A finished game is worth
    ``returns()`` times ``WIN`` (1e6; a win found with ``d`` plies of depth
    left: ``WIN + d``, so quicker wins are preferred); at the depth limit
    the game's :meth:`~gridwidgets.core.Game.evaluate` decides (each game's
    evaluation is documented on its rules page), or the ``evaluate`` given.

    Turns need not alternate: the same player may move twice in a row (a
    round change, a move that earns another). The search reads
    ``current_player`` after every move: a child value is negated (and the
    window ``(alpha, beta)`` becomes ``(-beta, -alpha)``) only when the
    side to move changed.

    Iterative deepening searches depth 1, 2, ... up to ``depth``; each
    iteration tries first the best moves of the previous one (at the root,
    sorted by their values; below, the best move stored in the
    transposition table). The table is keyed by the game's
    :meth:`~gridwidgets.core.Game.position_key` (by default the move
    history, which never merges transpositions). The search stops early
    once the game's value is proven (no heuristic was used). Only the moves
    of :meth:`~gridwidgets.core.Game.search_moves` are searched (a setup
    phase that is not a contest gets the move that ends it).

    Args:
        depth: the deepest iteration, in plies (moves); ``None`` with a
            ``time`` budget: as deep as the time allows.
        time: a budget in seconds: deepen until it runs out and play the
            best move of the last completed iteration (depth 1 always
            completes). Results then depend on the machine's speed.
        seed: seeds the order of the root moves, so among equally good
            moves the one played is a function of the seed and the position.
        evaluate: ``evaluate(game, player) -> float``, the value for
            ``player`` at the depth limit, instead of the game's own
            evaluation (needed for a game without one).

    Attributes:
        last_value: the root value for the mover after :meth:`choose`
            (``>= WIN``: a proven win; ``<= -WIN``: a proven loss).
        last_depth: the deepest completed iteration.
        last_nodes: positions searched by the last :meth:`choose`.
        last_solved: True if the outcome is proven: a win or loss within
            the searched depth (``abs(last_value) >= WIN``), or a value
            found without any heuristic evaluation.
        last_stats: per root move ``(notation, value)`` from the last
            completed iteration; the best move's value is exact, the
            others' may be upper bounds (alpha-beta cut them off).

    Raises:
        ValueError: from :meth:`choose`, for a game that is not two-player
            zero-sum turn-based (more players, simultaneous moves, hidden
            information, general-sum returns), or one without an evaluation
            when no ``evaluate`` is given.
    """

    WIN = WIN

    def __init__(
        self,
        depth: int | None = 4,
        time: float | None = None,
        seed: int | None = 0,
        evaluate: Callable[[Game, int], float] | None = None,
    ) -> None:
        if depth is None and time is None:
            raise ValueError("give a depth, a time budget, or both")
        if depth is not None and (not isinstance(depth, int) or depth < 1):
            raise ValueError(f"depth must be a positive int, got {depth!r}")
        if time is not None and not time > 0:
            raise ValueError(f"time must be a positive number of seconds, got {time!r}")
        self.depth = depth
        self.time = time
        self.seed = seed
        self.evaluate = evaluate
        self._rng = random.Random(seed)
        self.reset()

    @property
    def name(self) -> str:
        if self.time is not None:
            return f"AlphaBetaAgent({self.time:g} s)"
        return f"AlphaBetaAgent(depth {self.depth})"

    def reset(self) -> None:
        self._rng = random.Random(self.seed)
        self.last_value = 0.0
        self.last_depth = 0
        self.last_nodes = 0
        self.last_solved = False
        self.last_stats: list[tuple[str, float]] = []

    def _setup(self, game: Game) -> None:
        from ..core.gametype import why_unsolvable

        why = why_unsolvable(game)
        if not why and self.evaluate is None and game.evaluate(0) is None:
            why = "no evaluation of its own (pass evaluate=...)"
        if why:
            instead = "MCTSAgent"
            gt = type(game).game_type
            if not gt.simultaneous and gt.perfect_information and (self.evaluate or game.evaluate(0) is not None):
                instead = "MaxnAgent, ParanoidAgent or MCTSAgent"  # more players, or general-sum returns
            raise ValueError(
                f"AlphaBetaAgent plays two-player zero-sum turn-based games with an evaluation; "
                f"{gt.long_name} {why}: use {instead} instead"
            )
        self._eval = self.evaluate or _own_evaluation

    def choose(self, game: Game) -> Any:
        """The best move found for :attr:`Game.current_player`; ``game`` is not changed.

        Raises:
            ValueError: if the game is over, or not a game this agent plays.
        """
        self._setup(game)
        me = game.current_player
        if me is None or not game.legal_moves():
            raise ValueError("the game is over: there is no move to choose")
        rng = position_rng(self.seed, game, self._rng)
        work = game.view_for(me)
        moves = work.search_moves()
        order = list(range(len(moves)))
        rng.shuffle(order)
        self._tt: dict[Any, tuple[int, float, int, int, bool]] = {}
        self._nodes = 0
        self._deadline = None if self.time is None else _time.perf_counter() + float(self.time)
        max_depth = self.depth if self.depth is not None else _MAX_DEPTH
        best_i = order[0]
        self.last_stats = []
        self.last_depth = 0
        for d in range(1, max_depth + 1):
            try:
                values, best_i, value, heur = self._root(work, moves, order, d, me, check_time=d > 1)
            except _Timeout:
                work = game.view_for(me)  # the aborted search left moves played on it
                break
            self.last_value, self.last_depth = value, d
            self.last_solved = not heur or abs(value) >= WIN
            # next iteration: the best first, then by value (stable: ties keep the seeded order)
            order.sort(key=lambda i: -values[i])
            self.last_stats = [(str(moves[i]), values[i]) for i in order]
            if not heur or abs(value) >= WIN:
                break
            if self._deadline is not None and _time.perf_counter() >= self._deadline:
                break
        self.last_nodes = self._nodes
        self._tt = {}
        return moves[best_i]

    # ------------------------------------------------------------------
    def _root(
        self, g: Any, moves: list[Any], order: list[int], depth: int, me: int, check_time: bool
    ) -> tuple[dict[int, float], int, float, bool]:
        self._check_time = check_time
        alpha, beta = -math.inf, math.inf
        values: dict[int, float] = {}
        best_i, best_v = order[0], -math.inf
        heur = False
        for i in order:
            v, h = self._child(g, moves[i], depth, alpha, beta, me)
            heur = heur or h
            values[i] = v
            if v > best_v:
                best_v, best_i = v, i
            if v > alpha:
                alpha = v
        return values, best_i, best_v, heur

    def _child(self, g: Any, move: Any, depth: int, alpha: float, beta: float, p: int) -> tuple[float, bool]:
        """Value for ``p`` of playing ``move`` (``p`` to move), searched ``depth - 1`` plies deeper."""
        g.play(move)
        q = g.current_player
        if q is None:
            r = g.returns()[p]
            v, h = (r * (WIN + depth) if r else 0.0), False
        elif q == p:
            v, h = self._negamax(g, depth - 1, alpha, beta, q)
        else:
            v, h = self._negamax(g, depth - 1, -beta, -alpha, q)
            v = -v
        g.undo()
        return v, h

    def _negamax(self, g: Any, depth: int, alpha: float, beta: float, p: int) -> tuple[float, bool]:
        """Value of the position for ``p``, the side to move, and whether a heuristic was used."""
        self._nodes += 1
        if self._check_time and self._deadline is not None and not self._nodes & 255:
            if _time.perf_counter() >= self._deadline:
                raise _Timeout
        if depth <= 0:
            return self._eval(g, p), True
        key = g.position_key()
        tt = self._tt
        entry = tt.get(key)
        hint = -1
        if entry is not None:
            e_depth, e_val, e_flag, e_move, e_heur = entry
            if e_depth >= depth:
                if e_flag == _EXACT:
                    return e_val, e_heur
                if e_flag == _LOWER:
                    if e_val >= beta:
                        return e_val, e_heur
                elif e_val <= alpha:
                    return e_val, e_heur
            hint = e_move
        moves = g.search_moves()
        idx = list(range(len(moves)))
        if 0 <= hint < len(moves):
            idx[0], idx[hint] = hint, 0
        alpha0 = alpha
        best_v, best_i, heur = -math.inf, idx[0], False
        for i in idx:
            v, h = self._child(g, moves[i], depth, alpha, beta, p)
            heur = heur or h
            if v > best_v:
                best_v, best_i = v, i
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        flag = _UPPER if best_v <= alpha0 else _LOWER if best_v >= beta else _EXACT
        if len(tt) >= _TT_LIMIT:
            tt.clear()
        tt[key] = (depth, best_v, flag, best_i, heur)
        return best_v, heur
