"""Headlines that pick the extreme of many groups (balance/analysis/stats/extremes.py and every finding that uses it):
fed synthetic outcomes, no kernel. Where every group is alike, the findings name no extreme at least 95% of the time;
where several groups are equally extreme, none of them is called THE extreme; where one group truly stands out with
enough games, it is named. Each works for any game: categories, counter groups, seats, tournaments, studies."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from balance.stats.results import _group_frame
from balance.stats.tallies import GroupTallies
from balance.stats.extremes import family_z, pick_extreme, widen
from balance.stats.findings import _gap, _lifts, _threats
from balance.stats.intervals import Z95, wilson
from balance.stats.team_findings import _extremes

TOWERS = [f"T{i:03d}" for i in range(420)]


def _towers(rng, p, games):
    """A Per tower table of binomial outcomes: win probability p[i] and games[i] games for tower i."""
    games = np.broadcast_to(games, len(p))
    wins = rng.binomial(games, p)
    lo, hi = wilson(wins, games)
    with np.errstate(invalid="ignore"):
        return pd.DataFrame({"tower": TOWERS[:len(p)], "games": games, "wins": wins, "win_rate": wins / games,
                             "ci_low": lo, "ci_high": hi})


def _kinds(findings) -> set[str]:
    return {f.kind for f in findings}


def _at_most_5_percent(count: int, runs: int) -> bool:
    """Whether ``count`` false claims in ``runs`` simulated runs fit an error rate of at most 5%: at most the 99.9%
    quantile of Binomial(runs, 0.05), so a procedure that errs 5% of the time fails this 1 time in 1,000."""
    from scipy.stats import binom
    return count <= binom.ppf(0.999, runs, 0.05)


def test_family_z_is_bonferroni_and_plain_for_one_group():
    assert family_z(1) == Z95
    assert family_z(420) == pytest.approx(3.848079, abs=1e-6)     # qnorm(1 - 0.025 / 420)
    lo, hi = widen(0.5, 0.4, 0.6, family_z(6))
    assert (lo, hi) == pytest.approx((0.5 - 0.1 * 2.638257 / Z95, 0.5 + 0.1 * 2.638257 / Z95), abs=1e-6)


def test_equal_towers_name_no_hardest_tower_at_least_95_percent_of_the_time():
    """420 towers of about 48 games each, all won 77.5% of the time (the shape of Climbing Tower at 20,000 games):
    the lowest tower's rate is low by chance alone, and the findings must not call it harder than the rest."""
    rng = np.random.default_rng(11)
    runs, low_claims, high_claims = 300, 0, 0
    for _ in range(runs):
        kinds = _kinds(_extremes(None, "tower", _towers(rng, np.full(420, 0.775), rng.poisson(48, 420))))
        low_claims += bool(kinds & {"hardest_label", "lowest_label"})
        high_claims += bool(kinds & {"easiest_label", "highest_label"})
    assert low_claims / runs <= 0.05 and high_claims / runs <= 0.05, (low_claims, high_claims)


def test_equally_hard_towers_are_not_called_the_hardest():
    """Ten towers truly at 45% among 410 at 80%: the lowest of them is below the rest by chance, so naming it THE
    hardest is wrong; the finding says the lowest lies below the overall rate and others cannot be told apart."""
    rng = np.random.default_rng(12)
    p = np.full(420, 0.80)
    p[::42] = 0.45
    runs, named, below = 200, 0, 0
    for _ in range(runs):
        f = _extremes(None, "tower", _towers(rng, p, 50))
        named += "hardest_label" in _kinds(f)
        low = [x for x in f if x.kind == "lowest_label"]
        if low:
            below += 1
            assert "cannot be told apart from it, so none is clearly the hardest" in low[0].text
            assert "95% CI adjusted for the 420 towers" in low[0].text and "the lowest win rate" in low[0].text
    assert _at_most_5_percent(named, runs) and below / runs >= 0.5, (named, below)


