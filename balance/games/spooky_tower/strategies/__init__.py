"""Spooky Tower heuristic strategies: every choice the rulebook leaves to a player.

A strategy is an integer kind (``state[at(KINDS, seat)]``) plus a float parameter vector
(``params[param_at(seat, :)]``); the kernel calls the functions below and they dispatch on the kind. Strategies read
only public information from the flat state: card counts per (seat, value) (``HAND_N``), Town stack sizes
(``TOWN_N``), every player's counters (``PL``), the shared scalars (``SC``: clock, Grimoire and Park positions, pets
and fragments left) and the public component tables (bonus effects counted per value in ``BONUS_COUNT``, the dial,
``F_FEAT``: what a card of each value holds on average, and ``F_GHOST``, the ghost value derived from it once per
scenario). They never read which face-down card is which (``HAND``, ``TOWN``, ``CARD_FX``).

Decisions: reroll or not; which (take | flip, value) action; which value a take effect or flip effect targets;
whose pet to steal; whether to go to the Park. The reference engine calls these same jitted functions through a
public-state array it builds, so both engines decide alike; the rules around the decisions are written twice.

Ties go to the first candidate in the order offered (values ascending, takes before flips), so heuristic play is
deterministic; only the random strategy draws, from its seat's own stream.

The decisions the rules call are here; they dispatch on the kind to ``heuristics`` (action scores), ``valuation``
(what a card or a clock step is worth) and ``scripted`` (the rule tests' strategy); ``kinds`` numbers them.
"""
from __future__ import annotations

from ....core.jit import rules_jit, rules_jit_inline
from ....core.rng import flat_below_nb
from .. import enums
from ..layout import CAND, KINDS, at, feat_at, hand_n_at, param_at, pl_at, stream_at
from .heuristics import action_score_nb, best_action_nb
from .kinds import CLOCK_RUSHER, COLLECTOR, GHOST_HUNTER, LOOKAHEAD, RANDOM, SCRIPTED, TARGET_FLIP, TARGET_TAKE
from .scripted import scripted_nb
from .valuation import bonus_count_nb, clock_value_nb, fill_ghost_values_nb, ghost_value_formula_nb, ghost_value_nb

__all__ = [
    "CLOCK_RUSHER", "COLLECTOR", "GHOST_HUNTER", "LOOKAHEAD", "RANDOM", "SCRIPTED", "TARGET_FLIP", "TARGET_TAKE",
    "action_score_nb", "best_action_nb", "bonus_count_nb", "choose_action_nb", "choose_target_nb", "choose_victim_nb",
    "clock_value_nb", "fill_ghost_values_nb", "ghost_value_formula_nb", "ghost_value_nb", "scripted_nb",
    "wants_park_nb", "wants_reroll_nb",
]


@rules_jit_inline
def wants_reroll_nb(state, params, p, n_legal):
    """Spend the available Reroll token on this roll? Every strategy rerolls when nothing is legal.

    The scripted (test) strategy is asked even then, so that tests can decline and reach the ``stuck_with_token``
    rule option; once its script is used up it answers like the others.
    """
    kind = state[at(KINDS, p)]
    if kind == SCRIPTED:
        return scripted_nb(state, 1 if n_legal == 0 else 0) == 1
    if n_legal == 0:
        return True
    if kind == RANDOM:
        return False
    _, score = best_action_nb(state, params, p, n_legal)
    return score < params[param_at(p, 1 if kind == COLLECTOR else 2)]


@rules_jit_inline
def choose_action_nb(state, params, p, n_legal):
    """Index of the legal (action, value) row to play; uniform over distinct rows for the random strategy."""
    if state[at(KINDS, p)] == RANDOM:
        return flat_below_nb(state, stream_at(2 + p), n_legal)
    if state[at(KINDS, p)] == SCRIPTED:
        return scripted_nb(state, 0)
    i, _ = best_action_nb(state, params, p, n_legal)
    return i


@rules_jit
def choose_target_nb(state, params, p, purpose, n_cand):
    """Index into the candidate values of the one a take effect (purpose 0) or flip effect (1) targets."""
    kind = state[at(KINDS, p)]
    if kind == RANDOM:
        return flat_below_nb(state, stream_at(2 + p), n_cand)
    if kind == SCRIPTED:
        return scripted_nb(state, 0)
    best = 0
    best_s = -1e300
    for i in range(n_cand):
        v = state[at(CAND, i)]
        if kind == CLOCK_RUSHER:
            cv = clock_value_nb(state, params[param_at(p, 0)], params[param_at(p, 1)])
            if purpose == TARGET_TAKE:
                sc = bonus_count_nb(state, v, enums.FX_CLOCK) * cv + 0.05 * ghost_value_nb(params, v)
            else:
                sc = params[feat_at(v, enums.FX_CLOCK)] * cv + params[param_at(p, 1)] * ghost_value_nb(params, v)
        else:
            sc = ghost_value_nb(params, v)
            if kind == COLLECTOR and purpose == TARGET_TAKE:
                sc += state[hand_n_at(p, v)]
        if sc > best_s:
            best_s = sc
            best = i
    return best


@rules_jit
def choose_victim_nb(state, params, p, n_cand):
    """Index into the candidate seats (each holding a pet) of the player to steal a Ghost Pet from."""
    kind = state[at(KINDS, p)]
    if kind == RANDOM:
        return flat_below_nb(state, stream_at(2 + p), n_cand)
    if kind == SCRIPTED:
        return scripted_nb(state, 0)
    if kind == GHOST_HUNTER and params[param_at(p, 3)] < 0.5:
        return 0
    best = 0
    best_s = -1
    for i in range(n_cand):
        q = state[at(CAND, i)]
        sc = state[pl_at(q, enums.PL_GHOSTS)] + state[pl_at(q, enums.PL_PETS)]
        if sc > best_s:
            best_s = sc
            best = i
    return best


@rules_jit_inline
def wants_park_nb(state, params, p):
    """Go to the Park with the clues gained this turn? Every shipped strategy goes (a Park card is a ghost)."""
    if state[at(KINDS, p)] == SCRIPTED:
        return scripted_nb(state, 1) == 1
    return True

