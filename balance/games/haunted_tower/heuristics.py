"""The Haunted Tower's heuristic strategies: ``cautious_looter`` (kind 1), ``monster_hunter`` (2) and
``specter_rusher`` (3). ``strategies.py`` dispatches every decision of a seat playing one of them to the function of
the same name here; ``docs/strategies.md`` (The Haunted Tower) states the rules below in words, with the parameters.

All three share one frame and differ in how much a chit is worth to them (:func:`chit_value_nb`), when they run, drink
and trade in, and where they place their chits:

* **Targets.** A chit is *wanted* when its value (in movement points the hero would walk further for it) is above 0.
  The move goes for the wanted chit of best ``value - cost`` (cost: movement cost from the hero to the chit's square
  under this turn's climbing table); with none wanted anywhere the hero can reach, it falls back on the nearest chit it
  can encounter at all (a face-down chit, or the revealed Specter when that fight can end: the hero can hurt it or it
  can hit the hero), so that every table ends up fighting the Specter and games end. The encounter takes the
  adjacent wanted chit of highest value, or in fallback the fallback target (or the first other fallback chit next to
  it). Move and encounter use the same values, so a hero never walks to a chit it then refuses.
* **Moving.** The hero stops on the free square next to the target (or across a door from it, with a point left)
  that it reaches most cheaply; when that is beyond this turn's points it walks the shortest path toward it with the
  board's cost table (the kernel's own path rule) as far as its points go and backs off along the walked path to the
  last free square. It never stops on a chit or another hero, and staying put is always legal.
* **Fights.** The attack of highest expected damage (hit chance times damage) among those that can damage the monster
  (immunities, the stake against its bane, metal bonuses against the rust monster), a limited-use item counting for
  ``LIMITED_USE_FACTOR`` of its expected damage; running away when no attack can hurt the monster. At ``flee_hp``
  hit points or fewer the hero drinks a potion when it has one, else runs (unless the monster cannot hit its armour
  class at all: then it has nothing to fear), except from the Specter when nothing else is left for it to do (its *last stand*: it fights on, dying restores its hit points and running would only come
  back to the same fight). In the last stand a hero that cannot hurt the Specter still charges it with its own weapon
  when the Specter can hit it, so that such a hero ends its own game (a table of them ends "all out" instead of at
  the turn cap); a fight in which neither side can hurt the other is never started.
* **Items.** Every usable item it has room for is taken (a chit is points); with the slot full, the worst carried
  item of that slot (by :func:`worth_nb` plus its chit's points) is swapped out when the new one is worth more.
  Nothing is ever dropped.
* **Other seats' monsters.** As the player on the right it hurts the victim most: the robber fly takes the item worth
  most to the victim to the square the victim reaches at the highest cost (unreachable best), the rust monster eats
  its most valuable metal item.

Information: a chit's content is read only through ``strategies.known_content_nb`` (face up, or a blue chit this seat
placed); a carried item is face up. The Specter's chit is purple-backed: its colour code is never read apart from
"blue or not". Nothing here allocates or draws a random number: heuristic play is deterministic, ties going to the
first candidate (lowest chit id, first room, first square in the kernel's order).
"""
from __future__ import annotations

from ..._jit import rules_jit, rules_jit_flat, rules_jit_inline
from . import enums as E
from . import movement as M
from . import strategies as S
from .layout import (CAND, CHIT_BLUE, CHIT_COLOUR, CHIT_FACEUP, CHIT_LOC, CHIT_ON, CHIT_SQ, G_A, G_D, G_E, G_N,
                     G_R, HS_ATTACK, HS_DRAINS, HS_HAND_N, HS_HERO, HS_HP, HS_KEPT_BLUE, HS_KEPT_PURPLE, HS_MAXHP,
                     HS_N_ITEMS, HS_SQ, HT_AC, HT_ABILITY, HT_ABILITY_VALUE, IT_AC, IT_ATTACK, IT_BANE, IT_BANE_DAMAGE,
                     IT_DAMAGE, IT_FLAGS, IT_HEAL, IT_SLOT, IT_USABLE, IT_USES, KINDS, MAX_HELD, MT_AC, MT_ATTACK,
                     MT_IGNORES_METAL, MT_ONLY_BY, MT_UNDEAD, OPT, OPT_CLIMB_2, OPT_N_CHITS, OPT_PTS_BLUE,
                     OPT_PTS_PURPLE, OPT_SPECTER, N_SLOTS, ROOM_PURPLE, SC, SC_CLIMB, SC_MP, SC_N_CAND, SC_SLOWED,
                     SLOTS_OK, SQ_CHIT, SQ_HERO, at, cost, g_adj, g_door, g_level, g_nbr, g_nbr_cost, g_room_far,
                     g_room_level, g_room_near, hand_at, held_at, hs_at, ht_at, it_at, mt_at, NEXT_STEP, next_step,
                     opt_at, param_at, slots_at, g_entry, level_bits_at, N_LEVELS, OPT_N_HEROES, OPT_N_ITEMS,
                     worth_at)
from ..kernel_common import lowest_bit_nb, prefetch_run_nb
from .pieces import chit_count_nb

LOOTER = 1
HUNTER = 2
RUSHER = 3

UNREACHABLE = 32767
NOT_WANTED = 0.0            # a chit value at or below this is not a target
NO_ATTACK = -1000.0         # attack bonus of a hero that cannot damage the monster at all

