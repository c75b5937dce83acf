"""The bid of a Block Four turn as a two-player matrix game (RULES BF-5, BF-6).

At the start of a turn both players secretly choose two cards (BF-5); what
the pair of bids earns is fixed by the rules (BF-6): no match gives four
placements in I, L, O, T, Z order, one match two copies of each unmatched
shape, two matches nothing. So a turn's bid is a simultaneous game: X picks a
row, O a column.

- :func:`bid_table` lists, for every pair of bids, what it earns: the number
  of matching cards and the placements in order.
- :func:`bid_matrix` puts a number on every pair. By default
  (``continuation="rollout"``) it is a *one-turn proxy*: X's field lead after
  this turn's placements, made by an agent (random by default), averaged over
  rollouts, each entry with its standard error. It is not the value of the
  game: what a pair of bids is worth depends on the rest of the game, and a
  turn-1 matrix of it is mostly noise. With ``continuation="exact"`` each
  entry is the value of the rest of the game after that pair, both players
  then playing subgame-perfectly (:func:`gridwidgets.analysis.solve_simultaneous`:
  exact, for endgames it can settle). Its ``values`` is a plain ``float``
  array ready for a matrix-game solver (zero-sum on either scale).

Rows are always X's possible bids (``game.legal_moves(0)``), columns O's
(``game.legal_moves(1)``). X holds 3 cards on odd turns and 5 on even ones
(BF-10), O the other way round, so a table is 3x10 on odd turns and 10x3 on
even ones.
"""

from __future__ import annotations

import html
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...analysis.equilibrium import diverging_colour, value_scale
from .rules import Bid, BlockFour, placement_order

__all__ = ["CONTINUATIONS", "WIN_VALUE", "BidTable", "bid_matrix", "bid_table", "describe_order", "position_value"]

#: the value of a won game on the scale of :func:`bid_matrix` (X's win: +9, O's: -9);
#: nine is the number of fields, more than any field difference of a game
#: that goes on (at most 4 - 0).
WIN_VALUE = 9


