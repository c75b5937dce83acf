"""The bridges to OpenSpiel, PettingZoo and Gymnasium, for every registered game (real packages, no mocks)."""

from __future__ import annotations

import functools
import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import gridwidgets as gw
from gridwidgets.core import CellMove, Game, GameType, registry
from gridwidgets.core.actions import action_space, observation_tensor
from gridwidgets.core.gametype import Dynamics, Information, MoveKind

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability, mcts, minimax  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test  # noqa: E402
from pettingzoo.test.seed_test import parallel_seed_test  # noqa: E402

from gridwidgets.interop import export, openspiel, pettingzoo  # noqa: E402
from gridwidgets.interop import gymnasium as gw_gym  # noqa: E402

#: small options of each game: quick to play out
SMALL = {
    "gridlock": [dict(rows=3, cols=3), dict(rows=4, cols=5)],
    "gridmaster4": [dict(size=6, tiles=8), dict(size=5, players=2, tiles=6, deactivate="all")],
    "blockfour": [dict(seed=3), dict(x_table=("I", "Z"))],
    "gridbloc": [dict(size=4), dict(size=5, walls=["B2|C2"], holes=["E5"])],
}
CASES = [(name, opts) for name, many in SMALL.items() for opts in many]
IDS = [f"{name}-{i}" for name, many in SMALL.items() for i in range(len(many))]


def test_the_small_options_cover_every_registered_game():
    assert set(SMALL) == set(registry.names())


