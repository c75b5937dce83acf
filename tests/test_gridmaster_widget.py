"""The GridMaster4 widget and agent seats, driven by the messages a browser sends."""

import pytest

import gridwidgets as gw
from gridwidgets.agents import RandomAgent, ScriptedAgent


def capture(w):
    w.sent = []
    w._send = lambda msg, buffers=None: w.sent.append(msg)
    return w


def click(w, move):
    w._handle_custom_msg(
        {"type": "play", "move": move, "version": w.state["version"], "player": w.state["current_player"]}, []
    )


def test_gm10_widget_state_has_tiles_activity_and_the_players_panel():
    g = gw.GridMaster4()
    w = capture(g.widget())
    assert isinstance(w, gw.GridMaster4Widget) and w.show_legal is True
    assert w.state["game"] == "gridmaster4" and w.state["rows"] == 20
    extra = w.state["extra"]
    assert extra["free_placement"] is True and len(w.state["legal"]) == 400
    click(w, "K10")
    extra = w.state["extra"]
    i = 9 * 20 + 10
    assert w.state["cells"][i] == "1" and w.state["owners"][i] == 0
    assert extra["tiles"][i] == 1 and extra["active"][i] is True
    assert [p["status"] for p in extra["players"]] == ["waiting", "opening", "waiting", "waiting"]
    assert extra["players"][0] == {
        "name": "orange", "colour": "#ea580c", "score": 1, "remaining": 99, "active": 1,
        "owed": 0, "blocked": False, "status": "waiting",
    }
    assert len(w.sent) == 1  # one move, one message


def test_widget_shows_blocks_events_and_the_end():
    g = gw.GridMaster4(size=4, players=2)
    w = capture(g.widget())
    click(w, "B2")
    click(w, "D4")
    extra = w.state["extra"]
    assert extra["events"] == [
        "Player 1 (orange) is blocked (GM-6): Player 2 (magenta) is owed a free placement (GM-7)"
    ]
    assert [p["status"] for p in extra["players"]] == ["blocked", "free placement"]
    assert extra["players"][1]["owed"] == 1 and extra["free_placement"] is True
    assert "free placement, any open cell (GM-7)" in w.state["status"]
    for move in ["A1", "D1", "B3"]:
        click(w, move)
    assert w.state["is_over"] and w.state["winners"] == [1]
    assert [p["status"] for p in w.state["extra"]["players"]] == ["lost", "winner"]
    assert w.state["extra"]["deactivated"] == ["D1"]  # B3 was built on D1


def test_deactivated_cells_are_sent_for_the_last_move():
    g = gw.GridMaster4(size=4, players=2)
    w = g.widget()
    for move in ["B2", "D4", "A1", "D1"]:
        click(w, move)
    assert sorted(w.state["extra"]["deactivated"]) == ["A1", "D4"]


def test_illegal_click_names_the_rule_and_changes_nothing():
    g = gw.GridMaster4(size=8)
    w = g.widget()
    for move in ["A1", "H8", "A8", "H1"]:
        click(w, move)
    before = g.to_json()
    click(w, "B1")
    assert "GM-4" in w.state["message"] and g.to_json() == before


# -- agents on seats ------------------------------------------------------------
def test_agent_seats_are_named_and_step_plays_for_them():
    g = gw.GridMaster4(size=8)
    w = g.widget(agents={1: RandomAgent(seed=1), 2: RandomAgent(seed=2), 3: RandomAgent(seed=3)})
    assert w.state["seats"] == ["", "RandomAgent(seed=1)", "RandomAgent(seed=2)", "RandomAgent(seed=3)"]
    assert w.state["agent_to_move"] is False
    with pytest.raises(ValueError, match="person"):
        w.step()
    click(w, "A1")
    assert w.state["agent_to_move"] is True
    assert w.run() == 3
    assert g.current_player == 0 and len(g.history) == 4


def test_agent_step_intents_from_the_page():
    g = gw.GridMaster4(size=8, players=2)
    w = g.widget(agents={0: RandomAgent(seed=0), 1: RandomAgent(seed=1)})
    version = w.state["version"]
    w._handle_custom_msg({"type": "agent-step", "version": version}, [])
    assert len(g.history) == 1
    # a second view sent the same step: stale, ignored without a message
    w._handle_custom_msg({"type": "agent-step", "version": version}, [])
    assert len(g.history) == 1 and w.state["message"] == ""
    w._handle_custom_msg({"type": "agent-step", "version": w.state["version"]}, [])
    assert len(g.history) == 2


def test_seeded_agents_reproduce_a_game():
    def game():
        g = gw.GridMaster4(size=8, players=3)
        w = g.widget(agents={p: RandomAgent(seed=p) for p in range(3)})
        w.run()
        return [str(m) for m in g.history]

    first = game()
    assert first == game() and len(first) > 10


def test_a_seeded_agent_plays_the_same_move_again_after_an_undo():
    g = gw.GridMaster4(size=8, players=2)
    w = g.widget(agents={1: RandomAgent(seed=4)})
    click(w, "A1")
    first = w.step()
    g.undo()
    assert w.step() == first
    other = gw.GridMaster4(size=8, players=2)
    other.play("A1")
    assert RandomAgent(seed=4).choose(other) == first


