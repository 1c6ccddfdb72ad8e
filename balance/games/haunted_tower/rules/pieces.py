"""The Haunted Tower's pieces as the kernel moves them: the trace, the dice, chits between places, heroes on squares.

Every rule module (``setup``, ``movement``, ``combat``, ``turn``) changes the state only through these functions,
so that the bookkeeping each move implies (which square holds what, how many chits lie on a level, what a hero
has for the level gates and the score) is written once.
"""
from __future__ import annotations

import numpy as np

from ....core.jit import rules_jit
from ...kernel_common import emit_at_nb
from ....core.rng import flat_below_nb
from .. import enums
from ..layout import (CLIMB_FROM_1, CLIMB_FROM_2, GATE_OPENS, CHIT_COLOUR, CHIT_FACEUP, CHIT_HIDDEN, CHIT_INDEX, CHIT_KIND,
                      CHIT_LOC, CHIT_ON, CHIT_OWNER,
                      CHIT_PLACER, CHIT_SQ, CHIT_USES, DICE_SCRIPT, ERROR, HS_BLUE, HS_HERO, HS_KEPT_BLUE,
                      HS_KEPT_PURPLE, HS_N_ITEMS, HS_PURPLE, HS_SQ, HS_STANDUPS, HT_ABILITY, HT_ABILITY_VALUE, IT_BANE,
                      IT_BANE_DAMAGE, IT_DAMAGE, IT_FLAGS, IT_SLOT, IT_USES, LEVEL_CHITS, LEVEL_HIDDEN, MAX_HELD,
                      MT_IGNORES_METAL, MT_ONLY_BY, M_DICE_I, M_DICE_N, M_TRACE, N_CHITS, SLOTS_OK, SQ_CHIT, SQ_HERO,
                      TRACE, at, g_level, held_at, hs_at, ht_at, it_at, level_bits_at, mt_at, placed_at, stream_at)

DICE = 0                 # stream 0: the dice; stream 1: shuffles; 2 + seat: that seat's strategy
SHUFFLE = 1


@rules_jit
def emit_nb(state, kind, player, a, b, c):
    """Record one trace event when `state` carries a trace region (the count goes on, so overflow is visible)."""
    emit_at_nb(state, TRACE, M_TRACE, kind, player, a, b, c)


@rules_jit
def die_nb(state, faces):
    """One die of `faces` faces (1d6, 1d10 with 10 for the '0'): the test script while it lasts, else one word of
    the dice stream."""
    i = state[M_DICE_I]
    if i < state[M_DICE_N]:
        state[M_DICE_I] = i + 1
        return state[at(DICE_SCRIPT, i)]
    return flat_below_nb(state, stream_at(DICE), faces) + 1


@rules_jit
def illegal_nb(state, p, decision, answer):
    """A strategy answered with something the rules do not allow: recorded, and the game stops unfinished."""
    if state[ERROR] == 0:
        state[ERROR] = decision
        emit_nb(state, enums.EV_ILLEGAL, p, decision, answer, 0)


# --- chits ------------------------------------------------------------------------------------------------------

@rules_jit
def set_loc_nb(state, c, loc):
    """Chit c is now at `loc` (enums.LOC_*): every write of ``CHIT_LOC`` goes through here, so that ``CHIT_ON``, the
    bit set of the chits on the board or the floor that a search over the board's chits walks, stays in step."""
    state[at(CHIT_LOC, c)] = loc
    w = at(CHIT_ON, c >> 6)
    bit = np.int64(1) << (c & 63)
    if loc == enums.LOC_BOARD or loc == enums.LOC_FLOOR:
        state[w] |= bit
    else:
        state[w] &= ~bit


@rules_jit
def lay_chit_nb(state, tables, c, q, loc):
    """Chit c lies on square q: face down (LOC_BOARD) or a revealed item on the floor (LOC_FLOOR). The level's chit
    counts follow (LEVEL_HIDDEN counts the chits still face down), and its CHIT_LEVEL bit set: with
    :func:`lift_chit_nb` the only writers of ``CHIT_SQ`` after a game's reset."""
    state[at(SQ_CHIT, q)] = c
    state[at(CHIT_SQ, c)] = q
    set_loc_nb(state, c, loc)
    state[at(CHIT_OWNER, c)] = -1
    level = g_level(tables, q)
    state[level_bits_at(level, c >> 6)] |= np.int64(1) << (c & 63)
    state[at(LEVEL_CHITS, level)] += 1
    state[at(LEVEL_HIDDEN, level)] += state[at(CHIT_FACEUP, c)] == 0


@rules_jit
def turn_up_nb(state, c):
    """Chit c is face up from now on: every write of ``CHIT_FACEUP`` 1 goes through here, so that ``CHIT_HIDDEN``,
    the bit set of the chits still face down, stays in step (only a game's reset turns chits face down)."""
    state[at(CHIT_FACEUP, c)] = 1
    state[at(CHIT_HIDDEN, c >> 6)] &= ~(np.int64(1) << (c & 63))


