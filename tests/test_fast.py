"""The compiled kernels (gridwidgets.fast, numba) against the Python engines,
for every registered game that has one: the same seed must give exactly the
same random games (replayed move by move through ``play()``), the same
``simulate`` rows, and the same MCTS moves and statistics."""

from __future__ import annotations

import random

import pytest

from gridwidgets import fast
from gridwidgets.agents import MCTSAgent, RandomAgent
from gridwidgets.core import registry
from gridwidgets.sim import game_seeds

pytest.importorskip("numba")

COMPILED = {name: cls for name, cls in registry.games().items() if cls.compiled_module}


def _option_sets(cls):
    """The default options, the small ones, and every preset."""
    out = [{}, dict(cls.small_options)]
    out += [dict(opts) for _, opts in cls.presets.values()]
    seen, unique = set(), []
    for o in out:
        key = repr(sorted(o.items()))
        if key not in seen:
            seen.add(key)
            unique.append(o)
    return unique


@pytest.fixture(autouse=True)
def _python_and_compiled():
    yield
    fast.set_enabled(True)


def test_every_registered_game_has_a_kernel():
    """What the issue asks: compiled playouts of all the package's games."""
    own = {n for n, c in registry.games().items() if c.__module__.startswith("gridwidgets.games.")}
    assert own <= set(COMPILED), own - set(COMPILED)


@pytest.mark.parametrize("name", sorted(COMPILED))
def test_compiled_random_games_replay_through_play(name):
    """A compiled random game, replayed move by move through ``play()`` (every
    move legal), ends where the Python rollout of the same seed ends."""
    cls = COMPILED[name]
    for options in _option_sets(cls):
        for seed in game_seeds(6, 11):
            g = cls.new_for_seed(options, seed)
            if fast.kernel(g, force=True) is None:
                continue
            moves = fast.random_game_moves(g, seed)
            replay = cls.new_for_seed(options, seed)
            for m in moves:
                replay.play(m, player=replay.players_to_move[0])
            assert replay.is_over
            python = cls.new_for_seed(options, seed)
            python._rollout(random.Random(seed))
            assert python.winners == replay.winners
            assert python.scores == replay.scores
            assert python.result_row() | {"length": 0} == replay.result_row() | {"length": 0}


@pytest.mark.parametrize("name", sorted(COMPILED))
def test_simulate_rows_are_the_python_rows(name):
    """``simulate`` gives the same table with and without the compiled path."""
    cls = COMPILED[name]
    options = dict(cls.small_options)
    fast.set_enabled(False)
    python = cls.simulate(40, seed=3, progress=False, **options)
    fast.set_enabled(True)
    compiled = cls.simulate(40, seed=3, progress=False, **options)
    assert python.equals(compiled)


def _positions(cls, options, n=4, seed=0):
    """Positions along a random game, for the search tests."""
    rng = random.Random(seed)
    g = cls.new_for_seed(options, 7)
    out = [g.copy()]
    agent = RandomAgent(seed=seed)
    while not g.is_over and len(out) < n:
        for _ in range(rng.randint(1, 3)):
            if g.is_over:
                break
            p = g.players_to_move[0]
            g.play(agent.choose(g.view_for(p) if g.is_simultaneous_node() else g), player=p)
        if not g.is_over:
            out.append(g.copy())
    return out


@pytest.mark.parametrize("name", sorted(COMPILED))
def test_compiled_mcts_is_the_python_search(name):
    """MCTSAgent with the compiled search chooses the same move with the same
    root statistics as the Python search, from the same seed."""
    cls = COMPILED[name]
    options = dict(cls.small_options)
    for k, g in enumerate(_positions(cls, options)):
        me = g.players_to_move[0]
        view = g.view_for(me)
        if fast.kernel(view, force=True) is None or len(view.legal_moves(me)) < 2:
            continue
        results = []
        for flag in (False, True):
            fast.set_enabled(flag)
            agent = MCTSAgent(simulations=300, seed=k)
            move = agent.choose(view)
            results.append((str(move), agent.last_stats, agent.last_simulations))
        assert results[0] == results[1], (name, k)


