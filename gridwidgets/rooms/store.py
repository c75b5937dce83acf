"""The rooms' database: SQLite (the standard library's ``sqlite3``), one file
next to the server, so that a class survives a restart of the server.

Tables: ``settings`` (the server's teacher token, whether the class ended),
``rooms`` (the game, board and pairing a teacher chose, the teacher's token,
paused, the round, closed, who the projector names: schema 6), ``seats`` (a
student's display name and seat token, removed by the teacher or not, and the
seat's code for getting it back on another device: schema 6), ``games`` (the players of each game,
seat tokens or the agent, the seats the teacher handed to the agent, and the
game's save file, :meth:`~gridwidgets.core.Game.to_json`, plus any hidden
submissions still pending, which a save file leaves out; when it started and
when it was last saved, in seconds since the epoch: schema 5) and
``teacher_sessions`` (digests of the teacher's session cookies), ``polls``
and ``poll_answers`` (each class poll's position, player, state, analysis
and whether its answers are shown live, schema 6,
and every answer given, changes included: :mod:`gridwidgets.rooms.polls`),
``exercise_sets`` and ``exercise_answers`` (a set given to a room, and every
answer a student gave in it: who, which exercise, which move, right or wrong,
first try or not, seconds taken), ``roster`` (the class list: each student's
display name and id, in order, schema 7; where it came from is the setting
``roster_source``). Every write
is one statement in autocommit mode with ``synchronous=FULL``: when a write
returns, it is on disk. The database is the server's, never a page's, so the
hidden submissions in it are secret from the pages.

The file is checked before anything is written to it: a folder, a file of 0
bytes, a file that is not SQLite, a damaged one, another program's database,
an SQLite file with no class in it, or one written by a newer gridwidgets
raise :class:`StoreError` naming the file and what to do, and nothing is
changed. A new class starts only in a file that does not exist yet.

The write-ahead log is folded back into the one file (a checkpoint) when the
store opens, every :data:`CHECKPOINT_EVERY` seconds of writing and when it
closes, so the file the docs name holds the class; :meth:`Store.backup`
writes one consistent copy with SQLite's online backup.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from os import PathLike
from pathlib import Path
from typing import Any

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "Store", "StoreError", "backup"]

#: ``PRAGMA application_id`` of a rooms database ("gwRm"): another program's SQLite file is told apart
APPLICATION_ID = 0x6777526D
#: the schema this version writes (``PRAGMA user_version``); 1 was the first, with no application id
SCHEMA_VERSION = 7
#: seconds between two checkpoints while the class is being written
CHECKPOINT_EVERY = 30.0
_HEADER = b"SQLite format 3\x00"
_TABLES = {"settings", "rooms", "seats", "games"}

_SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    board TEXT NOT NULL,
    pairing TEXT NOT NULL,
    agent TEXT NOT NULL,
    teacher_token TEXT NOT NULL,
    paused INTEGER NOT NULL DEFAULT 0,
    round INTEGER NOT NULL DEFAULT 1,
    created REAL NOT NULL,
    closed INTEGER NOT NULL DEFAULT 0,
    projector_names TEXT NOT NULL DEFAULT 'seat'
);
CREATE TABLE IF NOT EXISTS seats (
    token TEXT PRIMARY KEY,
    room TEXT NOT NULL REFERENCES rooms(code),
    name TEXT NOT NULL,
    joined REAL NOT NULL,
    removed INTEGER NOT NULL DEFAULT 0,
    student_id TEXT NOT NULL DEFAULT '',
    reclaim TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    room TEXT NOT NULL REFERENCES rooms(code),
    round INTEGER NOT NULL,
    players TEXT NOT NULL,
    save TEXT NOT NULL,
    pending TEXT NOT NULL DEFAULT '{}',
    updated REAL NOT NULL,
    handed TEXT NOT NULL DEFAULT '[]',
    started REAL NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS teacher_sessions (
    digest TEXT PRIMARY KEY,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS polls (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    room TEXT NOT NULL REFERENCES rooms(code),
    save TEXT NOT NULL,
    player INTEGER NOT NULL,
    source TEXT NOT NULL,
    opened REAL NOT NULL,
    state TEXT NOT NULL DEFAULT 'open',
    analysis TEXT NOT NULL DEFAULT '',
    live INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS poll_answers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    poll INTEGER NOT NULL REFERENCES polls(id),
    token TEXT NOT NULL,
    move TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS exercise_sets (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    room TEXT NOT NULL REFERENCES rooms(code),
    data TEXT NOT NULL,
    assigned REAL NOT NULL,
    ended INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS exercise_answers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    exercise_set INTEGER NOT NULL REFERENCES exercise_sets(id),
    token TEXT NOT NULL,
    exercise INTEGER NOT NULL,
    move TEXT NOT NULL,
    step INTEGER NOT NULL,
    right INTEGER NOT NULL,
    first_try INTEGER NOT NULL,
    solved INTEGER NOT NULL,
    seconds REAL NOT NULL,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS roster (
    position INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    student_id TEXT NOT NULL UNIQUE
);
"""
#: the tables a class's database may hold besides :data:`_TABLES` (added by later schemas)
_MORE_TABLES = {"teacher_sessions", "polls", "poll_answers", "exercise_sets", "exercise_answers", "roster"}
#: schema 1 -> 2: the columns and table added (closed rooms, removed seats, handed seats, sessions)
_MIGRATE_1 = [
    "ALTER TABLE rooms ADD COLUMN closed INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE seats ADD COLUMN removed INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN handed TEXT NOT NULL DEFAULT '[]'",
]
#: schema 2 -> 3: a seat's student id, given at join for grades
_MIGRATE_2 = ["ALTER TABLE seats ADD COLUMN student_id TEXT NOT NULL DEFAULT ''"]
# schema 3 -> 4: the polls and exercise sets' tables, new (made by _SCHEMA's CREATE ... IF NOT EXISTS)
#: schema 4 -> 5: when each game started (0: unknown, a game written before schema 5)
_MIGRATE_4 = ["ALTER TABLE games ADD COLUMN started REAL NOT NULL DEFAULT 0"]
#: schema 5 -> 6: who the projector names (a seat number by default); a seat's code for getting it back on
#: another device ('': none yet, the rooms give one on loading); a poll's answers shown live or not (below); and
#: the rounds of a round pairing's room counted from 1 (:func:`_first_round_is_one`)
_MIGRATE_5 = ["ALTER TABLE rooms ADD COLUMN projector_names TEXT NOT NULL DEFAULT 'seat'",
              "ALTER TABLE seats ADD COLUMN reclaim TEXT NOT NULL DEFAULT ''"]
