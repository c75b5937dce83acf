"""Positions as text (issue 28): ``g.position()`` writes a game's whole state
in one line, ``Game.from_position(text)`` starts a game there (undo and reset
stop at it); a bad position is refused in bounded time, naming the rule.
Gridlock (GL-1..GL-3), GridMaster4 (GM-1..GM-8), Block Four (BF-1..BF-12)."""

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


class Unwritten(gw.Gridlock):
    """A game whose notation is the base class's: none."""

    _write_position = gw.Game._write_position
    _read_position = gw.Game.__dict__["_read_position"]


def test_a_game_without_a_notation_says_so():
    with pytest.raises(NotImplementedError, match="no position notation"):
        Unwritten().position()
    with pytest.raises(NotImplementedError, match="no position notation"):
        Unwritten.from_position("4x4 ..../..../..../.... X")


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


# -- Block Four (BF-1..BF-12) -----------------------------------------------------------------------
def random_bf(seed: int) -> gw.BlockFour:
    """A random Block Four game, sometimes stopped with one bid in and hidden (BF-5)."""
    rnd = random.Random(seed)
    g = gw.BlockFour(seed=seed)
    for _ in range(rnd.randrange(0, 150)):
        if g.is_over:
            break
        movers = g.players_to_move
        g.play(rnd.choice(g.legal_moves(movers[0])), player=movers[0])
        if len(movers) == 2 and rnd.random() < 0.05:
            break  # X's bid in, O's to come: hidden
    return g


def play_on(g: gw.Game, rnd: random.Random, n: int) -> None:
    """Play ``n`` more random legal moves (each player of a simultaneous node in turn)."""
    for _ in range(n):
        if g.is_over:
            return
        p = g.players_to_move[0]
        g.play(rnd.choice(g.legal_moves(p)), player=p)


def same_future(g: gw.Game, h: gw.Game, seed: int) -> None:
    """``h`` (read from ``g``'s position) has ``g``'s state and future."""
    assert h.position() == g.position() and not h.history
    for p in range(len(g.players)):
        assert [str(m) for m in h.legal_moves(p)] == [str(m) for m in g.legal_moves(p)]
    assert (h.players_to_move, h.current_player, h.is_over, h.winners, h.returns(), h.scores) == (
        g.players_to_move, g.current_player, g.is_over, g.winners, g.returns(), g.scores)
    play_on(g, random.Random(seed), 400)
    play_on(h, random.Random(seed), 400)
    assert h.position() == g.position() and (h.winners, h.returns()) == (g.winners, g.returns())
    assert [str(m) for m in h.history] == [str(m) for m in g.history[len(g.history) - len(h.history):]]


@pytest.mark.parametrize("seed", range(120))
def test_bf_a_position_reads_back_to_the_same_state_and_the_same_future(seed):
    g = random_bf(seed)
    text = g.position()
    if g.pending:  # a hidden bid is never written (BF-5): the position is the node with no bid in
        g.undo()
        assert g.position() == text
    h = gw.BlockFour.from_position(text)
    assert h.phase == g.phase and (h.hands, h.tables, h.turn, h.stall) == (g.hands, g.tables, g.turn, g.stall)
    assert h.placements_left == g.placements_left
    same_future(g, h, seed)


def test_bf_the_position_of_a_new_game_is_the_constructor_s():
    g = gw.BlockFour(x_table=("L", "T"))
    assert g.position() == "blockfour " + "/".join(["........."] * 9) + " X=IOZ/LT O=ILOTZ/- turn=1 stall=0 bid"
    h = gw.BlockFour.from_position(g.position())
    assert h == g and h.x_table == ("L", "T") and h.start_position is None


def test_bf_a_placement_phase_keeps_the_bids_and_the_placements_made():
    g = gw.BlockFour(x_table=("L", "T"))
    g.play("IO", player=0)
    g.play("IL", player=1)  # one match: O places L twice, then X places O twice (BF-6)
    g.play(g.legal_moves()[0])
    assert g.position().endswith(" X=Z/ILOT O=OTZ/IL turn=1 stall=0 place:IO,IL:+")
    h = gw.BlockFour.from_position(g.position())
    assert h.to_place == (1, "L") and h.placements_left == [(1, "L"), (0, "O"), (0, "O")]
    assert [d["status"] for d in h.turn_placements] == ["done", "now", "next", "next"]


