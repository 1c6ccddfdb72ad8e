"""Scenario files: the shipped files, extends, overrides, round trips, hashes and one-line error messages."""
from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError

from balance.games import get_game, registry
from balance.games.spooky_tower.components import SpookyTowerComponents, SpookyTowerRules, rulebook_buildings
from balance.scenario import Scenario, ScenarioError, Seat, load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
DEFAULT_FILE = SCENARIOS / "spooky_tower.toml"
RULEBOOK_FILE = SCENARIOS / "spooky_tower_rulebook.toml"
SPEC = get_game("spooky_tower")
# A strategy that declares parameters, and one of its parameters (for the param tests).
PARAM_STRATEGY = next(s for s in SPEC.strategies.values() if s.params)
PARAM = PARAM_STRATEGY.params[0]


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# --- the shipped files -------------------------------------------------------------------------------------------

def test_default_file_is_the_public_card_list_written_out():
    s = load_scenario(DEFAULT_FILE)
    assert (s.game, s.players, s.games, s.turn_cap, s.seat_rotation) == ("spooky_tower", 3, 100000, 1000, False)
    assert [seat.strategy for seat in s.seats] == ["random"] * 3
    assert s.components == SpookyTowerComponents()
    assert s.rules == SpookyTowerRules()
    assert s.source == str(DEFAULT_FILE)
    # Written out in full, not left to the defaults: every key of every table is in the file.
    raw = tomllib.loads(DEFAULT_FILE.read_text())
    assert set(raw["components"]) == set(SpookyTowerComponents.model_fields)
    assert set(raw["rules"]) == set(SpookyTowerRules.model_fields)
    assert [b["value"] for b in raw["components"]["buildings"]] == list(range(1, 13))
    assert all(set(b) == {"value", "bonus", "ghost_worth", "photos"} for b in raw["components"]["buildings"])
    assert "Board Game Arena" in DEFAULT_FILE.read_text()


def test_rulebook_file_differs_from_the_default_only_in_value_1():
    default, rulebook = load_scenario(DEFAULT_FILE), load_scenario(RULEBOOK_FILE)
    assert rulebook.components.buildings == rulebook_buildings()
    a, b = default.to_dict(), rulebook.to_dict()
    assert a["components"]["buildings"][0] != b["components"]["buildings"][0]
    assert a["components"]["buildings"][1:] == b["components"]["buildings"][1:]
    for d in (a, b):
        d["components"].pop("buildings")
        d.pop("name")
    assert a == b
    assert rulebook.name != default.name


def test_rulebook_file_names_only_what_it_changes_and_the_merge_keeps_the_rest():
    """scenarios/README.md: the card lists merge item by item under `extends`, so the rulebook file gives value 1's
    Photos alone; the test above checks that this loads as the full list with only value 1 changed."""
    raw = tomllib.loads(RULEBOOK_FILE.read_text())
    assert raw["components"] == {"buildings": [{"value": 1, "photos": [["grimoire", "ghost"]] + [["grimoire"]] * 4}]}
    one = load_scenario(RULEBOOK_FILE).components.buildings[0]
    default_one = load_scenario(DEFAULT_FILE).components.buildings[0]
    assert (one.bonus, one.ghost_worth) == (default_one.bonus, default_one.ghost_worth)


def test_default_source_is_the_games_embedded_default():
    for source in (None, "default"):
        s = load_scenario(source)
        assert s.game == "spooky_tower" and s.players == 3
        assert s.components == load_scenario(DEFAULT_FILE).components


def test_minimal_dict_gets_every_default():
    s = load_scenario({"game": "spooky_tower"})
    assert (s.players, s.games, s.seed, s.turn_cap, s.seat_rotation) == (3, 100000, 1, 1000, False)
    assert s.seats == [Seat(strategy="random", params={})] * 3
    assert s.name == "spooky_tower" and s.source is None


def test_file_stem_is_the_default_name(tmp_path):
    path = write(tmp_path, "my_variant.toml", 'game = "spooky_tower"\n')
    assert load_scenario(path).name == "my_variant"


def test_seats_fill_in_declared_param_defaults():
    table = {"name": PARAM_STRATEGY.name, PARAM.name: PARAM.high}
    s = load_scenario({"game": "spooky_tower", "players": 2, "seats": [{"name": "random"}, table]})
    assert s.seats[0] == Seat(strategy="random", params={p.name: p.default for p in SPEC.strategies["random"].params})
    expected = {p.name: p.default for p in PARAM_STRATEGY.params} | {PARAM.name: PARAM.high}
    assert s.seats[1].params == expected


