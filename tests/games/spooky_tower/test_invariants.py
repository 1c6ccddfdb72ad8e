"""Invariants over 100,000 Spooky Tower games, and determinism of ``run_chunk``.

A jitted checker plays games with ``rules.play_game_nb`` and, after each, checks the whole flat state: every card
in exactly one place (Town stack, a hand, a kept ghost, the trunk), no negative count, pets and fragments conserved,
the cap respected, a winner iff a victory kind, the winner at a threshold and nobody else. The games cover 2, 3 and
4 players, every shipped strategy in mixed tables, every rule option and three component sets.
"""
from __future__ import annotations

import numba
import numpy as np
import pytest
from numba import njit

from balance.games.spooky_tower import STRATEGIES, run_chunk
from balance.games.spooky_tower import enums as E
from balance.games.spooky_tower.components import (Building, SpookyTowerComponents, SpookyTowerRules,
                                                   rulebook_buildings)
from balance.games.spooky_tower.rules import LOC_KEPT, LOC_TOWN, LOC_TRUNK, play_game_nb
from balance.games.spooky_tower.layout import (CARD_FX, CARD_NFX, CARD_VALUE, GHOST_WORTH, GRIM, GRIM_FX, GRIM_NFX,
                                               KINDS, LOC, M_STACK, MAX_FX, MAX_PER_VALUE, MAX_PLAYERS, N_PARAMS, NV,
                                               OPT, SC, TOWN_N, VALUE_COUNT, VALUE_FIRST, cnt_at, hand_at, hand_n_at,
                                               param_at, pl_at, town_at)
from chunk_split import assert_same_games

CHECKS = (
    "ok", "Town stack size out of range", "Town card of another value", "Town card not marked LOC_TOWN",
    "hand size out of range", "hand card of another value", "hand card not marked as its holder's",
    "card in two places", "card marked Town/hand but not found there", "LOC holds no valid place",
    "held counter != cards in hand", "negative counter", "token neither 0 nor 1", "pets not conserved",
    "fragments not conserved", "Town + taken != cards of the value", "taken != held + flipped",
    "flipped != cards of the value in the trunk or kept", "kept card without a ghost Photo",
    "kept ghosts != the seat's ghost counters", "seat's ghosts below its kept ghosts", "ghost total != its sources",
    "turns past the cap", "winner without victory kind or the reverse", "winner below the threshold",
    "a non-winner at a threshold", "unfinished before the cap", "effect stack not empty",
    "clock, Grimoire or Park position out of range", "cards held by an empty seat", "rounds inconsistent",
)
N_KINDS = 4       # the shipped strategies: kinds 0..3


