"""The Haunted Tower's combat (rulebook: Initiative, Attacking, Running Away, Damage, Dying, Experience, Undead,
Special Abilities, The Specter of Sir Jameson, Monster Listing).

``fight_nb`` plays one encounter with a monster to its end: combat rounds of initiative and attacks until the monster
dies, the hero dies, the hero runs away or the robber fly goes away. Only a fight in which neither side can hurt the
other has an end of another kind: the fight cap, after FIGHT_CAP_ROUNDS such rounds in a row (docs/rules/
haunted_tower.md, Rounds). Every choice on the hero's side (run, which
weapon, a potion) is the hero's strategy's; the choices the rulebook gives "the person on his or her right" (which
item the robber fly moves and where, which metal item the rust monster eats) are that seat's strategy's.

One module of about 430 lines on purpose: a fight is one loop of rounds whose steps (initiative, the hero's action,
running away, the monster's attack and its special abilities, a death) share the outcome codes below and call one
another; split, each part would import the others.
"""
from __future__ import annotations

from ....core.jit import rules_jit
from .. import enums
from .. import strategies
from ..layout import (CAND, CHIT_INDEX, CHIT_LOC, CHIT_USES, CLIMB_TABLE, FIGHT_CAP_ROUNDS, FIGHT_CHIT, FIGHT_DRAINED,
                      FIGHT_HP, G_N, HEROES_IN, HS_ATTACK, HS_BANE_KILLS, HS_DAMAGE_DEALT, HS_DAMAGE_TAKEN, HS_DEATHS,
                      HS_DRAINS, HS_FIGHT_CAP, HS_HELD_TURN, HS_HERO, HS_HIT_SPECTER_NOW, HS_HP, HS_KILLS, HS_MAXHP,
                      HS_N_ITEMS, HS_OUT, HS_RUNS, HS_SPECTER_HIT, HS_SPECTER_KILL, HS_SQ, HT_AC, HURT, INITIATIVE_TIES,
                      IT_AC, IT_ATTACK, IT_BANE, IT_FLAGS, IT_HEAL, IT_USES, MC_ENCOUNTERS, MC_HERO_DEATHS, MC_KILLS,
                      MC_RUNS, MT_AC, MT_ATTACK, MT_DAMAGE, MT_DOUBLE, MT_HAS_ROLL, MT_HP, MT_INITIATIVE, MT_INIT_BONUS,
                      MT_STAYS, MT_UNDEAD, N_CANDIDATES, PATH, PATH_FROM, PATH_LENGTH, PLAYERS, SLOWED,
                      SPECTER_DAMAGE_ONCE, SPECTER_KILLER, TURN, VICTIM, at, cost, held_at, hit_roll_at, hs_at, ht_at,
                      it_at, mcnt_at, mt_at, opt_at)
from .movement import record_path_nb, respawn_nb
from .pieces import (ability_nb, counts_nb, emit_nb, hit_damage_nb, free_square_nb, illegal_nb, is_specter_nb,
                     item_of_nb, keep_monster_nb, lay_chit_nb, lift_chit_nb, may_damage_with_nb, place_hero_nb,
                     set_loc_nb, turn_up_nb, uncarry_nb, die_nb)

# What a step of the fight ends in.
FIGHT_ON = 0
MONSTER_DIED = 1
HERO_ESCAPED = 2
HERO_DIED = 3
MONSTER_LEFT = 4         # the robber fly went away
RUN_FAILED = 5           # the hero tried to run and did not escape: the monster's attack roll follows
STOP = 6                 # an illegal answer, or the Specter is dead: the game is over
ROBBER_FLY_REACH = 10    # "moved 10 squares away"
FREE_CLIMB = 2           # the robber fly's 10 squares are counted with climbing allowed (board table 2)


@rules_jit
def armour_class_nb(state, p, m):
    """The hero's armour class against monster m: its card, plus its armour, shield and other items."""
    ac = state[ht_at(state[hs_at(p, HS_HERO)], HT_AC)]
    for k in range(state[hs_at(p, HS_N_ITEMS)]):
        item = item_of_nb(state, state[held_at(p, k)])
        if counts_nb(state, item, m):
            ac += state[it_at(item, IT_AC)]
    return ac


