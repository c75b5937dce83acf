"""GridMaster4, one test (or more) per rule: RULES GM-1..GM-10."""

import re

import numpy as np
import pytest

import gridwidgets as gw
from gridwidgets import GridMaster4, IllegalMoveError
from gridwidgets.games.gridmaster import jump_cells


def moves(g):
    return [str(m) for m in g.legal_moves()]


# -- GM-1 -------------------------------------------------------------------
def test_gm1_defaults_20x20_four_players_100_tiles():
    g = GridMaster4()
    assert g.board.shape == (20, 20) and (g.board == -1).all()
    assert g.players == ("orange", "magenta", "lime", "aqua")
    assert g.tiles_per_player == 100 and g.deactivate == "own"
    assert g.scores == (0, 0, 0, 0) and g.remaining == (100, 100, 100, 100)


def test_gm1_options_size_players_tiles_and_the_solitaire():
    g = GridMaster4(size=10, players=1)
    assert g.board.shape == (10, 10) and g.players == ("orange",)
    g = GridMaster4(size=7, players=3, tiles=5)
    assert g.players == ("orange", "magenta", "lime") and g.remaining == (5, 5, 5)


@pytest.mark.parametrize(
    ("options", "rule"),
    [({"size": 0}, "GM-1"), ({"size": 27}, "GM-1"), ({"players": 5}, "GM-1"), ({"players": 0}, "GM-1"),
     ({"tiles": 0}, "GM-1"), ({"size": "20"}, "GM-1"), ({"deactivate": "mine"}, "GM-5")],
)
def test_gm1_bad_options_raise_value_error(options, rule):
    with pytest.raises(ValueError, match=rule):
        GridMaster4(**options)


def test_gm1_players_take_turns_in_order():
    g = GridMaster4(size=8)
    seen = []
    for cell in ["A1", "H8", "A8", "H1"]:
        seen.append(g.current_player)
        g.play(cell)
    assert seen == [0, 1, 2, 3] and g.current_player == 0


def test_gm1_playing_out_of_turn_is_refused():
    g = GridMaster4(size=8)
    with pytest.raises(IllegalMoveError) as info:
        g.play("A1", player=2)
    assert info.value.rule == "GM-1" and g.history == []


# -- GM-2 -------------------------------------------------------------------
def test_gm2_opening_places_tile_1_on_any_open_cell():
    g = GridMaster4(size=6, players=2)
    assert g.turn_kind() == "opening" and len(g.legal_moves()) == 36
    g.play("C3")
    assert g.tiles[2, 2] == 1 and g.scores == (1, 0)
    assert g.turn_kind() == "opening" and len(g.legal_moves()) == 35
    g.play("F6")  # magenta's opening is anywhere too, not a jump
    assert g.tiles[5, 5] == 1 and g.scores == (1, 1)


def test_gm2_opening_on_a_taken_cell_names_gm2():
    g = GridMaster4(size=6, players=2)
    g.play("C3")
    with pytest.raises(IllegalMoveError) as info:
        g.play("C3")
    assert info.value.rule == "GM-2"


def test_gm2_opening_deactivates_nothing():
    g = GridMaster4(size=8, players=2, deactivate="all")
    g.play("A1")
    g.play("D1")  # a jump cell of orange's tile: still deactivates nothing
    assert g.active[0, 0] and g.active[0, 3]


# -- GM-3 -------------------------------------------------------------------
def test_gm3_jump_offsets():
    assert sorted(jump_cells((10, 10), 20)) == sorted(
        [(7, 10), (13, 10), (10, 7), (10, 13), (8, 8), (8, 12), (12, 8), (12, 12)]
    )


@pytest.mark.parametrize(
    ("cell", "count"), [((0, 0), 3), ((19, 19), 3), ((0, 10), 5), ((1, 1), 3), ((2, 2), 6), ((10, 10), 8)]
)
def test_gm3_edges_and_corners_have_fewer_than_8(cell, count):
    assert len(jump_cells(cell, 20)) == count


