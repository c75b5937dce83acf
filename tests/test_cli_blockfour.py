"""Terminal play of Block Four (RULES BF-1..BF-13, C-2, C-5):
``python -m gridwidgets play blockfour``."""

import io
import os
import re
import subprocess
import sys

import pexpect
import pytest

from gridwidgets import BlockFour
from gridwidgets.agents import RandomAgent
from gridwidgets.games.blockfour import HIDDEN, Bid
from gridwidgets.terminal import CLEAR, play_game

# X holds I O Z (table L T), O all five; IO against LT: no match,
# placements X I, O L, X O, O T (BF-6)
BID_X = "Turn 1: Player 1 (X) to bid two cards. Your move: "
BID_O = "Turn 1: Player 2 (O) to bid two cards (Player 1 (X) has bid). Your move: "
TURN_1 = ["IO", "", "LT", "I:A1,B1,C1,D1", "A3 A4 A5 B5", "h1,i1,h2,i2", "E7 F7 G7 F8"]


def run(inputs, game=None, agents=None, clear=True):
    answers = iter(inputs)
    prompts = []

    def read(prompt):
        prompts.append(prompt)
        return next(answers)

    out = io.StringIO()
    game = game if game is not None else BlockFour(x_table=("L", "T"))
    play_game(game, agents=agents, read=read, out=out, clear=clear)
    return game, prompts, out.getvalue()


def position(rows, x_table=("L", "T")):
    """A constructed position: the board set directly (as in test_blockfour_rules)."""
    g = BlockFour(x_table=x_table)
    g._board = [{"X": 0, "O": 1, ".": -1}[ch] for row in rows for ch in row]
    return g


def test_bf_terminal_hot_seat_turn_reveal_and_placements():
    game, prompts, out = run([*TURN_1, "q"])
    assert [str(m) for m in game.history] == [
        "IO", "LT", "I:A1,B1,C1,D1", "L:A3,A4,A5,B5", "O:H1,I1,H2,I2", "T:E7,F7,G7,F8",
    ]
    assert game.phase == "bid" and game.turn == 2
    assert prompts[0] == BID_X
    assert prompts[1] == "Player 2 (O), press Enter: "
    assert prompts[2] == BID_O
    assert prompts[3] == "Turn 1: Player 1 (X) to place I. Your move: "
    assert prompts[4] == "Turn 1: Player 2 (O) to place L. Your move: "
    assert "  * Bids: X IO, O LT; no match: four placements in the order I, L, O, T, Z (BF-6)" in out
    assert "This turn: X I now, O L, X O, O T." in out
    assert "This turn: X I done, O L now, X O, O T." in out
    assert "Player 1 (X) placed I on A1 B1 C1 D1." in out and "Player 2 (O) placed T on E7 F7 G7 F8." in out
    # hands and tables, as the page's table has them (BF-2, BF-10)
    assert re.search(r" >  Player 1 \(X\) +0 +0 +I O Z +L T +to bid", out)
    assert re.search(r" >  Player 1 \(X\) +0 +8 +I L O T Z +none +to bid", out)  # the cards passed on (BF-10)
    assert out.rstrip().endswith("Goodbye.")


def test_bf5_hot_seat_clears_the_screen_so_o_never_sees_xs_bid():
    _, prompts, out = run(["IZ", "", "q"])
    assert out.count(CLEAR) == 1
    before, after = out.split(CLEAR)
    assert "Player 1 (X) has bid." in before
    assert after.startswith("Player 1 (X) has chosen. Pass the keyboard to Player 2 (O), then press Enter.")
    # nothing after the clear tells X's cards: X's row says only "has bid"
    table = after.split("Legal moves")[0]  # (O's own bids are listed after it)
    assert "IZ" not in table and "I Z " not in table and "Bids:" not in after
    assert re.search(r"Player 1 \(X\) +0 +0 +I O Z +L T +X has bid", after)
    assert prompts == [BID_X, "Player 2 (O), press Enter: ", BID_O]


def test_bf5_no_clear_without_a_second_person_or_when_turned_off():
    _, _, out = run(["IZ", "", "q"], clear=False)
    assert CLEAR not in out and "Pass the keyboard to Player 2 (O)" in out
    _, _, out = run(["IZ", "q"], agents={1: RandomAgent(seed=1)})
    assert CLEAR not in out and "Pass the keyboard" not in out


