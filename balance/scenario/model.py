"""Scenarios: what to simulate, written by hand in TOML (format: ``docs/scenarios.md``).

A scenario names the game, the number of players, the strategy of every seat, how many games to play with which seed
and turn cap, and may override any component or open-rule setting of the game. :func:`load_scenario` reads one from a
file, a dict or the game's embedded default, follows ``extends`` chains, applies overrides and checks everything; any
problem with the input becomes a :class:`ScenarioError`: one line for each problem, naming the file, the key, the bad
value and what is allowed, every problem of the scenario found by one load (those that an earlier one leaves
uncheckable aside: see :meth:`balance.scenario.checks.Checker.scenario`).
"""
from __future__ import annotations

import copy
import hashlib
import json
import re
import tomllib
import typing
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from ..core.toml import dumps_toml  # noqa: F401  (balance.scenario exports it)
from .. import games as _games
from . import layers
from .claims import Checks
from .wording import one_of

N_PARAM_COLUMNS = 4                      # least width of the strategy parameter matrix the kernels read
MAX_GAMES = 10**12
MAX_SEED = 2**63 - 1
TURN_CAP_RANGE = (10, 10_000)
DEFAULT_GAME = "spooky_tower"            # the game of ``load_scenario(None)`` unless an override names another
DEFAULTS = {"games": 100_000, "seed": 1, "seat_rotation": False}     # turn_cap: the game's (GameSpec.turn_cap)
TOP_KEYS = ("name", "game", "extends", "players", "games", "seed", "turn_cap", "seat_rotation", "strategy", "seats",
            "rules", "components", "checks")
_NOTHING = layers.NOTHING                 # "got" of a missing key


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
        import numpy as np
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
        if not isinstance(game, str) or game not in _games.NAMES:
            raise ScenarioError(f"<default> ({layers.override_name('game', game)})", "unknown game", "game", game,
                                one_of(_games.NAMES))
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
    spec = _games.get_game(game) if game in _games.NAMES else None
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
    from .checks import Checker
    return Checker(merged, chain, path, keyed).scenario()


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


def extends_chain(path: str | Path) -> list[Path]:
    """Scenario file ``path`` and every file its ``extends`` chain reads, base first, as :func:`load_scenario` reads
    them (the same errors for a missing base or a cycle)."""
    return [Path(layer.label) for layer in _read_chain(Path(path), str(path), [])]


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
    return Path(__file__).resolve().parent.parent / "data" / spec.name / path


# --- describing what is allowed -----------------------------------------------------------------------------------

def _short_repr(value: Any, limit: int = 100) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."