@dataclass
class BidTable:
    """A table over pairs of bids: X's bids are the rows, O's the columns.

    Attributes:
        rows: X's possible bids in notation (``"IO"``, BF-12), ``len(rows)``
            is 3 or 10.
        cols: O's possible bids, 10 or 3.
        values: the entries, ``len(rows)`` lists of ``len(cols)``:
            for :func:`bid_table` strings (the placements the pair earns),
            for :func:`bid_matrix` a ``float`` numpy array of shape
            ``(len(rows), len(cols))`` (X's expected value).
        title: a caption.
        matches: per entry, how many cards the two bids share (0, 1 or 2; BF-6),
            an ``int`` numpy array of the same shape.
        orders: per entry (only from :func:`bid_table`), the placements in
            order as ``(player, shape)`` pairs (:func:`placement_order`).
        stderr: per entry (only from :func:`bid_matrix`), the standard error
            of the mean over the rollouts (0 where the outcome is certain).
        rollouts: how many rollouts each entry of :func:`bid_matrix` averages
            (``None`` for exact entries).
        continuation: how :func:`bid_matrix` valued what follows each pair:
            ``"rollout"`` (this turn's placements by an agent: X's field lead)
            or ``"exact"`` (the rest of the game played subgame-perfectly:
            X's expected result, +1 a win, -1 a loss).
        scale: what a value measures, for captions and colour bars.
    """

    rows: list[str]
    cols: list[str]
    values: Any
    title: str = ""
    matches: np.ndarray | None = None
    orders: list[list[list[tuple[int, str]]]] | None = None
    stderr: np.ndarray | None = None
    rollouts: int | None = None
    continuation: str = "rollout"
    scale: str = "value for X"
    row_label: str = field(default="X bids")
    col_label: str = field(default="O bids")

    @property
    def shape(self) -> tuple[int, int]:
        """``(len(rows), len(cols))``."""
        return (len(self.rows), len(self.cols))

    @property
    def numeric(self) -> bool:
        """True for a table of numbers (:func:`bid_matrix`)."""
        return isinstance(self.values, np.ndarray) and self.values.dtype.kind in "fiu"

    def __getitem__(self, key: tuple[str, str]) -> Any:
        """The entry for a pair of bids: ``table["IO", "LT"]`` (either order of letters)."""
        x, o = key
        return self.values[self.rows.index(_norm(x))][self.cols.index(_norm(o))]

    def to_frame(self) -> Any:
        """The table as a ``pandas.DataFrame`` (index: X's bids, columns: O's).

        Raises:
            ImportError: if pandas is not installed.
        """
        try:
            import pandas as pd
        except ImportError as exc:  # pragma: no cover - pandas is in the dev extras
            raise ImportError("BidTable.to_frame() needs pandas: pip install pandas") from exc
        values = self.values.tolist() if isinstance(self.values, np.ndarray) else [list(r) for r in self.values]
        df = pd.DataFrame(values, index=pd.Index(self.rows, name=self.row_label),
                          columns=pd.Index(self.cols, name=self.col_label))
        return df

    def __repr__(self) -> str:
        kind = "values" if self.numeric else "outcomes"
        return f"<BidTable {self.shape[0]}x{self.shape[1]} of {kind}: {self.title}>"

    def _with_error(self, i: int, j: int) -> str:
        """An entry as text, with its standard error when it has one (``0.25 ± 0.07``)."""
        v = self.values[i][j]
        if self.numeric and self.stderr is not None and float(np.max(self.stderr)) > 0:
            return f"{_fmt(v)} ± {float(self.stderr[i][j]):.2f}"
        return _fmt(v)

    def __str__(self) -> str:
        cells = [[self._with_error(i, j) for j in range(len(self.cols))] for i in range(len(self.rows))]
        w0 = max(len(self.row_label), *(len(r) for r in self.rows))
        widths = [max(len(c), *(len(cells[i][j]) for i in range(len(self.rows)))) for j, c in enumerate(self.cols)]
        lines = [self.title] if self.title else []
        head = " | ".join(f"{c:^{w}}" for c, w in zip(self.cols, widths, strict=True))
        lines.append(f"{self.row_label:<{w0}} | {head}")
        lines.append("-" * len(lines[-1]))
        for r, row in zip(self.rows, cells, strict=True):
            lines.append(f"{r:<{w0}} | " + " | ".join(f"{v:>{w}}" for v, w in zip(row, widths, strict=True)))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """An HTML table: numbers on a red (good for O) to blue (good for X)
        background; outcomes shaded by the number of matches."""
        out = ['<table class="gw-bidtable" style="border-collapse:collapse;font-size:12px">']
        if self.title:
            out.append(f'<caption style="caption-side:top;text-align:left;font-weight:bold">{html.escape(self.title)}'
                       "</caption>")
        head = f"{html.escape(self.row_label)} \\ {html.escape(self.col_label)}"
        out.append(f'<tr><th style="padding:2px 6px;border:1px solid #ccc">{head}</th>')
        out += [f'<th style="padding:2px 6px;border:1px solid #ccc">{html.escape(c)}</th>' for c in self.cols]
        out.append("</tr>")
        scale = value_scale(self.values) if self.numeric else 1.0
        for i, r in enumerate(self.rows):
            out.append(f'<tr><th style="padding:2px 6px;border:1px solid #ccc">{html.escape(r)}</th>')
            for j in range(len(self.cols)):
                v = self.values[i][j]
                if self.numeric:
                    bg = diverging_colour(float(v) / scale)
                    tip = (f"standard error {self.stderr[i][j]:.2f} ({self.rollouts} rollouts)"
                           if self.stderr is not None and self.rollouts else "exact")
                else:
                    k = int(self.matches[i][j]) if self.matches is not None else 0
                    bg = ("#ffffff", "#eef2ff", "#e5e7eb")[k]
                    tip = f"{k} match{'es' if k != 1 else ''} (BF-6)"
                out.append(
                    f'<td title="{html.escape(tip)}" style="padding:2px 6px;border:1px solid #ccc;'
                    f'background:{bg};color:#111;text-align:{"right" if self.numeric else "left"}">'
                    f"{html.escape(self._with_error(i, j))}</td>"
                )
            out.append("</tr>")
        out.append("</table>")
        return "".join(out)

    def plot(self, ax: Any = None, annotate: bool = True, cmap: str | None = None) -> Any:
        """A heat map with matplotlib: X's bids down, O's bids across.

        Numbers (:func:`bid_matrix`) on a diverging scale centred on 0 (blue
        good for X, red good for O), with a colour bar; outcomes
        (:func:`bid_table`) coloured by the number of matches, each cell
        labelled with its placements.

        Args:
            ax: the matplotlib Axes to draw on (default: a new figure).
            annotate: write the entry in each cell.
            cmap: a matplotlib colour map name.

        Returns:
            The Axes.
        """
        import matplotlib.pyplot as plt

        n, m = self.shape
        if ax is None:
            width = 1.6 + (0.62 if self.numeric else 1.15) * m
            height = 1.2 + (0.42 if self.numeric else 0.95) * n
            _, ax = plt.subplots(figsize=(max(6.0, width), max(2.4, height)))
        if self.numeric:
            data = np.asarray(self.values, dtype=float)
            scale = value_scale(data)
            im = ax.imshow(data, cmap=cmap or "RdBu", vmin=-scale, vmax=scale, aspect="auto")
            ax.figure.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label=self.scale)
        else:
            data = np.asarray(self.matches if self.matches is not None else np.zeros((n, m)), dtype=float)
            ax.imshow(data, cmap=cmap or "Blues", vmin=-0.5, vmax=3.5, aspect="auto")
        if annotate:
            for i in range(n):
                for j in range(m):
                    v = self.values[i][j]
                    if self.numeric:
                        dark = abs(float(v)) > 0.6 * scale
                        ax.text(j, i, self._with_error(i, j).replace(" ± ", "\n±"), ha="center", va="center",
                                fontsize=7 if "±" in self._with_error(i, j) else 8,
                                color="white" if dark else "black")
                    else:
                        ax.text(j, i, str(v).replace(", ", "\n"), ha="center", va="center", fontsize=8)
        ax.set_xticks(range(m), self.cols)
        ax.set_yticks(range(n), self.rows)
        ax.xaxis.set_ticks_position("top")
        ax.xaxis.set_label_position("top")
        ax.set_xlabel(self.col_label)
        ax.set_ylabel(self.row_label)
        if self.title:
            ax.set_title(self.title, fontsize=9, pad=28)
        return ax


