"""Dominated strategies of a two-player game in normal form, their iterated
elimination, and the rationalizable strategies.

A pure strategy ``s`` of a player is **strictly dominated** if some mixed
strategy ``σ`` of the same player (a pure one included) earns that player
more than ``s`` against every pure strategy of the opponent; **weakly
dominated** if some ``σ`` earns at least as much against every one and more
against at least one. Domination by a mixed strategy is the textbooks'
definition (M. J. Osborne & A. Rubinstein 1994, *A Course in Game Theory*,
section 4.2, Definition 59.2; M. J. Osborne 2004, *An Introduction to Game
Theory*, section 2.9 for domination by actions and section 4.4 for
domination by mixed strategies): the middle row of
``[[3, 0], [1, 1], [0, 3]]`` is dominated by neither other row alone, but
strictly by half of each (1.5 > 1 against both columns).

Both checks first try the player's other pure strategies (reporting the
first that dominates, in order), then a mix of them, found by a linear
program (``scipy.optimize.linprog``, HiGHS; the weak check tries the strict
LP first, since strict domination implies weak):

- **strict**: maximise ``ε`` over mixes ``σ`` of the player's other
  strategies subject to ``σ·u(·, t) - u(s, t) >= ε`` for every pure
  strategy ``t`` of the opponent (the smallest margin, made as large as
  possible); ``s`` is strictly dominated when the mix found beats ``s`` by
  more than the tolerance against every ``t``;
- **weak**: maximise the sum of the margins ``Σ_t (σ·u(·, t) - u(s, t))``
  subject to every margin ``>= 0``; ``s`` is weakly dominated when the mix
  found is never worse (within the tolerance) and better by more than the
  tolerance against some ``t`` (a positive sum means a positive margin
  somewhere).

The mix reported is the LP's solution, verified by computing its margins
again; payoffs closer than ``TIE`` times the payoffs' scale count as equal.
Leaving ``s`` itself out of the mix loses nothing: a mix putting weight
``w < 1`` on ``s`` dominates ``s`` exactly when the mix of the others
rescaled by ``1 / (1 - w)`` does.

A rational player never plays a strictly dominated strategy (it is never a
best response to any belief about the opponent: Osborne & Rubinstein 1994,
Lemma 60.1), so it can be deleted; in the smaller game other strategies may
become dominated, and deleting them in turn is **iterated elimination**
(Osborne & Rubinstein 1994, Definition 60.2; Osborne 2004, chapter 12;
Fudenberg & Tirole 1991, *Game Theory*, section 2.1).

- Iterated elimination of strictly dominated strategies keeps every Nash
  equilibrium, and what survives does not depend on the order of the
  deletions. What survives it in a finite game are the **rationalizable**
  strategies (Bernheim 1984, "Rationalizable strategic behavior",
  *Econometrica* 52(4); Pearce 1984, "Rationalizable strategic behavior and
  the problem of perfection", *Econometrica* 52(4); Osborne & Rubinstein
  1994, Proposition 61.2, whose beliefs may be correlated: with two players
  there is one opponent, so this is exactly Bernheim's and Pearce's
  rationalizability): :func:`rationalizable`.
- Weak dominance is order dependent and may delete Nash equilibria: the
  order used here is fixed (see :func:`iterated_elimination`).
- ``mixed=False`` checks pure dominators only (the elementary textbooks'
  first definition), which can keep strategies a mix dominates.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .stage import TIE, StageGame

__all__ = ["EliminationStep", "dominated", "iterated_elimination", "rationalizable"]

#: probabilities of a dominating mix below this are round-off, left out of the mix reported
_PROB_EPS = 1e-9


@dataclass(frozen=True)
class EliminationStep:
    """One deletion of :func:`iterated_elimination`.

    Attributes:
        round: the pass in which it was deleted, from 1 (one pass looks at
            player 0, then at player 1).
        player: whose strategy was deleted (0: rows, 1: columns).
        strategy: the deleted pure strategy's label.
        dominated_by: what dominates it in the game of that pass (before
            the pass deletes anything of ``player``): the label of a pure
            strategy of the same player (the first in order) where one
            dominates it, else a mixed strategy as ``{label: probability}``
            (its support, in order).
        strict: True for strict dominance, False for weak.
    """

    round: int
    player: int
    strategy: str
    dominated_by: str | dict[str, float]
    strict: bool

    @property
    def mixed(self) -> bool:
        """True if the dominator is a mix of two or more pure strategies."""
        return isinstance(self.dominated_by, dict)

    def __str__(self) -> str:
        kind = "strictly" if self.strict else "weakly"
        return (f"round {self.round}: player {self.player}'s {self.strategy} is {kind} "
                f"dominated by {describe(self.dominated_by)}")


def describe(dominator: str | dict[str, float]) -> str:
    """A dominator in words: its label, or ``"the mix T 0.500, B 0.500"``."""
    if isinstance(dominator, dict):
        return "the mix " + ", ".join(f"{lab} {q:.3f}" for lab, q in dominator.items())
    return dominator


def _payoffs(stage: StageGame, player: int) -> np.ndarray:
    """``player``'s payoffs, one row per strategy of ``player``, one column per opponent strategy."""
    return stage.a if player == 0 else stage.b.T


