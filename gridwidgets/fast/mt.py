"""Python's own random stream, compiled: the Mersenne Twister of ``random.Random``.

The compiled kernels draw exactly the numbers a ``random.Random(seed)`` of
the Python engines draws, so a seed gives the same game on either path.
The generator state is an ``int64`` array of 625 entries: the 624 words of
MT19937 (each below ``2**32``) and the index of the next word.

Sources: M. Matsumoto and T. Nishimura (1998), "Mersenne Twister: a
623-dimensionally equidistributed uniform pseudo-random number generator",
ACM TOMACS 8(1), 3-30 (``init_genrand``, ``init_by_array`` and the
tempering, as in CPython's ``Modules/_randommodule.c``); CPython's
``Lib/random.py`` for ``randrange(n)`` (``_randbelow_with_getrandbits``:
``k = n.bit_length()`` bits, drawn again while the number is ``>= n``),
``shuffle`` and ``random()``.

The work is the C code's, step for step; only how it runs is tuned for
many short games: ``init_genrand(19650218)``, the same for every seed, is
computed once (:data:`_GENRAND`); :func:`reseed` fills a state array in
place; the twist runs in the C code's three loops (no index wraps around);
``randrange``'s bit length is one instruction
(:func:`~gridwidgets.fast.bits.leading_zeros`).
"""

from __future__ import annotations

import random

import numpy as np
from numba import njit

from .bits import leading_zeros

__all__ = ["from_random", "randbelow", "random01", "reseed", "seeded", "shuffle", "to_random", "uint32"]

N = 624
M = 397
MASK = 0xFFFFFFFF


def _init_genrand(s: int) -> np.ndarray:
    """``init_genrand(s)``: the 624 words before ``init_by_array`` mixes a seed in."""
    mt = [s & MASK]
    for i in range(1, N):
        mt.append((1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & MASK)
    return np.array(mt, dtype=np.int64)


#: ``init_genrand(19650218)``, where ``init_by_array`` starts for every seed
_GENRAND = _init_genrand(19650218)


@njit(cache=True)
def seeded(key: np.ndarray) -> np.ndarray:
    """The state of ``random.Random(seed)`` for the 32-bit words ``key`` of
    ``abs(seed)``, least significant first (``[0]`` for 0): ``init_by_array``."""
    mt = np.empty(N + 1, dtype=np.int64)
    reseed(mt, key)
    return mt


@njit(cache=True)
def reseed(mt: np.ndarray, key: np.ndarray) -> None:
    """:func:`seeded` into the state array ``mt`` (625 entries), in place."""
    mt[:N] = _GENRAND
    i, j = 1, 0
    klen = len(key)
    for _ in range(max(N, klen)):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & MASK
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= klen:
            j = 0
    for _ in range(N - 1):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & MASK
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = 0x80000000
    mt[N] = N


@njit(cache=True, inline="always")
def _twisted(mt: np.ndarray, kk: int, nxt: int, far: int) -> None:
    y = (mt[kk] & 0x80000000) | (mt[nxt] & 0x7FFFFFFF)
    mt[kk] = mt[far] ^ (y >> 1) ^ (-(y & 1) & 0x9908B0DF)


@njit(cache=True)
def _twist(mt: np.ndarray) -> None:
    """The next 624 words (``genrand_uint32``'s refill), in the C code's three loops."""
    for kk in range(N - M):
        _twisted(mt, kk, kk + 1, kk + M)
    for kk in range(N - M, N - 1):
        _twisted(mt, kk, kk + 1, kk + M - N)
    _twisted(mt, N - 1, 0, M - 1)
    mt[N] = 0


@njit(cache=True, inline="always")
def uint32(mt: np.ndarray) -> int:
    """The next 32-bit word (``genrand_uint32``)."""
    if mt[N] >= N:
        _twist(mt)
    y = mt[mt[N]]
    mt[N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & MASK


@njit(cache=True, inline="always")
def randbelow(mt: np.ndarray, n: int) -> int:
    """``random.Random.randrange(n)`` for ``1 <= n < 2**32``."""
    shift = 32 - (64 - leading_zeros(np.int64(n)))  # 32 less the bit length of n
    r = uint32(mt) >> shift
    while r >= n:
        r = uint32(mt) >> shift
    return r


@njit(cache=True)
def random01(mt: np.ndarray) -> float:
    """``random.Random.random()``: a float in ``[0, 1)`` from 53 bits."""
    a = uint32(mt) >> 5
    b = uint32(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def shuffle(mt: np.ndarray, a: np.ndarray, start: int, count: int) -> None:
    """``random.Random.shuffle`` of ``a[start:start + count]`` in place."""
    for i in range(count - 1, 0, -1):
        j = randbelow(mt, i + 1)
        t = a[start + i]
        a[start + i] = a[start + j]
        a[start + j] = t


def key_of(seed: int) -> np.ndarray:
    """The 32-bit words of ``abs(seed)``, least significant first: how
    ``random.seed`` reads an int."""
    n = abs(int(seed))
    words = []
    while True:
        words.append(n & MASK)
        n >>= 32
        if not n:
            break
    return np.array(words, dtype=np.int64)


def from_random(rng: random.Random) -> np.ndarray:
    """The state of ``rng`` (any ``random.Random``) as a kernel's state array."""
    _, internal, _ = rng.getstate()
    return np.array(internal, dtype=np.int64)


def to_random(mt: np.ndarray, rng: random.Random) -> None:
    """Set ``rng`` to the kernel's state ``mt``: it goes on with the same numbers."""
    version, _, gauss = rng.getstate()
    rng.setstate((version, tuple(int(x) for x in mt), gauss))
