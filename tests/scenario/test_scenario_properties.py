"""Property tests: whatever a scenario holds, load_scenario returns a Scenario or raises ScenarioError.

Malformed dicts, random bytes, garbage TOML and random trees spliced into a valid scenario must never escape as any
other exception, every problem an error reports is one line, and every scenario that loads survives a round trip
through its own TOML.
"""
from __future__ import annotations

import copy
import tempfile
import tomllib
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from balance.games import get_game
from balance.scenario import Scenario, ScenarioError, dumps_toml, load_scenario

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SPEC = get_game("spooky_tower")
# A valid scenario to splice garbage into; its seats use strategies with parameters where the game has them.
VALID = load_scenario({"game": "spooky_tower", "players": 3, "seats": [
    {"name": name} for name in (sorted(SPEC.strategies, key=lambda n: -len(SPEC.strategies[n].params)) * 3)[:3]]}
).to_dict()
KEYS = ["name", "game", "players", "games", "seed", "turn_cap", "seat_rotation", "strategy", "seats", "rules",
        "components", "buildings", "value", "photos", "bonus", "ghost_worth", "clock_dial", "ghost_pets",
        "ghosts_to_win", "effect_order", "flip_scope", *SPEC.strategies,
        *(p.name for s in SPEC.strategies.values() for p in s.params)]
NAMES = ["spooky_tower", "random", "ghost", "pet", "clock", "printed", "building", "none", "card", "clue",
         *SPEC.strategies]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70), st.integers(-3, 50),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(NAMES), st.text(max_size=8),
)
keys = st.one_of(st.sampled_from(KEYS), st.text(max_size=6))
trees = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)), max_leaves=12)


def check(source, **overrides) -> Scenario | None:
    """Load; the only allowed failure is a one-line ScenarioError. A scenario that loads must round-trip."""
    try:
        s = load_scenario(source, **overrides)
    except ScenarioError as err:
        assert err.errors and str(err) == "\n".join(err.lines)   # every problem found, each one line
        assert all(line and "\n" not in line for line in err.lines) and len(set(err.lines)) == len(err.lines)
        assert "cannot read scenario" not in str(err), f"an unplanned exception reached the fallback: {err}"
        return None
    assert isinstance(s, Scenario) and len(s.seats) == s.players
    assert load_scenario(tomllib.loads(s.to_toml())) == s
    return s


def all_paths(node, prefix=()) -> list[tuple]:
    """Every position in a tree of tables and lists, as a tuple of keys and indices."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    out = []
    for key, child in items:
        out += [prefix + (key,)] + all_paths(child, prefix + (key,))
    return out


def splice(data: dict, path: tuple, value) -> dict:
    """A copy of ``data`` with ``value`` put at ``path`` (its last key may be new)."""
    out = copy.deepcopy(data)
    node = out
    for step in path[:-1]:
        node = node[step]
    if isinstance(node, (dict, list)):
        node[path[-1]] = value
    return out


VALID_PATHS = all_paths(VALID)
new_keys = st.sampled_from(KEYS + ["typo", "valu", "photo"])
positions = st.one_of(st.sampled_from(VALID_PATHS),
                      st.builds(lambda p, k: p + (k,), st.sampled_from([()] + VALID_PATHS), new_keys))


@SETTINGS
@given(paths=st.lists(positions, min_size=1, max_size=3), values=st.lists(trees, min_size=3, max_size=3))
def test_random_trees_spliced_into_a_valid_scenario(paths, values):
    data = VALID
    for path, value in zip(paths, values):
        try:
            data = splice(data, path, value)
        except (KeyError, IndexError, TypeError):  # an earlier splice removed the way there
            pass
    check(data)


@SETTINGS
@given(data=st.dictionaries(keys, trees, max_size=6))
def test_random_dict(data):
    check(data)


@SETTINGS
@given(overrides=st.dictionaries(st.sampled_from(KEYS[:12]), trees, max_size=3))
def test_random_overrides(overrides):
    check(VALID, **overrides)


@SETTINGS
@given(data=st.binary(max_size=200))
def test_random_bytes_file(data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.toml"
        path.write_bytes(data)
        check(path)


toml_lines = st.lists(st.one_of(
    st.sampled_from(['game = "spooky_tower"', "[rules]", "[components]", "[[seats]]", "[[components.buildings]]",
                     'extends = "s.toml"', 'extends = "other.toml"', "players = 3", 'name = "random"',
                     "photos = [[\"ghost\"], []]", "value = 12", "ghost_pets = -1", "clock_dial = []", "= =", "[",
                     'strategy = { name = "ghost_hunter", flip_min_ev = 2.5 }', "seat_rotation = true"]),
    st.builds(lambda k, v: f"{k} = {v}", st.sampled_from(KEYS), st.sampled_from(
        ["1", "-1", "0.5", "true", '"x"', "[]", "[1, 2]", "{}", '[["pet"]]', "1979-05-27", "inf", "nan"])),
    st.text(max_size=12),
), max_size=12)


@SETTINGS
@given(lines=toml_lines, other=toml_lines)
def test_garbage_toml_files(lines, other):
    """Random TOML-ish text in a file that may extend itself or a second random file."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "other.toml").write_text("\n".join(other), encoding="utf-8")
        path = Path(folder) / "s.toml"
        path.write_text("\n".join(lines), encoding="utf-8")
        check(path)


