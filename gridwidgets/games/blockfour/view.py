"""What the Block Four board in the browser needs beyond the generic state: the view hooks of
:class:`~gridwidgets.core.Game`.

A mixin of :class:`~gridwidgets.games.blockfour.BlockFour` (``rules.py`` beside it holds the rules).

Secrecy (BF-5): everything here is public: who has bid (never what), the hands
and tables, and the bids once revealed."""

from __future__ import annotations

from functools import cache
from typing import Any, ClassVar

from ...core.notation import cell_name


@cache
def _orientation_table() -> dict[str, dict[str, list[list[list[int]]]]]:
    """Per card, its four quarter turns and their mirror images (BF-3), for the placement preview."""
    from .rules import SHAPES, quarter_turns

    table = {}
    for s in SHAPES:
        rot, mir = quarter_turns(s)
        table[s] = {"rot": [[list(c) for c in o] for o in rot], "mir": [[list(c) for c in o] for o in mir]}
    return table


class BlockFourView:
    """View hooks of Block Four: fields, cards, bids and placements (BF-1..BF-12)."""

    frontend_layer: ClassVar[str] = "blockfour"
    #: 9x9 cells of 54 px: room for a field's number above the marks
    board_px: ClassVar[int] = 520

    def frontend_state(self) -> dict[str, Any]:
        """``phase``, ``turn``, ``fields``, ``hands``, ``tables``, ``pending_bids``,
        ``revealed``, ``to_place``, ``orientations``, ``gaps``, ``skipped``, ``stall``,
        ``events`` (``docs/frontend.md``)."""
        from .rules import NUMBERS

        g: Any = self
        counts = g.field_counts()
        ctrl = g.controllers()
        revealed = None
        if g.revealed is not None:
            x, o = g.revealed
            revealed = {
                "bids": [str(x), str(o)],
                "matches": len(set(x.cards) & set(o.cards)),
                "order": g.turn_placements,
            }
        to_place = g.to_place
        return {
            "phase": g.phase,
            "turn": g.turn,
            "fields": [{"x": x, "o": o, "controller": c} for (x, o), c in zip(counts, ctrl, strict=True)],
            "fields_controlled": list(g.fields_controlled()),
            "spaces": list(g.spaces()),
            "hands": [list(h) for h in g.hands],
            "tables": [list(t) for t in g.tables],
            "card_numbers": dict(NUMBERS),
            "pending_bids": list(g.pending_bids),
            "revealed": revealed,
            "to_place": {"player": to_place[0], "shape": to_place[1]} if to_place else None,
            "orientations": _orientation_table(),
            "gaps": [cell_name(c) for c in g.last_gaps],
            "skipped": g.last_skipped,
            "stall": g.stall,
            "events": g.events,
        }
