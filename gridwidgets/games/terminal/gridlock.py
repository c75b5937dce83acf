"""How Gridlock shows itself in a terminal: the text board and the terminal hooks of
:class:`~gridwidgets.core.Game`.

A mixin of :class:`~gridwidgets.games.gridlock.Gridlock` (``games/gridlock.py`` holds the rules)."""

from __future__ import annotations


class GridlockTerminal:
    """Terminal hooks of Gridlock."""

    pass
