"""Scenario errors: one load reports every independent problem of a file, each in its own one-line form, and an
override's error names where the override came from (a Python keyword, or the command line's option)."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from balance.cli import main
from balance.games import registry
from balance.scenario import ScenarioError, dumps_toml, load_scenario

GAMES = sorted(registry())
SPOOKY = Path(__file__).resolve().parents[2] / "scenarios" / "spooky_tower.toml"
# Problems that do not depend on one another, each as the keys that make it; in the order the loader checks them.
PROBLEMS = [
    {"typo": 1},
    {"seed": -1},
    {"turn_cap": 5},
    {"seat_rotation": "yes"},
    {"strategy": "no_such_strategy"},
    {"rules": {"no_such_rule": 1}},
    {"components": {"no_such_part": 1}},
]


def one_error(path: Path, table: dict) -> ScenarioError:
    path.write_text(dumps_toml(table), encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    return err.value


@pytest.mark.parametrize("game", GAMES)
def test_a_file_with_several_problems_reports_each_as_it_alone_would_be(game, tmp_path):
    path = tmp_path / "s.toml"
    alone = []
    for problem in PROBLEMS:
        err = one_error(path, {"game": game, **problem})
        assert len(err.errors) == 1 and "\n" not in str(err)
        alone.append(str(err))
    every = one_error(path, {"game": game, **{k: v for p in PROBLEMS for k, v in p.items()}})
    assert every.lines == alone and str(every) == "\n".join(alone)
    assert (every.file, every.key, every.problem) == (str(path), "typo", alone[0].split(": ")[2].split(" (")[0])


@pytest.mark.parametrize("game", GAMES)
def test_the_seats_count_and_each_seat_and_each_parameter_are_checked_apart(game, tmp_path):
    spec = registry()[game]
    with_params = next(s for s in spec.strategies.values() if len(s.params) >= 2)
    p, q = with_params.params[:2]
    seats = [{"name": "no_such_strategy"}, {"name": with_params.name, p.name: p.high + 1, q.name: "x"}]
    seats += [{"name": "random"}] * (spec.max_players - 1)
    err = one_error(tmp_path / "s.toml", {"game": game, "players": spec.max_players, "seats": seats})
    assert [line.split(": ")[1] for line in err.lines] == ["seats", "seats[0].name", f"seats[1].{p.name}",
                                                          f"seats[1].{q.name}"]
    assert f"has {len(seats)} entries but players = {spec.max_players}" in err.lines[0]


def test_a_bad_players_leaves_the_seats_count_unchecked_but_not_the_seats(tmp_path):
    err = one_error(tmp_path / "s.toml", {"game": "spooky_tower", "players": "three",
                                          "seats": [{"name": "random"}, {"name": "colector"}]})
    assert [line.split(": ")[1] for line in err.lines] == ["players", "seats[1].name"]


def test_an_unknown_game_stops_the_checks_that_need_the_game(tmp_path):
    err = one_error(tmp_path / "s.toml", {"game": "chess", "typo": 1, "players": 99, "rules": {"x": 1}})
    assert [line.split(": ")[1] for line in err.lines] == ["typo", "game"]


def test_the_alternatives_of_one_value_are_one_problem(tmp_path):
    """Climbing Tower's `tower` is a list or "random": pydantic reports both alternatives, the loader one line."""
    err = one_error(tmp_path / "s.toml", {"game": "climbing_tower", "rules": {"tower": 5, "round_limit": 0}})
    assert [line.split(": ")[1] for line in err.lines] == ["rules.tower.list[str]", "rules.round_limit"]


def test_the_claims_are_each_checked(tmp_path):
    err = one_error(tmp_path / "s.toml", {"game": "spooky_tower", "players": 9, "checks": {
        "strategy_order": ["colector", "random", "random"], "victory_share": {"no_such_kind": [0.1, 0.2]}}})
    assert [line.split(": ")[1] for line in err.lines] == [
        "players", "checks.victory_share.no_such_kind", "checks.strategy_order[0]", "checks.strategy_order[2]"]


