"""The exact solver of Gridlock, used by
:func:`gridwidgets.analysis.solve` through the game's ``exact_solver`` hook.

The search runs on its own compact representation (Python ints as
bitboards) rather than calling the engine's ``play()`` for every position;
the engines stay the reference, and the tests compare the two.

**Gridlock** (GL-1..GL-4). A position is described by the two sets of
cells each player may still use (GL-3): a cell next to an opponent's marker
stays forbidden for good, so the board and the side to move matter only
through those sets, and the colours do not matter at all. A cell that only
the mover may use and next to which the opponent may never play is a *safe*
move: nobody can take it away, and playing it changes nothing else. Safe
moves are counted, not searched (an integer in the sense of combinatorial
game theory); the mover wins at once if their safe moves outnumber every
move left to the opponent, and loses if the opponent's safe moves are at
least as many as the mover's moves. The symmetries of the board are used: a
position and its images under the 8 symmetries of a square (4 of a
rectangle) share one table entry, the smallest of the transformed boards.
Feasible from the empty board (one core, see ``benchmarks/solve_speed.py``):
every board up to 5x5 in under a second, 5x6 and 6x5 in a few seconds, 6x6
in about two minutes (17 million positions, 0.7 GB); larger boards from
later positions.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ...analysis.solve import Budget, Solution, shrink_table
from .knowledge import board_symmetries

#: the generic solver's module (its limits are read at run time, so tests can lower them)
_solve = importlib.import_module("...analysis.solve", __package__)

#: boards with more cells than this are solved without symmetry keys
_SYM_MAX_CELLS = 64
#: canonicalise (symmetry) only positions with at least this many usable cells
_SYM_MIN_CELLS = 12


def solve_gridlock(game: Any, *, time_limit: float, max_nodes: int, progress: bool) -> Solution:
    """Gridlock's ``exact_solver`` (see the module docstring)."""
    return _solve_gridlock(game, time_limit, max_nodes, progress)