def test_strategy_lineup_is_kinds_and_zero_padded_params():
    table = {"name": PARAM_STRATEGY.name, PARAM.name: PARAM.low}
    s = load_scenario({"game": "spooky_tower", "players": 2, "seats": [table, {"name": "random"}]})
    kinds, params = s.strategy_lineup()
    assert kinds.dtype == np.int64 and kinds.tolist() == [PARAM_STRATEGY.kind, SPEC.strategies["random"].kind]
    assert params.dtype == np.float64 and params.shape == (2, 4)
    n = len(PARAM_STRATEGY.params)
    assert params[0, :n].tolist() == PARAM_STRATEGY.vector({PARAM.name: PARAM.low})
    assert not params[0, n:].any() and not params[1].any()


# --- extends -----------------------------------------------------------------------------------------------------

def test_extends_chain_merges_tables_key_by_key_and_replaces_lists(tmp_path):
    write(tmp_path, "base.toml", 'game = "spooky_tower"\nseed = 5\n[rules]\nflip_scope = "building"\n'
                                 '[components]\nghost_pets = 4\nclock_dial = ["pet", "pet"]\n')
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub", "mid.toml", 'extends = "../base.toml"\nplayers = 4\n[rules]\nextra_turns = "stack"\n'
                                        '[components]\nclock_dial = ["reroll"]\n')
    top = write(tmp_path / "sub", "top.toml", 'extends = "mid.toml"\nseed = 9\n')
    s = load_scenario(top)
    assert (s.name, s.players, s.seed) == ("top", 4, 9)
    assert (s.rules.flip_scope, s.rules.extra_turns) == ("building", "stack")
    assert s.components.ghost_pets == 4
    assert s.components.clock_dial == ["reroll"]


# One change to one item of each keyed list of each game, by a file that extends the game's shipped scenario:
# (list, the item's key, setting, value). A list value inside an item (photos) replaces the item's list whole.
ONE_CHANGE = {
    "spooky_tower": [("components.buildings", 12, "ghost_worth", 1),
                     ("components.buildings", 12, "photos", [["ghost"], ["clue"]])],
    "haunted_tower": [("components.heroes", "fighter", "hp", 9), ("components.monsters", "skeleton", "hp", 2),
                      ("components.items", "potion_of_healing", "heal", 2)],
    "climbing_tower": [("components.cards", "red_3", "swords", 1), ("components.tower", "001", "skill", "free_play"),
                       ("components.boss", "A", "hp", 5)],
}


@pytest.mark.parametrize("game", sorted(registry()))
def test_extends_changes_one_item_of_a_card_list_and_keeps_every_other(tmp_path, game):
    """docs/scenarios.md and scenarios/README.md: under `extends`, card lists merge item by item by their key."""
    spec = get_game(game)
    assert {path for path, *_ in ONE_CHANGE[game]} == set(spec.list_keys), "every keyed list of the game"
    shipped = SCENARIOS / f"{game}.toml"
    for path, item, setting, value in ONE_CHANGE[game]:
        key = spec.list_keys[path]
        text = (f'extends = "{shipped.as_posix()}"\nname = "one"\n[[{path}]]\n{key} = {_toml(item)}\n'
                f"{setting} = {_toml(value)}\n")
        got = load_scenario(write(tmp_path, "one.toml", text)).to_dict()
        want = load_scenario(shipped).to_dict() | {"name": "one"}
        section, name = path.split(".")
        changed = [x for x in want[section][name] if x[key] == item]
        assert len(changed) == 1 and changed[0][setting] != value, (path, item)
        changed[0][setting] = value
        assert got == want, (path, item, setting)


def _toml(value) -> str:
    return repr(value).replace("'", '"')


def test_extends_strategy_and_seats_replace_each_other_whole(tmp_path):
    other = next(n for n in SPEC.strategies if n != PARAM_STRATEGY.name)
    write(tmp_path, "base.toml", f'game = "spooky_tower"\nstrategy = {{ name = "{PARAM_STRATEGY.name}", '
                                 f'{PARAM.name} = {PARAM.high} }}\n')
    seats = write(tmp_path, "seats.toml", 'extends = "base.toml"\nplayers = 2\n'
                                          + f'[[seats]]\nname = "{other}"\n' * 2)
    strategy = write(tmp_path, "strategy.toml", f'extends = "seats.toml"\nstrategy = "{other}"\n')
    assert [s.strategy for s in load_scenario(seats).seats] == [other] * 2
    # The base's param is not merged into the new strategy table (it would be unknown to `other`).
    assert load_scenario(strategy).seats == load_scenario(seats).seats
    assert load_scenario(strategy, strategy={"name": PARAM_STRATEGY.name}).seats[0].params[PARAM.name] == PARAM.default


