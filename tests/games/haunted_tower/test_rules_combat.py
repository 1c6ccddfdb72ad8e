"""The Haunted Tower combat rules, one test (at least) per rule of docs/rules/haunted_tower.md section 2 (Combat, the
monster abilities, Dying, the Specter, the end and the winner) and per rule option they read (`initiative_ties`,
`specter_damage_once`, `ties`, `out_hero_scores`, the `[components.scoring]` values).

As in ``test_rules.py``: every seat scripted, dice and decisions scripted (``haunted_table.Table``). A fight
is played alone with ``Table.fight`` (``combat.fight_nb``) or inside a hero turn with ``Table.turn``. Dice of a combat
round, in order: the hero's and the monster's initiative 1d6, then the first side's dice (the hero's 1d6 attack or
1d10 run; the monster's 1d6 attack, and on a hit its 1d10 table), then the other side's. Combat decisions are indexes
into the options: 0 run, 1 attack with the hero's own weapon, then one per carried attack item or potion.

Heroes by seat unless a test says otherwise: 0 fighter (8 hp, attack 3, AC 7, +1 damage), 1 dwarf (9 hp, attack 3,
AC 7), 2 elf (6 hp, attack 2, AC 6, magic). Monsters from the Monster Listing (HP; attack; AC).
"""
from __future__ import annotations

import pytest

from balance.games.haunted_tower.rules import combat as C
from balance.games.haunted_tower import enums as E
from balance.games.haunted_tower import layout as L
from balance.games.haunted_tower.rules import pieces as P
from balance.games.haunted_tower import strategies as S
from balance.games.haunted_tower.components import hero_list
from haunted_mirror import both_turns
from haunted_table import Table, kinds, only

RUN, OWN, ITEM1, ITEM2 = 0, 1, 2, 3          # combat options: run, own weapon, the first / second carried item
HERO_FIRST, MONSTER_FIRST = [6, 1], [1, 6]   # initiative dice
ESCAPE = [6, 1, 10]                          # a round in which the hero goes first and runs away (10 on 1d10)
HERO_SQ, MONSTER_SQ = (1, 3, 3), (1, 2, 3)   # two adjacent squares of the Armoury


def arena(t, name, p=0, colour=None, face_up=False):
    """Hero p in the Armoury with the monster `name` face down on the square above it; returns the chit."""
    t.place(p, t.sq(*HERO_SQ))
    return t.put(name, t.sq(*MONSTER_SQ), colour=colour, face_up=face_up)


def fight_of(t, c):
    return (E.EV_FIGHT, 0, c, t.contents[c][2], 0)


def rounds_of(ev):
    """The events of each combat round (split at the decisive initiative row)."""
    out, cur = [], []
    for e in ev:
        if e[0] == E.EV_INITIATIVE and e[4] != -1 and cur and any(x[0] != E.EV_INITIATIVE for x in cur):
            out.append(cur)
            cur = []
        cur.append(e)
    return out + [cur]


def with_hero(**hero):
    heroes = [h.model_dump() for h in hero_list()]
    heroes.append(dict(speed=3, hp=8, attack=3, ac=7, **hero))
    return {"heroes": heroes}


# =====================================================================================================================
# Initiative
# =====================================================================================================================

def test_initiative_is_rolled_every_round_and_the_higher_side_acts_first_until_the_monster_dies():
    t = Table()
    c = arena(t, "dire_wolf")                                   # HP 4; att 5; AC 6
    m = t.monster("dire_wolf")
    ev = t.fight(0, c, dice=[2, 5, 1, 6] + [5, 2, 6], choices=[OWN, OWN])
    assert ev == [fight_of(t, c),
                  (E.EV_INITIATIVE, 0, 2, 5, 0), (E.EV_MONSTER_ATTACK, 0, 1, 6, 0),         # 1 + 5 < AC 7
                  (E.EV_WEAPON, 0, -1, 0, 0), (E.EV_ATTACK, 0, 6, 9, 1), (E.EV_DAMAGE, 0, 2, 2, 0),  # 1 + 1
                  (E.EV_INITIATIVE, 0, 5, 2, 1), (E.EV_WEAPON, 0, -1, 0, 0), (E.EV_ATTACK, 0, 6, 9, 1),
                  (E.EV_DAMAGE, 0, 2, 0, 0),
                  (E.EV_KILL, 0, c, m, 0)]
    assert t.result == C.MONSTER_DIED
    # the hero keeps the chit and the stand-up
    assert t.loc(c) == E.LOC_KEPT and t.owner(c) == 0 and t.chit_sq(c) == -1 and t.at_sq(t.sq(*MONSTER_SQ))[0] == -1
    assert [t.hs(0, k) for k in (L.HS_STANDUPS, L.HS_KEPT_BLUE, L.HS_BLUE, L.HS_KILLS)] == [1] * 4
    assert t.s[L.mcnt_at(0, m, L.MC_KILLS)] == 1 and t.s[L.mcnt_at(0, m, L.MC_ENCOUNTERS)] == 1


def test_the_pit_viper_adds_one_to_its_initiative_roll():
    t = Table()
    c = arena(t, "pit_viper")                                   # HP 2; att 2; AC 6
    ev = t.fight(0, c, dice=[3, 2, 4, 2, 3], choices=[OWN])
    assert only(ev, E.EV_INITIATIVE) == [(E.EV_INITIATIVE, 0, 3, 3, -1), (E.EV_INITIATIVE, 0, 4, 3, 1)]
    t = Table()
    c = arena(t, "pit_viper")
    ev = t.fight(0, c, dice=[3, 3, 1, 6], choices=[OWN])                     # 3 < 3 + 1: the viper first
    assert ev[1:3] == [(E.EV_INITIATIVE, 0, 3, 4, 0), (E.EV_MONSTER_ATTACK, 0, 1, 3, 0)]


def test_zombies_always_lose_the_initiative_and_no_die_is_rolled():
    t = Table()
    c = arena(t, "zombie")                                      # HP 2; att 2; AC 4
    ev = t.fight(0, c, dice=[1], choices=[OWN])
    assert ev[1:] == [(E.EV_INITIATIVE, 0, -1, -1, 1), (E.EV_WEAPON, 0, -1, 0, 0), (E.EV_ATTACK, 0, 1, 4, 1),
                      (E.EV_DAMAGE, 0, 2, 0, 0), (E.EV_KILL, 0, c, t.monster("zombie"), 0)]


@pytest.mark.parametrize("ties, first", [("hero", 1), ("monster", 0)])
def test_initiative_ties_hero_or_monster_settles_a_tie_without_a_reroll(ties, first):
    t = Table(rules={"initiative_ties": ties})
    c = arena(t, "giant_rat")                                   # HP 1; att 1; AC 5
    if first:
        ev = t.fight(0, c, dice=[4, 4, 6], choices=[OWN])
        assert ev[1:4] == [(E.EV_INITIATIVE, 0, 4, 4, 1), (E.EV_WEAPON, 0, -1, 0, 0), (E.EV_ATTACK, 0, 6, 9, 1)]
    else:
        ev = t.fight(0, c, dice=[4, 4, 1, 6], choices=[OWN])
        assert ev[1:3] == [(E.EV_INITIATIVE, 0, 4, 4, 0), (E.EV_MONSTER_ATTACK, 0, 1, 2, 0)]


def test_initiative_ties_reroll_is_the_default():
    t = Table()
    c = arena(t, "giant_rat")
    ev = t.fight(0, c, dice=[4, 4, 2, 2, 3, 1, 6], choices=[OWN])
    assert only(ev, E.EV_INITIATIVE) == [(E.EV_INITIATIVE, 0, 4, 4, -1), (E.EV_INITIATIVE, 0, 2, 2, -1),
                                         (E.EV_INITIATIVE, 0, 3, 1, 1)]


def test_the_initiative_bonus_ability_adds_to_the_heros_roll():
    t = Table(heroes=["duelist", "dwarf", "elf"], components=with_hero(name="duelist", ability="initiative_bonus",
                                                                        ability_value=2))
    c = arena(t, "giant_rat")
    ev = t.fight(0, c, dice=[3, 4, 6], choices=[OWN])
    assert ev[1] == (E.EV_INITIATIVE, 0, 5, 4, 1)


# =====================================================================================================================
# Attacking and Damage
# =====================================================================================================================