# Parameter slots (f[param_at(seat, k)]), as the StrategySpecs in __init__.py declare them.
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
def known_item_nb(s, p, c):
    """Item index of chit c when seat p knows it is an item, else -1."""
    kind, index = S.known_content_nb(s, p, c)
    return index if kind == E.CONTENT_ITEM else -1


@rules_jit_inline
def known_monster_nb(s, p, c):
    """Monster index of chit c when seat p knows it is a monster, else -1."""
    kind, index = S.known_content_nb(s, p, c)
    return index if kind == E.CONTENT_MONSTER else -1


@rules_jit_inline
def is_blue_nb(s, c):
    """Blue-backed (public). The Specter's chit is purple-backed, so nothing here tells it from a purple chit."""
    return s[at(CHIT_COLOUR, c)] == E.BLUE


@rules_jit_inline
def chit_points_nb(s, c):
    """Points the chit scores while its holder has it: a blue or a purple chit."""
    return s[OPT + OPT_PTS_BLUE] if is_blue_nb(s, c) else s[OPT + OPT_PTS_PURPLE]


@rules_jit_inline
def ability_of_nb(s, p, kind):
    """Hero p's ability value when its ability is `kind`, else 0 (the magic ability counts 1)."""
    h = s[hs_at(p, HS_HERO)]
    if s[ht_at(h, HT_ABILITY)] != kind:
        return 0
    return max(1, s[ht_at(h, HT_ABILITY_VALUE)]) if kind == E.AB_MAGIC else s[ht_at(h, HT_ABILITY_VALUE)]


@rules_jit_inline
def usable_item_nb(s, p, i):
    """May hero p use item i (its ``usable_by``)?"""
    return (s[it_at(i, IT_USABLE)] >> s[hs_at(p, HS_HERO)]) & 1 == 1


@rules_jit_inline
def worth_nb(s, p, i):
    """What item i is worth to hero p, apart from its chit's points (:func:`hero_worth_nb` of its hero)."""
    return hero_worth_nb(s, s[hs_at(p, HS_HERO)], i)


@rules_jit_inline
def hero_worth_nb(s, h, i):
    """What item i is worth to hero card h, apart from its chit's points: a weapon 1 + attack and damage bonuses (+1.5
    for a magical one when the hero lacks the magic ability, +0.5 silver, +0.5 a bane), armour and shields 1 + their
    armour bonus, a potion its healing / 3, holy water and wands 0.5 a use (+1 for a wand's magic to a hero without
    it), other items 1 + their armour bonus. It depends on the compiled hero and item only: compiled with them into
    f's WORTH table (:func:`fill_worth_nb`), which the target search and
    :func:`slots_fill_nb` read."""
    flags = s[it_at(i, IT_FLAGS)]
    slot = s[it_at(i, IT_SLOT)]
    magic_hero = s[ht_at(h, HT_ABILITY)] == E.AB_MAGIC
    if slot == E.SLOT_WEAPON:
        w = 1.0 + s[it_at(i, IT_ATTACK)] + s[it_at(i, IT_DAMAGE)]
        if (flags & E.IF_MAGICAL) != 0 and not magic_hero:
            w += MAGICAL_WORTH
        if (flags & E.IF_SILVER) != 0:
            w += 0.5
        if s[it_at(i, IT_BANE)] >= 0:
            w += 0.5
        return w
    if slot == E.SLOT_ARMOR or slot == E.SLOT_SHIELD:
        return 1.0 + s[it_at(i, IT_AC)]
    if s[it_at(i, IT_HEAL)] > 0:
        return s[it_at(i, IT_HEAL)] / 3.0
    if (flags & E.IF_ATTACK) != 0:
        w = 0.5 * max(1, s[it_at(i, IT_USES)])
        if (flags & E.IF_MAGIC) != 0 and not magic_hero:
            w += 1.0
        return w
    return 1.0 + s[it_at(i, IT_AC)]


@rules_jit
def fill_worth_nb(s, f):
    """f's WORTH table, compiled with the rules (``arrays.compile_rules``): :func:`hero_worth_nb` of every hero card
    and item, so that a search valuing many item chits reads one number for each."""
    for h in range(s[OPT + OPT_N_HEROES]):
        for i in range(s[OPT + OPT_N_ITEMS]):
            f[worth_at(h, i)] = hero_worth_nb(s, h, i)


@rules_jit
def carried_value_nb(s, p, q, c):
    """Worth to hero p of the item on chit c (known to seat q, who is asking) plus the chit's points."""
    i = known_item_nb(s, q, c)
    if i < 0:
        return 0.0
    return worth_nb(s, p, i) + chit_points_nb(s, c)


@rules_jit_flat
def slots_nb(s, f, p):
    """Hero p's slots at a glance, for many take_gain_nb calls (one pass over its items): (room left in slot 0..3,
    then for slot 0..3 the value, worth plus points, of its worst carried item when the slot is full, else -1).
    They change only with the items it carries: kept in f (F_SLOTS) until it picks one up or loses one (SLOTS_OK).
    Inlined into every caller (the kept values are eight loads; a call returned them through memory), the pass over
    the items stays out of line (:func:`slots_fill_nb`)."""
    if s[at(SLOTS_OK, p)] == 1:
        return (f[slots_at(p, 0)], f[slots_at(p, 1)], f[slots_at(p, 2)], f[slots_at(p, 3)], f[slots_at(p, 4)],
                f[slots_at(p, 5)], f[slots_at(p, 6)], f[slots_at(p, 7)])
    return slots_fill_nb(s, f, p)


