"""Hardening (issue 12): input from outside, of any shape and size, never
loses a game. The fuzzers of :mod:`gridwidgets.fuzzing` (hypothesis
strategies) over every registered game: page messages, save files,
hand-built move objects, and several threads driving one game; the corpus
of nasty files in ``tests/nasty/``; and the regressions the first fuzzing
found, named by their rules. ``benchmarks/hardening.py`` runs the same
fuzzers at scale and prints the figures."""

from __future__ import annotations

import json
import pathlib
import threading

import pytest

import gridwidgets as gw
from gridwidgets import fuzzing
from gridwidgets.core import registry
from gridwidgets.core.errors import IllegalMoveError, InvalidMoveError, shorten
from gridwidgets.core.game import CellMove, Game, JointMove
from gridwidgets.core.gametype import GameType
from gridwidgets.core.savefile import MAX_SAVE_CHARS
from gridwidgets.testing import GameCheckError, check_game

NAMES = sorted(gw.registry.games())
NASTY = pathlib.Path(__file__).parent / "nasty"


def _check(report: fuzzing.FuzzReport) -> None:
    assert report.ok, str(report)
    assert report.refused > 0 and report.accepted > 0, str(report)  # both ways were tried


@pytest.mark.parametrize("name", NAMES)
def test_c5_fuzzed_page_messages_are_refused_untouched_or_applied_whole(name):
    _check(fuzzing.fuzz_messages(gw.registry.get(name), n=150, seed=1))


@pytest.mark.parametrize("name", NAMES)
def test_fuzzed_save_files_are_refused_with_value_error_or_load_a_playable_game(name):
    _check(fuzzing.fuzz_files(gw.registry.get(name), n=150, seed=2))


@pytest.mark.parametrize("name", NAMES)
def test_c5_hand_built_move_objects_are_illegal_move_errors_or_legal_moves(name):
    _check(fuzzing.fuzz_moves(gw.registry.get(name), n=250, seed=3))


@pytest.mark.parametrize("name", NAMES)
def test_one_game_driven_from_five_threads_stays_consistent(name):
    report = fuzzing.stress_threads(gw.registry.get(name), seconds=1.5, seed=4)
    assert report.ok, str(report)
    assert report.tried > 50 and report.extra["positions"] > 5, str(report)
    assert report.extra["hint_threads"] <= 1, str(report)  # one worker per widget, old ones stopped


def test_the_fuzzers_find_a_widget_that_lets_a_page_play_an_agent_seat(monkeypatch):
    """The message fuzzer can fail: a widget without the seat check is caught."""
    from gridwidgets.widgets.base import GameWidget

    def careless(self, content):
        try:
            self.game.play(content.get("move"))
        except IllegalMoveError:
            self._say("Illegal move.")
            return False
        return True

    monkeypatch.setattr(GameWidget, "_play", careless)
    report = fuzzing.fuzz_messages(gw.registry.get("gridlock"), n=300, seed=1)
    assert report.lost and any("agent seat" in f for f in report.failures), str(report)


def test_the_fuzzers_find_a_save_that_forgets_the_moves_to_redo(monkeypatch):
    original = Game.to_dict

    def forgetful(self):
        return {**original(self), "future": []}

    monkeypatch.setattr(Game, "to_dict", forgetful)
    report = fuzzing.fuzz_files(gw.registry.get("gridlock"), n=20, seed=2)
    assert report.lost, str(report)


# -- check_game(fuzz=n): the same for a user's own game ---------------------------
def test_check_game_fuzzes_a_users_game_and_catches_a_trusting_one():
    from test_conformance import Line

    assert check_game(Line, n_games=3, seed=0, fuzz=60).fuzzed > 60

    class Trusting(Line):
        """Broken: a CellMove made by hand is taken as it is (an IndexError off the strip)."""

        game_type = GameType(short_name="conformance_trusting", long_name="Trusting",
                             move_kinds=Line.game_type.move_kinds)

        def parse_move(self, value, player=None):
            return value if isinstance(value, CellMove) else super().parse_move(value, player)

    with pytest.raises(GameCheckError, match="fuzzed input"):
        check_game(Trusting, n_games=2, seed=0, widget=False, fuzz=150)


# -- the corpus of nasty files ----------------------------------------------------
BAD = sorted(p for p in NASTY.glob("bad-*") if p.is_file())
GOOD = sorted(NASTY.glob("ok-*.json"))


def test_the_corpus_is_there():
    assert len(BAD) >= 15 and len(GOOD) >= 4


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_a_nasty_file_is_refused_with_a_short_value_error_by_every_loader(path):
    raw = path.read_bytes()
    for loader in [Game.from_json, *(cls.from_json for cls in gw.registry.games().values())]:
        for given in (raw, raw.decode("utf-8", errors="replace")):
            with pytest.raises(ValueError) as info:
                loader(given)
            assert not isinstance(info.value, RecursionError)
            assert len(str(info.value)) < 600


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.name)
def test_an_odd_but_valid_file_loads_and_saves_back_the_same(path):
    text = path.read_text()
    g = Game.from_json(text)
    assert json.loads(g.to_json()) == json.loads(text)
    assert type(g).from_json(g.to_json()) == g


