"""Paired runs on common random numbers: a base scenario and variants played on the same seed and game indices.

What is shared: every random number of a game is a pure function of (seed, game index, purpose, counter)
(:mod:`balance.core.rng`): one stream for dice, one for shuffles, one per seat for strategy choices. A base and a
variant played with the same seed therefore deal the same shuffles, roll the same dice and draw the same strategy
choices for as long as their games coincide; once a change makes them differ (a card with another effect, one more
die rolled), each stream goes on from its own counter and the two games drift apart. Nothing else is shared: each
scenario is compiled and played on its own, chunk by chunk (the same global game indices in each).

Per game, each scenario gives a vector of integer metrics (:class:`Layout`): each seat's win (the team's win in a
co-operative game), each victory kind, turns, rounds, and the per-game total of every counter of every counter
group. Only streaming sums are kept: for the "core" metrics (wins, victory kinds, lengths) the sums of x and x x^T of
the joined vector (base, variant), so that any paired contrast (a difference, the seat spread) has its variance;
for the per-item counters the sums of a, a^2, b, b^2 and a*b. Every value is an integer and every sum is exact in
float64 (far below 2^53), so the numbers do not depend on chunk size or thread count.

A difference's interval uses the per-game paired differences d = b - a (mean of d, sample variance of d). The
pairing's gain is measured from the same data: var(a) + var(b) (what two independent runs would have) over var(d);
independent runs would need that many times the games for the same interval width.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

import numpy as np

from ...games import counter_groups
from ...run.runner import play_chunk, set_threads
from ...scenario.model import Scenario
from .groups import GroupSpec, GroupSums, group_specs, pair_groups, side_data, win_mask
from .sequential import DEFAULT_ALPHA, Moments, SequentialTest, fixed_bounds

STUDY_CHUNK = 20_000        # games per chunk and scenario (memory: every scenario's per-game vectors of one chunk)
FIRST_LOOK = 1_000


@dataclass
class Layout:
    """The per-game metric vector of one scenario's games: core metrics (K_c) and per-item totals (K_i)."""

    players: int
    cooperative: bool
    victory_names: tuple[str, ...]
    core_names: list[str]
    core_kinds: list[str]
    item_keys: list[tuple[str, str, str, str]]     # (chunk key, group name, label, counter): one per item column
    item_names: list[str]
    item_groups: list[tuple[str, int, int]] = field(default_factory=list)   # (chunk key, things, counters)
    own_groups: list[GroupSpec] = field(default_factory=list)   # per role and per category label (.groups)

    @classmethod
    def of(cls, scenario: Scenario) -> "Layout":
        spec = scenario.spec()
        p = scenario.players
        if spec.cooperative:
            core, kinds = ["win_rate"], ["team"]
        else:
            core, kinds = [f"win_rate[{s}]" for s in range(p)], ["seat"] * p
        core += [f"share[{v}]" for v in spec.victory_names] + ["turns", "rounds"]
        kinds += ["victory"] * len(spec.victory_names) + ["length", "length"]
        keys, names, groups, seen = [], [], [], set()
        for grp in counter_groups(spec, scenario):
            if grp.chunk_key in seen:           # two groups over one array (Climbing Tower's cards): count once
                continue
            seen.add(grp.chunk_key)
            labels = [str(x) for x in grp.labels(scenario)]
            groups.append((grp.chunk_key, len(labels), len(grp.counter_names)))
            for label in labels:
                for counter in grp.counter_names:
                    keys.append((grp.chunk_key, grp.name, label, counter))
                    names.append(f"{counter}[{grp.name} {label}]")
        return cls(p, spec.cooperative, tuple(spec.victory_names), core, kinds, keys, names, groups,
                   group_specs(scenario))

    def own(self, chunk: dict) -> dict:
        """Each of the game's own groups' per-game numbers (``groups.side_data``), by group name."""
        g = len(chunk["victory"])
        mask = win_mask(chunk, g)
        return {grp.name: side_data(grp, chunk, mask) for grp in self.own_groups}

    def core(self, chunk: dict) -> np.ndarray:
        """float64[G, K_c] from a chunk's arrays."""
        g = len(chunk["victory"])
        mask = win_mask(chunk, g)
        if self.cooperative:
            wins = (mask != 0)[:, None]
        else:
            wins = (mask[:, None] >> np.arange(self.players)) & 1
        victory = np.asarray(chunk["victory"], dtype=np.int64)
        kinds = victory[:, None] == np.arange(len(self.victory_names))
        lengths = np.column_stack([np.asarray(chunk["turns"]), np.asarray(chunk["rounds"])])
        return np.column_stack([wins, kinds, lengths]).astype(np.float64).reshape(g, -1)

    def items(self, chunk: dict) -> np.ndarray:
        """float64[G, K_i]: each counter of each thing, summed over the seats (or the team), per game."""
        g = len(chunk["victory"])
        parts = [np.asarray(chunk[key])[:g].sum(axis=1, dtype=np.int64).reshape(g, i * c)
                 for key, i, c in self.item_groups]
        return np.concatenate(parts, axis=1).astype(np.float64) if parts else np.zeros((g, 0))

    def vectors(self, metric: str, offset: int) -> list[np.ndarray]:
        """The K-vectors (within a joined vector, this layout's core starting at ``offset``) of a core metric; the
        seat spread is the maximum over ordered seat pairs of win(i) - win(j)."""
        n = offset + len(self.core_names)
        if metric == "seat_spread":
            if self.cooperative:
                raise ValueError("seat_spread: a co-operative game has one team result (allowed: win_rate)")
            out = []
            for i, j in itertools.permutations(range(self.players), 2):
                v = np.zeros(n)
                v[offset + i], v[offset + j] = 1.0, -1.0
                out.append(v)
            return out
        if metric == "win_rate" and not self.cooperative:
            raise ValueError("win_rate: give a seat, win_rate[0] (or ask about seat_spread)")
        if metric not in self.core_names:
            raise ValueError(f"unknown metric {metric!r} (allowed: {', '.join(self.core_names)}, "
                             f"{'' if self.cooperative else 'seat_spread'})".replace(", )", ")"))
        v = np.zeros(n)
        v[offset + self.core_names.index(metric)] = 1.0
        return [v]


