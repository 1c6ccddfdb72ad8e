"""Description of Effects: taking and flipping Building cards, what they reveal, and the effect stack.

Effects resolve through an explicit stack (no recursion): a chained effect (clock -> dial, Grimoire -> its card,
take -> bonus, flip -> Photos) pushes what it reveals, and those resolve at once, depth first, before effects already
waiting. The game ends the moment the active player reaches a win threshold.
"""
from __future__ import annotations

from ....core.jit import rules_jit, rules_jit_inline
from .. import enums as E
from .. import strategies as S
from ..layout import (BONUS_COUNT, BONUS_FX, BONUS_NFX, CAND, CARD_FX, CARD_NFX, CARD_VALUE, DIAL, GHOST_WORTH, GRIM,
                      GRIM_FX, GRIM_NFX, LOC, MAX_FX, M_STACK, OPT, PRIORITY, SC, TOWN_N, at, cnt_at, hand_at,
                      hand_n_at, pend_at, pl_at, stack_at, town_at)
from .setup import LOC_KEPT, LOC_TRUNK, emit_nb


@rules_jit_inline
def reveal_nb(s, n, fx_base, nfx, src, sid):
    """Append the effects of one card (its `nfx` codes at s[fx_base:]) to the revealed list; returns its size."""
    for i in range(nfx):
        s[pend_at(n, 0)] = s[at(fx_base, i)]
        s[pend_at(n, 1)] = src
        s[pend_at(n, 2)] = sid
        n += 1
    return n


@rules_jit_inline
def push_revealed_nb(s, n):
    """Push the `n` revealed effects so that they pop in resolution order.

    Resolution order: by the rule option's priority (takes first under "takes_first"), then as printed, cards in
    the order they were taken.
    """
    top = s[M_STACK]
    printed = s[OPT + E.OPT_EFFECT_ORDER] == E.ORDER_PRINTED
    for pr in range(2, -1, -1):
        if printed and pr != 1:     # one priority class: a single pass, with no priority to look up
            continue
        for i in range(n - 1, -1, -1):
            if printed or s[at(PRIORITY, s[pend_at(i, 0)])] == pr:
                s[stack_at(top, 0)] = s[pend_at(i, 0)]
                s[stack_at(top, 1)] = s[pend_at(i, 1)]
                s[stack_at(top, 2)] = s[pend_at(i, 2)]
                top += 1
    s[M_STACK] = top


@rules_jit_inline
def take_card_nb(s, p, v, by_effect):
    """Take a card: the top card of value v's Town stack goes Building side up beside the House; its bonus follows.

    A bonus of nothing but Reroll refreshes (the commonest effect, a third of all) resolves in place, with the same
    events, instead of going through the effect stack; the reference engine resolves it the ordinary way and the
    differential tests hold the two together."""
    n = s[at(TOWN_N, v)] - 1
    c = s[town_at(v, n)]
    s[at(TOWN_N, v)] = n
    h = hand_n_at(p, v)
    s[hand_at(p, v, s[h])] = c
    s[h] += 1
    s[pl_at(p, E.PL_HELD)] += 1
    s[at(LOC, c)] = p
    s[cnt_at(p, v, E.CNT_TAKEN)] += 1
    emit_nb(s, E.EV_TAKE, p, v, c, by_effect)
    nfx = s[at(BONUS_NFX, v)]
    if s[at(BONUS_COUNT, v * E.N_EFFECTS + E.FX_REROLL)] == nfx:
        # No bonus, or only Reroll-token refreshes (values 1-4 of the card list). Pushed, they would resolve next,
        # before anything already pending, and do nothing but make the token available: done here in place.
        s[pl_at(p, E.PL_TOKEN)] |= nfx > 0     # no branch: whether a value has a bonus is a coin flip
        for _ in range(nfx):                   # the events (a loop only in traced games)
            emit_nb(s, E.EV_EFFECT, p, E.FX_REROLL, E.SRC_BONUS, c)
            emit_nb(s, E.EV_TOKEN, p, 0, 0, 0)
        return
    push_revealed_nb(s, reveal_nb(s, 0, BONUS_FX + v * MAX_FX, nfx, E.SRC_BONUS, c))


