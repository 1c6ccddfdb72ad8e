"""The Haunted Tower's movement, climbing, encounters and items (rulebook: Movement, Climbing to a New Level,
Encountering a Chit, Magical Items).

Movement costs come from the board's precomputed tables (``board.dist``): the strategy names the square to stop on,
and the kernel checks it is legal (reachable with the movement points under the climbing restriction, free of heroes
and chits). The shortest path to it is recorded only when something reads it: the Specter's back-up
(``combat.back_up_nb``), once a turn at most, and a traced game's `step` rows; recording it on every move was about
8% of the kernel's time.
"""
from __future__ import annotations

from ....core.jit import rules_jit
from .. import enums as E
from .. import strategies as S
from ..layout import (CAND, CHIT_FACEUP, CHIT_SQ, G_A, G_D, G_N, G_N_OUT, HS_HERO,
                     HS_N_ITEMS, HS_SQ, HT_ABILITY, HT_ABILITY_VALUE, IT_USABLE, LEVEL_CHITS, LEVEL_HIDDEN, MAX_HELD, MAX_PATH,
                     OPT, OPT_CLIMB_1, OPT_CLIMB_2, OPT_GATE, OPT_N_ITEMS, PATH, SC, SC_CLIMB, SC_LEFT, SC_MP, SC_N_CAND,
                     SC_PATH_FROM, SC_PATH_N, SQ_CHIT, SQ_HERO, at, cost, g_adj, g_door, g_nbr,
                     g_outside, held_at, hs_at, ht_at, icnt_at, IC_TAKEN, it_at, next_step, TRACE)
from .pieces import (carry_nb, chit_count_nb, emit_nb, free_square_nb, held_in_slot_nb, illegal_nb, item_of_nb,
                     lay_chit_nb, lift_chit_nb, place_hero_nb, set_loc_nb, slot_of_nb, uncarry_nb)

UNREACHABLE = 32767


@rules_jit
def climb_table_nb(s, p):
    """Which of the board's climbing tables the hero moves under (Climbing to a New Level): 0 never up, 1 up from
    Tower 1 only, 2 up from Tower 1 and 2, 3 up from Tower 2 only (a hero who went up, then lost chits, and finds
    Tower 2 empty)."""
    count = chit_count_nb(s, p)
    left = LEVEL_HIDDEN if s[OPT + OPT_GATE] == E.GATE_REVEALED else LEVEL_CHITS    # what keeps a gate shut
    up1 = count >= s[OPT + OPT_CLIMB_1] or s[at(left, 1)] == 0
    up2 = count >= s[OPT + OPT_CLIMB_2] or s[at(left, 2)] == 0
    if up1:
        return 2 if up2 else 1
    return 3 if up2 else 0


@rules_jit
def move_ok_nb(s, g, d, p, q):
    """Square q is a legal stop: reachable with this turn's movement points, and no chit or other hero on it."""
    if q < 0 or q >= g[G_N]:
        return False
    here = s[hs_at(p, HS_SQ)]
    return cost(d, g, s[SC + SC_CLIMB], here, q) <= s[SC + SC_MP] and free_square_nb(s, q, p)


@rules_jit
def record_path_nb(s, g, d, t, a, b):
    """Shortest path a -> b under table t into PATH (start first): at each square, the first neighbour in the map's
    order that lies on a shortest path ("no doubling back"; the board's NEXT_STEP table)."""
    n = 0
    cur = a
    s[at(PATH, 0)] = cur
    n = 1
    while cur != b and n < MAX_PATH:
        k = next_step(d, g, t, cur, b)
        if k >= 0:
            cur = g_nbr(g, cur, k)
        s[at(PATH, n)] = cur
        n += 1
    s[SC + SC_PATH_N] = n


