"""Play a matrix game against a mixed strategy: a student takes one player's
side of a :class:`~gridwidgets.analysis.stage.StageGame` and chooses a pure
strategy each round; the opponent's choice is drawn from a mixed strategy
(its equilibrium strategy, or one the teacher chooses), and the running
average payoff is shown against the game value.

What it teaches (the minimax theorem, J. von Neumann 1928, "Zur Theorie der
Gesellschaftsspiele", *Mathematische Annalen* 100; as in M. Maschler,
E. Solan and S. Zamir, *Game Theory*, 2013, chapter 5): in a zero-sum game
an opponent playing an equilibrium strategy holds every strategy of the
student to at most the value, in expectation, so no way of playing beats the
value in the long run; a pure strategy that is a best response to the
opponent's strategy (every one in the support of one of the student's
equilibrium strategies is) earns exactly the value, the others less. An
opponent playing a mixed strategy that is not a minimax strategy can be
exploited: a best response to it earns more than the value
(:meth:`~gridwidgets.analysis.stage.StageGame.best_response`).

A general-sum game has no value. There the reference line is the student's
**best-response payoff** against the opponent's mix: the most any way of
playing earns per round in expectation. When the opponent plays its
strategy of a Nash equilibrium, that is the student's payoff in that
equilibrium (the student's own equilibrium strategy is a best response to
it). Which equilibrium is named: by default the first of
:meth:`~gridwidgets.analysis.stage.StageGame.equilibria` (pure equilibria
first), or any of them passed as ``mix``.

``MatrixMatch`` is the match without a widget (``choose``, ``history``,
``total``, ``average``, ``value``); its ``panel`` is the notebook widget (one
button per pure strategy, the last round, the running figures, a plot of the
running average against the value line, a *New match* button), made when it
is first shown or asked for (ipywidgets is imported only then).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ..core.errors import shorten
from .equilibrium import Equilibrium
from .stage import StageGame

__all__ = ["MatchRound", "MatrixMatch"]

#: the running average's line (a mid-blue that reads on light and dark pages)
ACCENT = "#2f7fd8"
#: the value's line (a mid-amber that reads on both)
VALUE = "#d97706"
FONT = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"
#: at most this many points of the running average are drawn (evenly spaced, the last always)
PLOT_POINTS = 300
#: characters of a caller's input repeated in an error message
_ECHO = 30


@dataclass(frozen=True)
class MatchRound:
    """One round of a :class:`MatrixMatch`, from the student's side.

    Attributes:
        number: the round's number in its match, from 1.
        choice: the student's pure strategy (a label of their strategies).
        reply: the opponent's pure strategy, drawn from its mixed strategy.
        payoff: the student's payoff in this round (the matrix entry of
            ``choice`` against ``reply``).
        opponent_payoff: the opponent's payoff in this round.
        total: the student's total payoff after this round.
        average: ``total / number``.
    """

    number: int
    choice: str
    reply: str
    payoff: float
    opponent_payoff: float
    total: float
    average: float


class MatrixMatch:
    """A match of repeated rounds of a matrix game, a student against a mixed strategy.

    The student plays ``player``'s side (0: the rows, 1: the columns); each
    round they choose one of their pure strategies (:meth:`choose`, or a
    button of :attr:`panel`), the opponent's pure strategy is drawn from
    :attr:`mix` by a seeded ``numpy.random.Generator``, and the student's
    payoff is the matrix entry. Rounds cannot be undone: keeping only the good
    ones would make the average beat the value.

    :attr:`value` is the reference line the running average is compared to,
    for the student:

    - zero-sum game: the game value (what the student can guarantee and the
      opponent can hold them to), whatever ``mix`` is; ``mix="equilibrium"``
      is the opponent's minimax strategy (the LP's);
    - general-sum game (no value): the student's best-response payoff
      against :attr:`mix`, the most the student can earn per round in
      expectation. ``mix="equilibrium"`` is the opponent's strategy in the
      first equilibrium :meth:`StageGame.equilibria()
      <gridwidgets.analysis.stage.StageGame.equilibria>` lists (pure
      equilibria first; for a nondegenerate game the one
      :meth:`StageGame.equilibrium()
      <gridwidgets.analysis.stage.StageGame.equilibrium>` returns), and
      the line is then the student's payoff in that equilibrium; pass
      another equilibrium of the list as ``mix`` to play against it.

    Args:
        stage: the game.
        mix: the opponent's mixed strategy: ``"equilibrium"`` (its strategy in
            the equilibrium above), an :class:`~gridwidgets.analysis.equilibrium.Equilibrium`
            of this game (e.g. one of ``stage.equilibria()``: the opponent's
            strategy in it), a sequence of probabilities (one per pure
            strategy of the opponent, in order), a ``{label: probability}``
            mapping (labels left out get 0), or one label (played for sure).
        player: the student's side, 0 or 1.
        seed: seeds the opponent's draws (an ``int >= 0``): the same seed and
            the same choices give the same match.
        rounds: the match's length (``None``: no limit); past it,
            :meth:`choose` is refused until :meth:`reset`.

    Raises:
        ValueError: for a player other than 0 or 1; a mix of the wrong length,
            with an unknown label, a negative, NaN or non-numeric entry, or not
            summing to 1 within 1e-6 (:meth:`StageGame.mixed
            <gridwidgets.analysis.stage.StageGame.mixed>` says which); a seed
            that is not an ``int >= 0``; ``rounds`` not a positive ``int`` or
            ``None``; an equilibrium of another game.
        RuntimeError: if no equilibrium is found.

    Attributes:
        stage: the game played.
        player: the student's side (0: rows, 1: columns).
        seed: the seed of the opponent's draws.
        rounds: the match's length, or ``None``.
        mix_name: ``"the equilibrium mix"`` (zero-sum), ``"their strategy in
            equilibrium k of n"`` (general-sum, ``k`` in the order of
            :meth:`StageGame.equilibria()
            <gridwidgets.analysis.stage.StageGame.equilibria>`) or ``"a chosen mix"``.
        equilibrium: the equilibrium whose strategy the opponent plays
            (``None`` for a chosen mix).
        match: the number of the current match (0 until the first :meth:`reset`).
    """

    def __init__(self, stage: StageGame, mix: Any = "equilibrium", *, player: int = 0, seed: int = 0,
                 rounds: int | None = None) -> None:
        stage.strategies(player)  # refuses a player other than 0 or 1
        p = int(player)
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be an int >= 0, got {shorten(seed, _ECHO)}")
        if rounds is not None and (isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer))
                                   or rounds < 1):
            raise ValueError(f"rounds must be a positive int or None, got {shorten(rounds, _ECHO)}")
        self.stage = stage
        self.player = p
        self.seed = int(seed)
        self.rounds = None if rounds is None else int(rounds)
        opp = 1 - p
        # both players' payoffs with the student's strategies as rows, the opponent's as columns
        self._mine = stage.a if p == 0 else stage.b.T
        self._theirs = stage.b if p == 0 else stage.a.T
        self.equilibrium: Equilibrium | None = None
        self._count = 0
        if isinstance(mix, Equilibrium):
            if (tuple(str(r) for r in mix.rows), tuple(str(c) for c in mix.cols)) != (stage.rows, stage.cols) \
                    or not np.array_equal(mix.matrix, stage.a) or not np.array_equal(mix.matrix_o, stage.b):
                raise ValueError("this equilibrium is of another game (its strategies or payoffs differ)")
            self.equilibrium = mix
        elif isinstance(mix, str) and mix == "equilibrium":
            if stage.zero_sum:
                self.equilibrium = stage.equilibrium()
            else:
                listed = stage.equilibria()
                self.equilibrium, self._count = listed[0], len(listed)
        if self.equilibrium is None:
            given = stage.mixed(mix, opp)
            self.mix_name = "a chosen mix"
        else:
            eq = self.equilibrium
            given = np.clip(eq.o_array if p == 0 else eq.x_array, 0.0, None)
            self.mix_name = "the equilibrium mix" if stage.zero_sum else f"their strategy in {_which(eq, self._count)}"
        #: the opponent's mixed strategy, normalised (one probability per pure strategy)
        self.mix: np.ndarray = given / given.sum()
        self.mix.setflags(write=False)
        #: the reference for the running average (see the class's description)
        if stage.zero_sum:
            self.value: float = float(stage.value() if p == 0 else -stage.value()) + 0.0
        else:
            self.value = float(np.max(self._mine @ self.mix)) + 0.0
        self._integral = bool(np.all(stage.payoffs == np.round(stage.payoffs)))
        self.match = 0
        self._history: list[MatchRound] = []
        self._rng = self._generator()
        self._listeners: list[Callable[[], None]] = []
        self._panel: Any = None

    # -- who plays what ------------------------------------------------------
    @property
    def strategies(self) -> tuple[str, ...]:
        """The student's pure strategies (the labels :meth:`choose` takes)."""
        return self.stage.strategies(self.player)

    @property
    def opponent_strategies(self) -> tuple[str, ...]:
        """The opponent's pure strategies, in the order of :attr:`mix`."""
        return self.stage.strategies(1 - self.player)

    @property
    def you(self) -> str:
        """The student's player name."""
        return self.stage.players[self.player]

    @property
    def opponent(self) -> str:
        """The opponent's player name."""
        return self.stage.players[1 - self.player]

    @property
    def expected_payoffs(self) -> dict[str, float]:
        """What each of the student's pure strategies earns per round in
        expectation against :attr:`mix` (``{label: payoff}``)."""
        gains = self._mine @ self.mix
        return {lab: float(g) for lab, g in zip(self.strategies, gains, strict=True)}

    @property
    def best_response(self) -> tuple[list[str], float]:
        """The student's best pure replies to :attr:`mix` and what they earn per
        round in expectation, as :meth:`StageGame.best_response
        <gridwidgets.analysis.stage.StageGame.best_response>` gives them."""
        return self.stage.best_response(self.mix, self.player)

    # -- the match -------------------------------------------------------------
    @property
    def history(self) -> tuple[MatchRound, ...]:
        """The rounds of the current match, first first."""
        return tuple(self._history)

    @property
    def played(self) -> int:
        """How many rounds of the current match have been played."""
        return len(self._history)

    @property
    def total(self) -> float:
        """The student's total payoff in the current match (0 before any round)."""
        return self._history[-1].total if self._history else 0.0

    @property
    def average(self) -> float | None:
        """The student's average payoff per round (``None`` before any round)."""
        return self._history[-1].average if self._history else None

    @property
    def finished(self) -> bool:
        """True once a match of :attr:`rounds` rounds has had them all."""
        return self.rounds is not None and self.played >= self.rounds

    def choose(self, choice: str | int) -> MatchRound:
        """Play one round: the student's ``choice`` against a draw from :attr:`mix`.

        Args:
            choice: one of :attr:`strategies`, by label or by index (from 0).

        Returns:
            The round's :class:`MatchRound` (also appended to :attr:`history`).

        Raises:
            ValueError: for a label or index that is not one of the student's
                strategies, or a finished match.
        """
        i = self._index(choice)
        if self.finished:
            raise ValueError(f"the match is over ({self.rounds} rounds): start a new one with reset()")
        j = int(self._rng.choice(len(self.mix), p=self.mix))
        payoff = float(self._mine[i, j])
        number = self.played + 1
        total = self.total + payoff
        rnd = MatchRound(number, self.strategies[i], self.opponent_strategies[j], payoff,
                         float(self._theirs[i, j]), total, total / number)
        self._history.append(rnd)
        self._changed()
        return rnd

    def play(self, choices: Iterable[str | int]) -> list[MatchRound]:
        """Play one round per choice, in order (as :meth:`choose` does each).

        Returns:
            The rounds played.

        Raises:
            ValueError: as :meth:`choose`; the rounds before the bad choice stay played.
        """
        return [self.choose(c) for c in choices]

    def reset(self) -> None:
        """Start a new match: no rounds, and the next match's draws (match
        ``k`` of a seed always draws the same way, and differently from match ``k - 1``)."""
        self.match += 1
        self._history.clear()
        self._rng = self._generator()
        self._changed()

    def averages(self) -> list[float]:
        """The running average after each round of the current match."""
        return [r.average for r in self._history]

    def _generator(self) -> np.random.Generator:
        return np.random.default_rng([self.seed, self.match])

    def _index(self, choice: Any) -> int:
        labels = self.strategies
        if isinstance(choice, str):
            if choice in labels:
                return labels.index(choice)
            raise ValueError(f"{shorten(choice, _ECHO)} is not a strategy of {shorten(self.you, 20)}: "
                             f"one of {shorten(', '.join(labels), 80)}")
        if not isinstance(choice, bool) and isinstance(choice, (int, np.integer)) and 0 <= choice < len(labels):
            return int(choice)
        raise ValueError(f"a choice is a label or an index from 0 to {len(labels) - 1}, "
                         f"not {shorten(choice, _ECHO)}")

    def _num(self, x: float) -> str:
        return _num(x, self._integral)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()

    # -- what the panel shows ---------------------------------------------------
    def value_name(self) -> str:
        """What :attr:`value` is: ``"game value"`` (zero-sum), ``"equilibrium
        payoff"`` (general-sum, the opponent playing its strategy of an
        equilibrium: the student's payoff in it) or ``"best-response payoff"``
        (general-sum, a chosen mix)."""
        if self.stage.zero_sum:
            return "game value"
        return "best-response payoff" if self.equilibrium is None else "equilibrium payoff"

    def describe(self) -> list[str]:
        """The panel's lines of text, as plain text: who plays what (in a
        general-sum game also which equilibrium and what the reference line
        is), the last round, and the running figures."""
        mix = ", ".join(f"{lab} {q:.1%}" for lab, q in zip(self.opponent_strategies, self.mix, strict=True) if q > 0)
        side = "rows" if self.player == 0 else "columns"
        lines = [f"You play {self.you} ({side}); {self.opponent} plays {self.mix_name}: {mix}"]
        if not self.stage.zero_sum:
            if self.equilibrium is not None:
                lines.append(f"Line: your payoff in that equilibrium, the most you can earn per round against "
                             f"{self.opponent}")
                if self._count:
                    lines.append(f"(the first of the {self._count} that equilibria() lists, pure ones first; "
                                 f"pass another as mix=)")
            else:
                lines.append("Line: your best-response payoff, the most you can earn per round against this mix")
        if self._history:
            r = self._history[-1]
            lines.append(f"Round {r.number}: you {r.choice}, {self.opponent} {r.reply}: you get {self._num(r.payoff)}")
        else:
            lines.append("Choose a strategy to play the first round.")
        played = f"{self.played}" if self.rounds is None else f"{self.played} of {self.rounds}"
        figures = "" if self.average is None else f"total {self._num(self.total)} · average {_three(self.average)} · "
        lines.append(f"Rounds {played} · {figures}{self.value_name()} {_three(self.value)}")
        if self.finished:
            lines.append("The match is over: start a new one.")
        return lines

    def plot_svg(self, width: int = 420, height: int = 150) -> str:
        """The running average per round (a line) against :attr:`value` (a
        dashed line), as an SVG: text and axes in ``currentColor`` (they take
        the page's text colour, so the plot reads on light and dark pages).

        The vertical axis spans the student's lowest to highest payoff in the
        matrix (and the value); at most ``PLOT_POINTS`` (300) points are drawn.
        """
        lo = float(min(self._mine.min(), self.value))
        hi = float(max(self._mine.max(), self.value))
        if hi - lo < 1e-12:
            lo, hi = lo - 1.0, hi + 1.0
        left, right, top, bottom = 56, 12, 12, 26
        pw, ph = width - left - right, height - top - bottom

        def y(v: float) -> float:
            return top + ph * (hi - v) / (hi - lo)

        avgs = self.averages()
        n = len(avgs)
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
               f'viewBox="0 0 {width} {height}" font-family="{FONT}" font-size="11" role="img">',
               f"<title>{html.escape(self.you)}'s running average payoff against the "
               f"{html.escape(self.value_name())}</title>",
               f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="currentColor" '
               f'stroke-opacity="0.35"/>']
        vy = y(self.value)
        for v in (hi, lo):
            if abs(y(v) - vy) >= 12:  # not over the value's label
                out.append(f'<text x="{left - 4}" y="{y(v) + 4:.1f}" text-anchor="end" fill="currentColor">'
                           f"{self._num(v)}</text>")
        out.append(f'<line x1="{left}" y1="{vy:.1f}" x2="{left + pw}" y2="{vy:.1f}" stroke="{VALUE}" '
                   f'stroke-width="1.5" stroke-dasharray="5 3"/>')
        out.append(f'<text x="{left - 4}" y="{vy + 4:.1f}" text-anchor="end" fill="{VALUE}">'
                   f"{_three(self.value)}</text>")
        span = max(n, 10)
        if n:
            picks = sorted({round(k * (n - 1) / (PLOT_POINTS - 1)) for k in range(PLOT_POINTS)}) if n > PLOT_POINTS \
                else list(range(n))
            pts = " ".join(f"{left + pw * (k + 1) / span:.1f},{y(avgs[k]):.1f}" for k in picks)
            out.append(f'<polyline points="{pts}" fill="none" stroke="{ACCENT}" stroke-width="2" '
                       f'stroke-linejoin="round"/>')
            last = picks[-1]
            out.append(f'<circle cx="{left + pw * (last + 1) / span:.1f}" cy="{y(avgs[last]):.1f}" r="3" '
                       f'fill="{ACCENT}"/>')
        out.append(f'<text x="{left}" y="{height - 8}" fill="currentColor">round 1</text>')
        out.append(f'<text x="{left + pw}" y="{height - 8}" text-anchor="end" fill="currentColor">'
                   f"{'round ' + str(span) if n else 'no rounds yet'}</text>")
        ly, lx = height - 12, left + 64
        out.append(f'<line x1="{lx}" y1="{ly}" x2="{lx + 18}" y2="{ly}" stroke="{ACCENT}" stroke-width="2"/>'
                   f'<text x="{lx + 22}" y="{ly + 4}" fill="currentColor">average</text>'
                   f'<line x1="{lx + 80}" y1="{ly}" x2="{lx + 98}" y2="{ly}" stroke="{VALUE}" stroke-width="1.5" '
                   f'stroke-dasharray="5 3"/>'
                   f'<text x="{lx + 102}" y="{ly + 4}" fill="currentColor">{html.escape(self.value_name())}</text>')
        out.append("</svg>")
        return "".join(out)

    def to_svg(self) -> str:
        """The panel as a static picture: its lines of text above the plot, dark
        on white (what a notebook read without a kernel shows)."""
        lines = [t[:100] for t in self.describe()]
        width = 640
        rows = [f'<text x="12" y="22" font-size="15" font-weight="bold">'
                f"{html.escape(self.stage.title[:80] or 'Matrix game')}</text>"]
        y = 44
        for line in lines:
            rows.append(f'<text x="12" y="{y}" font-size="13">{html.escape(line)}</text>')
            y += 20
        buttons = " ".join(f"[{lab}]" for lab in self.strategies)
        buttons = buttons if len(buttons) <= 90 else buttons[:89] + "…"
        rows.append(f'<text x="12" y="{y}" font-size="13" fill="#555555">Your choice: '
                    f"{html.escape(buttons)}</text>")
        plot = self.plot_svg(width - 24, 150)
        rows.append(f'<g transform="translate(12 {y + 10})">{plot}</g>')
        height = y + 10 + 150 + 10
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                f'viewBox="0 0 {width} {height}" font-family="{FONT}" fill="#111827" color="#111827" role="img">'
                f"<title>{html.escape(self.you)} against {html.escape(self.mix_name)}</title>"
                f'<rect width="{width}" height="{height}" fill="#fff"/>' + "".join(rows) + "</svg>")

    # -- the widget ---------------------------------------------------------------
    @property
    def panel(self) -> Any:
        """The notebook panel (an ``ipywidgets.VBox``, made once): the opponent's
        mix, one button per pure strategy of the student (``buttons``, in the
        order of :attr:`strategies`; a click plays a round), the last round and
        the running figures (``report``, an ``ipywidgets.HTML``), the plot
        (``plot``) and a *New match* button (``new_match``)."""
        if self._panel is None:
            self._panel = _panel_class()(self)
        return self._panel

    @property
    def buttons(self) -> list[Any]:
        """The panel's strategy buttons (``ipywidgets.Button``), in the order of :attr:`strategies`."""
        return self.panel.buttons  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        avg = "no rounds" if self.average is None else f"{self.played} rounds, average {_three(self.average)}"
        whose = self.mix_name.split(" ", 1)[1]
        return (f"MatrixMatch({self.you} against {self.opponent}'s {whose}: {avg}; "
                f"{self.value_name()} {_three(self.value)})")

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.panel._repr_mimebundle_(**kwargs)


