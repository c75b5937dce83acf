"""Drawing helpers shared by the games: the text board of the books and a
static SVG board (no JavaScript), in the spirit of ``chess.svg``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from html import escape

from .notation import Cell, cell_name, col_label

__all__ = ["PLAYER_COLOURS", "svg_board", "text_board"]

#: fill colours of players 0.. (X blue, O orange-red; the four GridMaster4
#: colours follow), readable on light and dark backgrounds
PLAYER_COLOURS = ("#2563eb", "#dc4a1a", "#65a30d", "#0891b2")


def text_board(rows: int, cols: int, cell_text: Callable[[Cell], str]) -> str:
    """The books' text grid (Gridlock seed): 1-based column numbers on top,
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
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="gw-static" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}" font-family="sans-serif" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{width:.1f}" height="{height:.1f}" fill="#ffffff"/>',
    ]
    for c in range(cols):
        x = margin + (c + 0.5) * cell
        out.append(
            f'<text x="{x:.1f}" y="{margin - 5}" font-size="{label:.1f}" text-anchor="middle" '
            f'fill="#555">{col_label(c)}</text>'
        )
    for r in range(rows):
        y = margin + (r + 0.5) * cell + label * 0.35
        out.append(
            f'<text x="{margin - 3}" y="{y:.1f}" font-size="{label:.1f}" text-anchor="end" fill="#555">{r + 1}</text>'
        )
    return out


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
    field_owners: Sequence[int] = (),
) -> str:
    """A static SVG board with spreadsheet labels (RULES C-2).

    Args:
        rows: number of rows of the board.
        cols: number of columns.
        pieces: ``{(row, col): (text, player)}`` for the occupied cells.
        last: the cell of the last move, outlined.
        marked: cells to mark with a small cross (e.g. forbidden ones).
        size: width in CSS pixels; the height follows the board's shape.
        title: an accessible title.
        colours: fill colour per player id.
        outlined: more cells to outline like the last move (a placed shape).
        fields: if > 0, the board is split into ``fields x fields`` blocks
            drawn with thicker lines (Block Four's fields, BF-1).
        field_owners: per block, row by row, the player whose colour tints
            it, or -1 (BF-9).

    Returns:
        The SVG document as a string.
    """
    margin = 18
    cell = max(8.0, (size - margin - 4) / cols)
    width = margin + cell * cols + 4
    height = margin + cell * rows + 4
    font = max(6.0, cell * 0.55)
    out = _frame(rows, cols, margin, cell, width, height, title)
    for r in range(rows):
        for c in range(cols):
            x, y = margin + c * cell, margin + r * cell
            fill = "#f4f4f5"
            if fields and field_owners:
                owner = field_owners[(r // fields) * (cols // fields) + c // fields]
                if owner >= 0:
                    fill = _mix(colours[owner % len(colours)], 0.85, "#f4f4f5")
            out.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{cell:.1f}" height="{cell:.1f}" '
                f'fill="{fill}" stroke="#a1a1aa" stroke-width="1"><title>{cell_name((r, c))}</title></rect>'
            )
    if fields:
        for k in range(0, rows + 1, fields):
            y = margin + k * cell
            out.append(f'<path d="M{margin},{y:.1f}H{margin + cols * cell:.1f}" stroke="#52525b" stroke-width="2.5"/>')
        for k in range(0, cols + 1, fields):
            x = margin + k * cell
            out.append(f'<path d="M{x:.1f},{margin}V{margin + rows * cell:.1f}" stroke="#52525b" stroke-width="2.5"/>')
    for r, c in marked:
        cx, cy, d = margin + (c + 0.5) * cell, margin + (r + 0.5) * cell, cell * 0.12
        out.append(
            f'<path d="M{cx - d:.1f},{cy - d:.1f}L{cx + d:.1f},{cy + d:.1f}'
            f'M{cx - d:.1f},{cy + d:.1f}L{cx + d:.1f},{cy - d:.1f}" '
            f'stroke="#a1a1aa" stroke-width="1.5"/>'
        )
    for (r, c), (text, player) in sorted(pieces.items()):
        cx, cy = margin + (c + 0.5) * cell, margin + (r + 0.5) * cell
        colour = colours[player % len(colours)] if player >= 0 else "#333"
        out.append(
            f'<text x="{cx:.1f}" y="{cy:.1f}" font-size="{font:.1f}" font-weight="bold" '
            f'text-anchor="middle" dominant-baseline="central" fill="{colour}">{escape(text)}</text>'
        )
    for r, c in [*([last] if last is not None else []), *outlined]:
        out.append(
            f'<rect x="{margin + c * cell + 1.5:.1f}" y="{margin + r * cell + 1.5:.1f}" '
            f'width="{cell - 3:.1f}" height="{cell - 3:.1f}" fill="none" stroke="#eab308" stroke-width="3"/>'
        )
    out.append("</svg>")
    return "\n".join(out)


def _mix(colour: str, amount: float, towards: str = "#3f3f46") -> str:
    """``colour`` moved ``amount`` (0..1) of the way to ``towards`` (both ``#rrggbb``)."""
    a = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(towards[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * amount):02x}" for x, y in zip(a, b, strict=True))


def svg_tiles(
    size: int,
    tiles: Mapping[Cell, tuple[int, int, bool]],
    colours: tuple[str, ...],
    *,
    last: Cell | None = None,
    marks: Iterable[Cell] = (),
    size_px: int = 400,
    title: str = "",
) -> str:
    """A static SVG of a square board of numbered tiles (GridMaster4, GM-10).

    Args:
        size: the board is ``size x size``.
        tiles: ``{(row, col): (number, player, active)}``.
        colours: ``#rrggbb`` per player; inactive tiles are drawn muted.
        last: the cell of the last move, outlined.
        marks: cells to mark with a dot (e.g. the legal moves).
        size_px: width in CSS pixels.
        title: an accessible title.
    """
    margin = 18
    cell = max(6.0, (size_px - margin - 4) / size)
    total = margin + cell * size + 4
    out = _frame(size, size, margin, cell, total, total, title)
    out.append(
        f'<rect x="{margin}" y="{margin}" width="{cell * size:.1f}" height="{cell * size:.1f}" '
        f'fill="#f4f4f5" stroke="#a1a1aa" stroke-width="1"/>'
    )
    for k in range(1, size):
        p = margin + k * cell
        out.append(
            f'<path d="M{p:.1f},{margin}V{margin + cell * size:.1f}M{margin},{p:.1f}H{margin + cell * size:.1f}" '
            f'stroke="#d4d4d8" stroke-width="0.6"/>'
        )
    for r, c in marks:
        out.append(
            f'<circle cx="{margin + (c + 0.5) * cell:.1f}" cy="{margin + (r + 0.5) * cell:.1f}" '
            f'r="{max(1.5, cell * 0.14):.1f}" fill="#52525b"/>'
        )
    font = cell * (0.42 if cell > 14 else 0.36)
    for (r, c), (number, player, active) in sorted(tiles.items()):
        x, y = margin + c * cell, margin + r * cell
        base = colours[player % len(colours)]
        fill = base if active else _mix(base, 0.55)
        ink = "#111827" if active else "#f4f4f5"
        out.append(
            f'<rect x="{x + 0.8:.1f}" y="{y + 0.8:.1f}" width="{cell - 1.6:.1f}" height="{cell - 1.6:.1f}" '
            f'rx="{cell * 0.15:.1f}" fill="{fill}"><title>{cell_name((r, c))}: {number}</title></rect>'
        )
        out.append(
            f'<text x="{x + cell / 2:.1f}" y="{y + cell / 2:.1f}" font-size="{font:.1f}" font-weight="bold" '
            f'text-anchor="middle" dominant-baseline="central" fill="{ink}">{number}</text>'
        )
    if last is not None:
        r, c = last
        out.append(
            f'<rect x="{margin + c * cell + 0.5:.1f}" y="{margin + r * cell + 0.5:.1f}" width="{cell - 1:.1f}" '
            f'height="{cell - 1:.1f}" fill="none" stroke="#111827" stroke-width="2.2" rx="{cell * 0.15:.1f}"/>'
        )
    out.append("</svg>")
    return "\n".join(out)


def svg_walls(
    size: int,
    *,
    holes: Iterable[Cell] = (),
    start: Cell | None = None,
    runner: Cell | None = None,
    visited: Iterable[Cell] = (),
    original: Iterable[tuple[Cell, Cell]] = (),
    placed: Iterable[tuple[Cell, Cell]] = (),
    runner_player: int = 1,
    blocker_player: int = 0,
    size_px: int = 320,
    title: str = "",
) -> str:
    """A static SVG of a board of tiles with walls on their edges (GridBloc, GB-1, GB-2).

    Args:
        size: the board is ``size x size`` tiles.
        holes: masked-out cells, drawn as gaps.
        start: the start tile, marked with a star.
        runner: the runner's tile, a disc.
        visited: tiles scored this round, tinted.
        original: original walls as pairs of adjacent cells (dark).
        placed: walls placed this round, in the blocker's colour.
        runner_player, blocker_player: whose colours the runner and the placed walls take.
        size_px: width in CSS pixels.
        title: an accessible title.
    """
    margin = 18
    cell = max(8.0, (size_px - margin - 6) / size)
    total = margin + cell * size + 6
    out = _frame(size, size, margin, cell, total, total, title)
    hole_set, seen = set(holes), set(visited)
    for r in range(size):
        for c in range(size):
            if (r, c) in hole_set:
                continue
            fill = "#dbeafe" if (r, c) in seen else "#f4f4f5"
            out.append(
                f'<rect x="{margin + c * cell + 1:.1f}" y="{margin + r * cell + 1:.1f}" width="{cell - 2:.1f}" '
                f'height="{cell - 2:.1f}" rx="2" fill="{fill}"><title>{cell_name((r, c))}</title></rect>'
            )
    out.append(f'<rect x="{margin}" y="{margin}" width="{cell * size:.1f}" height="{cell * size:.1f}" '
               f'fill="none" stroke="#27272a" stroke-width="3"/>')

    def edge(a: Cell, b: Cell) -> tuple[float, float, float, float]:
        (r1, c1), (r2, c2) = sorted((a, b))
        if r1 == r2:  # a vertical edge between two tiles of a row
            x = margin + c2 * cell
            return x, margin + r1 * cell, x, margin + (r1 + 1) * cell
        y = margin + r2 * cell
        return margin + c1 * cell, y, margin + (c1 + 1) * cell, y

    for a, b in original:
        x1, y1, x2, y2 = edge(a, b)
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#27272a" '
                   f'stroke-width="4" stroke-linecap="round"/>')
    for a, b in placed:
        x1, y1, x2, y2 = edge(a, b)
        wall = PLAYER_COLOURS[blocker_player]
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{wall}" '
                   f'stroke-width="4" stroke-linecap="round"/>')
    if start is not None:
        r, c = start
        cx, cy, rad = margin + (c + 0.5) * cell, margin + (r + 0.5) * cell, cell * 0.32
        pts = []
        for k in range(10):
            ang = math.pi / 2 + k * math.pi / 5
            rr = rad if k % 2 == 0 else rad * 0.45
            pts.append(f"{cx + rr * math.cos(ang):.1f},{cy - rr * math.sin(ang):.1f}")
        out.append(f'<polygon points="{" ".join(pts)}" fill="#eab308"/>')
    if runner is not None:
        r, c = runner
        out.append(f'<circle cx="{margin + (c + 0.5) * cell:.1f}" cy="{margin + (r + 0.5) * cell:.1f}" '
                   f'r="{cell * 0.26:.1f}" fill="{PLAYER_COLOURS[runner_player]}" stroke="#ffffff" stroke-width="2"/>')
    out.append("</svg>")
    return "\n".join(out)
