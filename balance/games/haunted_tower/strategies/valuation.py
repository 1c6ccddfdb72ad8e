"""What a chit, an item and an attack are worth to The Haunted Tower's heuristics (``heuristics.py``): what the seat
knows of a chit, item worth and a hero's slots, the combat arithmetic, and a chit's value as a target, with the
constants and parameter slots the heuristics share. ``targets.py`` searches the board with these values;
``heuristics.py`` makes the decisions. Every function reads the seat's view only (``view.known_content_nb``).
"""
from __future__ import annotations

from ....core.jit import rules_jit, rules_jit_flat, rules_jit_inline
from .. import enums
from . import view
from ..layout import (CHIT_BLUE, CHIT_COLOUR, CHIT_FACEUP, CHIT_ON, CHIT_SQ, HS_ATTACK, HS_DRAINS, HS_HERO, HS_HP,
                      HS_N_ITEMS, HT_ABILITY, HT_AC, IT_AC, IT_ATTACK, IT_BANE, IT_DAMAGE, IT_FLAGS, IT_HEAL, IT_SLOT,
                      IT_USABLE, IT_USES, KINDS, MAX_HELD, MT_AC, MT_ATTACK, MT_UNDEAD, N_CHITS, N_HEROES, N_ITEMS,
                      N_SLOTS, POINTS_BLUE, POINTS_PURPLE, SLOTS_OK, SPECTER_MONSTER, at, g_level, held_at, hs_at,
                      ht_at, it_at, mt_at, param_at, slots_at, worth_at)
from ...kernel_common import lowest_bit_nb
from ..rules.pieces import ability_nb, counts_nb, hit_damage_nb, may_damage_with_nb, weapon_slots_nb


LOOTER = 1
HUNTER = 2
RUSHER = 3

UNREACHABLE = 32767
NOT_WANTED = 0.0            # a chit value at or below this is not a target
NO_ATTACK = -1000.0         # attack bonus of a hero that cannot damage the monster at all

# Parameter slots (params[param_at(seat, k)]), as the StrategySpecs in the game's __init__.py declare them.
P_FLEE_HP = 0               # every heuristic: run (or drink) at this many hit points or fewer
P_POTION_HP = 1             # cautious_looter: drink a potion below this many hit points
P_PURPLE_HP = 2             # cautious_looter: go for unknown purple chits only with at least this many hit points
P_PURPLE_BONUS = 1          # monster_hunter: movement points a purple chit may lie further than a blue one
P_SPECTER_ATTACK = 2        # monster_hunter: attack bonus against the Specter needed to go for it
P_SPECTER_HP = 1            # specter_rusher: hit points needed to go for the Specter
P_LEVEL_BONUS = 2           # specter_rusher: movement points a chit one level up may lie further

# Chit values (movement points): what each heuristic walks further for.
LOOT_FLOOR = 20.0           # cautious_looter: a face-up item it wants, plus 2 x its gain
LOOT_OWN_ITEM = 18.0        # ... a face-down item it placed itself, plus 2 x its gain
LOOT_BLUE = 10.0            # ... an unknown blue chit
LOOT_PURPLE = 6.0           # ... an unknown purple chit (only with purple_hp hit points or more)
HUNT_ITEM = 4.0             # monster_hunter: an item it wants, plus its gain
HUNT_OWN_MONSTER = 10.0     # ... a monster it placed itself and can damage
HUNT_UNKNOWN = 8.0          # ... an unknown chit (purple: + purple_bonus)
HUNT_SPECTER = 40.0         # ... the revealed Specter once strong enough
RUSH_ITEM = 8.0             # specter_rusher: an item it wants, plus its gain
RUSH_OWN_MONSTER = 4.0      # ... a monster it placed itself
RUSH_UNKNOWN = 8.0          # ... an unknown chit
RUSH_TOWER3_PURPLE = 4.0    # ... more for an unknown purple chit on Tower 3 (the Specter hides among them)
RUSH_SPECTER = 60.0         # ... the revealed Specter with specter_hp hit points or more

LIMITED_USE_FACTOR = 0.75   # an attack with a limited-use item counts for this share of its expected damage
MAGICAL_WORTH = 1.5         # worth of a magical weapon's magic to a hero without the magic ability


# --- what the seat knows about a chit and an item -------------------------------------------------------------------

