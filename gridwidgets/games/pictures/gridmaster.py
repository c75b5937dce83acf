"""How GridMaster4 draws itself: the picture hooks of :class:`~gridwidgets.core.Game`
(its :class:`~gridwidgets.core.scene.Scene`, drawn by the one renderer).

A mixin of :class:`~gridwidgets.games.gridmaster.GridMaster4` (``games/gridmaster.py`` holds the rules)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any


class GridMaster4Picture:
    """Picture hooks of GridMaster4."""

    def scene(self, *, show_legal: bool = False, show_forbidden: bool = False) -> Any:
        """Tiles in their player's colour with their number, inactive tiles
        muted, the last move outlined (GM-10); legal moves as dots on request."""
        from ...core.scene import Piece, default_scene

        base = default_scene(self, show_legal=show_legal)
        pieces = [
            Piece((i // self.size, i % self.size), "tile", q, str(self._tile[i]), i in self._active[q],
                  f"{self.players[q]} {self._tile[i]}" + ("" if i in self._active[q] else " (inactive)"))
            for i, q in enumerate(self._owner)
            if q >= 0
        ]
        return replace(base, pieces=pieces)

    def to_svg(
        self,
        size: int = 400,
        show_forbidden: bool = False,
        show_legal: bool = False,
        marks: Iterable[tuple[int, int]] = (),
    ) -> str:
        """A static SVG of the position (see :meth:`scene`).

        Args:
            size: width in CSS pixels.
            show_forbidden: unused (GridMaster4 has no forbidden cells).
            show_legal: mark the legal moves of the player to act with dots.
            marks: more cells to mark with dots (e.g. jump cells, GM-3).
        """
        from ...core.draw import render_svg

        scene = self.scene(show_legal=show_legal)
        return render_svg(replace(scene, legal=(*tuple(marks), *scene.legal)), size=size)
