"""Many random games at once: joblib for the processes, tqdm for progress."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

__all__ = ["simulate"]


def _seeds(n_games: int, seed: int | None) -> list[int]:
    children = np.random.SeedSequence(seed).spawn(n_games)
    return [int(c.generate_state(1)[0]) for c in children]


def _play_chunk(cls: type, options: dict[str, Any], seeds: list[int]) -> list[dict[str, Any]]:
    out = []
    for s in seeds:
        g = cls._sim_new(options, s)
        g._rollout(random.Random(s))
        out.append(g._sim_row())
    return out


def simulate(
    cls: type,
    n_games: int,
    seed: int | None = None,
    n_jobs: int = 1,
    progress: bool = True,
    **options: Any,
) -> dict[str, list[Any]]:
    """Play ``n_games`` random games of ``cls(**options)`` (see ``GridMaster4.simulate``)."""
    if not isinstance(n_games, int) or n_games < 0:
        raise ValueError(f"n_games must be a non-negative int, got {n_games!r}")
    cls(**options)  # check the options once, here, with a clear error
    seeds = _seeds(n_games, seed)
    if n_jobs == 1:
        workers = 1
    else:
        from joblib import effective_n_jobs

        workers = effective_n_jobs(n_jobs)
    # a few chunks per worker keep the bar moving and the load even
    chunk = max(1, min(250, n_games // (4 * workers) or 1))
    chunks = [seeds[i : i + chunk] for i in range(0, n_games, chunk)]
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n_games, desc=f"{cls.__name__} games", unit="game")
    rows: list[dict[str, Any]] = []
    if workers == 1 or len(chunks) <= 1:
        for part in chunks:
            rows.extend(_play_chunk(cls, options, part))
            if bar is not None:
                bar.update(len(part))
    else:
        from joblib import Parallel, delayed

        parallel = Parallel(n_jobs=n_jobs, return_as="generator")
        for part in parallel(delayed(_play_chunk)(cls, options, p) for p in chunks):
            rows.extend(part)
            if bar is not None:
                bar.update(len(part))
    if bar is not None:
        bar.close()
    result: dict[str, list[Any]] = {"game": list(range(n_games))}
    for key in rows[0] if rows else cls(**options)._sim_row():
        result[key] = [row[key] for row in rows]
    return result
