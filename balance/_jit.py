"""How rule kernels are compiled: one place for the Numba options every game's kernel shares.

* ``cache=True``: compiled code is kept between processes (see ``balance/_cache.py`` for where).
* ``error_model="numpy"``: integer division by zero does not raise, so no exception path in hot loops.
* ``_nrt=False``: no Numba runtime in rule code. Rule functions only index arrays they are given and never allocate,
  so they need no reference counting; with the runtime on, every array passed between functions paid an atomic
  increment and decrement (``perf`` put about a third of the kernel's samples there; the kernel ran 1.26x faster
  without). A function that tries to allocate fails to compile, which is the check that this stays true, and
  ``tests/test_kernel_build.py`` names any rule function compiled otherwise. Functions that allocate (the parallel
  driver, trace buffers, the speed floor) use plain ``njit``.

``rules_jit`` is for rule functions; ``rules_jit_inline`` for small ones that Numba should inline into their callers.
"""
from __future__ import annotations

from numba import njit
from numba.core.cpu import CPUTargetOptions

# ``_nrt`` is a private Numba option (present from well before the oldest Numba this package allows to 0.68). Should
# a later release drop it, the kernels still compile, with the runtime, and only lose that speed.
_NO_RUNTIME = {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}

RULES_OPTIONS = dict(cache=True, error_model="numpy", **_NO_RUNTIME)

rules_jit = njit(**RULES_OPTIONS)
rules_jit_inline = njit(inline="always", **RULES_OPTIONS)
