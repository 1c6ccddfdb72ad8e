"""Scenarios: what to simulate, written by hand in TOML (format: ``docs/scenarios.md``).

A scenario names the game, the number of players, the strategy of every seat, how many games to play with which seed
and turn cap, and may override any component or open-rule setting of the game. :func:`load_scenario` reads one from a
file, a dict or the game's embedded default, follows ``extends`` chains, applies overrides and checks everything; any
problem with the input becomes a :class:`ScenarioError`: one line for each problem, naming the file, the key, the bad
value and what is allowed, every problem of the scenario found by one load (those that an earlier one leaves
uncheckable aside: see :meth:`_Checker.scenario`).
"""
from __future__ import annotations

import copy
import difflib
import hashlib
import json
import math
import re
import tomllib
import types
import typing
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, ValidationError

from . import games as _games
from . import layers
from .checks.model import Checks

N_PARAM_COLUMNS = 4                      # least width of the strategy parameter matrix the kernels read
MAX_GAMES = 10**12
MAX_SEED = 2**63 - 1
TURN_CAP_RANGE = (10, 10_000)
DEFAULT_GAME = "spooky_tower"            # the game of ``load_scenario(None)`` unless an override names another
DEFAULTS = {"games": 100_000, "seed": 1, "seat_rotation": False}     # turn_cap: the game's (GameSpec.turn_cap)
TOP_KEYS = ("name", "game", "extends", "players", "games", "seed", "turn_cap", "seat_rotation", "strategy", "seats",
            "rules", "components", "checks")
_NOTHING = layers.NOTHING                 # "got" of a missing key
_FAILED = object()                        # what a check that found a problem gives (_Checker.attempt)
_value_at = layers.value_at


class ScenarioError(Exception):
    """A scenario that cannot be used. Each problem is one line:
    ``<file>: <key.path>: <problem> (got <value>; allowed: <what is allowed>)``.

    ``errors`` holds every problem one load found (each a ScenarioError of one line; most often just this one), and
    ``str()`` is their lines joined by newlines; ``file``, ``key``, ``problem``, ``got`` and ``allowed`` are the
    first's."""

    def __init__(self, file: str, problem: str, key: str | None = None, got: Any = _NOTHING,
                 allowed: str | None = None):
        self.file, self.key, self.problem, self.got, self.allowed = file, key, problem, got, allowed
        text = f"{file}: " + (f"{key}: " if key else "") + problem
        if key:
            text += f" (got {'nothing' if got is _NOTHING else _short_repr(got)}; allowed: {allowed})"
        super().__init__(re.sub(r"[\r\n]+", " ", text))
        self.errors: list[ScenarioError] = [self]

    @classmethod
    def every(cls, errors: list[ScenarioError]) -> ScenarioError:
        """One error holding all of ``errors`` (each one's own ``errors``) in order, each line once."""
        lines: dict[str, ScenarioError] = {}
        for err in errors:
            for one in err.errors:
                lines.setdefault(str(one), one)
        found = list(lines.values())
        if len(found) == 1:
            return found[0]
        first = found[0]
        out = cls(first.file, first.problem, first.key, first.got, first.allowed)
        out.errors = found
        out.args = ("\n".join(lines),)
        return out

    @property
    def lines(self) -> list[str]:
        """One line for each problem."""
        return [str(e) for e in self.errors]


