"""Block Four, one test (or more) per rule: RULES BF-1..BF-13, on small
hand-built positions (the board is set directly: ``position()``)."""

import itertools

import numpy as np
import pytest

import gridwidgets as gw
from gridwidgets import BlockFour, IllegalMoveError
from gridwidgets.games.blockfour.rules import SHAPES, _normal, orientations


def position(rows, x_table=("L", "T")):
    """A game whose board is ``rows`` (9 strings of X, O and .), the rest as set up."""
    g = BlockFour(x_table=x_table)
    assert len(rows) == 9 and all(len(r) == 9 for r in rows)
    g._board = [{"X": 0, "O": 1, ".": -1}[ch] for row in rows for ch in row]
    return g


EMPTY_ROWS = ["........."] * 9


def bids(g, x, o):
    g.play(x, player=0)
    g.play(o, player=1)


# -- BF-1, BF-2 ---------------------------------------------------------------
def test_bf1_board_is_9x9_with_nine_fields_numbered_row_by_row():
    g = BlockFour(seed=1)
    assert g.board.shape == (9, 9) and (g.board == -1).all()
    assert g.players == ("X", "O")
    rows = ["XXX......", "XX.......", "........."] + ["........."] * 3 + ["......OOO", "......OOO", "........."]
    g = position(rows)
    counts = g.field_counts()
    assert counts[0] == (5, 0) and counts[8] == (0, 6) and counts[4] == (0, 0)
    assert g.controllers() == [0, -1, -1, -1, -1, -1, -1, -1, 1]


def test_bf2_five_cards_numbered_1_to_5():
    w = BlockFour(seed=1).widget()
    assert w.state["extra"]["card_numbers"] == {"I": 1, "L": 2, "O": 3, "T": 4, "Z": 5}
    assert SHAPES == ("I", "L", "O", "T", "Z")


# -- BF-3 ---------------------------------------------------------------------
def test_bf3_all_19_fixed_tetrominoes_come_from_the_5_cards():
    counts = {s: len(orientations(s)) for s in SHAPES}
    assert counts == {"I": 2, "L": 8, "O": 1, "T": 4, "Z": 4}
    every = [o for s in SHAPES for o in orientations(s)]
    assert len(every) == len(set(every)) == 19
    # every fixed tetromino: all connected 4-cell sets within a 4x4 box, normalised
    cells = [(r, c) for r in range(4) for c in range(4)]
    found = set()
    for quad in itertools.combinations(cells, 4):
        q = set(quad)
        seen, stack = {quad[0]}, [quad[0]]
        while stack:
            r, c = stack.pop()
            for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if n in q and n not in seen:
                    seen.add(n)
                    stack.append(n)
        if len(seen) == 4:
            found.add(_normal(quad))
    assert found == set(every)


def test_bf3_mirror_images_and_rotations_are_accepted():
    g = BlockFour(x_table=("L", "T"))
    bids(g, "IZ", "LT")  # no match: I (X), L (O), T (O), Z (X)
    g.play("I:A9,B9,C9,D9")  # I lying down
    g.play("L:F1,G1,H1,F2")  # an L on its side
    g.play("T:A4,A5,A6,B5")  # a T pointing right
    g.play("Z:G4,G5,F5,F6")  # an S (Z mirrored), standing
    assert [str(m) for m in g.history[-4:]] == ["I:A9,B9,C9,D9", "L:F1,G1,H1,F2", "T:A4,A5,B5,A6", "Z:G4,F5,G5,F6"]


def test_bf3_cells_that_do_not_form_the_shape_are_refused():
    g = BlockFour(x_table=("L", "T"))
    bids(g, "IZ", "LT")
    for bad in ["I:A1,B1,C1,E1", "I:A1,B1,C1,C2", "I:A1,A2,A3,B4"]:
        with pytest.raises(IllegalMoveError) as info:
            g.play(bad)
        assert info.value.rule == "BF-3"
    assert str(g.history[-1]) == "LT"


