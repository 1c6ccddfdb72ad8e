"""Contrast variants: the one-key changes a game always compares itself with (``GameSpec.contrasts``).

Each applicable :class:`~balance.games.Contrast` gives (label, {key: value}) for the scenario; the variant is the
scenario with those keys applied as ``--set`` keys (``balance.scenario.layers`` through :func:`load_scenario`), played
with the same seed and as many games as the scenario played. Games draw only from their own (seed, game) streams, so the
two runs share their random numbers: a variant that changes nothing plays exactly the same games. Only a variant's
games and wins are kept (the records :meth:`Results.with_contrasts` stores in the meta); the difference's interval
is computed unpaired (``stats.team.contrast_frame``). Contrasts are played for co-operative games, whose metric is
the team's win rate; a competitive game has no single rate to compare and plays none.
"""
from __future__ import annotations

import time
from dataclasses import replace

from ..stats.results import Results
from ..scenario.model import Scenario, ScenarioError, load_scenario


def variants(scenario: Scenario) -> list[tuple[object, str, dict, Scenario]]:
    """(contrast, label, sets, variant scenario) for each of the game's contrasts that applies to the scenario."""
    spec = scenario.spec()
    if not spec.cooperative:
        return []
    out = []
    for contrast in spec.contrasts:
        got = contrast.overrides(scenario)
        if got is None:
            continue
        label, sets = got
        base = scenario.to_dict()
        try:
            variant = load_scenario(base, **{k if "." in k else f"{k}.": v for k, v in sets.items()})
        except ScenarioError as err:
            raise ScenarioError(f"<contrast {contrast.name}>", f"the variant {label!r} cannot be built: {err}")
        out.append((contrast, str(label), dict(sets), variant))
    return out


def play(results: Results, scenario: Scenario, options) -> Results:
    """The results with a record of each contrast variant, each played with ``options`` (run options: threads,
    chunk size; no checkpoint, target or kept games) for as many games as ``results`` holds. An interrupted run, or
    one of no games, plays none."""
    from .runner import run

    found = variants(scenario)
    if not found or results.meta.get("interrupted") or results.tallies.games == 0:
        return results
    plain = replace(options, keep_games=0, target_ci=None, checkpoint=None, resume=None, contrasts=False)
    records = []
    started = time.perf_counter()
    for contrast, label, sets, variant in found:
        variant = load_scenario(variant.to_dict(), games=results.tallies.games)
        played = run(variant, plain)
        if played.meta.get("interrupted"):
            break
        t = played.tallies
        records.append({"name": contrast.name, "label": label, "doc": contrast.doc, "sets": sets, "games": t.games,
                        "wins": int(t.seat_wins[0]), "scenario_hash": variant.hash()})
    # what the variants cost beside the run's own games (a run's wall and games/s are the scenario's alone)
    timing = dict(results.meta.get("timing") or {}, contrast_games=sum(r["games"] for r in records),
                  contrasts_s=round(time.perf_counter() - started, 3))
    return results.with_contrasts(records, timing)
