"""Climbing Tower set-up (rulebook A and B): the tower, its floors and first skeletons, the pawns, the common deck and
the supply piles. Every random draw comes from the game's shuffle stream, in this order: the tower cards (a
shuffle of all of them; the first ``tower_cards`` go bottom to top), the BOSS side (one draw), the Level 2 cards
(a shuffle; the first ``starting_level2`` join the deck), the Level 3 cards (a shuffle)."""
from __future__ import annotations

from ....core.jit import rules_jit_flat
from ....core.rng import PURPOSE_SHUFFLE, PURPOSE_STRATEGY, flat_below_nb, flat_init_nb, flat_shuffle_nb
from ...kernel_common import emit_at_nb
from .. import enums as E
from ..layout import (BOSS_ROW, CAND, FLOOR_HI, FLOOR_LO, LOC, M_TRACE, MAX_SLOTS, OPT, OPT_BOSS_SIDE, OPT_N_CARDS,
                     OPT_FIXED, OPT_FIXED_TC, OPT_LABELLED, OPT_HEIGHT, OPT_N_TC, OPT_PILE_COLOUR, OPT_SIDE0, OPT_START_L2,
                     OPT_SUPPLY, PL_DOWN, PL_FLOOR, PL_SIDE, POS_FLIPPED, POS_PLACED, POS_SLOT0, POS_TC, SC,
                     SC_BOSS_ROW, SC_BOSS_SIDE, SC_DECK_N, SC_N_FLOORS, SC_N_POS, SC_N_SLOTS, SC_PILE_I, SC_PILE_N,
                     SC_SUPPLY_TOKENS, SC_TOP, SC_TOWER_ID, SC_WINNER, SLOT_FLOOR, SLOT_POS, STANDING, TF_N_FLOORS,
                     TOKENS, TRACE, at, card_at, pile_at, pl_at, standing_at, stream_at, tc_at, tf_at, CF_COLOUR,
                     CF_LEVEL, FINAL, N_FINAL, CCNT, N_CC, MAX_CARDS, SKCNT, N_SK, N_SKILLS, TEAM, N_TEAM, HIT,
                     N_SC, PL, N_PL, MAX_POS, OWNED, ON_FLOOR, MISSING, missing_at)

SHUFFLE = 0                 # stream 0: set-up and the rounds' shuffles


@rules_jit_flat
def emit_nb(s, kind, player, a, b, c):
    """Record one trace event when `s` carries a trace region."""
    emit_at_nb(s, TRACE, M_TRACE, kind, player, a, b, c)


@rules_jit_flat
def reset_nb(s, seed, game):
    """Deal game `game` of run `seed`: empty state, streams, tower, skeletons on the bottom card, pawns, cards."""
    s[SC:SC + N_SC] = 0
    s[PL:PL + 2 * N_PL] = 0
    s[POS_TC:POS_TC + MAX_POS] = 0
    s[POS_PLACED:POS_PLACED + MAX_POS] = 0
    s[POS_FLIPPED:POS_FLIPPED + MAX_POS] = 0
    s[STANDING:STANDING + 2 * MAX_SLOTS] = 0
    s[ON_FLOOR:ON_FLOOR + 2 * MAX_SLOTS] = 0
    s[MISSING:MISSING + 2 * MAX_SLOTS] = 0
    s[HIT:HIT + 2 * MAX_SLOTS] = 0
    s[FINAL:FINAL + 2 * N_FINAL] = 0
    s[CCNT:CCNT + s[OPT + OPT_N_CARDS] * N_CC] = 0      # the scenario's cards: no other card's counter is written
    s[SKCNT:SKCNT + N_SKILLS * N_SK] = 0
    s[TEAM:TEAM + N_TEAM] = 0
    s[M_TRACE] = 0
    s[SC + SC_WINNER] = -1
    s[SC + SC_TOP] = -1
    s[SC + SC_SUPPLY_TOKENS] = TOKENS
    flat_init_nb(s, stream_at(SHUFFLE), seed, game, PURPOSE_SHUFFLE)
    for p in range(2):
        flat_init_nb(s, stream_at(1 + p), seed, game, PURPOSE_STRATEGY + p)
    build_tower_nb(s)
    side0 = s[OPT + OPT_SIDE0]
    for p in range(2):
        s[pl_at(p, PL_FLOOR)] = 0
        s[pl_at(p, PL_SIDE)] = side0 if p == 0 else 1 - side0
        s[pl_at(p, PL_DOWN)] = -1
    place_nb(s, 0)
    deal_cards_nb(s)


