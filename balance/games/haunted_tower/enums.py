"""The Haunted Tower's named integer constants: monsters' and items' rule kinds, chit places, decisions, events, state
slots.

Kernels, the reference engine, strategies and narration all speak these numbers; nothing else in the game uses a bare
integer for a rule concept. Names of the components themselves (which monster, which item, which hero) are data: a
component's index in the scenario's lists (``components.py``), not a constant here.
"""
from __future__ import annotations

MAX_PLAYERS = 6          # six hero stand-ups in the box
MIN_PLAYERS = 3

# --- What a hit does (monster table: "Damage is ...", the 1d10 tables) ------------------------------------------
HIT_NORMAL = 0           # one hit point ("Normal damage is one hit point plus any bonuses")
HIT_DOUBLE = 1           # two hit points ("double normal damage")
HIT_STONE = 2            # hit points to zero: the hero dies (basilisk, 10 on 1d10)
HIT_SLOWED = 3           # normal damage and -2 to hit on the next attack roll on this monster (carrion crawler)
HIT_HELD = 4             # normal damage and no movement on the next turn (ghoul)
HIT_NAMES = ("normal", "double", "stone", "slowed", "held")

# A monster's damage kind (the table's "Damage is energy drain", robber fly, rust monster).
DMG_NORMAL = 0           # HIT_* from its 1d10 table, or HIT_NORMAL / HIT_DOUBLE without one
DMG_DRAIN = 1            # one hit point and one from the attack number (at most one "-1" chit an encounter)
DMG_DOUBLE_DRAIN = 2     # two hit points and one from the attack number
DMG_STEAL = 3            # no damage: one magical item is moved 10 squares away (robber fly)
DMG_RUST = 4             # no damage: one metal item is removed from the game (rust monster)
DAMAGE_NAMES = ("normal", "energy_drain", "double_energy_drain", "steal_item", "rust")

# What may damage a monster ("Can only be damaged by ..."): a bit mask; 0 means anything may.
BY_MAGIC = 1             # a hero whose ability is magic (spells)
BY_MAGIC_WEAPON = 2      # a magical weapon
BY_SILVER = 4            # a silver weapon
BY_HOLY = 8              # holy water
BY_NAMES = ("magic", "magical_weapon", "silver", "holy_water")

# Initiative ("Pit vipers get a +1", "Zombies always lose the initiative").
INIT_ROLL = 0
INIT_ALWAYS_LOSES = 1
INITIATIVE_NAMES = ("roll", "always_loses")

# --- Items ---------------------------------------------------------------------------------------------------
SLOT_ARMOR = 0           # gold shield symbol; one may be worn
SLOT_WEAPON = 1          # red crossed swords; two may be carried
SLOT_SHIELD = 2          # one
SLOT_OTHER = 3           # orange potion bottle: any number
SLOT_NAMES = ("armor", "weapon", "shield", "other")

# Item flags (a bit mask).
IF_METAL = 1
IF_MAGICAL = 2
IF_SILVER = 4
IF_HOLY = 8              # damages what only holy water may damage
IF_ATTACK = 16           # may be used to attack (weapons; holy water and wands among the orange items)
IF_MAGIC = 32            # an attack with it counts as magic (a wand)
ITEM_FLAG_NAMES = ("metal", "magical", "silver", "holy", "attack", "magic")

# --- Hero abilities (one per hero, with a numeric parameter) -------------------------------------------------------
AB_NONE = 0
AB_MAGIC = 1             # every attack counts as magic (damages what only magic may damage)
AB_UNDEAD_BONUS = 2      # + param to the attack roll against undead
AB_EXTRA_WEAPON = 3      # + param weapon slots
AB_RUN_BONUS = 4         # + param to the 1d10 running-away roll
AB_DAMAGE_BONUS = 5      # + param damage on every hit
AB_INITIATIVE_BONUS = 6  # + param to the initiative roll
AB_MOVE_BONUS = 7        # + param movement points every turn
ABILITY_NAMES = ("none", "magic", "undead_bonus", "extra_weapon_slot", "run_bonus", "damage_bonus",
                 "initiative_bonus", "movement_bonus")

