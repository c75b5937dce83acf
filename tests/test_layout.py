"""gw.side_by_side: several live boards in one output, with a static picture."""


import anywidget
import pytest

import gridwidgets as gw


def four_games():
    return gw.Gridlock(), gw.GridMaster4(size=10), gw.BlockFour(seed=1), gw.GridBloc()


def test_each_board_is_the_live_widget_of_its_game():
    games = four_games()
    boards = gw.side_by_side(*games)
    assert isinstance(boards, anywidget.AnyWidget)  # one widget: live where no ipywidgets container is (marimo)
    assert boards.games == list(games)
    # (anywidget gives each instance its own subclass: compare with isinstance)
    kinds = (gw.GridlockWidget, gw.GridMaster4Widget, gw.BlockFourWidget, gw.GridBlocWidget)
    assert all(isinstance(w, k) for w, k in zip(boards.boards, kinds, strict=True))
    assert [w.game for w in boards.boards] == list(games)
    assert boards.titles == ["Gridlock", "GridMaster4", "Block Four", "GridBloc"]
    # every board's synced values are in the one widget's views, in order
    assert [v["state"] for v in boards.views] == [w.state for w in boards.boards]
    assert all({"state", "show_forbidden", "playing", "seen_version"} <= set(v) for v in boards.views)
    assert not any(k.startswith("_") or k == "layout" for v in boards.views for k in v)


def test_a_click_on_one_board_plays_in_its_game_only():
    boards = gw.side_by_side(gw.Gridlock(), gw.Gridlock(rows=3, cols=3))
    first, second = boards.boards
    s = first.state
    # the page's click, as the one widget receives it: tagged with the board
    boards._on_board_msg(boards, {"board": 0, "intent": {"type": "play", "move": "B2", "version": s["version"],
                                                          "player": 0}})
    assert [str(m) for m in boards.games[0].history] == ["B2"]
    assert boards.games[1].history == []
    assert first.state["version"] > s["version"]
    assert boards.views[0]["state"] == first.state  # sent back to the page
    assert second.state["history"] == [] and set(second.state["cells"]) == {""}
    # a toggle from the page reaches its board only; a move from code shows too
    boards._on_board_msg(boards, {"board": 1, "set": {"show_legal": True}})
    assert second.show_legal and not first.show_legal and boards.views[1]["show_legal"] is True
    boards.games[1].play("A1")
    assert boards.views[1]["state"]["history"] == ["A1"]


@pytest.mark.parametrize("message", [None, [], {"board": 7, "intent": {}}, {"board": True, "set": {}},
                                     {"board": "0", "intent": {}}, {"board": 0}, {"board": 0, "set": {"state": {}}}])
def test_a_malformed_message_changes_nothing_and_says_so(message):
    boards = gw.side_by_side(gw.Gridlock(), gw.Gridlock())
    before = [w.state["version"] for w in boards.boards], [g.to_json() for g in boards.games]
    boards._on_board_msg(boards, message)
    assert ([w.state["version"] for w in boards.boards], [g.to_json() for g in boards.games]) == before
    assert any(w.state["message"].startswith("Refused") for w in boards.boards)


def test_widgets_already_made_are_kept_and_titles_given():
    g = gw.Gridlock()
    w = g.widget(show_legal=True)
    boards = gw.side_by_side(w, titles=["Mine <1>"])
    assert boards.boards[0] is w
    assert boards.titles == ["Mine <1>"]  # the page sets it as text
    assert "Mine &lt;1&gt;" in boards.to_svg()


@pytest.mark.parametrize(
    "args, kwargs, error, match",
    [
        ((), {}, ValueError, "at least one"),
        (("B2",), {}, TypeError, "not str"),
        ((gw.Gridlock(),), {"titles": ["a", "b"]}, ValueError, "2 titles for 1 boards"),
    ],
)
def test_bad_arguments_are_refused(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        gw.side_by_side(*args, **kwargs)


def test_the_output_keeps_a_static_picture_of_every_board():
    games = four_games()
    games[0].play("B2")
    boards = gw.side_by_side(*games)
    data, _meta = boards._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    assert data["text/plain"] == "Boards(Gridlock, GridMaster4, Block Four, GridBloc)"
    # no text/html: an untrusted notebook would strip its SVG and show the labels as text
    assert "text/html" not in data
    page = data["image/svg+xml"]
    assert "<script" not in page and data["image/png"].startswith(b"\x89PNG")
    assert page.count('class="gw-static"') == 4
    # each picture is that game's own drawing (its panel under the board), in the order given
    at = [page.index(game.to_svg(size=320, panel="below").replace("<svg ", "", 1)) for game in games]
    assert at == sorted(at)
