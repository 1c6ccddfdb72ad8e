"""``balance check``: play each scenario a look at a time until every claim of its ``[checks]`` table is decided
(pass or fail) or the game cap is reached (inconclusive), with anytime-valid intervals (``confseq``)."""
from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from ...stats.results import Results
from ...scenario.model import Scenario
from ..shown import Shown
from . import claims as _claims

FIRST_LOOK = 1_000
ALPHA = 0.05
PASS, FAIL, INCONCLUSIVE = "pass", "fail", "inconclusive"
NOT_APPLICABLE = _claims.NOT_APPLICABLE     # a claim the lineup cannot test: reported, and no part of the outcome
EXIT_CODES = {PASS: 0, FAIL: 1, INCONCLUSIVE: 3}
COLUMNS = ["scenario", "key", "claim", "outcome", "estimate", "ci_low", "ci_high", "games", "bound_low",
           "bound_high", "reason"]


def looks(cap: int) -> list[int]:
    """Games played at each look: 1,000, then doubling, ending at the cap (the schedule depends on nothing else)."""
    out, n = [], min(FIRST_LOOK, cap)
    while n < cap:
        out.append(n)
        n *= 2
    return out + [cap]


@dataclass
class ScenarioCheck:
    """One scenario's claims: ``claims`` (one row per claim, see COLUMNS), ``results`` of every game played,
    ``baseline`` (the metrics compared with a saved run, or None)."""

    name: str
    source: str | None
    claims: pd.DataFrame
    results: Results
    baseline: pd.DataFrame | None = None
    notes: tuple[str, ...] = ()         # what the loader did (seats cycled to players): Scenario.notes

    @property
    def outcome(self) -> str:
        return _worst(self.claims["outcome"])


def _worst(outcomes) -> str:
    """The outcome of several claims: fail, else inconclusive, else pass (a claim not applicable counts for none)."""
    outcomes = set(outcomes)
    return FAIL if FAIL in outcomes else INCONCLUSIVE if INCONCLUSIVE in outcomes else PASS


def check_scenario(sc: Scenario, cap: int, *, threads=None, chunk_size=None, target_ci=None, alpha=ALPHA,
                   baseline: Results | None = None, progress=None, stepper=None) -> ScenarioCheck:
    """Decide ``sc.checks`` on at most ``cap`` games; with a ``baseline`` play all ``cap`` games and compare.
    ``stepper``: what plays the games (default: a :class:`~balance.run.stepper.Stepper` of ``sc``)."""
    from ...run.runner import DEFAULT_CHUNK
    from ...run.stepper import Stepper
    from .baseline import compare

    checks = sc.checks
    step = stepper if stepper is not None else Stepper(sc, threads, chunk_size or DEFAULT_CHUNK)
    decided: dict[str, tuple[str, _claims.Look]] = {}
    last: list[_claims.Look] = []
    for n in looks(cap):
        step.play_to(n)
        if checks is None or not checks.given():
            if baseline is None:        # nothing claimed and nothing to compare: one look says so
                break
            continue
        last = _claims.evaluate(step.agg.tallies, checks, alpha, cap)
        for look in last:
            if look.key in decided:
                continue
            if look.decision != _claims.UNDECIDED:        # pass, fail or not applicable
                decided[look.key] = (look.decision, look)
            elif target_ci is not None and look.high - look.low <= target_ci:
                decided[look.key] = (INCONCLUSIVE, look)
        if progress is not None:
            progress(sc.name, n, len(decided), len(last))
        if len(decided) == len(last) and baseline is None:
            break
    rows = []
    for look in last:
        outcome, at = decided.get(look.key, (INCONCLUSIVE, look))
        rows.append({"scenario": sc.name, "key": at.key, "claim": at.claim, "outcome": outcome,
                     "estimate": at.estimate, "ci_low": at.low, "ci_high": at.high, "games": at.games,
                     "bound_low": at.bound_low, "bound_high": at.bound_high, "reason": at.reason})
    results = step.results()
    moved = compare(results, baseline, alpha) if baseline is not None else None
    return ScenarioCheck(sc.name, sc.source, pd.DataFrame(rows, columns=COLUMNS), results, moved, sc.notes)


@dataclass
class CheckReport(Shown):
    """``balance.check``'s answer: every scenario's claims (``claims``, one DataFrame), the baseline comparison
    (``baseline``), the outcome (pass, fail or inconclusive) and the exit code ``balance check`` gives it."""

    FINDINGS = "balance.analysis.checks.text:findings"
    PLOTS = "balance.analysis.checks.plots:CheckPlots"
    SUMMARY = "balance.analysis.checks.text:summary"
    MARKDOWN = "balance.analysis.checks.text:markdown"

    scenarios: list[ScenarioCheck]
    alpha: float = ALPHA
    meta: dict = field(default_factory=dict)

    @property
    def claims(self) -> pd.DataFrame:
        frames = [s.claims for s in self.scenarios if len(s.claims)]
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=COLUMNS)

    @property
    def baseline(self) -> pd.DataFrame:
        frames = [s.baseline.assign(scenario=s.name) for s in self.scenarios if s.baseline is not None]
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()

    @property
    def outcome(self) -> str:
        return _worst(self.claims["outcome"])

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.outcome]

    def to_junit(self) -> str:
        from .text import junit
        return junit(self)

    def to_dict(self) -> dict:
        from ...stats.results import json_safe
        return json_safe({"outcome": self.outcome, "exit_code": self.exit_code, "alpha": self.alpha,
                          "findings": list(self.findings["text"]), "claims": self.claims.to_dict(orient="records"),
                          "baseline": self.baseline.to_dict(orient="records"), **self.meta})


def check(scenarios, *, games: int | None = None, seed=None, players=None, threads=None, chunk_size=None,
          target_ci=None, alpha: float = ALPHA, baseline=None, sets: dict | None = None,
          progress=None) -> CheckReport:
    """Check the ``[checks]`` claims of one scenario or several (paths, dicts or Scenarios).

    ``games`` is the game cap of each scenario (default: its ``games``); ``target_ci`` stops a claim as
    inconclusive once its interval is at most that wide without deciding it; ``baseline`` a folder written by
    ``balance run --out`` (or a Results) to compare the run with. Raises ScenarioError or ValueError on bad input."""
    from ...scenario.model import load_scenario

    if isinstance(scenarios, (str, Scenario, dict)) or hasattr(scenarios, "__fspath__"):
        scenarios = [scenarios]
    if not 0 < alpha < 1:
        raise ValueError(f"alpha={alpha!r}: out of range (allowed: a number between 0 and 1)")
    before = Results.load(baseline) if baseline is not None and not isinstance(baseline, Results) else baseline
    loaded = []
    for s in scenarios:
        over = dict(sets or {}, seed=seed, players=players)
        sc = load_scenario(s.to_dict() | ({"checks": s.checks.given()} if s.checks else {}), **over) \
            if isinstance(s, Scenario) else load_scenario(s, **over)
        if before is not None and before.tallies.game != sc.game:
            raise ValueError(f"baseline: a run of {before.tallies.game}, not of {sc.game} (allowed: a folder "
                             f"`balance run --out` wrote for a scenario of {sc.game})")
        loaded.append(sc)
    done = [check_scenario(sc, games or sc.games, threads=threads, chunk_size=chunk_size, target_ci=target_ci,
                           alpha=alpha, baseline=before, progress=progress) for sc in loaded]
    return CheckReport(done, alpha, {"games_cap": games, "target_ci": target_ci,
                                     "baseline": str(baseline) if baseline is not None else None})