def test_the_hero_hits_when_1d6_plus_attack_reaches_the_armour_class():
    t = Table()
    c = arena(t, "giant_rat")                                   # AC 5: 2 + 3 = 5 hits
    ev = t.fight(0, c, dice=HERO_FIRST + [2], choices=[OWN])
    assert ev[2:5] == [(E.EV_WEAPON, 0, -1, 0, 0), (E.EV_ATTACK, 0, 2, 5, 1), (E.EV_DAMAGE, 0, 2, -1, 0)]


def test_the_hero_misses_below_the_armour_class():
    t = Table()
    c = arena(t, "giant_rat")                                   # 1 + 3 = 4 < 5; the rat's attack; a new round
    ev = t.fight(0, c, dice=HERO_FIRST + [1, 1] + HERO_FIRST + [6], choices=[OWN, OWN])
    assert ev[3:6] == [(E.EV_ATTACK, 0, 1, 4, 0), (E.EV_MONSTER_ATTACK, 0, 1, 2, 0), (E.EV_INITIATIVE, 0, 6, 1, 1)]


@pytest.mark.parametrize("roll, hit", [(2, False), (3, True)])
def test_each_minus_one_chit_takes_one_from_the_attack(roll, hit):
    t = Table()
    t.set_drains(0, 1)
    c = arena(t, "giant_rat")
    dice = HERO_FIRST + [roll] + ([] if hit else [1] + HERO_FIRST + [6])
    ev = t.fight(0, c, dice=dice, choices=[OWN] * (1 if hit else 2))
    assert ev[2:4] == [(E.EV_WEAPON, 0, -1, 0, 0), (E.EV_ATTACK, 0, roll, roll + 2, int(hit))]


@pytest.mark.parametrize("roll, hit", [(1, True)])
def test_a_weapon_adds_its_attack_bonus(roll, hit):
    t = Table()
    (sword,) = t.give(0, "sword_plus_1")
    c = arena(t, "giant_rat")
    ev = t.fight(0, c, dice=HERO_FIRST + [roll], choices=[ITEM1])
    assert ev[2:5] == [(E.EV_WEAPON, 0, sword, 0, 0), (E.EV_ATTACK, 0, 1, 5, 1),
                       (E.EV_DAMAGE, 0, 2, -1, 0)]                                # sword +1: no damage bonus


def test_only_one_weapon_counts_in_an_attack():
    t = Table()
    t.give(0, "sword_plus_1", "sword_plus_2")
    c = arena(t, "tiger_beetle")                                # HP 3; att 5; AC 9
    # the sword +2: 3 + 3 + 2 = 8 < 9 (both swords would make 9); then 6 + 3 + 2 = 11: 1 + 1 + 1 damage
    ev = t.fight(0, c, dice=HERO_FIRST + [3, 1] + HERO_FIRST + [6], choices=[ITEM2, ITEM2])
    assert only(ev, E.EV_ATTACK, E.EV_DAMAGE) == [(E.EV_ATTACK, 0, 3, 8, 0), (E.EV_ATTACK, 0, 6, 11, 1),
                                                  (E.EV_DAMAGE, 0, 3, 0, 0)]


@pytest.mark.parametrize("hero, monster, roll, hit", [
    ("cleric", "skeleton", 1, True),            # 1 + 2 + 2 (undead bonus) = 5 >= AC 5
    ("cleric", "giant_rat", 2, False),          # 2 + 2 = 4 < 5: no bonus against the living
    ("cleric", "giant_rat", 3, True),
    ("fighter", "skeleton", 1, False),          # 1 + 3 = 4: the fighter has no undead bonus
])
def test_the_undead_bonus_counts_against_undead_only(hero, monster, roll, hit):
    t = Table(heroes=[hero, "dwarf", "elf"])
    c = arena(t, monster)
    dice = HERO_FIRST + [roll] + ([] if hit else [1] + HERO_FIRST + [6])
    ev = t.fight(0, c, dice=dice, choices=[OWN] * (1 if hit else 2))
    bonus = {"cleric": 2, "fighter": 3}[hero] + (2 if hero == "cleric" and monster == "skeleton" else 0)
    assert ev[2:4] == [(E.EV_WEAPON, 0, -1, 0, 0), (E.EV_ATTACK, 0, roll, roll + bonus, int(hit))]


@pytest.mark.parametrize("hero, item, damage", [
    ("fighter", None, 2),                       # 1 + the fighter's damage bonus
    ("fighter", "sword_plus_2", 3),             # 1 + 1 + the sword's damage bonus
    ("elf", None, 1),
    ("elf", "sword_plus_2", 2),
])
def test_damage_is_one_plus_the_weapon_and_hero_damage_bonuses(hero, item, damage):
    t = Table(heroes=[hero, "dwarf", "cleric"])
    if item:
        t.give(0, item)
    c = arena(t, "dire_wolf")                                   # HP 4
    ev = t.fight(0, c, dice=HERO_FIRST + [6, 1] + ESCAPE, choices=[ITEM1 if item else OWN, RUN])
    assert only(ev, E.EV_DAMAGE) == [(E.EV_DAMAGE, 0, damage, 4 - damage, 0)]
    assert t.hs(0, L.HS_DAMAGE_DEALT) == damage


# --- immunities ("Can only be damaged by ...") --------------------------------------------------------------------

@pytest.mark.parametrize("hero, item, monster, harms", [
    ("fighter", None, "gargoyle", False),                       # magical weapons or magic only
    ("elf", None, "gargoyle", True),                            # a hero with magic
    ("elf", "silver_dagger", "gargoyle", True),                 # ... whatever it attacks with
    ("fighter", "sword_plus_1", "gargoyle", True),              # a magical weapon
    ("fighter", "silver_dagger", "gargoyle", False),            # silver is not magical
    ("fighter", "holy_water", "gargoyle", False),
    ("fighter", "wand_of_magic_missiles", "gargoyle", True),    # a wand is magic
    ("fighter", "silver_dagger", "werewolf", True),             # silver, magical weapons or magic
    ("fighter", None, "werewolf", False),
    ("fighter", "holy_water", "werewolf", False),
    ("fighter", "holy_water", "mummy", True),                   # magic, magical weapons or holy water
    ("fighter", "silver_dagger", "mummy", False),
    ("elf", None, "mummy", True),
    ("fighter", "sword_plus_1", "mummy", True),
    ("fighter", "silver_dagger", "wight", True),                # silver, magic, magical weapons or holy water
    ("fighter", "holy_water", "wight", True),
    ("fighter", None, "wight", False),
    ("fighter", None, "vampire", False),                        # magic, magical weapons or holy water
    ("fighter", "stake", "mummy", False),                       # the stake harms only the vampire
    ("fighter", None, "dire_wolf", True),                       # anything harms the others
])
def test_only_an_attack_of_the_right_kind_damages_an_immune_monster(hero, item, monster, harms):
    t = Table(heroes=[hero, "dwarf", "cleric"])
    items = t.give(0, item) if item else []
    c = arena(t, monster)
    mt = t.s[L.MON_TAB + t.monster(monster) * L.N_MT:]
    hp = int(mt[L.MT_HP])
    ev = t.fight(0, c, dice=HERO_FIRST + [6, 1] + ESCAPE, choices=[ITEM1 if item else OWN, RUN])
    first = rounds_of(ev[1:])[0]
    assert first[1] == (E.EV_WEAPON, 0, items[0] if item else -1, 0, 0)
    assert first[2][0] == E.EV_ATTACK and first[2][4] == 1                       # a hit
    if harms:
        assert first[3][0] == E.EV_DAMAGE and first[3][3] < hp and only(ev, E.EV_IMMUNE) == []
    else:
        assert first[3] == (E.EV_IMMUNE, 0, c, 0, 0) and only(ev, E.EV_DAMAGE) == []
        assert t.hs(0, L.HS_DAMAGE_DEALT) == 0
    if item == "holy_water":
        assert (E.EV_USED_UP, 0, items[0], 0, 0) in first                         # one use