def test_a_click_on_an_agents_turn_is_refused():
    g = gw.GridMaster4(size=8, players=2)
    w = g.widget(agents={1: RandomAgent(seed=1)})
    click(w, "A1")
    click(w, "H8")
    assert "RandomAgent(seed=1)" in w.state["message"] and len(g.history) == 1


def test_undo_against_an_agent_goes_back_to_the_persons_turn():
    g = gw.GridMaster4(size=8, players=2)
    w = g.widget(agents={1: RandomAgent(seed=1)})
    click(w, "A1")
    w.step()
    click(w, g.legal_moves()[0].__str__())
    w.step()
    assert len(g.history) == 4
    w._handle_custom_msg({"type": "undo"}, [])
    assert len(g.history) == 2 and g.current_player == 0


def test_new_game_resets_the_agents():
    g = gw.GridMaster4(size=8, players=2)
    w = g.widget(agents={0: RandomAgent(seed=5), 1: RandomAgent(seed=6)})
    w.run()
    first = [str(m) for m in g.history]
    w._handle_custom_msg({"type": "new"}, [])
    assert g.history == []
    w.run()
    assert [str(m) for m in g.history] == first


@pytest.mark.parametrize(
    ("agents", "error"),
    [({4: RandomAgent()}, ValueError), ({"1": RandomAgent()}, ValueError), ({1: "random"}, TypeError),
     ([RandomAgent()], TypeError)],
)
def test_bad_agent_seats_are_refused(agents, error):
    with pytest.raises(error):
        gw.GridMaster4().widget(agents=agents)


def test_agents_play_at_once_against_a_person_but_wait_for_play_when_alone():
    assert gw.GridMaster4().widget(agents={1: RandomAgent()}).playing is True
    assert gw.GridMaster4(players=2).widget(agents={0: RandomAgent(), 1: RandomAgent()}).playing is False
    assert gw.GridMaster4(players=1).widget(agents={0: RandomAgent()}, playing=True).playing is True


def test_play_and_speed_are_traits_the_page_sets():
    w = gw.GridMaster4().widget(agents={1: RandomAgent()})
    w.set_state({"playing": False, "delay": 50})
    assert w.playing is False and w.delay == 50


# -- the solitaire and its solver ------------------------------------------------
def test_warnsdorff_tour_completes_the_puzzle_and_the_widget_plays_it_back():
    g = gw.GridMaster4(size=10, players=1)
    tour = g.solve(seed=0)
    assert len(tour) == 100 and g.history == []
    w = g.widget(agents={0: ScriptedAgent(tour)})
    assert w.run() == 100
    assert g.is_over and g.winners == (0,) and g.scores == (100,)
    assert sorted(int(t) for t in g.tiles.ravel()) == list(range(1, 101))


def test_warnsdorff_tour_from_every_start_cell():
    for cell in [(r, c) for r in range(10) for c in range(10)]:
        g = gw.GridMaster4(size=10, players=1)
        g.play(cell)
        tour = g.solve(seed=1)
        for m in tour:
            g.play(m)
        assert g.scores == (100,), cell


def test_solve_refuses_several_players():
    with pytest.raises(ValueError, match="one-player"):
        gw.GridMaster4(size=10, players=2).solve()


def test_scripted_agent_follows_undo():
    g = gw.GridMaster4(size=10, players=1)
    agent = ScriptedAgent(["A1", "D1", "G1"])
    assert str(agent.choose(g)) == "A1"
    g.play("A1")
    g.play("D1")
    g.undo()
    assert str(agent.choose(g)) == "D1"
    g.play("D1")
    g.play("G1")
    with pytest.raises(ValueError, match="no move 4"):
        agent.choose(g)


# -- simulate ---------------------------------------------------------------------
def test_simulate_gives_columns_that_do_not_depend_on_n_jobs():
    one = gw.GridMaster4.simulate(40, seed=3, n_jobs=1, progress=False, size=8)
    two = gw.GridMaster4.simulate(40, seed=3, n_jobs=2, progress=False, size=8)
    assert one.equals(two)
    assert set(one.columns) >= {"game", "length", "winners", "winner", "shared", "score_orange", "blocked_aqua"}
    assert len(one) == 40 and list(one["game"]) == list(range(40))
    for k in range(40):
        scores = [one[f"score_{n}"][k] for n in ("orange", "magenta", "lime", "aqua")]
        assert one["length"][k] == sum(scores)
        assert set(one["winners"][k]) == {p for p, s in enumerate(scores) if s == max(scores)}


def test_simulate_matches_playing_the_same_games():
    import random

    from gridwidgets.sim import game_seeds

    res = gw.GridMaster4.simulate(5, seed=11, progress=False, size=6, players=2)
    for k, s in enumerate(game_seeds(5, 11)):
        g = gw.GridMaster4(size=6, players=2)
        rng = random.Random(s)
        while not g.is_over:
            legal = g.legal_moves()
            g.play(legal[rng.randrange(len(legal))])
        assert res["length"][k] == len(g.history) and res["winners"][k] == g.winners


def test_simulate_refuses_bad_input():
    with pytest.raises(ValueError):
        gw.GridMaster4.simulate(-1)
    with pytest.raises(ValueError):
        gw.GridMaster4.simulate(3, size=0)
