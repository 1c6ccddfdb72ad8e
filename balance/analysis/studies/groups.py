"""A game's own groups in a paired study, as `balance run` reports them: per role (The Haunted Tower: per hero, each
hero's win rate and its mean of every per-seat counter, as ``Results.roles``) and per category label
(Climbing Tower: per tower and per BOSS side, each label's win rate and mean rounds).

Each is a ratio over the games: a hero's win rate is the wins of the seats that played it over the seats that
played it; a tower's win rate the games won with it over the games played with it. Per game and side the study
keeps a numerator x and a denominator g for every (label, measure), and only sums: of (x_a, g_a, x_b, g_b) and of
their products (4 x 4 a column). Every value is an integer and every sum exact in float64, as for the core metrics,
so the numbers do not depend on the chunking.

A ratio R = sum x / sum g has the delta-method variance of the per-game z = (x - R g) / mean(g), and the paired
difference R_B - R_A that of z_B - z_A, from the same games: its interval is the paired one (docs/studies.md). Labels
are matched by name between the two sides; a label only one side plays has its value there and no difference.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...games import categories as _categories
from .sequential import fixed_bounds

WIN = "win_rate"


@dataclass(frozen=True)
class GroupSpec:
    """One group of one scenario: ``kind`` "role" or "category", its ``name`` ("hero", "tower"), its ``labels``,
    its ``measures`` (the win rate first, then means), the chunk array it reads and, for a role, the per-seat
    counter columns of the means."""

    kind: str
    name: str
    labels: tuple[str, ...]
    measures: tuple[str, ...]
    chunk_key: str
    columns: tuple[int, ...] = ()


def group_specs(scenario) -> list[GroupSpec]:
    """The groups `balance run` reports for this scenario's game: its roles, then its categories."""
    spec = scenario.spec()
    out = []
    if spec.role_name is not None and spec.role_labels is not None:
        counters = tuple(spec.player_counter_names)         # every mean of `Results.roles`
        out.append(GroupSpec("role", spec.role_name, tuple(str(x) for x in spec.role_labels(scenario)),
                             (WIN, *counters), "seat_role", tuple(range(len(counters)))))
    for cat in _categories(spec, scenario):
        out.append(GroupSpec("category", cat.name, tuple(str(x) for x in cat.labels(scenario)), (WIN, "rounds"),
                             cat.chunk_key))
    return out


def win_mask(chunk: dict, g: int) -> np.ndarray:
    """int64[G]: each game's win mask (bit s: seat s won), from ``win_mask`` or the single ``winner``."""
    if "win_mask" in chunk:
        return np.asarray(chunk["win_mask"][:g], dtype=np.int64)
    w = np.asarray(chunk["winner"][:g], dtype=np.int64)
    return np.where(w >= 0, np.left_shift(1, np.maximum(w, 0)), 0)


def side_data(group: GroupSpec, chunk: dict, mask: np.ndarray):
    """One side's per-game numbers of a group. A role: (g float64[G, L], x float64[G, L, M]), g the seats that
    played each label, x their wins and counter totals. A category: (label index int64[G], -1 for none; x
    float64[G, M], the game's win and rounds)."""
    g = mask.shape[0]
    if group.kind == "category":
        idx = np.asarray(chunk[group.chunk_key][:g], dtype=np.int64)
        x = np.column_stack([mask != 0, np.asarray(chunk["rounds"][:g])]).astype(np.float64)
        return idx, x
    roles = np.asarray(chunk[group.chunk_key][:g], dtype=np.int64)
    p = roles.shape[1]
    onehot = (roles[:, :, None] == np.arange(len(group.labels))).astype(np.float64)      # [G, P, L]
    won = ((mask[:, None] >> np.arange(p)) & 1).astype(np.float64)
    final = np.asarray(chunk["final"][:g], dtype=np.float64)
    per_seat = np.concatenate([won[:, :, None], final[:, :, list(group.columns)]], axis=2)  # [G, P, M]
    return onehot.sum(axis=1), np.einsum("gpl,gpm->glm", onehot, per_seat)


