"""The exact solver of GridBloc, used by
:func:`gridwidgets.analysis.solve` through the game's ``exact_solver`` hook.

The search runs on its own compact representation (Python ints as
bitboards) rather than calling the engine's ``play()`` for every position;
the engine stays the reference, and the tests compare the two.

**GridBloc** (GB-1..GB-8). Round two always starts from the same
position (the original walls, no tile scored; GB-7), so the game splits
into two score games: in each round the runner maximises, and the blocker
minimises, the points the runner still scores. The round-two value is
solved once; a round-one position is then won by the runner if their
round-one total beats it (GB-7: equal totals draw). It follows that from
the very start (no setup moves) perfect play always draws: round two is
round one with the roles swapped. A round's state is the
runner's tile, the walls, the unscored tiles and who acts; only the part of
the board the runner can still reach matters, and the blocker need only
consider walls inside that part (a wall elsewhere is a pass, never better
than a wall that closes an edge the runner could use; a non-trapped runner
always has one). No board symmetries are used (walls and holes seldom keep
them). Feasible (one core): 2x2 and 3x3 boards whole (both rounds) in
under a second; on 4x4, round-two positions once about 4 walls are placed
(seconds), 6 or more (under a second); on 5x5 once about 14 are placed. A
round-one position needs the value of round two from its start, so round
one is feasible only where that is: 3x3, or boards whose original walls or
holes leave the runner little room; a blank 4x4 from the start was not
solved in 15 minutes (300 million positions). Bigger boards only when the
runner's reachable part is small. The setup phase (GB-10) is not
solved: finish the setup first.
"""

from __future__ import annotations

import importlib
from typing import Any

from ...analysis.solve import Budget, Solution, shrink_table

#: the generic solver's module (its limits are read at run time, so tests can lower them)
_solve = importlib.import_module("...analysis.solve", __package__)


def solve_gridbloc(game: Any, *, time_limit: float, max_nodes: int, progress: bool) -> Solution:
    """GridBloc's ``exact_solver`` (see the module docstring)."""
    return _solve_gridbloc(game, time_limit, max_nodes, progress)


def _bits(x: int) -> list[int]:
    """The set bits of ``x``, lowest first, each as an int with that one bit."""
    out = []
    while x:
        low = x & -x
        out.append(low)
        x ^= low
    return out



# ----------------------------------------------------------------------
# GridBloc
# ----------------------------------------------------------------------
class _BlocBoard:
    """One GridBloc board as bitboards (GB-1..GB-3).

    Tile ``i = r * size + c`` is bit ``i``. An *open* set of edges is one
    int: bit ``i`` for the edge between tile ``i`` and its right neighbour,
    bit ``size * size + i`` for the edge between ``i`` and the tile below.
    A step is ``(j, bit_j, m1, m2)``: it is possible when ``open & m1 == m1``
    or ``open & m2 == m2``. For an orthogonal step ``m1 == m2`` is the edge
    crossed; a diagonal step is blocked when walls close both sides of its
    corner (GB-3), that is, it is possible when one of the two orthogonal
    two-step paths around the corner is open. So the tiles the runner can
    reach are the orthogonally connected part of the board, a bitboard flood fill.
    """

    def __init__(self, size: int, holes: set[int]) -> None:
        self.size = size
        self.n = n = size * size
        self.holes = holes
        right = sum(1 << (r * size + c) for r in range(size) for c in range(size - 1))
        down = sum(1 << (r * size + c) for r in range(size - 1) for c in range(size))
        hole_bits = sum(1 << h for h in holes)
        # edges next to a hole are closed for good (GB-1)
        right &= ~hole_bits & ~(hole_bits >> 1)
        down &= ~hole_bits & ~(hole_bits >> size)
        self.all_open = right | (down << n)
        self.tiles = ((1 << n) - 1) & ~hole_bits

        def edge(i: int, j: int) -> int:
            i, j = min(i, j), max(i, j)
            return 1 << i if j == i + 1 else 1 << (n + i)

        #: per tile, the edges around it
        self.incident = [0] * n
        for i in range(n):
            r, c = divmod(i, size)
            for rr, cc in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c)):
                if 0 <= rr < size and 0 <= cc < size:
                    self.incident[i] |= edge(i, rr * size + cc)
        self.steps: list[list[tuple[int, int, int, int]]] = []
        for r in range(size):
            for c in range(size):
                i = r * size + c
                out = []
                for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)):
                    rr, cc = r + dr, c + dc
                    j = rr * size + cc
                    if not (0 <= rr < size and 0 <= cc < size) or i in holes or j in holes:
                        continue
                    if dr == 0 or dc == 0:
                        m = edge(i, j)
                        out.append((j, 1 << j, m, m))
                    else:
                        b = rr * size + c  # beside both tiles, in the start's column
                        k = r * size + cc  # beside both tiles, in the start's row
                        out.append((j, 1 << j, edge(i, b) | edge(b, j), edge(i, k) | edge(k, j)))
                self.steps.append(out)

    def open_bits(self, walls: Any) -> int:
        """The open edges once ``walls`` (:class:`~gridwidgets.games.gridbloc.Wall` objects) stand."""
        n, size = self.n, self.size
        closed = 0
        for w in walls:
            i, j = sorted((w.a[0] * size + w.a[1], w.b[0] * size + w.b[1]))
            closed |= 1 << i if j == i + 1 else 1 << (n + i)
        return self.all_open & ~closed


