"""How rule kernels are compiled: one place for the Numba options every game's kernel shares.

* ``cache=True``: compiled code is kept between processes (see ``balance/_cache.py`` for where).
* ``error_model="numpy"``: integer division by zero does not raise, so no exception path in hot loops.
* ``_nrt=False``: no Numba runtime in rule code. Rule functions only index arrays they are given and never allocate,
  so they need no reference counting; with the runtime on, every array passed between functions paid an atomic
  increment and decrement (``perf`` put about a third of the kernel's samples there; the kernel ran 1.26x faster
  without). A function that tries to allocate fails to compile, which is the check that this stays true, and
  ``tests/test_kernel_build.py`` names any rule function compiled otherwise. Functions that allocate (the parallel
  driver, trace buffers, the speed floor) use plain ``njit``.

``rules_jit`` is for rule functions; ``rules_jit_inline`` for small ones that Numba should inline into their callers
at its own IR level (each call site is typed again, which costs compile time); ``rules_jit_flat`` for rule functions
typed once, on their own, that LLVM must inline into every caller (the ``alwaysinline`` attribute). A kernel written
in ``rules_jit_flat`` becomes one flat function per entry point: Numba's calling convention (a status word, results
through pointers) leaves the turn loop and LLVM optimises across what were calls. Inlined at every level, each caller
would optimise all it inlined again, so a flat function that Numba finishes *while compiling another* (a callee,
typed as its caller is) gets only LLVM's cheap module passes, the inlining; the entry point runs the full
optimisation once, over the whole flat kernel. A flat function called straight from Python after that (tests do)
runs the lightly optimised code; runs go through the entry point.

Measured on Climbing Tower, cold compile and games per CPU-second on one thread (2-core machine, one session):
plain calls 21 s and about 156,000; flat with full passes at every level 29.6 s and 196,600; flat as above 22.1 s and
189,000 to 200,000. Spooky Tower flat compiled in 25 s instead of 34 s but ran 6.5% slower, and The Haunted Tower
flat compiled 17 s longer for no speed, so both keep ``rules_jit`` and ``rules_jit_inline``.

``rules_jit`` and ``rules_jit_flat`` functions compile once per argument types: a caller passing a constant does not
get a specialisation of its own (``_one_specialisation``; The Haunted Tower's cold compile fell from 71 s to 55 s).

These hooks use private Numba (``CPUCodeLibrary``, a dispatcher's ``get_call_template``); should they move, flat
functions are ordinary calls, constants get their own specialisations again, and the games play the same.
"""
from __future__ import annotations

from numba import njit
from numba.core.cpu import CPUTargetOptions

try:                                            # private Numba; should it move, flat functions are plain calls
    from numba.core import codegen as _codegen
    from numba.core import event as _event
    from numba.core.itanium_mangler import mangle_identifier as _mangle
except ImportError:                             # pragma: no cover
    _codegen = None

# ``_nrt`` is a private Numba option (present from well before the oldest Numba this package allows to 0.68). Should
# a later release drop it, the kernels still compile, with the runtime, and only lose that speed.
_NO_RUNTIME = {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}

RULES_OPTIONS = dict(cache=True, error_model="numpy", **_NO_RUNTIME)


def _one_specialisation(dispatcher):
    """Type calls from compiled code with plain argument types: Numba would otherwise compile a callee once more
    for every constant a caller passes it (``Literal[int](3)``), each specialisation typed, lowered and optimised
    afresh. LLVM still folds the constants once the callee is inlined."""
    from numba.core import types
    get = getattr(dispatcher, "get_call_template", None)
    if get is None:                             # NUMBA_DISABLE_JIT: a plain Python function
        return dispatcher

    def get_call_template(args, kws):
        return get(tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def rules_jit(fn):
    """A rule function (module docstring)."""
    return _one_specialisation(njit(**RULES_OPTIONS)(fn))


rules_jit_inline = njit(inline="always", **RULES_OPTIONS)


_FLAT: set[str] = set()
"""Mangled-name prefixes (``_ZN`` and the qualified name) of the ``rules_jit_flat`` functions."""


def _flat_prefix(fn) -> str:
    return "_ZN" + "".join(_mangle(part) for part in f"{fn.__module__}.{fn.__qualname__}".split("."))


def _is_flat(name: str) -> bool:
    """Is `name` the symbol of a compiled ``rules_jit_flat`` function? Numba's symbol is the prefix, then ``B`` and
    its ABI tags or ``E`` and the argument types."""
    if not name.startswith("_ZN"):              # wrappers (``cpython.``, ``cfunc.``) stay ordinary functions
        return False
    i = 3
    while i < len(name) and name[i].isdigit():  # skip the length-prefixed parts of the qualified name
        j = i
        while name[j].isdigit():
            j += 1
        i = j + int(name[i:j])
    return name[:i] in _FLAT


def _install_always_inline() -> bool:
    """Mark ``rules_jit_flat`` functions ``alwaysinline`` as each is handed to LLVM (once per process)."""
    library = getattr(_codegen, "CPUCodeLibrary", None)
    original = getattr(library, "add_ir_module", None)
    if original is None or getattr(original, "_balance_flat", False):
        return original is not None

    def add_ir_module(self, ir_module):
        if _FLAT:
            for fn in ir_module.functions:
                if not fn.is_declaration and _is_flat(fn.name):
                    fn.attributes.add("alwaysinline")
        return original(self, ir_module)

    add_ir_module._balance_flat = True
    library.add_ir_module = add_ir_module
    return True


_COMPILING: list = []
"""The dispatchers Numba is compiling now, outermost first (from its ``numba:compile`` events)."""


class _CompileStack(_event.Listener if _codegen is not None else object):
    def on_start(self, event):
        _COMPILING.append(event.data.get("dispatcher"))

    def on_end(self, event):
        if _COMPILING:
            _COMPILING.pop()


def _nested_flat() -> bool:
    """Is a ``rules_jit_flat`` function being finished as a callee, inside the compile of another function?"""
    if len(_COMPILING) < 2:
        return False
    inner = getattr(_COMPILING[-1], "py_func", None)
    return inner is not None and _flat_prefix(inner) in _FLAT


def _install_nested_cheap() -> bool:
    """Callees finished inside one of our compiles get LLVM's cheap module passes only (module docstring)."""
    library = getattr(_codegen, "CPUCodeLibrary", None)
    original = getattr(library, "_optimize_final_module", None)
    if original is None or getattr(original, "_balance_flat", False):
        return original is not None

    def _optimize_final_module(self):
        if not _nested_flat():
            return original(self)
        codegen = self._codegen
        mpm, mpb = codegen._module_pass_manager(loop_vectorize=codegen._loopvect, slp_vectorize=False,
                                                opt=codegen._opt_level, cost="cheap")
        mpm.run(self._final_module, mpb)

    _optimize_final_module._balance_flat = True
    library._optimize_final_module = _optimize_final_module
    _event.register("numba:compile", _CompileStack())
    return True


_FLAT_READY = _codegen is not None and _install_always_inline()
if _FLAT_READY:
    try:
        _install_nested_cheap()
    except Exception:                           # pragma: no cover - a Numba without these hooks: full passes
        pass


def rules_jit_flat(fn=None, *, cache: bool = True):
    """A rule function compiled once on its own and inlined by LLVM into every caller (module docstring).
    ``cache=False`` is for tests that must watch a compile happen."""
    if fn is None:
        return lambda f: rules_jit_flat(f, cache=cache)
    if _FLAT_READY:
        _FLAT.add(_flat_prefix(fn))
    return _one_specialisation(njit(**{**RULES_OPTIONS, "cache": cache})(fn))
