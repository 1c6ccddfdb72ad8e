"""Climbing Tower build and next-round phases (rulebook, phases 2 and 3): spending the round's gold on R, Y and U,
unspent gold lost; then skills for cleared cards both pawns have moved on from, the tokens of cards left behind,
tokens onto the skeletons of cards placed short, and skeletons onto the cards the pawns have reached."""
from __future__ import annotations

from ....core.jit import rules_jit_flat
from .. import enums
from ..layout import (BOSS_DAMAGE, BOSS_IN_PLAY, CC_BOUGHT, CC_REMOVED, CF_LEVEL, DECK, DECK_SIZE, DRAW_PILE_TOP,
                      FLOOR_HI, FLOOR_LO, GOLD, LEFT_BEHIND, LOC, MIN_DECK, N_BUILD_ROWS, N_POSITIONS, ON_FLOOR, OWNED,
                      PILE_NEXT, PILE_SIZE, PL_FLOOR, POS_FLIPPED, POS_PLACED, POS_SLOT0, POS_TC, ROUND, SKILLS,
                      SKILL_GOLD, SK_GAINED, SK_ROUND, SK_USED, SLOT_FLOOR, SLOT_POS, SUPPLY_TOKENS, TEAM_BONUS_GOLD,
                      TEAM_BOUGHT, TEAM_REMOVED, TF_N_FLOORS, TF_SAME_ROUND, TF_SKILL, TOP_UP, at, cand_at, card_at,
                      cc_at, missing_at, pile_at, pl_at, sk_at, standing_at, tc_at)
from .setup import emit_nb, missing_on_card_nb, place_nb, top_up_nb


@rules_jit_flat
def return_cards_nb(state):
    """Every card of the round (hands, face down, played, discarded, the draw pile: the deck's own cards) back into
    the common deck: those dealt or drawn (the deal's order up to the draw pile's top); the draw pile's never left."""
    for i in range(state[DRAW_PILE_TOP]):
        state[at(LOC, state[at(DECK, i)])] = enums.LOC_DECK


@rules_jit_flat
def skill_gold_nb(state):
    """The bonus_gold skill: its gold at the start of every build phase (from the tokens in the supply)."""
    if (state[SKILLS] >> enums.SKILL_BONUS_GOLD) & 1:
        g = min(state[SKILL_GOLD], state[SUPPLY_TOKENS])
        state[SUPPLY_TOKENS] -= g
        state[GOLD] += g
        state[TEAM_BONUS_GOLD] += g
        state[sk_at(enums.SKILL_BONUS_GOLD, SK_USED)] += 1
        emit_nb(state, enums.EV_BONUS, -1, g, 1, 0)


@rules_jit_flat
def build_options_nb(state):
    """The number of legal build actions, rows (action, argument) in this order: stop; R from each non-empty Level 2
    pile (one pile in Hard, red then blue in Easy); Y; U for each card of the deck (ascending ids) while it holds more
    than ``min_deck`` cards. The rows up to Y are written (CAND, state[N_BUILD_ROWS] of them); the U rows follow from
    the deck list: :func:`build_row_nb` reads any row."""
    gold = state[GOLD]
    state[cand_at(0, 0)] = enums.BUILD_STOP
    state[cand_at(0, 1)] = -1
    n = 1
    for k in range(2):
        if gold >= 1 and state[PILE_NEXT + k] < state[PILE_SIZE + k]:
            state[cand_at(n, 0)] = enums.BUILD_R
            state[cand_at(n, 1)] = k
            n += 1
    if gold >= 2 and state[PILE_NEXT + 2] < state[PILE_SIZE + 2]:
        state[cand_at(n, 0)] = enums.BUILD_Y
        state[cand_at(n, 1)] = 2
        n += 1
    state[N_BUILD_ROWS] = n
    if gold >= 1 and state[DECK_SIZE] > state[MIN_DECK]:
        n += state[DECK_SIZE]
    return n


@rules_jit_flat
def build_row_nb(state, i):
    """Row i of the build rows (:func:`build_options_nb`, just called): (action, argument)."""
    written = state[N_BUILD_ROWS]
    if i < written:
        return state[cand_at(i, 0)], state[cand_at(i, 1)]
    return enums.BUILD_U, state[at(OWNED, i - written)]


@rules_jit_flat
def build_one_nb(state, builder, act, arg):
    """Carry out one build action."""
    if act == enums.BUILD_U:
        state[at(LOC, arg)] = enums.LOC_OUT
        leave_deck_nb(state, arg)
        state[cc_at(arg, CC_REMOVED)] += 1
        state[TEAM_REMOVED] += 1
        pay_nb(state, 1)
        emit_nb(state, enums.EV_REMOVE, builder, arg, 0, 0)
        return
    i = state[PILE_NEXT + arg]
    c = state[pile_at(arg, i)]
    state[PILE_NEXT + arg] = i + 1
    state[at(LOC, c)] = enums.LOC_DECK
    join_deck_nb(state, c)
    state[cc_at(c, CC_BOUGHT)] += 1
    state[TEAM_BOUGHT] += 1
    pay_nb(state, 1 if act == enums.BUILD_R else 2)
    emit_nb(state, enums.EV_BUY, builder, state[card_at(c, CF_LEVEL)], c, arg)


