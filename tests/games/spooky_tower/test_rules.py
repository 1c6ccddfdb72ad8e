"""Spooky Tower rules, one test per rule: scripted dice, a stacked Town and scripted decisions, read from the trace.

Every seat plays the test-only "scripted" strategy (``strategies.SCRIPTED``): each decision pops the next scripted
integer (reroll 0/1, index into the legal rows, index into the candidates, victim index, Park 0/1). Card ids follow
the public card list (``components.card_list_buildings``): ``card(v, k)`` is the k-th listed Photo of value v. The
table itself is in ``spooky_table.py`` (shared with ``test_rules_settings.py``).
"""
from __future__ import annotations

import numpy as np
import pytest

from balance.games.spooky_tower import enums as E
from balance.games.spooky_tower import rules as K
from balance.games.spooky_tower import layout as L
from balance.games.spooky_tower.components import Building, SpookyTowerComponents
from spooky_table import FLIP, NO, TAKE, YES, Table, effect_trail, kinds, legal, only


# --- Setup -----------------------------------------------------------------------------------------------------

def test_setup_deals_each_value_into_its_own_stack_and_sets_out_the_centre():
    t = Table(players=4)
    comp = SpookyTowerComponents()
    for b in comp.buildings:
        cards = [t.card(b.value, k) for k in range(len(b.photos))]
        assert sorted(t.town(b.value)) == cards                 # all of value v, and nothing else
        assert all(t.loc(c) == K.LOC_TOWN for c in cards)
    n_grim = len(comp.grimoire)
    assert sorted(int(g) for g in t.s[L.GRIM:L.GRIM + n_grim]) == list(range(n_grim)) and t.sc(E.SC_GRIM_TOP) == 0
    n_park = int(t.s[L.OPT + E.OPT_N_PARK])
    assert [int(x) for x in t.s[L.PARK_REQ:L.PARK_REQ + n_park]] == [1, 2, 2, 2, 3] and t.sc(E.SC_PARK_TOP) == 0
    assert t.sc(E.SC_PETS_CENTER) == 3 and t.sc(E.SC_FRAG_RESERVE) == 9
    assert t.sc(E.SC_CLOCK) == 0                                # midnight
    for p in range(4):
        assert t.pl(p, E.PL_TOKEN) == 1
        assert [t.pl(p, k) for k in (E.PL_GHOSTS, E.PL_PETS, E.PL_FRAGMENTS, E.PL_CLUES, E.PL_HELD)] == [0] * 5


def test_setup_shuffles_every_stack_and_the_grimoire_in_every_game():
    # 300 deals (seeds): every card of every value comes up on top of its stack at least once, and every Grimoire
    # card is dealt first at least once. An unshuffled stack, or one shuffle shared by every game, fails.
    t = Table()
    comp = SpookyTowerComponents()
    tops = {b.value: set() for b in comp.buildings}
    first = set()
    for seed in range(300):
        K.reset_nb(t.s, np.uint64(seed), 0)
        for v in tops:
            tops[v].add(t.town(v)[-1])
        first.add(int(t.s[L.GRIM]))
    for b in comp.buildings:
        assert tops[b.value] == {t.card(b.value, k) for k in range(len(b.photos))}
    assert first == set(range(len(comp.grimoire)))


# --- 1. Roll Dice ----------------------------------------------------------------------------------------------

def test_roll_uses_two_dice_and_the_token_is_kept_when_not_rerolling():
    t = Table()
    ev = t.turn(dice=(2, 3), choices=(NO, 0))
    assert only(ev, E.EV_ROLL) == [(E.EV_ROLL, 0, 2, 3, 0)]
    assert only(ev, E.EV_REROLL) == []
    assert only(ev, E.EV_TAKE)[0][2] == 2
    assert t.pl(0, E.PL_TOKEN) == 1


def test_reroll_rerolls_both_dice_and_spends_the_token():
    t = Table()
    ev = t.turn(dice=(1, 1, 5, 6), choices=(YES, 0))
    assert only(ev, E.EV_REROLL) == [(E.EV_REROLL, 0, 5, 6, 0)]
    assert only(ev, E.EV_TAKE)[0][2] == 5          # the new roll counts: take 5 is the first legal row of (5, 6)
    assert t.pl(0, E.PL_TOKEN) == 0                 # value 5 has no bonus, so the token stays spent


def test_no_reroll_without_the_token():
    t = Table()
    t.set_pl(0, E.PL_TOKEN, 0)
    ev = t.turn(dice=(5, 6), choices=(0,))          # one decision only: the action (no reroll question)
    assert only(ev, E.EV_REROLL) == []
    assert only(ev, E.EV_TAKE)[0][2] == 5


@pytest.mark.parametrize("value, refreshed", [(1, True), (2, True), (3, True), (4, True), (5, False), (6, False)])
def test_taking_values_1_to_4_refreshes_the_token(value, refreshed):
    t = Table()
    t.set_pl(0, E.PL_TOKEN, 0)
    ev = t.turn(dice=(value, 6), choices=(0,))      # first legal row: take `value`
    assert only(ev, E.EV_TAKE)[0][2] == value
    assert t.pl(0, E.PL_TOKEN) == int(refreshed)
    assert len(only(ev, E.EV_TOKEN)) == int(refreshed)


