"""Differential tests for Climbing Tower: the Numba kernel against the readable reference engine
(``balance/games/climbing_tower/reference/``), event for event, on thousands of games.

Every case plays the same (scenario, seed, game) in both engines and asserts identical event lists and identical
outcomes (winner, victory, turns, rounds, tower, BOSS side, the per-player counters, the per-card, per-skill and
team counters, the random words drawn). Cases cover every strategy alone and in mixed pairs (seats rotating), every
rule option at a non-default value, strategy weights that are not exact in binary (so the float arithmetic and the
tie-breaking must agree), stress components that make the rare branches common (skills gained and gained again,
free plays, joined floors, groups that stand again, a BOSS that needs both pawns, a short token supply), and
scripted games (the kernel's ``script_choices`` and ``script_deals`` hooks against the reference's ``choices`` and
``deals``). The batch kernel (``run_chunk``) is checked against traced games, and for determinism against itself
on 1 and 2 blocks and other chunk splits.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

from balance.games.climbing_tower import SPEC, compile_scenario, run_chunk
from balance.games.climbing_tower import enums as E
from balance.games.climbing_tower import rules as K
from balance.games.climbing_tower import layout as L
from balance.games.climbing_tower.narrate import (describe_event, kernel_disagreement, kernel_outcome, narrate_jsonl,
                                                  narrate_text, reference_outcome)
from balance.games.climbing_tower.reference import Table, play_reference, play_scenario, scenario_lineup
from balance.scenario import load_scenario
from chunk_split import assert_same_games

SCRIPTED = 9
TRACE_ROWS = 20_000


# --- scenarios ---------------------------------------------------------------------------------------------------

def scenario(seats, *, rules=None, components=None, seed: int = 11, rotation: bool = False, replace=None):
    """A Climbing Tower scenario: two seats (strategy names, or dicts with params), rule and component overrides."""
    d = {"game": "climbing_tower", "players": 2, "seed": seed, "seat_rotation": rotation,
         "seats": [s if isinstance(s, dict) else {"name": s} for s in seats]}
    if rules:
        d["rules"] = rules
    if components:
        d["components"] = components
    if replace:
        d["replace"] = replace
    return load_scenario(d)


def _f(colour, left=0, right=0):
    return {"colour": colour, "left": left, "right": right}


def stress_components() -> dict:
    """Tower cards whose top and bottom floors share a colour (so floors join across cards), few skeletons (cards
    are cleared and skills gained, each skill on several cards so a skill comes again), groups of two (that stand
    again when not all fall); a BOSS of 2 hits in one round and one of 3 that needs both pawns."""
    skills = ["extra_redraw", "free_play", "bonus_gold", "free_play", "bonus_gold", "extra_redraw", "free_play"]
    tower = []
    for i, skill in enumerate(skills):
        floors = [_f("stone"), _f("brick", 1 if i % 2 else 0, 0 if i % 2 else 1), _f("moss"),
                  _f("brick", 2 if i % 3 == 0 else 0, 1 if i % 3 == 1 else 0), _f("stone", 0, 1 if i == 4 else 0)]
        tower.append({"name": f"00{i + 1}", "skill": skill, "floors": floors})
    boss = [{"name": "A", "hp": 2, "same_round": True, "both_pawns": False,
             "floors": [_f("stone"), _f("ash", 1, 1), _f("throne")]},
            {"name": "B", "hp": 3, "same_round": False, "both_pawns": True,
             "floors": [_f("moss", 0, 1), _f("ash", 1), _f("throne")]}]
    return {"tower": tower, "boss": boss}


def crowded_components() -> dict:
    """Ten or more skeletons on every tower card: with ``left_behind = "stay"`` the 12 tokens run short."""
    tower = [{"name": f"00{i + 1}", "skill": ("extra_redraw", "free_play", "bonus_gold")[i % 3],
              "floors": [_f("stone", 1, 1), _f("moss", 2, 2), _f("brick", 1, 1), _f("moss", 1, 2),
                         _f("ash", 0, 1 if i % 2 else 0)]} for i in range(7)]
    return {"tower": tower}


def level1_components(n: int = 10) -> dict:
    """Only Level 1 cards (two colours, numbers 1-5, icons varied): nothing can be bought, so the common deck never
    changes and a deal script can give every round's deal."""
    cards = [{"name": f"{'purple' if i < 5 else 'green'}_{i % 5 + 1}", "level": 1,
              "colour": "purple" if i < 5 else "green", "number": i % 5 + 1, "swords": (i * 7) % 3,
              "arrows": (i * 5) % 3} for i in range(n)]
    return {"cards": cards}