@rules_jit
def move_hero_nb(s, f, g, d, p, mp):
    """Movement: the strategy names the square to stop on; returns False on an illegal answer."""
    t = climb_table_nb(s, p)
    s[SC + SC_MP] = mp
    s[SC + SC_CLIMB] = t
    here = s[hs_at(p, HS_SQ)]
    q = S.move_nb(s, f, g, d, p)
    if not move_ok_nb(s, g, d, p, q):
        illegal_nb(s, p, E.DEC_MOVE, q)
        return False
    c = cost(d, g, t, here, q)
    s[SC + SC_LEFT] = mp - c
    s[SC + SC_PATH_FROM] = here             # the path here -> q under t, recorded when read (record_path_nb)
    s[SC + SC_PATH_N] = 0
    place_hero_nb(s, p, q)
    emit_nb(s, E.EV_MOVE, p, here, q, c)
    if s.shape[0] > TRACE and q != here:   # a traced game: the path, square by square (the same path back_up_nb reads)
        record_path_nb(s, g, d, t, here, q)
        for i in range(1, s[SC + SC_PATH_N]):
            a = s[at(PATH, i - 1)]
            b = s[at(PATH, i)]
            emit_nb(s, E.EV_STEP, p, b, cost(d, g, t, a, b), 0)
    return True


@rules_jit
def encounter_candidates_nb(s, g, p):
    """The chits hero p may encounter where it stopped, into CAND: those on adjacent squares, then those directly
    behind a door when it has a movement point left. Returns how many."""
    q = s[hs_at(p, HS_SQ)]
    n = 0
    for k in range(g[G_A]):
        a = g_adj(g, q, k)
        if a < 0:
            break
        c = s[at(SQ_CHIT, a)]
        if c >= 0:
            s[at(CAND, n)] = c
            n += 1
    if s[SC + SC_LEFT] >= 1:
        for k in range(g[G_D]):
            a = g_door(g, q, k)
            if a < 0:
                break
            c = s[at(SQ_CHIT, a)]
            seen = False
            for j in range(n):
                seen |= s[at(CAND, j)] == c
            if c >= 0 and not seen:
                s[at(CAND, n)] = c
                n += 1
    s[SC + SC_N_CAND] = n
    return n


@rules_jit
def weapon_slots_nb(s, p):
    h = s[hs_at(p, HS_HERO)]
    return 2 + (s[ht_at(h, HT_ABILITY_VALUE)] if s[ht_at(h, HT_ABILITY)] == E.AB_EXTRA_WEAPON else 0)


@rules_jit
def slot_room_nb(s, p, slot):
    """Room left in a slot: one armour, two weapons (plus the hero's extra slots), one shield, any other items (up to
    what the state can hold)."""
    if s[hs_at(p, HS_N_ITEMS)] >= MAX_HELD:
        return 0
    if slot == E.SLOT_OTHER:
        return 1
    limit = weapon_slots_nb(s, p) if slot == E.SLOT_WEAPON else 1
    return limit - held_in_slot_nb(s, p, slot)


@rules_jit
def usable_nb(s, p, c):
    """Can hero p use item chit c ("Heroes can't pick up magical items they can't use")?"""
    return (s[it_at(item_of_nb(s, c), IT_USABLE)] >> s[hs_at(p, HS_HERO)]) & 1 == 1


