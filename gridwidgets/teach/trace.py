"""The traces: each search run on a copy of the game, recording what it does
as a list of events (frozen dataclasses), with no widget involved.

Sources:

- Minimax, presented as in S. Russell and P. Norvig, *Artificial
  Intelligence: A Modern Approach* (AIMA), chapter 5 ("Adversarial
  search"): every value is from the point of view of one player, the
  player to move at the root; a node where that player moves takes the
  largest value of its children (a *max* node), a node where the opponent
  moves the smallest (a *min* node).
- Alpha-beta pruning: D. E. Knuth and R. W. Moore (1975), "An Analysis of
  Alpha-Beta Pruning", *Artificial Intelligence* 6(4), pp. 293-326, in the
  max/min form of AIMA's ALPHA-BETA-SEARCH (section 5.3); the value a node
  returns is the best found ("fail-soft"), and Knuth and Moore's theorem
  says what it proves: ``v <= alpha``: the true value is at most ``v``;
  ``v >= beta``: at least ``v``; otherwise exactly ``v``.
- UCT: L. Kocsis and C. Szepesvári (2006), "Bandit based Monte-Carlo
  Planning", ECML 2006, LNCS 4212, pp. 282-293: the tree policy picks the
  child maximising ``mean + c * sqrt(ln N / n)`` (UCB1); the four steps of
  a simulation (selection, expansion, rollout, backup) and the final move
  by visits ("robust child") as in C. Browne et al. (2012), "A Survey of
  Monte Carlo Tree Search Methods", IEEE TCIAIG 4(1), sections 3.1 and
  3.3.3.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.game import Game

__all__ = [
    "DEFAULT_MAX_STEPS",
    "ChildStat",
    "MCTSEvent",
    "SearchEvent",
    "SearchTrace",
    "alphabeta_trace",
    "check_game",
    "mcts_trace",
    "minimax_trace",
    "squash",
]

#: the most events a trace records by default; the search stops there (and says so)
DEFAULT_MAX_STEPS = 20_000
#: the most events a trace may be asked to record
MAX_STEPS_LIMIT = 1_000_000


@dataclass(frozen=True)
class SearchEvent:
    """One step of a minimax or alpha-beta search.

    Every value is from the point of view of the root player (the player to
    move in the position searched): ``+1`` a win, ``-1`` a loss, ``0`` a draw
    or shared win (the game's ``returns()``), and at a depth limit the
    game's evaluation squashed into ``(-1, 1)`` (:func:`squash`), so that a
    proven win always counts more than an estimate.

    Attributes:
        kind: ``"enter"`` (the search reaches a node that has moves),
            ``"leaf"`` (a finished game, or a node at the depth limit: its
            value is known at once), ``"cutoff"`` (alpha-beta: the node's
            remaining moves are pruned, named in ``pruned``) or
            ``"backup"`` (the node is done: its value goes up to its parent;
            the root's backup is the last event of a finished search).
        line: the moves (notation) from the root to the node; ``()`` is the root.
        value: the node's value: for ``"leaf"`` and ``"backup"`` the value
            passed up; for ``"cutoff"`` the value so far; ``None`` for ``"enter"``.
        alpha: alpha-beta only: the best value the root player is already
            sure of on the way to this node (at ``"enter"``, the window the
            node is searched with; at ``"backup"`` and ``"cutoff"``, the
            window after the node's own updates); ``None`` in minimax.
        beta: alpha-beta only: the best value the opponent is already sure
            of (the same moments as ``alpha``); ``None`` in minimax.
        player: the player to move at the node; ``None`` at a finished game.
        maximizing: True at a max node (the root player moves), False at a
            min node, ``None`` at a finished game.
        pruned: ``"cutoff"`` only: the moves not searched, in move order.
        bound: for ``"backup"``: ``"exact"``, or in alpha-beta ``"lower"``
            (the true value is at least ``value``) or ``"upper"`` (at most
            ``value``), by Knuth and Moore's theorem; ``"exact"`` for leaves.
        estimate: for a ``"leaf"`` at the depth limit, the game's evaluation
            before :func:`squash`; ``None`` otherwise.
        best: for ``"backup"``: the move of the node that gave its value
            (the first such, in move order); ``None`` otherwise.
    """

    kind: str
    line: tuple[str, ...]
    value: float | None = None
    alpha: float | None = None
    beta: float | None = None
    player: int | None = None
    maximizing: bool | None = None
    pruned: tuple[str, ...] = ()
    bound: str = "exact"
    estimate: float | None = None
    best: str | None = None

    @property
    def depth(self) -> int:
        """How many moves below the root the node is (``len(line)``)."""
        return len(self.line)

    @property
    def position(self) -> tuple[str, ...]:
        """The moves to play from the root to show this step on a board: ``line``."""
        return self.line


@dataclass(frozen=True)
class ChildStat:
    """The statistics of one move of the root in a Monte Carlo tree search.

    Attributes:
        move: the move's notation.
        visits: simulations that went through it.
        value: the mean return of those simulations for the root player
            (-1..1); ``None`` while it has no visits.
        uct: its UCT score at the root, ``value + c * sqrt(ln N / visits)``
            with ``N`` the root's visits; ``math.inf`` while untried (UCT
            tries every move once first).
    """

    move: str
    visits: int
    value: float | None
    uct: float


@dataclass(frozen=True)
class MCTSEvent:
    """One phase of one simulation of a Monte Carlo tree search (UCT).

    Attributes:
        kind: ``"select"`` (the tree policy walked from the root down to
            ``line``, a node with an untried move or a finished game),
            ``"expand"`` (the first untried move of that node, in move
            order, is added to the tree: ``line`` ends with it), ``"rollout"``
            (uniformly random moves from ``line`` to the end of the game,
            in ``playout``) or ``"backup"`` (the result is added to every
            node from the root to ``line``).
        line: the moves (notation) from the root to the node concerned.
        simulation: which simulation this is, from 1.
        value: ``"rollout"`` and ``"backup"``: the result of the simulation
            for the root player (+1, -1, or 0); ``None`` otherwise.
        returns: ``"rollout"`` and ``"backup"``: the result for every player
            (the game's ``returns()``); ``()`` otherwise.
        playout: ``"rollout"``: the random moves played after ``line``; ``()`` otherwise.
        root: the root's moves after this event (after the backup, the new
            statistics), in move order.
        root_visits: simulations finished after this event.
        player: ``"select"`` and ``"expand"``: the player to move at the
            node of ``line`` (``None`` at a finished game); ``None`` otherwise.
    """

    kind: str
    line: tuple[str, ...]
    simulation: int
    value: float | None = None
    returns: tuple[float, ...] = ()
    playout: tuple[str, ...] = ()
    root: tuple[ChildStat, ...] = ()
    root_visits: int = 0
    player: int | None = None

    @property
    def depth(self) -> int:
        """How many moves below the root the node is (``len(line)``)."""
        return len(self.line)

    @property
    def position(self) -> tuple[str, ...]:
        """The moves to play from the root to show this step on a board:
        ``line``, then for a rollout its random moves (the end of the game)."""
        return self.line + self.playout


@dataclass(frozen=True)
class SearchTrace:
    """A search recorded event by event (made by :func:`minimax_trace`,
    :func:`alphabeta_trace` or :func:`mcts_trace`).

    Attributes:
        algorithm: ``"minimax"``, ``"alphabeta"`` or ``"mcts"``.
        events: the events, in the order the search made them.
        player: the root player: every value is from this player's point of view.
        moves: the root's moves (notation), in the order searched.
        value: the root's value for :attr:`player` (MCTS: the mean result of
            the best move); ``None`` if the step cap stopped a minimax or
            alpha-beta search before the end.
        best_move: the root move chosen (minimax, alpha-beta: the first move
            with the root's value; MCTS: the most visited, then the higher
            mean); ``None`` if the cap stopped the search first.
        capped: True if the search stopped at ``max_steps`` events before its end.
        max_steps: the cap on the number of events.
        options: the search's options (``depth``, ``c``, ``seed``, ``simulations``).
        game: a private copy of the position searched (never the caller's game).
    """

    algorithm: str
    events: tuple[SearchEvent | MCTSEvent, ...]
    player: int
    moves: tuple[str, ...]
    value: float | None
    best_move: str | None
    capped: bool
    max_steps: int
    options: dict[str, Any] = field(default_factory=dict, compare=False)
    game: Game | None = field(default=None, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.events)

    @property
    def leaves(self) -> int:
        """How many leaves the search evaluated (``"leaf"`` events; MCTS: rollouts)."""
        kind = "rollout" if self.algorithm == "mcts" else "leaf"
        return sum(1 for e in self.events if e.kind == kind)

    @property
    def complete(self) -> bool:
        """True if the search ran to its end (not stopped by the cap)."""
        return not self.capped


class _Capped(Exception):
    """The trace reached its cap of events."""


def squash(x: float) -> float:
    """An evaluation mapped into ``(-1, 1)``, keeping its order: ``x / (1 + |x|)``.

    At a depth limit the traces use the game's evaluation squashed, so that a
    finished game (+1 or -1) always counts more than any estimate, and the
    order of estimates, which is all minimax uses, is the evaluation's.

    Args:
        x: an evaluation (any real number).

    Returns:
        A number in ``(-1, 1)``: 0 stays 0, 1 becomes 0.5, 3 becomes 0.75.
    """
    return x / (1.0 + abs(x))


def check_game(game: Any) -> None:
    """Refuse a game the search steppers cannot search.

    Args:
        game: what was given.

    Raises:
        TypeError: if ``game`` is not a game object.
        ValueError: if the game is not two-player, sequential, zero-sum and
            of perfect information (as its ``game_type`` declares), or is over.
    """
    from ..core.gametype import why_unsolvable

    if not isinstance(game, Game):
        raise TypeError(f"expected a game object, got {type(game).__name__}")
    why = why_unsolvable(game)
    if why:
        raise ValueError(f"the search steppers take two-player, sequential, zero-sum games of perfect "
                         f"information; this game {why}")
    if game.current_player is None or not game.search_moves():
        raise ValueError("the game is over: there is nothing to search")


def _check_int(name: str, value: Any, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        top = f" to {high:,}" if high is not None else " or more"
        raise ValueError(f"{name} must be a whole number from {low}{top}, got {str(value)[:30]!r}")
    return int(value)


def _evaluator(game: Game, depth: int | None,
               evaluate: Callable[[Game, int], float] | None) -> Callable[[Game, int], float] | None:
    if depth is None:
        return None
    if evaluate is not None:
        if not callable(evaluate):
            raise TypeError("evaluate must be a function evaluate(game, player) -> float")
        return evaluate
    if game.evaluate(game.current_player) is None:  # type: ignore[arg-type]
        raise ValueError("this game has no evaluation of its own (its evaluate hook): search without a depth "
                         "limit, or pass evaluate=")
    return lambda g, p: float(g.evaluate(p))  # type: ignore[arg-type]


class _Tree:
    """The depth-first searches (minimax and alpha-beta) on one copy of the game."""

    def __init__(self, game: Game, depth: int | None, max_steps: int,
                 evaluate: Callable[[Game, int], float] | None) -> None:
        self.work = game.copy()
        self.me = game.current_player
        self.depth = depth
        self.max_steps = max_steps
        self.evaluate = evaluate
        self.events: list[SearchEvent] = []

    def emit(self, event: SearchEvent) -> None:
        if len(self.events) >= self.max_steps:
            raise _Capped
        self.events.append(event)

    def leaf(self, line: tuple[str, ...], alpha: float | None, beta: float | None) -> float | None:
        """The leaf event of the node of ``line`` if it is one (its value), else ``None``."""
        w = self.work
        p = w.current_player
        if p is None:
            value = float(w.returns()[self.me])  # type: ignore[index]
            self.emit(SearchEvent("leaf", line, value, alpha, beta))
            return value
        if self.depth is not None and len(line) >= self.depth:
            assert self.evaluate is not None
            raw = float(self.evaluate(w, self.me))  # type: ignore[arg-type]
            value = squash(raw)
            self.emit(SearchEvent("leaf", line, value, alpha, beta, p, p == self.me, estimate=raw))
            return value
        return None

    def minimax(self, line: tuple[str, ...]) -> float:
        value = self.leaf(line, None, None)
        if value is not None:
            return value
        w = self.work
        p = w.current_player
        maxing = p == self.me
        self.emit(SearchEvent("enter", line, None, None, None, p, maxing))
        best: float | None = None
        best_move = None
        for m in w.search_moves():
            s = str(m)
            w.play(m)
            try:
                v = self.minimax((*line, s))
            finally:
                w.undo()
            if best is None or (v > best if maxing else v < best):
                best, best_move = v, s
        assert best is not None
        self.emit(SearchEvent("backup", line, best, None, None, p, maxing, best=best_move))
        return best

    def alphabeta(self, line: tuple[str, ...], alpha: float, beta: float) -> float:
        value = self.leaf(line, alpha, beta)
        if value is not None:
            return value
        w = self.work
        p = w.current_player
        maxing = p == self.me
        alpha0, beta0 = alpha, beta
        self.emit(SearchEvent("enter", line, None, alpha, beta, p, maxing))
        moves = w.search_moves()
        v = -math.inf if maxing else math.inf
        best_move = None
        for k, m in enumerate(moves):
            s = str(m)
            w.play(m)
            try:
                cv = self.alphabeta((*line, s), alpha, beta)
            finally:
                w.undo()
            if maxing:
                if cv > v:
                    v, best_move = cv, s
                cut = v >= beta
                if not cut:
                    alpha = max(alpha, v)
            else:
                if cv < v:
                    v, best_move = cv, s
                cut = v <= alpha
                if not cut:
                    beta = min(beta, v)
            if cut:
                rest = tuple(str(x) for x in moves[k + 1 :])
                if rest:
                    self.emit(SearchEvent("cutoff", line, v, alpha, beta, p, maxing, pruned=rest))
                break
        bound = "upper" if v <= alpha0 else "lower" if v >= beta0 else "exact"
        self.emit(SearchEvent("backup", line, v, alpha, beta, p, maxing, bound=bound, best=best_move))
        return v


def _depth_first(algorithm: str, game: Game, depth: int | None, max_steps: int,
                 evaluate: Callable[[Game, int], float] | None) -> SearchTrace:
    check_game(game)
    if depth is not None:
        depth = _check_int("depth", depth, 1)
    max_steps = _check_int("max_steps", max_steps, 1, MAX_STEPS_LIMIT)
    ev = _evaluator(game, depth, evaluate)
    tree = _Tree(game, depth, max_steps, ev)
    capped = False
    try:
        if algorithm == "minimax":
            tree.minimax(())
        else:
            tree.alphabeta((), -math.inf, math.inf)
    except _Capped:
        capped = True
    events = tuple(tree.events)
    value = best = None
    if not capped:
        last = events[-1]
        value, best = last.value, last.best
    me = game.current_player
    assert me is not None
    return SearchTrace(algorithm, events, me, tuple(str(m) for m in game.search_moves()), value, best, capped,
                       max_steps, {"depth": depth}, game.copy())


def minimax_trace(game: Game, depth: int | None = None, *, max_steps: int = DEFAULT_MAX_STEPS,
                  evaluate: Callable[[Game, int], float] | None = None) -> SearchTrace:
    """Run plain minimax on a copy of ``game`` and record every step.

    Values are from the root player's point of view (AIMA, chapter 5): a
    max node (the root player to move) takes the largest child value, a min
    node the smallest. The moves of each node are searched in the order of
    the game's ``search_moves()`` (its ``legal_moves()`` unless the game
    narrows them). Each node with moves gives an ``"enter"`` event, then
    its children's events, then a ``"backup"``; a finished game or a node at
    the depth limit gives one ``"leaf"`` event.

    Args:
        game: a position of a two-player, sequential, zero-sum game of
            perfect information, not over; it is not changed.
        depth: the depth limit in moves, or ``None`` (the default) to search
            to the end of every game. At the limit the value is the game's
            evaluation for the root player, squashed into (-1, 1) (:func:`squash`).
        max_steps: the most events to record: the search stops there
            (``capped``), so a big tree never hangs the notebook.
        evaluate: ``evaluate(game, player) -> float``, used at the depth
            limit instead of the game's own evaluation hook.

    Returns:
        The :class:`SearchTrace`.

    Raises:
        TypeError: if ``game`` is not a game.
        ValueError: for a game of another kind, a game over, a bad ``depth``
            or ``max_steps``, or a depth limit without any evaluation.
    """
    return _depth_first("minimax", game, depth, max_steps, evaluate)


def alphabeta_trace(game: Game, depth: int | None = None, *, max_steps: int = DEFAULT_MAX_STEPS,
                    evaluate: Callable[[Game, int], float] | None = None) -> SearchTrace:
    """Run minimax with alpha-beta pruning (Knuth and Moore 1975) on a copy
    of ``game`` and record every step.

    The same search as :func:`minimax_trace`, in the same move order, with
    a window ``(alpha, beta)``: alpha is the value the root player is sure
    of on the path so far, beta the value the opponent is sure of. A max
    node whose value reaches beta, or a min node whose value falls to
    alpha, cannot change the result: its remaining moves are pruned (a
    ``"cutoff"`` event naming them). Each ``"backup"`` says whether its
    value is exact or a bound (Knuth and Moore's theorem).

    Args:
        game: a position of a two-player, sequential, zero-sum game of
            perfect information, not over; it is not changed.
        depth: the depth limit in moves, or ``None`` (the default): to the end.
        max_steps: the most events to record (the search stops there, ``capped``).
        evaluate: ``evaluate(game, player) -> float`` at the depth limit,
            instead of the game's own evaluation hook.

    Returns:
        The :class:`SearchTrace`.

    Raises:
        TypeError: if ``game`` is not a game.
        ValueError: for a game of another kind, a game over, a bad ``depth``
            or ``max_steps``, or a depth limit without any evaluation.
    """
    return _depth_first("alphabeta", game, depth, max_steps, evaluate)


class _MNode:
    """A node of the Monte Carlo tree."""

    __slots__ = ("children", "mover", "n", "player", "returns", "untried", "w")

    def __init__(self, game: Game, mover: int | None) -> None:
        self.mover = mover  # who moved into this node: its statistics are that player's
        self.player = game.current_player
        self.returns = game.returns() if self.player is None else None
        self.untried = [] if self.player is None else list(game.search_moves())
        self.untried.reverse()  # popped from the end: the first move of search_moves first
        self.children: dict[str, _MNode] = {}
        self.n = 0
        self.w = 0.0


def _root_stats(root: _MNode, moves: tuple[str, ...], c: float) -> tuple[ChildStat, ...]:
    out = []
    for s in moves:
        ch = root.children.get(s)
        if ch is None or ch.n == 0:
            out.append(ChildStat(s, 0, None, math.inf))
        else:
            mean = ch.w / ch.n
            out.append(ChildStat(s, ch.n, mean, mean + c * math.sqrt(math.log(root.n) / ch.n)))
    return tuple(out)


def mcts_trace(game: Game, simulations: int = 200, *, c: float = 1.4, seed: int | None = 0,
               max_steps: int = DEFAULT_MAX_STEPS) -> SearchTrace:
    """Run Monte Carlo tree search with UCT (Kocsis and Szepesvári 2006) on a
    copy of ``game`` and record every phase of every simulation.

    Each simulation walks down the tree from the root by UCB1 (a node's
    untried moves first, in move order; then the child with the highest
    ``mean + c * sqrt(ln N / n)``, where the mean is that of the player who
    moves at the node: ``"select"``), adds one node (``"expand"``), plays
    uniformly random moves to the end (``"rollout"``), and adds the result
    to every node of its path (``"backup"``); a simulation that reaches a
    finished game adds no node. Each tree node keeps the mean result of the
    player who moved into it; the root's moves are thus scored for the
    root player.

    Args:
        game: a position of a two-player, sequential, zero-sum game of
            perfect information, not over; it is not changed.
        simulations: how many simulations.
        c: the exploration constant of UCB1 (results lie in -1..1).
        seed: seeds the rollouts: the same seed gives the same trace.
            ``None``: an unseeded stream.
        max_steps: the most events to record: the search stops before a
            simulation that would pass it (``capped``).

    Returns:
        The :class:`SearchTrace`: ``value`` is the mean result of the most
        visited root move, ``best_move`` that move.

    Raises:
        TypeError: if ``game`` is not a game.
        ValueError: for a game of another kind, a game over, or a bad
            ``simulations``, ``c`` or ``max_steps``.
    """
    check_game(game)
    simulations = _check_int("simulations", simulations, 1, MAX_STEPS_LIMIT)
    max_steps = _check_int("max_steps", max_steps, 4, MAX_STEPS_LIMIT)
    if isinstance(c, bool) or not isinstance(c, (int, float)) or not 0 <= c < math.inf:
        raise ValueError(f"c must be a number from 0 up, got {str(c)[:30]!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(f"seed must be an int or None, got {type(seed).__name__}")
    c = float(c)
    rng = random.Random(seed)
    work = game.copy()
    me = game.current_player
    assert me is not None
    moves = tuple(str(m) for m in game.search_moves())
    root = _MNode(work, None)
    events: list[MCTSEvent] = []
    stats = _root_stats(root, moves, c)
    start = work.step_count
    capped = False
    done = 0
    for sim in range(1, simulations + 1):
        if len(events) + 4 > max_steps:
            capped = True
            break
        node, line, path = root, (), [root]
        try:
            # 1. selection: down through fully expanded nodes by UCB1
            while node.player is not None and not node.untried:
                logn = math.log(node.n)
                best_s, best_u = "", -math.inf
                for s, ch in node.children.items():
                    u = ch.w / ch.n + c * math.sqrt(logn / ch.n)
                    if u > best_u:
                        best_s, best_u = s, u
                work.play(best_s)
                node = node.children[best_s]
                line = (*line, best_s)
                path.append(node)
            events.append(MCTSEvent("select", line, sim, root=stats, root_visits=done, player=node.player))
            # 2. expansion: the first untried move
            if node.player is not None:
                move = node.untried.pop()
                s = str(move)
                mover = work.current_player
                work.play(move)
                child = _MNode(work, mover)
                node.children[s] = child
                node, line = child, (*line, s)
                path.append(node)
                events.append(MCTSEvent("expand", line, sim, root=stats, root_visits=done, player=child.player))
            # 3. rollout: uniformly random moves to the end
            playout = []
            while work.current_player is not None:
                options = work.search_moves()
                m = options[rng.randrange(len(options))]
                playout.append(str(m))
                work.play(m)
            returns = tuple(float(r) for r in work.returns())
        finally:
            while work.step_count > start:
                work.undo()
        value = returns[me]
        events.append(MCTSEvent("rollout", line, sim, value, returns, tuple(playout), stats, done))
        # 4. backup
        for nd in path:
            nd.n += 1
            if nd.mover is not None:
                nd.w += returns[nd.mover]
        done = sim
        stats = _root_stats(root, moves, c)
        events.append(MCTSEvent("backup", line, sim, value, returns, (), stats, done))
    value = best = None
    if done:
        top = max(stats, key=lambda st: (st.visits, st.value if st.value is not None else -math.inf))
        best, value = top.move, top.value
    return SearchTrace("mcts", tuple(events), me, moves, value, best, capped, max_steps,
                       {"simulations": simulations, "c": c, "seed": seed}, game.copy())
