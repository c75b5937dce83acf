"""Block Four (rules BF-1..BF-13): the whole game in one folder.

::

    rules.py      the engine: ``BlockFour``, ``Bid``, ``Placement``, ``placement_order``
    knowledge.py  evaluation and the moves a search considers
    bids.py       the bid stage: bid tables and matrices (analysis tools)
    agents.py     its own agents (``MyopicBidder``, a bidder by the one-turn matrix)
    picture.py    its Scene and its text board
    view.py       what its front-end layer needs
    terminal.py   its terminal dialogue (hot seat, BF-5)
    kernel.py     the compiled kernel

Importing it registers the game in :mod:`gridwidgets.core.registry`, as
OpenSpiel's games register themselves; the core never imports a game.
"""

from ...core.registry import register
from .rules import *  # noqa: F403
from .rules import BlockFour
from .rules import __all__ as __all__

register(BlockFour)
