"""How rule kernels are compiled: one place for the Numba options every game's kernel shares.

* ``cache=True``: compiled code is kept between processes (see ``balance/_cache.py`` for where).
* ``error_model="numpy"``: integer division by zero does not raise, so no exception path in hot loops.
* ``_nrt=False``: no Numba runtime in rule code. Rule functions only index arrays they are given and never allocate,
  so they need no reference counting; with the runtime on, every array passed between functions paid an atomic
  increment and decrement (``perf`` put about a third of the kernel's samples there; the kernel ran 1.26x faster
  without). A function that tries to allocate fails to compile, which is the check that this stays true, and
  ``tests/test_kernel_build.py`` names any rule function compiled otherwise. Functions that allocate (the parallel
  driver, trace buffers, the speed floor) use plain ``njit``.

**A kernel is optimised once, at its entry point** (``_install_once``). Numba compiles every jitted function into
an LLVM module of its own and, when it is done, links in the modules of the functions it calls, optimises the whole
and emits machine code for it. A kernel is a deep call tree, so each level optimised and emitted everything below it
again: The Haunted Tower's six levels from a turn up to the parallel driver each re-optimised the whole game. Here:

* a rule function that Numba compiles *while compiling another function* (a callee) keeps its own code only: its
  rule callees' modules are not linked in (Numba's own helpers still are) and it gets LLVM's cheapest pipeline. It
  gets no wrapper for Python to call it through (``_python_wrapper_on_demand``: a call from Python compiles the
  function again, as an entry point) and no machine code (``_balance_link_only``): only the entry points that link
  it in run it. It is not written to the cache; the entry point is, whole.
* every other function (an entry point: a parallel driver, a trace driver, a rule function called from Python)
  links in every module of the tree below it, each once, makes the linked functions private to its module, and
  optimises and emits the whole once. Private is what makes this work: with Numba's shared (``linkonce_odr``)
  copies, a call the optimiser did not inline was bound by the JIT linker to whichever copy it had loaded first,
  the callee's own unoptimised one (measured 7 times slower).

* glue (a library that links an entry point's optimised code but no rule function of its own: Numba wraps a
  parallel loop's body in two wrapper functions and then the parallel driver, each linking the body) is optimised
  alone, and the optimised code is linked in afterwards as it is, private and with the copies nothing calls
  dropped. The two wrappers, finished inside the driver's compile, keep their own code only, like callees, and
  the driver links them and the body once. Optimising the whole kernel again in each of the three, and emitting
  its machine code three more times, was about 6 s of The Haunted Tower's cold compile.
  The body and the wrappers, run only as the driver's copies, get no machine code of their own either.
* code without machine code of its own still gets it the moment something needs more than an entry point's private
  copy: its address asked for (a ufunc loop), a recursion reaching it by name (``_note_unresolved``); and its
  environment (``print`` needs it) is set in whichever machine code defines it (``_PENDING_ENVS``).
* the private copies an entry point links in are renamed (``PRIVATE_SUFFIX``): LLVM's JIT linker enters local
  symbols in the process-wide symbol table too, and a function compiled later that calls a callee by name was bound
  to a private copy whose signature the optimiser had changed (a crash).
* every rule function: no ``cfunc`` wrapper (``no_cfunc_wrapper``), and LLVM's function passes only over functions
  with a body (``_install_function_passes``).

Seventh session, each cut measured alone and together, cold compiles through ``run()`` on the quiet 2-core machine
(README, *Compile time*): The Haunted Tower 23.7 s before, 13.8 s after (13.7 s to 16.6 s later the same day, as the
machine's load moved); Spooky Tower 8.8 s, 4.6 s; Climbing Tower 11.3 s, 6.4 s; every output hash unchanged.

Measured on the 2-core machine in alternating rounds (README, *Compile time*), each kernel compiled into an empty
cache as a first ``balance run`` compiles it: Spooky Tower 30 to 33 s before, 10 to 13 s after; Climbing Tower 16 to
20 s, 14.5 to 16 s; The Haunted Tower 50 to 51 s, 28 to 30 s. Games per second: Spooky Tower within the machine's
swing (-5.5% and +8.8% in the two rounds), the other two higher; every game plays the same (the outputs' hashes are
equal).

``rules_jit`` is for rule functions. ``rules_jit_inline`` is the same now: it asked Numba to inline a small function
into its callers at its own IR level (typing each call site again, 12 s of Spooky Tower's compile); LLVM, which now
sees the whole kernel at once, inlines small private functions itself, and the kernels run as fast. The name stays
as a note that a function is meant to disappear into its callers. ``rules_jit_flat`` functions must be inlined into
every caller (LLVM's ``alwaysinline``): Climbing Tower's kernel is one flat function per entry point, with no Numba
calling convention (a status word, results through pointers) left in the turn loop (1.26x faster).

**Typing a builtin call is looked up once** (``_install_typing_memo``). Numba types every operator, ``np.uint64``
and other builtin call by trying the function's templates in turn (about ten for ``+``), and it does so again at
every call site: The Haunted Tower's compile asked 8,175 times, for 495 distinct questions, about 3 s of its cold
compile. The answer is kept per (function type, typing context, argument types, keyword types, the compile's flags);
a question that fails is asked again each time, as before.

**The ABI size and alignment of a type are asked of LLVM once** (``_install_abi_memo``). Numba asks LLVM for them by
parsing a module that holds a global of the type, at every ask: The Haunted Tower's compile asked 1,136 times about
17 distinct types (0.31 s of the compile, measured). The answer is kept per target data layout, question and type
text; a type that names an identified struct (whose text does not say its layout) is asked each time.

**Rule functions skip two of Numba's passes** (``_rules_pipeline``): the rewrites after type inference (array
expressions, which allocate and so cannot occur in rule code, and string-literal indices) and, unless the function
makes a closure, the closure inliner. Each re-derived the IR's variable lifetimes twice whether or not it changed
anything: about 0.7 s of The Haunted Tower's cold compile (16.8 s to 15.9 s and 16.3 s in alternating rounds), with
every game's outputs unchanged. The layouts' index helpers are not rule functions at all (``balance/_index.py``).

``rules_jit`` and ``rules_jit_flat`` functions compile once per argument types: a caller passing a constant does not
get a specialisation of its own (``_one_specialisation``; The Haunted Tower's cold compile fell from 71 s to 55 s),
nor one passing a narrower signed integer (an int32 board entry: widened to int64 at the call, as Numba's integer
arithmetic widens it anyway; 211 compiles of The Haunted Tower's kernel became 195, about 0.5 s).

These hooks use private Numba (``CPUCodeLibrary``, its ``Cache``, a dispatcher's ``get_call_template``, the
templates' ``BaseFunction.get_call_type``); should
they move, every function is compiled as Numba compiles it, constants get their own specialisations again, and the
games play the same, only the compile is slower.
"""
from __future__ import annotations

