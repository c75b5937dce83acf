"""Speed of the search agents: MCTS simulations per second, alpha-beta nodes per second.

Run from the repository root, with the venv::

    .venv/bin/python benchmarks/mcts_speed.py [--sims 4000] [--quick] [--profile]

Figures, each beside its goal or its baseline measured in the same run:

(a) ``MCTSAgent(simulations=N, seed=0).choose()`` on an empty Gridlock 4x4
    board: simulations per second (goal: at least 4,000/s). Baseline: plain
    random playouts through the same public API (``legal_moves()``,
    ``play()``, then ``undo()`` back to the start), the ceiling of any
    search that uses it; the ratio says what the tree itself costs.
(b) the same on GridMaster4 20x20 (4 players, 100 tiles) at the opening and
    after 8 moves (two each); no goal, the baseline as in (a).
(c) ``AlphaBetaAgent(depth=16)`` solving Gridlock 4x4 from the empty board:
    positions (nodes) per second, and the proven result.
(d) with ``--profile``: what one MCTS simulation on Gridlock 4x4 spends in
    the engine (microseconds per call of each public primitive, calls per
    simulation), and the same search on ``LeanGridlock``, a subclass defined
    here (benchmark only, not the engine) with the engine changes suggested
    in the report: bitboard legality, a small undo record, cached move
    objects, the cell name built only for an error message.

Each figure is the best of ``--repeat`` runs (default 3), since the machine
may be shared: other processes make the figures noisy (the load average is
printed). Timings use ``time.perf_counter``.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import platform
import pstats
import random
import sys
import time
from typing import Any, ClassVar

from gridwidgets import Gridlock, GridMaster4
from gridwidgets.agents import AlphaBetaAgent, MCTSAgent
from gridwidgets.core.game import CellMove
from gridwidgets.core.notation import neighbours4

GOAL_GRIDLOCK_SIMS = 4000


def best_of(repeat: int, fn: Any) -> float:
    """The fastest of ``repeat`` runs of ``fn()`` (returns a rate)."""
    return max(fn() for _ in range(repeat))


def mcts_rate(make: Any, sims: int, seed: int = 0) -> float:
    g = make()
    a = MCTSAgent(simulations=sims, seed=seed)
    t0 = time.perf_counter()
    a.choose(g)
    return sims / (time.perf_counter() - t0)


def playout_rate(make: Any, n: int, seed: int = 0) -> float:
    """Random playouts to the end and undo back, through the public API."""
    g = make()
    rng = random.Random(seed)
    t0 = time.perf_counter()
    for _ in range(n):
        k = 0
        while not g.is_over:
            moves = g.legal_moves()
            g.play(moves[rng.randrange(len(moves))])
            k += 1
        g.returns()
        for _ in range(k):
            g.undo()
    return n / (time.perf_counter() - t0)


def gridmaster_after(moves: int) -> Any:
    def make() -> GridMaster4:
        g = GridMaster4()
        rng = random.Random(7)
        for _ in range(moves):
            legal = g.legal_moves()
            g.play(legal[rng.randrange(len(legal))])
        return g

    return make


def alphabeta_solve() -> dict:
    a = AlphaBetaAgent(depth=16, seed=0)
    t0 = time.perf_counter()
    move = a.choose(Gridlock())
    s = time.perf_counter() - t0
    return {"nodes": a.last_nodes, "s": s, "nodes_per_s": a.last_nodes / s, "value": a.last_value,
            "move": str(move), "solved": a.last_solved}


# ----------------------------------------------------------------------
# (d) profile, and what the suggested engine changes would give
# ----------------------------------------------------------------------
class LeanGridlock(Gridlock):
    """Benchmark only: Gridlock with the engine changes suggested for speed.

    - legality from bitboards (an int per player of the cells next to its
      markers) instead of numpy masks on every move;
    - a small undo record ``(cell, mover, near)`` instead of a full copy of
      the board, and the legal cells kept across undo;
    - one ``CellMove`` per cell, made once; ``parse_move`` returns a
      ``CellMove`` on the board as it is;
    - the cell's name is formatted only for an error message.
    """

    game_id = ""  # not registered: save files keep loading the real Gridlock
    _static = frozenset({"_nb", "_cells", "_full"})

    def __init__(self, rows: int = 4, cols: int = 4) -> None:
        super().__init__(rows, cols)
        n = rows * cols
        self._full = (1 << n) - 1
        self._nb = tuple(
            sum(1 << (rr * cols + cc) for rr, cc in neighbours4((r, c), rows, cols))
            for r in range(rows)
            for c in range(cols)
        )
        self._cells = tuple(CellMove((i // cols, i % cols)) for i in range(n))
        self._occ = 0
        self._near = [0, 0]
        self._lbits: int | None = None

    def _bits(self) -> int:
        if self._lbits is None:
            p = self._to_move
            self._lbits = self._full & ~self._occ & ~self._near[1 - p]
        return self._lbits

    @property
    def current_player(self) -> int | None:
        return self._to_move if self._bits() else None

    @property
    def winners(self) -> tuple[int, ...]:
        return () if self._bits() else (1 - self._to_move,)

    def legal_moves(self) -> list[CellMove]:
        b, cells, out, i = self._bits(), self._cells, [], 0
        while b:
            if b & 1:
                out.append(cells[i])
            b >>= 1
            i += 1
        return out

    def parse_move(self, value: Any) -> CellMove:
        if type(value) is CellMove:
            r, c = value.cell
            if 0 <= r < self.rows and 0 <= c < self.cols:
                return value
        return super().parse_move(value)

    def _check(self, move: CellMove) -> None:
        r, c = move.cell
        if 0 <= r < self.rows and 0 <= c < self.cols and self._bits() >> (r * self.cols + c) & 1:
            return
        self._legal_cache = None
        super()._check(move)  # the full check, for its error message

    def _do(self, move: CellMove) -> tuple[int, int, int, int | None]:
        r, c = move.cell
        i = r * self.cols + c
        p = self._to_move
        record = (i, p, self._near[p], self._lbits)
        self._board[r, c] = p
        self._occ |= 1 << i
        self._near[p] |= self._nb[i]
        self._to_move = 1 - p
        self._lbits = None
        self._legal_cache = None
        return record

    def _undo(self, record: tuple[int, int, int, int | None]) -> None:
        i, p, near, lbits = record
        self._board[divmod(i, self.cols)] = -1
        self._occ &= ~(1 << i)
        self._near[p] = near
        self._to_move = p
        self._lbits = lbits
        self._legal_cache = None


def primitives(g: Gridlock, n: int = 3000, repeat: int = 7) -> dict[str, float]:
    """Microseconds per call of the public primitives on an empty board
    (the minimum over ``repeat`` timings of ``n`` calls: the least noisy)."""
    import timeit

    m = g.legal_moves()[5]

    def us(stmt: Any) -> float:
        return min(timeit.repeat(stmt, number=n, repeat=repeat)) / n * 1e6

    def play_undo() -> None:
        g.play(m)
        g.undo()

    def play_player_undo() -> None:
        g.play(m)
        g.current_player  # noqa: B018 - the legality of the new position
        g.undo()

    base = us(play_undo)
    g.current_player  # noqa: B018
    return {
        "play() + undo() (play() checks the legality: one mask)": base,
        "current_player after a move (legality)": us(play_player_undo) - base,
        "legal_moves() (legality known)": us(g.legal_moves),
    }


class CountingGridlock(Gridlock):
    """Benchmark only: counts the engine calls of a search."""

    game_id = ""
    calls: ClassVar[dict[str, int]] = {"play": 0, "legal_moves": 0, "legality mask": 0}

    def play(self, move: Any, player: int | None = None) -> Any:
        CountingGridlock.calls["play"] += 1
        return super().play(move, player)

    def legal_moves(self) -> list[CellMove]:
        CountingGridlock.calls["legal_moves"] += 1
        return super().legal_moves()

    def _mask(self, player: int) -> Any:
        CountingGridlock.calls["legality mask"] += 1
        return super()._mask(player)


def calls_per_simulation(sims: int) -> dict[str, float]:
    for k in CountingGridlock.calls:
        CountingGridlock.calls[k] = 0
    MCTSAgent(simulations=sims, seed=0).choose(CountingGridlock())
    return {k: v / sims for k, v in CountingGridlock.calls.items()}


def profile_mcts(make: Any, sims: int) -> str:
    pr = cProfile.Profile()
    a = MCTSAgent(simulations=sims, seed=0)
    g = make()
    pr.enable()
    a.choose(g)
    pr.disable()
    s = io.StringIO()
    pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(12)
    return s.getvalue()


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sims", type=int, default=4000, help="(a) simulations per search on Gridlock (default 4000)")
    ap.add_argument("--gm-sims", type=int, default=300, help="(b) simulations per search on GridMaster4")
    ap.add_argument("--repeat", type=int, default=3, help="runs per figure, the best is kept (default 3)")
    ap.add_argument("--quick", action="store_true", help="small counts, to check the script runs")
    ap.add_argument("--profile", action="store_true", help="(d) profile and the LeanGridlock comparison")
    a = ap.parse_args(argv)
    if a.quick:
        a.sims, a.gm_sims, a.repeat = 500, 40, 1

    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(f"Search agents' speed, Python {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"(best of {a.repeat} runs; the machine may be shared, so the figures are noisy)")
    print()

    gl = best_of(a.repeat, lambda: mcts_rate(Gridlock, a.sims))
    base = best_of(a.repeat, lambda: playout_rate(Gridlock, a.sims))
    print(f"(a) MCTS on Gridlock 4x4, empty board, {a.sims} simulations")
    print(f"    {gl:8.0f} simulations/s   goal >= {GOAL_GRIDLOCK_SIMS}  [{verdict(gl >= GOAL_GRIDLOCK_SIMS)}]")
    print(f"    {base:8.0f} random playouts/s through legal_moves()/play()/undo() (baseline);"
          f" MCTS/baseline {gl / base:.2f}")
    print()

    print(f"(b) MCTS on GridMaster4 20x20, 4 players, {a.gm_sims} simulations")
    for label, make in (("opening", GridMaster4), ("after 8 moves", gridmaster_after(8))):
        r = best_of(a.repeat, lambda make=make: mcts_rate(make, a.gm_sims))
        b = best_of(a.repeat, lambda make=make: playout_rate(make, max(20, a.gm_sims // 3)))
        print(f"    {label:<14} {r:8.0f} simulations/s   baseline {b:8.0f} playouts/s   ratio {r / b:.2f}")
    print()

    ab = alphabeta_solve()
    res = "X wins" if ab["value"] > 0 else "O wins"
    print("(c) AlphaBetaAgent(depth=16) solving Gridlock 4x4 from the empty board")
    print(f"    {ab['nodes_per_s']:8.0f} nodes/s   ({ab['nodes']} nodes in {ab['s']:.2f} s; proven: {res},"
          f" solved={ab['solved']}, first move {ab['move']})")

    if a.profile:
        print()
        print("(d) Where one MCTS simulation on Gridlock 4x4 goes (public API, microseconds per call)")
        for k, v in primitives(Gridlock()).items():
            print(f"    {v:6.2f} us  {k}")
        per = calls_per_simulation(min(a.sims, 1000))
        print("    per simulation: " + ", ".join(f"{v:.1f} {k}" for k, v in per.items()) + " (undo() as play())")
        print("    with LeanGridlock (the suggested engine changes, benchmark-only subclass):")
        for k, v in primitives(LeanGridlock()).items():
            print(f"    {v:6.2f} us  {k}")
        lean = best_of(a.repeat, lambda: mcts_rate(LeanGridlock, a.sims))
        lean_base = best_of(a.repeat, lambda: playout_rate(LeanGridlock, a.sims))
        print(f"    MCTS {lean:8.0f} simulations/s on LeanGridlock (Gridlock: {gl:.0f}; x{lean / gl:.2f}),"
              f" baseline {lean_base:.0f} playouts/s")
        print()
        print(profile_mcts(Gridlock, a.sims))
    return 0


if __name__ == "__main__":
    sys.exit(main())
