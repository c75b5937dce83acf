"""Simultaneous-move Monte Carlo tree search (SM-MCTS) with a Hannan-consistent
selection rule: an estimate of the equilibrium that converges, for two-player
zero-sum games with simultaneous moves too large to solve exactly.

Source: V. Lisý, V. Kovařík, M. Lanctot and B. Bošanský (2013),
"Convergence of Monte Carlo Tree Search in Simultaneous Move Games",
*Advances in Neural Information Processing Systems 26* (NeurIPS 2013),
pp. 2112-2120. Their template, as built here:

- The tree's nodes are positions. At a **simultaneous node** each player
  draws its own choice from its own *selection rule* over its own choices
  (the other's choice is not known to it); the joint action leads to the
  child. A **sequential node** is the special case where one player has a
  choice and the other has one: only the mover's rule draws.
- Each simulation walks down the tree by selection until it reaches a
  position not yet in the tree, adds it, and plays **uniformly random moves
  to the end of the game** (the playout); the payoff ``(r0 - r1) / 2``
  (player 0's share of the returns), mapped to ``[0, 1]`` (player 1 gets one
  minus it), updates the rule of every player who chose on the way down.
- The selection rule is **Hannan consistent** (its average regret against
  the best fixed choice in hindsight goes to 0 whatever the other does),
  with a share ``gamma`` of uniform exploration:

  - ``"rm"``: regret matching (S. Hart and A. Mas-Colell (2000), "A Simple
    Adaptive Procedure Leading to Correlated Equilibrium", *Econometrica*
    68(5)), on sampled rewards: the mix is proportional to the positive
    cumulative regrets (uniform when none is positive), mixed with
    ``gamma`` uniform; after the draw, the regret of every choice ``b`` grows
    by ``x_b - u`` where ``u`` is the reward seen and ``x_b = u / p(a)`` for
    the choice ``a`` drawn, 0 for the others (an unbiased estimate of each
    choice's reward, importance-weighted by the probability of the draw);
  - ``"exp3"``: Exp3 (P. Auer, N. Cesa-Bianchi, Y. Freund and R. E. Schapire
    (2002), "The Nonstochastic Multiarmed Bandit Problem", *SIAM J.
    Computing* 32(1)): ``p(a) = (1 - gamma) exp(eta X_a) / sum_b exp(eta X_b)
    + gamma / K`` with ``eta = gamma / K``, and ``X_a += u / p(a)`` for the
    choice drawn;
  - ``"duct"``: decoupled UCT, for comparison only (UCB1 over each player's
    own choices, the mix its visit frequencies): the rule the package's
    :class:`~gridwidgets.agents.MCTSAgent` uses at simultaneous nodes, which
    is **not** Hannan consistent and has no such guarantee.

- The result is the **mean strategy** at the root: the average of the mixes
  the selection drew from at each visit (the paper's "mean strategy";
  Lisý et al. prove that with an ε-Hannan-consistent rule with exploration
  it converges to an approximate subgame-perfect equilibrium, the
  approximation growing with ε). A mix *not* averaged (the last one) need
  not converge. By default (``exploration="removed"``) the uniform share
  ``gamma`` is taken out of the average (``(mean - gamma / K) / (1 - gamma)``
  over ``K`` choices, clipped at 0 and renormalised: ours, so that the mix
  played does not keep the exploration the search needed; it is at most
  about ``gamma`` away from the paper's mean in total variation);
  ``exploration="kept"`` gives the paper's mean strategy as it is.

This is an *estimate*: its exploitability falls toward a small value as the
budget grows (``benchmarks/smmcts_convergence.py`` measures it against the
exact solver), but it is not an equilibrium at any finite budget.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.game import Game
from ..core.gametype import Chance, Dynamics, Information, Utility
from .base import Agent
from .greedy import position_rng

__all__ = ["SELECTIONS", "SMMCTSAgent", "SMMCTSResult", "sm_mcts"]

#: the selection rules: two Hannan-consistent ones and decoupled UCT for comparison
SELECTIONS = ("rm", "exp3", "duct")
#: the default exploration share of each rule (the UCB1 constant for ``"duct"``, rewards in [0, 1])
DEFAULT_GAMMA = {"rm": 0.2, "exp3": 0.1, "duct": 0.7}


def why_not_two_player_zero_sum(game: Game) -> str:
    """Why SM-MCTS does not apply to ``game`` (from its game type), or ``""``."""
    gt = type(game).game_type
    if len(game.players) != 2:
        return f"has {len(game.players)} players"
    if gt.utility is Utility.GENERAL_SUM:
        return "is general-sum"
    if gt.chance not in (Chance.NONE, Chance.SEEDED_SETUP):
        return "has chance moves"
    if gt.information is Information.IMPERFECT and gt.dynamics is not Dynamics.SIMULTANEOUS:
        return "has hidden information beyond simultaneous moves"
    return ""


def check_two_player_zero_sum(game: Any, who: str) -> None:
    """Refuse what :func:`why_not_two_player_zero_sum` refuses.

    Raises:
        TypeError: ``game`` is not a :class:`~gridwidgets.core.game.Game`.
        ValueError: naming ``who`` and why the game is not taken.
    """
    if not isinstance(game, Game):
        raise TypeError(f"{who} takes a game, got {type(game).__name__[:30]}")
    why = why_not_two_player_zero_sum(game)
    if why:
        raise ValueError(f"{who} handles two-player zero-sum games whose only hidden information is a "
                         f"simultaneous choice; {type(game).game_type.long_name} {why}")


def is_joint_node(game: Game) -> bool:
    """True at a simultaneous node of both players with no submission in."""
    return (game.current_player is not None and game.is_simultaneous_node() and not game.pending
            and tuple(game.players_to_move) == (0, 1))


class _Bandit:
    """One player's selection rule at one node: statistics over its own choices."""

    __slots__ = ("cum", "k", "n", "probs", "stat", "w")

    def __init__(self, k: int) -> None:
        self.k = k
        self.stat = [0.0] * k  # rm: cumulative regrets; exp3: reward estimates X; duct: summed rewards
        self.cum = [0.0] * k  # the sum of the mixes drawn from (the mean strategy, unnormalised)
        self.n = [0] * k  # visits per choice
        self.w = 0  # visits of the node
        self.probs: list[float] = []

    def mix(self, rule: str, gamma: float) -> list[float]:
        """The mix this rule draws from now (with exploration)."""
        k = self.k
        if rule == "rm":
            pos = [r if r > 0.0 else 0.0 for r in self.stat]
            s = sum(pos)
            if s > 0.0:
                return [(1.0 - gamma) * q / s + gamma / k for q in pos]
            return [1.0 / k] * k
        # exp3
        eta = gamma / k
        top = max(self.stat)
        e = [math.exp(eta * (x - top)) for x in self.stat]
        s = sum(e)
        return [(1.0 - gamma) * q / s + gamma / k for q in e]

    def select(self, rule: str, gamma: float, rng: random.Random) -> int:
        if self.k == 1:
            self.cum[0] += 1.0
            self.probs = [1.0]
            return 0
        if rule == "duct":
            a = _ucb(self.n, self.stat, self.w, gamma)
            self.probs = []
            return a
        p = self.mix(rule, gamma)
        self.probs = p
        cum = self.cum
        for i, q in enumerate(p):
            cum[i] += q
        x = rng.random()
        for i, q in enumerate(p):
            x -= q
            if x < 0.0:
                return i
        return self.k - 1

    def update(self, rule: str, a: int, u: float) -> None:
        """``u``: this player's reward in [0, 1] after choosing ``a``."""
        self.n[a] += 1
        self.w += 1
        if self.k == 1:
            return
        if rule == "duct":
            self.stat[a] += u
            self.cum[a] += 1.0
            return
        pa = self.probs[a]
        if rule == "rm":
            st = self.stat
            for b in range(self.k):
                st[b] -= u
            st[a] += u / pa
        else:
            self.stat[a] += u / pa


