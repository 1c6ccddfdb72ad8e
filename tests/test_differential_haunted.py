"""Differential tests for The Haunted Tower: the Numba kernel against the readable reference engine
(``balance/games/haunted_tower/reference.py``), event for event, on thousands of games.

Every case plays the same (scenario, seed, game) in both engines and asserts identical event lists and identical
outcomes (winner, win mask, victory, turns, rounds, the per-seat final counts, the per-(seat, monster) and
per-(seat, item) counters, the stream words drawn). Cases cover 3-6 players, every registered strategy (and mixed
tables once there are several), every rule option at a non-default value, hero and seat rotation, and stress
variants of the components that make the rare branches common (robber flies, rust monsters, carrion crawlers,
ghouls, basilisks, vampires and the stake, holy water, a weaker Specter within reach). Random heroes wander for the
whole turn cap, so the caps are short. The batch kernel (``run_chunk``) is checked against traced games, scripted
games (dice and choices, illegal answers) against the kernel's test hooks, the stress cases are checked to reach
the rare branches at all, and the reference's own view (hidden contents blanked) and snapshots are checked.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from balance.games.haunted_tower import STRATEGIES, board_of, compile_scenario, run_chunk
from balance.games.haunted_tower import enums as E
from balance.games.haunted_tower import kernel as K
from balance.games.haunted_tower import layout as L
from balance.games.haunted_tower.components import hero_list, monster_table
from balance.games.haunted_tower.reference import Table, play_reference, play_scenario, scenario_lineup
from balance.games.haunted_tower.reference_view import MAX_SCRIPT
from balance.games.haunted_tower.setup import reset_nb
from balance.scenario import load_scenario

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
    E.EV_DRAIN: ("drains",), E.EV_STOLEN: ("chit", "square"), E.EV_FLY_AWAY: ("chit",), E.EV_RUSTED: ("chit",),
    E.EV_KILL: ("chit", "monster"), E.EV_DEATH: ("deaths", "square"), E.EV_MONSTER_GONE: ("chit",),
    E.EV_TRADE: ("partner", "given", "received"), E.EV_WIN: ("victory", "mask"), E.EV_CAP: ("turns",),
    E.EV_SCORE: ("points",), E.EV_ILLEGAL: ("decision", "answer"),
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
         "seat_rotation": seat_rotation, "seats": [{"name": n} for n in (seats or ["random"] * players)]}
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
NAMES = sorted(STRATEGIES)
# Seats that head for the Specter (Tower 3), so that games meet it: escapes from it (the back-up), its death.
RUSHERS = ["specter_rusher" if "specter_rusher" in STRATEGIES else NAMES[0]] * 3


def mixed(players: int) -> list[str]:
    """Every registered strategy in turn around the table."""
    return [NAMES[i % len(NAMES)] for i in range(players)]


# (id, scenario keyword arguments, games). Every strategy at every table size; mixed tables when there are several
# strategies; each rule option at a non-default value; stress variants.
CASES = [(f"{name}-{p}", dict(players=p, seats=[name] * p, turn_cap=80), 200) for name in NAMES for p in (3, 4, 5, 6)]
if len(NAMES) > 1:
    CASES += [(f"mixed-{p}", dict(players=p, seats=mixed(p), turn_cap=80), 200) for p in (3, 4, 5, 6)]
CASES += [
    ("initiative_ties-hero", dict(players=4, seats=mixed(4), rules={"initiative_ties": "hero"}), 200),
    ("initiative_ties-monster", dict(players=4, seats=mixed(4), rules={"initiative_ties": "monster"}), 200),
    ("ties-specter_killer", dict(players=3, seats=mixed(3), rules={"ties": "specter_killer"}), 200),
    ("out_hero_scores-false", dict(players=5, seats=mixed(5), rules={"out_hero_scores": False}), 200),
    ("trading", dict(players=6, seats=mixed(6), rules={"trading": True}), 200),
    ("specter_damage_once-false", dict(players=4, seats=mixed(4), rules={"specter_damage_once": False,
                                                                          "climb_from_1": 0, "climb_from_2": 0}), 200),
    ("climb-free", dict(players=3, seats=mixed(3), rules={"climb_from_1": 0, "climb_from_2": 0}), 200),
    ("climb-hard", dict(players=4, seats=mixed(4), rules={"climb_from_1": 1, "climb_from_2": 9}), 200),
    ("hero_rotation-off", dict(players=5, seats=mixed(5), rules={"hero_rotation": False}), 200),
    ("seat_rotation", dict(players=4, seats=mixed(4), seat_rotation=True), 200),
    ("heroes-subset", dict(players=3, seats=mixed(3), rules={"heroes": ["thief", "magic_user", "cleric", "elf"]}),
     200),
    ("stress-4", dict(players=4, seats=mixed(4), turn_cap=60, rules=STRESS_RULES, components=stress_components()),
     400),
    ("stress-3", dict(players=3, seats=mixed(3), turn_cap=60, rules={"climb_from_1": 0, "climb_from_2": 0},
                      components=stress_components()), 300),
    ("stress-specter", dict(players=3, seats=RUSHERS, turn_cap=100, rules=STRESS_RULES,
                            components=stress_components()), 150),
    ("stress-ties", dict(players=3, seats=RUSHERS, turn_cap=100, rules=TIE_RULES,
                         components={**stress_components(), "scoring": TIE_SCORING}), 100),
    ("stress-6", dict(players=6, seats=mixed(6), turn_cap=60, seat_rotation=True,
                      rules={**STRESS_RULES, "initiative_ties": "monster", "out_hero_scores": False},
                      components=stress_components()), 250),
]
GAMES_COVERED = sum(c[-1] for c in CASES)


# --- comparing the two engines ---------------------------------------------------------------------------------

def first_mismatch(kernel_events: np.ndarray, ref_events: list) -> str | None:
    """None when the event lists are identical; else the first differing index and both events by name."""
    k = [tuple(int(x) for x in row) for row in kernel_events]
    for i, (a, b) in enumerate(zip(k, ref_events)):
        if a != tuple(b):
            return (f"first difference at event {i}:\n  kernel    {describe_event(a)}\n"
                    f"  reference {describe_event(b)}\n  before: "
                    + "; ".join(describe_event(e) for e in k[max(0, i - 6):i]))
    if len(k) != len(ref_events):
        n = min(len(k), len(ref_events))
        longer, name = (k, "kernel") if len(k) > n else (ref_events, "reference")
        return (f"same first {n} events, then only the {name} goes on: event {n} = "
                f"{describe_event(longer[n])} (kernel {len(k)} events, reference {len(ref_events)})")
    return None


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


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_kernel_and_reference_play_the_same_games(case):
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


# --- the stress case reaches the rare branches ------------------------------------------------------------------

def test_stress_case_reaches_the_rare_branches():
    """The stress variants must actually drive the rare rules through both engines (and they must agree there):
    a mixed table for the monsters' abilities, items and trades, and Specter rushers for the Specter."""
    kinds, hit_outcomes, victories, shared_wins = Counter(), Counter(), Counter(), 0
    tie_components = {**stress_components(), "scoring": TIE_SCORING}
    for seats, turn_cap, rules, components, games in ((mixed(4), 60, STRESS_RULES, stress_components(), 120),
                                                      (RUSHERS, 100, STRESS_RULES, stress_components(), 80),
                                                      (RUSHERS, 100, TIE_RULES, tie_components, 60)):
        sc = scenario(len(seats), seats, turn_cap=turn_cap, rules=rules, components=components, seed=77)
        compiled = compile_scenario(sc)
        for game in range(games):
            ref = assert_same_game(sc, compiled, game)
            for kind, _p, _a, b, _c in ref.events:
                kinds[kind] += 1
                if kind == E.EV_HIT_ROLL:
                    hit_outcomes[b] += 1
            victories[ref.victory] += 1
            shared_wins += bin(ref.win_mask).count("1") > 1
    wanted = (E.EV_STOLEN, E.EV_FLY_AWAY, E.EV_RUSTED, E.EV_DRAIN, E.EV_HIT_ROLL, E.EV_BACK, E.EV_TRADE_IN,
              E.EV_POTION, E.EV_USED_UP, E.EV_OUT, E.EV_DEATH, E.EV_IMMUNE, E.EV_CANNOT_USE, E.EV_DROP, E.EV_TRADE,
              E.EV_HELD, E.EV_KILL, E.EV_RUN, E.EV_LEAVE, E.EV_TAKE, E.EV_WIN)
    missing = [E.EVENT_NAMES[k] for k in wanted if not kinds[k]]
    assert not missing, f"never reached: {missing} (seen {dict((E.EVENT_NAMES[k], n) for k, n in kinds.items())})"
    assert set(hit_outcomes) == set(range(len(E.HIT_NAMES))), f"hit outcomes seen: {hit_outcomes}"
    assert set(victories) == set(range(len(E.VICTORY_NAMES))), f"victories: {victories}"
    assert shared_wins, "no game ended in a tie for the most points"


