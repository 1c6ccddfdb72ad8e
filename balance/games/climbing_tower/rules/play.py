"""Climbing Tower play phase (rulebook, Play phase): the deal, the legal actions, redraw, exchange, playing a card
and its icons (swords against skeletons or the BOSS, arrows up the tower), and the end of the phase (groups that did
not all fall stand again; gold; the empty-hand bonus)."""
from __future__ import annotations

from ....core.jit import rules_jit_flat
from ....core.rng import flat_shuffle_nb
from ...kernel_common import lowest_bit_nb, next_scripted_nb
from .. import enums
from ..layout import (BLOCKED_SEAT, BOSS_DAMAGE, BOSS_IN_PLAY, CC_DEALT, CC_PLAYED, CF_ARROWS, CF_SWORDS, DEAL_SCRIPT,
                      DECK, DECK_SIZE, DRAW_PILE_TOP, EMPTY_HAND_BONUS, ENDED, FLOOR_HI, FLOOR_LO, FN_BLOCKED,
                      FN_BOSS_HITS, FN_CLIMBED, FN_OFFERS, FN_PASSES, FN_PLAYED, FN_REDRAWS, FN_SKELETONS, FN_SWORDS,
                      FOLLOWS, FREE_PLAY_USED, GOLD, HAND_SIZE, HIT_FLOORS, ICON_ORDER, LOC, M_DEAL_I, M_DEAL_N,
                      N_FLOORS, N_PLAY_ROWS, N_REDRAW_ROWS, ON_FLOOR, OWNED, PL_DOWN, PL_FLOOR, PL_HAND_N, PL_OFFERED,
                      PL_REDRAWS, PL_SIDE, REDRAWS, ROUND, SKILLS, SK_USED, SUPPLY_TOKENS, TEAM_BLOCKED_ROUNDS,
                      TEAM_BONUS_GOLD, TEAM_GOLD, TF_BOTH, TF_HP, TOP_CARD, TRACE, TURN, VICTORY, WINNER, at, cand_at,
                      card_at, cc_at, final_at, hand_at, hit_at, missing_at, pl_at, sk_at, standing_at, stream_at,
                      tc_at)
from .. import strategies
from .setup import SHUFFLE, emit_nb, standing_on_nb  # noqa: F401  (standing_on_nb: for importers of play)


@rules_jit_flat
def deal_nb(state, start):
    """Shuffle the common deck (ascending card ids, then the shuffle stream, or the test's deal script; a ``shuffle``
    row per card, top first) and deal ``hand_size`` cards to the start player, then as many to the other; the rest
    is the draw pile."""
    n = state[DECK_SIZE]
    for i in range(n):
        state[at(DECK, i)] = state[at(OWNED, i)]
    if state[M_DEAL_I] < state[M_DEAL_N]:
        for i in range(n):
            state[at(DECK, i)] = next_scripted_nb(state, DEAL_SCRIPT, M_DEAL_N, M_DEAL_I, state[at(DECK, i)])
    else:
        flat_shuffle_nb(state, DECK, n, stream_at(SHUFFLE))
    if state.shape[0] > TRACE:      # the deck's order, top first, for a trace (no loop in a batch run)
        for i in range(n):
            emit_nb(state, enums.EV_SHUFFLE, -1, enums.STACK_DECK, i, state[at(DECK, i)])
    h = state[HAND_SIZE]
    top = 0
    for k in range(2):
        p = start if k == 0 else 1 - start
        m = min(h, n - top)
        for i in range(m):
            c = state[at(DECK, top + i)]
            state[hand_at(p, i)] = c
            state[at(LOC, c)] = enums.LOC_HAND + p
            state[cc_at(c, CC_DEALT)] += 1
            emit_nb(state, enums.EV_DEAL, p, c, 0, 0)
        state[pl_at(p, PL_HAND_N)] = m
        top += m
    state[DRAW_PILE_TOP] = top


@rules_jit_flat
def has_skill_nb(state, k):
    return (state[SKILLS] >> k) & 1


