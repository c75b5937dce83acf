"""The simultaneous stage as an explicit game (gridwidgets.analysis.stage):
Gambit files read back by pygambit with the same payoffs, best responses and
exploitability against hand-worked games, bad strategies refused."""

from __future__ import annotations

import numpy as np
import pytest

import gridwidgets as gw
from gridwidgets.analysis import StageGame, equilibrium, stage_game

PENNIES = np.array([[1.0, -1.0], [-1.0, 1.0]])
#: a 2x3 bimatrix game worked by hand: awkward labels and numbers on purpose
A23 = np.array([[3.0, -1.25, 0.1], [0.0, 2.0, 2e-7]])
B23 = np.array([[1.0, 0.5, -3.0], [4.0, 1.0, 5.5]])


@pytest.fixture(scope="module")
def bid() -> StageGame:
    return stage_game(gw.BlockFour(seed=7), rollouts=2, seed=0)


@pytest.fixture(scope="module")
def hand() -> StageGame:
    return StageGame(("Row \"one\"", "Col\\two"), ("up", "down \"d\""), ("left", "mid", "right"),
                     np.stack([A23, B23], axis=-1), "a 2x3 game")


def _read(game: StageGame, suffix: str, tmp_path):
    gbt = pytest.importorskip("pygambit")
    path = game.save(tmp_path / f"g{suffix}")
    return (gbt.read_nfg if suffix == ".nfg" else gbt.read_efg)(str(path))


@pytest.mark.parametrize("suffix", [".nfg", ".efg"])
@pytest.mark.parametrize("which", ["bid", "hand"])
def test_gambit_files_read_back_with_the_same_payoffs(which, suffix, request, tmp_path):
    game: StageGame = request.getfixturevalue(which)
    g = _read(game, suffix, tmp_path)
    a, b = (np.asarray(m, dtype=float) for m in g.to_arrays())
    assert a.shape == game.a.shape
    assert np.array_equal(a, game.a) and np.array_equal(b, game.b)  # exact: the numbers round-trip
    # Gambit has no escape for a backslash: it is written as "/" (quotes round-trip)
    assert [p.label for p in g.players] == [n.replace("\\", "/") for n in game.players]
    assert g.title == game.title


def test_the_strategic_form_keeps_the_strategy_labels(hand, tmp_path):
    g = _read(hand, ".nfg", tmp_path)
    rows, cols = (list(p.strategies) for p in g.players)
    assert [s.label for s in rows] == list(hand.rows) and [s.label for s in cols] == list(hand.cols)


def test_the_tree_has_one_information_set_for_the_second_player(bid, tmp_path):
    g = _read(bid, ".efg", tmp_path)
    first, second = g.players
    (root,) = list(first.infosets)
    (infoset,) = list(second.infosets)
    assert len(infoset.members) == len(bid.rows), "every choice of the first player is in it: they move at once"
    assert [a.label for a in infoset.actions] == list(bid.cols)
    assert [a.label for a in root.actions] == list(bid.rows)
    assert g.is_perfect_recall


def test_the_stage_of_a_game_is_its_equilibrium_matrix(bid):
    eq = equilibrium(gw.BlockFour(seed=7), rollouts=2, seed=0)
    assert list(bid.rows) == [str(r) for r in eq.rows] and list(bid.cols) == [str(c) for c in eq.cols]
    assert np.array_equal(bid.a, eq.matrix) and bid.zero_sum
    assert bid.value() == pytest.approx(eq.value)


