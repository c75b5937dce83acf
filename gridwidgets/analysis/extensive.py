"""The rest of a game from a position as an explicit extensive-form game: a
Gambit ``.efg`` file of its whole game tree, and solvers outside the package
to check :func:`~gridwidgets.analysis.solve_simultaneous` against.

The tree is the game's, expanded move by move from the position (no
transpositions merged: an extensive-form game is a tree, so a position
reached by two histories appears twice):

- a **simultaneous node** (both players choosing at once, e.g. a secret
  bid) becomes the first player's personal node, a singleton
  information set, followed under each of its choices by the second
  player's node, all of them members of **one** information set: the second
  player chooses without seeing the first player's choice. This is the
  usual encoding of a simultaneous move in an extensive-form game with
  perfect recall (Osborne & Rubinstein, *A Course in Game Theory*, 1994,
  section 11.1); :meth:`~gridwidgets.analysis.StageGame.to_efg` writes a
  one-shot stage the same way;
- a **sequential node** is the mover's personal node, a singleton
  information set (its choices are ``legal_moves()``, in that order);
- a **terminal node** carries the payoffs ``(v, -v)`` with ``v = (r0 - r1) / 2``
  the first player's share of the returns, the payoff
  :func:`~gridwidgets.analysis.solve_simultaneous` values (+1 a win of the
  first player, -1 a loss). One outcome is written per distinct payoff.

The file format is Gambit's ``EFG 2 R`` (The Gambit Project, "Game
representation formats: the extensive game (.efg) file format",
gambit-project.org); :func:`gambit_solve` reads it back with pygambit and
solves it by Gambit's linear program for two-player constant-sum games
(``pygambit.nash.lp_solve``, which on an extensive game solves the
**sequence form**: D. Koller, N. Megiddo & B. von Stengel, "Efficient
computation of equilibria for extensive two-person games", *Games and
Economic Behavior* 14, 1996). :func:`openspiel_solve` solves the same game
with OpenSpiel: the position as a pyspiel game
(:func:`gridwidgets.interop.openspiel.from_position`), turned into a
turn-based game (``pyspiel.convert_to_turn_based``, which encodes a
simultaneous node as above) and solved by OpenSpiel's sequence-form linear
program (``open_spiel.python.algorithms.sequence_form_lp``).

Trees grow fast: before writing anything, :func:`tree_size` counts the
nodes (each distinct position counted once and memoised by its
:meth:`~gridwidgets.core.Game.position_key`, so a position over the limit is
refused after little work), and the exporters refuse a tree of more than
``max_nodes`` nodes with a ``ValueError`` naming its size.

pygambit and OpenSpiel (with cvxpy) are optional: imported only inside the
functions that use them.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import Any

from ..agents.smmcts import check_two_player_zero_sum, is_joint_node
from ..core.errors import shorten
from ..core.game import Game
from .gambit_text import gambit_ascii, gambit_label, gambit_number, gambit_quote

__all__ = ["DEFAULT_MAX_NODES", "ExternalSolution", "gambit_solve", "openspiel_solve", "to_efg", "tree_size"]

#: the exporters' default limit on the number of nodes of the tree
DEFAULT_MAX_NODES = 200_000


class _TooBig(Exception):
    pass


def _payoff(game: Game) -> float:
    r = game.returns()
    return (float(r[0]) - float(r[1])) / 2.0


def _check(game: Any, what: str) -> None:
    check_two_player_zero_sum(game, f"{what}()")
    if game.pending:
        raise ValueError(f"{what}() takes a position with no submission in (a bid already made is hidden)")


def _count(game: Game, memo: dict[Any, int], limit: float) -> int:
    """The number of nodes of the tree below ``game``'s position (itself included)."""
    if game.current_player is None:
        return 1
    key = game.position_key()
    hit = memo.get(key)
    if hit is not None:
        return hit
    n = 1
    if is_joint_node(game):
        rows, cols = game.legal_moves(0), game.legal_moves(1)
        n += len(rows)
        for a in rows:
            for b in cols:
                game.play(a, player=0)
                game.play(b, player=1)
                try:
                    n += _count(game, memo, limit)
                finally:
                    game.undo()
                if n > limit:
                    raise _TooBig
    else:
        for m in game.legal_moves():
            game.play(m)
            try:
                n += _count(game, memo, limit)
            finally:
                game.undo()
            if n > limit:
                raise _TooBig
    memo[key] = n
    return n


