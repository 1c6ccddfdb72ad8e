"""`design`: the guarantee (a recommendation's claims hold at least as often as the confidence says, where a sweep's
best cell does not), by simulation with known win rates; the search on a real game finds a confirmed setting and
writes a fragment that loads back to it; a range where nothing meets the claims is said so; bad input is one line."""
from __future__ import annotations

import json
import math
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from balance.analysis.design import DesignError, design
from balance.analysis.design.result import closest
from balance.analysis.design.search import Candidate, confirm, race
from balance.analysis.design.space import candidates, change, parse_vary
from balance.core.toml import toml_value
from balance.scenario.claims import Checks
from balance.scenario.model import ScenarioError, load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
BAND = [0.55, 0.65]


class Coin:
    """A stepper of a game whose team wins with probability p: tallies a balance check reads (seat_wins, games)."""

    def __init__(self, p: float, rng: np.random.Generator):
        self.p, self.rng, self.played = p, rng, 0
        self.agg = SimpleNamespace(tallies=SimpleNamespace(seat_wins=np.zeros(1, np.int64), games=0))

    def play_to(self, n: int) -> None:
        t = self.agg.tallies
        t.seat_wins[0] += self.rng.binomial(n - self.played, self.p)
        self.played = t.games = n

    def results(self):
        return SimpleNamespace(tallies=self.agg.tallies)


def designed(truth, rng, cap=64_000, first_round=1_000, tries=3, alpha=0.05):
    """design's search and guarantee on coins of known rates: the true rate it recommends, or None."""
    checks = Checks(win_rate=BAND)
    cands = [Candidate(i, (p,), abs(i - 0.0), None, Coin(p, rng)) for i, p in enumerate(truth)]
    race(cands, checks, first_round=first_round, tries=tries, alpha=alpha,
         play=lambda plays: [st.play_to(n) for st, n in plays])
    finalists = [c for c in cands if c.out_after is None][:tries]
    sc = SimpleNamespace(checks=checks, name="coins", source=None, notes=())
    done = confirm(finalists, lambda c: sc, cap, alpha, tries, stepper_for=lambda c, _sc: Coin(c.values[0], rng))
    return finalists[[c.index for c in finalists].index(done[-1].candidate)].values[0] \
        if done and done[-1].outcome == "pass" else None


def sweep_best(truth, rng, games=4_000):
    """A sweep's best cell: every setting played once, the one whose estimate lies inside the band nearest its
    centre taken as meeting the claim; its true rate, or None when no estimate lies inside."""
    est = [rng.binomial(games, p) / games for p in truth]
    inside = [(abs(e - 0.6), p) for e, p in zip(est, truth) if BAND[0] <= e <= BAND[1]]
    return min(inside)[1] if inside else None


def test_a_recommendation_holds_as_often_as_the_confidence_says_where_a_sweeps_best_cell_does_not():
    rng = np.random.default_rng(2026)
    truth = [0.50, 0.53, 0.54, 0.545, 0.655, 0.66, 0.67, 0.70]     # every setting just misses the band
    sims, alpha = 300, 0.05
    wrong_design = wrong_sweep = 0
    for _ in range(sims):
        p = designed(truth, rng)
        wrong_design += p is not None and not BAND[0] <= p <= BAND[1]
        p = sweep_best(truth, rng)
        wrong_sweep += p is not None and not BAND[0] <= p <= BAND[1]
    allowance = 3 * math.sqrt(alpha * (1 - alpha) / sims)
    assert wrong_design / sims <= alpha + allowance, wrong_design
    assert wrong_sweep / sims > 0.25, wrong_sweep                  # the best of noisy cells looks better than it is


def test_a_setting_that_meets_the_claim_is_found_and_confirmed():
    rng = np.random.default_rng(7)
    truth = [0.50, 0.53, 0.60, 0.67, 0.70, 0.75]
    found = [designed(truth, rng) for _ in range(40)]
    assert sum(p == 0.60 for p in found) >= 36 and all(p in (None, 0.60) for p in found)


# --- the space ---------------------------------------------------------------------------------------------------

