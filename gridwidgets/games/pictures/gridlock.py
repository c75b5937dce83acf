"""How Gridlock draws itself: the picture hooks of :class:`~gridwidgets.core.Game` (the static SVG).

A mixin of :class:`~gridwidgets.games.gridlock.Gridlock` (``games/gridlock.py`` holds the rules)."""

from __future__ import annotations


class GridlockPicture:
    """Picture hooks of Gridlock: the generic picture (marks, the last move,
    the status and the players panel)."""

    #: what the players panel heads the score column with
    score_label = "Marks"