@njit(cache=True, error_model="numpy")
def check_state_nb(s):
    """Index into CHECKS of the first invariant the finished game in `s` breaks; 0 when all hold."""
    n_players = s[OPT + E.OPT_N_PLAYERS]
    n_cards = 0
    for v in range(1, NV):
        n_cards += s[VALUE_COUNT + v]
    seen = np.zeros(n_cards, np.int64)
    for v in range(1, NV):
        first = s[VALUE_FIRST + v]
        count = s[VALUE_COUNT + v]
        n = s[TOWN_N + v]
        if n < 0 or n > count:
            return 1
        for k in range(n):
            c = s[town_at(v, k)]
            if c < first or c >= first + count:
                return 2
            if s[LOC + c] != LOC_TOWN:
                return 3
            seen[c] += 1
    for p in range(MAX_PLAYERS):
        held = 0
        for v in range(1, NV):
            n = s[hand_n_at(p, v)]
            if n < 0 or n > MAX_PER_VALUE:
                return 4
            if p >= n_players and n != 0:
                return 29
            for k in range(n):
                c = s[hand_at(p, v, k)]
                if c < s[VALUE_FIRST + v] or c >= s[VALUE_FIRST + v] + s[VALUE_COUNT + v]:
                    return 5
                if s[LOC + c] != p:
                    return 6
                seen[c] += 1
            held += n
        if p < n_players and held != s[pl_at(p, E.PL_HELD)]:
            return 10
    kept = np.zeros(MAX_PLAYERS, np.int64)
    for c in range(n_cards):
        if seen[c] > 1:
            return 7
        loc = s[LOC + c]
        if loc == LOC_TOWN or (0 <= loc < n_players):
            if seen[c] != 1:
                return 8
        elif loc == LOC_TRUNK:
            pass
        elif LOC_KEPT <= loc < LOC_KEPT + n_players:
            n_ghost = 0
            for i in range(s[CARD_NFX + c]):
                if s[CARD_FX + c * MAX_FX + i] == E.FX_GHOST:
                    n_ghost += 1
            if n_ghost == 0:
                return 18
            kept[loc - LOC_KEPT] += n_ghost * s[GHOST_WORTH + s[CARD_VALUE + c]]
        else:
            return 9
    for p in range(n_players):
        for k in range(E.N_PL):
            if s[pl_at(p, k)] < 0:
                return 11
        if s[pl_at(p, E.PL_TOKEN)] > 1:
            return 12
    pets = s[SC + E.SC_PETS_CENTER]
    frags = s[SC + E.SC_FRAG_RESERVE]
    if pets < 0 or frags < 0:
        return 11
    for p in range(n_players):
        pets += s[pl_at(p, E.PL_PETS)]
        frags += s[pl_at(p, E.PL_FRAGMENTS)]
    if pets != s[OPT + E.OPT_PETS]:
        return 13
    if frags != s[OPT + E.OPT_FRAGMENTS]:
        return 14
    for v in range(1, NV):
        first = s[VALUE_FIRST + v]
        out = 0
        for c in range(first, first + s[VALUE_COUNT + v]):
            if s[LOC + c] == LOC_TRUNK or s[LOC + c] >= LOC_KEPT:
                out += 1
        taken = 0
        flipped = 0
        for p in range(n_players):
            t = s[cnt_at(p, v, E.CNT_TAKEN)]
            fl = s[cnt_at(p, v, E.CNT_FLIPPED)]
            if t != s[hand_n_at(p, v)] + fl:
                return 16
            taken += t
            flipped += fl
        if s[TOWN_N + v] + taken != s[VALUE_COUNT + v]:
            return 15
        if flipped != out:
            return 17
    winner = s[SC + E.SC_WINNER]
    victory = s[SC + E.SC_VICTORY]
    total = 0
    sources = s[SC + E.SC_PARK_TOP] * s[OPT + E.OPT_PARK_GHOSTS]
    for p in range(n_players):
        cg = 0
        for v in range(1, NV):
            cg += s[cnt_at(p, v, E.CNT_GHOSTS)]
        if cg != kept[p]:
            return 19
        if s[pl_at(p, E.PL_GHOSTS)] < kept[p]:
            return 20
        total += s[pl_at(p, E.PL_GHOSTS)]
        sources += kept[p]
    for i in range(s[SC + E.SC_GRIM_TOP]):
        g = s[GRIM + i]
        for j in range(s[GRIM_NFX + g]):
            if s[GRIM_FX + g * MAX_FX + j] == E.FX_GHOST:
                sources += s[OPT + E.OPT_GRIMOIRE_GHOST]
    # A win stops the effect chain, so ghosts of the last Grimoire card revealed may not all be counted.
    if total > sources or (winner < 0 and total != sources):
        return 21
    turns = s[SC + E.SC_TURN]
    if turns > s[OPT + E.OPT_MAX_TURNS]:
        return 22
    if (winner >= 0) != (victory != E.WIN_NONE) or winner >= n_players or winner < -1:
        return 23
    g_win = s[OPT + E.OPT_GHOSTS_TO_WIN]
    f_win = s[OPT + E.OPT_FRAGMENTS_TO_WIN]
    for p in range(n_players):
        ghosts = s[pl_at(p, E.PL_GHOSTS)] + s[pl_at(p, E.PL_PETS)]
        frag = s[pl_at(p, E.PL_FRAGMENTS)]
        if p == winner:
            if victory == E.WIN_GHOSTS and ghosts < g_win:
                return 24
            if victory == E.WIN_AMULET and (frag < f_win or ghosts >= g_win):
                return 24
        elif ghosts >= g_win or frag >= f_win:
            return 25
    if winner < 0 and turns != s[OPT + E.OPT_MAX_TURNS]:
        return 26
    if s[M_STACK] != 0:
        return 27
    if not (0 <= s[SC + E.SC_CLOCK] < s[OPT + E.OPT_N_DIAL] and 0 <= s[SC + E.SC_GRIM_TOP] <= s[OPT + E.OPT_N_GRIMOIRE]
            and 0 <= s[SC + E.SC_PARK_TOP] <= s[OPT + E.OPT_N_PARK]):
        return 28
    rounds = s[SC + E.SC_ROUND]
    if rounds < 1 or (rounds - 1) * n_players >= turns:    # each round before the last has n_players turns
        return 30
    return 0