@rules_jit
def slots_fill_nb(s, f, p):
    """:func:`slots_nb` when its kept values are stale: the pass over hero p's items, kept in f (SLOTS_OK)."""
    n = s[hs_at(p, HS_N_ITEMS)]
    c0 = c1 = c2 = 0
    w0 = w1 = w2 = 1e9
    for k in range(n):
        c = s[held_at(p, k)]
        i = known_item_nb(s, p, c)
        if i < 0:
            continue
        slot = s[it_at(i, IT_SLOT)]
        v = f[worth_at(s[hs_at(p, HS_HERO)], i)] + chit_points_nb(s, c)
        if slot == E.SLOT_ARMOR:
            c0 += 1
            w0 = min(w0, v)
        elif slot == E.SLOT_WEAPON:
            c1 += 1
            w1 = min(w1, v)
        elif slot == E.SLOT_SHIELD:
            c2 += 1
            w2 = min(w2, v)
    if n >= MAX_HELD:
        out = (0.0, 0.0, 0.0, 0.0, -1.0, -1.0, -1.0, -1.0)
    else:
        r0, r1, r2 = 1 - c0, M.weapon_slots_nb(s, p) - c1, 1 - c2
        out = (float(r0), float(r1), float(r2), 1.0, w0 if r0 <= 0 and c0 > 0 else -1.0,
               w1 if r1 <= 0 and c1 > 0 else -1.0, w2 if r2 <= 0 and c2 > 0 else -1.0, -1.0)
    for k in range(N_SLOTS):
        f[slots_at(p, k)] = out[k]
    s[at(SLOTS_OK, p)] = 1
    return out


@rules_jit_inline
def take_gain_nb(s, f, p, c, i, slots):
    """What taking item i (on chit c) gains hero p (``slots``: its slots_nb): 0 when it cannot use it or it is no
    better than the worst carried item of a full slot; its worth (f's WORTH table) plus points (+0.1) when the slot
    has room; else the difference to that worst item. The take decision takes exactly when this is above 0."""
    if not usable_item_nb(s, p, i):
        return 0.0
    v = f[worth_at(s[hs_at(p, HS_HERO)], i)] + chit_points_nb(s, c)
    slot = s[it_at(i, IT_SLOT)]
    if slots[slot] > 0:
        return 0.1 + v
    old_v = slots[4 + slot]
    if old_v < 0.0:
        return 0.0
    return max(0.0, v - old_v)


# --- combat arithmetic --------------------------------------------------------------------------------------------

@rules_jit_inline
def counts_against_nb(s, i, m):
    """Does item i's bonus count against monster m (not a metal item's against the rust monster)?"""
    return not ((s[it_at(i, IT_FLAGS)] & E.IF_METAL) != 0 and s[mt_at(m, MT_IGNORES_METAL)] == 1)


@rules_jit
def damages_nb(s, p, i, m):
    """Can an attack of hero p with item i (-1: its own weapon) damage monster m? (``combat.may_damage_nb`` with the
    item index the seat knows.)"""
    only = s[mt_at(m, MT_ONLY_BY)]
    if only == 0:
        return True
    kinds = E.BY_MAGIC if ability_of_nb(s, p, E.AB_MAGIC) > 0 else 0
    if i >= 0:
        flags = s[it_at(i, IT_FLAGS)]
        if s[it_at(i, IT_BANE)] == m:
            return True
        kinds |= (E.BY_MAGIC if flags & E.IF_MAGIC else 0) | (E.BY_MAGIC_WEAPON if flags & E.IF_MAGICAL else 0)
        kinds |= (E.BY_SILVER if flags & E.IF_SILVER else 0) | (E.BY_HOLY if flags & E.IF_HOLY else 0)
    return (kinds & only) != 0


@rules_jit
def attack_bonus_nb(s, p, i, m):
    """Hero p's attack-roll bonus against monster m with item i (-1: own weapon), or NO_ATTACK when that attack cannot
    damage it: attack number - "-1" chits + the item's attack bonus (when it counts) + the undead bonus."""
    if not damages_nb(s, p, i, m):
        return NO_ATTACK
    bonus = s[hs_at(p, HS_ATTACK)] - s[hs_at(p, HS_DRAINS)]
    if i >= 0 and counts_against_nb(s, i, m):
        bonus += s[it_at(i, IT_ATTACK)]
    if s[mt_at(m, MT_UNDEAD)] == 1:
        bonus += ability_of_nb(s, p, E.AB_UNDEAD_BONUS)
    return float(bonus)


@rules_jit
def expected_damage_nb(s, p, i, m, slowed):
    """Expected damage of one attack of hero p with item i (-1: own weapon) on monster m: P(1d6 + bonus >= AC) times
    1 + damage bonuses (+ the bane damage); 0 when it cannot damage m. `slowed`: the carrion crawler's -2."""
    bonus = attack_bonus_nb(s, p, i, m)
    if bonus == NO_ATTACK:
        return 0.0
    need = s[mt_at(m, MT_AC)] - bonus + (2 if slowed else 0)       # the die must show at least this
    faces = min(6.0, max(0.0, 7.0 - need))
    dmg = 1 + ability_of_nb(s, p, E.AB_DAMAGE_BONUS)
    if i >= 0:
        if counts_against_nb(s, i, m):
            dmg += s[it_at(i, IT_DAMAGE)]
        if s[it_at(i, IT_BANE)] == m:
            dmg += s[it_at(i, IT_BANE_DAMAGE)]
    return faces / 6.0 * dmg