@rules_jit
def initiative_nb(state, p, m):
    """Who attacks first this combat round: 1 the hero, 0 the monster (Initiative)."""
    if state[mt_at(m, MT_INITIATIVE)] == enums.INIT_ALWAYS_LOSES:
        emit_nb(state, enums.EV_INITIATIVE, p, -1, -1, 1)
        return 1
    while True:
        h = die_nb(state, 6) + ability_nb(state, p, enums.AB_INITIATIVE_BONUS)
        mo = die_nb(state, 6) + state[mt_at(m, MT_INIT_BONUS)]
        if h != mo:
            emit_nb(state, enums.EV_INITIATIVE, p, h, mo, 1 if h > mo else 0)
            return 1 if h > mo else 0
        ties = state[INITIATIVE_TIES]
        if ties == enums.TIE_HERO or ties == enums.TIE_MONSTER:
            emit_nb(state, enums.EV_INITIATIVE, p, h, mo, 1 if ties == enums.TIE_HERO else 0)
            return 1 if ties == enums.TIE_HERO else 0
        emit_nb(state, enums.EV_INITIATIVE, p, h, mo, -1)


@rules_jit
def combat_options_nb(state, p):
    """The hero's options this combat round, as rows (kind, item chit): run, its own weapon, each carried attack
    item with uses left, each carried potion. Returns how many."""
    n = 0
    state[opt_at(n, 0)] = enums.CO_RUN
    state[opt_at(n, 1)] = -1
    n += 1
    state[opt_at(n, 0)] = enums.CO_ATTACK
    state[opt_at(n, 1)] = -1
    n += 1
    for k in range(state[hs_at(p, HS_N_ITEMS)]):
        c = state[held_at(p, k)]
        item = item_of_nb(state, c)
        if (state[it_at(item, IT_FLAGS)] & enums.IF_ATTACK) != 0:
            state[opt_at(n, 0)] = enums.CO_ATTACK
            state[opt_at(n, 1)] = c
            n += 1
        elif state[it_at(item, IT_HEAL)] > 0:
            state[opt_at(n, 0)] = enums.CO_POTION
            state[opt_at(n, 1)] = c
            n += 1
    state[N_CANDIDATES] = n
    return n


@rules_jit
def use_up_nb(state, p, c):
    """A limited item used once more; after its last use it leaves the game (Limited Uses)."""
    if state[it_at(item_of_nb(state, c), IT_USES)] == 0:
        return
    state[at(CHIT_USES, c)] -= 1
    if state[at(CHIT_USES, c)] <= 0:
        uncarry_nb(state, p, c, enums.LOC_GONE)
        emit_nb(state, enums.EV_USED_UP, p, c, 0, 0)


@rules_jit
def may_damage_nb(state, p, c, m):
    """Can an attack of hero p with item chit c (-1: its own weapon) damage monster m ("Can only be damaged by")?
    (``pieces.may_damage_with_nb`` of the chit's item.)"""
    return may_damage_with_nb(state, p, item_of_nb(state, c) if c >= 0 else -1, m)


@rules_jit
def monster_dies_nb(state, tables, p, c, m, item):
    """The monster is dead: the hero keeps its stand-up and chit; the Specter's death ends the game."""
    emit_nb(state, enums.EV_KILL, p, c, m, 0)
    lift_chit_nb(state, tables, c)
    keep_monster_nb(state, p, c)
    state[hs_at(p, HS_KILLS)] += 1
    state[mcnt_at(p, m, MC_KILLS)] += 1
    if item >= 0 and state[it_at(item, IT_BANE)] == m:
        state[hs_at(p, HS_BANE_KILLS)] += 1
    if is_specter_nb(state, c):
        state[hs_at(p, HS_SPECTER_KILL)] = 1
        state[SPECTER_KILLER] = p