@rules_jit
def offer_item_nb(s, f, g, p, c):
    """A revealed item: the hero takes it, leaves it face up where it lies, or takes it and gives up a carried item
    of the same slot, which then lies where the new one was (Magical Items). Returns False on an illegal answer."""
    q = s[at(CHIT_SQ, c)]
    if not usable_nb(s, p, c):
        set_loc_nb(s, c, E.LOC_FLOOR)
        emit_nb(s, E.EV_CANNOT_USE, p, c, 0, 0)
        return True
    slot = slot_of_nb(s, c)
    s[at(CAND, 0)] = E.TAKE_LEAVE
    n = 1
    if slot_room_nb(s, p, slot) > 0:
        s[at(CAND, 1)] = E.TAKE_FREE
        n = 2
    elif s[hs_at(p, HS_N_ITEMS)] < MAX_HELD or slot != E.SLOT_OTHER:
        for k in range(s[hs_at(p, HS_N_ITEMS)]):
            old = s[held_at(p, k)]
            if slot_of_nb(s, old) == slot:
                s[at(CAND, n)] = old
                n += 1
    s[SC + SC_N_CAND] = n
    i = S.take_nb(s, f, p, c)
    if i < 0 or i >= n:
        illegal_nb(s, p, E.DEC_TAKE, i)
        return False
    choice = s[at(CAND, i)]
    if choice == E.TAKE_LEAVE:
        set_loc_nb(s, c, E.LOC_FLOOR)
        emit_nb(s, E.EV_LEAVE, p, c, 0, 0)
        return True
    lift_chit_nb(s, g, c)
    carry_nb(s, p, c)
    s[icnt_at(p, item_of_nb(s, c), IC_TAKEN)] += 1
    if choice == E.TAKE_FREE:
        emit_nb(s, E.EV_TAKE, p, c, -1, 0)
        return True
    uncarry_nb(s, p, choice, E.LOC_FLOOR)
    lay_chit_nb(s, g, choice, q, E.LOC_FLOOR)
    emit_nb(s, E.EV_TAKE, p, c, choice, 0)
    emit_nb(s, E.EV_DROP, p, choice, q, 0)
    return True


@rules_jit
def free_adjacent_nb(s, g, p):
    """Free squares adjacent to hero p into CAND; returns how many."""
    q = s[hs_at(p, HS_SQ)]
    n = 0
    for k in range(g[G_A]):
        a = g_adj(g, q, k)
        if a < 0:
            break
        if free_square_nb(s, a, -1):
            s[at(CAND, n)] = a
            n += 1
    return n


@rules_jit
def any_free_adjacent_nb(s, g, p):
    """Is a square adjacent to hero p free (:func:`free_adjacent_nb` would find one)? The first free square answers."""
    q = s[hs_at(p, HS_SQ)]
    for k in range(g[G_A]):
        a = g_adj(g, q, k)
        if a < 0:
            break
        if free_square_nb(s, a, -1):
            return True
    return False


@rules_jit
def drop_phase_nb(s, f, g, p):
    """At the end of its movement a hero may drop one item on a free adjacent square (Magical Items, Dropping a
    Chit). Returns False on an illegal answer."""
    n_items = s[hs_at(p, HS_N_ITEMS)]
    if n_items == 0 or not any_free_adjacent_nb(s, g, p):
        return True
    s[at(CAND, 0)] = -1
    for k in range(n_items):
        s[at(CAND, k + 1)] = s[held_at(p, k)]
    s[SC + SC_N_CAND] = n_items + 1
    i = S.drop_nb(s, f, g, p)
    if i < 0 or i > n_items:
        illegal_nb(s, p, E.DEC_DROP, i)
        return False
    c = s[at(CAND, i)]
    if c < 0:
        return True
    n = free_adjacent_nb(s, g, p)
    s[SC + SC_N_CAND] = n
    j = S.drop_square_nb(s, f, g, p, c)
    if j < 0 or j >= n:
        illegal_nb(s, p, E.DEC_DROP_SQUARE, j)
        return False
    q = s[at(CAND, j)]
    uncarry_nb(s, p, c, E.LOC_FLOOR)
    lay_chit_nb(s, g, c, q, E.LOC_FLOOR)
    emit_nb(s, E.EV_DROP, p, c, q, 0)
    return True


@rules_jit
def respawn_nb(s, f, g, p):
    """After a death the hero restarts on a free outside square of its choice (Dying); returns the square, or -1
    on an illegal answer."""
    n = 0
    for k in range(g[G_N_OUT]):
        q = g_outside(g, k)
        if s[at(SQ_HERO, q)] < 0:
            s[at(CAND, n)] = q
            n += 1
    s[SC + SC_N_CAND] = n
    i = S.respawn_nb(s, f, g, p)
    if i < 0 or i >= n:
        illegal_nb(s, p, E.DEC_RESPAWN, i)
        return -1
    return s[at(CAND, i)]