@rules_jit_inline
def flip_cards_nb(s, p, v, n_flip, by_effect):
    """Flip your cards: the last `n_flip` cards taken of value v turn Photo side up; their effects are revealed.

    Flipped cards leave the player's holding at once (to the trunk at the end of the turn; ghosts are kept).
    """
    h = hand_n_at(p, v)
    held = s[h]
    emit_nb(s, E.EV_FLIP, p, v, n_flip, by_effect)
    n = 0
    for k in range(held - n_flip, held):
        c = s[hand_at(p, v, k)]
        emit_nb(s, E.EV_REVEAL, p, c, v, 0)
        s[at(LOC, c)] = LOC_TRUNK
        s[cnt_at(p, v, E.CNT_FLIPPED)] += 1
        n = reveal_nb(s, n, CARD_FX + c * MAX_FX, s[at(CARD_NFX, c)], E.SRC_PHOTO, c)
    s[h] = held - n_flip
    s[pl_at(p, E.PL_HELD)] -= n_flip
    push_revealed_nb(s, n)


@rules_jit_inline
def refresh_token_nb(s, p):
    """Reroll refresh: the player's Reroll token is available again."""
    s[pl_at(p, E.PL_TOKEN)] = 1
    emit_nb(s, E.EV_TOKEN, p, 0, 0, 0)


@rules_jit_inline
def check_win_nb(s, p):
    """End of the Game: 5 ghosts (pets included) or 3 Amulet fragments win at once."""
    if s[pl_at(p, E.PL_GHOSTS)] + s[pl_at(p, E.PL_PETS)] >= s[OPT + E.OPT_GHOSTS_TO_WIN]:
        s[SC + E.SC_VICTORY] = E.WIN_GHOSTS
    elif s[pl_at(p, E.PL_FRAGMENTS)] >= s[OPT + E.OPT_FRAGMENTS_TO_WIN]:
        s[SC + E.SC_VICTORY] = E.WIN_AMULET
    else:
        return False
    s[SC + E.SC_WINNER] = p
    emit_nb(s, E.EV_WIN, p, s[SC + E.SC_VICTORY], 0, 0)
    return True


@rules_jit_inline
def ghost_worth_nb(s, src, sid):
    """Ghosts one ghost effect captures: a Photo's Building setting, the Grimoire setting, else one."""
    if src == E.SRC_PHOTO:
        return s[at(GHOST_WORTH, s[at(CARD_VALUE, sid)])]
    if src == E.SRC_GRIMOIRE:
        return s[OPT + E.OPT_GRIMOIRE_GHOST]
    return 1


@rules_jit
def take_effect_nb(s, f, p, fx):
    """Effects 'Building value 8 or less' and 'Any Building': take a card of a value the player chooses."""
    hi = 8 if fx == E.FX_TAKE_8MINUS else E.N_VALUES - 1
    n = 0
    for v in range(1, hi + 1):     # written always, counted when legal (no branch to mispredict)
        s[at(CAND, n)] = v
        n += s[at(TOWN_N, v)] > 0
    if n == 0:
        emit_nb(s, E.EV_LOST, p, fx, 0, 0)
        return
    i = S.choose_target_nb(s, f, p, S.TARGET_TAKE, n)
    take_card_nb(s, p, s[at(CAND, i)], 1)


@rules_jit
def flip_effect_nb(s, f, p, fx):
    """Effects 'Flip Building value 8 or less / 9 or more': flip one of your cards of a value you choose."""
    lo = 1 if fx == E.FX_FLIP_8MINUS else 9
    hi = 8 if fx == E.FX_FLIP_8MINUS else E.N_VALUES - 1
    n = 0
    for v in range(lo, hi + 1):     # written always, counted when held (no branch to mispredict)
        s[at(CAND, n)] = v
        n += s[hand_n_at(p, v)] > 0
    if n == 0:
        emit_nb(s, E.EV_LOST, p, fx, 0, 0)
        return
    v = s[at(CAND, S.choose_target_nb(s, f, p, S.TARGET_FLIP, n))]
    n_flip = s[hand_n_at(p, v)] if s[OPT + E.OPT_FLIP_SCOPE] == E.SCOPE_BUILDING else 1
    flip_cards_nb(s, p, v, n_flip, 1)


@rules_jit
def pet_effect_nb(s, f, p):
    """Ghost Pet: take one from the centre; if none is left, steal one from a player of your choice."""
    if s[SC + E.SC_PETS_CENTER] > 0:
        s[SC + E.SC_PETS_CENTER] -= 1
        s[pl_at(p, E.PL_PETS)] += 1
        emit_nb(s, E.EV_PET, p, -1, 0, 0)
        return
    n = 0
    for q in range(s[OPT + E.OPT_N_PLAYERS]):      # written always, counted when a victim (no branch to mispredict)
        s[at(CAND, n)] = q
        n += (q != p) & (s[pl_at(q, E.PL_PETS)] > 0)
    if n == 0:
        emit_nb(s, E.EV_LOST, p, E.FX_PET, 0, 0)
        return
    q = s[at(CAND, S.choose_victim_nb(s, f, p, n))]
    s[pl_at(q, E.PL_PETS)] -= 1
    s[pl_at(p, E.PL_PETS)] += 1
    emit_nb(s, E.EV_PET, p, q, 0, 0)