import os
import weakref

from numba import njit
from numba.core.cpu import CPUTargetOptions

try:                                            # private Numba; should it move, Numba compiles as it always does
    from numba.core import base as _base
    from numba.core import caching as _caching
    from numba.core import codegen as _codegen
    from numba.core import event as _event
    from numba.core import sigutils as _sigutils
    from numba.core.compiler_lock import global_compiler_lock as _compiler_lock
    from numba.core.itanium_mangler import mangle_identifier as _mangle
    from numba.core.targetconfig import ConfigStack as _ConfigStack
    from numba.core.types import functions as _functions
except ImportError:                             # pragma: no cover
    _codegen = None

# ``_nrt`` is a private Numba option (present from well before the oldest Numba this package allows to 0.68). Should
# a later release drop it, the kernels still compile, with the runtime, and only lose that speed.
_NO_RUNTIME = {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}

# ``no_cfunc_wrapper``: Numba builds, besides a function's own code and the wrapper Python calls it through, a third
# wrapper for taking its address as a C function pointer (``cfunc``, first-class function values); rule code never
# does, and building and optimising that wrapper was about 2 s of The Haunted Tower's cold compile.
_NO_CFUNC = {"no_cfunc_wrapper": True} if hasattr(CPUTargetOptions, "no_cfunc_wrapper") else {}