# schema 6 -> 7: the class list's table, new (made by _SCHEMA's CREATE ... IF NOT EXISTS)
#: the same for the polls table, which a schema before 4 does not have yet (it is made whole by _SCHEMA)
_MIGRATE_5_POLLS = ["ALTER TABLE polls ADD COLUMN live INTEGER NOT NULL DEFAULT 0"]


def _first_round_is_one(db: sqlite3.Connection) -> None:
    """Schema 5 -> 6: before schema 6 a round pairing's room ("round-robin",
    "swiss") opened in round 1 and its teacher's first Next round played round
    2; now it opens in round 0 and the first round played is round 1. Each
    such room with no game in round 1 (none started before its first round)
    has its round and its games' rounds counted one lower."""
    codes = [row[0] for row in db.execute(
        "SELECT code FROM rooms WHERE pairing IN ('round-robin', 'swiss') "
        "AND code NOT IN (SELECT room FROM games WHERE round <= 1)")]
    for code in codes:
        db.execute("UPDATE rooms SET round = round - 1 WHERE code = ?", (code,))
        db.execute("UPDATE games SET round = round - 1 WHERE room = ?", (code,))


class StoreError(ValueError):
    """A database file that cannot hold this class (see the module's text); the
    message names the file and what to do. Nothing was written."""


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def _check_file(path: Path) -> bool:
    """Check ``path`` before SQLite opens it; return True if it exists (else a new class starts there).

    Raises:
        StoreError: a folder, a missing folder, an empty file, or a file that is not SQLite.
    """
    if path.is_dir():
        raise StoreError(f"{path} is a folder, not a class's database file: pass a file name with --db")
    if not path.exists():
        if not path.parent.is_dir():
            raise StoreError(f"{path}: the folder {path.parent} does not exist: make it first, or pass another --db")
        return False
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:
            header = f.read(len(_HEADER))
    except OSError as exc:
        raise StoreError(f"{path} cannot be read ({exc.strerror or exc}): check its permissions, or pass another "
                         "--db") from None
    if size == 0:
        raise StoreError(f"{path} is an empty file (0 bytes), not a class's database: move it away, or pass "
                         "another --db (a new class starts in a file that does not exist yet)")
    if header != _HEADER:
        raise StoreError(f"{path} is not an SQLite database (it does not start as one): it is not a class's "
                         "database; pass another --db, or restore the class from its backup")
    return True


