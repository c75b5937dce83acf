"""GridMaster4 compiled (GM-1..GM-10): the kernel of :mod:`gridwidgets.fast`.

State (``int64``), with ``n = size * size``:

- ``[0:9]``: size, players, tiles per player, deactivate everyone's (1) or
  the mover's own (0, GM-5), player to act, over, open cells, winners
  (bit mask), a stamp for de-duplicating targets;
- ``[16:20]`` score (highest tile), ``[20:24]`` in play (GM-6),
  ``[24:28]`` free placements owed (GM-7), ``[28:32]`` opened (GM-2),
  ``[32:36]`` active tiles per player;
- ``OWNER = 40``: ``n`` owners (``-1`` empty), then ``n`` tile numbers, then
  ``n`` positions in the owner's active list (``-1`` inactive), then four
  active lists of ``n`` cells, then ``n`` stamps, then the jump table: 8
  cells per cell (GM-3, those on the board first, ``-1`` after).

A move's code is its cell index ``r * size + c``. The legal cells come
row by row, as ``GridMaster4.legal_moves`` gives them: every open cell for
an opening (GM-2) or a free placement (GM-7), else the open jump cells of
the mover's active tiles (GM-4), each once.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from numba import njit

from ...fast.drivers import random_games as _random_games
from ...fast.drivers import random_moves as _random_moves
from ...fast.drivers import uct_run as _uct_run

SIZE, NP, TILES, ALL, TO_MOVE, OVER, OPEN, WINNERS, STAMP = range(9)
SCORE, IN_PLAY, OWED, OPENED, ACTIVE = 16, 20, 24, 28, 32
OWNER = 40
#: GM-3: the jump offsets (row, col): 3 orthogonally, 2 diagonally
DR = (-3, 3, 0, 0, -2, -2, 2, 2)
DC = (0, 0, -3, 3, -2, 2, -2, 2)
#: last_tile, then blocked per player (four places, the players' first)
ROW_EXTRA = 5


def supports(game: Any) -> bool:
    return True


def encode(game: Any) -> np.ndarray:
    n = game.size * game.size
    p = len(game.players)
    s = np.zeros(OWNER + 16 * n, dtype=np.int64)
    table = np.full((n, 8), -1, dtype=np.int64)
    for i, cells in enumerate(game._jumps):
        table[i, : len(cells)] = cells
    s[OWNER + 8 * n:] = table.ravel()
    s[SIZE], s[NP], s[TILES] = game.size, p, game.tiles_per_player
    s[ALL] = game.deactivate == "all"
    s[TO_MOVE], s[OVER], s[OPEN] = game._to_move, game._over, game._open
    s[WINNERS] = sum(1 << q for q in game._winners) if game._over else 0
    for q in range(p):
        s[SCORE + q], s[IN_PLAY + q] = game._score[q], game._in_play[q]
        s[OWED + q], s[OPENED + q] = game._owed[q], game._opened[q]
    s[OWNER: OWNER + n] = game._owner
    s[OWNER + n: OWNER + 2 * n] = game._tile
    pos = OWNER + 2 * n
    s[pos: pos + n] = -1
    for q in range(p):
        cells = sorted(game._active[q])
        s[ACTIVE + q] = len(cells)
        base = OWNER + 3 * n + q * n
        for k, i in enumerate(cells):
            s[base + k] = i
            s[pos + i] = k
    return s


def decode(game: Any, code: int) -> Any:
    return game.all_moves(0)[code]


def max_moves(game: Any) -> int:
    return game.size * game.size


def extra_columns(game: Any, extra: np.ndarray) -> dict[str, np.ndarray]:
    out = {"last_tile": extra[:, 0] != 0}
    for q, name in enumerate(game.players):
        out[f"blocked_{name}"] = extra[:, 1 + q] != 0
    return out


@njit(cache=True, inline="always")
def _normal_targets(state, p, out):
    """GM-4: the open jump cells of ``p``'s active tiles, each once, in cell order."""
    size = state[SIZE]
    n = size * size
    state[STAMP] += 1
    stamp = state[STAMP]
    mark = OWNER + 7 * n
    base = OWNER + 3 * n + p * n
    k = 0
    jt = OWNER + 8 * n
    for a in range(state[ACTIVE + p]):
        i = state[base + a]
        for d in range(jt + 8 * i, jt + 8 * i + 8):
            j = state[d]
            if j < 0:
                break
            if True:
                if state[OWNER + j] < 0 and state[mark + j] != stamp:
                    state[mark + j] = stamp
                    # insertion into the sorted prefix
                    t = k
                    while t > 0 and out[t - 1] > j:
                        out[t] = out[t - 1]
                        t -= 1
                    out[t] = j
                    k += 1
    return k


@njit(cache=True, inline="always")
def _has_normal_move(state, p):
    size = state[SIZE]
    n = size * size
    base = OWNER + 3 * n + p * n
    jt = OWNER + 8 * n
    for a in range(state[ACTIVE + p]):
        i = state[base + a]
        for d in range(jt + 8 * i, jt + 8 * i + 8):
            j = state[d]
            if j < 0:
                break
            if state[OWNER + j] < 0:
                return True
    return False


@njit(cache=True, inline="always")
def legal(state, out):
    if state[OVER]:
        return 0
    p = state[TO_MOVE]
    if state[OPENED + p] and not state[OWED + p]:
        return _normal_targets(state, p, out)
    n = state[SIZE] * state[SIZE]  # every open cell (GM-2, GM-7)
    k = 0
    for i in range(n):
        if state[OWNER + i] < 0:
            out[k] = i
            k += 1
    return k


