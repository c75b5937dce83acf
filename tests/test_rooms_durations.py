"""How long the rooms' games take (issue 30): the store records when each game
started (schema 5) and when it was last saved; ``results.durations`` and
``results.durations_summary`` read them back per finished game. Time is a
fake clock the test advances, never a sleep; a class written by schema 4
opens, its games' start unknown (0, left out of the table)."""

from __future__ import annotations

import sqlite3
import statistics
from contextlib import closing

import pandas as pd
import pytest

from gridwidgets import Gridlock
from gridwidgets.rooms import Rooms, Store, results
from gridwidgets.rooms.store import APPLICATION_ID, SCHEMA_VERSION


class Clock:
    """A wall clock (seconds since the epoch) that moves only when told."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _play_to_the_end(room, rg, clock: Clock, every: float) -> int:
    """Play ``rg`` to its end from its seats, the first legal move each time,
    ``every`` seconds after the last; return how many moves were played."""
    g, played = rg.game, 0
    while not g.is_over:
        clock.now += every
        (p,) = g.players_to_move
        room.play(rg.players[p], g.legal_moves(p)[0])
        played += 1
    return played


@pytest.fixture
def db(tmp_path):
    return tmp_path / "class.sqlite"


def test_durations_measure_each_finished_game_from_its_start_to_its_last_move_and_survive_a_restart(db):
    clock = Clock(1_000.0)
    rooms = Rooms(Store(db, clock=clock))
    room = rooms.create("gridlock")
    ann, _bob = room.join("Ann"), room.join("Bob")  # seated at 1000: the first game starts
    first = room.game_of(ann.token)[0]
    assert first.started == 1_000.0
    m1 = _play_to_the_end(room, first, clock, every=6.0)
    clock.now += 50.0
    cy, _dee = room.join("Cy"), room.join("Dee")
    second = room.game_of(cy.token)[0]
    assert second.started == clock.now
    m2 = _play_to_the_end(room, second, clock, every=12.0)
    eve, _fay = room.join("Eve"), room.join("Fay")  # a game going on: not in the table
    clock.now += 3.0
    room.play(eve.token, room.game_of(eve.token)[0].game.legal_moves()[0])
    assert m1 > 1 and m2 > 1

    table = results.durations([room])
    assert table["game"].tolist() == [first.id, second.id]
    assert table["player 1"].tolist() == ["Ann", "Cy"] and table["player 2"].tolist() == ["Bob", "Dee"]
    assert table["moves"].tolist() == [m1, m2]
    assert table["seconds"].tolist() == [6.0 * m1, 12.0 * m2]
    assert table["seconds per move"].tolist() == [6.0, 12.0]
    assert table["started"].tolist() == [1_000.0, 1_000.0 + 6.0 * m1 + 50.0]
    assert list(table.columns) == ["room", "round", "game", "board", "player 1", "player 2", "moves", "started",
                                   "ended", "seconds", "seconds per move"]
    with closing(sqlite3.connect(db)) as other:  # on disk: the start and the last save
        started, updated = other.execute("SELECT started, updated FROM games WHERE id = ?", (first.id,)).fetchone()
    assert (started, updated) == (1_000.0, 1_000.0 + 6.0 * m1)

    summary = results.durations_summary([room])
    minutes = sorted([6.0 * m1 / 60, 12.0 * m2 / 60])
    assert summary.to_dict("records") == [{
        "room": room.code, "board": room.board, "games": 2, "median minutes": statistics.median(minutes),
        "90th percentile minutes": pytest.approx(minutes[0] + 0.9 * (minutes[1] - minutes[0])),
        "median seconds per move": 9.0}]

    rooms.store.close()
    clock.now += 3_600.0  # a restarted server, an hour later: the same table
    again = Rooms(Store(db, clock=clock)).room(room.code)
    pd.testing.assert_frame_equal(results.durations([again]), table)
    pd.testing.assert_frame_equal(results.durations_summary([again]), summary)


def test_no_finished_game_gives_empty_tables_with_their_columns(db):
    room = Rooms(Store(db)).create("gridlock")
    ann, _bob = room.join("Ann"), room.join("Bob")
    room.play(ann.token, room.game_of(ann.token)[0].game.legal_moves()[0])
    table, summary = results.durations([room]), results.durations_summary([room])
    assert table.empty and summary.empty
    assert "seconds per move" in table.columns and "90th percentile minutes" in summary.columns


# the tables schema 4 wrote (gridwidgets 0.18): no games.started
_SCHEMA_4 = """
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE rooms (code TEXT PRIMARY KEY, game TEXT NOT NULL, board TEXT NOT NULL, pairing TEXT NOT NULL,
    agent TEXT NOT NULL, teacher_token TEXT NOT NULL, paused INTEGER NOT NULL DEFAULT 0,
    round INTEGER NOT NULL DEFAULT 1, created REAL NOT NULL, closed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE seats (token TEXT PRIMARY KEY, room TEXT NOT NULL REFERENCES rooms(code), name TEXT NOT NULL,
    joined REAL NOT NULL, removed INTEGER NOT NULL DEFAULT 0, student_id TEXT NOT NULL DEFAULT '');
CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, room TEXT NOT NULL REFERENCES rooms(code),
    round INTEGER NOT NULL, players TEXT NOT NULL, save TEXT NOT NULL, pending TEXT NOT NULL DEFAULT '{}',
    updated REAL NOT NULL, handed TEXT NOT NULL DEFAULT '[]');
