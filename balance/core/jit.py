"""How rule kernels are compiled: the decorators every game's rule code uses, and the Numba options they share.

* ``cache=True``: compiled code is kept between processes (see ``balance/core/cache.py`` for where).
* ``error_model="numpy"``: integer division by zero does not raise, so no exception path in hot loops.
* ``_nrt=False``: no Numba runtime in rule code. Rule functions only index arrays they are given and never allocate,
  so they need no reference counting; with the runtime on, every array passed between functions paid an atomic
  increment and decrement (about a third of the kernel's time, by ``perf``; the kernel ran 1.26x faster without).
  A function that tries to allocate fails to compile, which is the check that this stays true, and
  ``tests/core/test_kernel_build.py`` names any rule function compiled otherwise. Functions that allocate (the parallel
  driver, trace buffers, the speed floor) use plain ``njit``.
* ``no_cfunc_wrapper``: Numba builds, besides a function's own code and the wrapper Python calls it through, a third
  wrapper for taking its address as a C function pointer (``cfunc``, first-class function values); rule code never
  does.

Both private options are used where this Numba has them; without them the kernels compile as before, only slower
(``_nrt``) or with a wrapper more (``no_cfunc_wrapper``).

The decorators:

* ``rules_jit``: a rule function.
* ``rules_jit_inline``: the same; the name says that a small function is meant to disappear into its callers, which
  LLVM, seeing the whole kernel at once, does for small private functions.
* ``rules_jit_flat``: a rule function that LLVM inlines into every caller (``alwaysinline``): Climbing Tower's kernel
  is one flat function per entry point, with no Numba calling convention (a status word, results through pointers)
  left in the turn loop (1.26x faster).

Numba's own compile of such a kernel is slow: :mod:`balance.core.numba_patches` patches Numba's internals to compile it
faster (``BALANCE_NUMBA_PATCHES=0`` turns them off; the games play the same either way), and is applied here, before
the first rule function is defined. ``rules_jit_flat``'s ``alwaysinline`` is one of those patches.
"""
from __future__ import annotations

from numba import njit
from numba.core.cpu import CPUTargetOptions

from . import numba_patches as _numba_patches

_NO_RUNTIME = {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}
_NO_CFUNC = {"no_cfunc_wrapper": True} if hasattr(CPUTargetOptions, "no_cfunc_wrapper") else {}

_numba_patches.apply()

RULES_OPTIONS = dict(cache=True, error_model="numpy", **_NO_RUNTIME, **_NO_CFUNC, **_numba_patches.rules_options())


def rules_jit(fn):
    """A rule function (module docstring)."""
    return _numba_patches.rule_function(njit(**RULES_OPTIONS)(fn), fn)


rules_jit_inline = rules_jit
"""A small rule function meant to disappear into its callers: LLVM inlines it (module docstring)."""


def rules_jit_flat(fn=None, *, cache: bool = True):
    """A rule function compiled once on its own and inlined by LLVM into every caller (module docstring).
    ``cache=False`` is for tests that must watch a compile happen."""
    if fn is None:
        return lambda f: rules_jit_flat(f, cache=cache)
    return _numba_patches.rule_function(njit(**{**RULES_OPTIONS, "cache": cache})(fn), fn, flat=True)
