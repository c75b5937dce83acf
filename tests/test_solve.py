"""The exact solver (analysis.solve) against plain exhaustive minimax.

The reference here is the simplest search there is: every legal move of
the public engine (``legal_moves``/``play``/``undo``), to the end of the
game, with no pruning, no table and no symmetry. The solver must agree with
it on the value of the position and of every move.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gridwidgets import BlockFour, GridBloc, Gridlock, GridMaster4, analysis
from gridwidgets.analysis import Solution, SolveBudgetExceeded, solve


# ----------------------------------------------------------------------
# The reference: exhaustive minimax through the public API
# ----------------------------------------------------------------------
def minimax(game) -> float:
    """Player 0's result under perfect play (+1, 0, -1), trying every move."""
    if game.is_over:
        return game.returns()[0]
    maximise = game.current_player == 0
    best = None
    for move in game.legal_moves():
        game.play(move)
        v = minimax(game)
        game.undo()
        if best is None or (v > best if maximise else v < best):
            best = v
    return best


def reference(game) -> dict[str, int]:
    """Every legal move's value for the player to move, by :func:`minimax`."""
    sign = 1 if game.current_player == 0 else -1
    out = {}
    for move in game.legal_moves():
        game.play(move)
        out[str(move)] = int(sign * minimax(game))
        game.undo()
    return out


def check_against_reference(game) -> Solution:
    before = (game.to_json(), game.version)
    sol = solve(game, progress=False)
    assert (game.to_json(), game.version) == before, "solve() must not change the game"
    ref = reference(game)
    assert sol.move_values == ref
    assert sol.value == max(ref.values())
    assert sol.best_moves == [m for m, v in ref.items() if v == sol.value]
    check_consistent(game, sol)
    return sol


def check_consistent(game, sol: Solution) -> None:
    """move_values, best_moves, value and winner tell the same story."""
    assert list(sol.move_values) == [str(m) for m in game.legal_moves()]
    assert set(sol.move_values.values()) <= {-1, 0, 1}
    assert sol.value == max(sol.move_values.values())
    assert sol.best_moves == [m for m, v in sol.move_values.items() if v == sol.value]
    assert sol.player == game.current_player
    if sol.value == 0:
        assert sol.winner is None
    else:
        assert sol.winner == (sol.player if sol.value > 0 else 1 - sol.player)
    assert sol.nodes >= 0 and sol.seconds >= 0


def random_play(game, rng: random.Random, n: int):
    for _ in range(n):
        if game.is_over:
            break
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    return game


# ----------------------------------------------------------------------
# Gridlock
# ----------------------------------------------------------------------
SIZES = sorted({(r, c) for r in range(1, 5) for c in range(1, 5) if min(r, c) <= 3 and max(r, c) <= 4})


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_gridlock_every_small_board_agrees_with_minimax(rows, cols):
    sol = check_against_reference(Gridlock(rows, cols))
    assert sol.game == "gridlock" and sol.value in (-1, 1)  # GL-4: no draws


def test_gridlock_known_results():
    # 2x2: O wins whatever X plays
    assert solve(Gridlock(2, 2), progress=False).winner == 1
    # 3x3: X wins, and the centre is one of the winning moves (then mirror through it)
    sol = solve(Gridlock(3, 3), progress=False)
    assert sol.winner == 0 and "B2" in sol.best_moves
    # 4x4: O mirrors X through the centre (no cell is its own image) and wins
    sol = solve(Gridlock(4, 4), progress=False)
    assert sol.winner == 1 and sol.best_moves == [str(m) for m in Gridlock(4, 4).legal_moves()]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 7))
def test_gridlock_random_4x4_positions_agree_with_minimax(seed, n):
    game = random_play(Gridlock(4, 4), random.Random(seed), n)
    if game.is_over:
        sol = solve(game, progress=False)
        assert sol.value == -1 and sol.winner == game.winner and sol.best_moves == [] and sol.move_values == {}
        assert sol.player == game.player_to_move
        return
    check_against_reference(game)


