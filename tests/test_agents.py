"""Agents: Greedy, MCTS (UCT, decoupled UCT for Block Four's bids) and alpha-beta.

Every agent returns a legal move and leaves the game alone; seeded agents
reproduce; the searches find a win in one; alpha-beta agrees with plain
minimax on small boards; the bid phase with a hidden bid works; the time
budget holds roughly; alpha-beta refuses what it cannot play.
"""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridwidgets as gw
from gridwidgets.agents import AlphaBetaAgent, GreedyAgent, MCTSAgent, RandomAgent

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ----------------------------------------------------------------------
# Random positions of every game (small boards)
# ----------------------------------------------------------------------
def random_moves(g: gw.Game, k: int, rng: random.Random) -> gw.Game:
    """Play up to ``k`` random legal moves; in Block Four's bid phase either
    player may bid first (so the other's bid is pending and hidden)."""
    for _ in range(k):
        if g.is_over:
            break
        if isinstance(g, gw.BlockFour) and g.phase == "bid":
            who = [p for p in (0, 1) if not g.pending_bids[p]]
            p = who[rng.randrange(len(who))]
            moves = g.legal_moves(p)
            g.play(moves[rng.randrange(len(moves))], player=p)
            continue
        moves = g.legal_moves()
        if isinstance(g, gw.GridBloc) and g.phase == "setup":
            moves = [m for m in moves if str(m) == "done"]
        g.play(moves[rng.randrange(len(moves))])
    return g


@st.composite
def positions(draw, games=("gridlock", "gridmaster4", "blockfour", "gridbloc")):
    gid = draw(st.sampled_from(games))
    rng = random.Random(draw(st.integers(0, 2**20)))
    if gid == "gridlock":
        g: gw.Game = gw.Gridlock(draw(st.integers(2, 5)), draw(st.integers(2, 5)))
        k = draw(st.integers(0, 12))
    elif gid == "gridmaster4":
        g = gw.GridMaster4(
            size=draw(st.integers(4, 8)), players=draw(st.integers(1, 4)), tiles=draw(st.integers(2, 10))
        )
        k = draw(st.integers(0, 20))
    elif gid == "blockfour":
        g = gw.BlockFour(seed=draw(st.integers(0, 1000)))
        k = draw(st.integers(0, 30))
    else:
        g = gw.GridBloc(size=draw(st.integers(2, 5)))
        k = draw(st.integers(0, 25))
    random_moves(g, k, rng)
    if g.is_over:
        g.undo()  # every example has a player to act
    return g


def agents_for(g: gw.Game, seed: int = 0) -> list:
    out = [RandomAgent(seed), GreedyAgent(seed), MCTSAgent(simulations=25, seed=seed)]
    if g.game_id in ("gridlock", "gridbloc"):
        out.append(AlphaBetaAgent(depth=2, seed=seed))
    return out


def state(g: gw.Game) -> tuple:
    return (g.to_json(), g.version, str(g), g.current_player)


@FAST
@given(positions())
def test_every_agent_plays_a_legal_move_and_changes_nothing(g):
    p = g.current_player
    assert p is not None
    legal = {str(m) for m in g.legal_moves()}
    view = g.view_for(p)  # what a widget gives an agent seat
    for agent in agents_for(g):
        before_g, before_v = state(g), state(view)
        move = agent.choose(view)
        assert str(move) in legal, (agent.name, str(move))
        assert state(g) == before_g and state(view) == before_v, agent.name
        g.copy().play(move, player=p)  # the widget's call


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(0, 1000))
def test_seeded_agents_reproduce(g, seed):
    p = g.current_player
    view = g.view_for(p)
    for make in (
        lambda: GreedyAgent(seed),
        lambda: MCTSAgent(simulations=30, seed=seed),
        lambda: AlphaBetaAgent(depth=2, seed=seed),
    ):
        a, b = make(), make()
        if isinstance(a, AlphaBetaAgent) and g.game_id not in ("gridlock", "gridbloc"):
            continue
        b.choose(g.copy())  # another position first: the move depends on the position only
        first, second = a.choose(view), b.choose(view)
        assert str(first) == str(second), a.name
        if isinstance(a, MCTSAgent):
            assert a.last_stats == b.last_stats