def test_the_space_reads_ranges_lists_and_the_scenarios_values():
    base = load_scenario(SCENARIOS / "haunted_tower.toml")
    hp = parse_vary("components.heroes.magic_user.hp=4..9", base)
    assert hp.values == (4, 5, 6, 7, 8, 9) and hp.current == 5
    ratio = parse_vary("rules.round_limit=10,12", load_scenario(SCENARIOS / "climbing_tower.toml"))
    assert ratio.values == (10, 12) and ratio.current == 12
    grid = candidates([hp], 16, 1)
    assert grid[0] == (5,) and sorted(grid) == [(v,) for v in range(4, 10)]     # the scenario's values first
    wide = parse_vary("components.heroes.magic_user.hp=1..40", base)
    drawn = candidates([hp, wide], 8, 1)
    assert len(drawn) == 8 and drawn[0] == (5, 5) and len(set(drawn)) == 8
    assert change([hp], (7,)) == pytest.approx(2 / 5)


@pytest.mark.parametrize("item, words", [
    ("components.heroes.magic_user.hp", ["not KEY=RANGE"]),
    ("components.heroes.wizard.hp=4..9", ["components.heroes.wizard.hp", "no such setting"]),
    ("components.heroes.magic_user.hp=9..4", ["not a range"]),
    ("seed=1..4", ["every candidate plays the same games"]),
    ("components.heroes.magic_user.hp=5,5", ["repeated"]),
])
def test_a_bad_vary_is_one_line(item, words):
    base = load_scenario(SCENARIOS / "haunted_tower.toml")
    with pytest.raises(ScenarioError) as err:
        parse_vary(item, base)
    assert "\n" not in str(err.value) and all(w in str(err.value) for w in words), str(err.value)


def test_a_list_setting_varies_by_whole_lists():
    base = load_scenario(SCENARIOS / "spooky_tower.toml")
    bonus = parse_vary('components.buildings.1.bonus=["reroll"], ["reroll", "clock"],[]', base)
    assert bonus.values == (["reroll"], ["reroll", "clock"], []) and bonus.current == ["reroll"]
    assert bonus.text() == '["reroll"], ["reroll", "clock"], []'
    card = parse_vary('components.buildings.8.photos.4=["extra_turn"],["ghost", "clue"]', base)    # value 8's 5th
    assert card.values == (["extra_turn"], ["ghost", "clue"]) and card.current == ["extra_turn"]
    photos = parse_vary('components.buildings.12.photos=[["ghost"], ["ghost"]],[["ghost"]]', base)
    assert photos.values == ([["ghost"], ["ghost"]], [["ghost"]]) and photos.current == [["ghost"]] * 3
    grid = candidates([bonus, card], 16, 1)
    assert grid[0] == (["reroll"], ["extra_turn"]) and len(grid) == 6
    assert change([bonus, card], ([], ["ghost", "clue"])) == 2.0 and change([bonus], (["reroll"],)) == 0.0
    word = parse_vary("rules.flip_scope=card,building", base)        # words and quoted words still read as before
    assert word.values == ("card", "building") and parse_vary('rules.flip_scope="card"', base).values == ("card",)


@pytest.mark.parametrize("item, words", [
    ('components.buildings.1.bonus=["reroll"],["rerol"]', ["bonus[0]", "unknown value", "'rerol'", "allowed"]),
    ('components.buildings.1.bonus=["reroll", "clock"', ["components.buildings.1.bonus", "not a value",
                                                         '["reroll", "clock"', "allowed"]),
    ("components.buildings.1.bonus=5,[]", ["bonus", "wrong type", "got 5", "allowed: a list"]),
    ('components.buildings.1.bonus=[],["clock"],', ["not a value", "allowed"]),
    ("components.buildings.13.bonus=[]", ["components.buildings.13.bonus", "no such setting", "by its value"]),
    ("components.buildings.12.ghost_worth=-1..2", ["ghost_worth", "out of range", "got -1"]),
])
def test_a_bad_list_vary_is_one_line_naming_the_file(item, words):
    base = load_scenario(SCENARIOS / "spooky_tower.toml")
    with pytest.raises(ScenarioError) as err:
        parse_vary(item, base)
    text = str(err.value)
    assert "\n" not in text and text.startswith(f"{base.source} (--vary components.buildings.")
    assert all(w in text for w in words), text


# --- on a real game ----------------------------------------------------------------------------------------------

