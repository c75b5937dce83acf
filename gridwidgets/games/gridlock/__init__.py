"""Gridlock (rules GL-1..GL-6): the whole game in one folder.

::

    rules.py      the engine: ``Gridlock``, its picture and view settings
    knowledge.py  evaluation, position keys and symmetries for agents and the solver
    solver.py     the exact solver (``exact_solver`` hook)
    terminal.py   the seed's dialogue, word for word (GL-6)
    kernel.py     the compiled kernel (numba, :mod:`gridwidgets.fast`)

Importing it registers the game in :mod:`gridwidgets.core.registry`, as
OpenSpiel's games register themselves; the core never imports a game.
"""

from ...core.registry import register
from .rules import *  # noqa: F403
from .rules import Gridlock
from .rules import __all__ as __all__

register(Gridlock)
