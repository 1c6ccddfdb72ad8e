"""The Haunted Tower rules, one test (at least) per rule of docs/rules/haunted_tower.md section 2 and per rule option
of section 3: set-up, rounds, a hero's turn (experience, potions, movement, climbing, encounters, items), trading.
Combat, dying, the Specter and the score are in ``test_rules_combat.py``.

Every seat plays the test-only "scripted" strategy; dice and decisions are scripted and the table laid out by hand
(``haunted_table.Table``: chits by content on squares named by the map's (level, row, col), see ``balance
show-map``). Each test asserts exact events and state, on both sides of every threshold.

Heroes by seat unless a test says otherwise: 0 fighter (speed 3, 8 hp, attack 3, AC 7, +1 damage), 1 dwarf (speed 2,
9 hp, attack 3, AC 7, one extra weapon slot), 2 elf (speed 3, 6 hp, attack 2, AC 6, magic).
"""
from __future__ import annotations

import numpy as np
import pytest

from balance.games.haunted_tower import enums as E
from balance.games.haunted_tower import rules as K
from balance.games.haunted_tower import layout as L
from balance.games.haunted_tower import strategies as S
from balance.games.haunted_tower.components import hero_list, purple_chits
from haunted_table import Table, kinds, only

OWN_WEAPON = 1             # combat option 1: attack with the hero's own weapon


def placed(ev):
    """(seat, chit, square) of every place event."""
    return [(e[1], e[2], e[3]) for e in only(ev, E.EV_PLACE)]


def illegal(ev):
    return only(ev, E.EV_ILLEGAL)


# =====================================================================================================================
# Set-up (Setting Up the Board)
# =====================================================================================================================

def test_heroes_start_on_the_outside_squares_in_seat_order_at_full_hit_points():
    t = Table(players=6, deal=True, heroes=["thief", "cleric", "magic_user", "elf", "dwarf", "fighter"])
    hp = {"thief": 6, "cleric": 7, "magic_user": 5, "elf": 6, "dwarf": 9, "fighter": 8}
    for p, name in enumerate(["thief", "cleric", "magic_user", "elf", "dwarf", "fighter"]):
        assert t.hs(p, L.HS_HERO) == t.hero(name)
        assert t.hs(p, L.HS_SQ) == int(t.board.outside[p]) and t.at_sq(int(t.board.outside[p])) == (-1, p)
        assert t.hs(p, L.HS_HP) == t.hs(p, L.HS_MAXHP) == hp[name]
        assert [t.hs(p, k) for k in (L.HS_DRAINS, L.HS_DEATHS, L.HS_OUT, L.HS_N_ITEMS)] == [0, 0, 0, 0]
    assert t.sc(L.SC_IN) == 6


@pytest.mark.parametrize("game, rotation, heroes, slots", [
    (0, True, [0, 1, 2], [0, 1, 2]), (2, True, [0, 1, 2], [2, 0, 1]), (3, True, [1, 2, 3], [0, 1, 2]),
    (7, True, [2, 3, 4], [1, 2, 0]), (17, True, [5, 0, 1], [2, 0, 1]), (7, False, [0, 1, 2], [1, 2, 0]),
])
def test_seat_s_plays_hero_s_plus_game_over_players_and_strategies_rotate_with_the_game(game, rotation, heroes, slots):
    t = Table()
    kinds_ = np.array([S.RANDOM, S.SCRIPTED, S.RANDOM], np.int64)
    params = np.zeros((3, L.N_PARAMS))
    got_slots, roles = np.zeros(3, np.int64), np.zeros(3, np.int64)
    K.seat_lineup_nb(t.s, t.f, kinds_, params, np.arange(6, dtype=np.int64), True, rotation, game, got_slots, roles)
    assert list(roles) == heroes and [int(x) for x in t.s[L.SEAT_HERO:L.SEAT_HERO + 3]] == heroes
    assert list(got_slots) == slots and [int(x) for x in t.s[L.KINDS:L.KINDS + 3]] == [int(kinds_[k]) for k in slots]


@pytest.mark.parametrize("players, each", [(3, 17), (4, 13), (5, 10), (6, 8)])
def test_each_player_draws_17_13_10_8_blue_chits_from_the_shuffled_pool_and_the_rest_are_set_aside(players, each):
    t = Table(players=players, deal=True)
    ev = t.new_events()
    n_blue = t.opt(L.OPT_N_BLUE)
    cup = [int(c) for c in t.s[L.CUP:L.CUP + n_blue]]
    assert sorted(cup) == list(range(n_blue))                       # the whole blue pool, shuffled
    assert cup != list(range(n_blue))
    assert ev == [(E.EV_DEAL, p, cup[p * each + k], 0, 0) for p in range(players) for k in range(each)]
    for p in range(players):
        assert t.hand(p) == cup[p * each:(p + 1) * each]             # seat 0 the first N, seat 1 the next N ...
        assert all(t.loc(c) == E.LOC_HAND and t.owner(c) == p for c in t.hand(p))
        assert all(t.s[L.CHIT_PLACER + c] == p for c in t.hand(p))  # each player knows its own chits
    assert [c for c in range(n_blue) if t.loc(c) == E.LOC_ASIDE] == sorted(cup[players * each:])
    assert len(cup[players * each:]) == n_blue - players * each     # 1, 0, 2, 4 left over
    purple = range(n_blue, t.opt(L.OPT_N_CHITS))
    assert all(t.loc(c) == E.LOC_CUP for c in purple)               # purple chits are not dealt


def test_blue_per_player_draws_the_set_number_of_chits():
    t = Table(players=4, deal=True, rules={"blue_per_player": [5, 4, 3, 2]})
    assert [len(t.hand(p)) for p in range(4)] == [4, 4, 4, 4]
    assert len(only(t.new_events(), E.EV_DEAL)) == 16
    assert sum(t.loc(c) == E.LOC_ASIDE for c in range(t.opt(L.OPT_N_BLUE))) == 52 - 16


def test_the_blue_pool_is_shuffled_anew_for_every_game():
    firsts = {Table(players=3, deal=True, seed=seed).hand(0)[0] for seed in range(40)}
    assert len(firsts) > 15


def few_blue(players=3, n=1, **kw):
    """A dealt table where each player drew n blue chits."""
    return Table(players=players, deal=True, rules={"blue_per_player": [n] * 4, **kw.pop("rules", {})}, **kw)


def test_the_rolloff_highest_starts_ties_roll_again_in_seat_order_and_blue_chits_go_clockwise_from_the_winner():
    t = few_blue(players=4, n=2)
    t.new_events()
    hands = [t.hand(p) for p in range(4)]
    ok, ev = t.place_chits(dice=[5, 8, 2, 8, 9, 4], strict=False)
    assert ok
    assert only(ev, E.EV_ROLLOFF) == [(E.EV_ROLLOFF, 0, 5, 0, 0), (E.EV_ROLLOFF, 1, 8, 0, 0),
                                      (E.EV_ROLLOFF, 2, 2, 0, 0), (E.EV_ROLLOFF, 3, 8, 0, 0),
                                      (E.EV_ROLLOFF, 1, 9, 0, 0), (E.EV_ROLLOFF, 3, 4, 0, 0)]
    assert t.sc(L.SC_FIRST) == 1
    blue = placed(ev)[:8]
    assert [seat for seat, _, _ in blue] == [1, 2, 3, 0, 1, 2, 3, 0]
    # each seat placed from its own hand, the first drawn first (the scripted default: hand index 0)
    assert [c for _, c, _ in blue] == [hands[p][k] for k in (0, 1) for p in (1, 2, 3, 0)]
    assert all(t.hand(p) == [] for p in range(4))
    assert kinds(ev)[:6] == [E.EV_ROLLOFF] * 6 and kinds(ev)[6:] == [E.EV_PLACE] * len(kinds(ev)[6:])


