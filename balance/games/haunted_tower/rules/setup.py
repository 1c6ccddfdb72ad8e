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
from .. import enums as E
from .. import strategies as S
from ..layout import (CHIT_FACEUP, CHIT_HIDDEN, CHIT_LEVEL, CHIT_PLACED, CHIT_INDEX, CHIT_KIND, CHIT_ON, CHIT_OWNER, CHIT_PLACER,
                     CHIT_SQ, CHIT_USES, CUP, G_N, G_N_OUT, G_R, HELD, HS, HS_ATTACK, HS_OUT, HS_HAND_N, HS_HERO, HS_HP,
                     HS_MAXHP, HS_SQ, HT_ATTACK, HT_HP, ICNT, LEVEL_CHITS, LEVEL_HIDDEN, MAX_HELD, MAX_PLAYERS, MCNT,
                     N_HS, N_LEVELS, N_SC, OPT, OPT_BLUE_EACH, OPT_N_BLUE, OPT_N_CHITS, OPT_N_PURPLE, OPT_PLAYERS,
                     ROOM_BLUE, ROOM_FULL, ROOM_PURPLE, SC, SC_ACTIVE, SC_CUP_N, SC_CUP_TOP, SC_FIGHT, SC_FIRST, SC_IN,
                     SC_LEVEL, SC_PATH_FROM, SC_SPECTER_KILLER, SC_WINNER, SEAT_HERO, SQ_CHIT, SQ_HERO, at, g_level,
                     g_outside, g_placeable, g_room, g_room_level, g_room_size, g_rooms_on, hand_at, hs_at, ht_at,
                     it_at, IT_USES, stream_at, MAX_CHITS, MAX_MONSTERS, MAX_ITEMS, N_MC, N_IC, SLOTS_OK)
from .pieces import (SHUFFLE, DICE, die_nb, emit_nb, illegal_nb, lay_chit_nb, place_hero_nb, set_loc_nb,
                     set_placer_nb)


