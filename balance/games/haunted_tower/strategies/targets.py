"""The Haunted Tower heuristics' target search (``heuristics.py``, Targets and Moving): the chit a hero goes for
(``best_target_nb``), where it can stop to encounter it, and the walk toward it, with the values of ``valuation.py``.
"""
from __future__ import annotations

from ....core.jit import rules_jit, rules_jit_flat, rules_jit_inline
from .. import enums
from . import view
from . import valuation
from ..layout import (CHIT_BLUE, CHIT_FACEUP, CHIT_LOC, CHIT_ON, CHIT_SQ, G_A, G_D, G_E, G_N, NEXT_STEP, N_CHITS,
                      N_LEVELS, SQ_CHIT, SQ_HERO, at, cost, g_adj, g_door, g_entry, g_level, g_nbr, g_nbr_cost,
                      level_bits_at, next_step)
from ...kernel_common import lowest_bit_nb, prefetch_run_nb


@rules_jit_inline
def free_for_nb(state, q, p):
    """No chit on square q and no hero there but p."""
    h = state[at(SQ_HERO, q)]
    return state[at(SQ_CHIT, q)] < 0 and (h < 0 or h == p)


@rules_jit_inline
def stop_next_to_nb(state, tables, costs, p, here, t, x):
    """The square from which hero p (on `here`, climbing table t) can encounter a chit on square x most cheaply: a
    free square adjacent to x, or across a door from it (which needs a movement point left, counted in). Returns
    (square, movement points needed), or (-1, UNREACHABLE) when no such square is free and reachable."""
    best = -1
    best_need = valuation.UNREACHABLE
    for k in range(tables[G_A]):
        a = g_adj(tables, x, k)
        if a < 0:
            break
        if free_for_nb(state, a, p):
            need = cost(costs, tables, t, here, a)
            if need < best_need:
                best = a
                best_need = need
    for k in range(tables[G_D]):
        a = g_door(tables, x, k)
        if a < 0:
            break
        if free_for_nb(state, a, p):
            need = cost(costs, tables, t, here, a) + 1
            if need < best_need:
                best = a
                best_need = need
    if best_need >= valuation.UNREACHABLE:
        return -1, valuation.UNREACHABLE
    return best, best_need


@rules_jit_inline
def has_stop_nb(state, tables, costs, p, here, t, x):
    """Is there a square from which hero p can encounter a chit on square x (:func:`stop_next_to_nb` finds one)?
    The first free reachable square answers, where stop_next_to_nb looks at every one for the cheapest: the chit
    search asks this for every chit that would be its best so far."""
    for k in range(tables[G_A]):
        a = g_adj(tables, x, k)
        if a < 0:
            break
        if free_for_nb(state, a, p) and cost(costs, tables, t, here, a) < valuation.UNREACHABLE:
            return True
    for k in range(tables[G_D]):
        a = g_door(tables, x, k)
        if a < 0:
            break
        if free_for_nb(state, a, p) and cost(costs, tables, t, here, a) + 1 < valuation.UNREACHABLE:
            return True
    return False


@rules_jit_inline
def fallback_ok_nb(state, p, c):
    """May hero p fall back on chit c (on the board) when it wants nothing: a face-down chit, or the revealed
    Specter when the fight can end: the hero has an attack that can hurt it, or the Specter can hit the hero (a hero
    with nothing left to do charges it and ends its own game; the rest of the table plays on)."""
    m = valuation.known_monster_nb(state, p, c)
    return state[at(CHIT_FACEUP, c)] == 0 or (m >= 0 and (valuation.can_hurt_nb(state, p, m)
                                                          or valuation.exposed_to_nb(state, p, m)))


@rules_jit_inline
def level_bound_nb(costs, tables, t, here, level):
    """The least movement cost under table t from square `here`, on another level, to any square of `level`: the
    cheapest of the level's entry squares (``layout.G_ENTRY``), since every path onto the level passes one and costs
    are never negative; UNREACHABLE when none can be reached."""
    bound = valuation.UNREACHABLE
    for k in range(tables[G_E]):
        e = g_entry(tables, level, k)
        if e < 0:
            break
        bound = min(bound, cost(costs, tables, t, here, e))
    return bound


