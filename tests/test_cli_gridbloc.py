"""Terminal play of GridBloc (RULES GB-1..GB-10, C-2, C-5):
``python -m gridwidgets play gridbloc``."""

import io
import os
import re
import subprocess
import sys

import pexpect
import pytest

from gridwidgets import GridBloc
from gridwidgets.agents import RandomAgent
from gridwidgets.terminal import play_game

# 3x3 blank board, start B2. Round 1: Player 2 runs A1, B1, back to A1 (no
# point) and is shut into {A1, B1} by three walls: trapped after a wall, 2
# points. Round 2 on the original (no) walls: Player 1 runs A1, B1, C1 and
# is shut into the top row: 3 points, and wins 3 to 2 (GB-7).
ROUND_1 = ["A1", "A1|A2", "B1", "B1|B2", "A1", "B1|C1"]
ROUND_2 = ["A1", "A1|A2", "B1", "B1|B2", "C1", "C1|C2"]


def names(moves):
    return sorted(str(m) for m in moves)


def run(inputs, game=None, agents=None):
    answers = iter(inputs)
    prompts = []

    def read(prompt):
        prompts.append(prompt)
        return next(answers)

    out = io.StringIO()
    game = game if game is not None else GridBloc(size=3, preset="blank")
    play_game(game, agents=agents, read=read, out=out)
    return game, prompts, out.getvalue()


def test_gb_terminal_full_game_two_rounds_events_and_result():
    game, prompts, out = run(ROUND_1 + ROUND_2)
    assert [str(m) for m in game.history] == ROUND_1 + ROUND_2
    assert game.is_over and game.winners == (0,) and game.round_scores == ((0, 2), (3, 0))
    # prompts are the status: the round, the player, the role (GB-4, GB-7)
    assert prompts[0] == "Round 1: Player 2 (runner, 0 points) to step. Your move: "
    assert prompts[1] == "Round 1: Player 1 (blocker) to place a wall; Player 2 has 1 point. Your move: "
    assert prompts[6] == "Round 2: Player 1 (runner, 0 points) to step. Your move: "
    assert prompts[7] == "Round 2: Player 2 (blocker) to place a wall; Player 1 has 1 point. Your move: "
    assert out.startswith("GridBloc.\n")
    # each move and what it scored (GB-5)
    assert "Player 2 stepped to A1: 1 point (1 in all)." in out
    assert "Player 2 on A1: 7 unscored tiles in reach (GB-6)." in out  # (the round ends at none)
    assert "Player 2 stepped to A1: scored already, no point (GB-5)." in out
    assert "Player 1 placed a wall on A1|A2." in out
    # the round end and the reset to the original walls (GB-6, GB-7)
    assert "  * Round 1 over, the runner is trapped: Player 2 scored 2 (GB-6)" in out
    assert ("  * Round 2: Player 1 runs, Player 2 blocks; back to the original walls, no tile scored (GB-7)"
            in out)
    after = out.split("no tile scored (GB-7)", 1)[1]
    assert "Round 2 of 2 (GB-7)\nPlayer 1 runs, Player 2 blocks.\n" in after  # the scene's notes
    assert "Legal moves (8): A1 B1 C1 A2 C2 A3 B3 C3" in after
    assert "  * Game over: Player 1 wins, 3 to 2 (GB-7)" in out
    # the end: the last position, the round scores, the result
    # the players' table: points, and the points of each round (GB-7)
    assert re.search(r" \*  Player 1 +3 +winner +– +3\n +Player 2 +2 +2 +–\n", out)
    assert out.rstrip().endswith("Game over: Player 1 wins, 3 to 2.")


