"""Spooky Tower rules under non-default settings, rule options and at the edges of every effect range.

``test_rules.py`` checks each rule with the default components; a bug written into both engines that only
shows with another setting (a Park worth two ghosts, a three-step dial, a custom Grimoire ...) or at the end of a
range (does "flip 9 or more" reach value 12? does "take any" reach 1 and 12?) would pass it. Each test here plays
one turn with scripted dice, a stacked Town and scripted decisions (``spooky_table.Table``), with a setting changed
from its default, and asserts that setting's effect exactly. The golden playthroughs ``tests/playthroughs/mixed_*``
play whole games with these settings as a second witness.

Card ids follow the listed Photos: ``card(v, k)`` is the k-th listed Photo of value v (the public card list unless a
test changes a Building's Photos).
"""
from __future__ import annotations

import numpy as np
import pytest

from balance.games.spooky_tower import enums as E
from balance.games.spooky_tower import rules as K
from balance.games.spooky_tower import layout as L
from balance.games.spooky_tower.components import Building, SpookyTowerComponents
from spooky_table import FLIP, NO, TAKE, YES, Table, effect_trail, legal, only

SENTINEL = -1


def watch_candidates(t):
    """Fill the candidate region with a sentinel before a turn, so that :func:`offered` can read it back."""
    t.s[L.CAND:L.CAND + L.NV] = SENTINEL


def offered(t):
    """The values the last take or flip effect of the turn offered the strategy, in the order offered.

    The kernel writes every value of the range at the next free candidate slot and counts it when it is legal, so
    the candidates are the slots up to the count; the slot after them keeps the sentinel as long as the range's last
    value was legal (every test reading this makes sure it is).
    """
    out = []
    for x in t.s[L.CAND:L.CAND + L.NV]:
        if x == SENTINEL:
            break
        out.append(int(x))
    return out


def components(**changes):
    """Default components with some settings changed; ``buildings={value: {key: new}}`` changes single Buildings."""
    buildings = changes.pop("buildings", {})
    comp = SpookyTowerComponents(**changes)
    for i, b in enumerate(comp.buildings):
        if b.value in buildings:
            comp.buildings[i] = Building(**{**b.model_dump(), **buildings[b.value]})
    return SpookyTowerComponents.model_validate(comp.model_dump())


def stuck_table(**kw):
    """A table where no seat holds its token and a roll of (1, 1) has no legal action: the clock moves."""
    t = Table(**kw)
    t.to_trunk(1)
    t.to_trunk(2)
    for p in range(t.players):
        t.set_pl(p, E.PL_TOKEN, 0)
    return t


def won(t):
    return (t.sc(E.SC_WINNER), t.sc(E.SC_VICTORY))


NOT_WON = (-1, E.WIN_NONE)


# --- Legal actions at the ends of the dice range -------------------------------------------------------------------

@pytest.mark.parametrize("dice, held, expected", [
    ((1, 1), (1, 2), [(TAKE, 1), (TAKE, 2), (FLIP, 1), (FLIP, 2)]),                 # lowest die and lowest sum
    ((6, 6), (6, 12), [(TAKE, 6), (TAKE, 12), (FLIP, 6), (FLIP, 12)]),             # highest die and highest sum
    ((5, 6), (5, 6, 11), [(TAKE, 5), (TAKE, 6), (TAKE, 11), (FLIP, 5), (FLIP, 6), (FLIP, 11)]),   # six rows
    ((6, 5), (5, 6, 11), [(TAKE, 5), (TAKE, 6), (TAKE, 11), (FLIP, 5), (FLIP, 6), (FLIP, 11)]),
    ((6, 6), (), [(TAKE, 6), (TAKE, 12)]),
])
def test_legal_actions_at_the_ends_of_the_dice_range(dice, held, expected):
    t = Table()
    t.give(0, *(t.card(v, 0) for v in held))
    assert legal(t, 0, *dice) == expected


def test_an_empty_value_12_stack_is_no_take_but_a_held_12_still_flips():
    t = Table()
    t.give(0, t.card(12, 0))
    t.to_trunk(12)
    assert legal(t, 0, 6, 6) == [(TAKE, 6), (FLIP, 12)]


@pytest.mark.parametrize("dice, row, action, value", [
    ((1, 1), 0, TAKE, 1), ((1, 1), 1, TAKE, 2), ((1, 1), 2, FLIP, 1),
    ((6, 6), 1, TAKE, 12), ((6, 6), 3, FLIP, 12),
    ((5, 6), 2, TAKE, 11), ((6, 5), 5, FLIP, 11),
])
def test_the_end_rows_of_the_dice_range_are_playable(dice, row, action, value):
    t = Table()
    t.set_pl(0, E.PL_TOKEN, 0)
    t.grimoire_on_top(0)                            # a value-11 Photo reveals the Grimoire ghost
    d1, d2 = dice
    t.give(0, *(t.card(v, 1) for v in sorted({d1, d2, d1 + d2})))    # a card of each value the dice name
    top = t.town(value)[-1]
    ev = t.turn(dice=dice, choices=(row,))
    if action == TAKE:
        assert only(ev, E.EV_TAKE) == [(E.EV_TAKE, 0, value, top, 0)]
        assert t.hand(0, value) == [t.card(value, 1), top]
    else:
        assert only(ev, E.EV_FLIP)[0] == (E.EV_FLIP, 0, value, 1, 0)
        assert only(ev, E.EV_REVEAL)[0] == (E.EV_REVEAL, 0, t.card(value, 1), value, 0)
        assert t.hand(0, value) == [] and len(t.town(value)) == (2 if value == 12 else 4)