RULES_OPTIONS = dict(cache=True, error_model="numpy", **_NO_RUNTIME, **_NO_CFUNC)


def _one_specialisation(dispatcher):
    """Type calls from compiled code with plain argument types: Numba would otherwise compile a callee once more
    for every constant a caller passes it (``Literal[int](3)``) and for every signed integer width (int32, int64),
    each specialisation typed, lowered and optimised afresh. LLVM still folds the constants once the callee is
    inlined."""
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


def _python_wrapper_on_demand(dispatcher):
    """Compile a rule function without the wrapper Python calls it through when it is compiled for a caller that is
    being compiled (a callee: almost every compile of a kernel), and compile it whole when Python first calls it.

    Numba builds, for every function it compiles, a wrapper that unboxes Python arguments and boxes the result;
    building and optimising the callees' wrappers was about 2.5 s of The Haunted Tower's cold compile, and Python
    calls few of them. Such an overload is kept for typing and linking its callers but left out of the table Python
    calls are matched against, so a call from Python comes back to :meth:`compile`, which then compiles the
    function as an entry point (whole, optimised once, cached) in its place."""
    compile_ = getattr(dispatcher, "compile", None)
    add_overload_ = getattr(dispatcher, "add_overload", None)
    get_overload_ = getattr(dispatcher, "get_overload", None)
    get_call_template_ = getattr(dispatcher, "get_call_template", None)
    options = getattr(dispatcher, "targetoptions", None)
    if compile_ is None or add_overload_ is None or get_overload_ is None or get_call_template_ is None \
            or not isinstance(options, dict) or not _ONCE_READY:
        return dispatcher                       # NUMBA_DISABLE_JIT, or a Numba whose internals moved
    for_callers = set()                         # argument types compiled for callers only
    typing = [0]                                # > 0 while a caller being compiled types a call to this function

    def get_call_template(args, kws):
        typing[0] += 1
        try:
            return get_call_template_(args, kws)
        finally:
            typing[0] -= 1

    def compile(sig):
        # under Numba's compiler lock (re-entrant), so that _COMPILING is this thread's: a call from Python on
        # another thread waits for a compile in progress rather than taking itself for one of its callees
        with _compiler_lock:
            # typing a caller: no Python wrapper. Not within a compile of this same function (a recursion that
            # changes argument types), where Numba names the other version by the flags of the one compiling
            if typing[0] and _COMPILING and not any(d is dispatcher for d in _COMPILING):
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
        if options.get("no_cpython_wrapper") and _COMPILING and _COMPILING[-1] is dispatcher:
            args = tuple(cres.signature.args)   # compiled just now, for callers (not loaded from the cache)
            for_callers.add(args)
            dispatcher.overloads[args] = cres
            return
        add_overload_(cres)

    def get_overload(sig):
        # asked from Python (not while a caller is being compiled), an overload has a function Python can call
        if not _COMPILING and tuple(_sigutils.normalize_signature(sig)[0]) in for_callers:
            compile(sig)
        return get_overload_(sig)

    dispatcher.get_call_template = get_call_template
    dispatcher.compile = compile
    dispatcher.add_overload = add_overload
    dispatcher.get_overload = get_overload
    return dispatcher


_UNSET = object()


_RULES: set[str] = set()
"""Mangled-name prefixes (``_ZN`` and the qualified name) of every rule function (``rules_jit``, flat or not)."""

_FLAT: set[str] = set()
"""... of the ``rules_jit_flat`` functions."""


def _flat_prefix(fn) -> str:
    return "_ZN" + "".join(_mangle(part) for part in f"{fn.__module__}.{fn.__qualname__}".split("."))


def _symbol_prefix(name: str) -> str | None:
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


_NOINLINE = tuple(f"{len(n)}{n}" for n in os.environ.get("BALANCE_PROFILE_NOINLINE", "").split(",") if n)
"""Rule functions kept out of line (LLVM's ``noinline``), so that a profile names them: profiling only, set by
``benchmarks/profile.py --noinline`` with a fresh Numba cache (the names as written in Python, comma-separated)."""


