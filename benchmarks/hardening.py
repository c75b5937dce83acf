"""Hardening figures: fuzzed messages, corrupted files, hand-built moves and
threads, per registered game (issue 12).

Run from the repository root, with the venv::

    .venv/bin/python benchmarks/hardening.py [--messages 10000] [--files 1000] [--positions 1000]
        [--moves 1000] [--seconds 8]

For each game, the fuzzers of :mod:`gridwidgets.fuzzing` (hypothesis
strategies, a fixed seed) print one row each:

- messages: page messages sent to widgets in varied positions (some seats
  played by agents): accepted, refused, escaped (an exception out of the
  widget), internal errors, refused but changed, lost (a refusal whose status
  is empty, long or echoes the input, an accepted message that played an
  agent's seat or left a game that does not reload), slowest refusal.
- files: corrupted save files, each given to the game's loader and to
  ``Game.from_json``: refused as ``ValueError``, loaded (then checked to save
  and reload equal), escaped, slowest refusal in ms.
- positions: mutated position texts (cut short, fields swapped, Unicode
  digits, 20,000-digit numbers, 1 MB strings, not text), each given to the
  game's ``from_position`` and to ``Game.from_position``: refused (one-line
  ``ValueError`` naming a rule, quoting at most 60 characters) or read (then
  checked to read back equal), slowest refusal in ms.
- moves: hand-built move objects given to ``play``/``is_legal``/``goto``.
- threads: ``--seconds`` of one game driven from code, two pages, an agent,
  a reader and the hint worker: operations, inconsistencies (a state or a
  hint for a position the game never had; the final game not reloading)
  and the most hint workers of one widget alive at once.

The goal is 0 escapes, 0 internal errors, 0 changes on refusal, 0 lost,
every refusal under 1 s, 0 inconsistencies; the script exits 1 otherwise.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gridwidgets as gw
from gridwidgets import fuzzing

COLUMNS = ("game", "target", "tried", "accepted", "refused", "escaped", "internal", "changed", "lost", "slowest_ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--files", type=int, default=1_000)
    parser.add_argument("--positions", type=int, default=1_000)
    parser.add_argument("--moves", type=int, default=1_000)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", nargs="*", default=None, help="registry names (default: every game)")
    args = parser.parse_args(argv)
    names = args.games or sorted(gw.registry.games())
    print(f"gridwidgets {gw.__version__}; games: {', '.join(names)}; seed {args.seed}")
    print(" ".join(f"{c:>10}" for c in COLUMNS) + "  extra")
    reports = []
    for name in names:
        cls = gw.registry.get(name)
        runs = [(fuzzing.fuzz_messages, {"n": args.messages}), (fuzzing.fuzz_files, {"n": args.files}),
                (fuzzing.fuzz_positions, {"n": args.positions}),
                (fuzzing.fuzz_moves, {"n": args.moves}), (fuzzing.stress_threads, {"seconds": args.seconds})]
        for run, size in runs:
            if not next(iter(size.values())):
                continue
            t0 = time.perf_counter()
            report = run(cls, seed=args.seed, **size)
            row = report.row()
            extra = {k: v for k, v in row.items() if k not in COLUMNS}
            extra["wall_s"] = round(time.perf_counter() - t0, 1)
            print(" ".join(f"{row[c]!s:>10}" for c in COLUMNS) + "  " + " ".join(f"{k}={v}" for k, v in extra.items()),
                  flush=True)
            if report.slowest_ms >= 100:
                print(f"      slowest: {report.slowest_input}")
            for failure in report.failures:
                print(f"      {failure}")
            reports.append(report)
    bad = [r for r in reports if not r.ok or r.slowest_ms >= 1000]
    totals = {k: sum(getattr(r, k) for r in reports) for k in ("tried", "escaped", "internal", "changed", "lost")}
    slowest = max((r.slowest_ms for r in reports), default=0.0)
    print(f"total: {totals['tried']:,} inputs and operations; escaped {totals['escaped']}, internal "
          f"{totals['internal']}, changed on refusal {totals['changed']}, lost {totals['lost']}; "
          f"slowest refusal {slowest:.1f} ms")
    print("goal met" if not bad else f"goal NOT met in {len(bad)} run(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
