"""``balance design``: find rule or component values that make a scenario's claims true, with a guarantee.

:mod:`.space` reads what may change (``--vary``) and draws the candidates; :mod:`.search` races them on common random
numbers and confirms the best on fresh seeds with ``balance check``'s anytime-valid intervals; :mod:`.result` is what
it found. The method and its limits: docs/studies.md, "balance design".
"""
from __future__ import annotations

import time

from ...core.toml import toml_value
from ...run.runner import DEFAULT_CHUNK
from ...scenario.claims import Checks
from ...scenario.model import Scenario, ScenarioError, load_scenario
from ..studies.study import as_scenario, dotted
from ..tuning.search import search_seed
from .search import Candidate, confirm, race
from .space import candidates as draw, change, parse_vary, renamed, vary_label

DEFAULT_CANDIDATES = 16
DEFAULT_FIRST_ROUND = 1_000
DEFAULT_TRIES = 3
ALPHA = 0.05
MEASURES = {"seat_gap": "seat_gap_max", "role_gap": "role_gap_max", "hero_gap": "role_gap_max",
            "item_lift": "item_lift_max"}


class DesignError(ValueError):
    """Bad input to ``design``: one line naming the option, the value and what is allowed."""


def _goals(base: Scenario, goals) -> Scenario:
    """``base`` with ``goals`` (a dict in the ``[checks]`` format, a Checks, or None for the scenario's own claims) as
    its claims, checked against the game."""
    if goals is None:
        if base.checks is None or not base.checks.given():
            raise DesignError("--goal: the scenario claims nothing and no --goal was given (allowed: --goal KEY=VALUE "
                              "in the [checks] format, such as --goal role_gap_max=0.10)")
        return base
    given = goals.given() if isinstance(goals, Checks) else dict(goals)
    if not given:
        raise DesignError("--goal: no claim given (allowed: KEY=VALUE in the [checks] format)")
    d = base.to_dict()
    d["checks"] = given
    checked = load_scenario(d)              # the claims checked against the game, each problem one line
    return base.model_copy(update={"checks": checked.checks})     # the file it came from kept, for the fragment


def _varies(vary) -> list[str]:
    if isinstance(vary, dict):
        out = []
        for k, v in vary.items():
            if isinstance(v, str):
                out.append(f"{k}={v}")
            elif isinstance(v, range):
                out.append(f"{k}={v.start}..{v.stop - 1}")
            else:                           # each value as TOML, as the command line gives it
                out.append(f"{k}=" + ",".join(x if isinstance(x, str) else toml_value(x) for x in v))
        return out
    return [vary] if isinstance(vary, str) else list(vary)


