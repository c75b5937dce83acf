"""General-sum games named and computed right (issue 40): every equilibrium of
textbook games against their closed forms and against Gambit's own
enumeration, regrets and NashConv of profiles worked by hand, no
exploitability without a value, and the panels saying which equilibrium
they use and why."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest

from gridwidgets.analysis import equilibria, equilibrium, stage_game
from gridwidgets.analysis.equilibrium import is_degenerate

#: the battle of the sexes of tutorial 05: Ann prefers the opera, Bob the football
BOS_A = np.array([[2, 0], [0, 1]])
BOS_B = np.array([[1, 0], [0, 2]])
#: the prisoner's dilemma (T=5 > R=3 > P=1 > S=0)
PD_A = np.array([[3, 0], [5, 1]])
#: the entry game in normal form (Osborne 2004, chapter 5): the challenger (rows: In, Out),
#: the incumbent (columns: what it would do after In: Acquiesce, Fight)
ENTRY_A = np.array([[2, 0], [1, 1]])
ENTRY_B = np.array([[1, 0], [2, 2]])


def sexes():
    return stage_game((BOS_A, BOS_B), players=("Ann", "Bob"), rows=["opera", "football"],
                      cols=["opera", "football"], title="battle of the sexes")


def profiles(found):
    return [(e.x_array.tolist(), e.o_array.tolist()) for e in found]


def gambit_equilibria(a, b):
    """Gambit's enumeration of the extreme equilibria of a bimatrix game (enummixed), exact."""
    gbt = pytest.importorskip("pygambit")
    game = gbt.Game.from_arrays(np.asarray(a, dtype=int), np.asarray(b, dtype=int))
    first, second = game.players
    out = []
    for eq in gbt.nash.enummixed_solve(game, rational=True).equilibria:
        out.append(([Fraction(str(eq[s])) for s in first.strategies],
                    [Fraction(str(eq[s])) for s in second.strategies]))
    return out


def same_sets(ours, theirs):
    """Two lists of profiles hold the same profiles (to 1e-9), in any order."""
    def key(pair):
        return tuple(round(float(v), 9) + 0.0 for v in (*pair[0], *pair[1]))
    return sorted(map(key, ours)) == sorted(map(key, theirs))


# ----------------------------------------------------------------------
# Every equilibrium of textbook games
# ----------------------------------------------------------------------
def test_the_battle_of_the_sexes_has_three_equilibria_two_pure_one_mixed():
    found = sexes().equilibria()
    assert profiles(found)[:2] == [([1.0, 0.0], [1.0, 0.0]), ([0.0, 1.0], [0.0, 1.0])]  # pure ones first
    mixed = found[2]
    # closed form: Ann goes to the opera with the p that makes Bob indifferent, p * 1 = (1 - p) * 2: p = 2/3;
    # Bob with the q that makes Ann indifferent, 2q = 1 - q: q = 1/3; each then gets 2/3
    assert mixed.x_array == pytest.approx([2 / 3, 1 / 3]) and mixed.o_array == pytest.approx([1 / 3, 2 / 3])
    assert [e.value for e in found] == pytest.approx([2, 1, 2 / 3])
    assert [e.value_o for e in found] == pytest.approx([1, 2, 2 / 3])
    assert all(not e.zero_sum and e.is_nash() and e.method == "vertex_enumeration" for e in found)
    assert [e.title for e in found] == [f"battle of the sexes, equilibrium {k} of 3" for k in (1, 2, 3)]
    assert not sexes().is_degenerate()


@pytest.mark.parametrize(("alpha", "beta"), [(3, 2), (5, 1), (4, 4), (7, 3)])
def test_the_battle_of_the_sexes_in_closed_form(alpha, beta):
    # A = [[alpha, 0], [0, beta]], B = [[beta, 0], [0, alpha]]: the mixed equilibrium has the rows
    # on their first strategy with alpha / (alpha + beta), the columns with beta / (alpha + beta),
    # and each player gets alpha * beta / (alpha + beta)
    a, b = np.array([[alpha, 0], [0, beta]]), np.array([[beta, 0], [0, alpha]])
    found = equilibria((a, b))
    assert len(found) == 3
    p, q, pay = alpha / (alpha + beta), beta / (alpha + beta), alpha * beta / (alpha + beta)
    assert found[2].x_array == pytest.approx([p, 1 - p]) and found[2].o_array == pytest.approx([q, 1 - q])
    assert (found[2].value, found[2].value_o) == pytest.approx((pay, pay))
    assert same_sets(profiles(found), gambit_equilibria(a, b))


