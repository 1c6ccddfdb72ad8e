"""The batch entry points of a lineup with a lookahead seat: the same games as ``simulate``'s, a lookahead seat's
moves and encounters searched (``lookahead.look_move_nb``, ``lookahead.look_encounter_nb``). They are separate
entry points so that a lineup without a lookahead seat runs a kernel without the search in it (the same code, speed
and cold compile as before it existed); ``run_chunk`` and ``simulate.trace_game`` pick one by the lineup's kinds
(:func:`needs_look`).

The turn is ``turn.begin_turn_nb``, the move (``movement.move_to_nb``) and ``turn.after_move_nb`` with the
encounter's answer, as ``turn.end_turn_nb`` plays them, and the round loop is
``turn.rest_of_round_nb``'s with this turn: the rules are the base kernel's, written once.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ....core.jit import rules_jit
from .. import strategies
from ..layout import HEROES_IN, PLAYERS
from .lookahead import look_encounter_nb, look_move_nb, look_seats_nb
from .movement import move_to_nb
from .setup import place_chits_nb, reset_nb
from .simulate import record_game_nb, seat_lineup_nb
from .turn import CAPPED, SKIP, after_move_nb, begin_turn_nb, finish_nb, new_round_nb, turn_due_nb


def needs_look(kinds) -> bool:
    """Does a lineup (strategy kinds by slot) have a lookahead seat, and so need this module's entry points?"""
    return strategies.LOOKAHEAD in np.asarray(kinds).tolist()


@rules_jit
def look_turn_nb(state, params, tables, costs, p):
    """``turn.play_turn_nb`` with the move and the encounter from ``lookahead.look_move_nb`` and
    ``lookahead.look_encounter_nb`` (searched for a lookahead seat)."""
    moves = begin_turn_nb(state, params, p)
    if moves < 0:
        return False
    if moves == 1 and not move_to_nb(state, tables, costs, p, look_move_nb(state, params, tables, costs, p)):
        return False
    return after_move_nb(state, params, tables, costs, p, look_encounter_nb(state, params, tables, costs, p))


@rules_jit
def look_rounds_nb(state, params, tables, costs):
    """``turn.play_rounds_nb`` with :func:`look_turn_nb`."""
    while True:
        new_round_nb(state)
        for k in range(state[PLAYERS]):
            p = turn_due_nb(state, k)
            if p == SKIP:
                continue
            if p == CAPPED or not look_turn_nb(state, params, tables, costs, p) or state[HEROES_IN] == 0:
                return


@rules_jit
def look_game_nb(state, params, tables, costs, seed, game):
    """``turn.play_game_nb`` with lookahead seats (``lookahead.look_seats_nb`` turns them into their base)."""
    look_seats_nb(state, params)
    reset_nb(state, tables, seed, game)
    if place_chits_nb(state, params, tables, costs):
        look_rounds_nb(state, params, tables, costs)
    finish_nb(state)


@njit(cache=True, parallel=True)
def simulate_look_nb(initial_state, initial_params, tables, costs, lineup_kinds, lineup_params, heroes, rotate,
                     hero_rotate, seed, game0, n_games, n_blocks, winner, win_mask, victory, turns, rounds, slots,
                     roles, final, monsters, items, draws):
    """``simulate.simulate_nb`` for a lineup with a lookahead seat."""
    per_block = (n_games + n_blocks - 1) // n_blocks
    for b in prange(n_blocks):
        state = initial_state.copy()
        params = initial_params.copy()
        for i in range(b * per_block, min(n_games, (b + 1) * per_block)):
            gi = game0 + i
            seat_lineup_nb(state, params, lineup_kinds, lineup_params, heroes, rotate, hero_rotate, gi, slots[i],
                           roles[i])
            look_game_nb(state, params, tables, costs, seed, gi)
            record_game_nb(state, i, winner, win_mask, victory, turns, rounds, final, monsters, items, draws)


@njit(cache=True, error_model="numpy")
def trace_look_nb(initial_state, initial_params, tables, costs, lineup_kinds, lineup_params, heroes, rotate,
                  hero_rotate, seed, game, trace_rows):
    """``simulate.trace_game_nb`` for a lineup with a lookahead seat."""
    state = np.zeros(initial_state.shape[0] + 5 * trace_rows, np.int64)
    state[:initial_state.shape[0]] = initial_state
    params = initial_params.copy()
    slots = np.zeros(lineup_kinds.shape[0], np.int64)
    roles = np.zeros(lineup_kinds.shape[0], np.int64)
    seat_lineup_nb(state, params, lineup_kinds, lineup_params, heroes, rotate, hero_rotate, game, slots, roles)
    look_game_nb(state, params, tables, costs, seed, game)
    return state
