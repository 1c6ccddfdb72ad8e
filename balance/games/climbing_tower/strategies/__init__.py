"""Climbing Tower strategies: every choice the rulebook leaves to the players (the turn's action and card, the build
phase's purchases and removals).

A strategy is an integer kind (``state[at(KINDS, seat)]``) plus a float parameter vector
(``params[param_at(seat, :)]``). The
kernel lists a decision's legal rows (in ``CAND``; a turn's redraw and offer rows are implied by the hand, see
``rules.play.turn_row_nb``) and the strategy answers with a row index.

What a strategy may read is decided by the kernel (``fill_view_nb``): public information (the tower, both pawns,
the skeletons standing, the play area's top card, the gold, the supply piles' sizes, the deck's contents, which the
card list and U make public, the partner's hand size) and its own hand; its partner's hand only through
``VIEW_PARTNER``, which the kernel fills only while the players may communicate (both pawns on one floor, or the
``communication`` option). A strategy never reads the other hand directly.

Kinds: ``random`` (uniform over the legal rows, ``docs/strategies.md``), the heuristics ``climber``,
``skeleton_farmer`` and ``deck_thinner``, and ``scripted`` (tests only: row indices from the choice script).

The heuristics (their frame and weights) are in ``heuristics``.
"""
from __future__ import annotations

from ....core.jit import rules_jit_flat
from ....core.rng import flat_below_nb
from ...kernel_common import next_scripted_nb
from .. import enums
from ..layout import (CHOICE_SCRIPT, COMMUNICATION, KINDS, M_CHOICE_I, M_CHOICE_N, PL_FLOOR, PL_HAND_N, VIEW_PARTNER,
                      VIEW_PARTNER_N, VIEW_TALK, at, hand_at, param_at, pl_at, stream_at)
from .heuristics import (P_ARROW, P_KEEP, P_SPARE, P_SWORD, P_TEAM, SPARE_SCALE, heuristic_build_nb,  # noqa: F401
                         heuristic_turn_nb)

RANDOM = 0
CLIMBER = 1
FARMER = 2
THINNER = 3
SCRIPTED = 9


@rules_jit_flat
def fill_view_nb(state, p):
    """What seat p may see of its partner: the partner's hand (as a set of cards) while the players may communicate,
    else nothing."""
    talk = state[COMMUNICATION]
    q = 1 - p
    ok = talk == enums.TALK_ALWAYS or (talk == enums.TALK_SAME_FLOOR
                                        and state[pl_at(p, PL_FLOOR)] == state[pl_at(q, PL_FLOOR)])
    state[VIEW_TALK] = ok
    hand = 0
    if ok:
        n = state[pl_at(q, PL_HAND_N)]
        state[VIEW_PARTNER_N] = n
        for i in range(n):
            hand |= 1 << state[hand_at(q, i)]
    else:
        state[VIEW_PARTNER_N] = -1
    state[VIEW_PARTNER] = hand


@rules_jit_flat
def draw_nb(state, p, n):
    """Uniform integer in [0, n) from seat p's own strategy stream."""
    return flat_below_nb(state, stream_at(1 + p), n)


@rules_jit_flat
def turn_nb(state, params, p, n):
    """Seat p's action: a row of the n legal rows (rules.play.legal_nb's order; rules.play.turn_row_nb reads
    a row)."""
    kind = state[at(KINDS, p)]
    if kind == SCRIPTED:
        return next_scripted_nb(state, CHOICE_SCRIPT, M_CHOICE_N, M_CHOICE_I, 0)
    if kind == RANDOM:
        return draw_nb(state, p, n)
    if n == 1:                  # a heuristic's every answer is the one row
        return 0
    return heuristic_turn_nb(state, params, p, n)


@rules_jit_flat
def sword_nb(state, params, p):
    """Seat p's sword that could defeat a skeleton where p stands: enums.SWORD_DEFEAT (row 0) or SWORD_SPARE (row 1)."""
    kind = state[at(KINDS, p)]
    if kind == SCRIPTED:
        return next_scripted_nb(state, CHOICE_SCRIPT, M_CHOICE_N, M_CHOICE_I, 0)
    if kind == RANDOM:
        return draw_nb(state, p, 2)
    spare = params[param_at(p, P_SPARE)]
    if spare <= 0.0:
        return enums.SWORD_DEFEAT
    if spare >= 1.0:
        return enums.SWORD_SPARE
    return enums.SWORD_SPARE if draw_nb(state, p, SPARE_SCALE) < spare * SPARE_SCALE else enums.SWORD_DEFEAT


@rules_jit_flat
def build_nb(state, params, p, n):
    """The build decision of seat p (the round's start player): a row of the n legal rows
    (rules.build.build_options_nb's order; rules.build.build_row_nb reads a row)."""
    kind = state[at(KINDS, p)]
    if kind == SCRIPTED:
        return next_scripted_nb(state, CHOICE_SCRIPT, M_CHOICE_N, M_CHOICE_I, 0)
    if kind == RANDOM:
        return draw_nb(state, p, n)
    return heuristic_build_nb(state, params, p, n, kind == THINNER)
