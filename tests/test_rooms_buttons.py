"""The teacher's actions as the model takes them (issue 41): Pause and Resume
set a state (twice is once), a removed seat comes back with
:meth:`~gridwidgets.rooms.Room.restore_seat`, and every change is pushed to
the pages waiting on the room's signal (:class:`~gridwidgets.rooms.model.Changes`)."""

from __future__ import annotations

import threading

import pytest

from gridwidgets.rooms import RoomError, Rooms, Store
from gridwidgets.rooms.model import Changes


@pytest.fixture
def rooms(tmp_path):
    return Rooms(Store(tmp_path / "class.db"))


def test_pause_twice_stays_paused_and_resume_twice_stays_running(rooms):
    room = rooms.create("gridlock")
    room.set_paused(room.teacher_token, True)
    version = room.version
    room.set_paused(room.teacher_token, True)  # a second click: nothing changes, nothing is counted
    assert room.paused and room.version == version
    room.set_paused(room.teacher_token, False)
    room.set_paused(room.teacher_token, False)
    assert not room.paused and room.version == version + 1
    assert not Rooms(Store(rooms.store.path)).room(room.code).paused


@pytest.mark.parametrize("junk", ["no", "", 1, 0, None, [True]])
def test_pause_takes_true_or_false_only_and_junk_changes_nothing(rooms, junk):
    room = rooms.create("gridlock")
    version = room.version
    with pytest.raises(ValueError, match="True or False"):
        room.set_paused(room.teacher_token, junk)  # "no" would have paused the room
    assert not room.paused and room.version == version


def test_restore_seat_gives_the_seat_and_its_game_back(rooms):
    room = rooms.create("gridlock")
    ann, bob = room.join("Ann"), room.join("Bob")
    rg, p = room.game_of(ann.token)
    room.remove_seat(room.teacher_token, ann.token)
    assert ann.token in room.former and rg.handed == {p}
    seat = room.restore_seat(room.teacher_token, ann.token)
    assert seat == ann and ann.token in room.seats and ann.token not in room.former
    assert rg.handed == set() and room.game_of(ann.token) == (rg, p)
    room.play(ann.token, "B2")  # Ann plays her own game again
    assert len(rg.game.history) == 1
    again = Rooms(Store(rooms.store.path)).room(room.code)  # written: the same after a restart
    assert ann.token in again.seats and again.game(rg.id).handed == set()
    assert bob.token in again.seats


def test_restore_seat_leaves_a_finished_game_and_a_seat_handed_before(rooms):
    room = rooms.create("gridlock")
    ann, bob = room.join("Ann"), room.join("Bob")
    rg, p = room.game_of(ann.token)
    room.hand_to_agent(room.teacher_token, rg.id, 1 - p)  # Bob's seat is the agent's, the teacher's choice
    room.remove_seat(room.teacher_token, bob.token)  # nothing more to hand: it was already the agent's
    room.restore_seat(room.teacher_token, bob.token)
    assert rg.handed == {1 - p}  # still the agent's: the removal did not hand it
    room.remove_seat(room.teacher_token, ann.token)
    while not rg.game.is_over:  # the agents finish the game
        assert room.step_agents() >= 1
    room.restore_seat(room.teacher_token, ann.token)
    assert p in rg.handed  # a finished game keeps who played it


def test_restore_seat_refuses_what_it_cannot_do_and_changes_nothing(rooms):
    room = rooms.create("gridlock")
    ann = room.join("Ann")
    with pytest.raises(RoomError, match="only the teacher"):
        room.restore_seat(ann.token, ann.token)
    with pytest.raises(RoomError, match="no removed seat"):
        room.restore_seat(room.teacher_token, ann.token)  # seated, never removed
    with pytest.raises(RoomError, match="no removed seat"):
        room.restore_seat(room.teacher_token, None)
    room.remove_seat(room.teacher_token, ann.token)
    other = room.join("Ann")  # someone took the name meanwhile
    version = room.version
    with pytest.raises(ValueError, match="Ann"):
        room.restore_seat(room.teacher_token, ann.token)
    assert ann.token in room.former and room.version == version and list(room.seats) == [other.token]
    room.rename_seat(room.teacher_token, other.token, "Ann B")
    room.restore_seat(room.teacher_token, ann.token)
    assert ann.token in room.seats
    rooms.end_class(rooms.teacher_token)
    with pytest.raises(RoomError):
        room.restore_seat(room.teacher_token, other.token)


def test_restore_seat_after_a_restart_gives_back_its_games_still_going_on(rooms):
    room = rooms.create("gridlock")
    ann, _bob = room.join("Ann"), room.join("Bob")
    rg, _p = room.game_of(ann.token)
    room.remove_seat(room.teacher_token, ann.token)
    again = Rooms(Store(rooms.store.path)).room(room.code)
    again.restore_seat(again.teacher_token, ann.token)
    assert again.game(rg.id).handed == set() and ann.token in again.seats


def test_every_change_wakes_every_waiter_at_once(rooms):
    room = rooms.create("gridlock")
    seen, woken = room.changes.count, []
    started = threading.Barrier(4)

    def waiter(changes: Changes, last: int) -> None:
        started.wait()
        woken.append(changes.wait(last, timeout=60))

    threads = [threading.Thread(target=waiter, args=(room.changes, seen)),
               threading.Thread(target=waiter, args=(room.changes, seen)),
               threading.Thread(target=waiter, args=(rooms.changes, rooms.changes.count))]
    for t in threads:
        t.start()
    started.wait()
    room.set_paused(room.teacher_token, True)  # a change of the room: its signal and the class's
    for t in threads:
        t.join(60)
    assert len(woken) == 3 and all(c > 0 for c in woken)


def test_a_room_opened_or_the_class_ended_wakes_the_class_signal(rooms):
    before = rooms.changes.count
    room = rooms.create("gridlock")
    assert rooms.changes.wait(before, 0) > before
    before, room_before = rooms.changes.count, room.changes.count
    rooms.end_class(rooms.teacher_token)
    assert rooms.changes.count > before and room.changes.count > room_before


def test_a_waiter_returns_at_its_timeout_without_a_change():
    changes = Changes()
    assert changes.wait(0, timeout=0.01) == 0
    changes.notify()
    assert changes.wait(0, timeout=60) == 1  # a change already counted: no wait


def test_the_notifier_is_not_held_up_by_a_page_that_never_looks():
    changes = Changes()
    for _ in range(1000):  # nobody waits: notify never blocks
        changes.notify()
    assert changes.count == 1000
