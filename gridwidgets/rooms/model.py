"""Rooms of a class: students on their own devices, seated in games by the
room's pairing, each game one shared :class:`~gridwidgets.core.Game` object
(its own lock serialises moves from several pages and agents), every change
written to the :class:`~gridwidgets.rooms.store.Store` before any page hears
of it (the store's observer is the game's first).

A teacher makes a room (:meth:`Rooms.create`: game, board, pairing, the agent
for a student without an opponent) and gets its code and a teacher token; a
student joins with the code and a display name (:meth:`Room.join`) and gets a
seat token, the only key to their seat. Pairings (:data:`PAIRINGS`):

- ``"arrival"``: students are seated in the order they arrive, a game as
  soon as it has its players (two, or as many as the game seats); the first
  to arrive is player 0.
- ``"round-robin"``: nobody plays until the teacher starts a round
  (:meth:`Room.next_round`); each round pairs everyone by the circle method,
  so over ``n - 1`` rounds (``n`` even) everyone meets everyone once; a late
  joiner fits in with no rematch while a fresh pairing exists
  (:func:`~gridwidgets.rooms.pairing.round_robin`; games of more players: the
  seating turns one place a round). The first round played is round 1 (the
  room is in round 0 until then).
- ``"swiss"``: nobody plays until the teacher starts a round; each round
  pairs students in order of points, each meeting the best placed opponent
  not met before that still lets everyone else be paired (a depth-first
  search within :data:`~gridwidgets.rooms.pairing.SWISS_TRIES` tries; else the nearest in points,
  rematches allowed); of a pair, the one who moved first less often moves
  first; with an odd count the lowest placed student who has not played
  the agent yet plays it (two-player games; with more players a game it
  seats students in order of points).
- ``"agent"``: each student plays the room's agent (every other seat), as player 0.

Seats left over in a round go to the agent; the teacher can also start the
students still waiting with agents on the empty seats (:meth:`Room.fill_with_agents`).
A group that met before gets the seats it had least often (a pair swaps
colours from one round to the next).

The teacher runs the class: renames or removes a seat, and undoes a removal
(:meth:`Room.rename_seat`, :meth:`Room.remove_seat`, :meth:`Room.restore_seat`),
hands a player of a game to the agent at any time and gives it back
(:meth:`Room.hand_to_agent`, :meth:`Room.give_back`; a game the agent finishes
in a student's seat is the agent's result, not the student's), chooses
whether the projector names students or their seats
(:meth:`Room.set_projector_names`: ``"Seat 3"`` by default), and ends the
class (:meth:`Rooms.end_class`: the rooms close, the teacher token and every
teacher's session stop working). The teacher's page holds no token: the token
is exchanged once for a session (:meth:`Rooms.open_session`), and each action
asks for the token through it (:meth:`Rooms.teacher_key`).

Every change of a room is pushed to the pages: :meth:`Room.changed` notifies
the room's :class:`Changes` (and every room's, :attr:`Rooms.changes`), on
which each page's thread waits; a teacher's action sets a state (Pause and
Resume, :meth:`Room.set_paused`) rather than toggling one.

Joining is rate-limited per device address and per room (:data:`JOIN_LIMITS`),
and display names follow :mod:`gridwidgets.rooms.names` (no two alike in a room).
A class may have a class list (:attr:`Rooms.roster`: names and ids, from an
LMS's CSV file, :meth:`Rooms.import_roster`, or the JupyterHub's users,
:meth:`Rooms.set_roster`): a student then joins by picking their name, and the
seat takes its id from the list (:meth:`Room.join`); nobody types an id.
A seat is also given a short seat code (:attr:`Seat.reclaim`, ``K7Q-4M``),
shown to the student and the teacher: with it a student gets the same seat
back on another device (:meth:`Room.reclaim`; wrong codes are limited,
:data:`RECLAIM_LIMITS`), so their record stays one.

:class:`Room` keeps the lock, the seats and the games; what it does with them
lives beside it: who meets whom is :mod:`gridwidgets.rooms.pairing` (pure
functions), a poll's life :mod:`gridwidgets.rooms.polls`, an exercise set's
:mod:`gridwidgets.rooms.classwork`, and every CSV file
:mod:`gridwidgets.rooms.exports`. ``Room``'s methods of the same names check
the teacher's token or the seat and call them.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import shorten
from ..core.game import Game
from . import classwork, openings, pairing, polls
from .classwork import Assignment
from .names import MAX_NAME, clean_name, clean_student_id, look_alike
from .pairing import AGENT, PAIRINGS, ROUND_PAIRINGS
from .polls import Poll
from .roster import ROSTER_SOURCES, RosterEntry, RosterFile, check_roster, read_roster
from .store import Store, StoreError

__all__ = ["AGENT", "CODE_ALPHABET", "JOIN_LIMITS", "MAX_NAME", "PAIRINGS", "PROJECTOR_NAMES", "RECLAIM_LENGTH",
           "RECLAIM_LIMITS", "ROUND_PAIRINGS", "Assignment", "Changes", "ClassList", "Room", "RoomError", "RoomGame",
           "Rooms", "RosterEntry", "Seat"]

#: the letters of a room code: no 0/O, 1/I/L, easy to read aloud and type
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: the most seats a room holds (a page joining again and again fills no disk)
MAX_SEATS = 400
#: joins allowed, as (burst, seconds per join after the burst): from one device
#: address, and into one room (a class of 60 joins at once; a script cannot fill a room)
JOIN_LIMITS = {"address": (8, 10.0), "room": (60, 1.0)}
#: who the projector names (:attr:`Room.projector_names`): a seat's number (``"Seat 3"``, the default: a
#: shared screen ranks nobody by name) or the student's display name (the teacher's choice)
PROJECTOR_NAMES = ("seat", "name")
#: the letters of a seat code (:attr:`Seat.reclaim`, from :data:`CODE_ALPHABET`): 31**6, about 8.9e8 codes
RECLAIM_LENGTH = 6
#: wrong seat codes allowed (:meth:`Room.reclaim`), as (burst, seconds per try after the burst): from one device
#: address, and into one room. Past them every try is refused before any code is compared, so a room of 60 seats
#: takes at most about 2,900 guesses a day: one chance in about 5,000 a day of hitting any of its seats' codes
RECLAIM_LIMITS = {"address": (5, 60.0), "room": (20, 30.0)}


class RoomError(PermissionError):
    """A page asked for what its token does not allow: an unknown room or
    seat, another seat's move, the teacher's actions without the teacher's
    token, a move while the room is paused or closed, joins too fast. Nothing
    changed."""


class _Bucket:
    """A token bucket: ``burst`` at once, then one per ``every`` seconds."""

    __slots__ = ("burst", "every", "level", "stamp")

    def __init__(self, burst: int, every: float) -> None:
        self.burst, self.every = burst, every
        self.level, self.stamp = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(float(self.burst), self.level + (now - self.stamp) / self.every)
        self.stamp = now
        if self.level < 1.0:
            return False
        self.level -= 1.0
        return True

    def ready(self) -> bool:
        """Whether :meth:`take` would succeed now (nothing is taken)."""
        return min(float(self.burst), self.level + (time.monotonic() - self.stamp) / self.every) >= 1.0

    def full(self) -> bool:
        return self.level + (time.monotonic() - self.stamp) / self.every >= self.burst


class Changes:
    """A change signal: a counter and a condition. :meth:`notify` counts a
    change and wakes every waiter at once; :meth:`wait` blocks until the count
    differs from what the waiter last saw (or ``timeout`` seconds pass).

    The condition's lock is held only to read or bump the counter: a waiter
    calls nothing while holding it, so no page can hold up the notifier (a
    change of a room, made under the room's lock), and the notifier calls
    into no page (``notify_all`` only)."""

    __slots__ = ("_cond", "count")

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        #: how many changes so far
        self.count = 0

    def notify(self) -> None:
        """Count a change and wake every waiter."""
        with self._cond:
            self.count += 1
            self._cond.notify_all()

    def wait(self, last: int, timeout: float | None = None) -> int:
        """Block until the count is not ``last`` or ``timeout`` seconds passed; return the count."""
        with self._cond:
            self._cond.wait_for(lambda: self.count != last, timeout)
            return self.count


@dataclass
class ClassList:
    """The class list every room of a server shares (:attr:`Rooms.class_list`).

    Attributes:
        entries: the students (display name and id), in the list's order; empty: no class list.
        source: where it came from, one of :data:`~gridwidgets.rooms.roster.ROSTER_SOURCES` (``""``: none).
        typed_joins: whether a student whose name is not on the list may type it
            (joining with no id); off unless the teacher turns it on.
    """

    entries: tuple[RosterEntry, ...] = ()
    source: str = ""
    typed_joins: bool = False

    def by_name(self, name: str) -> RosterEntry | None:
        """The entry called exactly ``name``, or ``None``."""
        return next((e for e in self.entries if e.name == name), None)

    def by_id(self, student_id: str) -> RosterEntry | None:
        """The entry with id ``student_id``, or ``None``."""
        return next((e for e in self.entries if e.student_id == student_id), None)


@dataclass(frozen=True)
class Seat:
    """A student in a room.

    Attributes:
        token: the seat token (secret: the only key to this seat).
        name: the display name.
        room: the room's code.
        student_id: what the student gave at join for grades (``""``: none).
        reclaim: the seat code, :data:`RECLAIM_LENGTH` letters of
            :data:`CODE_ALPHABET`, unique in the room: shown to the student at
            joining (and to the teacher), it gets the seat back on another
            device (:meth:`Room.reclaim`). Secret too, but short: guesses are
            limited (:data:`RECLAIM_LIMITS`).
    """

    token: str
    name: str
    room: str
    student_id: str = ""
    reclaim: str = ""

    @property
    def reclaim_text(self) -> str:
        """The seat code as people read it: ``"K7Q-4M"``."""
        return f"{self.reclaim[:3]}-{self.reclaim[3:]}" if self.reclaim else ""


@dataclass
class RoomGame:
    """One game of a room.

    Attributes:
        id: its id in the store.
        round: the round it belongs to (from 1).
        players: per player id, the seat token, or :data:`AGENT`.
        game: the game itself (the one object every page of it shows).
        agent: the agent playing the :data:`AGENT` seats and the handed ones, if any.
        handed: the player ids the teacher handed to the agent (their seats
            stay in ``players``: the results still name them).
        started: when the game started (seconds since the epoch, the store's
            clock); 0 for a game written before the store kept it (unknown).
        updated: when it was last saved (seconds since the epoch): a
            finished game's end.
    """

    id: int
    round: int
    players: list[str]
    game: Game
    agent: Any = None
    handed: set[int] = field(default_factory=set)
    started: float = 0.0
    updated: float = 0.0

    def students(self) -> set[int]:
        """The player ids of this game played by students (not by the agent, nor handed to it)."""
        return {p for p, t in enumerate(self.players) if t != AGENT and p not in self.handed}

    def agent_players(self) -> set[int]:
        """The player ids of this game the agent plays."""
        return set(range(len(self.players))) - self.students()

    def player_of(self, token: str) -> int | None:
        """The player id ``token`` holds in this game, or ``None``."""
        return self.players.index(token) if token in self.players else None

    def points(self) -> list[float] | None:
        """Each player's points in this game once it is over (1 a win, 1/2 a
        draw or shared win, 0 a loss), read under the game's lock; ``None``
        while it goes on."""
        with self.game.lock:
            if not self.game.is_over:
                return None
            winners = tuple(self.game.winners)
        return [1.0 if winners == (p,) else 0.5 if p in winners else 0.0 for p in range(len(self.players))]


@dataclass
class Room:
    """A room: its choices, its seats and its games (made by :class:`Rooms`)."""

    code: str
    game_name: str
    board: str
    pairing: str
    agent_kind: str
    teacher_token: str
    store: Store = field(repr=False)
    paused: bool = False
    #: the round being played (from 1); 0 in a round pairing's room before the teacher starts round 1
    round: int = 1
    closed: bool = False
    seats: dict[str, Seat] = field(default_factory=dict)
    #: the seats the teacher removed (their games still name them)
    former: dict[str, Seat] = field(default_factory=dict)
    games: list[RoomGame] = field(default_factory=list)
    #: counts every change of the room and its games (pages compare it to redraw)
    version: int = 0
    #: held for every change of the room (a game's lock is taken first where both are: :meth:`ask_undo`)
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    #: per game id: the game's version when undo was first asked, and who asked
    _undo_asks: dict[int, tuple[int, set[str]]] = field(default_factory=dict, repr=False)
    _joins: _Bucket = field(default_factory=lambda: _Bucket(*JOIN_LIMITS["room"]), repr=False)
    #: wrong seat codes: the room's, and per device address (:data:`RECLAIM_LIMITS`)
    _wrong: _Bucket = field(default_factory=lambda: _Bucket(*RECLAIM_LIMITS["room"]), repr=False)
    _wrong_from: dict[str, _Bucket] = field(default_factory=dict, repr=False)
    #: called after every change of the room or its games (the server wakes its agents)
    on_change: Callable[[], None] = field(default=lambda: None, repr=False)
    #: notified at every change of the room or its games: each page of the room waits on it (a push, no timer)
    changes: Changes = field(default_factory=Changes, repr=False)
    #: the signal of every room of the server (:attr:`Rooms.changes`), notified too
    class_changes: Changes | None = field(default=None, repr=False)
    #: per removed seat token, the games its removal handed to the agent (what :meth:`restore_seat` gives back)
    _removal_handed: dict[str, set[int]] = field(default_factory=dict, repr=False)
    #: the class polls asked in this room, oldest first (:mod:`gridwidgets.rooms.polls`)
    polls: list[Poll] = field(default_factory=list)
    #: the exercise sets given to this room, oldest first (the last one not ended is on the screens)
    assignments: list[Assignment] = field(default_factory=list)
    #: who the projector's standings, results and game captions name: one of :data:`PROJECTOR_NAMES`
    projector_names: str = "seat"
    #: every seat token in the order it joined (removed seats too): a seat's number is its place here, plus 1
    arrivals: list[str] = field(default_factory=list, repr=False)
    #: the game whose replay the projector shows (its id; 0: none): :meth:`project_replay` (not stored)
    projected_replay: int = 0
    #: the class list, the same object in every room of a server (:attr:`Rooms.class_list`)
    class_list: ClassList = field(default_factory=ClassList, repr=False)

    @property
    def players_per_game(self) -> int:
        """How many players a game of this room seats (the game's and board's)."""
        n = getattr(self, "_players_per_game", None)
        if n is None:
            from ..menu import start_game

            n = self._players_per_game = len(start_game(self.game_name, self.board).players)
        return n

    def changed(self) -> None:
        """Count a change of the room or its games, wake every page waiting on
        :attr:`changes` (and :attr:`class_changes`) and tell :attr:`on_change`
        (the caller holds :attr:`lock`; no page is called from here)."""
        self.version += 1
        self.changes.notify()
        if self.class_changes is not None:
            self.class_changes.notify()
        self.on_change()

    # -- students ------------------------------------------------------------
    def join(self, name: str, *, address: str | None = None, limiter: Callable[[str], bool] | None = None,
             student_id: str = "") -> Seat:
        """Seat a student; with ``"arrival"`` or ``"agent"`` pairing, start their
        game as soon as it has its players (:attr:`players_per_game` students,
        or the student and the agent on every other seat).

        Args:
            name: the display name (:func:`~gridwidgets.rooms.names.clean_name`).
            address: the device's network address, for the per-device limit.
            limiter: ``limiter(address)`` is False when that address joined too
                often (:meth:`Rooms.join_allowed`).
            student_id: an id for grades, optional
                (:func:`~gridwidgets.rooms.names.clean_student_id`); the
                standings' CSV carries it, the pages never show it.

        With a class list (:attr:`class_list`), ``name`` is a name on it and
        the seat's id is the list's for that name (no id is typed); or, given
        ``student_id`` (a server that knows who logged in, such as the hub's),
        the entry with that id is seated under the list's name for it. A name
        not on the list is refused unless the teacher allows typed names
        (:meth:`Rooms.set_typed_joins`; such a seat has no id).

        Raises:
            ValueError: for a name that breaks :mod:`~gridwidgets.rooms.names`'
                rules, or looks like a name already in this room (the message
                points a returning student to their seat code,
                :meth:`reclaim`); for a student id that is too long or has
                other characters; with a class list, a name or id not on it
                (unless typed names are allowed: then a name that looks like
                one on the list), or a student of the list already seated in
                this room (pointed to their seat code).
            RoomError: the room is closed or full (``MAX_SEATS``, 400), or
                joins come too fast (:data:`JOIN_LIMITS`).
        """
        name, student_id = clean_name(name), clean_student_id(student_id)
        with self.lock:
            if self.closed:
                raise RoomError("this room is closed: the class has ended")
            if len(self.seats) >= MAX_SEATS:
                raise RoomError(f"this room is full ({MAX_SEATS} seats): ask the teacher for another room")
            if self.class_list.entries:
                name, student_id = self._listed(name, student_id)
            taken = look_alike(name, (s.name for s in self.seats.values()))
            if taken is not None:
                raise ValueError(f"That name is taken in this room: a student is already called {taken!r}. If it is "
                                 "yours, use your seat code to get your seat back (I have a seat code); if not, add "
                                 "an initial or a surname.")
            if address is not None and limiter is not None and not limiter(address):
                raise RoomError("too many joins from this device: wait a minute, then try again")
            if not self._joins.take():
                raise RoomError("too many students are joining at once: wait a few seconds, then try again")
            seat = Seat(secrets.token_urlsafe(16), name, self.code, student_id, self._new_reclaim())
            self.store.add_seat(seat.token, self.code, name, student_id, seat.reclaim)
            self.seats[seat.token] = seat
            self.arrivals.append(seat.token)
            self.changed()
            n = self.players_per_game
            if self.pairing == "agent":
                self._new_game([seat.token] + [AGENT] * (n - 1))
            elif self.pairing == "arrival":
                waiting = self._waiting()
                if len(waiting) >= n:
                    self._new_game(waiting[:n])
            return seat

    def seat_of_student(self, student_id: str) -> Seat | None:
        """The seat in this room (not a removed one) whose student id is
        ``student_id``, the oldest if several; ``None`` for none or ``""``.
        Under a hub the student id is the hub user: the same user on any
        device finds their seat here before :meth:`join` (hold :attr:`lock`
        around both, so two devices at once make one seat)."""
        if not student_id:
            return None
        with self.lock:
            for token in self.arrivals:
                seat = self.seats.get(token)
                if seat is not None and seat.student_id == student_id:
                    return seat
        return None

    def _listed(self, name: str, student_id: str) -> tuple[str, str]:
        """``(name, id)`` of a join with a class list (:meth:`join`'s rules), checked under the room's lock."""
        listed = self.class_list
        entry = listed.by_id(student_id) if student_id else listed.by_name(name)
        if entry is None:
            if student_id or not listed.typed_joins:
                raise ValueError("That name is not on the class list: pick yours from the list. If it is missing, "
                                 "ask your teacher.")
            alike = look_alike(name, (e.name for e in listed.entries))
            if alike is not None:
                raise ValueError(f"{alike!r} is on the class list: if that is you, pick it from the list; if not, "
                                 "add an initial or a surname.")
            return name, ""
        if any(s.student_id == entry.student_id for s in self.seats.values()):
            raise ValueError(f"{entry.name} already has a seat in this room. If it is yours, use your seat code to "
                             "get it back (I have a seat code); if not, pick your own name.")
        return entry.name, entry.student_id

    def roster_seated(self) -> tuple[list[RosterEntry], list[RosterEntry]]:
        """The class list split in two for this room: the students seated here
        (a seat with their id), and those not, each in the list's order."""
        with self.lock:
            here = {s.student_id for s in self.seats.values() if s.student_id}
        entries = self.class_list.entries
        return [e for e in entries if e.student_id in here], [e for e in entries if e.student_id not in here]

    def reclaim(self, code_text: str, *, address: str | None = None,
                limiter: Callable[[str], bool] | None = None) -> Seat:
        """The seat whose code is ``code_text`` (:attr:`Seat.reclaim`; any
        case, spaces and dashes ignored): a student on another device gets
        their seat back, the same seat and token, so their games, answers and
        results stay one record.

        Every try counts as a join (``limiter(address)``, then the room's
        join limit); a wrong code also counts against :data:`RECLAIM_LIMITS`,
        and past them every try is refused before any code is compared. The
        codes are compared in constant time, every seat's each time.

        Args:
            code_text: the seat code as typed (``"K7Q-4M"``, ``"k7q4m"`` is too short).
            address: the device's network address, for the per-device limits.
            limiter: ``limiter(address)`` is False when that address joined too
                often (:meth:`Rooms.join_allowed`).

        Raises:
            ValueError: text that cannot be a seat code (its length or letters; not counted as a wrong code).
            RoomError: the room closed, tries too fast or too many wrong codes,
                no seat with that code, or the seat removed by the teacher.
        """
        key = "".join(ch for ch in code_text[:40].upper() if ch.isalnum()) if isinstance(code_text, str) else ""
        if len(key) != RECLAIM_LENGTH or any(ch not in CODE_ALPHABET for ch in key):
            raise ValueError(f"a seat code is {RECLAIM_LENGTH} letters and digits, like K7Q-4M (no 0, 1, I, L "
                             "or O): check it with your teacher")
        with self.lock:
            if self.closed:
                raise RoomError("this room is closed: the class has ended")
            if address is not None and limiter is not None and not limiter(address):
                raise RoomError("too many tries from this device: wait a minute, then try again")
            mine = self._wrong_bucket(address)
            if not self._wrong.ready() or (mine is not None and not mine.ready()):
                raise RoomError("too many wrong seat codes: wait a few minutes, or ask your teacher")
            if not self._joins.take():
                raise RoomError("too many students are joining at once: wait a few seconds, then try again")
            found = None
            given = key.encode("ascii")
            for seat in [*self.seats.values(), *self.former.values()]:  # every one: the time says nothing
                if secrets.compare_digest(seat.reclaim.encode("ascii", "replace").ljust(RECLAIM_LENGTH), given):
                    found = seat
            if found is None:
                self._wrong.take()
                if mine is not None:
                    mine.take()
                raise RoomError("no seat in this room has that code: check it, or ask your teacher to read it "
                                "from your seat")
            if found.token not in self.seats:
                raise RoomError("the teacher took this seat out of the room: join again if the teacher asks you to")
            return found

    def _wrong_bucket(self, address: str | None) -> _Bucket | None:
        if address is None:
            return None
        bucket = self._wrong_from.get(address)
        if bucket is None:
            if len(self._wrong_from) > 10_000:  # forget the devices that have waited long enough
                self._wrong_from = {a: b for a, b in self._wrong_from.items() if not b.full()}
            bucket = self._wrong_from[address] = _Bucket(*RECLAIM_LIMITS["address"])
        return bucket

    def _new_reclaim(self) -> str:
        """A seat code no seat of this room has (nor a removed one)."""
        taken = {s.reclaim for s in (*self.seats.values(), *self.former.values())}
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(RECLAIM_LENGTH))
            if code not in taken:
                return code

    def waiting(self) -> list[Seat]:
        """The seats without a game in this round, in arrival order."""
        with self.lock:
            return [self.seats[t] for t in self._waiting()]

    def round_progress(self) -> tuple[int, int]:
        """``(over, games)``: how many of this round's games are over, of how
        many. The lesson plans start the next round when nine in ten are over
        (docs/lessons.md): a round waits longest for its slowest pair."""
        with self.lock:
            games = [rg for rg in self.games if rg.round == self.round]
        # without the games' locks: one attribute read each (a game ending meanwhile is counted at the
        # change that follows), so the teacher's page never waits for the moves being written
        over = sum(rg.game.is_over for rg in games)
        return over, len(games)

    def _waiting(self) -> list[str]:
        busy = {t for g in self.games if g.round == self.round for t in g.players}
        return [t for t in self.seats if t not in busy]

    def seat(self, token: str) -> Seat:
        """The seat of ``token``.

        Raises:
            RoomError: for a token that holds no seat in this room.
        """
        seat = self.seats.get(token) if isinstance(token, str) else None
        if seat is None:
            raise RoomError("no seat in this room for that token")
        return seat

    def game_of(self, token: str) -> tuple[RoomGame, int]:
        """The game ``token`` plays in this round, and its player id there.

        Raises:
            RoomError: for an unknown token, or a seat with no game yet.
        """
        self.seat(token)
        with self.lock:
            for g in reversed(self.games):
                p = g.player_of(token)
                if p is not None and g.round == self.round:
                    return g, p
        raise RoomError("this seat has no game yet: wait for an opponent or the next round")

    def _check_name_free(self, name: str, but: str | None = None) -> None:
        """Raise ValueError if ``name`` looks like a name in this room (but the seat ``but``'s)."""
        taken = look_alike(name, (s.name for t, s in self.seats.items() if t != but))
        if taken is not None:
            raise ValueError(f"a student in this room is already called {taken!r}, which looks the same: "
                             "add an initial or a surname")

    def _check_not_closed(self) -> None:
        if self.closed:
            raise RoomError("the class has ended: this room is closed")

    def check_can_move(self, rg: RoomGame, player: int) -> None:
        """Raise :class:`RoomError` unless the student of ``player`` in ``rg`` may
        act now: the room open and not paused, the seat not handed to the agent
        (whose turn it is, the game decides)."""
        self._check_not_closed()
        if self.paused:
            raise RoomError("the room is paused: moves are refused until the teacher resumes it")
        if player in rg.handed:
            raise RoomError("the agent plays this seat now: the teacher handed it over")

    def play(self, token: str, move: Any) -> Any:
        """Play ``move`` for the seat of ``token`` in its game (the same
        ``play()`` a click goes through; the store has the move before this
        returns).

        Raises:
            RoomError: an unknown seat, no game yet, the room paused or closed,
                the seat handed to the agent, or not this seat's turn.
            IllegalMoveError: a move the rules refuse (nothing changed).
        """
        rg, p = self.game_of(token)
        self.check_can_move(rg, p)
        g = rg.game
        with g.lock:
            if p not in g.players_to_move:
                raise RoomError(f"it is not {g.player_label(p)}'s turn")
            return g.play(move, player=p)

    def view(self, token: str) -> Game:
        """The position as the seat of ``token`` may see it (``view_for``: no
        other player's hidden submission)."""
        rg, p = self.game_of(token)
        return rg.game.view_for(p)

    # -- the teacher ---------------------------------------------------------
    def check_teacher(self, token: str) -> None:
        """Raise :class:`RoomError` unless ``token`` is this room's teacher token."""
        if not _same_token(token, self.teacher_token):
            raise RoomError("only the teacher may do that")

    def set_paused(self, teacher_token: str, paused: bool) -> None:
        """Pause (``paused=True``) or resume the room (moves refused while
        paused). Sets a state, never toggles: asking twice for the same state
        leaves it so (nothing written, no change counted the second time).

        Raises:
            RoomError: without the teacher token.
            ValueError: ``paused`` not ``True`` or ``False`` (``"no"`` would pause).
        """
        self.check_teacher(teacher_token)
        if not isinstance(paused, bool):
            raise ValueError(f"paused is True or False, not {shorten(paused, 24)}")
        with self.lock:
            if self.paused == bool(paused):
                return
            self.paused = bool(paused)
            self.save()
            self.changed()

    def save(self) -> None:
        """Write the room's own state (paused, round, closed) to the store."""
        self.store.set_room(self.code, paused=self.paused, round=self.round, closed=self.closed)

    def next_round(self, teacher_token: str) -> list[RoomGame]:
        """Start the next round: every seated student gets a new game (by the
        room's pairing; seats left over in the last game go to the agent);
        return the new games. Round robin pairs two-player games by the circle
        method; for games of more players it turns the seating one place a round.
        A group that met before gets the seats it had least often (a pair swaps
        colours), whatever the pairing.

        Raises:
            RoomError: without the teacher token, or the room closed.
        """
        self.check_teacher(teacher_token)
        # the points before the room's lock: a game's lock is never taken under the room's (the other
        # order is the rule: ask_undo holds a game's, then the room's)
        points = self.points() if self.pairing == "swiss" else {}
        with self.lock:
            self._check_not_closed()
            self.round += 1
            self.save()
            self.changed()
            groups = pairing.round_groups(self.pairing, list(self.seats), self.players_per_game, self.round,
                                          self.played(), points)
            return [self._new_game(group) for group in groups]

    def played(self) -> list[list[str]]:
        """The players of every game of the room so far, oldest first (what pairing reads)."""
        return [list(rg.players) for rg in self.games]

    def points(self) -> dict[str, float]:
        """Each seat's points over the room's finished games (1 a win, 1/2 a
        draw or shared win), by seat token (what Swiss pairing sorts by).

        A game the agent finished in a student's seat counts here (pairing
        meets seats of like results, whoever played them), unlike in the
        standings, which credit it to the agent
        (:func:`~gridwidgets.rooms.results.standings`: the grades)."""
        out = dict.fromkeys(self.seats, 0.0)
        for rg in list(self.games):
            points = rg.points()
            if points is None:
                continue
            for token, got in zip(rg.players, points, strict=True):
                if token in out:
                    out[token] += got
        return out

    def game(self, game_id: int) -> RoomGame:
        """The game of this room with id ``game_id``.

        Raises:
            RoomError: for no such game in this room (an id that is not an int names none).
        """
        if isinstance(game_id, int) and not isinstance(game_id, bool):  # a page's junk is no game (nor True game 1)
            for rg in self.games:
                if rg.id == game_id:
                    return rg
        raise RoomError(f"no game {shorten(game_id, 12)} in this room")

    def name_of(self, token: str) -> str:
        """The display name of a seat token (a removed seat's too), or the agent's name for :data:`AGENT`."""
        if token == AGENT:
            from ..menu import AGENTS

            return f"{AGENTS[self.agent_kind].label} agent"
        seat = self.seats.get(token) or self.former.get(token)
        return seat.name if seat is not None else "?"

    def student_id_of(self, token: str) -> str:
        """The student id a seat token gave at join (a removed seat's too), or ``""``."""
        seat = self.seats.get(token) or self.former.get(token)
        return seat.student_id if seat is not None else ""

    def player_name(self, rg: RoomGame, p: int) -> str:
        """Who plays player ``p`` of ``rg``: the student's name, with ``(agent)``
        once the teacher handed the seat to the agent."""
        name = self.name_of(rg.players[p])
        return f"{name} (agent)" if p in rg.handed else name

    # -- what a shared screen calls a student -------------------------------------------
    def seat_number(self, token: str) -> int | None:
        """The number of the seat ``token`` (its place in the order of arrival,
        from 1; a removed seat keeps its number, and so does every other), or
        ``None`` for the agent or an unknown token."""
        try:
            return self.arrivals.index(token) + 1
        except ValueError:
            return None

    def public_name(self, token: str) -> str:
        """What the projector calls the seat ``token``: ``"Seat 3"`` while
        :attr:`projector_names` is ``"seat"`` (the default), else its display
        name (:meth:`name_of`); the agent by its name either way."""
        number = self.seat_number(token) if self.projector_names == "seat" else None
        return f"Seat {number}" if number is not None else self.name_of(token)

    def public_player_name(self, rg: RoomGame, p: int) -> str:
        """:meth:`player_name` as the projector says it (:meth:`public_name`)."""
        name = self.public_name(rg.players[p])
        return f"{name} (agent)" if p in rg.handed else name

    def set_projector_names(self, teacher_token: str, names: str) -> None:
        """Choose who the projector's standings, results and game captions
        name: ``"seat"`` (``"Seat 3"``, the default) or ``"name"`` (the
        students' display names). The teacher's own page always shows names.

        Raises:
            RoomError: without the teacher token.
            ValueError: a choice not in :data:`PROJECTOR_NAMES`.
        """
        self.check_teacher(teacher_token)
        if names not in PROJECTOR_NAMES:
            raise ValueError(f"the projector names students by one of {', '.join(PROJECTOR_NAMES)}, "
                             f"not {shorten(names, 20)}")
        with self.lock:
            if self.projector_names == names:
                return
            self.store.set_projector_names(self.code, names)
            self.projector_names = names
            self.changed()

    # -- the teacher manages the seats -------------------------------------------
    def rename_seat(self, teacher_token: str, token: str, name: str) -> Seat:
        """Give the seat of ``token`` another display name (the same rules as
        joining: no name alike in the room).

        Raises:
            RoomError: without the teacher token, or no such seat.
            ValueError: a name the rules refuse.
        """
        self.check_teacher(teacher_token)
        name = clean_name(name)
        with self.lock:
            seat = self.seat(token)
            self._check_name_free(name, but=token)
            renamed = Seat(seat.token, name, self.code, seat.student_id, seat.reclaim)
            self.store.set_seat(token, name=name, removed=False)
            self.seats[token] = renamed
            self.changed()
            return renamed

    def remove_seat(self, teacher_token: str, token: str) -> None:
        """Take the seat of ``token`` out of the room: its page is told so and
        holds nothing any more; in a game still going on, the agent takes over
        its player (the game goes on); its finished games keep its name.

        Raises:
            RoomError: without the teacher token, or no such seat.
        """
        self.check_teacher(teacher_token)
        with self.lock:
            seat = self.seat(token)
            handed = set()
            for rg in self.games:
                p = rg.player_of(token)
                if p is not None and not rg.game.is_over and p not in rg.handed:
                    self._hand(rg, p)
                    handed.add(rg.id)
            self.store.set_seat(token, name=seat.name, removed=True)
            del self.seats[token]
            self.former[token] = seat
            self._removal_handed[token] = handed
            self.changed()

    def restore_seat(self, teacher_token: str, token: str) -> Seat:
        """Undo :meth:`remove_seat`: the seat of ``token`` is back in the room
        (its page plays again, under its name), and each game its removal
        handed to the agent that is still going on is given back to it (after
        a restart, which forgets what the removal handed, every such game of
        the seat still going on). Returns the seat.

        Raises:
            RoomError: without the teacher token, a token never removed from
                this room, or the room closed.
            ValueError: another student took a name alike meanwhile (rename one of them first).
        """
        self.check_teacher(teacher_token)
        with self.lock:
            self._check_not_closed()
            seat = self.former.get(token) if isinstance(token, str) else None
            if seat is None:
                raise RoomError("no removed seat of that token in this room")
            self._check_name_free(seat.name, but=token)
            handed = self._removal_handed.pop(token, None)
            for rg in self.games:
                p = rg.player_of(token)
                if p is None or p not in rg.handed or rg.game.is_over or (handed is not None and rg.id not in handed):
                    continue
                rg.handed.discard(p)
                self.store.set_handed(rg.id, sorted(rg.handed))
            self.store.set_seat(token, name=seat.name, removed=False)
            del self.former[token]
            self.seats[token] = seat
            self.changed()
            return seat

    def hand_to_agent(self, teacher_token: str, game_id: int, player: int) -> None:
        """The agent plays ``player`` of game ``game_id`` from now on (a laptop
        died, a student left); the game goes on where it is.

        A game the agent ends in a student's seat is the agent's in the standings, not the student's
        (:func:`~gridwidgets.rooms.results.standings`).

        Raises:
            RoomError: without the teacher token, no such game, a player id that is not one of the
                game's, a player the agent already plays, or a game that is over.
        """
        self.check_teacher(teacher_token)
        with self.lock:
            rg = self.game(game_id)
            _check_player(rg, player)
            if player not in rg.students():
                raise RoomError("the agent already plays that seat")
            if rg.game.is_over:
                raise RoomError("that game is over: who finished it stays as it was")
            self._hand(rg, player)
            self.changed()

    def give_back(self, teacher_token: str, game_id: int, player: int) -> None:
        """The student of ``player`` in game ``game_id`` plays it again (undoes :meth:`hand_to_agent`).

        Raises:
            RoomError: without the teacher token, no such game, a player id that is not one of the
                game's, a player not handed over, a seat the teacher removed, or a game that is over
                (the agent finished it: its result stays the agent's).
        """
        self.check_teacher(teacher_token)
        with self.lock:
            rg = self.game(game_id)
            _check_player(rg, player)
            if player not in rg.handed:
                raise RoomError("that seat is not played by the agent for a student")
            if rg.players[player] not in self.seats:
                raise RoomError("that student's seat was removed from the room")
            if rg.game.is_over:
                raise RoomError("that game is over: the agent finished it, and its result is the agent's")
            rg.handed.discard(player)
            self.store.set_handed(rg.id, sorted(rg.handed))
            self.changed()

    def _hand(self, rg: RoomGame, p: int) -> None:
        rg.handed.add(p)
        if rg.agent is None:
            rg.agent = _make_agent(self.agent_kind)
        self.store.set_handed(rg.id, sorted(rg.handed))

    # -- undo: the teacher's, or every student of the game by agreement --------
    def ask_undo(self, token: str) -> bool:
        """The seat of ``token`` asks to take back the last move of its game. Once
        every student of that game has asked (at the same position; the agent
        always agrees), the game goes back to the last position where one of them
        is to move, and ``True`` is returned; else the ask waits (``False``).

        Raises:
            RoomError: an unknown seat, no game yet, the room paused or closed,
                a seat handed to the agent, or nothing to undo.
        """
        rg, p = self.game_of(token)
        self.check_can_move(rg, p)
        g = rg.game
        with g.lock, self.lock:
            people = {rg.players[q] for q in rg.students()}
            if not g.steps and not g.pending:
                raise RoomError("nothing to undo")
            version, asked = self._undo_asks.get(rg.id, (g.version, set()))
            if version != g.version:
                asked = set()
            asked = asked | {token}
            if asked >= people:
                self._undo_asks.pop(rg.id, None)
                g.undo_until(rg.students())
                return True
            self._undo_asks[rg.id] = (g.version, asked)
            self.changed()
            return False

    def undo_asked(self, game_id: int) -> list[str]:
        """The seat tokens that asked to undo the current position of game ``game_id``."""
        rg = self.game(game_id)
        with self.lock:
            version, asked = self._undo_asks.get(game_id, (-1, set()))
            return sorted(asked) if version == rg.game.version else []

    def teacher_undo(self, teacher_token: str, game_id: int) -> None:
        """The teacher takes back the last move of game ``game_id`` (to the last
        position where a student is to move).

        Raises:
            RoomError: without the teacher token, for no such game, or nothing to undo.
        """
        self.check_teacher(teacher_token)
        rg = self.game(game_id)
        g = rg.game
        with g.lock:
            if not g.steps and not g.pending:
                raise RoomError("nothing to undo")
            self._undo_asks.pop(rg.id, None)
            g.undo_until(rg.students() or set(range(len(rg.players))))

    def fill_with_agents(self, teacher_token: str) -> list[RoomGame]:
        """Start the students still waiting in this round, in arrival order, the
        seats no student fills going to the agent; return the new games."""
        self.check_teacher(teacher_token)
        with self.lock:
            self._check_not_closed()
            if self.round < 1:  # before the first round: these games are round 1
                self.round = 1
                self.save()
                self.changed()
            played = self.played()
            return [self._new_game(pairing.orient(group, played))
                    for group in pairing.groups(self._waiting(), self.players_per_game)]

    # -- agents ---------------------------------------------------------------
    def agent_turns(self) -> list[tuple[RoomGame, int, Game, int]]:
        """Where the agent is to move now: ``(game, player, view, version)`` for
        each game of this room (at most one a game); none while paused or closed.
        The agent chooses on ``view`` without any lock, then
        :meth:`agent_play` plays it if the game is still at ``version``."""
        if self.paused or self.closed:
            return []
        turns = []
        for rg in list(self.games):
            g = rg.game
            if rg.agent is None or g.is_over:
                continue
            with g.lock:
                movers = [p for p in g.players_to_move if p in rg.agent_players()]
                if movers:
                    turns.append((rg, movers[0], g.view_for(movers[0]), g.version))
        return turns

    def agent_play(self, rg: RoomGame, player: int, version: int, move: Any) -> bool:
        """Play the agent's ``move`` for ``player`` of ``rg`` if the game is still at
        ``version``, the player still the agent's and the room open; return whether it was played."""
        g = rg.game
        with g.lock:
            if (self.paused or self.closed or g.version != version or player not in g.players_to_move
                    or player not in rg.agent_players()):
                return False
            g.play(move, player=player)
            return True

    def step_agents(self) -> int:
        """Let the room's agent play where it is to move (each game at most one
        move), here and now; return how many it played. Not while paused."""
        played = 0
        for rg, p, view, version in self.agent_turns():
            played += self.agent_play(rg, p, version, rg.agent.choose(view))
        return played

    # -- class polls (the life cycle is rooms.polls') -------------------------------------------
    @property
    def poll(self) -> Poll | None:
        """The poll on the students' screens (open, closed or revealed), or ``None``."""
        return polls.current_poll(self)

    def open_poll(self, teacher_token: str, source: Any, *, step: int | None = None, player: int | None = None,
                  label: str = "", live_answers: bool = False) -> Poll:
        """Put a position on every seated student's screen and take their
        answers (:mod:`gridwidgets.rooms.polls`); a poll still on the screens
        ends first.

        Args:
            teacher_token: the teacher's token.
            source: a game (e.g. ``room.games[2].game``), an exercise, a
                save file's or a position's text
                (:func:`~gridwidgets.rooms.polls.poll_position`).
            step: the step of the game's (or save file's) history; default its current position.
            player: whose move the class chooses; default the first player to move.
            label: where the position comes from, as the pages say it (default: said from ``source``).
            live_answers: show the class's answers (counts, heat map, table)
                on the teacher's page and the projector while the poll is
                open; off by default: they show only "N of M answered" until
                :meth:`close_poll` (students copy no majority).

        Raises:
            RoomError: without the teacher token, or the room closed, or
                :data:`~gridwidgets.rooms.polls.MAX_POLLS` asked already.
            ValueError: a source that gives no position, a step outside its
                history, a position where the game is over, a player not to move.
        """
        self.check_teacher(teacher_token)
        self._check_not_closed()
        return polls.open_poll(self, source, step=step, player=player, label=label, live_answers=live_answers)

    def set_poll_live(self, teacher_token: str, live: bool) -> Poll:
        """Show the open poll's answers live (``True``) or hide them until it
        is closed (``False``) on the teacher's page and the projector
        (:attr:`~gridwidgets.rooms.polls.Poll.live_answers`).

        Raises:
            RoomError: without the teacher token, or no poll on the screens.
            ValueError: ``live`` not ``True`` or ``False``.
        """
        self.check_teacher(teacher_token)
        if not isinstance(live, bool):
            raise ValueError(f"live is True or False, not {shorten(live, 24)}")
        return polls.set_poll_live(self, live)

    def answer_poll(self, token: str, move: Any) -> str:
        """The seat of ``token`` answers the open poll with ``move`` (or changes
        its answer); return the move's notation. Stored before it counts.

        Raises:
            RoomError: an unknown seat, no poll open, or the poll closed.
            IllegalMoveError: a move the poll's player could not play there (naming the rule).
        """
        self.seat(token)
        return polls.answer_poll(self, token, move)

    def close_poll(self, teacher_token: str) -> None:
        """Stop taking answers to the poll (a revealed poll stays revealed; closing twice is closing once)."""
        self.check_teacher(teacher_token)
        polls.set_poll_state(self, "closed")

    def reveal_poll(self, teacher_token: str) -> Poll:
        """Close the poll (if open) and show the analysis beside the class's
        answers: computed on a thread of its own (the solver within
        :data:`~gridwidgets.rooms.polls.REVEAL_SECONDS`), the pages redrawn
        when it is in; stored with the poll."""
        self.check_teacher(teacher_token)
        return polls.set_poll_state(self, "revealed")

    def end_poll(self, teacher_token: str) -> None:
        """Take the poll off the students' screens (back to their games)."""
        self.check_teacher(teacher_token)
        with self.lock:
            polls.end_poll(self)
            self.changed()

    # -- exercise sets (what is kept and how, rooms.classwork's) -------------------------------------
    @property
    def assignment(self) -> Assignment | None:
        """The exercise set on the students' screens, or ``None``."""
        return classwork.current_assignment(self)

    def assign_exercises(self, teacher_token: str, exercises: Any) -> Assignment:
        """Give the room an exercise set: every seated student's page shows it
        in exercise mode, each at their own pace; every answer is stored
        (:meth:`record_exercise_answer`). A set on the screens is replaced.

        Args:
            teacher_token: the teacher's token.
            exercises: an :class:`~gridwidgets.exercises.ExerciseSet`, or its
                file's text (``ExerciseSet.to_json``).

        Raises:
            RoomError: without the teacher token, or the room closed.
            ValueError: a file that is not an exercise set (saying why), or an empty set.
        """
        self.check_teacher(teacher_token)
        self._check_not_closed()
        return classwork.assign(self, exercises)

    def end_exercises(self, teacher_token: str) -> None:
        """Take the exercise set off the students' screens (its answers stay)."""
        self.check_teacher(teacher_token)
        classwork.end(self)

    def record_exercise_answer(self, token: str, set_id: int, record: dict[str, Any]) -> dict[str, Any]:
        """Store one answer the seat of ``token`` gave in exercise set
        ``set_id`` (the exercise board's ``on_answer`` record: ``exercise``,
        ``move``, ``right``, ``step``, ``seconds``, ``solved``); return the row
        kept (with ``first_try`` and ``at``).

        Raises:
            RoomError: an unknown seat or set.
            ValueError: a record that is not one the exercise board makes.
        """
        self.seat(token)
        return classwork.record_answer(self, token, set_id, record)

    # -- making games ------------------------------------------------------------
    # -- the projector's replay ----------------------------------------------------
    def project_replay(self, teacher_token: str, game_id: int) -> None:
        """Show the replay of game ``game_id`` on the projector's page (``0``: take it off).

        Raises:
            RoomError: without the teacher token, or no such game in this room.
        """
        self.check_teacher(teacher_token)
        if isinstance(game_id, bool) or not isinstance(game_id, int):
            raise RoomError(f"a game's id is a number, not {str(game_id)[:12]!r}")
        with self.lock:
            if game_id:
                self.game(game_id)
            self.projected_replay = game_id
            self.changed()

    def _new_game(self, players: list[str]) -> RoomGame:
        from ..menu import start_game

        game = start_game(self.game_name, self.board)
        now = self.store.clock()
        game_id = self.store.add_game(self.code, self.round, players, game.to_json(indent=None), started=now)
        openings.prepare(game)  # the results compare the class's first choices with this opening's equilibrium
        return self._attach(game_id, self.round, players, game, started=now, updated=now)

    def _attach(self, game_id: int, round_: int, players: list[str], game: Game,
                handed: Iterable[int] = (), *, started: float = 0.0, updated: float = 0.0) -> RoomGame:
        """Keep a game: the store's observer first (written before any page hears)."""
        store = self.store

        def save(g: Game) -> None:
            at = store.clock()
            store.save_game(game_id, g.to_json(indent=None), {p: str(m) for p, m in g.hidden_submissions().items()},
                            at=at)
            rg.updated = at
            self.changed()

        game.observe(save)
        handed = set(handed)
        needs_agent = AGENT in players or bool(handed)
        rg = RoomGame(game_id, round_, list(players), game, _make_agent(self.agent_kind) if needs_agent else None,
                      handed, started, updated)
        self.games.append(rg)
        self.changed()
        return rg


class Rooms:
    """Every room of a server, restored from its store.

    Args:
        store: where rooms, seats and games are written; what it holds is
            loaded first (a restarted server finds every room, seat and game
            as it was, hidden submissions included).

    Raises:
        StoreError: a saved game that cannot be read back (naming the file and the game).
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._rooms: dict[str, Room] = {}
        self.lock = threading.Lock()
        self._addresses: dict[str, _Bucket] = {}
        self._on_change: Callable[[], None] = lambda: None
        #: notified at every change of any room (and of the class: a room opened, the class ended); the
        #: teacher's and the projector's pages wait on it
        self.changes = Changes()
        store.setting("teacher_token", lambda: secrets.token_urlsafe(16))
        #: the class list, shared by every room (:attr:`roster`, :meth:`set_roster`)
        self.class_list = ClassList()
        self._load_roster()
        self._restore()

    @property
    def teacher_token(self) -> str:
        """The server's teacher token (kept in the store: the same after a restart,
        until :meth:`new_teacher_token` or :meth:`end_class`)."""
        return str(self.store.get_setting("teacher_token"))

    @property
    def ended(self) -> float | None:
        """When the class ended (seconds since the epoch), or ``None``."""
        value = self.store.get_setting("ended")
        return float(value) if value else None

    def set_on_change(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every change of any room or game (the server wakes its agents)."""
        self._on_change = callback
        for room in self.rooms():
            room.on_change = callback

    def check_teacher(self, token: str) -> None:
        """Raise :class:`RoomError` unless ``token`` is the server's teacher token."""
        if self.ended is not None or not _same_token(token, self.teacher_token):
            raise RoomError("only the teacher may do that: open the teacher's address the server printed")

    # -- the teacher's sessions ---------------------------------------------------------------
    def open_session(self, token: str) -> str:
        """Exchange the teacher token for a new session (the page keeps the
        session in an HTTP-only cookie, never the token); return the session.

        Raises:
            RoomError: ``token`` is not the teacher token (or the class ended).
        """
        self.check_teacher(token)
        session = secrets.token_urlsafe(32)
        self.store.add_session(session)
        return session

    def teacher_key(self, session: Any) -> str:
        """The teacher token, for a live teacher's ``session`` (each teacher's
        action asks again: an ended session stops at once).

        Raises:
            RoomError: no such session.
        """
        if not isinstance(session, str) or not 20 <= len(session) <= 100 or self.ended is not None:
            raise RoomError("this page is not the teacher's: open the teacher's address the server printed")
        if not self.store.has_session(session):
            raise RoomError("this page is not the teacher's: open the teacher's address the server printed")
        return self.teacher_token

    def new_teacher_token(self) -> str:
        """Issue a new teacher token: the old one, and every session opened with it,
        stop working; the server's rooms take the new one. Returns it."""
        old, new = self.teacher_token, secrets.token_urlsafe(16)
        self.store.set_teacher_token(old, new)
        for room in self.rooms():
            if room.teacher_token == old:
                room.teacher_token = new
        return new

    def end_class(self, teacher_token: str) -> None:
        """End the class: every room closes (no joins, no moves; the pages say
        so), and the teacher token and every teacher's session stop working.
        Everything stays in the database (results, games); serving it again
        needs ``--reopen`` (:meth:`reopen`).

        Raises:
            RoomError: without the teacher token.
        """
        self.check_teacher(teacher_token)
        for room in self.rooms():
            with room.lock:
                room.closed = True
                room.save()
                room.changed()
        self.store.set_setting("ended", repr(time.time()))
        self.new_teacher_token()  # never shown: the old one opens nothing
        self.changes.notify()  # the pages read `ended` now

    def reopen(self) -> str:
        """Open an ended class again (its rooms open, a new teacher token, which is returned)."""
        for room in self.rooms():
            with room.lock:
                room.closed = False
                room.save()
                room.changed()
        self.store.set_setting("ended", None)
        token = self.new_teacher_token()
        self.changes.notify()
        return token

    # -- the class list ---------------------------------------------------------------------------
    @property
    def roster(self) -> tuple[RosterEntry, ...]:
        """The class list: each student's display name and id (:class:`~gridwidgets.rooms.roster.RosterEntry`),
        in the list's order; ``()`` without one."""
        return self.class_list.entries

    @property
    def roster_source(self) -> str:
        """Where the class list came from: ``"csv"`` (a file), ``"hub"`` (the JupyterHub's users), ``""`` (none)."""
        return self.class_list.source

    def set_roster(self, entries: Iterable[Any], source: str = "csv") -> tuple[RosterEntry, ...]:
        """Replace the class list with ``entries`` (:class:`~gridwidgets.rooms.roster.RosterEntry` or
        ``(name, student_id)`` pairs; empty: no class list), from ``source`` (one of
        :data:`~gridwidgets.rooms.roster.ROSTER_SOURCES`), written to the store in one transaction.
        Seats already taken keep their names and ids. Returns the entries kept.

        Raises:
            ValueError: an unknown source, or an entry :func:`~gridwidgets.rooms.roster.check_roster`
                refuses (nothing changed: the old list stays whole).
        """
        if source not in ROSTER_SOURCES:
            raise ValueError(f"a class list comes from one of {', '.join(ROSTER_SOURCES)}, not {shorten(source, 20)}")
        checked = check_roster(entries)
        with self.lock:
            self.store.set_roster([tuple(e) for e in checked], source if checked else "")
            self.class_list.entries, self.class_list.source = checked, (source if checked else "")
        self._roster_changed()
        return checked

    def import_roster(self, text_or_path: str | bytes | Any) -> RosterFile:
        """Read a class list from an LMS's CSV file (its text, bytes or path;
        :func:`~gridwidgets.rooms.roster.read_roster`: Moodle, Canvas or ``name,id``) and make it the class's
        (:meth:`set_roster`, source ``"csv"``). Returns what was read (its summary says which column gave the ids).

        Raises:
            ValueError: a file the reader refuses (the row and what is wrong; nothing changed).
        """
        read = read_roster(text_or_path)
        self.set_roster(read.entries, "csv")
        return read

    def set_typed_joins(self, allowed: bool) -> None:
        """With a class list, whether a student whose name is not on it may type a name (a seat with no id).
        Off by default: every student picks their name from the list.

        Raises:
            ValueError: ``allowed`` not ``True`` or ``False``.
        """
        if not isinstance(allowed, bool):
            raise ValueError(f"typed joins are allowed (True) or not (False), not {shorten(allowed, 20)}")
        self.store.set_setting("roster_typed_joins", "1" if allowed else None)
        self.class_list.typed_joins = allowed
        self._roster_changed()

    def _load_roster(self) -> None:
        entries, source = self.store.roster()
        try:
            self.class_list.entries = check_roster(entries)
        except ValueError as exc:
            raise self._damaged("the class list", exc) from None
        self.class_list.source = source if self.class_list.entries else ""
        self.class_list.typed_joins = self.store.get_setting("roster_typed_joins") == "1"

    def _roster_changed(self) -> None:
        for room in self.rooms():
            with room.lock:
                room.changed()
        self.changes.notify()

    def join_allowed(self, address: str) -> bool:
        """Whether a device at ``address`` may join now (:data:`JOIN_LIMITS`); counts the join."""
        with self.lock:
            bucket = self._addresses.get(address)
            if bucket is None:
                if len(self._addresses) > 10_000:  # forget the devices that have waited long enough
                    self._addresses = {a: b for a, b in self._addresses.items() if not b.full()}
                bucket = self._addresses[address] = _Bucket(*JOIN_LIMITS["address"])
            return bucket.take()

    # -- rooms ------------------------------------------------------------------------------
    def create(self, game: str, board: str | None = None, *, pairing: str = "arrival",
               agent: str = "random", teacher_token: str | None = None) -> Room:
        """Open a room for ``game`` (a registry name) on ``board`` (a key of its
        presets; default the first), pairing students by ``pairing``; ``agent``
        (a key of the classroom's agents) plays seats without a student;
        ``teacher_token`` is the key to the teacher's actions (default: a new
        one; the server gives its own, :attr:`teacher_token`, to every room).

        Raises:
            ValueError: an unknown game, board, pairing or agent.
            RoomError: the class has ended.
        """
        from ..menu import AGENTS, games_menu, start_game

        if pairing not in PAIRINGS:
            raise ValueError(f"pairing must be one of {', '.join(PAIRINGS)}, got {str(pairing)[:30]!r}")
        if agent not in AGENTS:
            raise ValueError(f"unknown agent {str(agent)[:30]!r}: one of {', '.join(AGENTS)}")
        if self.ended is not None:
            raise RoomError("the class has ended: no room opens in it")
        start_game(game, board)  # checks game and board
        board = board if board is not None else next(iter(games_menu()[game].boards))
        with self.lock:
            code = self._new_code()
            token = teacher_token if isinstance(teacher_token, str) and teacher_token else secrets.token_urlsafe(16)
            # a round pairing's room is in round 0 until the teacher starts round 1
            room = Room(code, game, board, pairing, agent, token, self.store, on_change=self._on_change,
                        round=0 if pairing in ROUND_PAIRINGS else 1, class_changes=self.changes,
                        class_list=self.class_list)
            self.store.add_room(code, game, board, pairing, agent, room.teacher_token, round=room.round)
            self._rooms[code] = room
        self.changes.notify()
        self._on_change()
        return room

    def find(self, game: str, board: str | None = None, *, pairing: str = "arrival",
             agent: str = "random") -> Room | None:
        """The newest open room with exactly these choices (``board`` ``None``: the
        game's first), or ``None``: a restarted command reopens its room."""
        from ..menu import games_menu

        menu = games_menu()
        if game not in menu:
            return None
        board = board if board is not None else next(iter(menu[game].boards))
        for room in reversed(self.rooms()):
            if (room.game_name, room.board, room.pairing, room.agent_kind) == (game, board, pairing, agent) \
                    and not room.closed:
                return room
        return None

    def room(self, code: str) -> Room:
        """The room with ``code`` (any case, spaces ignored).

        Raises:
            RoomError: for no such room (the message repeats at most a few characters of it).
        """
        key = "".join(str(code).split()).upper()[:12] if isinstance(code, str) else ""
        room = self._rooms.get(key)
        if room is None:
            raise RoomError(f"no room {key[:8]!r}")
        return room

    def rooms(self) -> list[Room]:
        """Every room, oldest first."""
        return list(self._rooms.values())

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(5))
            if code not in self._rooms:
                return code

    def _restore(self) -> None:
        from ..core import registry
        from ..menu import AGENTS, games_menu

        data = self.store.load()
        path = self.store.path
        for r in data["rooms"]:
            if r["game"] not in registry.names() or r["agent"] not in AGENTS or r["pairing"] not in PAIRINGS:
                raise StoreError(f"{path}: room {str(r['code'])[:8]} is for {str(r['game'])[:20]!r} with agent "
                                 f"{str(r['agent'])[:20]!r}, which this gridwidgets does not have: install the game, "
                                 "or pass another --db")
            if r["board"] not in games_menu()[r["game"]].boards:
                raise StoreError(f"{path}: room {str(r['code'])[:8]} is on board {str(r['board'])[:20]!r}, which "
                                 "this gridwidgets does not have: pass another --db")
            self._rooms[r["code"]] = Room(r["code"], r["game"], r["board"], r["pairing"], r["agent"],
                                          r["teacher_token"], self.store, bool(r["paused"]), int(r["round"]),
                                          bool(r["closed"]), class_changes=self.changes,
                                          class_list=self.class_list)
            if r.get("projector_names") in PROJECTOR_NAMES:
                self._rooms[r["code"]].projector_names = r["projector_names"]
        for s in data["seats"]:
            room = self._room_of(s["room"], "seat")
            seat = Seat(s["token"], s["name"], s["room"], s.get("student_id") or "", s.get("reclaim") or "")
            if not seat.reclaim:  # a seat of a schema before 6: its code now
                seat = Seat(seat.token, seat.name, seat.room, seat.student_id, room._new_reclaim())
                self.store.set_reclaim(seat.token, seat.reclaim)
            (room.former if s["removed"] else room.seats)[s["token"]] = seat
            room.arrivals.append(s["token"])
        for g in data["games"]:
            room = self._room_of(g["room"], f"game {g['id']}")
            try:
                game = registry.get(room.game_name).from_json(g["save"])
                for p, move in sorted(g["pending"].items()):
                    game.play(move, player=p)  # the hidden submissions, back in (C-5)
                if len(g["players"]) != len(game.players) or any(not 0 <= p < len(game.players)
                                                                  for p in g["handed"]):
                    raise ValueError("its players do not match the game")
                started, updated = float(g.get("started") or 0.0), float(g["updated"])
            except (ValueError, TypeError, KeyError) as exc:
                raise StoreError(f"{path}: game {g['id']} of room {room.code} cannot be read back "
                                 f"({type(exc).__name__}: {str(exc)[:60]}): the file is damaged; restore the class "
                                 "from its backup (--backup), or pass another --db") from None
            room._attach(int(g["id"]), int(g["round"]), list(g["players"]), game, g["handed"],
                         started=started, updated=updated)
        polls.restore_polls(self._room_of, data, self._damaged)
        classwork.restore(self._room_of, data, self._damaged)

    def _damaged(self, what: str, exc: Exception) -> StoreError:
        return StoreError(f"{self.store.path}: {what} cannot be read back ({type(exc).__name__}: {str(exc)[:60]}): "
                          "the file is damaged; restore the class from its backup (--backup), or pass another --db")

    def _room_of(self, code: Any, what: str) -> Room:
        room = self._rooms.get(code)
        if room is None:
            raise StoreError(f"{self.store.path}: a {what} of room {str(code)[:8]!r}, which is not in the file: the "
                             "file is damaged; restore the class from its backup (--backup), or pass another --db")
        return room


def _check_player(rg: RoomGame, player: Any) -> None:
    """Raise :class:`RoomError` unless ``player`` is a player id of ``rg`` (an int, not a page's junk)."""
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < len(rg.players):
        raise RoomError(f"game {rg.id} has no player {shorten(player, 12)} (players 0..{len(rg.players) - 1})")


def _same_token(given: Any, token: str) -> bool:
    """``given`` is ``token`` (compared in constant time, as bytes: any text
    compares, in any script; anything but text is not the token)."""
    if not isinstance(given, str) or not isinstance(token, str):
        return False
    return secrets.compare_digest(given.encode("utf-8", "surrogatepass"), token.encode("utf-8", "surrogatepass"))


def _make_agent(kind: str) -> Any:
    from ..menu import AGENTS

    return AGENTS[kind].make(None)
