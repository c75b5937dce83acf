"""The game protocol of the core (gridwidgets.core.game, gametype, registry):
steps and joint actions, hidden submissions, goto, save files, the registry,
the metadata, errors that tell unreadable from illegal, bounded input and the
per-game lock. The rules engines are tested per rule elsewhere; here the four
games serve as users of the protocol."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading

import pytest

import gridwidgets as gw
from gridwidgets.core import GameType, IllegalMoveError, InvalidMoveError, JointMove, Step
from gridwidgets.core.gametype import Chance, Dynamics, Information, MoveKind, Utility


def turn(g: gw.BlockFour) -> None:
    """Play Block Four's placements of this turn (the first legal one each time)."""
    while g.phase == "place":
        g.play(g.legal_moves()[0])


# -- issue 11's bug: Block Four's history through a revealed turn -------------------
def test_bf5_undo_to_the_start_then_redo_restores_block_four_exactly():
    g = gw.BlockFour(x_table=("L", "T"))
    g.play("IO", player=0)
    g.play("IL", player=1)
    turn(g)
    end = g.to_json()
    n = g.step_count
    while True:
        try:
            g.undo()
        except IndexError:
            break
    assert g.history == [] and not any(g.pending_bids) and len(g.future_steps) == n
    g.redo()  # the joint action IO + IL, one step
    g.redo()  # the first placement
    while g.future_steps:
        g.redo()
    assert g.to_json() == end


def test_goto_works_for_every_index_in_any_order():
    g = gw.BlockFour(seed=4)
    rng = random.Random(0)
    while g.turn < 4 and not g.is_over:
        for p in g.players_to_move:
            g.play(rng.choice(g.legal_moves(p)), player=p)
    end, n = g.to_json(), g.step_count
    positions: dict[int, str] = {}
    order = list(range(n + 1))
    rng.shuffle(order)
    for i in order + order[::-1]:
        g.goto(i)
        assert g.step_count == i
        text = json.dumps(json.loads(g.to_json())["history"])
        assert positions.setdefault(i, text) == text
    g.goto(n)
    assert g.to_json() == end
    with pytest.raises(IndexError):
        g.goto(n + 1)
    with pytest.raises(IndexError):
        g.goto(-1)


def test_a_joint_action_is_one_step_with_its_automatic_moves():
    g = gw.BlockFour(x_table=("L", "T"))
    g.play("LT", player=1)  # O first: either order (BF-13)
    g.play("IO", player=0)
    step = g.steps[0]
    assert isinstance(step, Step) and step.players == (0, 1)
    assert step.decision == JointMove((0, 1), tuple(g.history[:2]))
    assert [str(m) for m in g.history[:2]] == ["IO", "LT"]  # the history keeps player order
    assert str(g.undo()) == "IO + LT" and [str(m) for m in g.future] == ["IO", "LT"]


def test_bf5_undo_withdraws_a_hidden_bid_whoever_bid_first():
    for first in (0, 1):
        g = gw.BlockFour(x_table=("L", "T"))
        g.play(g.legal_moves(first)[0], player=first)
        assert g.pending == (first,) and g.undo() is None
        assert g.pending == () and g.future == [] and g.current_player == 0


def test_a_save_file_reloads_to_an_equal_game_after_going_back():
    # issue 12: after undo/the slider, Block Four's saves were refused or loaded differently
    g = gw.BlockFour(seed=2)
    rng = random.Random(1)
    while g.turn < 3:
        for p in g.players_to_move:
            g.play(rng.choice(g.legal_moves(p)), player=p)
    for i in range(g.step_count, -1, -1):
        g.goto(i)
        back = gw.BlockFour.from_json(g.to_json())
        assert back == g and back.to_json() == g.to_json() and back.step_count == i


def test_a_file_ending_inside_a_joint_action_is_refused():
    g = gw.BlockFour(x_table=("L", "T"))
    g.play("IO", player=0)
    g.play("IL", player=1)
    data = json.loads(g.to_json())
    data["history"] = data["history"][:1]
    data.pop("board")
    with pytest.raises(ValueError, match="inside a joint action"):
        gw.BlockFour.from_json(data)


def test_view_for_hides_a_submission_and_with_submission_fills_it():
    g = gw.BlockFour(x_table=("L", "T"))
    g.play("IO", player=0)
    view = g.view_for(1)
    assert view.pending == (0,) and "IO" not in repr(view._pending)
    with pytest.raises(IllegalMoveError, match="hidden") as info:
        view.play("IL", player=1)
    assert info.value.rule == "BF-5"
    guess = view.with_submission("IZ", 0)
    guess.play("IL", player=1)
    assert [str(m) for m in guess.history[:2]] == ["IZ", "IL"]
    assert g.view_for(0)._pending[0] == g._pending[0]  # the bidder sees their own bid