@njit(cache=True)
def joint_legal(state, p, out):
    return legal(state, out) if p == state[TO_MOVE] and not state[OVER] else 0


@njit(cache=True, inline="always")
def player(state):
    return -1 if state[OVER] else state[TO_MOVE]


@njit(cache=True)
def joint(state):
    return False


@njit(cache=True, inline="always")
def _deactivate(state, q, j):
    """Remove cell ``j`` from ``q``'s active list (GM-5)."""
    n = state[SIZE] * state[SIZE]
    pos = OWNER + 2 * n
    base = OWNER + 3 * n + q * n
    k = state[pos + j]
    last = state[ACTIVE + q] - 1
    moved = state[base + last]
    state[base + k] = moved
    state[pos + moved] = k
    state[pos + j] = -1
    state[ACTIVE + q] = last


@njit(cache=True)
def _finish(state):
    """GM-8: the highest tile wins; equal highest share the win."""
    state[OVER] = 1
    best = 0
    for q in range(state[NP]):
        best = max(best, state[SCORE + q])
    mask = 0
    for q in range(state[NP]):
        if state[SCORE + q] == best:
            mask |= 1 << q
    state[WINNERS] = mask


@njit(cache=True, inline="always")
def _start_turn(state):
    """GM-6, GM-7: skip players out of play; block a player with no move and no
    free placement (the others in play are each owed one), until someone can act."""
    np_ = state[NP]
    while True:
        p = state[TO_MOVE]
        if not state[IN_PLAY + p]:
            anyone = False
            for q in range(np_):
                if state[IN_PLAY + q]:
                    anyone = True
            if not anyone:
                _finish(state)
                return
            state[TO_MOVE] = (p + 1) % np_
            continue
        if not state[OPENED + p] or state[OWED + p] or _has_normal_move(state, p):
            return
        state[IN_PLAY + p] = 0
        for q in range(np_):
            if state[IN_PLAY + q]:
                state[OWED + q] += 1
        state[TO_MOVE] = (p + 1) % np_


@njit(cache=True, inline="always")
def play(state, i):
    """Place the mover's next tile on cell ``i`` (GM-4, GM-5, GM-7, GM-8)."""
    size = state[SIZE]
    n = size * size
    p = state[TO_MOVE]
    state[SCORE + p] += 1
    number = state[SCORE + p]
    state[OWNER + i] = p
    state[OWNER + n + i] = number
    state[OPEN] -= 1
    if not state[OPENED + p]:
        state[OPENED + p] = 1  # GM-2: the opening deactivates nothing
    elif state[OWED + p]:
        state[OWED + p] -= 1  # GM-7: a free placement deactivates nothing
    else:
        # GM-5: the mover's (variant: everyone's) active tiles on the new tile's jump cells
        pos = OWNER + 2 * n
        jt = OWNER + 8 * n
        for d in range(jt + 8 * i, jt + 8 * i + 8):
            j = state[d]
            if j < 0:
                break
            if True:
                q = state[OWNER + j]
                if state[pos + j] >= 0 and (q == p or (state[ALL] and q >= 0)):
                    _deactivate(state, q, j)
    # the new tile is active
    k = state[ACTIVE + p]
    state[OWNER + 3 * n + p * n + k] = i
    state[OWNER + 2 * n + i] = k
    state[ACTIVE + p] = k + 1
    if number == state[TILES]:
        state[OVER] = 1
        state[WINNERS] = 1 << p
    elif state[OPEN] == 0:
        _finish(state)
    else:
        state[TO_MOVE] = (p + 1) % state[NP]
        _start_turn(state)


@njit(cache=True)
def returns(state, out):
    """C-4 from the winners: +1 a sole winner, 0 a shared win, -1 the others; 0 while ongoing."""
    mask = state[WINNERS] if state[OVER] else 0
    shared = mask & (mask - 1)
    for q in range(state[NP]):
        if mask == 0:
            out[q] = 0.0
        elif mask >> q & 1:
            out[q] = 0.0 if shared else 1.0
        else:
            out[q] = -1.0


@njit(cache=True)
def row(state, out):
    np_ = state[NP]
    total = 0
    for q in range(np_):
        total += state[SCORE + q]
        out[2 + q] = state[SCORE + q]
    out[0] = total
    out[1] = state[WINNERS] if state[OVER] else 0
    mask = out[1]
    best = 0
    for q in range(np_):
        best = max(best, state[SCORE + q])
    out[2 + np_] = 1 if (mask != 0 and (mask & (mask - 1)) == 0 and best == state[TILES]) else 0
    for q in range(np_):
        out[3 + np_ + q] = 0 if state[IN_PLAY + q] else 1


# the entry points: the drivers with this game's rule functions (read as
# attributes of this module, which lets numba cache them on disk)
@njit(cache=True)
def random_games(templates, seeds, table, buf):
    _random_games(_k.legal, _k.play, _k.player, _k.row, templates, seeds, table, buf)


@njit(cache=True)
def random_moves(state, mt, buf, out):
    return _random_moves(_k.legal, _k.play, _k.player, state, mt, buf, out)


@njit(cache=True)
def uct_run(nodes, wsum, pool, pool_w, jchild, meta, root_state, mt, sims, c, n_players, buf):
    return _uct_run(_k.legal, _k.joint_legal, _k.play, _k.player, _k.joint, _k.returns, nodes, wsum, pool, pool_w,
                    jchild, meta, root_state, mt, sims, c, n_players, buf)


_k = sys.modules[__name__]
