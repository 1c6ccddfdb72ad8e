"""Differential tests: the Numba kernel against the readable reference engine, move for move, on thousands of seeds.

Every case plays the same (scenario, seed, game) in both engines and asserts identical event lists and identical
final counts (per-player counters, shared scalars, per-(seat, value) counters, the Town and every hand, the number of
random draws). Cases cover every strategy kind (the lookahead too), mixed tables of 2-4 players, each non-default rule option, the
rulebook's value-1 Building, a stress variant that drives the rare branches (stolen pets, lost effects, extra
turns, empty Grimoire, the turn cap) and scripted games (dice, Town stacks, choices). The batch kernel
(``run_chunk``) is checked against single traced games.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from balance.games.spooky_tower import STRATEGIES, run_chunk
from balance.games.spooky_tower import enums as E
from balance.games.spooky_tower import rules as K
from balance.games.spooky_tower import layout as L
from balance.games.spooky_tower.compile import compile_rules
from balance.games.spooky_tower.components import (Building, SpookyTowerComponents, SpookyTowerRules,
                                                   card_list_buildings, rulebook_buildings)
from balance.games.driver import replay as driver_replay
from balance.games.spooky_tower import compile_scenario
from balance.games.spooky_tower.narrate import describe_event, kernel_disagreement, narrate_jsonl, narrate_text
from balance.games.spooky_tower.reference import play_reference, play_scenario, scenario_lineup
from balance.scenario import load_scenario

import event_diff

SCRIPTED = 9


def lineup(*names: str) -> tuple[np.ndarray, np.ndarray]:
    """Kinds and default parameters (padded to the kernel's 4 columns) for strategies by name."""
    kinds = np.array([STRATEGIES[n].kind for n in names], np.int64)
    params = np.zeros((len(names), L.N_PARAMS), np.float64)
    for i, n in enumerate(names):
        vec = STRATEGIES[n].vector({})
        params[i, :len(vec)] = vec
    return kinds, params


def stress_components() -> SpookyTowerComponents:
    """A variant built to reach the rare branches often: few pets (steals, lost pets), a short Grimoire (an empty
    deck), a dial with an empty step, a ghost and an extra turn, take-any and extra-turn Photos, "none" entries,
    ghosts worth 0-3, and a higher ghost target (longer games, more steals, the cap)."""
    b = card_list_buildings()
    b[1] = Building(value=2, bonus=["reroll"], photos=[["clock", "none"], ["take_any"], ["extra_turn"], []])
    b[6] = Building(value=7, photos=[["ghost"], ["extra_turn", "extra_turn"], ["clock"], ["clue"], ["clue", "clue"]],
                    ghost_worth=3)
    b[9] = Building(value=10, bonus=["fragment"], photos=[["ghost"]] * 2 + [["pet", "take_any"]], ghost_worth=0)
    return SpookyTowerComponents(
        buildings=b, grimoire=[["take_any", "flip_9plus"], ["extra_turn"], ["ghost", "pet"], ["clock"]],
        grimoire_ghost_worth=2, clock_dial=["none", "pet", "ghost", "fragment", "extra_turn", "reroll", "fragment"],
        park_requirements=[1, 1, 2], park_ghosts=2, ghost_pets=1, amulet_fragments=5, ghosts_to_win=9,
        fragments_to_win=4)


DEFAULT = SpookyTowerComponents()
RULES = SpookyTowerRules()
MIXED = {2: ("ghost_hunter", "clock_rusher"), 3: ("random", "collector", "ghost_hunter"),
         4: ("clock_rusher", "random", "collector", "ghost_hunter")}

# (id, components, rules, strategies, turn_cap, games)
CASES = [
    ("random-3", DEFAULT, RULES, ("random",) * 3, 1000, 400),
    ("ghost_hunter-3", DEFAULT, RULES, ("ghost_hunter",) * 3, 1000, 250),
    ("collector-3", DEFAULT, RULES, ("collector",) * 3, 1000, 250),
    ("clock_rusher-3", DEFAULT, RULES, ("clock_rusher",) * 3, 1000, 250),
    ("random-2", DEFAULT, RULES, ("random",) * 2, 1000, 250),
    ("random-4", DEFAULT, RULES, ("random",) * 4, 1000, 250),
    ("mixed-2", DEFAULT, RULES, MIXED[2], 1000, 300),
    ("mixed-3", DEFAULT, RULES, MIXED[3], 1000, 300),
    ("mixed-4", DEFAULT, RULES, MIXED[4], 1000, 300),
    ("takes_first", DEFAULT, SpookyTowerRules(effect_order="takes_first"), MIXED[4], 1000, 300),
    ("flip_building", DEFAULT, SpookyTowerRules(flip_scope="building"), MIXED[4], 1000, 300),
    ("stuck_clock", DEFAULT, SpookyTowerRules(stuck_with_token="clock"), MIXED[3], 1000, 200),
    ("stuck_reroll", DEFAULT, SpookyTowerRules(stuck_with_token="reroll"), MIXED[3], 1000, 200),
    ("extra_stack", DEFAULT, SpookyTowerRules(extra_turns="stack"), MIXED[4], 1000, 300),
    ("rulebook", SpookyTowerComponents(buildings=rulebook_buildings()), RULES, MIXED[3], 1000, 300),
    ("stress", stress_components(), SpookyTowerRules(effect_order="takes_first", flip_scope="building",
                                                     extra_turns="stack"), MIXED[4], 80, 400),
    ("stress-random", stress_components(), RULES, ("random",) * 3, 80, 300),
    # the lookahead's playouts run in the kernel from the reference's public view (reference/view.py)
    ("lookahead-3", DEFAULT, RULES, ("lookahead", "ghost_hunter", "clock_rusher"), 1000, 120),
    ("lookahead-stress", stress_components(), SpookyTowerRules(effect_order="takes_first", flip_scope="building",
                                                               extra_turns="stack"),
     ("lookahead", "random", "collector", "lookahead"), 80, 120),
]
GAMES_COVERED = sum(c[-1] for c in CASES)


# --- comparing the two engines ---------------------------------------------------------------------------------

def first_mismatch(kernel_events: np.ndarray, ref_events: list) -> str | None:
    """None when the event lists are identical; else the first differing index and both events by name."""
    return event_diff.first_mismatch(kernel_events, ref_events, describe_event, before=4)


def final_mismatch(s: np.ndarray, ref, n_players: int) -> str | None:
    """None when every final count agrees (read through the layout's offsets)."""
    checks = {
        "player counters (PL)": (np.array([[s[L.pl_at(p, k)] for k in range(E.N_PL)] for p in range(n_players)]),
                                 ref.final),
        "shared scalars (SC)": (s[L.SC:L.SC + E.N_SC], ref.scalars),
        "per-value counters (CNT)": (
            np.array([[[s[L.cnt_at(p, v, k)] for k in range(E.N_CNT)] for v in range(E.N_VALUES)]
                      for p in range(n_players)]), ref.counters),
        "Town stacks": ([[int(s[L.TOWN + v * L.MAX_PER_VALUE + i]) for i in range(s[L.TOWN_N + v])]
                         for v in range(1, E.N_VALUES)], ref.town[1:]),
        "hands": ([[[int(s[L.HAND + (p * L.NV + v) * L.MAX_PER_VALUE + i]) for i in range(s[L.HAND_N + p * L.NV + v])]
                    for v in range(1, E.N_VALUES)] for p in range(n_players)],
                  [[list(c) for c in seat.cards[1:]] for seat in ref.snapshots[-1].seats] if ref.snapshots else None),
        "draws": (int(K.draws_nb(s, n_players)), ref.draws),
    }
    for name, (kernel, reference) in checks.items():
        if reference is None:
            continue
        same = kernel == reference if isinstance(kernel, list) else np.array_equal(kernel, reference)
        if not same:
            return f"final {name} differ:\n  kernel    {kernel}\n  reference {reference}"
    return None


def assert_same_game(s0, f0, kinds, params, components, rules, turn_cap, seed, game):
    events, s = K.trace_game((s0, f0, kinds, params, False), seed, game, max_rows=20_000)
    ref = play_reference(components, rules, len(kinds), turn_cap, kinds, params, seed, game)
    where = f"seed {seed}, game {game}, kinds {kinds.tolist()}"
    diff = first_mismatch(events, ref.events)
    assert diff is None, f"{where}: {diff}"
    diff = final_mismatch(s, ref, len(kinds))
    assert diff is None, f"{where}: {diff}"
    return ref


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_kernel_and_reference_play_the_same_games(case):
    name, components, rules, names, turn_cap, n_games = case
    kinds, params = lineup(*names)
    s0, f0 = compile_rules(components, rules, len(kinds), turn_cap)
    seed = 1000 + [c[0] for c in CASES].index(name)
    seen = set()
    for game in range(n_games):
        ref = assert_same_game(s0, f0, kinds, params, components, rules, turn_cap, seed, game)
        seen |= {e[0] for e in ref.events}
    # The games were real games: every one has turns, draws and a resolution, and the suite saw effects resolve.
    assert {E.EV_TURN, E.EV_ROLL, E.EV_TAKE, E.EV_EFFECT} <= seen
    assert E.EV_WIN in seen or E.EV_CAP in seen


def test_stress_case_reaches_the_rare_branches():
    """The stress variant (also in CASES) must actually drive the rare rules through both engines."""
    components, rules = stress_components(), SpookyTowerRules(effect_order="takes_first", flip_scope="building",
                                                               extra_turns="stack")
    kinds, params = lineup(*MIXED[4])
    s0, f0 = compile_rules(components, rules, 4, 80)
    seen, lost, victories, steals, by_effect = set(), set(), set(), 0, set()
    for game in range(120):
        ref = assert_same_game(s0, f0, kinds, params, components, rules, 80, 77, game)
        for kind, _, a, _, c in ref.events:
            seen.add(kind)
            if kind == E.EV_LOST:
                lost.add(a)
            if kind == E.EV_PET and a >= 0:
                steals += 1
            if kind in (E.EV_TAKE, E.EV_FLIP) and c:
                by_effect.add(kind)
        victories.add(ref.victory)
    assert {E.EV_EXTRA, E.EV_PARK, E.EV_GRIMOIRE, E.EV_REROLL, E.EV_STUCK, E.EV_FRAGMENT, E.EV_CAP} <= seen
    assert {E.FX_GRIMOIRE, E.FX_PET} <= lost, f"lost effects seen: {[E.EFFECT_NAMES[x] for x in lost]}"
    assert steals > 0
    assert by_effect == {E.EV_TAKE, E.EV_FLIP}
    assert {E.WIN_NONE, E.WIN_GHOSTS, E.WIN_AMULET} <= victories


# --- scripted games: the test hooks agree -------------------------------------------------------------------------

def kernel_scripted(s0, f0, kinds, params, seed, game, dice=(), town=None, choices=(), rows=20_000):
    """The kernel's scripted game, as a rule test sets it up: deal, stack the Town, script dice and choices, play."""
    s = np.zeros(s0.shape[0] + 5 * rows, np.int64)
    s[:s0.shape[0]] = s0
    f = f0.copy()
    K.seat_lineup_nb(s, f, kinds, params, False, game, np.zeros(kinds.shape[0], np.int64))
    K.reset_nb(s, np.uint64(seed), game)
    for v, cards in (town or {}).items():
        K.stack_town(s, v, cards)
    K.script_dice(s, dice)
    K.script_choices(s, choices)
    K.play_on_nb(s, f, 0, 0, None)
    n = int(s[L.M_TRACE])
    assert n <= rows
    return s[L.TRACE:L.TRACE + 5 * n].reshape(n, 5), s


@pytest.mark.parametrize("stuck", ["pass", "clock", "reroll"])
def test_scripted_games_agree(stuck):
    """Scripted dice, stacked (often emptied) Town stacks and scripted choices (kind 9, which may decline the reroll
    when stuck) drive both engines alike, under each stuck_with_token option."""
    rules = SpookyTowerRules(stuck_with_token=stuck)
    rng = np.random.default_rng(["pass", "clock", "reroll"].index(stuck))
    kinds = np.array([SCRIPTED, SCRIPTED, 0], np.int64)
    params = np.zeros((3, L.N_PARAMS))
    s0, f0 = compile_rules(DEFAULT, rules, 3, 200)
    first = np.cumsum([0] + [len(b.photos) for b in DEFAULT.buildings])    # first card id of value v at [v - 1]
    played = 0
    seen = set()
    for game in range(80):
        dice = rng.integers(1, 7, size=int(rng.integers(0, 40))).tolist()
        choices = (rng.random(int(rng.integers(0, 60))) < 0.25).astype(int).tolist()
        town = {}
        for v in rng.choice(np.arange(1, 13), size=int(rng.integers(1, 8)), replace=False).tolist():
            cards = rng.permutation(np.arange(first[v - 1], first[v]))
            town[v] = [int(c) for c in cards[:int(rng.integers(0, 3))]]       # short or empty: players get stuck
        try:
            ref = play_reference(DEFAULT, rules, 3, 200, kinds, params, 9, game, dice=dice, town=town,
                                 choices=choices)
        except ValueError:      # the script chose an option that was not offered: not a game
            continue
        events, s = kernel_scripted(s0, f0, kinds, params, 9, game, dice, town, choices)
        diff = first_mismatch(events, ref.events) or final_mismatch(s, ref, 3)
        assert diff is None, f"scripted game {game} (dice {dice}, town {town}, choices {choices}): {diff}"
        if len(dice) >= 2:
            assert ref.events[1][2:4] == tuple(dice[:2])
        seen |= {(e[0], e[2] if e[0] == E.EV_STUCK else 0) for e in ref.events}
        played += 1
    assert played >= 40
    assert {(E.EV_PARK_SKIP, 0), (E.EV_REROLL, 0), (E.EV_PARK, 0), (E.EV_STUCK, 1)} <= seen
    # Declining the reroll when stuck is reached, and ruled as the option says.
    assert ((E.EV_STUCK, 0) in seen) == (stuck == "pass")


@pytest.mark.parametrize("stuck, expected", [
    ("pass", [(E.EV_STUCK, 0, 0, 0, 0)]),
    ("clock", [(E.EV_STUCK, 0, 1, 0, 0), (E.EV_EFFECT, 0, E.FX_CLOCK, E.SRC_RULE, 0),
               (E.EV_CLOCK, 0, 1, E.FX_PET, 0), (E.EV_EFFECT, 0, E.FX_PET, E.SRC_DIAL, 1), (E.EV_PET, 0, -1, 0, 0)]),
    ("reroll", [(E.EV_REROLL, 0, 4, 4, 0)]),
])
def test_stuck_with_token_options(stuck, expected):
    """Roll 2 and 3 with Buildings 2, 3 and 5 empty and no cards held: nothing is legal; the scripted seat declines
    the reroll (choice 0) and the rule option decides."""
    rules = SpookyTowerRules(stuck_with_token=stuck)
    kinds = np.array([SCRIPTED, SCRIPTED], np.int64)
    script = dict(dice=[2, 3, 4, 4], town={2: [], 3: [], 5: []}, choices=[0])
    ref = play_reference(DEFAULT, rules, 2, 1, kinds, np.zeros((2, 4)), 1, 0, **script)
    assert ref.events[2:2 + len(expected)] == expected
    s0, f0 = compile_rules(DEFAULT, rules, 2, 1)
    events, s = kernel_scripted(s0, f0, kinds, np.zeros((2, 4)), 1, 0, **script)
    assert first_mismatch(events, ref.events) is None and final_mismatch(s, ref, 2) is None


def test_scripted_dice_town_and_choices_take_effect():
    """Two scripted turns, checked by hand: seat 0 declines the reroll and takes the stacked top card of value 3;
    seat 1 rerolls a double six."""
    kinds = np.array([SCRIPTED, SCRIPTED], np.int64)
    script = dict(dice=[1, 2, 6, 6], town={3: [10, 11, 12]}, choices=[0, 2, 1, 0])
    ref = play_reference(DEFAULT, RULES, 2, 2, kinds, np.zeros((2, 4)), 1, 0, **script)
    # Turn 1: roll 1, 2 -> legal rows: take 1, take 2, take 3. Choice 0: no reroll; choice 2: take 3 (card 12 on top).
    assert ref.events[:3] == [(E.EV_TURN, 0, 1, 1, 0), (E.EV_ROLL, 0, 1, 2, 0), (E.EV_TAKE, 0, 3, 12, 0)]
    assert ref.events[-1] == (E.EV_CAP, -1, 2, 0, 0)
    turn2 = ref.events.index((E.EV_TURN, 1, 2, 1, 0))
    assert ref.events[turn2 + 1] == (E.EV_ROLL, 1, 6, 6, 0)
    assert ref.events[turn2 + 2][:2] == (E.EV_REROLL, 1)        # choice 1: reroll
    s0, f0 = compile_rules(DEFAULT, RULES, 2, 2)
    events, s = kernel_scripted(s0, f0, kinds, np.zeros((2, 4)), 1, 0, **script)
    assert first_mismatch(events, ref.events) is None


# --- the batch kernel --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rotate", [False, True])
def test_batch_kernel_agrees_with_traced_games(rotate):
    kinds, params = lineup(*MIXED[3])
    s0, f0 = compile_rules(DEFAULT, RULES, 3, 1000)
    out = run_chunk((s0, f0, kinds, params, rotate), seed=42, rotate=rotate, game0=100, n_games=24, n_blocks=2)
    for i, game in enumerate(out["game"]):
        slots = (np.arange(3) + game) % 3 if rotate else np.arange(3)
        assert out["seat_strategy"][i].tolist() == slots.tolist()
        events, s = K.trace_game((s0, f0, kinds, params, rotate), 42, int(game))     # seated by the kernel
        assert s[L.KINDS:L.KINDS + 3].tolist() == kinds[slots].tolist()
        ref = play_reference(DEFAULT, RULES, 3, 1000, kinds[slots], params[slots], 42, int(game))
        assert (out["winner"][i], out["victory"][i], out["turns"][i], out["rounds"][i]) == \
            (s[L.SC + E.SC_WINNER], s[L.SC + E.SC_VICTORY], s[L.SC + E.SC_TURN], s[L.SC + E.SC_ROUND]) == \
            (ref.winner, ref.victory, ref.turns, ref.rounds)
        assert np.array_equal(out["final"][i], ref.final)
        assert np.array_equal(out["counters"][i], ref.counters[:, 1:, :])
        assert out["draws"][i] == ref.draws


# --- the comparison itself can fail, and replay refuses a disagreement ----------------------------------------------

def test_mismatch_message_names_the_first_differing_event():
    kinds, params = lineup("random", "random")
    s0, f0 = compile_rules(DEFAULT, RULES, 2, 1000)
    events, s = K.trace_game((s0, f0, kinds, params, False), 3, 0)
    ref = play_reference(DEFAULT, RULES, 2, 1000, kinds, params, 3, 0)
    assert first_mismatch(events, ref.events) is None
    i = next(i for i, e in enumerate(ref.events) if e[0] == E.EV_ROLL and i > 5)
    bad = events.copy()
    bad[i, 2] = 7 - bad[i, 2]          # another die face, never the same one
    msg = first_mismatch(bad, ref.events)
    assert msg is not None and f"event {i}:" in msg and "roll(player=" in msg and "dice=" in msg
    assert first_mismatch(events[:-1], ref.events) is not None
    s2 = s.copy()
    s2[L.pl_at(1, E.PL_CLUES)] += 1
    assert "player counters" in final_mismatch(s2, ref, 2)
    assert "event" in kernel_disagreement(ref, bad, s) and kernel_disagreement(ref, events, s) is None


def test_replay_checks_the_kernel(monkeypatch):
    scenario = load_scenario("default", players=2)
    game = replay(scenario, 11, 2)
    assert game.events == play_scenario(scenario, 11, 2).events
    real = K.trace_game

    def tampered(*args, **kw):
        events, s = real(*args, **kw)
        events = events.copy()
        events[3, 2] += 1
        return events, s

    monkeypatch.setattr(K, "trace_game", tampered)
    with pytest.raises(RuntimeError, match="event 3 differs"):
        replay(scenario, 11, 2)


def replay(scenario, seed, game):
    return driver_replay("balance.games.spooky_tower", scenario, seed, game)


def test_replay_follows_seat_rotation():
    scenario = load_scenario("default", players=3, seat_rotation=True,
                             seats=[{"name": "random"}, {"name": "collector"}, {"name": "ghost_hunter"}])
    game = replay(scenario, 5, 4)      # seat s plays slot (s + 4) mod 3
    assert game.kinds == (2, 1, 0)


def test_a_traced_game_is_seated_as_the_batch_kernel_and_the_reference_seat_it():
    """trace_game seats a rotating lineup inside the kernel (seat_lineup_nb, as simulate_nb does); the reference
    engine seats it in Python (scenario_lineup): the two lineups, and the games, are the same."""
    scenario = load_scenario("default", players=4, seat_rotation=True,
                             seats=[{"name": n} for n in ("random", "collector", "ghost_hunter", "clock_rusher")])
    compiled = compile_scenario(scenario)
    for seed in (1, 5, 9):
        for game in range(6):
            events, s = K.trace_game(compiled, seed, game)
            kinds, _ = scenario_lineup(scenario, game)
            assert s[L.KINDS:L.KINDS + 4].tolist() == kinds.tolist()
            assert kernel_disagreement(play_scenario(scenario, seed, game), events, s) is None


# --- narration ---------------------------------------------------------------------------------------------------

def test_narration_tells_every_event_and_snapshot():
    scenario = load_scenario("default")
    game = replay(scenario, 1, 7)
    lines = list(narrate_jsonl(game))
    recs = [json.loads(x) for x in lines]
    assert all("\n" not in x for x in lines)
    assert recs[0]["type"] == "game"
    types = [r["type"] for r in recs[1:]]
    assert [t for t in types if t != "snapshot"] == [E.EVENT_NAMES[e[0]] for e in game.events]
    assert types.count("snapshot") == game.turns
    snaps = [r for r in recs if r["type"] == "snapshot"]
    assert [r["turn"] for r in snaps] == list(range(1, game.turns + 1))
    last = snaps[-1]
    assert [p["ghosts"] for p in last["players"]] == game.final[:, E.PL_GHOSTS].tolist()
    # Every Building card is in the Town, in a hand, or was flipped (trunk or kept as a ghost).
    held = sum(len(c) for p in last["players"] for c in p["cards"].values())
    flipped = int(game.counters[:, :, E.CNT_FLIPPED].sum())
    assert sum(last["town"].values()) + held + flipped == len(game.book.value) == 58
    for r in recs:
        if r["type"] == "roll":
            assert len(r["dice"]) == 2 and all(1 <= d <= 6 for d in r["dice"])
        if r["type"] == "effect":
            assert r["effect"] in E.EFFECT_NAMES and r["source"] in E.SOURCE_NAMES
    text = narrate_text(game, names=["Ann", "Bo", "Cy"])
    assert text.count("\nTurn ") == game.turns
    assert text.count("  = ") == game.turns
    assert ("WINS" in text) == (game.winner >= 0)


def test_suite_size():
    """The differential cases together cover thousands of seeded games."""
    assert GAMES_COVERED >= 2000
