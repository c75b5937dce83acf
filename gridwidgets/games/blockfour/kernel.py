"""Block Four compiled (BF-1..BF-13): the kernel of :mod:`gridwidgets.fast`.

State (``int64``):

- ``[0:12]``: phase (0 bid, 1 place, 2 over), turn, stall (BF-11), filled
  this turn, moves played (``len(history)``, the skips of BF-7 included),
  winners (bit mask), the two hands and the two tables (bit masks of the
  cards, bit ``k`` for card ``k`` of I, L, O, T, Z; BF-2, BF-10), and per
  player the pending bid (its index ``0..9`` among the bids, ``-1`` none);
- ``[13:19]``: the placements of the turn (BF-6): next one, how many, then
  four entries ``player * 8 + shape``;
- ``[19:21]``: the occupied spaces as two bit masks (spaces ``0..62`` and
  ``63..80``); ``[21:23]`` marks per player; ``[23:41]`` marks per field
  (BF-1) and player, ``2 * field + player``;
- ``BOARD = 41``: the 81 spaces row by row (``-1`` empty, else the mark's
  player), then 81 + 81 scratch entries for the gap fill (BF-8).

A move's code is ``player * 1083 + k`` with ``k`` its index in
``BlockFour.all_moves(player)``: the 10 bids (BF-5), then per shape its skip
and its placements in the engine's order. The legal moves come in the order
of ``BlockFour.legal_moves``: the pairs of the hand in I, L, O, T, Z order, or
the placements of the shape to place that fit (BF-3, BF-7).
"""

from __future__ import annotations

import sys
from itertools import combinations
from typing import Any

import numpy as np
from numba import njit

from ...fast.drivers import random_games as _random_games
from ...fast.drivers import random_moves as _random_moves
from ...fast.drivers import uct_run as _uct_run
from ...fast.mt import randbelow
from .rules import HIDDEN, SHAPES, SIZE, STALL_TURNS, Bid, BlockFour, Placement, placements_of

PHASE, TURN, STALL, FILLED, LENGTH, WIN, HAND0, HAND1, TABLE0, TABLE1, PEND0, PEND1 = range(12)
QPOS, QLEN, QUEUE = 13, 14, 15
OCC_LO, OCC_HI, SPACES, FCOUNT = 19, 20, 21, 23
BOARD = 41
SEEN = BOARD + SIZE * SIZE
STACK = SEEN + SIZE * SIZE
STATE_LEN = STACK + SIZE * SIZE
BID, PLACE, OVER = 0, 1, 2
#: turns, stalled, spaces per player
ROW_EXTRA = 4

# ---------------------------------------------------------------------------
# the move tables (built from the engine's own lists, so the order is its order)
_PAIRS = list(combinations(range(5), 2))
#: BF-5: the bids, as the cards of each
PAIR_A = np.array([a for a, _ in _PAIRS], dtype=np.int64)
PAIR_B = np.array([b for _, b in _PAIRS], dtype=np.int64)
_start, _count, _cells = [], [], [[-1] * 4 for _ in _PAIRS]
for _s in SHAPES:
    _start.append(len(_cells))
    _cells.append([-1] * 4)  # the skip (BF-7)
    _count.append(len(placements_of(_s)))
    _cells.extend([r * SIZE + c for r, c in cells] for cells, _ in placements_of(_s))