def test_gm3_legal_moves_after_the_opening_are_the_jump_cells():
    g = GridMaster4(size=20, players=1)
    g.play("K11")  # (10, 10)
    assert sorted(moves(g)) == sorted(gw.core.cell_name(c) for c in jump_cells((10, 10), 20))
    g = GridMaster4(size=20, players=1)
    g.play("A1")
    assert sorted(moves(g)) == ["A4", "C3", "D1"]


# -- GM-4 -------------------------------------------------------------------
def test_gm4_normal_move_places_the_next_tile_and_it_becomes_the_score():
    g = GridMaster4(size=10, players=1)
    g.play("A1")
    g.play("D1")
    g.play("G1")
    assert g.tiles[0, 6] == 3 and g.scores == (3,) and g.remaining == (97,)


def test_gm4_not_a_jump_cell_is_refused_naming_gm4():
    g = GridMaster4(size=10, players=1)
    g.play("A1")
    for bad in ["B1", "B2", "E1", "J10"]:
        with pytest.raises(IllegalMoveError, match="not a jump cell") as info:
            g.play(bad)
        assert info.value.rule == "GM-4"
    assert len(g.history) == 1


def test_gm4_a_taken_jump_cell_is_refused_naming_gm4():
    g = GridMaster4(size=10, players=2)
    g.play("A1")
    g.play("D1")  # magenta's opening on orange's jump cell
    with pytest.raises(IllegalMoveError, match="taken") as info:
        g.play("D1")
    assert info.value.rule == "GM-4"


def test_gm4_off_the_board_is_refused():
    g = GridMaster4(size=10, players=1)
    with pytest.raises(IllegalMoveError) as info:
        g.play("K1")
    assert info.value.rule == "C-1"


def four_by_four_story():
    """2 players on 4x4: orange opens B2 (its only jump, D4, is then taken by
    magenta's opening), so orange is blocked and magenta owed a free placement."""
    g = GridMaster4(size=4, players=2)
    g.play("B2")
    g.play("D4")
    return g


def test_gm4_a_cell_reachable_from_two_tiles_is_one_move():
    g = four_by_four_story()
    g.play("A1")  # magenta's free placement: D4 and A1 both active
    assert g.active_tiles(1) == [(0, 0), (3, 3)]
    # D1 and A4 are jumps of both A1 and D4; C3 only of A1
    assert moves(g) == ["D1", "C3", "A4"]


# -- GM-5 -------------------------------------------------------------------
def test_gm5_the_tile_built_on_becomes_inactive_and_the_new_tile_is_active():
    g = GridMaster4(size=10, players=1)
    g.play("A1")
    g.play("D1")
    assert not g.active[0, 0] and g.active[0, 3]
    assert g.last_deactivated == [(0, 0)]


def test_gm5_one_move_deactivates_several_own_tiles():
    g = four_by_four_story()
    g.play("A1")
    g.play("D1")  # D1's jump cells hold both of magenta's active tiles
    assert sorted(g.last_deactivated) == [(0, 0), (3, 3)]
    assert g.active_tiles(1) == [(0, 3)]
    assert moves(g) == ["B3"]


def three_moves(deactivate):
    g = GridMaster4(size=8, players=2, deactivate=deactivate)
    g.play("A1")  # orange
    g.play("G1")  # magenta, on a jump cell of D1
    g.play("D1")  # orange builds on A1
    return g


def test_gm5_default_deactivates_only_the_movers_own_tiles():
    g = three_moves("own")
    assert not g.active[0, 0] and g.active[0, 3] and g.active[0, 6]


def test_gm5_variant_all_deactivates_every_players_tiles():
    g = three_moves("all")
    assert not g.active[0, 0] and g.active[0, 3] and not g.active[0, 6]
    assert sorted(g.last_deactivated) == [(0, 0), (0, 6)]
    # magenta has no active tile left: blocked at the start of its turn
    assert g.blocked == (False, True) and g.current_player == 0 and g.owed == (1, 0)


