"""The Haunted Tower's heuristic strategies: ``cautious_looter`` (kind 1), ``monster_hunter`` (2) and
``specter_rusher`` (3). ``strategies/__init__.py`` dispatches every decision of a seat playing one of them to the
function of the same name here; ``docs/strategies.md`` (The Haunted Tower) states the rules below in words, with the
parameters.

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
  class at all: then it has nothing to fear), except from the Specter when nothing else is left for it to do (its *last
  stand*: it fights on, dying restores its hit points and running would only come back to the same fight). In the last
  stand a hero that cannot hurt the Specter still charges it with its own weapon when the Specter can hit it, so that
  such a hero ends its own game (a table of them ends "all out" instead of at the turn cap); a fight in which neither
  side can hurt the other is never started.
* **Items.** Every usable item it has room for is taken (a chit is points); with the slot full, the worst carried
  item of that slot (by :func:`worth_nb` plus its chit's points) is swapped out when the new one is worth more.
  Nothing is ever dropped.
* **Other seats' monsters.** As the player on the right it hurts the victim most: the robber fly takes the item worth
  most to the victim to the square the victim reaches at the highest cost (unreachable best), the rust monster eats
  its most valuable metal item.

Information: a chit's content is read only through ``view.known_content_nb`` (face up, or a blue chit this seat
placed); a carried item is face up. The Specter's chit is purple-backed: its colour code is never read apart from
"blue or not". Nothing here allocates or draws a random number: heuristic play is deterministic, ties going to the
first candidate (lowest chit id, first room, first square in the kernel's order).

Three modules: ``valuation.py`` (what the seat knows, item worth and slots, the combat arithmetic, a chit's value,
the shared constants and parameter slots), ``targets.py`` (the target search and the walk) and this one (the
decisions).
"""
from __future__ import annotations

from ....core.jit import rules_jit
from .. import enums
from . import view
from . import targets
from . import valuation
from ..layout import (CAND, CHIT_LOC, CHIT_SQ, CLIMB_FROM_2, CLIMB_TABLE, G_R, HS_HAND_N, HS_HP, HS_KEPT_BLUE,
                      HS_KEPT_PURPLE, HS_MAXHP, HS_SQ, IT_HEAL, IT_USES, KINDS, MOVEMENT_POINTS, N_CANDIDATES,
                      ROOM_PURPLE, SLOWED, SPECTER_MONSTER, at, cost, g_door, g_level, g_room_far, g_room_level,
                      g_room_near, hand_at, hs_at, it_at, opt_at, param_at)
from ..rules.pieces import chit_count_nb, climb_table_nb


@rules_jit
def move_nb(state, params, tables, costs, p):
    """The square to stop on: next to the target chit when this turn's points reach it, else as far toward it as
    they go (the last free square of the walk); the current square when there is no target."""
    here = state[hs_at(p, HS_SQ)]
    t = state[CLIMB_TABLE]
    mp = state[MOVEMENT_POINTS]
    c, _ = targets.best_target_nb(state, params, tables, costs, p, here, t)
    if c < 0:
        return here
    a, need = targets.stop_next_to_nb(state, tables, costs, p, here, t, state[at(CHIT_SQ, c)])
    if a < 0:
        return here
    if need <= mp:
        return a
    return targets.walk_toward_nb(state, tables, costs, p, here, t, mp, a)


@rules_jit
def encounter_nb(state, params, tables, costs, p):
    """Index into CAND of the chit to encounter: the candidate of highest positive value; else, when the hero has no
    wanted chit it can reach (fallback), its fallback target or the first face-down chit or Specter among the
    candidates; else -1."""
    n = state[N_CANDIDATES]
    here = state[hs_at(p, HS_SQ)]
    level_here = g_level(tables, here)
    best = -1
    best_v = valuation.NOT_WANTED
    slots = valuation.slots_nb(state, params, p)
    for i in range(n):
        v = valuation.chit_value_nb(state, params, tables, p, state[at(CAND, i)], level_here, slots)
        if v > best_v:
            best = i
            best_v = v
    if best >= 0:
        return best
    first = -1
    for i in range(n):
        c = state[at(CAND, i)]
        if state[at(CHIT_LOC, c)] == enums.LOC_BOARD and targets.fallback_ok_nb(state, p, c):
            first = i
            break
    if first < 0:
        return -1
    target, wanted = targets.best_target_nb(state, params, tables, costs, p, here, climb_table_nb(state, p))
    if wanted or target < 0:
        return -1
    for i in range(n):
        if state[at(CAND, i)] == target:
            return i
    return first


# --- set-up -----------------------------------------------------------------------------------------------------