def test_a_file_longer_than_a_save_file_holds_is_refused_before_parsing():
    with pytest.raises(ValueError, match="more than a save file holds"):
        Game.from_json(" " * (MAX_SAVE_CHARS + 1))
    with pytest.raises(ValueError, match="more than a save file holds"):
        gw.Gridlock.from_json(b"[" * (MAX_SAVE_CHARS + 1))


@pytest.mark.parametrize("text", ['"\\"' * 200_000, "[]" * 500_000, '{"a":"' + "[" * 100 + '"}'])
def test_the_depth_check_reads_strings_and_long_input_in_one_pass(text):
    with pytest.raises(ValueError, match="not a gridwidgets save file"):
        Game.from_json(text)


# -- regressions the first fuzzing found (issue 12) --------------------------------
def test_bf5_every_save_after_going_back_reloads_equal():
    g = gw.BlockFour(seed=7)
    rng = __import__("random").Random(1)
    for _ in range(14):
        fuzzing._random_step(g, rng)
    while g.steps or g.pending:
        g.undo()
        assert gw.BlockFour.from_json(g.to_json()) == g
    while g.future:
        g.redo()
        assert gw.BlockFour.from_json(g.to_json()) == g


def test_bf5_a_hidden_bid_is_left_out_of_the_save_and_equality():
    g = gw.BlockFour(seed=3)
    before = g.copy()
    g.play(g.legal_moves(1)[0], player=1)
    assert g.to_json() == before.to_json() and g == before
    assert gw.BlockFour.from_json(g.to_json()) == g


def test_c3_a_page_cannot_bid_for_an_agent_seat():
    g = gw.BlockFour(seed=2)
    w = g.widget(agents={1: gw.agents.RandomAgent(seed=0)})
    try:
        bid = str(g.legal_moves(1)[0])
        assert not w.handle_intent({"type": "play", "move": bid, "player": 1, "version": g.version})
        assert g.pending == () and "played by" in w.state["message"]
        assert w.handle_intent({"type": "play", "move": str(g.legal_moves(0)[0]), "player": 0})
    finally:
        w.close()


def test_gb10_an_edit_of_the_wrong_kind_is_refused_with_the_board_unchanged():
    g = gw.GridBloc()
    w = g.widget()
    try:
        before = g.to_json()
        assert not w.handle_intent({"type": "edit", "action": "hole", "target": "D4|E4"})
        assert "Internal error" not in w.state["message"] and g.to_json() == before
        with pytest.raises(IllegalMoveError, match="GB-10"):
            gw.GridBloc(setup=True).play("start " + g.board_spec()["start"])
    finally:
        w.close()


@pytest.mark.parametrize("move", [CellMove(("a", "b")), CellMove((0.5, 0)), CellMove((True, 0)), CellMove((-1, 0)),
                                  CellMove((0, 9)), CellMove((0, 0, 0)), JointMove((0,), (CellMove((0, 0)),)),
                                  b"A1", 3.0, None, object()])
@pytest.mark.parametrize("name", NAMES)
def test_c5_a_move_object_that_is_not_legal_is_an_illegal_move_error(name, move):
    g = gw.registry.get(name)(**gw.registry.get(name).small_options)
    before = g.to_json()
    with pytest.raises(IllegalMoveError):
        g.play(move)
    assert g.to_json() == before and g.is_legal(move) is False


def test_c1_a_hand_made_cell_of_a_bigger_board_is_off_this_one():
    g = gw.GridBloc(size=2)
    with pytest.raises(IllegalMoveError, match="C-1"):
        g.play(CellMove((0, 2)))
    assert repr(CellMove((-1, -5))).startswith("CellMove(")


def test_bf5_a_hand_made_bid_or_placement_is_checked_like_its_notation():
    from gridwidgets.games.blockfour import Bid, Placement

    g = gw.BlockFour(seed=1)
    for move in (Bid(0, ("I", "I")), Bid(0, (["I"], "L")), Bid(5, ("I", "L")), Placement(0, ["T"], None),
                 Placement(0, "T", ((-1, 0), (0, 0), (0, 1), (0, 2)))):
        with pytest.raises(IllegalMoveError):
            g.play(move)
    assert g.pending == ()


@pytest.mark.parametrize("n", [16_000, 80_000, 10_000_000])
def test_long_move_text_is_refused_at_once_with_a_short_message(n):
    for name in NAMES:
        with pytest.raises(InvalidMoveError) as info:
            gw.registry.get(name)().play(" " * n)
        assert len(str(info.value)) < 300


def test_shorten_never_echoes_more_than_its_limit_even_escaped():
    assert len(shorten("\\" * 1000)) < 80
    assert len(shorten([[[[[[]]]]]] * 1000)) < 50


