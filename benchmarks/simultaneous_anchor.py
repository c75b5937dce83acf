"""The exact simultaneous-move solver checked against Gambit and OpenSpiel, and timed beside them.

For each Block Four endgame in ``benchmarks/data/blockfour_anchor_positions.json``
the whole game tree from the position is solved three ways, in one run:

- ours: ``solve_simultaneous`` (gridwidgets.analysis: backward induction with
  an LP at each bid, transpositions, SMAB pruning);
- Gambit: ``gridwidgets.analysis.extensive.gambit_solve``: the tree written as
  a Gambit ``.efg`` (``to_efg``), read by pygambit and solved by
  ``pygambit.nash.lp_solve`` (the sequence-form LP of Koller, Megiddo & von
  Stengel 1996);
- OpenSpiel: ``gridwidgets.analysis.extensive.openspiel_solve``: the position as a
  pyspiel game (``gridwidgets.interop.openspiel.from_position``),
  ``pyspiel.convert_to_turn_based``, ``sequence_form_lp.solve_zero_sum_game``
  (cvxpy with ECOS).

Each time includes the export (writing and reading the file, wrapping the
position), not the import of the solver's package; ours is the best of
``--repeat`` solves (each from scratch: a new transposition table). Gambit
and OpenSpiel each run in a child process with ``--timeout`` seconds and
``--memory`` GB (an over-long solve is shown as ``inf`` and its ratio is then
a lower bound: ``inf`` means "more than the timeout over ours"). The table gives the three values, the largest
difference between them, the three times and ``ratio = min(Gambit, OpenSpiel)
/ ours``.

The positions: the endgames of the MCTS games of ``blockfour_games.json``
have game trees far too large to write out: a turn whose two bids match
places nothing (BF-6) and only the stall rule ends a run of such turns, after
10 (BF-11), so the tree of every recorded MCTS endgame holds chains of up to
10 turns of bids (the last turn's bid of each of the 60 games: more than
10^8 nodes, although only a few thousand distinct positions, which is what
our solver's transposition table sees). Gambit and OpenSpiel need the tree.
So the anchor positions come from games where the stall counter did run
high: random self-play (``RandomAgent(seed=s)`` as X and
``RandomAgent(seed=s + 100000)`` as O, ``BlockFour(seed=s)``, each choosing
on ``view_for(player)``), the bid positions at which the counter had reached
7 or more and the tree holds at most ``--max-nodes`` nodes. Each is a
position the game reached as played; the file keeps each game's save file,
and the tests replay it to the position. ``--find`` plays seeds
``0 .. --seeds - 1`` again and writes the file (one position per game, the
largest tree of each size class: see ``PICK``).

    .venv/bin/python benchmarks/simultaneous_anchor.py                 # the table
    .venv/bin/python benchmarks/simultaneous_anchor.py --quick         # the positions of <= 2,000 nodes only
    .venv/bin/python benchmarks/simultaneous_anchor.py --find          # play the games and pick the positions again
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import re
import sys
import time

import gridwidgets as gw
from gridwidgets.analysis import solve_simultaneous
from gridwidgets.analysis.extensive import gambit_solve, openspiel_solve, tree_size

HERE = pathlib.Path(__file__).resolve().parent
POSITIONS = HERE / "data" / "blockfour_anchor_positions.json"


#: the trees (nodes) to pick, one position each: the smallest game of each size found by --find
PICK = (53, 1_054, 12_826, 16_951, 22_774, 24_094)


def record_one(seed: int) -> gw.BlockFour:
    """One random self-play game of Block Four (the agents of the module's docstring)."""
    from gridwidgets.agents import RandomAgent

    agents = [RandomAgent(seed=seed), RandomAgent(seed=seed + 100_000)]
    g = gw.BlockFour(seed=seed)
    while not g.is_over:
        for p in g.players_to_move:
            g.play(agents[p].choose(g.view_for(p)), player=p)
    return g


def find(max_nodes: int, seeds: int, path: pathlib.Path = POSITIONS) -> list[dict]:
    """Play random self-play games ``0 .. seeds - 1``; keep a bid position with the stall counter at 7
    or more and at most ``max_nodes`` nodes, one per tree size of ``PICK``; write them to ``path``."""
    found: dict[int, dict] = {}
    for seed in range(seeds):
        game = record_one(seed)
        w = game.copy()
        for step in range(game.step_count):
            w.goto(step)
            text = w.position()
            if not w.is_simultaneous_node() or int(re.search(r"stall=(\d+)", text).group(1)) < 7:  # type: ignore[union-attr]
                continue
            try:
                nodes = tree_size(gw.BlockFour.from_position(text), max_nodes)
            except ValueError:
                continue
            if nodes in PICK and nodes not in found:
                found[nodes] = {"seed": seed, "step": step, "position": text, "nodes": nodes,
                                "game": game.to_json(indent=None)}
                print(f"seed {seed} step {step}: {nodes:,} nodes", flush=True)
        if len(found) == len(PICK):
            break
    rows = [found[n] for n in sorted(found)]
    path.write_text(json.dumps({
        "source": "random self-play: RandomAgent(seed=s) as X, RandomAgent(seed=s + 100000) as O, BlockFour(seed=s)",
        "change": "none: positions as reached in play, the stall counter at 7 or more (BF-11)",
        "max_nodes": max_nodes, "positions": rows}, indent=1) + "\n")
    print(f"{len(rows)} positions written to {path}")
    return rows


def _child(which: str, text: str, max_nodes: int, memory: int, out) -> None:  # type: ignore[no-untyped-def]
    """Run one outside solver in a child process (its memory capped at ``memory`` bytes)."""
    import resource

    import pygambit  # noqa: F401 - imported before the solver's clock starts
    import pyspiel  # noqa: F401
    from open_spiel.python.algorithms import sequence_form_lp  # noqa: F401

    if memory:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    pos = gw.BlockFour.from_position(text)
    try:
        sol = (gambit_solve if which == "gambit" else openspiel_solve)(pos, max_nodes=max_nodes)
        out.put((sol.value, sol.payoffs, sol.seconds, ""))
    except (MemoryError, RuntimeError, ValueError) as exc:
        out.put((float("nan"), (float("nan"), float("nan")), float("nan"), f"{type(exc).__name__}: {exc}"[:80]))


def outside(which: str, text: str, max_nodes: int, timeout: float, memory: int) -> tuple:
    """``(value, payoffs, seconds, error)`` of Gambit or OpenSpiel on the position ``text``, in a
    child process stopped after ``timeout`` seconds (then ``seconds`` is ``inf``)."""
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    out = ctx.Queue()
    proc = ctx.Process(target=_child, args=(which, text, max_nodes, memory, out))
    proc.start()
    proc.join(timeout)
    if proc.is_alive():
        proc.terminate()
        proc.join()
        return float("nan"), (float("nan"), float("nan")), float("inf"), f"over {timeout:g} s"
    if out.empty():
        return float("nan"), (float("nan"), float("nan")), float("nan"), f"died (exit {proc.exitcode})"
    return out.get()  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--find", action="store_true", help="play the random self-play games and pick positions first")
    ap.add_argument("--seeds", type=int, default=20_000, help="games to play for --find (it stops once all are found)")
    ap.add_argument("--max-nodes", type=int, default=60_000, help="largest tree to take (--find) or solve")
    ap.add_argument("--quick", action="store_true", help="only trees of at most 2,000 nodes")
    ap.add_argument("--repeat", type=int, default=5, help="our solves per position (the best time is kept)")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds for each outside solve")
    ap.add_argument("--memory", type=float, default=6.0, help="GB of memory for each outside solve (0: no cap)")
    args = ap.parse_args(argv)
    if args.find:
        find(args.max_nodes, args.seeds)
    data = json.loads(POSITIONS.read_text())
    limit = 2_000 if args.quick else args.max_nodes
    rows = [p for p in data["positions"] if p["nodes"] <= limit]
    print(f"{len(rows)} positions ({data['source']}); load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    head = (f"{'seed':>5} {'step':>4} {'nodes':>7} {'ours':>8} {'Gambit':>8} {'OpenSpiel':>10} "
            f"{'max |diff|':>10} {'ours s':>8} {'Gambit s':>9} {'OpenSpiel s':>11} {'ratio':>7}")
    print(head)
    ratios: list[float] = []
    bounds: list[float] = []
    worst = 0.0
    for p in rows:
        pos = gw.BlockFour.from_position(p["position"])
        best = float("inf")
        for _ in range(max(1, args.repeat)):
            t = time.perf_counter()
            ours = solve_simultaneous(pos, progress=False, time_limit=600)
            best = min(best, time.perf_counter() - t)
        mem = int(args.memory * 1e9)
        ga = outside("gambit", p["position"], args.max_nodes, args.timeout, mem)
        os_ = outside("openspiel", p["position"], args.max_nodes, args.timeout, mem)
        vals = [ours.value, ga[0], os_[0]]
        pays = [(ours.value, -ours.value), ga[1], os_[1]]
        done = [k for k in range(3) if vals[k] == vals[k]]  # not NaN
        diff = max([abs(vals[a] - vals[b]) for a in done for b in done]
                   + [abs(pays[a][k] - pays[b][k]) for a in done for b in done for k in (0, 1)])
        worst = max(worst, diff)
        finished = [r[2] for r in (ga, os_) if r[2] == r[2] and r[2] != float("inf")]
        if finished:  # the faster of those that finished (one over the timeout is slower still)
            ratio, shown = min(finished) / best, f"{min(finished) / best:.0f}x"
            ratios.append(ratio)
        elif any(r[2] == float("inf") for r in (ga, os_)):  # none finished in time: a lower bound
            ratio, shown = args.timeout / best, f">{args.timeout / best:.0f}x"
            bounds.append(ratio)
        else:
            shown = "n/a"
        print(f"{p['seed']:>5} {p['step']:>4} {p['nodes']:>7,} {ours.value:>+8.4f} {ga[0]:>+8.4f} "
              f"{os_[0]:>+10.4f} {diff:>10.1e} {best:>8.4f} {ga[2]:>9.3f} {os_[2]:>11.3f} {shown:>7}", flush=True)
        for name, res in (("Gambit", ga), ("OpenSpiel", os_)):
            if res[3]:
                print(f"     {name}: {res[3]}")
    if ratios:
        print(f"values and equilibrium payoffs agree to {worst:.1e} wherever solved; ratio min(Gambit, OpenSpiel) / "
              f"ours from {min(ratios):.0f}x to {max(ratios):.0f}x where one of them finished"
              + (f", more than {min(bounds):.0f}x where neither did" if bounds else ""))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
