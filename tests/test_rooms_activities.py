"""The class-wide activities of a room (issue 28): a class poll (one position
on every student's screen, one answer each, the heat map, the reveal with the
solver or the equilibrium) and an exercise set given to a room (every answer
stored, the live table, the wrong answers' heat map, the CSV). A real SQLite
file brings every poll, answer and set back after a restart."""

from __future__ import annotations

import csv
import io
import sqlite3
import threading
import time

import pytest

import gridwidgets as gw
from gridwidgets import IllegalMoveError
from gridwidgets.rooms import RoomError, Rooms, Store, classwork, exports
from gridwidgets.rooms.board import exercise_board, first_unsolved, poll_board
from gridwidgets.rooms.polls import analyse, poll_position


@pytest.fixture
def db(tmp_path):
    return tmp_path / "class.sqlite"


def seated(db, game="gridlock", names=("Ann", "Bob", "Cy"), board=None):
    rooms = Rooms(Store(db))
    room = rooms.create(game, board)
    seats = [room.join(n) for n in names]
    return rooms, room, seats


def wait_for(condition, timeout=30.0, what="the condition"):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.02)


# -- polls ---------------------------------------------------------------------------------------------------
def test_a_poll_takes_one_answer_per_student_that_can_change_until_closed_and_never_moves_the_game(db):
    _, room, (ann, bob, cy) = seated(db)
    t = room.teacher_token
    rg = room.games[0]
    room.play(ann.token, "B2")
    poll = room.open_poll(t, rg.game)
    assert room.poll is poll and poll.player == 1 and poll.state == "open"
    assert room.answer_poll(ann.token, "D4") == "D4"
    assert room.answer_poll(bob.token, "D4") == "D4"
    room.answer_poll(cy.token, "A4")
    room.answer_poll(cy.token, "D1")  # changed
    assert poll.counts() == {"D4": 2, "D1": 1}
    assert poll.answers[cy.token].changes == 1 and poll.answers[ann.token].changes == 0
    with pytest.raises(IllegalMoveError, match="GL-3"):  # beside X's marker: the rules refuse it, naming the rule
        room.answer_poll(ann.token, "B3")
    assert poll.mine(ann.token) == "D4"
    with pytest.raises(RoomError, match="no seat"):
        room.answer_poll("not-a-token", "D4")
    assert [str(m) for m in rg.game.history] == ["B2"] and poll.game.history == rg.game.history
    assert poll.game is not rg.game
    room.close_poll(t)
    with pytest.raises(RoomError, match="closed"):
        room.answer_poll(ann.token, "A1")
    with pytest.raises(RoomError, match="teacher"):
        room.reveal_poll(ann.token)
    room.end_poll(t)
    assert room.poll is None
    with pytest.raises(RoomError, match="no poll"):
        room.answer_poll(ann.token, "A1")


def test_a_poll_is_taken_from_any_step_of_a_game_from_an_exercise_or_from_a_save_file(db):
    _, room, (ann, bob, _) = seated(db)
    t = room.teacher_token
    rg = room.games[0]
    for move in ("B2", "D4", "A4"):
        room.play(ann.token if len(rg.game.history) % 2 == 0 else bob.token, move)
    poll = room.open_poll(t, rg.game, step=1)
    assert [str(m) for m in poll.game.history] == ["B2"] and poll.player == 1
    assert "step 1" in poll.source
    save = gw.Gridlock(rows=5, cols=5)
    save.play("C3")
    poll = room.open_poll(t, save.to_json())
    assert poll.game.rows == 5 and [str(m) for m in poll.game.history] == ["C3"]
    assert room.polls[-2].state == "ended"  # the new poll ended the one on the screens
    poll = room.open_poll(t, "gridlock 4x4 ..../.X../..../.... O")
    assert poll.source == "a position" and poll.player == 1 and poll.game.position().endswith(" O")
    with pytest.raises(ValueError, match="GL-3"):
        room.open_poll(t, "gridlock 4x4 ..../.XO./..../.... X")
    ex = gw.exercises.generate("gridlock", kind="win-in", depth=1, n=1, seed=3)[0]
    poll = room.open_poll(t, ex)
    assert poll.game.position_key() == ex.start().position_key() and poll.player == ex.player
    with pytest.raises(ValueError, match="outside"):
        room.open_poll(t, rg.game, step=99)
    with pytest.raises(ValueError, match="JSON"):
        room.open_poll(t, "{not a save file")
    with pytest.raises(ValueError, match="from a game, an exercise or a save file"):
        room.open_poll(t, 12)
    over = gw.Gridlock(rows=2, cols=2)
    for m in ("A1", "B2"):
        over.play(m)
    with pytest.raises(ValueError, match="over"):
        poll_position(over)
    with pytest.raises(ValueError, match="not to move"):
        room.open_poll(t, rg.game, player=0)