@njit(cache=True, error_model="numpy")
def play_and_check_nb(s, f, kind_params, seed, n_games, bad, winner, victory, turns):
    """Play games 0..n_games-1, seat `q` of game `g` taking strategy kind (g // 4**q) % 4 (every mixed table in
    turn), and check each finished game; per-game results into the output arrays."""
    n_players = s[OPT + E.OPT_N_PLAYERS]
    for g in range(n_games):
        for q in range(n_players):
            k = (g // N_KINDS ** q) % N_KINDS
            s[KINDS + q] = k
            for j in range(N_PARAMS):
                f[param_at(q, j)] = kind_params[k, j]
        play_game_nb(s, f, seed, g, None)
        bad[g] = check_state_nb(s)
        winner[g] = s[SC + E.SC_WINNER]
        victory[g] = s[SC + E.SC_VICTORY]
        turns[g] = s[SC + E.SC_TURN]


def kind_params() -> np.ndarray:
    """Default parameter vector of each shipped strategy, by kind."""
    out = np.zeros((N_KINDS, N_PARAMS), np.float64)
    for st in STRATEGIES.values():
        if st.kind < N_KINDS:          # the lookahead (kind 4) has its own test below
            vec = st.vector({})
            out[st.kind, :len(vec)] = vec
    return out


def scarce_components() -> SpookyTowerComponents:
    """Few pets (steals), a small fragment reserve (runs out), a two-card Grimoire (runs out), clues on the dial,
    a value-5 Photo with flip, clue and take, and two extra-turn Photos."""
    comp = SpookyTowerComponents(ghost_pets=1, amulet_fragments=4,
                                 grimoire=[["ghost", "clock"], ["take_any", "flip_9plus"]],
                                 clock_dial=["pet", "clue", "fragment"], park_requirements=[1, 1, 3])
    comp.buildings[4] = Building(value=5, photos=[["flip_8minus", "clue", "take_8minus"]] * 4 + [["extra_turn"]])
    comp.buildings[7] = Building(value=8, photos=[["ghost"], ["extra_turn"], ["pet"], ["pet"], ["extra_turn"]])
    return comp


# (name, rules, components, turn_cap, games per player count); 3 x 33,400 = 100,200 games.
CONFIGS = [
    ("default", SpookyTowerRules(), None, 1000, 13_400),
    ("all_other_options", SpookyTowerRules(effect_order="takes_first", flip_scope="building", stuck_with_token="clock",
                                           extra_turns="stack"), None, 1000, 6_000),
    ("rulebook_value_1_stuck_reroll", SpookyTowerRules(stuck_with_token="reroll"),
     SpookyTowerComponents(buildings=rulebook_buildings()), 1000, 5_000),
    ("scarce", SpookyTowerRules(extra_turns="stack"), scarce_components(), 1000, 6_000),
    ("cap_10", SpookyTowerRules(), None, 10, 3_000),
]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name, rules, components, turn_cap, n_games", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_invariants_hold_after_every_game(spooky_compiled, players, name, rules, components, turn_cap, n_games):
    s0, f0, *_ = spooky_compiled(players, turn_cap=turn_cap, rules=rules, components=components)
    s, f = s0.copy(), f0.copy()
    bad, winner, victory, turns = (np.zeros(n_games, np.int64) for _ in range(4))
    play_and_check_nb(s, f, kind_params(), np.uint64(20240601 + players), n_games, bad, winner, victory, turns)
    failed = np.flatnonzero(bad)
    assert failed.size == 0, [(int(g), CHECKS[bad[g]]) for g in failed[:10]]
    # The games reached the cases the checks are about.
    if turn_cap == 10:
        assert (victory == E.WIN_NONE).sum() > n_games // 2 and turns.max() == 10
    else:
        assert set(np.unique(winner)) == set(range(players))
        assert (victory == E.WIN_GHOSTS).any() and (victory == E.WIN_AMULET).any()


def test_invariants_hold_after_lookahead_games(spooky_compiled):
    """A lookahead seat plays its playouts on the game's own state and restores it: the games it plays end in
    states that pass every check (each seat in turn, every base strategy, the others on the heuristics)."""
    s0, f0, *_ = spooky_compiled(3)
    s, f = s0.copy(), f0.copy()
    table = kind_params()
    for g in range(120):
        for q in range(3):
            k = STRATEGIES["lookahead"].kind if q == g % 3 else 1 + (g + q) % 3
            s[KINDS + q] = k
            for j in range(N_PARAMS):
                f[param_at(q, j)] = (3.0, g % 4, 0.0, 0.0)[j] if q == g % 3 else table[k, j]
        play_game_nb(s, f, np.uint64(77), g, True)
        assert CHECKS[check_state_nb(s)] == CHECKS[0], g


def test_checker_catches_a_broken_state(spooky_compiled):
    """The checker is not vacuous: a lost card, a pet from nowhere or a phantom winner are each reported."""
    s0, f0, *_ = spooky_compiled(3)
    s, f = s0.copy(), f0.copy()
    s[KINDS:KINDS + 3] = 0
    play_game_nb(s, f, np.uint64(5), 0, None)
    assert check_state_nb(s) == 0
    n_cards = int(s[VALUE_COUNT:VALUE_COUNT + NV].sum())
    loc = s[LOC:LOC + n_cards]
    in_town = int(np.flatnonzero(loc == LOC_TOWN)[0])
    in_trunk = int(np.flatnonzero(loc == LOC_TRUNK)[0])
    full_stack = int(np.flatnonzero(s[TOWN_N:TOWN_N + NV] > 0)[0])
    for slot, value, expected in [(LOC + in_town, LOC_TRUNK, "Town card not marked LOC_TOWN"),
                                  (LOC + in_trunk, 77, "LOC holds no valid place"),
                                  (LOC + in_trunk, 1, "card marked Town/hand but not found there"),
                                  (pl_at(1, E.PL_PETS), s[pl_at(1, E.PL_PETS)] + 1, "pets not conserved"),
                                  (SC + E.SC_FRAG_RESERVE, s[SC + E.SC_FRAG_RESERVE] + 1, "fragments not conserved"),
                                  (TOWN_N + full_stack, s[TOWN_N + full_stack] - 1,
                                   "card marked Town/hand but not found there"),
                                  (cnt_at(2, 1, E.CNT_TAKEN), s[cnt_at(2, 1, E.CNT_TAKEN)] + 1,
                                   "taken != held + flipped"),
                                  (SC + E.SC_WINNER, -1, "winner without victory kind or the reverse"),
                                  (SC + E.SC_TURN, 5000, "turns past the cap")]:
        broken = s.copy()
        broken[slot] = value
        assert CHECKS[check_state_nb(broken)] == expected


# --- determinism -------------------------------------------------------------------------------------------------

def _mixed(spooky_compiled):
    return spooky_compiled(4, ["ghost_hunter", "random", "clock_rusher", "collector"])


def _same(a: dict, b: dict):
    assert a.keys() == b.keys()
    for k in a:
        assert a[k].dtype == b[k].dtype and np.array_equal(a[k], b[k]), k


def test_run_chunk_outputs_are_consistent(spooky_compiled):
    compiled = _mixed(spooky_compiled)
    out = run_chunk(compiled, seed=3, rotate=True, game0=0, n_games=5000, n_blocks=4)
    assert (out["turns"] <= 1000).all() and ((out["winner"] >= 0) == (out["victory"] != 0)).all()
    held = (out["counters"][..., E.CNT_TAKEN] - out["counters"][..., E.CNT_FLIPPED]).sum(axis=2)
    assert np.array_equal(held, out["final"][:, :, E.PL_HELD])
    won = np.flatnonzero(out["victory"] == E.WIN_GHOSTS)
    w = out["final"][won, out["winner"][won]]
    assert (w[:, E.PL_GHOSTS] + w[:, E.PL_PETS] >= 5).all()
    # Seats rotate: game g seats lineup slot (seat + g) mod 4.
    assert np.array_equal(out["seat_strategy"][:, 0], np.arange(5000) % 4)


def test_same_seed_same_games_for_any_thread_count(spooky_compiled):
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs two threads")
    compiled = _mixed(spooky_compiled)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = run_chunk(compiled, seed=11, rotate=True, game0=0, n_games=20_000, n_blocks=8)
        numba.set_num_threads(2)
        two = run_chunk(compiled, seed=11, rotate=True, game0=0, n_games=20_000, n_blocks=8)
    finally:
        numba.set_num_threads(before)
    _same(one, two)


def test_same_seed_same_games_for_any_chunk_split(spooky_compiled):
    compiled = _mixed(spooky_compiled)
    whole = run_chunk(compiled, seed=11, rotate=True, game0=0, n_games=20_000, n_blocks=1)
    assert_same_games(whole, run_chunk(compiled, seed=11, rotate=True, game0=0, n_games=7_000, n_blocks=3),
                      run_chunk(compiled, seed=11, rotate=True, game0=7_000, n_games=13_000, n_blocks=7))
    other_seed = run_chunk(compiled, seed=12, rotate=True, game0=0, n_games=20_000, n_blocks=1)
    assert not np.array_equal(whole["turns"], other_seed["turns"])
