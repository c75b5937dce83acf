"""RULES C-1, C-2: cells and their notation."""

import pytest

from gridwidgets.core import IllegalMoveError, cell_name, col_index, col_label, parse_cell


@pytest.mark.parametrize(
    ("text", "cell"),
    [("A1", (0, 0)), ("C2", (1, 2)), ("c2", (1, 2)), ("T20", (19, 19)), (" b3 ", (2, 1)), ("Z26", (25, 25))],
)
def test_c2_spreadsheet_notation(text, cell):
    assert parse_cell(text, 26, 26) == cell


@pytest.mark.parametrize("text", ["2 3", "2,3", "2, 3", "(2,3)", " 2   3 "])
def test_c2_row_column_form_is_one_based(text):
    assert parse_cell(text, 4, 4) == (1, 2) == parse_cell("C2", 4, 4)


def test_c1_tuples_are_zero_based_row_col():
    assert parse_cell((1, 2), 4, 4) == (1, 2)
    assert parse_cell([3, 0], 4, 4) == (3, 0)


@pytest.mark.parametrize("col", [0, 1, 25, 26, 27, 51, 52, 701, 702])
def test_c2_column_labels_round_trip(col):
    assert col_index(col_label(col)) == col


def test_c2_labels():
    assert [col_label(c) for c in (0, 25, 26, 27)] == ["A", "Z", "AA", "AB"]


@pytest.mark.parametrize("cell", [(r, c) for r in range(0, 26, 5) for c in range(0, 26, 3)])
def test_c2_name_parse_round_trip(cell):
    assert parse_cell(cell_name(cell), 26, 26) == cell


@pytest.mark.parametrize("bad", ["", "B", "2", "B2C", "?", "1 2 3", None, 3.5, (1,), (1, 2, 3), ("a", "b"), (True, 1)])
def test_c2_unreadable_cells_raise_illegal_move(bad):
    with pytest.raises(IllegalMoveError) as info:
        parse_cell(bad, 4, 4)
    assert info.value.rule == "C-2"


@pytest.mark.parametrize("bad", ["E1", "A5", "0 1", "5 5", (4, 0), (0, -1), (-1, 0)])
def test_c1_off_board_cells_raise_illegal_move(bad):
    with pytest.raises(IllegalMoveError) as info:
        parse_cell(bad, 4, 4)
    assert info.value.rule == "C-1"
    assert isinstance(info.value, ValueError)
