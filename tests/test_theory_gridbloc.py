"""GridBloc is a draw with perfect play (docs/rules/gridbloc.md, "Perfect play: a draw").

The proof: both rounds start from the same position (GB-7) with the roles
swapped, so each player can hold the other to the value V of one round.
Checked here on small boards: the exact solver's game value is a draw; the
round value it reports is the one a plain minimax over the engine's own
moves finds (GB-3..GB-6); the generic search, which knows nothing of rounds,
finds the draw too; and round two, after any round one, is worth V again.
"""

from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path

import pytest

from gridwidgets import GridBloc
from gridwidgets.analysis import solve
from gridwidgets.core.notation import cell_name

#: small boards the brute-force checks can afford (a fraction of a second each)
TINY = [
    {"size": 2},
    {"size": 2, "start": "A1"},
    {"size": 3, "holes": ["A1", "C1", "C3"]},
    {"size": 3, "holes": ["B1", "B3"]},
]
#: boards the game's own solver settles in about a second or less
SMALL = [
    *TINY,
    {"size": 3},
    {"size": 3, "holes": ["A1", "C3"]},
    {"size": 3, "walls": ["A1|B1", "B2|C2", "B2|B3"]},
    {"size": 4, "walls": ["A2|A3", "B2|B3", "C2|C3", "D2|D3"]},
]


def board_id(board: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in board.items())


def round_value(game: GridBloc) -> int:
    """The points the runner of the current round scores from here under
    perfect play (runner maximises, blocker minimises), by plain minimax over
    the engine's ``legal_moves``, ``play`` and ``undo``, memoised on the round's
    state: the walls, the runner's tile, the tiles scored, who acts."""
    rnd, runner = game.round, game.runner_player
    memo: dict = {}

    def value() -> int:
        if game.is_over or game.round != rnd:  # GB-6: the round is over
            return 0
        key = (tuple(game.walls), game.runner, tuple(game.scored), game.to_act)
        if key not in memo:
            running = game.to_act == "run"
            results = []
            for move in game.legal_moves():
                before = game.round_scores[rnd - 1][runner]
                game.play(move)
                gained = game.round_scores[rnd - 1][runner] - before
                results.append(gained + value())
                game.undo()
            memo[key] = max(results) if running else min(results)
        return memo[key]

    return value()


class GenericGridBloc(GridBloc):
    """The same rules; ``solve`` uses its generic negamax search for a subclass
    (it plays the whole two-round game through ``play``/``undo``)."""


@pytest.mark.parametrize("board", SMALL, ids=board_id)
def test_the_solver_finds_a_draw(board):
    game = GridBloc(preset="blank", **board)
    sol = solve(game, progress=False, time_limit=60)
    assert sol.value == 0 and sol.winner is None
    # every first step keeps the draw or loses it; none wins for the runner (player 1)
    assert all(v <= 0 for v in sol.move_values.values())
    assert sol.details["round2_points"] >= 1  # a board where the runner can score at all


@pytest.mark.parametrize("board", TINY, ids=board_id)
def test_the_round_value_is_the_plain_minimax_one(board):
    v = round_value(GridBloc(preset="blank", **board))
    assert solve(GridBloc(preset="blank", **board), progress=False).details["round2_points"] == v


@pytest.mark.parametrize("board", TINY, ids=board_id)
def test_the_generic_search_over_both_rounds_finds_a_draw(board):
    sol = solve(GenericGridBloc(preset="blank", **board), progress=False, time_limit=60)
    assert sol.value == 0 and sol.winner is None


@cache
def v_of_holed_3x3() -> int:
    return round_value(GridBloc(preset="blank", size=3, holes=["B1", "B3"]))


@pytest.mark.parametrize("seed", range(6))
def test_round_two_is_worth_v_whatever_happened_in_round_one(seed):
    # GB-7: round two starts from the original walls with nothing scored, so its
    # value is V again; player 1 scored x in round one, and the runner of round
    # two (player 0) wins, draws or loses as V is above, equal to or below x
    board = {"size": 3, "holes": ["B1", "B3"]}
    v = v_of_holed_3x3()
    rng = random.Random(seed)
    game = GridBloc(preset="blank", **board)
    while game.round == 1:
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    x = game.round_scores[0][1]
    assert game.runner_player == 0 and game.scored == [game.start] and game.walls == game.original_walls
    assert round_value(game) == v
    sol = solve(game, progress=False)
    assert sol.player == 0 and sol.value == (v > x) - (v < x)


def test_both_players_following_the_solver_end_level_at_v():
    # each side playing a move that keeps its best result: a draw, V points each
    board = {"size": 3, "holes": ["A1", "C3"]}
    game = GridBloc(preset="blank", **board)
    v = solve(game, progress=False).details["round2_points"]
    while not game.is_over:
        game.play(solve(game, progress=False).best_moves[0])
    assert game.winners == (0, 1) and game.scores == (v, v)


def page_table() -> dict[str, tuple[str, int]]:
    """The rules page's table of solved boards: the constructor's arguments -> (start, V)."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "rules" / "gridbloc.md").read_text(encoding="utf-8")
    rows = {}
    for line in text.split("## Perfect play: a draw", 1)[1].splitlines():
        m = re.match(r"\| `(.*)` \| ([A-Z]\d) \| (\d+) \| draw", line)
        if m:
            rows[m.group(1).replace("\\|", "|")] = (m.group(2), int(m.group(3)))
    return rows


def page_key(board: dict) -> str:
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in board.items())


@pytest.mark.parametrize("board", SMALL, ids=board_id)
def test_the_rules_page_table(board):
    start, v = page_table()[page_key(board)]
    game = GridBloc(preset="blank", **board)
    assert cell_name(game.start) == start
    assert solve(game, progress=False, time_limit=60).details["round2_points"] == v
    if board in TINY:
        assert round_value(game) == v


def test_the_rules_page_table_lists_every_small_board():
    assert {page_key(b) for b in SMALL} <= set(page_table())
    assert len(page_table()) == len(SMALL) + 1  # and the 4x4 that takes a minute, not re-solved here
