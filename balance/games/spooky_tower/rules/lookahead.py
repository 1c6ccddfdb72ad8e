"""The lookahead strategy: each legal action played out to the end of the game, the best mean outcome taken.

At an action decision of a lookahead seat, every legal (take | flip, value) row is tried ``playouts`` times. A
playout starts from the state as it is (saved once in ``layout.SAVE`` and restored after each playout), re-deals
what the seat cannot see, applies the action, ends the turn and plays the game on with ``turn.play_on_nb``, the
game's own turn loop (with ``look`` None: playouts never search), every seat on the base strategy with its default
parameters. The action whose playouts the seat wins most often is taken (ties: the first row, in the order
``legal_actions_nb`` offers them).

What the seat cannot see, and a playout re-deals (``redeal_nb``): which card of a value is which. Photos are face
down in the Town and beside every House (the holder's own cards too), so the cards of a value not yet flipped are
pooled in card-id order (never in the order they lie) and dealt at random back into the same places: each Town
stack's slots and each seat's holding of that value. The Grimoire cards not yet revealed are pooled in id order
and dealt back the same way. The dice to come and the seats' own random draws come from fresh streams. What
is public stays: counts per stack and holding, every counter, the clock, the Park, pets, fragments, tokens.

Randomness: one word of the seat's strategy stream per searched decision keys its playouts; playout j (the same
for every action: common random numbers) re-deals and rolls from streams keyed by (that word, j, purpose), so a
game's moves depend on nothing but its own streams and the public state, on any thread count.
"""
from __future__ import annotations

from ....core.jit import rules_jit, rules_jit_inline
from ....core.rng import PURPOSE_DICE, PURPOSE_SHUFFLE, PURPOSE_STRATEGY, flat_init_nb, flat_shuffle_nb, flat_word_nb
from ..layout import (DEAL, F_BASE, F_SAVE, GRIM, GRIMOIRE_TOP, KINDS, LOC, MAX_PLAYERS, M_DICE_I, M_DICE_N,
                      M_SEARCHED, NV, N_BASE_KINDS, N_GRIMOIRE_CARDS, N_PARAMS, N_PLAYERS, SAVE, SAVED_HI, SAVED_LO,
                      SC, STREAMS, TOWN_N, VALUE_COUNT, VALUE_FIRST, WINNER, at, hand_at, hand_n_at, param_at,
                      stream_at, town_at)
from ..strategies.kinds import LOOKAHEAD
from .setup import DICE, LOC_KEPT, LOC_TOWN, SHUFFLE
from .turn import act_nb, begin_turn_nb, end_turn_nb, play_next_nb


@rules_jit_inline
def playouts_nb(params, p):
    """The lookahead's playouts per action (parameter 0), at least one."""
    return max(1, int(params[param_at(p, 0)] + 0.5))


@rules_jit_inline
def base_kind_nb(params, p):
    """The lookahead's base strategy kind (parameter 1), one of the heuristic kinds 0..3."""
    return min(N_BASE_KINDS - 1, max(0, int(params[param_at(p, 1)] + 0.5)))


@rules_jit_inline
def set_base_nb(state, params, q, base):
    """Seat q plays the base strategy kind with its default parameters (``layout.F_BASE``)."""
    state[at(KINDS, q)] = base
    for j in range(N_PARAMS):
        params[param_at(q, j)] = params[at(F_BASE, base * N_PARAMS + j)]


@rules_jit
def save_nb(state, params):
    """Keep the state a playout starts from: SC .. PEND, the streams and MISC, the kinds, every seat's parameters."""
    for k in range(SAVED_LO):
        state[at(SAVE, k)] = state[at(SC, k)]
    for k in range(SAVED_HI):
        state[at(SAVE, SAVED_LO + k)] = state[at(STREAMS, k)]
    for k in range(MAX_PLAYERS):
        state[at(SAVE, SAVED_LO + SAVED_HI + k)] = state[at(KINDS, k)]
    for k in range(MAX_PLAYERS * N_PARAMS):
        params[at(F_SAVE, k)] = params[param_at(0, k)]


@rules_jit
def restore_nb(state, params):
    """Back to the state ``save_nb`` kept."""
    for k in range(SAVED_LO):
        state[at(SC, k)] = state[at(SAVE, k)]
    for k in range(SAVED_HI):
        state[at(STREAMS, k)] = state[at(SAVE, SAVED_LO + k)]
    for k in range(MAX_PLAYERS):
        state[at(KINDS, k)] = state[at(SAVE, SAVED_LO + SAVED_HI + k)]
    for k in range(MAX_PLAYERS * N_PARAMS):
        params[param_at(0, k)] = params[at(F_SAVE, k)]


