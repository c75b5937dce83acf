"""One gradebook row per student over every room of a class (issue 42):
rooms built through the model (students joining with ids, games played to
the end, an agent finishing a game in a student's seat, a poll answered, an
exercise set answered), a real nbgrader gradebook, the three CSV shapes read
back column by column, and the command line on a database file."""

from __future__ import annotations

import csv
import hashlib
import io
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_rooms_private import play_out

import gridwidgets as gw
from gridwidgets.cli import main
from gridwidgets.rooms import Rooms, Store, classwork, exports, results
from gridwidgets.rooms.board import exercise_board
from gridwidgets.rooms.gradebook import (
    GRADE_ITEMS,
    PLAIN_COLUMNS,
    AssignmentScores,
    answers_reports,
    class_gradebook,
    gradebook_csv,
    nbgrader_scores,
    read_class,
)

#: the ids the students give at joining; Dee's name and Fay's name and id begin like spreadsheet formulas
IDS = {"Ann": "s1001", "Bob": "s2002", "Cy": "s3003", "=1+1": "s4004", "@Fay": "-s5005"}


@dataclass(frozen=True)
class Report:
    """A stand-in for :func:`gridwidgets.exercises.judge_answers`'s report (the same four attributes)."""

    exercises: int
    solved: tuple[int, ...]
    first_try: tuple[int, ...]
    problem: str | None = None


def a_class(db):
    """Two rooms of one class. Room A (arrival pairing): five students with
    ids (Fay waits for a partner), Ann and Bob's game played out, Cy's seat handed to the agent and its
    game played out, a poll answered by three, an exercise set answered (Ann
    wrong then right, Bob right at once twice). Room B (everyone plays the
    agent): Ann again, with her id, and Eve without one, both games played out."""
    rooms = Rooms(Store(db))
    a = rooms.create("gridlock")
    seats = {name: a.join(name, student_id=sid) for name, sid in IDS.items()}
    ann_game, _ = a.game_of(seats["Ann"].token)
    cy_game, cy = a.game_of(seats["Cy"].token)
    play_out(a, ann_game)
    a.hand_to_agent(a.teacher_token, cy_game.id, cy)
    play_out(a, cy_game)
    a.open_poll(a.teacher_token, gw.Gridlock())
    for name, move in (("Ann", "B2"), ("Bob", "B2"), ("=1+1", "C3")):
        a.answer_poll(seats[name].token, move)
    a.end_poll(a.teacher_token)
    work = a.assign_exercises(a.teacher_token, gw.exercises.generate("gridlock", kind="win-in", depth=1, n=2, seed=1))
    ex = work.exercises[0]
    wrong = next(str(m) for m in ex.start().legal_moves() if str(m) not in ex.answers)
    board = exercise_board(a, work, seats["Ann"].token)
    board.answer(wrong)
    board.retry()
    board.answer(ex.answers[0])
    bob = exercise_board(a, work, seats["Bob"].token)
    bob.answer(ex.answers[0])
    bob.next()
    bob.answer(work.exercises[1].answers[0])
    b = rooms.create("gridlock", pairing="agent")
    ann_b = b.join("Ann", student_id=IDS["Ann"])
    eve = b.join("Eve")
    for token in (ann_b.token, eve.token):
        play_out(b, b.game_of(token)[0])
    return rooms, a, b, seats


@pytest.fixture
def db(tmp_path):
    return tmp_path / "class.sqlite"


