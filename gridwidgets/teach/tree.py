"""The explored tree after a number of events of a trace, and its SVG drawing.

:func:`build_tree` replays the first events of a :class:`~.trace.SearchTrace`
into :class:`TreeNode` objects; :func:`tree_svg` draws them: a small tree
whole, a bigger one cut down to the current line, the other moves of each
node on it, and markers for what is left out. The drawing uses
``currentColor`` for text and lines (it takes the page's text colour, so it
reads in light and dark themes) and one mid-blue and one mid-grey that read
on both.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from html import escape
from typing import Any

from .trace import MCTSEvent, SearchTrace

__all__ = ["TreeNode", "build_tree", "format_value", "tree_svg"]

#: the current node and the current line
ACCENT = "#2f7fd8"
#: pruned moves and left-out markers
MUTED = "#8a8a8a"
FONT = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"


@dataclass(eq=False)
class TreeNode:
    """One node of the explored tree, as known after some events.

    Attributes:
        line: the moves (notation) from the root; ``()`` for the root.
        player: the player to move there, ``None`` for a finished game (or unknown yet).
        maximizing: minimax and alpha-beta: True at a max node (the root
            player to move), False at a min node, ``None`` at a leaf.
        value: minimax and alpha-beta: the value so far for the root player
            (a node still being searched: the best of its finished children);
            MCTS: the mean result for the player who moved into the node.
        bound: ``"exact"``, ``"lower"`` (at least ``value``) or ``"upper"``
            (at most ``value``); a node still being searched has the bound
            its best so far gives (``"lower"`` at a max node).
        status: ``"open"`` (being searched), ``"done"`` (its value backed
            up), ``"leaf"`` (a finished game or the depth limit), ``"cut"``
            (a move pruned by alpha-beta, never searched), or for MCTS
            ``"tree"`` (a node of the tree).
        children: the nodes below, in the order they were reached.
        visits: MCTS: the simulations through the node.
        terminal: True at a finished game.
        estimate: a leaf at the depth limit: the game's evaluation.
    """

    line: tuple[str, ...]
    player: int | None = None
    maximizing: bool | None = None
    value: float | None = None
    bound: str = "exact"
    status: str = "open"
    children: list[TreeNode] = field(default_factory=list)
    visits: int = 0
    terminal: bool = False
    estimate: float | None = None

    @property
    def move(self) -> str | None:
        """The move into this node (notation); ``None`` at the root."""
        return self.line[-1] if self.line else None

    def walk(self) -> Iterator[TreeNode]:
        """This node and every node below it, depth first."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def find(self, line: tuple[str, ...] | list[str]) -> TreeNode | None:
        """The node at ``line`` below this one, or ``None`` if it is not in the tree.

        Args:
            line: the moves (notation) from this node.
        """
        node: TreeNode | None = self
        for s in line:
            assert node is not None
            node = next((ch for ch in node.children if ch.move == s), None)
            if node is None:
                return None
        return node

    def __len__(self) -> int:
        return sum(1 for _ in self.walk())


def _child(parent: TreeNode, move: str, **kw: Any) -> TreeNode:
    for ch in parent.children:
        if ch.move == move:
            for k, v in kw.items():
                setattr(ch, k, v)
            return ch
    node = TreeNode((*parent.line, move), **kw)
    parent.children.append(node)
    return node


def _node(root: TreeNode, line: tuple[str, ...], index: dict[tuple[str, ...], TreeNode]) -> TreeNode:
    node = index.get(line)
    if node is None:
        parent = _node(root, line[:-1], index)
        node = _child(parent, line[-1])
        index[line] = node
    return node


def _better(node: TreeNode, v: float) -> bool:
    return node.value is None or (v > node.value if node.maximizing else v < node.value)


