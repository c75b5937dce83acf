"""Matches that stop when the answer is clear: the sequential probability ratio test.

``sprt(game, a, b, elo0=0, elo1=100)`` plays agent ``a`` against agent ``b``
in pairs of games (the same game seed, seats swapped) and after every game
computes the log-likelihood ratio of "``a`` is ``elo1`` stronger" (H1)
against "``a`` is ``elo0`` stronger" (H0). The match stops as soon as the
ratio leaves the interval ``(log(beta / (1 - alpha)), log((1 - beta) /
alpha))``: above, H1 is accepted; below, H0 is. With a difference of at
least ``elo1`` the test wrongly accepts H0 at most about ``beta`` of the
time; with at most ``elo0`` it wrongly accepts H1 at most about ``alpha``.

Sources:

- A. Wald (1945), "Sequential Tests of Statistical Hypotheses", *Annals
  of Mathematical Statistics* 16(2), 117-186: the test and its bounds.
- The generalised SPRT of chess-engine testing (Stockfish's Fishtest,
  after M. Van den Bergh's notes on the GSPRT): each game scores 1, 1/2
  or 0 for ``a``; under each hypothesis the draw rate is unknown, so each
  side of the ratio is the largest trinomial likelihood of the results
  among the distributions with that hypothesis's expected score ``s = 1 /
  (1 + 10 ** (-elo / 400))`` (the logistic Elo model of
  :mod:`gridwidgets.analysis.tournament`).

Counts are regularised by a hundredth of a game of each result (win,
draw, loss) so that every expected score stays reachable from the first
game; the effect vanishes as games accumulate.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.game import Game
from ..sim import run_chunks
from .tournament import Z95, TournamentChunk, check_picklable, long_name_of, make_game

__all__ = ["SPRTResult", "llr", "sprt"]

#: pseudo-games of each result added to the counts (every expected score stays reachable)
PRIOR = 0.01


def expected_score(elo: float) -> float:
    """The logistic Elo model: the expected score of a player ``elo`` points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _log_likelihood(counts: tuple[float, float, float], s: float) -> float:
    """The largest log-likelihood of the win/draw/loss counts among the result
    distributions whose expected score is ``s`` (the constrained maximum:
    ``p_k = n_k / (n (1 + lam (a_k - s)))``, ``lam`` found by bisection)."""
    a = (1.0, 0.5, 0.0)
    n = sum(counts)
    dev = [x - s for x in a]
    lo = -1.0 / max(dev) + 1e-12
    hi = -1.0 / min(dev) - 1e-12

    def f(lam: float) -> float:
        return sum(c * d / (1.0 + lam * d) for c, d in zip(counts, dev, strict=True))

    for _ in range(200):  # f decreases in lam
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    lam = (lo + hi) / 2
    return sum(c * math.log(c / (n * (1.0 + lam * d))) for c, d in zip(counts, dev, strict=True) if c > 0)


def llr(wins: float, draws: float, losses: float, elo0: float, elo1: float) -> float:
    """The generalised SPRT log-likelihood ratio of H1 (``a`` is ``elo1``
    stronger) against H0 (``elo0``) for ``a``'s ``wins``, ``draws``,
    ``losses``: each hypothesis's best trinomial likelihood with that
    expected score (the draw rate is the nuisance parameter), counts
    regularised by ``PRIOR`` (0.01) each.

    Returns:
        The log-likelihood ratio (natural log): positive favours H1.
    """
    counts = (wins + PRIOR, draws + PRIOR, losses + PRIOR)
    return _log_likelihood(counts, expected_score(elo1)) - _log_likelihood(counts, expected_score(elo0))


