"""What the GridBloc board in the browser needs beyond the generic state: the view hooks of
:class:`~gridwidgets.core.Game`.

A mixin of :class:`~gridwidgets.games.gridbloc.GridBloc` (``games/gridbloc.py`` holds the rules)."""

from __future__ import annotations


class GridBlocView:
    """View hooks of GridBloc."""

    pass
