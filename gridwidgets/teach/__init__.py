"""Search algorithms shown step by step on the board, for teaching.

``teach.minimax(game)``, ``teach.alphabeta(game)`` and ``teach.mcts(game)``
run a search on a copy of a position of any registered two-player,
sequential, zero-sum game of perfect information, record what it does
(:class:`SearchTrace`: a list of :class:`SearchEvent` or
:class:`MCTSEvent`), and return a :class:`SearchStepper`: the live board
set to the node of each step, the explored tree beside it, an info line
and the controls (Back, Step, Run/Pause, Reset, a slider)::

    s = gw.teach.alphabeta(g)      # g: a small position; show s in a cell, then
    s.step(5)                      # what the Step button does, 5 times
    s.event, s.tree, s.value, s.best_move

The traces need no widget: :func:`minimax_trace`, :func:`alphabeta_trace`
and :func:`mcts_trace` return the events, :func:`build_tree` the tree
after any number of them, :func:`tree_svg` its picture.

Sources:

- Minimax from the root player's point of view, max and min nodes: S.
  Russell and P. Norvig, *Artificial Intelligence: A Modern Approach*,
  chapter 5 ("Adversarial search").
- Alpha-beta pruning: D. E. Knuth and R. W. Moore (1975), "An Analysis of
  Alpha-Beta Pruning", *Artificial Intelligence* 6(4), pp. 293-326.
- UCT: L. Kocsis and C. Szepesvári (2006), "Bandit based Monte-Carlo
  Planning", ECML 2006, LNCS 4212, pp. 282-293; the four steps of a
  simulation as in C. Browne et al. (2012), "A Survey of Monte Carlo Tree
  Search Methods", IEEE TCIAIG 4(1).
"""

from __future__ import annotations

from .stepper import SearchStepper, alphabeta, mcts, minimax
from .trace import (
    DEFAULT_MAX_STEPS,
    ChildStat,
    MCTSEvent,
    SearchEvent,
    SearchTrace,
    alphabeta_trace,
    check_game,
    mcts_trace,
    minimax_trace,
    squash,
)
from .tree import TreeNode, build_tree, format_value, tree_svg

__all__ = [
    "DEFAULT_MAX_STEPS",
    "ChildStat",
    "MCTSEvent",
    "SearchEvent",
    "SearchStepper",
    "SearchTrace",
    "TreeNode",
    "alphabeta",
    "alphabeta_trace",
    "build_tree",
    "check_game",
    "format_value",
    "mcts",
    "mcts_trace",
    "minimax",
    "minimax_trace",
    "squash",
    "tree_svg",
]
