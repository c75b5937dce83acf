"""Round-robin tournaments between agents, in parallel, with ratings.

``tournament(registry.get("..."), {"random": RandomAgent(), "greedy": G()}, games=200)``
plays the agents against each other in every seating, on as many processes
as asked (joblib), with a progress bar (tqdm), and returns a
:class:`TournamentResult`: a table of wins, draws and losses per agent with
a 95% Wilson interval on the win rate and Elo ratings fitted to the
pairwise results, the record of every game, and plots.

Sources:

- Wilson, E. B. (1927). "Probable inference, the law of succession, and
  statistical inference". *JASA* 22(158), 209-212: the score interval of a
  binomial proportion, used for the win rates.
- Bradley, R. A. & Terry, M. E. (1952). "Rank analysis of incomplete block
  designs: I. The method of paired comparisons". *Biometrika* 39, 324-345:
  the model ``P(i beats j) = g_i / (g_i + g_j)``.
- Hunter, D. R. (2004). "MM algorithms for generalized Bradley-Terry
  models". *Annals of Statistics* 32(1), 384-406: the iterative
  (minorisation-maximisation) fit of the strengths ``g_i`` used here.
- Elo, A. E. (1978). *The Rating of Chessplayers, Past and Present*: the
  rating scale, ``P(i beats j) = 1 / (1 + 10 ** ((R_j - R_i) / 400))``, so
  ``R_i = 400 * log10(g_i)`` up to a constant; ratings here have mean 1500.
- The prior of virtual draws follows Coulom's BayesElo
  (https://www.remi-coulom.fr/Bayesian-Elo/).
"""

from __future__ import annotations

import copy
import html
import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations
from typing import Any

import numpy as np

from ..core.game import Game
from ..core.gametype import Information
from ..sim import run_chunks

__all__ = ["TournamentResult", "check_picklable", "elo_ratings", "tournament", "wilson_interval"]

#: the 97.5% quantile of the standard normal: a two-sided 95% interval
Z95 = 1.959963984540054
ELO_MEAN = 1500.0


