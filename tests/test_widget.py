"""The Python side of the widget, driven by the messages a browser sends
(docs/frontend.md): valid intents, malformed ones, and the sync discipline."""

import numpy as np
import pytest

import gridwidgets as gw


@pytest.fixture
def game():
    return gw.Gridlock()


@pytest.fixture
def widget(game):
    w = game.widget()
    w.sent = []
    w._send = lambda msg, buffers=None: w.sent.append(msg)  # what would go to the browser
    return w


def browser(w, **content):
    """Deliver a custom message the way ipywidgets does for a comm message."""
    w._handle_custom_msg(content, [])


def play(w, move, **extra):
    content = {"type": "play", "move": move, "version": w.state["version"], "player": w.state["current_player"]}
    content.update(extra)
    browser(w, **content)


def test_widget_shows_the_same_game_object(game, widget):
    assert widget.game is game
    assert isinstance(widget, gw.GridlockWidget)
    assert widget.state["game"] == "gridlock"
    assert widget.state["rows"] == 4 and widget.state["cols"] == 4
    assert len(widget.state["cells"]) == 16 and widget.state["legal"][0] == "A1"


def test_click_plays_through_the_engine(game, widget):
    play(widget, "B2")
    assert [str(m) for m in game.history] == ["B2"]
    s = widget.state
    assert s["cells"][1 * 4 + 1] == "X" and s["owners"][5] == 0
    assert s["current_player"] == 1 and s["last_move"] == "B2"
    assert s["status"] == "Player 2 (O), it's your turn."
    assert sorted(s["forbidden"]) == ["A2", "B1", "B3", "C2"] and s["forbidden_rule"] == "GL-3"
    assert s["message"] == ""


def test_one_move_is_one_state_message(game, widget):
    play(widget, "B2")
    assert len(widget.sent) == 1 and widget.sent[0]["method"] == "update"
    assert list(widget.sent[0]["state"]) == ["state"]
    game.play("D4")  # a code cell
    assert len(widget.sent) == 2
    game.goto(0)  # several undos, one message
    assert len(widget.sent) == 3


def test_code_cell_moves_update_every_widget_of_the_game(game, widget):
    other = game.widget()
    game.play("B2")
    game.play("D4")
    game.undo()
    for w in (widget, other):
        assert w.state["history"] == ["B2"] and w.state["future"] == ["D4"]
        assert w.state["version"] == game.version


def test_forbidden_click_is_refused_with_the_gl3_message(game, widget):
    play(widget, "B2")
    before = (game.board.copy(), game.history, game.version)
    play(widget, "C2")
    assert "GL-3" in widget.state["message"] and widget.state["message_kind"] == "error"
    assert np.array_equal(game.board, before[0]) and game.history == before[1] and game.version == before[2]
    # the next good move clears the message
    play(widget, "C3")
    assert widget.state["message"] == ""


def test_buttons_undo_redo_new_and_scrubber(game, widget):
    for m in ["B2", "D4", "A1"]:
        play(widget, m)
    browser(widget, type="undo")
    assert widget.state["history"] == ["B2", "D4"] and widget.state["future"] == ["A1"]
    browser(widget, type="redo")
    assert widget.state["history"] == ["B2", "D4", "A1"]
    browser(widget, type="goto", index=1)
    assert game.history == [gw.CellMove((1, 1))] and widget.state["future"] == ["D4", "A1"]
    browser(widget, type="goto", index=3)
    assert len(game.history) == 3
    browser(widget, type="new")
    assert game.history == [] and widget.state["history"] == [] and widget.state["future"] == []


