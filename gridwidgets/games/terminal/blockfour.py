"""How Block Four shows itself in a terminal: the text board and the terminal hooks of
:class:`~gridwidgets.core.Game`.

A mixin of :class:`~gridwidgets.games.blockfour.BlockFour` (``games/blockfour.py`` holds the rules)."""

from __future__ import annotations

from typing import ClassVar


class BlockFourTerminal:
    """Terminal hooks of BlockFour."""

    #: the functions of earlier versions' ``gridwidgets.cli``, served there by name
    terminal_names: ClassVar[dict[str, str]] = {
        "play_blockfour": "gridwidgets.games.terminal.blockfour_play:play_blockfour",
        "blockfour_board": "gridwidgets.games.terminal.blockfour_play:blockfour_board",
    }

    #: its own dialogue and options (``python -m gridwidgets play``)
    terminal_module: ClassVar[str | None] = "gridwidgets.games.terminal.blockfour_play"

    def board_text(self) -> str:
        """The board as text (BF-1, C-2): lettered columns, numbered rows, the
        nine 3x3 fields drawn apart, ``X``/``O`` marks and ``.`` for an empty
        space; beside each row of fields, the marks of X and of O in each field
        and who controls it (5 of 9 spaces, BF-9)."""
        board = self.board
        counts = self.field_counts()
        ctrl = self.controllers()
        mark = {-1: ".", 0: self.players[0], 1: self.players[1]}
        rule = "    +-------+-------+-------+"
        lines = ["      A B C   D E F   G H I", rule]
        for r in range(9):
            body = " | ".join(" ".join(mark[int(board[r, c])] for c in range(b, b + 3)) for b in (0, 3, 6))
            line = f"{r + 1:>3} | {body} |"
            band, k = divmod(r, 3)
            notes = []
            for f in range(band * 3, band * 3 + 3):
                x, o = counts[f]
                if k == 0:
                    notes.append(f"field {f + 1}")
                elif k == 1:
                    notes.append(f"X {x}  O {o}")
                else:
                    notes.append(f"{self.players[ctrl[f]]} controls" if ctrl[f] >= 0 else "")
            lines.append((line + "   " + "".join(f"{n:<13}" for n in notes)).rstrip())
            if k == 2:
                lines.append(rule)
        return "\n".join(lines)

    def __str__(self) -> str:
        with self._lock:  # type: ignore[attr-defined]  # one position, even while another thread plays
            return self.board_text() + "\n" + self.status()