class Seat(BaseModel):
    """One seat: a strategy name and its parameters (every declared parameter, defaults filled in)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    strategy: str
    params: dict[str, float]


class Scenario(BaseModel):
    """A fully resolved scenario: every default filled in, every setting checked against the game."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)
    name: str
    game: str
    players: int
    games: int
    seed: int
    turn_cap: int
    seat_rotation: bool
    seats: list[Seat]
    rules: BaseModel
    components: BaseModel
    checks: Checks | None = None           # balance claims (`balance check`): not a setting, so not in to_dict/hash
    source: str | None = None
    resources: dict[str, str] = {}         # files the game loaded for it (a map), by name: not settings, but hashed
    overrides: dict[str, Any] = {}         # what load_scenario laid over the source (players=3, "rules.x": v): not
    #                                        settings either, but the options that repeat it (runner.replay_args)
    notes: tuple[str, ...] = ()            # what the loader did that the files do not say (seats cycled to players)

    def spec(self) -> _games.GameSpec:
        """The game's :class:`~balance.games.GameSpec`."""
        return _games.get_game(self.game)

    def to_dict(self) -> dict[str, Any]:
        """The scenario in the TOML input format, every default written out (``source`` is not part of it)."""
        return {
            "name": self.name, "game": self.game, "players": self.players, "games": self.games, "seed": self.seed,
            "turn_cap": self.turn_cap, "seat_rotation": self.seat_rotation,
            "seats": [{"name": s.strategy, **s.params} for s in self.seats],
            "rules": self.rules.model_dump(mode="json", exclude_none=True),
            "components": self.components.model_dump(mode="json", exclude_none=True),
        }

    def to_toml(self) -> str:
        """The scenario as a TOML file that :func:`load_scenario` reads back to an equal scenario."""
        table = self.to_dict()
        if self.checks is not None and self.checks.given():
            table["checks"] = self.checks.given()
        notes = "".join(f"# note: {n}\n" for n in self.notes)
        return f"# Resolved scenario {self.hash()[:12]}\n" + notes + dumps_toml(table)

    def hash(self) -> str:
        """SHA-256 (hex) of the canonical JSON of :meth:`to_dict`, and of the contents of any file it loaded (a
        map): equal scenarios, equal hashes."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        h = hashlib.sha256(text.encode())
        for name in sorted(self.resources):
            h.update(f"\0{name}\0".encode() + Path(self.resources[name]).read_bytes())
        return h.hexdigest()

    def strategy_lineup(self) -> tuple[np.ndarray, np.ndarray]:
        """Kernel inputs: strategy kinds ``int64[players]`` and parameters ``float64[players, width]``, zero-padded;
        the width is 4, or the game's longest parameter list when one is longer."""
        strategies = self.spec().strategies
        kinds = np.zeros(self.players, np.int64)
        width = max([N_PARAM_COLUMNS] + [len(st.params) for st in strategies.values()])
        params = np.zeros((self.players, width), np.float64)
        for i, seat in enumerate(self.seats):
            st = strategies[seat.strategy]
            vec = st.vector(seat.params)
            kinds[i] = st.kind
            params[i, :len(vec)] = vec
        return kinds, params

    def __eq__(self, other: object) -> bool:
        """Same settings (:meth:`to_dict`), wherever each came from."""
        return isinstance(other, Scenario) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return int(self.hash()[:16], 16)


def load_scenario(source: str | Path | dict | None = None, **overrides: Any) -> Scenario:
    """Read and check a scenario.

    ``source`` is a TOML file path, a dict in the same format, or ``None``/``"default"`` for the game's embedded
    default. ``overrides`` are top-level keys (``players=4``, ``seed=7``, ``strategy="random"``...) applied after
    ``extends`` merging and checked like file keys; ``None`` values are ignored. Raises :class:`ScenarioError`.
    """
    label = str(source) if isinstance(source, (str, Path)) and source != "default" else "<dict>"
    given = {k: v for k, v in overrides.items() if v is not None}
    try:
        scenario = _load(source, given)
        return scenario.model_copy(update={"overrides": copy.deepcopy(given)}) if given else scenario
    except ScenarioError:
        raise
    except Exception as exc:  # noqa: BLE001 - bad input must never surface as a raw traceback
        raise ScenarioError(label, f"cannot read scenario: {type(exc).__name__}: {exc}") from exc


# --- reading and merging -------------------------------------------------------------------------------------