@rules_jit
def reset_nb(s, g, seed, game):
    """Deal game `game` of run `seed` up to the first decision: heroes just outside the double front doors at full
    hit points, every chit's content known to nobody, the blue chits shuffled and drawn (17/13/10/8 a player), the
    rest set aside. Seat heroes (``SEAT_HERO``) and strategy kinds are set by the caller beforehand."""
    n_players = s[OPT + OPT_PLAYERS]
    n_chits = s[OPT + OPT_N_CHITS]
    n_sq = g[G_N]
    fill_nb(s, SC, N_SC, 0)
    fill_nb(s, HS, MAX_PLAYERS * N_HS, 0)
    fill_nb(s, HELD, MAX_PLAYERS * MAX_HELD, -1)
    fill_nb(s, SQ_CHIT, n_sq, -1)
    fill_nb(s, SQ_HERO, n_sq, -1)
    fill_nb(s, ROOM_BLUE, g[G_R], 0)
    fill_nb(s, ROOM_FULL, g[G_R], 0)
    fill_nb(s, ROOM_PURPLE, g[G_R], 0)
    fill_nb(s, LEVEL_CHITS, N_LEVELS + 1, 0)
    fill_nb(s, LEVEL_HIDDEN, N_LEVELS + 1, 0)
    fill_nb(s, SLOTS_OK, MAX_PLAYERS, 0)
    fill_nb(s, CHIT_ON, MAX_CHITS // 64, 0)
    fill_nb(s, CHIT_HIDDEN, MAX_CHITS // 64, 0)
    fill_nb(s, CHIT_PLACED, MAX_PLAYERS * MAX_CHITS // 64, 0)
    fill_nb(s, CHIT_LEVEL, (N_LEVELS + 1) * MAX_CHITS // 64, 0)
    fill_nb(s, MCNT, MAX_PLAYERS * MAX_MONSTERS * N_MC, 0)
    fill_nb(s, ICNT, MAX_PLAYERS * MAX_ITEMS * N_IC, 0)
    s[SC + SC_WINNER] = -1
    s[SC + SC_SPECTER_KILLER] = -1
    s[SC + SC_FIGHT] = -1
    s[SC + SC_PATH_FROM] = -1
    s[SC + SC_IN] = n_players
    flat_init_nb(s, stream_at(DICE), seed, game, PURPOSE_DICE)
    flat_init_nb(s, stream_at(SHUFFLE), seed, game, PURPOSE_SHUFFLE)
    for p in range(n_players):
        flat_init_nb(s, stream_at(2 + p), seed, game, PURPOSE_STRATEGY + p)
        h = s[at(SEAT_HERO, p)]
        s[hs_at(p, HS_HERO)] = h
        s[hs_at(p, HS_HP)] = s[ht_at(h, HT_HP)]
        s[hs_at(p, HS_MAXHP)] = s[ht_at(h, HT_HP)]
        s[hs_at(p, HS_ATTACK)] = s[ht_at(h, HT_ATTACK)]
        s[hs_at(p, HS_SQ)] = -1
        place_hero_nb(s, p, g_outside(g, p % g[G_N_OUT]))
    for c in range(n_chits):
        set_loc_nb(s, c, E.LOC_CUP)
        s[at(CHIT_SQ, c)] = -1
        s[at(CHIT_OWNER, c)] = -1
        s[at(CHIT_PLACER, c)] = -1                     # (CHIT_PLACED and CHIT_HIDDEN were cleared above)
        s[at(CHIT_FACEUP, c)] = 0
        s[at(CHIT_HIDDEN, c >> 6)] |= np.int64(1) << (c & 63)
        uses = 0
        if s[at(CHIT_KIND, c)] == E.CONTENT_ITEM:
            uses = s[it_at(s[at(CHIT_INDEX, c)], IT_USES)]
        s[at(CHIT_USES, c)] = uses
    n_blue = s[OPT + OPT_N_BLUE]
    for c in range(n_blue):
        s[at(CUP, c)] = c
    flat_shuffle_nb(s, at(CUP, 0), n_blue, stream_at(SHUFFLE))
    each = s[OPT + OPT_BLUE_EACH]
    for p in range(n_players):
        for k in range(each):
            c = s[at(CUP, p * each + k)]
            s[hand_at(p, k)] = c
            set_loc_nb(s, c, E.LOC_HAND)
            s[at(CHIT_OWNER, c)] = p
            set_placer_nb(s, c, p)
            emit_nb(s, E.EV_DEAL, p, c, 0, 0)
        s[hs_at(p, HS_HAND_N)] = each
    for k in range(n_players * each, n_blue):
        set_loc_nb(s, s[at(CUP, k)], E.LOC_ASIDE)


@rules_jit
def rolloff_nb(s, purpose):
    """Every hero still in the game (all of them at set-up) rolls 1d10 in seat order; tied highest seats roll
    again until one is highest. Returns that seat. With one hero left, no die is rolled."""
    n_players = s[OPT + OPT_PLAYERS]
    mask = 0
    for p in range(n_players):
        if purpose == 0 or s[hs_at(p, HS_OUT)] == 0:
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
                r = die_nb(s, 10)
                emit_nb(s, E.EV_ROLLOFF, p, r, purpose, 0)
                if r > best:
                    best = r
                    tied = 1 << p
                elif r == best:
                    tied |= 1 << p
        mask = tied


@rules_jit
def blue_square_ok_nb(s, g, q):
    """A blue chit may go on square q: a room square that is not in front of the double doors, free, and its room
    keeps two empty squares for every blue chit in it, this one included (Setting Up the Board)."""
    if q < 0 or q >= g[G_N] or g_placeable(g, q) == 0 or s[at(SQ_CHIT, q)] >= 0:
        return False
    r = g_room(g, q)
    empty_after = g_room_size(g, r) - s[at(ROOM_FULL, r)] - 1
    return empty_after >= 2 * (s[at(ROOM_BLUE, r)] + 1)


@rules_jit
def purple_square_ok_nb(s, g, q, level):
    """A purple chit may go on square q: a free placeable square of a room on `level` with no purple chit yet."""
    if q < 0 or q >= g[G_N] or g_placeable(g, q) == 0 or s[at(SQ_CHIT, q)] >= 0:
        return False
    r = g_room(g, q)
    return g_room_level(g, r) == level and s[at(ROOM_PURPLE, r)] == 0


@rules_jit
def place_nb(s, g, p, c, q):
    """Seat p puts chit c face down on square q."""
    lay_chit_nb(s, g, c, q, E.LOC_BOARD)
    r = g_room(g, q)
    s[at(ROOM_FULL, r)] += 1
    emit_nb(s, E.EV_PLACE, p, c, q, 0)


@rules_jit
def place_chits_nb(s, f, g, d):
    """The set-up roll-off, the blue chits placed one at a time clockwise, then the purple chits level by level.

    Returns False when a strategy answered illegally (the game then stops)."""
    n_players = s[OPT + OPT_PLAYERS]
    first = rolloff_nb(s, 0)
    s[SC + SC_FIRST] = first
    each = s[OPT + OPT_BLUE_EACH]
    p = first
    for _ in range(each * n_players):
        s[SC + SC_ACTIVE] = p
        k, q = S.place_blue_nb(s, f, g, d, p)
        n = s[hs_at(p, HS_HAND_N)]
        if k < 0 or k >= n or not blue_square_ok_nb(s, g, q):
            illegal_nb(s, p, E.DEC_PLACE_BLUE, k if k < 0 or k >= n else q)    # the bad part of the answer
            return False
        c = s[hand_at(p, k)]
        for j in range(k, n - 1):                       # the hand keeps its order
            s[hand_at(p, j)] = s[hand_at(p, j + 1)]
        s[hs_at(p, HS_HAND_N)] = n - 1
        s[at(CHIT_OWNER, c)] = -1
        s[at(ROOM_BLUE, g_room(g, q))] += 1
        place_nb(s, g, p, c, q)
        p = p + 1 if p + 1 < n_players else 0
    # Purple chits: the cup, then Tower 1 and Tower 2 room by room; the Specter's chit joins for Tower 3.
    n_blue = s[OPT + OPT_N_BLUE]
    n_purple = s[OPT + OPT_N_PURPLE]
    for k in range(n_purple):
        s[at(CUP, k)] = n_blue + k
    flat_shuffle_nb(s, at(CUP, 0), n_purple, stream_at(SHUFFLE))
    s[SC + SC_CUP_N] = n_purple
    s[SC + SC_CUP_TOP] = 0
    p = first
    for level in range(1, N_LEVELS + 1):
        if level == N_LEVELS:
            # Tower 3 takes its rooms' worth less one from the cup, the surplus (if the scenario has more purple
            # chits than rooms) is set aside, and the Specter's chit is added and the cup shaken: it is always placed.
            top = s[SC + SC_CUP_TOP]
            keep = g_rooms_on(g, N_LEVELS) - 1
            for k in range(top + keep, s[SC + SC_CUP_N]):
                set_loc_nb(s, s[at(CUP, k)], E.LOC_ASIDE)
            s[at(CUP, top + keep)] = s[OPT + OPT_N_CHITS] - 1
            flat_shuffle_nb(s, at(CUP, top), keep + 1, stream_at(SHUFFLE))
            s[SC + SC_CUP_N] = top + keep + 1
        s[SC + SC_LEVEL] = level
        for r in range(g[G_R]):
            if g_room_level(g, r) != level:
                continue
            top = s[SC + SC_CUP_TOP]                    # the scenario check makes the cup hold enough
            c = s[at(CUP, top)]
            s[SC + SC_CUP_TOP] = top + 1
            s[SC + SC_ACTIVE] = p
            q = S.place_purple_nb(s, f, g, d, p, level)
            if not purple_square_ok_nb(s, g, q, level):
                illegal_nb(s, p, E.DEC_PLACE_PURPLE, q)
                return False
            s[at(ROOM_PURPLE, g_room(g, q))] = 1
            place_nb(s, g, p, c, q)
            p = p + 1 if p + 1 < n_players else 0
    for k in range(s[SC + SC_CUP_TOP], s[SC + SC_CUP_N]):
        set_loc_nb(s, s[at(CUP, k)], E.LOC_ASIDE)
    return True
