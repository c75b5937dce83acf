"""The Block Four widget (RULES BF-1..BF-13 come from the engine).

Secrecy (BF-5): the state sent to the browser is built from the game's
public view only: ``history`` without a hidden bid, ``pending_bids`` (who has
bid, never what), and the player to act's own legal moves.
"""

from __future__ import annotations

from typing import Any

from ..core.notation import cell_name
from ..games.blockfour import NUMBERS, SHAPES, BlockFour, _turns
from .base import GameWidget

__all__ = ["BlockFourWidget"]


def _orientation_table() -> dict[str, dict[str, list[list[list[int]]]]]:
    table = {}
    for s in SHAPES:
        rot, mir = _turns(s)
        table[s] = {
            "rot": [[list(c) for c in o] for o in rot],
            "mir": [[list(c) for c in o] for o in mir],
        }
    return table


_ORIENTATIONS = _orientation_table()


class BlockFourWidget(GameWidget):
    """The interactive Block Four board: fields, cards, bids and placements.

    Args:
        game: the :class:`~gridwidgets.BlockFour` shown (default: a new game).

    Keyword Args:
        agents (Mapping[int, Agent]): ``{player: agent}`` seats played by agents
            (an agent sees the game without the other player's hidden bid).
    """

    def __init__(self, game: BlockFour | None = None, **kwargs: Any) -> None:
        super().__init__(game if game is not None else BlockFour(), **kwargs)

    def extra_state(self) -> dict[str, Any]:
        """``phase``, ``turn``, ``fields``, ``hands``, ``tables``, ``pending_bids``,
        ``revealed``, ``to_place``, ``orientations``, ``gaps``, ``skipped``,
        ``stall``, ``events`` (``docs/frontend.md``)."""
        g = self._game
        assert isinstance(g, BlockFour)
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
            "orientations": _ORIENTATIONS,
            "gaps": [cell_name(c) for c in g.last_gaps],
            "skipped": g.last_skipped,
            "stall": g.stall,
            "events": g.events,
        }
