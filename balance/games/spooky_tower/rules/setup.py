"""Setup (shuffle the Town and the Grimoire, pets and fragments in the centre), the dice, the trace, and the test
hooks that stack the Town and script the dice and the scripted strategy's decisions.

Where each card is (``layout.LOC``): in the Town, in the trunk (flipped), kept by a seat (a ghost Photo captured), or
held by a seat (its number).
"""
from __future__ import annotations

import numpy as np

from ....core.jit import rules_jit, rules_jit_inline
from ....core.rng import (PURPOSE_DICE, PURPOSE_SHUFFLE, PURPOSE_STRATEGY, flat_below_nb, flat_init_nb, flat_pair_nb,
                          flat_shuffle_nb)
from ...kernel_common import emit_at_nb, load_script
from .. import enums
from ..layout import (AMULET_FRAGMENTS, CHOICE_SCRIPT, CNT, DICE_SCRIPT, FRAGMENT_RESERVE, GHOST_PETS, GRIM, HAND_N,
                      LOC, MAX_PLAYERS, MISC, M_CHOICE_I, M_CHOICE_N, M_DICE_I, M_DICE_N, M_TRACE, NV, N_GRIMOIRE_CARDS,
                      N_PLAYERS, PETS_IN_CENTRE, PL, SC, TOWN_N, TRACE, VALUE_COUNT, VALUE_FIRST, WINNER, at, pl_at,
                      stream_at, town_at)

LOC_TOWN = -1
LOC_TRUNK = -2
LOC_KEPT = 10    # LOC_KEPT + seat: a ghost Photo captured by that seat; a seat number: held by that seat

DICE = 0         # random streams: the dice, the setup shuffles, then one per seat
SHUFFLE = 1


@rules_jit_inline
def emit_nb(state, kind, player, a, b, c):
    """Record one trace event when `state` carries a trace region (the count goes on, so overflow is visible)."""
    emit_at_nb(state, TRACE, M_TRACE, kind, player, a, b, c)


@rules_jit
def reset_nb(state, seed, game):
    """Setup: shuffle each Building's stack, then the Grimoire; pets and fragments in the centre; tokens
    available; clock at midnight."""
    n_players = state[N_PLAYERS]
    # Regions read before they are written; the rest (Town, hands, stacks) is overwritten as the game goes.
    state[SC:SC + enums.N_SC] = 0
    state[PL:PL + MAX_PLAYERS * enums.N_PL] = 0
    state[HAND_N:HAND_N + MAX_PLAYERS * NV] = 0
    state[CNT:CNT + MAX_PLAYERS * NV * enums.N_CNT] = 0
    state[MISC:MISC + 8] = 0
    state[WINNER] = -1
    state[PETS_IN_CENTRE] = state[GHOST_PETS]
    state[FRAGMENT_RESERVE] = state[AMULET_FRAGMENTS]
    flat_init_nb(state, stream_at(DICE), seed, game, PURPOSE_DICE)
    flat_init_nb(state, stream_at(SHUFFLE), seed, game, PURPOSE_SHUFFLE)
    for p in range(n_players):
        flat_init_nb(state, stream_at(2 + p), seed, game, PURPOSE_STRATEGY + p)
        state[pl_at(p, enums.PL_TOKEN)] = 1
    sh = stream_at(SHUFFLE)
    for v in range(1, enums.N_VALUES):
        n = state[at(VALUE_COUNT, v)]
        first = state[at(VALUE_FIRST, v)]
        for i in range(n):
            state[town_at(v, i)] = first + i
            state[at(LOC, first + i)] = LOC_TOWN
        flat_shuffle_nb(state, town_at(v, 0), n, sh)
        state[at(TOWN_N, v)] = n
    n_grim = state[N_GRIMOIRE_CARDS]
    for i in range(n_grim):
        state[at(GRIM, i)] = i
    flat_shuffle_nb(state, at(GRIM, 0), n_grim, sh)


@rules_jit_inline
def roll_nb(state):
    """1. Roll Dice: two six-sided dice from one word of the game's dice stream (or the test script while it lasts,
    one die at a time)."""
    if state[M_DICE_I] < state[M_DICE_N]:
        return die_nb(state), die_nb(state)
    d1, d2 = flat_pair_nb(state, stream_at(DICE), 6, 6)
    return d1 + 1, d2 + 1


@rules_jit_inline
def die_nb(state):
    i = state[M_DICE_I]
    if i < state[M_DICE_N]:
        state[M_DICE_I] = i + 1
        return state[at(DICE_SCRIPT, i)]
    return flat_below_nb(state, stream_at(DICE), 6) + 1


# --- Test hooks (plain Python): stack the Town, script the dice and the "scripted" strategy's decisions. --------

def script_dice(state: np.ndarray, dice) -> None:
    """The next dice rolled are `dice`, in order; after them the dice stream resumes."""
    load_script(state, DICE_SCRIPT, M_DICE_N, M_DICE_I, dice)


def script_choices(state: np.ndarray, choices) -> None:
    """Decisions of seats playing the scripted strategy, in order (see ``strategies.SCRIPTED``)."""
    load_script(state, CHOICE_SCRIPT, M_CHOICE_N, M_CHOICE_I, choices)


def stack_town(state: np.ndarray, value: int, cards_bottom_to_top) -> None:
    """Put these card ids (of `value`) in value's Town stack, the last one on top."""
    cards = list(cards_bottom_to_top)
    for i, c in enumerate(cards):
        state[town_at(value, i)] = c
    state[TOWN_N + value] = len(cards)