CREATE TABLE teacher_sessions (digest TEXT PRIMARY KEY, created REAL NOT NULL);
CREATE TABLE polls (id INTEGER PRIMARY KEY AUTOINCREMENT, room TEXT NOT NULL REFERENCES rooms(code),
    save TEXT NOT NULL, player INTEGER NOT NULL, source TEXT NOT NULL, opened REAL NOT NULL,
    state TEXT NOT NULL DEFAULT 'open', analysis TEXT NOT NULL DEFAULT '');
CREATE TABLE poll_answers (id INTEGER PRIMARY KEY AUTOINCREMENT, poll INTEGER NOT NULL REFERENCES polls(id),
    token TEXT NOT NULL, move TEXT NOT NULL, at REAL NOT NULL);
CREATE TABLE exercise_sets (id INTEGER PRIMARY KEY AUTOINCREMENT, room TEXT NOT NULL REFERENCES rooms(code),
    data TEXT NOT NULL, assigned REAL NOT NULL, ended INTEGER NOT NULL DEFAULT 0);
CREATE TABLE exercise_answers (id INTEGER PRIMARY KEY AUTOINCREMENT,
    exercise_set INTEGER NOT NULL REFERENCES exercise_sets(id), token TEXT NOT NULL, exercise INTEGER NOT NULL,
    move TEXT NOT NULL, step INTEGER NOT NULL, right INTEGER NOT NULL, first_try INTEGER NOT NULL,
    solved INTEGER NOT NULL, seconds REAL NOT NULL, at REAL NOT NULL);
"""


def test_a_class_of_schema_4_opens_its_old_games_start_unknown_and_left_out_new_ones_timed(tmp_path):
    path = tmp_path / "v4.sqlite"
    done = Gridlock()
    while not done.is_over:
        done.play(done.legal_moves()[0])
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.executescript(_SCHEMA_4)
        db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        db.execute("PRAGMA user_version=4")
        db.execute("INSERT INTO settings VALUES ('teacher_token', 'T0KEN-of-schema-4')")
        db.execute("INSERT INTO rooms (code, game, board, pairing, agent, teacher_token, created) VALUES "
                   "('ABCDE', 'gridlock', '4x4', 'arrival', 'random', 'T0KEN-of-schema-4', 1.0)")
        db.execute("INSERT INTO seats (token, room, name, joined) VALUES ('ann-token', 'ABCDE', 'Ann', 1.0), "
                   "('bob-token', 'ABCDE', 'Bob', 2.0)")
        db.execute("INSERT INTO games (room, round, players, save, updated) VALUES "
                   "('ABCDE', 1, '[\"ann-token\", \"bob-token\"]', ?, 500.0)", (done.to_json(indent=None),))
    clock = Clock(2_000.0)
    rooms = Rooms(Store(path, clock=clock))
    room = rooms.room("ABCDE")
    old = room.game_of("ann-token")[0]
    assert old.game.is_over and (old.started, old.updated) == (0.0, 500.0)
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 5
        assert db.execute("SELECT started FROM games WHERE id = ?", (old.id,)).fetchone() == (0.0,)
    assert results.durations([room]).empty  # finished, but its start is unknown
    assert len(results.results_table([room])) == 1  # still in the results
    cy, _dee = room.join("Cy"), room.join("Dee")
    new = room.game_of(cy.token)[0]
    assert new.started == 2_000.0
    moves = _play_to_the_end(room, new, clock, every=5.0)
    rooms.store.close()
    table = results.durations([Rooms(Store(path, clock=clock)).room("ABCDE")])
    assert table["game"].tolist() == [new.id] and table["seconds"].tolist() == [5.0 * moves]
    assert table["started"].tolist() == [2_000.0]