def test_a_tie_of_every_seat_rolls_again_for_all():
    t = few_blue()
    t.new_events()
    ok, ev = t.place_chits(dice=[6, 6, 6, 2, 3, 1], strict=False)
    assert [e[1:3] for e in only(ev, E.EV_ROLLOFF)] == [(0, 6), (1, 6), (2, 6), (0, 2), (1, 3), (2, 1)]
    assert t.sc(L.SC_FIRST) == 1 and placed(ev)[0][0] == 1


def test_a_blue_chit_is_chosen_from_the_hand_and_the_hand_keeps_its_order():
    t = few_blue(n=3)
    t.new_events()
    hand = t.hand(0)
    q = t.sq(1, 2, 2)
    ok, ev = t.place_chits(dice=[9, 1, 1], choices=[2, q], strict=False)
    assert placed(ev)[0] == (0, hand[2], q)
    assert t.loc(hand[2]) == E.LOC_BOARD and t.faceup(hand[2]) == 0 and t.owner(hand[2]) == -1
    assert t.s[L.CHIT_PLACER + hand[2]] == 0                      # the placer remembers what it placed
    assert placed(ev)[3] == (0, hand[0], placed(ev)[3][2])        # its next placement: what was first is first


ARMOURY = (1, 2, 2)          # a room square of Tower 1
PANTRY = [(1, 13, 22), (1, 13, 23), (1, 13, 24), (1, 14, 22), (1, 14, 23), (1, 14, 24)]      # a 6-square room
ENTRANCE = [(1, r, c) for r in (11, 12) for c in (8, 9, 10, 11, 12)] + [(1, r, c) for r in (13, 14) for c in (8, 9, 12)]
FRONT = [(1, 14, 10), (1, 14, 11), (1, 13, 10), (1, 13, 11)]


@pytest.mark.parametrize("where", [(1, 7, 10), (1, 7, 3), (1, 8, 10), (1, 16, 12), (2, 7, 5), (3, 19, 5)] + FRONT,
                         ids=["hallway", "staircase", "hallway-stub", "outside", "landing-hall", "hall-3",
                              "front1", "front2", "front3", "front4"])
def test_a_blue_chit_only_goes_in_a_room_not_in_a_hallway_outside_or_on_the_four_front_squares(where):
    t = few_blue()
    t.new_events()
    q = t.sq(*where)
    ok, ev = t.place_chits(dice=[9, 1, 1], choices=[0, q])
    assert not ok
    assert ev[-1] == (E.EV_ILLEGAL, 0, E.DEC_PLACE_BLUE, q, 0) and placed(ev) == []
    assert t.sc(L.SC_ERROR) == E.DEC_PLACE_BLUE


@pytest.mark.parametrize("where", [(1, 12, 10), (1, 13, 9), (1, 14, 12), (2, 2, 2), (3, 17, 22)])
def test_a_blue_chit_goes_on_any_room_square_of_any_level_next_to_the_front_squares_too(where):
    t = few_blue()
    t.new_events()
    q = t.sq(*where)
    ok, ev = t.place_chits(dice=[9, 1, 1], choices=[0, q], strict=False)
    assert ok and placed(ev)[0][2] == q


def test_a_blue_chit_never_goes_on_a_square_holding_a_chit():
    t = few_blue()
    t.new_events()
    q = t.sq(*ARMOURY)
    ok, ev = t.place_chits(dice=[9, 1, 1], choices=[0, q, 0, q])
    assert not ok and len(placed(ev)) == 1 and ev[-1] == (E.EV_ILLEGAL, 1, E.DEC_PLACE_BLUE, q, 0)


def test_a_room_keeps_two_empty_squares_for_every_blue_chit_six_squares_take_two():
    t = few_blue()
    t.new_events()
    a, b, c = (t.sq(*x) for x in PANTRY[:3])
    ok, ev = t.place_chits(dice=[9, 1, 1], choices=[0, a, 0, b, 0, c])
    assert not ok
    assert placed(ev) == [(0, placed(ev)[0][1], a), (1, placed(ev)[1][1], b)]   # 6 - 2 chits = 4 empty: legal
    assert ev[-1] == (E.EV_ILLEGAL, 2, E.DEC_PLACE_BLUE, c, 0)                 # 6 - 3 = 3 empty < 6


def test_the_front_squares_count_as_empty_squares_of_the_entrance_hall():
    # 20 squares (4 of them front squares): six blue chits leave 14 empty >= 12; a seventh leaves 13 < 14
    t = few_blue(n=3)
    t.new_events()
    squares = [t.sq(*x) for x in ENTRANCE[:7]]
    script = [x for q in squares for x in (0, q)]
    ok, ev = t.place_chits(dice=[9, 1, 1], choices=script)
    assert not ok and [q for _, _, q in placed(ev)] == squares[:6]
    assert ev[-1] == (E.EV_ILLEGAL, 0, E.DEC_PLACE_BLUE, squares[6], 0)


def test_an_out_of_range_hand_index_is_illegal():
    t = few_blue()
    t.new_events()
    ok, ev = t.place_chits(dice=[9, 1, 1], choices=[1, t.sq(*ARMOURY)])
    assert not ok and ev[-1][:3] == (E.EV_ILLEGAL, 0, E.DEC_PLACE_BLUE)


def full_setup(seed=1, players=3, n=1, first=0):
    t = few_blue(players=players, n=n, seed=seed)
    t.new_events()
    ok, ev = t.place_chits(dice=[9 if p == first else 1 for p in range(players)], strict=False)
    assert ok
    return t, ev


def test_purple_chits_one_per_room_level_by_level_from_the_first_player_clockwise_the_specter_only_in_tower_3():
    t, ev = full_setup(first=1)
    n_blue = t.opt(L.OPT_N_BLUE)
    purple = [x for x in placed(ev) if x[1] >= n_blue]
    board = t.board
    assert len(purple) == board.n_rooms == 27
    assert [int(board.level[q]) for _, _, q in purple] == [1] * 9 + [2] * 9 + [3] * 9
    assert sorted(int(board.room[q]) for _, _, q in purple) == list(range(27))       # one in every room
    assert [seat for seat, _, _ in placed(ev)[:3]] == [1, 2, 0]                      # blue: from the first player
    assert [seat for seat, _, _ in purple] == [1, 2, 0] * 9                          # purple: from it again
    assert all(t.loc(c) == E.LOC_BOARD and t.faceup(c) == 0 and t.s[L.CHIT_PLACER + c] == -1 for _, c, _ in purple)
    assert all(c != t.specter_chit for _, c, _ in purple[:18])
    left = [c for c in range(n_blue, t.opt(L.OPT_N_CHITS)) if t.loc(c) == E.LOC_ASIDE]
    assert left == []                                            # 26 purple + the Specter's chit for 27 rooms


def test_the_specter_is_mixed_in_for_tower_3_only_and_always_placed():
    where = []
    for seed in range(30):
        t, ev = full_setup(seed=seed)
        spots = [q for _, c, q in placed(ev) if c == t.specter_chit]
        where.append(int(t.board.level[spots[0]]) if spots else 0)
    assert where == [3] * 30


