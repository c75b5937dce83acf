"""Speed of the exact solver (``gridwidgets.analysis.solve``) on Gridlock and GridBloc.

Run from the repository root, with the venv::

    .venv/bin/python benchmarks/solve_speed.py [--big] [--quick] [--json] [--time-limit 600]

Figures:

(a) Gridlock 4x4 and 5x5 solved exactly from the empty board: who wins,
    the winning first moves, wall time, positions searched.
(b) Who wins on every Gridlock board from 2x2 to 5x5 (rows x cols, square
    and not), with the time and positions of each solve. ``--big`` adds
    5x6, 6x5 and 6x6 (6x6 takes minutes).
(c) The baseline, measured in the same run: a plain negamax over the same
    bitboards with alpha-beta (a win stops the search) and a table of
    exact positions, but no symmetry and no safe-move counting, solving
    every root move the same way; its time and the ratio on the boards of
    up to 20 cells (4x5 and 5x4 take the baseline a few seconds). The two
    must agree on every move's value (checked).
(d) GridBloc: a blank 3x3 board whole (both rounds), and the budget
    behaviour on a blank 4x4 (``SolveBudgetExceeded`` after
    ``--bloc-limit`` seconds, default 10).

Every solve runs in this one process, one after another; ``solve()`` keeps
no state between calls. Timings use ``time.perf_counter`` and are wall
times: on a shared machine they are noisy (another process on the same
core can double them), the positions counts are not.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from functools import cache

from gridwidgets import GridBloc, Gridlock
from gridwidgets.analysis import SolveBudgetExceeded, solve


def baseline(rows: int, cols: int) -> tuple[dict[str, int], float, int]:
    """(c) Every first move's value by plain negamax with a table of exact positions."""
    n = rows * cols
    near = []
    for r in range(rows):
        for c in range(cols):
            m = 0
            for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= rr < rows and 0 <= cc < cols:
                    m |= 1 << (rr * cols + cc)
            near.append(m)
    sys.setrecursionlimit(max(1000, 4 * n + 100))
    count = 0

    @cache
    def wins(mine: int, theirs: int) -> bool:
        nonlocal count
        count += 1
        taken = mine | theirs
        for i in range(n):
            if not (taken >> i) & 1 and not near[i] & theirs and not wins(theirs, mine | (1 << i)):
                return True
        return False

    t0 = time.perf_counter()
    values = {}
    for i in range(n):
        name = Gridlock(rows, cols).parse_move((i // cols, i % cols))
        values[str(name)] = -1 if wins(0, 1 << i) else 1
    return values, time.perf_counter() - t0, count


def gridlock_row(rows: int, cols: int, time_limit: float, with_baseline: bool) -> dict:
    sol = solve(Gridlock(rows, cols), time_limit=time_limit, max_nodes=10**10, progress=False)
    row = {
        "board": f"{rows}x{cols}",
        "winner": "X" if sol.winner == 0 else "O",
        "winning_first_moves": sol.best_moves if sol.value > 0 else [],
        "seconds": sol.seconds,
        "positions": sol.nodes,
    }
    if with_baseline:
        values, seconds, count = baseline(rows, cols)
        assert values == sol.move_values, f"baseline and solver disagree on {rows}x{cols}"
        row.update(baseline_seconds=seconds, baseline_positions=count, ratio=seconds / max(sol.seconds, 1e-9))
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--big", action="store_true", help="(b) also 5x6, 6x5 and 6x6 (minutes)")
    ap.add_argument("--quick", action="store_true", help="boards up to 4x4 only, no baseline above 12 cells")
    ap.add_argument("--time-limit", type=float, default=600.0, help="per solve, seconds (default 600)")
    ap.add_argument("--bloc-limit", type=float, default=10.0, help="(d) budget for the blank 4x4 GridBloc")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON only")
    a = ap.parse_args()

    top = 4 if a.quick else 5
    sizes = [(r, c) for r in range(2, top + 1) for c in range(2, top + 1)]
    if a.big and not a.quick:
        sizes += [(5, 6), (6, 5), (6, 6)]
    baseline_cells = 12 if a.quick else 20
    res: dict = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cores": os.cpu_count(),
        "gridlock": [gridlock_row(r, c, a.time_limit, r * c <= baseline_cells) for r, c in sizes],
    }
    t0 = time.perf_counter()
    bloc = solve(GridBloc(size=3, preset="blank"), progress=False)
    res["gridbloc_3x3"] = {
        "winner": bloc.winner,
        "value": bloc.value,
        "round2_points": bloc.details["round2_points"],
        "seconds": time.perf_counter() - t0,
        "positions": bloc.nodes,
    }
    try:
        solve(GridBloc(size=4, preset="blank"), time_limit=a.bloc_limit, progress=False)
        res["gridbloc_4x4"] = "solved"
    except SolveBudgetExceeded as exc:
        res["gridbloc_4x4"] = str(exc)

    if a.json:
        print(json.dumps(res))
        return
    print(f"Exact solver speed, Python {res['python']} on {res['machine']}, {res['cores']} cores")
    print("(wall times on a shared machine are noisy; position counts are exact)")
    print()
    by_board = {row["board"]: row for row in res["gridlock"]}
    for board in ("4x4", "5x5"):
        if board in by_board:
            row = by_board[board]
            first = ", ".join(row["winning_first_moves"]) or "none: every first move loses"
            print(f"(a) Gridlock {board} from the empty board: {row['winner']} wins")
            print(f"    winning first moves for X: {first}")
            print(f"    {row['seconds']:.3f} s, {row['positions']:,} positions")
    print()
    print("(b) who wins each Gridlock board (X moves first), and (c) the plain-negamax baseline")
    print(
        f"    {'board':>5}  {'wins':>4}  {'X wins with':>11}  {'seconds':>8}  {'positions':>11}  "
        f"{'baseline s':>10}  {'ratio':>7}"
    )
    for row in res["gridlock"]:
        cells = int(row["board"].split("x")[0]) * int(row["board"].split("x")[1])
        wins_with = f"{len(row['winning_first_moves'])}/{cells}"
        base = f"{row['baseline_seconds']:10.3f}  {row['ratio']:6.1f}x" if "ratio" in row else f"{'-':>10}  {'-':>7}"
        print(
            f"    {row['board']:>5}  {row['winner']:>4}  {wins_with:>11}  {row['seconds']:8.3f}  "
            f"{row['positions']:>11,}  {base}"
        )
    print()
    g = res["gridbloc_3x3"]
    result = "a draw" if g["winner"] is None else f"player {g['winner']} wins"
    print(
        f"(d) GridBloc blank 3x3, both rounds: {result}; each runner scores {g['round2_points']} "
        f"under perfect play; {g['seconds']:.2f} s, {g['positions']:,} positions"
    )
    print(f"    GridBloc blank 4x4 with time_limit={a.bloc_limit:g}: {res['gridbloc_4x4']}")


if __name__ == "__main__":
    main()
