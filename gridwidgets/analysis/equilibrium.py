"""Nash equilibria of matrix games, and of a game's simultaneous node.

At a simultaneous node of a two-player game (its ``is_simultaneous_node()``)
both players choose at once: the first picks a row, the second a column of
the node's matrix game, which the game itself values through its
``stage_matrix`` analysis tool (its ``analysis_tools`` hook; each game's
rules page says how). A zero-sum matrix holds the first player's value of
each pair, the second's being its negative. :func:`equilibrium` solves:

- zero-sum matrices (a zero-sum stage matrix, or one array ``A``, or a
  pair ``(A, -A)``) by von Neumann's minimax theorem as a linear program
  (von Neumann 1928, "Zur Theorie der Gesellschaftsspiele", *Math. Ann.*
  100; the LP form as in Dantzig 1951, "A proof of the equivalence of the
  programming problem and the game problem"): X maximises ``v`` subject to
  ``(x @ A)[j] >= v`` for every column ``j``, ``x >= 0``, ``sum(x) = 1``;
  O solves the mirror LP. Solved with ``scipy.optimize.linprog`` (HiGHS), the
  same LP as nashpy's ``nashpy.linalg.minimax.linear_program``. The result
  is exact up to the solver's tolerance and gives the **game value**.
- general bimatrix games ``(A, B)`` with nashpy (Knight & Campbell 2018,
  "Nashpy: A Python library for the computation of Nash equilibria",
  *Journal of Open Source Software* 3(30), 904): support enumeration (the
  first equilibrium found; pure ones come first), falling back to the
  Lemke–Howson algorithm (Lemke & Howson 1964) for degenerate games where
  support enumeration finds none.

:func:`equilibria` lists **every** equilibrium of a small bimatrix game
instead of one: nashpy's vertex enumeration (Algorithm 3.5 of B. von
Stengel, "Equilibrium computation for two-player games in strategic and
extensive form", chapter 3 of Nisan, Roughgarden, Tardos & Vazirani (eds.),
*Algorithmic Game Theory*, 2007), which pairs the vertices of the two
players' best-response polytopes. In a **nondegenerate** game (no mixed
strategy with ``k`` pure strategies in its support has more than ``k`` pure
best responses) the equilibria are finitely many, an odd number, and the
list is all of them. In a **degenerate** game the equilibria can form
continua (convex sets); the list then holds their **extreme** equilibria,
the vertices of those sets (as Gambit's ``enummixed`` does; Avis,
Rosenberg, Savani & von Stengel 2010, "Enumeration of Nash equilibria for
two-player games", *Economic Theory* 42), not every equilibrium. Support
enumeration, which solves the indifference equations on supports of equal
size, can miss equilibria of a degenerate game outright (e.g. the entry
game's (Out, half Acquiesce and half Fight)); vertex enumeration does not.

In a zero-sum game every equilibrium gives the same **value**; in a
general-sum game there is none, and different equilibria give the players
different payoffs, so a general-sum equilibrium is captioned with both
players' payoffs ("payoffs: Ann 2.000, Bob 1.000").

Without scipy the zero-sum case falls back to nashpy too (support
enumeration, then Lemke–Howson); nashpy itself needs scipy, so with the
package's dependencies installed the LP is always used.
"""

from __future__ import annotations

import html
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.game import Game

__all__ = ["Equilibrium", "equilibria", "equilibrium", "is_degenerate"]

#: probabilities below this are rounded to 0 (LP round-off) and left out of the support
PROB_EPS = 1e-9

_METHODS = ("auto", "lp", "support_enumeration", "lemke_howson", "vertex_enumeration")


