"""Depth-limited search for turn-based games of any number of players:
max^n and paranoid search.

With two players and zero-sum returns, minimax (and alpha-beta,
:class:`~gridwidgets.agents.AlphaBetaAgent`) rests on one number per
position, the value for one side, which the other side minimises. With
three or more players there are no two sides: a position has one return
per player, what one loses is not what a given other wins, and the
minimax value is not defined. Two standard searches take its place:

- **max^n**: C. A. Luckhardt and K. B. Irani (1986), "An Algorithmic
  Solution of N-Person Games", *Proceedings of AAAI-86*, pp. 158-162. Every
  node's value is a vector, one component per player; the player to move
  takes the child whose vector is best *in its own component*. Searched to
  the end of the game, it is backward induction with payoff vectors, and
  the strategies it picks form a subgame-perfect equilibrium of the
  game tree (an "equilibrium point" in Luckhardt & Irani's words; Kuhn's
  1953 backward-induction argument). Where the player to move is
  indifferent between children whose vectors differ in the *other*
  components (a tie), the tie-breaking rule chooses among equilibria, and
  may decide who wins (kingmaking).
- **paranoid search**: N. R. Sturtevant and R. E. Korf (2000), "On Pruning
  Techniques for Multi-Player Games", *Proceedings of AAAI-00*, pp. 201-207.
  The searching player assumes that all the others form a coalition that
  minimises its value. The game becomes a two-player zero-sum game (the
  player against the coalition), so alpha-beta pruning applies (Knuth &
  Moore 1975); searched to the end of the game, the root value is what the
  player can guarantee whatever the others do (its security level, in
  pure strategies of this perfect-information game).

max^n has no pruning here: shallow pruning (R. E. Korf (1991),
"Multi-player alpha-beta pruning", *Artificial Intelligence* 48(1),
pp. 99-111) needs a bound on the sum of the players' values, which a
game's evaluation need not respect, and deep pruning is not valid for
max^n (Sturtevant & Korf 2000, section 3).
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Callable
from typing import Any

from ..core.game import Game
from ..core.gametype import Dynamics, Information
from .base import Agent
from .greedy import position_rng

__all__ = ["MaxnAgent", "ParanoidAgent"]

#: the value of a won game for its winner (a lost game: ``-WIN``); a game
#: ended by a move played with ``d`` plies of search depth left counts
#: ``WIN + d``, as in :class:`~gridwidgets.agents.AlphaBetaAgent`
WIN = 1_000_000.0
_EXACT, _LOWER, _UPPER = 0, 1, 2
_MAX_DEPTH = 1000
_TT_LIMIT = 1_000_000
_TIE_BREAKS = ("first", "random")


class _Timeout(Exception):
    pass


def _own_evaluation(game: Game, player: int) -> float:
    value = game.evaluate(player)
    return 0.0 if value is None else float(value)


def _check_args(depth: Any, time: Any, tie_break: Any) -> None:
    if depth is None and time is None:
        raise ValueError("give a depth, a time budget, or both")
    if depth is not None and (not isinstance(depth, int) or isinstance(depth, bool) or depth < 1):
        raise ValueError(f"depth must be a positive int, got {str(depth)[:30]!r}")
    if time is not None and not (isinstance(time, (int, float)) and time > 0):
        raise ValueError(f"time must be a positive number of seconds, got {str(time)[:30]!r}")
    if tie_break not in _TIE_BREAKS:
        raise ValueError(f"tie_break must be 'first' or 'random', got {str(tie_break)[:30]!r}")


def _why_not(game: Game, who: str, has_eval: bool) -> str:
    gt = type(game).game_type
    if gt.dynamics is Dynamics.SIMULTANEOUS:
        why = "has simultaneous moves"
    elif gt.information is Information.IMPERFECT:
        why = "has hidden information"
    elif not has_eval and game.evaluate(0) is None:
        why = "has no evaluation of its own (pass evaluate=...)"
    else:
        return ""
    return (f"{who} plays turn-based games of perfect information with an evaluation; "
            f"{gt.long_name} {why}: use MCTSAgent instead")


class _DepthSearch(Agent):
    """What the two searches share: options, budget, seeding, bookkeeping."""

    _default_depth = 2

    def __init__(self, depth: int | None, time: float | None, seed: int | None, tie_break: str,
                 evaluate: Callable[[Game, int], float] | None) -> None:
        _check_args(depth, time, tie_break)
        self.depth = depth
        self.time = time
        self.seed = seed
        self.tie_break = tie_break
        self.evaluate = evaluate
        self._rng = random.Random(seed)
        self.reset()

    @property
    def name(self) -> str:
        budget = f"{self.time:g} s" if self.time is not None else f"depth {self.depth}"
        ties = "" if self.tie_break == "first" else f", random ties, seed={self.seed}"
        return f"{type(self).__name__}({budget}{ties})"

    def reset(self) -> None:
        self._rng = random.Random(self.seed)
        self.last_depth = 0
        self.last_nodes = 0
        self.last_stats: list[tuple[str, Any]] = []

    def reseed(self, seed: int | None) -> None:
        """A new seed for the random tie-breaks (``tie_break="random"``),
        as tournaments and the lab seed each seat; with ``tie_break="first"``
        the agent is deterministic and the seed changes nothing it plays."""
        self.seed = seed
        self.reset()

    def _prepare(self, game: Game) -> tuple[Game, int, list[Any], random.Random | None]:
        why = _why_not(game, type(self).__name__, self.evaluate is not None)
        if why:
            raise ValueError(why)
        me = game.current_player
        if me is None or not game.legal_moves():
            raise ValueError("the game is over: there is no move to choose")
        self._eval = self.evaluate or _own_evaluation
        work = game.view_for(me)
        moves = list(work.search_moves())
        rng = None
        if self.tie_break == "random":
            rng = position_rng(self.seed, game, self._rng)
            rng.shuffle(moves)
        self._order_rng = rng
        self._nodes = 0
        self._deadline = None if self.time is None else _time.perf_counter() + float(self.time)
        return work, me, moves, rng

    def _moves(self, g: Any) -> list[Any]:
        moves = list(g.search_moves())
        if self._order_rng is not None:
            self._order_rng.shuffle(moves)
        return moves

    def _tick(self) -> None:
        self._nodes += 1
        if self._check_time and self._deadline is not None and not self._nodes & 255:
            if _time.perf_counter() >= self._deadline:
                raise _Timeout


class MaxnAgent(_DepthSearch):
    """max^n search (Luckhardt & Irani 1986; see the module docstring) to a
    depth limit, for turn-based games of perfect information with any
    number of players.

    The value of a position is a vector with one entry per player
    (``len(game.players)``):

    - a finished game: ``returns()[p] * (WIN + d)`` for each player ``p``
      (``WIN`` is 1e6, ``d`` the plies of depth that were left before the
      move that ended it, as for
      :class:`~gridwidgets.agents.AlphaBetaAgent`: a quicker win and a
      slower loss are preferred; a return of 0 stays 0);
    - at the depth limit: ``evaluate(p)`` for each player ``p``, the game's
      :meth:`~gridwidgets.core.Game.evaluate` (documented on each game's
      rules page) or the ``evaluate`` given;
    - otherwise the vector of the child that is best in the component of
      the player to move.

    **Ties.** Where several children are best for the player to move, the
    first of them in the search order wins: with ``tie_break="first"`` (the
    default) the order of :meth:`~gridwidgets.core.Game.search_moves`, so
    the agent is deterministic; with ``tie_break="random"`` a random order
    at every node, drawn from a stream that is a function of ``seed`` and
    the root position (as :class:`~gridwidgets.agents.RandomAgent` seeds
    its moves). The rule matters: among moves equally good for the mover,
    it decides what the others get, and so, sometimes, who wins.

    With two players and zero-sum returns, max^n is minimax. A
    transposition table keyed by :meth:`~gridwidgets.core.Game.position_key`
    reuses the vector of a position already searched to the same depth.

    Args:
        depth: plies (moves) searched; ``None`` with a ``time`` budget.
        time: seconds: deepen 1, 2, ... until the budget runs out and play
            the choice of the last completed depth (results then depend on
            the machine's speed).
        seed: seeds the random tie-breaks (``tie_break="random"`` only).
        tie_break: ``"first"`` or ``"random"`` (above).
        evaluate: ``evaluate(game, player) -> float`` at the depth limit,
            instead of the game's own.

    Attributes:
        last_value: the root's vector after :meth:`choose` (a tuple, one
            float per player).
        last_depth: the deepest completed depth.
        last_nodes: positions searched by the last :meth:`choose`.
        last_stats: per root move, in search order, ``(notation, vector)``.

    Raises:
        ValueError: bad options (here); from :meth:`choose`, a game over,
            or a game with simultaneous moves, hidden information, or no
            evaluation when no ``evaluate`` is given.
    """

    WIN = WIN

    def __init__(self, depth: int | None = 2, time: float | None = None, seed: int | None = None,
                 tie_break: str = "first", evaluate: Callable[[Game, int], float] | None = None) -> None:
        super().__init__(depth, time, seed, tie_break, evaluate)

    def reset(self) -> None:
        super().reset()
        self.last_value: tuple[float, ...] = ()

    def choose(self, game: Game) -> Any:
        """The max^n choice for :attr:`Game.current_player`; ``game`` is not changed.

        Raises:
            ValueError: if the game is over, or not a game this agent plays.
        """
        work, me, moves, _ = self._prepare(game)
        self._n = len(game.players)
        max_depth = self.depth if self.depth is not None else _MAX_DEPTH
        best = moves[0]
        self.last_depth = 0
        for d in range(1, max_depth + 1):
            self._check_time = d > 1
            self._tt: dict[Any, tuple[int, tuple[float, ...]]] = {}
            try:
                stats = [(m, self._child(work, m, d)) for m in moves]
            except _Timeout:
                break
            finally:
                self._tt = {}
            i = max(range(len(stats)), key=lambda k: (stats[k][1][me], -k))
            best = stats[i][0]
            self.last_value, self.last_depth = stats[i][1], d
            self.last_stats = [(str(m), v) for m, v in stats]
            if self._deadline is not None and _time.perf_counter() >= self._deadline:
                break
        self.last_nodes = self._nodes
        return best

    def value(self, game: Game, depth: int | None = None) -> tuple[float, ...]:
        """The max^n vector of ``game``'s position searched ``depth`` plies
        (default :attr:`depth`), without choosing; ``game`` is not changed.

        Raises:
            ValueError: as :meth:`choose`, except that a finished game is
                worth ``returns()`` times ``WIN``.
        """
        d = depth if depth is not None else (self.depth or 1)
        if game.is_over:
            return tuple(float(r) * WIN if r else 0.0 for r in game.returns())
        work, _, _, _ = self._prepare(game)
        self._n = len(game.players)
        self._check_time, self._deadline, self._tt = False, None, {}
        try:
            return self._search(work, d)
        finally:
            self._tt = {}

    def _child(self, g: Any, move: Any, depth: int) -> tuple[float, ...]:
        g.play(move)
        try:
            return self._search(g, depth - 1)
        finally:
            g.undo()

    def _search(self, g: Any, depth: int) -> tuple[float, ...]:
        """The vector of the position, ``depth`` plies deep."""
        self._tick()
        p = g.current_player
        if p is None:
            bonus = WIN + depth + 1  # the plies left before the move that ended it, as AlphaBetaAgent
            return tuple(float(r) * bonus if r else 0.0 for r in g.returns())
        if depth <= 0:
            return tuple(float(self._eval(g, q)) for q in range(self._n))
        key = g.position_key()
        hit = self._tt.get(key)
        if hit is not None and hit[0] == depth:
            return hit[1]
        best: tuple[float, ...] | None = None
        for m in self._moves(g):
            v = self._child(g, m, depth)
            if best is None or v[p] > best[p]:  # strict: a tie keeps the first
                best = v
        assert best is not None
        if len(self._tt) >= _TT_LIMIT:
            self._tt.clear()
        self._tt[key] = (depth, best)
        return best


class ParanoidAgent(_DepthSearch):
    """Paranoid search (Sturtevant & Korf 2000; see the module docstring) to
    a depth limit, with alpha-beta pruning, for turn-based games of perfect
    information with any number of players.

    The searching player (the one to move at the root, ``me``) maximises
    its own value; every other player minimises it, as one coalition. The
    value of a position, for ``me``:

    - a finished game: ``returns()[me] * (WIN + d)`` (``WIN`` is 1e6, ``d``
      the plies of depth left before the move that ended it; a return of 0
      stays 0);
    - at the depth limit: ``evaluate(me)``, the game's
      :meth:`~gridwidgets.core.Game.evaluate` or the ``evaluate`` given;
    - otherwise the largest child value where ``me`` moves, the smallest
      where anyone else moves (turns need not alternate: the coalition's
      players may move several times in a row).

    With alpha-beta (``prune=True``, the default; Knuth & Moore 1975) and a
    transposition table keyed by :meth:`~gridwidgets.core.Game.position_key`
    with bound flags (as :class:`~gridwidgets.agents.AlphaBetaAgent`), the
    root value and the move chosen are those of the plain search
    (``prune=False``): pruning skips only children that cannot change them.
    Among root moves of equal value the first in the search order is
    played (``tie_break`` as for :class:`MaxnAgent`).

    With two players and zero-sum returns, paranoid search is minimax.

    Args:
        depth: plies (moves) searched; ``None`` with a ``time`` budget.
        time: seconds: deepen 1, 2, ... until the budget runs out.
        seed: seeds the random tie-breaks (``tie_break="random"`` only).
        tie_break: ``"first"`` or ``"random"`` (the order of the moves searched).
        evaluate: ``evaluate(game, player) -> float`` at the depth limit,
            instead of the game's own.
        prune: alpha-beta pruning and the transposition table (``False``:
            the plain search, every node visited; for checking and teaching).

    Attributes:
        last_value: the root value for ``me`` after :meth:`choose`.
        last_depth, last_nodes: the deepest completed depth; positions searched.
        last_stats: per root move, in search order, ``(notation, value)``;
            with pruning, the values of moves that were not the best may be
            upper bounds (alpha-beta cut them off).

    Raises:
        ValueError: bad options (here); from :meth:`choose`, a game over,
            or a game with simultaneous moves, hidden information, or no
            evaluation when no ``evaluate`` is given.
    """

    WIN = WIN

    def __init__(self, depth: int | None = 3, time: float | None = None, seed: int | None = None,
                 tie_break: str = "first", evaluate: Callable[[Game, int], float] | None = None,
                 prune: bool = True) -> None:
        super().__init__(depth, time, seed, tie_break, evaluate)
        self.prune = bool(prune)

    @property
    def name(self) -> str:
        base = super().name
        return base if self.prune else base[:-1] + ", no pruning)"

    def reset(self) -> None:
        super().reset()
        self.last_value = 0.0

    def choose(self, game: Game) -> Any:
        """The paranoid choice for :attr:`Game.current_player`; ``game`` is not changed.

        Raises:
            ValueError: if the game is over, or not a game this agent plays.
        """
        work, me, moves, _ = self._prepare(game)
        self._me = me
        max_depth = self.depth if self.depth is not None else _MAX_DEPTH
        best = moves[0]
        self.last_depth = 0
        for d in range(1, max_depth + 1):
            self._check_time = d > 1
            self._tt: dict[Any, tuple[int, float, int]] = {}
            try:
                alpha = -math.inf
                stats: list[tuple[Any, float]] = []
                best_d, best_v = moves[0], -math.inf
                for m in moves:
                    v = self._child(work, m, d, alpha, math.inf)
                    stats.append((m, v))
                    if v > best_v:  # strict: a tie keeps the first
                        best_d, best_v = m, v
                        if self.prune:
                            alpha = v
            except _Timeout:
                break
            finally:
                self._tt = {}
            best = best_d
            self.last_value, self.last_depth = best_v, d
            self.last_stats = [(str(m), v) for m, v in stats]
            if self._deadline is not None and _time.perf_counter() >= self._deadline:
                break
        self.last_nodes = self._nodes
        return best

    def value(self, game: Game, depth: int | None = None) -> float:
        """The paranoid value of ``game``'s position for the player to move
        there, searched ``depth`` plies (default :attr:`depth`); ``game`` is
        not changed.

        Raises:
            ValueError: as :meth:`choose`.
        """
        work, me, _, _ = self._prepare(game)
        self._me = me
        self._check_time, self._deadline, self._tt = False, None, {}
        try:
            return self._search(work, depth if depth is not None else (self.depth or 1), -math.inf, math.inf)
        finally:
            self._tt = {}

    def _child(self, g: Any, move: Any, depth: int, alpha: float, beta: float) -> float:
        g.play(move)
        try:
            return self._search(g, depth - 1, alpha, beta)
        finally:
            g.undo()

    def _search(self, g: Any, depth: int, alpha: float, beta: float) -> float:
        """The value for ``me`` of the position, ``depth`` plies deep (fail-soft alpha-beta)."""
        self._tick()
        p = g.current_player
        me = self._me
        if p is None:
            r = g.returns()[me]
            return float(r) * (WIN + depth + 1) if r else 0.0  # as AlphaBetaAgent
        if depth <= 0:
            return float(self._eval(g, me))
        prune = self.prune
        key = None
        if prune:
            key = g.position_key()
            entry = self._tt.get(key)
            if entry is not None and entry[0] == depth:
                _, val, flag = entry
                if flag == _EXACT or (flag == _LOWER and val >= beta) or (flag == _UPPER and val <= alpha):
                    return val
        alpha0, beta0 = alpha, beta
        maximise = p == me
        best = -math.inf if maximise else math.inf
        for m in self._moves(g):
            v = self._child(g, m, depth, alpha, beta)
            if maximise:
                if v > best:
                    best = v
                    if prune and v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if prune and v < beta:
                    beta = v
            if prune and alpha >= beta:
                break
        if prune:
            flag = _UPPER if best <= alpha0 else _LOWER if best >= beta0 else _EXACT
            if len(self._tt) >= _TT_LIMIT:
                self._tt.clear()
            self._tt[key] = (depth, best, flag)
        return best
