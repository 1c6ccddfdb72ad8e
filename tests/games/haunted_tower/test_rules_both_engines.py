"""The Haunted Tower: rules pinned in both engines at once, each from one hand-laid position with scripted dice and
decisions (``haunted_table.Table`` for the kernel, ``haunted_mirror`` for the same position in the reference engine):
the fight cap, which only a fight in which neither side can hurt the other reaches; a ghoul's hold, which ends with
the hero's death; and the snapshots' fields of an out hero.

Dice of a combat round, in order: the hero's and the monster's initiative 1d6, the first side's die, the other's.
Combat decisions: 0 run, 1 attack with the hero's own weapon. Heroes by seat: 0 fighter (8 hp, attack 3, AC 7, +1
damage), 1 dwarf, 2 elf (``haunted_table.TEST_HEROES``).
"""
from __future__ import annotations

import pytest

from balance.games.haunted_tower.rules import combat as C
from balance.games.haunted_tower import enums as E
from balance.games.haunted_tower import layout as L
from haunted_mirror import both_fights, both_play, both_turns, mirror
from haunted_table import Table, kinds, only

RUN, OWN = 0, 1
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
    assert kernel[1:5] == [(E.EV_INITIATIVE, 0, 6, 1, 1), (E.EV_WEAPON, 0, -1, 0, 0), (E.EV_ATTACK, 0, 1, 4, 0),
                           (E.EV_MONSTER_ATTACK, 0, 6, 7, 0)]
    assert kinds(kernel).count(E.EV_INITIATIVE) == 121 and only(kernel, E.EV_CAP) == []
    assert kernel[-4:] == [(E.EV_WEAPON, 0, -1, 0, 0), (E.EV_ATTACK, 0, 6, 9, 1), (E.EV_DAMAGE, 0, 2, -1, 0),
                           (E.EV_KILL, 0, c, t.monster("giant_rat"), 0)]
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
    assert kernel[1:6] == [(E.EV_INITIATIVE, 0, 6, 1, 1), (E.EV_WEAPON, 0, -1, 0, 0), (E.EV_ATTACK, 0, 6, 9, 1),
                           (E.EV_IMMUNE, 0, c, 0, 0), (E.EV_MONSTER_ATTACK, 0, 1, 6, 0)]
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
    assert kernel[1:6] == [(E.EV_INITIATIVE, 0, 6, 1, 1), (E.EV_WEAPON, 0, -1, 0, 0), (E.EV_ATTACK, 0, 6, 9, 1),
                           (E.EV_IMMUNE, 0, c, 0, 0), (E.EV_MONSTER_ATTACK, 0, 6, 11, 0)]
    assert kinds(kernel).count(E.EV_INITIATIVE) == 100 and kernel[-1] == (E.EV_CAP, -1, 0, 1, 0)
    assert t.result == C.STOP and t.hs(0, L.HS_FIGHT_CAP) == 1 and [t.hs(p, L.HS_FIGHT_CAP) for p in (1, 2)] == [0, 0]
    assert r.victory == E.WIN_NONE and [h.fight_cap for h in r.heroes] == [1, 0, 0]
    assert t.finish()[-1][0] == E.EV_SCORE and t.sc(L.SC_VICTORY) == E.WIN_NONE
    r.finish()
    assert [r.final_counts(h)[L.FINAL_NAMES.index("fight_cap")] for h in r.heroes] == [1, 0, 0]


# =====================================================================================================================
# A ghoul's hold ends with the death
# =====================================================================================================================

GHOUL_HELD_KILL = [1, 6, 6, 8]     # the ghoul first (1 < 6), hits (6 + 3 >= AC 7), 8 on its 1d10: "held"; 1 hit point


def test_a_ghoul_hold_ends_with_the_death_it_came_with_and_the_respawned_hero_moves_on_its_next_turn():
    """The ruling (docs/rules/haunted_tower.md, Combat 6): the hero re-enters at full strength, the hold is over. A
    ghoul's hit that holds the hero and kills it: on its next turn the hero rolls and moves (no `held`)."""
    t = Table()
    t.set_hp(0, 1)
    t.place(0, t.sq(*HERO_SQ))
    c = t.put("ghoul", t.sq(*MONSTER_SQ))
    outside = int(t.board.outside[0])                       # the first free outside square: where it restarts
    kernel, reference, r = both_play(t, [(0, [1] + GHOUL_HELD_KILL, [t.sq(*HERO_SQ), 0, 0]),
                                         (0, [2], [outside])])
    assert kernel == reference
    first, second = kernel
    assert only(first, E.EV_HIT_ROLL, E.EV_WOUND, E.EV_MONSTER_GONE, E.EV_DEATH) == [
        (E.EV_HIT_ROLL, 0, 8, E.HIT_HELD, 0), (E.EV_WOUND, 0, 1, 0, 0), (E.EV_MONSTER_GONE, 0, c, 0, 0),
        (E.EV_DEATH, 0, 1, outside, 0)]
    assert only(second, E.EV_HELD) == [] and only(second, E.EV_MOVE_ROLL) == [(E.EV_MOVE_ROLL, 0, 2, 5, 0)]
    assert t.hs(0, L.HS_HELD_TURN) == 0 and not r.heroes[0].held


def test_a_ghoul_hit_that_puts_the_hero_out_leaves_no_hold_behind():
    """The second death puts the hero out: no hold is left with it (the snapshots say `held: false`)."""
    t = Table()
    t.set_hs(0, L.HS_DEATHS, 1)
    t.set_hp(0, 1)
    c = arena(t, "ghoul")
    kernel, reference, r = both_fights(t, 0, c, dice=GHOUL_HELD_KILL)
    assert kernel == reference
    assert kernel[-3:] == [(E.EV_MONSTER_GONE, 0, c, 0, 0), (E.EV_DEATH, 0, 2, -1, 0), (E.EV_OUT, 0, 0, 0, 0)]
    assert (E.EV_HIT_ROLL, 0, 8, E.HIT_HELD, 0) in kernel
    assert t.hs(0, L.HS_OUT) == 1 and t.hs(0, L.HS_HELD_TURN) == 0
    assert r.heroes[0].out and not r.heroes[0].held and not r.snapshot().heroes[0].held


