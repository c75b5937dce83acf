"""The rules lab: is a variant fair, decisive, deep?

``measure(cls, rows=[3, 4, 5], cols=[3, 4, 5])`` plays seeded
self-play games of every variant in the grid of options (the product of
the lists; single values are fixed) and returns a ``pandas.DataFrame``,
one row per variant: the behaviour measures Ludii computes for every game,
the exact solver's verdict where it settles the variant within a budget,
and optionally a skill trace. Any game class works, a registered one or a
subclass defined in a notebook cell (a changed rule): each variant is
first checked by :func:`~gridwidgets.testing.check_game` and refused,
saying what failed, if it breaks the game protocol.

The measures (Browne 2008; their names and definitions as in Ludii's
``metrics`` package, Stephenson et al.), per variant over its ``games``:

``advantage``
    share of games the first player (seat 1, player 0) wins alone (Ludii's AdvantageP1).
``win_p1`` .. ``win_pN``
    the same for every seat.
``balance``
    ``1 - max |win_pa - win_pb|`` over pairs of seats (1: every seat wins
    as often).
``completion``
    share of games with a sole winner (not a draw, a shared win or a timeout).
``drawishness``
    share of games that end without a sole winner (a draw or a shared win,
    rule C-4), timeouts not counted.
``timeouts``
    share of games cut at ``max_moves`` before they ended.
``duration_moves``, ``duration_moves_sd``
    the mean and standard deviation of the moves per game (Ludii's
    DurationMoves: every move of every player; a bid at a simultaneous node
    counts one per player).
``branching_factor``
    legal moves per decision, averaged within each game, then over games.
``decision_moves``
    share of decisions with more than one legal move (per game, averaged).
``board_coverage``
    share of the board's cells whose content changed at some point of the
    game (Ludii's BoardCoverageDefault, on ``game.board``).
``lead_change``
    times the leader changed, per move (per game, averaged; Ludii's Lead
    Change). The leaders are the players of highest ``evaluate(player)``
    (the game's heuristic), or of highest ``scores`` for a game without
    one, and at the end those of highest ``returns()``.

Rates come with a 95% Wilson interval (``<name>_low``, ``<name>_high``;
Wilson 1927), means with a 95% normal interval of the mean
(``mean +- 1.96 * sd / sqrt(n)``). Outcome measures count every game; the
four trace measures (branching factor to lead change) need each position
and count the first ``trace_games`` games when the outcomes come from a
compiled kernel, replayed move by move through ``play()``: the very games
the kernel played (checked, game by game).

With ``agent=None`` (the default) every seat plays uniformly random legal
moves: game ``i`` of a variant is game ``i`` of
``simulate(cls, games, seed=<the variant's seed>, **options)``, compiled
where the game has a kernel (:mod:`gridwidgets.fast`). Any agent (an
object with ``choose(game)``, or a class or function of a seed, as in
:func:`~gridwidgets.analysis.tournament`) plays every seat instead, each
seat its own copy seeded from the game's seed.

The skill trace (Browne 2008, section 5; Ludii's "skill trace"): agents at
increasing budgets, e.g. MCTS at 16, 32, 64 simulations (each twice the
one before) or 4, 16, 64 (each four times), play the step above against
the step below, the stronger in each seat in turn; the stronger agent's
score per step (1 a sole win, ``1/k`` a win shared by ``k``, 0 a loss)
with its Wilson interval, and the slope of a least-squares line through
the steps. A score whose interval lies above a fair share (``1/players``)
means the extra search wins more than its share at that step: the variant
rewards thinking there. A score whose interval holds the fair share shows
no such gain at those budgets and with those games; it says nothing of
luck (a game without chance moves has none): a larger budget, or more
games, may still show one.

Kingmaking (:func:`kingmaking`): how often a player who can no longer win
decides, by its choice of move, which other player does. Defined and
measured in :func:`kingmaker_choice` and :func:`kingmaking`.

Sources:

- Browne, C. (2008). *Automatic Generation and Evaluation of Recombination
  Games*. PhD thesis, Queensland University of Technology.
- Stephenson, M., Piette, E., Soemers, D. J. N. J. & Browne, C. (2019).
  "An overview of the Ludii general game system". *IEEE Conference on
  Games*; the measures in Ludii's ``Evaluation/src/metrics``.
- Wilson, E. B. (1927). "Probable inference, the law of succession, and
  statistical inference". *JASA* 22(158), 209-212.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import time
import zlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .analysis.tournament import Z95, check_picklable, fresh_agent, wilson_interval
from .core.game import Game
from .core.gametype import Information, why_unsolvable
from .sim import game_seeds, run_chunks

__all__ = ["KINGMAKING_COLUMNS", "MAX_VARIANTS", "MEANS", "RATES", "RECORD_COLUMNS", "SharedFrame", "durations",
           "heatmap", "kingmaker_choice", "kingmaking", "measure", "measures", "play_traced", "seat_bars",
           "skill_curve", "skill_trace", "typical_game", "variants"]

#: the most variants one grid may hold
MAX_VARIANTS = 10_000
#: the measures that are rates, each with a Wilson interval (``_low``, ``_high``)
RATES = ("advantage", "completion", "drawishness", "timeouts")
#: the measures that are means over games, each with a normal interval of the mean
MEANS = ("duration_moves", "branching_factor", "decision_moves", "board_coverage", "lead_change")
#: the per-game columns the measures read (what a Parquet run keeps of each game)
RECORD_COLUMNS = ("game", "seed", "winners", "length", "timeout", "branching_factor", "decision_moves",
                  "board_coverage", "lead_change", "moves")
_FORMAT = 1


class SharedFrame(pd.DataFrame):
    """A table that pandas shares instead of copying when it copies a table's
    ``attrs`` (it deep-copies them on every operation on the table): the
    games of a run, which can be millions, ride along with :func:`measure`'s
    table at no cost. What is computed from it is a plain ``DataFrame``."""

    @property
    def _constructor(self) -> type[pd.DataFrame]:
        return pd.DataFrame

    def __deepcopy__(self, memo: dict[int, Any]) -> SharedFrame:
        return self


# ----------------------------------------------------------------------
# The grid of variants
# ----------------------------------------------------------------------
def variants(**grid: Any) -> list[dict[str, Any]]:
    """The variants of a grid of options: the product of the values given as
    lists or ranges, the other values fixed (a tuple is one value, e.g. a
    table of cards ``("L", "T")``), in the order given
    (``variants(rows=[3, 4], cols=[3, 4])`` is four dicts, ``cols``
    changing fastest).

    Raises:
        ValueError: an empty list of values, or more than :data:`MAX_VARIANTS` variants.
    """
    names = list(grid)
    axes = []
    total = 1
    for name in names:
        value = grid[name]
        values = list(value) if isinstance(value, (list, range)) else [value]
        if not values:
            raise ValueError(f"option {name[:40]!r} has no values to try")
        total *= len(values)
        if total > MAX_VARIANTS:
            raise ValueError(f"the grid holds more than {MAX_VARIANTS:,} variants: measure fewer at once")
        axes.append(values)
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*axes)]


def _label(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in options.items()) or "default options"


def _variant_seed(seed: int, options: Mapping[str, Any]) -> int:
    """The root seed of one variant's games: a function of ``seed`` and the
    variant's options only, so adding variants to a grid changes no other."""
    key = zlib.crc32(json.dumps(options, sort_keys=True, default=repr).encode())
    return int(np.random.SeedSequence([seed, key]).generate_state(1)[0])


