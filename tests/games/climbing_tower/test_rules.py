"""Climbing Tower rules, one test per rule (docs/rules/climbing_tower.md, section 2), driven by scripted deals,
stacked piles and scripted choices on the kernel's own functions.

The default tower here is the rulebook's first game, 001-003-006 with BOSS side A: 18 floors (003's top and 006's
bottom are both brick and join, as do 006's top and the BOSS card's bottom, both stone). Floor numbers are 0-based
as in the kernel; the player on seat 0 is in charge of the left side.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from balance.games.climbing_tower import enums as E
from balance.games.climbing_tower import layout as L
from climbing_table import Table

PLAY, REDRAW, OFFER = E.ACT_PLAY, E.ACT_REDRAW, E.ACT_OFFER
BOSS_FLOOR = 17
START_HAND = ("purple_1", "purple_2", "purple_3", "purple_4", "purple_5", "purple_6")


# --- set-up ---------------------------------------------------------------------------------------------------------

def test_random_tower_is_three_distinct_cards_under_the_boss_and_every_card_and_side_comes_up():
    bottoms, sides = Counter(), Counter()
    for game in range(300):
        t = Table(tower=None, boss_side=None, game=game)
        ev = t.events(E.EV_TOWER)
        cards = [e[3] for e in ev]
        assert len(ev) == 4 and cards[3] == -1 and len(set(cards[:3])) == 3 and all(0 <= c < 7 for c in cards[:3])
        bottoms[cards[0]] += 1
        sides[ev[0][4]] += 1
        assert all(e[4] == ev[0][4] for e in ev)
    assert set(bottoms) == set(range(7)) and set(sides) == {0, 1}
    assert min(sides.values()) > 100            # about 150 each: a fair coin


def test_first_game_tower_and_fixed_boss_side():
    t = Table(tower=("001", "003", "006"), boss_side="B")
    assert [e[3] for e in t.events(E.EV_TOWER)] == [0, 2, 5, -1]
    assert t.sc(L.SC_BOSS_SIDE) == 1
    assert t.sc(L.SC_TOWER_ID) == (0 * 30 + 1 * 5 + 3) * 2 + 1     # 001, then 003 (rank 1 of 6), 006 (rank 3 of 5)


def test_floors_of_one_colour_touching_across_cards_join_and_others_do_not():
    t = Table()
    lo = [int(t.s[L.FLOOR_LO + i]) for i in range(t.sc(L.SC_N_FLOORS))]
    hi = [int(t.s[L.FLOOR_HI + i]) for i in range(t.sc(L.SC_N_FLOORS))]
    assert t.sc(L.SC_N_SLOTS) == 20 and t.sc(L.SC_N_FLOORS) == 18
    joined = [(a, b) for a, b in zip(lo, hi) if a != b]
    assert joined == [(9, 10), (14, 15)]           # 003 top + 006 bottom (brick), 006 top + BOSS bottom (stone)
    t2 = Table(tower=("003", "001", "006"))         # 003 top brick, 001 bottom stone: no join there
    assert t2.sc(L.SC_N_FLOORS) == 19


def test_skeleton_tokens_go_on_the_bottom_card_only_and_pawns_start_on_its_lowest_floor():
    t = Table()
    assert t.tokens_on_tower() == 4 and t.sc(L.SC_SUPPLY_TOKENS) == 8        # 001 has four skeletons
    assert [t.standing(f, s) for f in range(1, 4) for s in (0, 1)] == [1, 0, 0, 1, 1, 1]
    assert t.floor(0) == 0 and t.floor(1) == 0
    assert t.s[L.POS_PLACED + 1] == 0 and t.s[L.POS_PLACED] == 1


@pytest.mark.parametrize("side, sides", [("left", (0, 1)), ("right", (1, 0))])
def test_each_player_is_in_charge_of_one_side(side, sides):
    t = Table(rules={"first_player_side": side})
    assert (t.pl(0, L.PL_SIDE), t.pl(1, L.PL_SIDE)) == sides


@pytest.mark.parametrize("supply", ["hard", "easy"])
def test_common_deck_is_level1_and_two_random_level2_and_the_rest_form_the_piles(supply):
    t = Table(rules={"supply": supply}, game=3)
    in_deck = [n for n in t.names if t.loc(n) == E.LOC_DECK]
    assert sorted(n for n in in_deck if n.startswith("purple")) == sorted(START_HAND)
    level2 = [n for n in in_deck if n.startswith(("red", "blue"))]
    assert len(in_deck) == 8 and len(level2) == 2 and t.sc(L.SC_DECK_N) == 8
    piles = [[t.names[int(t.s[L.PILES + k * L.MAX_CARDS + i])] for i in range(t.sc(L.SC_PILE_N + k))] for k in range(3)]
    assert sorted(piles[2]) == sorted(f"gold_{n}" for n in range(1, 7))
    if supply == "hard":
        assert len(piles[0]) == 10 and piles[1] == [] and {n.split("_")[0] for n in piles[0]} == {"red", "blue"}
    else:
        assert {n.split("_")[0] for n in piles[0]} <= {"red"} and {n.split("_")[0] for n in piles[1]} <= {"blue"}
        assert len(piles[0]) + len(piles[1]) == 10
    assert sorted(level2 + piles[0] + piles[1]) == sorted([f"red_{n}" for n in range(1, 7)] +
                                                          [f"blue_{n}" for n in range(1, 7)])


def test_one_tower_card_under_the_boss():
    t = Table(rules={"tower_cards": 1}, tower=("004",), boss_side="B")
    assert [e[3] for e in t.events(E.EV_TOWER)] == [3, -1]
    assert t.sc(L.SC_N_POS) == 2 and t.sc(L.SC_N_SLOTS) == 10


@pytest.mark.parametrize("hand_size, ok", [(4, True), (5, False)])
def test_hand_size_the_starting_deck_can_deal_twice(hand_size, ok):
    from balance.scenario import ScenarioError, load_scenario
    data = {"game": "climbing_tower", "players": 2, "rules": {"hand_size": hand_size}}
    if ok:
        assert load_scenario(data).rules.hand_size == hand_size
    else:
        with pytest.raises(ScenarioError, match="rules.hand_size.*at most 4"):
            load_scenario(data)


@pytest.mark.parametrize("n", [0, 12])
def test_starting_level2_edges(n):
    t = Table(rules={"starting_level2": n})
    assert t.sc(L.SC_DECK_N) == 6 + n and t.sc(L.SC_PILE_N) == 12 - n


# --- the play phase ----------------------------------------------------------------------------------------------

def test_deal_gives_the_start_player_its_hand_first_and_the_rest_is_the_draw_pile():
    t = Table()
    t.deck_only(*START_HAND, "red_1", "blue_1")
    t.deals("purple_1", "purple_2", "purple_3", "purple_4", "purple_5", "purple_6", "red_1", "blue_1")
    from balance.games.climbing_tower.rules.play import deal_nb
    deal_nb(t.s, 1)
    assert t.hand(1) == ["purple_1", "purple_2", "purple_3"] and t.hand(0) == ["purple_4", "purple_5", "purple_6"]
    assert t.sc(L.SC_PILE_TOP) == 6 and t.sc(L.SC_DECK_N) == 8


@pytest.mark.parametrize("hand_size", [1, 4])
def test_hand_size_edges(hand_size):
    t = Table(rules={"hand_size": hand_size})
    from balance.games.climbing_tower.rules.play import deal_nb
    deal_nb(t.s, 0)
    assert len(t.hand(0)) == hand_size and len(t.hand(1)) == hand_size
    assert t.sc(L.SC_PILE_TOP) == 2 * hand_size


@pytest.mark.parametrize("option, starts", [("alternate", [0, 1, 0, 1]), ("first", [0, 0, 0, 0])])
def test_start_player_of_each_round(option, starts):
    t = Table(rules={"start_player": option, "round_limit": 4}, seats=("climber", "climber"))
    t.play_on()
    assert [e[1] for e in t.events(E.EV_ROUND)] == starts


def test_first_card_may_be_anything_later_cards_match_colour_or_number():
    t = Table()
    t.deck_only(*START_HAND, "red_3", "blue_5")
    t.deals("red_3", "purple_1", "blue_5", "purple_5", "purple_6", "purple_2", "purple_4", "purple_3")
    from balance.games.climbing_tower.rules.play import deal_nb
    deal_nb(t.s, 0)
    assert [a for a, _ in t.legal(0)].count("play") == 3        # anything first
    t.s[L.SC + L.SC_TOP] = t.card("purple_3")                     # rulebook example: purple 3 on the table
    plays = [c for a, c in t.legal(0) if a == "play"]
    assert plays == ["red_3", "purple_1"]                         # red 3 by number, purple 1 by colour; not blue 5
    t.s[L.SC + L.SC_TOP] = t.card("red_3")                        # ... then purple 5 and purple 6 cannot follow red 3
    assert [c for a, c in t.legal(1) if a == "play"] == []


def test_free_play_skill_allows_one_card_that_matches_nothing_once_a_round():
    t = Table()
    t.gain("free_play")
    t.deck_only(*START_HAND, "red_3", "blue_5")
    t.deals("red_3", "blue_5", "purple_1", "purple_3", "purple_6", "purple_2", "purple_4", "purple_5")
    from balance.games.climbing_tower.rules.play import deal_nb
    deal_nb(t.s, 0)
    t.s[L.SC + L.SC_TOP] = t.card("purple_4")
    rows = t.legal(0)
    assert rows[:3] == [("free play", "red_3"), ("free play", "blue_5"), ("play", "purple_1")]
    from balance.games.climbing_tower.rules.play import apply_nb
    apply_nb(t.s, t.f, 0, E.ACT_FREE, t.card("red_3"))
    assert t.sc(L.SC_FREE_USED) == 1 and [a for a, _ in t.legal(0)].count("free play") == 0
    assert t.events(E.EV_PLAY)[-1][4] == 1


def test_redraw_once_a_round_not_from_an_empty_pile_and_twice_with_the_skill():
    t = Table()
    t.deck_only(*START_HAND, "red_3", "blue_5")
    t.deals(*START_HAND, "red_3", "blue_5")
    from balance.games.climbing_tower.rules.play import apply_nb, deal_nb
    deal_nb(t.s, 0)
    assert sum(a == "redraw" for a, _ in t.legal(0)) == 3
    apply_nb(t.s, t.f, 0, REDRAW, t.card("purple_1"))
    assert t.hand(0) == ["purple_2", "purple_3", "red_3"] and t.loc("purple_1") == E.LOC_DISCARD
    assert sum(a == "redraw" for a, _ in t.legal(0)) == 0                       # once a round
    t.gain("extra_redraw")
    assert sum(a == "redraw" for a, _ in t.legal(0)) == 3                       # the skill: a second one
    apply_nb(t.s, t.f, 0, REDRAW, t.card("purple_2"))
    assert t.sc(L.SC_PILE_TOP) == 8
    assert sum(a == "redraw" for a, _ in t.legal(1)) == 0                       # the pile is empty now
    assert t.s[L.SKCNT + E.SKILL_EXTRA_REDRAW * L.N_SK + L.SK_USED] == 1


def test_redraws_zero_forbids_redrawing():
    t = Table(rules={"redraws": 0})
    from balance.games.climbing_tower.rules.play import deal_nb
    deal_nb(t.s, 0)
    assert all(a != "redraw" for a, _ in t.legal(0))


def test_exchange_completes_when_both_players_have_a_card_down_once_each_a_round():
    t = Table()
    t.deck_only(*START_HAND)
    t.deals(*START_HAND)
    from balance.games.climbing_tower.rules.play import apply_nb, deal_nb
    deal_nb(t.s, 0)
    apply_nb(t.s, t.f, 0, OFFER, t.card("purple_2"))
    assert t.loc("purple_2") == E.LOC_DOWN and t.hand(0) == ["purple_1", "purple_3"]
    assert all(a != "offer" for a, _ in t.legal(0))                             # once a round for this player
    apply_nb(t.s, t.f, 1, OFFER, t.card("purple_6"))
    assert t.hand(0) == ["purple_1", "purple_3", "purple_6"] and t.hand(1) == ["purple_4", "purple_5", "purple_2"]
    assert t.events(E.EV_EXCHANGE) == [(E.EV_EXCHANGE, -1, t.card("purple_6"), t.card("purple_2"), 0)]
    assert t.pl(0, L.PL_DOWN) == -1 and t.pl(1, L.PL_DOWN) == -1
    assert all(a != "offer" for a, _ in t.legal(1))


def _at_floor_with_cards(t, p, floor, *cards):
    """Seat p on `floor`, holding `cards` (and the other seat holding nothing)."""
    t.set_floor(p, floor)
    t.s[L.PL + p * L.N_PL + L.PL_HAND_N] = 0
    for c in cards:
        from balance.games.climbing_tower.rules.play import to_hand_nb
        to_hand_nb(t.s, p, t.card(c))


def test_sword_defeats_a_skeleton_on_the_players_floor_and_own_side_only():
    t = Table()
    from balance.games.climbing_tower.rules.play import play_card_nb
    _at_floor_with_cards(t, 0, 1, "purple_1")       # floor 1 (001's brick): one skeleton, left
    play_card_nb(t.s, t.f, 0, t.card("purple_1"), 0)
    assert t.standing(1, 0) == 0 and t.final(0, "skeletons") == 1
    _at_floor_with_cards(t, 1, 1, "purple_3")       # the right-side player on floor 1: nothing on its side
    play_card_nb(t.s, t.f, 1, t.card("purple_3"), 0)
    assert t.final(1, "skeletons") == 0 and t.final(1, "swords") == 1
    _at_floor_with_cards(t, 0, 2, "purple_5")       # floor 2 has a right skeleton only: the left player cannot
    play_card_nb(t.s, t.f, 0, t.card("purple_5"), 0)
    assert t.standing(2, 1) == 1 and t.final(0, "skeletons") == 1


def test_arrows_climb_exactly_and_stop_on_the_boss_floor():
    t = Table()
    from balance.games.climbing_tower.rules.play import play_card_nb
    _at_floor_with_cards(t, 0, 1, "blue_6")         # three arrows, skeletons on floor 1 do not hold it back
    play_card_nb(t.s, t.f, 0, t.card("blue_6"), 0)
    assert t.floor(0) == 4 and t.standing(1, 0) == 1
    _at_floor_with_cards(t, 0, BOSS_FLOOR - 1, "blue_6")
    play_card_nb(t.s, t.f, 0, t.card("blue_6"), 0)
    assert t.floor(0) == BOSS_FLOOR and t.final(0, "climbed") == 4


@pytest.mark.parametrize("order, skeletons", [("swords_first", 1), ("arrows_first", 0)])
def test_icon_order(order, skeletons):
    t = Table(rules={"icon_order": order})
    from balance.games.climbing_tower.rules.play import play_card_nb
    # red_2 (a sword and an arrow) from floor 1, which has a left skeleton; floor 2 has only a right one
    _at_floor_with_cards(t, 0, 1, "red_2")
    play_card_nb(t.s, t.f, 0, t.card("red_2"), 0)
    assert t.floor(0) == 2 and t.final(0, "skeletons") == skeletons and t.standing(1, 0) == 1 - skeletons


def test_a_group_that_does_not_all_fall_in_one_round_stands_again_and_pays_nothing():
    t = Table(tower=("003", "001", "006"))          # 003: floor 3 (moss) holds two skeletons on the right
    from balance.games.climbing_tower.rules.play import play_card_nb
    assert t.standing(3, 1) == 2
    _at_floor_with_cards(t, 1, 3, "purple_1")
    play_card_nb(t.s, t.f, 1, t.card("purple_1"), 0)
    assert t.standing(3, 1) == 1
    t.end_play()
    assert t.standing(3, 1) == 2 and t.sc(L.SC_GOLD) == 0
    assert t.events(E.EV_GOLD)[-1][2:] == (3, 1, 0)
    _at_floor_with_cards(t, 1, 3, "red_1")          # two swords: both fall in one round, 2 gold
    play_card_nb(t.s, t.f, 1, t.card("red_1"), 0)
    t.end_play()
    assert t.standing(3, 1) == 0 and t.sc(L.SC_GOLD) == 2


def test_one_skeleton_left_and_one_right_count_separately():
    t = Table()                                     # 001 floor 3: one left, one right
    from balance.games.climbing_tower.rules.play import play_card_nb
    _at_floor_with_cards(t, 0, 3, "purple_1")
    play_card_nb(t.s, t.f, 0, t.card("purple_1"), 0)
    t.end_play()
    assert t.sc(L.SC_GOLD) == 1 and t.standing(3, 0) == 0 and t.standing(3, 1) == 1


def _play(t, p, name):
    from balance.games.climbing_tower.rules.play import play_card_nb
    return play_card_nb(t.s, t.f, p, t.card(name), 0)


@pytest.mark.parametrize("answer", [0, 1])         # enums.SWORD_DEFEAT, enums.SWORD_SPARE
def test_a_sword_can_defeat_a_skeleton_the_player_decides_whether_it_does(answer):
    """「倒すことができます」: the sword's skeleton falls only when the player's strategy says so."""
    t = Table(rules={"hand_size": 1})
    t.set_floor(0, 1)                               # floor 1 (001's brick): one skeleton, left
    t.deck_only(*START_HAND)
    t.deals(*START_HAND)
    t.choices(0, answer, 0)                         # 0 plays purple_1 (a sword), answers the sword; 1 plays purple_2
    t.play_phase(0)
    assert t.standing(1, 0) == answer and t.final(0, "skeletons") == 1 - answer and t.final(0, "swords") == 1
    assert int(t.s[L.M_CHOICE_I]) == 3              # the sword asked the strategy; seat 1's arrow asked nothing
    assert t.events(E.EV_SPARE) == ([(E.EV_SPARE, 0, 1, 0, 1)] if answer else [])


def test_a_sword_with_nothing_to_defeat_asks_nothing_and_a_spared_skeleton_waits_for_a_later_sword():
    t = Table()
    t.set_floor(0, 1)
    t.put_in_deck("red_1")
    t.choices(1, 1)                                 # red_1: two swords, both spare the one skeleton
    _play(t, 0, "red_1")
    assert t.standing(1, 0) == 1 and len(t.events(E.EV_SPARE)) == 2 and t.final(0, "swords") == 2
    t.end_play()
    assert t.events(E.EV_GOLD) == [] and t.sc(L.SC_GOLD) == 0
    t.choices(0)                                    # a later round: the next sword defeats it, and it pays
    _play(t, 0, "red_1")
    assert int(t.s[L.M_CHOICE_I]) == 1              # the second sword had nothing left: no question
    t.end_play()
    assert t.standing(1, 0) == 0 and t.sc(L.SC_GOLD) == 1


def test_the_boss_takes_every_hit_no_choice():
    t = Table(boss_side="A")
    t.set_floor(0, BOSS_FLOOR)
    t.choices(1, 1, 1)                              # a spare answer would be ignored: a hit never hurts the team
    _play(t, 0, "red_6")
    assert t.sc(L.SC_BOSS_DMG) == 3 and int(t.s[L.M_CHOICE_I]) == 0


def test_a_group_with_a_skeleton_that_got_no_token_cannot_all_fall():
    """Three tokens for 003 (placed slot by slot, left before right): its right-hand group of two on floor 8 gets
    one. The skeletons drawn there are two, so the one token falling does not pay; it stands again."""
    t = Table()
    t.s[L.SC + L.SC_SUPPLY_TOKENS] = 3
    t.set_floor(1, 8)
    t.next_round()
    assert t.standing(8, 1) == 1 and t.sc(L.SC_SUPPLY_TOKENS) == 0
    _play(t, 1, "purple_1")
    assert t.standing(8, 1) == 0
    t.end_play()
    assert t.standing(8, 1) == 1 and t.sc(L.SC_GOLD) == 0 and t.events(E.EV_GOLD)[-1][2:] == (8, 1, 0)
    assert t.events(E.EV_PLACE)[-1] == (E.EV_PLACE, -1, 1, 3, 1)          # three tokens, one skeleton without


def test_a_group_on_a_joined_floor_waits_for_the_upper_cards_tokens():
    """007's top floor and 005's bottom floor are both moss: one floor, with a skeleton on the right of each card
    (a group of two). A pawn arriving there this round finds 005's skeleton still without its token (tokens go on
    in the next-round phase), so 007's falling alone pays nothing."""
    t = Table(tower=("007", "005", "002"))
    assert int(t.s[L.FLOOR_LO + 4]) == 4 and int(t.s[L.FLOOR_HI + 4]) == 5 and t.standing(4, 1) == 1
    t.set_floor(1, 4)
    _play(t, 1, "purple_1")
    t.end_play()
    assert t.standing(4, 1) == 1 and t.sc(L.SC_GOLD) == 0
    t.next_round()                                  # 005's tokens go on; both fall in one round: 2 gold
    assert t.standing(4, 1) == 2
    t.put_in_deck("red_1")
    _play(t, 1, "red_1")
    t.end_play()
    assert t.standing(4, 1) == 0 and t.sc(L.SC_GOLD) == 2

