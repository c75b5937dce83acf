"""Many games at once: one seeded runner for ``simulate`` and ``tournament``.

joblib runs the chunks in processes, tqdm shows progress, numpy's
``SeedSequence`` gives every game its own seed: the results never depend on
how many processes ran them.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from .core.game import Game

__all__ = ["StreamedRun", "game_seeds", "read_run", "run_chunks", "simulate"]

T = TypeVar("T")
R = TypeVar("R")


# O'Neill's seed_seq hash as numpy's SeedSequence runs it (numpy/random/bit_generator.pyx)
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715
_MASK32 = 0xFFFFFFFF
_POOL = 4


def game_seeds(n: int, seed: int | None) -> list[int]:
    """``n`` independent seeds spawned from ``seed``: child ``i`` of
    ``numpy.random.SeedSequence(seed).spawn(n)``, its ``generate_state(1)[0]``;
    ``seed=None`` draws fresh entropy.

    An int ``seed`` (and ``None``) takes :func:`_spawned_words`, numpy's
    computation vectorised over the children; any other entropy numpy
    accepts (a sequence of ints) spawns the children one by one.
    """
    root = np.random.SeedSequence(seed)
    if isinstance(root.entropy, (int, np.integer)):
        return _spawned_words(int(root.entropy), n).tolist()
    return [int(c.generate_state(1)[0]) for c in root.spawn(n)]


def _spawned_words(entropy: int, n: int) -> np.ndarray:
    """``SeedSequence(entropy, spawn_key=(i,)).generate_state(1)[0]`` for
    ``i`` in ``0 .. n - 1`` (what ``spawn(n)`` gives), as ``uint32``.

    numpy's ``SeedSequence`` (``numpy/random/bit_generator.pyx``, after
    M. E. O'Neill's ``seed_seq`` replacement, "Developing a seed_seq
    Alternative", pcg-random.org, 2015) hashes the entropy's 32-bit words,
    zero-padded to the pool size when there is a spawn key, then the spawn
    key's word ``i``. The multiplier of the hash moves on by a fixed step per
    word whatever the words are, so everything before ``i`` is the same for
    every child and is computed once here, in Python ints; only the last
    word's mix into the first pool word, and the one output word, are
    computed per child, on ``uint32`` arrays (wrapping as the C code does).
    """
    if n > 1 << 32:
        raise ValueError(f"at most 2**32 games per seed, got {n}")
    words = []
    rest = entropy
    while True:
        words.append(rest & _MASK32)
        rest >>= 32
        if not rest:
            break
    words += [0] * (_POOL - len(words))
    hash_const = _INIT_A

    def hashmix(value: int) -> int:
        nonlocal hash_const
        value ^= hash_const
        hash_const = hash_const * _MULT_A & _MASK32
        value = value * hash_const & _MASK32
        return value ^ value >> 16

    def mix(x: int, y: int) -> int:
        r = (_MIX_L * x - _MIX_R * y) & _MASK32
        return r ^ r >> 16

    pool = [hashmix(w) for w in words[:_POOL]]
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    for w in words[_POOL:]:
        for dst in range(_POOL):
            pool[dst] = mix(pool[dst], hashmix(w))
    # the spawn key's word i, hashed and mixed into pool[0] (the other pool words are not read)
    mult = hash_const * _MULT_A & _MASK32
    x = np.arange(n, dtype=np.uint32) ^ np.uint32(hash_const)
    x *= np.uint32(mult)
    x ^= x >> np.uint32(16)
    x = np.uint32(_MIX_L * pool[0] & _MASK32) - np.uint32(_MIX_R) * x
    x ^= x >> np.uint32(16)
    # generate_state(1): the first pool word, hashed once more
    x ^= np.uint32(_INIT_B)
    x *= np.uint32(_INIT_B * _MULT_B & _MASK32)
    x ^= x >> np.uint32(16)
    return x


def run_chunks(
    work: Callable[[list[T]], list[R]],
    items: Sequence[T],
    *,
    n_jobs: int | None = 1,
    progress: bool = True,
    desc: str = "games",
    unit: str = "game",
    max_chunk: int = 250,
    per_chunk: bool = False,
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
        desc: the bar's label.
        unit: the bar's unit (games, matches, ...).
        max_chunk: the most items in one chunk (a few chunks per worker keep
            the bar moving and the load even).
        per_chunk: ``work`` returns one result for its whole chunk (e.g. an
            array with a row per item), kept as it is.

    Returns:
        The results, in the order of ``items`` whatever ``n_jobs`` is: one
        per item, or with ``per_chunk`` one per chunk.
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
                done = work(part)
                if per_chunk:
                    out.append(done)
                else:
                    out.extend(done)
                if bar is not None:
                    bar.update(len(part))
        else:
            from joblib import Parallel, delayed

            kw: dict[str, Any] = {} if n_jobs is None else {"n_jobs": n_jobs}
            try:
                parallel = Parallel(return_as="generator", **kw)
            except ValueError:  # backends without generators (multiprocessing, Ray): all at once
                parallel = Parallel(**kw)
            for part, done in zip(chunks, parallel(delayed(work)(p) for p in chunks), strict=True):
                if per_chunk:
                    out.append(done)
                else:
                    out.extend(done)
                if bar is not None:
                    bar.update(len(part))
    finally:
        if bar is not None:
            bar.close()
    return out


class RandomGames:
    """The work of :func:`simulate`: random games of one class (picklable)."""

    def __init__(self, cls: type[Game], options: dict[str, Any], start: Game | None = None) -> None:
        self.cls = cls
        self.options = options
        self.start = start

    def play(self, seed: int) -> Game:
        """The finished random game of ``seed`` (from a copy of :attr:`start` if given)."""
        from .core.game import Game
        from .core.hooks import fast_path_applies

        g = self.start.copy() if self.start is not None else self.cls.new_for_seed(self.options, seed)
        if fast_path_applies(type(g), "_rollout"):
            g._rollout(random.Random(seed))
        else:  # a variant of an engine with a rollout of its own: its rules, move by move
            Game._rollout(g, random.Random(seed))
        return g

    def row(self, game: Game, seed: int) -> dict[str, Any]:
        """The game's row of the result."""
        return game.result_row()

    def __call__(self, seeds: list[int]) -> list[dict[str, Any]]:
        return [self.row(self.play(s), s) for s in seeds]

    def table(self, seeds: list[int]) -> np.ndarray | list[dict[str, Any]]:
        """The games of ``seeds`` as the compiled kernel's ``int64`` result
        table (:func:`~gridwidgets.fast.random_game_table`) when these games
        have one and the compiled path is on here (in this worker), else as
        rows played in Python: the same games either way."""
        if type(self).play is RandomGames.play and type(self).row is RandomGames.row and self.start is None:
            from . import fast

            table = fast.random_game_table(self.cls, self.options, seeds) if fast.enabled() else None
            if table is not None:
                return table
        return self(seeds)

    def frame(self, parts: list[np.ndarray | list[dict[str, Any]]], probe: Game, first: int = 0) -> pd.DataFrame:
        """The ``pandas.DataFrame`` of the games of :meth:`table`'s ``parts``
        (in order), a ``game`` column numbering them from ``first``: built
        column by column from the kernel's tables when every part is one,
        else from the rows. ``probe``: a game of these options."""
        import pandas as pd

        n = sum(len(part) for part in parts)
        if n and all(isinstance(part, np.ndarray) for part in parts):
            from .fast import result_columns

            columns = result_columns(probe, np.concatenate(parts))
            return pd.DataFrame({"game": np.arange(first, first + n, dtype=np.int64), **columns})
        from .fast import result_rows

        rows = []
        for part in parts:  # a worker without the compiled path sent rows: every part as rows
            rows.extend(result_rows(probe, part) if isinstance(part, np.ndarray) else part)
        frame = pd.DataFrame(rows, columns=list(rows[0]) if rows else list(probe.result_row()))
        frame.insert(0, "game", range(first, first + n))
        return frame