# =====================================================================================================================
# Snapshots: an out hero's points "if the game ended now"
# =====================================================================================================================

@pytest.mark.parametrize("out_hero_scores", [True, False])
def test_an_out_heros_snapshot_points_are_what_the_final_score_gives_it(out_hero_scores):
    """With `out_hero_scores = false` a hero out of the game scores 0 at the end, so its snapshots (the points if the
    game ended now) show 0 from the turn it went out; with true, its chits and stand-ups."""
    t = Table(rules={"out_hero_scores": out_hero_scores})
    t.keep(0, "giant_rat", "skeleton")                      # 2 stand-ups, 2 blue chits: 4 points
    t.set_hs(0, L.HS_DEATHS, 1)
    t.set_hp(0, 1)
    c = arena(t, "ghoul")
    assert mirror(t).snapshot().heroes[0].points == 4
    kernel, reference, r = both_fights(t, 0, c, dice=GHOUL_HELD_KILL)
    assert kernel == reference and r.heroes[0].out
    points = 4 if out_hero_scores else 0
    assert r.snapshot().heroes[0].points == points
    r.finish()
    t.finish()
    assert r.final_counts(r.heroes[0])[0] == points == t.hs(0, L.HS_POINTS)


# =====================================================================================================================
# The trace: the weapon of each attack, the path of each move, who chose for a monster, the uses left
# =====================================================================================================================

def test_each_attack_names_its_weapon_and_the_snapshot_the_uses_left():
    """A `weapon` row before every `attack`: the chit attacked with, -1 for the hero's own weapon. The snapshots list
    the uses left of each carried item (0: no limit)."""
    t = Table()
    flask, sword = t.give(0, "holy_water_flask", "sword_plus_1")     # 3 uses; no limit
    c = arena(t, "wight")                               # HP 4; att 3; AC 6; harmed by holy water, not by a plain sword
    r0 = mirror(t)
    assert r0.snapshot().heroes[0].uses == (3, 0)
    # the flask hits (6 + 3) for 2 (the fighter's +1); the wight misses (1 + 3); the own weapon hits but cannot harm
    # it; the wight misses; the sword +1 (a magical weapon: it harms the wight) hits for 2 and kills it
    dice = HERO_FIRST + [6, 1] + HERO_FIRST + [6, 1] + HERO_FIRST + [6]
    kernel, reference, r = both_fights(t, 0, c, dice=dice, choices=[2, OWN, 3])
    assert kernel == reference
    assert only(kernel, E.EV_WEAPON) == [(E.EV_WEAPON, 0, flask, 0, 0), (E.EV_WEAPON, 0, -1, 0, 0),
                                         (E.EV_WEAPON, 0, sword, 0, 0)]
    assert [kernel[i + 1][0] for i, e in enumerate(kernel) if e[0] == E.EV_WEAPON] == [E.EV_ATTACK] * 3
    assert r.snapshot().heroes[0].uses == (2, 0) and t.s[L.CHIT_USES + flask] == 2


def test_each_move_lists_the_squares_of_its_path_with_their_costs():
    """`step` rows after `move`: every square the hero enters, in order, with that step's cost (through the door: 2);
    they add up to the move's cost. Staying put has none."""
    t = Table()
    t.place(0, t.sq(1, 7, 10))
    kernel, reference, _r = both_turns(t, 0, dice=[1], choices=[t.sq(1, 3, 10)])
    assert kernel == reference
    assert kernel[2:] == [(E.EV_MOVE, 0, t.sq(1, 7, 10), t.sq(1, 3, 10), 4), (E.EV_STEP, 0, t.sq(1, 5, 10), 2, 0),
                          (E.EV_STEP, 0, t.sq(1, 4, 10), 1, 0), (E.EV_STEP, 0, t.sq(1, 3, 10), 1, 0)]
    kernel, reference, _r = both_turns(t, 0, dice=[1], choices=[t.sq(1, 3, 10)])
    assert kernel == reference and only(kernel, E.EV_STEP) == []


def test_the_seat_that_chose_for_the_robber_fly_and_the_rust_monster_is_named():
    """The player on the hero's right decides what the robber fly moves (and where) and what the rust monster eats:
    `stolen` names that seat in c, `rusted` in b. Seat 0's right is seat 2 at three players."""
    t = Table()
    t.give(0, "holy_water")                             # not metal: the rust monster is offered the mail only
    c = arena(t, "rust_monster")
    (mail,) = t.give(0, "chain_mail_plus_1")
    kernel, reference, _r = both_fights(t, 0, c, dice=[1, 6, 6, 10], choices=[0, RUN])
    assert kernel == reference and only(kernel, E.EV_RUSTED) == [(E.EV_RUSTED, 0, mail, 2, 0)]
    t = Table()
    t.give(0, "holy_water")
    t.place(0, t.sq(1, 13, 23))                         # in the Pantry
    c = t.put("robber_fly", t.sq(1, 14, 23), face_up=True)
    kernel, reference, _r = both_fights(t, 0, c, dice=[1, 6, 6, 10], choices=[0, 0, RUN])
    assert kernel == reference
    assert [e[:2] + e[4:] for e in only(kernel, E.EV_STOLEN)] == [(E.EV_STOLEN, 0, 2)]
