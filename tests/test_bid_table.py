"""The bid as a matrix game (gridwidgets.analysis.bids; RULES BF-5, BF-6, BF-9)."""

import random

import matplotlib
import numpy as np
import pytest

from gridwidgets import BlockFour
from gridwidgets.agents import RandomAgent
from gridwidgets.analysis import WIN_VALUE, BidTable, bid_matrix, bid_table, describe_order, position_value
from gridwidgets.games.blockfour import placement_order

matplotlib.use("Agg")


def played(turns, seed=5, x_table=("L", "T")):
    """A game after ``turns`` whole random turns (real moves), in the bid phase."""
    g = BlockFour(x_table=x_table)
    rng = random.Random(seed)
    while g.turn <= turns and not g.is_over:
        p = g.current_player
        moves = g.legal_moves(p)
        g.play(moves[rng.randrange(len(moves))], player=p)
    assert g.phase == "bid" and not any(g.pending_bids)
    return g


def test_shapes_3x10_on_odd_turns_and_10x3_on_even_ones():
    g = BlockFour(x_table=("L", "T"))
    t = bid_table(g)
    assert t.shape == (3, 10) and t.rows == ["IO", "IZ", "OZ"] and len(t.cols) == 10
    assert t.cols == [str(b) for b in g.legal_moves(1)]
    g.play("IO", player=0)
    g.play("IO", player=1)  # two matches: nothing placed, turn 2
    t2 = bid_table(g)
    assert t2.shape == (10, 3) and t2.cols == ["LT", "LZ", "TZ"]
    m = bid_matrix(g, rollouts=2)
    assert isinstance(m.values, np.ndarray) and m.values.shape == (10, 3) and m.values.dtype == float
    assert m.matches.shape == (10, 3) and m.stderr.shape == (10, 3)


def test_entries_follow_placement_order_and_the_engine():
    g = played(3)
    t = bid_table(g)
    xs, os_ = g.legal_moves(0), g.legal_moves(1)
    for i, x in enumerate(xs):
        for j, o in enumerate(os_):
            order = placement_order(x, o)
            assert t.orders[i][j] == order
            assert t.values[i][j] == describe_order(order)
            assert t.matches[i][j] == len(set(x.cards) & set(o.cards))
            h = g.copy()
            h.play(x, player=0)
            h.play(o, player=1)
            assert [(p["player"], p["shape"]) for p in h.turn_placements] == order


def test_describe_order_for_each_kind_of_match():
    g = BlockFour(x_table=("L", "T"))
    t = bid_table(g)
    assert t["IO", "LT"] == "X I, O L, X O, O T"  # no match: shape order, each by its chooser
    assert t["IO", "IL"] == "O L×2, X O×2"  # one match: the earlier unmatched shape first (ours)
    assert t["OI", "IO"] == "nothing"  # two matches
    assert t.matches.tolist()[0] == [2 if c == "IO" else 1 if set(c) & {"I", "O"} else 0 for c in t.cols]


def test_two_match_entries_are_nothing_and_worth_the_current_field_difference():
    g = played(4, seed=11)
    diff = g.fields_controlled()[0] - g.fields_controlled()[1]
    t = bid_table(g)
    m = bid_matrix(g, rollouts=3, seed=1)
    same = [(i, t.cols.index(r)) for i, r in enumerate(t.rows) if r in t.cols]
    assert same  # X's and O's hands always share bids (5 cards and 3 of them)
    for i, j in same:
        assert t.values[i][j] == "nothing" and m.matches[i, j] == 2
        assert m.values[i, j] == diff == position_value(g) and m.stderr[i, j] == 0


def test_matrix_values_are_turn_outcomes_on_the_documented_scale():
    g = played(5, seed=2)
    m = bid_matrix(g, rollouts=4, seed=3)
    assert np.isfinite(m.values).all()
    assert (np.abs(m.values) <= WIN_VALUE).all() and m.rollouts == 4
    # one entry again, by hand: the same agents (RandomAgent seeded per rollout) on a copy
    i, j = 0, 1
    x, o = g.legal_moves(0)[i], g.legal_moves(1)[j]
    seeds = [random.Random(f"bid_matrix|3|{r}").getrandbits(31) for r in range(4)]
    results = []
    for s in seeds:
        h = g.copy()
        h.play(x, player=0)
        h.play(o, player=1)
        a = RandomAgent(seed=s)
        while h.phase == "place":
            h.play(a.choose(h.view_for(h.current_player)), player=h.current_player)
        f = h.fields_controlled()
        results.append(WIN_VALUE if h.winners == (0,) else -WIN_VALUE if h.winners == (1,) else
                       0 if h.is_over else f[0] - f[1])
    assert m.values[i, j] == pytest.approx(sum(results) / 4)