# -- the hint worker ---------------------------------------------------------------
def test_a_stop_event_ends_the_searches_behind_the_hints():
    from gridwidgets.analysis.solve import SolveBudgetExceeded, solve
    from gridwidgets.widgets.base import compute_hints

    stop = threading.Event()
    stop.set()
    data = compute_hints("mcts", gw.GridMaster4(), 60.0, stop)
    assert "1 simulations" in data["message"]
    with pytest.raises(SolveBudgetExceeded, match="asked to stop") as info:
        solve(gw.Gridlock(rows=5, cols=5), time_limit=60, stop=stop, progress=False)
    assert info.value.budget == "stop"


def test_one_hint_worker_per_widget_and_the_last_position_is_the_one_hinted():
    g = gw.GridMaster4(size=8, players=2)
    w = g.widget(hint_budget=5.0)
    try:
        w.hints = "mcts"
        name = f"gridwidgets-hints-{id(w):x}"
        alive = []
        for _ in range(12):
            g.play(g.legal_moves()[0])
            alive.append(sum(t.name == name for t in threading.enumerate()))
        assert max(alive) == 1
        data = w.wait_hints(None)
        assert data["status"] == "done" and data["version"] == g.version
        assert set(data["moves"]) == {str(m) for m in g.legal_moves()}
    finally:
        w.close()


# -- several pages on one game ------------------------------------------------------
def test_c3_each_page_plays_only_its_own_seats():
    g = gw.Gridlock()
    x_page, o_page = g.widget(seats=[0]), g.widget(seats=[1])
    try:
        assert x_page.state["people"] == [0] and o_page.seats == (1,)
        assert not o_page.handle_intent({"type": "play", "move": "A1"})  # X is to move: not O's page
        assert "not played from this page" in o_page.state["message"] and g.history == []
        assert not o_page.handle_intent({"type": "play", "move": "A1", "player": 0})
        assert x_page.handle_intent({"type": "play", "move": "A1", "player": 0, "version": g.version})
        assert o_page.state["history"] == ["A1"]  # both pages see every move at once
        assert not x_page.handle_intent({"type": "play", "move": "C3"}) and len(g.history) == 1
        assert o_page.handle_intent({"type": "play", "move": "C3", "version": o_page.state["version"]})
    finally:
        x_page.close()
        o_page.close()


@pytest.mark.parametrize(("seats", "agents", "error"), [([5], {}, ValueError), ([True], {}, ValueError),
                                                         ([1], {1: gw.agents.RandomAgent()}, ValueError),
                                                         ("01", {}, TypeError)])
def test_bad_page_seats_are_refused(seats, agents, error):
    with pytest.raises(error):
        gw.Gridlock().widget(seats=seats, agents=agents)


def test_a_page_cannot_set_what_only_python_writes():
    g = gw.GridBloc()
    w = g.widget()
    try:
        state, hints, board = dict(w.state), dict(w.hint_data), w.board_json
        w.set_state({"state": {}, "hint_data": {"moves": {"A1": 1}}, "board_json": "{}", "delay": 250})
        assert w.state["version"] == state["version"] and w.hint_data == hints and w.board_json == board
        assert w.delay == 250
        assert "cannot set state, hint_data, board_json" in w.state["message"]
        shown = w.show_legal
        w.set_state({"delay": 10**9, "hints": "nonsense", "show_legal": "yes", 7: 1})
        assert (w.delay, w.hints, w.show_legal) == (250, "", shown) and "Refused" in w.state["message"]
        w.set_state(["not", "an", "object"])
        assert "must be an object" in w.state["message"] and g.history == []
    finally:
        w.close()


@pytest.mark.parametrize("name", registry.names())
def test_a_page_owns_no_code_only_its_display_toggles(name):
    """Every trait a page may not set is refused (the widget's code, layout, its
    size, ...), and the refusal never sends the code back to the page."""
    w = registry.get(name)().widget()
    sent: list = []
    w.send_state = lambda key=None: sent.append(key)
    try:
        owned = {k: getattr(w, k) for k in w.keys if k not in w.page_settable}
        assert {"_esm", "_css", "layout", "fit", "hidden_controls", "state"} <= set(owned)
        for trait in sorted(owned):
            w.set_state({trait: "console.log(1)" if trait in ("_esm", "_css") else 0})
            if trait == "state":  # its status message says the refusal: the rest is Python's
                assert {k: v for k, v in w.state.items() if not k.startswith("message")} == \
                    {k: v for k, v in owned[trait].items() if not k.startswith("message")}
            else:
                assert getattr(w, trait) == owned[trait], f"the page set {trait}"
            assert f"cannot set {trait}" in w.state["message"]
        assert not any(k and ({"_esm", "_css", "state"} & set(k)) for k in sent)  # code never echoed
        toggles = {"show_legal": True, "show_labels": False, "seen_version": 3}
        w.set_state(toggles)
        assert all(getattr(w, k) == v for k, v in toggles.items())
    finally:
        w.close()
