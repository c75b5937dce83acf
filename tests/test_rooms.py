"""Classroom rooms (gridwidgets.rooms): seats and tokens, pairings, the
teacher's actions, hidden submissions per seat, and a real SQLite file that
brings every room, seat and game back after a restart."""

from __future__ import annotations

import sqlite3

import pytest

from gridwidgets import IllegalMoveError
from gridwidgets.core import registry
from gridwidgets.rooms import AGENT, PAIRINGS, RoomError, Rooms, Store


@pytest.fixture
def db(tmp_path):
    return tmp_path / "class.sqlite"


def test_arrival_pairs_students_in_order_and_a_move_is_on_disk_before_play_returns(db):
    rooms = Rooms(Store(db))
    room = rooms.create("gridlock")
    ann = room.join("Ann")
    assert room.waiting() == [ann]
    with pytest.raises(RoomError, match="no game yet"):
        room.play(ann.token, "B2")
    bob = room.join("  Bob  ")
    assert bob.name == "Bob" and room.waiting() == []
    rg, p = room.game_of(ann.token)
    assert (p, rg.player_of(bob.token)) == (0, 1)  # first to arrive moves first
    room.play(ann.token, "B2")
    # on disk already: another connection reads the move
    with sqlite3.connect(db) as other:
        (save,) = other.execute("SELECT save FROM games WHERE id = ?", (rg.id,)).fetchone()
    assert '"B2"' in save


def test_a_seat_plays_only_for_itself_and_only_in_turn(db):
    room = Rooms(Store(db)).create("gridlock")
    ann, bob = room.join("Ann"), room.join("Bob")
    g = room.game_of(ann.token)[0].game
    with pytest.raises(RoomError, match="not Player 2"):
        room.play(bob.token, "B2")  # X (Ann) is to move
    with pytest.raises(RoomError, match="no seat"):
        room.play("not-a-token", "B2")
    with pytest.raises(RoomError, match="no seat"):
        room.play(None, "B2")
    with pytest.raises(IllegalMoveError):
        room.play(ann.token, "Z9")
    assert g.history == []
    room.play(ann.token, "B2")
    room.play(bob.token, "D4")
    assert [str(m) for m in g.history] == ["B2", "D4"]


def test_the_teacher_pauses_with_the_teacher_token_only(db):
    room = Rooms(Store(db)).create("gridlock")
    ann, _bob = room.join("Ann"), room.join("Bob")
    with pytest.raises(RoomError, match="teacher"):
        room.set_paused(ann.token, True)
    room.set_paused(room.teacher_token, True)
    with pytest.raises(RoomError, match="paused"):
        room.play(ann.token, "B2")
    room.set_paused(room.teacher_token, False)
    room.play(ann.token, "B2")


def test_bf5_a_seat_sees_its_own_bid_and_never_the_other(db):
    room = Rooms(Store(db)).create("blockfour")
    x, o = room.join("X player"), room.join("O player")
    g = room.game_of(x.token)[0].game
    bid = g.legal_moves(0)[0]
    room.play(x.token, bid)
    assert room.view(x.token).hidden_submissions()[0] == bid
    other = room.view(o.token)
    assert other.pending == (0,)
    hidden = other.hidden_submissions()[0]  # a placeholder, not X's cards (BF-5)
    assert hidden != bid and not set(bid.cards) & set(getattr(hidden, "cards", ()))


def test_agent_pairing_seats_each_student_against_the_agent_which_moves(db):
    room = Rooms(Store(db)).create("gridlock", pairing="agent", agent="random")
    ann = room.join("Ann")
    rg, p = room.game_of(ann.token)
    assert p == 0 and rg.players == [ann.token, AGENT]
    assert room.step_agents() == 0  # X (Ann) is to move
    room.play(ann.token, "B2")
    assert room.step_agents() == 1 and len(rg.game.history) == 2


def test_round_robin_meets_everyone_once_over_the_rounds(db):
    room = Rooms(Store(db)).create("gridlock", pairing="round-robin")
    seats = [room.join(n) for n in "ABCD"]
    assert room.waiting() == seats  # nobody plays before the teacher starts a round
    met = set()
    for _ in range(3):
        games = room.next_round(room.teacher_token)
        assert sorted(t for g in games for t in g.players) == sorted(s.token for s in seats)
        met |= {frozenset(g.players) for g in games}
    assert len(met) == 6  # all pairs of four, once each
    odd = Rooms(Store(":memory:")).create("gridlock", pairing="round-robin")
    for n in "ABC":
        odd.join(n)
    games = odd.next_round(odd.teacher_token)
    assert sum(AGENT in g.players for g in games) == 1


def test_a_restarted_server_finds_every_room_seat_and_game_as_it_was(db):
    store = Store(db)
    rooms = Rooms(store)
    first = rooms.create("gridlock")
    ann, bob = first.join("Ann"), first.join("Bob")
    first.play(ann.token, "B2")
    first.play(bob.token, "D4")
    bids = rooms.create("blockfour")
    x, _o = bids.join("X"), bids.join("O")
    bid = bids.game_of(x.token)[0].game.legal_moves(0)[-1]
    bids.play(x.token, bid)  # hidden, pending
    before = {r.code: [(g.players, g.game.to_json(), g.game.hidden_submissions()) for g in r.games]
              for r in rooms.rooms()}
    store.close()  # the server stops

    again = Rooms(Store(db))
    after = {r.code: [(g.players, g.game.to_json(), g.game.hidden_submissions()) for g in r.games]
             for r in again.rooms()}
    assert after == before
    room = again.room(first.code.lower())
    assert room.teacher_token == first.teacher_token and room.seat(ann.token).name == "Ann"
    room.play(ann.token, "A1")  # the game goes on, for the same seat tokens
    assert [str(m) for m in room.game_of(bob.token)[0].game.history] == ["B2", "D4", "A1"]


@pytest.mark.parametrize("name", ["", "   ", "x" * 31, "bell\x07", 42, None])
def test_a_bad_display_name_is_refused_and_seats_nobody(name, db):
    room = Rooms(Store(db)).create("gridlock")
    with pytest.raises(ValueError):
        room.join(name)
    assert room.seats == {}


def test_bad_room_choices_and_codes_are_refused(db):
    rooms = Rooms(Store(db))
    with pytest.raises(ValueError, match="pairing"):
        rooms.create("gridlock", pairing="random")
    with pytest.raises(ValueError, match="agent"):
        rooms.create("gridlock", agent="oracle")
    with pytest.raises(ValueError, match="unknown game"):
        rooms.create("chess")
    with pytest.raises(RoomError, match="no room"):
        rooms.room("Q" * 10_000)
    assert set(PAIRINGS) == {"arrival", "round-robin", "agent"}
    assert all(name in registry.names() for name in {r.game_name for r in rooms.rooms()})
