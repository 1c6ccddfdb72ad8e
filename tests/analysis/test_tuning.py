"""`tune`: a planted poor parameter setting is recovered with a confirmed gain; the confirmation plays only the
scenario's seed, which no search round plays; the fragment loads back to the tuned scenario and reproduces the
confirmed win rate; the objective counts the right seat's wins in the right games; an interrupt keeps the last
confirmed winner; a Dask cluster finds the same."""
from __future__ import annotations

import numpy as np
import pytest

from balance import load_scenario, simulate
from balance.analysis.tuning import TuneError, tune
from balance.analysis.tuning import play as play_module
from balance.analysis.tuning.search import schedule, search_seed
from balance.analysis.tuning.target import Objective, Param

POOR = {"strategy": "ghost_hunter", "seats.0.take_weight": 10}     # seat 0 scores a take 20 times the default
SMALL = dict(games=3_000, first_round=400, candidates=8)


@pytest.fixture(scope="module")
def planted():
    return tune("scenarios/spooky_tower.toml", seat=0, sets=POOR, **SMALL)


def test_a_planted_poor_setting_is_recovered_with_a_confirmed_gain(planted):
    c = planted.confirmation.iloc[0]
    assert c["before"] < 0.15                      # take_weight 10: seat 0 wins about 11%, the others about 45%
    assert c["gain_lo"] > 0.05 and c["after"] > 0.2
    tuned = planted.tuned.set_index("parameter")["after"]
    assert tuned["take_weight"] < 5
    assert planted.findings["kind"].iloc[0] == "tuned"
    assert "a confirmed gain" in planted.findings["text"].iloc[0]


def test_the_confirmation_plays_the_scenarios_seed_and_the_search_another(monkeypatch):
    seen = []
    real = play_module.play_chunk

    def spy(spec, compiled, scenario, game0, n, threads, **kw):
        seen.append((scenario.seed, scenario.hash(), game0, n))
        return real(spec, compiled, scenario, game0, n, threads, **kw)

    monkeypatch.setattr(play_module, "play_chunk", spy)
    t = tune("scenarios/spooky_tower.toml", seat=0, sets=POOR, seed=11, **SMALL)
    assert t.meta["seed"] == 11 and t.meta["search_seed"] == search_seed(11) != 11
    assert set(t.confirmations["seed"]) == {11}
    on_seed = sum(n for s, _, _, n in seen if s == 11)
    on_search = sum(n for s, _, _, n in seen if s == t.meta["search_seed"])
    assert {s for s, *_ in seen} == {11, t.meta["search_seed"]}
    assert on_seed == t.meta["confirm_played"] and on_search == t.meta["search_games"]
    # every candidate's search scenario is on the search seed; none of them is played on the scenario's seed but
    # the scenario's values and the confirmed winners
    confirmed = {t.target.scenario(t.base, t._candidates[i].values).hash() for i in t.confirmations["candidate"]}
    assert {h for s, h, *_ in seen if s == 11} <= confirmed | {t.base.hash()}


def test_the_fragment_loads_to_the_tuned_scenario_and_reproduces_its_win_rate(planted, tmp_path):
    path = planted.write_fragment(tmp_path / "tuned.toml")
    text = path.read_text()
    assert text.splitlines()[2].startswith("extends = ") and "spooky_tower.toml" in text
    back = load_scenario(path)
    assert back.seats == planted.scenario.seats and back.seed == planted.base.seed
    c = planted.confirmation.iloc[0]
    r = simulate(path, games=int(c["games"]), contrasts=False)
    assert r.seats["win_rate"].iloc[0] == pytest.approx(c["after"], abs=1e-12)
    before = simulate("scenarios/spooky_tower.toml", games=int(c["games"]), contrasts=False,
                      **{"strategy": "ghost_hunter", "seats.0.take_weight": 10})
    assert before.seats["win_rate"].iloc[0] == pytest.approx(c["before"], abs=1e-12)


def test_an_interrupt_keeps_the_last_confirmed_winner(monkeypatch):
    calls = {"n": 0}
    real = play_module.LocalPlay.__call__

    def stop_in_stage_two(self, jobs, objective, progress=None):
        calls["n"] += 1
        if calls["n"] > 6:          # stage 1: 4 rounds, the scenario's values and the winner confirmed
            raise KeyboardInterrupt
        return real(self, jobs, objective, progress)

    monkeypatch.setattr(play_module.LocalPlay, "__call__", stop_in_stage_two)
    t = tune("scenarios/spooky_tower.toml", seat=0, sets=POOR, **SMALL)
    assert t.meta["interrupted"] and t.confirmed and len(t.confirmations) == 1
    assert t.findings["kind"].iloc[0] == "interrupted"
    calls["n"] = 6
    t = tune("scenarios/spooky_tower.toml", seat=0, sets=POOR, **SMALL)
    assert t.meta["interrupted"] and not t.confirmed
    assert "no leader was confirmed" in t.findings["text"].iloc[0]