def _check_variant(cls: type[Game], options: dict[str, Any], games: int, seed: int) -> Game:
    """A game of the variant, once :func:`~gridwidgets.testing.check_game` passes on it.

    Raises:
        ValueError: the options are refused, or the variant breaks the protocol (what failed).
    """
    from .testing import GameCheckError, check_game

    try:
        probe = cls(**options)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{cls.__name__}({_label(options)[:80]}) is refused: {str(exc)[:160]}") from None
    if games:
        try:
            check_game(cls, n_games=games, seed=seed, widget=False, **options)
        except GameCheckError as exc:
            raise ValueError(f"the variant {cls.__name__}({_label(options)[:80]}) fails check_game, so the lab "
                             f"does not measure it: {str(exc)[:300]}") from None
    return probe


# ----------------------------------------------------------------------
# One game, move by move
# ----------------------------------------------------------------------
def _leaders(game: Game) -> frozenset[int]:
    n = len(game.players)
    if game.is_over:
        values: Sequence[float] = game.returns()
    else:
        ev = [game.evaluate(p) for p in range(n)]
        values = game.scores if any(v is None for v in ev) else ev  # type: ignore[assignment]
    best = max(values)
    return frozenset(p for p in range(n) if values[p] == best)


def play_traced(game: Game, seed: int, agents: Sequence[Any] | None = None,
                max_moves: int | None = None) -> dict[str, Any]:
    """Play ``game`` to its end (or ``max_moves``) and measure it on the way.

    Args:
        game: the start (changed: it is played).
        seed: with ``agents=None``, seeds the uniformly random moves exactly as
            ``Game._rollout(game, random.Random(seed))`` (the game ``simulate``
            plays with that seed); else the game's record only.
        agents: one agent per seat (``choose(game)``), or ``None``.
        max_moves: a cap on the moves (a timeout), ``None`` for none.

    Returns:
        The game's record: ``seed``, ``winners`` (tuple), ``length`` (moves),
        ``timeout``, ``branching_factor``, ``decision_moves``,
        ``board_coverage``, ``lead_change`` and ``moves`` (JSON: a list of
        ``[player, notation]`` in the order played).
    """
    rng = random.Random(seed)
    hidden = type(game).game_type.information is Information.IMPERFECT
    start = np.asarray(game.board).copy()
    changed = np.zeros(start.shape, dtype=bool)
    counts: list[int] = []
    played: list[list[Any]] = []
    leaders = _leaders(game)
    changes = 0
    cap = max_moves if max_moves is not None else math.inf
    while not game.is_over and len(game.history) < cap:
        if agents is None and game._has_joint and game._simultaneous():
            for p in game.players_to_move:  # as Game._rollout: each player in turn, one draw each
                moves = game.legal_moves(p)
                counts.append(len(moves))
                played.append([p, str(game.play(moves[rng.randrange(len(moves))], player=p))])
        elif agents is None:
            counts.append(len(game.legal_moves()))
            moves = game.search_moves()
            played.append([game.current_player, str(game.play(moves[rng.randrange(len(moves))]))])
        else:
            p = game.current_player
            assert p is not None
            counts.append(len(game.legal_moves(p)))
            move = agents[p].choose(game.view_for(p) if hidden else game)
            played.append([p, str(game.play(move, player=p))])
        changed |= np.asarray(game.board) != start
        now = _leaders(game)
        changes += now != leaders
        leaders = now
    length = len(game.history)
    c = np.asarray(counts, dtype=float)
    return {
        "seed": int(seed),
        "winners": tuple(int(w) for w in game.winners),
        "length": length,
        "timeout": not game.is_over,
        "branching_factor": float(c.mean()) if len(c) else math.nan,
        "decision_moves": float((c > 1).mean()) if len(c) else math.nan,
        "board_coverage": float(changed.mean()) if changed.size else math.nan,
        "lead_change": changes / length if length else math.nan,
        "moves": json.dumps(played, separators=(",", ":")),
    }


class _Games:
    """The work of one variant for :func:`~gridwidgets.sim.run_chunks`: traced games by seed (picklable)."""

    def __init__(self, cls: type[Game], options: dict[str, Any], agent: Any, max_moves: int | None) -> None:
        self.cls, self.options, self.agent, self.max_moves = cls, options, agent, max_moves

    def __call__(self, seeds: list[int]) -> list[dict[str, Any]]:
        out = []
        for s in seeds:
            game = self.cls.new_for_seed(self.options, s)
            agents = None
            if self.agent is not None:
                words = np.random.SeedSequence([s, 1]).generate_state(len(game.players))
                agents = [fresh_agent(self.agent, int(w)) for w in words]
            out.append(play_traced(game, s, agents, self.max_moves))
        return out


def _compiled(probe: Game, agent: Any, max_moves: int | None) -> bool:
    """True when the outcomes come from ``simulate``'s compiled kernel."""
    from . import fast

    return (agent is None and max_moves is None and probe.max_game_length() is not None
            and fast.enabled() and fast.kernel(probe) is not None)


def _play_variant(cls: type[Game], options: dict[str, Any], probe: Game, games: int, vseed: int, agent: Any,
                  trace_games: int, max_moves: int | None, n_jobs: int | None) -> pd.DataFrame:
    """The records of one variant's games (:data:`RECORD_COLUMNS`), game order."""
    from .sim import simulate

    seeds = game_seeds(games, vseed)
    if max_moves is None and probe.max_game_length() is None:
        max_moves = 10_000
    work = _Games(cls, options, agent, max_moves)
    if not _compiled(probe, agent, max_moves):
        frame = pd.DataFrame(run_chunks(work, seeds, n_jobs=n_jobs, progress=False), columns=RECORD_COLUMNS[1:])
    else:
        rows = simulate(cls, games, seed=vseed, n_jobs=n_jobs, progress=False, **options)
        frame = pd.DataFrame({"seed": seeds, "winners": list(rows["winners"]), "length": rows["length"].to_numpy(),
                              "timeout": False})
        traced = run_chunks(work, seeds[:trace_games], n_jobs=n_jobs, progress=False)
        for i, rec in enumerate(traced):
            if rec["winners"] != frame.at[i, "winners"] or rec["length"] != frame.at[i, "length"]:
                raise RuntimeError(f"{cls.__name__}({_label(options)[:60]}): game {i} replayed move by move "
                                   "differs from the compiled game; run with gridwidgets.fast.set_enabled(False)")
        for col in ("branching_factor", "decision_moves", "board_coverage", "lead_change"):
            frame[col] = [r[col] for r in traced] + [math.nan] * (games - len(traced))
        frame["moves"] = [r["moves"] for r in traced] + [""] * (games - len(traced))
    frame.insert(0, "game", range(games))
    frame["timeout"] = frame["timeout"].astype(bool)
    return frame[list(RECORD_COLUMNS)]