@dataclass
class Equilibrium:
    """A Nash equilibrium of a two-player matrix game: X (rows) and O (columns).

    Attributes:
        rows: X's pure strategies (at a game's simultaneous node, the first
            player's choices in notation; for a raw matrix, the row numbers ``0..m-1``).
        cols: O's pure strategies (the second player's choices, or ``0..n-1``).
        x_array: X's mixed strategy, a ``float`` array of ``len(rows)``
            probabilities summing to 1.
        o_array: O's mixed strategy, ``len(cols)`` probabilities.
        matrix: X's payoffs, ``float`` array ``(len(rows), len(cols))``
            (for a game, its stage matrix's ``values``).
        matrix_o: O's payoffs, same shape (``-matrix`` for a zero-sum game).
        value: X's expected payoff ``x @ matrix @ o`` under the equilibrium;
            for a zero-sum game, the game value (what X can guarantee and O
            can hold X to). In a general-sum game it is only this
            equilibrium's payoff: other equilibria may give other payoffs.
        value_o: O's expected payoff (``-value`` for a zero-sum game).
        zero_sum: True if ``matrix_o == -matrix``.
        method: how it was computed: ``"lp"``, ``"support_enumeration"``,
            ``"lemke_howson"`` or ``"vertex_enumeration"``.
        table: the stage table the matrix came from (a game's
            ``stage_matrix``), else ``None``.
        title: a caption.
        row_label: the row player's name in captions (``"X"`` unless given,
            e.g. a :class:`~gridwidgets.analysis.stage.StageGame`'s first player).
        col_label: the column player's name (``"O"`` unless given).
    """

    rows: list[Any]
    cols: list[Any]
    x_array: np.ndarray
    o_array: np.ndarray
    matrix: np.ndarray
    matrix_o: np.ndarray
    value: float
    value_o: float
    zero_sum: bool
    method: str
    table: Any = None
    title: str = ""
    row_label: str = field(default="X")
    col_label: str = field(default="O")

    # ------------------------------------------------------------------
    # The strategies
    # ------------------------------------------------------------------
    @property
    def x(self) -> dict[Any, float]:
        """X's mixed strategy as ``{pure strategy: probability}`` (every row, zeros included)."""
        return {r: float(p) for r, p in zip(self.rows, self.x_array, strict=True)}

    @property
    def o(self) -> dict[Any, float]:
        """O's mixed strategy as ``{pure strategy: probability}`` (every column)."""
        return {c: float(p) for c, p in zip(self.cols, self.o_array, strict=True)}

    @property
    def strategies(self) -> tuple[np.ndarray, np.ndarray]:
        """``(x_array, o_array)``, as nashpy gives an equilibrium."""
        return self.x_array, self.o_array

    def strategy(self, player: int) -> dict[Any, float]:
        """The mixed strategy of ``player`` (0 is X, 1 is O) as a dict."""
        if player not in (0, 1):
            raise ValueError(f"player must be 0 (X) or 1 (O), got {player!r}")
        return self.x if player == 0 else self.o

    @property
    def support(self) -> tuple[list[Any], list[Any]]:
        """The pure strategies each player uses with positive probability: ``(X's, O's)``."""
        return (
            [r for r, p in zip(self.rows, self.x_array, strict=True) if p > PROB_EPS],
            [c for c, p in zip(self.cols, self.o_array, strict=True) if p > PROB_EPS],
        )

    @property
    def shape(self) -> tuple[int, int]:
        """``(len(rows), len(cols))``."""
        return self.matrix.shape  # type: ignore[return-value]

    # ------------------------------------------------------------------
    # Checks
    # ------------------------------------------------------------------
    @property
    def security(self) -> tuple[float, float]:
        """``(lower, upper)``: X's strategy guarantees X at least ``lower``
        whatever O does (its worst pure reply, ``min((x @ matrix))``); O's
        strategy holds X to at most ``upper`` (``max(matrix @ o)``). In a
        zero-sum equilibrium both equal :attr:`value` up to the solver's
        tolerance (the minimax theorem)."""
        return float(np.min(self.x_array @ self.matrix)), float(np.max(self.matrix @ self.o_array))

    @property
    def regrets(self) -> tuple[float, float]:
        """What each player would gain by their best pure deviation: ``(X's, O's)``;
        both 0 (up to round-off) at an equilibrium."""
        gx = float(np.max(self.matrix @ self.o_array)) - self.value
        go = float(np.max(self.x_array @ self.matrix_o)) - self.value_o
        return max(gx, 0.0), max(go, 0.0)

    def is_nash(self, tol: float = 1e-7) -> bool:
        """True if no player gains more than ``tol`` by deviating (each strategy is a best response)."""
        return max(self.regrets) <= tol

    def nashpy_game(self) -> Any:
        """The game as a ``nashpy.Game`` (e.g. for its other algorithms)."""
        import nashpy

        return nashpy.Game(self.matrix, self.matrix_o)

    # ------------------------------------------------------------------
    # Displays
    # ------------------------------------------------------------------
    def payoffs_text(self) -> str:
        """What the caption says of the payoffs: ``"value for X -0.523"`` in a
        zero-sum game (every equilibrium gives the value), ``"payoffs: Ann
        2.000, Bob 1.000"`` in a general-sum game (this equilibrium's payoffs
        to each player, by name: there is no value)."""
        if self.zero_sum:
            return f"value for {self.row_label} {self.value:.3f}"
        return f"payoffs: {self.row_label} {self.value:.3f}, {self.col_label} {self.value_o:.3f}"

    def _caption(self) -> str:
        kind = "zero-sum" if self.zero_sum else "general-sum"
        how = {"lp": "minimax LP"}.get(self.method, self.method.replace("_", " "))
        head = f"{self.title}: " if self.title else ""
        return f"{head}Nash equilibrium ({kind}, {how}): {self.payoffs_text()}"

    def __repr__(self) -> str:
        sx, so = self.support
        if self.zero_sum:
            pays = f"value {self.value:.4g}"
        else:
            pays = f"payoffs {self.row_label} {self.value:.4g}, {self.col_label} {self.value_o:.4g}"
        return (
            f"<Equilibrium {self.shape[0]}x{self.shape[1]} {'zero-sum' if self.zero_sum else 'general-sum'}: "
            f"{pays}, support {self.row_label} {sx}, {self.col_label} {so}>"
        )

    def __str__(self) -> str:
        def mix(d: dict[Any, float]) -> str:
            return ", ".join(f"{k} {p:.3f}" for k, p in d.items() if p > PROB_EPS)

        return "\n".join([self._caption(), f"{self.row_label}: {mix(self.x)}", f"{self.col_label}: {mix(self.o)}"])

    def _repr_html_(self) -> str:
        """The matrix with each player's probabilities beside it: X's in a
        column left of the rows, O's in a row above the columns; pure
        strategies in the support in bold, cells where both supports meet
        outlined. Zero-sum values on a red (good for O) to blue (good for X) scale."""
        sx, so = (set(map(str, s)) for s in self.support)
        b = "padding:2px 6px;border:1px solid #ccc"
        out = ['<table class="gw-equilibrium" style="border-collapse:collapse;font-size:12px">',
               f'<caption style="caption-side:top;text-align:left;font-weight:bold">'
               f"{html.escape(self._caption())}</caption>"]
        corner = f"{html.escape(self.row_label)} \\ {html.escape(self.col_label)}"
        out.append(f'<tr><th style="{b}">{corner}</th><th style="{b}"></th>')
        for c in self.cols:
            weight = "bold" if str(c) in so else "normal"
            out.append(f'<th style="{b};font-weight:{weight}">{html.escape(str(c))}</th>')
        out.append(f'</tr><tr><th style="{b}"></th><th style="{b};font-style:italic">P</th>')
        for p in self.o_array:
            out.append(f'<td style="{b};text-align:right;font-style:italic">{p:.3f}</td>')
        out.append("</tr>")
        scale = value_scale(self.matrix)
        for i, r in enumerate(self.rows):
            weight = "bold" if str(r) in sx else "normal"
            out.append(f'<tr><th style="{b};font-weight:{weight}">{html.escape(str(r))}</th>'
                       f'<td style="{b};text-align:right;font-style:italic">{self.x_array[i]:.3f}</td>')
            for j, c in enumerate(self.cols):
                v = float(self.matrix[i, j])
                bg = diverging_colour(v / scale) if self.zero_sum else "#ffffff"
                text = f"{v:.2f}" if self.zero_sum else f"{v:.2f}, {float(self.matrix_o[i, j]):.2f}"
                edge = ";outline:2px solid #111;outline-offset:-2px" if str(r) in sx and str(c) in so else ""
                out.append(f'<td style="{b};background:{bg};color:#111;text-align:right{edge}">{text}</td>')
            out.append("</tr>")
        out.append("</table>")
        return "".join(out)

    def plot(self, figsize: tuple[float, float] | None = None, annotate: bool = True, cmap: str | None = None) -> Any:
        """A heat map of the matrix with the equilibrium strategies as bars on its margins (matplotlib).

        X's probabilities are horizontal bars right of the rows, O's vertical
        bars above the columns. Zero-sum values on a diverging scale centred
        on 0 (blue good for X, red good for O); for a bimatrix game the heat
        map shows X's payoffs and each cell is labelled ``"a, b"``.

        Args:
            figsize: the figure size in inches (default: from the matrix size).
            annotate: write the payoff in each cell.
            cmap: a matplotlib colour map name.

        Returns:
            The matplotlib ``Figure``; ``fig.axes`` is ``[matrix, O's bars,
            X's bars, colour bar]``.
        """
        import matplotlib.pyplot as plt

        n, m = self.shape
        if figsize is None:
            figsize = (max(5.5, 2.6 + 0.62 * m), max(3.2, 2.2 + 0.42 * n))
        fig = plt.figure(figsize=figsize, layout="constrained")
        grid = fig.add_gridspec(2, 3, width_ratios=[max(m, 1), 1.6, 0.18], height_ratios=[1.4, max(n, 1) * 0.7])
        ax = fig.add_subplot(grid[1, 0])
        ax_o = fig.add_subplot(grid[0, 0], sharex=ax)
        ax_x = fig.add_subplot(grid[1, 1], sharey=ax)
        ax_c = fig.add_subplot(grid[1, 2])
        scale = value_scale(self.matrix)
        im = ax.imshow(self.matrix, cmap=cmap or "RdBu", vmin=-scale, vmax=scale, aspect="auto")
        fig.colorbar(im, cax=ax_c, label=f"payoff to {self.row_label}")
        if annotate:
            for i in range(n):
                for j in range(m):
                    v = float(self.matrix[i, j])
                    text = f"{v:.2f}" if self.zero_sum else f"{v:.2g}, {float(self.matrix_o[i, j]):.2g}"
                    ax.text(j, i, text, ha="center", va="center", fontsize=8,
                            color="white" if abs(v) > 0.6 * scale else "black")
        sx, so = (set(map(str, s)) for s in self.support)
        ax.set_xticks(range(m), [str(c) for c in self.cols])
        ax.set_yticks(range(n), [str(r) for r in self.rows])
        for t, c in zip(ax.get_xticklabels(), self.cols, strict=True):
            t.set_fontweight("bold" if str(c) in so else "normal")
        for t, r in zip(ax.get_yticklabels(), self.rows, strict=True):
            t.set_fontweight("bold" if str(r) in sx else "normal")
        ax.set_xlabel(f"{self.col_label} plays")
        ax.set_ylabel(f"{self.row_label} plays")
        ax_o.bar(range(m), self.o_array, color="#ef4444", width=0.7)
        ax_o.set_ylim(0, 1.05)
        ax_o.set_ylabel(f"P({self.col_label})")
        ax_o.tick_params(axis="x", labelbottom=False)
        ax_x.barh(range(n), self.x_array, color="#3b82f6", height=0.7)
        ax_x.set_xlim(0, 1.05)
        ax_x.set_xlabel(f"P({self.row_label})")
        ax_x.tick_params(axis="y", labelleft=False)
        ax_o.set_title(self._caption(), fontsize=9, loc="left")
        return fig


