"""Climbing Tower set-up (rulebook A and B): the tower, its floors and first skeletons, the pawns, the common deck and
the supply piles. Every random draw comes from the game's shuffle stream, in this order: the tower cards (a
shuffle of all of them; the first ``tower_cards`` go bottom to top), the BOSS side (one draw), the Level 2 cards
(a shuffle; the first ``starting_level2`` join the deck), the Level 3 cards (a shuffle)."""
from __future__ import annotations

from ....core.jit import rules_jit_flat
from ....core.rng import PURPOSE_SHUFFLE, PURPOSE_STRATEGY, flat_below_nb, flat_init_nb, flat_shuffle_nb
from ...kernel_common import emit_at_nb
from .. import enums
from ..layout import (BOSS_IN_PLAY, BOSS_ROW, BOSS_SIDE, CAND, CCNT, CF_COLOUR, CF_LEVEL, DECK_SIZE, FINAL,
                      FIRST_PILE_COLOUR, FIRST_PLAYER_SIDE, FIXED_TOWER, FIXED_TOWER_CARDS, FLOOR_HI, FLOOR_LO, HIT,
                      LOC, MAX_POS, MAX_SLOTS, MISSING, M_SEARCHED, M_TRACE, N_CARDS, N_CC, N_FINAL, N_FLOORS, N_PL,
                      N_POSITIONS, N_SC, N_SK, N_SKILLS, N_SLOTS, N_TEAM, N_TOWER_CARDS, ON_FLOOR, OPTION_BOSS_SIDE,
                      OWNED, PILE_NEXT, PILE_SIZE, PL, PL_DOWN, PL_FLOOR, PL_SIDE, POS_FLIPPED, POS_PLACED, POS_SLOT0,
                      POS_TC, SC, SKCNT, SLOT_FLOOR, SLOT_POS, STANDING, STARTING_LEVEL2, SUPPLY, SUPPLY_TOKENS, TEAM,
                      TF_N_FLOORS, TOKENS, TOP_CARD, TOWERS_LABELLED, TOWER_HEIGHT, TOWER_LABEL, TRACE, WINNER, at,
                      card_at, missing_at, pile_at, pl_at, standing_at, stream_at, tc_at, tf_at)

SHUFFLE = 0                 # stream 0: set-up and the rounds' shuffles


@rules_jit_flat
def emit_nb(state, kind, player, a, b, c):
    """Record one trace event when `state` carries a trace region."""
    emit_at_nb(state, TRACE, M_TRACE, kind, player, a, b, c)


@rules_jit_flat
def reset_nb(state, seed, game):
    """Deal game `game` of run `seed`: empty state, streams, tower, skeletons on the bottom card, pawns, cards."""
    state[SC:SC + N_SC] = 0
    state[PL:PL + 2 * N_PL] = 0
    state[POS_TC:POS_TC + MAX_POS] = 0
    state[POS_PLACED:POS_PLACED + MAX_POS] = 0
    state[POS_FLIPPED:POS_FLIPPED + MAX_POS] = 0
    state[STANDING:STANDING + 2 * MAX_SLOTS] = 0
    state[ON_FLOOR:ON_FLOOR + 2 * MAX_SLOTS] = 0
    state[MISSING:MISSING + 2 * MAX_SLOTS] = 0
    state[HIT:HIT + 2 * MAX_SLOTS] = 0
    state[FINAL:FINAL + 2 * N_FINAL] = 0
    state[CCNT:CCNT + state[N_CARDS] * N_CC] = 0      # the scenario's cards: no other card's counter is written
    state[SKCNT:SKCNT + N_SKILLS * N_SK] = 0
    state[TEAM:TEAM + N_TEAM] = 0
    state[M_TRACE] = 0
    state[M_SEARCHED] = 0
    state[WINNER] = -1
    state[TOP_CARD] = -1
    state[SUPPLY_TOKENS] = TOKENS
    flat_init_nb(state, stream_at(SHUFFLE), seed, game, PURPOSE_SHUFFLE)
    for p in range(2):
        flat_init_nb(state, stream_at(1 + p), seed, game, PURPOSE_STRATEGY + p)
    build_tower_nb(state)
    side0 = state[FIRST_PLAYER_SIDE]
    for p in range(2):
        state[pl_at(p, PL_FLOOR)] = 0
        state[pl_at(p, PL_SIDE)] = side0 if p == 0 else 1 - side0
        state[pl_at(p, PL_DOWN)] = -1
    place_nb(state, 0)
    deal_cards_nb(state)


