"""The class list (issue 42, a roster): LMS exports read (Moodle, Canvas, a
plain list), bounded and whole-or-nothing; kept in the store (schema 7, from
a schema-6 file too); joining by picking a name, the seat's id from the list;
the id in the standings' CSV; the command's ``--roster``."""

from __future__ import annotations

import csv
import io
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gridwidgets.rooms import Rooms, Store, exports
from gridwidgets.rooms.roster import MAX_ROSTER, MAX_ROSTER_BYTES, RosterEntry, check_roster, read_roster
from gridwidgets.rooms.store import SCHEMA_VERSION

REPO = Path(__file__).resolve().parent.parent

#: Moodle's bulk user download (admin/user/user_bulk_download.php: id, username, email, firstname, lastname,
#: idnumber, ...), as an English site writes it
MOODLE_USERS = """id,username,email,firstname,lastname,idnumber,institution,department,phone1,phone2,city,url,country
17,alee,ann.lee@uni.example,Ann,Lee,2024-0017,Uni,Maths,,,Ghent,,BE
18,bray,bob.ray@uni.example,Bob,Ray,2024-0018,Uni,Maths,,,Ghent,,BE
19,cdurand,cy@uni.example,Cyrille,Durand,2024-0019,Uni,Maths,,,Ghent,,BE
"""
#: a course's participants download, in a language whose list separator is ";", saved with a byte-order mark
MOODLE_PARTICIPANTS = ("\ufeffFirst name;Surname;ID number;Email address;Roles;Groups\n"
                       "Zoë;Müller;m-001;zoe@uni.example;Student;A\n"
                       "Łukasz;Nowak;m-002;lukasz@uni.example;Student;B\n")
#: Canvas's gradebook export: the points row second, an assignment column, the teacher's Test Student
CANVAS = """Student,ID,SIS User ID,SIS Login ID,Section,Quiz 1 (8756),Current Score
    Points Possible,,,,,10.00,(read only)
"Lee, Ann",1201,S1001,alee@uni.example,Game theory 101,8.00,80.00
"Ray, Bob",1202,S1002,bray@uni.example,Game theory 101,6.00,60.00
"Student, Test",1299,,,Game theory 101,,
"""


# -- the shapes read ---------------------------------------------------------------------------------------------
def test_moodles_user_export_names_first_and_last_and_takes_the_idnumber_not_moodles_own_id():
    read = read_roster(MOODLE_USERS)
    assert read.kind == "moodle" and read.id_column == "idnumber"
    assert read.entries == (RosterEntry("Ann Lee", "2024-0017"), RosterEntry("Bob Ray", "2024-0018"),
                            RosterEntry("Cyrille Durand", "2024-0019"))
    assert "3 students from a Moodle export; ids from idnumber" == read.summary()


def test_moodle_falls_back_to_the_username_when_a_row_has_no_idnumber():
    read = read_roster(MOODLE_USERS.replace("2024-0018", ""))
    assert read.id_column == "username" and [e.student_id for e in read.entries] == ["alee", "bray", "cdurand"]


def test_moodles_participants_download_with_semicolons_and_a_bom():
    read = read_roster(MOODLE_PARTICIPANTS.encode("utf-8"))
    assert read.kind == "moodle" and read.id_column == "ID number"
    assert read.entries == (RosterEntry("Zoë Müller", "m-001"), RosterEntry("Łukasz Nowak", "m-002"))


def test_canvas_gradebook_skips_the_points_row_and_the_test_student_and_prefers_the_sis_user_id():
    read = read_roster(CANVAS)
    assert read.kind == "canvas" and read.id_column == "SIS User ID"
    assert read.entries == (RosterEntry("Ann Lee", "S1001"), RosterEntry("Bob Ray", "S1002"))


def test_canvas_falls_back_to_the_sis_login_id_then_canvas_own_id():
    no_sis = CANVAS.replace("S1001", "")
    assert read_roster(no_sis).id_column == "SIS Login ID"
    assert read_roster(no_sis).entries[0] == RosterEntry("Ann Lee", "alee@uni.example")
    bare = "Student,ID,Section\n\"Lee, Ann\",1201,A\n\"Ray, Bob\",1202,A\n"
    assert read_roster(bare).id_column == "ID" and read_roster(bare).entries[1] == RosterEntry("Bob Ray", "1202")