def simulate(
    cls: type[Game],
    n_games: int,
    seed: int | None = None,
    n_jobs: int | None = 1,
    progress: bool = True,
    parquet: str | os.PathLike[str] | None = None,
    batch: int = 10_000,
    start: Game | str | None = None,
    **options: Any,
) -> pd.DataFrame | StreamedRun:
    """Play ``n_games`` uniformly random games of ``cls(**options)``
    (:meth:`Game.simulate <gridwidgets.core.Game.simulate>` says what comes back).

    With ``start``, a position's text (``Game.position()``) or a game of
    ``cls``, every game starts there instead (the game's history, if any,
    is kept and counts in ``length``; the options come from it, so none may
    be given); such runs are played in Python, move by move.

    With ``parquet=DIR`` the games go in batches of ``batch`` to a Parquet
    dataset in the folder ``DIR``, each batch written as it arrives (one
    file per batch, written whole then renamed, so a crash loses at most the
    batches being played), and a :class:`StreamedRun` comes back instead of
    a table: memory stays bounded whatever ``n_games``. Calling again with
    the same arguments resumes: the batches on disk are kept (no game twice,
    none missing) and only the others are played. The games are the same as
    without ``parquet``, whatever ``n_jobs`` or backend.

    Raises:
        ValueError: for a bad ``n_games``, ``batch``, options or ``start``
            (a position refused by ``from_position``, a game of another
            class, options given with it, a ``parquet`` run from a game with
            a history); a folder holding another run (other game, options,
            seed or size).
        ImportError: ``parquet`` without pyarrow.
    """
    if not isinstance(n_games, int) or isinstance(n_games, bool) or n_games < 0:
        raise ValueError(f"n_games must be a non-negative int, got {n_games!r}")
    first = _start_game(cls, start, options)
    probe = first if first is not None else cls(**options)  # check the options once, with a clear error
    if parquet is not None:
        if first is not None:
            if first.history or first.pending:
                raise ValueError("a parquet run starts at a position: give its text or a game with no history")
            options = {**first.options(), "start": first.position()}
        return _stream(cls, options, probe, n_games, seed, n_jobs, progress, Path(parquet), batch)
    seeds = game_seeds(n_games, seed)
    from . import fast

    # compiled games are quick: larger chunks keep a worker's overhead per game small
    compiled = first is None and fast.enabled() and fast.kernel(probe) is not None
    games = RandomGames(cls, options, first)
    parts = run_chunks(games.table, seeds, n_jobs=n_jobs, progress=progress, desc=f"{cls.game_type.long_name} games",
                       max_chunk=5000 if compiled else 250, per_chunk=True)
    return games.frame(parts, probe)


