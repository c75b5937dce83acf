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

__all__ = [
    "FONT_FAMILY",
    "MIN_CELL",
    "PLAYER_COLOURS",
    "Picture",
    "default_size",
    "gallery",
    "muted",
    "render_svg",
    "svg_board",
    "text_board",
    "to_png",
]

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


#: the font of every picture: fonts that Chromium and plain rasterisers
#: (rsvg-convert, resvg) find on Debian, then the generic family
FONT_FAMILY = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"
#: the smallest cell of a picture drawn at its default size, in CSS pixels:
#: big enough that no text of the board is smaller than 11 px
MIN_CELL = 28.0
#: outer padding of a picture, in CSS pixels
PAD = 8.0
#: font sizes (CSS pixels) of the status line, its notes, the panel and the legend
STATUS_FONT, NOTE_FONT, PANEL_FONT, LEGEND_FONT = 15.0, 13.0, 13.0, 12.0


def _text_width(text: str, font: float, bold: bool = False) -> float:
    """An upper estimate of ``text``'s width in CSS pixels (a wide sans-serif)."""
    return len(text) * font * (0.66 if bold else 0.6)


def _text(x: float, y: float, text: str, font: float, fill: str, *, anchor: str = "start",
          bold: bool = False) -> str:
    """A line of text centred on ``y`` (its baseline placed by the font's cap
    height: no ``dominant-baseline``, which plain rasterisers ignore)."""
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{x:.1f}" y="{y + font * 0.36:.1f}" font-size="{font:.1f}"{weight} '
            f'text-anchor="{anchor}" fill="{fill}">{escape(text)}</text>')