# --- Chits ------------------------------------------------------------------------------------------------------
BLUE = 0
PURPLE = 1
SPECTER_CHIT = 2         # the "Specter of Sir Jameson" chit (purple-backed, mixed in for Tower 3 only)
COLOUR_NAMES = ("blue", "purple", "specter")

CONTENT_MONSTER = 0      # a chit's content: a monster (index into the monster table) ...
CONTENT_ITEM = 1         # ... or a magical item (index into the item list)

# Where a chit is: chit_loc[c] (a seat is added to the LOC_*_SEAT bases).
LOC_CUP = 0              # in the cup (not yet drawn) or set aside unplaced
LOC_HAND = 1             # drawn at set-up, not yet placed: owner in chit_owner
LOC_BOARD = 2            # face down on a square
LOC_FLOOR = 3            # a revealed item lying face up on a square
LOC_HELD = 4             # an item carried by a hero (chit_owner)
LOC_KEPT = 5             # a killed monster's chit kept by the hero who killed it (chit_owner)
LOC_ASIDE = 6            # leftover at set-up: set aside, out of the game
LOC_GONE = 7             # out of the game: fled from, killed a hero, used up, rusted, traded in, the Specter's
                         # chit after its death is KEPT
LOC_FIGHT = 8            # the monster being fought (its stand-up on the chit's square)
LOC_NAMES = ("cup", "hand", "board", "floor", "held", "kept", "aside", "gone", "fight")

# --- Rule options (scenario `rules` table) --------------------------------------------------------------------------
TIE_REROLL = 0           # initiative tie: both roll again
TIE_HERO = 1             # ... the hero attacks first
TIE_MONSTER = 2          # ... the monster attacks first
INIT_TIE_NAMES = ("reroll", "hero", "monster")

GATE_REVEALED = 0        # a level's gate opens once no face-down chit is left on it
GATE_NO_CHITS = 1        # ... once no chit at all is left on it (revealed items on the floor keep it shut)
GATE_NAMES = ("all_revealed", "no_chits")

SHARE_ALL = 0            # tied points: every tied seat wins
SHARE_SPECTER = 1        # tied points: the Specter's killer wins if among them, else every tied seat
TIE_NAMES = ("shared", "specter_killer")

# --- Victory kinds ----------------------------------------------------------------------------------------------
WIN_NONE = 0             # unfinished: the turn cap
WIN_SPECTER = 1          # the Specter of Sir Jameson was killed
WIN_ALL_OUT = 2          # every hero is out of the game
VICTORY_NAMES = ("unfinished", "specter", "all_out")

# --- What a game reports (the names of layout's FINAL_FIELDS, in order, and of its per-monster counters) -----------
FINAL_NAMES = ("points", "standups", "blue_chits", "purple_chits", "bane_kills", "specter_hits", "specter_kill",
               "kills", "deaths", "out", "drains", "encounters", "runs", "trade_ins", "items", "damage_dealt",
               "damage_taken", "pts_standups", "pts_chits", "pts_bane", "pts_specter_hits", "pts_specter_kill",
               "fight_cap")
SCORE_LINES = ("pts_standups", "pts_chits", "pts_bane", "pts_specter_hits", "pts_specter_kill")
FIGHT_CAP_ROUNDS = 100   # a simulation limit, like the turn cap: after this many combat rounds in a row in which no
                         # attack could hurt its target (neither side can hurt the other) the game ends, unfinished
MONSTER_COUNTER_NAMES = ("encounters", "kills", "runs", "deaths")

# --- Decisions (strategies), also the code an illegal answer is reported with ------------------------------------
DEC_PLACE_BLUE = 1
DEC_PLACE_PURPLE = 2
DEC_TRADE_IN = 3
DEC_POTION = 4
DEC_MOVE = 5
DEC_ENCOUNTER = 6
DEC_TAKE = 7
DEC_COMBAT = 8
DEC_STEAL_ITEM = 9
DEC_STEAL_SQUARE = 10
DEC_RUST = 11
DEC_RESPAWN = 12
DEC_DROP = 13
DEC_DROP_SQUARE = 14
DEC_TRADE_OFFER = 15
DEC_TRADE_ACCEPT = 16
DECISION_NAMES = ("", "place_blue", "place_purple", "trade_in", "potion", "move", "encounter", "take", "combat",
                  "steal_item", "steal_square", "rust", "respawn", "drop", "drop_square", "trade_offer",
                  "trade_accept")