@pytest.fixture
def nbgrader_db(tmp_path, monkeypatch):
    """A real nbgrader gradebook: assignment ps1 (two graded cells, 4 + 6
    points), Ann's submission (3 + 6), Bob's (1 + 2), Cy none, and a student
    of the course who never came to a room."""
    api = pytest.importorskip("nbgrader.api")
    # a new gradebook asks nbgrader's alembic (a console script beside this Python) for its schema version
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    path = tmp_path / "gradebook.db"
    given = {"s1001": (3.0, 6.0), "s2002": (1.0, 2.0), "s9009": (4.0, 0.0)}
    with api.Gradebook(f"sqlite:///{path}") as gb:
        for sid in [*IDS.values(), "s9009"]:
            gb.add_student(sid)
        gb.add_assignment("ps1")
        gb.add_notebook("problem1", "ps1")
        gb.add_grade_cell("q1", "problem1", "ps1", max_score=4, cell_type="code")
        gb.add_grade_cell("q2", "problem1", "ps1", max_score=6, cell_type="code")
        for sid, (q1, q2) in given.items():
            gb.add_submission("ps1", sid)
            gb.find_grade("q1", "problem1", "ps1", sid).manual_score = q1
            gb.find_grade("q2", "problem1", "ps1", sid).auto_score = q2
        gb.db.commit()
        gb.engine.dispose()
    return path, {sid: sum(q) for sid, q in given.items()}


def expected_games(rooms):
    """Per student id: played, points, played by agent, points by agent, summed
    over the rooms' standings (the results page's own count)."""
    out = {}
    for room in rooms:
        for _, r in results.standings(room, ids=True).iterrows():
            key = r["student id"] or r["name"]
            e = out.setdefault(key, [0, 0.0, 0, 0.0])
            for i, column in enumerate(("played", "points", "played by agent", "points by agent")):
                e[i] += r[column]
    return out


# -- the rows --------------------------------------------------------------------------------------------------------
def test_one_row_per_student_over_every_room_with_the_agents_games_apart(db):
    rooms, a, b, seats = a_class(db)
    book = class_gradebook(rooms.rooms())
    assert [r.student for r in book.students] == [*sorted(IDS.values(), key=str.casefold), "Eve"]
    ann = book.record("s1001")
    assert ann.rooms == [a.code, b.code] and ann.names == ["Ann"]  # two rooms, one row
    assert len([r for r in book.students if r.student == "s1001"]) == 1
    games = expected_games(rooms.rooms())
    assert games["s1001"][0] == 2  # one game in each room
    for r in book.students:
        assert [r.played, r.points, r.agent_played, r.agent_points] == games[r.student], r.student
    cy_game, cy = a.game_of(seats["Cy"].token)
    cy_row = book.record("s3003")
    assert (cy_row.played, cy_row.points) == (0, 0.0)  # the agent finished it: none of it is Cy's
    assert (cy_row.agent_played, cy_row.agent_points) == (1, cy_game.points()[cy])
    eve = book.record("Eve")
    assert eve.keyed_by == "name" and eve.rooms == [b.code] and eve.played == 1
    assert {r.keyed_by for r in book.students if r.student != "Eve"} == {"id"}


def test_polls_and_exercises_count_what_each_student_did(db):
    rooms, a, _, seats = a_class(db)
    book = class_gradebook(rooms.rooms())
    poll = a.polls[0]
    work = a.assignments[0]
    progress = classwork.exercise_progress(work)
    for name, sid in IDS.items():
        r = book.record(sid)
        token = seats[name].token
        assert r.polls_answered == int(token in poll.answers) and r.polls_run == len(a.polls)
        cells = progress.get(token, {}).values()
        assert r.exercises_solved == sum(c["status"] in ("first", "later") for c in cells)
        assert r.exercises_first_try == sum(c["status"] == "first" for c in cells)
        assert r.exercises_given == len(work.exercises)
    # what each did: Ann solved after a wrong try, Bob both at once, Cy nothing
    assert (book.record("s1001").exercises_solved, book.record("s1001").exercises_first_try) == (1, 0)
    assert (book.record("s2002").exercises_solved, book.record("s2002").exercises_first_try) == (2, 2)
    assert book.record("s3003").polls_answered == 0 and book.record("Eve").polls_run == 0


def test_answers_files_add_to_the_exercise_columns(db):
    rooms, *_ = a_class(db)
    before = class_gradebook(rooms.rooms()).record("s1001")
    reports = {"s1001": Report(5, (0, 1, 3), (0, 3)), "s7007": Report(5, (), (), "no answers file: 0 points")}
    book = class_gradebook(rooms.rooms(), answers=reports)
    ann = book.record("s1001")
    assert ann.exercises_given == before.exercises_given + 5
    assert ann.exercises_solved == before.exercises_solved + 3
    assert ann.exercises_first_try == before.exercises_first_try + 2
    newcomer = book.record("s7007")  # answered a notebook, never sat in a room
    assert newcomer.rooms == [] and newcomer.exercises_solved == 0
    assert newcomer.problems == ["no answers file: 0 points"]