class _Layer(typing.NamedTuple):
    """One layer of a scenario: the name an error in it gives, its table, and what it is: ``file`` (a file, a dict
    or the embedded default), ``defaults`` (the game's default items of its keyed lists, never to blame),
    ``keywords`` (the top-level overrides, one layer: an error in one names where that key came from) or ``set``
    (one dotted override, or one top-level key given as `--set KEY=VALUE`, in a layer of its own: ``key``)."""
    label: str
    raw: dict
    kind: str = "file"
    key: str = ""

    def blame(self, loc: tuple) -> str:
        """What an error at ``loc`` (a key path into this layer) names."""
        if self.kind == "keywords" and loc and loc[0] in self.raw:
            return f"{self.label} ({layers.override_name(loc[0], self.raw[loc[0]])})"
        return self.label

    def fail(self, label: str, problem: str, key: str, got: Any, allowed: str) -> ScenarioError:
        """``layers.lay_over``'s error for this layer (``key``: the dotted key path)."""
        return ScenarioError(self.blame((re.split(r"[.\[]", key)[0],) if key else ()), problem, key, got, allowed)


def _load(source, overrides: dict) -> Scenario:
    """Read the source and its ``extends`` chain, lay the overrides on top and check the result."""
    dict_label = "<dict>"
    if source is None or source == "default":
        game = overrides.get("game", DEFAULT_GAME)
        if not isinstance(game, str) or game not in _games.registry():
            raise ScenarioError(f"<default> ({layers.override_name('game', game)})", "unknown game", "game", game,
                                _one_of(_games.registry()))
        source, dict_label = _games.get_game(game).default_scenario(), "<default>"
    if isinstance(source, (str, Path)):
        chain, path = _read_chain(Path(source), str(source), []), str(source)
    elif isinstance(source, dict):  # its `extends` is relative to the working folder
        chain, path = _follow_extends(copy.deepcopy(source), dict_label, Path("."), []), None
    else:
        raise ScenarioError("<source>", f"a scenario is a file path or a dict, not {type(source).__name__}")
    plain = {k: v for k, v in overrides.items() if _is_plain_set(k)}     # --set players=3: "players."
    sets = {k: v for k, v in overrides.items() if "." in k and k not in plain}
    base_label = chain[-1].label
    chain.append(_Layer(base_label, {k: v for k, v in overrides.items() if "." not in k}, "keywords"))
    for key, value in plain.items():        # a top-level key, as a file gives it: checked like one
        label = f"{base_label} ({layers.override_name(key, value)})"
        key = key[:-1]
        if key == "extends":
            raise ScenarioError(label, "not a setting", key, value,
                                "a setting such as players=4, strategy=random or rules.<key>=...; `extends` names "
                                "a file, in a file")
        chain.append(_Layer(label, {key: value}, "set", key))
    game = next((layer.raw["game"] for layer in reversed(chain) if "game" in layer.raw), None)
    spec = _games.registry().get(game) if isinstance(game, str) else None
    keyed = layers.keyed_paths(spec)
    if keyed:       # the game's default items of each keyed list lie under every layer
        chain.insert(0, _Layer(f"<{spec.name} defaults>", layers.keyed_defaults(spec, keyed), "defaults"))
    merged: dict = {}
    for layer in chain:
        merged = layers.lay_over(merged, layer.raw, keyed, layer.label, layer.fail)
    if sets and spec is not None:
        full = layers.lay_over(layers.defaults(spec), merged, keyed, "", ScenarioError)
        for dotted, value in sets.items():
            players = full.get("players", min(spec.min_players + 1, spec.max_players))
            label = f"{base_label} ({layers.override_name(dotted, value)})"
            layer = layers.set_layer(full, dotted, value, keyed, players, label, ScenarioError)
            chain.append(_Layer(label, layer, "set", dotted))
            merged = layers.lay_over(merged, layer, keyed, label, ScenarioError)
            full = layers.lay_over(full, layer, keyed, label, ScenarioError)
    merged.pop("extends", None)
    if "name" not in merged:
        merged["name"] = Path(path).stem if path else merged.get("game", DEFAULT_GAME)
    return _Checker(merged, chain, path, keyed).scenario()


