"""Flat memory layout of a Haunted Tower game for the kernel (the same approach as Spooky Tower's ``layout``).

The kernel passes four arrays: ``state`` (int64: the game state, the compiled rules, the test scripts and an
optional trace), ``params`` (float64: strategy parameters), ``tables`` (int32: the board's tables, ``board.Board``
packed behind a header of offsets) and ``costs`` (int16: the board's movement costs ``dist[t, a, b]`` flattened, then
the first step of each shortest path, ``NEXT_STEP``). Sizes of ``state`` are fixed maxima so its offsets are
compile-time constants, and every shared scalar and option has a name of its own here (``state[WINNER]``,
``state[N_CHITS]``); ``tables`` is sized by the map and read through its header.

Every index that is not a constant goes through a helper here and comes back *unsigned* (see
``balance/games/spooky_tower/layout.py``: Numba then skips its negative-index wraparound).

One module of about 550 lines on purpose: the regions are laid out one after another (``_region``), so every size,
offset and named field, and the helper that indexes it, is read in one place, in the order the arrays hold them.
"""
from __future__ import annotations

import numpy as np

from ...core.index import rules_index, rules_table
from ...core.jit import rules_jit, rules_jit_flat
from ...core.rng import STREAM_WORDS
from . import enums

MAX_PLAYERS = enums.MAX_PLAYERS
MAX_SQUARES = 2048
MAX_ROOMS = 128
MAX_CHITS = 256          # blue + purple + the Specter's
MAX_MONSTERS = 48
MAX_ITEMS = 64
MAX_HEROES = 16
MAX_HELD = 32            # items one hero carries
MAX_HAND = 100           # blue chits one player draws
MAX_PATH = 64            # squares of one move
MAX_CAND = 2048          # candidates of one decision (squares at most)
N_PARAMS = 4             # strategy parameters per seat
N_LOOK = 3               # a lookahead seat's settings in the state (look_at): playouts, width, horizon
MAX_WIDTH = 8            # answers (squares, encounter answers) a lookahead's search tries at most
MAX_PLAYOUTS = 256       # playouts of one square at most
N_BASE_KINDS = 4         # the strategy kinds a lookahead may play out (its base): 1..3, the heuristics
D10 = 10
N_LEVELS = 3
FIGHT_CAP_ROUNDS = enums.FIGHT_CAP_ROUNDS   # the fight cap (enums: the game's spec names it without Numba)

_off = 0


def _region(size: int) -> int:
    global _off
    start = _off
    _off += size
    return start


# --- Shared scalars: state[SC + k], named below -------------------------------------------------------------
SC_ROUND = 0             # rounds started
SC_TURN = 1              # hero turns started
SC_ACTIVE = 2            # seat whose turn it is (or who decides at set-up)
SC_WINNER = 3            # first winning seat, -1 while the game runs or unfinished
SC_WIN_MASK = 4          # bit s set for every winning seat (ties)
SC_VICTORY = 5           # enums.WIN_*
SC_SPECTER_KILLER = 6    # seat that killed the Specter, -1
SC_FIRST = 7             # the set-up roll-off's winner
SC_IN = 8                # heroes still in the game
SC_CUP_N = 9             # chits in the purple cup
SC_CUP_TOP = 10          # next chit of the cup
SC_MP = 11               # the active hero's movement points this turn
SC_CLIMB = 12            # the climbing table t the active hero moves under (board dist[t])
SC_LEFT = 13             # movement points left after the move
SC_FIGHT = 14            # chit being fought, -1
SC_FIGHT_HP = 15         # its hit points
SC_FIGHT_DRAINED = 16    # 1 once it drained the hero in this encounter
SC_SLOWED = 17           # the hero's next attack roll on this monster is at -2 (carrion crawler)
SC_LEVEL = 18            # level being filled with purple chits
SC_N_CAND = 19           # candidates in CAND for the decision being asked
SC_ERROR = 20            # a strategy answered with an illegal choice (decision kind + 1), 0 when none
SC_PATH_N = 21           # squares in PATH (this turn's move, start first) once recorded, 0 before (back_up_nb)
SC_VICTIM = 22           # the hero a steal or rust decision is about
SC_ROUND_START = 23      # seat that started this round
SC_PATH_FROM = 24        # square this turn's move started from (-1 before the first), its path not recorded
SC_HURT = 25             # 1 once an attack of this combat round could hurt its target (the fight cap's count)
N_SC = 26

