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
from .. import enums
from .. import strategies
from ..layout import (CAND, CHIT_FACEUP, CHIT_SQ, CLIMB_FROM_1, CLIMB_FROM_2, CLIMB_TABLE, GATE_OPENS, G_A, G_D, G_N,
                      G_N_OUT, HS_HERO, HS_N_ITEMS, HS_SQ, HT_ABILITY, HT_ABILITY_VALUE, IC_TAKEN, IT_USABLE,
                      LEVEL_CHITS, LEVEL_HIDDEN, MAX_HELD, MAX_PATH, MOVEMENT_POINTS, N_CANDIDATES, PATH, PATH_FROM,
                      PATH_LENGTH, POINTS_LEFT, SQ_CHIT, SQ_HERO, TRACE, at, cost, g_adj, g_door, g_nbr, g_outside,
                      held_at, hs_at, ht_at, icnt_at, it_at, next_step)
from .pieces import (climb_table_nb, weapon_slots_nb, carry_nb, chit_count_nb, emit_nb, free_square_nb, held_in_slot_nb, illegal_nb, item_of_nb,
                     lay_chit_nb, lift_chit_nb, place_hero_nb, set_loc_nb, slot_of_nb, uncarry_nb)

UNREACHABLE = 32767


@rules_jit
def move_ok_nb(state, tables, costs, p, q):
    """Square q is a legal stop: reachable with this turn's movement points, and no chit or other hero on it."""
    if q < 0 or q >= tables[G_N]:
        return False
    here = state[hs_at(p, HS_SQ)]
    return cost(costs, tables, state[CLIMB_TABLE], here, q) <= state[MOVEMENT_POINTS] and free_square_nb(state, q, p)


@rules_jit
def record_path_nb(state, tables, costs, t, a, b):
    """Shortest path a -> b under table t into PATH (start first): at each square, the first neighbour in the map's
    order that lies on a shortest path ("no doubling back"; the board's NEXT_STEP table)."""
    n = 0
    cur = a
    state[at(PATH, 0)] = cur
    n = 1
    while cur != b and n < MAX_PATH:
        k = next_step(costs, tables, t, cur, b)
        if k >= 0:
            cur = g_nbr(tables, cur, k)
        state[at(PATH, n)] = cur
        n += 1
    state[PATH_LENGTH] = n


@rules_jit
def movement_nb(state, p, mp):
    """This turn's movement: `mp` points under the climbing table the hero's chits allow (``SC_MP``, ``SC_CLIMB``)."""
    state[MOVEMENT_POINTS] = mp
    state[CLIMB_TABLE] = climb_table_nb(state, p)


@rules_jit
def move_to_nb(state, tables, costs, p, q):
    """Movement: the hero stops on square q, the square its strategy named; returns False on an illegal answer."""
    t = state[CLIMB_TABLE]
    here = state[hs_at(p, HS_SQ)]
    if not move_ok_nb(state, tables, costs, p, q):
        illegal_nb(state, p, enums.DEC_MOVE, q)
        return False
    c = cost(costs, tables, t, here, q)
    state[POINTS_LEFT] = state[MOVEMENT_POINTS] - c
    state[PATH_FROM] = here             # the path here -> q under t, recorded when read (record_path_nb)
    state[PATH_LENGTH] = 0
    place_hero_nb(state, p, q)
    emit_nb(state, enums.EV_MOVE, p, here, q, c)
    if state.shape[0] > TRACE and q != here:   # a traced game: the path, square by square (as back_up_nb reads it)
        record_path_nb(state, tables, costs, t, here, q)
        for i in range(1, state[PATH_LENGTH]):
            a = state[at(PATH, i - 1)]
            b = state[at(PATH, i)]
            emit_nb(state, enums.EV_STEP, p, b, cost(costs, tables, t, a, b), 0)
    return True


@rules_jit
def move_hero_nb(state, params, tables, costs, p, mp):
    """Movement with `mp` points: the strategy names the square to stop on; returns False on an illegal answer."""
    movement_nb(state, p, mp)
    return move_to_nb(state, tables, costs, p, strategies.move_nb(state, params, tables, costs, p))


@rules_jit
def encounter_candidates_nb(state, tables, p):
    """The chits hero p may encounter where it stopped, into CAND: those on adjacent squares, then those directly
    behind a door when it has a movement point left. Returns how many."""
    q = state[hs_at(p, HS_SQ)]
    n = 0
    for k in range(tables[G_A]):
        a = g_adj(tables, q, k)
        if a < 0:
            break
        c = state[at(SQ_CHIT, a)]
        if c >= 0:
            state[at(CAND, n)] = c
            n += 1
    if state[POINTS_LEFT] >= 1:
        for k in range(tables[G_D]):
            a = g_door(tables, q, k)
            if a < 0:
                break
            c = state[at(SQ_CHIT, a)]
            seen = False
            for j in range(n):
                seen |= state[at(CAND, j)] == c
            if c >= 0 and not seen:
                state[at(CAND, n)] = c
                n += 1
    state[N_CANDIDATES] = n
    return n


@rules_jit
def slot_room_nb(state, p, slot):
    """Room left in a slot: one armour, two weapons (plus the hero's extra slots), one shield, any other items (up to
    what the state can hold)."""
    if state[hs_at(p, HS_N_ITEMS)] >= MAX_HELD:
        return 0
    if slot == enums.SLOT_OTHER:
        return 1
    limit = weapon_slots_nb(state, p) if slot == enums.SLOT_WEAPON else 1
    return limit - held_in_slot_nb(state, p, slot)


