"""Flat memory layout of a Climbing Tower game for the kernel (the approach of the other games' ``layout``).

The kernel passes two arrays: ``state`` (int64: compiled components and options, the game state, the test scripts and an
optional trace) and ``params`` (float64: the strategy parameters of both seats). Sizes are fixed maxima, so offsets are
compile-time constants. Every index that is not a constant goes through a helper here and comes back *unsigned* (Numba
then skips its negative-index wraparound).

Positions in the tower count tower cards from the bottom (0) to the BOSS card (the last); *slots* are the floors as
printed, card by card, bottom to top; *floors* are the slots joined where a colour touches the same colour across
neighbouring cards (rulebook, Floors). Pawns stand on floors.
"""
from __future__ import annotations

import numpy as np

from ...core.jit import rules_jit_flat
from ...core.rng import STREAM_WORDS
from .components import MAX_CARDS, MAX_FLOORS, MAX_TOWER_CARDS, TOKENS  # noqa: F401  (TOKENS for importers)
from .enums import CARD_COUNTER_NAMES, FINAL_NAMES  # in enums: the game's spec names them without Numba

MAX_POS = 7                       # tower cards under the BOSS (at most 6) + the BOSS card
MAX_SLOTS = MAX_POS * MAX_FLOORS
MAX_HAND = MAX_CARDS
MAX_CAND = 2 * MAX_CARDS + 8      # legal (action, card) rows of one decision
N_PARAMS = 5
N_SKILLS = 3

_off = 0


def _region(size: int) -> int:
    global _off
    start = _off
    _off += size
    return start


# --- compiled options: state[OPT + k] (named below) -------------------------------------------------------------------
OPT_ROUND_LIMIT = 0
OPT_SUPPLY = 1            # enums.SUPPLY_*
OPT_TALK = 2              # enums.TALK_*
OPT_START = 3             # enums.START_*
OPT_SIDE0 = 4             # side of seat 0 (enums.LEFT / RIGHT)
OPT_ICONS = 5             # enums.ICONS_*
OPT_HAND = 6
OPT_START_L2 = 7
OPT_REDRAWS = 8
OPT_MIN_DECK = 9
OPT_BONUS = 10
OPT_SKILL_GOLD = 11
OPT_LEFT_BEHIND = 12      # enums.LEFT_BEHIND_*
OPT_N_CARDS = 13
OPT_N_TC = 14             # tower cards available (001-007)
OPT_HEIGHT = 15           # tower cards under the BOSS
OPT_FIXED = 16            # 1: the tower is OPT_FIXED_TC..; 0: random
OPT_BOSS_SIDE = 17        # -1 random, 0 or 1
OPT_PILE_COLOUR = 18      # Easy: the colour code of the first Level 2 pile (the other colour goes to the second)
OPT_LABELLED = 19         # 1: towers are numbered for the statistics (compile.MAX_LABELLED)
OPT_TOP_UP = 20           # enums.TOP_UP_*
OPT_FIXED_TC = 21         # .. + MAX_POS: tower card indices bottom to top
N_OPT = OPT_FIXED_TC + MAX_POS
OPT = _region(N_OPT)

# --- play cards: state[card_at(c, CF_*)] ------------------------------------------------------------------------------
CF_LEVEL = 0
CF_COLOUR = 1             # colour code (index into the scenario's colours)
CF_NUMBER = 2
CF_SWORDS = 3
CF_ARROWS = 4
N_CF = 5
CARD = _region(MAX_CARDS * N_CF)
FOLLOWS = _region(MAX_CARDS)      # bit x of state[at(FOLLOWS, c)]: card x could follow card c (same colour or number)

# --- tower cards and BOSS sides: state[tc_at(t, TF_*)], floor k at TF_FLOORS + 3k (colour, left, right) ---------------
# rows 0 .. n_tc-1: tower cards; rows MAX_TOWER_CARDS and MAX_TOWER_CARDS + 1: BOSS sides A and B
TF_N_FLOORS = 0
TF_SKILL = 1              # enums.SKILL_*
TF_HP = 2                 # BOSS: hits to defeat it
TF_SAME_ROUND = 3         # BOSS: hits reset at the end of each round
TF_BOTH = 4               # BOSS: a hit counts only with both pawns on the BOSS floor
TF_FLOORS = 5
N_TF = TF_FLOORS + 3 * MAX_FLOORS
BOSS_ROW = MAX_TOWER_CARDS
TC = _region((MAX_TOWER_CARDS + 2) * N_TF)