EMPTY9 = "/".join(["........."] * 9)
START = " X=IOZ/LT O=ILOTZ/- turn=1 stall=0 bid"


@pytest.mark.parametrize(("text", "rule"), [
    (EMPTY9 + START + " extra", "BF-1"),
    (EMPTY9[:-1] + START, "BF-1"),                                        # a row of 8
    ("Q" + EMPTY9[1:] + START, "BF-1"),                                   # no such mark
    (EMPTY9 + " X=IOZ/LTT O=ILOTZ/- turn=1 stall=0 bid", "BF-2"),         # a card twice
    (EMPTY9 + " X=IOZ/LT O=ILOTQ/- turn=1 stall=0 bid", "BF-2"),          # no card Q
    (EMPTY9 + " X=IOZLT O=ILOTZ/- turn=1 stall=0 bid", "BF-10"),          # no table
    (EMPTY9 + " X=ILOTZ/- O=IOZ/LT turn=1 stall=0 bid", "BF-10"),         # O with 3 in turn 1
    (EMPTY9 + " X=IOZ/LT O=ILOTZ/- turn=0 stall=0 bid", "BF-10"),
    (EMPTY9 + " X=IOZ/LT O=ILOTZ/- turn=3 stall=11 bid", "BF-11"),        # beyond 10
    (EMPTY9 + " X=IOZ/LT O=ILOTZ/- turn=3 stall=3 bid", "BF-11"),         # more stalls than turns ended
    (EMPTY9 + " X=IOZ/LT O=ILOTZ/- turn=3 stall=0 over", "BF-9"),         # over with no reason
    (EMPTY9 + " X=IOZ/LT O=ILOTZ/- turn=1 stall=0 sleep", "BF-6"),
    ("X.X....../.X" + EMPTY9[12:] + " X=IOZ/LT O=ILOTZ/- turn=3 stall=0 bid", "BF-8"),  # B1 a gap of 1
    ("X" + EMPTY9[1:] + START, "BF-6"),                                    # turn 1 with a mark
    (EMPTY9 + " X=Z/ILOT O=OTZ/IL turn=1 stall=0 place:IZ,IL", "BF-10"),  # Z is in the hand
    (EMPTY9 + " X=Z/ILOT O=OTZ/IL turn=1 stall=0 place:IO,IL:++++", "BF-6"),
    (EMPTY9 + " X=Z/ILOT O=OTZ/IL turn=1 stall=0 place:IO,IL:-", "BF-7"),  # L fits: not skipped
    (EMPTY9 + " X=Z/ILOT O=OTZ/IL turn=1 stall=0 place:I", "BF-12"),
    ("gridlock 4x4 ..../..../..../.... X", "not this game's id"),
    ("\n".join(["  1 | . . . | . . . | . . . |"] * 9), "hands, tables"),
])
def test_bf_a_bad_position_is_refused_naming_the_rule(text, rule):
    with pytest.raises(ValueError, match=rule) as err:
        gw.BlockFour.from_position(text)
    assert len(str(err.value)) < 260


def test_bf_a_position_won_by_control_is_over_with_its_winner():
    rows = ["XXXXXXXXX"] * 2 + ["XXXXXXXXX"] + ["XXXXXX..."] * 3 + ["........."] * 3  # five fields of X
    text = "/".join(rows) + " X=Z/ILOT O=OTZ/IL turn=3 stall=0 "
    with pytest.raises(ValueError, match=r"X controls 5 fields.*BF-9"):
        gw.BlockFour.from_position(text + "bid")
    with pytest.raises(ValueError, match="BF-11"):
        gw.BlockFour.from_position(EMPTY9 + " X=IOZ/LT O=ILOTZ/- turn=13 stall=10 bid")
    g = gw.BlockFour.from_position(text + "over")
    assert g.is_over and g.winners == (0,) and g.legal_moves() == []


# -- GridBloc (GB-1..GB-10) -------------------------------------------------------------------------
def random_gb(seed: int) -> gw.GridBloc:
    rnd = random.Random(seed)
    g = gw.GridBloc(size=rnd.choice([3, 4, 5, 9]), setup=rnd.random() < 0.2,
                    holes=["A1", "B3"] if rnd.random() < 0.3 else [])
    play_on(g, rnd, rnd.randrange(0, 90))
    return g