# ----------------------------------------------------------------------
# Wins in one
# ----------------------------------------------------------------------
def gridlock_win_in_one() -> gw.Gridlock:
    """3 rows x 4 cols, X to move: of A1 B1 A2 B2 B3 only B1 leaves O no
    move (GL-4), and every other move loses."""
    g = gw.Gridlock(3, 4)
    for m in ("A3", "D2", "C3", "D1"):
        g.play(m)
    assert [str(m) for m in g.legal_moves()] == ["A1", "B1", "A2", "B2", "B3"]
    return g


def test_mcts_finds_the_win_in_one():
    g = gridlock_win_in_one()
    a = MCTSAgent(simulations=300, seed=3)
    assert str(a.choose(g)) == "B1"
    top = a.last_stats[0]
    assert top[0] == "B1" and top[2] == 1.0  # mean return for X: always a win
    assert sum(n for _, n, _ in a.last_stats) == 300


def test_alphabeta_and_greedy_find_the_win_in_one():
    g = gridlock_win_in_one()
    a = AlphaBetaAgent(depth=3)
    assert str(a.choose(g)) == "B1"
    assert a.last_value >= AlphaBetaAgent.WIN
    assert str(GreedyAgent(seed=1).choose(g)) == "B1"


def test_mcts_wins_in_one_in_gridmaster4_with_few_tiles():
    # 2 players, 3 tiles each: orange places tile 3 (its last) and wins at once (GM-8),
    # a free placement elsewhere is not owed: every legal move wins, and MCTS sees it
    g = gw.GridMaster4(size=7, players=2, tiles=3)
    for m in ("A1", "G7", "D1", "G4"):
        g.play(m)
    a = MCTSAgent(simulations=50, seed=0)
    move = a.choose(g)
    h = g.copy()
    h.play(move)
    assert h.winner == 0
    assert all(v == 1.0 for _, n, v in a.last_stats if n)


# ----------------------------------------------------------------------
# Alpha-beta against plain minimax
# ----------------------------------------------------------------------
def minimax(g: gw.Game, memo: dict | None = None) -> tuple[float, ...]:
    """Plain exhaustive minimax by returns (the mover maximises its own return)."""
    p = g.current_player
    if p is None:
        return g.returns()
    key = (g.board.tobytes(), p) if g.game_id == "gridlock" else None
    if memo is not None and key is not None and key in memo:
        return memo[key]
    best = None
    for m in g.legal_moves():
        g.play(m)
        r = minimax(g, memo)
        g.undo()
        if best is None or r[p] > best[p]:
            best = r
    if memo is not None and key is not None:
        memo[key] = best
    return best  # type: ignore[return-value]


def sign(x: float) -> int:
    return (x > 0) - (x < 0)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 3), st.integers(2, 3), st.integers(0, 4), st.integers(0, 2**16))
def test_alphabeta_agrees_with_minimax_on_small_gridlock(rows, cols, k, seed):
    g = random_moves(gw.Gridlock(rows, cols), k, random.Random(seed))
    if g.is_over:
        g.undo()
    p = g.current_player
    a = AlphaBetaAgent(depth=rows * cols, seed=seed)
    move = a.choose(g)
    value = minimax(g, {})[p]
    assert sign(a.last_value) == sign(value)
    assert abs(a.last_value) >= AlphaBetaAgent.WIN  # no draws (GL-4): solved
    h = g.copy()
    h.play(move)
    assert minimax(h, {})[p] == value  # the move keeps the game's value


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([{}, {"start": "A1"}, {"walls": ["A1|B1"]}, {"walls": ["A1|A2"], "start": "B2"}]),
       st.integers(3, 14), st.integers(0, 2**16))
def test_alphabeta_agrees_with_minimax_on_tiny_gridbloc(options, k, seed):
    # positions deep in the game (round two, or its eve), where the value is
    # decided; the roles swap between rounds, so a player may move twice (GB-7)
    g = random_moves(gw.GridBloc(size=2, **options), k, random.Random(seed))
    if g.is_over:
        g.undo()
    p = g.current_player
    a = AlphaBetaAgent(depth=40, seed=seed)
    move = a.choose(g)
    value = minimax(g)[p]
    assert sign(a.last_value) == sign(value)
    assert a.last_solved
    h = g.copy()
    h.play(move)
    assert minimax(h)[p] == value


