"""Compiled playouts and search (the optional extra ``gridwidgets[fast]``, numba).

A game whose class names a :attr:`~gridwidgets.core.Game.compiled_module`
has its rules compiled by numba over a flat ``int64`` state. When numba is
installed, :func:`~gridwidgets.sim.simulate` plays its random games there
and :class:`~gridwidgets.agents.MCTSAgent` (random rollouts) searches
there, with exactly the results of the Python engines: the kernels draw
from the same ``random.Random`` stream (``gridwidgets.fast.mt``),
consider the moves in the same order and apply the same arithmetic, so a
seed gives the same games, the same moves and the same statistics on
either path (tested by replaying compiled games through ``play()``).
Without numba everything runs in Python as before.

``import gridwidgets`` never imports numba; the first compiled call of a
game compiles its kernels (a few seconds, then cached on disk by numba).
Set the environment variable ``GRIDWIDGETS_COMPILED=0``, or call
:func:`set_enabled` ``(False)``, to use the Python engines only.

A kernel module gives, in Python: ``supports(game) -> bool``,
``encode(game) -> np.ndarray`` (the position as the kernel's state),
``decode(game, code) -> move``, ``max_moves(game) -> int`` (a bound on
the legal moves of any position), ``extra_columns(game, extra) -> dict``
(the game's own result columns, as arrays, from the last columns of the
kernel's result table), ``ROW_EXTRA`` (how many numbers those take); compiled: the rule functions of
``gridwidgets.fast.drivers`` and the entry points ``random_games``,
``random_moves``, ``uct_run`` (each a call of the driver of that name with
the game's rule functions, so numba can cache them).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import random
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from ..core.game import Game

__all__ = ["CompiledSearch", "available", "enabled", "kernel", "random_game_moves", "random_game_rows",
           "random_game_table", "require", "result_columns", "result_rows", "set_enabled"]

_enabled = os.environ.get("GRIDWIDGETS_COMPILED", "1").strip().lower() not in ("0", "false", "no", "off")
_kernels: dict[str, ModuleType] = {}

INSTALL = "pip install 'gridwidgets[fast]'"


def available() -> bool:
    """True when numba can be imported (the extra ``gridwidgets[fast]`` is installed)."""
    import sys

    if "numba" in sys.modules:
        return sys.modules["numba"] is not None
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):
        return False


def enabled() -> bool:
    """True when the compiled path is used: numba is there and it is not turned off
    (:func:`set_enabled`, or ``GRIDWIDGETS_COMPILED=0`` in the environment)."""
    return _enabled and available()


def set_enabled(flag: bool) -> None:
    """Use the compiled kernels when numba is there (``True``, the default) or
    only the Python engines (``False``). The results are the same either way."""
    global _enabled
    _enabled = bool(flag)


def require() -> None:
    """Raise ``ImportError`` saying what to install when numba is missing."""
    if not available():
        raise ImportError(f"the compiled playouts need numba: {INSTALL}")


def kernel(game: Game, *, force: bool = False) -> ModuleType | None:
    """The compiled kernel module for ``game``'s class and options, or ``None``
    (no kernel for this game or these options, numba missing, or turned off).

    Args:
        game: a game (its class names the module, its options decide support;
            a subclass that does not name the module itself gets none, see
            :func:`~gridwidgets.core.hooks.fast_path_applies`).
        force: return the kernel even when turned off by :func:`set_enabled`
            (tests comparing both paths); numba is still needed.
    """
    from ..core.hooks import fast_path_applies

    name = getattr(type(game), "compiled_module", None)
    if not name or not (force or _enabled) or not available():
        return None
    if not fast_path_applies(type(game), "compiled_module"):  # a variant: its own rules, in Python
        return None
    mod = _kernels.get(name)
    if mod is None:
        mod = _kernels[name] = importlib.import_module(name)
    return mod if mod.supports(game) else None


def result_columns(game: Game, table: np.ndarray) -> dict[str, np.ndarray]:
    """The kernel's result table (one ``int64`` row per game: length, the
    winners' bit mask, the scores, the game's own numbers) as the columns of
    :meth:`Game.result_row <gridwidgets.core.Game.result_row>`, in its
    order: ``int64`` and ``bool`` arrays, and ``winners`` an ``object``
    array of tuples, the dtypes ``pandas`` gives those rows.

    Built column by column (a lookup table by winners' mask), never a dict
    per game: what keeps ``simulate``'s table cheap beside the playouts.
    """
    mod = kernel(game, force=True)
    if mod is None:
        raise ValueError(f"{type(game).__name__} with {game.options()} has no compiled kernel")
    names = game.players
    p = len(names)
    winners = np.empty(1 << p, dtype=object)
    winner = np.full(1 << p, -1, dtype=np.int64)
    shared = np.zeros(1 << p, dtype=bool)
    for mask in range(1 << p):
        w = tuple(q for q in range(p) if mask >> q & 1)
        winners[mask] = w
        if len(w) == 1:
            winner[mask] = w[0]
        shared[mask] = len(w) > 1
    masks = table[:, 1]
    columns: dict[str, np.ndarray] = {"length": table[:, 0].copy(), "winners": winners[masks],
                                      "winner": winner[masks], "shared": shared[masks]}
    for q, name in enumerate(names):
        columns[f"score_{name}"] = table[:, 2 + q].copy()
    columns.update(mod.extra_columns(game, table[:, 2 + p:]))
    return columns


def random_game_table(cls: type[Game], options: dict[str, Any], seeds: list[int]) -> np.ndarray | None:
    """The compiled results of the random games ``simulate`` plays, one
    ``int64`` row per seed (:func:`result_columns` reads them): the game
    ``cls.new_for_seed(options, seed)`` played with ``random.Random(seed)``,
    exactly as in Python; ``None`` when there is no compiled kernel for
    these games.

    Args:
        cls: the game class.
        options: its options (as for ``cls.new_for_seed``).
        seeds: ints below ``2**32`` (:func:`~gridwidgets.sim.game_seeds`).
    """
    from ..core.gametype import Chance

    first = cls.new_for_seed(options, int(seeds[0]) if seeds else 0)
    mod = kernel(first)
    if mod is None:
        return None
    if cls.game_type.chance is Chance.SEEDED_SETUP and seeds:  # each game's setup is drawn from its seed
        templates = np.stack([mod.encode(first)] + [mod.encode(cls.new_for_seed(options, int(s))) for s in seeds[1:]])
    else:
        templates = mod.encode(first)[None, :]
    p = len(first.players)
    table = np.zeros((len(seeds), 2 + p + mod.ROW_EXTRA), dtype=np.int64)
    if seeds:
        buf = np.empty(mod.max_moves(first), dtype=np.int64)
        mod.random_games(templates, np.asarray(seeds, dtype=np.int64), table, buf)
    return table


def random_game_rows(cls: type[Game], options: dict[str, Any], seeds: list[int]) -> list[dict[str, Any]] | None:
    """The result rows of the random games ``simulate`` plays, one per seed:
    the game ``cls.new_for_seed(options, seed)`` played with
    ``random.Random(seed)``, exactly as in Python, as
    :meth:`Game.result_row <gridwidgets.core.Game.result_row>` dicts;
    ``None`` when there is no compiled kernel for these games.

    Args:
        cls: the game class.
        options: its options (as for ``cls.new_for_seed``).
        seeds: ints below ``2**32`` (:func:`~gridwidgets.sim.game_seeds`).
    """
    table = random_game_table(cls, options, seeds)
    if table is None:
        return None
    return result_rows(cls.new_for_seed(options, int(seeds[0]) if seeds else 0), table)


def result_rows(game: Game, table: np.ndarray) -> list[dict[str, Any]]:
    """The kernel's result table as :meth:`Game.result_row
    <gridwidgets.core.Game.result_row>` dicts (Python ints, bools and tuples)."""
    columns = result_columns(game, table)
    values = [c.tolist() for c in columns.values()]
    return [dict(zip(columns, row, strict=True)) for row in zip(*values, strict=True)]


def random_game_moves(game: Game, seed: int | random.Random) -> list[Any]:
    """The moves of the random game the compiled kernel plays from ``game``
    with ``random.Random(seed)`` (or that stream itself, left where the game
    ends), as move objects ``game.play`` takes: what the tests replay.

    Raises:
        ImportError: without numba. ValueError: no kernel for this game.
    """
    require()
    mod = kernel(game, force=True)
    if mod is None:
        raise ValueError(f"{type(game).__name__} with {game.options()} has no compiled kernel")
    from .mt import from_random, to_random

    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    state_mt = from_random(rng)
    bound = game.max_game_length() or 1_000_000
    out = np.empty(bound + 1, dtype=np.int64)
    buf = np.empty(mod.max_moves(game), dtype=np.int64)
    n = mod.random_moves(mod.encode(game), state_mt, buf, out)
    to_random(state_mt, rng)
    return [mod.decode(game, int(c)) for c in out[:n]]


class CompiledSearch:
    """An MCTS tree built by a game's compiled ``uct_run`` (the search of
    :class:`~gridwidgets.agents.MCTSAgent`, step for step).

    Args:
        game: the root position (read once, not changed).
        mod: the game's kernel (:func:`kernel`).
        rng: the search's ``random.Random``; each :meth:`run` continues its
            stream and leaves it where the Python search would.
        c: the UCB1 exploration constant.
    """

    def __init__(self, game: Game, mod: ModuleType, rng: random.Random, c: float) -> None:
        from .mt import from_random

        self.game, self.mod, self.rng, self.c = game, mod, rng, float(c)
        self.state = mod.encode(game)
        self.mt = from_random(rng)
        self.buf = np.empty(mod.max_moves(game), dtype=np.int64)
        self.nodes = np.empty((1024, 9), dtype=np.int64)
        self.wsum = np.empty(1024, dtype=np.float64)
        self.pool = np.empty((8192, 3), dtype=np.int64)
        self.pool_w = np.empty(8192, dtype=np.float64)
        self.jchild = np.empty(64, dtype=np.int64)
        self.meta = np.zeros(4, dtype=np.int64)
        self.n_players = len(game.players)

    @property
    def player(self) -> int:
        """``-1`` when the root is a simultaneous node (decoupled UCT), else ``0``
        (as ``MCTSAgent``'s root nodes tell the two kinds apart)."""
        return -1 if self.meta[0] and self.nodes[0, 3] == 1 else 0

    @property
    def simulations(self) -> int:
        """Simulations run so far."""
        return int(self.meta[3])

    def run(self, sims: int) -> None:
        """Run ``sims`` more simulations."""
        from .mt import to_random

        self.nodes, self.wsum, self.pool, self.pool_w, self.jchild = self.mod.uct_run(
            self.nodes, self.wsum, self.pool, self.pool_w, self.jchild, self.meta, self.state, self.mt,
            int(sims), self.c, self.n_players, self.buf)
        to_random(self.mt, self.rng)

    def root_table(self, me: int) -> list[tuple[Any, int, float]]:
        """Per root move of ``me``: ``(move, visits, summed return)``, in the
        order of ``MCTSAgent``'s own table."""
        from .drivers import root_table

        codes, visits, w = root_table(self.nodes, self.wsum, self.pool, self.pool_w, me)
        decode = self.mod.decode
        return [(decode(self.game, int(m)), int(n), float(x))
                for m, n, x in zip(codes.tolist(), visits.tolist(), w.tolist(), strict=True)]
