"""gridwidgets: Jupyter widgets for grid board games.

Each game is a plain Python game object (``play``, ``undo``, ``legal_moves``...)
with a static SVG display and an interactive anywidget board (``g.widget()``).
Every game speaks one protocol (:class:`gridwidgets.core.Game`) and is found
through one registry (:mod:`gridwidgets.core.registry`): the package's own
games, those of other packages (the ``gridwidgets.games`` entry point) and
those registered in a notebook (:func:`register`).
"""

from __future__ import annotations

import importlib
from typing import Any

from . import agents, games, sim  # noqa: F401  (gw.sim works without importing it first)
from .core import (
    CellMove,
    Game,
    GameType,
    IllegalMoveError,
    InvalidMoveError,
    JointMove,
    MoveKind,
    Picture,
    Step,
    gallery,
    registry,
)
from .core.registry import make, register
from .games import *  # noqa: F403  (the package's own games: gw.<Name>)

__version__ = "0.22.0"

__all__ = [  # noqa: F405  (the widgets load lazily, by __getattr__)
    "Boards",
    "CellMove",
    "Game",
    "GameType",
    "GameWidget",
    "IllegalMoveError",
    "InvalidMoveError",
    "JointMove",
    "MoveKind",
    "Picture",
    "Step",
    "__version__",
    "agents",
    "gallery",
    "make",
    "register",
    "registry",
    "side_by_side",
    *games.__all__,
    *(f"{name}Widget" for name in games.__all__),
]

#: names served by the widgets subpackage, which imports anywidget/ipywidgets:
#: loaded only when asked for, so the engines import in a plain Python process fast
_WIDGETS = ("Boards", "GameWidget", "side_by_side")
_SUBMODULES = ("analysis", "classroom", "cli", "exercises", "lab", "teach", "testing", "widgets")


def __getattr__(name: str) -> Any:
    if name in _WIDGETS:
        from . import widgets

        return getattr(widgets, name)
    if name.endswith("Widget"):
        # gw.<Game>Widget: the widget class of a registered game
        base = name[: -len("Widget")]
        for cls in registry.games().values():
            if cls.__name__ == base:
                from .widgets import widget_class

                return widget_class(cls)
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'gridwidgets' has no attribute {name!r}")