@rules_jit
def specter_strength_nb(s, p):
    """Hero p's best attack bonus against the Specter over its own weapon and its attack items (NO_ATTACK when none
    can damage it): what monster_hunter compares with specter_attack."""
    m = s[OPT + OPT_SPECTER]
    best = attack_bonus_nb(s, p, -1, m)
    for k in range(s[hs_at(p, HS_N_ITEMS)]):
        i = known_item_nb(s, p, s[held_at(p, k)])
        if i >= 0 and (s[it_at(i, IT_FLAGS)] & E.IF_ATTACK) != 0:
            best = max(best, attack_bonus_nb(s, p, i, m))
    return best


@rules_jit
def can_hurt_nb(s, p, m):
    """Does hero p have an attack (its own weapon or an attack item) with a positive expected damage on monster m: one
    that can damage it and hit its armour class?"""
    if expected_damage_nb(s, p, -1, m, False) > 0.0:
        return True
    for k in range(s[hs_at(p, HS_N_ITEMS)]):
        i = known_item_nb(s, p, s[held_at(p, k)])
        if i >= 0 and (s[it_at(i, IT_FLAGS)] & E.IF_ATTACK) != 0 and expected_damage_nb(s, p, i, m, False) > 0.0:
            return True
    return False


@rules_jit
def armour_class_nb(s, p, m):
    """Hero p's armour class against monster m (``combat.armour_class_nb`` with the items read as known contents)."""
    ac = s[ht_at(s[hs_at(p, HS_HERO)], HT_AC)]
    for k in range(s[hs_at(p, HS_N_ITEMS)]):
        i = known_item_nb(s, p, s[held_at(p, k)])
        if i >= 0 and counts_against_nb(s, i, m):
            ac += s[it_at(i, IT_AC)]
    return ac


@rules_jit
def exposed_to_nb(s, p, m):
    """Can monster m hit hero p at all (1d6 + its attack number reaching the hero's armour class)?"""
    return 6 + s[mt_at(m, MT_ATTACK)] >= armour_class_nb(s, p, m)


@rules_jit
def can_damage_nb(s, p, m):
    """Can hero p damage monster m with its own weapon or one of its attack items?"""
    if damages_nb(s, p, -1, m):
        return True
    for k in range(s[hs_at(p, HS_N_ITEMS)]):
        i = known_item_nb(s, p, s[held_at(p, k)])
        if i >= 0 and (s[it_at(i, IT_FLAGS)] & E.IF_ATTACK) != 0 and damages_nb(s, p, i, m):
            return True
    return False


# --- chit values and targets ------------------------------------------------------------------------------------

@rules_jit_flat
def base_value_nb(s, f, p, c, slots):
    """What chit c (on the board or the floor) is worth to seat p's heuristic, in movement points, before the
    rusher's level bonuses; NOT_WANTED or less when it is not a target (docs/strategies.md lists the values)."""
    kind = s[at(KINDS, p)]
    hp = s[hs_at(p, HS_HP)]
    flee = f[param_at(p, P_FLEE_HP)]
    ck, ci = S.known_content_nb(s, p, c)
    if ck == E.CONTENT_ITEM:
        gain = take_gain_nb(s, f, p, c, ci, slots)
        if gain <= 0.0:
            return NOT_WANTED
        if kind == LOOTER:
            return (LOOT_FLOOR if s[at(CHIT_FACEUP, c)] == 1 else LOOT_OWN_ITEM) + 2.0 * gain
        return (HUNT_ITEM if kind == HUNTER else RUSH_ITEM) + gain
    if ck == E.CONTENT_MONSTER:
        if ci == s[OPT + OPT_SPECTER]:
            if not can_hurt_nb(s, p, ci):
                return NOT_WANTED
            if kind == HUNTER and hp > flee and specter_strength_nb(s, p) >= f[param_at(p, P_SPECTER_ATTACK)]:
                return HUNT_SPECTER
            if kind == RUSHER and hp >= f[param_at(p, P_SPECTER_HP)]:
                return RUSH_SPECTER
            return NOT_WANTED
        if kind == HUNTER and hp > flee and can_damage_nb(s, p, ci):
            return HUNT_OWN_MONSTER
        if kind == RUSHER and hp > flee:
            return RUSH_OWN_MONSTER
        return NOT_WANTED
    return unknown_value_nb(s, f, p, is_blue_nb(s, c))


@rules_jit_inline
def unknown_value_nb(s, f, p, blue):
    """:func:`base_value_nb` of a chit whose content seat p does not know: it depends on its colour only (blue when
    `blue`), so a search over every chit reckons it once per colour."""
    kind = s[at(KINDS, p)]
    hp = s[hs_at(p, HS_HP)]
    if kind == LOOTER:
        if blue:
            return LOOT_BLUE
        return LOOT_PURPLE if hp >= f[param_at(p, P_PURPLE_HP)] else NOT_WANTED
    if hp <= f[param_at(p, P_FLEE_HP)]:
        return NOT_WANTED
    if kind == HUNTER:
        return HUNT_UNKNOWN + (0.0 if blue else f[param_at(p, P_PURPLE_BONUS)])
    return RUSH_UNKNOWN


@rules_jit_inline
def rusher_bonus_nb(s, f, g, p, c, level_here, v, unknown):
    """Chit c's value v (its :func:`base_value_nb`; `unknown`: seat p does not know its content) with the rusher's
    bonuses for where it lies (:func:`level_value_nb`)."""
    if v <= NOT_WANTED or s[at(KINDS, p)] != RUSHER:
        return v
    return level_value_nb(s, f, p, g_level(g, s[at(CHIT_SQ, c)]), is_blue_nb(s, c), level_here, v, unknown)


