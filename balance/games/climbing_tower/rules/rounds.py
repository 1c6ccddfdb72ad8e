"""Climbing Tower's rounds (rulebook, Flow of play): set-up, then rounds up to the round limit, each a play phase
(``play``), a build phase and a next-round phase (``build``); the game ends the moment the BOSS falls (the team wins)
or after the last round's play phase (the team loses)."""
from __future__ import annotations

from ....core.jit import rules_jit_flat
from .. import enums as E
from .. import strategies as S
from ..layout import (CC_IN_DECK_END, FN_FLOOR, OWNED, OPT, OPT_ROUND_LIMIT, OPT_START, PL_DOWN, PL_FLOOR, PL_HAND_N,
                      PL_OFFERED, PL_REDRAWS, SC, SC_BLOCKED, SC_DECK_N, SC_FREE_USED, SC_ROUND, SC_START, SC_TOP, TEAM,
                      TM_DECK_END, at, cc_at, final_at, pl_at)
from .build import build_one_nb, build_options_nb, build_row_nb, next_round_nb, return_cards_nb, skill_gold_nb
from .play import apply_nb, blocked_nb, deal_nb, end_game_nb, end_play_nb, legal_nb, pass_nb, turn_row_nb
from .setup import emit_nb, reset_nb


@rules_jit_flat
def play_phase_nb(s, f, start):
    """1. Play phase: deal, then turns alternate from the start player until both hands are empty or a player
    holding cards cannot act. Returns 1 when the BOSS falls."""
    for p in range(2):
        s[pl_at(p, PL_REDRAWS)] = 0
        s[pl_at(p, PL_OFFERED)] = 0
        s[pl_at(p, PL_DOWN)] = -1
    s[SC + SC_TOP] = -1
    s[SC + SC_FREE_USED] = 0
    s[SC + SC_BLOCKED] = -1
    deal_nb(s, start)
    p = start
    while s[pl_at(0, PL_HAND_N)] > 0 or s[pl_at(1, PL_HAND_N)] > 0:
        n = legal_nb(s, p)
        if n == 0:
            if s[pl_at(p, PL_HAND_N)] > 0:
                blocked_nb(s, p)
                return 0
            pass_nb(s, p)
        else:
            S.fill_view_nb(s, p)
            i = S.turn_nb(s, f, p, n)
            if i < 0 or i >= n:
                i = 0
            act, c = turn_row_nb(s, p, i)
            if apply_nb(s, f, p, act, c):
                return 1
        p = 1 - p
    return 0


@rules_jit_flat
def build_phase_nb(s, f, builder):
    """2. Build phase: the builder spends the round's gold on R, Y and U in any order until it stops or nothing is
    left to do."""
    skill_gold_nb(s)
    while True:
        n = build_options_nb(s)
        if n == 1:
            return
        S.fill_view_nb(s, builder)
        i = S.build_nb(s, f, builder, n)
        if i <= 0 or i >= n:
            return
        act, arg = build_row_nb(s, i)
        build_one_nb(s, builder, act, arg)


@rules_jit_flat
def play_game_nb(s, f, seed, game):
    """Set up game `game` of run `seed` and play it to the end."""
    reset_nb(s, seed, game)
    play_on_nb(s, f)


@rules_jit_flat
def play_on_nb(s, f):
    """Rounds from the next one until the BOSS falls or the round limit: the start player alternates from the first
    player (or is always the first, by option)."""
    limit = s[OPT + OPT_ROUND_LIMIT]
    while s[SC + SC_ROUND] < limit:
        r = s[SC + SC_ROUND] + 1
        s[SC + SC_ROUND] = r
        start = (r - 1) % 2 if s[OPT + OPT_START] == E.START_ALTERNATE else 0
        s[SC + SC_START] = start
        emit_nb(s, E.EV_ROUND, start, r, s[SC + SC_DECK_N], 0)
        if play_phase_nb(s, f, start):
            return_cards_nb(s)
            finish_nb(s, 1)
            return
        end_play_nb(s)
        return_cards_nb(s)
        if r == limit:
            break
        build_phase_nb(s, f, start)
        next_round_nb(s)
    finish_nb(s, 0)


@rules_jit_flat
def finish_nb(s, won):
    end_game_nb(s, won)
    for p in range(2):
        s[final_at(p, FN_FLOOR)] = s[pl_at(p, PL_FLOOR)] + 1     # counted from 1, as a player would
    for i in range(s[SC + SC_DECK_N]):      # the deck's cards (every card of a round is back in it by now); the
        s[cc_at(s[at(OWNED, i)], CC_IN_DECK_END)] = 1     # others' counters are still 0 from reset_nb
    s[TEAM + TM_DECK_END] = s[SC + SC_DECK_N]