@rules_jit_flat
def build_tower_nb(s):
    """A. Tower: tower cards bottom to top (fixed, or the first of a shuffle), the BOSS card on top on its side; the
    slots (printed floors) and the floors (same colours touching across cards joined)."""
    n_tc = s[OPT + OPT_N_TC]
    height = s[OPT + OPT_HEIGHT]
    sh = stream_at(SHUFFLE)
    if s[OPT + OPT_FIXED] == 1:
        for i in range(height):
            s[at(POS_TC, i)] = s[OPT + OPT_FIXED_TC + i]
    else:
        for i in range(n_tc):
            s[at(CAND, i)] = i
        flat_shuffle_nb(s, CAND, n_tc, sh)
        for i in range(height):
            s[at(POS_TC, i)] = s[at(CAND, i)]
    side = s[OPT + OPT_BOSS_SIDE]
    if side < 0:
        side = flat_below_nb(s, sh, 2)
    s[SC + SC_BOSS_SIDE] = side
    s[SC + SC_BOSS_ROW] = BOSS_ROW + side
    s[at(POS_TC, height)] = BOSS_ROW + side
    s[SC + SC_N_POS] = height + 1
    s[SC + SC_TOWER_ID] = tower_id_nb(s, n_tc, height, side) if s[OPT + OPT_LABELLED] == 1 else -1
    slot = 0
    floor = -1
    last_colour = -1
    for pos in range(height + 1):
        row = s[at(POS_TC, pos)]
        s[at(POS_SLOT0, pos)] = slot
        emit_nb(s, E.EV_TOWER, -1, pos, row if row < BOSS_ROW else -1, side)
        for k in range(s[tc_at(row, TF_N_FLOORS)]):
            colour = s[tf_at(row, k, 0)]
            if colour != last_colour:
                floor += 1
                s[at(FLOOR_LO, floor)] = slot
            s[at(FLOOR_HI, floor)] = slot
            s[at(SLOT_POS, slot)] = pos
            s[at(SLOT_FLOOR, slot)] = floor
            for lr in range(2):         # every skeleton drawn lacks its token until the card's tokens are placed
                s[missing_at(slot, lr)] = s[tf_at(row, k, 1 + lr)]
            last_colour = colour
            slot += 1
    s[SC + SC_N_SLOTS] = slot
    s[SC + SC_N_FLOORS] = floor + 1


@rules_jit_flat
def tower_id_nb(s, n_tc, height, side):
    """The tower's index among every ordered choice of `height` of `n_tc` tower cards (lexicographic) times the two
    BOSS sides: ``compile.tower_labels`` names them in this order."""
    rank = 0
    for i in range(height):
        t = s[at(POS_TC, i)]
        smaller = t
        for j in range(i):
            smaller -= s[at(POS_TC, j)] < t
        rank = rank * (n_tc - i) + smaller
    return rank * 2 + side


@rules_jit_flat
def place_nb(s, pos):
    """Skeleton tokens onto the skeletons drawn on tower card `pos`, slot by slot, left before right, while tokens
    last (rulebook A: the bottom card at set-up; ``docs/rules/climbing_tower.md``: later cards as pawns reach
    them)."""
    placed = fill_nb(s, pos)
    s[at(POS_PLACED, pos)] = 1
    emit_nb(s, E.EV_PLACE, -1, pos, placed, missing_on_card_nb(s, pos))


@rules_jit_flat
def top_up_nb(s, pos):
    """Tokens from the supply onto the skeletons of tower card `pos` that have none (a card placed short), in the
    order of :func:`place_nb`; a ``place`` row when any token went on."""
    placed = fill_nb(s, pos)
    if placed > 0:
        emit_nb(s, E.EV_PLACE, -1, pos, placed, missing_on_card_nb(s, pos))