def _norm(bid: str) -> str:
    return "".join(sorted(str(bid).upper(), key="ILOTZ".index))


def _fmt(v: Any) -> str:
    if isinstance(v, (float, np.floating)):
        return f"{float(v):.2f}"
    return str(v)


def describe_order(order: Sequence[tuple[int, str]], players: Sequence[str] = ("X", "O")) -> str:
    """The placements of a turn for people (BF-6):

    - no match: ``"X I, O L, X O, O T"`` (each shape by its chooser, in I, L, O, T, Z order);
    - one match: ``"O L×2, X O×2"`` (two copies each, the earlier shape first);
    - two matches: ``"nothing"``.
    """
    if not order:
        return "nothing"
    parts: list[list[Any]] = []
    for p, s in order:
        if parts and parts[-1][0] == p and parts[-1][1] == s:
            parts[-1][2] += 1
        else:
            parts.append([p, s, 1])
    return ", ".join(f"{players[p]} {s}" + (f"×{k}" if k > 1 else "") for p, s, k in parts)


def _check_bid_phase(game: Any, who: str) -> None:
    if not isinstance(game, BlockFour):
        raise TypeError(f"{who} is for a Block Four game, got {type(game).__name__}")
    if game.phase == "over":
        raise ValueError(f"{who}: the game is over ({game.status()}); there is no bid to make")
    if game.phase != "bid":
        raise ValueError(f"{who}: it is the placement phase ({game.status()}); bids come at the start of a turn (BF-5)")
    if any(game.pending_bids):
        who_bid = " and ".join(game.players[p] for p in (0, 1) if game.pending_bids[p])
        raise ValueError(
            f"{who}: {who_bid} has already bid this turn; the table is for a position before either bid (BF-5, BF-13)"
        )


def _bids(game: BlockFour) -> tuple[list[Bid], list[Bid]]:
    return game.legal_moves(0), game.legal_moves(1)  # type: ignore[return-value]


