"""The package's own games, one folder each (rules engine, knowledge,
picture, terminal, view and compiled kernel): pure Python + numpy, no Jupyter.

Each game's folder registers it when imported (:mod:`gridwidgets.core.registry`);
this package imports the four of gridwidgets, in this order.
"""

# the order of import is the order of the registry
# isort: off
from .gridlock import Gridlock
from .gridmaster import GridMaster4
from .blockfour import BlockFour
from .gridbloc import GridBloc
# isort: on

__all__ = ["BlockFour", "GridBloc", "GridMaster4", "Gridlock"]
