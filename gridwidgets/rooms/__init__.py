"""Classroom rooms: students on their own devices play each other in a room a
teacher opens, every game a shared object written to SQLite as it changes
(:mod:`gridwidgets.rooms.model`, :mod:`gridwidgets.rooms.store`)."""

from .model import AGENT, CODE_ALPHABET, PAIRINGS, Room, RoomError, RoomGame, Rooms, Seat
from .store import Store

__all__ = ["AGENT", "CODE_ALPHABET", "PAIRINGS", "Room", "RoomError", "RoomGame", "Rooms", "Seat", "Store"]
