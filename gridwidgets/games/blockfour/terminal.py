"""Block Four in a terminal (BF-1..BF-13; ``python -m gridwidgets play
blockfour``, or :func:`gridwidgets.terminal.play_game`).

The book has no dialogue; ours is the generic one (the board, the players'
table with hands and tables, the page's notes; hot seat between the two
hidden bids, BF-5) with the nine fields drawn apart in text, this turn's
placement order (BF-6), and looser typing: a bid by letters or card numbers
(``IT``, ``I T``, ``1 4``), a placement by its four spaces alone."""

from __future__ import annotations

import re
from typing import Any

from ...terminal import Dialogue
from .rules import NUMBERS

__all__ = ["BlockFourDialogue"]

_DIGITS = {str(n): s for s, n in NUMBERS.items()}


class BlockFourDialogue(Dialogue):
    """Block Four's words on the one play loop (BF-1..BF-13)."""

    how_to_type = ("Bid two cards of your hand: IT, I T or by number, 1 4 (I 1, L 2, O 3, T 4, Z 5; BF-2, "
                   "BF-5). Place the shape: its four spaces B2 C2 D2 C3, any rotation or mirror image (BF-3).")
    some = 10

    def board(self, game: Any) -> str:
        return game.board_text()  # type: ignore[no-any-return]

    def show(self, viewer: int | None = None) -> list[str]:
        """The generic show, then this turn's placements in order (BF-6: ``X I done, O L now, X T``)
        and the turns without a space filled (BF-11)."""
        game = self.game
        order = [f"{game.players[i['player']]} {i['shape']}" + (f" {i['status']}" if i["status"] != "next" else "")
                 for i in game.turn_placements]
        lines = [*super().show(viewer), *(["This turn: " + ", ".join(order) + "."] if game.phase == "place" else [])]
        if game.stall and not game.is_over:
            lines.append(f"No space filled for {game.stall} turn(s) in a row: 10 end the game (BF-11).")
        return lines

    def parse(self, text: str, player: int) -> Any:
        """``it``, ``I,T`` or ``1 4`` read as ``IT``; four spaces get the shape to place in front (BF-12)."""
        game = self.game
        if game.phase == "bid":
            squeezed = "".join(_DIGITS.get(ch, ch) for ch in text.upper() if ch not in " ,")
            return squeezed if len(squeezed) == 2 and squeezed.isalpha() else text
        cells = [c for c in re.split(r"[\s,]+", text.strip()) if c]
        return f"{game.to_place[1]}:" + ",".join(cells) if ":" not in text and len(cells) == 4 else text

    def move_line(self, who: str, player: int, move: Any) -> str:
        if self.submitted:  # the bid stays hidden until both are in (BF-5); the events reveal them (BF-6)
            return f"{who} has bid."
        return f"{who} placed {move.shape} on {' '.join(str(move).split(':')[1].split(','))}."