# Experience trade-in answers.
TRADE_NONE = 0
TRADE_TWO_BLUE = 1
TRADE_ONE_PURPLE = 2

# Combat options (rows of layout.OPTS: kind, item chit).
CO_RUN = 0
CO_ATTACK = 1            # with the item chit, or the hero's own weapon (-1)
CO_POTION = 2
COMBAT_OPTION_NAMES = ("run", "attack", "potion")

# Take options (CAND entries): leave the item, take it into a free slot, or a carried chit to give up for it.
TAKE_LEAVE = -1
TAKE_FREE = -2

# --- Trace events: one row (kind, player, a, b, c) ----------------------------------------------------------------
EV_ROUND = 0             # a=round, b=starting seat
EV_ROLLOFF = 1           # a=1d10, b=0 set-up / 1 round order
EV_DEAL = 2              # a=chit drawn into the player's hand
EV_PLACE = 3             # a=chit, b=square (face down)
EV_TURN = 4              # a=turn, b=round
EV_TRADE_IN = 5          # a=enums.TRADE_*, b="-1" chits left
EV_POTION = 6            # a=chit, b=hit points now
EV_HELD = 7              # held by a ghoul: no movement this turn
EV_MOVE_ROLL = 8         # a=1d6, b=movement points
EV_MOVE = 9              # a=from square, b=to square, c=cost
EV_REVEAL = 10           # a=chit, b=content kind, c=monster or item index
EV_CANNOT_USE = 11       # a=chit
EV_TAKE = 12             # a=chit, b=chit given up for it or -1
EV_LEAVE = 13            # a=chit left where it lies
EV_DROP = 14             # a=chit, b=square
EV_FIGHT = 15            # a=chit, b=monster
EV_INITIATIVE = 16       # a=hero roll, b=monster roll (-1: none), c=1 hero first, 0 monster first, -1 tie
EV_RUN = 17              # a=1d10 + bonus, b=1 escaped
EV_BACK = 18             # a=square the hero backs up to (the Specter)
EV_ATTACK = 19           # a=1d6, b=total, c=1 hit
EV_IMMUNE = 20           # a=chit: the hit cannot damage it
EV_DAMAGE = 21           # a=damage, b=monster hit points left
EV_USED_UP = 22          # a=chit
EV_MONSTER_ATTACK = 23   # a=1d6, b=total, c=1 hit
EV_HIT_ROLL = 24         # a=1d10, b=enums.HIT_*
EV_WOUND = 25            # a=hit points lost, b=hit points left
EV_DRAIN = 26            # a="-1" chits now
EV_STOLEN = 27           # a=chit, b=square it now lies on, c=seat that chose both (the hero's right)
EV_FLY_AWAY = 28         # a=chit
EV_RUSTED = 29           # a=chit, b=seat that chose it (the hero's right)
EV_KILL = 30             # a=chit, b=monster
EV_DEATH = 31            # a=deaths, b=outside square it restarts on (-1 when out)
EV_OUT = 32              # out of the game
EV_MONSTER_GONE = 33     # a=chit: leaves the game (fled from, killed a hero)
EV_TRADE = 34            # a=partner, b=chit given, c=chit received (c=-1: refused)
EV_WIN = 35              # player=-1, a=victory kind, b=winning seats mask
EV_CAP = 36              # player=-1, a=turns, b=0 the turn cap, 1 the fight cap
EV_SCORE = 37            # a=points
EV_ILLEGAL = 38          # a=decision, b=answer: a strategy chose something illegal; the game stops unfinished
EV_WEAPON = 39           # a=chit the hero attacks with (-1: its own weapon), just before its `attack`
EV_STEP = 40             # a=square the move enters, b=that step's cost: the move's path, square by square
N_EVENT_COLS = 5
EVENT_NAMES = (
    "round", "rolloff", "deal", "place", "turn", "trade_in", "potion", "held", "move_roll", "move", "reveal",
    "cannot_use", "take", "leave", "drop", "fight", "initiative", "run", "back", "attack", "immune", "damage",
    "used_up", "monster_attack", "hit_roll", "wound", "drain", "stolen", "fly_away", "rusted", "kill", "death",
    "out", "monster_gone", "trade", "win", "cap", "score", "illegal", "weapon", "step",
)