def test_a_surplus_purple_chit_is_set_aside_before_the_specter_joins_so_the_specter_is_always_placed():
    purple = dict(purple_chits(), sword_plus_1=1, bone_golem=0) | {"shield_plus_2": 2}   # 27 chits for 26 places
    for seed in range(30):
        t = few_blue(seed=seed, components={"purple": purple})
        t.new_events()
        ok, ev = t.place_chits(dice=[9, 1, 1], strict=False)
        assert ok
        n_blue = t.opt(L.OPT_N_BLUE)
        assert [int(t.board.level[q]) for _, c, q in placed(ev) if c == t.specter_chit] == [3]
        left = [c for c in range(n_blue, t.opt(L.OPT_N_CHITS)) if t.loc(c) == E.LOC_ASIDE]
        assert len(left) == 1 and left[0] != t.specter_chit


def test_purple_chits_need_no_empty_squares():
    t = few_blue()
    t.new_events()
    a, b, c = (t.sq(*x) for x in PANTRY[:3])
    script = [0, a, 0, b, 0, t.sq(*ARMOURY)]
    # Tower 1 purple placements: the Pantry's third square, then the default (first legal) squares
    ok, ev = t.place_chits(dice=[9, 1, 1], choices=script + [c], strict=False)
    assert ok and placed(ev)[3] == (0, placed(ev)[3][1], c)


@pytest.mark.parametrize("case", ["same_room", "wrong_level", "hallway", "front", "on_a_chit"])
def test_illegal_purple_placements_stop_the_game(case):
    t = few_blue()
    t.new_events()
    blue = [0, t.sq(1, 2, 2), 0, t.sq(1, 2, 8), 0, t.sq(1, 2, 16)]
    first = t.sq(1, 2, 22)                           # the Smithy gets the first purple chit
    q = {"same_room": t.sq(1, 3, 22), "wrong_level": t.sq(2, 2, 2), "hallway": t.sq(1, 7, 12),
         "front": t.sq(*FRONT[0]), "on_a_chit": t.sq(1, 2, 2)}[case]
    ok, ev = t.place_chits(dice=[9, 1, 1], choices=blue + [first, q])
    assert not ok
    assert len(placed(ev)) == 4 and ev[-1] == (E.EV_ILLEGAL, 1, E.DEC_PLACE_PURPLE, q, 0)


def test_a_purple_chit_may_go_in_a_room_holding_blue_chits():
    t = few_blue()
    t.new_events()
    blue = [0, t.sq(1, 2, 2), 0, t.sq(1, 2, 8), 0, t.sq(1, 2, 16)]
    ok, ev = t.place_chits(dice=[9, 1, 1], choices=blue + [t.sq(1, 3, 2)], strict=False)
    assert ok and placed(ev)[3][2] == t.sq(1, 3, 2)


# =====================================================================================================================
# Rounds (The Order of Play)
# =====================================================================================================================

def stay(t, *seats):
    """Move answers: each seat stays where it stands."""
    return [t.hs(p, L.HS_SQ) for p in seats]


def test_a_round_rolls_1d10_ties_roll_again_then_every_hero_clockwise_from_the_winner_then_a_new_round():
    t = Table(players=4, turn_cap=4)
    dice = [3, 8, 8, 1, 6, 2] + [1, 2, 3, 4] + [2, 9, 5, 1]
    ev = t.rounds(dice=dice, choices=stay(t, 1, 2, 3, 0))
    assert ev == [
        (E.EV_ROLLOFF, 0, 3, 1, 0), (E.EV_ROLLOFF, 1, 8, 1, 0), (E.EV_ROLLOFF, 2, 8, 1, 0),
        (E.EV_ROLLOFF, 3, 1, 1, 0), (E.EV_ROLLOFF, 1, 6, 1, 0), (E.EV_ROLLOFF, 2, 2, 1, 0),
        (E.EV_ROUND, -1, 1, 1, 0),
        (E.EV_TURN, 1, 1, 1, 0), (E.EV_MOVE_ROLL, 1, 1, 3, 0), (E.EV_MOVE, 1, t.hs(1, L.HS_SQ), t.hs(1, L.HS_SQ), 0),
        (E.EV_TURN, 2, 2, 1, 0), (E.EV_MOVE_ROLL, 2, 2, 5, 0), (E.EV_MOVE, 2, t.hs(2, L.HS_SQ), t.hs(2, L.HS_SQ), 0),
        (E.EV_TURN, 3, 3, 1, 0), (E.EV_MOVE_ROLL, 3, 3, 6, 0), (E.EV_MOVE, 3, t.hs(3, L.HS_SQ), t.hs(3, L.HS_SQ), 0),
        (E.EV_TURN, 0, 4, 1, 0), (E.EV_MOVE_ROLL, 0, 4, 7, 0), (E.EV_MOVE, 0, t.hs(0, L.HS_SQ), t.hs(0, L.HS_SQ), 0),
        (E.EV_ROLLOFF, 0, 2, 1, 0), (E.EV_ROLLOFF, 1, 9, 1, 0), (E.EV_ROLLOFF, 2, 5, 1, 0),
        (E.EV_ROLLOFF, 3, 1, 1, 0),
        (E.EV_ROUND, -1, 2, 1, 0),
        (E.EV_CAP, -1, 4, 0, 0),                   # the turn cap comes before the next turn
    ]
    assert t.sc(L.SC_TURN) == 4 and t.sc(L.SC_ROUND) == 2 and t.sc(L.SC_ROUND_START) == 1


def test_the_turn_cap_ends_the_game_mid_round_unfinished():
    t = Table(players=3, turn_cap=2)
    ev = t.rounds(dice=[1, 2, 10, 4, 4], choices=stay(t, 2, 0))
    assert [e[0] for e in ev][-1] == E.EV_CAP and ev[-1] == (E.EV_CAP, -1, 2, 0, 0)
    assert [e[1] for e in only(ev, E.EV_TURN)] == [2, 0]             # seat 1 never plays
    fin = t.finish()
    assert kinds(fin) == [E.EV_SCORE] * 3 and t.sc(L.SC_VICTORY) == E.WIN_NONE and t.sc(L.SC_WINNER) == -1


def test_heroes_out_of_the_game_roll_no_die_and_take_no_turn():
    t = Table(players=4, turn_cap=3)
    t.set_out(1)
    ev = t.rounds(dice=[4, 7, 2] + [1, 1, 1] + [3, 5, 2], choices=stay(t, 2, 3, 0))
    assert [e[1] for e in only(ev, E.EV_ROLLOFF)] == [0, 2, 3, 0, 2, 3]
    assert [e[1] for e in only(ev, E.EV_TURN)] == [2, 3, 0]
    assert only(ev, E.EV_ROUND)[0] == (E.EV_ROUND, -1, 1, 2, 0)


def test_with_one_hero_left_no_die_is_rolled_for_the_order():
    t = Table(players=3, turn_cap=2)
    t.set_out(0)
    t.set_out(2)
    ev = t.rounds(dice=[5, 6], choices=stay(t, 1, 1))
    assert only(ev, E.EV_ROLLOFF) == []
    assert only(ev, E.EV_ROUND) == [(E.EV_ROUND, -1, r, 1, 0) for r in (1, 2, 3)]
    assert [e[1] for e in only(ev, E.EV_TURN)] == [1, 1] and ev[-1] == (E.EV_CAP, -1, 2, 0, 0)


# =====================================================================================================================
# A hero's turn: start (Experience, potions)
# =====================================================================================================================

