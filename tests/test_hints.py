"""The hints overlay, Python side (docs/frontend.md, "Hints"): the ``hints``,
``hint_budget`` and ``hint_data`` traits of every widget, the worker thread
and its version check, and :func:`gridwidgets.widgets.base.compute_hints`.
No browser (the drawing is tested in tests/frontend/test_hints_frontend.py)."""

from __future__ import annotations

import threading
import time

import pytest

import gridwidgets as gw
from gridwidgets.widgets.base import HINT_KINDS, compute_hints

WAIT = 60


def join_all_hint_threads(timeout: float = WAIT) -> None:
    """Wait for every hint worker, also the ones whose result is dropped."""
    for t in threading.enumerate():
        if t.name.startswith("gridwidgets-hints"):
            t.join(timeout)


def minimax(game, me: int) -> int:
    """The result for ``me`` (+1 win, -1 loss, 0 draw or shared) under perfect
    play, by a plain exhaustive search through the public API only."""
    if game.is_over:
        winners = list(game.winners)
        if me in winners:
            return 1 if len(winners) == 1 else 0
        return -1 if winners else 0
    mover = game.current_player
    values = []
    for move in game.legal_moves():
        game.play(move)
        try:
            values.append(minimax(game, me))
        finally:
            game.undo()
    return max(values) if mover == me else min(values)


def exact_labels(game) -> dict[str, str]:
    me = game.current_player
    out = {}
    for move in game.legal_moves():
        game.play(move)
        try:
            v = minimax(game, me)
        finally:
            game.undo()
        out[str(move)] = "win" if v > 0 else "loss" if v < 0 else "draw"
    return out


def solved(widget) -> dict:
    widget.hints = "solve"
    data = widget.wait_hints(WAIT)
    assert data["status"] == "done", data
    return data


# ---------------------------------------------------------------------------
# the traits


def test_defaults_and_kinds():
    w = gw.Gridlock(3, 3).widget()
    assert HINT_KINDS == ("", "solve", "mcts")
    assert w.hints == ""
    assert 0.05 <= w.hint_budget <= 60
    # nothing is computed while hints are off
    assert w.hint_data.get("status", "off") == "off"
    assert not w.hint_data.get("moves")
    assert {"hints", "hint_budget", "hint_data"} <= set(w.keys)


@pytest.mark.parametrize("size", [(2, 2), (2, 3), (3, 3)])
def test_solve_labels_match_plain_minimax(size):
    game = gw.Gridlock(*size)
    w = game.widget(hint_budget=30)
    data = solved(w)
    assert data["kind"] == "solve"
    assert data["version"] == game.version
    moves = data["moves"]
    legal = {str(m) for m in game.legal_moves()}
    assert set(moves) == legal  # every legal move, nothing else
    want = exact_labels(game)
    assert {m: h["label"] for m, h in moves.items()} == want
    for h in moves.values():
        assert h["value"] == {"win": 1.0, "loss": -1.0, "draw": 0.0}[h["label"]]
        assert isinstance(h["best"], bool)
    # the best moves are exactly those with the top value
    top = max(h["value"] for h in moves.values())
    assert {m for m, h in moves.items() if h["best"]} == {m for m, h in moves.items() if h["value"] == top}
    mover = game.players[game.current_player]
    verdict = "wins" if top > 0 else "loses"
    assert data["message"].startswith(f"{mover} {verdict} with perfect play")
    w.close()


def test_solve_follows_the_game_and_matches_minimax_later_on():
    game = gw.Gridlock(3, 4)
    w = game.widget(hint_budget=30)
    solved(w)
    game.play("B2")  # a move in code: the hints follow the new position
    data = w.wait_hints(WAIT)
    assert data["status"] == "done" and data["version"] == game.version
    assert {m: h["label"] for m, h in data["moves"].items()} == exact_labels(game)
    w.close()


def test_gridbloc_solve_on_a_tiny_board_labels_every_wall():
    game = gw.GridBloc(size=3)
    w = game.widget(hint_budget=30)
    first = solved(w)
    assert set(first["moves"]) == {str(m) for m in game.legal_moves()}
    game.play(str(game.legal_moves()[0]))  # the runner steps: the blocker's walls
    data = w.wait_hints(WAIT)
    assert data["status"] == "done" and data["version"] == game.version
    assert set(data["moves"]) == {str(m) for m in game.legal_moves()}
    assert all("|" in m for m in data["moves"])
    assert all(h["label"] in ("win", "loss", "draw") for h in data["moves"].values())
    w.close()


def _mcts_games():
    return [
        pytest.param(lambda: gw.Gridlock(3, 3), id="gridlock"),
        pytest.param(lambda: gw.GridMaster4(size=6), id="gridmaster4"),
        pytest.param(lambda: gw.BlockFour(seed=1), id="blockfour"),
        pytest.param(lambda: gw.GridBloc(size=4), id="gridbloc"),
    ]