# -- BF-4 ---------------------------------------------------------------------
def test_bf4_seeded_setup_puts_two_random_cards_on_xs_table():
    tables = {BlockFour(seed=s).x_table for s in range(40)}
    assert len(tables) > 5
    g = BlockFour(seed=7)
    assert BlockFour(seed=7).x_table == g.x_table
    assert len(g.hands[0]) == 3 and set(g.hands[0]) | set(g.tables[0]) == set(SHAPES)
    assert g.hands[1] == SHAPES and g.tables[1] == ()


def test_bf4_explicit_setup():
    g = BlockFour(x_table=("T", "L"))
    assert g.x_table == ("L", "T") and g.tables[0] == ("L", "T") and g.hands[0] == ("I", "O", "Z")


@pytest.mark.parametrize("bad", [("L",), ("L", "L"), ("L", "Q"), ("I", "L", "O"), "LLL"])
def test_bf4_bad_setup_raises_value_error(bad):
    with pytest.raises(ValueError, match="BF-4"):
        BlockFour(x_table=bad)


# -- BF-5, BF-13 ----------------------------------------------------------------
def test_bf5_a_bid_is_two_cards_from_the_hand():
    g = BlockFour(x_table=("L", "T"))
    assert sorted(str(m) for m in g.legal_moves()) == ["IO", "IZ", "OZ"]
    assert len(g.legal_moves(player=1)) == 10
    for bad in ["LT", "IL", "II"]:
        with pytest.raises(IllegalMoveError) as info:
            g.play(bad, player=0)
        assert info.value.rule == "BF-5"
    assert g.pending_bids == (False, False)


def test_bf13_bid_order_and_finality():
    g = BlockFour(x_table=("L", "T"))
    assert g.current_player == 0
    g.play("IO", player=0)
    assert g.current_player == 1 and g.pending_bids == (True, False)
    with pytest.raises(IllegalMoveError) as info:
        g.play("IZ", player=0)
    assert info.value.rule == "BF-13"
    assert g.legal_moves(player=0) == []


def test_bf13_o_may_bid_first_and_the_history_keeps_player_order():
    g = BlockFour(x_table=("L", "T"))
    g.play("LT", player=1)
    assert g.current_player == 0 and g.pending_bids == (False, True) and g.history == []
    g.play("IO", player=0)
    assert [str(m) for m in g.history[:2]] == ["IO", "LT"]
    h = BlockFour.from_json(g.to_json())
    assert h == g


def test_bf5_hidden_bid_is_withdrawn_by_undo_and_never_kept():
    g = BlockFour(x_table=("L", "T"))
    g.play("IO", player=0)
    assert g.undo() is None
    assert g.pending_bids == (False, False) and g.future == [] and g.version == 2


def test_bf5_placements_are_refused_in_the_bid_phase():
    g = BlockFour(x_table=("L", "T"))
    with pytest.raises(IllegalMoveError) as info:
        g.play("I:A1,B1,C1,D1")
    assert info.value.rule == "BF-5"


# -- BF-6 ---------------------------------------------------------------------
def order(g):
    return [(p["player"], p["shape"]) for p in g.turn_placements]


def test_bf6_no_match_four_placements_in_shape_order_by_their_chooser():
    g = BlockFour(x_table=("L", "T"))
    bids(g, "IO", "LT")
    assert order(g) == [(0, "I"), (1, "L"), (0, "O"), (1, "T")]
    assert g.phase == "place" and g.to_place == (0, "I") and g.current_player == 0
    assert g.events[0] == "Bids: X IO, O LT; no match: four placements in the order I, L, O, T, Z (BF-6)"


def test_bf6_one_match_two_copies_each_first_shape_first():
    g = BlockFour(x_table=("L", "T"))
    bids(g, "IO", "IL")  # I matches; O's L comes before X's O
    assert order(g) == [(1, "L"), (1, "L"), (0, "O"), (0, "O")]
    g = BlockFour(x_table=("L", "T"))
    bids(g, "IZ", "TZ")  # Z matches; X's I first
    assert order(g) == [(0, "I"), (0, "I"), (1, "T"), (1, "T")]


