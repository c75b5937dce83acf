"""How GridMaster4 draws itself: the picture hooks of :class:`~gridwidgets.core.Game` (the static SVG).

A mixin of :class:`~gridwidgets.games.gridmaster.GridMaster4` (``games/gridmaster.py`` holds the rules)."""

from __future__ import annotations

from collections.abc import Iterable


class GridMaster4Picture:
    """Picture hooks of GridMaster4."""

    def to_svg(
        self,
        size: int = 400,
        show_forbidden: bool = False,
        show_legal: bool = False,
        marks: Iterable[tuple[int, int]] = (),
    ) -> str:
        """A static SVG of the position: tiles in their player's colour with
        their number, inactive tiles muted, the last move outlined (GM-10).

        Args:
            size: width in CSS pixels.
            show_forbidden: unused (GridMaster4 has no forbidden cells).
            show_legal: mark the legal moves of the player to act with dots.
            marks: more cells to mark with dots (e.g. jump cells, GM-3).
        """
        from ...core.draw import svg_tiles
        from ..gridmaster import COLOURS

        last = self._history[-1].cell if self._history else None
        tiles = {
            (i // self.size, i % self.size): (self._tile[i], q, i in self._active[q])
            for i, q in enumerate(self._owner)
            if q >= 0
        }
        dots = list(marks) + ([m.cell for m in self.legal_moves()] if show_legal else [])
        return svg_tiles(
            self.size, tiles, COLOURS, last=last, marks=dots, size_px=size, title=f"GridMaster4: {self.status()}"
        )