@rules_jit_flat
def join_deck_nb(state, c):
    """Card c joins the deck list, kept in ascending ids."""
    i = state[DECK_SIZE]
    while i > 0 and state[at(OWNED, i - 1)] > c:
        state[at(OWNED, i)] = state[at(OWNED, i - 1)]
        i -= 1
    state[at(OWNED, i)] = c
    state[DECK_SIZE] += 1


@rules_jit_flat
def leave_deck_nb(state, c):
    """Card c leaves the deck list."""
    n = state[DECK_SIZE]
    j = 0
    for i in range(n):
        x = state[at(OWNED, i)]
        if x != c:
            state[at(OWNED, j)] = x
            j += 1
    state[DECK_SIZE] = j


@rules_jit_flat
def pay_nb(state, gold):
    state[GOLD] -= gold
    state[SUPPLY_TOKENS] += gold


@rules_jit_flat
def top_card_nb(state, p):
    """The highest tower card p's floor reaches: p's pawn has moved on from every card below it."""
    return state[at(SLOT_POS, state[at(FLOOR_HI, state[pl_at(p, PL_FLOOR)])])]


@rules_jit_flat
def left_nb(state, p, pos):
    """Has p's pawn left tower card `pos` altogether (no slot of its floor on that card)?"""
    return state[at(SLOT_POS, state[at(FLOOR_LO, state[pl_at(p, PL_FLOOR)])])] > pos


@rules_jit_flat
def on_card_nb(state, p, pos):
    floor = state[pl_at(p, PL_FLOOR)]
    return state[at(SLOT_POS, state[at(FLOOR_LO, floor)])] <= pos <= state[at(SLOT_POS, state[at(FLOOR_HI, floor)])]


@rules_jit_flat
def card_standing_nb(state, pos):
    n = 0
    first = state[at(POS_SLOT0, pos)]
    for slot in range(first, first + state[tc_at(state[at(POS_TC, pos)], TF_N_FLOORS)]):
        n += state[standing_at(slot, 0)] + state[standing_at(slot, 1)]
    return n


@rules_jit_flat
def next_round_nb(state):
    """3. Next round: unspent gold lost; the BOSS's hits reset when they must come in one round; a tower card every
    skeleton drawn on which was defeated, once both pawns moved on from it, flips and its skill is gained (once per
    skill); a card both pawns left with skeletons undefeated gives nothing, its tokens back to the supply (by
    option); tokens onto the skeletons of cards in play that lack one (by option), lowest card first; skeletons
    onto each card a pawn now stands on, lowest first."""
    state[SUPPLY_TOKENS] += state[GOLD]
    state[GOLD] = 0
    if state[tc_at(state[BOSS_IN_PLAY], TF_SAME_ROUND)] == 1:
        state[BOSS_DAMAGE] = 0
    n_pos = state[N_POSITIONS]
    moved_on = min(top_card_nb(state, 0), top_card_nb(state, 1))    # both pawns moved on from the cards below this one
    for pos in range(min(n_pos - 1, moved_on)):     # (left behind: left by both, so moved on from, too)
        if state[at(POS_FLIPPED, pos)] != 0 or state[at(POS_PLACED, pos)] == 0:
            continue
        standing = card_standing_nb(state, pos)
        if standing + missing_on_card_nb(state, pos) == 0:
            state[at(POS_FLIPPED, pos)] = 1
            k = state[tc_at(state[at(POS_TC, pos)], TF_SKILL)]
            if (state[SKILLS] >> k) & 1:
                emit_nb(state, enums.EV_SKILL, -1, pos, -1, 0)
            else:
                state[SKILLS] |= 1 << k
                state[sk_at(k, SK_GAINED)] = 1
                state[sk_at(k, SK_ROUND)] = state[ROUND]
                emit_nb(state, enums.EV_SKILL, -1, pos, k, 0)
        elif left_nb(state, 0, pos) and left_nb(state, 1, pos):
            state[at(POS_FLIPPED, pos)] = 2
            if state[LEFT_BEHIND] == enums.LEFT_BEHIND_RETURN:
                first = state[at(POS_SLOT0, pos)]
                for slot in range(first, first + state[tc_at(state[at(POS_TC, pos)], TF_N_FLOORS)]):
                    for side in range(2):
                        state[SUPPLY_TOKENS] += state[standing_at(slot, side)]
                        state[at(ON_FLOOR, 2 * state[at(SLOT_FLOOR, slot)] + side)] -= state[standing_at(slot, side)]
                        state[missing_at(slot, side)] += state[standing_at(slot, side)]
                        state[standing_at(slot, side)] = 0
                emit_nb(state, enums.EV_RETURN, -1, pos, standing, 0)
    if state[TOP_UP] == enums.TOP_UP_NEXT_ROUND:
        for pos in range(n_pos):        # cards placed short, still in play (not flipped, not left behind)
            if state[at(POS_PLACED, pos)] == 1 and state[at(POS_FLIPPED, pos)] == 0:
                top_up_nb(state, pos)
    for pos in range(max(top_card_nb(state, 0), top_card_nb(state, 1)) + 1):     # no pawn on a card above
        if state[at(POS_PLACED, pos)] == 0 and (on_card_nb(state, 0, pos) or on_card_nb(state, 1, pos)):
            place_nb(state, pos)
