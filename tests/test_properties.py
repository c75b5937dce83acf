"""Property tests over random Gridlock games on random board sizes (hypothesis)."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from gridwidgets import Gridlock
from gridwidgets.core import neighbours4


@st.composite
def random_games(draw, max_size=7):
    rows = draw(st.integers(1, max_size))
    cols = draw(st.integers(1, max_size))
    g = Gridlock(rows=rows, cols=cols)
    n = draw(st.integers(0, rows * cols))
    for _ in range(n):
        moves = g.legal_moves()
        if not moves:
            break
        g.play(moves[draw(st.integers(0, len(moves) - 1))])
    return g


def _violates_gl3(board):
    rows, cols = board.shape
    for r in range(rows):
        for c in range(cols):
            owner = board[r, c]
            if owner >= 0:
                for rr, cc in neighbours4((r, c), rows, cols):
                    if board[rr, cc] == 1 - owner:
                        return True
    return False


@given(random_games())
def test_gl3_never_violated_in_random_games(g):
    assert not _violates_gl3(g.board)
    # and every legal move keeps it so
    for m in g.legal_moves():
        h = g.copy()
        h.play(m)
        assert not _violates_gl3(h.board)


@given(random_games())
def test_gl4_game_over_exactly_when_the_mover_has_no_move(g):
    assert g.is_over == (len(g.legal_moves()) == 0)
    if g.is_over:
        assert g.winners == (1 - g.player_to_move,)
    else:
        assert g.winners == () and g.current_player == g.player_to_move


@given(random_games())
def test_undo_of_everything_returns_the_initial_state(g):
    n = len(g.history)
    for _ in range(n):
        g.undo()
    fresh = Gridlock(**g.options())
    assert np.array_equal(g.board, fresh.board)
    assert g.current_player == fresh.current_player == 0
    assert len(g.future) == n


@given(random_games())
def test_replaying_the_history_reproduces_the_state(g):
    h = Gridlock(**g.options())
    for m in g.history:
        h.play(str(m))
    assert h == g
    assert np.array_equal(h.board, g.board) and h.current_player == g.current_player


@given(random_games(), st.data())
def test_from_json_of_to_json_is_equal(g, data):
    for _ in range(data.draw(st.integers(0, len(g.history)))):
        g.undo()
    h = Gridlock.from_json(g.to_json())
    assert h == g
    assert h.to_json() == g.to_json()


@given(random_games())
def test_scores_count_the_markers(g):
    assert sum(g.scores) == len(g.history)
    assert g.scores[0] - g.scores[1] in (0, 1)
