"""How Block Four draws itself: the picture hooks of :class:`~gridwidgets.core.Game` (the static SVG).

A mixin of :class:`~gridwidgets.games.blockfour.BlockFour` (``games/blockfour.py`` holds the rules)."""

from __future__ import annotations


class BlockFourPicture:
    """Picture hooks of Block Four."""

    def to_svg(self, size: int = 320, show_forbidden: bool = False) -> str:
        """A static SVG: the marks and the nine fields, shaded by controller (BF-1, BF-9)."""
        from ...core.draw import svg_board
        from ..blockfour import EMPTY, SIZE

        last = self._history[-1] if self._history else None
        cells = getattr(last, "cells", None) or ()
        pieces = {divmod(i, SIZE): (self.players[q], q) for i, q in enumerate(self._board) if q != EMPTY}
        return svg_board(
            SIZE,
            SIZE,
            pieces,  # type: ignore[arg-type]
            outlined=cells,
            fields=3,
            field_owners=self.controllers(),
            size=size,
            title=f"Block Four: {self.status()}",
        )