@SETTINGS
@given(players=st.integers(2, 4), data=st.data())
def test_valid_random_lineups_load_and_round_trip(players, data):
    seats = []
    for _ in range(players):
        strategy = SPEC.strategies[data.draw(st.sampled_from(sorted(SPEC.strategies)))]
        table = {"name": strategy.name}
        for p in strategy.params:
            if data.draw(st.booleans()):
                table[p.name] = data.draw(st.floats(p.low, p.high))
        seats.append(table)
    seed, pets = data.draw(st.integers(0, 2**63 - 1)), data.draw(st.integers(0, 20))
    s = check({"game": "spooky_tower", "players": players, "seats": seats, "seed": seed,
               "components": {"ghost_pets": pets}})
    assert s is not None
    assert tomllib.loads(dumps_toml(s.to_dict())) == s.to_dict()


# --- One-key changes: keyed lists merge item by item (balance/scenario/layers.py) -------------------------------------

DEFAULT_SPOOKY = load_scenario({"game": "spooky_tower"})


def _with_building(scenario: Scenario, value: int, **changes) -> dict:
    """The scenario's dict with one Building's keys changed, everything else as it was."""
    d = scenario.to_dict()
    for b in d["components"]["buildings"]:
        if b["value"] == value:
            b.update(changes)
    return d


@SETTINGS
@given(value=st.integers(1, 12), worth=st.integers(0, 10))
def test_a_file_extending_another_with_one_building_table_changes_that_building_only(value, worth):
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base.toml"
        base.write_text(DEFAULT_SPOOKY.to_toml(), encoding="utf-8")
        child = Path(tmp) / "child.toml"
        child.write_text(f'extends = "base.toml"\n[[components.buildings]]\nvalue = {value}\nghost_worth = {worth}\n',
                         encoding="utf-8")
        got = load_scenario(child)
    want = load_scenario(_with_building(DEFAULT_SPOOKY, value, ghost_worth=worth))
    assert got.components == want.components and len(got.components.buildings) == 12


@SETTINGS
@given(value=st.integers(1, 12), worth=st.integers(0, 10))
def test_set_and_a_dotted_override_change_one_building_like_an_extending_file(value, worth):
    want = load_scenario(_with_building(DEFAULT_SPOOKY, value, ghost_worth=worth))
    got = load_scenario(None, **{f"components.buildings.{value}.ghost_worth": worth})
    assert got.components == want.components


@SETTINGS
@given(values=st.lists(st.integers(1, 12), min_size=1, max_size=11, unique=True))
def test_a_smaller_card_list_needs_replace_and_then_is_exactly_what_the_file_gives(values):
    tables = [{"value": v, "photos": [["ghost"]] * 3} for v in values]
    merged = load_scenario({"game": "spooky_tower", "components": {"buildings": tables}})
    assert sorted(b.value for b in merged.components.buildings) == list(range(1, 13))     # merged, nothing lost
    try:
        smaller = load_scenario({"game": "spooky_tower", "replace": ["components.buildings"],
                                 "components": {"buildings": tables, "ghosts_to_win": 1}})
    except ScenarioError as err:       # a smaller Town may fail the game's own checks; never silently
        assert "\n" not in str(err)
        return
    assert sorted(b.value for b in smaller.components.buildings) == sorted(values)


def test_an_empty_keyed_list_is_refused_with_what_to_write_instead():
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "empty.toml"
        path.write_text('game = "spooky_tower"\n[components]\nbuildings = []\n', encoding="utf-8")
        try:
            load_scenario(path)
        except ScenarioError as err:
            assert str(err) == (f"{path}: components.buildings: an empty list changes nothing, because this list "
                                "merges item by item (got []; allowed: tables that each change or add one value, or "
                                "replace = [\"components.buildings\"] in this file to give the whole list)")
        else:
            raise AssertionError("buildings = [] loaded")


def test_a_keyed_table_without_its_key_is_refused():
    try:
        load_scenario({"game": "spooky_tower", "components": {"buildings": [{"ghost_worth": 2}]}})
    except ScenarioError as err:
        assert str(err).startswith("<dict>: components.buildings[0].value: missing key (got nothing; allowed: "
                                   "every table names its value")
    else:
        raise AssertionError("a Building table without its value loaded")


@SETTINGS
@given(seat=st.integers(0, 3), ev=st.floats(0, 10))
def test_set_changes_one_seat_and_keeps_the_others(seat, ev):
    s = load_scenario({"game": "spooky_tower", "players": 4, "strategy": "collector"},
                      **{f"seats.{seat}.strategy": "ghost_hunter", f"seats.{seat}.flip_min_ev": ev})
    assert [x.strategy for x in s.seats] == ["ghost_hunter" if i == seat else "collector" for i in range(4)]
    assert s.seats[seat].params["flip_min_ev"] == ev


def test_set_on_the_haunted_tower_changes_one_hero_and_one_monster():
    base = load_scenario("scenarios/haunted_tower.toml")
    s = load_scenario("scenarios/haunted_tower.toml", **{"components.heroes.elf.hp": 9,
                                                         "components.monsters.specter.hp": 12,
                                                         "rules.heroes.5": "dwarf", "rules.heroes.1": "thief"})
    assert {h.name: h.hp for h in s.components.heroes} == {**{h.name: h.hp for h in base.components.heroes},
                                                         "elf": 9}
    assert [m.hp for m in s.components.monsters if m.name == "specter"] == [12]
    assert len(s.components.monsters) == len(base.components.monsters)
    assert s.rules.heroes == ["fighter", "thief", "elf", "magic_user", "cleric", "dwarf"]