def test_a_player_holding_cards_who_cannot_act_ends_the_round():
    t2 = Table(rules={"redraws": 0})
    t2.deck_only("purple_1", "purple_2", "red_3", "blue_5", "red_4", "blue_6")
    t2.deals("purple_1", "red_4", "blue_6", "red_3", "blue_5", "purple_2")
    # 0 plays purple_1; 1 cannot follow with red_3/blue_5 but offers (row 2), 0 offers red_4 ... then 1 holds
    # blue_5 purple_2 red_4: plays purple_2 on purple_1; 0 holds blue_6 red_3: red_3? no (top purple_2): blocked
    t2.choices(0, 2, 0, 0)
    t2.play_phase(0)
    assert t2.events(E.EV_BLOCKED)[-1][1] == 0 and t2.sc(L.SC_BLOCKED) == 0
    assert t2.final(0, "blocked") == 1 and t2.team("blocked_rounds") == 1


def test_empty_hand_player_passes_while_the_partner_plays_on():
    t = Table(rules={"hand_size": 2, "redraws": 1})
    t.deck_only("purple_1", "purple_2", "purple_3", "purple_4", "purple_5", "purple_6")
    t.deals("purple_1", "purple_2", "purple_3", "purple_4", "purple_5", "purple_6")
    # 0 plays purple_1; 1 redraws purple_3 (row 2: after its two plays) and draws purple_5; 0 plays purple_2 and is
    # out of cards; 1 plays purple_4; 0 passes (no choice asked); 1 plays purple_5
    t.choices(0, 2, 0, 0, 0)
    t.play_phase(0)
    ev = [(E.EV_NAMES[e[0]], e[1]) for e in t.events() if e[0] in (E.EV_PLAY, E.EV_PASS, E.EV_REDRAW)]
    assert ev == [("play", 0), ("redraw", 1), ("play", 0), ("play", 1), ("pass", 0), ("play", 1)]
    assert t.final(0, "passes") == 1 and t.final(1, "passes") == 0
    assert int(t.s[L.M_CHOICE_I]) == 5                      # the pass asked the strategy nothing


