"""The drivers: whole games in parallel into the per-game output arrays, and one game with its trace."""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ....core.jit import rules_jit
from ...driver import read_trace
from ...kernel_common import add_counter_sums_nb, lookahead_flag
from .. import enums
from ..layout import (KINDS, M_SEARCHED, M_TRACE, N_PARAMS, ROUND, TRACE, TURN, VICTORY, WINNER, at, cnt_at, param_at,
                      pl_at, stream_at)
from ..strategies.kinds import LOOKAHEAD
from .game import play_game_nb


@rules_jit
def seat_lineup_nb(state, params, lineup_kinds, lineup_params, rotate, game, slots):
    """Seat s plays lineup slot (s + game) mod P when seats rotate, slot s otherwise."""
    n = lineup_kinds.shape[0]
    for seat in range(n):
        k = (seat + game) % n if rotate else seat
        slots[seat] = k
        state[at(KINDS, seat)] = lineup_kinds[k]
        for j in range(N_PARAMS):
            params[param_at(seat, j)] = lineup_params[k, j]


@rules_jit
def draws_nb(state, n_players):
    """Stream words this game consumed, all streams together (one word gives both dice of a roll)."""
    total = 0
    for i in range(2 + n_players):
        total += state[stream_at(i) + np.uint64(1)]      # word 1: the stream's counter
    return total


@njit(cache=True, parallel=True)
def simulate_nb(initial_state, initial_params, lineup_kinds, lineup_params, rotate, seed, game0, n_games, n_blocks,
                winner, victory, turns, rounds, slots, final, counters, draws, rows, sums, keep_rows, look):
    """Play games game0 .. game0+n_games-1 into the per-game output arrays, and each block's counters summed into
    ``sums`` (``rows``: the counters flattened, ``sums`` the [n_blocks, 4, I * C] sums flattened; see
    kernel_common.add_counter_sums_nb). Without ``keep_rows``, ``counters`` has a row per block, not per game: each
    game's counters are written over its block's row, summed, and not kept (kernel_common.counter_sums).

    Games are split into `n_blocks` contiguous blocks run in parallel, each with its own copy of the state; every
    game draws only from its own (seed, game) streams, so outputs do not depend on the split or the thread count.
    ``look``: None, or True when a seat plays the lookahead (``game``; ``kernel_common.lookahead_flag``).
    """
    n_players = lineup_kinds.shape[0]
    per_block = (n_games + n_blocks - 1) // n_blocks
    width = counters.shape[2] * counters.shape[3]
    for b in prange(n_blocks):
        state = initial_state.copy()
        params = initial_params.copy()
        first = b * per_block
        for i in range(first, min(n_games, (b + 1) * per_block)):
            g = game0 + i
            if rotate or i == first:
                seat_lineup_nb(state, params, lineup_kinds, lineup_params, rotate, g, slots[i])
            else:                       # fixed seats: the same lineup as the game before, already in s and f
                for seat in range(n_players):
                    slots[i, seat] = slots[i - 1, seat]
            play_game_nb(state, params, seed, g, look)
            r = i if keep_rows else np.int64(b)        # the game's row of counters, or its block's
            winner[i] = state[WINNER]
            victory[i] = state[VICTORY]
            turns[i] = state[TURN]
            rounds[i] = state[ROUND]
            for p in range(n_players):
                for k in range(enums.N_PL):
                    final[i, p, k] = state[pl_at(p, k)]
                for v in range(enums.N_VALUES - 1):         # plain indices: a view of the row would cost a runtime call
                    for k in range(enums.N_CNT):
                        counters[r, p, v, k] = state[cnt_at(p, v + 1, k)]
            w = state[WINNER]
            add_counter_sums_nb(rows, r, n_players, width, (1 << w) if w >= 0 else 0, sums, b)
            draws[i] = draws_nb(state, n_players)


@njit(cache=True, error_model="numpy")
def trace_game_nb(initial_state, initial_params, lineup_kinds, lineup_params, rotate, seed, game, trace_rows, look):
    """Play one game with a trace buffer, seated as ``simulate_nb`` seats it; returns the final state array (trace
    rows after layout.TRACE)."""
    state = np.zeros(initial_state.shape[0] + 5 * trace_rows, np.int64)
    state[:initial_state.shape[0]] = initial_state
    params = initial_params.copy()
    slots = np.zeros(lineup_kinds.shape[0], np.int64)
    seat_lineup_nb(state, params, lineup_kinds, lineup_params, rotate, game, slots)
    play_game_nb(state, params, seed, game, look)
    return state



def trace_game(compiled, seed: int, game: int, max_rows: int = 200_000) -> tuple[np.ndarray, np.ndarray]:
    """Play one game of a compiled scenario (``compile_scenario``) with its trace: (events int64[n, 5] as (kind,
    player, a, b, c), final state array)."""
    initial_state, initial_params, kinds, params, rotate = compiled
    state = trace_game_nb(initial_state, initial_params, np.asarray(kinds, np.int64), np.asarray(params, np.float64),
                          bool(rotate), np.uint64(seed), int(game), max_rows, lookahead_flag(kinds, LOOKAHEAD))
    return read_trace(state, TRACE, M_TRACE, max_rows), state


def searched_decisions(compiled, seed: int, game: int) -> int:
    """Decisions the lookahead seats searched in game `game` of run `seed` (``layout.M_SEARCHED``), played by the
    one-game kernel with no room for trace rows (``GameSpec.lookahead``, for ``balance bench``)."""
    initial_state, initial_params, kinds, params, rotate = compiled
    state = trace_game_nb(initial_state, initial_params, np.ascontiguousarray(kinds, np.int64),
                          np.ascontiguousarray(params, np.float64), bool(rotate), np.uint64(seed), int(game), 0,
                          lookahead_flag(kinds, LOOKAHEAD))
    return int(state[M_SEARCHED])