def _ucb(n: list[int], w: list[float], total: int, c: float) -> int:
    """UCB1 over one player's own choices (untried first, in order)."""
    best, best_u = 0, -math.inf
    logn = c * math.sqrt(math.log(total)) if total > 0 else 0.0
    for i, ni in enumerate(n):
        if ni == 0:
            return i
        u = w[i] / ni + logn / math.sqrt(ni)
        if u > best_u:
            best_u, best = u, i
    return best


class _TreeNode:
    """A position in the tree: a simultaneous node (two bandits) or a sequential one (the mover's)."""

    __slots__ = ("bandits", "children", "joint", "mover", "moves")

    def __init__(self, game: Game) -> None:
        self.joint = is_joint_node(game)
        if self.joint:
            self.mover = -1
            self.moves: list[list[Any]] = [list(game.legal_moves(0)), list(game.legal_moves(1))]
            self.bandits = [_Bandit(len(self.moves[0])), _Bandit(len(self.moves[1]))]
        else:
            self.mover = game.current_player
            self.moves = [list(game.search_moves())]
            self.bandits = [_Bandit(len(self.moves[0]))]
        self.children: dict[Any, _TreeNode] = {}


@dataclass
class SMMCTSResult:
    """What :func:`sm_mcts` found at the root.

    Attributes:
        moves: per player (0 and 1), its choices at the root in notation
            (``legal_moves(p)`` at a simultaneous node; at a sequential node the
            mover's ``search_moves()`` and ``[]`` for the other player).
        mean: per player, the mean strategy at the root (a list of
            probabilities in the order of ``moves[p]``, summing to 1; ``[]``
            for a player with no choice there), exploration as ``exploration`` says.
        kept: per player, the mean strategy with the exploration kept (the
            paper's; equal to ``mean`` when ``exploration="kept"``).
        visits: per player, how many simulations chose each root choice.
        value: the mean payoff ``(r0 - r1) / 2`` for player 0 over the
            simulations (in the returns' range; an estimate of the root's value,
            pulled toward the playouts' and the exploration's averages).
        stderr: the standard error of ``value`` (the simulations' spread over
            the square root of their number, as if independent: they are not
            quite, the selection adapts).
        iterations: simulations run.
        nodes: positions in the tree.
        selection, gamma, exploration: the settings used.
        players: the players' names.
        joint: whether the root is a simultaneous node.
    """

    moves: tuple[list[str], list[str]]
    mean: tuple[list[float], list[float]]
    kept: tuple[list[float], list[float]]
    visits: tuple[list[int], list[int]]
    value: float
    stderr: float
    iterations: int
    nodes: int
    selection: str
    gamma: float
    exploration: str
    players: tuple[str, str]
    joint: bool
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def rows(self) -> list[str]:
        """Player 0's root choices (in the order of the exact solver's ``SimultaneousNode.rows``)."""
        return self.moves[0]

    @property
    def cols(self) -> list[str]:
        """Player 1's root choices."""
        return self.moves[1]

    def mix(self, player: int) -> dict[str, float]:
        """``player``'s mean strategy at the root as ``{choice: probability}``
        (choices with probability 0 left out), as ``SimultaneousNode.mix`` gives the exact one.

        Raises:
            ValueError: for a player other than 0 or 1.
        """
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {str(player)[:12]}")
        return {m: p for m, p in zip(self.moves[player], self.mean[player], strict=True) if p > 0.0}

    def most_visited(self, player: int) -> str:
        """The root choice of ``player`` the simulations chose most (first in order on a tie).

        Raises:
            ValueError: if ``player`` has no choice at the root.
        """
        if player not in (0, 1) or not self.moves[player]:
            raise ValueError(f"{str(player)[:12]} has no choice at the root")
        n = self.visits[player]
        return self.moves[player][max(range(len(n)), key=n.__getitem__)]

    def __str__(self) -> str:
        parts = []
        for p in (0, 1):
            if self.moves[p]:
                parts.append(f"{self.players[p]} " + ", ".join(f"{k} {q:.3f}" for k, q in self.mix(p).items()))
        return (f"SM-MCTS ({self.selection}, {self.iterations:,} simulations): value {self.value:+.3f} "
                f"± {self.stderr:.3f} for {self.players[0]}; mean strategy: " + "; ".join(parts))


