"""What the user is told while nothing else shows: whether progress is shown at all, and the notice while a rule
kernel compiles. Light on purpose (no pandas): :mod:`balance.run.warm` shows the notice while pip is still installing
pandas and matplotlib."""
from __future__ import annotations

import os
import sys
import threading
import time
from contextlib import contextmanager


def show_progress(requested: bool | None) -> bool:
    """Live progress (bars, a ticking compile notice): asked for, or by default on a terminal outside CI."""
    if requested is not None:
        return requested
    return sys.stderr.isatty() and not os.environ.get("CI")


def notice_mode(requested: bool | None) -> str:
    """How a compile is announced: "live" (one line rewritten every second, on a terminal), "lines" (one line when
    it starts and one when it ends: a CI log, a notebook, a pipe), or "off" (progress=False asked for)."""
    if requested is False:
        return "off"
    return "live" if show_progress(requested) else "lines"


@contextmanager
def compile_notice(title: str, mode: bool | str, stream=None, after: float = 1.0, clock=time.perf_counter,
                   every: float = 1.0):
    """While the block runs (a kernel compiling, or loading from the Numba cache), say so once it has taken `after`
    seconds, so that a first run's compile does not look like a hang: on a terminal ("live", or True) a line
    rewritten every `every` seconds with the elapsed time; elsewhere ("lines") one line when the compile is seen to
    start and one when it ends, each complete, so that a log shows them as they happen. Loading a cached kernel
    takes well under `after`, and then nothing is shown. "off" (or False) shows nothing."""
    mode = {True: "live", False: "off"}.get(mode, mode)
    if mode == "off":
        yield
        return
    stream = sys.stderr if stream is None else stream
    done = threading.Event()
    t0 = clock()
    starting = f"compiling {title} rules, first run only ..."

    def write(text: str) -> None:
        stream.write(text)
        stream.flush()

    def tick():
        if done.wait(after):
            return
        if mode == "live":
            while True:
                write(f"\r{starting} {clock() - t0:.0f} s")
                if done.wait(every):
                    break
            write("\r")
        else:
            write(starting + "\n")
            done.wait()
        write(f"compiled {title} rules in {clock() - t0:.1f} s; later runs load them from the cache\n")

    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    try:
        yield
    finally:
        done.set()
        ticker.join()