def _deep(game: Game) -> int:
    """A recursion limit deep enough for the tree of ``game``."""
    depth = game.game_info.max_game_length
    return 4 * (depth if depth is not None else 500) + 200


def tree_size(game: Game, max_nodes: int | None = None) -> int:
    """The number of nodes of the game tree from ``game``'s position, as
    :func:`to_efg` writes it: at a simultaneous node with ``m`` choices of
    the first player, ``1 + m`` decision nodes (the first player's, then the
    second player's under each choice); one node per sequential decision and
    per end of the game.

    Each distinct position is counted once (memoised by ``position_key``), so
    this is fast where the tree is far larger than the number of positions.

    Args:
        game: a position (not changed).
        max_nodes: stop counting and raise once the count passes this (``None``: no limit).

    Returns:
        The number of nodes (``int >= 1``).

    Raises:
        ValueError: past ``max_nodes`` (saying so), or a game the exporter does not take
            (more than two players, general-sum, chance, other hidden information).
    """
    _check(game, "tree_size")
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1):
        raise ValueError(f"max_nodes must be an int >= 1 or None, got {shorten(max_nodes, 20)}")
    limit = float("inf") if max_nodes is None else max_nodes
    old = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(old, _deep(game)))
        return _count(game.copy(), {}, limit)
    except _TooBig:
        raise ValueError(f"the game tree from this position has more than {max_nodes:,} nodes") from None
    finally:
        sys.setrecursionlimit(old)


class _Writer:
    def __init__(self, game: Game, order: tuple[int, int], forced: bool = True) -> None:
        self.work = game.copy()
        self.forced = forced
        self.number = {p: order.index(p) + 1 for p in (0, 1)}  # Gambit's number of each player
        self.first = order[0]
        self.lines: list[str] = []
        self.infosets = [0, 0]
        self.outcomes: dict[float, int] = {}

    def infoset(self, player: int) -> int:
        self.infosets[player] += 1
        return self.infosets[player]

    def terminal(self) -> None:
        v = _payoff(self.work) + 0.0  # no -0.0
        k = self.outcomes.get(v)
        if k is not None:
            self.lines.append(f't "" {k}')
            return
        k = self.outcomes[v] = len(self.outcomes) + 1
        pays = (v, -v + 0.0) if self.first == 0 else (-v + 0.0, v)
        text = f"{gambit_number(pays[0])}, {gambit_number(pays[1])}"
        self.lines.append(f't "" {k} {gambit_quote(text)} {{ {text} }}')

    def node(self) -> None:
        w = self.work
        if w.current_player is None:
            self.terminal()
            return
        if is_joint_node(w):
            rows, cols = w.legal_moves(0), w.legal_moves(1)
            row_list = " ".join(gambit_quote(gambit_label(str(a))) for a in rows)
            col_list = " ".join(gambit_quote(gambit_label(str(b))) for b in cols)
            if self.forced or len(rows) > 1:
                self.lines.append(f'p "" {self.number[0]} {self.infoset(0)} "" {{ {row_list} }} 0')
            blind = self.infoset(1) if self.forced or len(cols) > 1 else 0
            for a in rows:
                if self.forced or len(cols) > 1:
                    self.lines.append(f'p "" {self.number[1]} {blind} "" {{ {col_list} }} 0')
                for b in cols:
                    w.play(a, player=0)
                    w.play(b, player=1)
                    try:
                        self.node()
                    finally:
                        w.undo()
            return
        p = w.current_player
        moves = w.legal_moves()
        labels = " ".join(gambit_quote(gambit_label(str(m))) for m in moves)
        if self.forced or len(moves) > 1:
            self.lines.append(f'p "" {self.number[p]} {self.infoset(p)} "" {{ {labels} }} 0')
        for m in moves:
            w.play(m)
            try:
                self.node()
            finally:
                w.undo()