def build_tree(trace: SearchTrace, index: int) -> TreeNode:
    """The tree explored by the first ``index`` events of ``trace``.

    Args:
        trace: the search.
        index: how many events have happened (0: only the root).

    Returns:
        The root :class:`TreeNode`.

    Raises:
        ValueError: if ``index`` is outside ``0..len(trace.events)``.
    """
    n = len(trace.events)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= n:
        raise ValueError(f"index {str(index)[:30]!r} is outside 0..{n}")
    root = TreeNode((), player=trace.player, maximizing=True,
                    status="tree" if trace.algorithm == "mcts" else "open")
    nodes: dict[tuple[str, ...], TreeNode] = {(): root}
    if trace.algorithm == "mcts":
        _replay_mcts(trace, index, root, nodes)
    else:
        _replay_depth_first(trace, index, root, nodes)
    return root


def _replay_depth_first(trace: SearchTrace, index: int, root: TreeNode,
                        nodes: dict[tuple[str, ...], TreeNode]) -> None:
    for ev in trace.events[:index]:
        node = _node(root, ev.line, nodes)
        kind = ev.kind
        if kind == "enter":
            node.player, node.maximizing, node.status = ev.player, ev.maximizing, "open"
            node.value, node.bound = None, "exact"
        elif kind in ("leaf", "backup"):
            node.value = ev.value
            node.status = "leaf" if kind == "leaf" else "done"
            node.bound = ev.bound  # type: ignore[union-attr]
            if kind == "leaf":
                node.player, node.maximizing = ev.player, None
                node.terminal = ev.player is None
                node.estimate = ev.estimate  # type: ignore[union-attr]
            if ev.line:
                parent = nodes[ev.line[:-1]]
                if parent.status == "open" and ev.value is not None and _better(parent, ev.value):
                    parent.value = ev.value
                    parent.bound = "lower" if parent.maximizing else "upper"
        elif kind == "cutoff":
            for s in ev.pruned:  # type: ignore[union-attr]
                nodes[(*ev.line, s)] = _child(node, s, status="cut")


def _replay_mcts(trace: SearchTrace, index: int, root: TreeNode, nodes: dict[tuple[str, ...], TreeNode]) -> None:
    sums: dict[tuple[str, ...], float] = {}
    for ev in trace.events[:index]:
        assert isinstance(ev, MCTSEvent)
        if ev.kind == "expand":
            node = _node(root, ev.line, nodes)
            node.status, node.player, node.terminal = "tree", ev.player, ev.player is None
            node.maximizing = None if ev.player is None else ev.player == trace.player
        elif ev.kind == "backup":
            # each node keeps the mean result of the player who moved into it (the player to move at its parent)
            root.visits += 1
            for k in range(1, len(ev.line) + 1):
                line = ev.line[:k]
                nd = nodes[line]
                nd.visits += 1
                mover = nodes[line[:-1]].player
                sums[line] = sums.get(line, 0.0) + (ev.returns[mover] if mover is not None else 0.0)
                nd.value = sums[line] / nd.visits


def format_value(value: float | None, bound: str = "exact", estimate: bool = False) -> str:
    """A value as the drawings and the info line write it: ``+1``, ``-1``,
    ``0``, ``+0.75``; ``≥ +1`` or ``≤ -1`` for a bound, ``≈ +0.5`` for an estimate.

    Args:
        value: the value, or ``None`` (written ``?``).
        bound: ``"exact"``, ``"lower"`` or ``"upper"``.
        estimate: True for a value from an evaluation at the depth limit.
    """
    if value is None:
        return "?"
    if value == math.inf:
        text = "+∞"
    elif value == -math.inf:
        text = "-∞"
    elif float(value).is_integer():
        text = f"{int(value):+d}" if value else "0"
    else:
        text = f"{value:+.2f}"
    prefix = {"lower": "≥", "upper": "≤"}.get(bound, "≈" if estimate else "")
    return prefix + text


