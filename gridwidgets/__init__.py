"""gridwidgets: Jupyter widgets for four grid board games.

Gridlock, GridMaster4, Block Four and GridBloc, each a plain Python game
object (``play``, ``undo``, ``legal_moves``...) with a static SVG display and
an interactive anywidget board (``g.widget()``).
"""

from .core import CellMove, Game, IllegalMoveError
from .games import Gridlock

__version__ = "0.1.0"

__all__ = ["CellMove", "Game", "Gridlock", "GridlockWidget", "IllegalMoveError", "__version__"]


def __getattr__(name: str) -> object:
    # the widgets import anywidget/ipywidgets: load them only when asked for,
    # so the engines import in a plain Python process fast
    if name == "GridlockWidget":
        from .widgets import GridlockWidget

        return GridlockWidget
    raise AttributeError(f"module 'gridwidgets' has no attribute {name!r}")
