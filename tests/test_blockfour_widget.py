"""The Block Four widget, driven by the messages a browser sends."""

import pytest

import gridwidgets as gw
from gridwidgets.agents import RandomAgent


def send(w, move, player=None):
    w._handle_custom_msg(
        {"type": "play", "move": move, "version": w.state["version"],
         "player": w.state["current_player"] if player is None else player},
        [],
    )


def test_widget_state_for_the_bid_phase():
    g = gw.BlockFour(x_table=("L", "T"))
    w = g.widget()
    assert isinstance(w, gw.BlockFourWidget)
    e = w.state["extra"]
    assert e["phase"] == "bid" and e["turn"] == 1
    assert e["hands"] == [["I", "O", "Z"], ["I", "L", "O", "T", "Z"]] and e["tables"] == [["L", "T"], []]
    assert e["pending_bids"] == [False, False] and e["revealed"] is None and e["to_place"] is None
    assert sorted(w.state["legal"]) == ["IO", "IZ", "OZ"]
    assert e["orientations"]["T"]["rot"][0] == [[0, 0], [0, 1], [0, 2], [1, 1]]
    assert len(e["fields"]) == 9 and e["fields"][0] == {"x": 0, "o": 0, "controller": -1}


def test_hot_seat_bids_then_the_reveal_and_a_placement():
    g = gw.BlockFour(x_table=("L", "T"))
    w = g.widget()
    send(w, "IO")
    assert w.state["extra"]["pending_bids"] == [True, False] and w.state["current_player"] == 1
    assert w.state["status"] == "Turn 1: Player 2 (O) to bid two cards (Player 1 (X) has bid)."
    send(w, "LT")
    e = w.state["extra"]
    assert e["revealed"]["bids"] == ["IO", "LT"] and e["revealed"]["matches"] == 0
    assert [(o["player"], o["shape"], o["status"]) for o in e["revealed"]["order"]] == [
        (0, "I", "now"), (1, "L", "next"), (0, "O", "next"), (1, "T", "next")]
    assert e["to_place"] == {"player": 0, "shape": "I"} and e["phase"] == "place"
    assert "I:A1,B1,C1,D1" in w.state["legal"] and len(w.state["legal"]) == 108
    send(w, "I:D1,A1,B1,C1")
    assert w.state["cells"][:4] == ["X"] * 4 and w.state["last_move"] == "I:A1,B1,C1,D1"
    assert w.state["extra"]["to_place"] == {"player": 1, "shape": "L"}


def test_refusals_name_the_rule():
    g = gw.BlockFour(x_table=("L", "T"))
    w = g.widget()
    send(w, "LT", player=0)
    assert "BF-5" in w.state["message"]
    send(w, "IO")
    send(w, "IO", player=0)
    assert "BF-13" in w.state["message"]
    send(w, "LT")
    send(w, "I:A1,B1,C1,C2")
    assert "BF-3" in w.state["message"]
    send(w, "I:A1,B1,C1,D1", player=1)
    assert "BF-6" in w.state["message"]
    assert len(g.history) == 2


def test_gap_fill_and_skips_are_in_the_state():
    g = gw.BlockFour(x_table=("L", "T"))
    g._board = [-1] * 81
    for i, ch in enumerate(".....OXOX" + "XOXOXOXOX"):
        g._board[i] = {"X": 0, "O": 1, ".": -1}[ch]
    w = g.widget()
    send(w, "IO")
    send(w, "LT")
    send(w, "I:A1,B1,C1,D1")
    assert w.state["extra"]["gaps"] == ["E1"] and w.state["cells"][4] == "O"


def test_against_an_agent_the_agent_bids_without_seeing_the_bid():
    g = gw.BlockFour(x_table=("L", "T"))
    w = g.widget(agents={1: RandomAgent(seed=0)})
    send(w, "IO")
    assert w.state["agent_to_move"] is True
    w.step()
    assert w.state["extra"]["revealed"] is not None
    # the agent's choice does not depend on X's bid
    h = gw.BlockFour(x_table=("L", "T"))
    v = h.widget(agents={1: RandomAgent(seed=0)})
    send(v, "OZ")
    v.step()
    assert w.state["extra"]["revealed"]["bids"][1] == v.state["extra"]["revealed"]["bids"][1]


def test_a_full_game_against_an_agent_ends():
    g = gw.BlockFour(seed=2)
    w = g.widget(agents={0: RandomAgent(seed=1), 1: RandomAgent(seed=2)})
    w.run()
    assert g.phase == "over" and w.state["is_over"] and w.state["winners"]


def test_undo_in_the_widget_withdraws_a_hidden_bid_quietly():
    g = gw.BlockFour(x_table=("L", "T"))
    w = g.widget()
    send(w, "IO")
    w._handle_custom_msg({"type": "undo"}, [])
    assert w.state["extra"]["pending_bids"] == [False, False] and w.state["message"] == ""


@pytest.mark.parametrize("bad", [{"type": "play", "move": ["I", "O"]}, {"type": "play", "move": "I:Z9,Z8,Z7,Z6"}])
def test_malformed_messages_are_refused(bad):
    g = gw.BlockFour(x_table=("L", "T"))
    w = g.widget()
    w._handle_custom_msg(bad, [])
    assert w.state["message"].startswith(("Refused", "Illegal")) and g.version == 0


def test_bf5_the_history_slider_through_a_revealed_turn_restores_the_game():
    # issue 11's bug: dragging the slider back over a revealed turn and forward again lost X's bid
    g = gw.BlockFour(x_table=("L", "T"))
    w = g.widget()
    assert w.handle_intent({"type": "play", "move": "IO", "player": 0, "version": g.version})
    assert w.handle_intent({"type": "play", "move": "IL", "player": 1, "version": g.version})
    while g.phase == "place":
        assert w.handle_intent({"type": "play", "move": str(g.legal_moves()[0]), "version": g.version})
    end, n = g.to_json(), len(w.state["steps"])
    assert w.state["steps"][0] == "IO + IL" and w.state["step"] == n
    for index in [0, n, 1, 0, n - 1, n]:
        assert w.handle_intent({"type": "goto", "index": index}) or index == w.state["step"]
        assert w.state["step"] == index and w.state["message"] == ""
    assert g.to_json() == end
    assert w.handle_intent({"type": "goto", "index": 0})
    assert g.step_count == 0
    w.close()
