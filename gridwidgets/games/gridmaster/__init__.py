"""GridMaster4 (rules GM-1..GM-10): the whole game in one folder.

::

    rules.py      the engine: ``GridMaster4``, ``jump_cells``
    knowledge.py  evaluation and the moves a search considers
    exercises.py  its exercise kinds
    tour.py       the knight's-tour demonstration (Warnsdorff)
    picture.py    its Scene and its text board
    view.py       what its front-end layer needs
    terminal.py   its terminal dialogue
    kernel.py     the compiled kernel

Importing it registers the game in :mod:`gridwidgets.core.registry`, as
OpenSpiel's games register themselves; the core never imports a game.
"""

from ...core.registry import register
from .rules import *  # noqa: F403
from .rules import GridMaster4
from .rules import __all__ as __all__

register(GridMaster4)
