"""How far from the end of a Block Four game the exact solver settles it.

``solve_simultaneous`` (gridwidgets.analysis) solves a position of Block Four
exactly: backward induction with the bid's matrix game solved by LP at every
turn, over everything that can follow (every bid, every placement, the stall
rule BF-11). This benchmark takes recorded games and, for each, the start of
each of its last turns (the bid position k turns from the end: k = 1 is the
last turn's bid), solves it with a time limit, and prints per k how many
positions were settled within 10 s and within 60 s, with the median time and
the values found.

The recorded games: Monte Carlo tree search against itself
(``MCTSAgent(simulations=300, seed=s)`` as X, ``seed=s + 1000`` as O, each
choosing on ``game.view_for(player)``, ``BlockFour(seed=s)``), saved as save
files in ``benchmarks/data/blockfour_games.json``; ``--record N`` makes them
again (seeds 0..N-1).

    .venv/bin/python benchmarks/blockfour_endgames.py --record 60     # the games (about a minute)
    .venv/bin/python benchmarks/blockfour_endgames.py                 # the table (k = 1..3, 60 s each)
    .venv/bin/python benchmarks/blockfour_endgames.py --turns 2 --limit 10
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import sys
import time

import gridwidgets as gw
from gridwidgets.analysis import SolveBudgetExceeded, solve_simultaneous

DATA = pathlib.Path(__file__).resolve().parent / "data" / "blockfour_games.json"


def record_one(seed: int) -> str:
    """One MCTS self-play game as a save file."""
    from gridwidgets.agents import MCTSAgent

    agents = [MCTSAgent(simulations=300, seed=seed), MCTSAgent(simulations=300, seed=seed + 1000)]
    g = gw.BlockFour(seed=seed)
    while not g.is_over:
        for p in g.players_to_move:
            g.play(agents[p].choose(g.view_for(p)), player=p)
    return g.to_json(indent=None)


def record(n: int, path: pathlib.Path = DATA) -> None:
    from joblib import Parallel, delayed

    games = Parallel(n_jobs=min(2, os.cpu_count() or 1))(delayed(record_one)(s) for s in range(n))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"agents": "MCTSAgent(simulations=300, seed=s) as X, seed=s+1000 as O",
                                "seeds": list(range(n)), "games": games}, indent=0))
    print(f"recorded {n} games to {path}")


def games(path: pathlib.Path = DATA) -> list[gw.BlockFour]:
    """The recorded games."""
    data = json.loads(path.read_text())
    return [gw.BlockFour.from_json(text) for text in data["games"]]


def turn_starts(game: gw.BlockFour) -> list[int]:
    """The steps at which a turn's bid begins, oldest first."""
    w = game.copy()
    out = []
    for i in range(game.step_count):
        w.goto(i)
        if w.is_simultaneous_node():
            out.append(i)
    return out


def endgame(game: gw.BlockFour, k: int) -> gw.BlockFour | None:
    """The bid position ``k`` turns from the end of ``game`` (1: the last turn's), or None."""
    starts = turn_starts(game)
    if len(starts) < k:
        return None
    w = game.copy()
    w.goto(starts[-k])
    return gw.BlockFour.from_position(w.position())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--record", type=int, default=0, help="record this many games first")
    ap.add_argument("--turns", type=int, default=3, help="k = 1..TURNS turns from the end")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per solve")
    ap.add_argument("--games", type=int, default=0, help="only the first GAMES games (0: all)")
    args = ap.parse_args(argv)
    if args.record:
        record(args.record)
    recorded = games()
    if args.games:
        recorded = recorded[: args.games]
    print(f"{len(recorded)} recorded games; load: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'k':>2} {'positions':>9} {'<=10 s':>7} {f'<={args.limit:g} s':>7} {'median s':>9} "
          f"{'X wins':>6} {'O wins':>6} {'other':>6}  empty spaces (median)")
    for k in range(1, args.turns + 1):
        times, values, empties = [], [], []
        n = 0
        for g in recorded:
            pos = endgame(g, k)
            if pos is None:
                continue
            n += 1
            empties.append(int((pos.board == -1).sum()))
            t = time.perf_counter()
            try:
                sol = solve_simultaneous(pos, time_limit=args.limit, progress=False)
            except SolveBudgetExceeded:
                times.append(float("inf"))
                continue
            times.append(time.perf_counter() - t)
            values.append(sol.value)
        within10 = sum(t <= 10 for t in times)
        within = sum(t <= args.limit for t in times)
        med = statistics.median(times) if times else float("nan")
        med_s = f"{med:9.2f}" if med != float("inf") else f"{'>' + format(args.limit, 'g'):>9}"
        xw = sum(v >= 1 - 1e-9 for v in values)
        ow = sum(v <= -1 + 1e-9 for v in values)
        print(f"{k:>2} {n:>9} {within10:>7} {within:>7} {med_s} {xw:>6} {ow:>6} {len(values) - xw - ow:>6}  "
              f"{statistics.median(empties) if empties else float('nan'):.0f}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