def _check_settings(iterations: Any, selection: Any, gamma: Any, exploration: Any) -> float:
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise ValueError(f"iterations must be a positive int, got {str(iterations)[:20]}")
    if selection not in SELECTIONS:
        raise ValueError(f"selection must be one of {', '.join(SELECTIONS)}, got {str(selection)[:20]}")
    if exploration not in ("kept", "removed"):
        raise ValueError(f"exploration must be 'kept' or 'removed', got {str(exploration)[:20]}")
    g = DEFAULT_GAMMA[selection] if gamma is None else gamma
    if isinstance(g, bool) or not isinstance(g, (int, float)):
        raise ValueError(f"gamma must be a number, got {str(g)[:20]}")
    if selection == "duct":
        if not g >= 0:
            raise ValueError(f"the UCB1 constant gamma must be >= 0, got {g!r}")
    elif not 0 < g <= 1:
        raise ValueError(f"gamma (the share of uniform exploration) must be in (0, 1], got {g!r}")
    return float(g)


def _mean(b: _Bandit, rule: str, gamma: float, exploration: str) -> list[float]:
    total = sum(b.cum)
    k = b.k
    if total <= 0.0:
        return [1.0 / k] * k
    m = [c / total for c in b.cum]
    if exploration == "removed" and rule != "duct" and k > 1 and gamma < 1:
        m = [max(0.0, (q - gamma / k) / (1.0 - gamma)) for q in m]
        s = sum(m)
        m = [q / s for q in m] if s > 0 else [1.0 / k] * k
    return m


