"""Many games at once: one seeded runner for ``simulate`` and ``tournament``.

joblib runs the chunks in processes, tqdm shows progress, numpy's
``SeedSequence`` gives every game its own seed: the results never depend on
how many processes ran them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from .core.game import Game

__all__ = ["game_seeds", "run_chunks", "simulate"]

T = TypeVar("T")
R = TypeVar("R")


def game_seeds(n: int, seed: int | None) -> list[int]:
    """``n`` independent seeds spawned from ``seed`` (``numpy.random.SeedSequence``);
    ``seed=None`` draws fresh entropy."""
    children = np.random.SeedSequence(seed).spawn(n)
    return [int(c.generate_state(1)[0]) for c in children]


def run_chunks(
    work: Callable[[list[T]], list[R]],
    items: Sequence[T],
    *,
    n_jobs: int | None = 1,
    progress: bool = True,
    desc: str = "games",
    unit: str = "game",
    max_chunk: int = 250,
) -> list[R]:
    """Run ``work`` over ``items`` in chunks, in order, on ``n_jobs`` processes:
    the one seeded runner of :func:`simulate` and
    :func:`~gridwidgets.analysis.tournament`.

    Args:
        work: a picklable function of a list of items returning one result per item.
        items: the jobs (seeds, or tuples holding seeds).
        n_jobs: processes for joblib (``1``: in this process; ``-1``: every
            core; ``None``: joblib's current ``parallel_config``, e.g. a Dask
            or Ray cluster).
        progress: show a tqdm progress bar.
        desc, unit: the bar's labels.
        max_chunk: the most items in one chunk (a few chunks per worker keep
            the bar moving and the load even).

    Returns:
        The results, in the order of ``items`` whatever ``n_jobs`` is.
    """
    n = len(items)
    if n_jobs == 1:
        workers = 1
    else:
        from joblib import effective_n_jobs

        workers = effective_n_jobs() if n_jobs is None else effective_n_jobs(n_jobs)
    size = max(1, min(max_chunk, n // (4 * workers) or 1))
    chunks = [list(items[i : i + size]) for i in range(0, n, size)]
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n, desc=desc, unit=unit)
    out: list[R] = []
    try:
        if workers == 1 or len(chunks) <= 1:
            for part in chunks:
                out.extend(work(part))
                if bar is not None:
                    bar.update(len(part))
        else:
            from joblib import Parallel, delayed

            kw: dict[str, Any] = {} if n_jobs is None else {"n_jobs": n_jobs}
            try:
                parallel = Parallel(return_as="generator", **kw)
            except ValueError:  # backends without generators (multiprocessing, Ray): all at once
                parallel = Parallel(**kw)
            for done in parallel(delayed(work)(p) for p in chunks):
                out.extend(done)
                if bar is not None:
                    bar.update(len(done))
    finally:
        if bar is not None:
            bar.close()
    return out


class _RandomGames:
    """The work of :func:`simulate`: random games of one class (picklable)."""

    def __init__(self, cls: type[Game], options: dict[str, Any]) -> None:
        self.cls = cls
        self.options = options

    def play(self, seed: int) -> Game:
        """The finished random game of ``seed``."""
        g = self.cls.new_for_seed(self.options, seed)
        g._rollout(random.Random(seed))
        return g

    def row(self, game: Game, seed: int) -> dict[str, Any]:
        """The game's row of the result."""
        return game.result_row()

    def __call__(self, seeds: list[int]) -> list[dict[str, Any]]:
        return [self.row(self.play(s), s) for s in seeds]


def simulate(
    cls: type[Game],
    n_games: int,
    seed: int | None = None,
    n_jobs: int = 1,
    progress: bool = True,
    **options: Any,
) -> pd.DataFrame:
    """Play ``n_games`` uniformly random games of ``cls(**options)``
    (:meth:`Game.simulate <gridwidgets.core.Game.simulate>` says what comes back).

    Raises:
        ValueError: for a bad ``n_games`` or bad options.
    """
    import pandas as pd

    if not isinstance(n_games, int) or isinstance(n_games, bool) or n_games < 0:
        raise ValueError(f"n_games must be a non-negative int, got {n_games!r}")
    probe = cls(**options)  # check the options once, here, with a clear error
    seeds = game_seeds(n_games, seed)
    rows = run_chunks(_RandomGames(cls, options), seeds, n_jobs=n_jobs, progress=progress,
                      desc=f"{cls.game_type.long_name} games")
    columns = list(rows[0]) if rows else list(probe.result_row())
    frame = pd.DataFrame(rows, columns=columns)
    frame.insert(0, "game", range(n_games))
    return frame
