"""Spooky Tower heuristic strategies: every choice the rulebook leaves to a player.

A strategy is an integer kind (``s[KINDS + seat]``) plus a float parameter vector (``f[param_at(seat, :)]``); the
kernel calls the functions below and they dispatch on the kind. Strategies read only public information from the
flat state: card counts per (seat, value) (``HAND_N``), Town stack sizes (``TOWN_N``), every player's counters
(``PL``), the shared scalars (``SC``: clock, Grimoire and Park positions, pets and fragments left) and the public
component tables (bonus effects counted per value in ``BONUS_COUNT``, the dial, ``F_FEAT``: what a card of each value
holds on average, and ``F_GHOST``, the ghost value derived from it once per scenario). They never read which
face-down card is which (``HAND``, ``TOWN``, ``CARD_FX``).

Decisions: reroll or not; which (take | flip, value) action; which value a take effect or flip effect targets;
whose pet to steal; whether to go to the Park. The reference engine calls these same jitted functions through a
public-state array it builds, so both engines decide alike; the rules around the decisions are written twice.

Ties go to the first candidate in the order offered (values ascending, takes before flips), so heuristic play is
deterministic; only the random strategy draws, from its seat's own stream.
"""
from __future__ import annotations

from ...core.jit import rules_jit, rules_jit_inline
from ..kernel_common import next_scripted_nb
from ...core.rng import flat_below_nb
from . import enums as E
from .layout import (BONUS_COUNT, CAND, CHOICE_SCRIPT, DIAL, F_GHOST, KINDS, M_CHOICE_I, M_CHOICE_N,
                     SC, TOWN_N, at, feat_at, hand_n_at, legal_at, param_at, pl_at, stream_at)

RANDOM = 0
GHOST_HUNTER = 1
COLLECTOR = 2
CLOCK_RUSHER = 3
SCRIPTED = 9         # tests only: decisions read from the choice script (then: reroll only when stuck, index 0, Park yes)

TARGET_TAKE = 0
TARGET_FLIP = 1


@rules_jit_inline
def scripted_nb(s, default):
    """Next scripted decision, or `default` once the script is used up."""
    return next_scripted_nb(s, CHOICE_SCRIPT, M_CHOICE_N, M_CHOICE_I, default)


@rules_jit_inline
def ghost_value_nb(f, v):
    """Expected ghosts (pets included) from flipping one card of value v, plus 0.3 for each effect leading on
    (a function of the public card list only, so it is computed once per scenario: ``fill_ghost_values_nb``)."""
    return f[at(F_GHOST, v)]


@rules_jit
def ghost_value_formula_nb(f, v):
    """See ghost_value_nb."""
    return (f[feat_at(v, E.FX_GHOST)] + f[feat_at(v, E.FX_PET)]
            + 0.3 * (f[feat_at(v, E.FX_CLUE)] + f[feat_at(v, E.FX_GRIMOIRE)] + f[feat_at(v, E.FX_TAKE_8MINUS)]
                     + f[feat_at(v, E.FX_TAKE_ANY)] + f[feat_at(v, E.FX_FLIP_8MINUS)]
                     + f[feat_at(v, E.FX_FLIP_9PLUS)] + f[feat_at(v, E.FX_EXTRA_TURN)]))


@rules_jit
def fill_ghost_values_nb(f):
    """Fill the ghost-value table at ``F_GHOST`` from the public card statistics at ``F_FEAT``."""
    for v in range(E.N_VALUES):
        f[at(F_GHOST, v)] = ghost_value_formula_nb(f, v)


@rules_jit
def clock_value_nb(s, fragment_weight, ghost_weight):
    """Worth of one clock step now: what the next dial step gives."""
    nxt = s[at(DIAL, s[SC + E.SC_CLOCK])]    # the hand is at 0..n_dial-1; the next step's effect is at that index
    if nxt == E.FX_FRAGMENT:
        return fragment_weight
    if nxt == E.FX_PET or nxt == E.FX_GHOST:
        return ghost_weight
    return 0.1


@rules_jit_inline
def bonus_count_nb(s, v, fx):
    """How many times effect fx is among value v's Building-side bonuses (tabled by compile_rules)."""
    return s[at(BONUS_COUNT, v * E.N_EFFECTS + fx)]