class _Search:
    """One search: the work copy, the tree, the rule."""

    def __init__(self, game: Game, selection: str, gamma: float, rng: random.Random) -> None:
        work = game.copy()
        while work.pending:  # a submission changes nothing until all are in: search the node before it
            work.undo()
        self.work = work
        self.rule = selection
        self.gamma = gamma
        self.rng = rng
        info = game.game_info
        self.lo, self.hi = float(info.min_utility), float(info.max_utility)
        self.root = _TreeNode(work)
        self.nodes = 1
        self.narrow = type(work).search_moves is not Game.search_moves  # the game narrows its moves
        self.total = 0.0
        self.total2 = 0.0
        self.runs = 0

    def payoff(self) -> float:
        r = self.work.returns()
        return (float(r[0]) - float(r[1])) / 2.0

    def simulate(self) -> None:
        """One simulation: selection down the tree, one new node, a random playout, the update."""
        w = self.work
        rng, rule, gamma = self.rng, self.rule, self.gamma
        start = w.step_count
        path: list[tuple[_TreeNode, int, int]] = []
        node: _TreeNode | None = self.root
        try:
            while True:
                if w.current_player is None:
                    break
                if node is None:  # expansion: the position joins the tree, then a playout
                    node = _TreeNode(w)
                    parent, i, j = path[-1]
                    parent.children[(i, j)] = node
                    self.nodes += 1
                    self.playout()
                    break
                if node.joint:
                    i = node.bandits[0].select(rule, gamma, rng)
                    j = node.bandits[1].select(rule, gamma, rng)
                    w.play(node.moves[0][i], player=0)
                    w.play(node.moves[1][j], player=1)
                else:
                    i = node.bandits[0].select(rule, gamma, rng)
                    j = -1
                    w.play(node.moves[0][i])
                path.append((node, i, j))
                node = node.children.get((i, j))
            v = self.payoff()
        finally:
            while w.pending:
                w.undo()
            for _ in range(w.step_count - start):
                w.undo()
        u0 = (v - self.lo) / (self.hi - self.lo)
        for nd, i, j in path:
            if nd.joint:
                nd.bandits[0].update(rule, i, u0)
                nd.bandits[1].update(rule, j, 1.0 - u0)
            else:
                nd.bandits[0].update(rule, i, u0 if nd.mover == 0 else 1.0 - u0)
        self.runs += 1
        self.total += v
        self.total2 += v * v

    def playout(self) -> None:
        """Uniformly random moves to the end of the game."""
        w = self.work
        randrange = self.rng.randrange
        while w.current_player is not None:
            moves = w.search_moves() if self.narrow else w.legal_moves()
            w.play(moves[randrange(len(moves))])

    def result(self, exploration: str) -> SMMCTSResult:
        root, rule, gamma = self.root, self.rule, self.gamma
        players = (str(self.work.players[0]), str(self.work.players[1]))
        n = self.runs
        mean_v = self.total / n
        var = max(0.0, self.total2 / n - mean_v * mean_v)
        se = math.sqrt(var / (n - 1)) if n > 1 else math.inf
        labels = [[str(m) for m in ms] for ms in root.moves]
        means = [_mean(b, rule, gamma, exploration) for b in root.bandits]
        kepts = [_mean(b, rule, gamma, "kept") for b in root.bandits]
        counts = [list(b.n) for b in root.bandits]
        if not root.joint:  # the mover's, and nothing for the other player
            first = root.mover == 0
            for seq in (labels, means, kepts, counts):
                seq.insert(1 if first else 0, [])
        moves, mean, kept, visits = (tuple(seq) for seq in (labels, means, kepts, counts))
        return SMMCTSResult(moves=moves, mean=mean, kept=kept, visits=visits, value=mean_v, stderr=se,
                            iterations=n, nodes=self.nodes, selection=rule, gamma=gamma, exploration=exploration,
                            players=players, joint=root.joint, details={"mover": root.mover})


