"""How GridBloc draws itself: the picture hooks of :class:`~gridwidgets.core.Game`
(its :class:`~gridwidgets.core.scene.Scene`, drawn by the one renderer).

A mixin of :class:`~gridwidgets.games.gridbloc.GridBloc` (``games/gridbloc.py`` holds the rules)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any


class GridBlocPicture:
    """Picture hooks of GridBloc."""

    def scene(self, *, show_legal: bool = False, show_forbidden: bool = False) -> Any:
        """Tiles (holes left out), the tiles scored this round shaded, the
        start star, original walls in the frame colour, walls placed this
        round in the blocker's colour, the runner as a disc in its colour,
        the last wall or step marked (GB-1, GB-2)."""
        from ...core.scene import Edge, Piece, Region, default_scene

        base = default_scene(self, show_legal=show_legal)
        pieces = []
        if self.start is not None:
            pieces.append(Piece(self.start, "star", -1, "", label="start"))
        if self.runner is not None:
            who = self.players[self.runner_player]
            pieces.append(Piece(self.runner, "token", self.runner_player, "", label=f"runner ({who})"))
        edges = [Edge(w.a, w.b, -1, "wall") for w in self.original_walls]
        edges += [Edge(w.a, w.b, self.blocker_player, "wall") for w in self.placed_walls]
        visited = tuple(c for c in self.scored if c != self.start)
        return replace(
            base,
            holes=tuple(self.holes),
            regions=[Region(visited, -1, "shade")] if visited else [],
            pieces=pieces,
            edges=edges,
        )

    def to_svg(self, size: int = 320, show_forbidden: bool = False) -> str:
        """A static SVG of the position (see :meth:`scene`)."""
        from ...core.draw import render_svg

        return render_svg(self.scene(), size=size)