@rules_jit
def hero_attacks_nb(state, tables, p, c, m, weapon):
    """Attacking: 1d6 + attack number + bonuses against the monster's armour class; a hit the monster is not immune
    to does 1 + bonuses damage (Attacking, Damage)."""
    item = item_of_nb(state, weapon) if weapon >= 0 else -1
    bonus = state[hs_at(p, HS_ATTACK)] - state[hs_at(p, HS_DRAINS)]
    if item >= 0 and counts_nb(state, item, m):
        bonus += state[it_at(item, IT_ATTACK)]
    if state[mt_at(m, MT_UNDEAD)] == 1:
        bonus += ability_nb(state, p, enums.AB_UNDEAD_BONUS)
    if state[SLOWED] == 1:
        bonus -= 2
        state[SLOWED] = 0
    if 6 + bonus >= state[mt_at(m, MT_AC)] and may_damage_nb(state, p, weapon, m):
        state[HURT] = 1                          # this attack could hurt the monster
    roll = die_nb(state, 6)
    hit = roll + bonus >= state[mt_at(m, MT_AC)]
    emit_nb(state, enums.EV_WEAPON, p, weapon, 0, 0)
    emit_nb(state, enums.EV_ATTACK, p, roll, roll + bonus, 1 if hit else 0)
    result = FIGHT_ON
    if hit:
        if not may_damage_nb(state, p, weapon, m):
            emit_nb(state, enums.EV_IMMUNE, p, c, 0, 0)
        else:
            dmg = hit_damage_nb(state, p, item, m)
            hp = state[FIGHT_HP] - dmg
            state[FIGHT_HP] = hp
            state[hs_at(p, HS_DAMAGE_DEALT)] += dmg
            if is_specter_nb(state, c):
                state[hs_at(p, HS_HIT_SPECTER_NOW)] = 1
            emit_nb(state, enums.EV_DAMAGE, p, dmg, hp, 0)
            if hp <= 0:
                monster_dies_nb(state, tables, p, c, m, item)
                result = MONSTER_DIED
    if weapon >= 0:
        use_up_nb(state, p, weapon)
    return result


@rules_jit
def back_up_nb(state, tables, costs, p):
    """Running from the Specter: the hero backs up two squares along the path it came by this turn, or fewer when
    the path is shorter or those squares are taken (The Specter of Sir Jameson); none when it did not move this turn
    or both squares are taken, and then the `back` event names the square it stays on. The path (this turn's move,
    from SC_PATH_FROM to where the hero stands, under this turn's climbing table) is recorded here, when first
    read."""
    if state[PATH_LENGTH] == 0 and state[PATH_FROM] >= 0:
        record_path_nb(state, tables, costs, state[CLIMB_TABLE], state[PATH_FROM], state[hs_at(p, HS_SQ)])
    n = state[PATH_LENGTH]
    for back in (2, 1):
        if n - 1 - back >= 0:
            q = state[at(PATH, n - 1 - back)]
            if free_square_nb(state, q, p):
                place_hero_nb(state, p, q)
                emit_nb(state, enums.EV_BACK, p, q, 0, 0)
                return
    emit_nb(state, enums.EV_BACK, p, state[hs_at(p, HS_SQ)], 0, 0)


@rules_jit
def run_away_nb(state, tables, costs, p, c, m):
    """Running Away: 1d10 (+ the run bonus) at least the monster's attack number escapes; the monster and its chit
    leave the game, except the Specter, which stays while the hero backs up."""
    roll = die_nb(state, 10) + ability_nb(state, p, enums.AB_RUN_BONUS)
    escaped = roll >= state[mt_at(m, MT_ATTACK)]
    emit_nb(state, enums.EV_RUN, p, roll, 1 if escaped else 0, 0)
    if not escaped:
        return RUN_FAILED
    state[hs_at(p, HS_RUNS)] += 1
    state[mcnt_at(p, m, MC_RUNS)] += 1
    if state[mt_at(m, MT_STAYS)] == 1:
        back_up_nb(state, tables, costs, p)
    else:
        monster_gone_nb(state, tables, p, c)
    return HERO_ESCAPED