def test_empty_hand_bonus_when_both_hands_are_played_out_not_when_blocked():
    t = Table(rules={"hand_size": 1})
    t.deck_only(*START_HAND)
    t.deals("purple_1", "purple_2", "purple_3", "purple_4", "purple_5", "purple_6")
    t.choices(0, 0)
    t.play_phase(0)
    t.end_play()
    assert t.sc(L.SC_GOLD) == 1 and t.events(E.EV_BONUS) == [(E.EV_BONUS, -1, 1, 0, 0)]
    t2 = Table(rules={"hand_size": 2, "redraws": 0, "empty_hand_bonus": 3})
    t2.deck_only("purple_1", "purple_2", "red_3", "blue_5", "purple_3", "purple_4")
    t2.deals("purple_1", "purple_2", "red_3", "blue_5")
    # 0 plays purple_1; 1 cannot follow, offers red_3; 0 plays purple_2; 1 holds blue_5 and can do nothing
    t2.choices(0, 0, 0)
    t2.play_phase(0)
    t2.end_play()
    assert t2.sc(L.SC_BLOCKED) == 1 and t2.events(E.EV_BONUS) == []
    assert t2.events(E.EV_BLOCKED) == [(E.EV_BLOCKED, 1, 1, 0, 0)]


@pytest.mark.parametrize("bonus", [0, 5])
def test_empty_hand_bonus_edges(bonus):
    t = Table(rules={"hand_size": 1, "empty_hand_bonus": bonus})
    t.deck_only(*START_HAND)
    t.deals(*START_HAND)
    t.choices(0, 0)
    t.play_phase(0)
    t.end_play()
    assert t.sc(L.SC_GOLD) == bonus and t.sc(L.SC_SUPPLY_TOKENS) == 8 - bonus


