"""Every intent a room's page can send, fuzzed (issue 41): a student's
board, a class poll, an exercise set, the seat's own calls, the teacher's
actions and the files dropped on the teacher's page. Each is refused with
nothing but a RoomError, a ValueError (IllegalMoveError) or a status on the
board, the room unchanged, in one line that quotes at most 60 characters of
the input; or carried out (:mod:`gridwidgets.rooms.fuzzing`).
``benchmarks/fuzz_room_intents.py`` runs the same at scale and prints the
table. The regressions the fuzzing found are below, with the C-5 promise
(illegal input never changes state) they broke."""

from __future__ import annotations

import pytest

from gridwidgets import IllegalMoveError
from gridwidgets.rooms import RoomError
from gridwidgets.rooms import fuzzing as room_fuzzing
from gridwidgets.rooms.board import poll_board

EXERCISE_INTENTS = {"exercise.board", "exercise.record", "teacher.assign_exercises", "teacher.end_exercises",
                    "drop.exercises"}


def _check(report) -> None:
    assert report.ok, str(report)
    assert report.refused > 0, str(report)


@pytest.mark.parametrize("name", sorted(room_fuzzing.INTENTS))
def test_c5_every_intent_of_a_room_page_is_refused_untouched_in_one_line_or_carried_out(name, tmp_path):
    _check(room_fuzzing.fuzz_intent(name, tmp_path / "class.sqlite", n=30, seed=1))


@pytest.mark.parametrize("name", ["board.play", "board.raw", "poll.board", "poll.answer", "seat.play",
                                  "teacher.open_poll", "drop.poll"])
def test_c5_the_intents_of_a_game_with_hidden_bids_too(name, tmp_path):
    """Block Four: simultaneous bids, hidden from the other seat (BF-5)."""
    _check(room_fuzzing.fuzz_intent(name, tmp_path / "class.sqlite", n=20, seed=2, game="blockfour"))


def test_a_game_without_exercises_says_so_for_the_exercise_intents(tmp_path):
    with pytest.raises(ValueError, match="no exercise kinds"):
        room_fuzzing.fuzz_intent("exercise.record", tmp_path / "class.sqlite", n=5, game="blockfour")


# -- the fuzzer can fail ----------------------------------------------------------------------------
def test_the_room_fuzzer_finds_a_poll_answer_that_raises_type_error(tmp_path, monkeypatch):
    """The bug of issue 41: an answer that is not text made IllegalMoveError
    without its rule, a TypeError out of Room.answer_poll and the board."""
    from gridwidgets.rooms.polls import Poll

    def careless(self, move):
        if not isinstance(move, str):
            raise IllegalMoveError(f"{move!r} is not a move")  # no rule: a TypeError
        return str(self.game.copy().play(move, player=self.player))

    monkeypatch.setattr(Poll, "check_move", careless)
    for name in ("poll.answer", "poll.board"):
        report = room_fuzzing.fuzz_intent(name, tmp_path / f"{name}.sqlite", n=60, seed=1)
        assert report.escaped and any("TypeError" in f for f in report.failures), str(report)


def test_the_room_fuzzer_finds_a_refusal_that_changed_the_room(tmp_path, monkeypatch):
    from gridwidgets.rooms.model import Room

    real = Room.set_paused

    def leaky(self, teacher_token, paused):
        self.version += 1  # counted as a change, then refused
        return real(self, teacher_token, paused)

    monkeypatch.setattr(Room, "set_paused", leaky)
    report = room_fuzzing.fuzz_intent("teacher.set_paused", tmp_path / "class.sqlite", n=40, seed=1)
    assert report.changed, str(report)


def test_the_room_fuzzer_finds_a_refusal_that_quotes_the_input_whole(tmp_path, monkeypatch):
    from gridwidgets.rooms.model import Room

    def chatty(self, teacher_token, token, name):
        raise ValueError(f"cannot rename {token!r} to {name!r}")

    monkeypatch.setattr(Room, "rename_seat", chatty)
    report = room_fuzzing.fuzz_intent("teacher.rename_seat", tmp_path / "class.sqlite", n=80, seed=1)
    assert report.lost and any("characters" in f or "repeats" in f for f in report.failures), str(report)