# ----------------------------------------------------------------------
# Solvers
# ----------------------------------------------------------------------
def value_scale(values: Any) -> float:
    a = np.abs(np.asarray(values, dtype=float))
    top = float(a.max()) if a.size else 0.0
    return top if top > 0 else 1.0


def diverging_colour(t: float) -> str:
    """A background colour for ``t`` in -1..1: red (O) - white - blue (X)."""
    t = max(-1.0, min(1.0, t))
    far = (59, 130, 246) if t > 0 else (239, 68, 68)
    a = abs(t) * 0.75
    r, g, b = (round(255 + (c - 255) * a) for c in far)
    return f"#{r:02x}{g:02x}{b:02x}"


def _clean(p: np.ndarray) -> np.ndarray:
    """Round-off out of a probability vector: clip to [0, 1], zero the dust, renormalise."""
    p = np.clip(np.asarray(p, dtype=float), 0.0, None)
    p[p < PROB_EPS] = 0.0
    total = p.sum()
    if not total > 0:
        raise RuntimeError("the solver returned no probability mass")
    return p / total


def _maxmin_lp(a: np.ndarray) -> tuple[np.ndarray, float]:
    """The row player's maxmin strategy of the zero-sum matrix ``a`` and the value (HiGHS LP).

    maximise v  s.t.  a.T @ x >= v,  sum(x) = 1,  x >= 0.
    """
    from scipy.optimize import linprog

    m, n = a.shape
    c = np.zeros(m + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-a.T, np.ones((n, 1))])
    b_ub = np.zeros(n)
    a_eq = np.ones((1, m + 1))
    a_eq[0, -1] = 0.0
    bounds = [(0.0, None)] * m + [(None, None)]
    res = linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs")
    if res.status != 0:  # pragma: no cover - a finite matrix game always has a solution
        raise RuntimeError(f"the minimax LP failed: {res.message}")
    return _clean(res.x[:m]), float(res.x[-1])


