"""How GridBloc draws itself, as a picture and as text: the picture hooks of :class:`~gridwidgets.core.Game`
(its :class:`~gridwidgets.core.scene.Scene`, drawn by the one renderer).

A mixin of :class:`~gridwidgets.games.gridbloc.GridBloc` (``rules.py`` beside it holds the rules)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any


class GridBlocPicture:
    """Picture hooks of GridBloc."""

    #: what the players panel heads the score column with (GB-5)
    score_label = "Points"

    def scene(self, *, show_legal: bool = False, show_forbidden: bool = False) -> Any:
        """Tiles (holes left out, their edges closed, GB-1), the tiles scored
        this round shaded, the start star, original walls in the frame
        colour, walls placed this round in the blocker's colour, the runner
        as a token in its colour, the last wall or step marked (GB-1, GB-2);
        the round (GB-7) or the setup (GB-10) in the notes, the players panel
        (points in all, each player's role, points per round: a player
        scores only while running, GB-5, GB-7) and a legend of the walls,
        the start, the runner and the last move."""
        from ...core.moves import CellMove
        from ...core.scene import Edge, LegendItem, Piece, Region, default_scene, players_panel

        g: Any = self
        base = default_scene(g, show_legal=show_legal)
        pieces = []
        if g.start is not None:
            pieces.append(Piece(g.start, "star", -1, "", label="start"))
        if g.runner is not None and g.phase != "setup":
            who = g.player_label(g.runner_player)
            pieces.append(Piece(g.runner, "token", g.runner_player, "", label=f"runner ({who})"))
        edges = [Edge(w.a, w.b, -1, "wall") for w in g.original_walls]
        edges += [Edge(w.a, w.b, g.blocker_player, "wall") for w in g.placed_walls]
        # a hole is a gap: the edges between it and a tile are closed (GB-1)
        # and the outer border is a wall (GB-2): the edges of the tiles to the rim
        holes = {tuple(h) for h in g.holes}
        n = g.size
        for r in range(n):
            for c in range(n):
                if (r, c) in holes:
                    continue
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if not (0 <= rr < n and 0 <= cc < n) or (rr, cc) in holes:
                        edges.append(Edge((r, c), (rr, cc), -1, "wall"))
        visited = tuple(c for c in g.scored if c != g.start)
        over = g.phase == "over"
        draw = over and len(g.winners) > 1
        values = []
        for p in range(len(g.players)):
            if over:
                role = "draw" if draw else "winner" if p in g.winners else ""
            elif g.phase == "setup":
                role = "sets up the board" if p == 0 else "runs first"
            else:  # (who acts now is the row marked "turn")
                role = "runs" if p == g.runner_player else "blocks"
            rounds = []
            for rnd in (1, 2):
                runs = 1 if rnd == 1 else 0  # player 2 runs in round one, player 1 in round two (GB-7)
                if p != runs:
                    rounds.append("\u2013")
                elif g.phase == "setup" or (rnd == 2 and g.round < 2):
                    rounds.append("")
                else:
                    rounds.append(str(g.round_scores[rnd - 1][p]))
            values.append((role, *rounds))
        if g.phase == "setup":
            notes: tuple[str, ...] = (f"Setup (GB-10): {g.player_label(0)} places original walls on the edges "
                                      "and may move the start, then done.",)
        elif over:
            notes = ()
        else:
            notes = (f"Round {g.round} of 2 (GB-7)",
                     f"{g.player_label(g.runner_player)} runs, {g.player_label(g.blocker_player)} blocks.")
        legend = [
            LegendItem("wall", -1, "original wall"),
            LegendItem("wall", g.blocker_player, "wall placed this round"),
            LegendItem("star", -1, "start"),
            LegendItem("token", g.runner_player, "runner"),
            LegendItem("tint", g.runner_player, "scored this round"),
        ]
        # a step outlines the runner's tile: once its round is over (the runner
        # back at the start of the next, GB-7) the old tile is no last move
        last = tuple(c for c in base.last if (g.runner is not None and tuple(c) == tuple(g.runner))
                     or not isinstance(g.history[-1] if g.history else None, CellMove))
        base = replace(base, last=last)
        if base.last or base.last_edges:
            legend.append(LegendItem("last", -1, "last move"))
        return replace(
            base,
            holes=tuple(g.holes),
            regions=[Region(visited, g.runner_player, "tint", "scored this round")] if visited else [],
            pieces=pieces,
            edges=edges,
            notes=notes,
            panel=players_panel(g, ("Role", "Round 1", "Round 2"), values),
            legend=tuple(legend),
        )

    # the text board (``str(game)``, the terminal) ------------------------------
    def board_text(self, mark_legal: bool = False) -> str:
        """The board as text with lettered columns (C-2): walls ``|`` and
        ``---`` (the border is always closed, GB-2), ``R`` the runner, ``*``
        the start, ``.`` a tile scored this round, ``#`` a hole. With
        ``mark_legal``, while the runner is to step: ``+`` on the tiles where
        a step scores, and brackets, ``(.)`` or ``(*)``, on the scored tiles
        it may step back to (GB-3, GB-5)."""
        n = self.size
        legal = ({m.cell for m in self.legal_moves()}  # type: ignore[attr-defined]
                 if mark_legal and self.to_act == "run" else set())  # type: ignore[attr-defined]

        def mark(cell: tuple[int, int]) -> str:
            text = self.cell_text(cell) or " "  # type: ignore[attr-defined]
            if cell in legal:
                return " + " if text == " " else f"({text})"
            return f" {text} "

        lines = ["    " + "".join(f" {chr(65 + c) if c < 26 else '?'}  " for c in range(n)).rstrip()]
        top = "   +" + "---+" * n
        lines.append(top)
        for r in range(n):
            row = f"{r + 1:>2} |"
            for c in range(n):
                i = r * n + c
                row += mark((r, c))
                if c + 1 < n:
                    row += "|" if self._closed(i, i + 1) else " "  # type: ignore[attr-defined]
            lines.append(row + "|")
            if r + 1 < n:
                lines.append("   +" + "".join(("---" if self._closed(r * n + c, r * n + c + n) else "   ") + "+"  # type: ignore[attr-defined]
                                              for c in range(n)))
        lines.append(top)
        return "\n".join(lines)

    def __str__(self) -> str:
        """:meth:`board_text` and the status."""
        with self._lock:  # type: ignore[attr-defined]  # one position, even while another thread plays
            return self.board_text() + "\n" + self.status()  # type: ignore[attr-defined]

