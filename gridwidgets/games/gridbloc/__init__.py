"""GridBloc (rules GB-1..GB-10): the whole game in one folder.

::

    rules.py      the engine: ``GridBloc``, ``Wall``, ``StartMove``, ``Done``, ``load_preset``
    knowledge.py  evaluation and the moves a search considers
    solver.py     the exact solver (``exact_solver`` hook)
    picture.py    its Scene and its text board
    view.py       what its front-end layer and board editor need
    terminal.py   its terminal dialogue
    kernel.py     the compiled kernel
    presets/      the preset boards (JSON)

Importing it registers the game in :mod:`gridwidgets.core.registry`, as
OpenSpiel's games register themselves; the core never imports a game.
"""

from ...core.registry import register
from .rules import *  # noqa: F403
from .rules import GridBloc
from .rules import __all__ as __all__

register(GridBloc)
