"""The Haunted Tower (TSR, an expansion for The New Easy to Master Dungeons & Dragons): three to six heroes explore
the three levels of the Fighters' Academy, turn over chits, fight monsters and kill the Specter of Sir Jameson; the
most points wins."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from .. import CounterGroup, GameSpec, ParamSpec, StrategySpec, Threat, lazy
from . import enums
from .components import HauntedTowerComponents, HauntedTowerRules, check_lineup

STRATEGIES = {
    "random": StrategySpec(
        "random", 0,
        "Uniform baseline: every legal choice equally likely (docs/strategies.md defines each choice set)."),
    "cautious_looter": StrategySpec(
        "cautious_looter", 1,
        "Items first: face-up items it can use, then its own item chits, then unknown blue chits; unknown purple "
        "chits only with `purple_hp` hit points; takes every usable item it has room for and swaps for better ones; "
        "drinks below `potion_hp`, runs at `flee_hp`; places its items near the entrance, its monsters far away.",
        (ParamSpec("flee_hp", 2.0, -1.0, 20.0, "Run from a fight (or drink a potion) at this many hit points or "
                                               "fewer; -1: never run while a monster can be damaged."),
         ParamSpec("potion_hp", 4.0, 0.0, 20.0, "Drink a potion, at the start of a turn or in a fight, below this "
                                                "many hit points; 0: only at flee_hp in a fight."),
         ParamSpec("purple_hp", 6.0, 0.0, 20.0, "Go for unknown purple chits only with at least this many hit "
                                                "points (above the heroes' maximum: never, unless nothing else is "
                                                "left)."))),
    "monster_hunter": StrategySpec(
        "monster_hunter", 2,
        "Fights: the nearest unknown chit, purple ones counted `purple_bonus` movement points nearer; the revealed "
        "Specter once its best attack bonus against it reaches `specter_attack`; the best weapon for each monster "
        "(immunities, the stake); runs at `flee_hp`; trades experience whenever it can.",
        (ParamSpec("flee_hp", 2.0, -1.0, 20.0, "Run from a fight (or drink a potion) at this many hit points or "
                                               "fewer, and start none (an unknown chit may be a monster) there."),
         ParamSpec("purple_bonus", 6.0, -20.0, 50.0, "Movement points an unknown purple chit may lie further than "
                                                     "an unknown blue one and still be preferred."),
         ParamSpec("specter_attack", 4.0, -5.0, 20.0, "Go for the revealed Specter once the best attack bonus that "
                                                      "can damage it (attack number - \"-1\" chits + the weapon's "
                                                      "bonus) is at least this."))),
    "specter_rusher": StrategySpec(
        "specter_rusher", 3,
        "Climbs: chits on higher levels count `level_bonus` movement points nearer per level, so it heads up as soon "
        "as the gates allow, collecting the nearest chits on its way; hunts the Specter with `specter_hp` hit points "
        "or more; runs at `flee_hp`.",
        (ParamSpec("flee_hp", 2.0, -1.0, 20.0, "Run from a fight (or drink a potion) at this many hit points or "
                                               "fewer, and start none there."),
         ParamSpec("specter_hp", 5.0, 0.0, 20.0, "Go for the revealed Specter only with at least this many hit "
                                                 "points (unless nothing else is left)."),
         ParamSpec("level_bonus", 20.0, 0.0, 100.0, "Movement points a chit one level higher may lie further than "
                                                    "one on the hero's level and still be preferred."))),
    "lookahead": StrategySpec(
        "lookahead", 4,
        "Plays by simulation: at each move it tries its `base` heuristic's square and the squares the base would stop "
        "on for its next-best targets (`width` in all), and at each encounter every answer (none, each chit); it "
        "plays each out `playouts` times for `horizon` rounds, the chits it cannot know re-dealt at random and every "
        "seat on the base, and takes the answer whose points lead over the best other seat is clearly highest on "
        "average; every other decision is the base's (docs/strategies.md).",
        (ParamSpec("playouts", 32.0, 1.0, 256.0, "Playouts per answer tried (rounded)."),
         ParamSpec("base", 1.0, 1.0, 3.0, "Base strategy of the playouts and of the other decisions, by kind: "
                                          "1 cautious_looter, 2 monster_hunter, 3 specter_rusher (its defaults)."),
         ParamSpec("width", 3.0, 1.0, 8.0, "Squares tried per move, the base's own first (rounded; 1: none "
                                           "searched, the base's play)."),
         ParamSpec("horizon", 5.0, 0.0, 100.0, "Rounds a playout plays before it is scored on the points held "
                                               "then (rounded; 0: to the end of the game)."))),
}


@lru_cache(maxsize=16)
def _board(path: str, stamp: tuple):
    from .board import load_board
    return load_board(path)


def board_of(path: Path):
    """The checked board of a map file (cached while the file is unchanged)."""
    st = path.stat()
    return _board(str(path), (st.st_mtime_ns, st.st_size))


def check(scenario, resolve) -> dict:
    """Cross-checks of a scenario: the heroes in play exist and suffice, the blue pool holds the draw, the map loads
    and its rooms take the chits. Returns the resources: the map file's path."""
    from .board import BoardError
    c, r = scenario.components, scenario.rules
    check_lineup(c, r, scenario.players)
    path = resolve(("components", "map"), c.map)
    if not Path(path).is_file():
        raise ValueError(f"map={c.map!r}: no such map file (allowed: a map file, relative to the scenario file, "
                         "or a map shipped in balance/data/haunted_tower/)")
    try:
        board = board_of(Path(path))
    except BoardError as err:
        raise ValueError(f"map={c.map!r}: {err}") from err
    if len(board.outside) < scenario.players:
        raise ValueError(f"map={c.map!r}: {len(board.outside)} outside squares for {scenario.players} players "
                         f"(allowed: a map with at least one outside start square a player)")
    need = r.blue_per_player[scenario.players - enums.MIN_PLAYERS] * scenario.players
    if need > board.blue_capacity():
        raise ValueError(f"rules.blue_per_player={r.blue_per_player}: {scenario.players} players place {need} blue "
                         f"chits but the rooms of map {c.map!r} take at most {board.blue_capacity()} (allowed: at "
                         f"most {board.blue_capacity() // scenario.players} a player on this map)")
    purple = sum(c.purple.values()) + 1
    if purple < board.n_rooms:
        raise ValueError(f"purple={purple - 1} chits: the map has {board.n_rooms} rooms, one purple chit each, the "
                         f"Specter's chit among Tower 3's (allowed: at least {board.n_rooms - 1} purple chits)")
    return {"map": str(path)}