def _is_noinline(name: str) -> bool:
    """Is `name` the symbol of a rule function named in ``_NOINLINE``?"""
    return any(n in name for n in _NOINLINE)


def _is_flat(name: str) -> bool:
    """Is `name` the symbol of a compiled ``rules_jit_flat`` function?"""
    return _symbol_prefix(name) in _FLAT


def _install_always_inline() -> bool:
    """Mark ``rules_jit_flat`` functions ``alwaysinline`` as each is handed to LLVM (once per process); the same hook
    notes the recursion references in the module (:func:`_note_unresolved`), where reading them costs no call into
    LLVM."""
    library = getattr(_codegen, "CPUCodeLibrary", None)
    original = getattr(library, "add_ir_module", None)
    if original is None or getattr(original, "_balance_flat", False):
        return original is not None

    def add_ir_module(self, ir_module):
        _note_unresolved(ir_module.globals)     # (from the Python-side module: no call into LLVM)
        if _FLAT:
            for fn in ir_module.functions:
                if not fn.is_declaration and _is_flat(fn.name) and not _is_noinline(fn.name):
                    fn.attributes.add("alwaysinline")
        if _NOINLINE:
            for fn in ir_module.functions:
                if not fn.is_declaration and _is_noinline(fn.name):
                    fn.attributes.add("noinline")
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


def _compiling_now() -> str | None:
    """The symbol prefix of the function Numba is compiling now (the innermost), None when there is none."""
    fn = getattr(_COMPILING[-1], "py_func", None) if _COMPILING else None
    return _flat_prefix(fn) if fn is not None else None


def _defines(own, prefix) -> bool:
    """Do the functions `own` (a library's) include the function of symbol prefix `prefix`?"""
    return any(_symbol_prefix(name) == prefix for name in own)


def _compiling_a_callee(own) -> bool:
    """Is this library (defining the functions `own`) a rule function's, finished as a callee inside the compile of
    another function? A helper Numba compiles for a rule function (``x ** 2``, ``round``) is finished while that
    rule function compiles, but defines none of it: it is linked in as Numba links it."""
    prefix = _compiling_now()
    return len(_COMPILING) >= 2 and prefix in _RULES and _defines(own, prefix)


def _compiling_inside(own) -> bool:
    """Is this library (defining the functions `own`) finished inside the compile of a function it does not
    define (a wrapper Numba puts around a parallel loop's body, linked into the parallel driver)?"""
    prefix = _compiling_now()
    return prefix is not None and not _defines(own, prefix)


def _tree(libraries) -> list:
    """The libraries to link into an entry point: those it calls and, through every callee that kept its own code
    only, theirs, each once."""
    out, seen = [], set()

    def visit(library):
        if id(library) not in seen:
            seen.add(id(library))
            out.append(library)
            for callee in getattr(library, "_balance_callees", ()) or getattr(library, "_balance_wrapped", ()):
                visit(callee)
    for library in libraries:
        visit(library)
    return out


PRIVATE_SUFFIX = ".balance_private"


def _make_private(module, own) -> None:
    """Make every function of `module` defined there but not in `own` private to it, under a name of its own.

    The rename matters: LLVM's JIT linker (RuntimeDyld) enters a module's local symbols in the process-wide symbol
    table too, under their names, the last module loaded winning. A callee compiled later, whose machine code calls
    its callees by name, was then bound to the private copy inside an entry point loaded before it: a copy the
    optimiser may have given a different signature (unused arguments removed). Called from Python, that callee
    crashed (a Spooky Tower rule function called directly after Climbing Tower's kernel had compiled, both using
    ``balance.rng.flat_shuffle_nb``)."""
    for fn in module.functions:
        if not fn.is_declaration and fn.name not in own and str(fn.linkage) != "Linkage.internal":
            fn.linkage = "internal"
            fn.name = fn.name + PRIVATE_SUFFIX


def _drop_unused(codegen, module) -> None:
    """Remove the private functions nothing calls (the second copies linking the same code twice leaves)."""
    from llvmlite import binding as ll
    mpm = ll.create_new_module_pass_manager()
    mpm.add_global_dead_code_eliminate_pass()
    mpm.run(module, codegen._pass_builder(opt=0))


