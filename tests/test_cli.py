"""RULES GL-6: terminal play with the seed's dialogue."""

import io
import os
import subprocess
import sys

import pexpect
import pytest

from gridwidgets import Gridlock
from gridwidgets.terminal import play_game as play_gridlock

PROMPT_X = "Player 1 (X), it's your turn. Enter your move (row and column):"
PROMPT_O = "Player 2 (O), it's your turn. Enter your move (row and column):"
INVALID = "Invalid move. You cannot place next to an opponent's marker. Please choose a different cell."


def run(inputs, **opts):
    answers = iter(inputs)
    prompts = []

    def read(prompt):
        prompts.append(prompt.strip())
        return next(answers)

    out = io.StringIO()
    game = play_gridlock(Gridlock(**opts), read=read, out=out)
    return game, prompts, out.getvalue()


def test_gl6_seed_dialogue_placements_and_invalid_move():
    game, prompts, out = run(["2 2", "2 3", "3 3", "quit"])
    assert prompts[:3] == [PROMPT_X, PROMPT_O, PROMPT_O]
    assert "You placed an 'X' at position (2,2)." in out
    assert INVALID in out
    assert "You placed an 'O' at position (3,3)." in out
    assert [str(m) for m in game.history] == ["B2", "C3"]
    # the grid after X's move is the seed's
    assert "2 |   | X |   |   |" in out


def test_gl6_final_line_in_the_seeds_words():
    # 2x2: X (1,1), O (2,2): X has no legal move left
    game, _, out = run(["1 1", "2 2"], rows=2, cols=2)
    assert game.is_over
    assert out.rstrip().endswith("Player 1 has no legal moves remaining. Player 2 (O) wins the game!")


def test_gl6_other_bad_input_is_explained_and_asked_again():
    game, prompts, out = run(["9 9", "hello", "2 2", "2 2", "q"])
    assert "Rows must be 1 to 4" in out
    assert "Invalid input" in out
    assert "already taken" in out
    assert len(prompts) == 5 and [str(m) for m in game.history] == ["B2"]


@pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a pty")
def test_gl6_python_m_gridwidgets_play_gridlock_in_a_real_terminal():
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    child = pexpect.spawn(
        sys.executable, ["-m", "gridwidgets", "play", "gridlock", "--rows", "2", "--cols", "2"],
        env=env, encoding="utf-8", timeout=20,
    )
    try:
        child.expect_exact(PROMPT_X)
        child.sendline("1 2")
        child.expect_exact("You placed an 'X' at position (1,2).")
        child.expect_exact(PROMPT_O)
        child.sendline("2 2")
        child.expect_exact(INVALID)
        child.expect_exact(PROMPT_O)
        child.sendline("2 1")
        child.expect_exact("You placed an 'O' at position (2,1).")
        child.expect_exact("Player 1 has no legal moves remaining. Player 2 (O) wins the game!")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_cli_rejects_a_bad_size():
    proc = subprocess.run(
        [sys.executable, "-m", "gridwidgets", "play", "gridlock", "--rows", "0"],
        capture_output=True, text=True, timeout=30,
    )
    assert proc.returncode == 2 and "GL-1" in proc.stderr