# ----------------------------------------------------------------------
# The measures of a variant's games
# ----------------------------------------------------------------------
def _mean_ci(values: Any) -> tuple[float, float, float, int]:
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    n = len(x)
    if n == 0:
        return (math.nan, math.nan, math.nan, 0)
    m = float(x.mean())
    if n == 1:
        return (m, math.nan, math.nan, 1)
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(n)
    return (m, m - half, m + half, n)


def measures(records: pd.DataFrame | Sequence[Mapping[str, Any]], n_players: int) -> dict[str, Any]:
    """The lab's measures of a set of games (see the module docstring).

    Args:
        records: one per game, with ``winners`` (a tuple of player ids),
            ``length``, ``timeout`` and, where measured, ``branching_factor``,
            ``decision_moves``, ``board_coverage``, ``lead_change`` (NaN where not).
        n_players: the players of the game.

    Returns:
        ``{measure: value}``: ``games``, ``advantage``, ``win_p1`` ..
        ``win_p<n>``, ``balance``, ``completion``, ``drawishness``,
        ``timeouts``, ``duration_moves``, ``duration_moves_sd``,
        ``branching_factor``, ``decision_moves``, ``board_coverage``,
        ``lead_change``, ``traced_games``; rates and means with ``_low`` and
        ``_high`` (95%). NaN where no game gives the measure.
    """
    frame = pd.DataFrame(list(records)) if not isinstance(records, pd.DataFrame) else records
    n = len(frame)
    winners = [tuple(w) for w in frame["winners"]] if n else []
    timeout = [bool(t) for t in frame["timeout"]] if n else []
    sole = [w[0] if len(w) == 1 else None for w in winners]
    out: dict[str, Any] = {"games": n}

    def rate(name: str, k: float) -> None:
        lo, hi = wilson_interval(k, n)
        out[name], out[f"{name}_low"], out[f"{name}_high"] = (k / n if n else math.nan), lo, hi

    wins = [sum(1 for s in sole if s == p) for p in range(n_players)]
    rate("advantage", wins[0])
    for p in range(n_players):
        rate(f"win_p{p + 1}", wins[p])
    rates = [w / n for w in wins] if n else [math.nan] * n_players
    out["balance"] = 1.0 - max((abs(a - b) for a, b in itertools.combinations(rates, 2)), default=0.0)
    rate("completion", sum(1 for s in sole if s is not None))
    rate("drawishness", sum(1 for s, t in zip(sole, timeout, strict=True) if s is None and not t))
    rate("timeouts", sum(timeout))
    length = frame["length"].to_numpy(dtype=float) if n else np.zeros(0)
    m, lo, hi, _ = _mean_ci(length)
    out["duration_moves"], out["duration_moves_low"], out["duration_moves_high"] = m, lo, hi
    out["duration_moves_sd"] = float(length.std(ddof=1)) if n > 1 else math.nan
    traced = 0
    for name in MEANS[1:]:
        col = frame[name] if name in frame else [math.nan] * n
        m, lo, hi, k = _mean_ci(col)
        out[name], out[f"{name}_low"], out[f"{name}_high"] = m, lo, hi
        traced = max(traced, k)
    out["traced_games"] = traced
    return out


# ----------------------------------------------------------------------
# The solver's verdict
# ----------------------------------------------------------------------
def _solver_row(probe: Game, seconds: float) -> dict[str, Any]:
    """What the exact solver says of the variant's start, within ``seconds``."""
    from .analysis.solve import SolveBudgetExceeded, solve

    row: dict[str, Any] = {"solver": "not solved", "solver_winner": None, "winning_moves": "",
                           "solve_seconds": math.nan, "solver_note": ""}
    why = why_unsolvable(probe)
    if why:
        if why == "is general-sum":
            # the declaration is per class (its game_type), for every option: a class whose returns do not
            # sum to a constant for some player counts is declared general-sum for all of them
            why = "is declared general-sum"
        row["solver_note"] = f"the game {why}"
        return row
    if not seconds:
        row["solver_note"] = "not asked (solve_seconds=0)"
        return row
    t0 = time.perf_counter()
    try:
        sol = solve(probe.copy(), time_limit=seconds, progress=False)
    except SolveBudgetExceeded:
        row["solve_seconds"] = time.perf_counter() - t0
        row["solver_note"] = f"too large: not settled within {seconds:g} s"
        return row
    except ValueError as exc:
        row["solver_note"] = str(exc)[:120]
        return row
    first = probe.current_player
    if sol.winner is None:
        row["solver"] = "draw"
    else:
        row["solver"] = "first player wins" if sol.winner == first else "second player wins"
    row["solver_winner"] = sol.winner
    row["winning_moves"] = ", ".join(sol.best_moves) if sol.value > 0 else ""
    row["solve_seconds"] = sol.seconds
    return row


# ----------------------------------------------------------------------
# The skill trace
# ----------------------------------------------------------------------
def _default_skill_agent(budget: int, seed: int) -> Any:
    from .agents import MCTSAgent

    return MCTSAgent(simulations=budget, seed=seed)


class _SkillGames:
    """The work of one skill step (picklable): ``(seed, strong seat)`` -> the strong agent's score."""

    def __init__(self, cls: type[Game], options: dict[str, Any], make: Callable[[int, int], Any],
                 weak: int, strong: int, max_moves: int | None) -> None:
        self.cls, self.options, self.make = cls, options, make
        self.weak, self.strong, self.max_moves = weak, strong, max_moves

    def __call__(self, jobs: list[tuple[int, int]]) -> list[float]:
        out = []
        for seed, seat in jobs:
            game = self.cls.new_for_seed(self.options, seed)
            words = np.random.SeedSequence([seed, 2]).generate_state(len(game.players))
            agents = [self.make(self.strong if p == seat else self.weak, int(w)) for p, w in enumerate(words)]
            rec = play_traced(game, seed, agents, self.max_moves)
            w = rec["winners"]
            out.append(1.0 / len(w) if seat in w and not rec["timeout"] else 0.0)
        return out