def test_importing_gridwidgets_imports_no_framework():
    code = ("import sys, gridwidgets, gridwidgets.agents; "
            "print(sorted(m for m in ('pyspiel', 'pettingzoo', 'gymnasium', 'pyarrow', 'resvg_py') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize(("module", "extra"), [("openspiel", "openspiel"), ("pettingzoo", "rl"), ("gymnasium", "rl")])
def test_a_missing_framework_says_what_to_install(module, extra):
    blocked = {"openspiel": "pyspiel", "pettingzoo": "pettingzoo", "gymnasium": "gymnasium"}[module]
    code = (f"import sys; sys.modules[{blocked!r}] = None\n"
            f"try:\n    import gridwidgets.interop.{module}\n"
            "except ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert f'gridwidgets[{extra}]' in out


# -- actions and observations ----------------------------------------------------------
@pytest.mark.parametrize(("name", "opts"), CASES, ids=IDS)
def test_every_legal_move_has_one_action_and_comes_back(name, opts):
    rng = random.Random(0)
    for _ in range(3):
        g = registry.make(name, **opts)
        space = action_space(g)
        assert all(len(m) == space.num_actions for m in space.moves)
        while not g.is_over:
            for p in g.players_to_move:
                legal = g.legal_moves(p)
                actions = space.legal_actions(g, p)
                assert len(set(actions)) == len(legal)
                assert {str(space.move(a, p)) for a in actions} == {str(m) for m in legal}
                assert space.mask(g, p).sum() == len(legal)
            p = g.players_to_move[0]
            g.play(rng.choice(g.legal_moves(p)), player=p)


def test_bf3_block_four_numbers_its_bids_and_placements():
    g = gw.BlockFour(seed=1)
    space = action_space(g)
    assert space.num_actions == 10 + 5 + 2 * 54 + 8 * 8 + 8 * 56 + 4 * 56 + 4 * 56
    assert space.names[0][:4] == ("IL", "IO", "IT", "IZ")
    assert space.action("OI", 1, g) == space.action("IO", 1, g)  # another spelling of the same bid (BF-12)
    with pytest.raises(gw.IllegalMoveError, match="C-2"):
        space.move(space.num_actions, 0)


def test_a_game_with_unlisted_moves_says_how_to_number_them():
    class Lines(gw.Gridlock):
        game_type = GameType("interop_lines", "Lines", move_kinds=(MoveKind.EDGE,))
        all_moves = Game.all_moves  # the protocol's default, which only numbers cells

    with pytest.raises(NotImplementedError, match="all_moves"):
        action_space(Lines())


def test_bf5_the_observation_never_shows_a_hidden_bid():
    seen = []
    for bid in ("IL", "OT"):
        g = gw.BlockFour(x_table=("L", "T"))
        before = observation_tensor(g, 1)
        g.play("IO" if bid == "IL" else "IZ", player=0)
        seen.append(observation_tensor(g, 1))
        assert not np.array_equal(before, seen[-1])  # that X has bid shows
    assert np.array_equal(seen[0], seen[1])  # what X bid does not


def test_the_observation_tells_the_whole_position():
    # the same owners, tiles 1 and 2 swapped (GM-4): two positions, two observations
    a, b = gw.GridMaster4(size=6, players=2, tiles=8), gw.GridMaster4(size=6, players=2, tiles=8)
    for g, moves in ((a, ["A1", "F6", "D1"]), (b, ["D1", "F6", "A1"])):
        for m in moves:
            g.play(m)
    assert not np.array_equal(observation_tensor(a, 0), observation_tensor(b, 0))
    assert observation_tensor(a, 0).dtype == np.float32
    assert 0 <= observation_tensor(a, 0).min() and observation_tensor(a, 0).max() <= 1


# -- OpenSpiel ------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "opts"), CASES, ids=IDS)
def test_random_sim_test_with_serialization(name, opts):
    game = openspiel.load(name, **opts)
    pyspiel.random_sim_test(game, num_sims=2 if name == "blockfour" else 5, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "opts"), CASES, ids=IDS)
def test_the_game_type_is_read_from_our_metadata(name, opts):
    game = openspiel.load(name, **opts)
    ours = registry.make(name, **opts)
    t, gt = game.get_type(), ours.game_type
    assert t.short_name == "gridwidgets_" + name
    sim = gt.dynamics is Dynamics.SIMULTANEOUS
    assert (t.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS) == sim
    assert (t.information == pyspiel.GameType.Information.PERFECT_INFORMATION) == (
        gt.information is Information.PERFECT)
    assert game.num_players() == ours.num_players
    assert game.max_game_length() == ours.max_game_length()
    assert game.num_distinct_actions() == action_space(ours).num_actions
    # the game string makes the same game again (the serialization of random_sim_test relies on it)
    again = pyspiel.load_game(str(game))
    assert again.gw_game.options() == ours.options()


def test_bf4_the_seeded_setup_is_a_fixed_parameter():
    a, b = openspiel.load("blockfour", seed=3), pyspiel.load_game("gridwidgets_blockfour", {"seed": 3})
    assert a.gw_game.x_table == b.gw_game.x_table == gw.BlockFour(seed=3).x_table
    assert a.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC


def test_bf5_a_bid_turn_is_one_simultaneous_node_and_stays_whole_when_refused():
    state = openspiel.load("blockfour", x_table=("L", "T")).new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    assert state.is_simultaneous_node()
    legal0, legal1 = state.legal_actions(0), state.legal_actions(1)
    assert len(legal0) == 3 and len(legal1) == 10
    with pytest.raises(gw.IllegalMoveError, match="BF-5"):
        state.apply_actions([0, legal1[0]])  # X does not hold L
    with pytest.raises(gw.IllegalMoveError, match="C-2"):
        state.apply_actions([legal0[0], 5000])  # X's bid went in, O's is no action: X's is withdrawn
    assert state.gw.pending == () and state.history() == []
    state.apply_actions([legal0[0], legal1[0]])
    assert len(state.gw.steps) == 1 and state.gw.steps[0].players == (0, 1)


def test_strings_hide_nothing_the_rules_show_and_recall_the_history():
    game = openspiel.load("gridlock", rows=3, cols=3)
    state = game.new_initial_state()
    state.apply_action(4)
    assert "X" in state.observation_string(1) and "B2" in state.information_state_string(1)
    assert len(state.information_state_tensor(0)) == len(state.observation_tensor(0)) + game.max_game_length()


@pytest.mark.parametrize(("rows", "cols"), [(2, 3), (3, 3), (3, 4)])
def test_gl_alpha_beta_of_openspiel_agrees_with_our_solver(rows, cols):
    value, _ = minimax.alpha_beta_search(openspiel.load("gridlock", rows=rows, cols=cols), maximizing_player_id=0)
    ours = gw.analysis.solve(gw.Gridlock(rows=rows, cols=cols))
    assert value == ours.value


@pytest.mark.parametrize(("name", "opts"), [("gridlock", dict(rows=4, cols=4)), ("gridmaster4", dict(size=6, tiles=8))])
def test_openspiel_mcts_plays_whole_games(name, opts):
    game = openspiel.load(name, **opts)
    bot = mcts.MCTSBot(game, 1.4, 30, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(0))
    state = game.new_initial_state()
    while not state.is_terminal():
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    ours = openspiel.to_game(state)
    assert ours.is_over and list(ours.returns()) == state.returns()


class BidTurn(Game):
    """A user's own simultaneous game: one Block Four bid turn (BF-5), each pair
    of bids worth the value of Block Four's stage matrix (its rollout value)."""

    game_type = GameType("interop_bid_turn", "One bid turn", dynamics=Dynamics.SIMULTANEOUS,
                         information=Information.IMPERFECT, move_kinds=(MoveKind.CHOICE,))
    players = ("X", "O")
    stage = gw.analysis.equilibrium(gw.BlockFour(seed=3))

    def __init__(self) -> None:
        super().__init__()
        self._done: tuple[str, str] | None = None

    def options(self) -> dict[str, Any]:
        return {}

    def all_moves(self, player: int) -> list[str]:
        return list(self.stage.cols)  # every pair of cards; X's hand holds fewer (its legal moves)

    def parse_move(self, value: Any, player: int | None = None) -> str:
        return str(value)

    def legal_moves(self, player: int | None = None) -> list[str]:
        if player is None:
            player = self.current_player
        if player is None or player in self._pending:
            return []
        return list(self.stage.rows if player == 0 else self.stage.cols)

    def _simultaneous(self) -> tuple[int, ...]:
        return () if self._done else (0, 1)

    def _check(self, move: Any) -> None:
        return None

    def _check_submission(self, move: Any, player: int) -> None:
        if move not in (self.stage.rows if player == 0 else self.stage.cols):
            raise gw.IllegalMoveError(f"{move} is not a bid of this hand", rule="BF-5")

    def _apply(self, move: Any) -> None:  # pragma: no cover - every node is simultaneous
        raise AssertionError

    def _apply_joint(self, moves: tuple[Any, ...]) -> None:
        self._done = (moves[0], moves[1])

    def _snapshot(self) -> Any:
        return self._done

    def _restore(self, snapshot: Any) -> None:
        self._done = snapshot

    @property
    def current_player(self) -> int | None:
        return self._first_to_submit()

    def returns(self) -> tuple[float, ...]:
        if not self._done:
            return (0.0, 0.0)
        i, j = self.stage.rows.index(self._done[0]), self.stage.cols.index(self._done[1])
        v = float(self.stage.matrix[i, j])
        return (v, -v)

    @property
    def winners(self) -> tuple[int, ...]:
        if not self._done:
            return ()
        v = self.returns()[0]
        return (0,) if v > 0 else (1,) if v < 0 else (0, 1)

    @property
    def scores(self) -> tuple[int, ...]:
        return (0, 0)

    @property
    def board(self) -> np.ndarray:
        return np.full((1, 1), -1, dtype=np.int8)

    def max_game_length(self) -> int:
        return 2


@pytest.fixture
def bid_turn():
    registry.register(BidTurn)
    yield BidTurn
    registry.unregister("interop_bid_turn")


def test_bf5_cfr_on_a_bid_turn_finds_our_equilibrium_value(bid_turn):
    game = openspiel.load("interop_bid_turn")
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    turn_based = pyspiel.convert_to_turn_based(game)
    solver = cfr.CFRPlusSolver(turn_based)
    for _ in range(300):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    value = expected_game_score.policy_value(turn_based.new_initial_state(), [policy] * 2)[0]
    assert exploitability.nash_conv(turn_based, policy) < 0.02
    assert value == pytest.approx(BidTurn.stage.value, abs=0.01)


def test_to_game_and_from_game_are_inverse():
    rng = random.Random(2)
    for name, opts in CASES:
        g = registry.make(name, **opts)
        for _ in range(6):
            if g.is_over:
                break
            p = g.players_to_move[0]
            g.play(rng.choice(g.legal_moves(p)), player=p)
        state = openspiel.from_game(g)
        back = openspiel.to_game(state)
        assert back == g and back is not g
        # a state rebuilt from its serialization converts too
        _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(state.get_game(), state))
        assert openspiel.to_game(again) == g


