"""The Python API for notebooks and scripts: ``simulate`` a scenario, get a
:class:`~balance.stats.results.Results`."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .stats.results import Results
from .run.runner import RunOptions, run
from .scenario.model import Scenario, load_scenario

_RUN_KEYS = ("threads", "chunk_size", "keep_games", "target_ci", "max_games", "progress", "checkpoint", "resume",
             "contrasts", "client")


def simulate(scenario: Scenario | str | Path | dict | None = None, **overrides: Any) -> Results:
    """Simulate a scenario (a Scenario, a TOML path, a dict, or None for the embedded default).

    Keyword arguments override scenario keys (``games``, ``players``, ``seed``, ``strategy``, ``seat_rotation``,
    ...) or set how to run (``threads``, ``chunk_size``, ``keep_games``, ``target_ci``, ``max_games``,
    ``progress``, ``contrasts``); run options never change a number in the scenario's results. ``contrasts=False``
    skips the game's contrast variants (co-operative games play them by default, see ``balance.run.contrasts``).
    ``client``: a ``dask.distributed.Client``; the games then run as tasks on its workers (``balance.run.executor``),
    with the same results as a local run.

    An interrupt (Ctrl-C, or Jupyter's stop button) returns the games finished so far, with
    ``meta["interrupted"]`` True; their numbers are those of an uninterrupted run of as many games.

    >>> r = simulate(games=2_000, seed=7)           # doctest: +SKIP
    >>> r.seats                                     # doctest: +SKIP
    """
    run_kw = {k: overrides.pop(k) for k in list(overrides) if k in _RUN_KEYS and overrides[k] is not None}
    for key in ("threads", "chunk_size", "max_games"):     # as the command line refuses them
        value = run_kw.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise ValueError(f"{key}={value!r}: out of range (allowed: an integer of at least 1)")
    if overrides.get("games") is not None and "target_ci" in run_kw:
        raise ValueError(f"games={overrides['games']} with target_ci={run_kw['target_ci']}: give one of them "
                         "(target_ci plays until the interval is narrow enough, up to max_games)")
    if isinstance(scenario, Scenario):
        if overrides:
            scenario = load_scenario(scenario.to_dict(), **overrides)
    else:
        scenario = load_scenario(scenario, **overrides)
    return run(scenario, RunOptions(**run_kw))


def tune(scenario: Scenario | str | Path | dict | None = None, *, seat: int | None = None, role: str | None = None,
         team: bool = False, **options: Any):
    """Tune one seat's (``seat=N``), one role's (``role="magic_user"``, with ``seat`` where several seats play it in
    turn) or the team's (``team=True``) strategy parameters for its win rate, the rest of the table fixed.

    Candidates (the scenario's values and Sobol points of the documented parameter box) race by successive halving on
    common random numbers of a seed derived from the scenario's; each round's leader is confirmed against the
    scenario's values on the scenario's own seed. Returns a :class:`~balance.analysis.tuning.Tuning`: ``findings``,
    ``tuned``, ``confirmation`` (win rates before and after, the paired gain with its 95% interval), ``candidates``,
    ``rounds``, ``scenario`` (the tuned one) and ``write_fragment(path)``. ``options``: ``sets`` (dotted --set
    changes), ``games`` (of each confirmation), ``seed``, ``players``, ``candidates``, ``first_round``, ``threads``,
    ``progress``, ``client`` (:func:`balance.analysis.tuning.tune`).

    >>> t = tune("scenarios/climbing_tower.toml", team=True, games=20_000)     # doctest: +SKIP
    >>> t.confirmation[["before", "after", "gain", "gain_lo", "gain_hi"]]     # doctest: +SKIP
    """
    from .analysis.tuning import tune as run_tune
    return run_tune(scenario, seat, role, team, **options)


def strength(scenario: Scenario | str | Path | dict | None = None, **options: Any):
    """Play the scenario as written, with its strategies tuned and with lookahead players, on the same games, and say
    for each main finding (seat gap, role gap, the commonest way to win, the strongest and weakest card or thing, the
    hardest label) whether it holds, shrinks, vanishes or reverses as play gets stronger, with 95% intervals.

    Returns a :class:`~balance.analysis.strength.Strength`: ``findings``, ``verdicts`` (one row per finding),
    ``table`` (one row per finding and level), ``levels``, ``results`` (each level's Results), ``tunings``.
    ``options``: ``games`` (of each level, default 2,000), ``seed``, ``players``, ``sets``, ``tuned`` (a tuned
    scenario instead of tuning here, or False), ``lookahead`` (False leaves it out), ``playouts``, ``threads``,
    ``progress`` (:func:`balance.analysis.strength.strength`).

    >>> s = strength("scenarios/haunted_tower.toml", games=2_000)     # doctest: +SKIP
    >>> s.verdicts[["what", "as_written", "strongest", "verdict"]]   # doctest: +SKIP
    """
    from .analysis.strength import strength as run_strength
    return run_strength(scenario, **options)


def design(scenario: Scenario | str | Path | dict | None = None, vary=(), goals=None, **options: Any):
    """Find values of the ``vary`` keys (``["rules.round_limit=9..13"]``) for which the claims ``goals`` (the
    ``[checks]`` format; default the scenario's own) hold, and confirm the best on the scenario's own seed with
    ``balance check``'s anytime-valid intervals. Returns a :class:`~balance.analysis.design.result.Design`:
    ``findings``, ``recommended``, ``claims`` (before and after), ``effects``, ``candidates``, ``rounds``,
    ``confirmations``, ``scenario`` and ``write_fragment(path)``. ``options``: ``minimise``, ``games``, ``seed``,
    ``players``, ``sets``, ``candidates``, ``first_round``, ``tries``, ``alpha``, ``strength``, ``threads``,
    ``progress``, ``client`` (:func:`balance.analysis.design.design`).

    >>> d = design("scenarios/climbing_tower.toml", ["rules.round_limit=9..13"],   # doctest: +SKIP
    ...            {"win_rate": [0.55, 0.65]})
    >>> d.recommended                                                             # doctest: +SKIP
    """
    from .analysis.design import design as run_design
    return run_design(scenario, vary, goals, **options)
