"""How long the lessons' games take at a human pace, measured in real rooms.

Run from the repository root, with the venv::

    .venv/bin/python benchmarks/lesson_pace.py [--students 24] [--lesson 1 2 3] [--classes N]

What it does, for each lesson of ``docs/lessons.md``:

- opens the lesson's room as the plan says (game, board, pairing, agent) in a
  real SQLite file (:class:`gridwidgets.rooms.Store`), seats a class of
  ``--students`` and starts the plan's rounds (the teacher presses *Next
  round* when the last game of a round has ended);
- each student plays :class:`~gridwidgets.agents.GreedyAgent` moves (a
  uniformly random one at a blind bid), each after a *think time* drawn from
  a human player's measured response times (below); every student is one of
  the 40 players, drawn at random, for the whole lesson, so a slow student
  stays slow. Both players think at once at a blind bid. The room's agent
  (lesson 3) takes the time its search really takes on this machine;
- the room's clock (``Store(clock=...)``) is an event clock that jumps from
  move to move, so a lesson of 50 minutes runs in seconds to minutes; the
  rooms record each game's start and end as they would in class;
- then reads the rooms' files back with
  :func:`gridwidgets.rooms.results.durations` and prints, per lesson, the
  minutes of a game (median, 90th percentile) and of a round (from the
  round's start until nine games in ten, or all, have ended: what the class
  waits).

**The human pace.** ``benchmarks/data/human_pace.csv`` holds, for each of 40
people, the 0th, 5th, ..., 100th percentiles of their response times (seconds
from the opponent's move to their own) over 5,482 moves of 325 games of
four-in-a-row (a 4x9 board, four in a line wins), played human against
human without a time limit: the "human-vs-human" experiment of van
Opheusden, Kuperwajs, Galbiati, Bnaya, Li and Ma, *Expertise increases
planning depth in human gameplay*, Nature 618, 1000-1005 (2023); the data
as published in github.com/Crowd-Cognition/fourinarow (``data_hvh.csv``,
response time in milliseconds, 5th column; player id, 7th). Over all moves:
median 4.6 s, mean 8.0 s, 90th percentile 17.8 s. A think time is drawn by
linear interpolation of the player's percentiles at a uniform random level.
``--derive PATH`` rebuilds the file from that CSV.

A run takes about a minute for lessons 1 and 2 and 16 minutes for lesson 3
(2 classes x 24 games x about 40 agent moves of 0.5 s). Lesson 1 gives the
same figures every run; lesson 2's vary by a minute or so, since a Block Four
room deals X's table at random for each game.

What this is not: students of a course playing our games. Their pace comes
from another placement game on a board of similar size, and their moves from
a greedy player; the lesson plans say so. After a real lesson the rooms'
file holds the class's own pace (``durations_summary``).
"""

from __future__ import annotations

import argparse
import csv
import heapq
import math
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gridwidgets.agents import GreedyAgent
from gridwidgets.rooms import Rooms, Store, results

PACE_FILE = Path(__file__).parent / "data" / "human_pace.csv"
#: the percentiles kept per player
LEVELS = tuple(range(0, 101, 5))


@dataclass(frozen=True)
class Lesson:
    """A lesson's room and rounds, as ``docs/lessons.md`` sets them."""

    number: int
    title: str
    game: str
    board: str | None
    pairing: str
    agent: str
    rounds: int
    budget: float  # minutes the plan gives the games
    classes: int = 30  # classes rehearsed by default (fewer with an agent: its search takes real time)


LESSONS = (
    Lesson(1, "Gridlock 4x4, round robin", "gridlock", "4x4", "round-robin", "random", 4, 10.0),
    Lesson(2, "Block Four, round robin", "blockfour", None, "round-robin", "random", 2, 13.0),
    Lesson(3, "GridBloc 5x5 against the agent", "gridbloc", "5x5", "agent", "mcts-quick", 1, 15.0, classes=2),
)


def derive(source: Path, out: Path = PACE_FILE) -> int:
    """Write ``out`` (player, then the percentiles ``LEVELS`` in seconds) from
    the published ``data_hvh.csv``; return how many moves it read."""
    times: dict[int, list[float]] = {}
    with source.open(newline="") as f:
        for row in csv.reader(f):
            times.setdefault(int(row[6]), []).append(int(row[4]) / 1000.0)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["player", *(f"p{q}" for q in LEVELS)])
        for player in sorted(times):
            xs = sorted(times[player])
            w.writerow([player, *(f"{_percentile(xs, q):.3f}" for q in LEVELS)])
    return sum(len(v) for v in times.values())


