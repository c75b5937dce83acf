"""The simultaneous stage of a two-player game as an explicit game: its normal
form (the matrix of both players' payoffs) and its extensive form (the first
player chooses, then the second chooses in one information set holding every
choice of the first, so neither sees the other's choice), with Gambit's file
formats, best responses and exploitability.

Sources:

- the file formats are Gambit's "Game representation formats" (the
  Gambit documentation, gambit-project.org): the strategic-form payoff
  format ``NFG 1 R`` and the extensive-form format ``EFG 2 R``; pygambit
  (``pygambit.read_nfg``, ``pygambit.read_efg``) reads both back, which
  the tests check payoff by payoff;
- exploitability of a strategy in a zero-sum game is what a best-responding
  opponent wins against it beyond the game value; NashConv (the sum over
  players of what a best response gains against a profile) as in Lanctot
  et al. 2017, "A Unified Game-Theoretic Approach to Multiagent
  Reinforcement Learning", NeurIPS.

``stage_game(g)`` takes what :func:`~gridwidgets.analysis.equilibrium`
takes: a game at a two-player simultaneous node (through its
``stage_matrix`` analysis tool), a stage table, a 2D array (zero-sum) or a
pair of arrays.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import shorten
from ..core.game import Game
from .equilibrium import Equilibrium, _as_matrices, _before_submissions, _import, _is_table, equilibrium

__all__ = ["StageGame", "stage_game"]

#: how far a strategy's probabilities may sum from 1
TOLERANCE = 1e-6


@dataclass(frozen=True)
class StageGame:
    """A finite two-player game in normal form.

    Attributes:
        players: the two players' names (player 0 chooses a row, player 1 a column).
        rows: player 0's pure strategies (labels, e.g. moves in notation).
        cols: player 1's pure strategies.
        payoffs: ``float`` array of shape ``(len(rows), len(cols), 2)``:
            ``payoffs[i, j, p]`` is player ``p``'s payoff when player 0 plays
            row ``i`` and player 1 column ``j``.
        title: a caption.
    """

    players: tuple[str, str]
    rows: tuple[str, ...]
    cols: tuple[str, ...]
    payoffs: np.ndarray
    title: str = ""

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
    def zero_sum(self) -> bool:
        """True if ``b == -a`` (exactly, up to 1e-12)."""
        return bool(np.allclose(self.b, -self.a, rtol=0.0, atol=1e-12))

    def strategies(self, player: int) -> tuple[str, ...]:
        """The pure strategies of ``player`` (0: :attr:`rows`, 1: :attr:`cols`)."""
        return self.rows if _player(player) == 0 else self.cols

    # -- strategies -------------------------------------------------------
    def mixed(self, strategy: Any, player: int) -> np.ndarray:
        """``strategy`` of ``player`` as a probability array (one entry per
        pure strategy), checked.

        Args:
            strategy: a ``{label: probability}`` mapping (missing labels are
                0), a sequence of probabilities, or one pure strategy's label.
            player: whose strategy it is (0 or 1).

        Raises:
            ValueError: an unknown label, a wrong length, a negative or
                non-finite entry, or entries not summing to 1 (within
                ``TOLERANCE``).
        """
        labels = self.strategies(player)
        if isinstance(strategy, str):
            if strategy not in labels:
                raise ValueError(f"{shorten(strategy)} is not a strategy of {self.players[player]}")
            out = np.zeros(len(labels))
            out[labels.index(strategy)] = 1.0
            return out
        if isinstance(strategy, Mapping):
            if len(strategy) > len(labels):
                raise ValueError(f"{len(strategy)} entries for {len(labels)} strategies of {self.players[player]}")
            out = np.zeros(len(labels))
            for key, p in strategy.items():
                if key not in labels:
                    raise ValueError(f"{shorten(key)} is not a strategy of {self.players[player]}")
                out[labels.index(key)] = _prob(p)
        else:
            if isinstance(strategy, (bytes, bytearray)) or not isinstance(strategy, (Sequence, np.ndarray)):
                raise ValueError(f"a mixed strategy is a mapping or a sequence of probabilities, "
                                 f"not {type(strategy).__name__}")
            if len(strategy) != len(labels):
                raise ValueError(f"{len(strategy)} probabilities for {len(labels)} strategies "
                                 f"of {self.players[player]}")
            out = np.array([_prob(p) for p in strategy], dtype=float)
        if abs(out.sum() - 1.0) > TOLERANCE:
            raise ValueError(f"the probabilities sum to {out.sum():.6g}, not 1")
        return out

    def expected(self, x: Any, y: Any) -> tuple[float, float]:
        """Both players' expected payoffs when player 0 plays ``x`` and player 1 ``y``
        (mixed strategies as :meth:`mixed` reads them)."""
        xa, ya = self.mixed(x, 0), self.mixed(y, 1)
        return float(xa @ self.a @ ya), float(xa @ self.b @ ya)

    def best_response(self, strategy: Any, player: int) -> tuple[list[str], float]:
        """``player``'s best pure replies to the other player's ``strategy``.

        Args:
            strategy: the other player's mixed strategy (as :meth:`mixed` reads it).
            player: who replies (0 or 1).

        Returns:
            ``(labels, value)``: every pure strategy of ``player`` earning the
            most against ``strategy`` (ties within 1e-9, in order), and that payoff.
        """
        p = _player(player)
        other = self.mixed(strategy, 1 - p)
        gains = self.a @ other if p == 0 else other @ self.b
        best = float(gains.max())
        labels = self.strategies(p)
        return [labels[i] for i in range(len(labels)) if gains[i] >= best - 1e-9], best

    def value(self) -> float:
        """The game value for player 0 (zero-sum games only; the minimax LP).

        Raises:
            ValueError: for a game that is not zero-sum.
        """
        if not self.zero_sum:
            raise ValueError("a game value exists for zero-sum games only; use nash_conv for this one")
        return float(self.equilibrium().value)

    def exploitability(self, strategy: Any, player: int) -> float:
        """What ``player``'s ``strategy`` gives away in a zero-sum game: the game
        value (for ``player``) minus what it guarantees against a best response.
        ``>= 0``; 0 (up to 1e-9) exactly for an equilibrium strategy.

        Raises:
            ValueError: for a bad strategy, or a game that is not zero-sum
                (use :meth:`nash_conv` there).
        """
        p = _player(player)
        s = self.mixed(strategy, p)
        v = self.value()
        if p == 0:
            guaranteed = float((s @ self.a).min())
            return max(0.0, v - guaranteed)
        held = float((self.a @ s).max())  # player 0's best reply
        return max(0.0, held - v)

    def nash_conv(self, x: Any, y: Any) -> float:
        """NashConv of the profile ``(x, y)`` (Lanctot et al. 2017): the sum over
        both players of what a best response gains over the profile; ``>= 0``,
        0 exactly at a Nash equilibrium. In a zero-sum game it is the sum of
        both strategies' exploitabilities."""
        ux, uy = self.expected(x, y)
        _, bx = self.best_response(y, 0)
        _, by = self.best_response(x, 1)
        return max(0.0, bx - ux) + max(0.0, by - uy)

    def equilibrium(self) -> Equilibrium:
        """A Nash equilibrium (:func:`~gridwidgets.analysis.equilibrium`) of this game."""
        pair = self.a if self.zero_sum else (self.a, self.b)
        return equilibrium(pair, rows=list(self.rows), cols=list(self.cols))

    # -- Gambit files ---------------------------------------------------------
    def to_nfg(self) -> str:
        """The game as a Gambit strategic-form file (``NFG 1 R``, the payoff
        version): players, strategies, then every profile's payoffs with
        player 0's strategy varying fastest."""
        lines = [f"NFG 1 R {_q(self.title)} {{ {_q(self.players[0])} {_q(self.players[1])} }}",
                 "",
                 "{ { " + " ".join(_q(r) for r in self.rows) + " }",
                 "{ " + " ".join(_q(c) for c in self.cols) + " }",
                 "}",
                 '""',
                 ""]
        pays = []
        for j in range(len(self.cols)):
            for i in range(len(self.rows)):
                pays.append(f"{_num(self.a[i, j])} {_num(self.b[i, j])}")
        lines.append(" ".join(pays))
        return "\n".join(lines) + "\n"

    def to_efg(self) -> str:
        """The game as a Gambit extensive-form file (``EFG 2 R``): player 0
        chooses at the root; player 1 then chooses in **one** information set
        whose members are all of player 0's choices (player 1 does not see
        it: a simultaneous move); a terminal node per pair, with an outcome
        holding both payoffs."""
        lines = [f"EFG 2 R {_q(self.title)} {{ {_q(self.players[0])} {_q(self.players[1])} }}", '""', ""]
        rows = " ".join(_q(r) for r in self.rows)
        cols = " ".join(_q(c) for c in self.cols)
        lines.append(f'p "" 1 1 {_q(self.players[0] + " chooses")} {{ {rows} }} 0')
        outcome = 0
        for i, r in enumerate(self.rows):
            lines.append(f'p "" 2 1 {_q(self.players[1] + " chooses, not seeing it")} {{ {cols} }} 0')
            for j, c in enumerate(self.cols):
                outcome += 1
                lines.append(f't "" {outcome} {_q(f"{r}, {c}")} {{ {_num(self.a[i, j])}, {_num(self.b[i, j])} }}')
        return "\n".join(lines) + "\n"

    def save(self, path: str | Path) -> Path:
        """Write the game to ``path``: ``.nfg`` (:meth:`to_nfg`) or ``.efg`` (:meth:`to_efg`).

        Raises:
            ValueError: for another suffix.
        """
        p = Path(path)
        suffix = p.suffix.lower()
        if suffix not in (".nfg", ".efg"):
            raise ValueError(f"a Gambit file ends in .nfg or .efg, not {shorten(p.suffix or p.name, 24)}")
        p.write_text(self.to_nfg() if suffix == ".nfg" else self.to_efg(), encoding="utf-8")
        return p

    # -- displays ---------------------------------------------------------------
    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(c)}</th>" for c in self.cols)
        body = "".join(
            f"<tr><th>{html.escape(r)}</th>"
            + "".join(f"<td>{_num(self.a[i, j])}, {_num(self.b[i, j])}</td>" for j in range(len(self.cols)))
            + "</tr>"
            for i, r in enumerate(self.rows))
        cap = html.escape(self.title or "stage game")
        who = f"{html.escape(self.players[0])} (rows), {html.escape(self.players[1])} (columns)"
        return (f"<table><caption>{cap}: payoffs of {who}</caption><tr><th></th>{head}</tr>{body}</table>")

    def __repr__(self) -> str:
        kind = "zero-sum" if self.zero_sum else "general-sum"
        return f"StageGame({self.title[:60]!r}: {len(self.rows)}x{len(self.cols)}, {kind})"

    def explore(self, player: int = 0) -> Any:
        """An ``ipywidgets.VBox`` to propose a mixed strategy of ``player``: one
        slider per pure strategy (the weights are normalised to a
        distribution), and, live, the strategy, what it guarantees, its
        exploitability (zero-sum) and the opponent's best response; an
        *Equilibrium* button sets the sliders to an equilibrium strategy.
        Its ``sliders`` and ``report`` attributes are the widgets."""
        import ipywidgets

        p = _player(player)
        labels = self.strategies(p)
        sliders = [ipywidgets.FloatSlider(value=1.0, min=0.0, max=1.0, step=0.01, description=lab[:16],
                                          continuous_update=False) for lab in labels]
        report = ipywidgets.HTML()
        button = ipywidgets.Button(description="Equilibrium", tooltip="set the sliders to an equilibrium strategy")

        def update(*_: Any) -> None:
            w = np.array([s.value for s in sliders], dtype=float)
            if w.sum() <= 0:
                report.value = "<p>Give some strategy a positive weight.</p>"
                return
            s = w / w.sum()
            shown = ", ".join(f"{html.escape(lab)} {q:.0%}" for lab, q in zip(labels, s, strict=True) if q > 0)
            replies, gain = self.best_response(s, 1 - p)
            other = self.players[1 - p]
            rows = [f"<b>{html.escape(self.players[p])} plays</b> {shown}",
                    f"<b>{html.escape(other)}'s best response</b>: {html.escape(', '.join(replies))} "
                    f"(earning {gain:+.3f})"]
            if self.zero_sum:
                mine = float((s @ self.a).min()) if p == 0 else float(-(self.a @ s).max())
                rows.append(f"<b>guaranteed</b> {mine:+.3f}; game value {self.value() * (1 if p == 0 else -1):+.3f}")
                rows.append(f"<b>exploitability</b> {self.exploitability(s, p):.3f}")
            report.value = "<br>".join(rows)

        def to_equilibrium(_b: Any) -> None:
            eq = self.equilibrium()
            arr = eq.x_array if p == 0 else eq.o_array
            for s, q in zip(sliders, arr, strict=True):
                s.value = float(q)

        for s in sliders:
            s.observe(update, names="value")
        button.on_click(to_equilibrium)
        update()
        box = ipywidgets.VBox([*sliders, button, report])
        box.sliders = sliders  # type: ignore[attr-defined]
        box.report = report  # type: ignore[attr-defined]
        box.button = button  # type: ignore[attr-defined]
        return box


