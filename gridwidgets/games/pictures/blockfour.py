"""How Block Four draws itself: the picture hooks of :class:`~gridwidgets.core.Game`
(its :class:`~gridwidgets.core.scene.Scene`, drawn by the one renderer).

A mixin of :class:`~gridwidgets.games.blockfour.BlockFour` (``games/blockfour.py`` holds the rules)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any


class BlockFourPicture:
    """Picture hooks of Block Four."""

    def scene(self, *, show_legal: bool = False, show_forbidden: bool = False) -> Any:
        """The marks, the nine fields outlined and tinted by their controller,
        the last shape placed outlined (BF-1, BF-9)."""
        from ...core.scene import Region, default_scene
        from ..blockfour import SIZE

        base = default_scene(self, show_legal=show_legal)
        regions = []
        owners = self.controllers()
        for k in range(9):
            br, bc = divmod(k, 3)
            block = tuple((br * 3 + i, bc * 3 + j) for i in range(3) for j in range(3))
            if owners[k] >= 0:
                regions.append(Region(block, owners[k], "tint"))
            regions.append(Region(block, -1, "outline", f"field {k + 1}"))
        assert SIZE == 9
        return replace(base, regions=regions)

    def to_svg(self, size: int = 320, show_forbidden: bool = False) -> str:
        """A static SVG of the position (see :meth:`scene`)."""
        from ...core.draw import render_svg

        return render_svg(self.scene(), size=size)
