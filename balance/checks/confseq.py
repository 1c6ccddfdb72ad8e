"""Anytime-valid intervals for a mean: confidence sequences, which hold at every look at once, so a check may look
after every step and stop as soon as a claim is decided without inflating its error rate.

This is the one place ``balance check`` gets its intervals from (``interval``); the rest of the package only sees
(estimate, low, high). The boundary is the two-sided Robbins normal mixture with the variance estimated from the
data, the asymptotic confidence sequence of Waudby-Smith, Arbour, Sinha, Kennedy and Ramdas ("Time-uniform central
limit theory and asymptotic confidence sequences", Annals of Statistics 2024, Theorem 2.2):

    mean +- sd * sqrt(2 (n rho^2 + 1) / (n^2 rho^2) * log(sqrt(n rho^2 + 1) / alpha))

with rho chosen so that the interval is narrowest at ``n_star`` games. It is valid as the number of games grows
(``balance check`` looks first at 1,000 games), and about 1.5 to 2 times as wide as a fixed-size interval at
``n_star``: the price of looking as often as one likes.
"""
from __future__ import annotations

import math


def rho(alpha: float, n_star: float) -> float:
    """The mixture's spread that makes the boundary tightest at ``n_star`` observations."""
    a = -2.0 * math.log(alpha)
    return math.sqrt((a + math.log(a + 1.0)) / max(float(n_star), 1.0))


def radius(sd: float, n: float, alpha: float, n_star: float) -> float:
    """Half-width of the (1 - alpha) confidence sequence of a mean after ``n`` observations of standard
    deviation ``sd``; infinite before the first observation."""
    if n <= 0:
        return math.inf
    r2 = rho(alpha, n_star) ** 2
    return sd * math.sqrt(2.0 * (n * r2 + 1.0) / (n * n * r2) * math.log(math.sqrt(n * r2 + 1.0) / alpha))


def interval(mean: float, sd: float, n: float, alpha: float, n_star: float) -> tuple[float, float]:
    """The (1 - alpha) confidence sequence for a mean, at this look: (low, high)."""
    r = radius(sd, n, alpha, n_star)
    return mean - r, mean + r


def proportion(k: float, n: float, alpha: float, n_star: float, lo: float = 0.0, hi: float = 1.0):
    """(estimate, low, high) of a share ``k / n``, the interval clipped to [lo, hi]. The standard deviation comes
    from the share shrunk by half a success and half a failure, so that no share seen as 0 or 1 gets a zero-width
    interval."""
    if n <= 0:
        return math.nan, lo, hi
    p = k / n
    q = (k + 0.5) / (n + 1.0)
    low, high = interval(p, math.sqrt(q * (1.0 - q)), n, alpha, n_star)
    return p, max(lo, low), min(hi, high)