def stage_game(game_or_matrix: Any, *, players: tuple[str, str] | None = None, title: str = "",
               **stage_options: Any) -> StageGame:
    """The simultaneous stage as a :class:`StageGame`.

    Args:
        game_or_matrix: a two-player game at a simultaneous node whose game
            offers a ``stage_matrix`` analysis tool (its node before any
            submission is used); a stage table (``rows``, ``cols``,
            ``values``); a 2D array ``A`` (zero-sum: player 1 gets ``-A``);
            or a pair ``(A, B)`` of arrays of one shape.
        players: the two players' names (default: the game's, or ``("row", "column")``).
        title: a caption (default: the table's).
        **stage_options: for a game: the options of its ``stage_matrix``.

    Raises:
        TypeError: a game without a stage matrix, or stage options given with a matrix.
        ValueError: a game not at a simultaneous node, a malformed matrix.
    """
    names: tuple[str, str] = ("row", "column")
    table: Any = None
    if isinstance(game_or_matrix, Game):
        g = game_or_matrix
        stage = type(g).analysis_tools.get("stage_matrix")
        if stage is None or len(g.players) != 2:
            raise TypeError(f"{type(g).game_type.long_name} has no two-player stage_matrix analysis tool")
        if isinstance(stage, str):
            stage = _import(stage)
        table = stage(_before_submissions(g), **stage_options)
        names = (str(g.players[0]), str(g.players[1]))
    elif stage_options:
        raise TypeError(f"{', '.join(sorted(stage_options))}: stage-matrix options are for a game, not a matrix")
    elif _is_table(game_or_matrix):
        table = game_or_matrix
    if table is not None:
        if not getattr(table, "numeric", True):
            raise ValueError("this table holds outcomes, not numbers: a stage game needs payoffs")
        a = np.asarray(table.values, dtype=float)
        b = -a
        rows, cols = [str(r) for r in table.rows], [str(c) for c in table.cols]
        title = title or str(getattr(table, "title", "") or "")
    else:
        a, maybe_b = _as_matrices(game_or_matrix)
        b = -a if maybe_b is None else maybe_b
        rows, cols = [str(i) for i in range(a.shape[0])], [str(j) for j in range(a.shape[1])]
    if players is not None:
        if len(players) != 2 or not all(isinstance(n, str) for n in players):
            raise ValueError("players must be two names")
        names = (players[0], players[1])
    return StageGame(names, tuple(rows), tuple(cols), np.stack([a, b], axis=-1), title)


def _player(player: Any) -> int:
    if player not in (0, 1) or isinstance(player, bool):
        raise ValueError(f"player must be 0 or 1, got {shorten(player)}")
    return int(player)


def _prob(p: Any) -> float:
    try:
        q = float(p)
    except (TypeError, ValueError):
        raise ValueError(f"{shorten(p)} is not a probability") from None
    if not np.isfinite(q) or q < 0:
        raise ValueError(f"{shorten(p)} is not a probability (negative or not finite)")
    return q


def _q(text: str) -> str:
    """A Gambit string: double quotes, ``"`` escaped, on one line. Gambit's
    reader has no escape for a backslash (it reads ``\\\\`` as three), so a
    backslash is written as ``/``: the one change a label may see."""
    clean = str(text).replace("\\", "/").replace('"', '\\"').replace("\n", " ").replace("\r", " ")
    return f'"{clean}"'


def _num(x: float) -> str:
    """A payoff as Gambit reads it exactly: an integer, or the float's shortest decimal."""
    v = float(x)
    # positional, never an exponent (the shortest digits that read back the same float)
    return str(int(v)) if v.is_integer() else np.format_float_positional(v, unique=True, trim="-")
