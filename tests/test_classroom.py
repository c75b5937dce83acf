"""The classroom app (docs/classroom.md): the ``Classroom`` container that
builds the board from the menus, the notebook Voila serves, and the
``python -m gridwidgets classroom`` command (its Voila arguments, and a clear
message without Voila). The page itself is tested in a real browser in
``tests/browser/test_classroom_voila.py``."""

from __future__ import annotations

import json
import socket
import sys
import types

import pytest

import gridwidgets as gw
from gridwidgets import apps, cli
from gridwidgets.agents import GreedyAgent, MCTSAgent, RandomAgent
from gridwidgets.classroom import AGENTS, GAMES, PERSON, Classroom

WIDGETS = {
    "gridlock": gw.GridlockWidget,
    "gridmaster4": gw.GridMaster4Widget,
    "blockfour": gw.BlockFourWidget,
    "gridbloc": gw.GridBlocWidget,
}


@pytest.fixture
def room():
    rooms = []

    def make(**kwargs):
        r = Classroom(**kwargs)
        rooms.append(r)
        return r

    yield make
    for r in rooms:
        r.close()


def play(w, move):
    """A click on the board, as the browser sends it."""
    return w.handle_intent({"type": "play", "move": move, "version": w.game.version,
                            "player": w.game.current_player})


# -- the menus build the right board ---------------------------------------------------


@pytest.mark.parametrize("key", list(GAMES))
def test_choosing_each_game_builds_its_widget_with_one_seat_per_player(room, key):
    r = room()
    r.game_picker.value = key
    assert isinstance(r.widget, WIDGETS[key])
    assert isinstance(r.game, GAMES[key].cls)
    assert r.widget.game is r.game
    assert r.board_box.children == (r.widget,)
    assert [d.description for d in r.seat_pickers] == list(r.game.players)
    assert r.seats == dict.fromkeys(range(len(r.game.players)), PERSON)
    assert r.widget.agents == {}
    assert GAMES[key].label in r.status.value
    assert r.board_picker.value == next(iter(GAMES[key].boards))
    assert r.board_picker.disabled == (len(GAMES[key].boards) == 1)


@pytest.mark.parametrize(
    ("key", "board", "rows", "players"),
    [
        ("gridlock", "4x4", 4, 2), ("gridlock", "6x6", 6, 2),
        ("gridmaster4", "20x20-4", 20, 4), ("gridmaster4", "10x10-2", 10, 2), ("gridmaster4", "10x10-1", 10, 1),
        ("blockfour", "9x9", 9, 2),
        ("gridbloc", "9x9", 9, 2), ("gridbloc", "7x7", 7, 2), ("gridbloc", "5x5", 5, 2),
    ],
)
def test_each_board_has_its_size_and_players(room, key, board, rows, players):
    r = room(game=key, board=board)
    assert (r.game.rows, r.game.cols) == (rows, rows)
    assert len(r.game.players) == players == len(r.seat_pickers)


def test_changing_the_board_starts_a_new_game_and_keeps_the_seats_that_remain(room):
    r = room(game="gridmaster4", seats={1: "random", 3: "greedy"})
    assert r.seats == {0: PERSON, 1: "random", 2: PERSON, 3: "greedy"}
    r.board_picker.value = "10x10-2"
    assert r.seats == {0: PERSON, 1: "random"}
    assert r.game.rows == 10 and set(r.widget.agents) == {1}
    r.game_picker.value = "gridlock"
    assert r.seats == {0: PERSON, 1: "random"}
    assert r.board_picker.value == "4x4" and r.game.rows == 4


def test_the_gridbloc_boards_are_the_classic_one_and_an_open_one(room):
    r = room(game="gridbloc")
    assert r.game.board_preset()["walls"]  # the classic board's original walls (GB-1)
    r.board_picker.value = "7x7"
    assert r.game.board_preset()["walls"] == [] and r.game.phase == "play"


# -- seats -------------------------------------------------------------------------------