@rules_jit_inline
def known_item_nb(state, p, c):
    """Item index of chit c when seat p knows it is an item, else -1."""
    kind, index = view.known_content_nb(state, p, c)
    return index if kind == enums.CONTENT_ITEM else -1


@rules_jit_inline
def known_monster_nb(state, p, c):
    """Monster index of chit c when seat p knows it is a monster, else -1."""
    kind, index = view.known_content_nb(state, p, c)
    return index if kind == enums.CONTENT_MONSTER else -1


@rules_jit_inline
def is_blue_nb(state, c):
    """Blue-backed (public). The Specter's chit is purple-backed, so nothing here tells it from a purple chit."""
    return state[at(CHIT_COLOUR, c)] == enums.BLUE


@rules_jit_inline
def chit_points_nb(state, c):
    """Points the chit scores while its holder has it: a blue or a purple chit."""
    return state[POINTS_BLUE] if is_blue_nb(state, c) else state[POINTS_PURPLE]


@rules_jit_inline
def usable_item_nb(state, p, i):
    """May hero p use item i (its ``usable_by``)?"""
    return (state[it_at(i, IT_USABLE)] >> state[hs_at(p, HS_HERO)]) & 1 == 1


@rules_jit_inline
def worth_nb(state, p, i):
    """What item i is worth to hero p, apart from its chit's points (:func:`hero_worth_nb` of its hero)."""
    return hero_worth_nb(state, state[hs_at(p, HS_HERO)], i)


@rules_jit_inline
def hero_worth_nb(state, h, i):
    """What item i is worth to hero card h, apart from its chit's points: a weapon 1 + attack and damage bonuses (+1.5
    for a magical one when the hero lacks the magic ability, +0.5 silver, +0.5 a bane), armour and shields 1 + their
    armour bonus, a potion its healing / 3, holy water and wands 0.5 a use (+1 for a wand's magic to a hero without
    it), other items 1 + their armour bonus. It depends on the compiled hero and item only: compiled with them into
    params' WORTH table (:func:`fill_worth_nb`), which the target search and
    :func:`slots_fill_nb` read."""
    flags = state[it_at(i, IT_FLAGS)]
    slot = state[it_at(i, IT_SLOT)]
    magic_hero = state[ht_at(h, HT_ABILITY)] == enums.AB_MAGIC
    if slot == enums.SLOT_WEAPON:
        w = 1.0 + state[it_at(i, IT_ATTACK)] + state[it_at(i, IT_DAMAGE)]
        if (flags & enums.IF_MAGICAL) != 0 and not magic_hero:
            w += MAGICAL_WORTH
        if (flags & enums.IF_SILVER) != 0:
            w += 0.5
        if state[it_at(i, IT_BANE)] >= 0:
            w += 0.5
        return w
    if slot == enums.SLOT_ARMOR or slot == enums.SLOT_SHIELD:
        return 1.0 + state[it_at(i, IT_AC)]
    if state[it_at(i, IT_HEAL)] > 0:
        return state[it_at(i, IT_HEAL)] / 3.0
    if (flags & enums.IF_ATTACK) != 0:
        w = 0.5 * max(1, state[it_at(i, IT_USES)])
        if (flags & enums.IF_MAGIC) != 0 and not magic_hero:
            w += 1.0
        return w
    return 1.0 + state[it_at(i, IT_AC)]


@rules_jit
def fill_worth_nb(state, params):
    """params' WORTH table, compiled with the rules (``compile.compile_rules``): :func:`hero_worth_nb` of every hero
    card and item, so that a search valuing many item chits reads one number for each."""
    for h in range(state[N_HEROES]):
        for i in range(state[N_ITEMS]):
            params[worth_at(h, i)] = hero_worth_nb(state, h, i)


@rules_jit
def carried_value_nb(state, p, q, c):
    """Worth to hero p of the item on chit c (known to seat q, who is asking) plus the chit's points."""
    i = known_item_nb(state, q, c)
    if i < 0:
        return 0.0
    return worth_nb(state, p, i) + chit_points_nb(state, c)


