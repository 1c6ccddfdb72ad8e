"""Climbing Tower strategies: each parameter just below, at and above the point where the decision flips, the
build phase, the random baseline's uniformity, and the information limit (the partner's hand is seen only while
both pawns share a floor, and seeing it changes play)."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from balance.games.climbing_tower import enums as E
from balance.games.climbing_tower import layout as L
from balance.games.climbing_tower import strategies as S
from balance.games.climbing_tower.rules.play import deal_nb, legal_nb, to_hand_nb, turn_row_nb
from climbing_table import Table


def _hand(t, p, *cards):
    t.s[L.PL + p * L.N_PL + L.PL_HAND_N] = 0
    for c in cards:
        to_hand_nb(t.s, p, t.card(c))


def _decide(t, p):
    """Seat p's turn decision as (action, card name)."""
    n = legal_nb(t.s, p)
    S.fill_view_nb(t.s, p)
    act, c = turn_row_nb(t.s, p, S.turn_nb(t.s, t.f, p, n))
    return E.ACT_NAMES[int(act)], t.names[int(c)]


def _two_skeletons_here(t, p=0, floor=3):
    """Two skeletons on seat p's side of `floor` (001's floor 3, slot 3), the pawn there."""
    t.set_floor(p, floor)
    t.set_standing(floor, t.pl(p, L.PL_SIDE), 2)


@pytest.mark.parametrize("arrow, expected", [(0.9, "red_1"), (1.0, "red_1"), (1.1, "blue_1")])
def test_arrow_weight_against_sword_weight(arrow, expected):
    # red_1: two swords, both useful (two skeletons here); blue_1: two floors up. Worth 2 x sword vs 2 x arrow.
    t = Table(seats=("climber", "climber"), params={0: {"arrow_weight": arrow, "sword_weight": 1.0}})
    _two_skeletons_here(t)
    _hand(t, 0, "red_1", "blue_1")
    assert _decide(t, 0) == ("play", expected)          # a tie goes to the first row (red_1)


@pytest.mark.parametrize("sword, expected", [(1.9, "blue_1"), (2.0, "blue_1"), (2.1, "red_1")])
def test_sword_weight_against_arrow_weight(sword, expected):
    t = Table(seats=("skeleton_farmer", "climber"), params={0: {"arrow_weight": 2.0, "sword_weight": sword}})
    _two_skeletons_here(t)
    _hand(t, 0, "blue_1", "red_1")
    assert _decide(t, 0) == ("play", expected)


def test_swords_are_worth_only_the_skeletons_they_can_take():
    t = Table(seats=("skeleton_farmer", "climber"))     # sword 2, arrow 1
    t.set_floor(0, 1)                                   # one left skeleton on floor 1
    _hand(t, 0, "red_6", "blue_3")                      # 3 swords (1 useful: 2) vs 2 arrows (2)
    assert _decide(t, 0) == ("play", "red_6")           # tie: first row
    _hand(t, 0, "blue_3", "red_6")
    assert _decide(t, 0) == ("play", "blue_3")


def test_default_climber_and_farmer_disagree_on_the_same_hand():
    for seat, expected in (("climber", "blue_1"), ("skeleton_farmer", "red_1")):
        t = Table(seats=(seat, "climber"))
        _two_skeletons_here(t)
        _hand(t, 0, "blue_1", "red_1")
        t.s[L.SC + L.SC_TOP] = -1
        _hand(t, 0, "red_1", "blue_1") if seat == "climber" else None
        assert _decide(t, 0) == ("play", expected)


def _team_position(t, partner_floor):
    """Seat 0 holds purple_1 and red_2 (one sword each, worth the same on an empty floor up high); the partner
    holds red_5, which can follow red_2 but not purple_1."""
    t.set_floor(0, 4)                       # 001's top floor: no skeletons; both cards climb 0 or 1
    t.set_floor(1, partner_floor)
    _hand(t, 0, "purple_1", "red_3")        # purple_1: 1 sword (useless here); red_3: 2 swords (useless)
    _hand(t, 1, "red_5")
    t.s[L.PL + L.PL_REDRAWS] = 1            # its redraw used: with nothing worth playing it plays the first card


@pytest.mark.parametrize("team, expected", [(0.0, "purple_1"), (0.5, "red_3")])
def test_team_weight_plays_a_card_the_partner_can_follow_when_its_hand_is_visible(team, expected):
    t = Table(seats=("climber", "climber"), params={0: {"team_weight": team}})
    _team_position(t, partner_floor=4)
    assert t.floor(0) == t.floor(1)
    assert _decide(t, 0) == ("play", expected)
    assert t.s[L.VIEW_TALK] == 1 and t.s[L.VIEW_PARTNER_N] == 1


def test_the_partner_hand_is_hidden_on_different_floors_so_the_same_strategy_plays_otherwise():
    """The information limit is real: the same hand, the same parameters, only the partner's floor differs."""
    seen = Table(seats=("climber", "climber"), params={0: {"team_weight": 0.5}})
    _team_position(seen, partner_floor=4)
    hidden = Table(seats=("climber", "climber"), params={0: {"team_weight": 0.5}})
    _team_position(hidden, partner_floor=3)
    assert _decide(seen, 0) == ("play", "red_3")
    assert _decide(hidden, 0) == ("play", "purple_1")           # hand order: it cannot know red_3 helps
    assert hidden.s[L.VIEW_TALK] == 0 and hidden.s[L.VIEW_PARTNER_N] == -1