def _wrap(text: str, width: float, font: float, bold: bool) -> list[str]:
    """``text`` cut into lines no wider than ``width`` (by words; a long word alone)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if line and _text_width(trial, font, bold) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines or [""]


def _mix(colour: str, amount: float, towards: str = "#3f3f46") -> str:
    """``colour`` moved ``amount`` (0..1) of the way to ``towards`` (both ``#rrggbb``)."""
    a = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(towards[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * amount):02x}" for x, y in zip(a, b, strict=True))


def muted(colour: str) -> str:
    """The muted shade of a player's colour (an inactive tile, drawn "a darker
    shade" as the rules of a tile game ask): the same hue, darker, so the tile
    stays recognisably that player's (``#rrggbb``)."""
    return _mix(colour, 0.38, "#000000")


def _player_colour(scene: Any, player: int) -> str:
    """``#rrggbb`` of ``player`` in ``scene`` (its palette names, or hex given as is)."""
    names = scene.colours or palette()["players"]
    if player < 0:
        return role("ink")
    name = names[player % len(names)]
    return name if name.startswith("#") else colour(name)


def owner_mark(player: int, cx: float, cy: float, rad: float, fill: str) -> str:
    """A small shape that tells a tile's owner without its colour (WCAG 1.4.1):
    a disc for player 0, a square for 1, a triangle for 2, a diamond for 3;
    ``""`` for other players. Centred on ``(cx, cy)``, ``rad`` its half size.
    The page draws the same marks (its tile layer)."""
    if player == 0:
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{rad:.1f}" fill="{fill}"/>'
    if player == 1:
        return (f'<rect x="{cx - rad * 0.9:.1f}" y="{cy - rad * 0.9:.1f}" width="{rad * 1.8:.1f}" '
                f'height="{rad * 1.8:.1f}" fill="{fill}"/>')
    if player == 2:
        return (f'<polygon points="{cx:.1f},{cy - rad:.1f} {cx + rad:.1f},{cy + rad * 0.8:.1f} '
                f'{cx - rad:.1f},{cy + rad * 0.8:.1f}" fill="{fill}"/>')
    if player == 3:
        return (f'<polygon points="{cx:.1f},{cy - rad:.1f} {cx + rad:.1f},{cy:.1f} '
                f'{cx:.1f},{cy + rad:.1f} {cx - rad:.1f},{cy:.1f}" fill="{fill}"/>')
    return ""


def _star(cx: float, cy: float, rad: float) -> str:
    """The points of a five-pointed star."""
    pts = []
    for k in range(10):
        ang = math.pi / 2 + k * math.pi / 5
        rr = rad if k % 2 == 0 else rad * 0.45
        pts.append(f"{cx + rr * math.cos(ang):.1f},{cy - rr * math.sin(ang):.1f}")
    return " ".join(pts)


def default_size(cols: int) -> int:
    """The default width of a board (labels and cells, CSS pixels) with
    ``cols`` columns: 320, or wider so that a cell is at least
    :data:`MIN_CELL` (no text under 11 px)."""
    return int(max(320.0, 24 + cols * MIN_CELL))


def render_svg(scene: Any, size: int | None = None, panel: str = "auto", labels: bool = True) -> str:
    """Draw a :class:`~gridwidgets.core.scene.Scene` as a static SVG picture:
    the status line (and notes) on top, the board with spreadsheet labels
    (C-2: columns ``A, B, ...`` on top, rows ``1, 2, ...`` on the left), the
    players' panel beside it (or under it, for a wide board) and the legend
    under the board.

    Board layers, bottom to top: the cells (holes left out), regions
    (``tint``: the player's colour, light; ``shade``: the palette's
    ``visited``; ``outline``: a thick frame around the region's cells;
    ``group``: the border of the cells in the player's colour), the frame,
    forbidden cells (small crosses), legal cells (dots), pieces (``mark``:
    the glyph in the player's colour; ``text``: neutral text; ``tile``: a
    rounded square in the player's colour with its number, an inactive one in
    a darker shade of the same hue (:func:`muted`) with a dashed outline in
    the full colour; ``token``: a disc;
    ``star``: a gold star), edges (``wall``: thick, the player's colour or
    the frame colour for ``-1``; ``line``: thinner), then the last move: its
    cells outlined, its edges underlined in the palette's ``last-move``.

    Text is placed without ``dominant-baseline`` and in fonts plain
    rasterisers find, so the picture looks the same in a browser, in
    rsvg-convert and in resvg (:func:`to_png`).

    Args:
        scene: the picture to draw (any object with the attributes of a
            :class:`~gridwidgets.core.scene.Scene`).
        size: width of the board (labels and cells) in CSS pixels; the
            panel adds to it. ``None``: :func:`default_size`, with no text
            under 11 px.
        panel: where the players' panel goes: ``"beside"`` the board,
            ``"below"`` it, or ``"auto"`` (beside a board up to 480 px wide).
        labels: draw the column and row labels (``False``: the board alone,
            e.g. a thumbnail whose labels would be too small to read).

    Raises:
        ValueError: for another ``panel``.

    Returns:
        The SVG document as a string (light theme colours).
    """
    rows, cols = scene.rows, scene.cols
    label_font = 12.0
    left = _text_width(str(rows), label_font) + 6 if labels else 0.0
    width_board = float(size if size is not None else default_size(cols))
    cell = max(4.0, (width_board - left - 2) / cols)
    label_font = max(6.0, min(12.0, cell * 0.5))
    top = label_font + 6 if labels else 0.0
    board_w = left + cell * cols + 2

    if panel not in ("auto", "beside", "below"):
        raise ValueError(f"panel must be 'auto', 'beside' or 'below', got {str(panel)[:30]!r}")
    where = panel
    panel = getattr(scene, "panel", None)
    legend = tuple(getattr(scene, "legend", ()) or ())
    status = getattr(scene, "status", "") or ""
    notes = tuple(getattr(scene, "notes", ()) or ())
    panel_w, panel_h, col_w = _panel_size(panel)
    beside = panel is not None and (where == "beside" or (where == "auto" and board_w <= 480))
    width = PAD * 2 + board_w + (panel_w + 16 if beside else 0)
    if panel is not None and not beside:
        width = max(width, PAD * 2 + panel_w)
    text_w = width - PAD * 2
    status_lines = _wrap(status, text_w, STATUS_FONT, True) if status else []
    note_lines = [line for note in notes for line in _wrap(note, text_w, NOTE_FONT, False)]
    head = len(status_lines) * 20 + len(note_lines) * 18 + (6 if status_lines or note_lines else 0)
    legend_lines = _legend_lines(legend, width - PAD * 2)
    ox, oy = PAD + left, PAD + head + top
    below = oy + cell * rows + 2 + 8
    legend_y = below
    below += len(legend_lines) * 20
    panel_x, panel_y = (PAD + board_w + 16, PAD + head) if beside else (PAD, below + (4 if legend_lines else 0))
    height = max(below, panel_y + panel_h if panel is not None else 0) + PAD
    if beside:
        height = max(height, PAD + head + panel_h + PAD)

    ink, label_ink, background = role("ink"), role("label"), role("background")
    title = scene.title or status
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="gw-static" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}" font-family="{FONT_FAMILY}" role="img" '
        f'aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{width:.1f}" height="{height:.1f}" fill="{background}"/>',
    ]
    y = PAD + 10
    for line in status_lines:
        out.append(_text(PAD, y, line, STATUS_FONT, ink, bold=True))
        y += 20
    for line in note_lines:
        out.append(_text(PAD, y - 1, line, NOTE_FONT, label_ink))
        y += 18
    for c in range(cols if labels else 0):
        out.append(_text(ox + (c + 0.5) * cell, oy - 4 - label_font / 2, col_label(c), label_font, label_ink,
                         anchor="middle"))
    for r in range(rows if labels else 0):
        out.append(_text(ox - 4, oy + (r + 0.5) * cell, str(r + 1), label_font, label_ink, anchor="end"))
    out.extend(_board(scene, ox, oy, cell))
    for k, items in enumerate(legend_lines):
        out.extend(_legend(scene, items, PAD, legend_y + k * 20 + 10))
    if panel is not None:
        out.extend(_panel(scene, panel, col_w, panel_x, panel_y))
    out.append("</svg>")
    return "\n".join(out)