FRACTIONAL = {"name": "climber", "arrow_weight": 0.1, "sword_weight": 0.2, "team_weight": 0.3, "spare": 0.3}
FRACTIONAL2 = {"name": "deck_thinner", "arrow_weight": 0.7, "sword_weight": 0.1, "team_weight": 0.2, "spare": 0.7,
               "keep": 7.5}
PAIRS = [["random", "random"], ["climber", "climber"], ["skeleton_farmer", "skeleton_farmer"],
         ["deck_thinner", "deck_thinner"], ["climber", "skeleton_farmer"], ["deck_thinner", "random"],
         ["climber", "deck_thinner"], ["random", "skeleton_farmer"]]
RULE_OPTIONS = [
    ("supply-easy", {"supply": "easy"}),
    ("communication-always", {"communication": "always"}),
    ("communication-never", {"communication": "never"}),
    ("start_player-first", {"start_player": "first"}),
    ("first_player_side-right", {"first_player_side": "right"}),
    ("icon_order-arrows_first", {"icon_order": "arrows_first"}),
    ("left_behind-stay", {"left_behind": "stay"}),
    ("top_up-never", {"top_up": "never"}),
    ("hand_size-1", {"hand_size": 1}),
    ("hand_size-5", {"hand_size": 5, "starting_level2": 4}),
    ("redraws-0", {"redraws": 0}),
    ("redraws-3", {"redraws": 3}),
    ("min_deck-0", {"min_deck": 0}),
    ("round_limit-1", {"round_limit": 1}),
    ("round_limit-30", {"round_limit": 30}),
    ("tower-fixed", {"tower": ["001", "003", "006"]}),
    ("boss_side-A", {"boss_side": "A"}),
    ("boss_side-B", {"boss_side": "B"}),
    ("tower_cards-1", {"tower_cards": 1}),
    ("tower_cards-5", {"tower_cards": 5}),
    ("starting_level2-0", {"starting_level2": 0}),
    ("empty_hand_bonus-3", {"empty_hand_bonus": 3, "skill_gold": 2}),
]

# (id, scenario keyword arguments, games)
CASES = [(f"{a}+{b}", dict(seats=[a, b], rotation=a != b), n)
         for (a, b), n in zip(PAIRS, (250, 150, 150, 150, 150, 150, 100, 100))]
CASES += [(name, dict(seats=PAIRS[i % len(PAIRS)], rules=rules, rotation=True), 90)
          for i, (name, rules) in enumerate(RULE_OPTIONS)]
CASES += [
    ("fractional-weights", dict(seats=[FRACTIONAL, FRACTIONAL2], rotation=True), 200),
    ("fractional-always", dict(seats=[FRACTIONAL, FRACTIONAL2], rules={"communication": "always"}), 150),
    ("stress", dict(seats=["climber", "skeleton_farmer"], components=stress_components(), rotation=True), 250),
    ("stress-random", dict(seats=["random", "random"], components=stress_components(),
                           rules={"round_limit": 20, "supply": "easy"}), 250),
    ("stress-farmers", dict(seats=["skeleton_farmer", "skeleton_farmer"], components=stress_components(),
                            rotation=True), 150),
    ("stress-thinner", dict(seats=["deck_thinner", "climber"], components=stress_components(),
                            rules={"boss_side": "B", "icon_order": "arrows_first", "communication": "always",
                                   "min_deck": 0}, rotation=True), 200),
    ("crowded-stay", dict(seats=["skeleton_farmer", "random"], components=crowded_components(),
                          rules={"left_behind": "stay", "round_limit": 20}, rotation=True), 200),
    ("crowded-never", dict(seats=["skeleton_farmer", "climber"], components=crowded_components(),
                           rules={"top_up": "never", "round_limit": 20}, rotation=True), 150),
]
GAMES_COVERED = sum(c[-1] for c in CASES)


