"""The lookahead strategy: each legal row of a turn played out to the end of the game, the best mean team outcome
taken.

At a turn of a lookahead seat with more than one legal row, every row is tried ``playouts`` times. A playout starts
from the state as it is (saved once in ``layout.SAVE`` and restored after each playout), re-deals what the seat
cannot see, carries out the row and plays the game on with the game's own rules (``rounds.act_on_nb`` with ``look``
None: playouts never search), both seats on the base strategy with its default parameters. The row whose playouts
the team wins most often is taken; of equals, the base strategy's own choice (tried first: once all its playouts
win, no row can beat it and the others are not tried), then the first row in the order ``rules.play.legal_nb``
offers them. A row stops being played out once it can no longer beat the best so far (the same decision, sooner).
Swords and the build phase are the base strategy's: a lookahead seat *is* its base strategy (kind and parameters,
set by :func:`seat_nb`) with ``LOOK`` playouts per turn decision.

What the seat cannot see, and a playout re-deals (:func:`redeal_nb`), is what its view (``strategies.fill_view_nb``)
leaves out: the draw pile's order; while the players may not communicate, the partner's hand and the card it has
face down too (their number is public); the order of the supply piles (their contents are public). These are pooled
in card-id order (never in the order they lie) and dealt at random back into the same places. The shuffles to come
and both seats' random draws come from fresh streams. Everything else is public and stays: the tower, skeletons,
pawns, gold, skills, the deck's contents, the cards played and discarded, the seat's own hand. The seat remembers
nothing it saw earlier (a partner's hand seen on a shared floor is forgotten once the pawns part).

Randomness: one word of the seat's strategy stream per searched decision keys its playouts; playout j (the same for
every row: common random numbers) re-deals and draws from streams keyed by (that word, j, purpose), so a game's
moves depend on nothing but its own streams and the public state, on any thread count.
"""
from __future__ import annotations

from ....core.jit import rules_jit_flat
from ....core.rng import PURPOSE_SHUFFLE, PURPOSE_STRATEGY, flat_init_nb, flat_shuffle_nb, flat_word_nb
from .. import enums
from .. import strategies
from ..layout import (DEAL, DECK, DECK_SIZE, DRAW_PILE_TOP, F_BASE, F_SAVE, KINDS, LOC, LOOK, M_CHOICE_N, M_DEAL_I,
                      M_DEAL_N, M_SEARCHED, N_BASE_KINDS, N_CARDS, N_PARAMS, OWNED, PILE_NEXT, PL_DOWN, PL_HAND_N, SAVE,
                      SAVED_HI, SAVED_LO, SC, VIEW_TALK, WINNER, at, hand_at, param_at, pile_at, pl_at, stream_at)
from .rounds import act_on_nb, base_choice_nb
from .setup import SHUFFLE


@rules_jit_flat
def seat_nb(state, params, p):
    """Seat p, dealt the lookahead kind with (playouts, base) parameters, becomes its base strategy with that kind's
    default parameters, and searches each turn decision with ``LOOK`` = playouts (at least one)."""
    playouts = max(1, int(params[param_at(p, 0)] + 0.5))
    base = min(N_BASE_KINDS - 1, max(0, int(params[param_at(p, 1)] + 0.5)))
    set_base_nb(state, params, p, base)
    state[at(LOOK, p)] = playouts


@rules_jit_flat
def set_base_nb(state, params, q, base):
    """Seat q plays the base strategy kind with its default parameters (``layout.F_BASE``)."""
    state[at(KINDS, q)] = base
    for j in range(N_PARAMS):
        params[param_at(q, j)] = params[at(F_BASE, base * N_PARAMS + j)]


@rules_jit_flat
def save_nb(state, params):
    """Keep the state a playout starts from: SC up to the scripts, the script and trace counters, both seats'
    parameters."""
    for k in range(SAVED_LO):
        state[at(SAVE, k)] = state[at(SC, k)]
    for k in range(SAVED_HI):
        state[at(SAVE, SAVED_LO + k)] = state[at(M_CHOICE_N, k)]
    for k in range(2 * N_PARAMS):
        params[at(F_SAVE, k)] = params[param_at(0, k)]


@rules_jit_flat
def restore_nb(state, params):
    """Back to the state ``save_nb`` kept."""
    for k in range(SAVED_LO):
        state[at(SC, k)] = state[at(SAVE, k)]
    for k in range(SAVED_HI):
        state[at(M_CHOICE_N, k)] = state[at(SAVE, SAVED_LO + k)]
    for k in range(2 * N_PARAMS):
        params[param_at(0, k)] = params[at(F_SAVE, k)]


@rules_jit_flat
def pool_nb(state, lo, hi):
    """Gather in ``DEAL``, in card-id order, the cards whose location is one of lo .. hi; returns how many."""
    m = 0
    for c in range(state[N_CARDS]):
        loc = state[at(LOC, c)]
        state[at(DEAL, m)] = c
        m += (loc >= lo) & (loc <= hi)
    return m


