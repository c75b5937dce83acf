"""The compiled ``simulate`` of GridMaster4 as it was before issue 29's speed
work, kept here whole so that ``scale_speed.py`` measures it beside today's
path in the same run, and ``tests/test_fast.py`` checks both give the same table.

A copy of the code of that time, not used by the package: the per-game
seeds spawned one ``numpy.random.SeedSequence`` child at a time; the
Mersenne Twister of ``gridwidgets.fast.mt`` (seeded from
``init_genrand`` for every game, twisted with wrapping indices, the bit
length of ``randrange`` counted bit by bit); the GridMaster4 kernel over
owner, active-list and stamp arrays (targets sorted by insertion, every
legal move listed before the draw); one dict per game for the table.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

__all__ = ["simulate_before"]

N = 624
M = 397
MASK = 0xFFFFFFFF


@njit(cache=True)
def _init_genrand(mt: np.ndarray, s: int) -> None:
    mt[0] = s & MASK
    for i in range(1, N):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & MASK
    mt[N] = N


@njit(cache=True)
def seeded(key: np.ndarray) -> np.ndarray:
    """The state of ``random.Random(seed)`` for the 32-bit words ``key`` of
    ``abs(seed)``, least significant first (``[0]`` for 0): ``init_by_array``."""
    mt = np.empty(N + 1, dtype=np.int64)
    _init_genrand(mt, 19650218)
    i, j = 1, 0
    klen = len(key)
    for _ in range(max(N, klen)):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & MASK
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= klen:
            j = 0
    for _ in range(N - 1):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & MASK
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = 0x80000000
    mt[N] = N
    return mt


@njit(cache=True)
def _twist(mt: np.ndarray) -> None:
    for kk in range(N):
        y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % N] & 0x7FFFFFFF)
        v = mt[(kk + M) % N] ^ (y >> 1)
        if y & 1:
            v ^= 0x9908B0DF
        mt[kk] = v
    mt[N] = 0


@njit(cache=True, inline="always")
def uint32(mt: np.ndarray) -> int:
    """The next 32-bit word (``genrand_uint32``)."""
    if mt[N] >= N:
        _twist(mt)
    y = mt[mt[N]]
    mt[N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & MASK


@njit(cache=True, inline="always")
def randbelow(mt: np.ndarray, n: int) -> int:
    """``random.Random.randrange(n)`` for ``1 <= n < 2**32``."""
    k = 0
    m = n
    while m:
        k += 1
        m >>= 1
    r = uint32(mt) >> (32 - k)
    while r >= n:
        r = uint32(mt) >> (32 - k)
    return r


SIZE, NP, TILES, ALL, TO_MOVE, OVER, OPEN, WINNERS, STAMP = range(9)
SCORE, IN_PLAY, OWED, OPENED, ACTIVE = 16, 20, 24, 28, 32
OWNER = 40
#: GM-3: the jump offsets (row, col): 3 orthogonally, 2 diagonally
DR = (-3, 3, 0, 0, -2, -2, 2, 2)
DC = (0, 0, -3, 3, -2, 2, -2, 2)
#: last_tile, then blocked per player (four places, the players' first)
ROW_EXTRA = 5



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


def extra_row(game: Any, row: list[int]) -> dict[str, Any]:
    out: dict[str, Any] = {"last_tile": bool(row[0])}
    for q, name in enumerate(game.players):
        out[f"blocked_{name}"] = bool(row[1 + q])
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


@njit(cache=True, inline="always")
def player(state):
    return -1 if state[OVER] else state[TO_MOVE]


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


@njit(cache=True)
def random_games(templates, seeds, table, buf):
    """The driver ``gridwidgets.fast.drivers.random_games`` of the time with
    this kernel's rule functions (``rollout`` inlined)."""
    state = templates[0].copy()
    key = np.zeros(1, dtype=np.int64)
    for i in range(len(seeds)):
        state[:] = templates[i if templates.shape[0] > 1 else 0]
        key[0] = seeds[i]
        mt = seeded(key)
        while player(state) >= 0:
            n = legal(state, buf)
            play(state, buf[randbelow(mt, n)])
        row(state, table[i])


def game_seeds(n: int, seed: int | None) -> list[int]:
    """``n`` seeds spawned from ``seed``, one child at a time."""
    children = np.random.SeedSequence(seed).spawn(n)
    return [int(c.generate_state(1)[0]) for c in children]


def _rows(game: Any, table: np.ndarray) -> list[dict[str, Any]]:
    """The kernel's result rows as ``Game.result_row`` dicts, one dict per game."""
    names = game.players
    p = len(names)
    out = []
    for r in table.tolist():
        mask = int(r[1])
        w = tuple(q for q in range(p) if mask >> q & 1)
        row: dict[str, Any] = {"length": int(r[0]), "winners": w, "winner": w[0] if len(w) == 1 else -1,
                               "shared": len(w) > 1}
        for q, name in enumerate(names):
            row[f"score_{name}"] = int(r[2 + q])
        row.update(extra_row(game, r[2 + p:]))
        out.append(row)
    return out


def simulate_before(n_games: int, seed: int | None = None, **options: Any) -> Any:
    """``gridwidgets.simulate(GridMaster4, n_games, seed, n_jobs=1, progress=False, **options)``
    as it ran before: the same chunks of up to 5,000 games, each encoded, played
    by the old kernel and turned into dicts, then one ``pandas.DataFrame``."""
    import pandas as pd

    from gridwidgets import GridMaster4

    probe = GridMaster4(**options)
    seeds = game_seeds(n_games, seed)
    size = max(1, min(5000, n_games // 4 or 1))
    rows: list[dict[str, Any]] = []
    for start in range(0, n_games, size):
        part = seeds[start: start + size]
        first = GridMaster4.new_for_seed(options, part[0])
        templates = encode(first)[None, :]
        table = np.zeros((len(part), 2 + len(first.players) + ROW_EXTRA), dtype=np.int64)
        buf = np.empty(first.size * first.size, dtype=np.int64)
        random_games(templates, np.asarray(part, dtype=np.int64), table, buf)
        rows.extend(_rows(first, table))
    columns = list(rows[0]) if rows else list(probe.result_row())
    frame = pd.DataFrame(rows, columns=columns)
    frame.insert(0, "game", range(n_games))
    return frame
