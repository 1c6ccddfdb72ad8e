"""A whole game: rounds up to the round limit, each seat's turns on its strategy (a lookahead seat's turn decisions
are searched, ``lookahead.choice_nb``; its playouts run ``rounds.base_turns_nb`` and ``rounds.play_out_nb``, the same
rules with no search)."""
from __future__ import annotations

from ....core.jit import rules_jit_flat
from ..layout import ROUND, ROUND_LIMIT
from .lookahead import choice_nb
from .rounds import act_nb, begin_turn_nb, end_round_nb, finish_nb, hands_left_nb, open_play_nb, start_round_nb
from .setup import reset_nb


@rules_jit_flat
def turns_nb(state, params, p):
    """1. Play phase, its turns: they alternate from seat p until both hands are empty or a player holding cards
    cannot act. Returns 1 when the BOSS falls."""
    while hands_left_nb(state):
        n = begin_turn_nb(state, p)
        if n < 0:
            return 0
        if n > 0 and act_nb(state, params, p, n, choice_nb(state, params, p, n)):
            return 1
        p = 1 - p
    return 0


@rules_jit_flat
def play_phase_nb(state, params, start):
    """1. Play phase: deal, then turns alternate from the start player. Returns 1 when the BOSS falls."""
    open_play_nb(state, start)
    return turns_nb(state, params, start)


@rules_jit_flat
def play_game_nb(state, params, seed, game):
    """Set up game `game` of run `seed` and play it to the end."""
    reset_nb(state, seed, game)
    play_on_nb(state, params)


@rules_jit_flat
def play_on_nb(state, params):
    """Rounds from the next one until the BOSS falls or the round limit."""
    while state[ROUND] < state[ROUND_LIMIT]:
        start = start_round_nb(state)
        if end_round_nb(state, params, turns_nb(state, params, start), start):
            return
    finish_nb(state, 0)