@rules_jit
def usable_nb(state, p, c):
    """Can hero p use item chit c ("Heroes can't pick up magical items they can't use")?"""
    return (state[it_at(item_of_nb(state, c), IT_USABLE)] >> state[hs_at(p, HS_HERO)]) & 1 == 1


@rules_jit
def offer_item_nb(state, params, tables, p, c):
    """A revealed item: the hero takes it, leaves it face up where it lies, or takes it and gives up a carried item
    of the same slot, which then lies where the new one was (Magical Items). Returns False on an illegal answer."""
    q = state[at(CHIT_SQ, c)]
    if not usable_nb(state, p, c):
        set_loc_nb(state, c, enums.LOC_FLOOR)
        emit_nb(state, enums.EV_CANNOT_USE, p, c, 0, 0)
        return True
    slot = slot_of_nb(state, c)
    state[at(CAND, 0)] = enums.TAKE_LEAVE
    n = 1
    if slot_room_nb(state, p, slot) > 0:
        state[at(CAND, 1)] = enums.TAKE_FREE
        n = 2
    elif state[hs_at(p, HS_N_ITEMS)] < MAX_HELD or slot != enums.SLOT_OTHER:
        for k in range(state[hs_at(p, HS_N_ITEMS)]):
            old = state[held_at(p, k)]
            if slot_of_nb(state, old) == slot:
                state[at(CAND, n)] = old
                n += 1
    state[N_CANDIDATES] = n
    i = strategies.take_nb(state, params, p, c)
    if i < 0 or i >= n:
        illegal_nb(state, p, enums.DEC_TAKE, i)
        return False
    choice = state[at(CAND, i)]
    if choice == enums.TAKE_LEAVE:
        set_loc_nb(state, c, enums.LOC_FLOOR)
        emit_nb(state, enums.EV_LEAVE, p, c, 0, 0)
        return True
    lift_chit_nb(state, tables, c)
    carry_nb(state, p, c)
    state[icnt_at(p, item_of_nb(state, c), IC_TAKEN)] += 1
    if choice == enums.TAKE_FREE:
        emit_nb(state, enums.EV_TAKE, p, c, -1, 0)
        return True
    uncarry_nb(state, p, choice, enums.LOC_FLOOR)
    lay_chit_nb(state, tables, choice, q, enums.LOC_FLOOR)
    emit_nb(state, enums.EV_TAKE, p, c, choice, 0)
    emit_nb(state, enums.EV_DROP, p, choice, q, 0)
    return True


@rules_jit
def free_adjacent_nb(state, tables, p):
    """Free squares adjacent to hero p into CAND; returns how many."""
    q = state[hs_at(p, HS_SQ)]
    n = 0
    for k in range(tables[G_A]):
        a = g_adj(tables, q, k)
        if a < 0:
            break
        if free_square_nb(state, a, -1):
            state[at(CAND, n)] = a
            n += 1
    return n


@rules_jit
def any_free_adjacent_nb(state, tables, p):
    """Is a square adjacent to hero p free (:func:`free_adjacent_nb` would find one)? The first free square answers."""
    q = state[hs_at(p, HS_SQ)]
    for k in range(tables[G_A]):
        a = g_adj(tables, q, k)
        if a < 0:
            break
        if free_square_nb(state, a, -1):
            return True
    return False


@rules_jit
def drop_phase_nb(state, params, tables, p):
    """At the end of its movement a hero may drop one item on a free adjacent square (Magical Items, Dropping a
    Chit). Returns False on an illegal answer."""
    n_items = state[hs_at(p, HS_N_ITEMS)]
    if n_items == 0 or not any_free_adjacent_nb(state, tables, p):
        return True
    state[at(CAND, 0)] = -1
    for k in range(n_items):
        state[at(CAND, k + 1)] = state[held_at(p, k)]
    state[N_CANDIDATES] = n_items + 1
    i = strategies.drop_nb(state, params, tables, p)
    if i < 0 or i > n_items:
        illegal_nb(state, p, enums.DEC_DROP, i)
        return False
    c = state[at(CAND, i)]
    if c < 0:
        return True
    n = free_adjacent_nb(state, tables, p)
    state[N_CANDIDATES] = n
    j = strategies.drop_square_nb(state, params, tables, p, c)
    if j < 0 or j >= n:
        illegal_nb(state, p, enums.DEC_DROP_SQUARE, j)
        return False
    q = state[at(CAND, j)]
    uncarry_nb(state, p, c, enums.LOC_FLOOR)
    lay_chit_nb(state, tables, c, q, enums.LOC_FLOOR)
    emit_nb(state, enums.EV_DROP, p, c, q, 0)
    return True


@rules_jit
def respawn_nb(state, params, tables, p):
    """After a death the hero restarts on a free outside square of its choice (Dying); returns the square, or -1
    on an illegal answer."""
    n = 0
    for k in range(tables[G_N_OUT]):
        q = g_outside(tables, k)
        if state[at(SQ_HERO, q)] < 0:
            state[at(CAND, n)] = q
            n += 1
    state[N_CANDIDATES] = n
    i = strategies.respawn_nb(state, params, tables, p)
    if i < 0 or i >= n:
        illegal_nb(state, p, enums.DEC_RESPAWN, i)
        return -1
    return state[at(CAND, i)]
