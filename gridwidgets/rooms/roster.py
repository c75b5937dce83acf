"""A class list (roster): the students' display names and ids, read from the
CSV files learning-management systems export, so that a joining student picks
their name from a list and never types an id (:meth:`Rooms.import_roster
<gridwidgets.rooms.model.Rooms.import_roster>`).

Three shapes of file are read (the header's names compared without case,
spaces or punctuation, so ``ID number`` is ``idnumber``):

- **Moodle**, its user export (*Site administration > Users > Bulk user
  actions > Download*: ``id, username, email, firstname, lastname, idnumber,
  ...``) or a course's participants or grades download (``First name,
  Last name`` or ``Surname, ID number, Email address, ...``): the name is
  ``firstname lastname``; the id is ``idnumber`` (the institution's id) when
  every row has one, else ``username``. Moodle's own ``id`` column (its
  database row) is never the id.
- **Canvas**, its gradebook export (``Student, ID, SIS User ID, SIS Login ID,
  Section, ...``; its second row, ``Points Possible``, and Canvas's *Test
  Student* are skipped): the name is ``Student`` turned from ``Last, First``
  into ``First Last``; the id is ``SIS User ID`` when every row has one, else
  ``SIS Login ID``, else Canvas's ``ID``.
- **A plain list**: two columns, name then id, with a header (``name, id``;
  also ``student``, ``display name``, ``student id``, ...) or without one.

Separators ``,``, ``;`` and tab are recognised (:class:`csv.Sniffer` on the
first 8 KB, as Moodle writes ``;`` in languages whose decimal point is a
comma), a byte-order mark is dropped. Names go through
:func:`~gridwidgets.rooms.names.clean_name`, ids through
:func:`~gridwidgets.rooms.names.clean_student_id`. A file is read whole or
not at all: at most :data:`MAX_ROSTER_BYTES` and :data:`MAX_ROSTER` students;
a row without a name or id, a name or id the rules refuse, two rows with the
same id or with names that look alike raise :class:`ValueError` naming the
row (its number in the file, the header being row 1) and quoting at most a
few dozen characters of it.
"""

from __future__ import annotations

import csv
import io
import os
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from .names import clean_name, clean_student_id, skeleton

__all__ = ["MAX_ROSTER", "MAX_ROSTER_BYTES", "ROSTER_SOURCES", "RosterEntry", "RosterFile", "check_roster",
           "read_roster"]

#: the most students a class list holds
MAX_ROSTER = 2000
#: the largest class-list file read, in bytes (UTF-8)
MAX_ROSTER_BYTES = 1_000_000
#: where a roster came from: a CSV file the teacher loaded, or the JupyterHub's users
ROSTER_SOURCES = ("csv", "hub")
#: the most columns a row may have (a gradebook export has one per assignment)
_MAX_COLUMNS = 1000
#: what an error quotes of a cell, at most
_QUOTE = 24


class RosterEntry(NamedTuple):
    """A student on the class list: their display name (as the join form lists
    it and the room shows it) and their id (for grades: only the teacher's
    CSV files carry it, no page shows it)."""

    name: str
    student_id: str


@dataclass(frozen=True)
class RosterFile:
    """A class list read from a CSV file (:func:`read_roster`).

    Attributes:
        entries: the students, in the file's order.
        kind: the shape recognised: ``"moodle"``, ``"canvas"`` or ``"plain"``.
        id_column: the header of the column the ids came from (``"idnumber"``,
            ``"SIS User ID"``, ...; ``"column 2"`` for a plain list without a header).
    """

    entries: tuple[RosterEntry, ...]
    kind: str
    id_column: str

    def summary(self) -> str:
        """One line for the teacher: ``"32 students from a Canvas gradebook export; ids from SIS User ID"``."""
        what = {"moodle": "a Moodle export", "canvas": "a Canvas gradebook export", "plain": "a list of names and ids"}
        n = len(self.entries)
        return f"{n} student{'s' if n != 1 else ''} from {what[self.kind]}; ids from {self.id_column}"


