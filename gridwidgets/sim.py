"""Many random games at once: joblib for the processes, tqdm for progress."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

__all__ = ["simulate"]


def _seeds(n_games: int, seed: int | None) -> list[int]:
    children = np.random.SeedSequence(seed).spawn(n_games)
    return [int(c.generate_state(1)[0]) for c in children]


def _play_chunk(cls: type, options: dict[str, Any], seeds: list[int]) -> list[tuple[Any, ...]]:
    out = []
    for s in seeds:
        g = cls(**options)
        g._rollout(random.Random(s))
        out.append(_result(g))
    return out


def _result(g: Any) -> tuple[Any, ...]:
    won_by_last = len(g.winners) == 1 and max(g.scores) == getattr(g, "tiles_per_player", -1)
    return (sum(g.scores), g.winners, tuple(g.scores), tuple(getattr(g, "blocked", ())), won_by_last)


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
    rows: list[tuple[Any, ...]] = []
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
    names = cls(**options).players
    result: dict[str, list[Any]] = {
        "game": list(range(n_games)),
        "length": [r[0] for r in rows],
        "winners": [r[1] for r in rows],
        "winner": [r[1][0] if len(r[1]) == 1 else -1 for r in rows],
        "shared": [len(r[1]) > 1 for r in rows],
        "last_tile": [r[4] for r in rows],
    }
    for k, name in enumerate(names):
        result[f"score_{name}"] = [r[2][k] for r in rows]
    for k, name in enumerate(names):
        result[f"blocked_{name}"] = [bool(r[3][k]) if r[3] else False for r in rows]
    return result