# --- comparing the two engines -----------------------------------------------------------------------------------

def assert_same_game(kernel_events: np.ndarray, s: np.ndarray, ref, where: str) -> None:
    """Identical events (the first difference named) and identical final outcomes."""
    problem = kernel_disagreement(ref, kernel_events, s)
    assert problem is None, f"{where}: {problem}"


def kernel_trace(sc, game: int, *, choices=None, deals=None, kinds=None, params=None):
    """The kernel's trace of game `game`: seated as the batch kernel seats it, or `kinds` and `params` by seat."""
    s0, f0, lineup_kinds, lineup_params, rotate = compile_scenario(sc)
    s0 = s0.copy()
    if choices is not None:
        K.script_choices(s0, choices)
    if deals is not None:
        K.script_deals(s0, deals)
    if kinds is not None:
        lineup_kinds, lineup_params, rotate = kinds, params, False
    return K.trace_game((s0, f0, lineup_kinds, lineup_params, rotate), sc.seed, game, TRACE_ROWS)


def test_a_traced_game_is_seated_as_the_batch_kernel_and_the_reference_seat_it():
    """trace_game seats game `game` inside the kernel (seat_lineup_nb, the batch kernel's); the reference's
    scenario_lineup seats it the same way: on a rotating scenario both traces are one game, seed after seed."""
    for seed in (1, 2, 3):
        sc = scenario(["climber", "random"], rotation=True, seed=seed)
        compiled = compile_scenario(sc)
        for game in range(6):
            kinds, params = scenario_lineup(sc, game)
            inside, _ = K.trace_game(compiled, seed, game)
            outside, _ = K.trace_game((*compiled[:2], kinds, params, False), seed, game)
            assert np.array_equal(inside, outside), f"seed {seed}, game {game}"


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_kernel_and_reference_play_the_same_games(case):
    _, kwargs, n_games = case
    sc = scenario(**kwargs)
    for game in range(n_games):
        events, s = kernel_trace(sc, game)
        assert_same_game(events, s, play_scenario(sc, game=game), f"game {game}")


def test_the_cases_reach_the_rare_branches():
    """The stress cases really play what they are for: every event kind, free plays, a skill gained twice, groups
    that stand again, tokens returned, a short supply and short cards topped up, spared skeletons, every ending,
    blocked rounds, exchanges."""
    seen = Counter()
    for name, kwargs, _ in CASES:
        if not name.startswith(("stress", "crowded", "round_limit-30")):
            continue
        sc = scenario(**kwargs)
        for game in range(60):
            ref = play_scenario(sc, game=game)
            placed = set()
            for kind, _, a, b, c in ref.events:
                seen[E.EV_NAMES[kind]] += 1
                seen["free play"] += kind == E.EV_PLAY and c == 1
                seen["skill again"] += kind == E.EV_SKILL and b < 0
                seen["group stands again"] += kind == E.EV_GOLD and c == 0
                seen["skill gold"] += kind == E.EV_BONUS and b == 1
                seen["no bonus token"] += kind == E.EV_BONUS and a == 0
                seen["short placement"] += kind == E.EV_PLACE and name.startswith("crowded") and a > 0 and c > 0
                seen["top-up"] += kind == E.EV_PLACE and a in placed
                placed |= {a} if kind == E.EV_PLACE else set()
            seen[E.VICTORY_NAMES[ref.victory]] += 1
    missing = [n for n in list(E.EV_NAMES.values()) + ["free play", "skill again", "group stands again",
                                                      "skill gold", "short placement", "top-up"]
               + list(E.VICTORY_NAMES[1:])
               if seen[n] == 0]
    assert not missing, f"never reached: {missing}"


# --- scripted games ------------------------------------------------------------------------------------------------