@rules_jit_flat
def build_tower_nb(state):
    """A. Tower: tower cards bottom to top (fixed, or the first of a shuffle), the BOSS card on top on its side; the
    slots (printed floors) and the floors (same colours touching across cards joined)."""
    n_tc = state[N_TOWER_CARDS]
    height = state[TOWER_HEIGHT]
    sh = stream_at(SHUFFLE)
    if state[FIXED_TOWER] == 1:
        for i in range(height):
            state[at(POS_TC, i)] = state[FIXED_TOWER_CARDS + i]
    else:
        for i in range(n_tc):
            state[at(CAND, i)] = i
        flat_shuffle_nb(state, CAND, n_tc, sh)
        for i in range(height):
            state[at(POS_TC, i)] = state[at(CAND, i)]
    side = state[OPTION_BOSS_SIDE]
    if side < 0:
        side = flat_below_nb(state, sh, 2)
    state[BOSS_SIDE] = side
    state[BOSS_IN_PLAY] = BOSS_ROW + side
    state[at(POS_TC, height)] = BOSS_ROW + side
    state[N_POSITIONS] = height + 1
    state[TOWER_LABEL] = tower_id_nb(state, n_tc, height, side) if state[TOWERS_LABELLED] == 1 else -1
    slot = 0
    floor = -1
    last_colour = -1
    for pos in range(height + 1):
        row = state[at(POS_TC, pos)]
        state[at(POS_SLOT0, pos)] = slot
        emit_nb(state, enums.EV_TOWER, -1, pos, row if row < BOSS_ROW else -1, side)
        for k in range(state[tc_at(row, TF_N_FLOORS)]):
            colour = state[tf_at(row, k, 0)]
            if colour != last_colour:
                floor += 1
                state[at(FLOOR_LO, floor)] = slot
            state[at(FLOOR_HI, floor)] = slot
            state[at(SLOT_POS, slot)] = pos
            state[at(SLOT_FLOOR, slot)] = floor
            for lr in range(2):         # every skeleton drawn lacks its token until the card's tokens are placed
                state[missing_at(slot, lr)] = state[tf_at(row, k, 1 + lr)]
            last_colour = colour
            slot += 1
    state[N_SLOTS] = slot
    state[N_FLOORS] = floor + 1


@rules_jit_flat
def tower_id_nb(state, n_tc, height, side):
    """The tower's index among every ordered choice of `height` of `n_tc` tower cards (lexicographic) times the two
    BOSS sides: ``compile.tower_labels`` names them in this order."""
    rank = 0
    for i in range(height):
        t = state[at(POS_TC, i)]
        smaller = t
        for j in range(i):
            smaller -= state[at(POS_TC, j)] < t
        rank = rank * (n_tc - i) + smaller
    return rank * 2 + side


@rules_jit_flat
def place_nb(state, pos):
    """Skeleton tokens onto the skeletons drawn on tower card `pos`, slot by slot, left before right, while tokens
    last (rulebook A: the bottom card at set-up; ``docs/rules/climbing_tower.md``: later cards as pawns reach
    them)."""
    placed = fill_nb(state, pos)
    state[at(POS_PLACED, pos)] = 1
    emit_nb(state, enums.EV_PLACE, -1, pos, placed, missing_on_card_nb(state, pos))


@rules_jit_flat
def top_up_nb(state, pos):
    """Tokens from the supply onto the skeletons of tower card `pos` that have none (a card placed short), in the
    order of :func:`place_nb`; a ``place`` row when any token went on."""
    placed = fill_nb(state, pos)
    if placed > 0:
        emit_nb(state, enums.EV_PLACE, -1, pos, placed, missing_on_card_nb(state, pos))