def test_alphabeta_handles_the_same_player_moving_twice():
    # round one ends with the blocker's wall (GB-6); the blocker (player 0)
    # then runs first in round two (GB-7): player 0 acts twice in a row
    g = gw.GridBloc(size=2, start="A1")
    for m in ("B1", "A1|A2", "A2"):
        g.play(m)
    for m in g.legal_moves():
        h = g.copy()
        h.play(m)
        if h.round == 2 and h.current_player == 0:
            break
    else:  # pragma: no cover - the board above has such a wall
        pytest.fail("no wall ends round one here")
    assert g.current_player == 0
    a = AlphaBetaAgent(depth=40)
    a.choose(g)
    assert sign(a.last_value) == sign(minimax(g)[0])


# ----------------------------------------------------------------------
# Greedy heuristics on hand-made positions
# ----------------------------------------------------------------------
def test_greedy_blocker_traps_the_runner():
    # 4x4 blank: the runner on A4 has one way out (A3); the wall A3|A4 traps it (GB-6)
    g = gw.GridBloc(size=4)
    for m in ("C4", "B3|B4", "C3", "A4|B4", "D4", "A2|B2", "C4", "C4|D4", "B3", "D2|D3", "A4"):
        g.play(m)
    assert g.to_act == "block" and g.unscored_reachable() > 5
    assert str(GreedyAgent(seed=0).choose(g)) == "A3|A4"


def test_greedy_gridmaster_keeps_its_jumps():
    # one player, 7x7, tile 1 on D4: an orthogonal jump (D1, A4, G4, D7)
    # leaves 4 onward jumps, a diagonal one only 2 (GM-3, GM-5)
    g = gw.GridMaster4(size=7, players=1, tiles=10)
    g.play("D4")
    for seed in range(5):
        assert str(GreedyAgent(seed=seed).choose(g)) in {"D1", "A4", "G4", "D7"}


def test_greedy_gridlock_prefers_mobility():
    # 1x4, X first: B1 or C1 leave X three cells and O one; A1 or D1 leave O two
    g = gw.Gridlock(1, 4)
    assert str(GreedyAgent(seed=0).choose(g)) in {"B1", "C1"}


def test_greedy_falls_back_to_random_for_a_game_without_an_evaluation():
    class Unvalued(gw.Gridlock):
        def evaluate(self, player):
            return None

    g = Unvalued(2, 2)
    picks = {str(GreedyAgent(seed=s).choose(g)) for s in range(40)}
    assert picks == {"A1", "B1", "A2", "B2"}  # uniformly random: every cell, where mobility would pick none first


def test_a_game_id_without_a_game_type_is_refused():
    with pytest.raises(TypeError, match="declare a game_type"):
        class Renamed(gw.Gridlock):
            game_id = "gridlock-test-variant"


# ----------------------------------------------------------------------
# Block Four's simultaneous bids (decoupled UCT)
# ----------------------------------------------------------------------
@pytest.mark.parametrize("first", [0, 1])
def test_mcts_bids_with_the_other_bid_hidden(first):
    g = gw.BlockFour(seed=4)
    g.play(g.legal_moves(first)[0], player=first)
    me = 1 - first
    assert g.current_player == me
    view = g.view_for(me)
    before = state(view)
    a = MCTSAgent(simulations=60, seed=1)
    bid = a.choose(view)
    assert state(view) == before
    assert str(bid) in {str(m) for m in g.legal_moves(me)}
    assert {m for m, _, _ in a.last_stats} == {str(m) for m in g.legal_moves(me)}
    assert sum(n for _, n, _ in a.last_stats) == 60
    g.play(bid, player=me)
    assert g.phase in ("place", "bid", "over")
    # the full game gives the same search as the view: the hidden bid is not used
    b = MCTSAgent(simulations=60, seed=1)
    h = gw.BlockFour(seed=4)
    h.play(h.legal_moves(first)[0], player=first)
    b.choose(h)
    assert b.last_stats == a.last_stats


