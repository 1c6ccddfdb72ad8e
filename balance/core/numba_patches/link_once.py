"""One optimisation per kernel, at its entry point; LLVM's function passes over function bodies only; ``alwaysinline``
for ``rules_jit_flat`` functions (the package docstring says why). How the first works:

* a rule function that Numba compiles *while compiling another function* (a callee) keeps its own code only: its
  rule callees' modules are not linked in (Numba's own helpers still are) and it gets LLVM's cheapest pipeline. It
  gets no wrapper for Python (:func:`.dispatch.python_wrapper_on_demand`) and no machine code (``_balance_link_only``):
  only the entry points that link it in run it. It is not written to the cache; the entry point is, whole.
* every other function (an entry point) links in every module of the tree below it, each once, makes the linked
  functions private to its module, and optimises and emits the whole once. Private is what makes this work: with
  Numba's shared (``linkonce_odr``) copies, a call the optimiser did not inline was bound by the JIT linker to
  whichever copy it had loaded first, the callee's own unoptimised one (7 times slower).
* glue (a library that links an entry point's optimised code but no rule function of its own: Numba wraps a parallel
  loop's body in two wrapper functions and then the parallel driver, each linking the body) is optimised alone, and
  the optimised code is linked in afterwards as it is, private and with the copies nothing calls dropped. The two
  wrappers, finished inside the driver's compile, keep their own code only, like callees, and the driver links them
  and the body once. The body and the wrappers, run only as the driver's copies, get no machine code of their own.
* code without machine code of its own still gets it the moment something needs more than an entry point's private
  copy: its address asked for (a ufunc loop), a recursion reaching it by name (:func:`_note_unresolved`); and its
  environment (``print`` needs it) is set in whichever machine code defines it (``_PENDING_ENVS``).
* the private copies an entry point links in are renamed (``PRIVATE_SUFFIX``, :func:`_make_private`).
"""
from __future__ import annotations

import weakref

from numba.core import caching as _caching
from numba.core import codegen as _codegen
from numba.core import event as _event

from .symbols import (COMPILING, FLAT, NOINLINE, CompileStack, compiling_a_callee, compiling_inside, is_flat,
                      is_noinline)


def install_always_inline() -> bool:
    """Mark ``rules_jit_flat`` functions ``alwaysinline`` as each is handed to LLVM (once per process); the same hook
    notes the recursion references in the module (:func:`_note_unresolved`), where reading them costs no call into
    LLVM."""
    library = getattr(_codegen, "CPUCodeLibrary", None)
    original = getattr(library, "add_ir_module", None)
    if original is None or getattr(original, "_balance_flat", False):
        return original is not None

    def add_ir_module(self, ir_module):
        _note_unresolved(ir_module.globals)     # (from the Python-side module: no call into LLVM)
        if FLAT:
            for fn in ir_module.functions:
                if not fn.is_declaration and is_flat(fn.name) and not is_noinline(fn.name):
                    fn.attributes.add("alwaysinline")
        if NOINLINE:
            for fn in ir_module.functions:
                if not fn.is_declaration and is_noinline(fn.name):
                    fn.attributes.add("noinline")
        return original(self, ir_module)

    add_ir_module._balance_flat = True
    library.add_ir_module = add_ir_module
    return True


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
    its callees by name, would be bound to the private copy inside an entry point loaded before it: a copy the
    optimiser may have given a different signature (unused arguments removed), a crash when that callee is called
    from Python (``tests/core/test_kernel_build.py``'s shadow test)."""
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


def install_function_passes() -> bool:
    """Run LLVM's function passes, with a pass builder made for each, over the functions of a module that have a
    body, as Numba does, but not over its declarations (nothing to optimise)."""
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
"""Numba's own ``set_env`` (once ``install_link_once`` has replaced it)."""


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


def install_link_once() -> bool:
    """One optimisation per kernel, at its entry point (module docstring). Installed once per process."""
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
            or not hasattr(library, "_finalize_dynamic_globals") \
            or not hasattr(library, "_verify_declare_only_symbols"):
        return False
    if getattr(finalize, "_balance_once", False):
        return True

    def finalize_once(self):
        callees = list(self._linking_libraries)
        self._balance_own = {fn.name for fn in self._final_module.functions if not fn.is_declaration}
        if compiling_a_callee(self._balance_own):
            self._balance_callees = callees
            self._linking_libraries = [lib for lib in callees if not hasattr(lib, "_balance_callees")]
            # without a wrapper for Python (python_wrapper_on_demand), and reached by name by no recursion, nothing
            # runs its own machine code: only the entry points that link it in run it, as their private copies.
            # It is not made (unless something asks for it after all: get_pointer_to_function below).
            self._balance_link_only = bool(getattr(COMPILING[-1], "targetoptions", {}).get("no_cpython_wrapper")) \
                and not (self._balance_own & _UNRESOLVED)
        else:
            tree = _tree(callees)
            kernels = [lib for lib in tree if getattr(lib, "_balance_kernel", False)]
            rules = any(hasattr(lib, "_balance_callees") for lib in tree)
            self._balance_kernel = rules or bool(kernels)
            if kernels and not rules:           # glue: the kernel is linked in after optimising the glue alone
                tree = [lib for lib in tree if not getattr(lib, "_balance_kernel", False)]
                if compiling_inside(self._balance_own):
                    self._balance_wrapped = callees     # a wrapper: its own code, calling the kernel's
                else:
                    self._balance_glue = kernels
            # a parallel loop's body and its two wrappers, finished inside the driver's compile: only the driver,
            # which links them in, runs their code
            self._balance_link_only = self._balance_kernel and compiling_inside(self._balance_own)
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
        if glue:                                # the kernel's optimised code, linked in as it is (module docstring)
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
        self._verify_declare_only_symbols()     # machine code of
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
    _event.register("numba:compile", CompileStack())
    return True

