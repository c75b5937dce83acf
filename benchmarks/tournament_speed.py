"""Speed of tournaments and of the Block Four bid equilibrium.

Run from the repository root, with the venv::

    .venv/bin/python benchmarks/tournament_speed.py [--games 200] [--rollouts 20] [--repeat 3]

Figures printed:

(a) ``tournament(gw.Gridlock, ..., games=200, rows=4, cols=4)`` between
    ``RandomAgent`` and ``GreedyAgent`` (two ``RandomAgent`` if
    ``gridwidgets.agents.GreedyAgent`` does not exist), wall time with
    ``n_jobs=1`` and with ``n_jobs=2``, the best of ``--repeat`` runs each,
    and the speed-up (the baseline is ``n_jobs=1`` in the same run). The
    two runs must give identical records (checked). ``n_jobs=2`` pays for
    starting joblib's worker processes (loky reuses them between runs, so
    the first run is also shown apart).
(b) ``equilibrium(BlockFour(seed=3), rollouts=20)``: building the 3x10 bid
    matrix by rollouts (``bid_matrix``) and solving the LP, separately,
    median of ``--repeat`` runs; and the LP alone on that matrix.

The figures depend on the machine and its load: the core count is printed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gridwidgets as gw
from gridwidgets import agents as gwa
from gridwidgets.analysis import bid_matrix, equilibrium, tournament


def timed(fn, *args, **kwargs):
    t = time.perf_counter()
    out = fn(*args, **kwargs)
    return time.perf_counter() - t, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--rollouts", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    print(f"cores: {os.cpu_count()} (the machine may be shared: figures vary with its load)")
    greedy = getattr(gwa, "GreedyAgent", None)
    field = {"random": gwa.RandomAgent(), "greedy": greedy()} if greedy else {
        "random-a": gwa.RandomAgent(), "random-b": gwa.RandomAgent()}
    print(f"(a) tournament: Gridlock 4x4, {args.games} games, agents {list(field)}")
    times: dict[int, list[float]] = {1: [], 2: []}
    records = {}
    for rep in range(args.repeat):
        for n_jobs in (1, 2):
            t, res = timed(tournament, gw.Gridlock, field, games=args.games, n_jobs=n_jobs, seed=0,
                           progress=False, rows=4, cols=4)
            times[n_jobs].append(t)
            records[n_jobs] = res.records
            if rep == 0 and n_jobs == 2:
                print(f"    n_jobs=2, first run (starts the workers): {t:7.3f} s")
    assert records[1] == records[2], "n_jobs changed the results"
    best1, best2 = min(times[1]), min(times[2])
    print(f"    n_jobs=1: {best1:7.3f} s  ({args.games / best1:8.0f} games/s)  best of {args.repeat}")
    print(f"    n_jobs=2: {best2:7.3f} s  ({args.games / best2:8.0f} games/s)  best of {args.repeat}")
    print(f"    speed-up n_jobs=2 / n_jobs=1: {best1 / best2:5.2f}x  (identical records: yes)")
    print(res)

    g = gw.BlockFour(seed=3)
    print(f"(b) equilibrium of one Block Four position (turn 1, x_table={g.x_table}), rollouts={args.rollouts}")
    build, solve, whole = [], [], []
    for _ in range(args.repeat):
        t, table = timed(bid_matrix, g, rollouts=args.rollouts, seed=0)
        build.append(t)
        t, eq = timed(equilibrium, table)
        solve.append(t)
        t, eq2 = timed(equilibrium, g, rollouts=args.rollouts, seed=0)
        whole.append(t)
    assert (eq.x_array == eq2.x_array).all()
    print(f"    bid_matrix {table.shape[0]}x{table.shape[1]}: {statistics.median(build) * 1000:8.1f} ms (median)")
    print(f"    LP solve:            {statistics.median(solve) * 1000:8.2f} ms (median)")
    print(f"    equilibrium(game):   {statistics.median(whole) * 1000:8.1f} ms (median)")
    print(f"    value for X {eq.value:+.3f}; X {dict((k, round(v, 3)) for k, v in eq.x.items() if v)}, "
          f"O {dict((k, round(v, 3)) for k, v in eq.o.items() if v)}")


if __name__ == "__main__":
    main()