@rules_jit_inline
def clock_step_nb(s, p, top):
    """Clock hand: one step clockwise; the dial effect of the new position goes on the stack at row `top`."""
    n_dial = s[OPT + E.OPT_N_DIAL]
    step = s[SC + E.SC_CLOCK] + 1          # dial step 1..n_dial; step n_dial is midnight
    fx = s[at(DIAL, step - 1)]
    pos = 0 if step == n_dial else step
    s[SC + E.SC_CLOCK] = pos
    emit_nb(s, E.EV_CLOCK, p, pos, fx, 0)
    s[stack_at(top, 0)] = fx
    s[stack_at(top, 1)] = E.SRC_DIAL
    s[stack_at(top, 2)] = step
    s[M_STACK] = top + 1


@rules_jit
def grimoire_nb(s, p):
    """Grimoire: reveal the top card and apply its effects; an empty deck loses the effect."""
    top = s[SC + E.SC_GRIM_TOP]
    if top >= s[OPT + E.OPT_N_GRIMOIRE]:
        emit_nb(s, E.EV_LOST, p, E.FX_GRIMOIRE, 0, 0)
        return
    g = s[at(GRIM, top)]
    s[SC + E.SC_GRIM_TOP] = top + 1
    emit_nb(s, E.EV_GRIMOIRE, p, g, s[at(GRIM_NFX, g)], 0)
    push_revealed_nb(s, reveal_nb(s, 0, GRIM_FX + g * MAX_FX, s[at(GRIM_NFX, g)], E.SRC_GRIMOIRE, g))


@rules_jit_inline
def resolve_nb(s, f, p):
    """Description of Effects: resolve pending effects depth first until none is left or the game is won.

    The win is checked after each effect that can raise the active player's ghosts, pets or fragments; the others
    cannot complete a win (what a clock, Grimoire, take or flip reveals is checked as it resolves).
    """
    while s[M_STACK] > 0:
        top = s[M_STACK] - 1
        s[M_STACK] = top
        fx = s[stack_at(top, 0)]
        src = s[stack_at(top, 1)]
        sid = s[stack_at(top, 2)]
        emit_nb(s, E.EV_EFFECT, p, fx, src, sid)
        if fx == E.FX_GHOST:
            w = ghost_worth_nb(s, src, sid)
            s[pl_at(p, E.PL_GHOSTS)] += w
            if src == E.SRC_PHOTO:
                s[cnt_at(p, s[at(CARD_VALUE, sid)], E.CNT_GHOSTS)] += w
                s[at(LOC, sid)] = LOC_KEPT + p
            emit_nb(s, E.EV_GHOST, p, w, 0, 0)
        elif fx == E.FX_CLUE:
            s[pl_at(p, E.PL_CLUES)] += 1
            s[SC + E.SC_CLUE_GAINED] += 1
            emit_nb(s, E.EV_CLUE, p, s[pl_at(p, E.PL_CLUES)], 0, 0)
        elif fx == E.FX_CLOCK:
            clock_step_nb(s, p, top)
        elif fx == E.FX_GRIMOIRE:
            grimoire_nb(s, p)
        elif fx == E.FX_PET:
            pet_effect_nb(s, f, p)
        elif fx == E.FX_REROLL:
            refresh_token_nb(s, p)
        elif fx == E.FX_FRAGMENT:
            if s[SC + E.SC_FRAG_RESERVE] > 0:
                s[SC + E.SC_FRAG_RESERVE] -= 1
                s[pl_at(p, E.PL_FRAGMENTS)] += 1
                emit_nb(s, E.EV_FRAGMENT, p, s[pl_at(p, E.PL_FRAGMENTS)], 0, 0)
            else:
                emit_nb(s, E.EV_LOST, p, fx, 0, 0)
        elif fx == E.FX_TAKE_8MINUS or fx == E.FX_TAKE_ANY:
            take_effect_nb(s, f, p, fx)
        elif fx == E.FX_FLIP_8MINUS or fx == E.FX_FLIP_9PLUS:
            flip_effect_nb(s, f, p, fx)
        elif fx == E.FX_EXTRA_TURN:
            s[SC + E.SC_EXTRA_GAINED] += 1
            emit_nb(s, E.EV_EXTRA, p, 0, 0, 0)
        if (fx == E.FX_GHOST or fx == E.FX_PET or fx == E.FX_FRAGMENT) and check_win_nb(s, p):
            s[M_STACK] = 0
            return

