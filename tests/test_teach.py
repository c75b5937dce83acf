"""gridwidgets.teach: searches recorded step by step, the explored tree, its
drawing and the stepper widget.

The reference is a tree worked out by hand (below), then exact solutions
(``analysis.solve``) of random small positions of every registered game the
steppers take."""

from __future__ import annotations

import math
import random
import re

import pytest

import gridwidgets as gw
import gridwidgets.teach as teach
from gridwidgets.analysis import solve
from gridwidgets.core.gametype import Dynamics, Information, Utility

INF = math.inf

# ----------------------------------------------------------------------
# The hand-worked tree (RULES GL-3: a marker may not go orthogonally next
# to an opponent's marker; GL-4: a player with no legal move loses).
#
# 2x3 board, X has played A1; O (player 1) is to move, so O is the root
# player and every value is O's: +1 O wins, -1 O loses.
#
#     A B C
#   1 X . .        O may not play B1 or A2 (next to X's A1): O's moves are
#   2 . . .        C1, B2, C2, in that order (legal_moves(), row by row).
#
# root (O to move: max)
# |- C1   X to move (min); X may not play B1 or C2 (next to O's C1): A2, B2
# |  |- A2   O to move (max): only C2 (B1, B2 are next to X's A1, A2)
# |  |  '- C2   X has no move (B1 next to C1, B2 next to C2): X loses   +1
# |  |     A2 = max(+1) = +1
# |  '- B2   O has no move (B1 next to A1 and B2, A2 next to A1, C2 next
# |          to B2): O loses                                            -1
# |     C1 = min(+1, -1) = -1
# |- B2   X to move (min): only C1 (A2 next to B2, C2 next to B2)
# |  '- C1   O has no move: O loses                                       -1
# |     B2 = -1
# '- C2   X to move (min): B1, A2 (B2 and C1 are next to O's C2)
#    |- B1   O has no move (A2 next to A1, C1 next to B1, B2 next to B1) -1
#    '- A2   O to move (max): only C1
#       '- C1   X has no move (B1 next to O's C1, B2 next to O's C2)     +1
#       A2 = +1
#    C2 = min(-1, +1) = -1
# root = max(-1, -1, -1) = -1: O loses whatever it plays; best move C1
# (the first move with the root's value).
#
# Minimax visits every node: 5 leaves. Alpha-beta (window (alpha, beta) for
# O; fail-soft, Knuth and Moore 1975):
# - C1 searched with (-inf, +inf): A2 gets +1 (alpha at A2 becomes +1), so
#   C1's beta becomes +1; B2 gives -1: C1 = -1 exact. Root alpha = -1.
# - B2 searched with (-1, +inf): its only child C1 gives -1 <= alpha: B2 is
#   worth at most -1 ("upper"); nothing is left to prune, so no cut-off.
# - C2 searched with (-1, +inf): its first child B1 gives -1 <= alpha: O
#   already has -1 elsewhere, X can hold O to -1 here: C2's other move, A2,
#   is pruned (a cut-off). C2 is worth at most -1.
# - Root: -1, exact (searched with (-inf, +inf)). 4 leaves.
# ----------------------------------------------------------------------
HAND_MINIMAX = [
    ("enter", (), None),
    ("enter", ("C1",), None),
    ("enter", ("C1", "A2"), None),
    ("leaf", ("C1", "A2", "C2"), 1),
    ("backup", ("C1", "A2"), 1),
    ("leaf", ("C1", "B2"), -1),
    ("backup", ("C1",), -1),
    ("enter", ("B2",), None),
    ("leaf", ("B2", "C1"), -1),
    ("backup", ("B2",), -1),
    ("enter", ("C2",), None),
    ("leaf", ("C2", "B1"), -1),
    ("enter", ("C2", "A2"), None),
    ("leaf", ("C2", "A2", "C1"), 1),
    ("backup", ("C2", "A2"), 1),
    ("backup", ("C2",), -1),
    ("backup", (), -1),
]