def _solve_gridbloc(game: Any, time_limit: float, max_nodes: int, progress: bool) -> Solution:
    if game.phase == "setup":
        raise ValueError("solve() starts from round one: finish the setup phase first (GB-10, 'done')")
    size = game.size
    moves = game.legal_moves()
    budget = Budget(time_limit, max_nodes, progress, f"solve GridBloc {size}x{size}", len(moves))
    if game.phase == "over":
        value = int(game.returns()[0])
        return Solution(value, game.winner, [], {}, 0, budget.elapsed(), 0, "gridbloc")
    holes = {r * size + c for r, c in game.holes}
    bb = _BlocBoard(size, holes)
    steps, incident = bb.steps, bb.incident
    n = bb.n
    low_n = (1 << n) - 1
    table: dict[int, tuple[int, int, int]] = {}  # key -> (lower bound, upper bound, best move)
    nodes = 0
    check = budget.check

    def points(r: int, open_: int, unscored: int, run: bool, alpha: int, beta: int) -> int:
        """The points the runner still scores this round under perfect play
        (runner maximises, blocker minimises; GB-4..GB-6), by fail-soft
        alpha-beta: a result ``<= alpha`` is an upper bound, ``>= beta`` a lower one.

        ``r``: the runner's tile; ``open_``: the open edges; ``unscored``:
        the tiles not visited this round."""
        nonlocal nodes
        nodes += 1
        if not nodes & (_solve._CHECK_EVERY - 1):
            check(nodes)
            if len(table) > _solve._TABLE_MAX:
                shrink_table(table)
        right = open_ & low_n
        down = open_ >> n
        reach = 1 << r
        while True:  # flood fill: the tiles the runner can reach (GB-3)
            grown = (
                reach
                | ((reach & right) << 1)
                | ((reach >> 1) & right)
                | ((reach & down) << size)
                | ((reach >> size) & down)
            )
            if grown == reach:
                break
            reach = grown
        left = unscored & reach
        if not left:  # GB-6: trapped, the round is over
            return 0
        # the open edges inside the reach: the only walls that matter (see the module docstring)
        inner_right = right & reach & (reach >> 1)
        inner_down = down & reach & (reach >> size)
        inner = inner_right | (inner_down << n)
        # each step is followed by a wall inside the reach, and no open edge inside it means trapped
        hi = min(left.bit_count(), inner.bit_count() - (0 if run else 1))
        if hi <= alpha:
            return hi
        key = (((inner << n) | left) << 12 | r) << 1 | run
        lo = 0
        entry = table.get(key)
        if entry is not None:
            lo, hi = max(lo, entry[0]), min(hi, entry[1])
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
        a, b = max(alpha, lo), min(beta, hi)
        a0, b0 = a, b
        hint = entry[2] if entry is not None else -1  # the move that was best last time, first
        chosen = -1
        if run:  # GB-3: step to a neighbour; a tile not scored yet is worth 1 (GB-5), those first
            best = -1
            order = [j for j, bj, m1, m2 in steps[r] if (open_ & m1 == m1 or open_ & m2 == m2) and unscored & bj]
            order += [j for j, bj, m1, m2 in steps[r] if (open_ & m1 == m1 or open_ & m2 == m2) and not unscored & bj]
            if hint in order:
                order.remove(hint)
                order.insert(0, hint)
            for j in order:
                bj = 1 << j
                if unscored & bj:
                    v = 1 + points(j, open_, unscored ^ bj, False, a - 1, b - 1)
                else:
                    v = points(j, open_, unscored, False, a, b)
                if v > best:
                    best, chosen = v, j
                    if v >= b:
                        break
                    if v > a:
                        a = v
        else:  # GB-4: one wall on an open edge inside the reach, the runner's own edges first
            best = hi + 1
            first = inner & incident[r]
            walls = _bits(first) + _bits(inner & ~first)
            if hint in walls:
                walls.remove(hint)
                walls.insert(0, hint)
            for e in walls:
                v = points(r, open_ & ~e, unscored, True, a, b)
                if v < best:
                    best, chosen = v, e
                    if v <= a:
                        break
                    if v < b:
                        b = v
        new = (lo, best) if best <= a0 else (best, hi) if best >= b0 else (best, best)
        if entry is not None:
            new = (max(new[0], entry[0]), min(new[1], entry[1]))
        table[key] = (new[0], new[1], chosen)
        return best

    def compare(r: int, open_: int, unscored: int, run: bool, target: int) -> int:
        """-1, 0 or +1 as the runner's future points are below, equal to or above ``target``."""
        if target < 0:
            return 1  # the points are never negative
        v = points(r, open_, unscored, run, target - 1, target + 1)
        return -1 if v < target else 1 if v > target else 0

    def exact(r: int, open_: int, unscored: int, run: bool) -> int:
        """The exact points, by a series of null-window tests (MTD(f), Plaat et al. 1996)."""
        lo, hi, guess = 0, n, 0
        while lo < hi:
            beta = guess + 1 if guess == lo else guess
            guess = points(r, open_, unscored, run, beta - 1, beta)
            if guess < beta:
                hi = guess
            else:
                lo = guess
        return lo

    start = game.start[0] * size + game.start[1]
    runner_player = game.runner_player
    totals = game.scores
    values: dict[str, int] = {}
    details: dict[str, Any] = {}
    try:
        # round two from its start (GB-7): the same position whatever happens in round one
        if game.round == 1:
            budget.stage = "round two from its start"
            round2 = exact(start, bb.open_bits(game.original_walls), bb.tiles & ~(1 << start), True)
            budget.stage = ""
            details["round2_points"] = round2
            # what the other player (player 0) ends with: round-one blocker, round-two runner
            other_final = totals[0] + round2
        else:
            other_final = totals[1]
        budget.check(nodes)
        target = other_final - totals[runner_player]  # the runner needs more than this to win
        r = game.runner[0] * size + game.runner[1]
        open_ = bb.open_bits(game.walls)
        unscored = bb.tiles & ~sum(1 << (rr * size + cc) for rr, cc in game.scored)
        mover = game.current_player
        runner_moves = game.to_act == "run"
        for move in moves:
            if runner_moves:
                j = move.cell[0] * size + move.cell[1]
                gain = 1 if unscored & (1 << j) else 0
                outcome = compare(j, open_, unscored & ~(1 << j), False, target - gain)
            else:
                outcome = compare(r, bb.open_bits([*game.walls, move]), unscored, True, target)
            values[str(move)] = outcome if mover == runner_player else -outcome
            budget.root_move(str(move), values[str(move)], nodes)
    finally:
        budget.nodes = nodes
        budget.close()
    value = max(values.values())
    best = [name for name, v in values.items() if v == value]
    winner = None if value == 0 else mover if value > 0 else 1 - mover
    return Solution(value, winner, best, values, nodes, budget.elapsed(), mover, "gridbloc", details)
