"""Flat memory layout of a Spooky Tower game for the kernel.

A Numba call passes each array as seven machine words (and, with the runtime on, paid reference counting for it), so
the kernel passes just two arrays: ``s`` (int64: the game state, the compiled rules and an optional trace) and ``f``
(float64: strategy parameters and public card statistics). This module names every region; sizes are fixed maxima
so the offsets are compile-time constants. Index helpers (``hand_n_at`` ...) keep the kernel readable.

Every index that is not a constant goes through a helper here, and the helpers return *unsigned* indices: Numba
wraps a negative signed index around (``s[-1]`` is the last word), which costs a compare and a select on every access
whose sign LLVM cannot prove; an unsigned index skips that. (Measured: the kernel ran about 1.2x faster.) Indices
are never negative by construction; the test suite also runs games with ``NUMBA_BOUNDSCHECK=1``
(``tests/core/test_kernel_build.py``), where a bad index raises instead of reading a wrong word.
"""
from __future__ import annotations

import numpy as np

from ...core.index import rules_index
from ...core.rng import STREAM_WORDS

from . import enums as E

MAX_PLAYERS = E.MAX_PLAYERS
NV = E.N_VALUES
MAX_PER_VALUE = E.MAX_PER_VALUE     # cards of one Building value
MAX_CARDS = NV * MAX_PER_VALUE
MAX_FX = E.MAX_FX                   # effects on one Photo, bonus or Grimoire card
MAX_GRIMOIRE = E.MAX_GRIMOIRE
MAX_DIAL = E.MAX_DIAL
MAX_PARK = E.MAX_PARK
PEND_ROWS = MAX_PER_VALUE * MAX_FX + MAX_FX
STACK_ROWS = 2 * MAX_CARDS * MAX_FX + MAX_GRIMOIRE * MAX_FX + 8
N_PARAMS = 4

_off = 0


def _region(size: int) -> int:
    global _off
    start = _off
    _off += size
    return start


# --- game state ----------------------------------------------------------------------------------------------
SC = _region(E.N_SC)                          # shared scalars, enums.SC_*
PL = _region(MAX_PLAYERS * E.N_PL)            # per-player counters, enums.PL_*
HAND_N = _region(MAX_PLAYERS * NV)            # cards held per (seat, value)
TOWN_N = _region(NV)                          # cards left per Town stack
TOWN = _region(NV * MAX_PER_VALUE)            # Town stacks; top = last
HAND = _region(MAX_PLAYERS * NV * MAX_PER_VALUE)  # held cards in the order taken
GRIM = _region(MAX_GRIMOIRE)                  # Grimoire order as dealt
LOC = _region(MAX_CARDS)                      # where each card is (kernel.LOC_*)
CNT = _region(MAX_PLAYERS * NV * E.N_CNT)     # per-game counters per (seat, value)
LEGAL = _region(6 * 2)                        # legal (action, value) rows
CAND = _region(NV)                            # candidates for a choice
PEND = _region(PEND_ROWS * 3)                 # effects revealed together (effect, source, id)
STACK = _region(STACK_ROWS * 3)               # pending effects; top = last row
STREAMS = _region((2 + MAX_PLAYERS) * STREAM_WORDS)  # random streams (rng.flat_*): dice, shuffle, one per seat
MISC = _region(8)                             # stack rows, trace rows, scripted dice/choices: count, next
DICE_SCRIPT = _region(256)                    # scripted dice for rule tests (used while any are left)
CHOICE_SCRIPT = _region(256)                  # scripted decisions for the "scripted" test strategy
KINDS = _region(MAX_PLAYERS)                  # strategy kind per seat in this game (set before reset)
# --- compiled rules (read only) --------------------------------------------------------------------------------
OPT = _region(E.N_OPT)
CARD_VALUE = _region(MAX_CARDS)
CARD_NFX = _region(MAX_CARDS)
CARD_FX = _region(MAX_CARDS * MAX_FX)
VALUE_FIRST = _region(NV)
VALUE_COUNT = _region(NV)
BONUS_NFX = _region(NV)
BONUS_FX = _region(NV * MAX_FX)
BONUS_COUNT = _region(NV * E.N_EFFECTS)        # how often each effect is among a value's bonuses
GHOST_WORTH = _region(NV)
GRIM_NFX = _region(MAX_GRIMOIRE)
GRIM_FX = _region(MAX_GRIMOIRE * MAX_FX)
DIAL = _region(MAX_DIAL)
PARK_REQ = _region(MAX_PARK)
PRIORITY = _region(E.N_EFFECTS)
TRACE = _off                                  # trace rows (5 ints each) fill the rest of `s`
BASE_SIZE = _off

# --- float array `f` -----------------------------------------------------------------------------------------------
F_FEAT = 0                                    # expected Photo effects per card, [value, effect]
F_PARAMS = NV * E.N_EFFECTS                   # strategy parameters per seat
F_GHOST = F_PARAMS + MAX_PLAYERS * N_PARAMS   # ghost value of one card per Building value (strategies.ghost_value_nb)
F_SIZE = F_GHOST + NV

M_STACK = MISC + 0
M_TRACE = MISC + 1
M_DICE_N = MISC + 2
M_DICE_I = MISC + 3
M_CHOICE_N = MISC + 4
M_CHOICE_I = MISC + 5



@rules_index
def pl_at(p, k):
    return np.uint64(PL + p * E.N_PL + k)


@rules_index
def hand_n_at(p, v):
    return np.uint64(HAND_N + p * NV + v)


@rules_index
def hand_at(p, v, k):
    return np.uint64(HAND + (p * NV + v) * MAX_PER_VALUE + k)


@rules_index
def town_at(v, k):
    return np.uint64(TOWN + v * MAX_PER_VALUE + k)


@rules_index
def cnt_at(p, v, k):
    return np.uint64(CNT + (p * NV + v) * E.N_CNT + k)


@rules_index
def stream_at(i):
    return np.uint64(STREAMS + STREAM_WORDS * i)


@rules_index
def feat_at(v, fx):
    return np.uint64(F_FEAT + v * E.N_EFFECTS + fx)


@rules_index
def param_at(p, k):
    return np.uint64(F_PARAMS + p * N_PARAMS + k)


@rules_index
def stack_at(i, col):
    """Pending-effect row i (top = last): column 0 the effect, 1 its source, 2 the source's id."""
    return np.uint64(STACK + 3 * i + col)


@rules_index
def pend_at(i, col):
    """Revealed-effect row i, columns as in stack_at."""
    return np.uint64(PEND + 3 * i + col)


@rules_index
def legal_at(i, col):
    """Legal action row i: column 0 the action (enums.ACT_*), 1 the Building value."""
    return np.uint64(LEGAL + 2 * i + col)


@rules_index
def at(region, i):
    """Word i of a one-dimensional region (``at(TOWN_N, v)``, ``at(CAND, k)`` ...)."""
    return np.uint64(region + i)