def bid_table(game: BlockFour) -> BidTable:
    """What every pair of bids earns this turn (RULES BF-6).

    Args:
        game: a Block Four game in the bid phase, before either player has bid.

    Returns:
        A :class:`BidTable` with X's possible bids as rows and O's as columns
        (3x10 on odd turns, 10x3 on even ones, BF-10). Each entry is a string:
        the placements in order, ``"X I, O L, X O, O T"`` (no match: each shape
        by its chooser, in I, L, O, T, Z order), ``"O L×2, X O×2"`` (one match:
        two copies of each unmatched shape, the earlier shape first, ours),
        ``"nothing"`` (two matches). ``matches`` holds the number of shared
        cards (0, 1, 2) and ``orders`` the placements as ``(player, shape)``
        pairs, as :func:`~gridwidgets.games.blockfour.placement_order` gives
        them. Whether a shape still fits on the board (BF-7) is not looked at:
        see :func:`bid_matrix`.

    Raises:
        ValueError: if the game is over, in its placement phase, or a bid is
            already in (the table is about a choice that is still open).
    """
    _check_bid_phase(game, "bid_table")
    xs, os_ = _bids(game)
    values, matches, orders = [], [], []
    for x in xs:
        vrow, mrow, orow = [], [], []
        for o in os_:
            order = placement_order(x, o)
            vrow.append(describe_order(order, game.players))
            mrow.append(len(set(x.cards) & set(o.cards)))
            orow.append(order)
        values.append(vrow)
        matches.append(mrow)
        orders.append(orow)
    return BidTable(
        rows=[str(b) for b in xs],
        cols=[str(b) for b in os_],
        values=values,
        title=f"Turn {game.turn}: what each pair of bids earns (BF-6)",
        matches=np.array(matches, dtype=int),
        orders=orders,
    )


def position_value(game: BlockFour) -> int:
    """X's value of a position on the scale of :func:`bid_matrix`: the
    difference of controlled fields, X's minus O's (BF-9), while the game
    goes on; ``+9`` once X has won, ``-9`` once O has, ``0`` for a draw
    (BF-11)."""
    if game.is_over:
        w = game.winners
        return WIN_VALUE if w == (0,) else -WIN_VALUE if w == (1,) else 0
    fx, fo = game.fields_controlled()
    return fx - fo


def _agent_factory(agent: Any) -> Callable[[int], Any]:
    """A function ``rollout seed -> agent``."""
    if agent is None:
        from ...agents import RandomAgent

        return lambda s: RandomAgent(seed=s)
    if callable(getattr(agent, "choose", None)) and not isinstance(agent, type):
        return lambda s: agent
    if callable(agent):
        return agent  # a class or a function of the seed
    raise TypeError(
        f"agent must be an agent (with choose(game)), an agent class or a function of a seed, got {agent!r}"
    )


#: how :func:`bid_matrix` values what follows a pair of bids
CONTINUATIONS = ("rollout", "exact")


def _agent_words(agent: Any) -> str:
    if agent is None:
        return "at random"
    name = getattr(agent, "name", None) or getattr(agent, "__name__", None) or type(agent).__name__
    return f"by {str(name)[:40]}"