# --- shared scalars: state[SC + k] (named below) ----------------------------------------------------------------------
SC_ROUND = 0              # rounds started
SC_TURN = 1               # turns taken (actions and passes)
SC_WINNER = 2             # 0 when the team won, -1 otherwise
SC_VICTORY = 3            # enums.WIN_* / LOST_*
SC_GOLD = 4               # the round's gold (skeleton tokens taken)
SC_SUPPLY_TOKENS = 5      # skeleton tokens neither on the tower nor gold
SC_BOSS_ROW = 6           # TC row of the BOSS side in play
SC_BOSS_SIDE = 7          # 0 (A) or 1 (B)
SC_BOSS_DMG = 8
SC_N_POS = 9              # tower cards in the column, the BOSS card included
SC_N_SLOTS = 10
SC_N_FLOORS = 11          # the BOSS floor is N_FLOORS - 1
SC_TOP = 12               # the play area's top card, -1 before the first card of a round
SC_FREE_USED = 13         # the free_play skill used this round
SC_SKILLS = 14            # bit k: skill k gained
SC_DECK_N = 15            # cards in the common deck (the draw pile during a round)
SC_PILE_TOP = 16          # next card of the draw pile: DECK[PILE_TOP .. DECK_N)
SC_START = 17             # this round's start player
SC_ACTIVE = 18
SC_ENDED = 19             # 1 once the game is over
SC_N_BUILD = 20           # the build rows written in CAND (rules.build.build_options_nb); U follow, implied
SC_BLOCKED = 21           # the seat that ended this round holding cards, -1
SC_TOWER_ID = 22          # the tower's label index (ordered tower cards x BOSS side), -1 for a tower outside it
SC_PILE_N = 23            # .. +3: cards in supply piles 0 (Level 2, Easy red), 1 (Easy blue), 2 (Level 3)
SC_PILE_I = 26            # .. +3: next card of each supply pile
SC_HIT_FLOORS = 29        # bit k: a skeleton fell on floor k this round
SC_N_PLAY = 30            # the turn's play rows written in CAND (rules.play.legal_nb); redraw, offer rows implied
SC_N_REDRAW = 31          # the turn's redraw rows (the hand, in order, or none)
N_SC = 32
SC = _region(N_SC)

POS_TC = _region(MAX_POS)          # tower card row at each position (the BOSS's: BOSS_ROW + side)
POS_SLOT0 = _region(MAX_POS)       # first slot of each position
POS_PLACED = _region(MAX_POS)      # its skeleton tokens are on it
POS_FLIPPED = _region(MAX_POS)     # cleared, left behind and flipped (its skill looked at)
SLOT_POS = _region(MAX_SLOTS)
SLOT_FLOOR = _region(MAX_SLOTS)
STANDING = _region(2 * MAX_SLOTS)  # skeleton tokens standing at (slot, side)
FLOOR_LO = _region(MAX_SLOTS)      # lowest slot of each floor
FLOOR_HI = _region(MAX_SLOTS)      # highest slot
HIT = _region(2 * MAX_SLOTS)       # skeletons defeated this round at (slot, side)
ON_FLOOR = _region(2 * MAX_SLOTS)  # at(ON_FLOOR, 2 * floor + side): STANDING summed over the floor's slots (kept)
MISSING = _region(2 * MAX_SLOTS)   # skeletons drawn at (slot, side) that have no token: a card not reached yet, a
                                   # supply that ran short, a card left behind with its tokens returned

# --- players: state[pl_at(p, PL_*)] -----------------------------------------------------------------------------------
PL_FLOOR = 0
PL_SIDE = 1
PL_REDRAWS = 2            # redraws used this round
PL_OFFERED = 3            # offered an exchange this round
PL_DOWN = 4               # card face down for exchange, -1
PL_HAND_N = 5
N_PL = 6
PL = _region(2 * N_PL)
HAND = _region(2 * MAX_HAND)
LOC = _region(MAX_CARDS)           # enums.LOC_* (+ seat)
DECK = _region(MAX_CARDS)          # the common deck; during a round the draw pile is DECK[PILE_TOP:DECK_N]
OWNED = _region(MAX_CARDS)         # the common deck's cards in ascending ids, DECK_SIZE of them (kept up to date)
PILES = _region(3 * MAX_CARDS)     # supply piles 0, 1, 2

# --- per-game counters (the outcome arrays) ---------------------------------------------------------------------------
FN_FLOOR, FN_SWORDS, FN_SKELETONS, FN_BOSS_HITS, FN_CLIMBED, FN_PLAYED, FN_REDRAWS, FN_OFFERS, FN_PASSES, \
    FN_BLOCKED = range(len(FINAL_NAMES))