@rules_jit_inline
def level_value_nb(s, f, p, level, blue, level_here, v, unknown):
    """The value v of a chit lying on `level` (blue-backed when `blue`; `unknown`: seat p does not know its content)
    and, for the rusher when v is positive, + RUSH_TOWER3_PURPLE for an unknown purple chit on Tower 3 and
    + level_bonus for each level the chit lies above the hero. A chit whose content the seat does not know is worth
    what its colour and level make it, so a search reckons it once per colour and level."""
    if v <= NOT_WANTED or s[at(KINDS, p)] != RUSHER:
        return v
    if level == 3 and not blue and unknown:
        v += RUSH_TOWER3_PURPLE
    if level > level_here:
        v += f[param_at(p, P_LEVEL_BONUS)] * (level - level_here)
    return v


@rules_jit_inline
def chit_value_nb(s, f, g, p, c, level_here, slots):
    """:func:`base_value_nb` with the rusher's bonuses (:func:`rusher_bonus_nb`)."""
    return rusher_bonus_nb(s, f, g, p, c, level_here, base_value_nb(s, f, p, c, slots),
                           S.known_content_nb(s, p, c)[0] < 0)


@rules_jit
def has_other_target_nb(s, f, p):
    """Does a chit on the board or the floor have a positive value for seat p (the chit being fought is neither)?
    The board is not needed: values are positive without it, and from Tower 3, where the Specter is, every square
    can be reached. The chits whose content the seat does not know are worth their colour's value
    (:func:`unknown_value_nb`): one look at the bit sets answers for them."""
    slots = slots_nb(s, f, p)
    blue_wanted = unknown_value_nb(s, f, p, True) > NOT_WANTED
    purple_wanted = unknown_value_nb(s, f, p, False) > NOT_WANTED
    for w in range((s[OPT + OPT_N_CHITS] + 63) >> 6):
        on = s[at(CHIT_ON, w)]              # the chits on the board or the floor
        unknown = S.unknown_bits_nb(s, p, w)
        blue = s[at(CHIT_BLUE, w)]
        if (blue_wanted and (unknown & blue) != 0) or (purple_wanted and (unknown & ~blue) != 0):
            return True
        bits = on & ~unknown
        while bits != 0:
            c = (w << 6) + lowest_bit_nb(bits)
            bits &= bits - 1
            if base_value_nb(s, f, p, c, slots) > NOT_WANTED:
                return True
    return False


@rules_jit_inline
def free_for_nb(s, q, p):
    """No chit on square q and no hero there but p."""
    h = s[at(SQ_HERO, q)]
    return s[at(SQ_CHIT, q)] < 0 and (h < 0 or h == p)


@rules_jit_inline
def stop_next_to_nb(s, g, d, p, here, t, x):
    """The square from which hero p (on `here`, climbing table t) can encounter a chit on square x most cheaply: a
    free square adjacent to x, or across a door from it (which needs a movement point left, counted in). Returns
    (square, movement points needed), or (-1, UNREACHABLE) when no such square is free and reachable."""
    best = -1
    best_need = UNREACHABLE
    for k in range(g[G_A]):
        a = g_adj(g, x, k)
        if a < 0:
            break
        if free_for_nb(s, a, p):
            need = cost(d, g, t, here, a)
            if need < best_need:
                best = a
                best_need = need
    for k in range(g[G_D]):
        a = g_door(g, x, k)
        if a < 0:
            break
        if free_for_nb(s, a, p):
            need = cost(d, g, t, here, a) + 1
            if need < best_need:
                best = a
                best_need = need
    if best_need >= UNREACHABLE:
        return -1, UNREACHABLE
    return best, best_need


@rules_jit_inline
def has_stop_nb(s, g, d, p, here, t, x):
    """Is there a square from which hero p can encounter a chit on square x (:func:`stop_next_to_nb` finds one)?
    The first free reachable square answers, where stop_next_to_nb looks at every one for the cheapest: the chit
    search asks this for every chit that would be its best so far."""
    for k in range(g[G_A]):
        a = g_adj(g, x, k)
        if a < 0:
            break
        if free_for_nb(s, a, p) and cost(d, g, t, here, a) < UNREACHABLE:
            return True
    for k in range(g[G_D]):
        a = g_door(g, x, k)
        if a < 0:
            break
        if free_for_nb(s, a, p) and cost(d, g, t, here, a) + 1 < UNREACHABLE:
            return True
    return False


@rules_jit_inline
def fallback_ok_nb(s, p, c):
    """May hero p fall back on chit c (on the board) when it wants nothing: a face-down chit, or the revealed
    Specter when the fight can end: the hero has an attack that can hurt it, or the Specter can hit the hero (a hero
    with nothing left to do charges it and ends its own game; the rest of the table plays on)."""
    m = known_monster_nb(s, p, c)
    return s[at(CHIT_FACEUP, c)] == 0 or (m >= 0 and (can_hurt_nb(s, p, m) or exposed_to_nb(s, p, m)))


@rules_jit_inline
def level_bound_nb(d, g, t, here, level):
    """The least movement cost under table t from square `here`, on another level, to any square of `level`: the
    cheapest of the level's entry squares (``layout.G_ENTRY``), since every path onto the level passes one and costs
    are never negative; UNREACHABLE when none can be reached."""
    bound = UNREACHABLE
    for k in range(g[G_E]):
        e = g_entry(g, level, k)
        if e < 0:
            break
        bound = min(bound, cost(d, g, t, here, e))
    return bound