# (kind, line, value, alpha, beta, pruned, bound)
HAND_ALPHABETA = [
    ("enter", (), None, -INF, INF, (), "exact"),
    ("enter", ("C1",), None, -INF, INF, (), "exact"),
    ("enter", ("C1", "A2"), None, -INF, INF, (), "exact"),
    ("leaf", ("C1", "A2", "C2"), 1, -INF, INF, (), "exact"),
    ("backup", ("C1", "A2"), 1, 1, INF, (), "exact"),
    ("leaf", ("C1", "B2"), -1, -INF, 1, (), "exact"),
    ("backup", ("C1",), -1, -INF, -1, (), "exact"),
    ("enter", ("B2",), None, -1, INF, (), "exact"),
    ("leaf", ("B2", "C1"), -1, -1, INF, (), "exact"),
    ("backup", ("B2",), -1, -1, INF, (), "upper"),
    ("enter", ("C2",), None, -1, INF, (), "exact"),
    ("leaf", ("C2", "B1"), -1, -1, INF, (), "exact"),
    ("cutoff", ("C2",), -1, -1, INF, ("A2",), "exact"),
    ("backup", ("C2",), -1, -1, INF, (), "upper"),
    ("backup", (), -1, -1, INF, (), "exact"),
]


def hand_position() -> gw.Gridlock:
    g = gw.Gridlock(rows=2, cols=3)
    g.play("A1")
    return g


def test_minimax_trace_is_the_hand_worked_tree():
    g = hand_position()
    t = teach.minimax_trace(g)
    assert [(e.kind, e.line, e.value) for e in t.events] == HAND_MINIMAX
    assert t.player == 1 and t.moves == ("C1", "B2", "C2")
    assert (t.value, t.best_move, t.leaves, t.capped) == (-1, "C1", 5, False)
    assert all(e.alpha is None and e.beta is None for e in t.events)
    # max nodes where O moves, min nodes where X moves
    enters = {e.line: e.maximizing for e in t.events if e.kind == "enter"}
    assert enters == {(): True, ("C1",): False, ("C1", "A2"): True, ("B2",): False, ("C2",): False,
                      ("C2", "A2"): True}
    assert g.history == [gw.CellMove((0, 0))]  # the game given is untouched


def test_alphabeta_trace_is_the_hand_worked_tree():
    t = teach.alphabeta_trace(hand_position())
    got = [(e.kind, e.line, e.value, e.alpha, e.beta, e.pruned, e.bound) for e in t.events]
    assert got == HAND_ALPHABETA
    assert (t.value, t.best_move, t.leaves) == (-1, "C1", 4)


def test_stepper_states_follow_the_hand_worked_tree():
    g = hand_position()
    before = (g.history, g.version)
    s = teach.alphabeta(g)
    root_history = [str(m) for m in g.history]
    assert s.index == 0 and s.event is None and len(s.tree) == 1
    assert s.value == -1 and s.best_move == "C1"
    assert s.runner.max == len(HAND_ALPHABETA) and s.slider.max == len(HAND_ALPHABETA)
    for i, expected in enumerate(HAND_ALPHABETA, start=1):
        s.step()
        assert s.index == i and (s.event.kind, s.event.line) == expected[:2]
        assert [str(m) for m in s.board.game.history] == root_history + list(expected[1])
    # step 6 (C1's second leaf): C1 is still open, worth at most -1 so far
    s.goto(6)
    c1 = s.tree.find(("C1",))
    assert (c1.status, c1.value, c1.bound, c1.maximizing) == ("open", -1, "upper", False)
    assert s.tree.find(("C1", "A2")).status == "done"
    assert s.tree.find(("B2",)) is None
    # step 13: the cut-off; A2 below C2 is drawn as pruned
    s.goto(13)
    cut = s.tree.find(("C2", "A2"))
    assert cut.status == "cut" and cut.value is None
    assert "A2 pruned" in s.describe()
    svg = s.svg()
    assert "cut" in svg and "stroke-dasharray" in svg
    # back and forth: the board follows
    s.back(3)
    assert s.index == 10 and [str(m) for m in s.board.game.history] == [*root_history, "B2"]
    s.slider.value = 4  # the slider (and the Run control linked to it) moves the stepper
    assert s.index == 4 and s.runner.value == 4
    s.runner.value = 2
    assert s.index == 2 and s.slider.value == 2
    assert [str(m) for m in s.board.game.history] == [*root_history, "C1"]
    s.step(100)
    assert s.finished and s.index == len(HAND_ALPHABETA)
    assert "best move C1" in s.describe() and s.tree.value == -1
    s.reset()
    assert s.index == 0 and [str(m) for m in s.board.game.history] == root_history
    assert (g.history, g.version) == before


