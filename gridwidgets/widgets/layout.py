"""Several live boards in one output: :func:`side_by_side`.

A row of boards is one anywidget (:class:`Boards`) drawing each game's board
under its title, wrapping onto the next line when the page is narrow; every
board stays its game's :class:`GameWidget`. Like a single
board it keeps a static picture in its output (one SVG of every board under
its title, and the same as PNG), so ``jupyter nbconvert --to html``, a
documentation site, GitHub and a notebook not yet trusted show the boards
without a kernel.
"""

from __future__ import annotations

import html
import threading
from typing import Any

import anywidget
import traitlets

from ..core.errors import shorten
from ..core.game import Game
from .base import STATIC_DIR, GameWidget, keep_code_as_text

#: ipywidgets' own traits, which a board's view does not need
_WIDGET_INTERNALS = frozenset({"layout", "tabbable", "tooltip", "comm", "log", "keys"})


def _synced_names(w: GameWidget) -> list[str]:
    """The synced traits of a board the page reads (``state``, the toggles, ...)."""
    return [k for k in w.keys if not k.startswith("_") and k not in _WIDGET_INTERNALS]


def _values(w: GameWidget, names: list[str]) -> dict[str, Any]:
    """A board's synced values, as its page would get them."""
    return {k: getattr(w, k) for k in names}

__all__ = ["Boards", "side_by_side"]


@keep_code_as_text
class Boards(anywidget.AnyWidget):
    """Live boards side by side, each under a title (made by :func:`side_by_side`).

    One anywidget that draws every board's own view, so it is live wherever
    anywidgets are (JupyterLab, Notebook 7, VS Code, Colab and marimo, which
    draws no ipywidgets containers). Each board stays its game's
    :class:`GameWidget`: the page's clicks and toggles reach it through this
    widget (``{"board": k, "intent": ...}`` and ``{"board": k, "set": ...}``),
    and its synced values come back in :attr:`views`.

    Attributes:
        boards: the game widgets, in the order given.
        titles: one title per board.
        views: per board, its widget's synced values (``state``, the toggles, ...).
        min_width: the narrowest a board's column may get, in CSS pixels.
        seen_version: counts the page's moves it has drawn the answer to.
    """

    _esm = STATIC_DIR / "widget.js"
    _css = STATIC_DIR / "widget.css"

    views = traitlets.List(traitlets.Dict()).tag(sync=True)
    titles = traitlets.List(traitlets.Unicode()).tag(sync=True)
    min_width = traitlets.Int(300, min=100, max=2000).tag(sync=True)
    #: how many times the page drew the answer to one of its own moves (the page
    #: writes it: marimo re-runs the cells that read this widget when it changes)
    seen_version = traitlets.Int(0, min=0).tag(sync=True)

    def __init__(self, boards: list[GameWidget], titles: list[str], min_width: int = 300) -> None:
        self.boards = list(boards)
        self._views_lock = threading.Lock()
        self._synced = [_synced_names(w) for w in self.boards]
        super().__init__(titles=list(titles), min_width=int(min_width),
                         views=[_values(w, names) for w, names in zip(self.boards, self._synced, strict=True)])
        for k, (w, names) in enumerate(zip(self.boards, self._synced, strict=True)):
            w.observe(lambda _change, k=k: self._refresh(k), names=names)
        self.on_msg(self._on_board_msg)

    def _refresh(self, k: int) -> None:
        """Board ``k``'s values changed (a move, a toggle, a hint): send them."""
        with self._views_lock:
            views = list(self.views)
            views[k] = _values(self.boards[k], self._synced[k])
            self.views = views

    def _on_board_msg(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        """A board's intent or trait update from the page; a malformed one is
        refused with a status line on the first board. Never raises."""
        try:
            k = content.get("board") if isinstance(content, dict) else None
            if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(self.boards):
                self.boards[0]._say(f"Refused: a message for no board ({shorten(repr(k), 24)}).")
                return
            board = self.boards[k]
            if "intent" in content:
                board.handle_intent(content["intent"])
            elif "set" in content:
                board.set_state(content["set"])
            else:
                board._say("Refused: a board message needs an intent or values to set.")
        except Exception as exc:  # pragma: no cover - last line of defence
            self.boards[0]._say(f"Internal error: {type(exc).__name__}: {shorten(str(exc), 60)}")

    def close(self) -> None:
        """Close every board shown here, then this widget (each stops following its game)."""
        for w in self.boards:
            w.close()
        super().close()

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
        # the page without a kernel shows the picture; JupyterLab prefers the live view
        from ..core.draw import with_picture

        return with_picture(super()._repr_mimebundle_(**kwargs), self.to_svg(), repr(self))


def side_by_side(*items: Game | GameWidget, titles: list[str] | None = None, min_width: int = 300) -> Boards:
    """Show several games at once, each a live, playable board.

    Args:
        *items: games (their ``widget()`` is made here) or widgets already made.
        titles: one title per item; defaults to each game's name.
        min_width: the narrowest a board's column may get, in CSS pixels;
            boards wrap onto the next line below it.

    Returns:
        A :class:`Boards` (an anywidget) to display.

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