@dataclass
class SPRTResult:
    """What :func:`sprt` returns.

    Attributes:
        names: the two agents' names, ``(a, b)``.
        decision: ``"H1"`` (the data favour "``a`` is ``elo1`` stronger"
            over "``a`` is ``elo0`` stronger", at the error rates asked for),
            ``"H0"`` (the data favour "``a`` is ``elo0`` stronger" over
            "``elo1`` stronger": with ``elo0=0``, no sign that ``a`` is
            stronger, not a proof that it is not; a difference between the
            two hypotheses is not what the test was built to tell) or
            ``"inconclusive"`` (``max_games`` reached first).
        llr: the log-likelihood ratio after each game (length ``games``).
        lower, upper: the bounds ``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``.
        wins, draws, losses: of ``a`` (a shared win counts as a draw, C-4).
        records: per game (as :class:`~gridwidgets.analysis.TournamentResult`'s).
        elo0, elo1, alpha, beta: the test asked for.
    """

    names: tuple[str, str]
    decision: str
    llr: list[float]
    lower: float
    upper: float
    wins: int
    draws: int
    losses: int
    records: list[dict[str, Any]]
    elo0: float
    elo1: float
    alpha: float
    beta: float
    game: str = ""
    seed: int | None = None
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def games(self) -> int:
        """Games played up to the decision."""
        return len(self.llr)

    @property
    def score(self) -> float:
        """``a``'s mean score: (wins + draws / 2) / games."""
        return (self.wins + self.draws / 2) / self.games if self.games else math.nan

    def elo(self) -> tuple[float, float, float]:
        """``a``'s Elo difference over ``b`` estimated from the score, with a
        95% interval (normal approximation of the mean score): ``(elo, low, high)``.
        (After a sequential stop the estimate is biased away from zero, as any
        estimate read at a stopping time.)"""
        n = self.games
        if not n:
            return (math.nan, math.nan, math.nan)
        m = self.score
        v = max((self.wins + self.draws / 4) / n - m * m, 0.0)
        half = Z95 * math.sqrt(v / n)

        def to_elo(s: float) -> float:
            s = min(max(s, 1e-6), 1 - 1e-6)
            return -400.0 * math.log10(1.0 / s - 1.0)

        return (to_elo(m), to_elo(m - half), to_elo(m + half))

    def __repr__(self) -> str:
        e, lo, hi = self.elo()
        return (f"<SPRTResult {self.names[0]} vs {self.names[1]}: {self.decision} after {self.games} games "
                f"(+{self.wins} ={self.draws} -{self.losses}), LLR {self.llr[-1] if self.llr else 0:.2f} in "
                f"[{self.lower:.2f}, {self.upper:.2f}], Elo {e:+.0f} ({lo:+.0f} to {hi:+.0f})>")

    def plot(self, ax: Any = None) -> Any:
        """The log-likelihood ratio after each game against its two bounds (matplotlib).

        Returns:
            The matplotlib ``Figure``.
        """
        import matplotlib.pyplot as plt

        if ax is None:
            fig, ax = plt.subplots(figsize=(7, 3.2), layout="constrained")
        else:
            fig = ax.figure
        x = np.arange(1, self.games + 1)
        ax.axhspan(self.upper, max(self.upper, *self.llr, 0) + 0.5, color="#16a34a", alpha=0.08)
        ax.axhspan(min(self.lower, *self.llr, 0) - 0.5, self.lower, color="#dc2626", alpha=0.08)
        ax.axhline(self.upper, color="#16a34a", lw=1.2, ls="--",
                   label=f"accept H1: {self.names[0]} +{self.elo1:g} Elo")
        ax.axhline(self.lower, color="#dc2626", lw=1.2, ls="--",
                   label=f"accept H0: {self.names[0]} +{self.elo0:g} Elo")
        ax.plot(x, self.llr, color="#2563eb", lw=1.6, label="log-likelihood ratio")
        if self.games:
            ax.plot([x[-1]], [self.llr[-1]], "o", color="#2563eb")
        ax.set_xlabel("games")
        ax.set_ylabel("LLR")
        e, lo, hi = self.elo()
        ax.set_title(f"{self.names[0]} vs {self.names[1]}: {self.decision} after {self.games} games, "
                     f"Elo {e:+.0f} [{lo:+.0f}, {hi:+.0f}]", fontsize=9, loc="left")
        ax.legend(fontsize=8, loc="best")
        return fig


