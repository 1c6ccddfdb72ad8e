"""Climbing Tower's heuristic strategies, ``climber``, ``skeleton_farmer`` and ``deck_thinner``: one frame, different
weights and build phases (the dispatch in ``strategies`` calls them).

The heuristics share one frame and differ in weights and in the build phase:

* A card's *worth* to a player is ``arrow_weight`` x the floors its arrows would climb (up to the BOSS floor) plus
  ``sword_weight`` x the skeletons (or BOSS hits) its swords would take where the pawn stands.
* A turn: play the playable card of highest worth plus, when the partner's hand is visible, ``team_weight`` if the
  partner holds a card that could follow it; a free play (the skill) only when no card matches. With nothing worth
  playing: complete an exchange the partner offered, else redraw its least worth card, else play a card of no worth,
  else offer. An offer gives, seeing the partner's hand, the card whose worth to the partner less its worth to itself
  is highest (when that is above -1), else its own least worth card. Ties go to the first row.
* A sword that could defeat a skeleton (the rulebook's "can defeat"): defeat it, unless a draw from the seat's own
  stream falls below ``spare`` (0: always defeat, no draw; 1: always spare, no draw); the dispatch's ``sword_nb``
  decides it, with the seat's stream.
* The build phase (the round's start player decides): ``deck_thinner`` first removes its weakest card (fewest icons,
  then lowest level, then lowest id) while the deck holds more than ``keep`` cards; then everyone buys Level 3 while
  two gold remain, then Level 2 from the pile whose cards are worth most on average by its weights; then stops.
"""
from __future__ import annotations

from ....core.jit import rules_jit_flat
from .. import enums
from ..layout import (BOSS_DAMAGE, BOSS_IN_PLAY, CF_ARROWS, CF_LEVEL, CF_SWORDS, DECK_SIZE, FOLLOWS, N_BUILD_ROWS,
                      N_FLOORS, N_PLAY_ROWS, N_REDRAW_ROWS, PILE_NEXT, PILE_SIZE, PL_DOWN, PL_FLOOR, PL_HAND_N, PL_SIDE,
                      TF_BOTH, TF_HP, VIEW_PARTNER, VIEW_TALK, at, cand_at, card_at, hand_at, param_at, pile_at, pl_at,
                      tc_at)
from ..rules.build import build_row_nb
from ..rules.setup import standing_on_nb

P_ARROW = 0
P_SWORD = 1
P_TEAM = 2
P_SPARE = 3
P_KEEP = 4
SPARE_SCALE = 1_000_000     # a heuristic spares when a draw below this is below spare x this


@rules_jit_flat
def boss_open_nb(state, p):
    """Hits the BOSS can still take from p's swords now (0 when p is not on the BOSS floor or a hit would not
    count)."""
    floor = state[pl_at(p, PL_FLOOR)]
    top = state[N_FLOORS] - 1
    if floor != top:
        return 0
    boss = state[BOSS_IN_PLAY]
    if state[tc_at(boss, TF_BOTH)] == 1 and state[pl_at(1 - p, PL_FLOOR)] != top:
        return 0
    return state[tc_at(boss, TF_HP)] - state[BOSS_DAMAGE]


@rules_jit_flat
def team_bonus_nb(state, params, p, c):
    """team_weight when the partner's hand is visible and holds a card that could follow c."""
    if state[VIEW_PARTNER] & state[at(FOLLOWS, c)] != 0:        # 0 when the hand is hidden
        return params[param_at(p, P_TEAM)]
    return 0.0


@rules_jit_flat
def reach_nb(state, who):
    """(floors the pawn of `who` can still climb, skeletons or BOSS hits its swords can take where it stands): what
    a card's worth caps its arrows and swords at (module docstring)."""
    floor = state[pl_at(who, PL_FLOOR)]
    top = state[N_FLOORS] - 1
    targets = boss_open_nb(state, who) if floor == top else standing_on_nb(state, floor, state[pl_at(who, PL_SIDE)])
    return top - floor, targets


