"""The search: candidates drawn from the parameter box, raced by successive halving on common random numbers, and
each stage's winner confirmed on the scenario's own seed, which no round of the search plays.

Candidates (:func:`stage_points`): the scenario's values, Sobol points of the whole box and of a box a quarter as
wide around the scenario's values; a later stage draws as many again in a narrower box around the winner so far, who
races with them. Each coordinate is rounded to a grid of about a hundredth of its range, so that a tuned value reads
as written. Every candidate plays the same games: games 0 .. n-1 of the *search seed*, a seed derived from the
scenario's. Round r of a stage plays each surviving candidate on to ``first_round`` x 2^r games (the games it played
before are kept, not replayed) and keeps the better half by win rate on those games (ties: the earlier candidate,
the scenario's values first), until one is left. Games go where they decide something: every candidate gets a few,
the last two most.

The search's own estimate of its winner is biased upwards (the best of many noisy estimates). What `tune` reports is a
*confirmation*: the leader and the scenario's values played on the scenario's seed (``games`` games each, the same
games for both), their win rates with Wilson intervals and the gain with its interval from the paired per-game
differences. Each stage's winner is confirmed as the stage ends (when it is a new one), so an interrupt keeps the
last confirmed winner; the result is that of the final stage's.
"""
from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass, field

import numpy as np

from ...core.rng import py_mix64
from ...run.runner import play_chunk, set_threads
from ...scenario.model import MAX_SEED, Scenario
from ...stats.intervals import wilson
from ..studies.sequential import fixed_bounds
from ..studies.study import as_scenario, dotted
from .play import DaskPlay, LocalPlay, Values
from .target import Target, TuneError, target

DEFAULT_CANDIDATES = 16
DEFAULT_FIRST_ROUND = 2_000
DEFAULT_STAGES = 2
LOCAL_WIDTH = 0.25              # the width of stage 0's local box, as a share of each parameter's range
SEARCH_SALT = 0x74756E65        # "tune": the search seed is mix64(seed ^ SEARCH_SALT)


def search_seed(seed: int) -> int:
    """The seed every search round plays: derived from the scenario's, never equal to it."""
    s = py_mix64(seed ^ SEARCH_SALT) & MAX_SEED
    return s if s != seed else (s + 1) & MAX_SEED


@dataclass
class Candidate:
    index: int
    values: np.ndarray
    source: str                  # "scenario" (its own values) or "sobol"
    scenario: Scenario           # on the search seed
    search: Values
    rounds: list = field(default_factory=list)      # the rounds it played
    out_after: int | None = None     # the round after which it was dropped


@dataclass
class Confirmation:
    """One leader against the scenario's values on the scenario's seed: win rates and the paired gain."""

    round: int
    candidate: int
    seed: int
    games: int
    counted: int
    before: float
    before_lo: float
    before_hi: float
    after: float
    after_lo: float
    after_hi: float
    gain: float
    gain_lo: float
    gain_hi: float
    identical: bool              # the leader is the scenario's values: the same games, a gain of exactly 0


def draw(tgt: Target, n: int, seed: int, centre: np.ndarray | None = None, width: float = 1.0) -> list[np.ndarray]:
    """``n`` scrambled Sobol points of the box, or of a box ``width`` times as wide around ``centre``, each
    coordinate rounded to its grid."""
    from scipy.stats import qmc
    if n <= 0:
        return []
    sobol = qmc.Sobol(len(tgt.params), scramble=True, seed=np.random.default_rng(seed))
    with warnings.catch_warnings():      # n need not be a power of two; the points are as good a sample
        warnings.simplefilter("ignore", UserWarning)
        units = sobol.random(n)
    return [np.array([p.value(x, None if centre is None else c, width)
                      for p, x, c in zip(tgt.params, u, centre if centre is not None else u)]) for u in units]


