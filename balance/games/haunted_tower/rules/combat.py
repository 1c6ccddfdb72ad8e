"""The Haunted Tower's combat (rulebook: Initiative, Attacking, Running Away, Damage, Dying, Experience, Undead,
Special Abilities, The Specter of Sir Jameson, Monster Listing).

``fight_nb`` plays one encounter with a monster to its end: combat rounds of initiative and attacks until the monster
dies, the hero dies, the hero runs away or the robber fly goes away. Only a fight in which neither side can hurt the
other has an end of another kind: the fight cap, after FIGHT_CAP_ROUNDS such rounds in a row (docs/rules/
haunted_tower.md, Rounds). Every choice on the hero's side (run, which
weapon, a potion) is the hero's strategy's; the choices the rulebook gives "the person on his or her right" (which
item the robber fly moves and where, which metal item the rust monster eats) are that seat's strategy's.
"""
from __future__ import annotations

from ....core.jit import rules_jit
from .. import enums as E
from .. import strategies as S
from ..layout import (CAND, CHIT_INDEX, CHIT_LOC, CHIT_USES, G_N, HS_ATTACK, HS_BANE_KILLS, HS_DAMAGE_DEALT,
                     HS_DAMAGE_TAKEN, HS_DEATHS, HS_DRAINS, HS_HELD_TURN, HS_HERO, HS_HIT_SPECTER_NOW, HS_HP, HS_KILLS,
                     HS_MAXHP, HS_N_ITEMS, HS_OUT, HS_RUNS, HS_SPECTER_HIT, HS_SPECTER_KILL, HS_SQ, HT_AC, IT_AC,
                     IT_ATTACK, IT_BANE, IT_FLAGS, IT_HEAL, IT_USES, MC_ENCOUNTERS, MC_HERO_DEATHS, MC_KILLS, MC_RUNS,
                     MT_AC, MT_ATTACK, MT_DAMAGE, MT_DOUBLE, MT_HAS_ROLL, MT_HP, MT_INIT_BONUS, MT_INITIATIVE,
                     MT_STAYS, MT_UNDEAD, OPT, OPT_INIT_TIES, OPT_PLAYERS, OPT_SPECTER_ONCE, PATH, SC, SC_FIGHT,
                     SC_FIGHT_DRAINED, SC_FIGHT_HP, SC_IN, SC_N_CAND, SC_CLIMB, SC_PATH_FROM, SC_PATH_N, SC_SLOWED,
                     SC_SPECTER_KILLER, SC_VICTIM, at, cost, held_at, hit_roll_at, hs_at, ht_at, it_at, mcnt_at, mt_at,
                     opt_at, FIGHT_CAP_ROUNDS, HS_FIGHT_CAP, SC_HURT, SC_TURN)
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
def armour_class_nb(s, p, m):
    """The hero's armour class against monster m: its card, plus its armour, shield and other items."""
    ac = s[ht_at(s[hs_at(p, HS_HERO)], HT_AC)]
    for k in range(s[hs_at(p, HS_N_ITEMS)]):
        item = item_of_nb(s, s[held_at(p, k)])
        if counts_nb(s, item, m):
            ac += s[it_at(item, IT_AC)]
    return ac


@rules_jit
def initiative_nb(s, p, m):
    """Who attacks first this combat round: 1 the hero, 0 the monster (Initiative)."""
    if s[mt_at(m, MT_INITIATIVE)] == E.INIT_ALWAYS_LOSES:
        emit_nb(s, E.EV_INITIATIVE, p, -1, -1, 1)
        return 1
    while True:
        h = die_nb(s, 6) + ability_nb(s, p, E.AB_INITIATIVE_BONUS)
        mo = die_nb(s, 6) + s[mt_at(m, MT_INIT_BONUS)]
        if h != mo:
            emit_nb(s, E.EV_INITIATIVE, p, h, mo, 1 if h > mo else 0)
            return 1 if h > mo else 0
        ties = s[OPT + OPT_INIT_TIES]
        if ties == E.TIE_HERO or ties == E.TIE_MONSTER:
            emit_nb(s, E.EV_INITIATIVE, p, h, mo, 1 if ties == E.TIE_HERO else 0)
            return 1 if ties == E.TIE_HERO else 0
        emit_nb(s, E.EV_INITIATIVE, p, h, mo, -1)