@rules_jit
def monster_gone_nb(state, tables, p, c):
    """The monster and its chit leave the game (fled from, killed a hero, the robber fly gone away)."""
    lift_chit_nb(state, tables, c)
    set_loc_nb(state, c, enums.LOC_GONE)
    emit_nb(state, enums.EV_MONSTER_GONE, p, c, 0, 0)


@rules_jit
def hero_acts_nb(state, params, tables, costs, p, c, m):
    """The hero's action in a combat round, chosen by its strategy: run, attack (which weapon), or a potion."""
    n = combat_options_nb(state, p)
    i = strategies.combat_nb(state, params, p, c)
    if i < 0 or i >= n:
        illegal_nb(state, p, enums.DEC_COMBAT, i)
        return STOP
    kind = state[opt_at(i, 0)]
    chit = state[opt_at(i, 1)]
    if kind == enums.CO_RUN:
        return run_away_nb(state, tables, costs, p, c, m)
    if kind == enums.CO_ATTACK:
        return hero_attacks_nb(state, tables, p, c, m, chit)
    hp = min(state[hs_at(p, HS_MAXHP)], state[hs_at(p, HS_HP)] + state[it_at(item_of_nb(state, chit), IT_HEAL)])
    state[hs_at(p, HS_HP)] = hp
    emit_nb(state, enums.EV_POTION, p, chit, hp, 0)
    use_up_nb(state, p, chit)
    return FIGHT_ON


@rules_jit
def right_of_nb(state, p):
    """The player on the hero's right, who handles the monster's attacks (The Order of Play): the seat before."""
    n = state[PLAYERS]
    return p - 1 if p > 0 else n - 1


@rules_jit
def robber_fly_nb(state, params, tables, costs, p, c):
    """A robber fly's hit: the player on the right moves one of the hero's items 10 squares away, face up; a hero with
    no item left sends the fly away. Returns FIGHT_ON, MONSTER_LEFT or STOP."""
    n_items = state[hs_at(p, HS_N_ITEMS)]
    if n_items == 0:
        emit_nb(state, enums.EV_FLY_AWAY, p, c, 0, 0)
        monster_gone_nb(state, tables, p, c)
        return MONSTER_LEFT
    who = right_of_nb(state, p)
    state[VICTIM] = p
    for k in range(n_items):
        state[at(CAND, k)] = state[held_at(p, k)]
    state[N_CANDIDATES] = n_items
    i = strategies.steal_item_nb(state, params, tables, who, p)
    if i < 0 or i >= n_items:
        illegal_nb(state, who, enums.DEC_STEAL_ITEM, i)
        return STOP
    item = state[at(CAND, i)]
    here = state[hs_at(p, HS_SQ)]
    reach = -1                      # cost 10 if a free square lies there, else the largest cost below 10
    for q in range(tables[G_N]):
        k = cost(costs, tables, FREE_CLIMB, here, q)
        if k <= ROBBER_FLY_REACH and k > reach and free_square_nb(state, q, -1):
            reach = k
    n = 0
    for q in range(tables[G_N]):
        if cost(costs, tables, FREE_CLIMB, here, q) == reach and free_square_nb(state, q, -1):
            state[at(CAND, n)] = q
            n += 1
    state[N_CANDIDATES] = n
    j = strategies.steal_square_nb(state, params, tables, costs, who, p)
    if j < 0 or j >= n:
        illegal_nb(state, who, enums.DEC_STEAL_SQUARE, j)
        return STOP
    q = state[at(CAND, j)]
    uncarry_nb(state, p, item, enums.LOC_FLOOR)
    lay_chit_nb(state, tables, item, q, enums.LOC_FLOOR)
    emit_nb(state, enums.EV_STOLEN, p, item, q, who)
    return FIGHT_ON