@dataclass
class PairSums:
    """Streaming sums of one (base, variant) pair: joined core moments and the per-item product sums."""

    base: Layout
    variant: Layout
    core: Moments
    items: np.ndarray            # [5, K]: sum a, sum a^2, sum b, sum b^2, sum a*b over matching item columns
    item_index: list[tuple[int, int]]     # (column in base, column in variant) of each matching item
    groups: list[GroupSums] = field(default_factory=list)     # the game's own groups (per hero, per tower...)

    @classmethod
    def empty(cls, base: Layout, variant: Layout) -> "PairSums":
        where = {k: j for j, k in enumerate(variant.item_keys)}
        index = [(i, where[k]) for i, k in enumerate(base.item_keys) if k in where]
        k = len(base.core_names) + len(variant.core_names)
        return cls(base, variant, Moments.empty(k), np.zeros((5, len(index))), index,
                   pair_groups(base.own_groups, variant.own_groups))

    def add(self, core_a, core_b, items_a, items_b, own_a: dict | None = None, own_b: dict | None = None) -> None:
        self.core.add(np.concatenate([core_a, core_b], axis=1))
        if self.item_index:
            ia, ib = (np.array(x) for x in zip(*self.item_index))
            a, b = items_a[:, ia], items_b[:, ib]
            self.items += np.stack([a.sum(0), (a * a).sum(0), b.sum(0), (b * b).sum(0), (a * b).sum(0)])
        for grp in self.groups:
            grp.add((own_a or {}).get(grp.name), (own_b or {}).get(grp.name), core_a.shape[0])

    def merge(self, other: "PairSums") -> None:
        """Add the sums of other games of the same pair (exact: every sum is of integers)."""
        self.core.merge(other.core)
        self.items += other.items
        for mine, theirs in zip(self.groups, other.groups):
            mine.merge(theirs)

    def resolve(self, metric: str, side: str) -> list[np.ndarray]:
        if side == "A":
            return [np.concatenate([v, np.zeros(len(self.variant.core_names))])
                    for v in self.base.vectors(metric, 0)]
        if side == "B":
            return self.variant.vectors(metric, len(self.base.core_names))
        raise ValueError(f"side {side!r} (allowed: A for the base, B for the variant)")


def _row(metric, kind, n, ma, va, mb, vb, md, vd, lo, hi):
    gain = vd and (va + vb) / vd
    if vd == 0:
        gain = float("inf") if va + vb > 0 else float("nan")
    return {"metric": metric, "kind": kind, "a": ma, "b": mb, "diff": md, "diff_lo": lo, "diff_hi": hi,
            "a_sd": np.sqrt(va), "b_sd": np.sqrt(vb), "diff_sd": np.sqrt(vd), "pairing_gain": gain, "games": n}


