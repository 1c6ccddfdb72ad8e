"""The heuristic strategies' score of a legal (take | flip, value) action, and the best of them."""
from __future__ import annotations

from ....core.jit import rules_jit, rules_jit_inline
from .. import enums as E
from ..layout import KINDS, TOWN_N, at, feat_at, hand_n_at, legal_at, param_at, pl_at
from .kinds import COLLECTOR, GHOST_HUNTER
from .valuation import bonus_count_nb, clock_value_nb, ghost_value_nb


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

