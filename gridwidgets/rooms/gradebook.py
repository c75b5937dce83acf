"""One gradebook row per student, over every room of a class: the games
they played and the points they made (their own; the agent's in their seat
apart), the polls they answered, the exercises they solved (at the first try
and in all), and their points in nbgrader assignments, as one CSV file in
one of three shapes (:data:`SHAPES`): ``plain`` (every column, units in the
header), ``moodle`` (Moodle's *Import grades: CSV file*) and ``canvas``
(Canvas's *Import grades*). The rooms' own CSV files
(:mod:`gridwidgets.rooms.exports`) stay for detail.

A student is their student id: a hub user name or a class-list id, the same
in every room, so a student who sat in several rooms is one row
(:func:`class_gradebook`). A seat without an id is keyed by its display name
and marked so (``keyed by`` = ``"name"``); such rows are in the ``plain``
file only (:meth:`ClassGradebook.importable`), since an LMS would match them
to nobody, or to the wrong student.
Like the standings' CSV, this file is the teacher's: it carries the ids, and
no page shows it.

nbgrader's gradebook is read with :class:`nbgrader.api.Gradebook`
(:func:`nbgrader_scores`; ``pip install 'gridwidgets[nbgrader]'``), from a
copy, so nbgrader's database is never written. An answers file judged by
:func:`gridwidgets.exercises.judge_answers` adds its counts to the exercise
columns (``answers=`` of :func:`class_gradebook`). The command line reads a
class's database from a consistent copy as well (:func:`read_class`):
``python -m gridwidgets gradebook --db CLASS.sqlite``.
"""

from __future__ import annotations

import csv
import io
import os
import sqlite3
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import classwork
from .exports import safe_cell
from .model import AGENT, Room

__all__ = ["GRADE_ITEMS", "ID_KINDS", "PLAIN_COLUMNS", "SHAPES", "AssignmentScores", "ClassGradebook", "StudentRecord",
           "answers_reports", "class_gradebook", "gradebook_csv", "nbgrader_scores", "read_class"]

#: the CSV shapes of :func:`gradebook_csv`
SHAPES = ("plain", "moodle", "canvas")
#: what a student id is, for the LMS files: ``"login"`` (a hub user name, which is the institution's login:
#: Moodle's username, Canvas's SIS Login ID) or ``"sis"`` (a class-list id: Moodle's ID number, Canvas's SIS User ID)
ID_KINDS = ("login", "sis")
#: the grade items of the LMS files, in order (each an LMS grade item / assignment column); then one
#: ``"Assignment: NAME"`` column per nbgrader assignment
GRADE_ITEMS = ("Board games played", "Board games points", "Polls answered", "Exercises solved",
               "Exercises solved at the first try")
#: the first columns of the plain file, units in the header (then one column per assignment, then the problems)
PLAIN_COLUMNS = ("student", "keyed by", "name", "rooms", "games played (count)", "games points (1 a win, 0.5 a draw)",
                 "games played by the agent in the seat (count)",
                 "games points by the agent in the seat (1 a win, 0.5 a draw)", "polls answered (count)",
                 "polls run in the student's rooms (count)", "exercises given (count)", "exercises solved (count)",
                 "exercises solved at the first try (count)")


@dataclass(frozen=True)
class AssignmentScores:
    """One nbgrader assignment's points (:func:`nbgrader_scores`).

    Attributes:
        name: the assignment's name in nbgrader.
        max_score: its most points (the sum of its graded cells' points).
        scores: per nbgrader student id, the points of their submission (a
            student without a submission is not in it: no grade, not 0).
    """

    name: str
    max_score: float
    scores: Mapping[str, float]


@dataclass
class StudentRecord:
    """One student's row (:func:`class_gradebook`); every count is over every
    room of the class.

    Attributes:
        student: the student id, or the display name of a seat without one.
        keyed_by: ``"id"``, or ``"name"`` for a seat without an id.
        names: the display names the student used, in order.
        rooms: the codes of the rooms they sat in.
        played: finished games the student finished in their own seat.
        points: their points in them (1 a win, 1/2 a draw or shared win, 0 a loss).
        agent_played: finished games the agent finished in the student's seat
            (the teacher handed it over): the agent's, not the student's.
        agent_points: the agent's points in those.
        polls_answered: polls the student answered.
        polls_run: polls asked in the student's rooms.
        exercises_given: exercises of the sets given to their rooms, plus
            those of their judged answers files.
        exercises_solved: exercises solved (at any try).
        exercises_first_try: exercises solved at the first try.
        assignments: per nbgrader assignment name, the points (``None``: no submission).
        problems: what went wrong with an answers file (its report's ``problem``).
    """

    student: str
    keyed_by: str
    names: list[str] = field(default_factory=list)
    rooms: list[str] = field(default_factory=list)
    played: int = 0
    points: float = 0.0
    agent_played: int = 0
    agent_points: float = 0.0
    polls_answered: int = 0
    polls_run: int = 0
    exercises_given: int = 0
    exercises_solved: int = 0
    exercises_first_try: int = 0
    assignments: dict[str, float | None] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


