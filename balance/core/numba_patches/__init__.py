"""Patches to Numba's internals that make a kernel's first compile faster (and the kernel too). The games play the
same with or without them (``tests/core/test_numba_patches.py`` compares every output of every shipped scenario).

The gain, measured by ``benchmarks/compile_patches.py``: each game's kernel compiled into an empty cache in a new
process, as a first ``balance run`` compiles it, with and without the patches in alternating order, three rounds
(Numba 0.68.1, a shared 2-core x86_64 machine at a load average of 4 to 6). CPU seconds of the compile, median of
the rounds and their range:

=================  ===================  =====================  ==================
game               with the patches     without                without / with
=================  ===================  =====================  ==================
Spooky Tower        9.8 s (9.7-10.0)    41.8 s (40.8-44.8)     4.25 (4.21-4.47)
The Haunted Tower  29.1 s (28.6-32.5)   99.9 s (99.7-125.7)    3.49 (3.44-3.87)
Climbing Tower     15.1 s (15.0-19.2)   48.6 s (45.0-63.1)     3.22 (2.99-3.28)
=================  ===================  =====================  ==================

Wall seconds swung with the machine's load, the ratios with them (2.85-4.32, 3.20-5.41, 2.75-3.92). The kernels
also run faster with them (games per CPU second on one thread, best of three, two rounds on the same machine):
Spooky Tower 1.34 and 1.57 times, The Haunted Tower 1.50 and 1.60, Climbing Tower 1.23 and 1.29; Numba's own
build leaves calls between separately optimised modules in the turn loop.

Numba compiles every jitted function into an LLVM module of its own and, when it is finished, links in the modules
of the functions it calls, optimises the whole and emits machine code for it. A kernel is a deep call tree of rule
functions, so each level optimised and emitted everything below it again; and Numba types, lowers and wraps each
function for uses rule code never has. The patches, each with what it replaces and why:

* **One optimisation per kernel** (:mod:`.link_once`; ``CPUCodeLibrary.finalize``, ``_optimize_final_module``,
  ``_finalize_final_module``, ``JITCPUCodegen.set_env``, ``JITCodeLibrary.get_pointer_to_function``,
  ``Cache.save_overload``): a rule function compiled for a caller keeps its own code only, gets LLVM's cheapest
  pipeline and no machine code; the entry point (a parallel driver, a trace driver, a function called from Python)
  links in the whole tree once, as private copies, and optimises and emits it once. The glue Numba puts around a
  parallel loop (two wrappers and the driver) links the optimised kernel without optimising it again.
* **Python's wrapper on demand** (:func:`.dispatch.python_wrapper_on_demand`; a rule function's dispatcher):
  Numba builds for every function a wrapper that unboxes Python arguments; a rule function compiled for a caller
  gets none, and is compiled again, whole, if Python calls it.
* **One specialisation per argument types** (:func:`.dispatch.one_specialisation`; a rule function's dispatcher):
  Numba compiles a callee once more for every constant a caller passes it (``Literal[int](3)``) and every signed
  integer width; here a constant is typed as its type and a narrower signed integer is widened to int64 at the call
  (as Numba's integer arithmetic widens it anyway). LLVM still folds the constants once the callee is inlined.
* **Function passes over bodies only** (:func:`.link_once.install_function_passes`;
  ``CPUCodeLibrary._optimize_functions``): Numba made a pass builder for every function of a module, declarations
  included (more than nine in ten of them); the functions with a body get exactly Numba's passes.
* **``alwaysinline`` for ``rules_jit_flat``** (:func:`.link_once.install_always_inline`;
  ``CPUCodeLibrary.add_ir_module``): Climbing Tower's rule functions are inlined by LLVM into every caller, so each
  entry point is one flat function with no Numba calling convention left in the turn loop (a faster kernel, not a
  faster compile; ``BALANCE_PROFILE_NOINLINE`` uses the same hook to keep named functions out of line for a
  profile).
* **Builtin typings answered once** (:func:`.memos.install_typing_memo`; ``BaseFunction.get_call_type``): Numba
  types every operator and builtin call by trying its templates in turn, again at every call site (thousands of
  questions a kernel, a few hundred distinct). The answer is kept per function type, typing context, argument and
  keyword types and the compile's flags; a question that fails is asked again each time.
* **ABI sizes asked of LLVM once** (:func:`.memos.install_abi_memo`; ``BaseContext.get_abi_sizeof`` and
  ``get_abi_alignment``): Numba parses a module holding a global of the type at every ask. Kept per target data
  layout and type text; a type naming an identified struct (whose text does not give its layout) is asked each time.
* **The rules' pipeline** (:func:`.pipeline.rules_pipeline`, given to ``njit`` as ``pipeline_class``): Numba's
  nopython pipeline less the rewrites after type inference (array expressions, which allocate, so rule code compiled
  without Numba's runtime has none; string-literal indices) and, unless the function makes a closure, the closure
  inliner; each re-derived the IR's variable lifetimes twice whether or not it changed anything.

They are applied by :func:`apply` (from :mod:`balance.core.jit`, before any rule function exists), and only

* on the Numba versions they were verified on (:data:`VERIFIED`, the versions ``pyproject.toml`` allows): another
  Numba compiles every function as Numba does, with a one-line warning, since a name the patches replace may keep
  its name and change its meaning;
* unless ``BALANCE_NUMBA_PATCHES=0``; ``BALANCE_NUMBA_PATCHES=1`` applies them on any Numba, to test a new one
  (``docs/numba.md``).

Each also checks that the names it replaces exist, and is left out where one does not.
"""
from __future__ import annotations

