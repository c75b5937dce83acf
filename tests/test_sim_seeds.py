"""``game_seeds``: numpy's ``SeedSequence`` spawn, computed vectorised, gives
exactly the children's words (the seeds every ``simulate`` game is played with)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridwidgets.sim import _spawned_words, game_seeds


def _numpys(n, entropy):
    return [int(c.generate_state(1)[0]) for c in np.random.SeedSequence(entropy).spawn(n)]


@settings(max_examples=300, deadline=None)
@given(entropy=st.one_of(st.integers(0, 2**32), st.integers(0, 2**128), st.integers(0, 2**300)),
       n=st.integers(0, 40))
def test_game_seeds_are_the_spawned_childrens_words(entropy, n):
    seeds = game_seeds(n, entropy)
    assert seeds == _numpys(n, entropy)
    assert all(type(s) is int for s in seeds)


@pytest.mark.parametrize("entropy", [0, 1, 2**32 - 1, 2**32, 2**64 + 3, 2**127 + 11, 2**128 - 1])
def test_game_seeds_at_word_boundaries_and_far_children(entropy):
    """Entropy of one to five words (padded to the pool of four, or longer
    than it), and children far along the spawn (a large ``n``)."""
    seeds = game_seeds(5000, entropy)
    ss = np.random.SeedSequence(entropy)
    for i in (0, 1, 2, 255, 256, 4095, 4999):
        assert seeds[i] == int(np.random.SeedSequence(ss.entropy, spawn_key=(i,)).generate_state(1)[0])
    assert seeds[:50] == _numpys(50, entropy)


def test_game_seeds_of_fresh_entropy_and_sequences():
    """``seed=None`` draws 128 bits (a different run each call); a sequence
    of ints, which numpy also takes, spawns through numpy itself."""
    assert game_seeds(20, None) != game_seeds(20, None)
    assert game_seeds(12, [3, 2**40, 0]) == _numpys(12, [3, 2**40, 0])
    with pytest.raises(ValueError):
        game_seeds(3, -1)
    with pytest.raises(ValueError):
        _spawned_words(1, 2**32 + 1)
