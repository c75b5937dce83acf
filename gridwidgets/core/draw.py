"""The one drawing module: the text board of the books and a static SVG
board (no JavaScript) drawn from a :class:`~gridwidgets.core.scene.Scene`,
in the spirit of python-chess's ``chess.svg``.

Every game is drawn by :func:`render_svg` from generic layers: regions
(tinted, shaded or outlined sets of cells), holes, pieces (marks, text,
numbered tiles active or muted, tokens, stars), edges (walls and lines
between cells), and overlays (the last move's cells and edges, legal
cells, forbidden cells). Colours come from the one palette
(``core/palette.json``, :mod:`gridwidgets.core.palette`), which the front
end's CSS is generated from too. A game says what to draw through its
:meth:`~gridwidgets.core.Game.scene` hook; nothing here knows a game.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from html import escape
from typing import Any

from .notation import Cell, cell_name, col_label
from .palette import colour, palette, role

__all__ = ["PLAYER_COLOURS", "render_svg", "svg_board", "text_board"]

#: fill colours of players 0.. in the light theme, the palette's default
#: player order (``core/palette.json``), readable on light and dark backgrounds
PLAYER_COLOURS = tuple(colour(name) for name in palette()["players"])


def text_board(rows: int, cols: int, cell_text: Callable[[Cell], str]) -> str:
    """The books' text grid (as in the first seed's sample): 1-based column numbers on top,
    row numbers on the left, ``+---+`` rules between rows.

    Args:
        rows: number of rows of the board.
        cols: number of columns.
        cell_text: the text of a cell (``""`` when empty); up to 3 characters.

    Returns:
        The board, one line per text row, no trailing newline.
    """
    lw = len(str(rows))
    pad = " " * (lw + 1)
    header = pad + "".join(f" {c + 1:^3}" for c in range(cols))
    rule = pad + "+---" * cols + "+"
    lines = [header.rstrip(), rule]
    for r in range(rows):
        body = "".join(f"|{cell_text((r, c))[:3]:^3}" for c in range(cols))
        lines.append(f"{r + 1:>{lw}} {body}|")
        lines.append(rule)
    return "\n".join(lines)


def _frame(rows: int, cols: int, margin: float, cell: float, width: float, height: float, title: str) -> list[str]:
    """The opening of a static board: the svg element, its title, a white
    background, and the column letters and row numbers (C-2)."""
    label = max(6.0, min(11.0, cell * 0.5))
    background, ink = role("background"), role("label")
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="gw-static" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}" font-family="sans-serif" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{width:.1f}" height="{height:.1f}" fill="{background}"/>',
    ]
    for c in range(cols):
        x = margin + (c + 0.5) * cell
        out.append(
            f'<text x="{x:.1f}" y="{margin - 5}" font-size="{label:.1f}" text-anchor="middle" '
            f'fill="{ink}">{col_label(c)}</text>'
        )
    for r in range(rows):
        y = margin + (r + 0.5) * cell + label * 0.35
        out.append(
            f'<text x="{margin - 3}" y="{y:.1f}" font-size="{label:.1f}" text-anchor="end" fill="{ink}">{r + 1}</text>'
        )
    return out


def _mix(colour: str, amount: float, towards: str = "#3f3f46") -> str:
    """``colour`` moved ``amount`` (0..1) of the way to ``towards`` (both ``#rrggbb``)."""
    a = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(towards[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * amount):02x}" for x, y in zip(a, b, strict=True))


def _player_colour(scene: Any, player: int) -> str:
    """``#rrggbb`` of ``player`` in ``scene`` (its palette names, or hex given as is)."""
    names = scene.colours or palette()["players"]
    if player < 0:
        return role("ink")
    name = names[player % len(names)]
    return name if name.startswith("#") else colour(name)


def render_svg(scene: Any, size: int = 320) -> str:
    """Draw a :class:`~gridwidgets.core.scene.Scene` as a static SVG board
    with spreadsheet labels (C-2): columns ``A, B, ...`` on top, rows ``1,
    2, ...`` on the left.

    Layers, bottom to top: the cells (holes left out), the board's frame, regions (``tint``:
    the player's colour, light; ``shade``: the palette's ``visited``;
    ``outline``: a thick frame around the region's cells), forbidden cells
    (small crosses), legal cells (dots), pieces (``mark``: the glyph in the
    player's colour; ``text``: neutral text; ``tile``: a rounded square in
    the player's colour with its number, muted when inactive; ``token``: a
    disc; ``star``: a gold star), edges (``wall``: thick, the player's colour
    or the frame colour for ``-1``; ``line``: thinner), then the last move:
    its cells outlined, its edges underlined in the palette's ``last-move``.

    Args:
        scene: the picture to draw (any object with the attributes of a
            :class:`~gridwidgets.core.scene.Scene`).
        size: width in CSS pixels; the height follows the board's shape.

    Returns:
        The SVG document as a string (light theme colours).
    """
    rows, cols = scene.rows, scene.cols
    margin = 18
    cell = max(6.0, (size - margin - 6) / cols)
    width = margin + cell * cols + 6
    height = margin + cell * rows + 6
    out = _frame(rows, cols, margin, cell, width, height, scene.title)
    holes = set(map(tuple, scene.holes))
    board, grid = role("board"), role("grid")

    def xy(c: Cell) -> tuple[float, float]:
        return margin + c[1] * cell, margin + c[0] * cell

    fills: dict[Cell, str] = {}
    for region in scene.regions:
        if region.style == "tint" and region.player >= 0:
            for c in region.cells:
                fills[tuple(c)] = _mix(_player_colour(scene, region.player), 0.85, board)
        elif region.style == "shade":
            for c in region.cells:
                fills[tuple(c)] = role("visited")
    for r in range(rows):
        for c in range(cols):
            if (r, c) in holes:
                continue
            x, y = xy((r, c))
            out.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{cell:.1f}" height="{cell:.1f}" '
                f'fill="{fills.get((r, c), board)}" stroke="{grid}" stroke-width="1">'
                f"<title>{cell_name((r, c))}</title></rect>"
            )
    for region in scene.regions:
        if region.style != "outline" or not region.cells:
            continue
        r0 = min(c[0] for c in region.cells)
        c0 = min(c[1] for c in region.cells)
        r1 = max(c[0] for c in region.cells) + 1
        c1 = max(c[1] for c in region.cells) + 1
        x, y = xy((r0, c0))
        out.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{(c1 - c0) * cell:.1f}" height="{(r1 - r0) * cell:.1f}" '
            f'fill="none" stroke="{role("frame")}" stroke-width="2.5"/>'
        )
    out.append(f'<rect x="{margin}" y="{margin}" width="{cell * cols:.1f}" height="{cell * rows:.1f}" '
               f'fill="none" stroke="{role("frame")}" stroke-width="2.5"/>')
    for r, c in scene.forbidden:
        cx, cy, d = margin + (c + 0.5) * cell, margin + (r + 0.5) * cell, cell * 0.12
        out.append(
            f'<path d="M{cx - d:.1f},{cy - d:.1f}L{cx + d:.1f},{cy + d:.1f}'
            f'M{cx - d:.1f},{cy + d:.1f}L{cx + d:.1f},{cy - d:.1f}" stroke="{grid}" stroke-width="1.5"/>'
        )
    for r, c in scene.legal:
        out.append(
            f'<circle cx="{margin + (c + 0.5) * cell:.1f}" cy="{margin + (r + 0.5) * cell:.1f}" '
            f'r="{max(1.5, cell * 0.12):.1f}" fill="{role("label")}"/>'
        )
    for piece in sorted(scene.pieces, key=lambda p: tuple(p.cell)):
        out.extend(_piece(scene, piece, margin, cell))
    for edge in scene.edges:
        x1, y1, x2, y2 = _edge(edge.a, edge.b, margin, cell)
        stroke = role("frame") if edge.player < 0 else _player_colour(scene, edge.player)
        w = 4 if edge.style == "wall" else 2.5
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{stroke}" '
                   f'stroke-width="{w}" stroke-linecap="round"/>')
    gold = role("last-move")
    for r, c in scene.last:
        out.append(
            f'<rect x="{margin + c * cell + 1.5:.1f}" y="{margin + r * cell + 1.5:.1f}" '
            f'width="{cell - 3:.1f}" height="{cell - 3:.1f}" fill="none" stroke="{gold}" stroke-width="3"/>'
        )
    for a, b in scene.last_edges:
        x1, y1, x2, y2 = _edge(a, b, margin, cell)
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{gold}" '
                   f'stroke-width="2" stroke-dasharray="3 2" stroke-linecap="round"/>')
    out.append("</svg>")
    return "\n".join(out)


