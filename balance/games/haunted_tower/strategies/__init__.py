"""The Haunted Tower's strategies: every choice the rulebook leaves to a player, including the choices a player makes
for a monster attacking the hero on its left (the robber fly's theft, the rust monster's meal).

A strategy is an integer kind (``s[KINDS + seat]``) plus a float parameter vector (``f[param_at(seat, :)]``); the
kernel calls the functions below and they dispatch on the kind. The kernel writes a decision's candidates into
``CAND`` (``SC_N_CAND`` of them) and the strategy answers with an index; for a square to stop on or to place a chit
on, it answers with the square and the kernel checks it.

What a strategy may read is the seat's view: heroes (squares, hit points, attack numbers, "-1" chits, items, kept
chits), where every chit lies and its colour (``CHIT_LOC``, ``CHIT_SQ``, ``CHIT_COLOUR``, ``SQ_CHIT``, ``SQ_HERO``,
``LEVEL_CHITS``), whether it is face up, and its content only through :func:`known_content_nb` (face up, or a blue
chit the seat placed itself). It never reads ``CHIT_KIND``/``CHIT_INDEX`` directly, the cup or the other players'
hands. The reference engine builds a view in which every content the seat does not know is blanked, so a strategy
that peeked would play differently there and the differential tests would say so.

Kinds: ``random`` (uniform over the legal choices, ``docs/strategies.md``), the heuristics ``cautious_looter``,
``monster_hunter`` and ``specter_rusher`` (``heuristics.py``: every decision below hands a seat of kind LOOTER, HUNTER
or RUSHER to the function of the same name there), and ``scripted`` (tests only: answers read from the choice
script).
"""
from __future__ import annotations

from ....core.jit import rules_jit, rules_jit_inline
from ...kernel_common import next_scripted_nb
from ....core.rng import flat_below_nb
from .. import enums as E
from . import heuristics as H
from ..layout import (CAND, CHIT_FACEUP, CHIT_HIDDEN, CHIT_INDEX, CHIT_KIND, CHIT_ON, CHIT_PLACER, CHOICE_SCRIPT, G_N,
                     G_R, HS_HAND_N, HS_KEPT_BLUE, HS_KEPT_PURPLE, HS_SQ, KINDS, M_CHOICE_I, M_CHOICE_N, ROOM_BLUE,
                     ROOM_FULL, ROOM_PURPLE, SC, SC_CLIMB, SC_MP, SC_N_CAND, SQ_CHIT, SQ_HERO, at, cost, g_placeable,
                     g_room_level, g_room_size, g_room_sq, hs_at, placed_at, stream_at, G_RMAX, g_room_elig)

RANDOM = 0
LOOTER = 1
HUNTER = 2
RUSHER = 3
SCRIPTED = 9


@rules_jit
def scripted_nb(s, default):
    """Next scripted decision, or `default` once the script is used up."""
    return next_scripted_nb(s, CHOICE_SCRIPT, M_CHOICE_N, M_CHOICE_I, default)


@rules_jit
def draw_nb(s, p, n):
    """Uniform integer in [0, n) from seat p's own strategy stream."""
    return flat_below_nb(s, stream_at(2 + p), n)


@rules_jit_inline
def known_content_nb(s, p, c):
    """What seat p knows chit c holds: (content kind, index), or (-1, -1) when it does not know (face down and not a
    blue chit it placed itself)."""
    if s[at(CHIT_FACEUP, c)] == 1 or s[at(CHIT_PLACER, c)] == p:
        return s[at(CHIT_KIND, c)], s[at(CHIT_INDEX, c)]
    return -1, -1


@rules_jit_inline
def unknown_bits_nb(s, p, w):
    """Word w of the bit set of the chits on the board or the floor whose content seat p does not know:
    :func:`known_content_nb`'s test over the bit sets (face down, and not placed by seat p)."""
    return s[at(CHIT_ON, w)] & s[at(CHIT_HIDDEN, w)] & ~s[placed_at(p, w)]


@rules_jit
def kind_of_nb(s, p):
    return s[at(KINDS, p)]


@rules_jit
def heuristic_nb(s, p):
    """Does seat p play one of the heuristics (heuristics.py)?"""
    kind = s[at(KINDS, p)]
    return kind == LOOTER or kind == HUNTER or kind == RUSHER


# --- set-up ---------------------------------------------------------------------------------------------------------

@rules_jit
def room_free_nb(s, g, r, blue):
    """Squares of room r a chit may go on now: free placeable squares, and for a blue chit only while the room keeps
    two empty squares for every blue chit with this one (0 otherwise)."""
    free = g_room_elig(g, r) - s[at(ROOM_FULL, r)]
    if blue and g_room_size(g, r) - s[at(ROOM_FULL, r)] - 1 < 2 * (s[at(ROOM_BLUE, r)] + 1):
        return 0
    return max(0, free)


