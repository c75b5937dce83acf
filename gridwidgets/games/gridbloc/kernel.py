"""GridBloc compiled (GB-1..GB-7, GB-10): the kernel of :mod:`gridwidgets.fast`.

State (``int64``), with ``n = size * size`` tiles and ``e = 2 * size * (size - 1)``
interior edges (numbered as ``GridBloc``'s edge ids):

- ``[0:16]``: size, ``n``, ``e``, phase (0 setup, 1 play, 2 over), round
  (1, 2), who acts (0 the runner, 1 the blocker, GB-4), the runner's tile,
  the start tile, the points per round and player (four: round one's
  players 0 and 1, then round two's, GB-5), the winners (bit mask), moves
  played, a stamp for the trapped search;
- ``HEAD = 16``: ``e`` edges shut now (a wall or next to a hole, GB-1,
  GB-2), then ``e`` edges shut at a round's start (the original walls and
  the hole edges, GB-7), then ``n`` holes, ``n`` tiles visited this round
  (GB-5), ``n`` stamps and ``n`` stack cells of the trapped search (GB-6),
  then the step table: per tile 8 steps of 5 numbers, in ``GridBloc``'s
  order (``_DIRS``, so by tile index): the tile, then the edge an
  orthogonal step crosses (and ``-1``), or the four edges around the
  corner a diagonal step passes (GB-3); ``-1`` after the last step.

A move's code is its index in ``GridBloc.all_moves``: a step to tile ``j``
is ``j``, a wall on edge ``k`` is ``n + k``, ``done`` is ``2 * n + e`` (the
setup's start moves, ``n + e + i``, are never searched). The moves come as
``GridBloc.search_moves`` gives them: the runner's steps by tile index
(GB-3), the blocker's open edges by edge id (GB-4), and in the setup only
``done`` (GB-10).
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

SIZE, N, NE, PHASE, ROUND, TO_ACT, RUNNER, START, RS, WINNERS, LENGTH, STAMP = (
    0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14)
HEAD = SHUT = 16
SETUP, PLAY, OVER = 0, 1, 2
RUN, BLOCK = 0, 1
ROW_EXTRA = 0
_PHASES = {"setup": SETUP, "play": PLAY, "over": OVER}


def supports(game: Any) -> bool:
    """Every GridBloc board and position; not a subclass that changes the rules."""
    from .rules import GridBloc

    cls = type(game)
    return isinstance(game, GridBloc) and all(
        getattr(cls, name) is getattr(GridBloc, name)
        for name in ("_apply", "_steps", "_trapped", "_begin_round", "_end_round", "legal_moves", "search_moves",
                     "returns", "result_row", "_rollout", "current_player", "winners", "scores"))


def encode(game: Any) -> np.ndarray:
    size = game.size
    n = size * size
    e = len(game._edge_tiles)
    shut, base = SHUT, SHUT + e
    hole = base + e
    vis = hole + n
    steps = vis + 3 * n
    s = np.zeros(steps + 40 * n, dtype=np.int64)
    s[SIZE], s[N], s[NE] = size, n, e
    s[PHASE] = _PHASES[game._phase]
    s[ROUND] = game._round
    s[TO_ACT] = RUN if game._to_act == "run" else BLOCK
    s[RUNNER], s[START] = game._runner, game._start
    for r in range(2):
        for p in range(2):
            s[RS + 2 * r + p] = game._round_scores[r][p]
    s[WINNERS] = sum(1 << q for q in game._winners) if game._phase == "over" else 0
    s[LENGTH] = len(game._history)
    s[shut: shut + e] = game._shut
    s[base: base + e] = game._hole_edge  # GB-1: every edge next to a hole is closed
    for k in game._original:
        s[base + k] = 1
    s[hole: hole + n] = game._hole_mask
    s[vis: vis + n] = game._visited
    table = np.full((n, 8, 5), -1, dtype=np.int64)
    for i, ts in enumerate(game._step_table):
        for d, t in enumerate(ts):
            table[i, d, : len(t)] = t
    s[steps:] = table.ravel()
    return s


def decode(game: Any, code: int) -> Any:
    from ...core.moves import CellMove
    from .rules import Done, StartMove

    n = game.size * game.size
    e = len(game._edge_tiles)
    if code < n:
        return CellMove(divmod(code, game.size))
    if code < n + e:
        return game._wall_objs[code - n]
    if code < 2 * n + e:
        return StartMove(divmod(code - n - e, game.size))
    return Done()


def max_moves(game: Any) -> int:
    return len(game._edge_tiles) + 9


def extra_columns(game: Any, extra: np.ndarray) -> dict[str, np.ndarray]:
    return {}


# the offsets of the state's arrays (see the module docstring)
@njit(cache=True, inline="always")
def _hole(state):
    return SHUT + 2 * state[NE]


@njit(cache=True, inline="always")
def _vis(state):
    return SHUT + 2 * state[NE] + state[N]


@njit(cache=True, inline="always")
def _steps(state):
    return SHUT + 2 * state[NE] + 4 * state[N]


@njit(cache=True, inline="always")
def _can(state, shut, t):
    """GB-3: the step ``t`` (an offset into the step table) is open. An
    orthogonal step is blocked by a wall on its edge; a diagonal one when
    walls close both sides of the corner it passes."""
    if state[t + 2] < 0:
        return state[shut + state[t + 1]] == 0
    return not ((state[shut + state[t + 1]] != 0 or state[shut + state[t + 2]] != 0)
                and (state[shut + state[t + 3]] != 0 or state[shut + state[t + 4]] != 0))


@njit(cache=True)
def _trapped(state):
    """GB-6: no unscored tile can be reached from the runner's tile."""
    shut, hole, vis, steps = SHUT, _hole(state), _vis(state), _steps(state)
    mark = vis + state[N]
    stack = mark + state[N]
    state[STAMP] += 1
    stamp = state[STAMP]
    start = state[RUNNER]
    state[mark + start] = stamp
    state[stack] = start
    top = 1
    while top:
        top -= 1
        i = state[stack + top]
        for t in range(steps + 40 * i, steps + 40 * i + 40, 5):
            j = state[t]
            if j < 0:
                break
            if state[hole + j] or state[mark + j] == stamp or not _can(state, shut, t):
                continue
            if not state[vis + j]:
                return False
            state[mark + j] = stamp
            state[stack + top] = j
            top += 1
    return True