def test_an_openspiel_bot_sits_on_a_seat_of_the_live_board():
    g = gw.Gridlock(rows=4, cols=4)
    bot = mcts.MCTSBot(openspiel.load("gridlock", rows=4, cols=4), 1.4, 20,
                       mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), random_state=np.random.RandomState(1))
    w = g.widget(agents={1: gw.agents.OpenSpielAgent(bot)})
    w._handle_custom_msg({"type": "play", "move": "B2", "version": w.state["version"], "player": 0}, [])
    if w.state["agent_to_move"]:
        w.step()
    assert len(g.history) == 2 and g.current_player == 0  # the person clicked, the bot answered


def test_an_openspiel_bot_bids_in_block_four():
    g = gw.BlockFour(seed=3)
    agent = gw.agents.OpenSpielAgent(pyspiel.make_uniform_random_bot(1, 7))
    g.play(g.legal_moves(0)[0], player=0)
    bid = agent.choose(g.view_for(1))
    assert bid in g.legal_moves(1)


# -- PettingZoo and Gymnasium ---------------------------------------------------------------
@pytest.mark.parametrize(("name", "opts"), CASES, ids=IDS)
def test_pettingzoo_api_seed_and_render(name, opts):
    api_test(pettingzoo.env(name, **opts), num_cycles=100)
    seed_test(functools.partial(pettingzoo.env, name, **opts), num_cycles=30)
    render_test(functools.partial(pettingzoo.env, name, **opts),
                custom_tests={"svg": lambda r: r.startswith("<svg"), "ansi": lambda r: "\n" in r})