@rules_jit
def rust_nb(state, params, p, m):
    """A rust monster's hit: the player on the right picks one of the hero's metal items; it leaves the game."""
    n = 0
    for k in range(state[hs_at(p, HS_N_ITEMS)]):
        c = state[held_at(p, k)]
        if (state[it_at(item_of_nb(state, c), IT_FLAGS)] & enums.IF_METAL) != 0:
            state[at(CAND, n)] = c
            n += 1
    if n == 0:
        return FIGHT_ON
    who = right_of_nb(state, p)
    state[VICTIM] = p
    state[N_CANDIDATES] = n
    i = strategies.rust_nb(state, params, who, p)
    if i < 0 or i >= n:
        illegal_nb(state, who, enums.DEC_RUST, i)
        return STOP
    c = state[at(CAND, i)]
    uncarry_nb(state, p, c, enums.LOC_GONE)
    emit_nb(state, enums.EV_RUSTED, p, c, who, 0)
    return FIGHT_ON


@rules_jit
def hero_dies_nb(state, params, tables, p, c, m):
    """Dying: -1 to the attack number (a "-1" chit), back outside at full hit points; the second death puts the hero
    out of the game. The monster that killed it leaves the board, except the Specter. A ghoul's hold ends with the
    death, whichever it is."""
    deaths = state[hs_at(p, HS_DEATHS)] + 1
    state[hs_at(p, HS_DEATHS)] = deaths
    state[hs_at(p, HS_HELD_TURN)] = 0
    state[mcnt_at(p, m, MC_HERO_DEATHS)] += 1
    if state[mt_at(m, MT_STAYS)] == 0:
        monster_gone_nb(state, tables, p, c)
    if deaths >= 2:
        state[hs_at(p, HS_OUT)] = 1
        state[HEROES_IN] -= 1
        place_hero_nb(state, p, -1)
        emit_nb(state, enums.EV_DEATH, p, deaths, -1, 0)
        emit_nb(state, enums.EV_OUT, p, 0, 0, 0)
        return HERO_DIED
    state[hs_at(p, HS_DRAINS)] += 1
    state[hs_at(p, HS_HP)] = state[hs_at(p, HS_MAXHP)]
    q = respawn_nb(state, params, tables, p)
    if q < 0:
        return STOP
    place_hero_nb(state, p, q)
    emit_nb(state, enums.EV_DEATH, p, deaths, q, 0)
    return HERO_DIED


@rules_jit
def monster_attacks_nb(state, params, tables, costs, p, c, m):
    """The monster's attack roll (handled by the player on the right): 1d6 + its attack number against the hero's
    armour class, then what its hit does (Damage, Energy Drain, Monster Listing)."""
    ac = armour_class_nb(state, p, m)
    kind = state[mt_at(m, MT_DAMAGE)]
    if 6 + state[mt_at(m, MT_ATTACK)] >= ac and kind != enums.DMG_RUST:
        state[HURT] = 1                          # this attack could hurt the hero (or take its items)
    roll = die_nb(state, 6)
    total = roll + state[mt_at(m, MT_ATTACK)]
    hit = total >= ac
    emit_nb(state, enums.EV_MONSTER_ATTACK, p, roll, total, 1 if hit else 0)
    if not hit:
        return FIGHT_ON
    if kind == enums.DMG_STEAL:
        return robber_fly_nb(state, params, tables, costs, p, c)
    if kind == enums.DMG_RUST:
        return rust_nb(state, params, p, m)
    loss = 1
    if kind == enums.DMG_NORMAL:
        outcome = enums.HIT_DOUBLE if state[mt_at(m, MT_DOUBLE)] == 1 else enums.HIT_NORMAL
        if state[mt_at(m, MT_HAS_ROLL)] == 1:
            face = die_nb(state, 10)
            outcome = state[hit_roll_at(m, face)]
            emit_nb(state, enums.EV_HIT_ROLL, p, face, outcome, 0)
        if outcome == enums.HIT_DOUBLE:
            loss = 2
        elif outcome == enums.HIT_STONE:
            loss = max(1, state[hs_at(p, HS_HP)])
        elif outcome == enums.HIT_SLOWED:
            state[SLOWED] = 1
        elif outcome == enums.HIT_HELD:
            state[hs_at(p, HS_HELD_TURN)] = 1
    elif kind == enums.DMG_DOUBLE_DRAIN:
        loss = 2
    hp = state[hs_at(p, HS_HP)] - loss
    state[hs_at(p, HS_HP)] = hp
    state[hs_at(p, HS_DAMAGE_TAKEN)] += loss
    emit_nb(state, enums.EV_WOUND, p, loss, hp, 0)
    if (kind == enums.DMG_DRAIN or kind == enums.DMG_DOUBLE_DRAIN) and state[FIGHT_DRAINED] == 0:
        state[FIGHT_DRAINED] = 1
        state[hs_at(p, HS_DRAINS)] += 1
        emit_nb(state, enums.EV_DRAIN, p, state[hs_at(p, HS_DRAINS)], 0, 0)
    if hp <= 0:
        return hero_dies_nb(state, params, tables, p, c, m)
    return FIGHT_ON


