"""Invariants over 100,000 Haunted Tower games, and determinism of ``run_chunk``.

A jitted checker plays games with ``kernel.play_game_nb`` and, after each, checks the whole flat state: every chit in
exactly one place (in its square's slot, in one hero's items, kept by one hero, or out of the game), the level and
room counts, the heroes' chit counts against the chits they own, hit points within 0..maximum for every hero still in
and at most zero for a hero out, item slots within their limits, out heroes off the board, a winner iff the game
ended with a victory, the Specter's killer holding its chit, points equal to the sum of their scoring lines, the
cap respected (the fight cap counted only in an unfinished game, for one hero) and no illegal answer. A traced
subset also checks that no hero acts after it is out. The games cover 3-6 players, every shipped strategy in mixed
tables and every rule option.
"""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from balance import load_scenario
from balance.games.haunted_tower import STRATEGIES, compile_scenario, run_chunk
from balance.games.haunted_tower import enums as E
from balance.games.haunted_tower import layout as L
from balance.games.haunted_tower.rules import play_game_nb, seat_lineup_nb, trace_game
from chunk_split import assert_same_games

CHECKS = (
    "ok", "chit place unknown or unfinished", "chit on the board/floor not in its square's slot",
    "square slot holds a chit not lying there", "carried item not in its hero's list, or twice",
    "kept chit without an owner", "level chit count wrong", "hero's blue/purple count != chits it owns",
    "hero's kept monster chits wrong", "hit points out of range", "item slot over its limit",
    "out hero still on the board, or a hero in play off it", "square's hero slot wrong", "deaths and out disagree",
    "heroes in play miscounted", "winner without a victory or the reverse", "Specter victory without its killer "
    "holding the chit", "points != sum of the scoring lines", "turns past the cap", "illegal answer",
    "stand-ups != kills", "negative counter", "on-board chit set (CHIT_ON) disagrees with the chits' places",
    "chit bit sets (CHIT_HIDDEN, CHIT_PLACED, CHIT_BLUE) disagree with CHIT_FACEUP, CHIT_PLACER, CHIT_COLOUR",
    "level chit sets (CHIT_LEVEL) disagree with the levels of the chits' squares",
    "fight cap counted in a finished game, or in more than one seat",
)


