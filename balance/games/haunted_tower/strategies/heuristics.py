"""The Haunted Tower's heuristic strategies: ``cautious_looter`` (kind 1), ``monster_hunter`` (2) and
``specter_rusher`` (3). ``strategies/__init__.py`` dispatches every decision of a seat playing one of them to the function of
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

Three modules: ``valuation.py`` (what the seat knows, item worth and slots, the combat arithmetic, a chit's value,
the shared constants and parameter slots), ``targets.py`` (the target search and the walk) and this one (the
decisions).
"""
from __future__ import annotations

from ....core.jit import rules_jit
from .. import enums as E
from ..rules import movement as M
from .. import strategies as S
from . import targets as T
from . import valuation as V
from ..layout import (CAND, CHIT_LOC, CHIT_SQ, G_R, HS_HAND_N, HS_HP, HS_KEPT_BLUE, HS_KEPT_PURPLE, HS_MAXHP, HS_SQ,
                     IT_HEAL, IT_USES, KINDS, OPT, OPT_CLIMB_2, OPT_SPECTER, ROOM_PURPLE, SC, SC_CLIMB, SC_MP,
                     SC_N_CAND, SC_SLOWED, at, cost, g_door, g_level, g_room_far, g_room_level, g_room_near, hand_at,
                     hs_at, it_at, opt_at, param_at)
from ..rules.pieces import chit_count_nb


@rules_jit
def move_nb(s, f, g, d, p):
    """The square to stop on: next to the target chit when this turn's points reach it, else as far toward it as
    they go (the last free square of the walk); the current square when there is no target."""
    here = s[hs_at(p, HS_SQ)]
    t = s[SC + SC_CLIMB]
    mp = s[SC + SC_MP]
    c, _ = T.best_target_nb(s, f, g, d, p, here, t)
    if c < 0:
        return here
    a, need = T.stop_next_to_nb(s, g, d, p, here, t, s[at(CHIT_SQ, c)])
    if a < 0:
        return here
    if need <= mp:
        return a
    return T.walk_toward_nb(s, g, d, p, here, t, mp, a)


@rules_jit
def encounter_nb(s, f, g, d, p):
    """Index into CAND of the chit to encounter: the candidate of highest positive value; else, when the hero has no
    wanted chit it can reach (fallback), its fallback target or the first face-down chit or Specter among the
    candidates; else -1."""
    n = s[SC + SC_N_CAND]
    here = s[hs_at(p, HS_SQ)]
    level_here = g_level(g, here)
    best = -1
    best_v = V.NOT_WANTED
    slots = V.slots_nb(s, f, p)
    for i in range(n):
        v = V.chit_value_nb(s, f, g, p, s[at(CAND, i)], level_here, slots)
        if v > best_v:
            best = i
            best_v = v
    if best >= 0:
        return best
    first = -1
    for i in range(n):
        c = s[at(CAND, i)]
        if s[at(CHIT_LOC, c)] == E.LOC_BOARD and T.fallback_ok_nb(s, p, c):
            first = i
            break
    if first < 0:
        return -1
    target, wanted = T.best_target_nb(s, f, g, d, p, here, M.climb_table_nb(s, p))
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
    first_item = kind != V.HUNTER
    pick = 0
    for k in range(n):
        if (V.known_item_nb(s, p, s[hand_at(p, k)]) >= 0) == first_item:
            pick = k
            break
    near = kind == V.HUNTER or V.known_item_nb(s, p, s[hand_at(p, pick)]) >= 0
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
    near = s[at(KINDS, p)] == V.HUNTER
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
    if s[at(KINDS, p)] == V.HUNTER or chit_count_nb(s, p) - 2 >= s[OPT + OPT_CLIMB_2]:
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
    cover = s[at(KINDS, p)] == V.LOOTER
    if cover and hp >= f[param_at(p, V.P_POTION_HP)]:
        return 0
    missing = s[hs_at(p, HS_MAXHP)] - hp
    best = 0
    best_heal = 0
    for k in range(1, s[SC + SC_N_CAND]):
        i = V.known_item_nb(s, p, s[at(CAND, k)])
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
    i = V.known_item_nb(s, p, c)
    if i < 0:
        return 0
    v = V.worth_nb(s, p, i) + V.chit_points_nb(s, c)
    best = 0
    best_v = v
    for k in range(1, n):
        old = V.carried_value_nb(s, p, p, s[at(CAND, k)])
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
    m = V.known_monster_nb(s, p, c)
    missing = s[hs_at(p, HS_MAXHP)] - hp
    attack = -1
    attack_v = 0.0
    potion = -1
    potion_heal = 0
    for k in range(n):
        chit = s[opt_at(k, 1)]
        i = V.known_item_nb(s, p, chit) if chit >= 0 else -1
        if s[opt_at(k, 0)] == E.CO_ATTACK and m >= 0:
            v = V.expected_damage_nb(s, p, i, m, s[SC + SC_SLOWED] == 1)
            if i >= 0 and s[it_at(i, IT_USES)] > 0:
                v *= V.LIMITED_USE_FACTOR
            if v > attack_v:
                attack = k
                attack_v = v
        elif s[opt_at(k, 0)] == E.CO_POTION and i >= 0:
            heal = s[it_at(i, IT_HEAL)]
            if heal > 0 and potion_fit_nb(heal, potion_heal, missing, True):
                potion = k
                potion_heal = heal
    if potion >= 0 and kind == V.LOOTER and hp < f[param_at(p, V.P_POTION_HP)]:
        return potion
    last_stand = m == s[OPT + OPT_SPECTER] and not V.has_other_target_nb(s, f, p)
    if hp <= f[param_at(p, V.P_FLEE_HP)] and V.exposed_to_nb(s, p, m):
        if potion >= 0:
            return potion
        if not last_stand:
            return 0
    if attack >= 0:
        return attack
    return 1 if last_stand and V.exposed_to_nb(s, p, m) else 0


# --- the other seats' monsters, respawn, drops, trades ---------------------------------------------------------------

@rules_jit
def most_valuable_nb(s, who, victim):
    """Index into CAND (the victim's items) of the one worth most to the victim (worth plus points; the first on a
    tie)."""
    best = 0
    best_v = -1.0
    for k in range(s[SC + SC_N_CAND]):
        v = V.carried_value_nb(s, victim, who, s[at(CAND, k)])
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
        mine = V.carried_value_nb(s, p, p, take) - V.carried_value_nb(s, p, p, give)
        theirs = V.carried_value_nb(s, q, p, give) - V.carried_value_nb(s, q, p, take)
        if mine > best_gain and theirs > 0.0:
            best = k
            best_gain = mine
    return best


@rules_jit
def trade_accept_nb(s, f, q, p, give, take):
    """Seat q accepts when it gains: the item it receives (give) is worth more to it than the one it gives up."""
    return V.carried_value_nb(s, q, q, give) > V.carried_value_nb(s, q, q, take)