def test_gb6_round_ends_after_a_step_and_a_sealed_start_ends_it_at_once():
    # 2x2, start A1: B1, wall A1|A2, B2, wall A1|B1 (A1 scored, the rest in reach), A2: nothing left
    g = GridBloc(size=2, preset="blank", start="A1")
    game, _, out = run(["B1", "A1|A2", "B2", "A1|B1", "A2", "q"], game=g)
    assert "  * Round 1 over, the runner is trapped after a step: Player 2 scored 3 (GB-6)" in out
    assert game.round == 2
    # the start tile sealed by the original walls: both rounds are over before anything is played
    sealed = GridBloc(size=3, preset="blank", start="A1", walls=["A1|B1", "A1|A2"])
    game, prompts, out = run([], game=sealed)
    assert "  * Round 1 over, the start tile is sealed: Player 2 scored 0 (GB-6)" in out
    assert "  * Round 2 over, the start tile is sealed: Player 1 scored 0 (GB-6)" in out
    assert "  * Game over: a draw, 0 each (GB-7)" in out
    assert prompts == [] and game.winners == (0, 1)
    assert out.rstrip().endswith("Game over: a draw, 0 to 0.")


def test_gb_terminal_illegal_input_names_the_rule_and_asks_again():
    inputs = ["A1|A2", "start A1", "hello", "Z9", "C3", "A1", "A1|C1", "B2|C3", "A1|A2", "A1", "C3", "B2",
              "A1|A2", "q"]
    game, prompts, out = run(inputs)
    assert [str(m) for m in game.history] == ["C3", "A1|A2", "B2"]
    assert "Illegal move: it is the runner's turn (Player 2): step to a neighbouring tile first (GB-4)" in out
    assert "Illegal move: start A1 is only for the setup phase (GB-10)" in out
    assert "Illegal move: cannot read 'hello' as a cell: write it like 'B2' or '2 2' (C-2)" in out
    assert "Illegal move: Z9 is off the 3x3 board (C-1)" in out
    assert "Illegal move: it is the blocker's turn (Player 1): place one wall (GB-4)" in out
    assert ("Illegal move: A1 and C1 are not orthogonal neighbours: a wall lies on the edge between two adjacent "
            "tiles (the outer border is always closed) (GB-2)") in out
    assert "Illegal move: B2 and C3 are not orthogonal neighbours" in out
    assert ("Illegal move: A1 is not next to the runner on C3: one step to one of the 8 neighbouring tiles (GB-3)"
            in out)
    assert "Illegal move: the runner is on C3: a step goes to one of the 8 neighbouring tiles (GB-3)" in out
    assert "Illegal move: A1|A2 is already a wall: one wall per edge (GB-2)" in out
    # the same prompt after each refusal
    assert prompts[:5] == ["Round 1: Player 2 (runner, 0 points) to step. Your move: "] * 5
    assert prompts[5:9] == ["Round 1: Player 1 (blocker) to place a wall; Player 2 has 1 point. Your move: "] * 4
    assert out.rstrip().endswith("Goodbye.")


def test_gb3_blocked_steps_are_refused_with_the_rule():
    g = GridBloc(size=3, preset="blank", walls=["B1|B2", "A1|A2"])
    game, _, out = run(["B1", "A1", "q"], game=g)
    assert "Illegal move: the step to B1 is blocked by a wall (GB-3)" in out
    assert "Illegal move: the step to A1 is blocked by walls closing both sides of the corner (GB-3)" in out
    assert game.history == []
    # C1, around the end of the wall B1|B2, is a step (GB-3)
    assert "Legal moves (6): C1 A2 C2 A3 B3 C3" in out


def test_gb_terminal_row_column_input():
    game, _, _ = run(["1 1", "1,1|2,1", "q"])  # row 1 column 1: A1; the wall A1|A2
    assert [str(m) for m in game.history] == ["A1", "A1|A2"]


def test_gb_terminal_help_lists_steps_and_the_walls_nearest_the_runner():
    _, _, out = run(["?", "D4", "?", "q"], game=GridBloc())
    assert "Step: D5 (or 5 4, row and column)" in out and "Wall: C4|D4, the two tiles it separates (GB-8)" in out
    assert out.count("Legal moves (8): D4 E4 F4 D5 F5 D6 E6 F6") == 2  # before the prompt, and on ?
    assert "128 legal moves (? shows some)." in out
    assert "Legal moves (128, 12 of them): D3|D4 C4|D4 D4|E4 D4|D5 " in out  # the walls nearest the runner


