"""Property tests over random GridMaster4 games (hypothesis): the GM rules'
invariants hold in every position reached."""

import random

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from gridwidgets import GridMaster4


@st.composite
def random_games(draw):
    options = {
        "size": draw(st.integers(1, 9)),
        "players": draw(st.integers(1, 4)),
        "tiles": draw(st.sampled_from([3, 10, 100])),
        "deactivate": draw(st.sampled_from(["own", "all"])),
    }
    if options["players"] == 1:  # the puzzle must be able to place every tile (GM-1, GM-8)
        options["tiles"] = min(options["tiles"], options["size"] ** 2)
    return options, draw(st.integers(0, 2**32 - 1))


def play_out(options, seed, check):
    """Play a random game, calling ``check(before, move, after)`` on every move."""
    g = GridMaster4(**options)
    rng = random.Random(seed)
    while not g.is_over:
        before = g.copy()
        move = g.legal_moves()[rng.randrange(len(g.legal_moves()))]
        g.play(move)
        check(before, move, g)
    return g


def _per_player_tiles(g, p):
    return sorted(int(t) for t in g.tiles[g.board == p])


@given(random_games())
def test_tile_numbers_are_1_to_score_without_gaps_and_scores_match_the_board(args):
    def check(before, move, g):
        for p in range(len(g.players)):
            assert _per_player_tiles(g, p) == list(range(1, g.scores[p] + 1))
            assert g.remaining[p] == g.tiles_per_player - g.scores[p]

    play_out(*args, check)


@given(random_games())
def test_an_inactive_tile_never_becomes_active_again(args):
    def check(before, move, g):
        was_inactive = (before.board >= 0) & ~before.active
        assert not (g.active & was_inactive).any()
        # the new tile is active (GM-5) and empty cells are never active
        assert g.active[move.cell]
        assert not (g.active & (g.board < 0)).any()

    play_out(*args, check)


@given(random_games())
def test_blocked_players_never_move_and_stay_blocked(args):
    def check(before, move, g):
        mover = before.current_player
        assert not before.blocked[mover]
        assert all(g.blocked[p] for p in range(len(g.players)) if before.blocked[p])

    play_out(*args, check)


@given(random_games())
def test_free_placement_debts_add_up(args):
    """GM-6/GM-7: each block owes one free placement to every player still in
    play; each free turn pays one back. (A block never cascades: the next
    player is owed one, so at most one player is blocked between two moves.)"""

    def check(before, move, g):
        newly = [p for p in range(len(g.players)) if g.blocked[p] and not before.blocked[p]]
        assert len(newly) <= 1
        in_play = sum(not b for b in g.blocked)
        paid = 1 if before.turn_kind() == "free" else 0
        assert sum(g.owed) == sum(before.owed) - paid + len(newly) * in_play
        assert all(o == 0 for o, b in zip(g.owed, g.blocked, strict=True) if b)

    play_out(*args, check)


@given(random_games())
def test_legal_moves_are_open_cells_and_play_accepts_exactly_them(args):
    options, seed = args
    g = GridMaster4(**options)
    rng = random.Random(seed)
    while not g.is_over:
        legal = {m.cell for m in g.legal_moves()}
        assert all(g.board[c] == -1 for c in legal)
        for r in range(g.size):
            for c in range(g.size):
                assert g.is_legal((r, c)) == ((r, c) in legal)
        g.play(sorted(legal)[rng.randrange(len(legal))])


@given(random_games())
def test_undo_all_and_replay_reproduce_every_state(args):
    options, seed = args
    g = play_out(options, seed, lambda *a: None)
    h = GridMaster4(**options)
    for m in g.history:
        h.play(str(m))
    assert h == g and np.array_equal(h.active, g.active) and h.owed == g.owed and h.blocked == g.blocked
    assert GridMaster4.from_json(g.to_json()) == g
    for _ in range(len(g.history)):
        g.undo()
    fresh = GridMaster4(**options)
    assert np.array_equal(g.board, fresh.board) and g.owed == fresh.owed and g.blocked == fresh.blocked
    assert g.turn_kind() == "opening"


@given(random_games())
def test_game_ends_with_winners_by_gm8(args):
    options, seed = args
    g = play_out(options, seed, lambda *a: None)
    best = max(g.scores)
    if best == g.tiles_per_player:
        assert len(g.winners) == 1 and g.scores[g.winners[0]] == best
    else:
        assert all(g.blocked) or (g.board >= 0).all()
        assert g.winners == tuple(p for p, s in enumerate(g.scores) if s == best)


def test_rollout_matches_play():
    """The fast path of simulate plays the same games as legal_moves() + play()."""
    for seed in range(20):
        a = GridMaster4(size=8, players=3)
        a._rollout(random.Random(seed))
        b = GridMaster4(size=8, players=3)
        rng = random.Random(seed)
        while not b.is_over:
            legal = b.legal_moves()
            b.play(legal[rng.randrange(len(legal))])
        assert np.array_equal(a.tiles, b.tiles) and a.winners == b.winners
