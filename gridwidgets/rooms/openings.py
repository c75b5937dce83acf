"""The exact equilibrium of a game's opening, computed once per opening and ahead of time.

The results page measures what a class chose at a game's opening
simultaneous node against its subgame-perfect equilibrium: the node's matrix
game whose entries are the exact values of the rest of the game
(:func:`gridwidgets.analysis.solve_simultaneous`). Only an opening the solver
settles within :data:`OPENING_SECONDS` has one: an opening far from the end
of its game (the first bid of a long game) depends on the whole game, which is too
large to solve, and then there is no equilibrium to show (a one-turn proxy
would be noise presented as theory). An opening is solved once per server
(the cache is keyed by the opening position itself, not by the moves played
after it), and a room asks for it as soon as it starts a game
(:func:`prepare`, on one background thread), so the results are ready when
the teacher opens them.
"""

from __future__ import annotations

import json
import queue
import threading
from concurrent.futures import Future
from typing import Any

from ..core.game import Game

__all__ = ["MAX_OPENINGS", "OPENING_SECONDS", "equilibrium", "key", "opens_with_a_choice", "prepare"]

#: the most openings kept (a game whose setup is drawn by chance has one per setup)
MAX_OPENINGS = 256
#: the exact solver's budget (seconds) for one opening; beyond it the opening has no equilibrium shown
OPENING_SECONDS = 20.0
#: after this many openings of one game could not be solved in time, its other openings are not
#: tried (they start the same game, as far from its end: one background thread's time saved)
MAX_UNSOLVED = 2

_lock = threading.Lock()
_solved: dict[str, Any] = {}
_unsolved: dict[str, int] = {}  # game id -> openings the solver did not settle
_running: dict[str, Future[Any]] = {}
_todo: queue.Queue[tuple[str, Game, Future[Any], int]] = queue.Queue()
_worker: threading.Thread | None = None
_generation = [0]  # forget() starts a new one: a computation begun before it keeps nothing


def _work() -> None:
    """The background thread (a daemon: it never holds up the end of the process)."""
    while True:
        k, opening, future, generation = _todo.get()
        if generation != _generation[0]:  # asked before forget(): nobody waits for it in this cache
            future.set_result(None)
            continue
        try:
            future.set_result(_solve(k, opening))
        except Exception as exc:  # the asker gets the error; the thread goes on
            with _lock:
                _running.pop(k, None)
            future.set_exception(exc)


def _opening(game: Game) -> Game:
    """A copy of ``game`` at its first position (step 0)."""
    opening = game.copy()
    if opening.step_count:
        opening.goto(0)
    return opening


def opens_with_a_choice(game: Game) -> bool:
    """True if ``game``'s first position is a simultaneous node of two players."""
    return _is_choice(_opening(game))


def _is_choice(opening: Game) -> bool:
    return len(opening.players) == 2 and opening.is_simultaneous_node()


def key(game: Game) -> str:
    """The opening of ``game`` as text: its save file at step 0 without the
    moves after it (two games with the same setup share it)."""
    return _key(_opening(game))


def _key(opening: Game) -> str:
    data = {k: v for k, v in opening.to_dict().items() if k not in ("future", "board")}
    return json.dumps(data, sort_keys=True)


def _solve(text_key: str, opening: Game) -> Any:
    from ..analysis import SolveBudgetExceeded, solve_simultaneous

    game_id = type(opening).game_id
    result: Any = None
    with _lock:
        hopeless = _unsolved.get(game_id, 0) >= MAX_UNSOLVED
        generation = _generation[0]
    if not hopeless:
        try:
            result = solve_simultaneous(opening, root_matrix=True, time_limit=OPENING_SECONDS, progress=False).root
        except (SolveBudgetExceeded, ValueError):  # too large to solve exactly, or not a zero-sum game: none
            with _lock:
                if generation == _generation[0]:
                    _unsolved[game_id] = _unsolved.get(game_id, 0) + 1
    with _lock:
        if generation == _generation[0]:
            if len(_solved) < MAX_OPENINGS:
                _solved[text_key] = result
            _running.pop(text_key, None)
    return result


def equilibrium(game: Game) -> Any:
    """The exact subgame-perfect equilibrium of ``game``'s opening (a
    :class:`~gridwidgets.analysis.SimultaneousNode`: both mixes, the exact
    matrix, the value), or ``None`` when the solver does not settle the opening
    within :data:`OPENING_SECONDS`: from the cache, or waiting for
    :func:`prepare`'s computation, or computed now."""
    opening = _opening(game)
    k = _key(opening)
    with _lock:
        if k in _solved:
            return _solved[k]
        running = _running.get(k)
    if running is not None:
        return running.result()
    return _solve(k, opening)


def prepare(game: Game) -> None:
    """Start solving ``game``'s opening on the background thread if it opens
    with a simultaneous node of two players and is not solved yet (a room
    calls it when it starts a game). Never blocks; at most one opening is
    solved at a time."""
    global _worker
    opening = _opening(game)
    if not _is_choice(opening):
        return
    k = _key(opening)
    with _lock:
        if k in _solved or k in _running or len(_solved) + len(_running) >= MAX_OPENINGS:
            return
        future: Future[Any] = Future()
        _running[k] = future
        if _worker is None or not _worker.is_alive():
            _worker = threading.Thread(target=_work, name="gridwidgets-openings", daemon=True)
            _worker.start()
        generation = _generation[0]
    _todo.put((k, opening, future, generation))


def forget() -> None:
    """Empty the cache (for measurements and tests); computations under way
    finish, and keep nothing (their openings are solved again when asked)."""
    with _lock:
        _generation[0] += 1
        _solved.clear()
        _unsolved.clear()
        _running.clear()
