"""Round-robin tournaments (gridwidgets.analysis.tournament): seeding, parallel
results, the table, Wilson intervals, Bradley-Terry/Elo ratings."""

import math

import matplotlib
import numpy as np
import pytest

from gridwidgets import BlockFour, Gridlock, GridMaster4
from gridwidgets.agents import Agent, MyopicBidder, RandomAgent
from gridwidgets.analysis import TournamentResult, elo_ratings, tournament, wilson_interval

matplotlib.use("Agg")

COLUMNS = ["games", "wins", "draws", "losses", "win_rate", "win_rate_low", "win_rate_high", "score", "elo"]


class FirstMoveAgent(Agent):
    """Always the first legal move."""

    def choose(self, game):
        return game.legal_moves()[0]


class MobilityAgent(Agent):
    """One ply of search: wins at once if it can, else leaves the opponent the fewest moves."""

    def choose(self, game):
        best = None
        for move in game.legal_moves():
            after = game.copy()
            after.play(move)
            if after.is_over:
                return move
            score = -len(after.legal_moves())
            if best is None or score > best[0]:
                best = (score, move)
        return best[1]


class IllegalAgent(Agent):
    def choose(self, game):
        return "A1" if not game.history else game.history[0]


def small(n_jobs=1, seed=3, games=20, progress=False):
    agents = {"random": RandomAgent(), "seeded": RandomAgent(seed=99), "first": FirstMoveAgent()}
    return tournament(Gridlock, agents, games=games, n_jobs=n_jobs, seed=seed, progress=progress, rows=3, cols=3)


def test_same_seed_same_results_with_one_or_two_processes():
    one = small(n_jobs=1)
    two = small(n_jobs=2)
    assert one.records == two.records
    assert one.table.equals(two.table)
    assert small(n_jobs=1).records == one.records
    assert small(seed=4).records != one.records


@pytest.mark.parametrize("backend", ["threading", "multiprocessing"])
def test_n_jobs_none_takes_joblibs_parallel_config(backend):
    import joblib

    with joblib.parallel_config(backend=backend, n_jobs=2):
        res = small(n_jobs=None)
    assert res.records == small().records


def test_round_robin_seats_every_ordered_pair_of_a_two_player_game():
    res = small(games=24)
    assert isinstance(res, TournamentResult) and res.n_players == 2
    assert len(res.seatings) == 6 and len(set(res.seatings)) == 6  # 3 agents: 3 * 2 ordered pairs
    assert all(a != b for a, b in res.seatings)
    assert [r["seats"] for r in res.records] == [res.seatings[i % 6] for i in range(24)]
    games = res.games
    assert list(games.index) == list(range(24))
    assert {"seats", "winners", "winner_agents", "returns", "length", "scores", "seed"} <= set(games.columns)
    assert all(len(w) == 1 for w in games["winners"])  # Gridlock has no draws (GL-4)
    assert all(games["length"] >= 2)


def test_table_columns_sums_and_wilson_bounds():
    res = small(games=30)
    t = res.table
    assert list(t.columns) == COLUMNS and set(t.index) == {"random", "seeded", "first"}
    assert (t["wins"] + t["draws"] + t["losses"] == t["games"]).all()
    assert t["games"].sum() == 2 * 30 and t["wins"].sum() == 30  # one seat each side, one winner
    assert ((0 <= t["win_rate_low"]) & (t["win_rate_low"] <= t["win_rate"])).all()
    assert ((t["win_rate"] <= t["win_rate_high"]) & (t["win_rate_high"] <= 1)).all()
    assert t["elo"].mean() == pytest.approx(1500.0)
    assert list(t["elo"]) == sorted(t["elo"], reverse=True)  # best first
    pair = res.pairwise
    assert np.isnan(np.diag(pair.to_numpy())).all()
    off = ~np.eye(3, dtype=bool)
    assert np.allclose(pair.to_numpy()[off] + pair.to_numpy().T[off], 1.0)


def test_elo_ranks_a_strong_agent_above_random():
    agents = {"random": RandomAgent(), "mobility": MobilityAgent()}
    res = tournament(Gridlock, agents, games=40, seed=1, progress=False, rows=4, cols=4)
    t = res.table
    assert t.index[0] == "mobility"
    assert t.loc["mobility", "elo"] > t.loc["random", "elo"] + 100
    assert t.loc["mobility", "win_rate_low"] > 0.5


def test_progress_false_is_silent_and_true_shows_a_bar(capfd):
    small(progress=False, n_jobs=2)
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    small(progress=True, games=6)
    out, err = capfd.readouterr()
    assert "Gridlock tournament" in err


