"""The machinery of the differential tests for The Haunted Tower: the Numba kernel against the readable reference
engine (``balance/games/haunted_tower/reference/``), event for event, on thousands of games.

Shared by ``games/haunted_tower/test_differential.py`` (every strategy at every table size, mixed tables, the batch
kernel, scripted games, the reference's view and snapshots) and ``games/haunted_tower/test_differential_options.py``
(every rule option at a non-default value, hero and seat rotation, the stress variants and the rare branches they
reach). The cases are one list (``CASES``) split in two files so that the test runner's two workers share them; a case's
seed is its place in the list, so the split changes no game.

Every case plays the same (scenario, seed, game) in both engines and asserts identical event lists and identical
outcomes (winner, win mask, victory, turns, rounds, the per-seat final counts, the per-(seat, monster) and
per-(seat, item) counters, the stream words drawn). Random heroes wander for the whole turn cap, so the caps are
short.
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from balance.games.haunted_tower import STRATEGIES, compile_scenario
from balance.games.haunted_tower import enums as E
from balance.games.haunted_tower import rules as K
from balance.games.haunted_tower import layout as L
from balance.games.haunted_tower.components import hero_list, monster_table
from balance.games.haunted_tower.reference import play_scenario
from balance.scenario import load_scenario

import event_diff

SCRIPTED = 9
TRACE_ROWS = 20_000

# Field names of each event's (a, b, c), from docs/trace.md, for readable mismatch messages.
EVENT_FIELDS = {
    E.EV_ROUND: ("round", "start"), E.EV_ROLLOFF: ("d10", "why"), E.EV_DEAL: ("chit",), E.EV_PLACE: ("chit", "square"),
    E.EV_TURN: ("turn", "round"), E.EV_TRADE_IN: ("paid", "drains_left"), E.EV_POTION: ("chit", "hp"),
    E.EV_MOVE_ROLL: ("d6", "mp"), E.EV_MOVE: ("from", "to", "cost"), E.EV_REVEAL: ("chit", "kind", "index"),
    E.EV_CANNOT_USE: ("chit",), E.EV_TAKE: ("chit", "given_up"), E.EV_LEAVE: ("chit",),
    E.EV_DROP: ("chit", "square"), E.EV_FIGHT: ("chit", "monster"), E.EV_INITIATIVE: ("hero", "monster", "first"),
    E.EV_RUN: ("d10+", "escaped"), E.EV_BACK: ("square",), E.EV_ATTACK: ("d6", "total", "hit"),
    E.EV_IMMUNE: ("chit",), E.EV_DAMAGE: ("damage", "hp_left"), E.EV_USED_UP: ("chit",),
    E.EV_MONSTER_ATTACK: ("d6", "total", "hit"), E.EV_HIT_ROLL: ("d10", "outcome"), E.EV_WOUND: ("lost", "hp_left"),
    E.EV_DRAIN: ("drains",), E.EV_STOLEN: ("chit", "square", "chosen_by"), E.EV_FLY_AWAY: ("chit",),
    E.EV_RUSTED: ("chit", "chosen_by"),
    E.EV_KILL: ("chit", "monster"), E.EV_DEATH: ("deaths", "square"), E.EV_MONSTER_GONE: ("chit",),
    E.EV_TRADE: ("partner", "given", "received"), E.EV_WIN: ("victory", "mask"), E.EV_CAP: ("turns",),
    E.EV_SCORE: ("points",), E.EV_ILLEGAL: ("decision", "answer"), E.EV_WEAPON: ("chit",),
    E.EV_STEP: ("square", "cost"),
}


def describe_event(e) -> str:
    kind, player, *abc = (int(x) for x in e)
    names = EVENT_FIELDS.get(kind, ())
    fields = ", ".join(f"{n}={v}" for n, v in zip(names, abc))
    return f"{E.EVENT_NAMES[kind]}(player={player}{', ' + fields if fields else ''})"


# --- scenarios ---------------------------------------------------------------------------------------------------

def scenario(players: int, seats=None, *, turn_cap: int = 80, rules=None, components=None,
             seat_rotation: bool = False, seed: int = 1):
    """A Haunted Tower scenario: `seats` strategy names (default random), rule and component overrides."""
    d = {"game": "haunted_tower", "players": players, "turn_cap": turn_cap, "seed": seed,
         "seat_rotation": seat_rotation,
         "seats": [n if isinstance(n, dict) else {"name": n} for n in (seats or ["random"] * players)]}
    if rules:
        d["rules"] = rules
    if components:
        d["components"] = components
    return load_scenario(d)


def stress_components() -> dict:
    """Components that make the rare branches common: many robber flies, rust monsters, carrion crawlers, ghouls,
    basilisks, vampires, zombies and pit vipers; stakes, holy water, wands (usable by few: cannot_use), potions and
    metal items to rust; frail heroes (deaths, outs, all-out games), every hero ability, and a weaker Specter that
    short games reach and kill."""
    more = {"robber_fly": 8, "rust_monster": 8, "carrion_crawler": 6, "ghoul": 8, "basilisk": 5, "vampire": 4,
            "zombie": 4, "pit_viper": 4, "wight": 4, "gargoyle": 3, "bone_golem": 2}
    monsters = []
    for m in monster_table():
        m = m.model_dump()
        m["standups"] = more.get(m["name"], m["standups"])
        if m["name"] == "specter":
            m.update(hp=3, attack=4, ac=6)
        monsters.append(m)
    abilities = {"fighter": ("damage_bonus", 1), "dwarf": ("extra_weapon_slot", 1), "elf": ("magic", 0),
                 "magic_user": ("movement_bonus", 2), "cleric": ("undead_bonus", 2), "thief": ("initiative_bonus", 1)}
    heroes = []
    for h in hero_list():
        h = h.model_dump()
        h["ability"], h["ability_value"] = abilities[h["name"]]
        h["hp"] = max(2, h["hp"] // 2)
        heroes.append(h)
    blue = {"robber_fly": 5, "rust_monster": 4, "carrion_crawler": 5, "ghoul": 6, "zombie": 3, "pit_viper": 3,
            "black_widow_spider": 2, "giant_vampire_bat": 2, "basilisk": 2, "holy_water": 6, "stake": 4,
            "potion_of_healing": 6, "chain_mail_plus_1": 3, "shield_plus_1": 3, "sword_plus_1": 3, "silver_dagger": 2,
            "wand_of_magic_missiles": 2, "staff": 1}
    purple = {"vampire": 3, "wight": 4, "mummy": 1, "gargoyle": 3, "basilisk": 3, "rust_monster": 4, "robber_fly": 3,
              "bone_golem": 2, "carrion_crawler": 1, "holy_water_flask": 2, "wand_of_magic_missiles": 1,
              "sword_plus_2": 2, "ring_of_protection": 1, "plate_mail_plus_1": 1, "potion_of_extra_healing": 2}
    return {"monsters": monsters, "heroes": heroes, "blue": blue, "purple": purple}


STRESS_RULES = {"climb_from_1": 0, "climb_from_2": 0, "trading": True, "specter_damage_once": False,
                "ties": "specter_killer"}
# Only stand-ups score and out heroes score nothing: tied winners are common (`ties`), all-out games a tie of all.
TIE_RULES = {**STRESS_RULES, "out_hero_scores": False}
TIE_SCORING = {"standup": 1, "blue_chit": 0, "purple_chit": 0, "bane_kill": 0, "specter_damage": 0,
               "specter_kill": 0}
NAMES = sorted(n for n in STRATEGIES if n != "lookahead")     # the lookahead has cases of its own (end of CASES)
# Seats that head for the Specter (Tower 3), so that games meet it: escapes from it (the back-up), its death.
RUSHERS = ["specter_rusher" if "specter_rusher" in STRATEGIES else NAMES[0]] * 3


def mixed(players: int) -> list[str]:
    """Every registered strategy in turn around the table."""
    return [NAMES[i % len(NAMES)] for i in range(players)]


# (id, scenario keyword arguments, games). Every strategy at every table size; mixed tables when there are several
# strategies; each rule option at a non-default value; stress variants.
CASES = [(f"{name}-{p}", dict(players=p, seats=[name] * p, turn_cap=80), 60) for name in NAMES for p in (3, 4, 5, 6)]
if len(NAMES) > 1:
    CASES += [(f"mixed-{p}", dict(players=p, seats=mixed(p), turn_cap=80), 60) for p in (3, 4, 5, 6)]
TABLE_CASES = len(CASES)             # the cases before this one are tables of strategies; the rest vary the rules
CASES += [
    ("initiative_ties-hero", dict(players=4, seats=mixed(4), rules={"initiative_ties": "hero"}), 80),
    ("initiative_ties-monster", dict(players=4, seats=mixed(4), rules={"initiative_ties": "monster"}), 80),
    ("ties-specter_killer", dict(players=3, seats=mixed(3), rules={"ties": "specter_killer"}), 80),
    ("out_hero_scores-false", dict(players=5, seats=mixed(5), rules={"out_hero_scores": False}), 80),
    ("trading", dict(players=6, seats=mixed(6), rules={"trading": True}), 80),
    ("specter_damage_once-false", dict(players=4, seats=mixed(4), rules={"specter_damage_once": False,
                                                                          "climb_from_1": 0, "climb_from_2": 0}), 80),
    ("climb-free", dict(players=3, seats=mixed(3), rules={"climb_from_1": 0, "climb_from_2": 0}), 80),
    ("climb-hard", dict(players=4, seats=mixed(4), rules={"climb_from_1": 1, "climb_from_2": 9}), 80),
    ("hero_rotation-off", dict(players=5, seats=mixed(5), rules={"hero_rotation": False}), 80),
    ("seat_rotation", dict(players=4, seats=mixed(4), seat_rotation=True), 80),
    ("heroes-subset", dict(players=3, seats=mixed(3), rules={"heroes": ["thief", "magic_user", "cleric", "elf"]}),
     80),
    ("stress-4", dict(players=4, seats=mixed(4), turn_cap=60, rules=STRESS_RULES, components=stress_components()),
     200),
    ("stress-3", dict(players=3, seats=mixed(3), turn_cap=60, rules={"climb_from_1": 0, "climb_from_2": 0},
                      components=stress_components()), 80),
    ("stress-specter", dict(players=3, seats=RUSHERS, turn_cap=100, rules=STRESS_RULES,
                            components=stress_components()), 150),
    ("stress-ties", dict(players=3, seats=RUSHERS, turn_cap=100, rules=TIE_RULES,
                         components={**stress_components(), "scoring": TIE_SCORING}), 80),
    ("stress-6", dict(players=6, seats=mixed(6), turn_cap=60, seat_rotation=True,
                      rules={**STRESS_RULES, "initiative_ties": "monster", "out_hero_scores": False},
                      components=stress_components()), 120),
]
if "lookahead" in STRATEGIES:
    # the lookahead's search runs in the kernel from the reference's view of what the seat may know (reference/
    # lookahead.py): each base, a narrow and a wide search, playouts to the end and to a horizon, seats rotating, a
    # stress table with Specter fights
    LOOK = [{"name": "lookahead", "playouts": 2, "base": b, "width": w, "horizon": h}
            for b, w, h in ((1, 3, 2), (2, 2, 0), (3, 8, 1))]
    CASES += [
        ("lookahead-4", dict(players=4, seats=[LOOK[0], "monster_hunter", LOOK[1], "specter_rusher"], turn_cap=120,
                             seat_rotation=True), 12),
        ("lookahead-3-all", dict(players=3, seats=LOOK, turn_cap=120), 8),
        ("lookahead-stress", dict(players=3, seats=[LOOK[2], "specter_rusher", "specter_rusher"], turn_cap=100,
                                  rules=STRESS_RULES, components=stress_components()), 12),
    ]
GAMES_COVERED = sum(c[-1] for c in CASES)


# --- comparing the two engines ---------------------------------------------------------------------------------

def first_mismatch(kernel_events: np.ndarray, ref_events: list) -> str | None:
    """None when the event lists are identical; else the first differing index and both events by name."""
    return event_diff.first_mismatch(kernel_events, ref_events, describe_event, before=6)


def kernel_outcome(s: np.ndarray, n_players: int, n_monsters: int, n_items: int) -> dict:
    """A traced kernel game's outcome, read from its final state through the layout's offsets."""
    def hs(p, k):
        return int(s[L.HS + p * L.N_HS + k])
    return {
        "winner": int(s[L.SC + L.SC_WINNER]), "win_mask": int(s[L.SC + L.SC_WIN_MASK]),
        "victory": int(s[L.SC + L.SC_VICTORY]), "turns": int(s[L.SC + L.SC_TURN]),
        "rounds": int(s[L.SC + L.SC_ROUND]),
        "final": np.array([[hs(p, k) for k in L.FINAL_FIELDS] for p in range(n_players)]),
        "monsters": np.array([[[s[L.MCNT + (p * L.MAX_MONSTERS + m) * L.N_MC + k] for k in range(L.N_MC)]
                               for m in range(n_monsters)] for p in range(n_players)]),
        "items": np.array([[[s[L.ICNT + (p * L.MAX_ITEMS + i) * L.N_IC + k] for k in range(L.N_IC)]
                            for i in range(n_items)] for p in range(n_players)]),
        "draws": int(K.draws_nb(s, n_players)),
    }


def reference_outcome(ref) -> dict:
    return {"winner": ref.winner, "win_mask": ref.win_mask, "victory": ref.victory, "turns": ref.turns,
            "rounds": ref.rounds, "final": ref.final, "monsters": ref.monsters, "items": ref.items,
            "draws": ref.draws}


COMPARED = list(range(len(L.FINAL_NAMES)))


def outcome_mismatch(kernel: dict, reference: dict, columns=COMPARED) -> str | None:
    """None when two outcomes agree (the final counts on `columns` only); else what differs."""
    kernel = {**kernel, "final": np.asarray(kernel["final"])[:, columns]}
    reference = {**reference, "final": np.asarray(reference["final"])[:, columns]}
    for key, k in kernel.items():
        r = reference[key]
        if not np.array_equal(k, r):
            if key == "final":
                rows = [f"seat {p} {L.FINAL_NAMES[columns[j]]}: kernel {k[p, j]} reference {r[p, j]}"
                        for p, j in zip(*np.nonzero(k != r))]
                return "final counts differ: " + "; ".join(rows)
            return f"{key} differ:\n  kernel    {k}\n  reference {r}"
    return None


def assert_same_game(sc, compiled, game: int):
    events, s = K.trace_game(compiled, sc.seed, game, max_rows=TRACE_ROWS)
    ref = play_scenario(sc, game=game)
    where = f"{sc.players} players, seed {sc.seed}, game {game}"
    diff = first_mismatch(events, ref.events)
    assert diff is None, f"{where}: {diff}"
    diff = outcome_mismatch(kernel_outcome(s, sc.players, len(sc.components.monsters), len(sc.components.items)),
                            reference_outcome(ref))
    assert diff is None, f"{where}: {diff}"
    return ref


def play_case(case) -> None:
    """Play a case's games in both engines (its seed: 2000 + its place in ``CASES``) and check they are real."""
    name, kwargs, n_games = case
    sc = scenario(**kwargs, seed=2000 + [c[0] for c in CASES].index(name))
    compiled = compile_scenario(sc)
    seen = Counter()
    for game in range(n_games):
        ref = assert_same_game(sc, compiled, game)
        seen.update(e[0] for e in ref.events)
    # Real games: every one has turns, moves and a score, and the case met monsters and items.
    assert seen[E.EV_TURN] and seen[E.EV_MOVE] and seen[E.EV_SCORE] == n_games * sc.players
    assert seen[E.EV_FIGHT] and seen[E.EV_REVEAL]