def _install_function_passes() -> bool:
    """Numba runs LLVM's function passes over each function of a module it is given, each with a pass builder made
    for it, declarations included: The Haunted Tower's compile made 7,718 pass builders, 7,071 of them for
    declarations (nothing to optimise), about 1 s. Here the declarations are skipped; the functions with a body get
    exactly Numba's passes."""
    library = getattr(_codegen, "CPUCodeLibrary", None)
    original = getattr(library, "_optimize_functions", None)
    if original is None or getattr(original, "_balance_defined", False):
        return original is not None

    def optimize_functions(self, ll_module):
        codegen = self._codegen
        if not hasattr(codegen, "_function_pass_manager") or not hasattr(self, "_recorded_timings"):
            return original(self, ll_module)    # pragma: no cover - a Numba whose internals moved
        ll_module.data_layout = codegen._data_layout
        for fn in ll_module.functions:
            if fn.is_declaration:
                continue
            fpm, pb = codegen._function_pass_manager()
            with self._recorded_timings.record(f"Function passes on {fn.name!r}", pb):
                fpm.run(fn, pb)

    optimize_functions._balance_defined = True
    library._optimize_functions = optimize_functions
    return True


_UNRESOLVED: set[str] = set()
"""Functions some compiled code reaches by name at run time through Numba's fix-up for recursion (a global named
``.numba.unresolved$`` and the function's symbol): their own machine code must exist."""

_PENDING_ENVS: dict = {}
"""Environment globals (name: the environment) of code that had no machine code when Numba set them: set as soon
as machine code defining them exists (the copy an entry point links in)."""

_UNRESOLVED_PREFIX = ".numba.unresolved$"


_LINK_ONLY = weakref.WeakValueDictionary()
"""The link-only library that defines each function (its symbol), for :func:`_note_unresolved`."""


_SET_ENV: list = []
"""Numba's own ``set_env`` (once ``_install_once`` has replaced it)."""


def _note_unresolved(names) -> None:
    """Note the functions a module's globals (`names`, as Numba hands the module to LLVM) reach through Numba's
    recursion fix-up; one already finished without machine code (a callee of a recursion that changes argument
    types) gets it now."""
    for global_name in names:
        if global_name.startswith(_UNRESOLVED_PREFIX):
            name = global_name[len(_UNRESOLVED_PREFIX):]
            _UNRESOLVED.add(name)
            if name in _LINK_ONLY and _SET_ENV:
                _emit([_LINK_ONLY[name]], _SET_ENV[0])


def _set_pending_envs(codegen, set_env) -> None:
    """Set the environments waiting for machine code that now has it."""
    engine = codegen._engine
    for name in [name for name in _PENDING_ENVS if engine.get_global_value_address(name)]:
        set_env(codegen, name, _PENDING_ENVS.pop(name))


def _emit(libraries, set_env) -> None:
    """Make machine code, after all, for the link-only libraries of these libraries' trees (something is about to
    run their own code): every module handed to the JIT first, then finalised, so that their calls to one another
    resolve."""
    todo = [lib for lib in _tree(libraries)
            if getattr(lib, "_balance_link_only", False) and not getattr(lib, "_balance_emitted", False)]
    for lib in todo:
        lib._balance_emitted = True
        setattr(lib._final_module, "_CPUCodeLibrary__library", weakref.proxy(lib))  # as Numba's own finalize does
        lib._codegen._add_module(lib._final_module)
    for lib in todo:
        lib._finalize_specific()
    if todo:
        _set_pending_envs(todo[0]._codegen, set_env)