@rules_jit
def kth_free_square_nb(s, g, r, k):
    """The k-th (0-based) free placeable square of room r, in the room's square order."""
    for j in range(g[G_RMAX]):
        q = g_room_sq(g, r, j)
        if q < 0:
            break
        if g_placeable(g, q) == 1 and s[at(SQ_CHIT, q)] < 0:
            if k == 0:
                return q
            k -= 1
    return -1


@rules_jit
def uniform_square_nb(s, g, p, blue, level):
    """A legal square for a chit, uniform over all of them: a room drawn with weight its free squares, then one of
    them (rooms of `level` without a purple chit for a purple chit; any room for a blue one)."""
    total = 0
    for r in range(g[G_R]):
        if blue or (g_room_level(g, r) == level and s[at(ROOM_PURPLE, r)] == 0):
            total += room_free_nb(s, g, r, blue)
    if total == 0:
        return -1
    u = draw_nb(s, p, total)
    for r in range(g[G_R]):
        if blue or (g_room_level(g, r) == level and s[at(ROOM_PURPLE, r)] == 0):
            n = room_free_nb(s, g, r, blue)
            if u < n:
                return kth_free_square_nb(s, g, r, u)
            u -= n
    return -1


@rules_jit
def place_blue_nb(s, f, g, d, p):
    """Which chit of its hand seat p places next, and on which square: (hand index, square)."""
    kind = kind_of_nb(s, p)
    if kind == SCRIPTED:
        k = scripted_nb(s, 0)
        return k, scripted_nb(s, uniform_square_first_nb(s, g, True, 0))
    if heuristic_nb(s, p):
        return H.place_blue_nb(s, f, g, d, p)
    k = draw_nb(s, p, s[hs_at(p, HS_HAND_N)])
    return k, uniform_square_nb(s, g, p, True, 0)


@rules_jit
def uniform_square_first_nb(s, g, blue, level):
    """The first legal square in room order (the scripted strategy's default)."""
    for r in range(g[G_R]):
        if (blue or (g_room_level(g, r) == level and s[at(ROOM_PURPLE, r)] == 0)) and room_free_nb(s, g, r, blue):
            return kth_free_square_nb(s, g, r, 0)
    return -1


@rules_jit
def place_purple_nb(s, f, g, d, p, level):
    """The square on `level` where seat p places the purple chit it drew, unseen."""
    if kind_of_nb(s, p) == SCRIPTED:
        return scripted_nb(s, uniform_square_first_nb(s, g, False, level))
    if heuristic_nb(s, p):
        return H.place_purple_nb(s, f, g, d, p, level)
    return uniform_square_nb(s, g, p, False, level)


# --- a hero's turn ----------------------------------------------------------------------------------------------

@rules_jit
def pick_nb(s, p, n, default):
    """Index into the n candidates: uniform for random, the script for scripted (then `default`)."""
    if kind_of_nb(s, p) == SCRIPTED:
        return scripted_nb(s, default)
    return draw_nb(s, p, n)


@rules_jit
def trade_in_nb(s, f, p):
    """Experience: 0 keep the "-1" chit, 1 pay two blue monster chits, 2 pay one purple monster chit."""
    if kind_of_nb(s, p) == SCRIPTED:
        return scripted_nb(s, E.TRADE_NONE)
    if heuristic_nb(s, p):
        return H.trade_in_nb(s, f, p)
    two_blue = s[hs_at(p, HS_KEPT_BLUE)] >= 2
    purple = s[hs_at(p, HS_KEPT_PURPLE)] >= 1
    i = draw_nb(s, p, 1 + two_blue + purple)
    if i == 0:
        return E.TRADE_NONE
    if i == 1 and two_blue:
        return E.TRADE_TWO_BLUE
    return E.TRADE_ONE_PURPLE


@rules_jit
def potion_nb(s, f, p):
    """Index into CAND (-1 for none, then the carried potions) of the potion to drink at the start of the turn."""
    if heuristic_nb(s, p):
        return H.potion_nb(s, f, p)
    return pick_nb(s, p, s[SC + SC_N_CAND], 0)


@rules_jit
def move_ok_view_nb(s, g, d, p, q):
    """As the kernel's check: reachable with this turn's points under its climbing table, no chit, no other hero."""
    h = s[at(SQ_HERO, q)]
    return (cost(d, g, s[SC + SC_CLIMB], s[hs_at(p, HS_SQ)], q) <= s[SC + SC_MP] and s[at(SQ_CHIT, q)] < 0
            and (h < 0 or h == p))


