"""How long a class waits for its results: standings, charts, the opening choices against the equilibrium.

Run from the repository root, with the venv::

    .venv/bin/python benchmarks/rooms_results.py [--students 90] [--game blockfour]

A room of ``--students`` students (a real SQLite file in a temporary
folder) plays its games to the end with random legal moves; then what the
teacher's results page computes is timed (``time.perf_counter``): the
standings, the win-rate and score charts and the opening-choices chart
(each game's opening equilibrium). Printed twice:

- *cold*: every opening's equilibrium solved on the spot (the cache emptied
  first): what the page cost before the room solved openings ahead of time;
- *as the teacher sees it*: the openings solved in the background as the
  room started its games (:func:`gridwidgets.rooms.openings.prepare`), the
  results asked for once the games are over.

Goal (issue 28): a class of 30 gets its results within 2 s; the issue
measured 17.8 s for 45 Block Four games before. Run it against an older
checkout for the ratio (``PYTHONPATH=/path/to/old``; there every run is cold).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

from gridwidgets.rooms import results
from gridwidgets.rooms.model import RoomError, Rooms
from gridwidgets.rooms.store import Store


def make_room(folder: Path, game: str, students: int, seed: int):
    room = Rooms(Store(folder / "class.sqlite")).create(game)
    for k in range(students):
        while True:  # as a class does: a join refused for coming too fast is tried again
            try:
                room.join(f"Student {k + 1}")
                break
            except RoomError:
                time.sleep(0.1)
    rnd = random.Random(seed)
    for rg in room.games:
        g = rg.game
        while not g.is_over:
            for p in g.players_to_move:
                room.play(rg.players[p], rnd.choice(g.legal_moves(p)))
    return room


def page(room) -> float:
    t = time.perf_counter()
    results.standings(room)
    results.win_rates_figure([room])
    results.scores_figure([room])
    results.choices_figure([room])
    return time.perf_counter() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--students", type=int, default=90)
    ap.add_argument("--game", default="blockfour")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    try:
        from gridwidgets.rooms import openings
    except ImportError:  # an older checkout: no cache ahead of time
        openings = None
    with tempfile.TemporaryDirectory() as folder:
        t = time.perf_counter()
        room = make_room(Path(folder), args.game, args.students, args.seed)
        played = time.perf_counter() - t
        n = len(room.games)
        print(f"{args.students} students, {n} {args.game} games played to the end in {played:.1f} s")
        if openings is not None:
            deadline = time.monotonic() + 120
            while openings._running and time.monotonic() < deadline:  # the background solving, done
                time.sleep(0.05)
            warm = page(room)
            openings.forget()
        cold = page(room)
        print(f"results page, cold (every opening solved now): {cold:.2f} s")
        if openings is not None:
            print(f"results page as the teacher sees it (openings solved as the games started): {warm:.2f} s "
                  f"(goal: under 2 s; {cold / max(warm, 1e-9):.0f}x faster than cold)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