def _install_once() -> bool:
    """Optimise a kernel once, at its entry point (module docstring). Installed once per process."""
    library = getattr(_codegen, "CPUCodeLibrary", None)
    finalize = getattr(library, "finalize", None)
    optimize = getattr(library, "_optimize_final_module", None)
    cache = getattr(_caching, "Cache", None)
    save = getattr(cache, "save_overload", None)
    finalize_final_module_ = getattr(library, "_finalize_final_module", None)
    jit_codegen = getattr(_codegen, "JITCPUCodegen", None)
    set_env_ = getattr(jit_codegen, "set_env", None)
    jit_library = getattr(_codegen, "JITCodeLibrary", None)
    get_pointer_to_function_ = getattr(jit_library, "get_pointer_to_function", None)
    if finalize is None or optimize is None or save is None or not hasattr(library, "_get_module_for_linking") \
            or finalize_final_module_ is None or set_env_ is None or get_pointer_to_function_ is None \
            or not hasattr(jit_library, "_finalize_specific") \
            or not hasattr(library, "_finalize_dynamic_globals") or not hasattr(library, "_verify_declare_only_symbols"):
        return False
    if getattr(finalize, "_balance_once", False):
        return True

    def finalize_once(self):
        callees = list(self._linking_libraries)
        self._balance_own = {fn.name for fn in self._final_module.functions if not fn.is_declaration}
        if _compiling_a_callee(self._balance_own):
            self._balance_callees = callees
            self._linking_libraries = [lib for lib in callees if not hasattr(lib, "_balance_callees")]
            # without a wrapper for Python (_python_wrapper_on_demand), and reached by name by no recursion, nothing
            # runs its own machine code: only the entry points that link it in run it, as their private copies.
            # It is not made (unless something asks for it after all: get_pointer_to_function below).
            self._balance_link_only = bool(getattr(_COMPILING[-1], "targetoptions", {}).get("no_cpython_wrapper")) \
                and not (self._balance_own & _UNRESOLVED)
        else:
            tree = _tree(callees)
            kernels = [lib for lib in tree if getattr(lib, "_balance_kernel", False)]
            rules = any(hasattr(lib, "_balance_callees") for lib in tree)
            self._balance_kernel = rules or bool(kernels)
            if kernels and not rules:           # glue: the kernel is linked in after optimising the glue alone
                tree = [lib for lib in tree if not getattr(lib, "_balance_kernel", False)]
                if _compiling_inside(self._balance_own):
                    self._balance_wrapped = callees     # a wrapper: its own code, calling the kernel's
                else:
                    self._balance_glue = kernels
            # a parallel loop's body and its two wrappers, finished inside the driver's compile: only the driver,
            # which links them in, runs their code
            self._balance_link_only = self._balance_kernel and _compiling_inside(self._balance_own)
            self._linking_libraries = tree
        if self._balance_link_only:
            for name in self._balance_own:
                _LINK_ONLY[name] = self
        try:
            finalize(self)
        finally:
            self._linking_libraries = callees

    def optimize_once(self):
        if hasattr(self, "_balance_callees"):   # a callee: LLVM's cheapest pipeline over its own code
            codegen = self._codegen
            mpm, mpb = codegen._module_pass_manager(loop_vectorize=codegen._loopvect, slp_vectorize=False,
                                                    opt=codegen._opt_level, cost="cheap")
            mpm.run(self._final_module, mpb)
            return
        own = getattr(self, "_balance_own", ())
        _make_private(self._final_module, own)  # an entry point: every linked function its own, private copy
        optimize(self)
        glue = getattr(self, "_balance_glue", ())
        if glue:                                # (module docstring) the kernel's optimised code, linked in as it is
            for lib in glue:
                self._reload_init.update(lib._reload_init)
                self._final_module.link_in(lib._get_module_for_linking(), preserve=True)
            _make_private(self._final_module, own)
            _drop_unused(self._codegen, self._final_module)

    def save_once(self, sig, data):
        library = getattr(data, "library", None)
        if hasattr(library, "_balance_callees") or hasattr(library, "_balance_wrapped"):
            return                              # its machine code calls other code of this process
        return save(self, sig, data)

    def finalize_final_module(self):
        if not getattr(self, "_balance_link_only", False):
            if hasattr(self, "_balance_callees"):   # its machine code calls its callees' by name: they need theirs
                _emit(self._balance_callees, set_env_)
            finalize_final_module_(self)
            if _PENDING_ENVS and (getattr(self, "_balance_kernel", False) or hasattr(self, "_balance_callees")):
                _set_pending_envs(self._codegen, set_env_)  # only these link copies of code without its own
            return
        self._finalize_dynamic_globals()        # Numba's steps, less handing the module to the JIT to make
        self._verify_declare_only_symbols()     # machine code of (about 1.4 s of The Haunted Tower's compile)
        self._finalized = True

    def set_env(self, env_name, env):
        if not self._engine.get_global_value_address(env_name):
            _PENDING_ENVS[env_name] = env       # no machine code defines it yet: set when some does
            return
        return set_env_(self, env_name, env)

    def get_pointer_to_function(self, name):
        self._ensure_finalized()                # (which decides whether it is link-only)
        if getattr(self, "_balance_link_only", False) and not getattr(self, "_balance_emitted", False):
            try:
                defined = not self._final_module.get_function(name).is_declaration
            except NameError:
                defined = False
            if not defined or name.startswith("_ZN7cpython"):
                # as Numba answers for a function the library does not define; and the Python wrapper of a parallel
                # loop's body (asked for by Numba after every compile) is never called: only the driver runs the body
                return 0
            _emit([self], set_env_)             # its address is wanted (a ufunc loop): make its machine code
        return get_pointer_to_function_(self, name)

    finalize_once._balance_once = True
    library.finalize = finalize_once
    library._finalize_final_module = finalize_final_module
    jit_codegen.set_env = set_env
    jit_library.get_pointer_to_function = get_pointer_to_function
    _SET_ENV.append(set_env_)
    library._optimize_final_module = optimize_once
    cache.save_overload = save_once
    _event.register("numba:compile", _CompileStack())
    return True