@pytest.mark.parametrize("seed", range(120))
def test_gb_a_position_reads_back_to_the_same_state_and_the_same_future(seed):
    g = random_gb(seed)
    h = gw.GridBloc.from_position(g.position())
    assert (h.phase, h.round, h.round_scores, h.runner, h.start, h.scored, h.holes) == (
        g.phase, g.round, g.round_scores, g.runner, g.start, g.scored, g.holes)
    assert (set(map(str, h.walls)), h.original_walls, set(h.placed_walls)) == (
        set(map(str, g.walls)), g.original_walls, set(g.placed_walls))
    same_future(g, h, seed)


def test_gb_the_position_of_a_new_game_is_the_constructor_s():
    g = gw.GridBloc(size=3)
    assert g.position() == ("gridbloc 3 .../.+./... start=B2 runner=B2 walls=- placed=- round=1 points=0,0 run")
    h = gw.GridBloc.from_position(g.position())
    assert h == g and h.start_position is None
    assert gw.GridBloc.from_position(gw.GridBloc().position()) == gw.GridBloc()


def test_gb_round_two_keeps_round_one_s_points_and_walls_go_back_to_the_originals():
    text = ("gridbloc 4 ..../.+../.++./.... start=B2 runner=C3 walls=A1|B1 placed=C1|D1,A2|A3 "
            "round=2 points=5,2 block")
    g = gw.GridBloc.from_position(text)
    assert (g.round, g.round_scores, g.scores, g.current_player, g.to_act) == (2, ((0, 5), (2, 0)), (2, 5), 1, "block")
    assert g.start_position == text and g.position() == text


GB3 = "3 .../.+./... start=B2 runner=B2 walls=- placed=- round=1 points=0,0 "


@pytest.mark.parametrize(("text", "rule"), [
    (GB3 + "run extra", "GB-1"),
    ("27 " + GB3[2:] + "run", "GB-1"),
    (GB3.replace(".../.+./...", ".../.+./..") + "run", "GB-1"),
    (GB3.replace(".../.+./...", ".../.+./..Q") + "run", "GB-1"),
    (GB3.replace("runner=B2", "runner=C3") + "run", "GB-5"),              # the runner on a tile not visited
    (GB3.replace("start=B2", "start=Z9") + "run", "GB-1"),               # off the board
    (GB3.replace("walls=-", "walls=A1|C1") + "run", "GB-2"),              # not neighbours
    (GB3.replace("walls=-", "walls=A1|B1,B1|A1") + "run", "GB-2"),        # twice
    (GB3.replace("walls=-", "walls=A1") + "run", "GB-8"),
    (GB3.replace(".../.+./...", "#../.+./...").replace("walls=-", "walls=A1|B1") + "run", "GB-1"),
    (GB3.replace("points=0,0", "points=2,0") + "run", "GB-5"),            # points not the tiles scored
    (GB3.replace(".../.+./...", "++./.+./...").replace("runner=B2", "runner=A1").replace("0,0", "2,0") + "run", "GB-4"),
    (GB3.replace("round=1", "round=3") + "run", "GB-7"),
    (GB3 + "over", "GB-7"),
    (GB3.replace("round=1", "round=2") + "over", "GB-6"),                 # the runner is free
    (GB3.replace("walls=-", "walls=A1|A2,B1|B2,C1|C2,A2|B2,B2|C2,A3|B3,B3|C3,A2|A3,B2|B3,C2|C3") + "run", "GB-6"),
    (GB3.replace("placed=-", "placed=A1|B1") + "setup", "GB-10"),
    (GB3.replace("round=1", "turn=1") + "run", "GB-8"),
    (GB3 + "jump", "GB-4"),
    ("blockfour " + GB3 + "run", "not this game's id"),
])
def test_gb_a_bad_position_is_refused_naming_the_rule(text, rule):
    with pytest.raises(ValueError, match=rule) as err:
        gw.GridBloc.from_position(text)
    assert len(str(err.value)) < 260


# -- text boards (print(g)): read where the board holds the whole state ----------------------------
@pytest.mark.parametrize(("cls", "needs"), [
    (gw.GridMaster4, "blocked players"),
    (gw.BlockFour, "hands, tables"),
    (gw.GridBloc, "which are original"),
])
def test_a_text_board_that_is_not_the_whole_state_is_refused_saying_what_else_is_needed(cls, needs):
    with pytest.raises(ValueError, match=needs) as err:
        cls.from_position(str(cls()))
    assert "position()" in str(err.value)