# --- Per hero (seat): state[hs_at(p, k)] -----------------------------------------------------------------------
HS_HERO = 0              # index into the hero table
HS_SQ = 1                # square
HS_HP = 2
HS_MAXHP = 3
HS_ATTACK = 4            # the card's attack number (the "-1" chits are in HS_DRAINS)
HS_DRAINS = 5            # "-1" chits
HS_DEATHS = 6
HS_OUT = 7               # 1 once out of the game
HS_HELD_TURN = 8         # 1: does not move on its next turn (ghoul)
HS_N_ITEMS = 9           # items carried (HELD)
HS_BLUE = 10             # blue chits it has (items carried and monster chits kept)
HS_PURPLE = 11           # purple-backed chits it has
HS_STANDUPS = 12         # monster stand-ups kept
HS_KEPT_BLUE = 13        # blue monster chits kept (experience)
HS_KEPT_PURPLE = 14      # purple monster chits kept (experience)
HS_BANE_KILLS = 15       # monsters killed with their bane (the vampire with the stake)
HS_SPECTER_HIT = 16      # encounters (or 1, see the rule option) in which it damaged the Specter
HS_SPECTER_KILL = 17     # 1 when it killed the Specter
HS_POINTS = 18           # points at the end of the game
HS_KILLS = 19            # monsters killed
HS_ENCOUNTERS = 20       # chits encountered
HS_RUNS = 21             # successful escapes
HS_TRADE_INS = 22
HS_HAND_N = 23           # set-up: blue chits still in hand
HS_HIT_SPECTER_NOW = 24  # damaged the Specter in the current encounter
HS_DAMAGE_DEALT = 25
HS_DAMAGE_TAKEN = 26
HS_PTS_STANDUPS = 27     # points by scoring line (Winning), set at the end
HS_PTS_CHITS = 28
HS_PTS_BANE = 29
HS_PTS_SPECTER_HIT = 30
HS_PTS_SPECTER_KILL = 31
HS_FIGHT_CAP = 32        # 1 when the game ended at the fight cap in this hero's fight
N_HS = 33
HERO_STATE_NAMES = ("hero", "square", "hp", "max_hp", "attack", "drains", "deaths", "out", "held_turn", "items",
                    "blue", "purple", "standups", "kept_blue", "kept_purple", "bane_kills", "specter_hits",
                    "specter_kill", "points", "kills", "encounters", "runs", "trade_ins", "hand", "hit_specter_now",
                    "damage_dealt", "damage_taken", "pts_standups", "pts_chits", "pts_bane", "pts_specter_hits",
                    "pts_specter_kill", "fight_cap")

# --- Compiled hero table: state[ht_at(h, k)] ---------------------------------------------------------------------
HT_SPEED = 0
HT_HP = 1
HT_ATTACK = 2
HT_AC = 3
HT_ABILITY = 4
HT_ABILITY_VALUE = 5
N_HT = 6

# --- Compiled monster table: state[mt_at(m, k)] ------------------------------------------------------------------
MT_HP = 0
MT_ATTACK = 1
MT_AC = 2
MT_UNDEAD = 3
MT_DAMAGE = 4            # enums.DMG_*
MT_DOUBLE = 5            # 1: normal damage is double (no 1d10 table)
MT_HAS_ROLL = 6          # 1: a hit hero rolls the 1d10 table at HIT_ROLL
MT_INITIATIVE = 7        # enums.INIT_*
MT_INIT_BONUS = 8
MT_ONLY_BY = 9           # enums.BY_* mask, 0: anything damages it
MT_IGNORES_METAL = 10
MT_STAYS = 11
N_MT = 12

# --- Compiled item table: state[it_at(i, k)] ---------------------------------------------------------------------
IT_SLOT = 0
IT_ATTACK = 1
IT_DAMAGE = 2
IT_AC = 3
IT_HEAL = 4
IT_FLAGS = 5             # enums.IF_* mask
IT_USES = 6              # 0: unlimited
IT_USABLE = 7            # bit h set: hero h may use it
IT_BANE = 8              # monster index, -1
IT_BANE_DAMAGE = 9
N_IT = 10