def test_mcts_simultaneous_choice_max_and_analyse_in_the_bid_phase():
    g = gw.BlockFour(seed=2)
    a = MCTSAgent(simulations=80, seed=0, simultaneous_choice="max")
    bid = a.choose(g)
    assert str(bid) == a.last_stats[0][0]
    hints = a.analyse(g, simulations=40)
    assert set(hints) == {str(m) for m in g.legal_moves()}


# ----------------------------------------------------------------------
# Analysis, budgets, names, refusals
# ----------------------------------------------------------------------
def test_mcts_analyse_gives_every_move_and_a_history():
    g = gw.Gridlock()
    a = MCTSAgent(simulations=100, seed=0)
    hints = a.analyse(g, simulations=250, record_every=100)
    assert set(hints) == {str(m) for m in g.legal_moves()}
    assert sum(n for n, _ in hints.values()) == 250
    assert all(-1.0 <= v <= 1.0 for _, v in hints.values())
    assert [k for k, _ in a.last_history] == [100, 200, 250]
    for (_, early), (_, late) in zip(a.last_history, a.last_history[1:], strict=False):
        assert all(late[m] >= early[m] for m in early)
    assert a.last_simulations == 250


def test_time_budgets_are_respected_roughly():
    g = gw.GridMaster4()
    a = MCTSAgent(time=0.3, seed=0)
    t0 = time.perf_counter()
    a.choose(g)
    assert 0.25 <= time.perf_counter() - t0 < 3.0
    assert a.last_simulations >= 1
    b = AlphaBetaAgent(depth=None, time=0.3)
    t0 = time.perf_counter()
    move = b.choose(gw.Gridlock(5, 5))
    assert time.perf_counter() - t0 < 3.0
    assert b.last_depth >= 1 and move in gw.Gridlock(5, 5).legal_moves()


def test_alphabeta_refuses_games_it_cannot_play():
    with pytest.raises(ValueError, match="4 players: use MaxnAgent, ParanoidAgent or MCTSAgent"):
        AlphaBetaAgent().choose(gw.GridMaster4())
    with pytest.raises(ValueError, match="is general-sum: use MaxnAgent"):
        AlphaBetaAgent().choose(gw.GridMaster4(size=6, players=2))  # declared general-sum for every player count
    with pytest.raises(ValueError, match="simultaneous moves: use MCTSAgent instead"):
        AlphaBetaAgent().choose(gw.BlockFour(seed=0))


def test_agents_refuse_a_finished_game():
    g = gw.Gridlock(1, 1)
    g.play("A1")
    assert g.is_over
    for agent in (GreedyAgent(), MCTSAgent(simulations=5), AlphaBetaAgent()):
        with pytest.raises(ValueError):
            agent.choose(g)


def test_names_and_reset():
    assert MCTSAgent(simulations=2000).name == "MCTSAgent(2000 sims)"
    assert MCTSAgent(time=1.5).name == "MCTSAgent(1.5 s)"
    assert AlphaBetaAgent(depth=6).name == "AlphaBetaAgent(depth 6)"
    assert GreedyAgent(seed=3).name == "GreedyAgent(seed=3)"
    a = MCTSAgent(simulations=20)
    a.choose(gw.Gridlock())
    assert a.last_stats
    a.reset()
    assert a.last_stats == [] and a.last_simulations == 0


def test_agents_play_whole_games_in_a_widget_loop():
    # the widget's loop: agent.choose(game.view_for(p)), then play(move, player=p)
    for g, seats in (
        (gw.Gridlock(3, 3), {0: MCTSAgent(simulations=30, seed=1), 1: AlphaBetaAgent(depth=3)}),
        (gw.BlockFour(seed=5), {0: MCTSAgent(simulations=8, seed=2), 1: GreedyAgent(seed=2)}),
        (gw.GridBloc(size=3), {0: AlphaBetaAgent(depth=2), 1: MCTSAgent(simulations=15, seed=3)}),
        (gw.GridMaster4(size=6, players=3, tiles=6), {p: GreedyAgent(seed=p) for p in range(3)}),
    ):
        moves = 0
        while not g.is_over and moves < 400:
            p = g.current_player
            g.play(seats[p].choose(g.view_for(p)), player=p)
            moves += 1
        assert g.is_over, g
