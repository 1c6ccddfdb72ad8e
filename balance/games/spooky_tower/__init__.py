"""Spooky Tower (Repos Production, 2026): roll two dice, take or flip Building cards, 5 ghosts or 3 fragments win."""
from __future__ import annotations

from .. import GameSpec, ParamSpec, StrategySpec, lazy
from . import enums
from .components import SpookyTowerComponents, SpookyTowerRules

STRATEGIES = {
    "random": StrategySpec(
        "random", 0,
        "Uniform baseline: every distinct (take | flip, value) pair is equally likely; rerolls only when no action "
        "is legal; effect targets and pet victims uniform; always goes to the Park."),
    "ghost_hunter": StrategySpec(
        "ghost_hunter", 1,
        "Greedy: scores a flip by the expected ghosts of the held stack, marked down by 1 while they fall short of "
        "`flip_min_ev`, and a take by `take_weight` x the card's expected ghosts; plays the best; steals from the "
        "leader.",
        (ParamSpec("flip_min_ev", 0.6, 0.0, 10.0, "Expected ghosts below which a flip scores 1 less (taking then "
                                                  "usually wins)."),
         ParamSpec("take_weight", 0.5, 0.0, 10.0, "Worth of taking a card, per expected ghost on its Photos."),
         ParamSpec("reroll_below", 0.3, -1.0, 10.0, "Reroll when the best action scores below this."),
         ParamSpec("steal_leader", 1.0, 0.0, 1.0, "1: steal pets from the player nearest to winning; 0: from the "
                                                  "first seat holding one."))),
    "collector": StrategySpec(
        "collector", 2,
        "Builds stacks: keeps taking cards, preferring values it already holds, and flips a value once it holds "
        "`stack_target` cards of it (or its Town stack is empty); before that a flip scores 11 less, so only a "
        "stack of high ghost value is flipped early.",
        (ParamSpec("stack_target", 3.0, 1.0, 40.0, "Cards of one value to hold before flipping them."),
         ParamSpec("reroll_below", 0.5, -1.0, 20.0, "Reroll when the best action scores below this."))),
    "clock_rusher": StrategySpec(
        "clock_rusher", 3,
        "Races the clock for Amulet fragments: values clock moves by what the next dial step gives, takes "
        "clock-bonus Buildings and flips clock Photos.",
        (ParamSpec("fragment_weight", 2.0, 0.0, 10.0, "Worth of one Amulet fragment (and of a clock step onto one)."),
         ParamSpec("ghost_weight", 0.5, 0.0, 10.0, "Worth of one expected ghost."),
         ParamSpec("reroll_below", 0.2, -1.0, 10.0, "Reroll when the best action scores below this."))),
    "lookahead": StrategySpec(
        "lookahead", 4,
        "Plays by simulation: at each take-or-flip choice it plays every legal action out `playouts` times to the end "
        "of the game, the cards nobody can see re-dealt at random and every seat on the `base` strategy, and takes "
        "the action it won with most often; rerolls, effect targets, pet victims and the Park go to the base "
        "strategy (docs/strategies.md).",
        (ParamSpec("playouts", 16.0, 1.0, 256.0, "Playouts per legal action (rounded)."),
         ParamSpec("base", 1.0, 0.0, 3.0, "Base strategy of the playouts and of the other decisions, by kind: "
                                          "0 random, 1 ghost_hunter, 2 collector, 3 clock_rusher (its defaults)."))),
}


def compile_scenario(scenario):
    """Kernel inputs for a validated scenario: (initial_state, initial_params, lineup kinds,
    lineup params, seat rotation)."""
    import numpy as np
    from .compile import compile_rules
    initial_state, initial_params = compile_rules(scenario.components, scenario.rules, scenario.players,
                                                  scenario.turn_cap)
    kinds, params = scenario.strategy_lineup()
    return (initial_state, initial_params, np.ascontiguousarray(kinds, np.int64),
            np.ascontiguousarray(params, np.float64), bool(scenario.seat_rotation))


def run_chunk(compiled, *, seed: int, rotate: bool, game0: int, n_games: int, n_blocks: int,
              out: dict | None = None, counter_rows: bool = True) -> dict:
    """Play one chunk of games; per-game outcome arrays keyed as the shared layers expect.

    ``out``: arrays from an earlier chunk of at least ``n_games`` games to play into (the results are views of their
    first ``n_games`` rows, overwritten by the next chunk); fresh arrays when None (``kernel_common.chunk_arrays``).
    The counters also come summed per block (``counters_sums``), for the aggregator; ``counter_rows=False``: only
    summed, the per-game ``counters`` left empty (``kernel_common.counter_sums``).
    """
    import numpy as np
    from ..kernel_common import chunk_arrays, counter_sums, lookahead_flag
    from .rules import simulate_nb

    initial_state, initial_params, kinds, params, _rotate = compiled        # a run's chunks are seated by `rotate`
    p = kinds.shape[0]
    out = chunk_arrays(out, game0, n_games, lambda n: {
        "game": np.empty(n, np.int64),
        "winner": np.empty(n, np.int8), "victory": np.empty(n, np.int8),
        "turns": np.empty(n, np.int32), "rounds": np.empty(n, np.int32),
        "seat_strategy": np.empty((n, p), np.int8),
        "final": np.empty((n, p, enums.N_PL), np.int16),
        "counters": np.empty((n, p, enums.N_VALUES - 1, enums.N_CNT), np.int16),
        "draws": np.empty(n, np.int64),
    })
    n_blocks = max(1, n_blocks)
    rows, sums = counter_sums(out, n_blocks, "counters", rows=counter_rows)
    # the kernel writes the counters 4-d and sums them flat: the same memory, a row per game or a row per block
    simulate_nb(initial_state, initial_params, kinds, params, bool(rotate), np.uint64(seed), game0, n_games, n_blocks,
                out["winner"], out["victory"], out["turns"], out["rounds"], out["seat_strategy"], out["final"],
                rows.reshape((-1,) + out["counters"].shape[1:]), out["draws"], rows, sums, bool(counter_rows),
                lookahead_flag(kinds, STRATEGIES["lookahead"].kind))
    return out


