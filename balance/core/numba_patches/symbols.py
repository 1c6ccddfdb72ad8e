"""Which function Numba is compiling now, and which compiled symbols are rule functions': what the patches in this
package decide by."""
from __future__ import annotations

import os

from numba.core import event as _event
from numba.core.itanium_mangler import mangle_identifier as _mangle

RULES: set[str] = set()
"""Mangled-name prefixes (``_ZN`` and the qualified name) of every rule function (``rules_jit``, flat or not)."""

FLAT: set[str] = set()
"""... of the ``rules_jit_flat`` functions."""


def prefix_of(fn) -> str:
    return "_ZN" + "".join(_mangle(part) for part in f"{fn.__module__}.{fn.__qualname__}".split("."))


def symbol_prefix(name: str) -> str | None:
    """The prefix (``_ZN`` and the qualified name) of a compiled function's symbol: Numba's symbol is the prefix,
    then ``B`` and its ABI tags or ``E`` and the argument types. None for wrappers (``cpython.``, ``cfunc.``)."""
    if not name.startswith("_ZN"):
        return None
    i = 3
    while i < len(name) and name[i].isdigit():  # skip the length-prefixed parts of the qualified name
        j = i
        while name[j].isdigit():
            j += 1
        i = j + int(name[i:j])
    return name[:i]


NOINLINE = tuple(f"{len(n)}{n}" for n in os.environ.get("BALANCE_PROFILE_NOINLINE", "").split(",") if n)
"""Rule functions kept out of line (LLVM's ``noinline``), so that a profile names them: profiling only, set by
``benchmarks/profile.py --noinline`` with a fresh Numba cache (the names as written in Python, comma-separated)."""


def is_noinline(name: str) -> bool:
    """Is `name` the symbol of a rule function named in ``NOINLINE``?"""
    return any(n in name for n in NOINLINE)


def is_flat(name: str) -> bool:
    """Is `name` the symbol of a compiled ``rules_jit_flat`` function?"""
    return symbol_prefix(name) in FLAT


COMPILING: list = []
"""The dispatchers Numba is compiling now, outermost first (from its ``numba:compile`` events)."""


class CompileStack(_event.Listener):
    def on_start(self, event):
        COMPILING.append(event.data.get("dispatcher"))

    def on_end(self, event):
        if COMPILING:
            COMPILING.pop()


def compiling_now() -> str | None:
    """The symbol prefix of the function Numba is compiling now (the innermost), None when there is none."""
    fn = getattr(COMPILING[-1], "py_func", None) if COMPILING else None
    return prefix_of(fn) if fn is not None else None


def defines(own, prefix) -> bool:
    """Do the functions `own` (a library's) include the function of symbol prefix `prefix`?"""
    return any(symbol_prefix(name) == prefix for name in own)


def compiling_a_callee(own) -> bool:
    """Is this library (defining the functions `own`) a rule function's, finished as a callee inside the compile of
    another function? A helper Numba compiles for a rule function (``x ** 2``, ``round``) is finished while that
    rule function compiles, but defines none of it: it is linked in as Numba links it."""
    prefix = compiling_now()
    return len(COMPILING) >= 2 and prefix in RULES and defines(own, prefix)


def compiling_inside(own) -> bool:
    """Is this library (defining the functions `own`) finished inside the compile of a function it does not
    define (a wrapper Numba puts around a parallel loop's body, linked into the parallel driver)?"""
    prefix = compiling_now()
    return prefix is not None and not defines(own, prefix)