class Store:
    """The rooms, seats and games of a class in one SQLite file.

    Args:
        path: the database file (made if it does not exist); ``":memory:"``
            for a database that lives only as long as this object.
        clock: the wall clock every time written comes from (seconds since
            the epoch); :func:`time.time` unless a test drives time itself.

    Raises:
        StoreError: for a file that is not a class's database, a damaged one,
            or one written by a newer gridwidgets (nothing is written then).

    Thread-safe: one connection, writes serialised by a lock (the server's
    sessions and the agents write from several threads).
    """

    def __init__(self, path: str | PathLike[str], *, clock: Callable[[], float] = time.time) -> None:
        self.path = str(path)
        #: the wall clock of every time written (seconds since the epoch)
        self.clock = clock
        self._lock = threading.Lock()
        self._last_checkpoint = time.monotonic()
        memory = self.path == ":memory:"
        existed = False if memory else _check_file(Path(self.path))
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path} cannot be opened ({exc}): pass another --db") from None
        try:
            if existed:
                self._check_existing()
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            if existed:
                self._migrate()
            else:
                self._db.executescript(_SCHEMA)
                self._db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self.checkpoint()
        except StoreError:
            self._db.close()
            raise
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise StoreError(f"{self.path} is damaged ({str(exc)[:60]}): restore the class from its backup "
                             "(--backup), or pass another --db") from None

    # -- opening ---------------------------------------------------------------------------
    def _check_existing(self) -> None:
        """The file is SQLite: is it a class's database that this version can read?"""
        db = self._db
        try:
            check = db.execute("PRAGMA quick_check").fetchone()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is damaged ({str(exc)[:60]}): restore the class from its backup "
                             "(--backup), or pass another --db") from None
        if not check or check[0] != "ok":
            raise StoreError(f"{self.path} is damaged (SQLite's check: {str(check[0] if check else '')[:60]}): "
                             "restore the class from its backup (--backup), or pass another --db")
        app = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        tables.discard("sqlite_sequence")
        if app == APPLICATION_ID:
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path} was written by a newer gridwidgets (database schema {version}; this "
                                 f"version reads up to {SCHEMA_VERSION}): upgrade gridwidgets, or pass another --db")
            if not _TABLES <= tables:
                raise StoreError(f"{self.path} is a class's database with tables missing "
                                 f"({', '.join(sorted(_TABLES - tables))}): restore it from its backup, or pass "
                                 "another --db")
            return
        if app != 0:
            raise StoreError(f"{self.path} is another program's SQLite database (application id {app:#x}): "
                             "pass a file of its own with --db")
        if not tables:
            raise StoreError(f"{self.path} is an SQLite database with no class in it (copied without its -wal "
                             "file?): copy the -wal file beside it too, restore the class from its backup, or pass "
                             "another --db (a new class starts in a file that does not exist yet)")
        if not _TABLES <= tables or tables - _TABLES - _MORE_TABLES:
            shown = ", ".join(sorted(tables)[:4]) + (", ..." if len(tables) > 4 else "")
            raise StoreError(f"{self.path} is another program's SQLite database (tables: {shown[:80]}): pass a "
                             "file of its own with --db")

    def _migrate(self) -> None:
        """Bring a class's database written by an earlier version up to :data:`SCHEMA_VERSION`."""
        db = self._db
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if db.execute("PRAGMA application_id").fetchone()[0] == 0:
            version = 1  # the first schema had no application id
        if version >= SCHEMA_VERSION:
            return
        with self._lock:
            db.execute("BEGIN IMMEDIATE")
            try:
                if version <= 1:
                    for sql in _MIGRATE_1:
                        db.execute(sql)
                if version <= 2:
                    for sql in _MIGRATE_2:
                        db.execute(sql)
                if version <= 4:
                    for sql in _MIGRATE_4:
                        db.execute(sql)
                if version <= 5:
                    for sql in _MIGRATE_5:
                        db.execute(sql)
                    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'polls'").fetchone():
                        for sql in _MIGRATE_5_POLLS:
                            db.execute(sql)
                    _first_round_is_one(db)
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.executescript(_SCHEMA)  # the tables a new schema adds (CREATE ... IF NOT EXISTS)

    # -- writing ---------------------------------------------------------------------------
    def _write(self, sql: str, args: tuple[Any, ...]) -> int:
        with self._lock:
            cur = self._db.execute(sql, args)
            row = int(cur.lastrowid or 0)
            if time.monotonic() - self._last_checkpoint > CHECKPOINT_EVERY:
                self._checkpoint_locked("PASSIVE")
            return row

    def checkpoint(self) -> None:
        """Fold the write-ahead log back into the database file (and empty it): the
        one file then holds the whole class."""
        with self._lock:
            self._checkpoint_locked("TRUNCATE")

    def _checkpoint_locked(self, mode: str) -> None:
        if self.path != ":memory:":
            self._db.execute(f"PRAGMA wal_checkpoint({mode})")
        self._last_checkpoint = time.monotonic()

    def setting(self, key: str, make: Any) -> str:
        """The server's setting ``key``; if there is none yet, ``make()`` gives it
        and it is written (a restarted server keeps its teacher token)."""
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
            if row is not None:
                return str(row[0])
            value = str(make())
            self._db.execute("INSERT INTO settings (key, value) VALUES (?, ?)", (key, value))
            return value

    def get_setting(self, key: str) -> str | None:
        """The server's setting ``key``, or ``None``."""
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str | None) -> None:
        """Write the server's setting ``key`` (``None`` deletes it)."""
        if value is None:
            self._write("DELETE FROM settings WHERE key = ?", (key,))
        else:
            self._write("INSERT INTO settings (key, value) VALUES (?, ?) "
                        "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, str(value)))

    def add_room(self, code: str, game: str, board: str, pairing: str, agent: str, teacher_token: str,
                 round: int = 1) -> None:
        """Record a new room (in ``round``: 0 for a room whose first round the teacher starts; not paused, open)."""
        self._write("INSERT INTO rooms (code, game, board, pairing, agent, teacher_token, created, round) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (code, game, board, pairing, agent, teacher_token, self.clock(), int(round)))

    def set_room(self, code: str, *, paused: bool, round: int, closed: bool = False) -> None:
        """Record a room's pause, round and whether it is closed."""
        self._write("UPDATE rooms SET paused = ?, round = ?, closed = ? WHERE code = ?",
                    (int(paused), int(round), int(closed), code))

    def set_projector_names(self, code: str, names: str) -> None:
        """Record who a room's projector names: ``"seat"`` (a seat number) or ``"name"``."""
        self._write("UPDATE rooms SET projector_names = ? WHERE code = ?", (str(names), code))

    def set_teacher_token(self, old: str, new: str) -> None:
        """Give every room of the teacher token ``old`` the token ``new``, and make
        ``new`` the server's (the old one opens nothing any more)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("UPDATE rooms SET teacher_token = ? WHERE teacher_token = ?", (new, old))
                self._db.execute("INSERT INTO settings (key, value) VALUES ('teacher_token', ?) "
                                 "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (new,))
                self._db.execute("DELETE FROM teacher_sessions")
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def add_seat(self, token: str, room: str, name: str, student_id: str = "", reclaim: str = "") -> None:
        """Record a student's seat in a room (``student_id``: given at join for grades, or ``""``;
        ``reclaim``: the seat's code for getting it back on another device)."""
        self._write("INSERT INTO seats (token, room, name, joined, student_id, reclaim) VALUES (?, ?, ?, ?, ?, ?)",
                    (token, room, name, self.clock(), student_id, reclaim))

    def set_reclaim(self, token: str, code: str) -> None:
        """Record a seat's code for getting it back on another device (a seat of a schema before 6 gets one)."""
        self._write("UPDATE seats SET reclaim = ? WHERE token = ?", (code, token))

    def set_seat(self, token: str, *, name: str, removed: bool) -> None:
        """Record a seat's display name and whether the teacher removed it."""
        self._write("UPDATE seats SET name = ?, removed = ? WHERE token = ?", (name, int(removed), token))

    def add_game(self, room: str, round: int, players: list[str], save: str, *, started: float | None = None) -> int:
        """Record a new game of a room; return its id.

        Args:
            started: when it started (seconds since the epoch; also its first
                save); ``None``: now, by :attr:`clock`.
        """
        at = self.clock() if started is None else float(started)
        return self._write("INSERT INTO games (room, round, players, save, updated, started) VALUES (?, ?, ?, ?, ?, ?)",
                           (room, int(round), json.dumps(players), save, at, at))

    def save_game(self, game_id: int, save: str, pending: dict[int, str], *, at: float | None = None) -> None:
        """Record a game's position: its save file and its pending hidden submissions.

        Args:
            at: when (seconds since the epoch; the game's ``updated``);
                ``None``: now, by :attr:`clock`.
        """
        self._write("UPDATE games SET save = ?, pending = ?, updated = ? WHERE id = ?",
                    (save, json.dumps({str(p): m for p, m in pending.items()}),
                     self.clock() if at is None else float(at), int(game_id)))

    def set_handed(self, game_id: int, handed: list[int]) -> None:
        """Record which players of a game the teacher handed to the agent."""
        self._write("UPDATE games SET handed = ? WHERE id = ?", (json.dumps(sorted(handed)), int(game_id)))

    # -- the class list ---------------------------------------------------------------------------
    def set_roster(self, entries: list[tuple[str, str]], source: str) -> None:
        """Replace the class list with ``entries`` (``(name, student_id)`` pairs, in order) from ``source``
        (``"csv"``, ``"hub"``; ``""`` with no entries: no class list), in one transaction: the old list or the
        new one, never half of either."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("DELETE FROM roster")
                self._db.executemany("INSERT INTO roster (position, name, student_id) VALUES (?, ?, ?)",
                                     [(k, name, sid) for k, (name, sid) in enumerate(entries)])
                self._db.execute("INSERT INTO settings (key, value) VALUES ('roster_source', ?) "
                                 "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (source,))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def roster(self) -> tuple[list[tuple[str, str]], str]:
        """The class list: its ``(name, student_id)`` pairs in order, and where it came from (``""``: none)."""
        with self._lock:
            rows = self._db.execute("SELECT name, student_id FROM roster ORDER BY position").fetchall()
            source = self._db.execute("SELECT value FROM settings WHERE key = 'roster_source'").fetchone()
        return [(str(n), str(i)) for n, i in rows], str(source[0]) if source else ""

    # -- polls and exercise sets ----------------------------------------------------------------
    def add_poll(self, room: str, save: str, player: int, source: str, *, live: bool = False) -> int:
        """Record a new poll of a room (open; ``live``: its answers shown while it is open); return its id."""
        return self._write("INSERT INTO polls (room, save, player, source, opened, live) VALUES (?, ?, ?, ?, ?, ?)",
                           (room, save, int(player), source, self.clock(), int(bool(live))))

    def set_poll_live(self, poll_id: int, live: bool) -> None:
        """Record whether a poll's answers are shown while it is open."""
        self._write("UPDATE polls SET live = ? WHERE id = ?", (int(bool(live)), int(poll_id)))

    def set_poll(self, poll_id: int, state: str, analysis: dict[str, Any] | None = None) -> None:
        """Record a poll's state (and its analysis, once computed)."""
        if analysis is None:
            self._write("UPDATE polls SET state = ? WHERE id = ?", (state, int(poll_id)))
        else:
            self._write("UPDATE polls SET state = ?, analysis = ? WHERE id = ?",
                        (state, json.dumps(analysis), int(poll_id)))

    def add_poll_answer(self, poll_id: int, token: str, move: str, at: float) -> None:
        """Record a student's answer to a poll (a changed answer is a new row: the last counts)."""
        self._write("INSERT INTO poll_answers (poll, token, move, at) VALUES (?, ?, ?, ?)",
                    (int(poll_id), token, move, float(at)))

    def add_exercise_set(self, room: str, data: str) -> int:
        """Record an exercise set given to a room (its file's text); return its id."""
        return self._write("INSERT INTO exercise_sets (room, data, assigned) VALUES (?, ?, ?)",
                           (room, data, self.clock()))

    def end_exercise_set(self, set_id: int) -> None:
        """Record that an exercise set is off the students' screens."""
        self._write("UPDATE exercise_sets SET ended = 1 WHERE id = ?", (int(set_id),))

    def add_exercise_answer(self, set_id: int, token: str, exercise: int, move: str, step: int, right: bool,
                            first_try: bool, solved: bool, seconds: float, at: float) -> None:
        """Record one answer a student gave in an exercise set."""
        self._write("INSERT INTO exercise_answers (exercise_set, token, exercise, move, step, right, first_try, "
                    "solved, seconds, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (int(set_id), token, int(exercise), move, int(step), int(right), int(first_try), int(solved),
                     float(seconds), float(at)))

    # -- the teacher's sessions ------------------------------------------------------------------
    def add_session(self, session: str) -> None:
        """Record a teacher's session (only its digest is kept)."""
        self._write("INSERT OR IGNORE INTO teacher_sessions (digest, created) VALUES (?, ?)",
                    (_digest(session), self.clock()))

    def has_session(self, session: str) -> bool:
        """Whether ``session`` is a live teacher's session."""
        with self._lock:
            row = self._db.execute("SELECT 1 FROM teacher_sessions WHERE digest = ?", (_digest(session),)).fetchone()
        return row is not None

    def clear_sessions(self) -> None:
        """End every teacher's session."""
        self._write("DELETE FROM teacher_sessions", ())

    # -- reading ----------------------------------------------------------------------------------
    def load(self) -> dict[str, list[dict[str, Any]]]:
        """Everything recorded: ``{"rooms": [...], "seats": [...], "games": [...],
        "polls": [...], "poll_answers": [...], "exercise_sets": [...],
        "exercise_answers": [...]}``, each a list of rows as dicts, in the order
        they were made.

        Raises:
            StoreError: a row that cannot be read (a damaged file), naming it.
        """
        with self._lock:
            self._db.row_factory = sqlite3.Row
            try:
                rooms = [dict(r) for r in self._db.execute("SELECT * FROM rooms ORDER BY created, code")]
                seats = [dict(r) for r in self._db.execute("SELECT * FROM seats ORDER BY joined, token")]
                games = [dict(r) for r in self._db.execute("SELECT * FROM games ORDER BY id")]
                polls = [dict(r) for r in self._db.execute("SELECT * FROM polls ORDER BY id")]
                answers = [dict(r) for r in self._db.execute("SELECT * FROM poll_answers ORDER BY id")]
                sets = [dict(r) for r in self._db.execute("SELECT * FROM exercise_sets ORDER BY id")]
                worked = [dict(r) for r in self._db.execute("SELECT * FROM exercise_answers ORDER BY id")]
            except sqlite3.DatabaseError as exc:
                raise StoreError(f"{self.path} is damaged ({str(exc)[:60]}): restore the class from its backup "
                                 "(--backup), or pass another --db") from None
            finally:
                self._db.row_factory = None
        for g in games:
            try:
                g["players"] = json.loads(g["players"])
                g["pending"] = {int(p): m for p, m in json.loads(g["pending"]).items()}
                g["handed"] = [int(p) for p in json.loads(g["handed"])]
                if not isinstance(g["players"], list) or not all(isinstance(t, str) for t in g["players"]):
                    raise ValueError("players is not a list of seats")
            except (ValueError, TypeError, AttributeError) as exc:
                raise StoreError(f"{self.path}: game {g.get('id')} of room {str(g.get('room'))[:8]} cannot be read "
                                 f"({str(exc)[:60]}): the file is damaged; restore the class from its backup "
                                 "(--backup), or pass another --db") from None
        for p in polls:
            try:
                p["analysis"] = json.loads(p["analysis"]) if p["analysis"] else None
                if p["analysis"] is not None and not isinstance(p["analysis"], dict):
                    raise ValueError("its analysis is not an object")
            except (ValueError, TypeError) as exc:
                raise StoreError(f"{self.path}: poll {p.get('id')} cannot be read ({str(exc)[:60]}): the file "
                                 "is damaged; restore the class from its backup (--backup), or pass another --db"
                                 ) from None
        return {"rooms": rooms, "seats": seats, "games": games, "polls": polls, "poll_answers": answers,
                "exercise_sets": sets, "exercise_answers": worked}

    def backup(self, dest: str | PathLike[str]) -> Path:
        """Write one consistent copy of the database to ``dest`` (SQLite's online
        backup, while the class goes on), as one file with no write-ahead log.

        Returns:
            the path written.

        Raises:
            StoreError: ``dest`` is this very file, or cannot be written.
        """
        with self._lock:
            return _backup_into(self._db, self.path, dest)

    def close(self) -> None:
        """Fold the write-ahead log back into the file, and close the database."""
        with self._lock:
            with contextlib.suppress(sqlite3.Error):
                self._checkpoint_locked("TRUNCATE")
            self._db.close()


def _backup_into(source: sqlite3.Connection, source_path: str, dest: str | PathLike[str]) -> Path:
    target = Path(dest)
    if source_path != ":memory:" and target.exists() and target.resolve() == Path(source_path).resolve():
        raise StoreError(f"{target} is the class's database itself: back it up to another file")
    if target.is_dir():
        raise StoreError(f"{target} is a folder: give the backup a file name")
    if not target.parent.is_dir():
        raise StoreError(f"{target}: the folder {target.parent} does not exist")
    partial = target.with_name(target.name + ".partial")
    try:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
        out = sqlite3.connect(partial, isolation_level=None)
        try:
            source.backup(out)
            out.execute("PRAGMA journal_mode=DELETE")
        finally:
            out.close()
        os.replace(partial, target)
    except (OSError, sqlite3.Error) as exc:
        with contextlib.suppress(OSError):
            partial.unlink()
        raise StoreError(f"{target} cannot be written ({str(exc)[:60]})") from None
    return target


def backup(db: str | PathLike[str], dest: str | PathLike[str]) -> Path:
    """Write one consistent copy of the class in database file ``db`` to ``dest``
    (SQLite's online backup: a server may be writing ``db`` meanwhile). The copy
    is one file with no write-ahead log, and opens with everything in it.

    Returns:
        the path written.

    Raises:
        StoreError: ``db`` is not a class's database (see :class:`Store`), or
            ``dest`` cannot be written.
    """
    path = Path(db)
    if not _check_file(path):
        raise StoreError(f"{path} does not exist: name the class's database with --db")
    # read-only, through SQLite: the server's writes go on, the copy is one consistent moment
    try:
        source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        raise StoreError(f"{path} cannot be opened ({exc})") from None
    try:
        check = Store.__new__(Store)
        check.path, check._db = str(path), source
        try:
            check._check_existing()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path} is damaged ({str(exc)[:60]})") from None
        return _backup_into(source, str(path), dest)
    finally:
        source.close()