def to_efg(game: Game, max_nodes: int = DEFAULT_MAX_NODES, title: str = "", first: int = 0,
           forced: bool = True) -> str:
    """The game tree from ``game``'s position as a Gambit extensive-form file (``EFG 2 R``).

    See the module docstring for the encoding: a simultaneous node is the
    first player's choice and then the second player's in one information
    set holding every choice of the first; payoffs ``(v, -v)`` with ``v`` the
    first player's ``(r0 - r1) / 2``. Gambit's players 1 and 2 are the game's
    players 0 and 1 (their names in the header). Nodes are written in
    preorder; each decision node's choices are ``legal_moves`` in notation.

    Args:
        game: a position of a two-player zero-sum game (not changed); a
            simultaneous node must have no submission in.
        max_nodes: refuse a tree of more nodes than this (counted first by
            :func:`tree_size`, so refusing is fast).
        title: the file's title (default: the game's name and position).
        first: which of the game's players is Gambit's player 1 (0, the
            default, or 1: the same tree with the players listed the other
            way round, payoffs in that order; see :func:`gambit_solve`).

    Returns:
        The file's text (one line per node).

    Raises:
        ValueError: a tree of more than ``max_nodes`` nodes (naming the limit),
            a game the exporter does not take, or a submission in.
    """
    if first not in (0, 1):
        raise ValueError(f"first must be 0 or 1, got {shorten(first, 12)}")
    size = tree_size(game, max_nodes)
    if not title:
        try:
            where = game.position()
        except NotImplementedError:
            where = f"{game.step_count} steps in"
        title = f"{type(game).game_type.long_name}: {where}"
    order = (0, 1) if first == 0 else (1, 0)
    names = " ".join(gambit_quote(gambit_label(str(game.players[p]))) for p in order)
    w = _Writer(game, order, forced)
    less = "" if forced else " (less those of one choice)"
    p0, p1 = gambit_ascii(str(game.players[0])), gambit_ascii(str(game.players[1]))
    w.lines = [f"EFG 2 R {gambit_quote(gambit_ascii(title))} {{ {names} }}",
               gambit_quote(f"{size} nodes{less}; payoffs of {p0} v = (r0 - r1) / 2, of {p1} -v"), ""]
    old = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(old, _deep(game)))
        w.node()
    finally:
        sys.setrecursionlimit(old)
    return "\n".join(w.lines) + "\n"


@dataclass
class ExternalSolution:
    """A solution of the extensive-form game from a position by a solver outside the package.

    Attributes:
        value: the first player's value (``(r0 - r1) / 2`` in expectation under equilibrium play).
        payoffs: both players' equilibrium payoffs ``(v, -v)`` as the solver reports them.
        solver: which solver and method.
        nodes: the tree's size (:func:`tree_size`; for OpenSpiel, of the game before the turn-based conversion).
        seconds: wall time of the export and the solve.
        details: what else the solver reports (for OpenSpiel's LP: ``lp_values``, the LP's two values).
    """

    value: float
    payoffs: tuple[float, float]
    solver: str
    nodes: int
    seconds: float
    details: dict[str, Any]


