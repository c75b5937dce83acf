"""max^n and paranoid search (gridwidgets.agents.multiplayer), and the lab's kingmaking measure.

The values are checked against a hand-solved three-player tree, against an
independent brute-force recursion over random trees (no Game protocol, no
transposition table), and on GridMaster4 positions against a plain
recursion over the protocol; paranoid search with alpha-beta must choose
and value as the plain paranoid search does.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridwidgets as gw
from gridwidgets import lab
from gridwidgets.agents import AlphaBetaAgent, MaxnAgent, ParanoidAgent
from gridwidgets.core import Game, GameType, IllegalMoveError
from gridwidgets.core.gametype import MoveKind, Utility

WIN = MaxnAgent.WIN
#: a leaf reached by the last ply of the search: a game ended with 1 ply of depth left (as AlphaBetaAgent)
S = WIN + 1
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# A game tree: a leaf is a tuple of payoffs (one per player); an inner node is
# (player to move, {move: child}, heuristic vector or None).
Tree = Any


class TreeGame(Game):
    """A finite game given as an explicit tree (moves are the branch labels)."""

    game_type = GameType(short_name="testtree", long_name="Test tree", utility=Utility.GENERAL_SUM,
                         min_players=1, max_players=4, move_kinds=(MoveKind.CHOICE,))
    rows = cols = 1

    def __init__(self, tree: Tree, n: int = 3) -> None:
        super().__init__()
        self.tree = tree
        self.players = tuple(f"P{i}" for i in range(n))
        self._path: list[str] = []

    def _node(self) -> Tree:
        node = self.tree
        for m in self._path:
            node = node[1][m]
        return node

    def options(self) -> dict[str, Any]:
        return {}

    def parse_move(self, value: Any, player: int | None = None) -> str:
        return str(value)

    def legal_moves(self, player: int | None = None) -> list[str]:
        node = self._node()
        if self.is_leaf(node) or player not in (None, node[0]):
            return []
        return list(node[1])

    def _check(self, move: str) -> None:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move!r} is not a branch here", rule="C-5", move=move)

    def _apply(self, move: str) -> None:
        self._path.append(move)

    def _snapshot(self) -> list[str]:
        return list(self._path)

    def _restore(self, snapshot: list[str]) -> None:
        self._path = list(snapshot)

    @staticmethod
    def is_leaf(node: Tree) -> bool:
        return not (len(node) == 3 and isinstance(node[1], dict))

    @property
    def current_player(self) -> int | None:
        node = self._node()
        return None if self.is_leaf(node) else node[0]

    @property
    def winners(self) -> tuple[int, ...]:
        node = self._node()
        if not self.is_leaf(node):
            return ()
        best = max(node)
        return tuple(p for p, v in enumerate(node) if v == best)

    def returns(self) -> tuple[float, ...]:
        node = self._node()
        return tuple(float(v) for v in node) if self.is_leaf(node) else tuple(0.0 for _ in self.players)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(0 for _ in self.players)

    @property
    def board(self) -> np.ndarray:
        return np.zeros((1, 1), dtype=np.int8)

    def evaluate(self, player: int) -> float:
        node = self._node()
        return float(node[2][player]) if not self.is_leaf(node) and node[2] is not None else 0.0


# The hand-solved tree: three players, every leaf three plies deep.
HAND = (0, {
    "a": (1, {"c": (2, {"e": (1, 4, 3), "f": (2, 2, 5)}, None),
              "d": (2, {"g": (3, 3, 1), "h": (0, 6, 2)}, None)}, None),
    "b": (1, {"i": (2, {"k": (4, 1, 4), "l": (5, 1, 2)}, None),
              "j": (2, {"m": (1, 1, 0), "n": (2, 1, 0)}, None)}, None),
}, None)


def test_maxn_on_a_hand_solved_three_player_tree():
    # by hand: under a, lime (P2) takes f (5 > 3) and h (2 > 1); magenta (P1) then takes d (6 > 2): (0, 6, 2).
    # under b, lime takes k (4 > 2) and, indifferent, the first of m, n (0 = 0): (1, 1, 0); magenta is
    # indifferent between i (1) and j (1) and takes the first, i: (4, 1, 4). Orange takes b (4 > 0).
    agent = MaxnAgent(depth=3)
    g = TreeGame(HAND)
    assert agent.choose(g) == "b"
    assert agent.last_value == (4 * S, 1 * S, 4 * S)
    assert dict(agent.last_stats) == {"a": (0.0, 6 * S, 2 * S), "b": (4 * S, 1 * S, 4 * S)}
    assert g.history == []  # the game is not changed
    # magenta's tie decides what orange gets: another rule breaks it the other way
    g.play("b")
    assert MaxnAgent(depth=2).choose(g) == "i"
    assert MaxnAgent(depth=2).value(g) == (4 * S, 1 * S, 4 * S)
    picks = {MaxnAgent(depth=2, tie_break="random", seed=s).choose(g) for s in range(20)}
    assert picks == {"i", "j"}


def test_paranoid_on_the_hand_solved_tree():
    # by hand, for orange (P0), the others minimising orange's payoff:
    # a: lime min(1, 2) = 1 and min(3, 0) = 0, magenta min(1, 0) = 0; b: min(4, 5) = 4 and min(1, 2) = 1,
    # magenta min(4, 1) = 1. Orange takes b, worth 1.
    for prune in (True, False):
        agent = ParanoidAgent(depth=3, prune=prune)
        assert agent.choose(TreeGame(HAND)) == "b"
        assert agent.last_value == 1 * S
    # magenta (P1) at b, paranoid: lime minimises magenta's payoff: i -> min(1, 1) = 1, j -> min(1, 1) = 1
    g = TreeGame(HAND)
    g.play("b")
    assert ParanoidAgent(depth=2).value(g) == 1 * S


def test_the_depth_limit_uses_evaluate_for_every_player():
    tree = (0, {"x": (1, {"p": (1, 0, 0), "q": (0, 1, 0)}, (5.0, 1.0, 2.0)),
                "y": (2, {"r": (0, 0, 1)}, (3.0, 0.0, 9.0))}, None)
    agent = MaxnAgent(depth=1)
    assert agent.choose(TreeGame(tree)) == "x"
    assert agent.last_value == (5.0, 1.0, 2.0)  # evaluate(p) for each p at the frontier
    assert ParanoidAgent(depth=1).value(TreeGame(tree)) == 5.0
    # a given evaluate replaces the game's
    mine = MaxnAgent(depth=1, evaluate=lambda game, p: -game.evaluate(p))
    assert mine.choose(TreeGame(tree)) == "y" and mine.last_value == (-3.0, -0.0, -9.0)


# -- brute force on random trees ------------------------------------------------------------------
def brute_maxn(node: Tree, depth: int, n: int) -> tuple[float, ...]:
    """max^n by the definition: the mover's best child, the first of equals; a leaf counts its payoffs
    times WIN + the plies that were left before the move into it."""
    if TreeGame.is_leaf(node):
        return tuple(float(v) * (WIN + depth + 1) if v else 0.0 for v in node)
    if depth == 0:
        return tuple(float(node[2][p]) if node[2] is not None else 0.0 for p in range(n))
    p, best = node[0], None
    for child in node[1].values():
        v = brute_maxn(child, depth - 1, n)
        if best is None or v[p] > best[p]:
            best = v
    return best


def brute_paranoid(node: Tree, depth: int, me: int) -> float:
    if TreeGame.is_leaf(node):
        return float(node[me]) * (WIN + depth + 1) if node[me] else 0.0
    if depth == 0:
        return float(node[2][me]) if node[2] is not None else 0.0
    values = [brute_paranoid(c, depth - 1, me) for c in node[1].values()]
    return max(values) if node[0] == me else min(values)


@st.composite
def trees(draw, n: int = 3, depth: int = 4):
    def node(d: int) -> Tree:
        if d == 0 or draw(st.integers(0, 4)) == 0:
            return tuple(draw(st.integers(-2, 2)) for _ in range(n))  # few values: many ties
        k = draw(st.integers(1, 3))
        heur = tuple(draw(st.integers(-3, 3)) for _ in range(n))
        return (draw(st.integers(0, n - 1)), {f"m{d}{i}": node(d - 1) for i in range(k)}, heur)

    return (0, {f"r{i}": node(depth - 1) for i in range(draw(st.integers(2, 3)))}, None)


@FAST
@given(trees(), st.integers(1, 5))
def test_maxn_and_paranoid_match_brute_force_on_random_trees(tree, depth):
    g = TreeGame(tree)
    moves = list(tree[1])
    maxn = MaxnAgent(depth=depth)
    values = [brute_maxn(c, depth - 1, 3) for c in tree[1].values()]
    best = max(range(len(moves)), key=lambda i: (values[i][0], -i))
    assert maxn.choose(g) == moves[best]
    assert maxn.last_value == values[best]
    assert maxn.value(g) == brute_maxn(tree, depth, 3)
    para = [brute_paranoid(c, depth - 1, 0) for c in tree[1].values()]
    first_best = max(range(len(moves)), key=lambda i: (para[i], -i))
    for prune in (True, False):
        agent = ParanoidAgent(depth=depth, prune=prune)
        assert agent.choose(g) == moves[first_best]
        assert agent.last_value == para[first_best]
    assert g.history == []


# -- GridMaster4: a plain recursion over the protocol -------------------------------------------
def plain_maxn(g: Game, depth: int) -> tuple[float, ...]:
    n = len(g.players)
    if g.is_over:
        return tuple(r * (WIN + depth + 1) if r else 0.0 for r in g.returns())
    if depth == 0:
        return tuple(float(g.evaluate(p)) for p in range(n))
    p, best = g.current_player, None
    for m in g.legal_moves():
        g.play(m)
        v = plain_maxn(g, depth - 1)
        g.undo()
        if best is None or v[p] > best[p]:
            best = v
    return best


def random_position(players: int, k: int, seed: int, size: int = 6, tiles: int = 100) -> gw.GridMaster4:
    rng = random.Random(seed)
    g = gw.GridMaster4(size=size, players=players, tiles=tiles)
    for _ in range(k):
        moves = g.legal_moves()
        g.play(moves[rng.randrange(len(moves))])
        if g.is_over:
            g.undo()
            break
    return g


@pytest.mark.parametrize("players", [3, 4])
def test_on_gridmaster4_maxn_equals_a_plain_recursion_and_pruning_changes_nothing(players):
    for seed in range(12):
        g = random_position(players, 3 * players + seed % 7, seed, tiles=6 + seed % 4)
        before = g.to_json()
        for depth in (1, 2, 3):
            agent = MaxnAgent(depth=depth)
            move = agent.choose(g)
            assert agent.value(g) == plain_maxn(g.copy(), depth)
            assert move in g.legal_moves()
            pruned, plain = ParanoidAgent(depth=depth), ParanoidAgent(depth=depth, prune=False)
            assert pruned.choose(g) == plain.choose(g)
            assert pruned.last_value == plain.last_value
            assert pruned.last_nodes <= plain.last_nodes
        assert g.to_json() == before


def test_with_two_zero_sum_players_both_searches_are_minimax():
    g = gw.Gridlock(3, 4)
    g.play("B2")
    for depth in (1, 2, 3):
        ab = AlphaBetaAgent(depth=depth, seed=None)
        ab.choose(g)
        assert ParanoidAgent(depth=depth).value(g) == ab.last_value
        assert MaxnAgent(depth=depth).value(g)[g.current_player] == ab.last_value


def test_a_win_in_one_is_valued_as_a_win_for_the_winner_and_a_loss_for_the_others():
    # tiles=2 on 5x5, three players, after the openings: orange's next tile is its last and wins (GM-8);
    # A1's jump cells are A4, D1 and C3 (lime's)
    g = gw.GridMaster4.from_moves(["A1", "E5", "C3"], size=5, players=3, tiles=2)
    assert sorted(str(m) for m in g.legal_moves()) == ["A4", "D1"]
    for depth in (1, 3):
        agent = MaxnAgent(depth=depth)
        assert str(agent.choose(g)) == "D1"  # the first legal move (row by row), both win
        assert agent.last_value == (WIN + depth, -(WIN + depth), -(WIN + depth))
        para = ParanoidAgent(depth=depth)
        para.choose(g)
        assert para.last_value == WIN + depth


def test_time_budget_name_reseed_and_bad_input():
    g = random_position(3, 6, 1)
    agent = MaxnAgent(depth=None, time=0.05)
    assert agent.choose(g) in g.legal_moves() and agent.last_depth >= 1
    assert MaxnAgent().name == "MaxnAgent(depth 2)"
    assert ParanoidAgent(prune=False).name == "ParanoidAgent(depth 3, no pruning)"
    assert MaxnAgent(tie_break="random", seed=4).name == "MaxnAgent(depth 2, random ties, seed=4)"
    a = MaxnAgent(tie_break="random", seed=1)
    a.reseed(9)
    assert a.seed == 9 and a.choose(g) == MaxnAgent(tie_break="random", seed=9).choose(g)
    for bad in (dict(depth=0), dict(depth=None), dict(depth="3"), dict(time=-1), dict(tie_break="last")):
        with pytest.raises(ValueError):
            MaxnAgent(**bad)
        with pytest.raises(ValueError):
            ParanoidAgent(**bad)
    with pytest.raises(ValueError, match="simultaneous"):
        MaxnAgent().choose(gw.BlockFour(seed=1))
    over = gw.GridMaster4.from_moves(["A1"], size=5, players=3, tiles=1)
    with pytest.raises(ValueError, match="over"):
        ParanoidAgent().choose(over)


# -- kingmaking ---------------------------------------------------------------------------------
# magenta (P1) moves first and cannot win (-1 everywhere); its choice decides between orange and lime
KINGMAKER = (1, {"x": (0, {"u": (1, -1, -1), "v": (1, -1, -1)}, None),
                 "y": (2, {"w": (-1, -1, 1)}, None)}, None)
# here magenta can still share a win after y, so it is not a kingmaker
HOPE = (1, {"x": (0, {"u": (1, -1, -1)}, None),
            "y": (2, {"w": (-1, -1, 1), "z": (-1, 1, 1)}, None)}, None)


def test_a_kingmakers_choice_is_found_and_a_player_who_can_win_is_not_one():
    agents = [MaxnAgent(depth=4)] * 3
    assert lab.kingmaker_choice(TreeGame(KINGMAKER), agents) == "kingmaker"
    # with the continuation, lime takes w after y: magenta never wins; but z would give it a share
    assert lab.kingmaker_choice(TreeGame(HOPE), agents, probes=0) == ""
    # one move only: no choice to make
    g = TreeGame(KINGMAKER)
    g.play("y")
    assert lab.kingmaker_choice(g, agents) == ""
    # a continuation cut before the end settles nothing
    assert lab.kingmaker_choice(TreeGame(KINGMAKER), agents, max_moves=1) == ""
    # the proof is a search: with no positions to spend it stays undecided
    assert lab.kingmaker_choice(TreeGame(KINGMAKER), agents, max_nodes=0, probes=0) == "undecided"


def test_kingmaking_is_zero_with_two_players_and_found_with_three():
    two = lab.kingmaking(gw.GridMaster4, 12, size=5, players=2, progress=False)
    assert two.at[0, "kingmaking"] == 0 and two.at[0, "kingmaking_high"] > 0
    three = lab.kingmaking(gw.GridMaster4, 12, size=6, players=3, progress=False, seed=0)
    row = three.iloc[0]
    assert row["kingmaking_low"] <= row["kingmaking"] <= row["kingmaking_high"]
    records = three.attrs["records"]
    assert list(records.columns) == ["variant", *lab.KINGMAKING_COLUMNS]
    assert row["kingmaking"] == pytest.approx(np.mean([bool(k) for k in records["kingmaker_moves"]]))
    # every proven choice, replayed: the mover cannot win (an independent exhaustive search) and its moves,
    # each continued by the same agents, end with different winners, none of them the mover
    found = 0
    for _, rec in records.iterrows():
        for at in rec["kingmaker_moves"]:
            g, agents = replay(rec, at)
            p = g.current_player
            assert not could_win(g.copy(), p)
            outcomes = set()
            for m in g.legal_moves():
                h = g.copy()
                h.play(m)
                while not h.is_over:
                    h.play(agents[h.current_player].choose(h))
                outcomes.add(h.winners)
            assert len(outcomes) > 1 and not any(p in w for w in outcomes)
            found += 1
    assert found >= 1 and found == round(row["kingmaker_choices"] * len(records))


def replay(rec: Any, upto: int) -> tuple[gw.GridMaster4, list[Any]]:
    """The position before move ``upto`` of a recorded game, played again by the same agents (and them)."""
    g = gw.GridMaster4(size=6, players=3)
    words = np.random.SeedSequence([int(rec["seed"]), 3]).generate_state(6)[:3]
    from gridwidgets.analysis.tournament import fresh_agent

    agents = [fresh_agent(lab._default_kingmaking_agent(), int(w)) for w in words]
    while len(g.history) < upto:
        g.play(agents[g.current_player].choose(g))
    return g, agents


def could_win(g: Game, p: int, seen: dict | None = None) -> bool:
    """Some sequence of legal moves ends with ``p`` among the winners (memo by ``position_key``)."""
    seen = {} if seen is None else seen
    if g.is_over:
        return p in g.winners
    key = g.position_key()
    if key not in seen:
        seen[key] = False
        for m in g.legal_moves():
            g.play(m)
            ok = could_win(g, p, seen)
            g.undo()
            if ok:
                seen[key] = True
                break
    return seen[key]


def test_the_continuation_is_who_plays_on_and_is_recorded():
    det = lab.kingmaking(gw.GridMaster4, 4, size=5, players=3, continuation=MaxnAgent(depth=1), progress=False)
    assert det.attrs["kingmaking"]["continuation"] == "MaxnAgent(depth 1)"
    assert lab.kingmaking(gw.GridMaster4, 2, size=5, players=3, progress=False).attrs["kingmaking"][
        "continuation"] == "as played"
    # the games themselves are the same: the continuation only judges the choices
    played = lab.kingmaking(gw.GridMaster4, 4, size=5, players=3, progress=False)
    cols = ["seed", "winners", "length"]
    assert det.attrs["records"][cols].equals(played.attrs["records"][cols])


def test_two_player_returns_sum_to_zero_and_three_or_four_players_do_not():
    # the class is declared general-sum for all its options; with two players every outcome sums to 0 (C-4)
    assert gw.GridMaster4.game_type.utility.value == "general-sum"
    rng = random.Random(5)
    for _ in range(200):
        g = gw.GridMaster4(size=rng.randint(2, 7), players=2, tiles=rng.randint(1, 30))
        while not g.is_over:
            moves = g.legal_moves()
            g.play(moves[rng.randrange(len(moves))])
        assert sum(g.returns()) == 0
    # a shared win (a random game found by search): the board full at 18 tiles each
    shared = gw.GridMaster4.from_moves(
        "F4 D4 D2 F6 B4 F3 D6 D5 D3 A5 B5 A2 B2 C4 E2 A6 E5 A3 C3 C5 A1 F5 D1 F2 B3 C2 B6 A4 E6 C6 E3 E4 C1 E1 F1 "
        "B1".split(), size=6, players=2)
    assert shared.winners == (0, 1) and shared.scores == (18, 18) and shared.returns() == (0.0, 0.0)
    sole = gw.GridMaster4.from_moves(["A1"], size=5, players=3, tiles=1)
    assert sole.returns() == (1.0, -1.0, -1.0)  # sums to -1
    four = gw.GridMaster4.from_moves(["A1", "B1", "A2", "B2"], size=2, players=4)
    assert four.returns() == (0.0, 0.0, 0.0, 0.0)  # sums to 0: not a constant


def test_kingmaking_refuses_bad_input():
    with pytest.raises(ValueError, match="simultaneous"):
        lab.kingmaking(gw.BlockFour, 2, progress=False)
    for bad in (dict(games=0), dict(max_nodes=-1), dict(probes=1.5), dict(max_moves=0)):
        with pytest.raises(ValueError):
            lab.kingmaking(gw.GridMaster4, **{"games": 2, **bad}, size=5, players=3, progress=False)
    with pytest.raises(ValueError, match="refused"):
        lab.kingmaking(gw.GridMaster4, 2, size=5, players=7, progress=False)


def test_kingmaking_is_the_same_on_two_processes():
    kw = dict(size=5, players=3, seed=3, progress=False)
    one = lab.kingmaking(gw.GridMaster4, 6, **kw)
    two = lab.kingmaking(gw.GridMaster4, 6, n_jobs=2, **kw)
    assert one.equals(two)
    assert not math.isnan(one.at[0, "kingmaking"])
