"""The board of a student's page in a room: the game's own widget class,
limited to what a seat may do.

A page of a room game plays its own seat's moves and nothing else: every
intent goes through :meth:`RoomBoard.handle_intent`, which lets through only
``play`` for the page's seat (the same ``play()`` as everywhere), and refuses
with a status message on that page only: undo, redo, a new game, a history
scrub and the board editor (undo in a room is the teacher's, or every
student's of the game by agreement: :meth:`~gridwidgets.rooms.Room.ask_undo`),
a move while the room is paused or closed or once the teacher handed the
seat to the agent, hints (a class plays without the solver's help), any trait
but the display toggles, and more than :data:`FLOOD_LIMIT` messages of any
kind within :data:`FLOOD_WINDOW` seconds (the rest are dropped unanswered,
one refusal said a window).

A refusal is a short status message of its own (``{"type": "status", ...}``),
never the board's whole state nor its code. The state sent to the page is the
public state (no other player's hidden submission is ever in it) plus, for
the page's own seat, what it chose in secret, as the page's status message.

No page is sent anything while a game's lock is held: a game's observers run
under its lock, so a board's observer only marks the board, and one thread
(:class:`Fanout`) builds each marked board's state (taking the lock briefly)
and sends it. Sending only queues (the server bounds each page's queue:
:mod:`gridwidgets.rooms.server`), so a page that stopped reading holds up no
game, no other page and no agent.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import deque
from typing import Any

from ..core.errors import IllegalMoveError, shorten
from ..widgets.base import GameWidget, widget_class
from .model import Assignment, Room, RoomError, RoomGame
from .polls import Poll

__all__ = ["FLOOD_LIMIT", "FLOOD_WINDOW", "POLL_HIDDEN_CONTROLS", "ROOM_HIDDEN_CONTROLS", "STATE_REQUESTS", "Fanout",
           "PageLimits", "PollAnswerBoard", "PollHeatBoard", "RoomBoard", "RoomExercise", "exercise_board", "fanout",
           "first_unsolved", "poll_board", "room_board"]

#: at most this many messages from one page ...
FLOOD_LIMIT = 20
#: ... within this many seconds; more are dropped (the game untouched), one refusal said a window
FLOOD_WINDOW = 2.0
#: a page asks for its board's whole state at most this often (loading, reconnecting), per FLOOD_WINDOW * 5
STATE_REQUESTS = 3
#: the board controls a room's page does not show (the actions are refused too)
ROOM_HIDDEN_CONTROLS = ("new", "undo", "redo", "toggle-edit", "export", "hints", "goto", "play", "pause", "step",
                        "speed")
#: the traits a room's page may set: the display toggles, and the version it drew
_ROOM_SETTABLE = frozenset({"show_forbidden", "show_labels", "show_legal", "show_region", "seen_version"})


class Fanout:
    """One thread that brings marked boards up to date, outside every game's
    lock: :meth:`mark` (called under a game's lock by its observer) only
    records the board; the thread then sends its state and its status."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._dirty: dict[int, RoomBoard] = {}
        self._busy = False
        self._thread: threading.Thread | None = None
        self.sent = 0  # boards brought up to date (for the benchmarks)

    def mark(self, board: RoomBoard) -> None:
        """Bring ``board`` up to date soon (never blocks on a page)."""
        with self._cond:
            self._dirty[id(board)] = board
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="gridwidgets-room-fanout", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._dirty:
                    self._busy = False
                    self._cond.notify_all()
                    self._cond.wait()
                boards = list(self._dirty.values())
                self._dirty.clear()
                self._busy = True
            for board in boards:
                try:
                    board._flush()
                    self.sent += 1
                except Exception as exc:  # one page's failure must not stop the others
                    print(f"a room page's update failed: {type(exc).__name__}: {str(exc)[:120]}", file=sys.stderr)
            boards = board = None  # a closed page's board is not kept alive by this thread while it waits

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Wait until every marked board is up to date (at most ``timeout`` seconds); return whether it is."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._dirty or self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True


#: the fan-out of every room page in this process
fanout = Fanout()


class PageLimits:
    """What every board of a room's pages shares (mixed into a game's widget
    class): more than :data:`FLOOD_LIMIT` messages within :data:`FLOOD_WINDOW`
    seconds are dropped (one refusal said a window), a malformed message is
    refused with a status message, and a page asks for its whole state at most
    :data:`STATE_REQUESTS` times per ``5 * FLOOD_WINDOW`` seconds."""

    _stamps: deque[float]
    _requests: deque[float]
    _flood_lock: threading.Lock
    _flood_said: bool

    def _init_limits(self) -> None:
        self._stamps = deque()
        self._requests = deque()
        self._flood_lock = threading.Lock()
        self._flood_said = False

    # -- what comes from the page ------------------------------------------------------
    def _flooded(self) -> bool:
        now = time.monotonic()
        with self._flood_lock:
            while self._stamps and now - self._stamps[0] > FLOOD_WINDOW:
                self._stamps.popleft()
            if len(self._stamps) >= FLOOD_LIMIT:
                return True
            self._stamps.append(now)
            self._flood_said = False
            return False

    def _handle_msg(self, msg: Any) -> None:
        """Every message from the page (trait updates, intents, state requests)
        passes here first: a flood is dropped, a malformed message refused."""
        if self._flooded():
            with self._flood_lock:
                said, self._flood_said = self._flood_said, True
            if not said:
                self._say("Refused: too many messages from this page; wait a moment.")  # type: ignore[attr-defined]
            return
        try:
            method = msg["content"]["data"]["method"]
        except (TypeError, KeyError, IndexError):
            self._say("Refused: a malformed message from the page.")  # type: ignore[attr-defined]
            return
        if method == "request_state":
            now = time.monotonic()
            with self._flood_lock:
                while self._requests and now - self._requests[0] > 5 * FLOOD_WINDOW:
                    self._requests.popleft()
                if len(self._requests) >= STATE_REQUESTS:
                    return  # it has the state already: asking again and again gets nothing
                self._requests.append(now)
        try:
            super()._handle_msg(msg)  # type: ignore[misc]
        except Exception:  # a message of the right method but the wrong shape
            self._say("Refused: a malformed message from the page.")  # type: ignore[attr-defined]


class RoomBoard(PageLimits):
    """The behaviour of a room page's board, mixed into the game's widget class
    by :func:`room_board` (one class per game class). Attributes ``room`` (the
    :class:`~gridwidgets.rooms.Room`) and ``room_game`` (its
    :class:`~gridwidgets.rooms.RoomGame`) are set by :func:`room_board`."""

    room: Room
    room_game: RoomGame
    page_settable = _ROOM_SETTABLE
    _want: set[str]
    _status: tuple[str, str]
    _closed: bool

    def handle_intent(self, content: Any) -> bool:
        """Carry out a ``play`` intent for this page's seat; refuse anything else
        (see the module's text). Returns True if the game changed."""
        if not isinstance(content, dict):
            self._say("Refused: a message from the page must be an object.")
            return False
        kind = content.get("type")
        if kind == "play":
            try:
                for p in self.seats:  # type: ignore[attr-defined]
                    self.room.check_can_move(self.room_game, p)
            except RoomError as exc:
                self._say(f"Refused: {exc}.")
                return False
            return bool(super()._play(content))  # type: ignore[misc]
        if kind in ("undo", "redo", "new", "goto", "edit", "agent-step"):
            self._say(
                f"Refused: {shorten(kind, 12).strip(chr(39))} is not played from a room's page; undo is the "
                "teacher's, or both players' (Ask to undo)."
            )
            return False
        self._say(f"Refused: unknown message type {shorten(kind)}.")
        return False

    # -- what goes to the page -------------------------------------------------------------
    def _on_game_change(self, game: Any) -> None:
        """The game changed (its observer, under its lock): mark, send later."""
        self._message = ("", "")
        self._due("state")

    def _say(self, text: str, kind: str = "error") -> None:
        """A short status to this page alone (sent by the fan-out, not here)."""
        self._message = (text, kind)
        self._status = (text, kind)
        self._due("status")

    @property
    def status(self) -> tuple[str, str]:
        """The last status said to this page: ``(text, kind)`` (``"error"`` or ``"info"``)."""
        return self._status

    def resync(self) -> None:
        """Send this board's whole state again soon (its seat changed hands, say)."""
        self._due("state")

    def _due(self, what: str) -> None:
        with self._flood_lock:
            self._want.add(what)
        fanout.mark(self)

    def _flush(self) -> None:
        """Send what is due (the fan-out's thread; no game's lock held here)."""
        if self._closed:
            return
        with self._flood_lock:
            want, self._want = self._want, set()
        if "state" in want:
            self._sync()  # type: ignore[attr-defined]
        if "status" in want:
            text, kind = self._status
            self.send({"type": "status", "message": text, "kind": kind,  # type: ignore[attr-defined]
                       "version": self.room_game.game.version})

    def _game_state(self) -> dict[str, Any]:
        state: dict[str, Any] = super()._game_state()  # type: ignore[misc]
        g = self.room_game.game
        mine = set(self.seats) - self.room_game.handed  # type: ignore[attr-defined]
        state["people"] = sorted(mine)
        state["status"] = self._seat_status(g, mine, state["status"])
        own = {p: m for p, m in g.hidden_submissions().items() if p in mine}
        if own and not state["message"]:
            others = [g.player_label(p) for p in g.players_to_move]
            wait = f", hidden from {' and '.join(others)} until all are in" if others else ""
            state["message"] = f"Your choice: {'; '.join(str(m) for m in own.values())}{wait} ({g.secrecy_rule})."
            state["message_kind"] = "info"
        return state

    def _seat_status(self, g: Any, mine: set[int], status: str) -> str:
        """The status as this page's seat reads it: ``Your move.`` and the
        game's status when the seat is to move; ``Ann (X) is to move: wait
        for Ann.`` when another seat is (never the game's "Player 1 (X), it's
        your turn" on the other student's page); the game's status once over."""
        to_move = list(g.players_to_move)
        if g.is_over or not to_move:
            return status
        room, rg = self.room, self.room_game
        if mine and g.is_simultaneous_node():
            return self._simultaneous_status(g, mine, to_move)
        if any(p in mine for p in to_move):
            return f"Your move. {status}"
        names = [room.player_name(rg, p) for p in to_move]
        who = " and ".join(f"{name} ({g.players[p]})" for name, p in zip(names, to_move, strict=True))
        return f"{who} {'is' if len(to_move) == 1 else 'are'} to move: wait for {' and '.join(names)}."

    def _simultaneous_status(self, g: Any, mine: set[int], to_move: list[int]) -> str:
        """The status at a simultaneous node as this page's seat reads it (the
        game's own status names the player its hot-seat order asks first,
        which is no one's turn here): ``Your move. You and your opponent bid
        at the same time: Ann (X) has bid.``, then ``Your bid is in. You and
        your opponent bid at the same time: wait for Bob (O) to bid.`` The
        words are the game's (:attr:`~gridwidgets.core.Game.simultaneous_words`);
        who has chosen is said, never what."""
        room, rg = self.room, self.room_game
        verb, done, noun = g.simultaneous_words
        others = [p for p in range(len(g.players)) if p not in mine]
        named = {p: f"{room.player_name(rg, p)} ({g.players[p]})" for p in others}
        together = ("You and your opponent" if len(others) == 1
                    else "You and " + ", ".join(named[p] for p in others)) + f" {verb} at the same time"
        waiting = [p for p in to_move if p not in mine]
        if any(p in mine for p in to_move):
            chosen = [named[p] for p in others if p not in to_move]
            said = f": {' and '.join(chosen)} {done}." if chosen else ", in secret."
            return f"Your move. {together}{said}"
        if not waiting:
            return f"Your {noun} is in."
        return f"Your {noun} is in. {together}: wait for {' and '.join(named[p] for p in waiting)} to {verb}."

    def close(self) -> None:
        """Stop following the game, and close the board."""
        self._closed = True
        super().close()  # type: ignore[misc]


_CLASSES: dict[type, type] = {}


def room_board(room: Room, room_game: RoomGame, player: int, **options: Any) -> GameWidget:
    """The board of the page of the seat playing ``player`` in ``room_game``:
    the game's widget class with :class:`RoomBoard`'s limits, the room's
    controls hidden (:data:`ROOM_HIDDEN_CONTROLS`).

    Args:
        room: the room.
        room_game: the game of the room this page shows.
        player: the player id of this page's seat.
        options: more widget options (``fit``, ``show_legal``, ...).
    """
    base = widget_class(type(room_game.game))
    cls = _CLASSES.get(base)
    if cls is None:
        settable = _ROOM_SETTABLE & base.page_settable
        cls = type(f"Room{base.__name__}", (RoomBoard, base), {"__module__": __name__, "page_settable": settable})
        _CLASSES[base] = cls
    board = cls.__new__(cls)
    board.room = room
    board.room_game = room_game
    board._init_limits()
    board._want = set()
    board._status = ("", "")
    board._closed = False
    options.setdefault("hidden_controls", list(ROOM_HIDDEN_CONTROLS))
    cls.__init__(board, room_game.game, seats=[player], **options)
    return board


# -- class polls ---------------------------------------------------------------------------------
#: the traits a poll board's page may set: the display toggles, and the version it drew
_POLL_SETTABLE = frozenset({"show_forbidden", "show_labels", "show_region", "seen_version"})
#: the controls of a poll's boards (the position is asked, not played): those of a room's page but the hints box,
#: which holds the heat map's list of the moves that are not one cell (its selector hides itself)
POLL_HIDDEN_CONTROLS = (*(c for c in ROOM_HIDDEN_CONTROLS if c != "hints"), "agents")


class _PollBoard(PageLimits):
    """A board showing a poll's position (never played: the poll's game is
    its own). The overlay is Python's: ``hint_data`` is set here, never computed."""

    poll: Poll
    page_settable = _POLL_SETTABLE

    def _on_hints(self, change: Any) -> None:  # the overlay is the poll's, not a computed hint (no observer)
        pass

    def _start_hints(self) -> None:
        pass

    def handle_intent(self, content: Any) -> bool:
        self._say("Refused: this board shows the class's answers; it is not played.")  # type: ignore[attr-defined]
        return False


class PollAnswerBoard(_PollBoard):
    """A student's board of a class poll: a click (or a typed move) on the
    poll's player's move is the student's answer (:meth:`Room.answer_poll`),
    shown on this board only; the student may change it until the poll is
    closed. Nothing of the other students' answers is ever sent here."""

    room: Room
    token: str

    def handle_intent(self, content: Any) -> bool:
        """Take a ``play`` intent as this student's answer; refuse anything else.
        Returns False (the poll's position never changes)."""
        if not isinstance(content, dict) or content.get("type") != "play":
            self._say("Refused: in a class poll, choose a move on the board.")  # type: ignore[attr-defined]
            return False
        try:
            text = self.room.answer_poll(self.token, content.get("move"))
        except RoomError as exc:
            self._say(f"Refused: {exc}.")  # type: ignore[attr-defined]
            return False
        except IllegalMoveError as exc:
            self._say(f"Illegal move: {str(exc)[:160]}")  # type: ignore[attr-defined]
            return False
        self._say(f"Answer taken: {text}. You can change it until the teacher closes the poll.",  # type: ignore[attr-defined]
                  "info")
        self.refresh()
        return False

    def _game_state(self) -> dict[str, Any]:
        state: dict[str, Any] = super()._game_state()  # type: ignore[misc]
        poll = self.poll
        who = poll.game.player_label(poll.player)
        mine = poll.mine(self.token)
        yours = f" Your answer: {mine}." if mine else " You did not answer."
        if poll.state == "open":
            state["status"] = f"Class poll: choose the move of {who}." + (f" Your answer: {mine}." if mine else "")
        else:
            state["status"] = f"The poll is closed.{yours} Look at the teacher's screen."
        state["people"] = [poll.player] if poll.state == "open" else []
        return state

    def refresh(self) -> None:
        """Show this student's answer (and the poll's state) again: after an
        answer, and when the teacher closes, reveals or ends the poll."""
        poll, mine = self.poll, self.poll.mine(self.token)
        if poll.state != "open":
            self._message = ("", "")  # "you can change it" no longer holds
        moves = {mine: {"label": "\u2713", "value": 0.0, "share": 1.0, "best": True, "tone": "heat"}} if mine else {}
        self.hint_data = {"kind": "poll", "version": poll.game.version, "status": "done", "message": "",  # type: ignore[attr-defined]
                          "moves": moves}
        self._sync()  # type: ignore[attr-defined]


class PollHeatBoard(_PollBoard):
    """The teacher's (and the projector's) board of a class poll: the heat map
    of the answers on the position (:meth:`Poll.overlay`), and once revealed
    the analysis's colours; it takes no move."""

    def _game_state(self) -> dict[str, Any]:
        state: dict[str, Any] = super()._game_state()  # type: ignore[misc]
        poll = self.poll
        who = poll.game.player_label(poll.player)
        state["status"] = getattr(poll, "caption", "") or f"The class chooses the move of {who}."
        state["people"] = []
        return state

    def refresh(self) -> None:
        """Draw the poll's answers (and its analysis, once revealed) again."""
        self.hint_data = self.poll.overlay()  # type: ignore[attr-defined]


_POLL_CLASSES: dict[tuple[type, type], type] = {}


def _poll_class(mixin: type, base: type) -> type:
    cls = _POLL_CLASSES.get((mixin, base))
    if cls is None:
        settable = _POLL_SETTABLE & base.page_settable
        cls = type(f"{mixin.__name__.lstrip('_')}{base.__name__}", (mixin, base),
                   {"__module__": __name__, "page_settable": settable})
        _POLL_CLASSES[(mixin, base)] = cls
    return cls


def poll_board(poll: Poll, *, room: Room | None = None, token: str | None = None, **options: Any) -> GameWidget:
    """A board of a class poll: with ``room`` and ``token``, the student's board
    that answers it (:class:`PollAnswerBoard`); else the heat map of its
    answers for the teacher's page and the projector (:class:`PollHeatBoard`).

    Args:
        poll: the poll (:mod:`gridwidgets.rooms.polls`).
        room: the poll's room (a student's board).
        token: the student's seat token (a student's board).
        options: more widget options (``fit``, ...).
    """
    mixin = PollAnswerBoard if token is not None else PollHeatBoard
    cls = _poll_class(mixin, widget_class(type(poll.game)))
    board = cls.__new__(cls)
    board.poll = poll
    if token is not None:
        board.room = room
        board.token = token
    board._init_limits()
    # a student's board shows their own answer on the board: no list of the class's answers beside it
    hidden = POLL_HIDDEN_CONTROLS if token is None else (*POLL_HIDDEN_CONTROLS, "hints")
    options.setdefault("hidden_controls", list(hidden))
    cls.__init__(board, poll.game, seats=[poll.player] if token is not None else [], hints="poll", **options)
    board.refresh()
    return board


# -- exercise sets -------------------------------------------------------------------------------
class RoomExercise(PageLimits):
    """A student's board of the room's exercise set (mixed into
    :class:`~gridwidgets.exercises.ExerciseWidget` by :func:`exercise_board`):
    the exercise mode as in a notebook, every answer stored in the room
    (:meth:`~gridwidgets.rooms.Room.record_exercise_answer`), the page's
    messages limited as every room page's."""

    page_settable = frozenset({"show_forbidden", "show_labels", "show_legal", "show_region", "seen_version"})


def first_unsolved(a: Assignment, token: str) -> int:
    """The first exercise of ``a`` the seat ``token`` has not solved (0 when it solved them all)."""
    solved = {r["exercise"] for r in a.answers if r["token"] == token and r["solved"]}
    return next((i for i in range(len(a.exercises)) if i not in solved), 0)


def exercise_board(room: Room, a: Assignment, token: str, index: int | None = None, **options: Any) -> GameWidget:
    """The board of a student's page working through the room's exercise set
    ``a``, from exercise ``index`` (default the first one this student has not
    solved). Every answer is stored before the board moves on.

    Raises:
        RoomError: an unknown seat.
    """
    from ..exercises import ExerciseWidget

    room.seat(token)
    cls = _POLL_CLASSES.get((RoomExercise, ExerciseWidget))
    if cls is None:
        cls = type("RoomExerciseWidget", (RoomExercise, ExerciseWidget), {"__module__": __name__})
        _POLL_CLASSES[(RoomExercise, ExerciseWidget)] = cls

    def record(row: dict[str, Any]) -> None:
        room.record_exercise_answer(token, a.id, row)

    board = cls.__new__(cls)
    board._init_limits()
    cls.__init__(board, a.exercises, first_unsolved(a, token) if index is None else index, on_answer=record,
                 **options)
    return board
