"""The simultaneous stage as an explicit game (gridwidgets.analysis.stage):
Gambit files read back by pygambit with the same payoffs and labels, one
information set for the second chooser, best responses and exploitability
against hand-worked games, bad input refused with short messages, the slider
panel driven headless."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import gridwidgets as gw
from gridwidgets.analysis import StageGame, equilibrium, stage_game

PENNIES = np.array([[1.0, -1.0], [-1.0, 1.0]])
#: a 2x3 bimatrix game worked by hand, awkward numbers on purpose. Its one
#: Nash equilibrium is (up, left): against up the columns earn 1, 0.5, -3;
#: against left the rows earn 3, 0; no mixed one (the rows are never
#: indifferent against left and right together, the columns never between
#: two strategies both best).
A23 = np.array([[3.0, -1.25, 0.1], [0.0, 2.0, 2e-7]])
B23 = np.array([[1.0, 0.5, -3.0], [4.0, 1.0, 5.5]])


@pytest.fixture(scope="module")
def bid() -> StageGame:
    return stage_game(gw.BlockFour(seed=7), rollouts=2, seed=0)


@pytest.fixture(scope="module")
def hand() -> StageGame:
    return StageGame(("Row \"one\"", "Col\\two"), ("up", "down \"d\""), ("left", "mid", "right"),
                     np.stack([A23, B23], axis=-1), "a 2x3 game")


#: a game whose labels Gambit's reader would refuse as they are, and what it reads back
MESSY = StageGame(("Zoë", "O"), ("café", " a  b\tc "), ("x\\y", '"q"', "€"), np.arange(12.0).reshape(2, 3, 2),
                  "Stage – test\n2")
MESSY_READ = (["Zoe", "O"], ["cafe", "a b c"], ["x/y", '"q"', "?"], "Stage - test 2")


def _read(game: StageGame, suffix: str, tmp_path):
    gbt = pytest.importorskip("pygambit")
    path = game.save(tmp_path / f"g{suffix}")
    return (gbt.read_nfg if suffix == ".nfg" else gbt.read_efg)(str(path))


def _labels(g, suffix: str) -> tuple[list[str], list[str]]:
    """The two players' pure strategies' labels as Gambit read them: strategies
    of a strategic game, the actions of each player's one information set in a tree."""
    if suffix == ".nfg":
        return tuple([s.label for s in p.strategies] for p in g.players)  # type: ignore[return-value]
    return tuple([a.label for a in next(iter(p.infosets)).actions] for p in g.players)  # type: ignore[return-value]


def _expected_labels(game: StageGame) -> tuple[list[str], list[str], list[str], str]:
    if game is MESSY:
        return MESSY_READ
    # the other games' labels are Gambit-valid already, but for a backslash (no escape in Gambit: "/")
    return ([n.replace("\\", "/") for n in game.players], list(game.rows), list(game.cols), game.title)


@pytest.mark.parametrize("suffix", [".nfg", ".efg"])
@pytest.mark.parametrize("which", ["bid", "hand", "messy"])
def test_gambit_files_read_back_with_the_same_payoffs_and_labels(which, suffix, request, tmp_path):
    game: StageGame = MESSY if which == "messy" else request.getfixturevalue(which)
    g = _read(game, suffix, tmp_path)
    first, second = g.players
    s1, s2 = list(first.strategies), list(second.strategies)
    assert (len(s1), len(s2)) == game.shape
    for i in range(len(game.rows)):
        for j in range(len(game.cols)):
            outcome = g[s1[i], s2[j]]
            # exact: the decimal written reads back as the same float
            assert float(Fraction(outcome[first])) == game.a[i, j], (i, j)
            assert float(Fraction(outcome[second])) == game.b[i, j], (i, j)
    players, rows, cols, title = _expected_labels(game)
    assert [p.label for p in g.players] == players
    assert _labels(g, suffix) == (rows, cols)
    assert g.title == title


def test_the_file_order_lets_the_first_player_vary_fastest(hand):
    body = hand.to_nfg().strip().splitlines()[-1].split()
    pairs = list(zip(body[::2], body[1::2], strict=True))
    # (up, left), (down, left), (up, mid), ...: Gambit's order for the payoff version
    assert pairs[:3] == [("3", "1"), ("0", "4"), ("-1.25", "0.5")]
    assert pairs[-1] == ("0.0000002", "5.5")