def test_the_prisoners_dilemma_has_one_equilibrium_both_defect():
    pd = stage_game((PD_A, PD_A.T), players=("Ann", "Bob"), rows=["C", "D"], cols=["C", "D"])
    (only,) = pd.equilibria()
    assert only.x == {"C": 0.0, "D": 1.0} and only.o == {"C": 0.0, "D": 1.0}
    assert (only.value, only.value_o) == (1.0, 1.0)


def test_matching_pennies_has_one_equilibrium_half_and_half_with_value_zero():
    pennies = stage_game(np.array([[1, -1], [-1, 1]]))
    (only,) = pennies.equilibria()
    assert only.zero_sum and only.x_array == pytest.approx([0.5, 0.5]) and only.o_array == pytest.approx([0.5, 0.5])
    assert only.value == pytest.approx(0.0) and "value for row 0.000" in str(only)


def test_the_entry_game_lists_the_extreme_equilibria_of_its_continuum():
    # Out is a best response exactly when the incumbent fights with probability >= 1/2
    # (In earns 2(1 - f), Out 1), so (Out, f) is an equilibrium for every f in [1/2, 1]:
    # a degenerate game, whose extreme equilibria are f = 1 and f = 1/2, beside (In, Acquiesce)
    entry = stage_game((ENTRY_A, ENTRY_B), players=("Challenger", "Incumbent"), rows=["In", "Out"],
                       cols=["Acquiesce", "Fight"])
    assert entry.is_degenerate()
    found = entry.equilibria()
    assert profiles(found)[:2] == [([1.0, 0.0], [1.0, 0.0]), ([0.0, 1.0], [0.0, 1.0])]
    assert found[2].x_array.tolist() == [0.0, 1.0] and found[2].o_array == pytest.approx([0.5, 0.5])
    assert same_sets(profiles(found), gambit_equilibria(ENTRY_A, ENTRY_B))
    # support enumeration misses (Out, half and half) here
    assert len(entry.equilibria(method="support_enumeration")) == 2


@pytest.mark.parametrize(("a", "b", "degenerate"), [
    # von Stengel 2007 (Algorithmic Game Theory, chapter 3): a nondegenerate 3x2 game with three
    # equilibria, and the same with B's first row (3, 3), where the top row has two best responses
    ([[3, 3], [2, 5], [0, 6]], [[3, 2], [2, 6], [3, 1]], False),
    ([[3, 3], [2, 5], [0, 6]], [[3, 3], [2, 6], [3, 1]], True),
    ([[0, 0], [0, 0]], [[0, 0], [0, 0]], True),
])
def test_degenerate_and_nondegenerate_games_against_gambit(a, b, degenerate):
    assert is_degenerate((np.array(a), np.array(b))) is degenerate
    assert same_sets(profiles(equilibria((np.array(a), np.array(b)))), gambit_equilibria(a, b))


@pytest.mark.parametrize("seed", range(8))
def test_random_games_give_gambits_equilibria(seed):
    rng = np.random.default_rng(seed)
    shape = [(2, 2), (2, 3), (3, 3), (3, 4)][seed % 4]
    a, b = rng.integers(-5, 6, size=shape), rng.integers(-5, 6, size=shape)
    found = equilibria((a, b))
    assert same_sets(profiles(found), gambit_equilibria(a, b))
    assert all(e.is_nash() for e in found)
    sizes = [int((e.x_array > 0).sum() + (e.o_array > 0).sum()) for e in found]
    assert sizes == sorted(sizes)  # fewest pure strategies in the supports first
    if not is_degenerate((a, b)):
        assert len(found) % 2 == 1  # a nondegenerate game has an odd number
        assert equilibrium((a, b)).x_array == pytest.approx(found[0].x_array)  # the one equilibrium() gives


def test_a_game_with_one_strategy_for_a_player():
    found = equilibria((np.array([[1, 2, 2]]), np.array([[0, 3, 3]])), players=("Ann", "Bob"))
    assert profiles(found) == [([1.0], [0.0, 1.0, 0.0]), ([1.0], [0.0, 0.0, 1.0])]
    assert is_degenerate((np.array([[1, 2, 2]]), np.array([[0, 3, 3]])))