def skill_trace(game: type[Game] | str, budgets: Sequence[int] = (8, 16, 32, 64), games: int = 20, *,
                agent: Callable[[int, int], Any] | None = None, seed: int = 0, n_jobs: int | None = 1,
                progress: bool = True, max_moves: int | None = None, **grid: Any) -> pd.DataFrame:
    """The skill trace of each variant: the agent at budget ``budgets[k + 1]``
    against itself at ``budgets[k]`` (Browne 2008).

    Args:
        game: a game class or its registry name.
        budgets: increasing budgets (simulations for the default MCTS agent),
            usually doubling.
        games: games per step, the stronger agent in each seat in turn (take
            a multiple of the players).
        agent: ``agent(budget, seed) -> agent`` (default
            ``MCTSAgent(simulations=budget, seed=seed)``); picklable for
            ``n_jobs != 1``.
        seed: the root seed; the same seed gives the same table for any ``n_jobs``.
        n_jobs: processes, as for :func:`measure`.
        progress: a tqdm progress bar over the games.
        max_moves: a cap on each game's moves (a game cut there scores 0).
        **grid: the options, lists for a grid (as :func:`measure`).

    Returns:
        One row per variant and step: the options, ``step`` (1..), ``weak``,
        ``strong`` (budgets), ``games``, ``score`` (the stronger agent's mean
        score: 1 a sole win, ``1/k`` a win shared by ``k``), ``score_low``,
        ``score_high`` (95% Wilson), ``fair_share`` (``1/players``).

    Raises:
        ValueError: fewer than two budgets, budgets not increasing, ``games < 1``.
    """
    cls = _game_class(game)
    b = [int(x) for x in budgets]
    if len(b) < 2 or any(y <= x for x, y in itertools.pairwise(b)) or b[0] < 1:
        raise ValueError(f"budgets must be two or more increasing positive ints, got {list(budgets)[:8]}")
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    make = agent if agent is not None else _default_skill_agent
    if n_jobs != 1:
        check_picklable({"skill agent": make})
    rows = []
    grid_variants = variants(**grid)
    bar = _bar(progress, len(grid_variants) * (len(b) - 1) * games, f"{cls.game_type.long_name} skill trace")
    try:
        for options in grid_variants:
            probe = cls(**options)
            n = len(probe.players)
            vseed = _variant_seed(seed, {**options, "skill": b})
            for k in range(len(b) - 1):
                seeds = game_seeds(games, vseed + k)
                jobs = [(s, i % n) for i, s in enumerate(seeds)]
                scores = run_chunks(_SkillGames(cls, options, make, b[k], b[k + 1], max_moves), jobs,
                                    n_jobs=n_jobs, progress=False, max_chunk=10)
                total = float(sum(scores))
                lo, hi = wilson_interval(total, games)
                rows.append({**options, "step": k + 1, "weak": b[k], "strong": b[k + 1], "games": games,
                             "score": total / games, "score_low": lo, "score_high": hi, "fair_share": 1.0 / n})
                if bar is not None:
                    bar.update(games)
    finally:
        if bar is not None:
            bar.close()
    return pd.DataFrame(rows)


def _trend(scores: Sequence[float]) -> float:
    """The slope of the least-squares line through ``(step, score)``."""
    if len(scores) < 2:
        return math.nan
    return float(np.polyfit(np.arange(1, len(scores) + 1, dtype=float), np.asarray(scores, dtype=float), 1)[0])


# ----------------------------------------------------------------------
# Kingmaking
# ----------------------------------------------------------------------
#: the columns of :func:`kingmaking`'s per-game records
KINGMAKING_COLUMNS = ("game", "seed", "winners", "length", "timeout", "kingmaker_moves", "undecided_moves",
                      "exact_checks")


class _Undecided(Exception):
    pass


def _default_kingmaking_agent() -> Any:
    from .agents import MaxnAgent

    return MaxnAgent(depth=2, tie_break="random")


def _probe_wins(game: Game, p: int, rng: random.Random, greedy: bool) -> bool:
    """One playout to the end on ``game`` (undone after): does ``p`` end among
    the winners? ``greedy``: ``p`` plays its best move by ``evaluate(p)`` and
    every other player the move that leaves it the lowest ``evaluate`` of its
    own (a playout that helps ``p``); else uniformly random moves."""
    played = 0
    try:
        while not game.is_over:
            q = game.current_player
            moves = game.search_moves()
            move = moves[rng.randrange(len(moves))]
            if greedy and len(moves) > 1 and game.evaluate(p) is not None:
                best = -math.inf
                for m in moves:
                    game.play(m)
                    if game.is_over:
                        score = math.inf if p in game.winners else -math.inf
                    else:
                        own = float(game.evaluate(p))  # type: ignore[arg-type]
                        score = own if q == p else -float(game.evaluate(q))  # type: ignore[arg-type]
                    game.undo()
                    score += rng.random() * 1e-6  # random among equals
                    if score > best:
                        best, move = score, m
            game.play(move)
            played += 1
        return p in game.winners
    finally:
        for _ in range(played):
            game.undo()


def _can_win(game: Game, p: int, memo: dict[Any, bool], budget: list[int]) -> bool:
    """True if some continuation (any moves of any players) ends with ``p``
    among the winners: an exhaustive search, with ``memo`` keyed by
    ``position_key`` (one future per key) and ``budget[0]`` positions left.

    Raises:
        _Undecided: the budget ran out before the answer was proven.
    """
    if game.is_over:
        return p in game.winners
    key = (p, game.position_key())
    known = memo.get(key)
    if known is not None:
        return known
    budget[0] -= 1
    if budget[0] < 0:
        raise _Undecided
    found = False
    for m in game.search_moves():
        game.play(m)
        try:
            found = _can_win(game, p, memo, budget)
        finally:
            game.undo()
        if found:
            break
    memo[key] = found
    return found


def _continue(game: Game, agents: Sequence[Any], max_moves: float) -> tuple[int, ...] | None:
    """The winners after ``agents`` play ``game`` (a copy) to the end; ``None`` if cut at ``max_moves``."""
    g = game.copy()
    while not g.is_over and len(g.history) < max_moves:
        p = g.current_player
        g.play(agents[p].choose(g), player=p)
    return tuple(g.winners) if g.is_over else None


def kingmaker_choice(game: Game, agents: Sequence[Any], *, max_nodes: int = 20_000, probes: int = 20,
                     seed: int = 0, max_moves: int | None = None,
                     memo: dict[Any, bool] | None = None) -> str:
    """Is the move of the player to act a **kingmaker's choice**: it can no
    longer win, and which of its moves it plays changes who wins?

    The test, for the player ``p`` to move (``game`` is not changed):

    1. ``p`` has at least two moves (:meth:`~gridwidgets.core.Game.search_moves`).
    2. After each move, ``agents`` (one per seat, ``choose(game)``) play the
       game to its end: the *continuation*. Its ``winners`` (rule C-4: every
       player sharing a win) must not be the same after every move, and
       ``p`` must be among none of them (a continuation cut at
       ``max_moves`` settles nothing: the choice is not counted).
    3. ``p`` cannot win whatever anyone plays: no sequence of legal moves
       of any players from here ends with ``p`` among the winners. First
       ``probes`` playouts look for one (half of them greedy for ``p`` by
       the game's ``evaluate``, half random); then an exhaustive search of
       every continuation proves there is none, within ``max_nodes``
       positions.

    Returns:
        ``"kingmaker"`` (all three hold, step 3 proven), ``"undecided"``
        (1 and 2 hold but the search of step 3 ran out of ``max_nodes``),
        or ``""`` (not a kingmaker's choice).

    Raises:
        ValueError: the game is over.
    """
    p = game.current_player
    if p is None:
        raise ValueError("the game is over: nobody is to move")
    work = game.copy()
    moves = work.search_moves()
    if len(moves) < 2:
        return ""
    rng = random.Random(f"{seed}|{len(work.history)}|{p}")
    for k in range(probes):
        if _probe_wins(work, p, rng, greedy=k % 2 == 0):
            return ""
    cap = math.inf if max_moves is None else max_moves
    outcomes = set()
    for m in moves:
        work.play(m)
        try:
            winners = _continue(work, agents, cap)
        finally:
            work.undo()
        if winners is None or p in winners:
            return ""  # cut at max_moves: who wins is not known; or p wins
        outcomes.add(winners)
    if len(outcomes) < 2:
        return ""
    try:
        return "" if _can_win(work, p, {} if memo is None else memo, [max_nodes]) else "kingmaker"
    except _Undecided:
        return "undecided"


