"""`balance check`: the [checks] table as scenario input, each claim's decision, exit codes, outputs, baselines."""
from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from balance.analysis.checks import confseq
from balance.analysis.checks.run import check, looks
from balance.scenario import ScenarioError, load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
SPOOKY = SCENARIOS / "spooky_tower.toml"


def small(tmp_path: Path, checks: str, games: int = 2000, name: str = "small.toml", extends: bool = False) -> Path:
    """Spooky Tower's default table (or, with ``extends``, the shipped file and its claims) with a game cap and
    these claims."""
    path = tmp_path / name
    head = f'extends = "{SPOOKY}"' if extends else 'game = "spooky_tower"'
    path.write_text(f'{head}\nname = "small"\ngames = {games}\n\n[checks]\n{checks}\n')
    return path


# --- the [checks] table as input ------------------------------------------------------------------------------

@pytest.mark.parametrize("checks, words", [
    ("seat_gap = 0.03", ["checks.seat_gap", "unknown key", "did you mean 'seat_gap_max'"]),
    ("length_mean = [60, 40]", ["checks.length_mean", "not a range"]),
    ("victory_share = { amulett = [0.1, 0.2] }", ["checks.victory_share.amulett", "did you mean 'amulet'"]),
    ('strategy_order = ["colector", "random"]', ["checks.strategy_order[0]", "not a strategy of Spooky Tower",
                                                 "did you mean 'collector'"]),
    ('strategy_order = ["random", "random"]', ["checks.strategy_order[1]", "named twice"]),
    ("win_rate = [0.4, 0.7]", ["checks.win_rate", "co-operative"]),
    ("seat_gap_max = 2", ["checks.seat_gap_max", "out of range"]),
])
def test_bad_claims_are_one_line_errors(tmp_path, checks, words):
    with pytest.raises(ScenarioError) as err:
        load_scenario(small(tmp_path, checks))
    text = str(err.value)
    assert "\n" not in text and all(w in text for w in words), text


def test_cooperative_game_refuses_seat_claims(tmp_path):
    path = tmp_path / "coop.toml"
    path.write_text(f'extends = "{SCENARIOS / "climbing_tower.toml"}"\n[checks]\nseat_gap_max = 0.1\n')
    with pytest.raises(ScenarioError, match="checks.seat_gap_max: not a claim about a co-operative game"):
        load_scenario(path)


def test_checks_merge_through_extends_and_set_and_leave_the_hash(tmp_path):
    base = load_scenario(SPOOKY)
    child = load_scenario(small(tmp_path, "seat_gap_max = 0.2", extends=True), **{"checks.length_mean": [1, 2]})
    assert child.checks.seat_gap_max == 0.2                       # the child's own value
    assert child.checks.length_mean == [1.0, 2.0]                  # --set
    assert child.checks.victory_share == base.checks.victory_share  # inherited key by key
    plain = load_scenario(SPOOKY, **{"checks.seat_gap_max": 0.5})
    assert plain.hash() == base.hash()                             # claims change no game


# --- decisions -------------------------------------------------------------------------------------------------

def test_looks_double_from_1000_to_the_cap():
    assert looks(5000) == [1000, 2000, 4000, 5000]
    assert looks(700) == [700]


def test_true_claim_passes_false_fails_close_one_is_inconclusive(tmp_path):
    path = small(tmp_path, "length_mean = [10, 200]\nvictory_share = { amulet = [0.5, 0.9] }\n"
                           "seat_gap_max = 0.9", games=3000)
    r = check(path, threads=1)
    out = r.claims.set_index("key")["outcome"].to_dict()
    assert out == {"length_mean": "pass", "victory_share.amulet": "fail", "seat_gap_max": "pass"}
    assert r.exit_code == 1
    est = r.scenarios[0].results.lengths.set_index("measure").loc["turns", "mean"]
    close = small(tmp_path, f"length_mean = [{est - 0.2:.3f}, 200]", games=2000, name="close.toml")
    r2 = check(close, threads=1)
    assert list(r2.claims["outcome"]) == ["inconclusive"] and r2.exit_code == 3
    assert r2.claims["games"].iloc[0] == 2000                       # played to the cap


def test_a_decided_scenario_stops_early_and_results_do_not_depend_on_threads_or_chunks(tmp_path):
    path = small(tmp_path, "length_mean = [10, 200]\nitem_lift_max = 0.9", games=50_000)
    a = check(path, threads=1, chunk_size=300)
    b = check(path, threads=2)
    assert a.scenarios[0].results.tallies.games == 1000             # decided at the first look
    assert a.claims.equals(b.claims)


