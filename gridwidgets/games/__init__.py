"""The rules engines, one module per game: pure Python + numpy, no Jupyter."""

from .gridlock import Gridlock
from .gridmaster import GridMaster4

__all__ = ["GridMaster4", "Gridlock"]