def test_climbing_tower_round_limit_for_a_win_rate_band(tmp_path):
    d = design(SCENARIOS / "climbing_tower.toml", ["rules.round_limit=9..13"], {"win_rate": BAND}, games=8_000,
               first_round=500, threads=2)
    assert d.confirmed and d.recommended["recommended"].iloc[0] in (10, 11)
    claim = d.claims.iloc[0]
    assert claim["after_outcome"] == "pass" and BAND[0] <= claim["after_low"] and claim["after_high"] <= BAND[1]
    assert claim["before_decision"] == "fail"                       # the shipped 12 rounds: about 77%
    assert d.findings["kind"].iloc[0] == "recommended" and "Every claim holds at 95% confidence" in \
        d.findings["text"].iloc[0]
    path = d.write_fragment(tmp_path / "designed.toml")
    assert "extends" in path.read_text()
    back = load_scenario(path)
    assert back.rules.round_limit == d.recommended["recommended"].iloc[0]
    assert set(d.confirmations["confirmation"]) <= {"pass", "fail", "inconclusive"}
    assert "tradeoff" in d.plot.available() and d.plot.tradeoff() is not None


def test_a_range_where_nothing_meets_the_claims_is_said_so():
    d = design(SCENARIOS / "spooky_tower.toml", ["components.buildings.12.ghost_worth=1..3"],
               {"victory_share": {"amulet": [0.9, 1.0]}}, games=4_000, first_round=500, threads=2)
    assert not d.confirmed and d.recommended["recommended"].isna().all()
    text = d.findings.set_index("kind").loc["none_confirmed", "text"]
    assert "None of the 3 settings tried could be confirmed" in text
    assert "none of the settings tried meets the claims (every setting of the range)" in text
    with pytest.raises(ValueError, match="nothing was confirmed"):
        d.fragment()


def test_the_closest_setting_named_is_one_the_search_kept_longest():
    """An early-dropped setting's estimate is the noisiest: one that played a single round and looks well inside the
    bound is not named over one that played every round, however close it looks."""
    def look(estimate, half):
        return SimpleNamespace(key="seat_gap_max", claim="seat gap", decision="fail", estimate=estimate,
                               low=estimate - half, high=estimate + half, bound_low=float("nan"), bound_high=0.02)
    early = Candidate(0, (1,), 0.0, None, looks=[look(0.01, 0.03)], rounds=1)
    late = Candidate(1, (2,), 1.0, None, looks=[look(0.035, 0.005)], rounds=3)
    later_worse = Candidate(2, (3,), 1.0, None, looks=[look(0.05, 0.005)], rounds=3)
    assert closest([early, late, later_worse]) is late
    assert closest([early]) is early


def test_design_refuses_bad_input():
    unclaimed = load_scenario(SCENARIOS / "climbing_tower.toml").to_dict()      # a dict without its [checks]
    with pytest.raises(DesignError, match="claims nothing"):
        design(unclaimed, ["rules.round_limit=9..13"], None, games=200)
    with pytest.raises(ScenarioError, match="checks.role_gap_max: Spooky Tower has no roles"):
        design(SCENARIOS / "spooky_tower.toml", ["rules.turn_cap=100..200"], {"role_gap_max": 0.1})
    with pytest.raises(DesignError, match="candidates=0"):
        design(SCENARIOS / "climbing_tower.toml", ["rules.round_limit=9..13"], {"win_rate": BAND}, candidates=0)


def test_cli_design_json_fragment_and_report(cli, tmp_path):
    res = cli("design", SCENARIOS / "climbing_tower.toml", "--vary", "rules.round_limit=10..12", "--goal",
              "win_rate=[0.55,0.65]", "-n", 6000, "--first-round", 500, "--threads", 2, "--json",
              "-o", tmp_path / "d.toml", "--report", tmp_path / "r")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["confirmed"] and data["values"] == {"rules.round_limit": 11}
    assert (tmp_path / "d.toml").exists() and (tmp_path / "r" / "tradeoff.png").exists()
    assert "balance design" in (tmp_path / "r" / "summary.md").read_text()


