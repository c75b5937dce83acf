"""The exact simultaneous-move solver anchored outside the package: the game
tree from a position exported as an extensive-form game (a Gambit .efg file,
an OpenSpiel game) and solved by Gambit's and OpenSpiel's sequence-form
linear programs gives the value ``solve_simultaneous`` gives, to 1e-6, and the
same equilibrium payoffs.

The Block Four positions are those of ``benchmarks/data/blockfour_anchor_positions.json``
(positions reached in recorded random self-play games, the stall counter at 7 or
more, see ``benchmarks/simultaneous_anchor.py``); the smallest two are used here.
"""

from __future__ import annotations

import io
import json
import pathlib
import re

import docgames
import numpy as np
import pytest
from stacked import Stacked

import gridwidgets as gw
from gridwidgets.analysis import solve_simultaneous, stage_game
from gridwidgets.analysis.extensive import gambit_solve, openspiel_solve, to_efg, tree_size

DATA = pathlib.Path(__file__).resolve().parent.parent / "benchmarks" / "data" / "blockfour_anchor_positions.json"
TOL = 1e-6


def _positions(largest: int) -> list[dict]:
    data = json.loads(DATA.read_text())
    return [p for p in data["positions"] if p["nodes"] <= largest]


class _BoundedStacked(Stacked):
    """The tests' random stacked matrix game with the bound on its length OpenSpiel asks for."""

    def max_game_length(self) -> int:
        return 2 * self.depth  # a simultaneous node is two actions in OpenSpiel's history


@pytest.mark.parametrize("entry", _positions(2_000), ids=lambda p: f"game{p['game']}-step{p['step']}")
def test_block_four_endgames_have_the_value_gambit_and_openspiel_find(entry):
    pytest.importorskip("pygambit")
    pytest.importorskip("pyspiel")
    pytest.importorskip("cvxpy")
    g = gw.BlockFour.from_position(entry["position"])
    assert tree_size(g) == entry["nodes"]
    ours = solve_simultaneous(g, progress=False)
    ga = gambit_solve(g)
    os_ = openspiel_solve(g)
    assert ga.value == pytest.approx(ours.value, abs=TOL)
    assert os_.value == pytest.approx(ours.value, abs=TOL)
    # the equilibrium payoffs: (v, -v) from each
    np.testing.assert_allclose(ga.payoffs, (ours.value, -ours.value), atol=TOL)
    np.testing.assert_allclose(os_.payoffs, (ours.value, -ours.value), atol=TOL)


def test_the_anchor_positions_were_reached_in_their_recorded_games():
    """Each anchor position is one its game reached as played (BF-11's stall counter at 7 or more)."""
    data = json.loads(DATA.read_text())
    assert len(data["positions"]) >= 5
    assert len({p["seed"] for p in data["positions"]}) == len(data["positions"])  # one per game
    for p in data["positions"]:
        g = gw.BlockFour.from_json(p["game"])
        g.goto(p["step"])
        assert g.position() == p["position"]
        assert g.is_simultaneous_node()
        assert int(re.search(r"stall=(\d+)", p["position"]).group(1)) >= 7


@pytest.mark.parametrize("seed", range(8))
def test_random_stacked_games_with_mixed_values_agree_with_gambit_and_openspiel(seed):
    """Random stacked matrix games (tests/stacked.py): values off the grid of results, mixed equilibria."""
    pytest.importorskip("pygambit")
    pytest.importorskip("pyspiel")
    pytest.importorskip("cvxpy")
    g = _BoundedStacked(seed=seed, depth=4)
    ours = solve_simultaneous(g, progress=False)
    ga = gambit_solve(g)
    os_ = openspiel_solve(g)
    assert ga.value == pytest.approx(ours.value, abs=TOL)
    assert os_.value == pytest.approx(ours.value, abs=TOL)
    np.testing.assert_allclose(ga.payoffs, (ours.value, -ours.value), atol=TOL)
    np.testing.assert_allclose(os_.payoffs, (ours.value, -ours.value), atol=TOL)


def test_the_stacked_games_include_mixed_values():
    values = {round(solve_simultaneous(Stacked(seed=s, depth=4), progress=False).value, 6) for s in range(8)}
    assert values - {-1.0, -0.5, 0.0, 0.5, 1.0}  # some value is not a payoff: a mixed equilibrium


