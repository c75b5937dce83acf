"""How GridMaster4 shows itself in a terminal: the text board and the terminal hooks of
:class:`~gridwidgets.core.Game`.

A mixin of :class:`~gridwidgets.games.gridmaster.GridMaster4` (``games/gridmaster.py`` holds the rules)."""

from __future__ import annotations

from typing import ClassVar

from ...core.notation import col_label


class GridMaster4Terminal:
    """Terminal hooks of GridMaster4."""

    #: the functions of earlier versions' ``gridwidgets.cli``, served there by name
    terminal_names: ClassVar[dict[str, str]] = {
        "play_gridmaster": "gridwidgets.games.terminal.gridmaster_play:play_gridmaster",
        "gridmaster_board": "gridwidgets.games.terminal.gridmaster_play:gridmaster_board",
    }

    #: its own dialogue and options (``python -m gridwidgets play``)
    terminal_module: ClassVar[str | None] = "gridwidgets.games.terminal.gridmaster_play"

    def board_text(self, mark_legal: bool = False) -> str:
        """The board as text, compact enough for 20x20 in 83 columns (GM-10, C-2).

        Columns are lettered and rows numbered from the top, as in ``K10``. A
        tile is its player's initial and number (``O12``: orange tile 12),
        upper case while active, lower case once inactive (GM-5); ``.`` is an
        open cell, and ``+`` a legal cell of a normal move (GM-4) when
        ``mark_legal`` is on (in an opening or a free placement every open
        cell is legal, so nothing is marked).
        """
        from ..gridmaster import NORMAL

        size = self.size
        width = max(3, len(str(max(self._tile))) + 1)
        legal: set[int] = set()
        if mark_legal and self.turn_kind() == NORMAL:
            legal = set(self._legal_indices())
        lw = len(str(size))
        lines = [" " * lw + "".join(f" {col_label(c):>{width}}" for c in range(size))]
        for r in range(size):
            row = []
            for c in range(size):
                i = r * size + c
                q = self._owner[i]
                if q < 0:
                    text = "+" if i in legal else "."
                else:
                    letter = self.players[q][0]
                    letter = letter.upper() if i in self._active[q] else letter.lower()
                    text = f"{letter}{self._tile[i]}"
                row.append(f" {text:>{width}}")
            lines.append(f"{r + 1:>{lw}}" + "".join(row))
        return "\n".join(lines)

    def __str__(self) -> str:
        with self._lock:  # type: ignore[attr-defined]  # one position, even while another thread plays
            return self.board_text() + "\n" + self.status()

