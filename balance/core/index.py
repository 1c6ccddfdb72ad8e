"""Index helpers that compiled code computes in place, without a function of their own.

A layout's index helper (``hs_at(p, k) = np.uint64(HS + p * N_HS + k)``) is an affine function of its integer
arguments: a constant plus a constant times each argument, as an unsigned 64-bit index. As a ``rules_jit`` function
Numba compiled each one on its own (typed, lowered, optimised: about 15 ms each) and every one of its hundreds of
call sites was a call with Numba's calling convention (a status word, a result through a pointer, the error check)
that LLVM then had to inline again. ``rules_index`` registers the helper with Numba's typing and lowering instead
(``numba.extending.type_callable`` and ``lower_builtin``, as Numba's own builtins are): a call site in compiled code
becomes the few integer instructions of the sum itself. Python still calls the helper as it is written (its
index as a Python int, as the compiled helper returned it).

The constant and the coefficients are read off the Python function the first time compiled code types a call (the
layout's constants are all set by then): ``fn(0, .., 0)`` and ``fn(e_i) - fn(0, .., 0)``; and the function is
checked to be affine at a few further points, so a helper that is not (one that reads an array, or multiplies two
arguments) is refused with the helper's name, not compiled wrong. The sum is computed in 64-bit integers and its
bits are the unsigned index, exactly as ``np.uint64(<the int64 sum>)`` gives it.
"""
from __future__ import annotations

import functools
import inspect
import itertools
import operator

from numba.core import errors, types
from numba.core.typing import signature
from numba.extending import lower_builtin, type_callable

_CHECK_POINTS = (1, 2, 3, 7, 13)


def _affine(fn, n: int) -> tuple[int, tuple[int, ...]]:
    """(constant, coefficients) of `fn`, an affine function of n integer arguments; ValueError when it is not."""
    base = int(fn(*([0] * n)))
    coeffs = tuple(int(fn(*[1 if j == i else 0 for j in range(n)])) - base for i in range(n))
    for point in itertools.islice(itertools.product(_CHECK_POINTS, repeat=n), 40):
        if int(fn(*point)) != base + sum(c * x for c, x in zip(coeffs, point)):
            raise ValueError(f"rules_index: {fn.__module__}.{fn.__qualname__} is not an affine function of its "
                             f"arguments (at {point})")
    return base, coeffs


def _typer(n: int, accepts):
    """A typing function of exactly n arguments (Numba binds the call's arguments to its signature)."""
    names = ", ".join(f"a{i}" for i in range(n))
    scope = {"accepts": accepts}
    exec(f"def typer({names}):\n    return accepts(({names}{',' if n == 1 else ''}))", scope)  # noqa: S102
    return scope["typer"]


def _register(fn, n: int, accepts, arg_types, lower):
    """The helper Python calls (`fn`'s value as a Python int, as a compiled helper returned it: ``np.uint64`` plus a
    numpy signed integer is a float), registered with Numba's typing (``accepts(arg types)``: the result type, or
    None) and lowering (``lower(context, builder, sig, args)``: the value, computed in place)."""
    @functools.wraps(fn)
    def helper(*args):
        return int(fn(*args))

    type_callable(helper)(lambda context: _typer(n, accepts))
    lower_builtin(helper, *arg_types)(lower)
    return helper


def rules_index(fn):
    """Register `fn` (an affine index helper, module docstring) so that compiled code computes it in place; returns
    the helper for Python."""
    n = len(inspect.signature(fn).parameters)
    known: list = []

    def affine():
        if not known:
            known.append(_affine(fn, n))
        return known[0]

    def accepts(args):
        if not all(isinstance(a, types.Integer) for a in args):
            return None
        try:
            affine()                            # a helper that is not affine fails here, at typing, by name
        except ValueError as err:
            raise errors.TypingError(str(err)) from None
        return types.uint64

    def lower(context, builder, sig, args):
        base, coeffs = affine()
        total = context.get_constant(types.int64, base)
        for c, ty, value in zip(coeffs, sig.args, args):
            if c == 0:
                continue
            value = context.cast(builder, value, ty, types.int64)
            total = builder.add(total, value if c == 1 else builder.mul(value, context.get_constant(types.int64, c)))
        return total                            # an i64: the uint64 index's bits

    return _register(fn, n, accepts, [types.Integer] * n, lower)


def rules_table(offset: int, stride: int | None = None):
    """A board-table read registered like :func:`rules_index`: ``fn(g, i)`` is ``g[g[offset] + i]`` and, with a
    `stride`, ``fn(g, i, k)`` is ``g[g[offset] + i * g[stride] + k]`` (a table whose place and row length the
    array's header holds). Compiled code reads the header words and the entry in place, with Numba's own array
    indexing (an unsigned index, as ``np.uint64(...)`` gives it); Python calls `fn` as written and gets a Python int.
    The decorated body must say the same: ``tests/core/test_kernel_build.py`` compares the two on a real board."""
    n = 2 if stride is None else 3

    def accepts(args):
        if isinstance(args[0], types.Array) and args[0].ndim == 1 and isinstance(args[0].dtype, types.Integer) \
                and all(isinstance(a, types.Integer) for a in args[1:]):
            return args[0].dtype
        return None

    def lower(context, builder, sig, args):
        aty = sig.args[0]
        getitem = context.get_function(operator.getitem, signature(aty.dtype, aty, types.uint64))

        def word(index):
            return context.cast(builder, getitem(builder, (args[0], index)), aty.dtype, types.int64)

        def arg(i):
            return context.cast(builder, args[i], sig.args[i], types.int64)

        index = builder.add(word(context.get_constant(types.uint64, offset)), arg(1) if stride is None else
                            builder.add(builder.mul(arg(1), word(context.get_constant(types.uint64, stride))), arg(2)))
        return getitem(builder, (args[0], index))

    return lambda fn: _register(fn, n, accepts, [types.Array] + [types.Integer] * (n - 1), lower)