def stage_points(tgt: Target, stage: int, n: int, seed: int, centre: np.ndarray) -> list[tuple[np.ndarray, str]]:
    """A stage's new candidates. Stage 0: half of ``n`` over the whole box, half in a box a quarter as wide around
    the scenario's values (``centre``); stage s > 0: all ``n`` in a box 1 / 2^(s+2) as wide around the leader so
    far (``centre``)."""
    key = seed ^ (stage * 0x9E3779B9)
    if stage == 0:
        wide = draw(tgt, n // 2, key)
        return [(v, "sobol") for v in wide] + [(v, "near the scenario's") for v in
                                               draw(tgt, n - n // 2, key + 1, centre, LOCAL_WIDTH)]
    return [(v, f"near the leader (stage {stage + 1})") for v in draw(tgt, n, key, centre, LOCAL_WIDTH / 2 ** stage)]


def schedule(k: int, first_round: int) -> list[tuple[int, int]]:
    """(candidates, games each) of every round of successive halving from k candidates."""
    out, n = [], first_round
    while True:
        out.append((k, n))
        if k == 1:
            return out
        k, n = math.ceil(k / 2), 2 * n
        if k == 1:
            return out


def confirm(before: Values, after: Values, games: int, rnd: int, cand: int, seed: int,
            identical: bool) -> Confirmation:
    """The paired comparison of two candidates' values on games 0 .. games-1 of one seed."""
    counted = before.counted[:games]
    if not np.array_equal(counted, after.counted[:games]):
        raise RuntimeError("the games that count differ between two candidates of one seed")
    a = before.y[:games][counted].astype(np.float64)
    b = after.y[:games][counted].astype(np.float64)
    n = len(a)
    d = b - a
    lo, hi = fixed_bounds(d.mean(), d.var(ddof=1) if n > 1 else 0.0, n)
    (alo, ahi), (blo, bhi) = (tuple(float(x) for x in wilson(int(v.sum()), n)) for v in (a, b))
    return Confirmation(rnd, cand, seed, games, n, float(a.mean()), alo, ahi, float(b.mean()), blo, bhi,
                        float(d.mean()), float(lo), float(hi), identical)


def tune(scenario=None, seat: int | None = None, role: str | None = None, team: bool = False, *,
         sets: dict | None = None, games: int | None = None, seed: int | None = None, players: int | None = None,
         candidates: int = DEFAULT_CANDIDATES, first_round: int = DEFAULT_FIRST_ROUND, stages: int = DEFAULT_STAGES,
         threads: int | None = None, progress=None, client=None):
    """Tune one seat's (``seat``), one role's (``role``, with ``seat`` where several seats play it) or the team's
    (``team``) strategy parameters for its win rate, the rest of the table as the scenario has it.

    ``games``: games of each confirmation (default: the scenario's); ``seed``: the scenario's seed, on which the
    confirmation plays (the search plays a seed derived from it); ``sets``: dotted --set changes of the scenario.
    ``candidates``: new candidates of each stage; ``stages``: searches, each in a narrower box around the leader so
    far (:func:`stage_points`); ``first_round``: games each candidate plays in a stage's first round.
    ``progress(done, total)``: games played so far of about ``total``. ``client``: a ``dask.distributed.Client``
    whose workers play the candidates' games (the same numbers). Returns a
    :class:`~balance.analysis.tuning.result.Tuning`; an interrupt returns what was confirmed before it."""
    from .result import Tuning
    for name, value, least in (("candidates", candidates, 0), ("first_round", first_round, 100),
                               ("stages", stages, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise TuneError(f"{name}={value!r}: out of range (allowed: an integer of at least {least})")
    t0 = time.perf_counter()
    base = as_scenario(scenario, games=games, seed=seed, players=players, **dotted(sets))
    sseed = search_seed(base.seed)
    tgt = target(base, seat, role, team, lambda r: _role_slots(base.model_copy(update={"seed": sseed}), r,
                                                               first_round, threads))
    play = LocalPlay(threads) if client is None else DaskPlay(client, threads)
    cands: list[Candidate] = []

    def add(points) -> list[Candidate]:
        seen = {tuple(c.values) for c in cands}
        new = []
        for values, source in points:
            if tuple(values) not in seen:
                seen.add(tuple(values))
                new.append(Candidate(len(cands), values, source, tgt.scenario(base, values, sseed), Values()))
                cands.append(new[-1])
        return new

    plan = schedule(candidates + 1, first_round)
    per_stage = sum(k * n for k, n in plan) - sum(k * n // 2 for k, n in plan[1:])
    total = [stages * per_stage + base.games * (1 + stages)]
    done = [0]

    def step(k: int) -> None:
        done[0] += k
        if progress is not None:
            progress(done[0], total[0])

    rounds, confirmations, interrupted = [], [], False
    before, confirmed, leader = Values(), None, None
    try:
        for stage in range(stages):
            centre = tgt.defaults() if leader is None else leader.values
            points = stage_points(tgt, stage, candidates, sseed, centre)
            alive = add([(tgt.defaults(), "scenario")] + points) if leader is None else [leader] + add(points)
            if len(alive) == 1 and stage > 0:
                break
            plan = schedule(len(alive), first_round)
            for r, (_, n) in enumerate(plan):
                play([(c.search, c.scenario, n) for c in alive], tgt.objective, step)
                order = sorted(alive, key=lambda c: (-_score(c.search.mean(n)), c.index))
                keep = order[:math.ceil(len(order) / 2)] if r + 1 < len(plan) else order[:1]
                for c in alive:
                    c.rounds.append(len(rounds))
                    if c not in keep:
                        c.out_after = len(rounds)
                leader = order[0]
                rounds.append({"stage": stage, "round": len(rounds), "games": n, "candidates": len(alive),
                               "kept": len(keep), "leader": leader.index, "leader_win_rate": leader.search.mean(n),
                               "scenario_win_rate": cands[0].search.mean(n) if cands[0] in alive else float("nan")})
                alive = keep
            if leader.index != confirmed:           # the stage's winner, confirmed as the stage ends
                if not before.n:
                    play([(before, base, base.games)], tgt.objective, step)
                same = leader.index == 0
                after = before if same else Values()
                if not same:
                    play([(after, tgt.scenario(base, leader.values), base.games)], tgt.objective, step)
                confirmations.append(confirm(before, after, base.games, len(rounds) - 1, leader.index, base.seed,
                                             same))
                confirmed = leader.index
            else:
                total[0] -= base.games
    except KeyboardInterrupt:
        interrupted = True
    meta = {"scenario": base.name, "game": base.game, "title": base.spec().title, "source": base.source,
            "target": tgt.what, "metric": tgt.metric, "seed": base.seed, "search_seed": sseed,
            "confirm_games": base.games, "first_round": first_round, "stages": stages,
            "candidates": len(cands), "search_games": int(sum(c.search.n for c in cands)),
            "confirm_played": int(before.n + sum(0 if c.identical else c.games for c in confirmations)),
            "interrupted": interrupted, "timing": {"wall_s": round(time.perf_counter() - t0, 3), **play.describe}}
    return Tuning(tgt, base, cands, rounds, confirmations, meta)


def _score(x: float) -> float:
    return -1.0 if x != x else x


def _role_slots(probe: Scenario, role: int, games: int, threads: int | None) -> set[int]:
    """The lineup slots that play ``role`` in the first ``games`` games of ``probe`` (seating never depends on a
    strategy's parameters, so these are the slots of every candidate's games)."""
    spec = probe.spec()
    chunk = play_chunk(spec, spec.compile_scenario(probe), probe, 0, games, set_threads(threads))
    slots = np.asarray(chunk["seat_strategy"][:games])
    return {int(s) for s in np.unique(slots[np.asarray(chunk["seat_role"][:games]) == role])}