# --- Effect ranges: take 8- and take any ---------------------------------------------------------------------------

def _take_8minus_table():
    t = Table()
    t.set_pl(0, E.PL_TOKEN, 0)
    t.give(0, t.card(6, 3))                         # value 6, card 4: take 8- only
    return t


@pytest.mark.parametrize("index, value", [(0, 1), (7, 8)])
def test_take_8_or_less_offers_1_to_8_and_takes_either_end(index, value):
    t = _take_8minus_table()
    top = t.town(value)[-1]
    watch_candidates(t)
    ev = t.turn(dice=(1, 5), choices=(3, index))    # take 1, 5, 6, flip 6
    assert offered(t) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert only(ev, E.EV_TAKE) == [(E.EV_TAKE, 0, value, top, 1)]
    assert t.hand(0, value) == [top] and len(t.town(value)) == 4


def test_take_8_or_less_never_offers_9_even_when_only_8_and_up_are_left():
    t = _take_8minus_table()
    for v in range(1, 8):
        t.to_trunk(v)                               # values 1-7 empty; 8 to 12 full
    top = t.town(8)[-1]
    watch_candidates(t)
    ev = t.turn(dice=(1, 5), choices=(0, 0))        # only flip 6 is legal
    assert offered(t) == [8]
    assert only(ev, E.EV_TAKE) == [(E.EV_TAKE, 0, 8, top, 1)]
    assert [len(t.town(v)) for v in range(9, 13)] == [5, 5, 5, 3]


def _take_any_table():
    t = Table()
    t.set_pl(0, E.PL_TOKEN, 0)
    t.grimoire_on_top(3)                            # Grimoire card 3: take any Building
    t.give(0, t.card(3, 1))                         # a Grimoire Photo
    return t


@pytest.mark.parametrize("index, value", [(0, 1), (11, 12)])
def test_take_any_offers_1_to_12_and_takes_either_end(index, value):
    t = _take_any_table()
    top = t.town(value)[-1]
    watch_candidates(t)
    ev = t.turn(dice=(1, 2), choices=(3, index))    # take 1, 2, 3, flip 3
    assert offered(t) == list(range(1, 13))
    assert only(ev, E.EV_TAKE) == [(E.EV_TAKE, 0, value, top, 1)]
    assert t.hand(0, value) == [top]


@pytest.mark.parametrize("left", [1, 12])
def test_take_any_reaches_a_lone_stack_at_either_end(left):
    t = _take_any_table()
    for v in range(1, 13):
        if v != left:
            t.to_trunk(v)
    top = t.town(left)[-1]
    watch_candidates(t)
    ev = t.turn(dice=(1, 2), choices=(1 if left == 1 else 0, 0))   # flip 3: row 1 after take 1, else row 0
    assert only(ev, E.EV_TAKE) == [(E.EV_TAKE, 0, left, top, 1)]
    if left == 12:                                  # (with 1 alone, the slot after it holds the 12 tried last)
        assert offered(t) == [12]


# --- Effect ranges: flip 8- and flip 9+ ----------------------------------------------------------------------------

@pytest.mark.parametrize("index", [0, 1])
def test_flip_8_or_less_offers_1_and_8_but_not_9(index):
    # Held: value 1 (flip 9+), value 8 (ghost), value 9 (ghost), and the value-5 "flip 8-" Photo that is flipped.
    t = Table()
    t.set_pl(0, E.PL_TOKEN, 0)
    one, eight, nine = t.card(1, 1), t.card(8, 0), t.card(9, 0)
    t.give(0, one, eight, nine, t.card(5, 3))
    watch_candidates(t)
    # take 1, 4, 5, flip 1, flip 5: row 4. Index 0 flips value 1, whose flip 9+ then flips the 9 (candidates [9]).
    ev = t.turn(dice=(1, 4), choices=(4, index) + ((0,) if index == 0 else ()))
    by_effect = [e for e in only(ev, E.EV_FLIP) if e[4] == 1]
    if index == 1:
        assert offered(t) == [1, 8]
        assert by_effect == [(E.EV_FLIP, 0, 8, 1, 1)]
        assert t.hand(0, 1) == [one] and t.hand(0, 9) == [nine] and t.pl(0, E.PL_GHOSTS) == 1
    else:
        assert by_effect == [(E.EV_FLIP, 0, 1, 1, 1), (E.EV_FLIP, 0, 9, 1, 1)]
        assert t.hand(0, 8) == [eight] and t.hand(0, 1) == [] and t.pl(0, E.PL_GHOSTS) == 1