def _key(header: str) -> str:
    """A header as compared: NFKC, case folded, letters and digits only (``"SIS User ID"`` is ``"sisuserid"``)."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", header).casefold() if ch.isalnum())


def _quote(text: Any) -> str:
    text = str(text)
    return repr(text[:_QUOTE] + ("…" if len(text) > _QUOTE else ""))


#: the plain list's name and id headers
_PLAIN_NAMES = {"name", "names", "displayname", "student", "studentname", "fullname"}
_PLAIN_IDS = {"id", "studentid", "studentnumber", "idnumber", "sisid", "username", "login"}
#: Canvas's rows that are no student: the points row, and the teacher's "student view" student
_CANVAS_SKIP = {"pointspossible", "studenttest", "teststudent"}


def _a_path(text: str) -> bool:
    """Whether the text given is a file's path rather than its CSV: one line naming a file that exists, or one
    line ending in ``.csv``, ``.txt`` or ``.tsv`` with no separator in it (a missing file then says so)."""
    if "\n" in text or not text.strip() or len(text) > 4096:
        return False
    try:
        if Path(text).is_file():
            return True
    except (OSError, ValueError):
        return False
    return not any(d in text for d in ",;\t") and Path(text).suffix.lower() in (".csv", ".txt", ".tsv")


def _text(source: str | bytes | os.PathLike[str]) -> str:
    """The text of a class list given as text, bytes or a path (:func:`_a_path`; bounded, UTF-8, no BOM)."""
    if isinstance(source, (bytes, bytearray)):
        data = bytes(source)
    elif isinstance(source, os.PathLike) or (isinstance(source, str) and _a_path(source)):
        path = Path(source)
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_ROSTER_BYTES + 1)
        except OSError as exc:
            raise ValueError(f"the class list {str(path)[-60:]} cannot be read ({exc.strerror or exc})") from None
    elif isinstance(source, str):
        if len(source) > MAX_ROSTER_BYTES:
            raise ValueError(f"a class list has at most {MAX_ROSTER_BYTES:,} bytes")
        data = source.encode("utf-8", "surrogatepass")
    else:
        raise ValueError("a class list is CSV text, its bytes, or the path of its file")
    if len(data) > MAX_ROSTER_BYTES:
        raise ValueError(f"a class list has at most {MAX_ROSTER_BYTES:,} bytes: this file is larger")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("utf-16") if data[:2] in (b"\xff\xfe", b"\xfe\xff") else None
        except UnicodeDecodeError:
            text = None
        if text is None:
            raise ValueError("the class list is not UTF-8 text: save it as CSV (UTF-8) from your spreadsheet "
                             "or learning platform") from None
    if "\x00" in text:
        raise ValueError("the class list is not text (it holds NUL characters): save it as CSV")
    return text.lstrip("\ufeff")


def _delimiter(text: str) -> str:
    """The separator of ``text``: ``,``, ``;`` or tab, as :class:`csv.Sniffer` finds it on the first 4 KB (whole
    lines), else the one the first line has most of (``,`` on a tie). Only the separator is taken from the
    sniffer: quotes are always ``"`` (a name such as ``'t Hooft`` must not make ``'`` a quote)."""
    sample = text[:4096]
    if len(text) > 4096 and "\n" in sample:
        sample = sample[:sample.rindex("\n")]
    try:
        found = csv.Sniffer().sniff(sample, delimiters=",;\t").delimiter
    except csv.Error:
        found = ""
    if found in (",", ";", "\t"):
        return found
    first = next((line for line in sample.splitlines() if line.strip()), "")
    return max((",", ";", "\t"), key=lambda d: (first.count(d), d == ","))