def _solve_lp(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x, _ = _maxmin_lp(a)
    o, _ = _maxmin_lp(-a.T)  # O maximises -x.A.o: the same LP on the transposed, negated matrix
    return x, o


def _solve_nashpy(a: np.ndarray, b: np.ndarray, method: str) -> tuple[np.ndarray, np.ndarray, str]:
    import nashpy

    game = nashpy.Game(a, b)
    order = [method] if method != "auto" else ["support_enumeration", "lemke_howson", "vertex_enumeration"]
    for how in order:
        with warnings.catch_warnings():
            # degenerate games make support enumeration and Lemke-Howson warn; we check the result below
            warnings.simplefilter("ignore", RuntimeWarning)
            warnings.simplefilter("ignore", UserWarning)
            try:
                if how == "lemke_howson":
                    found = [game.lemke_howson(initial_dropped_label=0)]
                else:
                    found = getattr(game, how)()
                for sx, so in found:
                    sx, so = np.asarray(sx, dtype=float), np.asarray(so, dtype=float)
                    if sx.shape != (a.shape[0],) or not (np.all(np.isfinite(sx)) and np.all(np.isfinite(so))):
                        continue
                    if sx.sum() <= 0 or so.sum() <= 0:
                        continue
                    sx, so = _clean(sx), _clean(so)
                    if _regret(a, b, sx, so) <= 1e-7 * max(1.0, value_scale(a), value_scale(b)):
                        return sx, so, how
            except (ValueError, np.linalg.LinAlgError, RuntimeError):
                pass
    raise RuntimeError(f"nashpy found no equilibrium with {' / '.join(order)}")


def _regret(a: np.ndarray, b: np.ndarray, x: np.ndarray, o: np.ndarray) -> float:
    return max(float(np.max(a @ o) - x @ a @ o), float(np.max(x @ b) - x @ b @ o))


def _has_scipy() -> bool:
    try:
        import scipy.optimize  # noqa: F401
    except ImportError:  # pragma: no cover - nashpy depends on scipy
        return False
    return True


def before_submissions(game: Game) -> Game:
    """The position of this simultaneous node before any submission: a
    submission already in, or hidden in a ``view_for``, changes nothing until
    all are in (C-5), so the node's matrix game is the same."""
    if game.pending:
        g = game.copy()
        while g.pending:
            g.undo()
        return g
    return game


def is_table(obj: Any) -> bool:
    """A table of two players' choices (rows, cols, values, numeric), as a game's
    ``stage_matrix`` returns."""
    return all(hasattr(obj, a) for a in ("rows", "cols", "values", "numeric")) and not isinstance(obj, Game)


def as_matrices(obj: Any) -> tuple[np.ndarray, np.ndarray | None]:
    """``(A, B)`` from a 2D array (``B=None``: zero-sum), a pair of arrays, or a nashpy Game."""
    pair = getattr(obj, "payoff_matrices", None)
    if pair is not None:
        a, b = (np.asarray(m, dtype=float) for m in pair)
    else:
        try:
            arr = np.asarray(obj, dtype=float)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"cannot read a payoff matrix from {type(obj).__name__}: {exc}") from None
        if arr.ndim == 2:
            a, b = arr, None
        elif arr.ndim == 3 and arr.shape[0] == 2:
            a, b = arr[0], arr[1]
        else:
            raise ValueError(
                f"a payoff matrix is a 2D array (zero-sum) or a pair of 2D arrays of one shape, got shape {arr.shape}"
            )
    for name, m in (("A", a), ("B", b)):
        if m is None:
            continue
        if m.ndim != 2 or m.shape[0] < 1 or m.shape[1] < 1:
            raise ValueError(f"payoff matrix {name} must be 2D and non-empty, got shape {m.shape}")
        if not np.all(np.isfinite(m)):
            raise ValueError(f"payoff matrix {name} holds NaN or infinite entries")
    if b is not None and b.shape != a.shape:
        raise ValueError(f"the two payoff matrices differ in shape: {a.shape} and {b.shape}")
    return a, b