def _panel_size(panel: Any) -> tuple[float, float, list[float]]:
    """Width, height and column widths of a panel (0, 0, [] for none)."""
    if panel is None:
        return 0.0, 0.0, []
    widths = [_text_width(h, PANEL_FONT, True) for h in panel.columns]
    for row in panel.rows:
        for k, v in enumerate(row.values[: len(widths)]):
            widths[k] = max(widths[k], _text_width(v, PANEL_FONT, k == 0))
    lead = 34.0  # the mark (turn or winner) and the colour swatch
    return lead + sum(w + 12 for w in widths), 22.0 * (len(panel.rows) + 1), widths


def _panel(scene: Any, panel: Any, widths: list[float], x0: float, y0: float) -> list[str]:
    """The players' table: a header, then a row per player with its mark and swatch."""
    ink, label_ink, grid = role("ink"), role("label"), role("grid")
    out = ['<g class="gw-panel">']
    x = x0 + 34
    for k, h in enumerate(panel.columns):
        out.append(_text(x, y0 + 11, h, PANEL_FONT, label_ink, bold=True))
        x += widths[k] + 12
    # a game of tiles marks each player's tiles with a shape (owner_mark): the
    # swatch shows it too, the key from shape to player
    marked = any(item.kind == "tile" for item in scene.legend)
    total = 34 + sum(w + 12 for w in widths)
    out.append(f'<line x1="{x0:.1f}" y1="{y0 + 21:.1f}" x2="{x0 + total:.1f}" y2="{y0 + 21:.1f}" '
               f'stroke="{grid}" stroke-width="1"/>')
    for i, row in enumerate(panel.rows):
        cy = y0 + 22 * (i + 1) + 11
        if row.mark == "turn":
            out.append(f'<polygon points="{x0 + 2:.1f},{cy - 5:.1f} {x0 + 11:.1f},{cy:.1f} {x0 + 2:.1f},{cy + 5:.1f}" '
                       f'fill="{ink}"><title>to act</title></polygon>')
        elif row.mark == "winner":
            out.append(f'<polygon points="{_star(x0 + 7, cy, 7)}" fill="{role("last-move")}">'
                       f'<title>winner</title></polygon>')
        if row.player >= 0:
            out.append(f'<rect x="{x0 + 16:.1f}" y="{cy - 6:.1f}" width="12" height="12" rx="2" '
                       f'fill="{_player_colour(scene, row.player)}"/>')
            if marked:
                out.append(owner_mark(row.player, x0 + 22, cy, 3.6, ink))
        x = x0 + 34
        for k, v in enumerate(row.values[: len(widths)]):
            out.append(_text(x, cy, v, PANEL_FONT, ink, bold=(k == 0 and row.mark != "")))
            x += widths[k] + 12
    out.append("</g>")
    return out


def _legend_lines(legend: tuple[Any, ...], width: float) -> list[list[Any]]:
    """The legend's entries in lines no wider than ``width``."""
    lines: list[list[Any]] = []
    used = width + 1
    for item in legend:
        w = 24 + _text_width(item.text, LEGEND_FONT) + 14
        if used + w > width:
            lines.append([])
            used = 0.0
        lines[-1].append(item)
        used += w
    return lines