@dataclass
class GroupSums:
    """The streaming sums of one group over the games of a (base, variant) pair: ``labels`` the union of both
    sides' (the base's first), ``amap``/``bmap`` each side's label index into it (-1: the side lacks the group);
    ``s`` [J, 4] the sums of (x_a, g_a, x_b, g_b) and ``q`` [J, 4, 4] of their products, column j = label * M +
    measure."""

    kind: str
    name: str
    labels: tuple[str, ...]
    measures: tuple[str, ...]
    amap: np.ndarray
    bmap: np.ndarray
    s: np.ndarray
    q: np.ndarray

    @classmethod
    def pair(cls, a: GroupSpec | None, b: GroupSpec | None) -> "GroupSums":
        one = a or b
        labels = list(a.labels if a else ())
        labels += [x for x in (b.labels if b else ()) if x not in labels]
        where = {x: i for i, x in enumerate(labels)}
        amap = np.array([where[x] for x in a.labels] if a else [], dtype=np.int64)
        bmap = np.array([where[x] for x in b.labels] if b else [], dtype=np.int64)
        j = len(labels) * len(one.measures)
        return cls(one.kind, one.name, tuple(labels), one.measures, amap, bmap, np.zeros((j, 4)), np.zeros((j, 4, 4)))

    def add(self, da, db, games: int) -> None:
        """Add one chunk's games (each side's :func:`side_data`, None where a side lacks the group)."""
        if self.kind == "category":
            self._add_labelled(da, db, games)
        else:
            self._add_dense(da, db, games)

    def _add_dense(self, da, db, games: int) -> None:
        u, m = len(self.labels), len(self.measures)
        parts = []
        for data, where in ((da, self.amap), (db, self.bmap)):
            g, x = np.zeros((games, u)), np.zeros((games, u, m))
            if data is not None:
                g[:, where], x[:, where] = data
            parts += [x.reshape(games, u * m), np.repeat(g, m, axis=1)]
        for i in range(4):
            self.s[:, i] += parts[i].sum(axis=0)
            for k in range(i, 4):
                self.q[:, i, k] += (parts[i] * parts[k]).sum(axis=0)
                self.q[:, k, i] = self.q[:, i, k]

    def _add_labelled(self, da, db, games: int) -> None:
        """One label a game and side: each sum is a count or a weighted count by label (bincount), the cross
        products over the games whose two sides have the same label."""
        u, m = len(self.labels), len(self.measures)
        none = (np.full(games, -1, np.int64), np.zeros((games, m)))
        (ia, xa), (ib, xb) = da or none, db or none
        la = np.where(ia >= 0, self.amap[np.maximum(ia, 0)] if len(self.amap) else -1, -1)
        lb = np.where(ib >= 0, self.bmap[np.maximum(ib, 0)] if len(self.bmap) else -1, -1)
        s, q = self.s.reshape(u, m, 4), self.q.reshape(u, m, 4, 4)

        def count(labels, weights=None):
            keep = labels >= 0
            w = None if weights is None else weights[keep]
            return np.bincount(labels[keep], weights=w, minlength=u).astype(np.float64)

        same = np.where(la == lb, la, -1)
        ga, gb, gab = count(la), count(lb), count(same)
        for k in range(m):
            a, b = xa[:, k], xb[:, k]
            s[:, k, 0] += count(la, a)
            s[:, k, 1] += ga
            s[:, k, 2] += count(lb, b)
            s[:, k, 3] += gb
            pairs = {(0, 0): count(la, a * a), (0, 1): count(la, a), (1, 1): ga,
                     (2, 2): count(lb, b * b), (2, 3): count(lb, b), (3, 3): gb,
                     (0, 2): count(same, a * b), (0, 3): count(same, a), (1, 2): count(same, b), (1, 3): gab}
            for (i, j), v in pairs.items():
                q[:, k, i, j] += v
                if i != j:
                    q[:, k, j, i] += v

    def merge(self, other: "GroupSums") -> None:
        self.s += other.s
        self.q += other.q

    def rows(self, n: int, level: float = 0.95) -> list[dict]:
        """One row per (label, measure) that either side played: A's and B's ratio, the paired difference with its
        interval, the pairing's gain; ``kind`` "group" for the win rate (a rate), "group_mean" for a mean."""
        s, q = self.s, self.q
        played = (s[:, 1] > 0) | (s[:, 3] > 0)
        if not played.any():
            return []
        s, q = s[played], q[played]
        with np.errstate(divide="ignore", invalid="ignore"):
            mean = s / max(n, 1)
            cov = (q - n * mean[:, :, None] * mean[:, None, :]) / max(n - 1, 1)
            has_a, has_b = s[:, 1] > 0, s[:, 3] > 0
            a = np.where(has_a, s[:, 0] / s[:, 1], np.nan)      # the ratio of the integer sums, as `run` gives it
            b = np.where(has_b, s[:, 2] / s[:, 3], np.nan)
            zero = np.zeros(len(s))
            ca = np.where(has_a[:, None], np.column_stack([1 / mean[:, 1], -a / mean[:, 1], zero, zero]), 0.0)
            cb = np.where(has_b[:, None], np.column_stack([zero, zero, 1 / mean[:, 3], -b / mean[:, 3]]), 0.0)
            quad = lambda c: np.maximum(np.einsum("ji,jik,jk->j", c, cov, c), 0.0)     # noqa: E731
            va = np.where(has_a, quad(ca), np.nan)
            vb = np.where(has_b, quad(cb), np.nan)
            both = has_a & has_b
            # the same games on both sides (every x and g equal, exactly: sums of integers): no variance at all
            same = (q[:, 0, 0] - 2 * q[:, 0, 2] + q[:, 2, 2] == 0) & (q[:, 1, 1] - 2 * q[:, 1, 3] + q[:, 3, 3] == 0)
            d = np.where(both, b - a, np.nan)
            vd = np.where(both, np.where(same, 0.0, quad(cb - ca)), np.nan)
            lo, hi = fixed_bounds(d, vd, n, level)
            gain = np.where(vd > 0, (va + vb) / vd, np.where(va + vb > 0, np.inf, np.nan))
        m = len(self.measures)
        out = []
        for i, j in enumerate(np.flatnonzero(played)):
            label, measure = self.labels[j // m], self.measures[j % m]
            out.append({"metric": f"{measure}[{self.name} {label}]", "kind": "group" if measure == WIN else
                        "group_mean", "a": float(a[i]), "b": float(b[i]), "diff": float(d[i]),
                        "diff_lo": float(lo[i]), "diff_hi": float(hi[i]), "a_sd": float(np.sqrt(va[i])),
                        "b_sd": float(np.sqrt(vb[i])), "diff_sd": float(np.sqrt(vd[i])),
                        "pairing_gain": float(gain[i]), "games": n, "group": self.name, "label": label,
                        "measure": measure})
        return out


def pair_groups(base: list[GroupSpec], variant: list[GroupSpec]) -> list[GroupSums]:
    """Empty sums for every group either side has, matched by name (the base's order first)."""
    a = {g.name: g for g in base}
    b = {g.name: g for g in variant}
    return [GroupSums.pair(a.get(name), b.get(name)) for name in list(a) + [x for x in b if x not in a]]
