"""How GridBloc shows itself in a terminal: the text board and the terminal hooks of
:class:`~gridwidgets.core.Game`.

A mixin of :class:`~gridwidgets.games.gridbloc.GridBloc` (``games/gridbloc.py`` holds the rules)."""

from __future__ import annotations

from typing import ClassVar


class GridBlocTerminal:
    """Terminal hooks of GridBloc."""

    #: the functions of earlier versions' ``gridwidgets.cli``, served there by name
    terminal_names: ClassVar[dict[str, str]] = {
        "play_gridbloc": "gridwidgets.games.terminal.gridbloc_play:play_gridbloc",
        "gridbloc_board": "gridwidgets.games.terminal.gridbloc_play:gridbloc_board",
    }

    #: its own dialogue and options (``python -m gridwidgets play``)
    terminal_module: ClassVar[str | None] = "gridwidgets.games.terminal.gridbloc_play"

    def __str__(self) -> str:
        """The board with its walls: ``|`` and ``---`` walls, ``R`` the runner,
        ``*`` the start, ``.`` a visited tile, ``#`` a hole."""
        with self._lock:  # type: ignore[attr-defined]  # one position, even while another thread plays
            return self._board_str()

    def _board_str(self) -> str:
        n = self.size
        lines = ["    " + "".join(f" {chr(65 + c) if c < 26 else '?'}  " for c in range(n)).rstrip()]
        top = "   +" + "---+" * n
        lines.append(top)
        for r in range(n):
            row = f"{r + 1:>2} |"
            for c in range(n):
                i = r * n + c
                row += f" {self.cell_text((r, c)) or ' '} "
                if c + 1 < n:
                    row += "|" if self._closed(i, i + 1) else " "
            lines.append(row + "|")
            if r + 1 < n:
                sep = "   +"
                for c in range(n):
                    i = r * n + c
                    sep += ("---" if self._closed(i, i + n) else "   ") + "+"
                lines.append(sep)
        lines.append(top)
        lines.append(self.status())
        return "\n".join(lines)

