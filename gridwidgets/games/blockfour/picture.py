"""How Block Four draws itself, as a picture and as text: the picture hooks of :class:`~gridwidgets.core.Game`
(its :class:`~gridwidgets.core.scene.Scene`, drawn by the one renderer).

A mixin of :class:`~gridwidgets.games.blockfour.BlockFour` (``rules.py`` beside it holds the rules)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any


class BlockFourPicture:
    """Picture hooks of Block Four."""

    #: what the players panel heads the score column with (BF-9)
    score_label = "Fields"

    def scene(self, *, show_legal: bool = False, show_forbidden: bool = False) -> Any:
        """The marks, every placed tetromino outlined as a shape in its
        player's colour, the nine fields outlined and tinted by their
        controller, the last shape placed outlined (BF-1, BF-9); the players
        panel (fields held, spaces, the hand and the cards on the table,
        BF-10: public cards only, never a bid still hidden, BF-5) and a
        legend."""
        from ...core.scene import LegendItem, Region, default_scene, players_panel
        from .rules import SIZE, Placement

        g: Any = self
        base = default_scene(g, show_legal=show_legal)
        regions = []
        owners = g.controllers()
        for k in range(9):
            br, bc = divmod(k, 3)
            block = tuple((br * 3 + i, bc * 3 + j) for i in range(3) for j in range(3))
            if owners[k] >= 0:
                regions.append(Region(block, owners[k], "tint"))
            regions.append(Region(block, -1, "outline", f"field {k + 1}"))
        for step in g.steps:
            for m in step.moves:
                if isinstance(m, Placement) and m.cells:
                    regions.append(Region(tuple(m.cells), m.player, "group", f"{m.shape} of {g.players[m.player]}"))
        assert SIZE == 9
        if g.last_gaps:
            regions.append(Region(tuple(g.last_gaps), -1, "ring", "gap fill (BF-8)"))
        pending = g.pending_bids
        over = g.is_over
        draw = over and len(g.winners) > 1
        to_place = g.to_place
        values = []
        for p in range(2):
            name = g.players[p]
            if over:
                status = "draw" if draw else "winner" if p in g.winners else ""
            elif g.phase == "bid":
                status = f"{name} has bid" if pending[p] else "to bid"  # both at once (BF-5): nobody bids "next"
            elif g.phase == "place":
                status = f"places {to_place[1]}" if to_place and to_place[0] == p else "waiting"
            else:
                status = ""
            values.append((str(g.spaces()[p]), " ".join(g.hands[p]) or "none", " ".join(g.tables[p]) or "none", status))
        legend = [LegendItem("tint", p, f"field held by {g.players[p]}") for p in range(2)]
        if base.last:
            legend.append(LegendItem("last", -1, "last shape"))
        return replace(base, regions=regions,
                       panel=players_panel(g, ("Spaces", "Hand", "Table", "Status"), values), legend=tuple(legend))

    # the text board (``str(game)``, the terminal) ------------------------------
    def board_text(self) -> str:
        """The board as text (BF-1, C-2): lettered columns, numbered rows, the
        nine 3x3 fields drawn apart, ``X``/``O`` marks and ``.`` for an empty
        space; beside each row of fields, the marks of X and of O in each field
        and who controls it (5 of 9 spaces, BF-9)."""
        board = self.board
        counts = self.field_counts()
        ctrl = self.controllers()
        mark = {-1: ".", 0: self.players[0], 1: self.players[1]}
        rule = "    +-------+-------+-------+"
        lines = ["      A B C   D E F   G H I", rule]
        for r in range(9):
            body = " | ".join(" ".join(mark[int(board[r, c])] for c in range(b, b + 3)) for b in (0, 3, 6))
            line = f"{r + 1:>3} | {body} |"
            band, k = divmod(r, 3)
            notes = []
            for f in range(band * 3, band * 3 + 3):
                x, o = counts[f]
                if k == 0:
                    notes.append(f"field {f + 1}")
                elif k == 1:
                    notes.append(f"X {x}  O {o}")
                else:
                    notes.append(f"{self.players[ctrl[f]]} controls" if ctrl[f] >= 0 else "")
            lines.append((line + "   " + "".join(f"{n:<13}" for n in notes)).rstrip())
            if k == 2:
                lines.append(rule)
        return "\n".join(lines)

    def __str__(self) -> str:
        with self._lock:  # type: ignore[attr-defined]  # one position, even while another thread plays
            return self.board_text() + "\n" + self.status()

