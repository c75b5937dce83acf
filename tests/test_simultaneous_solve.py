"""The exact solver of games with simultaneous moves (``solve_simultaneous``):
checked against a reference backward induction written independently (nashpy's
LP, the tree of histories, no table, no pruning), against ``solve`` on
sequential games, against symmetry on the guide's Claim, and on Block Four
endgames with and without pruning."""

from __future__ import annotations

import threading

import docgames
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from stacked import Stacked, reference_value

import gridwidgets as gw
from gridwidgets.analysis import SolveBudgetExceeded, SubgamePerfectAgent, solve, solve_simultaneous

#: a Block Four endgame from a recorded game (MCTS self-play, seed 0): X to bid at turn 5,
#: 25 empty spaces, two fields each
ENDGAME = ("blockfour .X..XXOOX/.XX.XXOOX/.X..OOOOX/.OOOOOXXX/.OOOXXXXX/.OXXXXXOX/.OOOXXXOO/.O..XXX.O/......... "
           "X=LTZ/IO O=ILOTZ/- turn=5 stall=0 bid")


def _is_equilibrium(x: np.ndarray, y: np.ndarray, mat: np.ndarray, value: float, tol: float = 1e-7) -> bool:
    """Both mixes are minimax strategies of the zero-sum matrix ``mat`` whose value is ``value``."""
    return bool(np.min(x @ mat) >= value - tol and np.max(mat @ y) <= value + tol)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), depth=st.integers(1, 5), payoffs=st.sampled_from(["grid", "wl"]),
       mode=st.sampled_from([(False, 0), (True, 0), (True, 32)]))
def test_value_and_root_mixes_match_a_reference_backward_induction(seed, depth, payoffs, mode):
    game = Stacked(seed=seed, depth=depth, payoffs=payoffs)
    ref, mat = reference_value(game)
    prune, threshold = mode
    sol = solve_simultaneous(game, prune=prune, lp_threshold=threshold, progress=False)
    assert sol.value == pytest.approx(ref, abs=1e-7)
    if mat is not None:  # the root is a simultaneous node: its mixes are minimax strategies of the true matrix
        assert sol.root is not None
        assert _is_equilibrium(sol.root.x, sol.root.y, mat, ref)
        assert sol.root.x.sum() == pytest.approx(1) and sol.root.y.sum() == pytest.approx(1)


def test_without_pruning_every_joint_action_of_the_root_is_valued_exactly():
    for seed in range(40):
        game = Stacked(seed=seed, depth=4)
        _ref, mat = reference_value(game)
        if mat is None:
            continue
        sol = solve_simultaneous(game, prune=False, progress=False)
        assert sol.root is not None and bool(sol.root.exact.all())
        np.testing.assert_allclose(sol.root.matrix, mat, atol=1e-9)
        assert sol.root.exploitability(sol.root.x, 0) == pytest.approx(0, abs=1e-7)
        assert sol.root.exploitability(sol.root.y, 1) == pytest.approx(0, abs=1e-7)


def test_pruning_searches_fewer_positions_on_random_games():
    full = pruned = 0
    for seed in range(30):
        game = Stacked(seed=seed, depth=6, payoffs="wl")
        full += solve_simultaneous(game, prune=False, progress=False).nodes
        pruned += solve_simultaneous(game, prune=True, lp_threshold=0, progress=False).nodes
    assert pruned < full


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3), (3, 3)])
def test_a_sequential_game_gets_the_value_solve_finds(rows, cols):
    g = gw.Gridlock(rows=rows, cols=cols)
    exact = solve(g, progress=False)
    sol = solve_simultaneous(g, progress=False)
    sign = 1 if exact.player == 0 else -1
    assert sol.value == pytest.approx(sign * exact.value)
    assert sol.root is None
    best = {m for m, v in sol.move_values.items() if v == pytest.approx(sol.value)}
    assert set(sol.best_moves) == best == set(exact.best_moves)


@pytest.mark.parametrize("rows, cols", [(1, 2), (1, 3), (2, 2)])
def test_claim_is_worth_nothing_to_either_player_by_symmetry(rows, cols):
    """Claim's two players have the same choices and payoffs with the roles swapped,
    so its value v equals -v: 0; and each player's root mix must guarantee 0."""
    claim = docgames.load()["Claim"]
    sol = solve_simultaneous(claim(rows, cols), prune=False, progress=False)
    assert sol.value == pytest.approx(0, abs=1e-9)
    mat = sol.root.matrix
    np.testing.assert_allclose(mat, -mat.T, atol=1e-9)  # the matrix game is symmetric too
    assert _is_equilibrium(sol.root.x, sol.root.y, mat, 0.0)