def test_scripted_choices_agree():
    """Both seats scripted: every answer, in range or not (a turn falls back to row 0, a build stops), from one
    script shared by turns and builds; after the script, row 0."""
    sc = scenario(["random", "random"], rules={"round_limit": 8})
    rng = np.random.default_rng(3)
    kinds, params = np.array([SCRIPTED, SCRIPTED]), np.zeros((2, L.N_PARAMS))
    for game in range(60):
        choices = rng.integers(-1, 9, size=int(rng.integers(0, 400))).tolist()
        events, s = kernel_trace(sc, game, choices=choices, kinds=kinds, params=params)
        ref = play_reference(sc.components, sc.rules, kinds, params, sc.seed, game, choices=choices)
        assert_same_game(events, s, ref, f"scripted game {game}")


def test_scripted_seat_beside_a_random_one():
    sc = scenario(["random", "random"], components=stress_components())
    kinds, params = np.array([SCRIPTED, 0]), np.zeros((2, L.N_PARAMS))
    rng = np.random.default_rng(4)
    for game in range(40):
        choices = rng.integers(0, 5, size=200).tolist()
        events, s = kernel_trace(sc, game, choices=choices, kinds=kinds, params=params)
        ref = play_reference(sc.components, sc.rules, kinds, params, sc.seed, game, choices=choices)
        assert_same_game(events, s, ref, f"half-scripted game {game}")


def test_scripted_deals_agree_and_are_dealt():
    """Every round's deal from the script (a deck of Level 1 cards only, which never changes), with each
    strategy; the first deal is exactly the script's first cards."""
    sc = scenario(["climber", "random"], components=level1_components(), replace=["components.cards"],
                  rules={"starting_level2": 0, "min_deck": 10, "round_limit": 12})
    rng = np.random.default_rng(5)
    for game in range(60):
        deals = [int(c) for _ in range(12) for c in rng.permutation(10)]
        kinds, params = scenario_lineup(sc, game)
        events, s = kernel_trace(sc, game, deals=deals)
        ref = play_reference(sc.components, sc.rules, kinds, params, sc.seed, game, deals=deals)
        assert_same_game(events, s, ref, f"dealt game {game}")
        dealt = [int(r[2]) for r in events if r[0] == E.EV_DEAL][:6]
        assert dealt == deals[:6]


def test_partial_deal_script_then_ascending_then_shuffles():
    """A script shorter than the deck: the rest of that deal keeps ascending ids; later rounds shuffle."""
    sc = scenario(["random", "random"], rules={"starting_level2": 0, "round_limit": 3})
    deals = [2, 0, 1]
    kinds, params = scenario_lineup(sc, 0)
    events, s = kernel_trace(sc, 0, deals=deals)
    ref = play_reference(sc.components, sc.rules, kinds, params, sc.seed, 0, deals=deals)
    assert_same_game(events, s, ref, "partial deal")
    assert [int(r[2]) for r in events if r[0] == E.EV_DEAL][:6] == [2, 0, 1, 3, 4, 5]


def test_scripts_longer_than_the_kernel_holds_are_refused():
    sc = scenario(["random", "random"])
    with pytest.raises(ValueError):
        play_scenario(sc, choices=[0] * 513)


# --- the batch kernel ------------------------------------------------------------------------------------------------

def batch_row(out: dict, i: int) -> dict:
    return {"winner": int(out["winner"][i]), "victory": int(out["victory"][i]), "turns": int(out["turns"][i]),
            "rounds": int(out["rounds"][i]), "tower": int(out["tower"][i]), "boss_side": int(out["boss_side"][i]),
            "final": out["final"][i], "cards": out["cards"][i, 0], "skills": out["skills"][i, 0],
            "team": out["team"][i, 0, 0], "draws": int(out["draws"][i])}


