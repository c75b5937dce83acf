"""What the GridMaster4 board in the browser needs beyond the generic state: the view hooks of
:class:`~gridwidgets.core.Game`.

A mixin of :class:`~gridwidgets.games.gridmaster.GridMaster4` (``rules.py`` beside it holds the rules)."""

from __future__ import annotations

from typing import Any, ClassVar

from ...core.notation import cell_name


class GridMaster4View:
    """View hooks of GridMaster4: tiles with numbers, active or not, and the players' panel (GM-10)."""

    widget_defaults: ClassVar[dict[str, Any]] = {"show_legal": True}
    #: 20x20 cells of 25 px: the numbers stay readable and the board fits a notebook column
    board_px: ClassVar[int] = 540

    def frontend_state(self) -> dict[str, Any]:
        """``tiles``, ``active``, ``deactivated``, ``free_placement``, ``tiles_per_player``,
        ``players`` (name, colour, score, remaining, active, owed, blocked, status) and
        ``events`` (``docs/frontend.md``; GM-4..GM-10)."""
        from ...core.palette import player_colours

        g: Any = self
        active = [False] * g._n
        for cells in g._active:
            for i in cells:
                active[i] = True
        kind = g.turn_kind()
        winners = g.winners
        colours = player_colours(g.player_colours, len(g.players))
        players = []
        for p, name in enumerate(g.players):
            if g.is_over:
                status = ("winner" if len(winners) == 1 else "shared win") if p in winners else "lost"
            elif not g._in_play[p]:
                status = "blocked"
            elif p == g.current_player:
                status = {"opening": "opening", "free": "free placement"}.get(kind or "", "to move")
            else:
                status = "waiting"
            players.append({
                "name": name,
                "colour": colours[p],
                "score": g._score[p],
                "remaining": g.tiles_per_player - g._score[p],
                "active": len(g._active[p]),
                "owed": g._owed[p],
                "blocked": not g._in_play[p],
                "status": status,
            })
        return {
            "tiles": list(g._tile),
            "active": active,
            "deactivated": [cell_name(c) for c in g.last_deactivated],
            "free_placement": kind in ("opening", "free"),
            "tiles_per_player": g.tiles_per_player,
            "players": players,
            "events": g.events,
        }
