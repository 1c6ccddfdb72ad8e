"""The lookahead strategy: a hero's move and encounter searched by playing each answer out for a few rounds.

A lookahead seat plays its `base` heuristic (its kind and default parameters) in every decision but two: where to
stop (``move``) and which chit to turn over there (``encounter``). For the move it tries up to `width` squares
(:func:`candidates_nb`): the squares the base would stop on for its best targets (the chits of best value - cost by
the base's own values, ``valuation.chit_value_nb``), each once, the best first. For the encounter it tries every
answer (:func:`encounter_answers_nb`): the base's first, then none and each chit it may turn over. Each answer is
played out `playouts` times: the state is saved (``layout.SAVE``, restored after each playout), what the seat cannot
know is dealt again (:func:`redeal_nb`), the answer is given, the turn ends (``turn.end_turn_nb`` after a square,
``turn.after_move_nb`` after an encounter answer) and the game goes on with the kernel's own turns
(``turn.rest_of_round_nb``, ``turn.play_rounds_nb``), every seat on the base strategy with its defaults (playouts
never search), for `horizon` rounds (each hero in the game one turn a round; the playout stops as the turn cap stops
a game, ``TURN_CAP`` lowered for it) or, with a horizon of 0, to the game's end; then it is scored
(``turn.finish_nb``). A playout scores the seat's points minus the best other seat's (points decide the winner and
are held all game long: chits, stand-ups, the Specter's bonuses; the margin also tells apart playouts that a win
indicator counts alike). The first answer (the base's) is kept unless another beats it by ``Z`` standard errors of
the paired gain (:func:`search_nb`).

What the seat cannot know, and a playout re-deals: the content of every face-down chit it did not place itself, and
of the chits set aside (blue chits nobody drew, purple chits the cup did not need). Chit ids are contents
(``CHIT_KIND``, ``CHIT_INDEX``), so the re-deal moves ids: for each back colour the unknown chits are gathered in
id order (never in the order they lie) and dealt at random over the places that hold them (their squares in square
order, then the aside pile); each square keeps the seat that placed the chit lying there, who knows the new one.
The Specter's chit, while face down, first goes to one of those places on Tower 3 (the only level it can be on),
uniformly. Everything public stays: every hero, every face-up chit, which squares hold a face-down chit of which
colour, who placed it.

Randomness: one word of the seat's strategy stream per search keys its playouts; playout j (the same for every
answer: common random numbers) re-deals and rolls from streams keyed by (that word, j, purpose), so a game's
decisions depend on nothing but its own streams and what the seat knows, on any thread count.
"""
from __future__ import annotations

import numpy as np

from ....core.jit import rules_jit, rules_jit_inline
from ....core.rng import (PURPOSE_DICE, PURPOSE_SHUFFLE, PURPOSE_STRATEGY, flat_below_nb, flat_init_nb,
                          flat_shuffle_nb, flat_word_nb)
from ...kernel_common import lowest_bit_nb
from .. import enums
from .. import strategies
from ..strategies import targets, valuation
from ..layout import (CHIT_BLUE, CHIT_FACEUP, CHIT_LOC, CHIT_ON, CHIT_PLACER, CHIT_SQ, CLIMB_TABLE, DEAL, F_BASE,
                      F_SAVE, F_WORTH, G_N, HEROES_IN, HS_POINTS, HS_SQ, KINDS, LOOK_M, LOOK_SQ, MAX_WIDTH,
                      MOVEMENT_POINTS, M_DICE_I, M_DICE_N, M_SEARCHED, N_BASE_KINDS, N_CHITS, N_LEVELS, N_PARAMS,
                      PLACER, PLACES, PLAYERS, ROUND_STARTER, SAVE, SAVED_HI, SAVED_LO, SC, SQ_CHIT, TURN, TURN_CAP,
                      at, cost, g_level, hs_at, level_bits_at, look_at, param_at, stream_at)
from .pieces import DICE, SHUFFLE, set_loc_nb, set_placer_nb
from .movement import encounter_candidates_nb
from .turn import ASK, after_move_nb, end_turn_nb, finish_nb, play_rounds_nb, rest_of_round_nb

P_PLAYOUTS = 0           # the lookahead's parameters (STRATEGIES["lookahead"])
P_BASE = 1
P_WIDTH = 2
P_HORIZON = 3
MOVE = 0                 # what a search answers (search_nb's stage): the square to stop on, the chit to encounter
ENCOUNTER = 1
Z = 2.0                  # standard errors by which an answer must beat the base's own before the search takes it


@rules_jit_inline
def set_base_nb(state, params, q, base):
    """Seat q plays the base strategy kind with its default parameters (``layout.F_BASE``)."""
    state[at(KINDS, q)] = base
    for j in range(N_PARAMS):
        params[param_at(q, j)] = params[at(F_BASE, base * N_PARAMS + j)]


