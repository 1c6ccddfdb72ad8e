"""`balance replay` and `balance show` take the options that change a scenario as `run` takes them (--set, --strategy,
--players, --rotate), and the "games worth watching" after a run are commands that, pasted as they are, replay those
games with the run's options."""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from balance.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
SPOOKY = str(ROOT / "scenarios" / "spooky_tower.toml")


def test_show_takes_the_options_of_run(cli):
    res = cli("show", SPOOKY, "--players", 4, "--strategy", "collector", "--rotate", "--set", "rules.flip_scope=building")
    assert res.exit_code == 0, res.output
    want = load_scenario(SPOOKY, players=4, strategy={"name": "collector"}, seat_rotation=True,
                         **{"rules.flip_scope": "building"})
    assert res.output == want.to_toml()
    assert load_scenario(SPOOKY).to_toml() != want.to_toml()


def test_replay_takes_the_options_of_run(cli):
    from balance.games.driver import replay
    from balance.games.spooky_tower.narrate import narrate_jsonl
    res = cli("replay", SPOOKY, "--seed", 3, "--game", 2, "--players", 4, "--strategy", "collector", "--no-rotate",
              "--set", "rules.flip_scope=building", "--format", "jsonl")
    assert res.exit_code == 0, res.output
    sc = load_scenario(SPOOKY, players=4, strategy={"name": "collector"}, seat_rotation=False,
                       **{"rules.flip_scope": "building"})
    assert res.stdout.splitlines() == list(narrate_jsonl(replay("balance.games.spooky_tower", sc, 3, 2)))
    assert json.loads(res.stdout.splitlines()[0])["strategies"] == ["collector"] * 4


# A run of each game with options that change its scenario; the watch commands must repeat them.
RUNS = {
    "spooky_tower": (["scenarios/spooky_tower.toml", "-n", "400", "--seed", "4", "--players", "2", "--strategy",
                      "collector", "--rotate", "--set", "rules.flip_scope=building"],
                     ["--players 2", "--strategy collector", "--rotate", "--set rules.flip_scope=building"]),
    "haunted_tower": (["scenarios/haunted_tower.toml", "-n", "40", "--seed", "2", "--no-rotate", "--set",
                       "rules.out_hero_scores=false", "--set", "seats.3.strategy=cautious_looter"],
                      ["--no-rotate", "--set rules.out_hero_scores=false", "--set seats.3.strategy=cautious_looter"]),
    "climbing_tower": (["scenarios/climbing_tower.toml", "-n", "300", "--seed", "3", "--strategy", "climber",
                        "--no-rotate", "--no-contrasts", "--set", 'rules.tower=["007", "005", "002"]'],
                       ["--strategy climber", "--no-rotate", "--set 'rules.tower=[\"007\", \"005\", \"002\"]'"]),
}


@pytest.mark.parametrize("game", sorted(RUNS))
def test_the_games_worth_watching_are_pasteable_commands_that_replay_them_with_the_runs_options(cli, game,
                                                                                            monkeypatch):
    monkeypatch.chdir(ROOT)
    args, options = RUNS[game]
    res = cli("run", *args)
    assert res.exit_code == 0, res.output
    watch = re.findall(r"\n  (the [^\n]*): ([\d,]+) (turns|points)[^\n]*:\n    (balance replay [^\n]*)", res.output)
    assert {w[0].split(":")[0] for w in watch} >= {"the longest game", "the shortest finished game"}, res.output
    for what, value, unit, command in watch:
        assert all(option in command for option in options), command
        assert "SCENARIO" not in command and f"--seed {args[args.index('--seed') + 1]} --game " in command
        words = shlex.split(command)
        assert words[:2] == ["balance", "replay"]
        played = cli(*words[1:], "--format", "jsonl")
        assert played.exit_code == 0, (command, played.output[-2000:])
        records = [json.loads(line) for line in played.stdout.splitlines()]
        if unit == "turns":         # the game the command plays is the game the run named
            assert max(r["turn"] for r in records if r["type"] == "snapshot") == int(value.replace(",", ""))


def test_a_run_no_command_line_can_repeat_names_the_scenario_by_its_show_command():
    import balance
    from balance.run.runner import replay_args
    sc = load_scenario({"game": "spooky_tower", "players": 2})       # made from a dict: no file to name
    assert replay_args(sc) is None
    r = balance.simulate(sc, games=300, progress=False)
    assert all("balance replay SCENARIO (this run's scenario: `balance show` with the run's options) --seed 1 "
               in line for line in r.watch_lines())


def test_replay_args_quote_for_the_shell_and_read_back_to_the_same_scenario():
    from balance.run.runner import replay_args
    sc = load_scenario(SPOOKY, players=4, seat_rotation=True, strategy="ghost_hunter",
                       **{"components.buildings.12.ghost_worth": 3, "rules.flip_scope": "building"})
    args = replay_args(sc)
    assert args == (f"{SPOOKY} --players 4 --rotate --strategy ghost_hunter --set components.buildings.12.ghost_worth=3 "
                    "--set rules.flip_scope=building")
    tower = load_scenario(str(ROOT / "scenarios" / "climbing_tower.toml"), **{"rules.tower": ["007", "005", "002"]})
    assert shlex.split(replay_args(tower))[-2:] == ["--set", 'rules.tower=["007", "005", "002"]']


# --- the trace header --------------------------------------------------------------------------------------------

HEADER_RUNS = {"spooky_tower": ("rules.flip_scope", "building", '"building"'),
               "haunted_tower": ("rules.trading", True, "true"),
               "climbing_tower": ("rules.round_limit", 11, "11")}


@pytest.mark.parametrize("game", sorted(HEADER_RUNS))
def test_every_trace_opens_with_its_scenario_hash_rules_turn_cap_seed_and_game(cli, game):
    key, value, written = HEADER_RUNS[game]
    path = str(ROOT / "scenarios" / f"{game}.toml")
    given = ["--seed", 7, "--game", 3, "--set", f"{key}={written}"]
    res = cli("replay", path, *given, "--format", "jsonl")
    assert res.exit_code == 0, res.output[-2000:]
    head = json.loads(res.stdout.splitlines()[0])
    sc = load_scenario(path, **{key: value})
    assert head["type"] == "game" and head["scenario"] == sc.name and head["scenario_hash"] == sc.hash()
    assert head["turn_cap"] == sc.turn_cap and head["rules"] == sc.to_dict()["rules"]
    assert head["rules"][key.split(".")[1]] == value and sc.hash() != load_scenario(path).hash()
    assert (head["seed"], head["game"], head["players"], len(head["strategies"])) == (7, 3, sc.players, sc.players)
    show = cli("show", path, "--set", f"{key}={written}")          # the hash `balance show` heads its output with
    assert show.stdout.splitlines()[0] == f"# Resolved scenario {head['scenario_hash'][:12]}"
    text = cli("replay", path, *given).stdout.splitlines()
    assert text[0].startswith(f"{sc.spec().title}, seed 7, game 3: ")
    assert text[1].startswith(f"Scenario {sc.name!r} (hash {sc.hash()[:12]}), turn cap {sc.turn_cap}; rules: ")
    assert f"; {key.split('.')[1]} = {written}" in text[1] or f"rules: {key.split('.')[1]} = {written}" in text[1]
