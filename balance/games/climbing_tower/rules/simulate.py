"""The Climbing Tower kernel's entry points: whole games in parallel blocks into the outcome arrays
(:func:`simulate_nb`), one game with its trace (:func:`trace_game`), and the test hooks that script the deals and the
scripted strategy's answers."""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ....core.jit import rules_jit_flat
from ...driver import read_trace
from ...kernel_common import add_counter_sums_nb, load_script, lookahead_flag
from ..layout import (BOSS_SIDE, CCNT, CHOICE_SCRIPT, DEAL_SCRIPT, KINDS, LOOK, M_CHOICE_I, M_CHOICE_N, M_DEAL_I,
                      M_DEAL_N, M_SEARCHED, M_TRACE, N_CARDS, N_CC, N_FINAL, N_PARAMS, N_SK, N_SKILLS, N_TEAM, ROUND,
                      TEAM, TOWER_LABEL, TRACE, TURN, VICTORY, WINNER, at, final_at, param_at, sk_at, stream_at)
from .. import strategies
from .game import play_game_nb
from .lookahead import seat_nb


@rules_jit_flat
def seat_lineup_nb(state, params, lineup_kinds, lineup_params, rotate, game, slots, look):
    """Seat s plays lineup slot (s + game) mod 2 when seats rotate, slot s otherwise (with `look`, ``game``: a
    lookahead seat plays its base strategy, searching its turns, ``lookahead.seat_nb``)."""
    for seat in range(2):
        k = (seat + game) % 2 if rotate else seat
        slots[seat] = k
        state[at(KINDS, seat)] = lineup_kinds[k]
        for j in range(N_PARAMS):
            params[param_at(seat, j)] = lineup_params[k, j]
        if look is not None:
            state[at(LOOK, seat)] = 0
            if lineup_kinds[k] == strategies.LOOKAHEAD:
                seat_nb(state, params, seat)


@rules_jit_flat
def draws_nb(state):
    total = 0
    for i in range(3):
        total += state[stream_at(i) + np.uint64(1)]
    return total


@njit(cache=True, parallel=True)
def simulate_nb(initial_state, initial_params, lineup_kinds, lineup_params, rotate, seed, game0, n_games, n_blocks,
                winner, win_mask, victory, turns, rounds, slots, final, skills, team, tower, boss_side, draws,
                card_rows, card_sums, keep_rows, look):
    """Play games game0 .. game0+n_games-1 into the per-game output arrays, in `n_blocks` parallel blocks (each game
    draws only from its own streams, so the outputs do not depend on the split), and each block's card counters
    summed into ``card_sums`` (``card_rows``: the chunk's card counters, [games, 1, cards, N_CC], flattened; see
    kernel_common.add_counter_sums_nb); without ``keep_rows``, ``card_rows`` has a row per block, each game's written
    over its block's row (kernel_common.counter_sums). ``look``: None, or True when a seat plays the lookahead
    (``game``; ``kernel_common.lookahead_flag``)."""
    per_block = (n_games + n_blocks - 1) // n_blocks
    n_cards = initial_state[N_CARDS]
    for b in prange(n_blocks):
        state = initial_state.copy()
        params = initial_params.copy()
        for i in range(b * per_block, min(n_games, (b + 1) * per_block)):
            g = game0 + i
            seat_lineup_nb(state, params, lineup_kinds, lineup_params, rotate, g, slots[i], look)
            play_game_nb(state, params, seed, g, look)
            won = state[WINNER] == 0
            winner[i] = state[WINNER]
            win_mask[i] = 3 if won else 0
            victory[i] = state[VICTORY]
            turns[i] = state[TURN]
            rounds[i] = state[ROUND]
            tower[i] = state[TOWER_LABEL]
            boss_side[i] = state[BOSS_SIDE]
            for p in range(2):
                for k in range(N_FINAL):
                    final[i, p, k] = state[final_at(p, k)]
            # game i's card counters are row r of card_rows and cc_at(c, k) is CCNT + c * N_CC + k: one contiguous
            # copy (vectorised), instead of a 4-d index per counter
            r = i if keep_rows else np.int64(b)        # the game's row of card counters, or its block's
            row = np.uint64(r * n_cards * N_CC)
            for j in range(n_cards * N_CC):
                card_rows[row + np.uint64(j)] = state[np.uint64(CCNT + j)]
            for k in range(N_SKILLS):
                for j in range(N_SK):
                    skills[i, 0, k, j] = state[sk_at(k, j)]
            for k in range(N_TEAM):
                team[i, 0, 0, k] = state[TEAM + k]
            add_counter_sums_nb(card_rows, r, 1, n_cards * N_CC, 3 if won else 0, card_sums, b)
            draws[i] = draws_nb(state)