def test_empty_hand_bonus_is_lost_when_the_token_supply_is_empty():
    t = Table(rules={"hand_size": 1})
    t.s[L.SC + L.SC_SUPPLY_TOKENS] = 0
    t.deck_only(*START_HAND)
    t.deals(*START_HAND)
    t.choices(0, 0)
    t.play_phase(0)
    t.end_play()
    assert t.sc(L.SC_GOLD) == 0 and t.events(E.EV_BONUS) == [(E.EV_BONUS, -1, 0, 0, 0)]


# --- the BOSS -------------------------------------------------------------------------------------------------

def test_boss_side_a_falls_to_four_hits_in_one_round_and_heals_between_rounds():
    t = Table(boss_side="A")
    from balance.games.climbing_tower.rules.play import play_card_nb
    _at_floor_with_cards(t, 0, BOSS_FLOOR, "red_6")
    assert play_card_nb(t.s, t.f, 0, t.card("red_6"), 0) == 0 and t.sc(L.SC_BOSS_DMG) == 3
    t.next_round()
    assert t.sc(L.SC_BOSS_DMG) == 0
    _at_floor_with_cards(t, 1, BOSS_FLOOR, "red_6", "red_1")        # either side: the BOSS stands in the middle
    assert play_card_nb(t.s, t.f, 1, t.card("red_6"), 0) == 0
    assert play_card_nb(t.s, t.f, 1, t.card("red_1"), 0) == 1
    assert t.final(1, "boss_hits") == 4


