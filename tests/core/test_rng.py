"""Counter-based streams (balance.core.rng): compiled streams equal their Python twins, draws are uniform, and every
(seed, game, purpose) has its own stream."""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from scipy import stats

from balance.core import rng
from balance.core.rng import (STREAM_WORDS, PyStream, below_nb, flat_below_nb, flat_init_nb, flat_pair_nb, mix64_nb,
                         next_u64_nb, py_mix64, py_stream_key, stream_init_nb, stream_key_nb)

SEEDS = [0, 1, 2, 12345, 2**31 - 1, 2**32, 2**53 + 1, 2**63 - 1, 2**64 - 1]
GAMES = [0, 1, 7, 99_999, 10**12]
PURPOSES = [rng.PURPOSE_DICE, rng.PURPOSE_SHUFFLE, rng.PURPOSE_STRATEGY, rng.PURPOSE_STRATEGY + 3]


@njit(cache=True)
def draws_nb(seed, game, purpose, n, count):
    """`count` draws of below(n) from the (seed, game, purpose) stream, compiled."""
    st = np.zeros(2, np.uint64)
    stream_init_nb(st, seed, game, purpose)
    out = np.empty(count, np.int64)
    for i in range(count):
        out[i] = below_nb(st, n)
    return out


@njit(cache=True)
def words_nb(seed, game, purpose, count):
    st = np.zeros(2, np.uint64)
    stream_init_nb(st, seed, game, purpose)
    out = np.empty(count, np.uint64)
    for i in range(count):
        out[i] = next_u64_nb(st)
    return out


@njit(cache=True)
def flat_draws_nb(seed, game, purpose, n, count, off):
    """Same as draws_nb through a stream stored at s[off:off+STREAM_WORDS] of an int64 state array."""
    s = np.full(off + STREAM_WORDS + 2, -7, np.int64)
    flat_init_nb(s, off, seed, game, purpose)
    out = np.empty(count, np.int64)
    for i in range(count):
        out[i] = flat_below_nb(s, off, n)
    return out, s


@njit(cache=True)
def first_draws_nb(seed, purpose, n, n_games):
    """The first below(n) draw of games 0..n_games-1: what each game's first die sees."""
    out = np.empty(n_games, np.int64)
    st = np.zeros(2, np.uint64)
    for g in range(n_games):
        stream_init_nb(st, seed, g, purpose)
        out[g] = below_nb(st, n)
    return out


def py_draws(seed, game, purpose, n, count):
    st = PyStream(seed, game, purpose)
    return [st.below(n) for _ in range(count)]


@pytest.mark.parametrize("seed", SEEDS)
def test_compiled_stream_equals_the_python_twin(seed):
    for game in GAMES:
        for purpose in PURPOSES:
            key = int(stream_key_nb(np.uint64(seed), game, purpose))
            assert key == py_stream_key(seed, game, purpose)
            st = PyStream(seed, game, purpose)
            assert [int(w) for w in words_nb(np.uint64(seed), game, purpose, 20)] == [st.next_u64() for _ in range(20)]
            for n in (1, 2, 6, 12, 1000, 2**31):
                got = draws_nb(np.uint64(seed), game, purpose, n, 50)
                assert got.tolist() == py_draws(seed, game, purpose, n, 50)
                assert got.min() >= 0 and got.max() < n


@pytest.mark.parametrize("seed", SEEDS)
def test_flat_stream_equals_the_python_twin(seed):
    for game in GAMES:
        for purpose in PURPOSES:
            got, s = flat_draws_nb(np.uint64(seed), game, purpose, 6, 40, 1)
            assert got.tolist() == py_draws(seed, game, purpose, 6, 40)
            # STREAM_WORDS words at off: the key (bits of the uint64 key), the counter of draws consumed and the
            # next draw's word; nothing else touched.
            assert int(s[1]) & rng.MASK64 == py_stream_key(seed, game, purpose)
            assert s[2] == 40 and s[0] == -7
            assert s[1 + STREAM_WORDS] == -7 and s[2 + STREAM_WORDS] == -7


def test_flat_stream_seek_continues_the_stream():
    """The reference engine points a flat stream at (key, counter) between decisions; the word computed ahead must
    be the one for that counter, not for where the stream was before."""
    s = np.zeros(STREAM_WORDS, np.int64)
    py = PyStream(7, 3, 2)
    flat_init_nb(s, 0, np.uint64(7), 3, 2)
    for step in range(60):
        if step % 7 == 3:       # jump ahead, as if draws had been consumed elsewhere
            for _ in range(step % 5):
                py.below(6)
            rng.flat_seek_nb(s, 0, s[0], py.counter)
        assert flat_below_nb(s, 0, 6) == py.below(6)
        assert s[1] == py.counter


def test_mixer_equals_the_python_twin_on_random_words():
    words = np.random.default_rng(0).integers(0, 2**64, size=2000, dtype=np.uint64)
    assert [int(mix64_nb(w)) for w in words] == [py_mix64(int(w)) for w in words]
    assert int(mix64_nb(np.uint64(0))) == 0     # SplitMix64's finaliser fixes zero


def test_stream_is_splitmix64_with_random_access():
    key = py_stream_key(9, 3, 1)
    st = PyStream(9, 3, 1)
    words = [st.next_u64() for _ in range(5)]
    assert words == [py_mix64(key + (c + 1) * 0x9E3779B97F4A7C15) for c in range(5)]