def test_reroll_effect_refreshes_the_token():
    # Dial step 2 is "reroll": no legal action with the token spent moves the clock from step 1 to step 2.
    t = Table()
    t.set_pl(0, E.PL_TOKEN, 0)
    t.set_sc(E.SC_CLOCK, 1)
    t.to_trunk(1)
    t.to_trunk(2)
    ev = t.turn(dice=(1, 1))
    assert only(ev, E.EV_CLOCK) == [(E.EV_CLOCK, 0, 2, E.FX_REROLL, 0)]
    assert t.pl(0, E.PL_TOKEN) == 1


# --- 2. Take a card --------------------------------------------------------------------------------------------

def test_take_a_single_die_or_the_sum():
    t = Table()
    assert legal(t, 0, 2, 5) == [(TAKE, 2), (TAKE, 5), (TAKE, 7)]
    ev = t.turn(dice=(2, 5), choices=(NO, 2))
    assert only(ev, E.EV_TAKE)[0][2] == 7
    assert len(t.hand(0, 7)) == 1 and t.hand(0, 2) == [] and t.hand(0, 5) == []


def test_take_takes_the_top_card_of_the_stack():
    t = Table()
    top = t.card(7, 2)
    t.on_top(7, top)
    ev = t.turn(dice=(2, 5), choices=(NO, 2))
    assert only(ev, E.EV_TAKE) == [(E.EV_TAKE, 0, 7, top, 0)]
    assert t.hand(0, 7) == [top] and t.loc(top) == 0
    assert top not in t.town(7) and len(t.town(7)) == 4
    assert t.pl(0, E.PL_HELD) == 1


def test_take_applies_the_bonus():
    # Value 9's bonus moves the clock one step: dial step 1 gives a Ghost Pet from the centre.
    t = Table()
    ev = t.turn(dice=(3, 6), choices=(NO, 2))
    assert only(ev, E.EV_TAKE)[0][2] == 9
    assert effect_trail(ev)[:2] == [(E.FX_CLOCK, E.SRC_BONUS), (E.FX_PET, E.SRC_DIAL)]
    assert t.sc(E.SC_CLOCK) == 1 and t.pl(0, E.PL_PETS) == 1 and t.sc(E.SC_PETS_CENTER) == 2


@pytest.mark.parametrize("bonus, trail", [
    # Only token refreshes (resolved in place, one effect each) ...
    (["reroll", "reroll"], [(E.FX_REROLL, E.SRC_BONUS), (E.FX_REROLL, E.SRC_BONUS)]),
    # ... or mixed with others: as printed, each chain depth first (the clock's dial step before what follows).
    (["reroll", "clock"], [(E.FX_REROLL, E.SRC_BONUS), (E.FX_CLOCK, E.SRC_BONUS), (E.FX_PET, E.SRC_DIAL)]),
    (["clock", "reroll"], [(E.FX_CLOCK, E.SRC_BONUS), (E.FX_PET, E.SRC_DIAL), (E.FX_REROLL, E.SRC_BONUS)]),
])
def test_a_bonus_of_several_effects_resolves_each_in_printed_order(bonus, trail):
    comp = SpookyTowerComponents()
    comp.buildings[1] = comp.buildings[1].model_copy(update={"bonus": bonus})
    t = Table(components=comp)
    t.set_pl(0, E.PL_TOKEN, 0)
    t.set_pl(0, E.PL_CLUES, 0)
    ev = t.turn(dice=(2, 5), choices=(0,))           # token spent, so no reroll question; take 2
    assert only(ev, E.EV_TAKE)[0][2] == 2
    assert effect_trail(ev) == trail
    assert t.pl(0, E.PL_TOKEN) == 1 and len(only(ev, E.EV_TOKEN)) == bonus.count("reroll")
    assert t.pl(0, E.PL_PETS) == bonus.count("clock")


def test_an_empty_stack_is_not_a_legal_take():
    t = Table()
    t.to_trunk(5)
    assert legal(t, 0, 2, 3) == [(TAKE, 2), (TAKE, 3)]


@pytest.mark.parametrize("dice, expected", [
    ((3, 3), [(TAKE, 3), (TAKE, 6), (FLIP, 3), (FLIP, 6)]),                       # doubles: 3 once
    ((6, 3), [(TAKE, 3), (TAKE, 6), (TAKE, 9), (FLIP, 3), (FLIP, 6)]),            # ascending whatever the dice order
    ((1, 2), [(TAKE, 1), (TAKE, 2), (TAKE, 3), (FLIP, 3)]),                       # flip only what is held
])
def test_legal_actions_are_distinct_takes_then_flips_ascending(dice, expected):
    t = Table()
    t.give(0, t.card(3, 0), t.card(6, 0))
    assert legal(t, 0, *dice) == expected


# --- 2. Flip your cards ----------------------------------------------------------------------------------------

def test_flip_flips_every_card_of_that_value_and_applies_their_effects():
    t = Table()
    a, b = t.card(10, 0), t.card(10, 1)
    t.give(0, a, b)
    assert legal(t, 0, 4, 6)[3] == (FLIP, 10)
    ev = t.turn(dice=(4, 6), choices=(NO, 3))
    assert only(ev, E.EV_FLIP) == [(E.EV_FLIP, 0, 10, 2, 0)]
    assert t.pl(0, E.PL_GHOSTS) == 2
    assert t.hand(0, 10) == [] and t.pl(0, E.PL_HELD) == 0


def test_flipped_cards_leave_ghost_photos_are_kept_the_rest_go_to_the_trunk():
    t = Table()
    ghost, clue, clock = t.card(7, 0), t.card(7, 3), t.card(7, 2)
    t.give(0, ghost, clue, clock)
    ev = t.turn(dice=(3, 4), choices=(NO, 3, NO))   # flip 7; decline the Park
    assert only(ev, E.EV_FLIP)[0][3] == 3
    assert t.loc(ghost) == K.LOC_KEPT + 0
    assert t.loc(clue) == K.LOC_TRUNK and t.loc(clock) == K.LOC_TRUNK
    assert t.pl(0, E.PL_HELD) == 0