@rules_jit_flat
def fill_nb(state, pos):
    """A token from the supply onto each skeleton drawn on card `pos` that has none, slot by slot, left before right,
    while tokens last; returns the tokens put on."""
    placed = 0
    first = state[at(POS_SLOT0, pos)]
    supply = state[SUPPLY_TOKENS]   # the supply in a local: the stores below could alias it
    for k in range(state[tc_at(state[at(POS_TC, pos)], TF_N_FLOORS)]):     # the card's printed floors, slot first + k
        slot = first + k
        for side in range(2):
            n = min(state[missing_at(slot, side)], supply)
            state[at(ON_FLOOR, 2 * state[at(SLOT_FLOOR, slot)] + side)] += n
            state[standing_at(slot, side)] += n
            state[missing_at(slot, side)] -= n
            supply -= n
            placed += n
    state[SUPPLY_TOKENS] = supply
    return placed


@rules_jit_flat
def missing_on_card_nb(state, pos):
    """Skeletons drawn on tower card `pos` that have no token."""
    n = 0
    first = state[at(POS_SLOT0, pos)]
    for slot in range(first, first + state[tc_at(state[at(POS_TC, pos)], TF_N_FLOORS)]):
        n += state[missing_at(slot, 0)] + state[missing_at(slot, 1)]
    return n


@rules_jit_flat
def standing_on_nb(state, floor, side):
    """Skeletons standing on one side of a floor (its slots' sum, kept in ON_FLOOR)."""
    return state[at(ON_FLOOR, 2 * floor + side)]


@rules_jit_flat
def deal_cards_nb(state):
    """B. Decks: every Level 1 card and the first ``starting_level2`` of the shuffled Level 2 cards in the common
    deck; the other Level 2 cards in one pile (Hard) or a pile per colour (Easy), in shuffled order; the Level 3 cards
    shuffled into their pile; a ``shuffle`` row per card of each pile, top first."""
    n_cards = state[N_CARDS]
    sh = stream_at(SHUFFLE)
    n2 = 0
    n3 = 0
    for c in range(n_cards):
        level = state[card_at(c, CF_LEVEL)]
        state[at(LOC, c)] = enums.LOC_DECK if level == 1 else enums.LOC_OUT
        if level == 2:
            state[pile_at(1, n2)] = c           # pile 1 as scratch for the Level 2 shuffle
            n2 += 1
        elif level == 3:
            state[pile_at(2, n3)] = c
            n3 += 1
    flat_shuffle_nb(state, pile_at(1, 0), n2, sh)
    flat_shuffle_nb(state, pile_at(2, 0), n3, sh)
    state[PILE_SIZE + 2] = n3
    start2 = min(state[STARTING_LEVEL2], n2)
    for i in range(start2):
        state[at(LOC, state[pile_at(1, i)])] = enums.LOC_DECK
    easy = state[SUPPLY] == enums.SUPPLY_EASY
    first_colour = state[FIRST_PILE_COLOUR]
    na = 0
    nb = 0
    for i in range(start2, n2):
        c = state[pile_at(1, i)]
        if easy and state[card_at(c, CF_COLOUR)] != first_colour:
            state[at(CAND, nb)] = c
            nb += 1
        else:
            state[pile_at(0, na)] = c
            state[at(LOC, c)] = enums.LOC_PILE2
            na += 1
    for i in range(nb):
        c = state[at(CAND, i)]
        state[pile_at(1, i)] = c
        state[at(LOC, c)] = enums.LOC_PILE2B
    for i in range(n3):
        state[at(LOC, state[pile_at(2, i)])] = enums.LOC_PILE3
    n = 0
    for c in range(n_cards):    # each card written at the next place, which it keeps when it is in the deck (no
        state[at(OWNED, n)] = c     # branch on the starting Level 2 cards' random places)
        n += state[at(LOC, c)] == enums.LOC_DECK
    state[DECK_SIZE] = n
    state[PILE_SIZE] = na
    state[PILE_SIZE + 1] = nb
    state[PILE_NEXT] = 0
    state[PILE_NEXT + 1] = 0
    state[PILE_NEXT + 2] = 0
    if state.shape[0] > TRACE:      # each supply pile's order, top first, for a trace
        for k in range(3):
            for i in range(state[PILE_SIZE + k]):
                emit_nb(state, enums.EV_SHUFFLE, -1, k, i, state[pile_at(k, i)])
