"""The compiled drivers every game's kernel runs under: random games, and UCT.

A game's kernel (``Game.compiled_module``, see :mod:`gridwidgets.fast`)
gives compiled rules over an ``int64`` state array; these functions take
those rule functions as arguments (numba compiles one specialisation per
game) and replay exactly what the Python code does with the same
``random.Random`` stream (:mod:`gridwidgets.fast.mt`):

- :func:`rollout` is ``Game._rollout``: uniformly random legal moves to the
  end, ``moves[rng.randrange(len(moves))]`` (a kernel's ``draw``), at a
  simultaneous node the players in order (C-5);
- :func:`uct_run` is :class:`~gridwidgets.agents.MCTSAgent`'s search, step
  for step: the same expansion order, UCB1 arithmetic, tie-breaks,
  rollouts and decoupled UCT at simultaneous nodes (the sources are in
  :mod:`gridwidgets.agents.mcts`).

Rule functions of a kernel (all compiled): ``legal(state, out) -> count``
(the moves a search considers, in the Python engine's order, as ``int64``
codes; at a simultaneous node those of the next player to submit),
``joint_legal(state, player, out) -> count`` (one player's moves at a
simultaneous node), ``draw(state, mt, buf) -> code`` (the move of
``legal`` a random rollout plays, ``buf[randbelow(mt, legal(state, buf))]``,
which a kernel may find without listing the moves, drawing the same
number), ``play(state, code)``, ``player(state) -> int`` (the
player to act, ``-1`` once over), ``joint(state) -> bool`` (a simultaneous
node with nothing submitted), ``returns(state, out)``, ``row(state, out)``
(the numbers of a finished game's result row).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .mt import randbelow, reseed, shuffle

# the columns of a tree's integer table (one row per node)
N_VISITS, MOVER, MOVE, KIND, UNTRIED, MOFF, MCOUNT, C0, JOFF = range(9)
NODE_FIELDS = 9
# node kinds
NORMAL, JOINT, TERMINAL = 0, 1, 2
# the columns of the move pool's integer table (one row per move of a node)
P_MOVE, P_CHILD, P_VISITS = range(3)
# meta: nodes used, pool rows used, joint child cells used, simulations done
M_NODES, M_POOL, M_JOINT, M_SIMS = range(4)


@njit
def rollout(draw, play, player, state, mt, buf):
    """Play uniformly random moves to the end (``Game._rollout``); returns the moves played."""
    count = 0
    while player(state) >= 0:
        play(state, draw(state, mt, buf))
        count += 1
    return count


@njit
def random_moves(draw, play, player, state, mt, buf, out):
    """:func:`rollout`, keeping the codes played in ``out``; returns how many."""
    count = 0
    while player(state) >= 0:
        code = draw(state, mt, buf)
        play(state, code)
        out[count] = code
        count += 1
    return count


@njit
def random_games(draw, play, player, row, templates, seeds, table, buf):
    """One random game per seed, as ``random.Random(seed)`` plays it, from
    ``templates[i]`` (one starting state per seed, or one row for all);
    game ``i``'s result row into ``table[i]``."""
    state = templates[0].copy()
    key = np.zeros(1, dtype=np.int64)
    mt = np.empty(625, dtype=np.int64)
    for i in range(len(seeds)):
        state[:] = templates[i if templates.shape[0] > 1 else 0]
        key[0] = seeds[i]
        reseed(mt, key)
        rollout(draw, play, player, state, mt, buf)
        row(state, table[i])


@njit(cache=True)
def _grow_ints(a, need):
    if need <= a.shape[0]:
        return a
    b = np.empty((max(need, 2 * a.shape[0]), a.shape[1]), dtype=a.dtype)
    b[: a.shape[0]] = a
    return b


@njit(cache=True)
def _grow(a, need):
    if need <= a.shape[0]:
        return a
    b = np.empty(max(need, 2 * a.shape[0]), dtype=a.dtype)
    b[: a.shape[0]] = a
    return b