def test_the_team_of_climbing_tower_is_tuned_for_the_team_win_rate(tmp_path):
    t = tune("scenarios/climbing_tower.toml", team=True, games=2_000, first_round=300, candidates=4, stages=1)
    assert t.target.objective == Objective(True)
    assert [p.key for p in t.target.params][:2] == ["seats.0.arrow_weight", "seats.0.sword_weight"]
    assert {p.block for p in t.target.params} == {0, 1}          # climber and skeleton_farmer: one vector each
    c = t.confirmation.iloc[0]
    team = simulate("scenarios/climbing_tower.toml", games=2_000, contrasts=False).team
    assert c["before"] == pytest.approx(float(team["win_rate"].iloc[0]), abs=1e-12)
    assert load_scenario(t.write_fragment(tmp_path / "team.toml")).seats == t.scenario.seats


def test_a_hero_is_tuned_at_its_seat_and_rotation_asks_for_the_seat():
    fixed = {"rules.hero_rotation": False, "seat_rotation": False}
    t = tune("scenarios/haunted_tower.toml", role="elf", sets=fixed, games=200, first_round=100, candidates=2,
             stages=1)
    assert t.target.blocks == ((2,),) and t.target.objective == Objective(False, None, 2)   # heroes[2] is the elf
    with pytest.raises(TuneError, match=r"--role elf: the elf is played by seats 0, 1, 2, 3 .* add --seat N"):
        tune("scenarios/haunted_tower.toml", role="elf", games=200, first_round=100)
    t = tune("scenarios/haunted_tower.toml", role="elf", seat=1, games=200, first_round=100, candidates=2, stages=1)
    assert t.target.objective == Objective(False, 1, 2) and t.confirmation["counted"].iloc[0] < 200


def test_the_objective_counts_the_tuned_seats_wins_in_the_games_it_plays():
    chunk = {"victory": np.ones(4, np.int8), "winner": np.array([0, 1, 2, 1], np.int8),
             "win_mask": np.array([1, 2, 4, 3], np.int8),
             "seat_strategy": np.array([[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 1, 2]], np.int8),
             "seat_role": np.array([[5, 3, 1], [5, 3, 1], [3, 1, 5], [1, 5, 3]], np.int8)}
    y, counted = Objective(False, 1)(chunk)        # slot 1 sits at seats 1, 0, 2, 1
    assert list(y) == [0, 0, 1, 1] and counted.all()
    y, counted = Objective(False, None, 3)(chunk)  # role 3 at seats 1, 1, 0, 2
    assert list(y) == [0, 1, 0, 0] and counted.all()
    y, counted = Objective(False, 2, 3)(chunk)     # role 3 played by slot 2 in games 1, 2 and 3, not 0
    assert list(counted) == [False, True, True, True] and list(y) == [0, 1, 0, 0]
    y, counted = Objective(True)(chunk)
    assert list(y) == [1, 1, 1, 1]


def test_candidate_values_lie_on_the_grid_inside_the_box_and_the_schedule_halves():
    p = Param("seats.0.x", 0, "x", 0.6, -1.0, 10.0)
    assert p.step == 0.1 and p.value(0.0) == -1.0 and p.value(0.999999) == 10.0 and p.value(0.5) == 4.5
    assert p.value(0.0, centre=9.9, width=0.25) == 7.2       # the local box moved inside the range
    assert Param("k", 0, "k", 6, 0, 40).value(0.123) == 4.9
    assert schedule(17, 100) == [(17, 100), (9, 200), (5, 400), (3, 800), (2, 1600)]
    assert schedule(1, 100) == [(1, 100)]


def test_bad_requests_are_one_line():
    with pytest.raises(TuneError, match=r"--seat 0: seat 0 plays random, which has no parameters"):
        tune("scenarios/spooky_tower.toml", seat=0)
    with pytest.raises(TuneError, match=r"--seat 3: no such seat \(allowed: 0 to 2"):
        tune("scenarios/spooky_tower.toml", seat=3, sets={"strategy": "collector"})
    with pytest.raises(TuneError, match=r"--team with --seat"):
        tune("scenarios/climbing_tower.toml", seat=0, team=True)
    with pytest.raises(TuneError, match=r"--team: Spooky Tower is not co-operative"):
        tune("scenarios/spooky_tower.toml", team=True)
    with pytest.raises(TuneError, match=r"--role wizard: no such hero \(allowed: fighter, dwarf"):
        tune("scenarios/haunted_tower.toml", role="wizard")


def test_a_dask_cluster_finds_the_same():
    distributed = pytest.importorskip("distributed")
    local = tune("scenarios/spooky_tower.toml", seat=0, sets=POOR, games=2_000, first_round=300, candidates=3,
                 stages=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        remote = tune("scenarios/spooky_tower.toml", seat=0, sets=POOR, games=2_000, first_round=300, candidates=3,
                      stages=1, client=client)
    assert remote.meta["timing"]["executor"] == "dask"
    assert remote.confirmations.equals(local.confirmations)
    assert remote.candidates.equals(local.candidates)


def test_a_fragment_written_whole_seats_leaves_out_every_strategy_override(tmp_path):
    from balance.analysis.fragment import fragment_table
    base = load_scenario("scenarios/spooky_tower.toml", **{"strategy.name": "collector", "seats.1.stack_target": 5,
                                                          "rules.flip_scope": "building"})
    seats = [{"name": s.strategy, **s.params} for s in base.seats]
    table = fragment_table(base, base, "x", tmp_path / "f.toml", seats=seats)
    assert "strategy" not in table and table["seats"] == seats and table["rules"] == {"flip_scope": "building"}
