"""The three games of "How to add a game" (docs/adding-a-game.md), run from the
page's own code: each gets the widget, the SVG, undo/redo, save/load, terminal
play, agents, simulate and tournaments for free, and passes check_game."""

from __future__ import annotations

import json

import pytest
from docgames import load

import gridwidgets as gw
from gridwidgets.agents import MCTSAgent, RandomAgent
from gridwidgets.testing import check_game

GAMES = load()
NAMES = sorted(GAMES)


@pytest.mark.parametrize("name", NAMES)
def test_doc_game_passes_check_game(name):
    cls = GAMES[name]
    report = check_game(cls, n_games=12, seed=0)
    assert report.games == 12 and report.illegal_refused > 0
    if cls.game_type.information.value == "imperfect":
        assert report.twins > 0


@pytest.mark.parametrize("name", NAMES)
def test_doc_game_plays_out_with_random_and_mcts_agents_and_replays_from_its_save(name):
    cls = GAMES[name]
    g = cls()
    seats = {0: MCTSAgent(simulations=60, seed=1), 1: RandomAgent(seed=2)}
    while not g.is_over:
        for p in g.players_to_move:
            g.play(seats[p].choose(g.view_for(p)), player=p)
    assert g.winners
    back = cls.from_json(g.to_json())
    assert back == g and back.to_json() == g.to_json()
    n = g.step_count
    g.goto(0)
    g.goto(n)
    assert g.to_json() == back.to_json()


@pytest.mark.parametrize("name", NAMES)
def test_doc_game_simulates_and_plays_a_tournament(name):
    cls = GAMES[name]
    df = cls.simulate(30, seed=3, progress=False)
    assert len(df) == 30 and set(df["winner"]) <= {-1, 0, 1}
    assert df.equals(cls.simulate(30, seed=3, progress=False))
    res = gw.analysis.tournament(cls, {"random": RandomAgent(), "mcts": MCTSAgent(simulations=30)},
                                 games=4, n_jobs=1, seed=0, progress=False)
    assert sum(r["games"] for r in res.rows()) == 2 * len(res.records)


@pytest.mark.parametrize("name", NAMES)
def test_doc_game_widget_plays_a_click_and_draws_a_picture(name):
    cls = GAMES[name]
    g = cls()
    w = g.widget()
    move = g.legal_moves()[0]
    assert w.handle_intent({"type": "play", "move": str(move), "version": g.version, "player": g.current_player})
    assert g.version == 1
    svg = g.to_svg()
    assert svg.startswith("<svg") and "</svg>" in svg
    json.dumps(w.state)
    w.close()


def test_db2_closing_a_box_draws_again_and_undo_takes_one_line_back():
    g = GAMES["DotsAndBoxes"]()
    for line in ["A1N", "A1W", "A1S", "A1E"]:
        g.play(line)
    assert g.scores == (0, 1) and g.current_player == 1
    g.undo()
    assert g.scores == (0, 0) and g.current_player == 1 and [str(m) for m in g.future] == ["B1W"]


def test_db5_border_lines_are_edges_off_the_board():
    g = GAMES["DotsAndBoxes"](rows=1, cols=1)
    edges = sorted(m.edge for m in g.legal_moves())
    assert edges == sorted([((0, 0), (-1, 0)), ((0, 0), (1, 0)), ((0, 0), (0, -1)), ((0, 0), (0, 1))])
    assert g.game_info.max_game_length == 4


def test_cl2_a_hidden_pick_is_in_no_public_output_and_undo_withdraws_it():
    g = GAMES["Claim"]()
    public = (g.to_json(), str(g), g.to_svg())
    g.play("C2", player=0)
    assert g.pending == (0,) and (g.to_json(), str(g)) == public[:2]
    assert g.undo() is None and g.pending == ()
    g.play("A1", player=0)
    g.play("A1", player=1)
    assert [str(s) for s in g.steps] == ["A1 + A1"] and g.board[0, 0] == 2  # CL-3: blocked