def compile_scenario(scenario):
    """Kernel inputs for a validated scenario: (initial_state, initial_params, tables, costs, lineup kinds, lineup
    params, heroes, rotate, hero_rotate)."""
    import numpy as np
    from .compile import compile_rules, seat_heroes
    board = board_of(Path(scenario.resources["map"]))
    initial_state, initial_params, tables, costs = compile_rules(scenario.components, scenario.rules, scenario.players,
                                                                 scenario.turn_cap, board)
    kinds, params = scenario.strategy_lineup()
    heroes = seat_heroes(scenario.rules, scenario.components, scenario.players)
    return (initial_state, initial_params, tables, costs, np.ascontiguousarray(kinds, np.int64),
            np.ascontiguousarray(params, np.float64), heroes, bool(scenario.seat_rotation),
            bool(scenario.rules.hero_rotation))


def run_chunk(compiled, *, seed: int, rotate: bool, game0: int, n_games: int, n_blocks: int,
              out: dict | None = None, counter_rows: bool = True) -> dict:
    """Play one chunk of games; per-game outcome arrays keyed as the shared layers expect (``out``: an earlier
    chunk's arrays to play into, as for Spooky Tower). Its counter groups are tallied from the rows, not summed in
    the kernel (``<key>_sums``): a game takes over 100 us of a thread, and its tally well under 1% of that, so the
    sums would not pay for what they add to the compile (0.6 s to 1 s, measured). So the rows are always written
    (``counter_rows``, which lets other games leave them out, asks nothing here)."""
    import numpy as np
    from ..kernel_common import chunk_arrays
    from . import layout
    from .rules import simulate_nb
    from .rules.look_game import needs_look, simulate_look_nb

    initial_state, initial_params, tables, costs, kinds, params, heroes, _rotate, hero_rotate = compiled
    p = kinds.shape[0]
    n_mon = int(initial_state[layout.N_MONSTERS])
    n_items = int(initial_state[layout.N_ITEMS])
    out = chunk_arrays(out, game0, n_games, lambda n: {
        "game": np.empty(n, np.int64),
        "winner": np.empty(n, np.int8), "win_mask": np.empty(n, np.int8),
        "victory": np.empty(n, np.int8), "turns": np.empty(n, np.int32),
        "rounds": np.empty(n, np.int32), "seat_strategy": np.empty((n, p), np.int8),
        "seat_role": np.empty((n, p), np.int8), "final": np.empty((n, p, layout.N_FINAL), np.int16),
        "counters": np.empty((n, p, n_mon, layout.N_MC), np.int16),
        "items": np.empty((n, p, n_items, layout.N_IC), np.int16), "draws": np.empty(n, np.int64),
    })
    n_blocks = max(1, n_blocks)
    entry = simulate_look_nb if needs_look(kinds) else simulate_nb      # the search only where a seat uses it
    entry(initial_state, initial_params, tables, costs, kinds, params, heroes, bool(rotate), bool(hero_rotate),
                np.uint64(seed), game0, n_games, n_blocks, out["winner"], out["win_mask"], out["victory"], out["turns"],
                out["rounds"], out["seat_strategy"], out["seat_role"], out["final"], out["counters"], out["items"],
                out["draws"])
    return out


