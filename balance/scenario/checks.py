"""Checking a scenario: every key of the merged layers against the game, each problem one line naming the layer
(the file, or the override) that set the value, every independent problem of the scenario found by one load
(:meth:`Checker.scenario` says which wait for which). :func:`balance.scenario.load_scenario` reads and merges the
layers, then builds the :class:`~balance.scenario.Scenario` here."""
from __future__ import annotations

import re
import typing
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from .. import games as _games
from . import layers
from .claims import Checks
from .wording import contains, describe, did_you_mean, field_at, is_model, is_utf8, key_path, one_of, union_loc
from .model import (DEFAULTS, MAX_GAMES, MAX_SEED, TOP_KEYS, TURN_CAP_RANGE, Scenario, ScenarioError, Seat,
                       _Layer, cycle_seats, seats_note, spec_resolve)

_NOTHING = layers.NOTHING                 # "got" of a missing key
_FAILED = object()                        # what a check that found a problem gives (Checker.attempt)
_value_at = layers.value_at


class Checker:
    """Checks a merged scenario table and builds the :class:`Scenario`; errors name the file a key came from."""

    def __init__(self, data: dict, chain: list[_Layer], path: str | None, keyed: dict | None = None):
        self.data, self.chain, self.path, self.keyed = data, chain, path, keyed or {}
        self.errors: list[ScenarioError] = []      # what the checks so far found

    def fail(self, loc: tuple, problem: str, got: Any = _NOTHING, allowed: str = "") -> typing.NoReturn:
        raise ScenarioError(self._owner(loc), problem, key_path(loc, self._named(loc)), got, allowed)

    def _named(self, loc: tuple) -> dict[int, str]:
        """The items of keyed lists along ``loc`` (a game's ``list_keys``: Spooky Tower's Buildings by value) that a
        message names by their key, as ``--set`` and ``--vary`` do and as the file gives them (``value=4``), not by
        their place in the merged list, which no file shows: each item whose key is given and unique in its list,
        unless the problem is the key itself."""
        named = {}
        for i, part in enumerate(loc):
            key = self.keyed.get(tuple(loc[:i]))
            if key is None or not isinstance(part, int) or loc[i + 1:i + 2] == (key,):
                continue
            items = _value_at(self.data, loc[:i])
            keys = [item.get(key) if isinstance(item, dict) else None for item in items] \
                if isinstance(items, list) else []
            name = keys[part] if 0 <= part < len(keys) else None
            if isinstance(name, (int, str)) and not isinstance(name, bool) and keys.count(name) == 1:
                named[i] = f"{key}={name}"
        return named

    def attempt(self, check: typing.Callable, *args: Any) -> Any:
        """``check(*args)``; a problem it raises is kept for the end and ``_FAILED`` given instead, so that the
        checks that do not depend on it go on."""
        try:
            return check(*args)
        except ScenarioError as err:
            self.errors += err.errors
            return _FAILED

    def raise_found(self) -> None:
        """Raise every problem found so far as one ScenarioError (nothing when there is none)."""
        if self.errors:
            raise ScenarioError.every(self.errors)

    @staticmethod
    def each(checks: typing.Iterable[typing.Callable[[], Any]]) -> list:
        """Every check's value; one that fails stops none of the others, and all their problems are raised together
        after the last."""
        out, errors = [], []
        for check in checks:
            try:
                out.append(check())
            except ScenarioError as err:
                errors += err.errors
        if errors:
            raise ScenarioError.every(errors)
        return out

    def _owner(self, loc: tuple) -> str:
        """The most derived file (or override) that sets the value at ``loc``; else the file the user gave."""
        for layer in reversed(self.chain):
            if layer.kind == "defaults":     # the game's own defaults: never the wrong value
                continue
            raw = layer.raw
            mine = layers.layer_loc(self.data, raw, loc, self.keyed) if loc else None
            if mine is not None and (contains(raw, mine) or (   # a strategy's name given as a plain string
                    mine[-1] == "name" and isinstance(_value_at(raw, mine[:-1]), str))):
                return layer.blame(mine)
        return next(layer.label for layer in reversed(self.chain) if layer.kind == "file")

    def scenario(self) -> Scenario:
        """The checked scenario, or a ScenarioError holding every problem found. Each check below runs whatever the
        others found, except where it depends on another: every key but the unknown ones depends on the game (an
        unknown game ends the checking), the seats' count on ``players``, the game's checks across tables
        (``GameSpec.check``) on ``players``, ``[rules]`` and ``[components]``, and the claims' own checks on the
        ``[checks]`` table's shape. Problems met while reading and merging the files (``_load``) end the loading
        before any of these: a table that cannot be merged cannot be checked."""
        d = self.data
        self.attempt(self.each, [lambda key=key: self.fail((key,), "unknown key" + did_you_mean(key, TOP_KEYS),
                                                           d[key], ", ".join(TOP_KEYS))
                                 for key in d if key not in TOP_KEYS])
        if self.attempt(self.game, _games.NAMES) is _FAILED:
            self.raise_found()
        spec = _games.get_game(d["game"])
        self.attempt(self.name)
        lo, hi = spec.min_players, spec.max_players
        players = self.attempt(self.integer, "players", d.get("players", min(lo + 1, hi)), lo, hi,
                               f"{lo} ({spec.title} is played by {lo} players only)" if lo == hi else None)
        n_games = self.attempt(self.integer, "games", d.get("games", DEFAULTS["games"]), 1, MAX_GAMES)
        seed = self.attempt(self.integer, "seed", d.get("seed", DEFAULTS["seed"]), 0, MAX_SEED)
        turn_cap = self.attempt(self.integer, "turn_cap", d.get("turn_cap", spec.turn_cap), *TURN_CAP_RANGE)
        rotation = self.attempt(self.rotation)
        lineup = self.attempt(self.seats, spec, players)
        rules = self.attempt(self.model, "rules", spec.rules_model)
        components = self.attempt(self.model, "components", spec.components_model)
        resources = {}
        if spec.check and _FAILED not in (players, rules, components):
            resources = self.attempt(self.cross_check, spec, components, rules, players)
        checks = self.attempt(self.claims, spec) if "checks" in d else None
        self.raise_found()
        seats, notes = lineup
        return Scenario(
            name=d["name"], game=spec.name, players=players, games=n_games, seed=seed, turn_cap=turn_cap,
            seat_rotation=rotation, seats=seats, rules=rules, components=components, checks=checks,
            source=self.path, resources=resources, notes=notes,
        )

    def game(self, games) -> str:
        d = self.data
        if "game" not in d:
            self.fail(("game",), "missing key", allowed=one_of(games))
        if not isinstance(d["game"], str) or d["game"] not in games:
            self.fail(("game",), "unknown game", d["game"], one_of(games))
        return d["game"]

    def name(self) -> None:
        name = self.data["name"]
        if not isinstance(name, str) or not name.strip() or not is_utf8(name):
            self.fail(("name",), "must be a non-empty string", name, "any non-empty text")

    def rotation(self) -> bool:
        rotation = self.data.get("seat_rotation", DEFAULTS["seat_rotation"])
        if not isinstance(rotation, bool):
            self.fail(("seat_rotation",), "must be true or false", rotation, "true or false")
        return rotation

    def claims(self, spec: _games.GameSpec) -> Checks:
        """The ``[checks]`` table, checked against the game: its victory kinds, its strategies, its shape."""
        checks = self.model("checks", Checks)
        team = "a co-operative game's players win or lose together"
        found: list[typing.Callable[[], None]] = []        # each problem, raised together by each()
        if spec.cooperative:
            for key in ("seat_gap_max", "strategy_order"):
                if getattr(checks, key) is not None:
                    found.append(lambda key=key: self.fail(
                        ("checks", key), f"not a claim about a co-operative game ({team})", getattr(checks, key),
                        "win_rate, length_mean, victory_share, item_lift_max, role_gap_max"))
        elif checks.win_rate is not None:
            found.append(lambda: self.fail(("checks", "win_rate"), "a claim about a co-operative game's team",
                                           checks.win_rate, "seat_gap_max, role_gap_max, strategy_order, "
                                           "length_mean, victory_share, item_lift_max"))
        if checks.role_gap_max is not None and spec.role_name is None:
            found.append(lambda: self.fail(("checks", "role_gap_max"), f"{spec.title} has no roles (a hero each "
                                           "seat plays)", checks.role_gap_max, "a claim of a game with roles"))
        kinds = spec.victory_names[1:]
        for kind in checks.victory_share or {}:
            if kind not in kinds:
                found.append(lambda kind=kind: self.fail(
                    ("checks", "victory_share", kind), "unknown victory kind" + did_you_mean(kind, kinds), kind,
                    one_of(kinds)))
        # a strategy the game lacks is a typo; one the lineup lacks makes the claim not applicable to this lineup,
        # which `balance check` reports (balance.analysis.checks.claims) and every other command ignores: claims change
        # no game
        names = list(spec.strategies)
        for i, name in enumerate(checks.strategy_order or ()):
            if name not in names:
                found.append(lambda i=i, name=name: self.fail(
                    ("checks", "strategy_order", i), f"not a strategy of {spec.title}" + did_you_mean(name, names),
                    name, one_of(names)))
            elif (checks.strategy_order or []).index(name) != i:
                found.append(lambda i=i, name=name: self.fail(("checks", "strategy_order", i), "named twice", name,
                                                              "each strategy once"))
        self.each(found)
        return checks

    def cross_check(self, spec: _games.GameSpec, components: BaseModel, rules: BaseModel, players: int) -> dict:
        """The game's checks across tables (``GameSpec.check``); a failure names the key its message starts with,
        "key.path=value: problem (allowed: ...)", and the file that set it."""
        from types import SimpleNamespace

        def resolve(loc: tuple, name: str) -> Path:
            owner = self._owner(loc)
            # a dict, an override or the embedded default: relative to the working folder, as `extends` in a dict
            base = Path(owner).parent if Path(owner).is_file() else Path(".")
            return spec_resolve(spec, name, base)

        try:
            return spec.check(SimpleNamespace(components=components, rules=rules, players=players), resolve)
        except ValueError as err:
            text = str(err)
            allowed = re.search(r" \(allowed: (.*)\)$", text)
            problem = text[:allowed.start()] if allowed else text
            blamed = re.match(r"([\w.\[\]]+)=[^:]*: ", problem)
            loc: tuple = ()
            if blamed:
                loc = tuple(int(i) if i else name for name, i in re.findall(r"(\w+)|\[(\d+)\]", blamed[1]))
                if loc and loc[0] not in ("rules", "components"):
                    loc = ("components",) + loc
                problem = problem[blamed.end():]
            got = _value_at(self.data, loc) if loc else _NOTHING
            self.fail(loc, problem, got, allowed[1] if allowed else "see docs/scenarios.md")

    def integer(self, key: str, value: Any, lo: int, hi: int, allowed: str | None = None) -> int:
        allowed = allowed or f"an integer from {lo} to {hi}"
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail((key,), "must be an integer", value, allowed)
        if not lo <= value <= hi:
            self.fail((key,), "out of range", value, allowed)
        return value

    def seats(self, spec: _games.GameSpec, players: int | object) -> tuple[list[Seat], tuple[str, ...]]:
        """The seats, and a note when the listed seats were cycled to ``players``: a layer above the one that
        lists them (``--players``, ``--set players``, a file that extends it) set another number of players, so
        seat i plays the listed seat i mod their count. The same layer listing a number of seats other than its
        own ``players`` (or players left at the default) is an error, as a typo would be. With ``players``
        ``_FAILED`` (not a number of players), each seat is checked but not their count."""
        d = self.data
        if "strategy" in d and "seats" in d:
            self.fail(("strategy",), "give either `strategy` (every seat) or `[[seats]]` (one a seat), not both",
                      d["strategy"], "`strategy` or `[[seats]]`")
        if "seats" not in d:
            strategy = d.get("strategy", {"name": "random"})
            if isinstance(strategy, str):
                strategy = {"name": strategy}
            seat = self.seat(spec, strategy, ("strategy",))
            return ([seat] * players if players is not _FAILED else []), ()
        seats = d["seats"]
        if not isinstance(seats, list):
            self.fail(("seats",), "must be a list of tables ([[seats]])", seats,
                      f"{players} [[seats]] tables" if players is not _FAILED else "[[seats]] tables")
        if players is _FAILED:
            self.each([lambda i=i, s=s: self.seat(spec, s, ("seats", i)) for i, s in enumerate(seats)])
            return [], ()
        at, listed = self._listed_seats()
        n = len(listed) if isinstance(listed, list) else len(seats)
        notes: tuple[str, ...] = ()
        count: list[typing.Callable[[], None]] = []      # the seats' count against players, checked with the seats
        if n != players or len(seats) != players:
            if not seats or not n or self._last_layer(("players",)) <= at:
                where = self._owner(("players",)) if "players" in d else "the default"
                names = [s.get("name", "?") if isinstance(s, dict) else s for s in seats]   # the strategies
                entries = "entry" if len(seats) == 1 else "entries"
                count.append(lambda: self.fail(
                    ("seats",), f"has {len(seats)} {entries} but players = {players} (set by {where})", names,
                    f"exactly {players} [[seats]] tables, or one `strategy` table for every seat (a later layer, "
                    "such as --players, cycles the seats listed to its number)"))
            else:
                notes = (seats_note(n, players),) if n != players else ()
        # seats cycled to more players repeat the listed ones: each is checked once, where it is listed
        checked = self.each(count + [lambda i=i, s=s: self.seat(spec, s, ("seats", i))
                                     for i, s in enumerate(seats if count else seats[:players])])[len(count):]
        return cycle_seats(checked, players), notes

    def _last_layer(self, keys: tuple[str, ...], seat_sets: bool = True) -> int:
        """The position in the chain of the last layer giving one of ``keys`` (-1: none); ``seat_sets=False``
        passes over the layers of `--set seats.N...`, which restate the seats below with one change."""
        for i in range(len(self.chain) - 1, -1, -1):
            layer = self.chain[i]
            if layer.kind == "defaults" or (not seat_sets and layer.kind == "set" and layer.key.startswith("seats.")):
                continue
            if any(k in layer.raw for k in keys):
                return i
        return -1

    def _listed_seats(self) -> tuple[int, Any]:
        """Where the seats were last given (not by a `--set seats.N...`) and what that layer gave."""
        at = self._last_layer(("seats", "strategy"), seat_sets=False)
        return at, (self.chain[at].raw.get("seats") if at >= 0 else None)

    def seat(self, spec: _games.GameSpec, table: Any, loc: tuple) -> Seat:
        """One seat's strategy and parameters; each parameter is checked whatever the others are."""
        names = one_of(spec.strategies)
        if not isinstance(table, dict):
            self.fail(loc, "must be a table with a strategy `name` and its params", table,
                      f"a table such as {{ name = \"random\" }}; names: {names}")
        if "name" not in table:
            self.fail(loc + ("name",), "missing key", allowed=names)
        name = table["name"]
        if not isinstance(name, str) or name not in spec.strategies:
            self.fail(loc + ("name",), "unknown strategy" + did_you_mean(name, spec.strategies), name, names)
        declared = {p.name: p for p in spec.strategies[name].params}

        def param(key: str, value: Any) -> None:
            if key not in declared:
                keys = ", ".join(["name", *declared])
                self.fail(loc + (key,), f"unknown key: strategy {name!r} has no such param"
                          + did_you_mean(key, declared), value, keys)
            p = declared[key]
            allowed = f"a number from {p.low:g} to {p.high:g}"
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                self.fail(loc + (key,), "must be a number", value, allowed)
            if not p.low <= value <= p.high:
                self.fail(loc + (key,), "out of range", value, allowed)
        self.each([lambda k=k, v=v: param(k, v) for k, v in table.items() if k != "name"])
        params = {p.name: float(table.get(p.name, p.default)) for p in declared.values()}
        return Seat(strategy=name, params=params)

    def model(self, key: str, model: type[BaseModel]) -> BaseModel:
        """Validate a settings table against the game's pydantic model (keys given replace the defaults); every
        error pydantic finds is reported, but only the first of the alternatives of one value (a union type:
        Climbing Tower's ``tower``, a list or "random"), which are one problem."""
        table = self.data.get(key, {})
        if not isinstance(table, dict):
            self.fail((key,), "must be a table", table, describe(model, None))
        try:
            return model.model_validate(table, strict=True)
        except ValidationError as exc:
            errors, seen = [], set()
            for err in exc.errors():
                union = union_loc(model, tuple(err["loc"]))
                if union is None or union not in seen:
                    errors.append(err)
                seen.add(union)
            self.each([lambda err=err: self._pydantic_fail(key, model, table, err) for err in errors])
            raise AssertionError("pydantic reported an error that is no ScenarioError") from exc

    def _pydantic_fail(self, key: str, model: type[BaseModel], table: dict, err: dict) -> typing.NoReturn:
        """One ScenarioError from pydantic's first error. A settings model's own checks may end their message with
        "(allowed: ...)", which replaces the type's description, and a check across the table names the value it
        blames first, as "field=value: problem" or "field[i].sub=value: problem"."""
        loc, kind = tuple(err["loc"]), err["type"]
        problem = re.sub(r"^(Value|Assertion) error, ", "", err["msg"])
        got = err.get("input", _NOTHING)
        allowed = re.search(r" \(allowed: (.*)\)$", problem)
        if allowed:
            problem = problem[:allowed.start()]
        if kind == "literal_error":
            ann = field_at(model, loc)[0]
            problem = "unknown value" + did_you_mean(got, typing.get_args(ann) if ann is not None else ())
        elif kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
            problem = "out of range"
        elif kind.endswith("_type"):
            problem = "wrong type"
        if kind == "extra_forbidden":
            parent = field_at(model, loc[:-1])[0]
            fields = list(parent.model_fields) if is_model(parent) else []
            return self.fail((key, *loc), "unknown key" + did_you_mean(str(loc[-1]), fields), got,
                             ", ".join(fields))
        if kind == "missing":
            ann, info = field_at(model, loc)
            return self.fail((key, *loc), "missing key", allowed=describe(ann, info))
        if not loc:  # a check across the table: name the value the message starts with, if any
            blamed = re.match(r"([\w.\[\]]+)=[^:]*: ", problem)
            parts = tuple(int(i) if i else name for name, i in re.findall(r"(\w+)|\[(\d+)\]", blamed[1])) \
                if blamed else ()
            if parts and parts[0] in model.model_fields:
                loc, problem = parts, problem[blamed.end():]
                got = _value_at(table, loc)
                if got is _NOTHING:     # not in the file: the default it kept
                    got = _value_at({parts[0]: model.model_fields[parts[0]].get_default(call_default_factory=True)},
                                    loc)
            if not allowed:
                return self.fail((key, *loc), problem, got,
                                 f"{describe(*field_at(model, loc))}, consistent with the rest of [{key}]")
        return self.fail((key, *loc), problem, got, allowed[1] if allowed else describe(*field_at(model, loc)))


# --- describing what is allowed -----------------------------------------------------------------------------------
