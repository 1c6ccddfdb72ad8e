"""Anytime-valid answers to a question about per-game means: confidence sequences that may be looked at after
every chunk and stopped whenever they answer.

Method: the asymptotic confidence sequence with the Gaussian-mixture (Robbins normal-mixture) boundary of
Waudby-Smith, Arnold, Howard and Ramdas, "Time-uniform central limit theory and asymptotic confidence sequences"
(Annals of Statistics, 2024; arXiv:2103.06476, Theorem 2.2 / eq. (2.6)), which carries the normal-mixture boundary
of Howard, Ramdas, McAuliffe and Sekhon, "Time-uniform, nonparametric, nonasymptotic confidence sequences" (Annals
of Statistics 49, 2021) over to any i.i.d. stream with a finite variance. After ``n`` games with sample mean ``m``
and sample variance ``s2`` the sequence is::

    m +- sqrt(s2) * sqrt( 2 (n rho2 + 1) / (n^2 rho2) * log( sqrt(n rho2 + 1) / alpha ) ),
    rho2 = (-2 log alpha + log(-2 log alpha + 1)) / n_opt        (narrowest near n = n_opt games)

Guarantee: with probability at least 1 - alpha (asymptotically, as the games grow; our streams are bounded or
light-tailed and looks start only after ``min_games``), the true mean lies inside the sequence at EVERY look
simultaneously. So a decision taken at any look, or the first look that decides, is wrong with probability at most
alpha, however often one looks. Several contrasts looked at together share alpha (Bonferroni).

The tests check it by simulation: many A/A experiments (true difference 0) on synthetic streams, with a look after
every chunk, decide "B is better" at most alpha of the time.

API (everything game-free: a per-game vector ``x`` of K numbers, whatever a caller puts in it)::

    m = Moments.empty(K); m.add(x_chunk)              # x_chunk float64[G, K]; keeps n, sum x, sum x x^T
    mean, var = m.contrast(C)                         # C float[J, K]: per-game linear contrasts, their mean/variance
    lo, hi = cs_bounds(mean, var, m.n, alpha / J)     # the confidence sequence of each (use alpha / J for J at once)
    lo, hi = fixed_bounds(mean, var, m.n, 0.95)       # a plain (fixed-size) normal interval, for reports

    q = parse_question("seat_spread(B) < seat_spread(A)")   # or "win_rate(B) - win_rate(A) > 0.01"
    test = SequentialTest(q, resolve, alpha=0.05)     # resolve(metric, side) -> list of K-vectors (see below)
    look = test.look(m)                               # Look(decision "yes" | "no" | None, estimate, lo, hi, n)

Question grammar (whitespace free)::

    question := expr OP expr                 OP: < <= > >=
    expr     := ['-'] term (('+' | '-') term)*
    term     := NUMBER | [NUMBER '*'] METRIC '(' SIDE ')'
    METRIC   := name, optionally with [label]: win_rate, win_rate[0], share[amulet], turns, seat_spread ...
    SIDE     := A | B (a one-scenario caller may use its own side names)

``resolve(metric, side)`` returns the K-vectors whose dot product with x gives that metric for one game; one
vector for a mean (a seat's win, the turns), several for a maximum over them (the seat spread: one vector
``e_i - e_j`` per ordered seat pair). A metric with several vectors may appear at most once with a plus sign and
once with a minus sign; the value ``max_p min_q (linear terms)`` is bounded by doing the same to the bounds of
each (p, q) contrast, which all hold together with probability 1 - alpha (alpha is split over them).

The question is answered "yes" when the whole sequence lies on its side of the comparison, "no" when it lies
wholly on the other side (for <= and >= the boundary itself counts as the question's side), and stays open
otherwise; a caller stops at a game cap and reports it as inconclusive.
"""
from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
from scipy.stats import norm

DEFAULT_ALPHA = 0.05
DEFAULT_N_OPT = 10_000      # games at which the sequence is tuned to be narrowest
DEFAULT_MIN_GAMES = 1_000   # no decision before this many games (the guarantee is asymptotic)
OPS = ("<=", ">=", "<", ">")


