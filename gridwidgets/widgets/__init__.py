"""The interactive boards: one anywidget class for every game.

:class:`GameWidget` shows any game; :func:`widget_class` makes the
``<ClassName>Widget`` class of a game class (``gw.<ClassName>Widget`` too),
with the game's own options; ``game.widget()`` builds the right one.
"""

from __future__ import annotations

from typing import Any

from ..core.game import Game
from .base import GameWidget, widget_class
from .layout import Boards, side_by_side

__all__ = ["Boards", "GameWidget", "side_by_side", "widget_class", "widget_for"]


def widget_for(game: Game, **options: Any) -> GameWidget:
    """The interactive board of ``game`` (an instance of ``widget_class(type(game))``)."""
    return widget_class(type(game))(game, **options)


def __getattr__(name: str) -> Any:
    # gridwidgets.widgets.<ClassName>Widget, for every registered game
    if name.endswith("Widget"):
        from ..core import registry

        for cls in registry.games().values():
            if f"{cls.__name__}Widget" == name:
                return widget_class(cls)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
