"""Engine speed of every game, against a baseline checkout measured in the same run.

Run from the repository root, with the venv::

    .venv/bin/python benchmarks/engine_speed.py [--baseline PATH] [--rounds 5] [--quick]

For each of the package's four games (the default options) it times, through
the public API only:

- ``play``: random games, ``legal_moves()`` then ``play()`` of a move picked
  by a seeded ``random.Random`` (at a simultaneous node, each player's
  submission), to the end: games/s and microseconds per move;
- ``undo/redo``: the same games undone to the start and redone to the end;
- ``simulate``: ``simulate(n, seed=0, n_jobs=1, progress=False)``, games/s;
- ``mcts``: ``MCTSAgent(simulations=...)`` from the start, simulations/s.

With ``--baseline PATH`` (a checkout of another commit, e.g. made by ``git
worktree add /tmp/base HEAD~10``) the same measurements run on that code in a
child process (``PYTHONPATH=PATH``), alternating with ours, ``--rounds`` times
each; the medians and the ratio ours/baseline are printed (above 1: faster
now). Only names both versions have are used (``legal_moves``, ``play``,
``undo``, ``redo``, ``simulate``), so old and new code run the same script.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

GAMES = {
    "gridlock": ("Gridlock", {"rows": 6, "cols": 6}),
    "gridmaster4": ("GridMaster4", {}),
    "blockfour": ("BlockFour", {"x_table": ["L", "T"]}),
    "gridbloc": ("GridBloc", {}),
}


def _play_random(g, rng):
    """One random game to the end; returns the number of play() calls."""
    n = 0
    while not g.is_over:
        pending = getattr(g, "pending_bids", None)
        if pending is not None and g.phase == "bid":
            for p in (0, 1):
                moves = g.legal_moves(p)
                g.play(moves[rng.randrange(len(moves))], player=p)
                n += 1
            continue
        moves = g.legal_moves()
        g.play(moves[rng.randrange(len(moves))])
        n += 1
    return n


def measure(games: int, sims: int, mcts: int) -> dict:
    import gridwidgets as gw
    from gridwidgets.agents import MCTSAgent

    out = {}
    for key, (name, options) in GAMES.items():
        cls = getattr(gw, name)
        rng = random.Random(0)
        moves = 0
        t0 = time.perf_counter()
        played = []
        for _ in range(games):
            g = cls(**options)
            moves += _play_random(g, rng)
            played.append(g)
        play_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        try:
            for g in played:
                while True:
                    try:
                        g.undo()
                    except IndexError:
                        break
                while True:
                    try:
                        g.redo()
                    except IndexError:
                        break
            undo_s = time.perf_counter() - t0
        except ValueError:  # a version whose redo breaks (Block Four before the game protocol)
            undo_s = float("nan")
        sim_s = float("nan")
        if hasattr(cls, "simulate"):  # older versions lack it on some games
            t0 = time.perf_counter()
            cls.simulate(sims, seed=0, n_jobs=1, progress=False, **options)
            sim_s = time.perf_counter() - t0
        agent = MCTSAgent(simulations=mcts, seed=0)
        g = cls(**options)
        t0 = time.perf_counter()
        agent.choose(g.view_for(g.current_player))
        mcts_s = time.perf_counter() - t0
        out[key] = {
            "play_games_per_s": games / play_s,
            "us_per_move": 1e6 * play_s / max(1, moves),
            "undo_redo_games_per_s": games / undo_s,
            "simulate_games_per_s": sims / sim_s,
            "mcts_sims_per_s": mcts / mcts_s,
        }
    return out


def _child(path: str | None, args: argparse.Namespace) -> dict:
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = os.path.abspath(path)
    cmd = [sys.executable, os.path.abspath(__file__), "--child", "--games", str(args.games), "--sims",
           str(args.sims), "--mcts", str(args.mcts)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, cwd="/")
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", help="a checkout of the code to compare with (its repository root)")
    ap.add_argument("--rounds", type=int, default=5, help="alternating runs of each version (default 5)")
    ap.add_argument("--games", type=int, default=100, help="random games per game (default 100)")
    ap.add_argument("--sims", type=int, default=200, help="games per simulate() (default 200)")
    ap.add_argument("--mcts", type=int, default=2000, help="MCTS simulations (default 2000)")
    ap.add_argument("--quick", action="store_true", help="small counts, to check the script runs")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON only")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.quick:
        a.games, a.sims, a.mcts, a.rounds = 5, 10, 100, 1
    if a.child:
        print(json.dumps(measure(a.games, a.sims, a.mcts)))
        return 0
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ours: list[dict] = []
    base: list[dict] = []
    for _ in range(a.rounds):
        ours.append(_child(here, a))
        if a.baseline:
            base.append(_child(a.baseline, a))

    def med(runs: list[dict], game: str, key: str) -> float:
        return statistics.median(r[game][key] for r in runs)

    keys = ["play_games_per_s", "us_per_move", "undo_redo_games_per_s", "simulate_games_per_s", "mcts_sims_per_s"]
    result = {g: {k: {"ours": med(ours, g, k), **({"baseline": med(base, g, k)} if base else {})} for k in keys}
              for g in GAMES}
    if a.json:
        print(json.dumps(result))
        return 0
    print(f"Engine speed, medians of {a.rounds} alternating runs; {os.cpu_count()} cores"
          + (f"; baseline {a.baseline}" if a.baseline else ""))
    print(f"{'game':<12} {'figure':<24} {'ours':>11} {'baseline':>11} {'ours/base':>10}")
    for g in GAMES:
        for k in keys:
            o = result[g][k]["ours"]
            b = result[g][k].get("baseline")
            # for time per move, lower is better: show the speed ratio either way
            ratio = ((b / o) if k == "us_per_move" else (o / b)) if b else None
            print(f"{g:<12} {k:<24} {o:>11.1f} {b if b is not None else float('nan'):>11.1f} "
                  f"{ratio if ratio is not None else float('nan'):>10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
