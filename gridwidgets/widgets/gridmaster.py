"""The GridMaster4 widget (RULES GM-1..GM-10 come from the engine)."""

from __future__ import annotations

from typing import Any

from ..core.notation import cell_name
from ..games.gridmaster import COLOURS, GridMaster4
from .base import GameWidget

__all__ = ["GridMaster4Widget"]


class GridMaster4Widget(GameWidget):
    """The interactive GridMaster4 board (GM-10): tiles in their player's colour
    with their number, inactive tiles muted, scores and status off the board.

    Args:
        game: the :class:`~gridwidgets.GridMaster4` shown (default: a new game).

    Keyword Args:
        agents (Mapping[int, Agent]): ``{player: agent}`` seats played by agents.
        show_legal (bool): highlight the legal moves (on by default here).
    """

    def __init__(self, game: GridMaster4 | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("show_legal", True)
        super().__init__(game if game is not None else GridMaster4(), **kwargs)

    def extra_state(self) -> dict[str, Any]:
        """``tiles``, ``active``, ``deactivated``, ``free_placement``,
        ``tiles_per_player``, ``players`` and ``events`` (``docs/frontend.md``)."""
        g = self._game
        assert isinstance(g, GridMaster4)
        active = [False] * (g.size * g.size)
        for cells in g._active:
            for i in cells:
                active[i] = True
        kind = g.turn_kind()
        winners = g.winners
        players = []
        for p, name in enumerate(g.players):
            if g.is_over:
                status = ("winner" if len(winners) == 1 else "shared win") if p in winners else "lost"
            elif g.blocked[p]:
                status = "blocked"
            elif p == g.current_player:
                status = {"opening": "opening", "free": "free placement"}.get(kind or "", "to move")
            else:
                status = "waiting"
            players.append(
                {
                    "name": name,
                    "colour": COLOURS[p],
                    "score": g.scores[p],
                    "remaining": g.remaining[p],
                    "active": len(g._active[p]),
                    "owed": g.owed[p],
                    "blocked": g.blocked[p],
                    "status": status,
                }
            )
        return {
            "tiles": list(g._tile),
            "active": active,
            "deactivated": [cell_name(c) for c in g.last_deactivated],
            "free_placement": kind in ("opening", "free"),
            "tiles_per_player": g.tiles_per_player,
            "players": players,
            "events": g.events,
        }
