"""Gridlock, one test (or more) per rule: RULES GL-1..GL-5, C-3..C-5."""

import numpy as np
import pytest

import gridwidgets as gw
from gridwidgets import Gridlock, IllegalMoveError


def test_gl1_default_board_is_4x4_and_empty():
    g = Gridlock()
    assert g.board.shape == (4, 4)
    assert (g.board == -1).all()
    assert len(g.legal_moves()) == 16


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 26), (26, 1), (5, 6), (26, 26)])
def test_gl1_any_size_from_1x1_to_26x26(rows, cols):
    g = Gridlock(rows=rows, cols=cols)
    assert g.board.shape == (rows, cols)
    assert len(g.legal_moves()) == rows * cols


@pytest.mark.parametrize("bad", [0, 27, -1, 2.5, "4", True])
def test_gl1_sizes_outside_1_to_26_raise_value_error(bad):
    with pytest.raises(ValueError, match="GL-1"):
        Gridlock(rows=bad)
    with pytest.raises(ValueError, match="GL-1"):
        Gridlock(cols=bad)


def test_gl2_x_moves_first_and_players_alternate():
    g = Gridlock()
    assert g.players == ("X", "O")
    assert g.current_player == 0
    g.play("A1")
    assert g.current_player == 1
    g.play("D4")
    assert g.current_player == 0
    assert g.board[0, 0] == 0 and g.board[3, 3] == 1


def test_gl2_playing_for_the_wrong_player_is_refused():
    g = Gridlock()
    with pytest.raises(IllegalMoveError) as info:
        g.play("A1", player=1)
    assert info.value.rule == "GL-2"
    assert g.history == [] and (g.board == -1).all()
    g.play("A1", player=0)
    assert g.history == [gw.CellMove((0, 0))]


def test_gl3_seed_example_orthogonal_neighbours_of_opponent_are_illegal():
    # the seed: with O at (2,3), X cannot use (1,3), (2,2), (2,4), (3,3)
    g = Gridlock()
    g.play("A4")  # X somewhere harmless (row 4, col 1)
    g.play("2 3")  # O at row 2, column 3
    for cell in ["1 3", "2 2", "2 4", "3 3"]:
        with pytest.raises(IllegalMoveError) as info:
            g.play(cell)
        assert info.value.rule == "GL-3"
    assert len(g.history) == 2


def test_gl3_diagonal_to_opponent_and_next_to_own_are_allowed():
    g = Gridlock()
    g.play("B2")  # X
    g.play("C3")  # O diagonal to X: allowed
    g.play("B1")  # X next to own X, diagonal to nothing of O's
    g.play("D3")  # O next to own O
    assert [str(m) for m in g.history] == ["B2", "C3", "B1", "D3"]


def test_gl3_occupied_cell_is_illegal_and_names_the_rule():
    g = Gridlock()
    g.play("B2")
    with pytest.raises(IllegalMoveError, match=r"GL-3") as info:
        g.play("B2")
    assert "not empty" in str(info.value)


def test_gl3_legal_moves_are_exactly_the_cells_play_accepts():
    g = Gridlock(rows=3, cols=5)
    for m in ["B2", "D2", "A1"]:
        g.play(m)
    legal = {str(m) for m in g.legal_moves()}
    for r in range(3):
        for c in range(5):
            assert g.is_legal((r, c)) == (gw.core.cell_name((r, c)) in legal)


def test_gl3_forbidden_cells_are_empty_cells_next_to_the_opponent():
    g = Gridlock()
    g.play("B2")
    assert sorted(g.forbidden_cells()) == [(0, 1), (1, 0), (1, 2), (2, 1)]


def test_gl4_no_legal_move_loses_seed_words():
    # 1x2: X takes A1; O's only cell B1 is next to X: O has no move and loses
    g = Gridlock(rows=1, cols=2)
    g.play("A1")
    assert g.is_over and g.current_player is None
    assert g.winner == 0 and g.winners == (0,)
    assert g.status() == "Player 2 (O) has no legal moves remaining. Player 1 (X) wins the game!"
    assert g.legal_moves() == []


def test_gl4_the_seed_final_line_when_x_is_stuck():
    # 2x2: X A1, O B2, X has B1? B1 is next to B2 (O): illegal; A2 next to B2: illegal
    g = Gridlock(rows=2, cols=2)
    g.play("A1")
    g.play("B2")
    assert g.is_over
    assert g.winners == (1,)
    assert g.status() == "Player 1 (X) has no legal moves remaining. Player 2 (O) wins the game!"


def test_gl4_a_full_board_ends_with_the_mover_losing():
    g = Gridlock(rows=1, cols=1)
    g.play("A1")
    assert g.winners == (0,)


def test_gl4_no_moves_after_the_end():
    g = Gridlock(rows=1, cols=2)
    g.play("A1")
    with pytest.raises(IllegalMoveError) as info:
        g.play("B1")
    assert info.value.rule == "GL-4"


def test_gl4_there_are_no_draws_every_finished_game_has_one_winner():
    rng = np.random.default_rng(5)
    for _ in range(50):
        g = Gridlock(rows=int(rng.integers(1, 6)), cols=int(rng.integers(1, 6)))
        while not g.is_over:
            moves = g.legal_moves()
            g.play(moves[int(rng.integers(len(moves)))])
        assert len(g.winners) == 1 and g.winner is not None
        assert g.returns()[g.winner] == 1.0 and g.returns()[1 - g.winner] == -1.0


def test_gl5_move_notation_is_the_cell():
    g = Gridlock(rows=10, cols=10)
    assert str(g.play("J10")) == "J10"
    assert str(g.play((0, 0))) == "A1"
    assert str(g.play("3 2")) == "B3"


def test_c5_illegal_moves_leave_everything_unchanged():
    g = Gridlock()
    g.play("B2")
    before = (g.board.copy(), g.history, g.future, g.current_player, g.version)
    for bad in ["C2", "B2", "E1", "zz", None, (9, 9)]:
        with pytest.raises(IllegalMoveError):
            g.play(bad)
    after = (g.board.copy(), g.history, g.future, g.current_player, g.version)
    assert np.array_equal(before[0], after[0]) and before[1:] == after[1:]


def test_board_is_read_only_and_scores_count_markers():
    g = Gridlock()
    g.play("A1")
    g.play("C3")
    g.play("A2")
    with pytest.raises(ValueError):
        g.board[0, 0] = 1
    assert g.scores == (2, 1)