@rules_jit
def move_nb(s, f, g, d, p):
    """The square hero p stops on (SC_MP movement points under climbing table SC_CLIMB)."""
    if kind_of_nb(s, p) == SCRIPTED:
        return scripted_nb(s, s[hs_at(p, HS_SQ)])
    if heuristic_nb(s, p):
        return H.move_nb(s, f, g, d, p)
    n = 0
    for q in range(g[G_N]):
        n += move_ok_view_nb(s, g, d, p, q)
    u = draw_nb(s, p, n)
    for q in range(g[G_N]):
        if move_ok_view_nb(s, g, d, p, q):
            if u == 0:
                return q
            u -= 1
    return -1


@rules_jit
def encounter_nb(s, f, g, d, p):
    """Index into CAND of the chit to encounter, or -1 for none (uniform over none and each chit for random)."""
    if kind_of_nb(s, p) == SCRIPTED:
        return scripted_nb(s, -1)
    if heuristic_nb(s, p):
        return H.encounter_nb(s, f, g, d, p)
    return draw_nb(s, p, s[SC + SC_N_CAND] + 1) - 1


@rules_jit
def take_nb(s, f, p, c):
    """Index into CAND (TAKE_LEAVE, TAKE_FREE or a carried chit to give up) for the revealed item c."""
    if heuristic_nb(s, p):
        return H.take_nb(s, f, p, c)
    return pick_nb(s, p, s[SC + SC_N_CAND], 0)


@rules_jit
def combat_nb(s, f, p, c):
    """Index into the combat options (layout.opt_at rows: run, attacks, potions) against the monster on chit c."""
    if heuristic_nb(s, p):
        return H.combat_nb(s, f, p, c)
    return pick_nb(s, p, s[SC + SC_N_CAND], 1)


@rules_jit
def steal_item_nb(s, f, g, who, victim):
    """Seat `who` (on the victim's right) picks which of the victim's items the robber fly moves: index into CAND."""
    if heuristic_nb(s, who):
        return H.steal_item_nb(s, f, g, who, victim)
    return pick_nb(s, who, s[SC + SC_N_CAND], 0)


@rules_jit
def steal_square_nb(s, f, g, d, who, victim):
    """... and the square it lands on: index into CAND."""
    if heuristic_nb(s, who):
        return H.steal_square_nb(s, f, g, d, who, victim)
    return pick_nb(s, who, s[SC + SC_N_CAND], 0)


@rules_jit
def rust_nb(s, f, who, victim):
    """Seat `who` picks which of the victim's metal items the rust monster eats: index into CAND."""
    if heuristic_nb(s, who):
        return H.rust_nb(s, f, who, victim)
    return pick_nb(s, who, s[SC + SC_N_CAND], 0)


@rules_jit
def respawn_nb(s, f, g, p):
    """The free outside square a dead hero restarts on: index into CAND."""
    if heuristic_nb(s, p):
        return H.respawn_nb(s, f, g, p)
    return pick_nb(s, p, s[SC + SC_N_CAND], 0)


@rules_jit
def drop_nb(s, f, g, p):
    """Index into CAND (-1 for none, then the carried items) of an item to drop at the end of the movement."""
    if heuristic_nb(s, p):
        return H.drop_nb(s, f, g, p)
    return pick_nb(s, p, s[SC + SC_N_CAND], 0)


@rules_jit
def drop_square_nb(s, f, g, p, c):
    """The free adjacent square item c is dropped on: index into CAND."""
    if heuristic_nb(s, p):
        return H.drop_square_nb(s, f, g, p, c)
    return pick_nb(s, p, s[SC + SC_N_CAND], 0)


@rules_jit
def trade_offer_nb(s, f, g, p):
    """A trade to offer: index into the CAND rows (partner, item given, item received), or -1 for none."""
    if kind_of_nb(s, p) == SCRIPTED:
        return scripted_nb(s, -1)
    if heuristic_nb(s, p):
        return H.trade_offer_nb(s, f, g, p)
    return draw_nb(s, p, s[SC + SC_N_CAND] + 1) - 1


@rules_jit
def trade_accept_nb(s, f, q, p, give, take):
    """Does seat q accept hero p's offer (q receives `give` and gives up `take`)?"""
    if kind_of_nb(s, q) == SCRIPTED:
        return scripted_nb(s, 0) == 1
    if heuristic_nb(s, q):
        return H.trade_accept_nb(s, f, q, p, give, take)
    return draw_nb(s, q, 2) == 1