@rules_jit
def redeal_nb(state):
    """Deal again, at random, what no player can see: the unflipped cards of each value among the places they
    occupy (Town slots, then each seat's holding), and the Grimoire cards not yet revealed. Each pool is gathered
    in card-id order, so the result does not depend on where the cards really lie."""
    sh = stream_at(SHUFFLE)
    n_players = state[N_PLAYERS]
    for v in range(1, NV):
        first = state[at(VALUE_FIRST, v)]
        m = 0
        for c in range(first, first + state[at(VALUE_COUNT, v)]):
            loc = state[at(LOC, c)]
            state[at(DEAL, m)] = c
            m += (loc == LOC_TOWN) | ((loc >= 0) & (loc < LOC_KEPT))
        flat_shuffle_nb(state, at(DEAL, 0), m, sh)
        k = 0
        for t in range(state[at(TOWN_N, v)]):
            c = state[at(DEAL, k)]
            state[town_at(v, t)] = c
            state[at(LOC, c)] = LOC_TOWN
            k += 1
        for q in range(n_players):
            for t in range(state[hand_n_at(q, v)]):
                c = state[at(DEAL, k)]
                state[hand_at(q, v, t)] = c
                state[at(LOC, c)] = q
                k += 1
    top = state[GRIMOIRE_TOP]
    m = 0
    for g in range(state[N_GRIMOIRE_CARDS]):
        seen = 0
        for t in range(top):
            seen |= state[at(GRIM, t)] == g
        state[at(DEAL, m)] = g
        m += 1 - seen
    flat_shuffle_nb(state, at(DEAL, 0), m, sh)
    for t in range(m):
        state[at(GRIM, top + t)] = state[at(DEAL, t)]


@rules_jit
def playout_nb(state, params, p, n_legal, i, key, j, base):
    """Playout j of legal row i for seat p: fresh streams from (key, j), the hidden cards re-dealt, every seat on
    the base strategy, the action applied and the game played to its end (a win or the turn cap)."""
    for q in range(state[N_PLAYERS]):
        set_base_nb(state, params, q, base)
        flat_init_nb(state, stream_at(2 + q), key, j, PURPOSE_STRATEGY + q)
    flat_init_nb(state, stream_at(DICE), key, j, PURPOSE_DICE)
    flat_init_nb(state, stream_at(SHUFFLE), key, j, PURPOSE_SHUFFLE)
    state[M_DICE_I] = state[M_DICE_N]          # scripted dice (rule tests) are the real game's, not foreseen
    redeal_nb(state)
    act_nb(state, params, p, n_legal, i)
    end_turn_nb(state, params, p)
    play_next_nb(state, params, p, None)


@rules_jit
def search_nb(state, params, p, n_legal, playouts, base):
    """Index of the legal row (of `n_legal` at ``LEGAL``) whose `playouts` playouts seat p wins most often; the first
    of equals. Draws one word of the seat's strategy stream; the state is left as it was."""
    key = flat_word_nb(state, stream_at(2 + p))
    save_nb(state, params)
    best = 0
    best_wins = -1
    for i in range(n_legal):
        wins = 0
        for j in range(playouts):
            playout_nb(state, params, p, n_legal, i, key, j, base)
            wins += state[WINNER] == p
            restore_nb(state, params)
        if wins > best_wins:
            best_wins = wins
            best = i
    state[M_SEARCHED] += 1
    return best


@rules_jit
def look_turn_nb(state, params, p, extra):
    """A turn of lookahead seat p: the action searched (when there is a choice), every other decision (reroll,
    effect targets, pet victims, the Park) by the base strategy with its default parameters."""
    playouts = playouts_nb(params, p)
    base = base_kind_nb(params, p)
    k0 = params[param_at(p, 0)]
    k1 = params[param_at(p, 1)]
    k2 = params[param_at(p, 2)]
    k3 = params[param_at(p, 3)]
    set_base_nb(state, params, p, base)
    n_legal = begin_turn_nb(state, params, p, extra)
    i = 0
    if n_legal > 1:
        i = search_nb(state, params, p, n_legal, playouts, base)
    act_nb(state, params, p, n_legal, i)
    end_turn_nb(state, params, p)
    state[at(KINDS, p)] = LOOKAHEAD
    params[param_at(p, 0)] = k0
    params[param_at(p, 1)] = k1
    params[param_at(p, 2)] = k2
    params[param_at(p, 3)] = k3
