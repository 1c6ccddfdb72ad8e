"""Climbing Tower build and next-round phases (rulebook, phases 2 and 3): spending the round's gold on R, Y and U,
unspent gold lost; then skills for cleared cards both pawns have moved on from, the tokens of cards left behind,
tokens onto the skeletons of cards placed short, and skeletons onto the cards the pawns have reached."""
from __future__ import annotations

from ....core.jit import rules_jit_flat
from .. import enums as E
from ..layout import (OWNED, CC_BOUGHT, CC_REMOVED, FLOOR_HI, FLOOR_LO, LOC, OPT, OPT_LEFT_BEHIND, OPT_MIN_DECK, OPT_N_CARDS,
                     OPT_SKILL_GOLD, PL_FLOOR, POS_FLIPPED, POS_PLACED, POS_SLOT0, POS_TC, SC, SC_BOSS_DMG, DECK,
                     SC_PILE_TOP, SC_BOSS_ROW, SC_DECK_N, SC_GOLD, SC_N_BUILD, SC_N_POS, SC_PILE_I, SC_PILE_N, SC_ROUND,
                     SC_SKILLS, SC_SUPPLY_TOKENS, SK_GAINED, SK_ROUND, SK_USED, SLOT_POS, TEAM, TF_N_FLOORS,
                     TF_SAME_ROUND, TF_SKILL, TM_BONUS, TM_BOUGHT, TM_REMOVED, at, cand_at, cc_at, pile_at, pl_at,
                     sk_at, standing_at, tc_at, CF_LEVEL, card_at, ON_FLOOR, SLOT_FLOOR, OPT_TOP_UP, missing_at)
from .setup import emit_nb, missing_on_card_nb, place_nb, top_up_nb


@rules_jit_flat
def return_cards_nb(s):
    """Every card of the round (hands, face down, played, discarded, the draw pile: the deck's own cards) back into
    the common deck: those dealt or drawn (the deal's order up to the draw pile's top); the draw pile's never left."""
    for i in range(s[SC + SC_PILE_TOP]):
        s[at(LOC, s[at(DECK, i)])] = E.LOC_DECK


@rules_jit_flat
def skill_gold_nb(s):
    """The bonus_gold skill: its gold at the start of every build phase (from the tokens in the supply)."""
    if (s[SC + SC_SKILLS] >> E.SKILL_BONUS_GOLD) & 1:
        g = min(s[OPT + OPT_SKILL_GOLD], s[SC + SC_SUPPLY_TOKENS])
        s[SC + SC_SUPPLY_TOKENS] -= g
        s[SC + SC_GOLD] += g
        s[TEAM + TM_BONUS] += g
        s[sk_at(E.SKILL_BONUS_GOLD, SK_USED)] += 1
        emit_nb(s, E.EV_BONUS, -1, g, 1, 0)


@rules_jit_flat
def build_options_nb(s):
    """The number of legal build actions, rows (action, argument) in this order: stop; R from each non-empty Level 2
    pile (one pile in Hard, red then blue in Easy); Y; U for each card of the deck (ascending ids) while it holds
    more than ``min_deck`` cards. The rows up to Y are written (CAND, s[SC_N_BUILD] of them); the U rows follow from
    the deck list: :func:`build_row_nb` reads any row."""
    gold = s[SC + SC_GOLD]
    s[cand_at(0, 0)] = E.BUILD_STOP
    s[cand_at(0, 1)] = -1
    n = 1
    for k in range(2):
        if gold >= 1 and s[SC + SC_PILE_I + k] < s[SC + SC_PILE_N + k]:
            s[cand_at(n, 0)] = E.BUILD_R
            s[cand_at(n, 1)] = k
            n += 1
    if gold >= 2 and s[SC + SC_PILE_I + 2] < s[SC + SC_PILE_N + 2]:
        s[cand_at(n, 0)] = E.BUILD_Y
        s[cand_at(n, 1)] = 2
        n += 1
    s[SC + SC_N_BUILD] = n
    if gold >= 1 and s[SC + SC_DECK_N] > s[OPT + OPT_MIN_DECK]:
        n += s[SC + SC_DECK_N]
    return n


@rules_jit_flat
def build_row_nb(s, i):
    """Row i of the build rows (:func:`build_options_nb`, just called): (action, argument)."""
    written = s[SC + SC_N_BUILD]
    if i < written:
        return s[cand_at(i, 0)], s[cand_at(i, 1)]
    return E.BUILD_U, s[at(OWNED, i - written)]


@rules_jit_flat
def build_one_nb(s, builder, act, arg):
    """Carry out one build action."""
    if act == E.BUILD_U:
        s[at(LOC, arg)] = E.LOC_OUT
        leave_deck_nb(s, arg)
        s[cc_at(arg, CC_REMOVED)] += 1
        s[TEAM + TM_REMOVED] += 1
        pay_nb(s, 1)
        emit_nb(s, E.EV_REMOVE, builder, arg, 0, 0)
        return
    i = s[SC + SC_PILE_I + arg]
    c = s[pile_at(arg, i)]
    s[SC + SC_PILE_I + arg] = i + 1
    s[at(LOC, c)] = E.LOC_DECK
    join_deck_nb(s, c)
    s[cc_at(c, CC_BOUGHT)] += 1
    s[TEAM + TM_BOUGHT] += 1
    pay_nb(s, 1 if act == E.BUILD_R else 2)
    emit_nb(s, E.EV_BUY, builder, s[card_at(c, CF_LEVEL)], c, arg)


