"""Every CSV file the rooms write, in one place: the games of a class
(:func:`results_csv`), the standings for grades (:func:`standings_csv`),
every poll answer (:func:`polls_csv`) and every exercise answer
(:func:`exercise_csv`). Every text cell is safe to open in a spreadsheet
(:func:`safe_cell`). Student ids are written here and in the class's
gradebook (:mod:`gridwidgets.rooms.gradebook`), nowhere else: no page shows them.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from .model import Room
from .polls import Answer
from .results import results_table, standings

__all__ = ["FORMULA_STARTS", "exercise_csv", "polls_csv", "results_csv", "safe_cell", "standings_csv"]

#: the first characters that make a spreadsheet read a cell as a formula (OWASP's CSV injection rule)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """``value`` as a CSV cell a spreadsheet shows as text: a text cell that
    begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a
    leading ``'`` (OWASP's rule against CSV injection); numbers and other
    text are unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def results_csv(rooms: Sequence[Room]) -> str:
    """:func:`~gridwidgets.rooms.results.results_table` as CSV text (a header
    line, then one line per game), every text cell safe to open in a
    spreadsheet (:func:`safe_cell`; the names as given are in
    :func:`~gridwidgets.rooms.results.saves_zip`'s ``games.json``)."""
    table = results_table(rooms)
    for column in table.columns:
        table[column] = table[column].map(safe_cell)
    return table.to_csv(index=False)


def standings_csv(room: Room) -> str:
    """:func:`~gridwidgets.rooms.results.standings` as CSV text, one line per
    student, with the student id each gave at joining (the teacher's file:
    no page shows the ids), every text cell safe to open in a spreadsheet
    (:func:`safe_cell`)."""
    table = standings(room, ids=True)
    for column in ("name", "student id"):
        table[column] = table[column].map(safe_cell)
    return table.to_csv(index=False)


def _rooms(rooms: Room | Sequence[Room]) -> list[Room]:
    return [rooms] if isinstance(rooms, Room) else list(rooms)


def exercise_csv(rooms: Room | Sequence[Room]) -> str:
    """Every answer given in the exercise sets of ``rooms`` (one room or a
    list), one row each: room, set, student, student id, exercise (from 1),
    kind, move, step, right, first try, solved, seconds, time (ISO 8601,
    UTC). Cells that a spreadsheet would run as a formula are quoted
    (:func:`safe_cell`)."""
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
            analysis = poll.kept_analysis or {}
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
