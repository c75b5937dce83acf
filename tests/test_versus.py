"""Playing a matrix game against a mixed strategy (gridwidgets.analysis.versus):
payoffs are the matrix's entries, the same seed gives the same match, bad
mixes are refused, the running average against the equilibrium tends to the
value (and against another mix a best response beats it), the panel's
buttons play rounds, a new match starts afresh, and Block Four's bid works
unchanged."""

from __future__ import annotations

import numpy as np
import pytest

import gridwidgets as gw
from gridwidgets.analysis import MatchRound, MatrixMatch, StageGame, stage_game

PENNIES = np.array([[1.0, -1.0], [-1.0, 1.0]])
#: a zero-sum game worked by hand: the row player mixes (2/5, 3/5), the
#: column player too, and the value is (2 * 1 - (-1) * (-1)) / (2 + 1 + 1 + 1) = 1/5
SKEWED = np.array([[2.0, -1.0], [-1.0, 1.0]])
#: the prisoner's dilemma (R=3, S=0, T=5, P=1): one equilibrium, both defect, each gets 1
PD_A = np.array([[3.0, 0.0], [5.0, 1.0]])
PD_B = PD_A.T
#: the battle of the sexes: two pure equilibria (opera, opera) worth (3, 2) and
#: (football, football) worth (2, 3), and a mixed one
BOS_A = np.array([[3.0, 0.0], [0.0, 2.0]])
BOS_B = np.array([[2.0, 0.0], [0.0, 3.0]])


@pytest.fixture(scope="module")
def skewed() -> StageGame:
    return stage_game(SKEWED, players=("Row", "Col"), rows=["a", "b"], cols=["c", "d"], title="skewed pennies")


@pytest.fixture(scope="module")
def bid() -> StageGame:
    return stage_game(gw.BlockFour(seed=7), rollouts=2, seed=0)


def test_against_a_pure_mix_the_payoffs_are_the_matrix_entries(skewed):
    for player, mine in ((0, SKEWED), (1, -SKEWED.T)):
        for j, reply in enumerate(skewed.strategies(1 - player)):
            m = skewed.play_against(reply, player=player)       # a label: played for sure
            rounds = m.play([0, 1, 1, 0, "a" if player == 0 else "c"])
            assert [r.reply for r in rounds] == [reply] * 5
            assert [r.payoff for r in rounds] == [mine[i, j] for i in (0, 1, 1, 0, 0)]
            assert [r.opponent_payoff for r in rounds] == [-mine[i, j] for i in (0, 1, 1, 0, 0)]
            assert m.total == sum(r.payoff for r in rounds) and m.average == m.total / 5
            assert [r.number for r in m.history] == [1, 2, 3, 4, 5]


def test_a_round_is_recorded_with_its_running_figures():
    pd = stage_game((PD_A, PD_B), rows=["cooperate", "defect"], cols=["cooperate", "defect"])
    m = pd.play_against({"cooperate": 1.0})
    assert m.average is None and m.total == 0.0 and m.history == ()
    first = m.choose("defect")
    assert first == MatchRound(1, "defect", "cooperate", 5.0, 0.0, 5.0, 5.0)
    second = m.choose(0)
    assert second == MatchRound(2, "cooperate", "cooperate", 3.0, 3.0, 8.0, 4.0)
    assert m.history == (first, second) and m.averages() == [5.0, 4.0]


def test_the_same_seed_gives_the_same_match_and_another_seed_another(skewed):
    choices = [0, 1, 1, 0, 1] * 20

    def replies(seed: int) -> list[str]:
        return [r.reply for r in skewed.play_against(seed=seed).play(choices)]

    assert replies(5) == replies(5)
    assert replies(5) != replies(6)
    assert set(replies(5)) == {"c", "d"}


def test_a_new_match_starts_afresh_with_new_draws(skewed):
    m = skewed.play_against(seed=1)
    one = [r.reply for r in m.play([0] * 30)]
    m.reset()
    assert m.history == () and m.total == 0.0 and m.average is None and m.match == 1
    two = [r.reply for r in m.play([0] * 30)]
    assert one != two                       # not the same draws again
    again = skewed.play_against(seed=1)
    again.play([0] * 30)
    again.reset()
    assert [r.reply for r in again.play([0] * 30)] == two   # match 1 of seed 1, always