def test_boss_side_b_keeps_its_wounds_but_counts_hits_only_with_both_pawns_before_it():
    t = Table(boss_side="B")            # B's bottom floor (moss) does not join 006's top (stone): 19 floors
    BOSS_FLOOR = t.sc(L.SC_N_FLOORS) - 1
    assert BOSS_FLOOR == 18
    from balance.games.climbing_tower.rules.play import play_card_nb
    _at_floor_with_cards(t, 0, BOSS_FLOOR, "red_6")
    play_card_nb(t.s, t.f, 0, t.card("red_6"), 0)
    assert t.sc(L.SC_BOSS_DMG) == 0                                   # partner not there: no hit counts
    t.set_floor(1, BOSS_FLOOR)
    _at_floor_with_cards(t, 0, BOSS_FLOOR, "red_6")
    play_card_nb(t.s, t.f, 0, t.card("red_6"), 0)
    t.next_round()
    assert t.sc(L.SC_BOSS_DMG) == 3                                   # kept across rounds
    _at_floor_with_cards(t, 0, BOSS_FLOOR, "red_6")
    assert play_card_nb(t.s, t.f, 0, t.card("red_6"), 0) == 1


def test_defeating_the_boss_wins_at_once_within_the_round_limit():
    t = Table(rules={"round_limit": 3}, boss_side="A")
    t.set_floor(0, BOSS_FLOOR)
    t.deck_only("red_6", "red_5", "purple_1", "purple_2", "purple_3", "purple_4")
    t.deals("red_6", "red_5", "purple_1", "purple_2", "purple_3", "purple_4")
    t.choices(0, 0, 0)                    # 0 plays red_6 (3 hits), 1 plays purple_2, 0 plays red_5: falls
    t.play_on()
    assert t.sc(L.SC_VICTORY) == E.WIN_BOSS and t.sc(L.SC_WINNER) == 0 and t.sc(L.SC_ROUND) == 1
    assert t.events()[-1][0] == E.EV_END