@pytest.mark.parametrize("n", [2, 6, 12])
def test_below_is_uniform_within_one_stream(n):
    # Chi-square goodness of fit over 600,000 draws, tolerance p > 1e-4 (fixed seed, so the outcome is fixed too).
    # Power: one face 0.005 too likely gives a noncentrality 600000 * 0.005**2 * n / (1 - 1/n) >= 60, far above
    # the critical values at 1e-4 (15.1 for n = 2, 25.7 for n = 6, 37.3 for n = 12).
    x = draws_nb(np.uint64(2024), 5, rng.PURPOSE_DICE, n, 600_000)
    counts = np.bincount(x, minlength=n)
    assert counts.size == n
    assert stats.chisquare(counts).pvalue > 1e-4


def test_first_draw_is_uniform_across_games():
    # Every game starts a new stream: the first die of 300,000 consecutive games is itself a fair die.
    x = first_draws_nb(np.uint64(1), rng.PURPOSE_DICE, 6, 300_000)
    assert stats.chisquare(np.bincount(x, minlength=6)).pvalue > 1e-4


def test_successive_draws_are_independent():
    # Pairs (die i, die i+1) of one stream: a 6 x 6 contingency table shows no dependence.
    x = draws_nb(np.uint64(77), 0, rng.PURPOSE_DICE, 6, 360_001)
    table = np.zeros((6, 6), np.int64)
    np.add.at(table, (x[:-1], x[1:]), 1)
    assert stats.chi2_contingency(table).pvalue > 1e-4


@njit(cache=True)
def flat_pairs_nb(seed, game, purpose, n1, n2, count):
    """`count` pair draws (both dice of a roll) through a flat stream, as rows (first, second)."""
    s = np.zeros(STREAM_WORDS, np.int64)
    flat_init_nb(s, 0, seed, game, purpose)
    out = np.empty((count, 2), np.int64)
    for i in range(count):
        a, b = flat_pair_nb(s, 0, n1, n2)
        out[i, 0] = a
        out[i, 1] = b
    return out, s[1]


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_pair_draws_equal_the_python_twin(seed):
    for n1, n2 in ((6, 6), (5, 4), (12, 11)):
        got, counter = flat_pairs_nb(np.uint64(seed), 3, rng.PURPOSE_DICE, n1, n2, 50)
        py = PyStream(seed, 3, rng.PURPOSE_DICE)
        assert got.tolist() == [list(py.pair(n1, n2)) for _ in range(50)]
        assert counter == py.counter == 50       # one word for both
        assert got[:, 0].max() < n1 and got[:, 1].max() < n2 and got.min() >= 0


def test_the_two_dice_of_one_word_are_fair_and_independent():
    # Both halves of 360,000 words as (die 1, die 2): a 6 x 6 table, each margin uniform and no dependence.
    x, _ = flat_pairs_nb(np.uint64(5), 0, rng.PURPOSE_DICE, 6, 6, 360_000)
    table = np.zeros((6, 6), np.int64)
    np.add.at(table, (x[:, 0], x[:, 1]), 1)
    assert stats.chisquare(table.sum(axis=0)).pvalue > 1e-4
    assert stats.chisquare(table.sum(axis=1)).pvalue > 1e-4
    assert stats.chi2_contingency(table).pvalue > 1e-4
    assert stats.chisquare(table.ravel()).pvalue > 1e-4


@pytest.mark.parametrize("n", [4, 5])
def test_shuffles_make_every_order_equally_likely(n):
    # The game's Fisher-Yates (two positions a word, then a last odd one) over 200 * n! games' shuffle streams:
    # every one of the n! orders about equally often.
    from itertools import permutations

    orders = {p: i for i, p in enumerate(permutations(range(n)))}
    counts = np.zeros(len(orders), np.int64)
    for game in range(200 * len(orders)):
        counts[orders[tuple(rng.py_shuffled(range(n), PyStream(4, game, rng.PURPOSE_SHUFFLE)))]] += 1
    assert stats.chisquare(counts).pvalue > 1e-4


def test_each_seed_game_and_purpose_has_its_own_stream():
    keys = {py_stream_key(seed, game, purpose)
            for seed in (0, 1, 2**63 - 1) for game in range(2000) for purpose in range(6)}
    assert len(keys) == 3 * 2000 * 6
    # Neighbouring streams share no prefix: the first 8 dice differ for (almost) every pair we look at.
    base = draws_nb(np.uint64(1), 0, rng.PURPOSE_DICE, 6, 8)
    others = [draws_nb(np.uint64(1), 1, rng.PURPOSE_DICE, 6, 8), draws_nb(np.uint64(2), 0, rng.PURPOSE_DICE, 6, 8),
              draws_nb(np.uint64(1), 0, rng.PURPOSE_SHUFFLE, 6, 8),
              draws_nb(np.uint64(1), 0, rng.PURPOSE_STRATEGY, 6, 8)]
    for o in others:
        assert not np.array_equal(base, o)


def test_dice_of_different_purposes_agree_only_by_chance():
    # The dice and shuffle streams of one game are unrelated: their first draws match about 1/6 of the time.
    dice = first_draws_nb(np.uint64(3), rng.PURPOSE_DICE, 6, 60_000)
    shuffle = first_draws_nb(np.uint64(3), rng.PURPOSE_SHUFFLE, 6, 60_000)
    match = (dice == shuffle).mean()
    assert abs(match - 1 / 6) < 5 * np.sqrt((1 / 6) * (5 / 6) / 60_000)
