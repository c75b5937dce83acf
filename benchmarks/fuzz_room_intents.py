"""Fuzzing figures of every intent a room's page can send (issue 41).

Run from the repository root, with the venv::

    .venv/bin/python benchmarks/fuzz_room_intents.py [--n 1000] [--seed 0] [--games gridlock blockfour]
        [--intents board.play poll.answer ...]

For each game and each intent of :data:`gridwidgets.rooms.fuzzing.INTENTS`
(a student's board, a class poll, an exercise set, the seat's own calls, the
teacher's actions, the files dropped on the teacher's page), ``--n`` fuzzed
examples (hypothesis, a fixed seed) go to a classroom of its own on a real
SQLite file, and one row is printed (a Markdown table):

- examples: inputs sent; accepted: carried out; refused: refused the
  promised way (a RoomError or ValueError, or a status on the board);
- internal errors: exceptions other than a refusal, and statuses that say
  an internal error;
- state changed: refusals after which the room was not the same (its store,
  version, games, seats, polls' answers, exercise answers);
- bad status: refusals whose status is empty, more than one line, longer
  than 400 characters or repeats more than 60 characters of the input (and
  a class that does not come back from its file);
- slowest ms: the slowest refusal.

An intent that needs exercises is skipped for a game that has none. The goal
is 0 internal errors, 0 state changed, 0 bad status; the script exits 1
otherwise.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gridwidgets as gw
from gridwidgets.rooms import fuzzing as room_fuzzing

COLUMNS = ("game", "intent", "examples", "accepted", "refused", "internal errors", "state changed", "bad status",
           "slowest ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1_000, help="examples per intent")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", nargs="*", default=["gridlock", "blockfour"], help="registry names")
    parser.add_argument("--intents", nargs="*", default=None, help="intent names (default: every one)")
    args = parser.parse_args(argv)
    names = args.intents or list(room_fuzzing.INTENTS)
    print(f"gridwidgets {gw.__version__}; {args.n} examples per intent; seed {args.seed}\n")
    print("| " + " | ".join(COLUMNS) + " |")
    print("|" + "|".join("---" for _ in COLUMNS) + "|")
    reports = []
    failures = []
    t_all = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for game in args.games:
            for name in names:
                try:
                    report = room_fuzzing.fuzz_intent(name, Path(folder) / f"{game}-{name}.sqlite", n=args.n,
                                                      seed=args.seed, game=game)
                except ValueError as exc:  # an exercise intent for a game without exercises
                    print(f"| {game} | {name} | skipped: {exc} |||||||", flush=True)
                    continue
                row = (game, name, report.tried, report.accepted, report.refused, report.escaped + report.internal,
                       report.changed, report.lost, f"{report.slowest_ms:.1f}")
                print("| " + " | ".join(str(v) for v in row) + " |", flush=True)
                reports.append(report)
                failures += [f"{game} {name}: {f}" for f in report.failures]
    totals = {k: sum(getattr(r, k) for r in reports) for k in ("tried", "refused", "escaped", "internal", "changed",
                                                                 "lost")}
    print(f"\ntotal: {totals['tried']:,} examples over {len(reports)} intents in "
          f"{time.perf_counter() - t_all:.0f} s; refused {totals['refused']:,}; internal errors "
          f"{totals['escaped'] + totals['internal']}, state changed on refusal {totals['changed']}, bad status "
          f"{totals['lost']}; slowest refusal {max((r.slowest_ms for r in reports), default=0.0):.0f} ms")
    for f in failures:
        print(f"  {f}")
    ok = all(r.ok for r in reports)
    print("goal met" if ok else "GOAL NOT MET")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
