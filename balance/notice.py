"""What the terminal is told while nothing else shows: whether progress is shown at all, and the notice while a
rule kernel compiles. Light on purpose (no pandas): :mod:`balance.warm` shows the notice while pip is still
installing pandas and matplotlib."""
from __future__ import annotations

import os
import sys
import threading
import time
from contextlib import contextmanager


def show_progress(requested: bool | None) -> bool:
    if requested is not None:
        return requested
    return sys.stderr.isatty() and not os.environ.get("CI")


@contextmanager
def compile_notice(title: str, enabled: bool, stream=None, after: float = 1.0):
    """While the block runs (a kernel compiling, or loading from the Numba cache), say so on the terminal once it has
    taken `after` seconds, with the elapsed time, so that a first run's compile does not look like a hang. Loading a
    cached kernel takes well under `after`, and then nothing is shown."""
    if not enabled:
        yield
        return
    stream = sys.stderr if stream is None else stream
    done = threading.Event()
    t0 = time.perf_counter()

    def tick():
        if done.wait(after):
            return
        while True:
            stream.write(f"\rcompiling {title} rules, first run only ... {time.perf_counter() - t0:.0f} s")
            stream.flush()
            if done.wait(1.0):
                break
        stream.write(f"\rcompiled {title} rules in {time.perf_counter() - t0:.1f} s; later runs load them from "
                     "the cache\n")
        stream.flush()

    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    try:
        yield
    finally:
        done.set()
        ticker.join()
