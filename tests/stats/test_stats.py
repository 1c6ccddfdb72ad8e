"""Known-answer tests of balance.stats.intervals against scipy, numpy and published values."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from balance.stats.intervals import (Z95, diff_interval, exact, histogram_moments, histogram_quantile,
                                     mean_interval, seat_equality_test, wilson)


@pytest.mark.parametrize("n", [1, 2, 7, 50, 1000, 123457])
def test_wilson_matches_scipy_binomtest(n):
    ks = sorted({0, 1, n // 3, n // 2, n - 1, n})
    lo, hi = wilson(np.array(ks), np.full(len(ks), n))
    for k, a, b in zip(ks, lo, hi):
        ci = stats.binomtest(k, n).proportion_ci(method="wilson")
        assert a == pytest.approx(ci.low, abs=1e-12)
        assert b == pytest.approx(ci.high, abs=1e-12)


@pytest.mark.parametrize("n", [1, 7, 50, 1000])
@pytest.mark.parametrize("level", [0.95, 1 - 0.05 / 420])
def test_exact_matches_scipy_clopper_pearson(n, level):
    ks = sorted({0, 1, n // 3, n - 1, n})
    lo, hi = exact(np.array(ks), np.full(len(ks), n), stats.norm.ppf(0.5 + level / 2))
    for k, a, b in zip(ks, lo, hi):
        ci = stats.binomtest(k, n).proportion_ci(confidence_level=level, method="exact")
        assert a == pytest.approx(ci.low, abs=1e-10) and b == pytest.approx(ci.high, abs=1e-10)
    lo, hi = exact(0, 0)
    assert math.isnan(lo) and math.isnan(hi)


def test_wilson_scalar_default_z_and_empty():
    assert Z95 == pytest.approx(1.959964, abs=1e-6)
    lo, hi = wilson(3, 10)
    assert (float(lo), float(hi)) == pytest.approx((0.10779126740630102, 0.6032218525388546), abs=1e-12)
    lo, hi = wilson(0, 0)
    assert math.isnan(lo) and math.isnan(hi)


# Newcombe (1998), Statistics in Medicine 17:873-890, Table II, method 10 (hybrid score, no continuity correction);
# example (c) 6/7 - 2/7 is left out: its published limits could not be double-checked here.
NEWCOMBE = [
    (56, 70, 48, 80, 0.0524, 0.3339),
    (9, 10, 3, 10, 0.1705, 0.8090),
    (5, 56, 0, 29, -0.0381, 0.1926),
    (0, 10, 0, 20, -0.1611, 0.2775),
    (0, 10, 0, 10, -0.2775, 0.2775),
    (10, 10, 0, 20, 0.6791, 1.0000),
    (10, 10, 0, 10, 0.6075, 1.0000),
]


@pytest.mark.parametrize("k1,n1,k2,n2,lo,hi", NEWCOMBE)
def test_newcombe_known_answers(k1, n1, k2, n2, lo, hi):
    d, a, b = diff_interval(k1, n1, k2, n2)
    assert float(d) == pytest.approx(k1 / n1 - k2 / n2)
    assert round(float(a), 4) == lo
    assert round(float(b), 4) == hi


def test_newcombe_vectorised():
    k1, n1, k2, n2, lo, hi = (np.array(c) for c in zip(*NEWCOMBE))
    d, a, b = diff_interval(k1, n1, k2, n2)
    assert np.array_equal(np.round(a, 4), lo) and np.array_equal(np.round(b, 4), hi)
    assert d[0] == pytest.approx(0.2)


def test_seat_equality_hand_example():
    # expected 20 wins each: chi2 = (10^2 + 0 + 10^2) / 20 = 10; with 2 dof the survival function is exp(-x/2)
    res = seat_equality_test([30, 20, 10], [100, 100, 100])
    assert res.chi2 == pytest.approx(10.0)
    assert res.dof == 2
    assert res.p_value == pytest.approx(math.exp(-5.0), rel=1e-12)
    ref = stats.chisquare([30, 20, 10])
    assert (res.chi2, res.p_value) == pytest.approx((ref.statistic, ref.pvalue), rel=1e-12)


def test_seat_equality_degenerate():
    assert math.isnan(seat_equality_test([0, 0, 0], [5, 5, 5]).p_value)
    assert seat_equality_test([4, 4, 4, 4], [9, 9, 9, 9]).p_value == pytest.approx(1.0)


@pytest.mark.parametrize("seed,n", [(0, 2), (1, 17), (2, 1000), (3, 250_000)])
def test_mean_interval_matches_scipy_t(seed, n):
    x = np.random.default_rng(seed).integers(0, 400, size=n)
    mean, lo, hi = mean_interval(x.size, int(x.sum()), int((x * x).sum()))
    ref_lo, ref_hi = stats.t.interval(0.95, n - 1, loc=x.mean(), scale=stats.sem(x))
    assert mean == x.mean()
    assert (lo, hi) == pytest.approx((ref_lo, ref_hi), rel=1e-10)


def test_mean_interval_small_counts():
    assert all(math.isnan(v) for v in mean_interval(0, 0, 0))
    mean, lo, hi = mean_interval(1, 7, 49)
    assert mean == 7 and math.isnan(lo) and math.isnan(hi)


def test_mean_interval_is_exact_for_huge_counts():
    # 10^8 games all of length 1000 except one of 1001: float sumsq - sum^2/n would cancel to garbage
    n = 10**8
    s = 1000 * n + 1
    ss = 1000**2 * (n - 1) + 1001**2
    mean, lo, hi = mean_interval(n, s, ss)
    var = (n * ss - s * s) / (n * (n - 1))
    assert var == pytest.approx(1 / n, rel=1e-6)
    assert hi - lo == pytest.approx(2 * stats.t.ppf(0.975, n - 1) * math.sqrt(var / n), rel=1e-9)


Q = np.array([0.0, 0.01, 0.1, 0.25, 1 / 3, 0.5, 0.6, 0.75, 0.9, 0.99, 1.0])


@pytest.mark.parametrize("seed", range(25))
def test_histogram_quantile_matches_numpy_inverted_cdf(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 40)) if seed % 2 else int(rng.integers(1, 5000))
    data = rng.integers(0, int(rng.integers(1, 80)), size=n)
    hist = np.bincount(data, minlength=100)
    q = np.concatenate([Q, rng.random(20)])
    got = histogram_quantile(hist, q)
    assert np.array_equal(got, np.quantile(data, q, method="inverted_cdf"))
    assert histogram_quantile(hist, 0.5) == np.quantile(data, 0.5, method="inverted_cdf")
    assert histogram_moments(hist) == (n, int(data.sum()), int((data * data).sum()))


def test_histogram_quantile_empty():
    assert math.isnan(histogram_quantile(np.zeros(5, dtype=int), 0.5))