# ----------------------------------------------------------------------
# Drawing
# ----------------------------------------------------------------------
@dataclass(eq=False)
class _Box:
    node: TreeNode | None  # None: a "+k more" marker
    depth: int
    more: int = 0  # a marker: how many moves it stands for
    hidden: int = 0  # a node whose explored subtree is not drawn: how many nodes it holds
    x: float = 0.0
    kids: list[_Box] = field(default_factory=list)


def _count(node: TreeNode) -> int:
    return len(node) - 1


def tree_svg(
    root: TreeNode,
    current: tuple[str, ...] | list[str] = (),
    *,
    mcts: bool = False,
    caption: str = "",
    full_limit: int = 60,
    max_children: int = 8,
) -> str:
    """Draw an explored tree as SVG.

    A tree of at most ``full_limit`` nodes is drawn whole. A bigger one is
    drawn cut down: the current line (root to the current node), every
    explored move of each node on it (at most ``max_children``, the rest as
    one "+k more" marker), and under each node off the line whose subtree
    is left out, how many nodes it holds. Max nodes (the root player to
    move) are marked with a triangle pointing up, min nodes with one
    pointing down; finished games are shaded; moves pruned by alpha-beta
    are dashed and grey with "cut"; the current node is filled in blue and
    the current line drawn in blue.

    Args:
        root: the root of the tree (:func:`build_tree`).
        current: the line (moves from the root) of the current node.
        mcts: draw Monte Carlo nodes (visits and mean) rather than minimax values.
        caption: a line of text above the tree (escaped).
        full_limit: the largest tree drawn whole.
        max_children: the most moves drawn below one node of a cut-down tree.

    Returns:
        An SVG document (a string); every label in it is escaped.
    """
    current = tuple(current)
    on_line = {current[:k] for k in range(len(current) + 1)}
    whole = len(root) <= full_limit
    slot = 70.0 if mcts else 56.0
    box_w = 62.0 if mcts else 48.0
    box_h, level_h = 32.0, 62.0
    top = 40.0 if caption else 14.0
    state = {"x": 0.0}

    def build(node: TreeNode, depth: int) -> _Box:
        box = _Box(node, depth)
        kids = node.children
        if kids and not whole and node.line not in on_line:
            box.hidden = _count(node)
            kids = []
        shown: list[TreeNode | int] = list(kids)
        if not whole and len(kids) > max_children:
            keep = kids[: max_children - 1]
            extra = [ch for ch in kids[max_children - 1 :] if ch.line in on_line]
            shown = [*keep, *extra, len(kids) - len(keep) - len(extra)]
        for item in shown:
            if isinstance(item, int):
                marker = _Box(None, depth + 1, more=item, x=state["x"])
                state["x"] += slot
                box.kids.append(marker)
            else:
                box.kids.append(build(item, depth + 1))
        if box.kids:
            box.x = (box.kids[0].x + box.kids[-1].x) / 2
        else:
            box.x = state["x"]
            state["x"] += slot
        return box

    tree = build(root, 0)
    boxes: list[_Box] = []
    stack = [tree]
    while stack:
        b = stack.pop()
        boxes.append(b)
        stack.extend(b.kids)
    max_depth = max(b.depth for b in boxes)
    width = max(state["x"] + 8, len(caption) * 6.7 + 16, slot + 8)
    cut_down = any(b.hidden or b.node is None for b in boxes)
    legend = "(+k): nodes explored below, not drawn; +k more: moves not drawn" if cut_down else ""
    width = max(width, len(legend) * 6.0 + 16)
    height = top + (max_depth + 1) * level_h + 6 + (18 if legend else 0)
    margin = slot / 2 + 4

    def pos(b: _Box) -> tuple[float, float]:
        return margin + b.x, top + b.depth * level_h

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="{FONT}" font-size="11" role="img" '
        f'aria-label="search tree">'
    ]
    if caption:
        out.append(f'<text x="6" y="18" font-size="12" fill="currentColor">{escape(caption)}</text>')
    # edges first, under the boxes
    for b in boxes:
        x0, y0 = pos(b)
        for k in b.kids:
            x1, y1 = pos(k)
            if k.node is None:
                dash, colour, w = ' stroke-dasharray="2 3"', MUTED, 1.0
            elif k.node.status == "cut":
                dash, colour, w = ' stroke-dasharray="5 4"', MUTED, 1.2
            elif k.node.line in on_line:
                dash, colour, w = "", ACCENT, 2.5
            else:
                dash, colour, w = "", "currentColor", 1.0
            out.append(f'<line x1="{x0:.1f}" y1="{y0 + box_h:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
                       f'stroke="{colour}" stroke-width="{w}"{dash}/>')
    for b in boxes:
        x, y = pos(b)
        if b.node is None:
            out.append(f'<text x="{x:.1f}" y="{y + box_h / 2 + 4:.1f}" text-anchor="middle" '
                       f'fill="{MUTED}">+{b.more} more</text>')
            continue
        out.extend(_box(b, x, y, box_w, box_h, current, on_line, mcts))
    if legend:
        out.append(f'<text x="6" y="{height - 8:.0f}" font-size="10" fill="{MUTED}">{escape(legend)}</text>')
    out.append("</svg>")
    return "".join(out)


