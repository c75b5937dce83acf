"""The board of a student's page in a room: the game's own widget class,
limited to what a seat may do.

A page of a room game plays its own seat's moves and nothing else: every
intent goes through :meth:`RoomBoard.handle_intent`, which lets through only
``play`` for the page's seat (the same ``play()`` as everywhere), and refuses
with a status message on that page only: undo, redo, a new game, a history
scrub and the board editor (undo in a room is the teacher's, or every
student's of the game by agreement: :meth:`~gridwidgets.rooms.Room.ask_undo`),
a move while the room is paused, hints (a class plays without the solver's
help), and a page sending more than :data:`FLOOD_LIMIT` messages within
:data:`FLOOD_WINDOW` seconds. The state sent to the page is the public state
(no other player's hidden submission is ever in it) plus, for the page's own
seat, what it chose in secret, as the page's status message.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any

from ..core.errors import shorten
from ..widgets.base import GameWidget, widget_class
from .model import Room, RoomGame

__all__ = ["FLOOD_LIMIT", "FLOOD_WINDOW", "ROOM_HIDDEN_CONTROLS", "RoomBoard", "room_board"]

#: at most this many messages from one page ...
FLOOD_LIMIT = 20
#: ... within this many seconds; more are refused (the game untouched)
FLOOD_WINDOW = 2.0
#: the board controls a room's page does not show (the actions are refused too)
ROOM_HIDDEN_CONTROLS = ("new", "undo", "redo", "toggle-edit", "export", "hints", "goto", "play", "pause", "step",
                        "speed")
#: the traits a room's page may not set
_ROOM_OWNED = frozenset({"hints", "hint_budget", "editing", "board_json", "playing", "delay"})


class RoomBoard:
    """The behaviour of a room page's board, mixed into the game's widget class
    by :func:`room_board` (one class per game class). Attributes ``room`` (the
    :class:`~gridwidgets.rooms.Room`) and ``room_game`` (its
    :class:`~gridwidgets.rooms.RoomGame`) are set by :func:`room_board`."""

    room: Room
    room_game: RoomGame
    _stamps: deque[float]
    _flood_lock: threading.Lock

    def _flooded(self) -> bool:
        now = time.monotonic()
        with self._flood_lock:
            while self._stamps and now - self._stamps[0] > FLOOD_WINDOW:
                self._stamps.popleft()
            if len(self._stamps) >= FLOOD_LIMIT:
                return True
            self._stamps.append(now)
            return False

    def handle_intent(self, content: Any) -> bool:
        """Carry out a ``play`` intent for this page's seat; refuse anything else
        (see the module's text). Returns True if the game changed."""
        if self._flooded():
            self._say("Refused: too many messages from this page; wait a moment.")  # type: ignore[attr-defined]
            return False
        if not isinstance(content, dict):
            self._say("Refused: a message from the page must be an object.")  # type: ignore[attr-defined]
            return False
        kind = content.get("type")
        if kind == "play":
            if self.room.paused:
                self._say("Refused: the room is paused; the teacher will resume it.")  # type: ignore[attr-defined]
                return False
            return bool(super()._play(content))  # type: ignore[misc]
        if kind in ("undo", "redo", "new", "goto", "seek", "edit", "agent-step"):
            self._say(  # type: ignore[attr-defined]
                f"Refused: {shorten(kind, 12).strip(chr(39))} is not played from a room's page; undo is the "
                "teacher's, or both players' (Ask to undo)."
            )
            return False
        self._say(f"Refused: unknown message type {shorten(kind)}.")  # type: ignore[attr-defined]
        return False

    def set_state(self, sync_data: Any) -> None:
        """Take the page's display toggles; refuse hints, the editor, the agents'
        play and delay, and a flood (see the module's text)."""
        if self._flooded():
            self._say("Refused: too many messages from this page; wait a moment.")  # type: ignore[attr-defined]
            self.send_state(None)  # type: ignore[attr-defined]
            return
        if isinstance(sync_data, dict):
            refused = [k for k in sync_data if k in _ROOM_OWNED]
            if refused:
                keep = {k: v for k, v in sync_data.items() if k not in _ROOM_OWNED}
                if keep:
                    super().set_state(keep)  # type: ignore[misc]
                self._say(f"Refused: a room's page cannot set {', '.join(refused[:4])}.")  # type: ignore[attr-defined]
                self.send_state(refused)  # type: ignore[attr-defined]
                return
        super().set_state(sync_data)  # type: ignore[misc]

    def _game_state(self) -> dict[str, Any]:
        state: dict[str, Any] = super()._game_state()  # type: ignore[misc]
        g = self.room_game.game
        own = {p: m for p, m in g.hidden_submissions().items() if p in self.seats}  # type: ignore[attr-defined]
        if own and not state["message"]:
            others = [g.player_label(p) for p in g.players_to_move]
            wait = f", hidden from {' and '.join(others)} until all are in" if others else ""
            state["message"] = f"Your choice: {'; '.join(str(m) for m in own.values())}{wait} ({g.secrecy_rule})."
            state["message_kind"] = "info"
        return state


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
        cls = type(f"Room{base.__name__}", (RoomBoard, base), {"__module__": __name__})
        _CLASSES[base] = cls
    board = cls.__new__(cls)
    board.room = room
    board.room_game = room_game
    board._stamps = deque()
    board._flood_lock = threading.Lock()
    options.setdefault("hidden_controls", list(ROOM_HIDDEN_CONTROLS))
    cls.__init__(board, room_game.game, seats=[player], **options)
    return board