@rules_jit
def fight_nb(state, params, tables, costs, p, c):
    """One encounter with the monster on chit c, to its end. Returns the outcome (MONSTER_DIED, HERO_ESCAPED,
    HERO_DIED, MONSTER_LEFT or STOP). A round in which no attack could hurt its target (the hero's chosen attack
    cannot reach the monster's armour class or cannot damage it, or the hero runs or drinks; the monster's cannot
    reach the hero's armour class, or is the rust monster's) changes nothing but the hero's potions and limited
    items: after FIGHT_CAP_ROUNDS of them in a row the game ends, unfinished (the fight cap)."""
    m = state[at(CHIT_INDEX, c)]
    set_loc_nb(state, c, enums.LOC_FIGHT)
    turn_up_nb(state, c)
    state[FIGHT_CHIT] = c
    state[FIGHT_HP] = state[mt_at(m, MT_HP)]
    state[FIGHT_DRAINED] = 0
    state[SLOWED] = 0
    state[hs_at(p, HS_HIT_SPECTER_NOW)] = 0
    state[mcnt_at(p, m, MC_ENCOUNTERS)] += 1
    emit_nb(state, enums.EV_FIGHT, p, c, m, 0)
    result = FIGHT_ON
    quiet = 0                                        # rounds in a row in which nobody could be hurt
    while result == FIGHT_ON:
        if quiet == FIGHT_CAP_ROUNDS:
            emit_nb(state, enums.EV_CAP, -1, state[TURN], 1, 0)
            state[hs_at(p, HS_FIGHT_CAP)] = 1
            result = STOP
            break
        state[HURT] = 0
        hero_first = initiative_nb(state, p, m)
        if hero_first == 1:
            result = hero_acts_nb(state, params, tables, costs, p, c, m)
            if result == FIGHT_ON or result == RUN_FAILED:
                result = monster_attacks_nb(state, params, tables, costs, p, c, m)
        else:
            result = monster_attacks_nb(state, params, tables, costs, p, c, m)
            if result == FIGHT_ON:
                result = hero_acts_nb(state, params, tables, costs, p, c, m)
                if result == RUN_FAILED:
                    result = monster_attacks_nb(state, params, tables, costs, p, c, m)
        quiet = quiet + 1 if state[HURT] == 0 else 0
    if state[at(CHIT_LOC, c)] == enums.LOC_FIGHT:            # the Specter, still standing
        set_loc_nb(state, c, enums.LOC_BOARD)
    if state[hs_at(p, HS_HIT_SPECTER_NOW)] == 1:
        if state[SPECTER_DAMAGE_ONCE] == 1:
            state[hs_at(p, HS_SPECTER_HIT)] = 1
        else:
            state[hs_at(p, HS_SPECTER_HIT)] += 1
        state[hs_at(p, HS_HIT_SPECTER_NOW)] = 0
    state[FIGHT_CHIT] = -1
    return result