_TYPING_MEMO: dict = {}
"""Builtin call typings already answered (:func:`_install_typing_memo`): key -> Numba signature."""


def _flags_key():
    """The flags of the function being compiled (what an overload's implementation is compiled with), as a key: the
    options set explicitly, an unhashable value (``fastmath``) by its repr."""
    top = _ConfigStack().top_or_none()
    if top is None:
        return None
    return tuple(sorted((k, v if getattr(v, "__hash__", None) else repr(v)) for k, v in top._values.items()))


def _install_typing_memo() -> bool:
    """Answer a repeated builtin call typing from :data:`_TYPING_MEMO` (module docstring)."""
    base = getattr(_functions, "BaseFunction", None)
    original = getattr(base, "get_call_type", None)
    if original is None or not hasattr(_ConfigStack, "top_or_none"):
        return False
    if getattr(original, "_balance_memo", False):
        return True

    def get_call_type(self, context, args, kws):
        try:
            key = (self, context, tuple(args), tuple(sorted(kws.items())), _flags_key())
            sig = _TYPING_MEMO.get(key)
        except TypeError:                       # an unhashable argument type: typed as Numba types it
            return original(self, context, args, kws)
        if sig is None:
            sig = original(self, context, args, kws)    # raises when no template matches: nothing is kept
            if sig is not None:
                _TYPING_MEMO[key] = sig
        return sig

    get_call_type._balance_memo = True
    base.get_call_type = get_call_type
    return True


_ABI_MEMO: dict = {}
"""ABI answers (:func:`_install_abi_memo`): id of the target data -> (the target data, {(question, type text): n})."""


def _install_abi_memo() -> bool:
    """Answer a repeated ABI size or alignment question from a memo kept per target data layout (module docstring)."""
    base = getattr(_base, "BaseContext", None)
    if base is None or not all(hasattr(base, name) for name in ("get_abi_sizeof", "get_abi_alignment")):
        return False
    if getattr(base.get_abi_sizeof, "_balance_memo", False):
        return True

    def memo(name):
        original = getattr(base, name)

        def answer(self, ty):
            text = str(ty)
            if "%" in text:                     # an identified struct: its text names it but not its layout
                return original(self, ty)
            target_data = self.target_data      # (a compile's context is a copy of the target's: one memo)
            kept = _ABI_MEMO.setdefault(id(target_data), (target_data, {}))[1]
            key = (name, text)
            if key not in kept:
                kept[key] = original(self, ty)
            return kept[key]
        answer._balance_memo = True
        setattr(base, name, answer)

    memo("get_abi_sizeof")
    memo("get_abi_alignment")
    return True


