"""Gridlock is Snort on a grid graph (docs/rules/gridlock.md, "Gridlock is Snort").

The page proves, with the mirror strategy (a half turn of the board), that O
wins an ``m x n`` board exactly when m and n are both even (GL-1..GL-4). The
proof is checked here two ways that do not use each other: by the exact
solver, and by playing the mirror strategy against every line of the
opponent, checking that its answer is always legal (GL-3). The page's table
of solver results is held against a fresh solve.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gridwidgets import Gridlock
from gridwidgets.analysis import solve
from gridwidgets.core.notation import cell_name

PAGE = Path(__file__).resolve().parents[1] / "docs" / "rules" / "gridlock.md"

#: boards the tests solve again (5x6, 6x5 and 6x6 take seconds to minutes)
SOLVED = [(r, c) for r in range(1, 7) for c in range(1, 7) if (r, c) not in {(5, 6), (6, 5), (6, 6)}]
#: boards on which the mirror strategy is played against every line of the opponent
MIRRORED = [(r, c) for r in range(1, 6) for c in range(1, 6)]


def predicted_winner(rows: int, cols: int) -> int:
    """The theorem: O (1) wins exactly when both sides are even, else X (0)."""
    return 1 if rows % 2 == 0 and cols % 2 == 0 else 0


def image(rows: int, cols: int, cell: tuple[int, int]) -> tuple[int, int]:
    """The cell's image under the half turn about the board's centre."""
    return rows - 1 - cell[0], cols - 1 - cell[1]


def opening(rows: int, cols: int) -> tuple[int, int] | None:
    """X's opening in the proof: the centre (both sides odd), one of the two
    middle cells of the middle line (one side odd), none (both even: O mirrors)."""
    if rows % 2 and cols % 2:
        return (rows - 1) // 2, (cols - 1) // 2
    if rows % 2:
        return (rows - 1) // 2, cols // 2 - 1
    if cols % 2:
        return rows // 2 - 1, (cols - 1) // 2
    return None


def mirror_always_answers(game: Gridlock, seen: set[bytes]) -> bool:
    """The opponent of the mirroring player is to move: True if every legal
    move of theirs, in every line, can be answered by its image (GL-3)."""
    key = game.board.tobytes()
    if key in seen:
        return True
    seen.add(key)
    for move in game.legal_moves():
        game.play(move)
        reply = image(game.rows, game.cols, move.cell)
        ok = game.is_legal(reply)
        if ok:
            game.play(reply)
            ok = mirror_always_answers(game, seen)
            game.undo()
        game.undo()
        if not ok:
            return False
    return True


def page_table() -> dict[tuple[int, int], tuple[str, int, int]]:
    """The page's table: (rows, cols) -> (winner's mark, winning first moves, first moves)."""
    text = PAGE.read_text(encoding="utf-8")
    table: dict[tuple[int, int], tuple[str, int, int]] = {}
    for line in text.splitlines():
        m = re.match(r"\| \*\*(\d)\*\* \|(.*)\|$", line)
        if not m:
            continue
        rows = int(m.group(1))
        for cols, entry in enumerate(m.group(2).split("|"), start=1):
            entry = entry.strip()
            if entry:
                mark, won, total = re.fullmatch(r"([XO]) (\d+)/(\d+)", entry).groups()
                table[rows, cols] = (mark, int(won), int(total))
    return table


def test_the_page_has_the_whole_table():
    table = page_table()
    assert sorted(table) == [(r, c) for r in range(1, 7) for c in range(r, 7)]


@pytest.mark.parametrize(("rows", "cols"), sorted({(min(r, c), max(r, c)) for r in range(1, 7) for c in range(1, 7)}))
def test_the_page_table_agrees_with_the_theorem(rows, cols):
    mark, won, total = page_table()[rows, cols]
    assert mark == "XO"[predicted_winner(rows, cols)]
    assert total == rows * cols  # every cell is a legal first move (GL-3, empty board)
    assert (won == 0) == (mark == "O")


@pytest.mark.parametrize(("rows", "cols"), SOLVED)
def test_the_solver_agrees_with_the_theorem_and_the_page(rows, cols):
    sol = solve(Gridlock(rows, cols), progress=False, time_limit=60)
    assert sol.winner == predicted_winner(rows, cols)
    mark, won, total = page_table()[min(rows, cols), max(rows, cols)]  # a board and its transpose
    assert mark == "XO"[sol.winner]
    assert len(sol.move_values) == total
    assert sum(v > 0 for v in sol.move_values.values()) == won
    first = opening(rows, cols)
    if first is not None:  # the proof's opening is one of the solver's winning first moves
        assert cell_name(first) in sol.best_moves


@pytest.mark.parametrize(("rows", "cols"), MIRRORED)
def test_the_mirror_strategy_always_has_a_legal_answer(rows, cols):
    game = Gridlock(rows, cols)
    first = opening(rows, cols)
    if first is not None:  # X opens, then mirrors O
        game.play(first)
    assert mirror_always_answers(game, set())


@pytest.mark.parametrize(("rows", "cols"), [(r, c) for r, c in MIRRORED if (r + c) % 2])
def test_without_the_opening_the_mirror_breaks_on_boards_with_one_odd_side(rows, cols):
    # the two middle cells of the middle line share a side and are each other's image:
    # X plays one, O's mirror answer is next to it (GL-3), which is why X opens there itself
    game = Gridlock(rows, cols)
    assert not mirror_always_answers(game, set())
    u = opening(rows, cols)
    w = image(rows, cols, u)
    assert abs(u[0] - w[0]) + abs(u[1] - w[1]) == 1


@pytest.mark.parametrize("rows", range(1, 27))
def test_the_distance_lemma_on_every_board_gl1_allows(rows):
    # the cells equal to, or next to, their image: the centre (both odd), the two
    # middle cells of the middle line (m + n odd), none (both even)
    for cols in range(1, 27):
        check_distance_lemma(rows, cols)


def check_distance_lemma(rows: int, cols: int) -> None:
    fixed, touching = [], []
    for r in range(rows):
        for c in range(cols):
            ir, ic = image(rows, cols, (r, c))
            d = abs(r - ir) + abs(c - ic)
            assert d % 2 == (rows + cols) % 2
            if d == 0:
                fixed.append((r, c))
            elif d == 1:
                touching.append((r, c))
    first = opening(rows, cols)
    if rows % 2 and cols % 2:
        assert fixed == [first] and touching == []
    elif (rows + cols) % 2:
        assert fixed == [] and sorted(touching) == sorted([first, image(rows, cols, first)])
    else:
        assert fixed == [] and touching == [] and first is None