def test_the_heat_map_counts_each_move_and_the_reveal_colours_every_move_by_the_solvers_value(db):
    _, room, (ann, bob, cy) = seated(db)
    t = room.teacher_token
    poll = room.open_poll(t, gw.Gridlock())
    for seat, move in ((ann, "B2"), (bob, "B2"), (cy, "C3")):
        room.answer_poll(seat.token, move)
    hidden = poll.overlay()  # open: the screens show how many answered, no count per move (nobody copies)
    assert hidden["moves"] == {} and hidden["message"].startswith("3 answered") and poll.table() == []
    room.close_poll(t)
    heat = poll.overlay()
    assert heat["kind"] == "poll" and heat["version"] == poll.game.version
    assert {m: (h["label"], h["tone"], h["best"]) for m, h in heat["moves"].items()} == {
        "B2": ("2", "heat", True), "C3": ("1", "heat", False)}
    assert heat["message"] == "3 answers"
    room.reveal_poll(t)
    wait_for(lambda: poll.analysed, what="the poll's analysis")
    shown = poll.overlay()
    exact = gw.analysis.solve(gw.Gridlock()).move_values
    assert set(shown["moves"]) == {str(m) for m in exact}  # every legal move, valued
    assert all(shown["moves"][str(m)]["value"] == pytest.approx(float(v)) for m, v in exact.items())
    assert shown["moves"]["B2"]["label"] == "2" and shown["moves"]["A1"]["label"] == ""
    assert "tone" not in shown["moves"]["B2"] and "Solved exactly" in shown["message"]
    table = poll.table()
    assert [r["move"] for r in table[:2]] == ["B2", "C3"] and "who" not in table[0]  # names hidden unless asked
    named = poll.table({ann.token: "Ann", bob.token: "Bob", cy.token: "Cy"})
    assert named[0]["who"] == ["Ann", "Bob"]


#: a Block Four endgame from a recorded game (random self-play, seed 61; turn 7, O to bid among ten):
#: solved exactly, X wins with probability 1/3 (value -1/3): O bids LO, LT or LZ, each a third of the
#: time, and any other bid of O's loses to one of X's three (tests/test_blockfour_endgames.py holds it)
BID_ENDGAME = ("blockfour XXXXXXXX./XXOOOOOO./OOOOXX.../OOXXXOOOO/OOXXXXXOO/OXX..OXOO/X...OOOXX/XXXOOOOXX/"
               "OOOOOOXXX X=OTZ/IL O=ILOTZ/- turn=7 stall=2 bid")