@njit(cache=True)
def _begin_round(state):
    """GB-7: the original walls back, no tile scored, the runner on the start
    (worth nothing, GB-5), the runner to step (GB-4). Returns True when the
    runner is trapped at once (GB-6: a sealed start)."""
    vis = _vis(state)
    n = state[N]
    e = state[NE]
    for k in range(e):
        state[SHUT + k] = state[SHUT + e + k]
    for i in range(n):
        state[vis + i] = 0
    state[RUNNER] = state[START]
    state[vis + state[START]] = 1
    state[TO_ACT] = RUN
    return _trapped(state)


@njit(cache=True)
def _end_round(state):
    """GB-6, GB-7: round one over, round two begins (and may end at once);
    round two over, the higher total wins, equal totals draw."""
    while True:
        if state[ROUND] == 1:
            state[ROUND] = 2
            if _begin_round(state):
                continue
            return
        state[PHASE] = OVER
        t0 = state[RS] + state[RS + 2]
        t1 = state[RS + 1] + state[RS + 3]
        state[WINNERS] = 3 if t0 == t1 else (1 if t0 > t1 else 2)
        return


@njit(cache=True)
def legal(state, out):
    """``search_moves``: the runner's steps by tile (GB-3), the blocker's open
    edges (GB-4), ``done`` alone in the setup (GB-10)."""
    phase = state[PHASE]
    if phase == OVER:
        return 0
    n = state[N]
    e = state[NE]
    if phase == SETUP:
        out[0] = 2 * n + e
        return 1
    shut, hole, steps = SHUT, _hole(state), _steps(state)
    k = 0
    if state[TO_ACT] == RUN:
        i = state[RUNNER]
        for t in range(steps + 40 * i, steps + 40 * i + 40, 5):
            j = state[t]
            if j < 0:
                break
            if state[hole + j] == 0 and _can(state, shut, t):
                out[k] = j
                k += 1
        return k
    for x in range(e):
        if state[shut + x] == 0:
            out[k] = n + x
            k += 1
    return k


@njit(cache=True, inline="always")
def draw(state, mt, buf):
    """A rollout's move: ``buf[randbelow(mt, legal(state, buf))]``."""
    return buf[randbelow(mt, legal(state, buf))]


@njit(cache=True)
def player(state):
    """GB-4, GB-7: the runner (player 1 in round one, 0 in round two) or the
    blocker; player 0 in the setup (GB-10); ``-1`` when over."""
    phase = state[PHASE]
    if phase == OVER:
        return -1
    if phase == SETUP:
        return 0
    runner = 1 if state[ROUND] == 1 else 0
    return runner if state[TO_ACT] == RUN else 1 - runner


@njit(cache=True)
def joint_legal(state, p, out):
    return legal(state, out) if p == player(state) else 0


@njit(cache=True)
def joint(state):
    return False


@njit(cache=True)
def play(state, code):
    n = state[N]
    state[LENGTH] += 1
    if state[PHASE] == SETUP:
        # GB-10: only ``done`` is searched; round one begins
        state[PHASE] = PLAY
        if _begin_round(state):
            _end_round(state)
        return
    vis = _vis(state)
    if code < n:
        # GB-3 step, GB-5: a tile landed on for the first time this round scores 1
        state[RUNNER] = code
        if not state[vis + code]:
            state[vis + code] = 1
            state[RS + 2 * (state[ROUND] - 1) + (1 if state[ROUND] == 1 else 0)] += 1
        state[TO_ACT] = BLOCK
    else:
        # GB-4: the blocker places one wall
        state[SHUT + code - n] = 1
        state[TO_ACT] = RUN
    if _trapped(state):  # GB-6: checked after every step and every wall
        _end_round(state)


@njit(cache=True)
def returns(state, out):
    """C-4: +1 a sole winner, -1 the other; 0 each for a draw (GB-7); 0 while ongoing."""
    w = state[WINNERS] if state[PHASE] == OVER else 0
    if w == 0:
        out[0] = 0.0
        out[1] = 0.0
    elif w == 3:
        out[0] = 0.0
        out[1] = 0.0
    else:
        out[0] = 1.0 if w == 1 else -1.0
        out[1] = 1.0 if w == 2 else -1.0


@njit(cache=True)
def row(state, out):
    out[0] = state[LENGTH]
    out[1] = state[WINNERS] if state[PHASE] == OVER else 0
    out[2] = state[RS] + state[RS + 2]
    out[3] = state[RS + 1] + state[RS + 3]


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