def test_the_stake_kills_the_vampire_and_scores_the_bane_kill():
    t = Table()
    (stake,) = t.give(0, "stake")
    c = arena(t, "vampire", colour=E.PURPLE)                    # HP 6; att 5; AC 8
    ev = t.fight(0, c, dice=HERO_FIRST + [5], choices=[ITEM1])
    assert ev[2:] == [(E.EV_WEAPON, 0, stake, 0, 0), (E.EV_ATTACK, 0, 5, 8, 1),
                      (E.EV_DAMAGE, 0, 7, -1, 0),                                  # 1 + 1 + 5 with the stake
                      (E.EV_KILL, 0, c, t.monster("vampire"), 0)]
    assert t.hs(0, L.HS_BANE_KILLS) == 1 and t.hs(0, L.HS_KEPT_PURPLE) == 1
    t.s[L.SC + L.SC_SPECTER_KILLER] = 0
    t.finish()
    assert t.hs(0, L.HS_PTS_BANE) == 4 and t.hs(0, L.HS_POINTS) == 1 + 1 + 2 + 4    # stand-up, stake, vampire


def test_killing_the_vampire_otherwise_is_no_bane_kill():
    t = Table()
    t.give(0, "sword_plus_2")
    c = arena(t, "vampire", colour=E.PURPLE)
    t.fight(0, c, dice=HERO_FIRST + [6, 1] + HERO_FIRST + [6], choices=[ITEM1, ITEM1])    # 3 damage a hit
    assert t.result == C.MONSTER_DIED and t.hs(0, L.HS_BANE_KILLS) == 0


# --- the rust monster ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("hero, item, roll, total, hit", [
    ("fighter", "sword_plus_1", 4, 7, False),        # metal: the +1 does not count (4 + 3 = 7 < AC 8)
    ("fighter", "sword_plus_1", 5, 8, True),
    ("cleric", "staff", 5, 8, True),                 # the staff is not metal: 5 + 2 + 1
])
def test_metal_weapon_bonuses_do_not_count_against_the_rust_monster(hero, item, roll, total, hit):
    t = Table(heroes=[hero, "dwarf", "elf"])
    (weapon,) = t.give(0, item)
    c = arena(t, "rust_monster")                      # HP 3; att 5; AC 8
    dice = HERO_FIRST + [roll, 1] + ESCAPE            # its attack: 1 + 5 = 6 misses both heroes
    ev = t.fight(0, c, dice=dice, choices=[ITEM1, RUN])
    assert ev[2:4] == [(E.EV_WEAPON, 0, weapon, 0, 0), (E.EV_ATTACK, 0, roll, total, int(hit))]


def test_a_metal_weapons_damage_bonus_does_not_count_against_the_rust_monster():
    t = Table()
    (sword,) = t.give(0, "sword_plus_2")
    c = arena(t, "rust_monster")
    ev = t.fight(0, c, dice=HERO_FIRST + [6, 1] + ESCAPE, choices=[ITEM1, RUN])
    assert ev[2:5] == [(E.EV_WEAPON, 0, sword, 0, 0), (E.EV_ATTACK, 0, 6, 9, 1),
                       (E.EV_DAMAGE, 0, 2, 1, 0)]                                 # 1 + 1: not the sword's +1


@pytest.mark.parametrize("monster, armour, roll, hit", [
    ("rust_monster", "chain_mail_plus_1", 2, True),         # 2 + 5 = 7 >= 7: the metal armour does not count
    ("dire_wolf", "chain_mail_plus_1", 2, False),           # against others it does: 7 < 9
    ("dire_wolf", "chain_mail_plus_1", 4, True),
    ("rust_monster", "ring_of_protection", 2, False),       # the ring is not metal: 7 < 8
    ("rust_monster", "leather_armor_plus_1", 2, False),     # leather is not metal
])
def test_metal_armour_does_not_count_against_the_rust_monster(monster, armour, roll, hit):
    t = Table()
    (a,) = t.give(0, armour)
    c = arena(t, monster)
    rusts = hit and monster == "rust_monster"
    ev = t.fight(0, c, dice=MONSTER_FIRST + [roll, 10], choices=([0] if rusts else []) + [RUN])
    assert ev[2] == (E.EV_MONSTER_ATTACK, 0, roll, roll + 5, int(hit))
    if hit:
        assert ev[3] == ((E.EV_RUSTED, 0, a, 2, 0) if rusts else (E.EV_WOUND, 0, 1, 7, 0))   # seat 2 chose
    else:
        assert ev[3][0] == E.EV_RUN


@pytest.mark.parametrize("victim, left", [(1, 2), (0, 1)])
def test_a_rust_monster_hit_destroys_a_metal_item_chosen_by_the_seat_on_the_right(victim, left):
    t = Table(heroes=["dwarf", "fighter", "elf"])
    t.s[L.KINDS + left] = S.RANDOM                  # the seat on the victim's left must not be asked
    sword, water, chain = t.give(victim, "sword_plus_1", "holy_water", "chain_mail_plus_1")
    c = arena(t, "rust_monster", p=victim)
    ev = t.fight(victim, c, dice=MONSTER_FIRST + [6, 10], choices=[1, RUN])    # the right seat: the chain mail
    assert [e[:3] for e in ev[1:]] == [(E.EV_INITIATIVE, victim, 1), (E.EV_MONSTER_ATTACK, victim, 6),
                                       (E.EV_RUSTED, victim, chain), (E.EV_RUN, victim, 10),
                                       (E.EV_MONSTER_GONE, victim, c)]
    assert t.items(victim) == [sword, water] and t.loc(chain) == E.LOC_GONE and t.owner(chain) == -1
    assert t.hs(victim, L.HS_HP) == t.hs(victim, L.HS_MAXHP) and only(ev, E.EV_WOUND) == []     # no damage
    assert t.hs(victim, L.HS_BLUE) == 2


def test_the_rust_monster_is_harmless_to_a_hero_without_metal():
    t = Table()
    t.s[L.KINDS + 1] = S.RANDOM
    t.s[L.KINDS + 2] = S.RANDOM
    (water,) = t.give(0, "holy_water")
    c = arena(t, "rust_monster")
    ev = t.fight(0, c, dice=MONSTER_FIRST + [6, 10], choices=[RUN])
    assert [e[0] for e in ev[1:]] == [E.EV_INITIATIVE, E.EV_MONSTER_ATTACK, E.EV_RUN, E.EV_MONSTER_GONE]
    assert ev[2][4] == 1 and t.items(0) == [water] and t.hs(0, L.HS_HP) == 8


# =====================================================================================================================
# Running Away
# =====================================================================================================================

@pytest.mark.parametrize("hero, roll, total, escaped", [
    ("fighter", 5, 5, True), ("fighter", 4, 4, False),          # 1d10 >= the dire wolf's attack 5
    ("thief", 3, 5, True), ("thief", 2, 4, False),              # the thief's +2
])
def test_running_away_takes_1d10_at_least_the_monsters_attack(hero, roll, total, escaped):
    t = Table(heroes=[hero, "dwarf", "elf"])
    c = arena(t, "dire_wolf")
    m = t.monster("dire_wolf")
    q = t.sq(*MONSTER_SQ)
    n1 = t.level_chits(1)
    if escaped:
        ev = t.fight(0, c, dice=HERO_FIRST + [roll], choices=[RUN])
        assert ev[1:] == [(E.EV_INITIATIVE, 0, 6, 1, 1), (E.EV_RUN, 0, total, 1, 0), (E.EV_MONSTER_GONE, 0, c, 0, 0)]
        assert t.result == C.HERO_ESCAPED and t.loc(c) == E.LOC_GONE and t.at_sq(q) == (-1, -1)
        assert t.level_chits(1) == n1 - 1 and t.hs(0, L.HS_RUNS) == 1 and t.s[L.mcnt_at(0, m, L.MC_RUNS)] == 1
    else:
        ev = t.fight(0, c, dice=HERO_FIRST + [roll, 1] + ESCAPE, choices=[RUN, RUN])
        ac = {"fighter": 7, "thief": 6}[hero]
        assert ev[2:4] == [(E.EV_RUN, 0, total, 0, 0), (E.EV_MONSTER_ATTACK, 0, 1, 6, int(6 >= ac))]