# -- players and turns ----------------------------------------------------------
def test_c3_a_player_id_that_is_not_a_player_is_named():
    g = gw.Gridlock()
    with pytest.raises(IllegalMoveError, match="5 is not a player") as info:
        g.play("D4", player=5)
    assert info.value.rule == "C-3"
    with pytest.raises(IllegalMoveError, match="is not a player"):
        g.play("D4", player="X")
    assert g.version == 0


def test_players_to_move_and_the_simultaneous_node():
    g = gw.BlockFour(x_table=("L", "T"))
    assert g.is_simultaneous_node() and g.players_to_move == (0, 1)
    g.play("IO", player=0)
    assert g.players_to_move == (1,) and g.legal_moves(0) == []
    g.play("IL", player=1)
    assert not g.is_simultaneous_node() and g.players_to_move == (g.current_player,)
    gl = gw.Gridlock()
    assert not gl.is_simultaneous_node() and gl.players_to_move == (0,) and gl.legal_moves(1) == []


def test_bf13_a_second_bid_is_refused_as_final():
    g = gw.BlockFour(x_table=("L", "T"))
    g.play("IO", player=0)
    with pytest.raises(IllegalMoveError) as info:
        g.play("IL", player=0)
    assert info.value.rule == "BF-13"


# -- errors: unreadable versus illegal ------------------------------------------
@pytest.mark.parametrize(
    ("game", "text", "unreadable"),
    [
        (gw.Gridlock, "banana", True),
        (gw.Gridlock, "Z9", False),  # readable, off the board (C-1)
        (gw.GridMaster4, "12 x", True),
        (gw.BlockFour, "I:A1,B1", True),
        (gw.BlockFour, "XY", True),
        (gw.GridBloc, "C4-D4", True),
        (gw.GridBloc, "C4|E4", False),  # readable, not neighbours (GB-2)
    ],
)
def test_c2_an_unreadable_move_is_an_invalid_move_error(game, text, unreadable):
    g = game()
    if g.current_player is not None and game is gw.GridBloc:
        g.play(g.legal_moves()[0])  # the blocker's turn
    with pytest.raises(IllegalMoveError) as info:
        g.play(text)
    assert isinstance(info.value, InvalidMoveError) is unreadable
    assert isinstance(info.value, ValueError)


def test_gb8_the_blocker_is_told_the_wall_form():
    g = gw.GridBloc()
    g.play(g.legal_moves()[0])
    with pytest.raises(InvalidMoveError, match=r"C4\|D4"):
        g.play("C4-D4")


