"""Monte Carlo tree search: UCT, with decoupled UCT for simultaneous bids.

Sources:

- UCT: L. Kocsis and C. Szepesvári (2006), "Bandit based Monte-Carlo
  Planning", ECML 2006, LNCS 4212, pp. 282-293: the tree policy picks the
  child maximising UCB1, ``mean + c * sqrt(ln N / n)`` (P. Auer,
  N. Cesa-Bianchi and P. Fischer (2002), "Finite-time Analysis of the
  Multiarmed Bandit Problem", Machine Learning 47).
- The four steps (selection, expansion, simulation, backpropagation), the
  multi-player rule (each node's statistics from the point of view of the
  player who moved into it, "max^n" style) and the final move chosen by
  visits ("robust child"): C. Browne, E. Powley, D. Whitehouse, S. Lucas,
  P. Cowling, P. Rohlfshagen, S. Tavener, D. Perez, S. Samothrakis and
  S. Colton (2012), "A Survey of Monte Carlo Tree Search Methods", IEEE
  Trans. Computational Intelligence and AI in Games 4(1), sections 3.1,
  3.3.3 and 5.5.
- Simultaneous moves (a simultaneous node, C-5): decoupled UCT (DUCT),
  M. Lanctot, V. Lisý and M. H. M. Winands (2013), "Monte Carlo Tree
  Search in Simultaneous Move Games with Applications to Goofspiel",
  Computer Games Workshop at IJCAI 2013, CCIS 408; and M. J. W. Tak,
  M. Lanctot and M. H. M. Winands (2014), "Monte Carlo Tree Search
  Variants for Simultaneous Move Games", IEEE CIG 2014: at a joint node
  each player selects from its own UCB1 statistics over its own actions,
  ignoring the other's choice; the joint action leads to the child; each
  player's table is updated with its own return. The final move is drawn
  from the visit distribution ("DUCT(mix)", the variant whose average
  strategy can approach an equilibrium; Lanctot et al. 2013, section 3),
  or is the most visited with ``simultaneous_choice="max"``.
"""

from __future__ import annotations

import math
import random
import threading
import time as _time
from collections.abc import Callable
from typing import Any

from .. import fast
from ..core.game import Game
from .base import Agent
from .greedy import position_rng

__all__ = ["MCTSAgent"]

#: most simulations per compiled call when a time budget or a stop event is
#: watched; calls start at one simulation and double up to this, so a stop
#: event already set ends the search after one simulation, as in Python
_CHUNK = 256


class _Node:
    """A node where one player moves (or a terminal node)."""

    __slots__ = ("children", "move", "mover", "moves", "n", "player", "returns", "untried", "w")

    def __init__(self, game: Game, mover: int | None, move: Any, rng: random.Random) -> None:
        self.mover = mover  # who played ``move`` into this node (statistics are theirs)
        self.move = move
        self.n = 0
        self.w = 0.0
        self.children: list[Any] = []
        p = game.current_player
        self.player = p
        if p is None:
            self.returns: tuple[float, ...] | None = game.returns()
            self.moves: list[Any] = []
        else:
            self.returns = None
            self.moves = _legal(game)  # a new list: expansion reorders it
        self.untried = len(self.moves)


class _JointNode:
    """A simultaneous node (C-5): the players choose at once (decoupled UCT)."""

    __slots__ = ("children", "move", "mover", "moves", "n", "nt", "player", "returns", "w", "wt")

    def __init__(self, game: Any, mover: int | None, move: Any, rng: random.Random) -> None:
        self.mover = mover
        self.move = move
        self.n = 0
        self.w = 0.0
        self.player = -1  # both
        self.returns = None
        self.moves = [list(game.legal_moves(0)), list(game.legal_moves(1))]
        for m in self.moves:
            rng.shuffle(m)
        self.nt = [[0] * len(m) for m in self.moves]  # per player, per own action: visits
        self.wt = [[0.0] * len(m) for m in self.moves]  # per player, per own action: sum of own returns
        self.children: dict[tuple[int, int], Any] = {}


def _is_joint(game: Any) -> bool:
    """True at a simultaneous node where nobody has submitted yet."""
    return game.is_simultaneous_node() and not game.pending


def _legal(game: Any) -> list[Any]:
    """The moves the search considers (the game's ``search_moves`` hook)."""
    return list(game.search_moves())


def _new_node(game: Any, mover: int | None, move: Any, rng: random.Random) -> Any:
    if game.current_player is not None and _is_joint(game):
        return _JointNode(game, mover, move, rng)
    return _Node(game, mover, move, rng)