def test_a_failed_run_after_the_monster_acted_gives_it_a_second_attack_roll():
    t = Table()
    c = arena(t, "dire_wolf")
    ev = t.fight(0, c, dice=MONSTER_FIRST + [1, 4, 1] + ESCAPE, choices=[RUN, RUN])
    assert ev[1:] == [(E.EV_INITIATIVE, 0, 1, 6, 0), (E.EV_MONSTER_ATTACK, 0, 1, 6, 0), (E.EV_RUN, 0, 4, 0, 0),
                      (E.EV_MONSTER_ATTACK, 0, 1, 6, 0),
                      (E.EV_INITIATIVE, 0, 6, 1, 1), (E.EV_RUN, 0, 10, 1, 0), (E.EV_MONSTER_GONE, 0, c, 0, 0)]


def test_a_failed_run_when_the_hero_acted_first_is_followed_by_the_monsters_one_attack_of_the_round():
    t = Table()
    c = arena(t, "dire_wolf")
    ev = t.fight(0, c, dice=HERO_FIRST + [4, 5] + ESCAPE, choices=[RUN, RUN])
    assert ev[1:] == [(E.EV_INITIATIVE, 0, 6, 1, 1), (E.EV_RUN, 0, 4, 0, 0), (E.EV_MONSTER_ATTACK, 0, 5, 10, 1),
                      (E.EV_WOUND, 0, 1, 7, 0),
                      (E.EV_INITIATIVE, 0, 6, 1, 1), (E.EV_RUN, 0, 10, 1, 0), (E.EV_MONSTER_GONE, 0, c, 0, 0)]


# =====================================================================================================================
# Monster abilities (Monster Listing)
# =====================================================================================================================

def hit_and_run(t, name, face=None, colour=None, roll=6):
    """The monster goes first and hits (1d6 = roll) and, for a 1d10 table, rolls `face`; the hero then runs."""
    c = arena(t, name, colour=colour)
    dice = MONSTER_FIRST + [roll] + ([face] if face else []) + [10]
    return c, t.fight(0, c, dice=dice, choices=[RUN])


@pytest.mark.parametrize("monster, face, outcome, loss", [
    ("basilisk", 1, E.HIT_NORMAL, 1), ("basilisk", 4, E.HIT_NORMAL, 1), ("basilisk", 5, E.HIT_DOUBLE, 2),
    ("basilisk", 9, E.HIT_DOUBLE, 2),
    ("black_widow_spider", 7, E.HIT_NORMAL, 1), ("black_widow_spider", 8, E.HIT_DOUBLE, 2),
    ("black_widow_spider", 10, E.HIT_DOUBLE, 2),
    ("pit_viper", 7, E.HIT_NORMAL, 1), ("pit_viper", 8, E.HIT_DOUBLE, 2),
    ("carrion_crawler", 6, E.HIT_NORMAL, 1), ("carrion_crawler", 7, E.HIT_SLOWED, 1),
    ("carrion_crawler", 10, E.HIT_SLOWED, 1),
    ("ghoul", 7, E.HIT_NORMAL, 1), ("ghoul", 8, E.HIT_HELD, 1), ("ghoul", 10, E.HIT_HELD, 1),
])
def test_the_1d10_hit_tables(monster, face, outcome, loss):
    t = Table()
    c, ev = hit_and_run(t, monster, face)
    att = int(t.s[L.mt_at(t.monster(monster), L.MT_ATTACK)])
    assert ev[2:5] == [(E.EV_MONSTER_ATTACK, 0, 6, 6 + att, 1), (E.EV_HIT_ROLL, 0, face, outcome, 0),
                       (E.EV_WOUND, 0, loss, 8 - loss, 0)]
    assert t.hs(0, L.HS_HP) == 8 - loss and t.hs(0, L.HS_DAMAGE_TAKEN) == loss
    assert t.hs(0, L.HS_HELD_TURN) == int(outcome == E.HIT_HELD) and t.hs(0, L.HS_DRAINS) == 0


def test_the_basilisk_turns_a_hero_to_stone_on_a_10():
    t = Table()
    c = arena(t, "basilisk", colour=E.PURPLE)
    ev = t.fight(0, c, dice=MONSTER_FIRST + [6, 10], choices=[0])               # respawn on the first free square
    out0 = int(t.board.outside[0])
    assert ev[2:] == [(E.EV_MONSTER_ATTACK, 0, 6, 12, 1), (E.EV_HIT_ROLL, 0, 10, E.HIT_STONE, 0),
                      (E.EV_WOUND, 0, 8, 0, 0), (E.EV_MONSTER_GONE, 0, c, 0, 0), (E.EV_DEATH, 0, 1, out0, 0)]


@pytest.mark.parametrize("monster", ["bone_golem", "giant_vampire_bat"])
def test_double_damage_monsters_take_two_hit_points_without_a_roll(monster):
    t = Table()
    c, ev = hit_and_run(t, monster)
    assert ev[3] == (E.EV_WOUND, 0, 2, 6, 0) and only(ev, E.EV_HIT_ROLL) == []


@pytest.mark.parametrize("monster", ["dire_wolf", "giant_bat", "tiger_beetle"])
def test_plain_monsters_do_one_hit_point(monster):
    t = Table()
    c, ev = hit_and_run(t, monster)
    assert ev[3] == (E.EV_WOUND, 0, 1, 7, 0)


def test_the_carrion_crawler_slows_only_the_next_attack_roll():
    t = Table()
    c = arena(t, "carrion_crawler")                             # HP 3; att 4; AC 5
    dice = MONSTER_FIRST + [6, 7, 3] + MONSTER_FIRST + [1, 3] + HERO_FIRST + [6]
    ev = t.fight(0, c, dice=dice, choices=[OWN, OWN, OWN])
    assert only(ev, E.EV_ATTACK) == [(E.EV_ATTACK, 0, 3, 4, 0),                    # 3 + 3 - 2 < 5
                                     (E.EV_ATTACK, 0, 3, 6, 1), (E.EV_ATTACK, 0, 6, 9, 1)]
    assert t.result == C.MONSTER_DIED


def test_the_ghouls_hold_the_hero_does_not_move_on_its_next_turn_and_rolls_no_die():
    t = Table()
    t.place(0, t.sq(*HERO_SQ))
    g = t.put("ghoul", t.sq(*MONSTER_SQ))                       # HP 2; att 3; AC 6
    other = t.put("skeleton", t.sq(1, 4, 3))
    # the ghoul first: 6 + 3 hits, 8 on its table: held; the hero finishes the fight (6 + 3, 2 damage)
    ev = t.turn(0, dice=[1] + MONSTER_FIRST + [6, 8, 6], choices=[t.sq(*HERO_SQ), 0, OWN])
    assert only(ev, E.EV_HIT_ROLL) == [(E.EV_HIT_ROLL, 0, 8, E.HIT_HELD, 0)] and t.loc(g) == E.LOC_KEPT
    assert t.hs(0, L.HS_HELD_TURN) == 1
    ev = t.turn(0, dice=[], choices=[-1])                      # no die, no move; it may still encounter the skeleton
    assert ev[1:] == [(E.EV_HELD, 0, 0, 0, 0)] and t.hs(0, L.HS_HELD_TURN) == 0
    assert t.hs(0, L.HS_SQ) == t.sq(*HERO_SQ) and t.faceup(other) == 0
    ev = t.turn(0, dice=[2], choices=[t.sq(1, 3, 4)])           # the turn after: it moves again
    assert ev[1:] == [(E.EV_MOVE_ROLL, 0, 2, 5, 0), (E.EV_MOVE, 0, t.sq(*HERO_SQ), t.sq(1, 3, 4), 1),
                      (E.EV_STEP, 0, t.sq(1, 3, 4), 1, 0)]


def test_energy_drain_one_hit_point_and_at_most_one_minus_one_chit_an_encounter():
    t = Table()
    c = arena(t, "wight", colour=E.PURPLE)                      # HP 4; att 3; AC 6; energy drain
    dice = MONSTER_FIRST + [6, 1] + MONSTER_FIRST + [6] + [10]
    ev = t.fight(0, c, dice=dice, choices=[OWN, RUN])
    assert only(ev, E.EV_WOUND, E.EV_DRAIN) == [(E.EV_WOUND, 0, 1, 7, 0), (E.EV_DRAIN, 0, 1, 0, 0),
                                                (E.EV_WOUND, 0, 1, 6, 0)]
    assert t.hs(0, L.HS_DRAINS) == 1
    c2 = t.put("wraith", t.sq(1, 4, 3))                         # a new encounter drains again
    ev = t.fight(0, c2, dice=MONSTER_FIRST + [6, 10], choices=[RUN])
    assert only(ev, E.EV_WOUND, E.EV_DRAIN) == [(E.EV_WOUND, 0, 1, 5, 0), (E.EV_DRAIN, 0, 2, 0, 0)]
    assert t.hs(0, L.HS_DRAINS) == 2


