"""Pairing as pure functions (gridwidgets.rooms.pairing): lists in, games out, no room."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def _fresh_matching_exists(tokens: list[str], met: set[frozenset[str]]) -> bool:
    """By brute force: can ``tokens`` (even count) all be paired with nobody meeting again?"""
    if not tokens:
        return True
    a, rest = tokens[0], tokens[1:]
    return any(frozenset((a, b)) not in met and _fresh_matching_exists([t for t in rest if t != b], met)
               for b in rest)


def test_round_robin_with_nobody_late_is_the_circle_method_round_by_round():
    for n in (2, 4, 5, 6, 9):
        tokens = [f"s{k}" for k in range(n)]
        played: list[list[str]] = []
        size = n + n % 2
        for r in range(1, size):
            games = round_groups("round-robin", tokens, 2, r, played, {})
            assert games == circle(tokens, r - 1), "the schedule of the circle method, pair for pair, colours too"
            played += games
        assert len(_met([played])) == size * (size - 1) // 2  # everyone met everyone once


def test_a_late_joiner_of_an_odd_class_takes_the_agents_place_in_the_circle():
    tokens = ["a", "b", "c"]
    played = round_groups("round-robin", tokens, 2, 1, [], {})
    late = round_groups("round-robin", [*tokens, "d"], 2, 2, played, {})
    assert late == [["d" if t == AGENT else t for t in g] for g in circle(tokens, 1)]


def test_a_late_joiner_of_an_even_class_causes_no_rematch():
    tokens = ["a", "b", "c", "d"]
    played = round_groups("round-robin", tokens, 2, 1, [], {})  # a-d, b-c
    games = round_groups("round-robin", [*tokens, "e"], 2, 2, played, {})
    assert not {frozenset(g) for g in games} & _met([played])
    assert sorted(t for g in games for t in g) == sorted(["a", "b", "c", "d", "e", AGENT])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=2, max_size=9), st.integers(2, 8))
def test_round_robin_never_repeats_an_opponent_while_a_fresh_one_is_possible(join_rounds, rounds):
    """Students join at random rounds: each round everyone seated plays once, and
    nobody meets an opponent again while a pairing of fresh opponents exists."""
    arrivals = sorted(range(len(join_rounds)), key=lambda k: join_rounds[k])  # arrival order
    played: list[list[str]] = []
    for r in range(1, rounds + 1):
        tokens = [f"s{k}" for k in arrivals if join_rounds[k] <= r]
        if not tokens:
            continue
        games = round_groups("round-robin", tokens, 2, r, played, {})
        seated = sorted(t for g in games for t in g if t != AGENT)
        assert seated == sorted(tokens), "everyone seated plays once a round"
        assert all(len(g) == 2 for g in games) and sum(AGENT in g for g in games) == len(tokens) % 2
        met = _met([played])
        ring = tokens + [AGENT] * (len(tokens) % 2)
        if _fresh_matching_exists(ring, met):
            assert not {frozenset(g) for g in games} & met, f"a rematch in round {r} while a fresh pairing existed"
        played += games
