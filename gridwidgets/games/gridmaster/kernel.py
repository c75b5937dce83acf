"""GridMaster4 compiled (GM-1..GM-10): the kernel of :mod:`gridwidgets.fast`.

Sets of cells are bit sets: ``W = ceil(n / 64)`` ``int64`` words, cell
``i`` the bit ``i % 64`` of word ``i // 64``, with ``n = size * size``.
State (``int64``):

- ``[0:9]``: size, players, tiles per player, deactivate everyone's (1) or
  the mover's own (0, GM-5), player to act, over, open cells, winners
  (bit mask), ``W``;
- ``[16:20]`` score (highest tile), ``[20:24]`` in play (GM-6),
  ``[24:28]`` free placements owed (GM-7), ``[28:32]`` opened (GM-2);
- ``OCC = 40``: the occupied cells (the bits past the last cell set too, so
  that the open cells are the complement), then each player's active tiles
  (four sets), then a scratch set (a player's targets), then, read only,
  each cell's jump cells (GM-3; ``n`` sets).

A move's code is its cell index ``r * size + c``. The legal cells come
row by row, as ``GridMaster4.legal_moves`` gives them: every open cell for
an opening (GM-2) or a free placement (GM-7), else the open jump cells of
the mover's active tiles (GM-4), each once. With bit sets these are word
operations: the union of the active tiles' jump sets less the occupied
cells, read lowest bit first (:func:`~gridwidgets.fast.bits.trailing_zeros`),
is that list, in that order; a placement deactivating the tiles on its
jump cells (GM-5) clears its jump set from the active set.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from numba import njit

from ...fast.bits import popcount, trailing_zeros
from ...fast.drivers import random_games as _random_games
from ...fast.drivers import random_moves as _random_moves
from ...fast.drivers import uct_run as _uct_run
from ...fast.mt import randbelow

SIZE, NP, TILES, ALL, TO_MOVE, OVER, OPEN, WINNERS, WORDS = range(9)
SCORE, IN_PLAY, OWED, OPENED = 16, 20, 24, 28
OCC = 40
#: last_tile, then blocked per player (four places, the players' first)
ROW_EXTRA = 5


def supports(game: Any) -> bool:
    return True


def _bits(cells: Any, words: int) -> np.ndarray:
    """The bit set of ``cells`` as ``words`` ``int64`` words."""
    out = np.zeros(words, dtype=np.uint64)
    for i in cells:
        out[i >> 6] |= np.uint64(1) << np.uint64(i & 63)
    return out.view(np.int64)


def encode(game: Any) -> np.ndarray:
    n = game.size * game.size
    p = len(game.players)
    w = (n + 63) >> 6
    s = np.zeros(OCC + (6 + n) * w, dtype=np.int64)
    s[SIZE], s[NP], s[TILES] = game.size, p, game.tiles_per_player
    s[ALL] = game.deactivate == "all"
    s[TO_MOVE], s[OVER], s[OPEN] = game._to_move, game._over, game._open
    s[WINNERS] = sum(1 << q for q in game._winners) if game._over else 0
    s[WORDS] = w
    for q in range(p):
        s[SCORE + q], s[IN_PLAY + q] = game._score[q], game._in_play[q]
        s[OWED + q], s[OPENED + q] = game._owed[q], game._opened[q]
    taken = [i for i in range(n) if game._owner[i] >= 0]
    s[OCC: OCC + w] = _bits(taken + list(range(n, 64 * w)), w)
    for q in range(p):
        s[OCC + (1 + q) * w: OCC + (2 + q) * w] = _bits(game._active[q], w)
    jumps = OCC + 6 * w
    for i, cells in enumerate(game._jumps):
        s[jumps + i * w: jumps + (i + 1) * w] = _bits(cells, w)
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
def _targets(state, p):
    """GM-4: the open jump cells of ``p``'s active tiles into the scratch set."""
    words = state[WORDS]
    act = OCC + (1 + p) * words
    tgt = OCC + 5 * words
    jumps = OCC + 6 * words
    for w in range(words):
        state[tgt + w] = 0
    for a in range(words):
        x = state[act + a]
        while x:
            base = jumps + (64 * a + trailing_zeros(x)) * words
            for w in range(words):
                state[tgt + w] |= state[base + w]
            x &= x - 1
    for w in range(words):
        state[tgt + w] &= ~state[OCC + w]