def test_flip_needs_held_cards():
    t = Table()
    assert all(a == TAKE for a, _ in legal(t, 0, 4, 6))
    t.give(1, t.card(10, 0))                        # another seat's cards do not count
    assert all(a == TAKE for a, _ in legal(t, 0, 4, 6))
    assert (FLIP, 10) in legal(t, 1, 4, 6)


# --- Description of Effects ------------------------------------------------------------------------------------

def test_ghost_photo_captures_and_value_12_ghost_is_worth_two():
    t = Table()
    t.give(0, t.card(12, 0))
    ev = t.turn(dice=(6, 6), choices=(NO, 2))       # take 6, take 12, flip 12
    assert only(ev, E.EV_GHOST) == [(E.EV_GHOST, 0, 2, 0, 0)]
    assert t.pl(0, E.PL_GHOSTS) == 2
    assert t.s[L.cnt_at(0, 12, E.CNT_GHOSTS)] == 2


def test_clue_photo_gives_a_clue():
    t = Table()
    t.give(0, t.card(7, 3))
    ev = t.turn(dice=(3, 4), choices=(NO, 3, NO))
    assert only(ev, E.EV_CLUE) == [(E.EV_CLUE, 0, 1, 0, 0)]
    assert t.pl(0, E.PL_CLUES) == 1


def test_clock_dial_sequence_then_back_to_midnight():
    t = Table()
    seen = []
    for _ in range(7):
        K.clock_penalty_nb(t.s, t.f, 0)
    for e in only(t.events(), E.EV_CLOCK):
        seen.append((e[2], e[3]))
    assert seen == [(1, E.FX_PET), (2, E.FX_REROLL), (3, E.FX_FRAGMENT), (4, E.FX_PET), (5, E.FX_REROLL),
                    (0, E.FX_FRAGMENT), (1, E.FX_PET)]
    assert t.pl(0, E.PL_PETS) == 3 and t.pl(0, E.PL_FRAGMENTS) == 2
    assert len(only(t.events(), E.EV_TOKEN)) == 2


def test_clock_x2_is_two_steps_each_applying_its_dial_effect():
    # Grimoire card 5 is "clock x2"; a value-3 Photo with Grimoire reveals it.
    t = Table()
    t.set_pl(0, E.PL_TOKEN, 0)
    t.grimoire_on_top(5)
    t.give(0, t.card(3, 1))
    ev = t.turn(dice=(1, 2), choices=(3,))          # take 1, 2, 3, flip 3
    assert effect_trail(ev) == [(E.FX_GRIMOIRE, E.SRC_PHOTO), (E.FX_CLOCK, E.SRC_GRIMOIRE), (E.FX_PET, E.SRC_DIAL),
                                (E.FX_CLOCK, E.SRC_GRIMOIRE), (E.FX_REROLL, E.SRC_DIAL)]
    assert t.sc(E.SC_CLOCK) == 2 and t.pl(0, E.PL_PETS) == 1 and t.pl(0, E.PL_TOKEN) == 1


def test_clock_clock_photo_moves_the_hand_twice():
    t = Table()
    t.give(0, t.card(2, 0))                         # value 2, card 1: clock + clock
    t.turn(dice=(2, 5), choices=(NO, 3))            # take 2, 5, 7, flip 2
    assert t.sc(E.SC_CLOCK) == 2 and t.pl(0, E.PL_PETS) == 1


def test_grimoire_reveals_the_top_card_and_applies_it():
    t = Table()
    t.grimoire_on_top(0)                            # Grimoire card 0: ghost
    t.give(0, t.card(3, 1))
    ev = t.turn(dice=(1, 2), choices=(NO, 3))
    assert only(ev, E.EV_GRIMOIRE) == [(E.EV_GRIMOIRE, 0, 0, 1, 0)]
    assert t.pl(0, E.PL_GHOSTS) == 1 and t.sc(E.SC_GRIM_TOP) == 1


def test_grimoire_with_an_empty_deck_is_lost():
    t = Table()
    t.set_sc(E.SC_GRIM_TOP, int(t.s[L.OPT + E.OPT_N_GRIMOIRE]))
    t.give(0, t.card(3, 1))
    ev = t.turn(dice=(1, 2), choices=(NO, 3))
    assert only(ev, E.EV_LOST) == [(E.EV_LOST, 0, E.FX_GRIMOIRE, 0, 0)]
    assert only(ev, E.EV_GRIMOIRE) == []


def test_take_8_or_less_takes_a_chosen_value_and_applies_its_bonus():
    t = Table()
    t.set_pl(0, E.PL_TOKEN, 0)
    t.give(0, t.card(6, 3))                         # take 8- only
    ev = t.turn(dice=(1, 5), choices=(3, 3))        # take 1, 5, 6, flip 6; candidates 1..8, index 3 = value 4
    (take,) = only(ev, E.EV_TAKE)
    assert (take[2], take[4]) == (4, 1)             # value 4, by an effect
    assert len(t.hand(0, 4)) == 1 and t.pl(0, E.PL_TOKEN) == 1