def test_flip_8_or_less_with_only_9_and_up_held_is_lost():
    t = Table()
    t.set_pl(0, E.PL_TOKEN, 0)
    t.give(0, t.card(9, 0), t.card(12, 0), t.card(5, 3))
    ev = t.turn(dice=(1, 4), choices=(3,))          # take 1, 4, 5, flip 5
    assert only(ev, E.EV_LOST) == [(E.EV_LOST, 0, E.FX_FLIP_8MINUS, 0, 0)]
    assert t.hand(0, 9) == [t.card(9, 0)] and t.hand(0, 12) == [t.card(12, 0)]


@pytest.mark.parametrize("index, value, ghosts", [(0, 9, 1), (1, 12, 2)])
def test_flip_9_or_more_offers_9_and_12_but_not_8(index, value, ghosts):
    t = Table()
    t.set_pl(0, E.PL_TOKEN, 0)
    t.give(0, t.card(8, 0), t.card(9, 0), t.card(12, 0), t.card(1, 1))    # 8, 9, 12 ghosts; value 1: flip 9+
    watch_candidates(t)
    ev = t.turn(dice=(1, 2), choices=(3, index))    # take 1, 2, 3, flip 1
    assert offered(t) == [9, 12]
    assert only(ev, E.EV_FLIP)[1] == (E.EV_FLIP, 0, value, 1, 1)
    assert t.hand(0, value) == [] and t.hand(0, 8) == [t.card(8, 0)]
    assert t.pl(0, E.PL_GHOSTS) == ghosts


def test_flip_9_or_more_with_only_8_held_is_lost():
    t = Table()
    t.set_pl(0, E.PL_TOKEN, 0)
    t.give(0, t.card(8, 0), t.card(1, 1))
    ev = t.turn(dice=(1, 2), choices=(3,))
    assert only(ev, E.EV_LOST) == [(E.EV_LOST, 0, E.FX_FLIP_9PLUS, 0, 0)]
    assert t.hand(0, 8) == [t.card(8, 0)] and t.pl(0, E.PL_GHOSTS) == 0


# --- grimoire_ghost_worth ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("worth", [0, 3])
def test_grimoire_ghost_worth_setting(worth):
    t = Table(components=components(grimoire_ghost_worth=worth))
    t.set_pl(0, E.PL_TOKEN, 0)
    t.grimoire_on_top(0)                            # Grimoire card 0: ghost
    t.give(0, t.card(3, 1))
    ev = t.turn(dice=(1, 2), choices=(3,))          # flip 3
    assert effect_trail(ev) == [(E.FX_GRIMOIRE, E.SRC_PHOTO), (E.FX_GHOST, E.SRC_GRIMOIRE)]
    assert only(ev, E.EV_GHOST) == [(E.EV_GHOST, 0, worth, 0, 0)]
    assert t.pl(0, E.PL_GHOSTS) == worth


def test_grimoire_ghost_worth_leaves_the_photo_ghost_of_the_same_card_alone():
    # Value 11, card 1: Grimoire + ghost. The Grimoire ghost is worth 3, the Photo ghost its Building's 1.
    t = Table(components=components(grimoire_ghost_worth=3))
    t.set_pl(0, E.PL_TOKEN, 0)
    t.grimoire_on_top(0)
    t.give(0, t.card(11, 0))
    ev = t.turn(dice=(5, 6), choices=(3,))          # take 5, 6, 11, flip 11
    assert [e[2] for e in only(ev, E.EV_GHOST)] == [3, 1]
    assert t.pl(0, E.PL_GHOSTS) == 4 and t.s[L.cnt_at(0, 11, E.CNT_GHOSTS)] == 1


def test_a_grimoire_ghost_worth_3_wins_from_2_ghosts():
    t = Table(components=components(grimoire_ghost_worth=3))
    t.set_pl(0, E.PL_TOKEN, 0)
    t.set_pl(0, E.PL_GHOSTS, 2)
    t.grimoire_on_top(0)
    t.give(0, t.card(3, 1))
    ev = t.turn(dice=(1, 2), choices=(3,))
    assert only(ev, E.EV_WIN) == [(E.EV_WIN, 0, E.WIN_GHOSTS, 0, 0)] and won(t) == (0, E.WIN_GHOSTS)


# --- ghost_worth per Building --------------------------------------------------------------------------------------

WORTH = components(buildings={8: {"ghost_worth": 0}, 10: {"ghost_worth": 3}, 12: {"ghost_worth": 1}})


@pytest.mark.parametrize("value, dice, row, worth", [(10, (4, 6), 3, 3), (12, (6, 6), 2, 1), (8, (4, 4), 2, 0)])
def test_ghost_worth_per_building(value, dice, row, worth):
    t = Table(components=WORTH)
    t.set_pl(0, E.PL_TOKEN, 0)
    ghost = t.card(value, 0)                        # the first Photo of 8, 10 and 12 is a ghost
    t.give(0, ghost)
    ev = t.turn(dice=dice, choices=(row,))
    assert only(ev, E.EV_FLIP) == [(E.EV_FLIP, 0, value, 1, 0)]
    assert only(ev, E.EV_GHOST) == [(E.EV_GHOST, 0, worth, 0, 0)]
    assert t.pl(0, E.PL_GHOSTS) == worth and t.s[L.cnt_at(0, value, E.CNT_GHOSTS)] == worth
    assert t.loc(ghost) == K.LOC_KEPT + 0           # kept as a ghost Photo whatever it is worth