def _start_game(cls: type[Game], start: Game | str | None, options: dict[str, Any]) -> Game | None:
    """The game every simulated game copies, from ``simulate``'s ``start`` (checked)."""
    if start is None:
        return None
    if options:
        raise ValueError(f"give either start or options, not both: the options come from the start "
                         f"({', '.join(sorted(options))[:80]} given)")
    if isinstance(start, str):
        return cls.from_position(start)
    if type(start) is not cls:
        raise ValueError(f"start must be a position's text or a {cls.__name__}, got {type(start).__name__}")
    return start.copy()


# ----------------------------------------------------------------------
# Streaming to Parquet, with resume
# ----------------------------------------------------------------------
@dataclass
class StreamedRun:
    """What :func:`simulate` returns with ``parquet=``: a finished run on disk.

    Attributes:
        path: the folder of the Parquet dataset (``part-<first game>.parquet``
            files and ``run.json``, what the run is).
        n_games: games in the run; ``batch``: games per file.
        seed: the root seed given; ``entropy``: the one used (equal unless
            ``seed`` was None).
        played: games played by this call; ``kept``: games found on disk
            from an earlier call (resumed).
        seconds: wall time of this call.
    """

    path: Path
    n_games: int
    batch: int
    seed: int | None
    entropy: int
    played: int
    kept: int
    seconds: float

    def read(self, columns: list[str] | None = None) -> pd.DataFrame:
        """The games as one ``pandas.DataFrame`` in game order (all columns, or
        ``columns``), ``winners`` as tuples: equal to :func:`simulate`'s table."""
        return read_run(self.path, columns)

    def game(self, index: int) -> Game:
        """Game ``index`` of the run (row ``index`` of :meth:`read`), played
        again move by move through ``play()`` from its seed: the finished
        game, with its history (``undo``, a widget's replay).

        Raises:
            IndexError: ``index`` outside ``0 .. n_games - 1``.
            ValueError: the folder's ``run.json`` is missing or names a game
                that is not registered.
        """
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < self.n_games:
            raise IndexError(f"game index must be an int in 0..{self.n_games - 1}, got {str(index)[:30]!r}")
        meta = _read_meta(Path(self.path))
        if meta is None:
            raise ValueError(f"{str(self.path)[:80]!r} holds no streamed run (no run.json)")
        from .core.game import Game
        from .core.registry import lookup_id

        cls = lookup_id(str(meta["game"]))
        if cls is None:
            raise ValueError(f"the run's game {str(meta['game'])[:40]!r} is not registered")
        # child ``index`` of game_seeds(n, entropy), without spawning the others
        seed = int(np.random.SeedSequence(int(meta["entropy"]), spawn_key=(index,)).generate_state(1)[0])
        options = dict(meta["options"])
        start = options.pop("start", None)
        g = cls.new_for_seed(options, seed) if start is None else cls.from_position(str(start))
        Game._rollout(g, random.Random(seed))  # the generic rollout: every move through play()
        return g


