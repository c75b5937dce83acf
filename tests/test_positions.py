"""Positions as text (issue 28): ``g.position()`` writes a game's whole state
in one line, ``Game.from_position(text)`` starts a game there (undo and reset
stop at it); a bad position is refused in bounded time, naming the rule.
So far: Gridlock (GL-1..GL-3); the other games follow."""

from __future__ import annotations

import random

import pytest

import gridwidgets as gw


def random_game(seed: int, rows: int = 4, cols: int = 4) -> gw.Gridlock:
    rnd = random.Random(seed)
    g = gw.Gridlock(rows=rows, cols=cols)
    for _ in range(rnd.randrange(0, rows * cols)):
        if g.is_over:
            break
        g.play(rnd.choice(g.legal_moves()))
    return g


@pytest.mark.parametrize("seed", range(40))
def test_gl_a_position_reads_back_to_the_same_state_and_the_same_future(seed):
    g = random_game(seed, rows=3 + seed % 4, cols=2 + seed % 5)
    text = g.position()
    h = gw.Gridlock.from_position(text)
    assert h.position() == text and not h.history
    assert [str(m) for m in h.legal_moves()] == [str(m) for m in g.legal_moves()]
    assert h.current_player == g.current_player and h.is_over == g.is_over and h.winners == g.winners
    assert h.position_key() == g.position_key()


def test_gl_the_text_board_of_print_reads_as_the_position():
    g = random_game(7)
    assert gw.Gridlock.from_position(str(g)).position() == g.position()


def test_gl_undo_and_reset_stop_at_the_position():
    start = gw.Gridlock.from_position("gridlock 4x4 ..../.X../..../...O X")
    with pytest.raises(IndexError):
        start.undo()
    start.play("A4")
    start.reset()
    assert start.position() == "gridlock 4x4 ..../.X../..../...O X"


@pytest.mark.parametrize(("text", "rule"), [
    ("4x4 ..../.X../..../.... X", "GL-2"),       # X to move after X's marker: not alternation
    ("4x4 ..../.XO./..../.... X", "GL-3"),       # an X beside an O
    ("4x4 ..../.Z../..../.... O", "GL-1"),       # no such mark
    ("4x4 ..../.X../.... O", "GL-1"),            # three rows of a 4x4
    ("27x4 " + "/".join(["...."] * 27) + " X", "GL-1"),
    ("4x4 ..../.X../..../.... Q", "GL-2"),
    ("4 by 4", "ROWSxCOLS"),
    ("gridbloc 5x5 whatever", "not this game's id"),
])
def test_gl_a_bad_position_is_refused_naming_what_is_wrong(text, rule):
    with pytest.raises(ValueError, match=rule) as err:
        gw.Gridlock.from_position(text)
    assert len(str(err.value)) < 200


@pytest.mark.parametrize("text", ["x" * 10**6, "|" * 19_000, "\n".join(["|" + " |" * 3000] * 6), 12, None])
def test_input_of_any_size_and_shape_is_refused_in_bounded_time(text):
    with pytest.raises(ValueError):
        gw.Gridlock.from_position(text)


def test_a_game_without_a_notation_says_so():
    with pytest.raises(NotImplementedError, match="no position notation"):
        gw.GridBloc().position()