def test_minimax_tree_values_at_the_end():
    s = teach.minimax(hand_position())
    s.goto(len(s.events))
    tree = s.tree
    values = {n.line: n.value for n in tree.walk()}
    assert values == {e[1]: e[2] for e in HAND_MINIMAX if e[0] != "enter"}
    assert all(n.status in ("done", "leaf") for n in tree.walk())
    assert len(tree) == 11


def test_board_changed_from_code_is_put_back():
    s = teach.minimax(hand_position())
    s.goto(3)
    s.board.game.undo()
    s.board.game.undo()
    s.board.game.play("C2")
    s.goto(4)
    assert [str(m) for m in s.board.game.history] == ["A1", "C1", "A2", "C2"]
    # the page cannot move on the board
    assert s.board.handle_intent({"type": "play", "move": "B1"}) is False
    assert s.board.handle_intent({"type": "undo"}) is False
    assert [str(m) for m in s.board.game.history] == ["A1", "C1", "A2", "C2"]


# ----------------------------------------------------------------------
# Against the exact solver, on random small positions of every game
# ----------------------------------------------------------------------
def searchable(cls) -> bool:
    gt = cls.game_type
    return (gt.dynamics is Dynamics.SEQUENTIAL and gt.information is Information.PERFECT
            and gt.utility is not Utility.GENERAL_SUM and gt.min_players <= 2 <= gt.max_players)


GAMES = sorted(name for name, cls in gw.registry.games().items() if searchable(cls))


def count_nodes(g, limit: int) -> int:
    """Nodes of the full game tree below ``g``, stopping past ``limit``."""
    n = 1
    if g.is_over:
        return n
    for m in g.search_moves():
        g.play(m)
        try:
            n += count_nodes(g, limit - n)
        finally:
            g.undo()
        if n > limit:
            break
    return n


def small_positions(cls, count: int, seed: int, limit: int = 1500) -> list:
    """``count`` random positions whose game tree has at most ``limit`` nodes: a
    random game from the small options, taken back from its end while the tree
    below stays that small; one of those positions, at random (another game if
    the tree is big one step before the end)."""
    rng = random.Random(seed)
    out = []
    for _ in range(200):
        g = cls.new_for_seed(dict(cls.small_options), rng.randrange(1000))
        if len(g.players) != 2:
            pytest.skip("the small options are not a two-player game")
        while not g.is_over:
            moves = g.search_moves()
            g.play(moves[rng.randrange(len(moves))])
        small = []
        while g.step_count:
            g.undo()
            if count_nodes(g, limit) > limit:
                break
            small.append(g.copy())
        if small:
            out.append(small[rng.randrange(len(small))])
            if len(out) == count:
                return out
    raise AssertionError("no small position found")


def test_the_generic_tests_see_games():
    assert "gridlock" in GAMES and len(GAMES) >= 2


def node_values(trace) -> dict:
    return {e.line: e.value for e in trace.events if e.kind in ("leaf", "backup")}


@pytest.mark.parametrize("name", GAMES)
def test_minimax_and_alphabeta_agree_with_solve(name):
    cls = gw.registry.games()[name]
    for g in small_positions(cls, 4, seed=len(name)):
        before = g.to_json()
        mm = teach.minimax_trace(g)
        ab = teach.alphabeta_trace(g)
        sol = solve(g, progress=False)
        assert not mm.capped and not ab.capped
        assert mm.value == ab.value == sol.value
        assert mm.best_move == ab.best_move and mm.best_move in sol.best_moves
        assert ab.leaves <= mm.leaves
        # every alpha-beta value is what Knuth and Moore's theorem says of it
        exact = node_values(mm)
        for e in ab.events:
            if e.kind in ("leaf", "backup"):
                true = exact[e.line]
                assert {"exact": true == e.value, "lower": true >= e.value, "upper": true <= e.value}[e.bound]
        # the root moves' values are those of the solver
        for move, value in sol.move_values.items():
            if (move,) in exact:
                assert exact[(move,)] == value
        assert g.to_json() == before


@pytest.mark.parametrize("shape", [(2, 3), (2, 4), (3, 3)])
def test_random_small_boards_agree_with_solve(shape):
    rng = random.Random(sum(shape))
    for _ in range(4):
        g = gw.Gridlock(rows=shape[0], cols=shape[1])
        for _ in range(rng.randrange(3)):
            if not g.is_over:
                moves = g.legal_moves()
                g.play(moves[rng.randrange(len(moves))])
        if g.is_over:
            continue
        sol = solve(g, progress=False)
        mm, ab = teach.minimax_trace(g), teach.alphabeta_trace(g)
        assert mm.value == ab.value == sol.value
        assert mm.best_move == ab.best_move and mm.best_move in sol.best_moves
        assert ab.leaves <= mm.leaves