def test_bf6_two_matches_nothing_is_placed():
    g = BlockFour(x_table=("L", "T"))
    bids(g, "IO", "IO")
    assert order(g) == [] and g.phase == "bid" and g.turn == 2 and (g.board == -1).all()
    assert g.revealed is not None and [str(b) for b in g.revealed] == ["IO", "IO"]


def test_bf6_placing_out_of_turn_or_the_wrong_shape_is_refused():
    g = BlockFour(x_table=("L", "T"))
    bids(g, "IO", "LT")
    with pytest.raises(IllegalMoveError) as info:
        g.play("I:A1,B1,C1,D1", player=1)
    assert info.value.rule == "BF-6"
    with pytest.raises(IllegalMoveError) as info:
        g.play("O:A1,B1,A2,B2")
    assert info.value.rule == "BF-6"
    with pytest.raises(IllegalMoveError) as info:
        g.play("IZ", player=0)
    assert info.value.rule == "BF-6"


def test_bf6_placements_follow_the_order_then_a_new_turn():
    g = BlockFour(x_table=("L", "T"))
    bids(g, "IO", "LT")
    for move in ["I:A1,B1,C1,D1", "L:A3,A4,A5,B5", "O:H1,I1,H2,I2", "T:E7,F7,G7,F8"]:
        g.play(move)
    assert g.phase == "bid" and g.turn == 2
    assert [p["status"] for p in g.turn_placements] == ["done"] * 4


# -- BF-7 ---------------------------------------------------------------------
def test_bf7_overlapping_a_mark_is_refused():
    g = BlockFour(x_table=("L", "T"))
    bids(g, "IO", "LT")
    g.play("I:A1,B1,C1,D1")
    with pytest.raises(IllegalMoveError) as info:
        g.play("L:D1,D2,D3,E3")
    assert info.value.rule == "BF-7" and "D1 is not empty" in str(info.value)


def test_bf7_a_shape_that_fits_nowhere_is_skipped_by_the_engine():
    # a checkerboard of holes: no tetromino fits anywhere
    rows = ["".join("X" if (r + c) % 2 else "." for c in range(9)) for r in range(9)]
    rows = [row.replace("X", "O", 2) for row in rows]
    g = position(rows)
    bids(g, "IO", "LT")
    assert [str(m) for m in g.history] == ["IO", "LT", "I:-", "L:-", "O:-", "T:-"]
    assert g.phase == "bid" and g.turn == 2 and g.stall == 1
    assert "Player 1 (X)'s I fits nowhere: skipped (BF-7)" in g.events
    assert g.legal_moves(player=0) and g.last_skipped == ["I:-", "L:-", "O:-", "T:-"]
    # undo takes the revealed joint action back as one step, with its skips; redo replays them
    assert [str(s) for s in g.steps] == ["IO + LT (I:-, L:-, O:-, T:-)"]
    assert str(g.undo()) == "IO + LT"
    assert g.history == [] and g.pending_bids == (False, False)
    assert g.phase == "bid" and g.turn == 1 and [str(m) for m in g.future] == ["IO", "LT"]
    g.redo()
    assert [str(m) for m in g.history] == ["IO", "LT", "I:-", "L:-", "O:-", "T:-"]


def test_bf7_skip_cannot_be_played_when_the_shape_fits():
    g = BlockFour(x_table=("L", "T"))
    bids(g, "IO", "LT")
    with pytest.raises(IllegalMoveError) as info:
        g.play("I:-")
    assert info.value.rule == "BF-7"


# -- BF-8 ---------------------------------------------------------------------
WALL = "XOXOXOXOX"


@pytest.mark.parametrize(
    ("row0", "gap"),
    [(".....OXOX", ["E1"]), ("......XOX", ["E1", "F1"]), (".......OX", ["E1", "F1", "G1"])],
)
def test_bf8_gaps_of_1_2_3_are_filled_for_the_other_player(row0, gap):
    g = position([row0, WALL] + ["........."] * 7)
    bids(g, "IO", "LT")
    g.play("I:A1,B1,C1,D1")  # X
    assert [gw.core.cell_name(c) for c in g.last_gaps] == gap
    for name in gap:
        assert g.board[gw.core.parse_cell(name, 9, 9)] == 1  # O's mark
    assert any("gap fill (BF-8)" in e for e in g.events)