@rules_jit
def combat_options_nb(s, p):
    """The hero's options this combat round, as rows (kind, item chit): run, its own weapon, each carried attack
    item with uses left, each carried potion. Returns how many."""
    n = 0
    s[opt_at(n, 0)] = E.CO_RUN
    s[opt_at(n, 1)] = -1
    n += 1
    s[opt_at(n, 0)] = E.CO_ATTACK
    s[opt_at(n, 1)] = -1
    n += 1
    for k in range(s[hs_at(p, HS_N_ITEMS)]):
        c = s[held_at(p, k)]
        item = item_of_nb(s, c)
        if (s[it_at(item, IT_FLAGS)] & E.IF_ATTACK) != 0:
            s[opt_at(n, 0)] = E.CO_ATTACK
            s[opt_at(n, 1)] = c
            n += 1
        elif s[it_at(item, IT_HEAL)] > 0:
            s[opt_at(n, 0)] = E.CO_POTION
            s[opt_at(n, 1)] = c
            n += 1
    s[SC + SC_N_CAND] = n
    return n


@rules_jit
def use_up_nb(s, p, c):
    """A limited item used once more; after its last use it leaves the game (Limited Uses)."""
    if s[it_at(item_of_nb(s, c), IT_USES)] == 0:
        return
    s[at(CHIT_USES, c)] -= 1
    if s[at(CHIT_USES, c)] <= 0:
        uncarry_nb(s, p, c, E.LOC_GONE)
        emit_nb(s, E.EV_USED_UP, p, c, 0, 0)


@rules_jit
def may_damage_nb(s, p, c, m):
    """Can an attack of hero p with item chit c (-1: its own weapon) damage monster m ("Can only be damaged by")?
    (``pieces.may_damage_with_nb`` of the chit's item.)"""
    return may_damage_with_nb(s, p, item_of_nb(s, c) if c >= 0 else -1, m)


@rules_jit
def monster_dies_nb(s, g, p, c, m, item):
    """The monster is dead: the hero keeps its stand-up and chit; the Specter's death ends the game."""
    emit_nb(s, E.EV_KILL, p, c, m, 0)
    lift_chit_nb(s, g, c)
    keep_monster_nb(s, p, c)
    s[hs_at(p, HS_KILLS)] += 1
    s[mcnt_at(p, m, MC_KILLS)] += 1
    if item >= 0 and s[it_at(item, IT_BANE)] == m:
        s[hs_at(p, HS_BANE_KILLS)] += 1
    if is_specter_nb(s, c):
        s[hs_at(p, HS_SPECTER_KILL)] = 1
        s[SC + SC_SPECTER_KILLER] = p


@rules_jit
def hero_attacks_nb(s, g, p, c, m, weapon):
    """Attacking: 1d6 + attack number + bonuses against the monster's armour class; a hit the monster is not immune
    to does 1 + bonuses damage (Attacking, Damage)."""
    item = item_of_nb(s, weapon) if weapon >= 0 else -1
    bonus = s[hs_at(p, HS_ATTACK)] - s[hs_at(p, HS_DRAINS)]
    if item >= 0 and counts_nb(s, item, m):
        bonus += s[it_at(item, IT_ATTACK)]
    if s[mt_at(m, MT_UNDEAD)] == 1:
        bonus += ability_nb(s, p, E.AB_UNDEAD_BONUS)
    if s[SC + SC_SLOWED] == 1:
        bonus -= 2
        s[SC + SC_SLOWED] = 0
    if 6 + bonus >= s[mt_at(m, MT_AC)] and may_damage_nb(s, p, weapon, m):
        s[SC + SC_HURT] = 1                          # this attack could hurt the monster
    roll = die_nb(s, 6)
    hit = roll + bonus >= s[mt_at(m, MT_AC)]
    emit_nb(s, E.EV_WEAPON, p, weapon, 0, 0)
    emit_nb(s, E.EV_ATTACK, p, roll, roll + bonus, 1 if hit else 0)
    result = FIGHT_ON
    if hit:
        if not may_damage_nb(s, p, weapon, m):
            emit_nb(s, E.EV_IMMUNE, p, c, 0, 0)
        else:
            dmg = hit_damage_nb(s, p, item, m)
            hp = s[SC + SC_FIGHT_HP] - dmg
            s[SC + SC_FIGHT_HP] = hp
            s[hs_at(p, HS_DAMAGE_DEALT)] += dmg
            if is_specter_nb(s, c):
                s[hs_at(p, HS_HIT_SPECTER_NOW)] = 1
            emit_nb(s, E.EV_DAMAGE, p, dmg, hp, 0)
            if hp <= 0:
                monster_dies_nb(s, g, p, c, m, item)
                result = MONSTER_DIED
    if weapon >= 0:
        use_up_nb(s, p, weapon)
    return result