def read_run(path: str | os.PathLike[str], columns: list[str] | None = None) -> pd.DataFrame:
    """A streamed run (:func:`simulate` with ``parquet=``) as a ``pandas.DataFrame``
    in game order; ``columns`` to read only those (``game`` is always read).

    Raises:
        ValueError: a folder without a finished run.
    """
    import pyarrow.parquet as pq

    folder = Path(path)
    meta = _read_meta(folder)
    if meta is None:
        raise ValueError(f"{str(folder)[:80]!r} holds no streamed run (no run.json)")
    parts = _parts(folder, meta)
    missing = [s for s in _starts(meta) if s not in parts]
    if missing:
        raise ValueError(f"the run is not finished: {len(missing)} of {len(_starts(meta))} batches are missing "
                         f"(the first at game {missing[0]}); call simulate again with the same arguments to resume")
    cols = None if columns is None else ["game", *[c for c in columns if c != "game"]]
    import pandas as pd

    frames = [pq.read_table(parts[s], columns=cols).to_pandas() for s in sorted(parts)]
    frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=cols or ["game"])
    if "winners" in frame.columns:
        frame["winners"] = [tuple(int(x) for x in w) for w in frame["winners"]]
    return frame


def _run_options(cls: type[Game], options: dict[str, Any], probe: Game) -> dict[str, Any]:
    """The options that make the run's games (``run.json``): the probe's full
    options (defaults spelled out), except for a game whose setup each seed
    draws (``Chance.SEEDED_SETUP`` without a ``seed`` option), whose probe
    holds one drawn setup, and a run from a ``start`` position: there the
    options as given."""
    from .core.gametype import Chance

    drawn = cls.game_type.chance is Chance.SEEDED_SETUP and "seed" not in options
    given = drawn or "start" in options  # a run from a start position: its options and the position
    return json.loads(json.dumps(options if given else probe.options(), default=str))


def _starts(meta: dict[str, Any]) -> list[int]:
    return list(range(0, int(meta["n_games"]), int(meta["batch"])))


def _read_meta(folder: Path) -> dict[str, Any] | None:
    f = folder / "run.json"
    if not f.is_file():
        return None
    try:
        text = f.read_text(errors="replace")[:100_000]
        if text.count("[") + text.count("{") > 64:  # ours nests a few levels: refuse deep nesting unparsed
            raise ValueError("nested too deep")
        meta = json.loads(text)
    except (OSError, ValueError) as exc:
        raise ValueError(f"{str(f)[:80]!r} is not a run description: {exc}"[:200]) from None
    if not isinstance(meta, dict) or not {"game", "options", "entropy", "n_games", "batch"} <= set(meta):
        raise ValueError(f"{str(f)[:80]!r} is not a run description")
    return meta


def _parts(folder: Path, meta: dict[str, Any]) -> dict[int, Path]:
    """The complete batch files on disk, by first game (a file is only there
    complete: each is written to a temporary name, then renamed)."""
    out = {}
    wanted = set(_starts(meta))
    for f in folder.glob("part-*.parquet"):
        try:
            start = int(f.stem.split("-", 1)[1])
        except ValueError:
            continue
        if start in wanted:
            out[start] = f
    return out