def _is_plain_set(key: str) -> bool:
    """A `--set KEY=VALUE` of a top-level key (``players``, ``strategy``, ``rules``), which the command line passes
    as ``"KEY."`` to tell it from a keyword override: the same key, in a layer of its own named after the --set."""
    return key.endswith(".") and key.count(".") == 1 and len(key) > 1


def _read_toml(path: Path, label: str) -> dict:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ScenarioError(label, "file not found") from None
    except (OSError, ValueError) as exc:  # a folder, no permission, a NUL in the path...
        raise ScenarioError(label, f"cannot read file ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ScenarioError(label, f"TOML syntax error: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(label, f"TOML syntax error: {exc}") from None


def _read_chain(path: Path, label: str, seen: list[Path]) -> list[_Layer]:
    """The file and every file it extends, base first."""
    raw = _read_toml(path, label)
    return _follow_extends(raw, label, path.parent, seen + [path.resolve()])


def _follow_extends(raw: dict, label: str, folder: Path, seen: list[Path]) -> list[_Layer]:
    """``raw`` preceded by the chain of files it extends (``folder``: where its ``extends`` path starts)."""
    if "extends" not in raw:
        return [_Layer(label, raw)]
    ext = raw["extends"]
    if not isinstance(ext, str) or not ext:
        raise ScenarioError(label, "must be a file path", "extends", ext,
                            "a path to a .toml file, relative to this file")
    target = folder / ext
    if not target.is_file():
        problem, state = (("not a file", "a folder" if target.is_dir() else "not a file") if target.exists()
                          else ("file not found", "not there"))
        raise ScenarioError(label, problem, "extends", ext,
                            f"a path to a .toml file, relative to this file; {target} is {state}")
    if target.resolve() in seen:
        raise ScenarioError(label, "extends cycle: that file already extends this one", "extends", ext,
                            "a scenario file that does not extend this one back")
    return _read_chain(target, str(target), seen) + [_Layer(label, raw)]


# --- checking --------------------------------------------------------------------------------------------------

class _Checker:
    """Checks a merged scenario table and builds the :class:`Scenario`; errors name the file a key came from."""

    def __init__(self, data: dict, chain: list[_Layer], path: str | None, keyed: dict | None = None):
        self.data, self.chain, self.path, self.keyed = data, chain, path, keyed or {}
        self.errors: list[ScenarioError] = []      # what the checks so far found

    def fail(self, loc: tuple, problem: str, got: Any = _NOTHING, allowed: str = "") -> typing.NoReturn:
        raise ScenarioError(self._owner(loc), problem, _key_path(loc), got, allowed)

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
            if mine is not None and (_contains(raw, mine) or (   # a strategy's name given as a plain string
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
        self.attempt(self.each, [lambda key=key: self.fail((key,), "unknown key" + _did_you_mean(key, TOP_KEYS),
                                                           d[key], ", ".join(TOP_KEYS))
                                 for key in d if key not in TOP_KEYS])
        games = _games.registry()
        if self.attempt(self.game, games) is _FAILED:
            self.raise_found()
        spec = games[d["game"]]
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

    def game(self, games: dict) -> str:
        d = self.data
        if "game" not in d:
            self.fail(("game",), "missing key", allowed=_one_of(games))
        if not isinstance(d["game"], str) or d["game"] not in games:
            self.fail(("game",), "unknown game", d["game"], _one_of(games))
        return d["game"]

    def name(self) -> None:
        name = self.data["name"]
        if not isinstance(name, str) or not name.strip() or not _is_utf8(name):
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
                        "win_rate, length_mean, victory_share, item_lift_max"))
        elif checks.win_rate is not None:
            found.append(lambda: self.fail(("checks", "win_rate"), "a claim about a co-operative game's team",
                                           checks.win_rate, "seat_gap_max, strategy_order, length_mean, "
                                           "victory_share, item_lift_max"))
        kinds = spec.victory_names[1:]
        for kind in checks.victory_share or {}:
            if kind not in kinds:
                found.append(lambda kind=kind: self.fail(
                    ("checks", "victory_share", kind), "unknown victory kind" + _did_you_mean(kind, kinds), kind,
                    _one_of(kinds)))
        # a strategy the game lacks is a typo; one the lineup lacks makes the claim not applicable to this lineup,
        # which `balance check` reports (balance.checks.claims) and every other command ignores: claims change no game
        names = list(spec.strategies)
        for i, name in enumerate(checks.strategy_order or ()):
            if name not in names:
                found.append(lambda i=i, name=name: self.fail(
                    ("checks", "strategy_order", i), f"not a strategy of {spec.title}" + _did_you_mean(name, names),
                    name, _one_of(names)))
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
        names = _one_of(spec.strategies)
        if not isinstance(table, dict):
            self.fail(loc, "must be a table with a strategy `name` and its params", table,
                      f"a table such as {{ name = \"random\" }}; names: {names}")
        if "name" not in table:
            self.fail(loc + ("name",), "missing key", allowed=names)
        name = table["name"]
        if not isinstance(name, str) or name not in spec.strategies:
            self.fail(loc + ("name",), "unknown strategy" + _did_you_mean(name, spec.strategies), name, names)
        declared = {p.name: p for p in spec.strategies[name].params}

        def param(key: str, value: Any) -> None:
            if key not in declared:
                keys = ", ".join(["name", *declared])
                self.fail(loc + (key,), f"unknown key: strategy {name!r} has no such param"
                          + _did_you_mean(key, declared), value, keys)
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
            self.fail((key,), "must be a table", table, _describe(model, None))
        try:
            return model.model_validate(table, strict=True)
        except ValidationError as exc:
            errors, seen = [], set()
            for err in exc.errors():
                union = _union_loc(model, tuple(err["loc"]))
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
            ann = _field_at(model, loc)[0]
            problem = "unknown value" + _did_you_mean(got, typing.get_args(ann) if ann is not None else ())
        elif kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
            problem = "out of range"
        elif kind.endswith("_type"):
            problem = "wrong type"
        if kind == "extra_forbidden":
            parent = _field_at(model, loc[:-1])[0]
            fields = list(parent.model_fields) if _is_model(parent) else []
            return self.fail((key, *loc), "unknown key" + _did_you_mean(str(loc[-1]), fields), got,
                             ", ".join(fields))
        if kind == "missing":
            ann, info = _field_at(model, loc)
            return self.fail((key, *loc), "missing key", allowed=_describe(ann, info))
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
                                 f"{_describe(*_field_at(model, loc))}, consistent with the rest of [{key}]")
        return self.fail((key, *loc), problem, got, allowed[1] if allowed else _describe(*_field_at(model, loc)))


