"""What the GridMaster4 board in the browser needs beyond the generic state: the view hooks of
:class:`~gridwidgets.core.Game`.

A mixin of :class:`~gridwidgets.games.gridmaster.GridMaster4` (``games/gridmaster.py`` holds the rules)."""

from __future__ import annotations


class GridMaster4View:
    """View hooks of GridMaster4."""

    pass