NMOVES = len(_cells)  # 1,083
#: per shape: the index of its skip; its placements follow (BF-3)
SHAPE_START = np.array(_start, dtype=np.int64)
SHAPE_COUNT = np.array(_count, dtype=np.int64)
CELLS = np.array(_cells, dtype=np.int64)
MASK_LO = np.array([sum(1 << i for i in c if 0 <= i < 63) for c in _cells], dtype=np.int64)
MASK_HI = np.array([sum(1 << (i - 63) for i in c if i >= 63) for c in _cells], dtype=np.int64)
#: BF-1: the field (0..8) of each space
FIELD = np.array([(i // SIZE // 3) * 3 + (i % SIZE) // 3 for i in range(SIZE * SIZE)], dtype=np.int64)
#: BF-8: the orthogonal neighbours of each space (-1 after them)
NEIGHBOURS = np.full((SIZE * SIZE, 4), -1, dtype=np.int64)
for _i in range(SIZE * SIZE):
    _r, _c = divmod(_i, SIZE)
    _k = 0
    for _dr, _dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= _r + _dr < SIZE and 0 <= _c + _dc < SIZE:
            NEIGHBOURS[_i, _k] = (_r + _dr) * SIZE + _c + _dc
            _k += 1
_BIT = np.array([i if i < 63 else i - 63 for i in range(SIZE * SIZE)], dtype=np.int64)
MAX_MOVES = max(max(_count), len(_PAIRS))
_NUM = {s: k for k, s in enumerate(SHAPES)}
_BID_INDEX = {(SHAPES[a], SHAPES[b]): k for k, (a, b) in enumerate(_PAIRS)}
_moves: dict[int, list[Any]] = {}
# the engine methods this kernel replicates: a subclass changing one is not supported
_REPLICATED = ("legal_moves", "search_moves", "_apply", "_apply_joint", "_resolve", "_advance", "_place",
               "_fill_gaps", "_end_turn", "_simultaneous", "returns", "result_row", "winners", "scores",
               "fields_controlled", "current_player", "_rollout", "all_moves")


def _all_moves(p: int) -> list[Any]:
    """``BlockFour.all_moves(p)``, built once."""
    out = _moves.get(p)
    if out is None:
        out = [Bid(p, (SHAPES[a], SHAPES[b])) for a, b in _PAIRS]
        for s in SHAPES:
            out.append(Placement(p, s, None))
            out.extend(Placement(p, s, cells) for cells, _ in placements_of(s))
        _moves[p] = out
    return out


def supports(game: Any) -> bool:
    """Block Four as the engine plays it, with no hidden submission (a view's
    placeholder cannot be played; MCTSAgent takes those back first)."""
    if not isinstance(game, BlockFour):
        return False
    cls = type(game)
    if any(getattr(cls, name) is not getattr(BlockFour, name) for name in _REPLICATED):
        return False
    if game.rows != SIZE or game.cols != SIZE or game._phase not in ("bid", "place", "over"):
        return False
    if len(game._queue) > 4 or (game._phase == "place" and not game._queue):
        return False
    for p in (0, 1):
        hand, table = game._hands[p], game._tables[p]
        if any(c not in _NUM for c in hand + table) or hand != sorted(hand, key=_NUM.__getitem__):
            return False
    if game._pending and (game._phase != "bid" or game._hidden_players):
        return False
    for q, m in game._pending.items():
        if q not in (0, 1) or not isinstance(m, Bid) or m.cards == HIDDEN or m.cards not in _BID_INDEX:
            return False
    return all(v in (-1, 0, 1) for v in game._board)


def encode(game: Any) -> np.ndarray:
    """The position as the kernel's state (no hidden submission: see :func:`supports`)."""
    for q, m in game._pending.items():
        if q in game._hidden_players or m.cards == HIDDEN:
            raise ValueError("a hidden bid cannot be encoded: take it back (undo) or guess it (with_submission)")
    s = np.zeros(STATE_LEN, dtype=np.int64)
    s[PHASE] = ("bid", "place", "over").index(game._phase)
    s[TURN], s[STALL], s[FILLED] = game._turn, game._stall, bool(game._filled_this_turn)
    s[LENGTH] = len(game.history)
    s[WIN] = sum(1 << q for q in game.winners)
    for p in (0, 1):
        s[HAND0 + p] = sum(1 << _NUM[c] for c in game._hands[p])
        s[TABLE0 + p] = sum(1 << _NUM[c] for c in game._tables[p])
        m = game._pending.get(p)
        s[PEND0 + p] = -1 if m is None else _BID_INDEX[m.cards]
    s[QPOS], s[QLEN] = 0, len(game._queue)
    for k, (who, shape) in enumerate(game._queue):
        s[QUEUE + k] = who * 8 + _NUM[shape]
    if game._board.count(-1) == SIZE * SIZE:  # an empty board (every seeded setup): nothing to count
        s[BOARD: BOARD + SIZE * SIZE] = -1
        return s
    board = np.array(game._board, dtype=np.int64)
    s[BOARD: BOARD + SIZE * SIZE] = board
    taken = board != -1
    bits = taken.astype(np.int64) << _BIT  # one bit per space: the sums are the masks
    s[OCC_LO], s[OCC_HI] = bits[:63].sum(), bits[63:].sum()
    s[SPACES: SPACES + 2] = np.bincount(board[taken], minlength=2)
    s[FCOUNT: FCOUNT + 18] = np.bincount(2 * FIELD[taken] + board[taken], minlength=18)
    return s


def decode(game: Any, code: int) -> Any:
    p, k = divmod(int(code), NMOVES)
    return _all_moves(p)[k]


def max_moves(game: Any) -> int:
    return MAX_MOVES


def extra_columns(game: Any, extra: np.ndarray) -> dict[str, np.ndarray]:
    out = {"turns": extra[:, 0].copy(), "stalled": extra[:, 1] != 0}
    for p, name in enumerate(game.players):
        out[f"spaces_{name}"] = extra[:, 2 + p].copy()
    return out


@njit(cache=True)
def _bids(state, p, out):
    """BF-5: every pair of cards of ``p``'s hand, in I, L, O, T, Z order; none once ``p`` has bid."""
    if state[PEND0 + p] >= 0:
        return 0
    hand = state[HAND0 + p]
    n = 0
    for k in range(10):
        if (hand >> PAIR_A[k]) & 1 and (hand >> PAIR_B[k]) & 1:
            out[n] = p * NMOVES + k
            n += 1
    return n


@njit(cache=True)
def _places(state, out):
    """BF-3, BF-7: the placements of the shape to place on empty spaces, in the engine's order."""
    e = state[QUEUE + state[QPOS]]
    p, shape = e // 8, e % 8
    lo, hi = state[OCC_LO], state[OCC_HI]
    start = SHAPE_START[shape] + 1
    base = p * NMOVES
    n = 0
    for k in range(start, start + SHAPE_COUNT[shape]):
        if (MASK_LO[k] & lo) == 0 and (MASK_HI[k] & hi) == 0:
            out[n] = base + k
            n += 1
    return n


@njit(cache=True)
def _fits(state, shape):
    """BF-7: the shape fits somewhere."""
    lo, hi = state[OCC_LO], state[OCC_HI]
    start = SHAPE_START[shape] + 1
    for k in range(start, start + SHAPE_COUNT[shape]):
        if (MASK_LO[k] & lo) == 0 and (MASK_HI[k] & hi) == 0:
            return True
    return False


@njit(cache=True)
def legal(state, out):
    ph = state[PHASE]
    if ph == BID:  # BF-13: the next player to bid
        return _bids(state, 0 if state[PEND0] < 0 else 1, out)
    if ph == PLACE:
        return _places(state, out)
    return 0


@njit(cache=True, inline="always")
def draw(state, mt, buf):
    """A rollout's move: ``buf[randbelow(mt, legal(state, buf))]``."""
    return buf[randbelow(mt, legal(state, buf))]


@njit(cache=True)
def joint_legal(state, p, out):
    ph = state[PHASE]
    if ph == BID:
        return _bids(state, p, out)
    if ph == PLACE and state[QUEUE + state[QPOS]] // 8 == p:
        return _places(state, out)
    return 0


@njit(cache=True)
def player(state):
    ph = state[PHASE]
    if ph == BID:
        return 0 if state[PEND0] < 0 else 1
    if ph == PLACE:
        return state[QUEUE + state[QPOS]] // 8
    return -1


@njit(cache=True)
def joint(state):
    return state[PHASE] == BID and state[PEND0] < 0 and state[PEND1] < 0


@njit(cache=True)
def _mark(state, i, p):
    state[BOARD + i] = p
    state[SPACES + p] += 1
    state[FCOUNT + 2 * FIELD[i] + p] += 1
    if i < 63:
        state[OCC_LO] |= 1 << i
    else:
        state[OCC_HI] |= 1 << (i - 63)


@njit(cache=True)
def _fields(state, p):
    """BF-9: the fields where ``p`` holds 5 or more of the 9 spaces."""
    n = 0
    for f in range(9):
        if state[FCOUNT + 2 * f + p] >= 5:
            n += 1
    return n


@njit(cache=True)
def _fill_gaps(state, p):
    """BF-8: every orthogonally connected empty region of 1 to 3 spaces goes to ``p``."""
    n_cells = SIZE * SIZE
    for i in range(n_cells):
        state[SEEN + i] = 0
    for start in range(n_cells):
        if state[BOARD + start] != -1 or state[SEEN + start]:
            continue
        state[SEEN + start] = 1
        state[STACK] = start
        size = 1
        k = 0
        while k < size:  # a flood fill, the region kept in the scratch
            i = state[STACK + k]
            k += 1
            for d in range(4):
                j = NEIGHBOURS[i, d]
                if j < 0:
                    break
                if state[BOARD + j] == -1 and state[SEEN + j] == 0:
                    state[SEEN + j] = 1
                    state[STACK + size] = j
                    size += 1
        if size <= 3:
            for t in range(size):
                _mark(state, state[STACK + t], p)


@njit(cache=True)
def _end_turn(state):
    """BF-10: a player with one card left picks up their table; BF-11: the stall ends the game."""
    for p in range(2):
        h = state[HAND0 + p]
        if h != 0 and (h & (h - 1)) == 0:
            state[HAND0 + p] = h | state[TABLE0 + p]
            state[TABLE0 + p] = 0
    state[STALL] = 0 if state[FILLED] else state[STALL] + 1
    state[FILLED] = 0
    if state[STALL] >= STALL_TURNS:
        state[PHASE] = OVER
        f0, f1 = _fields(state, 0), _fields(state, 1)
        s0, s1 = state[SPACES], state[SPACES + 1]
        if f0 != f1:
            state[WIN] = 1 if f0 > f1 else 2
        elif s0 != s1:
            state[WIN] = 1 if s0 > s1 else 2
        else:
            state[WIN] = 3
        return
    state[PHASE] = BID
    state[TURN] += 1


@njit(cache=True)
def _advance(state):
    """BF-7: skip what fits nowhere (a move of the rules: it counts in the history); end the turn."""
    while state[PHASE] == PLACE and state[QPOS] < state[QLEN]:
        if _fits(state, state[QUEUE + state[QPOS]] % 8):
            return
        state[QPOS] += 1
        state[LENGTH] += 1
    if state[PHASE] == PLACE:
        _end_turn(state)


@njit(cache=True)
def _resolve(state):
    """Both bids are in: the cards go to the tables (BF-10), the placements are listed (BF-6)."""
    x, o = state[PEND0], state[PEND1]
    xa, xb, oa, ob = PAIR_A[x], PAIR_B[x], PAIR_A[o], PAIR_B[o]
    bx = (1 << xa) | (1 << xb)
    bo = (1 << oa) | (1 << ob)
    state[HAND0] &= ~bx
    state[TABLE0] |= bx
    state[HAND1] &= ~bo
    state[TABLE1] |= bo
    state[PEND0] = -1
    state[PEND1] = -1
    state[LENGTH] += 2
    common = bx & bo
    state[QPOS] = 0
    if common == 0:  # no match: the four shapes by their choosers, in I, L, O, T, Z order
        n = 0
        for s in range(5):
            if (bx >> s) & 1:
                state[QUEUE + n] = s
                n += 1
            elif (bo >> s) & 1:
                state[QUEUE + n] = 8 + s
                n += 1
        state[QLEN] = 4
    elif (common & (common - 1)) == 0:  # one match: two copies of each unmatched shape, lower first
        ux = xb if (common >> xa) & 1 else xa
        uo = ob if (common >> oa) & 1 else oa
        if ux < uo:
            first, second = ux, 8 + uo
        else:
            first, second = 8 + uo, ux
        state[QUEUE] = first
        state[QUEUE + 1] = first
        state[QUEUE + 2] = second
        state[QUEUE + 3] = second
        state[QLEN] = 4
    else:  # two matches: nothing
        state[QLEN] = 0
    state[PHASE] = PLACE
    _advance(state)


@njit(cache=True)
def play(state, code):
    k = code % NMOVES
    if state[PHASE] == BID:  # BF-5, BF-13: the next player to bid submits
        p = 0 if state[PEND0] < 0 else 1
        state[PEND0 + p] = k
        if state[PEND0] >= 0 and state[PEND1] >= 0:
            _resolve(state)
        return
    p = state[QUEUE + state[QPOS]] // 8
    for t in range(4):  # BF-7: the shape on four empty spaces
        _mark(state, CELLS[k, t], p)
    state[QPOS] += 1
    state[LENGTH] += 1
    state[FILLED] = 1
    _fill_gaps(state, 1 - p)  # BF-8
    if _fields(state, p) >= 5:  # BF-9: the placer first
        state[PHASE] = OVER
        state[WIN] = 1 << p
        return
    if _fields(state, 1 - p) >= 5:
        state[PHASE] = OVER
        state[WIN] = 1 << (1 - p)
        return
    _advance(state)


@njit(cache=True)
def returns(state, out):
    """+1 / -1 for a sole winner (BF-9, BF-11), 0 each for a draw; 0 while ongoing."""
    w = state[WIN] if state[PHASE] == OVER else 0
    if w == 0 or w == 3:
        out[0] = 0.0
        out[1] = 0.0
    else:
        out[0] = 1.0 if w == 1 else -1.0
        out[1] = -out[0]


@njit(cache=True)
def row(state, out):
    out[0] = state[LENGTH]
    out[1] = state[WIN] if state[PHASE] == OVER else 0
    out[2] = _fields(state, 0)
    out[3] = _fields(state, 1)
    out[4] = state[TURN]
    out[5] = 1 if state[STALL] >= STALL_TURNS else 0
    out[6] = state[SPACES]
    out[7] = state[SPACES + 1]


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
