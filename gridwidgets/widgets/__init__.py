"""One anywidget class per game, on a shared base."""

from __future__ import annotations

from typing import Any

from ..core.game import Game
from .base import GameWidget
from .blockfour import BlockFourWidget
from .gridbloc import GridBlocWidget
from .gridlock import GridlockWidget
from .gridmaster import GridMaster4Widget
from .layout import Boards, side_by_side

__all__ = [
    "BlockFourWidget",
    "Boards",
    "GameWidget",
    "GridBlocWidget",
    "GridMaster4Widget",
    "GridlockWidget",
    "side_by_side",
    "widget_class",
    "widget_for",
]

_WIDGETS: dict[str, type[GameWidget]] = {
    "blockfour": BlockFourWidget,
    "gridbloc": GridBlocWidget,
    "gridlock": GridlockWidget,
    "gridmaster4": GridMaster4Widget,
}


def widget_class(cls: type[Game]) -> type[GameWidget]:
    """The widget class of a game class (the base one for a game without its own)."""
    return _WIDGETS.get(cls.game_type.short_name, GameWidget)


def widget_for(game: Game, **options: Any) -> GameWidget:
    """The widget class registered for ``game.game_id`` (the base one otherwise)."""
    cls = _WIDGETS.get(game.game_id, GameWidget)
    return cls(game, **options)
