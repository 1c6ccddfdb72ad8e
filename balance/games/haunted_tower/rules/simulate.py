"""The Haunted Tower batch driver: each seat's strategy and hero for a game, whole games in parallel blocks
(``simulate_nb``), one game with its trace (``trace_game``), and the test hooks that script the dice and the
decisions."""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ....core.jit import rules_jit
from ...driver import read_trace
from ...kernel_common import load_script
from ..layout import (CHOICE_SCRIPT, DICE_SCRIPT, FINAL_FIELDS, KINDS, M_CHOICE_I, M_CHOICE_N, M_DICE_I, M_DICE_N,
                      M_SEARCHED, M_TRACE, N_FINAL, N_IC, N_MC, N_PARAMS, ROUND, SEAT_HERO, STREAMS, TRACE, TURN,
                      VICTORY, WINNER, WIN_MASK, at, hs_at, icnt_at, mcnt_at, param_at)
from .. import strategies
from .turn import play_game_nb


@rules_jit
def seat_lineup_nb(state, params, lineup_kinds, lineup_params, heroes, rotate, hero_rotate, game, slots, roles):
    """Seat s plays lineup slot (s + game) mod P when seats rotate, slot s otherwise; and hero
    heroes[(s + shift) mod H], shift = game // P with hero rotation (every hero at every seat over P x H games)."""
    n = lineup_kinds.shape[0]
    n_heroes = heroes.shape[0]
    shift = (game // n) % n_heroes if hero_rotate else 0
    for seat in range(n):
        k = (seat + game) % n if rotate else seat
        slots[seat] = k
        state[at(KINDS, seat)] = lineup_kinds[k]
        for j in range(N_PARAMS):
            params[param_at(seat, j)] = lineup_params[k, j]
        h = heroes[(seat + shift) % n_heroes]
        state[at(SEAT_HERO, seat)] = h
        roles[seat] = h


@rules_jit
def draws_nb(state, n_players):
    """Stream words this game consumed, all streams together."""
    total = 0
    for i in range(2 + n_players):
        total += state[np.uint64(STREAMS + 3 * i + 1)]
    return total


@njit(cache=True, parallel=True)
def simulate_nb(initial_state, initial_params, tables, costs, lineup_kinds, lineup_params, heroes, rotate, hero_rotate,
                seed, game0, n_games, n_blocks, winner, win_mask, victory, turns, rounds, slots, roles, final, monsters,
                items, draws):
    """Play games game0 .. game0+n_games-1 into the per-game output arrays.

    Games are split into `n_blocks` contiguous blocks run in parallel, each with its own copy of the state; every
    game draws only from its own (seed, game) streams, so outputs do not depend on the split or the thread count.
    """
    per_block = (n_games + n_blocks - 1) // n_blocks
    for b in prange(n_blocks):
        state = initial_state.copy()
        params = initial_params.copy()
        for i in range(b * per_block, min(n_games, (b + 1) * per_block)):
            gi = game0 + i
            seat_lineup_nb(state, params, lineup_kinds, lineup_params, heroes, rotate, hero_rotate, gi, slots[i],
                           roles[i])
            play_game_nb(state, params, tables, costs, seed, gi)
            record_game_nb(state, i, winner, win_mask, victory, turns, rounds, final, monsters, items, draws)


@rules_jit
def record_game_nb(state, i, winner, win_mask, victory, turns, rounds, final, monsters, items, draws):
    """Game i's outcome, from its final state, into the per-game output arrays."""
    n_players = final.shape[1]
    winner[i] = state[WINNER]
    win_mask[i] = state[WIN_MASK]
    victory[i] = state[VICTORY]
    turns[i] = state[TURN]
    rounds[i] = state[ROUND]
    for p in range(n_players):
        for k in range(N_FINAL):
            final[i, p, k] = state[hs_at(p, FINAL_FIELDS[k])]
        for m in range(monsters.shape[2]):
            for k in range(N_MC):
                monsters[i, p, m, k] = state[mcnt_at(p, m, k)]
        for m in range(items.shape[2]):
            for k in range(N_IC):
                items[i, p, m, k] = state[icnt_at(p, m, k)]
    draws[i] = draws_nb(state, n_players)


@njit(cache=True, error_model="numpy")
def trace_game_nb(initial_state, initial_params, tables, costs, lineup_kinds, lineup_params, heroes, rotate,
                  hero_rotate, seed, game, trace_rows):
    """Play one game with a trace buffer, seated as ``simulate_nb`` seats it; returns the final state array (trace
    rows after layout.TRACE)."""
    state = np.zeros(initial_state.shape[0] + 5 * trace_rows, np.int64)
    state[:initial_state.shape[0]] = initial_state
    params = initial_params.copy()
    slots = np.zeros(lineup_kinds.shape[0], np.int64)
    roles = np.zeros(lineup_kinds.shape[0], np.int64)
    seat_lineup_nb(state, params, lineup_kinds, lineup_params, heroes, rotate, hero_rotate, game, slots, roles)
    play_game_nb(state, params, tables, costs, seed, game)
    return state


# --- Test hooks (plain Python): script the dice and the "scripted" strategy's decisions. ------------------------

def script_dice(state: np.ndarray, dice) -> None:
    """The next dice rolled (1d6 or 1d10, whichever comes) are `dice`, in order; after them the dice stream
    resumes."""
    load_script(state, DICE_SCRIPT, M_DICE_N, M_DICE_I, dice)


def script_choices(state: np.ndarray, choices) -> None:
    """Decisions of seats playing the scripted strategy, in order (see ``strategies.SCRIPTED``)."""
    load_script(state, CHOICE_SCRIPT, M_CHOICE_N, M_CHOICE_I, choices)


def trace_game(compiled, seed: int, game: int, max_rows: int = 200_000) -> tuple[np.ndarray, np.ndarray]:
    """Play game `game` of run `seed` of a compiled scenario (``compile_scenario``), seated as the batch kernel seats
    it, with its trace: (events int64[n, 5], final state array)."""
    initial_state, initial_params, tables, costs, kinds, params, heroes, rotate, hero_rotate = compiled
    entry = trace_game_nb
    if strategies.LOOKAHEAD in kinds:
        from .look_game import trace_look_nb as entry       # a lineup with a lookahead seat: its own entry point
    state = entry(initial_state, initial_params, tables, costs, kinds, params, heroes, bool(rotate),
                          bool(hero_rotate), np.uint64(seed), int(game), max_rows)
    return read_trace(state, TRACE, M_TRACE, max_rows), state


def searched_decisions(compiled, seed: int, game: int) -> int:
    """Moves the lookahead seats searched in game `game` of run `seed` (``layout.M_SEARCHED``), played by the
    one-game kernel with no room for trace rows (``GameSpec.lookahead_searched``, for ``balance bench``)."""
    from .look_game import trace_look_nb
    initial_state, initial_params, tables, costs, kinds, params, heroes, rotate, hero_rotate = compiled
    state = trace_look_nb(initial_state, initial_params, tables, costs, kinds, params, heroes, bool(rotate),
                          bool(hero_rotate), np.uint64(seed), int(game), 0)
    return int(state[M_SEARCHED])
