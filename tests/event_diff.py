"""The first difference between a kernel's event list and a reference engine's, in words: shared by the games'
differential tests, each naming events its own way (``describe``)."""
from __future__ import annotations

from typing import Callable

import numpy as np


def first_mismatch(kernel_events: np.ndarray, ref_events: list, describe: Callable, before: int) -> str | None:
    """None when the event lists are identical; else the first differing index, both events by name and the
    `before` events leading to it."""
    k = [tuple(int(x) for x in row) for row in kernel_events]
    for i, (a, b) in enumerate(zip(k, ref_events)):
        if a != tuple(b):
            return (f"first difference at event {i}:\n  kernel    {describe(a)}\n"
                    f"  reference {describe(b)}\n  before: "
                    + "; ".join(describe(e) for e in k[max(0, i - before):i]))
    if len(k) != len(ref_events):
        n = min(len(k), len(ref_events))
        longer, name = (k, "kernel") if len(k) > n else (ref_events, "reference")
        return (f"same first {n} events, then only the {name} goes on: event {n} = "
                f"{describe(longer[n])} (kernel {len(k)} events, reference {len(ref_events)})")
    return None
