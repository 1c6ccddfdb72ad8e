"""Compile (or load) a scenario's rule kernel, and nothing else: ``python -m balance.run.warm [SCENARIO]``.

``make run`` runs this in the background on a fresh machine while pip is still installing what only the statistics
and the report need (pandas, matplotlib, pyarrow ...), so that the kernel's first compile overlaps the install
instead of following it. It imports numpy, numba, scipy and pydantic only, plays one game the way ``balance run``
plays its first (same argument types, so the same compiled kernel) and leaves it in the Numba cache, where the run
that follows loads it. Loading an already compiled kernel takes well under a second.
"""
from __future__ import annotations

import signal
import sys
import time

from .chunks import play_chunk, set_threads
from ..core.notice import compile_notice, notice_mode
from ..scenario.model import ScenarioError, load_scenario


def warm(source=None) -> float:
    """Compile or load the kernel of scenario `source` (a TOML path, or None for the embedded default); returns the
    seconds it took."""
    scenario = load_scenario(source)
    spec = scenario.spec()
    compiled = spec.compile_scenario(scenario)
    t0 = time.perf_counter()
    with compile_notice(spec.title, notice_mode(None)):
        play_chunk(spec, compiled, scenario, 0, 1, set_threads(None))
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    # make starts this as a background job of a non-interactive shell, which ignores Ctrl-C in it: a Ctrl-C that
    # stops make stops this too.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:
        warm(args[0] if args else None)
    except ScenarioError as err:
        for line in err.lines:
            print(f"error: {line}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
