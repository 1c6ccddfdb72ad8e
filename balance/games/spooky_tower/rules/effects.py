"""Description of Effects: taking and flipping Building cards, what they reveal, and the effect stack.

Effects resolve through an explicit stack (no recursion): a chained effect (clock -> dial, Grimoire -> its card,
take -> bonus, flip -> Photos) pushes what it reveals, and those resolve at once, depth first, before effects already
waiting. The game ends the moment the active player reaches a win threshold.
"""
from __future__ import annotations

from ....core.jit import rules_jit, rules_jit_inline
from .. import enums
from .. import strategies
from ..layout import (BONUS_COUNT, BONUS_FX, BONUS_NFX, CAND, CARD_FX, CARD_NFX, CARD_VALUE, CLOCK, CLUES_GAINED, DIAL,
                      EFFECT_ORDER, EXTRA_TURNS_GAINED, FLIP_SCOPE, FRAGMENTS_TO_WIN, FRAGMENT_RESERVE, GHOSTS_TO_WIN,
                      GHOST_WORTH, GRIM, GRIMOIRE_GHOST_WORTH, GRIMOIRE_TOP, GRIM_FX, GRIM_NFX, LOC, MAX_FX, M_STACK,
                      N_DIAL_STEPS, N_GRIMOIRE_CARDS, N_PLAYERS, PETS_IN_CENTRE, PRIORITY, TOWN_N, VICTORY, WINNER, at,
                      cnt_at, hand_at, hand_n_at, pend_at, pl_at, stack_at, town_at)
from .setup import LOC_KEPT, LOC_TRUNK, emit_nb


@rules_jit_inline
def reveal_nb(state, n, fx_base, nfx, src, sid):
    """Append the effects of one card (its `nfx` codes at state[fx_base:]) to the revealed list; returns its size."""
    for i in range(nfx):
        state[pend_at(n, 0)] = state[at(fx_base, i)]
        state[pend_at(n, 1)] = src
        state[pend_at(n, 2)] = sid
        n += 1
    return n


@rules_jit_inline
def push_revealed_nb(state, n):
    """Push the `n` revealed effects so that they pop in resolution order.

    Resolution order: by the rule option's priority (takes first under "takes_first"), then as printed, cards in
    the order they were taken.
    """
    top = state[M_STACK]
    printed = state[EFFECT_ORDER] == enums.ORDER_PRINTED
    for pr in range(2, -1, -1):
        if printed and pr != 1:     # one priority class: a single pass, with no priority to look up
            continue
        for i in range(n - 1, -1, -1):
            if printed or state[at(PRIORITY, state[pend_at(i, 0)])] == pr:
                state[stack_at(top, 0)] = state[pend_at(i, 0)]
                state[stack_at(top, 1)] = state[pend_at(i, 1)]
                state[stack_at(top, 2)] = state[pend_at(i, 2)]
                top += 1
    state[M_STACK] = top


@rules_jit_inline
def take_card_nb(state, p, v, by_effect):
    """Take a card: the top card of value v's Town stack goes Building side up beside the House; its bonus follows.

    A bonus of nothing but Reroll refreshes (the commonest effect, a third of all) resolves in place, with the same
    events, instead of going through the effect stack; the reference engine resolves it the ordinary way and the
    differential tests hold the two together."""
    n = state[at(TOWN_N, v)] - 1
    c = state[town_at(v, n)]
    state[at(TOWN_N, v)] = n
    h = hand_n_at(p, v)
    state[hand_at(p, v, state[h])] = c
    state[h] += 1
    state[pl_at(p, enums.PL_HELD)] += 1
    state[at(LOC, c)] = p
    state[cnt_at(p, v, enums.CNT_TAKEN)] += 1
    emit_nb(state, enums.EV_TAKE, p, v, c, by_effect)
    nfx = state[at(BONUS_NFX, v)]
    if state[at(BONUS_COUNT, v * enums.N_EFFECTS + enums.FX_REROLL)] == nfx:
        # No bonus, or only Reroll-token refreshes (values 1-4 of the card list). Pushed, they would resolve next,
        # before anything already pending, and do nothing but make the token available: done here in place.
        state[pl_at(p, enums.PL_TOKEN)] |= nfx > 0     # no branch: whether a value has a bonus is a coin flip
        for _ in range(nfx):                   # the events (a loop only in traced games)
            emit_nb(state, enums.EV_EFFECT, p, enums.FX_REROLL, enums.SRC_BONUS, c)
            emit_nb(state, enums.EV_TOKEN, p, 0, 0, 0)
        return
    push_revealed_nb(state, reveal_nb(state, 0, BONUS_FX + v * MAX_FX, nfx, enums.SRC_BONUS, c))


