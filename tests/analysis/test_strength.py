"""`strength`: each finding of the run as written read again at every level, by the same seats, heroes or things;
the verdict's every edge; a gap made by a weak bot vanishes once that seat plays as well as the others, while levels
that play the same strategies change nothing; auto-tuning lets in only confirmed gains; `balance report --strength`
writes its section, table and figure, and refuses bad input in one line."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from balance import load_scenario
from balance.analysis.strength import AS_WRITTEN, TUNED, strength
from balance.analysis.strength.measures import change, verdict
from balance.scenario.model import ScenarioError

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
CI = (0.0, 0.0, 0.0)


def spooky(*seats: str, **extra) -> dict:
    d = load_scenario(SCENARIOS / "spooky_tower.toml").to_dict()
    d.pop("strategy", None)
    return d | {"seats": [{"name": s} for s in seats], "seat_rotation": False, "players": len(seats)} | extra


@pytest.mark.parametrize("written, strong, expected", [
    ((0.30, 0.25, 0.35), (0.31, 0.26, 0.36), "holds"),
    ((0.30, 0.25, 0.35), (0.50, 0.45, 0.55), "grows"),
    ((0.30, 0.25, 0.35), (0.10, 0.05, 0.15), "shrinks"),
    ((0.30, 0.25, 0.35), (0.02, -0.03, 0.07), "vanishes"),
    ((0.30, 0.25, 0.35), (-0.10, -0.15, -0.05), "reverses"),
    ((0.01, -0.04, 0.06), (0.20, 0.15, 0.25), "appears"),
    ((0.01, -0.04, 0.06), (0.02, -0.03, 0.07), "none"),
])
def test_a_gaps_verdict_at_every_edge(written, strong, expected):
    assert verdict("gap", written, strong, change(written, strong)) == expected


def test_a_rates_verdict_and_an_unmeasured_level():
    a = (0.5, 0.48, 0.52)
    assert verdict("rate", a, (0.6, 0.58, 0.62), change(a, (0.6, 0.58, 0.62))) == "rises"
    assert verdict("rate", a, (0.4, 0.38, 0.42), change(a, (0.4, 0.38, 0.42))) == "falls"
    assert verdict("rate", a, (0.51, 0.49, 0.53), change(a, (0.51, 0.49, 0.53))) == "holds"
    nan = (math.nan,) * 3
    assert verdict("gap", a, nan, change(a, nan)) == "unknown"


def test_the_change_combines_the_two_intervals_as_independent():
    d, lo, hi = change((0.30, 0.26, 0.34), (0.10, 0.07, 0.13))
    z = 1.959963984540054
    assert d == pytest.approx(-0.20)
    assert hi - d == pytest.approx(z * math.hypot(0.04 / z, 0.03 / z))


def test_a_gap_made_by_a_weak_bot_vanishes_when_that_seat_plays_as_well_as_the_others():
    written = spooky("random", "collector", "collector")
    s = strength(written, games=3000, tuned=spooky("collector", "collector", "collector"), lookahead=False,
                 threads=2)
    v = s.verdicts.set_index("finding").loc["seat_gap"]
    assert v["what"].endswith("over seat 0") and v["as_written"] > 0.2      # random in seat 0 trails
    assert v["verdict"] in ("vanishes", "reverses") and v["change_ci_high"] < -0.1, v
    t = s.table.set_index(["finding", "level"])
    assert set(s.table["level"]) == {AS_WRITTEN, TUNED}
    assert t.loc[("seat_gap", TUNED), "estimate"] == pytest.approx(v["strongest"])
    assert list(s.results[TUNED].tallies.lineup) == ["collector"] * 3
    assert s.results[AS_WRITTEN].tallies.games == 3000
    text = s.findings["text"].iloc[list(s.verdicts["finding"]).index("seat_gap")]
    assert text.startswith("Seat 1's lead over seat 0 is") or text.startswith("Seat 2's lead over seat 0 is")
    assert f"it {v['verdict']}" in text and "it was the bots" in text


def test_levels_that_play_the_same_strategies_change_nothing():
    written = spooky("random", "collector", "collector")
    s = strength(written, games=1000, tuned=written, lookahead=False, threads=1)
    assert (s.verdicts["change"] == 0).all()
    assert set(s.verdicts["verdict"]) <= {"holds", "none"} and "holds" in set(s.verdicts["verdict"])


def test_auto_tuning_lets_in_only_a_confirmed_gain():
    # seat 0's ghost_hunter scores a take 20 times its default: tuning it gains clearly; the collectors gain little
    written = spooky("ghost_hunter", "collector", "collector")
    written["seats"][0]["take_weight"] = 10
    s = strength(written, games=4000, lookahead=False, threads=2)
    assert [t.meta["target"] for t in s.tunings] == ["seat 0 (ghost_hunter)", "seat 1 (collector)",
                                                    "seat 2 (collector)"]
    tuned = s.levels[1].scenario.seats
    assert s.tunings[0].confirmation["gain_lo"].iloc[0] > 0 and tuned[0].params["take_weight"] < 10
    for i, t in enumerate(s.tunings):
        confirmed = t.confirmation["gain_lo"].iloc[0] > 0
        assert tuned[i].params == (t.scenario.seats[i].params if confirmed else s.levels[0].scenario.seats[i].params)
        assert (t.meta["target"] in s.levels[1].how) == confirmed


def test_nothing_stronger_to_play_is_refused():
    with pytest.raises(ScenarioError, match="no stronger play"):
        strength(spooky("random", "random", "random"), games=200, lookahead=False)
    with pytest.raises(ScenarioError, match="another game"):
        strength(spooky("random", "collector"), games=200, tuned=SCENARIOS / "climbing_tower.toml")


def test_cli_report_with_strength(cli, tmp_path):
    written, tuned = tmp_path / "w.toml", tmp_path / "t.toml"
    from balance.core.toml import dumps_toml
    written.write_text(dumps_toml(spooky("random", "collector", "collector")))
    tuned.write_text(dumps_toml(spooky("collector", "collector", "collector")))
    res = cli("report", written, "-n", 500, "--threads", 1, "--strength", "--tuned", tuned, "--strength-games", 1500,
              "-o", tmp_path / "r")
    assert res.exit_code == 0, res.output
    md = (tmp_path / "r" / "summary.md").read_text()
    assert "### Under stronger play" in md and "over seat 0" in md and "| verdict | change (points) |" in md
    assert (tmp_path / "r" / "strength_levels.png").exists()
    assert "Under stronger play" in (tmp_path / "r" / "index.html").read_text()


@pytest.mark.parametrize("args, words", [
    (["--playouts", "8"], ["only with --strength"]),
    (["--strength", "--tuned", "scenarios/climbing_tower.toml", "--strength-games", "200"], ["another game"]),
])
def test_cli_strength_bad_input_is_one_line(cli, tmp_path, args, words):
    res = cli("report", SCENARIOS / "spooky_tower.toml", "-n", 100, "-o", tmp_path / "r",
              *[str(SCENARIOS.parent / a) if a.startswith("scenarios/") else a for a in args])
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and all(w in lines[0] for w in words), res.output
    assert not (tmp_path / "r").exists()


def test_the_lookahead_level_seats_every_player_on_the_lookahead_with_its_own_strategy_as_base():
    s = strength(spooky("random", "collector", "ghost_hunter"), games=300, tuned=False, playouts=4, threads=2)
    look = s.levels[-1]
    assert [lv.name for lv in s.levels] == [AS_WRITTEN, "lookahead"]
    assert [(x.strategy, x.params["base"], x.params["playouts"]) for x in look.scenario.seats] == \
        [("lookahead", 0, 4), ("lookahead", 2, 4), ("lookahead", 1, 4)]
    assert "lookahead(random), lookahead(collector), lookahead(ghost_hunter)" in look.how
    assert list(s.results["lookahead"].tallies.lineup) == ["lookahead"] * 3
    assert set(s.verdicts["strongest_level"]) == {"lookahead"}
    with pytest.raises(ScenarioError, match="--playouts"):
        strength(spooky("random", "collector"), games=100, tuned=False, playouts=100_000)
