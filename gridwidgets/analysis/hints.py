"""Hints: advice on every legal move of the player to act, for the widget's overlay.

Computed in a worker thread by the widget (``w.hints = "solve" | "mcts"``);
which kinds a game offers is decided here, from its metadata.
"""

from __future__ import annotations

import threading
from typing import Any

from ..core.game import Game

__all__ = ["HINT_KINDS", "compute_hints", "hint_kinds"]

#: the hint overlays a widget offers ("" is off)
HINT_KINDS = ("", "solve", "mcts")


def compute_hints(kind: str, game: Game, budget: float, stop: threading.Event | None = None) -> dict[str, Any]:
    """Advice on every legal move of ``game``'s player to act.

    Args:
        kind: ``"solve"`` (exact values by ``gridwidgets.analysis.solve``) or
            ``"mcts"`` (root statistics of ``gridwidgets.agents.MCTSAgent``).
        game: the position, as the player to act may see it (``view_for``).
        budget: seconds.
        stop: an event another thread sets to end the computation early (the
            widget does when the position changes): the search stops within
            about a millisecond and its result is not wanted.

    Returns:
        ``{"moves": {notation: {"label", "value", "share", "best"}}, "message"}``:
        ``value`` in -1..1 for the player to act, ``share`` the visit share
        (MCTS) or 1/0, ``label`` what the overlay prints (``"win"``, ``"loss"``,
        ``"draw"`` or ``"42%"``), ``best`` for the moves with the best value.

    Raises:
        ValueError: when the position cannot be analysed (e.g. a game the
            solver does not handle).
        RuntimeError: when the analysis does not fit in the budget (too big
            to solve: ``SolveBudgetExceeded``).
    """
    moves: dict[str, dict[str, Any]] = {}
    if kind == "solve":
        from .solve import solve

        sol = solve(game, time_limit=budget, progress=False, stop=stop)
        best = {str(m) for m in sol.best_moves}
        for move, value in sol.move_values.items():
            label = "win" if value > 0 else "loss" if value < 0 else "draw"
            moves[str(move)] = {"label": label, "value": float(value), "share": 1.0 if str(move) in best else 0.0,
                                "best": str(move) in best}
        verdict = "wins" if sol.value > 0 else "loses" if sol.value < 0 else "draws"
        mover = game.players[game.current_player] if game.current_player is not None else "?"
        return {"moves": moves, "message": f"{mover} {verdict} with perfect play ({sol.nodes:,} positions searched)."}
    from ..agents.mcts import MCTSAgent

    stats = MCTSAgent(time=budget, seed=0).analyse(game, stop=stop)
    total = sum(v for v, _ in stats.values()) or 1
    top = max((value for _, value in stats.values()), default=0.0)
    most = max((v for v, _ in stats.values()), default=0)
    for move, (visits, value) in stats.items():
        moves[str(move)] = {"label": f"{visits / total:.0%}", "value": float(value), "share": visits / total,
                            "best": visits == most}
    return {"moves": moves, "message": f"Monte Carlo tree search: {total:,} simulations (best value {top:+.2f})."}



def hint_kinds(game: Game) -> list[str]:
    """The hint overlays ``game`` offers, besides ``""`` (off): ``"mcts"`` for
    every game, ``"solve"`` for two-player zero-sum games of perfect
    information with sequential moves (what ``analysis.solve`` handles)."""
    gt = game.game_type
    kinds = ["mcts"]
    if len(game.players) == 2 and gt.perfect_information and not gt.simultaneous and gt.utility.value == "zero-sum":
        kinds.insert(0, "solve")
    return kinds