def test_gm5_inactive_tiles_stay_on_the_board_with_their_number():
    g = three_moves("all")
    assert g.tiles[0, 0] == 1 and g.board[0, 0] == 0 and g.tiles[0, 6] == 1


# -- GM-6, GM-7 -------------------------------------------------------------
def test_gm6_a_player_with_no_move_and_no_debt_is_blocked_and_their_tiles_stay():
    g = four_by_four_story()
    assert g.blocked == (True, False)
    assert g.current_player == 1  # orange's turn was skipped
    assert g.tiles[1, 1] == 1 and g.board[1, 1] == 0
    assert g.events == ["Player 1 (orange) is blocked (GM-6): Player 2 (magenta) is owed a free placement (GM-7)"]


def test_gm6_blocked_players_never_move_again():
    g = four_by_four_story()
    while not g.is_over:
        assert g.current_player == 1
        g.play(g.legal_moves()[0])
    assert g.scores[0] == 1 and int((g.board == 0).sum()) == 1


def test_gm7_a_free_placement_goes_on_any_open_cell_and_deactivates_nothing():
    g = four_by_four_story()
    assert g.turn_kind() == "free" and g.owed == (0, 1)
    assert len(g.legal_moves()) == 14  # every open cell
    g.play("A4")  # a jump cell of D4: still nothing is deactivated
    assert g.active[3, 3] and g.active[3, 0] and g.last_deactivated == []
    assert g.owed == (0, 0) and g.turn_kind() == "normal"


def test_gm7_a_free_placement_on_a_taken_cell_names_gm7():
    g = four_by_four_story()
    with pytest.raises(IllegalMoveError) as info:
        g.play("B2")
    assert info.value.rule == "GM-7"


def test_gm7_every_player_still_in_play_is_owed_one():
    # 3 players on 3x3, where the centre and edge middles have no jump at all
    g = GridMaster4(size=3, players=3)
    for cell in ["B2", "B1", "A1"]:
        g.play(cell)
    assert g.blocked == (True, False, False) and g.owed == (0, 1, 1)
    g.play("A2")  # magenta's free placement
    g.play("B3")  # lime's free placement
    # magenta (tiles B1, A2: no jumps, no debt) is blocked now: lime is owed one more
    assert g.blocked == (True, True, False) and g.owed == (0, 0, 1)
    assert g.current_player == 2 and g.turn_kind() == "free"


# -- GM-8 -------------------------------------------------------------------
def test_gm8_placing_the_last_tile_wins_at_once():
    g = GridMaster4(size=10, players=2, tiles=2)
    g.play("A1")
    g.play("J10")
    g.play("D1")  # orange's tile 2 of 2
    assert g.is_over and g.winner == 0 and g.winners == (0,)
    assert g.status() == "Player 1 (orange) placed tile 2, their last, and wins (GM-8)."
    with pytest.raises(IllegalMoveError) as info:
        g.play("J7")
    assert info.value.rule == "GM-8"


def test_gm8_solitaire_win_at_the_last_tile():
    g = GridMaster4(size=10, players=1, tiles=3)
    for cell in ["A1", "D1", "G1"]:
        g.play(cell)
    assert g.winners == (0,) and g.scores == (3,)


def test_gm8_when_every_player_is_blocked_the_highest_score_wins():
    g = four_by_four_story()
    g.play("A1")
    g.play("D1")
    g.play("B3")  # B3's only open jump was taken: magenta is blocked, so everyone is
    assert g.is_over and g.blocked == (True, True)
    assert g.winners == (1,) and g.scores == (1, 4)
    assert g.status() == "Game over: Player 2 (magenta) wins with 4 (GM-8)."
    assert g.events == [
        "Player 2 (magenta) is blocked (GM-6)",
        "Game over, every player is blocked: Player 2 (magenta) wins with 4 (GM-8)",
    ]


