"""Positions as text (issue 28): ``g.position()`` writes a game's whole state
in one line, ``Game.from_position(text)`` starts a game there (undo and reset
stop at it); a bad position is refused in bounded time, naming the rule.
So far: Gridlock (GL-1..GL-3) and GridMaster4 (GM-1..GM-8); the other games follow."""

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


# -- GridMaster4 (GM-1..GM-8) -----------------------------------------------------------------------
def random_gm(seed: int) -> gw.GridMaster4:
    rnd = random.Random(seed)
    size, players, tiles = rnd.choice([5, 6, 8]), rnd.randint(1, 4), rnd.choice([3, 5, 8, 20])
    if players == 1:
        tiles = min(tiles, size * size)
    g = gw.GridMaster4(size=size, players=players, tiles=tiles, deactivate=rnd.choice(["own", "all"]))
    for _ in range(rnd.randrange(0, 60)):
        if g.is_over:
            break
        g.play(rnd.choice(g.legal_moves()))
    return g


@pytest.mark.parametrize("seed", range(60))
def test_gm_a_position_reads_back_to_the_same_state_and_the_same_future(seed):
    g = random_gm(seed)
    text = g.position()
    h = gw.GridMaster4.from_position(text)
    assert h.position() == text and not h.history
    assert [str(m) for m in h.legal_moves()] == [str(m) for m in g.legal_moves()]
    assert (h.current_player, h.is_over, h.winners, h.scores, h.blocked, h.owed) == (
        g.current_player, g.is_over, g.winners, g.scores, g.blocked, g.owed)
    if not g.is_over:  # the same game from here: the same next position after the same move
        move = g.legal_moves()[0]
        g.play(move)
        h.play(str(move))
        assert h.position() == g.position()


EMPTY6 = "/".join([".,.,.,.,.,."] * 6)


@pytest.mark.parametrize(("text", "rule"), [
    ("6 2p 5t own " + EMPTY6 + " O - 0,0 extra", "GM-1"),
    ("6 5p 5t own " + EMPTY6 + " O - 0,0", "GM-1"),                       # five players
    ("6 2p 5t own " + EMPTY6.replace(".", "Z1", 1) + " O - 0,0", "GM-1"),   # no player Z
    ("6 2p 5t own " + EMPTY6.replace(".", "O9", 1) + " O - 0,0", "GM-1"),   # beyond the tiles
    ("6 2p 5t own " + EMPTY6.replace(".", "O2", 1) + " M - 0,0", "GM-3"),   # a tile 2 without a tile 1
    ("6 2p 5t own " + EMPTY6.replace(".", "O1", 1).replace(".", "o2", 1) + " M - 0,0", "GM-5"),
    ("6 2p 5t own " + EMPTY6 + " M M 0,1", "GM-6"),                       # the blocked player to move
    ("6 2p 5t own " + EMPTY6 + " O - 0", "GM-7"),
    ("6 2p 5t own " + EMPTY6 + " Q - 0,0", "GM-4"),
    ("3 1p 9t own " + "/".join(",".join(f"O{r * 3 + c + 1}" for c in range(3)) for r in range(3)) + " O - 0", "GM-8"),
    ("6 2p 5t sometimes " + EMPTY6 + " O - 0,0", "GM-5"),
])
def test_gm_a_bad_position_is_refused_naming_the_rule(text, rule):
    with pytest.raises(ValueError, match=rule) as err:
        gw.GridMaster4.from_position(text)
    assert len(str(err.value)) < 260