def _read(
    game_or_matrix: Any, rows: list[Any] | None, cols: list[Any] | None, options: dict[str, Any]
) -> tuple[np.ndarray, np.ndarray | None, list[Any], list[Any], Any, str, tuple[str, str] | None]:
    """The matrices, labels, table, title and players' names of what
    :func:`equilibrium` takes (see there), checked."""
    table: Any = None
    title = ""
    names: tuple[str, str] | None = None
    if isinstance(game_or_matrix, Game):
        if len(game_or_matrix.players) == 2:
            table = before_submissions(game_or_matrix).stage_matrix(**options)
        if table is None:
            raise TypeError(
                f"equilibrium takes a two-player game at a simultaneous node whose matrix it can value, "
                f"or a payoff matrix; {type(game_or_matrix).game_type.long_name} has no stage_matrix"
            )
        title = table.title.split(":")[0] if table.title else ""
        names = (str(game_or_matrix.players[0]), str(game_or_matrix.players[1]))
    elif options:
        raise TypeError(
            f"{', '.join(sorted(options))}: stage-matrix options are for a game, not a matrix"
        )
    elif is_table(game_or_matrix):
        table = game_or_matrix
        if not table.numeric:
            raise ValueError("this table holds outcomes, not numbers: equilibrium needs a numeric stage matrix")
        title = table.title.split(":")[0] if table.title else ""
    if table is not None:
        a, b = np.asarray(table.values, dtype=float), None
        rows = list(table.rows) if rows is None else rows
        cols = list(table.cols) if cols is None else cols
    else:
        a, b = as_matrices(game_or_matrix)
    m, n = a.shape
    rows = list(range(m)) if rows is None else list(rows)
    cols = list(range(n)) if cols is None else list(cols)
    if len(rows) != m or len(cols) != n:
        raise ValueError(f"labels: {len(rows)} rows and {len(cols)} columns given for a {m}x{n} matrix")
    return a, b, rows, cols, table, title, names


