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

The positions: the recorded games of ``blockfour_games.json`` (MCTS self-play)
have endgames whose game trees are astronomically large: a turn whose two
bids match places nothing (BF-6) and the game only ends by the stall rule
after 10 such turns in a row (BF-11), so every recorded endgame's tree holds
chains of up to 10 turns of bids (the last turn's bid position of every one of
the 60 games: more than 10^8 nodes, although only a few thousand distinct
positions, which is what our solver's transposition table sees). Gambit and
OpenSpiel need the tree. So the anchor positions are recorded positions with
**one change: the stall counter raised to the most the turn allows**
(``stall = turn - 1``, at most 9), which cuts the stall chains short; the
board, hands, tables, turn and phase are the recorded ones. ``--find``
scans every step of the 60 recorded games for such positions whose tree
holds a bid and at most ``--max-nodes`` nodes and writes the file again;
the table then also prints, per position, the tree size of the position as
recorded (refused past 10^8).

    .venv/bin/python benchmarks/simultaneous_anchor.py                 # the table
    .venv/bin/python benchmarks/simultaneous_anchor.py --quick         # the positions of <= 2,000 nodes only
    .venv/bin/python benchmarks/simultaneous_anchor.py --find          # scan the recorded games again first
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
GAMES = HERE / "data" / "blockfour_games.json"
POSITIONS = HERE / "data" / "blockfour_anchor_positions.json"


def raised_stall(text: str) -> str:
    """The position ``text`` with its stall counter raised to the most its turn allows (``turn - 1``, at most 9)."""
    turn = int(re.search(r"turn=(\d+)", text).group(1))  # type: ignore[union-attr]
    return re.sub(r"stall=\d+", f"stall={min(9, turn - 1)}", text)


def find(max_nodes: int, path: pathlib.Path = POSITIONS) -> list[dict]:
    """Scan every step of the recorded games for anchor positions; write them to ``path``."""
    from gridwidgets.analysis.simultaneous import _is_joint

    data = json.loads(GAMES.read_text())
    found = []
    for index, save in enumerate(data["games"]):
        game = gw.BlockFour.from_json(save)
        w = game.copy()
        for step in range(game.step_count):
            w.goto(step)
            if w.is_over or w.pending:
                continue
            recorded = w.position()
            text = raised_stall(recorded)
            try:
                pos = gw.BlockFour.from_position(text)
                nodes = tree_size(pos, max_nodes)
            except ValueError:
                continue
            if not _has_bid(pos, _is_joint):
                continue
            found.append({"game": index, "seed": data["seeds"][index], "step": step,
                          "turn": int(re.search(r"turn=(\d+)", text).group(1)),  # type: ignore[union-attr]
                          "recorded": recorded, "position": text, "nodes": nodes})
            print(f"game {index} step {step}: {nodes:,} nodes", flush=True)
    path.write_text(json.dumps({
        "source": "benchmarks/data/blockfour_games.json (" + data["agents"] + ")",
        "change": "stall counter raised to min(9, turn - 1) (BF-11); everything else as recorded",
        "max_nodes": max_nodes, "positions": found}, indent=1) + "\n")
    print(f"{len(found)} positions written to {path}")
    return found


def _has_bid(game: gw.BlockFour, is_joint) -> bool:  # type: ignore[no-untyped-def]
    """Whether the tree from ``game`` holds a simultaneous node (a bid)."""
    seen = set()
    stack = [game.copy()]
    while stack:
        g = stack.pop()
        if g.is_over:
            continue
        if is_joint(g):
            return True
        key = g.position_key()
        if key in seen:
            continue
        seen.add(key)
        for m in g.legal_moves():
            c = g.copy()
            c.play(m)
            stack.append(c)
    return False


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
    ap.add_argument("--find", action="store_true", help="scan the recorded games for positions first")
    ap.add_argument("--max-nodes", type=int, default=60_000, help="largest tree to take (--find) or solve")
    ap.add_argument("--quick", action="store_true", help="only trees of at most 2,000 nodes")
    ap.add_argument("--repeat", type=int, default=5, help="our solves per position (the best time is kept)")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds for each outside solve")
    ap.add_argument("--memory", type=float, default=6.0, help="GB of memory for each outside solve (0: no cap)")
    args = ap.parse_args(argv)
    if args.find:
        find(args.max_nodes)
    data = json.loads(POSITIONS.read_text())
    limit = 2_000 if args.quick else args.max_nodes
    rows = [p for p in data["positions"] if p["nodes"] <= limit]
    print(f"{len(rows)} positions ({data['change']}); load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    head = (f"{'game':>4} {'step':>4} {'nodes':>7} {'recorded tree':>14} {'ours':>8} {'Gambit':>8} {'OpenSpiel':>10} "
            f"{'max |diff|':>10} {'ours s':>8} {'Gambit s':>9} {'OpenSpiel s':>11} {'ratio':>7}")
    print(head)
    ratios: list[float] = []
    bounds: list[float] = []
    worst = 0.0
    for p in rows:
        pos = gw.BlockFour.from_position(p["position"])
        try:
            recorded = f"{tree_size(gw.BlockFour.from_position(p['recorded']), 10**8):,}"
        except ValueError:
            recorded = "> 10^8"
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
        print(f"{p['game']:>4} {p['step']:>4} {p['nodes']:>7,} {recorded:>14} {ours.value:>+8.4f} {ga[0]:>+8.4f} "
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
