"""How long the other side of an exercise takes to move: replies, refutations, defences.

Run from the repository root, with the venv::

    .venv/bin/python benchmarks/exercise_speed.py [--size 5] [--depth 2] [--n 4] [--seed 1]

For GridBloc ``win-in`` exercises (``size`` x ``size``, ``depth`` own moves),
each exercise is answered wrong with every wrong first move in turn (up to
four per exercise), and the refutation is played to the end of the game as the exercise
board plays it: the other side's moves by ``Judge.punish``, the student's
side by ``Judge.defend``. Each decision is timed (``time.perf_counter``);
printed: how many decisions, their median, 95th percentile and maximum in
seconds, beside the goal (every refutation move shown within a second on a
5x5 board, issue 28). Then the same for right answers: ``Judge.reply``
after each right first move.

Run it against an older checkout for the ratio (``PYTHONPATH=/path/to/old
.venv/bin/python benchmarks/exercise_speed.py``): before the shared search
budget a decision on 5x5 took up to about 16 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import gridwidgets as gw


def timed(f, *args):
    t = time.perf_counter()
    out = f(*args)
    return out, time.perf_counter() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=5)
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--n", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    made = gw.exercises.generate("gridbloc", kind="win-in", depth=args.depth, n=args.n, seed=args.seed,
                                 size=args.size, progress=False)
    print(f"{len(made)} GridBloc {args.size}x{args.size} win-in-{args.depth} exercises made in "
          f"{time.perf_counter() - t0:.1f} s (gridwidgets from {gw.__file__})")
    refute: list[float] = []
    reply: list[float] = []
    for ex in made:
        judge = ex.judge()
        start = ex.start()
        wrong = [m for m in start.legal_moves() if str(m) not in ex.answers][:4]
        for first in wrong:
            g = start.copy()
            g.play(first)
            while not g.is_over:
                pick = judge.defend if g.current_player == ex.player else judge.punish
                move, dt = timed(pick, g)
                refute.append(dt)
                g.play(move)
        for first in ex.answers:
            g = start.copy()
            g.play(first)
            if not g.is_over and g.current_player != ex.player:
                _, dt = timed(judge.reply, g)
                reply.append(dt)

    def line(name: str, xs: list[float]) -> str:
        if not xs:
            return f"{name}: none"
        xs = sorted(xs)
        p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
        return (f"{name}: {len(xs)} decisions, median {statistics.median(xs):.3f} s, p95 {p95:.3f} s, "
                f"max {xs[-1]:.3f} s")

    print(line("refutation moves (punish and defend)", refute), "(goal: max under 1 s)")
    print(line("replies after a right answer", reply), "(goal: max under 1 s)")
    return 0 if not refute or max(refute) < 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