def _check_player(player: object) -> int:
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or int(player) not in (0, 1):
        raise ValueError(f"player must be 0 or 1, not {str(player)[:30]}")
    return int(player)


def _beats(diff: np.ndarray, strict: bool, slack: float) -> bool:
    """Whether margins ``diff`` (dominator minus dominated, per opponent strategy) mean domination."""
    if strict:
        return bool(np.all(diff > slack))
    return bool(np.all(diff >= -slack) and np.any(diff > slack))


def _mixed_dominator(mine: np.ndarray, s: int, strict: bool, slack: float) -> np.ndarray | None:
    """A mix of the rows other than ``s`` dominating row ``s`` (the LPs of the
    module's description), as probabilities over all rows (0 at ``s``), or
    None. For weak dominance the strict LP is tried first: a strictly
    dominating mix dominates weakly too, and its margins are all positive."""
    if not strict:
        found = _mix_lp(mine, s, True, slack)
        if found is not None:
            return found
    return _mix_lp(mine, s, strict, slack)


def _mix_lp(mine: np.ndarray, s: int, strict: bool, slack: float) -> np.ndarray | None:
    """One LP of :func:`_mixed_dominator`."""
    from scipy.optimize import linprog

    others = [d for d in range(mine.shape[0]) if d != s]
    if len(others) < 2:  # one other strategy: the pure check has seen it
        return None
    m = mine[others]  # (k, n): the others' payoffs
    k, n = m.shape
    target = mine[s]
    if strict:
        # variables (σ_1..σ_k, ε): maximise ε s.t. ε - σ·m[:, t] <= -target[t]
        c = np.zeros(k + 1)
        c[-1] = -1.0
        a_ub = np.hstack([-m.T, np.ones((n, 1))])
        b_ub = -target
        a_eq = np.hstack([np.ones((1, k)), np.zeros((1, 1))])
        bounds = [(0.0, None)] * k + [(None, None)]
    else:
        # maximise Σ_t (σ·m[:, t] - target[t]) s.t. σ·m[:, t] >= target[t]
        c = -m.sum(axis=1)
        a_ub = -m.T
        b_ub = -target
        a_eq = np.ones((1, k))
        bounds = [(0.0, None)] * k
    res = linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs")
    if res.status != 0:  # infeasible (weak: nothing is never worse) or a solver failure: no dominator found
        return None
    sigma = np.clip(res.x[:k], 0.0, None)
    sigma[sigma < _PROB_EPS] = 0.0
    if not sigma.sum() > 0:  # pragma: no cover - the LP keeps the sum at 1
        return None
    sigma /= sigma.sum()
    if not _beats(sigma @ m - target, strict, slack):  # the LP's answer checked, not trusted
        return None
    out = np.zeros(mine.shape[0])
    out[others] = sigma
    return out


def _dominations(mine: np.ndarray, strict: bool, slack: float, mixed: bool) -> dict[int, int | np.ndarray]:
    """``{dominated row: first row dominating it, or a dominating mix}`` of a
    payoff array (rows: own strategies, columns: the opponent's)."""
    out: dict[int, int | np.ndarray] = {}
    for s in range(mine.shape[0]):
        for d in range(mine.shape[0]):
            if d != s and _beats(mine[d] - mine[s], strict, slack):
                out[s] = d
                break
        else:
            if mixed:
                mix = _mixed_dominator(mine, s, strict, slack)
                if mix is not None:
                    out[s] = mix
    return out


def _name(found: int | np.ndarray, labels: tuple[str, ...] | list[str]) -> str | dict[str, float]:
    if isinstance(found, np.ndarray):
        return {labels[i]: float(q) for i, q in enumerate(found) if q > 0}
    return labels[found]


def _slack(stage: StageGame) -> float:
    return TIE * max(1.0, float(np.abs(stage.payoffs).max()))


