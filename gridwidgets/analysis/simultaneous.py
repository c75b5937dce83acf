"""Exact subgame-perfect solutions of two-player zero-sum games with
simultaneous moves (stacked matrix games), for any game of the protocol.

A game whose simultaneous nodes collect one hidden choice from each player
and then reveal both (a *multistage game with observed actions*: a
bid both players make in secret, the guide's *Claim*) is solved by **backward induction** with a
**matrix game at every simultaneous node**: the entry of a joint action is the
value of the subgame it leads to, and the node's value is the value of that
matrix game, solved exactly as a linear program (von Neumann's minimax
theorem; the LP of :func:`gridwidgets.analysis.equilibrium`). This is
Shapley's recursion for stochastic games (L. S. Shapley, "Stochastic games",
*PNAS* 39, 1953) on a game that ends, and what it computes is a subgame-perfect
equilibrium in behaviour strategies: an equilibrium mix at every simultaneous
node, a best move at every sequential node, on and off the path of play
(Osborne & Rubinstein, *A Course in Game Theory*, 1994, section 6.3, games
with perfect information and simultaneous moves). Sequential nodes in between
(say, placing what a bid won) are max or min nodes.

Speed-ups, none of which changes the result:

- a transposition table keyed by the game's exact
  :meth:`~gridwidgets.core.Game.position_key` (positions reached by different
  histories share one entry: the rest of the game and its payoffs depend on
  the position only);
- alpha-beta pruning at sequential nodes (Knuth & Moore 1975), and at
  simultaneous nodes the pruning of Saffidine, Finnsson & Buro ("Alpha-Beta
  Pruning for Games with Simultaneous Moves", AAAI 2012, *SMAB*): each
  joint action's value is bracketed by a pessimistic and an optimistic bound;
  before a joint action (a, b) is searched, two linear programs give the
  value below which row ``a`` would be dominated by a mix of the other rows
  (or by the window's lower bound ``alpha``, an option the first player has
  elsewhere) and the value above which column ``b`` would be dominated, and the
  subgame is searched with that narrower window; a dominated row or column
  is dropped (removing a weakly dominated strategy keeps the value of a
  zero-sum game, and an equilibrium of what is left is one of the whole).
  The LPs cost time, so they are used where the subgames searched so far at
  the node were large (``lp_threshold`` positions on average); elsewhere the
  bounds come from pure strategies only (the cheap half of the same test);
- a node's value is clamped to the window (fail-hard) when the window is
  narrower than the payoffs.

Payoffs are the first player's share of the returns, ``(r0 - r1) / 2``
(equal to ``returns()[0]`` in a zero-sum game: +1 a win, -1 a loss, 0 a
draw), so values lie in the returns' range. Games with more than two
players, general-sum returns, chance after the setup, or hidden
information other than submissions waiting for the reveal are refused.
"""

from __future__ import annotations

import math
import random
import sys
import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..agents.base import Agent
from ..agents.smmcts import check_two_player_zero_sum, is_joint_node, why_not_two_player_zero_sum
from ..core.errors import shorten
from ..core.game import Game
from .equilibrium import PROB_EPS, before_submissions
from .solve import CHECK_EVERY, Budget, SolveBudgetExceeded, stop_watch

__all__ = ["SimultaneousNode", "SubgamePerfectAgent", "SubgamePerfectSolution", "solve_simultaneous",
           "why_not_stacked"]

#: values closer than this count as equal (the LP solver's tolerance is about 1e-9)
EPS = 1e-9
#: the default ``lp_threshold``: LP bounds at a simultaneous node once its
#: subgames searched so far averaged this many positions
LP_THRESHOLD = 32
#: past this many positions the transposition table is emptied (it only speeds the search up)
_TABLE_MAX = 4_000_000

_EXACT, _LOWER, _UPPER = 0, 1, 2