@pytest.mark.parametrize("talk, same_floor, visible", [("always", False, 1), ("never", True, 0),
                                                        ("same_floor", True, 1), ("same_floor", False, 0)])
def test_communication_option_decides_what_the_view_holds(talk, same_floor, visible):
    t = Table(rules={"communication": talk})
    t.set_floor(1, 0 if same_floor else 3)
    _hand(t, 1, "red_5", "blue_2")
    S.fill_view_nb(t.s, 0)
    assert int(t.s[L.VIEW_TALK]) == visible
    if visible:
        assert t.s[L.VIEW_PARTNER] == (1 << t.card("red_5")) | (1 << t.card("blue_2"))
    else:
        assert t.s[L.VIEW_PARTNER_N] == -1 and t.s[L.VIEW_PARTNER] == 0


def test_nothing_worth_playing_completes_the_partners_exchange_then_redraws():
    t = Table(seats=("climber", "climber"))
    t.deck_only("purple_1", "purple_3", "purple_5", "red_1", "red_3", "red_5", "gold_1", "gold_2")
    t.deals("purple_1", "purple_3", "purple_5", "red_1", "red_3", "red_5", "gold_1", "gold_2")
    deal_nb(t.s, 0)
    t.set_floor(0, 4)                       # swords are worth nothing on an empty floor; no arrows in hand
    t.set_floor(1, 0)
    assert _decide(t, 0) == ("redraw", "purple_1")          # worth 0 everywhere: redraw the first
    t.s[L.PL + 1 * L.N_PL + L.PL_DOWN] = t.card("red_1")       # the partner has offered
    assert _decide(t, 0) == ("offer", "purple_1")


def test_an_exchange_gives_the_partner_the_card_worth_most_to_it_when_its_hand_is_visible():
    def position(partner_floor):
        t = Table(seats=("climber", "climber"))
        t.set_floor(0, 4)                    # 001's top floor: nothing on the left, two skeletons put on the right
        t.set_floor(1, partner_floor)
        t.set_standing(4, 1, 2)
        _hand(t, 0, "purple_1", "red_1")     # 1 and 2 swords: worth 0 to seat 0 (left side), 1 and 2 to the partner
        _hand(t, 1, "blue_2")                # follows neither
        t.s[L.PL + 1 * L.N_PL + L.PL_DOWN] = t.card("gold_4")
        return t
    assert _decide(position(4), 0) == ("offer", "red_1")        # sees the partner: gives what helps it most
    assert _decide(position(2), 0) == ("offer", "purple_1")     # blind: its own least worth card, the first


def test_random_is_uniform_over_the_legal_rows():
    t = Table(seats=("random", "random"))
    t.deck_only("purple_1", "purple_2", "purple_3", "purple_4", "purple_5", "purple_6", "red_1", "red_2")
    t.deals("purple_1", "purple_2", "purple_3", "purple_4", "purple_5", "purple_6", "red_1", "red_2")
    deal_nb(t.s, 0)
    n = legal_nb(t.s, 0)
    assert n == 9                                         # 3 plays, 3 redraws, 3 offers
    counts = Counter(int(S.turn_nb(t.s, t.f, 0, n)) for _ in range(9000))
    assert set(counts) == set(range(9))
    assert all(abs(c - 1000) < 150 for c in counts.values())     # about 6 standard deviations



# --- a sword that could defeat a skeleton: defeat or spare (the rulebook's "can defeat") ---------------------------

def _draws(t, p):
    """Numbers seat p's strategy stream has drawn (its counter word)."""
    return int(t.s[int(L.stream_at(1 + p)) + 1])


@pytest.mark.parametrize("seat", ["climber", "skeleton_farmer", "deck_thinner"])
@pytest.mark.parametrize("spare, answer", [(0.0, E.SWORD_DEFEAT), (1.0, E.SWORD_SPARE)])
def test_spare_zero_always_defeats_and_one_always_spares_without_a_draw(seat, spare, answer):
    t = Table(seats=(seat, seat), params={0: {"spare": spare}})
    _two_skeletons_here(t)
    before = _draws(t, 0)
    assert {int(S.sword_nb(t.s, t.f, 0)) for _ in range(50)} == {answer}
    assert _draws(t, 0) == before


def test_spare_between_spares_that_share_of_the_swords_from_the_seats_own_stream():
    t = Table(seats=("climber", "climber"), params={0: {"spare": 0.3}})
    _two_skeletons_here(t)
    before = (_draws(t, 0), _draws(t, 1))
    answers = Counter(int(S.sword_nb(t.s, t.f, 0)) for _ in range(10000))
    assert abs(answers[E.SWORD_SPARE] - 3000) < 280 and answers[E.SWORD_SPARE] + answers[E.SWORD_DEFEAT] == 10000
    assert (_draws(t, 0), _draws(t, 1)) == (before[0] + 10000, before[1])     # (280: about 6 standard deviations)