def test_bf_terminal_bids_by_letters_or_card_numbers():
    game, _, _ = run(["o i", "", "2,4", "q"])
    assert [str(b) for b in game.revealed] == ["IO", "LT"]


def test_bf_terminal_illegal_input_names_the_rule_and_asks_again():
    inputs = ["LT", "II", "hello", "IO", "", "LT",
              "I:A1,B1,C1,C2", "A1 B1 C1", "IZ", "A1 B1 C1 D1", "A1 A2 A3 B3", "A2 A3 A4 B4", "q"]
    game, prompts, out = run(inputs)
    assert "Illegal move: X does not hold L, T (hand: IOZ): a bid is two cards from the hand (BF-5)" in out
    assert "Illegal move: a bid is two different cards, not 'II' (BF-5)" in out
    unreadable = "cannot read 'hello': a bid is two cards like 'IT', a placement like 'T:B2,C2,D2,C3' (BF-12)"
    assert f"Illegal move: {unreadable}" in out
    assert "Illegal move: A1, B1, C1, C2 do not form the I shape (in any rotation or mirror image) (BF-3)" in out
    assert "Illegal move: cannot read 'A1 B1 C1'" in out
    assert "Illegal move: it is the placement phase: bids come at the start of the next turn (BF-6)" in out
    assert "Illegal move: A1 is not empty: a shape is filled on four empty spaces (BF-7)" in out
    # the same prompt after each refusal
    assert prompts[0] == prompts[1] == prompts[2] == prompts[3]
    assert [str(m) for m in game.history] == ["IO", "LT", "I:A1,B1,C1,D1", "L:A2,A3,A4,B4"]


def test_bf_terminal_help_lists_bids_and_some_placements():
    _, _, out = run(["?", "IO", "", "LT", "?", "q"])
    assert "Legal moves (3): IO IZ OZ" in out
    assert "I 1, L 2, O 3, T 4, Z 5" in out  # the card numbers, to bid by number (BF-2)
    assert "Legal moves (108, 10 of them): I:A1,B1,C1,D1 " in out  # spread out over the board


def test_bf5_undo_withdraws_a_hidden_bid_and_takes_back_placements():
    game, _, out = run(["u", "IO", "", "u", "IZ", "", "LT", "A1 B1 C1 D1", "u", "q"])
    assert "Nothing to undo." in out
    assert out.count("Undone: 1 step taken back.") == 2  # the hidden bid withdrawn; then the placement
    assert [str(m) for m in game.history] == ["IZ", "LT"] and game.to_place == (0, "I")


def test_bf5_an_agent_bids_from_its_view_without_the_persons_bid():
    seen = []

    class Spy(RandomAgent):
        def choose(self, game):
            seen.append((game.phase, game._pending.get(0)))
            return super().choose(game)

    game, _, out = run(["OZ", "q"], agents={1: Spy(seed=3)})
    assert seen[0] == ("bid", Bid(0, HIDDEN))
    assert "Player 2 (O) [RandomAgent(seed=3)] has bid." in out
    assert "  * Bids: X OZ, O " in out
    assert game.revealed is not None and str(game.revealed[0]) == "OZ"


def test_bf5_an_agent_x_bids_first_and_its_bid_is_not_shown_before_the_reveal():
    _, prompts, out = run(["IL", "q"], agents={0: RandomAgent(seed=2)})
    before = out.split("* Bids:")[0]
    assert "Player 1 (X) [RandomAgent(seed=2)] has bid." in before
    assert "Player 1 (X) is played by RandomAgent(seed=2), which sees only what Player 1 (X) may know." in out
    revealed_x = out.split("* Bids: X ")[1][:2]
    assert f"X {revealed_x}" not in before and revealed_x not in before.split("has bid.")[-1]
    assert prompts[0] == BID_O


