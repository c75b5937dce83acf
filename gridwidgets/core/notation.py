"""Cells and their notation (rule C-1, C-2).

In Python a cell is a 0-based ``(row, col)`` tuple, row 0 at the top
(numpy order). For people a cell is written spreadsheet style: column
letter(s), then the 1-based row number: ``A1`` is ``(0, 0)``, ``C2`` is
``(1, 2)``. Parsers also accept the books' "row column" form with 1-based
numbers: ``"2 3"`` and ``"2,3"`` both mean ``C2``.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import numpy as np

from .errors import IllegalMoveError, InvalidMoveError, shorten

__all__ = [
    "Cell",
    "cell_name",
    "col_index",
    "col_label",
    "count_of",
    "neighbours4",
    "parse_cell",
]

Cell = tuple[int, int]

#: the longest text a cell can be written in (``"(26, 26)"`` with some spaces);
#: longer input is refused before any pattern looks at it (bounded time)
MAX_CELL_TEXT = 24
_SHEET = re.compile(r"([A-Za-z]{1,3}) ?([0-9]{1,4})")
_ROWCOL = re.compile(r"\(? ?([0-9]{1,4}) ?(?:, ?| )([0-9]{1,4}) ?\)?")


@functools.lru_cache(maxsize=1024)
def col_label(col: int) -> str:
    """Column letters for a 0-based column: 0 -> ``A``, 25 -> ``Z``, 26 -> ``AA``
    (remembered: every move's notation asks for one)."""
    if col < 0:
        raise ValueError(f"column {col} is negative")
    out = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(ord("A") + rem) + out
    return out


def col_index(letters: str) -> int:
    """0-based column of spreadsheet letters, case-insensitive: ``B`` -> 1."""
    n = 0
    for ch in letters.upper():
        if not "A" <= ch <= "Z":
            raise ValueError(f"{letters!r} is not a column name")
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


def cell_name(cell: Cell) -> str:
    """Notation of a 0-based ``(row, col)`` cell: ``(1, 2)`` -> ``"C2"`` (rule C-2)."""
    row, col = cell
    return f"{col_label(col)}{row + 1}"


def count_of(text: object, digits: int) -> int | None:
    """The count written in ``text`` with 1 to ``digits`` ASCII digits, else
    ``None``, in bounded time: the length is checked before anything else, and
    digits that ``int`` would read but a position never writes (Arabic-Indic,
    fullwidth) are refused, as are those it cannot read (superscripts).

    Example:
        >>> count_of("12", 2), count_of("123", 2), count_of("²", 2), count_of("٣", 2), count_of("-1", 2)
        (12, None, None, None, None)
    """
    if isinstance(text, str) and 0 < len(text) <= digits and text.isascii() and text.isdigit():
        return int(text)
    return None


def parse_cell(value: Any, rows: int, cols: int) -> Cell:
    """Read a cell given as ``"C2"``, ``"2 3"``, ``"2,3"`` or ``(1, 2)`` (rule C-1, C-2).

    Args:
        value: the cell, in notation (case-insensitive), the 1-based
            "row column" form, or a 0-based ``(row, col)`` pair of ints.
        rows: the number of rows of the board the cell must lie on.
        cols: the number of columns of that board.

    Returns:
        The 0-based ``(row, col)`` tuple.

    Example:
        >>> parse_cell("C2", 4, 4), parse_cell("2 3", 4, 4), parse_cell((1, 2), 4, 4)
        ((1, 2), (1, 2), (1, 2))
        >>> parse_cell("E9", 4, 4)
        Traceback (most recent call last):
        ...
        gridwidgets.core.errors.IllegalMoveError: E9 is off the 4x4 board (C-1)

    Raises:
        InvalidMoveError: (rule ``C-2``) if the value cannot be read; text
            longer than :data:`MAX_CELL_TEXT` is refused at once.
        IllegalMoveError: (rule ``C-1``) if it lies off the board.
    """
    if isinstance(value, str):
        text = value.strip() if len(value) <= 4 * MAX_CELL_TEXT else value
        # runs of spaces count as one (linear time; the patterns then never backtrack far)
        text = " ".join(text.split()) if len(text) <= MAX_CELL_TEXT else text
        m = _SHEET.fullmatch(text) if len(text) <= MAX_CELL_TEXT else None
        if m:
            row, col = int(m.group(2)) - 1, col_index(m.group(1))
        else:
            m = _ROWCOL.fullmatch(text) if len(text) <= MAX_CELL_TEXT else None
            if not m:
                raise InvalidMoveError(
                    f"cannot read {shorten(value)} as a cell: write it like 'B2' or '2 2'",
                    rule="C-2",
                    move=value,
                )
            row, col = int(m.group(1)) - 1, int(m.group(2)) - 1
    elif (
        isinstance(value, (tuple, list))
        and len(value) == 2
        and all(_is_int(v) for v in value)
    ):
        row, col = int(value[0]), int(value[1])
    else:
        raise InvalidMoveError(
            f"cannot read {shorten(value)} as a cell: give 'B2', '2 2' or a (row, col) tuple",
            rule="C-2",
            move=value,
        )
    if not (0 <= row < rows and 0 <= col < cols):
        where = cell_name((row, col)) if 0 <= row < 10_000 and 0 <= col < 10_000 else shorten(value)
        raise IllegalMoveError(
            f"{where} is off the {rows}x{cols} board",
            rule="C-1",
            move=value,
        )
    return row, col


def _is_int(v: Any) -> bool:
    return type(v) is int or (isinstance(v, (int, np.integer)) and not isinstance(v, bool))


def neighbours4(cell: Cell, rows: int, cols: int) -> list[Cell]:
    """The up to 4 orthogonally adjacent cells of ``cell`` on a rows x cols board."""
    r, c = cell
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < rows and 0 <= cc < cols:
            out.append((rr, cc))
    return out
