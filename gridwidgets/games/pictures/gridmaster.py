"""How GridMaster4 draws itself: the picture hooks of :class:`~gridwidgets.core.Game`
(its :class:`~gridwidgets.core.scene.Scene`, drawn by the one renderer).

A mixin of :class:`~gridwidgets.games.gridmaster.GridMaster4` (``games/gridmaster.py`` holds the rules)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any


class GridMaster4Picture:
    """Picture hooks of GridMaster4."""

    #: what the players panel heads the score column with (GM-4)
    score_label = "Highest tile"

    def scene(self, *, show_legal: bool = False, show_forbidden: bool = False) -> Any:
        """Tiles in their player's colour with their number, inactive tiles
        in a muted tint of the same hue with a dashed outline, the last move
        outlined; the players panel (GM-10: highest tile, tiles left,
        blocked) and a legend; legal moves as dots on request."""
        from ...core.scene import LegendItem, Piece, default_scene, players_panel

        g: Any = self
        base = default_scene(g, show_legal=show_legal)
        pieces = [
            Piece((i // g.size, i % g.size), "tile", q, str(g._tile[i]), i in g._active[q],
                  f"{g.players[q]} {g._tile[i]}" + ("" if i in g._active[q] else " (inactive)"))
            for i, q in enumerate(g._owner)
            if q >= 0
        ]
        values = [
            (str(g.tiles_per_player - g._score[p]), "blocked" if not g._in_play[p] else "")
            for p in range(len(g.players))
        ]
        panel = players_panel(g, ("Tiles left", "Blocked"), values)
        legend = [LegendItem("tile", 0, "active tile"), LegendItem("tile-muted", 0, "inactive tile (GM-5)")]
        if base.last:
            legend.append(LegendItem("last", -1, "last move"))
        return replace(base, pieces=pieces, panel=panel, legend=tuple(legend))
