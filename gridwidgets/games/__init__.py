"""The rules engines, one module per game: pure Python + numpy, no Jupyter."""

from .gridlock import Gridlock

__all__ = ["Gridlock"]