def test_seats_get_the_agents_chosen(room):
    r = room(game="gridmaster4", seats={0: "random", 1: "greedy", 2: "mcts-quick", 3: "mcts-strong"})
    agents = r.widget.agents
    assert isinstance(agents[0], RandomAgent) and isinstance(agents[1], GreedyAgent)
    assert isinstance(agents[2], MCTSAgent) and agents[2].time == 0.5
    assert isinstance(agents[3], MCTSAgent) and agents[3].time == 2.0
    assert r.widget.state["seats"] == [a.name for a in agents.values()]
    for label in ("Random", "Greedy", "MCTS, quick", "MCTS, strong"):
        assert label in r.status.value


def test_a_seed_seeds_each_agent_by_its_seat(room):
    r = room(seats={0: "random", 1: "greedy"}, seed=10)
    assert r.widget.agents[0].seed == 10 and r.widget.agents[1].seed == 11
    r = room(seats={1: "random"})
    assert r.widget.agents[1].seed is None


def test_every_seat_menu_offers_a_person_and_every_agent(room):
    r = room()
    for d in r.seat_pickers:
        assert [v for _, v in d.options] == [PERSON, *AGENTS]
        assert d.options[0][0] == "Person"


def test_changing_a_seat_keeps_the_game_and_gives_the_seat_to_the_agent(room):
    r = room()
    game, old = r.game, r.widget
    assert play(old, "B2")
    r.seat_pickers[1].value = "greedy"
    assert r.game is game and [str(m) for m in game.history] == ["B2"]
    assert r.widget is not old and r.widget.game is game
    assert old.comm is None  # the old board is closed
    assert isinstance(r.widget.agents[1], GreedyAgent)
    assert "O: Greedy" in r.status.value
    r.set_seat(1, PERSON)
    assert r.widget.agents == {} and r.game is game


def test_an_agent_seat_plays_when_it_is_its_turn(room):
    r = room(seats={1: "greedy"}, seed=0)
    w = r.widget
    assert w.playing and not w.agent_to_move()
    assert play(w, "B2")
    assert w.agent_to_move() and w.state["agent_to_move"]
    # the page sends agent-step after the delay; the agent answers with a legal move for O
    assert w.handle_intent({"type": "agent-step", "version": w.game.version})
    assert len(w.game.history) == 2 and w.game.current_player == 0
    assert not w.agent_to_move()
    # a person's click on O's turn is refused while the agent is to act
    r2 = room(seats={0: "random"}, seed=0)
    assert r2.widget.agent_to_move()
    assert not play(r2.widget, "B2")
    assert r2.widget.run() == 1 and r2.game.current_player == 1


def test_every_seat_an_agent_waits_for_play_and_says_so(room):
    r = room(seats={0: "random", 1: "random"}, seed=1)
    assert not r.widget.playing
    assert "press Play" in r.status.value
    r.widget.run()
    assert r.game.is_over


def test_the_delay_is_the_boards(room):
    assert room(delay=50).widget.delay == 50


# -- new game ------------------------------------------------------------------------------


def test_new_game_resets_the_board_with_the_same_choices(room):
    r = room(game="gridbloc", seats={0: "greedy"})
    old_game, old_widget = r.game, r.widget
    assert play(old_widget, "D4")
    r.new_button.click()
    assert r.game is not old_game and r.game.history == [] and r.game.version == 0
    assert r.widget is not old_widget and old_widget.comm is None
    assert r.seats == {0: "greedy", 1: PERSON} and isinstance(r.widget.agents[0], GreedyAgent)
    assert isinstance(r.new_game(), gw.GridBloc)


def test_changing_the_game_starts_a_new_game(room):
    r = room()
    assert play(r.widget, "B2")
    r.game_picker.value = "blockfour"
    assert isinstance(r.game, gw.BlockFour) and r.game.history == []


# -- Block Four's secret bids (BF-5) ---------------------------------------------------------


