"""Gameplay Overview: one turn (roll, maybe reroll, take or flip, the Park, extra turns) in three parts, and the turn
loop (``game`` plays whole games, a lookahead seat's turns searched)."""
from __future__ import annotations

from ....core.jit import rules_jit, rules_jit_inline
from .. import enums
from .. import strategies
from ..layout import (ACTIVE_SEAT, CLUES_GAINED, EXTRA_TURNS, EXTRA_TURNS_GAINED, EXTRA_TURNS_OWED, KINDS, MAX_TURNS,
                      M_STACK, N_PARK_CARDS, N_PLAYERS, PARK_GHOSTS, PARK_REQ, PARK_TOP, ROUND, STUCK_WITH_TOKEN,
                      TOWN_N, TURN, WINNER, at, hand_n_at, legal_at, pl_at, stack_at)
from ..strategies.kinds import LOOKAHEAD
from .effects import check_win_nb, flip_cards_nb, resolve_nb, take_card_nb
from .setup import emit_nb, roll_nb


@rules_jit_inline
def offer_nb(state, n, act, v, ok):
    """Write (act, v) as legal row n and count it when `ok`; written either way, so the caller does not branch."""
    state[legal_at(n, 0)] = act
    state[legal_at(n, 1)] = v
    return n + ok


@rules_jit_inline
def legal_actions_nb(state, p, d1, d2):
    """2. Take a Card or Flip Your Cards: distinct (action, value) pairs for a single die or the sum.

    Takes come first, then flips, each by ascending value. A take needs a card left in that Town stack; a flip needs
    at least one card of that value held. (Rows are written unconditionally and counted by `ok`: the checks are
    coin flips to a branch predictor.)
    """
    a = min(d1, d2)
    b = max(d1, d2)
    c = d1 + d2
    two = b != a
    n = offer_nb(state, 0, enums.ACT_TAKE, a, state[at(TOWN_N, a)] > 0)
    n = offer_nb(state, n, enums.ACT_TAKE, b, two & (state[at(TOWN_N, b)] > 0))
    n = offer_nb(state, n, enums.ACT_TAKE, c, state[at(TOWN_N, c)] > 0)
    n = offer_nb(state, n, enums.ACT_FLIP, a, state[hand_n_at(p, a)] > 0)
    n = offer_nb(state, n, enums.ACT_FLIP, b, two & (state[hand_n_at(p, b)] > 0))
    return offer_nb(state, n, enums.ACT_FLIP, c, state[hand_n_at(p, c)] > 0)


@rules_jit
def clock_penalty_nb(state, params, p):
    """No legal action: the clock hand moves one step and its effect applies."""
    state[stack_at(0, 0)] = enums.FX_CLOCK
    state[stack_at(0, 1)] = enums.SRC_RULE
    state[stack_at(0, 2)] = 0
    state[M_STACK] = 1
    resolve_nb(state, params, p)


@rules_jit
def go_to_park_nb(state, p):
    """Go to the Park: take Park cards in stack order while the clues cover the top card; the rest stay."""
    clues = pl_at(p, enums.PL_CLUES)
    while state[PARK_TOP] < state[N_PARK_CARDS]:
        k = state[PARK_TOP]
        need = state[at(PARK_REQ, k)]
        if state[clues] < need:
            return
        state[clues] -= need
        state[PARK_TOP] = k + 1
        state[pl_at(p, enums.PL_GHOSTS)] += state[PARK_GHOSTS]
        emit_nb(state, enums.EV_PARK, p, k, need, 0)
        if check_win_nb(state, p):
            return


@rules_jit_inline
def begin_turn_nb(state, params, p, extra):
    """The start of seat p's turn: 1. Roll Dice, maybe reroll (a stuck player who keeps the token may meet the clock).
    Returns the legal actions to choose from (rows at ``LEGAL``); 0: none, the clock penalty is due; -1: the turn
    has no action left."""
    state[TURN] += 1
    state[CLUES_GAINED] = 0
    state[EXTRA_TURNS_GAINED] = 0
    state[ACTIVE_SEAT] = p
    state[ROUND] += (p == 0) & (extra == 0)
    emit_nb(state, enums.EV_TURN, p, state[TURN], state[ROUND], extra)
    d1, d2 = roll_nb(state)
    emit_nb(state, enums.EV_ROLL, p, d1, d2, 0)
    n_legal = legal_actions_nb(state, p, d1, d2)
    token = pl_at(p, enums.PL_TOKEN)
    if state[token] == 1:
        reroll = strategies.wants_reroll_nb(state, params, p, n_legal)
        stuck = state[STUCK_WITH_TOKEN]
        if n_legal == 0 and not reroll and stuck == enums.STUCK_REROLL:
            reroll = True
        if reroll:
            state[token] = 0
            d1, d2 = roll_nb(state)
            emit_nb(state, enums.EV_REROLL, p, d1, d2, 0)
            n_legal = legal_actions_nb(state, p, d1, d2)
        elif n_legal == 0:
            emit_nb(state, enums.EV_STUCK, p, 1 if stuck == enums.STUCK_CLOCK else 0, 0, 0)
            if stuck == enums.STUCK_CLOCK:
                clock_penalty_nb(state, params, p)
            n_legal = -1
    return n_legal


