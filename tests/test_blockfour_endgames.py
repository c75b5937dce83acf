"""Block Four's bid as the multistage game it is (BF-5..BF-11): the endgames the
tutorials and lessons teach from, solved exactly and held here, and the bid
matrix saying what its numbers are.

The positions come from recorded games (random self-play, ``RandomAgent(seed=s)``
as X and ``RandomAgent(seed=s + 10**6)`` as O, ``BlockFour(seed=s)``), seeds 61,
162 and 225: the last turns' bids of 400 such games were solved and these are
the ones whose value is not a sure win for one side."""

from __future__ import annotations

import nashpy
import numpy as np
import pytest

import gridwidgets as gw
from gridwidgets.analysis import bid_matrix, solve_simultaneous, stage_game

#: seed 61, turn 7: O must guess which of X's three bids to answer; value -1/3
MATCH_THREE = ("blockfour XXXXXXXX./XXOOOOOO./OOOOXX.../OOXXXOOOO/OOXXXXXOO/OXX..OXOO/X...OOOXX/XXXOOOOXX/"
               "OOOOOOXXX X=OTZ/IL O=ILOTZ/- turn=7 stall=2 bid")
#: seed 225, turn 5: value 0, and more than one equilibrium mix for X (IT or IZ, with TZ)
EVEN = ("blockfour X....OOXX/X.OO.OOOX/X.OO.XXOX/XOXXXOXX./OOXXOOOO./OXXXOOOO./XOXXXXO../OOOXOOOXX/XXXXOOXXO "
        "X=ITZ/LO O=ILOTZ/- turn=5 stall=0 bid")


def _exact_matrix(text: str) -> tuple[gw.BlockFour, np.ndarray, float]:
    g = gw.BlockFour.from_position(text)
    sol = solve_simultaneous(g, root_matrix=True, progress=False)
    return g, sol.root.lower, sol.value


def test_bf6_match_three_every_entry_is_a_sure_result_and_the_value_is_minus_a_third():
    g, mat, value = _exact_matrix(MATCH_THREE)
    assert set(np.unique(mat)) <= {-1.0, 1.0}  # every pair of bids decides the game (with perfect play after)
    # the same matrix without any pruning or move ordering anywhere
    slow = solve_simultaneous(g, prune=False, progress=False).root
    np.testing.assert_array_equal(slow.lower, mat)
    # nashpy's own LP on that matrix agrees with the solver's value
    x, y = nashpy.Game(mat).linear_program()
    assert float(x @ mat @ y) == pytest.approx(value) == pytest.approx(-1 / 3)
    # X's three bids each lose to two of O's LO, LT, LZ and win against every other bid: a 3x3 core
    rows, cols = [str(b) for b in g.legal_moves(0)], [str(b) for b in g.legal_moves(1)]
    core = [cols.index(c) for c in ("LO", "LT", "LZ")]
    assert all(mat[:, j].tolist() == [1.0] * 3 for j in range(10) if j not in core)
    assert sorted((mat[:, core] == -1).sum(axis=1).tolist()) == [2, 2, 2]
    sol = solve_simultaneous(g, progress=False)
    assert sol.root.mix(0) == pytest.approx({r: 1 / 3 for r in rows})
    assert sol.root.mix(1) == pytest.approx({c: 1 / 3 for c in ("LO", "LT", "LZ")})


def test_off_the_support_a_bid_earns_less_than_the_value_on_it_exactly_the_value():
    g, _mat, value = _exact_matrix(MATCH_THREE)
    stage = stage_game(g, continuation="exact")
    eq = stage.equilibrium()
    x_mix = eq.x_array
    o_earns = -(x_mix @ stage.a)  # what each bid of O earns against X's equilibrium mix
    support = {"LO", "LT", "LZ"}
    for label, earn in zip(stage.cols, o_earns, strict=True):
        if label in support:
            assert earn == pytest.approx(-value)  # 1/3: a bid the equilibrium uses earns the value
        else:
            assert earn == pytest.approx(-1.0)  # the other seven lose the game for sure


def test_a_value_of_zero_with_a_choice_of_equilibria():
    g, _mat, value = _exact_matrix(EVEN)
    assert value == pytest.approx(0.0)
    stage = stage_game(g, continuation="exact")
    assert stage.exploitability({"IT": 0.5, "TZ": 0.5}, 0) == pytest.approx(0.0, abs=1e-9)
    assert stage.exploitability({"IZ": 0.5, "TZ": 0.5}, 0) == pytest.approx(0.0, abs=1e-9)
    assert stage.exploitability("TZ", 0) == pytest.approx(1.0)  # O answers LT: X loses


def test_the_exact_bid_matrix_says_it_is_exact_and_the_rollout_one_says_what_it_measures():
    g = gw.BlockFour.from_position(MATCH_THREE)
    exact = bid_matrix(g, continuation="exact")
    assert exact.continuation == "exact" and "subgame-perfectly" in exact.title and "exact" in exact.title
    assert not exact.stderr.any() and "±" not in str(exact)
    rough = bid_matrix(gw.BlockFour(seed=7), rollouts=20, seed=0)
    assert rough.continuation == "rollout" and "this turn only" in rough.title and "at random" in rough.title
    assert "standard error" in rough.title and rough.stderr.shape == rough.values.shape
    i, j = np.unravel_index(np.argmax(rough.stderr), rough.stderr.shape)
    shown = f"{rough.values[i, j]:.2f} ± {rough.stderr[i, j]:.2f}"
    assert shown in str(rough) and shown in rough._repr_html_()
    with pytest.raises(ValueError, match="continuation"):
        bid_matrix(g, continuation="guess")


def test_the_first_bid_matrix_is_noise_within_its_standard_errors():
    """The issue's reading: at turn 1 the one-turn matrix is mostly noise (every entry within a few
    standard errors of 0, and entries of exactly 0 are the pairs with nothing to place)."""
    m = bid_matrix(gw.BlockFour(seed=7), rollouts=200, seed=0)
    v, se = m.values, m.stderr
    noisy = se > 0
    assert np.all(np.abs(v[noisy]) <= 3.5 * se[noisy])
    assert np.all(np.abs(v) <= 0.25)