def _which(eq: Equilibrium, listed: int) -> str:
    """``"equilibrium k of n"`` from an equilibrium's title (one of
    ``StageGame.equilibria()``), else ``"the equilibrium given"``."""
    tail = eq.title.rsplit(", ", 1)[-1] if eq.title else ""
    if tail.startswith("equilibrium ") and " of " in tail:
        return tail
    return f"equilibrium 1 of {listed}" if listed else "the equilibrium given"


def _num(x: float, integral: bool) -> str:
    """A payoff with its sign: as an integer in a game of integer payoffs, else with three decimals."""
    return f"{float(x) + 0.0:+.0f}" if integral else _three(x)


def _three(x: float) -> str:
    """A figure with its sign and three decimals (never ``-0.000``)."""
    out = f"{float(x):+.3f}"
    return "+0.000" if out == "-0.000" else out


@lru_cache(maxsize=1)
def _panel_class() -> type:
    """The panel of a :class:`MatrixMatch` (made here: ipywidgets is imported
    only when a panel is asked for)."""
    import ipywidgets

    class MatchPanel(ipywidgets.VBox):  # type: ignore[misc]
        """One button per pure strategy, the running figures, the plot and a
        *New match* button; it redraws whenever its match changes."""

        def __init__(self, match: MatrixMatch) -> None:
            self.match = match
            self.buttons = [ipywidgets.Button(description=lab[:24], tooltip=f"play {lab}",
                                              layout=ipywidgets.Layout(width="auto"))
                            for lab in match.strategies]
            for i, b in enumerate(self.buttons):
                b.on_click(lambda _b, i=i: self.match.choose(i))
            self.new_match = ipywidgets.Button(description="New match", icon="refresh",
                                               tooltip="start a new match (new draws)",
                                               layout=ipywidgets.Layout(width="auto"))
            self.new_match.on_click(lambda _b: self.match.reset())
            self.header = ipywidgets.HTML()
            self.report = ipywidgets.HTML()
            self.plot = ipywidgets.HTML()
            choice = ipywidgets.HBox([ipywidgets.HTML("Your choice:&nbsp;"), *self.buttons],
                                     layout=ipywidgets.Layout(flex_flow="row wrap", align_items="center"))
            super().__init__([self.header, choice, self.report, self.plot, self.new_match])
            match._listeners.append(self.refresh)
            self.refresh()

        def refresh(self) -> None:
            """Show the match as it is now (called on each change)."""
            head, *rest = self.match.describe()
            title = html.escape(self.match.stage.title or "Matrix game")
            self.header.value = f"<b>{title}</b><br>{html.escape(head)}"
            self.report.value = "<br>".join(html.escape(t) for t in rest)
            self.plot.value = self.match.plot_svg()
            for b in self.buttons:
                b.disabled = self.match.finished

        def __repr__(self) -> str:
            return repr(self.match)

        def _repr_mimebundle_(self, **kwargs: Any) -> Any:
            from ..core.draw import with_picture

            return with_picture(super()._repr_mimebundle_(**kwargs), self.match.to_svg(), repr(self.match))

    return MatchPanel
