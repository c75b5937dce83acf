"""What the GridBloc board in the browser needs beyond the generic state: the view hooks of
:class:`~gridwidgets.core.Game`, and its board editor.

A mixin of :class:`~gridwidgets.games.gridbloc.GridBloc` (``rules.py`` beside it holds the rules)."""

from __future__ import annotations

from typing import Any, ClassVar

from ...core.errors import InvalidMoveError, shorten
from ...core.notation import cell_name, parse_cell


class GridBlocView:
    """View hooks of GridBloc: walls, the runner, the region it can still reach, the
    rounds (GB-1..GB-7); and the board editor (GB-1, GB-10)."""

    frontend_layer: ClassVar[str] = "gridbloc"
    #: room for walls between the tiles
    board_px: ClassVar[int] = 500
    widget_defaults: ClassVar[dict[str, Any]] = {"show_legal": True}
    #: shade the region the runner can still reach (GB-6)
    widget_options: ClassVar[dict[str, Any]] = {"show_region": False}

    def frontend_state(self) -> dict[str, Any]:
        """``walls``, ``original``, ``placed``, ``open_edges``, ``start``, ``runner``,
        ``holes``, ``scored``, ``region``, ``unscored_reachable``, ``round``, ``to_act``,
        ``phase``, ``runner_player``, ``blocker_player``, ``round_scores``, ``events``
        (``docs/frontend.md``)."""
        g: Any = self
        over = g.phase == "over"
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
            "open_edges": [str(w) for w in g.open_walls()],
            "scored": [cell_name(c) for c in g.scored if c != g.start],
            "region": [] if over else [cell_name(c) for c in g.reachable()],
            "unscored_reachable": 0 if over else g.unscored_reachable(),
            "events": g.events,
        }

    #: the editor's edits (GB-1, GB-10)
    edit_actions = ("wall", "start", "hole")

    def board_spec(self) -> dict[str, Any]:
        """The board being played as a design (``GridBloc(board=...)`` takes it back, GB-1)."""
        return self.board_preset()  # type: ignore[attr-defined, no-any-return]

    def edit_board(self, action: str, target: str) -> Any:
        """A new game on this board with one edit: toggle an original wall (``"wall"``,
        ``"C4|D4"``), move the start (``"start"``, ``"E5"``) or toggle a hole (``"hole"``,
        ``"A1"``) (GB-1, GB-10).

        Raises:
            ValueError: (``IllegalMoveError``/``InvalidMoveError`` among them) for an unknown
                action, a target of the wrong kind, or a board that would not be valid.
        """
        from .rules import GridBloc

        g: Any = self
        spec = g.board_preset()
        if action == "wall":
            wall = str(g.parse_wall(target))
            walls = set(spec["walls"])
            walls.symmetric_difference_update({wall})
            spec["walls"] = sorted(walls)
        elif action in ("start", "hole"):
            if not isinstance(target, str) or "|" in target:
                raise InvalidMoveError(f"{shorten(target)} is not a tile: a {action} is one tile like 'E5'",
                                       rule="C-2", move=target)
            cell = cell_name(parse_cell(target, g.size, g.size))
            if action == "start":
                spec["start"] = cell
            else:
                holes = set(spec["holes"])
                holes.symmetric_difference_update({cell})
                spec["holes"] = sorted(holes)
        else:
            raise ValueError(f"unknown edit {shorten(action)}: use 'wall', 'start' or 'hole'")
        return GridBloc(board=spec)
