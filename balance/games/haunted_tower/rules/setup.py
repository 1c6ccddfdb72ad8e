"""The Haunted Tower's set-up (rulebook, Setting Up the Board): heroes outside, blue chits drawn and placed by the
players, purple chits placed room by room and level by level, the Specter mixed in for Tower 3.

``reset_nb`` clears the state and makes every draw that needs no decision (the streams, the heroes, the blue deal);
``place_chits_nb`` is the roll-off and the placements, each square chosen by the seat's strategy.
"""
from __future__ import annotations

import numpy as np

from ....core.jit import rules_jit
from ....core.rng import PURPOSE_DICE, PURPOSE_SHUFFLE, PURPOSE_STRATEGY, flat_init_nb, flat_shuffle_nb
from ...kernel_common import fill_nb
from .. import enums
from .. import strategies
from ..layout import (ACTIVE, BLUE_EACH, CHIT_FACEUP, CHIT_HIDDEN, CHIT_INDEX, CHIT_KIND, CHIT_LEVEL, CHIT_ON,
                      CHIT_OWNER, CHIT_PLACED, CHIT_PLACER, CHIT_SQ, CHIT_USES, CUP, CUP_COUNT, CUP_TOP, FIGHT_CHIT,
                      FILLING_LEVEL, FIRST_PLAYER, G_N, G_N_OUT, G_R, HELD, HEROES_IN, HS, HS_ATTACK, HS_HAND_N,
                      HS_HERO, HS_HP, HS_MAXHP, HS_OUT, HS_SQ, HT_ATTACK, HT_HP, ICNT, IT_USES, LEVEL_CHITS,
                      LEVEL_HIDDEN, MAX_CHITS, MAX_HELD, MAX_ITEMS, MAX_MONSTERS, MAX_PLAYERS, MCNT, N_BLUE, N_CHITS,
                      N_HS, N_IC, N_LEVELS, N_MC, N_PURPLE, N_SC, PATH_FROM, PLAYERS, ROOM_BLUE, ROOM_FULL, ROOM_PURPLE,
                      SC, SEAT_HERO, SLOTS_OK, SPECTER_KILLER, SQ_CHIT, SQ_HERO, WINNER, at, g_level, g_outside,
                      g_placeable, g_room, g_room_level, g_room_size, g_rooms_on, hand_at, hs_at, ht_at, it_at,
                      stream_at)
from .pieces import (SHUFFLE, DICE, die_nb, emit_nb, illegal_nb, lay_chit_nb, place_hero_nb, set_loc_nb,
                     set_placer_nb)


