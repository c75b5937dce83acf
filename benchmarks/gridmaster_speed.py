"""Speed of the GridMaster4 engine: random games, bulk simulation, Warnsdorff tours.

Run from the repository root, with the venv::

    .venv/bin/python benchmarks/gridmaster_speed.py [--games 300] [--sim 10000] [--quick]

Three figures, each printed beside its goal:

(a) random full games, 4 players on 20x20 (the defaults), through the public
    API only: ``legal_moves()`` then ``play()`` of a move picked by a seeded
    ``random.Random``, to the end (goal: at least 750 games/s). For scale, the
    same games through the engine's internal ``_rollout`` (what ``simulate``
    uses, no history, no observers) are timed too.
(b) ``GridMaster4.simulate(10_000, seed=..., progress=False)`` wall time with
    ``n_jobs=2`` and ``n_jobs=-1`` (goal: at most 10 s), and the games/s of
    ``n_jobs=1`` for the speed-up ratio. The results must not depend on
    ``n_jobs`` (checked).
(c) Warnsdorff's rule on the one-player puzzle: for each of the 100 cells of
    a 10x10 board, play tile 1 there and time ``solve()`` (a full tour of 100
    tiles); median and max time per tour and the failures (goal: median
    under 50 ms). Every tour found is replayed through ``play()`` and must
    end with tile 100.

Timings use ``time.perf_counter``; the machine's core count is printed,
since (b) depends on it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time

from gridwidgets import GridMaster4

GOAL_GAMES_PER_S = 750
GOAL_SIM_S = 10.0
GOAL_TOUR_MEDIAN_MS = 50.0


def random_games(n_games: int, seed: int = 0) -> dict:
    """(a) ``n_games`` full random games through ``legal_moves()`` + ``play()``."""
    rng = random.Random(seed)
    moves = 0
    t0 = time.perf_counter()
    for _ in range(n_games):
        g = GridMaster4()
        while not g.is_over:
            legal = g.legal_moves()
            g.play(legal[rng.randrange(len(legal))])
        moves += len(g.history)
    public_s = time.perf_counter() - t0

    t0 = time.perf_counter()
    for k in range(n_games):
        GridMaster4()._rollout(random.Random(seed * 1_000_003 + k))
    rollout_s = time.perf_counter() - t0
    return {
        "games": n_games,
        "moves_per_game": moves / n_games,
        "public_s": public_s,
        "public_games_per_s": n_games / public_s,
        "public_us_per_move": public_s / moves * 1e6,
        "rollout_games_per_s": n_games / rollout_s,
    }


def simulation(n_games: int, seed: int = 1) -> dict:
    """(b) ``simulate`` wall time with n_jobs 1, 2 and -1."""
    out: dict = {"games": n_games, "cores": os.cpu_count()}
    results = {}
    for n_jobs in (1, 2, -1):
        t0 = time.perf_counter()
        results[n_jobs] = GridMaster4.simulate(n_games, seed=seed, n_jobs=n_jobs, progress=False)
        out[f"n_jobs={n_jobs}_s"] = time.perf_counter() - t0
        out[f"n_jobs={n_jobs}_games_per_s"] = n_games / out[f"n_jobs={n_jobs}_s"]
    out["same_results"] = results[1].equals(results[2]) and results[1].equals(results[-1])
    out["speedup_2"] = out["n_jobs=1_s"] / out["n_jobs=2_s"]
    out["speedup_all"] = out["n_jobs=1_s"] / out["n_jobs=-1_s"]
    return out


def warnsdorff(size: int = 10, seed: int = 0) -> dict:
    """(c) one Warnsdorff tour from every start cell of a ``size x size`` puzzle."""
    times_ms: list[float] = []
    failures: list[str] = []
    for r in range(size):
        for c in range(size):
            g = GridMaster4(size=size, players=1)
            g.play((r, c))
            t0 = time.perf_counter()
            try:
                tour = g.solve(seed=seed)
            except ValueError as exc:
                times_ms.append((time.perf_counter() - t0) * 1000)
                failures.append(f"{g.history[0]}: {exc}")
                continue
            times_ms.append((time.perf_counter() - t0) * 1000)
            for m in tour:
                g.play(m)
            if not (g.is_over and g.scores == (g.tiles_per_player,)):
                failures.append(f"{g.history[0]}: the tour does not end with tile {g.tiles_per_player}")
    return {
        "starts": size * size,
        "median_ms": statistics.median(times_ms),
        "max_ms": max(times_ms),
        "mean_ms": statistics.fmean(times_ms),
        "total_s": sum(times_ms) / 1000,
        "failures": failures,
    }


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300, help="(a) random games through the public API (default 300)")
    ap.add_argument("--sim", type=int, default=10_000, help="(b) games per simulate() run (default 10000)")
    ap.add_argument("--size", type=int, default=10, help="(c) puzzle board size (default 10)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="small counts, to check the script runs")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON only")
    a = ap.parse_args(argv)
    if a.quick:
        a.games, a.sim = 30, 1000

    res = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cores": os.cpu_count(),
        "a": random_games(a.games, a.seed),
        "b": simulation(a.sim, a.seed),
        "c": warnsdorff(a.size, a.seed),
    }
    if a.json:
        print(json.dumps(res))
        return 0
    ra, rb, rc = res["a"], res["b"], res["c"]
    print(f"GridMaster4 speed, Python {res['python']} on {res['machine']}, {res['cores']} cores")
    print()
    print(f"(a) random 4-player 20x20 games through legal_moves() + play(), {ra['games']} games")
    print(
        f"    {ra['public_games_per_s']:8.0f} games/s   goal >= {GOAL_GAMES_PER_S}  "
        f"[{verdict(ra['public_games_per_s'] >= GOAL_GAMES_PER_S)}]"
    )
    print(f"    {ra['moves_per_game']:8.1f} moves/game, {ra['public_us_per_move']:.2f} us per legal_moves()+play()")
    print(
        f"    {ra['rollout_games_per_s']:8.0f} games/s through the internal _rollout (no history, no observers);"
        f" ratio public/rollout {ra['public_games_per_s'] / ra['rollout_games_per_s']:.2f}"
    )
    print()
    print(f"(b) GridMaster4.simulate({rb['games']:_}, seed={a.seed}, progress=False)")
    for n_jobs in (1, 2, -1):
        s = rb[f"n_jobs={n_jobs}_s"]
        goal = f"   goal <= {GOAL_SIM_S:.0f} s  [{verdict(s <= GOAL_SIM_S)}]" if n_jobs != 1 else ""
        print(f"    n_jobs={n_jobs:<3} {s:6.2f} s  {rb[f'n_jobs={n_jobs}_games_per_s']:8.0f} games/s{goal}")
    print(
        f"    speed-up over n_jobs=1: {rb['speedup_2']:.2f}x (n_jobs=2), {rb['speedup_all']:.2f}x (n_jobs=-1);"
        f" same results for every n_jobs: {rb['same_results']}"
    )
    print()
    print(
        f"(c) Warnsdorff tours, one player on {a.size}x{a.size},"
        f" tile 1 on each of the {rc['starts']} cells, then solve()"
    )
    print(
        f"    median {rc['median_ms']:6.1f} ms   max {rc['max_ms']:6.1f} ms   mean {rc['mean_ms']:.1f} ms"
        f"   goal median < {GOAL_TOUR_MEDIAN_MS:.0f} ms  [{verdict(rc['median_ms'] < GOAL_TOUR_MEDIAN_MS)}]"
    )
    print(f"    failures: {len(rc['failures'])} of {rc['starts']}" + (f": {rc['failures']}" if rc["failures"] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
