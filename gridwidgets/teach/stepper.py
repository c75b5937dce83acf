"""The stepper widget: a search shown step by step, on the live board and as a tree."""

from __future__ import annotations

import threading
from collections.abc import Callable
from html import escape
from typing import Any

import ipywidgets as W

from ..core.game import Game
from .trace import (
    DEFAULT_MAX_STEPS,
    MCTSEvent,
    SearchEvent,
    SearchTrace,
    alphabeta_trace,
    mcts_trace,
    minimax_trace,
)
from .tree import TreeNode, build_tree, format_value, tree_svg

__all__ = ["SearchStepper", "alphabeta", "mcts", "minimax"]

#: the board's own controls, hidden: the stepper's buttons move the search
_HIDDEN_CONTROLS = ["new", "undo", "redo", "toggle-edit", "export", "hints", "goto", "play", "pause", "step",
                    "speed"]
#: the longest rollout written out in the info line (moves)
_PLAYOUT_SHOWN = 12
_KIND_WORDS = {"exact": "", "lower": "at least ", "upper": "at most "}


class _ShowOnly:
    """Mixin of the stepper's board: the page cannot change the position."""

    def handle_intent(self, content: Any) -> bool:
        self._say("This board shows the search: use the stepper's buttons.", "info")  # type: ignore[attr-defined]
        return False


_BOARD_CLASSES: dict[type, type] = {}
_BOARD_LOCK = threading.Lock()


def _board(game: Game) -> Any:
    """A board of ``game`` that shows the search and refuses the page's moves."""
    from ..widgets import widget_class

    base = widget_class(type(game))
    with _BOARD_LOCK:
        cls = _BOARD_CLASSES.get(base)
        if cls is None:
            cls = type(f"Search{base.__name__}", (_ShowOnly, base), {"__module__": __name__})
            _BOARD_CLASSES[base] = cls
    return cls(game, seats=(), hidden_controls=list(_HIDDEN_CONTROLS))


def _line(line: tuple[str, ...]) -> str:
    return " ".join(line) if line else "the root"


