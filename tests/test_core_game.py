"""The shared core, exercised through Gridlock: history, undo/redo, goto,
observers, copies, versioned JSON save/load and its validation."""

import json

import numpy as np
import pytest

from gridwidgets import Game, Gridlock, IllegalMoveError
from gridwidgets.core import FORMAT

MOVES = ["B2", "D4", "A1", "C4", "A3"]


def played(moves=MOVES, **opts):
    g = Gridlock(**opts)
    for m in moves:
        g.play(m)
    return g


def test_undo_to_the_start_then_redo_to_the_end():
    g = played()
    boards = []
    while g.history:
        boards.append(g.board.copy())
        g.undo()
    assert (g.board == -1).all() and g.current_player == 0
    with pytest.raises(IndexError):
        g.undo()
    assert [str(m) for m in g.future] == MOVES
    while g.future:
        g.redo()
    with pytest.raises(IndexError):
        g.redo()
    assert [str(m) for m in g.history] == MOVES
    assert np.array_equal(g.board, boards[0])


def test_undo_returns_the_move_and_a_new_move_clears_redo():
    g = played()
    assert str(g.undo()) == "A3"
    assert str(g.undo()) == "C4"
    assert [str(m) for m in g.future] == ["C4", "A3"]
    g.play("D1")
    assert g.future == []


def test_goto_moves_through_history_and_future_notifying_once():
    g = played()
    calls = []
    g.observe(lambda game: calls.append(len(game.history)))
    g.goto(1)
    assert [str(m) for m in g.history] == ["B2"] and len(g.future) == 4
    g.goto(5)
    assert [str(m) for m in g.history] == MOVES
    assert calls == [1, 5]
    for bad in (-1, 6, "2", 1.5, True):
        with pytest.raises(IndexError):
            g.goto(bad)


def test_reset_starts_a_new_game_with_the_same_options():
    g = played(rows=5, cols=6)
    g.reset()
    assert g.history == [] and g.future == [] and (g.board == -1).all()
    assert g.board.shape == (5, 6) and g.current_player == 0


def test_observers_are_called_after_every_change_and_can_stop():
    g = Gridlock()
    seen = []
    handle = g.observe(lambda game: seen.append([str(m) for m in game.history]))
    g.play("B2")
    g.play("D4")
    g.undo()
    g.redo()
    g.reset()
    assert seen == [["B2"], ["B2", "D4"], ["B2"], ["B2", "D4"], []]
    handle.stop()
    assert not handle.active
    g.play("A1")
    assert len(seen) == 5
    again = g.observe(lambda game: seen.append(["again"]))
    g.undo()
    g.unobserve(again)
    g.redo()
    assert seen[5:] == [["again"]]


def test_observers_are_not_called_for_refused_moves():
    g = Gridlock()
    seen = []
    g.observe(lambda game: seen.append(1))
    g.play("B2")
    with pytest.raises(IllegalMoveError):
        g.play("C2")
    assert seen == [1]


def test_a_failing_observer_does_not_break_the_game():
    g = Gridlock()

    def bad(game):
        raise RuntimeError("boom")

    g.observe(bad)
    with pytest.warns(RuntimeWarning, match="boom"):
        g.play("B2")
    assert [str(m) for m in g.history] == ["B2"]


def test_version_increases_on_every_change():
    g = Gridlock()
    v = [g.version]
    g.play("B2")
    v.append(g.version)
    g.undo()
    v.append(g.version)
    g.redo()
    v.append(g.version)
    assert v == sorted(set(v))


def test_copy_is_independent_and_has_no_observers():
    g = played()
    seen = []
    g.observe(lambda game: seen.append(1))
    h = g.copy()
    assert h == g and h is not g
    h.undo()
    assert h != g and len(g.history) == 5 and seen == []
    h.play("A3")
    assert seen == []


def test_save_load_round_trip_keeps_history_and_future():
    g = played(rows=5, cols=6)
    g.undo()
    g.undo()
    h = Gridlock.from_json(g.to_json())
    assert h == g
    assert [str(m) for m in h.future] == ["C4", "A3"]
    h.redo()
    assert [str(m) for m in h.history] == MOVES[:4]


def test_save_file_is_versioned_and_readable():
    data = json.loads(played().to_json())
    assert data["format"] == FORMAT and data["game"] == "gridlock" and data["version"] == 1
    assert data["options"] == {"rows": 4, "cols": 4}
    assert data["history"] == MOVES
    assert data["board"] == ["X...", ".X..", "X...", "..OO"]


def test_base_class_from_json_dispatches_on_the_game():
    g = played()
    assert Game.from_json(g.to_json()) == g


def _bad(**changes):
    data = json.loads(played().to_json())
    for key, value in changes.items():
        if value is ...:
            del data[key]
        else:
            data[key] = value
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        (_bad(format="chess"), "format"),
        (_bad(game="gridmaster9"), "gridmaster9"),
        (_bad(version=99), "version"),
        (_bad(options={"rows": 0}), "bad options"),
        (_bad(options={"size": 3}), "bad options"),
        (_bad(options=[4, 4]), "options"),
        (_bad(history="B2 D4"), "history"),
        (_bad(history=["B2", 7]), "history"),
        (_bad(history=["B2", "C2"]), r"move 2 \('C2'\).*GL-3"),
        (_bad(history=["B2", "B2"]), "move 2"),
        (_bad(history=["B2", "Q99"]), "move 2"),
        (_bad(future=["C2"]), "move 6"),
        (_bad(board=["....", "....", "....", "...."]), "board"),
    ],
)
def test_bad_save_files_raise_value_error_saying_what_is_wrong(text, match):
    with pytest.raises(ValueError, match=match):
        Gridlock.from_json(text)


def test_gridlock_refuses_a_file_of_another_game():
    data = json.loads(played().to_json())
    data["game"] = "gridbloc"
    with pytest.raises(ValueError, match="gridbloc"):
        Gridlock.from_json(json.dumps(data))


def test_text_board_is_the_seed_layout():
    g = Gridlock()
    g.play("2 2")
    assert str(g) == "\n".join(
        [
            "    1   2   3   4",
            "  +---+---+---+---+",
            "1 |   |   |   |   |",
            "  +---+---+---+---+",
            "2 |   | X |   |   |",
            "  +---+---+---+---+",
            "3 |   |   |   |   |",
            "  +---+---+---+---+",
            "4 |   |   |   |   |",
            "  +---+---+---+---+",
        ]
    )


def test_text_board_aligns_two_digit_rows():
    lines = str(Gridlock(rows=12, cols=11)).splitlines()
    assert lines[0].split() == [str(c) for c in range(1, 12)]
    assert lines[-2].startswith("12 |") and lines[2].startswith(" 1 |")
    assert len({len(line) for line in lines[1:]}) == 1


def test_svg_display_shows_every_piece_and_the_last_move():
    g = played()
    svg = g._repr_svg_()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert svg.count(">X</text>") == 3 and svg.count(">O</text>") == 2
    assert 'stroke="#eab308"' in svg  # the last move outlined
    assert "Player 2 (O)" in svg  # the title says whose turn


def test_repr_is_stable():
    assert repr(played()) == "<Gridlock(rows=4, cols=4): 5 moves, Player 2 (O), it's your turn.>"