@rules_jit_flat
def scan_chits_nb(s, f, g, d, p, here, t, level_here, slots, w, bits, group, v_group, bound, found):
    """:func:`best_target_nb`'s look at the chits of word w in `bits`, one of its groups: 0, the chits seat p knows
    the content of; 1 or 2, those it does not know on one level, blue or purple, whose value is v_group and whose
    cost is at least `bound`. `found`: (best, best_score, fallback, fallback_cost) so far, returned updated.
    Inlined into each of its calls, with `group` known.

    An unknown group is passed over whole once a wanted chit is found and no chit of the group can beat that chit's
    score (its value less the least cost), or the group is not wanted at all (a fallback is only needed while no
    chit is wanted)."""
    best, best_score, fallback, fallback_cost = found
    if group != 0 and best >= 0 and (v_group <= NOT_WANTED or v_group - bound < best_score):
        return found
    while bits != 0:
        c = (w << 6) + lowest_bit_nb(bits)
        bits &= bits - 1
        x = s[at(CHIT_SQ, c)]
        k = cost(d, g, t, here, x)
        if k >= UNREACHABLE:
            continue
        v = rusher_bonus_nb(s, f, g, p, c, level_here, base_value_nb(s, f, p, c, slots), False) if group == 0 \
            else v_group
        if v > NOT_WANTED:
            score = v - k
            if (best < 0 or score > best_score or (score == best_score and c < best)) \
                    and has_stop_nb(s, g, d, p, here, t, x):
                best = c
                best_score = score
        elif best < 0 and s[at(CHIT_LOC, c)] == E.LOC_BOARD \
                and (k < fallback_cost or (k == fallback_cost and c < fallback)) \
                and fallback_ok_nb(s, p, c) and has_stop_nb(s, g, d, p, here, t, x):
            fallback = c
            fallback_cost = k
    return best, best_score, fallback, fallback_cost


@rules_jit
def best_target_nb(s, f, g, d, p, here, t):
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
    n = g[G_N]
    prefetch_run_nb(d, (t * n + here) * n, n)      # the costs from here, read below for scattered chits
    level_here = g_level(g, here)
    slots = slots_nb(s, f, p)
    blue_v = unknown_value_nb(s, f, p, True)        # what a chit of unknown content is worth, by colour
    purple_v = unknown_value_nb(s, f, p, False)
    n_words = (s[OPT + OPT_N_CHITS] + 63) >> 6
    found = (-1, 0.0, -1, UNREACHABLE)
    for w in range(n_words):
        on = s[at(CHIT_ON, w)]              # the chits on the board or the floor
        found = scan_chits_nb(s, f, g, d, p, here, t, level_here, slots, w, on & ~S.unknown_bits_nb(s, p, w), 0, 0.0,
                              0, found)
    for j in range(N_LEVELS):
        level = level_here + j              # the hero's level first, then the next ones up (round to Tower 1)
        if level > N_LEVELS:
            level -= N_LEVELS
        bound = 0 if j == 0 else level_bound_nb(d, g, t, here, level)
        if bound >= UNREACHABLE:
            continue
        v_blue = level_value_nb(s, f, p, level, True, level_here, blue_v, True)
        v_purple = level_value_nb(s, f, p, level, False, level_here, purple_v, True)
        for w in range(n_words):
            unknown = S.unknown_bits_nb(s, p, w) & s[level_bits_at(level, w)]
            blue = s[at(CHIT_BLUE, w)]
            found = scan_chits_nb(s, f, g, d, p, here, t, level_here, slots, w, unknown & blue, 1, v_blue, bound,
                                  found)
            found = scan_chits_nb(s, f, g, d, p, here, t, level_here, slots, w, unknown & ~blue, 2, v_purple, bound,
                                  found)
    best, _, fallback, _ = found
    if best >= 0:
        return best, True
    return fallback, False


@rules_jit_inline
def walk_toward_nb(s, g, d, p, here, t, mp, goal):
    """Walk the shortest path from `here` toward `goal` under table t (at each square the first neighbour in the
    map's order on a shortest path, as the kernel records paths: the board's NEXT_STEP table) while the points last;
    the last free square walked onto (`here` when none)."""
    n = g[G_N]
    prefetch_run_nb(d, NEXT_STEP * n * n + (((t * n + goal) * n) >> 1), (n >> 1) + 1)   # the steps toward goal
    cur = here
    spent = 0
    last = here
    while cur != goal:
        k = next_step(d, g, t, cur, goal)
        if k < 0:
            break
        step = g_nbr_cost(g, cur, k)
        if spent + step > mp:
            break
        spent += step
        cur = g_nbr(g, cur, k)
        if free_for_nb(s, cur, p):
            last = cur
    return last


@rules_jit
def move_nb(s, f, g, d, p):
    """The square to stop on: next to the target chit when this turn's points reach it, else as far toward it as
    they go (the last free square of the walk); the current square when there is no target."""
    here = s[hs_at(p, HS_SQ)]
    t = s[SC + SC_CLIMB]
    mp = s[SC + SC_MP]
    c, _ = best_target_nb(s, f, g, d, p, here, t)
    if c < 0:
        return here
    a, need = stop_next_to_nb(s, g, d, p, here, t, s[at(CHIT_SQ, c)])
    if a < 0:
        return here
    if need <= mp:
        return a
    return walk_toward_nb(s, g, d, p, here, t, mp, a)


