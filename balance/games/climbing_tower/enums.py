"""Climbing Tower's named integer constants: actions, build actions, skills, BOSS rules, victories, trace events.

Nothing here is a number of the game's components (those are settings, ``components.py``); these are the codes the
kernel, the strategies and the reference engine share.
"""
from __future__ import annotations

PLAYERS = 2                 # exactly two, co-operative (rulebook, publisher's page)
LEFT = 0                    # the side of the tower a player is in charge of (index into a floor's skeletons)
RIGHT = 1

# --- A turn: exactly one of redraw, offer an exchange, play a card (rulebook, Play phase A-C) -------------------
ACT_PASS = 0                # an empty hand that can do nothing passes (not a choice)
ACT_REDRAW = 1              # A: discard one hand card face up, draw one
ACT_OFFER = 2               # B: put one hand card face down to offer an exchange
ACT_PLAY = 3                # C: play a card onto the shared play area
ACT_FREE = 4                # C with the free_play skill: a card that matches neither colour nor number
ACT_NAMES = ("pass", "redraw", "offer", "play", "free play")

# --- The build phase: R, Y, U in any order, then stop ---------------------------------------------------------------
BUILD_STOP = 0
BUILD_R = 1                 # 1 gold: a random Level 2 card (Easy: from the red or the blue pile, the player's pick)
BUILD_Y = 2                 # 2 gold: a random Level 3 card
BUILD_U = 3                 # 1 gold: remove one chosen card of the common deck from the game
BUILD_NAMES = ("stop", "R", "Y", "U")

# --- Skills (printed on the tower cards' backs; ASSUMED, docs/rules/climbing_tower.md) ------------------------------
SKILL_NONE = -1
SKILL_EXTRA_REDRAW = 0      # each player may redraw twice a round
SKILL_FREE_PLAY = 1         # once a round, the team may play one card that matches neither colour nor number
SKILL_BONUS_GOLD = 2        # one more gold in every build phase
SKILL_KINDS = ("extra_redraw", "free_play", "bonus_gold")

# --- Where a card is -----------------------------------------------------------------------------------------------
LOC_OUT = -1                # not in the game (left in the box at set-up, or removed with U)
LOC_DECK = 0                # in the common deck (between rounds), or in the draw pile (during a round)
LOC_HAND = 1                # + seat: in that player's hand
LOC_DOWN = 3                # + seat: face down, offered for exchange by that player
LOC_PLAYED = 5              # in the play area this round
LOC_DISCARD = 6             # discarded by a redraw this round
LOC_PILE2 = 7               # a supply pile of Level 2 (Easy: red pile)
LOC_PILE2B = 8              # Easy only: the blue Level 2 pile
LOC_PILE3 = 9               # the Level 3 supply pile

# --- Rule options (OPT_* indices into the compiled options) -------------------------------------------------------
SUPPLY_EASY = 0
SUPPLY_HARD = 1
TALK_SAME_FLOOR = 0
TALK_ALWAYS = 1
TALK_NEVER = 2
START_ALTERNATE = 0
START_FIRST = 1
ICONS_SWORDS_FIRST = 0
ICONS_ARROWS_FIRST = 1
LEFT_BEHIND_RETURN = 0      # skeletons of a card both pawns have left go back to the supply of tokens
LEFT_BEHIND_STAY = 1        # ... stay on the card (and the supply may run short)
TOP_UP_NEXT_ROUND = 0       # skeletons drawn on a card in play that lack a token get one in the next-round phase
TOP_UP_NEVER = 1            # ... never: a card placed short stays short

# --- A sword with a skeleton to take: "can defeat" (rulebook), so the player decides -------------------------------
SWORD_DEFEAT = 0            # row 0: the skeleton falls
SWORD_SPARE = 1             # row 1: it stays standing and the sword does nothing

