"""The rules engines, one module per game: pure Python + numpy, no Jupyter.

Importing this package registers the four games of gridwidgets in the game
registry (:mod:`gridwidgets.core.registry`), in this order.
"""

from ..core.registry import register
from .blockfour import BlockFour
from .gridbloc import GridBloc
from .gridlock import Gridlock
from .gridmaster import GridMaster4

for _cls in (Gridlock, GridMaster4, BlockFour, GridBloc):
    register(_cls)
del _cls

__all__ = ["BlockFour", "GridBloc", "GridMaster4", "Gridlock"]