@rules_jit
def look_seats_nb(state, params):
    """Before a game, each lookahead seat (kind ``strategies.LOOKAHEAD``) becomes its base strategy with the base's
    defaults, its playouts and width kept in ``LOOK`` (``look_at``); every other seat gets 0 playouts (no search).
    Parameters are rounded and held to their ranges: playouts at least 1, base a heuristic (1..3), width 1 ..
    ``MAX_WIDTH``."""
    for p in range(state[PLAYERS]):
        state[look_at(p, 0)] = 0
        state[look_at(p, 1)] = 1
        state[look_at(p, 2)] = 0
        if state[at(KINDS, p)] == strategies.LOOKAHEAD:
            state[look_at(p, 0)] = max(1, int(params[param_at(p, P_PLAYOUTS)] + 0.5))
            state[look_at(p, 1)] = min(MAX_WIDTH, max(1, int(params[param_at(p, P_WIDTH)] + 0.5)))
            state[look_at(p, 2)] = max(0, int(params[param_at(p, P_HORIZON)] + 0.5))
            set_base_nb(state, params, p, min(N_BASE_KINDS - 1, max(1, int(params[param_at(p, P_BASE)] + 0.5))))


@rules_jit
def save_nb(state, params):
    """Keep the state a playout starts from: SC .. the scripts, KINDS .. STATE_END, every seat's parameters and
    slots (the scripts and the compiled rules are read only)."""
    for k in range(SAVED_LO):
        state[at(SAVE, k)] = state[at(SC, k)]
    for k in range(SAVED_HI):
        state[at(SAVE, SAVED_LO + k)] = state[at(KINDS, k)]
    for k in range(F_WORTH):
        params[at(F_SAVE, k)] = params[np.uint64(k)]


@rules_jit
def restore_nb(state, params):
    """Back to the state ``save_nb`` kept."""
    for k in range(SAVED_LO):
        state[at(SC, k)] = state[at(SAVE, k)]
    for k in range(SAVED_HI):
        state[at(KINDS, k)] = state[at(SAVE, SAVED_LO + k)]
    for k in range(F_WORTH):
        params[np.uint64(k)] = params[at(F_SAVE, k)]


@rules_jit_inline
def unknown_nb(state, p, c, blue):
    """Is chit c of back colour `blue` one whose content seat p cannot know: face down on the board and not placed
    by p, or set aside?"""
    loc = state[at(CHIT_LOC, c)]
    is_blue = (state[at(CHIT_BLUE, c >> 6)] >> (c & 63)) & 1 == 1
    hidden = loc == enums.LOC_BOARD and state[at(CHIT_FACEUP, c)] == 0 and state[at(CHIT_PLACER, c)] != p
    return is_blue == blue and (hidden or loc == enums.LOC_ASIDE)


@rules_jit
def pool_nb(state, tables, p, blue):
    """The chits of one back colour whose content seat p cannot know into ``DEAL`` (id order), the places they
    occupy into ``PLACES`` (squares in square order, then -1 for each set aside) with the seat that placed the chit
    lying on each (``PLACER``). The chits are lifted off their level's bit set (``deal_nb`` lays them back). Returns
    how many."""
    m = 0
    for c in range(state[N_CHITS]):
        if unknown_nb(state, p, c, blue):
            state[at(DEAL, m)] = c
            m += 1
            q = state[at(CHIT_SQ, c)]
            if q >= 0:
                state[level_bits_at(g_level(tables, q), c >> 6)] &= ~(np.int64(1) << (c & 63))
    k = 0
    for q in range(tables[G_N]):
        c = state[at(SQ_CHIT, q)]
        if c >= 0 and unknown_nb(state, p, c, blue):
            state[at(PLACES, k)] = q
            state[at(PLACER, k)] = state[at(CHIT_PLACER, c)]
            k += 1
    for i in range(k, m):
        state[at(PLACES, i)] = -1
        state[at(PLACER, i)] = -1
    return m


@rules_jit
def deal_nb(state, tables, c, i):
    """Chit c goes to place i of ``PLACES`` (face down on its square, or set aside), placed by its ``PLACER``."""
    q = state[at(PLACES, i)]
    state[at(CHIT_SQ, c)] = q
    if q >= 0:
        state[at(SQ_CHIT, q)] = c
        set_loc_nb(state, c, enums.LOC_BOARD)
        state[level_bits_at(g_level(tables, q), c >> 6)] |= np.int64(1) << (c & 63)
    else:
        set_loc_nb(state, c, enums.LOC_ASIDE)
    set_placer_nb(state, c, state[at(PLACER, i)])