def _legend(scene: Any, items: list[Any], x: float, cy: float) -> list[str]:
    """One line of the legend: each entry's symbol, then its text."""
    out = ['<g class="gw-legend">']
    gold, frame = role("last-move"), role("frame")
    for item in items:
        c = _player_colour(scene, item.player) if item.player >= 0 else frame
        k = item.kind
        if k in ("wall", "line"):
            out.append(f'<line x1="{x + 2:.1f}" y1="{cy:.1f}" x2="{x + 18:.1f}" y2="{cy:.1f}" stroke="{c}" '
                       f'stroke-width="{4 if k == "wall" else 2.5}" stroke-linecap="round"/>')
        elif k == "last":
            out.append(f'<rect x="{x + 3:.1f}" y="{cy - 7:.1f}" width="14" height="14" fill="none" '
                       f'stroke="{gold}" stroke-width="3"/>')
        elif k == "star":
            out.append(f'<polygon points="{_star(x + 10, cy, 8)}" fill="{gold}"/>')
        elif k == "token":
            out.append(f'<circle cx="{x + 10:.1f}" cy="{cy:.1f}" r="6" fill="{c}"/>')
        else:
            fill = {"shade": role("visited"), "tint": _mix(c, 0.85, role("board")), "tile": c}.get(k, muted(c))
            dash = f' stroke="{c}" stroke-dasharray="2 2"' if k == "tile-muted" else f' stroke="{role("grid")}"'
            out.append(f'<rect x="{x + 3:.1f}" y="{cy - 7:.1f}" width="14" height="14" rx="2" fill="{fill}"{dash}/>')
        out.append(_text(x + 24, cy, item.text, LEGEND_FONT, role("label")))
        x += 24 + _text_width(item.text, LEGEND_FONT) + 14
    out.append("</g>")
    return out


def _board(scene: Any, ox: float, oy: float, cell: float) -> list[str]:
    """The board's layers, its top-left cell corner at ``(ox, oy)``."""
    rows, cols = scene.rows, scene.cols
    holes = set(map(tuple, scene.holes))
    board, grid = role("board"), role("grid")
    out: list[str] = []

    def xy(c: Cell) -> tuple[float, float]:
        return ox + c[1] * cell, oy + c[0] * cell

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
    out.append(f'<rect x="{ox:.1f}" y="{oy:.1f}" width="{cell * cols:.1f}" height="{cell * rows:.1f}" '
               f'fill="none" stroke="{role("frame")}" stroke-width="2.5"/>')
    for r, c in scene.forbidden:
        cx, cy, d = ox + (c + 0.5) * cell, oy + (r + 0.5) * cell, cell * 0.12
        out.append(
            f'<path d="M{cx - d:.1f},{cy - d:.1f}L{cx + d:.1f},{cy + d:.1f}'
            f'M{cx - d:.1f},{cy + d:.1f}L{cx + d:.1f},{cy - d:.1f}" stroke="{grid}" stroke-width="1.5"/>'
        )
    for r, c in scene.legal:
        out.append(
            f'<circle cx="{ox + (c + 0.5) * cell:.1f}" cy="{oy + (r + 0.5) * cell:.1f}" '
            f'r="{max(1.5, cell * 0.12):.1f}" fill="{role("label")}"/>'
        )
    for piece in sorted(scene.pieces, key=lambda p: tuple(p.cell)):
        out.extend(_piece(scene, piece, ox, oy, cell))
    for region in scene.regions:
        if region.style == "group" and region.cells:
            out.append(_group_border(scene, region, ox, oy, cell))
        elif region.style == "ring":
            title = f"<title>{escape(region.label)}</title>" if region.label else ""
            for r, c in region.cells:
                out.append(
                    f'<rect x="{ox + c * cell + 0.5:.1f}" y="{oy + r * cell + 0.5:.1f}" width="{cell - 1:.1f}" '
                    f'height="{cell - 1:.1f}" rx="{cell * 0.24:.1f}" fill="none" stroke="{role("ink")}" '
                    f'stroke-width="1.5">{title}</rect>'
                )
    for edge in scene.edges:
        x1, y1, x2, y2 = _edge(edge.a, edge.b, ox, oy, cell)
        stroke = role("frame") if edge.player < 0 else _player_colour(scene, edge.player)
        w = 4 if edge.style == "wall" else 2.5
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{stroke}" '
                   f'stroke-width="{w}" stroke-linecap="round"/>')
    gold = role("last-move")
    for r, c in scene.last:
        out.append(
            f'<rect x="{ox + c * cell + 1.5:.1f}" y="{oy + r * cell + 1.5:.1f}" '
            f'width="{cell - 3:.1f}" height="{cell - 3:.1f}" fill="none" stroke="{gold}" stroke-width="3"/>'
        )
    for a, b in scene.last_edges:
        x1, y1, x2, y2 = _edge(a, b, ox, oy, cell)
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{gold}" '
                   f'stroke-width="2" stroke-dasharray="3 2" stroke-linecap="round"/>')
    return out