# -- nbgrader --------------------------------------------------------------------------------------------------------
def test_the_assignment_points_come_from_a_real_nbgrader_gradebook(db, nbgrader_db):
    path, scores = nbgrader_db
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    read = nbgrader_scores(path, ["ps1"])
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest  # nbgrader's file is never written
    assert [(a.name, a.max_score) for a in read] == [("ps1", 10.0)] and dict(read[0].scores) == scores
    assert nbgrader_scores(path) == read  # every assignment by default
    rooms, *_ = a_class(db)
    book = class_gradebook(rooms.rooms(), assignments=read)
    for sid in IDS.values():
        assert book.record(sid).assignments == {"ps1": scores.get(sid)}  # Cy and Dee: no submission, no grade
    assert book.record("s9009").rooms == [] and book.record("s9009").assignments == {"ps1": scores["s9009"]}
    assert book.record("Eve").assignments == {"ps1": None}
    with pytest.raises(ValueError, match=r"'ps9'.*it has 'ps1'"):
        nbgrader_scores(path, ["ps9"])
    with pytest.raises(FileNotFoundError):
        nbgrader_scores(path.with_name("nowhere.db"), ["ps1"])


def test_without_nbgrader_the_error_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "nbgrader.api", None)
    with pytest.raises(ImportError, match=r"pip install 'gridwidgets\[nbgrader\]'"):
        nbgrader_scores(tmp_path / "gradebook.db", ["ps1"])


# -- the three shapes --------------------------------------------------------------------------------------------------
def read_back(text):
    return list(csv.reader(io.StringIO(text)))


def grade_items(r):
    return [r.played, r.points, r.polls_answered, r.exercises_solved, r.exercises_first_try]


def same_number(cell, value):
    return cell == "" if value is None else float(cell) == pytest.approx(float(value))


def a_book(db):
    rooms, *_ = a_class(db)
    scores = AssignmentScores("ps1", 10.0, {"s1001": 9.0, "s2002": 3.5})
    return class_gradebook(rooms.rooms(), assignments=[scores])


def test_the_plain_shape_has_every_column_with_its_unit(db):
    book = a_book(db)
    lines = read_back(gradebook_csv(book))
    assert lines[0] == [*PLAIN_COLUMNS, "Assignment: ps1 (points of 10)", "answers file problem"]
    assert "games points (1 a win, 0.5 a draw)" in lines[0]
    assert len(lines) == 1 + len(book.students)  # the seat keyed by name too
    for line, r in zip(lines[1:], book.students, strict=True):
        cells = dict(zip(lines[0], line, strict=True))
        assert cells["student"] == exports.safe_cell(r.student) and cells["keyed by"] == r.keyed_by
        assert cells["name"] == exports.safe_cell(" / ".join(r.names)) and cells["rooms"] == " ".join(r.rooms)
        numbers = [r.played, r.points, r.agent_played, r.agent_points, r.polls_answered, r.polls_run,
                   r.exercises_given, r.exercises_solved, r.exercises_first_try, r.assignments["ps1"]]
        for column, value in zip([*PLAIN_COLUMNS[4:], lines[0][-2]], numbers, strict=True):
            assert same_number(cells[column], value), (r.student, column)
    dee = dict(zip(lines[0], next(line for line in lines if line[0] == "s4004"), strict=True))
    fay = dict(zip(lines[0], next(line for line in lines if line[0].endswith("s5005")), strict=True))
    assert dee["name"] == "'=1+1" and (fay["student"], fay["name"]) == ("'-s5005", "'@Fay")  # no formula runs


