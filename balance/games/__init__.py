"""The game registry: every game `balance` can simulate, by name.

A game is a folder ``balance/games/<name>/`` with the same modules in each (``enums``, ``components``, ``kernel``,
``strategies``, ``reference``, ``narrate``) and a :class:`GameSpec` in its ``__init__`` that tells the shared layers
what it produces: outcome columns, per-seat counters, per-value counters and the strategies it offers.

Loading a scenario imports the game's ``__init__``, ``enums``, ``components`` (and The Haunted Tower's ``board``)
only, never Numba: what a spec or a component check reads is in ``enums`` (or ``components``), and the spec's functions that play import the kernel
modules (``layout``, ``arrays``, ``kernel``, ``kernel_common``) inside their bodies (``tests/cli/test_entry.py``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

# A chunk's "<group key>_sums": that counter group's rows summed per block of games by the kernel
# (kernel_common.add_counter_sums_nb), which the aggregator adds instead of the rows (stats.tally).
SUMS_SUFFIX = "_sums"


class ChunkBuffers(dict):
    """Output arrays a caller keeps from chunk to chunk (the runner's ``LocalPlayer``): ``chunk_arrays`` (in
    ``kernel_common``) plays into their first rows and, when a chunk needs more rows than they have, puts arrays of
    ``GROW`` times the rows in their place, so that chunks whose length follows the machine's speed rarely need new
    ones. Rows never written cost no memory: the operating system maps a page in when it is first written."""

    GROW = 1.5


class EngineDisagreement(RuntimeError):
    """The kernel and the reference engine played one game of a scenario differently: a bug in ``balance``, never in
    its input. Every game's ``replay`` raises it; the command line reports it in one line, with what to send in a bug
    report (``cli._internal_error``)."""

    def __init__(self, scenario: Any, seed: int, game: int, problem: str):
        self.scenario, self.seed, self.game, self.problem = scenario, seed, game, problem
        where = repr(scenario.name) + (f" ({scenario.source})" if getattr(scenario, "source", None) else "")
        super().__init__(f"kernel and reference engine disagree on scenario {where}, seed {seed}, game {game}: "
                         f"{problem}")


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
class Threat:
    """A counter of a group that counts the thing beating a player, per unit of the group's ``ratio_base`` (The
    Haunted Tower: a hero's deaths per encounter with each monster). The findings name the thing that does so most
    often when the data separate it from the rest (``balance.stats.findings.rate_extremes``); ``words`` say it
    ("deadliest", "deadlier"); ``besides`` gives the labels compared apart (the boss whom the game is about)."""

    counter: int
    words: tuple[str, str] = ("strongest", "stronger")
    besides: Callable[[Any], tuple] | None = field(default=None, repr=False)   # Scenario -> labels left out


@dataclass(frozen=True)
class CounterGroup:
    """Per-game counters a game keeps for each (seat, thing) of one kind: Spooky Tower's Building values, The Haunted
    Tower's monsters and items. ``labels`` gives the things' names for a scenario (they may come from its
    components); ``chunk_key`` names the per-game array ``[G, P, len(labels), len(counter_names)]``; a thing counts as
    "used" by a seat in a game when its counter ``used_counter`` is above zero (the win-rate lift compares those
    seats with the others)."""

    name: str                               # what the counters are per ("value", "monster", "item")
    counter_names: tuple[str, ...]
    used_counter: int
    chunk_key: str
    labels: Callable[[Any], tuple] = field(repr=False)   # Scenario -> labels
    ratio_base: int | None = None           # counters after it are also shown per unit of it (default: used_counter)
    used_phrase: str = ""                   # "used" in words, "{}" for the thing: "flipped value {}", "killed a {}"
    cannot_use: Callable[[Any], tuple] | None = field(default=None, repr=False)
    """Scenario -> labels of the things its rules never let be used (Climbing Tower: the starting deck's Level 1
    cards are never for sale, so never bought). The findings do not call them "never used"; None: every thing can be."""
    threat: Threat | None = None            # a counter of the thing beating a player (a monster killing a hero)


@dataclass(frozen=True)
class CategorySpec:
    """A label each game carries (Climbing Tower: which tower was built, 420 of them); the statistics tally games and
    wins per label. ``chunk_key`` names the per-game array ``int16[G]`` of label indices (-1: none)."""

    name: str                               # what the label is ("tower")
    chunk_key: str
    labels: Callable[[Any], tuple] = field(repr=False)   # Scenario -> the labels, in index order
    doc: str = ""                           # one line for the report: what a label means


@dataclass(frozen=True)
class Contrast:
    """A one-key variant a game always compares itself with (Climbing Tower: the other supply option, the
    communication limit lifted): the same scenario, seed and games with ``overrides(scenario)`` applied as ``--set``
    keys. ``overrides`` returns (label, {key: value}) or None when the variant does not apply to that scenario."""

    name: str
    overrides: Callable[[Any], tuple[str, dict] | None] = field(repr=False)
    doc: str = ""


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
    #   keywords seed, rotate, game0, n_games, n_blocks, out, counter_rows (False: groups summed per block may come
    #   without per-game rows, kernel_common.counter_sums)
    default_scenario: Callable[[], dict[str, Any]] = field(repr=False)   # the embedded default, as a dict
    assumptions: Callable[[Any], list[tuple[str, str, str]]] = field(repr=False)  # (setting, value, reason) rows
    # --- optional: what games of other shapes produce (defaults describe Spooky Tower's shape) -------------------
    groups: Callable[[Any], tuple[CounterGroup, ...]] | None = field(default=None, repr=False)
    #   Scenario -> the counter groups; None: one group, the item counters above (chunk key "counters")
    role_name: str | None = None                  # what each seat plays besides its strategy ("hero"), if anything
    role_labels: Callable[[Any], tuple] | None = field(default=None, repr=False)   # Scenario -> role names
    points_counter: str | None = None             # the per-seat final counter that decides a points winner
    score_lines: tuple[str, ...] = ()             # per-seat final counters that add up to the points
    turn_cap: int = 1000                          # the turn cap of a scenario that gives none
    item_used_phrase: str = ""                    # the item counters' "used" in words (see CounterGroup)
    # lists of tables whose items a scenario layer (`extends`, overrides, --set) changes one by one, found by the
    # key field named here: {"components.buildings": "value"}; every other list is replaced whole
    list_keys: dict[str, str] = field(default_factory=dict)
    summary_counters: tuple[str, ...] = ()        # per-seat final counters the per-seat and per-role tables show
    unfinished_ends: dict[str, str] = field(default_factory=dict)
    #   per-seat final counters that mark an unfinished game (victory 0) that ended otherwise than at the turn cap,
    #   with that end in words: {"fight_cap": "at the fight cap (...)"}. The counter is 1 in one seat of each such
    #   game, so its sum over seats counts them; the findings tell these ends apart from the turn cap.
    reference: Callable[..., Any] | None = field(default=None, repr=False)
    #   (scenario, seed, game) -> one game played by the plain-Python reference engine (for `balance bench`)
    replay: Callable[..., Any] | None = field(default=None, repr=False)
    #   (scenario, seed, game) -> one game played by the reference engine and checked against the kernel
    narrate_text: Callable[[Any], str] | None = field(default=None, repr=False)        # that game in English
    narrate_jsonl: Callable[[Any], Any] | None = field(default=None, repr=False)       # ... as JSON lines
    draw_map: Callable[[Any, Any], str] | None = field(default=None, repr=False)
    #   (scenario, level or None) -> the board drawn as text, for a game played on a map
    cooperative: bool = False
    #   the players win or lose together: the kernel's win mask holds every seat or none, and the shared layers report
    #   the team's result (win rate, loss reasons, difficulty) instead of seat balance; a counter group whose chunk
    #   array has one seat ([G, 1, I, C]) counts per team and game
    categories: Callable[[Any], tuple[CategorySpec, ...]] | None = field(default=None, repr=False)
    #   Scenario -> per-game labels whose win rates the statistics give (Climbing Tower: the tower)
    contrasts: tuple[Contrast, ...] = ()          # variants that `run` and `report` play beside the scenario
    check: Callable[[Any, Callable[[tuple, str], Any]], dict] | None = field(default=None, repr=False)
    #   (scenario pieces, resolve) -> resources: cross-checks a scenario (raising ValueError "key=value: problem
    #   (allowed: ...)") and returns what it loaded (a map); resolve(key path, relative path) finds a file
    #   relative to the scenario file that set that key.
    lookahead: str | None = None
    #   the strategy that plays by simulation (parameters ``base``: the kind of the strategy its playouts play, and
    #   ``playouts``), which `balance report --strength` seats at every seat; None: the game has none
    lookahead_searched: Callable[[Any, int, int], int] | None = field(default=None, repr=False)
    #   (compiled scenario, seed, game) -> the decisions the `lookahead` seats searched in that game, played by the
    #   kernel on one thread (a counter the search keeps in the game's state); `balance bench` divides them by the
    #   seconds (balance.cli.bench_lookahead). None: bench gives no lookahead line
    remove_items: Callable[[Any], tuple[str, list[tuple[str, dict]]]] | None = field(default=None, repr=False)
    #   Scenario -> (what an item is, [(label, {--set key: value}) per item]): the overrides that take each card or
    #   item's effect out of the game (replaced by an empty one), for the causal per-card values of `balance cards`


def lazy(module: str, name: str) -> Callable:
    """A function that imports `module` and calls its `name` only when first called (a game's reference engine,
    replay and narration load only when used)."""
    def call(*args, **kwargs):
        import importlib
        return getattr(importlib.import_module(module), name)(*args, **kwargs)
    call.__name__ = name
    return call


def counter_groups(spec: GameSpec, scenario: Any = None) -> tuple[CounterGroup, ...]:
    """The per-(seat, thing) counter groups a game keeps, for a scenario (Spooky Tower: one, its Building values)."""
    if spec.groups is not None:
        return spec.groups(scenario)
    return (CounterGroup(spec.item_name, tuple(spec.counter_names), 1, "counters",
                         labels=lambda _scenario: tuple(spec.item_labels), used_phrase=spec.item_used_phrase),)


def categories(spec: GameSpec, scenario: Any = None) -> tuple[CategorySpec, ...]:
    """The per-game labels a game keeps, for a scenario (none for most games)."""
    return spec.categories(scenario) if spec.categories is not None else ()


# Every game's package, by its name (its GameSpec.name); a package is imported only when its game is asked for, so
# that loading a scenario of one game imports (and checks) no other, and a bad file fails fast.
NAMES = ("spooky_tower", "haunted_tower", "climbing_tower")


def registry() -> dict[str, GameSpec]:
    """All games, by name."""
    return {name: get_game(name) for name in NAMES}


def get_game(name: str) -> GameSpec:
    """One game's spec; only its own package is imported."""
    import importlib
    if name not in NAMES:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(sorted(NAMES))}")
    spec = importlib.import_module(f"{__name__}.{name}").SPEC
    if spec.name != name:
        raise ImportError(f"balance.games.{name} holds the game {spec.name!r}: a game's package is named after it")
    return spec
