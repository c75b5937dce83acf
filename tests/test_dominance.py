"""Dominated strategies (by pure and by mixed strategies), iterated elimination
and rationalizability, on matrices computed by hand, a textbook example, and
random games checked against the never-best-response characterisation
(Osborne & Rubinstein 1994, Lemma 60.1) and Gambit's equilibria."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from gridwidgets.analysis import (
    EliminationStep,
    dominated,
    equilibria,
    iterated_elimination,
    rationalizable,
    stage_game,
)


def prisoners_dilemma():
    # (row, column) payoffs: C/C 3,3; C/D 0,5; D/C 5,0; D/D 1,1
    a = np.array([[3, 0], [5, 1]])
    return stage_game((a, a.T), players=("Ann", "Bob"), rows=["C", "D"], cols=["C", "D"], title="PD")


def three_by_three():
    # row payoffs: M beats B everywhere; T is only beaten by M once R is gone
    a = np.array([[1, 1, 5], [2, 2, 0], [1, 0, -1]])
    # column payoffs: C beats R only once B is gone; C beats L only once T is gone
    b = np.array([[3, 1, 0], [0, 2, 1], [5, 0, 9]])
    return stage_game((a, b), rows=["T", "M", "B"], cols=["L", "C", "R"], title="3x3")


def test_prisoners_dilemma_defect_strictly_dominates():
    pd_ = prisoners_dilemma()
    assert dominated(pd_, 0) == {"C": "D"}
    assert dominated(pd_, 1) == {"C": "D"}
    assert dominated(pd_, 0, strict=False) == {"C": "D"}
    reduced, steps = iterated_elimination(pd_)
    assert (reduced.rows, reduced.cols) == (("D",), ("D",))
    assert reduced.payoffs.tolist() == [[[1.0, 1.0]]]
    assert (reduced.players, reduced.title) == (("Ann", "Bob"), "PD")
    assert steps == [EliminationStep(1, 0, "C", "D", True), EliminationStep(1, 1, "C", "D", True)]
    # the survivor is the game's only equilibrium
    eq = pd_.equilibrium()
    assert eq.x == {"C": 0.0, "D": 1.0} and eq.o == {"C": 0.0, "D": 1.0}


def test_three_by_three_needs_four_deletions_in_order():
    g = three_by_three()
    # in the full game only B (rows) is dominated, and nothing of the columns
    assert dominated(g, 0) == {"B": "M"}
    assert dominated(g, 1) == {}
    reduced, steps = iterated_elimination(g)
    assert [(s.round, s.player, s.strategy, s.dominated_by) for s in steps] == [
        (1, 0, "B", "M"),   # 1 0 -1 < 2 2 0
        (1, 1, "R", "C"),   # without B: R's 0 1 < C's 1 2
        (2, 0, "T", "M"),   # without R: T's 1 1 < M's 2 2
        (2, 1, "L", "C"),   # without T: L's 0 < C's 2
    ]
    assert (reduced.rows, reduced.cols) == (("M",), ("C",))
    assert reduced.payoffs.tolist() == [[[2.0, 2.0]]]
    assert "round 2: player 0's T is strictly dominated by M" in [str(s) for s in steps]
    # (M, C) is an equilibrium of the full game: neither gains by a pure deviation
    assert g.nash_conv("M", "C") == 0.0


def test_weak_dominance():
    g = stage_game(np.array([[1, 1], [1, 0]]), rows=["U", "D"], cols=["L", "R"])
    assert dominated(g, 0) == {}
    assert dominated(g, 0, strict=False) == {"D": "U"}
    # the columns get -A: R's payoffs -1 0 against L's -1 -1, so R weakly dominates L
    assert dominated(g, 1, strict=False) == {"L": "R"}
    reduced, steps = iterated_elimination(g, strict=False)
    # rows go first: once D is gone, L and R pay the same, so L survives (the order matters)
    assert steps == [EliminationStep(1, 0, "D", "U", False)]
    assert (reduced.rows, reduced.cols) == (("U",), ("L", "R"))
    # columns first would have deleted L, then D: the same game with the roles swapped ends in one cell
    t = stage_game(-np.array([[1, 1], [1, 0]]).T, rows=["L", "R"], cols=["U", "D"])
    left, order = iterated_elimination(t, strict=False)
    assert [s.strategy for s in order] == ["L", "D"]
    assert (left.rows, left.cols) == (("R",), ("U",))
    # strict elimination deletes nothing here
    same, none = iterated_elimination(g)
    assert none == [] and same == g


def test_weak_elimination_can_delete_an_equilibrium():
    a = np.array([[1, 0], [0, 0]])
    g = stage_game((a, a), rows=["U", "D"], cols=["L", "R"])
    assert g.nash_conv("D", "R") == 0.0          # (D, R) is a Nash equilibrium ...
    reduced, _ = iterated_elimination(g, strict=False)
    assert (reduced.rows, reduced.cols) == (("U",), ("L",))  # ... that weak elimination deletes


def test_equal_strategies_do_not_dominate_each_other():
    g = stage_game(np.array([[1, 2], [1, 2]]), rows=["U", "D"], cols=["L", "R"])
    assert dominated(g, 0, strict=False) == {}
    assert dominated(g, 0) == {}


def test_the_middle_row_is_strictly_dominated_by_half_and_half_of_the_others():
    # issue 40: 1.5 > 1 against both columns for the half-half mix of T and B, while neither
    # T (0 < 1 against R) nor B (0 < 1 against L) dominates M alone
    g = stage_game(np.array([[3, 0], [1, 1], [0, 3]]), rows=["T", "M", "B"], cols=["L", "R"])
    assert dominated(g, 0, mixed=False) == {} and dominated(g, 0, strict=False, mixed=False) == {}
    (mix,) = dominated(g, 0).values()
    assert list(dominated(g, 0)) == ["M"]
    # the LP maximises the smallest margin: 3p - 1 = 3(1 - p) - 1 at p = 1/2, a margin of 1/2
    assert mix == pytest.approx({"T": 0.5, "B": 0.5})
    assert dominated(g, 0, strict=False) == dominated(g, 0)  # strictly, so weakly too
    reduced, steps = iterated_elimination(g)
    assert reduced.rows == ("T", "B") and steps[0].mixed and steps[0].strategy == "M"
    assert str(steps[0]) == "round 1: player 0's M is strictly dominated by the mix T 0.500, B 0.500"
    assert iterated_elimination(g, mixed=False)[1] == []


def test_a_strategy_weakly_but_not_strictly_dominated_by_a_mix():
    # M = (1, 1, 1); every mix of T = (3, 0, 1) and B = (0, 3, 1) earns exactly 1 against R, so no
    # mix beats M everywhere; p T + (1 - p) B with 1/3 <= p <= 2/3 is never worse and better
    # against L or R; neither T nor B alone is never worse
    g = stage_game(np.array([[3, 0, 1], [1, 1, 1], [0, 3, 1]]), rows=["T", "M", "B"], cols=["L", "C", "R"])
    assert dominated(g, 0) == {}
    assert dominated(g, 0, strict=False, mixed=False) == {}
    (mix,) = dominated(g, 0, strict=False).values()
    p = mix["T"]
    assert set(mix) == {"T", "B"} and 1 / 3 - 1e-9 <= p <= 2 / 3 + 1e-9 and mix["B"] == pytest.approx(1 - p)
    margins = p * g.a[0] + (1 - p) * g.a[2] - g.a[1]
    assert np.all(margins >= -1e-9) and np.any(margins > 1e-9)


def test_gibbons_iterated_elimination_example():
    # R. Gibbons 1992, Game Theory for Applied Economists, section 1.1.B, Figure 1.1.1: Right is
    # strictly dominated by Middle; then Down by Up; then Left by Middle: (Up, Middle) is left
    a = np.array([[1, 1, 0], [0, 0, 2]])
    b = np.array([[0, 2, 1], [3, 1, 0]])
    g = stage_game((a, b), rows=["Up", "Down"], cols=["Left", "Middle", "Right"])
    reduced, steps = iterated_elimination(g)
    assert [(s.round, s.player, s.strategy, s.dominated_by) for s in steps] == [
        (1, 1, "Right", "Middle"), (2, 0, "Down", "Up"), (2, 1, "Left", "Middle")]
    assert (reduced.rows, reduced.cols) == (("Up",), ("Middle",))
    assert rationalizable(g) == (("Up",), ("Middle",))


#: rows T, M, B; columns L, C, R. M is dominated only by a mix (half T, half B: 1.5, 1.5, 2
#: against 1, 1, 0); once M is gone, R (which paid the columns 5 against M) is dominated by L
MIXED_A = np.array([[3, 0, 2], [1, 1, 0], [0, 3, 2]])
MIXED_B = np.array([[2, 1, 0], [0, 0, 5], [1, 2, 0]])


def test_iterated_elimination_needs_the_mixed_dominator():
    g = stage_game((MIXED_A, MIXED_B), rows=["T", "M", "B"], cols=["L", "C", "R"])
    reduced, steps = iterated_elimination(g)
    assert (reduced.rows, reduced.cols) == (("T", "B"), ("L", "C"))
    assert [(s.round, s.player, s.strategy) for s in steps] == [(1, 0, "M"), (1, 1, "R")]
    assert steps[0].dominated_by == pytest.approx({"T": 0.5, "B": 0.5}) and steps[1].dominated_by == "L"
    assert rationalizable(g) == (("T", "B"), ("L", "C"))
    # with pure dominators only nothing goes: M is kept, and with it R
    assert iterated_elimination(g, mixed=False)[1] == []
    # the survivors hold every equilibrium's support (two pure and a mixed one here)
    for eq in g.equilibria():
        rows, cols = eq.support
        assert set(rows) <= {"T", "B"} and set(cols) <= {"L", "C"}
    assert len(g.equilibria()) == 3


def test_matching_pennies_has_nothing_dominated():
    g = stage_game(np.array([[1, -1], [-1, 1]]))
    reduced, steps = iterated_elimination(g, strict=False)
    assert steps == [] and reduced == g


@pytest.mark.parametrize("player", [2, -1, True, "0", 0.0])
def test_bad_player(player):
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        dominated(prisoners_dilemma(), player)


# ----------------------------------------------------------------------
# Random games: the survivors are what never-best-response elimination keeps
# ----------------------------------------------------------------------
def best_response_to_some_belief(mine: np.ndarray, s: int) -> bool:
    """Is row ``s`` a best response to some mix of the columns? (an LP feasibility
    problem: a belief y with (mine @ y)[s] >= (mine @ y)[t] for every row t)."""
    k, n = mine.shape
    a_ub = mine - mine[s]  # (mine[t] - mine[s]) @ y <= 0 for every t
    res = linprog(np.zeros(n), A_ub=a_ub, b_ub=np.zeros(k), A_eq=np.ones((1, n)), b_eq=[1.0],
                  bounds=[(0.0, None)] * n, method="highs")
    return res.status == 0


def never_best_response_survivors(a: np.ndarray, b: np.ndarray) -> tuple[list[int], list[int]]:
    """Iterated deletion of never-best responses (to beliefs over the opponent's survivors),
    both players at once each round, until nothing changes."""
    keep = [list(range(a.shape[0])), list(range(a.shape[1]))]
    while True:
        mine0 = a[np.ix_(keep[0], keep[1])]
        mine1 = b[np.ix_(keep[0], keep[1])].T
        new0 = [keep[0][i] for i in range(len(keep[0])) if best_response_to_some_belief(mine0, i)]
        new1 = [keep[1][j] for j in range(len(keep[1])) if best_response_to_some_belief(mine1, j)]
        if (new0, new1) == (keep[0], keep[1]):
            return keep[0], keep[1]
        keep = [new0, new1]


games = st.tuples(st.integers(2, 4), st.integers(2, 4)).flatmap(
    lambda shape: st.tuples(
        st.lists(st.integers(-4, 4), min_size=shape[0] * shape[1], max_size=shape[0] * shape[1]),
        st.lists(st.integers(-4, 4), min_size=shape[0] * shape[1], max_size=shape[0] * shape[1]),
        st.just(shape)))


@settings(max_examples=60, deadline=None)
@given(games)
def test_rationalizable_strategies_are_those_never_best_response_elimination_keeps(game):
    a_flat, b_flat, shape = game
    a, b = np.array(a_flat).reshape(shape), np.array(b_flat).reshape(shape)
    g = stage_game((a, b))
    rows, cols = never_best_response_survivors(a, b)
    assert rationalizable(g) == (tuple(str(i) for i in rows), tuple(str(j) for j in cols))
    # the order does not matter: the same game with the players swapped gives the same survivors
    swapped = stage_game((b.T, a.T))
    assert rationalizable(swapped) == (tuple(str(j) for j in cols), tuple(str(i) for i in rows))
    # every equilibrium is played within the rationalizable strategies
    for eq in equilibria((a, b)):
        assert set(np.flatnonzero(eq.x_array > 1e-9)) <= set(rows)
        assert set(np.flatnonzero(eq.o_array > 1e-9)) <= set(cols)


@settings(max_examples=60, deadline=None)
@given(games, st.booleans())
def test_every_dominator_reported_dominates(game, strict):
    a_flat, b_flat, shape = game
    a, b = np.array(a_flat).reshape(shape), np.array(b_flat).reshape(shape)
    g = stage_game((a, b))
    for player, mine in ((0, a), (1, b.T)):
        labels = g.strategies(player)
        pure = dominated(g, player, strict=strict, mixed=False)
        found = dominated(g, player, strict=strict)
        assert set(pure) <= set(found)
        for s, by in found.items():
            mix = {by: 1.0} if isinstance(by, str) else by
            assert sum(mix.values()) == pytest.approx(1.0) and s not in mix
            margins = sum(q * mine[labels.index(lab)] for lab, q in mix.items()) - mine[labels.index(s)]
            if strict:
                assert np.all(margins > 1e-9)
            else:
                assert np.all(margins >= -1e-9) and np.any(margins > 1e-9)
