"""The rules' compiler pipeline: Numba's nopython pipeline less two passes that cannot change rule code (the package
docstring says why). Built with Numba's pass API (``CompilerBase``, ``register_pass``) and given to ``njit`` as its
``pipeline_class``."""
from __future__ import annotations


def _inlined_by_numba(value) -> bool:
    """Is `value` something Numba's closure pass inlines when called: ``functools.reduce``, a stencil?"""
    import functools
    return value is functools.reduce or getattr(value, "__module__", "").startswith("numba.stencils")


def rules_pipeline():
    """Numba's nopython pipeline for rule functions, less the rewrites after type inference, and with the closure
    inliner run only when the function makes a closure or calls something else that pass inlines
    (``functools.reduce``, a stencil). None when Numba's pipeline no longer has these passes: rule functions then
    compile with Numba's own."""
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

