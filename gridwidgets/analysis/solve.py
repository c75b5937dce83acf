"""Exact solutions of small two-player positions, for any game that declares
itself two-player, sequential, of perfect information and zero-sum.

:func:`solve` finds the result of a position under perfect play by both
sides, the value of every legal move, and the optimal moves. It is exact: no
evaluation function, no depth limit. The methods are the textbook ones:

- negamax search with alpha-beta pruning (D. E. Knuth and R. W. Moore, "An
  analysis of alpha-beta pruning", *Artificial Intelligence* 6, 1975);
- a transposition table (A. L. Zobrist, "A new hashing method with
  application for game playing", 1970) keyed here by an *exact* key, the
  game's :meth:`~gridwidgets.core.Game.position_key`, so it never confuses
  two positions;
- the symmetries the game declares (:meth:`~gridwidgets.core.Game.symmetries`):
  a position and its images share one table entry, the smallest key.

A game may bring a faster solver of its own through its ``exact_solver``
hook (``f(game, *, time_limit, max_nodes, progress) -> Solution``), which
:func:`solve` then uses: the package's own games do, with the feasible
sizes given on their rules pages. Otherwise the generic search plays the
moves on a copy with the engine's ``play`` and ``undo``, over the moves of
:meth:`~gridwidgets.core.Game.search_moves`.

Games with more than two players, simultaneous moves, hidden information or
general-sum returns are refused with :class:`ValueError` saying which.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..core.game import Game
from ..core.gametype import why_unsolvable
from ..core.hooks import fast_path_applies

__all__ = ["CHECK_EVERY", "Budget", "Solution", "SolveBudgetExceeded", "shrink_table", "solve", "stop_watch"]

#: past this many positions (about half a gigabyte) the transposition table
#: drops its smaller half (see ``_shrink``); it only speeds the search up, so
#: results stay exact
_TABLE_MAX = 3_000_000
#: check the clock and the progress bar every this many positions (a power of 2)
_CHECK_EVERY = 1 << 12
#: the stop event of the solve in progress in this thread (see ``solve(stop=...)``)
_STOP: contextvars.ContextVar[threading.Event | None] = contextvars.ContextVar("gridwidgets_solve_stop",
                                                                             default=None)
#: how often a search checks its budget (positions, a power of 2), for other exact searches
CHECK_EVERY = _CHECK_EVERY


@contextlib.contextmanager
def stop_watch(stop: threading.Event | None) -> Iterator[None]:
    """Within the block, a :class:`Budget` made in this thread checks ``stop``
    (another thread sets it to end the search early), as in :func:`solve`."""
    token = _STOP.set(stop)
    try:
        yield
    finally:
        _STOP.reset(token)


class SolveBudgetExceeded(RuntimeError):
    """Raised by :func:`solve` when the search passes ``time_limit`` or ``max_nodes``.

    Attributes:
        budget: ``"time_limit"`` or ``"max_nodes"``, the limit that was reached,
            or ``"stop"`` when the ``stop`` event of :func:`solve` was set.
        limit: its value (seconds or positions).
        nodes: positions searched before stopping.
        seconds: wall time spent.
        move_values: the root moves solved so far (notation -> value for the
            player to move), possibly empty.
        stage: what was being solved if not a root move (a game's own
            solver may solve a part first), else ``""``.
    """

    def __init__(
        self,
        budget: str,
        limit: float,
        nodes: int,
        seconds: float,
        move_values: dict[str, int],
        total: int,
        stage: str = "",
    ) -> None:
        self.budget = budget
        self.limit = limit
        self.nodes = nodes
        self.seconds = seconds
        self.move_values = dict(move_values)
        self.stage = stage
        what = f"{limit:g} s" if budget == "time_limit" else f"{int(limit):,} positions"
        reason = "asked to stop" if budget == "stop" else f"{budget}={what} reached"
        super().__init__(
            f"solve stopped: {reason} after {nodes:,} positions in {seconds:.1f} s, "
            + (f"while solving {stage}, " if stage else "")
            + f"with {len(move_values)} of {total} root moves solved; raise {budget} or solve a later "
            "(or smaller) position"
        )


@dataclass
class Solution:
    """The exact result of a position under perfect play (see :func:`solve`).

    Attributes:
        value: the result for :attr:`player`, the player to move: ``+1`` a
            win, ``-1`` a loss, ``0`` a draw.
        winner: the player id who wins under perfect play, ``None`` for a draw.
        best_moves: notation of every legal move that achieves ``value``,
            in the order of ``game.legal_moves()``; empty when the game is over.
        move_values: notation -> value (``+1``/``0``/``-1`` for the player to
            move) of every legal move: what the mover gets by playing it and
            then playing perfectly.
        nodes: positions searched.
        seconds: wall time of the solve.
        player: the player whose point of view ``value`` and ``move_values``
            take: the player to move (for a finished game, as the game's
            solver says; the generic search: player 0).
        game: the game's registry name (``game_type.short_name``).
        details: extra figures a game's own solver reports (see its rules page).
    """

    value: int
    winner: int | None
    best_moves: list[str]
    move_values: dict[str, int]
    nodes: int
    seconds: float
    player: int
    game: str
    details: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        who = "a draw" if self.winner is None else f"player {self.winner} wins"
        best = ", ".join(self.best_moves) or "-"
        return (
            f"{self.game}: {who} (value {self.value:+d} for player {self.player}, to move); "
            f"best moves: {best}; {self.nodes:,} positions in {self.seconds:.2f} s"
        )


# ----------------------------------------------------------------------
# Budget and progress
# ----------------------------------------------------------------------
class Budget:
    """The limits of one solve, for :func:`solve` and a game's own ``exact_solver``:
    counts positions, checks the limits (raising :class:`SolveBudgetExceeded`),
    and shows a tqdm bar once the solve has taken more than a second (and
    ``progress`` is true).

    Args:
        time_limit: seconds (positive).
        max_nodes: positions (a positive int).
        progress: show a progress bar after a second.
        desc: the bar's text.
        total: how many root moves there are.

    Raises:
        ValueError: for a limit that is not positive.
    """

    def __init__(self, time_limit: float, max_nodes: int, progress: bool, desc: str, total: int) -> None:
        if not time_limit > 0:
            raise ValueError(f"time_limit must be positive, got {time_limit!r}")
        if not isinstance(max_nodes, int) or isinstance(max_nodes, bool) or max_nodes < 1:
            raise ValueError(f"max_nodes must be a positive int, got {max_nodes!r}")
        self.time_limit = float(time_limit)
        self.max_nodes = max_nodes
        self.progress = progress
        self.desc = desc
        self.total = total
        self.start = time.perf_counter()
        self.nodes = 0
        self.done: dict[str, int] = {}
        self.bar: Any = None
        #: what is being solved when it is not a root move (shown and reported)
        self.stage = ""
        self.shown = 0.0  # when the bar was last drawn (seconds into the solve)
        self.stop = _STOP.get()  # the stop event of the solve() call this budget serves

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def check(self, nodes: int) -> None:
        """Called every ``_CHECK_EVERY`` positions and between root moves."""
        self.nodes = nodes
        seconds = self.elapsed()
        if self.stop is not None and self.stop.is_set():
            self.close()
            raise SolveBudgetExceeded("stop", 0, nodes, seconds, self.done, self.total, self.stage)
        if nodes > self.max_nodes:
            self.close()
            raise SolveBudgetExceeded("max_nodes", self.max_nodes, nodes, seconds, self.done, self.total, self.stage)
        if seconds > self.time_limit:
            self.close()
            raise SolveBudgetExceeded("time_limit", self.time_limit, nodes, seconds, self.done, self.total, self.stage)
        if self.progress and seconds > 1.0 and seconds - self.shown > 0.5:
            self.shown = seconds
            if self.bar is None:
                from tqdm.auto import tqdm

                self.bar = tqdm(
                    total=self.total,
                    desc=self.desc,
                    bar_format="{desc} |{bar}| {n}/{total} root moves solved",
                )
            self.bar.n = len(self.done)
            stage = f" ({self.stage})" if self.stage else ""
            self.bar.set_description_str(f"{self.desc}{stage}: {nodes:,} positions, {seconds:.1f} s")

    def root_move(self, name: str, value: int, nodes: int) -> None:
        self.done[name] = value
        self.check(nodes)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.n = len(self.done)
            self.bar.set_description_str(f"{self.desc}: {self.nodes:,} positions, {self.elapsed():.1f} s")
            self.bar.close()
            self.bar = None


def shrink_table(table: dict[int, Any]) -> None:
    """Keep about the half of the table's positions whose keys have the most
    bits set: the positions with the most cells or edges still in play, the
    costly ones to search again. The table is changed in place. For exact
    solvers whose transposition table keys are bitboards (ints) and that
    must stay within memory."""
    sizes = Counter(key.bit_count() for key in table)
    kept, cut = 0, 0
    for bits in sorted(sizes, reverse=True):
        if kept + sizes[bits] > len(table) // 2:
            cut = bits + 1
            break
        kept += sizes[bits]
    keep = {key: value for key, value in table.items() if key.bit_count() >= cut}
    table.clear()
    table.update(keep)


def solve(
    game: Game,
    *,
    time_limit: float = 60.0,
    max_nodes: int = 50_000_000,
    progress: bool = True,
    stop: threading.Event | None = None,
) -> Solution:
    """Solve a two-player position exactly: its value, and every move's value.

    Args:
        game: a position of a two-player, sequential, perfect-information,
            zero-sum (or constant-sum) game (its ``game_type`` says so). It
            is not changed. A game with an ``exact_solver`` hook is solved
            by it; others, and subclasses that change rules without declaring
            a solver of their own, by the generic search of this module.
        time_limit: seconds of wall time before giving up.
        max_nodes: positions searched before giving up.
        progress: show a tqdm progress bar (one step per root move) when the
            solve takes more than about a second.
        stop: an event another thread sets to stop the solve early (the hint
            worker does when the position changes); checked with the budget.

    Returns:
        A :class:`Solution`: ``value`` for the player to move (+1 win, 0 draw,
        -1 loss), ``winner``, ``best_moves``, ``move_values``, ``nodes``,
        ``seconds``.

    Raises:
        SolveBudgetExceeded: (a ``RuntimeError``) past ``time_limit`` or
            ``max_nodes``, or once ``stop`` is set, saying which and how far the
            solve got.
        ValueError: for a game it cannot solve (more than two players,
            simultaneous or hidden moves, general-sum returns, or a position
            the game's own solver refuses) or a bad budget.

    The methods (negamax with alpha-beta, a transposition table, board
    symmetries) are described in this module's docstring.
    """
    cls = type(game)
    gt = getattr(cls, "game_type", None)
    if gt is None or not isinstance(game, Game):
        raise TypeError(f"solve() takes a game, got {type(game).__name__}")
    why = why_unsolvable(game)
    if why:
        raise ValueError(
            f"solve() handles two-player, sequential, perfect-information, zero-sum positions; "
            f"{gt.long_name} {why}: use an agent (MCTSAgent) instead"
        )
    solver = cls.exact_solver if fast_path_applies(cls, "exact_solver") else None  # a variant: generic search
    token = _STOP.set(stop)  # read by the budget, so a game's own solver stops too
    try:
        if solver is not None:
            return solver(game, time_limit=time_limit, max_nodes=max_nodes, progress=progress)
        return _negamax_solve(game, time_limit, max_nodes, progress)
    finally:
        _STOP.reset(token)


def _negamax_solve(game: Game, time_limit: float, max_nodes: int, progress: bool) -> Solution:
    """The generic exact search: negamax with alpha-beta over ``play``/``undo``,
    values -1/0/+1 for the side to move, a transposition table keyed by
    ``position_key`` (the smallest over the declared symmetries)."""
    name = type(game).game_type.short_name
    work = game.copy()
    moves = work.search_moves()
    budget = Budget(time_limit, max_nodes, progress, f"solve {name}", len(moves))
    if work.is_over:
        budget.close()
        r = work.returns()
        value = 0 if r[0] == r[1] else (1 if r[0] > r[1] else -1)
        return Solution(value, work.winner, [], {}, 0, budget.elapsed(), 0, name)
    me = work.current_player
    assert me is not None
    syms = work.symmetries()
    table: dict[Any, tuple[int, int]] = {}  # key -> (value, flag)
    nodes = 0

    def key() -> Any:
        k = work.position_key()
        if not syms:
            return k
        try:
            return min([k, *(work.position_key(s) for s in syms)])
        except TypeError:  # keys that do not order: no symmetry merging
            return k

    def sign(x: float) -> int:
        return (x > 0) - (x < 0)

    def child(move: Any, p: int, alpha: int, beta: int) -> int:
        work.play(move)
        try:
            q = work.current_player
            if q is None:
                r = work.returns()
                return sign(r[p] - r[1 - p])
            if q == p:
                return negamax(q, alpha, beta)
            return -negamax(q, -beta, -alpha)
        finally:
            work.undo()

    def negamax(p: int, alpha: int, beta: int) -> int:
        nonlocal nodes
        nodes += 1
        if not nodes & (_CHECK_EVERY - 1):
            budget.check(nodes)
            if len(table) > _TABLE_MAX:
                table.clear()
        k = key()
        hit = table.get(k)
        if hit is not None:
            v, flag = hit
            if flag == _EXACT or (flag == _LOWER and v >= beta) or (flag == _UPPER and v <= alpha):
                return v
        alpha0, best = alpha, -2
        for m in work.search_moves():
            v = child(m, p, alpha, beta)
            if v > best:
                best = v
                alpha = max(alpha, v)
                if alpha >= beta:
                    break
        table[k] = (best, _UPPER if best <= alpha0 else _LOWER if best >= beta else _EXACT)
        return best

    values: dict[str, int] = {}
    try:
        for m in moves:
            values[str(m)] = child(m, me, -1, 1)
            budget.root_move(str(m), values[str(m)], nodes)
    finally:
        budget.close()
    value = max(values.values())
    best = [s for s, v in values.items() if v == value]
    winner = None if value == 0 else (me if value > 0 else 1 - me)
    return Solution(value, winner, best, values, nodes, budget.elapsed(), me, name)


_EXACT, _LOWER, _UPPER = 0, 1, 2