@rules_jit_flat
def slots_nb(state, params, p):
    """Hero p's slots at a glance, for many take_gain_nb calls (one pass over its items): (room left in slot 0..3,
    then for slot 0..3 the value, worth plus points, of its worst carried item when the slot is full, else -1).
    They change only with the items it carries: kept in f (F_SLOTS) until it picks one up or loses one (SLOTS_OK).
    Inlined into every caller (the kept values are eight loads; a call returned them through memory), the pass over
    the items stays out of line (:func:`slots_fill_nb`)."""
    if state[at(SLOTS_OK, p)] == 1:
        return (params[slots_at(p, 0)], params[slots_at(p, 1)], params[slots_at(p, 2)], params[slots_at(p, 3)],
                params[slots_at(p, 4)], params[slots_at(p, 5)], params[slots_at(p, 6)], params[slots_at(p, 7)])
    return slots_fill_nb(state, params, p)


@rules_jit
def slots_fill_nb(state, params, p):
    """:func:`slots_nb` when its kept values are stale: the pass over hero p's items, kept in f (SLOTS_OK)."""
    n = state[hs_at(p, HS_N_ITEMS)]
    c0 = c1 = c2 = 0
    w0 = w1 = w2 = 1e9
    for k in range(n):
        c = state[held_at(p, k)]
        i = known_item_nb(state, p, c)
        if i < 0:
            continue
        slot = state[it_at(i, IT_SLOT)]
        v = params[worth_at(state[hs_at(p, HS_HERO)], i)] + chit_points_nb(state, c)
        if slot == enums.SLOT_ARMOR:
            c0 += 1
            w0 = min(w0, v)
        elif slot == enums.SLOT_WEAPON:
            c1 += 1
            w1 = min(w1, v)
        elif slot == enums.SLOT_SHIELD:
            c2 += 1
            w2 = min(w2, v)
    if n >= MAX_HELD:
        out = (0.0, 0.0, 0.0, 0.0, -1.0, -1.0, -1.0, -1.0)
    else:
        r0, r1, r2 = 1 - c0, weapon_slots_nb(state, p) - c1, 1 - c2
        out = (float(r0), float(r1), float(r2), 1.0, w0 if r0 <= 0 and c0 > 0 else -1.0,
               w1 if r1 <= 0 and c1 > 0 else -1.0, w2 if r2 <= 0 and c2 > 0 else -1.0, -1.0)
    for k in range(N_SLOTS):
        params[slots_at(p, k)] = out[k]
    state[at(SLOTS_OK, p)] = 1
    return out


@rules_jit_inline
def take_gain_nb(state, params, p, c, i, slots):
    """What taking item i (on chit c) gains hero p (``slots``: its slots_nb): 0 when it cannot use it or it is no
    better than the worst carried item of a full slot; its worth (params' WORTH table) plus points (+0.1) when the slot
    has room; else the difference to that worst item. The take decision takes exactly when this is above 0."""
    if not usable_item_nb(state, p, i):
        return 0.0
    v = params[worth_at(state[hs_at(p, HS_HERO)], i)] + chit_points_nb(state, c)
    slot = state[it_at(i, IT_SLOT)]
    if slots[slot] > 0:
        return 0.1 + v
    old_v = slots[4 + slot]
    if old_v < 0.0:
        return 0.0
    return max(0.0, v - old_v)


# --- combat arithmetic --------------------------------------------------------------------------------------------

@rules_jit
def attack_bonus_nb(state, p, i, m):
    """Hero p's attack-roll bonus against monster m with item i (-1: own weapon), or NO_ATTACK when that attack cannot
    damage it: attack number - "-1" chits + the item's attack bonus (when it counts) + the undead bonus."""
    if not may_damage_with_nb(state, p, i, m):
        return NO_ATTACK
    bonus = state[hs_at(p, HS_ATTACK)] - state[hs_at(p, HS_DRAINS)]
    if i >= 0 and counts_nb(state, i, m):
        bonus += state[it_at(i, IT_ATTACK)]
    if state[mt_at(m, MT_UNDEAD)] == 1:
        bonus += ability_nb(state, p, enums.AB_UNDEAD_BONUS)
    return float(bonus)


