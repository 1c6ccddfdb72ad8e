"""Typing and ABI questions answered once (the package docstring says why).
Patches of ``BaseFunction.get_call_type`` and ``BaseContext.get_abi_sizeof`` / ``get_abi_alignment``."""
from __future__ import annotations

from numba.core import base as _base
from numba.core.targetconfig import ConfigStack as _ConfigStack
from numba.core.types import functions as _functions

TYPING_MEMO: dict = {}
"""Builtin call typings already answered (:func:`install_typing_memo`): key -> Numba signature."""


def _flags_key():
    """The flags of the function being compiled (what an overload's implementation is compiled with), as a key: the
    options set explicitly, an unhashable value (``fastmath``) by its repr."""
    top = _ConfigStack().top_or_none()
    if top is None:
        return None
    return tuple(sorted((k, v if getattr(v, "__hash__", None) else repr(v)) for k, v in top._values.items()))


def install_typing_memo() -> bool:
    """Answer a repeated builtin call typing from :data:`TYPING_MEMO` (package docstring)."""
    base = getattr(_functions, "BaseFunction", None)
    original = getattr(base, "get_call_type", None)
    if original is None or not hasattr(_ConfigStack, "top_or_none"):
        return False
    if getattr(original, "_balance_memo", False):
        return True

    def get_call_type(self, context, args, kws):
        try:
            key = (self, context, tuple(args), tuple(sorted(kws.items())), _flags_key())
            sig = TYPING_MEMO.get(key)
        except TypeError:                       # an unhashable argument type: typed as Numba types it
            return original(self, context, args, kws)
        if sig is None:
            sig = original(self, context, args, kws)    # raises when no template matches: nothing is kept
            if sig is not None:
                TYPING_MEMO[key] = sig
        return sig

    get_call_type._balance_memo = True
    base.get_call_type = get_call_type
    return True


ABI_MEMO: dict = {}
"""ABI answers (:func:`install_abi_memo`): id of the target data -> (the target data, {(question, type text): n})."""


def install_abi_memo() -> bool:
    """Answer a repeated ABI size or alignment question from a memo kept per target data layout (package docstring)."""
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
            kept = ABI_MEMO.setdefault(id(target_data), (target_data, {}))[1]
            key = (name, text)
            if key not in kept:
                kept[key] = original(self, ty)
            return kept[key]
        answer._balance_memo = True
        setattr(base, name, answer)

    memo("get_abi_sizeof")
    memo("get_abi_alignment")
    return True