@pytest.mark.parametrize("text", ["name,id\nAnn Lee,s1\nBob Ray,s2\n", "Ann Lee,s1\nBob Ray,s2\n",
                                  "Student name;Student ID\r\nAnn Lee;s1\r\n\r\nBob Ray;s2",
                                  "display name\tstudent number\nAnn Lee\ts1\nBob Ray\ts2\n"])
def test_a_plain_list_with_or_without_a_header_any_separator(text):
    read = read_roster(text)
    assert read.kind == "plain"
    assert read.entries == (RosterEntry("Ann Lee", "s1"), RosterEntry("Bob Ray", "s2"))


def test_a_file_path_is_read(tmp_path):
    path = tmp_path / "class.csv"
    path.write_text(CANVAS, encoding="utf-8")
    assert read_roster(path).entries == read_roster(str(path)).entries == read_roster(CANVAS).entries
    odd = tmp_path / "class list, 2026"  # a path with a comma and no .csv: still a file that exists
    odd.write_text("name,id\nAnn,s1\n", encoding="utf-8")
    assert read_roster(str(odd)).entries == (RosterEntry("Ann", "s1"),)
    with pytest.raises(ValueError, match="cannot be read"):
        read_roster(tmp_path / "missing.csv")


# -- refused, whole ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "said"), [
    ("", "empty"),
    ("name,id\n", "no student"),
    ("name,id\nAnn,s1\nBob,s1\n", "rows 2 and 3 of the class list have the same id 's1'"),
    ("name,id\nAnn,s1\nann,s2\n", "rows 2 and 3 of the class list have names that look the same"),
    ("name,id\nAnn,s1\n\u0410nn,s2\n", "look the same"),  # a Cyrillic А
    ("name,id\nAnn,s1\nBob,\n", "row 3 of the class list ('Bob') has no id"),
    ("name,id\nAnn,s1\n,s2\n", "row 3 of the class list has no name"),
    ("name,id\nAnn,s1\nB\u202eob,s2\n", "row 3 of the class list: a display name must not hold invisible"),
    ("name,id\nAnn,s 1\n", "row 2 of the class list: a student id is letters"),
    ("name,id\nAnn," + "x" * 40 + "\n", "at most 32"),
    ("just one column\nAnn\n", "one column"),
    ("id,username,firstname,lastname\n1,,Ann,Lee\n", "has no id in column 'username'"),
])
def test_a_bad_file_says_which_row_and_what(text, said):
    with pytest.raises(ValueError) as info:
        read_roster(text)
    assert said in str(info.value)


def test_a_long_bad_cell_is_quoted_short():
    with pytest.raises(ValueError) as info:
        read_roster("name,id\n" + "Ann " * 40 + ",s1\n")
    assert len(str(info.value)) < 200 and "Ann Ann" in str(info.value)
    with pytest.raises(ValueError) as info:
        read_roster(f"name,id\nAnn,s1\nBob{'y' * 200},\n")
    assert "row 3" in str(info.value) and "y" * 30 not in str(info.value)