def test_take_8_or_less_cannot_take_9_or_more():
    t = Table()
    for v in range(1, 9):
        if v != 6:
            t.to_trunk(v)
    t.give(0, t.card(6, 3))
    t.to_trunk(6)
    ev = t.turn(dice=(1, 5), choices=(NO, 0))       # only flip 6 is legal
    assert only(ev, E.EV_LOST) == [(E.EV_LOST, 0, E.FX_TAKE_8MINUS, 0, 0)]
    assert t.pl(0, E.PL_HELD) == 0


def test_take_any_chains_into_the_bonus_clock_and_the_dial():
    t = Table()
    t.grimoire_on_top(3)                            # take any Building
    t.give(0, t.card(3, 1))
    ev = t.turn(dice=(1, 2), choices=(NO, 3, 8))    # candidates 1..12, index 8 = value 9 (bonus: clock)
    assert only(ev, E.EV_TAKE)[0][2] == 9
    assert effect_trail(ev) == [(E.FX_GRIMOIRE, E.SRC_PHOTO), (E.FX_TAKE_ANY, E.SRC_GRIMOIRE),
                                (E.FX_CLOCK, E.SRC_BONUS), (E.FX_PET, E.SRC_DIAL)]
    assert t.pl(0, E.PL_PETS) == 1


@pytest.mark.parametrize("scope, flipped", [("card", 1), ("building", 2)])
def test_flip_8_or_less_flips_one_card_or_one_building(scope, flipped):
    t = Table(flip_scope=scope)
    t.set_pl(0, E.PL_TOKEN, 0)
    clue, clock = t.card(7, 3), t.card(7, 2)
    t.give(0, t.card(5, 3), clue, clock)            # value 5, card 4: flip 8- only; clock taken last
    # take 1, 4, 5, flip 5; the flip 8- candidates are [7]; a clue (building scope only) asks about the Park
    ev = t.turn(dice=(1, 4), choices=(3, 0) + ((NO,) if scope == "building" else ()))
    assert only(ev, E.EV_FLIP)[1] == (E.EV_FLIP, 0, 7, flipped, 1)
    assert t.sc(E.SC_CLOCK) == 1                    # one card: the one taken most recently (the clock Photo)
    assert t.hand(0, 7) == ([clue] if scope == "card" else [])
    assert t.pl(0, E.PL_CLUES) == (0 if scope == "card" else 1)


def test_flip_9_or_more_flips_a_high_card():
    t = Table()
    t.set_pl(0, E.PL_TOKEN, 0)
    t.give(0, t.card(1, 1), t.card(10, 0))          # value 1, card 2: flip 9+; value 10: ghost
    ev = t.turn(dice=(1, 2), choices=(3, 0))        # take 1, 2, 3, flip 1; candidate 10
    assert only(ev, E.EV_FLIP)[1] == (E.EV_FLIP, 0, 10, 1, 1)
    assert t.pl(0, E.PL_GHOSTS) == 1


def test_flip_effect_with_nothing_to_flip_is_lost():
    t = Table()
    t.set_pl(0, E.PL_TOKEN, 0)
    t.give(0, t.card(1, 1), t.card(5, 3))           # flip 9+ but only a value-5 card left
    ev = t.turn(dice=(1, 2), choices=(3,))
    assert only(ev, E.EV_LOST) == [(E.EV_LOST, 0, E.FX_FLIP_9PLUS, 0, 0)]
    assert t.hand(0, 5) == [t.card(5, 3)]


def test_empty_circle_photo_has_no_effect():
    comp = SpookyTowerComponents()
    comp.buildings[6] = Building(value=7, photos=[["none"], ["ghost"], ["clock"], ["clue"], ["clue"]])
    t = Table(components=comp)
    c = t.card(7, 0)
    t.give(0, c)
    ev = t.turn(dice=(3, 4), choices=(NO, 3))       # take 3, 4, 7, flip 7
    assert only(ev, E.EV_REVEAL) == [(E.EV_REVEAL, 0, c, 7, 0)]
    assert effect_trail(ev) == [] and t.loc(c) == K.LOC_TRUNK
    assert [t.pl(0, k) for k in (E.PL_GHOSTS, E.PL_PETS, E.PL_FRAGMENTS, E.PL_CLUES)] == [0] * 4
    assert t.sc(E.SC_CLOCK) == 0 and t.sc(E.SC_EXTRA) == 0


def test_empty_circle_on_the_dial_stops_the_hand_there_with_no_effect():
    t = Table(components=SpookyTowerComponents(clock_dial=["none", "pet", "reroll"]))
    t.give(0, t.card(2, 1))                         # a clock Photo
    ev = t.turn(dice=(1, 1), choices=(NO, 2))       # take 1, take 2, flip 2
    assert only(ev, E.EV_CLOCK) == [(E.EV_CLOCK, 0, 1, E.FX_NONE, 0)]
    assert effect_trail(ev) == [(E.FX_CLOCK, E.SRC_PHOTO), (E.FX_NONE, E.SRC_DIAL)]
    assert t.sc(E.SC_CLOCK) == 1 and t.sc(E.SC_PETS_CENTER) == 3 and t.pl(0, E.PL_PETS) == 0


def test_take_any_with_the_whole_town_empty_is_lost():
    t = Table()
    t.grimoire_on_top(3)                            # Grimoire card 3: take any Building
    t.give(0, t.card(3, 1))                         # a Grimoire Photo
    for v in range(1, 13):
        t.to_trunk(v)
    ev = t.turn(dice=(1, 2), choices=(NO, 0))       # nothing to take: flip 3 is the only action
    assert only(ev, E.EV_LOST) == [(E.EV_LOST, 0, E.FX_TAKE_ANY, 0, 0)]
    assert only(ev, E.EV_TAKE) == [] and t.pl(0, E.PL_HELD) == 0