class _KingGames:
    """The work of one variant for :func:`~gridwidgets.sim.run_chunks`: per game seed, its kingmaking record."""

    def __init__(self, cls: type[Game], options: dict[str, Any], agent: Any, continuation: Any, max_nodes: int,
                 probes: int, max_moves: int | None) -> None:
        self.cls, self.options, self.agent, self.continuation = cls, options, agent, continuation
        self.max_nodes, self.probes, self.max_moves = max_nodes, probes, max_moves

    def __call__(self, seeds: list[int]) -> list[dict[str, Any]]:
        out = []
        for s in seeds:
            game = self.cls.new_for_seed(self.options, s)
            words = np.random.SeedSequence([s, 3]).generate_state(2 * len(game.players))
            n = len(game.players)
            agents = [fresh_agent(self.agent, int(w)) for w in words[:n]]
            after = agents if self.continuation is None else [fresh_agent(self.continuation, int(w))
                                                              for w in words[n:]]
            cap = math.inf if self.max_moves is None else self.max_moves
            kings: list[int] = []
            undecided: list[int] = []
            checks = 0
            memo: dict[Any, bool] = {}
            while not game.is_over and len(game.history) < cap:
                verdict = kingmaker_choice(game, after, max_nodes=self.max_nodes, probes=self.probes, seed=s,
                                           max_moves=self.max_moves, memo=memo)
                if verdict:
                    checks += 1
                    (kings if verdict == "kingmaker" else undecided).append(len(game.history))
                p = game.current_player
                assert p is not None
                game.play(agents[p].choose(game), player=p)
            out.append({"seed": int(s), "winners": tuple(int(w) for w in game.winners),
                        "length": len(game.history), "timeout": not game.is_over,
                        "kingmaker_moves": kings, "undecided_moves": undecided, "exact_checks": checks})
        return out


def kingmaking(game: type[Game] | str, games: int = 100, *, agent: Any = None, continuation: Any = None,
               seed: int = 0, max_nodes: int = 20_000, probes: int = 20, n_jobs: int | None = 1,
               progress: bool = True, max_moves: int | None = None, **grid: Any) -> pd.DataFrame:
    """How often a seat that cannot win decides who does: the **kingmaking
    rate** of each variant, by self-play.

    Every seat of ``games`` seeded games per variant is played by ``agent``
    (copied and seeded per seat, as in :func:`measure`; default
    ``MaxnAgent(depth=2, tie_break="random")``, so that the games differ).
    Before each move, :func:`kingmaker_choice` asks whether the player to
    move can no longer win (proven by search: no sequence of moves of any
    players ends with it among the winners) and yet its choice among its
    moves changes the winners when the game is played on from each of them
    by the *continuation*: the agents that played (``continuation=None``),
    or ``continuation`` in every seat (copied and seeded per seat). The
    kingmaking rate is the share of games with at least one such decisive
    choice, with its 95% Wilson interval.

    The rate depends on the continuation, as the notion does: a choice
    "decides" who wins only given how the game goes on. A continuation that
    breaks ties at random (seeded by the position) goes on differently after
    each of the kingmaker's moves partly by its own draws; a deterministic
    one (``MaxnAgent(depth=2)``, ties to the first move) differs only where
    the positions differ.

    A position where the proof does not finish within ``max_nodes``
    positions counts as not a kingmaker's choice; ``undecided`` is the
    share of games whose only candidates were such positions, so the true
    rate under this definition lies between ``kingmaking`` and
    ``kingmaking + undecided``.

    With two players the rate is 0 whatever the game: a player who cannot
    win leaves the other as the only possible winner after every move
    (a draw or shared win lists both players, rule C-4, so it would be a
    win for it too). Kingmaking needs a third player.

    Args:
        game: a game class or its registry name (turn-based, perfect information).
        games: games per variant.
        agent: who plays every seat (an object with ``choose(game)``, or a
            class or function of a seed).
        continuation: who plays on after each move of a player who cannot
            win (same forms); ``None``: the agents that played.
        seed: the root seed; the same seed gives the same table for any ``n_jobs``.
        max_nodes: positions the proof of "cannot win" may search, per position tested.
        probes: playouts that first look for a way for the player to win.
        n_jobs: processes, as for :func:`measure`.
        progress: a tqdm progress bar over the games.
        max_moves: a cap on each game's and continuation's moves.
        **grid: the options, lists for a grid (as :func:`measure`).

    Returns:
        One row per variant: the options, ``games``, ``kingmaking`` (share of
        games with a kingmaker's choice), ``kingmaking_low``,
        ``kingmaking_high`` (95% Wilson), ``undecided`` (share of games with
        an undecided position and no proven one), ``kingmaker_choices``
        (proven choices per game, mean), ``players``. ``table.attrs`` holds
        ``"kingmaking"`` (what was run) and ``"records"`` (one row per game:
        :data:`KINGMAKING_COLUMNS`, the moves numbered from 0).

    Raises:
        ValueError: bad ``games``, ``max_nodes``, ``probes`` or options; a
            game with simultaneous moves or hidden information.
        TypeError: not a game class; with ``n_jobs != 1``, an agent that cannot be pickled.
    """
    cls = _game_class(game)
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise ValueError(f"games must be a positive int, got {str(games)[:30]!r}")
    for name, value in (("max_nodes", max_nodes), ("probes", probes)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{name} must be a non-negative int, got {str(value)[:30]!r}")
    if max_moves is not None and (not isinstance(max_moves, int) or max_moves < 1):
        raise ValueError(f"max_moves must be a positive int or None, got {str(max_moves)[:30]!r}")
    gt = cls.game_type
    if gt.simultaneous or not gt.perfect_information:
        raise ValueError(f"kingmaking is measured on turn-based games of perfect information; "
                         f"{gt.long_name} has {'simultaneous moves' if gt.simultaneous else 'hidden information'}")
    agent = _default_kingmaking_agent() if agent is None else agent
    if n_jobs != 1:
        check_picklable({"agent": agent, "continuation": continuation}, cls)
    grid_variants = variants(**grid)
    probes_ = []
    for options in grid_variants:
        try:
            probes_.append(cls(**options))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{cls.__name__}({_label(options)[:80]}) is refused: {str(exc)[:160]}") from None
    bar = _bar(progress, games * len(grid_variants), f"{gt.long_name} kingmaking")
    rows, records = [], []
    try:
        for k, (options, probe) in enumerate(zip(grid_variants, probes_, strict=True)):
            seeds = game_seeds(games, _variant_seed(seed, {**options, "kingmaking": 1}))
            recs = run_chunks(_KingGames(cls, options, agent, continuation, max_nodes, probes, max_moves), seeds,
                              n_jobs=n_jobs, progress=False, max_chunk=10)
            frame = pd.DataFrame(recs, columns=list(KINGMAKING_COLUMNS[1:]))
            frame.insert(0, "game", range(games))
            king = sum(1 for r in recs if r["kingmaker_moves"])
            open_ = sum(1 for r in recs if r["undecided_moves"] and not r["kingmaker_moves"])
            lo, hi = wilson_interval(king, games)
            rows.append({**options, "players": len(probe.players), "games": games, "kingmaking": king / games,
                         "kingmaking_low": lo, "kingmaking_high": hi, "undecided": open_ / games,
                         "kingmaker_choices": float(np.mean([len(r["kingmaker_moves"]) for r in recs]))})
            frame.insert(0, "variant", k)
            records.append(frame)
            if bar is not None:
                bar.update(games)
    finally:
        if bar is not None:
            bar.close()
    table = pd.DataFrame(rows)
    table.attrs["kingmaking"] = {"game": cls.__name__, "options": list(grid), "games": games, "seed": seed,
                                 "agent": repr(agent)[:80],
                                 "continuation": "as played" if continuation is None else repr(continuation)[:80],
                                 "max_nodes": max_nodes, "probes": probes,
                                 "max_moves": max_moves}
    table.attrs["records"] = SharedFrame(pd.concat(records, ignore_index=True))
    return table


# ----------------------------------------------------------------------
# The lab
# ----------------------------------------------------------------------
def _game_class(game: type[Game] | str) -> type[Game]:
    if isinstance(game, str):
        from .core import registry

        return registry.get(game)
    if not (isinstance(game, type) and issubclass(game, Game)):
        raise TypeError(f"the lab measures a game class or a registry name, got {type(game).__name__}")
    return game


def _bar(progress: bool, total: int, desc: str) -> Any:
    if not progress:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit="game")


