"""How GridBloc draws itself: the picture hooks of :class:`~gridwidgets.core.Game` (the static SVG).

A mixin of :class:`~gridwidgets.games.gridbloc.GridBloc` (``games/gridbloc.py`` holds the rules)."""

from __future__ import annotations


class GridBlocPicture:
    """Picture hooks of GridBloc."""

    def to_svg(self, size: int = 320, show_forbidden: bool = False) -> str:
        """A static SVG: tiles, the start star, original and placed walls, the runner (GB-1, GB-2)."""
        from ...core.draw import svg_walls

        return svg_walls(
            self.size,
            holes=self.holes,
            start=self.start,
            runner=self.runner,
            visited=[c for c in self.scored if c != self.start],
            original=[(w.a, w.b) for w in self.original_walls],
            placed=[(w.a, w.b) for w in self.placed_walls],
            runner_player=self.runner_player,
            blocker_player=self.blocker_player,
            size_px=size,
            title=f"GridBloc: {self.status()}",
        )