@rules_jit_flat
def fill_nb(s, pos):
    """A token from the supply onto each skeleton drawn on card `pos` that has none, slot by slot, left before right,
    while tokens last; returns the tokens put on."""
    placed = 0
    first = s[at(POS_SLOT0, pos)]
    supply = s[SC + SC_SUPPLY_TOKENS]   # the supply in a local: the stores below could alias it
    for k in range(s[tc_at(s[at(POS_TC, pos)], TF_N_FLOORS)]):     # the card's printed floors, slot first + k
        slot = first + k
        for side in range(2):
            n = min(s[missing_at(slot, side)], supply)
            s[at(ON_FLOOR, 2 * s[at(SLOT_FLOOR, slot)] + side)] += n
            s[standing_at(slot, side)] += n
            s[missing_at(slot, side)] -= n
            supply -= n
            placed += n
    s[SC + SC_SUPPLY_TOKENS] = supply
    return placed


@rules_jit_flat
def missing_on_card_nb(s, pos):
    """Skeletons drawn on tower card `pos` that have no token."""
    n = 0
    first = s[at(POS_SLOT0, pos)]
    for slot in range(first, first + s[tc_at(s[at(POS_TC, pos)], TF_N_FLOORS)]):
        n += s[missing_at(slot, 0)] + s[missing_at(slot, 1)]
    return n


@rules_jit_flat
def standing_on_nb(s, floor, side):
    """Skeletons standing on one side of a floor (its slots' sum, kept in ON_FLOOR)."""
    return s[at(ON_FLOOR, 2 * floor + side)]


@rules_jit_flat
def deal_cards_nb(s):
    """B. Decks: every Level 1 card and the first ``starting_level2`` of the shuffled Level 2 cards in the common
    deck; the other Level 2 cards in one pile (Hard) or a pile per colour (Easy), in shuffled order; the Level 3 cards
    shuffled into their pile; a ``shuffle`` row per card of each pile, top first."""
    n_cards = s[OPT + OPT_N_CARDS]
    sh = stream_at(SHUFFLE)
    n2 = 0
    n3 = 0
    for c in range(n_cards):
        level = s[card_at(c, CF_LEVEL)]
        s[at(LOC, c)] = E.LOC_DECK if level == 1 else E.LOC_OUT
        if level == 2:
            s[pile_at(1, n2)] = c           # pile 1 as scratch for the Level 2 shuffle
            n2 += 1
        elif level == 3:
            s[pile_at(2, n3)] = c
            n3 += 1
    flat_shuffle_nb(s, pile_at(1, 0), n2, sh)
    flat_shuffle_nb(s, pile_at(2, 0), n3, sh)
    s[SC + SC_PILE_N + 2] = n3
    start2 = min(s[OPT + OPT_START_L2], n2)
    for i in range(start2):
        s[at(LOC, s[pile_at(1, i)])] = E.LOC_DECK
    easy = s[OPT + OPT_SUPPLY] == E.SUPPLY_EASY
    first_colour = s[OPT + OPT_PILE_COLOUR]
    na = 0
    nb = 0
    for i in range(start2, n2):
        c = s[pile_at(1, i)]
        if easy and s[card_at(c, CF_COLOUR)] != first_colour:
            s[at(CAND, nb)] = c
            nb += 1
        else:
            s[pile_at(0, na)] = c
            s[at(LOC, c)] = E.LOC_PILE2
            na += 1
    for i in range(nb):
        c = s[at(CAND, i)]
        s[pile_at(1, i)] = c
        s[at(LOC, c)] = E.LOC_PILE2B
    for i in range(n3):
        s[at(LOC, s[pile_at(2, i)])] = E.LOC_PILE3
    n = 0
    for c in range(n_cards):    # each card written at the next place, which it keeps when it is in the deck (no
        s[at(OWNED, n)] = c     # branch on the starting Level 2 cards' random places)
        n += s[at(LOC, c)] == E.LOC_DECK
    s[SC + SC_DECK_N] = n
    s[SC + SC_PILE_N] = na
    s[SC + SC_PILE_N + 1] = nb
    s[SC + SC_PILE_I] = 0
    s[SC + SC_PILE_I + 1] = 0
    s[SC + SC_PILE_I + 2] = 0
    if s.shape[0] > TRACE:      # each supply pile's order, top first, for a trace
        for k in range(3):
            for i in range(s[SC + SC_PILE_N + k]):
                emit_nb(s, E.EV_SHUFFLE, -1, k, i, s[pile_at(k, i)])