def reference_alphabeta(g, me, alpha=-INF, beta=INF, leaves=None):
    """AIMA's ALPHA-BETA-SEARCH (MAX-VALUE / MIN-VALUE), written out plainly:
    (value for ``me``, leaves evaluated)."""
    leaves = [0] if leaves is None else leaves
    if g.is_over:
        leaves[0] += 1
        return g.returns()[me], leaves
    if g.current_player == me:
        v = -INF
        for m in g.legal_moves():
            g.play(m)
            v = max(v, reference_alphabeta(g, me, alpha, beta, leaves)[0])
            g.undo()
            if v >= beta:
                return v, leaves
            alpha = max(alpha, v)
        return v, leaves
    v = INF
    for m in g.legal_moves():
        g.play(m)
        v = min(v, reference_alphabeta(g, me, alpha, beta, leaves)[0])
        g.undo()
        if v <= alpha:
            return v, leaves
        beta = min(beta, v)
    return v, leaves


@pytest.mark.parametrize("shape", [(2, 3), (1, 6), (2, 4), (3, 3)])
def test_alphabeta_evaluates_the_leaves_of_the_textbook_algorithm(shape):
    rng = random.Random(7 * sum(shape))
    for n_moves in (0, 1, 2, 2):
        g = gw.Gridlock(rows=shape[0], cols=shape[1])
        for _ in range(n_moves):
            if not g.is_over:
                g.play(g.legal_moves()[rng.randrange(len(g.legal_moves()))])
        if g.is_over:
            continue
        t = teach.alphabeta_trace(g)
        value, leaves = reference_alphabeta(g.copy(), g.current_player)
        assert (t.value, t.leaves) == (value, leaves[0])
        cut_moves = sum(len(e.pruned) for e in t.events if e.kind == "cutoff")
        assert cut_moves > 0 or t.leaves == teach.minimax_trace(g).leaves


def test_alphabeta_prunes_on_a_bigger_position():
    g = gw.Gridlock(rows=3, cols=3)
    g.play("B2")
    mm, ab = teach.minimax_trace(g), teach.alphabeta_trace(g)
    assert ab.leaves < mm.leaves and any(e.kind == "cutoff" for e in ab.events)
    assert ab.value == mm.value == solve(g, progress=False).value


def test_depth_limit_uses_the_evaluation():
    g = gw.Gridlock(rows=4, cols=4)
    for m in ("B2", "D4"):
        g.play(m)
    for depth in (1, 2):
        mm = teach.minimax_trace(g, depth)
        ab = teach.alphabeta_trace(g, depth)
        assert mm.value == ab.value and mm.best_move == ab.best_move
        leaves = [e for e in mm.events if e.kind == "leaf"]
        assert all(len(e.line) <= depth for e in leaves)
        for e in leaves:
            if e.estimate is not None:
                assert e.value == teach.squash(e.estimate) and -1 < e.value < 1
                w = g.copy()
                for s in e.line:
                    w.play(s)
                assert e.estimate == w.evaluate(g.current_player)
        assert any(e.estimate is not None for e in leaves)
    # a given evaluation stands in for the game's
    t = teach.minimax_trace(g, 1, evaluate=lambda game, player: 3.0)
    assert {e.value for e in t.events if e.kind == "leaf"} == {0.75}


def test_squash_keeps_order():
    xs = [-50.0, -3.0, -1.0, 0.0, 0.5, 1.0, 7.0]
    ys = [teach.squash(x) for x in xs]
    assert ys == sorted(ys) and all(-1 < y < 1 for y in ys) and teach.squash(1.0) == 0.5