@dataclass
class SimultaneousNode:
    """The matrix game at one simultaneous node, solved exactly.

    Attributes:
        rows: the first player's choices in notation (``legal_moves(0)``, in that order).
        cols: the second player's choices (``legal_moves(1)``).
        value: the node's value for the first player under subgame-perfect play
            (the value of the matrix game whose entries are the subgames' values).
        x: the first player's equilibrium mix, a ``float`` array of ``len(rows)``
            probabilities (0 for a choice pruned as dominated).
        y: the second player's equilibrium mix, ``len(cols)`` probabilities.
        lower, upper: ``float`` arrays ``(len(rows), len(cols))``: bounds on each
            joint action's value; equal where the search valued it exactly. A
            joint action whose row or column was pruned as dominated keeps the
            bounds the search had when it pruned it (at worst the payoffs' range).
        players: the two players' names.
    """

    rows: list[str]
    cols: list[str]
    value: float
    x: np.ndarray
    y: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    players: tuple[str, str] = ("player 0", "player 1")

    @property
    def exact(self) -> np.ndarray:
        """``bool`` array ``(len(rows), len(cols))``: True where the joint action's value is known exactly."""
        return np.abs(self.upper - self.lower) <= EPS

    @property
    def matrix(self) -> np.ndarray:
        """The joint actions' values, ``NaN`` where only bounds are known (pruned)."""
        out = np.where(self.exact, self.lower, np.nan)
        return out

    def mix(self, player: int) -> dict[str, float]:
        """``player``'s equilibrium mix as ``{choice: probability}`` (choices with probability 0 left out).

        Raises:
            ValueError: for a player other than 0 or 1.
        """
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {shorten(player, 12)}")
        labels, probs = (self.rows, self.x) if player == 0 else (self.cols, self.y)
        return {lab: float(p) for lab, p in zip(labels, probs, strict=True) if p > PROB_EPS}

    def stage_game(self, title: str = "") -> Any:
        """This node's matrix game as a :class:`~gridwidgets.analysis.StageGame`
        (zero-sum; player 0's payoffs the exact values of the joint actions):
        normal and extensive form, Gambit files, ``explore()``, ``play_against()``.

        Raises:
            ValueError: if some joint action was pruned (only bounds are known:
                solve with ``root_matrix=True`` or ``prune=False``).
        """
        if not bool(self.exact.all()):
            raise ValueError("some joint actions of this node were pruned (only bounds are known): "
                             "solve_simultaneous(..., root_matrix=True) values every one")
        from .stage import stage_game

        return stage_game(self.lower, rows=self.rows, cols=self.cols, players=self.players,
                          title=title or f"subgame-perfect stage: value {self.value:+.3f} for {self.players[0]}")

    def exploitability(self, mix: Any, player: int) -> float:
        """What ``player``'s mix at this node gives away against a best reply,
        the subgames then played perfectly: the node's value minus what the mix
        guarantees (for the second player, what it concedes minus the value).

        Args:
            mix: ``{choice: probability}`` or a sequence of probabilities in
                the order of :attr:`rows` / :attr:`cols` (summing to 1).
            player: 0 or 1.

        Returns:
            A ``float >= 0`` in payoff units; 0 for an equilibrium mix.

        Raises:
            ValueError: for a bad mix, a player other than 0 or 1, or a node
                some of whose joint actions were pruned (only bounds known:
                solve with ``root_matrix=True`` for the root's whole matrix).
        """
        return self.stage_game().exploitability(mix, player)

    def __repr__(self) -> str:
        def show(d: dict[str, float]) -> str:
            return ", ".join(f"{k} {p:.3f}" for k, p in d.items())

        return (f"<SimultaneousNode {len(self.rows)}x{len(self.cols)}: value {self.value:+.4f}; "
                f"{self.players[0]} {show(self.mix(0))}; {self.players[1]} {show(self.mix(1))}>")


@dataclass
class SubgamePerfectSolution:
    """The result of :func:`solve_simultaneous`.

    Attributes:
        value: the position's value for player 0 under subgame-perfect play: the
            expected ``(r0 - r1) / 2`` (in a zero-sum game, player 0's expected
            return: +1 a sure win, -1 a sure loss). Exact up to the LP
            solver's tolerance (about 1e-9).
        root: the matrix game at the position if it is a simultaneous node
            (a :class:`SimultaneousNode`), else ``None``.
        move_values: at a sequential root, ``{move: value for player 0}`` of
            every legal move (searched with the full window: exact); ``{}`` otherwise.
        best_moves: at a sequential root, the moves achieving the mover's best value.
        nodes: positions searched.
        lps: linear programs solved (node values and pruning bounds).
        seconds: wall time.
        nodes_solved: ``{position key: SimultaneousNode}`` for every simultaneous
            node whose value the search found exactly (nodes seen only with a
            narrow window have bounds, not a mix: :meth:`node` solves them).
        game: the game's registry name.
    """

    value: float
    root: SimultaneousNode | None
    move_values: dict[str, float]
    best_moves: list[str]
    nodes: int
    lps: int
    seconds: float
    nodes_solved: dict[Any, SimultaneousNode]
    game: str
    details: dict[str, Any] = field(default_factory=dict)
    _search: Any = field(default=None, repr=False, compare=False)
    _start: Any = field(default=None, repr=False, compare=False)

    @property
    def winner(self) -> int | None:
        """0 or 1 if that player wins for sure under subgame-perfect play, else ``None``."""
        if self.value >= 1 - 1e-7:
            return 0
        if self.value <= -1 + 1e-7:
            return 1
        return None

    def node(self, game: Game) -> SimultaneousNode:
        """The equilibrium of the matrix game at ``game``'s position (a
        simultaneous node of the solved game or of a position after it),
        solved now if the search only bounded it; it shares this solution's
        transposition table.

        Raises:
            ValueError: if ``game`` is not at a simultaneous node.
            SolveBudgetExceeded: past the solve's own budget (a fresh one of the same size).
        """
        work = before_submissions(game)
        if not is_joint_node(work):
            raise ValueError("the position is not a simultaneous node (both players choosing at once)")
        key = work.position_key()
        hit = self.nodes_solved.get(key)
        if hit is not None:
            return hit
        search = self._search
        search.budget = Budget(search.budget.time_limit, search.budget.max_nodes, False, "solve", 1)
        search.run(work)
        return self.nodes_solved[key]

    def line(self, max_steps: int = 200) -> list[tuple[str, Any]]:
        """The principal line: from the solved position, at each simultaneous
        node the joint action of each player's most probable choice in the
        equilibrium (its probability beside it), at each sequential node the
        mover's first best move, until the game ends.

        Returns:
            A list of ``(notation, detail)``: for a joint action
            ``("IT + LZ", (p_x, p_o))`` (each choice's equilibrium
            probability), for a move ``("T:B2,C2,D2,C3", value)`` (the
            position's value for player 0, which the move keeps). Moves the rules make by themselves are not listed.
        """
        work = self._start.copy()
        out: list[tuple[str, Any]] = []
        for _ in range(max_steps):
            if work.is_over:
                break
            if is_joint_node(work):
                node = self.node(work)
                i, j = int(np.argmax(node.x)), int(np.argmax(node.y))
                a, b = work.legal_moves(0)[i], work.legal_moves(1)[j]
                work.play(a, player=0)
                work.play(b, player=1)
                out.append((f"{a} + {b}", (float(node.x[i]), float(node.y[j]))))
            else:
                move, v = self._search.best_move(work)
                work.play(move)
                out.append((str(move), v))
        return out

    def __str__(self) -> str:
        head = f"{self.game}: value {self.value:+.6f} for player 0 under subgame-perfect play"
        if self.root is not None:
            mixes = "; ".join(
                f"{self.root.players[p]} " + ", ".join(f"{k} {q:.3f}" for k, q in self.root.mix(p).items())
                for p in (0, 1))
            head += f"; at the root: {mixes}"
        elif self.best_moves:
            head += f"; best moves: {', '.join(self.best_moves)}"
        return head + f" ({self.nodes:,} positions, {self.lps:,} LPs, {self.seconds:.2f} s)"


