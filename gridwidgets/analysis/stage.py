"""The simultaneous stage of a two-player game as an explicit game: its normal
form (the matrix of both players' payoffs) and its extensive form (the first
player chooses, then the second chooses in one information set holding every
choice of the first, so neither sees the other's choice), with Gambit's file
formats, best responses, every equilibrium, and how far a strategy or a
profile is from equilibrium.

Sources:

- the file formats are Gambit's, as its documentation describes them under
  "Game representation formats" (The Gambit Project, gambit-project.org):
  the strategic-form payoff version ``NFG 1 R`` and the extensive-form
  format ``EFG 2 R``. pygambit (``pygambit.read_nfg``,
  ``pygambit.read_efg``) reads both back, which the tests check payoff by
  payoff and label by label;
- **exploitability** of a strategy is defined for zero-sum games only: what
  it gives away against a best-responding opponent, measured from the game
  value. A general-sum game has no value, and an opponent's best response
  is not what the opponent would play in an equilibrium, so there the
  measures are those of a **profile** (one strategy per player): each
  player's **regret** (incentive to deviate: the best-response payoff
  minus the profile's payoff) and **NashConv**, the sum of the regrets,
  0 exactly at a Nash equilibrium (Lanctot et al. 2017, "A Unified
  Game-Theoretic Approach to Multiagent Reinforcement Learning", NeurIPS;
  the same sum as OpenSpiel's ``nash_conv``);
- every equilibrium (the extreme ones of a degenerate game) by nashpy's
  vertex enumeration: :func:`~gridwidgets.analysis.equilibrium.equilibria`
  says how, and in which order.

``stage_game(g)`` takes what :func:`~gridwidgets.analysis.equilibrium.equilibrium`
takes: a game at a two-player simultaneous node (valued by its game's
``stage_matrix`` analysis tool), a stage table, a 2D array (zero-sum) or a
pair of arrays.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import shorten
from ..core.game import Game
from .equilibrium import (
    Equilibrium,
    as_matrices,
    before_submissions,
    equilibria,
    equilibrium,
    is_degenerate,
    is_table,
)
from .gambit_text import gambit_ascii, gambit_label, gambit_number, gambit_quote

__all__ = ["StageGame", "stage_game"]

#: how far a strategy's probabilities may sum from 1
TOLERANCE = 1e-6
#: payoffs closer than this (times the payoffs' scale) to the best count as best
TIE = 1e-9
#: characters of a caller's input repeated in an error message
_ECHO = 30


@dataclass(frozen=True, eq=False)
class StageGame:
    """A finite two-player game in normal form (a bimatrix game).

    The payoffs are one array ``payoffs`` of shape ``(m, n, 2)`` rather than
    two matrices; :attr:`a` and :attr:`b` are its two layers. The instance is
    read-only: labels are stored as tuples and the payoff array is a
    read-only copy.

    Attributes:
        players: the two players' names (player 0 chooses a row, player 1 a column).
        rows: player 0's pure strategies, ``m`` distinct labels (e.g. moves in notation).
        cols: player 1's pure strategies, ``n`` distinct labels.
        payoffs: ``float`` array of shape ``(m, n, 2)``: ``payoffs[i, j, p]``
            is player ``p``'s payoff when player 0 plays row ``i`` and player 1
            column ``j`` (in the units of the source, e.g. a stage matrix's values).
        title: a caption.

    Raises:
        ValueError: for players that are not two strings, labels that are
            not distinct strings, or payoffs of another shape or holding NaN
            or infinite entries.
    """

    players: tuple[str, str]
    rows: tuple[str, ...]
    cols: tuple[str, ...]
    payoffs: np.ndarray
    title: str = ""

    def __post_init__(self) -> None:
        players = _names(self.players, "players", 2)
        rows = _names(self.rows, "rows")
        cols = _names(self.cols, "cols")
        try:
            pay = np.array(self.payoffs, dtype=float)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"payoffs must be numbers, not {shorten(self.payoffs, _ECHO)}") from None
        if pay.shape != (len(rows), len(cols), 2):
            raise ValueError(f"payoffs must have shape ({len(rows)}, {len(cols)}, 2), got {pay.shape}")
        if not np.all(np.isfinite(pay)):
            raise ValueError("payoffs hold NaN or infinite entries")
        pay.setflags(write=False)
        if not isinstance(self.title, str):
            raise ValueError(f"title must be a string, not {type(self.title).__name__}")
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "cols", cols)
        object.__setattr__(self, "payoffs", pay)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, StageGame):
            return NotImplemented
        same = (self.players, self.rows, self.cols, self.title) == (other.players, other.rows, other.cols, other.title)
        return same and bool(np.array_equal(self.payoffs, other.payoffs))

    __hash__ = None  # type: ignore[assignment]

    # -- shape ------------------------------------------------------------
    @property
    def a(self) -> np.ndarray:
        """Player 0's payoffs, shape ``(len(rows), len(cols))``."""
        return self.payoffs[:, :, 0]

    @property
    def b(self) -> np.ndarray:
        """Player 1's payoffs, shape ``(len(rows), len(cols))``."""
        return self.payoffs[:, :, 1]

    @property
    def shape(self) -> tuple[int, int]:
        """``(len(rows), len(cols))``."""
        return len(self.rows), len(self.cols)

    @property
    def zero_sum(self) -> bool:
        """True if ``b == -a`` (up to 1e-12)."""
        return bool(np.allclose(self.b, -self.a, rtol=0.0, atol=1e-12))

    def strategies(self, player: int) -> tuple[str, ...]:
        """The pure strategies of a player.

        Args:
            player: 0 (the rows) or 1 (the columns).

        Returns:
            :attr:`rows` for player 0, :attr:`cols` for player 1.

        Raises:
            ValueError: for a player other than 0 or 1.
        """
        return self.rows if _player(player) == 0 else self.cols

    # -- strategies -------------------------------------------------------
    def mixed(self, strategy: Any, player: int) -> np.ndarray:
        """A mixed strategy of ``player`` as a checked probability array.

        Args:
            strategy: a ``{label: probability}`` mapping (labels left out
                get 0), a sequence or 1D array of probabilities (one per pure
                strategy, in order), or one pure strategy's label (played for sure).
            player: whose strategy it is (0 or 1).

        Returns:
            A ``float`` array of ``len(strategies(player))`` probabilities, as
            given (not renormalised).

        Raises:
            ValueError: for an unknown label, a wrong length, an entry that
                is negative, NaN, infinite or not a number, or probabilities
                not summing to 1 within ``TOLERANCE`` (1e-6); the message
                repeats at most a few dozen characters of the input.
        """
        p = _player(player)
        labels = self.strategies(p)
        who = shorten(self.players[p], 20)
        if isinstance(strategy, str):
            if strategy not in labels:
                raise ValueError(f"{shorten(strategy, _ECHO)} is not a strategy of {who}")
            out = np.zeros(len(labels))
            out[labels.index(strategy)] = 1.0
            return out
        if isinstance(strategy, Mapping):
            if len(strategy) > len(labels):
                raise ValueError(f"{len(strategy)} entries for the {len(labels)} strategies of {who}")
            out = np.zeros(len(labels))
            for key, q in strategy.items():
                if not isinstance(key, str) or key not in labels:
                    raise ValueError(f"{shorten(key, _ECHO)} is not a strategy of {who}")
                out[labels.index(key)] = _prob(q)
        else:
            if not isinstance(strategy, (Sequence, np.ndarray)) or isinstance(strategy, (bytes, bytearray)):
                raise ValueError(f"a mixed strategy is a mapping, a sequence of probabilities or a label, "
                                 f"not {type(strategy).__name__[:_ECHO]}")
            if isinstance(strategy, np.ndarray) and strategy.ndim != 1:
                raise ValueError(f"a mixed strategy is a 1D array, not a {strategy.ndim}D one")
            if len(strategy) != len(labels):
                raise ValueError(f"{len(strategy)} probabilities for the {len(labels)} strategies of {who}")
            out = np.array([_prob(q) for q in strategy], dtype=float)
        total = float(out.sum())
        if not abs(total - 1.0) <= TOLERANCE:
            raise ValueError(f"the probabilities sum to {total:.6g}, not 1")
        return out

    def expected(self, x: Any, y: Any) -> tuple[float, float]:
        """Both players' expected payoffs when player 0 plays ``x`` and player 1 plays ``y``.

        Args:
            x: player 0's mixed strategy (as :meth:`mixed` reads it).
            y: player 1's mixed strategy.

        Returns:
            ``(x @ a @ y, x @ b @ y)``: player 0's and player 1's expected payoffs.

        Raises:
            ValueError: for a bad strategy (see :meth:`mixed`).
        """
        xa, ya = self.mixed(x, 0), self.mixed(y, 1)
        return float(xa @ self.a @ ya), float(xa @ self.b @ ya)

    def best_response(self, strategy: Any, player: int) -> tuple[list[str], float]:
        """``player``'s best pure replies to the other player's mixed strategy.

        Args:
            strategy: the mixed strategy of player ``1 - player`` (as
                :meth:`mixed` reads it).
            player: who replies (0 or 1).

        Returns:
            ``(labels, value)``: every pure strategy of ``player`` earning the
            most against ``strategy`` (ties within ``TIE`` times the payoffs'
            scale, in the order of :meth:`strategies`), and that expected payoff
            of ``player``.

        Raises:
            ValueError: for a player other than 0 or 1, or a bad strategy.
        """
        p = _player(player)
        other = self.mixed(strategy, 1 - p)
        gains = self.a @ other if p == 0 else other @ self.b
        best = float(gains.max())
        slack = TIE * max(1.0, float(np.abs(self.payoffs).max()))
        labels = self.strategies(p)
        return [labels[i] for i in range(len(labels)) if gains[i] >= best - slack], best

    # -- equilibria, value, exploitability, regrets ----------------------------
    def equilibrium(self, method: str = "auto") -> Equilibrium:
        """A Nash equilibrium of this game, by :func:`~gridwidgets.analysis.equilibrium.equilibrium`.

        In a zero-sum game it gives the value. A general-sum game may have
        several equilibria with different payoffs: :meth:`equilibria` lists
        them all, and for a nondegenerate game this one is the first of
        that list.

        Args:
            method: as for :func:`~gridwidgets.analysis.equilibrium.equilibrium`:
                ``"auto"`` (the minimax LP when zero-sum, nashpy's support
                enumeration otherwise: the first it finds, smallest supports
                first), ``"lp"``, ``"support_enumeration"``,
                ``"lemke_howson"`` or ``"vertex_enumeration"``.

        Returns:
            An :class:`~gridwidgets.analysis.equilibrium.Equilibrium` labelled
            with :attr:`rows` and :attr:`cols`, and with :attr:`players` as
            its ``row_label`` and ``col_label`` (a new object at each call).

        Raises:
            ValueError: for an unknown method, or ``"lp"`` for a game that is not zero-sum.
            RuntimeError: if the method finds no equilibrium.
        """
        pair = self.a if self.zero_sum else (self.a, self.b)
        return equilibrium(pair, method=method, rows=list(self.rows), cols=list(self.cols), players=self.players)

    def equilibria(self, method: str = "vertex_enumeration") -> list[Equilibrium]:
        """Every Nash equilibrium of this game, by
        :func:`~gridwidgets.analysis.equilibrium.equilibria` (nashpy's vertex
        enumeration by default).

        In a nondegenerate game (:meth:`is_degenerate` False) the list is
        every equilibrium. In a degenerate game it is every **extreme**
        equilibrium: the equilibria there can form continua (e.g. the entry
        game's (Out, Fight with any probability of at least 1/2)), whose
        end points the list holds.

        Args:
            method: ``"vertex_enumeration"`` or ``"support_enumeration"``
                (which can miss equilibria of a degenerate game).

        Returns:
            A list of :class:`~gridwidgets.analysis.equilibrium.Equilibrium`,
            labelled with the strategies and the players' names, pure
            equilibria first (the order is stated in
            :func:`~gridwidgets.analysis.equilibrium.equilibria`), each
            titled ``"<title>, equilibrium k of n"``.

        Raises:
            ValueError: for an unknown method.
        """
        pair = self.a if self.zero_sum else (self.a, self.b)
        found = equilibria(pair, method=method, rows=list(self.rows), cols=list(self.cols), players=self.players)
        if self.title:
            for eq in found:
                eq.title = f"{self.title}, {eq.title}"
        return found

    def is_degenerate(self) -> bool:
        """True if some mixed strategy with ``k`` pure strategies in its support
        has more than ``k`` pure best responses
        (:func:`~gridwidgets.analysis.equilibrium.is_degenerate`): then
        :meth:`equilibria` lists the extreme equilibria, not every one."""
        return is_degenerate((self.a, self.b))

    @cached_property
    def _solution(self) -> tuple[np.ndarray, np.ndarray, float]:
        """One equilibrium, solved once: ``(x, y, player 0's value)``."""
        eq = self.equilibrium()
        return eq.x_array, eq.o_array, eq.value

    @cached_property
    def _all_equilibria(self) -> list[Equilibrium]:
        """:meth:`equilibria`, solved once (for the panels)."""
        return self.equilibria()

    def value(self) -> float:
        """The game value for player 0 (zero-sum games only; the minimax LP).

        Returns:
            What player 0 can guarantee and player 1 can hold player 0 to
            (player 1's value is its negative).

        Raises:
            ValueError: for a game that is not zero-sum.
        """
        if not self.zero_sum:
            raise ValueError("only a zero-sum game has a value; this one is general-sum")
        return self._solution[2]

    def exploitability(self, strategy: Any, player: int) -> float:
        """What ``player``'s mixed strategy gives away to a best-responding
        opponent, in a zero-sum game.

        The game value (for ``player``) minus what ``strategy`` guarantees,
        i.e. its payoff against the opponent's best response:
        ``value - min(x @ a)`` for player 0, ``max(a @ y) - value`` for
        player 1. Always ``>= 0``, and 0 (up to the solver's round-off,
        ~1e-9) exactly for the equilibrium (minimax) strategies, by the
        minimax theorem.

        A general-sum game has no value to measure from, and what the
        opponent's best response takes is not what an equilibrium opponent
        would play: measure a **profile** there, with :meth:`regrets` or
        :meth:`nash_conv`.

        Args:
            strategy: ``player``'s mixed strategy (as :meth:`mixed` reads it).
            player: whose strategy it is (0 or 1).

        Returns:
            The exploitability, a ``float >= 0`` in payoff units.

        Raises:
            ValueError: for a general-sum game (use ``regrets(x, y)`` or
                ``nash_conv(x, y)``), a player other than 0 or 1, or a bad strategy.
        """
        p = _player(player)
        if not self.zero_sum:
            raise ValueError("exploitability is for zero-sum games (it is measured from the value); "
                             "this game is general-sum: use regrets(x, y) or nash_conv(x, y) of a profile")
        s = self.mixed(strategy, p)
        v = self.value()
        if p == 0:
            return max(0.0, v - float((s @ self.a).min()))
        return max(0.0, float((self.a @ s).max()) - v)

    def regrets(self, x: Any, y: Any) -> tuple[float, float]:
        """Each player's regret in the profile ``(x, y)``: their incentive to deviate.

        Player 0's regret is what a best response to ``y`` earns player 0
        minus what ``x`` earns against ``y``; player 1's likewise against
        ``x``. Both are 0 exactly when ``(x, y)`` is a Nash equilibrium (each
        strategy a best response to the other). It is the measure of a
        profile in any game, zero-sum or not (Lanctot et al. 2017 sum them
        into :meth:`nash_conv`).

        Args:
            x: player 0's mixed strategy (as :meth:`mixed` reads it).
            y: player 1's mixed strategy.

        Returns:
            ``(player 0's regret, player 1's regret)``, each a ``float >= 0``
            in payoff units.

        Raises:
            ValueError: for a bad strategy.
        """
        ux, uy = self.expected(x, y)
        _, bx = self.best_response(y, 0)
        _, by = self.best_response(x, 1)
        return max(0.0, bx - ux), max(0.0, by - uy)

    def nash_conv(self, x: Any, y: Any) -> float:
        """NashConv of the profile ``(x, y)`` (Lanctot et al. 2017): the sum of
        the two players' :meth:`regrets`.

        In a zero-sum game it is the sum of the two strategies'
        :meth:`exploitability` (the profile's payoff cancels out of the sum:
        ``max(a @ y) - min(x @ a)``).

        Args:
            x: player 0's mixed strategy (as :meth:`mixed` reads it).
            y: player 1's mixed strategy.

        Returns:
            A ``float >= 0`` in payoff units, 0 exactly at a Nash equilibrium.

        Raises:
            ValueError: for a bad strategy.
        """
        rx, ry = self.regrets(x, y)
        return rx + ry

    # -- Gambit files ---------------------------------------------------------
    def to_nfg(self) -> str:
        """The game as a Gambit strategic-form file, payoff version (``NFG 1 R``).

        The prologue holds the title, the player names and each player's
        strategy labels in braces, then an empty comment; the body lists the
        payoffs of every pure strategy profile, both players' for each, with
        player 0's strategy varying fastest (Gambit documentation, "Game
        representation formats"). Payoffs are written exactly: integers as
        integers, other floats as the shortest decimal that reads back the
        same float, never with an exponent.

        Labels are made valid for Gambit's reader (pygambit 16.7 reads only
        printable ASCII labels without leading, trailing or doubled spaces):
        ``"`` is escaped as ``\\"``; a backslash, for which Gambit has no
        escape, becomes ``/``; whitespace runs become one space; other
        characters become their ASCII letters (``é`` -> ``e``) or ``?``.

        Returns:
            The file's text.

        Raises:
            ValueError: if two strategies of one player have the same label
                once made valid for Gambit (e.g. ``"a b"`` and ``"a  b"``).
        """
        players, rows, cols = self._gambit_labels()
        lines = [f"NFG 1 R {gambit_quote(gambit_ascii(self.title))} {{ {players[0]} {players[1]} }}",
                 "",
                 "{ { " + " ".join(rows) + " }",
                 "{ " + " ".join(cols) + " }",
                 "}",
                 '""',
                 ""]
        pays = []
        for j in range(len(self.cols)):
            for i in range(len(self.rows)):
                pays.append(f"{gambit_number(self.a[i, j])} {gambit_number(self.b[i, j])}")
        lines.append(" ".join(pays))
        return "\n".join(lines) + "\n"

    def to_efg(self) -> str:
        """The game as a Gambit extensive-form file (``EFG 2 R``).

        Player 0 chooses at the root (a personal node, its one information
        set); below each of its choices, player 1 chooses at a personal node
        of **one** information set whose members are all of player 0's
        choices, so player 1 chooses without seeing player 0's choice: a
        simultaneous move. Each of the ``m * n`` terminal nodes has its own
        outcome holding both payoffs. Labels and numbers are written as in
        :meth:`to_nfg` (Gambit documentation, "Game representation formats").

        Returns:
            The file's text.

        Raises:
            ValueError: if two strategies of one player have the same label
                once made valid for Gambit.
        """
        players, rows, cols = self._gambit_labels()
        root = gambit_quote(gambit_label(f"{self.players[0]} chooses"))
        blind = gambit_quote(gambit_label(f"{self.players[1]} chooses, not seeing it"))
        row_list, col_list = " ".join(rows), " ".join(cols)
        lines = [f"EFG 2 R {gambit_quote(gambit_ascii(self.title))} {{ {players[0]} {players[1]} }}", '""', "",
                 f'p "" 1 1 {root} {{ {row_list} }} 0']
        outcome = 0
        for i, r in enumerate(self.rows):
            lines.append(f'p "" 2 1 {blind} {{ {col_list} }} 0')
            for j, c in enumerate(self.cols):
                outcome += 1
                name = gambit_quote(gambit_label(f"{r}, {c}"))
                pays = f"{gambit_number(self.a[i, j])}, {gambit_number(self.b[i, j])}"
                lines.append(f't "" {outcome} {name} {{ {pays} }}')
        return "\n".join(lines) + "\n"

    def save(self, path: str | Path) -> Path:
        """Write the game to a Gambit file, the format chosen by the suffix.

        Args:
            path: where to write: a name ending in ``.nfg`` (:meth:`to_nfg`)
                or ``.efg`` (:meth:`to_efg`), any case.

        Returns:
            The path written, as a ``Path``.

        Raises:
            ValueError: for another suffix, or labels Gambit cannot tell apart.
        """
        p = Path(path)
        suffix = p.suffix.lower()
        if suffix not in (".nfg", ".efg"):
            raise ValueError(f"a Gambit file ends in .nfg or .efg, not {shorten(p.suffix or p.name, 24)}")
        text = self.to_nfg() if suffix == ".nfg" else self.to_efg()
        p.write_text(text, encoding="ascii")
        return p

    def _gambit_labels(self) -> tuple[list[str], list[str], list[str]]:
        """The players' and both strategy lists' labels, quoted for a Gambit file."""
        out = []
        for what, labels in (("players", self.players), ("rows", self.rows), ("cols", self.cols)):
            seen: dict[str, str] = {}
            for lab in labels:
                g = gambit_label(lab)
                if g in seen:
                    raise ValueError(f"{what} {shorten(seen[g], 16)} and {shorten(lab, 16)} are one label "
                                     f"in a Gambit file")
                seen[g] = lab
            out.append([gambit_quote(g) for g in seen])
        return out[0], out[1], out[2]

    # -- displays ---------------------------------------------------------------
    def _repr_html_(self) -> str:
        """The matrix as an HTML table: a cell holds ``payoff of player 0, payoff of player 1``."""
        cell = "padding:2px 6px;border:1px solid #ccc"
        head = "".join(f'<th style="{cell}">{html.escape(c)}</th>' for c in self.cols)
        body = "".join(
            f'<tr><th style="{cell}">{html.escape(r)}</th>'
            + "".join(f'<td style="{cell};text-align:right">'
                      f'{gambit_number(self.a[i, j])}, {gambit_number(self.b[i, j])}</td>'
                      for j in range(len(self.cols)))
            + "</tr>"
            for i, r in enumerate(self.rows))
        cap = html.escape(self.title or "stage game")
        who = f"{html.escape(self.players[0])} (rows), {html.escape(self.players[1])} (columns)"
        return (f'<table class="gw-stage" style="border-collapse:collapse;font-size:12px">'
                f'<caption style="caption-side:top;text-align:left">{cap}: payoffs of {who}</caption>'
                f'<tr><th style="{cell}"></th>{head}</tr>{body}</table>')

    def __repr__(self) -> str:
        """``StageGame('title': 3x10, zero-sum)``: a title of up to 120
        characters whole, a longer one cut at the last word boundary before
        that, with an ellipsis (never in the middle of a word)."""
        limit = 120
        title = self.title
        if len(title) > limit:
            head = title[:limit]
            if not title[limit].isspace() and " " in head.strip():
                head = head.rstrip().rsplit(" ", 1)[0]  # the cut word goes whole
            title = head.rstrip(" ,;:-") + "…"
        kind = "zero-sum" if self.zero_sum else "general-sum"
        return f"StageGame({title!r}: {len(self.rows)}x{len(self.cols)}, {kind})"

    def explore(self, player: int = 0, against: Any = None) -> Any:
        """A notebook panel to propose a mixed strategy of ``player`` and see what it gives away.

        One ``FloatSlider`` per pure strategy of ``player`` gives its weight
        (0 to 1, all 1 at the start: the uniform strategy); the weights are
        normalised to a distribution, as a line above the sliders says. An
        HTML report shows, live, the probabilities (the first line) and the
        opponent's best responses (and what they earn the opponent), then:

        - **zero-sum game**: ``player``'s expected payoff against that best
          response, the game value and the :meth:`exploitability` (the value
          minus what the strategy guarantees). The *Equilibrium* button sets
          the sliders to ``player``'s minimax strategy.
        - **general-sum game**: no exploitability (there is no value, and the
          opponent's best response is not what an equilibrium opponent
          plays). The report measures **profiles** instead: the strategy
          with each of the opponent's equilibrium strategies (from
          :meth:`equilibria`, pure equilibria first; one line per distinct
          strategy), or with ``against`` if given, and for each profile both
          players' payoffs, their :meth:`regrets` and the :meth:`nash_conv`.
          A line whose NashConv is 0 says the slider strategy and that
          strategy of the opponent form a Nash equilibrium; the others say
          how much each player would gain by deviating alone. The
          *Equilibrium* button sets the sliders to ``player``'s strategy in
          equilibrium 1, 2, ... of :meth:`equilibria` in turn, its label
          saying which comes next.

        Works without a browser: set the sliders' ``value`` and read
        ``report.value``.

        Args:
            player: whose strategy the sliders set (0 or 1).
            against: general-sum games only: the opponent's mixed strategy
                (as :meth:`mixed` reads it) to measure the profile with,
                instead of each of its equilibrium strategies.

        Returns:
            An ``ipywidgets.VBox`` with attributes ``sliders`` (the
            ``FloatSlider`` list, in the order of :meth:`strategies`, each
            named by its strategy, shortened at a word boundary past 16
            characters, with the whole name as its tooltip), ``report``
            (the ``ipywidgets.HTML``), ``button``, ``labels`` (the
            strategies) and ``heading`` (the ``ipywidgets.HTML`` above the
            sliders, saying they are weights).

        Raises:
            ValueError: for a player other than 0 or 1, ``against`` given
                for a zero-sum game, or a bad ``against`` strategy.
        """
        import ipywidgets

        p = _player(player)
        labels = self.strategies(p)
        me, other = html.escape(self.players[p]), html.escape(self.players[1 - p])
        mine = self.a if p == 0 else self.b.T  # rows: my strategies, columns: the opponent's
        if against is not None and self.zero_sum:
            raise ValueError("against is for general-sum games; a zero-sum strategy is measured from the value")
        profiles = [] if self.zero_sum else self._opponents(p, against)

        def name(label: str, limit: int = 16) -> str:
            if len(label) <= limit:
                return label
            head = label[: limit - 1]
            if not label[limit - 1].isspace() and " " in head.strip():
                head = head.rstrip().rsplit(" ", 1)[0]
            return head.rstrip() + "…"

        sliders = [ipywidgets.FloatSlider(value=1.0, min=0.0, max=1.0, step=0.01, description=name(lab),
                                          tooltip=lab, continuous_update=False) for lab in labels]
        heading = ipywidgets.HTML(
            f"<b>{me}'s weights</b> (not probabilities), one slider per strategy: {me} plays each strategy "
            f"with its weight divided by the sum of the weights, so equal weights (1.00 each at the start) "
            f"are the uniform strategy. The line <i>{me} plays …</i> under the button gives the probabilities.")
        report = ipywidgets.HTML()
        listed = [] if self.zero_sum else self._all_equilibria
        if self.zero_sum:
            button = ipywidgets.Button(description="Equilibrium", tooltip="set the sliders to an equilibrium strategy")
        else:
            button = ipywidgets.Button(description=f"Equilibrium 1 of {len(listed)}",
                                       tooltip=f"set the sliders to {self.players[p]}'s strategy in this "
                                               f"equilibrium of equilibria(), then the next")
        busy = [False]
        turn = [0]

        def update(*_: Any) -> None:
            if busy[0]:
                return
            w = np.array([s.value for s in sliders], dtype=float)
            if not w.sum() > 0:
                report.value = "<p>Give some strategy a positive weight.</p>"
                return
            s = w / w.sum()
            shown = ", ".join(f"{html.escape(lab)} {q:.1%}" for lab, q in zip(labels, s, strict=True) if q > 0)
            replies, gain = self.best_response(s, 1 - p)
            lines = [f"<b>{me} plays</b> {shown}",
                     f"<b>{other}'s best response</b>: {html.escape(', '.join(replies))} (earning {gain:+.3f})"]
            if self.zero_sum:
                others = self.strategies(1 - p)
                mine_vs = [float(s @ mine[:, others.index(r)]) for r in replies]
                lo, hi = min(mine_vs), max(mine_vs)
                payoff = f"{lo:+.3f}" if hi - lo <= 1e-9 else f"{lo:+.3f} to {hi:+.3f} (as it breaks the tie)"
                sign = 1.0 if p == 0 else -1.0
                lines += [f"<b>{me}'s expected payoff</b> against it: {payoff}",
                          f"<b>game value</b> for {me}: {sign * self.value():+.3f}",
                          f"<b>exploitability</b> {self.exploitability(s, p):.3f}"]
            else:
                lines += self._profile_lines(s, p, profiles, against is not None)
            report.value = "<br>".join(lines)

        def to_equilibrium(_b: Any) -> None:
            if self.zero_sum:
                target = self._solution[p]
            else:
                eq = listed[turn[0] % len(listed)]
                target = eq.x_array if p == 0 else eq.o_array
                turn[0] += 1
                button.description = f"Equilibrium {turn[0] % len(listed) + 1} of {len(listed)}"
            busy[0] = True
            try:
                for sl, q in zip(sliders, target, strict=True):
                    sl.value = float(q)
            finally:
                busy[0] = False
            update()

        for sl in sliders:
            sl.observe(update, names="value")
        button.on_click(to_equilibrium)
        update()
        box = _explorer_class()([heading, *sliders, button, report])
        box.heading = heading
        box.sliders = sliders
        box.report = report
        box.button = button
        box.labels = labels
        box.title = f"{self.players[p]}'s mixed strategy"
        return box

    def _opponents(self, p: int, against: Any) -> list[tuple[np.ndarray, str]]:
        """The opponent strategies :meth:`explore` measures ``player``'s mix
        with in a general-sum game: ``against``, or the opponent's strategy in
        each listed equilibrium (one entry per distinct strategy, named by the
        equilibria it comes from)."""
        if against is not None:
            return [(self.mixed(against, 1 - p), "the given strategy")]
        out: list[tuple[np.ndarray, list[int]]] = []
        for k, eq in enumerate(self._all_equilibria, 1):
            t = eq.o_array if p == 0 else eq.x_array
            for seen, where in out:
                if np.allclose(seen, t, rtol=0.0, atol=1e-9):
                    where.append(k)
                    break
            else:
                out.append((t, [k]))
        return [(t, ("equilibrium " if len(ks) == 1 else "equilibria ") + ", ".join(map(str, ks))) for t, ks in out]

    def _profile_lines(self, s: np.ndarray, p: int, profiles: list[tuple[np.ndarray, str]],
                       given: bool) -> list[str]:
        """The general-sum report of :meth:`explore`: the regrets and NashConv
        of ``player``'s mix ``s`` with each opponent strategy of ``profiles``."""
        other = html.escape(self.players[1 - p])
        labels = self.strategies(1 - p)
        first, second = html.escape(self.players[0]), html.escape(self.players[1])
        if given:
            why = [f"{other}'s strategy assumed: the one given (against=);",
                   "NashConv (the sum of the regrets) 0: the profile is a Nash equilibrium"]
        else:
            why = [f"{other}'s strategy assumed: {other}'s in each of the {len(self._all_equilibria)} equilibria of "
                   f"equilibria() (pure first),",
                   f"what {other} plays in equilibrium; NashConv (the sum of the regrets) 0: an equilibrium"]
        lines = ["<b>no exploitability</b> in a general-sum game (no value): <b>regrets</b> of a profile instead",
                 *why]
        for t, origin in profiles:
            x, y = (s, t) if p == 0 else (t, s)
            u0, u1 = self.expected(x, y)
            r0, r1 = self.regrets(x, y)
            mix = ", ".join(f"{html.escape(lab)} {q:.0%}" for lab, q in zip(labels, t, strict=True) if q > 1e-9)
            lines.append(f"with {other} {mix} ({origin}): payoffs {first} {u0:+.3f}, {second} {u1:+.3f}")
            lines.append(f"&nbsp;&nbsp;regrets {first} {r0:.3f}, {second} {r1:.3f}; <b>NashConv</b> {r0 + r1:.3f}")
        return lines

    def play_against(self, mix: Any = "equilibrium", player: int = 0, seed: int = 0,
                     rounds: int | None = None) -> Any:
        """A match against a mixed strategy: the student plays ``player``'s side, round after round.

        Each round the student chooses one of their pure strategies (a button
        per strategy in a notebook, or ``choose(label)``); the opponent's
        choice is drawn from ``mix`` (seeded); the panel shows the last round,
        the rounds played, the running total and average payoff, the game
        value for the student (general-sum, which has no value: the student's
        best-response payoff against ``mix``, which is the student's payoff
        in the equilibrium when ``mix`` is an equilibrium strategy) and a
        plot of the running average against it.

        Args:
            mix: the opponent's mixed strategy: ``"equilibrium"`` (zero-sum:
                its minimax strategy; general-sum: its strategy in the first
                equilibrium :meth:`equilibria` lists, pure ones first, as the
                panel says), one of :meth:`equilibria` (its strategy in that
                one), probabilities in the order of :meth:`strategies`, a
                ``{label: probability}`` mapping, or a label.
            player: the student's side, 0 (rows) or 1 (columns).
            seed: seeds the opponent's draws (an ``int >= 0``).
            rounds: the match's length (``None``: no limit).

        Returns:
            A :class:`~gridwidgets.analysis.versus.MatrixMatch` (shown in a
            notebook as its panel).

        Raises:
            ValueError: for a bad player, mix, seed or number of rounds (see
                :class:`~gridwidgets.analysis.versus.MatrixMatch`).
        """
        from .versus import MatrixMatch

        return MatrixMatch(self, mix, player=player, seed=seed, rounds=rounds)


def stage_game(
    game_or_matrix: Any,
    *,
    players: Sequence[str] | None = None,
    rows: Sequence[Any] | None = None,
    cols: Sequence[Any] | None = None,
    title: str = "",
    **stage_options: Any,
) -> StageGame:
    """The simultaneous stage of a two-player game, or a matrix game, as a :class:`StageGame`.

    Args:
        game_or_matrix: one of

            - a two-player game at a simultaneous node whose game offers a
              ``stage_matrix`` analysis tool: the node before any submission
              is used (a submission already in changes nothing until all are
              in), its stage matrix holds player 0's values and the game is
              zero-sum (player 1 gets their negative);
            - a numeric stage table (``rows``, ``cols``, ``values``): zero-sum likewise;
            - a 2D array ``A`` of player 0's payoffs: zero-sum (player 1 gets ``-A``);
            - a pair ``(A, B)`` of 2D arrays of one shape, or a ``nashpy.Game``.
        players: the two players' names (default: the game's, else ``("row", "column")``).
        rows: labels of player 0's pure strategies (default: the table's rows,
            else ``"0"`` .. ``"m-1"``); turned into strings.
        cols: labels of player 1's pure strategies (default: the table's
            columns, else ``"0"`` .. ``"n-1"``).
        title: a caption (default: the table's title).
        **stage_options: for a game only: the options of its ``stage_matrix``
            (e.g. how many rollouts and which seed).

    Returns:
        The :class:`StageGame`.

    Raises:
        TypeError: for a game without a two-player ``stage_matrix`` tool, or
            stage options given with a table or a matrix.
        ValueError: for a game not at a simultaneous node, a table of
            outcomes rather than numbers, a malformed matrix, or labels of
            the wrong number or not distinct.
    """
    names: tuple[str, str] = ("row", "column")
    table: Any = None
    if isinstance(game_or_matrix, Game):
        g = game_or_matrix
        node = before_submissions(g)
        if len(g.players) != 2 or type(g).stage_matrix is Game.stage_matrix:
            raise TypeError(f"{type(g).__name__[:_ECHO]} has no two-player stage_matrix")
        if not node.is_simultaneous_node():
            raise ValueError("the game is not at a simultaneous node (both players choosing at once)")
        table = node.stage_matrix(**stage_options)
        names = (str(g.players[0]), str(g.players[1]))
    elif stage_options:
        keys = ", ".join(sorted(stage_options))
        raise TypeError(f"{shorten(keys, _ECHO)}: stage-matrix options are for a game, not a table or matrix")
    elif is_table(game_or_matrix):
        table = game_or_matrix
    if table is not None:
        if not table.numeric:
            raise ValueError("this table holds outcomes, not numbers: a stage game needs payoffs")
        a, extra = as_matrices(table.values)
        if extra is not None:
            raise ValueError("a stage table's values must be one 2D array (player 0's values)")
        b = -a
        rows = list(table.rows) if rows is None else rows
        cols = list(table.cols) if cols is None else cols
        title = title or str(getattr(table, "title", "") or "")
    else:
        a, maybe_b = as_matrices(game_or_matrix)
        b = -a if maybe_b is None else maybe_b
    m, n = a.shape
    row_labels = [str(i) for i in range(m)] if rows is None else [str(r) for r in _listed(rows, "rows")]
    col_labels = [str(j) for j in range(n)] if cols is None else [str(c) for c in _listed(cols, "cols")]
    if len(row_labels) != m or len(col_labels) != n:
        raise ValueError(f"{len(row_labels)} row and {len(col_labels)} column labels for a {m}x{n} matrix")
    if players is not None:
        names = _names(players, "players", 2)  # type: ignore[assignment]
    return StageGame(names, tuple(row_labels), tuple(col_labels), np.stack([a, b], axis=-1), title)


# ----------------------------------------------------------------------
# Checks and Gambit text
# ----------------------------------------------------------------------
def _listed(labels: Any, what: str) -> list[Any]:
    if isinstance(labels, (str, bytes)) or not isinstance(labels, (Sequence, np.ndarray)):
        raise ValueError(f"{what} must be a sequence of labels, not {type(labels).__name__[:_ECHO]}")
    return list(labels)


def _names(labels: Any, what: str, count: int | None = None) -> tuple[str, ...]:
    """``labels`` as a tuple of distinct strings (exactly ``count`` of them if given)."""
    out = tuple(_listed(labels, what))
    if count is not None and len(out) != count:
        raise ValueError(f"{what} must be {count} names, got {len(out)}")
    if not out:
        raise ValueError(f"{what} must hold at least one label")
    for lab in out:
        if not isinstance(lab, str):
            raise ValueError(f"{what}: {shorten(lab, _ECHO)} is not a string")
    seen: set[str] = set()
    for lab in out:
        if lab in seen:
            raise ValueError(f"{what}: {shorten(lab, _ECHO)} appears twice")
        seen.add(lab)
    return out


def _player(player: Any) -> int:
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {shorten(player, _ECHO)}")
    return int(player)


def _prob(p: Any) -> float:
    if isinstance(p, (str, bytes)):
        raise ValueError(f"{shorten(p, _ECHO)} is not a probability (a number)")
    try:
        q = float(p)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{shorten(p, _ECHO)} is not a probability (a number)") from None
    if not np.isfinite(q) or q < 0:
        raise ValueError(f"{shorten(p, _ECHO)} is not a probability (negative or not finite)")
    return q


@lru_cache(maxsize=1)
def _explorer_class() -> type:
    """The panel :meth:`StageGame.explore` returns: an ``ipywidgets.VBox`` that
    carries a static picture of what it shows (made here: ipywidgets is
    imported only when a panel is asked for)."""
    import ipywidgets

    class StrategyExplorer(ipywidgets.VBox):  # type: ignore[misc]
        """The sliders of a mixed strategy and the report on it; beside the live
        panel, a picture: the strategy as bars and the report's lines."""

        sliders: list[Any]
        report: Any
        button: Any
        labels: list[str]
        title: str

        def strategy(self) -> np.ndarray:
            """The sliders' weights normalised to a distribution (all zero: zeros)."""
            w = np.array([sl.value for sl in self.sliders], dtype=float)
            return w / w.sum() if w.sum() > 0 else w

        def to_svg(self) -> str:
            """The strategy as bars, one per pure strategy (its probability),
            and the report's lines below: what the panel shows, as SVG."""
            font = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"
            probs = self.strategy()
            text = re.sub(r"<br\s*/?>", "\n", self.report.value)
            lines = [html.unescape(re.sub(r"<[^>]*>", "", t)).strip() for t in text.split("\n")]
            lines = [t[:110] for t in lines if t]
            # 640 wide, wider for long lines (about 7.2 px a character at 13 px)
            width = max([640] + [24 + round(7.2 * len(t)) for t in lines])
            bar_x, bar_w, row = 150, 380, 26
            rows = [f'<text x="12" y="22" font-size="15" font-weight="bold">{html.escape(self.title)}</text>']
            y = 40
            for label, q in zip(self.labels, probs, strict=True):
                rows.append(f'<text x="12" y="{y + 15}" font-size="13">{html.escape(label[:18])}</text>'
                            f'<rect x="{bar_x}" y="{y + 3}" width="{bar_w}" height="16" fill="#e5e7eb"/>'
                            f'<rect x="{bar_x}" y="{y + 3}" width="{bar_w * float(q):.1f}" height="16" fill="#2563eb"/>'
                            f'<text x="{bar_x + bar_w + 8}" y="{y + 15}" font-size="13">{float(q):.1%}</text>')
                y += row
            y += 8
            for line in lines:
                rows.append(f'<text x="12" y="{y + 14}" font-size="13">{html.escape(line)}</text>')
                y += 20
            height = y + 10
            return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                    f'viewBox="0 0 {width} {height}" font-family="{font}" fill="#111827" role="img">'
                    f'<title>{html.escape(self.title)}</title><rect width="{width}" height="{height}" fill="#fff"/>'
                    + "".join(rows) + "</svg>")

        def __repr__(self) -> str:
            shown = ", ".join(f"{lab} {q:.0%}" for lab, q in zip(self.labels, self.strategy(), strict=True))
            return f"StrategyExplorer({self.title}: {shown})"

        def _repr_mimebundle_(self, **kwargs: Any) -> Any:
            from ..core.draw import with_picture

            return with_picture(super()._repr_mimebundle_(**kwargs), self.to_svg(), repr(self))

    return StrategyExplorer