def test_compiled_search_records_history_and_stops():
    """``analyse(record_every=)`` and a time budget work on the compiled path too."""
    cls = COMPILED["gridlock"]
    g = cls(rows=4, cols=4)
    hist = []
    for flag in (False, True):
        fast.set_enabled(flag)
        agent = MCTSAgent(simulations=500, seed=2)
        agent.analyse(g, record_every=100)
        hist.append(agent.last_history)
    assert hist[0] == hist[1]
    assert [n for n, _ in hist[1]] == [100, 200, 300, 400, 500]
    fast.set_enabled(True)
    timed = MCTSAgent(time=0.05, seed=None)
    assert timed.choose(g) in g.legal_moves()
    assert timed.last_simulations > 0


def test_the_stream_is_pythons():
    """The compiled Mersenne Twister draws what ``random.Random`` draws."""
    import numpy as np

    from gridwidgets.fast import mt

    for seed in (0, 1, 2**32 - 1, 2**40 + 7, 3**60):
        r = random.Random(seed)
        state = mt.seeded(mt.key_of(seed))
        assert list(state) == list(mt.from_random(r))
        for n in (1, 2, 3, 7, 100, 400, 2**31 + 5):
            assert [r.randrange(n) for _ in range(200)] == [mt.randbelow(state, n) for _ in range(200)]
        x, a = list(range(10)), np.arange(10)
        r.shuffle(x)
        mt.shuffle(state, a, 0, 10)
        assert x == list(a)
        assert r.random() == mt.random01(state)


@pytest.mark.parametrize("name", sorted(COMPILED))
def test_simulate_table_is_built_as_from_the_rows(name):
    """``simulate``'s compiled table, built column by column from the
    kernel's results, is the table ``pandas`` makes of the Python games'
    result rows: the same columns, order, dtypes and values, with one and
    two processes, and when some chunks come back as rows (a worker
    without the compiled path)."""
    import pandas as pd

    from gridwidgets.sim import RandomGames, simulate

    cls = COMPILED[name]
    for options in _option_sets(cls)[:3]:
        seeds = game_seeds(30, 5)
        rows = [RandomGames(cls, options).play(s).result_row() for s in seeds]
        expected = pd.DataFrame(rows, columns=list(rows[0]))
        expected.insert(0, "game", range(len(rows)))
        for n_jobs in (1, 2):
            got = simulate(cls, 30, seed=5, n_jobs=n_jobs, progress=False, **options)
            pd.testing.assert_frame_equal(got, expected, check_exact=True)
        assert fast.random_game_rows(cls, options, seeds) == rows
        games = RandomGames(cls, options)
        parts = [games.table(seeds[:10]), rows[10:20], games.table(seeds[20:])]
        pd.testing.assert_frame_equal(games.frame(parts, cls(**options)), expected, check_exact=True)


def test_simulate_plays_the_games_it_played_before_the_speed_work(monkeypatch):
    """GridMaster4's ``simulate`` gives the table of the code before issue
    29's speed work (the copy ``benchmarks/simulate_before.py`` that
    ``scale_speed.py`` times): the same seeds, games and rows, for several
    options, seeds and sizes."""
    import importlib.util
    import sys
    from pathlib import Path

    import pandas as pd

    import gridwidgets as gw
    from gridwidgets.sim import simulate

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "simulate_before.py"
    spec = importlib.util.spec_from_file_location("simulate_before", path)
    before = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "simulate_before", before)  # numba finds its functions' module by name
    spec.loader.exec_module(before)
    for options in ({}, {"size": 8, "tiles": 20}, {"size": 9, "players": 3, "tiles": 15, "deactivate": "all"},
                    {"size": 10, "players": 1}, {"size": 26, "players": 2, "tiles": 300}):
        for seed, n in ((0, 1), (1, 300), (2**100 + 3, 57)):
            got = simulate(gw.GridMaster4, n, seed=seed, progress=False, **options)
            pd.testing.assert_frame_equal(got, before.simulate_before(n, seed, **options), check_exact=True)
