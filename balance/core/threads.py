"""How the kernels' worker threads wait between two parallel launches, chosen before Numba starts them.

Numba's OpenMP threading layer (GNU libgomp) keeps a finished launch's worker threads spinning, by default for a
few hundred thousand rounds (milliseconds), in case another launch follows at once. A run launches the kernel once
a chunk (about 0.5 s) and then adds the chunk to the tallies on the main thread (and, for long chunks, a second
Python thread): the spinning worker held a core all that while, so the tallies, in which the kernel's threads wait,
took 10.8 ms a 200,000-game Spooky Tower chunk against 6.6 ms with the workers sleeping at once (measured in one
run loop on the shared 2-core machine), and the runner's loop ran 4.8% faster (``benchmarks/ab.py``-style lock step
of two processes, median of 10 pairs; the kernel alone unchanged, 0.996). A sleeping worker is woken in
microseconds, which a launch of a chunk does not notice. libgomp reads ``OMP_WAIT_POLICY`` once, when Numba loads
it at the first parallel launch; a value the user set is kept.
"""
from __future__ import annotations

import os

WAIT_POLICY = "PASSIVE"


def configure() -> None:
    os.environ.setdefault("OMP_WAIT_POLICY", WAIT_POLICY)