def _takes_player(agent: Agent) -> bool:
    """Whether ``agent.choose`` takes a ``player=`` keyword."""
    import inspect

    try:
        return "player" in inspect.signature(agent.choose).parameters
    except (TypeError, ValueError):  # pragma: no cover - a builtin or odd callable
        return False


def why_not_stacked(game: Game) -> str:
    """Why :func:`solve_simultaneous` does not apply to ``game`` (from its
    :class:`~gridwidgets.core.gametype.GameType`), or ``""`` when it does: the
    games SM-MCTS takes (:func:`gridwidgets.agents.smmcts.why_not_two_player_zero_sum`)."""
    return why_not_two_player_zero_sum(game)


class _Search:
    """One solve's state: the work copy, the transposition table, the counters."""

    def __init__(self, game: Game, prune: bool, lp_threshold: int, budget: Budget, ordering: bool = True) -> None:
        self.work = game.copy()
        self.prune = prune
        self.ordering = ordering
        self.lp_threshold = lp_threshold
        self.budget = budget
        info = game.game_info
        self.lo = float(info.min_utility)
        self.hi = float(info.max_utility)
        self.table: dict[Any, tuple[float, float]] = {}
        self.best: dict[Any, int] = {}  # sequential nodes solved exactly: index of a best move
        self.solved: dict[Any, SimultaneousNode] = {}
        self.nodes = 0
        self.lps = 0
        self.players = (str(game.players[0]), str(game.players[1]))
        self.root_key: Any = None
        self.root_matrix = False

    # -- the payoff of a finished game --------------------------------------
    def payoff(self) -> float:
        r = self.work.returns()
        return (float(r[0]) - float(r[1])) / 2.0

    def tick(self) -> None:
        self.nodes += 1
        if not self.nodes & (CHECK_EVERY - 1):
            self.budget.check(self.nodes)
            if len(self.table) > _TABLE_MAX:
                self.table.clear()
                self.best.clear()

    # -- the search --------------------------------------------------------------
    def value(self, alpha: float, beta: float) -> float:
        """The value of the work position for player 0, fail-hard at simultaneous
        nodes and fail-soft at sequential ones: a result ``r <= alpha`` means the
        value is at most ``r``; ``r >= beta``, at least ``r``; else it is ``r``."""
        w = self.work
        self.tick()
        if w.current_player is None:
            return self.payoff()
        key = w.position_key()
        hit = self.table.get(key)
        if hit is not None:
            lo, hi = hit
            if lo >= beta - EPS:
                return lo
            if hi <= alpha + EPS:
                return hi
            if hi - lo <= EPS:
                return lo
            alpha, beta = max(alpha, lo), min(beta, hi)
        if is_joint_node(w):
            r = self.joint(key, alpha, beta)
        else:
            r = self.sequential(key, alpha, beta)
        self.store(key, r, alpha, beta)
        return r

    def store(self, key: Any, r: float, alpha: float, beta: float) -> None:
        lo, hi = self.table.get(key, (self.lo, self.hi))
        if r <= alpha + EPS:
            hi = min(hi, r)
        elif r >= beta - EPS:
            lo = max(lo, r)
        else:
            lo = hi = r
        if r >= self.hi - EPS:
            lo = hi = self.hi
        elif r <= self.lo + EPS:
            lo = hi = self.lo
        self.table[key] = (lo, hi)

    def exact(self, key: Any) -> bool:
        hit = self.table.get(key)
        return hit is not None and hit[1] - hit[0] <= EPS

    def child_move(self, move: Any, alpha: float, beta: float) -> float:
        self.work.play(move)
        try:
            return self.value(alpha, beta)
        finally:
            self.work.undo()

    def child_joint(self, a: Any, b: Any, alpha: float, beta: float) -> float:
        self.work.play(a, player=0)
        self.work.play(b, player=1)
        try:
            return self.value(alpha, beta)
        finally:
            self.work.undo()

    def sequential(self, key: Any, alpha: float, beta: float) -> float:
        w = self.work
        maximise = w.current_player == 0
        moves = w.search_moves()
        best, best_i = (-math.inf if maximise else math.inf), 0
        a, b = alpha, beta
        order = self.move_order(key, moves, maximise)
        for i in order:
            r = self.child_move(moves[i], a, b)
            if (r > best) if maximise else (r < best):
                best, best_i = r, i
            if maximise:
                a = max(a, best)
            else:
                b = min(b, best)
            if a >= b - EPS or (best >= self.hi - EPS if maximise else best <= self.lo + EPS):
                break
        if alpha + EPS < best < beta - EPS or best >= self.hi - EPS or best <= self.lo + EPS:
            self.best[key] = best_i
        return best

    def guess(self) -> float:
        """A heuristic value of the work position for player 0, for move ordering only:
        the payoff once the game is over (scaled far above any heuristic), else the
        game's ``evaluate(0)`` (0 if it has none)."""
        w = self.work
        if w.current_player is None:
            return self.payoff() * 1e9
        e = w.evaluate(0)
        return 0.0 if e is None else float(e)

    def move_order(self, key: Any, moves: list[Any], maximise: bool) -> list[int]:
        """The order to search ``moves`` in: a best move found before first, then
        by :meth:`guess` one move ahead, the mover's best first."""
        n = len(moves)
        if not self.ordering or n < 2:
            return list(range(n))
        scores = []
        for m in moves:
            self.work.play(m)
            try:
                scores.append(self.guess())
            finally:
                self.work.undo()
        order = sorted(range(n), key=lambda k: -scores[k] if maximise else scores[k])
        prev = self.best.get(key)
        if prev is not None and prev < n:
            order.remove(prev)
            order.insert(0, prev)
        return order

    def joint_order(self, rows: list[Any], cols: list[Any]) -> tuple[list[int], list[int]]:
        """The order to search a simultaneous node's joint actions in: player 0's
        choices by their worst :meth:`guess` (best first), player 1's by their best
        (for player 0; lowest first)."""
        m, n = len(rows), len(cols)
        if not self.ordering or m * n < 2:
            return list(range(m)), list(range(n))
        h = np.zeros((m, n))
        for i, a in enumerate(rows):
            for j, b in enumerate(cols):
                self.work.play(a, player=0)
                self.work.play(b, player=1)
                try:
                    h[i, j] = self.guess()
                finally:
                    self.work.undo()
        return (sorted(range(m), key=lambda i: -float(h[i].min())),
                sorted(range(n), key=lambda j: float(h[:, j].max())))

    # -- simultaneous nodes -------------------------------------------------------------
    def joint(self, key: Any, alpha: float, beta: float) -> float:
        w = self.work
        rows, cols = w.legal_moves(0), w.legal_moves(1)
        m, n = len(rows), len(cols)
        # the window as options: a row worth alpha (player 0's alternative elsewhere) and a
        # column worth beta (player 1's), only where the window is narrower than the payoffs
        va, vb = alpha > self.lo + EPS, beta < self.hi - EPS
        mm, nn = m + va, n + vb
        low = np.full((mm, nn), self.lo)
        up = np.full((mm, nn), self.hi)
        if va:
            low[m, :] = up[m, :] = alpha
        if vb:
            low[:, n] = up[:, n] = beta  # the corner (alpha row, beta column) is beta: see _row_bound
        alive_r = np.ones(mm, dtype=bool)
        alive_c = np.ones(nn, dtype=bool)
        spent = 0
        searched = 0
        row_order, col_order = self.joint_order(rows, cols)
        whole = self.root_matrix and key == self.root_key
        for i in row_order:
            for j in col_order:
                if not (alive_r[i] and alive_c[j]):
                    continue
                if up[i, j] - low[i, j] <= EPS:
                    continue
                lp = self.prune and searched and spent >= self.lp_threshold * searched
                if whole:  # every joint action of this node valued exactly (pruning only below it)
                    low[i, j] = up[i, j] = self.child_joint(rows[i], cols[j], self.lo, self.hi)
                    self.budget.root_move(f"{rows[i]} + {cols[j]}", 0, self.nodes)
                    continue
                if self.prune:
                    lo_ij = max(low[i, j], self._row_bound(low, up, alive_r, alive_c, i, j, m, n, lp))
                    hi_ij = min(up[i, j], self._col_bound(low, up, alive_r, alive_c, i, j, m, n, lp))
                else:
                    lo_ij, hi_ij = low[i, j], up[i, j]
                before = self.nodes
                row_known = lo_ij > low[i, j] + EPS  # the floor comes from a dominating mix of other rows
                col_known = hi_ij < up[i, j] - EPS
                if lo_ij < hi_ij - EPS:
                    r = self.child_joint(rows[i], cols[j], lo_ij, hi_ij)
                    if r <= lo_ij + EPS:
                        if row_known:  # value <= the floor: row i is dominated
                            up[i, j] = min(up[i, j], r)
                            alive_r[i] = False
                        else:  # the floor is the cell's own lower bound: the value is that bound
                            up[i, j] = low[i, j]
                    elif r >= hi_ij - EPS:
                        if col_known:
                            low[i, j] = max(low[i, j], r)
                            alive_c[j] = False
                        else:
                            low[i, j] = up[i, j]
                    else:
                        low[i, j] = up[i, j] = r
                elif not col_known:  # value <= up = hi <= lo: row i is dominated, no search needed
                    alive_r[i] = False
                elif not row_known:  # value >= low = lo >= hi: column j is dominated
                    alive_c[j] = False
                else:
                    # row i or column j is dominated whatever the value: search to find out which
                    mid = 0.5 * (lo_ij + hi_ij)
                    r = self.child_joint(rows[i], cols[j], mid - 1e-6, mid + 1e-6)
                    if r <= mid:
                        up[i, j] = min(up[i, j], r)
                        alive_r[i] = False
                    else:
                        low[i, j] = max(low[i, j], r)
                        alive_c[j] = False
                spent += self.nodes - before
                searched += 1
                if key == self.root_key:
                    self.budget.root_move(f"{rows[i]} + {cols[j]}", 0, self.nodes)
                # cut-offs: player 0 already sure of beta, or player 1 sure of holding to alpha
                cut = None if whole else self._cutoff(low, up, alive_r, alive_c, m, n, alpha, beta)
                if cut is not None:
                    return cut
        return self._finish(key, rows, cols, low, up, alive_r, alive_c, m, n, va, vb, alpha, beta)

    def _cutoff(self, low: np.ndarray, up: np.ndarray, alive_r: np.ndarray, alive_c: np.ndarray,
                m: int, n: int, alpha: float, beta: float) -> float | None:
        r_idx = np.flatnonzero(alive_r[:m])
        c_idx = np.flatnonzero(alive_c[:n])
        if r_idx.size == 0:  # every choice of player 0 is worse than its alternative: value <= alpha
            return alpha
        if c_idx.size == 0:
            return beta
        if beta < self.hi - EPS:
            guaranteed = float(low[np.ix_(r_idx, c_idx)].min(axis=1).max())
            if guaranteed >= beta - EPS:
                return beta
        if alpha > self.lo + EPS:
            conceded = float(up[np.ix_(r_idx, c_idx)].max(axis=0).min())
            if conceded <= alpha + EPS:
                return alpha
        return None

    def _row_bound(self, low: np.ndarray, up: np.ndarray, alive_r: np.ndarray, alive_c: np.ndarray,
                   i: int, j: int, m: int, n: int, lp: bool) -> float:
        """The value of joint action (i, j) at or below which row ``i`` is weakly
        dominated by a mix of the other live rows (the alpha row among them):
        ``max x . low[:, j]`` subject to ``x . low[:, k] >= up[i, k]`` for every
        other live column ``k`` (the beta column needs no constraint: its entries,
        the corner too, are all beta). ``-inf`` if no mix dominates elsewhere."""
        others = np.flatnonzero(alive_r)
        others = others[others != i]
        if others.size == 0:
            return -math.inf
        cons = np.flatnonzero(alive_c[:n])
        cons = cons[cons != j]
        sub = low[np.ix_(others, cons)]
        need = up[i, cons]
        ok = np.all(sub >= need - EPS, axis=1) if cons.size else np.ones(others.size, dtype=bool)
        pure = float(low[others[ok], j].max()) if ok.any() else -math.inf
        if not lp or others.size < 2 or cons.size == 0:
            return pure
        from scipy.optimize import linprog

        self.lps += 1
        k = others.size
        res = linprog(-low[others, j], A_ub=-sub.T, b_ub=-need, A_eq=np.ones((1, k)), b_eq=[1.0],
                      bounds=[(0.0, None)] * k, method="highs")
        if res.status != 0:
            return pure
        return max(pure, float(-res.fun) - EPS)

    def _col_bound(self, low: np.ndarray, up: np.ndarray, alive_r: np.ndarray, alive_c: np.ndarray,
                   i: int, j: int, m: int, n: int, lp: bool) -> float:
        """The value of joint action (i, j) at or above which column ``j`` is
        weakly dominated by a mix of the other live columns: ``min up[i, :] . y``
        subject to ``up[k, :] . y <= low[k, j]`` for every other live row ``k``
        (the alpha row too, which keeps the beta column out of the mix while it
        lives). ``+inf`` if no mix dominates elsewhere."""
        others = np.flatnonzero(alive_c)
        others = others[others != j]
        if others.size == 0:
            return math.inf
        cons = np.flatnonzero(alive_r)
        cons = cons[cons != i]
        sub = up[np.ix_(cons, others)]
        need = low[cons, j]
        ok = np.all(sub <= need[:, None] + EPS, axis=0) if cons.size else np.ones(others.size, dtype=bool)
        pure = float(up[i, others[ok]].min()) if ok.any() else math.inf
        if not lp or others.size < 2 or cons.size == 0:
            return pure
        from scipy.optimize import linprog

        self.lps += 1
        k = others.size
        res = linprog(up[i, others], A_ub=sub, b_ub=need, A_eq=np.ones((1, k)), b_eq=[1.0],
                      bounds=[(0.0, None)] * k, method="highs")
        if res.status != 0:
            return pure
        return min(pure, float(res.fun) + EPS)

    def _finish(self, key: Any, rows: list[Any], cols: list[Any], low: np.ndarray, up: np.ndarray,
                alive_r: np.ndarray, alive_c: np.ndarray, m: int, n: int, va: bool, vb: bool,
                alpha: float, beta: float) -> float:
        """Every live joint action is valued: solve the live matrix game (with the window's options)."""
        r_idx = np.flatnonzero(alive_r)
        c_idx = np.flatnonzero(alive_c)
        if r_idx.size == 0 or not (r_idx < m).any():
            return alpha
        if c_idx.size == 0 or not (c_idx < n).any():
            return beta
        sub = low[np.ix_(r_idx, c_idx)]
        x_sub, y_sub, v = self._matrix_game(sub)
        if va and v <= alpha + EPS:
            return alpha
        if vb and v >= beta - EPS:
            return beta
        x = np.zeros(m)
        y = np.zeros(n)
        for k, r in enumerate(r_idx):
            if r < m:
                x[r] = x_sub[k]
        for k, c in enumerate(c_idx):
            if c < n:
                y[c] = y_sub[k]
        x, y = _normalised(x), _normalised(y)
        self.solved[key] = SimultaneousNode(
            rows=[str(r) for r in rows], cols=[str(c) for c in cols], value=v, x=x, y=y,
            lower=low[:m, :n].copy(), upper=up[:m, :n].copy(), players=self.players)
        return v

    def _matrix_game(self, a: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        """Both players' equilibrium mixes and the value of the zero-sum matrix ``a``."""
        m, n = a.shape
        if float(a.max() - a.min()) <= EPS:
            x, y = np.zeros(m), np.zeros(n)
            x[0], y[0] = 1.0, 1.0
            return x, y, float(a[0, 0])
        row_min = a.min(axis=1)
        col_max = a.max(axis=0)
        lower, upper = float(row_min.max()), float(col_max.min())
        if upper - lower <= EPS:  # a saddle point: pure strategies are enough
            x, y = np.zeros(m), np.zeros(n)
            x[int(np.argmax(row_min))] = 1.0
            y[int(np.argmin(col_max))] = 1.0
            return x, y, lower
        self.lps += 2
        x, v = _maxmin(a)
        y, _ = _maxmin(-a.T)
        return x, y, v

    # -- entry points ---------------------------------------------------------------------
    def run(self, game: Game) -> float:
        """Solve ``game``'s position exactly with the full window, reusing the
        table for what lies below it; at a simultaneous node its matrix game is
        solved afresh, so that its equilibrium is in :attr:`solved`."""
        self.work = before_submissions(game).copy()
        w = self.work
        if w.current_player is None:
            return self.payoff()
        key = w.position_key()
        if not is_joint_node(w):
            r = self.value(self.lo, self.hi)
            return r
        self.tick()
        r = self.joint(key, self.lo, self.hi)
        self.store(key, r, self.lo, self.hi)
        return r

    def best_move(self, game: Game) -> tuple[Any, float]:
        """A best move of the player to move at a sequential position and the
        position's exact value for player 0 (alpha-beta: only the move found
        best is valued exactly, the others just shown no better)."""
        self.work = game.copy()
        w = self.work
        v = self.value(self.lo, self.hi)
        moves = w.search_moves()
        key = w.position_key()
        i = self.best.get(key)
        if i is not None and i < len(moves):
            return moves[i], v
        maximise = w.current_player == 0
        for k in self.move_order(key, moves, maximise):  # a best move: the first whose value reaches v
            r = self.child_move(moves[k], v - 1e-6, v + 1e-6)
            if (r >= v - 1e-6) if maximise else (r <= v + 1e-6):
                return moves[k], v
        raise AssertionError("no move reaches the position's value")  # pragma: no cover

    def move_values(self, game: Game, report: bool = False) -> dict[str, float]:
        """Every move's exact value for player 0 at a sequential position."""
        self.work = game.copy()
        out: dict[str, float] = {}
        for m in self.work.search_moves():
            out[str(m)] = self.child_move(m, self.lo, self.hi)
            if report:
                self.budget.root_move(str(m), out[str(m)], self.nodes)  # type: ignore[arg-type]
        return out


def _normalised(p: np.ndarray) -> np.ndarray:
    """A probability vector without LP round-off: clipped at 0, dust below
    ``PROB_EPS`` zeroed, summing to 1."""
    p = np.clip(np.asarray(p, dtype=float), 0.0, None)
    p[p < PROB_EPS] = 0.0
    return p / p.sum()


def _maxmin(a: np.ndarray) -> tuple[np.ndarray, float]:
    """The row player's maxmin mix of the zero-sum matrix ``a`` and its value
    (von Neumann's LP: maximise ``v`` subject to ``x . a[:, j] >= v`` for every
    column, ``x`` a distribution), solved by HiGHS through ``scipy.optimize.linprog``."""
    from scipy.optimize import linprog

    m, n = a.shape
    c = np.zeros(m + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-a.T, np.ones((n, 1))])
    a_eq = np.ones((1, m + 1))
    a_eq[0, -1] = 0.0
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0],
                  bounds=[(0.0, None)] * m + [(None, None)], method="highs")
    if res.status != 0:  # pragma: no cover - a finite matrix game always has a solution
        raise RuntimeError(f"the minimax LP failed: {res.message}")
    return _normalised(res.x[:m]), float(res.x[-1])