@rules_jit
def set_placer_nb(state, c, p):
    """Seat p (-1: none) placed chit c knowing its content: every write of ``CHIT_PLACER`` after a game's reset goes
    through here, so that each seat's ``CHIT_PLACED`` bits stay in step."""
    bit = np.int64(1) << (c & 63)
    old = state[at(CHIT_PLACER, c)]
    if old >= 0:
        state[placed_at(old, c >> 6)] &= ~bit
    state[at(CHIT_PLACER, c)] = p
    if p >= 0:
        state[placed_at(p, c >> 6)] |= bit


@rules_jit
def reveal_nb(state, tables, c):
    """Chit c lying on the board is turned face up."""
    if state[at(CHIT_FACEUP, c)] == 0:
        turn_up_nb(state, c)
        state[at(LEVEL_HIDDEN, g_level(tables, state[at(CHIT_SQ, c)]))] -= 1


@rules_jit
def lift_chit_nb(state, tables, c):
    """Chit c leaves its square (to a hero, the fight, or out of the game)."""
    q = state[at(CHIT_SQ, c)]
    if q >= 0:
        level = g_level(tables, q)
        state[at(SQ_CHIT, q)] = -1
        state[at(LEVEL_CHITS, level)] -= 1
        state[at(LEVEL_HIDDEN, level)] -= state[at(CHIT_FACEUP, c)] == 0
        state[level_bits_at(level, c >> 6)] &= ~(np.int64(1) << (c & 63))
        state[at(CHIT_SQ, c)] = -1


@rules_jit
def is_specter_nb(state, c):
    """The Specter of Sir Jameson's chit (the last chit). Its back is purple, like the other purple chits
    (``CHIT_COLOUR``), so a strategy cannot tell it from them before it is revealed."""
    return c == state[N_CHITS] - 1


@rules_jit
def is_purple_nb(state, c):
    """Purple-backed (the Specter's chit is purple-backed too): worth two blue chits and two points."""
    return state[at(CHIT_COLOUR, c)] != enums.BLUE


@rules_jit
def own_chit_nb(state, p, c, loc):
    """Seat p now has chit c (an item it carries, or a monster chit it kept): counted for the gates and points."""
    set_loc_nb(state, c, loc)
    state[at(CHIT_OWNER, c)] = p
    if is_purple_nb(state, c):
        state[hs_at(p, HS_PURPLE)] += 1
    else:
        state[hs_at(p, HS_BLUE)] += 1


@rules_jit
def disown_chit_nb(state, p, c, loc):
    """Seat p no longer has chit c, which goes to `loc` (the floor, another hero, or out of the game)."""
    if is_purple_nb(state, c):
        state[hs_at(p, HS_PURPLE)] -= 1
    else:
        state[hs_at(p, HS_BLUE)] -= 1
    set_loc_nb(state, c, loc)
    state[at(CHIT_OWNER, c)] = -1


@rules_jit
def carry_nb(state, p, c):
    """Hero p picks up item chit c (it now carries it: the items list HELD, in the order taken)."""
    state[at(SLOTS_OK, p)] = 0
    n = state[hs_at(p, HS_N_ITEMS)]
    state[held_at(p, n)] = c
    state[hs_at(p, HS_N_ITEMS)] = n + 1
    turn_up_nb(state, c)
    own_chit_nb(state, p, c, enums.LOC_HELD)


@rules_jit
def uncarry_nb(state, p, c, loc):
    """Hero p no longer carries item c; the later items move up one place."""
    state[at(SLOTS_OK, p)] = 0
    n = state[hs_at(p, HS_N_ITEMS)]
    k = 0
    while k < n and state[held_at(p, k)] != c:
        k += 1
    for j in range(k, n - 1):
        state[held_at(p, j)] = state[held_at(p, j + 1)]
    state[hs_at(p, HS_N_ITEMS)] = n - 1
    disown_chit_nb(state, p, c, loc)


@rules_jit
def keep_monster_nb(state, p, c):
    """Hero p killed the monster on chit c: it keeps the chit and the stand-up."""
    own_chit_nb(state, p, c, enums.LOC_KEPT)
    state[hs_at(p, HS_STANDUPS)] += 1
    if state[at(CHIT_COLOUR, c)] == enums.BLUE:
        state[hs_at(p, HS_KEPT_BLUE)] += 1
    elif not is_specter_nb(state, c):                       # the Specter's chit is not paid for experience
        state[hs_at(p, HS_KEPT_PURPLE)] += 1


@rules_jit
def chit_count_nb(state, p):
    """Blue-chit equivalents for the level gates: blue chits plus two for each purple one (Climbing)."""
    return state[hs_at(p, HS_BLUE)] + 2 * state[hs_at(p, HS_PURPLE)]


@rules_jit
def item_of_nb(state, c):
    """Item index of an item chit."""
    return state[at(CHIT_INDEX, c)]


@rules_jit
def is_item_nb(state, c):
    return state[at(CHIT_KIND, c)] == enums.CONTENT_ITEM


@rules_jit
def slot_of_nb(state, c):
    return state[it_at(state[at(CHIT_INDEX, c)], IT_SLOT)]