def test_gm8_a_full_board_ends_the_game_and_equal_scores_share_the_win():
    g = GridMaster4(size=2, players=4)
    for cell in ["A1", "B1", "A2", "B2"]:
        g.play(cell)
    assert g.is_over and g.winners == (0, 1, 2, 3) and g.winner is None
    assert g.status() == ("Game over: Player 1 (orange) and Player 2 (magenta) and Player 3 (lime) "
                          "and Player 4 (aqua) share the win with 1 (GM-8).")
    assert g.returns() == (0.0, 0.0, 0.0, 0.0)


def test_gm8_a_one_cell_board_is_full_after_one_tile():
    g = GridMaster4(size=1, players=2)
    g.play("A1")
    assert g.is_over and g.winners == (0,) and g.scores == (1, 0)


def test_gm1_gm8_the_puzzle_refuses_more_tiles_than_cells():
    with pytest.raises(ValueError, match="100 tiles cannot all be placed on 64 cells"):
        GridMaster4(size=8, players=1)
    assert GridMaster4(size=8, players=1, tiles=64).tiles_per_player == 64
    assert GridMaster4(size=8, players=2).tiles_per_player == 100  # several players: the board may fill (GM-8)


# -- GM-9, GM-10 ---------------------------------------------------------------
def test_gm9_move_notation_is_the_cell():
    g = GridMaster4()
    assert str(g.play("K10")) == "K10"
    assert str(g.play((19, 19))) == "T20"
    assert str(g.play("1 1")) == "A1"


def test_gm10_static_display_numbers_colours_and_muted_inactive_tiles():
    g = three_moves("own")
    svg = g._repr_svg_()
    assert sorted(re.findall(r'font-weight="bold"[^>]*>(\d+)</text>', svg)) == ["1", "1", "2"]
    from gridwidgets.core.palette import colour

    assert colour("orange") in svg and colour("magenta") in svg  # orange and magenta, active
    # legal dots are in the label colour; each tile also carries its owner's
    # mark (a disc for player 0, in the ink colour: WCAG 1.4.1)
    from gridwidgets.core.palette import role

    dots = re.compile(rf'<circle[^>]*fill="{role("label")}"')
    assert len(dots.findall(svg)) == 0 and len(re.findall(rf'<circle[^>]*fill="{role("ink")}"', svg)) >= 1
    marked = g.to_svg(show_legal=True)
    assert len(dots.findall(marked)) == len(g.legal_moves()) == 2  # E3, G4
    text = str(g)
    assert text.splitlines()[0].split() == list("ABCDEFGH")
    assert "o1" in text and "O2" in text and "M1" in text  # lower case: inactive
    assert g.text_rows()[0] == "o..O..M."


def test_undo_restores_deactivations_blocks_and_debts():
    g = four_by_four_story()
    g.play("A1")
    g.play("D1")
    before = (g.board.copy(), g.tiles.copy(), g.active.copy(), g.blocked, g.owed, g.current_player, g.events)
    g.play("B3")
    g.undo()
    assert np.array_equal(before[0], g.board) and np.array_equal(before[1], g.tiles)
    assert np.array_equal(before[2], g.active)
    assert before[3:] == (g.blocked, g.owed, g.current_player, g.events)
    g.goto(0)
    assert (g.board == -1).all() and g.blocked == (False, False) and g.owed == (0, 0)
    assert g.turn_kind() == "opening" and g.current_player == 0
    g.goto(4)
    assert g.blocked == (True, False) and g.history[-1].cell == (0, 3)


def test_save_and_load_replays_through_the_rules():
    g = four_by_four_story()
    g.play("A1")
    h = GridMaster4.from_json(g.to_json())
    assert h == g and h.owed == g.owed and h.blocked == g.blocked
    assert gw.Game.from_json(g.to_json()) == g