class SearchStepper(W.VBox):
    """A recorded search (:class:`~gridwidgets.teach.SearchTrace`) shown step by step.

    The widget shows a live board (a copy of the position searched, set to
    the node of the current step: the board goes back to the root, then the
    moves of the node's line are played on it), the explored tree as SVG
    beside it (:func:`~gridwidgets.teach.tree_svg`), an info line (the
    step, the node, values, alpha and beta, cut-offs, or for MCTS a table of
    the root's moves with their visits, means and UCT scores), and the
    controls: *Back*, *Step*, *Run* (a label before an ipywidgets ``Play``,
    whose ▶ advances one step every ``interval`` milliseconds in the
    browser, ⏸ pauses and ■ goes back to step 0), *Reset* and a slider.
    The game given to :func:`minimax`, :func:`alphabeta` or :func:`mcts` is
    never changed.

    Step ``0`` is the root before any event; step ``i`` is after event
    ``i`` (``events[i - 1]``, the current :attr:`event`).

    Args:
        trace: the recorded search.
        interval: milliseconds between two steps while running.
        full_limit: the largest tree drawn whole (bigger ones are cut down
            to the current line).

    Raises:
        TypeError: if ``trace`` is not a :class:`~gridwidgets.teach.SearchTrace`
            with its game.
        ValueError: for an ``interval`` outside 20..10,000 ms.

    Attributes:
        tree_view: the ``ipywidgets.HTML`` showing the tree's SVG.
        info: the ``ipywidgets.HTML`` info line (and, for MCTS, the root's table).
        slider: the ``ipywidgets.IntSlider`` of the step.
        runner: the ``ipywidgets.Play`` control (▶ run, ⏸ pause, ■ back to
            step 0), linked to the slider.
        run_label: the ``ipywidgets.Label`` *Run* shown before :attr:`runner`
            (a ``Play`` shows icons only).
        back_button: the Back button.
        step_button: the Step button.
        reset_button: the Reset button.
    """

    def __init__(self, trace: SearchTrace, *, interval: int = 600, full_limit: int = 60) -> None:
        if not isinstance(trace, SearchTrace) or trace.game is None:
            raise TypeError("SearchStepper takes a SearchTrace (from minimax_trace, alphabeta_trace or mcts_trace)")
        if isinstance(interval, bool) or not isinstance(interval, int) or not 20 <= interval <= 10_000:
            raise ValueError(f"interval must be a whole number of milliseconds from 20 to 10000, got {interval!r}")
        self._trace = trace
        self._full_limit = full_limit
        self._work = trace.game.copy()
        self._start = self._work.step_count
        self._shown: list[str] = []
        self._index = 0
        self._tree: TreeNode | None = None
        self._tree_index = -1
        self._lock = threading.RLock()
        n = len(trace.events)
        self._board = _board(self._work)
        self._version = self._work.version
        self.tree_view = W.HTML(layout=W.Layout(overflow="auto", flex="1 1 auto", min_width="0",
                                                max_height="560px"))
        self.info = W.HTML()
        self.slider = W.IntSlider(value=0, min=0, max=n, description="step", continuous_update=True,
                                  readout=True, layout=W.Layout(flex="1 1 auto"))
        self.runner = W.Play(value=0, min=0, max=n, step=1, interval=interval, show_repeat=False,
                             description="Run", tooltip="Run: ▶ plays every step, ⏸ pauses, ■ back to step 0")
        self.run_label = W.Label("Run", layout=W.Layout(margin="0 0 0 8px"))
        W.link((self.runner, "value"), (self.slider, "value"))
        self.back_button = W.Button(description="Back", icon="step-backward", tooltip="one step back")
        self.step_button = W.Button(description="Step", icon="step-forward", tooltip="one step")
        self.reset_button = W.Button(description="Reset", icon="fast-backward", tooltip="back to the root")
        for b in (self.back_button, self.step_button, self.reset_button):
            b.layout = W.Layout(width="auto")
        self.back_button.on_click(lambda _b: self.back())
        self.step_button.on_click(lambda _b: self.step())
        self.reset_button.on_click(lambda _b: self.reset())
        self.slider.observe(self._on_slider, names="value")
        controls = W.HBox([self.back_button, self.step_button, self.run_label, self.runner, self.reset_button,
                           self.slider])
        top = W.HBox([self._board, self.tree_view], layout=W.Layout(align_items="flex-start", grid_gap="12px"))
        super().__init__([top, self.info, controls])
        self._render()

    # ------------------------------------------------------------------
    # The Python API
    # ------------------------------------------------------------------
    @property
    def trace(self) -> SearchTrace:
        """The recorded search."""
        return self._trace

    @property
    def events(self) -> tuple[SearchEvent | MCTSEvent, ...]:
        """Every event of the search, in order."""
        return self._trace.events

    @property
    def index(self) -> int:
        """The current step: how many events have happened (0..``len(events)``)."""
        return self._index

    @property
    def event(self) -> SearchEvent | MCTSEvent | None:
        """The event of the current step; ``None`` at step 0 (the root, nothing searched yet)."""
        return self._trace.events[self._index - 1] if self._index else None

    @property
    def board(self) -> Any:
        """The live board (a :class:`~gridwidgets.widgets.GameWidget` of a copy of
        the position searched); ``board.game.history`` is the root's history
        followed by the current node's line."""
        return self._board

    @property
    def tree(self) -> TreeNode:
        """The tree explored up to the current step (its root :class:`~gridwidgets.teach.TreeNode`)."""
        with self._lock:
            if self._tree is None or self._tree_index != self._index:
                self._tree = build_tree(self._trace, self._index)
                self._tree_index = self._index
            return self._tree

    @property
    def value(self) -> float | None:
        """The root's value for the root player found by the whole search
        (``None`` if the step cap stopped it first); the tree shows it at the last step."""
        return self._trace.value

    @property
    def best_move(self) -> str | None:
        """The root move the whole search chooses (notation), or ``None`` if the cap stopped it first."""
        return self._trace.best_move

    @property
    def finished(self) -> bool:
        """True at the last step."""
        return self._index == len(self._trace.events)

    def step(self, n: int = 1) -> int:
        """Go ``n`` steps forward (stopping at the last).

        Args:
            n: how many steps.

        Returns:
            The new :attr:`index`.

        Raises:
            ValueError: if ``n`` is not a whole number from 1.
        """
        n = _count(n)
        return self.goto(min(self._index + n, len(self._trace.events)))

    def back(self, n: int = 1) -> int:
        """Go ``n`` steps back (stopping at step 0).

        Args:
            n: how many steps.

        Returns:
            The new :attr:`index`.

        Raises:
            ValueError: if ``n`` is not a whole number from 1.
        """
        n = _count(n)
        return self.goto(max(self._index - n, 0))

    def reset(self) -> int:
        """Go back to step 0, the root (and stop running).

        Returns:
            0.
        """
        self.runner.playing = False
        return self.goto(0)

    def goto(self, index: int) -> int:
        """Go to step ``index``: the board shows the node of that step, the tree
        what was explored up to it.

        Args:
            index: the step, 0 (the root) to ``len(events)``.

        Returns:
            ``index``.

        Raises:
            TypeError: if ``index`` is not a whole number.
            ValueError: if it is outside ``0..len(events)``.
        """
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"a step is a whole number, got {type(index).__name__}")
        n = len(self._trace.events)
        if not 0 <= index <= n:
            raise ValueError(f"step {index} is outside 0..{n}")
        with self._lock:
            self._index = index
            self._render()
            if self.slider.value != index:
                self.slider.value = index  # (its observer sees the same index: nothing more)
        return index

    def svg(self) -> str:
        """The tree of the current step as an SVG document (what the widget shows)."""
        return tree_svg(self.tree, self._current_line(), mcts=self._trace.algorithm == "mcts",
                        caption=self._caption(), full_limit=self._full_limit)

    def to_svg(self) -> str:
        """What the widget shows at the current step as one static SVG: the
        board of the current node beside the explored tree, captioned with the
        step and the info line (for the docs site, HTML exports and slides)."""
        from ..core.draw import gallery

        with self._lock:
            board = self._work.to_svg(panel="below")
            tree = self.svg()
            step = f"Step {self._index} of {len(self._trace.events)}"
            return gallery([board, tree], [step, self.describe()[:160]], width=1100).svg

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # the live stepper in JupyterLab; its picture where no kernel runs it
        from ..core.draw import with_picture

        return with_picture(super()._repr_mimebundle_(**kwargs), self.to_svg(), repr(self))

    def __repr__(self) -> str:
        return (f"SearchStepper({self._trace.algorithm}, step {self.index} of {len(self.events)}"
                f"{', capped' if self._trace.capped else ''})")

    def describe(self) -> str:
        """The info line of the current step as plain text (the widget shows it as HTML)."""
        return " ".join(part for part, _ in self._info_parts())

    # ------------------------------------------------------------------
    # Drawing
    # ------------------------------------------------------------------
    def _on_slider(self, change: dict[str, Any]) -> None:
        value = change["new"]
        if value != self._index:
            self.goto(int(value))

    def _current_line(self) -> tuple[str, ...]:
        ev = self.event
        return ev.line if ev is not None else ()

    def _render(self) -> None:
        ev = self.event
        self._show(list(ev.position) if ev is not None else [])
        # the caption as text above the picture, so it wraps in a narrow output
        picture = tree_svg(self.tree, self._current_line(), mcts=self._trace.algorithm == "mcts",
                           caption="", full_limit=self._full_limit)
        self.tree_view.value = (f'<div style="font-size:12px;margin:0 0 4px 6px">{escape(self._caption())}</div>'
                                f"{picture}")
        parts = self._info_parts()
        html = "<br>".join(text if is_html else escape(text) for text, is_html in parts)
        table = self._table()
        self.info.value = f'<div style="line-height:1.5">{html}</div>{table}'

    def _show(self, moves: list[str]) -> None:
        """Set the board to the root followed by ``moves``."""
        w = self._work
        with w.batch():
            if w.version != self._version or w.step_count != self._start + len(self._shown):
                w.replace_with(self._trace.game)  # type: ignore[arg-type]  # changed from outside: start again
                self._shown = []
            k = 0
            while k < min(len(moves), len(self._shown)) and moves[k] == self._shown[k]:
                k += 1
            while len(self._shown) > k:
                w.undo()
                self._shown.pop()
            for s in moves[k:]:
                w.play(s)
                self._shown.append(s)
        self._version = w.version

    def _label(self, player: int | None) -> str:
        g = self._trace.game
        assert g is not None
        return "nobody" if player is None else g.player_label(player)

    def _caption(self) -> str:
        me = self._trace.player
        other = 1 - me
        if self._trace.algorithm == "mcts":
            return (f"n · mean: visits of a node, and the mean result for the player who made its move "
                    f"({self._label(me)} at the root)")
        return (f"Values for {self._label(me)}: ▲ {self._label(me)} takes the largest, "
                f"▼ {self._label(other)} the smallest")

    def _info_parts(self) -> list[tuple[str, bool]]:
        """The info line, as (text, is it HTML already) pieces."""
        t = self._trace
        n = len(t.events)
        i = self._index
        ev = self.event
        head = f"Step {i} of {n}."
        parts: list[tuple[str, bool]] = [(head, False)]
        if ev is None:
            g = t.game
            assert g is not None
            what = {"minimax": "Minimax", "alphabeta": "Alpha-beta", "mcts": "Monte Carlo tree search (UCT)"}
            parts.append((f"{what[t.algorithm]} from this position: {self._label(t.player)} to move; values "
                          f"are for {self._label(t.player)} (+1 a win, -1 a loss). Press Step, or ▶ after Run to play "
                          "every step.", False))
        elif isinstance(ev, MCTSEvent):
            parts.append((self._mcts_text(ev), False))
        else:
            parts.append((self._search_text(ev), False))
        if i == n:
            if t.capped:
                parts.append((f"The search stopped at its cap of {t.max_steps:,} steps (max_steps) before the "
                              "end: the tree is too big to show whole. Search a later position, give a depth "
                              "limit, or raise max_steps.", False))
            elif t.best_move is not None:
                parts.append((f"Result: value {format_value(t.value)} for {self._label(t.player)}; best move "
                              f"{t.best_move}.", False))
        return parts

    def _search_text(self, ev: SearchEvent) -> str:
        where = _line(ev.line)
        window = ""
        if ev.alpha is not None and ev.beta is not None:
            window = f" α = {format_value(ev.alpha)}, β = {format_value(ev.beta)}."
        if ev.kind == "enter":
            role = "max: takes the largest value" if ev.maximizing else "min: takes the smallest value"
            return f"Enter {where}: {self._label(ev.player)} to move ({role}).{window}"
        if ev.kind == "leaf":
            if ev.estimate is not None:
                return (f"Leaf {where}: depth limit; the evaluation {format_value(ev.estimate)} counts as "
                        f"{format_value(ev.value)}.{window}")
            return f"Leaf {where}: the game is over; value {format_value(ev.value)}.{window}"
        if ev.kind == "cutoff":
            bound = "β" if ev.maximizing else "α"
            return (f"Cut-off at {where}: its value {format_value(ev.value)} already reaches {bound}, so the "
                    f"other side avoids this line: {', '.join(ev.pruned)} pruned (never searched).{window}")
        # backup
        value = _KIND_WORDS.get(ev.bound, "") + format_value(ev.value)
        if not ev.line:
            return f"Back at the root: value {value} (best move {ev.best}).{window}"
        parent = _line(ev.line[:-1])
        return f"Back up {where}: value {value} goes up to {parent}.{window}"

    def _mcts_text(self, ev: MCTSEvent) -> str:
        where = _line(ev.line)
        sim = f"Simulation {ev.simulation}:"
        if ev.kind == "select":
            end = "a finished game" if ev.player is None else "a node with an untried move"
            if not ev.line:
                return f"{sim} select: UCT stays at the root, {end}."
            return f"{sim} select: UCT walks down from the root to {where}, {end}."
        if ev.kind == "expand":
            return f"{sim} expand: add {ev.line[-1]} to the tree ({self._label(ev.player)} to move there)."
        if ev.kind == "rollout":
            moves = " ".join(ev.playout[:_PLAYOUT_SHOWN]) + (" …" if len(ev.playout) > _PLAYOUT_SHOWN else "")
            played = f"random moves {moves}" if ev.playout else "no moves (the game is over)"
            return (f"{sim} rollout from {where}: {played}; result {format_value(ev.value)} for "
                    f"{self._label(self._trace.player)}.")
        return (f"{sim} backup: {format_value(ev.value)} added along {where}; the root has "
                f"{ev.root_visits} visits.")

    def _table(self) -> str:
        """For MCTS, the root's moves as a small HTML table."""
        if self._trace.algorithm != "mcts":
            return ""
        ev = self.event
        stats = ev.root if isinstance(ev, MCTSEvent) else ()
        if not stats:
            return ""
        nxt = max(stats, key=lambda s: s.uct)
        cell = 'style="padding:0 8px;text-align:right"'
        rows = [f"<tr><th {cell}>move</th><th {cell}>visits</th><th {cell}>mean</th><th {cell}>UCT</th></tr>"]
        for s in stats:
            uct = "∞ (untried)" if s.uct == float("inf") else f"{s.uct:.3f}"
            mark = ' style="font-weight:bold"' if s is nxt else ""
            rows.append(f"<tr{mark}><td {cell}>{escape(s.move)}</td><td {cell}>{s.visits}</td>"
                        f"<td {cell}>{escape(format_value(s.value)) if s.value is not None else '-'}</td>"
                        f"<td {cell}>{uct}</td></tr>")
        return ('<table style="border-collapse:collapse;font-size:90%" aria-label="root moves">'
                + "".join(rows) + "</table>")