@rules_jit
def expected_damage_nb(state, p, i, m, slowed):
    """Expected damage of one attack of hero p with item i (-1: own weapon) on monster m: P(1d6 + bonus >= AC) times
    1 + damage bonuses (+ the bane damage); 0 when it cannot damage m. `slowed`: the carrion crawler's -2."""
    bonus = attack_bonus_nb(state, p, i, m)
    if bonus == NO_ATTACK:
        return 0.0
    need = state[mt_at(m, MT_AC)] - bonus + (2 if slowed else 0)       # the die must show at least this
    faces = min(6.0, max(0.0, 7.0 - need))
    return faces / 6.0 * hit_damage_nb(state, p, i, m)


@rules_jit
def specter_strength_nb(state, p):
    """Hero p's best attack bonus against the Specter over its own weapon and its attack items (NO_ATTACK when none
    can damage it): what monster_hunter compares with specter_attack."""
    m = state[SPECTER_MONSTER]
    best = attack_bonus_nb(state, p, -1, m)
    for k in range(state[hs_at(p, HS_N_ITEMS)]):
        i = known_item_nb(state, p, state[held_at(p, k)])
        if i >= 0 and (state[it_at(i, IT_FLAGS)] & enums.IF_ATTACK) != 0:
            best = max(best, attack_bonus_nb(state, p, i, m))
    return best


@rules_jit
def can_hurt_nb(state, p, m):
    """Does hero p have an attack (its own weapon or an attack item) with a positive expected damage on monster m: one
    that can damage it and hit its armour class?"""
    if expected_damage_nb(state, p, -1, m, False) > 0.0:
        return True
    for k in range(state[hs_at(p, HS_N_ITEMS)]):
        i = known_item_nb(state, p, state[held_at(p, k)])
        if i >= 0 and (state[it_at(i, IT_FLAGS)] & enums.IF_ATTACK) != 0 \
                and expected_damage_nb(state, p, i, m, False) > 0.0:
            return True
    return False


@rules_jit
def armour_class_nb(state, p, m):
    """Hero p's armour class against monster m (``combat.armour_class_nb`` with the items read as known contents)."""
    ac = state[ht_at(state[hs_at(p, HS_HERO)], HT_AC)]
    for k in range(state[hs_at(p, HS_N_ITEMS)]):
        i = known_item_nb(state, p, state[held_at(p, k)])
        if i >= 0 and counts_nb(state, i, m):
            ac += state[it_at(i, IT_AC)]
    return ac


@rules_jit
def exposed_to_nb(state, p, m):
    """Can monster m hit hero p at all (1d6 + its attack number reaching the hero's armour class)?"""
    return 6 + state[mt_at(m, MT_ATTACK)] >= armour_class_nb(state, p, m)


@rules_jit
def can_damage_nb(state, p, m):
    """Can hero p damage monster m with its own weapon or one of its attack items?"""
    if may_damage_with_nb(state, p, -1, m):
        return True
    for k in range(state[hs_at(p, HS_N_ITEMS)]):
        i = known_item_nb(state, p, state[held_at(p, k)])
        if i >= 0 and (state[it_at(i, IT_FLAGS)] & enums.IF_ATTACK) != 0 and may_damage_with_nb(state, p, i, m):
            return True
    return False


# --- chit values and targets ------------------------------------------------------------------------------------

@rules_jit_flat
def base_value_nb(state, params, p, c, slots):
    """What chit c (on the board or the floor) is worth to seat p's heuristic, in movement points, before the
    rusher's level bonuses; NOT_WANTED or less when it is not a target (docs/strategies.md lists the values)."""
    kind = state[at(KINDS, p)]
    hp = state[hs_at(p, HS_HP)]
    flee = params[param_at(p, P_FLEE_HP)]
    ck, ci = view.known_content_nb(state, p, c)
    if ck == enums.CONTENT_ITEM:
        gain = take_gain_nb(state, params, p, c, ci, slots)
        if gain <= 0.0:
            return NOT_WANTED
        if kind == LOOTER:
            return (LOOT_FLOOR if state[at(CHIT_FACEUP, c)] == 1 else LOOT_OWN_ITEM) + 2.0 * gain
        return (HUNT_ITEM if kind == HUNTER else RUSH_ITEM) + gain
    if ck == enums.CONTENT_MONSTER:
        if ci == state[SPECTER_MONSTER]:
            if not can_hurt_nb(state, p, ci):
                return NOT_WANTED
            if kind == HUNTER and hp > flee and specter_strength_nb(state, p) >= params[param_at(p, P_SPECTER_ATTACK)]:
                return HUNT_SPECTER
            if kind == RUSHER and hp >= params[param_at(p, P_SPECTER_HP)]:
                return RUSH_SPECTER
            return NOT_WANTED
        if kind == HUNTER and hp > flee and can_damage_nb(state, p, ci):
            return HUNT_OWN_MONSTER
        if kind == RUSHER and hp > flee:
            return RUSH_OWN_MONSTER
        return NOT_WANTED
    return unknown_value_nb(state, params, p, is_blue_nb(state, c))