@pytest.mark.parametrize("which", ["bid", "hand"])
def test_the_tree_has_one_information_set_for_the_second_player(which, request, tmp_path):
    game: StageGame = request.getfixturevalue(which)
    g = _read(game, ".efg", tmp_path)
    first, second = g.players
    (root_set,) = list(first.infosets)
    (blind,) = list(second.infosets)
    assert list(root_set.members) == [g.root]
    members = list(blind.members)
    assert len(members) == len(game.rows), "every choice of the first player is in it: they move at once"
    assert all(m.parent == g.root for m in members)
    assert [m.prior_action.label for m in members] == list(game.rows)
    assert [a.label for a in blind.actions] == list(game.cols)
    assert len(list(g.outcomes)) == len(game.rows) * len(game.cols)
    assert g.is_perfect_recall


def test_the_stage_of_a_game_is_its_equilibrium_matrix(bid):
    eq = equilibrium(gw.BlockFour(seed=7), rollouts=2, seed=0)
    assert list(bid.rows) == [str(r) for r in eq.rows] and list(bid.cols) == [str(c) for c in eq.cols]
    assert np.array_equal(bid.a, eq.matrix) and bid.zero_sum and bid.players == ("X", "O")
    assert bid.value() == pytest.approx(eq.value)


def test_a_submission_already_in_changes_nothing(bid):
    g = gw.BlockFour(seed=7)
    g.play(g.legal_moves(player=0)[0], player=0)
    assert stage_game(g, rollouts=2, seed=0) == bid
    assert g.pending == (0,), "the game itself is untouched"


def test_matching_pennies_worked_by_hand():
    st = stage_game(PENNIES, players=("X", "O"), rows=["H", "T"], cols=["h", "t"])
    assert st.value() == pytest.approx(0.0)
    # heads for sure: O answers tails and X loses 1 where the value is 0
    assert st.exploitability([1, 0], 0) == pytest.approx(1.0)
    assert st.best_response([1, 0], 1) == (["t"], 1.0)
    assert st.best_response({"h": 0.25, "t": 0.75}, 0) == (["T"], 0.5)
    assert st.exploitability({"H": 0.75, "T": 0.25}, 0) == pytest.approx(0.5)
    assert st.exploitability([0.5, 0.5], 0) == pytest.approx(0.0, abs=1e-9)
    assert st.exploitability("h", 1) == pytest.approx(1.0)
    assert st.best_response([0.5, 0.5], 0) == (["H", "T"], 0.0)  # indifferent: every reply is best
    assert st.expected("H", {"h": 0.5, "t": 0.5}) == (0.0, 0.0)
    assert st.expected("H", "t") == (-1.0, 1.0)
    assert st.nash_conv([0.5, 0.5], [0.5, 0.5]) == pytest.approx(0.0, abs=1e-9)
    assert st.nash_conv([1, 0], [1, 0]) == pytest.approx(2.0)  # O gains 2 by switching, X nothing


def test_a_zero_sum_game_with_a_saddle_point_worked_by_hand():
    # row 0 guarantees 2 (its worst is 2), column 0 holds the rows to 2: value 2
    st = stage_game(np.array([[2.0, 5.0], [1.0, -3.0]]))
    assert st.value() == pytest.approx(2.0)
    assert st.exploitability("1", 0) == pytest.approx(5.0)  # guarantees -3 where 2 was there
    assert st.exploitability("1", 1) == pytest.approx(3.0)  # lets the rows have 5
    assert st.exploitability("0", 0) == pytest.approx(0.0, abs=1e-9)


def test_an_equilibrium_strategy_gives_nothing_away(bid):
    eq = bid.equilibrium()
    assert bid.exploitability(eq.x_array, 0) == pytest.approx(0.0, abs=1e-9)
    assert bid.exploitability(eq.o_array, 1) == pytest.approx(0.0, abs=1e-9)
    assert bid.nash_conv(eq.x_array, eq.o_array) == pytest.approx(0.0, abs=1e-9)
    pure = [bid.exploitability(r, 0) for r in bid.rows]
    assert min(pure) >= 0 and max(pure) > 0
    # exploitability is what the best response takes beyond the value
    for r in bid.rows:
        _, gain = bid.best_response(r, 1)
        assert bid.exploitability(r, 0) == pytest.approx(max(0.0, gain + bid.value()), abs=1e-12)


