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
  so over ``n - 1`` rounds (``n`` even) everyone meets everyone once (games of
  more players: the seating turns one place a round).
- ``"swiss"``: nobody plays until the teacher starts a round; each round
  pairs students in order of points, each meeting the best placed opponent
  not met before that still lets everyone else be paired (a depth-first
  search within :data:`SWISS_TRIES` tries; else the nearest in points,
  rematches allowed); of a pair, the one who moved first less often moves
  first; with an odd count the lowest placed student who has not played
  the agent yet plays it (two-player games; with more players a game it
  seats students in order of points).
- ``"agent"``: each student plays the room's agent (every other seat), as player 0.

Seats left over in a round go to the agent; the teacher can also start the
students still waiting with agents on the empty seats (:meth:`Room.fill_with_agents`).
A group that met before gets the seats it had least often (a pair swaps
colours from one round to the next).

The teacher runs the class: renames or removes a seat (:meth:`Room.rename_seat`,
:meth:`Room.remove_seat`), hands a player of a game to the agent at any time and
gives it back (:meth:`Room.hand_to_agent`, :meth:`Room.give_back`), and ends the
class (:meth:`Rooms.end_class`: the rooms close, the teacher token and every
teacher's session stop working). The teacher's page holds no token: the token
is exchanged once for a session (:meth:`Rooms.open_session`), and each action
asks for the token through it (:meth:`Rooms.teacher_key`).

Joining is rate-limited per device address and per room (:data:`JOIN_LIMITS`),
and display names follow :mod:`gridwidgets.rooms.names` (no two alike in a room).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..core.game import Game
from . import openings
from .names import MAX_NAME, clean_name, clean_student_id, look_alike
from .polls import MAX_POLLS, POLL_STATES, Answer, Poll, poll_position
from .store import Store, StoreError

__all__ = ["AGENT", "CODE_ALPHABET", "JOIN_LIMITS", "MAX_NAME", "PAIRINGS", "ROUND_PAIRINGS", "Assignment", "Room",
           "RoomError", "RoomGame", "Rooms", "Seat"]

#: how a room pairs its students (see the module's text)
PAIRINGS = ("arrival", "round-robin", "swiss", "agent")
#: the pairings in which nobody plays until the teacher starts a round
ROUND_PAIRINGS = ("round-robin", "swiss")
#: the player entry of a seat held by the room's agent
AGENT = "agent"
#: the letters of a room code: no 0/O, 1/I/L, easy to read aloud and type
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: the most seats a room holds (a page joining again and again fills no disk)
MAX_SEATS = 400
#: joins allowed, as (burst, seconds per join after the burst): from one device
#: address, and into one room (a class of 60 joins at once; a script cannot fill a room)
JOIN_LIMITS = {"address": (8, 10.0), "room": (60, 1.0)}


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

    def full(self) -> bool:
        return self.level + (time.monotonic() - self.stamp) / self.every >= self.burst


@dataclass(frozen=True)
class Seat:
    """A student in a room.

    Attributes:
        token: the seat token (secret: the only key to this seat).
        name: the display name.
        room: the room's code.
        student_id: what the student gave at join for grades (``""``: none).
    """

    token: str
    name: str
    room: str
    student_id: str = ""


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
class Assignment:
    """An exercise set given to a room: each student works through it on their
    own page, at their own pace (:meth:`Room.assign_exercises`).

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
    round: int = 1
    closed: bool = False
    seats: dict[str, Seat] = field(default_factory=dict)
    #: the seats the teacher removed (their games still name them)
    former: dict[str, Seat] = field(default_factory=dict)
    games: list[RoomGame] = field(default_factory=list)
    #: counts every change of the room and its games (pages compare it to redraw)
    version: int = 0
    _lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    #: per game id: the game's version when undo was first asked, and who asked
    _undo_asks: dict[int, tuple[int, set[str]]] = field(default_factory=dict, repr=False)
    _joins: _Bucket = field(default_factory=lambda: _Bucket(*JOIN_LIMITS["room"]), repr=False)
    #: called after every change of the room or its games (the server wakes its agents)
    on_change: Callable[[], None] = field(default=lambda: None, repr=False)
    #: the class polls asked in this room, oldest first (:mod:`gridwidgets.rooms.polls`)
    polls: list[Poll] = field(default_factory=list)
    #: the exercise sets given to this room, oldest first (the last one not ended is on the screens)
    assignments: list[Assignment] = field(default_factory=list)
    #: the game whose replay the projector shows (its id; 0: none): :meth:`project_replay` (not stored)
    projected_replay: int = 0

    @property
    def players_per_game(self) -> int:
        """How many players a game of this room seats (the game's and board's)."""
        n = getattr(self, "_players_per_game", None)
        if n is None:
            from ..menu import start_game

            n = self._players_per_game = len(start_game(self.game_name, self.board).players)
        return n

    def _changed(self) -> None:
        self.version += 1
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

        Raises:
            ValueError: for a name that breaks :mod:`~gridwidgets.rooms.names`'
                rules, or looks like a name already in this room; for a
                student id that is too long or has other characters.
            RoomError: the room is closed or full (``MAX_SEATS``, 400), or
                joins come too fast (:data:`JOIN_LIMITS`).
        """
        name, student_id = clean_name(name), clean_student_id(student_id)
        with self._lock:
            if self.closed:
                raise RoomError("this room is closed: the class has ended")
            if len(self.seats) >= MAX_SEATS:
                raise RoomError(f"this room is full ({MAX_SEATS} seats): ask the teacher for another room")
            self._check_name_free(name)
            if address is not None and limiter is not None and not limiter(address):
                raise RoomError("too many joins from this device: wait a minute, then try again")
            if not self._joins.take():
                raise RoomError("too many students are joining at once: wait a few seconds, then try again")
            seat = Seat(secrets.token_urlsafe(16), name, self.code, student_id)
            self.store.add_seat(seat.token, self.code, name, student_id)
            self.seats[seat.token] = seat
            self._changed()
            n = self.players_per_game
            if self.pairing == "agent":
                self._new_game([seat.token] + [AGENT] * (n - 1))
            elif self.pairing == "arrival":
                waiting = self._waiting()
                if len(waiting) >= n:
                    self._new_game(waiting[:n])
            return seat

    def waiting(self) -> list[Seat]:
        """The seats without a game in this round, in arrival order."""
        with self._lock:
            return [self.seats[t] for t in self._waiting()]

    def round_progress(self) -> tuple[int, int]:
        """``(over, games)``: how many of this round's games are over, of how
        many. The lesson plans start the next round when nine in ten are over
        (docs/lessons.md): a round waits longest for its slowest pair."""
        with self._lock:
            games = [rg for rg in self.games if rg.round == self.round]
        over = 0
        for rg in games:
            with rg.game.lock:
                over += rg.game.is_over
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
        with self._lock:
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
        """Pause or resume the room (moves refused while paused)."""
        self.check_teacher(teacher_token)
        with self._lock:
            self.paused = bool(paused)
            self._save()
            self._changed()

    def _save(self) -> None:
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
        with self._lock:
            self._check_not_closed()
            self.round += 1
            self._save()
            self._changed()
            tokens = list(self.seats)
            n = self.players_per_game
            if self.pairing == "agent":
                groups = [[t] + [AGENT] * (n - 1) for t in tokens]
            elif self.pairing == "round-robin" and n == 2:
                groups = _circle(tokens, self.round - 1)
            elif self.pairing == "swiss":
                groups = self._swiss(tokens, n, points)
                return [self._new_game(group) for group in groups]
            else:
                if self.pairing == "round-robin":  # more than two a game: turn the seating one place a round
                    k = (self.round - 1) % max(1, len(tokens))
                    tokens = tokens[k:] + tokens[:k]
                groups = _groups(tokens, n)
            return [self._new_game(self._orient(group)) for group in groups]

    def points(self) -> dict[str, float]:
        """Each seat's points over the room's finished games (1 a win, 1/2 a
        draw or shared win), by seat token (what Swiss pairing sorts by)."""
        out = dict.fromkeys(self.seats, 0.0)
        for rg in list(self.games):
            points = rg.points()
            if points is None:
                continue
            for token, got in zip(rg.players, points, strict=True):
                if token in out:
                    out[token] += got
        return out

    def _swiss(self, tokens: list[str], n: int, points: dict[str, float]) -> list[list[str]]:
        """A round of Swiss pairing by ``points`` (see the module docstring)."""
        order = sorted(tokens, key=lambda t: -points.get(t, 0.0))  # stable: join order among equals
        if n != 2:
            return _groups(order, n)
        met: dict[str, set[str]] = {t: set() for t in tokens}
        first = dict.fromkeys(tokens, 0)
        byes: set[str] = set()
        for rg in self.games:
            a, b = rg.players[0], rg.players[-1]
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
            first[a] = first.get(a, 0) + 1
            if AGENT in rg.players:
                byes.update(t for t in rg.players if t != AGENT)
        bye = None
        if len(order) % 2:  # the lowest placed student who has not played the agent yet
            bye = next((t for t in reversed(order) if t not in byes), order[-1])
            order.remove(bye)
        matched = _fresh_pairs(order, met)
        if matched is None:  # no pairing without a rematch (or too long to find): the nearest in points
            matched = [[order[i], order[i + 1]] for i in range(0, len(order), 2)]
        pairs = [[a, b] if first.get(a, 0) <= first.get(b, 0) else [b, a] for a, b in matched]  # who moved first less
        return pairs + ([[bye, AGENT]] if bye is not None else [])

    def _orient(self, group: list[str]) -> list[str]:
        """``group`` turned so that the seating it had least often before comes
        first: the same ordered group never comes back while another turn of it
        is fresher (two players: the colours swap from one meeting to the next)."""
        if sum(t != AGENT for t in group) < 2:
            return group
        seen: dict[tuple[str, ...], int] = {}
        for g in self.games:
            key = tuple(g.players)
            seen[key] = seen.get(key, 0) + 1
        turns = [group[k:] + group[:k] for k in range(len(group))]
        return min(turns, key=lambda t: seen.get(tuple(t), 0))  # min keeps the first of equals

    def game(self, game_id: int) -> RoomGame:
        """The game of this room with id ``game_id``.

        Raises:
            RoomError: for no such game in this room.
        """
        for rg in self.games:
            if rg.id == game_id:
                return rg
        raise RoomError(f"no game {str(game_id)[:12]} in this room")

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
        with self._lock:
            seat = self.seat(token)
            self._check_name_free(name, but=token)
            renamed = Seat(seat.token, name, self.code, seat.student_id)
            self.store.set_seat(token, name=name, removed=False)
            self.seats[token] = renamed
            self._changed()
            return renamed

    def remove_seat(self, teacher_token: str, token: str) -> None:
        """Take the seat of ``token`` out of the room: its page is told so and
        holds nothing any more; in a game still going on, the agent takes over
        its player (the game goes on); its finished games keep its name.

        Raises:
            RoomError: without the teacher token, or no such seat.
        """
        self.check_teacher(teacher_token)
        with self._lock:
            seat = self.seat(token)
            for rg in self.games:
                p = rg.player_of(token)
                if p is not None and not rg.game.is_over:
                    self._hand(rg, p)
            self.store.set_seat(token, name=seat.name, removed=True)
            del self.seats[token]
            self.former[token] = seat
            self._changed()

    def hand_to_agent(self, teacher_token: str, game_id: int, player: int) -> None:
        """The agent plays ``player`` of game ``game_id`` from now on (a laptop
        died, a student left); the game goes on where it is.

        Raises:
            RoomError: without the teacher token, no such game, or a player the agent already plays.
        """
        self.check_teacher(teacher_token)
        with self._lock:
            rg = self.game(game_id)
            if player not in rg.students():
                raise RoomError("the agent already plays that seat")
            self._hand(rg, player)
            self._changed()

    def give_back(self, teacher_token: str, game_id: int, player: int) -> None:
        """The student of ``player`` in game ``game_id`` plays it again (undoes :meth:`hand_to_agent`).

        Raises:
            RoomError: without the teacher token, no such game, a player not
                handed over, or a seat the teacher removed.
        """
        self.check_teacher(teacher_token)
        with self._lock:
            rg = self.game(game_id)
            if player not in rg.handed:
                raise RoomError("that seat is not played by the agent for a student")
            if rg.players[player] not in self.seats:
                raise RoomError("that student's seat was removed from the room")
            rg.handed.discard(player)
            self.store.set_handed(rg.id, sorted(rg.handed))
            self._changed()

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
        with g.lock, self._lock:
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
            self._changed()
            return False

    def undo_asked(self, game_id: int) -> list[str]:
        """The seat tokens that asked to undo the current position of game ``game_id``."""
        rg = self.game(game_id)
        with self._lock:
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
        with self._lock:
            self._check_not_closed()
            return [self._new_game(self._orient(group))
                    for group in _groups(self._waiting(), self.players_per_game)]

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

    # -- class polls -------------------------------------------------------------
    @property
    def poll(self) -> Poll | None:
        """The poll on the students' screens (open, closed or revealed), or ``None``."""
        poll = self.polls[-1] if self.polls else None
        return poll if poll is not None and poll.state != "ended" else None

    def open_poll(self, teacher_token: str, source: Any, *, step: int | None = None, player: int | None = None,
                  label: str = "") -> Poll:
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

        Raises:
            RoomError: without the teacher token, or the room closed, or
                :data:`~gridwidgets.rooms.polls.MAX_POLLS` asked already.
            ValueError: a source that gives no position, a step outside its
                history, a position where the game is over, a player not to move.
        """
        self.check_teacher(teacher_token)
        self._check_not_closed()
        game = poll_position(source, step=step)
        to_move = list(game.players_to_move)
        if player is None:
            player = to_move[0]
        if player not in to_move:
            raise ValueError(f"player {str(player)[:8]} is not to move at that position (to move: {to_move})")
        if not label:
            text = isinstance(source, str) and not source.lstrip().startswith("{")
            label = "a position" if text else "a save file" if isinstance(source, (str, bytes, dict)) else (
                "an exercise" if not isinstance(source, Game) else "a game")
            if step is not None:
                label += f", step {step}"
        label = label[:80]
        with self._lock:
            if len(self.polls) >= MAX_POLLS:
                raise RoomError(f"this room has asked {MAX_POLLS} polls already: open another room")
            self._end_poll()
            poll_id = self.store.add_poll(self.code, game.to_json(indent=None), player, label)
            poll = Poll(poll_id, self.code, game, player, label, time.time())
            self.polls.append(poll)
            self._changed()
            return poll

    def answer_poll(self, token: str, move: Any) -> str:
        """The seat of ``token`` answers the open poll with ``move`` (or changes
        its answer); return the move's notation. Stored before it counts.

        Raises:
            RoomError: an unknown seat, no poll open, or the poll closed.
            IllegalMoveError: a move the poll's player could not play there (naming the rule).
        """
        self.seat(token)
        poll = self.poll
        if poll is None:
            raise RoomError("no poll is open in this room")
        if poll.state != "open":
            raise RoomError("the poll is closed: answers are no longer taken")
        text = poll.check_move(move)  # outside the room's lock: a copy of the position, played
        with self._lock:
            if poll.state != "open" or self.poll is not poll:
                raise RoomError("the poll is closed: answers are no longer taken")
            before = poll.answers.get(token)
            if before is not None and before.move == text:
                return text
            at = time.time()
            self.store.add_poll_answer(poll.id, token, text, at)
            poll.answers[token] = Answer(token, text, at, 0 if before is None else before.changes + 1)
            poll.version += 1
            self._changed()
        return text

    def close_poll(self, teacher_token: str) -> None:
        """Stop taking answers to the poll (its heat map stays on the teacher's screens)."""
        self._poll_state(teacher_token, "closed")

    def reveal_poll(self, teacher_token: str) -> Poll:
        """Close the poll (if open) and show the analysis beside the class's
        answers: computed on a thread of its own (the solver within
        :data:`~gridwidgets.rooms.polls.REVEAL_SECONDS`), the pages redrawn
        when it is in; stored with the poll."""
        poll = self._poll_state(teacher_token, "revealed")
        if not poll.analysed:
            threading.Thread(target=self._analyse_poll, args=(poll,), name="gridwidgets-poll-reveal",
                             daemon=True).start()
        return poll

    def _analyse_poll(self, poll: Poll) -> None:
        analysis = poll.analysis()
        with self._lock:
            self.store.set_poll(poll.id, poll.state, analysis)
            poll.version += 1
            self._changed()

    def end_poll(self, teacher_token: str) -> None:
        """Take the poll off the students' screens (back to their games)."""
        self.check_teacher(teacher_token)
        with self._lock:
            self._end_poll()
            self._changed()

    def _end_poll(self) -> None:
        poll = self.poll
        if poll is not None:
            poll.state = "ended"
            poll.version += 1
            self.store.set_poll(poll.id, "ended")

    def _poll_state(self, teacher_token: str, state: str) -> Poll:
        self.check_teacher(teacher_token)
        with self._lock:
            poll = self.poll
            if poll is None:
                raise RoomError("no poll is on the screens")
            if state == "closed" and poll.state == "revealed":
                return poll
            poll.state = state
            poll.version += 1
            self.store.set_poll(poll.id, state)
            self._changed()
            return poll

    # -- exercise sets -------------------------------------------------------------
    @property
    def assignment(self) -> Assignment | None:
        """The exercise set on the students' screens, or ``None``."""
        a = self.assignments[-1] if self.assignments else None
        return a if a is not None and not a.ended else None

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
        from ..exercises import ExerciseSet

        self.check_teacher(teacher_token)
        self._check_not_closed()
        if isinstance(exercises, (str, bytes)):
            exercises = ExerciseSet.from_json(exercises)
        if not isinstance(exercises, ExerciseSet):
            raise ValueError(f"an exercise set is an ExerciseSet or its file's text, not {type(exercises).__name__}")
        if not len(exercises):
            raise ValueError("this exercise set has no exercises")
        with self._lock:
            if self.assignment is not None:
                self.assignment.ended = True
                self.store.end_exercise_set(self.assignment.id)
            set_id = self.store.add_exercise_set(self.code, exercises.to_json())
            a = Assignment(set_id, exercises, time.time())
            self.assignments.append(a)
            self._changed()
            return a

    def end_exercises(self, teacher_token: str) -> None:
        """Take the exercise set off the students' screens (its answers stay)."""
        self.check_teacher(teacher_token)
        with self._lock:
            a = self.assignment
            if a is not None:
                a.ended = True
                self.store.end_exercise_set(a.id)
            self._changed()

    def record_exercise_answer(self, token: str, set_id: int, record: dict[str, Any]) -> dict[str, Any]:
        """Store one answer the seat of ``token`` gave in exercise set
        ``set_id`` (the exercise board's ``on_answer`` record: ``exercise``,
        ``move``, ``right``, ``step``, ``seconds``, ``solved``); return the row
        kept (with ``first_try`` and ``at``).

        Raises:
            RoomError: an unknown seat or set.
        """
        self.seat(token)
        with self._lock:
            a = next((x for x in self.assignments if x.id == set_id), None)
            if a is None:
                raise RoomError("no such exercise set in this room")
            index = int(record["exercise"])
            step = int(record.get("step", 1))
            tries = sum(1 for r in a.answers if r["token"] == token and r["exercise"] == index and r["step"] == 1)
            row = {"token": token, "exercise": index, "move": str(record["move"])[:200], "step": step,
                   "right": bool(record["right"]), "first_try": tries + (step == 1) <= 1,
                   "seconds": float(record.get("seconds", 0.0)), "solved": bool(record.get("solved", False)),
                   "at": time.time()}
            self.store.add_exercise_answer(set_id, token, index, row["move"], step, row["right"], row["first_try"],
                                           row["solved"], row["seconds"], row["at"])
            a.answers.append(row)
            self._changed()
            return row

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
        with self._lock:
            if game_id:
                self.game(game_id)
            self.projected_replay = game_id
            self._changed()

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
            self._changed()

        game.observe(save)
        handed = set(handed)
        needs_agent = AGENT in players or bool(handed)
        rg = RoomGame(game_id, round_, list(players), game, _make_agent(self.agent_kind) if needs_agent else None,
                      handed, started, updated)
        self.games.append(rg)
        self._changed()
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
        self._lock = threading.Lock()
        self._addresses: dict[str, _Bucket] = {}
        self._on_change: Callable[[], None] = lambda: None
        store.setting("teacher_token", lambda: secrets.token_urlsafe(16))
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
            with room._lock:
                room.closed = True
                room._save()
                room._changed()
        self.store.set_setting("ended", repr(time.time()))
        self.new_teacher_token()  # never shown: the old one opens nothing

    def reopen(self) -> str:
        """Open an ended class again (its rooms open, a new teacher token, which is returned)."""
        for room in self.rooms():
            with room._lock:
                room.closed = False
                room._save()
                room._changed()
        self.store.set_setting("ended", None)
        return self.new_teacher_token()

    def join_allowed(self, address: str) -> bool:
        """Whether a device at ``address`` may join now (:data:`JOIN_LIMITS`); counts the join."""
        with self._lock:
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
        with self._lock:
            code = self._new_code()
            token = teacher_token if isinstance(teacher_token, str) and teacher_token else secrets.token_urlsafe(16)
            room = Room(code, game, board, pairing, agent, token, self.store, on_change=self._on_change)
            self.store.add_room(code, game, board, pairing, agent, room.teacher_token)
            self._rooms[code] = room
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
                                          bool(r["closed"]))
        for s in data["seats"]:
            room = self._room_of(s["room"], "seat")
            seat = Seat(s["token"], s["name"], s["room"], s.get("student_id") or "")
            (room.former if s["removed"] else room.seats)[s["token"]] = seat
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
        self._restore_polls(data)
        self._restore_exercises(data)

    def _damaged(self, what: str, exc: Exception) -> StoreError:
        return StoreError(f"{self.store.path}: {what} cannot be read back ({type(exc).__name__}: {str(exc)[:60]}): "
                          "the file is damaged; restore the class from its backup (--backup), or pass another --db")

    def _restore_polls(self, data: dict[str, list[dict[str, Any]]]) -> None:
        polls: dict[int, Poll] = {}
        for p in data["polls"]:
            room = self._room_of(p["room"], f"poll {p['id']}")
            try:
                poll = Poll(int(p["id"]), room.code, Game.from_json(p["save"]), int(p["player"]), str(p["source"]),
                            float(p["opened"]), str(p["state"]))
                if poll.state not in POLL_STATES or poll.player not in range(len(poll.game.players)):
                    raise ValueError("its state or player is not one a poll has")
            except (ValueError, TypeError, KeyError) as exc:
                raise self._damaged(f"poll {p.get('id')}", exc) from None
            poll._analysis = p["analysis"]
            room.polls.append(poll)
            polls[poll.id] = poll
        for a in data["poll_answers"]:
            poll = polls.get(a["poll"])
            if poll is None:
                raise self._damaged(f"an answer to poll {str(a['poll'])[:8]}", KeyError("no such poll"))
            before = poll.answers.get(a["token"])
            poll.answers[a["token"]] = Answer(a["token"], a["move"], float(a["at"]),
                                              0 if before is None else before.changes + 1)

    def _restore_exercises(self, data: dict[str, list[dict[str, Any]]]) -> None:
        from ..exercises import ExerciseSet

        sets: dict[int, Assignment] = {}
        for s in data["exercise_sets"]:
            room = self._room_of(s["room"], f"exercise set {s['id']}")
            try:
                a = Assignment(int(s["id"]), ExerciseSet.from_json(s["data"]), float(s["assigned"]),
                               ended=bool(s["ended"]))
            except (ValueError, TypeError, KeyError) as exc:
                raise self._damaged(f"exercise set {s.get('id')}", exc) from None
            room.assignments.append(a)
            sets[a.id] = a
        for r in data["exercise_answers"]:
            a = sets.get(r["exercise_set"])
            if a is None:
                raise self._damaged(f"an answer of exercise set {str(r['exercise_set'])[:8]}", KeyError("no such set"))
            a.answers.append({"token": r["token"], "exercise": int(r["exercise"]), "move": r["move"],
                              "step": int(r["step"]), "right": bool(r["right"]), "first_try": bool(r["first_try"]),
                              "seconds": float(r["seconds"]), "solved": bool(r["solved"]), "at": float(r["at"])})

    def _room_of(self, code: Any, what: str) -> Room:
        room = self._rooms.get(code)
        if room is None:
            raise StoreError(f"{self.store.path}: a {what} of room {str(code)[:8]!r}, which is not in the file: the "
                             "file is damaged; restore the class from its backup (--backup), or pass another --db")
        return room


#: the most tries :func:`_fresh_pairs` makes before it gives up (bounded time for any class)
SWISS_TRIES = 20_000


def _fresh_pairs(order: list[str], met: dict[str, set[str]]) -> list[list[str]] | None:
    """Pairs of ``order`` (best placed first) where nobody meets someone met
    before: each student, best placed first, takes the best placed fresh
    opponent that still lets the rest be paired (depth-first, at most
    :data:`SWISS_TRIES` tries); ``None`` if there is none."""
    tries = [0]

    def pair(rest: list[str]) -> list[list[str]] | None:
        if not rest:
            return []
        a = rest[0]
        for b in rest[1:]:
            if b in met.get(a, ()):
                continue
            tries[0] += 1
            if tries[0] > SWISS_TRIES:
                return None
            tail = pair([t for t in rest[1:] if t != b])
            if tail is not None:
                return [[a, b], *tail]
        return None

    return pair(list(order))


def _groups(tokens: list[str], n: int) -> list[list[str]]:
    """``tokens`` in games of ``n`` in order; the last game's empty seats go to the agent."""
    return [tokens[i : i + n] + [AGENT] * max(0, i + n - len(tokens)) for i in range(0, len(tokens), n)]


def _same_token(given: Any, token: str) -> bool:
    """``given`` is ``token`` (compared in constant time, as bytes: any text
    compares, in any script; anything but text is not the token)."""
    if not isinstance(given, str) or not isinstance(token, str):
        return False
    return secrets.compare_digest(given.encode("utf-8", "surrogatepass"), token.encode("utf-8", "surrogatepass"))


def _circle(tokens: Iterable[str], k: int) -> list[list[str]]:
    """Round ``k`` (from 0) of a round robin by the circle method: the first
    stays, the others turn one place per round; an odd count gets the agent."""
    ring: list[str] = list(tokens)
    if len(ring) % 2:
        ring.append(AGENT)
    n = len(ring)
    if n == 0:
        return []
    rest = ring[1:]
    shift = k % max(1, n - 1)
    rest = rest[-shift:] + rest[:-shift] if shift else rest
    order = [ring[0], *rest]
    pairs = [[order[i], order[n - 1 - i]] for i in range(n // 2)]
    # alternate who moves first, round by round
    return [p if (k + i) % 2 == 0 else p[::-1] for i, p in enumerate(pairs)]


def _make_agent(kind: str) -> Any:
    from ..menu import AGENTS

    return AGENTS[kind].make(None)