@rules_jit_inline
def flip_cards_nb(state, p, v, n_flip, by_effect):
    """Flip your cards: the last `n_flip` cards taken of value v turn Photo side up; their effects are revealed.

    Flipped cards leave the player's holding at once (to the trunk at the end of the turn; ghosts are kept).
    """
    h = hand_n_at(p, v)
    held = state[h]
    emit_nb(state, enums.EV_FLIP, p, v, n_flip, by_effect)
    n = 0
    for k in range(held - n_flip, held):
        c = state[hand_at(p, v, k)]
        emit_nb(state, enums.EV_REVEAL, p, c, v, 0)
        state[at(LOC, c)] = LOC_TRUNK
        state[cnt_at(p, v, enums.CNT_FLIPPED)] += 1
        n = reveal_nb(state, n, CARD_FX + c * MAX_FX, state[at(CARD_NFX, c)], enums.SRC_PHOTO, c)
    state[h] = held - n_flip
    state[pl_at(p, enums.PL_HELD)] -= n_flip
    push_revealed_nb(state, n)


@rules_jit_inline
def refresh_token_nb(state, p):
    """Reroll refresh: the player's Reroll token is available again."""
    state[pl_at(p, enums.PL_TOKEN)] = 1
    emit_nb(state, enums.EV_TOKEN, p, 0, 0, 0)


@rules_jit_inline
def check_win_nb(state, p):
    """End of the Game: 5 ghosts (pets included) or 3 Amulet fragments win at once."""
    if state[pl_at(p, enums.PL_GHOSTS)] + state[pl_at(p, enums.PL_PETS)] >= state[GHOSTS_TO_WIN]:
        state[VICTORY] = enums.WIN_GHOSTS
    elif state[pl_at(p, enums.PL_FRAGMENTS)] >= state[FRAGMENTS_TO_WIN]:
        state[VICTORY] = enums.WIN_AMULET
    else:
        return False
    state[WINNER] = p
    emit_nb(state, enums.EV_WIN, p, state[VICTORY], 0, 0)
    return True


@rules_jit_inline
def ghost_worth_nb(state, src, sid):
    """Ghosts one ghost effect captures: a Photo's Building setting, the Grimoire setting, else one."""
    if src == enums.SRC_PHOTO:
        return state[at(GHOST_WORTH, state[at(CARD_VALUE, sid)])]
    if src == enums.SRC_GRIMOIRE:
        return state[GRIMOIRE_GHOST_WORTH]
    return 1


@rules_jit
def take_effect_nb(state, params, p, fx):
    """Effects 'Building value 8 or less' and 'Any Building': take a card of a value the player chooses."""
    hi = 8 if fx == enums.FX_TAKE_8MINUS else enums.N_VALUES - 1
    n = 0
    for v in range(1, hi + 1):     # written always, counted when legal (no branch to mispredict)
        state[at(CAND, n)] = v
        n += state[at(TOWN_N, v)] > 0
    if n == 0:
        emit_nb(state, enums.EV_LOST, p, fx, 0, 0)
        return
    i = strategies.choose_target_nb(state, params, p, strategies.TARGET_TAKE, n)
    take_card_nb(state, p, state[at(CAND, i)], 1)


@rules_jit
def flip_effect_nb(state, params, p, fx):
    """Effects 'Flip Building value 8 or less / 9 or more': flip one of your cards of a value you choose."""
    lo = 1 if fx == enums.FX_FLIP_8MINUS else 9
    hi = 8 if fx == enums.FX_FLIP_8MINUS else enums.N_VALUES - 1
    n = 0
    for v in range(lo, hi + 1):     # written always, counted when held (no branch to mispredict)
        state[at(CAND, n)] = v
        n += state[hand_n_at(p, v)] > 0
    if n == 0:
        emit_nb(state, enums.EV_LOST, p, fx, 0, 0)
        return
    v = state[at(CAND, strategies.choose_target_nb(state, params, p, strategies.TARGET_FLIP, n))]
    n_flip = state[hand_n_at(p, v)] if state[FLIP_SCOPE] == enums.SCOPE_BUILDING else 1
    flip_cards_nb(state, p, v, n_flip, 1)


@rules_jit
def pet_effect_nb(state, params, p):
    """Ghost Pet: take one from the centre; if none is left, steal one from a player of your choice."""
    if state[PETS_IN_CENTRE] > 0:
        state[PETS_IN_CENTRE] -= 1
        state[pl_at(p, enums.PL_PETS)] += 1
        emit_nb(state, enums.EV_PET, p, -1, 0, 0)
        return
    n = 0
    for q in range(state[N_PLAYERS]):      # written always, counted when a victim (no branch to mispredict)
        state[at(CAND, n)] = q
        n += (q != p) & (state[pl_at(q, enums.PL_PETS)] > 0)
    if n == 0:
        emit_nb(state, enums.EV_LOST, p, enums.FX_PET, 0, 0)
        return
    q = state[at(CAND, strategies.choose_victim_nb(state, params, p, n))]
    state[pl_at(q, enums.PL_PETS)] -= 1
    state[pl_at(p, enums.PL_PETS)] += 1
    emit_nb(state, enums.EV_PET, p, q, 0, 0)


