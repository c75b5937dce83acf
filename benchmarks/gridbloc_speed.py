"""Speed of the GridBloc engine: random games, bulk simulation, the reachability check.

Run from the repository root, with the venv::

    .venv/bin/python benchmarks/gridbloc_speed.py [--games 200] [--sim 2000] [--quick]

Three figures, each printed beside its goal:

(a) random full games (two rounds) on the 9x9 classic board through the
    public API only: ``legal_moves()`` then ``play()`` of a move picked by a
    seeded ``random.Random``, to the end (goal: at least 100 games/s). For
    scale, the time of the blocker's ``legal_moves()`` alone is given: it
    lists every open edge as a ``Wall``.
(b) ``GridBloc.simulate(n, seed=..., n_jobs=1)`` and ``n_jobs=2``: games/s,
    the speed-up (goal: at least 1.6x with 2 workers on a machine with 2 or
    more cores) and the check that the results do not depend on ``n_jobs``.
    Baseline, in the same run: the speed-up of a bare CPU loop run in two
    processes at once over the same loop run twice in one, which is what the
    machine can give two workers at that moment (on a shared machine, less
    than 2x).
(c) the reachability check (GB-6) in round-one positions of random games,
    on 9x9 (classic) and 26x26 (blank): ``reachable()`` (the runner's whole
    region, as the widget's region shading uses it) and ``_trapped()`` (the
    round-end check the engine runs after every step and wall; it stops at
    the first unscored tile). Three kinds of positions: *mid* (half way
    through round one), *late* (the last position before the round ends)
    and *sealed*: the mid positions with every tile of the runner's region
    marked scored (on a copy, through the private ``_visited``), so that
    ``_trapped()`` walks the whole region and answers True, as it does once
    per round, at its end: its worst case. Median time per call over every
    position and repetition (goal on 9x9: under 1 ms, for both functions). Baseline, in the same run: a bare
    breadth-first search over the same board with no walls (8 neighbours
    from a precomputed list), the floor of a Python flood fill of that size.

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
from collections.abc import Callable

from gridwidgets import GridBloc

GOAL_GAMES_PER_S = 100
GOAL_SPEEDUP_2 = 1.6
GOAL_REACH_9_MS = 1.0


def random_games(n_games: int, seed: int = 0) -> dict:
    """(a) ``n_games`` full random games through ``legal_moves()`` + ``play()``."""
    rng = random.Random(seed)
    moves = 0
    block_calls = 0
    block_s = 0.0
    t0 = time.perf_counter()
    for _ in range(n_games):
        g = GridBloc()
        while not g.is_over:
            if g.to_act == "block":
                t1 = time.perf_counter()
                legal = g.legal_moves()
                block_s += time.perf_counter() - t1
                block_calls += 1
            else:
                legal = g.legal_moves()
            g.play(legal[rng.randrange(len(legal))])
        moves += len(g.history)
    total_s = time.perf_counter() - t0
    return {
        "games": n_games,
        "moves_per_game": moves / n_games,
        "s": total_s,
        "games_per_s": n_games / total_s,
        "us_per_move": total_s / moves * 1e6,
        "blocker_legal_moves_us": block_s / block_calls * 1e6,
        "blocker_legal_moves_share": block_s / total_s,
    }


def _burn(n: int) -> int:
    s = 0
    for i in range(n):
        s += i * i
    return s


def machine_speedup(n: int = 5_000_000) -> float:
    """The baseline of (b): two processes of a bare CPU loop against the same two loops in one."""
    import multiprocessing

    t0 = time.perf_counter()
    _burn(n)
    _burn(n)
    serial = time.perf_counter() - t0
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pool.map(_burn, [1000, 1000])  # start the workers before timing
        t0 = time.perf_counter()
        pool.map(_burn, [n, n], chunksize=1)
        parallel = time.perf_counter() - t0
    return serial / parallel


def simulation(n_games: int, seed: int = 1) -> dict:
    """(b) ``simulate`` wall time with n_jobs 1 and 2."""
    out: dict = {"games": n_games, "cores": os.cpu_count(), "machine_speedup_2": machine_speedup()}
    results = {}
    for n_jobs in (1, 2):
        t0 = time.perf_counter()
        results[n_jobs] = GridBloc.simulate(n_games, seed=seed, n_jobs=n_jobs, progress=False)
        out[f"n_jobs={n_jobs}_s"] = time.perf_counter() - t0
        out[f"n_jobs={n_jobs}_games_per_s"] = n_games / out[f"n_jobs={n_jobs}_s"]
    out["same_results"] = results[1].equals(results[2])
    out["speedup_2"] = out["n_jobs=1_s"] / out["n_jobs=2_s"]
    r = results[1]
    out["mean_length"] = statistics.fmean(r["length"])
    return out


def positions(size: int, preset: str, n_games: int, seed: int) -> dict[str, list[GridBloc]]:
    """Round-one positions of seeded random games: half way through the round, its last position,
    and the first with the runner's whole region scored (the worst case of ``_trapped``)."""
    rng = random.Random(seed)
    mid, late = [], []
    for _ in range(n_games):
        g = GridBloc(size=size, preset=preset)
        while g.round == 1:
            legal = g.legal_moves()
            g.play(legal[rng.randrange(len(legal))])
        n = len(g.history)  # the move that ended round one
        g.undo()
        late.append(g.copy())
        while len(g.history) > n // 2:
            g.undo()
        mid.append(g.copy())
    sealed = []
    for g in mid:
        s = g.copy()
        for r, c in s.reachable():
            s._visited[r * size + c] = True
        assert s._trapped()
        sealed.append(s)
    return {"mid": mid, "late": late, "sealed": sealed}