def pair_rows(s: PairSums, level: float = 0.95) -> list[dict]:
    """One row per metric: A, B, the paired difference with its fixed-size interval, and the pairing's gain."""
    n = s.core.n
    ka, kb = len(s.base.core_names), len(s.variant.core_names)
    rows = []
    common = [m for m in s.base.core_names if m in s.variant.core_names]
    for m in common:
        i, j = s.base.core_names.index(m), ka + s.variant.core_names.index(m)
        c = np.zeros((3, ka + kb))
        c[0, i], c[1, j], c[2, j], c[2, i] = 1, 1, 1, -1
        mean, var = s.core.contrast(c)
        lo, hi = fixed_bounds(mean[2:], var[2:], n, level)
        rows.append(_row(m, s.base.core_kinds[s.base.core_names.index(m)], n, mean[0], var[0], mean[1], var[1],
                         mean[2], var[2], float(lo[0]), float(hi[0])))
    for m in s.variant.core_names:          # only in B (a sweep cell with more players): its value, no difference
        if m not in common:
            c = np.zeros(ka + kb)
            c[ka + s.variant.core_names.index(m)] = 1
            mean, var = s.core.contrast(c)
            nan = float("nan")
            rows.append(_row(m, s.variant.core_kinds[s.variant.core_names.index(m)], n, nan, nan, mean[0], var[0],
                             nan, nan, nan, nan))
    if not s.base.cooperative and not s.variant.cooperative:
        rows.append(_spread_row(s, n, level))
    if s.item_index:
        sa, sa2, sb, sb2, sab = s.items
        nn = max(n, 1)
        ma, mb = sa / nn, sb / nn
        dof = max(n - 1, 1)
        va = np.maximum(sa2 - nn * ma ** 2, 0) / dof
        vb = np.maximum(sb2 - nn * mb ** 2, 0) / dof
        sd2 = sa2 + sb2 - 2 * sab
        md = mb - ma
        vd = np.maximum(sd2 - nn * md ** 2, 0) / dof
        lo, hi = fixed_bounds(md, vd, n, level)
        for k, (i, _j) in enumerate(s.item_index):
            rows.append(_row(s.base.item_names[i], "item", n, ma[k], va[k], mb[k], vb[k], md[k], vd[k],
                             float(np.atleast_1d(lo)[k]), float(np.atleast_1d(hi)[k])))
    for grp in s.groups:            # per hero, per tower...: rows with their group, label and measure
        rows += grp.rows(n, level)
    return rows


def _spread_row(s: PairSums, n: int, level: float) -> dict:
    """seat_spread: max - min seat win rate. A and B are plug-in values; the difference's interval bounds the
    max-min over every pair of seat contrasts (each at level 1 - (1 - level)/J, so all hold together); the gain
    is that of the contrast of the seats that are highest and lowest now."""
    from .sequential import parse_question
    test = SequentialTest(parse_question("seat_spread(B) - seat_spread(A) > 0"), s.resolve)
    b = test.bounds(s.core, sequential=False, level=level)
    ka = len(s.base.core_names)
    wa = s.core.s[:s.base.players] / max(n, 1)
    wb = s.core.s[ka:ka + s.variant.players] / max(n, 1)
    c = np.zeros((3, len(s.core.s)))
    c[0, int(np.argmax(wa))] += 1
    c[0, int(np.argmin(wa))] -= 1
    c[1, ka + int(np.argmax(wb))] += 1
    c[1, ka + int(np.argmin(wb))] -= 1
    c[2] = c[1] - c[0]
    mean, var = s.core.contrast(c)
    return _row("seat_spread", "spread", n, mean[0], var[0], mean[1], var[1], b.estimate, var[2], b.lo, b.hi)


@dataclass
class PairedPlay:
    """What a paired run played: the sums per variant, the games, the timing and, in sequential mode, the looks."""

    sums: list[PairSums]
    games: int
    looks: list[dict]
    timing: dict
    interrupted: bool = False


