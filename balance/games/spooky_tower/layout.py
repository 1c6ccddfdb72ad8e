"""Flat memory layout of a Spooky Tower game for the kernel.

A Numba call passes each array as seven machine words (and, with the runtime on, paid reference counting for it), so
the kernel passes just two arrays: ``state`` (int64: the game state, the compiled rules and an optional trace) and
``params`` (float64: strategy parameters and public card statistics). This module names every region; sizes are
fixed maxima so the offsets are compile-time constants. Each shared scalar and rule option has its absolute index
by name (``state[WINNER]``, ``state[N_PLAYERS]``); index helpers (``hand_n_at`` ...) keep the rest readable.

Every index that is not a constant goes through a helper here, and the helpers return *unsigned* indices: Numba
wraps a negative signed index around (``state[-1]`` is the last word), which costs a compare and a select on every
access whose sign LLVM cannot prove; an unsigned index skips that. (Measured: the kernel ran about 1.2x faster.) Indices
are never negative by construction; the test suite also runs games with ``NUMBA_BOUNDSCHECK=1``
(``tests/core/test_kernel_build.py``), where a bad index raises instead of reading a wrong word.
"""
from __future__ import annotations

import numpy as np

from ...core.index import rules_index
from ...core.rng import STREAM_WORDS

from . import enums

MAX_PLAYERS = enums.MAX_PLAYERS
NV = enums.N_VALUES
MAX_PER_VALUE = enums.MAX_PER_VALUE           # cards of one Building value
MAX_CARDS = NV * MAX_PER_VALUE
MAX_FX = enums.MAX_FX                         # effects on one Photo, bonus or Grimoire card
MAX_GRIMOIRE = enums.MAX_GRIMOIRE
MAX_DIAL = enums.MAX_DIAL
MAX_PARK = enums.MAX_PARK
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
SC = _region(enums.N_SC)                      # shared scalars, enums.SC_*
PL = _region(MAX_PLAYERS * enums.N_PL)        # per-player counters, enums.PL_*
HAND_N = _region(MAX_PLAYERS * NV)            # cards held per (seat, value)
TOWN_N = _region(NV)                          # cards left per Town stack
TOWN = _region(NV * MAX_PER_VALUE)            # Town stacks; top = last
HAND = _region(MAX_PLAYERS * NV * MAX_PER_VALUE)  # held cards in the order taken
GRIM = _region(MAX_GRIMOIRE)                  # Grimoire order as dealt
LOC = _region(MAX_CARDS)                      # where each card is (rules.setup.LOC_*)
CNT = _region(MAX_PLAYERS * NV * enums.N_CNT)  # per-game counters per (seat, value)
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
OPT = _region(enums.N_OPT)
CARD_VALUE = _region(MAX_CARDS)
CARD_NFX = _region(MAX_CARDS)
CARD_FX = _region(MAX_CARDS * MAX_FX)
VALUE_FIRST = _region(NV)
VALUE_COUNT = _region(NV)
BONUS_NFX = _region(NV)
BONUS_FX = _region(NV * MAX_FX)
BONUS_COUNT = _region(NV * enums.N_EFFECTS)   # how often each effect is among a value's bonuses
GHOST_WORTH = _region(NV)
GRIM_NFX = _region(MAX_GRIMOIRE)
GRIM_FX = _region(MAX_GRIMOIRE * MAX_FX)
DIAL = _region(MAX_DIAL)
PARK_REQ = _region(MAX_PARK)
PRIORITY = _region(enums.N_EFFECTS)
# --- the lookahead's scratch (rules.lookahead), last: every other region lies where a kernel without it has it ----
SAVED_LO = PEND - SC                          # saved: SC .. PEND (everything a decision sees), the streams and MISC,
SAVED_HI = MISC + 8 - STREAMS                 # and KINDS; PEND and STACK are empty between effects
SAVE = _region(SAVED_LO + SAVED_HI + MAX_PLAYERS)
DEAL = _region(max(MAX_PER_VALUE, MAX_GRIMOIRE))  # the unseen cards of one value (or the Grimoire), re-dealt
TRACE = _off                                  # trace rows (5 ints each) fill the rest of `state`
BASE_SIZE = _off

