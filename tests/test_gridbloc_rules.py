"""GridBloc, one test (or more) per rule: RULES GB-1..GB-10."""

import json

import pytest

import gridwidgets as gw
from gridwidgets import GridBloc, IllegalMoveError


def names(moves):
    return sorted(str(m) for m in moves)


def blank(size=5, **kw):
    return GridBloc(size=size, preset="blank", **kw)


# -- GB-1 -------------------------------------------------------------------
def test_gb1_default_9x9_classic_start_e5():
    g = GridBloc()
    assert g.board.shape == (9, 9) and g.start == (4, 4) and g.runner == (4, 4)
    assert len(g.original_walls) > 0 and g.players == ("Player 1", "Player 2")


@pytest.mark.parametrize(("size", "start"), [(2, (1, 1)), (7, (3, 3)), (26, (13, 13))])
def test_gb1_any_size_2_to_26_start_in_the_middle(size, start):
    g = blank(size)
    assert g.start == start and g.original_walls == []


@pytest.mark.parametrize("bad", [1, 27, "9"])
def test_gb1_bad_size(bad):
    with pytest.raises(ValueError, match="GB-1"):
        GridBloc(size=bad, preset="blank")


def test_gb1_start_and_walls_from_the_constructor():
    g = GridBloc(size=7, preset="blank", start="D4", walls=["C4|D4", "D3|D4"])
    assert g.start == (3, 3) and names(g.original_walls) == ["C4|D4", "D3|D4"]


def test_gb1_classic_preset_is_9x9():
    with pytest.raises(ValueError, match="9x9"):
        GridBloc(size=7, preset="classic")
    with pytest.raises(ValueError, match="unknown GridBloc preset"):
        GridBloc(preset="spiral")


def test_gb1_holes_are_not_tiles_and_close_their_edges():
    g = blank(3, start="B2", holes=["A1", "B1"])
    assert g.board[0, 0] == -2 and g.board[0, 1] == -2
    assert names(g.legal_moves()) == ["A2", "A3", "B3", "C1", "C2", "C3"]
    with pytest.raises(IllegalMoveError) as info:
        g.play("B1")
    assert info.value.rule in ("GB-1", "GB-3")


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [({"start": "A1", "holes": ["A1"]}, "hole"), ({"walls": ["A1|C1"]}, "GB-2"), ({"walls": ["A1|B2"]}, "GB-2"),
     ({"walls": ["A1|A0"]}, "not a valid"), ({"start": "Z9"}, "not a valid")],
)
def test_gb1_invalid_boards_raise_value_error(kwargs, match):
    with pytest.raises(ValueError, match=match):
        blank(5, **kwargs)


def test_gb1_board_presets_round_trip_as_json():
    g = GridBloc(size=6, preset="blank", start="B2", walls=["C4|D4", "C3|C4"], holes=["F6"])
    spec = json.dumps(g.board_preset())
    h = GridBloc(board=spec)
    assert h.start == g.start and names(h.original_walls) == names(g.original_walls) and h.holes == [(5, 5)]
    for bad in ["{", '{"size": 5, "walls": "A1|B1"}', '{"size": 5, "oops": 1}', '{"walls": []}',
                '{"size": 5, "start": "A1", "holes": ["A1"]}', '{"size": 5, "walls": ["A1|C3"]}']:
        with pytest.raises(ValueError):
            GridBloc(board=bad)


# -- GB-2 -------------------------------------------------------------------
def test_gb2_walls_lie_on_edges_between_neighbours_and_the_border_is_closed():
    g = blank(3, start="A1")
    assert names(g.legal_moves()) == ["A2", "B1", "B2"]  # the border: no step off the board
    g.play("B1")
    with pytest.raises(IllegalMoveError) as info:
        g.play("A1|C1")
    assert info.value.rule == "GB-2"
    assert "A1|B1" in names(g.legal_moves()) and len(g.legal_moves()) == 12  # 2*3*2 interior edges


def test_gb2_wall_notation_either_order_is_the_same_edge():
    g = blank(3, start="A1")
    g.play("B1")
    assert str(g.play("B2|B1")) == "B1|B2"
    g.play("A1")
    with pytest.raises(IllegalMoveError) as info:
        g.play("B1|B2")
    assert info.value.rule == "GB-2" and "already a wall" in str(info.value)


