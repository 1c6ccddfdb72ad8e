"""Anytime-valid intervals for a mean: confidence sequences, which hold at every look at once, so a check may look
after every step and stop as soon as a claim is decided without inflating its error rate.

This is the one place ``balance check`` gets its intervals from (``interval``); the rest of the package only sees
(estimate, low, high). The radius is the studies' (``balance.analysis.studies.sequential.cs_radius``), shared with
``balance compare --until-decided``, so that both commands mean the same by "decided". The boundary is the
two-sided Robbins normal mixture with the variance estimated from the data, the asymptotic confidence sequence of
Waudby-Smith, Arnold, Howard and Ramdas ("Time-uniform central limit theory and asymptotic confidence sequences",
Annals of Statistics 2024, Theorem 2.2):

    mean +- sd * sqrt(2 (n rho^2 + 1) / (n^2 rho^2) * log(sqrt(n rho^2 + 1) / alpha))

with rho chosen so that the interval is narrowest at ``n_star`` games (``balance check``: the game cap, where an
undecided claim is reported). It is valid as the number of games grows
(``balance check`` looks first at 1,000 games), and about 1.5 to 2 times as wide as a fixed-size interval at
``n_star``: the price of looking as often as one likes.
"""
from __future__ import annotations

import math

from ..studies.sequential import cs_radius


def radius(sd: float, n: float, alpha: float, n_star: float) -> float:
    """Half-width of the (1 - alpha) confidence sequence of a mean after ``n`` observations of standard
    deviation ``sd``; infinite before the second observation (``balance.analysis.studies.sequential.cs_radius``)."""
    return float(cs_radius(sd * sd, int(n), alpha, max(int(n_star), 1)))


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
