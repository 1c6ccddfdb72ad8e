"""Counter-based random streams keyed by (seed, game index, purpose).

Every random number in a simulation is a pure function of four integers: the run seed, the game's global index,
the stream's purpose (dice, shuffles, one stream per seat for strategy choices) and a counter that the stream
advances. Results therefore do not depend on thread count, chunk size or machine, and two variants of a scenario
see the same dice for as long as they roll the same number of dice.

The mixer is SplitMix64's finaliser (a bijection on 64-bit words); a stream at ``counter`` returns
``mix(key + (counter + 1) * GOLDEN)``, which is SplitMix64 seeded at ``key`` with random access.

A draw is usually one word: ``below(n)`` scales its top 32 bits to [0, n) (multiply-shift). ``pair(n1, n2)`` makes
two draws from one word, the top half scaled to [0, n1) and the bottom half to [0, n2): both dice of a roll, two
steps of a shuffle. SplitMix64's output is uniform over all 64 bits, so the halves are independent; the counter
counts words.

A stream is a ``uint64[2]`` array ``[key, counter]`` so that jitted code can advance it in place. The functions
here run compiled (``*_nb``) and also have plain-Python twins (``py_*``) that the reference engine uses; a test
checks that both give the same numbers.
"""
from __future__ import annotations

import numpy as np

from .jit import rules_jit, rules_jit_inline

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_ONE = np.uint64(1)
_TWO = np.uint64(2)
_LOW32 = np.uint64(0xFFFFFFFF)

# Stream purposes. A seat's strategy stream is PURPOSE_STRATEGY + seat.
PURPOSE_DICE = 0
PURPOSE_SHUFFLE = 1
PURPOSE_STRATEGY = 2

MASK64 = (1 << 64) - 1


@rules_jit_inline
def mix64_nb(z):
    """SplitMix64 finaliser: a bijective 64-bit mixer."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@rules_jit_inline
def word_nb(key, counter):
    """The word of the stream with this key (uint64) at `counter`: SplitMix64 with random access."""
    return mix64_nb(key + np.uint64(counter) * GOLDEN)


@rules_jit_inline
def word32_nb(key, counter):
    """Top 32 bits of the stream word at `counter` (uint64); below_nb's value is (word32 * n) >> 32."""
    return word_nb(key, counter) >> _S32


@rules_jit_inline
def scale_nb(word, n):
    """Uniform integer in [0, n) from a 32-bit word (multiply-shift)."""
    return np.int64((word * np.uint64(n)) >> _S32)


@rules_jit
def stream_key_nb(seed, game, purpose):
    """Key of the stream for (seed, game index, purpose)."""
    k = mix64_nb(np.uint64(seed) + GOLDEN)
    k = mix64_nb(k ^ (np.uint64(game) + GOLDEN))
    return mix64_nb(k ^ (np.uint64(purpose) * GOLDEN + _ONE))


@rules_jit
def stream_init_nb(stream, seed, game, purpose):
    """Point ``stream`` (uint64[2]) at the start of the (seed, game, purpose) stream."""
    stream[0] = stream_key_nb(seed, game, purpose)
    stream[1] = np.uint64(0)


@rules_jit
def next_u64_nb(stream):
    """Next 64-bit word of the stream; advances its counter."""
    stream[1] += _ONE
    return word_nb(stream[0], stream[1])


@rules_jit
def below_nb(stream, n):
    """Uniform integer in [0, n) (multiply-shift on the top 32 bits; bias below 3e-9 for n <= 12)."""
    return scale_nb(next_u64_nb(stream) >> _S32, n)


# ---------------------------------------------------------------------------------------------------------------
# Plain-Python twins, for the reference engine.

def py_mix64(z: int) -> int:
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def py_stream_key(seed: int, game: int, purpose: int) -> int:
    g = 0x9E3779B97F4A7C15
    k = py_mix64(seed + g)
    k = py_mix64(k ^ ((game + g) & MASK64))
    return py_mix64(k ^ ((purpose * g + 1) & MASK64))


class PyStream:
    """A readable random stream, number for number the same as the compiled one."""

    def __init__(self, seed: int, game: int, purpose: int):
        self.key = py_stream_key(seed, game, purpose)
        self.counter = 0

    def next_u64(self) -> int:
        self.counter += 1
        return py_mix64(self.key + self.counter * 0x9E3779B97F4A7C15)

    def below(self, n: int) -> int:
        return ((self.next_u64() >> 32) * n) >> 32

    def pair(self, n1: int, n2: int) -> tuple[int, int]:
        word = self.next_u64()
        return ((word >> 32) * n1) >> 32, ((word & 0xFFFFFFFF) * n2) >> 32