def test_a_turn_counts_up_and_names_its_round():
    t = Table()
    t.set_hs(0, L.HS_HP, 8)
    t.s[L.SC + L.SC_ROUND] = 4
    t.s[L.SC + L.SC_TURN] = 10
    ev = t.turn(0, dice=[2], choices=stay(t, 0))
    assert ev[0] == (E.EV_TURN, 0, 11, 4, 0) and t.sc(L.SC_TURN) == 11


def test_experience_two_blue_monster_chits_remove_a_minus_one_chit_at_the_start_of_the_turn():
    t = Table()
    kept = t.keep(0, "skeleton", "skeleton", "giant_rat", colour=E.BLUE)
    t.set_drains(0, 1)
    ev = t.turn(0, dice=[2], choices=[E.TRADE_TWO_BLUE] + stay(t, 0))
    assert ev[1] == (E.EV_TRADE_IN, 0, E.TRADE_TWO_BLUE, 0, 0)
    assert t.hs(0, L.HS_DRAINS) == 0 and t.hs(0, L.HS_TRADE_INS) == 1
    assert [t.loc(c) for c in sorted(kept)] == [E.LOC_GONE, E.LOC_GONE, E.LOC_KEPT]     # the lowest ids go
    assert t.hs(0, L.HS_KEPT_BLUE) == 1 and t.hs(0, L.HS_BLUE) == 1
    assert t.hs(0, L.HS_STANDUPS) == 3                                                 # stand-ups are not traded


def test_experience_one_purple_monster_chit_removes_a_minus_one_chit():
    t = Table()
    (w,) = t.keep(0, "wight", colour=E.PURPLE)
    t.set_drains(0, 1)
    ev = t.turn(0, dice=[2], choices=[E.TRADE_ONE_PURPLE] + stay(t, 0))
    assert ev[1] == (E.EV_TRADE_IN, 0, E.TRADE_ONE_PURPLE, 0, 0)
    assert t.loc(w) == E.LOC_GONE and t.hs(0, L.HS_PURPLE) == 0 and t.hs(0, L.HS_KEPT_PURPLE) == 0


def test_experience_is_asked_again_after_each_trade_while_it_can_pay():
    t = Table()
    t.keep(0, "skeleton", "skeleton", "skeleton", "skeleton", "skeleton", colour=E.BLUE)
    t.set_drains(0, 3)
    ev = t.turn(0, dice=[2], choices=[E.TRADE_TWO_BLUE, E.TRADE_TWO_BLUE] + stay(t, 0))
    assert only(ev, E.EV_TRADE_IN) == [(E.EV_TRADE_IN, 0, 1, 2, 0), (E.EV_TRADE_IN, 0, 1, 1, 0)]
    assert t.hs(0, L.HS_DRAINS) == 1 and t.hs(0, L.HS_KEPT_BLUE) == 1        # one chit left: not asked a third time


def test_experience_may_be_declined():
    t = Table()
    t.keep(0, "skeleton", "skeleton", colour=E.BLUE)
    t.set_drains(0, 1)
    ev = t.turn(0, dice=[2], choices=[E.TRADE_NONE] + stay(t, 0))
    assert only(ev, E.EV_TRADE_IN) == [] and t.hs(0, L.HS_DRAINS) == 1 and t.hs(0, L.HS_KEPT_BLUE) == 2


@pytest.mark.parametrize("kept, drains", [(("skeleton", "skeleton"), 0), (("skeleton",), 1), ((), 1)],
                         ids=["no_minus_one_chit", "one_blue_chit", "no_chits"])
def test_experience_is_not_offered_without_a_minus_one_chit_or_without_the_chits_to_pay(kept, drains):
    t = Table()
    t.keep(0, *kept, colour=E.BLUE)
    t.give(0, "sword_plus_2")                    # an item (even purple) is no monster chit
    t.set_drains(0, drains)
    ev = t.turn(0, dice=[2], choices=stay(t, 0) + [0])        # the scripted move, then no drop
    assert only(ev, E.EV_TRADE_IN) == [] and t.hs(0, L.HS_DRAINS) == drains


def test_experience_paying_with_chits_the_hero_lacks_is_illegal():
    t = Table()
    t.keep(0, "skeleton", "skeleton", colour=E.BLUE)
    t.set_drains(0, 1)
    ev = t.turn(0, dice=[], choices=[E.TRADE_ONE_PURPLE])
    assert ev[-1] == (E.EV_ILLEGAL, 0, E.DEC_TRADE_IN, E.TRADE_ONE_PURPLE, 0) and not t.on


def test_a_potion_at_the_start_of_the_turn_heals_up_to_the_maximum_and_is_used_up():
    t = Table()
    a, sword, b = t.give(0, "potion_of_healing", "sword_plus_1", "potion_of_healing")
    t.set_hp(0, 2)
    ev = t.turn(0, dice=[2], choices=[2] + stay(t, 0) + [0])          # the second potion (candidates: -1, a, b)
    assert ev[1:3] == [(E.EV_POTION, 0, b, 5, 0), (E.EV_USED_UP, 0, b, 0, 0)]
    assert t.hs(0, L.HS_HP) == 5 and t.items(0) == [a, sword] and t.loc(b) == E.LOC_GONE
    t.set_hp(0, 7)
    ev = t.turn(0, dice=[2], choices=[1] + stay(t, 0) + [0])
    assert ev[1] == (E.EV_POTION, 0, a, 8, 0) and t.hs(0, L.HS_HP) == 8        # 7 + 3, at most 8


def test_no_potion_is_drunk_when_declined_and_none_is_asked_without_one():
    t = Table()
    (a,) = t.give(0, "potion_of_healing")
    t.set_hp(0, 2)
    ev = t.turn(0, dice=[2], choices=[0] + stay(t, 0) + [0])
    assert only(ev, E.EV_POTION) == [] and t.hs(0, L.HS_HP) == 2 and t.items(0) == [a]
    ev = t.turn(1, dice=[2], choices=stay(t, 1))                           # seat 1 carries none: not asked
    assert only(ev, E.EV_POTION) == []


# =====================================================================================================================
# Movement
# =====================================================================================================================

def moved(t, p, where, roll):
    """Seat p tries to stop on `where` with this 1d6; returns the events."""
    return t.turn(p, dice=[roll], choices=[t.sq(*where)])


def steps(t, *path, p=0):
    """The `step` rows of a move's path: ((level, row, col), cost) for each square it enters."""
    return [(E.EV_STEP, p, t.sq(*q), cost, 0) for q, cost in path]


def no_steps(events):
    """The events without the `step` rows: for where a move ended and what came after it."""
    return [e for e in events if e[0] != E.EV_STEP]


def corridor(t, first, last, row=7):
    """The `step` rows of a walk along a Tower 1 corridor row, one point a square, from column `first` to `last`."""
    return steps(t, *(((1, row, c), 1) for c in range(first, last + 1)))


def test_movement_points_are_speed_plus_1d6_and_any_square_within_them_is_a_legal_stop():
    t = Table()
    t.place(0, t.sq(1, 7, 10))
    ev = moved(t, 0, (1, 7, 17), 4)                    # speed 3 + 4 = 7 steps along the corridor
    assert ev[1:] == [(E.EV_MOVE_ROLL, 0, 4, 7, 0), (E.EV_MOVE, 0, t.sq(1, 7, 10), t.sq(1, 7, 17), 7)] \
        + corridor(t, 11, 17)
    assert t.hs(0, L.HS_SQ) == t.sq(1, 7, 17) and t.at_sq(t.sq(1, 7, 10)) == (-1, -1)
    assert t.sc(L.SC_LEFT) == 0