# --- the batch kernel ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seat_rotation", [False, True])
def test_batch_kernel_agrees_with_traced_games(seat_rotation):
    """run_chunk's per-game outcomes are those of the traced kernel and of the reference, game by game."""
    sc = scenario(5, mixed(5), turn_cap=80, seat_rotation=seat_rotation, seed=42)
    compiled = compile_scenario(sc)
    out = run_chunk(compiled, seed=sc.seed, rotate=sc.seat_rotation, game0=100, n_games=30, n_blocks=3)
    n_mon, n_items = len(sc.components.monsters), len(sc.components.items)
    for i, game in enumerate(out["game"]):
        game = int(game)
        kinds, _params, heroes = scenario_lineup(sc, game)
        slots = (np.arange(5) + game) % 5 if seat_rotation else np.arange(5)
        assert out["seat_strategy"][i].tolist() == slots.tolist()
        assert out["seat_role"][i].tolist() == heroes
        _events, s = K.trace_game(compiled, sc.seed, game, max_rows=TRACE_ROWS)
        ref = play_scenario(sc, game=game)
        batch = {"winner": int(out["winner"][i]), "win_mask": int(out["win_mask"][i]),
                 "victory": int(out["victory"][i]), "turns": int(out["turns"][i]), "rounds": int(out["rounds"][i]),
                 "final": out["final"][i], "monsters": out["counters"][i], "items": out["items"][i],
                 "draws": int(out["draws"][i])}
        for other in (kernel_outcome(s, 5, n_mon, n_items), reference_outcome(ref)):
            diff = outcome_mismatch(batch, other)
            assert diff is None, f"game {game}: batch vs traced: {diff}"