# ----------------------------------------------------------------------
# MCTS
# ----------------------------------------------------------------------
def test_mcts_trace_is_deterministic_and_counts_visits():
    g = gw.Gridlock(rows=3, cols=3)
    a = teach.mcts_trace(g, 60, seed=3)
    b = teach.mcts_trace(g, 60, seed=3)
    c = teach.mcts_trace(g, 60, seed=4)
    assert a.events == b.events and (a.value, a.best_move) == (b.value, b.best_move)
    assert a.events != c.events
    sims = 0
    for e in a.events:
        assert e.root_visits == sum(s.visits for s in e.root)
        if e.kind == "backup":
            sims += 1
            assert e.simulation == sims == e.root_visits
    assert sims == 60 and sum(s.visits for s in a.events[-1].root) == 60
    kinds = [e.kind for e in a.events[:4]]
    assert kinds == ["select", "expand", "rollout", "backup"]
    # the first simulations try the root's moves in order (UCT: untried first)
    expands = [e.line for e in a.events if e.kind == "expand"][:9]
    assert expands == [(str(m),) for m in g.legal_moves()]
    tree = teach.build_tree(a, len(a.events))
    assert tree.visits == 60 and sum(ch.visits for ch in tree.children) == 60
    best = max(a.events[-1].root, key=lambda s: s.visits)
    assert a.best_move == best.move and a.value == pytest.approx(best.value)
    # UCT scores as Kocsis and Szepesvari define them
    for s in a.events[-1].root:
        assert s.uct == pytest.approx(s.value + 1.4 * math.sqrt(math.log(60) / s.visits))


def test_mcts_select_text_says_uct_walks_down_from_the_root():
    # issue 30: the text once said "UCT walks down to the root"; selection starts at the root
    g = gw.Gridlock(rows=3, cols=3)
    s = teach.mcts(g, 20, seed=3)
    selects = [i for i, e in enumerate(s.trace.events, start=1) if e.kind == "select"]
    deep = next(i for i in selects if s.trace.events[i - 1].line)
    s.goto(selects[0])  # the first simulation: the root itself has untried moves
    assert "select: UCT stays at the root, a node with an untried move." in s.describe()
    s.goto(deep)
    line = " ".join(s.event.line)
    assert f"select: UCT walks down from the root to {line}," in s.describe()
    assert "down to the root" not in s.describe()


def test_stepper_controls_show_run_as_a_word_before_the_play_icons():
    # a Play control draws icons only (▶ ■): the word Run is a label of its own, before it
    s = teach.alphabeta(hand_position())
    controls = s.children[-1].children
    names = [getattr(c, "description", None) or getattr(c, "value", None) for c in controls[:3]]
    assert names == ["Back", "Step", "Run"]
    assert controls[2] is s.run_label and controls[3] is s.runner
    assert "▶ after Run" in s.describe()


def test_mcts_means_are_the_rollout_results():
    g = hand_position()
    t = teach.mcts_trace(g, 40, seed=0)
    tree = teach.build_tree(t, len(t.events))
    # the root's moves: O moved, so the means are O's; they match the root statistics
    stats = {s.move: s for s in t.events[-1].root}
    for ch in tree.children:
        assert ch.visits == stats[ch.move].visits and ch.value == pytest.approx(stats[ch.move].value)
    # B2 leads to a finished game after X's C1, whatever is played: O loses every time
    assert stats["B2"].value == -1


def test_mcts_stepper_shows_the_rollout_and_the_table():
    g = gw.Gridlock(rows=3, cols=3)
    s = teach.mcts(g, 20, seed=1)
    rollout = next(i for i, e in enumerate(s.events, start=1) if e.kind == "rollout" and e.playout)
    s.goto(rollout)
    ev = s.event
    assert [str(m) for m in s.board.game.history] == list(ev.line + ev.playout)
    assert "rollout" in s.describe() and "<table" in s.info.value and "UCT" in s.info.value
    s.step()
    assert s.event.kind == "backup" and [str(m) for m in s.board.game.history] == list(ev.line)
    assert g.history == []


# ----------------------------------------------------------------------
# The drawing
# ----------------------------------------------------------------------
def drawn_lines(svg: str) -> set[str]:
    return set(re.findall(r"<title>([^<]*)</title>", svg))


