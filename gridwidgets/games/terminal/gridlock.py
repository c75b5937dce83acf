"""How Gridlock shows itself in a terminal: the text board and the terminal hooks of
:class:`~gridwidgets.core.Game`.

A mixin of :class:`~gridwidgets.games.gridlock.Gridlock` (``games/gridlock.py`` holds the rules)."""

from __future__ import annotations

from typing import ClassVar


class GridlockTerminal:
    """Terminal hooks of Gridlock."""

    #: the functions of earlier versions' ``gridwidgets.cli``, served there by name
    terminal_names: ClassVar[dict[str, str]] = {
        "play_gridlock": "gridwidgets.games.terminal.gridlock_play:play_gridlock",
    }

    #: its own dialogue and options (``python -m gridwidgets play``)
    terminal_module: ClassVar[str | None] = "gridwidgets.games.terminal.gridlock_play"