def test_gb_terminal_undo_two_people_and_against_an_agent():
    game, _, out = run(["A1", "u", "u", "B1", "q"])
    assert "Undone: 1 step taken back." in out and "Nothing to undo." in out
    assert [str(m) for m in game.history] == ["B1"]
    # a person blocking against an agent runner: undo takes back the person's
    # wall and the agent's step after it; the agent's first step stays
    agent = {1: RandomAgent(seed=2)}
    game, prompts, out = run(["u", "A1|A2", "u", "q"], agents=agent)
    assert "Nothing to undo." in out  # only the agent has moved
    assert "Undone: 2 steps taken back." in out
    assert len(game.history) == 1 and game.to_act == "block"
    assert all(p.startswith("Round 1: Player 1 (blocker)") for p in prompts)
    assert "Player 2 [RandomAgent(seed=2)] stepped to " in out


def test_gb_terminal_agent_runs_both_rounds_against_a_person():
    # the person (Player 2) steps to the first tile the screen offers, and places the first open wall
    game = GridBloc(size=4, preset="blank")
    out = io.StringIO()

    def read(prompt):
        if "runner" in prompt:
            return re.findall(r"Legal moves \(\d+\): (\S+)", out.getvalue())[-1]
        return str(game.legal_moves()[0])

    play_game(game, agents={0: RandomAgent(seed=1)}, read=read, out=out)
    text = out.getvalue()
    assert game.is_over
    assert "Player 1 is played by RandomAgent(seed=1)," in text
    assert "  * Round 2: Player 1 runs, Player 2 blocks;" in text
    assert re.search(r"Player 1 \[RandomAgent\(seed=1\)\] placed a wall on [A-D]\d\|[A-D]\d\.", text)
    assert re.search(r"Player 1 \[RandomAgent\(seed=1\)\] stepped to [A-D]\d", text)
    assert text.rstrip().endswith(game.status())


def test_gb_terminal_agents_only_play_to_the_end():
    game, prompts, out = run([], agents={0: RandomAgent(seed=0), 1: RandomAgent(seed=1)}, game=GridBloc())
    assert prompts == [] and game.is_over
    assert out.rstrip().endswith(game.status())
    # a seeded agent is a function of the position: the same game again
    again, _, _ = run([], agents={0: RandomAgent(seed=0), 1: RandomAgent(seed=1)}, game=GridBloc())
    assert [str(m) for m in again.history] == [str(m) for m in game.history]


def test_gb10_setup_phase_walls_start_done():
    g = GridBloc(size=4, preset="blank", setup=True)
    game, prompts, out = run(["?", "B2|C2", "D4", "start B2", "B2|C2", "done", "q"], game=g)
    assert prompts[0] == "Setup: Player 1 places original walls and the start, then 'done' (GB-10). Your move: "
    assert "Setup (GB-10): a wall, start E5, or done." in out
    assert "Legal moves (40, 12 of them): A1|B1 " in out and " done" in out.split("Legal moves (40")[1]
    assert "Player 1 placed an original wall on B2|C2." in out
    assert "Illegal move: in the setup, Player 1 places original walls ('C4|D4'), moves the start" in out
    assert "Player 1 moves the start to B2 (GB-10)." in out
    assert "Illegal move: B2|C2 is already a wall: one wall per edge (GB-2)" in out
    assert "Player 1 ends the setup: 1 original wall, start B2." in out
    assert "  * Setup done: round one begins (GB-10)" in out
    assert prompts[-1] == "Round 1: Player 2 (runner, 0 points) to step. Your move: "
    assert [str(w) for w in game.original_walls] == ["B2|C2"] and game.start == (1, 1)


def test_gb10_an_agent_in_the_setup_keeps_the_board():
    g = GridBloc(size=4, preset="blank", setup=True)
    game, prompts, out = run(["q"], game=g, agents={0: RandomAgent(seed=0)})
    assert [str(m) for m in game.history] == ["done"]
    assert "Player 1 [RandomAgent(seed=0)] ends the setup: 0 original walls, start C3." in out
    assert prompts == ["Round 1: Player 2 (runner, 0 points) to step. Your move: "]