@rules_jit_inline
def clock_step_nb(state, p, top):
    """Clock hand: one step clockwise; the dial effect of the new position goes on the stack at row `top`."""
    n_dial = state[N_DIAL_STEPS]
    step = state[CLOCK] + 1          # dial step 1..n_dial; step n_dial is midnight
    fx = state[at(DIAL, step - 1)]
    pos = 0 if step == n_dial else step
    state[CLOCK] = pos
    emit_nb(state, enums.EV_CLOCK, p, pos, fx, 0)
    state[stack_at(top, 0)] = fx
    state[stack_at(top, 1)] = enums.SRC_DIAL
    state[stack_at(top, 2)] = step
    state[M_STACK] = top + 1


@rules_jit
def grimoire_nb(state, p):
    """Grimoire: reveal the top card and apply its effects; an empty deck loses the effect."""
    top = state[GRIMOIRE_TOP]
    if top >= state[N_GRIMOIRE_CARDS]:
        emit_nb(state, enums.EV_LOST, p, enums.FX_GRIMOIRE, 0, 0)
        return
    g = state[at(GRIM, top)]
    state[GRIMOIRE_TOP] = top + 1
    emit_nb(state, enums.EV_GRIMOIRE, p, g, state[at(GRIM_NFX, g)], 0)
    push_revealed_nb(state, reveal_nb(state, 0, GRIM_FX + g * MAX_FX, state[at(GRIM_NFX, g)], enums.SRC_GRIMOIRE, g))


@rules_jit_inline
def resolve_nb(state, params, p):
    """Description of Effects: resolve pending effects depth first until none is left or the game is won.

    The win is checked after each effect that can raise the active player's ghosts, pets or fragments; the others
    cannot complete a win (what a clock, Grimoire, take or flip reveals is checked as it resolves).
    """
    while state[M_STACK] > 0:
        top = state[M_STACK] - 1
        state[M_STACK] = top
        fx = state[stack_at(top, 0)]
        src = state[stack_at(top, 1)]
        sid = state[stack_at(top, 2)]
        emit_nb(state, enums.EV_EFFECT, p, fx, src, sid)
        if fx == enums.FX_GHOST:
            w = ghost_worth_nb(state, src, sid)
            state[pl_at(p, enums.PL_GHOSTS)] += w
            if src == enums.SRC_PHOTO:
                state[cnt_at(p, state[at(CARD_VALUE, sid)], enums.CNT_GHOSTS)] += w
                state[at(LOC, sid)] = LOC_KEPT + p
            emit_nb(state, enums.EV_GHOST, p, w, 0, 0)
        elif fx == enums.FX_CLUE:
            state[pl_at(p, enums.PL_CLUES)] += 1
            state[CLUES_GAINED] += 1
            emit_nb(state, enums.EV_CLUE, p, state[pl_at(p, enums.PL_CLUES)], 0, 0)
        elif fx == enums.FX_CLOCK:
            clock_step_nb(state, p, top)
        elif fx == enums.FX_GRIMOIRE:
            grimoire_nb(state, p)
        elif fx == enums.FX_PET:
            pet_effect_nb(state, params, p)
        elif fx == enums.FX_REROLL:
            refresh_token_nb(state, p)
        elif fx == enums.FX_FRAGMENT:
            if state[FRAGMENT_RESERVE] > 0:
                state[FRAGMENT_RESERVE] -= 1
                state[pl_at(p, enums.PL_FRAGMENTS)] += 1
                emit_nb(state, enums.EV_FRAGMENT, p, state[pl_at(p, enums.PL_FRAGMENTS)], 0, 0)
            else:
                emit_nb(state, enums.EV_LOST, p, fx, 0, 0)
        elif fx == enums.FX_TAKE_8MINUS or fx == enums.FX_TAKE_ANY:
            take_effect_nb(state, params, p, fx)
        elif fx == enums.FX_FLIP_8MINUS or fx == enums.FX_FLIP_9PLUS:
            flip_effect_nb(state, params, p, fx)
        elif fx == enums.FX_EXTRA_TURN:
            state[EXTRA_TURNS_GAINED] += 1
            emit_nb(state, enums.EV_EXTRA, p, 0, 0, 0)
        if (fx == enums.FX_GHOST or fx == enums.FX_PET or fx == enums.FX_FRAGMENT) and check_win_nb(state, p):
            state[M_STACK] = 0
            return