def test_agents_given_are_copied_and_reseeded_not_changed():
    seeded = RandomAgent(seed=5)
    res1 = tournament(Gridlock, {"a": seeded, "b": RandomAgent()}, games=8, seed=2, progress=False, rows=3, cols=3)
    assert seeded.seed == 5
    # an unseeded agent is seeded per game too: the same seed reproduces it
    res2 = tournament(Gridlock, {"a": RandomAgent(seed=5), "b": RandomAgent()}, games=8, seed=2, progress=False,
                      rows=3, cols=3)
    assert res1.records == res2.records
    # a class (or function) is called with each seat's seed
    res3 = tournament(Gridlock, {"a": RandomAgent, "b": lambda s: RandomAgent(s)}, games=8, seed=2, progress=False,
                      rows=3, cols=3)
    assert [r["seed"] for r in res3.records] == [r["seed"] for r in res1.records]


def test_seed_none_is_replayable_from_its_entropy():
    res = tournament(Gridlock, {"a": RandomAgent(), "b": RandomAgent()}, games=6, progress=False, rows=3, cols=3)
    again = tournament(Gridlock, {"a": RandomAgent(), "b": RandomAgent()}, games=6, seed=res.entropy,
                       progress=False, rows=3, cols=3)
    assert again.records == res.records


def test_four_players_sit_in_rotations():
    agents = {"r1": RandomAgent(), "r2": RandomAgent(), "first": FirstMoveAgent(), "mob": MobilityAgent()}
    res = tournament(GridMaster4, agents, games=8, seed=0, progress=False, size=5, tiles=6)
    assert res.n_players == 4 and len(res.seatings) == 4
    for seat in range(4):
        assert sorted(t[seat] for t in res.seatings) == sorted(agents)  # each agent in each seat once
    t = res.table
    assert (t["games"] == 8).all()
    assert np.isfinite(t["elo"]).all()
    perms = tournament(GridMaster4, agents, games=0, seating="permutations", progress=False, size=5, tiles=6)
    assert len(perms.seatings) == 24


def test_blockfour_agents_get_views_and_play_it_out():
    agents = {"eq": MyopicBidder(rollouts=1, seed=0), "random": RandomAgent()}
    res = tournament(BlockFour, agents, games=2, seed=5, progress=False)
    assert [r["seats"] for r in res.records] == [("eq", "random"), ("random", "eq")]
    assert all(r["winners"] for r in res.records)


def test_an_illegal_move_names_the_agent():
    with pytest.raises(RuntimeError, match="'bad' in seat"):
        tournament(Gridlock, {"bad": IllegalAgent(), "first": FirstMoveAgent()}, games=2, seed=0,
                   progress=False, rows=3, cols=3)
    with pytest.raises(ValueError, match="non-empty"):
        tournament(Gridlock, {}, games=2)
    with pytest.raises(ValueError, match="seating"):
        tournament(Gridlock, {"a": FirstMoveAgent()}, games=2, seating="swiss")


def test_wilson_interval_known_values():
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.27753), abs=1e-5)
    assert wilson_interval(5, 10) == pytest.approx((0.23659, 0.76341), abs=1e-5)
    assert wilson_interval(10, 10) == pytest.approx((0.72247, 1.0), abs=1e-5)
    assert all(math.isnan(v) for v in wilson_interval(0, 0))


def test_elo_is_the_bradley_terry_fit_on_the_elo_scale():
    # 75 to 25: odds 3, so 400 * log10(3) = 190.8 Elo apart, around 1500
    r = elo_ratings(np.array([[0, 75], [25, 0]]), prior=0)
    assert r[0] - r[1] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert r.mean() == pytest.approx(1500)
    # three agents: the MLE conditions W_i = sum_j n_ij g_i / (g_i + g_j) hold (Hunter 2004)
    w = np.array([[0, 7, 9], [3, 0, 6], [1, 4, 0]], dtype=float)
    r = elo_ratings(w, prior=0, tol=1e-13)
    g = 10 ** (r / 400)
    n = w + w.T
    expected = [(n[i] * g[i] / (g[i] + g))[np.arange(3) != i].sum() for i in range(3)]
    assert w.sum(axis=1) == pytest.approx(expected, rel=1e-7)
    # the prior keeps an unbeaten agent finite; an agent that met nobody is NaN
    r = elo_ratings(np.array([[0, 10, 0], [0, 0, 0], [0, 0, 0]]))
    assert np.isfinite(r[:2]).all() and r[0] > r[1] and math.isnan(r[2])


def test_html_text_and_plot():
    res = small(games=12)
    page = res._repr_html_()
    assert "<table" in page and "seeded" in page and "Wilson" in page
    assert "Gridlock" in str(res) and "TournamentResult" in repr(res)
    fig = res.plot()
    assert len(fig.axes) >= 2
    assert len(fig.axes[0].patches) == 3
    matplotlib.pyplot.close(fig)