# --- scripted games: the test hooks agree -------------------------------------------------------------------------

def kernel_scripted(compiled, seed: int, game: int, dice=(), choices=()):
    """The kernel's scripted game as a rule test sets it up: seat, deal, script dice and choices, play."""
    s0, f0, g, d, kinds, params, heroes, rotate, hero_rotate = compiled
    s = np.zeros(s0.shape[0] + 5 * TRACE_ROWS, np.int64)
    s[:s0.shape[0]] = s0
    f = f0.copy()
    n = kinds.shape[0]
    K.seat_lineup_nb(s, f, kinds, params, heroes, rotate, hero_rotate, game, np.zeros(n, np.int64),
                     np.zeros(n, np.int64))
    reset_nb(s, g, np.uint64(seed), game)
    K.script_dice(s, dice)
    K.script_choices(s, choices)
    K.play_on_nb(s, f, g, d)
    rows = int(s[L.M_TRACE])
    return s[L.TRACE:L.TRACE + 5 * rows].reshape(rows, 5), s


def recorded_answers(sc, board, kinds, game: int, dice, seats) -> tuple[list[int], list[str], list]:
    """Every answer `seats` give in a reference game, in the order asked, as a choice script (a placement is two
    entries, a yes/no one); the decision of each entry; and the game's events."""
    answers: list[int] = []
    asked: list[str] = []

    class Recorder(Table):
        def decide(self, decision, seat, *args, **kw):
            answer = super().decide(decision, seat, *args, **kw)
            if seat in seats:
                parts = answer if isinstance(answer, tuple) else (answer,)
                answers.extend(int(a) for a in parts)
                asked.extend([decision.__name__] * len(parts))
            return answer

    _kinds, params, heroes = scenario_lineup(sc, game)
    table = Recorder(sc.components, sc.rules, board, sc.players, sc.turn_cap, kinds, params, heroes, sc.seed, game,
                     dice=dice)
    table.play()
    return answers, asked, table.events


def test_scripted_games_agree():
    """Scripted dice and choices drive both engines alike. The choices are those two random seats gave in a
    reference game: replayed by scripted seats they play the same game; with a few answers changed (often out of
    range: an illegal answer stops the game), the two engines still agree."""
    sc = scenario(3, turn_cap=30, seed=9)
    compiled = list(compile_scenario(sc))
    scripted = compiled[4] = np.array([SCRIPTED, SCRIPTED, 0], np.int64)     # two scripted seats, one random
    compiled = tuple(compiled)
    board = board_of(Path(sc.resources["map"]))
    rng = np.random.default_rng(5)
    seen = Counter()
    for game in range(60):
        dice = rng.integers(1, 7, size=int(rng.integers(0, 60))).tolist()
        choices, asked, random_events = recorded_answers(sc, board, compile_scenario(sc)[4], game, dice, (0, 1))
        assert len(choices) <= MAX_SCRIPT
        in_play = [i for i, name in enumerate(asked) if not name.startswith("place_")]
        if game % 4 and in_play:
            for i in rng.choice(in_play, size=min(len(in_play), int(rng.integers(1, 4))), replace=False):
                choices[i] = int(rng.integers(-2, 6))
        events, _s = kernel_scripted(compiled, sc.seed, game, dice, choices)
        _kinds, params, heroes = scenario_lineup(sc, game)
        ref = play_reference(sc.components, sc.rules, board, 3, sc.turn_cap, scripted, params, heroes, sc.seed,
                             game, dice=dice, choices=choices)
        diff = first_mismatch(events, ref.events)
        assert diff is None, f"scripted game {game} (dice {dice}, choices {choices}): {diff}"
        if game % 4 == 0:
            assert ref.events == random_events, f"game {game}: the replayed script plays another game"
        seen.update(e[0] for e in ref.events)
    assert seen[E.EV_ILLEGAL] and seen[E.EV_CAP]