def _images(rows, cols):
    """Cell maps of the board's symmetries: 8 for a square, 4 for a rectangle."""
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (rows - 1 - r, c),
        lambda r, c: (r, cols - 1 - c),
        lambda r, c: (rows - 1 - r, cols - 1 - c),
    ]
    if rows == cols:
        maps += [
            lambda r, c: (c, r),
            lambda r, c: (rows - 1 - c, rows - 1 - r),
            lambda r, c: (c, rows - 1 - r),
            lambda r, c: (rows - 1 - c, r),
        ]
    return maps


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([(4, 4), (3, 5), (5, 5), (4, 6)]), n=st.integers(0, 6))
def test_gridlock_symmetric_positions_have_the_same_values(seed, size, n):
    rows, cols = size
    game = random_play(Gridlock(rows, cols), random.Random(seed), n)
    base = solve(game, progress=False)
    if not game.is_over:
        check_consistent(game, base)
    for f in _images(rows, cols):
        image = Gridlock(rows, cols)
        for move in game.history:
            image.play(f(*move.cell))
        sol = solve(image, progress=False)
        assert sol.value == base.value
        for move in game.legal_moves():
            assert sol.move_values[str(image.parse_move(f(*move.cell)))] == base.move_values[str(move)]


def test_gridlock_over_is_a_loss_for_the_player_to_move():
    g = Gridlock(1, 3)
    g.play("B1")  # O cannot move: A1 and C1 are next to X
    sol = solve(g, progress=False)
    assert g.is_over and sol.value == -1 and sol.winner == 0 and sol.player == 1 and sol.best_moves == []


def test_gridlock_5x5_is_a_first_player_win():
    sol = solve(Gridlock(5, 5), progress=False)
    assert sol.winner == 0 and sol.value == 1
    # every move wins except the four next to the centre
    assert sorted(m for m, v in sol.move_values.items() if v < 0) == ["B3", "C2", "C4", "D3"]


# ----------------------------------------------------------------------
# GridBloc
# ----------------------------------------------------------------------
SMALL_BOARDS = [
    {"size": 2, "walls": ["A1|B1"]},
    {"size": 2, "start": "A1", "walls": ["A1|A2"]},
    {"size": 3, "holes": ["A1", "C1", "A3", "C3"]},
]


@pytest.mark.parametrize("board", SMALL_BOARDS, ids=lambda b: str(b))
def test_gridbloc_whole_small_games_agree_with_minimax(board):
    sol = check_against_reference(GridBloc(preset="blank", **board))
    assert sol.game == "gridbloc"
    # round two starts from the same position as round one with the roles
    # swapped (GB-7), so from the start perfect play always draws
    assert sol.value == 0 and sol.winner is None
    assert sol.details["round2_points"] >= 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), board=st.sampled_from(SMALL_BOARDS), n=st.integers(1, 12))
def test_gridbloc_small_positions_agree_with_minimax(seed, board, n):
    game = random_play(GridBloc(preset="blank", **board), random.Random(seed), n)
    if game.is_over:
        sol = solve(game, progress=False)
        assert sol.winner == game.winner and sol.value == game.returns()[0] and sol.move_values == {}
        return
    check_against_reference(game)


def _late_round_two(seed: int, walls: int) -> GridBloc:
    """A 3x3 blank game played at random into round two, with ``walls`` walls placed."""
    rng = random.Random(seed)
    game = GridBloc(size=3, preset="blank")
    while game.round == 1 and not game.is_over:
        random_play(game, rng, 1)
    while not game.is_over and len(game.placed_walls) < walls:
        random_play(game, rng, 1)
    return game


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), walls=st.integers(6, 9))
def test_gridbloc_3x3_round_two_endgames_agree_with_minimax(seed, walls):
    game = _late_round_two(seed, walls)
    if not game.is_over:
        check_against_reference(game)


def test_gridbloc_endgames_have_wins_and_losses():
    # the comparisons above are not all draws: fixed samples with both results
    seen = set()
    for seed in range(40):
        game = _late_round_two(seed, 6)
        if not game.is_over:
            sol = check_against_reference(game)
            seen.add(sol.value)
        if {-1, 1} <= seen:
            break
    assert {-1, 1} <= seen