@rules_jit_flat
def legal_nb(state, p):
    """The number of player p's legal actions, rows (action, card) in this order: plays (C: a card that shows the top
    card's colour or number, any card first) in hand order (free plays with the free_play skill unused this round, for
    cards that do not match), then a redraw of each card in hand order, then an offer of each; 0 with an empty hand or
    when nothing is possible. Only the play rows are written (CAND, state[N_PLAY_ROWS] of them; the row after them may
    hold scratch); the redraw and offer rows follow from the hand (state[N_REDRAW_ROWS] redraws): :func:`turn_row_nb`
    reads any row."""
    n_hand = state[pl_at(p, PL_HAND_N)]
    top = state[TOP_CARD]
    free = has_skill_nb(state, enums.SKILL_FREE_PLAY) == 1 and state[FREE_PLAY_USED] == 0
    follows = state[at(FOLLOWS, top)] if top >= 0 else -1     # bit c: card c shows the top card's colour or number
    n = 0
    for i in range(n_hand):     # each card written as the next row, which it becomes when it may be played
        c = state[hand_at(p, i)]
        match = (follows >> c) & 1
        state[cand_at(n, 0)] = enums.ACT_PLAY if match else enums.ACT_FREE
        state[cand_at(n, 1)] = c
        n += match | free
    state[N_PLAY_ROWS] = n
    redraws = state[REDRAWS] + has_skill_nb(state, enums.SKILL_EXTRA_REDRAW)
    n_redraw = n_hand if state[pl_at(p, PL_REDRAWS)] < redraws and state[DRAW_PILE_TOP] < state[DECK_SIZE] else 0
    state[N_REDRAW_ROWS] = n_redraw
    n_offer = 0
    if state[pl_at(p, PL_OFFERED)] == 0:
        n_offer = n_hand
    return n + n_redraw + n_offer


@rules_jit_flat
def turn_row_nb(state, p, i):
    """Row i of player p's legal rows (:func:`legal_nb`, just called): (action, card)."""
    n_play = state[N_PLAY_ROWS]
    if i < n_play:
        return state[cand_at(i, 0)], state[cand_at(i, 1)]
    j = i - n_play
    n_redraw = state[N_REDRAW_ROWS]
    if j < n_redraw:
        return enums.ACT_REDRAW, state[hand_at(p, j)]
    return enums.ACT_OFFER, state[hand_at(p, j - n_redraw)]


@rules_jit_flat
def take_from_hand_nb(state, p, c):
    """Remove card c from p's hand, keeping the order of the others."""
    n = state[pl_at(p, PL_HAND_N)]
    j = 0
    for i in range(n):          # each card written at the next place, which it keeps unless it is c
        x = state[hand_at(p, i)]
        state[hand_at(p, j)] = x
        j += x != c
    state[pl_at(p, PL_HAND_N)] = j


@rules_jit_flat
def to_hand_nb(state, p, c):
    n = state[pl_at(p, PL_HAND_N)]
    state[hand_at(p, n)] = c
    state[pl_at(p, PL_HAND_N)] = n + 1
    state[at(LOC, c)] = enums.LOC_HAND + p


@rules_jit_flat
def redraw_nb(state, p, c):
    """A. Redraw: c face up on the discard, the draw pile's top card into the hand."""
    take_from_hand_nb(state, p, c)
    state[at(LOC, c)] = enums.LOC_DISCARD
    top = state[DRAW_PILE_TOP]
    drawn = state[at(DECK, top)]
    state[DRAW_PILE_TOP] = top + 1
    to_hand_nb(state, p, drawn)
    used = state[pl_at(p, PL_REDRAWS)] + 1
    state[pl_at(p, PL_REDRAWS)] = used
    if used > state[REDRAWS]:
        state[sk_at(enums.SKILL_EXTRA_REDRAW, SK_USED)] += 1
    state[final_at(p, FN_REDRAWS)] += 1
    emit_nb(state, enums.EV_REDRAW, p, c, drawn, 0)


@rules_jit_flat
def offer_nb(state, p, c):
    """B. Offer an exchange: c face down; once both players have a card down, each takes the other's."""
    take_from_hand_nb(state, p, c)
    state[at(LOC, c)] = enums.LOC_DOWN + p
    state[pl_at(p, PL_DOWN)] = c
    state[pl_at(p, PL_OFFERED)] = 1
    state[final_at(p, FN_OFFERS)] += 1
    emit_nb(state, enums.EV_OFFER, p, c, 0, 0)
    q = 1 - p
    other = state[pl_at(q, PL_DOWN)]
    if other >= 0:
        to_hand_nb(state, p, other)
        to_hand_nb(state, q, c)
        state[pl_at(p, PL_DOWN)] = -1
        state[pl_at(q, PL_DOWN)] = -1
        emit_nb(state, enums.EV_EXCHANGE, -1, other if p == 0 else c, c if p == 0 else other, 0)