def _group_border(scene: Any, region: Any, ox: float, oy: float, cell: float) -> str:
    """The outer border of a region's cells (a shape made of several cells),
    in the player's colour, drawn a little inside the cells."""
    cells = {tuple(c) for c in region.cells}
    colour_ = _player_colour(scene, region.player)
    inset = max(1.5, cell * 0.08)
    parts = []

    def end(along: bool, diagonal: bool) -> float:
        # an edge's end: pulled in at a convex corner, pushed out at a concave one
        return inset if not along else -inset if diagonal else 0.0

    for r, c in sorted(cells):
        x, y = ox + c * cell, oy + r * cell
        if (r - 1, c) not in cells:
            x1 = x + end((r, c - 1) in cells, (r - 1, c - 1) in cells)
            x2 = x + cell - end((r, c + 1) in cells, (r - 1, c + 1) in cells)
            parts.append(f"M{x1:.1f},{y + inset:.1f}H{x2:.1f}")
        if (r + 1, c) not in cells:
            x1 = x + end((r, c - 1) in cells, (r + 1, c - 1) in cells)
            x2 = x + cell - end((r, c + 1) in cells, (r + 1, c + 1) in cells)
            parts.append(f"M{x1:.1f},{y + cell - inset:.1f}H{x2:.1f}")
        if (r, c - 1) not in cells:
            y1 = y + end((r - 1, c) in cells, (r - 1, c - 1) in cells)
            y2 = y + cell - end((r + 1, c) in cells, (r + 1, c - 1) in cells)
            parts.append(f"M{x + inset:.1f},{y1:.1f}V{y2:.1f}")
        if (r, c + 1) not in cells:
            y1 = y + end((r - 1, c) in cells, (r - 1, c + 1) in cells)
            y2 = y + cell - end((r + 1, c) in cells, (r + 1, c + 1) in cells)
            parts.append(f"M{x + cell - inset:.1f},{y1:.1f}V{y2:.1f}")
    label = escape(region.label) if region.label else "shape"
    return (f'<path class="gw-group" d="{"".join(parts)}" fill="none" stroke="{colour_}" '
            f'stroke-width="{max(1.5, cell * 0.08):.1f}" stroke-linecap="square"><title>{label}</title></path>')


def _edge(a: Cell, b: Cell, ox: float, oy: float, cell: float) -> tuple[float, float, float, float]:
    """The end points of the edge between adjacent cells ``a`` and ``b`` (``b`` may be off the board)."""
    (r1, c1), (r2, c2) = sorted((tuple(a), tuple(b)))
    if r1 == r2:  # a vertical edge between two cells of a row
        x = ox + c2 * cell
        return x, oy + r1 * cell, x, oy + (r1 + 1) * cell
    y = oy + r2 * cell
    return ox + c1 * cell, y, ox + (c1 + 1) * cell, y


