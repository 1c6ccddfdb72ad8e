"""Property tests: whatever a scenario holds, load_scenario returns a Scenario or raises ScenarioError.

Malformed dicts, random bytes, garbage TOML and random trees spliced into a valid scenario must never escape as any
other exception, every error message is one line, and every scenario that loads survives a round trip through its
own TOML.
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
        assert "\n" not in str(err) and str(err)
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