def cycle_seats(seats: list, players: int) -> list:
    """The listed seats repeated in order to ``players`` seats (seat i plays listed seat i mod their count), or the
    first ``players`` of them."""
    return [seats[i % len(seats)] for i in range(players)]


def seats_note(listed: int, players: int) -> str:
    """What :func:`cycle_seats` did, in words, for the run's output and the resolved scenario."""
    if players < listed:
        return f"seats: the first {players} of the {listed} listed, for players = {players}"
    return (f"seats cycled from the {listed} listed to {players} (players = {players}): seat i plays listed seat "
            f"i mod {listed}")


def spec_resolve(spec: _games.GameSpec, name: str, base: Path | None) -> Path:
    """A file a scenario names: absolute, relative to the folder of the file that named it, or shipped with the game
    (``balance/data/<game>/``)."""
    path = Path(name).expanduser()
    if path.is_absolute():
        return path
    if base is not None and (base / path).is_file():
        return (base / path).resolve()
    return Path(__file__).resolve().parent / "data" / spec.name / path


# --- describing what is allowed -----------------------------------------------------------------------------------

def _is_model(ann: Any) -> bool:
    return isinstance(ann, type) and issubclass(ann, BaseModel)


def _field_at(model: type[BaseModel], loc: tuple) -> tuple[Any, Any]:
    """(annotation, FieldInfo or None) of the value at ``loc`` inside ``model``; (None, None) if not found."""
    ann, info = model, None
    for part in loc:
        if isinstance(part, str) and _is_model(ann) and part in ann.model_fields:
            info = ann.model_fields[part]
            ann = info.annotation
        elif isinstance(part, int) and typing.get_origin(ann) is list:
            ann, info = typing.get_args(ann)[0], None
        else:
            return None, None
    return ann, info


