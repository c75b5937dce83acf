"""Nothing private on a shared screen (issue 41): no page shows a student id,
the projector names seats ("Seat 3") unless the teacher chooses names, a
poll's answers stay hidden until the teacher closes it, and a game the agent
finished in a student's seat is the agent's in the standings, not the
student's."""

from __future__ import annotations

import csv
import io
import json
import sqlite3

import pytest

import gridwidgets as gw
from gridwidgets.rooms import RoomError, Rooms, Store, classwork, exports, results
from gridwidgets.rooms.board import exercise_board, poll_board
from gridwidgets.rooms.store import SCHEMA_VERSION

#: the ids the students give at joining: none may appear on a page
IDS = {"Ann": "s1001", "Bob": "s2002", "Cy": "id-cy-3003", "Dee": "s4004"}


@pytest.fixture
def db(tmp_path):
    return tmp_path / "class.sqlite"


def play_out(room, rg):
    """Play ``rg`` to its end: each student's seat its first legal move, the agent its own."""
    while not rg.game.is_over:
        if room.step_agents():
            continue
        p = rg.game.players_to_move[0]
        room.play(rg.players[p], str(rg.game.legal_moves()[0]))


def a_class(db):
    """A Gridlock room of four students with ids: a game played out, a game the
    agent finished in Cy's seat, a poll answered and revealed, an exercise set answered."""
    rooms = Rooms(Store(db))
    room = rooms.create("gridlock")
    seats = {name: room.join(name, student_id=sid) for name, sid in IDS.items()}
    ann_game, _ = room.game_of(seats["Ann"].token)
    cy_game, _ = room.game_of(seats["Cy"].token)
    play_out(room, ann_game)
    room.hand_to_agent(room.teacher_token, cy_game.id, 0)  # Cy's laptop died
    play_out(room, cy_game)
    return rooms, room, seats


def page_texts(room):
    """Everything the teacher's page and the projector draw from the room's
    data, as text: the standings (the teacher's, the projector's), the cross
    table, every game's row, the durations, the players' names, a poll's
    table (names shown) and heat map, the exercise table and its wrong answers."""
    texts = [results.standings(room).to_string(), results.standings(room, public=True).to_string(),
             results.results_table([room]).to_string(), results.durations([room]).to_string(),
             results.durations_summary([room]).to_string()]
    cross = results.crosstable(room)
    texts.append("" if cross is None else cross.to_string())
    texts += [room.player_name(rg, p) + room.public_player_name(rg, p) for rg in room.games
              for p in range(len(rg.players))]
    for poll in room.polls:
        texts.append(json.dumps(poll.table({t: room.name_of(t) for t in poll.answers})))
        texts.append(json.dumps(poll.overlay()))
    for a in room.assignments:
        texts.append(classwork.exercise_table(room, a).to_string())
        texts += [json.dumps(classwork.wrong_answers(a, i).overlay()) for i in range(len(a.exercises))]
    return texts


# -- student ids --------------------------------------------------------------------------------------------------
def test_no_page_shows_a_student_id_only_the_teachers_files_do(db):
    _, room, seats = a_class(db)
    poll = room.open_poll(room.teacher_token, gw.Gridlock())
    for seat, move in zip(seats.values(), ["B2", "B2", "C3", "A1"], strict=True):
        room.answer_poll(seat.token, move)
    room.reveal_poll(room.teacher_token)
    room.end_poll(room.teacher_token)
    a = room.assign_exercises(room.teacher_token, gw.exercises.generate("gridlock", kind="win-in", depth=1, n=2,
                                                                        seed=1))
    ex = a.exercises[0]
    wrong = next(str(m) for m in ex.start().legal_moves() if str(m) not in ex.answers)
    exercise_board(room, a, seats["Ann"].token).answer(wrong)
    exercise_board(room, a, seats["Bob"].token).answer(ex.answers[0])
    assert poll.answers and a.answers
    texts = page_texts(room)
    shown = [(sid, i) for i, text in enumerate(texts) for sid in IDS.values() if sid in text]
    assert shown == []
    assert "student id" not in results.standings(room).columns
    # the teacher's files carry them: the standings for grades, every poll and exercise answer
    grades = list(csv.DictReader(io.StringIO(exports.standings_csv(room))))
    assert {r["name"]: r["student id"] for r in grades} == IDS
    assert "s1001" in exports.polls_csv(room) and "s1001" in exports.exercise_csv(room)