@rules_jit
def back_up_nb(s, g, d, p):
    """Running from the Specter: the hero backs up two squares along the path it came by this turn, or fewer when
    the path is shorter or those squares are taken (The Specter of Sir Jameson); none when it did not move this turn
    or both squares are taken, and then the `back` event names the square it stays on. The path (this turn's move,
    from SC_PATH_FROM to where the hero stands, under this turn's climbing table) is recorded here, when first
    read."""
    if s[SC + SC_PATH_N] == 0 and s[SC + SC_PATH_FROM] >= 0:
        record_path_nb(s, g, d, s[SC + SC_CLIMB], s[SC + SC_PATH_FROM], s[hs_at(p, HS_SQ)])
    n = s[SC + SC_PATH_N]
    for back in (2, 1):
        if n - 1 - back >= 0:
            q = s[at(PATH, n - 1 - back)]
            if free_square_nb(s, q, p):
                place_hero_nb(s, p, q)
                emit_nb(s, E.EV_BACK, p, q, 0, 0)
                return
    emit_nb(s, E.EV_BACK, p, s[hs_at(p, HS_SQ)], 0, 0)


@rules_jit
def run_away_nb(s, g, d, p, c, m):
    """Running Away: 1d10 (+ the run bonus) at least the monster's attack number escapes; the monster and its chit
    leave the game, except the Specter, which stays while the hero backs up."""
    roll = die_nb(s, 10) + ability_nb(s, p, E.AB_RUN_BONUS)
    escaped = roll >= s[mt_at(m, MT_ATTACK)]
    emit_nb(s, E.EV_RUN, p, roll, 1 if escaped else 0, 0)
    if not escaped:
        return RUN_FAILED
    s[hs_at(p, HS_RUNS)] += 1
    s[mcnt_at(p, m, MC_RUNS)] += 1
    if s[mt_at(m, MT_STAYS)] == 1:
        back_up_nb(s, g, d, p)
    else:
        monster_gone_nb(s, g, p, c)
    return HERO_ESCAPED


@rules_jit
def monster_gone_nb(s, g, p, c):
    """The monster and its chit leave the game (fled from, killed a hero, the robber fly gone away)."""
    lift_chit_nb(s, g, c)
    set_loc_nb(s, c, E.LOC_GONE)
    emit_nb(s, E.EV_MONSTER_GONE, p, c, 0, 0)


@rules_jit
def hero_acts_nb(s, f, g, d, p, c, m):
    """The hero's action in a combat round, chosen by its strategy: run, attack (which weapon), or a potion."""
    n = combat_options_nb(s, p)
    i = S.combat_nb(s, f, p, c)
    if i < 0 or i >= n:
        illegal_nb(s, p, E.DEC_COMBAT, i)
        return STOP
    kind = s[opt_at(i, 0)]
    chit = s[opt_at(i, 1)]
    if kind == E.CO_RUN:
        return run_away_nb(s, g, d, p, c, m)
    if kind == E.CO_ATTACK:
        return hero_attacks_nb(s, g, p, c, m, chit)
    hp = min(s[hs_at(p, HS_MAXHP)], s[hs_at(p, HS_HP)] + s[it_at(item_of_nb(s, chit), IT_HEAL)])
    s[hs_at(p, HS_HP)] = hp
    emit_nb(s, E.EV_POTION, p, chit, hp, 0)
    use_up_nb(s, p, chit)
    return FIGHT_ON


@rules_jit
def right_of_nb(s, p):
    """The player on the hero's right, who handles the monster's attacks (The Order of Play): the seat before."""
    n = s[OPT + OPT_PLAYERS]
    return p - 1 if p > 0 else n - 1


