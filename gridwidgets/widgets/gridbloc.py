"""The GridBloc widget (RULES GB-1..GB-10 come from the engine), with an
editor mode to design boards."""

from __future__ import annotations

import json
from typing import Any

import traitlets

from ..core.errors import IllegalMoveError
from ..core.notation import cell_name
from ..games.gridbloc import GridBloc
from .base import GameWidget

__all__ = ["GridBlocWidget"]


class GridBlocWidget(GameWidget):
    """The interactive GridBloc board: the runner steps by clicking a tile, the
    blocker places a wall by clicking an edge.

    Args:
        game: the :class:`~gridwidgets.GridBloc` shown (default: a new game).

    Keyword Args:
        agents (Mapping[int, Agent]): ``{player: agent}`` seats played by agents.
        show_region (bool): shade the region the runner can still reach (GB-6).
        editing (bool): the board editor: clicks add or remove original walls, set
            the start or mask tiles out (GB-1); ``board_json`` holds the
            designed board, which ``GridBloc(board=...)`` loads.
    """

    show_region = traitlets.Bool(False).tag(sync=True)
    editing = traitlets.Bool(False).tag(sync=True)
    board_json = traitlets.Unicode("").tag(sync=True)

    def __init__(self, game: GridBloc | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("show_legal", True)
        super().__init__(game if game is not None else GridBloc(), **kwargs)
        self.board_json = json.dumps(self._game.board_preset())  # type: ignore[attr-defined]

    def extra_state(self) -> dict[str, Any]:
        """``walls``, ``original``, ``placed``, ``edges``, ``start``, ``runner``,
        ``holes``, ``scored``, ``region``, ``unscored_reachable``, ``round``,
        ``to_act``, ``phase``, ``runner_player``, ``blocker_player``,
        ``round_scores``, ``events`` (``docs/frontend.md``)."""
        g = self._game
        assert isinstance(g, GridBloc)
        open_edges = [str(g._edge_wall(e)) for e in range(len(g._edge_tiles)) if g._is_open(e)]
        return {
            "phase": g.phase,
            "round": g.round,
            "to_act": g.to_act,
            "runner_player": g.runner_player,
            "blocker_player": g.blocker_player,
            "round_scores": [list(r) for r in g.round_scores],
            "start": cell_name(g.start),
            "runner": cell_name(g.runner),
            "holes": [cell_name(c) for c in g.holes],
            "original": [str(w) for w in g.original_walls],
            "placed": [str(w) for w in g.placed_walls],
            "open_edges": open_edges,
            "scored": [cell_name(c) for c in g.scored if c != g.start],
            "region": [cell_name(c) for c in g.reachable()] if g.phase != "over" else [],
            "unscored_reachable": g.unscored_reachable() if g.phase != "over" else 0,
            "events": g.events,
        }

    # -- the board editor ---------------------------------------------------
    def handle_intent(self, content: Any) -> bool:
        """Also the editor's intents: ``{"type": "edit", "action": "wall" |
        "start" | "hole", "target": "C4|D4" | "E5"}`` (``docs/frontend.md``)."""
        if isinstance(content, dict) and content.get("type") == "edit":
            return self._edit(content.get("action"), content.get("target"))
        return super().handle_intent(content)

    def edit(self, action: str, target: str) -> None:
        """Change the board being designed: toggle an original wall
        (``"wall"``, ``"C4|D4"``), move the start (``"start"``, ``"E5"``) or
        toggle a hole (``"hole"``, ``"A1"``). The game restarts on the new
        board (a new game, no history).

        Raises:
            ValueError: if the change would make the board invalid.
        """
        g = self._game
        assert isinstance(g, GridBloc)
        spec = g.board_preset()
        if action == "wall":
            wall = str(g._edge_wall(g._wall_edge(target)))
            walls = set(spec["walls"])
            walls.symmetric_difference_update({wall})
            spec["walls"] = sorted(walls)
        elif action == "start":
            spec["start"] = cell_name(g.parse_move(target).cell)
        elif action == "hole":
            cell = cell_name(g.parse_move(target).cell)
            holes = set(spec["holes"])
            holes.symmetric_difference_update({cell})
            spec["holes"] = sorted(holes)
        else:
            raise ValueError(f"unknown edit {action!r}: use 'wall', 'start' or 'hole'")
        fresh = GridBloc(board=spec)
        g._replace_with(fresh)
        self.board_json = json.dumps(fresh.board_preset())

    def _edit(self, action: Any, target: Any) -> bool:
        if not isinstance(action, str) or not isinstance(target, str) or len(target) > 16:
            self._say("Refused: an edit names an action and a target.")
            return False
        try:
            self.edit(action, target)
        except (ValueError, IllegalMoveError) as exc:
            self._say(f"Refused: {exc}")
            return False
        return True