def test_the_bounds_bytes_rows_columns_and_encoding():
    with pytest.raises(ValueError, match="at most 1,000,000 bytes"):
        read_roster("name,id\n" + "Ann,s1\n" * (MAX_ROSTER_BYTES // 7 + 1))
    too_many = "name,id\n" + "".join(f"S{k},s{k}\n" for k in range(MAX_ROSTER + 1))
    with pytest.raises(ValueError, match="at most 2,000 students"):
        read_roster(too_many)
    assert len(read_roster("name,id\n" + "".join(f"S{k},s{k}\n" for k in range(MAX_ROSTER))).entries) == MAX_ROSTER
    with pytest.raises(ValueError, match="columns"):
        read_roster("a" + ",a" * 1500 + "\n")
    with pytest.raises(ValueError, match="not UTF-8"):
        read_roster("name,id\nZoë,s1\n".encode("latin-1"))
    with pytest.raises(ValueError, match="not text"):
        read_roster(b"name,id\nAnn\x00,s1\n")
    assert read_roster("name,id\nZoë,s1\n".encode("utf-16")).entries == (RosterEntry("Zoë", "s1"),)


def test_check_roster_takes_pairs_and_refuses_what_is_not_one():
    assert check_roster([("Ann", "s1"), RosterEntry("Bob", "s2")]) == (RosterEntry("Ann", "s1"),
                                                                        RosterEntry("Bob", "s2"))
    for bad in (["Ann"], [("Ann", "s1", "x")], [("Ann", 5)], [("Ann", "")]):
        with pytest.raises(ValueError, match=r"entry 1|row 1"):
            check_roster(bad)


_CELL = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
_WEIRD = st.one_of(
    st.text(max_size=3000),
    st.binary(max_size=3000),
    st.lists(st.lists(_CELL, min_size=1, max_size=8), max_size=60).map(
        lambda rows: "\n".join(",".join(r) for r in rows)),
    st.lists(st.tuples(_CELL, _CELL), max_size=60).map(
        lambda rows: "name;id\n" + "\n".join(f'"{a}";{b}' for a, b in rows)),
    st.lists(st.sampled_from(['"', ",", ";", "\t", "\n", "\r", "a", "\ufeff", " ", "'", "\\", "Points Possible",
                              "Student", "firstname", "lastname", "ID", "SIS User ID"]), max_size=400).map("".join),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_WEIRD)
def test_weird_input_gives_a_class_list_or_a_clear_error(data):
    try:
        read = read_roster(data)
    except ValueError as exc:
        message = str(exc)
        assert "class list" in message or "display name" in message or "student id" in message, message
        assert len(message) < 300, message
        assert "Traceback" not in message
        return
    assert 1 <= len(read.entries) <= MAX_ROSTER
    assert len({e.student_id for e in read.entries}) == len(read.entries)
    assert all(e.name and e.student_id for e in read.entries)
    assert read.kind in ("moodle", "canvas", "plain")


def test_a_megabyte_of_quotes_and_separators_is_refused_or_read_whole_in_one_pass():
    for junk in ('"' * (MAX_ROSTER_BYTES - 10), ('a,"' * 300_000)[:MAX_ROSTER_BYTES],
                 (";" * 999 + "\n") * 900, "\n" * MAX_ROSTER_BYTES):
        with pytest.raises(ValueError):
            read_roster(junk)


# -- the class's list: kept, whole or nothing ---------------------------------------------------------------------
def test_the_class_list_is_kept_in_the_store_with_its_source_and_a_bad_file_changes_nothing(tmp_path):
    db = tmp_path / "class.sqlite"
    rooms = Rooms(Store(db))
    assert rooms.roster == () and rooms.roster_source == ""
    read = rooms.import_roster(CANVAS)
    assert read.id_column == "SIS User ID" and rooms.roster_source == "csv"
    with pytest.raises(ValueError, match="rows 2 and 3"):
        rooms.import_roster("name,id\nAnn,x1\nCy,x1\n")
    assert rooms.roster == read.entries  # the old list, whole
    rooms.set_typed_joins(True)
    rooms.store.close()
    again = Rooms(Store(db))
    assert again.roster == read.entries and again.roster_source == "csv" and again.class_list.typed_joins
    again.set_roster([("Hub User", "hubuser")], source="hub")
    assert again.roster_source == "hub"
    with pytest.raises(ValueError, match="csv, hub"):
        again.set_roster([("Ann", "s1")], source="moodle")
    again.set_roster(())
    assert again.roster == () and again.roster_source == ""
    again.store.close()
    assert Rooms(Store(db)).roster == ()


def test_a_class_of_schema_6_is_read_and_gets_a_class_list(tmp_path):
    db = tmp_path / "v6.sqlite"
    rooms = Rooms(Store(db))
    room = rooms.create("gridlock")
    ann = room.join("Ann", student_id="s-1")
    rooms.store.close()
    with sqlite3.connect(db) as old:  # as schema 6 wrote it: no roster table
        old.execute("DROP TABLE roster")
        old.execute("PRAGMA user_version=6")
    again = Rooms(Store(db))
    with sqlite3.connect(db) as new:
        assert new.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 7
    assert again.roster == () and again.room(room.code).seats[ann.token].student_id == "s-1"
    again.import_roster("name,id\nBob,s-2\n")
    bob = again.room(room.code).join("Bob")
    again.store.close()
    assert Rooms(Store(db)).room(room.code).seats[bob.token].student_id == "s-2"


# -- joining with a class list ----------------------------------------------------------------------------------
def test_joining_picks_a_name_the_seat_takes_its_id_and_the_standings_csv_carries_it(tmp_path):
    rooms = Rooms(Store(tmp_path / "class.sqlite"))
    room = rooms.create("gridlock")
    rooms.import_roster(CANVAS)
    ann = room.join("Ann Lee")
    assert ann.student_id == "S1001"
    assert room.roster_seated() == ([RosterEntry("Ann Lee", "S1001")], [RosterEntry("Bob Ray", "S1002")])
    with pytest.raises(ValueError, match=r"already has a seat in this room.*seat code"):
        room.join("Ann Lee")
    with pytest.raises(ValueError, match="not on the class list"):
        room.join("Mallory")
    with pytest.raises(ValueError, match="not on the class list"):
        room.join("Bob Ray", student_id="S9999")  # an id is never the student's to give
    bob = room.join("Bob Ray")
    grades = {r["name"]: r["student id"] for r in csv.DictReader(io.StringIO(exports.standings_csv(room)))}
    assert grades == {"Ann Lee": "S1001", "Bob Ray": "S1002"}
    room.rename_seat(room.teacher_token, bob.token, "Robert Ray")  # a renamed seat keeps its place on the list
    assert room.roster_seated()[1] == []
    with pytest.raises(ValueError, match="already has a seat"):
        room.join("Bob Ray")


def test_a_server_that_knows_who_logged_in_joins_them_by_id_under_the_lists_name(tmp_path):
    rooms = Rooms(Store(tmp_path / "class.sqlite"))
    room = rooms.create("gridlock")
    rooms.set_roster([("Ann Lee", "alee"), ("Bob Ray", "bray")], source="hub")
    seat = room.join("alee", student_id="alee")
    assert (seat.name, seat.student_id) == ("Ann Lee", "alee")


def test_typed_names_are_off_with_a_class_list_unless_the_teacher_allows_them(tmp_path):
    rooms = Rooms(Store(tmp_path / "class.sqlite"))
    room = rooms.create("gridlock")
    rooms.import_roster("name,id\nAnn Lee,s1\n")
    with pytest.raises(ValueError, match="not on the class list"):
        room.join("Guest")
    with pytest.raises(ValueError):
        rooms.set_typed_joins("yes")
    rooms.set_typed_joins(True)
    guest = room.join("Guest")
    assert guest.student_id == ""
    with pytest.raises(ValueError, match="'Ann Lee' is on the class list"):
        room.join("ann lee")  # nobody poses as a student of the list
    rooms.set_roster(())
    assert room.join("Cy", student_id="c-3").student_id == "c-3"  # no list: as before


def test_without_a_class_list_nothing_changes(tmp_path):
    rooms = Rooms(Store(tmp_path / "class.sqlite"))
    room = rooms.create("gridlock")
    assert room.join("Ann", student_id="s1").student_id == "s1"
    assert room.roster_seated() == ([], [])


def test_changing_the_class_list_wakes_every_page(tmp_path):
    rooms = Rooms(Store(tmp_path / "class.sqlite"))
    room = rooms.create("gridlock")
    before, class_before = room.version, rooms.changes.count
    rooms.import_roster("Ann,s1\n")
    assert room.version > before and rooms.changes.count > class_before


# -- the command ------------------------------------------------------------------------------------------------
def test_the_command_loads_a_class_list_or_says_in_one_line_what_is_wrong(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("name,id\nAnn,s1\nBob,s1\n", encoding="utf-8")
    db = tmp_path / "class.sqlite"
    run = subprocess.run([sys.executable, "-m", "gridwidgets", "classroom", "--rooms", "--db", str(db), "--roster",
                          str(bad), "--port", "1", "--no-browser"], capture_output=True, text=True, timeout=120,
                         cwd=REPO)
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert run.returncode == 2 and len(lines) == 1, run.stderr[-400:]
    assert "bad.csv" in lines[0] and "rows 2 and 3" in lines[0] and "Traceback" not in run.stderr
    good = tmp_path / "canvas.csv"
    good.write_text(CANVAS, encoding="utf-8")
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "gridwidgets", "classroom", "--rooms", "--db", str(db),
                             "--roster", str(good), "--port", str(port), "--no-browser"], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        said = []
        for line in proc.stdout:
            said.append(line)
            if "the teacher:" in line:
                break
        text = "".join(said)
        assert "Class list loaded from" in text and "2 students from a Canvas gradebook export; ids from SIS User ID" \
            in text, text
        assert "S1001" not in text
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
        proc.stdout.close()
    assert [e.student_id for e in Rooms(Store(db)).roster] == ["S1001", "S1002"]