def test_bf8_a_gap_of_4_is_not_filled():
    g = position(["........X", WALL] + ["........."] * 7)
    bids(g, "IO", "LT")
    g.play("I:A1,B1,C1,D1")
    assert g.last_gaps == [] and (g.board[0, 4:8] == -1).all()


def test_bf8_gap_filled_for_the_other_player_of_the_placer():
    g = position([".....OXOX", WALL] + ["........."] * 7, x_table=("I", "T"))
    bids(g, "LO", "IL")  # one match (L): X's O comes after O's I: O places I twice
    assert g.to_place == (1, "I")
    g.play("I:A1,B1,C1,D1")  # O places; the gap goes to X
    assert g.board[0, 4] == 0


# -- BF-9 ---------------------------------------------------------------------
def test_bf9_control_at_5_of_9():
    four = position(["XXXX.....", "OOOO....."] + ["........."] * 7)
    assert four.field_counts()[0] == (3, 3) and four.controllers()[0] == -1
    five = position(["XXX......", "XXO......"] + ["........."] * 7)
    assert five.controllers()[0] == 0 and five.fields_controlled() == (1, 0) and five.scores == (1, 0)
    o5 = position(["OOO......", "OOX......"] + ["........."] * 7)
    assert o5.controllers()[0] == 1


def test_bf9_winning_at_5_fields_ends_the_game_mid_turn():
    rows = [
        "XXXXXXXXX",
        "XX.XX.XX.",
        ".........",
        "XXXXXX...",
        "XX.......",
        "...X.....",
        ".........",
        ".........",
        ".........",
    ]
    g = position(rows)
    assert g.fields_controlled() == (4, 0)
    bids(g, "IO", "LT")  # X places I first, then O's L and T would follow
    g.play("I:D5,E5,F5,G5")
    assert g.phase == "over" and g.winners == (0,) and g.winner == 0
    assert g.fields_controlled()[0] == 5 and g.status() == "Player 1 (X) wins with 5 fields."
    assert g.current_player is None and g.legal_moves() == []
    with pytest.raises(IllegalMoveError) as info:
        g.play("L:A7,A8,A9,B9")
    assert info.value.rule == "BF-9"


def test_bf9_players_may_still_fill_a_controlled_field():
    g = position(["XXX......", "XX......."] + ["........."] * 7)
    bids(g, "IO", "LT")
    g.play("I:C2,C3,C4,C5")  # into X's own controlled field 1
    assert g.board[1, 2] == 0


# -- BF-10 --------------------------------------------------------------------
def test_bf10_hands_cycle_3_and_5():
    g = BlockFour(x_table=("L", "T"))
    sizes = []
    for x, o in [("IO", "IO"), ("LT", "LT"), ("IO", "IO"), ("LT", "LT")]:
        sizes.append((len(g.hands[0]), len(g.hands[1])))
        bids(g, x, o)
        for p in (0, 1):
            assert len(g.hands[p]) + len(g.tables[p]) == 5
    sizes.append((len(g.hands[0]), len(g.hands[1])))
    assert sizes == [(3, 5), (5, 3), (3, 5), (5, 3), (3, 5)]
    assert g.tables == (("L", "T"), ()) and g.turn == 5


# -- BF-11 --------------------------------------------------------------------
def stall(g, turns):
    """Two-match turns (nothing placed): IO on odd turns, LT on even ones (x_table L, T)."""
    for _ in range(turns):
        bids(g, *(("IO", "IO") if g.turn % 2 else ("LT", "LT")))