@dataclass
class ClassGradebook:
    """Every student of a class, one :class:`StudentRecord` each, students with
    an id first (by id), then the seats keyed by name; and the nbgrader
    assignments read (their maxima head the LMS files)."""

    students: list[StudentRecord]
    assignments: list[AssignmentScores] = field(default_factory=list)

    def record(self, student: str) -> StudentRecord:
        """The row of ``student`` (an id, or the name of a seat without one).

        Raises:
            KeyError: no such student.
        """
        for r in self.students:
            if r.student == student:
                return r
        raise KeyError(f"no student {student!r} in this gradebook")

    def importable(self) -> list[StudentRecord]:
        """The rows of the Moodle and Canvas files: the students keyed by an id
        that reaches the LMS unchanged. A seat keyed by its name is left out
        (the LMS would match it to nobody, or to the wrong student), and so is
        an id that begins like a spreadsheet formula (``=``, ``+``, ``-``,
        ``@``: its cell gets a leading ``'``, which no LMS account has, and
        Moodle aborts a whole import on a user it cannot find)."""
        return [r for r in self.students if r.keyed_by == "id" and safe_cell(r.student) == r.student]


def _key(room: Room, token: str) -> tuple[str, str]:
    sid = room.student_id_of(token)
    return ("id", sid) if sid else ("name", room.name_of(token))


def class_gradebook(rooms: Iterable[Room], *, assignments: Sequence[AssignmentScores] = (),
                    answers: Mapping[str, Any] | None = None) -> ClassGradebook:
    """One row per student over ``rooms`` (every room of the class), with the
    nbgrader ``assignments`` (:func:`nbgrader_scores`) and judged answers files.

    Every seat counts, a removed one too (its games stay played). Games are
    the finished ones; a game the agent finished in a student's seat (the
    teacher handed the seat over, :meth:`~gridwidgets.rooms.Room.hand_to_agent`)
    counts in the agent's columns, as in
    :func:`~gridwidgets.rooms.results.standings`. An exercise counts once per
    set (solved if any of the student's seats solved it; at the first try
    as :func:`~gridwidgets.rooms.classwork.exercise_progress` says).

    Args:
        rooms: the rooms (a student in several is one row).
        assignments: nbgrader assignments; a student in them and in no room
            gets a row too (their nbgrader id is their student id).
        answers: per student id, the report of their answers file, or a list
            of reports (one per exercise set): :func:`answers_reports`, or
            :func:`gridwidgets.exercises.judge_answers` (``exercises`` a
            count, ``solved`` and ``first_try`` tuples of indices, ``problem``
            text or ``None``); added to the exercise columns; a student in no
            room gets a row too.

    Returns:
        the :class:`ClassGradebook`.
    """
    rows: dict[tuple[str, str], StudentRecord] = {}

    def row(key: tuple[str, str]) -> StudentRecord:
        if key not in rows:
            rows[key] = StudentRecord(key[1], key[0])
        return rows[key]

    for room in rooms:
        with room.lock:  # one consistent look at the room; the games' locks are taken after (model's lock order)
            seats = {**room.former, **room.seats}
            tokens = [t for t in dict.fromkeys([*room.arrivals, *seats]) if t in seats]
            polls = [set(p.answers) for p in room.polls]
            sets = [(len(a.exercises), classwork.exercise_progress(a)) for a in room.assignments]
            games = list(room.games)
        keys = {t: _key(room, t) for t in tokens}
        for t in tokens:
            r = row(keys[t])
            if seats[t].name not in r.names:
                r.names.append(seats[t].name)
            if room.code not in r.rooms:
                r.rooms.append(room.code)
                r.polls_run += len(polls)
                r.exercises_given += sum(n for n, _ in sets)
        for key in dict.fromkeys(keys.values()):
            mine = [t for t in tokens if keys[t] == key]
            r = rows[key]
            r.polls_answered += sum(1 for answered in polls if answered.intersection(mine))
            for n, progress in sets:
                status = [{progress.get(t, {}).get(i, {}).get("status", "") for t in mine} for i in range(n)]
                r.exercises_solved += sum(1 for s in status if s & {"first", "later"})
                r.exercises_first_try += sum(1 for s in status if "first" in s)
        for rg in games:
            points = rg.points()
            if points is None:
                continue
            for p, token in enumerate(rg.players):
                if token == AGENT or token not in keys:
                    continue
                r = rows[keys[token]]
                if p in rg.handed:
                    r.agent_played += 1
                    r.agent_points += points[p]
                else:
                    r.played += 1
                    r.points += points[p]
    for a in assignments:
        for sid in a.scores:
            row(("id", sid))
        for r in rows.values():
            r.assignments[a.name] = a.scores.get(r.student) if r.keyed_by == "id" else None
    for sid, reports in (answers or {}).items():
        r = row(("id", sid))
        for report in reports if isinstance(reports, (list, tuple)) else (reports,):
            r.exercises_given += int(report.exercises)
            r.exercises_solved += len(report.solved)
            r.exercises_first_try += len(report.first_try)
            if report.problem:
                r.problems.append(str(report.problem))
        for a in assignments:
            r.assignments.setdefault(a.name, None)
    ordered = sorted(rows.values(), key=lambda r: (r.keyed_by != "id", r.student.casefold(), r.student))
    return ClassGradebook(ordered, list(assignments))