def test_a_stop_beyond_the_movement_points_is_illegal():
    t = Table()
    t.place(0, t.sq(1, 7, 10))
    ev = moved(t, 0, (1, 7, 18), 4)
    assert ev[-1] == (E.EV_ILLEGAL, 0, E.DEC_MOVE, t.sq(1, 7, 18), 0) and not t.on
    assert t.hs(0, L.HS_SQ) == t.sq(1, 7, 10)


def test_a_hero_may_stop_early_or_stay_put():
    t = Table()
    t.place(0, t.sq(1, 7, 10))
    ev = moved(t, 0, (1, 7, 12), 6)
    assert ev[-3:] == [(E.EV_MOVE, 0, t.sq(1, 7, 10), t.sq(1, 7, 12), 2)] + corridor(t, 11, 12)
    assert t.sc(L.SC_LEFT) == 7
    ev = moved(t, 0, (1, 7, 12), 1)                    # staying put: no step
    assert ev[-1] == (E.EV_MOVE, 0, t.sq(1, 7, 12), t.sq(1, 7, 12), 0) and t.sc(L.SC_LEFT) == 4


def scout_components():
    heroes = [h.model_dump() for h in hero_list()]
    heroes.append(dict(name="scout", speed=3, hp=6, attack=2, ac=6, ability="movement_bonus", ability_value=2))
    return {"heroes": heroes}


def test_the_movement_bonus_ability_adds_to_the_movement_points():
    t = Table(heroes=["scout", "fighter", "dwarf"], components=scout_components())
    t.place(0, t.sq(1, 7, 10))
    ev = moved(t, 0, (1, 7, 16), 1)                    # 3 + 1 + 2 = 6
    assert ev[1:] == [(E.EV_MOVE_ROLL, 0, 1, 6, 0), (E.EV_MOVE, 0, t.sq(1, 7, 10), t.sq(1, 7, 16), 6)] \
        + corridor(t, 11, 16)
    t2 = Table(heroes=["scout", "fighter", "dwarf"], components=scout_components())
    t2.place(0, t2.sq(1, 7, 10))
    assert moved(t2, 0, (1, 7, 17), 1)[-1][:3] == (E.EV_ILLEGAL, 0, E.DEC_MOVE)


def test_a_door_costs_one_more_point():
    t = Table()
    t.place(0, t.sq(1, 7, 10))
    ev = moved(t, 0, (1, 3, 10), 1)                    # through the Mess Hall door (2), then 2 steps: 4
    assert ev[-4:] == [(E.EV_MOVE, 0, t.sq(1, 7, 10), t.sq(1, 3, 10), 4)] \
        + steps(t, ((1, 5, 10), 2), ((1, 4, 10), 1), ((1, 3, 10), 1))
    t = Table()
    t.place(0, t.sq(1, 7, 10))
    assert moved(t, 0, (1, 2, 10), 1)[-1] == (E.EV_ILLEGAL, 0, E.DEC_MOVE, t.sq(1, 2, 10), 0)       # 5 > 4


def test_a_staircase_square_costs_one_more_point_and_its_top_leads_to_the_landing():
    t = Table()
    t.place(0, t.sq(1, 7, 6))
    ev = moved(t, 0, (1, 7, 2), 4)                     # 1 + 2 + 2 + 2 = 7: the top of staircase a
    stairs = steps(t, ((1, 7, 5), 1), ((1, 7, 4), 2), ((1, 7, 3), 2), ((1, 7, 2), 2))
    assert ev[-5:] == [(E.EV_MOVE, 0, t.sq(1, 7, 6), t.sq(1, 7, 2), 7)] + stairs
    t = Table()
    t.place(0, t.sq(1, 7, 6))
    assert moved(t, 0, (2, 7, 2), 4)[-1][:3] == (E.EV_ILLEGAL, 0, E.DEC_MOVE)     # the landing: 8 > 7
    t = Table()
    t.place(0, t.sq(1, 7, 6))
    assert moved(t, 0, (2, 7, 2), 5)[-6:] == [(E.EV_MOVE, 0, t.sq(1, 7, 6), t.sq(2, 7, 2), 8)] + stairs \
        + steps(t, ((2, 7, 2), 1))


@pytest.mark.parametrize("what", ["chit", "face_up_item", "hero"])
def test_a_hero_cannot_stop_on_a_chit_or_another_hero(what):
    t = Table()
    t.place(0, t.sq(1, 7, 10))
    q = t.sq(1, 7, 12)
    if what == "hero":
        t.place(1, q)
    else:
        t.put("potion_of_healing", q, face_up=what == "face_up_item")
    ev = moved(t, 0, (1, 7, 12), 6)
    assert ev[-1] == (E.EV_ILLEGAL, 0, E.DEC_MOVE, q, 0) and t.hs(0, L.HS_SQ) == t.sq(1, 7, 10)


def test_a_hero_moves_through_squares_holding_chits_and_heroes():
    t = Table()
    t.place(0, t.sq(1, 7, 10))
    t.put("giant_rat", t.sq(1, 7, 11))
    t.place(1, t.sq(1, 7, 12))
    ev = moved(t, 0, (1, 7, 14), 1)                    # 4 steps: through the chit and the dwarf
    assert ev[-5:] == [(E.EV_MOVE, 0, t.sq(1, 7, 10), t.sq(1, 7, 14), 4)] + corridor(t, 11, 14)
    # the trace's `step` rows are the path the Specter's back-up reads (recorded with them in a traced game)
    assert [int(x) for x in t.s[L.PATH:L.PATH + t.sc(L.SC_PATH_N)]] == [t.sq(1, 7, c) for c in range(10, 15)]
    # untraced, the path is recorded only when read: from the start, under this turn's climbing table
    t = Table(rows=0)
    t.place(0, t.sq(1, 7, 10))
    t.put("giant_rat", t.sq(1, 7, 11))
    t.place(1, t.sq(1, 7, 12))
    assert moved(t, 0, (1, 7, 14), 1) == [] and t.hs(0, L.HS_SQ) == t.sq(1, 7, 14)
    assert t.sc(L.SC_PATH_N) == 0 and t.sc(L.SC_PATH_FROM) == t.sq(1, 7, 10)
    from balance.games.haunted_tower.rules.movement import record_path_nb
    record_path_nb(t.s, t.g, t.d, t.sc(L.SC_CLIMB), t.sc(L.SC_PATH_FROM), t.hs(0, L.HS_SQ))
    assert [int(x) for x in t.s[L.PATH:L.PATH + t.sc(L.SC_PATH_N)]] == [t.sq(1, 7, c) for c in range(10, 15)]


@pytest.mark.parametrize("start, left, offered", [((1, 7, 7), 1, True), ((1, 7, 8), 2, True), ((1, 7, 6), 0, False)])
def test_a_chit_directly_behind_a_door_is_adjacent_only_with_a_movement_point_left(start, left, offered):
    t = Table()
    t.place(0, t.sq(*start))
    c = t.put("potion_of_healing", t.sq(1, 5, 10))     # in the Mess Hall, behind the door above (1, 7, 10)
    script = [t.sq(1, 7, 10)] + ([0, 0] if offered else [])      # encounter it, then leave it
    ev = t.turn(0, dice=[1], choices=script)           # 3 + 1 = 4 points
    assert t.sc(L.SC_LEFT) == left
    if offered:
        assert ev[-2:] == [(E.EV_REVEAL, 0, c, E.CONTENT_ITEM, t.item("potion_of_healing")),
                           (E.EV_LEAVE, 0, c, 0, 0)]
    else:
        assert ev[-1][0] == E.EV_STEP and only(ev, E.EV_REVEAL) == [] and t.faceup(c) == 0