def test_a_fragment_from_a_photo_counts_toward_the_win():
    # The rulebook's fragments come from the dial; a scenario may print one on a Photo, and it counts the same.
    comp = SpookyTowerComponents()
    comp.buildings[6] = Building(value=7, photos=[["fragment"], ["ghost"], ["clock"], ["clue"], ["clue"]])
    t = Table(components=comp)
    t.set_pl(0, E.PL_FRAGMENTS, 2)
    t.set_sc(E.SC_FRAG_RESERVE, 7)
    t.give(0, t.card(7, 0))
    ev = t.turn(dice=(3, 4), choices=(NO, 3))
    assert only(ev, E.EV_FRAGMENT) == [(E.EV_FRAGMENT, 0, 3, 0, 0)]
    assert only(ev, E.EV_WIN) == [(E.EV_WIN, 0, E.WIN_AMULET, 0, 0)] and t.sc(E.SC_FRAG_RESERVE) == 6


def test_ghost_pet_comes_from_the_centre_first():
    t = Table(players=3)
    t.give_pets(1, 1)
    t.give(0, t.card(4, 0))
    ev = t.turn(dice=(1, 3), choices=(NO, 3))       # take 1, 3, 4, flip 4
    assert only(ev, E.EV_PET) == [(E.EV_PET, 0, -1, 0, 0)]
    assert t.pl(0, E.PL_PETS) == 1 and t.pl(1, E.PL_PETS) == 1 and t.sc(E.SC_PETS_CENTER) == 1


def test_ghost_pet_steals_from_a_chosen_player_when_the_centre_is_empty():
    t = Table(players=3)
    t.give_pets(1, 1)
    t.give_pets(2, 2)
    t.give(0, t.card(4, 0))
    ev = t.turn(dice=(1, 3), choices=(NO, 3, 1))    # victims [1, 2]: index 1 = seat 2
    assert only(ev, E.EV_PET) == [(E.EV_PET, 0, 2, 0, 0)]
    assert [t.pl(p, E.PL_PETS) for p in range(3)] == [1, 1, 1]


def test_ghost_pet_with_nobody_to_steal_from_is_lost():
    t = Table(players=3)
    t.give_pets(0, 3)                               # the active player holds them all
    t.give(0, t.card(4, 0))
    ev = t.turn(dice=(1, 3), choices=(NO, 3))
    assert only(ev, E.EV_LOST) == [(E.EV_LOST, 0, E.FX_PET, 0, 0)]
    assert t.pl(0, E.PL_PETS) == 3


def test_fragment_comes_from_the_reserve_and_is_lost_when_it_runs_out():
    t = Table()
    t.set_pl(0, E.PL_TOKEN, 0)
    t.set_sc(E.SC_CLOCK, 2)                         # next step: fragment
    t.to_trunk(1)
    t.to_trunk(2)
    t.turn(dice=(1, 1))
    assert t.pl(0, E.PL_FRAGMENTS) == 1 and t.sc(E.SC_FRAG_RESERVE) == 8
    t.set_sc(E.SC_FRAG_RESERVE, 0)
    t.set_sc(E.SC_CLOCK, 2)
    ev = t.turn(dice=(1, 1))
    assert only(ev, E.EV_LOST) == [(E.EV_LOST, 0, E.FX_FRAGMENT, 0, 0)]
    assert t.pl(0, E.PL_FRAGMENTS) == 1


def test_extra_turn_effect_gives_one_extra_turn():
    t = Table()
    t.give(0, t.card(8, 4))
    ev = t.turn(dice=(4, 4), choices=(NO, 2))       # take 4, 8, flip 8
    assert len(only(ev, E.EV_EXTRA)) == 1
    assert t.sc(E.SC_EXTRA) == 1


@pytest.mark.parametrize("extra_turns, owed", [("one", 1), ("stack", 2)])
def test_two_extra_turn_effects_in_one_turn(extra_turns, owed):
    # Two value-5 "flip 8-" Photos: the first flips the extra-turn Photo of value 8, the second a value-3 Grimoire
    # Photo that reveals the extra-turn Grimoire card (index 4).
    t = Table(extra_turns=extra_turns)
    t.set_pl(0, E.PL_TOKEN, 0)
    t.grimoire_on_top(4)
    t.give(0, t.card(5, 3), t.card(5, 4), t.card(8, 4), t.card(3, 1))
    ev = t.turn(dice=(1, 4), choices=(3, 1, 0))     # flip 5; candidates [3, 8] -> 8; then [3] -> 3
    assert len(only(ev, E.EV_EXTRA)) == 2
    assert t.sc(E.SC_EXTRA) == owed


def test_an_extra_turn_can_earn_a_further_extra_turn():
    t = Table(turn_cap=3)
    t.set_pl(0, E.PL_TOKEN, 0)
    t.grimoire_on_top(4)                            # Grimoire card 4: extra turn
    t.give(0, t.card(8, 4), t.card(3, 1))           # the extra-turn Photo of value 8, a Grimoire Photo
    t.to_trunk(1)
    t.to_trunk(2)
    # Turn 1 flips 8 (extra turn); the extra turn flips 3 (Grimoire: extra turn); the third turn is stuck.
    ev = t.play_on(dice=(4, 4) + (1, 2) + (1, 1), choices=(2, 1))
    assert [(e[1], e[3], e[4]) for e in only(ev, E.EV_TURN)] == [(0, 1, 0), (0, 1, 1), (0, 1, 1)]
    assert len(only(ev, E.EV_EXTRA)) == 2