@rules_jit
def reset_nb(state, tables, seed, game):
    """Deal game `game` of run `seed` up to the first decision: heroes just outside the double front doors at full
    hit points, every chit's content known to nobody, the blue chits shuffled and drawn (17/13/10/8 a player), the
    rest set aside. Seat heroes (``SEAT_HERO``) and strategy kinds are set by the caller beforehand."""
    n_players = state[PLAYERS]
    n_chits = state[N_CHITS]
    n_sq = tables[G_N]
    fill_nb(state, SC, N_SC, 0)
    fill_nb(state, HS, MAX_PLAYERS * N_HS, 0)
    fill_nb(state, HELD, MAX_PLAYERS * MAX_HELD, -1)
    fill_nb(state, SQ_CHIT, n_sq, -1)
    fill_nb(state, SQ_HERO, n_sq, -1)
    fill_nb(state, ROOM_BLUE, tables[G_R], 0)
    fill_nb(state, ROOM_FULL, tables[G_R], 0)
    fill_nb(state, ROOM_PURPLE, tables[G_R], 0)
    fill_nb(state, LEVEL_CHITS, N_LEVELS + 1, 0)
    fill_nb(state, LEVEL_HIDDEN, N_LEVELS + 1, 0)
    fill_nb(state, SLOTS_OK, MAX_PLAYERS, 0)
    fill_nb(state, CHIT_ON, MAX_CHITS // 64, 0)
    fill_nb(state, CHIT_HIDDEN, MAX_CHITS // 64, 0)
    fill_nb(state, CHIT_PLACED, MAX_PLAYERS * MAX_CHITS // 64, 0)
    fill_nb(state, CHIT_LEVEL, (N_LEVELS + 1) * MAX_CHITS // 64, 0)
    fill_nb(state, MCNT, MAX_PLAYERS * MAX_MONSTERS * N_MC, 0)
    fill_nb(state, ICNT, MAX_PLAYERS * MAX_ITEMS * N_IC, 0)
    state[WINNER] = -1
    state[SPECTER_KILLER] = -1
    state[FIGHT_CHIT] = -1
    state[PATH_FROM] = -1
    state[HEROES_IN] = n_players
    flat_init_nb(state, stream_at(DICE), seed, game, PURPOSE_DICE)
    flat_init_nb(state, stream_at(SHUFFLE), seed, game, PURPOSE_SHUFFLE)
    for p in range(n_players):
        flat_init_nb(state, stream_at(2 + p), seed, game, PURPOSE_STRATEGY + p)
        h = state[at(SEAT_HERO, p)]
        state[hs_at(p, HS_HERO)] = h
        state[hs_at(p, HS_HP)] = state[ht_at(h, HT_HP)]
        state[hs_at(p, HS_MAXHP)] = state[ht_at(h, HT_HP)]
        state[hs_at(p, HS_ATTACK)] = state[ht_at(h, HT_ATTACK)]
        state[hs_at(p, HS_SQ)] = -1
        place_hero_nb(state, p, g_outside(tables, p % tables[G_N_OUT]))
    for c in range(n_chits):
        set_loc_nb(state, c, enums.LOC_CUP)
        state[at(CHIT_SQ, c)] = -1
        state[at(CHIT_OWNER, c)] = -1
        state[at(CHIT_PLACER, c)] = -1                     # (CHIT_PLACED and CHIT_HIDDEN were cleared above)
        state[at(CHIT_FACEUP, c)] = 0
        state[at(CHIT_HIDDEN, c >> 6)] |= np.int64(1) << (c & 63)
        uses = 0
        if state[at(CHIT_KIND, c)] == enums.CONTENT_ITEM:
            uses = state[it_at(state[at(CHIT_INDEX, c)], IT_USES)]
        state[at(CHIT_USES, c)] = uses
    n_blue = state[N_BLUE]
    for c in range(n_blue):
        state[at(CUP, c)] = c
    flat_shuffle_nb(state, at(CUP, 0), n_blue, stream_at(SHUFFLE))
    each = state[BLUE_EACH]
    for p in range(n_players):
        for k in range(each):
            c = state[at(CUP, p * each + k)]
            state[hand_at(p, k)] = c
            set_loc_nb(state, c, enums.LOC_HAND)
            state[at(CHIT_OWNER, c)] = p
            set_placer_nb(state, c, p)
            emit_nb(state, enums.EV_DEAL, p, c, 0, 0)
        state[hs_at(p, HS_HAND_N)] = each
    for k in range(n_players * each, n_blue):
        set_loc_nb(state, state[at(CUP, k)], enums.LOC_ASIDE)


@rules_jit
def rolloff_nb(state, purpose):
    """Every hero still in the game (all of them at set-up) rolls 1d10 in seat order; tied highest seats roll
    again until one is highest. Returns that seat. With one hero left, no die is rolled."""
    n_players = state[PLAYERS]
    mask = 0
    for p in range(n_players):
        if purpose == 0 or state[hs_at(p, HS_OUT)] == 0:
            mask |= 1 << p
    while True:
        count = 0
        only = -1
        for p in range(n_players):
            if mask & (1 << p):
                count += 1
                only = p
        if count == 1:
            return only
        best = -1
        tied = 0
        for p in range(n_players):
            if mask & (1 << p):
                r = die_nb(state, 10)
                emit_nb(state, enums.EV_ROLLOFF, p, r, purpose, 0)
                if r > best:
                    best = r
                    tied = 1 << p
                elif r == best:
                    tied |= 1 << p
        mask = tied


@rules_jit
def blue_square_ok_nb(state, tables, q):
    """A blue chit may go on square q: a room square that is not in front of the double doors, free, and its room
    keeps two empty squares for every blue chit in it, this one included (Setting Up the Board)."""
    if q < 0 or q >= tables[G_N] or g_placeable(tables, q) == 0 or state[at(SQ_CHIT, q)] >= 0:
        return False
    r = g_room(tables, q)
    empty_after = g_room_size(tables, r) - state[at(ROOM_FULL, r)] - 1
    return empty_after >= 2 * (state[at(ROOM_BLUE, r)] + 1)


@rules_jit
def purple_square_ok_nb(state, tables, q, level):
    """A purple chit may go on square q: a free placeable square of a room on `level` with no purple chit yet."""
    if q < 0 or q >= tables[G_N] or g_placeable(tables, q) == 0 or state[at(SQ_CHIT, q)] >= 0:
        return False
    r = g_room(tables, q)
    return g_room_level(tables, r) == level and state[at(ROOM_PURPLE, r)] == 0


@rules_jit
def place_nb(state, tables, p, c, q):
    """Seat p puts chit c face down on square q."""
    lay_chit_nb(state, tables, c, q, enums.LOC_BOARD)
    r = g_room(tables, q)
    state[at(ROOM_FULL, r)] += 1
    emit_nb(state, enums.EV_PLACE, p, c, q, 0)


@rules_jit
def place_chits_nb(state, params, tables, costs):
    """The set-up roll-off, the blue chits placed one at a time clockwise, then the purple chits level by level.

    Returns False when a strategy answered illegally (the game then stops)."""
    n_players = state[PLAYERS]
    first = rolloff_nb(state, 0)
    state[FIRST_PLAYER] = first
    each = state[BLUE_EACH]
    p = first
    for _ in range(each * n_players):
        state[ACTIVE] = p
        k, q = strategies.place_blue_nb(state, params, tables, costs, p)
        n = state[hs_at(p, HS_HAND_N)]
        if k < 0 or k >= n or not blue_square_ok_nb(state, tables, q):
            illegal_nb(state, p, enums.DEC_PLACE_BLUE, k if k < 0 or k >= n else q)    # the bad part of the answer
            return False
        c = state[hand_at(p, k)]
        for j in range(k, n - 1):                       # the hand keeps its order
            state[hand_at(p, j)] = state[hand_at(p, j + 1)]
        state[hs_at(p, HS_HAND_N)] = n - 1
        state[at(CHIT_OWNER, c)] = -1
        state[at(ROOM_BLUE, g_room(tables, q))] += 1
        place_nb(state, tables, p, c, q)
        p = p + 1 if p + 1 < n_players else 0
    # Purple chits: the cup, then Tower 1 and Tower 2 room by room; the Specter's chit joins for Tower 3.
    n_blue = state[N_BLUE]
    n_purple = state[N_PURPLE]
    for k in range(n_purple):
        state[at(CUP, k)] = n_blue + k
    flat_shuffle_nb(state, at(CUP, 0), n_purple, stream_at(SHUFFLE))
    state[CUP_COUNT] = n_purple
    state[CUP_TOP] = 0
    p = first
    for level in range(1, N_LEVELS + 1):
        if level == N_LEVELS:
            # Tower 3 takes its rooms' worth less one from the cup, the surplus (if the scenario has more purple
            # chits than rooms) is set aside, and the Specter's chit is added and the cup shaken: it is always placed.
            top = state[CUP_TOP]
            keep = g_rooms_on(tables, N_LEVELS) - 1
            for k in range(top + keep, state[CUP_COUNT]):
                set_loc_nb(state, state[at(CUP, k)], enums.LOC_ASIDE)
            state[at(CUP, top + keep)] = state[N_CHITS] - 1
            flat_shuffle_nb(state, at(CUP, top), keep + 1, stream_at(SHUFFLE))
            state[CUP_COUNT] = top + keep + 1
        state[FILLING_LEVEL] = level
        for r in range(tables[G_R]):
            if g_room_level(tables, r) != level:
                continue
            top = state[CUP_TOP]                    # the scenario check makes the cup hold enough
            c = state[at(CUP, top)]
            state[CUP_TOP] = top + 1
            state[ACTIVE] = p
            q = strategies.place_purple_nb(state, params, tables, costs, p, level)
            if not purple_square_ok_nb(state, tables, q, level):
                illegal_nb(state, p, enums.DEC_PLACE_PURPLE, q)
                return False
            state[at(ROOM_PURPLE, g_room(tables, q))] = 1
            place_nb(state, tables, p, c, q)
            p = p + 1 if p + 1 < n_players else 0
    for k in range(state[CUP_TOP], state[CUP_COUNT]):
        set_loc_nb(state, state[at(CUP, k)], enums.LOC_ASIDE)
    return True