@pytest.mark.parametrize(("name", "opts"), CASES, ids=IDS)
def test_pettingzoo_parallel_api(name, opts):
    parallel_api_test(pettingzoo.parallel_env(name, **opts), num_cycles=100)
    parallel_seed_test(functools.partial(pettingzoo.parallel_env, name, illegal="lose", **opts), num_cycles=30)


def test_bf5_the_parallel_env_takes_both_bids_in_one_step():
    env = pettingzoo.parallel_env("blockfour", x_table=("L", "T"))
    obs, _ = env.reset()
    assert obs["player_0"]["action_mask"].sum() == 3 and obs["player_1"]["action_mask"].sum() == 10
    a0 = int(np.flatnonzero(obs["player_0"]["action_mask"])[0])
    a1 = int(np.flatnonzero(obs["player_1"]["action_mask"])[0])
    env.step({"player_0": a0, "player_1": a1})
    assert env.game.steps[0].players == (0, 1)


def test_bf5_the_aec_env_hides_the_first_bid_from_the_second_bidder():
    views = []
    for pick in (0, 2):
        env = pettingzoo.env("blockfour", x_table=("L", "T"))
        env.reset()
        legal = np.flatnonzero(env.observe("player_0")["action_mask"])
        env.step(int(legal[pick]))
        assert env.agent_selection == "player_1"
        views.append(env.observe("player_1")["observation"])
    assert np.array_equal(*views)