# --- Chains ----------------------------------------------------------------------------------------------------

def test_flip_8_or_less_chain_resolves_the_flipped_card_before_the_rest():
    t = Table()
    t.set_pl(0, E.PL_TOKEN, 0)
    t.give(0, t.card(5, 0), t.card(7, 0))           # value 5: flip 8- + clue; value 7: ghost
    ev = t.turn(dice=(1, 4), choices=(3, 0, NO))
    assert effect_trail(ev) == [(E.FX_FLIP_8MINUS, E.SRC_PHOTO), (E.FX_GHOST, E.SRC_PHOTO),
                                (E.FX_CLUE, E.SRC_PHOTO)]
    assert t.pl(0, E.PL_GHOSTS) == 1 and t.pl(0, E.PL_CLUES) == 1


def test_take_8_or_less_chain_resolves_the_taken_bonus_before_the_next_photo_effect():
    t = Table()
    t.set_pl(0, E.PL_TOKEN, 0)
    t.give(0, t.card(6, 2))                         # value 6, card 3: take 8- + clock
    ev = t.turn(dice=(1, 5), choices=(3, 1))        # flip 6; candidates 1..8, index 1 = value 2 (bonus: reroll)
    assert effect_trail(ev) == [(E.FX_TAKE_8MINUS, E.SRC_PHOTO), (E.FX_REROLL, E.SRC_BONUS),
                                (E.FX_CLOCK, E.SRC_PHOTO), (E.FX_PET, E.SRC_DIAL)]


# --- Open point: effect order ----------------------------------------------------------------------------------

def _mixed_card_components():
    comp = SpookyTowerComponents()
    comp.buildings[4] = Building(value=5, photos=[["flip_8minus", "clue", "take_8minus"]] * 5)
    return comp


@pytest.mark.parametrize("order, trail", [
    ("printed", [E.FX_FLIP_8MINUS, E.FX_GHOST, E.FX_CLUE, E.FX_TAKE_8MINUS]),
    ("takes_first", [E.FX_TAKE_8MINUS, E.FX_CLUE, E.FX_FLIP_8MINUS, E.FX_GHOST]),
])
def test_effect_order_option(order, trail):
    # The value-5 Photo reads "flip 8-, clue, take 8-"; the player also holds a value-7 ghost.
    t = Table(components=_mixed_card_components(), effect_order=order)
    t.set_pl(0, E.PL_TOKEN, 0)
    t.give(0, t.card(5, 0), t.card(7, 0))
    # Flip 5 (row 3 of take 1, 4, 5, flip 5). The take picks value 8 (candidates 1..8: index 7); the flip picks
    # value 7 (candidates [7] when it comes first, [7, 8] after the take: index 0 either way); decline the Park.
    script = (3, 0, 7, NO) if order == "printed" else (3, 7, 0, NO)
    ev = t.turn(dice=(1, 4), choices=script)
    assert [fx for fx, _ in effect_trail(ev)] == trail
    assert len(t.hand(0, 8)) == 1 and t.pl(0, E.PL_GHOSTS) == 1


# --- Go to the Park --------------------------------------------------------------------------------------------

def test_park_only_on_a_turn_when_a_clue_was_gained():
    t = Table()
    t.set_pl(0, E.PL_CLUES, 5)
    ev = t.turn(dice=(2, 3), choices=(NO, 0))       # a take, no clue: no Park decision, no Park
    assert only(ev, E.EV_PARK) == [] and t.sc(E.SC_PARK_TOP) == 0 and t.pl(0, E.PL_CLUES) == 5


def test_park_takes_cards_while_clues_cover_the_top_requirement():
    t = Table()
    t.set_pl(0, E.PL_CLUES, 4)                      # + 1 gained = 5 = 1 + 2 + 2; the 4th card needs 2 more
    t.give(0, t.card(7, 3))
    ev = t.turn(dice=(3, 4), choices=(NO, 3, YES))
    assert only(ev, E.EV_PARK) == [(E.EV_PARK, 0, 0, 1, 0), (E.EV_PARK, 0, 1, 2, 0), (E.EV_PARK, 0, 2, 2, 0)]
    assert t.sc(E.SC_PARK_TOP) == 3 and t.pl(0, E.PL_CLUES) == 0 and t.pl(0, E.PL_GHOSTS) == 3


def test_park_leftover_clues_stay_and_are_used_on_a_later_clue_turn():
    t = Table()
    t.set_pl(0, E.PL_TOKEN, 0)
    t.set_pl(0, E.PL_CLUES, 1)
    t.give(0, t.card(7, 3), t.card(9, 4))           # a value-7 clue and a value-9 clue
    t.turn(dice=(3, 4), choices=(3, YES))           # 2 clues: Park 1 (needs 1), 1 left < 2
    assert t.sc(E.SC_PARK_TOP) == 1 and t.pl(0, E.PL_CLUES) == 1
    t.turn(dice=(5, 6), choices=(0,))               # no clue this turn: the clue waits
    assert t.sc(E.SC_PARK_TOP) == 1 and t.pl(0, E.PL_CLUES) == 1
    t.turn(dice=(4, 5), choices=(3, YES))           # flip 9: one more clue, 2 in all: Park 2 (needs 2)
    assert t.sc(E.SC_PARK_TOP) == 2 and t.pl(0, E.PL_CLUES) == 0 and t.pl(0, E.PL_GHOSTS) == 2


