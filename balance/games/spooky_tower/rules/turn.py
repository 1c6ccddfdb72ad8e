"""Gameplay Overview: one turn (roll, maybe reroll, take or flip, the Park, extra turns) and a whole game."""
from __future__ import annotations

from ....core.jit import rules_jit, rules_jit_inline
from .. import enums as E
from .. import strategies as S
from ..layout import M_STACK, OPT, PARK_REQ, SC, TOWN_N, at, hand_n_at, legal_at, pl_at, stack_at
from .effects import check_win_nb, flip_cards_nb, resolve_nb, take_card_nb
from .setup import emit_nb, reset_nb, roll_nb


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