@pytest.mark.parametrize("id_kind, id_header", [("login", "Username"), ("sis", "ID number")])
def test_the_moodle_shape_has_one_identifying_column_and_one_column_per_grade_item(db, id_kind, id_header):
    book = a_book(db)
    lines = read_back(gradebook_csv(book, "moodle", id_kind=id_kind))
    assert lines[0] == [id_header, "Full name", *GRADE_ITEMS, "Assignment: ps1"]
    graded = book.importable()
    assert [line[0] for line in lines[1:]] == [r.student for r in graded]
    assert {r.student for r in book.students} - {r.student for r in graded} == {"Eve", "-s5005"}  # left out
    for line, r in zip(lines[1:], graded, strict=True):
        assert line[1] == exports.safe_cell(" / ".join(r.names))
        for cell, value in zip(line[2:], [*grade_items(r), r.assignments["ps1"]], strict=True):
            assert same_number(cell, value), (r.student, line)
        assert all(cell == "" or float(cell) >= 0 for cell in line[2:])  # numbers only, as Moodle reads them
    assert [line[1] for line in lines if line[0] == "s4004"] == ["'=1+1"]  # no formula runs in a spreadsheet


@pytest.mark.parametrize("id_kind", ["login", "sis"])
def test_the_canvas_shape_has_its_student_columns_and_a_points_possible_row(db, id_kind):
    book = a_book(db)
    lines = read_back(gradebook_csv(book, "canvas", id_kind=id_kind))
    assert lines[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *GRADE_ITEMS, "Assignment: ps1"]
    graded = book.importable()
    assert {r.student for r in book.students} - {r.student for r in graded} == {"Eve", "-s5005"}  # left out
    most = lines[1]
    assert most[:5] == ["Points Possible", "", "", "", ""]
    assert [float(c) for c in most[5:]] == [max(r.played for r in graded)] * 2 + [
        max(r.polls_run for r in graded)] + [max(r.exercises_given for r in graded)] * 2 + [10.0]
    assert len(lines) == 2 + len(graded)
    for line, r in zip(lines[2:], graded, strict=True):
        sis, login = line[2], line[3]
        assert (sis, login) == ((r.student, "") if id_kind == "sis" else ("", r.student))
        assert line[0] == exports.safe_cell(r.names[0]) and line[1] == "" and line[4] == ""
        for cell, value in zip(line[5:], [*grade_items(r), r.assignments["ps1"]], strict=True):
            assert same_number(cell, value), (r.student, line)


def test_an_unknown_shape_or_id_kind_is_refused(db):
    book = a_book(db)
    with pytest.raises(ValueError, match="plain, moodle, canvas"):
        gradebook_csv(book, "blackboard")
    with pytest.raises(ValueError, match="login, sis"):
        gradebook_csv(book, "canvas", id_kind="email")


# -- the command line --------------------------------------------------------------------------------------------------
def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_command_line_writes_the_gradebook_and_never_changes_the_database(db, nbgrader_db, tmp_path, capsys):
    rooms, *_ = a_class(db)
    expected = class_gradebook(rooms.rooms())
    rooms.store.close()
    before = digest(db)
    assert [r.student for r in class_gradebook(read_class(db)).students] == [r.student for r in expected.students]
    out = tmp_path / "grades.csv"
    path, scores = nbgrader_db
    assert main(["gradebook", "--db", str(db), "--nbgrader-db", str(path), "--assignment", "ps1",
                 "--format", "moodle", "-o", str(out)]) == 0
    lines = read_back(out.read_text(encoding="utf-8"))
    assert lines[0][-1] == "Assignment: ps1"
    importable = [sid for sid in [*IDS.values(), "s9009"] if not sid.startswith("-")]
    assert {line[0]: line[-1] for line in lines[1:]} == {
        sid: ("" if sid not in scores else f"{scores[sid]:g}") for sid in importable}
    assert "students (moodle); 2 left out" in capsys.readouterr().err  # Eve (no id) and Fay (-s5005)
    assert main(["gradebook", "--db", str(db)]) == 0  # plain, printed
    printed = read_back(capsys.readouterr().out)
    assert printed[0][:len(PLAIN_COLUMNS)] == list(PLAIN_COLUMNS) and len(printed) == 1 + len(expected.students)
    wal = db.with_name(db.name + "-wal")  # SQLite's read-only look may leave an empty log beside it: nothing in it
    assert digest(db) == before and (not wal.exists() or wal.stat().st_size == 0)
    # the errors: a file that is not a class, --assignment without nbgrader's gradebook
    assert main(["gradebook", "--db", str(tmp_path / "none.sqlite")]) == 2
    assert "does not exist" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["gradebook", "--db", str(db), "--assignment", "ps1"])
    assert "--nbgrader-db" in capsys.readouterr().err