def test_bf7_bf8_skips_and_gap_fills_are_announced():
    rows = ["".join("X" if (r + c) % 2 else "." for c in range(9)) for r in range(9)]
    rows = [row.replace("X", "O", 2) for row in rows]
    _, _, out = run(["IO", "", "LT", "q"], game=position(rows))
    assert "  * Player 1 (X)'s I fits nowhere: skipped (BF-7)" in out
    assert "  * Player 2 (O)'s T fits nowhere: skipped (BF-7)" in out
    wall = "XOXOXOXOX"
    g = position([".....OXOX", wall] + ["........."] * 7)
    _, _, out = run(["IO", "", "LT", "A1 B1 C1 D1", "q"], game=g)
    assert "Player 1 (X) placed I on A1 B1 C1 D1.\n  * gap fill (BF-8): E1 to Player 2 (O)" in out


def test_bf_terminal_board_shows_fields_counts_and_control():
    g = position(["XXX......", "XXO......"] + ["........."] * 7)
    lines = g.board_text().splitlines()
    assert lines[0] == "      A B C   D E F   G H I"
    assert lines[1] == lines[5] == lines[9] == lines[13] == "    +-------+-------+-------+"
    assert lines[2].startswith("  1 | X X X | . . . | . . . |   field 1      field 2      field 3")
    assert lines[3].endswith("X 5  O 1     X 0  O 0     X 0  O 0")
    assert lines[4].endswith("X controls")
    _, _, out = run(["q"], game=g)
    assert re.search(r" >  Player 1 \(X\) +1 +5 +I O Z", out)  # fields and spaces in the table (BF-9)


def test_bf_terminal_two_agents_play_to_the_end():
    game, prompts, out = run([], game=BlockFour(seed=3), agents={0: RandomAgent(seed=1), 1: RandomAgent(seed=2)})
    assert prompts == [] and game.is_over
    assert out.rstrip().endswith(game.status())
    assert (re.search(r" \*  Player [12] \([XO]\) ", out) is not None) == (len(game.winners) == 1)  # a winner starred


def test_bf_terminal_end_of_input_says_goodbye():
    def read(prompt):
        raise EOFError

    out = io.StringIO()
    game = play_game(BlockFour(seed=1), read=read, out=out)
    assert not game.history and not any(game.pending_bids) and out.getvalue().rstrip().endswith("Goodbye.")


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--x-table", "LL"], "BF-4"), (["--agent", "z"], "C-3"), (["--rows", "5"], "unrecognized arguments")],
)
def test_bf_cli_rejects_bad_options(args, message):
    proc = subprocess.run(
        [sys.executable, "-m", "gridwidgets", "play", "blockfour", *args],
        capture_output=True, text=True, timeout=30,
    )
    assert proc.returncode == 2 and message in proc.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a pty")
def test_bf_python_m_gridwidgets_play_blockfour_against_an_agent():
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "gridwidgets", "play", "blockfour", "--x-table", "LT", "--agent", "o", "--seed", "0"],
        env=env, encoding="utf-8", timeout=20, dimensions=(50, 100),
    )
    try:
        child.expect_exact("Player 2 (O) is played by RandomAgent(seed=1)")
        child.expect_exact(BID_X)
        child.sendline("LZ")
        child.expect_exact("Illegal move: X does not hold L (hand: IOZ): a bid is two cards from the hand (BF-5)")
        child.expect_exact(BID_X)
        child.sendline("1 5")  # card numbers: I and Z
        child.expect_exact("Player 2 (O) [RandomAgent(seed=1)] has bid.")
        child.expect(r"\* Bids: X IZ, O ([ILOTZ]{2})")
        child.expect(r"This turn: ([^\r\n]+)\.")
        # a couple of X's placements: the first legal one ? lists
        for _ in range(2):
            if child.expect([r"Turn \d: Player 1 \(X\) to place ([ILOTZ])\. Your move: ", r"to bid two cards"]) == 1:
                break
            shape = child.match.group(1)
            child.sendline("?")
            child.expect(r"Legal moves \(\d+(?:, \d+ of them)?\): [ILOTZ]:([A-I]\d(?:,[A-I]\d){3})")
            cells = child.match.group(1).replace(",", " ")
            child.expect_exact("Your move: ")
            child.sendline(cells)
            child.expect_exact(f"Player 1 (X) placed {shape} on {cells}.")
        child.expect_exact(": ")
        child.sendline("q")
        child.expect_exact("Goodbye.")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
