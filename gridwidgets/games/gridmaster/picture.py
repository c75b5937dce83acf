"""How GridMaster4 draws itself, as a picture and as text: the picture hooks of :class:`~gridwidgets.core.Game`
(its :class:`~gridwidgets.core.scene.Scene`, drawn by the one renderer).

A mixin of :class:`~gridwidgets.games.gridmaster.GridMaster4` (``rules.py`` beside it holds the rules)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...core.notation import col_label


class GridMaster4Picture:
    """Picture hooks of GridMaster4."""

    #: what the players panel heads the score column with (GM-4)
    score_label = "Highest tile"

    def scene(self, *, show_legal: bool = False, show_forbidden: bool = False) -> Any:
        """Tiles in their player's colour with their number, inactive tiles
        in a muted tint of the same hue with a dashed outline, the tiles the
        last move put out of play ringed (GM-5), the last move outlined; the
        players panel (GM-10: highest tile, tiles left, active tiles, free
        placements owed, GM-7, and each player's status: to move, opening,
        free placement, waiting, blocked, GM-6, winner, GM-8), a note on an
        opening or a free placement, and a legend; legal moves as dots on
        request. The next tile (one more than the mover's highest, GM-2,
        GM-4) is the piece a click puts down."""
        from ...core.scene import LegendItem, Piece, Region, default_scene, players_panel

        g: Any = self
        base = default_scene(g, show_legal=show_legal)
        pieces = [
            Piece((i // g.size, i % g.size), "tile", q, str(g._tile[i]), i in g._active[q],
                  f"{g.players[q]} {g._tile[i]}, " + ("active" if i in g._active[q] else "inactive"))
            for i, q in enumerate(g._owner)
            if q >= 0
        ]
        kind = g.turn_kind()
        winners = g.winners
        values = []
        for p in range(len(g.players)):
            if g.is_over and p in winners:
                status = "winner" if len(winners) == 1 else "shared win"
            elif not g._in_play[p]:
                status = "blocked (GM-6)"
            elif p == g.current_player:
                status = {"opening": "opening (GM-2)", "free": "free placement (GM-7)"}.get(kind or "", "to move")
            elif g.is_over:
                status = ""
            else:
                status = "waiting"
            owed = g._owed[p]
            values.append((str(g.tiles_per_player - g._score[p]), str(len(g._active[p])),
                           str(owed) if owed else "\u2013", status))
        panel = players_panel(g, ("Tiles left", "Active", "Owed", "Status"), values)
        legend = [LegendItem("tile", 0, "active tile"), LegendItem("tile-muted", 0, "inactive tile (GM-5)")]
        regions = []
        if g.last_deactivated:
            regions.append(Region(tuple(g.last_deactivated), -1, "ring", "put out of play by the last move"))
        if base.last:
            legend.append(LegendItem("last", -1, "last move"))
        notes: tuple[str, ...] = ()
        next_piece = None
        p = g.current_player
        if p is not None and not g.is_over:
            who = g.players[p]
            if kind == "opening":
                notes = (f"Opening (GM-2): {who} places tile 1 on any open cell",)
            elif kind == "free":
                notes = (f"Free placement (GM-7): {who} may use any open cell",)
            tile = g._score[p] + 1
            next_piece = Piece((0, 0), "tile", p, str(tile), True, f"{who} {tile}, active")
        return replace(base, pieces=pieces, regions=regions, panel=panel, legend=tuple(legend),
                       notes=notes, next_piece=next_piece)

    # the text board (``str(game)``, the terminal) ------------------------------
    def board_text(self, mark_legal: bool = False) -> str:
        """The board as text, compact enough for 20x20 in 83 columns (GM-10, C-2).

        Columns are lettered and rows numbered from the top, as in ``K10``. A
        tile is its player's initial and number (``O12``: orange tile 12),
        upper case while active, lower case once inactive (GM-5); ``.`` is an
        open cell, and ``+`` a legal cell of a normal move (GM-4) when
        ``mark_legal`` is on (in an opening or a free placement every open
        cell is legal, so nothing is marked).
        """
        from .rules import NORMAL

        size = self.size
        width = max(3, len(str(max(self._tile))) + 1)
        legal: set[int] = set()
        if mark_legal and self.turn_kind() == NORMAL:
            legal = set(self._legal_indices())
        lw = len(str(size))
        lines = [" " * lw + "".join(f" {col_label(c):>{width}}" for c in range(size))]
        for r in range(size):
            row = []
            for c in range(size):
                i = r * size + c
                q = self._owner[i]
                if q < 0:
                    text = "+" if i in legal else "."
                else:
                    letter = self.players[q][0]
                    letter = letter.upper() if i in self._active[q] else letter.lower()
                    text = f"{letter}{self._tile[i]}"
                row.append(f" {text:>{width}}")
            lines.append(f"{r + 1:>{lw}}" + "".join(row))
        return "\n".join(lines)

    def __str__(self) -> str:
        with self._lock:  # type: ignore[attr-defined]  # one position, even while another thread plays
            return self.board_text() + "\n" + self.status()

