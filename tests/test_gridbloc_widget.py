"""The GridBloc widget: steps, walls, the region toggle and the board editor."""

import json

import pytest

import gridwidgets as gw
from gridwidgets.agents import RandomAgent


def send(w, move):
    w._handle_custom_msg(
        {"type": "play", "move": move, "version": w.state["version"], "player": w.state["current_player"]}, []
    )


def test_state_has_walls_tiles_region_and_scores():
    g = gw.GridBloc()
    w = g.widget()
    assert isinstance(w, gw.GridBlocWidget) and w.state["game"] == "gridbloc"
    e = w.state["extra"]
    assert e["start"] == "E5" and e["runner"] == "E5" and e["round"] == 1 and e["to_act"] == "run"
    assert e["runner_player"] == 1 and e["blocker_player"] == 0
    assert set(e["original"]) == {str(x) for x in g.original_walls} and e["placed"] == []
    assert len(e["open_edges"]) == 144 - len(e["original"])
    assert e["unscored_reachable"] == 80 and len(e["region"]) == 81
    assert w.state["cells"][4 * 9 + 4] == "R"


def test_click_a_tile_then_an_edge():
    g = gw.GridBloc()
    w = g.widget()
    send(w, "F6")
    assert w.state["extra"]["scored"] == ["F6"] and w.state["extra"]["to_act"] == "block"
    assert "C4|D4" in w.state["legal"]
    send(w, "C4|D4")
    assert w.state["extra"]["placed"] == ["C4|D4"] and "C4|D4" not in w.state["extra"]["open_edges"]
    send(w, "A1")
    assert "GB-3" in w.state["message"]


def test_round_change_and_the_winner_are_announced():
    g = gw.GridBloc(size=2, preset="blank", start="A1")
    w = g.widget()
    for m in ["B1", "A1|A2", "B2", "A1|B1", "A2"]:
        send(w, m)
    e = w.state["extra"]
    assert e["round"] == 2 and e["round_scores"] == [[0, 3], [0, 0]]
    assert any("original walls" in x for x in e["events"])
    while not g.is_over:
        send(w, w.state["legal"][0])
    assert w.state["is_over"] and w.state["status"].startswith("Game over")


def test_editor_toggles_walls_start_and_holes_and_exports_a_preset():
    g = gw.GridBloc(size=5, preset="blank")
    w = g.widget()
    for intent in [("wall", "B2|C2"), ("wall", "C2|B2"), ("wall", "A1|A2"), ("start", "B2"), ("hole", "E5")]:
        w._handle_custom_msg({"type": "edit", "action": intent[0], "target": intent[1]}, [])
    assert [str(x) for x in g.original_walls] == ["A1|A2"] and g.start == (1, 1) and g.holes == [(4, 4)]
    board = json.loads(w.board_json)
    assert board == {"format": "gridbloc-board", "size": 5, "start": "B2", "walls": ["A1|A2"], "holes": ["E5"]}
    h = gw.GridBloc(board=w.board_json)
    assert h.start == g.start and h.holes == g.holes


@pytest.mark.parametrize(
    ("intent", "says"),
    [({"action": "hole", "target": "C3"}, "hole"), ({"action": "wall", "target": "A1|C1"}, "GB-2"),
     ({"action": "paint", "target": "A1"}, "unknown edit"), ({"action": "wall", "target": 5}, "Refused")],
)
def test_bad_edits_are_refused_and_change_nothing(intent, says):
    g = gw.GridBloc(size=5, preset="blank")
    w = g.widget()
    before = w.board_json
    w._handle_custom_msg({"type": "edit", **intent}, [])
    assert says in w.state["message"] and w.board_json == before


def test_setup_phase_by_clicks():
    g = gw.GridBloc(setup=True, preset="blank")
    w = g.widget()
    assert w.state["extra"]["phase"] == "setup" and "done" in w.state["legal"]
    send(w, "C4|D4")
    send(w, "start B2")
    send(w, "done")
    assert g.phase == "play" and w.state["extra"]["original"] == ["C4|D4"] and w.state["extra"]["start"] == "B2"


def test_agents_on_both_seats_play_a_whole_game():
    g = gw.GridBloc()
    w = g.widget(agents={0: RandomAgent(seed=1), 1: RandomAgent(seed=2)})
    w.run()
    assert g.is_over and w.state["is_over"] and g.winners
