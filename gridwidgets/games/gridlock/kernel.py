"""Gridlock compiled (GL-1..GL-6): the kernel of :mod:`gridwidgets.fast`.

State (``int64``): ``[rows, cols, to_move, markers of X, markers of O,
moves played, board...]``, the board row by row (``-1`` empty, else the
owner). A move's code is its cell index ``r * cols + c``; the legal cells
come row by row, as ``Gridlock.legal_moves`` gives them (GL-3).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from numba import njit

from ...fast.drivers import random_games as _random_games
from ...fast.drivers import random_moves as _random_moves
from ...fast.drivers import uct_run as _uct_run
from ...fast.mt import randbelow

ROWS, COLS, TO_MOVE, COUNT0, COUNT1, LENGTH, BOARD = range(7)
ROW_EXTRA = 0


def supports(game: Any) -> bool:
    return True


def encode(game: Any) -> np.ndarray:
    head = [game.rows, game.cols, game.player_to_move, *game.scores, len(game.history)]
    return np.concatenate([np.array(head, dtype=np.int64), game.board.ravel().astype(np.int64)])


def decode(game: Any, code: int) -> Any:
    return game.all_moves(0)[code]


def max_moves(game: Any) -> int:
    return game.rows * game.cols


def extra_columns(game: Any, extra: np.ndarray) -> dict[str, np.ndarray]:
    return {}


@njit(cache=True, inline="always")
def _usable(state, r, c, rows, cols, opp):
    """GL-3: the cell is empty and no orthogonal neighbour holds ``opp``'s marker."""
    i = BOARD + r * cols + c
    if state[i] != -1:
        return False
    return not ((r > 0 and state[i - cols] == opp) or (r < rows - 1 and state[i + cols] == opp)
                or (c > 0 and state[i - 1] == opp) or (c < cols - 1 and state[i + 1] == opp))


@njit(cache=True)
def _legal_for(state, p, out):
    """GL-3: empty, and no orthogonal neighbour holds the opponent's marker; row by row."""
    rows, cols = state[ROWS], state[COLS]
    opp = 1 - p
    n = 0
    for r in range(rows):
        for c in range(cols):
            if not _usable(state, r, c, rows, cols, opp):
                continue
            out[n] = r * cols + c
            n += 1
    return n


@njit(cache=True)
def legal(state, out):
    return _legal_for(state, state[TO_MOVE], out)


@njit(cache=True, inline="always")
def draw(state, mt, buf):
    """A rollout's move: ``buf[randbelow(mt, legal(state, buf))]``."""
    return buf[randbelow(mt, legal(state, buf))]


@njit(cache=True)
def joint_legal(state, p, out):
    return _legal_for(state, p, out) if p == state[TO_MOVE] else 0


@njit(cache=True)
def _any_legal(state):
    rows, cols = state[ROWS], state[COLS]
    opp = 1 - state[TO_MOVE]
    for r in range(rows):
        for c in range(cols):
            if not _usable(state, r, c, rows, cols, opp):
                continue
            return True
    return False


@njit(cache=True)
def player(state):
    """The player to move, ``-1`` once the mover has no legal move (GL-4)."""
    return state[TO_MOVE] if _any_legal(state) else -1


@njit(cache=True)
def joint(state):
    return False


@njit(cache=True)
def play(state, code):
    p = state[TO_MOVE]
    state[BOARD + code] = p
    state[COUNT0 + p] += 1
    state[LENGTH] += 1
    state[TO_MOVE] = 1 - p


@njit(cache=True)
def returns(state, out):
    """GL-4: the player to move with no legal move loses; 0 while ongoing."""
    if _any_legal(state):
        out[0] = 0.0
        out[1] = 0.0
        return
    loser = state[TO_MOVE]
    out[loser] = -1.0
    out[1 - loser] = 1.0


@njit(cache=True)
def row(state, out):
    out[0] = state[LENGTH]
    out[1] = 0 if _any_legal(state) else 1 << (1 - state[TO_MOVE])
    out[2] = state[COUNT0]
    out[3] = state[COUNT1]


# the entry points: the drivers with this game's rule functions (read as
# attributes of this module, which lets numba cache them on disk)
@njit(cache=True)
def random_games(templates, seeds, table, buf):
    _random_games(_k.draw, _k.play, _k.player, _k.row, templates, seeds, table, buf)


@njit(cache=True)
def random_moves(state, mt, buf, out):
    return _random_moves(_k.draw, _k.play, _k.player, state, mt, buf, out)


@njit(cache=True)
def uct_run(nodes, wsum, pool, pool_w, jchild, meta, root_state, mt, sims, c, n_players, buf):
    return _uct_run(_k.legal, _k.joint_legal, _k.draw, _k.play, _k.player, _k.joint, _k.returns, nodes, wsum, pool,
                    pool_w, jchild, meta, root_state, mt, sims, c, n_players, buf)


_k = sys.modules[__name__]
