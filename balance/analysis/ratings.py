"""Ratings of strategies from tables of several players: the Bradley-Terry model for a winner among any number
(Luce's choice model, which is Bradley-Terry at two players), fitted by maximum likelihood with its intervals from
the observed Fisher information.

A table's seats hold strategies with strengths exp(theta); the chance that a given seat wins a decided game is its
strength over the sum of the strengths at the table (a strategy sitting twice counts twice). A weak Gaussian prior,
theta ~ N(0, 10^2), keeps a strategy that never won finite; ratings are centred to mean 0.
"""
from __future__ import annotations

import numpy as np

Z95 = 1.959963984540054
PRIOR_PRECISION = 0.01      # 1 / 10^2


def fit_luce(counts: np.ndarray, decided: np.ndarray, wins: np.ndarray, iterations: int = 100):
    """Maximum-likelihood strengths.

    counts: int[S, K] how many seats of table s hold strategy k; decided: int[S] games with one winner at table s;
    wins: int[K] such games each strategy won, over all tables. Returns (theta[K] centred, covariance[K, K] of the
    centred theta)."""
    counts = np.asarray(counts, dtype=np.float64)
    decided = np.asarray(decided, dtype=np.float64)
    wins = np.asarray(wins, dtype=np.float64)
    K = counts.shape[1]
    theta = np.zeros(K)
    for _ in range(iterations):
        info = _information(theta, counts, decided)
        grad = wins - _expected(theta, counts, decided) - PRIOR_PRECISION * theta
        step = np.linalg.solve(info, grad)
        theta += step
        if np.max(np.abs(step)) < 1e-10:
            break
    centre = np.eye(K) - 1.0 / K
    cov = centre @ np.linalg.inv(_information(theta, counts, decided)) @ centre.T
    return centre @ theta, cov


def _shares(theta, counts):
    w = counts * np.exp(theta - theta.max())
    return w / w.sum(axis=1, keepdims=True)          # [S, K] chance each strategy wins at each table


def _expected(theta, counts, decided):
    return (decided[:, None] * _shares(theta, counts)).sum(axis=0)


def _information(theta, counts, decided):
    """Minus the Hessian of the log posterior: sum over tables of n_s (diag(pi_s) - pi_s pi_s^T), plus the prior."""
    pi = _shares(theta, counts)
    info = np.einsum("s,sk->k", decided, pi)
    out = np.diag(info) - np.einsum("s,sk,sl->kl", decided, pi, pi)
    return out + PRIOR_PRECISION * np.eye(theta.size)


def intervals(theta: np.ndarray, cov: np.ndarray):
    """95% Wald intervals of each rating: (low, high)."""
    sd = np.sqrt(np.maximum(np.diag(cov), 0.0))
    return theta - Z95 * sd, theta + Z95 * sd