def test_the_chit_behind_a_door_is_offered_after_the_adjacent_ones():
    t = Table()
    t.place(0, t.sq(1, 7, 8))
    behind = t.put("potion_of_healing", t.sq(1, 5, 10))
    beside = t.put("holy_water", t.sq(1, 7, 11))
    ev = t.turn(0, dice=[1], choices=[t.sq(1, 7, 10), 1, 0])       # candidates: beside, behind
    assert only(ev, E.EV_REVEAL)[0][2] == behind and t.faceup(beside) == 0


# =====================================================================================================================
# Climbing to a New Level
# =====================================================================================================================

def gate1(t, p=0):
    """A chit elsewhere on Tower 1; hero p on the staircase a next to its top: the landing costs 3."""
    t.put("skeleton", t.sq(1, 2, 2))
    t.place(p, t.sq(1, 7, 3))
    return t.sq(2, 7, 2)


@pytest.mark.parametrize("items, kept, ok", [
    (("holy_water",) * 2, (), False),                  # 2 blue chits
    (("holy_water",) * 3, (), True),                   # 3 blue chits
    (("sword_plus_2",), (), False),                           # one purple chit counts two: 2
    (("sword_plus_2", "holy_water"), (), True),        # 2 + 1
    ((), ("skeleton", "skeleton"), False),                    # kept monster chits count too
    (("holy_water",), ("skeleton", "skeleton"), True),
    ((), ("wight",), False),
    ((), ("wight", "skeleton"), True),                        # a kept purple monster chit counts two
])
def test_leaving_tower_1_takes_three_blue_chit_equivalents(items, kept, ok):
    t = Table()
    landing = gate1(t)
    for name in items:
        t.give(0, name, colour=E.PURPLE if name == "sword_plus_2" else E.BLUE)
    for name in kept:
        t.keep(0, name, colour=E.PURPLE if name == "wight" else E.BLUE)
    ev = t.turn(0, dice=[1], choices=[landing] + ([0] if ok and items else []))
    if ok:
        assert only(ev, E.EV_MOVE) == [(E.EV_MOVE, 0, t.sq(1, 7, 3), landing, 3)]
    else:
        assert ev[-1] == (E.EV_ILLEGAL, 0, E.DEC_MOVE, landing, 0)


@pytest.mark.parametrize("gate_opens", ["all_revealed", "no_chits"])
def test_anyone_may_leave_tower_1_once_it_holds_no_chit(gate_opens):
    t = Table(rules={"gate_opens": gate_opens})
    landing = gate1(t)
    t.empty_level(1)
    t.put("skeleton", t.sq(2, 2, 2))                # chits elsewhere do not matter
    ev = t.turn(0, dice=[1], choices=[landing])
    assert no_steps(ev)[-1] == (E.EV_MOVE, 0, t.sq(1, 7, 3), landing, 3) and t.level_chits(1) == 0


@pytest.mark.parametrize("gate_opens, opens", [("all_revealed", True), ("no_chits", False)])
def test_a_revealed_item_left_on_tower_1_keeps_its_gate_shut_only_under_no_chits(gate_opens, opens):
    t = Table(rules={"gate_opens": gate_opens})
    landing = gate1(t)
    t.empty_level(1)
    t.put("holy_water", t.sq(1, 2, 2), face_up=True)        # a revealed item still lies on Tower 1
    ev = t.turn(0, dice=[1], choices=[landing])
    if opens:
        assert no_steps(ev)[-1] == (E.EV_MOVE, 0, t.sq(1, 7, 3), landing, 3)
    else:
        assert ev[-1] == (E.EV_ILLEGAL, 0, E.DEC_MOVE, landing, 0)


def test_a_chit_revealed_in_an_encounter_no_longer_keeps_the_gate_shut():
    t = Table()
    t.empty_level(1)
    t.place(0, t.sq(1, 3, 3))
    c = t.put("potion_of_healing", t.sq(1, 2, 3))
    assert t.s[L.LEVEL_HIDDEN + 1] == 1
    t.turn(0, dice=[1], choices=stay(t, 0) + [0, 0])        # encounter it, leave it on the floor
    assert t.faceup(c) == 1 and t.s[L.LEVEL_HIDDEN + 1] == 0 and t.level_chits(1) == 1


@pytest.mark.parametrize("n_items, ok", [(0, False), (1, True)])
def test_climb_from_1_sets_the_tower_1_gate(n_items, ok):
    t = Table(rules={"climb_from_1": 1})
    landing = gate1(t)
    t.give(0, *["holy_water"] * n_items)
    ev = t.turn(0, dice=[1], choices=[landing] + ([0] if n_items else []))
    assert (only(ev, E.EV_MOVE) != []) == ok and (illegal(ev) == []) == ok


def gate2(t, p=0):
    """Chits on Tower 1 and Tower 2; hero p on the top of staircase b: the Tower 3 landing costs 1."""
    t.put("skeleton", t.sq(1, 2, 2))
    t.put("skeleton", t.sq(2, 2, 2))
    t.place(p, t.sq(2, 17, 25))
    return t.sq(3, 17, 25)


@pytest.mark.parametrize("n, ok", [(5, False), (6, True)])
def test_leaving_tower_2_takes_six_blue_chit_equivalents(n, ok):
    t = Table()
    landing = gate2(t)
    t.give(0, *["holy_water"] * (n - 2))
    t.give(0, "sword_plus_2", colour=E.PURPLE)
    ev = t.turn(0, dice=[1], choices=[landing] + ([0] if ok else []))
    assert (only(ev, E.EV_MOVE) == [(E.EV_MOVE, 0, t.sq(2, 17, 25), landing, 1)]) == ok
    assert (illegal(ev) == [(E.EV_ILLEGAL, 0, E.DEC_MOVE, landing, 0)]) == (not ok)


def test_anyone_may_leave_tower_2_once_it_holds_no_chit_even_with_tower_1_full():
    t = Table()
    landing = gate2(t)
    t.empty_level(2)
    ev = t.turn(0, dice=[1], choices=[landing])
    assert no_steps(ev)[-1] == (E.EV_MOVE, 0, t.sq(2, 17, 25), landing, 1)


@pytest.mark.parametrize("n_items, ok", [(1, False), (2, True)])
def test_climb_from_2_sets_the_tower_2_gate(n_items, ok):
    t = Table(rules={"climb_from_2": 2})
    landing = gate2(t)
    t.give(0, *["holy_water"] * n_items)
    ev = t.turn(0, dice=[1], choices=[landing] + ([0] if ok else []))
    assert (only(ev, E.EV_MOVE) != []) == ok


def test_going_down_is_always_allowed():
    t = Table()
    t.put("skeleton", t.sq(1, 2, 2))
    t.put("skeleton", t.sq(2, 2, 2))
    t.place(0, t.sq(2, 7, 2))
    ev = t.turn(0, dice=[1], choices=[t.sq(1, 7, 3)])        # landing A -> top of a (2) -> (1, 7, 3) (2)
    assert no_steps(ev)[-1] == (E.EV_MOVE, 0, t.sq(2, 7, 2), t.sq(1, 7, 3), 4)
    t.place(1, t.sq(3, 17, 25))
    ev = t.turn(1, dice=[2], choices=[t.sq(2, 16, 25)])      # the dwarf, 4 points: landing B -> top of b -> (2, 16, 25)
    assert no_steps(ev)[-1] == (E.EV_MOVE, 1, t.sq(3, 17, 25), t.sq(2, 16, 25), 4)