def _piece(scene: Any, piece: Any, ox: float, oy: float, cell: float) -> list[str]:
    r, c = piece.cell
    x, y = ox + c * cell, oy + r * cell
    cx, cy = x + cell / 2, y + cell / 2
    label = escape(piece.label or piece.text or cell_name((r, c)))
    colour_ = _player_colour(scene, piece.player)
    if piece.kind == "tile":
        font = cell * 0.42
        # the owner's mark in the corner: the owner without its colour (WCAG 1.4.1)
        mark_at = (x + cell * 0.24, y + cell * 0.24, cell * 0.1)
        if piece.active:
            # the outline, the colour mixed with the ink: 3:1 on the board (WCAG 1.4.11)
            return [
                f'<rect x="{x + 1.5:.1f}" y="{y + 1.5:.1f}" width="{cell - 3:.1f}" height="{cell - 3:.1f}" '
                f'rx="{cell * 0.15:.1f}" fill="{colour_}" stroke="{_mix(colour_, 0.45, role("ink"))}" '
                f'stroke-width="1.5"><title>{cell_name((r, c))}: {label}</title></rect>',
                owner_mark(piece.player, *mark_at, role("ink")),
                _text(cx, cy, piece.text, font, role("ink"), anchor="middle", bold=True),
            ]
        # out of play: a darker shade of the same hue, a dashed outline in the full colour
        return [
            f'<rect x="{x + 1.5:.1f}" y="{y + 1.5:.1f}" width="{cell - 3:.1f}" height="{cell - 3:.1f}" '
            f'rx="{cell * 0.15:.1f}" fill="{muted(colour_)}" stroke="{colour_}" stroke-width="1.5" '
            f'stroke-dasharray="3 2"><title>{cell_name((r, c))}: {label}</title></rect>',
            owner_mark(piece.player, *mark_at, "#ffffff"),
            _text(cx, cy, piece.text, font, "#ffffff", anchor="middle", bold=True),
        ]
    if piece.kind == "token":
        return [f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{cell * 0.26:.1f}" fill="{colour_}" '
                f'stroke="{role("background")}" stroke-width="2"><title>{label}</title></circle>']
    if piece.kind == "star":
        star = _star(cx, cy, cell * 0.32)
        return [f'<polygon points="{star}" fill="{role("last-move")}"><title>{label}</title></polygon>']
    text = piece.text if piece.kind == "text" else piece.text[:2]
    font = max(6.0, cell * (0.55 if len(text) <= 1 else 0.4))
    ink = colour_ if piece.kind == "mark" else role("ink")
    return [_text(cx, cy, text, font, ink, anchor="middle", bold=True)]


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
) -> str:
    """A static SVG board of marks (C-2) from a mapping of cells, for a board
    that is not a game (a notebook's own picture): it builds a
    :class:`~gridwidgets.core.scene.Scene` and draws it with :func:`render_svg`.

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

    Returns:
        The SVG document as a string.
    """
    from .scene import Piece, Scene

    scene = Scene(
        rows=rows,
        cols=cols,
        title=title,
        colours=tuple(colours),
        pieces=[Piece(cell, "mark", player, text) for cell, (text, player) in pieces.items()],
        last=(*([last] if last is not None else []), *outlined),
        forbidden=tuple(marked),
    )
    return render_svg(scene, size=size)


def to_png(svg: str, path: Any = None, *, scale: float = 2.0) -> bytes:
    """Rasterise a picture of :func:`render_svg` to PNG with resvg (the
    ``resvg-py`` package), on white, for slides and documents.

    Args:
        svg: the SVG document.
        path: a file to write the PNG to (``str`` or ``os.PathLike``); ``None``: only return it.
        scale: pixels per CSS pixel (2: sharp on a projector or a high-density screen).

    Returns:
        The PNG file's bytes (``width * scale`` by ``height * scale`` pixels).

    Raises:
        ValueError: if ``scale`` is not in (0, 8] or the SVG cannot be drawn.
        ImportError: if resvg-py is missing (``pip install resvg-py``).
    """
    if not (isinstance(scale, (int, float)) and 0 < scale <= 8):
        raise ValueError(f"scale must be a number in (0, 8], got {str(scale)[:30]!r}")
    try:
        import resvg_py
    except ImportError as e:  # pragma: no cover - a dependency of the package
        raise ImportError("PNG export needs resvg-py: pip install resvg-py") from e
    png = bytes(resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff", zoom=float(scale),
                                      sans_serif_family="DejaVu Sans"))
    if path is not None:
        from pathlib import Path

        Path(path).write_bytes(png)
    return png


def _svg_size(svg: str) -> tuple[float, float]:
    """The width and height (CSS pixels) of an SVG document's root element."""
    head = svg[: svg.index(">")]
    return float(head.split('width="', 1)[1].split('"', 1)[0]), float(head.split('height="', 1)[1].split('"', 1)[0])


def png_with_size(svg: str) -> tuple[bytes, dict[str, int]]:
    """A picture as PNG at one pixel per CSS pixel, and its size for the page
    (``{"width": w, "height": h}``, the metadata of a notebook's image output)."""
    width, height = _svg_size(svg)
    return to_png(svg, scale=1.0), {"width": round(width), "height": round(height)}