@rules_jit_inline
def action_score_nb(s, f, p, act, v):
    """Heuristic worth of one legal action (take or flip value v) for seat p's strategy."""
    kind = s[at(KINDS, p)]
    held = s[hand_n_at(p, v)]
    if kind == GHOST_HUNTER:   # params: flip_min_ev, take_weight, reroll_below, steal_leader
        if act == E.ACT_FLIP:
            ev = held * ghost_value_nb(f, v)
            return ev if ev >= f[param_at(p, 0)] else ev - 1.0
        return f[param_at(p, 1)] * ghost_value_nb(f, v)
    if kind == COLLECTOR:      # params: stack_target, reroll_below
        if act == E.ACT_FLIP:
            ready = held >= f[param_at(p, 0)] or s[at(TOWN_N, v)] == 0
            return (10.0 if ready else -1.0) + held * ghost_value_nb(f, v)
        return 1.0 + held + ghost_value_nb(f, v)
    # CLOCK_RUSHER; params: fragment_weight, ghost_weight, reroll_below
    fw = f[param_at(p, 0)]
    gw = f[param_at(p, 1)]
    cv = clock_value_nb(s, fw, gw)
    if act == E.ACT_FLIP:
        return held * (f[feat_at(v, E.FX_CLOCK)] * cv + f[feat_at(v, E.FX_FRAGMENT)] * fw + gw * ghost_value_nb(f, v))
    return (bonus_count_nb(s, v, E.FX_CLOCK) * cv
            + 0.2 * bonus_count_nb(s, v, E.FX_REROLL) * (1 - s[pl_at(p, E.PL_TOKEN)])
            + 0.1 * f[feat_at(v, E.FX_CLOCK)] * cv + 0.05 * gw * ghost_value_nb(f, v))


@rules_jit
def best_action_nb(s, f, p, n_legal):
    """Index and score of the best-scoring legal action (the first wins ties)."""
    best = 0
    best_s = -1e300
    for i in range(n_legal):
        sc = action_score_nb(s, f, p, s[legal_at(i, 0)], s[legal_at(i, 1)])
        if sc > best_s:
            best_s = sc
            best = i
    return best, best_s


@rules_jit_inline
def wants_reroll_nb(s, f, p, n_legal):
    """Spend the available Reroll token on this roll? Every strategy rerolls when nothing is legal.

    The scripted (test) strategy is asked even then, so that tests can decline and reach the ``stuck_with_token``
    rule option; once its script is used up it answers like the others.
    """
    kind = s[at(KINDS, p)]
    if kind == SCRIPTED:
        return scripted_nb(s, 1 if n_legal == 0 else 0) == 1
    if n_legal == 0:
        return True
    if kind == RANDOM:
        return False
    _, score = best_action_nb(s, f, p, n_legal)
    return score < f[param_at(p, 1 if kind == COLLECTOR else 2)]


@rules_jit_inline
def choose_action_nb(s, f, p, n_legal):
    """Index of the legal (action, value) row to play; uniform over distinct rows for the random strategy."""
    if s[at(KINDS, p)] == RANDOM:
        return flat_below_nb(s, stream_at(2 + p), n_legal)
    if s[at(KINDS, p)] == SCRIPTED:
        return scripted_nb(s, 0)
    i, _ = best_action_nb(s, f, p, n_legal)
    return i


@rules_jit
def choose_target_nb(s, f, p, purpose, n_cand):
    """Index into the candidate values of the one a take effect (purpose 0) or flip effect (1) targets."""
    kind = s[at(KINDS, p)]
    if kind == RANDOM:
        return flat_below_nb(s, stream_at(2 + p), n_cand)
    if kind == SCRIPTED:
        return scripted_nb(s, 0)
    best = 0
    best_s = -1e300
    for i in range(n_cand):
        v = s[at(CAND, i)]
        if kind == CLOCK_RUSHER:
            cv = clock_value_nb(s, f[param_at(p, 0)], f[param_at(p, 1)])
            if purpose == TARGET_TAKE:
                sc = bonus_count_nb(s, v, E.FX_CLOCK) * cv + 0.05 * ghost_value_nb(f, v)
            else:
                sc = f[feat_at(v, E.FX_CLOCK)] * cv + f[param_at(p, 1)] * ghost_value_nb(f, v)
        else:
            sc = ghost_value_nb(f, v)
            if kind == COLLECTOR and purpose == TARGET_TAKE:
                sc += s[hand_n_at(p, v)]
        if sc > best_s:
            best_s = sc
            best = i
    return best


@rules_jit
def choose_victim_nb(s, f, p, n_cand):
    """Index into the candidate seats (each holding a pet) of the player to steal a Ghost Pet from."""
    kind = s[at(KINDS, p)]
    if kind == RANDOM:
        return flat_below_nb(s, stream_at(2 + p), n_cand)
    if kind == SCRIPTED:
        return scripted_nb(s, 0)
    if kind == GHOST_HUNTER and f[param_at(p, 3)] < 0.5:
        return 0
    best = 0
    best_s = -1
    for i in range(n_cand):
        q = s[at(CAND, i)]
        sc = s[pl_at(q, E.PL_GHOSTS)] + s[pl_at(q, E.PL_PETS)]
        if sc > best_s:
            best_s = sc
            best = i
    return best


@rules_jit_inline
def wants_park_nb(s, f, p):
    """Go to the Park with the clues gained this turn? Every shipped strategy goes (a Park card is a ghost)."""
    if s[at(KINDS, p)] == SCRIPTED:
        return scripted_nb(s, 1) == 1
    return True
