"""gridwidgets: Jupyter widgets for four grid board games.

Gridlock, GridMaster4, Block Four and GridBloc, each a plain Python game
object (``play``, ``undo``, ``legal_moves``...) with a static SVG display and
an interactive anywidget board (``g.widget()``).
"""

from . import agents
from .core import CellMove, Game, IllegalMoveError
from .games import BlockFour, GridBloc, Gridlock, GridMaster4

__version__ = "0.1.0"

__all__ = [
    "BlockFour",
    "BlockFourWidget",
    "Boards",
    "CellMove",
    "Game",
    "GridBloc",
    "GridBlocWidget",
    "GridMaster4",
    "GridMaster4Widget",
    "Gridlock",
    "GridlockWidget",
    "IllegalMoveError",
    "__version__",
    "agents",
    "side_by_side",
]

_WIDGETS = (
    "BlockFourWidget",
    "Boards",
    "GameWidget",
    "GridBlocWidget",
    "GridMaster4Widget",
    "GridlockWidget",
    "side_by_side",
)


def __getattr__(name: str) -> object:
    # the widgets import anywidget/ipywidgets: load them only when asked for,
    # so the engines import in a plain Python process (a worker, a terminal) fast
    if name in _WIDGETS:
        from . import widgets

        return getattr(widgets, name)
    raise AttributeError(f"module 'gridwidgets' has no attribute {name!r}")