def test_a_grimoire_clue_opens_the_park_and_the_park_comes_before_the_extra_turn():
    t = Table(turn_cap=2)
    t.set_pl(0, E.PL_TOKEN, 0)
    t.grimoire_on_top(1, 4)                         # Grimoire cards 1 (clue), then 4 (extra turn)
    t.give(0, t.card(3, 1), t.card(3, 2))           # two Grimoire Photos
    t.to_trunk(1)
    t.to_trunk(2)
    ev = t.play_on(dice=(1, 2) + (1, 1), choices=(1, YES))     # flip 3; go to the Park; the extra turn is stuck
    assert (E.FX_CLUE, E.SRC_GRIMOIRE) in effect_trail(ev)
    assert only(ev, E.EV_PARK) == [(E.EV_PARK, 0, 0, 1, 0)] and t.pl(0, E.PL_GHOSTS) == 1
    park = ev.index(only(ev, E.EV_PARK)[0])
    second_turn = [i for i, e in enumerate(ev) if e[0] == E.EV_TURN][1]
    assert park < second_turn and ev[second_turn][1] == 0 and ev[second_turn][4] == 1


def test_declining_the_park_keeps_the_clues():
    t = Table()
    t.set_pl(0, E.PL_CLUES, 2)
    t.give(0, t.card(7, 3))
    ev = t.turn(dice=(3, 4), choices=(NO, 3, NO))
    assert only(ev, E.EV_PARK_SKIP) == [(E.EV_PARK_SKIP, 0, 0, 0, 0)]
    assert t.sc(E.SC_PARK_TOP) == 0 and t.pl(0, E.PL_CLUES) == 3


# --- No legal action -------------------------------------------------------------------------------------------

def _stuck_table(**rule_opts):
    t = Table(**rule_opts)
    t.to_trunk(1)
    t.to_trunk(2)                                   # a roll of (1, 1) can take nothing and flip nothing
    return t


def test_stuck_without_token_moves_the_clock_and_applies_its_effect():
    t = _stuck_table()
    t.set_pl(0, E.PL_TOKEN, 0)
    ev = t.turn(dice=(1, 1))
    assert only(ev, E.EV_STUCK) == [(E.EV_STUCK, 0, 1, 0, 0)]
    assert effect_trail(ev) == [(E.FX_CLOCK, E.SRC_RULE), (E.FX_PET, E.SRC_DIAL)]
    assert t.sc(E.SC_CLOCK) == 1 and t.pl(0, E.PL_PETS) == 1


def test_stuck_with_token_declining_passes_by_default():
    t = _stuck_table()
    ev = t.turn(dice=(1, 1), choices=(NO,))
    assert only(ev, E.EV_STUCK) == [(E.EV_STUCK, 0, 0, 0, 0)]
    assert only(ev, E.EV_CLOCK) == [] and t.sc(E.SC_CLOCK) == 0 and t.pl(0, E.PL_TOKEN) == 1


def test_stuck_with_token_declining_moves_the_clock_under_clock_option():
    t = _stuck_table(stuck_with_token="clock")
    ev = t.turn(dice=(1, 1), choices=(NO,))
    assert only(ev, E.EV_STUCK) == [(E.EV_STUCK, 0, 1, 0, 0)]
    assert t.sc(E.SC_CLOCK) == 1 and t.pl(0, E.PL_PETS) == 1 and t.pl(0, E.PL_TOKEN) == 1


def test_stuck_with_token_declining_is_forced_to_reroll_under_reroll_option():
    t = _stuck_table(stuck_with_token="reroll")
    ev = t.turn(dice=(1, 1, 3, 4), choices=(NO, 0))
    assert only(ev, E.EV_REROLL) == [(E.EV_REROLL, 0, 3, 4, 0)]
    assert only(ev, E.EV_TAKE)[0][2] == 3 and t.pl(0, E.PL_TOKEN) == 1   # value 3's bonus refreshes it


def test_stuck_with_token_rerolling_then_stuck_again_moves_the_clock():
    t = _stuck_table()
    ev = t.turn(dice=(1, 1, 1, 1), choices=(YES,))
    assert only(ev, E.EV_REROLL) == [(E.EV_REROLL, 0, 1, 1, 0)]
    assert only(ev, E.EV_STUCK) == [(E.EV_STUCK, 0, 1, 0, 0)]
    assert t.sc(E.SC_CLOCK) == 1 and t.pl(0, E.PL_TOKEN) == 0


# --- End of the Game -------------------------------------------------------------------------------------------

def test_fifth_ghost_wins_at_once_and_stops_the_effect_chain():
    t = Table()
    t.set_pl(0, E.PL_GHOSTS, 4)
    t.give(0, t.card(1, 0), t.card(10, 0))          # value 1, card 1: ghost + flip 9+
    ev = t.turn(dice=(1, 2), choices=(NO, 3))
    assert only(ev, E.EV_WIN) == [(E.EV_WIN, 0, E.WIN_GHOSTS, 0, 0)]
    assert (t.sc(E.SC_WINNER), t.sc(E.SC_VICTORY)) == (0, E.WIN_GHOSTS)
    assert only(ev, E.EV_FLIP) == [(E.EV_FLIP, 0, 1, 1, 0)]   # the flip 9+ after the ghost never happens
    assert t.hand(0, 10) == [t.card(10, 0)]
    assert ev[-1][0] == E.EV_WIN and t.s[L.M_STACK] == 0


def test_pets_count_as_ghosts_for_the_win():
    t = Table()
    t.set_pl(0, E.PL_GHOSTS, 3)
    t.give_pets(0, 1)
    t.give(0, t.card(4, 0))
    t.turn(dice=(1, 3), choices=(NO, 3))
    assert (t.sc(E.SC_WINNER), t.sc(E.SC_VICTORY)) == (0, E.WIN_GHOSTS)