def _frames() -> int:
    """How deep the Python stack is now."""
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back  # type: ignore[assignment]
    return depth


def solve_simultaneous(
    game: Game,
    *,
    prune: bool = True,
    root_matrix: bool = False,
    lp_threshold: int = LP_THRESHOLD,
    time_limit: float = 60.0,
    max_nodes: int = 50_000_000,
    progress: bool = True,
    stop: threading.Event | None = None,
) -> SubgamePerfectSolution:
    """Solve a position of a two-player zero-sum game with simultaneous moves
    exactly: its value under subgame-perfect play, the equilibrium mix at every
    simultaneous node solved, the principal line.

    Works through the game protocol for any game (a sequential game too: then
    it is alpha-beta with a transposition table). See the module docstring for
    the method (backward induction with an LP at every simultaneous node,
    Shapley 1953; SMAB pruning, Saffidine, Finnsson & Buro 2012).

    Args:
        game: a position (a game object, e.g. ``Game.from_position(text)`` of a registered game);
            not changed. A submission already in at a simultaneous node is
            ignored: the node is solved before any submission (it changes
            nothing until both are in).
        prune: prune with bounds (alpha-beta and SMAB); ``False`` values every
            joint action of every simultaneous node exactly (slower; every node's
            whole matrix is then in :attr:`SubgamePerfectSolution.nodes_solved`).
        lp_threshold: at a simultaneous node, use LPs for the pruning bounds once
            the subgames searched there averaged this many positions (an LP costs
            about as much as a few dozen positions); pure-strategy bounds before.
        time_limit: seconds of wall time before giving up.
        max_nodes: positions searched before giving up.
        progress: show a tqdm bar (root joint actions or moves) when it takes
            more than a second.
        stop: an event another thread sets to stop the solve.

    Returns:
        A :class:`SubgamePerfectSolution`: ``value`` (player 0's, in the
        returns' range), ``root`` (the root's :class:`SimultaneousNode` if the
        position is a simultaneous node), ``move_values`` and ``best_moves``
        (at a sequential root), ``line()``, ``node(position)``.

    Raises:
        ValueError: for a game with more than two players, general-sum
            returns, chance moves, hidden information other than submissions
            waiting for the reveal, or a bad budget.
        SolveBudgetExceeded: past ``time_limit`` or ``max_nodes``, or when
            ``stop`` is set.
    """
    check_two_player_zero_sum(game, "solve_simultaneous()")
    if isinstance(lp_threshold, bool) or not isinstance(lp_threshold, int) or lp_threshold < 0:
        raise ValueError(f"lp_threshold must be an int >= 0, got {shorten(lp_threshold, 20)}")
    start = before_submissions(game).copy()
    name = type(game).game_type.short_name
    joint = is_joint_node(start)
    total = (len(start.legal_moves(0)) * len(start.legal_moves(1)) if joint
             else len(start.search_moves()) if not start.is_over else 0)
    limit = sys.getrecursionlimit()
    depth = start.game_info.max_game_length
    need = 4 * (depth if depth is not None else 500) + 200 + _frames()
    root: SimultaneousNode | None = None
    values: dict[str, float] = {}
    best: list[str] = []
    with stop_watch(stop):  # the budget made here checks the stop event
        budget = Budget(time_limit, max_nodes, progress, f"solve {name}", max(total, 1))
        search = _Search(start, prune, lp_threshold, budget)
        try:
            if need > limit:
                sys.setrecursionlimit(need)
            if start.is_over:
                search.work = start.copy()
                value = search.payoff()
            elif joint:
                search.root_key = start.position_key()
                search.root_matrix = bool(root_matrix)
                value = search.run(start)
                root = search.solved[search.root_key]
            else:
                values = search.move_values(start, report=True)
                maximise = start.current_player == 0
                value = max(values.values()) if maximise else min(values.values())
                best = [k for k, v in values.items() if abs(v - value) <= EPS]
        finally:
            if sys.getrecursionlimit() != limit:
                sys.setrecursionlimit(limit)
            budget.close()
    return SubgamePerfectSolution(
        value=float(value), root=root, move_values=values, best_moves=best, nodes=search.nodes,
        lps=search.lps, seconds=budget.elapsed(), nodes_solved=search.solved, game=name,
        details={"prune": prune, "root_matrix": root_matrix, "lp_threshold": lp_threshold,
                 "table": len(search.table)},
        _search=search, _start=start)