@rules_jit_flat
def redeal_nb(state, p):
    """Deal again, at random, what seat p cannot see (module docstring): the draw pile and, unless the players may
    communicate, the partner's hand and face-down card, among those places; each supply pile's cards left, among
    its places. Each pool is gathered in card-id order, so the result does not depend on where the cards lie."""
    sh = stream_at(SHUFFLE)
    q = 1 - p
    strategies.fill_view_nb(state, p)
    hidden = state[VIEW_TALK] == 0
    m = 0
    for c in range(state[N_CARDS]):
        loc = state[at(LOC, c)]
        state[at(DEAL, m)] = c
        m += (loc == enums.LOC_DECK) | (hidden & ((loc == enums.LOC_HAND + q) | (loc == enums.LOC_DOWN + q)))
    flat_shuffle_nb(state, at(DEAL, 0), m, sh)
    k = 0
    if hidden:
        for i in range(state[pl_at(q, PL_HAND_N)]):
            c = state[at(DEAL, k)]
            state[hand_at(q, i)] = c
            state[at(LOC, c)] = enums.LOC_HAND + q
            k += 1
        if state[pl_at(q, PL_DOWN)] >= 0:
            c = state[at(DEAL, k)]
            state[pl_at(q, PL_DOWN)] = c
            state[at(LOC, c)] = enums.LOC_DOWN + q
            k += 1
    top = state[DRAW_PILE_TOP]
    for i in range(top, state[DECK_SIZE]):
        c = state[at(DEAL, k)]
        state[at(DECK, i)] = c
        state[at(LOC, c)] = enums.LOC_DECK
        k += 1
    m = 0
    for i in range(state[DECK_SIZE]):     # the cards of the round out of the draw pile (rules.build.return_cards_nb)
        c = state[at(OWNED, i)]
        state[at(DECK, m)] = c
        m += state[at(LOC, c)] != enums.LOC_DECK
    for pile in range(3):
        loc = enums.LOC_PILE2 + pile
        m = pool_nb(state, loc, loc)
        flat_shuffle_nb(state, at(DEAL, 0), m, sh)
        first = state[PILE_NEXT + pile]
        for i in range(m):
            state[pile_at(pile, first + i)] = state[at(DEAL, i)]


@rules_jit_flat
def playout_nb(state, params, p, n, i, key, j, base):
    """Playout j of legal row i (of n) for seat p: fresh streams from (key, j), the hidden cards re-dealt, both seats
    on the base strategy, the row carried out and the game played to its end."""
    flat_init_nb(state, stream_at(SHUFFLE), key, j, PURPOSE_SHUFFLE)
    for q in range(2):
        set_base_nb(state, params, q, base)
        flat_init_nb(state, stream_at(1 + q), key, j, PURPOSE_STRATEGY + q)
    state[M_DEAL_I] = state[M_DEAL_N]          # scripted deals (rule tests) are the real game's, not foreseen
    redeal_nb(state, p)
    act_on_nb(state, params, p, n, i, None)


@rules_jit_flat
def wins_nb(state, params, p, n, i, key, playouts, base, beat):
    """The team's wins in the `playouts` playouts of legal row i, the state restored after each; counting stops once
    the row can no longer win more than `beat` times (it then returns at most `beat`: the same decision, sooner)."""
    wins = 0
    for j in range(playouts):
        if wins + playouts - j <= beat:
            break
        playout_nb(state, params, p, n, i, key, j, base)
        wins += state[WINNER] == 0
        restore_nb(state, params)
    return wins


@rules_jit_flat
def search_nb(state, params, p, n, playouts, base, first):
    """Index of the legal row (of n, ``rules.play.legal_nb`` just called for seat p) whose `playouts` playouts the
    team wins most often; of equals, row `first` (the base strategy's own choice), then the first in order. Draws
    one word of the seat's strategy stream; the state is left as it was."""
    key = flat_word_nb(state, stream_at(1 + p))
    save_nb(state, params)
    best = first
    best_wins = wins_nb(state, params, p, n, first, key, playouts, base, -1)
    for i in range(n):
        if i != first and best_wins < playouts:
            wins = wins_nb(state, params, p, n, i, key, playouts, base, best_wins)
            if wins > best_wins:
                best_wins = wins
                best = i
    state[M_SEARCHED] += 1
    return best


@rules_jit_flat
def choice_nb(state, params, p, n):
    """Seat p's row of its n legal rows: its strategy's, searched for a lookahead seat with a choice."""
    first = base_choice_nb(state, params, p, n)
    playouts = state[at(LOOK, p)]
    if playouts > 0 and n > 1:
        if first < 0 or first >= n:
            first = 0
        return search_nb(state, params, p, n, playouts, state[at(KINDS, p)], first)
    return first