# =====================================================================================================================
# Encountering a Chit
# =====================================================================================================================

def test_an_encounter_is_optional():
    t = Table()
    t.place(0, t.sq(1, 3, 3))
    c = t.put("giant_rat", t.sq(1, 2, 3))
    ev = t.turn(0, dice=[1], choices=stay(t, 0) + [-1])
    assert kinds(ev) == [E.EV_TURN, E.EV_MOVE_ROLL, E.EV_MOVE]
    assert t.loc(c) == E.LOC_BOARD and t.faceup(c) == 0


@pytest.mark.parametrize("index, which", [(0, "up"), (1, "down")])
def test_the_hero_chooses_which_adjacent_chit_to_encounter_in_adjacency_order(index, which):
    t = Table()
    t.place(0, t.sq(1, 3, 3))
    chits = {"up": t.put("holy_water", t.sq(1, 2, 3)), "down": t.put("potion_of_healing", t.sq(1, 4, 3))}
    ev = t.turn(0, dice=[1], choices=stay(t, 0) + [index, 0])     # encounter, then leave the item
    c = chits[which]
    assert ev[3:] == [(E.EV_REVEAL, 0, c, E.CONTENT_ITEM, t.contents[c][2]), (E.EV_LEAVE, 0, c, 0, 0)]
    other = chits["down" if which == "up" else "up"]
    assert t.faceup(other) == 0 and t.faceup(c) == 1 and t.loc(c) == E.LOC_FLOOR


def test_an_encounter_answer_out_of_range_is_illegal():
    t = Table()
    t.place(0, t.sq(1, 3, 3))
    t.put("holy_water", t.sq(1, 2, 3))
    ev = t.turn(0, dice=[1], choices=stay(t, 0) + [1])
    assert ev[-1] == (E.EV_ILLEGAL, 0, E.DEC_ENCOUNTER, 1, 0) and not t.on


def test_a_revealed_item_on_the_floor_is_encountered_without_a_reveal():
    t = Table()
    t.place(0, t.sq(1, 3, 3))
    c = t.put("potion_of_healing", t.sq(1, 2, 3), face_up=True)
    ev = t.turn(0, dice=[1], choices=stay(t, 0) + [0, 1, 0])      # encounter, take, no drop
    assert ev[3:] == [(E.EV_TAKE, 0, c, -1, 0)] and t.items(0) == [c]


def test_the_encounters_count_is_every_chit_encountered_items_and_monsters_but_not_a_declined_one():
    t = Table()
    t.place(0, t.sq(1, 3, 3))
    item = t.put("potion_of_healing", t.sq(1, 2, 3))
    t.turn(0, dice=[1], choices=stay(t, 0) + [-1])                  # declined: no encounter
    assert t.hs(0, L.HS_ENCOUNTERS) == 0
    t.turn(0, dice=[1], choices=stay(t, 0) + [0, 0])                # the item, left where it lies
    assert t.hs(0, L.HS_ENCOUNTERS) == 1 and t.loc(item) == E.LOC_FLOOR
    rat = t.put("giant_rat", t.sq(1, 4, 3))
    t.turn(0, dice=[1] + [6, 1, 6], choices=stay(t, 0) + [1, OWN_WEAPON])   # the rat: initiative, one blow kills it
    assert t.hs(0, L.HS_ENCOUNTERS) == 2 and t.loc(rat) == E.LOC_KEPT


def test_no_encounter_is_asked_without_an_adjacent_chit():
    t = Table()
    t.place(0, t.sq(1, 3, 3))
    t.put("holy_water", t.sq(1, 2, 4))               # diagonal: not adjacent on this map
    ev = t.turn(0, dice=[1], choices=stay(t, 0))
    assert kinds(ev) == [E.EV_TURN, E.EV_MOVE_ROLL, E.EV_MOVE]


# =====================================================================================================================
# Magical Items
# =====================================================================================================================

def meet_item(t, name, p=0, colour=None, at=(1, 2, 3), face_up=False):
    """Hero p on (1, 3, 3) with the item below `at` (default: the square above it)."""
    t.place(p, t.sq(1, 3, 3))
    return t.put(name, t.sq(*at), face_up=face_up, colour=colour)


def test_a_hero_cannot_pick_up_an_item_it_cannot_use_and_it_stays_face_up():
    t = Table(heroes=["magic_user", "fighter", "dwarf"])
    c = meet_item(t, "sword_plus_1")
    ev = t.turn(0, dice=[1], choices=stay(t, 0) + [0])           # encounter; no take decision
    assert ev[3:] == [(E.EV_REVEAL, 0, c, E.CONTENT_ITEM, t.item("sword_plus_1")), (E.EV_CANNOT_USE, 0, c, 0, 0)]
    assert t.loc(c) == E.LOC_FLOOR and t.faceup(c) == 1 and t.chit_sq(c) == t.sq(1, 2, 3) and t.items(0) == []
    t.place(1, t.sq(1, 2, 4))                                      # the fighter can use it
    ev = t.turn(1, dice=[1], choices=stay(t, 1) + [0, 1, 0])
    assert ev[3:] == [(E.EV_TAKE, 1, c, -1, 0)] and t.items(1) == [c]


def test_taking_an_item_into_a_free_slot():
    t = Table()
    c = meet_item(t, "potion_of_healing")
    n1 = t.level_chits(1)
    ev = t.turn(0, dice=[1], choices=stay(t, 0) + [0, 1, 0])    # encounter, take (candidates: -1, -2), no drop
    assert ev[3:] == [(E.EV_REVEAL, 0, c, E.CONTENT_ITEM, t.item("potion_of_healing")), (E.EV_TAKE, 0, c, -1, 0)]
    assert t.items(0) == [c] and t.loc(c) == E.LOC_HELD and t.owner(c) == 0 and t.chit_sq(c) == -1
    assert t.at_sq(t.sq(1, 2, 3)) == (-1, -1) and t.level_chits(1) == n1 - 1
    assert t.hs(0, L.HS_BLUE) == 1 and t.s[L.icnt_at(0, t.item("potion_of_healing"), L.IC_TAKEN)] == 1


def test_leaving_an_item_leaves_it_face_up_where_it_lies():
    t = Table()
    c = meet_item(t, "potion_of_healing")
    ev = t.turn(0, dice=[1], choices=stay(t, 0) + [0, 0])
    assert ev[-1] == (E.EV_LEAVE, 0, c, 0, 0) and t.loc(c) == E.LOC_FLOOR and t.faceup(c) == 1
    assert t.chit_sq(c) == t.sq(1, 2, 3) and t.items(0) == []


