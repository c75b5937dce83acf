"""Dominated strategies of a two-player game in normal form, and their
iterated elimination.

A pure strategy ``s`` of a player is **strictly dominated** by another of
their pure strategies ``d`` if ``d`` earns that player more than ``s``
against every pure strategy of the opponent; **weakly dominated** if ``d``
earns at least as much against every one and more against at least one.
A rational player never plays a strictly dominated strategy, so it can be
deleted; in the smaller game other strategies may become dominated, and
deleting them in turn is **iterated elimination** (Osborne & Rubinstein
1994, *A Course in Game Theory*, section 2.9 and Definition 60.2; Fudenberg &
Tirole 1991, *Game Theory*, section 2.1).

- Iterated elimination of strictly dominated strategies keeps every Nash
  equilibrium, and what survives does not depend on the order of the deletions.
- Weak dominance is order dependent and may delete Nash equilibria: the
  order used here is fixed (see :func:`iterated_elimination`).
- Only domination by a *pure* strategy is checked. A strategy dominated
  only by a mixture of others (e.g. the middle row of
  ``[[3, 0], [1, 1], [0, 3]]``) is kept.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .stage import TIE, StageGame

__all__ = ["EliminationStep", "dominated", "iterated_elimination"]


@dataclass(frozen=True)
class EliminationStep:
    """One deletion of :func:`iterated_elimination`.

    Attributes:
        round: the pass in which it was deleted, from 1 (one pass looks at
            player 0, then at player 1).
        player: whose strategy was deleted (0: rows, 1: columns).
        strategy: the deleted pure strategy's label.
        dominated_by: the label of a remaining pure strategy of the same
            player that dominates it (the first in order).
        strict: True for strict dominance, False for weak.
    """

    round: int
    player: int
    strategy: str
    dominated_by: str
    strict: bool

    def __str__(self) -> str:
        kind = "strictly" if self.strict else "weakly"
        return (f"round {self.round}: player {self.player}'s {self.strategy} is {kind} "
                f"dominated by {self.dominated_by}")


def _payoffs(stage: StageGame, player: int) -> np.ndarray:
    """``player``'s payoffs, one row per strategy of ``player``, one column per opponent strategy."""
    return stage.a if player == 0 else stage.b.T


def _check_player(player: object) -> int:
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or int(player) not in (0, 1):
        raise ValueError(f"player must be 0 or 1, not {str(player)[:30]}")
    return int(player)


def _dominations(mine: np.ndarray, strict: bool, slack: float) -> dict[int, int]:
    """``{dominated row: first row dominating it}`` of a payoff array (rows: own strategies)."""
    out: dict[int, int] = {}
    for s in range(mine.shape[0]):
        for d in range(mine.shape[0]):
            if d == s:
                continue
            diff = mine[d] - mine[s]
            if strict:
                beats = bool(np.all(diff > slack))
            else:
                beats = bool(np.all(diff >= -slack) and np.any(diff > slack))
            if beats:
                out[s] = d
                break
    return out


def dominated(stage: StageGame, player: int, strict: bool = True) -> dict[str, str]:
    """The pure strategies of ``player`` dominated by another of their pure strategies.

    Args:
        stage: the game in normal form.
        player: 0 (the rows) or 1 (the columns).
        strict: True for strict dominance (better against every strategy of
            the opponent), False for weak (never worse, better against at
            least one). Payoffs closer than ``TIE`` times the payoffs' scale
            count as equal.

    Returns:
        ``{dominated label: dominating label}`` in the order of
        ``stage.strategies(player)``; the dominating strategy is the first
        one in that order. Empty if no strategy is dominated.

    Raises:
        ValueError: for a player other than 0 or 1.
    """
    p = _check_player(player)
    labels = stage.strategies(p)
    slack = TIE * max(1.0, float(np.abs(stage.payoffs).max()))
    found = _dominations(_payoffs(stage, p), strict, slack)
    return {labels[s]: labels[d] for s, d in sorted(found.items())}


def iterated_elimination(stage: StageGame, strict: bool = True) -> tuple[StageGame, list[EliminationStep]]:
    """Delete dominated pure strategies until none is left.

    Each round looks at player 0 and deletes all of their strategies that
    are dominated in the current game, then does the same for player 1 in
    the game that is left; rounds repeat until one deletes nothing. With
    ``strict=True`` the game that survives is the same in any order; with
    ``strict=False`` (weak dominance) it may depend on the order, and this
    is the order used.

    Args:
        stage: the game in normal form.
        strict: strict (True) or weak (False) dominance, as in :func:`dominated`.

    Returns:
        ``(reduced, steps)``: the surviving game, a :class:`StageGame` with
        the same players and title and the surviving rows and columns in
        their order, and the deletions in the order made
        (:class:`EliminationStep`). ``steps`` is empty if nothing is dominated.
    """
    slack = TIE * max(1.0, float(np.abs(stage.payoffs).max()))
    keep = [list(range(len(stage.rows))), list(range(len(stage.cols)))]
    steps: list[EliminationStep] = []
    labels = (stage.rows, stage.cols)
    round_no = 0
    while True:
        round_no += 1
        removed_any = False
        for p in (0, 1):
            sub = stage.payoffs[np.ix_(keep[0], keep[1])]
            mine = sub[:, :, 0] if p == 0 else sub[:, :, 1].T
            found = _dominations(mine, strict, slack)
            if not found:
                continue
            removed_any = True
            for s, d in sorted(found.items()):
                steps.append(EliminationStep(round_no, p, labels[p][keep[p][s]], labels[p][keep[p][d]], strict))
            keep[p] = [k for i, k in enumerate(keep[p]) if i not in found]
        if not removed_any:
            break
    reduced = StageGame(stage.players, tuple(stage.rows[i] for i in keep[0]),
                        tuple(stage.cols[j] for j in keep[1]),
                        stage.payoffs[np.ix_(keep[0], keep[1])], stage.title)
    return reduced, steps