def default_scenario() -> dict:
    """The embedded default: four players, the three heuristics (random heroes wander until the cap), seats and
    heroes rotating, the reconstructed components and map."""
    return {"name": "The Haunted Tower (reconstructed components, embedded default)", "game": "haunted_tower",
            "players": 4, "games": 20_000, "seed": 1, "turn_cap": 2000, "seat_rotation": True,
            "seats": [{"name": n} for n in ("monster_hunter", "cautious_looter", "specter_rusher", "monster_hunter")]}


def assumptions(scenario) -> list[tuple[str, str, str]]:
    """The open-rule settings and reconstructed components in force, each with its reason
    (docs/rules/haunted_tower.md)."""
    from ..assumptions import component_row, rule_rows
    rows = rule_rows(scenario.rules)
    c = scenario.components
    default = HauntedTowerComponents()
    for key, what in (("map", "the Fighters' Academy map"), ("heroes", "the six hero cards"),
                      ("items", "the magical items"), ("blue", "the blue chits' contents"),
                      ("purple", "the purple chits' contents")):
        rows.append(component_row(key, getattr(c, key) != getattr(default, key), what, "docs/rules/haunted_tower.md"))
    return rows


def _monsters(scenario) -> tuple:
    return tuple(m.name for m in scenario.components.monsters)


def _items(scenario) -> tuple:
    return tuple(i.name for i in scenario.components.items)


def groups(scenario) -> tuple[CounterGroup, ...]:
    from . import layout
    return (CounterGroup("monster", layout.MONSTER_COUNTER_NAMES, layout.MC_KILLS, "counters", labels=_monsters,
                         ratio_base=layout.MC_ENCOUNTERS, used_phrase="killed a {}",
                         threat=Threat(layout.MC_HERO_DEATHS, ("deadliest", "deadlier"),
                                       besides=lambda sc: (sc.components.specter,))),   # the goal: deadly by design
            CounterGroup("item", layout.ITEM_COUNTER_NAMES, layout.IC_HELD_END, "items", labels=_items,
                         ratio_base=layout.IC_TAKEN, used_phrase="held the {} at the end"))