def test_block_four_two_people_are_told_to_look_away_and_nothing_leaks(room):
    r = room(game="blockfour", seed=3)
    assert r.game.x_table == gw.BlockFour(seed=3).x_table  # the seed gives the setup (BF-4)
    assert "looks away" in r.status.value
    status = r.status.value
    hand = r.game.hands[0]
    assert play(r.widget, hand[0] + hand[1])
    assert r.status.value == status  # the explanation never follows the bids
    assert r.widget.state["extra"]["pending_bids"] == [True, False]
    # what the page gets is the same whichever two cards X bid
    other = room(game="blockfour", seed=3)
    assert play(other.widget, hand[1] + hand[2])
    assert other.widget.state == r.widget.state
    r.set_seat(1, "greedy")
    assert "looks away" not in r.status.value
    assert r.widget.state["extra"]["pending_bids"] == [True, False]  # the seat change kept the hidden bid
    other.set_seat(1, "greedy")
    assert other.widget.state == r.widget.state


# -- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"game": "gridlock", "board": "9x9"}, "unknown board"),
        ({"seats": {1: "alphago"}}, "unknown seat kind"),
        ({"seats": {2: "random"}}, "not a player id"),
    ],
)
def test_bad_choices_raise_value_error(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Classroom(**kwargs)


def test_set_seat_refuses_bad_seats_and_kinds(room):
    r = room()
    with pytest.raises(ValueError, match="not a player id"):
        r.set_seat(2, "random")
    with pytest.raises(ValueError, match="unknown seat kind"):
        r.set_seat(0, "robot")


def test_repr_names_the_choices(room):
    assert repr(room(seats={1: "greedy"})).startswith("Classroom(Gridlock 4x4, seats: 0=person, 1=greedy;")


# -- the notebook Voila serves -------------------------------------------------------------------


def test_the_notebook_is_in_the_package_with_a_kernelspec_and_no_outputs():
    path = apps.CLASSROOM_NOTEBOOK
    assert path.is_file() and path.parent.parent.name == "gridwidgets"
    nb = json.loads(path.read_text())
    assert nb["metadata"]["kernelspec"]["name"] == "python3"
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert len(code) == 1 and code[0]["outputs"] == [] and code[0]["execution_count"] is None
    assert any(c["cell_type"] == "markdown" and c["source"].startswith("#") for c in nb["cells"])


def test_the_notebooks_code_makes_a_classroom():
    nb = json.loads(apps.CLASSROOM_NOTEBOOK.read_text())
    (cell,) = [c for c in nb["cells"] if c["cell_type"] == "code"]
    *body, last = "".join(cell["source"]).strip().splitlines()
    scope: dict = {}
    exec("\n".join(body), scope)
    result = eval(last, scope)
    try:
        assert isinstance(result, Classroom) and result.choice.label == "Gridlock"
    finally:
        result.close()


# -- the command ------------------------------------------------------------------------------------


@pytest.fixture
def fake_voila(monkeypatch):
    """Voila importable (a stand-in) and its launch recorded instead of run."""
    voila = types.ModuleType("voila")
    voila_app = types.ModuleType("voila.app")
    voila.app = voila_app
    monkeypatch.setitem(sys.modules, "voila", voila)
    monkeypatch.setitem(sys.modules, "voila.app", voila_app)
    launched: list[list[str]] = []
    opened: list[str] = []
    monkeypatch.setattr(apps, "_launch_voila", lambda argv: launched.append(list(argv)))
    monkeypatch.setattr(apps, "_open_when_up", lambda url, ip, port: opened.append(url))
    monkeypatch.setenv("JUPYTER_TOKEN", "tok3n")
    return types.SimpleNamespace(launched=launched, opened=opened)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_without_voila_the_command_says_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "voila", None)  # import voila -> ImportError
    monkeypatch.setitem(sys.modules, "voila.app", None)
    assert cli.main(["classroom", "--no-browser"]) == 1
    out, err = capsys.readouterr()
    assert "pip install 'gridwidgets[classroom]'" in err and "Voila" in err
    assert out == ""