def _union_loc(model: type[BaseModel], loc: tuple) -> tuple | None:
    """The location of the value of a union type (``list[str] | Literal["random"]``) that ``loc`` lies in, or None:
    pydantic reports each alternative of it at a location of its own (its name after the value's)."""
    ann = model
    for i, part in enumerate(loc):
        if typing.get_origin(ann) in (typing.Union, types.UnionType) and \
                len([a for a in typing.get_args(ann) if a is not type(None)]) > 1:
            return loc[:i]
        if isinstance(part, str) and _is_model(ann) and part in ann.model_fields:
            ann = ann.model_fields[part].annotation
        elif isinstance(part, int) and typing.get_origin(ann) is list:
            ann = typing.get_args(ann)[0]
        else:
            return None
    return None


def _describe(ann: Any, info: Any) -> str:
    """What a value of this type may be, in a designer's words."""
    if ann is bool:
        return "true or false"
    if ann in (int, float):
        lo = hi = None
        for m in getattr(info, "metadata", ()):
            lo = getattr(m, "ge", lo)
            hi = getattr(m, "le", hi)
        what = "an integer" if ann is int else "a number"
        if lo is not None and hi is not None:
            return f"{what} from {lo} to {hi}"
        return what + (f" >= {lo}" if lo is not None else "") + (f" <= {hi}" if hi is not None else "")
    if ann is str:
        return "a string"
    if typing.get_origin(ann) is Literal:
        return _one_of(typing.get_args(ann))
    if typing.get_origin(ann) is list:
        return f"a list, each item {_describe(typing.get_args(ann)[0], None)}"
    if _is_model(ann):
        return "a table with keys " + ", ".join(ann.model_fields)
    return "see docs/scenarios.md"


def _one_of(names) -> str:
    return "one of " + ", ".join(repr(n) for n in names)


def _did_you_mean(word: Any, choices) -> str:
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _key_path(loc: tuple) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _contains(raw: Any, loc: tuple) -> bool:
    return bool(loc) and _value_at(raw, loc) is not _NOTHING


def _short_repr(value: Any, limit: int = 100) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# --- a small TOML writer -------------------------------------------------------------------------------------------

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def dumps_toml(table: dict) -> str:
    """TOML text for a table of dicts, lists, strings, ints, floats and bools (what :meth:`Scenario.to_dict` holds)."""
    lines: list[str] = []
    _emit_table(table, [], lines)
    return "\n".join(lines).lstrip("\n") + "\n"


def _emit_table(table: dict, prefix: list[str], lines: list[str]) -> None:
    def is_table_list(v):
        return isinstance(v, list) and v and all(isinstance(x, dict) for x in v)

    for key, value in table.items():
        if not isinstance(value, dict) and not is_table_list(value):
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    for key, value in table.items():
        if isinstance(value, dict):
            lines += ["", f"[{'.'.join(_toml_key(k) for k in prefix + [key])}]"]
            _emit_table(value, prefix + [key], lines)
    for key, value in table.items():
        if is_table_list(value):
            for item in value:
                lines += ["", f"[[{'.'.join(_toml_key(k) for k in prefix + [key])}]]"]
                _emit_table(item, prefix + [key], lines)


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _toml_string(key)


def _toml_string(text: str) -> str:
    """A TOML basic string: quote, backslash and control characters escaped, everything else as is."""
    escaped = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}
    return '"' + "".join(escaped.get(c) or (f"\\u{ord(c):04x}" if ord(c) < 0x20 or ord(c) == 0x7F else c)
                         for c in text) + '"'


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")