@pytest.mark.parametrize("limit", [1, 2])
def test_the_round_limit_ends_the_game_lost(limit):
    t = Table(rules={"round_limit": limit}, seats=("climber", "climber"))
    t.play_on()
    assert t.sc(L.SC_ROUND) == limit and t.sc(L.SC_WINNER) == -1
    assert t.sc(L.SC_VICTORY) == E.LOST_BELOW
    assert len(t.events(E.EV_ROUND)) == limit
    if limit == 1:                                  # no build and no next round after the last play phase
        assert t.events(E.EV_BUY) == [] and t.events(E.EV_PLACE) == [(E.EV_PLACE, -1, 0, 4, 0)]


def test_lost_at_the_boss_when_a_pawn_stands_before_it():
    t = Table(rules={"round_limit": 1}, seats=("climber", "climber"))
    t.set_floor(1, BOSS_FLOOR)
    t.play_on()
    assert t.sc(L.SC_VICTORY) == E.LOST_AT_BOSS


# --- build phase -----------------------------------------------------------------------------------------------

def _pile(t, k):
    return [t.names[int(t.s[L.PILES + k * L.MAX_CARDS + i])]
            for i in range(t.sc(L.SC_PILE_I + k), t.sc(L.SC_PILE_N + k))]


def test_build_r_buys_the_level2_pile_top_y_the_level3_and_u_removes_a_chosen_card():
    t = Table(seats=("scripted", "scripted"))
    t.s[L.SC + L.SC_GOLD] = 4
    t.s[L.SC + L.SC_SUPPLY_TOKENS] -= 4
    top2, top3 = _pile(t, 0)[0], _pile(t, 2)[0]
    # rows: 0 stop, 1 R (pile 0), 2 Y, then U per deck card in id order: R; Y; then (1 gold: no Y) U of purple_1
    t.choices(1, 2, 2)
    t.build(0)
    assert t.loc(top2) == E.LOC_DECK and t.loc(top3) == E.LOC_DECK and t.loc("purple_1") == E.LOC_OUT
    assert t.sc(L.SC_GOLD) == 0 and t.sc(L.SC_DECK_N) == 8 + 2 - 1
    assert t.team("bought") == 2 and t.team("removed") == 1
    assert [E.EV_NAMES[e[0]] for e in t.events() if e[0] in (E.EV_BUY, E.EV_REMOVE)] == ["buy", "buy", "remove"]


def test_y_needs_two_gold_and_u_respects_the_minimum_deck():
    t = Table(rules={"min_deck": 8})
    t.s[L.SC + L.SC_GOLD] = 1
    from balance.games.climbing_tower.rules.build import build_options_nb, build_row_nb
    n = build_options_nb(t.s)
    rows = [tuple(int(x) for x in build_row_nb(t.s, i)) for i in range(n)]
    assert rows == [(E.BUILD_STOP, -1), (E.BUILD_R, 0)]             # no Y at 1 gold; deck at 8 = min_deck: no U
    t2 = Table(rules={"min_deck": 0})
    t2.s[L.SC + L.SC_GOLD] = 2
    n2 = build_options_nb(t2.s)
    rows2 = [tuple(int(x) for x in build_row_nb(t2.s, i)) for i in range(n2)]
    assert sum(a == E.BUILD_U for a, _ in rows2) == 8
    assert any(a == E.BUILD_Y for a, _ in rows2)
    deck = [int(c) for c in t2.s[L.OWNED:L.OWNED + int(t2.s[L.SC + L.SC_DECK_N])]]
    assert [c for a, c in rows2 if a == E.BUILD_U] == deck                # the deck's cards, ascending ids