# -- GB-3 -------------------------------------------------------------------
# A = B2 (1,1) steps to D = C3 (2,2); the other two tiles at that corner are
# B3 (2,1), beside A in A's column, and C2 (1,2), beside A in A's row.
@pytest.mark.parametrize(
    ("walls", "allowed"),
    [
        ([], True),
        (["B2|B3"], True),  # a single wall end at the corner
        (["B2|C2"], True),
        (["B2|C2", "B3|C3"], False),  # a straight line through the corner (vertical)
        (["B2|B3", "C2|C3"], False),  # a straight line through the corner (horizontal)
        (["B2|B3", "B2|C2"], False),  # the corner sealed on A's side
        (["B3|C3", "C2|C3"], False),  # the corner sealed on D's side
        (["B2|B3", "B3|C3"], True),  # the two walls around the third tile B3
        (["B2|C2", "C2|C3"], True),  # the two walls around the third tile C2
    ],
)
def test_gb3_diagonal_steps_around_a_corner(walls, allowed):
    g = blank(4, start="B2", walls=walls)
    assert ("C3" in names(g.legal_moves())) == allowed
    if not allowed:
        with pytest.raises(IllegalMoveError) as info:
            g.play("C3")
        assert info.value.rule == "GB-3" and "both sides of the corner" in str(info.value)


def test_gb3_orthogonal_step_through_a_wall_is_blocked():
    g = blank(4, start="B2", walls=["B2|C2"])
    assert "C2" not in names(g.legal_moves())
    with pytest.raises(IllegalMoveError) as info:
        g.play("C2")
    assert info.value.rule == "GB-3" and "blocked by a wall" in str(info.value)


def test_gb3_one_step_only():
    g = blank(5, start="C3")
    with pytest.raises(IllegalMoveError) as info:
        g.play("E5")
    assert info.value.rule == "GB-3"
    assert len(g.legal_moves()) == 8


# -- GB-4 -------------------------------------------------------------------
def test_gb4_runner_steps_first_then_the_blocker_walls_alternating():
    g = blank(5)
    assert g.current_player == 1 and g.to_act == "run"
    g.play("C2")
    assert g.current_player == 0 and g.to_act == "block"
    g.play("A1|B1")
    assert g.current_player == 1 and g.to_act == "run"


def test_gb4_acting_out_of_turn_is_refused():
    g = blank(5)
    with pytest.raises(IllegalMoveError) as info:
        g.play("A1|B1")
    assert info.value.rule == "GB-4"
    g.play("C2")
    with pytest.raises(IllegalMoveError) as info:
        g.play("C3")
    assert info.value.rule == "GB-4"
    with pytest.raises(IllegalMoveError) as info:
        g.play("A1|B1", player=1)
    assert info.value.rule == "GB-4"


# -- GB-5 -------------------------------------------------------------------
def test_gb5_first_landings_score_one_revisits_and_the_start_nothing():
    g = blank(5)
    g.play("C2")
    g.play("A1|B1")
    assert g.scores == (0, 1)
    g.play("C3")  # back on the start: nothing
    g.play("A2|B2")
    g.play("C2")  # a revisit: nothing
    g.play("A3|B3")
    g.play("D2")
    assert g.scores == (0, 2) and g.round_scores == ((0, 2), (0, 0))


# -- GB-6 -------------------------------------------------------------------
def test_gb6_the_round_ends_after_a_wall_that_traps_the_runner():
    # 2x2: the runner on B2 (start), steps to A1 ... a tiny board
    g = blank(2, start="B2")
    g.play("A1")  # 1 point; A2, B1 still unscored
    assert g.round == 1
    g.play("A1|B1")
    g.play("A2")  # 2 points; B1 is unscored, reachable via B2? A2->B1 diagonal
    assert g.round == 1
    # close B1 off: walls B1|B2 and ... A1|B1 is already there; B1's last open edge is B1|B2
    g.play("B1|B2")
    assert g.round == 2 and g.round_scores[0] == (0, 2)
    assert "trapped" in g.events[0]


def test_gb6_the_round_ends_after_a_step_onto_the_last_unscored_tile():
    g = blank(2, start="A1")
    g.play("B1")
    g.play("A1|A2")
    g.play("B2")
    g.play("A1|B1")
    g.play("A2")  # the last unscored tile: nothing left to reach
    assert g.round == 2 and g.round_scores[0] == (0, 3)
    assert g.events[0].startswith("Round 1 over, the runner is trapped after a step")


def test_gb6_a_sealed_start_ends_the_round_at_once_with_0():
    g = blank(3, start="B2", walls=["A2|B2", "B1|B2", "B2|C2", "B2|B3"])
    # both rounds end before a move: a draw at 0
    assert g.phase == "over" and g.round_scores == ((0, 0), (0, 0))
    assert g.winners == (0, 1) and g.history == []
    assert g.events[0] == "Round 1 over, the start tile is sealed: Player 2 scored 0 (GB-6)"


