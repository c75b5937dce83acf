"""How Gridlock shows itself in a terminal: the text board and the terminal hooks of
:class:`~gridwidgets.core.Game`.

A mixin of :class:`~gridwidgets.games.gridlock.Gridlock` (``games/gridlock.py`` holds the rules)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar


class GridlockTerminal:
    """Terminal hooks of Gridlock."""

    #: the functions of earlier versions' ``gridwidgets.cli``, served there by name
    terminal_names: ClassVar[dict[str, str]] = {
        "play_gridlock": "gridwidgets.games.terminal.gridlock_play:play_gridlock",
    }

    @classmethod
    def terminal_arguments(cls, parser: Any) -> None:
        """This game's options of ``python -m gridwidgets play`` (``games/terminal/gridlock_play.py``)."""
        from .gridlock_play import add_arguments

        add_arguments(parser)

    @classmethod
    def terminal_session(cls, args: Any) -> Callable[[], Any]:
        """This game's own terminal dialogue (``games/terminal/gridlock_play.py``)."""
        from .gridlock_play import session

        return session(args)