def test_a_simultaneous_node_is_answered_with_a_bid_and_revealed_against_the_exact_equilibrium(db):
    _, room, (ann, bob, cy) = seated(db, game="blockfour")
    t = room.teacher_token
    poll = room.open_poll(t, BID_ENDGAME, player=1)
    g = poll.game
    assert g.is_simultaneous_node()
    for seat, bid in ((ann, "LO"), (bob, "LO"), (cy, "IL")):
        room.answer_poll(seat.token, bid)
    assert poll.counts() == {"LO": 2, "IL": 1}
    a = analyse(poll.game, 1)
    sol = gw.analysis.solve_simultaneous(g, progress=False)
    assert a["kind"] == "equilibrium" and a["exact"]
    assert a["mix"] == pytest.approx({str(k): v for k, v in zip(sol.root.cols, sol.root.y, strict=True)})
    room.reveal_poll(t)
    wait_for(lambda: poll.analysed, what="the equilibrium")
    rows = {r["move"]: r for r in poll.table()}
    assert rows["LO"]["answers"] == 2 and all("mix" in r for r in rows.values())
    assert all(h["tone"] == "heat" for h in poll.overlay()["moves"].values())  # a mix is no verdict
    # the class's mix (LO 2/3, IL 1/3) against X's best reply (TZ: +1 against both): it gives away 1 - (-1/3)
    assert poll.class_exploitability() == pytest.approx(4 / 3)
    assert "gives away 1.33" in poll.overlay()["message"]


def test_a_first_bid_is_too_far_from_the_end_to_solve_and_gets_estimates_said_as_such(db):
    g = gw.BlockFour(seed=2)
    a = analyse(g, 0, budget=0.4, equilibrium_budget=0.3)
    assert a["kind"] == "mcts" and not a["exact"] and "too far from the end" in a["message"]


def test_an_unsolvable_position_is_revealed_with_mcts_estimates_said_as_such():
    g = gw.GridMaster4()
    a = analyse(g, g.current_player, budget=0.4)
    assert a["kind"] == "mcts" and not a["exact"] and a["message"].startswith("Estimates, not exact")
    assert a["moves"] and set(a["moves"]) <= {str(m) for m in g.legal_moves()}


def test_every_poll_and_answer_is_on_disk_and_comes_back_after_a_restart(db):
    rooms, room, (ann, bob, _) = seated(db)
    t = room.teacher_token
    poll = room.open_poll(t, room.games[0].game)
    room.answer_poll(ann.token, "B2")
    with sqlite3.connect(db) as other:  # on disk before answer_poll returned
        assert other.execute("SELECT token, move FROM poll_answers").fetchall() == [(ann.token, "B2")]
    room.answer_poll(ann.token, "C3")
    room.answer_poll(bob.token, "C3")
    room.reveal_poll(t)
    wait_for(lambda: poll.analysed, what="the analysis")
    wait_for(lambda: sqlite3.connect(db).execute("SELECT analysis FROM polls").fetchone()[0] != "",
             what="the analysis on disk")
    rooms.store.close()
    again = Rooms(Store(db)).room(room.code)
    back = again.poll
    assert back is not None and back.state == "revealed" and back.counts() == {"C3": 2}
    assert back.answers[ann.token].changes == 1 and back.analysed
    assert back.game.position_key() == poll.game.position_key()
    lines = list(csv.reader(io.StringIO(exports.polls_csv(again))))
    assert lines[0][:6] == ["room", "poll", "source", "position", "player", "state"]
    assert sorted((r[6], r[8]) for r in lines[1:]) == [("Ann", "C3"), ("Bob", "C3")]
    anonymous = list(csv.reader(io.StringIO(exports.polls_csv([again], names=False))))
    assert {r[6] for r in anonymous[1:]} == {""}