@rules_jit
def redeal_nb(state, tables, p):
    """Deal again, at random, what seat p cannot know (module docstring): per back colour, the unknown chits over
    their places; the Specter's chit, while face down, first to one of the purple places on Tower 3. Each pool is
    gathered in id order, so the result does not depend on where the chits really lie."""
    sh = stream_at(SHUFFLE)
    specter = state[N_CHITS] - 1
    for colour in range(2):
        blue = colour == 0
        m = pool_nb(state, tables, p, blue)
        if not blue and m > 0 and state[at(DEAL, m - 1)] == specter:   # the Specter's chit has the highest id
            n3 = 0
            for i in range(m):
                q = state[at(PLACES, i)]
                if q >= 0 and g_level(tables, q) == N_LEVELS:
                    n3 += 1
            u = flat_below_nb(state, sh, n3)
            for i in range(m):
                q = state[at(PLACES, i)]
                if q >= 0 and g_level(tables, q) == N_LEVELS:
                    if u == 0:                    # the Specter's place and the last place change places
                        state[at(PLACES, i)] = state[at(PLACES, m - 1)]
                        state[at(PLACES, m - 1)] = q
                        placer = state[at(PLACER, i)]
                        state[at(PLACER, i)] = state[at(PLACER, m - 1)]
                        state[at(PLACER, m - 1)] = placer
                        break
                    u -= 1
            m -= 1
            deal_nb(state, tables, specter, m)
        flat_shuffle_nb(state, at(DEAL, 0), m, sh)
        for i in range(m):
            deal_nb(state, tables, state[at(DEAL, i)], i)


@rules_jit
def candidates_nb(state, params, tables, costs, p, width):
    """The squares seat p's move search tries, into ``LOOK_SQ``: the square its base strategy would stop on (next to
    the chit, or as far toward it as this turn's points go) for each of its best targets: the chits of positive
    value to the base, by value - cost (the base's ranking), each square once, `width` squares at most. Of equal
    targets, the chit on the lower square first, where the base takes the lower chit id: an id tells a content, and
    the search must not read it. With nothing wanted, or a width of 1, the base's own square alone. Returns how
    many."""
    n = 0
    if width <= 1:
        state[at(LOOK_SQ, 0)] = strategies.move_nb(state, params, tables, costs, p)
        return 1
    here = state[hs_at(p, HS_SQ)]
    t = state[CLIMB_TABLE]
    mp = state[MOVEMENT_POINTS]
    level_here = g_level(tables, here)
    slots = valuation.slots_nb(state, params, p)
    floor = np.inf                            # the chits tried so far score `floor` or more (ties: on squares up
    floor_x = -1                              # to `floor_x`): each round takes the best chit ranked after them
    while n < width:
        best = -1
        best_x = -1
        best_score = -np.inf
        for w in range((state[N_CHITS] + 63) >> 6):
            bits = state[at(CHIT_ON, w)]
            while bits != 0:
                c = (w << 6) + lowest_bit_nb(bits)
                bits &= bits - 1
                x = state[at(CHIT_SQ, c)]
                k = cost(costs, tables, t, here, x)
                if k >= valuation.UNREACHABLE:
                    continue
                v = valuation.chit_value_nb(state, params, tables, p, c, level_here, slots)
                if v <= valuation.NOT_WANTED:
                    continue
                score = v - k
                if (score < floor or (score == floor and x > floor_x)) \
                        and (score > best_score or (score == best_score and x < best_x)):
                    best = c
                    best_x = x
                    best_score = score
        if best < 0:
            break
        floor = best_score
        floor_x = best_x
        a, need = targets.stop_next_to_nb(state, tables, costs, p, here, t, best_x)
        if a < 0:
            continue
        if need > mp:
            a = targets.walk_toward_nb(state, tables, costs, p, here, t, mp, a)
        seen = False
        for i in range(n):
            seen |= state[at(LOOK_SQ, i)] == a
        if not seen:
            state[at(LOOK_SQ, n)] = a
            n += 1
    if n == 0:
        state[at(LOOK_SQ, 0)] = strategies.move_nb(state, params, tables, costs, p)
        n = 1
    return n


@rules_jit
def margin_nb(state, p):
    """Seat p's points less the best other seat's (the game scored)."""
    best = -(1 << 30)
    for q in range(state[PLAYERS]):
        if q != p:
            best = max(best, state[hs_at(q, HS_POINTS)])
    return state[hs_at(p, HS_POINTS)] - best


