"""Climbing Tower play phase (rulebook, Play phase): the deal, the legal actions, redraw, exchange, playing a card
and its icons (swords against skeletons or the BOSS, arrows up the tower), and the end of the phase (groups that did
not all fall stand again; gold; the empty-hand bonus)."""
from __future__ import annotations

from ....core.jit import rules_jit_flat
from ....core.rng import flat_shuffle_nb
from ...kernel_common import lowest_bit_nb, next_scripted_nb
from .. import enums as E
from ..layout import (FOLLOWS, OWNED, CF_ARROWS, CF_SWORDS, DEAL_SCRIPT, DECK, FLOOR_HI, FLOOR_LO,
                     FN_BLOCKED, FN_BOSS_HITS, FN_CLIMBED, FN_OFFERS, FN_PASSES, FN_PLAYED, FN_REDRAWS, FN_SKELETONS,
                     FN_SWORDS, HIT, LOC, M_DEAL_I, M_DEAL_N, MAX_SLOTS, OPT, OPT_BONUS, OPT_HAND, OPT_ICONS,
                     OPT_N_CARDS, OPT_REDRAWS, PL_DOWN, PL_FLOOR, PL_HAND_N, PL_OFFERED, PL_REDRAWS, PL_SIDE, SC,
                     SC_BLOCKED, SC_BOSS_DMG, SC_BOSS_ROW, SC_DECK_N, SC_ENDED, SC_FREE_USED, SC_GOLD, SC_N_FLOORS,
                     SC_N_PLAY, SC_N_REDRAW, SC_PILE_TOP, SC_ROUND, SC_HIT_FLOORS, SC_SKILLS, SC_SUPPLY_TOKENS,
                     SC_TOP, SC_TURN, SC_VICTORY, SC_WINNER, SK_USED, TEAM, TF_BOTH, TF_HP, TM_BONUS, TM_GOLD, at,
                     card_at, cand_at, cc_at, final_at, hand_at, hit_at, pl_at, sk_at, standing_at, stream_at, tc_at,
                     CC_DEALT, CC_PLAYED, TM_BLOCKED, ON_FLOOR, TRACE, missing_at)
from .. import strategies as S
from .setup import SHUFFLE, emit_nb, standing_on_nb  # noqa: F401  (standing_on_nb: for importers of play)


@rules_jit_flat
def deal_nb(s, start):
    """Shuffle the common deck (ascending card ids, then the shuffle stream, or the test's deal script; a ``shuffle``
    row per card, top first) and deal ``hand_size`` cards to the start player, then as many to the other; the rest
    is the draw pile."""
    n = s[SC + SC_DECK_N]
    for i in range(n):
        s[at(DECK, i)] = s[at(OWNED, i)]
    if s[M_DEAL_I] < s[M_DEAL_N]:
        for i in range(n):
            s[at(DECK, i)] = next_scripted_nb(s, DEAL_SCRIPT, M_DEAL_N, M_DEAL_I, s[at(DECK, i)])
    else:
        flat_shuffle_nb(s, DECK, n, stream_at(SHUFFLE))
    if s.shape[0] > TRACE:      # the deck's order, top first, for a trace (no loop in a batch run)
        for i in range(n):
            emit_nb(s, E.EV_SHUFFLE, -1, E.STACK_DECK, i, s[at(DECK, i)])
    h = s[OPT + OPT_HAND]
    top = 0
    for k in range(2):
        p = start if k == 0 else 1 - start
        m = min(h, n - top)
        for i in range(m):
            c = s[at(DECK, top + i)]
            s[hand_at(p, i)] = c
            s[at(LOC, c)] = E.LOC_HAND + p
            s[cc_at(c, CC_DEALT)] += 1
            emit_nb(s, E.EV_DEAL, p, c, 0, 0)
        s[pl_at(p, PL_HAND_N)] = m
        top += m
    s[SC + SC_PILE_TOP] = top


@rules_jit_flat
def has_skill_nb(s, k):
    return (s[SC + SC_SKILLS] >> k) & 1