def default_scenario() -> dict:
    """The embedded default: three players, public card list, random strategy."""
    return {"name": "Spooky Tower (public card list, embedded default)", "game": "spooky_tower", "players": 3,
            "games": 100_000, "seed": 1, "turn_cap": 1000, "strategy": {"name": "random"}}


def assumptions(scenario) -> list[tuple[str, str, str]]:
    """The open-rule settings and component choices in force, each with its reason (docs/rules/spooky_tower.md)."""
    from ..assumptions import rule_rows, toml_value
    rows = rule_rows(scenario.rules)
    c = scenario.components
    default = SpookyTowerComponents()
    faces = lambda bs: [(b.value, b.bonus, b.photos) for b in bs]  # noqa: E731  (the cards, whatever they are worth)
    public = faces(c.buildings) == faces(default.buildings)
    cards = sum(len(b.photos) for b in c.buildings)
    rows.append(("components.buildings", "public card list" if public else "the scenario's own",
                 "No rulebook lists the cards; the default is the Board Game Arena data "
                 "(docs/sources/spooky_tower_components.md)." if public else
                 f"Set by the scenario: {len(c.buildings)} Buildings, {cards} cards, in place of the public card "
                 "list (docs/sources/spooky_tower_components.md)."))
    printed = {b.value: b.ghost_worth for b in default.buildings}
    worth = [b for b in c.buildings if b.ghost_worth != 1 or printed.get(b.value, 1) != 1]
    for b in worth:
        why = ("The public card list counts each ghost Photo of this Building as two ghosts." if b.ghost_worth ==
               printed.get(b.value) else f"Set by the scenario (the public card list: {printed.get(b.value, 1)}).")
        rows.append((f"components.buildings.{b.value}.ghost_worth", toml_value(b.ghost_worth), why))
    if not worth:
        rows.append(("components.buildings.*.ghost_worth", "1", "Every ghost Photo captures one ghost."))
    rows.append(("seat order", "seat 0 starts",
                 "The rulebook starts with the player who most recently saw a ghost; "
                 + ("seat_rotation = true sits each strategy at every seat, so strategy strength and seat separate."
                    if scenario.seat_rotation else "use seat_rotation = true to separate strategy strength from "
                    "seat.")))
    return rows


_reference = lazy("balance.games.spooky_tower.reference", "play_scenario")
_narrate_text = lazy("balance.games.spooky_tower.narrate", "narrate_text")
_narrate_jsonl = lazy("balance.games.spooky_tower.narrate", "narrate_jsonl")
_searched = lazy("balance.games.spooky_tower.rules.simulate", "searched_decisions")


def _replay(scenario, seed: int | None = None, game: int = 0):
    """Game ``game`` of a scenario's run, played by the reference engine and checked against the kernel's trace."""
    from ..driver import replay
    return replay(__name__, scenario, seed, game)


def remove_items(scenario) -> tuple[str, list[tuple[str, dict]]]:
    """Each Building with its effects emptied: no bonus, and every Photo card kept (the deck and dice stay as they
    are) but with an empty list of effects, so its ghosts, clocks and flips are gone."""
    out = []
    for b in scenario.components.buildings:
        key = f"components.buildings.{b.value}"
        out.append((f"value {b.value}", {f"{key}.bonus": [], f"{key}.photos": [[] for _ in b.photos]}))
    return "Building", out


SPEC = GameSpec(
    name="spooky_tower", title="Spooky Tower", min_players=2, max_players=enums.MAX_PLAYERS,
    list_keys={"components.buildings": "value"}, item_used_phrase="flipped value {}",
    components_model=SpookyTowerComponents, rules_model=SpookyTowerRules, strategies=STRATEGIES,
    victory_names=enums.VICTORY_NAMES, player_counter_names=enums.PLAYER_COUNTER_NAMES,
    counter_names=enums.COUNTER_NAMES,
    item_name="value", item_labels=tuple(range(1, enums.N_VALUES)), compile_scenario=compile_scenario,
    run_chunk=run_chunk, default_scenario=default_scenario, assumptions=assumptions, reference=_reference,
    replay=_replay, narrate_text=_narrate_text, narrate_jsonl=_narrate_jsonl, remove_items=remove_items,
    lookahead="lookahead", lookahead_searched=_searched,
)
