"""Where Numba caches compiled kernels, chosen before Numba is imported.

Numba's cache notices a change in a function's own file but not in the functions it calls from other files, so a
stale kernel can survive an upgrade or an edit. Unless the user sets ``NUMBA_CACHE_DIR``, the cache lives in a folder
named after a hash of every source file of the package, so any change compiles afresh; if that folder cannot be
written, a temporary folder is used instead (import never fails on a read-only home).
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path


def source_hash() -> str:
    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def configure() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "balance" / "numba"
    target = base / source_hash()
    noinline = os.environ.get("BALANCE_PROFILE_NOINLINE")
    if noinline:                    # a profiling build (_jit._NOINLINE) never shares the users' cache
        target = base / f"{source_hash()}-noinline-{hashlib.sha256(noinline.encode()).hexdigest()[:8]}"
    try:
        target.mkdir(parents=True, exist_ok=True)
        probe = target / ".writable"
        probe.write_text("ok")
    except OSError:
        target = Path(tempfile.gettempdir()) / f"balance-numba-{source_hash()}"
        target.mkdir(parents=True, exist_ok=True)
    os.environ["NUMBA_CACHE_DIR"] = str(target)