def test_easy_supply_lets_the_buyer_pick_the_red_or_the_blue_pile():
    t = Table(rules={"supply": "easy"})
    t.s[L.SC + L.SC_GOLD] = 1
    blue_top = _pile(t, 1)[0]
    t.choices(2)                                            # rows: stop, R red, R blue
    t.build(0)
    assert blue_top.startswith("blue") and t.loc(blue_top) == E.LOC_DECK


def test_unspent_gold_is_lost_at_the_end_of_the_build_phase():
    t = Table()
    t.s[L.SC + L.SC_GOLD] = 3
    t.s[L.SC + L.SC_SUPPLY_TOKENS] -= 3
    t.choices(0)                                            # stop at once
    t.build(0)
    t.next_round()
    assert t.sc(L.SC_GOLD) == 0 and t.sc(L.SC_SUPPLY_TOKENS) + t.tokens_on_tower() == 12


def test_bonus_gold_skill_adds_gold_each_build_phase():
    t = Table(rules={"skill_gold": 2})
    t.gain("bonus_gold")
    t.choices(0)
    t.build(0)
    assert t.events(E.EV_BONUS) == [(E.EV_BONUS, -1, 2, 1, 0)]


# --- next round: skills, skeletons of new cards, cards left behind ---------------------------------------------------

def _clear_card0(t):
    for slot in range(5):
        for side in (0, 1):
            t.set_standing(slot, side, 0)


def test_skill_gained_when_a_card_is_cleared_and_both_pawns_moved_on_once_only():
    t = Table()
    _clear_card0(t)
    t.set_floor(0, 6)
    t.next_round()
    assert t.sc(L.SC_SKILLS) == 0                       # one pawn still on 001: nothing yet
    t.set_floor(1, 5)
    t.next_round()
    assert t.sc(L.SC_SKILLS) == 1 << E.SKILL_EXTRA_REDRAW and t.s[L.POS_FLIPPED] == 1
    assert t.events(E.EV_SKILL)[-1][2:4] == (0, E.SKILL_EXTRA_REDRAW)
    t.s[L.POS_FLIPPED] = 0                              # the same skill again: nothing more
    t.next_round()
    assert t.events(E.EV_SKILL)[-1][2:4] == (0, -1)


def test_a_card_left_behind_with_skeletons_gives_no_skill_and_returns_its_tokens():
    t = Table()
    t.set_floor(0, 6)
    t.set_floor(1, 6)
    t.next_round()
    assert t.sc(L.SC_SKILLS) == 0 and t.s[L.POS_FLIPPED] == 2
    assert t.events(E.EV_RETURN)[-1][2:4] == (0, 4)
    _clear_card0(t)
    t.next_round()
    assert t.sc(L.SC_SKILLS) == 0                       # flipped 2 stays: never a skill


def test_left_behind_stay_keeps_the_tokens_on_the_card():
    t = Table(rules={"left_behind": "stay"})
    t.set_floor(0, 6)
    t.set_floor(1, 6)
    t.next_round()
    assert t.tokens_on_tower() >= 4 and t.events(E.EV_RETURN) == []


def test_skeletons_appear_on_a_card_when_a_pawn_first_stands_on_it():
    t = Table()
    t.set_floor(0, 5)                                    # 003's first floor
    assert t.s[L.POS_PLACED + 1] == 0
    t.next_round()
    assert t.s[L.POS_PLACED + 1] == 1 and t.events(E.EV_PLACE)[-1][2:4] == (1, 4)
    assert t.tokens_on_tower() == 8


def test_a_joined_floor_stands_on_both_cards():
    t = Table()
    t.set_floor(0, 9)                                    # 003's top + 006's bottom (brick)
    t.next_round()
    assert t.s[L.POS_PLACED + 1] == 1 and t.s[L.POS_PLACED + 2] == 1


def test_skills_are_usable_from_the_next_round():
    t = Table()
    t.deck_only(*START_HAND, "red_3", "blue_5")
    t.deals(*START_HAND, "red_3", "blue_5")
    from balance.games.climbing_tower.rules.play import deal_nb
    deal_nb(t.s, 0)
    t.s[L.PL + L.PL_REDRAWS] = 1
    assert all(a != "redraw" for a, _ in t.legal(0))
    _clear_card0(t)
    t.set_floor(0, 5)
    t.set_floor(1, 5)
    t.next_round()
    assert any(a == "redraw" for a, _ in t.legal(0))


# --- a short token supply: every skeleton drawn on a card counts ----------------------------------------------------

def _short_003(t, supply):
    """003 (the middle card) placed with `supply` tokens: 001 cleared (it flips: extra_redraw), both pawns step onto
    003's first floor."""
    _clear_card0(t)
    t.s[L.SC + L.SC_SUPPLY_TOKENS] = supply
    t.set_floor(0, 5)
    t.set_floor(1, 5)
    t.next_round()


