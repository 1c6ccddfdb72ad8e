"""Climbing Tower's rounds (rulebook, Flow of play): set-up, then rounds up to the round limit, each a play phase
(``play``), a build phase and a next-round phase (``build``); the game ends the moment the BOSS falls (the team wins)
or after the last round's play phase (the team loses)."""
from __future__ import annotations

from ....core.jit import rules_jit_flat
from .. import enums
from .. import strategies
from ..layout import (BLOCKED_SEAT, CC_IN_DECK_END, DECK_SIZE, FN_FLOOR, FREE_PLAY_USED, OPTION_START_PLAYER, OWNED,
                      PL_DOWN, PL_FLOOR, PL_HAND_N, PL_OFFERED, PL_REDRAWS, ROUND, ROUND_LIMIT, START_PLAYER,
                      TEAM_DECK_END, TOP_CARD, at, cc_at, final_at, pl_at)
from .build import build_one_nb, build_options_nb, build_row_nb, next_round_nb, return_cards_nb, skill_gold_nb
from .play import apply_nb, blocked_nb, deal_nb, end_game_nb, end_play_nb, legal_nb, pass_nb, turn_row_nb
from .setup import emit_nb, reset_nb


@rules_jit_flat
def play_phase_nb(state, params, start):
    """1. Play phase: deal, then turns alternate from the start player until both hands are empty or a player
    holding cards cannot act. Returns 1 when the BOSS falls."""
    for p in range(2):
        state[pl_at(p, PL_REDRAWS)] = 0
        state[pl_at(p, PL_OFFERED)] = 0
        state[pl_at(p, PL_DOWN)] = -1
    state[TOP_CARD] = -1
    state[FREE_PLAY_USED] = 0
    state[BLOCKED_SEAT] = -1
    deal_nb(state, start)
    p = start
    while state[pl_at(0, PL_HAND_N)] > 0 or state[pl_at(1, PL_HAND_N)] > 0:
        n = legal_nb(state, p)
        if n == 0:
            if state[pl_at(p, PL_HAND_N)] > 0:
                blocked_nb(state, p)
                return 0
            pass_nb(state, p)
        else:
            strategies.fill_view_nb(state, p)
            i = strategies.turn_nb(state, params, p, n)
            if i < 0 or i >= n:
                i = 0
            act, c = turn_row_nb(state, p, i)
            if apply_nb(state, params, p, act, c):
                return 1
        p = 1 - p
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
def play_game_nb(state, params, seed, game):
    """Set up game `game` of run `seed` and play it to the end."""
    reset_nb(state, seed, game)
    play_on_nb(state, params)


@rules_jit_flat
def play_on_nb(state, params):
    """Rounds from the next one until the BOSS falls or the round limit: the start player alternates from the first
    player (or is always the first, by option)."""
    limit = state[ROUND_LIMIT]
    while state[ROUND] < limit:
        r = state[ROUND] + 1
        state[ROUND] = r
        start = (r - 1) % 2 if state[OPTION_START_PLAYER] == enums.START_ALTERNATE else 0
        state[START_PLAYER] = start
        emit_nb(state, enums.EV_ROUND, start, r, state[DECK_SIZE], 0)
        if play_phase_nb(state, params, start):
            return_cards_nb(state)
            finish_nb(state, 1)
            return
        end_play_nb(state)
        return_cards_nb(state)
        if r == limit:
            break
        build_phase_nb(state, params, start)
        next_round_nb(state)
    finish_nb(state, 0)


@rules_jit_flat
def finish_nb(state, won):
    end_game_nb(state, won)
    for p in range(2):
        state[final_at(p, FN_FLOOR)] = state[pl_at(p, PL_FLOOR)] + 1     # counted from 1, as a player would
    for i in range(state[DECK_SIZE]):      # the deck's cards (every card of a round is back in it by now); the
        state[cc_at(state[at(OWNED, i)], CC_IN_DECK_END)] = 1     # others' counters are still 0 from reset_nb
    state[TEAM_DECK_END] = state[DECK_SIZE]