def test_random_defeats_or_spares_with_even_chances():
    t = Table(seats=("random", "random"))
    _two_skeletons_here(t)
    answers = Counter(int(S.sword_nb(t.s, t.f, 0)) for _ in range(10000))
    assert set(answers) == {E.SWORD_DEFEAT, E.SWORD_SPARE} and abs(answers[E.SWORD_SPARE] - 5000) < 300


@pytest.mark.parametrize("spare", [0.0, 0.5, 1.0])
def test_spare_in_whole_games(spare):
    """Over whole games, a farmer that spares every skeleton defeats none (and earns no skeleton gold), one that
    spares none never leaves a spare row; in between it does both."""
    from balance.games.climbing_tower import SPEC
    from balance.scenario import load_scenario
    sc = load_scenario({"game": "climbing_tower", "players": 2, "seats": [
        {"name": "skeleton_farmer", "spare": spare}, {"name": "skeleton_farmer", "spare": spare}]})
    out = SPEC.run_chunk(SPEC.compile_scenario(sc), seed=3, rotate=False, game0=0, n_games=300, n_blocks=1)
    skeletons = int(out["final"][:, :, L.FN_SKELETONS].sum())
    gold = int(out["team"][:, 0, 0, L.TM_GOLD].sum())
    if spare == 1.0:
        assert skeletons == 0 and gold == 0
    else:
        assert skeletons > 1000 and gold > 0
    if spare == 0.5:
        ref = SPEC.run_chunk(SPEC.compile_scenario(load_scenario({"game": "climbing_tower", "players": 2, "seats": [
            {"name": "skeleton_farmer"}, {"name": "skeleton_farmer"}]})), seed=3, rotate=False, game0=0,
            n_games=300, n_blocks=1)
        assert skeletons < int(ref["final"][:, :, L.FN_SKELETONS].sum())

# --- build phase ------------------------------------------------------------------------------------------------

def _build_choice(t, p=0):
    from balance.games.climbing_tower.rules.build import build_options_nb, build_row_nb
    n = build_options_nb(t.s)
    act, arg = build_row_nb(t.s, S.build_nb(t.s, t.f, p, n))
    return E.BUILD_NAMES[int(act)], int(arg)


def test_heuristics_buy_level3_with_two_gold_then_level2_then_stop():
    t = Table(seats=("climber", "climber"))
    t.s[L.SC + L.SC_GOLD] = 2
    assert _build_choice(t) == ("Y", 2)
    t.s[L.SC + L.SC_GOLD] = 1
    assert _build_choice(t) == ("R", 0)
    t.s[L.SC + L.SC_GOLD] = 0
    assert _build_choice(t) == ("stop", -1)


@pytest.mark.parametrize("seat, pile", [("climber", 1), ("skeleton_farmer", 0)])
def test_easy_supply_heuristics_pick_the_pile_their_weights_prefer(seat, pile):
    t = Table(rules={"supply": "easy"}, seats=(seat, seat))
    t.s[L.SC + L.SC_GOLD] = 1
    assert _build_choice(t) == ("R", pile)              # pile 0 red (swords), pile 1 blue (arrows)


@pytest.mark.parametrize("keep, expected", [(7.0, "U"), (7.9, "U"), (8.0, "Y")])
def test_deck_thinner_removes_while_the_deck_holds_more_than_keep(keep, expected):
    t = Table(seats=("deck_thinner", "climber"), params={0: {"keep": keep}}, game=2)
    t.s[L.SC + L.SC_GOLD] = 2
    assert t.sc(L.SC_DECK_N) == 8
    act, arg = _build_choice(t)
    assert act == expected
    if act == "U":                                      # the weakest: one icon, level 1, lowest id
        assert t.names[arg] == "purple_1"


def test_non_thinners_never_remove_cards():
    for seat in ("climber", "skeleton_farmer"):
        t = Table(seats=(seat, seat), rules={"min_deck": 0})
        t.s[L.SC + L.SC_GOLD] = 1
        t.s[L.SC + L.SC_PILE_I] = t.sc(L.SC_PILE_N)        # Level 2 pile empty: only stop or U
        assert _build_choice(t) == ("stop", -1)


# --- whole runs: the limit costs something, and seats are symmetric only as documented -------------------------

def test_lifting_the_communication_limit_changes_the_games():
    from balance.games.climbing_tower import SPEC
    from balance.scenario import load_scenario
    outs = {}
    for talk in ("same_floor", "always", "never"):
        sc = load_scenario({"game": "climbing_tower", "players": 2, "seats": [{"name": "climber"},
                            {"name": "skeleton_farmer"}], "rules": {"communication": talk}})
        out = SPEC.run_chunk(SPEC.compile_scenario(sc), seed=5, rotate=True, game0=0, n_games=4000, n_blocks=1)
        outs[talk] = out
    assert not np.array_equal(outs["same_floor"]["turns"], outs["always"]["turns"])
    assert not np.array_equal(outs["same_floor"]["turns"], outs["never"]["turns"])
