"""The lesson plans' timings (issue 30) come from ``benchmarks/lesson_pace.py``:
real rooms, a class of students who think at a human pace, an event clock.
These tests hold it to what it claims: the human pace file is what the
published response times give, a think time follows the player's pace, a
game lasts the sum of its turns' think times (a blind bid once for both
players, the agent its own search time), a round lasts until its last (or
nine in ten) games end, and the rooms' file reads back through
``results.durations``. Time is the event clock, never a sleep."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

from gridwidgets.rooms import Rooms, Store, results

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "lesson_pace.py"


@pytest.fixture
def pace_mod(monkeypatch):
    spec = importlib.util.spec_from_file_location("lesson_pace", BENCH)
    mod = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "lesson_pace", mod)  # dataclasses look their module up by name
    spec.loader.exec_module(mod)
    return mod


def test_derive_keeps_each_players_percentiles_of_the_published_response_times(pace_mod, tmp_path):
    source = tmp_path / "data_hvh.csv"
    rows = [f"0,0,Black,1,{ms},1,7" for ms in range(1000, 22000, 1000)]  # player 7: 1..21 s
    rows += [f"0,0,White,2,{ms},2,3" for ms in (500, 1500)]  # player 3: 0.5 and 1.5 s
    source.write_text("\n".join(rows) + "\n")
    out = tmp_path / "pace.csv"
    assert pace_mod.derive(source, out) == 23
    pace = pace_mod.load_pace(out)
    assert len(pace) == 2 and all(len(p) == len(pace_mod.LEVELS) == 21 for p in pace)
    three, seven = pace  # sorted by player id
    assert three[0] == 0.5 and three[10] == 1.0 and three[-1] == 1.5
    assert seven == [1.0 + q / 5 for q in pace_mod.LEVELS]  # 1 s at p0, 11 s at p50, 21 s at p100


def test_the_shipped_human_pace_is_forty_players_percentiles_in_order(pace_mod):
    pace = pace_mod.load_pace()
    assert len(pace) == 40
    for p in pace:
        assert len(p) == 21 and p == sorted(p) and 0 < p[0] and p[-1] < 600
    medians = sorted(p[10] for p in pace)
    assert 2.0 < medians[20] < 10.0, "the players' median response time: seconds, not milliseconds"


def test_a_think_time_follows_the_players_percentiles(pace_mod):
    student = pace_mod.Student("t", [float(s) for s in range(21)], None, random.Random(1))
    draws = [student.think() for _ in range(4000)]
    assert 0.0 <= min(draws) and max(draws) <= 20.0
    assert abs(sorted(draws)[2000] - 10.0) < 0.6  # the median level gives the median time


def _constant(seconds: float) -> list[list[float]]:
    return [[seconds] * 21]


@pytest.mark.parametrize("game, board, rounds", [("gridlock", "4x4", 2), ("gridlock", "5x5", 1)])
def test_a_turn_based_game_lasts_its_moves_times_the_think_time_and_a_round_its_longest_game(
        pace_mod, tmp_path, game, board, rounds):
    lesson = pace_mod.Lesson(9, "test", game, board, "round-robin", "random", rounds, 10.0)
    path = pace_mod.rehearse(lesson, 6, _constant(7.0), tmp_path, seed=3)
    rooms = Rooms(Store(path)).rooms()
    table = results.durations(rooms)
    assert len(table) == 3 * rounds, "every game of every round ended and was recorded"
    assert (table["seconds"] == 7.0 * table["moves"]).all()
    assert sorted(set(table["round"])) == list(range(1, rounds + 1))  # the teacher's first Next round is round 1
    longest = table.groupby("round")["seconds"].max().tolist()
    assert pace_mod.round_minutes(table, 1.0).tolist() == pytest.approx([s / 60 for s in longest])
    shortest = table.groupby("round")["seconds"].min().tolist()
    assert pace_mod.round_minutes(table, 0.1).tolist() == pytest.approx([s / 60 for s in shortest])
    starts = table.groupby("round")["started"].min().tolist()
    for r in range(1, rounds):  # the next round starts when the last game of this one ends
        assert starts[r] == pytest.approx(starts[r - 1] + longest[r - 1])
    summary = results.durations_summary(rooms)
    assert summary["board"].tolist() == [board] and summary["games"].tolist() == [3 * rounds]


def _turns(game, player: int | None = None) -> int:
    """The decision points of ``game`` (its steps: a blind bid, every
    submission of a simultaneous node, is one step; a placement and the
    forced pass the engine adds to it are one); only ``player``'s when given."""
    g = game.copy()
    turns = 0
    for k in range(len(game.steps)):
        g.goto(k)
        turns += player is None or player in g.players_to_move
    return turns


def test_both_players_think_at_once_at_a_blind_bid(pace_mod, tmp_path):
    lesson = pace_mod.Lesson(9, "test", "blockfour", None, "round-robin", "random", 1, 10.0)
    path = pace_mod.rehearse(lesson, 2, _constant(5.0), tmp_path, seed=4)
    (room,) = Rooms(Store(path)).rooms()
    (row,) = results.durations([room]).to_dict("records")
    turns = _turns(room.games[0].game)
    assert row["seconds"] == pytest.approx(5.0 * turns)
    assert turns < row["moves"], "a game with blind bids has fewer turns than moves"


def test_the_rooms_agent_takes_its_own_search_time_not_a_humans(pace_mod, tmp_path):
    lesson = pace_mod.Lesson(9, "test", "gridlock", "4x4", "agent", "random", 1, 10.0)
    path = pace_mod.rehearse(lesson, 2, _constant(30.0), tmp_path, seed=5)
    (room,) = Rooms(Store(path)).rooms()
    table = results.durations([room])
    assert len(table) == 2
    for rg in room.games:
        (student,) = [p for p, t in enumerate(rg.players) if t in room.seats]
        ours = _turns(rg.game, student)
        assert ours < len(rg.game.history), "the agent moved too"
        seconds = table.loc[table["game"] == rg.id, "seconds"].item()
        assert 30.0 * ours <= seconds < 30.0 * ours + 5.0, "the agent answers in its own (short) time"
