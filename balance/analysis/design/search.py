"""The search and the guarantee of ``balance design``.

**Search** (on a seed derived from the scenario's, never the scenario's own): every candidate plays the same games
(common random numbers). Round r plays each surviving candidate on to ``first_round`` x 2^r games and ranks them:
first the candidates whose every claim already passes at this look, by the objective (the smallest change from the
scenario's values, or the smallest value of the measure to minimise); then the undecided ones, by their slack (the
smallest distance of a claim's estimate inside its bound, in half-widths of its interval); then the failing ones,
likewise. The better half goes on, until ``tries`` candidates are left. Each look's intervals are those of
``balance check`` with the error rate split over the candidates of the round (Bonferroni), so "every candidate fails"
at a round is a statement about all of them at once.

**Guarantee** (on the scenario's own seed, which no search round plays): the finalists are confirmed in their order
with ``balance check``'s anytime-valid procedure, each with ``alpha / tries`` of the error rate; the first whose every
claim passes is the recommendation. Whatever the search did, a confirmed setting's claims are all true with
probability at least 1 - alpha (a union bound over at most ``tries`` confirmations, each valid at any stopping look).
None passing is reported as such: no candidate tried could be confirmed.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..checks import claims as _claims
from ..checks.run import check_scenario

PASS, FAIL, UNDECIDED = _claims.PASS, _claims.FAIL, _claims.UNDECIDED


def margin(look: _claims.Look) -> float:
    """How far a claim's estimate lies inside its bound (negative: outside), in half-widths of its interval."""
    half = max((look.high - look.low) / 2, 1e-12)
    if look.key.endswith("_max"):
        inside = look.bound_high - look.estimate
    elif math.isnan(look.bound_high):            # an order: every margin above 0
        inside = look.estimate
    else:
        inside = min(look.estimate - look.bound_low, look.bound_high - look.estimate)
    return inside / half


@dataclass
class Candidate:
    index: int
    values: tuple
    change: float                     # distance from the scenario's values (space.change)
    scenario: object                  # on the search seed
    stepper: object = None
    looks: list = field(default_factory=list)        # at its last round
    rounds: int = 0
    out_after: int | None = None      # the round after which it was dropped

    @property
    def status(self) -> str:
        decisions = {look.decision for look in self.looks if look.decision != _claims.NOT_APPLICABLE}
        return FAIL if FAIL in decisions else UNDECIDED if UNDECIDED in decisions else PASS

    @property
    def slack(self) -> float:
        m = [margin(look) for look in self.looks if look.decision != _claims.NOT_APPLICABLE]
        return min(m) if m else 0.0

    def measure(self, key: str) -> float:
        return next((look.estimate for look in self.looks if look.key == key), math.nan)


def rank_key(c: Candidate, minimise: str | None):
    order = {PASS: 0, UNDECIDED: 1, FAIL: 2}[c.status]
    if order == 0:
        return (0, c.measure(minimise) if minimise else c.change, -c.slack, c.index)
    return (order, -c.slack, c.change, c.index)


def race(cands: list[Candidate], checks, *, first_round: int, tries: int, alpha: float, play, minimise=None,
         progress=None) -> list[dict]:
    """Successive halving until ``tries`` candidates are left (ranked best first in ``cands`` order afterwards);
    ``play([(stepper, n)])`` plays steppers on. Returns one row per round."""
    alive, rounds, r, n = list(cands), [], 0, first_round
    while True:
        play([(c.stepper, n) for c in alive])
        a = alpha / len(alive)
        for c in alive:
            c.looks = _claims.evaluate(c.stepper.agg.tallies, checks, a, n)
            c.rounds = r + 1
        alive.sort(key=lambda c: rank_key(c, minimise))
        keep = max(tries, math.ceil(len(alive) / 2)) if len(alive) > tries else len(alive)
        rounds.append({"round": r, "games": n, "candidates": len(alive), "kept": keep,
                       "passing": sum(c.status == PASS for c in alive),
                       "failing": sum(c.status == FAIL for c in alive), "leader": alive[0].index})
        if progress is not None:
            progress(rounds[-1])
        if len(alive) <= tries:
            break
        for c in alive[keep:]:
            c.out_after = r
        alive, r, n = alive[:keep], r + 1, 2 * n
    finalists = {id(c): i for i, c in enumerate(alive)}
    cands.sort(key=lambda c: (0, finalists[id(c)]) if id(c) in finalists else (1, -(c.out_after or 0),
                                                                                    rank_key(c, minimise)))
    return rounds


@dataclass
class Confirmation:
    candidate: int
    outcome: str                        # pass, fail or inconclusive (balance check's words)
    claims: object                      # its claims DataFrame (balance check's columns)
    results: object                    # the games it played
    alpha: float


def confirm(finalists: list, scenario_for, cap: int, alpha: float, tries: int, stepper_for=None,
            progress=None) -> list[Confirmation]:
    """Confirm the finalists in order on the scenario's own seed, each with alpha / tries, until one passes.
    ``scenario_for(candidate)``: its scenario on that seed, with the claims as its ``[checks]``."""
    out = []
    for c in finalists[:tries]:
        sc = scenario_for(c)
        if sc.checks is None or not sc.checks.given():
            raise ValueError("a confirmation without claims would pass whatever the games: nothing to confirm")
        done = check_scenario(sc, cap, alpha=alpha / tries,
                              stepper=stepper_for(c, sc) if stepper_for is not None else None)
        out.append(Confirmation(c.index, done.outcome, done.claims, done.results, alpha / tries))
        if progress is not None:
            progress(c, done.outcome)
        if done.outcome == PASS:
            break
    return out