@njit(cache=True, error_model="numpy")
def check_state_nb(s, g):
    """Index into CHECKS of the first invariant the finished game in `s` breaks; 0 when all hold."""
    n_players = s[L.OPT + L.OPT_PLAYERS]
    n_chits = s[L.OPT + L.OPT_N_CHITS]
    n_sq = g[L.G_N]
    if s[L.SC + L.SC_ERROR] != 0:
        return 19
    blue = np.zeros(n_players, np.int64)
    purple = np.zeros(n_players, np.int64)
    kept_blue = np.zeros(n_players, np.int64)
    kept_purple = np.zeros(n_players, np.int64)
    level = np.zeros(4, np.int64)
    for c in range(L.MAX_CHITS):
        on = (s[L.CHIT_ON + (c >> 6)] >> (c & 63)) & 1
        if on != (c < n_chits and (s[L.CHIT_LOC + c] == E.LOC_BOARD or s[L.CHIT_LOC + c] == E.LOC_FLOOR)):
            return 22
        if ((s[L.CHIT_HIDDEN + (c >> 6)] >> (c & 63)) & 1) != (c < n_chits and s[L.CHIT_FACEUP + c] == 0) \
                or ((s[L.CHIT_BLUE + (c >> 6)] >> (c & 63)) & 1) != (c < n_chits and s[L.CHIT_COLOUR + c] == E.BLUE):
            return 23
        for p in range(L.MAX_PLAYERS):
            if ((s[L.placed_at(p, c >> 6)] >> (c & 63)) & 1) != (c < n_chits and s[L.CHIT_PLACER + c] == p):
                return 23
        q = s[L.CHIT_SQ + c] if c < n_chits else -1
        for lv in range(L.N_LEVELS + 1):
            if ((s[L.level_bits_at(lv, c >> 6)] >> (c & 63)) & 1) != (q >= 0 and g[g[L.G_LEVEL] + q] == lv):
                return 24
    for c in range(n_chits):
        loc = s[L.CHIT_LOC + c]
        q = s[L.CHIT_SQ + c]
        owner = s[L.CHIT_OWNER + c]
        if loc == E.LOC_BOARD or loc == E.LOC_FLOOR:
            if q < 0 or q >= n_sq or s[L.SQ_CHIT + q] != c:
                return 2
            level[g[g[L.G_LEVEL] + q]] += 1
        elif loc == E.LOC_HELD:
            found = 0
            if owner < 0 or owner >= n_players:
                return 4
            for k in range(s[L.HS + owner * L.N_HS + L.HS_N_ITEMS]):
                found += s[L.HELD + owner * L.MAX_HELD + k] == c
            if found != 1:
                return 4
        elif loc == E.LOC_KEPT:
            if owner < 0 or owner >= n_players:
                return 5
            if s[L.CHIT_COLOUR + c] == E.BLUE:
                kept_blue[owner] += 1
            elif c != n_chits - 1:                  # the Specter's chit (purple-backed) pays no experience
                kept_purple[owner] += 1
        elif loc != E.LOC_ASIDE and loc != E.LOC_GONE:
            return 1
        if loc == E.LOC_HELD or loc == E.LOC_KEPT:
            if s[L.CHIT_COLOUR + c] == E.BLUE:
                blue[owner] += 1
            else:
                purple[owner] += 1
    on_board = 0
    for q in range(n_sq):
        c = s[L.SQ_CHIT + q]
        if c >= 0:
            on_board += 1
            if c >= n_chits or s[L.CHIT_SQ + c] != q:
                return 3
        h = s[L.SQ_HERO + q]
        if h >= 0 and (h >= n_players or s[L.HS + h * L.N_HS + L.HS_SQ] != q):
            return 12
    for lv in range(1, 4):
        if s[L.LEVEL_CHITS + lv] != level[lv]:
            return 6
    n_in = 0
    kills = 0
    standups = 0
    for p in range(n_players):
        hs = L.HS + p * L.N_HS
        for k in range(L.N_HS):
            if k != L.HS_HP and k != L.HS_SQ and s[hs + k] < 0:
                return 21
        if s[hs + L.HS_BLUE] != blue[p] or s[hs + L.HS_PURPLE] != purple[p]:
            return 7
        if s[hs + L.HS_KEPT_BLUE] != kept_blue[p] or s[hs + L.HS_KEPT_PURPLE] != kept_purple[p]:
            return 8
        out = s[hs + L.HS_OUT]
        hp = s[hs + L.HS_HP]
        if (out == 0 and (hp < 1 or hp > s[hs + L.HS_MAXHP])) or (out == 1 and hp > 0):
            return 9
        n_armor = 0
        n_shield = 0
        n_weapon = 0
        for k in range(s[hs + L.HS_N_ITEMS]):
            slot = s[L.ITEM_TAB + s[L.CHIT_INDEX + s[L.HELD + p * L.MAX_HELD + k]] * L.N_IT + L.IT_SLOT]
            n_armor += slot == E.SLOT_ARMOR
            n_shield += slot == E.SLOT_SHIELD
            n_weapon += slot == E.SLOT_WEAPON
        h = s[hs + L.HS_HERO]
        extra = s[L.HERO_TAB + h * L.N_HT + L.HT_ABILITY_VALUE] \
            if s[L.HERO_TAB + h * L.N_HT + L.HT_ABILITY] == E.AB_EXTRA_WEAPON else 0
        if n_armor > 1 or n_shield > 1 or n_weapon > 2 + extra:
            return 10
        q = s[hs + L.HS_SQ]
        if (out == 1) != (q < 0):
            return 11
        if q >= 0 and s[L.SQ_HERO + q] != p:
            return 12
        if (s[hs + L.HS_DEATHS] >= 2) != (out == 1) or s[hs + L.HS_DEATHS] > 2:
            return 13
        n_in += 1 - out
        kills += s[hs + L.HS_KILLS]
        standups += s[hs + L.HS_STANDUPS]
        lines = (s[hs + L.HS_PTS_STANDUPS] + s[hs + L.HS_PTS_CHITS] + s[hs + L.HS_PTS_BANE]
                 + s[hs + L.HS_PTS_SPECTER_HIT] + s[hs + L.HS_PTS_SPECTER_KILL])
        if lines != s[hs + L.HS_POINTS]:
            return 17
    if kills != standups:
        return 20
    if n_in != s[L.SC + L.SC_IN]:
        return 14
    victory = s[L.SC + L.SC_VICTORY]
    if (victory == E.WIN_NONE) != (s[L.SC + L.SC_WIN_MASK] == 0) or (victory == E.WIN_NONE) != \
            (s[L.SC + L.SC_WINNER] < 0):
        return 15
    killer = s[L.SC + L.SC_SPECTER_KILLER]
    specter = n_chits - 1
    if (victory == E.WIN_SPECTER) != (killer >= 0) or (killer >= 0 and (
            s[L.CHIT_LOC + specter] != E.LOC_KEPT or s[L.CHIT_OWNER + specter] != killer)):
        return 16
    if s[L.SC + L.SC_TURN] > s[L.OPT + L.OPT_TURN_CAP]:
        return 18
    caps = 0
    for p in range(n_players):
        caps += s[L.HS + p * L.N_HS + L.HS_FIGHT_CAP]
    if caps > 1 or (caps == 1 and victory != E.WIN_NONE):
        return 25
    return 0