def test_two_ghosts_worth_3_win_at_once():
    t = Table(components=WORTH)
    t.set_pl(0, E.PL_TOKEN, 0)
    t.give(0, t.card(10, 0), t.card(10, 1))
    ev = t.turn(dice=(4, 6), choices=(3,))
    assert [e[2] for e in only(ev, E.EV_GHOST)] == [3, 3] and won(t) == (0, E.WIN_GHOSTS)


# --- bonus lists ---------------------------------------------------------------------------------------------------

BONUS = components(buildings={1: {"bonus": []}, 7: {"bonus": ["clue"]}, 12: {"bonus": ["fragment", "reroll"]}})


def test_a_clue_bonus_on_value_7_gives_a_clue_and_opens_the_park():
    t = Table(components=BONUS)
    ev = t.turn(dice=(3, 4), choices=(NO, 2, YES))  # take 3, 4, 7
    assert only(ev, E.EV_TAKE)[0][2] == 7
    assert effect_trail(ev) == [(E.FX_CLUE, E.SRC_BONUS)]
    assert only(ev, E.EV_PARK) == [(E.EV_PARK, 0, 0, 1, 0)]
    assert t.pl(0, E.PL_CLUES) == 0 and t.pl(0, E.PL_GHOSTS) == 1


def test_a_fragment_and_reroll_bonus_on_value_12_resolves_in_printed_order():
    t = Table(components=BONUS)
    t.set_pl(0, E.PL_TOKEN, 0)
    ev = t.turn(dice=(6, 6), choices=(1,))          # take 6, take 12
    assert only(ev, E.EV_TAKE)[0][2] == 12
    assert effect_trail(ev) == [(E.FX_FRAGMENT, E.SRC_BONUS), (E.FX_REROLL, E.SRC_BONUS)]
    assert t.pl(0, E.PL_FRAGMENTS) == 1 and t.sc(E.SC_FRAG_RESERVE) == 8 and t.pl(0, E.PL_TOKEN) == 1


def test_an_empty_bonus_on_value_1_does_not_refresh_the_token():
    t = Table(components=BONUS)
    t.set_pl(0, E.PL_TOKEN, 0)
    ev = t.turn(dice=(1, 1), choices=(0,))          # take 1
    assert only(ev, E.EV_TAKE)[0][2] == 1
    assert effect_trail(ev) == [] and only(ev, E.EV_TOKEN) == [] and t.pl(0, E.PL_TOKEN) == 0


def test_the_default_reroll_bonus_of_value_2_is_kept_when_value_1_changes():
    t = Table(components=BONUS)
    t.set_pl(0, E.PL_TOKEN, 0)
    ev = t.turn(dice=(1, 1), choices=(1,))          # take 2
    assert effect_trail(ev) == [(E.FX_REROLL, E.SRC_BONUS)] and t.pl(0, E.PL_TOKEN) == 1


def test_a_take_effect_applies_the_changed_bonus_of_the_card_it_takes():
    t = Table(components=BONUS)
    t.set_pl(0, E.PL_TOKEN, 0)
    t.grimoire_on_top(3)                            # take any
    t.give(0, t.card(3, 1))
    ev = t.turn(dice=(1, 2), choices=(3, 11))       # flip 3; candidates 1..12, index 11 = value 12
    assert effect_trail(ev) == [(E.FX_GRIMOIRE, E.SRC_PHOTO), (E.FX_TAKE_ANY, E.SRC_GRIMOIRE),
                                (E.FX_FRAGMENT, E.SRC_BONUS), (E.FX_REROLL, E.SRC_BONUS)]
    assert t.pl(0, E.PL_FRAGMENTS) == 1 and t.pl(0, E.PL_TOKEN) == 1


# --- park_ghosts and park_requirements -----------------------------------------------------------------------------

def _clue_turn(t, choices=(NO, 3, YES)):
    """Seat 0 flips the value-7 clue Photo it is given (take 3, 4, 7, flip 7), answering the Park question YES."""
    t.give(0, t.card(7, 3))
    return t.turn(dice=(3, 4), choices=choices)


@pytest.mark.parametrize("park_ghosts", [0, 2])
def test_park_ghosts_setting(park_ghosts):
    t = Table(components=components(park_ghosts=park_ghosts))
    t.set_pl(0, E.PL_CLUES, 2)                      # + 1 = 3 = 1 + 2: two Park cards
    ev = _clue_turn(t)
    assert only(ev, E.EV_PARK) == [(E.EV_PARK, 0, 0, 1, 0), (E.EV_PARK, 0, 1, 2, 0)]
    assert t.pl(0, E.PL_GHOSTS) == 2 * park_ghosts and t.pl(0, E.PL_CLUES) == 0