@pytest.mark.parametrize("n", [20_000, 10_000_000])
def test_long_input_is_refused_with_a_short_message(n):
    for game in (gw.Gridlock, gw.GridMaster4, gw.BlockFour, gw.GridBloc):
        g = game()
        for text in (" " * n, "9" * n, "A" * n, "I:" + "A1," * (n // 3)):
            with pytest.raises(IllegalMoveError) as info:
                g.play(text)
            assert len(str(info.value)) < 300


def test_a_deeply_nested_save_file_is_a_value_error():
    with pytest.raises(ValueError, match="nested"):
        gw.Gridlock.from_json("[" * 1200 + "]" * 1200)
    with pytest.raises(ValueError):
        gw.Game.from_json(b"\xff\xfe")


# -- metadata ---------------------------------------------------------------------
def test_every_game_declares_its_type():
    types = {cls.game_type.short_name: cls.game_type for cls in gw.registry.games().values()}
    assert types["blockfour"].dynamics is Dynamics.SIMULTANEOUS
    assert types["blockfour"].information is Information.IMPERFECT
    assert types["blockfour"].chance is Chance.SEEDED_SETUP
    assert types["gridmaster4"].utility is Utility.GENERAL_SUM and types["gridmaster4"].max_players == 4
    assert MoveKind.EDGE in types["gridbloc"].move_kinds and MoveKind.CELLS in types["blockfour"].move_kinds
    assert all(t.rules.startswith("rules/") for t in types.values())
    assert str(gw.GridBloc.game_type).startswith("GridBloc: sequential, perfect information")


def test_game_info_follows_the_options():
    assert gw.Gridlock(5, 6).game_info.max_game_length == 30
    assert gw.GridMaster4(size=10, players=2).game_info.max_game_length == 100
    assert gw.GridMaster4(size=10, players=1, tiles=50).game_info.num_players == 1


def test_game_type_refuses_nonsense():
    with pytest.raises(ValueError):
        GameType("", "x")
    with pytest.raises(ValueError):
        GameType("x", "x", min_players=3, max_players=2)
    with pytest.raises(ValueError):
        GameType("x", "x", dynamics="sometimes")


def test_gm1_the_puzzle_refuses_more_tiles_than_cells_with_the_reason():
    with pytest.raises(ValueError, match="100 tiles cannot all be placed on 64 cells"):
        gw.GridMaster4(size=8, players=1)


def test_gb10_setup_starts_from_a_blank_board():
    assert gw.GridBloc(setup=True).original_walls == []
    assert gw.GridBloc(setup=True, preset="classic").original_walls == gw.GridBloc().original_walls


# -- the registry ------------------------------------------------------------------
def test_the_registry_finds_games_by_short_or_long_name():
    assert gw.registry.names()[:4] == ["gridlock", "gridmaster4", "blockfour", "gridbloc"]
    assert gw.registry.get("Block Four") is gw.BlockFour is gw.registry.get("block-four")
    assert gw.make("gridlock", rows=3).rows == 3
    with pytest.raises(ValueError, match="known games are gridlock"):
        gw.registry.get("chess")


def test_register_refuses_a_name_taken_by_another_class_unless_replaced():
    class Impostor(gw.Gridlock):
        game_type = GameType("gridlock", "Impostor")

    with pytest.raises(ValueError, match="already registered"):
        gw.register(Impostor)
    assert gw.registry.get("gridlock") is gw.Gridlock
    with pytest.raises(TypeError):
        gw.register(int)  # type: ignore[arg-type]


def test_a_subclass_without_its_own_declaration_is_not_registered_again():
    class Bigger(gw.Gridlock):
        pass

    assert Bigger.game_id == "gridlock" and gw.registry.get("gridlock") is gw.Gridlock


def test_gw_sim_and_the_version_need_no_extra_import():
    code = ("import gridwidgets as gw; print(callable(gw.sim.simulate), gw.__version__, "
            "'anywidget' in __import__('sys').modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == "True" and out[1] == gw.__version__ and out[2] == "False"  # widgets load lazily


# -- simulate: one runner, a DataFrame, any n_jobs ------------------------------------
@pytest.mark.parametrize("name", ["gridlock", "gridmaster4", "blockfour", "gridbloc"])
def test_simulate_is_on_every_game_and_gives_the_same_frame_for_any_n_jobs(name):
    cls = gw.registry.get(name)
    one = cls.simulate(12, seed=5, n_jobs=1, progress=False, **cls.small_options)
    two = cls.simulate(12, seed=5, n_jobs=2, progress=False, **cls.small_options)
    assert one.equals(two) and list(one["game"]) == list(range(12))
    assert {"length", "winners", "winner", "shared"} <= set(one.columns)


# -- the per-game lock ---------------------------------------------------------------
def test_changes_from_several_threads_are_atomic():
    g = gw.GridMaster4(size=10, players=4)
    errors: list[BaseException] = []

    def worker(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(300):
                if rng.random() < 0.2:
                    try:
                        g.undo()
                    except IndexError:
                        pass
                    continue
                with g.batch():  # read and play as one atomic change
                    moves = g.legal_moves()
                    if not moves:
                        return
                    g.play(rng.choice(moves))
        except BaseException as exc:  # pragma: no cover - the failure being tested for
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    replay = gw.GridMaster4.from_json(g.to_json())
    assert replay == g and (replay.tiles == g.tiles).all() and (replay.active == g.active).all()


def test_undo_until_a_person_is_to_move_c_3():
    """``undo_until(players)``: one step back, then on to a turn of one of
    ``players`` (an Undo button against agents); observers told once."""
    from docgames import load

    g = load()["TicTacToe"]()
    with pytest.raises(IndexError):
        g.undo_until({0})
    for m in ("A1", "A2", "B1"):
        g.play(m)
    seen = []
    g.observe(lambda game: seen.append(len(game.history)))
    assert g.undo_until({1}) == 2 and [str(m) for m in g.history] == ["A1"] and g.current_player == 1
    assert seen == [1]
    assert g.undo_until(set()) == 1 and not g.history


def test_bf5_play_joint_takes_both_bids_or_neither():
    g = gw.BlockFour(x_table=("L", "T"))
    with pytest.raises(gw.IllegalMoveError, match="BF-12"):
        g.play_joint({0: "IO", 1: "QQ"})  # X's bid goes in, O's cannot be read: X's is withdrawn
    assert g.pending == () and g.history == []
    with pytest.raises(gw.IllegalMoveError, match="no move for O"):
        g.play_joint({0: "IO"})
    assert g.pending == ()
    g.play_joint({0: "IO", 1: "IT"})
    assert [str(m) for m in g.steps[0].moves[:2]] == ["IO", "IT"]