@njit
def _new_node(legal, joint_legal, player, joint, state, mt, mover, move, nodes, wsum, pool, pool_w,
              jchild, meta, buf):
    """``mcts._new_node``: a node for the position ``state``; returns the
    (maybe grown) tables and the node's index."""
    k = meta[M_NODES]
    nodes = _grow_ints(nodes, k + 1)
    wsum = _grow(wsum, k + 1)
    meta[M_NODES] = k + 1
    nodes[k, N_VISITS] = 0
    wsum[k] = 0.0
    nodes[k, MOVER] = mover
    nodes[k, MOVE] = move
    nodes[k, C0] = 0
    nodes[k, JOFF] = -1
    off = meta[M_POOL]
    nodes[k, MOFF] = off
    if player(state) < 0:
        nodes[k, KIND] = TERMINAL
        nodes[k, MCOUNT] = 0
        nodes[k, UNTRIED] = 0
    elif joint(state):
        nodes[k, KIND] = JOINT
        c0 = joint_legal(state, 0, buf)
        pool = _grow_ints(pool, off + c0 + buf.shape[0])
        pool_w = _grow(pool_w, off + c0 + buf.shape[0])
        for i in range(c0):
            pool[off + i, P_MOVE] = buf[i]
        c1 = joint_legal(state, 1, buf)
        for i in range(c1):
            pool[off + c0 + i, P_MOVE] = buf[i]
        for i in range(c0 + c1):
            pool[off + i, P_CHILD] = -1
            pool[off + i, P_VISITS] = 0
            pool_w[off + i] = 0.0
        shuffle(mt, pool[:, P_MOVE], off, c0)
        shuffle(mt, pool[:, P_MOVE], off + c0, c1)
        nodes[k, C0] = c0
        nodes[k, MCOUNT] = c0 + c1
        nodes[k, UNTRIED] = 0
        meta[M_POOL] = off + c0 + c1
        j = meta[M_JOINT]
        jchild = _grow(jchild, j + c0 * c1)
        for i in range(c0 * c1):
            jchild[j + i] = -1
        nodes[k, JOFF] = j
        meta[M_JOINT] = j + c0 * c1
    else:
        nodes[k, KIND] = NORMAL
        n = legal(state, buf)
        pool = _grow_ints(pool, off + n)
        pool_w = _grow(pool_w, off + n)
        for i in range(n):
            pool[off + i, P_MOVE] = buf[i]
            pool[off + i, P_CHILD] = -1
            pool[off + i, P_VISITS] = 0
            pool_w[off + i] = 0.0
        nodes[k, MCOUNT] = n
        nodes[k, UNTRIED] = n
        meta[M_POOL] = off + n
    return nodes, wsum, pool, pool_w, jchild, k


@njit(cache=True)
def _ucb_pick(pool, pool_w, off, count, total, c):
    """``mcts._ucb_pick``: UCB1 over one player's own actions at a joint node."""
    best = 0
    best_u = -math.inf
    logn = c * math.sqrt(math.log(total)) if total > 0 else 0.0
    for i in range(count):
        n = pool[off + i, P_VISITS]
        if n == 0:
            return i
        u = pool_w[off + i] / n + logn / math.sqrt(n)
        if u > best_u:
            best_u = u
            best = i
    return best