def test_a_list_setting_is_designed_and_written_back(tmp_path):
    vary = {"components.buildings.1.bonus": [["reroll"], ["reroll", "clock"], []]}     # the Python form
    d = design(SCENARIOS / "spooky_tower.toml", vary, {"length_mean": [10, 200]}, games=2_000, first_round=500,
               threads=2)
    assert d.confirmed and d.recommended["recommended"].iloc[0] == ["reroll"]          # no change needed
    assert '["reroll"], ["reroll", "clock"], []' in d.summary()
    d = design(SCENARIOS / "spooky_tower.toml", ['components.buildings.1.bonus=["clock", "clock"],[]'],
               {"length_mean": [10, 200]}, games=2_000, first_round=500, threads=2)
    chosen = d.recommended["recommended"].iloc[0]
    assert d.confirmed and chosen in (["clock", "clock"], [])
    assert f"components.buildings.1.bonus [\"reroll\"] -> {toml_value(chosen)}" in d.findings["text"].iloc[0]
    back = load_scenario(d.write_fragment(tmp_path / "designed.toml"))
    assert back.components.buildings[0].bonus == chosen and back.components.buildings[1].bonus == ["reroll"]


def test_cli_design_varies_a_list(cli, tmp_path):
    res = cli("design", SCENARIOS / "spooky_tower.toml", "--vary",
              'components.buildings.8.photos=[["ghost"], ["ghost"], ["pet"], ["pet"], ["extra_turn"]],[["ghost"]]',
              "--goal", "length_mean=[10,200]", "-n", 2000, "--first-round", 500, "--threads", 2, "--json",
              "-o", tmp_path / "d.toml")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["values"] == {"components.buildings.8.photos": [["ghost"], ["ghost"], ["pet"],
                                                                                   ["pet"], ["extra_turn"]]}
    assert load_scenario(tmp_path / "d.toml").components.buildings[7].photos[4] == ["extra_turn"]


@pytest.mark.parametrize("args, words", [
    ([], ["at least one --vary"]),
    (["--vary", "rules.round_limt=9..13"], ["rules.round_limt", "no such setting"]),
    (["--vary", "rules.round_limit=9..13", "--goal", "win_rate"], ["--goal win_rate", "not KEY=VALUE"]),
    (["--vary", "rules.round_limit=9..13", "--goal", "seat_gap_max=0.1"], ["seat_gap_max", "co-operative"]),
])
def test_cli_design_bad_input_is_one_line(cli, args, words):
    res = cli("design", SCENARIOS / "climbing_tower.toml", *args)
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and all(w in lines[0] for w in words), res.output


def test_strength_confirms_the_recommendation_with_tuned_players_too():
    sc = load_scenario(SCENARIOS / "spooky_tower.toml").to_dict()
    sc.pop("strategy", None)
    sc["seats"] = [{"name": "ghost_hunter", "take_weight": 10}, {"name": "collector"}, {"name": "collector"}]
    d = design(sc, ["components.buildings.12.ghost_worth=1..2"], {"length_mean": [10, 200]}, games=4000,
               first_round=500, strength="tuned", threads=2)
    assert d.confirmed and d.stronger is not None and d.stronger.outcome == "pass"
    assert "It holds with tuned players too." in d.findings["text"].iloc[0]
    assert set(d.confirmations["confirmation"]) == {"pass", "pass (tuned)"}
    with pytest.raises(DesignError, match="not a strength"):
        design(sc, ["components.buildings.12.ghost_worth=1..2"], {"length_mean": [10, 200]}, strength="strong")


def test_cli_design_exits_1_when_nothing_could_be_confirmed(cli, tmp_path):
    res = cli("design", SCENARIOS / "spooky_tower.toml", "--vary", "components.buildings.12.ghost_worth=1..2",
              "--goal", "victory_share.amulet=[0.9,1.0]", "-n", 2000, "--first-round", 500, "-o", tmp_path / "d.toml")
    assert res.exit_code == 1, res.output
    assert "None of the 2 settings tried could be confirmed" in res.stdout and not (tmp_path / "d.toml").exists()


def test_cli_design_bad_list_value_is_one_line(cli):
    res = cli("design", SCENARIOS / "spooky_tower.toml", "--vary", 'components.buildings.1.bonus=["clock"],["rerol"]',
              "--goal", "seat_gap_max=0.02")
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1, res.output
    assert lines[0].startswith("error: scenarios/spooky_tower.toml (--vary components.buildings.1.bonus): ") or \
        lines[0].startswith(f"error: {SCENARIOS / 'spooky_tower.toml'} (--vary components.buildings.1.bonus): ")
    assert all(w in lines[0] for w in ("unknown value", "'rerol'", "allowed: one of")), res.output