def test_a_truly_harder_tower_with_enough_games_is_named():
    rng = np.random.default_rng(13)
    p = np.full(20, 0.80)
    p[7] = 0.50
    runs, named = 100, 0
    for _ in range(runs):
        f = [x for x in _extremes(None, "tower", _towers(rng, p, 3000)) if x.kind == "hardest_label"]
        named += bool(f) and f[0].text.startswith("Of the 20 towers played, tower T007 is the hardest: ")
    assert named / runs >= 0.95, named


def test_equal_seats_show_no_clear_gap_at_least_95_percent_of_the_time():
    """Four seats of the same games with one winner each, all equally likely: the gap between the highest and the
    lowest is picked from 6 pairs, and its interval must allow for it."""
    rng = np.random.default_rng(14)
    runs, clear = 400, 0
    for _ in range(runs):
        wins = rng.multinomial(2000, [0.25] * 4)
        seats = pd.DataFrame({"seat": range(4), "games": 2000, "win_rate": wins / 2000})
        f = _gap(seats, "seat", lambda s: f"Seat {int(s)}", "seat_gap", True, "", "seats")
        clear += not f.text.startswith("No clear seat imbalance")
    assert _at_most_5_percent(clear, runs), clear
    assert "adjusted for the 6 pairs of 4 seats" in f.text


def _group(rng, effects, seat_games=8000, used_share=0.3, base=0.25, **kw):
    """A counter group whose things are used by 30% of seat-games each, with win rate base + effect when used."""
    g = GroupTallies.empty("value", [str(i) for i in range(len(effects))], ("taken", "flipped"), 1, "counters", **kw)
    g.used_pairs[:] = rng.binomial(seat_games, used_share, len(effects))
    g.unused_pairs[:] = seat_games - g.used_pairs
    g.used_wins[:] = rng.binomial(g.used_pairs, base + np.asarray(effects))
    g.unused_wins[:] = rng.binomial(g.unused_pairs, base)
    return g