# --- Options: state[OPT + k], named below -------------------------------------------------------------------------
OPT_PLAYERS = 0
OPT_TURN_CAP = 1
OPT_N_CHITS = 2          # chits in all (blue, purple, the Specter's last)
OPT_N_BLUE = 3           # blue chits are 0 .. N_BLUE-1
OPT_N_PURPLE = 4         # purple chits follow; the Specter's chit is OPT_N_CHITS - 1
OPT_SPECTER = 5          # monster index of the Specter
OPT_BLUE_EACH = 6        # blue chits each player draws
OPT_INIT_TIES = 7        # enums.TIE_*
OPT_TIES = 8             # enums.SHARE_*
OPT_OUT_SCORES = 9
OPT_TRADING = 10
OPT_CLIMB_1 = 11
OPT_CLIMB_2 = 12
OPT_SPECTER_ONCE = 13
OPT_PTS_STANDUP = 14
OPT_PTS_BLUE = 15
OPT_PTS_PURPLE = 16
OPT_PTS_BANE = 17
OPT_PTS_SPECTER_HIT = 18
OPT_PTS_SPECTER_KILL = 19
OPT_N_MONSTERS = 20
OPT_N_ITEMS = 21
OPT_N_HEROES = 22
OPT_GATE = 23            # enums.GATE_*: what empties a level for its gate
N_OPT = 24

# --- Per-game counters per (seat, monster) and (seat, item) ------------------------------------------------------
MC_ENCOUNTERS = 0        # fights begun against this monster
MC_KILLS = 1             # ... won
MC_RUNS = 2              # ... escaped
MC_HERO_DEATHS = 3       # ... in which the hero died
N_MC = 4
MONSTER_COUNTER_NAMES = enums.MONSTER_COUNTER_NAMES     # in enums: the game's spec names them without Numba
IC_TAKEN = 0             # times picked up
IC_HELD_END = 1          # carried at the end of the game
N_IC = 2
ITEM_COUNTER_NAMES = ("taken", "held_at_end")