def test_a_one_shot_matrix_game_exports_as_the_stage_games_efg_does_and_has_its_value():
    """A stacked game of depth 1 whose root is a simultaneous node: a matrix game. Its tree is the
    one StageGame.to_efg writes (A chooses, B chooses not seeing it), and Gambit finds the value
    of the matrix game for both files."""
    pygambit = pytest.importorskip("pygambit")
    g = next(s for s in (Stacked(seed=k, depth=1) for k in range(200))
             if s.is_simultaneous_node() and len(s.legal_moves(0)) >= 2 and len(s.legal_moves(1)) >= 2
             and abs(solve_simultaneous(s, progress=False).value) not in (0.0, 0.5, 1.0))
    m, n = len(g.legal_moves(0)), len(g.legal_moves(1))
    text = to_efg(g)
    assert tree_size(g) == 1 + m + m * n
    lines = text.splitlines()
    assert lines[0].startswith("EFG 2 R ") and lines[0].endswith('{ "A" "B" }')
    assert lines[3].startswith('p "" 1 1 ')
    assert sum(1 for ln in lines if ln.startswith('p "" 2 1 ')) == m  # B's one information set
    assert sum(1 for ln in lines if ln.startswith("t ")) == m * n
    sol = solve_simultaneous(g, progress=False, root_matrix=True)
    stage = stage_game(sol.root.lower)
    for efg in (text, stage.to_efg()):
        game = pygambit.read_efg(io.StringIO(efg))
        eq = pygambit.nash.lp_solve(game, rational=True).equilibria[0]
        assert float(eq.payoff(next(iter(game.players)))) == pytest.approx(sol.value, abs=1e-12)
    assert stage.equilibrium().value == pytest.approx(sol.value, abs=1e-9)


def test_a_big_tree_is_refused_quickly_naming_its_size():
    g = gw.BlockFour(seed=1)
    with pytest.raises(ValueError, match="more than 1,000 nodes"):
        to_efg(g, max_nodes=1_000)
    with pytest.raises(ValueError, match="more than 1,000 nodes"):
        tree_size(g, max_nodes=1_000)


def test_the_mcts_games_endgames_are_out_of_reach_of_a_tree():
    """Why the anchor positions come from games where the stall counter ran high: the last turn's bid
    of a recorded MCTS game has a tree of more than 10^7 nodes (chains of matched bids, BF-6, BF-11)."""
    games = json.loads((DATA.parent / "blockfour_games.json").read_text())["games"]
    g = gw.BlockFour.from_json(games[17])
    last = max(i for i in range(g.step_count) if _bid_at(g, i))
    w = g.copy()
    w.goto(last)
    with pytest.raises(ValueError, match="more than 10,000,000 nodes"):
        tree_size(gw.BlockFour.from_position(w.position()), max_nodes=10_000_000)


def _bid_at(game: gw.BlockFour, step: int) -> bool:
    w = game.copy()
    w.goto(step)
    return w.is_simultaneous_node()


def test_bad_arguments_are_refused():
    claim = docgames.load()["Claim"](1, 2)
    with pytest.raises(ValueError, match="first"):
        to_efg(claim, first=2)
    with pytest.raises(ValueError, match="max_nodes"):
        tree_size(claim, max_nodes=0)
    with pytest.raises(TypeError):
        to_efg("blockfour")  # type: ignore[arg-type]


def test_the_openspiel_game_of_a_position_starts_there():
    pyspiel = pytest.importorskip("pyspiel")
    from gridwidgets.interop import openspiel

    entry = _positions(100)[0]
    g = gw.BlockFour.from_position(entry["position"])
    spiel = openspiel.from_position(g)
    state = spiel.new_initial_state()
    assert openspiel.to_game(state).position() == g.position() == entry["position"]
    assert state.current_player() == int(pyspiel.PlayerId.SIMULTANEOUS)
    assert spiel.num_players() == 2
    turn_based = pyspiel.convert_to_turn_based(spiel).new_initial_state()
    assert turn_based.current_player() == 0  # X bids first, then O without seeing it
    first = turn_based.information_state_string(1)
    turn_based.apply_action(turn_based.legal_actions()[0])
    assert turn_based.current_player() == 1
    other = pyspiel.convert_to_turn_based(spiel).new_initial_state()
    other.apply_action(other.legal_actions()[-1])
    assert turn_based.information_state_string(1) == other.information_state_string(1) != first