def test_equilibria_refuses_bad_input():
    with pytest.raises(ValueError, match="method"):
        equilibria(BOS_A, method="lemke_howson")
    with pytest.raises(ValueError, match="2D"):
        equilibria([1, 2])
    import gridwidgets as gw

    with pytest.raises(ValueError, match="stage_game"):
        equilibria(gw.BlockFour(seed=1))


# ----------------------------------------------------------------------
# Captions: the players' names and their payoffs
# ----------------------------------------------------------------------
def test_a_bimatrix_equilibrium_is_captioned_with_the_players_names_and_payoffs():
    eq = sexes().equilibrium()
    assert (eq.row_label, eq.col_label) == ("Ann", "Bob")
    text = str(eq)
    assert "Nash equilibrium (general-sum, support enumeration): payoffs: Ann 2.000, Bob 1.000" in text
    assert "Ann: opera 1.000" in text and "Bob: opera 1.000" in text and "value" not in text
    assert "payoffs: Ann 2.000, Bob 1.000" in eq._repr_html_()
    assert "payoffs Ann 2, Bob 1" in repr(eq)
    third = sexes().equilibria()[2]
    assert str(third).startswith("battle of the sexes, equilibrium 3 of 3: Nash equilibrium (general-sum, "
                                 "vertex enumeration): payoffs: Ann 0.667, Bob 0.667")


def test_a_zero_sum_equilibrium_keeps_its_value_caption():
    eq = stage_game(np.array([[1, -1], [-1, 1]]), players=("X", "O")).equilibrium()
    assert "Nash equilibrium (zero-sum, minimax LP): value for X 0.000" in str(eq)
    with pytest.raises(ValueError, match="two names"):
        equilibrium(BOS_A, players=("only one",))


# ----------------------------------------------------------------------
# Regrets and NashConv of profiles, worked by hand
# ----------------------------------------------------------------------
@pytest.mark.parametrize(("x", "y", "regrets"), [
    ("opera", "opera", (0.0, 0.0)),
    ("football", "football", (0.0, 0.0)),
    # apart, each would gain by joining the other: Ann 1 (football with Bob), Bob 1
    ("opera", "football", (1.0, 1.0)),
    # apart the other way: Ann would gain 2 at the opera with Bob, Bob 2 at the football with Ann
    ("football", "opera", (2.0, 2.0)),
    # half and half each: both get 3/4; Ann's best reply (opera) earns 1, Bob's (football) 1
    ([0.5, 0.5], [0.5, 0.5], (0.25, 0.25)),
    # the mixed equilibrium
    ([2 / 3, 1 / 3], [1 / 3, 2 / 3], (0.0, 0.0)),
    # Ann's football against Bob's mixed strategy: Ann indifferent (2/3 either way), Bob would
    # rather go to the football (2) than mix (4/3)
    ("football", [1 / 3, 2 / 3], (0.0, 2 / 3)),
])
def test_regrets_and_nash_conv_of_the_battle_of_the_sexes(x, y, regrets):
    assert sexes().regrets(x, y) == pytest.approx(regrets, abs=1e-12)
    assert sexes().nash_conv(x, y) == pytest.approx(sum(regrets), abs=1e-12)


def test_the_prisoners_dilemma_regrets():
    pd = stage_game((PD_A, PD_A.T), rows=["C", "D"], cols=["C", "D"])
    assert pd.regrets("C", "C") == (2.0, 2.0)      # each gains 5 - 3 by defecting alone
    assert pd.regrets("C", "D") == (1.0, 0.0)      # the sucker gains 1 - 0 by defecting too
    assert pd.nash_conv("D", "D") == 0.0


def test_exploitability_is_refused_for_a_general_sum_game_and_kept_for_zero_sum():
    # issue 40: Ann's football, her strategy in the equilibrium (football, football), was given 2.0
    with pytest.raises(ValueError, match=r"exploitability is for zero-sum games.*regrets\(x, y\)"):
        sexes().exploitability("football", 0)
    assert sexes().regrets("football", "football") == (0.0, 0.0)
    pennies = stage_game(np.array([[1, -1], [-1, 1]]))
    assert pennies.exploitability("0", 0) == pytest.approx(1.0)
    # zero-sum: NashConv is the sum of the two exploitabilities
    assert pennies.nash_conv("0", [0.25, 0.75]) == pytest.approx(
        pennies.exploitability("0", 0) + pennies.exploitability([0.25, 0.75], 1))