# --- float array `params` ------------------------------------------------------------------------------------------
F_FEAT = 0                                    # expected Photo effects per card, [value, effect]
F_PARAMS = NV * enums.N_EFFECTS               # strategy parameters per seat
F_GHOST = F_PARAMS + MAX_PLAYERS * N_PARAMS   # ghost value of one card per Building value (strategies.ghost_value_nb)
F_BASE = F_GHOST + NV                        # default parameters of each base strategy kind a lookahead plays out
N_BASE_KINDS = 4                              # kinds 0..3 (random, ghost_hunter, collector, clock_rusher)
F_SAVE = F_BASE + N_BASE_KINDS * N_PARAMS     # every seat's parameters, saved while a lookahead plays out
F_SIZE = F_SAVE + MAX_PLAYERS * N_PARAMS

# --- named words: each shared scalar (enums.SC_*) and rule option (enums.OPT_*) at its absolute index ------------
CLOCK = SC + enums.SC_CLOCK                   # clock hand position, 0 = midnight
GRIMOIRE_TOP = SC + enums.SC_GRIM_TOP         # index of the next Grimoire card to reveal
PARK_TOP = SC + enums.SC_PARK_TOP             # index of the top Park card
PETS_IN_CENTRE = SC + enums.SC_PETS_CENTER
FRAGMENT_RESERVE = SC + enums.SC_FRAG_RESERVE
TURN = SC + enums.SC_TURN                     # turns started, extra turns included
ROUND = SC + enums.SC_ROUND                   # rounds started
WINNER = SC + enums.SC_WINNER                 # -1 while the game runs
VICTORY = SC + enums.SC_VICTORY
EXTRA_TURNS_OWED = SC + enums.SC_EXTRA        # extra turns owed to the active player
CLUES_GAINED = SC + enums.SC_CLUE_GAINED      # clues gained this turn
EXTRA_TURNS_GAINED = SC + enums.SC_EXTRA_GAINED  # extra-turn effects resolved this turn
ACTIVE_SEAT = SC + enums.SC_ACTIVE

GHOST_PETS = OPT + enums.OPT_PETS             # Ghost Pets in the centre at the start
AMULET_FRAGMENTS = OPT + enums.OPT_FRAGMENTS  # Amulet fragments in the reserve at the start
GHOSTS_TO_WIN = OPT + enums.OPT_GHOSTS_TO_WIN
FRAGMENTS_TO_WIN = OPT + enums.OPT_FRAGMENTS_TO_WIN
EFFECT_ORDER = OPT + enums.OPT_EFFECT_ORDER   # enums.ORDER_*
FLIP_SCOPE = OPT + enums.OPT_FLIP_SCOPE       # enums.SCOPE_*
STUCK_WITH_TOKEN = OPT + enums.OPT_STUCK      # enums.STUCK_*
EXTRA_TURNS = OPT + enums.OPT_EXTRA_TURNS     # enums.EXTRA_*
MAX_TURNS = OPT + enums.OPT_MAX_TURNS         # the turn cap
GRIMOIRE_GHOST_WORTH = OPT + enums.OPT_GRIMOIRE_GHOST
N_PLAYERS = OPT + enums.OPT_N_PLAYERS
N_GRIMOIRE_CARDS = OPT + enums.OPT_N_GRIMOIRE
N_PARK_CARDS = OPT + enums.OPT_N_PARK
PARK_GHOSTS = OPT + enums.OPT_PARK_GHOSTS     # ghosts on each Park card
N_DIAL_STEPS = OPT + enums.OPT_N_DIAL

M_STACK = MISC + 0
M_TRACE = MISC + 1
M_DICE_N = MISC + 2
M_DICE_I = MISC + 3
M_CHOICE_N = MISC + 4
M_CHOICE_I = MISC + 5
M_SEARCHED = MISC + 6                         # decisions a lookahead seat searched this game (rules.lookahead)



@rules_index
def pl_at(p, k):
    return np.uint64(PL + p * enums.N_PL + k)


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
    return np.uint64(CNT + (p * NV + v) * enums.N_CNT + k)


@rules_index
def stream_at(i):
    return np.uint64(STREAMS + STREAM_WORDS * i)


@rules_index
def feat_at(v, fx):
    return np.uint64(F_FEAT + v * enums.N_EFFECTS + fx)


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