def _rows(text: str) -> list[tuple[int, list[str]]]:
    """The rows of ``text`` that are not blank, each with its number in the file (from 1)."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text), quotechar='"', doublequote=True,
                        skipinitialspace=False, strict=False)
    rows: list[tuple[int, list[str]]] = []
    try:
        for k, row in enumerate(reader):
            if len(row) > _MAX_COLUMNS:
                raise ValueError(f"row {k + 1} of the class list has more than {_MAX_COLUMNS} columns")
            if any(cell.strip() for cell in row):
                if len(rows) > MAX_ROSTER + 2:
                    raise ValueError(f"a class list has at most {MAX_ROSTER:,} students")
                rows.append((k + 1, row))
    except csv.Error as exc:
        raise ValueError(f"the class list is not CSV that can be read ({str(exc)[:60]})") from None
    return rows


def _column(keys: list[str], *names: str) -> int | None:
    for name in names:
        if name in keys:
            return keys.index(name)
    return None


def read_roster(source: str | bytes | os.PathLike[str]) -> RosterFile:
    """Read a class list from a CSV file's text, bytes or path (the shapes in
    this module's text).

    Returns:
        the students, the shape recognised and the column the ids came from.

    Raises:
        ValueError: a file too large, not UTF-8 text, not CSV, with no student,
            more than :data:`MAX_ROSTER` students, or a row the rules refuse
            (its number and at most a few dozen characters of it in the message).
    """
    numbered = _rows(_text(source))
    if not numbered:
        raise ValueError("the class list is empty: no student in it")
    line, header = numbered[0]
    keys = [_key(h) for h in header]
    if "firstname" in keys and ("lastname" in keys or "surname" in keys):
        kind = "moodle"
        first, last = keys.index("firstname"), _column(keys, "lastname", "surname")
        id_choices = [c for c in (_column(keys, "idnumber"), _column(keys, "username")) if c is not None]
        body = numbered[1:]

        def name_of(row: list[str]) -> str:
            return f"{_cell(row, first)} {_cell(row, last)}".strip()
    elif "student" in keys and "id" in keys and ("sisuserid" in keys or "sisloginid" in keys or "section" in keys):
        kind = "canvas"
        student = keys.index("student")
        id_choices = [c for c in (_column(keys, "sisuserid"), _column(keys, "sisloginid"), _column(keys, "id"))
                      if c is not None]
        body = [(n, row) for n, row in numbered[1:] if _key(_cell(row, student)) not in _CANVAS_SKIP]

        def name_of(row: list[str]) -> str:
            last_first = _cell(row, student).strip()
            parts = last_first.split(", ")
            return f"{parts[1]} {parts[0]}" if len(parts) == 2 and parts[0] and parts[1] else last_first
    else:
        kind = "plain"
        has_header = bool(set(keys) & _PLAIN_NAMES) and bool(set(keys) & _PLAIN_IDS)
        if has_header:
            name_col = _column(keys, *sorted(_PLAIN_NAMES))
            id_col = _column(keys, "studentid", "studentnumber", "idnumber", "sisid", "id", "username", "login")
            body = numbered[1:]
        else:
            if len(header) < 2:
                raise ValueError(f"row {line} of the class list has one column: a class list has a name and an "
                                 "id on each row (name,id), or is a Moodle or Canvas export")
            name_col, id_col = 0, 1
            body = numbered
        assert name_col is not None and id_col is not None
        id_choices = [id_col]

        def name_of(row: list[str]) -> str:
            return _cell(row, name_col)
    if not body:
        raise ValueError("the class list has a header but no student in it")
    if len(body) > MAX_ROSTER:
        raise ValueError(f"a class list has at most {MAX_ROSTER:,} students, this one has {len(body):,}")
    if not id_choices:
        raise ValueError(f"the class list's header (row {line}) has no column for the students' ids")
    # the institution's id when every row has one, else the next choice: one kind of id for the whole file
    id_col = next((c for c in id_choices if all(_cell(row, c).strip() for _, row in body)), id_choices[-1])
    id_name = header[id_col].strip() if (kind != "plain" or body is not numbered) else "column 2"
    entries = []
    for n, row in body:
        name, sid = name_of(row), _cell(row, id_col)
        if not name.strip():
            raise ValueError(f"row {n} of the class list has no name")
        if not sid.strip():
            raise ValueError(f"row {n} of the class list ({_quote(name)}) has no id in column {_quote(id_name)}")
        try:
            entries.append(RosterEntry(clean_name(name), clean_student_id(sid)))
        except ValueError as exc:
            raise ValueError(f"row {n} of the class list: {exc} ({_quote(name)})") from None
    out = check_roster(entries, rows=[n for n, _ in body])
    return RosterFile(out, kind, id_name[:40])


def _cell(row: list[str], k: int) -> str:
    return row[k] if k < len(row) else ""


def check_roster(entries: Iterable[Any], *, rows: list[int] | None = None) -> tuple[RosterEntry, ...]:
    """The class list ``entries`` checked: each a :class:`RosterEntry` or a
    ``(name, student_id)`` pair, the name by
    :func:`~gridwidgets.rooms.names.clean_name`, the id by
    :func:`~gridwidgets.rooms.names.clean_student_id` (not empty), no two ids
    the same, no two names alike (the rooms' rule: the same in another case, or
    up to Unicode's look-alike characters), at most :data:`MAX_ROSTER`.

    Args:
        rows: each entry's row in its file, for the messages (default: its place, from 1).

    Raises:
        ValueError: the first entry that breaks a rule, named by its row.
    """
    out: list[RosterEntry] = []
    seen_ids: dict[str, int] = {}
    seen_names: dict[str, int] = {}
    for k, entry in enumerate(entries):
        where = rows[k] if rows is not None and k < len(rows) else k + 1
        if k >= MAX_ROSTER:
            raise ValueError(f"a class list has at most {MAX_ROSTER:,} students")
        if isinstance(entry, (str, bytes)) or not isinstance(entry, Iterable):
            raise ValueError(f"entry {where} of the class list is not a (name, id) pair")
        pair = tuple(entry)
        if len(pair) != 2:
            raise ValueError(f"entry {where} of the class list is not a (name, id) pair")
        try:
            name, sid = clean_name(pair[0]), clean_student_id(pair[1])
        except ValueError as exc:
            raise ValueError(f"row {where} of the class list: {exc}") from None
        if not sid:
            raise ValueError(f"row {where} of the class list ({_quote(name)}) has no id")
        if sid in seen_ids:
            raise ValueError(f"rows {seen_ids[sid]} and {where} of the class list have the same id {_quote(sid)}: "
                             "each student needs their own")
        key = skeleton(name)
        if key in seen_names:
            raise ValueError(f"rows {seen_names[key]} and {where} of the class list have names that look the same "
                             f"({_quote(name)}): tell them apart (a middle initial, a surname)")
        seen_ids[sid] = where
        seen_names[key] = where
        out.append(RosterEntry(name, sid))
    return tuple(out)
