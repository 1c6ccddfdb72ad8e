"""Spooky Tower's named integer constants: effects, actions, event kinds, state slots.

Kernels, the reference engine, strategies and narration all speak these numbers; nothing else in the game uses a
bare integer for a rule concept.
"""
from __future__ import annotations

# --- Effects (rulebook "Description of Effects") -------------------------------------------------------------
FX_NONE = 0          # empty circle: no effect
FX_GHOST = 1         # capture a ghost (worth depends on the source)
FX_CLUE = 2          # gain a clue
FX_CLOCK = 3         # move the clock hand one step and apply the dial
FX_GRIMOIRE = 4      # reveal the top Grimoire card and apply it
FX_PET = 5           # take a Ghost Pet from the centre, else steal one
FX_REROLL = 6        # Reroll token to its available side
FX_FRAGMENT = 7      # take an Amulet fragment from the reserve
FX_TAKE_8MINUS = 8   # take a Building card of value 8 or less
FX_TAKE_ANY = 9      # take any Building card
FX_FLIP_8MINUS = 10  # flip one of your Building cards of value 8 or less
FX_FLIP_9PLUS = 11   # flip one of your Building cards of value 9 or more
FX_EXTRA_TURN = 12   # take another turn at the end of this one
N_EFFECTS = 13

EFFECT_NAMES = (
    "none", "ghost", "clue", "clock", "grimoire", "pet", "reroll", "fragment",
    "take_8minus", "take_any", "flip_8minus", "flip_9plus", "extra_turn",
)
EFFECT_CODES = {name: code for code, name in enumerate(EFFECT_NAMES)}

# --- Where an effect came from ------------------------------------------------------------------------------
SRC_BONUS = 0        # Building-side bonus of a taken card (id = card)
SRC_PHOTO = 1        # Photo side of a flipped card (id = card)
SRC_DIAL = 2         # clock dial (id = step, 1-based)
SRC_GRIMOIRE = 3     # Grimoire card (id = index in the deck as dealt)
SRC_RULE = 4         # the no-legal-action clock step (id 0)
SOURCE_NAMES = ("bonus", "photo", "dial", "grimoire", "rule")

# --- Actions --------------------------------------------------------------------------------------------------
ACT_TAKE = 0
ACT_FLIP = 1
ACTION_NAMES = ("take", "flip")

# --- Victory kinds --------------------------------------------------------------------------------------------
WIN_NONE = 0         # unfinished at the turn cap
WIN_GHOSTS = 1
WIN_AMULET = 2
VICTORY_NAMES = ("unfinished", "ghosts", "amulet")

# --- Per-player counters: state.pl[p, k] ----------------------------------------------------------------------
PL_GHOSTS = 0        # ghosts captured (photos, Grimoire, Park), pets not included
PL_PETS = 1          # Ghost Pets held (each counts as a ghost)
PL_FRAGMENTS = 2
PL_CLUES = 3         # clues in front of / under the House
PL_TOKEN = 4         # 1 when the Reroll token is available
PL_HELD = 5          # Building cards held, Building side up
N_PL = 6
PLAYER_COUNTER_NAMES = ("ghosts", "pets", "fragments", "clues", "token", "held")

# --- Shared scalars: state.sc[k] ------------------------------------------------------------------------------
SC_CLOCK = 0         # clock hand position, 0 = midnight
SC_GRIM_TOP = 1      # index of the next Grimoire card to reveal
SC_PARK_TOP = 2      # index of the top Park card
SC_PETS_CENTER = 3
SC_FRAG_RESERVE = 4
SC_TURN = 5          # turns started, extra turns included
SC_ROUND = 6         # rounds started
SC_WINNER = 7        # -1 while the game runs
SC_VICTORY = 8
SC_EXTRA = 9         # extra turns owed to the active player
SC_CLUE_GAINED = 10  # clues gained this turn
SC_EXTRA_GAINED = 11 # extra-turn effects resolved this turn
SC_ACTIVE = 12       # active seat
N_SC = 13