def _edge(a: Cell, b: Cell, margin: float, cell: float) -> tuple[float, float, float, float]:
    """The end points of the edge between adjacent cells ``a`` and ``b`` (``b`` may be off the board)."""
    (r1, c1), (r2, c2) = sorted((tuple(a), tuple(b)))
    if r1 == r2:  # a vertical edge between two cells of a row
        x = margin + c2 * cell
        return x, margin + r1 * cell, x, margin + (r1 + 1) * cell
    y = margin + r2 * cell
    return margin + c1 * cell, y, margin + (c1 + 1) * cell, y


def _piece(scene: Any, piece: Any, margin: float, cell: float) -> list[str]:
    r, c = piece.cell
    x, y = margin + c * cell, margin + r * cell
    cx, cy = x + cell / 2, y + cell / 2
    label = escape(piece.label or piece.text or cell_name((r, c)))
    colour_ = _player_colour(scene, piece.player)
    if piece.kind == "tile":
        fill = colour_ if piece.active else _mix(colour_, 0.55)
        ink = role("ink") if piece.active else role("board")
        font = cell * (0.42 if cell > 14 else 0.36)
        return [
            f'<rect x="{x + 0.8:.1f}" y="{y + 0.8:.1f}" width="{cell - 1.6:.1f}" height="{cell - 1.6:.1f}" '
            f'rx="{cell * 0.15:.1f}" fill="{fill}"><title>{cell_name((r, c))}: {label}</title></rect>',
            f'<text x="{cx:.1f}" y="{cy:.1f}" font-size="{font:.1f}" font-weight="bold" '
            f'text-anchor="middle" dominant-baseline="central" fill="{ink}">{escape(piece.text)}</text>',
        ]
    if piece.kind == "token":
        return [f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{cell * 0.26:.1f}" fill="{colour_}" '
                f'stroke="{role("background")}" stroke-width="2"><title>{label}</title></circle>']
    if piece.kind == "star":
        rad = cell * 0.32
        pts = []
        for k in range(10):
            ang = math.pi / 2 + k * math.pi / 5
            rr = rad if k % 2 == 0 else rad * 0.45
            pts.append(f"{cx + rr * math.cos(ang):.1f},{cy - rr * math.sin(ang):.1f}")
        return [f'<polygon points="{" ".join(pts)}" fill="{role("last-move")}"><title>{label}</title></polygon>']
    text = piece.text if piece.kind == "text" else piece.text[:2]
    font = max(6.0, cell * (0.55 if len(text) <= 1 else 0.38))
    ink = colour_ if piece.kind == "mark" else role("ink")
    return [
        f'<text x="{cx:.1f}" y="{cy:.1f}" font-size="{font:.1f}" font-weight="bold" '
        f'text-anchor="middle" dominant-baseline="central" fill="{ink}">{escape(text)}</text>'
    ]