def test_a_students_poll_board_answers_for_its_seat_only_and_shows_nobody_elses_answer(db):
    _, room, (ann, bob, _) = seated(db)
    poll = room.open_poll(room.teacher_token, room.games[0].game)
    board = poll_board(poll, room=room, token=ann.token)
    other = poll_board(poll, room=room, token=bob.token)
    assert board.handle_intent({"type": "play", "move": "B2", "version": poll.game.version}) is False
    assert poll.mine(ann.token) == "B2" and poll.game.version == 0 and not poll.game.history
    assert list(board.hint_data["moves"]) == ["B2"] and "Your answer: B2" in board.state["status"]
    other.refresh()
    assert other.hint_data["moves"] == {} and "B2" not in other.state["status"] + other.state["message"]
    board.handle_intent({"type": "play", "move": "Z9"})
    assert board.state["message"].startswith("Illegal move") and poll.mine(ann.token) == "B2"
    board.handle_intent({"type": "undo"})
    assert board.state["message"].startswith("Refused")
    board.set_state({"hints": "solve"})
    assert board.hints == "poll" and "cannot set hints" in board.state["message"]
    heat = poll_board(poll)
    assert heat.hint_data["moves"] == {}  # the teacher's and the projector's board: no count while open
    room.close_poll(room.teacher_token)
    heat.refresh()
    assert heat.hint_data["moves"]["B2"]["label"] == "1" and heat.handle_intent({"type": "play", "move": "C3"}) is False
    assert "class chooses" in heat.state["status"] and heat.state["people"] == []