def test_an_illegal_action_raises_or_ends_the_episode():
    env = pettingzoo.env("gridlock", rows=3, cols=3)
    env.reset()
    env.step(4)
    with pytest.raises(gw.IllegalMoveError, match="GL"):
        env.step(4)
    assert len(env.game.history) == 1
    env = pettingzoo.env("gridlock", rows=3, cols=3, illegal="lose")
    env.reset()
    env.step(4)
    env.step(4)
    assert all(env.terminations.values()) and env.rewards["player_1"] == -1.0


@pytest.mark.parametrize(("name", "opts"), CASES, ids=IDS)
@pytest.mark.parametrize("seat", [0, 1])
def test_gymnasium_env_checker(name, opts, seat):
    check_env(gw_gym.env(name, seat=seat, **opts), skip_render_check=False)


def test_gymnasium_against_an_agent_to_the_end():
    env = gw_gym.env("gridlock", opponent=gw.agents.GreedyAgent(), seat=1, rows=3, cols=3, render_mode="rgb_array")
    obs, info = env.reset(seed=0)
    assert len(env.game.history) == 1  # the opponent opened
    done, reward = False, 0.0
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[0])
        obs, reward, done, _truncated, info = env.step(action)
        assert env.observation_space.contains(obs)
    assert reward == env.game.returns()[1]
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.shape[2] == 3 and frame.std() > 0


# -- export -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "opts"), CASES, ids=IDS)
def test_actions_replay_to_the_same_game(name, opts):
    g = registry.make(name, **opts)
    Game._rollout(g, random.Random(5))  # through play(): the history is kept
    again = export.replay(name, export.actions_of(g), **g.options())
    assert again == g
    # the same numbers as OpenSpiel's own history of the game
    state = openspiel.from_game(g)
    assert [(x.player, x.action) for x in state.full_history()] == export.actions_of(g)
    frame = export.history_frame(g)
    assert len(frame) == len(g.steps) and " ".join(frame.move) .count("+") == sum(
        1 for s in g.steps if s.players is not None)


@pytest.mark.parametrize(("name", "opts"), CASES, ids=IDS)
def test_the_batch_holds_the_games_simulate_plays(name, opts):
    opts = {k: v for k, v in opts.items() if k != "seed"}  # the batch's seed draws the setups
    frame = export.games_frame(name, 8, seed=4, progress=False, **opts)
    sims = registry.get(name).simulate(8, seed=4, progress=False, **opts)
    for col in sims.columns:
        assert list(frame[col]) == list(sims[col]), col


def test_a_batch_of_games_as_a_frame_and_a_parquet_file(tmp_path):
    frame = export.games_frame("blockfour", 6, seed=4, progress=False)
    path = export.write_parquet(frame, tmp_path / "games.parquet")
    back = export.read_parquet(path)
    assert list(back.winners) == list(frame.winners) and list(back.moves) == list(frame.moves)
    row = back.iloc[2]
    g = export.replay("blockfour", list(zip(row.action_players, row.actions, strict=True)),
                      **__import__("json").loads(row.options))
    assert [str(m) for m in g.history] == list(row.moves)


def test_a_cell_game_of_ones_own_crosses_every_bridge():
    from tests.test_conformance import Line

    registry.register(Line, replace=True)
    try:
        name = Line.game_type.short_name
        game = openspiel.load(name)
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
        api_test(pettingzoo.env(name), num_cycles=50)
        check_env(gw_gym.env(name))
        assert isinstance(action_space(Line()).moves[0][0], CellMove)
    finally:
        registry.unregister(Line.game_type.short_name)
