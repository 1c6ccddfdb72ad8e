"""The game registry: every game `balance` can simulate, by name.

A game is a folder ``balance/games/<name>/`` with the same modules in each (``enums``, ``components``, ``kernel``,
``strategies``, ``reference``, ``narrate``) and a :class:`GameSpec` in its ``__init__`` that tells the shared layers
what it produces: outcome columns, per-seat counters, per-value counters and the strategies it offers.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass(frozen=True)
class ParamSpec:
    """One numeric strategy parameter."""

    name: str
    default: float
    low: float
    high: float
    doc: str


@dataclass(frozen=True)
class StrategySpec:
    """A heuristic strategy: an integer kind dispatched in the kernel plus a float parameter vector."""

    name: str
    kind: int
    doc: str
    params: tuple[ParamSpec, ...] = ()

    def vector(self, values: dict[str, float]) -> list[float]:
        """Parameter vector in declared order, defaults filled in."""
        return [float(values.get(p.name, p.default)) for p in self.params]


@dataclass(frozen=True)
class GameSpec:
    """What a game declares to the shared layers (runner, statistics, reports, CLI)."""

    name: str
    title: str
    min_players: int
    max_players: int
    components_model: type
    rules_model: type
    strategies: dict[str, StrategySpec]
    victory_names: tuple[str, ...]          # index 0 is "unfinished"
    player_counter_names: tuple[str, ...]   # columns of the per-seat final counts
    counter_names: tuple[str, ...]          # per-item counters (e.g. taken, flipped, ghosts)
    item_name: str                          # what the counters are per (e.g. "value")
    item_labels: tuple[int, ...]            # labels of the counted items (e.g. Building values 1..12)
    compile_scenario: Callable[[Any], Any] = field(repr=False)           # Scenario -> kernel inputs
    run_chunk: Callable[..., dict[str, Any]] = field(repr=False)         # kernel inputs (, out=) -> per-game arrays
    default_scenario: Callable[[], dict[str, Any]] = field(repr=False)   # the embedded default, as a dict
    assumptions: Callable[[Any], list[tuple[str, str, str]]] = field(repr=False)  # (setting, value, reason) rows


def registry() -> dict[str, GameSpec]:
    """All games, by name (imported lazily so that loading one game does not compile another)."""
    from .spooky_tower import SPEC as spooky

    return {spooky.name: spooky}


def get_game(name: str) -> GameSpec:
    games = registry()
    if name not in games:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(sorted(games))}")
    return games[name]
