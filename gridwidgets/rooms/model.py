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
- ``"agent"``: each student plays the room's agent (every other seat), as player 0.

Seats left over in a round go to the agent; the teacher can also start the
students still waiting with agents on the empty seats (:meth:`Room.fill_with_agents`).
"""

from __future__ import annotations

import secrets
import threading
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..core.game import Game
from .store import Store

__all__ = ["AGENT", "CODE_ALPHABET", "PAIRINGS", "Room", "RoomError", "RoomGame", "Rooms", "Seat"]

#: how a room pairs its students (see the module's text)
PAIRINGS = ("arrival", "round-robin", "agent")
#: the player entry of a seat held by the room's agent
AGENT = "agent"
#: the letters of a room code: no 0/O, 1/I/L, easy to read aloud and type
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: the longest display name, in characters
MAX_NAME = 30
#: the most seats a room holds (a page joining again and again fills no disk)
MAX_SEATS = 400


class RoomError(PermissionError):
    """A page asked for what its token does not allow: an unknown room or
    seat, another seat's move, the teacher's actions without the teacher's
    token, a move while the room is paused. Nothing changed."""


@dataclass(frozen=True)
class Seat:
    """A student in a room.

    Attributes:
        token: the seat token (secret: the only key to this seat).
        name: the display name.
        room: the room's code.
    """

    token: str
    name: str
    room: str


@dataclass
class RoomGame:
    """One game of a room.

    Attributes:
        id: its id in the store.
        round: the round it belongs to (from 1).
        players: per player id, the seat token, or :data:`AGENT`.
        game: the game itself (the one object every page of it shows).
        agent: the agent playing the :data:`AGENT` seats, if any.
    """

    id: int
    round: int
    players: list[str]
    game: Game
    agent: Any = None

    def students(self) -> set[int]:
        """The player ids of this game held by students (not by the agent)."""
        return {p for p, t in enumerate(self.players) if t != AGENT}

    def player_of(self, token: str) -> int | None:
        """The player id ``token`` holds in this game, or ``None``."""
        return self.players.index(token) if token in self.players else None


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
    seats: dict[str, Seat] = field(default_factory=dict)
    games: list[RoomGame] = field(default_factory=list)
    #: counts every change of the room and its games (pages compare it to redraw)
    version: int = 0
    _lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    #: per game id: the game's version when undo was first asked, and who asked
    _undo_asks: dict[int, tuple[int, set[str]]] = field(default_factory=dict, repr=False)

    @property
    def players_per_game(self) -> int:
        """How many players a game of this room seats (the game's and board's)."""
        n = getattr(self, "_players_per_game", None)
        if n is None:
            from ..classroom import start_game

            n = self._players_per_game = len(start_game(self.game_name, self.board).players)
        return n

    # -- students ------------------------------------------------------------
    def join(self, name: str) -> Seat:
        """Seat a student; with ``"arrival"`` or ``"agent"`` pairing, start their
        game as soon as it has its players (:attr:`players_per_game` students,
        or the student and the agent on every other seat).

        Raises:
            ValueError: for a name that is empty, longer than ``MAX_NAME`` (30)
                characters, or has control characters.
            RoomError: when the room already has ``MAX_SEATS`` (400) seats.
        """
        name = _clean_name(name)
        with self._lock:
            if len(self.seats) >= MAX_SEATS:
                raise RoomError(f"this room is full ({MAX_SEATS} seats): ask the teacher for another room")
            seat = Seat(secrets.token_urlsafe(16), name, self.code)
            self.store.add_seat(seat.token, self.code, name)
            self.seats[seat.token] = seat
            self.version += 1
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

    def play(self, token: str, move: Any) -> Any:
        """Play ``move`` for the seat of ``token`` in its game (the same
        ``play()`` a click goes through; the store has the move before this
        returns).

        Raises:
            RoomError: an unknown seat, no game yet, the room paused, or not
                this seat's turn.
            IllegalMoveError: a move the rules refuse (nothing changed).
        """
        rg, p = self.game_of(token)
        if self.paused:
            raise RoomError("the room is paused: the teacher will resume it")
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
            self.store.set_room(self.code, paused=self.paused, round=self.round)
            self.version += 1

    def next_round(self, teacher_token: str) -> list[RoomGame]:
        """Start the next round: every seated student gets a new game (by the
        room's pairing; seats left over in the last game go to the agent);
        return the new games. Round robin pairs two-player games by the circle
        method; for games of more players it turns the seating one place a round."""
        self.check_teacher(teacher_token)
        with self._lock:
            self.round += 1
            self.store.set_room(self.code, paused=self.paused, round=self.round)
            self.version += 1
            tokens = list(self.seats)
            n = self.players_per_game
            if self.pairing == "agent":
                groups = [[t] + [AGENT] * (n - 1) for t in tokens]
            elif self.pairing == "round-robin" and n == 2:
                groups = _circle(tokens, self.round - 1)
            else:
                if self.pairing == "round-robin":  # more than two a game: turn the seating one place a round
                    k = (self.round - 1) % max(1, len(tokens))
                    tokens = tokens[k:] + tokens[:k]
                groups = _groups(tokens, n)
            return [self._new_game(group) for group in groups]

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
        """The display name of a seat token, or the agent's name for :data:`AGENT`."""
        if token == AGENT:
            from ..classroom import AGENTS

            return f"{AGENTS[self.agent_kind].label} agent"
        seat = self.seats.get(token)
        return seat.name if seat is not None else "?"

    # -- undo: the teacher's, or every student of the game by agreement --------
    def ask_undo(self, token: str) -> bool:
        """The seat of ``token`` asks to take back the last move of its game. Once
        every student of that game has asked (at the same position; the agent
        always agrees), the game goes back to the last position where one of them
        is to move, and ``True`` is returned; else the ask waits (``False``).

        Raises:
            RoomError: an unknown seat, no game yet, the room paused, or nothing to undo.
        """
        rg, _p = self.game_of(token)
        if self.paused:
            raise RoomError("the room is paused: the teacher will resume it")
        g = rg.game
        people = {t for t in rg.players if t != AGENT}
        with g.lock, self._lock:
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
            self.version += 1
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
            g.undo_until(rg.students())

    def fill_with_agents(self, teacher_token: str) -> list[RoomGame]:
        """Start the students still waiting in this round, in arrival order, the
        seats no student fills going to the agent; return the new games."""
        self.check_teacher(teacher_token)
        with self._lock:
            return [self._new_game(group) for group in _groups(self._waiting(), self.players_per_game)]

    # -- agents ---------------------------------------------------------------
    def step_agents(self) -> int:
        """Let the room's agent play where it is to move (each game at most one
        move); return how many it played. Not while paused."""
        if self.paused:
            return 0
        played = 0
        for rg in list(self.games):
            g = rg.game
            with g.lock:
                movers = [p for p in g.players_to_move if rg.players[p] == AGENT]
                views = [(p, g.view_for(p), g.version) for p in movers]
            for p, view, version in views:
                move = rg.agent.choose(view)
                with g.lock:
                    if g.version == version and p in g.players_to_move:
                        g.play(move, player=p)
                        played += 1
        return played

    # -- making games ------------------------------------------------------------
    def _new_game(self, players: list[str]) -> RoomGame:
        from ..classroom import start_game

        game = start_game(self.game_name, self.board)
        game_id = self.store.add_game(self.code, self.round, players, game.to_json(indent=None))
        return self._attach(game_id, self.round, players, game)

    def _attach(self, game_id: int, round_: int, players: list[str], game: Game) -> RoomGame:
        """Keep a game: the store's observer first (written before any page hears)."""
        store = self.store

        def save(g: Game) -> None:
            store.save_game(game_id, g.to_json(indent=None), {p: str(m) for p, m in g.hidden_submissions().items()})
            self.version += 1

        game.observe(save)
        rg = RoomGame(game_id, round_, list(players), game, _make_agent(self.agent_kind) if AGENT in players else None)
        self.games.append(rg)
        self.version += 1
        return rg


class Rooms:
    """Every room of a server, restored from its store.

    Args:
        store: where rooms, seats and games are written; what it holds is
            loaded first (a restarted server finds every room, seat and game
            as it was, hidden submissions included).
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._rooms: dict[str, Room] = {}
        self._lock = threading.Lock()
        #: the server's teacher token (kept in the store: the same after a restart)
        self.teacher_token: str = store.setting("teacher_token", lambda: secrets.token_urlsafe(16))
        self._restore()

    def check_teacher(self, token: str) -> None:
        """Raise :class:`RoomError` unless ``token`` is the server's teacher token."""
        if not _same_token(token, self.teacher_token):
            raise RoomError("only the teacher may do that: open the teacher's address the server printed")

    def create(self, game: str, board: str | None = None, *, pairing: str = "arrival",
               agent: str = "random", teacher_token: str | None = None) -> Room:
        """Open a room for ``game`` (a registry name) on ``board`` (a key of its
        presets; default the first), pairing students by ``pairing``; ``agent``
        (a key of the classroom's agents) plays seats without a student;
        ``teacher_token`` is the key to the teacher's actions (default: a new
        one; the server gives its own, :attr:`teacher_token`, to every room).

        Raises:
            ValueError: an unknown game, board, pairing or agent.
        """
        from ..classroom import AGENTS, games_menu, start_game

        if pairing not in PAIRINGS:
            raise ValueError(f"pairing must be one of {', '.join(PAIRINGS)}, got {str(pairing)[:30]!r}")
        if agent not in AGENTS:
            raise ValueError(f"unknown agent {str(agent)[:30]!r}: one of {', '.join(AGENTS)}")
        start_game(game, board)  # checks game and board
        board = board if board is not None else next(iter(games_menu()[game].boards))
        with self._lock:
            code = self._new_code()
            token = teacher_token if isinstance(teacher_token, str) and teacher_token else secrets.token_urlsafe(16)
            room = Room(code, game, board, pairing, agent, token, self.store)
            self.store.add_room(code, game, board, pairing, agent, room.teacher_token)
            self._rooms[code] = room
            return room

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

        data = self.store.load()
        for r in data["rooms"]:
            self._rooms[r["code"]] = Room(r["code"], r["game"], r["board"], r["pairing"], r["agent"],
                                          r["teacher_token"], self.store, bool(r["paused"]), int(r["round"]))
        for s in data["seats"]:
            room = self._rooms[s["room"]]
            room.seats[s["token"]] = Seat(s["token"], s["name"], s["room"])
        for g in data["games"]:
            room = self._rooms[g["room"]]
            game = registry.get(room.game_name).from_json(g["save"])
            for p, move in sorted(g["pending"].items()):
                game.play(move, player=p)  # the hidden submissions, back in (C-5)
            room._attach(int(g["id"]), int(g["round"]), list(g["players"]), game)


def _clean_name(name: Any) -> str:
    if not isinstance(name, str):
        raise ValueError("a display name must be text")
    name = " ".join(name.split())
    if not name:
        raise ValueError("a display name must not be empty")
    if len(name) > MAX_NAME:
        raise ValueError(f"a display name has at most {MAX_NAME} characters, got {len(name)}")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise ValueError("a display name must not hold control characters")
    return name


def _groups(tokens: list[str], n: int) -> list[list[str]]:
    """``tokens`` in games of ``n`` in order; the last game's empty seats go to the agent."""
    return [tokens[i : i + n] + [AGENT] * max(0, i + n - len(tokens)) for i in range(0, len(tokens), n)]


def _same_token(given: Any, token: str) -> bool:
    """``given`` is ``token`` (compared in constant time; anything but text is not)."""
    return isinstance(given, str) and secrets.compare_digest(given, token)


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
    from ..classroom import AGENTS

    return AGENTS[kind].make(None)