def measure(
    game: type[Game] | str,
    games: int = 200,
    *,
    agent: Any = None,
    seed: int | None = 0,
    n_jobs: int | None = 1,
    progress: bool = True,
    solve_seconds: float = 10.0,
    skill: Sequence[int] | None = None,
    skill_games: int = 20,
    skill_agent: Callable[[int, int], Any] | None = None,
    trace_games: int = 100,
    max_moves: int | None = None,
    check: int = 2,
    parquet: str | os.PathLike[str] | None = None,
    **grid: Any,
) -> pd.DataFrame:
    """Measure a game, or every variant of a grid of its options, by self-play.

    Args:
        game: a game class (registered, or a subclass with a changed rule) or
            a registry name.
        games: self-play games per variant.
        agent: who plays every seat: ``None`` for uniformly random moves
            (compiled where the game has a kernel), or an agent (an object with
            ``choose(game)``, or a class or function of a seed), copied and
            seeded per seat and game as in :func:`~gridwidgets.analysis.tournament`.
        seed: the root seed. Each variant's games are seeded from it and the
            variant's options alone, so the same seed gives the same table
            for any ``n_jobs``, backend or grid around it. ``None``: fresh
            entropy (kept in ``table.attrs["lab"]["seed"]``).
        n_jobs: processes (joblib) for each variant's games; ``None`` takes
            joblib's current ``parallel_config`` (Dask, Ray).
        progress: a tqdm progress bar over all the games.
        solve_seconds: the exact solver's budget per variant (``0``: do not solve).
        skill: budgets of a skill trace (e.g. ``[8, 16, 32, 64]``), or ``None``.
        skill_games: games per skill step.
        skill_agent: ``agent(budget, seed)`` for the skill trace (default MCTS).
        trace_games: games traced move by move when the outcomes come from a
            compiled kernel (the trace measures count these).
        max_moves: cap every game at this many moves (a timeout); ``None``:
            the game's own bound (``max_game_length``), else 10,000.
        check: games :func:`~gridwidgets.testing.check_game` plays on each
            variant before it is measured (``0``: no check).
        parquet: a folder: each variant's games are written there as they are
            measured (``variant-<k>.parquet``, one row per game, with the
            solver's verdict), and a run cut short resumes: variants on disk
            are read back, not played again.
        **grid: the game's options; a list or range gives a grid (a tuple is one value).

    Returns:
        A ``pandas.DataFrame``, one row per variant: the options, then the
        measures of :func:`measures`, the solver's columns (``solver``: "first
        player wins", "second player wins", "draw" or "not solved";
        ``solver_winner``; ``winning_moves``, the first moves that win;
        ``solve_seconds``; ``solver_note``, why not solved: "the game has
        3 players", "has simultaneous moves", "has hidden information",
        "is declared general-sum": the class's ``game_type``, declared
        once for all its options; the solver needs zero-sum returns), and with
        ``skill`` ``skill_trend`` (the fitted slope per step) and
        ``skill_score`` (the mean of the steps). ``table.attrs`` holds
        ``"lab"`` (what was run), ``"records"`` (every game: one row each)
        and ``"skill_trace"`` (the steps, as :func:`skill_trace`).

    Raises:
        ValueError: bad ``games``, options, grid or budgets; a variant that
            fails ``check_game`` (naming what failed); a folder holding another run.
        TypeError: not a game class; with ``n_jobs != 1``, an agent that cannot be pickled.
    """
    cls = _game_class(game)
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    if not isinstance(trace_games, int) or trace_games < 0:
        raise ValueError(f"trace_games must be a non-negative int, got {trace_games!r}")
    if not (isinstance(solve_seconds, (int, float)) and solve_seconds >= 0):
        raise ValueError(f"solve_seconds must be a number of seconds >= 0, got {solve_seconds!r}")
    if max_moves is not None and (not isinstance(max_moves, int) or max_moves < 1):
        raise ValueError(f"max_moves must be a positive int or None, got {max_moves!r}")
    if agent is not None and n_jobs != 1:
        check_picklable({"agent": agent}, cls)
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % (1 << 63))  # type: ignore[operator]
    grid_variants = variants(**grid)
    probes = [_check_variant(cls, options, check, seed) for options in grid_variants]
    folder = _open_folder(Path(parquet), cls, grid, games, seed, agent, trace_games, max_moves, solve_seconds) \
        if parquet is not None else None
    bar = _bar(progress, games * len(grid_variants), f"{cls.game_type.long_name} lab")
    rows, records = [], []
    try:
        for k, (options, probe) in enumerate(zip(grid_variants, probes, strict=True)):
            done = _read_variant(folder, k) if folder is not None else None
            if done is None:
                frame = _play_variant(cls, options, probe, games, _variant_seed(seed, options), agent,
                                      trace_games, max_moves, n_jobs)
                verdict = _solver_row(probe, solve_seconds)
                if folder is not None:
                    _write_variant(folder, k, frame, verdict)
            else:
                frame, verdict = done
            rows.append({**options, **measures(frame, len(probe.players)), **verdict})
            frame.insert(0, "variant", k)
            records.append(frame)
            if bar is not None:
                bar.update(games)
    finally:
        if bar is not None:
            bar.close()
    table = pd.DataFrame(rows)
    seats = max(len(p.players) for p in probes)
    order = list(measures(pd.DataFrame(columns=["winners", "length", "timeout"]), seats))
    table = table[list(grid) + order + [c for c in table.columns if c not in order and c not in grid]]
    trace = None
    if skill is not None:
        trace = skill_trace(cls, skill, skill_games, agent=skill_agent, seed=seed, n_jobs=n_jobs,
                            progress=progress, max_moves=max_moves, **grid)
        steps = trace.groupby(list(grid), sort=False)["score"] if grid else [((), trace["score"])]
        fitted = {key if isinstance(key, tuple) else (key,): (_trend(s.tolist()), float(s.mean()))
                  for key, s in steps}
        keys = [tuple(options[n] for n in grid) for options in grid_variants]
        table["skill_trend"] = [fitted[key][0] for key in keys]
        table["skill_score"] = [fitted[key][1] for key in keys]
    table.attrs["lab"] = {"game": cls.__name__, "game_id": cls.game_type.short_name, "options": list(grid),
                          "games": games, "seed": seed, "agent": "random" if agent is None else repr(agent)[:80],
                          "trace_games": trace_games, "max_moves": max_moves, "solve_seconds": solve_seconds,
                          "class": cls}
    table.attrs["records"] = SharedFrame(pd.concat(records, ignore_index=True))
    table.attrs["skill_trace"] = None if trace is None else SharedFrame(trace)
    return table