def test_the_drain_lowers_the_attack_number_at_once():
    t = Table()
    c = arena(t, "wight", colour=E.PURPLE)
    ev = t.fight(0, c, dice=MONSTER_FIRST + [6, 3] + ESCAPE, choices=[OWN, RUN])
    assert only(ev, E.EV_ATTACK) == [(E.EV_ATTACK, 0, 3, 5, 0)]                     # 3 + 3 - 1 < 6


def test_double_energy_drain_two_hit_points_and_one_minus_one_chit():
    t = Table()
    c = arena(t, "vampire", colour=E.PURPLE)
    dice = MONSTER_FIRST + [6, 1] + MONSTER_FIRST + [6, 10]
    ev = t.fight(0, c, dice=dice, choices=[OWN, RUN])
    assert only(ev, E.EV_WOUND, E.EV_DRAIN) == [(E.EV_WOUND, 0, 2, 6, 0), (E.EV_DRAIN, 0, 1, 0, 0),
                                                (E.EV_WOUND, 0, 2, 4, 0)]
    assert t.hs(0, L.HS_DRAINS) == 1


# --- the robber fly -------------------------------------------------------------------------------------------------

def test_the_robber_fly_moves_an_item_chosen_by_the_seat_on_the_right_ten_squares_away_face_up():
    t = Table()
    t.s[L.KINDS + 2] = S.RANDOM                     # the victim is seat 1: seat 0 decides, seat 2 must not be asked
    water, sword = t.give(1, "holy_water", "sword_plus_1")
    here = t.sq(1, 17, 12)                          # outside, where two free squares lie at movement cost 10
    t.place(1, here)
    c = t.put("robber_fly", t.sq(1, 17, 11))         # HP 2; att 2; AC 6
    far = sorted(q for q in range(t.board.n_squares) if t.cost(here, q) == 10)
    assert far == [t.sq(1, 9, 10), t.sq(1, 11, 8)]
    # seat 0 picks the sword (item 1) and the second square; the dwarf then kills the fly (1 damage a hit)
    ev = t.fight(1, c, dice=MONSTER_FIRST + [6, 6] + HERO_FIRST + [6], choices=[1, 1, OWN, OWN])
    q = t.sq(1, 11, 8)
    assert ev[1:] == [(E.EV_INITIATIVE, 1, 1, 6, 0), (E.EV_MONSTER_ATTACK, 1, 6, 8, 1),
                      (E.EV_STOLEN, 1, sword, q, 0),                    # seat 0, on the dwarf's right, chose
                      (E.EV_WEAPON, 1, -1, 0, 0), (E.EV_ATTACK, 1, 6, 9, 1), (E.EV_DAMAGE, 1, 1, 1, 0),
                      (E.EV_INITIATIVE, 1, 6, 1, 1), (E.EV_WEAPON, 1, -1, 0, 0), (E.EV_ATTACK, 1, 6, 9, 1),
                      (E.EV_DAMAGE, 1, 1, 0, 0), (E.EV_KILL, 1, c, t.monster("robber_fly"), 0)]
    assert t.items(1) == [water] and t.loc(sword) == E.LOC_FLOOR and t.faceup(sword) == 1
    assert t.at_sq(q) == (sword, -1) and t.hs(1, L.HS_HP) == 9 and t.hs(1, L.HS_BLUE) == 2     # water + the fly


def test_the_robber_fly_takes_the_largest_cost_below_ten_when_no_square_at_ten_is_free():
    t = Table()
    (water,) = t.give(0, "holy_water")
    here = t.sq(1, 13, 23)                          # in the Pantry
    t.place(0, here)
    c = t.put("robber_fly", t.sq(1, 14, 23))
    at10 = [q for q in range(t.board.n_squares) if t.cost(here, q) == 10]
    for q in at10:
        t.put("skeleton", q)
    at9 = sorted(q for q in range(t.board.n_squares) if t.cost(here, q) == 9)
    ev = t.fight(0, c, dice=MONSTER_FIRST + [6, 10], choices=[0, len(at9) - 1, RUN])
    assert only(ev, E.EV_STOLEN) == [(E.EV_STOLEN, 0, water, at9[-1], 2)]       # seat 2, on seat 0's right, chose


def test_the_robber_fly_goes_away_when_it_hits_a_hero_without_items():
    t = Table()
    c = arena(t, "robber_fly")
    ev = t.fight(0, c, dice=MONSTER_FIRST + [6], choices=[])
    assert ev[1:] == [(E.EV_INITIATIVE, 0, 1, 6, 0), (E.EV_MONSTER_ATTACK, 0, 6, 8, 1), (E.EV_FLY_AWAY, 0, c, 0, 0),
                      (E.EV_MONSTER_GONE, 0, c, 0, 0)]
    assert t.result == C.MONSTER_LEFT and t.loc(c) == E.LOC_GONE and t.at_sq(t.sq(*MONSTER_SQ)) == (-1, -1)
    assert t.hs(0, L.HS_HP) == 8 and t.hs(0, L.HS_KILLS) == 0


# =====================================================================================================================
# Items in combat: options, limited uses, potions
# =====================================================================================================================

def test_combat_options_are_run_own_weapon_then_each_attack_item_or_potion_in_the_order_carried():
    t = Table()
    armour, potion, water = t.give(0, "leather_armor_plus_1", "potion_of_healing", "holy_water")
    c = arena(t, "dire_wolf")
    t.set_hp(0, 3)
    # options: run, own, the potion, the water (the armour is none); after the potion: run, own, the water
    ev = t.fight(0, c, dice=HERO_FIRST + [1] + HERO_FIRST + [6, 1] + ESCAPE, choices=[ITEM1, ITEM1, RUN])
    assert only(ev, E.EV_POTION, E.EV_USED_UP, E.EV_ATTACK, E.EV_DAMAGE) == [
        (E.EV_POTION, 0, potion, 6, 0), (E.EV_USED_UP, 0, potion, 0, 0),      # option 2: the potion
        (E.EV_ATTACK, 0, 6, 9, 1), (E.EV_DAMAGE, 0, 2, 2, 0), (E.EV_USED_UP, 0, water, 0, 0)]   # then the water
    assert t.items(0) == [armour]


def test_a_limited_item_loses_a_use_with_each_attack_and_leaves_the_game_after_the_last():
    t = Table()
    (flask,) = t.give(0, "holy_water_flask")        # 3 uses
    c = arena(t, "mummy", colour=E.PURPLE)          # HP 5; att 6; AC 8: 2 damage a hit
    dice = (HERO_FIRST + [1, 1]) * 2 + HERO_FIRST + [6]
    ev = t.fight(0, c, dice=dice + [1] + ESCAPE, choices=[ITEM1, ITEM1, ITEM1, RUN])
    assert only(ev, E.EV_USED_UP) == [(E.EV_USED_UP, 0, flask, 0, 0)]
    assert [e[0] for e in ev].index(E.EV_USED_UP) > [e[0] for e in ev].index(E.EV_DAMAGE)
    assert t.loc(flask) == E.LOC_GONE and t.items(0) == []


def test_a_limited_item_keeps_its_remaining_uses():
    t = Table()
    (flask,) = t.give(0, "holy_water_flask")
    c = arena(t, "mummy", colour=E.PURPLE)
    t.fight(0, c, dice=HERO_FIRST + [1, 1] + ESCAPE, choices=[ITEM1, RUN])
    assert t.s[L.CHIT_USES + flask] == 2 and t.items(0) == [flask]


# =====================================================================================================================
# Dying
# =====================================================================================================================