@pytest.mark.parametrize("files", [
    {"a.toml": 'extends = "a.toml"\n'},
    {"a.toml": 'extends = "b.toml"\n', "b.toml": 'game = "spooky_tower"\nextends = "c.toml"\n',
     "c.toml": 'extends = "a.toml"\n'},
])
def test_extends_cycle_is_an_error(tmp_path, files):
    for name, text in files.items():
        write(tmp_path, name, text)
    with pytest.raises(ScenarioError, match=r": extends: extends cycle.*\(got '.*\.toml'; allowed: ") as err:
        load_scenario(tmp_path / "a.toml")
    assert "\n" not in str(err.value)


def test_extends_missing_base_names_the_base_file(tmp_path):
    top = write(tmp_path, "top.toml", 'extends = "gone.toml"\n')
    with pytest.raises(ScenarioError) as err:
        load_scenario(top)
    assert str(err.value) == (f"{top}: extends: file not found (got 'gone.toml'; allowed: a path to a .toml file, "
                              f"relative to this file; {tmp_path / 'gone.toml'} is not there)")


def test_error_names_the_file_in_the_chain_that_set_the_bad_value(tmp_path):
    base = write(tmp_path, "base.toml", 'game = "spooky_tower"\n[components]\nghost_pets = -1\n')
    top = write(tmp_path, "top.toml", 'extends = "base.toml"\n[components]\npark_ghosts = 2\n')
    with pytest.raises(ScenarioError) as err:
        load_scenario(top)
    assert str(err.value).startswith(f"{base}: components.ghost_pets: ")


# --- overrides ---------------------------------------------------------------------------------------------------

def test_overrides_apply_after_merging_and_none_is_ignored():
    s = load_scenario(DEFAULT_FILE, players=4, seed=7, games=10, turn_cap=None, seat_rotation=True)
    assert (s.players, s.seed, s.games, s.turn_cap, s.seat_rotation) == (4, 7, 10, 1000, True)
    assert len(s.seats) == 4


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.toml")), ids=lambda p: p.stem)
def test_the_lineup_follows_players_for_every_shipped_scenario(path):
    """--players (an override) cycles the listed seats to its number, and says so; the number the file gives
    changes nothing at all."""
    plain = load_scenario(path)
    same = load_scenario(path, players=plain.players)
    assert same == plain and same.hash() == plain.hash() and same.notes == () and same.to_toml() == plain.to_toml()
    listed = [s.strategy for s in plain.seats]
    spec = plain.spec()
    for p in range(spec.min_players, spec.max_players + 1):
        s = load_scenario(path, players=p)
        assert [seat.strategy for seat in s.seats] == [listed[i % len(listed)] for i in range(p)]
        assert len(s.strategy_lineup()[0]) == p
        if p != plain.players and _lists_seats(path):
            assert len(s.notes) == 1 and str(p) in s.notes[0]
            assert f"# note: {s.notes[0]}" in s.to_toml()
        else:
            assert s.notes == ()            # one strategy for every seat: nothing to cycle
        assert load_scenario(tomllib.loads(s.to_toml())) == s        # the resolved file lists every seat


def _lists_seats(path: Path) -> bool:
    """Whether the file, or the one it extends, lists [[seats]] (that a `strategy` does not replace)."""
    raw = tomllib.loads(path.read_text())
    if "seats" in raw or "strategy" in raw:
        return "seats" in raw
    return "extends" in raw and _lists_seats(path.parent / raw["extends"])


def test_seats_cycle_to_players_set_by_a_later_layer(tmp_path):
    haunted = SCENARIOS / "haunted_tower.toml"
    six = load_scenario(haunted, players=6)
    assert [s.strategy for s in six.seats] == ["monster_hunter", "cautious_looter", "specter_rusher",
                                               "monster_hunter", "monster_hunter", "cautious_looter"]
    assert six.notes == ("seats cycled from the 4 listed to 6 (players = 6): seat i plays listed seat i mod 4",)
    three = load_scenario(haunted, players=3)
    assert [s.strategy for s in three.seats] == ["monster_hunter", "cautious_looter", "specter_rusher"]
    assert three.notes == ("seats: the first 3 of the 4 listed, for players = 3",)
    child = write(tmp_path, "six.toml", f'extends = "{haunted}"\nplayers = 6\n')
    assert load_scenario(child).seats == six.seats and load_scenario(child).notes == six.notes
    # a seat beyond the listed ones can be set once players makes it exist
    s = load_scenario(haunted, players=6, **{"seats.5.strategy": "specter_rusher"})
    assert [x.strategy for x in s.seats][4:] == ["monster_hunter", "specter_rusher"] and s.notes == six.notes


