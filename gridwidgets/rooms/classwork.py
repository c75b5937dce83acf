"""What a class did in its polls and exercise sets, for the teacher: the
live table of an exercise set (students x exercises, the hardest exercises
first), the heat map of an exercise's wrong answers, and the CSV exports of
every answer (polls and exercises).

The functions read a room's :attr:`~gridwidgets.rooms.Room.polls` and
:attr:`~gridwidgets.rooms.Room.assignments` (what the store holds, restored
after a restart); nothing here changes them.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.game import Game
from .model import Assignment, Room
from .polls import Answer, heat_overlay
from .results import safe_cell

__all__ = ["MARKS", "WrongAnswers", "exercise_csv", "exercise_order", "exercise_progress", "exercise_table",
           "polls_csv", "wrong_answers"]

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


def _rooms(rooms: Room | Sequence[Room]) -> list[Room]:
    return [rooms] if isinstance(rooms, Room) else list(rooms)


def exercise_csv(rooms: Room | Sequence[Room]) -> str:
    """Every answer given in the exercise sets of ``rooms`` (one room or a
    list), one row each: room, set, student, student id, exercise (from 1),
    kind, move, step, right, first try, solved, seconds, time (ISO 8601,
    UTC). Cells that a spreadsheet would run as a formula are quoted
    (:func:`~gridwidgets.rooms.results.safe_cell`)."""
    import datetime as dt

    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["room", "set", "student", "student id", "exercise", "kind", "move", "step", "right", "first try",
                "solved", "seconds", "time"])
    for room in _rooms(rooms):
        for a in room.assignments:
            for r in a.answers:
                w.writerow([room.code, a.id, safe_cell(room.name_of(r["token"])),
                            safe_cell(room.student_id_of(r["token"])), r["exercise"] + 1,
                            a.exercises[r["exercise"]].kind, safe_cell(r["move"]), r["step"], int(r["right"]),
                            int(r["first_try"]), int(r["solved"]), f"{r['seconds']:.3f}",
                            dt.datetime.fromtimestamp(r["at"], dt.timezone.utc).isoformat(timespec="seconds")])
    return out.getvalue()


def polls_csv(rooms: Room | Sequence[Room], *, names: bool = True) -> str:
    """Every poll of ``rooms`` (one room or a list) and every answer, one row
    per answer (a poll with no answer: one row with an empty student): room,
    poll, source, position (its save file), player, state, student (or
    ``""`` with ``names=False``), student id, move, changes, seconds since
    the poll opened, and once revealed the analysis's kind and the move's value."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["room", "poll", "source", "position", "player", "state", "student", "student id", "move", "changes",
                "seconds", "analysis", "value"])
    for room in _rooms(rooms):
        for poll in room.polls:
            analysis = poll._analysis or {}
            values = analysis.get("moves", {})
            head = [room.code, poll.id, safe_cell(poll.source), poll.game.to_json(indent=None), poll.player,
                    poll.state]
            answers: list[Answer] = list(poll.answers.values())
            if not answers:
                w.writerow([*head, "", "", "", "", "", analysis.get("kind", ""), ""])
            for ans in answers:
                value = values.get(ans.move, {}).get("value", "")
                w.writerow([*head, safe_cell(room.name_of(ans.token)) if names else "",
                            safe_cell(room.student_id_of(ans.token)) if names else "", safe_cell(ans.move), ans.changes,
                            f"{ans.at - poll.opened:.1f}", analysis.get("kind", ""), value])
    return out.getvalue()


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
