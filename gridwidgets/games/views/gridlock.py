"""What the Gridlock board in the browser needs beyond the generic state: the view hooks of
:class:`~gridwidgets.core.Game`.

A mixin of :class:`~gridwidgets.games.gridlock.Gridlock` (``games/gridlock.py`` holds the rules)."""

from __future__ import annotations

from typing import ClassVar


class GridlockView:
    """View hooks of Gridlock: its front-end layer draws X and O (GL-2); the forbidden
    cells (GL-3) come with the generic state."""

    frontend_layer: ClassVar[str] = "gridlock"