def _names(players: Sequence[str] | None, default: tuple[str, str] | None) -> tuple[str, str]:
    if players is None:
        return default or ("X", "O")
    if isinstance(players, str) or len(players) != 2 or not all(isinstance(p, str) for p in players):
        raise ValueError(f"players must be two names (strings), got {str(players)[:40]}")
    return str(players[0]), str(players[1])


def equilibrium(
    game_or_matrix: Any,
    *,
    method: str = "auto",
    rows: list[Any] | None = None,
    cols: list[Any] | None = None,
    players: Sequence[str] | None = None,
    **bid_matrix_options: Any,
) -> Equilibrium:
    """A Nash equilibrium of a matrix game, or of a game's simultaneous node.

    One equilibrium: in a zero-sum game any one tells the value; in a
    general-sum game there may be several, with different payoffs, and
    :func:`equilibria` lists them all.

    Args:
        game_or_matrix: one of

            - a two-player game at a simultaneous node whose game offers a
              ``stage_matrix`` analysis tool: the matrix is
              ``stage_matrix(game, **stage_options)`` (the first player's
              value of every pair of choices). A game where one submission
              is already in, or hidden in a ``view_for(player)``, gives the
              same matrix: nothing changes until all are in (C-5), so the
              node's game is the one before any submission;
            - a numeric table from a ``stage_matrix`` (``rows``, ``cols``,
              ``values``);
            - a 2D array ``A`` of the row player's payoffs: a zero-sum game
              (the column player gets ``-A``);
            - a pair ``(A, B)`` of 2D arrays of one shape: a bimatrix game
              (row player gets ``A``, column player ``B``), or a ``nashpy.Game``.
        method: ``"auto"`` (zero-sum: the minimax LP; bimatrix: nashpy's
            support enumeration, then Lemke–Howson, then vertex enumeration),
            ``"lp"`` (zero-sum only), or one of nashpy's
            ``"support_enumeration"``, ``"lemke_howson"`` (initial dropped
            label 0), ``"vertex_enumeration"``: the first equilibrium found.
        rows: labels of the row player's pure strategies of a raw matrix
            (default ``0..m-1``; a table's own rows otherwise).
        cols: labels of the column player's pure strategies (default
            ``0..n-1``; a table's own columns otherwise).
        players: the two players' names for the captions (default: a
            game's players, else ``("X", "O")``).
        **bid_matrix_options: for a game only: the options of its
            ``stage_matrix`` (e.g. ``rollouts``, ``seed``, ``agent``).

    Returns:
        An :class:`Equilibrium`: ``x``, ``o`` (dicts pure strategy ->
        probability), ``x_array``, ``o_array``, ``value`` (X's expected
        payoff; the game value when zero-sum), ``support``, ``matrix``,
        ``plot()``, a notebook HTML table.

    Raises:
        ValueError: for a game not at a simultaneous node, a matrix that is
            not 2D or holds NaN, labels of the wrong length, players that
            are not two names, an unknown method, or ``"lp"`` for a game
            that is not zero-sum.
        TypeError: for stage-matrix options given with a matrix, or a game
            without a stage matrix.
        RuntimeError: if no equilibrium is found (a degenerate game where
            the chosen nashpy method fails).
    """
    if method not in _METHODS:
        raise ValueError(f"method must be one of {', '.join(_METHODS)}; got {method!r}")
    a, b, rows, cols, table, title, names = _read(game_or_matrix, rows, cols, bid_matrix_options)
    row_label, col_label = _names(players, names)
    zero_sum = b is None or bool(np.allclose(b, -a, rtol=0.0, atol=1e-12))
    if b is None:
        b = -a
    if method == "lp" and not zero_sum:
        raise ValueError("method='lp' solves zero-sum games only; this bimatrix game is not zero-sum")
    if zero_sum and method in ("auto", "lp") and _has_scipy():
        x, o = _solve_lp(a)
        how = "lp"
    else:
        x, o, how = _solve_nashpy(a, b, method)
    value = float(x @ a @ o)
    value_o = -value if zero_sum else float(x @ b @ o)
    return Equilibrium(
        rows=rows,
        cols=cols,
        x_array=x,
        o_array=o,
        matrix=a,
        matrix_o=b,
        value=value,
        value_o=value_o,
        zero_sum=zero_sum,
        method=how,
        table=table,
        title=title,
        row_label=row_label,
        col_label=col_label,
    )


