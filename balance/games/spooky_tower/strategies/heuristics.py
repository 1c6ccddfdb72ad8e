"""The heuristic strategies' score of a legal (take | flip, value) action, and the best of them."""
from __future__ import annotations

from ....core.jit import rules_jit, rules_jit_inline
from .. import enums
from ..layout import KINDS, TOWN_N, at, feat_at, hand_n_at, legal_at, param_at, pl_at
from .kinds import COLLECTOR, GHOST_HUNTER
from .valuation import bonus_count_nb, clock_value_nb, ghost_value_nb


@rules_jit_inline
def action_score_nb(state, params, p, act, v):
    """Heuristic worth of one legal action (take or flip value v) for seat p's strategy."""
    kind = state[at(KINDS, p)]
    held = state[hand_n_at(p, v)]
    if kind == GHOST_HUNTER:   # params: flip_min_ev, take_weight, reroll_below, steal_leader
        if act == enums.ACT_FLIP:
            ev = held * ghost_value_nb(params, v)
            return ev if ev >= params[param_at(p, 0)] else ev - 1.0
        return params[param_at(p, 1)] * ghost_value_nb(params, v)
    if kind == COLLECTOR:      # params: stack_target, reroll_below
        if act == enums.ACT_FLIP:
            ready = held >= params[param_at(p, 0)] or state[at(TOWN_N, v)] == 0
            return (10.0 if ready else -1.0) + held * ghost_value_nb(params, v)
        return 1.0 + held + ghost_value_nb(params, v)
    # CLOCK_RUSHER; params: fragment_weight, ghost_weight, reroll_below
    fw = params[param_at(p, 0)]
    gw = params[param_at(p, 1)]
    cv = clock_value_nb(state, fw, gw)
    if act == enums.ACT_FLIP:
        return held * (params[feat_at(v, enums.FX_CLOCK)] * cv + params[feat_at(v, enums.FX_FRAGMENT)] * fw
                       + gw * ghost_value_nb(params, v))
    return (bonus_count_nb(state, v, enums.FX_CLOCK) * cv
            + 0.2 * bonus_count_nb(state, v, enums.FX_REROLL) * (1 - state[pl_at(p, enums.PL_TOKEN)])
            + 0.1 * params[feat_at(v, enums.FX_CLOCK)] * cv + 0.05 * gw * ghost_value_nb(params, v))


@rules_jit
def best_action_nb(state, params, p, n_legal):
    """Index and score of the best-scoring legal action (the first wins ties)."""
    best = 0
    best_s = -1e300
    for i in range(n_legal):
        sc = action_score_nb(state, params, p, state[legal_at(i, 0)], state[legal_at(i, 1)])
        if sc > best_s:
            best_s = sc
            best = i
    return best, best_s

