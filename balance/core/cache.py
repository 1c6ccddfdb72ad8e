"""Where Numba caches compiled kernels, chosen before Numba is imported.

Numba's cache notices a change in a function's own file but not in the functions it calls from other files, so a
stale kernel can survive an upgrade or an edit. Unless the user sets ``NUMBA_CACHE_DIR``, the cache lives in a folder
named after a hash of every source file of the package, so any change compiles afresh; if that folder cannot be
written, a temporary folder is used instead (import never fails on a read-only home). A build that compiles other
code than a plain run (a profiling build, or ``BALANCE_NUMBA_PATCHES`` set either way) gets a folder of its own, so
that it neither loads the plain run's kernels nor leaves its own for it.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from .numba_patches import requested


def source_hash() -> str:
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def configure() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "balance" / "numba"
    name = source_hash()
    noinline = os.environ.get("BALANCE_PROFILE_NOINLINE")
    if noinline:                    # a profiling build (numba_patches.symbols.NOINLINE)
        name += f"-noinline-{hashlib.sha256(noinline.encode()).hexdigest()[:8]}"
    patches = requested()
    if patches is not None:         # compiled with the patches forced on, or without them
        name += "-patched" if patches else "-unpatched"
    target = base / name
    try:
        target.mkdir(parents=True, exist_ok=True)
        probe = target / ".writable"
        probe.write_text("ok")
    except OSError:
        target = Path(tempfile.gettempdir()) / f"balance-numba-{name}"
        target.mkdir(parents=True, exist_ok=True)
    os.environ["NUMBA_CACHE_DIR"] = str(target)