def test_a_card_placed_short_gives_no_skill_when_its_tokens_have_fallen():
    """The rulebook: the skill comes from defeating every skeleton drawn on the card. 003 shows four; it gets one
    token (the supply holds one); that one falls and both pawns move on: no skill, the card is not flipped."""
    t = Table()
    _short_003(t, 1)
    assert t.sc(L.SC_SKILLS) == 1 << E.SKILL_EXTRA_REDRAW                  # 001 (cleared) flipped
    assert sum(t.standing(f, s) for f in range(5, 10) for s in (0, 1)) == 1
    for slot in range(5, 10):
        for side in (0, 1):
            t.set_standing(slot, side, 0)                                   # its token fell (and was spent)
    t.set_floor(0, 9)                                                       # 003 top + 006 bottom: moved on
    t.set_floor(1, 9)
    t.next_round()
    assert t.sc(L.SC_SKILLS) == 1 << E.SKILL_EXTRA_REDRAW and t.s[L.POS_FLIPPED + 1] == 0
    assert [e for e in t.events(E.EV_SKILL) if e[2] == 1] == []
    t.set_floor(0, 14)                                                      # both pawns leave 003 altogether
    t.set_floor(1, 14)
    t.next_round()
    assert t.s[L.POS_FLIPPED + 1] == 2 and t.sc(L.SC_SKILLS) == 1 << E.SKILL_EXTRA_REDRAW
    assert [e for e in t.events(E.EV_RETURN) if e[2] == 1] == [(E.EV_RETURN, -1, 1, 0, 0)]   # left behind, no token
    assert [e for e in t.events(E.EV_PLACE) if e[2] == 1] == [(E.EV_PLACE, -1, 1, 1, 3)]    # 1 token, 3 without


@pytest.mark.parametrize("top_up, tokens", [("next_round", 3), ("never", 0)])
def test_a_card_placed_short_is_topped_up_in_the_next_round_phase_by_option(top_up, tokens):
    """Tokens back in the supply (here the round's unspent gold) go onto the skeletons that lack one, in the
    next-round phase, before the tokens of a newly reached card; with top_up = "never" the card stays short."""
    t = Table(rules={"top_up": top_up})
    _short_003(t, 1)
    t.s[L.SC + L.SC_GOLD] = 5                                              # gold held, lost at the round's end
    t.next_round()
    tops = [e for e in t.events(E.EV_PLACE) if e[2] == 1][1:]
    assert tops == ([(E.EV_PLACE, -1, 1, 3, 0)] if tokens else [])
    assert sum(t.standing(f, s) for f in range(5, 10) for s in (0, 1)) == 1 + tokens
    assert t.sc(L.SC_SUPPLY_TOKENS) == 5 - tokens
    if top_up == "next_round":                                             # now every skeleton can fall: the skill
        for slot in range(5, 10):
            for side in (0, 1):
                t.set_standing(slot, side, 0)
        t.set_floor(0, 10)
        t.set_floor(1, 10)
        t.next_round()
        assert t.sc(L.SC_SKILLS) == (1 << E.SKILL_EXTRA_REDRAW) | (1 << E.SKILL_BONUS_GOLD)


def test_short_cards_are_topped_up_before_a_newly_reached_card_gets_its_tokens():
    t = Table()
    _short_003(t, 1)
    t.s[L.SC + L.SC_SUPPLY_TOKENS] = 4
    t.set_floor(0, 10)                                                     # 006 reached: four skeletons
    t.next_round()
    assert t.events(E.EV_PLACE)[-2:] == [(E.EV_PLACE, -1, 1, 3, 0), (E.EV_PLACE, -1, 2, 1, 3)]


def test_a_left_behind_card_is_never_topped_up():
    t = Table(rules={"left_behind": "stay"})
    _short_003(t, 1)
    t.set_floor(0, 14)
    t.set_floor(1, 14)
    t.next_round()                                                         # 003 left behind; 006 placed
    t.s[L.SC + L.SC_SUPPLY_TOKENS] = 12 - t.tokens_on_tower()
    t.next_round()
    assert [e for e in t.events(E.EV_PLACE) if e[2] == 1] == [(E.EV_PLACE, -1, 1, 1, 3)]


# --- conservation over whole scripted-strategy games ------------------------------------------------------------

@pytest.mark.parametrize("seats", [("climber", "skeleton_farmer"), ("random", "deck_thinner")])
def test_tokens_and_cards_are_conserved_through_whole_games(seats):
    for game in range(30):
        t = Table(tower=None, boss_side=None, seats=seats, game=game)
        t.play_on()
        pending = int(t.s[L.HIT:L.HIT + 2 * L.MAX_SLOTS].sum())     # fell in the round the BOSS fell
        assert t.tokens_on_tower() + pending + t.sc(L.SC_SUPPLY_TOKENS) + t.sc(L.SC_GOLD) == 12
        assert pending == 0 or t.sc(L.SC_VICTORY) == E.WIN_BOSS
        locs = [int(t.s[L.LOC + c]) for c in range(len(t.names))]
        assert sum(x == E.LOC_DECK for x in locs) == t.sc(L.SC_DECK_N)
        assert all(x in (E.LOC_OUT, E.LOC_DECK, E.LOC_PILE2, E.LOC_PILE2B, E.LOC_PILE3) for x in locs)
        assert 0 <= t.floor(0) <= t.sc(L.SC_N_FLOORS) - 1


def test_the_tower_label_names_the_tower_the_kernel_built():
    from balance.games.climbing_tower.compile import tower_labels
    for game in range(20):
        t = Table(tower=None, boss_side=None, game=game)
        ev = t.events(E.EV_TOWER)
        names = ["001", "002", "003", "004", "005", "006", "007"]
        label = f"{'-'.join(names[e[3]] for e in ev[:3])} / {'AB'[ev[0][4]]}"
        assert tower_labels(t.scenario.components, t.scenario.rules)[t.sc(L.SC_TOWER_ID)] == label
    assert len(tower_labels(t.scenario.components, t.scenario.rules)) == 420
    assert np.unique([0]).size == 1