# ----------------------------------------------------------------------
# Streaming to Parquet, with resume
# ----------------------------------------------------------------------
def _open_folder(folder: Path, cls: type[Game], grid: dict[str, Any], games: int, seed: int, agent: Any,
                 trace_games: int, max_moves: int | None, solve_seconds: float) -> Path:
    try:
        import pyarrow  # noqa: F401
    except ImportError as exc:  # pragma: no cover - pyarrow is in the extras
        raise ImportError("measure(parquet=...) needs pyarrow: pip install 'gridwidgets[parquet]'") from exc
    meta = {"format": _FORMAT, "game": cls.game_type.short_name, "class": cls.__qualname__,
            "grid": json.loads(json.dumps(grid, default=repr)), "games": games, "seed": seed,
            "agent": "random" if agent is None else repr(agent)[:80], "trace_games": trace_games,
            "max_moves": max_moves, "solve_seconds": solve_seconds}
    folder.mkdir(parents=True, exist_ok=True)
    f = folder / "lab.json"
    if f.is_file():
        try:
            old = json.loads(f.read_text(errors="replace")[:100_000])
        except ValueError:
            raise ValueError(f"{str(f)[:80]!r} is not a lab run description") from None
        if old != meta:
            diff = ", ".join(k for k in meta if not isinstance(old, dict) or old.get(k) != meta[k])
            raise ValueError(f"{str(folder)[:80]!r} holds another lab run (differs in: {diff[:120]}): use a new folder")
    else:
        tmp = folder / "lab.json.tmp"
        tmp.write_text(json.dumps(meta, indent=1))
        os.replace(tmp, f)
    return folder


def _write_variant(folder: Path, k: int, frame: pd.DataFrame, verdict: dict[str, Any]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = frame.copy()
    out["winners"] = [list(w) for w in out["winners"]]
    table = pa.Table.from_pandas(out, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                           b"gridwidgets.solver": json.dumps(verdict, default=str).encode()})
    tmp = folder / f"variant-{k:05d}.parquet.tmp"
    pq.write_table(table, tmp)
    os.replace(tmp, folder / f"variant-{k:05d}.parquet")


def _read_variant(folder: Path, k: int) -> tuple[pd.DataFrame, dict[str, Any]] | None:
    import pyarrow.parquet as pq

    f = folder / f"variant-{k:05d}.parquet"
    if not f.is_file():
        return None
    table = pq.read_table(f)
    verdict = json.loads((table.schema.metadata or {}).get(b"gridwidgets.solver", b"{}"))
    frame = table.to_pandas()
    frame["winners"] = [tuple(int(x) for x in w) for w in frame["winners"]]
    frame["timeout"] = frame["timeout"].astype(bool)
    return frame[list(RECORD_COLUMNS)], verdict


# ----------------------------------------------------------------------
# Pictures and replays
# ----------------------------------------------------------------------
def typical_game(table: pd.DataFrame, row: int = 0) -> Game:
    """A typical game of the variant in row ``row`` (a position, ``0`` the
    first row) of a :func:`measure` table, sorted or filtered or not, replayed
    through ``play()`` (undo, a widget: ``typical_game(t, 3).widget()``): among
    the traced games, one whose length is nearest the median of all its
    games, of the most common outcome.

    Raises:
        ValueError: a table without the lab's records, or a row without traced games.
        IndexError: ``row`` outside the table.
    """
    lab, records = table.attrs.get("lab"), table.attrs.get("records")
    if not lab or records is None:
        raise ValueError("typical_game reads a table made by measure() (its attrs hold the games)")
    if not isinstance(row, int) or not 0 <= row < len(table):
        raise IndexError(f"row must be an int in 0..{len(table) - 1}, got {str(row)[:30]!r}")
    games = records[records["variant"] == table.index[row]]  # the index keeps the variant through sorts and filters
    traced = games[games["moves"].astype(bool)]
    if traced.empty:
        raise ValueError(f"row {row} has no game traced move by move (trace_games=0)")
    common = traced["winners"].value_counts().index[0]
    pick = traced[traced["winners"] == common]
    median = float(games["length"].median())
    best = pick.iloc[int(np.argmin(np.abs(pick["length"].to_numpy(dtype=float) - median)))]
    cls: type[Game] = lab["class"]
    options = {name: table.iloc[row][name] for name in lab["options"]}
    options = {k: (v.item() if isinstance(v, np.generic) else v) for k, v in options.items()}
    g = cls.new_for_seed(options, int(best["seed"]))
    for p, move in json.loads(str(best["moves"])):
        g.play(move, player=p)
    return g