@rules_jit_flat
def heuristic_turn_nb(state, params, p, n):
    """The heuristics' turn (module docstring): a card's worth is arrow_weight x min(arrows, room) + sword_weight x
    min(swords, targets), with the pawn's reach (:func:`reach_nb`) computed once a decision."""
    wa = params[param_at(p, P_ARROW)]
    ws = params[param_at(p, P_SWORD)]
    room, targets = reach_nb(state, p)
    talk = state[VIEW_TALK] == 1
    best_play = -1
    best_play_v = -1.0
    best_free = -1
    best_free_v = -1.0
    i = 0
    n_play = state[N_PLAY_ROWS]
    while i < n_play:           # plays and free plays come first: with one worth playing, nothing else matters
        act = state[cand_at(i, 0)]
        c = state[cand_at(i, 1)]
        v = wa * min(state[card_at(c, CF_ARROWS)], room) + ws * min(state[card_at(c, CF_SWORDS)], targets)
        v += team_bonus_nb(state, params, p, c)
        if act == enums.ACT_PLAY and v > best_play_v:
            best_play, best_play_v = i, v
        elif act == enums.ACT_FREE and v > best_free_v:
            best_free, best_free_v = i, v
        i += 1
    if best_play >= 0 and best_play_v > 0.0:
        return best_play
    if best_play < 0 and best_free >= 0 and best_free_v > 0.0:
        return best_free
    # The redraw rows and the offer rows (when there are any) each list the hand in order, so one pass over the
    # hand finds both the least worth redraw and offer (the same card: the first of least worth) and the gift.
    n_redraw = state[N_REDRAW_ROWS]
    offers = n > n_play + n_redraw
    if best_play < 0 and best_free >= 0:    # a free play of no worth stands for a play from here on (none of worth)
        best_play = best_free
    # What the answer needs (the returns below, in order): the least worth card unless the answer is a play of no
    # worth (no offer to answer, no redraw left), and the gift only to answer the partner's offer or to offer with
    # nothing else left to do. The common answers (a redraw, a play of no worth) weigh no gift and skip the partner's
    # reach.
    answering = offers and state[pl_at(1 - p, PL_DOWN)] >= 0
    gifts = talk and offers and (answering or (n_redraw == 0 and best_play < 0))
    q_room = 0
    q_targets = 0
    if gifts:
        q_room, q_targets = reach_nb(state, 1 - p)
    least = -1
    least_v = 0.0
    gift = -1
    gift_v = -1.0
    if n > n_play and (answering or n_redraw > 0 or best_play < 0):
        for j in range(state[pl_at(p, PL_HAND_N)]):
            c = state[hand_at(p, j)]
            arrows = state[card_at(c, CF_ARROWS)]
            swords = state[card_at(c, CF_SWORDS)]
            v = wa * min(arrows, room) + ws * min(swords, targets)
            if least < 0 or v < least_v:
                least, least_v = j, v
            if gifts:
                w = (wa * min(arrows, q_room) + ws * min(swords, q_targets)) - v
                if w > gift_v:
                    gift, gift_v = n_play + n_redraw + j, w
    worst_redraw = n_play + least if n_redraw > 0 else -1
    worst_offer = n_play + n_redraw + least if offers else -1
    # (a play of worth above 0, free or not, was answered above)
    if worst_offer >= 0 and state[pl_at(1 - p, PL_DOWN)] >= 0:
        return gift if gift >= 0 else worst_offer
    if worst_redraw >= 0:
        return worst_redraw
    if best_play >= 0:
        return best_play
    return gift if gift >= 0 else worst_offer


@rules_jit_flat
def heuristic_build_nb(state, params, p, n, thin):
    """The heuristics' build decision (module docstring): a row of the n legal rows; `thin`: ``deck_thinner``'s
    removals first."""
    written = state[N_BUILD_ROWS]          # rows from here on are U rows (rules.build.build_row_nb)
    if thin and state[DECK_SIZE] > params[param_at(p, P_KEEP)]:
        weakest = -1
        weakest_c = -1
        for i in range(written, n):
            c = build_row_nb(state, i)[1]
            if weakest < 0 or weaker_nb(state, c, weakest_c):
                weakest = i
                weakest_c = c
        if weakest >= 0:
            return weakest
    if state[cand_at(written - 1, 0)] == enums.BUILD_Y:       # Y, when it is a row, is the last written one
        return written - 1
    if written == 2 and 0.0 <= params[param_at(p, P_ARROW)] <= 1e300 and 0.0 <= params[param_at(p, P_SWORD)] <= 1e300:
        return 1                # the one R pile, worth at least 0 (finite): above stopping's -1 without pricing it
    best = 0
    best_v = -1.0
    for i in range(written):
        act = state[cand_at(i, 0)]
        if act == enums.BUILD_R:
            v = pile_worth_nb(state, params, p, state[cand_at(i, 1)])
            if v > best_v:
                best, best_v = i, v
    return best


@rules_jit_flat
def weaker_nb(state, a, b):
    """Is card a weaker than card b (fewer icons, then lower level, then lower id)?"""
    ia = state[card_at(a, CF_SWORDS)] + state[card_at(a, CF_ARROWS)]
    ib = state[card_at(b, CF_SWORDS)] + state[card_at(b, CF_ARROWS)]
    if ia != ib:
        return ia < ib
    if state[card_at(a, CF_LEVEL)] != state[card_at(b, CF_LEVEL)]:
        return state[card_at(a, CF_LEVEL)] < state[card_at(b, CF_LEVEL)]
    return a < b


@rules_jit_flat
def pile_worth_nb(state, params, p, k):
    """Mean of arrow_weight x arrows + sword_weight x swords over the cards left in supply pile k (its contents are
    public: the card list, less what was bought)."""
    total = 0.0
    m = state[PILE_SIZE + k] - state[PILE_NEXT + k]
    if m <= 0:
        return -1.0
    for i in range(state[PILE_NEXT + k], state[PILE_SIZE + k]):
        c = state[pile_at(k, i)]
        total += params[param_at(p, P_ARROW)] * state[card_at(c, CF_ARROWS)] + \
            params[param_at(p, P_SWORD)] * state[card_at(c, CF_SWORDS)]
    return total / m