@rules_jit_flat
def scan_chits_nb(state, params, tables, costs, p, here, t, level_here, slots, w, bits, group, v_group, bound, found):
    """:func:`best_target_nb`'s look at the chits of word w in `bits`, one of its groups: 0, the chits seat p knows
    the content of; 1 or 2, those it does not know on one level, blue or purple, whose value is v_group and whose
    cost is at least `bound`. `found`: (best, best_score, fallback, fallback_cost) so far, returned updated.
    Inlined into each of its calls, with `group` known.

    An unknown group is passed over whole once a wanted chit is found and no chit of the group can beat that chit's
    score (its value less the least cost), or the group is not wanted at all (a fallback is only needed while no
    chit is wanted)."""
    best, best_score, fallback, fallback_cost = found
    if group != 0 and best >= 0 and (v_group <= valuation.NOT_WANTED or v_group - bound < best_score):
        return found
    while bits != 0:
        c = (w << 6) + lowest_bit_nb(bits)
        bits &= bits - 1
        x = state[at(CHIT_SQ, c)]
        k = cost(costs, tables, t, here, x)
        if k >= valuation.UNREACHABLE:
            continue
        v = valuation.rusher_bonus_nb(state, params, tables, p, c, level_here,
                                      valuation.base_value_nb(state, params, p, c, slots), False) if group == 0 \
            else v_group
        if v > valuation.NOT_WANTED:
            score = v - k
            if (best < 0 or score > best_score or (score == best_score and c < best)) \
                    and has_stop_nb(state, tables, costs, p, here, t, x):
                best = c
                best_score = score
        elif best < 0 and state[at(CHIT_LOC, c)] == enums.LOC_BOARD \
                and (k < fallback_cost or (k == fallback_cost and c < fallback)) \
                and fallback_ok_nb(state, p, c) and has_stop_nb(state, tables, costs, p, here, t, x):
            fallback = c
            fallback_cost = k
    return best, best_score, fallback, fallback_cost


@rules_jit
def best_target_nb(state, params, tables, costs, p, here, t):
    """The chit hero p goes for from square `here` under climbing table t: (chit, wanted). Wanted: the reachable chit
    of best value - cost among those of positive value that have a free square to encounter them from (the first chit
    on a tie). Else (wanted False) the nearest reachable face-down chit or revealed Specter that has one (the first
    on a tie); -1 when there is none either.

    The chits on the board or the floor are taken in groups (bit sets): those whose content seat p knows, then those
    it does not know by level (the hero's own first) and colour, whose value is the colour's (:func:`unknown_value_nb`)
    with the rusher's bonus for the level and needs no look at the chit. A level none of whose squares the hero can
    reach is passed over whole; so is a group of another level that cannot beat the best chit found, reckoned with
    the least cost onto that level (:func:`level_bound_nb`). A tie is broken by chit number, so the order does not
    matter."""
    n = tables[G_N]
    prefetch_run_nb(costs, (t * n + here) * n, n)      # the costs from here, read below for scattered chits
    level_here = g_level(tables, here)
    slots = valuation.slots_nb(state, params, p)
    blue_v = valuation.unknown_value_nb(state, params, p, True)     # what a chit of unknown content is worth, by colour
    purple_v = valuation.unknown_value_nb(state, params, p, False)
    n_words = (state[N_CHITS] + 63) >> 6
    found = (-1, 0.0, -1, valuation.UNREACHABLE)
    for w in range(n_words):
        on = state[at(CHIT_ON, w)]              # the chits on the board or the floor
        found = scan_chits_nb(state, params, tables, costs, p, here, t, level_here, slots, w,
                              on & ~view.unknown_bits_nb(state, p, w), 0, 0.0, 0, found)
    for j in range(N_LEVELS):
        level = level_here + j              # the hero's level first, then the next ones up (round to Tower 1)
        if level > N_LEVELS:
            level -= N_LEVELS
        bound = 0 if j == 0 else level_bound_nb(costs, tables, t, here, level)
        if bound >= valuation.UNREACHABLE:
            continue
        v_blue = valuation.level_value_nb(state, params, p, level, True, level_here, blue_v, True)
        v_purple = valuation.level_value_nb(state, params, p, level, False, level_here, purple_v, True)
        for w in range(n_words):
            unknown = view.unknown_bits_nb(state, p, w) & state[level_bits_at(level, w)]
            blue = state[at(CHIT_BLUE, w)]
            found = scan_chits_nb(state, params, tables, costs, p, here, t, level_here, slots, w,
                                  unknown & blue, 1, v_blue, bound, found)
            found = scan_chits_nb(state, params, tables, costs, p, here, t, level_here, slots, w,
                                  unknown & ~blue, 2, v_purple, bound, found)
    best, _, fallback, _ = found
    if best >= 0:
        return best, True
    return fallback, False


@rules_jit_inline
def walk_toward_nb(state, tables, costs, p, here, t, mp, goal):
    """Walk the shortest path from `here` toward `goal` under table t (at each square the first neighbour in the
    map's order on a shortest path, as the kernel records paths: the board's NEXT_STEP table) while the points last;
    the last free square walked onto (`here` when none)."""
    n = tables[G_N]
    prefetch_run_nb(costs, NEXT_STEP * n * n + (((t * n + goal) * n) >> 1), (n >> 1) + 1)   # the steps toward goal
    cur = here
    spent = 0
    last = here
    while cur != goal:
        k = next_step(costs, tables, t, cur, goal)
        if k < 0:
            break
        step = g_nbr_cost(tables, cur, k)
        if spent + step > mp:
            break
        spent += step
        cur = g_nbr(tables, cur, k)
        if free_for_nb(state, cur, p):
            last = cur
    return last