def test_no_page_shows_an_id_of_the_class_list_only_the_teachers_files_do(db):
    """The class list's ids (issue 42): a seat joined from the list carries its id to the teacher's files;
    no page's data holds one, and neither does the join form's list nor the teacher's class list (names only:
    :meth:`Room.roster_seated` gives the pages names through entries, whose ids the pages never read)."""
    rooms = Rooms(Store(db))
    listed = {"Ann Lee": "LMS-77001", "Bob Ray": "LMS-77002", "Cy Durand": "LMS-77003", "Dee Ong": "LMS-77004"}
    rooms.import_roster("name,id\n" + "".join(f"{n},{i}\n" for n, i in listed.items()))
    room = rooms.create("gridlock")
    seats = {n: room.join(n) for n in ("Ann Lee", "Bob Ray", "Cy Durand")}
    play_out(room, room.game_of(seats["Ann Lee"].token)[0])
    texts = page_texts(room)
    seated, waiting = room.roster_seated()
    texts += [", ".join(e.name for e in seated), ", ".join(e.name for e in waiting)]
    assert [(sid, i) for i, text in enumerate(texts) for sid in listed.values() if sid in text] == []
    grades = list(csv.DictReader(io.StringIO(exports.standings_csv(room))))
    assert {r["name"]: r["student id"] for r in grades} == {n: listed[n] for n in seats}


# -- the projector names seats ---------------------------------------------------------------------------------------
def test_the_projector_names_seats_by_number_unless_the_teacher_chooses_names(db):
    _, room, seats = a_class(db)
    assert room.projector_names == "seat"  # the default: anonymous
    assert [room.public_name(s.token) for s in seats.values()] == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
    rg, _ = room.game_of(seats["Cy"].token)
    assert room.public_player_name(rg, 0) == "Seat 3 (agent)" and room.player_name(rg, 0) == "Cy (agent)"
    public = results.standings(room, public=True)
    assert sorted(public["name"]) == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
    level = public[public["rank"] == public["rank"].iloc[-1]]["name"].tolist()
    assert level == sorted(level, key=lambda n: int(n.split()[1]))  # students level on points: by seat number
    assert not set(IDS) & set(public.to_string().split())  # no name on the projector's standings
    assert sorted(results.standings(room)["name"]) == sorted(IDS)  # the teacher's page: names
    with pytest.raises(RoomError):
        room.set_projector_names("not the token", "name")
    with pytest.raises(ValueError, match="seat, name"):
        room.set_projector_names(room.teacher_token, "nickname")
    before = room.version
    room.set_projector_names(room.teacher_token, "name")
    assert room.version > before and room.public_name(seats["Ann"].token) == "Ann"
    assert sorted(results.standings(room, public=True)["name"]) == sorted(IDS)
    # a seat's number stays its own: the teacher removes Seat 1, the others keep theirs, also after a restart
    room.set_projector_names(room.teacher_token, "seat")
    room.remove_seat(room.teacher_token, seats["Ann"].token)
    dee = Rooms(Store(db)).room(room.code)
    assert dee.projector_names == "seat" and dee.public_name(seats["Dee"].token) == "Seat 4"
    assert dee.public_name(seats["Ann"].token) == "Seat 1"
    room.set_projector_names(room.teacher_token, "name")
    assert Rooms(Store(db)).room(room.code).projector_names == "name"


def test_a_class_of_schema_5_gets_the_anonymous_projector_and_hidden_polls(db):
    rooms = Rooms(Store(db))
    room = rooms.create("gridlock")
    room.join("Ann")
    room.open_poll(room.teacher_token, gw.Gridlock())
    rooms.store.close()
    with sqlite3.connect(db) as old:  # as schema 5 wrote it
        old.execute("ALTER TABLE rooms DROP COLUMN projector_names")
        old.execute("ALTER TABLE polls DROP COLUMN live")
        old.execute("ALTER TABLE seats DROP COLUMN reclaim")
        old.execute("PRAGMA user_version=5")
    again = Rooms(Store(db)).room(room.code)
    assert again.projector_names == "seat" and again.poll is not None and not again.poll.live_answers
    with sqlite3.connect(db) as new:
        assert new.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 6


