"""Differential tests for The Haunted Tower, second half: every rule option at a non-default value, hero and seat
rotation and the stress variants of the components, kernel against reference event for event, and a check that the
stress variants reach the rare branches at all (machinery and cases: ``haunted_differential.py``).
"""
from __future__ import annotations

from collections import Counter

import pytest

from balance.games.haunted_tower import compile_scenario
from balance.games.haunted_tower import enums as E

from haunted_differential import (CASES, RUSHERS, STRESS_RULES, TABLE_CASES, TIE_RULES, TIE_SCORING,
                                  assert_same_game, mixed, play_case, scenario, stress_components)


@pytest.mark.parametrize("case", CASES[TABLE_CASES:], ids=[c[0] for c in CASES[TABLE_CASES:]])
def test_kernel_and_reference_play_the_same_games(case):
    play_case(case)


# --- the stress case reaches the rare branches ------------------------------------------------------------------

def test_stress_case_reaches_the_rare_branches():
    """The stress variants must actually drive the rare rules through both engines (and they must agree there):
    a mixed table for the monsters' abilities, items and trades, and Specter rushers for the Specter."""
    kinds, hit_outcomes, victories, shared_wins = Counter(), Counter(), Counter(), 0
    tie_components = {**stress_components(), "scoring": TIE_SCORING}
    for seats, turn_cap, rules, components, games in ((mixed(4), 60, STRESS_RULES, stress_components(), 120),
                                                      (RUSHERS, 100, STRESS_RULES, stress_components(), 80),
                                                      (RUSHERS, 100, TIE_RULES, tie_components, 60)):
        sc = scenario(len(seats), seats, turn_cap=turn_cap, rules=rules, components=components, seed=77)
        compiled = compile_scenario(sc)
        for game in range(games):
            ref = assert_same_game(sc, compiled, game)
            for kind, _p, _a, b, _c in ref.events:
                kinds[kind] += 1
                if kind == E.EV_HIT_ROLL:
                    hit_outcomes[b] += 1
            victories[ref.victory] += 1
            shared_wins += bin(ref.win_mask).count("1") > 1
    wanted = (E.EV_STOLEN, E.EV_FLY_AWAY, E.EV_RUSTED, E.EV_DRAIN, E.EV_HIT_ROLL, E.EV_BACK, E.EV_TRADE_IN,
              E.EV_POTION, E.EV_USED_UP, E.EV_OUT, E.EV_DEATH, E.EV_IMMUNE, E.EV_CANNOT_USE, E.EV_DROP, E.EV_TRADE,
              E.EV_HELD, E.EV_KILL, E.EV_RUN, E.EV_LEAVE, E.EV_TAKE, E.EV_WIN)
    missing = [E.EVENT_NAMES[k] for k in wanted if not kinds[k]]
    assert not missing, f"never reached: {missing} (seen {dict((E.EVENT_NAMES[k], n) for k, n in kinds.items())})"
    assert set(hit_outcomes) == set(range(len(E.HIT_NAMES))), f"hit outcomes seen: {hit_outcomes}"
    assert set(victories) == set(range(len(E.VICTORY_NAMES))), f"victories: {victories}"
    assert shared_wins, "no game ended in a tie for the most points"