def test_a_general_sum_game_worked_by_hand(hand):
    assert not hand.zero_sum
    assert hand.best_response("up", 1) == (["left"], 1.0)
    labels, value = hand.best_response([0.5, 0, 0.5], 0)  # rows earn 1.55 and 0.0000001
    assert labels == ["up"] and value == pytest.approx(1.55)
    assert hand.expected("up", "left") == (3.0, 1.0)
    with pytest.raises(ValueError, match="zero-sum"):
        hand.value()
    eq = hand.equilibrium()
    assert eq.x == {"up": 1.0, 'down "d"': 0.0} and eq.o == {"left": 1.0, "mid": 0.0, "right": 0.0}
    assert [(e.x_array.tolist(), e.o_array.tolist()) for e in hand.equilibria()] == [([1.0, 0.0], [1.0, 0.0, 0.0])]
    # no value, so no exploitability: the regrets of a profile instead
    with pytest.raises(ValueError, match=r"zero-sum games.*regrets\(x, y\) or nash_conv\(x, y\)"):
        hand.exploitability("up", 0)
    assert hand.regrets("up", "left") == (0.0, 0.0)
    # down against left: the rows would earn 3 with up (0 now), the columns 5.5 with right (4 now)
    assert hand.regrets('down "d"', "left") == pytest.approx((3.0, 1.5))
    # up against mid: the rows would earn 2 with down (-1.25 now), the columns 1 with left (0.5 now)
    assert hand.regrets("up", "mid") == pytest.approx((3.25, 0.5))
    # up against right: up's 0.1 already beats down's 2e-7; right earns the columns -3, left 1
    assert hand.regrets("up", "right") == (0.0, 4.0)
    assert hand.nash_conv("up", "left") == pytest.approx(0.0)
    assert hand.nash_conv('down "d"', "left") == pytest.approx(3.0 + 1.5)


@pytest.mark.parametrize(("strategy", "words"), [
    ([0.5, 0.6], "sum to 1.1"),
    ([0.2, 0.2], "sum to 0.4"),
    ([1.0], "1 probabilities for the 2"),
    ([1.0] * 3, "3 probabilities for the 2"),
    ([-0.5, 1.5], "not a probability"),
    ([float("nan"), 1.0], "not a probability"),
    ([float("inf"), 1.0], "not a probability"),
    ([10**400, 1.0], "not a probability"),
    (["0.5", "0.5"], "not a probability"),
    ({"nope" * 100: 1.0}, "is not a strategy"),
    ({"0": 0.5, "1": 0.5, "2": 0.0}, "3 entries"),
    ({0: 1.0}, "is not a strategy"),
    ("sideways" * 1000, "is not a strategy"),
    (42, "a mapping, a sequence"),
    (b"01", "a mapping, a sequence"),
    (np.ones((2, 1)) / 2, "1D array"),
])
def test_bad_strategies_are_refused_with_short_messages(strategy, words):
    st = stage_game(PENNIES)
    with pytest.raises(ValueError, match=words) as info:
        st.exploitability(strategy, 0)
    assert len(str(info.value)) < 90
    with pytest.raises(ValueError, match=words):
        st.best_response(strategy, 1)


@pytest.mark.parametrize("player", [2, -1, True, "0", 0.0, None])
def test_bad_players_are_refused(player):
    st = stage_game(PENNIES)
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        st.best_response([0.5, 0.5], player)


@pytest.mark.parametrize("name", ["game.txt", "game", "game.nfg.bak", "game.gbt", "x" * 500])
def test_other_suffixes_are_refused(hand, tmp_path, name):
    with pytest.raises(ValueError, match=r"\.nfg or \.efg") as info:
        hand.save(tmp_path / name)
    assert len(str(info.value)) < 90
    assert not list(tmp_path.iterdir())


def test_the_suffix_may_be_upper_case(hand, tmp_path):
    assert hand.save(tmp_path / "G.NFG").read_text(encoding="ascii").startswith("NFG 1 R")
    assert hand.save(tmp_path / "G.EFG").read_text(encoding="ascii").startswith("EFG 2 R")


def test_bad_games_and_sources_are_refused():
    with pytest.raises(TypeError, match="stage_matrix"):
        stage_game(gw.Gridlock())
    with pytest.raises(TypeError, match="for a game"):
        stage_game(PENNIES, rollouts=3)
    with pytest.raises(ValueError, match="shape"):
        stage_game(np.zeros((2, 2, 2, 2)))
    with pytest.raises(ValueError, match="NaN"):
        stage_game(np.array([[1.0, np.nan]]))
    with pytest.raises(ValueError, match="labels"):
        stage_game(PENNIES, rows=["a", "b", "c"])
    with pytest.raises(ValueError, match="appears twice"):
        stage_game(PENNIES, rows=["a", "a"])
    with pytest.raises(ValueError, match="players must be 2 names"):
        stage_game(PENNIES, players=("a", "b", "c"))
    with pytest.raises(ValueError, match=r"shape \(2, 2, 2\)"):
        StageGame(("a", "b"), ("0", "1"), ("0", "1"), np.zeros((2, 2)))
    with pytest.raises(ValueError, match="not a string"):
        StageGame(("a", "b"), ("0", 1), ("0", "1"), np.zeros((2, 2, 2)))  # type: ignore[arg-type]


def test_a_game_not_at_a_simultaneous_node_is_refused():
    g = gw.BlockFour(seed=7)
    g.play_joint({0: g.legal_moves(player=0)[0], 1: g.legal_moves(player=1)[0]})
    if g.is_simultaneous_node():  # pragma: no cover - the bids left nothing to place
        pytest.skip("the reveal led straight to the next bid")
    with pytest.raises(ValueError, match="simultaneous node"):
        stage_game(g, rollouts=1)


