"""What a card or a clock step is worth: functions of the public card list (``F_FEAT``, ``BONUS_COUNT``, the dial)
and the clock, shared by the heuristics."""
from __future__ import annotations

from ....core.jit import rules_jit, rules_jit_inline
from .. import enums as E
from ..layout import BONUS_COUNT, DIAL, F_GHOST, SC, at, feat_at


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

