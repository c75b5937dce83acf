"""Speed of the Block Four engine: random games, bulk simulation, legal placements, bid analysis.

Run from the repository root, with the venv::

    .venv/bin/python benchmarks/blockfour_speed.py [--games 300] [--sim 2000] [--quick]

Four figures, each printed beside its goal:

(a) random full games through the public API only: ``legal_moves()`` then
    ``play()`` of a move picked by a seeded ``random.Random`` (bids and
    placements alike), to the end (goal: at least 100 games/s). Moves per
    game and microseconds per ``legal_moves()`` + ``play()`` are printed too.
(b) ``BlockFour.simulate(n, seed=..., progress=False, x_table=("L", "T"))``
    with ``n_jobs=1`` and ``n_jobs=2`` (goal: 2,000 games in at most 10 s
    with ``n_jobs=2``). The results must not depend on ``n_jobs`` (checked).
    The setup is fixed here; left to the engine, each game's setup is drawn
    from that game's own seed (BF-4, ``Game.new_for_seed``), so two runs with
    the same seed agree too (checked and printed).
(c) listing every legal placement of each shape on an empty board, as the
    widget does for each placement (BF-3, BF-7): the median over many
    repetitions of ``legal_moves()`` in a placement phase of that shape
    (goal: under 2 ms for each shape, and for the five together). The empty
    board in a placement phase is a constructed position (``_placing``).
(d) the bid analysis of one mid-game position (``gridwidgets.analysis``):
    ``bid_table`` (goal: under 5 ms) and ``bid_matrix(rollouts=20)``
    (goal: under 2 s), each the median of a few runs.

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

from gridwidgets import BlockFour
from gridwidgets.analysis import bid_matrix, bid_table
from gridwidgets.games.blockfour import placement_order

GOAL_GAMES_PER_S = 100
GOAL_SIM_S = 10.0
GOAL_LEGAL_MS = 2.0
GOAL_TABLE_MS = 5.0
GOAL_MATRIX_S = 2.0

def _placing(shape: str) -> BlockFour:
    """A game in the placement phase of ``shape``, on an empty board.

    Real moves reach a placement of ``shape`` (bids, then the first legal
    placement of each shape before it); then the board is emptied directly,
    a constructed position: Z always comes after another shape (BF-6), so no
    game places it on an empty board.
    """
    g = BlockFour(x_table=("L", "T"))
    if shape in ("L", "T"):  # O's cards; X holds I, O, Z on turn 1
        g.play("IO", player=0)
        g.play("IO", player=1)
    pair = next((x, o) for x in g.legal_moves(0) for o in g.legal_moves(1)
                if shape in {s for _, s in placement_order(x, o)})
    g.play(pair[0], player=0)
    g.play(pair[1], player=1)
    while g.to_place[1] != shape:  # type: ignore[index]
        g.play(g.legal_moves()[0])
    g._board = [-1] * 81
    return g


def random_games(n_games: int, seed: int = 0) -> dict:
    """(a) ``n_games`` full random games through ``legal_moves()`` + ``play()``."""
    rng = random.Random(seed)
    moves = 0
    turns = 0
    stalled = 0
    t0 = time.perf_counter()
    for k in range(n_games):
        g = BlockFour(seed=seed * 1_000_003 + k)
        while not g.is_over:
            legal = g.legal_moves()
            g.play(legal[rng.randrange(len(legal))])
        moves += len(g.history)
        turns += g.turn
        stalled += g.stall >= 10
    public_s = time.perf_counter() - t0
    return {
        "games": n_games,
        "moves_per_game": moves / n_games,
        "turns_per_game": turns / n_games,
        "stalled": stalled / n_games,
        "public_s": public_s,
        "public_games_per_s": n_games / public_s,
        "public_us_per_move": public_s / moves * 1e6,
    }


def simulation(n_games: int, seed: int = 1) -> dict:
    """(b) ``simulate`` wall time with n_jobs 1 and 2, the setup fixed (``x_table``)
    so that the results can be compared; and whether two runs with the setup
    left to the engine agree."""
    out: dict = {"games": n_games, "cores": os.cpu_count()}
    results = {}
    for n_jobs in (1, 2):
        t0 = time.perf_counter()
        results[n_jobs] = BlockFour.simulate(n_games, seed=seed, n_jobs=n_jobs, progress=False, x_table=("L", "T"))
        out[f"n_jobs={n_jobs}_s"] = time.perf_counter() - t0
        out[f"n_jobs={n_jobs}_games_per_s"] = n_games / out[f"n_jobs={n_jobs}_s"]
    out["same_results"] = results[1].equals(results[2])
    out["speedup_2"] = out["n_jobs=1_s"] / out["n_jobs=2_s"]
    free = [BlockFour.simulate(50, seed=seed, progress=False) for _ in range(2)]
    out["same_results_free_setup"] = free[0].equals(free[1])
    return out


def legal_placements(repeats: int = 300) -> dict:
    """(c) median time of ``legal_moves()`` for each shape on an empty board."""
    out: dict = {"repeats": repeats}
    total = 0.0
    for shape in "ILOTZ":
        g = _placing(shape)
        assert (g.board == -1).all() and g.to_place[1] == shape
        n = len(g.legal_moves())
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            g.legal_moves()
            times.append((time.perf_counter() - t0) * 1000)
        med = statistics.median(times)
        out[shape] = {"placements": n, "median_ms": med, "max_ms": max(times)}
        total += med
    out["all_ms"] = total
    return out


def bid_analysis(seed: int = 3, runs: int = 3) -> dict:
    """(d) ``bid_table`` and ``bid_matrix(rollouts=20)`` for a mid-game position."""
    g = BlockFour(seed=seed)
    rng = random.Random(seed)
    while g.turn <= 2 and not g.is_over:  # two whole turns: a position in mid-game
        legal = g.legal_moves()
        g.play(legal[rng.randrange(len(legal))])
    assert g.phase == "bid"
    table_ms = []
    for _ in range(max(runs, 20)):
        t0 = time.perf_counter()
        t = bid_table(g)
        table_ms.append((time.perf_counter() - t0) * 1000)
    matrix_s = []
    for _ in range(runs):
        t0 = time.perf_counter()
        m = bid_matrix(g, rollouts=20, seed=0)
        matrix_s.append(time.perf_counter() - t0)
    return {
        "turn": g.turn,
        "shape": list(t.shape),
        "filled": int((g.board >= 0).sum()),
        "table_ms": statistics.median(table_ms),
        "matrix_s": statistics.median(matrix_s),
        "matrix_pairs": m.shape[0] * m.shape[1],
    }


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300, help="(a) random games through the public API (default 300)")
    ap.add_argument("--sim", type=int, default=2000, help="(b) games per simulate() run (default 2000)")
    ap.add_argument("--repeats", type=int, default=300, help="(c) repetitions per shape (default 300)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="small counts, to check the script runs")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON only")
    a = ap.parse_args(argv)
    if a.quick:
        a.games, a.sim, a.repeats = 20, 100, 30

    res = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cores": os.cpu_count(),
        "a": random_games(a.games, a.seed),
        "b": simulation(a.sim, a.seed),
        "c": legal_placements(a.repeats),
        "d": bid_analysis(a.seed + 2, runs=1 if a.quick else 3),
    }
    if a.json:
        print(json.dumps(res))
        return 0
    ra, rb, rc, rd = res["a"], res["b"], res["c"], res["d"]
    print(f"Block Four speed, Python {res['python']} on {res['machine']}, {res['cores']} cores")
    print()
    print(f"(a) random games through legal_moves() + play(), {ra['games']} games")
    print(
        f"    {ra['public_games_per_s']:8.0f} games/s   goal >= {GOAL_GAMES_PER_S}  "
        f"[{verdict(ra['public_games_per_s'] >= GOAL_GAMES_PER_S)}]"
    )
    print(
        f"    {ra['moves_per_game']:8.1f} moves/game over {ra['turns_per_game']:.1f} turns,"
        f" {ra['public_us_per_move']:.1f} us per legal_moves()+play(); ended by the stall rule: {ra['stalled']:.1%}"
    )
    print()
    print(f"(b) BlockFour.simulate({rb['games']:_}, seed={a.seed}, progress=False, x_table=('L', 'T'))")
    for n_jobs in (1, 2):
        s = rb[f"n_jobs={n_jobs}_s"]
        goal = f"   goal <= {GOAL_SIM_S:.0f} s  [{verdict(s <= GOAL_SIM_S)}]" if n_jobs == 2 else ""
        print(f"    n_jobs={n_jobs:<3} {s:6.2f} s  {rb[f'n_jobs={n_jobs}_games_per_s']:8.0f} games/s{goal}")
    print(f"    speed-up: {rb['speedup_2']:.2f}x; same results for n_jobs 1 and 2: {rb['same_results']}")
    print(
        "    two runs of simulate(50, seed=...) with the setup left to the engine agree:"
        f" {rb['same_results_free_setup']}" + ("" if rb["same_results_free_setup"] else
                                               "  (unexpected: the setup, BF-4, is drawn from each game's seed)")
    )
    print()
    print(f"(c) all legal placements on an empty board, legal_moves(), median of {rc['repeats']}")
    for shape in "ILOTZ":
        r = rc[shape]
        print(
            f"    {shape}: {r['placements']:4d} placements  {r['median_ms']:6.3f} ms  (max {r['max_ms']:.3f})"
            f"   goal < {GOAL_LEGAL_MS:g} ms  [{verdict(r['median_ms'] < GOAL_LEGAL_MS)}]"
        )
    print(
        f"    all five: {rc['all_ms']:6.3f} ms   goal < {GOAL_LEGAL_MS:g} ms  [{verdict(rc['all_ms'] < GOAL_LEGAL_MS)}]"
    )
    print()
    print(
        f"(d) bid analysis of a turn-{rd['turn']} position ({rd['filled']} spaces filled,"
        f" {rd['shape'][0]}x{rd['shape'][1]} bids)"
    )
    print(
        f"    bid_table:                {rd['table_ms']:8.2f} ms   goal < {GOAL_TABLE_MS:g} ms"
        f"  [{verdict(rd['table_ms'] < GOAL_TABLE_MS)}]"
    )
    print(
        f"    bid_matrix(rollouts=20):  {rd['matrix_s'] * 1000:8.0f} ms   goal < {GOAL_MATRIX_S:g} s"
        f"  [{verdict(rd['matrix_s'] < GOAL_MATRIX_S)}]  ({rd['matrix_pairs']} pairs x 20 rollouts)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