N_FINAL = len(FINAL_NAMES)
FINAL = _region(2 * N_FINAL)
CC_BOUGHT, CC_REMOVED, CC_DEALT, CC_PLAYED, CC_IN_DECK_END = range(len(CARD_COUNTER_NAMES))
N_CC = len(CARD_COUNTER_NAMES)
CCNT = _region(MAX_CARDS * N_CC)
SKILL_COUNTER_NAMES = ("gained", "round_gained", "used")
SK_GAINED, SK_ROUND, SK_USED = range(len(SKILL_COUNTER_NAMES))
N_SK = len(SKILL_COUNTER_NAMES)
SKCNT = _region(N_SKILLS * N_SK)
TEAM_NAMES = ("gold", "bonus_gold", "bought", "removed", "blocked_rounds", "deck_end")
TM_GOLD, TM_BONUS, TM_BOUGHT, TM_REMOVED, TM_BLOCKED, TM_DECK_END = range(len(TEAM_NAMES))
N_TEAM = len(TEAM_NAMES)
TEAM = _region(N_TEAM)

# --- named absolute indices: state[WINNER], state[ROUND_LIMIT], state[TEAM_GOLD] (no offset sums in the kernel) -------

# shared scalars (SC_*); PILE_SIZE and PILE_NEXT + k for supply pile k
ROUND = SC + SC_ROUND
TURN = SC + SC_TURN
WINNER = SC + SC_WINNER
VICTORY = SC + SC_VICTORY
GOLD = SC + SC_GOLD
SUPPLY_TOKENS = SC + SC_SUPPLY_TOKENS
BOSS_IN_PLAY = SC + SC_BOSS_ROW
BOSS_SIDE = SC + SC_BOSS_SIDE
BOSS_DAMAGE = SC + SC_BOSS_DMG
N_POSITIONS = SC + SC_N_POS
N_SLOTS = SC + SC_N_SLOTS
N_FLOORS = SC + SC_N_FLOORS
TOP_CARD = SC + SC_TOP
FREE_PLAY_USED = SC + SC_FREE_USED
SKILLS = SC + SC_SKILLS
DECK_SIZE = SC + SC_DECK_N
DRAW_PILE_TOP = SC + SC_PILE_TOP
START_PLAYER = SC + SC_START
ACTIVE = SC + SC_ACTIVE
ENDED = SC + SC_ENDED
N_BUILD_ROWS = SC + SC_N_BUILD
BLOCKED_SEAT = SC + SC_BLOCKED
TOWER_LABEL = SC + SC_TOWER_ID
PILE_SIZE = SC + SC_PILE_N
PILE_NEXT = SC + SC_PILE_I
HIT_FLOORS = SC + SC_HIT_FLOORS
N_PLAY_ROWS = SC + SC_N_PLAY
N_REDRAW_ROWS = SC + SC_N_REDRAW

# compiled options (OPT_*), OPTION_ where a shared scalar has the name; FIXED_TOWER_CARDS + i for the i-th
ROUND_LIMIT = OPT + OPT_ROUND_LIMIT
SUPPLY = OPT + OPT_SUPPLY
COMMUNICATION = OPT + OPT_TALK
OPTION_START_PLAYER = OPT + OPT_START
FIRST_PLAYER_SIDE = OPT + OPT_SIDE0
ICON_ORDER = OPT + OPT_ICONS
HAND_SIZE = OPT + OPT_HAND
STARTING_LEVEL2 = OPT + OPT_START_L2
REDRAWS = OPT + OPT_REDRAWS
MIN_DECK = OPT + OPT_MIN_DECK
EMPTY_HAND_BONUS = OPT + OPT_BONUS
SKILL_GOLD = OPT + OPT_SKILL_GOLD
LEFT_BEHIND = OPT + OPT_LEFT_BEHIND
N_CARDS = OPT + OPT_N_CARDS
N_TOWER_CARDS = OPT + OPT_N_TC
TOWER_HEIGHT = OPT + OPT_HEIGHT
FIXED_TOWER = OPT + OPT_FIXED
OPTION_BOSS_SIDE = OPT + OPT_BOSS_SIDE
FIRST_PILE_COLOUR = OPT + OPT_PILE_COLOUR
TOWERS_LABELLED = OPT + OPT_LABELLED
TOP_UP = OPT + OPT_TOP_UP
FIXED_TOWER_CARDS = OPT + OPT_FIXED_TC