@rules_jit_inline
def unknown_value_nb(state, params, p, blue):
    """:func:`base_value_nb` of a chit whose content seat p does not know: it depends on its colour only (blue when
    `blue`), so a search over every chit reckons it once per colour."""
    kind = state[at(KINDS, p)]
    hp = state[hs_at(p, HS_HP)]
    if kind == LOOTER:
        if blue:
            return LOOT_BLUE
        return LOOT_PURPLE if hp >= params[param_at(p, P_PURPLE_HP)] else NOT_WANTED
    if hp <= params[param_at(p, P_FLEE_HP)]:
        return NOT_WANTED
    if kind == HUNTER:
        return HUNT_UNKNOWN + (0.0 if blue else params[param_at(p, P_PURPLE_BONUS)])
    return RUSH_UNKNOWN


@rules_jit_inline
def rusher_bonus_nb(state, params, tables, p, c, level_here, v, unknown):
    """Chit c's value v (its :func:`base_value_nb`; `unknown`: seat p does not know its content) with the rusher's
    bonuses for where it lies (:func:`level_value_nb`)."""
    if v <= NOT_WANTED or state[at(KINDS, p)] != RUSHER:
        return v
    return level_value_nb(state, params, p, g_level(tables, state[at(CHIT_SQ, c)]), is_blue_nb(state, c), level_here, v,
                          unknown)


@rules_jit_inline
def level_value_nb(state, params, p, level, blue, level_here, v, unknown):
    """The value v of a chit lying on `level` (blue-backed when `blue`; `unknown`: seat p does not know its content)
    and, for the rusher when v is positive, + RUSH_TOWER3_PURPLE for an unknown purple chit on Tower 3 and
    + level_bonus for each level the chit lies above the hero. A chit whose content the seat does not know is worth
    what its colour and level make it, so a search reckons it once per colour and level."""
    if v <= NOT_WANTED or state[at(KINDS, p)] != RUSHER:
        return v
    if level == 3 and not blue and unknown:
        v += RUSH_TOWER3_PURPLE
    if level > level_here:
        v += params[param_at(p, P_LEVEL_BONUS)] * (level - level_here)
    return v


@rules_jit_inline
def chit_value_nb(state, params, tables, p, c, level_here, slots):
    """:func:`base_value_nb` with the rusher's bonuses (:func:`rusher_bonus_nb`)."""
    return rusher_bonus_nb(state, params, tables, p, c, level_here, base_value_nb(state, params, p, c, slots),
                           view.known_content_nb(state, p, c)[0] < 0)


@rules_jit
def has_other_target_nb(state, params, p):
    """Does a chit on the board or the floor have a positive value for seat p (the chit being fought is neither)?
    The board is not needed: values are positive without it, and from Tower 3, where the Specter is, every square
    can be reached. The chits whose content the seat does not know are worth their colour's value
    (:func:`unknown_value_nb`): one look at the bit sets answers for them."""
    slots = slots_nb(state, params, p)
    blue_wanted = unknown_value_nb(state, params, p, True) > NOT_WANTED
    purple_wanted = unknown_value_nb(state, params, p, False) > NOT_WANTED
    for w in range((state[N_CHITS] + 63) >> 6):
        on = state[at(CHIT_ON, w)]              # the chits on the board or the floor
        unknown = view.unknown_bits_nb(state, p, w)
        blue = state[at(CHIT_BLUE, w)]
        if (blue_wanted and (unknown & blue) != 0) or (purple_wanted and (unknown & ~blue) != 0):
            return True
        bits = on & ~unknown
        while bits != 0:
            c = (w << 6) + lowest_bit_nb(bits)
            bits &= bits - 1
            if base_value_nb(state, params, p, c, slots) > NOT_WANTED:
                return True
    return False


