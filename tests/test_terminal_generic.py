"""Terminal play for any registered game (issue 11): the generic loop of
``gridwidgets.terminal`` (``play_game``) on the games of ``docs/adding-a-game.md``,
and a game registered through a ``gridwidgets.games`` entry point appearing
in ``python -m gridwidgets play NAME``."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap

import pytest
from docgames import load, source

from gridwidgets.agents import RandomAgent
from gridwidgets.core.scene import Panel, PanelRow
from gridwidgets.terminal import CLEAR, panel_lines, play_game, seats


def _reader(lines):
    it = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


def test_tic_tac_toe_plays_to_the_end_with_help_undo_and_a_refused_move():
    g = load()["TicTacToe"]()
    out = io.StringIO()
    play_game(g, read=_reader(["?", "A1", "A1", "A2", "u", "A2", "B1", "B2", "C1"]), out=out)
    text = out.getvalue()
    assert "Legal moves (9): A1" in text  # help lists the legal moves
    assert "Illegal move:" in text  # A1 twice: refused, game unchanged
    assert g.is_over and text.rstrip().endswith(g.status())
    assert [str(m) for m in g.history] == ["A1", "A2", "B1", "B2", "C1"] and g.winner == 0


def test_an_agent_seat_plays_by_itself():
    g = load()["TicTacToe"]()
    out = io.StringIO()
    moves = ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3"]
    play_game(g, agents={1: RandomAgent(seed=3)}, read=_reader(moves), out=out)
    assert "Player 2 (O) [RandomAgent(seed=3)] plays" in out.getvalue() and len(g.history) >= 5
    table_row = out.getvalue().split("[RandomAgent(seed=3)]")[-2].splitlines()[-1]
    assert table_row.lstrip(" >*").startswith("Player 2 (O)")  # the seat is tagged in the players' table


def test_simultaneous_submissions_are_hidden_in_hot_seat():
    claim = load()["Claim"]
    g = claim()
    first = g.legal_moves(0)[0]
    out = io.StringIO()
    play_game(g, read=_reader([str(first)]), out=out)  # ends on end of input after one hidden choice
    text = out.getvalue()
    assert CLEAR in text and "has chosen" in text
    assert g.pending == (0,) and not g.history  # still hidden, nothing revealed
    after = text.split("has chosen", 1)[1]
    assert str(first) not in after.split("\n", 1)[1]  # the next person never sees the first choice


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX shell layout")
def test_an_entry_point_game_appears_in_python_m_gridwidgets_play(tmp_path):
    (tmp_path / "tttpkg.py").write_text("from __future__ import annotations\n" + textwrap.dedent(source("TicTacToe")))
    dist = tmp_path / "tttpkg-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: tttpkg\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[gridwidgets.games]\ntictactoe = tttpkg:TicTacToe\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    listing = subprocess.run([sys.executable, "-m", "gridwidgets", "play", "--help"], capture_output=True,
                             text=True, env=env, timeout=60)
    assert listing.returncode == 0 and "tictactoe" in listing.stdout
    moves = "\n".join(["A1", "A2", "B1", "B2", "C1"]) + "\n"
    game = subprocess.run([sys.executable, "-m", "gridwidgets", "play", "tictactoe"], input=moves,
                          capture_output=True, text=True, env=env, timeout=60)
    assert game.returncode == 0, game.stderr
    assert "Player 1 (X) wins." in game.stdout
    bad = subprocess.run([sys.executable, "-m", "gridwidgets", "play", "tictactoe", "--agent", "7"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert bad.returncode == 2 and "C-3" in bad.stderr


def test_undo_goes_back_to_the_persons_last_move_and_never_undoes_only_agents_moves():
    g = load()["TicTacToe"]()
    out = io.StringIO()
    # the agent (X) moves first: a "u" before the person moved has nothing of theirs to take back
    play_game(g, agents={0: RandomAgent(seed=1)}, read=_reader(["u", "q"]), out=out)
    assert "Nothing to undo." in out.getvalue() and len(g.history) == 1
    g = load()["TicTacToe"]()
    out = io.StringIO()
    play_game(g, agents={1: RandomAgent(seed=1)}, read=_reader(["B2", "u", "q"]), out=out)
    assert "Undone: 2 steps taken back." in out.getvalue() and not g.history  # the agent's reply too


def test_hot_seat_clears_the_screen_and_waits_for_the_next_person_c5():
    g = load()["Claim"]()
    first, second = g.legal_moves(0)[0], g.legal_moves(1)[-1]
    out = io.StringIO()
    prompts = []
    answers = iter([str(first), "", str(second)])

    def read(prompt):
        prompts.append(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    play_game(g, read=read, out=out)
    text = out.getvalue()
    assert "Hot seat:" in text
    assert prompts[1] == "Player 2, press Enter: " or prompts[1].endswith("press Enter: ")
    cleared = text.split(CLEAR)
    assert len(cleared) >= 2 and str(first) not in cleared[1].split("press Enter")[0]
    assert g.history or g.pending == ()  # the joint action was revealed


def test_panel_lines_align_mark_and_tag_the_rows():
    panel = Panel(("Player", "Score", "Status"),
                  (PanelRow(0, ("Player 1 (X)", "12", "to move"), "turn"),
                   PanelRow(1, ("Player 2 (O)", "3", ""), "winner")))
    lines = panel_lines(panel, {1: "random"})
    assert lines[0].split() == ["Player", "Score", "Status"]
    assert lines[1].startswith(" >  Player 1 (X)") and lines[2].startswith(" *  Player 2 (O)")
    assert lines[1].index("12") + 1 == lines[2].index("3")  # numbers right-aligned
    assert lines[2].endswith("[random]") and panel_lines(None) == []


@pytest.mark.parametrize("given, expected", [(["1"], [1]), (["magenta,lime"], [1, 2]), (["a", "O"], [3, 0]),
                                              (["0", "orange"], [0])])
def test_agent_seats_are_player_ids_names_or_initials_c3(given, expected):
    assert seats(given, ("orange", "magenta", "lime", "aqua")) == expected


@pytest.mark.parametrize("given", [["4"], ["purple"], ["x" * 10_000]])
def test_a_seat_that_is_no_player_is_refused_briefly_c3(given):
    with pytest.raises(ValueError, match="C-3") as err:
        seats(given, ("orange", "magenta", "lime", "aqua"))
    assert len(str(err.value)) < 200