# --- How a game ends ----------------------------------------------------------------------------------------------
WIN_NONE = 0                # unfinished (not reached: the round limit ends every game)
WIN_BOSS = 1                # the BOSS defeated within the round limit: the team wins
LOST_BELOW = 2              # the round limit, no pawn on the BOSS floor
LOST_AT_BOSS = 3            # the round limit, a pawn on the BOSS floor but the BOSS standing
VICTORY_NAMES = ("unfinished", "boss_defeated", "round_limit_below_boss", "round_limit_at_boss")

# --- What a game reports (layout's per-player FINAL and per-card counters, in order) -------------------------------
FINAL_NAMES = ("floor", "swords", "skeletons", "boss_hits", "climbed", "cards_played", "redraws", "offers",
               "passes", "blocked")
CARD_COUNTER_NAMES = ("bought", "removed", "dealt", "played", "in_deck_end")

# --- Trace events: (kind, player, a, b, c) ---------------------------------------------------------------------------
EV_TOWER = 1        # -1, position (0 bottom), tower card index (-1 BOSS), BOSS side
EV_ROUND = 2        # start player, round, deck size, gold carried (always 0)
EV_DEAL = 3         # player, card, 0, 0
EV_REDRAW = 4       # player, discarded card, drawn card
EV_OFFER = 5        # player, card
EV_EXCHANGE = 6     # -1, card player 0 gets, card player 1 gets
EV_PLAY = 7         # player, card, top card before (-1 none), 1 when a free play
EV_SWORD = 8        # player, floor, side, skeletons left on that side of the floor
EV_BOSS_HIT = 9     # player, damage now, BOSS hit points
EV_CLIMB = 10       # player, from floor, to floor
EV_PASS = 11        # player
EV_BLOCKED = 12     # player (holding cards, no action: the round ends)
EV_GOLD = 13        # -1, floor, side, gold from it (0: a group that did not all fall and stands again)
EV_BONUS = 14       # -1, gold (the empty-hand bonus and the bonus-gold skill), kind 0 bonus / 1 skill
EV_BUY = 15         # builder, level, card, supply pile (STACK_*: the Level 2 pile, Easy's second one, Level 3)
EV_REMOVE = 16      # builder, card
EV_SKILL = 17       # -1, tower position, skill (-1: already known, nothing gained)
EV_PLACE = 18       # -1, tower position, skeleton tokens placed, skeletons drawn on the card still without a token
EV_RETURN = 19      # -1, tower position, skeleton tokens returned to the supply
EV_END = 20         # -1, victory kind, round, BOSS damage
EV_SPARE = 21       # player, floor, side, skeletons standing there (a sword that could defeat one and did not)
EV_SHUFFLE = 22     # -1, stack (STACK_*), position from the top (0 first), card: one row per card, after a shuffle
EV_NAMES = {EV_TOWER: "tower", EV_ROUND: "round", EV_DEAL: "deal", EV_REDRAW: "redraw", EV_OFFER: "offer",
            EV_EXCHANGE: "exchange", EV_PLAY: "play", EV_SWORD: "sword", EV_BOSS_HIT: "boss_hit", EV_CLIMB: "climb",
            EV_PASS: "pass", EV_BLOCKED: "blocked", EV_GOLD: "gold", EV_BONUS: "bonus", EV_BUY: "buy",
            EV_REMOVE: "remove", EV_SKILL: "skill", EV_PLACE: "place", EV_RETURN: "return", EV_END: "end",
            EV_SPARE: "spare", EV_SHUFFLE: "shuffle"}

# --- Stacks of cards a trace lists in order: the supply piles (as ``layout`` numbers them) and the common deck -------
STACK_PILE2 = 0             # the Level 2 pile (Easy: the first Level 2 colour's)
STACK_PILE2B = 1            # Easy: the other Level 2 colour's pile
STACK_PILE3 = 2             # the Level 3 pile
STACK_DECK = 3              # the common deck, shuffled for a round's deal