@rules_jit
def place_blue_nb(state, params, tables, costs, p):
    """(hand index, square): the looter and the rusher place their items first, the hunter its monsters first (the
    first such chit in hand, else the first chit); an item (and any chit of the hunter's) goes to the legal room
    nearest the entrance, a monster of the looter's or the rusher's to the legal room farthest from it (Tower 3,
    where every hero ends up); the room's first free placeable square. Depth: the movement cost from the first
    outside square to the room's first square, climbing allowed; the board lists the rooms by it (G_ROOM_NEAR,
    G_ROOM_FAR: the lower room index first on a tie), so the first legal room of its list is the one."""
    kind = state[at(KINDS, p)]
    n = state[hs_at(p, HS_HAND_N)]
    first_item = kind != valuation.HUNTER
    pick = 0
    for k in range(n):
        if (valuation.known_item_nb(state, p, state[hand_at(p, k)]) >= 0) == first_item:
            pick = k
            break
    near = kind == valuation.HUNTER or valuation.known_item_nb(state, p, state[hand_at(p, pick)]) >= 0
    for k in range(tables[G_R]):
        r = g_room_near(tables, k) if near else g_room_far(tables, k)
        if view.room_free_nb(state, tables, r, True) != 0:
            return pick, view.kth_free_square_nb(state, tables, r, 0)
    return pick, -1


@rules_jit
def place_purple_nb(state, params, tables, costs, p, level):
    """The purple chit (unseen) goes to the legal room of `level` farthest from the entrance for the looter and the
    rusher (mostly monsters: away from their way), the nearest for the hunter (by place_blue_nb's depth); the room's
    first free square."""
    near = state[at(KINDS, p)] == valuation.HUNTER
    for k in range(tables[G_R]):
        r = g_room_near(tables, k) if near else g_room_far(tables, k)
        if g_room_level(tables, r) == level and state[at(ROOM_PURPLE, r)] == 0 \
                and view.room_free_nb(state, tables, r, False) != 0:
            return view.kth_free_square_nb(state, tables, r, 0)
    return -1


# --- a hero's turn ----------------------------------------------------------------------------------------------

@rules_jit
def trade_in_nb(state, params, p):
    """Experience: two blue monster chits when it has them, else one purple. The hunter trades whenever it can; the
    looter and the rusher only while their chit count stays at the Tower 2 gate (climb_from_2) or above."""
    if state[hs_at(p, HS_KEPT_BLUE)] >= 2:
        choice = enums.TRADE_TWO_BLUE
    elif state[hs_at(p, HS_KEPT_PURPLE)] >= 1:
        choice = enums.TRADE_ONE_PURPLE
    else:
        return enums.TRADE_NONE
    if state[at(KINDS, p)] == valuation.HUNTER or chit_count_nb(state, p) - 2 >= state[CLIMB_FROM_2]:
        return choice
    return enums.TRADE_NONE


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
def potion_nb(state, params, p):
    """Index into CAND (-1, then the carried potions) of the potion to drink at the start of the turn: the looter
    drinks below potion_hp hit points (the smallest potion that heals all it misses, else the largest); the others
    drink the largest potion that heals no more than they miss (none wasted), if any."""
    hp = state[hs_at(p, HS_HP)]
    cover = state[at(KINDS, p)] == valuation.LOOTER
    if cover and hp >= params[param_at(p, valuation.P_POTION_HP)]:
        return 0
    missing = state[hs_at(p, HS_MAXHP)] - hp
    best = 0
    best_heal = 0
    for k in range(1, state[N_CANDIDATES]):
        i = valuation.known_item_nb(state, p, state[at(CAND, k)])
        heal = state[it_at(i, IT_HEAL)] if i >= 0 else 0
        if heal > 0 and potion_fit_nb(heal, best_heal, missing, cover):
            best = k
            best_heal = heal
    return best


@rules_jit
def take_nb(state, params, p, c):
    """Index into CAND (leave, take into a free slot, or a carried item to give up): take whenever the slot has room;
    with it full, give up the carried item of least worth plus points when the new item is worth more; else leave."""
    n = state[N_CANDIDATES]
    if n >= 2 and state[at(CAND, 1)] == enums.TAKE_FREE:
        return 1
    i = valuation.known_item_nb(state, p, c)
    if i < 0:
        return 0
    v = valuation.worth_nb(state, p, i) + valuation.chit_points_nb(state, c)
    best = 0
    best_v = v
    for k in range(1, n):
        old = valuation.carried_value_nb(state, p, p, state[at(CAND, k)])
        if old < best_v:
            best = k
            best_v = old
    return best