@rules_jit
def encounter_nb(s, f, g, d, p):
    """Index into CAND of the chit to encounter: the candidate of highest positive value; else, when the hero has no
    wanted chit it can reach (fallback), its fallback target or the first face-down chit or Specter among the
    candidates; else -1."""
    n = s[SC + SC_N_CAND]
    here = s[hs_at(p, HS_SQ)]
    level_here = g_level(g, here)
    best = -1
    best_v = NOT_WANTED
    slots = slots_nb(s, f, p)
    for i in range(n):
        v = chit_value_nb(s, f, g, p, s[at(CAND, i)], level_here, slots)
        if v > best_v:
            best = i
            best_v = v
    if best >= 0:
        return best
    first = -1
    for i in range(n):
        c = s[at(CAND, i)]
        if s[at(CHIT_LOC, c)] == E.LOC_BOARD and fallback_ok_nb(s, p, c):
            first = i
            break
    if first < 0:
        return -1
    target, wanted = best_target_nb(s, f, g, d, p, here, M.climb_table_nb(s, p))
    if wanted or target < 0:
        return -1
    for i in range(n):
        if s[at(CAND, i)] == target:
            return i
    return first


# --- set-up -----------------------------------------------------------------------------------------------------

@rules_jit
def place_blue_nb(s, f, g, d, p):
    """(hand index, square): the looter and the rusher place their items first, the hunter its monsters first (the
    first such chit in hand, else the first chit); an item (and any chit of the hunter's) goes to the legal room
    nearest the entrance, a monster of the looter's or the rusher's to the legal room farthest from it (Tower 3,
    where every hero ends up); the room's first free placeable square. Depth: the movement cost from the first
    outside square to the room's first square, climbing allowed; the board lists the rooms by it (G_ROOM_NEAR,
    G_ROOM_FAR: the lower room index first on a tie), so the first legal room of its list is the one."""
    kind = s[at(KINDS, p)]
    n = s[hs_at(p, HS_HAND_N)]
    first_item = kind != HUNTER
    pick = 0
    for k in range(n):
        if (known_item_nb(s, p, s[hand_at(p, k)]) >= 0) == first_item:
            pick = k
            break
    near = kind == HUNTER or known_item_nb(s, p, s[hand_at(p, pick)]) >= 0
    for k in range(g[G_R]):
        r = g_room_near(g, k) if near else g_room_far(g, k)
        if S.room_free_nb(s, g, r, True) != 0:
            return pick, S.kth_free_square_nb(s, g, r, 0)
    return pick, -1


@rules_jit
def place_purple_nb(s, f, g, d, p, level):
    """The purple chit (unseen) goes to the legal room of `level` farthest from the entrance for the looter and the
    rusher (mostly monsters: away from their way), the nearest for the hunter (by place_blue_nb's depth); the room's
    first free square."""
    near = s[at(KINDS, p)] == HUNTER
    for k in range(g[G_R]):
        r = g_room_near(g, k) if near else g_room_far(g, k)
        if g_room_level(g, r) == level and s[at(ROOM_PURPLE, r)] == 0 and S.room_free_nb(s, g, r, False) != 0:
            return S.kth_free_square_nb(s, g, r, 0)
    return -1


# --- a hero's turn ----------------------------------------------------------------------------------------------

@rules_jit
def trade_in_nb(s, f, p):
    """Experience: two blue monster chits when it has them, else one purple. The hunter trades whenever it can; the
    looter and the rusher only while their chit count stays at the Tower 2 gate (climb_from_2) or above."""
    if s[hs_at(p, HS_KEPT_BLUE)] >= 2:
        choice = E.TRADE_TWO_BLUE
    elif s[hs_at(p, HS_KEPT_PURPLE)] >= 1:
        choice = E.TRADE_ONE_PURPLE
    else:
        return E.TRADE_NONE
    if s[at(KINDS, p)] == HUNTER or chit_count_nb(s, p) - 2 >= s[OPT + OPT_CLIMB_2]:
        return choice
    return E.TRADE_NONE


@rules_jit
def potion_fit_nb(heal, best_heal, missing, cover):
    """Is a potion healing `heal` a better pick than one healing `best_heal` (0: none yet)? cover: the smallest that
    heals all `missing` hit points, else the largest; not cover: the largest that heals no more than `missing`."""
    if best_heal == 0:
        return heal <= missing or cover
    if cover:
        if best_heal >= missing:
            return missing <= heal < best_heal
        return heal > best_heal
    return best_heal < heal <= missing


@rules_jit
def potion_nb(s, f, p):
    """Index into CAND (-1, then the carried potions) of the potion to drink at the start of the turn: the looter
    drinks below potion_hp hit points (the smallest potion that heals all it misses, else the largest); the others
    drink the largest potion that heals no more than they miss (none wasted), if any."""
    hp = s[hs_at(p, HS_HP)]
    cover = s[at(KINDS, p)] == LOOTER
    if cover and hp >= f[param_at(p, P_POTION_HP)]:
        return 0
    missing = s[hs_at(p, HS_MAXHP)] - hp
    best = 0
    best_heal = 0
    for k in range(1, s[SC + SC_N_CAND]):
        i = known_item_nb(s, p, s[at(CAND, k)])
        heal = s[it_at(i, IT_HEAL)] if i >= 0 else 0
        if heal > 0 and potion_fit_nb(heal, best_heal, missing, cover):
            best = k
            best_heal = heal
    return best


@rules_jit
def take_nb(s, f, p, c):
    """Index into CAND (leave, take into a free slot, or a carried item to give up): take whenever the slot has room;
    with it full, give up the carried item of least worth plus points when the new item is worth more; else leave."""
    n = s[SC + SC_N_CAND]
    if n >= 2 and s[at(CAND, 1)] == E.TAKE_FREE:
        return 1
    i = known_item_nb(s, p, c)
    if i < 0:
        return 0
    v = worth_nb(s, p, i) + chit_points_nb(s, c)
    best = 0
    best_v = v
    for k in range(1, n):
        old = carried_value_nb(s, p, p, s[at(CAND, k)])
        if old < best_v:
            best = k
            best_v = old
    return best


