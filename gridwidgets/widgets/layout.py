"""Several live boards in one output: :func:`side_by_side`.

A row of boards is an ``ipywidgets.GridBox`` of the games' widgets, each under
its title, wrapping onto the next line when the page is narrow. Like a single
board it keeps a static picture in its output (one SVG of every board under
its title, and the same as PNG), so ``jupyter nbconvert --to html``, a
documentation site, GitHub and a notebook not yet trusted show the boards
without a kernel.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets

from ..core.game import Game
from .base import GameWidget

__all__ = ["Boards", "side_by_side"]


class Boards(ipywidgets.GridBox):
    """Live boards side by side, each under a title (made by :func:`side_by_side`).

    Attributes:
        boards: the game widgets, in the order given.
        titles: one title per board.
    """

    def __init__(self, boards: list[GameWidget], titles: list[str], min_width: int = 300) -> None:
        self.boards = list(boards)
        self.titles = list(titles)
        cells = [
            ipywidgets.VBox(
                [ipywidgets.HTML(f"<b>{html.escape(t)}</b>"), w],
                layout=ipywidgets.Layout(min_width="0", overflow="hidden"),
            )
            for t, w in zip(self.titles, self.boards, strict=True)
        ]
        super().__init__(
            cells,
            layout=ipywidgets.Layout(
                grid_template_columns=f"repeat(auto-fill, minmax({int(min_width)}px, 1fr))",
                grid_gap="16px 24px",
                width="100%",
            ),
        )

    @property
    def games(self) -> list[Game]:
        """The games shown, in order (each board's ``.game``)."""
        return [w.game for w in self.boards]

    def __repr__(self) -> str:
        return f"Boards({', '.join(self.titles)})"

    def to_html(self, size: int = 300) -> str:
        """The static picture: every board's SVG under its title, in a wrapping row.

        Args:
            size: width of each board picture in CSS pixels.

        Returns:
            An HTML fragment (no JavaScript).
        """
        items = "".join(
            f'<figure style="margin:0;max-width:{int(size)}px">'
            f'<figcaption style="font-weight:bold;margin-bottom:4px">{html.escape(t)}</figcaption>'
            f"{w.game.to_svg(size=size)}</figure>"
            for t, w in zip(self.titles, self.boards, strict=True)
        )
        return f'<div class="gw-boards" style="display:flex;flex-wrap:wrap;gap:16px 24px">{items}</div>'

    def to_svg(self, size: int = 320, width: int = 1000) -> str:
        """The static picture as one SVG: every board's picture
        (:meth:`~gridwidgets.core.Game.to_svg`, the players' panel under the
        board) under its title, in rows no wider than ``width``
        (:func:`~gridwidgets.core.draw.gallery`).

        Args:
            size: width of each board in CSS pixels.
            width: the widest a row may be, in CSS pixels.

        Returns:
            The SVG document.
        """
        from ..core.draw import gallery

        svgs = [w.game.to_svg(size=size, panel="below") for w in self.boards]
        return gallery(svgs, self.titles, width=width).svg.replace('class="gw-gallery"', 'class="gw-boards"', 1)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = super()._repr_mimebundle_(**kwargs)
        data, meta = bundle if isinstance(bundle, tuple) else (bundle, {})
        if data is not None:
            from ..core.draw import png_with_size

            data = dict(data)
            meta = dict(meta or {})
            data["text/plain"] = repr(self)
            # the page without a kernel shows these; JupyterLab prefers the live view.
            # No text/html: an untrusted notebook strips SVG from HTML (text left over)
            svg = self.to_svg()
            data["image/svg+xml"] = svg
            data["image/png"], meta["image/png"] = png_with_size(svg)
        return data, meta


def side_by_side(*items: Game | GameWidget, titles: list[str] | None = None, min_width: int = 300) -> Boards:
    """Show several games at once, each a live, playable board.

    Args:
        *items: games (their ``widget()`` is made here) or widgets already made.
        titles: one title per item; defaults to each game's name.
        min_width: the narrowest a board's column may get, in CSS pixels;
            boards wrap onto the next line below it.

    Returns:
        A :class:`Boards` (an ``ipywidgets.GridBox``) to display.

    Raises:
        TypeError: an item is neither a :class:`~gridwidgets.Game` nor a game widget.
        ValueError: no items, or ``titles`` of another length.

    Example:
        ```python
        import gridwidgets as gw

        first, second = (gw.make(name) for name in gw.registry.names()[:2])
        boards = gw.side_by_side(first, second)
        first.play(first.legal_moves()[0])    # its board follows
        ```
    """
    if not items:
        raise ValueError("side_by_side() needs at least one game")
    widgets: list[GameWidget] = []
    for item in items:
        if isinstance(item, GameWidget):
            widgets.append(item)
        elif isinstance(item, Game):
            widgets.append(item.widget())
        else:
            raise TypeError(f"side_by_side() takes games or game widgets, not {type(item).__name__}")
    if titles is None:
        titles = [w.game.game_type.long_name for w in widgets]
    elif len(titles) != len(widgets):
        raise ValueError(f"{len(titles)} titles for {len(widgets)} boards")
    return Boards(widgets, [str(t) for t in titles], min_width=min_width)
