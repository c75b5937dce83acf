"""Dominated strategies and iterated elimination, on matrices computed by hand."""

from __future__ import annotations

import numpy as np
import pytest

from gridwidgets.analysis import EliminationStep, dominated, iterated_elimination, stage_game


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


def test_only_pure_domination_is_checked():
    # the middle row is dominated by the half-half mix of the others (1.5 > 1), by neither alone
    g = stage_game(np.array([[3, 0], [1, 1], [0, 3]]), rows=["T", "M", "B"], cols=["L", "R"])
    assert dominated(g, 0) == {}
    assert dominated(g, 0, strict=False) == {}


def test_matching_pennies_has_nothing_dominated():
    g = stage_game(np.array([[1, -1], [-1, 1]]))
    reduced, steps = iterated_elimination(g, strict=False)
    assert steps == [] and reduced == g


@pytest.mark.parametrize("player", [2, -1, True, "0", 0.0])
def test_bad_player(player):
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        dominated(prisoners_dilemma(), player)