def test_seats_that_disagree_with_players_in_the_same_file_are_still_an_error(tmp_path):
    """A file that lists seats for another number than its own players (or than the default, when it gives none)
    has a typo: nothing later asked for another number."""
    for text in ('players = 2\n' + '[[seats]]\nname = "random"\n' * 3, '[[seats]]\nname = "random"\n' * 4):
        path = write(tmp_path, "bad.toml", 'game = "spooky_tower"\n' + text)
        with pytest.raises(ScenarioError, match=r"seats: has \d entries but players = \d"):
            load_scenario(path)
        with pytest.raises(ScenarioError, match="seats: has"):      # a --set of one seat does not hide it
            load_scenario(path, **{"seats.0.strategy": "random"})


def test_a_game_for_one_number_of_players_says_so():
    with pytest.raises(ScenarioError, match=r"players: out of range \(got 3; allowed: 2 \(Climbing Tower is "
                                            r"played by 2 players only\)\)"):
        load_scenario(SCENARIOS / "climbing_tower.toml", players=3)


def test_strategy_override_replaces_seats_and_tables_merge():
    seats = [{"name": "random"}, {"name": PARAM_STRATEGY.name}]
    s = load_scenario({"game": "spooky_tower", "players": 2, "seats": seats}, strategy=PARAM_STRATEGY.name,
                      rules={"flip_scope": "building"})
    assert [seat.strategy for seat in s.seats] == [PARAM_STRATEGY.name] * 2
    assert s.rules.flip_scope == "building" and s.rules.effect_order == "printed"


def test_bad_override_is_an_error_naming_the_override():
    with pytest.raises(ScenarioError) as err:
        load_scenario(DEFAULT_FILE, players=5)
    assert str(err.value) == (f"{DEFAULT_FILE} (keyword players=5): players: out of range "
                              f"(got 5; allowed: an integer from 2 to 4)")


# --- round trips and hashes --------------------------------------------------------------------------------------

def mixed_scenario() -> Scenario:
    return load_scenario(RULEBOOK_FILE, players=2, seat_rotation=True, seats=[
        {"name": PARAM_STRATEGY.name, PARAM.name: PARAM.low}, {"name": "random"}],
        components={"clock_dial": ["none", "pet"], "park_requirements": []}, rules={"effect_order": "takes_first"})


def test_to_dict_round_trips():
    # checks are claims about the games, not settings of them; notes say how the seats were read; the overrides are
    # recorded only to be repeated on a command line: all stay out of to_dict and so of the hash
    assert set(load_scenario(None).to_dict()) == \
        set(Scenario.model_fields) - {"source", "resources", "checks", "overrides", "notes"}
    for s in (load_scenario(DEFAULT_FILE), load_scenario(RULEBOOK_FILE), load_scenario(None), mixed_scenario()):
        assert load_scenario(s.to_dict()) == s


def test_to_toml_round_trips(tmp_path):
    for s in (load_scenario(DEFAULT_FILE), mixed_scenario()):
        text = s.to_toml()
        assert tomllib.loads(text) == s.to_dict() | ({"checks": s.checks.given()} if s.checks else {})
        back = load_scenario(write(tmp_path, "out.toml", text))
        assert back == s and back.checks == s.checks


def test_to_toml_quotes_awkward_strings():
    # Regression: JSON-style escaping wrote characters outside the BMP as surrogate pairs, which TOML rejects.
    s = load_scenario(DEFAULT_FILE, name='quote " backslash \\ newline \n tab \t é "x" \U00010000 \x7f \x00')
    assert load_scenario(tomllib.loads(s.to_toml())).name == s.name