# --- Rule options (scenario `rules` table) ------------------------------------------------------------------
ORDER_PRINTED = 0      # revealed effects resolve in printed order, cards in the order they were taken
ORDER_TAKES_FIRST = 1  # take effects first, then the rest in printed order, flip effects last
EFFECT_ORDER_NAMES = ("printed", "takes_first")

SCOPE_CARD = 0         # "flip one of your cards" flips one card
SCOPE_BUILDING = 1     # ... flips every card you hold of the chosen value
FLIP_SCOPE_NAMES = ("card", "building")

STUCK_PASS = 0         # no legal action, token available, declines to reroll: turn ends, nothing happens
STUCK_CLOCK = 1        # ... the clock moves as for a player without the token (who keeps it)
STUCK_REROLL = 2       # ... the token must be spent on a reroll
STUCK_NAMES = ("pass", "clock", "reroll")

EXTRA_ONE = 0          # several extra-turn effects in one turn give one extra turn
EXTRA_STACK = 1        # each extra-turn effect gives its own extra turn
EXTRA_TURN_NAMES = ("one", "stack")

# --- Rules scalars: rules.opt[k] --------------------------------------------------------------------------------
OPT_PETS = 0
OPT_FRAGMENTS = 1
OPT_GHOSTS_TO_WIN = 2
OPT_FRAGMENTS_TO_WIN = 3
OPT_EFFECT_ORDER = 4
OPT_FLIP_SCOPE = 5
OPT_STUCK = 6
OPT_EXTRA_TURNS = 7
OPT_MAX_TURNS = 8
OPT_GRIMOIRE_GHOST = 9
OPT_N_PLAYERS = 10
OPT_N_GRIMOIRE = 11
OPT_N_PARK = 12
OPT_PARK_GHOSTS = 13
OPT_N_DIAL = 14
N_OPT = 15

# --- Trace events: one row (kind, player, a, b, c) --------------------------------------------------------------
EV_TURN = 0          # a=turn number (1-based), b=round, c=1 if extra turn
EV_ROLL = 1          # a=die 1, b=die 2
EV_REROLL = 2        # a=die 1, b=die 2 (token spent)
EV_TAKE = 3          # a=value, b=card, c=1 if by an effect
EV_FLIP = 4          # a=value, b=cards flipped, c=1 if by an effect
EV_REVEAL = 5        # a=card, b=value
EV_EFFECT = 6        # a=effect, b=source kind, c=source id
EV_CLOCK = 7         # a=new hand position, b=dial effect
EV_GRIMOIRE = 8      # a=grimoire index, b=number of effects
EV_GHOST = 9         # a=ghosts captured
EV_CLUE = 10         # a=clues now held
EV_PET = 11          # a=victim seat or -1 for the centre
EV_FRAGMENT = 12     # a=fragments now held
EV_TOKEN = 13        # reroll token refreshed
EV_EXTRA = 14        # extra turn earned
EV_PARK = 15         # a=park index, b=requirement
EV_LOST = 16         # a=effect that could not be applied
EV_STUCK = 17        # no legal action; a=1 if the clock moves
EV_WIN = 18          # a=victory kind
EV_CAP = 19          # turn cap reached
EV_PARK_SKIP = 20    # gained clues but the strategy declined the Park
N_EVENT_COLS = 5
EVENT_NAMES = (
    "turn", "roll", "reroll", "take", "flip", "reveal", "effect", "clock", "grimoire", "ghost", "clue", "pet",
    "fragment", "token", "extra_turn", "park", "lost", "stuck", "win", "cap", "park_skip",
)

N_VALUES = 13        # Building values 1..12; index 0 unused
MAX_PLAYERS = 4      # four House boards and Reroll tokens in the box

# --- Component limits: the kernel's fixed array sizes (layout), which the scenario's checks enforce -------------
MAX_PER_VALUE = 40   # cards of one Building value
MAX_FX = 8           # effects on one Photo, bonus or Grimoire card
MAX_GRIMOIRE = 60
MAX_DIAL = 24
MAX_PARK = 20

# Per-game counters per (seat, value): cards taken, cards flipped, ghosts captured from its photos.
CNT_TAKEN = 0
CNT_FLIPPED = 1
CNT_GHOSTS = 2
N_CNT = 3
COUNTER_NAMES = ("taken", "flipped", "ghosts")