# ---------------------------------------------------------------------------------------------------------------
# Streams stored inside a flat int64 state array, for kernels that pass one array around: STREAM_WORDS words at
# `off`: the key, the counter (words consumed) and the word for the next counter, computed one draw ahead. A draw
# then waits only for a load and a multiply; the three dependent multiplies of the mixer run while the rules use the
# draw. (The dice decide everything in a turn, so that wait was on the critical path.)
# int64 <-> uint64 casts reinterpret the bits, so these are the same streams as above.

STREAM_WORDS = 3


@rules_jit
def flat_seek_nb(s, off, key, counter):
    """Point the stream at s[off:off+STREAM_WORDS] at `counter` (words consumed) of the stream with this key."""
    o = np.uint64(off)          # unsigned indices: no negative-index wraparound (see games/*/layout.py)
    s[o] = key
    s[o + _ONE] = counter
    s[o + _TWO] = np.int64(word_nb(np.uint64(key), counter + 1))


@rules_jit
def flat_init_nb(s, off, seed, game, purpose):
    """Point the stream at s[off:off+STREAM_WORDS] at the start of the (seed, game, purpose) stream."""
    flat_seek_nb(s, off, np.int64(stream_key_nb(seed, game, purpose)), 0)


@rules_jit_inline
def flat_below_nb(s, off, n):
    """Uniform integer in [0, n) from the stream at s[off:]; same numbers as :func:`below_nb`."""
    return scale_nb(flat_word_nb(s, off) >> _S32, n)


@rules_jit_inline
def flat_word_nb(s, off):
    """Next 64-bit word of the stream at s[off:] (uint64); advances it."""
    o = np.uint64(off)
    word = np.uint64(s[o + _TWO])
    c = s[o + _ONE] + 1
    s[o + _ONE] = c
    s[o + _TWO] = np.int64(word_nb(np.uint64(s[o]), c + 1))
    return word


@rules_jit_inline
def flat_pair_nb(s, off, n1, n2):
    """Two uniform integers in [0, n1) and [0, n2) from the two halves of one word of the stream at s[off:]; same
    numbers as :meth:`PyStream.pair`."""
    word = flat_word_nb(s, off)
    return scale_nb(word >> _S32, n1), scale_nb(word & _LOW32, n2)


# ---------------------------------------------------------------------------------------------------------------
# Shuffles: every game's shuffles are this Fisher-Yates, from the back, position i swapping with a uniform position
# 0..i; the two halves of one stream word serve two positions (``flat_pair_nb`` / ``PyStream.pair``) and a last odd
# position takes a word of its own. The compiled one shuffles s[base:base+n] in place; the plain one returns a list.

@rules_jit_inline
def flat_swap_nb(s, a, b):
    t = s[a]
    s[a] = s[b]
    s[b] = t


@rules_jit_inline
def flat_shuffle_nb(s, base, n, sh):
    """Fisher-Yates shuffle of s[base:base+n] from the stream at `sh`: the draws of :func:`flat_pair_nb` and
    :func:`flat_below_nb`, with the stream's counter and next word kept in locals and stored once at the end (the
    swaps store into the same array, so the compiler could not keep them in registers: each draw waited for the
    last one's stores to be read back)."""
    o = np.uint64(sh)
    key = np.uint64(s[o])
    c = s[o + _ONE]
    word = np.uint64(s[o + _TWO])      # the word for counter c + 1, computed one draw ahead
    i = n - 1
    while i >= 2:
        w = word
        c += 1
        word = word_nb(key, c + 1)
        j1, j2 = scale_nb(w >> _S32, i + 1), scale_nb(w & _LOW32, i)
        flat_swap_nb(s, base + np.uint64(i), base + np.uint64(j1))
        flat_swap_nb(s, base + np.uint64(i - 1), base + np.uint64(j2))
        i -= 2
    if i == 1:
        w = word
        c += 1
        word = word_nb(key, c + 1)
        flat_swap_nb(s, base + np.uint64(1), base + np.uint64(scale_nb(w >> _S32, 2)))
    s[o + _ONE] = c
    s[o + _TWO] = np.int64(word)


def py_shuffled(items, stream: PyStream) -> list:
    """The same shuffle in plain Python: a shuffled copy of `items`."""
    out = list(items)
    i = len(out) - 1
    while i >= 2:
        j1, j2 = stream.pair(i + 1, i)
        out[i], out[j1] = out[j1], out[i]
        out[i - 1], out[j2] = out[j2], out[i - 1]
        i -= 2
    if i == 1:
        j = stream.below(2)
        out[1], out[j] = out[j], out[1]
    return out