@pytest.mark.parametrize("make", _mcts_games())
def test_mcts_gives_a_share_per_legal_move(make):
    game = make()
    w = game.widget(hint_budget=0.2)
    w.hints = "mcts"
    data = w.wait_hints(WAIT)
    assert data["status"] == "done", data
    assert data["kind"] == "mcts" and data["version"] == game.version
    moves = data["moves"]
    assert set(moves) == {str(m) for m in game.legal_moves()}
    assert sum(h["share"] for h in moves.values()) == pytest.approx(1.0, abs=1e-6)
    for h in moves.values():
        assert 0.0 <= h["share"] <= 1.0
        assert -1.0 <= h["value"] <= 1.0
        assert h["label"] == f"{h['share']:.0%}"
    most = max(h["share"] for h in moves.values())
    assert any(h["best"] for h in moves.values())
    assert all(h["share"] == pytest.approx(most) for h in moves.values() if h["best"])
    assert "simulations" in data["message"]
    w.close()


def test_invalid_kind_is_refused_and_reset():
    game = gw.Gridlock(3, 3)
    w = game.widget()
    version = game.version
    w.hints = "magic"
    assert w.hints == ""
    assert "Refused" in w.state["message"] and "hints" in w.state["message"]
    assert w.state["message_kind"] == "error"
    assert w.hint_data["status"] == "off"
    assert game.version == version  # the game is untouched
    # the browser's path: set_state (what save_changes does)
    w.set_state({"hints": "magic"})
    assert w.hints == ""
    w.close()


def test_turning_hints_off_posts_off():
    w = gw.Gridlock(3, 3).widget(hint_budget=5)
    solved(w)
    w.hints = ""
    assert w.hint_data["status"] == "off"
    assert w.hint_data["moves"] == {}
    w.close()


def test_game_over_posts_over():
    game = gw.Gridlock(2, 2)
    while not game.is_over:
        game.play(game.legal_moves()[0])
    w = game.widget()
    w.hints = "solve"
    data = w.wait_hints(WAIT)
    assert data["status"] == "over" and data["moves"] == {}
    w.close()


def test_a_move_while_computing_drops_the_late_result():
    game = gw.Gridlock(4, 4)
    w = game.widget(hint_budget=0.6)
    posted = []

    def record(change):
        data = change["new"]
        posted.append((data.get("status"), data.get("version"), game.version))

    w.observe(record, "hint_data")
    w.hints = "mcts"
    assert w.hint_data["status"] == "computing" and w.hint_data["version"] == game.version
    time.sleep(0.05)
    game.play("B2")  # while the first search still runs
    # at once: the overlay of the old position is gone, the new one is computing
    assert w.hint_data["status"] == "computing" and w.hint_data["version"] == game.version
    join_all_hint_threads()
    data = w.wait_hints(WAIT)
    assert data["status"] == "done" and data["version"] == game.version
    assert set(data["moves"]) == {str(m) for m in game.legal_moves()}
    # every result posted was for the position shown at that moment: the
    # first search's result (version 0) was dropped
    done = [(v, now) for status, v, now in posted if status == "done"]
    assert done and all(v == now for v, now in done)
    assert 0 not in [v for v, _ in done]
    w.close()


def test_close_drops_a_result_still_computing():
    game = gw.Gridlock(4, 4)
    w = game.widget(hint_budget=0.3)
    w.hints = "mcts"
    w.close()
    join_all_hint_threads()
    assert w.hint_data.get("status") == "computing"


def test_budget_change_recomputes():
    game = gw.Gridlock(3, 3)
    w = game.widget(hint_budget=0.1)
    w.hints = "mcts"
    w.wait_hints(WAIT)
    w.hint_budget = 0.15
    assert w.hint_data["status"] == "computing"
    assert w.wait_hints(WAIT)["status"] == "done"
    w.close()


@pytest.mark.parametrize("make", [lambda: gw.GridMaster4(size=6), lambda: gw.BlockFour(seed=1)],
                         ids=["gridmaster4", "blockfour"])
def test_a_game_that_cannot_be_solved_does_not_offer_solve_hints(make):
    # the metadata decides (more than two players; simultaneous hidden moves): Python refuses
    game = make()
    w = game.widget()
    assert "solve" not in w.state["contract"]["hint_kinds"] and "mcts" in w.state["contract"]["hint_kinds"]
    w.hints = "solve"
    assert w.hints == "" and "offers the hints 'mcts'" in w.state["message"]
    assert game.version == 0
    w.close()


@pytest.mark.parametrize(
    "make, words",
    [
        pytest.param(lambda: gw.Gridlock(8, 8), ["solve stopped", "time_limit"], id="too-big"),
    ],
)
def test_solve_that_cannot_be_done_is_an_error_not_an_exception(make, words):
    game = make()
    w = game.widget(hint_budget=0.05)
    w.hints = "solve"  # never raises into the notebook
    data = w.wait_hints(WAIT)
    assert data["status"] == "error"
    assert data["kind"] == "solve" and data["version"] == game.version
    assert data["moves"] == {}
    for word in words:
        assert word in data["message"]
    # the game still plays, and MCTS still works on it
    w.hint_budget = 0.1
    w.hints = "mcts"
    assert w.wait_hints(WAIT)["status"] == "done"
    w.close()


def test_compute_hints_directly():
    game = gw.Gridlock(3, 3)
    out = compute_hints("solve", game, 10)
    mcts = compute_hints("mcts", game, 0.1)
    assert game.version == 0 and not game.history  # the game is not changed
    assert set(out) >= {"moves", "message"}
    assert {m: h["label"] for m, h in out["moves"].items()} == exact_labels(game)
    assert sum(h["share"] for h in mcts["moves"].values()) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        compute_hints("solve", gw.GridMaster4(size=6), 1)
