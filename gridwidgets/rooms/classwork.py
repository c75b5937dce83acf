"""Exercise sets given to a room, and what a class did in them: an
assignment's life (:func:`assign`, :func:`record_answer`, :func:`end`, the
store's rows put back by :func:`restore`), the live table of an exercise
set (students x exercises, the hardest exercises first) and the heat map of
an exercise's wrong answers. The CSV of every answer is
:func:`gridwidgets.rooms.exports.exercise_csv`.

The tables read a room's :attr:`~gridwidgets.rooms.Room.assignments` (what
the store holds, restored after a restart); nothing but the life-cycle
functions changes them, under the room's lock.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.errors import shorten
from ..core.game import Game
from .polls import heat_overlay

if TYPE_CHECKING:
    from .model import Room

__all__ = ["MARKS", "Assignment", "WrongAnswers", "assign", "current_assignment", "end", "exercise_order",
           "exercise_progress", "exercise_table", "record_answer", "restore", "wrong_answers"]


@dataclass
class Assignment:
    """An exercise set given to a room: each student works through it on their
    own page, at their own pace (:meth:`~gridwidgets.rooms.Room.assign_exercises`).

    Attributes:
        id: its id in the store.
        exercises: the :class:`~gridwidgets.exercises.ExerciseSet`.
        assigned: when it was given (Unix time, seconds).
        answers: every answer given, in order: dicts of ``token``,
            ``exercise`` (index), ``move``, ``step`` (1 = the exercise's
            answer, then the line's next own moves), ``right``, ``first_try``
            (the student's first attempt at that exercise), ``seconds`` (since
            the exercise was shown), ``solved`` (the line is finished), ``at``.
        ended: whether the teacher took it off the screens.
    """

    id: int
    exercises: Any
    assigned: float
    answers: list[dict[str, Any]] = field(default_factory=list)
    ended: bool = False


# -- an assignment's life (Room.assign_exercises, ... call these once the teacher or the seat is checked) ---------
def current_assignment(room: Room) -> Assignment | None:
    """The exercise set on ``room``'s students' screens, or ``None``."""
    a = room.assignments[-1] if room.assignments else None
    return a if a is not None and not a.ended else None


def assign(room: Room, exercises: Any) -> Assignment:
    """Give ``room`` the exercise set ``exercises`` (an
    :class:`~gridwidgets.exercises.ExerciseSet` or its file's text); a set
    on the screens is replaced.

    Raises:
        ValueError: a file that is not an exercise set (saying why), or an empty set.
    """
    from ..exercises import ExerciseSet

    if isinstance(exercises, (str, bytes)):
        exercises = ExerciseSet.from_json(exercises)
    if not isinstance(exercises, ExerciseSet):
        raise ValueError(f"an exercise set is an ExerciseSet or its file's text, not {type(exercises).__name__}")
    if not len(exercises):
        raise ValueError("this exercise set has no exercises")
    with room.lock:
        before = current_assignment(room)
        if before is not None:
            before.ended = True
            room.store.end_exercise_set(before.id)
        set_id = room.store.add_exercise_set(room.code, exercises.to_json())
        a = Assignment(set_id, exercises, time.time())
        room.assignments.append(a)
        room.changed()
        return a


def end(room: Room) -> None:
    """Take ``room``'s exercise set off the screens (its answers stay)."""
    with room.lock:
        a = current_assignment(room)
        if a is not None:
            a.ended = True
            room.store.end_exercise_set(a.id)
        room.changed()


def _record_field(record: Mapping[str, Any], key: str, kind: type, default: Any = None) -> Any:
    value = record.get(key, default)
    ok = isinstance(value, kind) and not isinstance(value, bool) if kind is not bool else isinstance(value, bool)
    if kind is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if not ok:
        raise ValueError(f"an exercise answer's {key} is {shorten(value, 24)}, not what the exercise board sends")
    return value


def record_answer(room: Room, token: str, set_id: Any, record: Any) -> dict[str, Any]:
    """Store one answer the seat of ``token`` gave in exercise set ``set_id``
    of ``room`` (see :meth:`~gridwidgets.rooms.Room.record_exercise_answer`);
    return the row kept.

    Raises:
        RoomError: no such set in the room.
        ValueError: a record that is not one the exercise board makes (the set unchanged).
    """
    from .model import RoomError

    if not isinstance(record, Mapping):
        raise ValueError(f"an exercise answer is a record of the exercise board, not {type(record).__name__}")
    with room.lock:
        a = next((x for x in room.assignments if x.id == set_id), None) if isinstance(set_id, int) else None
        if a is None:
            raise RoomError("no such exercise set in this room")
        index = _record_field(record, "exercise", int)
        if not 0 <= index < len(a.exercises):
            raise ValueError(f"exercise {shorten(index, 12)} is not in this set (0..{len(a.exercises) - 1})")
        step = _record_field(record, "step", int, 1)
        if not 1 <= step <= 10_000:
            raise ValueError(f"step {shorten(step, 12)} of an exercise's line is out of range")
        move, right = _record_field(record, "move", str), _record_field(record, "right", bool)
        seconds = float(_record_field(record, "seconds", float, 0.0))
        solved = _record_field(record, "solved", bool, False)
        tries = sum(1 for r in a.answers if r["token"] == token and r["exercise"] == index and r["step"] == 1)
        row = {"token": token, "exercise": index, "move": move[:200], "step": step, "right": right,
               "first_try": tries + (step == 1) <= 1, "seconds": max(0.0, seconds), "solved": solved,
               "at": time.time()}
        room.store.add_exercise_answer(set_id, token, index, row["move"], step, row["right"], row["first_try"],
                                       row["solved"], row["seconds"], row["at"])
        a.answers.append(row)
        room.changed()
        return row


def restore(room_of: Callable[[Any, str], Room], data: Mapping[str, list[dict[str, Any]]],
            damaged: Callable[[str, Exception], Exception]) -> None:
    """Put the store's exercise sets and answers back in their rooms (as
    :func:`~gridwidgets.rooms.polls.restore_polls` does for polls)."""
    from ..exercises import ExerciseSet

    sets: dict[int, Assignment] = {}
    for s in data["exercise_sets"]:
        room = room_of(s["room"], f"exercise set {s['id']}")
        try:
            a = Assignment(int(s["id"]), ExerciseSet.from_json(s["data"]), float(s["assigned"]),
                           ended=bool(s["ended"]))
        except (ValueError, TypeError, KeyError) as exc:
            raise damaged(f"exercise set {str(s.get('id'))[:8]}", exc) from None
        room.assignments.append(a)
        sets[a.id] = a
    for r in data["exercise_answers"]:
        a = sets.get(r["exercise_set"])
        if a is None:
            raise damaged(f"an answer of exercise set {str(r['exercise_set'])[:8]}", KeyError("no such set"))
        a.answers.append({"token": r["token"], "exercise": int(r["exercise"]), "move": r["move"],
                          "step": int(r["step"]), "right": bool(r["right"]), "first_try": bool(r["first_try"]),
                          "seconds": float(r["seconds"]), "solved": bool(r["solved"]), "at": float(r["at"])})

#: what a cell of the live table says: solved at the first try, solved after a wrong try, tried and not
#: solved yet, at work (a right move in a line not finished)
MARKS = {"first": "✓", "later": "✓ (retried)", "wrong": "✗", "working": "…", "": ""}


def exercise_progress(a: Assignment) -> dict[str, dict[int, dict[str, Any]]]:
    """Per seat token, per exercise index: ``status`` (a key of :data:`MARKS`),
    ``tries`` (attempts begun), ``wrong`` (wrong answers), ``seconds`` (time
    to the answer that solved it, else to the last answer)."""
    out: dict[str, dict[int, dict[str, Any]]] = {}
    for r in a.answers:
        cell = out.setdefault(r["token"], {}).setdefault(
            r["exercise"], {"status": "", "tries": 0, "wrong": 0, "seconds": 0.0})
        if r["step"] == 1:
            cell["tries"] += 1
        if not r["right"]:
            cell["wrong"] += 1
        if cell["status"] in ("first", "later"):
            continue
        cell["seconds"] = r["seconds"]
        if r["right"] and r["solved"]:
            cell["status"] = "first" if cell["tries"] <= 1 and not cell["wrong"] else "later"
        elif not r["right"]:
            cell["status"] = "wrong"
        elif cell["status"] != "wrong":
            cell["status"] = "working"
    return out


def exercise_order(a: Assignment, progress: dict[str, dict[int, dict[str, Any]]] | None = None) -> list[int]:
    """The exercise indices, hardest first: by the share of the students who
    tried it and solved it at the first try (lowest first), then by the wrong
    answers (most first), then in the set's order. Exercises nobody tried come
    last. ``progress``: :func:`exercise_progress` of ``a``, if computed already."""
    progress = exercise_progress(a) if progress is None else progress
    stats = []
    for i in range(len(a.exercises)):
        cells = [p[i] for p in progress.values() if i in p]
        if not cells:
            stats.append((1, 2.0, 0, i))
            continue
        first = sum(c["status"] == "first" for c in cells) / len(cells)
        stats.append((0, first, -sum(c["wrong"] for c in cells), i))
    return [i for *_, i in sorted(stats)]


def exercise_table(room: Room, a: Assignment | None = None) -> Any:
    """The live table of the room's exercise set (default the newest): one row
    per student (seated, or who answered), one column per exercise, hardest
    first (``"3: win in 2"``), each cell a mark of :data:`MARKS`; then
    ``solved`` (count) and ``first try`` (count). A ``pandas.DataFrame``
    indexed by the display name; empty with no set."""
    import pandas as pd

    a = a if a is not None else (room.assignments[-1] if room.assignments else None)
    if a is None:
        return pd.DataFrame()
    progress = exercise_progress(a)
    order = exercise_order(a, progress)
    tokens = list(dict.fromkeys([*room.seats, *progress]))
    rows = []
    for t in tokens:
        cells = progress.get(t, {})
        row: dict[str, Any] = {"student": room.name_of(t)}
        for i in order:
            row[_column(a, i)] = MARKS[cells.get(i, {}).get("status", "")]
        row["solved"] = sum(c["status"] in ("first", "later") for c in cells.values())
        row["first try"] = sum(c["status"] == "first" for c in cells.values())
        rows.append(row)
    return pd.DataFrame(rows, columns=["student", *(_column(a, i) for i in order), "solved", "first try"]
                        ).set_index("student")


def _column(a: Assignment, i: int) -> str:
    return f"{i + 1}: {a.exercises[i].kind}"


@dataclass
class WrongAnswers:
    """The wrong answers to one exercise of a set, as a poll's heat map shows
    them (duck-typed like a :class:`~gridwidgets.rooms.polls.Poll` for the
    boards of :func:`~gridwidgets.rooms.board.poll_board`): the exercise's
    position and the count of each wrong first move."""

    game: Game
    player: int
    counts_: dict[str, int] = field(default_factory=dict)
    state: str = "closed"

    @property
    def caption(self) -> str:
        """The board's status line: what the heat map shows."""
        return f"The class's wrong first moves for {self.game.player_label(self.player)}."

    def counts(self) -> dict[str, int]:
        return dict(self.counts_)

    def mine(self, token: str) -> str | None:
        return None

    def overlay(self) -> dict[str, Any]:
        """The heat map as ``hint_data`` (:func:`~gridwidgets.rooms.polls.heat_overlay`, as :meth:`Poll.overlay`)."""
        n = sum(self.counts_.values())
        return heat_overlay(self.game, self.counts_, f"{n} wrong answer{'' if n == 1 else 's'}")


def wrong_answers(a: Assignment, index: int) -> WrongAnswers:
    """The wrong answers given to exercise ``index`` of ``a`` at its first
    move (the exercise's position), counted over every try of every student.

    Raises:
        IndexError: an index outside the set.
    """
    ex = a.exercises[index]
    counts: dict[str, int] = {}
    for r in a.answers:
        if r["exercise"] == index and r["step"] == 1 and not r["right"]:
            counts[r["move"]] = counts.get(r["move"], 0) + 1
    return WrongAnswers(ex.start(), ex.player, dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))))