def test_gb6_unscored_reachable_counts_what_the_round_waits_for():
    g = blank(3, start="A1")
    assert g.unscored_reachable() == 8
    g.play("B2")
    assert g.unscored_reachable() == 7
    g.play("B2|B3")
    assert g.unscored_reachable() == 7  # B3 is still reached around the wall


# -- GB-7 -------------------------------------------------------------------
def play_round(g, steps_and_walls):
    for m in steps_and_walls:
        g.play(m)


def test_gb7_round_two_swaps_roles_and_resets_to_the_original_walls():
    g = blank(2, start="A1", walls=["A2|B2"])
    g.play("B1")
    g.play("A1|A2")  # a placed wall
    assert "A1|A2" in names(g.placed_walls)
    g.play("B2")  # A2 is now out of reach (A2|B2 original, A1|A2 placed, B1-A2 corner closed): trapped
    assert g.round == 2 and g.round_scores[0] == (0, 2)
    assert g.runner_player == 0 and g.blocker_player == 1 and g.current_player == 0
    assert names(g.walls) == ["A2|B2"] and g.placed_walls == [] and g.runner == (0, 0)
    assert g.scored == [(0, 0)]
    assert any("original walls" in e for e in g.events)


def test_gb7_higher_total_wins_and_equal_totals_draw():
    g = blank(2, start="A1")
    for m in ["B1", "A1|A2", "B2", "A1|B1", "A2"]:  # round 1: Player 2 scores 3
        g.play(m)
    assert g.round == 2 and g.scores == (0, 3)
    for m in ["B1", "B1|B2"]:  # round 2: Player 1 1, then trapped? A2 via A1? ...
        g.play(m)
    while g.phase != "over":
        g.play(g.legal_moves()[0])
    assert g.winners == ((0,) if g.scores[0] > g.scores[1] else (1,) if g.scores[1] > g.scores[0] else (0, 1))
    assert g.status().startswith("Game over")


def test_gb7_a_draw():
    g = blank(2, start="A1")
    for m in ["B2", "A1|B1", "B1", "A1|A2"]:
        g.play(m)
    # Player 2: B2, B1 = 2 points; A2 reachable from B1? B1->A2 diagonal (corner with A1, B2)
    while g.round == 1:
        g.play(g.legal_moves()[0])
    r1 = g.round_scores[0][1]
    for m in ["B2", "A1|B1", "B1", "A1|A2"]:
        g.play(m)
    while g.phase != "over":
        g.play(g.legal_moves()[0])
    assert g.round_scores[1][0] == r1 and g.winners == (0, 1) and g.winner is None


# -- GB-8 -------------------------------------------------------------------
def test_gb8_notation():
    g = blank(5)
    assert str(g.play("c2")) == "C2"
    assert str(g.play("B4|A4")) == "A4|B4"
    g.play("2 2")  # B2, the books' row-column form
    assert str(g.play("C4|C3")) == "C3|C4"
    for bad in ["C2|", "|", "hello", "A1|A1"]:
        with pytest.raises(IllegalMoveError):
            g.play(bad)


# -- GB-10 ------------------------------------------------------------------
def test_gb10_setup_on_a_blank_board():
    g = GridBloc(setup=True, preset="blank")
    assert g.phase == "setup" and g.current_player == 0 and g.to_act == "setup"
    g.play("C4|D4")
    g.play("start B2")
    g.play("D3|D4")
    with pytest.raises(IllegalMoveError) as info:
        g.play("D5")
    assert info.value.rule == "GB-10"
    with pytest.raises(IllegalMoveError) as info:
        g.play("C4|D4")
    assert info.value.rule == "GB-2"
    g.play("done")
    assert g.phase == "play" and g.start == (1, 1) and g.runner == (1, 1)
    assert names(g.original_walls) == ["C4|D4", "D3|D4"] and g.current_player == 1
    h = GridBloc.from_json(g.to_json())
    assert h == g and names(h.original_walls) == ["C4|D4", "D3|D4"]
    with pytest.raises(IllegalMoveError) as info:
        g.play("done")
    assert info.value.rule == "GB-10"


def test_gb10_setup_is_undoable():
    g = GridBloc(setup=True, preset="blank")
    g.play("C4|D4")
    g.play("done")
    g.undo()
    g.undo()
    assert g.phase == "setup" and g.original_walls == []


def test_save_load_and_undo_mid_game():
    g = GridBloc()
    for m in ["F6", "C4|D4", "G7", "G6|G7"]:
        g.play(m)
    h = GridBloc.from_json(g.to_json())
    assert h == g and h.scores == g.scores and names(h.walls) == names(g.walls)
    g.undo()
    assert "G6|G7" not in names(g.walls) and g.to_act == "block"
    assert gw.Game.from_json(h.to_json()) == h