class _Batch:
    """The work of one streamed batch (picklable): its games' rows as a pyarrow table."""

    def __init__(self, cls: type[Game], options: dict[str, Any], probe: Game) -> None:
        start = options.get("start")
        self.games = RandomGames(cls, options, None if start is None else cls.from_position(start))
        self.probe = probe

    def __call__(self, start: int, seeds: list[int]) -> tuple[int, Any]:
        import pyarrow as pa

        frame = self.games.frame([self.games.table(seeds)], self.probe, start)
        frame["winners"] = [list(w) for w in frame["winners"]]
        return start, pa.Table.from_pandas(frame, preserve_index=False)


def _stream(cls: type[Game], options: dict[str, Any], probe: Game, n_games: int, seed: int | None,
            n_jobs: int | None, progress: bool, folder: Path, batch: int) -> StreamedRun:
    try:
        import pyarrow.parquet as pq
    except ImportError as exc:  # pragma: no cover - pyarrow is in the extras
        raise ImportError("simulate(parquet=...) needs pyarrow: pip install 'gridwidgets[parquet]'") from exc
    if not isinstance(batch, int) or isinstance(batch, bool) or batch < 1:
        raise ValueError(f"batch must be a positive int, got {batch!r}")
    t0 = time.perf_counter()
    folder.mkdir(parents=True, exist_ok=True)
    old = _read_meta(folder)
    if seed is None and old is not None:
        seed_used = int(old["entropy"])  # resume a run started without a seed
    else:
        seed_used = int(np.random.SeedSequence(seed).entropy)  # type: ignore[arg-type]
    meta = {"game": probe.game_id or cls.__name__, "options": _run_options(cls, options, probe),
            "entropy": seed_used, "n_games": n_games, "batch": batch}
    if old is not None and any(old.get(k) != v for k, v in meta.items()):
        diff = ", ".join(f"{k} {old.get(k)!r} here, {v!r} asked" for k, v in meta.items() if old.get(k) != v)
        raise ValueError(f"{str(folder)[:80]!r} holds another run ({diff[:160]}): use a new folder")
    if old is None:
        tmp = folder / "run.json.tmp"
        tmp.write_text(json.dumps(meta, indent=1))
        os.replace(tmp, folder / "run.json")
    done = _parts(folder, meta)
    seeds = game_seeds(n_games, seed_used)
    todo = [s for s in _starts(meta) if s not in done]
    kept = sum(min(batch, n_games - s) for s in done)
    work = _Batch(cls, options, probe)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n_games, initial=kept, desc=f"{cls.game_type.long_name} games", unit="game")

    def write(start: int, table: Any) -> None:
        tmp = folder / f"part-{start:012d}.parquet.tmp"
        pq.write_table(table, tmp)
        os.replace(tmp, folder / f"part-{start:012d}.parquet")
        if bar is not None:
            bar.update(table.num_rows)

    try:
        jobs = [(s, seeds[s : s + batch]) for s in todo]
        if n_jobs == 1 or len(jobs) <= 1:
            for s, part in jobs:
                write(*work(s, part))
        else:
            _parallel_batches(work, jobs, n_jobs, write)
    finally:
        if bar is not None:
            bar.close()
    return StreamedRun(path=folder, n_games=n_games, batch=batch, seed=seed, entropy=seed_used,
                       played=n_games - kept, kept=kept, seconds=time.perf_counter() - t0)


def _parallel_batches(work: Callable[..., Any], jobs: list[tuple[int, list[int]]], n_jobs: int | None,
                      write: Callable[..., None]) -> None:
    """Run the batches on joblib's workers (or its configured backend), writing
    each as it comes back, a few per worker at a time (bounded memory)."""
    from joblib import Parallel, delayed, effective_n_jobs

    workers = effective_n_jobs() if n_jobs is None else effective_n_jobs(n_jobs)
    kw: dict[str, Any] = {} if n_jobs is None else {"n_jobs": n_jobs}
    try:
        parallel = Parallel(return_as="generator_unordered", pre_dispatch="2*n_jobs", **kw)
        wave = len(jobs)
    except ValueError:  # backends that hand results back all at once (Ray): one batch per worker at a time
        parallel = Parallel(**kw)
        wave = max(1, workers)
    for i in range(0, len(jobs), wave):
        for start, table in parallel(delayed(work)(s, part) for s, part in jobs[i : i + wave]):
            write(start, table)