# -- a poll's answers stay hidden until it is closed ------------------------------------------------------------------
def test_a_polls_answers_are_hidden_from_every_screen_until_closed_unless_live(db):
    _, room, seats = a_class(db)
    t = room.teacher_token
    poll = room.open_poll(t, gw.Gridlock())
    for seat, move in zip(seats.values(), ["B2", "B2", "C3", "A1"], strict=True):
        room.answer_poll(seat.token, move)
    heat = poll_board(poll)  # the teacher's and the projector's board
    assert not poll.answers_shown and heat.hint_data["moves"] == {} and poll.table() == []
    assert poll.overlay()["message"].startswith("4 answered")
    with pytest.raises(RoomError):
        room.set_poll_live("not the token", True)
    room.set_poll_live(t, True)  # the teacher's choice: live
    heat.refresh()
    assert poll.answers_shown and heat.hint_data["moves"]["B2"]["label"] == "2" and poll.table()[0]["answers"] == 2
    assert Rooms(Store(db)).room(room.code).poll.live_answers  # kept in the store
    room.set_poll_live(t, False)
    heat.refresh()
    assert heat.hint_data["moves"] == {}
    room.close_poll(t)
    heat.refresh()
    assert heat.hint_data["moves"]["B2"]["label"] == "2" and [r["move"] for r in poll.table()][:1] == ["B2"]
    live = room.open_poll(t, gw.Gridlock(), live_answers=True)
    room.answer_poll(seats["Ann"].token, "C3")
    assert live.overlay()["moves"]["C3"]["label"] == "1"


# -- an agent's results are not the student's -------------------------------------------------------------------------
def test_a_game_the_agent_finished_in_a_students_seat_is_the_agents_not_the_students(db):
    _, room, seats = a_class(db)
    cy = seats["Cy"].token
    rg, _ = room.game_of(cy)
    assert rg.game.is_over and rg.handed == {0}
    agent_points = rg.points()[0]
    table = results.standings(room).set_index("name")
    assert table.loc["Cy", "played"] == 0 and table.loc["Cy", "points"] == 0.0  # none of it is Cy's
    assert table.loc["Cy", "played by agent"] == 1 and table.loc["Cy", "points by agent"] == agent_points
    assert table.loc["Dee", "played"] == 1 and table.loc["Dee", "played by agent"] == 0
    assert table.loc["Dee", "Buchholz"] == 0.0  # her opponent was the agent: it counts 0
    assert table.loc["Ann", "played"] == 1 and table.loc["Ann", "played by agent"] == 0
    assert room.points()[cy] == agent_points  # Swiss pairing counts the seat's results either way
    grades = {r["name"]: r for r in csv.DictReader(io.StringIO(exports.standings_csv(room)))}
    assert grades["Cy"]["played"] == "0" and grades["Cy"]["played by agent"] == "1"
    row = results.results_table([room]).set_index("game").loc[rg.id]
    assert row["player 1"] == "Cy (agent)"  # the results name the agent in Cy's seat
    with pytest.raises(RoomError, match="over"):  # and the result cannot be made Cy's afterwards
        room.give_back(room.teacher_token, rg.id, 0)
    with pytest.raises(RoomError, match="over"):
        room.hand_to_agent(room.teacher_token, rg.id, 1)


def test_a_seat_given_back_before_the_end_is_the_students_again(db):
    rooms = Rooms(Store(db))
    room = rooms.create("gridlock")
    ann, _bob = room.join("Ann"), room.join("Bob")
    rg, _ = room.game_of(ann.token)
    room.hand_to_agent(room.teacher_token, rg.id, 0)
    room.step_agents()
    room.give_back(room.teacher_token, rg.id, 0)
    play_out(room, rg)
    table = results.standings(room).set_index("name")
    assert table.loc["Ann", "played"] == 1 and table.loc["Ann", "played by agent"] == 0


def test_the_cross_table_puts_a_game_the_agent_finished_under_agent(db):
    rooms = Rooms(Store(db))
    room = rooms.create("gridlock", pairing="round-robin")
    ann, bob = room.join("Ann"), room.join("Bob")
    for round_ in range(2):
        room.next_round(room.teacher_token)
        rg, _ = room.game_of(ann.token)
        if round_ == 1:
            room.hand_to_agent(room.teacher_token, rg.id, rg.player_of(bob.token))
        play_out(room, rg)
    cross = results.crosstable(room)
    assert len(cross.loc["Ann", "Bob"].split()) == 1 and len(cross.loc["Ann", "agent"].split()) == 1
    assert cross.loc["Bob", "agent"] == "" and len(cross.loc["Bob", "Ann"].split()) == 1