def _percentile(xs: Sequence[float], q: float) -> float:
    """The ``q``-th percentile of sorted ``xs`` by linear interpolation."""
    pos = (len(xs) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def load_pace(path: Path = PACE_FILE) -> list[list[float]]:
    """Each player's percentiles (seconds), as :func:`derive` wrote them."""
    with path.open(newline="") as f:
        rows = list(csv.reader(f))[1:]
    return [[float(x) for x in row[1:]] for row in rows]


@dataclass
class Student:
    """A seat's player: their pace (percentiles) and their move chooser."""

    token: str
    pace: list[float]
    agent: GreedyAgent
    rng: random.Random

    def think(self) -> float:
        """A think time in seconds: the pace's percentiles interpolated at a uniform level."""
        return _percentile(self.pace, self.rng.random() * 100.0)

    def choose(self, game: Any, player: int) -> Any:
        view = game.view_for(player)
        if view.is_simultaneous_node():
            return self.rng.choice(view.legal_moves(player))
        return self.agent.choose(view)


@dataclass
class EventClock:
    """The rooms' clock: seconds since the epoch, moved by the rehearsal only."""

    now: float = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass(order=True)
class _Event:
    at: float
    seq: int
    game: Any = field(compare=False)
    player: int = field(compare=False)
    move: Any = field(compare=False, default=None)  # the agent's, chosen when scheduled


def rehearse(lesson: Lesson, students: int, pace: list[list[float]], folder: Path, seed: int) -> Path:
    """Play ``lesson`` with a class of ``students`` in a room whose file is
    written under ``folder``; return that file."""
    rng = random.Random(seed)
    clock = EventClock()
    path = folder / f"lesson{lesson.number}-class{seed}.sqlite"
    room = Rooms(Store(path, clock=clock)).create(lesson.game, lesson.board, pairing=lesson.pairing,
                                                  agent=lesson.agent)
    by_token: dict[str, Student] = {}
    for k in range(students):
        seat = room.join(f"Student {k + 1}")
        by_token[seat.token] = Student(seat.token, rng.choice(pace), GreedyAgent(seed=rng.randrange(2**31)),
                                       random.Random(rng.randrange(2**31)))
    queue: list[_Event] = []
    seq = 0
    waiting: set[tuple[int, int]] = set()  # (game id, player) with a move scheduled

    def schedule(rg: Any) -> None:
        nonlocal seq
        g = rg.game
        if g.is_over:
            return
        for p in g.players_to_move:
            if (rg.id, p) in waiting:
                continue
            token = rg.players[p]
            if token in by_token:
                delay, move = by_token[token].think(), None
            else:  # the room's agent: its real search time
                began = time.perf_counter()
                move = rg.agent.choose(g.view_for(p))
                delay = time.perf_counter() - began
            waiting.add((rg.id, p))
            seq += 1
            heapq.heappush(queue, _Event(clock.now + delay, seq, rg, p, move))

    for round_ in range(lesson.rounds):
        if lesson.pairing != "agent":
            room.next_round(room.teacher_token)
        for rg in room.games:
            if rg.round == room.round:
                schedule(rg)
        while queue:
            event = heapq.heappop(queue)
            clock.now = event.at
            rg, p = event.game, event.player
            waiting.discard((rg.id, p))
            if rg.players[p] in by_token:
                room.play(rg.players[p], by_token[rg.players[p]].choose(rg.game, p))
            else:
                played = room.agent_play(rg, p, rg.game.version, event.move)
                assert played, f"the agent's move was refused in game {rg.id}"
            schedule(rg)
        unfinished = [rg.id for rg in room.games if rg.round == room.round and not rg.game.is_over]
        assert not unfinished, f"round {round_ + 1}: games {unfinished} did not end"
    return path


def round_minutes(table: Any, share: float = 1.0) -> Any:
    """Per room and round: minutes from the round's start (its first game's)
    until ``share`` of its games had ended (1.0: the last game's end), as a
    :class:`pandas.Series` indexed by ``(room, round)``."""

    def span(part: Any) -> float:
        ends = sorted(part["ended"])
        k = max(1, math.ceil(share * len(ends) - 1e-9))
        return (ends[k - 1] - part["started"].min()) / 60.0

    return table.groupby(["room", "round"])[["started", "ended"]].apply(span)


def summarise(lesson: Lesson, files: list[Path]) -> dict[str, Any]:
    """The figures of ``lesson`` over the rooms' files ``files`` (one class each)."""
    table = results.durations([room for f in files for room in Rooms(Store(f)).rooms()])
    minutes = table["seconds"] / 60.0
    every, most = round_minutes(table, 1.0), round_minutes(table, 0.9)
    return {
        "games": len(table),
        "moves a game (median)": statistics.median(table["moves"]),
        "seconds a move (median)": statistics.median(table["seconds per move"]),
        "minutes a game (median)": statistics.median(minutes),
        "minutes a game (90th pct)": float(minutes.quantile(0.9)),
        "round, 9 in 10 over (median)": most.median(),
        "round, all over (median)": every.median(),
        "round, all over (longest)": every.max(),
        "rounds, 9 in 10 (median class)": most.groupby(level="room").sum().median(),
        "rounds, all over (median class)": every.groupby(level="room").sum().median(),
        "the plan's minutes": lesson.budget,
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--classes", type=int, help="classes rehearsed per lesson (default 30; 2 for lesson 3, "
                    "whose agent searches 0.5 s a move for real)")
    ap.add_argument("--students", type=int, default=24, help="students in a class (default 24)")
    ap.add_argument("--lesson", type=int, nargs="*", default=[1, 2, 3], help="which lessons (default all)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--derive", type=Path, help="rebuild benchmarks/data/human_pace.csv from data_hvh.csv, then stop")
    args = ap.parse_args(argv)
    if args.derive:
        print(f"{derive(args.derive)} moves read; wrote {PACE_FILE}")
        return 0
    pace = load_pace()
    print(f"human pace: {len(pace)} players' response times (van Opheusden et al. 2023, human vs human)")
    with tempfile.TemporaryDirectory() as tmp:
        for lesson in LESSONS:
            if lesson.number not in args.lesson:
                continue
            began = time.perf_counter()
            classes = args.classes or lesson.classes
            files = [rehearse(lesson, args.students, pace, Path(tmp), args.seed + k) for k in range(classes)]
            row = summarise(lesson, files)
            games = row.pop("games")
            print(f"\nlesson {lesson.number}: {lesson.title}: {classes} classes of {args.students}, "
                  f"{games} games, rehearsed in {time.perf_counter() - began:.1f} s")
            for key, value in row.items():
                print(f"  {key:34} {value:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