def draw_map(scenario, level=None) -> str:
    """The scenario's map as text, every level or one, with the legend and a summary line per level."""
    from .board import LEVELS, render
    board = board_of(Path(scenario.resources["map"]))
    if level is not None and level not in LEVELS:
        raise ValueError(f"no level {level} (allowed: {', '.join(map(str, LEVELS))})")
    info = board.describe()
    lines = [f"; {board.name}: {info['squares']} squares, {info['rooms']} rooms, chit capacity {info['blue_capacity']} "
             f"blue (needs {info['blue_needed']}) + {info['purple_chits']} purple"]
    for lv in LEVELS if level is None else (level,):
        d = info["levels"][lv]
        lines.append(f"; level {lv}: {d['squares']} squares, {d['rooms']} rooms of "
                     f"{', '.join(map(str, d['room_sizes']))} squares, {d['hallway_squares']} hallway squares"
                     + (f", staircase up: {d['staircases_up']}" if d["staircases_up"] else ""))
    return "\n".join(lines) + "\n\n" + render(board, level=level, legend=True)


_reference = lazy("balance.games.haunted_tower.reference", "play_scenario")
_narrate_text = lazy("balance.games.haunted_tower.narrate", "narrate_text")
_narrate_jsonl = lazy("balance.games.haunted_tower.narrate", "narrate_jsonl")
_searched = lazy("balance.games.haunted_tower.rules.simulate", "searched_decisions")


def _replay(scenario, seed: int | None = None, game: int = 0):
    """Game `game` of the scenario's run, played by the reference engine and checked against the kernel
    (``balance.games.driver.replay``): the game with the scenario's names (``narrate.Replay``)."""
    from ..driver import replay
    return replay(__name__, scenario, seed, game)


def role_labels(scenario) -> tuple:
    return tuple(h.name for h in scenario.components.heroes)


_EMPTY_ITEM = {"attack_bonus": 0, "damage_bonus": 0, "ac_bonus": 0, "heal": 0, "magical": False, "silver": False,
               "holy": False, "magic": False, "bane": None, "bane_damage": 0}


def remove_items(scenario) -> tuple[str, list[tuple[str, dict]]]:
    """Each magical item made plain: its chits stay in the tower and it is still found and carried (a weapon still
    attacks as an ordinary weapon), but every bonus, its healing and its special powers (magical, silver, holy,
    magic, bane) are gone."""
    return "item", [(i.name, {f"components.items.{i.name}.{k}": v for k, v in _EMPTY_ITEM.items()})
                    for i in scenario.components.items]


SPEC = GameSpec(
    name="haunted_tower", title="The Haunted Tower", min_players=enums.MIN_PLAYERS, max_players=enums.MAX_PLAYERS,
    components_model=HauntedTowerComponents, rules_model=HauntedTowerRules, strategies=STRATEGIES,
    victory_names=enums.VICTORY_NAMES, player_counter_names=enums.FINAL_NAMES,
    counter_names=enums.MONSTER_COUNTER_NAMES,
    item_name="monster", item_labels=(), compile_scenario=compile_scenario, run_chunk=run_chunk,
    default_scenario=default_scenario, assumptions=assumptions, groups=groups, role_name="hero",
    role_labels=role_labels, points_counter="points", draw_map=draw_map, reference=_reference, replay=_replay,
    narrate_text=_narrate_text, narrate_jsonl=_narrate_jsonl,
    score_lines=enums.SCORE_LINES,
    unfinished_ends={"fight_cap": f"at the fight cap ({enums.FIGHT_CAP_ROUNDS} combat rounds in a row in which neither "
                                  "side could hurt the other)"},
    summary_counters=("points", "kills", "deaths", "out", "runs", "encounters", "specter_hits", "specter_kill",
                      "items"),
    list_keys={"components.heroes": "name", "components.monsters": "name", "components.items": "name"},
    check=check, remove_items=remove_items, lookahead="lookahead", lookahead_searched=_searched,
    turn_cap=2000,      # hero turns; 0.5% of default games reach it (docs/rules/haunted_tower.md)
)