@njit(cache=True, error_model="numpy")
def trace_game_nb(initial_state, initial_params, lineup_kinds, lineup_params, rotate, seed, game, trace_rows, look):
    """Play game `game` with a trace buffer, its seats taken as the batch kernel takes them (:func:`seat_lineup_nb`);
    returns the final state array (trace rows after layout.TRACE)."""
    state = np.zeros(initial_state.shape[0] + 5 * trace_rows, np.int64)
    state[:initial_state.shape[0]] = initial_state
    params = initial_params.copy()
    slots = np.zeros(2, np.int64)
    seat_lineup_nb(state, params, lineup_kinds, lineup_params, rotate, game, slots, look)
    play_game_nb(state, params, seed, game, look)
    return state


# --- Test hooks (plain Python) ----------------------------------------------------------------------------------

def script_choices(state: np.ndarray, choices) -> None:
    """Row indices the scripted strategy answers, in order (turns and build decisions alike)."""
    load_script(state, CHOICE_SCRIPT, M_CHOICE_N, M_CHOICE_I, choices)


def script_deals(state: np.ndarray, cards) -> None:
    """The next rounds' deals use these card ids in order instead of shuffles (each round takes as many as the
    deck holds: the start player's hand, the other's, then the draw pile top first)."""
    load_script(state, DEAL_SCRIPT, M_DEAL_N, M_DEAL_I, cards)


def trace_game(compiled, seed: int, game: int, max_rows: int = 200_000) -> tuple[np.ndarray, np.ndarray]:
    """Play game `game` of run `seed` with its trace: (events int64[n, 5] as (kind, player, a, b, c), final state
    array). ``compiled`` is what ``compile_scenario`` returns (initial state, initial parameters, lineup kinds, lineup
    parameters, rotate); the seats are those the batch kernel gives game `game` (rotated when ``rotate``)."""
    initial_state, initial_params, lineup_kinds, lineup_params, rotate = compiled
    state = trace_game_nb(initial_state, initial_params, np.ascontiguousarray(lineup_kinds, np.int64),
                          np.ascontiguousarray(lineup_params, np.float64), bool(rotate), np.uint64(seed), int(game),
                          max_rows, lookahead_flag(lineup_kinds, strategies.LOOKAHEAD))
    return read_trace(state, TRACE, M_TRACE, max_rows), state




def searched_decisions(compiled, seed: int, game: int) -> int:
    """Decisions the lookahead seats searched in game `game` of run `seed` (``layout.M_SEARCHED``), played by the
    one-game kernel with no room for trace rows (``GameSpec.lookahead``, for ``balance bench``)."""
    initial_state, initial_params, kinds, params, rotate = compiled
    state = trace_game_nb(initial_state, initial_params, np.ascontiguousarray(kinds, np.int64),
                          np.ascontiguousarray(params, np.float64), bool(rotate), np.uint64(seed), int(game), 0,
                          lookahead_flag(kinds, strategies.LOOKAHEAD))
    return int(state[M_SEARCHED])
