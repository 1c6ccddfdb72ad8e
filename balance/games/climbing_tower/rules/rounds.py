"""Climbing Tower's rounds (rulebook, Flow of play): set-up, then rounds up to the round limit, each a play phase
(``play``), a build phase and a next-round phase (``build``); the game ends the moment the BOSS falls (the team wins)
or after the last round's play phase (the team loses). The game can also be played on from a turn
(``play_from_nb``), so that ``game`` can stop the rounds at a lookahead seat's turn decision and go on after it, and a
lookahead's playout can take one action and play on with the same rules."""
from __future__ import annotations

from ....core.jit import rules_jit_flat
from .. import enums
from .. import strategies
from ..layout import (BLOCKED_SEAT, CC_IN_DECK_END, DECK_SIZE, FN_FLOOR, FREE_PLAY_USED, LOOK, OPTION_START_PLAYER,
                      OWNED, PL_DOWN, PL_FLOOR, PL_HAND_N, PL_OFFERED, PL_REDRAWS, ROUND, ROUND_LIMIT, START_PLAYER,
                      TEAM_DECK_END, TOP_CARD, at, cc_at, final_at, pl_at)
from .build import build_one_nb, build_options_nb, build_row_nb, next_round_nb, return_cards_nb, skill_gold_nb
from .play import apply_nb, blocked_nb, deal_nb, end_game_nb, end_play_nb, legal_nb, pass_nb, turn_row_nb
from .setup import emit_nb


@rules_jit_flat
def start_round_nb(state):
    """The next round begins: the start player alternates from the first player, or is always the first, by
    option. Returns the start player."""
    r = state[ROUND] + 1
    state[ROUND] = r
    start = (r - 1) % 2 if state[OPTION_START_PLAYER] == enums.START_ALTERNATE else 0
    state[START_PLAYER] = start
    emit_nb(state, enums.EV_ROUND, start, r, state[DECK_SIZE], 0)
    return start


@rules_jit_flat
def open_play_nb(state, start):
    """1. Play phase, its start: nothing used or offered yet this round, no top card; the deal."""
    for p in range(2):
        state[pl_at(p, PL_REDRAWS)] = 0
        state[pl_at(p, PL_OFFERED)] = 0
        state[pl_at(p, PL_DOWN)] = -1
    state[TOP_CARD] = -1
    state[FREE_PLAY_USED] = 0
    state[BLOCKED_SEAT] = -1
    deal_nb(state, start)


@rules_jit_flat
def hands_left_nb(state):
    """1. Play phase: turns go on while a hand holds cards."""
    return state[pl_at(0, PL_HAND_N)] > 0 or state[pl_at(1, PL_HAND_N)] > 0


@rules_jit_flat
def begin_turn_nb(state, p):
    """Seat p's turn: its legal rows (at ``CAND``, rules.play.legal_nb) to choose from; 0: an empty hand passes;
    -1: a hand with no legal action ends the round (blocked)."""
    n = legal_nb(state, p)
    if n == 0:
        if state[pl_at(p, PL_HAND_N)] > 0:
            blocked_nb(state, p)
            return -1
        pass_nb(state, p)
    return n


@rules_jit_flat
def base_choice_nb(state, params, p, n):
    """Seat p's strategy picks one of its n legal rows, seeing what its view allows."""
    strategies.fill_view_nb(state, p)
    return strategies.turn_nb(state, params, p, n)


@rules_jit_flat
def act_nb(state, params, p, n, i):
    """Row i of seat p's n legal rows carried out (row 0 for an answer out of range). Returns 1 when the BOSS
    falls."""
    if i < 0 or i >= n:
        i = 0
    act, c = turn_row_nb(state, p, i)
    return apply_nb(state, params, p, act, c)


@rules_jit_flat
def turns_nb(state, params, p, look):
    """1. Play phase, its turns: they alternate from seat p until both hands are empty or a player holding cards
    cannot act. Returns 1 when the BOSS falls, else 0; with `look` (``game``), 2 + q at the turn of a lookahead seat
    q with a choice (its legal rows at ``CAND``), which is then the caller's to take."""
    while hands_left_nb(state):
        n = begin_turn_nb(state, p)
        if n < 0:
            return 0
        if n > 0:
            if look is not None:
                if state[at(LOOK, p)] > 0 and n > 1:
                    return 2 + p
            if act_nb(state, params, p, n, base_choice_nb(state, params, p, n)):
                return 1
        p = 1 - p
    return 0


@rules_jit_flat
def play_phase_nb(state, params, start, look):
    """1. Play phase: deal, then turns alternate from the start player (``turns_nb``: what it returns)."""
    open_play_nb(state, start)
    return turns_nb(state, params, start, look)


@rules_jit_flat
def end_round_nb(state, params, won, start):
    """The rest of the round after its play phase (`won`: the BOSS fell): the game's end, or the end of the play
    phase, the build phase and the next-round phase. Returns 1 when the game is over."""
    if won:
        return_cards_nb(state)
        finish_nb(state, 1)
        return 1
    end_play_nb(state)
    return_cards_nb(state)
    if state[ROUND] == state[ROUND_LIMIT]:
        finish_nb(state, 0)
        return 1
    build_phase_nb(state, params, start)
    next_round_nb(state)
    return 0


@rules_jit_flat
def build_phase_nb(state, params, builder):
    """2. Build phase: the builder spends the round's gold on R, Y and U in any order until it stops or nothing is
    left to do."""
    skill_gold_nb(state)
    while True:
        n = build_options_nb(state)
        if n == 1:
            return
        strategies.fill_view_nb(state, builder)
        i = strategies.build_nb(state, params, builder, n)
        if i <= 0 or i >= n:
            return
        act, arg = build_row_nb(state, i)
        build_one_nb(state, builder, act, arg)


@rules_jit_flat
def play_on_nb(state, params, look):
    """Rounds from the next one until the BOSS falls or the round limit; returns -1. With `look` (``game``) they
    stop instead at a lookahead seat's turn with a choice and return that seat (its legal rows at ``CAND``)."""
    while state[ROUND] < state[ROUND_LIMIT]:
        start = start_round_nb(state)
        won = play_phase_nb(state, params, start, look)
        if won > 1:
            return won - 2
        if end_round_nb(state, params, won, start):
            return -1
    finish_nb(state, 0)
    return -1


@rules_jit_flat
def play_from_nb(state, params, p, look):
    """The game on from seat p's turn in this round's play phase: its turns, the rest of the round, then the next
    rounds (``play_on_nb``: what it returns)."""
    won = turns_nb(state, params, p, look)
    if won > 1:
        return won - 2
    if end_round_nb(state, params, won, state[START_PLAYER]):
        return -1
    return play_on_nb(state, params, look)


@rules_jit_flat
def act_on_nb(state, params, p, n, i, look):
    """Row i of seat p's n legal rows carried out, then the game played on from the partner's turn
    (``play_from_nb``, with `look`)."""
    if act_nb(state, params, p, n, i):
        end_round_nb(state, params, 1, state[START_PLAYER])
        return -1
    return play_from_nb(state, params, 1 - p, look)


@rules_jit_flat
def finish_nb(state, won):
    end_game_nb(state, won)
    for p in range(2):
        state[final_at(p, FN_FLOOR)] = state[pl_at(p, PL_FLOOR)] + 1     # counted from 1, as a player would
    for i in range(state[DECK_SIZE]):      # the deck's cards (every card of a round is back in it by now); the
        state[cc_at(state[at(OWNED, i)], CC_IN_DECK_END)] = 1     # others' counters are still 0 from reset_nb
    state[TEAM_DECK_END] = state[DECK_SIZE]