@njit(cache=True, error_model="numpy")
def play_and_check_nb(s0, f0, g, d, kinds, params, heroes, rotate, hero_rotate, seed, game0, n_games, failures):
    """Play n_games games from game0 and count the failures of each check in `failures` (index into CHECKS)."""
    s = s0.copy()
    f = f0.copy()
    n = kinds.shape[0]
    slots = np.zeros(n, np.int64)
    roles = np.zeros(n, np.int64)
    unfinished = 0
    for i in range(n_games):
        seat_lineup_nb(s, f, kinds, params, heroes, rotate, hero_rotate, game0 + i, slots, roles)
        play_game_nb(s, f, g, d, seed, game0 + i)
        failures[check_state_nb(s, g)] += 1
        unfinished += s[L.SC + L.SC_VICTORY] == E.WIN_NONE
    return unfinished


def names():
    """The strategies the base kernel plays (the lookahead has its own entry point and test below)."""
    return sorted(n for n in STRATEGIES if n != "lookahead")


def cases():
    """(id, scenario overrides, games): every strategy at 3-6 players, mixed tables, every rule option."""
    out = []
    strategies = names()
    for players in (3, 4, 5, 6):
        for name in strategies:
            cap = 150 if name == "random" else 2000
            out.append((f"{name}-{players}", dict(players=players, strategy={"name": name}, turn_cap=cap), 3000))
        mixed = [{"name": strategies[(i + players) % len(strategies)]} for i in range(players)]
        out.append((f"mixed-{players}", dict(players=players, seats=mixed, seat_rotation=True, turn_cap=600), 6000))
    options = [{"initiative_ties": "hero"}, {"initiative_ties": "monster"}, {"ties": "specter_killer"},
               {"out_hero_scores": False}, {"trading": True}, {"specter_damage_once": False},
               {"climb_from_1": 0, "climb_from_2": 1}, {"hero_rotation": False}]
    mixed = [{"name": strategies[i % len(strategies)]} for i in range(4)]
    for rules in options:
        key = "-".join(f"{k}={v}" for k, v in rules.items())
        out.append((key, dict(players=4, seats=mixed, rules=rules, turn_cap=600), 5000))
    return out


CASES = cases()


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_invariants_hold_after_every_game(case):
    _, overrides, n_games = case
    sc = load_scenario(None, game="haunted_tower", name="invariants", seed=21, **overrides)
    s0, f0, g, d, kinds, params, heroes, rotate, hero_rotate = compile_scenario(sc)
    failures = np.zeros(len(CHECKS), np.int64)
    play_and_check_nb(s0, f0, g, d, kinds, params, heroes, rotate, hero_rotate, np.uint64(sc.seed), 0, n_games,
                      failures)
    broken = {CHECKS[i]: int(n) for i, n in enumerate(failures) if i and n}
    assert not broken, broken
    assert failures[0] == n_games


def test_suite_plays_at_least_100_000_games():
    assert sum(c[2] for c in CASES) >= 100_000