def test_a_won_game_counts_as_nine():
    rows = ["XXXXXXXXX", "XX.XX.XX.", ".........", "XXXXXX...", "XX.......", "...X.....",
            ".........", ".........", "........."]
    g = BlockFour(x_table=("L", "T"))
    g._board = [{"X": 0, "O": 1, ".": -1}[ch] for row in rows for ch in row]  # a constructed position
    assert g.fields_controlled() == (4, 0)
    m = bid_matrix(g, rollouts=5)
    assert m["IO", "LT"] > 4  # X places I first: some placements win at once (BF-9)
    h = g.copy()
    h.play("IO", player=0)
    h.play("LT", player=1)
    h.play("I:D5,E5,F5,G5")
    assert h.is_over and position_value(h) == WIN_VALUE


def test_seeded_reproducibility():
    g = played(2, seed=4)
    a = bid_matrix(g, rollouts=6, seed=7)
    b = bid_matrix(g, rollouts=6, seed=7)
    c = bid_matrix(g, rollouts=6, seed=8)
    assert np.array_equal(a.values, b.values) and np.array_equal(a.stderr, b.stderr)
    assert not np.array_equal(a.values, c.values)
    assert g.history == played(2, seed=4).history  # the game itself is not changed


def test_other_agents_an_object_a_class_or_a_function():
    g = played(1, seed=9)
    fixed = bid_matrix(g, agent=RandomAgent(seed=1), rollouts=3)
    assert (fixed.stderr == 0).all()  # a seeded RandomAgent plays the same each rollout
    by_class = bid_matrix(g, agent=RandomAgent, rollouts=3, seed=2)
    by_func = bid_matrix(g, agent=lambda s: RandomAgent(seed=s), rollouts=3, seed=2)
    assert np.array_equal(by_class.values, by_func.values)
    with pytest.raises(TypeError):
        bid_matrix(g, agent=42)
    with pytest.raises(ValueError, match="rollouts"):
        bid_matrix(g, rollouts=0)


def test_refused_once_a_bid_is_in_in_the_placement_phase_or_when_over():
    g = BlockFour(x_table=("L", "T"))
    g.play("IO", player=0)
    for f in (bid_table, bid_matrix):
        with pytest.raises(ValueError, match="X has already bid"):
            f(g)
        with pytest.raises(ValueError, match="already bid"):
            f(g.view_for(1))  # the hidden bid counts too
    g.play("LT", player=1)
    with pytest.raises(ValueError, match="placement phase"):
        bid_table(g)
    over = BlockFour(x_table=("L", "T"))
    for _ in range(10):  # ten two-match turns: the stall ends the game (BF-11)
        pair = "IO" if over.turn % 2 else "LT"
        over.play(pair, player=0)
        over.play(pair, player=1)
    assert over.is_over
    with pytest.raises(ValueError, match="over"):
        bid_matrix(over)
    with pytest.raises(TypeError):
        bid_table("not a game")


def test_frame_html_and_plot():
    g = BlockFour(x_table=("L", "T"))
    t = bid_table(g)
    m = bid_matrix(g, rollouts=2)
    df = m.to_frame()
    assert df.shape == (3, 10) and list(df.index) == m.rows and df.index.name == "X bids"
    assert df.loc["IO", "LT"] == m["IO", "LT"]
    assert t.to_frame().loc["IO", "IL"] == "O L×2, X O×2"
    html = t._repr_html_()
    assert html.count("<tr>") == 4 and "O L×2, X O×2" in html and "X bids \\ O bids" in html
    assert m._repr_html_().count("<td") == 30
    ax = m.plot()
    assert [tick.get_text() for tick in ax.get_yticklabels()] == m.rows
    assert len(ax.texts) == 30
    ax2 = t.plot()
    assert len(ax2.texts) == 30
    assert isinstance(t, BidTable) and "3x10" in repr(t) and "IO" in str(m)
