"""Simultaneous-move MCTS (gridwidgets.agents.smmcts; Lisý, Kovařík, Lanctot &
Bošanský, NeurIPS 2013): its root mean strategy, measured against the exact
solver's matrix (``SimultaneousNode.exploitability``), is closer to an
equilibrium after more simulations; a seed fixes everything; the agent plays
legal moves; games it cannot take are refused."""

from __future__ import annotations

import docgames
import pytest
import stacked
from test_blockfour_endgames import MATCH_THREE

import gridwidgets as gw
from gridwidgets.agents import SMMCTSAgent
from gridwidgets.agents.smmcts import sm_mcts
from gridwidgets.analysis import solve_simultaneous


def _nashconv(node, result) -> float:
    """Both players' exploitability of the result's root mix, by the exact matrix (payoff units)."""
    return sum(node.exploitability(result.mean[p], p) for p in (0, 1))


def test_rm_and_exp3_on_claim_are_nearly_an_equilibrium_after_2000_simulations_and_far_from_one_after_20():
    claim = docgames.load()["Claim"](2, 2)  # value 0: both claim B2 (the 4x4 root's only equilibrium)
    node = solve_simultaneous(claim, root_matrix=True, progress=False).root
    for selection, seed in (("rm", 1), ("exp3", 0)):
        res = sm_mcts(claim, 2000, selection=selection, seed=seed, record=[20, 2000])
        (_, tiny), (_, big) = res.details["history"]
        small, large = _nashconv(node, tiny), _nashconv(node, big)
        assert small > 1.0, (selection, small)
        assert large < 0.15 and large < small / 5, (selection, small, large)
        assert big.mean == res.mean  # the last mark is the result itself


def test_rm_on_a_stacked_game_with_a_mixed_root_comes_closer_to_its_equilibrium():
    g = stacked.Stacked(seed=23, depth=4, hashes=8)  # 2x2 root, value 0.6: (0.8, 0.2) against (0.2, 0.8)
    node = solve_simultaneous(g, root_matrix=True, progress=False).root
    assert node.x.tolist() == pytest.approx([0.8, 0.2]) and node.y.tolist() == pytest.approx([0.2, 0.8])
    small, large = [], []
    for seed in range(3):
        res = sm_mcts(g, 3000, selection="rm", seed=seed, record=[20])
        small.append(_nashconv(node, res.details["history"][0][1]))
        large.append(_nashconv(node, res))
    assert sum(large) / 3 < 0.5 and sum(large) < sum(small), (small, large)


def test_the_same_seed_gives_the_same_search_and_another_seed_another():
    claim = docgames.load()["Claim"](1, 3)
    a = sm_mcts(claim, 300, seed=4)
    b = sm_mcts(claim, 300, seed=4)
    c = sm_mcts(claim, 300, seed=5)
    assert (a.mean, a.visits, a.value) == (b.mean, b.visits, b.value)
    assert (a.visits, a.value) != (c.visits, c.value)
    assert a.rows == a.cols == ["A1", "B1", "C1"] and sum(a.mean[0]) == pytest.approx(1.0)
    assert a.stderr > 0 and -1 <= a.value <= 1


def test_exploration_removed_is_the_kept_mean_without_its_uniform_share():
    claim = docgames.load()["Claim"](1, 3)
    gamma = 0.2
    res = sm_mcts(claim, 400, gamma=gamma, seed=2)
    kept = sm_mcts(claim, 400, gamma=gamma, seed=2, exploration="kept")
    assert res.kept == kept.mean == kept.kept
    for p in (0, 1):
        raw = [max(0.0, (q - gamma / 3) / (1 - gamma)) for q in kept.mean[p]]
        assert res.mean[p] == pytest.approx([q / sum(raw) for q in raw])


def test_the_agent_plays_legal_bids_and_placements_in_a_block_four_endgame():
    g = gw.BlockFour.from_position(MATCH_THREE)
    agents = [SMMCTSAgent(iterations=60, seed=0), SMMCTSAgent(iterations=60, seed=1)]
    while not g.is_over:
        for p in g.players_to_move:
            move = agents[p].choose(g.view_for(p), player=p)
            assert move in g.legal_moves(p)
            g.play(move, player=p)
    # the same seed in the same position: the same choice, also for the second bidder's view
    h = gw.BlockFour.from_position(MATCH_THREE)
    h.play(h.legal_moves(0)[0], player=0)
    one = SMMCTSAgent(iterations=60, seed=3).choose(h.view_for(1), player=1)
    two = SMMCTSAgent(iterations=60, seed=3).choose(h.view_for(1), player=1)
    assert one == two and one in h.legal_moves(1)


def test_games_it_cannot_take_and_bad_settings_are_refused():
    with pytest.raises(ValueError, match="4 players"):
        sm_mcts(gw.GridMaster4(size=6), 10)
    with pytest.raises(ValueError, match="4 players"):
        SMMCTSAgent(iterations=10).choose(gw.GridMaster4(size=6))
    general = type("GeneralSumClaim", (docgames.load()["Claim"],), {
        "game_type": gw.core.GameType(short_name="claim_gs", long_name="General-sum claim",
                                      dynamics=gw.core.Dynamics.SIMULTANEOUS,
                                      information=gw.core.Information.IMPERFECT,
                                      utility=gw.core.Utility.GENERAL_SUM)})
    with pytest.raises(ValueError, match="general-sum"):
        sm_mcts(general(1, 2), 10)
    with pytest.raises(ValueError, match="selection"):
        sm_mcts(gw.Gridlock(rows=2, cols=2), 10, selection="ucb")
    with pytest.raises(ValueError, match="gamma"):
        SMMCTSAgent(gamma=0)
    with pytest.raises(ValueError, match="iterations"):
        SMMCTSAgent(iterations=0)
    with pytest.raises(TypeError):
        sm_mcts("claim", 10)  # type: ignore[arg-type]


def test_a_sequential_root_gives_the_movers_mix_and_the_agent_plays_the_most_visited_move():
    g = gw.Gridlock(rows=2, cols=3)
    res = sm_mcts(g, 300, seed=0)
    assert not res.joint and res.moves[1] == [] and res.mix(1) == {}
    assert sorted(res.moves[0]) == sorted(str(m) for m in g.legal_moves())
    agent = SMMCTSAgent(iterations=300, seed=0)
    assert str(agent.choose(g)) == agent.last_result.most_visited(0)