@rules_jit
def robber_fly_nb(s, f, g, d, p, c):
    """A robber fly's hit: the player on the right moves one of the hero's items 10 squares away, face up; a hero with
    no item left sends the fly away. Returns FIGHT_ON, MONSTER_LEFT or STOP."""
    n_items = s[hs_at(p, HS_N_ITEMS)]
    if n_items == 0:
        emit_nb(s, E.EV_FLY_AWAY, p, c, 0, 0)
        monster_gone_nb(s, g, p, c)
        return MONSTER_LEFT
    who = right_of_nb(s, p)
    s[SC + SC_VICTIM] = p
    for k in range(n_items):
        s[at(CAND, k)] = s[held_at(p, k)]
    s[SC + SC_N_CAND] = n_items
    i = S.steal_item_nb(s, f, g, who, p)
    if i < 0 or i >= n_items:
        illegal_nb(s, who, E.DEC_STEAL_ITEM, i)
        return STOP
    item = s[at(CAND, i)]
    here = s[hs_at(p, HS_SQ)]
    reach = -1                      # cost 10 if a free square lies there, else the largest cost below 10
    for q in range(g[G_N]):
        k = cost(d, g, FREE_CLIMB, here, q)
        if k <= ROBBER_FLY_REACH and k > reach and free_square_nb(s, q, -1):
            reach = k
    n = 0
    for q in range(g[G_N]):
        if cost(d, g, FREE_CLIMB, here, q) == reach and free_square_nb(s, q, -1):
            s[at(CAND, n)] = q
            n += 1
    s[SC + SC_N_CAND] = n
    j = S.steal_square_nb(s, f, g, d, who, p)
    if j < 0 or j >= n:
        illegal_nb(s, who, E.DEC_STEAL_SQUARE, j)
        return STOP
    q = s[at(CAND, j)]
    uncarry_nb(s, p, item, E.LOC_FLOOR)
    lay_chit_nb(s, g, item, q, E.LOC_FLOOR)
    emit_nb(s, E.EV_STOLEN, p, item, q, who)
    return FIGHT_ON


@rules_jit
def rust_nb(s, f, p, m):
    """A rust monster's hit: the player on the right picks one of the hero's metal items; it leaves the game."""
    n = 0
    for k in range(s[hs_at(p, HS_N_ITEMS)]):
        c = s[held_at(p, k)]
        if (s[it_at(item_of_nb(s, c), IT_FLAGS)] & E.IF_METAL) != 0:
            s[at(CAND, n)] = c
            n += 1
    if n == 0:
        return FIGHT_ON
    who = right_of_nb(s, p)
    s[SC + SC_VICTIM] = p
    s[SC + SC_N_CAND] = n
    i = S.rust_nb(s, f, who, p)
    if i < 0 or i >= n:
        illegal_nb(s, who, E.DEC_RUST, i)
        return STOP
    c = s[at(CAND, i)]
    uncarry_nb(s, p, c, E.LOC_GONE)
    emit_nb(s, E.EV_RUSTED, p, c, who, 0)
    return FIGHT_ON


@rules_jit
def hero_dies_nb(s, f, g, p, c, m):
    """Dying: -1 to the attack number (a "-1" chit), back outside at full hit points; the second death puts the hero
    out of the game. The monster that killed it leaves the board, except the Specter. A ghoul's hold ends with the
    death, whichever it is."""
    deaths = s[hs_at(p, HS_DEATHS)] + 1
    s[hs_at(p, HS_DEATHS)] = deaths
    s[hs_at(p, HS_HELD_TURN)] = 0
    s[mcnt_at(p, m, MC_HERO_DEATHS)] += 1
    if s[mt_at(m, MT_STAYS)] == 0:
        monster_gone_nb(s, g, p, c)
    if deaths >= 2:
        s[hs_at(p, HS_OUT)] = 1
        s[SC + SC_IN] -= 1
        place_hero_nb(s, p, -1)
        emit_nb(s, E.EV_DEATH, p, deaths, -1, 0)
        emit_nb(s, E.EV_OUT, p, 0, 0, 0)
        return HERO_DIED
    s[hs_at(p, HS_DRAINS)] += 1
    s[hs_at(p, HS_HP)] = s[hs_at(p, HS_MAXHP)]
    q = respawn_nb(s, f, g, p)
    if q < 0:
        return STOP
    place_hero_nb(s, p, q)
    emit_nb(s, E.EV_DEATH, p, deaths, q, 0)
    return HERO_DIED