# ----------------------------------------------------------------------
# Gridlock
# ----------------------------------------------------------------------
@lru_cache(maxsize=16)
def _canonicaliser(rows: int, cols: int) -> Callable[[int], int]:
    """A function from a key ``A | B << N`` (two sets of cells as bitboards)
    to the smallest of its images under the board's symmetries.

    Each symmetry is applied by table lookup, 10 bits at a time; the
    function's source is generated so that the lookups are unrolled.
    """
    n = rows * cols
    perms = board_symmetries(rows, cols)  # without the identity: the key itself
    if not perms or n > _SYM_MAX_CELLS:
        return lambda key: key
    chunk = 10
    nbits = 2 * n
    nch = -(-nbits // chunk)
    mask = (1 << chunk) - 1
    ns: dict[str, Any] = {}
    lines = ["def canon(k):", "    m = k"]
    for t, p in enumerate(perms):
        image = [1 << p[i] for i in range(n)] + [1 << (n + p[i]) for i in range(n)]
        terms = []
        for k in range(nch):
            table = [0] * (1 << chunk)
            for v in range(1, 1 << chunk):
                b = (v & -v).bit_length() - 1 + k * chunk
                table[v] = table[v & (v - 1)] | (image[b] if b < nbits else 0)
            ns[f"t{t}_{k}"] = table
            terms.append(f"t{t}_{k}[(k >> {k * chunk}) & {mask}]" if k else f"t{t}_{k}[k & {mask}]")
        lines.append(f"    v = {' | '.join(terms)}")
        lines.append("    if v < m: m = v")
    lines.append("    return m")
    exec("\n".join(lines), ns)  # generated from the tables above, nothing else
    return ns["canon"]  # type: ignore[no-any-return]


def _solve_gridlock(game: Any, time_limit: float, max_nodes: int, progress: bool) -> Solution:
    rows, cols = game.rows, game.cols
    n = rows * cols
    me = game.player_to_move
    moves = game.legal_moves()
    budget = Budget(time_limit, max_nodes, progress, f"solve Gridlock {rows}x{cols}", len(moves))
    if not moves:  # GL-4: the player to move has lost
        return Solution(-1, 1 - me, [], {}, 0, budget.elapsed(), me, "gridlock")

    full = (1 << n) - 1
    not_last = sum(1 << (r * cols + c) for r in range(rows) for c in range(cols - 1))
    not_first = sum(1 << (r * cols + c) for r in range(rows) for c in range(1, cols))

    def near(x: int) -> int:
        """The cells orthogonally next to a cell of ``x`` (GL-3)."""
        return ((x << cols) | (x >> cols) | ((x & not_last) << 1) | ((x & not_first) >> 1)) & full

    # a move's cell and its neighbours: what it takes away from the opponent
    shadow = [near(1 << i) | (1 << i) for i in range(n)]
    canon = _canonicaliser(rows, cols)
    table: dict[int, tuple[int, int]] = {}  # key -> (largest spare count known to lose, smallest known to win)
    nodes = 0
    check = budget.check
    big = n + 1

    def wins(a: int, b: int, spare: int) -> bool:
        """True if the player to move wins. ``a``: the cells the mover may
        use, ``b``: those the opponent may use (GL-3); ``spare``: the mover's
        safe moves minus the opponent's, kept out of ``a`` and ``b``."""
        nonlocal nodes
        nodes += 1
        if not nodes & (_solve._CHECK_EVERY - 1):
            check(nodes)
            if len(table) > _solve._TABLE_MAX:
                shrink_table(table)
        # safe moves: cells only one side may use, next to none the other side may use
        only = a & ~b
        if only:
            safe = only & ~near(b)
            if safe:
                a ^= safe
                spare += safe.bit_count()
        only = b & ~a
        if only:
            safe = only & ~near(a)
            if safe:
                b ^= safe
                spare -= safe.bit_count()
        na = a.bit_count()
        nb = b.bit_count()
        if spare > nb:  # more moves in hand than the opponent can ever make
            return True
        if -spare >= na:  # the opponent has as many moves in hand as we can ever make
            return False
        key = a | (b << n)
        if na + nb >= _SYM_MIN_CELLS:
            key = canon(key)
        entry = table.get(key)
        if entry is not None:
            if spare <= entry[0]:
                return False
            if spare >= entry[1]:
                return True
        # moves that take the most from the opponent first
        cells = []
        x = a
        while x:
            low = x & -x
            x ^= low
            i = low.bit_length() - 1
            cells.append(((b & shadow[i]).bit_count(), i, low))
        cells.sort(reverse=True)
        won = False
        for _, i, low in cells:
            if not wins(b & ~shadow[i], a ^ low, -spare):
                won = True
                break
        if not won and spare > 0:  # play a safe move
            won = not wins(b, a, 1 - spare)
        lo, hi = entry if entry is not None else (-big, big)
        table[key] = (lo, min(hi, spare)) if won else (max(lo, spare), hi)
        return won

    a0 = _mask_bits(game.legal_mask(me), cols)
    b0 = _mask_bits(game.legal_mask(1 - me), cols)
    values: dict[str, int] = {}
    try:
        for move in moves:
            r, c = move.cell
            i = r * cols + c
            values[str(move)] = -1 if wins(b0 & ~shadow[i], a0 & ~(1 << i), 0) else 1
            budget.root_move(str(move), values[str(move)], nodes)
    finally:
        budget.nodes = nodes
        budget.close()
    value = max(values.values())
    best = [name for name, v in values.items() if v == value]
    return Solution(value, me if value > 0 else 1 - me, best, values, nodes, budget.elapsed(), me, "gridlock")


def _mask_bits(mask: Any, cols: int) -> int:
    """A boolean ``(rows, cols)`` array as a bitboard (bit ``r * cols + c``)."""
    bits = 0
    for r, c in zip(*mask.nonzero(), strict=True):
        bits |= 1 << (int(r) * cols + int(c))
    return bits