@pytest.mark.parametrize("rotation", [True, False])
def test_batch_kernel_agrees_with_traced_games_and_the_reference(rotation):
    sc = scenario(["climber", "deck_thinner"], components=stress_components(), rotation=rotation, seed=23)
    compiled = compile_scenario(sc)
    n = 150
    out = run_chunk(compiled, seed=sc.seed, rotate=rotation, game0=0, n_games=n, n_blocks=2)
    assert out["game"].tolist() == list(range(n))
    for i in range(n):
        _, s = kernel_trace(sc, i)
        traced = kernel_outcome(s, len(sc.components.cards))
        batch = batch_row(out, i)
        for key, value in traced.items():
            assert np.array_equal(np.asarray(batch[key]), np.asarray(value)), f"game {i}: {key}"
        assert int(out["win_mask"][i]) == (3 if traced["winner"] == 0 else 0)
        assert out["seat_strategy"][i].tolist() == ([i % 2, 1 - i % 2] if rotation else [0, 1])
        if i < 40:
            ref = reference_outcome(play_scenario(sc, game=i))
            for key, value in ref.items():
                assert np.array_equal(np.asarray(batch[key]), np.asarray(value)), f"game {i}: {key} (reference)"


def test_batch_outputs_do_not_depend_on_blocks_or_chunks():
    sc = scenario(["random", "skeleton_farmer"], rotation=True, seed=5)
    compiled = compile_scenario(sc)
    one = run_chunk(compiled, seed=5, rotate=True, game0=0, n_games=300, n_blocks=1)
    two = run_chunk(compiled, seed=5, rotate=True, game0=0, n_games=300, n_blocks=2)
    seven = run_chunk(compiled, seed=5, rotate=True, game0=0, n_games=300, n_blocks=7)
    parts = [run_chunk(compiled, seed=5, rotate=True, game0=g0, n_games=n, n_blocks=2)
             for g0, n in ((0, 120), (120, 1), (121, 179))]
    assert_same_games(one, two)
    assert_same_games(one, seven)
    assert_same_games(one, *parts)
    other_seed = run_chunk(compiled, seed=6, rotate=True, game0=0, n_games=300, n_blocks=2)
    assert not np.array_equal(one["draws"], other_seed["draws"])


# --- the reference's own pieces ----------------------------------------------------------------------------------

def test_mismatch_message_names_the_first_differing_event():
    sc = scenario(["climber", "random"])
    events, s = kernel_trace(sc, 0)
    ref = play_scenario(sc, game=0)
    bad = events.copy()
    k = next(i for i, r in enumerate(bad) if r[0] == E.EV_PLAY)
    bad[k, 2] = (bad[k, 2] + 1) % len(sc.components.cards)
    problem = kernel_disagreement(ref, bad, s)
    assert problem is not None and problem.startswith(f"event {k} differs") and "play(" in problem
    assert "only in the kernel" in kernel_disagreement(ref, np.vstack([events, events[-1:]]), s)
    s2 = s.copy()
    s2[L.TEAM + L.TM_GOLD] += 1
    assert kernel_disagreement(ref, events, s2).startswith("final team differ")
    assert describe_event((E.EV_SWORD, 0, 4, 1, 0)) == "sword(player=0, floor=4, side='right', standing=0)"


@pytest.mark.parametrize("talk", ["same_floor", "always", "never"])
def test_view_shows_the_partner_hand_only_when_the_players_may_talk(talk):
    sc = scenario(["climber", "climber"], rules={"communication": talk})
    kinds, params = scenario_lineup(sc, 0)
    t = Table(sc.components, sc.rules, kinds, params, sc.seed, 0)
    t.players[0].hand, t.players[1].hand = [0, 1], [2, 3]
    for floors in ((0, 0), (3, 0)):
        t.players[0].floor, t.players[1].floor = floors
        v = t.view(0)
        visible = talk == "always" or (talk == "same_floor" and floors[0] == floors[1])
        assert v.partner_hand == (tuple(t.cards[c] for c in (2, 3)) if visible else None)
        assert [c.id for c in v.hand] == [0, 1]