#: the methods :func:`equilibria` can list with
_LIST_METHODS = ("vertex_enumeration", "support_enumeration")


def equilibria(
    game_or_matrix: Any,
    *,
    method: str = "vertex_enumeration",
    rows: list[Any] | None = None,
    cols: list[Any] | None = None,
    players: Sequence[str] | None = None,
) -> list[Equilibrium]:
    """Every Nash equilibrium of a small two-player matrix game (the extreme
    ones of a degenerate game), in a stated order.

    The method (see the module's description for the sources):

    - ``"vertex_enumeration"`` (the default): nashpy's vertex enumeration of
      the two best-response polytopes, on payoffs shifted to be at least 1
      (adding a constant to a player's payoffs changes no equilibrium; the
      polytopes need positive payoffs to be bounded). In a nondegenerate
      game the list is every equilibrium (an odd number of them); in a
      degenerate game, where equilibria can form continua, it is every
      **extreme** equilibrium, and each other equilibrium is a convex
      combination of extreme ones (within one of the convex sets the
      equilibria form), so the list is then not every equilibrium.
    - ``"support_enumeration"``: nashpy's support enumeration (equal-size
      supports only): every equilibrium of a nondegenerate game, but it can
      miss equilibria of a degenerate one.

    Each equilibrium found is checked (no player gains more than ``1e-7``
    times the payoffs' scale by a pure deviation); duplicates (within
    ``1e-9``) are dropped. The order: fewest pure strategies in the two
    supports together first (so pure equilibria first), then by the
    supports' positions in the rows' and columns' order, then by the row
    player's, then the column player's probabilities, largest first. For
    a nondegenerate game this is the order in which support enumeration
    finds them, so ``equilibria(g)[0]`` is the equilibrium
    :func:`equilibrium` (``method="auto"``) returns for a general-sum game.

    Args:
        game_or_matrix: a 2D array (zero-sum), a pair ``(A, B)`` of 2D
            arrays of one shape, a ``nashpy.Game``, or a numeric stage table
            (as :func:`equilibrium` takes; a game is not taken: build its
            matrix first, e.g. with ``stage_game``).
        method: ``"vertex_enumeration"`` or ``"support_enumeration"``.
        rows: labels of the row player's pure strategies (default ``0..m-1``).
        cols: labels of the column player's pure strategies (default ``0..n-1``).
        players: the two players' names for the captions (default ``("X", "O")``).

    Returns:
        A list of :class:`Equilibrium` (at least one: every finite game has
        one, Nash 1950), each with ``method`` the method used and ``title``
        ``"equilibrium k of n"``.

    Raises:
        ValueError: for a matrix that is not 2D or holds NaN, labels of the
            wrong length, an unknown method, or a game (not a matrix).
        RuntimeError: if the method finds no equilibrium that passes the
            check (not expected: vertex enumeration finds the extreme
            equilibria of every game).
    """
    if method not in _LIST_METHODS:
        raise ValueError(f"method must be one of {', '.join(_LIST_METHODS)}; got {method!r}")
    if isinstance(game_or_matrix, Game):
        raise ValueError("equilibria takes a matrix game; for a game's stage, use stage_game(game).equilibria()")
    a, b, rows, cols, table, title, _ = _read(game_or_matrix, rows, cols, {})
    row_label, col_label = _names(players, None)
    zero_sum = b is None or bool(np.allclose(b, -a, rtol=0.0, atol=1e-12))
    if b is None:
        b = -a
    found = _all_equilibria(a, b, method)
    if not found:
        raise RuntimeError(f"nashpy's {method.replace('_', ' ')} found no equilibrium")
    head = f"{title}, " if title else ""
    out = []
    for k, (x, o) in enumerate(found, 1):
        value = float(x @ a @ o)
        out.append(Equilibrium(
            rows=list(rows), cols=list(cols), x_array=x, o_array=o, matrix=a, matrix_o=b, value=value,
            value_o=-value if zero_sum else float(x @ b @ o), zero_sum=zero_sum, method=method, table=table,
            title=f"{head}equilibrium {k} of {len(found)}", row_label=row_label, col_label=col_label,
        ))
    return out