def test_park_cards_worth_2_win_on_the_first_card_and_the_park_stops():
    t = Table(components=components(park_ghosts=2))
    t.set_pl(0, E.PL_GHOSTS, 3)
    t.set_pl(0, E.PL_CLUES, 2)
    ev = _clue_turn(t)
    assert only(ev, E.EV_PARK) == [(E.EV_PARK, 0, 0, 1, 0)]
    assert won(t) == (0, E.WIN_GHOSTS) and t.pl(0, E.PL_GHOSTS) == 5 and t.pl(0, E.PL_CLUES) == 2


@pytest.mark.parametrize("requirements, clues, taken, left", [
    ([3, 1], 1, [], 2),                     # the top card needs 3: the cheaper card under it is not reached
    ([3, 1], 2, [(0, 3)], 0),
    ([3, 1], 3, [(0, 3), (1, 1)], 0),
    ([3, 1], 9, [(0, 3), (1, 1)], 6),       # the Park is empty after two cards: the rest of the clues stay
    ([2], 0, [], 1),
    ([2], 1, [(0, 2)], 0),
    ([2], 4, [(0, 2)], 3),
])
def test_park_requirements_setting(requirements, clues, taken, left):
    t = Table(components=components(park_requirements=requirements))
    assert int(t.s[L.OPT + E.OPT_N_PARK]) == len(requirements)
    t.set_pl(0, E.PL_CLUES, clues)
    ev = _clue_turn(t)
    assert [(e[2], e[3]) for e in only(ev, E.EV_PARK)] == taken
    assert t.sc(E.SC_PARK_TOP) == len(taken) and t.pl(0, E.PL_CLUES) == left and t.pl(0, E.PL_GHOSTS) == len(taken)


def test_a_single_card_park_taken_earlier_gives_nothing_more():
    t = Table(components=components(park_requirements=[2]))
    t.set_pl(0, E.PL_CLUES, 1)
    _clue_turn(t)
    assert t.sc(E.SC_PARK_TOP) == 1 and t.pl(0, E.PL_GHOSTS) == 1
    t.set_pl(0, E.PL_CLUES, 7)
    t.give(0, t.card(9, 4))                         # the value-9 clue Photo
    ev = t.turn(dice=(4, 5), choices=(NO, 3, YES))  # take 4, 5, 9, flip 9
    assert only(ev, E.EV_PARK) == [] and t.pl(0, E.PL_CLUES) == 8 and t.pl(0, E.PL_GHOSTS) == 1


# --- ghost_pets ----------------------------------------------------------------------------------------------------

def _pet_turn(t, p, *pets, choices=()):
    """Seat p flips the value-4 pet Photos given (take 1, 3, 4, flip 4)."""
    t.give(p, *(t.card(4, k) for k in pets))
    return t.turn(p=p, dice=(1, 3), choices=(NO, 3) + tuple(choices))


def test_no_ghost_pets_in_the_centre_and_nobody_to_steal_from_loses_the_first_pet():
    t = Table(players=3, components=components(ghost_pets=0))
    assert t.sc(E.SC_PETS_CENTER) == 0
    ev = _pet_turn(t, 0, 0)
    assert only(ev, E.EV_PET) == [] and only(ev, E.EV_LOST) == [(E.EV_LOST, 0, E.FX_PET, 0, 0)]
    assert [t.pl(p, E.PL_PETS) for p in range(3)] == [0, 0, 0]


def test_a_single_ghost_pet_is_taken_then_stolen():
    t = Table(players=3, components=components(ghost_pets=1))
    ev = _pet_turn(t, 1, 0)
    assert only(ev, E.EV_PET) == [(E.EV_PET, 1, -1, 0, 0)] and t.sc(E.SC_PETS_CENTER) == 0
    ev = _pet_turn(t, 0, 1, choices=(0,))           # victims [1]
    assert only(ev, E.EV_PET) == [(E.EV_PET, 0, 1, 0, 0)]
    assert [t.pl(p, E.PL_PETS) for p in range(3)] == [1, 0, 0]


def test_five_ghost_pets_serve_four_pets_from_the_centre():
    t = Table(players=3, components=components(ghost_pets=5))
    assert t.sc(E.SC_PETS_CENTER) == 5
    ev = _pet_turn(t, 0, 0, 1, 2, 3)                # four pet Photos flipped together
    assert only(ev, E.EV_PET) == [(E.EV_PET, 0, -1, 0, 0)] * 4 and only(ev, E.EV_LOST) == []
    assert t.pl(0, E.PL_PETS) == 4 and t.sc(E.SC_PETS_CENTER) == 1


# --- amulet_fragments and fragments_to_win -------------------------------------------------------------------------

def _fragment_turn(t, p):
    """Seat p is stuck without a token with the hand at step 2: the clock moves to step 3, a fragment."""
    t.set_sc(E.SC_CLOCK, 2)
    ev = t.turn(p=p, dice=(1, 1))
    assert only(ev, E.EV_CLOCK) == [(E.EV_CLOCK, p, 3, E.FX_FRAGMENT, 0)]
    return ev