def test_python_dash_m_gridwidgets_gradebook_runs(db, tmp_path):
    rooms, *_ = a_class(db)
    rooms.store.close()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [os.getcwd(), os.environ.get("PYTHONPATH")])))
    run = subprocess.run([sys.executable, "-m", "gridwidgets", "gradebook", "--db", str(db), "--format", "canvas"],
                         capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 0, run.stderr
    lines = read_back(run.stdout)
    assert lines[0][:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    assert lines[1][0] == "Points Possible" and len(lines) == 2 + len(IDS) - 1  # not Fay: her id begins with -


# -- answers files, as nbgrader collects them ------------------------------------------------------------------------
def test_answers_files_in_nbgrader_folders_are_judged_into_the_rows(db, tmp_path, capsys):
    """Real answers files (written by the exercise board) in ``submitted/{student}/...``:
    the pattern finds each student's, judges it (a forged "right" flag earns nothing)
    and the command line adds the counts to the rows."""
    ex = gw.exercises.generate("gridlock", kind="win-in", depth=1, n=3, seed=1, rows=4, cols=4)
    set_file = ex.save(tmp_path / "week3.json")
    course = tmp_path / "course" / "submitted"

    def answers_of(student: str) -> Path:
        folder = course / student / "week3"
        folder.mkdir(parents=True)
        return folder / "week3.answers.jsonl"

    w = ex.widget(answers=answers_of("s1001"), delay=0)
    w.answer(ex[0].answers[0])  # right at the first try
    w.show(1)
    w.answer(next(str(m) for m in ex[1].start().legal_moves() if str(m) not in ex[1].answers))  # wrong ...
    w.run()
    w.retry()
    w.answer(ex[1].answers[0])  # ... then right
    forged = answers_of("s2002")
    w2 = ex.widget(answers=forged, delay=0)
    w2.answer(next(str(m) for m in ex[0].start().legal_moves() if str(m) not in ex[0].answers))  # wrong
    text = forged.read_text().replace('"right": false', '"right": true').replace('"solved": false', '"solved": true')
    forged.write_text(text)
    answers_of("s3003").write_text("{ not json\n")
    pattern = str(course / "{student}" / "week3" / "week3.answers.jsonl")
    reports = answers_reports(ex, pattern)
    assert sorted(reports) == ["s1001", "s2002", "s3003"]
    assert (reports["s1001"].solved, reports["s1001"].first_try) == ((0, 1), (0,))
    assert reports["s2002"].solved == () and reports["s2002"].problem is None
    assert reports["s3003"].solved == () and "damaged" in reports["s3003"].problem
    with pytest.raises(ValueError, match="one \\{student\\}"):
        answers_reports(ex, str(course / "*" / "a.jsonl"))
    a_class(db)[0].store.close()
    rooms_only = {r.student: r for r in class_gradebook(read_class(db)).students}
    out = tmp_path / "book.csv"
    assert main(["gradebook", "--db", str(db), "--answers", str(set_file), pattern, "-o", str(out)]) == 0
    rows = {r["student"]: r for r in csv.DictReader(io.StringIO(out.read_text(encoding="utf-8")))}
    ann = rows["s1001"]
    before = rooms_only["s1001"]
    assert int(ann["exercises solved (count)"]) == before.exercises_solved + 2
    assert int(ann["exercises solved at the first try (count)"]) == before.exercises_first_try + 1
    assert int(ann["exercises given (count)"]) == before.exercises_given + 3
    assert int(rows["s2002"]["exercises solved (count)"]) == rooms_only["s2002"].exercises_solved
    assert "damaged" in rows["s3003"]["answers file problem"]
