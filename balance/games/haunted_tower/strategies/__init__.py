"""The Haunted Tower's strategies: every choice the rulebook leaves to a player, including the choices a player makes
for a monster attacking the hero on its left (the robber fly's theft, the rust monster's meal).

A strategy is an integer kind (``state[at(KINDS, seat)]``) plus a float parameter vector
(``params[param_at(seat, :)]``); the kernel calls the functions below and they dispatch on the kind. The kernel writes
a decision's candidates into ``CAND`` (``N_CANDIDATES`` of them) and the strategy answers with an index; for a square
to stop on or to place a chit on, it answers with the square and the kernel checks it.

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
from .. import enums
from . import heuristics
from .view import known_content_nb, kth_free_square_nb, room_free_nb, unknown_bits_nb  # noqa: F401
from ..layout import (CAND, CHIT_FACEUP, CHIT_HIDDEN, CHIT_INDEX, CHIT_KIND, CHIT_ON, CHIT_PLACER, CHOICE_SCRIPT,
                      CLIMB_TABLE, G_N, G_R, G_RMAX, HS_HAND_N, HS_KEPT_BLUE, HS_KEPT_PURPLE, HS_SQ, KINDS,
                      MOVEMENT_POINTS, M_CHOICE_I, M_CHOICE_N, N_CANDIDATES, ROOM_BLUE, ROOM_FULL, ROOM_PURPLE, SQ_CHIT,
                      SQ_HERO, at, cost, g_placeable, g_room_elig, g_room_level, g_room_size, g_room_sq, hs_at,
                      placed_at, stream_at)

RANDOM = 0
LOOTER = 1
HUNTER = 2
RUSHER = 3
LOOKAHEAD = 4        # a heuristic whose moves and encounters are searched (rules.lookahead; its own entry points): not
                     # dispatched here
SCRIPTED = 9


@rules_jit
def scripted_nb(state, default):
    """Next scripted decision, or `default` once the script is used up."""
    return next_scripted_nb(state, CHOICE_SCRIPT, M_CHOICE_N, M_CHOICE_I, default)


@rules_jit
def draw_nb(state, p, n):
    """Uniform integer in [0, n) from seat p's own strategy stream."""
    return flat_below_nb(state, stream_at(2 + p), n)


@rules_jit
def kind_of_nb(state, p):
    return state[at(KINDS, p)]


@rules_jit
def heuristic_nb(state, p):
    """Does seat p play one of the heuristics (heuristics.py)?"""
    kind = state[at(KINDS, p)]
    return kind == LOOTER or kind == HUNTER or kind == RUSHER


# --- set-up ---------------------------------------------------------------------------------------------------------

@rules_jit
def uniform_square_nb(state, tables, p, blue, level):
    """A legal square for a chit, uniform over all of them: a room drawn with weight its free squares, then one of
    them (rooms of `level` without a purple chit for a purple chit; any room for a blue one)."""
    total = 0
    for r in range(tables[G_R]):
        if blue or (g_room_level(tables, r) == level and state[at(ROOM_PURPLE, r)] == 0):
            total += room_free_nb(state, tables, r, blue)
    if total == 0:
        return -1
    u = draw_nb(state, p, total)
    for r in range(tables[G_R]):
        if blue or (g_room_level(tables, r) == level and state[at(ROOM_PURPLE, r)] == 0):
            n = room_free_nb(state, tables, r, blue)
            if u < n:
                return kth_free_square_nb(state, tables, r, u)
            u -= n
    return -1


@rules_jit
def place_blue_nb(state, params, tables, costs, p):
    """Which chit of its hand seat p places next, and on which square: (hand index, square)."""
    kind = kind_of_nb(state, p)
    if kind == SCRIPTED:
        k = scripted_nb(state, 0)
        return k, scripted_nb(state, uniform_square_first_nb(state, tables, True, 0))
    if heuristic_nb(state, p):
        return heuristics.place_blue_nb(state, params, tables, costs, p)
    k = draw_nb(state, p, state[hs_at(p, HS_HAND_N)])
    return k, uniform_square_nb(state, tables, p, True, 0)


@rules_jit
def uniform_square_first_nb(state, tables, blue, level):
    """The first legal square in room order (the scripted strategy's default)."""
    for r in range(tables[G_R]):
        if (blue or (g_room_level(tables, r) == level and state[at(ROOM_PURPLE, r)] == 0)) \
                and room_free_nb(state, tables, r, blue):
            return kth_free_square_nb(state, tables, r, 0)
    return -1


@rules_jit
def place_purple_nb(state, params, tables, costs, p, level):
    """The square on `level` where seat p places the purple chit it drew, unseen."""
    if kind_of_nb(state, p) == SCRIPTED:
        return scripted_nb(state, uniform_square_first_nb(state, tables, False, level))
    if heuristic_nb(state, p):
        return heuristics.place_purple_nb(state, params, tables, costs, p, level)
    return uniform_square_nb(state, tables, p, False, level)


# --- a hero's turn ----------------------------------------------------------------------------------------------

@rules_jit
def pick_nb(state, p, n, default):
    """Index into the n candidates: uniform for random, the script for scripted (then `default`)."""
    if kind_of_nb(state, p) == SCRIPTED:
        return scripted_nb(state, default)
    return draw_nb(state, p, n)


@rules_jit
def trade_in_nb(state, params, p):
    """Experience: 0 keep the "-1" chit, 1 pay two blue monster chits, 2 pay one purple monster chit."""
    if kind_of_nb(state, p) == SCRIPTED:
        return scripted_nb(state, enums.TRADE_NONE)
    if heuristic_nb(state, p):
        return heuristics.trade_in_nb(state, params, p)
    two_blue = state[hs_at(p, HS_KEPT_BLUE)] >= 2
    purple = state[hs_at(p, HS_KEPT_PURPLE)] >= 1
    i = draw_nb(state, p, 1 + two_blue + purple)
    if i == 0:
        return enums.TRADE_NONE
    if i == 1 and two_blue:
        return enums.TRADE_TWO_BLUE
    return enums.TRADE_ONE_PURPLE


