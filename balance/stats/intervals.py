"""Interval estimates and tests on integer counts: Wilson, Clopper-Pearson, Newcombe, chi-square, t, histogram
percentiles.

Everything here takes counts (or a histogram) rather than per-game rows, so the streaming aggregator can keep only
integer sufficient statistics and still give exact answers. All functions are vectorised over NumPy arrays.
"""
from __future__ import annotations

from statistics import NormalDist
from typing import NamedTuple

import numpy as np
from scipy import special as _sp  # scipy.special imports in a fraction of scipy.stats' time

Z95 = NormalDist().inv_cdf(0.975)  # 1.959963984540054, the 95% two-sided normal quantile


class Method(NamedTuple):
    """An interval method by the name every table note and docs/metrics.md give it; ``key`` is the word that must
    appear wherever a column computed by it is defined (tests/stats/test_interval_names.py checks the report's notes and
    docs/metrics.md against the computation)."""

    name: str
    key: str


METHODS = {
    "wilson": Method("Wilson score interval", "Wilson"),                  # :func:`wilson`
    "student_t": Method("Student t interval", "Student t"),                # :func:`mean_interval`
    "newcombe": Method("Newcombe's hybrid score interval", "Newcombe"),    # :func:`diff_interval`
    "exact": Method("Clopper-Pearson exact interval", "Clopper-Pearson"),  # :func:`exact`: picked-from-many rates
}


def wilson(k, n, z: float = Z95):
    """Wilson score interval for a binomial proportion k/n, without continuity correction.

    Wilson, E. B. (1927), "Probable inference, the law of succession, and statistical inference", JASA 22:209-212;
    the same formula as ``scipy.stats.binomtest(k, n).proportion_ci(method="wilson")``. Returns ``(lo, hi)`` as
    float arrays (scalars in, 0-d arrays out); ``n == 0`` gives NaN.
    """
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        z2 = z * z
        denom = 1.0 + z2 / n
        centre = (p + z2 / (2.0 * n)) / denom
        half = z * np.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom
        lo = np.where(k <= 0, 0.0, centre - half)
        hi = np.where(k >= n, 1.0, centre + half)
    bad = n <= 0
    return np.where(bad, np.nan, lo), np.where(bad, np.nan, hi)


def exact(k, n, z: float = Z95):
    """Clopper-Pearson ("exact") interval for a binomial proportion k/n at the two-sided level of the normal quantile
    z (1.95996: 95%): the Beta quantiles ``Beta(alpha/2; k, n - k + 1)`` and ``Beta(1 - alpha/2; k + 1, n - k)``.

    Clopper, C. J. and Pearson, E. S. (1934), Biometrika 26:404-413; the same as
    ``scipy.stats.binomtest(k, n).proportion_ci(method="exact")``. Each side misses at most alpha/2 of the time for
    every p, which Wilson's does not promise far out in the tails: the intervals of a headline that picks one of
    hundreds of groups (``stats.extremes``) use it. Returns ``(lo, hi)``; ``n == 0`` gives NaN."""
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    tail = float(_sp.ndtr(-z))                       # alpha / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        lo = np.where(k <= 0, 0.0, _sp.betaincinv(np.maximum(k, 1e-300), n - k + 1, tail))
        hi = np.where(k >= n, 1.0, _sp.betaincinv(k + 1, np.maximum(n - k, 1e-300), 1 - tail))
    bad = n <= 0
    return np.where(bad, np.nan, lo), np.where(bad, np.nan, hi)


def diff_interval(k1, n1, k2, n2, z: float = Z95):
    """Newcombe's hybrid score interval for p1 - p2 (two independent proportions).

    Newcombe, R. G. (1998), "Interval estimation for the difference between independent proportions: comparison of
    eleven methods", Statistics in Medicine 17:873-890, method 10: combines the two Wilson intervals. Returns
    ``(diff, lo, hi)``; NaN where either sample is empty.
    """
    k1, n1, k2, n2 = (np.asarray(a, dtype=np.float64) for a in (k1, n1, k2, n2))
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    with np.errstate(divide="ignore", invalid="ignore"):
        p1 = k1 / n1
        p2 = k2 / n2
    d = p1 - p2
    lo = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, lo, hi


class SeatTest(NamedTuple):
    """Result of the chi-square test that every seat wins equally often."""

    chi2: float
    dof: int
    p_value: float


def seat_equality_test(wins, games) -> SeatTest:
    """Chi-square goodness of fit: are the seats' win counts equal, given the finished games each seat played?

    ``wins[s]`` are seat s's wins, ``games[s]`` the finished games it sat in (equal for every seat in a run, so the
    expected counts are equal shares of all wins). Same as ``scipy.stats.chisquare`` with ``dof = seats - 1`` (the
    p-value is the chi-square survival function, ``scipy.special.chdtrc``). NaN when
    there are no wins at all or fewer than two seats.
    """
    wins = np.asarray(wins, dtype=np.float64)
    games = np.asarray(games, dtype=np.float64)
    dof = int(wins.size - 1)
    total = wins.sum()
    if dof < 1 or total <= 0 or games.sum() <= 0:
        return SeatTest(float("nan"), dof, float("nan"))
    expected = total * games / games.sum()
    chi2 = float(np.sum((wins - expected) ** 2 / expected))
    return SeatTest(chi2, dof, float(_sp.chdtrc(dof, chi2)))


def mean_interval(count, total, total_sq, confidence: float = 0.95):
    """Mean with a Student-t interval from the count, sum and sum of squares of integer data.

    The variance is computed in exact integer arithmetic (``n * sumsq - sum**2``) so that it does not lose precision
    for hundreds of millions of games. Returns ``(mean, lo, hi)`` floats; the interval is NaN for fewer than 2 values.
    """
    n, s, ss = int(count), int(total), int(total_sq)
    if n <= 0:
        return float("nan"), float("nan"), float("nan")
    mean = s / n
    if n < 2:
        return mean, float("nan"), float("nan")
    var = (n * ss - s * s) / (n * (n - 1))  # exact integer numerator
    half = float(_sp.stdtrit(n - 1, 0.5 + confidence / 2.0)) * float(np.sqrt(var / n))  # Student t quantile
    return mean, mean - half, mean + half


def histogram_moments(hist) -> tuple[int, int, int]:
    """``(count, sum, sum of squares)`` of the data whose histogram over values 0..len-1 is ``hist`` (exact ints)."""
    h = np.asarray(hist, dtype=np.int64)
    x = np.arange(h.size, dtype=np.int64)
    return int(h.sum()), int((h * x).sum()), int((h * x * x).sum())


def histogram_quantile(hist, q):
    """Quantile(s) ``q`` of the integer data whose histogram over values 0..len-1 is ``hist``.

    Exactly ``numpy.quantile(data, q, method="inverted_cdf")`` on the raw data: the smallest value whose empirical
    CDF reaches q (Hyndman & Fan 1996, definition 1). NaN for an empty histogram.
    """
    h = np.asarray(hist, dtype=np.int64)
    q = np.asarray(q, dtype=np.float64)
    n = int(h.sum())
    if n == 0:
        return np.full(q.shape, np.nan) if q.ndim else float("nan")
    index = n * q - 1.0  # numpy's virtual index for inverted_cdf, computed the same way
    prev = np.floor(index)
    rank = np.where(index - prev == 0, prev, prev + 1).astype(np.int64)
    rank = np.clip(rank, 0, n - 1)
    out = np.searchsorted(np.cumsum(h), rank, side="right")
    return out if q.ndim else int(out)