def test_confidence_sequence_covers_at_every_look():
    """Anytime coverage by simulation: Bernoulli(0.3) streams looked at on check's schedule; the share of streams
    whose interval ever misses 0.3 stays at or below alpha (with a binomial allowance for 2,000 streams)."""
    rng = np.random.default_rng(7)
    p, alpha, cap, sims = 0.3, 0.05, 64_000, 2000
    sched = looks(cap)
    steps = np.diff([0] + sched)
    k = np.cumsum(rng.binomial(steps, p, size=(sims, len(steps))), axis=1)
    missed = np.zeros(sims, bool)
    for j, n in enumerate(sched):
        for i in range(sims):
            _, lo, hi = confseq.proportion(float(k[i, j]), n, alpha, cap)
            missed[i] |= not lo <= p <= hi
    assert missed.mean() <= alpha + 3 * math.sqrt(alpha * (1 - alpha) / sims)


# --- command line and outputs --------------------------------------------------------------------------------

def test_cli_exit_codes_summary_junit_json_and_report(cli, tmp_path):
    path = small(tmp_path, "length_mean = [10, 200]\nvictory_share = { amulet = [0.5, 0.9] }", games=2000)
    res = cli("check", path, "--summary", tmp_path / "s.md", "--junit", tmp_path / "j.xml", "-o", tmp_path / "rep",
              "--threads", 1)
    assert res.exit_code == 1, res.output
    assert res.stdout.splitlines()[0] == "Findings" and "FAIL" in res.output
    md = (tmp_path / "s.md").read_text()
    assert md.startswith("## balance check: FAIL") and "| FAIL | victory_share.amulet |" in md
    root = ET.parse(tmp_path / "j.xml").getroot()
    cases = root.findall(".//testcase")
    assert len(cases) == 2 and len(root.findall(".//failure")) == 1
    assert {p.name for p in (tmp_path / "rep").iterdir()} >= {"index.html", "summary.md", "claims.png"}
    res = cli("check", small(tmp_path, "length_mean = [10, 200]", name="ok.toml"), "--json", "--threads", 1)
    assert res.exit_code == 0 and json.loads(res.stdout)["claims"][0]["outcome"] == "pass"


@pytest.mark.parametrize("args, words", [
    (["nothere.toml"], ["nothere.toml", "file not found"]),
    (["{spooky}", "--players", "9"], ["players", "out of range"]),
    (["{spooky}", "--baseline", "{tmp}"], ["--baseline"]),
    (["{spooky}", "--set", "checks.nope=1"], ["checks.nope", "unknown key"]),
])
def test_cli_bad_input_is_one_line_and_exit_2(cli, tmp_path, args, words):
    args = [a.format(spooky=SPOOKY, tmp=tmp_path) for a in args]
    res = cli("check", *args)
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and all(w in lines[0] for w in words), res.output


def test_baseline_lists_what_moved_both_ways(cli, tmp_path):
    saved = tmp_path / "base"
    assert cli("run", SPOOKY, "-n", 20_000, "--out", saved, "--threads", 1).exit_code == 0
    same = check(small(tmp_path, "length_mean = [10, 200]", games=20_000), baseline=saved, threads=1)
    assert (same.baseline["diff"] == 0).all() and (same.baseline["moved"] == "").all()
    changed = check(small(tmp_path, "length_mean = [10, 200]", games=20_000), baseline=saved, threads=1,
                    sets={"components.buildings.12.ghost_worth": 1, "rules.flip_scope": "building"})
    moved = changed.baseline.set_index("metric")["moved"]
    assert (moved == "up").any() and (moved == "down").any()
    assert "moved significantly against the baseline" in " ".join(changed.findings["text"])


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.toml")), ids=lambda p: p.stem)
def test_claims_never_block_another_lineup(path, tmp_path):
    """Claims change no game: any lineup of the game loads, whatever the claims name (one strategy in every seat,
    as --strategy and --set strategy=... give, and a file that extends the scenario with other seats)."""
    spec = load_scenario(path).spec()
    for name in spec.strategies:
        assert load_scenario(path, strategy=name).checks == load_scenario(path).checks
        assert load_scenario(path, **{"seats.0.strategy": name}).seats[0].strategy == name
    child = tmp_path / "child.toml"
    child.write_text(f'extends = "{path}"\nstrategy = "{next(iter(spec.strategies))}"\n')
    assert load_scenario(child).checks == load_scenario(path).checks