@rules_jit_flat
def join_deck_nb(s, c):
    """Card c joins the deck list, kept in ascending ids."""
    i = s[SC + SC_DECK_N]
    while i > 0 and s[at(OWNED, i - 1)] > c:
        s[at(OWNED, i)] = s[at(OWNED, i - 1)]
        i -= 1
    s[at(OWNED, i)] = c
    s[SC + SC_DECK_N] += 1


@rules_jit_flat
def leave_deck_nb(s, c):
    """Card c leaves the deck list."""
    n = s[SC + SC_DECK_N]
    j = 0
    for i in range(n):
        x = s[at(OWNED, i)]
        if x != c:
            s[at(OWNED, j)] = x
            j += 1
    s[SC + SC_DECK_N] = j


@rules_jit_flat
def pay_nb(s, gold):
    s[SC + SC_GOLD] -= gold
    s[SC + SC_SUPPLY_TOKENS] += gold


@rules_jit_flat
def top_card_nb(s, p):
    """The highest tower card p's floor reaches: p's pawn has moved on from every card below it."""
    return s[at(SLOT_POS, s[at(FLOOR_HI, s[pl_at(p, PL_FLOOR)])])]


@rules_jit_flat
def left_nb(s, p, pos):
    """Has p's pawn left tower card `pos` altogether (no slot of its floor on that card)?"""
    return s[at(SLOT_POS, s[at(FLOOR_LO, s[pl_at(p, PL_FLOOR)])])] > pos


@rules_jit_flat
def on_card_nb(s, p, pos):
    floor = s[pl_at(p, PL_FLOOR)]
    return s[at(SLOT_POS, s[at(FLOOR_LO, floor)])] <= pos <= s[at(SLOT_POS, s[at(FLOOR_HI, floor)])]


@rules_jit_flat
def card_standing_nb(s, pos):
    n = 0
    first = s[at(POS_SLOT0, pos)]
    for slot in range(first, first + s[tc_at(s[at(POS_TC, pos)], TF_N_FLOORS)]):
        n += s[standing_at(slot, 0)] + s[standing_at(slot, 1)]
    return n


@rules_jit_flat
def next_round_nb(s):
    """3. Next round: unspent gold lost; the BOSS's hits reset when they must come in one round; a tower card every
    skeleton drawn on which was defeated, once both pawns moved on from it, flips and its skill is gained (once per
    skill); a card both pawns left with skeletons undefeated gives nothing, its tokens back to the supply (by
    option); tokens onto the skeletons of cards in play that lack one (by option), lowest card first; skeletons
    onto each card a pawn now stands on, lowest first."""
    s[SC + SC_SUPPLY_TOKENS] += s[SC + SC_GOLD]
    s[SC + SC_GOLD] = 0
    if s[tc_at(s[SC + SC_BOSS_ROW], TF_SAME_ROUND)] == 1:
        s[SC + SC_BOSS_DMG] = 0
    n_pos = s[SC + SC_N_POS]
    moved_on = min(top_card_nb(s, 0), top_card_nb(s, 1))    # both pawns moved on from the cards below this one
    for pos in range(min(n_pos - 1, moved_on)):     # (left behind: left by both, so moved on from, too)
        if s[at(POS_FLIPPED, pos)] != 0 or s[at(POS_PLACED, pos)] == 0:
            continue
        standing = card_standing_nb(s, pos)
        if standing + missing_on_card_nb(s, pos) == 0:
            s[at(POS_FLIPPED, pos)] = 1
            k = s[tc_at(s[at(POS_TC, pos)], TF_SKILL)]
            if (s[SC + SC_SKILLS] >> k) & 1:
                emit_nb(s, E.EV_SKILL, -1, pos, -1, 0)
            else:
                s[SC + SC_SKILLS] |= 1 << k
                s[sk_at(k, SK_GAINED)] = 1
                s[sk_at(k, SK_ROUND)] = s[SC + SC_ROUND]
                emit_nb(s, E.EV_SKILL, -1, pos, k, 0)
        elif left_nb(s, 0, pos) and left_nb(s, 1, pos):
            s[at(POS_FLIPPED, pos)] = 2
            if s[OPT + OPT_LEFT_BEHIND] == E.LEFT_BEHIND_RETURN:
                first = s[at(POS_SLOT0, pos)]
                for slot in range(first, first + s[tc_at(s[at(POS_TC, pos)], TF_N_FLOORS)]):
                    for side in range(2):
                        s[SC + SC_SUPPLY_TOKENS] += s[standing_at(slot, side)]
                        s[at(ON_FLOOR, 2 * s[at(SLOT_FLOOR, slot)] + side)] -= s[standing_at(slot, side)]
                        s[missing_at(slot, side)] += s[standing_at(slot, side)]
                        s[standing_at(slot, side)] = 0
                emit_nb(s, E.EV_RETURN, -1, pos, standing, 0)
    if s[OPT + OPT_TOP_UP] == E.TOP_UP_NEXT_ROUND:
        for pos in range(n_pos):        # cards placed short, still in play (not flipped, not left behind)
            if s[at(POS_PLACED, pos)] == 1 and s[at(POS_FLIPPED, pos)] == 0:
                top_up_nb(s, pos)
    for pos in range(max(top_card_nb(s, 0), top_card_nb(s, 1)) + 1):     # no pawn on a card above
        if s[at(POS_PLACED, pos)] == 0 and (on_card_nb(s, 0, pos) or on_card_nb(s, 1, pos)):
            place_nb(s, pos)