def dominated(stage: StageGame, player: int, strict: bool = True,
              mixed: bool = True) -> dict[str, str | dict[str, float]]:
    """The pure strategies of ``player`` that another of their strategies dominates.

    Args:
        stage: the game in normal form.
        player: 0 (the rows) or 1 (the columns).
        strict: True for strict dominance (better against every pure
            strategy of the opponent), False for weak (never worse, better
            against at least one). Payoffs closer than ``TIE`` times the
            payoffs' scale count as equal.
        mixed: True (the default, the textbooks' definition) to look for a
            dominating mixed strategy, by the LP of the module's
            description, where no pure strategy dominates; False for pure
            dominators only.

    Returns:
        ``{dominated label: dominator}`` in the order of
        ``stage.strategies(player)``. The dominator is the label of a pure
        strategy (the first in order) where one dominates, else a mixed
        strategy as ``{label: probability}`` (its support). Empty if no
        strategy is dominated.

    Raises:
        ValueError: for a player other than 0 or 1.
    """
    p = _check_player(player)
    labels = stage.strategies(p)
    found = _dominations(_payoffs(stage, p), strict, _slack(stage), mixed)
    return {labels[s]: _name(d, labels) for s, d in sorted(found.items())}


def iterated_elimination(stage: StageGame, strict: bool = True,
                         mixed: bool = True) -> tuple[StageGame, list[EliminationStep]]:
    """Delete dominated strategies until none is left.

    Each round looks at player 0 and deletes all of their strategies that
    are dominated in the current game (by a pure or, with ``mixed=True``,
    a mixed strategy of the strategies still there), then does the same for
    player 1 in the game that is left; rounds repeat until one deletes
    nothing. Deleting every dominated strategy of a player at once is
    sound: each is dominated by a mix of that player's undominated
    strategies (among the mixes dominating it by at least a given margin,
    the one with the largest sum of payoffs puts no weight on a dominated
    strategy: moving that weight to the strategy's dominator would raise
    the sum and keep the domination).

    With ``strict=True`` and ``mixed=True`` this is Osborne & Rubinstein's
    iterated elimination of strictly dominated actions (Definition 60.2),
    its result the same in any order, and its survivors the rationalizable
    strategies (:func:`rationalizable`). With ``strict=False`` (weak
    dominance) the result may depend on the order, and this is the order
    used; it may delete Nash equilibria.

    Args:
        stage: the game in normal form.
        strict: strict (True) or weak (False) dominance, as in :func:`dominated`.
        mixed: look for dominating mixes too (True, the default) or pure
            dominators only (False).

    Returns:
        ``(reduced, steps)``: the surviving game, a :class:`StageGame` with
        the same players and title and the surviving rows and columns in
        their order, and the deletions in the order made
        (:class:`EliminationStep`). ``steps`` is empty if nothing is dominated.
    """
    slack = _slack(stage)
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
            found = _dominations(mine, strict, slack, mixed)
            if not found:
                continue
            removed_any = True
            here = [labels[p][k] for k in keep[p]]
            for s, d in sorted(found.items()):
                steps.append(EliminationStep(round_no, p, here[s], _name(d, here), strict))
            keep[p] = [k for i, k in enumerate(keep[p]) if i not in found]
        if not removed_any:
            break
    reduced = StageGame(stage.players, tuple(stage.rows[i] for i in keep[0]),
                        tuple(stage.cols[j] for j in keep[1]),
                        stage.payoffs[np.ix_(keep[0], keep[1])], stage.title)
    return reduced, steps


def rationalizable(stage: StageGame) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The rationalizable pure strategies of each player of a two-player game.

    A strategy is rationalizable if it is a best response to some belief
    about the opponent's play that is itself justified by rationalizable
    strategies, and so on (Bernheim 1984; Pearce 1984). In a finite
    two-player game these are exactly the strategies that survive iterated
    elimination of strictly dominated strategies, domination by mixed
    strategies included (Pearce 1984; Osborne & Rubinstein 1994, Lemma 60.1
    and Proposition 61.2), which is how they are computed here:
    ``iterated_elimination(stage, strict=True, mixed=True)``. Every strategy
    in the support of a Nash equilibrium is rationalizable.

    Args:
        stage: the game in normal form.

    Returns:
        ``(player 0's, player 1's)`` rationalizable strategies, each in the
        order of ``stage.strategies(player)``.
    """
    reduced, _ = iterated_elimination(stage, strict=True, mixed=True)
    return reduced.rows, reduced.cols
