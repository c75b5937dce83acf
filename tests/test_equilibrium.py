"""Nash equilibria of matrix games and of Block Four bids (gridwidgets.analysis.equilibrium,
gridwidgets.games.blockfour.agents; RULES BF-5, BF-6, BF-13)."""

import random

import matplotlib
import nashpy
import numpy as np
import pytest

from gridwidgets import BlockFour, Gridlock
from gridwidgets.agents import MyopicBidder
from gridwidgets.analysis import Equilibrium, bid_matrix, equilibrium
from gridwidgets.games.blockfour import HIDDEN, Bid, Placement

matplotlib.use("Agg")

TOL = 1e-7


def played(turns, seed=5, x_table=("L", "T")):
    """A game after ``turns`` whole random turns, in the bid phase before either bid."""
    g = BlockFour(x_table=x_table)
    rng = random.Random(seed)
    while g.turn <= turns and not g.is_over:
        p = g.current_player
        moves = g.legal_moves(p)
        g.play(moves[rng.randrange(len(moves))], player=p)
    assert g.phase == "bid" and not any(g.pending_bids)
    return g


def assert_guarantees(eq):
    """Zero-sum: X's mix earns at least the value against every pure reply of O,
    and O's mix holds X to at most the value against every pure reply of X."""
    a = eq.matrix
    assert np.all(eq.x_array @ a >= eq.value - TOL)
    assert np.all(a @ eq.o_array <= eq.value + TOL)


def assert_distribution(p, n):
    p = np.asarray(p)
    assert p.shape == (n,)
    assert np.all(p >= 0) and abs(p.sum() - 1) < 1e-9


# ----------------------------------------------------------------------
# Matrix games
# ----------------------------------------------------------------------
def test_matching_pennies_is_one_half_each_with_value_zero():
    eq = equilibrium([[1, -1], [-1, 1]])
    assert isinstance(eq, Equilibrium) and eq.zero_sum and eq.method == "lp"
    assert eq.x == pytest.approx({0: 0.5, 1: 0.5}) and eq.o == pytest.approx({0: 0.5, 1: 0.5})
    assert eq.value == pytest.approx(0.0, abs=TOL)
    assert eq.support == ([0, 1], [0, 1])
    assert_guarantees(eq)


def test_pure_saddle_point_gives_that_pair_and_its_value():
    # row 1 dominates row 0 and column 1 dominates column 0 for O: the saddle is (1, 1) with value 2
    a = [[3, 1, 5], [4, 2, 6], [0, -1, 7]]
    eq = equilibrium(a, rows=["top", "mid", "low"], cols=["l", "c", "r"])
    assert eq.support == (["mid"], ["c"])
    assert eq.x["mid"] == pytest.approx(1.0) and eq.o["c"] == pytest.approx(1.0)
    assert eq.value == pytest.approx(2.0)
    assert eq.security == pytest.approx((2.0, 2.0))


def test_rock_paper_scissors_is_uniform():
    rps = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    eq = equilibrium(rps)
    assert eq.x_array == pytest.approx(np.full(3, 1 / 3)) and eq.o_array == pytest.approx(np.full(3, 1 / 3))
    assert eq.value == pytest.approx(0.0, abs=TOL)
    # nashpy's own algorithms agree
    for method in ("support_enumeration", "lemke_howson", "vertex_enumeration"):
        other = equilibrium(rps, method=method)
        assert other.method == method and other.x_array == pytest.approx(np.full(3, 1 / 3))


def test_a_pair_with_b_minus_a_is_zero_sum_and_uses_the_lp():
    a = np.array([[2.0, -1.0], [-1.0, 1.0]])
    eq = equilibrium((a, -a))
    assert eq.zero_sum and eq.method == "lp"
    assert eq.value == pytest.approx(1 / 5)  # (ad - bc) / (a + d - b - c)
    assert eq.x_array == pytest.approx([2 / 5, 3 / 5])


