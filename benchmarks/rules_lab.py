"""The rules lab's full-size figures (``gridwidgets.lab``), quoted in docs/lab.md.

Run from the repository root, with the venv::

    .venv/bin/python benchmarks/rules_lab.py [--games 2000] [--mcts-games 100] [--solve-seconds 600] [--skip-6x6]

Figures:

(a) Gridlock, every board from 2x2 to 6x6: the solver's verdict (who wins
    with perfect play, the winning first moves) and its time, beside the
    first player's win rate under random play (``--games`` per board) and
    under MCTS self-play (``MCTSAgent(simulations=200)``, ``--mcts-games``
    per board, boards up to 5x5).
(b) GridMaster4: each seat's win rate under random play, for 2, 3 and 4
    players on boards of size 10 and 20.
(c) The lab's own speed: seconds for the 25 Gridlock variants of (a) at
    random play, and games/s on GridMaster4 20x20 (compiled outcomes plus
    100 traced games per variant) against ``simulate`` alone, same run.

Every figure is seeded (``seed=0``); the times are wall times on this
machine (2 cores) and noisy when other processes run.
"""

from __future__ import annotations

import argparse
import os
import time

import pandas as pd

import gridwidgets as gw
from gridwidgets import lab
from gridwidgets.agents import MCTSAgent
from gridwidgets.sim import simulate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--mcts-games", type=int, default=100)
    ap.add_argument("--solve-seconds", type=float, default=600.0)
    ap.add_argument("--skip-6x6", action="store_true", help="boards up to 5x6 and 6x5 only")
    args = ap.parse_args()
    pd.set_option("display.width", 200)
    pd.set_option("display.max_columns", 30)
    print(f"load average {os.getloadavg()}")

    sizes = [2, 3, 4, 5, 6]
    t0 = time.perf_counter()
    table = lab.measure(gw.Gridlock, args.games, rows=sizes, cols=sizes, progress=False, check=0, solve_seconds=0)
    random_seconds = time.perf_counter() - t0
    verdicts = []
    for rows in sizes:
        for cols in sizes:
            if args.skip_6x6 and rows == cols == 6:
                verdicts.append({"solver": "skipped", "winning_moves": "", "solve_seconds": float("nan")})
                continue
            one = lab.measure(gw.Gridlock, 1, rows=rows, cols=cols, progress=False, check=0,
                              solve_seconds=args.solve_seconds, trace_games=0)
            verdicts.append(one.iloc[0][["solver", "winning_moves", "solve_seconds", "solver_note"]].to_dict())
    table = table.drop(columns=["solver", "winning_moves", "solve_seconds", "solver_note"]).join(
        pd.DataFrame(verdicts))
    mcts = lab.measure(gw.Gridlock, args.mcts_games, agent=MCTSAgent(simulations=200), rows=sizes[:4],
                       cols=sizes[:4], progress=False, check=0, solve_seconds=0, n_jobs=-1)
    table = table.merge(mcts[["rows", "cols", "advantage"]].rename(columns={"advantage": "advantage_mcts200"}),
                        on=["rows", "cols"], how="left")
    print("\n(a) Gridlock: the solver's verdict beside the first player's win rate (random; MCTS 200 sims)")
    cols = ["rows", "cols", "solver", "winning_moves", "solve_seconds", "advantage", "advantage_low",
            "advantage_high", "advantage_mcts200", "duration_moves"]
    print(table[cols].to_string(index=False, float_format=lambda v: f"{v:.3f}"))

    print("\n(b) GridMaster4: sole wins by seat, random play")
    gm = lab.measure(gw.GridMaster4, args.games, players=[2, 3, 4], size=[10, 20], progress=False, check=0)
    seat_cols = ["size", "players", "win_p1", "win_p2", "win_p3", "win_p4", "balance", "drawishness",
                 "duration_moves", "branching_factor"]
    print(gm[seat_cols].to_string(index=False, float_format=lambda v: f"{v:.3f}"))

    print("\n(c) The lab's speed")
    print(f"    Gridlock 2x2..6x6, {args.games} random games each, no solver: {random_seconds:.1f} s")
    n = 20_000
    simulate(gw.GridMaster4, 100, seed=0, progress=False)  # compile / load the kernels
    t0 = time.perf_counter()
    simulate(gw.GridMaster4, n, seed=1, progress=False)
    sim_rate = n / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    lab.measure(gw.GridMaster4, n, progress=False, check=0, seed=1)
    lab_rate = n / (time.perf_counter() - t0)
    print(f"    GridMaster4 20x20, {n:,} games: simulate {sim_rate:,.0f} games/s; "
          f"the lab (plus 100 traced games) {lab_rate:,.0f} games/s ({lab_rate / sim_rate:.2f}x)")


if __name__ == "__main__":
    main()
