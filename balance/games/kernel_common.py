"""Kernel pieces every game shares, written once: the trace buffer and the test scripts.

Each game keeps its own state layout, so these take the offsets of its regions; a game's ``emit_nb`` and
``scripted_nb`` are one-line calls with its layout's constants, which Numba folds in.
"""
from __future__ import annotations

import numpy as np

from .._jit import rules_jit_inline


@rules_jit_inline
def emit_at_nb(s, trace, count_at, kind, player, a, b, c):
    """Record one trace event (5 words) in the region from `trace` when `s` carries one; the count at `count_at`
    goes on past the region's end, so an overflow is visible."""
    if s.shape[0] == trace:
        return
    n = s[count_at]
    i = trace + 5 * n
    if i + 5 <= s.shape[0]:
        s[i] = kind
        s[i + 1] = player
        s[i + 2] = a
        s[i + 3] = b
        s[i + 4] = c
    s[count_at] = n + 1


@rules_jit_inline
def next_scripted_nb(s, script, n_at, i_at, default):
    """The next entry of the script region from `script` (s[n_at] entries, s[i_at] used), or `default` once it is
    used up."""
    i = s[i_at]
    if i < s[n_at]:
        s[i_at] = i + 1
        return s[np.uint64(script + i)]
    return default


def load_script(s: np.ndarray, script: int, n_at: int, i_at: int, values) -> None:
    """Test hook (plain Python): the script region from `script` holds `values`, none of them used yet."""
    values = list(values)
    s[script:script + len(values)] = values
    s[n_at] = len(values)
    s[i_at] = 0