def per_call_ms(fn: Callable[[], object], repeats: int, min_batch_s: float = 0.002) -> list[float]:
    """Time ``fn`` in batches long enough for the clock; the time per call of each batch, in ms."""
    k = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(k):
            fn()
        dt = time.perf_counter() - t0
        if dt >= min_batch_s or k >= 1 << 16:
            break
        k *= 2
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(k):
            fn()
        out.append((time.perf_counter() - t0) / k * 1000)
    return out


def bare_bfs(size: int) -> Callable[[], object]:
    """The baseline: a flood fill of the whole ``size x size`` board, 8 neighbours, no walls."""
    adj = []
    for r in range(size):
        for c in range(size):
            adj.append([
                rr * size + cc
                for rr in (r - 1, r, r + 1)
                for cc in (c - 1, c, c + 1)
                if (rr, cc) != (r, c) and 0 <= rr < size and 0 <= cc < size
            ])
    start = (size // 2) * size + size // 2

    def run() -> list[int]:
        seen = {start}
        todo = [start]
        while todo:
            for j in adj[todo.pop()]:
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
        return sorted(seen)

    return run


def reachability(size: int, preset: str, n_games: int, repeats: int, seed: int = 2) -> dict:
    """(c) median ms per call of ``reachable()`` and ``_trapped()`` over positions and repetitions."""
    t0 = time.perf_counter()
    pos = positions(size, preset, n_games, seed)
    out: dict = {"size": size, "preset": preset, "positions": n_games, "setup_s": time.perf_counter() - t0}
    for kind, games in pos.items():
        reach = [t for g in games for t in per_call_ms(g.reachable, repeats)]
        trapped = [t for g in games for t in per_call_ms(g._trapped, repeats)]
        out[kind] = {
            "walls": statistics.fmean(len(g.walls) for g in games),
            "region": statistics.fmean(len(g.reachable()) for g in games),
            "unscored": statistics.fmean(g.unscored_reachable() for g in games),
            "reachable_ms": statistics.median(reach),
            "reachable_max_ms": max(reach),
            "trapped_ms": statistics.median(trapped),
            "trapped_max_ms": max(trapped),
        }
    out["baseline_ms"] = statistics.median(per_call_ms(bare_bfs(size), repeats * 5))
    return out


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="(a) random games through the public API (default 200)")
    ap.add_argument("--sim", type=int, default=2000, help="(b) games per simulate() run (default 2000)")
    ap.add_argument("--positions", type=int, default=30, help="(c) random games giving positions on 9x9 (default 30)")
    ap.add_argument("--positions-26", type=int, default=6, help="(c) the same on 26x26 (default 6)")
    ap.add_argument("--repeats", type=int, default=7, help="(c) timed batches per position (default 7)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="small counts, to check the script runs")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON only")
    a = ap.parse_args(argv)
    if a.quick:
        a.games, a.sim, a.positions, a.positions_26, a.repeats = 20, 200, 5, 1, 3

    res = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cores": os.cpu_count(),
        "a": random_games(a.games, a.seed),
        "b": simulation(a.sim, a.seed),
        "c9": reachability(9, "classic", a.positions, a.repeats, a.seed),
        "c26": reachability(26, "blank", a.positions_26, a.repeats, a.seed),
    }
    if a.json:
        print(json.dumps(res))
        return 0
    ra, rb = res["a"], res["b"]
    print(f"GridBloc speed, Python {res['python']} on {res['machine']}, {res['cores']} cores")
    print()
    print(f"(a) random two-round games on the 9x9 classic board through legal_moves() + play(), {ra['games']} games")
    print(
        f"    {ra['games_per_s']:8.0f} games/s   goal >= {GOAL_GAMES_PER_S}  "
        f"[{verdict(ra['games_per_s'] >= GOAL_GAMES_PER_S)}]"
    )
    print(f"    {ra['moves_per_game']:8.1f} moves/game, {ra['us_per_move']:.1f} us per legal_moves()+play()")
    print(
        f"    the blocker's legal_moves() (every open edge as a Wall): {ra['blocker_legal_moves_us']:.1f} us a call,"
        f" {ra['blocker_legal_moves_share']:.0%} of the time"
    )
    print()
    print(f"(b) GridBloc.simulate({rb['games']:_}, seed={a.seed}, progress=False), 9x9 classic")
    for n_jobs in (1, 2):
        s, rate = rb[f"n_jobs={n_jobs}_s"], rb[f"n_jobs={n_jobs}_games_per_s"]
        print(f"    n_jobs={n_jobs}  {s:6.2f} s  {rate:8.0f} games/s")
    ok = rb["speedup_2"] >= GOAL_SPEEDUP_2 or (res["cores"] or 1) < 2
    print(
        f"    speed-up with 2 workers: {rb['speedup_2']:.2f}x   goal >= {GOAL_SPEEDUP_2}x  [{verdict(ok)}];"
        f" same results for n_jobs 1 and 2: {rb['same_results']}"
    )
    print(f"    baseline: a bare CPU loop in 2 processes runs {rb['machine_speedup_2']:.2f}x as fast as in one, now")
    print()
    print("(c) the reachability check (GB-6), median time per call, round-one positions of random games")
    for key in ("c9", "c26"):
        rc = res[key]
        print(
            f"    {rc['size']}x{rc['size']} {rc['preset']}, {rc['positions']} games; baseline (bare flood fill"
            f" of {rc['size'] ** 2} tiles, no walls): {rc['baseline_ms'] * 1000:.0f} us"
        )
        for kind in ("mid", "late", "sealed"):
            r = rc[kind]
            goal = ""
            if rc["size"] == 9:
                worst = max(r["reachable_ms"], r["trapped_ms"])
                goal = f"   goal < {GOAL_REACH_9_MS:.0f} ms  [{verdict(worst < GOAL_REACH_9_MS)}]"
            where = f"{r['walls']:.0f} walls, region {r['region']:.0f} tiles, {r['unscored']:.0f} unscored"
            print(
                f"      {kind:<6} ({where}):"
                f" reachable() {r['reachable_ms'] * 1000:7.1f} us (max {r['reachable_max_ms'] * 1000:.0f}),"
                f" _trapped() {r['trapped_ms'] * 1000:7.1f} us (max {r['trapped_max_ms'] * 1000:.0f}){goal}"
            )
        print(
            f"      ratio to the baseline, mid: reachable() {rc['mid']['reachable_ms'] / rc['baseline_ms']:.1f}x,"
            f" sealed: _trapped() {rc['sealed']['trapped_ms'] / rc['baseline_ms']:.1f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
