"""Scale: the same games on a real Dask LocalCluster and a real local Ray as
with ``n_jobs=1``, streaming to Parquet with resume, a worker killed by PID
mid-run, agents that cannot be pickled, and the extras' imports."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading

import joblib
import pytest
from waiting import wait_until

import gridwidgets as gw
from gridwidgets.agents import GreedyAgent, RandomAgent
from gridwidgets.analysis import sprt, tournament
from gridwidgets.core import registry
from gridwidgets.sim import read_run, simulate

AGENTS = {"random": RandomAgent(), "greedy": GreedyAgent()}


def _ref(n, seed, **opts):
    return simulate(gw.GridMaster4, n, seed=seed, progress=False, **opts)


# -- Dask ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                       host="127.0.0.1")
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def test_simulate_on_dask_is_the_same_as_one_process(dask_client):
    ref = _ref(3000, 5, size=10, players=4)
    with joblib.parallel_config(backend="dask"):
        out = simulate(gw.GridMaster4, 3000, seed=5, n_jobs=None, progress=False, size=10, players=4)
    assert out.equals(ref)
    assert len(dask_client.run(os.getpid)) == 2


def test_tournament_on_dask_is_the_same_as_one_process(dask_client):
    ref = tournament(gw.Gridlock, AGENTS, games=40, seed=3, progress=False, rows=4, cols=4)
    with joblib.parallel_config(backend="dask"):
        out = tournament(gw.Gridlock, AGENTS, games=40, seed=3, n_jobs=-1, progress=False, rows=4, cols=4)
    assert out.records == ref.records


def test_the_lab_on_dask_gives_the_same_table_as_one_process(dask_client):
    from gridwidgets import lab

    kw = dict(games=300, trace_games=40, seed=8, progress=False, check=0, solve_seconds=0, size=8, players=[2, 4])
    ref = lab.measure(gw.GridMaster4, n_jobs=1, **kw)
    with joblib.parallel_config(backend="dask"):
        out = lab.measure(gw.GridMaster4, n_jobs=None, **kw)
    assert out.equals(ref) and out.attrs["records"].equals(ref.attrs["records"])


def test_sprt_decision_does_not_depend_on_the_backend(dask_client):
    kw = dict(names=("greedy", "random"), seed=4, progress=False, rows=4, cols=4, max_games=400)
    ref = sprt(gw.Gridlock, GreedyAgent(), RandomAgent(), **kw)
    with joblib.parallel_config(backend="dask"):
        out = sprt(gw.Gridlock, GreedyAgent(), RandomAgent(), n_jobs=-1, **kw)
    assert (out.decision, out.llr, out.records) == (ref.decision, ref.llr, ref.records)


def test_a_dask_worker_killed_mid_run_costs_only_its_batch(dask_client, tmp_path):
    """SIGKILL one worker while the batches stream to Parquet: the nanny
    restarts it, Dask plays the lost batch again, every game is there once."""
    ref = _ref(6000, 9, size=12)
    folder = tmp_path / "run"
    pids = list(dask_client.run(os.getpid).values())
    box = {}

    def run():
        with joblib.parallel_config(backend="dask"):
            box["run"] = simulate(gw.GridMaster4, 6000, seed=9, n_jobs=None, progress=False, parquet=folder,
                                  batch=250, size=12)

    t = threading.Thread(target=run)
    t.start()
    wait_until(lambda: list(folder.glob("part-*.parquet")) or not t.is_alive(), 300, "a first batch on disk")
    assert t.is_alive(), "the run ended before a worker could be killed"
    os.kill(pids[0], signal.SIGKILL)
    t.join(300)
    assert not t.is_alive(), "the run did not end within 300 s of a worker's SIGKILL"
    frame = read_run(folder)
    assert frame["game"].is_unique and len(frame) == 6000
    assert frame.equals(ref)


# -- Ray ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ray_backend():
    ray = pytest.importorskip("ray")
    from joblib.pool import PicklingPool
    from ray.util.joblib import register_ray

    # Ray's joblib backend makes joblib's own process pool a Ray pool, for the
    # rest of the process (``PicklingPool.__bases__ = (ray Pool,)``): put it
    # back, or later tests on joblib's "multiprocessing" backend run on Ray
    bases = PicklingPool.__bases__
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
             object_store_memory=150 * 1024 * 1024)
    register_ray()
    yield
    ray.shutdown()
    PicklingPool.__bases__ = bases


def test_simulate_and_tournament_on_ray_are_the_same_as_one_process(ray_backend, tmp_path):
    ref = _ref(2000, 6, size=10)
    with joblib.parallel_config(backend="ray"):
        out = simulate(gw.GridMaster4, 2000, seed=6, n_jobs=-1, progress=False, size=10)
        streamed = simulate(gw.GridMaster4, 2000, seed=6, n_jobs=-1, progress=False, size=10,
                            parquet=tmp_path / "ray", batch=300)
        res = tournament(gw.Gridlock, AGENTS, games=24, seed=2, n_jobs=-1, progress=False, rows=4, cols=4)
    assert out.equals(ref)
    assert streamed.read().equals(ref)
    assert res.records == tournament(gw.Gridlock, AGENTS, games=24, seed=2, progress=False, rows=4, cols=4).records
    from gridwidgets import lab

    kw = dict(games=200, trace_games=30, seed=7, progress=False, check=0, solve_seconds=0, rows=[3, 4], cols=4)
    with joblib.parallel_config(backend="ray"):
        on_ray = lab.measure(gw.Gridlock, n_jobs=-1, **kw)
    assert on_ray.equals(lab.measure(gw.Gridlock, n_jobs=1, **kw))


# -- Parquet streaming and resume ----------------------------------------------------------
def test_a_streamed_run_reads_back_equal_and_resumes_after_a_crash(tmp_path):
    ref = _ref(2500, 4, size=10)
    folder = tmp_path / "gm4"
    run = simulate(gw.GridMaster4, 2500, seed=4, progress=False, parquet=folder, batch=400, size=10)
    assert (run.played, run.kept) == (2500, 0)
    assert run.read().equals(ref)
    parts = sorted(folder.glob("part-*.parquet"))
    assert len(parts) == 7
    parts[3].unlink()  # a crash while the fourth batch was written: no file for it
    (folder / "part-000000000400.parquet.tmp").write_bytes(b"half a file")
    with pytest.raises(ValueError, match="not finished"):
        read_run(folder)
    again = simulate(gw.GridMaster4, 2500, seed=4, progress=False, parquet=folder, batch=400, size=10)
    assert (again.played, again.kept) == (400, 2100)
    assert again.read().equals(ref)
    assert read_run(folder, columns=["winner"]).columns.tolist() == ["game", "winner"]


@pytest.mark.parametrize("name", sorted(registry.games()))
def test_every_game_resumes_its_run_and_plays_any_game_of_it_again(name, tmp_path):
    """Every registered game: a second call with the same arguments finds the
    whole run on disk (also a game whose setup each seed draws), and
    ``run.game(i)`` replays game ``i`` through ``play()`` to its row."""
    cls = registry.games()[name]
    opts = dict(cls.small_options)
    run = simulate(cls, 120, seed=8, progress=False, parquet=tmp_path / name, batch=50, **opts)
    again = simulate(cls, 120, seed=8, progress=False, parquet=tmp_path / name, batch=50, **opts)
    assert (again.played, again.kept) == (0, 120)
    table = run.read()
    assert table.equals(simulate(cls, 120, seed=8, progress=False, **opts))
    for i in (0, 49, 50, 119):
        g = run.game(i)
        assert g.is_over and g.history, "replayed through play(), history kept"
        row, ref = g.result_row(), table.iloc[i]
        assert tuple(g.winners) == ref["winners"]
        assert {k: row[k] for k in row if k not in ("length", "winners")} == {
            k: ref[k] for k in row if k not in ("length", "winners")}
    for bad in (-1, 120, "3", True):
        with pytest.raises(IndexError, match="game index"):
            run.game(bad)


def test_a_folder_of_another_run_is_refused(tmp_path):
    folder = tmp_path / "gm4"
    simulate(gw.GridMaster4, 100, seed=1, progress=False, parquet=folder, batch=50, size=8)
    for kw in (dict(seed=2), dict(size=9), dict(batch=40)):
        args = dict(seed=1, size=8, batch=50) | kw
        with pytest.raises(ValueError, match="another run"):
            simulate(gw.GridMaster4, 100, progress=False, parquet=folder, **args)
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "run.json").write_text("[" * 50_000)
    with pytest.raises(ValueError, match="not a run description"):
        read_run(tmp_path / "bad")
    with pytest.raises(ValueError, match="batch"):
        simulate(gw.GridMaster4, 10, seed=1, progress=False, parquet=tmp_path / "x", batch=0)


def test_a_run_without_seed_resumes_with_its_own_entropy(tmp_path):
    folder = tmp_path / "free"
    first = simulate(gw.Gridlock, 300, progress=False, parquet=folder, batch=100)
    (folder / "part-000000000100.parquet").unlink()
    again = simulate(gw.Gridlock, 300, progress=False, parquet=folder, batch=100)
    assert again.entropy == first.entropy and again.played == 100
    assert again.read().equals(simulate(gw.Gridlock, 300, seed=first.entropy, progress=False))


def _loky_workers() -> list[int]:
    """The PIDs of this process's loky workers that are alive now. A worker
    may end (or be a zombie not yet reaped by loky) between the listing and
    the look at its command line: such a process is skipped, not an error."""
    import psutil

    pids = []
    for p in psutil.Process().children(recursive=True):
        try:
            if p.status() != psutil.STATUS_ZOMBIE and "loky" in " ".join(p.cmdline()):
                pids.append(p.pid)
        except psutil.Error:  # NoSuchProcess, ZombieProcess, AccessDenied
            continue
    return pids


def test_a_loky_worker_killed_mid_run_loses_only_batches_in_flight(tmp_path):
    """SIGKILL a local worker process: the call fails, the batches written
    stay, and the same call again plays only the missing ones."""
    ref = _ref(8000, 12, size=12)
    folder = tmp_path / "killed"
    box: dict[str, BaseException] = {}

    def run():
        try:
            simulate(gw.GridMaster4, 8000, seed=12, n_jobs=2, progress=False, parquet=folder, batch=200, size=12)
        except BaseException as exc:
            box["error"] = exc

    t = threading.Thread(target=run)
    t.start()
    wait_until(lambda: len(list(folder.glob("part-*.parquet"))) >= 3 or not t.is_alive(), 300,
                "three batches written by the two workers")
    workers = wait_until(lambda: _loky_workers() or not t.is_alive(), 60, "a loky worker alive")
    assert t.is_alive(), "the run ended before a worker could be killed (8000 games in under three batches' time?)"
    os.kill(workers[0], signal.SIGKILL)
    t.join(300)
    assert not t.is_alive(), "the run did not end within 300 s of a worker's SIGKILL"
    written = len(list(folder.glob("part-*.parquet")))
    if "error" in box:  # the usual case: the pool broke
        assert written < 40
    again = simulate(gw.GridMaster4, 8000, seed=12, n_jobs=2, progress=False, parquet=folder, batch=200, size=12)
    assert again.kept == 200 * written
    frame = again.read()
    assert frame["game"].is_unique and frame.equals(ref)


# -- pickling and extras ---------------------------------------------------------------------
class _Locked(RandomAgent):
    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()


def test_an_agent_that_cannot_be_pickled_is_named_before_any_worker_starts():
    with pytest.raises(TypeError, match="agent 'locked' cannot be sent to worker processes"):
        tournament(gw.Gridlock, {"random": RandomAgent(), "locked": _Locked()}, games=4, n_jobs=2, progress=False)
    with pytest.raises(TypeError, match="agent 'locked'"):
        sprt(gw.Gridlock, _Locked(), RandomAgent(), names=("locked", "random"), n_jobs=2, progress=False)


def test_importing_gridwidgets_imports_no_heavy_extra():
    code = ("import sys, gridwidgets, gridwidgets.sim, gridwidgets.agents, gridwidgets.analysis, gridwidgets.fast; "
            "print(sorted(m for m in ('numba', 'dask', 'distributed', 'ray', 'pyarrow') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_without_numba_everything_runs_in_python_and_says_what_to_install():
    code = ("import sys; sys.modules['numba'] = None\n"
            "import gridwidgets as gw\nfrom gridwidgets import fast\nfrom gridwidgets.agents import MCTSAgent\n"
            "print(fast.available(), len(gw.GridMaster4.simulate(20, seed=1, progress=False, size=8)))\n"
            "print(MCTSAgent(simulations=50, seed=0).choose(gw.Gridlock()))\n"
            "try:\n    fast.require()\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0] == "False 20"
    assert "gridwidgets[fast]" in out[2]
    # the Python search gives the compiled search's move
    from gridwidgets.agents import MCTSAgent

    assert out[1] == str(MCTSAgent(simulations=50, seed=0).choose(gw.Gridlock()))