# ----------------------------------------------------------------------
# Statistics
# ----------------------------------------------------------------------
def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (Wilson 1927).

    Args:
        successes: the number of successes (wins), ``0 <= successes <= n``.
        n: the number of trials (games).
        z: the normal quantile; the default gives a 95% interval.

    Returns:
        ``(low, high)``, both in ``[0, 1]``; ``(nan, nan)`` when ``n == 0``.
        Unlike the normal (Wald) interval it stays inside ``[0, 1]`` and is
        not empty at 0 or ``n`` successes.
    """
    if n <= 0:
        return (math.nan, math.nan)
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)  # exactly 0 and 1 at the ends, not rounding noise
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return (low, high)


def elo_ratings(
    wins: np.ndarray, prior: float = 1.0, tol: float = 1e-10, max_iter: int = 100_000
) -> np.ndarray:
    """Elo ratings fitted to pairwise results by Bradley-Terry (Hunter 2004's MM algorithm).

    Args:
        wins: ``(k, k)`` array, ``wins[i, j]`` = the score of agent ``i``
            against agent ``j`` (a win 1, a draw 1/2 to each side).
        prior: virtual games added to every pair of agents that met, drawn
            (half a win to each side). It keeps ratings finite when an agent
            wins or loses every game, and pulls them a little toward each
            other (like BayesElo's prior). ``0`` gives the pure maximum
            likelihood fit, which is infinite in those cases.
        tol: stop when no log-strength changes by more than this.
        max_iter: at most this many MM iterations.

    Returns:
        ``k`` ratings on the Elo scale (400 points = odds of 10 to 1), with
        mean 1500 over the agents that played; ``nan`` for an agent that
        met nobody; ``+-inf`` where the pure MLE diverges (``prior=0``).

    The strengths ``g`` maximise the Bradley-Terry likelihood
    ``prod P(i beats j) ** wins[i, j]`` with ``P = g_i / (g_i + g_j)``; the
    MM update is ``g_i <- W_i / sum_j n_ij / (g_i + g_j)`` (Hunter 2004,
    eq. 3), ``W_i`` being i's total score and ``n_ij`` the games of i and j.
    """
    w = np.array(wins, dtype=float)
    if w.ndim != 2 or w.shape[0] != w.shape[1]:
        raise ValueError(f"wins must be a square array, got shape {w.shape}")
    if prior < 0:
        raise ValueError(f"prior must be >= 0, got {prior!r}")
    np.fill_diagonal(w, 0.0)
    n = w + w.T
    met = n > 0
    w = w + met * (prior / 2.0)
    n = w + w.T
    played = met.any(axis=1)
    total = w.sum(axis=1)
    g = np.where(played, 1.0, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        for _ in range(max_iter):
            denom = np.where(met, n / (g[:, None] + g[None, :]), 0.0).sum(axis=1)
            new = np.where(played & (denom > 0), total / np.where(denom > 0, denom, 1.0), 0.0)
            pos = new > 0
            if pos.any():
                new = new / np.exp(np.mean(np.log(new[pos])))  # fix the scale: geometric mean 1
            both = pos & (g > 0)
            change = float(np.max(np.abs(np.log(new[both]) - np.log(g[both])))) if both.any() else 0.0
            g = new
            if change < tol:
                break
        ratings = 400.0 * np.log10(g)
    ratings = np.where(played, ratings, np.nan)
    finite = np.isfinite(ratings)
    if finite.any():
        ratings[finite] += ELO_MEAN - float(np.mean(ratings[finite]))
    return ratings


# ----------------------------------------------------------------------
# Seating and seeds
# ----------------------------------------------------------------------
def _seatings(k: int, n: int, seating: str) -> list[tuple[int, ...]]:
    """Agent indices per seat for each table of the round robin (see :func:`tournament`)."""
    if seating == "auto":
        seating = "permutations" if n <= 2 else "rotations"
    if k >= n:
        if seating == "permutations":
            return list(permutations(range(k), n))
        return [tuple(combo[(s + r) % n] for s in range(n)) for combo in combinations(range(k), n) for r in range(n)]
    # fewer agents than seats: they fill the table in turn (a, b, c, a), each
    # agent taking the extra seats in its turn (b, c, a, b), (c, a, b, c)
    fields = [tuple((o + i) % k for i in range(n)) for o in range(k)]
    if seating == "permutations":
        return list(dict.fromkeys(p for f in fields for p in permutations(f)))
    return list(dict.fromkeys(tuple(f[(s + r) % n] for s in range(n)) for f in fields for r in range(n)))


def check_picklable(agents: Mapping[str, Any], game_factory: Any = None) -> None:
    """Check that the agents (and the game factory) can be sent to worker
    processes, before any worker starts: joblib, Dask and Ray pickle them
    with cloudpickle.

    Raises:
        TypeError: naming the first agent that cannot be pickled, and why.
    """
    import cloudpickle

    items = list(agents.items()) + ([("the game factory", game_factory)] if game_factory is not None else [])
    for name, spec in items:
        try:
            cloudpickle.dumps(spec)
        except Exception as exc:
            what = name if name == "the game factory" else f"agent {name[:40]!r}"
            raise TypeError(
                f"{what} cannot be sent to worker processes ({type(exc).__name__}: {str(exc)[:80]}): "
                "keep open files, locks and widgets out of it, or play with n_jobs=1"
            ) from None


def make_game(factory: Any, options: dict[str, Any], seed: int) -> Game:
    if isinstance(factory, type) and issubclass(factory, Game):
        return factory.new_for_seed(options, seed)
    game = factory(**options)
    if not all(hasattr(game, a) for a in ("legal_moves", "play", "is_over", "players", "winners")):
        raise TypeError(f"game_factory must make a game, got {type(game).__name__}")
    return game


def fresh_agent(spec: Any, seed: int) -> Any:
    """The agent for one seat of one game, seeded with ``seed`` (see :func:`tournament`)."""
    if isinstance(spec, type) or not callable(getattr(spec, "choose", None)):
        return spec(seed)  # a class or a function of the seed
    agent = copy.deepcopy(spec)
    if callable(getattr(agent, "reseed", None)):
        agent.reseed(seed)
    elif hasattr(agent, "seed") and not callable(agent.seed):
        agent.seed = seed
    if callable(getattr(agent, "reset", None)):
        agent.reset()
    return agent


def _play_one(factory: Any, options: dict[str, Any], specs: Sequence[Any], names: Sequence[str],
              job: tuple[int, tuple[int, ...], int, tuple[int, ...]]) -> dict[str, Any]:
    index, seats, game_seed, agent_seeds = job
    game = make_game(factory, options, game_seed)
    players = [fresh_agent(specs[a], s) for a, s in zip(seats, agent_seeds, strict=True)]
    gt = getattr(type(game), "game_type", None)
    hidden = gt is not None and gt.information is Information.IMPERFECT  # agents get a view
    while not game.is_over:
        p = game.current_player
        try:
            move = players[p].choose(game.view_for(p) if hidden else game)
            game.play(move, player=p)
        except Exception as exc:
            raise RuntimeError(
                f"game {index}: agent {names[seats[p]]!r} in seat {p} ({game.players[p]}) failed after "
                f"{len(game.history)} moves: {exc!r}"
            ) from exc
    winners = tuple(int(w) for w in game.winners)
    return {
        "game": index,
        "seats": tuple(names[a] for a in seats),
        "winners": winners,
        "winner_agents": tuple(names[seats[w]] for w in winners),
        "returns": tuple(float(r) for r in game.returns()),
        "scores": tuple(int(s) for s in game.scores),
        "length": len(game.history),
        "seed": game_seed,
    }


def long_name_of(game: Any) -> str:
    gt = getattr(type(game), "game_type", None)
    return gt.long_name if gt is not None else type(game).__name__


class TournamentChunk:
    """The work of :func:`tournament` for :func:`~gridwidgets.sim.run_chunks`: games by job (picklable)."""

    def __init__(self, factory: Any, options: dict[str, Any], specs: Sequence[Any], names: Sequence[str]) -> None:
        self.factory, self.options, self.specs, self.names = factory, options, specs, names

    def __call__(self, jobs: list[Any]) -> list[dict[str, Any]]:
        return [_play_one(self.factory, self.options, self.specs, self.names, job) for job in jobs]


# ----------------------------------------------------------------------
# The result
# ----------------------------------------------------------------------
@dataclass
class TournamentResult:
    """What :func:`tournament` returns.

    Attributes:
        agents: the agents' names, in the order given.
        records: one dict per game, in game order: ``game`` (its number),
            ``seats`` (agent name per seat, seat = player id), ``winners``
            (winning or drawing seats, RULES C-4), ``winner_agents``,
            ``returns`` and ``scores`` per seat, ``length`` (moves played,
            skips included), ``seed`` (the game's seed).
        seatings: the tables of the round robin (agent names per seat),
            played in turn.
        game: the game's class name; ``options`` its options.
        seed: the seed given; ``entropy`` the root entropy actually used
            (pass it as ``seed`` to replay a tournament run with ``seed=None``).
        elo_prior: virtual drawn games per pair in the Elo fit (:func:`elo_ratings`).
    """

    agents: list[str]
    records: list[dict[str, Any]]
    seatings: list[tuple[str, ...]]
    n_players: int
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    entropy: int | None = None
    elo_prior: float = 1.0

    # -- numbers --------------------------------------------------------
    def counts(self) -> dict[str, dict[str, int]]:
        """Per agent: ``games`` (seats played), ``wins`` (sole winner),
        ``draws`` (a shared win or a draw, RULES C-4), ``losses``."""
        out = {a: {"games": 0, "wins": 0, "draws": 0, "losses": 0} for a in self.agents}
        for rec in self.records:
            w = rec["winners"]
            for s, a in enumerate(rec["seats"]):
                c = out[a]
                c["games"] += 1
                if s in w:
                    c["wins" if len(w) == 1 else "draws"] += 1
                else:
                    c["losses"] += 1
        return out

    def pairwise_scores(self) -> tuple[np.ndarray, np.ndarray]:
        """``(score, games)``, two ``(k, k)`` arrays over the agents:
        ``score[i, j]`` is what agent ``i`` scored against agent ``j``,
        ``games[i, j]`` how many comparisons they had.

        Each game is split into pairs of seats held by different agents:
        the seat with the higher return beats the other (1 - 0); two seats
        that share a win or a draw score 1/2 each; two seats that both lost
        (games of 3 or 4 players) are not compared: the game does not rank
        them. In a 2-player game that is just the game's result.
        """
        index = {a: i for i, a in enumerate(self.agents)}
        k = len(self.agents)
        score = np.zeros((k, k))
        games = np.zeros((k, k))
        for rec in self.records:
            seats, ret, w = rec["seats"], rec["returns"], rec["winners"]
            for s, t in combinations(range(len(seats)), 2):
                i, j = index[seats[s]], index[seats[t]]
                if i == j:
                    continue
                if ret[s] > ret[t]:
                    score[i, j] += 1
                elif ret[t] > ret[s]:
                    score[j, i] += 1
                elif s in w and t in w:
                    score[i, j] += 0.5
                    score[j, i] += 0.5
                else:
                    continue
                games[i, j] += 1
                games[j, i] += 1
        return score, games

    @property
    def elo(self) -> dict[str, float]:
        """Per agent, the Elo rating fitted to :meth:`pairwise_scores` (see :func:`elo_ratings`)."""
        score, _ = self.pairwise_scores()
        r = elo_ratings(score, prior=self.elo_prior)
        return {a: float(x) for a, x in zip(self.agents, r, strict=True)}

    def rows(self) -> list[dict[str, Any]]:
        """The rows of :attr:`table` as dicts, best Elo first (no pandas needed)."""
        counts = self.counts()
        elo = self.elo
        out = []
        for a in self.agents:
            c = counts[a]
            n = c["games"]
            lo, hi = wilson_interval(c["wins"], n)
            out.append({
                "agent": a,
                "games": n,
                "wins": c["wins"],
                "draws": c["draws"],
                "losses": c["losses"],
                "win_rate": c["wins"] / n if n else math.nan,
                "win_rate_low": lo,
                "win_rate_high": hi,
                "score": (c["wins"] + c["draws"] / 2) / n if n else math.nan,
                "elo": elo[a],
            })
        out.sort(key=lambda r: -r["elo"] if math.isfinite(r["elo"]) else math.inf)
        return out

    # -- pandas ---------------------------------------------------------
    @property
    def table(self) -> Any:
        """A ``pandas.DataFrame`` indexed by agent, best Elo first, columns:
        ``games`` (seats played), ``wins``, ``draws`` (shared wins and
        draws), ``losses``, ``win_rate`` (wins / games), ``win_rate_low`` and
        ``win_rate_high`` (its 95% Wilson interval), ``score`` ((wins +
        draws / 2) / games), ``elo`` (Bradley-Terry fit on the Elo scale,
        mean 1500).

        Raises:
            ImportError: without pandas.
        """
        pd = _pandas()
        return pd.DataFrame(self.rows()).set_index("agent")

    @property
    def games(self) -> Any:
        """The per-game records (:attr:`records`) as a ``pandas.DataFrame``, one row per game."""
        pd = _pandas()
        return pd.DataFrame(self.records).set_index("game")

    @property
    def pairwise(self) -> Any:
        """``pandas.DataFrame``: the score rate of the row agent against the
        column agent (wins + draws / 2 over their comparisons, see
        :meth:`pairwise_scores`); ``NaN`` where they never met."""
        pd = _pandas()
        score, games = self.pairwise_scores()
        with np.errstate(invalid="ignore", divide="ignore"):
            rate = np.where(games > 0, score / np.where(games > 0, games, 1), np.nan)
        return pd.DataFrame(rate, index=pd.Index(self.agents, name="agent"), columns=self.agents)

    # -- displays -------------------------------------------------------
    def _caption(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return (f"{self.game}({opts}): {len(self.records)} games, {len(self.agents)} agents, "
                f"{len(self.seatings)} seatings, seed {self.seed!r}")

    def __repr__(self) -> str:
        return f"<TournamentResult {self._caption()}>"

    def __str__(self) -> str:
        lines = [self._caption(), f"{'agent':<24} {'games':>5} {'W':>5} {'D':>5} {'L':>5} "
                 f"{'win rate':>8} {'95% Wilson':>13} {'Elo':>7}"]
        for r in self.rows():
            lines.append(
                f"{r['agent'][:24]:<24} {r['games']:>5} {r['wins']:>5} {r['draws']:>5} {r['losses']:>5} "
                f"{r['win_rate']:>8.3f} {r['win_rate_low']:>6.3f}-{r['win_rate_high']:<6.3f} {r['elo']:>7.1f}"
            )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """The table as HTML (no pandas needed): one row per agent, best Elo first."""
        b = "padding:2px 8px;border:1px solid #ccc"
        heads = ["agent", "games", "wins", "draws", "losses", "win rate", "95% Wilson", "score", "Elo"]
        out = ['<table class="gw-tournament" style="border-collapse:collapse;font-size:12px">',
               f'<caption style="caption-side:top;text-align:left;font-weight:bold">'
               f"{html.escape(self._caption())}</caption><tr>"]
        out += [f'<th style="{b}">{h}</th>' for h in heads]
        out.append("</tr>")
        for r in self.rows():
            cells = [html.escape(r["agent"]), r["games"], r["wins"], r["draws"], r["losses"],
                     f"{r['win_rate']:.3f}", f"{r['win_rate_low']:.3f} – {r['win_rate_high']:.3f}",
                     f"{r['score']:.3f}", f"{r['elo']:.0f}"]
            out.append("<tr>" + "".join(
                f'<td style="{b};text-align:{"left" if i == 0 else "right"}">{c}</td>' for i, c in enumerate(cells)
            ) + "</tr>")
        out.append("</table>")
        return "".join(out)

    def plot(self, figsize: tuple[float, float] | None = None) -> Any:
        """Two panels (matplotlib): left, each agent's win rate with its 95%
        Wilson interval (and its Elo in the label), best first; right, the
        pairwise score rates (row agent against column agent).

        Returns:
            The matplotlib ``Figure`` (``fig.axes[0]`` the win rates,
            ``fig.axes[1]`` the pairwise matrix).
        """
        import matplotlib.pyplot as plt

        rows = self.rows()
        k = len(rows)
        if figsize is None:
            figsize = (max(9.0, 4.0 + 1.1 * k), max(3.0, 1.4 + 0.5 * k))
        fig, (ax, ax2) = plt.subplots(1, 2, figsize=figsize, layout="constrained")
        y = np.arange(k)
        rate = np.array([r["win_rate"] for r in rows])
        lo = np.array([r["win_rate_low"] for r in rows])
        hi = np.array([r["win_rate_high"] for r in rows])
        ax.barh(y, rate, color="#3b82f6", height=0.6)
        ax.errorbar(rate, y, xerr=[rate - lo, hi - rate], fmt="none", ecolor="#111", capsize=4)
        ax.set_yticks(y, [f"{r['agent']}\nElo {r['elo']:.0f}" for r in rows])
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.set_xlabel("win rate (95% Wilson interval)")
        ax.set_title(self._caption(), fontsize=8, loc="left")
        score, games = self.pairwise_scores()
        order = [self.agents.index(r["agent"]) for r in rows]
        with np.errstate(invalid="ignore", divide="ignore"):
            rate2 = np.where(games > 0, score / np.where(games > 0, games, 1), np.nan)[np.ix_(order, order)]
        im = ax2.imshow(rate2, cmap="RdBu", vmin=0, vmax=1)
        for i in range(k):
            for j in range(k):
                if np.isfinite(rate2[i, j]):
                    ax2.text(j, i, f"{rate2[i, j]:.2f}", ha="center", va="center", fontsize=8)
        names = [r["agent"] for r in rows]
        ax2.set_xticks(range(k), names, rotation=30, ha="right")
        ax2.set_yticks(range(k), names)
        ax2.set_title("score of row against column", fontsize=9)
        fig.colorbar(im, ax=ax2, fraction=0.046, pad=0.04)
        return fig


def _pandas() -> Any:
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - pandas is in the dev extras
        raise ImportError("TournamentResult tables need pandas: pip install pandas") from exc
    return pd


# ----------------------------------------------------------------------
# The tournament
# ----------------------------------------------------------------------
def tournament(
    game_factory: type[Game] | Callable[..., Game],
    agents: Mapping[str, Any],
    games: int = 200,
    n_jobs: int | None = 1,
    seed: int | None = None,
    progress: bool = True,
    seating: str = "auto",
    elo_prior: float = 1.0,
    **game_options: Any,
) -> TournamentResult:
    """Play a round robin between ``agents`` and rate them.

    Args:
        game_factory: a game class (``registry.get(name)``; each game is made with
            its ``new_for_seed(game_seed, **game_options)``, so a game with
            a random setup gets the game's seed), or any
            function returning a new game, called as ``game_factory(**game_options)``.
        agents: ``{name: agent}``. An agent is an object with
            ``choose(game)`` (see :mod:`gridwidgets.agents`), or a class or
            function called as ``spec(seed)`` to make a fresh agent per seat
            and game. Agent objects must be picklable for ``n_jobs != 1``.
        games: the number of games, in all. They go through the seatings in
            turn (game ``i`` uses seating ``i % len(seatings)``): take a
            multiple of ``len(res.seatings)`` for a balanced schedule.
        n_jobs: processes (joblib): ``1`` plays in this process, ``-1`` on
            every core; ``None`` takes joblib's current
            ``joblib.parallel_config`` (e.g. a Dask or Ray cluster, see
            ``docs/tournaments.md``). The results do not depend on it.
        seed: the root seed; with the same seed the results are identical
            whatever ``n_jobs``. ``None``: fresh entropy, kept in ``res.entropy``.
        progress: show a tqdm progress bar (nothing is printed with ``False``).
        seating: how agents are seated (seat = player id, seat 0 moves first):

            - ``"permutations"``: every ordered choice of distinct agents for
              the seats; for a 2-player game, every ordered pairing, so each
              pair meets with each agent as X and as O;
            - ``"rotations"``: every set of ``n`` agents for an ``n``-player
              game, each in its ``n`` cyclic seat rotations, so every agent
              holds every seat equally often (``n`` tables per set, not
              ``n!``);
            - ``"auto"`` (default): permutations for 1 and 2 players,
              rotations for 3 and more.

            With fewer agents than seats, the agents fill the table in turn
            (``a, b, c, a``; then ``b, c, a, b`` and ``c, a, b, c``, so each
            takes the extra seats equally often) and the distinct
            arrangements of those tables are played.
        elo_prior: virtual drawn games per pair in the Elo fit (see :func:`elo_ratings`).
        **game_options: options of the game (``rows=3, cols=3``).

    Returns:
        A :class:`TournamentResult`: ``table`` (wins, draws, losses, win rate
        with a 95% Wilson interval, Elo), ``games`` (per game: seats,
        winners, length, ...), ``pairwise``, ``plot()``.

    Seeds: ``numpy.random.SeedSequence(seed).spawn(games)`` gives each game
    its own child sequence; its first 32-bit word seeds the game (its
    setup), the next ones the seats' agents. Before each game every agent
    object is copied (``copy.deepcopy``, the object given is never used or
    changed), then seeded with its seat's seed: ``agent.reseed(seed)`` if it
    has that method, else its ``seed`` attribute is set if it has one (as
    :class:`~gridwidgets.agents.RandomAgent`), then ``agent.reset()``. So
    each game is a function of the root seed and its number only, and the
    same seed gives the same tournament on 1 process or 100. An agent with
    neither ``reseed`` nor ``seed`` is used as it is (deterministic agents).
    Agents of games with hidden information are given
    ``game.view_for(player)``; others the game itself (they must not
    change it).

    Raises:
        ValueError: for no agents, ``games < 0``, an unknown ``seating``.
        TypeError: with ``n_jobs != 1``, an agent that cannot be pickled
            (named, before any worker starts).
        RuntimeError: an agent failed or chose an illegal move (naming the
            game, agent and seat).
    """
    if not isinstance(agents, Mapping) or not agents:
        raise ValueError("agents must be a non-empty dict {name: agent}")
    if not isinstance(games, (int, np.integer)) or isinstance(games, bool) or games < 0:
        raise ValueError(f"games must be a non-negative int, got {games!r}")
    if seating not in ("auto", "permutations", "rotations"):
        raise ValueError(f"seating must be 'auto', 'permutations' or 'rotations', got {seating!r}")
    names = [str(a) for a in agents]
    specs = list(agents.values())
    probe = make_game(game_factory, game_options, 0)  # checks the options, with a clear error
    if n_jobs != 1:
        check_picklable(dict(zip(names, specs, strict=True)), game_factory)
    n = len(probe.players)
    tables = _seatings(len(names), n, seating)
    if 0 < games < len(tables):
        warnings.warn(f"{games} games do not cover the {len(tables)} seatings: the schedule is unbalanced",
                      RuntimeWarning, stacklevel=2)
    root = np.random.SeedSequence(seed)
    jobs = []
    for i, child in enumerate(root.spawn(int(games))):
        words = [int(w) for w in child.generate_state(n + 1)]
        jobs.append((i, tables[i % len(tables)], words[0], tuple(words[1:])))

    records = run_chunks(TournamentChunk(game_factory, game_options, specs, names), jobs, n_jobs=n_jobs,
                         progress=progress, desc=f"{long_name_of(probe)} tournament", max_chunk=50)
    return TournamentResult(
        agents=names,
        records=records,
        seatings=[tuple(names[a] for a in t) for t in tables],
        n_players=n,
        game=type(probe).__name__,
        options=dict(game_options) if game_options else probe.options(),
        seed=seed,
        entropy=int(root.entropy),  # type: ignore[arg-type]
        elo_prior=elo_prior,
    )
