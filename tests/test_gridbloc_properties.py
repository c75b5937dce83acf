"""Property tests over random GridBloc games (hypothesis)."""

import random

from hypothesis import given
from hypothesis import strategies as st

from gridwidgets import GridBloc


@st.composite
def games(draw):
    size = draw(st.integers(2, 7))
    n = size * size
    cells = [(r, c) for r in range(size) for c in range(size)]
    holes = draw(st.lists(st.sampled_from(cells), max_size=max(0, n // 5), unique=True))
    free = [c for c in cells if c not in holes]
    start = draw(st.sampled_from(free))
    edges = [((r, c), (r, c + 1)) for r in range(size) for c in range(size - 1)]
    edges += [((r, c), (r + 1, c)) for r in range(size - 1) for c in range(size)]
    walls = draw(st.lists(st.sampled_from(edges), max_size=len(edges) // 3, unique=True))
    return {"size": size, "preset": "blank", "start": start, "holes": holes, "walls": walls}, draw(
        st.integers(0, 2**32 - 1)
    )


class Before:
    """What a check needs of the position before a move (a full copy per move is slow)."""

    def __init__(self, g):
        self.round, self.to_act, self.runner, self.start = g.round, g.to_act, g.runner, g.start
        self.walls = {str(w) for w in g.walls}
        self.unscored = g.unscored_reachable()


def play_out(options, seed, check):
    g = GridBloc(**options)
    rng = random.Random(seed)
    while g.phase != "over":
        before = Before(g)
        moves = g.legal_moves()
        g.play(moves[rng.randrange(len(moves))])
        check(before, g)
    return g


@given(games())
def test_score_is_the_distinct_tiles_visited_minus_the_start(args):
    visited = {1: set(), 2: set()}

    def check(before, g):
        if before.to_act == "run":
            visited[before.round].add(g.runner if g.round == before.round else _last_step(g))
        for rnd in (1, 2):
            runner = 1 if rnd == 1 else 0
            tiles = visited[rnd] - {before.start}
            assert g.round_scores[rnd - 1][runner] == len(tiles)

    def _last_step(g):
        return g.history[-1].cell

    play_out(*args, check)


@given(games())
def test_walls_never_disappear_within_a_round(args):
    def check(before, g):
        if g.round == before.round:
            assert before.walls <= {str(w) for w in g.walls}
        else:
            assert {str(w) for w in g.walls} == {str(w) for w in g.original_walls}

    play_out(*args, check)


@given(games())
def test_every_game_ends_within_the_number_of_edges(args):
    options, seed = args
    g = play_out(options, seed, lambda *a: None)
    size = options["size"]
    edges = 2 * size * (size - 1)
    # per round at most one wall per edge, and one step before each wall and one after the last
    assert len(g.history) <= 2 * (2 * edges + 1)
    assert g.phase == "over" and g.winners


@given(games())
def test_the_runner_only_ever_stands_on_tiles_and_steps_one_tile(args):
    def check(before, g):
        if before.to_act == "run":
            (r0, c0), (r1, c1) = before.runner, g.history[-1].cell
            assert max(abs(r1 - r0), abs(c1 - c0)) == 1
            assert (r1, c1) not in g.holes

    play_out(*args, check)


@given(games())
def test_round_ends_exactly_when_nothing_unscored_is_reachable(args):
    def check(before, g):
        if g.phase == "over" or g.round != before.round:
            assert before.unscored >= 1  # it was going on
        else:
            assert g.unscored_reachable() >= 1

    play_out(*args, check)


@given(games())
def test_replay_and_save_load(args):
    options, seed = args
    g = play_out(options, seed, lambda *a: None)
    assert GridBloc.from_json(g.to_json()) == g
    while g.history:
        g.undo()
    fresh = GridBloc(**options)  # (a sealed start ends both rounds before any move)
    assert (g.round, g.runner, g.scores, g.phase) == (fresh.round, fresh.runner, fresh.scores, fresh.phase)
    assert {str(w) for w in g.walls} == {str(w) for w in fresh.walls}