def test_a_reserve_of_two_fragments_runs_out_on_the_third_fragment_effect():
    t = stuck_table(components=components(amulet_fragments=2, fragments_to_win=2))
    assert t.sc(E.SC_FRAG_RESERVE) == 2
    _fragment_turn(t, 0)
    _fragment_turn(t, 1)
    assert t.sc(E.SC_FRAG_RESERVE) == 0 and won(t) == NOT_WON
    ev = _fragment_turn(t, 0)
    assert only(ev, E.EV_LOST) == [(E.EV_LOST, 0, E.FX_FRAGMENT, 0, 0)] and only(ev, E.EV_FRAGMENT) == []
    assert [t.pl(p, E.PL_FRAGMENTS) for p in (0, 1)] == [1, 1] and won(t) == NOT_WON


def test_one_fragment_to_win_wins_on_the_first():
    t = stuck_table(components=components(fragments_to_win=1))
    ev = _fragment_turn(t, 0)
    assert only(ev, E.EV_WIN) == [(E.EV_WIN, 0, E.WIN_AMULET, 0, 0)] and won(t) == (0, E.WIN_AMULET)


def test_four_fragments_to_win_three_do_not_win_the_fourth_does():
    t = stuck_table(components=components(fragments_to_win=4))
    t.set_pl(0, E.PL_FRAGMENTS, 2)
    ev = _fragment_turn(t, 0)
    assert only(ev, E.EV_WIN) == [] and t.pl(0, E.PL_FRAGMENTS) == 3 and won(t) == NOT_WON
    ev = _fragment_turn(t, 0)
    assert only(ev, E.EV_WIN) == [(E.EV_WIN, 0, E.WIN_AMULET, 0, 0)] and won(t) == (0, E.WIN_AMULET)


# --- ghosts_to_win -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("to_win, ghosts, pets, wins", [
    (2, 1, 0, True), (3, 1, 0, False), (2, 0, 1, True),       # a low threshold; a pet counts
    (6, 4, 0, False), (6, 5, 0, True), (6, 3, 2, True),       # five is not enough when six are needed
    (30, 28, 0, False), (30, 29, 0, True),                    # the most the default components hold
])
def test_ghosts_to_win_setting(to_win, ghosts, pets, wins):
    t = Table(components=components(ghosts_to_win=to_win))
    t.set_pl(0, E.PL_TOKEN, 0)
    t.set_pl(0, E.PL_GHOSTS, ghosts)
    t.give_pets(0, pets)
    t.give(0, t.card(10, 0))
    ev = t.turn(dice=(4, 6), choices=(3,))          # flip 10: one ghost
    assert t.pl(0, E.PL_GHOSTS) + t.pl(0, E.PL_PETS) == ghosts + pets + 1
    assert only(ev, E.EV_WIN) == ([(E.EV_WIN, 0, E.WIN_GHOSTS, 0, 0)] if wins else [])
    assert won(t) == ((0, E.WIN_GHOSTS) if wins else NOT_WON)


def test_six_ghosts_to_win_plays_on_after_five():
    t = Table(components=components(ghosts_to_win=6), turn_cap=3)
    t.set_pl(0, E.PL_GHOSTS, 4)
    t.set_pl(0, E.PL_TOKEN, 0)
    t.give(0, t.card(10, 0))
    ev = t.play_on(dice=(4, 6) + (1, 1) * 2, choices=(3,))
    assert [e[1] for e in only(ev, E.EV_TURN)] == [0, 1, 0] and won(t) == NOT_WON
    assert t.pl(0, E.PL_GHOSTS) == 5


# --- clock_dial ----------------------------------------------------------------------------------------------------

DIAL3 = components(clock_dial=["ghost", "none", "extra_turn"], grimoire_ghost_worth=3)


def test_a_three_step_dial_applies_each_step_and_wraps_to_midnight():
    t = Table(components=DIAL3)
    for _ in range(7):
        K.clock_penalty_nb(t.s, t.f, 0)
    ev = t.events()
    assert [(e[2], e[3]) for e in only(ev, E.EV_CLOCK)] == [
        (1, E.FX_GHOST), (2, E.FX_NONE), (0, E.FX_EXTRA_TURN), (1, E.FX_GHOST), (2, E.FX_NONE),
        (0, E.FX_EXTRA_TURN), (1, E.FX_GHOST)]
    assert [e[4] for e in only(ev, E.EV_EFFECT) if e[3] == E.SRC_DIAL] == [1, 2, 3, 1, 2, 3, 1]   # dial steps
    # A dial ghost is worth one, whatever a Grimoire ghost is worth.
    assert only(ev, E.EV_GHOST) == [(E.EV_GHOST, 0, 1, 0, 0)] * 3 and t.pl(0, E.PL_GHOSTS) == 3
    assert len(only(ev, E.EV_EXTRA)) == 2 and t.sc(E.SC_CLOCK) == 1
    assert t.sc(E.SC_PETS_CENTER) == 3 and t.sc(E.SC_FRAG_RESERVE) == 9 and t.pl(0, E.PL_TOKEN) == 1


def test_the_last_step_of_a_three_step_dial_is_midnight_and_its_extra_turn_is_played():
    t = stuck_table(components=DIAL3, turn_cap=3)
    t.set_sc(E.SC_CLOCK, 2)
    ev = t.play_on(dice=(1, 1) * 3)                 # stuck: step 3 (extra turn); stuck again: step 1 (ghost)
    assert [(e[2], e[3]) for e in only(ev, E.EV_CLOCK)] == [(0, E.FX_EXTRA_TURN), (1, E.FX_GHOST), (2, E.FX_NONE)]
    assert [(e[1], e[4]) for e in only(ev, E.EV_TURN)] == [(0, 0), (0, 1), (1, 0)]
    assert t.pl(0, E.PL_GHOSTS) == 1 and t.pl(1, E.PL_GHOSTS) == 0 and t.sc(E.SC_CLOCK) == 2