@dataclass
class Moments:
    """Streaming sums of a per-game vector: n, sum of x (K) and sum of x x^T (K x K); memory does not grow."""

    n: int
    s: np.ndarray
    ss: np.ndarray

    @classmethod
    def empty(cls, k: int) -> "Moments":
        return cls(0, np.zeros(k), np.zeros((k, k)))

    def add(self, x: np.ndarray) -> None:
        x = np.asarray(x, dtype=np.float64)
        self.n += x.shape[0]
        self.s += x.sum(axis=0)
        self.ss += x.T @ x

    def merge(self, other: "Moments") -> None:
        self.n += other.n
        self.s += other.s
        self.ss += other.ss

    def contrast(self, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Mean and sample variance (ddof 1) of each per-game contrast ``c @ x`` (c: [J, K] or [K])."""
        c = np.atleast_2d(np.asarray(c, dtype=np.float64))
        n = max(self.n, 1)
        mean = c @ self.s / n
        sq = np.einsum("jk,kl,jl->j", c, self.ss, c)
        var = np.maximum(sq - n * mean ** 2, 0.0) / max(self.n - 1, 1)
        return mean, var


def cs_radius(var, n: int, alpha: float = DEFAULT_ALPHA, n_opt: int = DEFAULT_N_OPT):
    """Half-width of the Gaussian-mixture asymptotic confidence sequence after n observations (module docstring)."""
    if n < 2:
        return np.full(np.shape(var), np.inf)
    la = -2.0 * math.log(alpha)
    rho2 = (la + math.log(la + 1.0)) / n_opt
    factor = 2.0 * (n * rho2 + 1.0) / (n * n * rho2) * math.log(math.sqrt(n * rho2 + 1.0) / alpha)
    return np.sqrt(np.asarray(var, dtype=np.float64) * factor)


def cs_bounds(mean, var, n: int, alpha: float = DEFAULT_ALPHA, n_opt: int = DEFAULT_N_OPT):
    """The confidence sequence (lo, hi) of each mean: holds at every n at once with probability 1 - alpha."""
    r = cs_radius(var, n, alpha, n_opt)
    return np.asarray(mean) - r, np.asarray(mean) + r


def fixed_bounds(mean, var, n: int, level: float = 0.95):
    """A fixed-size normal interval (lo, hi) of each mean, valid for a single look after n observations."""
    z = norm.ppf(0.5 + level / 2.0)
    r = z * np.sqrt(np.asarray(var, dtype=np.float64) / max(n, 1)) if n >= 2 else np.inf
    return np.asarray(mean) - r, np.asarray(mean) + r


# --- the question grammar ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Term:
    coef: float
    metric: str          # "win_rate", "win_rate[0]", "share[amulet]", "seat_spread"
    side: str            # "A", "B"


@dataclass(frozen=True)
class Question:
    """``sum(coef * metric(side)) + constant  OP  0``, parsed from ``text``."""

    text: str
    terms: tuple[Term, ...]
    constant: float
    op: str

    def describe(self) -> str:
        return self.text


_TERM = re.compile(r"^(?:(?P<coef>\d+(?:\.\d*)?|\.\d+)\*)?(?P<metric>[A-Za-z_][A-Za-z_0-9]*(?:\[[^\]()]+\])?)"
                   r"\((?P<side>[A-Za-z_][A-Za-z_0-9]*)\)$")
_NUMBER = re.compile(r"^(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$")


def _parse_expr(text: str, sign: float, question: str) -> tuple[list[Term], float]:
    terms: list[Term] = []
    constant = 0.0
    parts = re.split(r"(?<![eE\[])([+-])", text)      # signs between terms (not an exponent's, not inside [..])
    current = 1.0
    for part in parts:
        if part in ("+", "-"):
            current = -current if part == "-" else current
            continue
        if part == "":
            continue
        if _NUMBER.match(part):
            constant += sign * current * float(part)
        else:
            m = _TERM.match(part)
            if m is None:
                raise ValueError(f"question {question!r}: cannot read {part!r} (allowed: a number, or "
                                 "[number*]metric(A|B), e.g. win_rate(B), share[amulet](A), 2*turns(B))")
            coef = float(m["coef"]) if m["coef"] else 1.0
            terms.append(Term(sign * current * coef, m["metric"], m["side"]))
        current = 1.0
    return terms, constant


def parse_question(text: str) -> Question:
    """Parse a question (module docstring grammar); raises ValueError with one line naming what is wrong."""
    if re.search(r"[\w\]\)]\s+[\w\[\(]", str(text)):
        raise ValueError(f"question {text!r}: a space inside a name or between two terms (allowed: "
                         "metric(A|B) joined by + - * and one comparison)")
    compact = re.sub(r"\s+", "", str(text))
    for op in OPS:
        if op in compact:
            left, _, right = compact.partition(op)
            break
    else:
        raise ValueError(f"question {text!r}: no comparison (allowed: one of < <= > >=, e.g. "
                         "\"seat_spread(B) < seat_spread(A)\")")
    if not left or not right or any(o in right for o in OPS):
        raise ValueError(f"question {text!r}: needs one expression on each side of one comparison")
    lt, lc = _parse_expr(left, 1.0, text)
    rt, rc = _parse_expr(right, -1.0, text)
    if not lt + rt:
        raise ValueError(f"question {text!r}: names no metric (e.g. win_rate(B))")
    return Question(str(text).strip(), tuple(lt + rt), lc + rc, op)


# --- deciding ----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Look:
    """One look at a question: the estimate of ``lhs - rhs``, its bounds, and the decision so far."""

    decision: str | None      # "yes", "no", or None (not yet answered)
    estimate: float
    lo: float
    hi: float
    n: int


def decide(lo: float, hi: float, op: str) -> str | None:
    """Is ``value OP 0`` answered by the bounds [lo, hi] of the value?"""
    if op in (">", ">="):
        yes, no = (lo > 0, hi < 0) if op == ">" else (lo >= 0, hi < 0)
    else:
        yes, no = (hi < 0, lo > 0) if op == "<" else (hi <= 0, lo > 0)
    return "yes" if yes else "no" if no else None


class SequentialTest:
    """A question answered from streaming moments, at any number of looks, wrong with probability at most alpha.

    ``resolve(metric, side)`` gives the K-vectors of a metric (one for a mean, several for a maximum); it raises
    ValueError (one line) for an unknown metric."""

    def __init__(self, question: Question, resolve: Callable[[str, str], Sequence[np.ndarray]],
                 alpha: float = DEFAULT_ALPHA, n_opt: int = DEFAULT_N_OPT, min_games: int = DEFAULT_MIN_GAMES):
        if not 0 < alpha < 1:
            raise ValueError(f"alpha={alpha}: out of range (allowed: between 0 and 1)")
        self.question, self.alpha, self.n_opt, self.min_games = question, alpha, n_opt, min_games
        linear = None
        plus, minus = [], []
        for term in question.terms:
            try:
                vectors = [np.asarray(v, dtype=np.float64) for v in resolve(term.metric, term.side)]
            except ValueError as err:
                raise ValueError(f"question {question.text!r}: {err}") from None
            if len(vectors) == 1:
                linear = term.coef * vectors[0] if linear is None else linear + term.coef * vectors[0]
            else:
                (plus if term.coef > 0 else minus).append([term.coef * v for v in vectors])
        if len(plus) > 1 or len(minus) > 1:
            raise ValueError(f"question {question.text!r}: a maximum such as seat_spread may appear at most once "
                             "on each side")
        k = len(vectors[0])
        base = linear if linear is not None else np.zeros(k)
        ps = plus[0] if plus else [np.zeros(k)]
        qs = minus[0] if minus else [np.zeros(k)]
        # value = max_p min_q (base + p + q); q holds negated maxima, so min over q
        self.shape = (len(ps), len(qs))
        self.contrasts = np.array([base + p + q for p, q in itertools.product(ps, qs)])

    def bounds(self, moments: Moments, sequential: bool = True, level: float = 0.95) -> Look:
        """Estimate and bounds of the question's ``lhs - rhs`` (confidence sequence, or a fixed-size interval)."""
        mean, var = moments.contrast(self.contrasts)
        j = len(self.contrasts)
        if sequential:
            lo, hi = cs_bounds(mean, var, moments.n, self.alpha / j, self.n_opt)
        else:
            lo, hi = fixed_bounds(mean, var, moments.n, 1 - (1 - level) / j)
        c = self.question.constant

        def maxmin(a):
            return float(np.max(np.min(np.reshape(a, self.shape), axis=1))) + c
        return Look(None, maxmin(mean), maxmin(lo), maxmin(hi), moments.n)

    def look(self, moments: Moments) -> Look:
        """The confidence sequence now, and the decision it gives (None before min_games or while open)."""
        b = self.bounds(moments)
        decision = decide(b.lo, b.hi, self.question.op) if moments.n >= self.min_games else None
        return Look(decision, b.estimate, b.lo, b.hi, b.n)

    def guarantee(self) -> str:
        return (f"An anytime-valid {100 * (1 - self.alpha):g}% confidence sequence (Gaussian-mixture boundary, "
                f"Waudby-Smith et al. 2024 / Howard et al. 2021): the answer is wrong with probability at most "
                f"{self.alpha:g}, however often it was looked at")
