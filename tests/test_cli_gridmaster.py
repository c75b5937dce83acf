"""Terminal play of GridMaster4 (RULES GM-1..GM-10, C-2, C-5):
``python -m gridwidgets play gridmaster4``."""

import io
import os
import re
import subprocess
import sys

import pexpect
import pytest

from gridwidgets import GridMaster4
from gridwidgets.agents import RandomAgent
from gridwidgets.terminal import play_game

# A 6x6 game, 2 players, 5 tiles: magenta is blocked after B1 and orange,
# owed a free placement (GM-7), takes it on C1 and wins with tile 5 on E3.
SCRIPT = ["D3", "E1", "D6", "B1", "B4", "C1", "E3"]


def run(inputs, agents=None, **opts):
    answers = iter(inputs)
    prompts = []

    def read(prompt):
        prompts.append(prompt)
        return next(answers)

    out = io.StringIO()
    game = play_game(GridMaster4(**opts), agents=agents, read=read, out=out)
    return game, prompts, out.getvalue()


def test_gm_terminal_full_game_prompts_events_and_result():
    game, prompts, out = run(SCRIPT, size=6, players=2, tiles=5)
    assert [str(m) for m in game.history] == SCRIPT
    assert game.is_over and game.winners == (0,)
    # the prompt is the status: the player and the kind of turn
    assert prompts[0] == "Player 1 (orange) to move: opening, tile 1 on any open cell (GM-2). Your move: "
    assert prompts[1] == "Player 2 (magenta) to move: opening, tile 1 on any open cell (GM-2). Your move: "
    assert prompts[2] == "Player 1 (orange) to move: tile 2 on a jump cell (GM-4). Your move: "
    assert prompts[5] == "Player 1 (orange) to move: free placement, any open cell (GM-7). Your move: "
    # what each move did, and the events (GM-5, GM-6, GM-7, GM-8)
    assert "Player 1 (orange) placed tile 2 on D6; now inactive: D3 (GM-5)." in out
    assert "  * Player 2 (magenta) is blocked (GM-6): Player 1 (orange) is owed a free placement (GM-7)" in out
    assert "  * Player 1 (orange) placed tile 5, their last, and wins (GM-8)" in out
    assert out.rstrip().endswith("Player 1 (orange) placed tile 5, their last, and wins (GM-8).")
    # the players' table of the page: blocked marked, the winner starred
    assert re.search(r"   Player 2 \(magenta\) +2 +3 +1 +– +blocked \(GM-6\)", out)
    assert re.search(r" \*  Player 1 \(orange\) +5 +0 +\d +– +winner", out)
    assert "Free placement (GM-7): orange may use any open cell" in out  # the scene's notes


def test_gm_terminal_illegal_input_names_the_rule_and_asks_again():
    game, prompts, out = run(["D3", "E1", "A1", "D3", "Z9", "hello", "", "D6", "q"], size=6, players=2, tiles=5)
    assert [str(m) for m in game.history] == ["D3", "E1", "D6"]
    assert "Illegal move: A1 is not a jump cell of any active orange tile" in out
    assert "(GM-4)" in out
    assert "Illegal move: D3 is taken by orange tile 1: a tile goes on an open cell (GM-4)" in out
    assert "Illegal move: Z9 is off the 6x6 board (C-1)" in out
    assert "Illegal move: cannot read 'hello' as a cell: write it like 'B2' or '2 2' (C-2)" in out
    # the same prompt after each refusal (and after an empty line)
    assert prompts[2:7] == [prompts[2]] * 5
    assert out.rstrip().endswith("Goodbye.")


def test_gm_terminal_row_column_input_help_and_undo():
    # "3 4" is row 3, column 4: D3 (C-2)
    game, _, out = run(["3 4", "?", "E1", "u", "u", "u", "1 1", "q"], size=6, players=2, tiles=5)
    assert [str(m) for m in game.history] == ["A1"]
    assert "Legal moves (35, 16 of them): A1 " in out  # ? on an opening: some of the open cells
    assert out.count("Undone: 1 step taken back.") == 2
    assert "Nothing to undo." in out


def test_gm_terminal_legal_moves_listed_and_marked():
    game = GridMaster4(size=6, players=2, tiles=5)
    for m in ["D3", "E1"]:
        game.play(m)
    board = game.board_text(mark_legal=True).splitlines()
    assert board[0].split() == list("ABCDEF")
    # orange's jump cells from D3 (GM-3): A3, D6, B1, F1, B5, F5 (E1 is magenta's)
    assert board[3].split() == ["3", "+", ".", ".", "O1", ".", "."]
    assert board[1].split() == ["1", ".", "+", ".", ".", "M1", "+"]
    _, _, out = run(["D3", "E1", "q"], size=6, players=2, tiles=5)
    assert "Legal moves (5): B1 F1 A3 B5 F5" not in out  # D6 too: 6 moves
    assert "Legal moves (6): B1 F1 A3 B5 F5 D6" in out


def test_gm_terminal_inactive_tiles_lower_case_and_20x20_fits():
    game = GridMaster4()
    for m in ["K10", "A1", "T20", "A20", "K13"]:
        game.play(m)
    text = game.board_text(mark_legal=True)
    assert " o1 " in text and " O2" in text and "M1" in text
    assert max(len(line) for line in text.splitlines()) <= 84