#: the most answers files :func:`answers_reports` reads (one per student)
MAX_ANSWERS_FILES = 5_000


def answers_reports(exercises: Any, pattern: str | os.PathLike[str]) -> dict[str, Any]:
    """Judge every student's answers file of one exercise set, for
    ``answers=`` of :func:`class_gradebook`.

    ``pattern`` is the files' path with ``{student}`` where the student id
    is, e.g. ``"course/submitted/{student}/week3/week3.answers.jsonl"`` (the
    folders nbgrader's ``collect`` fills; the id is nbgrader's student id,
    which is the hub user name on a hub). Each file is re-judged by
    :func:`gridwidgets.exercises.judge_answers` against ``exercises`` (the
    assignment's own set, e.g. ``ExerciseSet.load("course/source/week3/week3.json")``),
    never trusting the file's flags; a damaged file gives its student a
    report with nothing solved and its ``problem``.

    Returns:
        ``{student id: AnswersReport}``, sorted by id.

    Raises:
        ValueError: a pattern without exactly one ``{student}`` in a folder
            or file name, or more than ``MAX_ANSWERS_FILES`` (5,000) files.
    """
    import glob
    import re

    from ..exercises import ExerciseSet, judge_answers

    text = os.fspath(pattern)
    if text.count("{student}") != 1:
        raise ValueError(f"the answers files' pattern needs one {{student}} where the student id is, "
                         f"got {text[:60]!r}")
    head, tail = text.split("{student}")
    if any(ch in head + tail for ch in "*?[]"):
        raise ValueError(f"the answers files' pattern takes no wildcards but {{student}}: {text[:60]!r}")
    if not isinstance(exercises, ExerciseSet):
        exercises = ExerciseSet(list(exercises))
    found = re.compile(re.escape(head) + r"([^/\\]+)" + re.escape(tail) + r"\Z")
    reports: dict[str, Any] = {}
    for path in sorted(glob.iglob(glob.escape(head) + "*" + glob.escape(tail))):
        m = found.match(path)
        if m is None or m.group(1).startswith("."):
            continue
        if len(reports) >= MAX_ANSWERS_FILES:
            raise ValueError(f"more than {MAX_ANSWERS_FILES} answers files match {text[:60]!r}")
        reports[m.group(1)] = judge_answers(path, exercises)
    return reports