def _fake_run(g, seat_games=8000):
    t = SimpleNamespace(seat_wins=np.array([seat_games // 4]), seat_games=np.array([seat_games]), games=2000)
    return SimpleNamespace(group=lambda name: _group_frame(t, g), tallies=t)


def test_things_with_no_lift_show_no_lift_at_least_95_percent_of_the_time():
    rng = np.random.default_rng(15)
    runs, lifts = 200, 0
    for _ in range(runs):
        g = _group(rng, np.zeros(12))
        lifts += any(f.kind == "lift" for f in _lifts(_fake_run(g), g))
    assert _at_most_5_percent(lifts, runs), lifts
    g = _group(rng, np.r_[0.2, np.zeros(11)])
    lift = next(f for f in _lifts(_fake_run(g), g) if f.kind == "lift")
    assert lift.text.startswith("Seats that had flipped of value 0 won") and "adjusted for the 12 values" in lift.text
    assert "the largest difference of the 12." in lift.text


def _monsters(rng, deaths, encounters=3000, besides=()):
    names = [f"m{i}" for i in range(len(deaths))]
    g = GroupTallies.empty("monster", names, ("encounters", "kills", "runs", "deaths"), 1, "counters", ratio_base=0)
    g.threat, g.threat_besides = (3, "deadliest", "deadlier"), tuple(besides)
    g.totals[:, 0] = encounters
    g.totals[:, 3] = rng.binomial(encounters, deaths)
    return g


def test_a_monster_that_kills_more_often_than_the_rest_is_named_the_deadliest():
    rng = np.random.default_rng(16)
    runs, named, false = 200, 0, 0
    for _ in range(runs):
        false += bool(_kinds(_threats(None, _monsters(rng, np.full(22, 0.08)))) & {"strongest_thing", "strong_thing"})
        deadly = np.full(23, 0.08)
        deadly[5], deadly[22] = 0.25, 0.60          # m22 is the boss, compared apart
        f = _threats(None, _monsters(rng, deadly, besides=("m22",)))
        named += f[0].kind == "strongest_thing" and f[0].text.startswith(
            "Of the 22 monsters met besides m22, the m5 is the deadliest: deaths per encounter ")
    assert _at_most_5_percent(false, runs) and named / runs >= 0.95, (false, named)


def test_the_haunted_tower_declares_its_monsters_threat_and_keeps_it_in_a_checkpoint():
    from balance.scenario import load_scenario
    from balance.stats.aggregate import Aggregator
    sc = load_scenario("scenarios/haunted_tower.toml")
    agg = Aggregator(sc.spec(), [s.strategy for s in sc.seats], sc.turn_cap, scenario=sc)
    monster = next(g for g in agg.tallies.groups if g.name == "monster")
    assert monster.threat == (3, "deadliest", "deadlier") and monster.counter_names[3] == "deaths"
    assert monster.threat_besides == (sc.components.specter,)
    state = agg.state()
    for g in state["tallies"]["groups"]:
        g.pop("threat", None), g.pop("threat_besides", None)       # as saved before groups had a threat
    again = Aggregator(sc.spec(), [s.strategy for s in sc.seats], sc.turn_cap, scenario=sc)
    again.restore(state)
    assert next(g for g in again.tallies.groups if g.name == "monster").threat == monster.threat
    assert "threat" not in next(g for g in agg.tallies.groups if g.name == "item").to_dict()


def _tournament(cooperative, ratings, tables=None):
    meta = {"ties": 0, "unfinished": 0}
    empty = pd.DataFrame(np.nan, index=pd.Index(ratings["strategy"], name="strategy"), columns=ratings["strategy"])
    no_gaps = pd.DataFrame(columns=["higher", "lower", "gap", "ci_low", "ci_high", "clear"])   # tested elsewhere
    return SimpleNamespace(cooperative=cooperative, ratings=pd.DataFrame(ratings), tables=tables, matrix=empty,
                           pair_games=None, meta=meta, gaps=no_gaps)


def test_a_tournament_calls_no_strategy_the_strongest_when_the_next_cannot_be_told_apart():
    from balance.analysis.tournament_findings import findings
    tables = pd.DataFrame({"table": ["a + a", "a + b", "b + b"], "games": 10_000, "wins": [5920, 5830, 5000]})
    tables["win_rate"] = tables.wins / tables.games
    coop = _tournament(True, {"strategy": ["skeleton_farmer", "climber", "deck_thinner"],
                              "team_win_rate": [0.592, 0.583, 0.50], "ci_low": [0.584, 0.575, 0.49],
                              "ci_high": [0.599, 0.591, 0.51], "teams": 3}, tables)
    text = [f.text for f in findings(coop)]
    assert findings(coop)[0].kind == "no_clear_extreme"
    assert "makes the strongest teams" not in text[0] and "No strategy makes clearly the strongest teams" in text[0]
    assert "climber: 58.3%" in text[0] and "the best team is" not in text[1]
    apart = _tournament(True, {"strategy": ["skeleton_farmer", "climber", "deck_thinner"],
                               "team_win_rate": [0.70, 0.583, 0.50], "ci_low": [0.692, 0.575, 0.49],
                               "ci_high": [0.708, 0.591, 0.51], "teams": 3}, tables)
    assert findings(apart)[0].text.startswith("skeleton_farmer makes the strongest teams")
    assert findings(apart)[0].kind == "strongest" and findings(apart)[0].estimate == 0.70
    # competitive: plain 95% intervals apart (0.280 > 0.275), but not once adjusted for the 5 strategies
    comp = _tournament(False, {"strategy": list("abcde"), "rating": [0.30, 0.255, 0.0, -0.2, -0.36],
                               "ci_low": [0.28, 0.235, -0.02, -0.22, -0.38],
                               "ci_high": [0.32, 0.275, 0.02, -0.18, -0.34],
                               "win_rate": [0.4, 0.38, 0.3, 0.25, 0.2]})
    text = [f.text for f in findings(comp)]
    assert "is the strongest" not in text[0] and "b: +0.26" in text[0] and "none is clearly the strongest" in text[0]
    assert text[1].startswith("e is the weakest (rating -0.36)")


def _study_rows(rng, diffs, se, **cols):
    d = np.asarray(diffs) + rng.normal(0, se, len(diffs))
    return pd.DataFrame({**cols, "diff": d, "diff_lo": d - Z95 * se, "diff_hi": d + Z95 * se})


def test_cards_say_which_removal_changes_a_metric_the_most_only_when_it_stands_apart():
    from balance.analysis.studies.cards import CardValues
    rng = np.random.default_rng(17)

    def said(diffs):
        t = _study_rows(rng, diffs, 0.01, card=[f"value {i}" for i in range(len(diffs))], metric="turns",
                        kind="length", a=48.0)
        t["b"] = t["a"] + t["diff"]
        v = CardValues(t.assign(pairing_gain=1.0, games=1000), "Building", {})
        return v.findings["text"][1]
    runs = 150
    moved = sum("No Building's removal changes mean turns beyond chance" not in said(np.zeros(12))
                for _ in range(runs))
    tied = sum("changes mean turns the most" in said(np.r_[0.2, 0.2, np.zeros(10)]) for _ in range(runs // 3))
    alone = sum("Removing Building value 3 changes mean turns the most" in said(np.r_[0, 0, 0, 0.3, np.zeros(8)])
                for _ in range(runs // 3))
    assert _at_most_5_percent(moved, runs) and _at_most_5_percent(tied, runs // 3) and alone == runs // 3, \
        (moved, tied, alone)


def test_a_sweep_calls_no_cell_the_highest_when_others_reach_it():
    from balance.analysis.studies.sweep import Sweep
    t = pd.DataFrame({"cell": [0, 1, 2], "players": ["2", "3", "4"], "metric": "win_rate", "kind": "team",
                      "value": [0.592, 0.583, 0.40], "value_lo": [0.584, 0.575, 0.39], "value_hi": [0.600, 0.591, 0.41],
                      "diff": [0.0, -0.009, -0.192], "diff_lo": [0.0, -0.012, -0.195], "diff_hi": [0.0, -0.006, -0.189],
                      "games": 10_000})
    found = Sweep(t, ["players"], {}).findings
    text = found["text"][0]
    assert found["kind"][0] == "no_clear_extreme" and found["estimate"][0] == 0.592
    assert text.startswith("The highest team win rate of the 3 cells as played: players=2 (59.20%; 95% CI adjusted")
    assert "1 other (players=3: 58.30%) cannot be told apart from it" in text


def test_compare_lists_an_item_as_changed_only_beyond_intervals_adjusted_for_every_item():
    from balance.analysis.studies.compare import Comparison
    rng = np.random.default_rng(18)
    runs, flagged = 200, 0
    for _ in range(runs):
        items = _study_rows(rng, np.zeros(200), 0.01, metric=[f"taken[value {i}]" for i in range(200)], kind="item",
                            a=1.0, diff_sd=0.01 * np.sqrt(1000), games=1000)
        flagged += len(Comparison(items.assign(b=1.0 + items["diff"]), {}).changed_items(top=1000)) > 0
    assert _at_most_5_percent(flagged, runs), flagged


def test_pick_extreme_calls_an_extreme_clear_only_apart_from_every_other_interval():
    e = pick_extreme([0.1, 0.5, 0.45, np.nan], lambda z: (np.array([0.05, 0.44, 0.40, 0.0]),
                                                          np.array([0.15, 0.56, 0.50, 1.0])))
    assert (e.index, e.k, e.clear, e.rivals) == (1, 3, False, (2,))
    assert e.rivals_text(["a", "b", "c"]) == "1 other (c) cannot be told apart from it"
    low = pick_extreme([0.1, 0.5, 0.45], lambda z: wilson(np.array([100, 500, 450]), 1000, z), highest=False)
    assert low.index == 0 and low.clear and low.z == family_z(3)