@pytest.mark.parametrize("cls", [gw.Gridlock, gw.GridMaster4, gw.BlockFour, gw.GridBloc])
@pytest.mark.parametrize("text", ["x" * 10**6, "|" * 19_000, "\n".join(["|" + " |" * 3000] * 6),
                                  "/".join(["." * 3000] * 6), ",".join(["A1|B1"] * 3000), 12, None])
def test_every_game_refuses_input_of_any_size_and_shape_in_bounded_time(cls, text):
    with pytest.raises(ValueError):
        cls.from_position(text)


# -- save files, copies and undo keep the start position ------------------------------------------
RANDOM_GAMES = {gw.Gridlock: random_game, gw.GridMaster4: random_gm, gw.BlockFour: random_bf, gw.GridBloc: random_gb}


def started_at_a_position(cls: type[gw.Game], seed: int) -> tuple[gw.Game, str]:
    """A game of ``cls`` started at a random position, then played on a little, a step undone."""
    g = RANDOM_GAMES[cls](seed)
    while g.pending:
        g.undo()
    start = g.position()
    h = cls.from_position(start)
    play_on(h, random.Random(seed), 7)
    while h.pending:
        h.undo()
    if h.steps:
        h.undo()
    return h, start


@pytest.mark.parametrize("cls", list(RANDOM_GAMES))
@pytest.mark.parametrize("seed", range(12))
def test_a_save_file_keeps_the_start_position_history_and_future(cls, seed):
    g, start = started_at_a_position(cls, seed)
    if g.start_position is None:  # the constructor's own first position: nothing to keep
        assert start == cls(**g.options()).position()
        return
    assert g.start_position == start and g.to_dict()["start"] == start
    for h in (cls.from_json(g.to_json()), gw.Game.from_json(g.to_json()), g.copy()):
        assert h == g and h.start_position == start
        assert [str(m) for m in h.history] == [str(m) for m in g.history]
        assert [str(m) for m in h.future] == [str(m) for m in g.future]
        assert h.position() == g.position()
        while h.steps:
            h.undo()
        assert h.position() == start
        with pytest.raises(IndexError):
            h.undo()
    g.reset()
    assert g.position() == start and g.start_position == start


def test_a_game_from_another_start_is_not_equal():
    a = gw.Gridlock.from_position("4x4 ..../.X../..../...O X")
    b = gw.Gridlock.from_position("4x4 ..../.X../..../O... X")
    assert a != b and a == a.copy() and a != gw.Gridlock()
    assert gw.Gridlock.from_position(gw.Gridlock().position()) == gw.Gridlock()


def test_an_old_save_file_without_a_start_still_loads():
    g = gw.Gridlock()
    g.play("A1")
    data = g.to_dict()
    assert "start" not in data
    assert gw.Gridlock.from_json(data) == g


@pytest.mark.parametrize(("change", "says"), [
    ({"start": 12}, "'start' must be"),
    ({"start": "gridlock 4x4 ..../.XO./..../.... X"}, "GL-3"),
    ({"start": "gridlock 5x5 ...../.X.../...../...../..... O"}, "not those of the start"),
    ({"start": "gridlock 4x4 ..../.X../..../.... O", "history": ["B2"]}, "cannot be played"),
])
def test_a_bad_start_in_a_save_file_is_refused(change, says):
    g = gw.Gridlock.from_position("4x4 ..../.X../..../.... O")
    data = {**g.to_dict(), **change}
    with pytest.raises(ValueError, match=says):
        gw.Gridlock.from_json(data)


# -- check_game reads every registered game's positions back --------------------------------------
@pytest.mark.parametrize("name", sorted(gw.registry.games()))
def test_check_game_reads_back_the_positions_of_every_registered_game(name):
    from gridwidgets.testing import check_game

    cls = gw.registry.get(name)
    report = check_game(cls, n_games=2, seed=5, widget=False, **cls.small_options)
    assert report.positions_read == report.positions > 0
    assert "positions read back from text" in str(report)


class ForgetfulGridlock(gw.Gridlock):
    """Writes X as the player to move, whoever it is."""

    def _write_position(self) -> str:
        return super()._write_position()[:-1] + "X"