def svg_board(
    rows: int,
    cols: int,
    pieces: Mapping[Cell, tuple[str, int]],
    *,
    last: Cell | None = None,
    marked: Iterable[Cell] = (),
    size: int = 320,
    title: str = "",
    colours: tuple[str, ...] = PLAYER_COLOURS,
    outlined: Iterable[Cell] = (),
    fields: int = 0,
    field_owners: Iterable[int] = (),
) -> str:
    """A static SVG board of marks (C-2), kept for callers of earlier
    versions: it builds a :class:`~gridwidgets.core.scene.Scene` and draws
    it with :func:`render_svg`.

    Args:
        rows: number of rows of the board.
        cols: number of columns.
        pieces: ``{(row, col): (text, player)}`` for the occupied cells.
        last: the cell of the last move, outlined.
        marked: cells to mark with a small cross (e.g. forbidden ones).
        size: width in CSS pixels; the height follows the board's shape.
        title: an accessible title.
        colours: ``#rrggbb`` (or palette names) per player id.
        outlined: more cells to outline like the last move.
        fields: if > 0, the board is split into ``fields x fields`` blocks
            drawn with thicker lines.
        field_owners: per block, row by row, the player whose colour tints
            it, or -1.

    Returns:
        The SVG document as a string.
    """
    from .scene import Piece, Region, Scene

    regions: list[Region] = []
    if fields:
        owners = list(field_owners)
        per_row = cols // fields
        for k in range((rows // fields) * per_row):
            br, bc = divmod(k, per_row)
            block = tuple((br * fields + i, bc * fields + j) for i in range(fields) for j in range(fields))
            if k < len(owners) and owners[k] >= 0:
                regions.append(Region(block, owners[k], "tint"))
            regions.append(Region(block, -1, "outline"))
    scene = Scene(
        rows=rows,
        cols=cols,
        title=title,
        colours=tuple(colours),
        regions=regions,
        pieces=[Piece(cell, "mark", player, text) for cell, (text, player) in pieces.items()],
        last=(*([last] if last is not None else []), *outlined),
        forbidden=tuple(marked),
    )
    return render_svg(scene, size=size)
