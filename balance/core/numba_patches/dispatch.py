"""Rule functions' dispatchers: one specialisation per argument types, and Python's wrapper only when Python calls
(the package docstring says why). Each replaces methods of one dispatcher, not of Numba's classes."""
from __future__ import annotations

from numba.core import sigutils as _sigutils
from numba.core.compiler_lock import global_compiler_lock as _compiler_lock

from .symbols import COMPILING

_UNSET = object()


def one_specialisation(dispatcher):
    """Type calls from compiled code with plain argument types: a constant (``Literal[int](3)``) as its type, a
    signed integer narrower than 64 bits as int64 (widened at the call); an unsigned integer keeps its type."""
    from numba.core import types
    get = getattr(dispatcher, "get_call_template", None)
    if get is None:                             # NUMBA_DISABLE_JIT: a plain Python function
        return dispatcher

    def plain(a):
        a = types.unliteral(a)
        if isinstance(a, types.Integer) and a.signed and a.bitwidth < 64:
            return types.int64
        return a

    def get_call_template(args, kws):
        return get(tuple(plain(a) for a in args), {k: plain(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def python_wrapper_on_demand(dispatcher):
    """Compile a rule function without the wrapper Python calls it through when it is compiled for a caller that is
    being compiled (a callee: almost every compile of a kernel), and compile it whole when Python first calls it.

    Such an overload is kept for typing and linking its callers but left out of the table Python calls are matched
    against, so a call from Python comes back to :meth:`compile`, which then compiles the function as an entry point
    (whole, optimised once, cached) in its place. Only with :mod:`.link_once` installed, which gives a callee's
    overload no machine code of its own."""
    compile_ = getattr(dispatcher, "compile", None)
    add_overload_ = getattr(dispatcher, "add_overload", None)
    get_overload_ = getattr(dispatcher, "get_overload", None)
    get_call_template_ = getattr(dispatcher, "get_call_template", None)
    options = getattr(dispatcher, "targetoptions", None)
    if compile_ is None or add_overload_ is None or get_overload_ is None or get_call_template_ is None \
            or not isinstance(options, dict):
        return dispatcher                       # NUMBA_DISABLE_JIT
    for_callers = set()                         # argument types compiled for callers only
    typing = [0]                                # > 0 while a caller being compiled types a call to this function

    def get_call_template(args, kws):
        typing[0] += 1
        try:
            return get_call_template_(args, kws)
        finally:
            typing[0] -= 1

    def compile(sig):
        # under Numba's compiler lock (re-entrant), so that COMPILING is this thread's: a call from Python on
        # another thread waits for a compile in progress rather than taking itself for one of its callees
        with _compiler_lock:
            # typing a caller: no Python wrapper. Not within a compile of this same function (a recursion that
            # changes argument types), where Numba names the other version by the flags of the one compiling
            if typing[0] and COMPILING and not any(d is dispatcher for d in COMPILING):
                before = options.get("no_cpython_wrapper", _UNSET)
                options["no_cpython_wrapper"] = True
                try:
                    return compile_(sig)
                finally:                        # as it was: a compile of this function may be in progress
                    if before is _UNSET:
                        options.pop("no_cpython_wrapper", None)
                    else:
                        options["no_cpython_wrapper"] = before
            args = tuple(_sigutils.normalize_signature(sig)[0])
            if args in for_callers:             # Python calls it: compile it whole, with its wrapper
                for_callers.discard(args)
                dispatcher.overloads.pop(args, None)
            return compile_(sig)

    def add_overload(cres):
        if options.get("no_cpython_wrapper") and COMPILING and COMPILING[-1] is dispatcher:
            args = tuple(cres.signature.args)   # compiled just now, for callers (not loaded from the cache)
            for_callers.add(args)
            dispatcher.overloads[args] = cres
            return
        add_overload_(cres)

    def get_overload(sig):
        # asked from Python (not while a caller is being compiled), an overload has a function Python can call
        if not COMPILING and tuple(_sigutils.normalize_signature(sig)[0]) in for_callers:
            compile(sig)
        return get_overload_(sig)

    dispatcher.get_call_template = get_call_template
    dispatcher.compile = compile
    dispatcher.add_overload = add_overload
    dispatcher.get_overload = get_overload
    return dispatcher