def design(scenario=None, vary=(), goals=None, *, minimise: str | None = None, games: int | None = None,
           seed: int | None = None, players: int | None = None, sets: dict | None = None,
           candidates: int = DEFAULT_CANDIDATES, first_round: int = DEFAULT_FIRST_ROUND, tries: int = DEFAULT_TRIES,
           alpha: float = ALPHA, strength: str | None = None, threads: int | None = None, progress=None,
           client=None):
    """Search the values of the ``vary`` keys (``["rules.round_limit=9..13"]`` or ``{"rules.round_limit":
    range(9, 14)}``) for a setting whose claims (``goals``, in the ``[checks]`` format; default the scenario's own)
    hold, preferring the smallest change from the scenario's values or, with ``minimise`` (``role_gap``,
    ``seat_gap``, ``item_lift``), the smallest value of that measure; confirm it on the scenario's own seed with
    ``balance check``'s anytime-valid intervals (at most ``games`` games each, default the scenario's).
    ``strength``: "tuned" or "lookahead" confirms the recommendation with those players too. Returns a
    :class:`~balance.analysis.design.result.Design`."""
    from ...run.stepper import Stepper, play_together
    from .result import Design

    t0 = time.perf_counter()
    for name, value, least in (("candidates", candidates, 1), ("first_round", first_round, 100),
                               ("tries", tries, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise DesignError(f"{name}={value!r}: out of range (allowed: an integer of at least {least})")
    if not 0 < alpha < 1:
        raise DesignError(f"alpha={alpha!r}: out of range (allowed: a number between 0 and 1)")
    if strength not in (None, "tuned", "lookahead"):
        raise DesignError(f"--strength {strength}: not a strength (allowed: tuned, lookahead)")
    base = _goals(as_scenario(scenario, games=games, seed=seed, players=players, **dotted(sets)), goals)
    axes = [parse_vary(v, base) for v in _varies(vary)]
    if not axes:
        raise DesignError("--vary: nothing may change (allowed: one or more --vary KEY=RANGE)")
    if len({a.key for a in axes}) != len(axes):
        raise DesignError("--vary: a key given twice (allowed: each key once)")
    measure_key = None
    if minimise is not None:
        measure_key = MEASURES.get(minimise)
        if measure_key is None:
            raise DesignError(f"--minimise {minimise}: not a measure (allowed: {', '.join(MEASURES)})")
    sseed = search_seed(base.seed)
    cands = []
    for i, values in enumerate(draw(axes, candidates, base.seed)):
        try:
            sc = as_scenario(base, seed=sseed, **dotted(dict(zip((a.key for a in axes), values))))
        except ScenarioError as err:        # values each fine alone, not together
            raise renamed(err, vary_label(base, ", ".join(a.key for a in axes))) from None
        cands.append(Candidate(i, values, change(axes, values), sc))
    for c in cands:
        c.stepper = Stepper(c.scenario, threads, DEFAULT_CHUNK)
    checks = base.checks
    if measure_key is not None and getattr(checks, measure_key) is None:
        checks = Checks(**checks.given(), **{measure_key: 1.0})      # measured only: a bound every value meets
    say = progress or (lambda *a: None)
    interrupted = False
    try:
        rounds = race(cands, checks, first_round=first_round, tries=tries, alpha=alpha, minimise=measure_key,
                      play=lambda plays: play_together(plays, client), progress=lambda row: say("round", row))
    except KeyboardInterrupt:
        interrupted, rounds = True, []
    confirmations, stronger = [], None
    finalists = [c for c in cands if c.out_after is None][:tries] if not interrupted else []
    try:
        confirmations = confirm(finalists, lambda c: _claimed(c.scenario, base), base.games, alpha, tries,
                                progress=lambda c, outcome: say("confirm", (c, outcome)))
        if confirmations and confirmations[-1].outcome == "pass" and strength is not None:
            stronger = _stronger(cands[[c.index for c in cands].index(confirmations[-1].candidate)], base,
                                 strength, alpha / tries, threads, say)
    except KeyboardInterrupt:
        interrupted = True
    current = None
    if confirmations and confirmations[-1].outcome == "pass":      # the scenario as it is, on the same games
        step = Stepper(base, threads, DEFAULT_CHUNK)
        play_together([(step, confirmations[-1].results.tallies.games)], client)
        current = step.results()
    meta = {"scenario": base.name, "game": base.spec().name, "title": base.spec().title, "seed": base.seed,
            "search_seed": sseed, "games_cap": base.games, "alpha": alpha, "tries": tries, "minimise": minimise,
            "strength": strength, "claims": base.checks.given(), "interrupted": interrupted,
            "seconds": time.perf_counter() - t0}
    return Design(base, axes, cands, rounds, confirmations, stronger, current, meta)


def _claimed(sc: Scenario, base: Scenario) -> Scenario:
    """``sc`` on ``base``'s seed and games with ``base``'s claims (a Scenario's dict leaves its claims out)."""
    return load_scenario(sc.to_dict() | {"checks": base.checks.given()}, seed=base.seed, games=base.games)


def _stronger(c: Candidate, base: Scenario, strength: str, alpha: float, threads, say):
    """The recommendation confirmed again with stronger players (``analysis.strength.levels``)."""
    from ..checks.run import check_scenario
    from ..strength.levels import lookahead_level, tuned_level
    sc = _claimed(c.scenario, base)
    if strength == "lookahead":
        level = lookahead_level(sc, None)
    else:
        level, _ = tuned_level(sc, None, threads, lambda line: say("strength", line))
    if level is None:
        raise DesignError(f"--strength {strength}: {base.spec().title} has no such level for this scenario "
                          "(no lookahead strategy, or no tuning confirmed a gain)")
    played = load_scenario(level.scenario.to_dict() | {"checks": base.checks.given()})
    say("strength", f"confirming with {strength} players")
    return check_scenario(played, base.games, alpha=alpha, threads=threads)


__all__ = ["ALPHA", "DesignError", "design"]