def test_check_game_fails_a_game_whose_position_forgets_something():
    from gridwidgets.testing import GameCheckError, check_game

    with pytest.raises(GameCheckError, match="position"):
        check_game(ForgetfulGridlock, n_games=3, seed=0, widget=False)


# -- the widget, the solver, exercises and simulate take a position -------------------------------
@pytest.mark.parametrize("cls", list(RANDOM_GAMES))
def test_the_widget_shows_and_plays_a_game_started_at_a_position_and_new_goes_back_there(cls):
    g, start = started_at_a_position(cls, 7)
    g = cls.from_position(start)
    w = g.widget()
    try:
        assert w.game is g
        if not g.is_over:
            p = g.players_to_move[0]
            move = g.legal_moves(p)[0]
            assert w.handle_intent({"type": "play", "move": str(move), "version": g.version, "player": p})
            assert g.position() != start or g.pending
        w.handle_intent({"type": "new"})
        assert g.position() == start and not g.history
    finally:
        w.close()


def test_the_solver_solves_a_position_as_the_same_position_reached_by_moves():
    from gridwidgets.analysis import solve

    played = gw.Gridlock(rows=3, cols=4)
    for move in ("A1", "D3", "B2"):
        played.play(move)
    read = gw.Gridlock.from_position(played.position())
    a, b = solve(played, progress=False), solve(read, progress=False)
    assert (a.value, a.player, a.move_values) == (b.value, b.player, b.move_values)
    assert read.position() == played.position() and not read.history  # not changed by the solver


def test_an_exercise_from_a_position_a_teacher_chose():
    from gridwidgets.exercises import Exercise, ExerciseSet, generate

    made = generate("gridlock", kind="win-in", depth=1, n=1, seed=4)[0]
    text = made.start().position()
    ex = Exercise.from_position(text, depth=1)
    assert set(ex.answers) == set(made.answers) and ex.player == made.player
    g = ex.start()
    assert g.position() == text and g.start_position == text and not g.history
    with pytest.raises(IndexError):
        g.undo()
    again = ExerciseSet.from_json(ExerciseSet([ex]).to_json())[0]
    assert again == ex and again.start().start_position == text
    assert Exercise.from_position(gw.Gridlock.from_position(text)) == ex
    with pytest.raises(ValueError, match="no win-in-3 exercise"):
        Exercise.from_position(text, depth=3)
    with pytest.raises(ValueError, match="no exercise for this game"):
        Exercise.from_position(gw.BlockFour(seed=1).position())


def test_game_from_position_finds_the_game_by_its_id():
    for cls, make in RANDOM_GAMES.items():
        g = make(11)
        while g.pending:
            g.undo()
        h = gw.Game.from_position(g.position())
        assert type(h) is cls and h.position() == g.position()
    with pytest.raises(ValueError, match="starts with its game's id"):
        gw.Game.from_position("chess rnbqkbnr/pppppppp")


@pytest.mark.parametrize("cls", list(RANDOM_GAMES))
def test_simulate_starts_every_game_at_a_position(cls, tmp_path):
    from gridwidgets.sim import simulate

    g, start = started_at_a_position(cls, 7)
    g = cls.from_position(start)
    table = simulate(cls, 12, seed=3, progress=False, start=start)
    assert list(table["game"]) == list(range(12))
    assert table.equals(cls.simulate(12, seed=3, progress=False, start=g))  # a game or its text: the same
    assert table.equals(simulate(cls, 12, seed=3, progress=False, start=start, n_jobs=2))
    # each row is a random game from the start: replayed by hand from the start, the same result
    run = simulate(cls, 12, seed=3, progress=False, start=start, parquet=tmp_path / "run", batch=5)
    assert run.read().equals(table)
    for k in (0, 7):
        replay = run.game(k)
        assert replay.start_position == g.start_position
        row = {key: value for key, value in table.iloc[k].items() if key != "game"}
        assert replay.result_row() == row
        while replay.steps:
            replay.undo()
        assert replay.position() == start


