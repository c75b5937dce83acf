"""Classroom rooms: students on their own devices play each other in a room a
teacher opens, every game a shared object written to SQLite as it changes
(:mod:`gridwidgets.rooms.model`, :mod:`gridwidgets.rooms.store`); class polls
and exercise sets given to a room (:mod:`gridwidgets.rooms.polls`,
:mod:`gridwidgets.rooms.classwork`)."""

from .model import AGENT, CODE_ALPHABET, PAIRINGS, Assignment, Room, RoomError, RoomGame, Rooms, Seat
from .polls import Poll
from .store import Store

__all__ = ["AGENT", "CODE_ALPHABET", "PAIRINGS", "Assignment", "Poll", "Room", "RoomError", "RoomGame", "Rooms", "Seat",
           "Store"]