def test_park_cards_count_as_ghosts_for_the_win_and_the_park_stops_there():
    t = Table()
    t.set_pl(0, E.PL_GHOSTS, 4)
    t.set_pl(0, E.PL_CLUES, 2)
    t.give(0, t.card(7, 3))
    ev = t.turn(dice=(3, 4), choices=(NO, 3, YES))  # 3 clues: Park 1 wins; Park 2 is not taken
    assert only(ev, E.EV_PARK) == [(E.EV_PARK, 0, 0, 1, 0)]
    assert (t.sc(E.SC_WINNER), t.sc(E.SC_VICTORY)) == (0, E.WIN_GHOSTS) and t.pl(0, E.PL_CLUES) == 2


def test_third_fragment_wins():
    t = Table()
    t.set_pl(0, E.PL_TOKEN, 0)
    t.set_pl(0, E.PL_FRAGMENTS, 2)
    t.set_sc(E.SC_FRAG_RESERVE, 7)
    t.set_sc(E.SC_CLOCK, 2)
    t.to_trunk(1)
    t.to_trunk(2)
    ev = t.turn(dice=(1, 1))
    assert (t.sc(E.SC_WINNER), t.sc(E.SC_VICTORY)) == (0, E.WIN_AMULET)
    assert only(ev, E.EV_WIN) == [(E.EV_WIN, 0, E.WIN_AMULET, 0, 0)]


def test_clock_x2_win_on_the_first_step_skips_the_second():
    t = Table()
    t.set_pl(0, E.PL_TOKEN, 0)
    t.set_pl(0, E.PL_GHOSTS, 4)
    t.grimoire_on_top(5)                            # clock x2: step 1 (pet) wins, step 2 never moves
    t.give(0, t.card(3, 1))
    t.turn(dice=(1, 2), choices=(3,))
    assert t.sc(E.SC_WINNER) == 0 and t.sc(E.SC_CLOCK) == 1 and t.pl(0, E.PL_TOKEN) == 0


def test_pet_steal_wins_and_takes_the_victim_down():
    t = Table()
    t.set_pl(0, E.PL_GHOSTS, 4)
    t.set_pl(1, E.PL_GHOSTS, 1)
    t.give_pets(1, 3)                               # the centre is empty; seat 1: 1 ghost + 3 pets = 4
    t.give(0, t.card(4, 0))
    ev = t.turn(dice=(1, 3), choices=(NO, 3, 0))
    assert only(ev, E.EV_PET) == [(E.EV_PET, 0, 1, 0, 0)]
    assert (t.sc(E.SC_WINNER), t.sc(E.SC_VICTORY)) == (0, E.WIN_GHOSTS)
    assert t.pl(1, E.PL_PETS) == 2 and t.pl(1, E.PL_GHOSTS) + t.pl(1, E.PL_PETS) == 3


def test_a_won_game_plays_no_further_turn():
    t = Table()
    t.set_pl(0, E.PL_GHOSTS, 4)
    t.give(0, t.card(10, 0))
    ev = t.play_on(dice=(4, 6), choices=(NO, 3))
    assert kinds(ev).count(E.EV_TURN) == 1 and t.sc(E.SC_WINNER) == 0 and t.sc(E.SC_TURN) == 1


# --- Turn cap and turn order -----------------------------------------------------------------------------------

def test_turn_cap_ends_the_game_unfinished():
    t = Table(turn_cap=10)
    ev = t.play_on(dice=(1, 1) * 10)                # every turn takes a value-1 or value-2 card: nobody can win
    assert (t.sc(E.SC_WINNER), t.sc(E.SC_VICTORY), t.sc(E.SC_TURN)) == (-1, E.WIN_NONE, 10)
    assert kinds(ev).count(E.EV_TURN) == 10 and ev[-1] == (E.EV_CAP, -1, 10, 0, 0)


def test_seat_0_starts_turns_go_clockwise_and_rounds_are_counted():
    t = Table(players=3, turn_cap=7)
    ev = t.play_on(dice=(1, 1) * 7)
    turns = [(e[1], e[2], e[3], e[4]) for e in only(ev, E.EV_TURN)]
    assert turns == [(0, 1, 1, 0), (1, 2, 1, 0), (2, 3, 1, 0), (0, 4, 2, 0), (1, 5, 2, 0), (2, 6, 2, 0),
                     (0, 7, 3, 0)]
    assert t.sc(E.SC_ROUND) == 3


@pytest.mark.parametrize("extra_turns, turns", [
    ("one", [(0, 1, 0), (0, 1, 1), (1, 1, 0), (0, 2, 0)]),
    ("stack", [(0, 1, 0), (0, 1, 1), (0, 1, 1), (1, 1, 0)]),
])
def test_extra_turn_keeps_the_seat_and_the_round(extra_turns, turns):
    # (seat, round, extra) of each turn; seat 0's first turn earns two extra-turn effects (as in the test above).
    t = Table(extra_turns=extra_turns, turn_cap=4)
    t.set_pl(0, E.PL_TOKEN, 0)
    t.grimoire_on_top(4)
    t.give(0, t.card(5, 3), t.card(5, 4), t.card(8, 4), t.card(3, 1))
    ev = t.play_on(dice=(1, 4) + (1, 1) * 3, choices=(3, 1, 0))
    assert [(e[1], e[3], e[4]) for e in only(ev, E.EV_TURN)] == turns
