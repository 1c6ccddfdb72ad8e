"""Spooky Tower rule kernel: whole games in nopython Numba, arrays in and arrays out.

Rulebook sections are named in each function's docstring. Every choice a rule leaves to a player is a call into
``strategies``; the open rule points are read from the compiled options (see ``docs/rules/spooky_tower.md``).

A game lives in two flat arrays (``layout``): ``s`` (int64 state, compiled rules, trace) and ``f`` (float64
strategy parameters and public card statistics), allocated once per worker and reset per game. Effects resolve
through an explicit stack (no recursion): a chained effect (clock -> dial, Grimoire -> its card, take -> bonus,
flip -> Photos) pushes what it reveals, and those resolve at once, depth first, before effects already waiting.
The game ends the moment the active player reaches a win threshold.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...core.jit import rules_jit, rules_jit_inline
from ..kernel_common import add_counter_sums_nb, emit_at_nb, load_script
from ...core.rng import (PURPOSE_DICE, PURPOSE_SHUFFLE, PURPOSE_STRATEGY, flat_below_nb, flat_init_nb, flat_pair_nb,
                   flat_shuffle_nb)
from . import enums as E
from . import strategies as S
from .layout import (BONUS_COUNT, BONUS_FX, BONUS_NFX, CAND, CARD_FX, CARD_NFX, CARD_VALUE, CHOICE_SCRIPT, CNT, DIAL,
                     DICE_SCRIPT, GHOST_WORTH, GRIM, GRIM_FX, GRIM_NFX, HAND_N, KINDS, LOC, MAX_FX, MAX_PLAYERS, MISC,
                     M_CHOICE_I, M_CHOICE_N, M_DICE_I, M_DICE_N, M_STACK, M_TRACE, NV, N_PARAMS, OPT, PARK_REQ, PL,
                     PRIORITY, SC, TOWN_N, TRACE, VALUE_COUNT, VALUE_FIRST, at, cnt_at, hand_at, hand_n_at, legal_at,
                     param_at, pend_at, pl_at, stack_at, stream_at, town_at)

LOC_TOWN = -1
LOC_TRUNK = -2
LOC_KEPT = 10    # LOC_KEPT + seat: a ghost Photo captured by that seat; a seat number: held by that seat

DICE = 0
SHUFFLE = 1


@rules_jit_inline
def emit_nb(s, kind, player, a, b, c):
    """Record one trace event when `s` carries a trace region (the count goes on, so overflow is visible)."""
    emit_at_nb(s, TRACE, M_TRACE, kind, player, a, b, c)


@rules_jit
def reset_nb(s, seed, game):
    """Setup: shuffle each Building's stack, then the Grimoire; pets and fragments in the centre; tokens
    available; clock at midnight."""
    n_players = s[OPT + E.OPT_N_PLAYERS]
    # Regions read before they are written; the rest (Town, hands, stacks) is overwritten as the game goes.
    s[SC:SC + E.N_SC] = 0
    s[PL:PL + MAX_PLAYERS * E.N_PL] = 0
    s[HAND_N:HAND_N + MAX_PLAYERS * NV] = 0
    s[CNT:CNT + MAX_PLAYERS * NV * E.N_CNT] = 0
    s[MISC:MISC + 8] = 0
    s[SC + E.SC_WINNER] = -1
    s[SC + E.SC_PETS_CENTER] = s[OPT + E.OPT_PETS]
    s[SC + E.SC_FRAG_RESERVE] = s[OPT + E.OPT_FRAGMENTS]
    flat_init_nb(s, stream_at(DICE), seed, game, PURPOSE_DICE)
    flat_init_nb(s, stream_at(SHUFFLE), seed, game, PURPOSE_SHUFFLE)
    for p in range(n_players):
        flat_init_nb(s, stream_at(2 + p), seed, game, PURPOSE_STRATEGY + p)
        s[pl_at(p, E.PL_TOKEN)] = 1
    sh = stream_at(SHUFFLE)
    for v in range(1, E.N_VALUES):
        n = s[at(VALUE_COUNT, v)]
        first = s[at(VALUE_FIRST, v)]
        for i in range(n):
            s[town_at(v, i)] = first + i
            s[at(LOC, first + i)] = LOC_TOWN
        flat_shuffle_nb(s, town_at(v, 0), n, sh)
        s[at(TOWN_N, v)] = n
    n_grim = s[OPT + E.OPT_N_GRIMOIRE]
    for i in range(n_grim):
        s[at(GRIM, i)] = i
    flat_shuffle_nb(s, at(GRIM, 0), n_grim, sh)


@rules_jit_inline
def roll_nb(s):
    """1. Roll Dice: two six-sided dice from one word of the game's dice stream (or the test script while it lasts,
    one die at a time)."""
    if s[M_DICE_I] < s[M_DICE_N]:
        return die_nb(s), die_nb(s)
    d1, d2 = flat_pair_nb(s, stream_at(DICE), 6, 6)
    return d1 + 1, d2 + 1


@rules_jit_inline
def die_nb(s):
    i = s[M_DICE_I]
    if i < s[M_DICE_N]:
        s[M_DICE_I] = i + 1
        return s[at(DICE_SCRIPT, i)]
    return flat_below_nb(s, stream_at(DICE), 6) + 1


@rules_jit_inline
def offer_nb(s, n, act, v, ok):
    """Write (act, v) as legal row n and count it when `ok`; written either way, so the caller does not branch."""
    s[legal_at(n, 0)] = act
    s[legal_at(n, 1)] = v
    return n + ok


@rules_jit_inline
def legal_actions_nb(s, p, d1, d2):
    """2. Take a Card or Flip Your Cards: distinct (action, value) pairs for a single die or the sum.

    Takes come first, then flips, each by ascending value. A take needs a card left in that Town stack; a flip needs
    at least one card of that value held. (Rows are written unconditionally and counted by `ok`: the checks are
    coin flips to a branch predictor.)
    """
    a = min(d1, d2)
    b = max(d1, d2)
    c = d1 + d2
    two = b != a
    n = offer_nb(s, 0, E.ACT_TAKE, a, s[at(TOWN_N, a)] > 0)
    n = offer_nb(s, n, E.ACT_TAKE, b, two & (s[at(TOWN_N, b)] > 0))
    n = offer_nb(s, n, E.ACT_TAKE, c, s[at(TOWN_N, c)] > 0)
    n = offer_nb(s, n, E.ACT_FLIP, a, s[hand_n_at(p, a)] > 0)
    n = offer_nb(s, n, E.ACT_FLIP, b, two & (s[hand_n_at(p, b)] > 0))
    return offer_nb(s, n, E.ACT_FLIP, c, s[hand_n_at(p, c)] > 0)


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


@rules_jit
def clock_penalty_nb(s, f, p):
    """No legal action: the clock hand moves one step and its effect applies."""
    s[stack_at(0, 0)] = E.FX_CLOCK
    s[stack_at(0, 1)] = E.SRC_RULE
    s[stack_at(0, 2)] = 0
    s[M_STACK] = 1
    resolve_nb(s, f, p)


@rules_jit
def go_to_park_nb(s, p):
    """Go to the Park: take Park cards in stack order while the clues cover the top card; the rest stay."""
    clues = pl_at(p, E.PL_CLUES)
    while s[SC + E.SC_PARK_TOP] < s[OPT + E.OPT_N_PARK]:
        k = s[SC + E.SC_PARK_TOP]
        need = s[at(PARK_REQ, k)]
        if s[clues] < need:
            return
        s[clues] -= need
        s[SC + E.SC_PARK_TOP] = k + 1
        s[pl_at(p, E.PL_GHOSTS)] += s[OPT + E.OPT_PARK_GHOSTS]
        emit_nb(s, E.EV_PARK, p, k, need, 0)
        if check_win_nb(s, p):
            return


@rules_jit_inline
def play_turn_nb(s, f, p, extra):
    """One turn of seat p: roll (maybe reroll), take or flip (or the clock penalty), the Park, extra turns."""
    s[SC + E.SC_TURN] += 1
    s[SC + E.SC_CLUE_GAINED] = 0
    s[SC + E.SC_EXTRA_GAINED] = 0
    s[SC + E.SC_ACTIVE] = p
    s[SC + E.SC_ROUND] += (p == 0) & (extra == 0)
    emit_nb(s, E.EV_TURN, p, s[SC + E.SC_TURN], s[SC + E.SC_ROUND], extra)
    d1, d2 = roll_nb(s)
    emit_nb(s, E.EV_ROLL, p, d1, d2, 0)
    n_legal = legal_actions_nb(s, p, d1, d2)
    token = pl_at(p, E.PL_TOKEN)
    if s[token] == 1:
        reroll = S.wants_reroll_nb(s, f, p, n_legal)
        stuck = s[OPT + E.OPT_STUCK]
        if n_legal == 0 and not reroll and stuck == E.STUCK_REROLL:
            reroll = True
        if reroll:
            s[token] = 0
            d1, d2 = roll_nb(s)
            emit_nb(s, E.EV_REROLL, p, d1, d2, 0)
            n_legal = legal_actions_nb(s, p, d1, d2)
        elif n_legal == 0:
            emit_nb(s, E.EV_STUCK, p, 1 if stuck == E.STUCK_CLOCK else 0, 0, 0)
            if stuck == E.STUCK_CLOCK:
                clock_penalty_nb(s, f, p)
            n_legal = -1
    if n_legal == 0:
        emit_nb(s, E.EV_STUCK, p, 1, 0, 0)
        clock_penalty_nb(s, f, p)
    elif n_legal > 0:
        i = S.choose_action_nb(s, f, p, n_legal)
        v = s[legal_at(i, 1)]
        if s[legal_at(i, 0)] == E.ACT_TAKE:
            take_card_nb(s, p, v, 0)
        else:
            flip_cards_nb(s, p, v, s[hand_n_at(p, v)], 0)
        resolve_nb(s, f, p)
    if s[SC + E.SC_WINNER] >= 0:
        return
    if s[SC + E.SC_CLUE_GAINED] > 0:
        if S.wants_park_nb(s, f, p):
            go_to_park_nb(s, p)
            if s[SC + E.SC_WINNER] >= 0:    # a Park ghost won: the game ends at once, no extra turn is earned
                return
        else:
            emit_nb(s, E.EV_PARK_SKIP, p, 0, 0, 0)
    gained = s[SC + E.SC_EXTRA_GAINED]
    if s[OPT + E.OPT_EXTRA_TURNS] == E.EXTRA_ONE:
        gained = min(gained, 1)
    s[SC + E.SC_EXTRA] += gained


@rules_jit
def play_game_nb(s, f, seed, game):
    """Deal game `game` of run `seed` and play it to the end."""
    reset_nb(s, seed, game)
    play_on_nb(s, f)


@rules_jit
def play_on_nb(s, f):
    """Gameplay Overview: seat 0 starts, turns go clockwise, extra turns first, until a win or the turn cap."""
    n_players = s[OPT + E.OPT_N_PLAYERS]
    max_turns = s[OPT + E.OPT_MAX_TURNS]
    p = 0
    extra = 0
    while True:
        if s[SC + E.SC_TURN] >= max_turns:
            emit_nb(s, E.EV_CAP, -1, s[SC + E.SC_TURN], 0, 0)
            return
        play_turn_nb(s, f, p, extra)
        if s[SC + E.SC_WINNER] >= 0:
            return
        if s[SC + E.SC_EXTRA] > 0:
            s[SC + E.SC_EXTRA] -= 1
            extra = 1
        else:
            p = p + 1 if p + 1 < n_players else 0
            extra = 0


@rules_jit
def seat_lineup_nb(s, f, lineup_kinds, lineup_params, rotate, game, slots):
    """Seat s plays lineup slot (s + game) mod P when seats rotate, slot s otherwise."""
    n = lineup_kinds.shape[0]
    for seat in range(n):
        k = (seat + game) % n if rotate else seat
        slots[seat] = k
        s[at(KINDS, seat)] = lineup_kinds[k]
        for j in range(N_PARAMS):
            f[param_at(seat, j)] = lineup_params[k, j]


@rules_jit
def draws_nb(s, n_players):
    """Stream words this game consumed, all streams together (one word gives both dice of a roll)."""
    total = 0
    for i in range(2 + n_players):
        total += s[stream_at(i) + np.uint64(1)]      # word 1: the stream's counter
    return total


@njit(cache=True, parallel=True)
def simulate_nb(s0, f0, lineup_kinds, lineup_params, rotate, seed, game0, n_games, n_blocks,
                winner, victory, turns, rounds, slots, final, counters, draws, rows, sums, keep_rows):
    """Play games game0 .. game0+n_games-1 into the per-game output arrays, and each block's counters summed into
    ``sums`` (``rows``: the counters flattened, ``sums`` the [n_blocks, 4, I * C] sums flattened; see
    kernel_common.add_counter_sums_nb). Without ``keep_rows``, ``counters`` has a row per block, not per game: each
    game's counters are written over its block's row, summed, and not kept (kernel_common.counter_sums).

    Games are split into `n_blocks` contiguous blocks run in parallel, each with its own copy of the state; every
    game draws only from its own (seed, game) streams, so outputs do not depend on the split or the thread count.
    """
    n_players = lineup_kinds.shape[0]
    per_block = (n_games + n_blocks - 1) // n_blocks
    width = counters.shape[2] * counters.shape[3]
    for b in prange(n_blocks):
        s = s0.copy()
        f = f0.copy()
        first = b * per_block
        for i in range(first, min(n_games, (b + 1) * per_block)):
            g = game0 + i
            if rotate or i == first:
                seat_lineup_nb(s, f, lineup_kinds, lineup_params, rotate, g, slots[i])
            else:                       # fixed seats: the same lineup as the game before, already in s and f
                for seat in range(n_players):
                    slots[i, seat] = slots[i - 1, seat]
            play_game_nb(s, f, seed, g)
            r = i if keep_rows else np.int64(b)        # the game's row of counters, or its block's
            winner[i] = s[SC + E.SC_WINNER]
            victory[i] = s[SC + E.SC_VICTORY]
            turns[i] = s[SC + E.SC_TURN]
            rounds[i] = s[SC + E.SC_ROUND]
            for p in range(n_players):
                for k in range(E.N_PL):
                    final[i, p, k] = s[pl_at(p, k)]
                for v in range(E.N_VALUES - 1):         # plain indices: a view of the row would cost a runtime call
                    for k in range(E.N_CNT):
                        counters[r, p, v, k] = s[cnt_at(p, v + 1, k)]
            w = s[SC + E.SC_WINNER]
            add_counter_sums_nb(rows, r, n_players, width, (1 << w) if w >= 0 else 0, sums, b)
            draws[i] = draws_nb(s, n_players)


@njit(cache=True, error_model="numpy")
def trace_game_nb(s0, f0, lineup_kinds, lineup_params, seed, game, trace_rows):
    """Play one game with a trace buffer; returns the final state array (trace rows after layout.TRACE)."""
    s = np.zeros(s0.shape[0] + 5 * trace_rows, np.int64)
    s[:s0.shape[0]] = s0
    f = f0.copy()
    slots = np.zeros(lineup_kinds.shape[0], np.int64)
    seat_lineup_nb(s, f, lineup_kinds, lineup_params, False, game, slots)
    play_game_nb(s, f, seed, game)
    return s


# --- Test hooks (plain Python): stack the Town, script the dice and the "scripted" strategy's decisions. --------

def script_dice(s: np.ndarray, dice) -> None:
    """The next dice rolled are `dice`, in order; after them the dice stream resumes."""
    load_script(s, DICE_SCRIPT, M_DICE_N, M_DICE_I, dice)


def script_choices(s: np.ndarray, choices) -> None:
    """Decisions of seats playing the scripted strategy, in order (see ``strategies.SCRIPTED``)."""
    load_script(s, CHOICE_SCRIPT, M_CHOICE_N, M_CHOICE_I, choices)


def stack_town(s: np.ndarray, value: int, cards_bottom_to_top) -> None:
    """Put these card ids (of `value`) in value's Town stack, the last one on top."""
    cards = list(cards_bottom_to_top)
    for i, c in enumerate(cards):
        s[town_at(value, i)] = c
    s[TOWN_N + value] = len(cards)


def trace_game(s0: np.ndarray, f0: np.ndarray, kinds: np.ndarray, params: np.ndarray, seed: int, game: int,
               max_rows: int = 100_000) -> tuple[np.ndarray, np.ndarray]:
    """Play one game with its trace: (events int64[n, 5] as (kind, player, a, b, c), final state array)."""
    s = trace_game_nb(s0, f0, np.asarray(kinds, np.int64), np.asarray(params, np.float64), np.uint64(seed),
                      int(game), max_rows)
    n = int(s[M_TRACE])
    if n > max_rows:
        raise RuntimeError(f"trace overflow: {n} events, room for {max_rows}")
    return s[TRACE:TRACE + 5 * n].reshape(n, 5).copy(), s