def sm_mcts(
    game: Game,
    iterations: int = 10_000,
    *,
    selection: str = "rm",
    gamma: float | None = None,
    seed: int | None = 0,
    exploration: str = "removed",
    record: Sequence[int] = (),
) -> SMMCTSResult:
    """Search ``game``'s position by simultaneous-move MCTS (Lisý, Kovařík,
    Lanctot & Bošanský, NeurIPS 2013; see the module docstring) and return
    the mean strategy of both players at the root.

    Args:
        game: a position of a two-player zero-sum game (any game of the
            protocol, simultaneous nodes or not); not changed. A submission
            already in at a simultaneous node is ignored (the node is searched
            before any submission; it changes nothing until both are in).
        iterations: simulations (each adds one position to the tree).
        selection: ``"rm"`` (regret matching), ``"exp3"``, or ``"duct"``
            (decoupled UCT with the visit frequencies as the mix, for comparison:
            no convergence guarantee).
        gamma: the share of uniform exploration in ``(0, 1]`` (default 0.2 for
            ``"rm"``, 0.1 for ``"exp3"``: ours, chosen on the positions of
            ``benchmarks/smmcts_convergence.py``); for ``"duct"`` the UCB1
            constant (default 0.7, rewards in [0, 1]).
        seed: seeds the draws and the playouts: the same seed gives the same
            result. ``None``: an unseeded stream.
        exploration: ``"removed"`` (the default: the mean strategy with the
            uniform share ``gamma`` taken out, the mix to play) or ``"kept"``
            (the mean of the mixes drawn from, the paper's mean strategy as it
            is); ``result.kept`` holds the latter either way.
        record: also keep the root result after these numbers of simulations
            (each at most ``iterations``), in ``result.details["history"]`` as
            ``[(simulations, SMMCTSResult), ...]``: a convergence curve from one run.

    Returns:
        An :class:`SMMCTSResult`: ``mix(p)``, ``mean``, ``visits``, ``value`` ± ``stderr``.

    Raises:
        ValueError: for a game with more than two players, general-sum
            returns, chance moves or hidden information beyond simultaneous
            choices; a game that is over; bad settings.
        TypeError: if ``game`` is not a game.
    """
    check_two_player_zero_sum(game, "sm_mcts()")
    g = _check_settings(iterations, selection, gamma, exploration)
    marks = sorted({int(k) for k in record})
    if any(not 1 <= k <= iterations for k in marks):
        raise ValueError(f"record holds numbers outside 1..{iterations}")
    if game.is_over:
        raise ValueError("the game is over: there is nothing to search")
    rng = random.Random(seed)
    search = _Search(game, selection, g, rng)
    history: list[tuple[int, SMMCTSResult]] = []
    todo = list(reversed(marks))
    for _ in range(iterations):
        search.simulate()
        if todo and search.runs == todo[-1]:
            todo.pop()
            history.append((search.runs, search.result(exploration)))
    out = search.result(exploration)
    if marks:
        out.details["history"] = history
    return out