import os
import re
import sys

ENV = "BALANCE_NUMBA_PATCHES"
VERIFIED = ("0.68.1", "0.69")
"""The Numba versions the patches were verified on: from the first, up to but not including the second (the same
bounds as ``pyproject.toml``'s)."""

OFF = ("0", "false", "no", "off")
ON = ("1", "true", "yes", "on")

ACTIVE = False
"""Whether the patches are applied in this process (set by :func:`apply`)."""

_DECIDED = False
_OPTIONS: dict = {}

INSTALLED: dict[str, bool] = {}
"""Each patch of Numba's classes: whether it is in place (set by :func:`apply`)."""


def requested(warn: bool = False) -> bool | None:
    """What ``BALANCE_NUMBA_PATCHES`` asks for: False (off), True (on, on any Numba), None (unset: on where
    verified). Another value counts as unset; with `warn`, one line on standard error says so."""
    value = os.environ.get(ENV, "").strip().lower()
    if value in OFF:
        return False
    if value in ON:
        return True
    if value and warn:
        print(f"balance: {ENV}={os.environ[ENV]!r} is not one of 0 (off) or 1 (on); using the default (on for "
              f"Numba {VERIFIED[0]} to below {VERIFIED[1]})", file=sys.stderr)
    return None


def _release(version: str) -> tuple[int, ...] | None:
    """(major, minor, micro) of a release version string; None for a pre-release, a development build or another
    shape (not verified, whatever its number)."""
    match = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)(\+.*)?", version)
    return tuple(int(x) for x in match.groups()[:3]) if match else None


def verified(version: str) -> bool:
    """Is Numba `version` one the patches were verified on (:data:`VERIFIED`)?"""
    release = _release(version)
    low, high = (tuple(int(x) for x in v.split(".")) for v in VERIFIED)
    return release is not None and low <= release < high + (0,) * (3 - len(high))


def apply() -> bool:
    """Apply the patches, once per process, where :func:`requested` and the Numba version allow (package
    docstring); returns :data:`ACTIVE`."""
    global ACTIVE, _DECIDED
    if _DECIDED:
        return ACTIVE
    _DECIDED = True
    import numba
    asked = requested(warn=True)
    if asked is None and not verified(numba.__version__):
        print(f"balance: Numba {numba.__version__} is outside the versions its compile patches were verified on "
              f"({VERIFIED[0]} to below {VERIFIED[1]}): compiling without them (the same games, compiled "
              f"and played slower; {ENV}=1 applies them)", file=sys.stderr)
        return ACTIVE
    if asked is False:
        return ACTIVE
    try:
        from . import link_once, memos, pipeline
    except ImportError as err:                  # forced on (1) where Numba's internals have moved
        print(f"balance: Numba {numba.__version__}: its compile patches cannot be applied ({err}): compiling "
              "without them", file=sys.stderr)
        return ACTIVE
    INSTALLED["always_inline"] = link_once.install_always_inline()
    INSTALLED["function_passes"] = link_once.install_function_passes()
    try:
        INSTALLED["link_once"] = link_once.install_link_once()
    except Exception:                           # pragma: no cover - a Numba without these hooks compiles as usual
        INSTALLED["link_once"] = False
    INSTALLED["typing_memo"] = memos.install_typing_memo()
    INSTALLED["abi_memo"] = memos.install_abi_memo()
    _OPTIONS.update({} if (compiler := pipeline.rules_pipeline()) is None else {"pipeline_class": compiler})
    INSTALLED["pipeline"] = bool(_OPTIONS)
    ACTIVE = True
    return ACTIVE


def rules_options() -> dict:
    """The ``njit`` options the patches add to every rule function's: the rules' pipeline, when applied."""
    return dict(_OPTIONS)


def rule_function(dispatcher, fn, *, flat: bool = False):
    """The dispatcher of rule function `fn` (``njit`` of it with the rules' options), patched when the patches are
    applied: one specialisation per argument types, Python's wrapper on demand, ``alwaysinline`` if `flat`."""
    if not ACTIVE:
        return dispatcher
    from .dispatch import one_specialisation, python_wrapper_on_demand
    from .symbols import FLAT, RULES, prefix_of
    RULES.add(prefix_of(fn))
    if flat and INSTALLED["always_inline"]:
        FLAT.add(prefix_of(fn))
    dispatcher = one_specialisation(dispatcher)
    return python_wrapper_on_demand(dispatcher) if INSTALLED["link_once"] else dispatcher