# -- nbgrader ------------------------------------------------------------------------------------------------
def nbgrader_scores(db: str | os.PathLike[str], names: Sequence[str] | None = None, *,
                    course_id: str = "default_course") -> list[AssignmentScores]:
    """The points of nbgrader assignments, read from nbgrader's gradebook
    (:class:`nbgrader.api.Gradebook`).

    A file path is read from a consistent copy (SQLite's online backup), so
    nbgrader's database is never written (opening a gradebook can create
    tables or a course row); a database URL (``postgresql://...``) is opened
    as given.

    Args:
        db: the gradebook: a file (``gradebook.db`` of the course folder) or
            a SQLAlchemy URL.
        names: the assignments, in the order of the columns (``None``: every
            assignment of the gradebook, by due date then name).
        course_id: nbgrader's course id (``CourseDirectory.course_id``).

    Returns:
        one :class:`AssignmentScores` per assignment.

    Raises:
        ImportError: nbgrader is not installed (``pip install 'gridwidgets[nbgrader]'``).
        FileNotFoundError: no such file.
        ValueError: a file that is not SQLite, or an assignment that the
            gradebook does not have (naming those it has).
    """
    try:
        from nbgrader.api import Gradebook
    except ImportError as exc:
        raise ImportError("reading nbgrader's gradebook needs nbgrader: pip install 'gridwidgets[nbgrader]'"
                          ) from exc
    text = os.fspath(db)
    with tempfile.TemporaryDirectory(prefix="gridwidgets-nbgrader-") as tmp:
        if "://" in text:
            url = text
        else:
            path = Path(text)
            if not path.is_file():
                raise FileNotFoundError(f"{path}: no nbgrader gradebook there (nbgrader's gradebook.db is in the "
                                        "course folder)")
            copy = Path(tmp) / "gradebook.db"
            try:
                source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
                try:
                    out = sqlite3.connect(copy)
                    try:
                        source.backup(out)
                    finally:
                        out.close()
                finally:
                    source.close()
            except sqlite3.DatabaseError as exc:
                raise ValueError(f"{path} is not nbgrader's gradebook ({str(exc)[:60]})") from None
            url = f"sqlite:///{copy}"
        gb = Gradebook(url, course_id=course_id)
        try:
            every = sorted(gb.assignments, key=lambda a: (a.duedate is None, a.duedate or 0, a.name))
            have = [a.name for a in every]
            wanted = list(have if names is None else names)
            missing = [n for n in wanted if n not in have]
            if missing:
                raise ValueError(f"no assignment {', '.join(map(repr, missing))} in nbgrader's gradebook {text}: "
                                 f"it has {', '.join(map(repr, have)) or 'none'}")
            out_scores = []
            for name in wanted:
                a = gb.find_assignment(name)
                scores = {s.student_id: float(s.score) for s in gb.assignment_submissions(name)}
                out_scores.append(AssignmentScores(name, float(a.max_score), scores))
        finally:
            gb.close()
            gb.engine.dispose()  # no connection left open on the copy
    return out_scores


# -- the class's database ------------------------------------------------------------------------------------
def read_class(db: str | os.PathLike[str]) -> list[Room]:
    """Every room of the class in the rooms' database file ``db``, read from
    one consistent copy (:func:`~gridwidgets.rooms.store.backup`: SQLite's
    online backup, read-only), so ``db`` is never changed, even while its
    server runs.

    Raises:
        StoreError: ``db`` is not a class's database (naming the file and what to do).
    """
    from .model import Rooms
    from .store import Store, backup

    with tempfile.TemporaryDirectory(prefix="gridwidgets-class-") as tmp:
        copy = backup(db, Path(tmp) / "class.sqlite")
        store = Store(copy)
        try:
            return Rooms(store).rooms()
        finally:
            store.close()


# -- CSV -------------------------------------------------------------------------------------------------
def _num(x: float | int | None) -> Any:
    """A number as a CSV cell: an integer without ``.0``, else at most 4 decimals; ``None`` as an empty cell."""
    if x is None:
        return ""
    x = round(float(x), 4)
    return int(x) if x.is_integer() else x


def _items(r: StudentRecord) -> list[Any]:
    return [r.played, r.points, r.polls_answered, r.exercises_solved, r.exercises_first_try]


def _points_possible(book: ClassGradebook) -> list[Any]:
    """The most each grade item could give a student of this class: the most
    games a student played (a point each, all won), the most polls run in a
    student's rooms, the most exercises given to a student."""
    ids = book.importable()
    games = max((r.played for r in ids), default=0)
    return [games, games, max((r.polls_run for r in ids), default=0),
            *[max((r.exercises_given for r in ids), default=0)] * 2]


