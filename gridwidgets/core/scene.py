"""What a position looks like, as generic layers: the :class:`Scene`.

A game describes its picture with a few kinds of generic layers, in the
spirit of python-chess's ``chess.svg`` (which draws any board from pieces,
squares to fill, arrows and a last move): pieces in cells (marks, text,
numbered tiles, tokens), lines on the edges between cells (walls, drawn
lines), regions of cells (fields, tinted areas) and overlays (the last
move, legal and forbidden cells). One renderer draws every game's scene as
a static SVG (:mod:`gridwidgets.core.draw`), and the browser's generic view
draws the same scene for a game without a front-end layer of its own.

``Game.scene()`` returns one; the default (:func:`default_scene`) draws each
cell's text (:meth:`Game.cell_text`) in its owner's colour and outlines the
last move, which is enough for games whose moves are cells. A game
overrides ``scene()`` to draw more. ``scene.to_dict()`` is its JSON form
(what the widget sends).

Coordinates are cells, ``(row, col)``, 0-based, row 0 on top (rule C-1).
Colours are players' (an index into ``colours``, palette names) or, for
``-1``, the board's neutral ink.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from .notation import Cell

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

__all__ = [
    "LEGEND_KINDS",
    "PIECE_KINDS",
    "REGION_STYLES",
    "Edge",
    "LegendItem",
    "Panel",
    "PanelRow",
    "Piece",
    "Region",
    "Scene",
    "default_scene",
    "move_target",
    "players_panel",
]

#: what a piece can be: a player's mark (its text as a glyph: ``X``, ``O`` or
#: an initial), plain text, a numbered tile filling the cell (muted when not
#: active), a token (a disc, e.g. a runner), a star (e.g. a start tile)
PIECE_KINDS = ("mark", "text", "tile", "token", "star")
#: how a region is drawn: a light fill in the player's colour, a neutral
#: shade, a thick outline (a field of the board), the outer border of its
#: cells in the player's colour (a piece made of several cells, e.g. a placed
#: shape), a ring on each cell (cells the last move changed besides its own,
#: e.g. tiles it put out of play)
REGION_STYLES = ("tint", "shade", "outline", "group", "ring")
#: what a legend entry shows beside its text: a wall, a drawn line, the
#: last move's outline, a star, a token, a shaded cell, a tinted cell, a tile,
#: a muted (inactive) tile
LEGEND_KINDS = ("wall", "line", "last", "star", "token", "shade", "tint", "tile", "tile-muted")
#: how an edge is drawn: a thick wall, or a thinner line (a drawn line)
EDGE_STYLES = ("wall", "line")


@dataclass(frozen=True)
class Piece:
    """Something drawn in one cell.

    Attributes:
        cell: where, ``(row, col)``.
        kind: one of :data:`PIECE_KINDS`.
        player: whose colour (player id), ``-1`` for the neutral ink.
        text: the mark's glyph, the text, or the tile's number.
        active: for a tile: ``False`` draws it muted (a tile out of play).
        label: how it is named for people (screen readers, tooltips); ``""``: the text.
    """

    cell: Cell
    kind: str = "mark"
    player: int = -1
    text: str = ""
    active: bool = True
    label: str = ""


@dataclass(frozen=True)
class Edge:
    """A line on the edge between two orthogonally adjacent cells.

    Attributes:
        a, b: the two cells; ``b`` may lie one step off the board (a border edge).
        player: whose colour, ``-1`` for the board's frame colour (an original wall).
        style: one of :data:`EDGE_STYLES`.
    """

    a: Cell
    b: Cell
    player: int = -1
    style: str = "wall"


@dataclass(frozen=True)
class Region:
    """A set of cells drawn together.

    Attributes:
        cells: the cells.
        player: the tint's colour (player id), ``-1`` neutral.
        style: one of :data:`REGION_STYLES`.
        label: a caption (e.g. a field's number), ``""`` for none.
    """

    cells: tuple[Cell, ...]
    player: int = -1
    style: str = "tint"
    label: str = ""


@dataclass(frozen=True)
class PanelRow:
    """One row of a :class:`Panel`.

    Attributes:
        player: whose colour the row's swatch shows (player id), ``-1`` for none.
        values: the row's cells, one per column of the panel.
        mark: ``"turn"`` (drawn as a triangle: this player acts), ``"winner"``
            (a star) or ``""``.
    """

    player: int
    values: tuple[str, ...]
    mark: str = ""


@dataclass(frozen=True)
class Panel:
    """A table drawn beside the board: what a game shows next to it (the
    players' scores, hands, tiles left), one row per player as a rule.

    Attributes:
        columns: the column headings.
        rows: the rows (:class:`PanelRow`).
    """

    columns: tuple[str, ...]
    rows: tuple[PanelRow, ...]


@dataclass(frozen=True)
class LegendItem:
    """One entry of the legend under the board.

    Attributes:
        kind: one of :data:`LEGEND_KINDS`.
        player: whose colour (player id), ``-1`` neutral (the frame's or the palette's).
        text: what it means (``"placed wall"``).
    """

    kind: str
    player: int
    text: str


@dataclass
class Scene:
    """The picture of a position as generic layers, drawn bottom to top:
    regions, holes, pieces, edges, then the overlays.

    Attributes:
        rows, cols: the board's size in cells.
        title: what the picture shows, for people (``"Tic-tac-toe: X to move."``).
        colours: palette colour names per player (``core/palette.json``).
        holes: cells that are not part of the board (drawn as gaps).
        regions: :class:`Region` layers.
        pieces: :class:`Piece` layers.
        edges: :class:`Edge` layers.
        last: cells outlined as the last move.
        last_edges: edges (pairs of cells) highlighted as the last move.
        legal: cells marked with a dot (legal moves, when asked for).
        forbidden: cells marked with a small cross (moves a rule forbids, when asked for).
        extra: game-specific data for a renderer that knows the game (JSON-able).
        status: the status line (whose turn it is, or who won), drawn above the board.
        notes: more lines under the status (``"Round 2 of 2"``).
        panel: the table beside the board (:class:`Panel`), ``None`` for none.
        legend: what the marks mean (:class:`LegendItem`), drawn under the board.
        next_piece: what a cell move of the player to act puts in its cell
            (its ``cell`` is not read): the page paints it at once on a click,
            before Python's answer confirms the move; ``None``: nothing is
            painted before the answer.
    """

    rows: int
    cols: int
    title: str = ""
    colours: tuple[str, ...] = ()
    holes: tuple[Cell, ...] = ()
    regions: list[Region] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    last: tuple[Cell, ...] = ()
    last_edges: tuple[tuple[Cell, Cell], ...] = ()
    legal: tuple[Cell, ...] = ()
    forbidden: tuple[Cell, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    status: str = ""
    notes: tuple[str, ...] = ()
    panel: Panel | None = None
    legend: tuple[LegendItem, ...] = ()
    next_piece: Piece | None = None

    def to_dict(self) -> dict[str, Any]:
        """The scene as JSON-able values (cells as ``[row, col]`` lists)."""
        return asdict(self)


def move_target(move: Any) -> dict[str, Any]:
    """Where a move is on the board, from its attributes (the move kinds of
    :class:`~gridwidgets.core.gametype.MoveKind`): ``{"kind": "edge", "edge":
    (a, b)}`` for a move with ``edge``, ``{"kind": "cells", "cells": [...]}``
    for one with ``cells``, ``{"kind": "cell", "cell": c}`` for one with
    ``cell``, else ``{"kind": "choice"}`` (not on the board)."""
    edge = getattr(move, "edge", None)
    if edge is not None:
        return {"kind": "edge", "edge": tuple(edge)}
    cells = getattr(move, "cells", None)
    if cells is not None:
        return {"kind": "cells", "cells": list(cells)}
    cell = getattr(move, "cell", None)
    if cell is not None:
        return {"kind": "cell", "cell": cell}
    return {"kind": "choice"}


def last_move_layers(moves: Sequence[Any]) -> tuple[tuple[Cell, ...], tuple[tuple[Cell, Cell], ...]]:
    """The cells and edges to outline for the moves of the last step."""
    cells: list[Cell] = []
    edges: list[tuple[Cell, Cell]] = []
    for m in moves:
        t = move_target(m)
        if t["kind"] == "edge":
            edges.append(t["edge"])
        elif t["kind"] == "cells":
            cells.extend(t["cells"])
        elif t["kind"] == "cell":
            cells.append(t["cell"])
    return tuple(cells), tuple(edges)


def default_scene(game: Game, *, show_legal: bool = False, show_forbidden: bool = False) -> Scene:
    """The generic picture of ``game``: each cell's text (:meth:`Game.cell_text`)
    as a mark in its owner's colour, the last step's cells and edges
    outlined, and on request the legal cells (dots) and the forbidden ones
    (crosses)."""
    board = game.board
    pieces = []
    for r in range(game.rows):
        for c in range(game.cols):
            text = game.cell_text((r, c))
            if text:
                owner = int(board[r, c])
                pieces.append(Piece((r, c), "mark", owner if 0 <= owner < len(game.players) else -1, text))
    steps = game.steps
    last, last_edges = last_move_layers(steps[-1].moves if steps else ())
    legal: tuple[Cell, ...] = ()
    if show_legal:
        legal = tuple(t["cell"] for t in map(move_target, game.legal_moves()) if t["kind"] == "cell")
    status = game.status()
    return Scene(
        rows=game.rows,
        cols=game.cols,
        title=f"{game.game_type.long_name}: {status}",
        status=status,
        panel=players_panel(game),
        legend=(LegendItem("last", -1, "last move"),) if last or last_edges else (),
        colours=tuple(_colour_names(game)),
        pieces=pieces,
        last=last,
        last_edges=last_edges,
        legal=legal,
        forbidden=tuple(game.forbidden_cells()) if show_forbidden else (),
    )


def players_panel(game: Game, columns: Sequence[str] = (), values: Sequence[Sequence[str]] = ()) -> Panel:
    """The players' table of a picture: per player its name (``Player 1 (X)``,
    :meth:`~gridwidgets.core.Game.player_label`), the game's score
    (headed :attr:`~gridwidgets.core.Game.score_label`), then ``columns``
    with ``values[p]`` per player; the player to act marked ``"turn"``, the
    winners ``"winner"`` (none in a draw, where every player is among them, C-4).

    Raises:
        ValueError: if a row of ``values`` does not have one value per column.
    """
    scores = game.scores
    acting = set(game.players_to_move) if not game.is_over else set()
    winners = set(game.winners) if game.is_over else set()
    if len(game.players) > 1 and len(winners) == len(game.players):
        winners = set()  # a draw (C-4: every player among the winners): nobody is singled out
    rows = []
    for p in range(len(game.players)):
        extra = tuple(values[p]) if values else ()
        if len(extra) != len(columns):
            raise ValueError(f"players_panel: player {p} has {len(extra)} values for {len(columns)} columns")
        mark = "winner" if p in winners else "turn" if p in acting else ""
        rows.append(PanelRow(p, (game.player_label(p), str(scores[p]), *extra), mark))
    return Panel(("Player", game.score_label, *columns), tuple(rows))


def _colour_names(game: Game) -> list[str]:
    from .palette import palette

    names = list(game.player_colours)
    order = names + [c for c in palette()["players"] if c not in names]
    n = len(game.players)
    while len(order) < n:
        order += order
    return order[:n]
