"""Picking the extreme of k groups honestly: the lowest win rate of 420 towers, the deadliest of 22 monsters, the
strongest of 4 strategies, the largest gap between 4 seats.

The largest of many estimates is picked partly for its own noise: its plain 95% interval covers its true value less
often than 95% of the time, and with hundreds of groups of a few dozen games each the group with the lowest
estimate is mostly the unluckiest, not the hardest. Every headline that names the extreme of several groups
therefore uses **Bonferroni-simultaneous intervals**: each of the k groups' intervals at level 1 - 0.05 / k, so
that all k cover their true values together at least 95% of the time, whatever the dependence between the groups
(seats of the same games, cells played on the same seeds). Then so does the picked group's, however it was picked.

A group is called *the* highest (lowest) only when its simultaneous interval lies wholly above (below) every other
group's: whenever all k intervals cover, which happens at least 95% of the time, it truly is the highest. Otherwise
the groups whose intervals reach its own "cannot be told apart from it". A gap between two groups picked after
looking (the highest and the lowest seat) is adjusted the same way, over the k (k - 1) / 2 pairs it was picked
from. docs/metrics.md ("Headlines that pick one of many") says why Bonferroni rather than shrinkage.
"""
from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist
from typing import Callable

import numpy as np

from .intervals import Z95


def family_z(m: int, level: float = 0.95) -> float:
    """The two-sided normal quantile that makes m intervals cover together with probability at least ``level``
    (Bonferroni: each at 1 - (1 - level) / m). ``family_z(1)`` is the plain 1.95996."""
    m = max(int(m), 1)
    return NormalDist().inv_cdf(1.0 - (1.0 - level) / (2.0 * m))


def pairs(k: int) -> int:
    """The pairs of k groups: the family a gap between two of them (the highest and the lowest) is picked from."""
    return max(k * (k - 1) // 2, 1)


def widen(estimate, lo, hi, z: float):
    """A normal (Wald) 95% interval ``(lo, hi)`` of ``estimate`` widened to the quantile z: each side scaled by
    z / 1.95996. Arrays or scalars."""
    est, lo, hi = (np.asarray(x, dtype=np.float64) for x in (estimate, lo, hi))
    if z == Z95:
        return lo, hi
    s = z / Z95
    return est - (est - lo) * s, est + (hi - est) * s


@dataclass(frozen=True, eq=False)
class Extreme:
    """The extreme of k groups: ``index`` into the arrays given, its ``value`` and simultaneous interval ``lo``,
    ``hi`` (at ``z`` = family_z(k)), ``rivals`` (the indices of the other groups whose simultaneous intervals reach
    its own: they cannot be told apart from it, nearest first) and every group's simultaneous interval (``los``,
    ``his``; NaN for a group left out)."""

    index: int
    k: int
    z: float
    value: float
    lo: float
    hi: float
    highest: bool
    rivals: tuple[int, ...]
    los: np.ndarray
    his: np.ndarray

    @property
    def clear(self) -> bool:
        """Whether its simultaneous interval lies apart from every other group's: then it is the highest (lowest)."""
        return not self.rivals

    def beyond(self, lo: float, hi: float) -> bool:
        """Whether its simultaneous interval lies wholly above ``hi`` (highest) or below ``lo`` (lowest): apart from
        a reference such as the rate over all groups."""
        return bool(self.lo > hi) if self.highest else bool(self.hi < lo)

    def count_beyond(self, lo: float, hi: float) -> int:
        """How many groups' simultaneous intervals lie wholly on its side of the reference interval ``lo``, ``hi``."""
        with np.errstate(invalid="ignore"):
            return int(np.sum(self.los > hi) if self.highest else np.sum(self.his < lo))

    def rivals_text(self, labels) -> str:
        """"2 others (tower A, tower B) cannot be told apart from it", nearest first (at most three named); "" when
        the data separate it. ``labels[j]`` names group j (with its value, if the sentence wants it)."""
        n = len(self.rivals)
        if not n:
            return ""
        near = ", ".join(str(labels[j]) for j in self.rivals[:3]) + (", ..." if n > 3 else "")
        return f"{n:,} other{'s' if n > 1 else ''} ({near}) cannot be told apart from it"

    def ci_label(self, noun: str) -> str:
        """"95% CI adjusted for the 420 towers:" (plainly "95% CI" when there is one group)."""
        return "95% CI" if self.k == 1 else f"95% CI adjusted for the {self.k:,} {noun}:"

    def adjusted(self, fmt: Callable[[float], str], noun: str) -> str:
        """"95% CI adjusted for the 420 towers: 27.0% to 64.8%" (plainly "95% CI ..." when there is one group)."""
        return f"{self.ci_label(noun)} {fmt(self.lo)} to {fmt(self.hi)}"


def pick_extreme(values, interval: Callable[[float], tuple], highest: bool = True) -> Extreme | None:
    """The highest (``highest``) or lowest of ``values``, with every group's simultaneous interval.

    ``interval(z)`` gives the groups' intervals at the normal quantile z as ``(lo, hi)`` arrays (the exact binomial
    interval at that level for a rate of its own, Newcombe's at z for a difference of rates, :func:`widen` for a
    normal one). Groups whose value is NaN are left out and not counted in
    k. None when no group is left."""
    v = np.asarray(values, dtype=np.float64)
    ok = np.isfinite(v)
    k = int(ok.sum())
    if k == 0:
        return None
    z = family_z(k)
    lo, hi = (np.where(ok, np.asarray(x, dtype=np.float64), np.nan) for x in interval(z))
    masked = np.where(ok, v, -np.inf if highest else np.inf)
    i = int(np.argmax(masked) if highest else np.argmin(masked))
    with np.errstate(invalid="ignore"):
        apart = (hi < lo[i]) if highest else (lo > hi[i])      # False where an interval is missing (NaN)
    reach = ok & ~apart
    reach[i] = False
    others = np.nonzero(reach)[0]
    rivals = tuple(int(j) for j in others[np.argsort(-v[others] if highest else v[others], kind="stable")])
    return Extreme(i, k, z, float(v[i]), float(lo[i]), float(hi[i]), highest, rivals, lo, hi)