def test_hash_is_stable_and_changes_with_any_key():
    a, b = load_scenario(DEFAULT_FILE), load_scenario(DEFAULT_FILE)
    assert a.hash() == b.hash() and len(a.hash()) == 64
    assert load_scenario(a.to_dict()).hash() == a.hash()
    changed = [load_scenario(DEFAULT_FILE, seed=2), load_scenario(DEFAULT_FILE, players=4),
               load_scenario(DEFAULT_FILE, components={"ghost_pets": 2}),
               load_scenario(DEFAULT_FILE, rules={"extra_turns": "stack"}), load_scenario(RULEBOOK_FILE),
               load_scenario(DEFAULT_FILE, strategy={"name": PARAM_STRATEGY.name}),
               load_scenario(DEFAULT_FILE, strategy={"name": PARAM_STRATEGY.name, PARAM.name: PARAM.high})]
    hashes = {a.hash()} | {c.hash() for c in changed}
    assert len(hashes) == len(changed) + 1


# --- errors: one line naming file, key, bad value and what is allowed ---------------------------------------------

BAD_PARAM = f'[strategy]\nname = "{PARAM_STRATEGY.name}"\n{PARAM.name} = {PARAM.high + 1}\n'
TYPO_PHOTO = ("".join(f'[[components.buildings]]\nvalue = {v}\nphotos = [["ghost"]]\n' for v in (1, 2, 3))
              + '[[components.buildings]]\nvalue = 4\nphotos = [["pet"], ["ghots"]]\n')
ERROR_CASES = {
    # name: (TOML after `game = "spooky_tower"`, key path, repr of the bad value, part of what is allowed)
    "top-level typo": ("player = 3\n", "player", "3", "players"),
    "typo in rules": ('[rules]\nflip_scop = "card"\n', "rules.flip_scop", "'card'", "flip_scope"),
    "typo in a building": ('[[components.buildings]]\nvalue = 1\nphotos = []\nghost_wrth = 2\n',
                           "components.buildings[value=1].ghost_wrth", "2", "ghost_worth"),
    "typo in a photo effect": (TYPO_PHOTO, "components.buildings[value=4].photos[1][0]", "'ghots'", "'ghost'"),
    "wrong type": ('players = "three"\n', "players", "'three'", "an integer from 2 to 4"),
    "too many players": ("players = 5\n", "players", "5", "an integer from 2 to 4"),
    "negative count": ("[components]\nghost_pets = -1\n", "components.ghost_pets", "-1", "from 0 to 20"),
    "empty dial": ("[components]\nclock_dial = []\n", "components.clock_dial", "[]", "1 to 24 effects"),
    "clock on the dial": ('[components]\nclock_dial = ["pet", "clock"]\n', "components.clock_dial",
                          "['pet', 'clock']", "none of them 'clock'"),
    "park requirement 0": ("[components]\npark_requirements = [0, 1]\n", "components.park_requirements", "[0, 1]",
                           "each needing 1 to 50 clues"),
    "not a list": ('[components]\npark_requirements = "1"\n', "components.park_requirements", "'1'",
                   "a list, each item an integer"),
    "repeated building value": ('[[components.buildings]]\nvalue = 1\nphotos = []\n[[components.buildings]]\n'
                                'value = 1\nphotos = []\n', "components.buildings[1].value", "1",
                                "each value at most once a file"),
    "win threshold out of range": ("[components]\nghosts_to_win = 999\n", "components.ghosts_to_win", "999",
                                   "an integer from 1 to 100"),
    "win threshold unreachable": ("[components]\nghosts_to_win = 90\n", "components.ghosts_to_win", "90",
                                  "an integer from 1 to"),
    "unknown rule value": ('[rules]\neffect_order = "random"\n', "rules.effect_order", "'random'", "'printed'"),
    "unknown strategy": ('strategy = { name = "randm" }\n', "strategy.name", "'randm'", "'random'"),
    "unknown strategy param": (f'strategy = {{ name = "{PARAM_STRATEGY.name}", nope = 1 }}\n', "strategy.nope", "1",
                               PARAM.name),
    "param out of range": (BAD_PARAM, f"strategy.{PARAM.name}", repr(PARAM.high + 1), f"{PARAM.high:g}"),
    "param out of range in a seat": (
        f'players = 2\n[[seats]]\nname = "random"\n[[seats]]\nname = "{PARAM_STRATEGY.name}"\n'
        f'{PARAM.name} = {PARAM.low - 5}\n', f"seats[1].{PARAM.name}", repr(PARAM.low - 5), "a number from"),
    "seats count": ('players = 3\n[[seats]]\nname = "random"\n', "seats", "['random']", "exactly 3"),
    "strategy and seats": ('strategy = "random"\n[[seats]]\nname = "random"\n', "strategy", "'random'", "[[seats]]"),
    "turn cap": ("turn_cap = 5\n", "turn_cap", "5", "an integer from 10 to 10000"),
    "negative seed": ("seed = -1\n", "seed", "-1", "an integer from 0 to"),
    "zero games": ("games = 0\n", "games", "0", "an integer from 1 to"),
    "rotation type": ('seat_rotation = "yes"\n', "seat_rotation", "'yes'", "true or false"),
    "missing photos": ('replace = ["components.buildings"]\n[[components.buildings]]\nvalue = 1\n',
                       "components.buildings[value=1].photos", "nothing",
                       "a list, each item a list"),
}