@rules_jit_flat
def swords_nb(state, params, p, swords):
    """p's swords: on the BOSS floor a hit on the BOSS each (when it counts) until it falls; elsewhere each sword
    "can defeat" one skeleton standing on p's floor and own side (the lowest printed floor's first): p's strategy
    decides, sword by sword, to defeat it or to spare it; a sword with nothing there does nothing. Returns 1 when
    the BOSS falls."""
    floor = state[pl_at(p, PL_FLOOR)]
    if floor == state[N_FLOORS] - 1:
        boss = state[BOSS_IN_PLAY]
        for _ in range(swords):
            state[final_at(p, FN_SWORDS)] += 1
            if state[tc_at(boss, TF_BOTH)] == 1 and state[pl_at(1 - p, PL_FLOOR)] != floor:
                continue
            dmg = state[BOSS_DAMAGE] + 1
            state[BOSS_DAMAGE] = dmg
            state[final_at(p, FN_BOSS_HITS)] += 1
            emit_nb(state, enums.EV_BOSS_HIT, p, dmg, state[tc_at(boss, TF_HP)], 0)
            if dmg >= state[tc_at(boss, TF_HP)]:
                return 1
        return 0
    state[final_at(p, FN_SWORDS)] += swords
    side = state[pl_at(p, PL_SIDE)]
    for _ in range(swords):
        left = standing_on_nb(state, floor, side)
        if left == 0:           # usually: nothing to ask, nothing to do
            break
        strategies.fill_view_nb(state, p)
        if strategies.sword_nb(state, params, p) == enums.SWORD_SPARE:
            emit_nb(state, enums.EV_SPARE, p, floor, side, left)
            continue
        slot = state[at(FLOOR_LO, floor)]
        while state[standing_at(slot, side)] == 0:      # the lowest slot where one stands
            slot += 1
        state[standing_at(slot, side)] -= 1
        state[at(ON_FLOOR, 2 * floor + side)] -= 1
        state[hit_at(slot, side)] += 1
        state[HIT_FLOORS] |= 1 << floor
        state[final_at(p, FN_SKELETONS)] += 1
        emit_nb(state, enums.EV_SWORD, p, floor, side, left - 1)
    return 0


@rules_jit_flat
def climb_nb(state, p, arrows):
    """Up arrows: exactly `arrows` floors, stopping on the BOSS floor at most."""
    here = state[pl_at(p, PL_FLOOR)]
    to = min(here + arrows, state[N_FLOORS] - 1)
    if to != here:
        state[pl_at(p, PL_FLOOR)] = to
        state[final_at(p, FN_CLIMBED)] += to - here
        emit_nb(state, enums.EV_CLIMB, p, here, to, 0)


@rules_jit_flat
def play_card_nb(state, params, p, c, free):
    """C. Play c onto the play area and resolve its icons (swords then arrows, or arrows first by option). Returns
    1 when the BOSS falls."""
    take_from_hand_nb(state, p, c)
    state[at(LOC, c)] = enums.LOC_PLAYED
    emit_nb(state, enums.EV_PLAY, p, c, state[TOP_CARD], free)
    state[TOP_CARD] = c
    if free:
        state[FREE_PLAY_USED] = 1
        state[sk_at(enums.SKILL_FREE_PLAY, SK_USED)] += 1
    state[cc_at(c, CC_PLAYED)] += 1
    state[final_at(p, FN_PLAYED)] += 1
    arrows_first = state[ICON_ORDER] == enums.ICONS_ARROWS_FIRST
    if arrows_first:
        climb_nb(state, p, state[card_at(c, CF_ARROWS)])
    if swords_nb(state, params, p, state[card_at(c, CF_SWORDS)]):
        return 1
    if not arrows_first:
        climb_nb(state, p, state[card_at(c, CF_ARROWS)])
    return 0