def test_a_block_four_endgame_from_a_recorded_game_is_solved_the_same_with_and_without_pruning():
    g = gw.BlockFour.from_position(ENDGAME)
    fast = solve_simultaneous(g, progress=False)
    slow = solve_simultaneous(g, progress=False, lp_threshold=0)
    assert fast.value == pytest.approx(slow.value, abs=1e-9)
    assert fast.root is not None and fast.root.rows == [str(b) for b in g.legal_moves(0)]
    # the principal line ends the game, with the result the value promises (+1: X wins)
    line = fast.line()
    w = g.copy()
    for text, _ in line:
        if " + " in text:
            a, b = text.split(" + ")
            w.play(a, player=0)
            w.play(b, player=1)
        else:
            w.play(text)
    assert w.is_over
    if fast.value == pytest.approx(1):
        assert w.winners == (0,)
    elif fast.value == pytest.approx(-1):
        assert w.winners == (1,)


def test_node_solves_a_later_position_with_the_same_table():
    g = Stacked(seed=3, depth=5)
    sol = solve_simultaneous(g, progress=False)
    w = g.copy()
    while w.current_player is not None and not w.is_simultaneous_node():
        w.play(w.legal_moves()[0])
    if w.current_player is None:
        pytest.skip("no simultaneous node on this line")
    node = sol.node(w)
    ref, mat = reference_value(w)
    assert node.value == pytest.approx(ref, abs=1e-7)
    assert _is_equilibrium(node.x, node.y, mat, ref)


def test_a_submission_already_in_changes_nothing():
    g = gw.BlockFour.from_position(ENDGAME)
    before = solve_simultaneous(g, progress=False).value
    g.play(g.legal_moves(0)[0], player=0)  # X's bid, hidden: the node's game is the same
    assert solve_simultaneous(g, progress=False).value == pytest.approx(before)
    assert g.pending == (0,)  # and the game is untouched


def test_games_it_cannot_solve_are_refused_saying_why():
    with pytest.raises(ValueError, match="4 players"):
        solve_simultaneous(gw.GridMaster4(size=6), progress=False)
    with pytest.raises(TypeError):
        solve_simultaneous("Gridlock", progress=False)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="lp_threshold"):
        solve_simultaneous(gw.Gridlock(rows=2, cols=2), lp_threshold=-1, progress=False)


def test_the_budget_and_a_stop_event_end_the_search():
    big = gw.BlockFour(seed=1)
    with pytest.raises(SolveBudgetExceeded) as info:
        solve_simultaneous(big, max_nodes=5_000, progress=False)
    assert info.value.budget == "max_nodes"
    stop = threading.Event()
    stop.set()
    with pytest.raises(SolveBudgetExceeded) as info:
        solve_simultaneous(big, stop=stop, progress=False)
    assert info.value.budget == "stop"


# ----------------------------------------------------------------------
# SubgamePerfectAgent
# ----------------------------------------------------------------------
def test_the_agent_bids_from_the_exact_mix_and_wins_a_won_endgame_against_anyone():
    from gridwidgets.agents import RandomAgent

    g = gw.BlockFour.from_position(ENDGAME)
    sol = solve_simultaneous(g, progress=False)
    winner = 0 if sol.value == pytest.approx(1) else 1 if sol.value == pytest.approx(-1) else None
    assert winner is not None  # this endgame is decided (its value is +1 or -1)
    for seed in range(3):
        agents = {winner: SubgamePerfectAgent(time_limit=30, seed=seed), 1 - winner: RandomAgent(seed=seed)}
        w = g.copy()
        exact = []
        while not w.is_over:
            for p in w.players_to_move:
                move = agents[p].choose(w.view_for(p) if w.is_simultaneous_node() else w)
                if p == winner:
                    exact.append(agents[p].last_exact)
                w.play(move, player=p)
        assert w.winners == (winner,)
        assert all(exact)


def test_the_agent_draws_each_choice_from_the_solved_mix():
    game = next(Stacked(seed=s, depth=3) for s in range(100)
                if solve_simultaneous(Stacked(seed=s, depth=3), progress=False).root is not None
                and max(solve_simultaneous(Stacked(seed=s, depth=3), progress=False).root.x) < 0.99)
    root = solve_simultaneous(game, progress=False).root
    counts = {lab: 0 for lab in root.rows}
    for seed in range(400):
        agent = SubgamePerfectAgent(seed=seed)
        counts[str(agent.choose(game, player=0))] += 1
        assert agent.last_exact and agent.last_node is not None
    for lab, p in zip(root.rows, root.x, strict=True):
        assert counts[lab] / 400 == pytest.approx(p, abs=0.1)  # 400 draws: 3 standard errors at most 0.075
        if p == 0:
            assert counts[lab] == 0


def test_the_agent_falls_back_to_search_where_the_solver_runs_out_of_time():
    from gridwidgets.agents import RandomAgent

    g = gw.BlockFour(seed=1)  # turn 1: far too large to solve
    agent = SubgamePerfectAgent(time_limit=0.05, fallback=RandomAgent(seed=0))
    bid = agent.choose(g)
    assert bid in g.legal_moves(0) and not agent.last_exact
    with pytest.raises(ValueError, match="4 players"):
        SubgamePerfectAgent().choose(gw.GridMaster4(size=6))
    with pytest.raises(ValueError, match="time_limit"):
        SubgamePerfectAgent(time_limit=0)