@njit
def uct_run(legal, joint_legal, draw, play, player, joint, returns, nodes, wsum, pool, pool_w, jchild, meta,
            root_state, mt, sims, c, n_players, buf):
    """``sims`` more simulations of :class:`~gridwidgets.agents.MCTSAgent` on
    the tree whose root (node 0) is ``root_state``; the tree is created on
    the first call (``meta[M_NODES] == 0``). Returns the (maybe grown) tables."""
    state = root_state.copy()
    if meta[M_NODES] == 0:
        nodes, wsum, pool, pool_w, jchild, _ = _new_node(
            legal, joint_legal, player, joint, state, mt, -1, -1, nodes, wsum, pool, pool_w, jchild, meta, buf)
    path = np.empty(64, dtype=np.int64)
    jpath = np.empty((64, 3), dtype=np.int64)
    ret = np.zeros(n_players, dtype=np.float64)
    for _ in range(sims):
        state[:] = root_state
        node = 0
        depth = 0
        jdepth = 0
        path[0] = 0
        depth = 1
        # 1. selection and 2. expansion
        while nodes[node, KIND] != TERMINAL:
            if depth + 1 >= path.shape[0]:
                path = _grow(path, 2 * path.shape[0])
            if nodes[node, KIND] == JOINT:
                off = nodes[node, MOFF]
                c0 = nodes[node, C0]
                c1 = nodes[node, MCOUNT] - c0
                i0 = _ucb_pick(pool, pool_w, off, c0, nodes[node, N_VISITS], c)
                i1 = _ucb_pick(pool, pool_w, off + c0, c1, nodes[node, N_VISITS], c)
                play(state, pool[off + i0, P_MOVE])
                play(state, pool[off + c0 + i1, P_MOVE])
                if jdepth >= jpath.shape[0]:
                    jpath = _grow_ints(jpath, 2 * jpath.shape[0])
                jpath[jdepth, 0] = node
                jpath[jdepth, 1] = i0
                jpath[jdepth, 2] = i1
                jdepth += 1
                cell = nodes[node, JOFF] + i0 * c1 + i1
                child = jchild[cell]
                if child < 0:
                    nodes, wsum, pool, pool_w, jchild, child = _new_node(
                        legal, joint_legal, player, joint, state, mt, -1, -1, nodes, wsum, pool, pool_w,
                        jchild, meta, buf)
                    jchild[cell] = child
                    path[depth] = child
                    depth += 1
                    node = child
                    break
                path[depth] = child
                depth += 1
                node = child
                continue
            untried = nodes[node, UNTRIED]
            off = nodes[node, MOFF]
            if untried:
                # expand an untried move drawn at random (seeded)
                k = untried - 1
                j = randbelow(mt, untried) if k else 0
                move = pool[off + j, P_MOVE]
                pool[off + j, P_MOVE] = pool[off + k, P_MOVE]
                pool[off + k, P_MOVE] = move
                nodes[node, UNTRIED] = k
                mover = player(state)
                play(state, move)
                nodes, wsum, pool, pool_w, jchild, child = _new_node(
                    legal, joint_legal, player, joint, state, mt, mover, move, nodes, wsum, pool, pool_w,
                    jchild, meta, buf)
                pool[off + k, P_CHILD] = child
                path[depth] = child
                depth += 1
                node = child
                break
            # every move tried: UCB1 over the children, in the order they were added
            logn = c * math.sqrt(math.log(nodes[node, N_VISITS]))
            best = -1
            best_u = -math.inf
            for s in range(nodes[node, MCOUNT] - 1, -1, -1):
                ch = pool[off + s, P_CHILD]
                n = nodes[ch, N_VISITS]
                u = wsum[ch] / n + logn / math.sqrt(n)
                if u > best_u:
                    best_u = u
                    best = ch
            node = best
            play(state, nodes[node, MOVE])
            path[depth] = node
            depth += 1
        # 3. simulation (rollout)
        if nodes[node, KIND] != TERMINAL:
            rollout(draw, play, player, state, mt, buf)
        returns(state, ret)
        # 4. backpropagation
        for d in range(depth):
            nd = path[d]
            nodes[nd, N_VISITS] += 1
            if nodes[nd, MOVER] >= 0:
                wsum[nd] += ret[nodes[nd, MOVER]]
        for d in range(jdepth):
            nd = jpath[d, 0]
            off = nodes[nd, MOFF]
            c0 = nodes[nd, C0]
            a = off + jpath[d, 1]
            b = off + c0 + jpath[d, 2]
            pool[a, P_VISITS] += 1
            pool_w[a] += ret[0]
            pool[b, P_VISITS] += 1
            pool_w[b] += ret[1]
        meta[M_SIMS] += 1
    return nodes, wsum, pool, pool_w, jchild


@njit(cache=True)
def root_table(nodes, wsum, pool, pool_w, me):
    """``MCTSAgent._root_table``: per root move of ``me``, ``(code, visits, summed return)``
    as three arrays, in the Python order (children as added, then the untried moves)."""
    off = nodes[0, MOFF]
    if nodes[0, KIND] == JOINT:
        c0 = nodes[0, C0]
        start = off if me == 0 else off + c0
        count = c0 if me == 0 else nodes[0, MCOUNT] - c0
        codes = np.empty(count, dtype=np.int64)
        visits = np.empty(count, dtype=np.int64)
        w = np.empty(count, dtype=np.float64)
        for i in range(count):
            codes[i] = pool[start + i, P_MOVE]
            visits[i] = pool[start + i, P_VISITS]
            w[i] = pool_w[start + i]
        return codes, visits, w
    count = nodes[0, MCOUNT]
    untried = nodes[0, UNTRIED]
    codes = np.empty(count, dtype=np.int64)
    visits = np.empty(count, dtype=np.int64)
    w = np.empty(count, dtype=np.float64)
    i = 0
    for s in range(count - 1, untried - 1, -1):
        ch = pool[off + s, P_CHILD]
        codes[i] = pool[off + s, P_MOVE]
        visits[i] = nodes[ch, N_VISITS]
        w[i] = wsum[ch]
        i += 1
    for s in range(untried):
        codes[i] = pool[off + s, P_MOVE]
        visits[i] = 0
        w[i] = 0.0
        i += 1
    return codes, visits, w