def gradebook_csv(book: ClassGradebook, shape: str = "plain", *, id_kind: str = "login") -> str:
    """``book`` as CSV text in one of :data:`SHAPES`; every cell goes through
    :func:`~gridwidgets.rooms.exports.safe_cell` (a spreadsheet runs no
    formula from it); numbers are plain (``1.5``, never ``1,5``); a missing
    grade is an empty cell.

    ``"plain"``: every column, one row per student (those keyed by name
    too): ``student``, ``keyed by`` (``id`` or ``name``), ``name`` (the
    display names, `` / `` between them), ``rooms`` (codes), the counts and
    points of :data:`PLAIN_COLUMNS` (units in each header), then
    ``Assignment: NAME (points of MAX)`` per nbgrader assignment, then
    ``answers file problem``.

    ``"moodle"``, for Moodle's *Grade administration > Import > CSV file*:
    the identifying column (``Username`` for ``id_kind="login"``, ``ID
    number`` for ``"sis"``: on the import page, *Map from* this column *to*
    ``username`` or ``useridnumber``), ``Full name`` (for reading; map it to
    *Ignore*), then one column per grade item: :data:`GRADE_ITEMS` and
    ``Assignment: NAME``; each is mapped to an existing grade item or to
    *New grade item* (named after the heading). Moodle aborts the whole
    import on a row whose user it cannot find, and reads only numbers (an
    empty cell is no grade); only :meth:`ClassGradebook.importable` rows
    are written. Source:
    Moodle's ``grade/import/csv/classes/load_data.php``
    (``map_user_data_with_value``, ``prepare_import_grade_data``,
    ``update_grade_item``) and docs.moodle.org's *Grade import* page.

    ``"canvas"``, for Canvas's *Grades > Import*: ``Student`` (the display
    name), ``ID`` (Canvas's own user id: empty, we do not know it), ``SIS
    User ID`` and ``SIS Login ID`` (the student id in the one ``id_kind``
    says, the other empty), ``Section`` (empty), then one column per grade
    item (:data:`GRADE_ITEMS`, ``Assignment: NAME``): a heading that names
    no assignment of the course creates one. The second row is ``Points
    Possible``, each column's most points in this class (the most games a
    student played, each won; the most polls run in a student's rooms; the
    most exercises given to a student; nbgrader's maximum for an assignment). Canvas refuses a file whose
    header does not begin ``Student``, ``ID`` and end its student columns
    with ``Section``; it finds a student by ID, then SIS User ID, then SIS
    Login ID, then by name; an empty cell or ``-`` is no score. Only
    :meth:`ClassGradebook.importable` rows are written. Source: canvas-lms
    ``app/models/gradebook_importer.rb`` (``row_has_student_headers?``,
    ``update_column_count``, ``process_student``, ``process_pp``,
    ``parse_assignments``).

    Raises:
        ValueError: an unknown shape or id kind.
    """
    if shape not in SHAPES:
        raise ValueError(f"a gradebook's shape is one of {', '.join(SHAPES)}, not {str(shape)[:20]!r}")
    if id_kind not in ID_KINDS:
        raise ValueError(f"a student id is one of {', '.join(ID_KINDS)}, not {str(id_kind)[:20]!r}")
    lines: list[list[Any]] = []
    if shape == "plain":
        lines.append([*PLAIN_COLUMNS, *(f"Assignment: {a.name} (points of {_num(a.max_score)})"
                                        for a in book.assignments), "answers file problem"])
        for r in book.students:
            lines.append([r.student, r.keyed_by, " / ".join(r.names), " ".join(r.rooms), r.played, _num(r.points),
                          r.agent_played, _num(r.agent_points), r.polls_answered, r.polls_run, r.exercises_given,
                          r.exercises_solved, r.exercises_first_try,
                          *(_num(r.assignments.get(a.name)) for a in book.assignments), "; ".join(r.problems)])
    else:
        assignments = [f"Assignment: {a.name}" for a in book.assignments]
        graded = book.importable()
        if shape == "moodle":
            lines.append(["Username" if id_kind == "login" else "ID number", "Full name", *GRADE_ITEMS, *assignments])
            for r in graded:
                lines.append([r.student, " / ".join(r.names), *map(_num, _items(r)),
                              *(_num(r.assignments.get(a.name)) for a in book.assignments)])
        else:
            lines.append(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *GRADE_ITEMS, *assignments])
            lines.append(["Points Possible", "", "", "", "", *_points_possible(book),
                          *(_num(a.max_score) for a in book.assignments)])
            for r in graded:
                sis, login = (r.student, "") if id_kind == "sis" else ("", r.student)
                lines.append([r.names[0] if r.names else r.student, "", sis, login, "", *map(_num, _items(r)),
                              *(_num(r.assignments.get(a.name)) for a in book.assignments)])
    out = io.StringIO()
    writer = csv.writer(out)
    for line in lines:
        writer.writerow([safe_cell(cell) for cell in line])
    return out.getvalue()