# -- regressions the fuzzing found (C-5) --------------------------------------------------------------
@pytest.fixture
def classroom(tmp_path):
    c = room_fuzzing.classroom(tmp_path / "class.sqlite", poll=True)
    yield c
    c.close()


@pytest.mark.parametrize("answer", ["", None, 7, 2.5, ("A1",), ["B2"], {"move": "B2"}, b"B2", "B2" * 250])
def test_c5_a_poll_answer_that_is_no_move_is_an_illegal_move_naming_c2(classroom, answer):
    room, token = classroom.room, classroom.seats[0].token
    before = room_fuzzing.room_state(classroom)
    with pytest.raises(IllegalMoveError, match=r"\(C-2\)") as err:
        room.answer_poll(token, answer)
    assert err.value.rule == "C-2" and "\n" not in str(err.value) and len(str(err.value)) < 120
    assert room_fuzzing.room_state(classroom) == before
    board = poll_board(room.polls[-1], room=room, token=token)
    try:
        assert board.handle_intent({"type": "play", "move": answer}) is False  # a status, not a TypeError
        text, kind = board._message
        assert kind == "error" and text.startswith("Illegal move") and "\n" not in text
    finally:
        board.close()
    assert room_fuzzing.room_state(classroom) == before


@pytest.mark.parametrize("player", [[[[0]]], "0", True, 0.0, None, 2, -1, 2**70])
def test_c5_a_player_that_is_no_player_id_is_refused_by_hand_to_agent_and_give_back(classroom, player):
    room, rg = classroom.room, classroom.room.games[0]
    before = room_fuzzing.room_state(classroom)
    for action in (room.hand_to_agent, room.give_back):
        with pytest.raises(RoomError, match="no player") as err:
            action(classroom.key, rg.id, player)
        assert "\n" not in str(err.value) and len(str(err.value)) < 120
    assert room_fuzzing.room_state(classroom) == before


def deep_value(n):
    value = []
    for _ in range(n):
        value = [value]
    return value


@pytest.mark.parametrize("game_id", [True, 1.0, "1", "A1\nB2", "x" * 500, deep_value(5_000), None])
def test_c5_a_game_id_that_is_no_int_is_no_game_said_in_one_short_line(classroom, game_id):
    before = room_fuzzing.room_state(classroom)
    with pytest.raises(RoomError, match="no game") as err:
        classroom.room.teacher_undo(classroom.key, game_id)
    assert "\n" not in str(err.value) and len(str(err.value)) < 60
    assert room_fuzzing.room_state(classroom) == before


def test_status_problem_tells_a_clear_refusal_from_an_unclear_one():
    long = "x" * 61
    assert room_fuzzing.status_problem("Refused: no such seat.", ("tok", long)) is None
    assert "one line" in room_fuzzing.status_problem("Refused:\nno.", None)
    assert "nothing" in room_fuzzing.status_problem("", None)
    assert "repeats" in room_fuzzing.status_problem(f"Refused: {long}.", {"name": [long]})
    assert "characters" in room_fuzzing.status_problem("y" * 1_000, None)


@pytest.mark.parametrize("size", [[1, 2], {"a": 1}, "abc", "9" * 500, None, 1.5, -1])
def test_c5_a_dropped_file_whose_size_is_junk_is_read_by_what_it_holds(size):
    """A page may say any size: only the bytes read decide (at most MAX_DROPPED)."""
    import io

    from gridwidgets.rooms.activities import read_dropped

    assert read_dropped({"name": "x.json", "size": size, "file_obj": io.BytesIO(b"gridlock 4x4")}) == "gridlock 4x4"


def test_c5_junk_nested_5000_deep_is_refused_by_the_projector_names_and_a_poll_label(classroom):
    """repr() of a page's list nested 5,000 deep raises RecursionError on a
    server (the default recursion limit): the refusals never print it."""
    import sys

    junk = deep_value(5_000)
    before = room_fuzzing.room_state(classroom)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1_000)
    try:
        with pytest.raises(ValueError, match="projector names") as err:
            classroom.room.set_projector_names(classroom.key, junk)
        assert len(str(err.value)) < 120
        with pytest.raises(ValueError, match="label is text"):
            classroom.room.open_poll(classroom.key, classroom.room.games[0].game, label=junk)
    finally:
        sys.setrecursionlimit(limit)
    assert room_fuzzing.room_state(classroom) == before