def test_battle_of_the_sexes_returns_an_equilibrium_nashpy_verifies():
    a = np.array([[3, 0], [0, 2]])
    b = np.array([[2, 0], [0, 3]])
    eq = equilibrium((a, b))
    assert not eq.zero_sum and eq.method == "support_enumeration"
    assert nashpy.Game(a, b).is_best_response(eq.x_array, eq.o_array) == (True, True)
    assert eq.is_nash() and eq.regrets == pytest.approx((0.0, 0.0))
    assert (eq.value, eq.value_o) in [(3.0, 2.0), (2.0, 3.0), pytest.approx((6 / 5, 6 / 5))]
    lh = equilibrium((a, b), method="lemke_howson")
    assert nashpy.Game(a, b).is_best_response(lh.x_array, lh.o_array) == (True, True)
    assert isinstance(eq.nashpy_game(), nashpy.Game)


def test_a_nashpy_game_is_accepted():
    eq = equilibrium(nashpy.Game(np.array([[1, -1], [-1, 1]])))
    assert eq.zero_sum and eq.x_array == pytest.approx([0.5, 0.5])


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="2D"):
        equilibrium([1, 2, 3])
    with pytest.raises(ValueError, match="NaN"):
        equilibrium([[1, np.nan], [0, 1]])
    with pytest.raises(ValueError, match="zero-sum"):
        equilibrium(([[3, 0], [0, 2]], [[2, 0], [0, 3]]), method="lp")
    with pytest.raises(ValueError, match="method"):
        equilibrium([[1]], method="simplex")
    with pytest.raises(ValueError, match="labels"):
        equilibrium([[1, 2]], rows=["a", "b"])
    with pytest.raises(TypeError, match="stage-matrix options"):
        equilibrium([[1, 2]], rollouts=3)
    with pytest.raises(TypeError, match="Gridlock"):
        equilibrium(Gridlock())


def test_html_and_plot():
    eq = equilibrium([[1, -1], [-1, 1]], rows=["H", "T"], cols=["h", "t"])
    page = eq._repr_html_()
    assert "<table" in page and "value for X 0.000" in page and ">h<" in page
    fig = eq.plot()
    assert len(fig.axes) == 4
    heat, bars_o, bars_x = fig.axes[:3]
    assert heat.images[0].get_array().shape == (2, 2)
    assert [p.get_height() for p in bars_o.patches] == pytest.approx([0.5, 0.5])
    assert [p.get_width() for p in bars_x.patches] == pytest.approx([0.5, 0.5])
    assert "X: H 0.500, T 0.500" in str(eq) and "value" in repr(eq)
    matplotlib.pyplot.close(fig)


# ----------------------------------------------------------------------
# Block Four
# ----------------------------------------------------------------------
@pytest.mark.parametrize("turns", [0, 1, 3])
def test_blockfour_equilibrium_is_a_distribution_over_legal_bids_that_guarantees_the_value(turns):
    g = played(turns)
    eq = equilibrium(g, rollouts=4, seed=1)
    assert eq.zero_sum and eq.method == "lp" and eq.table is not None
    assert list(eq.x) == [str(b) for b in g.legal_moves(0)]
    assert list(eq.o) == [str(b) for b in g.legal_moves(1)]
    assert_distribution(eq.x_array, len(g.legal_moves(0)))
    assert_distribution(eq.o_array, len(g.legal_moves(1)))
    assert sum(eq.x.values()) == pytest.approx(1.0) and sum(eq.o.values()) == pytest.approx(1.0)
    assert np.array_equal(eq.matrix, bid_matrix(g, rollouts=4, seed=1).values)
    np.testing.assert_array_equal(eq.matrix_o, -eq.matrix)
    assert_guarantees(eq)
    assert eq.is_nash()
    lo, hi = eq.security
    assert lo == pytest.approx(eq.value, abs=1e-6) and hi == pytest.approx(eq.value, abs=1e-6)
    assert eq.value_o == -eq.value
    assert "Turn" in eq._repr_html_()


def test_blockfour_equilibrium_from_a_bid_table_and_after_one_bid_is_the_same_game():
    g = played(1)
    eq = equilibrium(g, rollouts=3, seed=2)
    assert np.array_equal(equilibrium(bid_matrix(g, rollouts=3, seed=2)).x_array, eq.x_array)
    g.play(g.legal_moves(0)[0], player=0)  # X's bid is in and hidden (BF-5)
    for view in (g, g.view_for(1)):
        again = equilibrium(view, rollouts=3, seed=2)
        assert np.array_equal(again.matrix, eq.matrix) and np.array_equal(again.x_array, eq.x_array)