@rules_jit_flat
def legal_nb(s, p):
    """The number of player p's legal actions, rows (action, card) in this order: plays (C: a card that shows the top
    card's colour or number, any card first) in hand order (free plays with the free_play skill unused this round,
    for cards that do not match), then a redraw of each card in hand order, then an offer of each; 0 with an empty
    hand or when nothing is possible. Only the play rows are written (CAND, s[SC_N_PLAY] of them; the row after them
    may hold scratch); the redraw and offer rows follow from the hand (s[SC_N_REDRAW] redraws): :func:`turn_row_nb`
    reads any row."""
    n_hand = s[pl_at(p, PL_HAND_N)]
    top = s[SC + SC_TOP]
    free = has_skill_nb(s, E.SKILL_FREE_PLAY) == 1 and s[SC + SC_FREE_USED] == 0
    follows = s[at(FOLLOWS, top)] if top >= 0 else -1     # bit c: card c shows the top card's colour or number
    n = 0
    for i in range(n_hand):     # each card written as the next row, which it becomes when it may be played
        c = s[hand_at(p, i)]
        match = (follows >> c) & 1
        s[cand_at(n, 0)] = E.ACT_PLAY if match else E.ACT_FREE
        s[cand_at(n, 1)] = c
        n += match | free
    s[SC + SC_N_PLAY] = n
    redraws = s[OPT + OPT_REDRAWS] + has_skill_nb(s, E.SKILL_EXTRA_REDRAW)
    n_redraw = n_hand if s[pl_at(p, PL_REDRAWS)] < redraws and s[SC + SC_PILE_TOP] < s[SC + SC_DECK_N] else 0
    s[SC + SC_N_REDRAW] = n_redraw
    n_offer = 0
    if s[pl_at(p, PL_OFFERED)] == 0:
        n_offer = n_hand
    return n + n_redraw + n_offer


@rules_jit_flat
def turn_row_nb(s, p, i):
    """Row i of player p's legal rows (:func:`legal_nb`, just called): (action, card)."""
    n_play = s[SC + SC_N_PLAY]
    if i < n_play:
        return s[cand_at(i, 0)], s[cand_at(i, 1)]
    j = i - n_play
    n_redraw = s[SC + SC_N_REDRAW]
    if j < n_redraw:
        return E.ACT_REDRAW, s[hand_at(p, j)]
    return E.ACT_OFFER, s[hand_at(p, j - n_redraw)]


@rules_jit_flat
def take_from_hand_nb(s, p, c):
    """Remove card c from p's hand, keeping the order of the others."""
    n = s[pl_at(p, PL_HAND_N)]
    j = 0
    for i in range(n):          # each card written at the next place, which it keeps unless it is c
        x = s[hand_at(p, i)]
        s[hand_at(p, j)] = x
        j += x != c
    s[pl_at(p, PL_HAND_N)] = j


@rules_jit_flat
def to_hand_nb(s, p, c):
    n = s[pl_at(p, PL_HAND_N)]
    s[hand_at(p, n)] = c
    s[pl_at(p, PL_HAND_N)] = n + 1
    s[at(LOC, c)] = E.LOC_HAND + p


@rules_jit_flat
def redraw_nb(s, p, c):
    """A. Redraw: c face up on the discard, the draw pile's top card into the hand."""
    take_from_hand_nb(s, p, c)
    s[at(LOC, c)] = E.LOC_DISCARD
    top = s[SC + SC_PILE_TOP]
    drawn = s[at(DECK, top)]
    s[SC + SC_PILE_TOP] = top + 1
    to_hand_nb(s, p, drawn)
    used = s[pl_at(p, PL_REDRAWS)] + 1
    s[pl_at(p, PL_REDRAWS)] = used
    if used > s[OPT + OPT_REDRAWS]:
        s[sk_at(E.SKILL_EXTRA_REDRAW, SK_USED)] += 1
    s[final_at(p, FN_REDRAWS)] += 1
    emit_nb(s, E.EV_REDRAW, p, c, drawn, 0)


@rules_jit_flat
def offer_nb(s, p, c):
    """B. Offer an exchange: c face down; once both players have a card down, each takes the other's."""
    take_from_hand_nb(s, p, c)
    s[at(LOC, c)] = E.LOC_DOWN + p
    s[pl_at(p, PL_DOWN)] = c
    s[pl_at(p, PL_OFFERED)] = 1
    s[final_at(p, FN_OFFERS)] += 1
    emit_nb(s, E.EV_OFFER, p, c, 0, 0)
    q = 1 - p
    other = s[pl_at(q, PL_DOWN)]
    if other >= 0:
        to_hand_nb(s, p, other)
        to_hand_nb(s, q, c)
        s[pl_at(p, PL_DOWN)] = -1
        s[pl_at(q, PL_DOWN)] = -1
        emit_nb(s, E.EV_EXCHANGE, -1, other if p == 0 else c, c if p == 0 else other, 0)