@rules_jit_inline
def act_nb(state, params, p, n_legal, i):
    """2. Take a Card or Flip Your Cards: legal row i (of `n_legal` > 0) and what it reveals; the clock penalty when
    nothing is legal (`n_legal` 0); nothing after a stuck turn (-1)."""
    if n_legal == 0:
        emit_nb(state, enums.EV_STUCK, p, 1, 0, 0)
        clock_penalty_nb(state, params, p)
    elif n_legal > 0:
        v = state[legal_at(i, 1)]
        if state[legal_at(i, 0)] == enums.ACT_TAKE:
            take_card_nb(state, p, v, 0)
        else:
            flip_cards_nb(state, p, v, state[hand_n_at(p, v)], 0)
        resolve_nb(state, params, p)


@rules_jit_inline
def end_turn_nb(state, params, p):
    """The end of seat p's turn, unless the game is won: Go to the Park with this turn's clues, count extra turns."""
    if state[WINNER] >= 0:
        return
    if state[CLUES_GAINED] > 0:
        if strategies.wants_park_nb(state, params, p):
            go_to_park_nb(state, p)
            if state[WINNER] >= 0:    # a Park ghost won: the game ends at once, no extra turn is earned
                return
        else:
            emit_nb(state, enums.EV_PARK_SKIP, p, 0, 0, 0)
    gained = state[EXTRA_TURNS_GAINED]
    if state[EXTRA_TURNS] == enums.EXTRA_ONE:
        gained = min(gained, 1)
    state[EXTRA_TURNS_OWED] += gained


@rules_jit_inline
def play_turn_nb(state, params, p, extra):
    """One turn of seat p on a heuristic (or the random or scripted) strategy: roll (maybe reroll), take or flip (or
    the clock penalty), the Park, extra turns. (``lookahead.look_turn_nb`` plays a lookahead seat's turn.)"""
    n_legal = begin_turn_nb(state, params, p, extra)
    i = 0
    if n_legal > 0:
        i = strategies.choose_action_nb(state, params, p, n_legal)
    act_nb(state, params, p, n_legal, i)
    end_turn_nb(state, params, p)


@rules_jit_inline
def capped_nb(state):
    """The turn cap is reached before a turn starts: the game ends unfinished."""
    if state[TURN] >= state[MAX_TURNS]:
        emit_nb(state, enums.EV_CAP, -1, state[TURN], 0, 0)
        return True
    return False


@rules_jit_inline
def next_turn_nb(state, p):
    """Whose turn follows seat p's: an owed extra turn first (seat, 1), else the next seat clockwise (seat, 0)."""
    if state[EXTRA_TURNS_OWED] > 0:
        state[EXTRA_TURNS_OWED] -= 1
        return p, 1
    return (p + 1 if p + 1 < state[N_PLAYERS] else 0), 0


@rules_jit
def play_on_nb(state, params, p, extra, look):
    """Gameplay Overview: turns from seat p's (an extra turn when `extra`), clockwise, extra turns first, until a win
    or the turn cap; returns (-1, 0). Every seat plays its base strategy when `look` is None (the kernel without a
    lookahead, and a lookahead's playouts); otherwise the loop stops before a lookahead seat's turn and returns
    (that seat, extra), for ``game.play_game_nb`` to play the turn searched and call it again."""
    while not capped_nb(state):
        if look is not None:
            if state[at(KINDS, p)] == LOOKAHEAD:
                return p, extra
        play_turn_nb(state, params, p, extra)
        if state[WINNER] >= 0:
            break
        p, extra = next_turn_nb(state, p)
    return -1, 0


@rules_jit_inline
def play_next_nb(state, params, p, look):
    """After seat p's turn: the game played on from the next turn (``play_on_nb``), unless it is won."""
    if state[WINNER] >= 0:
        return -1, 0
    q, extra = next_turn_nb(state, p)
    return play_on_nb(state, params, q, extra, look)