def test_a_one_step_dial_stays_at_midnight_and_its_clue_opens_the_park():
    t = stuck_table(components=components(clock_dial=["clue"]))
    ev = t.turn(dice=(1, 1), choices=(YES,))        # the Park question is the only decision
    assert only(ev, E.EV_CLOCK) == [(E.EV_CLOCK, 0, 0, E.FX_CLUE, 0)] and t.sc(E.SC_CLOCK) == 0
    assert only(ev, E.EV_PARK) == [(E.EV_PARK, 0, 0, 1, 0)] and t.pl(0, E.PL_GHOSTS) == 1


# --- Grimoire deck -------------------------------------------------------------------------------------------------

GRIMOIRE3 = components(grimoire=[["clue", "ghost"], ["fragment"], ["take_any", "extra_turn"]])


def test_a_custom_grimoire_is_dealt_whole_and_shuffled():
    t = Table(components=GRIMOIRE3)
    assert int(t.s[L.OPT + E.OPT_N_GRIMOIRE]) == 3
    firsts = set()
    for seed in range(40):
        K.reset_nb(t.s, np.uint64(seed), 0)
        deal = [int(g) for g in t.s[L.GRIM:L.GRIM + 3]]
        assert sorted(deal) == [0, 1, 2]
        firsts.add(deal[0])
    assert firsts == {0, 1, 2}


def test_a_custom_grimoire_applies_each_card_as_printed_then_runs_out():
    t = Table(components=GRIMOIRE3)
    t.set_pl(0, E.PL_TOKEN, 0)
    t.grimoire_on_top(0, 1, 2)
    t.give(0, *(t.card(3, k) for k in (1, 2, 3, 4)))     # four Grimoire Photos, flipped together
    # take 1, 2, 3, flip 3; take any: index 0 = value 1; the clue opens the Park.
    ev = t.turn(dice=(1, 2), choices=(3, 0, YES))
    assert only(ev, E.EV_GRIMOIRE) == [(E.EV_GRIMOIRE, 0, 0, 2, 0), (E.EV_GRIMOIRE, 0, 1, 1, 0),
                                       (E.EV_GRIMOIRE, 0, 2, 2, 0)]
    G, P, B = E.SRC_GRIMOIRE, E.SRC_PHOTO, E.SRC_BONUS
    assert effect_trail(ev) == [(E.FX_GRIMOIRE, P), (E.FX_CLUE, G), (E.FX_GHOST, G), (E.FX_GRIMOIRE, P),
                                (E.FX_FRAGMENT, G), (E.FX_GRIMOIRE, P), (E.FX_TAKE_ANY, G), (E.FX_REROLL, B),
                                (E.FX_EXTRA_TURN, G), (E.FX_GRIMOIRE, P)]
    assert only(ev, E.EV_LOST) == [(E.EV_LOST, 0, E.FX_GRIMOIRE, 0, 0)] and t.sc(E.SC_GRIM_TOP) == 3
    assert only(ev, E.EV_PARK) == [(E.EV_PARK, 0, 0, 1, 0)]
    assert t.pl(0, E.PL_GHOSTS) == 2 and t.pl(0, E.PL_FRAGMENTS) == 1 and t.pl(0, E.PL_TOKEN) == 1
    assert len(t.hand(0, 1)) == 1 and t.sc(E.SC_EXTRA) == 1


# --- Rule options not covered elsewhere ----------------------------------------------------------------------------

@pytest.mark.parametrize("scope, flipped", [("card", 1), ("building", 2)])
def test_flip_scope_on_the_flip_9_or_more_effect(scope, flipped):
    t = Table(flip_scope=scope)
    t.set_pl(0, E.PL_TOKEN, 0)
    first, last = t.card(10, 0), t.card(10, 1)
    t.give(0, t.card(1, 1), first, last)            # value 1: flip 9+; two value-10 ghosts, `last` taken last
    ev = t.turn(dice=(1, 2), choices=(3, 0))        # flip 1; candidates [10]
    assert only(ev, E.EV_FLIP)[1] == (E.EV_FLIP, 0, 10, flipped, 1)
    assert [e[2] for e in only(ev, E.EV_REVEAL)][1:] == ([last] if scope == "card" else [first, last])
    assert t.hand(0, 10) == ([first] if scope == "card" else []) and t.pl(0, E.PL_GHOSTS) == flipped