def test_blockfour_equilibrium_refuses_the_placement_phase():
    g = BlockFour(x_table=("L", "T"))
    g.play("IO", player=0)
    g.play("LT", player=1)  # no match: placements follow
    assert g.phase == "place"
    with pytest.raises(ValueError, match="placement phase"):
        equilibrium(g, rollouts=2)


# ----------------------------------------------------------------------
# MyopicBidder
# ----------------------------------------------------------------------
def test_agent_bids_legally_from_the_support_and_reproducibly():
    g = played(1)
    agent = MyopicBidder(rollouts=3, seed=7)
    for p in (0, 1):
        bid = agent.choose(g, player=p)
        assert isinstance(bid, Bid) and bid.player == p and str(bid) in [str(b) for b in g.legal_moves(p)]
        assert str(bid) in agent.last_equilibrium.support[p]
        assert MyopicBidder(rollouts=3, seed=7).choose(g, player=p) == bid  # same seed, same bid
        assert agent.choose(g, player=p) == bid  # and again (also after an undo: same position)
    assert agent.choose(g) == agent.choose(g, player=0)  # current_player is X (BF-13)


def test_agent_draws_from_the_equilibrium_mix():
    g = played(0)
    agent = MyopicBidder(rollouts=3, seed=0)
    mix = agent.equilibrium_for(g).x
    draws = []
    for s in range(200):
        agent.reseed(s)  # the matrix seed stays: one equilibrium, cached
        draws.append(str(agent.choose(g, player=0)))
    assert set(draws) <= {b for b, p in mix.items() if p > 0}
    for b, p in mix.items():
        assert abs(draws.count(b) / len(draws) - p) < 0.15
    assert len(agent._cache) == 1


def test_agent_works_from_a_view_with_a_hidden_bid():
    g = played(2)
    g.play(g.legal_moves(0)[-1], player=0)
    view = g.view_for(1)
    assert view._pending[0].cards == HIDDEN and view.current_player == 1
    agent = MyopicBidder(rollouts=3, seed=3)
    bid = agent.choose(view)
    assert bid.player == 1 and str(bid) in [str(b) for b in g.legal_moves(1)]
    # it does not peek: the real game (X's bid visible inside) gives the same bid
    assert MyopicBidder(rollouts=3, seed=3).choose(g) == bid
    g.play(bid, player=1)  # and it can be played on the real game


def test_agent_places_with_its_placement_agent_and_plays_whole_games_reproducibly():
    def game_record(seed):
        g = BlockFour(seed=11)
        agents = [MyopicBidder(rollouts=2, seed=seed), MyopicBidder(rollouts=2, seed=seed + 1)]
        while not g.is_over and g.turn <= 3:
            p = g.current_player
            move = agents[p].choose(g.view_for(p))
            assert g.is_legal(move) or isinstance(move, Bid)
            g.play(move, player=p)
        return [str(m) for m in g.history]

    first = game_record(4)
    assert first == game_record(4)
    assert any(":" in m for m in first)  # placements were made (BF-7)


def test_agent_placement_delegation_and_errors():
    g = BlockFour(x_table=("L", "T"))
    g.play("IO", player=0)
    g.play("LT", player=1)

    class First:
        def choose(self, game):
            return game.legal_moves()[0]

        def reset(self):
            pass

    agent = MyopicBidder(rollouts=2, placement_agent=First())
    move = agent.choose(g)
    assert isinstance(move, Placement) and move == g.legal_moves()[0]
    with pytest.raises(ValueError, match="Block Four only"):
        agent.choose(Gridlock())
    with pytest.raises(ValueError, match="rollouts"):
        MyopicBidder(rollouts=0)
    h = BlockFour(x_table=("L", "T"))
    h.play("IO", player=0)
    with pytest.raises(ValueError, match="already bid"):
        agent.choose(h, player=0)


def test_the_old_name_of_the_myopic_bidder_still_works_and_says_what_it_is():
    from gridwidgets.agents import EquilibriumAgent

    with pytest.warns(DeprecationWarning, match="MyopicBidder"):
        old = EquilibriumAgent(rollouts=2, seed=1)
    g = BlockFour(seed=2)
    assert old.choose(g) == MyopicBidder(rollouts=2, seed=1).choose(g)