def test_snapshots_follow_the_game():
    sc = scenario(["climber", "skeleton_farmer"], components=stress_components(), seed=2)
    for game in range(20):
        ref = play_scenario(sc, game=game)
        assert len(ref.snapshots) == ref.turns
        assert [sn.turn for sn in ref.snapshots] == list(range(1, ref.turns + 1))
        last = ref.snapshots[-1]
        assert last.floors == tuple(int(x) - 1 for x in ref.final[:, L.FN_FLOOR])
        assert last.boss_damage == ref.events[-1][4]
        for sn in ref.snapshots:
            assert sum(a + b for a, b in sn.standing + sn.fallen) + sn.gold + sn.supply_tokens == 12
            assert all(0 <= f < ref.floor_count for f in sn.floors)


def test_replay_and_narration():
    sc = load_scenario({"game": "climbing_tower", "players": 2, "seed": 1, "seat_rotation": True,
                        "seats": [{"name": "climber"}, {"name": "skeleton_farmer"}]})
    game = SPEC.replay(sc, game=3)
    text = narrate_text(game).splitlines()
    assert text[0].startswith("Climbing Tower, seed 1, game 3: player 1 (skeleton_farmer, left side)")
    assert "Round 1 (player 1 starts): a deck of 8 cards" in text
    assert any(line.startswith("Round 2 (player 2 starts)") for line in text)
    assert any(" plays " in line and " swords defeat " in line and "(left)" in line for line in text)
    recs = [json.loads(line) for line in narrate_jsonl(game)]
    assert recs[0]["type"] == "game" and recs[0]["strategies"] == ["skeleton_farmer", "climber"]
    events = [r for r in recs[1:] if r["type"] != "snapshot"]
    one_per_stack = [e for e in game.events if e[0] != E.EV_SHUFFLE or e[3] == 0]     # a stack's rows: one record
    assert [r["type"] for r in events] == [E.EV_NAMES[e[0]] for e in one_per_stack]
    shuffled = [r for r in events if r["type"] == "shuffle"]
    assert sum(len(r["order"]) for r in shuffled) == sum(e[0] == E.EV_SHUFFLE for e in game.events)
    assert [r["stack"] for r in shuffled][:2] == ["level2", "level3"] and shuffled[2]["stack"] == "deck"
    deals = [r["card"] for r in events if r["type"] == "deal"][:6]
    assert shuffled[2]["order"][:6] == deals                  # the round's deal: the shuffled deck's top cards
    buys = [r for r in events if r["type"] == "buy"]
    assert buys and all(r["pile"] == ("level3" if r["level"] == 3 else "level2") for r in buys)
    snaps = [r for r in recs if r["type"] == "snapshot"]
    assert [r["turn"] for r in snaps] == list(range(1, game.turns + 1))
    assert events[-1]["type"] == "end" and events[-1]["victory"] == E.VICTORY_NAMES[game.victory]


NOJIT = """
import sys, warnings
import numpy as np
warnings.simplefilter("ignore", RuntimeWarning)   # numpy scalars warn on the RNG's intended 64-bit wrap-around
from balance.scenario import load_scenario
from balance.games.climbing_tower import compile_scenario
from balance.games.climbing_tower.rules import trace_game
sc = load_scenario({"game": "climbing_tower", "players": 2, "seed": 4, "seat_rotation": True,
                    "seats": [{"name": "deck_thinner"}, {"name": "random"}], "rules": {"supply": "easy"}})
ev, _ = trace_game(compile_scenario(sc), sc.seed, 3)
np.save(sys.argv[1], ev)
"""


def test_kernel_without_jit_plays_the_reference_game(tmp_path):
    """The kernel run as plain Python (NUMBA_DISABLE_JIT=1, for debugging) plays the reference's game too."""
    out = tmp_path / "events.npy"
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    subprocess.run([sys.executable, "-c", NOJIT, str(out)], check=True, env=env, timeout=300)
    sc = scenario(["deck_thinner", "random"], rules={"supply": "easy"}, seed=4, rotation=True)
    ref = play_scenario(sc, game=3)
    assert len(ref.events) > 50
    assert [tuple(int(x) for x in row) for row in np.load(out)] == ref.events


def test_suite_size():
    assert GAMES_COVERED >= 4_500