def _inlined_by_numba(value) -> bool:
    """Is `value` something Numba's closure pass inlines when called: ``functools.reduce``, a stencil?"""
    import functools
    return value is functools.reduce or getattr(value, "__module__", "").startswith("numba.stencils")


def _rules_pipeline():
    """Numba's nopython pipeline for rule functions, less two passes that cannot change their code (module
    docstring): the closure inliner when the function makes no closure (rule code defines none, and calls no
    ``functools.reduce`` or stencil, the other things that pass inlines), and the rewrites after type inference
    (array expressions, which allocate, so rule code has none: it compiles without Numba's runtime; and string-literal
    indices). Each re-derives the IR's variable lifetimes twice over, whether or not it changes anything. None when
    Numba's pipeline no longer has these passes: rule functions then compile with Numba's own."""
    try:
        from numba.core import ir
        from numba.core.compiler import CompilerBase, DefaultPassBuilder
        from numba.core.compiler_machinery import PassManager, register_pass
        from numba.core.typed_passes import NopythonRewrites
        from numba.core.untyped_passes import InlineClosureLikes
    except ImportError:                         # pragma: no cover
        return None

    @register_pass(mutates_CFG=True, analysis_only=False)
    class InlineClosuresIfAny(InlineClosureLikes):
        _name = "balance_inline_closures_if_any"

        def run_pass(self, state):
            for block in state.func_ir.blocks.values():
                for inst in block.body:
                    value = getattr(inst, "value", None)
                    if isinstance(value, ir.Expr) and value.op == "make_function" \
                            or isinstance(value, (ir.Global, ir.FreeVar)) and _inlined_by_numba(value.value):
                        return super().run_pass(state)
            return False

    class RulesCompiler(CompilerBase):
        def define_pipelines(self):
            default = DefaultPassBuilder.define_nopython_pipeline(self.state)
            if InlineClosureLikes not in [cls for cls, _ in default.passes] \
                    or NopythonRewrites not in [cls for cls, _ in default.passes]:
                return [default]
            pm = PassManager("balance_rules")
            for cls, what in default.passes:
                if cls is NopythonRewrites:
                    continue
                pm.add_pass(InlineClosuresIfAny if cls is InlineClosureLikes else cls, what)
            pm.finalize()
            return [pm]

    return RulesCompiler


_FLAT_READY = _codegen is not None and _install_always_inline()
_PASSES_READY = _codegen is not None and _install_function_passes()
try:
    _ONCE_READY = _codegen is not None and _install_once()
except Exception:                               # pragma: no cover - a Numba without these hooks compiles as usual
    _ONCE_READY = False
_TYPING_READY = _codegen is not None and _install_typing_memo()
_ABI_READY = _codegen is not None and _install_abi_memo()
_PIPELINE = _rules_pipeline() if _codegen is not None else None
if _PIPELINE is not None:
    RULES_OPTIONS["pipeline_class"] = _PIPELINE


def rules_jit(fn):
    """A rule function (module docstring)."""
    if _codegen is not None:
        _RULES.add(_flat_prefix(fn))
    return _python_wrapper_on_demand(_one_specialisation(njit(**RULES_OPTIONS)(fn)))


rules_jit_inline = rules_jit
"""A small rule function meant to disappear into its callers: LLVM inlines it (module docstring)."""


def rules_jit_flat(fn=None, *, cache: bool = True):
    """A rule function compiled once on its own and inlined by LLVM into every caller (module docstring).
    ``cache=False`` is for tests that must watch a compile happen."""
    if fn is None:
        return lambda f: rules_jit_flat(f, cache=cache)
    if _codegen is not None:
        _RULES.add(_flat_prefix(fn))
        if _FLAT_READY:
            _FLAT.add(_flat_prefix(fn))
    return _python_wrapper_on_demand(_one_specialisation(njit(**{**RULES_OPTIONS, "cache": cache})(fn)))
