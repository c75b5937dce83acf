"""Rules-independent machinery shared by every game: the game protocol
(:class:`Game`, its metadata, steps and simultaneous nodes), the registry,
cells and notation, errors and drawing."""

from . import registry
from .draw import PLAYER_COLOURS, Picture, gallery, svg_board, text_board
from .errors import IllegalMoveError, InvalidMoveError
from .game import FORMAT, CellMove, Game, Hidden, JointMove, Observation, Step
from .gametype import Chance, Dynamics, GameInfo, GameType, Information, MoveKind, Utility
from .notation import Cell, cell_name, col_index, col_label, neighbours4, parse_cell

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