def _box(b: _Box, x: float, y: float, w: float, h: float, current: tuple[str, ...],
         on_line: set[tuple[str, ...]], mcts: bool) -> list[str]:
    node = b.node
    assert node is not None
    left = x - w / 2
    is_current = node.line == current
    fill, fill_op = "currentColor", 0.0
    stroke, sw, dash, text_fill = "currentColor", 1.0, "", "currentColor"
    if node.status == "cut":
        stroke, dash, text_fill = MUTED, ' stroke-dasharray="4 3"', MUTED
    elif node.terminal:
        fill_op = 0.12
    if node.line in on_line and node.status != "cut":
        stroke, sw = ACCENT, 1.8
    if is_current:
        fill, fill_op, stroke, sw = ACCENT, 0.28, ACCENT, 2.8
    out = [f'<g><title>{escape(" ".join(node.line) or "root")}</title>'
           f'<rect x="{left:.1f}" y="{y:.1f}" width="{w:.0f}" height="{h:.0f}" rx="{3 if node.terminal else 7}" '
           f'fill="{fill}" fill-opacity="{fill_op}" stroke="{stroke}" stroke-width="{sw}"{dash}/>']
    # max / min marker: a small triangle at the left of the first line
    if node.maximizing is not None and node.status != "cut":
        tx, ty = left + 7, y + 9
        pts = (f"{tx - 4:.1f},{ty + 3:.1f} {tx + 4:.1f},{ty + 3:.1f} {tx:.1f},{ty - 4:.1f}" if node.maximizing
               else f"{tx - 4:.1f},{ty - 3:.1f} {tx + 4:.1f},{ty - 3:.1f} {tx:.1f},{ty + 4:.1f}")
        out.append(f'<polygon points="{pts}" fill="{text_fill}"/>')
    label = node.move if node.move is not None else "root"
    out.append(f'<text x="{x + 3:.1f}" y="{y + 13:.1f}" text-anchor="middle" font-weight="bold" '
               f'fill="{text_fill}">{escape(label)}</text>')
    if node.status == "cut":
        second = "cut"
    elif mcts:
        second = f"{node.visits} · {format_value(node.value)}" if node.line else f"{node.visits} sims"
    else:
        second = format_value(node.value, node.bound, node.estimate is not None) if node.value is not None else "…"
    out.append(f'<text x="{x:.1f}" y="{y + 27:.1f}" text-anchor="middle" fill="{text_fill}">'
               f'{escape(second)}</text>')
    if b.hidden:
        out.append(f'<text x="{x:.1f}" y="{y + h + 13:.1f}" text-anchor="middle" font-size="10" '
                   f'fill="{MUTED}">(+{b.hidden})</text>')
    out.append("</g>")
    return out