def test_the_command_runs_voila_on_the_notebook_on_127_0_0_1_with_no_code(fake_voila, capsys):
    port = free_port()
    assert cli.main(["classroom", "--port", str(port), "--no-browser"]) == 0
    (argv,) = fake_voila.launched
    assert argv[0] == str(apps.CLASSROOM_NOTEBOOK)
    assert argv == apps.voila_argv(apps.CLASSROOM_NOTEBOOK, port, "127.0.0.1", "tok3n")
    for arg in ("--no-browser", "--strip_sources=True", "--Voila.ip=127.0.0.1", f"--port={port}",
                "--Voila.port_retries=0", "--Voila.token=tok3n", "--show_tracebacks=False",
                "--VoilaConfiguration.extension_allowlist=anywidget",
                f"--MappingKernelManager.cull_idle_timeout={apps.CULL_AFTER}",
                "--MappingKernelManager.cull_interval=60"):
        assert arg in argv, arg
    out, err = capsys.readouterr()
    assert f"http://127.0.0.1:{port}/?token=tok3n" in out
    assert err == "" and fake_voila.opened == []


def test_the_command_opens_the_browser_on_the_link_with_its_token(fake_voila, monkeypatch):
    monkeypatch.delenv("JUPYTER_TOKEN")
    port = free_port()
    assert cli.main(["classroom", "--port", str(port)]) == 0
    (url,) = fake_voila.opened
    token = url.split("?token=")[1]
    assert url.startswith(f"http://127.0.0.1:{port}/?token=") and len(token) >= 20
    assert f"--Voila.token={token}" in fake_voila.launched[0]


def test_a_port_in_use_is_refused_with_a_message(fake_voila, capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert cli.main(["classroom", "--port", str(port), "--no-browser"]) == 1
    assert "already in use" in capsys.readouterr().err and fake_voila.launched == []


def test_without_a_port_the_default_or_a_free_one(fake_voila):
    port = apps.pick_port()
    assert port == apps.DEFAULT_PORT or port > 0
    assert apps.pick_port(port=0) > 0


def test_another_address_is_served_only_when_asked_and_with_a_warning(fake_voila, monkeypatch, capsys):
    monkeypatch.setattr(apps, "pick_port", lambda ip, port: 9999)
    assert cli.main(["classroom", "--ip", "0.0.0.0", "--no-browser"]) == 0
    assert "--Voila.ip=0.0.0.0" in fake_voila.launched[0]
    out, err = capsys.readouterr()
    assert "Warning" in err and "runs Python on this machine" in err
    assert f"http://{socket.gethostname()}:9999/?token=tok3n" in out


def test_ctrl_c_ends_the_command_quietly(fake_voila, monkeypatch):
    def interrupted(argv):
        raise KeyboardInterrupt

    monkeypatch.setattr(apps, "_launch_voila", interrupted)
    assert cli.main(["classroom", "--port", str(free_port()), "--no-browser"]) == 0


def test_closed_pages_kernels_are_culled_open_ones_never():
    argv = apps.voila_argv("n.ipynb", 1, cull_after=10)
    assert "--MappingKernelManager.cull_idle_timeout=10" in argv and "--MappingKernelManager.cull_interval=5" in argv
    assert not any("cull_connected" in a or "cull_busy" in a for a in argv)  # off: an open page is never culled
    assert "--MappingKernelManager.cull_idle_timeout=0" in apps.voila_argv("n.ipynb", 1, cull_after=0)


def test_classroom_url_forms():
    assert apps.classroom_url("127.0.0.1", 8866, "t") == "http://127.0.0.1:8866/?token=t"
    assert apps.classroom_url("::1", 8866) == "http://[::1]:8866/"


def test_the_theme_is_light_by_default_and_dark_on_request(fake_voila):
    port = free_port()
    assert cli.main(["classroom", "--port", str(port), "--no-browser"]) == 0
    assert cli.main(["classroom", "--port", str(free_port()), "--no-browser", "--theme", "dark"]) == 0
    light, dark = fake_voila.launched
    assert "--theme=light" in light and "--theme=dark" not in light
    assert "--theme=dark" in dark and "--theme=light" not in dark
    with pytest.raises(ValueError, match="theme must be one of light, dark"):
        apps.voila_argv("n.ipynb", 1, theme="blue")
    with pytest.raises(SystemExit):
        cli.main(["classroom", "--theme", "blue"])
