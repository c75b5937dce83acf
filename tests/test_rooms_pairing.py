"""Pairing as pure functions (gridwidgets.rooms.pairing): lists in, games out, no room."""

from __future__ import annotations

import itertools

import pytest

from gridwidgets.rooms.pairing import AGENT, circle, fresh_pairs, groups, orient, round_groups, swiss


def _met(rounds: list[list[list[str]]]) -> set[frozenset[str]]:
    return {frozenset(g) for games in rounds for g in games}


@pytest.mark.parametrize("n", [2, 4, 5, 8, 9])
def test_circle_meets_everyone_once_over_n_minus_one_rounds(n):
    tokens = [f"s{k}" for k in range(n)]
    size = n + n % 2
    rounds = [circle(tokens, k) for k in range(size - 1)]
    pairs = [frozenset(p) for games in rounds for p in games]
    assert len(pairs) == len(set(pairs)) == size * (size - 1) // 2  # no rematch, every pair once
    for games in rounds:  # everyone plays once a round
        assert sorted(t for p in games for t in p) == sorted(tokens + ([AGENT] if n % 2 else []))


def test_groups_fill_the_last_game_with_the_agent():
    assert groups(["a", "b", "c"], 2) == [["a", "b"], ["c", AGENT]]
    assert groups(["a", "b", "c", "d", "e"], 4) == [["a", "b", "c", "d"], ["e", AGENT, AGENT, AGENT]]
    assert groups([], 2) == []


def test_orient_swaps_colours_when_a_pair_meets_again():
    assert orient(["a", "b"], []) == ["a", "b"]
    assert orient(["a", "b"], [["a", "b"]]) == ["b", "a"]
    assert orient(["a", AGENT], [["a", AGENT]]) == ["a", AGENT]  # one student: as given


def test_swiss_avoids_rematches_while_a_fresh_pairing_exists():
    tokens = ["a", "b", "c", "d"]
    played = [["a", "b"], ["c", "d"]]
    points = {"a": 1.0, "b": 0.0, "c": 1.0, "d": 0.0}
    games = swiss(tokens, 2, points, played)
    assert {frozenset(g) for g in games} == {frozenset("ac"), frozenset("bd")}  # leaders meet, no rematch


def test_swiss_gives_the_agent_to_the_lowest_placed_who_has_not_had_it():
    points = {"a": 2.0, "b": 1.0, "c": 0.0}
    assert [AGENT in g for g in swiss(["a", "b", "c"], 2, points, [])] == [False, True]
    assert ["c", AGENT] in swiss(["a", "b", "c"], 2, points, [])
    assert ["b", AGENT] in swiss(["a", "b", "c"], 2, points, [["c", AGENT]])


def test_fresh_pairs_none_when_every_pairing_repeats():
    met = {"a": {"b", "c"}, "b": {"a"}, "c": {"a"}, "d": set()}
    assert fresh_pairs(["a", "b", "c", "d"], met) == [["a", "d"], ["b", "c"]]
    assert fresh_pairs(["a", "b"], {"a": {"b"}, "b": {"a"}}) is None


def test_round_groups_by_pairing_and_refuses_an_unknown_one():
    tokens = ["a", "b", "c"]
    assert round_groups("agent", tokens, 2, 1, [], {}) == [["a", AGENT], ["b", AGENT], ["c", AGENT]]
    assert round_groups("arrival", tokens, 2, 1, [], {}) == [["a", "b"], ["c", AGENT]]
    rr = [round_groups("round-robin", tokens, 2, r, [], {}) for r in (1, 2, 3)]
    assert len(_met(rr)) == 6  # 3 students and the agent: every pair once over three rounds
    assert all(len(list(itertools.chain(*g))) == 4 for g in rr)
    with pytest.raises(ValueError, match="pairing must be one of"):
        round_groups("knockout", tokens, 2, 1, [], {})