# team counters (TM_*)
TEAM_GOLD = TEAM + TM_GOLD
TEAM_BONUS_GOLD = TEAM + TM_BONUS
TEAM_BOUGHT = TEAM + TM_BOUGHT
TEAM_REMOVED = TEAM + TM_REMOVED
TEAM_BLOCKED_ROUNDS = TEAM + TM_BLOCKED
TEAM_DECK_END = TEAM + TM_DECK_END

# --- decisions and what a strategy may see ----------------------------------------------------------------------------
CAND = _region(2 * MAX_CAND)       # legal rows (action, card)
VIEW_TALK = _region(1)             # 1: the deciding seat may see its partner's hand (and plan jointly)
VIEW_PARTNER_N = _region(1)        # cards in the partner's hand when visible, else -1
VIEW_PARTNER = _region(1)          # the partner's hand when visible as a set (bit c: card c), else 0
KINDS = _region(2)
STREAMS = _region(3 * STREAM_WORDS)   # 0: shuffles; 1, 2: the seats' strategy streams
LOOK = _region(2)                  # a lookahead seat's playouts per turn decision (rules.lookahead); 0: no search

# --- test scripts -----------------------------------------------------------------------------------------------------
CHOICE_SCRIPT = _region(512)
DEAL_SCRIPT = _region(512)         # card ids the next deals use in order instead of a shuffle, round after round
M_CHOICE_N = _region(1)
M_CHOICE_I = _region(1)
M_DEAL_N = _region(1)
M_DEAL_I = _region(1)
M_TRACE = _region(1)
M_SEARCHED = _region(1)            # decisions a lookahead seat searched this game (rules.lookahead)
# --- the lookahead's scratch (rules.lookahead): the state a playout starts from, and the cards it re-deals ---------
SAVED_LO = CHOICE_SCRIPT - SC      # saved: SC .. the scripts (every word a game changes), and the script and trace
SAVED_HI = M_TRACE + 1 - M_CHOICE_N    # counters; the scripts themselves are read only
SAVE = _region(SAVED_LO + SAVED_HI)
DEAL = _region(MAX_CARDS)          # the hidden cards of one pool, in card-id order, then re-dealt
STATE_SIZE = _off
TRACE = STATE_SIZE                  # trace rows follow when the array is longer

F_PARAMS = 0
F_BASE = 2 * N_PARAMS              # default parameters of each base strategy kind a lookahead plays out
N_BASE_KINDS = 4                   # kinds 0..3 (random, climber, skeleton_farmer, deck_thinner)
F_SAVE = F_BASE + N_BASE_KINDS * N_PARAMS   # both seats' parameters, saved while a lookahead plays out
F_SIZE = F_SAVE + 2 * N_PARAMS



@rules_jit_flat
def at(region, i):
    """Word i of a one-dimensional region (``at(LOC, c)``, ``at(DECK, k)`` ...)."""
    return np.uint64(region + i)


@rules_jit_flat
def card_at(c, k):
    return np.uint64(CARD + c * N_CF + k)


@rules_jit_flat
def tc_at(t, k):
    return np.uint64(TC + t * N_TF + k)


@rules_jit_flat
def tf_at(t, floor, k):
    """Floor `floor` of tower card row t: k 0 colour, 1 left skeletons, 2 right."""
    return np.uint64(TC + t * N_TF + TF_FLOORS + 3 * floor + k)


@rules_jit_flat
def pl_at(p, k):
    return np.uint64(PL + p * N_PL + k)


@rules_jit_flat
def hand_at(p, i):
    return np.uint64(HAND + p * MAX_HAND + i)


@rules_jit_flat
def pile_at(k, i):
    return np.uint64(PILES + k * MAX_CARDS + i)


@rules_jit_flat
def standing_at(slot, side):
    return np.uint64(STANDING + 2 * slot + side)


@rules_jit_flat
def missing_at(slot, side):
    return np.uint64(MISSING + 2 * slot + side)


@rules_jit_flat
def hit_at(slot, side):
    return np.uint64(HIT + 2 * slot + side)


@rules_jit_flat
def final_at(p, k):
    return np.uint64(FINAL + p * N_FINAL + k)


@rules_jit_flat
def cc_at(c, k):
    return np.uint64(CCNT + c * N_CC + k)


@rules_jit_flat
def sk_at(k, j):
    return np.uint64(SKCNT + k * N_SK + j)


@rules_jit_flat
def cand_at(i, col):
    return np.uint64(CAND + 2 * i + col)


@rules_jit_flat
def stream_at(i):
    return np.uint64(STREAMS + i * STREAM_WORDS)


@rules_jit_flat
def param_at(p, k):
    return np.uint64(F_PARAMS + p * N_PARAMS + k)