def sprt(
    game_factory: type[Game] | Callable[..., Game],
    a: Any,
    b: Any,
    elo0: float = 0.0,
    elo1: float = 100.0,
    alpha: float = 0.05,
    beta: float = 0.05,
    max_games: int = 10_000,
    n_jobs: int | None = 1,
    batch: int | None = None,
    seed: int | None = None,
    progress: bool = True,
    names: tuple[str, str] = ("a", "b"),
    **game_options: Any,
) -> SPRTResult:
    """Play ``a`` against ``b`` until the SPRT decides (see the module docstring).

    Args:
        game_factory: a two-player game class (or a function making a game),
            as for :func:`~gridwidgets.analysis.tournament`.
        a: the first agent (an object with ``choose``, or a class/function of
            a seed; copied and seeded per game as in ``tournament``).
        b: the second agent, the same way.
        elo0: H0, ``a``'s Elo advantage over ``b`` under the null hypothesis.
        elo1: H1, the advantage under the alternative (``elo0 < elo1``).
        alpha: the error rate of accepting H1 when H0 holds.
        beta: the error rate of accepting H0 when H1 holds.
        max_games: stop undecided after this many games.
        n_jobs: processes (joblib; ``None``: the current ``parallel_config``,
            e.g. Dask). Games are played in batches and read in game order,
            so the decision and the number of games do not depend on it
            (games played past the decision are dropped).
        batch: games per batch (default: 2 with ``n_jobs=1``, else 16 per worker).
        seed: the root seed: game ``2k`` and ``2k + 1`` share their game's
            seed, with ``a`` in seat 0 and then in seat 1.
        progress: a tqdm bar per batch.
        names: the agents' names in the result and the plot.
        **game_options: options of the game.

    Returns:
        An :class:`SPRTResult` (``decision``, ``llr``, ``plot()``, ``elo()``).

    Raises:
        ValueError: bad error rates or Elo bounds, a game without exactly two players.
        TypeError: an agent that cannot be sent to worker processes (``n_jobs != 1``).
    """
    if not (0 < alpha < 0.5 and 0 < beta < 0.5):
        raise ValueError(f"alpha and beta must be in (0, 0.5), got {alpha!r} and {beta!r}")
    if not elo0 < elo1:
        raise ValueError(f"elo0 must be below elo1, got {elo0!r} and {elo1!r}")
    if not isinstance(max_games, int) or max_games < 2:
        raise ValueError(f"max_games must be an int >= 2, got {max_games!r}")
    probe = make_game(game_factory, game_options, 0)
    if len(probe.players) != 2:
        raise ValueError(f"sprt plays two-player games; {type(probe).__name__} here has {len(probe.players)}")
    names = (str(names[0]), str(names[1]))
    if names[0] == names[1]:
        raise ValueError(f"the two agents need different names, got {names!r}")
    specs = [a, b]
    if n_jobs != 1:
        check_picklable(dict(zip(names, specs, strict=True)), game_factory)
    if batch is None:
        if n_jobs == 1:
            batch = 2
        else:
            from joblib import effective_n_jobs

            batch = 16 * (effective_n_jobs() if n_jobs is None else effective_n_jobs(n_jobs))
    batch = max(2, int(batch) + int(batch) % 2)
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    root = np.random.SeedSequence(seed)
    work = TournamentChunk(game_factory, game_options, specs, list(names))
    counts = [0, 0, 0]  # a's wins, draws, losses
    trace: list[float] = []
    records: list[dict[str, Any]] = []
    decision = "inconclusive"
    pair_seeds = root.spawn((max_games + 1) // 2)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=max_games, desc=f"{long_name_of(probe)} SPRT", unit="game")
    try:
        start = 0
        while start < max_games and decision == "inconclusive":
            jobs = []
            for i in range(start, min(start + batch, max_games)):
                words = [int(w) for w in pair_seeds[i // 2].generate_state(3)]
                seats = (0, 1) if i % 2 == 0 else (1, 0)
                agent_seeds = (words[1], words[2]) if i % 2 == 0 else (words[2], words[1])
                jobs.append((i, seats, words[0], agent_seeds))
            done = run_chunks(work, jobs, n_jobs=n_jobs, progress=False, max_chunk=max(1, batch // 8))
            for rec in done:
                seat_a = rec["seats"].index(names[0])
                w = rec["winners"]
                counts[0 if w == (seat_a,) else 1 if seat_a in w else 2] += 1
                records.append(rec)
                trace.append(llr(*counts, elo0, elo1))
                if trace[-1] >= upper:
                    decision = "H1"
                elif trace[-1] <= lower:
                    decision = "H0"
                if decision != "inconclusive":
                    break
            if bar is not None:
                bar.update(len(records) - bar.n)
            start += batch
    finally:
        if bar is not None:
            bar.close()
    return SPRTResult(names=names, decision=decision, llr=trace, lower=lower, upper=upper, wins=counts[0],
                      draws=counts[1], losses=counts[2], records=records, elo0=float(elo0), elo1=float(elo1),
                      alpha=float(alpha), beta=float(beta), game=type(probe).__name__, seed=seed,
                      options=dict(game_options))