def test_a_claim_the_lineup_cannot_test_is_not_applicable_and_decides_nothing(cli, tmp_path):
    path = small(tmp_path, 'length_mean = [10, 200]\nstrategy_order = ["collector", "random"]', games=2000)
    r = check(path, threads=1)          # every seat plays random: there is no collector to rank
    rows = r.claims.set_index("key")
    assert rows.loc["strategy_order", "outcome"] == "not applicable"
    assert "collector does not play in this lineup (random)" in rows.loc["strategy_order", "reason"]
    assert rows.loc["length_mean", "outcome"] == "pass" and r.outcome == "pass" and r.exit_code == 0
    assert any("does not apply to this lineup" in f and "collector" in f for f in r.findings["text"])
    res = cli("check", path, "--junit", tmp_path / "j.xml", "-o", tmp_path / "rep", "--threads", 1)
    assert res.exit_code == 0 and "NOT APPLICABLE" in res.output, res.output
    root = ET.parse(tmp_path / "j.xml").getroot()
    assert len(root.findall(".//skipped")) == 1 and root.find("testsuite").get("skipped") == "1"
    lineup = check(path, threads=1, sets={"seats": [{"name": "collector"}, {"name": "random"}, {"name": "random"}]})
    assert lineup.claims.set_index("key").loc["strategy_order", "outcome"] != "not applicable"


def test_check_says_when_the_seats_were_cycled(tmp_path):
    path = small(tmp_path, "length_mean = [10, 200]", games=1000)
    path.write_text(path.read_text().replace('name = "small"', 'name = "small"\nplayers = 2\nseats = '
                                             '[{ name = "random" }, { name = "collector" }]'))
    r = check(path, threads=1, players=4)
    assert r.scenarios[0].notes == ("seats cycled from the 2 listed to 4 (players = 4): seat i plays listed seat "
                                    "i mod 2",)
    assert "  Note: seats cycled from the 2 listed to 4" in r.summary()


def test_cli_runs_a_shipped_scenario_with_another_lineup(cli):
    """The shipped scenario's strategy_order names three strategies; one strategy in every seat still runs."""
    res = cli("run", SCENARIOS / "haunted_tower.toml", "--strategy", "monster_hunter", "-n", 40, "--threads", 1,
              "--no-contrasts")
    assert res.exit_code == 0, res.output


def test_shipped_scenarios_claims_are_valid():
    for path in sorted(SCENARIOS.glob("*.toml")):
        sc = load_scenario(path)
        assert sc.checks is not None and sc.checks.given(), path


def test_a_scenario_without_claims_plays_one_look_and_passes(tmp_path):
    path = tmp_path / "none.toml"
    path.write_text('game = "spooky_tower"\ngames = 50000\n')
    r = check(path, threads=1)
    assert r.scenarios[0].results.tallies.games == 1000 and len(r.claims) == 0
    assert r.exit_code == 0 and r.findings["text"][0].startswith("No scenario holds a [checks] table")


# --- the role gap (heroes) -----------------------------------------------------------------------------------

def test_role_gap_is_the_largest_distance_from_the_roles_mean():
    from types import SimpleNamespace

    from balance.analysis.checks.claims import role_gap
    t = SimpleNamespace(role_name="hero", role_labels=("a", "b", "c", "d"), games=4000,
                        role_games=np.array([3000, 3000, 3000, 0]), role_wins=np.array([900, 600, 1200, 0]))
    look = role_gap(t, 0.15, 0.05, 4000)                   # shares 0.3, 0.2, 0.4 (d never played): mean 0.3
    assert look.estimate == pytest.approx(0.1) and "furthest: c" in look.claim
    assert look.low < 0.1 < look.high
    assert look.decision == ("pass" if look.high <= 0.15 else "undecided")
    assert role_gap(t, 0.02, 0.05, 4000).decision == "fail"       # 0.1 is clearly above 0.02
    tight = SimpleNamespace(**{**vars(t), "role_games": t.role_games * 100, "role_wins": t.role_wins * 100,
                               "games": 400_000})
    assert role_gap(tight, 0.11, 0.05, 400_000).decision == "pass"
    assert role_gap(SimpleNamespace(role_name=None, games=10), 0.1, 0.05, 10).decision == "not applicable"


def test_role_gap_claim_on_the_haunted_tower_and_refused_without_roles(tmp_path):
    path = tmp_path / "h.toml"
    path.write_text(f'extends = "{SCENARIOS / "haunted_tower.toml"}"\ngames = 2000\n[checks]\nrole_gap_max = 0.10\n'
                    'seat_gap_max = 0.5\n')
    r = check(path, threads=2)
    row = r.claims.set_index("key").loc["role_gap_max"]
    assert row["outcome"] == "fail" and row["ci_low"] > 0.3          # the fighter wins about 67%, the mean about 25%
    assert "furthest: fighter" in row["claim"] or "furthest: magic_user" in row["claim"]
    with pytest.raises(ScenarioError, match="checks.role_gap_max: Spooky Tower has no roles"):
        load_scenario(small(tmp_path, "role_gap_max = 0.1"))
