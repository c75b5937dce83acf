"""Rules-independent machinery shared by every game."""

from .draw import PLAYER_COLOURS, svg_board, text_board
from .errors import IllegalMoveError
from .game import FORMAT, CellMove, Game, Observation
from .notation import Cell, cell_name, col_index, col_label, neighbours4, parse_cell

__all__ = [
    "FORMAT",
    "PLAYER_COLOURS",
    "Cell",
    "CellMove",
    "Game",
    "IllegalMoveError",
    "Observation",
    "cell_name",
    "col_index",
    "col_label",
    "neighbours4",
    "parse_cell",
    "svg_board",
    "text_board",
]