@rules_jit_flat
def swords_nb(s, f, p, swords):
    """p's swords: on the BOSS floor a hit on the BOSS each (when it counts) until it falls; elsewhere each sword
    "can defeat" one skeleton standing on p's floor and own side (the lowest printed floor's first): p's strategy
    decides, sword by sword, to defeat it or to spare it; a sword with nothing there does nothing. Returns 1 when
    the BOSS falls."""
    floor = s[pl_at(p, PL_FLOOR)]
    if floor == s[SC + SC_N_FLOORS] - 1:
        boss = s[SC + SC_BOSS_ROW]
        for _ in range(swords):
            s[final_at(p, FN_SWORDS)] += 1
            if s[tc_at(boss, TF_BOTH)] == 1 and s[pl_at(1 - p, PL_FLOOR)] != floor:
                continue
            dmg = s[SC + SC_BOSS_DMG] + 1
            s[SC + SC_BOSS_DMG] = dmg
            s[final_at(p, FN_BOSS_HITS)] += 1
            emit_nb(s, E.EV_BOSS_HIT, p, dmg, s[tc_at(boss, TF_HP)], 0)
            if dmg >= s[tc_at(boss, TF_HP)]:
                return 1
        return 0
    s[final_at(p, FN_SWORDS)] += swords
    side = s[pl_at(p, PL_SIDE)]
    for _ in range(swords):
        left = standing_on_nb(s, floor, side)
        if left == 0:           # usually: nothing to ask, nothing to do
            break
        S.fill_view_nb(s, p)
        if S.sword_nb(s, f, p) == E.SWORD_SPARE:
            emit_nb(s, E.EV_SPARE, p, floor, side, left)
            continue
        slot = s[at(FLOOR_LO, floor)]
        while s[standing_at(slot, side)] == 0:      # the lowest slot where one stands
            slot += 1
        s[standing_at(slot, side)] -= 1
        s[at(ON_FLOOR, 2 * floor + side)] -= 1
        s[hit_at(slot, side)] += 1
        s[SC + SC_HIT_FLOORS] |= 1 << floor
        s[final_at(p, FN_SKELETONS)] += 1
        emit_nb(s, E.EV_SWORD, p, floor, side, left - 1)
    return 0


@rules_jit_flat
def climb_nb(s, p, arrows):
    """Up arrows: exactly `arrows` floors, stopping on the BOSS floor at most."""
    here = s[pl_at(p, PL_FLOOR)]
    to = min(here + arrows, s[SC + SC_N_FLOORS] - 1)
    if to != here:
        s[pl_at(p, PL_FLOOR)] = to
        s[final_at(p, FN_CLIMBED)] += to - here
        emit_nb(s, E.EV_CLIMB, p, here, to, 0)


@rules_jit_flat
def play_card_nb(s, f, p, c, free):
    """C. Play c onto the play area and resolve its icons (swords then arrows, or arrows first by option). Returns
    1 when the BOSS falls."""
    take_from_hand_nb(s, p, c)
    s[at(LOC, c)] = E.LOC_PLAYED
    emit_nb(s, E.EV_PLAY, p, c, s[SC + SC_TOP], free)
    s[SC + SC_TOP] = c
    if free:
        s[SC + SC_FREE_USED] = 1
        s[sk_at(E.SKILL_FREE_PLAY, SK_USED)] += 1
    s[cc_at(c, CC_PLAYED)] += 1
    s[final_at(p, FN_PLAYED)] += 1
    arrows_first = s[OPT + OPT_ICONS] == E.ICONS_ARROWS_FIRST
    if arrows_first:
        climb_nb(s, p, s[card_at(c, CF_ARROWS)])
    if swords_nb(s, f, p, s[card_at(c, CF_SWORDS)]):
        return 1
    if not arrows_first:
        climb_nb(s, p, s[card_at(c, CF_ARROWS)])
    return 0