def _count(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a whole number from 1, got {str(n)[:30]!r}")
    return n


def minimax(game: Game, depth: int | None = None, *, max_steps: int = DEFAULT_MAX_STEPS,
            evaluate: Callable[[Game, int], float] | None = None, interval: int = 600) -> SearchStepper:
    """A stepper showing minimax on ``game``, step by step (AIMA, chapter 5).

    Args:
        game: a position of a two-player, sequential, zero-sum game of
            perfect information, small enough to search; it is not changed.
        depth: a depth limit in moves (the game's evaluation decides there),
            or ``None``: to the end of every game.
        max_steps: the most steps recorded; a bigger search stops there and the stepper says so.
        evaluate: ``evaluate(game, player) -> float`` at the depth limit,
            instead of the game's own evaluation.
        interval: milliseconds between steps while running.

    Returns:
        The :class:`SearchStepper`.

    Raises:
        TypeError: if ``game`` is not a game.
        ValueError: for a game of another kind, a game over, or a bad option.
    """
    return SearchStepper(minimax_trace(game, depth, max_steps=max_steps, evaluate=evaluate), interval=interval)


def alphabeta(game: Game, depth: int | None = None, *, max_steps: int = DEFAULT_MAX_STEPS,
              evaluate: Callable[[Game, int], float] | None = None, interval: int = 600) -> SearchStepper:
    """A stepper showing alpha-beta pruning on ``game`` (Knuth and Moore 1975), step by step.

    Args:
        game: a position of a two-player, sequential, zero-sum game of
            perfect information, small enough to search; it is not changed.
        depth: a depth limit in moves (the game's evaluation decides there),
            or ``None``: to the end of every game.
        max_steps: the most steps recorded; a bigger search stops there and the stepper says so.
        evaluate: ``evaluate(game, player) -> float`` at the depth limit,
            instead of the game's own evaluation.
        interval: milliseconds between steps while running.

    Returns:
        The :class:`SearchStepper`.

    Raises:
        TypeError: if ``game`` is not a game.
        ValueError: for a game of another kind, a game over, or a bad option.
    """
    return SearchStepper(alphabeta_trace(game, depth, max_steps=max_steps, evaluate=evaluate), interval=interval)


def mcts(game: Game, simulations: int = 200, *, c: float = 1.4, seed: int | None = 0,
         max_steps: int = DEFAULT_MAX_STEPS, interval: int = 400) -> SearchStepper:
    """A stepper showing Monte Carlo tree search with UCT (Kocsis and
    Szepesvári 2006) on ``game``: each simulation in four steps (select,
    expand, rollout, backup).

    Args:
        game: a position of a two-player, sequential, zero-sum game of
            perfect information; it is not changed.
        simulations: how many simulations.
        c: the UCB1 exploration constant.
        seed: seeds the random rollouts (the same seed, the same search).
        max_steps: the most steps recorded (four per simulation at most).
        interval: milliseconds between steps while running.

    Returns:
        The :class:`SearchStepper`.

    Raises:
        TypeError: if ``game`` is not a game.
        ValueError: for a game of another kind, a game over, or a bad option.
    """
    return SearchStepper(mcts_trace(game, simulations, c=c, seed=seed, max_steps=max_steps), interval=interval)
