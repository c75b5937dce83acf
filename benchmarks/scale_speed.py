"""Scale and speed (issue: a million games, compiled playouts, clusters).

Run from the repository root, with the venv::

    .venv/bin/python benchmarks/scale_speed.py [--games 20000] [--dask-games 100000] [--no-dask]

Figures, each with its reference measured in the same run:

(a) GridMaster4 20x20 (4 players, 100 tiles) random games/s through
    ``simulate`` (compiled, numba, one process) against the same call as it
    ran before issue 29's speed work (``simulate_before.py``: the old seeds,
    kernel and rows; checked to give the same table; goal at least 1.4x),
    against a naive pure-Python reference engine written here from the
    rules (GM-1..GM-8: the board as a list of lists, every legal cell found
    by scanning the board), and against ``simulate`` on the Python engines
    (``gridwidgets.fast.set_enabled(False)``). Goal: at least 100x the naive
    reference.
(b) MCTS simulations/s (``MCTSAgent(simulations=N, seed=0).choose()`` from
    the opening): Gridlock 4x4 (goal 100,000/s) and GridMaster4 20x20
    (goal 10,000/s), compiled and in Python.
(c) OpenSpiel's C++ ``MCTSBot`` (random rollouts, the same UCT constant) on
    its C++ ``hex`` 5x5 against our compiled MCTS on Gridlock 5x5 (25 cells
    each): our ratio to it (goal at least 0.5).
(d) A Dask ``LocalCluster`` with 2 worker processes against ``n_jobs=1``
    for ``--dask-games`` GridMaster4 games: the speed-up, and the overhead
    per game (``2 * t_cluster - t_1`` over the games: time the two workers
    spend beyond the games themselves).

Timings use ``time.perf_counter``; the compiled kernels are compiled (or
loaded from numba's cache) before any timing. The load average is printed:
other processes on the machine make the figures noisy.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from simulate_before import simulate_before

import gridwidgets as gw
from gridwidgets import fast
from gridwidgets.agents import MCTSAgent
from gridwidgets.sim import simulate

JUMPS = ((-3, 0), (3, 0), (0, -3), (0, 3), (-2, -2), (-2, 2), (2, -2), (2, 2))


def naive_game(rng: random.Random, size: int = 20, players: int = 4, tiles: int = 100) -> tuple[int, ...]:
    """One random GridMaster4 game, written plainly from the rules (GM-1..GM-8):
    returns the winners. No incremental state: each turn scans the board."""
    owner = [[-1] * size for _ in range(size)]
    active = [[False] * size for _ in range(size)]
    score = [0] * players
    in_play = [True] * players
    owed = [0] * players
    opened = [False] * players
    p = 0

    def targets(q: int) -> list[tuple[int, int]]:
        out = set()
        for r in range(size):
            for c in range(size):
                if owner[r][c] == q and active[r][c]:
                    for dr, dc in JUMPS:
                        rr, cc = r + dr, c + dc
                        if 0 <= rr < size and 0 <= cc < size and owner[rr][cc] < 0:
                            out.add((rr, cc))
        return sorted(out)

    def empty() -> list[tuple[int, int]]:
        return [(r, c) for r in range(size) for c in range(size) if owner[r][c] < 0]

    while True:
        # the start of a turn (GM-6, GM-7)
        while True:
            if not any(in_play):
                best = max(score)
                return tuple(q for q in range(players) if score[q] == best)
            if not in_play[p]:
                p = (p + 1) % players
                continue
            if not opened[p] or owed[p] or targets(p):
                break
            in_play[p] = False
            for q in range(players):
                if in_play[q]:
                    owed[q] += 1
            p = (p + 1) % players
        free = not opened[p] or owed[p]
        cells = empty() if free else targets(p)
        r, c = cells[rng.randrange(len(cells))]
        score[p] += 1
        owner[r][c] = p
        if not opened[p]:
            opened[p] = True
        elif owed[p]:
            owed[p] -= 1
        else:
            for dr, dc in JUMPS:
                rr, cc = r + dr, c + dc
                if 0 <= rr < size and 0 <= cc < size and owner[rr][cc] == p:
                    active[rr][cc] = False
        active[r][c] = True
        if score[p] == tiles:
            return (p,)
        if not empty():
            best = max(score)
            return tuple(q for q in range(players) if score[q] == best)
        p = (p + 1) % players


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def best_of_each(fns: list, repeat: int) -> list[float]:
    """The best time of each function, their runs taken in turn (a slow spell
    of the machine falls on all of them alike)."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for fn, out in zip(fns, times, strict=True):
            t = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t)
    return [min(t) for t in times]