@pytest.mark.parametrize("order, trail", [
    ("printed", [E.FX_CLUE, E.FX_TAKE_8MINUS]),
    ("takes_first", [E.FX_TAKE_8MINUS, E.FX_CLUE]),
])
def test_effect_order_on_a_bonus(order, trail):
    t = Table(components=components(buildings={7: {"bonus": ["clue", "take_8minus"]}}), effect_order=order)
    ev = t.turn(dice=(3, 4), choices=(NO, 2, 4, NO))    # take 7; its take 8- takes value 5 (index 4); no Park
    assert [(fx, src) for fx, src in effect_trail(ev)] == [(fx, E.SRC_BONUS) for fx in trail]
    assert [(e[2], e[4]) for e in only(ev, E.EV_TAKE)] == [(7, 0), (5, 1)] and t.pl(0, E.PL_CLUES) == 1


def _two_card_components():
    comp = SpookyTowerComponents()
    comp.buildings[4] = Building(value=5, photos=[["ghost", "flip_8minus"], ["take_8minus", "clue"]]
                                 + [["flip_8minus"]] * 3)
    return comp


def test_effect_order_printed_across_two_cards():
    t = Table(components=_two_card_components())
    t.set_pl(0, E.PL_TOKEN, 0)
    pet = t.card(8, 2)
    t.on_top(8, pet)
    t.give(0, t.card(5, 0), t.card(5, 1))
    ev = t.turn(dice=(1, 4), choices=(3, 7, NO))    # flip 5; the take picks value 8 (index 7); no Park
    assert [fx for fx, _ in effect_trail(ev)] == [E.FX_GHOST, E.FX_FLIP_8MINUS, E.FX_TAKE_8MINUS, E.FX_CLUE]
    assert only(ev, E.EV_LOST) == [(E.EV_LOST, 0, E.FX_FLIP_8MINUS, 0, 0)]
    assert t.hand(0, 8) == [pet] and t.pl(0, E.PL_PETS) == 0


def test_effect_order_takes_first_across_two_cards_lets_the_flip_reach_the_card_just_taken():
    t = Table(components=_two_card_components(), effect_order="takes_first")
    t.set_pl(0, E.PL_TOKEN, 0)
    pet = t.card(8, 2)
    t.on_top(8, pet)
    t.give(0, t.card(5, 0), t.card(5, 1))
    ev = t.turn(dice=(1, 4), choices=(3, 7, 0, NO))     # take 8 first; the flip's candidates are [8]
    assert effect_trail(ev) == [(E.FX_TAKE_8MINUS, E.SRC_PHOTO), (E.FX_GHOST, E.SRC_PHOTO),
                                (E.FX_CLUE, E.SRC_PHOTO), (E.FX_FLIP_8MINUS, E.SRC_PHOTO), (E.FX_PET, E.SRC_PHOTO)]
    assert only(ev, E.EV_LOST) == [] and t.hand(0, 8) == [] and t.pl(0, E.PL_PETS) == 1


@pytest.mark.parametrize("order, trail, ghosts", [
    ("printed", [E.FX_FLIP_9PLUS, E.FX_TAKE_ANY], 0),
    ("takes_first", [E.FX_TAKE_ANY, E.FX_FLIP_9PLUS, E.FX_GHOST], 2),
])
def test_effect_order_on_a_grimoire_card(order, trail, ghosts):
    t = Table(components=components(grimoire=[["flip_9plus", "take_any"]]), effect_order=order)
    t.set_pl(0, E.PL_TOKEN, 0)
    t.give(0, t.card(3, 1))
    script = (3, 11) if order == "printed" else (3, 11, 0)     # take any: value 12; the flip 9+: [12]
    ev = t.turn(dice=(1, 2), choices=script)
    assert [fx for fx, _ in effect_trail(ev)][1:] == trail
    assert t.pl(0, E.PL_GHOSTS) == ghosts and len(t.hand(0, 12)) == (1 if order == "printed" else 0)


EXTRA3 = components(buildings={8: {"photos": [["extra_turn"]] * 5}})


@pytest.mark.parametrize("extra_turns, owed", [("one", 1), ("stack", 3)])
def test_three_extra_turn_effects_in_one_turn(extra_turns, owed):
    t = Table(components=EXTRA3, extra_turns=extra_turns)
    t.set_pl(0, E.PL_TOKEN, 0)
    t.give(0, t.card(8, 0), t.card(8, 1), t.card(8, 2))
    ev = t.turn(dice=(4, 4), choices=(2,))          # take 4, 8, flip 8
    assert len(only(ev, E.EV_EXTRA)) == 3 and t.sc(E.SC_EXTRA) == owed


@pytest.mark.parametrize("extra_turns, turns", [
    ("one", [(0, 1, 0), (0, 1, 1), (1, 1, 0), (0, 2, 0), (1, 2, 0)]),
    ("stack", [(0, 1, 0), (0, 1, 1), (0, 1, 1), (0, 1, 1), (1, 1, 0)]),
])
def test_three_extra_turns_are_played_one_after_another(extra_turns, turns):
    t = Table(components=EXTRA3, extra_turns=extra_turns, turn_cap=5)
    t.set_pl(0, E.PL_TOKEN, 0)
    t.give(0, t.card(8, 0), t.card(8, 1), t.card(8, 2))
    ev = t.play_on(dice=(4, 4) + (1, 1) * 4, choices=(2,))     # then every turn takes a value-1 card
    assert [(e[1], e[3], e[4]) for e in only(ev, E.EV_TURN)] == turns
