"""The scripted strategy of the rule tests: each decision read from the choice script (``rules.script_choices``)."""
from __future__ import annotations

from ....core.jit import rules_jit_inline
from ...kernel_common import next_scripted_nb
from ..layout import CHOICE_SCRIPT, M_CHOICE_I, M_CHOICE_N


@rules_jit_inline
def scripted_nb(state, default):
    """Next scripted decision, or `default` once the script is used up."""
    return next_scripted_nb(state, CHOICE_SCRIPT, M_CHOICE_N, M_CHOICE_I, default)

