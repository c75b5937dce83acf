"""The rules engines, one module per game: pure Python + numpy, no Jupyter."""

from .blockfour import BlockFour
from .gridbloc import GridBloc
from .gridlock import Gridlock
from .gridmaster import GridMaster4

__all__ = ["BlockFour", "GridBloc", "GridMaster4", "Gridlock"]