def gambit_solve(game: Game, max_nodes: int = DEFAULT_MAX_NODES, rational: bool = False) -> ExternalSolution:
    """Solve the game tree from ``game``'s position with Gambit: :func:`to_efg`,
    read back by ``pygambit.read_efg``, solved by ``pygambit.nash.lp_solve``
    (the sequence-form linear program for two-player constant-sum games).

    pygambit 16.7's ``lp_solve`` on an extensive game sometimes returns a
    profile that is not a behaviour profile, with a wrong value: zero
    probabilities at every choice of an information set that play reaches
    (seen where Gambit's player 1's value equals its smallest payoff, e.g. a
    one-move game paying -1 whatever the move, and at information sets with
    one choice). So the result is checked: where a reached information
    set's probabilities do not sum to 1, the same tree is solved again with
    the players listed the other way round (``to_efg(..., first=1)``; the
    game is the same), and ``details["players_swapped"]`` says so; where
    that fails too and the game has one outcome only, its payoffs are the
    value (``details["constant"]``); otherwise ``RuntimeError``. The tree is
    written without decisions of one choice (``forced=False``), on which
    Gambit's LP also fails (the same game).

    Args:
        game: a position (see :func:`to_efg`).
        max_nodes: the export's limit on the tree's size.
        rational: solve in exact rational arithmetic (slow) instead of floats.

    Returns:
        An :class:`ExternalSolution`: ``payoffs`` are the equilibrium's
        payoffs to the game's players 0 and 1.

    Raises:
        ImportError: pygambit is not installed (``pip install pygambit``).
        ValueError: as :func:`to_efg`.
        RuntimeError: Gambit returns no behaviour profile either way.
    """
    start = time.perf_counter()
    try:
        import pygambit
    except ImportError as exc:  # pragma: no cover - a dev dependency
        raise ImportError("gambit_solve() needs pygambit: pip install pygambit") from exc
    import io

    for first in (0, 1):
        text = to_efg(game, max_nodes, first=first, forced=False)
        efg = pygambit.read_efg(io.StringIO(text))
        eq = pygambit.nash.lp_solve(efg, rational=rational).equilibria[0]
        players = list(efg.players)
        if _behaviour_profile(eq, players):
            pays = [float(eq.payoff(p)) for p in players]
            if first == 1:
                pays.reverse()
            return ExternalSolution(value=pays[0], payoffs=(pays[0], pays[1]),
                                    solver=f"pygambit {pygambit.__version__} lp_solve (sequence form)",
                                    nodes=tree_size(game, max_nodes), seconds=time.perf_counter() - start,
                                    details={"efg_chars": len(text), "players_swapped": first == 1})
        outcomes = list(efg.outcomes)
        if len(outcomes) == 1:  # one payoff whatever anyone does: every profile is an equilibrium
            pays = [float(outcomes[0][p]) for p in players]
            if first == 1:
                pays.reverse()
            return ExternalSolution(value=pays[0], payoffs=(pays[0], pays[1]),
                                    solver=f"pygambit {pygambit.__version__} (one outcome)",
                                    nodes=tree_size(game, max_nodes), seconds=time.perf_counter() - start,
                                    details={"efg_chars": len(text), "players_swapped": first == 1,
                                             "constant": True})
    raise RuntimeError("Gambit's lp_solve returned no behaviour profile with either player first")


def _behaviour_profile(eq: Any, players: list[Any]) -> bool:
    """Whether Gambit's result is a behaviour profile where it matters: at every
    information set reached with positive probability, the choices' probabilities sum to 1."""
    for p in players:
        for infoset in p.infosets:
            if float(eq.infoset_prob(infoset)) > 1e-9 and abs(float(sum(eq[a] for a in infoset.actions)) - 1) > 1e-6:
                return False
    return True


def openspiel_solve(game: Game, max_nodes: int = DEFAULT_MAX_NODES) -> ExternalSolution:
    """Solve the game tree from ``game``'s position with OpenSpiel: the
    position as a pyspiel game (:func:`gridwidgets.interop.openspiel.from_position`),
    ``pyspiel.convert_to_turn_based`` where it has simultaneous nodes, and
    ``sequence_form_lp.solve_zero_sum_game`` (OpenSpiel's sequence-form LP, solved by cvxpy with ECOS).

    Args:
        game: a position (see :func:`to_efg`); its tree is first counted and
            refused past ``max_nodes`` (OpenSpiel would walk it all).
        max_nodes: the limit on the tree's size.

    Returns:
        An :class:`ExternalSolution`: ``payoffs`` are the LP's values for
        players 0 and 1 (``details["lp_values"]``).

    Raises:
        ImportError: OpenSpiel or cvxpy (with ECOS) is not installed.
        ValueError: past ``max_nodes``, or a game the exporter does not take.
    """
    start = time.perf_counter()
    nodes = tree_size(game, max_nodes)
    from ..interop import openspiel, require

    pyspiel = require("pyspiel", "openspiel", "openspiel_solve()")
    require("cvxpy", "openspiel", "OpenSpiel's sequence_form_lp")
    from open_spiel.python.algorithms import sequence_form_lp

    spiel = openspiel.from_position(game)
    if spiel.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        spiel = pyspiel.convert_to_turn_based(spiel)
    v0, v1, _pi0, _pi1 = sequence_form_lp.solve_zero_sum_game(spiel)
    v0, v1 = float(v0), float(v1)
    return ExternalSolution(value=v0, payoffs=(v0, v1),
                            solver="OpenSpiel sequence_form_lp (turn-based conversion)", nodes=nodes,
                            seconds=time.perf_counter() - start, details={"lp_values": (v0, v1)})