class MCTSAgent(Agent):
    """Monte Carlo tree search with UCT, for every game (see the module
    docstring for the sources).

    Each simulation walks down the tree by UCB1, adds one node, plays a
    rollout to the end, and backs up ``game.returns()`` (per player: +1 a
    win, -1 a loss, 0 a draw or shared win): each node keeps the mean return
    of the player who moved into it, so it works for any number of players
    and for turns that do not alternate (a round change, a move that
    earns another). The search plays and undoes moves on one copy of
    the game (``play``/``undo``), never on the game given.

    A simultaneous node (``game.is_simultaneous_node()``, C-5) is searched
    by decoupled UCT: there each player selects its choice from its own
    UCB1 statistics, the choices are submitted in player order, and each
    player's statistics are updated with its own return. When the agent's
    view holds another player's submission as hidden (``game.view_for(p)``),
    the search takes it back (``view.undo()``, which withdraws a pending
    hidden submission) and searches from the node before any submission:
    the other player's choice is then made in every simulation from *that
    player's own* decoupled-UCT statistics at this node, as it was made
    without knowing ours. (The same holds if the full game is given: the
    agent always searches ``game.view_for(player)``, so it never uses a
    submission it could not see.) The agent's choice is then drawn from its
    visit distribution (``simultaneous_choice="mix"``, seeded) or is the most visited
    (``"max"``). Guessing the hidden submission with ``with_submission``
    instead would fix one guess per copy of the game; taking it back lets
    one search sample a new guess in every simulation on one copy, with one
    ``undo()`` per ``play()``.

    Returns are the game's ``returns()``; in a one-player puzzle where
    every ending is a "win" the search has nothing to tell moves apart: use
    the game's own solver there, if it has one.

    Args:
        simulations: simulations per move (used when ``time`` is None).
        time: a budget in seconds per move instead; the search stops at the
            first simulation ending after it. Results under ``time`` depend
            on the machine's speed and load, so they are not reproducible.
        c: the UCB1 exploration constant (returns lie in -1..1).
        seed: seeds the expansion order, the rollouts and the tie-breaks:
            with ``simulations=``, the same seed in the same position gives
            the same move and statistics (the stream is a function of the
            seed and the position, as for ``RandomAgent``). ``None``: an
            unseeded stream.
        rollout: ``"random"`` (uniformly random legal moves to the end) or a
            callable ``policy(game, rng) -> move`` called for each rollout
            move (it must return a legal move and leave ``game`` as it is).
        simultaneous_choice: at a simultaneous node, ``"mix"`` (draw the
            submission in proportion to its visits) or ``"max"`` (the most visited).

    Attributes:
        last_stats: after :meth:`choose` or :meth:`analyse`, per legal move
            of the root ``(notation, visits, mean return for the mover)``,
            most visited first.
        last_history: after :meth:`analyse` with ``record_every``, the root
            visit counts over time: a list of ``(simulations done,
            {notation: visits})``.
        last_simulations: how many simulations the last search ran.
    """

    def __init__(
        self,
        simulations: int = 1000,
        time: float | None = None,
        c: float = 1.4,
        seed: int | None = 0,
        rollout: str | Callable[[Game, random.Random], Any] = "random",
        simultaneous_choice: str = "mix",
    ) -> None:
        if time is None and (not isinstance(simulations, int) or simulations < 1):
            raise ValueError(f"simulations must be a positive int, got {simulations!r}")
        if time is not None and not time > 0:
            raise ValueError(f"time must be a positive number of seconds, got {time!r}")
        if rollout != "random" and not callable(rollout):
            raise ValueError("rollout must be 'random' or a callable policy(game, rng) -> move")
        if simultaneous_choice not in ("mix", "max"):
            raise ValueError(f"simultaneous_choice must be 'mix' or 'max', got {simultaneous_choice!r}")
        self.simulations = simulations
        self.time = time
        self.c = float(c)
        self.seed = seed
        self.rollout = rollout
        self.simultaneous_choice = simultaneous_choice
        self._rng = random.Random(seed)
        self.last_stats: list[tuple[str, int, float]] = []
        self.last_history: list[tuple[int, dict[str, int]]] = []
        self.last_simulations = 0

    @property
    def name(self) -> str:
        if self.time is not None:
            return f"MCTSAgent({self.time:g} s)"
        return f"MCTSAgent({self.simulations} sims)"

    def reset(self) -> None:
        self._rng = random.Random(self.seed)
        self.last_stats = []
        self.last_history = []
        self.last_simulations = 0

    # ------------------------------------------------------------------
    def choose(self, game: Game) -> Any:
        """The move of :attr:`Game.current_player` after the search; ``game``
        is not changed. Sets :attr:`last_stats`.

        Raises:
            ValueError: if the game is over.
        """
        me = game.current_player
        moves = game.legal_moves()
        if me is None or not moves:
            raise ValueError("the game is over: there is no move to choose")
        if len(moves) == 1:
            self.last_stats = [(str(moves[0]), 0, 0.0)]
            self.last_simulations = 0
            return moves[0]
        root, rng = self._search(game, None, None)
        return self._final(root, me, rng, moves)

    def analyse(
        self,
        game: Game,
        simulations: int | None = None,
        record_every: int | None = None,
        stop: threading.Event | None = None,
    ) -> dict[str, tuple[int, float]]:
        """Search ``game`` and return, per legal move (notation), its visits and
        mean return for the mover (-1..1): for hint overlays (visit share and
        value per move). ``game`` is not changed.

        Args:
            simulations: how many simulations (default: the agent's budget,
                ``simulations`` or ``time``).
            record_every: also record the root's visit counts every this many
                simulations (and at the end) in :attr:`last_history`, for a
                plot of the search converging.
            stop: an event another thread sets to end the search early (after
                at least one simulation); the statistics so far are returned.

        Raises:
            ValueError: if the game is over.
        """
        if game.current_player is None:
            raise ValueError("the game is over: there is nothing to analyse")
        if record_every is not None and (not isinstance(record_every, int) or record_every < 1):
            raise ValueError(f"record_every must be a positive int, got {record_every!r}")
        self._search(game, simulations, record_every, stop)
        out = {m: (n, v) for m, n, v in self.last_stats}
        for m in game.legal_moves():
            out.setdefault(str(m), (0, 0.0))
        return out

    # ------------------------------------------------------------------
    def _search(
        self, game: Game, simulations: int | None, record_every: int | None, stop: threading.Event | None = None
    ) -> tuple[Any, random.Random]:
        me = game.current_player
        assert me is not None
        rng = position_rng(self.seed, game, self._rng)
        work = game.view_for(me)
        # a hidden submission of another player is taken back, so the root is
        # the simultaneous node before any submission (decoupled UCT decides it)
        while work.pending:
            work.undo()
        # an explicit number of simulations, else the agent's time budget, else its simulations
        budget = simulations if simulations is not None else (None if self.time is not None else self.simulations)
        deadline = None if budget is not None else _time.perf_counter() + float(self.time)  # type: ignore[arg-type]
        history: list[tuple[int, dict[str, int]]] = []
        mod = fast.kernel(work) if self.rollout == "random" else None
        if mod is not None:
            # the same search compiled (gridwidgets.fast): the same tree, statistics and stream
            tree = fast.CompiledSearch(work, mod, rng, self.c)
            chunk = 1
            while True:
                step = budget - tree.simulations if budget is not None else _CHUNK
                if record_every is not None:
                    step = min(step, record_every - tree.simulations % record_every)
                if stop is not None or deadline is not None:
                    step = min(step, chunk)
                    chunk = min(2 * chunk, _CHUNK)
                tree.run(step)
                done = tree.simulations
                if record_every is not None and done % record_every == 0:
                    history.append((done, self._visits(tree, me)))
                if (stop is not None and stop.is_set()) or (budget is not None and done >= budget):
                    break
                if deadline is not None and _time.perf_counter() >= deadline:
                    break
            return self._finish_search(tree, me, done, record_every, history), rng
        root = _new_node(work, None, None, rng)
        done = 0
        simulate = self._simulate
        while True:
            simulate(root, work, rng)
            done += 1
            if record_every is not None and done % record_every == 0:
                history.append((done, self._visits(root, me)))
            if stop is not None and stop.is_set():
                break
            if budget is not None:
                if done >= budget:
                    break
            elif _time.perf_counter() >= deadline:  # type: ignore[operator]
                break
        return self._finish_search(root, me, done, record_every, history), rng

    def _finish_search(self, root: Any, me: int, done: int, record_every: int | None,
                       history: list[tuple[int, dict[str, int]]]) -> Any:
        if record_every is not None and (not history or history[-1][0] != done):
            history.append((done, self._visits(root, me)))
        self.last_history = history
        self.last_simulations = done
        self.last_stats = self._stats(root, me)
        return root

    def _simulate(self, root: Any, game: Any, rng: random.Random) -> None:
        """One simulation from ``root`` (the position of ``game``); ``game`` is left as it was."""
        node = root
        path = [root]
        joints: list[tuple[Any, int, int]] = []
        start = game.step_count
        c = self.c
        log, sqrt = math.log, math.sqrt
        play = game.play
        try:
            # 1. selection and 2. expansion
            while node.returns is None:
                if node.player == -1:  # a joint bid node (decoupled UCT)
                    picks = []
                    for p in (0, 1):
                        picks.append(_ucb_pick(node.nt[p], node.wt[p], node.n, c, log, sqrt))
                    i0, i1 = picks
                    play(node.moves[0][i0], 0)
                    play(node.moves[1][i1], 1)
                    joints.append((node, i0, i1))
                    child = node.children.get((i0, i1))
                    if child is None:
                        child = _new_node(game, None, None, rng)
                        node.children[(i0, i1)] = child
                        path.append(child)
                        node = child
                        break
                    path.append(child)
                    node = child
                    continue
                if node.untried:
                    # expand an untried move drawn at random (seeded, so ties break by the seed)
                    k = node.untried - 1
                    moves = node.moves
                    j = rng.randrange(node.untried) if k else 0
                    move = moves[j]
                    moves[j], moves[k] = moves[k], move
                    node.untried = k
                    mover = node.player
                    play(move)
                    child = _new_node(game, mover, move, rng)
                    node.children.append(child)
                    path.append(child)
                    node = child
                    break
                logn = c * sqrt(log(node.n))
                best = None
                best_u = -math.inf
                for ch in node.children:
                    u = ch.w / ch.n + logn / sqrt(ch.n)
                    if u > best_u:
                        best_u, best = u, ch
                node = best  # type: ignore[assignment]
                play(node.move)
                path.append(node)
            # 3. simulation (rollout)
            if node.returns is not None:
                returns = node.returns
            else:
                policy = self.rollout
                setup = type(game).search_moves is not Game.search_moves  # the game narrows its moves
                randrange = rng.randrange
                legal_moves = game.legal_moves
                while game.current_player is not None:
                    if policy != "random":
                        play(policy(game, rng))  # type: ignore[operator]
                    else:
                        moves = _legal(game) if setup else legal_moves()
                        play(moves[randrange(len(moves))])
                returns = game.returns()
        finally:
            undo = game.undo
            while game.pending:
                undo()
            for _ in range(game.step_count - start):
                undo()
        # 4. backpropagation
        for nd in path:
            nd.n += 1
            if nd.mover is not None:
                nd.w += returns[nd.mover]
        for nd, i0, i1 in joints:
            nd.nt[0][i0] += 1
            nd.wt[0][i0] += returns[0]
            nd.nt[1][i1] += 1
            nd.wt[1][i1] += returns[1]

    # ------------------------------------------------------------------
    @staticmethod
    def _root_table(root: Any, me: int) -> list[tuple[Any, int, float]]:
        """Per root move of ``me``: (move, visits, summed return)."""
        if isinstance(root, fast.CompiledSearch):
            return root.root_table(me)
        if root.player == -1:
            return list(zip(root.moves[me], root.nt[me], root.wt[me], strict=True))
        return [(ch.move, ch.n, ch.w) for ch in root.children] + [(m, 0, 0.0) for m in root.moves[: root.untried]]

    def _stats(self, root: Any, me: int) -> list[tuple[str, int, float]]:
        rows = [(str(m), n, (w / n if n else 0.0)) for m, n, w in self._root_table(root, me)]
        rows.sort(key=lambda r: (-r[1], -r[2], r[0]))
        return rows

    def _visits(self, root: Any, me: int) -> dict[str, int]:
        return {str(m): n for m, n, _ in self._root_table(root, me)}

    def _final(self, root: Any, me: int, rng: random.Random, legal: list[Any]) -> Any:
        table = self._root_table(root, me)
        if root.player == -1 and self.simultaneous_choice == "mix":
            total = sum(n for _, n, _ in table)
            x = rng.random() * total
            move = max(table, key=lambda r: r[1])[0]  # (only if rounding left x >= 0)
            for m, n, _ in table:
                x -= n
                if x < 0:
                    move = m
                    break
        else:
            # robust child: most visits, then the higher mean (Browne et al. 2012, 3.3.3)
            move = max(table, key=lambda r: (r[1], r[2] / r[1] if r[1] else -math.inf))[0]
        # the same move object as in the caller's legal list
        for m in legal:
            if m == move:
                return m
        text = str(move)
        return next(m for m in legal if str(m) == text)


def _ucb_pick(nt: list[int], wt: list[float], total: int, c: float, log: Any, sqrt: Any) -> int:
    """UCB1 over one player's own actions at a joint node (untried first, in their seeded order)."""
    best, best_u = 0, -math.inf
    logn = c * sqrt(log(total)) if total > 0 else 0.0
    for i, n in enumerate(nt):
        if n == 0:
            return i
        u = wt[i] / n + logn / sqrt(n)
        if u > best_u:
            best_u, best = u, i
    return best
