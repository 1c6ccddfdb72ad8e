"""The Haunted Tower: rules pinned in both engines at once, each from one hand-laid position with scripted dice and
decisions (``haunted_table.Table`` for the kernel, ``haunted_mirror`` for the same position in the reference engine):
the fight cap, which only a fight in which neither side can hurt the other reaches.

Dice of a combat round, in order: the hero's and the monster's initiative 1d6, the first side's die, the other's.
Combat decisions: 0 run, 1 attack with the hero's own weapon. Heroes by seat: 0 fighter (8 hp, attack 3, AC 7, +1
damage), 1 dwarf, 2 elf (``haunted_table.TEST_HEROES``).
"""
from __future__ import annotations

from balance.games.haunted_tower import combat as C
from balance.games.haunted_tower import enums as E
from balance.games.haunted_tower import layout as L
from haunted_mirror import both_fights
from haunted_table import Table, kinds, only

OWN = 1
HERO_FIRST = [6, 1]
HERO_SQ, MONSTER_SQ = (1, 3, 3), (1, 2, 3)   # two adjacent squares of the Armoury


def arena(t, name):
    t.place(0, t.sq(*HERO_SQ))
    return t.put(name, t.sq(*MONSTER_SQ), face_up=True)


# =====================================================================================================================
# The fight cap: only where neither side can hurt the other
# =====================================================================================================================

def test_a_fight_the_hero_can_still_win_goes_on_past_the_fight_cap():
    """The giant rat (attack 1) cannot hit the fighter with a shield +1 (6 + 1 < AC 8); the fighter hits it on a 2 or
    more. 120 rounds of misses (1 + 3 < AC 5) do not end the fight: the 121st round's hit kills the rat."""
    t = Table()
    t.give(0, "shield_plus_1")
    c = arena(t, "giant_rat")
    dice = (HERO_FIRST + [1, 6]) * 120 + HERO_FIRST + [6]
    kernel, reference, r = both_fights(t, 0, c, dice=dice, choices=[OWN] * 121)
    assert kernel == reference
    assert kernel[1:4] == [(E.EV_INITIATIVE, 0, 6, 1, 1), (E.EV_ATTACK, 0, 1, 4, 0), (E.EV_MONSTER_ATTACK, 0, 6, 7, 0)]
    assert kinds(kernel).count(E.EV_INITIATIVE) == 121 and only(kernel, E.EV_CAP) == []
    assert kernel[-3:] == [(E.EV_ATTACK, 0, 6, 9, 1), (E.EV_DAMAGE, 0, 2, -1, 0), (E.EV_KILL, 0, c, t.monster("giant_rat"), 0)]
    assert t.result == C.MONSTER_DIED and t.hs(0, L.HS_FIGHT_CAP) == 0 and r.victory == E.WIN_NONE


def test_a_fight_the_monster_can_still_win_goes_on_past_the_fight_cap():
    """The gargoyle is immune to the fighter's own weapon but hits it on a 2 or more (6 + 5 >= AC 7): 110 rounds of
    its misses do not end the fight; its hit in the 111th kills the fighter (1 hit point left)."""
    t = Table()
    t.set_hp(0, 1)
    c = arena(t, "gargoyle")
    dice = (HERO_FIRST + [6, 1]) * 110 + HERO_FIRST + [6, 6]
    kernel, reference, r = both_fights(t, 0, c, dice=dice, choices=[OWN] * 111 + [0])
    assert kernel == reference
    assert kernel[1:5] == [(E.EV_INITIATIVE, 0, 6, 1, 1), (E.EV_ATTACK, 0, 6, 9, 1), (E.EV_IMMUNE, 0, c, 0, 0),
                           (E.EV_MONSTER_ATTACK, 0, 1, 6, 0)]
    assert kinds(kernel).count(E.EV_INITIATIVE) == 111 and only(kernel, E.EV_CAP) == []
    assert only(kernel, E.EV_WOUND, E.EV_DEATH) == [(E.EV_WOUND, 0, 1, 0, 0), (E.EV_DEATH, 0, 1, t.hs(0, L.HS_SQ), 0)]
    assert t.result == C.HERO_DIED and t.hs(0, L.HS_FIGHT_CAP) == 0


def test_the_fight_cap_ends_a_fight_in_which_neither_side_can_hurt_the_other_and_says_so():
    """In plate mail +1 and a shield +2 (AC 12) the fighter is out of the gargoyle's reach (6 + 5); its own weapon
    cannot harm the gargoyle. After 100 such rounds in a row the game ends there, unfinished: the `cap` row (b = 1),
    and the hero's `fight_cap` count, which the findings report the unfinished games by."""
    t = Table()
    t.give(0, "plate_mail_plus_1", "shield_plus_2")
    c = arena(t, "gargoyle")
    kernel, reference, r = both_fights(t, 0, c, dice=(HERO_FIRST + [6, 6]) * 100, choices=[OWN] * 100)
    assert kernel == reference
    assert kernel[1:5] == [(E.EV_INITIATIVE, 0, 6, 1, 1), (E.EV_ATTACK, 0, 6, 9, 1), (E.EV_IMMUNE, 0, c, 0, 0),
                           (E.EV_MONSTER_ATTACK, 0, 6, 11, 0)]
    assert kinds(kernel).count(E.EV_INITIATIVE) == 100 and kernel[-1] == (E.EV_CAP, -1, 0, 1, 0)
    assert t.result == C.STOP and t.hs(0, L.HS_FIGHT_CAP) == 1 and [t.hs(p, L.HS_FIGHT_CAP) for p in (1, 2)] == [0, 0]
    assert r.victory == E.WIN_NONE and [h.fight_cap for h in r.heroes] == [1, 0, 0]
    assert t.finish()[-1][0] == E.EV_SCORE and t.sc(L.SC_VICTORY) == E.WIN_NONE
    r.finish()
    assert [r.final_counts(h)[L.FINAL_NAMES.index("fight_cap")] for h in r.heroes] == [1, 0, 0]