def test_sixty_students_answering_at_once_lose_no_answer(db):
    names = [f"Student {i}" for i in range(60)]
    rooms = Rooms(Store(db))
    room = rooms.create("gridlock", pairing="round-robin")
    room._joins.burst = room._joins.level = 100  # a class that joined over a few minutes
    seats = [room.join(n) for n in names]
    poll = room.open_poll(room.teacher_token, gw.Gridlock())
    moves = [str(m) for m in poll.game.legal_moves()]
    barrier = threading.Barrier(len(seats))

    def answer(i, seat):
        barrier.wait()
        room.answer_poll(seat.token, moves[i % len(moves)])

    threads = [threading.Thread(target=answer, args=(i, s)) for i, s in enumerate(seats)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    assert sum(poll.counts().values()) == 60
    with sqlite3.connect(db) as other:
        assert other.execute("SELECT COUNT(*) FROM poll_answers").fetchone()[0] == 60


# -- exercise sets -------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def small_set():
    return gw.exercises.generate("gridlock", kind="win-in", depth=1, n=3, seed=1)


def test_an_exercise_set_given_to_a_room_stores_every_answer_with_first_try_and_time(db, small_set):
    rooms, room, (ann, bob, cy) = seated(db)
    t = room.teacher_token
    a = room.assign_exercises(t, small_set.to_json())
    assert room.assignment is a and len(a.exercises) == 3
    ex = small_set[0]
    wrong = next(str(m) for m in ex.start().legal_moves() if str(m) not in ex.answers)
    w = exercise_board(room, a, ann.token)
    w.answer(wrong)
    w.retry()
    w.answer(ex.answers[0])
    exercise_board(room, a, bob.token).answer(ex.answers[0])
    rows = [(r["move"], r["right"], r["first_try"], r["solved"]) for r in a.answers]
    assert rows == [(wrong, False, True, False), (ex.answers[0], True, False, True), (ex.answers[0], True, True, True)]
    assert all(r["seconds"] >= 0 for r in a.answers)
    assert first_unsolved(a, ann.token) == 1 and first_unsolved(a, cy.token) == 0
    table = classwork.exercise_table(room)
    assert list(table.index) == ["Ann", "Bob", "Cy"]
    first = table.columns[0]
    assert first.startswith("1:") and table.loc["Ann", first] == "✓ (retried)" and table.loc["Bob", first] == "✓"
    assert table.loc["Cy", first] == "" and list(table["first try"]) == [0, 1, 0]
    wrong_map = classwork.wrong_answers(a, 0)
    assert wrong_map.counts() == {wrong: 1} and wrong_map.overlay()["moves"][wrong]["label"] == "1"
    lines = list(csv.reader(io.StringIO(exports.exercise_csv(room))))
    assert lines[0][:7] == ["room", "set", "student", "student id", "exercise", "kind", "move"] and len(lines) == 4
    rooms.store.close()
    again = Rooms(Store(db)).room(room.code)
    assert again.assignment is not None and again.assignment.answers == a.answers
    with pytest.raises(ValueError):
        again.assign_exercises(t, "{}")
    with pytest.raises(RoomError, match="teacher"):
        again.assign_exercises(ann.token, small_set)
    again.end_exercises(t)
    assert again.assignment is None and Rooms(Store(db)).room(room.code).assignment is None


def test_the_hardest_exercises_come_first(db, small_set):
    _, room, (ann, bob, _) = seated(db)
    a = room.assign_exercises(room.teacher_token, small_set)
    wrong = next(str(m) for m in small_set[2].start().legal_moves() if str(m) not in small_set[2].answers)
    for seat in (ann, bob):
        room.record_exercise_answer(seat.token, a.id, {"exercise": 0, "move": small_set[0].answers[0],
                                                       "right": True, "step": 1, "seconds": 1.0, "solved": True})
        room.record_exercise_answer(seat.token, a.id, {"exercise": 2, "move": wrong, "right": False, "step": 1,
                                                       "seconds": 2.0, "solved": False})
    assert classwork.exercise_order(a) == [2, 0, 1]  # all wrong, all right, untried


@pytest.mark.parametrize("name", sorted(gw.core.registry.names()))
def test_any_registered_game_is_polled_and_its_answers_land_on_the_boards_targets(db, name):
    """The heat map draws an answer where the board draws that move (a cell, an
    edge, a choice or a placement listed beside the board): the poll's keys
    are the notation of the board's targets."""
    _, room, seats = seated(db, game=name)
    g = gw.core.registry.get(name)()
    while not g.is_over and len(g.history) < 3:  # a few moves in: walls, placements and the like appear
        g.play(g.legal_moves()[len(g.history) % len(g.legal_moves())], player=g.players_to_move[0])
    poll = room.open_poll(room.teacher_token, g)
    moves = [str(m) for m in poll.game.legal_moves(poll.player)]
    for i, seat in enumerate(seats):
        room.answer_poll(seat.token, moves[(i * 7) % len(moves)])
    room.close_poll(room.teacher_token)
    board = poll_board(poll)
    targets = {t["move"] for t in board.state["targets"]}
    heat = board.hint_data["moves"]
    assert heat and sum(int(h["label"]) for h in heat.values()) == len(seats)
    assert set(heat) <= targets | set(moves)
    assert all(h["tone"] == "heat" for h in heat.values())


def test_a_flooding_poll_page_is_cut_off_and_its_answer_stays_the_last_one_taken(db):
    from gridwidgets.rooms.board import FLOOD_LIMIT

    _, room, (ann, _, _) = seated(db)
    poll = room.open_poll(room.teacher_token, gw.Gridlock())
    board = poll_board(poll, room=room, token=ann.token)
    moves = [str(m) for m in poll.game.legal_moves()]
    for i in range(FLOOD_LIMIT * 5):
        board._handle_msg({"content": {"data": {"method": "custom",
                                                "content": {"type": "play", "move": moves[i % len(moves)]}}},
                          "buffers": []})
    taken = poll.answers[ann.token]
    assert taken.changes < FLOOD_LIMIT and "too many messages" in board.state["message"]
    with sqlite3.connect(db) as other:
        assert other.execute("SELECT COUNT(*) FROM poll_answers").fetchone()[0] == taken.changes + 1


def test_a_file_dropped_on_the_teachers_page_is_read_within_bounds():
    import io as _io

    from gridwidgets.rooms.activities import MAX_DROPPED, read_dropped

    assert read_dropped({"size": 5, "file_obj": _io.BytesIO(b"hello")}) == "hello"
    with pytest.raises(ValueError, match="more than"):
        read_dropped({"size": MAX_DROPPED + 1, "file_obj": _io.BytesIO(b"")})
    with pytest.raises(ValueError, match="more than"):  # a size that lies
        read_dropped({"size": 1, "file_obj": _io.BytesIO(b"x" * (MAX_DROPPED + 10))})
    with pytest.raises(ValueError, match="not text"):
        read_dropped({"size": 2, "file_obj": _io.BytesIO(b"\xff\xfe")})