def test_a_dying_hero_takes_a_minus_one_chit_and_restarts_outside_at_full_hit_points_the_killer_leaves():
    t = Table()
    t.set_hp(0, 1)
    c = arena(t, "giant_rat")                                   # HP 1; att 1; AC 5
    m = t.monster("giant_rat")
    out = [int(q) for q in t.board.outside]                     # seats 1 and 2 stand on the 2nd and 3rd
    ev = t.fight(0, c, dice=MONSTER_FIRST + [6], choices=[1])   # respawn: candidates out[0], out[3], out[4] ...
    assert ev[1:] == [(E.EV_INITIATIVE, 0, 1, 6, 0), (E.EV_MONSTER_ATTACK, 0, 6, 7, 1), (E.EV_WOUND, 0, 1, 0, 0),
                      (E.EV_MONSTER_GONE, 0, c, 0, 0), (E.EV_DEATH, 0, 1, out[3], 0)]
    assert t.result == C.HERO_DIED
    assert [t.hs(0, k) for k in (L.HS_DEATHS, L.HS_DRAINS, L.HS_HP, L.HS_SQ, L.HS_OUT)] == [1, 1, 8, out[3], 0]
    assert t.at_sq(out[3]) == (-1, 0) and t.at_sq(t.sq(*HERO_SQ)) == (-1, -1)
    assert t.loc(c) == E.LOC_GONE and t.at_sq(t.sq(*MONSTER_SQ)) == (-1, -1)
    assert t.s[L.mcnt_at(0, m, L.MC_HERO_DEATHS)] == 1 and t.hs(0, L.HS_KILLS) == 0


def test_the_death_minus_one_lowers_the_next_attack():
    t = Table()
    t.set_hp(0, 1)
    c = arena(t, "giant_rat")
    t.fight(0, c, dice=MONSTER_FIRST + [6], choices=[0])
    c = arena(t, "skeleton")                                    # AC 5
    ev = t.fight(0, c, dice=HERO_FIRST + [2, 1] + HERO_FIRST + [6], choices=[OWN, OWN])
    assert only(ev, E.EV_ATTACK)[0] == (E.EV_ATTACK, 0, 2, 4, 0)                  # 2 + 3 - 1 < 5


def test_a_respawn_answer_out_of_range_is_illegal():
    t = Table(players=3)
    t.set_hp(0, 1)
    c = arena(t, "giant_rat")
    ev = t.fight(0, c, dice=MONSTER_FIRST + [6], choices=[6])    # 8 outside squares, 2 taken: 6 candidates
    assert ev[-1] == (E.EV_ILLEGAL, 0, E.DEC_RESPAWN, 6, 0) and t.result == C.STOP


def test_a_hero_dying_in_its_turn_drops_nothing_afterwards():
    t = Table()
    t.give(0, "holy_water")
    t.set_hp(0, 1)
    t.place(0, t.sq(*HERO_SQ))
    c = t.put("giant_rat", t.sq(*MONSTER_SQ))
    ev = t.turn(0, dice=[1] + MONSTER_FIRST + [6], choices=[t.sq(*HERO_SQ), 0, 0])    # move, encounter, respawn
    assert ev[-1][0] == E.EV_DEATH and t.on


def test_the_second_death_puts_the_hero_out_of_the_game_with_its_chits():
    t = Table()
    items = t.give(0, "holy_water", "sword_plus_1")
    kept = t.keep(0, "skeleton")
    t.set_hs(0, L.HS_DEATHS, 1)
    t.set_drains(0, 1)
    t.set_hp(0, 1)
    c = arena(t, "giant_rat")
    ev = t.fight(0, c, dice=MONSTER_FIRST + [6], choices=[])     # no respawn decision
    assert ev[3:] == [(E.EV_WOUND, 0, 1, 0, 0), (E.EV_MONSTER_GONE, 0, c, 0, 0), (E.EV_DEATH, 0, 2, -1, 0),
                      (E.EV_OUT, 0, 0, 0, 0)]
    assert t.hs(0, L.HS_OUT) == 1 and t.sc(L.SC_IN) == 2 and t.hs(0, L.HS_SQ) == -1
    assert t.at_sq(t.sq(*HERO_SQ)) == (-1, -1)
    assert t.items(0) == items and all(t.loc(x) == E.LOC_HELD for x in items) and t.loc(kept[0]) == E.LOC_KEPT
    assert t.hs(0, L.HS_BLUE) == 3


def test_when_the_last_hero_goes_out_the_game_ends():
    t = Table()
    t.set_out(0)
    t.set_out(1)
    t.set_hs(2, L.HS_DEATHS, 1)
    t.set_hp(2, 1)
    t.place(2, t.sq(*HERO_SQ))
    c = t.put("giant_rat", t.sq(*MONSTER_SQ))
    ev = t.rounds(dice=[1] + MONSTER_FIRST + [6], choices=[t.sq(*HERO_SQ), 0])   # one hero: no roll-off
    assert ev[0] == (E.EV_ROUND, -1, 1, 2, 0) and ev[-2:] == [(E.EV_DEATH, 2, 2, -1, 0), (E.EV_OUT, 2, 0, 0, 0)]
    assert t.sc(L.SC_IN) == 0
    fin = t.finish()
    assert fin[-1] == (E.EV_WIN, -1, E.WIN_ALL_OUT, 0b111, 0) and t.sc(L.SC_VICTORY) == E.WIN_ALL_OUT


# =====================================================================================================================
# The Specter of Sir Jameson
# =====================================================================================================================

SPECTER_SQ = (1, 2, 10)          # in the Mess Hall, three squares in from its door


def specter_table(**kw):
    """The fighter (with a sword +1, a magical weapon) in the corridor below the Mess Hall door; the Specter's chit
    face down at the far end of the hall."""
    t = Table(**kw)
    t.give(0, "sword_plus_1")
    t.place(0, t.sq(1, 7, 10))
    t.put_chit(t.specter_chit, t.sq(*SPECTER_SQ))
    return t


def test_running_from_the_specter_it_stays_and_the_hero_backs_up_two_squares_along_its_path():
    t = specter_table()
    s, m = t.specter_chit, t.monster("specter")
    # 4 points: through the door (2) and two steps to (1, 3, 10), next to the Specter; it is revealed and fought:
    # the sword hits (6 + 3 + 1 = 10) for 2; the Specter hits back (1 + 6 = 7 >= 7): 2 hit points and a "-1" chit;
    # then the hero runs (10 >= 6) and backs up to (1, 5, 10), two squares back along its path
    (sword,) = t.items(0)
    ev = t.turn(0, dice=[1] + HERO_FIRST + [6, 1] + ESCAPE, choices=[t.sq(1, 3, 10), 0, ITEM1, RUN, 0])
    assert ev[2:6] == [(E.EV_MOVE, 0, t.sq(1, 7, 10), t.sq(1, 3, 10), 4), (E.EV_STEP, 0, t.sq(1, 5, 10), 2, 0),
                       (E.EV_STEP, 0, t.sq(1, 4, 10), 1, 0), (E.EV_STEP, 0, t.sq(1, 3, 10), 1, 0)]
    assert ev[6:] == [(E.EV_REVEAL, 0, s, E.CONTENT_MONSTER, m), (E.EV_FIGHT, 0, s, m, 0),
                      (E.EV_INITIATIVE, 0, 6, 1, 1), (E.EV_WEAPON, 0, sword, 0, 0), (E.EV_ATTACK, 0, 6, 10, 1),
                      (E.EV_DAMAGE, 0, 2, 6, 0),
                      (E.EV_MONSTER_ATTACK, 0, 1, 7, 1), (E.EV_WOUND, 0, 2, 6, 0), (E.EV_DRAIN, 0, 1, 0, 0),
                      (E.EV_INITIATIVE, 0, 6, 1, 1), (E.EV_RUN, 0, 10, 1, 0), (E.EV_BACK, 0, t.sq(1, 5, 10), 0, 0)]
    assert t.hs(0, L.HS_SQ) == t.sq(1, 5, 10)
    assert t.loc(s) == E.LOC_BOARD and t.chit_sq(s) == t.sq(*SPECTER_SQ) and t.faceup(s) == 1
    assert t.hs(0, L.HS_SPECTER_HIT) == 1 and t.hs(0, L.HS_RUNS) == 1