@rules_jit
def combat_nb(state, params, p, c):
    """Index into the combat options (OPTS rows: run, own weapon, attack items and potions in the order carried).

    The looter drinks below potion_hp; every heuristic at flee_hp hit points or fewer drinks (the smallest potion that
    heals all it misses, else the largest) or runs, unless the monster cannot hit it at all, and except from the Specter
    when it has nothing else to go for; otherwise the attack of highest expected damage (limited-use items counted at
    LIMITED_USE_FACTOR, the first on a tie), or running when no attack can hurt the monster (except in that last stand
    against the Specter when the Specter can hit the hero: its own weapon, to the end)."""
    n = state[N_CANDIDATES]
    kind = state[at(KINDS, p)]
    hp = state[hs_at(p, HS_HP)]
    m = valuation.known_monster_nb(state, p, c)
    missing = state[hs_at(p, HS_MAXHP)] - hp
    attack = -1
    attack_v = 0.0
    potion = -1
    potion_heal = 0
    for k in range(n):
        chit = state[opt_at(k, 1)]
        i = valuation.known_item_nb(state, p, chit) if chit >= 0 else -1
        if state[opt_at(k, 0)] == enums.CO_ATTACK and m >= 0:
            v = valuation.expected_damage_nb(state, p, i, m, state[SLOWED] == 1)
            if i >= 0 and state[it_at(i, IT_USES)] > 0:
                v *= valuation.LIMITED_USE_FACTOR
            if v > attack_v:
                attack = k
                attack_v = v
        elif state[opt_at(k, 0)] == enums.CO_POTION and i >= 0:
            heal = state[it_at(i, IT_HEAL)]
            if heal > 0 and potion_fit_nb(heal, potion_heal, missing, True):
                potion = k
                potion_heal = heal
    if potion >= 0 and kind == valuation.LOOTER and hp < params[param_at(p, valuation.P_POTION_HP)]:
        return potion
    last_stand = m == state[SPECTER_MONSTER] and not valuation.has_other_target_nb(state, params, p)
    if hp <= params[param_at(p, valuation.P_FLEE_HP)] and valuation.exposed_to_nb(state, p, m):
        if potion >= 0:
            return potion
        if not last_stand:
            return 0
    if attack >= 0:
        return attack
    return 1 if last_stand and valuation.exposed_to_nb(state, p, m) else 0


# --- the other seats' monsters, respawn, drops, trades ---------------------------------------------------------------

@rules_jit
def most_valuable_nb(state, who, victim):
    """Index into CAND (the victim's items) of the one worth most to the victim (worth plus points; the first on a
    tie)."""
    best = 0
    best_v = -1.0
    for k in range(state[N_CANDIDATES]):
        v = valuation.carried_value_nb(state, victim, who, state[at(CAND, k)])
        if v > best_v:
            best = k
            best_v = v
    return best


@rules_jit
def steal_item_nb(state, params, tables, who, victim):
    """The robber fly takes the victim's item worth most to it."""
    return most_valuable_nb(state, who, victim)


@rules_jit
def steal_square_nb(state, params, tables, costs, who, victim):
    """... to the candidate square the victim reaches at the highest cost under its own climbing table (one it
    cannot reach at all first; the first on a tie)."""
    t = climb_table_nb(state, victim)
    here = state[hs_at(victim, HS_SQ)]
    best = 0
    best_cost = -1
    for k in range(state[N_CANDIDATES]):
        k_cost = cost(costs, tables, t, here, state[at(CAND, k)])
        if k_cost > best_cost:
            best = k
            best_cost = k_cost
    return best


@rules_jit
def rust_nb(state, params, who, victim):
    """The rust monster eats the victim's metal item worth most to it."""
    return most_valuable_nb(state, who, victim)


@rules_jit
def respawn_nb(state, params, tables, p):
    """The first free outside square next to the front door (one step saved), else the first free one."""
    for k in range(state[N_CANDIDATES]):
        if g_door(tables, state[at(CAND, k)], 0) >= 0:
            return k
    return 0


@rules_jit
def drop_nb(state, params, tables, p):
    """Never drops: a carried item is points."""
    return 0


@rules_jit
def drop_square_nb(state, params, tables, p, c):
    """Never asked (drop_nb drops nothing): the first square."""
    return 0


@rules_jit
def trade_offer_nb(state, params, tables, p):
    """Index into the CAND rows (partner, item given, item received), or -1: the row that gains the hero most (worth
    plus points, received minus given) among those that gain the partner too (so a heuristic partner accepts)."""
    best = -1
    best_gain = 0.0
    for k in range(state[N_CANDIDATES]):
        q = state[at(CAND, 3 * k)]
        give = state[at(CAND, 3 * k + 1)]
        take = state[at(CAND, 3 * k + 2)]
        mine = valuation.carried_value_nb(state, p, p, take) - valuation.carried_value_nb(state, p, p, give)
        theirs = valuation.carried_value_nb(state, q, p, give) - valuation.carried_value_nb(state, q, p, take)
        if mine > best_gain and theirs > 0.0:
            best = k
            best_gain = mine
    return best


@rules_jit
def trade_accept_nb(state, params, q, p, give, take):
    """Seat q accepts when it gains: the item it receives (give) is worth more to it than the one it gives up."""
    return valuation.carried_value_nb(state, q, q, give) > valuation.carried_value_nb(state, q, q, take)
