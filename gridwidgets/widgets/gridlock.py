"""The Gridlock widget (RULES GL-1..GL-5 come from the engine)."""

from __future__ import annotations

from typing import Any

from ..games.gridlock import Gridlock
from .base import GameWidget

__all__ = ["GridlockWidget"]


class GridlockWidget(GameWidget):
    """The interactive Gridlock board: click a cell to place the mover's marker.

    Args:
        game: the :class:`~gridwidgets.Gridlock` shown (default: a new 4x4 game).

    Keyword Args:
        show_forbidden (bool): mark the cells next to an opponent's marker (GL-3).
    """

    def __init__(self, game: Gridlock | None = None, **kwargs: Any) -> None:
        super().__init__(game if game is not None else Gridlock(), **kwargs)
