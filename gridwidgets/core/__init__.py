"""Rules-independent machinery shared by every game: the game protocol
(:class:`Game`, its metadata, steps and simultaneous nodes; its hooks, move
types and save files), the registry, cells and notation, errors, the Scene
and its one renderer, the palette. The ground floor: it imports nothing of
the package above it, except the two facades ``Game.widget()`` and
``Game.simulate()``."""

from . import registry
from .draw import PLAYER_COLOURS, Picture, gallery, svg_board, text_board
from .errors import IllegalMoveError, InvalidMoveError
from .game import Game, Observation
from .gametype import Chance, Dynamics, GameInfo, GameType, Information, MoveKind, Utility
from .moves import CellMove, Hidden, JointMove, Step
from .notation import Cell, cell_name, col_index, col_label, neighbours4, parse_cell
from .savefile import FORMAT

__all__ = [
    "FORMAT",
    "PLAYER_COLOURS",
    "Cell",
    "CellMove",
    "Chance",
    "Dynamics",
    "Game",
    "GameInfo",
    "GameType",
    "Hidden",
    "IllegalMoveError",
    "Information",
    "InvalidMoveError",
    "JointMove",
    "MoveKind",
    "Observation",
    "Picture",
    "Step",
    "Utility",
    "cell_name",
    "col_index",
    "col_label",
    "gallery",
    "neighbours4",
    "parse_cell",
    "registry",
    "svg_board",
    "text_board",
]