def test_mismatch_message_names_the_first_differing_event():
    sc = scenario(3, seed=3)
    compiled = compile_scenario(sc)
    events, _s = K.trace_game(compiled, sc.seed, 0, max_rows=TRACE_ROWS)
    ref = play_scenario(sc, game=0)
    assert first_mismatch(events, ref.events) is None
    i = next(i for i, e in enumerate(ref.events) if e[0] == E.EV_MOVE_ROLL)
    bad = events.copy()
    bad[i, 2] = 7 - bad[i, 2]
    msg = first_mismatch(bad, ref.events)
    assert msg is not None and f"event {i}:" in msg and "move_roll(player=" in msg and "d6=" in msg
    assert "only the reference goes on" in first_mismatch(events[:-1], ref.events)


# --- the reference's own pieces: the strategies' view, the snapshots ----------------------------------------------

def reference_table(sc, game: int) -> Table:
    kinds, params, heroes = scenario_lineup(sc, game)
    return Table(sc.components, sc.rules, board_of(Path(sc.resources["map"])), sc.players, sc.turn_cap, kinds, params,
                 heroes, sc.seed, game)


def test_view_hides_what_the_seat_does_not_know():
    """In the view a seat's strategy reads, a chit's content is shown only when face up or drawn and placed by that
    seat (the kernel's strategies may only learn it through known_content_nb: a peek would play differently here);
    the cup's order is not written."""
    sc = scenario(4, turn_cap=40, seed=3)
    table = reference_table(sc, 0)
    table.play()
    assert any(ch.face_up for ch in table.chits) and any(not ch.face_up for ch in table.chits)
    s = table._s
    for seat in range(4):
        table.write_view(seat, (), 0, ())
        shown = [(int(s[L.CHIT_KIND + ch.id]), int(s[L.CHIT_INDEX + ch.id])) for ch in table.chits]
        known = [ch.face_up or ch.placer == seat for ch in table.chits]
        assert shown == [(ch.kind, ch.index) if k else (-1, -1) for ch, k in zip(table.chits, known)]
        own = sum(1 for ch in table.chits if ch.placer == seat)
        assert own == sc.rules.blue_per_player[4 - E.MIN_PLAYERS]
        assert not s[L.CUP:L.CUP + L.MAX_CHITS].any()
        assert [int(s[L.HS + p * L.N_HS + L.HS_SQ]) for p in range(4)] == [h.square for h in table.heroes]


def test_snapshots_follow_the_game():
    """One snapshot after every hero turn; the last one agrees with the final counts."""
    sc = scenario(5, mixed(5), turn_cap=60, seed=4)
    for game in range(5):
        ref = play_scenario(sc, game=game)
        assert [snap.turn for snap in ref.snapshots] == list(range(1, ref.turns + 1))
        last = ref.snapshots[-1]
        final = {name: ref.final[:, j] for j, name in enumerate(L.FINAL_NAMES)}
        assert [len(h.items) for h in last.heroes] == final["items"].tolist()
        assert [h.points for h in last.heroes] == final["points"].tolist()
        assert [h.drains for h in last.heroes] == final["drains"].tolist()
        assert [h.out for h in last.heroes] == final["out"].astype(bool).tolist()
        table = reference_table(sc, game)
        table.play()
        assert table.events == ref.events
        lying = [sum(1 for ch in table.chits if ch.square >= 0 and table.board.level[ch.square] == lv)
                 for lv in (1, 2, 3)]
        assert list(last.chits_left) == lying
        assert [h.square for h in last.heroes] == [h.square for h in table.heroes]


def test_suite_size():
    """The differential cases together cover thousands of games."""
    assert GAMES_COVERED >= 5000