@pytest.mark.parametrize("hero, carried, new, free", [
    ("fighter", ["leather_armor_plus_1"], "chain_mail_plus_1", False),          # one armour
    ("fighter", ["shield_plus_1"], "shield_plus_1", False),                     # one shield
    ("fighter", ["sword_plus_1", "mace_plus_1"], "silver_dagger", False),       # two weapons
    ("fighter", ["sword_plus_1"], "silver_dagger", True),
    ("dwarf", ["sword_plus_1", "mace_plus_1"], "silver_dagger", True),          # the dwarf's extra weapon slot
    ("dwarf", ["sword_plus_1", "mace_plus_1", "stake"], "silver_dagger", False),
    ("fighter", ["holy_water"] * 4 + ["ring_of_protection"], "holy_water_flask", True),   # any other items
    ("fighter", ["chain_mail_plus_1", "shield_plus_1", "sword_plus_1"], "leather_armor_plus_1", False),
])
def test_slot_limits_one_armour_two_weapons_one_shield_any_other_items(hero, carried, new, free):
    t = Table(heroes=[hero, "elf", "cleric"])
    held = t.give(0, *carried)
    c = meet_item(t, new)
    q = t.sq(1, 2, 3)
    if free:
        ev = t.turn(0, dice=[1], choices=stay(t, 0) + [0, 1, 0])
        assert only(ev, E.EV_TAKE, E.EV_DROP) == [(E.EV_TAKE, 0, c, -1, 0)]
        assert t.items(0) == held + [c]
    else:
        # candidates: leave, then each carried item of that slot (no free slot); the last one is given up
        slot = [int(t.s[L.it_at(t.contents[x][2], L.IT_SLOT)]) for x in held + [c]]
        same = [x for x, k in zip(held, slot) if k == slot[-1]]
        old = same[-1]
        ev = t.turn(0, dice=[1], choices=stay(t, 0) + [0, len(same), 0])
        assert only(ev, E.EV_TAKE, E.EV_DROP) == [(E.EV_TAKE, 0, c, old, 0), (E.EV_DROP, 0, old, q, 0)]
        assert t.items(0) == [x for x in held if x != old] + [c]
        assert t.loc(old) == E.LOC_FLOOR and t.chit_sq(old) == q and t.faceup(old) == 1 and t.owner(old) == -1
        assert t.at_sq(q) == (old, -1)


def test_with_a_full_slot_there_is_no_free_slot_to_take_into():
    t = Table()
    t.give(0, "leather_armor_plus_1")
    meet_item(t, "chain_mail_plus_1")
    ev = t.turn(0, dice=[1], choices=stay(t, 0) + [0, 2])         # candidates: leave, the leather armour
    assert ev[-1] == (E.EV_ILLEGAL, 0, E.DEC_TAKE, 2, 0)


def test_dropping_an_item_on_a_free_adjacent_square_at_the_end_of_the_turn():
    t = Table()
    a, b = t.give(0, "holy_water", "sword_plus_1")
    t.place(0, t.sq(1, 3, 3))
    t.place(1, t.sq(1, 2, 3))                          # up: taken by a hero; free: right, down, left
    ev = t.turn(0, dice=[1], choices=stay(t, 0) + [2, 1])      # drop the sword, on the second free square
    q = t.sq(1, 4, 3)
    assert ev[-1] == (E.EV_DROP, 0, b, q, 0)
    assert t.items(0) == [a] and t.loc(b) == E.LOC_FLOOR and t.faceup(b) == 1 and t.at_sq(q) == (b, -1)
    assert t.hs(0, L.HS_BLUE) == 1


def test_no_drop_is_asked_without_a_free_adjacent_square_or_without_items():
    t = Table()
    t.give(0, "holy_water")
    t.place(0, t.sq(1, 7, 12))
    t.place(1, t.sq(1, 7, 11))
    t.place(2, t.sq(1, 7, 13))
    ev = t.turn(0, dice=[1], choices=stay(t, 0))
    assert kinds(ev) == [E.EV_TURN, E.EV_MOVE_ROLL, E.EV_MOVE]
    ev = t.turn(1, dice=[1], choices=[t.sq(1, 7, 10)])
    assert kinds(ev) == [E.EV_TURN, E.EV_MOVE_ROLL, E.EV_MOVE, E.EV_STEP]


# =====================================================================================================================
# Trading (rule option `trading`)
# =====================================================================================================================

def trade_table(trading=True, partner="dwarf"):
    t = Table(heroes=["fighter", partner, "elf"], rules={"trading": trading})
    t.place(0, t.sq(1, 7, 10))
    t.place(1, t.sq(1, 7, 11))
    mine = t.give(0, "holy_water", "sword_plus_1")
    theirs = t.give(1, "silver_dagger", "mace_plus_1")
    return t, mine, theirs


def test_trading_offers_one_item_for_one_item_to_an_adjacent_hero_who_accepts():
    t, (water, sword), (dagger, mace) = trade_table()
    # rows: (1, water, dagger), (1, water, mace), (1, sword, dagger), (1, sword, mace)
    ev = t.turn(0, dice=[1], choices=stay(t, 0) + [3, 1, 0])     # offer row 3, the dwarf accepts, no drop
    assert ev[3:] == [(E.EV_TRADE, 0, 1, sword, mace)]
    assert t.items(0) == [water, mace] and t.items(1) == [dagger, sword]
    assert t.owner(sword) == 1 and t.owner(mace) == 0


def test_trading_the_partner_may_refuse():
    t, (water, sword), (dagger, mace) = trade_table()
    ev = t.turn(0, dice=[1], choices=stay(t, 0) + [0, 0, 0])      # offer row 0, refused
    assert ev[3:] == [(E.EV_TRADE, 0, 1, water, -1)]
    assert t.items(0) == [water, sword] and t.items(1) == [dagger, mace]


def test_trading_the_hero_may_offer_nothing():
    t, mine, theirs = trade_table()
    ev = t.turn(0, dice=[1], choices=stay(t, 0) + [-1, 0])
    assert only(ev, E.EV_TRADE) == [] and t.items(0) == mine


def mu_trade_table(*mine):
    t = Table(heroes=["fighter", "magic_user", "elf"], rules={"trading": True})
    t.place(0, t.sq(1, 7, 10))
    t.place(1, t.sq(1, 7, 11))
    return t, t.give(0, *mine), t.give(1, "silver_dagger")


def test_trading_rows_only_hold_items_the_other_may_use():
    # the magic-user cannot use the sword: the only row is (1, water, dagger)
    t, (water, sword), (dagger,) = mu_trade_table("holy_water", "sword_plus_1")
    assert t.turn(0, dice=[1], choices=stay(t, 0) + [1])[-1] == (E.EV_ILLEGAL, 0, E.DEC_TRADE_OFFER, 1, 0)
    t, (water, sword), (dagger,) = mu_trade_table("holy_water", "sword_plus_1")
    ev = t.turn(0, dice=[1], choices=stay(t, 0) + [0, 1, 0])
    assert only(ev, E.EV_TRADE) == [(E.EV_TRADE, 0, 1, water, dagger)]
    assert t.items(0) == [sword, dagger] and t.items(1) == [water]


def test_trading_rows_only_hold_trades_the_slots_allow():
    # with two weapons the fighter has no slot for the dagger in exchange for the water: no row, no offer
    t, mine, theirs = mu_trade_table("holy_water", "sword_plus_1", "mace_plus_1")
    ev = t.turn(0, dice=[1], choices=stay(t, 0) + [0])             # straight to the drop decision: none
    assert only(ev, E.EV_TRADE) == [] and t.items(0) == mine


def test_trading_is_offered_after_declining_an_encounter():
    t, (water, sword), (dagger, mace) = trade_table()
    t.put("skeleton", t.sq(1, 7, 9))
    ev = t.turn(0, dice=[1], choices=stay(t, 0) + [-1, 2, 1, 0])  # no encounter; offer row 2; accepted
    assert ev[3:] == [(E.EV_TRADE, 0, 1, sword, dagger)]


def test_without_trading_no_trade_is_offered():
    t, mine, theirs = trade_table(trading=False)
    ev = t.turn(0, dice=[1], choices=stay(t, 0) + [0])             # no drop
    assert only(ev, E.EV_TRADE) == []