def with_picture(bundle: Any, svg: str, text: str) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """A widget's display bundle (``_repr_mimebundle_``) with a static picture
    beside its live view: ``image/svg+xml``, ``image/png`` (with its size) and
    ``text/plain``. JupyterLab shows the live view; the docs site, HTML
    exports, slides and a notebook read without a kernel show the picture.
    No ``text/html``: an untrusted notebook strips SVG from HTML.

    Args:
        bundle: what ``super()._repr_mimebundle_()`` returned (a dict, or
            ``(data, metadata)``; ``None`` data: the widget is not shown).
        svg: the picture of what the widget shows.
        text: its plain-text form.

    Returns:
        ``(data, metadata)``.
    """
    data, meta = bundle if isinstance(bundle, tuple) else (bundle, {})
    if data is None:
        return None, dict(meta or {})
    data, meta = dict(data), dict(meta or {})
    data["text/plain"] = text
    data["image/svg+xml"] = svg
    data["image/png"], meta["image/png"] = png_with_size(svg)
    return data, meta


class Picture:
    """A static picture that a notebook shows as SVG and as PNG (the PNG is what
    a notebook not yet trusted, and GitHub, show), made by :func:`gallery` or
    :meth:`~gridwidgets.core.Game.picture`.

    Attributes:
        svg: the SVG document.
    """

    def __init__(self, svg: str) -> None:
        self.svg = svg

    def __repr__(self) -> str:
        width, height = _svg_size(self.svg)
        return f"<Picture {width:.0f}x{height:.0f}>"

    def _repr_svg_(self) -> str:
        return self.svg

    def _repr_png_(self) -> tuple[bytes, dict[str, int]]:
        return png_with_size(self.svg)

    def to_png(self, path: Any = None, *, scale: float = 2.0) -> bytes:
        """The picture as PNG (:func:`to_png`), written to ``path`` if given."""
        return to_png(self.svg, path, scale=scale)


def gallery(items: Iterable[Any], captions: Iterable[str] | None = None, *, size: int | None = None,
            width: int = 1000) -> Picture:
    """Several pictures in rows, each under its caption, as one :class:`Picture`.

    Args:
        items: games (drawn with their ``to_svg(size=size)``) or SVG documents.
        captions: one caption per item (``None``: none).
        size: the board width of each game drawn here (CSS pixels).
        width: the widest a row may be (CSS pixels); pictures wrap below it.

    Returns:
        The picture.

    Raises:
        ValueError: if there are no items, or not one caption per item.
        TypeError: if an item is neither a game nor an SVG document.
    """
    svgs = []
    for item in items:
        if isinstance(item, str) and item.lstrip().startswith("<svg"):
            svgs.append(item)
        elif hasattr(item, "to_svg"):
            svgs.append(item.to_svg(size=size) if size is not None else item.to_svg())
        else:
            raise TypeError(f"gallery() takes games or SVG documents, not {type(item).__name__}")
    if not svgs:
        raise ValueError("gallery() needs at least one picture")
    names = [str(c) for c in captions] if captions is not None else [""] * len(svgs)
    if len(names) != len(svgs):
        raise ValueError(f"{len(names)} captions for {len(svgs)} pictures")
    gap = 24
    parts: list[str] = []
    x = y = row_h = total_w = 0.0
    for svg, caption in zip(svgs, names, strict=True):
        pw, ph = _svg_size(svg)
        lines = _wrap(caption, pw - 8, 14.0, True) if caption else []
        head = len(lines) * 19 + (4 if lines else 0)
        if x and x + pw > width:
            x, y, row_h = 0.0, y + row_h + gap, 0.0
        for k, line in enumerate(lines):
            parts.append(_text(x + 8, y + 10 + 19 * k, line, 14.0, role("ink"), bold=True))
        parts.append(svg.replace("<svg ", f'<svg x="{x:.1f}" y="{y + head:.1f}" ', 1))
        row_h = max(row_h, ph + head)
        total_w = max(total_w, x + pw)
        x += pw + gap
    total_h = y + row_h
    label = escape(", ".join(n for n in names if n) or "pictures")
    return Picture(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="gw-gallery" width="{total_w:.0f}" height="{total_h:.0f}" '
        f'viewBox="0 0 {total_w:.1f} {total_h:.1f}" font-family="{FONT_FAMILY}" role="img" aria-label="{label}">'
        f'<rect width="{total_w:.1f}" height="{total_h:.1f}" fill="{role("background")}"/>\n'
        + "\n".join(parts)
        + "\n</svg>"
    )