@njit(cache=True, inline="always")
def _has_normal_move(state, p):
    """Whether some active tile of ``p`` has an open jump cell (GM-4, GM-6)."""
    words = state[WORDS]
    act = OCC + (1 + p) * words
    jumps = OCC + 6 * words
    for a in range(words):
        x = state[act + a]
        while x:
            base = jumps + (64 * a + trailing_zeros(x)) * words
            for w in range(words):
                if state[base + w] & ~state[OCC + w]:
                    return True
            x &= x - 1
    return False


@njit(cache=True, inline="always")
def _move_set(state):
    """Where the mover's legal cells are, as ``(offset, flip)``: the bit set
    at ``offset`` XOR ``flip``, the targets of the active tiles (GM-4), or
    every open cell (``OCC`` flipped; GM-2, GM-7)."""
    p = state[TO_MOVE]
    if state[OPENED + p] and not state[OWED + p]:
        _targets(state, p)
        return OCC + 5 * state[WORDS], 0
    return OCC, -1


@njit(cache=True, inline="always")
def legal(state, out):
    if state[OVER]:
        return 0
    words = state[WORDS]
    cells, flip = _move_set(state)
    k = 0
    for w in range(words):
        x = state[cells + w] ^ flip
        while x:
            out[k] = 64 * w + trailing_zeros(x)
            k += 1
            x &= x - 1
    return k


@njit(cache=True, inline="always")
def draw(state, mt, buf):
    """The move ``buf[randbelow(mt, legal(state, buf))]`` gives, found in the
    bit sets without listing the moves: the same number drawn from their
    count (the targets' bits, or the open cells), then its bit found."""
    words = state[WORDS]
    cells, flip = _move_set(state)
    if flip:
        n = state[OPEN]
    else:
        n = 0
        for w in range(words):
            n += popcount(state[cells + w])
    r = randbelow(mt, n)
    for w in range(words):
        x = state[cells + w] ^ flip
        c = popcount(x)
        if r < c:
            for _ in range(r):
                x &= x - 1
            return 64 * w + trailing_zeros(x)
        r -= c
    return -1


@njit(cache=True)
def joint_legal(state, p, out):
    return legal(state, out) if p == state[TO_MOVE] and not state[OVER] else 0


@njit(cache=True, inline="always")
def player(state):
    return -1 if state[OVER] else state[TO_MOVE]


@njit(cache=True)
def joint(state):
    return False


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
    words = state[WORDS]
    p = state[TO_MOVE]
    state[SCORE + p] += 1
    number = state[SCORE + p]
    w = i >> 6
    bit = 1 << (i & 63)
    state[OCC + w] |= bit
    state[OPEN] -= 1
    if not state[OPENED + p]:
        state[OPENED + p] = 1  # GM-2: the opening deactivates nothing
    elif state[OWED + p]:
        state[OWED + p] -= 1  # GM-7: a free placement deactivates nothing
    else:
        # GM-5: the mover's (variant: everyone's) active tiles on the new tile's jump cells
        jumps = OCC + 6 * words + i * words
        for q in range(state[NP]):
            if q == p or state[ALL]:
                act = OCC + (1 + q) * words
                for a in range(words):
                    state[act + a] &= ~state[jumps + a]
    # the new tile is active
    state[OCC + (1 + p) * words + w] |= bit
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
    _random_games(_k.draw, _k.play, _k.player, _k.row, templates, seeds, table, buf)


@njit(cache=True)
def random_moves(state, mt, buf, out):
    return _random_moves(_k.draw, _k.play, _k.player, state, mt, buf, out)


@njit(cache=True)
def uct_run(nodes, wsum, pool, pool_w, jchild, meta, root_state, mt, sims, c, n_players, buf):
    return _uct_run(_k.legal, _k.joint_legal, _k.draw, _k.play, _k.player, _k.joint, _k.returns, nodes, wsum, pool,
                    pool_w, jchild, meta, root_state, mt, sims, c, n_players, buf)


_k = sys.modules[__name__]