class SMMCTSAgent(Agent):
    """Plays by simultaneous-move MCTS with a Hannan-consistent selection rule
    (:func:`sm_mcts`; Lisý, Kovařík, Lanctot & Bošanský, NeurIPS 2013).

    At a simultaneous node it draws its choice from its own mean strategy at
    the root after the search (an estimate of an equilibrium mix that
    converges as ``iterations`` grows, not an equilibrium); at a sequential
    node it plays the most visited move. Each :meth:`choose` searches a
    copy of ``game.view_for(player)``: another player's hidden submission is
    never looked at (the search starts from the node before any submission).

    Args:
        iterations: simulations per decision.
        selection: ``"rm"`` (regret matching, the default), ``"exp3"`` or
            ``"duct"`` (decoupled UCT, for comparison).
        gamma: exploration (see :func:`sm_mcts`).
        seed: the search and the draw are a function of the seed, the player
            and the public position (as for a seeded
            :class:`~gridwidgets.agents.RandomAgent`): the same seed in the same
            position gives the same choice, also after an undo. ``None``: an
            unseeded stream.
        exploration: ``"removed"`` (the default) or ``"kept"`` (see :func:`sm_mcts`).

    Attributes:
        last_result: the :class:`SMMCTSResult` of the last search (``None``
            before one, or when only one move was legal).

    Raises (from :meth:`choose`):
        ValueError: for a game over, a player who has no move, or a game
            SM-MCTS does not take (more than two players, general-sum, ...).

    It keeps no state between decisions but :attr:`last_result`, so one agent
    may serve several games in turn; each search works on its own copy.
    """

    def __init__(self, iterations: int = 2000, selection: str = "rm", gamma: float | None = None,
                 seed: int | None = 0, exploration: str = "removed") -> None:
        self.gamma = _check_settings(iterations, selection, gamma, exploration)
        self.iterations = iterations
        self.selection = selection
        self.seed = seed
        self.exploration = exploration
        self._rng = random.Random(seed)
        self.last_result: SMMCTSResult | None = None

    @property
    def name(self) -> str:
        return f"SMMCTSAgent({self.selection}, {self.iterations} sims)"

    def reset(self) -> None:
        self._rng = random.Random(self.seed)
        self.last_result = None

    def reseed(self, seed: int | None) -> None:
        """Search and draw from a new seed."""
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, game: Game, player: int | None = None) -> Any:
        """A choice for ``player`` (default: ``game.current_player``): drawn from
        its mean strategy at a simultaneous node, the most visited move at a
        sequential one; ``game`` is not changed.

        Raises:
            ValueError: if the game is over, the player has no move, or the game
                is not two-player zero-sum (see :func:`sm_mcts`).
        """
        check_two_player_zero_sum(game, "SMMCTSAgent")
        if game.is_over:
            raise ValueError("the game is over: there is no move to choose")
        p = game.current_player if player is None else player
        if p not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {str(p)[:12]}")
        legal = game.legal_moves(p)
        if not legal:
            raise ValueError(f"{game.players[p]} has no move to make here")
        self.last_result = None
        if len(legal) == 1:
            return legal[0]
        view = game.view_for(p)
        while view.pending:
            view.undo()
        base = random.Random(f"{p}|{position_rng(self.seed, view, self._rng).random()}") \
            if self.seed is not None else self._rng
        seed = base.getrandbits(64)
        res = sm_mcts(view, self.iterations, selection=self.selection, gamma=self.gamma, seed=seed,
                      exploration=self.exploration)
        self.last_result = res
        by_name = {str(m): m for m in legal}
        if res.joint:
            labels, probs = res.moves[p], res.mean[p]
            x = base.random()
            pick = labels[-1]
            for lab, q in zip(labels, probs, strict=True):
                x -= q
                if x < 0.0:
                    pick = lab
                    break
            return by_name[pick]
        return by_name[res.most_visited(p)]
