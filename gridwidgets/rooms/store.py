"""The rooms' database: SQLite (the standard library's ``sqlite3``), one file
next to the server, so that a class survives a restart of the server.

Four tables: ``settings`` (the server's teacher token), ``rooms`` (the game, board and pairing a teacher chose, the
teacher's token, paused, the round), ``seats`` (a student's display name and
seat token) and ``games`` (the players of each game, seat tokens or the agent,
and the game's save file, :meth:`~gridwidgets.core.Game.to_json`, plus any
hidden submissions still pending, which a save file leaves out). Every write is
one statement in autocommit mode with ``synchronous=FULL``: when a write
returns, it is on disk. The database is the server's, never a page's, so the
hidden submissions in it are secret from the pages.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from os import PathLike
from typing import Any

__all__ = ["Store"]

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
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    token TEXT PRIMARY KEY,
    room TEXT NOT NULL REFERENCES rooms(code),
    name TEXT NOT NULL,
    joined REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    room TEXT NOT NULL REFERENCES rooms(code),
    round INTEGER NOT NULL,
    players TEXT NOT NULL,
    save TEXT NOT NULL,
    pending TEXT NOT NULL DEFAULT '{}',
    updated REAL NOT NULL
);
"""


class Store:
    """The rooms, seats and games of a class in one SQLite file.

    Args:
        path: the database file (made if missing); ``":memory:"`` for a
            database that lives only as long as this object.

    Thread-safe: one connection, writes serialised by a lock (the server's
    sessions and the agents write from several threads).
    """

    def __init__(self, path: str | PathLike[str]) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def _write(self, sql: str, args: tuple[Any, ...]) -> int:
        with self._lock:
            cur = self._db.execute(sql, args)
            return int(cur.lastrowid or 0)

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

    def add_room(self, code: str, game: str, board: str, pairing: str, agent: str, teacher_token: str) -> None:
        """Record a new room (round 1, not paused)."""
        self._write("INSERT INTO rooms (code, game, board, pairing, agent, teacher_token, created) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)", (code, game, board, pairing, agent, teacher_token, time.time()))

    def set_room(self, code: str, *, paused: bool, round: int) -> None:
        """Record a room's pause and round."""
        self._write("UPDATE rooms SET paused = ?, round = ? WHERE code = ?", (int(paused), int(round), code))

    def add_seat(self, token: str, room: str, name: str) -> None:
        """Record a student's seat in a room."""
        self._write("INSERT INTO seats (token, room, name, joined) VALUES (?, ?, ?, ?)",
                    (token, room, name, time.time()))

    def add_game(self, room: str, round: int, players: list[str], save: str) -> int:
        """Record a new game of a room; return its id."""
        return self._write("INSERT INTO games (room, round, players, save, updated) VALUES (?, ?, ?, ?, ?)",
                           (room, int(round), json.dumps(players), save, time.time()))

    def save_game(self, game_id: int, save: str, pending: dict[int, str]) -> None:
        """Record a game's position: its save file and its pending hidden submissions."""
        self._write("UPDATE games SET save = ?, pending = ?, updated = ? WHERE id = ?",
                    (save, json.dumps({str(p): m for p, m in pending.items()}), time.time(), int(game_id)))

    def load(self) -> dict[str, list[dict[str, Any]]]:
        """Everything recorded: ``{"rooms": [...], "seats": [...], "games": [...]}``, each a
        list of rows as dicts, in the order they were made."""
        with self._lock:
            self._db.row_factory = sqlite3.Row
            try:
                rooms = [dict(r) for r in self._db.execute("SELECT * FROM rooms ORDER BY created, code")]
                seats = [dict(r) for r in self._db.execute("SELECT * FROM seats ORDER BY joined, token")]
                games = [dict(r) for r in self._db.execute("SELECT * FROM games ORDER BY id")]
            finally:
                self._db.row_factory = None
        for g in games:
            g["players"] = json.loads(g["players"])
            g["pending"] = {int(p): m for p, m in json.loads(g["pending"]).items()}
        return {"rooms": rooms, "seats": seats, "games": games}

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()