class SubgamePerfectAgent(Agent):
    """Plays the subgame-perfect equilibrium where the exact solver settles the
    position, and an estimate of it elsewhere.

    At each decision the agent asks :func:`solve_simultaneous` for the
    position, within ``time_limit`` seconds:

    - solved: at a simultaneous node it draws its choice from its own
      equilibrium mix there (the subgame-perfect one: the matrix's entries are
      the exact values of what follows each joint action); at a sequential
      node it plays a best move (the first in the game's order);
      :attr:`last_exact` is True;
    - too large for the time: it asks ``fallback`` (default: simultaneous-move
      Monte Carlo tree search with regret matching,
      :class:`~gridwidgets.agents.SMMCTSAgent`, whose mean strategy at a
      simultaneous node converges toward an equilibrium mix as its budget grows;
      Lisý, Kovařík, Lanctot & Bošanský, NeurIPS 2013), an estimate and not an
      equilibrium; :attr:`last_exact` is False.

    A solution is kept and its transposition table reused for the positions
    after it (a later bid is then usually settled at once).

    It is meant to be given ``game.view_for(player)``: a hidden submission of
    the other player changes nothing (the node's game is the one before any
    submission), and the agent never looks at it.

    Args:
        time_limit: seconds for each exact solve (positive).
        seed: seeds the draws from the mixes: the choice is a function of the
            seed, the player and the public history (like a seeded
            :class:`~gridwidgets.agents.RandomAgent`), so the same seed in the
            same position gives the same choice, also after an undo.
        fallback: the agent for positions the solver does not settle in time
            (default ``SMMCTSAgent(iterations=1000, selection="rm", seed=seed)``;
            it used to be ``MCTSAgent(simulations=1000, seed=seed)``, decoupled
            UCT, which has no convergence guarantee at simultaneous nodes). An
            agent whose ``choose`` takes ``player=`` (as ``SMMCTSAgent``'s does) is
            told the player it chooses for.

    Attributes:
        last_exact: whether the last choice came from the exact solution.
        last_node: the :class:`SimultaneousNode` of the last simultaneous choice
            solved exactly, else ``None``.

    Raises (from :meth:`choose`):
        ValueError: for a game the solver cannot take (more than two players,
            general-sum...) or a game that is over.
    """

    def __init__(self, time_limit: float = 2.0, seed: int | None = 0, fallback: Agent | None = None) -> None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not time_limit > 0:
            raise ValueError(f"time_limit must be a positive number of seconds, got {shorten(time_limit, 20)}")
        self.time_limit = float(time_limit)
        self.seed = seed
        self._own_fallback = fallback is None
        self.fallback: Agent = fallback if fallback is not None else self._default_fallback(seed)
        self.last_exact = False
        self.last_node: SimultaneousNode | None = None
        self._solution: SubgamePerfectSolution | None = None
        self._rng = random.Random(seed)

    @staticmethod
    def _default_fallback(seed: int | None) -> Agent:
        """Simultaneous-move MCTS with regret matching (an estimate that converges, not an equilibrium)."""
        from ..agents.smmcts import SMMCTSAgent

        return SMMCTSAgent(iterations=1000, selection="rm", seed=seed)

    @property
    def name(self) -> str:
        return f"SubgamePerfectAgent(time_limit={self.time_limit:g}, seed={self.seed})"

    def reset(self) -> None:
        """A new game: forget the kept solution; reset the fallback."""
        self._solution = None
        self.fallback.reset()

    def reseed(self, seed: int | None) -> None:
        """Draw from a new seed (a tournament gives each game its own); an own fallback is made anew."""
        self.seed = seed
        self._rng = random.Random(seed)
        if self._own_fallback:
            self.fallback = self._default_fallback(seed)

    def _solve(self, game: Game) -> SubgamePerfectSolution | None:
        sol = self._solution
        if sol is not None and type(sol._start) is type(game) and sol._start.options() == game.options():
            return sol
        try:
            self._solution = solve_simultaneous(game, time_limit=self.time_limit, progress=False)
        except SolveBudgetExceeded:
            self._solution = None
        return self._solution

    def choose(self, game: Game, player: int | None = None) -> Any:
        """A choice for ``player`` (default: ``game.current_player``): drawn from its
        subgame-perfect mix at a simultaneous node, a best move elsewhere, or the
        fallback's choice where the solver does not settle the position in time.

        Raises:
            ValueError: for a game that is over, a player who has already
                submitted, or a game the solver cannot take.
        """
        if game.is_over:
            raise ValueError("the game is over: there is no move to choose")
        why = why_not_stacked(game)
        if why:
            raise ValueError(f"SubgamePerfectAgent plays two-player zero-sum games; "
                             f"{type(game).game_type.long_name} {why}")
        p = game.current_player if player is None else player
        legal = game.legal_moves(p)
        if not legal:
            raise ValueError(f"{game.players[p]} has no move to make here")
        base = before_submissions(game)
        self.last_node = None
        try:
            if is_joint_node(base):
                node = self._node(base)
                if node is not None:
                    self.last_exact, self.last_node = True, node
                    labels, probs = (node.rows, node.x) if p == 0 else (node.cols, node.y)
                    by_name = {str(m): m for m in legal}
                    choices = [lab for lab, q in zip(labels, probs, strict=True) if q > PROB_EPS]
                    weights = [float(q) for q in probs if q > PROB_EPS]
                    position = " ".join(str(m) for m in game.history)  # public: a hidden submission is not in it
                    rng = (self._rng if self.seed is None
                           else random.Random(f"{self.seed}|subgame-perfect|{p}|{position}"))
                    return by_name[rng.choices(choices, weights=weights)[0]]
            else:
                found = self._best(base)
                if found is not None:
                    self.last_exact = True
                    by_name = {str(m): m for m in legal}
                    return by_name[str(found)]
        except SolveBudgetExceeded:
            self._solution = None
        self.last_exact = False
        if _takes_player(self.fallback):
            return self.fallback.choose(game, player=p)  # type: ignore[call-arg]
        return self.fallback.choose(game)

    def _node(self, base: Game) -> SimultaneousNode | None:
        sol = self._solve(base)
        if sol is None:
            return None
        if sol._start.position_key() == base.position_key() and sol.root is not None:
            return sol.root
        search = sol._search
        search.budget = Budget(self.time_limit, 50_000_000, False, "solve", 1)
        return sol.node(base)

    def _best(self, base: Game) -> Any:
        sol = self._solve(base)
        if sol is None:
            return None
        if sol._start.position_key() == base.position_key() and sol.best_moves:
            return sol.best_moves[0]
        search = sol._search
        search.budget = Budget(self.time_limit, 50_000_000, False, "solve", 1)
        return search.best_move(base)[0]