def test_the_specter_is_at_full_strength_at_every_encounter_and_a_revealed_specter_is_encountered_again():
    t = specter_table()
    s = t.specter_chit
    t.turn(0, dice=[1] + HERO_FIRST + [6, 1] + ESCAPE, choices=[t.sq(1, 3, 10), 0, ITEM1, RUN, 0])
    t.set_drains(0, 0)                                          # (as if traded in: the sword hits 10 again)
    # the next turn: back to (1, 3, 10) (2 points), the face-up Specter is a candidate: no reveal, 8 hit points
    ev = t.turn(0, dice=[1] + HERO_FIRST + [6, 1] + ESCAPE, choices=[t.sq(1, 3, 10), 0, ITEM1, RUN, 0])
    assert only(ev, E.EV_REVEAL) == [] and only(ev, E.EV_FIGHT) == [(E.EV_FIGHT, 0, s, t.monster("specter"), 0)]
    assert only(ev, E.EV_DAMAGE) == [(E.EV_DAMAGE, 0, 2, 6, 0)]
    assert only(ev, E.EV_DRAIN) == [(E.EV_DRAIN, 0, 1, 0, 0)]            # a new encounter: a new "-1" chit
    # another hero meets it at full strength too
    t.place(1, t.sq(1, 2, 11))
    ev = t.fight(1, s, dice=HERO_FIRST + [6, 1] + ESCAPE, choices=[OWN, RUN])
    assert only(ev, E.EV_ATTACK) == [(E.EV_ATTACK, 1, 6, 9, 0)] and t.loc(s) == E.LOC_BOARD


@pytest.mark.parametrize("moved, blocked, back", [
    ((1, 3, 10), False, (1, 5, 10)),             # path (7,10) (5,10) (4,10) (3,10): two squares back
    ((1, 3, 10), True, (1, 4, 10)),              # (1, 5, 10) taken by a hero: one square back
    ((1, 4, 10), False, (1, 7, 10)),             # path (7,10) (5,10) (4,10)
])
def test_the_specter_back_up_is_shorter_when_the_path_is_or_a_square_is_taken(moved, blocked, back):
    t = specter_table()
    t.remove(t.specter_chit)
    t.put_chit(t.specter_chit, t.sq(moved[0], moved[1] - 1, moved[2]))
    if blocked:
        t.place(1, t.sq(1, 5, 10))
    ev = t.turn(0, dice=[1] + ESCAPE, choices=[t.sq(*moved), 0, RUN, 0])
    assert only(ev, E.EV_BACK) == [(E.EV_BACK, 0, t.sq(*back), 0, 0)] and t.hs(0, L.HS_SQ) == t.sq(*back)


@pytest.mark.parametrize("start, blocked", [
    ((1, 3, 10), ()),                            # it did not move: its path is its own square
    ((1, 7, 10), ((1, 5, 10), (1, 4, 10))),      # path (7,10) (5,10) (4,10) (3,10): both squares back are taken
])
def test_running_from_the_specter_without_a_square_to_back_up_to_stays_and_says_so(start, blocked):
    """A successful run from the Specter is always followed by `back` (docs/trace.md): with no square to back up
    to, it names the square the hero stays on. In both engines."""
    t = specter_table()
    t.place(0, t.sq(*start))
    for seat, q in zip((1, 2), blocked):
        t.place(seat, t.sq(*q))
    kernel, reference, r = both_turns(t, 0, dice=[1] + ESCAPE, choices=[t.sq(1, 3, 10), 0, RUN, 0])
    assert kernel == reference
    assert only(kernel, E.EV_RUN, E.EV_BACK) == [(E.EV_RUN, 0, 10, 1, 0), (E.EV_BACK, 0, t.sq(1, 3, 10), 0, 0)]
    assert t.hs(0, L.HS_SQ) == t.sq(1, 3, 10) == r.heroes[0].square and t.loc(t.specter_chit) == E.LOC_BOARD


def test_a_hero_killed_by_the_specter_leaves_it_on_the_board():
    t = specter_table()
    t.set_hp(0, 2)
    t.place(0, t.sq(1, 3, 10))
    ev = t.fight(0, t.specter_chit, dice=MONSTER_FIRST + [6], choices=[0])
    assert only(ev, E.EV_MONSTER_GONE) == [] and ev[-1][0] == E.EV_DEATH
    assert t.loc(t.specter_chit) == E.LOC_BOARD and t.chit_sq(t.specter_chit) == t.sq(*SPECTER_SQ)


@pytest.mark.parametrize("once, hits, points", [(True, 1, 5), (False, 2, 10)])
def test_specter_damage_once_scores_damaging_it_once_a_game_or_each_encounter(once, hits, points):
    t = specter_table(rules={"specter_damage_once": once})
    for _ in range(2):
        t.set_drains(0, 0)
        t.turn(0, dice=[1] + HERO_FIRST + [6, 1] + ESCAPE, choices=[t.sq(1, 3, 10), 0, ITEM1, RUN, 0])
    t.place(0, t.sq(1, 3, 10))                                  # a third encounter without damage counts nothing
    t.fight(0, t.specter_chit, dice=HERO_FIRST + [1, 1] + ESCAPE, choices=[ITEM1, RUN])
    assert t.hs(0, L.HS_SPECTER_HIT) == hits
    t.finish()
    assert t.hs(0, L.HS_PTS_SPECTER_HIT) == points


def test_killing_the_specter_ends_the_game_at_once_and_scores():
    t = Table(players=3, turn_cap=50)
    t.give(0, "sword_plus_2")                                   # purple: +2 to hit, +1 damage: 3 a hit
    t.give(0, "plate_mail_plus_1")                              # purple: AC 10
    t.place(0, t.sq(1, 3, 10))
    t.put_chit(t.specter_chit, t.sq(*SPECTER_SQ))
    s = t.specter_chit
    fight = (HERO_FIRST + [6, 1]) * 2 + HERO_FIRST + [6]        # 8 -> 5 -> 2 -> dead; its attacks (7) miss
    ev = t.rounds(dice=[9, 1, 1] + [1] + fight, choices=[t.sq(1, 3, 10), 0, ITEM1, ITEM1, ITEM1])
    assert ev[-1] == (E.EV_KILL, 0, s, t.monster("specter"), 0)
    assert [e[1] for e in only(ev, E.EV_TURN)] == [0]           # seats 1 and 2 never play
    assert t.sc(L.SC_SPECTER_KILLER) == 0 and t.loc(s) == E.LOC_KEPT and t.hs(0, L.HS_SPECTER_KILL) == 1
    fin = t.finish()
    # stand-up 1; purple chits 3 x 2 (sword, plate, the Specter's chit); damaged 5; killed 15
    assert fin[0] == (E.EV_SCORE, 0, 1 + 6 + 5 + 15, 0, 0) and fin[-1] == (E.EV_WIN, -1, E.WIN_SPECTER, 0b001, 0)


def test_the_specter_drains_two_hit_points_and_one_minus_one_chit():
    t = specter_table()
    t.place(0, t.sq(1, 3, 10))
    ev = t.fight(0, t.specter_chit, dice=MONSTER_FIRST + [6, 1] + MONSTER_FIRST + [6, 10],
                 choices=[OWN, RUN])
    assert only(ev, E.EV_WOUND, E.EV_DRAIN) == [(E.EV_WOUND, 0, 2, 6, 0), (E.EV_DRAIN, 0, 1, 0, 0),
                                                (E.EV_WOUND, 0, 2, 4, 0)]


@pytest.mark.parametrize("hero, item, harms", [("fighter", None, False), ("elf", None, True),
                                               ("fighter", "holy_water", True), ("fighter", "silver_dagger", False),
                                               ("fighter", "sword_plus_1", True)])
def test_the_specter_is_damaged_only_by_magic_magical_weapons_or_holy_water(hero, item, harms):
    t = Table(heroes=[hero, "dwarf", "cleric"])
    if item:
        t.give(0, item)
    t.set_hs(0, L.HS_ATTACK, 4)                                 # 6 + 4 reaches its AC 10 with any weapon
    t.place(0, t.sq(1, 3, 10))
    t.put_chit(t.specter_chit, t.sq(*SPECTER_SQ))
    ev = t.fight(0, t.specter_chit, dice=HERO_FIRST + [6, 1] + ESCAPE, choices=[ITEM1 if item else OWN, RUN])
    assert only(ev, E.EV_ATTACK)[0][4] == 1
    assert (only(ev, E.EV_DAMAGE) != []) == harms and (only(ev, E.EV_IMMUNE) != []) == (not harms)
    assert t.hs(0, L.HS_SPECTER_HIT) == int(harms)


# =====================================================================================================================
# Ending the Game, Winning
# =====================================================================================================================