@rules_jit
def playout_nb(state, params, tables, costs, p, stage, a, key, j, base):
    """Playout j of answer `a` at a `stage` of seat p's turn (``MOVE``: the square it stops on, ``ENCOUNTER``: the
    chit it encounters, ``turn.encounter_nb``'s answer): fresh streams from (key, j), what p cannot know re-dealt,
    every seat on the base strategy, the answer given, the turn ended and the game played on to its end, or until
    the seat's horizon (``look_at(p, 2)`` rounds) stops it as the turn cap would. Returns ``margin_nb``."""
    for s in range(state[PLAYERS]):
        set_base_nb(state, params, s, base)
        flat_init_nb(state, stream_at(2 + s), key, j, PURPOSE_STRATEGY + s)
    flat_init_nb(state, stream_at(DICE), key, j, PURPOSE_DICE)
    flat_init_nb(state, stream_at(SHUFFLE), key, j, PURPOSE_SHUFFLE)
    state[M_DICE_I] = state[M_DICE_N]          # scripted dice (rule tests) are the real game's, not foreseen
    cap = state[TURN_CAP]
    rounds = state[look_at(p, 2)]
    if rounds > 0:                             # the horizon: the playout stops as the turn cap stops a game
        state[TURN_CAP] = min(cap, state[TURN] + rounds * state[HEROES_IN])
    redeal_nb(state, tables, p)
    if stage == MOVE:
        on = end_turn_nb(state, params, tables, costs, p, 1, a)
    else:
        on = after_move_nb(state, params, tables, costs, p, a)
    if on and state[HEROES_IN] > 0:
        k = p - state[ROUND_STARTER]
        if k < 0:
            k += state[PLAYERS]
        if rest_of_round_nb(state, params, tables, costs, k + 1):
            play_rounds_nb(state, params, tables, costs)
    finish_nb(state)
    state[TURN_CAP] = cap                      # compiled rules: not in the saved state
    return margin_nb(state, p)


@rules_jit
def search_nb(state, params, tables, costs, p, n, playouts, base, stage):
    """The answer of the n at ``LOOK_SQ`` (squares to stop on, or encounter answers: `stage`) that seat p gives:
    the first (the base's) unless another gains more in its `playouts` playouts, by at least ``Z`` standard errors
    of the gain (playout j of an answer against playout j of the base's: the same deals and dice); of those, the
    one of the highest mean gain (the first of equals). Draws one word of the seat's strategy stream; the state is
    left as it was."""
    key = flat_word_nb(state, stream_at(2 + p))
    save_nb(state, params)
    for j in range(playouts):
        state[at(LOOK_M, j)] = playout_nb(state, params, tables, costs, p, stage, state[at(LOOK_SQ, 0)], key, j,
                                          base)
        restore_nb(state, params)
    best = 0
    best_gain = 0.0
    for i in range(1, n):
        s1 = 0.0
        s2 = 0.0
        for j in range(playouts):
            d = playout_nb(state, params, tables, costs, p, stage, state[at(LOOK_SQ, i)], key, j, base) \
                - state[at(LOOK_M, j)]
            restore_nb(state, params)
            s1 += d
            s2 += d * d
        gain = s1 / playouts
        var = (s2 - s1 * gain) / max(1, playouts - 1)
        if gain > best_gain and gain * gain * playouts > Z * Z * var:
            best = i
            best_gain = gain
    return state[at(LOOK_SQ, best)]


@rules_jit
def look_move_nb(state, params, tables, costs, p):
    """The square hero p stops on: its strategy's; a lookahead seat's searched when it has more than one to try."""
    playouts = state[look_at(p, 0)]
    if playouts == 0:
        return strategies.move_nb(state, params, tables, costs, p)
    n = candidates_nb(state, params, tables, costs, p, state[look_at(p, 1)])
    if n == 1:
        return state[at(LOOK_SQ, 0)]
    state[M_SEARCHED] += 1
    return search_nb(state, params, tables, costs, p, n, playouts, state[at(KINDS, p)], MOVE)


@rules_jit
def encounter_answers_nb(state, params, tables, costs, p):
    """The encounter answers seat p's search tries, into ``LOOK_SQ``: its base's first, then none (-1) and each
    chit it may encounter (``movement.encounter_candidates_nb``'s order, by square: a re-deal keeps the index of
    each), ``MAX_WIDTH`` at most. Returns how many (0: nothing to encounter)."""
    n = encounter_candidates_nb(state, tables, p)
    if n == 0:
        return 0
    first = strategies.encounter_nb(state, params, tables, costs, p)
    state[at(LOOK_SQ, 0)] = first
    k = 1
    for i in range(-1, n):
        if i != first and k < MAX_WIDTH:
            state[at(LOOK_SQ, k)] = i
            k += 1
    return k


@rules_jit
def look_encounter_nb(state, params, tables, costs, p):
    """The chit hero p encounters (``turn.encounter_nb``'s answer): ``turn.ASK`` (its strategy's) for a seat that
    does not search; a lookahead seat's searched over every answer."""
    playouts = state[look_at(p, 0)]
    if playouts == 0:
        return ASK
    n = encounter_answers_nb(state, params, tables, costs, p)
    if n == 0:
        return ASK
    state[M_SEARCHED] += 1
    return search_nb(state, params, tables, costs, p, n, playouts, state[at(KINDS, p)], ENCOUNTER)
