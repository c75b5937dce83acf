"""What the Block Four board in the browser needs beyond the generic state: the view hooks of
:class:`~gridwidgets.core.Game`.

A mixin of :class:`~gridwidgets.games.blockfour.BlockFour` (``games/blockfour.py`` holds the rules)."""

from __future__ import annotations


class BlockFourView:
    """View hooks of Block Four."""

    pass