def test_bf11_ten_turns_without_a_filled_space_end_in_a_draw_on_an_empty_board():
    g = BlockFour(x_table=("L", "T"))
    stall(g, 9)
    assert g.phase == "bid" and g.stall == 9
    stall(g, 1)
    assert g.phase == "over" and g.winners == (0, 1) and g.winner is None
    assert g.status() == "Draw: 0 fields each (BF-11)."
    assert "10 turns in a row with no space filled" in g.events[-1]


def test_bf11_stall_more_fields_wins():
    g = position(["XXX......", "XX......."] + ["........."] * 7)
    stall(g, 10)
    assert g.winners == (0,) and g.status() == "Player 1 (X) wins with 1 field."
    with pytest.raises(IllegalMoveError) as info:
        g.play("IO", player=0)
    assert info.value.rule == "BF-11"


def test_bf11_stall_as_many_fields_more_spaces_wins():
    g = position(["O........"] + ["........."] * 8)
    stall(g, 10)
    assert g.winners == (1,) and "more spaces" in g.events[-1]


def test_bf11_a_filled_space_restarts_the_count():
    g = BlockFour(x_table=("L", "T"))
    stall(g, 9)
    bids(g, "IZ", "LZ")  # turn 10, one match: placements happen (stall 9 -> 0)
    while g.phase == "place":
        g.play(g.legal_moves()[0])
    assert g.stall == 0 and g.phase == "bid"


# -- BF-12 --------------------------------------------------------------------
def test_bf12_notation():
    g = BlockFour(x_table=("L", "T"))
    assert str(g.play("OI", player=0)) == "IO"
    g.play("tl", player=1)
    assert str(g.play("I:d1, a1 ,C1,b1")) == "I:A1,B1,C1,D1"
    assert str(g.play("L:B3,A5,A3,A4")) == "L:A3,B3,A4,A5"
    g.undo()
    assert str(g.play("L:4 1, 5 1, 3 2, 3 1")) == "L:A3,B3,A4,A5"  # the row-column form (C-2)
    for bad in ["", "X", "I:A1,B1", "I;A1,B1,C1,D1", "ILO", 7]:
        with pytest.raises(IllegalMoveError):
            g.play(bad)


def test_save_load_and_undo_through_a_turn():
    g = BlockFour(seed=5)
    rng = np.random.default_rng(0)
    while g.turn < 4 and g.phase != "over":
        p = g.current_player
        moves = g.legal_moves(p)
        g.play(moves[int(rng.integers(len(moves)))], player=p)
    h = BlockFour.from_json(g.to_json())
    assert h == g and h.hands == g.hands and h.tables == g.tables and h.turn == g.turn
    before = g.to_json()
    g.play(g.legal_moves()[0], player=g.current_player)
    g.undo()
    assert g.to_json() == before


def test_bf7_a_skipped_placement_is_in_the_history_and_the_steps_decisions_replay_the_game():
    """BF-7: a placement that cannot be made is skipped ("T:-"): the rules
    play it, so ``history`` lists it after the placement it followed while
    ``play`` would refuse it; the steps' decisions replay the game exactly
    (what ``Game.history`` tells a user to do)."""
    import random

    skipped = 0
    for seed in range(60):
        rng, g = random.Random(seed), BlockFour(seed=0)
        while not g.is_over:
            for p in g.players_to_move:
                g.play(rng.choice(g.legal_moves(p)), player=p)
        autos = [m for step in g.steps for m in step.automatic]
        skipped += sum(str(m).endswith(":-") for m in autos)
        replay = BlockFour(seed=0)
        for step in g.steps:
            if step.players is None:
                replay.play(step.moves[0])
            else:
                for p, m in zip(step.players, step.moves[: len(step.players)], strict=True):
                    replay.play(m, player=p)
        assert replay.history == g.history and replay.to_json() == g.to_json(), f"game {seed}"
        if any(str(m).endswith(":-") for m in autos):  # the history itself, move by move, is refused
            naive, moves = BlockFour(seed=0), g.history
            with pytest.raises(IllegalMoveError):
                while moves:
                    for p in naive.players_to_move:
                        naive.play(moves.pop(0), player=p)
    assert skipped > 0, "some of these games skip a placement: the case this test is about"