@rules_jit
def monster_attacks_nb(s, f, g, d, p, c, m):
    """The monster's attack roll (handled by the player on the right): 1d6 + its attack number against the hero's
    armour class, then what its hit does (Damage, Energy Drain, Monster Listing)."""
    ac = armour_class_nb(s, p, m)
    kind = s[mt_at(m, MT_DAMAGE)]
    if 6 + s[mt_at(m, MT_ATTACK)] >= ac and kind != E.DMG_RUST:
        s[SC + SC_HURT] = 1                          # this attack could hurt the hero (or take its items)
    roll = die_nb(s, 6)
    total = roll + s[mt_at(m, MT_ATTACK)]
    hit = total >= ac
    emit_nb(s, E.EV_MONSTER_ATTACK, p, roll, total, 1 if hit else 0)
    if not hit:
        return FIGHT_ON
    if kind == E.DMG_STEAL:
        return robber_fly_nb(s, f, g, d, p, c)
    if kind == E.DMG_RUST:
        return rust_nb(s, f, p, m)
    loss = 1
    if kind == E.DMG_NORMAL:
        outcome = E.HIT_DOUBLE if s[mt_at(m, MT_DOUBLE)] == 1 else E.HIT_NORMAL
        if s[mt_at(m, MT_HAS_ROLL)] == 1:
            face = die_nb(s, 10)
            outcome = s[hit_roll_at(m, face)]
            emit_nb(s, E.EV_HIT_ROLL, p, face, outcome, 0)
        if outcome == E.HIT_DOUBLE:
            loss = 2
        elif outcome == E.HIT_STONE:
            loss = max(1, s[hs_at(p, HS_HP)])
        elif outcome == E.HIT_SLOWED:
            s[SC + SC_SLOWED] = 1
        elif outcome == E.HIT_HELD:
            s[hs_at(p, HS_HELD_TURN)] = 1
    elif kind == E.DMG_DOUBLE_DRAIN:
        loss = 2
    hp = s[hs_at(p, HS_HP)] - loss
    s[hs_at(p, HS_HP)] = hp
    s[hs_at(p, HS_DAMAGE_TAKEN)] += loss
    emit_nb(s, E.EV_WOUND, p, loss, hp, 0)
    if (kind == E.DMG_DRAIN or kind == E.DMG_DOUBLE_DRAIN) and s[SC + SC_FIGHT_DRAINED] == 0:
        s[SC + SC_FIGHT_DRAINED] = 1
        s[hs_at(p, HS_DRAINS)] += 1
        emit_nb(s, E.EV_DRAIN, p, s[hs_at(p, HS_DRAINS)], 0, 0)
    if hp <= 0:
        return hero_dies_nb(s, f, g, p, c, m)
    return FIGHT_ON


@rules_jit
def fight_nb(s, f, g, d, p, c):
    """One encounter with the monster on chit c, to its end. Returns the outcome (MONSTER_DIED, HERO_ESCAPED,
    HERO_DIED, MONSTER_LEFT or STOP). A round in which no attack could hurt its target (the hero's chosen attack
    cannot reach the monster's armour class or cannot damage it, or the hero runs or drinks; the monster's cannot
    reach the hero's armour class, or is the rust monster's) changes nothing but the hero's potions and limited
    items: after FIGHT_CAP_ROUNDS of them in a row the game ends, unfinished (the fight cap)."""
    m = s[at(CHIT_INDEX, c)]
    set_loc_nb(s, c, E.LOC_FIGHT)
    turn_up_nb(s, c)
    s[SC + SC_FIGHT] = c
    s[SC + SC_FIGHT_HP] = s[mt_at(m, MT_HP)]
    s[SC + SC_FIGHT_DRAINED] = 0
    s[SC + SC_SLOWED] = 0
    s[hs_at(p, HS_HIT_SPECTER_NOW)] = 0
    s[mcnt_at(p, m, MC_ENCOUNTERS)] += 1
    emit_nb(s, E.EV_FIGHT, p, c, m, 0)
    result = FIGHT_ON
    quiet = 0                                        # rounds in a row in which nobody could be hurt
    while result == FIGHT_ON:
        if quiet == FIGHT_CAP_ROUNDS:
            emit_nb(s, E.EV_CAP, -1, s[SC + SC_TURN], 1, 0)
            s[hs_at(p, HS_FIGHT_CAP)] = 1
            result = STOP
            break
        s[SC + SC_HURT] = 0
        hero_first = initiative_nb(s, p, m)
        if hero_first == 1:
            result = hero_acts_nb(s, f, g, d, p, c, m)
            if result == FIGHT_ON or result == RUN_FAILED:
                result = monster_attacks_nb(s, f, g, d, p, c, m)
        else:
            result = monster_attacks_nb(s, f, g, d, p, c, m)
            if result == FIGHT_ON:
                result = hero_acts_nb(s, f, g, d, p, c, m)
                if result == RUN_FAILED:
                    result = monster_attacks_nb(s, f, g, d, p, c, m)
        quiet = quiet + 1 if s[SC + SC_HURT] == 0 else 0
    if s[at(CHIT_LOC, c)] == E.LOC_FIGHT:            # the Specter, still standing
        set_loc_nb(s, c, E.LOC_BOARD)
    if s[hs_at(p, HS_HIT_SPECTER_NOW)] == 1:
        if s[OPT + OPT_SPECTER_ONCE] == 1:
            s[hs_at(p, HS_SPECTER_HIT)] = 1
        else:
            s[hs_at(p, HS_SPECTER_HIT)] += 1
        s[hs_at(p, HS_HIT_SPECTER_NOW)] = 0
    s[SC + SC_FIGHT] = -1
    return result