def test_undo_at_the_start_says_so_and_changes_nothing(game, widget):
    browser(widget, type="undo")
    assert widget.state["message"] == "Nothing to undo." and widget.state["message_kind"] == "info"
    browser(widget, type="redo")
    assert widget.state["message"] == "Nothing to redo."
    assert game.version == 0


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (["not", "a", "dict"], "must be an object"),
        ({"type": "play"}, "is not a move"),
        ({"type": "play", "move": 12}, "is not a move"),
        ({"type": "play", "move": ""}, "is not a move"),
        ({"type": "play", "move": "x" * 500}, "is not a move"),
        ({"type": "play", "move": "ZZ99"}, "Illegal move"),
        ({"type": "play", "move": "hello"}, "C-2"),
        ({"type": "play", "move": "E1"}, "C-1"),
        ({"type": "play", "move": "B2", "player": 1}, "GL-2"),
        ({"type": "play", "move": "B2", "player": "X"}, "not a player"),
        ({"type": "play", "move": "B2", "version": 99}, "board changed"),
        ({"type": "goto", "index": 7}, "outside"),
        ({"type": "goto", "index": "1"}, "outside"),
        ({"type": "seek", "index": 0}, "unknown message type"),
        ({"type": "launch-missiles"}, "unknown message type"),
        ({}, "unknown message type"),
    ],
)
def test_malformed_messages_are_refused_and_the_game_is_untouched(game, widget, content, says):
    before = (game.board.copy(), game.history, game.version)
    widget._handle_custom_msg(content, [])
    assert says in widget.state["message"]
    assert widget.state["message_kind"] == "error"
    assert np.array_equal(game.board, before[0]) and game.history == before[1] and game.version == before[2]


def test_stale_click_after_a_code_cell_move_is_refused(game, widget):
    stale_version = widget.state["version"]
    game.play("B2")  # the page has not redrawn yet
    browser(widget, type="play", move="D4", version=stale_version, player=0)
    assert "board changed" in widget.state["message"]
    assert [str(m) for m in game.history] == ["B2"]


def test_clicks_after_the_end_are_refused_with_gl4(widget):
    g = gw.Gridlock(rows=1, cols=2)
    w = g.widget()
    play(w, "A1")
    assert w.state["is_over"] and w.state["winners"] == [0]
    assert w.state["status"] == "Player 2 (O) has no legal moves remaining. Player 1 (X) wins the game!"
    browser(w, type="play", move="B1", version=w.state["version"])
    assert "GL-4" in w.state["message"]


def test_toggles_are_synced_traits(widget):
    assert widget.show_forbidden is True
    widget.set_state({"show_forbidden": False})  # what the page's toggle does
    assert widget.show_forbidden is False


def test_widget_repr_is_stable_and_has_a_static_board(game, widget):
    game.play("B2")
    assert repr(widget) == "GridlockWidget(Gridlock 4x4, 1 move: Player 2 (O), it's your turn.)"
    data, _ = widget._repr_mimebundle_()
    assert data["text/plain"] == repr(widget)
    assert data["image/svg+xml"].startswith("<svg")
    assert "application/vnd.jupyter.widget-view+json" in data


def test_closing_a_widget_stops_observing(game, widget):
    widget.close()
    sent = len(widget.sent)
    game.play("B2")
    assert len(widget.sent) == sent


def test_widget_options_pass_through():
    w = gw.Gridlock().widget(show_forbidden=False)
    assert w.show_forbidden is False
    with pytest.raises(TypeError):
        gw.GridlockWidget("not a game")


_FREED = """
import gc, weakref
import gridwidgets as gw
from gridwidgets.rooms import Rooms, Store
from gridwidgets.rooms.board import fanout, room_board

g = gw.Gridlock()
made = [weakref.ref(g.widget()) for _ in range(3)] + [weakref.ref(gw.side_by_side(gw.Gridlock()))]
rooms = Rooms(Store(":memory:"))
room = rooms.create("gridlock", pairing="agent")
rg, _ = room.game_of(room.join("Ann").token)
board = room_board(room, rg, 0)
room.play(next(iter(room.seats)), "B2")
assert fanout.wait_idle(10)
made.append(weakref.ref(board))
for ref in made:
    ref().close()
del board
gc.collect()
print([type(ref()).__name__ for ref in made if ref() is not None])
"""


def test_a_closed_widget_is_freed():
    """anywidget would tie every widget of a class whose code is a file to that
    file's watcher: nothing made per page (the classroom rooms make a board per
    page load) could ever be freed. (A fresh interpreter: other tests import
    Solara's server, which keeps widgets of its own.)"""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _FREED], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "[]", f"still alive after close: {out.stdout.strip()}"
