"""The rooms' database file (gridwidgets.rooms.store): any bad file gets one
line naming it and what to do, and no new class starts on top of it; a class
written by the first schema is read and upgraded; the write-ahead log is
folded back at start and at stop (a crash leaves no class living only in the
-wal file); ``classroom --backup`` writes one consistent file."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from gridwidgets.rooms import Rooms, Store
from gridwidgets.rooms.store import SCHEMA_VERSION, StoreError, backup

REPO = Path(__file__).resolve().parents[1]


def _tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as db:
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _bad_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Each bad database file, and a word its message must hold."""
    made: dict[str, tuple[Path, str]] = {}
    rnd = tmp_path / "random.sqlite"
    rnd.write_bytes(os.urandom(8192))
    made["random bytes"] = (rnd, "not an SQLite database")
    good = tmp_path / "good.sqlite"
    rooms = Rooms(Store(good))
    room = rooms.create("gridlock")
    room.join("Ann"), room.join("Bob")
    rooms.store.close()
    half = tmp_path / "half.sqlite"
    data = good.read_bytes()
    half.write_bytes(data[: len(data) // 2])
    made["truncated"] = (half, "damaged")
    folder = tmp_path / "folder.sqlite"
    folder.mkdir()
    made["a folder"] = (folder, "folder")
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)")
    made["another program's"] = (other, "another program")
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    made["0 bytes"] = (empty, "empty file")
    newer = tmp_path / "newer.sqlite"
    newer.write_bytes(good.read_bytes())
    with closing(sqlite3.connect(newer)) as db:
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    made["a newer schema"] = (newer, "newer gridwidgets")
    tableless = tmp_path / "tableless.sqlite"
    with sqlite3.connect(tableless) as db:  # an SQLite file with no tables at all (a file copied without its -wal)
        db.execute("CREATE TABLE t (x)")
        db.execute("DROP TABLE t")
    made["no class in it"] = (tableless, "no class in it")
    appid = tmp_path / "appid.sqlite"
    with sqlite3.connect(appid) as db:
        db.execute("PRAGMA application_id=1234")
        db.execute("CREATE TABLE settings (key TEXT)")
    made["another application id"] = (appid, "another program")
    broken = tmp_path / "broken-game.sqlite"
    broken.write_bytes(good.read_bytes())
    with closing(sqlite3.connect(broken, isolation_level=None)) as db:
        db.execute("UPDATE games SET save = '{\"format\": \"gridwidgets\", \"moves\": [\"Z9\"]' WHERE id = 1")
    made["a corrupt saved game"] = (broken, "game 1")
    return made


def _content(path: Path) -> object:
    """What a file holds: its rows if SQLite reads it (a checkpoint may move bytes, not rows), else its bytes."""
    if not path.is_file():
        return None
    try:
        with closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
            return list(db.iterdump())
    except sqlite3.DatabaseError:
        return path.read_bytes()


def test_every_bad_database_file_is_refused_by_name_and_left_as_it_was(tmp_path):
    for what, (path, word) in _bad_files(tmp_path).items():
        before = _content(path)
        with pytest.raises(StoreError) as err:
            Rooms(Store(path))
        message = str(err.value)
        assert str(path) in message and word in message, f"{what}: {message}"
        assert "\n" not in message and len(message) < 400, what
        assert ("--db" in message or "upgrade" in message or "backup" in message), f"{what}: says what to do"
        assert _content(path) == before, f"{what}: the file was changed"


def test_a_missing_folder_is_named(tmp_path):
    with pytest.raises(StoreError, match="does not exist"):
        Store(tmp_path / "no-such-folder" / "class.sqlite")


def test_the_command_says_one_line_for_a_bad_file_and_starts_no_class(tmp_path):
    files = _bad_files(tmp_path)
    for what in ("random bytes", "0 bytes", "another program's", "a folder", "a corrupt saved game"):
        path, word = files[what]
        run = subprocess.run([sys.executable, "-m", "gridwidgets", "classroom", "--rooms", "--db", str(path),
                              "--port", "1", "--no-browser"], capture_output=True, text=True, timeout=120, cwd=REPO)
        lines = [line for line in run.stderr.splitlines() if line.strip()]
        assert run.returncode == 2, f"{what}: {run.stderr[-400:]}"
        assert len(lines) == 1 and word in lines[0] and str(path) in lines[0], f"{what}: {run.stderr[-400:]}"
        assert "Traceback" not in run.stderr and "students open" not in run.stdout


def test_a_class_of_the_first_schema_is_read_and_upgraded(tmp_path):
    path = tmp_path / "v1.sqlite"
    with sqlite3.connect(path) as db:  # the first version's tables, as it wrote them
        db.executescript("""
            CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE rooms (code TEXT PRIMARY KEY, game TEXT NOT NULL, board TEXT NOT NULL,
                pairing TEXT NOT NULL, agent TEXT NOT NULL, teacher_token TEXT NOT NULL,
                paused INTEGER NOT NULL DEFAULT 0, round INTEGER NOT NULL DEFAULT 1, created REAL NOT NULL);
            CREATE TABLE seats (token TEXT PRIMARY KEY, room TEXT NOT NULL REFERENCES rooms(code),
                name TEXT NOT NULL, joined REAL NOT NULL);
            CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, room TEXT NOT NULL REFERENCES rooms(code),
                round INTEGER NOT NULL, players TEXT NOT NULL, save TEXT NOT NULL,
                pending TEXT NOT NULL DEFAULT '{}', updated REAL NOT NULL);
        """)
        from gridwidgets import Gridlock

        g = Gridlock()
        g.play("B2")
        db.execute("INSERT INTO settings VALUES ('teacher_token', 'T0KEN-of-the-first-version')")
        db.execute("INSERT INTO rooms VALUES ('ABCDE', 'gridlock', '4x4', 'arrival', 'random', "
                   "'T0KEN-of-the-first-version', 0, 1, 1.0)")
        db.execute("INSERT INTO seats VALUES ('ann-token', 'ABCDE', 'Ann', 1.0), ('bob-token', 'ABCDE', 'Bob', 2.0)")
        db.execute("INSERT INTO games (room, round, players, save, updated) VALUES "
                   "('ABCDE', 1, '[\"ann-token\", \"bob-token\"]', ?, 3.0)", (g.to_json(indent=None),))
    rooms = Rooms(Store(path))
    room = rooms.room("ABCDE")
    assert rooms.teacher_token == "T0KEN-of-the-first-version" and not room.closed
    assert [str(m) for m in room.game_of("bob-token")[0].game.history] == ["B2"]
    room.play("bob-token", "D4")
    room.remove_seat(rooms.teacher_token, "ann-token")  # the new columns work
    rooms.store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.execute("PRAGMA application_id").fetchone()[0] != 0
    again = Rooms(Store(path)).room("ABCDE")
    rg = again.game_of("bob-token")[0]
    assert "ann-token" in again.former and rg.handed == {0} and len(rg.game.history) == 2
    assert rg.started == 0.0 and rg.updated > 3.0  # schema 5's column: the start unknown; saved since
    assert again.seats["bob-token"].student_id == ""  # schema 3's column, empty for the seats before it
    cy = again.join("Cy", student_id="s-1234")
    assert Rooms(Store(path)).room("ABCDE").seats[cy.token].student_id == "s-1234"


_CRASH = """
import sys, time
from gridwidgets.rooms import Rooms, Store
rooms = Rooms(Store(sys.argv[1]))
room = rooms.create("gridlock")
ann, bob = room.join("Ann"), room.join("Bob")
room.play(ann.token, "B2")
print("written", flush=True)
time.sleep(120)
"""


def test_after_a_crash_the_next_start_folds_the_wal_back_into_the_one_file(tmp_path):
    path = tmp_path / "class.sqlite"
    proc = subprocess.Popen([sys.executable, "-c", _CRASH, str(path)], stdout=subprocess.PIPE, text=True, cwd=REPO)
    try:
        assert proc.stdout.readline().strip() == "written"
        wal = Path(str(path) + "-wal")
        assert wal.exists() and wal.stat().st_size > 0  # the class is in the -wal file
    finally:
        os.kill(proc.pid, signal.SIGKILL)  # a crash: nothing cleans up
        proc.wait(timeout=30)
    store = Store(path)  # the next start
    try:
        alone = tmp_path / "copied.sqlite"
        alone.write_bytes(path.read_bytes())  # a teacher copies the one file the docs name
        assert {"rooms", "seats", "games"} <= _tables(alone)
        with sqlite3.connect(alone) as db:
            assert db.execute("SELECT COUNT(*) FROM seats").fetchone()[0] == 2
    finally:
        store.close()
    assert not Path(str(path) + "-wal").exists() or Path(str(path) + "-wal").stat().st_size == 0


def test_a_clean_stop_leaves_one_file_with_everything(tmp_path):
    path = tmp_path / "class.sqlite"
    rooms = Rooms(Store(path))
    room = rooms.create("blockfour")
    x, _o = room.join("X"), room.join("O")
    room.play(x.token, room.game_of(x.token)[0].game.legal_moves(0)[0])  # a hidden bid, pending
    rooms.store.close()
    alone = tmp_path / "alone.sqlite"
    alone.write_bytes(path.read_bytes())
    again = Rooms(Store(alone))
    assert again.room(room.code).game_of(x.token)[0].game.pending == (0,)


def test_backup_writes_one_consistent_file_while_the_class_goes_on(tmp_path):
    path = tmp_path / "class.sqlite"
    rooms = Rooms(Store(path))
    room = rooms.create("gridlock", "6x6")
    seats = [room.join(f"S{k}") for k in range(6)]
    copy = tmp_path / "backup.sqlite"
    moves = 0
    for rg in room.games:  # a class in progress, nothing checkpointed since the start
        for _ in range(5):
            room.play(rg.players[rg.game.current_player], str(rg.game.legal_moves()[0]))
            moves += 1
    run = subprocess.run([sys.executable, "-m", "gridwidgets", "classroom", "--backup", str(copy), "--db",
                          str(path)], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert run.returncode == 0, run.stderr
    assert str(copy) in run.stdout
    assert not Path(str(copy) + "-wal").exists()
    restored = Rooms(Store(copy)).room(room.code)
    assert sorted(restored.seats) == sorted(s.token for s in seats)
    assert [g.game.to_json() for g in restored.games] == [g.game.to_json() for g in room.games]
    assert sum(len(g.game.history) for g in restored.games) == moves
    with pytest.raises(StoreError, match="itself"):
        backup(path, path)
    run = subprocess.run([sys.executable, "-m", "gridwidgets", "classroom", "--backup", str(copy), "--db",
                          str(tmp_path / "nope.sqlite")], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert run.returncode == 2 and "does not exist" in run.stderr and "Traceback" not in run.stderr
    rooms.store.close()


def test_the_store_checkpoints_while_a_class_writes(tmp_path, monkeypatch):
    from gridwidgets.rooms import store as store_module

    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 0.0)
    path = tmp_path / "class.sqlite"
    rooms = Rooms(Store(path))
    room = rooms.create("gridlock")
    room.join("Ann")
    room.join("Bob")
    alone = tmp_path / "alone.sqlite"
    alone.write_bytes(path.read_bytes())  # copied mid-class, without the -wal file
    with sqlite3.connect(alone) as db:
        assert db.execute("SELECT COUNT(*) FROM seats").fetchone()[0] >= 1
    rooms.store.close()


def test_a_schema_5_class_keeps_its_rounds_counted_from_one_and_its_seats_get_codes(tmp_path):
    """Schema 5 opened a round pairing's room in round 1 and played its first round as round 2: read back, the
    first round played is round 1 (a room that played a round 1 keeps its numbers); every seat gets a seat code."""
    path = tmp_path / "v5.sqlite"
    rooms = Rooms(Store(path))
    rr = rooms.create("gridlock", pairing="round-robin")
    early = rooms.create("gridlock", pairing="swiss")
    idle = rooms.create("gridlock", pairing="swiss")
    arrival = rooms.create("gridlock")
    for room in (rr, early, arrival):
        room.join("Ann"), room.join("Bob")
    early.fill_with_agents(early.teacher_token)  # a game in round 1 before any round: its numbers stay
    for _ in range(2):
        rr.next_round(rr.teacher_token)
    early.next_round(early.teacher_token)
    arrival.next_round(arrival.teacher_token)
    rooms.store.close()
    with sqlite3.connect(path) as db:  # written as schema 5 did: one round more, no seat codes
        db.execute("UPDATE rooms SET round = round + 1 WHERE code IN (?, ?)", (rr.code, idle.code))
        db.execute("UPDATE games SET round = round + 1 WHERE room = ?", (rr.code,))
        db.execute("ALTER TABLE seats DROP COLUMN reclaim")
        db.execute("ALTER TABLE rooms DROP COLUMN projector_names")
        db.execute("ALTER TABLE polls DROP COLUMN live")
        db.execute("PRAGMA user_version=5")
    again = Rooms(Store(path))
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    got = {r.code: (r.round, sorted(rg.round for rg in r.games)) for r in again.rooms()}
    assert got[rr.code] == (2, [1, 2])
    assert got[early.code] == (2, [1, 2])
    assert got[idle.code] == (0, [])
    assert got[arrival.code] == (2, [1, 2])
    codes = [s.reclaim for r in again.rooms() for s in r.seats.values()]
    assert len(codes) == 6 and all(len(c) == 6 for c in codes)
    ann = next(iter(again.room(rr.code).seats.values()))
    assert again.room(rr.code).reclaim(ann.reclaim) == ann