@rules_jit_flat
def apply_nb(state, params, p, act, c):
    """Carry out one legal action; returns 1 when it defeats the BOSS."""
    state[TURN] += 1
    if act == enums.ACT_REDRAW:
        redraw_nb(state, p, c)
    elif act == enums.ACT_OFFER:
        offer_nb(state, p, c)
    else:
        return play_card_nb(state, params, p, c, act == enums.ACT_FREE)
    return 0


@rules_jit_flat
def pass_nb(state, p):
    state[TURN] += 1
    state[final_at(p, FN_PASSES)] += 1
    emit_nb(state, enums.EV_PASS, p, 0, 0, 0)


@rules_jit_flat
def blocked_nb(state, p):
    """A player holding cards who can take no action ends the round at once."""
    state[BLOCKED_SEAT] = p
    state[final_at(p, FN_BLOCKED)] += 1
    state[TEAM_BLOCKED_ROUNDS] += 1
    emit_nb(state, enums.EV_BLOCKED, p, state[pl_at(p, PL_HAND_N)], 0, 0)


@rules_jit_flat
def pay_side_nb(state, floor, side):
    """One side of a floor at the end of the play phase: its fallen skeletons pay 1 gold each when every skeleton
    drawn there has fallen (none stands, none lacks its token); otherwise they stand again where they fell, for
    nothing."""
    hits = 0
    missing = 0
    for slot in range(state[at(FLOOR_LO, floor)], state[at(FLOOR_HI, floor)] + 1):
        hits += state[hit_at(slot, side)]
        missing += state[missing_at(slot, side)]
    if hits == 0:
        return
    if standing_on_nb(state, floor, side) + missing == 0:
        state[GOLD] += hits
        state[TEAM_GOLD] += hits
        emit_nb(state, enums.EV_GOLD, -1, floor, side, hits)
    else:                       # back where they fell
        for slot in range(state[at(FLOOR_LO, floor)], state[at(FLOOR_HI, floor)] + 1):
            state[standing_at(slot, side)] += state[hit_at(slot, side)]
        state[at(ON_FLOOR, 2 * floor + side)] += hits
        emit_nb(state, enums.EV_GOLD, -1, floor, side, 0)
    for slot in range(state[at(FLOOR_LO, floor)], state[at(FLOOR_HI, floor)] + 1):
        state[hit_at(slot, side)] = 0


@rules_jit_flat
def end_play_nb(state):
    """End of the play phase: each side of a floor hit this round pays its gold when every skeleton drawn there has
    fallen; a group that did not all fall stands again at full number, for no gold. Then the empty-hand bonus, when both
    players played their whole hands (nothing left face down either)."""
    mask = state[HIT_FLOORS]
    state[HIT_FLOORS] = 0
    while mask != 0:            # only the floors where a skeleton fell this round, lowest first
        floor = lowest_bit_nb(mask)
        for side in range(2):
            pay_side_nb(state, floor, side)
        mask &= mask - 1
    empty = state[BLOCKED_SEAT] < 0 and state[DECK_SIZE] > 0
    for p in range(2):
        empty = empty and state[pl_at(p, PL_HAND_N)] == 0 and state[pl_at(p, PL_DOWN)] < 0
    if empty:
        bonus = min(state[EMPTY_HAND_BONUS], state[SUPPLY_TOKENS])
        state[SUPPLY_TOKENS] -= bonus
        state[GOLD] += bonus
        state[TEAM_BONUS_GOLD] += bonus
        emit_nb(state, enums.EV_BONUS, -1, bonus, 0, 0)


@rules_jit_flat
def end_game_nb(state, won):
    """The game is over: the BOSS defeated (won), or the round limit."""
    state[ENDED] = 1
    if won:
        state[WINNER] = 0
        state[VICTORY] = enums.WIN_BOSS
    else:
        top = state[N_FLOORS] - 1
        at_boss = state[pl_at(0, PL_FLOOR)] == top or state[pl_at(1, PL_FLOOR)] == top
        state[VICTORY] = enums.LOST_AT_BOSS if at_boss else enums.LOST_BELOW
    emit_nb(state, enums.EV_END, -1, state[VICTORY], state[ROUND], state[BOSS_DAMAGE])