def heatmap(table: pd.DataFrame, measure: str = "advantage", x: str = "cols", y: str = "rows", *,
            solver: bool = True, ax: Any = None, cmap: str = "RdBu_r", vmin: float | None = None,
            vmax: float | None = None) -> Any:
    """A heat map of ``measure`` over two options of a :func:`measure` table,
    each cell labelled with its value and, with ``solver``, the solver's
    verdict (``1st``, ``2nd``, ``draw``, or ``?`` where not solved).

    Returns:
        The matplotlib ``Axes``. Raises: ``ValueError`` for a missing column,
        or several rows on one cell (fix the other options first).
    """
    import matplotlib.pyplot as plt

    for col in (measure, x, y):
        if col not in table.columns:
            raise ValueError(f"the table has no column {col!r}")
    if table.duplicated([x, y]).any():
        raise ValueError(f"several rows share one ({x}, {y}): select one value of the other options first")
    xs = sorted(table[x].unique())
    ys = sorted(table[y].unique())
    grid = np.full((len(ys), len(xs)), np.nan)
    verdicts: dict[tuple[int, int], str] = {}
    short = {"first player wins": "1st wins", "second player wins": "2nd wins", "draw": "draw"}
    for _, r in table.iterrows():
        i, j = ys.index(r[y]), xs.index(r[x])
        grid[i, j] = r[measure]
        if solver and "solver" in table.columns:
            verdicts[(i, j)] = short.get(r["solver"], "?")
    if ax is None:
        _, ax = plt.subplots(figsize=(1.0 + 1.1 * len(xs), 0.8 + 0.9 * len(ys)), layout="constrained")
    if vmin is None and vmax is None and measure in RATES + tuple(c for c in table.columns if c.startswith("win_p")):
        vmin, vmax = 0.0, 1.0
    im = ax.imshow(grid, cmap=cmap, vmin=vmin, vmax=vmax, origin="lower")
    for (i, j), v in np.ndenumerate(grid):
        if np.isfinite(v):
            label = f"{v:.2f}" + (f"\n{verdicts[(i, j)]}" if (i, j) in verdicts else "")
            r, g, b, _ = im.cmap(im.norm(v))
            dark = 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.45  # the cell's luminance: white text on dark cells
            ax.text(j, i, label, ha="center", va="center", fontsize=8, color="white" if dark else "black")
    ax.set_xticks(range(len(xs)), [str(v) for v in xs])
    ax.set_yticks(range(len(ys)), [str(v) for v in ys])
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.set_title(measure.replace("_", " ") + (" (solver's verdict below)" if verdicts else ""), fontsize=9)
    ax.figure.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    return ax


def _variant_labels(table: pd.DataFrame) -> list[str]:
    names = table.attrs.get("lab", {}).get("options") or []
    return [", ".join(f"{n}={r[n]}" for n in names) or "default" for _, r in table.iterrows()]


def seat_bars(table: pd.DataFrame, *, ax: Any = None) -> Any:
    """Each variant's win rate per seat, with 95% Wilson intervals, and the
    fair share (``1/players``) as a dashed line per group. Returns the ``Axes``."""
    import matplotlib.pyplot as plt

    seats = sorted((c for c in table.columns if c.startswith("win_p") and c[5:].isdigit()), key=lambda c: int(c[5:]))
    labels = _variant_labels(table)
    if ax is None:
        _, ax = plt.subplots(figsize=(max(5.0, 1.0 + 0.5 * len(table) * len(seats)), 3.2), layout="constrained")
    width = 0.8 / max(1, len(seats))
    colors = plt.get_cmap("tab10")
    for s, col in enumerate(seats):
        rate = table[col].to_numpy(dtype=float)
        lo = table[f"{col}_low"].to_numpy(dtype=float)
        hi = table[f"{col}_high"].to_numpy(dtype=float)
        pos = np.arange(len(table)) + (s - (len(seats) - 1) / 2) * width
        ax.bar(pos, rate, width * 0.9, color=colors(s), label=f"seat {s + 1}")
        ax.errorbar(pos, rate, yerr=[np.nan_to_num(rate - lo), np.nan_to_num(hi - rate)], fmt="none", ecolor="#111",
                    capsize=3)
    for i, (_, r) in enumerate(table.iterrows()):
        n = sum(1 for c in seats if np.isfinite(r[c]))
        if n:
            ax.hlines(1.0 / n, i - 0.45, i + 0.45, colors="#555", linestyles="dashed")
    tilt = len(table) > 4
    ax.set_xticks(range(len(table)), labels, rotation=30 if tilt else 0, ha="right" if tilt else "center")
    ax.set_ylim(0, 1)
    ax.set_ylabel("sole wins (95% Wilson)")
    ax.legend(fontsize=8, ncols=min(4, len(seats)))
    ax.set_title("wins by seat; dashed: a fair share", fontsize=9)
    return ax


def durations(table: pd.DataFrame, rows: Sequence[int] | None = None, *, ax: Any = None, bins: int = 30) -> Any:
    """Histograms of the game lengths (moves) of the variants ``rows`` (all by
    default) of a :func:`measure` table, overlaid. Returns the ``Axes``."""
    import matplotlib.pyplot as plt

    records = table.attrs.get("records")
    if records is None:
        raise ValueError("durations reads a table made by measure() (its attrs hold the games)")
    labels = _variant_labels(table)
    picked = list(range(len(table))) if rows is None else list(rows)
    if ax is None:
        _, ax = plt.subplots(figsize=(6.0, 3.2), layout="constrained")
    lengths = [records.loc[records["variant"] == k, "length"].to_numpy() for k in picked]
    top = max((int(v.max()) for v in lengths if len(v)), default=1)
    edges = np.linspace(-0.5, top + 0.5, min(bins, top + 1) + 1)
    for k, v in zip(picked, lengths, strict=True):
        ax.hist(v, bins=edges, alpha=0.55, label=labels[k], histtype="stepfilled")
    ax.set_xlabel("moves per game")
    ax.set_ylabel("games")
    ax.legend(fontsize=8)
    ax.set_title("game durations", fontsize=9)
    return ax


def skill_curve(trace: pd.DataFrame, *, ax: Any = None) -> Any:
    """The skill trace: the stronger agent's score per step with its 95%
    interval, one line per variant, and the fair share dashed. Takes
    :func:`skill_trace`'s table or a :func:`measure` table made with
    ``skill=``. Returns the ``Axes``."""
    import matplotlib.pyplot as plt

    if "step" not in trace.columns:
        inner = trace.attrs.get("skill_trace")
        if inner is None:
            raise ValueError("no skill trace here: call measure(..., skill=[8, 16, 32]) or skill_trace()")
        trace = inner
    if ax is None:
        _, ax = plt.subplots(figsize=(6.0, 3.2), layout="constrained")
    fixed = {"step", "weak", "strong", "games", "score", "score_low", "score_high", "fair_share"}
    names = [c for c in trace.columns if c not in fixed]
    groups = trace.groupby(names, sort=False) if names else [((), trace)]
    for key, part in groups:
        key = key if isinstance(key, tuple) else (key,)
        label = ", ".join(f"{n}={v}" for n, v in zip(names, key, strict=True)) or "game"
        x = part["step"].to_numpy()
        y = part["score"].to_numpy(dtype=float)
        lo, hi = part["score_low"].to_numpy(dtype=float), part["score_high"].to_numpy(dtype=float)
        ax.errorbar(x, y, yerr=[y - lo, hi - y], marker="o", capsize=3,
                    label=f"{label} (trend {_trend(y.tolist()):+.3f}/step)")
    steps = trace.drop_duplicates("step")
    ax.set_xticks(steps["step"], [f"{w}→{s}" for w, s in zip(steps["weak"], steps["strong"], strict=True)])
    for share in sorted(set(trace["fair_share"])):
        ax.axhline(share, color="#555", linestyle="dashed", linewidth=1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("budget, weaker → stronger")
    ax.set_ylabel("stronger agent's score")
    ax.legend(fontsize=8)
    ax.set_title("skill trace: does thinking longer win more?", fontsize=9)
    return ax