def test_gm_terminal_agents_play_their_seats():
    agents = {1: RandomAgent(seed=1), 2: RandomAgent(seed=2), 3: RandomAgent(seed=3)}
    game, prompts, out = run(["K10", "q"], agents=agents)
    assert len(game.history) == 4
    assert all(p.startswith("Player 1 (orange) to move") for p in prompts)
    assert "Player 2 (magenta) [RandomAgent(seed=1)] placed tile 1 on" in out
    assert re.search(r"   Player 2 \(magenta\) .*\[RandomAgent\(seed=1\)\]", out)


def test_gm_terminal_agents_only_play_to_the_end():
    agents = {p: RandomAgent(seed=p) for p in range(4)}
    game, prompts, out = run([], agents=agents, size=8)
    assert prompts == [] and game.is_over
    assert out.rstrip().endswith(game.status())


def test_gm_terminal_variant_names_the_owner_of_an_opponent_tile_switched_off():
    moves = ["G4", "G5", "G7", "E3", "D7", "C5", "A7", "q"]
    game, _, out = run(moves, size=8, players=2, deactivate="all")
    assert "Player 1 (orange) placed tile 4 on A7; now inactive: D7, C5 (magenta) (GM-5)." in out
    assert "  * Player 2 (magenta) is blocked (GM-6): Player 1 (orange) is owed a free placement (GM-7)" in out
    assert game.blocked == (False, True)


def test_gm_terminal_end_of_input_says_goodbye():
    def read(prompt):
        raise EOFError

    out = io.StringIO()
    game = play_game(GridMaster4(size=6, players=2), read=read, out=out)
    assert not game.history and out.getvalue().rstrip().endswith("Goodbye.")


@pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a pty")
def test_gm_python_m_gridwidgets_play_gridmaster4_in_a_real_terminal():
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "gridwidgets", "play", "gridmaster4", "--size", "6", "--players", "2", "--tiles", "5"],
        env=env, encoding="utf-8", timeout=20, dimensions=(50, 100),
    )
    try:
        child.expect_exact("Player 1 (orange) to move: opening, tile 1 on any open cell (GM-2). Your move: ")
        child.sendline("D3")
        child.expect_exact("Player 1 (orange) placed tile 1 on D3.")
        child.expect_exact("Player 2 (magenta) to move: opening, tile 1 on any open cell (GM-2). Your move: ")
        child.sendline("1 5")  # row 1, column 5: E1
        child.expect_exact("Player 2 (magenta) placed tile 1 on E1.")
        child.expect_exact("Legal moves (6): B1 F1 A3 B5 F5 D6")
        child.expect_exact("Player 1 (orange) to move: tile 2 on a jump cell (GM-4). Your move: ")
        child.sendline("A1")
        child.expect_exact("(GM-4)")
        child.expect_exact("Player 1 (orange) to move: tile 2 on a jump cell (GM-4). Your move: ")
        child.sendline("D6")
        child.expect_exact("Player 1 (orange) placed tile 2 on D6; now inactive: D3 (GM-5).")
        for move in ["B1", "B4"]:
            child.expect_exact("Your move: ")
            child.sendline(move)
        child.expect_exact("Player 2 (magenta) is blocked (GM-6): Player 1 (orange) is owed a free placement (GM-7)")
        child.expect_exact("Player 1 (orange) to move: free placement, any open cell (GM-7). Your move: ")
        child.sendline("C1")
        child.expect_exact("Your move: ")
        child.sendline("E3")
        child.expect_exact("* Player 1 (orange) placed tile 5, their last, and wins (GM-8)")
        child.expect(r"\*  Player 1 \(orange\) +5 +0 +\d +– +winner")
        child.expect(r"Player 2 \(magenta\) .* blocked \(GM-6\)")
        child.expect_exact("Player 1 (orange) placed tile 5, their last, and wins (GM-8).")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


@pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a pty")
def test_gm_python_m_against_three_random_agents():
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "gridwidgets", "play", "gridmaster4", "--size", "8", "--agent", "1,lime", "--agent", "a", "--seed", "5"],
        env=env, encoding="utf-8", timeout=20,
    )
    try:
        child.expect_exact("Player 2 (magenta) is played by RandomAgent(seed=6)")
        child.expect_exact("Player 1 (orange) to move: opening")
        child.sendline("D4")
        child.expect_exact("Player 4 (aqua) [RandomAgent(seed=8)] placed tile 1 on")
        # play the first legal move the terminal offers, to the end
        while True:
            i = child.expect([r"Legal moves \(\d+\): ([A-H]\d)", r"(\d+) legal moves", r"Game over[^\r\n]*"])
            if i == 2:
                break
            if i == 1:
                child.expect_exact("Your move: ")
                # any open cell (GM-7): try the cells in order until one is open
                for cell in [f"{c}{r}" for r in range(1, 9) for c in "ABCDEFGH"]:
                    child.sendline(cell)
                    if child.expect([r"Illegal move", r"placed tile"]) == 1:
                        break
                    child.expect_exact("Your move: ")
                continue
            move = child.match.group(1)
            child.expect_exact("Your move: ")
            child.sendline(move)
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize(
    "args, message",
    [
        (["--size", "30"], "GM-1"),
        (["--players", "5"], "GM-1"),
        (["--agent", "4"], "C-3"),
        (["--agent", "purple"], "not a player"),
        (["--rows", "5"], "unrecognized arguments: --rows"),
        (["--deactivate", "none"], "GM-5"),
    ],
)
def test_gm_cli_rejects_bad_options(args, message):
    proc = subprocess.run(
        [sys.executable, "-m", "gridwidgets", "play", "gridmaster4", *args],
        capture_output=True, text=True, timeout=30,
    )
    assert proc.returncode == 2 and message in proc.stderr