def test_gb_board_text_walls_marks_holes():
    g = GridBloc(size=4, preset="blank", start="B2", walls=["B2|C2", "B1|B2"], holes=["D4"])
    assert names(g.legal_moves()) == ["A1", "A2", "A3", "B3", "C3"]
    assert g.board_text(mark_legal=True).splitlines() == [
        "     A   B   C   D",
        "   +---+---+---+---+",
        " 1 | +             |",  # B1 behind the wall, C1 behind both walls at the corner (GB-3)
        "   +   +---+   +   +",  # the wall B1|B2
        " 2 | +   R |       |",  # the wall B2|C2
        "   +   +   +   +   +",
        " 3 | +   +   +     |",
        "   +   +   +   +---+",  # D3|D4: next to a hole, closed (GB-1)
        " 4 |           | # |",
        "   +---+---+---+---+",
    ]
    g.play("A3")
    g.play("A1|A2")
    lines = g.board_text(mark_legal=True).splitlines()
    assert lines[4] == " 2 | +  (*)|       |"  # the start, a step back with no point (GB-5)
    assert lines[6] == " 3 | R   +         |"
    assert lines[3] == "   +---+---+   +   +"
    assert "+ " not in "".join(g.board_text().splitlines()[2::2])


def test_gb_terminal_end_of_input_says_goodbye():
    def read(prompt):
        raise EOFError

    out = io.StringIO()
    game = play_game(GridBloc(size=3, preset="blank"), read=read, out=out)
    assert not game.history and out.getvalue().rstrip().endswith("Goodbye.")


@pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a pty")
def test_gb_python_m_gridwidgets_play_gridbloc_in_a_real_terminal():
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "gridwidgets", "play", "gridbloc", "--size", "3", "--preset", "blank"],
        env=env, encoding="utf-8", timeout=20, dimensions=(50, 120),
    )
    try:
        child.expect_exact("GridBloc.")
        child.expect_exact("Legal moves (8): A1 B1 C1 A2 C2 A3 B3 C3")
        child.expect_exact("Round 1: Player 2 (runner, 0 points) to step. Your move: ")
        child.sendline("D1")
        child.expect_exact("Illegal move: D1 is off the 3x3 board (C-1)")
        child.expect_exact("Round 1: Player 2 (runner, 0 points) to step. Your move: ")
        child.sendline("1 1")
        child.expect_exact("Player 2 stepped to A1: 1 point (1 in all).")
        for move in ROUND_1[1:]:
            child.expect_exact("to place a wall" if "|" in move else "to step.")
            child.expect_exact("Your move: ")
            child.sendline(move)
        child.expect_exact("* Round 1 over, the runner is trapped: Player 2 scored 2 (GB-6)")
        child.expect_exact("back to the original walls, no tile scored (GB-7)")
        child.expect_exact("Round 2: Player 1 (runner, 0 points) to step. Your move: ")
        child.sendline("?")
        child.expect_exact("Legal moves (8): A1 B1 C1 A2 C2 A3 B3 C3")
        for move in ROUND_2:
            child.expect_exact("to place a wall" if "|" in move else "to step.")
            child.expect_exact("Your move: ")
            child.sendline(move)
        child.expect_exact("* Game over: Player 1 wins, 3 to 2 (GB-7)")
        child.expect_exact("Game over: Player 1 wins, 3 to 2.")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize(
    "args, message",
    [
        (["--size", "30"], "GB-1"),
        (["--size", "7", "--preset", "classic"], "9x9"),
        (["--agent", "2"], "C-3"),
        (["--rows", "5"], "unrecognized arguments: --rows"),
        (["--preset", "spiral"], "'classic' or 'blank' (GB-1)"),
    ],
)
def test_gb_cli_rejects_bad_options(args, message):
    proc = subprocess.run(
        [sys.executable, "-m", "gridwidgets", "play", "gridbloc", *args],
        capture_output=True, text=True, timeout=30,
    )
    assert proc.returncode == 2 and message in proc.stderr


def test_gridbloc_options_are_refused_for_the_other_games():
    proc = subprocess.run(
        [sys.executable, "-m", "gridwidgets", "play", "gridmaster4", "--preset", "blank"],
        capture_output=True, text=True, timeout=30,
    )
    assert proc.returncode == 2 and "unrecognized arguments: --preset" in proc.stderr