def test_small_tree_is_drawn_whole_and_big_tree_keeps_the_current_line():
    s = teach.minimax(gw.Gridlock(rows=2, cols=3))
    s.goto(len(s.events))
    assert len(s.tree) <= 60 and len(drawn_lines(s.svg())) == len(s.tree)
    g = gw.Gridlock(rows=4, cols=4)
    for m in ("B2", "D4", "A4", "C1"):
        g.play(m)
    ab = teach.alphabeta(g, max_steps=4000)
    mc = teach.mcts(gw.Gridlock(rows=4, cols=4), 120, seed=2)  # 16 root moves: more than are drawn
    for big, i in ((ab, len(ab.events) // 3), (ab, len(ab.events) - 1), (mc, len(mc.events) - 1)):
        big.goto(i)
        tree, line = big.tree, big.event.line
        assert len(tree) > 60
        svg = big.svg()
        lines = drawn_lines(svg)
        assert len(lines) < len(tree)
        for k in range(len(line) + 1):  # the whole current line
            assert (" ".join(line[:k]) or "root") in lines
        node = tree
        for k in range(len(line) + 1):  # and the explored moves of each node on it (7, then "+k more")
            for child in node.children[:7]:
                assert " ".join(child.line) in lines
            if len(node.children) > 8:
                on_line = sum(1 for c in node.children[7:] if line[: len(c.line)] == c.line)
                assert f"+{len(node.children) - 7 - on_line} more" in svg
            if k < len(line):
                node = node.find(line[k:k + 1])
        assert "(+" in svg  # the subtrees left out are counted
    assert "more" in mc.svg()


def test_tree_svg_escapes_labels():
    root = teach.TreeNode((), player=0, maximizing=True, value=1.0, status="done")
    root.children.append(teach.TreeNode(("<b>&x",), player=None, value=1.0, status="leaf", terminal=True))
    svg = teach.tree_svg(root, ("<b>&x",), caption='say "<hi>"')
    assert "<b>" not in svg and "&lt;b&gt;&amp;x" in svg and "&lt;hi&gt;" in svg


def test_format_value():
    f = teach.format_value
    assert [f(1.0), f(-1.0), f(0.0), f(0.75), f(None)] == ["+1", "-1", "0", "+0.75", "?"]
    assert f(-1.0, "upper") == "≤-1" and f(1.0, "lower") == "≥+1" and f(0.5, estimate=True) == "≈+0.50"
    assert f(INF) == "+∞"


# ----------------------------------------------------------------------
# The cap and bad input
# ----------------------------------------------------------------------
def test_the_cap_stops_the_search_and_says_so():
    g = gw.Gridlock(rows=3, cols=3)
    t = teach.minimax_trace(g, max_steps=50)
    assert t.capped and len(t.events) == 50 and t.value is None and t.best_move is None
    s = teach.SearchStepper(t)
    s.goto(50)
    assert "cap of 50 steps" in s.describe()
    m = teach.mcts_trace(g, 100, max_steps=41)
    assert m.capped and len(m.events) <= 41 and m.events[-1].kind == "backup"
    assert m.best_move is not None


def game_names() -> list[str]:
    names = []
    for cls in gw.registry.games().values():
        names += [cls.__name__, cls.game_type.long_name, cls.game_type.short_name]
    return names


@pytest.mark.parametrize("name", sorted(set(gw.registry.games()) - set(GAMES)))
def test_games_of_other_kinds_are_refused_without_naming_them(name):
    g = gw.registry.games()[name].new_for_seed(dict(gw.registry.games()[name].small_options), 0)
    for f in (teach.minimax, teach.alphabeta, teach.mcts, teach.minimax_trace):
        with pytest.raises(ValueError) as info:
            f(g)
        text = str(info.value)
        assert "two-player, sequential, zero-sum" in text
        assert not any(n.lower() in text.lower() for n in game_names())


def test_bad_input():
    g = hand_position()
    with pytest.raises(TypeError):
        teach.minimax("not a game")
    over = gw.Gridlock(rows=1, cols=1)
    over.play("A1")
    with pytest.raises(ValueError, match="over"):
        teach.alphabeta(over)
    for kwargs in ({"depth": 0}, {"depth": 1.5}, {"max_steps": 0}, {"max_steps": True}):
        with pytest.raises(ValueError):
            teach.minimax_trace(g, **kwargs)
    for kwargs in ({"simulations": 0}, {"c": -1}, {"c": float("nan")}):
        with pytest.raises(ValueError):
            teach.mcts_trace(g, **kwargs)
    s = teach.minimax(g)
    for bad in (-1, len(s.events) + 1):
        with pytest.raises(ValueError, match="outside"):
            s.goto(bad)
    with pytest.raises(TypeError):
        s.goto("3")
    with pytest.raises(ValueError):
        s.step(0)
    with pytest.raises(TypeError):
        teach.SearchStepper(["not", "a", "trace"])
    with pytest.raises(ValueError):
        teach.SearchStepper(teach.minimax_trace(g), interval=0)
    assert s.index == 0