@rules_jit
def reset_uses_nb(state, c):
    """A limited item's uses as printed (set when the chit is revealed)."""
    if state[at(CHIT_KIND, c)] == enums.CONTENT_ITEM:
        state[at(CHIT_USES, c)] = state[it_at(state[at(CHIT_INDEX, c)], IT_USES)]


@rules_jit
def held_in_slot_nb(state, p, slot):
    """Items of `slot` hero p carries."""
    n = 0
    for k in range(state[hs_at(p, HS_N_ITEMS)]):
        n += slot_of_nb(state, state[held_at(p, k)]) == slot
    return n


# --- heroes -----------------------------------------------------------------------------------------------------

@rules_jit
def ability_nb(state, p, kind):
    """Hero p's ability value when its card's ability is `kind`, else 0 (and 1 for the magic ability, which has
    none). The cards are public: the heuristics read them through this too."""
    h = state[hs_at(p, HS_HERO)]
    if state[ht_at(h, HT_ABILITY)] != kind:
        return 0
    return max(1, state[ht_at(h, HT_ABILITY_VALUE)]) if kind == enums.AB_MAGIC else state[ht_at(h, HT_ABILITY_VALUE)]


@rules_jit
def may_damage_with_nb(state, p, item, m):
    """Can an attack of hero p with item `item` (an item index; -1: its own weapon) damage monster m ("Can only be
    damaged by": magic, a magical weapon, silver, holy water; the item's bane always can)? The heuristics ask it with
    the item index the seat knows."""
    only = state[mt_at(m, MT_ONLY_BY)]
    if only == 0:
        return True
    kinds = enums.BY_MAGIC if ability_nb(state, p, enums.AB_MAGIC) > 0 else 0
    if item >= 0:
        flags = state[it_at(item, IT_FLAGS)]
        if state[it_at(item, IT_BANE)] == m:
            return True
        kinds |= (enums.BY_MAGIC if flags & enums.IF_MAGIC else 0) \
            | (enums.BY_MAGIC_WEAPON if flags & enums.IF_MAGICAL else 0)
        kinds |= (enums.BY_SILVER if flags & enums.IF_SILVER else 0) | (enums.BY_HOLY if flags & enums.IF_HOLY else 0)
    return (kinds & only) != 0


@rules_jit
def counts_nb(state, item, m):
    """Does item `item`'s bonus count against monster m? Not a metal item's against the rust monster."""
    return not ((state[it_at(item, IT_FLAGS)] & enums.IF_METAL) != 0 and state[mt_at(m, MT_IGNORES_METAL)] == 1)


@rules_jit
def hit_damage_nb(state, p, item, m):
    """The damage of a hit of hero p with item `item` (an item index; -1: its own weapon) on monster m, one it may
    damage (Damage): 1, + its card's damage bonus, + the item's damage bonus when it counts, + the bane damage on the
    item's bane."""
    dmg = 1 + ability_nb(state, p, enums.AB_DAMAGE_BONUS)
    if item >= 0:
        if counts_nb(state, item, m):
            dmg += state[it_at(item, IT_DAMAGE)]
        if state[it_at(item, IT_BANE)] == m:
            dmg += state[it_at(item, IT_BANE_DAMAGE)]
    return dmg


@rules_jit
def place_hero_nb(state, p, q):
    """Hero p stands on square q (leaving the square it was on)."""
    old = state[hs_at(p, HS_SQ)]
    if old >= 0 and state[at(SQ_HERO, old)] == p:
        state[at(SQ_HERO, old)] = -1
    state[hs_at(p, HS_SQ)] = q
    if q >= 0:
        state[at(SQ_HERO, q)] = p


@rules_jit
def free_square_nb(state, q, p):
    """No chit on square q and no hero but (possibly) p."""
    h = state[at(SQ_HERO, q)]
    return state[at(SQ_CHIT, q)] < 0 and (h < 0 or h == p)


MAX_ITEMS_CARRIED = MAX_HELD


@rules_jit
def climb_table_nb(state, p):
    """Which of the board's climbing tables the hero moves under (Climbing to a New Level): 0 never up, 1 up from
    Tower 1 only, 2 up from Tower 1 and 2, 3 up from Tower 2 only (a hero who went up, then lost chits, and finds
    Tower 2 empty)."""
    count = chit_count_nb(state, p)
    left = LEVEL_HIDDEN if state[GATE_OPENS] == enums.GATE_REVEALED else LEVEL_CHITS    # what keeps a gate shut
    up1 = count >= state[CLIMB_FROM_1] or state[at(left, 1)] == 0
    up2 = count >= state[CLIMB_FROM_2] or state[at(left, 2)] == 0
    if up1:
        return 2 if up2 else 1
    return 3 if up2 else 0


@rules_jit
def weapon_slots_nb(state, p):
    h = state[hs_at(p, HS_HERO)]
    return 2 + (state[ht_at(h, HT_ABILITY_VALUE)] if state[ht_at(h, HT_ABILITY)] == enums.AB_EXTRA_WEAPON else 0)