def test_invariants_hold_after_lookahead_games():
    """A lookahead seat plays its playouts on the game's own state and restores it: its games (traced, through its
    own entry point) end in states that pass every check, each base and width, seats rotating."""
    seats = [{"name": "lookahead", "playouts": 2, "base": 1, "width": 3}, {"name": "monster_hunter"},
             {"name": "lookahead", "playouts": 1, "base": 3, "width": 8}, {"name": "specter_rusher"}]
    sc = load_scenario(None, game="haunted_tower", name="invariants", seed=23, players=4, seats=seats,
                       seat_rotation=True, turn_cap=400)
    compiled = compile_scenario(sc)
    finished = 0
    for game in range(16):
        _, s = trace_game(compiled, sc.seed, game)
        assert CHECKS[check_state_nb(s, compiled[2])] == CHECKS[0], game
        finished += s[L.SC + L.SC_VICTORY] != E.WIN_NONE
    assert finished >= 12


def test_checker_catches_a_broken_state():
    sc = load_scenario(None, game="haunted_tower", name="invariants", seed=3, players=4, turn_cap=100)
    compiled = compile_scenario(sc)
    _, s = trace_game(compiled, 3, 0)
    g = compiled[2]
    assert check_state_nb(s, g) == 0
    for region, index, value, expected in (
            (L.HS + L.HS_BLUE, 0, 99, 7), (L.HS + L.HS_HP, 0, 0, 9), (L.SC + L.SC_IN, 0, 0, 14),
            (L.SC + L.SC_ERROR, 0, E.DEC_MOVE, 19), (L.HS + L.HS_POINTS, 0, 99, 17),
            (L.LEVEL_CHITS + 1, 0, 999, 6), (L.SC + L.SC_TURN, 0, 10**6, 18), (L.CHIT_ON, 0, 0, 22),
            (L.CHIT_ON, 3, 1 << 20, 22), (L.CHIT_HIDDEN, 0, 0, 23), (L.CHIT_HIDDEN, 3, 1, 23),
            (L.CHIT_BLUE, 0, 0, 23), (L.CHIT_PLACED, 0, -1, 23), (L.CHIT_PLACED, 5 * L.MAX_CHITS // 64, 1, 23),
            (L.CHIT_LEVEL, 1 * L.MAX_CHITS // 64, 0, 24), (L.CHIT_LEVEL, 3 * L.MAX_CHITS // 64, -1, 24),
            (L.CHIT_LEVEL, 0, 1, 24), (L.HS + L.HS_FIGHT_CAP, 0, 2, 25)):
        broken = s.copy()
        broken[region + index] = value
        assert check_state_nb(broken, g) == expected, CHECKS[expected]


def test_no_hero_acts_after_it_is_out():
    sc = load_scenario(None, game="haunted_tower", name="out", seed=5, players=5, turn_cap=2000,
                       seats=[{"name": n} for n in (names() * 5)[:5]], seat_rotation=True)
    compiled = compile_scenario(sc)
    outs = 0
    for game in range(200):
        events, _ = trace_game(compiled, 5, game)
        gone = set()
        for kind, player, *_ in events.tolist():
            if player in gone and kind not in (E.EV_SCORE,):
                raise AssertionError(f"game {game}: seat {player} acts after it is out: {E.EVENT_NAMES[kind]}")
            if kind == E.EV_OUT:
                gone.add(player)
                outs += 1
    assert outs > 0, "no hero went out in 200 games: the test saw nothing"


def test_same_seed_same_games_for_any_thread_count_and_chunk_split():
    import numba

    sc = load_scenario(None, game="haunted_tower", name="det", seed=9, players=4, turn_cap=400,
                       seats=[{"name": n} for n in (names() * 4)[:4]], seat_rotation=True)
    compiled = compile_scenario(sc)
    whole = {k: v.copy() for k, v in run_chunk(compiled, seed=9, rotate=True, game0=0, n_games=600,
                                               n_blocks=8).items()}
    numba.set_num_threads(1)
    try:
        one = run_chunk(compiled, seed=9, rotate=True, game0=0, n_games=600, n_blocks=1)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    parts = [run_chunk(compiled, seed=9, rotate=True, game0=a, n_games=b - a, n_blocks=3)
             for a, b in ((0, 7), (7, 300), (300, 600))]
    assert_same_games(whole, one)
    assert_same_games(whole, *parts)