def bid_matrix(
    game: BlockFour,
    agent: Any = None,
    rollouts: int = 20,
    seed: int | None = 0,
    continuation: str = "rollout",
    time_limit: float = 60.0,
    progress: bool = False,
) -> BidTable:
    """A number for every pair of bids this turn: X's one-turn field lead by
    rollouts, or the exact value of the rest of the game (RULES BF-5..BF-11).

    ``continuation="rollout"`` (the default, a one-turn proxy): for each pair
    (X's bid, O's bid) the two bids are played on a copy of ``game``, then the
    placements they earn (BF-6) are made by ``agent`` for both players, skips
    and gap fills by the rules (BF-7, BF-8), to the end of **this turn only**;
    the result is measured on the scale of :func:`position_value`:

    - the game goes on: X's controlled fields minus O's (BF-9), from -4 to 4;
    - the turn ends the game: ``+9`` if X wins, ``-9`` if O wins, ``0`` for a
      draw (a win at 5 fields, BF-9, or the stall rule, BF-11).

    Each entry is the mean over ``rollouts`` rollouts, with its standard error
    in ``stderr`` (shown beside it: ``0.25 ± 0.07``). A pair with nothing to
    choose (two matches, or only skipped shapes) is played once: its value is
    exact (two matches: the position's current field difference, unless the
    stall rule ends the game). Later turns are not played, so the matrix
    values the fields a turn gains with random placements, not the game: its
    equilibrium is that of a *myopic* game, and early in a game its entries
    are mostly within their standard errors of each other.

    ``continuation="exact"``: each entry is the value of the game after that
    pair of bids, both players then playing subgame-perfectly, on the returns'
    scale (X's expected result: +1 a win, -1 a loss, 0 a draw), found by
    :func:`gridwidgets.analysis.solve_simultaneous` with ``root_matrix=True``
    (every pair valued exactly; standard errors 0). Its equilibrium is the
    subgame-perfect one at this turn. Feasible for endgames only (a few turns
    from the end); ``SolveBudgetExceeded`` past ``time_limit``.

    Args:
        game: a Block Four game in the bid phase, before either player has bid.
        agent: ``"rollout"`` only: who makes the placements, for both players:
            ``None`` (a fresh :class:`~gridwidgets.agents.RandomAgent` per
            rollout, seeded from ``seed`` and the rollout number), an agent class
            or a function ``seed -> agent`` (called once per rollout), or one
            agent object used for every rollout (a deterministic agent then gives
            the same result each time; a seeded ``RandomAgent`` too, as its moves
            are a function of its seed and the position). The agent gets the
            game itself: in the placement phase nothing is hidden (BF-5).
        rollouts: ``"rollout"`` only: rollouts per pair, at least 1.
        seed: ``"rollout"`` only: seeds the rollouts: the same seed gives the same matrix.
        continuation: ``"rollout"`` or ``"exact"`` (see above).
        time_limit: ``"exact"`` only: seconds before giving up.
        progress: ``"exact"`` only: show the solver's progress bar.

    Returns:
        A :class:`BidTable` whose ``values`` is a ``float`` numpy array
        ``(len(rows), len(cols))``; ``stderr`` the standard error of each
        entry (zeros when exact); ``matches`` the shared cards per pair;
        ``continuation`` and ``scale`` say what the numbers are, and so does
        the title.

    Raises:
        ValueError: if the game is over, in its placement phase, or a bid is
            already in; ``rollouts`` below 1; an unknown ``continuation``.
        SolveBudgetExceeded: ``"exact"`` past ``time_limit`` (the position is
            too far from the end to solve exactly in that time).
    """
    _check_bid_phase(game, "bid_matrix")
    if continuation not in CONTINUATIONS:
        raise ValueError(f"continuation must be one of {', '.join(CONTINUATIONS)}, not {str(continuation)[:20]!r}")
    xs, os_ = _bids(game)
    matches = np.array([[len(set(x.cards) & set(o.cards)) for o in os_] for x in xs], dtype=int)
    if continuation == "exact":
        from ...analysis.simultaneous import solve_simultaneous

        root = solve_simultaneous(game, root_matrix=True, time_limit=time_limit, progress=progress).root
        assert root is not None
        return BidTable(
            rows=[str(b) for b in xs],
            cols=[str(b) for b in os_],
            values=root.lower.copy(),
            title=(f"Turn {game.turn}: X's expected result after each pair of bids (+1 a win, -1 a loss), "
                   "both then playing subgame-perfectly (exact)"),
            matches=matches,
            stderr=np.zeros((len(xs), len(os_))),
            rollouts=None,
            continuation="exact",
            scale="X's expected result",
        )
    if not isinstance(rollouts, int) or isinstance(rollouts, bool) or rollouts < 1:
        raise ValueError(f"rollouts must be an int of at least 1, got {rollouts!r}")
    make = _agent_factory(agent)
    # rollout r of every pair uses the same agent seed (common random numbers)
    seeds = [random.Random(f"bid_matrix|{seed}|{r}").getrandbits(31) for r in range(rollouts)]
    base = game.copy()
    values = np.zeros((len(xs), len(os_)), dtype=float)
    stderr = np.zeros_like(values)
    for i, x in enumerate(xs):
        for j, o in enumerate(os_):
            g = base.copy()
            g.play(x, player=0)
            g.play(o, player=1)
            if g.phase != "place":  # nothing to choose: two matches, or everything skipped
                values[i, j] = position_value(g)
                continue
            depth = len(g.history)
            results = []
            for s in seeds:
                a = make(s)
                while g.phase == "place":
                    p = g.current_player
                    g.play(a.choose(g), player=p)
                results.append(position_value(g))
                while len(g.history) > depth:  # back to the reveal, for the next rollout
                    g.undo()
            values[i, j] = sum(results) / len(results)
            if len(results) > 1:
                mean = values[i, j]
                var = sum((r - mean) ** 2 for r in results) / (len(results) - 1)
                stderr[i, j] = math.sqrt(var / len(results))
    return BidTable(
        rows=[str(b) for b in xs],
        cols=[str(b) for b in os_],
        values=values,
        title=(f"Turn {game.turn}: X's field lead after this turn only (fields X minus O, {WIN_VALUE} for a won "
               f"game), placements {_agent_words(agent)}, mean of {rollouts} rollouts with its standard error"),
        matches=matches,
        stderr=stderr,
        rollouts=rollouts,
        continuation="rollout",
        scale="X's field lead after the turn",
    )
