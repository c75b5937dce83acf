"""What the Gridlock board in the browser needs beyond the generic state: the view hooks of
:class:`~gridwidgets.core.Game`.

A mixin of :class:`~gridwidgets.games.gridlock.Gridlock` (``games/gridlock.py`` holds the rules)."""

from __future__ import annotations


class GridlockView:
    """View hooks of Gridlock."""

    pass
