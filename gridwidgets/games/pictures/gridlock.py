"""How Gridlock draws itself: the picture hooks of :class:`~gridwidgets.core.Game` (the static SVG).

A mixin of :class:`~gridwidgets.games.gridlock.Gridlock` (``games/gridlock.py`` holds the rules)."""

from __future__ import annotations


class GridlockPicture:
    """Picture hooks of Gridlock."""

    pass