def mcts_rate(game: gw.Game, sims: int, repeat: int) -> float:
    agent = MCTSAgent(simulations=sims, seed=0)
    return sims / best_of(lambda: agent.choose(game), repeat)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20_000, help="games for the compiled simulate figure")
    ap.add_argument("--dask-games", type=int, default=100_000)
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}, numba {'on' if fast.enabled() else 'off'}")
    fast.require()

    # (a) random games
    simulate(gw.GridMaster4, 20, seed=0, progress=False)  # compile / load the kernels
    simulate_before(20, seed=0)
    if not simulate(gw.GridMaster4, args.games, seed=1, progress=False).equals(simulate_before(args.games, seed=1)):
        raise SystemExit("simulate and simulate_before give different tables")
    t, t_before = best_of_each([lambda: simulate(gw.GridMaster4, args.games, seed=1, progress=False),
                                lambda: simulate_before(args.games, seed=1)], args.repeat)
    compiled, before = args.games / t, args.games / t_before
    fast.set_enabled(False)
    n_py = max(200, args.games // 20)
    python = n_py / best_of(lambda: simulate(gw.GridMaster4, n_py, seed=1, progress=False), 1)
    fast.set_enabled(True)
    n_naive = 100
    rng = random.Random(1)
    naive = n_naive / best_of(lambda: [naive_game(rng) for _ in range(n_naive)], 1)
    print("(a) GridMaster4 20x20, 4 players, random games/s (one process):")
    print(f"    simulate, compiled   {compiled:10,.0f}   ({compiled / naive:,.0f}x the naive reference; goal 100x)")
    print(f"    the same, before     {before:10,.0f}   (today {compiled / before:.2f}x that; goal 1.4x; same table)")
    print(f"    simulate, Python     {python:10,.0f}   ({python / naive:,.1f}x)")
    print(f"    naive reference      {naive:10,.1f}")

    # (b) MCTS
    print("(b) MCTS simulations/s from the opening (MCTSAgent, seed 0):")
    cases = [("Gridlock 4x4", gw.Gridlock(rows=4, cols=4), 100_000, 5_000, 100_000),
             ("GridMaster4 20x20", gw.GridMaster4(), 20_000, 300, 10_000)]
    ours_5x5 = 0.0
    for label, game, sims, sims_py, goal in cases:
        mcts_rate(game, 100, 1)
        rate = mcts_rate(game, sims, args.repeat)
        fast.set_enabled(False)
        rate_py = mcts_rate(game, sims_py, 1)
        fast.set_enabled(True)
        print(f"    {label:<18} compiled {rate:10,.0f}/s (goal {goal:,})   Python {rate_py:8,.0f}/s "
              f"({rate / rate_py:,.0f}x)")

    # (c) OpenSpiel's C++ MCTSBot
    try:
        import pyspiel
    except ImportError:
        print("(c) skipped: OpenSpiel is not installed (pip install 'gridwidgets[openspiel]')")
    else:
        sims = 50_000
        g5 = gw.Gridlock(rows=5, cols=5)
        mcts_rate(g5, 100, 1)
        ours_5x5 = mcts_rate(g5, sims, args.repeat)
        hexgame = pyspiel.load_game("hex", {"board_size": 5})
        bot = pyspiel.MCTSBot(hexgame, pyspiel.RandomRolloutEvaluator(1, 0), 1.4, sims, 1000, False, 0, False)
        state = hexgame.new_initial_state()
        theirs = sims / best_of(lambda: bot.step(state), args.repeat)
        print("(c) MCTS simulations/s, 25 cells, random rollouts, c = 1.4:")
        print(f"    ours, compiled, Gridlock 5x5      {ours_5x5:10,.0f}/s")
        print(f"    OpenSpiel C++ MCTSBot, hex 5x5    {theirs:10,.0f}/s")
        print(f"    ratio ours / OpenSpiel C++        {ours_5x5 / theirs:10.2f} (goal at least 0.5)")

    # (d) Dask
    if not args.no_dask:
        import joblib
        from distributed import Client, LocalCluster

        n = args.dask_games
        t1 = best_of(lambda: simulate(gw.GridMaster4, n, seed=2, progress=False), 1)
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                          host="127.0.0.1") as cluster, Client(cluster), joblib.parallel_config(backend="dask"):
            simulate(gw.GridMaster4, 2000, seed=0, n_jobs=None, progress=False)  # workers compile / load kernels
            t2 = best_of(lambda: simulate(gw.GridMaster4, n, seed=2, n_jobs=None, progress=False), 1)
        print(f"(d) {n:,} GridMaster4 games: n_jobs=1 {t1:.2f} s, Dask LocalCluster (2 workers) {t2:.2f} s: "
              f"speed-up {t1 / t2:.2f}x, overhead {max(0.0, 2 * t2 - t1) / n * 1e6:.1f} us per game")


if __name__ == "__main__":
    main()