def test_labels_gambit_cannot_tell_apart_are_refused_when_writing():
    st = stage_game(PENNIES, rows=["a b", "a  b"])
    with pytest.raises(ValueError, match="one label"):
        st.to_nfg()
    with pytest.raises(ValueError, match="one label"):
        st.to_efg()


def test_the_game_is_read_only(hand):
    with pytest.raises(ValueError):
        hand.payoffs[0, 0, 0] = 99.0
    with pytest.raises(AttributeError):
        hand.title = "other"  # type: ignore[misc]


def test_the_explorer_updates_as_the_sliders_move():
    st = stage_game(PENNIES, players=("X", "O"), rows=["H", "T"], cols=["h", "t"])
    box = st.explore(0)
    heads, tails = box.sliders
    assert "exploitability</b> 0.000" in box.report.value  # equal weights: the equilibrium
    assert "H 50.0%, T 50.0%" in box.report.value
    tails.value = 0.0
    page = box.report.value
    assert "exploitability</b> 1.000" in page and "best response</b>: t " in page
    assert "expected payoff</b> against it: -1.000" in page and "H 100.0%" in page
    tails.value = 1.0 / 3.0  # weights 1 and 1/3: 75% heads
    assert "exploitability</b> 0.500" in box.report.value and "H 75.0%, T 25.0%" in box.report.value
    heads.value = 0.0
    tails.value = 0.0
    assert "positive weight" in box.report.value
    box.button.click()
    assert heads.value == pytest.approx(0.5) and tails.value == pytest.approx(0.5)
    assert "exploitability</b> 0.000" in box.report.value


def test_the_explorer_says_its_sliders_are_weights_and_names_them_whole_words():
    # issue 30: sliders at 1.00/1.00 with nothing saying they are weights, names cut mid-word
    st = stage_game(PENNIES, players=("X", "O"), rows=["heads always", "tails every single time"], cols=["h", "t"])
    box = st.explore(0)
    assert box.children[0] is box.heading
    assert "X's weights</b> (not probabilities)" in box.heading.value
    assert "equal weights (1.00 each at the start) are the uniform strategy" in box.heading.value
    assert [s.value for s in box.sliders] == [1.0, 1.0]
    assert "X plays</b> heads always 50.0%, tails every single time 50.0%" in box.report.value  # the probabilities
    assert [s.description for s in box.sliders] == ["heads always", "tails every…"]
    assert [s.tooltip for s in box.sliders] == ["heads always", "tails every single time"]
    assert list(box.labels) == ["heads always", "tails every single time"]


def test_a_stage_game_repr_never_cuts_a_word():
    title = "Turn 1: X's value of each pair of bids, 20 rollouts of the turn"
    assert repr(stage_game(PENNIES, title=title)) == f"StageGame({title!r}: 2x2, zero-sum)"  # whole
    long = " ".join(["bidding"] * 30)  # 239 characters
    shown = repr(stage_game(PENNIES, title=long))
    inner = shown.split("'")[1]
    assert inner.endswith("bidding…") and len(inner) <= 121
    assert all(word == "bidding" for word in inner[:-1].split()), inner
    one_word = "x" * 300
    assert repr(stage_game(PENNIES, title=one_word)).split("'")[1] == "x" * 120 + "…"
    assert repr(stage_game(PENNIES)) == "StageGame('': 2x2, zero-sum)"


def test_the_explorer_serves_the_second_player_of_a_general_sum_game(hand):
    box = hand.explore(1)
    left, mid, right = box.sliders
    for s, w in ((left, 0.0), (mid, 1.0), (right, 0.0)):
        s.value = w
    page = box.report.value
    # against mid the rows answer down (2)
    assert "best response</b>: down &quot;d&quot; (earning +2.000)" in page
    assert "exploitability</b> in a general-sum game" in page and "game value" not in page
    # the profile (up, mid) with the rows' one equilibrium strategy, up: worked out above
    assert "with Row &quot;one&quot; up 100% (equilibrium 1): payoffs Row &quot;one&quot; -1.250, Col\\two +0.500" \
        in page
    assert "regrets Row &quot;one&quot; 3.250, Col\\two 0.500; <b>NashConv</b> 3.750" in page


def test_the_html_table_escapes_labels(hand):
    page = hand._repr_html_()
    assert "down &quot;d&quot;" in page and ">left</th>" in page and ">3, 1</td>" in page
    assert "Row &quot;one&quot;" in page and "<script" not in stage_game(PENNIES, rows=["<script>", "b"])._repr_html_()