@rules_jit
def combat_nb(s, f, p, c):
    """Index into the combat options (OPTS rows: run, own weapon, attack items and potions in the order carried).

    The looter drinks below potion_hp; every heuristic at flee_hp hit points or fewer drinks (the smallest potion
    that heals all it misses, else the largest) or runs, unless the monster cannot hit it at all, and except from
    the Specter when it has nothing else to go for; otherwise the attack of highest expected damage (limited-use items counted at LIMITED_USE_FACTOR, the first
    on a tie), or running when no attack can hurt the monster (except in that last stand against the Specter when the
    Specter can hit the hero: its own weapon, to the end)."""
    n = s[SC + SC_N_CAND]
    kind = s[at(KINDS, p)]
    hp = s[hs_at(p, HS_HP)]
    m = known_monster_nb(s, p, c)
    missing = s[hs_at(p, HS_MAXHP)] - hp
    attack = -1
    attack_v = 0.0
    potion = -1
    potion_heal = 0
    for k in range(n):
        chit = s[opt_at(k, 1)]
        i = known_item_nb(s, p, chit) if chit >= 0 else -1
        if s[opt_at(k, 0)] == E.CO_ATTACK and m >= 0:
            v = expected_damage_nb(s, p, i, m, s[SC + SC_SLOWED] == 1)
            if i >= 0 and s[it_at(i, IT_USES)] > 0:
                v *= LIMITED_USE_FACTOR
            if v > attack_v:
                attack = k
                attack_v = v
        elif s[opt_at(k, 0)] == E.CO_POTION and i >= 0:
            heal = s[it_at(i, IT_HEAL)]
            if heal > 0 and potion_fit_nb(heal, potion_heal, missing, True):
                potion = k
                potion_heal = heal
    if potion >= 0 and kind == LOOTER and hp < f[param_at(p, P_POTION_HP)]:
        return potion
    last_stand = m == s[OPT + OPT_SPECTER] and not has_other_target_nb(s, f, p)
    if hp <= f[param_at(p, P_FLEE_HP)] and exposed_to_nb(s, p, m):
        if potion >= 0:
            return potion
        if not last_stand:
            return 0
    if attack >= 0:
        return attack
    return 1 if last_stand and exposed_to_nb(s, p, m) else 0


# --- the other seats' monsters, respawn, drops, trades ---------------------------------------------------------------

@rules_jit
def most_valuable_nb(s, who, victim):
    """Index into CAND (the victim's items) of the one worth most to the victim (worth plus points; the first on a
    tie)."""
    best = 0
    best_v = -1.0
    for k in range(s[SC + SC_N_CAND]):
        v = carried_value_nb(s, victim, who, s[at(CAND, k)])
        if v > best_v:
            best = k
            best_v = v
    return best


@rules_jit
def steal_item_nb(s, f, g, who, victim):
    """The robber fly takes the victim's item worth most to it."""
    return most_valuable_nb(s, who, victim)


@rules_jit
def steal_square_nb(s, f, g, d, who, victim):
    """... to the candidate square the victim reaches at the highest cost under its own climbing table (one it
    cannot reach at all first; the first on a tie)."""
    t = M.climb_table_nb(s, victim)
    here = s[hs_at(victim, HS_SQ)]
    best = 0
    best_cost = -1
    for k in range(s[SC + SC_N_CAND]):
        k_cost = cost(d, g, t, here, s[at(CAND, k)])
        if k_cost > best_cost:
            best = k
            best_cost = k_cost
    return best


@rules_jit
def rust_nb(s, f, who, victim):
    """The rust monster eats the victim's metal item worth most to it."""
    return most_valuable_nb(s, who, victim)


@rules_jit
def respawn_nb(s, f, g, p):
    """The first free outside square next to the front door (one step saved), else the first free one."""
    for k in range(s[SC + SC_N_CAND]):
        if g_door(g, s[at(CAND, k)], 0) >= 0:
            return k
    return 0


@rules_jit
def drop_nb(s, f, g, p):
    """Never drops: a carried item is points."""
    return 0


@rules_jit
def drop_square_nb(s, f, g, p, c):
    """Never asked (drop_nb drops nothing): the first square."""
    return 0


@rules_jit
def trade_offer_nb(s, f, g, p):
    """Index into the CAND rows (partner, item given, item received), or -1: the row that gains the hero most (worth
    plus points, received minus given) among those that gain the partner too (so a heuristic partner accepts)."""
    best = -1
    best_gain = 0.0
    for k in range(s[SC + SC_N_CAND]):
        q = s[at(CAND, 3 * k)]
        give = s[at(CAND, 3 * k + 1)]
        take = s[at(CAND, 3 * k + 2)]
        mine = carried_value_nb(s, p, p, take) - carried_value_nb(s, p, p, give)
        theirs = carried_value_nb(s, q, p, give) - carried_value_nb(s, q, p, take)
        if mine > best_gain and theirs > 0.0:
            best = k
            best_gain = mine
    return best


@rules_jit
def trade_accept_nb(s, f, q, p, give, take):
    """Seat q accepts when it gains: the item it receives (give) is worth more to it than the one it gives up."""
    return carried_value_nb(s, q, q, give) > carried_value_nb(s, q, q, take)