@pytest.mark.parametrize(("mix", "words"), [
    ([0.5, 0.6], "sum to 1.1"),
    ([1.5, -0.5], "negative"),
    ([1.0], "1 probabilities for the 2 strategies of 'Col'"),
    ([0.2, 0.3, 0.5], "3 probabilities"),
    ({"e": 1.0}, "'e' is not a strategy of 'Col'"),
    ("x", "'x' is not a strategy of 'Col'"),
    ([float("nan"), 1.0], "not finite"),
    (["a", "b"], "not a probability"),
    (3, "not int"),
])
def test_a_bad_mix_is_refused_saying_what_is_wrong(skewed, mix, words):
    with pytest.raises(ValueError, match=words):
        skewed.play_against(mix)


def test_a_mix_within_the_tolerance_is_accepted_and_normalised(skewed):
    m = skewed.play_against([0.5 + 4e-7, 0.5])
    assert m.mix.sum() == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"player": 2}, "player must be 0 or 1"),
    ({"seed": -1}, "seed must be an int >= 0"),
    ({"seed": 1.5}, "seed must be an int >= 0"),
    ({"rounds": 0}, "rounds must be a positive int"),
    ({"rounds": True}, "rounds must be a positive int"),
])
def test_bad_sides_seeds_and_lengths_are_refused(skewed, kwargs, words):
    with pytest.raises(ValueError, match=words):
        skewed.play_against(**kwargs)


@pytest.mark.parametrize("choice", ["z", 2, -1, True, 1.0, None])
def test_a_bad_choice_is_refused_and_plays_nothing(skewed, choice):
    m = skewed.play_against()
    with pytest.raises(ValueError, match=r"not a strategy|a choice is a label or an index"):
        m.choose(choice)
    assert m.history == ()


def test_a_match_of_fixed_length_stops(skewed):
    m = skewed.play_against(rounds=3)
    m.play([0, 1, 0])
    assert m.finished and all(b.disabled for b in m.buttons)
    with pytest.raises(ValueError, match="the match is over"):
        m.choose(0)
    assert "The match is over" in m.panel.report.value
    m.panel.new_match.click()
    assert not m.finished and not any(b.disabled for b in m.buttons) and m.played == 0