# ----------------------------------------------------------------------
# The panels say which equilibrium and which opponent strategy
# ----------------------------------------------------------------------
def plain(html_text: str) -> list[str]:
    return [re.sub(r"<[^>]*>", "", t).replace("&nbsp;", " ").strip() for t in html_text.split("<br>")]


def test_explore_shows_the_regrets_of_each_equilibrium_profile_not_exploitability():
    box = sexes().explore(0)
    box.sliders[0].value = 0.0  # Ann: football for sure
    lines = plain(box.report.value)
    assert "exploitability 2" not in box.report.value and "no exploitability in a general-sum game" in lines[2]
    assert "Bob's strategy assumed: Bob's in each of the 3 equilibria of equilibria() (pure first)," in lines
    at = lines.index("with Bob football 100% (equilibrium 2): payoffs Ann +1.000, Bob +2.000")
    assert lines[at + 1] == "regrets Ann 0.000, Bob 0.000; NashConv 0.000"   # an equilibrium
    at = lines.index("with Bob opera 100% (equilibrium 1): payoffs Ann +0.000, Bob +0.000")
    assert lines[at + 1] == "regrets Ann 2.000, Bob 2.000; NashConv 4.000"
    at = lines.index("with Bob opera 33%, football 67% (equilibrium 3): payoffs Ann +0.667, Bob +1.333")
    assert lines[at + 1] == "regrets Ann 0.000, Bob 0.667; NashConv 0.667"


def test_explore_with_a_given_opponent_strategy_and_its_button_walks_the_equilibria():
    box = sexes().explore(1, against=[0.5, 0.5])
    lines = plain(box.report.value)
    assert "Ann's strategy assumed: the one given (against=);" in lines
    at = lines.index("with Ann opera 50%, football 50% (the given strategy): payoffs Ann +0.750, Bob +0.750")
    assert lines[at + 1] == "regrets Ann 0.250, Bob 0.250; NashConv 0.500"
    box = sexes().explore(1)
    assert box.button.description == "Equilibrium 1 of 3"
    for k, bob in ((1, [1.0, 0.0]), (2, [0.0, 1.0]), (3, [1 / 3, 2 / 3]), (1, [1.0, 0.0])):
        box.button.click()
        assert [s.value for s in box.sliders] == pytest.approx(bob, abs=0.01), k
        assert box.button.description == f"Equilibrium {k % 3 + 1} of 3"
    with pytest.raises(ValueError, match="against is for general-sum"):
        stage_game(np.array([[1, -1], [-1, 1]])).explore(0, against=[0.5, 0.5])


def test_play_against_says_which_equilibrium_and_what_the_line_is():
    m = sexes().play_against(seed=0)
    assert m.equilibrium.title == "battle of the sexes, equilibrium 1 of 3"
    assert list(m.mix) == [1.0, 0.0] and m.value == 2.0 and m.value_name() == "equilibrium payoff"
    text = m.describe()
    assert text[0] == "You play Ann (rows); Bob plays their strategy in equilibrium 1 of 3: opera 100.0%"
    assert "the first of the 3 that equilibria() lists, pure ones first" in text[2]
    assert repr(m).startswith("MatrixMatch(Ann against Bob's strategy in equilibrium 1 of 3")
    # Bob against Ann's side of the mixed equilibrium: every strategy of Bob's earns him 2/3
    mixed = sexes().play_against(sexes().equilibria()[2], player=1)
    assert mixed.mix == pytest.approx([2 / 3, 1 / 3]) and mixed.value == pytest.approx(2 / 3)
    assert list(mixed.expected_payoffs.values()) == pytest.approx([2 / 3, 2 / 3])
    assert "equilibrium 3 of 3" in mixed.describe()[0]
    # a chosen mix: the line is Ann's best-response payoff against it, opera's 2 * 0.75
    chosen = sexes().play_against([0.75, 0.25])
    assert chosen.value == pytest.approx(1.5) and chosen.value_name() == "best-response payoff"
    assert chosen.equilibrium is None and "best-response payoff" in chosen.describe()[1]


def test_play_against_refuses_an_equilibrium_of_another_game():
    other = stage_game((BOS_B, BOS_A), rows=["opera", "football"], cols=["opera", "football"])
    with pytest.raises(ValueError, match="another game"):
        sexes().play_against(other.equilibria()[0])