@rules_jit_flat
def apply_nb(s, f, p, act, c):
    """Carry out one legal action; returns 1 when it defeats the BOSS."""
    s[SC + SC_TURN] += 1
    if act == E.ACT_REDRAW:
        redraw_nb(s, p, c)
    elif act == E.ACT_OFFER:
        offer_nb(s, p, c)
    else:
        return play_card_nb(s, f, p, c, act == E.ACT_FREE)
    return 0


@rules_jit_flat
def pass_nb(s, p):
    s[SC + SC_TURN] += 1
    s[final_at(p, FN_PASSES)] += 1
    emit_nb(s, E.EV_PASS, p, 0, 0, 0)


@rules_jit_flat
def blocked_nb(s, p):
    """A player holding cards who can take no action ends the round at once."""
    s[SC + SC_BLOCKED] = p
    s[final_at(p, FN_BLOCKED)] += 1
    s[TEAM + TM_BLOCKED] += 1
    emit_nb(s, E.EV_BLOCKED, p, s[pl_at(p, PL_HAND_N)], 0, 0)


@rules_jit_flat
def pay_side_nb(s, floor, side):
    """One side of a floor at the end of the play phase: its fallen skeletons pay 1 gold each when every skeleton
    drawn there has fallen (none stands, none lacks its token); otherwise they stand again where they fell, for
    nothing."""
    hits = 0
    missing = 0
    for slot in range(s[at(FLOOR_LO, floor)], s[at(FLOOR_HI, floor)] + 1):
        hits += s[hit_at(slot, side)]
        missing += s[missing_at(slot, side)]
    if hits == 0:
        return
    if standing_on_nb(s, floor, side) + missing == 0:
        s[SC + SC_GOLD] += hits
        s[TEAM + TM_GOLD] += hits
        emit_nb(s, E.EV_GOLD, -1, floor, side, hits)
    else:                       # back where they fell
        for slot in range(s[at(FLOOR_LO, floor)], s[at(FLOOR_HI, floor)] + 1):
            s[standing_at(slot, side)] += s[hit_at(slot, side)]
        s[at(ON_FLOOR, 2 * floor + side)] += hits
        emit_nb(s, E.EV_GOLD, -1, floor, side, 0)
    for slot in range(s[at(FLOOR_LO, floor)], s[at(FLOOR_HI, floor)] + 1):
        s[hit_at(slot, side)] = 0


@rules_jit_flat
def end_play_nb(s):
    """End of the play phase: each side of a floor hit this round pays its gold when every skeleton drawn there has
    fallen; a group that did not all fall stands again at full number, for no gold. Then the empty-hand bonus, when both
    players played their whole hands (nothing left face down either)."""
    mask = s[SC + SC_HIT_FLOORS]
    s[SC + SC_HIT_FLOORS] = 0
    while mask != 0:            # only the floors where a skeleton fell this round, lowest first
        floor = lowest_bit_nb(mask)
        for side in range(2):
            pay_side_nb(s, floor, side)
        mask &= mask - 1
    empty = s[SC + SC_BLOCKED] < 0 and s[SC + SC_DECK_N] > 0
    for p in range(2):
        empty = empty and s[pl_at(p, PL_HAND_N)] == 0 and s[pl_at(p, PL_DOWN)] < 0
    if empty:
        bonus = min(s[OPT + OPT_BONUS], s[SC + SC_SUPPLY_TOKENS])
        s[SC + SC_SUPPLY_TOKENS] -= bonus
        s[SC + SC_GOLD] += bonus
        s[TEAM + TM_BONUS] += bonus
        emit_nb(s, E.EV_BONUS, -1, bonus, 0, 0)


@rules_jit_flat
def end_game_nb(s, won):
    """The game is over: the BOSS defeated (won), or the round limit."""
    s[SC + SC_ENDED] = 1
    if won:
        s[SC + SC_WINNER] = 0
        s[SC + SC_VICTORY] = E.WIN_BOSS
    else:
        top = s[SC + SC_N_FLOORS] - 1
        at_boss = s[pl_at(0, PL_FLOOR)] == top or s[pl_at(1, PL_FLOOR)] == top
        s[SC + SC_VICTORY] = E.LOST_AT_BOSS if at_boss else E.LOST_BELOW
    emit_nb(s, E.EV_END, -1, s[SC + SC_VICTORY], s[SC + SC_ROUND], s[SC + SC_BOSS_DMG])