def test_matching_pennies_worked_by_hand():
    st = stage_game(PENNIES, players=("X", "O"))
    assert st.value() == pytest.approx(0.0)
    # heads for sure: O answers tails and X loses 1 where the value is 0
    assert st.exploitability([1, 0], 0) == pytest.approx(1.0)
    assert st.best_response([1, 0], 1) == (["1"], 1.0)
    assert st.exploitability({"0": 0.75, "1": 0.25}, 0) == pytest.approx(0.5)
    assert st.exploitability([0.5, 0.5], 0) == pytest.approx(0.0, abs=1e-9)
    assert st.exploitability("0", 1) == pytest.approx(1.0)
    assert st.best_response([0.5, 0.5], 0) == (["0", "1"], 0.0)  # indifferent: every reply is best
    assert st.nash_conv([0.5, 0.5], [0.5, 0.5]) == pytest.approx(0.0, abs=1e-9)
    assert st.nash_conv([1, 0], [1, 0]) == pytest.approx(2.0)  # O gains 2 by switching, X nothing


def test_an_equilibrium_strategy_gives_nothing_away(bid):
    eq = bid.equilibrium()
    assert bid.exploitability(eq.x_array, 0) == pytest.approx(0.0, abs=1e-7)
    assert bid.exploitability(eq.o_array, 1) == pytest.approx(0.0, abs=1e-7)
    pure = [bid.exploitability(r, 0) for r in bid.rows]
    assert min(pure) >= -1e-12 and max(pure) > 0


def test_a_general_sum_game_has_best_responses_and_nash_conv_but_no_value(hand):
    assert not hand.zero_sum
    # against "up": the column player gets 1, 0.5, -3: "left" is best
    assert hand.best_response("up", 1) == (["left"], 1.0)
    # against (left 1/2, right 1/2): rows earn 1.55 and 0.0000001
    labels, value = hand.best_response([0.5, 0, 0.5], 0)
    assert labels == ["up"] and value == pytest.approx(1.55)
    assert hand.expected("up", "left") == (3.0, 1.0)
    with pytest.raises(ValueError, match="zero-sum"):
        hand.exploitability("up", 0)
    assert hand.nash_conv("up", "left") == pytest.approx(0.0)  # (up, left) is a pure equilibrium
    assert hand.nash_conv("down \"d\"", "left") > 0


@pytest.mark.parametrize(("strategy", "words"), [
    ([0.5, 0.6], "sum to"),
    ([1.0], "1 probabilities for 2"),
    ([-0.5, 1.5], "not a probability"),
    ([float("nan"), 1.0], "not a probability"),
    ({"nope" * 100: 1.0}, "is not a strategy"),
    ("sideways", "is not a strategy"),
    (42, "a mapping or a sequence"),
    (["a", "b"], "not a probability"),
])
def test_bad_strategies_are_refused_with_short_messages(strategy, words):
    st = stage_game(PENNIES)
    with pytest.raises(ValueError, match=words) as info:
        st.exploitability(strategy, 0)
    assert len(str(info.value)) < 120


def test_bad_files_players_and_sources_are_refused(hand, tmp_path):
    with pytest.raises(ValueError, match=r"\.nfg or \.efg"):
        hand.save(tmp_path / "game.txt")
    with pytest.raises(ValueError, match="player must be"):
        hand.best_response("up", 2)
    with pytest.raises(TypeError, match="stage_matrix"):
        stage_game(gw.Gridlock())
    with pytest.raises(TypeError, match="for a game"):
        stage_game(PENNIES, rollouts=3)
    with pytest.raises(ValueError):
        stage_game(np.zeros((2, 2, 2, 2)))


def test_the_explorer_updates_as_the_sliders_move():
    st = stage_game(PENNIES, players=("X", "O"))
    box = st.explore(0)
    heads, tails = box.sliders
    assert "exploitability</b> 0.000" in box.report.value  # equal weights: the equilibrium
    tails.value = 0.0
    assert "exploitability</b> 1.000" in box.report.value and "best response</b>: 1" in box.report.value
    heads.value = 0.0
    assert "positive weight" in box.report.value
    box.button.click()
    assert heads.value == pytest.approx(0.5) and tails.value == pytest.approx(0.5)
    assert "exploitability</b> 0.000" in box.report.value


def test_the_html_table_escapes_labels(hand):
    page = hand._repr_html_()
    assert "down &quot;d&quot;" in page and "<th>left</th>" in page and "3, 1" in page