def test_gridbloc_3x3_blank_whole_game_is_a_draw():
    sol = solve(GridBloc(size=3, preset="blank"), progress=False)
    assert sol.value == 0 and sol.winner is None and sol.player == 1
    assert sol.best_moves == [str(m) for m in GridBloc(size=3, preset="blank").legal_moves()]


def test_gridbloc_setup_phase_is_refused():
    with pytest.raises(ValueError, match="setup"):
        solve(GridBloc(size=3, preset="blank", setup=True), progress=False)


# ----------------------------------------------------------------------
# Budget, refusals, the package
# ----------------------------------------------------------------------
def test_budget_max_nodes():
    with pytest.raises(SolveBudgetExceeded) as info:
        solve(Gridlock(5, 5), max_nodes=1000, progress=False)
    err = info.value
    assert isinstance(err, RuntimeError)
    assert err.budget == "max_nodes" and err.limit == 1000 and err.nodes > 1000
    assert "max_nodes" in str(err) and "positions" in str(err) and "of 25 root moves" in str(err)


def test_budget_time_limit():
    with pytest.raises(SolveBudgetExceeded) as info:
        solve(Gridlock(5, 5), time_limit=1e-6, progress=False)
    err = info.value
    assert err.budget == "time_limit" and err.seconds >= 1e-6
    assert "time_limit" in str(err)


def test_budget_time_limit_gridbloc():
    with pytest.raises(SolveBudgetExceeded, match="time_limit"):
        solve(GridBloc(size=5, preset="blank"), time_limit=0.2, progress=False)


@pytest.mark.parametrize("bad", [{"time_limit": 0}, {"time_limit": -1.0}, {"max_nodes": 0}, {"max_nodes": 1.5}])
def test_bad_budget(bad):
    with pytest.raises(ValueError):
        solve(Gridlock(2, 2), progress=False, **bad)


def test_refuses_other_games():
    with pytest.raises(ValueError, match="GridMaster4"):
        solve(GridMaster4(), progress=False)
    with pytest.raises(ValueError, match="Block Four"):
        solve(BlockFour(seed=1), progress=False)


def test_no_progress_bar_on_a_quick_solve(capsys):
    solve(Gridlock(4, 4))
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_exported_from_analysis():
    assert analysis.solve is solve
    assert {"solve", "Solution", "SolveBudgetExceeded"} <= set(analysis.__all__)
    assert str(solve(Gridlock(2, 3), progress=False)).startswith("gridlock: player 0 wins")


def test_a_full_table_is_shrunk_and_results_stay_exact(monkeypatch):
    import sys

    module = sys.modules["gridwidgets.analysis.solve"]
    expected = [solve(Gridlock(4, 5), progress=False), solve(GridBloc(size=3, preset="blank"), progress=False)]
    monkeypatch.setattr(module, "_TABLE_MAX", 100)
    got = [solve(Gridlock(4, 5), progress=False), solve(GridBloc(size=3, preset="blank"), progress=False)]
    for e, g in zip(expected, got, strict=True):
        assert g.move_values == e.move_values and g.value == e.value
        assert g.nodes > e.nodes  # the smaller table made it search more


@pytest.mark.parametrize("rows,cols", [(2, 3), (3, 3), (3, 4)])
def test_generic_search_agrees_with_the_games_own_solver_gl_4(rows, cols):
    """The generic negamax (position_key, symmetries, play/undo) and Gridlock's
    bitboard solver give the same value for every move (GL-3, GL-4)."""
    from gridwidgets.analysis.solve import _negamax_solve

    g = Gridlock(rows, cols)
    g.play(g.legal_moves()[1])
    own = solve(g, progress=False)
    generic = _negamax_solve(g, 60.0, 10_000_000, False)
    assert generic.move_values == own.move_values and generic.winner == own.winner


def test_a_game_without_a_solver_of_its_own_is_solved_by_the_generic_search():
    from docgames import load

    games = load()
    ttt = games["TicTacToe"]()
    s = solve(ttt, progress=False)
    assert s.value == 0 and s.winner is None and len(s.move_values) == 9
    ttt.play("B2")
    ttt.play("B1")  # an edge against the centre loses
    s = solve(ttt, progress=False)
    assert s.value == 1 and s.winner == 0