def _next_look(played: int) -> int:
    """Looks at 1,000 games, then about every half of what was played (a fixed schedule: no look depends on the
    thread count or the chunk size)."""
    return FIRST_LOOK if played == 0 else played + min(max(FIRST_LOOK, played // 2), 500_000)


def play_paired(base: Scenario, variants: list[Scenario], games: int | None = None, threads: int | None = None,
                chunk_size: int = STUDY_CHUNK, target_ci: float | None = None, max_games: int = 10_000_000,
                target_on: str = "diff", until: SequentialTest | None = None, progress=None,
                client=None) -> PairedPlay:
    """Play ``base`` and each variant on the same seed and game indices, chunk by chunk, keeping only sums.

    Stops after ``games`` (default: the base's games), or with ``target_ci`` when every variant's 95% interval of
    its primary metrics (seat or team win rates; of their difference with ``target_on="diff"``, of the variant's own
    values with ``"value"``) is at most that wide, or with ``until`` when the sequential test (on the first variant)
    answers; both at ``max_games`` at most. ``progress``: a callable given the games played so far. ``client``: a
    ``dask.distributed.Client``; the games then run as tasks on its workers, each task a range of game indices
    played for every scenario, its sums added here in game order (the same numbers: the sums are exact)."""
    for v in variants:
        if v.seed != base.seed:
            raise ValueError(f"variant {v.name!r} has seed {v.seed}, the base {base.seed}: a paired run needs one "
                             "seed (allowed: the same seed)")
    n_threads = (threads or 1) if client is not None else set_threads(threads)
    scenarios = [base] + list(variants)
    layouts = [Layout.of(sc) for sc in scenarios]
    sums = [PairSums.empty(layouts[0], lay) for lay in layouts[1:]]
    t0 = time.perf_counter()
    compiled = [(spec, spec.compile_scenario(sc)) for spec, sc in ((sc.spec(), sc) for sc in scenarios)]
    if client is None:
        for (spec, comp), sc in zip(compiled, scenarios):
            play_chunk(spec, comp, sc, 0, 1, n_threads)          # compiles or loads the kernel
        play = _LocalRanges(compiled, scenarios, layouts, chunk_size, n_threads)
    else:
        from .paired_dask import DaskRanges
        play = DaskRanges(client, compiled, scenarios, layouts, chunk_size, n_threads)     # prepares every worker
    compile_s = time.perf_counter() - t0
    adaptive = target_ci is not None or until is not None
    cap = max_games if adaptive else (games if games is not None else base.games)
    played, looks, sim_s, interrupted = 0, [], 0.0, False
    try:
        while played < cap:
            look = min(_next_look(played), cap) if adaptive else cap
            t = time.perf_counter()
            for n in play(sums, played, look):      # games played and added, in order
                played += n
                if progress is not None:
                    progress(played)
            sim_s += time.perf_counter() - t
            if until is not None:
                got = until.look(sums[0].core)
                looks.append({"games": played, "estimate": got.estimate, "lo": got.lo, "hi": got.hi,
                              "decision": got.decision})
                if got.decision is not None:
                    break
            elif target_ci is not None and max_width(sums, target_on) <= target_ci:
                break
    except KeyboardInterrupt:
        interrupted = True
    timing = {"compile_s": round(compile_s, 3), "simulate_s": round(sim_s, 3), "threads": n_threads,
              "wall_s": round(time.perf_counter() - t0, 3)}
    if client is not None:
        timing.update(executor="dask", workers=len(client.nthreads()))
    return PairedPlay(sums, played, looks, timing, interrupted)


def play_range(compiled, scenarios, layouts, sums, start: int, stop: int, chunk_size: int, threads: int):
    """Play games start .. stop-1 of every scenario, chunk by chunk, and add each pair's to its sums; yields each
    chunk's games once they are added."""
    for game0 in range(start, stop, chunk_size):
        n = min(chunk_size, stop - game0)
        (spec, comp), lay = compiled[0], layouts[0]
        chunk = play_chunk(spec, comp, scenarios[0], game0, n, threads)
        core_a, items_a, own_a = lay.core(chunk), lay.items(chunk), lay.own(chunk)
        for (spec, comp), sc, lay, s in zip(compiled[1:], scenarios[1:], layouts[1:], sums):
            chunk = play_chunk(spec, comp, sc, game0, n, threads)     # one variant's chunk at a time
            s.add(core_a, lay.core(chunk), items_a, lay.items(chunk), own_a, lay.own(chunk))
        yield n


@dataclass
class _LocalRanges:
    """Plays ranges of games on this machine's threads (play_paired's counterpart of ``paired_dask.DaskRanges``)."""

    compiled: list
    scenarios: list
    layouts: list
    chunk_size: int
    threads: int

    def __call__(self, sums, start: int, stop: int):
        return play_range(self.compiled, self.scenarios, self.layouts, sums, start, stop, self.chunk_size,
                          self.threads)


def max_width(sums: list[PairSums], target_on: str = "diff") -> float:
    """The widest 95% interval of the primary metrics (seat or team win rates) over the variants."""
    widest = 0.0
    for s in sums:
        for row in pair_rows_core_wins(s):
            if target_on == "diff":
                widest = max(widest, row["diff_hi"] - row["diff_lo"])
            else:
                widest = max(widest, 2 * 1.959963984540054 * row["b_sd"] / np.sqrt(max(row["games"], 1)))
    return widest


def pair_rows_core_wins(s: PairSums) -> list[dict]:
    return [r for r in pair_rows(_without_items(s)) if r["kind"] in ("seat", "team")]


def _without_items(s: PairSums) -> PairSums:
    return PairSums(s.base, s.variant, s.core, np.zeros((5, 0)), [], [])


__all__ = ["Layout", "PairSums", "PairedPlay", "play_paired", "play_range", "pair_rows", "DEFAULT_ALPHA", "STUDY_CHUNK"]