def _all_equilibria(a: np.ndarray, b: np.ndarray, method: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """The checked, deduplicated, ordered equilibria ``(x, o)`` of ``(a, b)``."""
    m, n = a.shape
    if m == 1 or n == 1:
        raw = _line_equilibria(a, b)
    else:
        import nashpy

        # the same equilibria on payoffs >= 1: the best-response polytopes are then bounded
        game = nashpy.Game(a - a.min() + 1.0, b - b.min() + 1.0)
        with warnings.catch_warnings():
            # support enumeration warns on an even count (a degenerate game); the docstring says so
            warnings.simplefilter("ignore", RuntimeWarning)
            raw = list(getattr(game, method)())
    scale = max(1.0, value_scale(a), value_scale(b))
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    for sx, so in raw:
        sx, so = np.asarray(sx, dtype=float), np.asarray(so, dtype=float)
        if sx.shape != (m,) or so.shape != (n,) or not (np.all(np.isfinite(sx)) and np.all(np.isfinite(so))):
            continue
        if sx.sum() <= 0 or so.sum() <= 0:
            continue
        sx, so = _clean(sx), _clean(so)
        if _regret(a, b, sx, so) > 1e-7 * scale:
            continue
        if any(np.allclose(sx, kx, rtol=0.0, atol=1e-9) and np.allclose(so, ko, rtol=0.0, atol=1e-9)
               for kx, ko in kept):
            continue
        kept.append((sx, so))

    def order(pair: tuple[np.ndarray, np.ndarray]) -> tuple[Any, ...]:
        sx, so = pair
        ix, io = tuple(np.flatnonzero(sx > PROB_EPS)), tuple(np.flatnonzero(so > PROB_EPS))
        return len(ix) + len(io), ix, io, tuple(-sx), tuple(-so)

    return sorted(kept, key=order)


def _line_equilibria(a: np.ndarray, b: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The extreme equilibria of a game where one player has one pure strategy
    (the polytope method needs two dimensions): that strategy, and each pure
    best response of the other player to it (the equilibria are the mixes of
    those best responses, whose extreme points these are)."""
    m, n = a.shape
    out = []
    if m == 1:
        gains = b[0]
        best = gains.max()
        for j in range(n):
            if gains[j] >= best - 1e-12 * max(1.0, abs(best)):
                out.append((np.ones(1), np.eye(n)[j]))
    else:
        gains = a[:, 0]
        best = gains.max()
        for i in range(m):
            if gains[i] >= best - 1e-12 * max(1.0, abs(best)):
                out.append((np.eye(m)[i], np.ones(1)))
    return out


def is_degenerate(game_or_matrix: Any) -> bool:
    """True if the bimatrix game is **degenerate**: some mixed strategy with
    ``k`` pure strategies in its support has more than ``k`` pure best
    responses (the definition of von Stengel 2007, the chapter cited in the
    module's description). Checked on the vertices of the two
    best-response polytopes: the game is degenerate if and only if one of
    them has a point with more labels (tight inequalities) than the
    polytope's dimension, and then one of its vertices has.

    Args:
        game_or_matrix: a 2D array (zero-sum), a pair ``(A, B)``, a
            ``nashpy.Game`` or a numeric stage table.

    Returns:
        True for a degenerate game: its equilibria may form continua, and
        :func:`equilibria` then lists the extreme ones.

    Raises:
        ValueError: for a malformed matrix, or a game (not a matrix).
    """
    if isinstance(game_or_matrix, Game):
        raise ValueError("is_degenerate takes a matrix game; for a game's stage, use stage_game(game)")
    a, b, *_ = _read(game_or_matrix, None, None, {})
    if b is None:
        b = -a
    m, n = a.shape
    if m == 1:  # one row: a mix of k columns has one best response (the row); the row has |best columns|
        return int(np.sum(b[0] >= b[0].max() - 1e-12 * max(1.0, abs(b[0].max())))) > 1
    if n == 1:
        return int(np.sum(a[:, 0] >= a[:, 0].max() - 1e-12 * max(1.0, abs(a[:, 0].max())))) > 1
    from nashpy.polytope import build_halfspaces, non_trivial_vertices

    shifted_a, shifted_b = a - a.min() + 1.0, b - b.min() + 1.0
    for halfspaces, dim in ((build_halfspaces(shifted_b.T), m), (build_halfspaces(shifted_a), n)):
        for _vertex, labels in non_trivial_vertices(halfspaces):
            if len(labels) > dim:
                return True
    return False