@pytest.mark.parametrize("player", [0, 1])
def test_against_the_equilibrium_the_average_tends_to_the_value(skewed, player):
    m = skewed.play_against(player=player, seed=11)
    assert m.value == pytest.approx(0.2 if player == 0 else -0.2)
    assert m.mix == pytest.approx([0.4, 0.6])
    # every pure strategy earns the value against the equilibrium mix, so any way of playing does
    assert list(m.expected_payoffs.values()) == pytest.approx([m.value, m.value])
    n = 20_000
    m.play([0, 0, 1] * (n // 3) + [1] * (n % 3))
    # the payoffs have a standard deviation below 1.5, so four standard errors are 0.042
    assert abs(m.average - m.value) < 0.05


def test_a_mix_off_the_equilibrium_is_exploited_by_a_best_response(skewed):
    m = skewed.play_against([0.8, 0.2], seed=11)
    replies, gain = m.best_response
    assert replies == ["a"] and gain == pytest.approx(2 * 0.8 - 0.2)
    m.play(["a"] * 5000)
    assert m.average > m.value + 1.0       # the value is 0.2, a best response earns 1.4
    assert m.average == pytest.approx(1.4, abs=0.05)


def test_a_general_sum_game_shows_the_students_equilibrium_payoff():
    pd = stage_game((PD_A, PD_B), players=("Ann", "Bob"), rows=["cooperate", "defect"],
                    cols=["cooperate", "defect"], title="prisoner's dilemma")
    for player in (0, 1):
        m = pd.play_against(player=player)
        assert m.value == 1.0 and m.value_name() == "equilibrium payoff"
        assert list(m.mix) == [0.0, 1.0]                       # the opponent defects
        rounds = m.play(["cooperate", "defect"])
        assert [r.payoff for r in rounds] == [0.0, 1.0]        # the sucker's payoff, then the punishment
        assert "equilibrium payoff +1.000" in m.panel.report.value and "game value" not in m.panel.report.value


def test_with_several_equilibria_the_opponent_plays_the_first_listed_and_the_line_is_its_payoff():
    bos = stage_game((BOS_A, BOS_B), rows=["opera", "football"], cols=["opera", "football"])
    first = bos.equilibria()[0]
    for player, payoff in ((0, first.value), (1, first.value_o)):
        m = bos.play_against(player=player)
        assert m.equilibrium is not None and m.equilibrium.title == "equilibrium 1 of 3"
        assert m.value == pytest.approx(payoff)
        assert m.mix == pytest.approx(first.o_array if player == 0 else first.x_array)
        # the line is the most the student can earn against that mix: their best response's payoff
        assert m.value == pytest.approx(max(m.expected_payoffs.values()))
    # pure equilibria come first: (opera, opera), worth 3 and 2; support enumeration agrees
    assert (first.value, first.value_o) == (3.0, 2.0)
    assert bos.equilibrium().x_array.tolist() == first.x_array.tolist()


def test_the_buttons_are_labelled_and_a_click_plays_a_round(skewed):
    m = skewed.play_against(player=1, seed=2)
    assert [b.description for b in m.buttons] == ["c", "d"]
    assert all(b.tooltip == f"play {lab}" for b, lab in zip(m.buttons, "cd", strict=True))
    m.buttons[1].click()
    m.buttons[0].click()
    assert [r.choice for r in m.history] == ["d", "c"]
    twin = skewed.play_against(player=1, seed=2)
    assert twin.play(["d", "c"]) == list(m.history)   # a click is choose()
    report = m.panel.report.value
    assert f"Round 2: you c, Row {m.history[-1].reply}" in report and "Rounds 2" in report
    assert f"average {m.average:+.3f}" in report and "game value -0.200" in report
    assert "polyline" in m.panel.plot.value


def test_the_panel_shows_the_opponents_mix_and_redraws_on_a_new_match(skewed):
    m = skewed.play_against([0.25, 0.75])
    assert "Col plays a chosen mix: c 25.0%, d 75.0%" in m.panel.header.value
    m.play([0, 1])
    assert "polyline" in m.panel.plot.value
    m.panel.new_match.click()
    assert m.history == () and "polyline" not in m.panel.plot.value
    assert "Choose a strategy to play the first round" in m.panel.report.value


def test_the_panel_has_a_picture_and_a_stable_text(skewed):
    m = skewed.play_against(seed=0)
    m.play([0, 1])
    data, meta = m._repr_mimebundle_()
    assert data["text/plain"] == repr(m) and "application/vnd.jupyter.widget-view+json" in data
    assert data["image/svg+xml"].startswith("<svg") and "Rounds 2" in data["image/svg+xml"]
    assert repr(m) == f"MatrixMatch(Row against Col's equilibrium mix: 2 rounds, average {m.average:+.3f}; " \
                      "game value +0.200)"
    assert "image/png" in meta


def test_labels_are_escaped_in_the_panel():
    st = stage_game(PENNIES, players=("<b>", "O&"), rows=["<i>", "t"], cols=["h", "<script>"])
    m = st.play_against()
    m.choose("<i>")
    page = m.panel.header.value + m.panel.report.value + m.plot_svg() + m.to_svg()
    assert "<script>" not in page and "<i>" not in page and "&lt;script&gt;" in page


def test_the_bid_of_block_four_can_be_played_against_its_equilibrium(bid):
    for player in (0, 1):
        m = bid.play_against(player=player, seed=4)
        assert isinstance(m, MatrixMatch)
        mine = bid.a if player == 0 else -bid.a.T
        assert m.value == pytest.approx(bid.value() if player == 0 else -bid.value())
        assert [b.description for b in m.buttons] == list(bid.strategies(player))
        m.buttons[-1].click()
        rounds = [m.history[-1], *m.play(range(len(m.strategies)))]
        theirs = bid.strategies(1 - player)
        assert [r.payoff for r in rounds] == [mine[m.strategies.index(r.choice), theirs.index(r.reply)]
                                             for r in rounds]
        assert all(m.mix[theirs.index(r.reply)] > 0 for r in rounds)   # only strategies the mix plays
        # no pure strategy beats the value against the equilibrium mix
        assert max(m.expected_payoffs.values()) == pytest.approx(m.value, abs=1e-9)


def test_the_opponent_plays_its_own_equilibrium_strategy():
    # worked by hand: the rows mix (3/7, 4/7), the columns (2/7, 5/7), the value is 1/7
    st = stage_game(np.array([[3.0, -1.0], [-2.0, 1.0]]))
    row, col = st.play_against(player=0), st.play_against(player=1)
    assert row.mix == pytest.approx([2 / 7, 5 / 7]) and col.mix == pytest.approx([3 / 7, 4 / 7])
    assert row.value == pytest.approx(1 / 7) and col.value == pytest.approx(-1 / 7)
