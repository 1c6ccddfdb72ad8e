"""What a card or a clock step is worth: functions of the public card list (``F_FEAT``, ``BONUS_COUNT``, the dial)
and the clock, shared by the heuristics."""
from __future__ import annotations

from ....core.jit import rules_jit, rules_jit_inline
from .. import enums
from ..layout import BONUS_COUNT, CLOCK, DIAL, F_GHOST, at, feat_at


@rules_jit_inline
def ghost_value_nb(params, v):
    """Expected ghosts (pets included) from flipping one card of value v, plus 0.3 for each effect leading on
    (a function of the public card list only, so it is computed once per scenario: ``fill_ghost_values_nb``)."""
    return params[at(F_GHOST, v)]


@rules_jit
def ghost_value_formula_nb(params, v):
    """See ghost_value_nb."""
    return (params[feat_at(v, enums.FX_GHOST)] + params[feat_at(v, enums.FX_PET)]
            + 0.3 * (params[feat_at(v, enums.FX_CLUE)] + params[feat_at(v, enums.FX_GRIMOIRE)]
                     + params[feat_at(v, enums.FX_TAKE_8MINUS)] + params[feat_at(v, enums.FX_TAKE_ANY)]
                     + params[feat_at(v, enums.FX_FLIP_8MINUS)] + params[feat_at(v, enums.FX_FLIP_9PLUS)]
                     + params[feat_at(v, enums.FX_EXTRA_TURN)]))


@rules_jit
def fill_ghost_values_nb(params):
    """Fill the ghost-value table at ``F_GHOST`` from the public card statistics at ``F_FEAT``."""
    for v in range(enums.N_VALUES):
        params[at(F_GHOST, v)] = ghost_value_formula_nb(params, v)


@rules_jit
def clock_value_nb(state, fragment_weight, ghost_weight):
    """Worth of one clock step now: what the next dial step gives."""
    nxt = state[at(DIAL, state[CLOCK])]    # the hand is at 0..n_dial-1; the next step's effect is at that index
    if nxt == enums.FX_FRAGMENT:
        return fragment_weight
    if nxt == enums.FX_PET or nxt == enums.FX_GHOST:
        return ghost_weight
    return 0.1


@rules_jit_inline
def bonus_count_nb(state, v, fx):
    """How many times effect fx is among value v's Building-side bonuses (tabled by compile_rules)."""
    return state[at(BONUS_COUNT, v * enums.N_EFFECTS + fx)]