def test_the_command_line_prints_every_problem_as_an_error_line_and_exits_2(tmp_path):
    path = tmp_path / "s.toml"
    err = one_error(path, {"game": "spooky_tower", **{k: v for p in PROBLEMS for k, v in p.items()}})
    for command in (["run", path, "-n", 10], ["show", path], ["sweep", path, "--set", "players=2,3"],
                    ["check", path]):
        res = CliRunner().invoke(main, [str(a) for a in command])
        assert res.exit_code == 2 and res.stdout == "", res.output
        assert res.stderr == "".join(f"error: {line}\n" for line in err.lines)


# --- where an override came from -----------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_a_python_keyword_is_named_as_one(game):
    spec = registry()[game]
    bad = spec.max_players + 1
    with pytest.raises(ScenarioError) as err:
        load_scenario(None, game=game, players=bad)
    assert str(err.value).startswith(f"<default> (keyword players={bad}): players: out of range (got {bad}; ")
    with pytest.raises(ScenarioError) as err:
        load_scenario(None, game=game, **{"rules.no_such_rule": "x"})
    assert str(err.value).startswith("<default> (keyword rules.no_such_rule='x'): rules.no_such_rule: unknown key")
    with pytest.raises(ScenarioError) as err:
        load_scenario(None, game="chess")
    assert str(err.value).startswith("<default> (keyword game='chess'): game: unknown game")


def test_simulate_and_the_studies_name_a_python_keyword_as_one():
    import balance
    with pytest.raises(ScenarioError, match=r"^<default> \(keyword players=9\): players: out of range"):
        balance.simulate(players=9, games=10)
    with pytest.raises(ScenarioError, match=r"^<default> \(keyword strategy='colector'\): strategy.name: unknown"):
        balance.simulate(strategy="colector", games=10)
    with pytest.raises(ScenarioError, match=r"^<default> \(keyword players=9\): players: out of range"):
        balance.sweep(None, {"players": [2, 9]}, games=10)
    with pytest.raises(ScenarioError, match=r"^<dict> \(keyword rules.flip_scope='x'\): rules.flip_scope"):
        balance.compare(None, sets={"rules.flip_scope": "x"}, games=10)
    with pytest.raises(ScenarioError, match=r"^keyword strategies='random,bogus': bogus: name: unknown strategy"):
        balance.tournament(None, "random,bogus", games=10)
    res = CliRunner().invoke(main, ["tournament", "--strategies", "random,bogus"])
    assert res.stderr.startswith("error: --strategies: bogus: name: unknown strategy"), res.output


@pytest.mark.parametrize("args, label", [
    (["run", "--players", "9"], "<default> (--players 9): players:"),
    (["run", "--strategy", "colector"], "<default> (--strategy colector): strategy.name:"),
    (["show", "--no-rotate", "--players", "9"], "<default> (--players 9): players:"),
    (["run", "-n", "10000000000000"], "<default> (-n 10000000000000): games:"),
    (["run", "--set", "players=9"], "<default> (--set players): players:"),
    (["run", "--set", "rules.flip_scope=x"], "<default> (--set rules.flip_scope): rules.flip_scope:"),
    (["sweep", "--set", "players=2,9"], "<default> (--set players): players:"),
    (["compare", "--both-set", "rules.flip_scope=y", "--set", "rules.flip_scope=x"],
     "<default> (--both-set rules.flip_scope): rules.flip_scope:"),
    (["compare", "--set", "rules.flip_scope=x", "--both-set", "rules.flip_scope=card"],    # B: A as a dict
     "<dict> (--set rules.flip_scope): rules.flip_scope:"),
    (["cards", "--players", "9"], "<default> (--players 9): players:"),
    (["check", str(SPOOKY), "--players", "9"], f"{SPOOKY} (--players 9): players:"),
    (["tournament", "--strategies", "random,collector", "--players", "9"], "<default> (--players 9): players:"),
    (["bench", "--players", "9"], "<default> (--players 9): players:"),
])
def test_the_command_line_names_the_option_an_override_came_from(args, label):
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2 and res.stdout == "", res.output
    assert res.stderr.startswith(f"error: {label}") and res.stderr.count("\n") == 1, res.stderr
    # the names are the command's: a Python keyword of the same key and value afterwards is a keyword again
    with pytest.raises(ScenarioError, match=r"^<default> \(keyword "):
        load_scenario(None, players=9, strategy="colector", **{"rules.flip_scope": "x"})