# --- The state ----------------------------------------------------------------------------------------------------
SC = _region(N_SC)
HS = _region(MAX_PLAYERS * N_HS)
HELD = _region(MAX_PLAYERS * MAX_HELD)        # item chits each hero carries, in the order taken
HAND = _region(MAX_PLAYERS * MAX_HAND)        # set-up: each player's blue chits, in the order drawn
CHIT_LOC = _region(MAX_CHITS)                 # enums.LOC_*
CHIT_SQ = _region(MAX_CHITS)                  # square while on the board or the floor, else -1
CHIT_OWNER = _region(MAX_CHITS)               # seat for LOC_HAND, LOC_HELD, LOC_KEPT; -1 otherwise
CHIT_PLACER = _region(MAX_CHITS)              # seat that placed it knowing its content, -1
CHIT_FACEUP = _region(MAX_CHITS)              # 1 once revealed
CHIT_USES = _region(MAX_CHITS)                # uses left of a limited item
CHIT_ON = _region(MAX_CHITS // 64)            # bit c % 64 of word c // 64: chit c lies on the board or the floor
CHIT_HIDDEN = _region(MAX_CHITS // 64)        # the same bits: chit c is still face down (CHIT_FACEUP 0)
CHIT_PLACED = _region(MAX_PLAYERS * MAX_CHITS // 64)   # per seat, the same bits: the seat placed chit c (CHIT_PLACER)
CHIT_LEVEL = _region((N_LEVELS + 1) * MAX_CHITS // 64)  # per level 1..3, the same bits: chit c lies on a square of
                                              # that level (CHIT_SQ; the chit being fought too)
SQ_CHIT = _region(MAX_SQUARES)                # chit on the square (board or floor), -1
SQ_HERO = _region(MAX_SQUARES)                # hero (seat) on the square, -1
ROOM_BLUE = _region(MAX_ROOMS)                # blue chits placed in each room (set-up)
ROOM_FULL = _region(MAX_ROOMS)                # squares of the room holding a chit (set-up)
ROOM_PURPLE = _region(MAX_ROOMS)              # 1 once the room has its purple chit
LEVEL_CHITS = _region(N_LEVELS + 1)           # chits lying on each level (board or floor), index 1..3
LEVEL_HIDDEN = _region(N_LEVELS + 1)          # face-down chits on each level, index 1..3
SLOTS_OK = _region(MAX_PLAYERS)               # 1 while params' F_SLOTS row of the seat holds valuation.slots_nb of its
                                              # items as they are (reset each game; carry_nb and uncarry_nb clear it)
CUP = _region(MAX_CHITS)                      # the cup's chits in draw order
PATH = _region(MAX_PATH)                      # this turn's path, start first
CAND = _region(MAX_CAND)                      # candidates of the decision being asked (squares, chits, ...)
OPTS = _region(32 * 2)                        # combat options: (kind, chit) rows
MCNT = _region(MAX_PLAYERS * MAX_MONSTERS * N_MC)
ICNT = _region(MAX_PLAYERS * MAX_ITEMS * N_IC)
STREAMS = _region((2 + MAX_PLAYERS) * STREAM_WORDS)   # dice, shuffle, one per seat
MISC = _region(8)                             # trace rows, scripted dice/choices: count, next
DICE_SCRIPT = _region(512)
CHOICE_SCRIPT = _region(512)
KINDS = _region(MAX_PLAYERS)                  # strategy kind per seat (set before the game)
SEAT_HERO = _region(MAX_PLAYERS)              # hero index per seat (set before the game)
LOOK = _region(MAX_PLAYERS * N_LOOK)          # per seat, a lookahead's playouts and width (look_at); 0: no search
STATE_END = _off
# --- the lookahead's scratch (rules.lookahead): the state a playout starts from, what it re-deals, the moves tried --
SAVED_LO = DICE_SCRIPT - SC                   # saved: SC .. the scripts (every word a game changes), and KINDS ..
SAVED_HI = STATE_END - KINDS                  # STATE_END (kinds, heroes, the lookahead's settings)
SAVE = _region(SAVED_LO + SAVED_HI)
DEAL = _region(MAX_CHITS)                     # the chits of one back colour a seat does not know, in id order
PLACES = _region(MAX_CHITS)                   # ... the squares they lie on in square order, then -1 for each set aside
PLACER = _region(MAX_CHITS)                   # ... and the seat that placed the chit lying there (-1: none)
LOOK_SQ = _region(MAX_WIDTH)                  # the answers a lookahead's search tries (squares or encounter answers),
LOOK_M = _region(MAX_PLAYOUTS)                # ... the base's first; the margin of each playout of the base's answer
# --- compiled rules (read only) --------------------------------------------------------------------------------
OPT = _region(N_OPT)
HERO_TAB = _region(MAX_HEROES * N_HT)
MON_TAB = _region(MAX_MONSTERS * N_MT)
HIT_ROLL = _region(MAX_MONSTERS * D10)        # enums.HIT_* for faces 1..10
ITEM_TAB = _region(MAX_ITEMS * N_IT)
CHIT_KIND = _region(MAX_CHITS)                # enums.CONTENT_*
CHIT_INDEX = _region(MAX_CHITS)               # monster or item index
CHIT_COLOUR = _region(MAX_CHITS)              # enums.BLUE, PURPLE, SPECTER_CHIT
CHIT_BLUE = _region(MAX_CHITS // 64)          # bit c % 64 of word c // 64: chit c is blue-backed (CHIT_COLOUR)
TRACE = _off                                  # trace rows (5 ints each) fill the rest of `state`
BASE_SIZE = _off

M_TRACE = MISC + 0
M_DICE_N = MISC + 1
M_DICE_I = MISC + 2
M_CHOICE_N = MISC + 3
M_CHOICE_I = MISC + 4
M_SEARCHED = MISC + 5                         # decisions lookahead seats searched this game (rules.lookahead)

# --- The shared scalars and the options by name (absolute indices): state[WINNER], state[N_CHITS] --------------
ROUND = SC + SC_ROUND
TURN = SC + SC_TURN
ACTIVE = SC + SC_ACTIVE
WINNER = SC + SC_WINNER
WIN_MASK = SC + SC_WIN_MASK
VICTORY = SC + SC_VICTORY
SPECTER_KILLER = SC + SC_SPECTER_KILLER
FIRST_PLAYER = SC + SC_FIRST
HEROES_IN = SC + SC_IN
CUP_COUNT = SC + SC_CUP_N
CUP_TOP = SC + SC_CUP_TOP
MOVEMENT_POINTS = SC + SC_MP
CLIMB_TABLE = SC + SC_CLIMB
POINTS_LEFT = SC + SC_LEFT
FIGHT_CHIT = SC + SC_FIGHT
FIGHT_HP = SC + SC_FIGHT_HP
FIGHT_DRAINED = SC + SC_FIGHT_DRAINED
SLOWED = SC + SC_SLOWED
FILLING_LEVEL = SC + SC_LEVEL
N_CANDIDATES = SC + SC_N_CAND
ERROR = SC + SC_ERROR
PATH_LENGTH = SC + SC_PATH_N
VICTIM = SC + SC_VICTIM
ROUND_STARTER = SC + SC_ROUND_START
PATH_FROM = SC + SC_PATH_FROM
HURT = SC + SC_HURT

PLAYERS = OPT + OPT_PLAYERS
TURN_CAP = OPT + OPT_TURN_CAP
N_CHITS = OPT + OPT_N_CHITS
N_BLUE = OPT + OPT_N_BLUE
N_PURPLE = OPT + OPT_N_PURPLE
SPECTER_MONSTER = OPT + OPT_SPECTER
BLUE_EACH = OPT + OPT_BLUE_EACH
INITIATIVE_TIES = OPT + OPT_INIT_TIES
TIES = OPT + OPT_TIES
OUT_HERO_SCORES = OPT + OPT_OUT_SCORES
TRADING = OPT + OPT_TRADING
CLIMB_FROM_1 = OPT + OPT_CLIMB_1
CLIMB_FROM_2 = OPT + OPT_CLIMB_2
SPECTER_DAMAGE_ONCE = OPT + OPT_SPECTER_ONCE
POINTS_STANDUP = OPT + OPT_PTS_STANDUP
POINTS_BLUE = OPT + OPT_PTS_BLUE
POINTS_PURPLE = OPT + OPT_PTS_PURPLE
POINTS_BANE = OPT + OPT_PTS_BANE
POINTS_SPECTER_HIT = OPT + OPT_PTS_SPECTER_HIT
POINTS_SPECTER_KILL = OPT + OPT_PTS_SPECTER_KILL
N_MONSTERS = OPT + OPT_N_MONSTERS
N_ITEMS = OPT + OPT_N_ITEMS
N_HEROES = OPT + OPT_N_HEROES
GATE_OPENS = OPT + OPT_GATE

# --- float array `params` -------------------------------------------------------------------------------------------
F_PARAMS = 0
F_SLOTS = F_PARAMS + MAX_PLAYERS * N_PARAMS   # per seat, the 8 values of valuation.slots_nb (valid: SLOTS_OK)
N_SLOTS = 8
F_WORTH = F_SLOTS + MAX_PLAYERS * N_SLOTS     # per hero card and item, valuation.hero_worth_nb (compiled)
F_BASE = F_WORTH + MAX_HEROES * MAX_ITEMS     # default parameters of each strategy kind a lookahead plays out
F_SAVE = F_BASE + N_BASE_KINDS * N_PARAMS     # every seat's parameters and slots (F_PARAMS .. F_WORTH), saved while
F_SIZE = F_SAVE + F_WORTH                     # a lookahead plays out

# --- board array `tables`: a header of sizes and offsets, then the tables (board.Board) ----------------------------
G_N = 0                  # squares
G_K = 1                  # movement neighbours per square (padded)
G_A = 2                  # encounter neighbours per square
G_D = 3                  # door neighbours per square
G_R = 4                  # rooms
G_RMAX = 5               # largest room
G_N_OUT = 6              # outside squares
G_LEVEL = 7              # offsets of the tables:
G_KIND = 8
G_ROOM = 9
G_NBR = 10
G_NBR_COST = 11
G_ADJ = 12
G_DOOR = 13
G_ROOM_LEVEL = 14
G_ROOM_SIZE = 15
G_ROOM_SQ = 16
G_OUTSIDE = 17
G_FRONT = 18             # 1 for the four squares in front of the double doors
G_PLACEABLE = 19         # 1 where a chit may be placed
G_ROOMS_ON = 20          # rooms per level, index 1..3 (4 entries)
G_NBR_EDGE = 21
G_ROOM_ELIG = 22           # squares of each room where a chit may be placed (not the front squares)
G_ROOM_NEAR = 23         # the rooms by depth (movement cost from the first outside square to the room's first square,
G_ROOM_FAR = 24          # climbing allowed), nearest first / farthest first, the lower room index first on a tie
G_E = 25                 # entry squares per level (padded)
G_ENTRY = 26             # per level 0..3, its entry squares (padded with -1): where a movement edge from another
                         # level arrives, so every path onto the level from another passes one (compile.level_entries)
G_HEADER = 27


@rules_index
def placed_at(p, w):
    """Word w of seat p's CHIT_PLACED bits."""
    return np.uint64(CHIT_PLACED + p * (MAX_CHITS // 64) + w)


@rules_index
def level_bits_at(level, w):
    """Word w of level `level`'s CHIT_LEVEL bits."""
    return np.uint64(CHIT_LEVEL + level * (MAX_CHITS // 64) + w)


@rules_index
def hs_at(p, k):
    return np.uint64(HS + p * N_HS + k)


@rules_index
def held_at(p, k):
    return np.uint64(HELD + p * MAX_HELD + k)


@rules_index
def hand_at(p, k):
    return np.uint64(HAND + p * MAX_HAND + k)


@rules_index
def ht_at(h, k):
    return np.uint64(HERO_TAB + h * N_HT + k)


@rules_index
def mt_at(m, k):
    return np.uint64(MON_TAB + m * N_MT + k)


@rules_index
def it_at(i, k):
    return np.uint64(ITEM_TAB + i * N_IT + k)


@rules_index
def hit_roll_at(m, face):
    """Outcome (enums.HIT_*) of 1d10 = face (1..10) on monster m's table."""
    return np.uint64(HIT_ROLL + m * D10 + face - 1)


@rules_index
def mcnt_at(p, m, k):
    return np.uint64(MCNT + (p * MAX_MONSTERS + m) * N_MC + k)


@rules_index
def icnt_at(p, i, k):
    return np.uint64(ICNT + (p * MAX_ITEMS + i) * N_IC + k)


@rules_index
def stream_at(i):
    return np.uint64(STREAMS + STREAM_WORDS * i)


@rules_index
def slots_at(p, k):
    return np.uint64(F_SLOTS + p * N_SLOTS + k)


@rules_index
def worth_at(h, i):
    """params' WORTH entry of hero card h and item i."""
    return np.uint64(F_WORTH + h * MAX_ITEMS + i)


@rules_index
def look_at(p, k):
    """Seat p's lookahead setting k: 0 its playouts per answer (0: the seat does not search), 1 its width, 2 its
    horizon (hero turns a playout plays before it is scored; 0: to the end of the game)."""
    return np.uint64(LOOK + p * N_LOOK + k)


@rules_index
def param_at(p, k):
    return np.uint64(F_PARAMS + p * N_PARAMS + k)


@rules_index
def at(region, i):
    """Word i of a one-dimensional region (``at(CHIT_LOC, c)``, ``at(CAND, k)`` ...)."""
    return np.uint64(region + i)


@rules_index
def opt_at(i, col):
    """Combat option row i: column 0 the kind (combat.OPT_*), 1 the item chit (-1 for none)."""
    return np.uint64(OPTS + 2 * i + col)


# --- the board's tables ---------------------------------------------------------------------------------------------

@rules_table(G_LEVEL)
def g_level(tables, q):
    return tables[np.uint64(tables[G_LEVEL] + q)]


@rules_table(G_ROOM)
def g_room(tables, q):
    return tables[np.uint64(tables[G_ROOM] + q)]


@rules_table(G_NBR, G_K)
def g_nbr(tables, q, k):
    return tables[np.uint64(tables[G_NBR] + q * tables[G_K] + k)]


@rules_table(G_NBR_COST, G_K)
def g_nbr_cost(tables, q, k):
    return tables[np.uint64(tables[G_NBR_COST] + q * tables[G_K] + k)]


@rules_table(G_ADJ, G_A)
def g_adj(tables, q, k):
    return tables[np.uint64(tables[G_ADJ] + q * tables[G_A] + k)]


@rules_table(G_DOOR, G_D)
def g_door(tables, q, k):
    return tables[np.uint64(tables[G_DOOR] + q * tables[G_D] + k)]


@rules_table(G_ROOM_SQ, G_RMAX)
def g_room_sq(tables, r, k):
    return tables[np.uint64(tables[G_ROOM_SQ] + r * tables[G_RMAX] + k)]


@rules_table(G_ROOM_SIZE)
def g_room_size(tables, r):
    return tables[np.uint64(tables[G_ROOM_SIZE] + r)]


@rules_table(G_ENTRY, G_E)
def g_entry(tables, level, k):
    return tables[np.uint64(tables[G_ENTRY] + level * tables[G_E] + k)]


@rules_table(G_ROOM_LEVEL)
def g_room_level(tables, r):
    return tables[np.uint64(tables[G_ROOM_LEVEL] + r)]


@rules_table(G_ROOMS_ON)
def g_rooms_on(tables, level):
    """Rooms on a level (1..3)."""
    return tables[np.uint64(tables[G_ROOMS_ON] + level)]


@rules_table(G_ROOM_ELIG)
def g_room_elig(tables, r):
    return tables[np.uint64(tables[G_ROOM_ELIG] + r)]


@rules_table(G_ROOM_NEAR)
def g_room_near(tables, k):
    return tables[np.uint64(tables[G_ROOM_NEAR] + k)]


@rules_table(G_ROOM_FAR)
def g_room_far(tables, k):
    return tables[np.uint64(tables[G_ROOM_FAR] + k)]


@rules_table(G_OUTSIDE)
def g_outside(tables, k):
    return tables[np.uint64(tables[G_OUTSIDE] + k)]


@rules_table(G_FRONT)
def g_is_front(tables, q):
    return tables[np.uint64(tables[G_FRONT] + q)]


@rules_table(G_PLACEABLE)
def g_placeable(tables, q):
    return tables[np.uint64(tables[G_PLACEABLE] + q)]


# --- board costs `costs`: dist[t, a, b] for the climbing tables t = 0..3 (``cost``), then the next steps -----------
NEXT_STEP = 4            # the next steps start at word NEXT_STEP * n * n of d, two signed bytes a word (low byte
                         # first): byte j = (t * n + b) * n + a holds the index k of the first movement edge of square
                         # a (g_nbr(g, a, k)) on a shortest path to b under table t, in the map's order and allowed
                         # under t; -1 when there is none (b unreachable, or a == b). Grouped by goal b, a walk toward
                         # b reads one short run of them (compile.next_steps)


@rules_jit
def cost(costs, tables, t, a, b):
    """Movement cost from square a to b under climbing table t (board.dist), 32767 when unreachable."""
    n = tables[G_N]
    return costs[np.uint64((t * n + a) * n + b)]


@rules_jit_flat
def next_step(costs, tables, t, a, b):
    """The index k of square a's first movement edge (``g_nbr(g, a, k)``) on a shortest path to b under climbing
    table t (``NEXT_STEP``); -1 when there is none (b unreachable, or a == b). Inlined into every walk's loop."""
    n = tables[G_N]
    j = (t * n + b) * n + a
    return ((costs[np.uint64(NEXT_STEP * n * n + (j >> 1))] >> (8 * (j & 1))) & 0xFF ^ 0x80) - 0x80


# --- What a game reports per seat (rules.simulate_nb's `final`), in this order ------------------------------------
FINAL_FIELDS = (HS_POINTS, HS_STANDUPS, HS_BLUE, HS_PURPLE, HS_BANE_KILLS, HS_SPECTER_HIT, HS_SPECTER_KILL, HS_KILLS,
                HS_DEATHS, HS_OUT, HS_DRAINS, HS_ENCOUNTERS, HS_RUNS, HS_TRADE_INS, HS_N_ITEMS, HS_DAMAGE_DEALT,
                HS_DAMAGE_TAKEN, HS_PTS_STANDUPS, HS_PTS_CHITS, HS_PTS_BANE, HS_PTS_SPECTER_HIT, HS_PTS_SPECTER_KILL,
                HS_FIGHT_CAP)
FINAL_NAMES = enums.FINAL_NAMES         # in enums: the game's spec names them without Numba
SCORE_LINES = enums.SCORE_LINES
N_FINAL = len(FINAL_FIELDS)