SCORING = {"standup": 3, "blue_chit": 5, "purple_chit": 7, "bane_kill": 11, "specter_damage": 13, "specter_kill": 17}


def scored_table(**kw):
    """Seat 0: 2 blue and 1 purple monster chits kept, a blue and a purple item, the vampire staked, the Specter
    damaged and killed (its chit kept). Seat 1: one blue item. Seat 2: nothing."""
    t = Table(**kw)
    t.keep(0, "skeleton", "skeleton", colour=E.BLUE)
    t.keep(0, "vampire", colour=E.PURPLE)
    t.give(0, "holy_water", colour=E.BLUE)
    t.give(0, "sword_plus_2", colour=E.PURPLE)
    keep_specter(t, 0)
    t.set_hs(0, L.HS_BANE_KILLS, 1)
    t.set_hs(0, L.HS_SPECTER_HIT, 1)
    t.give(1, "holy_water", colour=E.BLUE)
    return t


def keep_specter(t, p):
    P.keep_monster_nb(t.s, p, t.specter_chit)
    t.set_hs(p, L.HS_SPECTER_KILL, 1)
    t.s[L.SC + L.SC_SPECTER_KILLER] = p


def lines(t, p):
    return [t.hs(p, k) for k in (L.HS_PTS_STANDUPS, L.HS_PTS_CHITS, L.HS_PTS_BANE, L.HS_PTS_SPECTER_HIT,
                                 L.HS_PTS_SPECTER_KILL)]


def test_the_scoring_table_line_by_line():
    t = scored_table()
    ev = t.finish()
    # stand-ups 4 (2 skeletons, the vampire, the Specter); blue chits 3; purple chits 3 (the vampire, the sword, the
    # Specter's chit is purple-backed); the vampire staked 4; the Specter damaged 5 and killed 15
    assert t.hs(0, L.HS_BLUE) == 3 and t.hs(0, L.HS_PURPLE) == 3 and t.hs(0, L.HS_STANDUPS) == 4
    assert lines(t, 0) == [4, 3 + 2 * 3, 4, 5, 15] and t.hs(0, L.HS_POINTS) == 37
    assert lines(t, 1) == [0, 1, 0, 0, 0]
    assert ev == [(E.EV_SCORE, 0, 37, 0, 0), (E.EV_SCORE, 1, 1, 0, 0), (E.EV_SCORE, 2, 0, 0, 0),
                  (E.EV_WIN, -1, E.WIN_SPECTER, 0b001, 0)]
    assert t.sc(L.SC_WINNER) == 0 and t.sc(L.SC_VICTORY) == E.WIN_SPECTER


def test_every_scoring_line_reads_its_setting():
    t = scored_table(components={"scoring": SCORING})
    t.finish()
    assert lines(t, 0) == [4 * 3, 3 * 5 + 3 * 7, 11, 13, 17] and t.hs(0, L.HS_POINTS) == 12 + 36 + 41
    assert lines(t, 1) == [0, 5, 0, 0, 0] and t.hs(1, L.HS_POINTS) == 5


def tie_table(ties="shared", killer=1):
    t = Table(rules={"ties": ties})
    t.give(0, "sword_plus_1", "mace_plus_1", colour=E.BLUE)
    t.give(1, "shield_plus_1", "silver_dagger", colour=E.BLUE)
    t.give(2, "holy_water", colour=E.BLUE)
    t.s[L.SC + L.SC_SPECTER_KILLER] = killer
    return t


def test_a_tie_for_the_most_points_is_shared():
    t = tie_table()
    ev = t.finish()
    assert ev[-1] == (E.EV_WIN, -1, E.WIN_SPECTER, 0b011, 0) and t.sc(L.SC_WINNER) == 0


def test_ties_specter_killer_gives_the_win_to_the_specter_killer_among_the_tied():
    t = tie_table("specter_killer", killer=1)
    assert t.finish()[-1] == (E.EV_WIN, -1, E.WIN_SPECTER, 0b010, 0) and t.sc(L.SC_WINNER) == 1
    t = tie_table("specter_killer", killer=2)                  # the killer is not among the tied: shared
    assert t.finish()[-1] == (E.EV_WIN, -1, E.WIN_SPECTER, 0b011, 0)


def test_when_every_hero_is_out_the_game_ends_and_the_most_points_wins():
    t = Table()
    t.give(2, "holy_water", colour=E.BLUE)
    for p in range(3):
        t.set_out(p)
    ev = t.finish()
    assert ev[-1] == (E.EV_WIN, -1, E.WIN_ALL_OUT, 0b100, 0) and t.sc(L.SC_VICTORY) == E.WIN_ALL_OUT


@pytest.mark.parametrize("scores, mask", [(True, 0b001), (False, 0b010)])
def test_out_hero_scores_decides_whether_an_out_hero_keeps_its_points(scores, mask):
    t = Table(rules={"out_hero_scores": scores})
    t.give(0, "holy_water", "holy_water", colour=E.BLUE)
    t.give(1, "holy_water", colour=E.BLUE)
    t.set_out(0)
    t.s[L.SC + L.SC_SPECTER_KILLER] = 1
    ev = t.finish()
    assert ev[0] == (E.EV_SCORE, 0, 2 if scores else 0, 0, 0) and ev[-1][3] == mask


def test_an_unfinished_game_has_no_winner_but_reports_the_points():
    t = Table()
    t.give(1, "holy_water", colour=E.BLUE)
    ev = t.finish()
    assert kinds(ev) == [E.EV_SCORE] * 3 and ev[1] == (E.EV_SCORE, 1, 1, 0, 0)
    assert t.sc(L.SC_WINNER) == -1 and t.sc(L.SC_WIN_MASK) == 0


# =====================================================================================================================
# An answer out of range stops the game, unfinished (docs/rules/haunted_tower.md section 4)
# =====================================================================================================================

def test_an_illegal_potion_answer_stops_the_game_without_a_winner():
    t = Table()
    t.give(0, "potion_of_healing")
    t.s[L.SC + L.SC_SPECTER_KILLER] = 1               # even a finished-looking game has no winner after it
    ev = t.turn(0, dice=[], choices=[2])              # candidates: none, the potion
    assert ev[-1] == (E.EV_ILLEGAL, 0, E.DEC_POTION, 2, 0) and not t.on and t.sc(L.SC_ERROR) == E.DEC_POTION
    assert t.finish()[-1][0] == E.EV_SCORE and t.sc(L.SC_VICTORY) == E.WIN_NONE and t.sc(L.SC_WINNER) == -1


@pytest.mark.parametrize("answer", [-1, 2])
def test_an_illegal_combat_answer_stops_the_fight(answer):
    t = Table()
    c = arena(t, "dire_wolf")
    ev = t.fight(0, c, dice=HERO_FIRST, choices=[answer])          # options: run, own weapon
    assert ev[-1] == (E.EV_ILLEGAL, 0, E.DEC_COMBAT, answer, 0) and t.result == C.STOP


@pytest.mark.parametrize("monster, choices, decision", [
    ("robber_fly", [2], E.DEC_STEAL_ITEM),                 # two items: 0, 1
    ("robber_fly", [0, 2], E.DEC_STEAL_SQUARE),            # two free squares at cost 10
    ("rust_monster", [1], E.DEC_RUST),                     # one metal item
])
def test_an_illegal_answer_of_the_seat_on_the_right_stops_the_fight(monster, choices, decision):
    t = Table()
    t.give(0, "holy_water", "sword_plus_1")
    t.place(0, t.sq(1, 17, 12))
    c = t.put(monster, t.sq(1, 17, 11))
    ev = t.fight(0, c, dice=MONSTER_FIRST + [6], choices=choices)
    assert ev[-1] == (E.EV_ILLEGAL, 2, decision, choices[-1], 0) and t.result == C.STOP


@pytest.mark.parametrize("choices, decision", [([3], E.DEC_DROP), ([1, 4], E.DEC_DROP_SQUARE)])
def test_an_illegal_drop_answer_stops_the_game(choices, decision):
    t = Table()
    t.give(0, "holy_water", "sword_plus_1")
    t.place(0, t.sq(*HERO_SQ))                        # four free adjacent squares
    ev = t.turn(0, dice=[1], choices=[t.sq(*HERO_SQ)] + choices)
    assert ev[-1] == (E.EV_ILLEGAL, 0, decision, choices[-1], 0) and not t.on
