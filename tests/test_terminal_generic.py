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
from gridwidgets.terminal import CLEAR, play_game


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
    assert "(RandomAgent" in out.getvalue() and len(g.history) >= 5


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