@pytest.mark.parametrize("case", ERROR_CASES, ids=list(ERROR_CASES))
def test_bad_input_gives_a_one_line_error(tmp_path, case):
    text, key, got, allowed = ERROR_CASES[case]
    path = write(tmp_path, "bad.toml", 'game = "spooky_tower"\n' + text)
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    msg = str(err.value)
    assert "\n" not in msg
    assert msg.startswith(f"{path}: {key}: "), msg
    assert f"(got {got}; allowed: " in msg, msg
    assert allowed in msg.split("; allowed: ", 1)[1], msg
    assert (err.value.file, err.value.key) == (str(path), key)


def test_unknown_game_in_a_dict():
    with pytest.raises(ScenarioError) as err:
        load_scenario({"game": "chess"})
    assert str(err.value) == ("<dict>: game: unknown game (got 'chess'; allowed: one of 'spooky_tower', "
                              "'haunted_tower', 'climbing_tower')")


def test_missing_file(tmp_path):
    with pytest.raises(ScenarioError) as err:
        load_scenario(str(tmp_path / "nope.toml"))
    assert str(err.value) == f"{tmp_path / 'nope.toml'}: file not found"


def test_toml_syntax_error(tmp_path):
    path = write(tmp_path, "bad.toml", 'game = "spooky_tower"\nplayers = = 3\n')
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    msg = str(err.value)
    assert msg.startswith(f"{path}: TOML syntax error: ") and "line 2" in msg and "\n" not in msg


def test_not_utf8_is_a_syntax_error(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_bytes(b'name = "\xff"\n')
    with pytest.raises(ScenarioError, match="TOML syntax error"):
        load_scenario(path)


def test_scenario_is_frozen():
    s = load_scenario(None)
    with pytest.raises(ValidationError):
        s.players = 4


@pytest.mark.parametrize("form", ['strategy = "ghost_hunterr"', 'strategy = { name = "ghost_hunterr" }',
                                  '[[seats]]\nname = "random"\n[[seats]]\nname = "ghost_hunterr"\n[[seats]]\n'
                                  'name = "random"'])
def test_a_bad_strategy_name_in_a_base_file_blames_the_base_in_either_form(tmp_path, form):
    base = write(tmp_path, "base.toml", f'game = "spooky_tower"\n{form}\n')
    child = write(tmp_path, "child.toml", 'extends = "base.toml"\nseed = 4\n')
    with pytest.raises(ScenarioError) as err:
        load_scenario(child)
    assert str(err.value).startswith(f"{base}: ") and "unknown strategy" in str(err.value)


def test_an_item_of_a_keyed_list_is_named_by_its_key_in_errors(tmp_path):
    """A file that extends another and gives one Building: the error names that Building by its value, not by its
    place in the merged list of twelve (which no file shows); the same for a hero by its name, and for an override."""
    one = tmp_path / "one.toml"
    one.write_text(f'extends = "{DEFAULT_FILE}"\n[[components.buildings]]\nvalue = 4\nphotos = [["ghots"]]\n')
    with pytest.raises(ScenarioError, match=r"^[^\n]*one\.toml: components\.buildings\[value=4\]\.photos\[0\]\[0\]: "
                                            r"unknown value"):
        load_scenario(one)
    hero = tmp_path / "hero.toml"
    hero.write_text(f'extends = "{SCENARIOS / "haunted_tower.toml"}"\n[[components.heroes]]\nname = "thief"\n'
                    'hp = 0\n')
    with pytest.raises(ScenarioError, match=r"hero\.toml: components\.heroes\[name=thief\]\.hp: out of range"):
        load_scenario(hero)
    with pytest.raises(ScenarioError, match=r"\(keyword components\.buildings\.12\.ghost_worth=-1\): "
                                            r"components\.buildings\[value=12\]\.ghost_worth: out of range"):
        load_scenario(DEFAULT_FILE, **{"components.buildings.12.ghost_worth": -1})