def test_simulate_refuses_a_bad_start():
    from gridwidgets.sim import simulate

    with pytest.raises(ValueError, match="GL-3"):
        simulate(gw.Gridlock, 2, progress=False, start="4x4 XO../..../..../.... X")
    with pytest.raises(ValueError, match="not both"):
        simulate(gw.Gridlock, 2, progress=False, start=gw.Gridlock(), rows=3)
    with pytest.raises(ValueError, match="a Gridlock"):
        simulate(gw.Gridlock, 2, progress=False, start=gw.GridBloc())
    with pytest.raises(ValueError, match="no history"):
        played = gw.Gridlock()
        played.play("A1")
        simulate(gw.Gridlock, 2, progress=False, start=played, parquet="unused-folder")


# -- every reader fuzzed (issue 41) ----------------------------------------------------------------
NAMES = sorted(gw.registry.games())


@pytest.mark.parametrize("name", NAMES)
def test_c2_fuzzed_positions_read_back_equal_or_are_refused_in_one_line_naming_the_rule(name):
    """Mutated positions (cut short, fields swapped, Unicode digits, 20,000-digit
    numbers, 1 MB strings, not text): a ValueError of one short line naming a
    rule and quoting at most 60 characters, or a game that reads back equal."""
    from gridwidgets import fuzzing

    report = fuzzing.fuzz_positions(gw.registry.get(name), n=200, seed=5)
    assert report.ok, str(report)
    assert report.refused > 0 and report.accepted > 8, str(report)  # both ways were tried


def _position(name: str) -> str:
    from gridwidgets.fuzzing import sample_positions

    return sample_positions(gw.registry.get(name), 3, 0)[2].position()


def _swapped(text: str, i: int, j: int) -> str:
    parts = text.split(" ")
    parts[i], parts[j] = parts[j], parts[i]
    return " ".join(parts)


@pytest.mark.parametrize(("make", "rule"), [
    (lambda: "gridlock ²x4 O.X. X", "GL-1"),
    (lambda: "gridlock ٤x٤ ..../..../..../.... X", "GL-1"),                 # Arabic-Indic: int() reads them
    (lambda: "gridlock ４x４ ..../..../..../.... X", "GL-1"),                 # fullwidth, the same
    (lambda: "gridlock 4x" + "9" * 19_000 + " . X", "GL-1"),
    (lambda: "gridlock 4x4 ..../..../..../....", "GL-1"),                   # the player to move missing
    (lambda: _position("blockfour").replace("stall=0", "stall=²"), "BF-11"),
    (lambda: _position("blockfour").replace("turn=", "turn=" + "9" * 19_000), "BF-11"),
    (lambda: _position("blockfour").rsplit(" ", 1)[0], "BF-1"),            # the phase missing
    (lambda: _position("gridmaster4").replace("M1", "M¹"), "GM-1"),
    (lambda: _position("gridmaster4").replace("M1", "M" + "1" * 19_000), "GM-1"),
    (lambda: _position("gridmaster4").replace(" 4p ", " ٤p "), "GM-1"),
    (lambda: _swapped(_position("gridmaster4"), 4, 5), "GM-5"),             # the board where own|all goes
    (lambda: _swapped(_position("gridmaster4"), 1, 5), "GM-1"),
    (lambda: _position("gridbloc").replace("points=1", "points=¹"), "GB-5"),
    (lambda: _position("gridbloc").replace("gridbloc 9", "gridbloc ９"), "GB-1"),
    (lambda: "x" * 1_000_000, "C-2"),                                       # refused unread
    (lambda: None, "C-2"),
])
def test_c2_unicode_digits_huge_numbers_and_missing_or_swapped_fields_name_the_rule(make, rule):
    text = make()
    with pytest.raises(ValueError, match=rule) as err:
        gw.Game.from_position(text)
    message = str(err.value)
    assert "\n" not in message and len(message) < 300 and "invalid literal" not in message
    assert "Exceeds the limit" not in message
    if isinstance(text, str):
        assert not any(message[k:k + 61] in text for k in range(len(message) - 60)), message


def test_the_position_fuzzer_finds_a_reader_that_lets_int_read_any_digits(monkeypatch):
    """The fuzzer can fail: a Gridlock reader with ``str.isdigit`` + ``int`` is caught."""
    from gridwidgets import fuzzing
    from gridwidgets.games.gridlock import rules

    monkeypatch.setattr(rules, "count_of", lambda text, digits: int(text) if text.isdigit() else None)
    report = fuzzing.fuzz_positions(gw.registry.get("gridlock"), n=200, seed=5)
    assert report.lost, str(report)