@rules_jit
def potion_nb(state, params, p):
    """Index into CAND (-1 for none, then the carried potions) of the potion to drink at the start of the turn."""
    if heuristic_nb(state, p):
        return heuristics.potion_nb(state, params, p)
    return pick_nb(state, p, state[N_CANDIDATES], 0)


@rules_jit
def move_ok_view_nb(state, tables, costs, p, q):
    """As the kernel's check: reachable with this turn's points under its climbing table, no chit, no other hero."""
    h = state[at(SQ_HERO, q)]
    return (cost(costs, tables, state[CLIMB_TABLE], state[hs_at(p, HS_SQ)], q) <= state[MOVEMENT_POINTS]
            and state[at(SQ_CHIT, q)] < 0 and (h < 0 or h == p))


@rules_jit
def move_nb(state, params, tables, costs, p):
    """The square hero p stops on (SC_MP movement points under climbing table SC_CLIMB)."""
    if kind_of_nb(state, p) == SCRIPTED:
        return scripted_nb(state, state[hs_at(p, HS_SQ)])
    if heuristic_nb(state, p):
        return heuristics.move_nb(state, params, tables, costs, p)
    n = 0
    for q in range(tables[G_N]):
        n += move_ok_view_nb(state, tables, costs, p, q)
    u = draw_nb(state, p, n)
    for q in range(tables[G_N]):
        if move_ok_view_nb(state, tables, costs, p, q):
            if u == 0:
                return q
            u -= 1
    return -1


@rules_jit
def encounter_nb(state, params, tables, costs, p):
    """Index into CAND of the chit to encounter, or -1 for none (uniform over none and each chit for random)."""
    if kind_of_nb(state, p) == SCRIPTED:
        return scripted_nb(state, -1)
    if heuristic_nb(state, p):
        return heuristics.encounter_nb(state, params, tables, costs, p)
    return draw_nb(state, p, state[N_CANDIDATES] + 1) - 1


@rules_jit
def take_nb(state, params, p, c):
    """Index into CAND (TAKE_LEAVE, TAKE_FREE or a carried chit to give up) for the revealed item c."""
    if heuristic_nb(state, p):
        return heuristics.take_nb(state, params, p, c)
    return pick_nb(state, p, state[N_CANDIDATES], 0)


@rules_jit
def combat_nb(state, params, p, c):
    """Index into the combat options (layout.opt_at rows: run, attacks, potions) against the monster on chit c."""
    if heuristic_nb(state, p):
        return heuristics.combat_nb(state, params, p, c)
    return pick_nb(state, p, state[N_CANDIDATES], 1)


@rules_jit
def steal_item_nb(state, params, tables, who, victim):
    """Seat `who` (on the victim's right) picks which of the victim's items the robber fly moves: index into CAND."""
    if heuristic_nb(state, who):
        return heuristics.steal_item_nb(state, params, tables, who, victim)
    return pick_nb(state, who, state[N_CANDIDATES], 0)


@rules_jit
def steal_square_nb(state, params, tables, costs, who, victim):
    """... and the square it lands on: index into CAND."""
    if heuristic_nb(state, who):
        return heuristics.steal_square_nb(state, params, tables, costs, who, victim)
    return pick_nb(state, who, state[N_CANDIDATES], 0)


@rules_jit
def rust_nb(state, params, who, victim):
    """Seat `who` picks which of the victim's metal items the rust monster eats: index into CAND."""
    if heuristic_nb(state, who):
        return heuristics.rust_nb(state, params, who, victim)
    return pick_nb(state, who, state[N_CANDIDATES], 0)


@rules_jit
def respawn_nb(state, params, tables, p):
    """The free outside square a dead hero restarts on: index into CAND."""
    if heuristic_nb(state, p):
        return heuristics.respawn_nb(state, params, tables, p)
    return pick_nb(state, p, state[N_CANDIDATES], 0)


@rules_jit
def drop_nb(state, params, tables, p):
    """Index into CAND (-1 for none, then the carried items) of an item to drop at the end of the movement."""
    if heuristic_nb(state, p):
        return heuristics.drop_nb(state, params, tables, p)
    return pick_nb(state, p, state[N_CANDIDATES], 0)


@rules_jit
def drop_square_nb(state, params, tables, p, c):
    """The free adjacent square item c is dropped on: index into CAND."""
    if heuristic_nb(state, p):
        return heuristics.drop_square_nb(state, params, tables, p, c)
    return pick_nb(state, p, state[N_CANDIDATES], 0)


@rules_jit
def trade_offer_nb(state, params, tables, p):
    """A trade to offer: index into the CAND rows (partner, item given, item received), or -1 for none."""
    if kind_of_nb(state, p) == SCRIPTED:
        return scripted_nb(state, -1)
    if heuristic_nb(state, p):
        return heuristics.trade_offer_nb(state, params, tables, p)
    return draw_nb(state, p, state[N_CANDIDATES] + 1) - 1


@rules_jit
def trade_accept_nb(state, params, q, p, give, take):
    """Does seat q accept hero p's offer (q receives `give` and gives up `take`)?"""
    if kind_of_nb(state, q) == SCRIPTED:
        return scripted_nb(state, 0) == 1
    if heuristic_nb(state, q):
        return heuristics.trade_accept_nb(state, params, q, p, give, take)
    return draw_nb(state, q, 2) == 1
