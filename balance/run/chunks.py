"""Playing a chunk of a scenario's games on this machine's threads: the part of the runner that needs Numba and
nothing heavier (no pandas), so that :mod:`balance.run.warm` plays its one game exactly as a run plays its first."""
from __future__ import annotations

import numba

from ..scenario.model import Scenario


def set_threads(threads: int | None) -> int:
    """Use `threads` Numba threads (capped at what Numba was started with); returns the number in use."""
    available = numba.config.NUMBA_NUM_THREADS
    n = available if threads is None else max(1, min(int(threads), available))
    numba.set_num_threads(n)
    return n


def play_chunk(spec, compiled, scenario: Scenario, game0: int, n_games: int, threads: int,
               out: dict | None = None, counter_rows: bool = True) -> dict:
    """Play games game0 .. game0+n_games-1 of the scenario; four blocks per thread keep both cores busy.

    ``out``: an earlier chunk's arrays to play into when they are large enough (see the game's ``run_chunk``).
    ``counter_rows=False``: counter groups the kernel sums per block (``<key>_sums``) come without their per-game
    rows (``<key>`` holds no games), which is all the aggregator reads of them (``kernel_common.counter_sums``)."""
    return spec.run_chunk(compiled, seed=scenario.seed, rotate=scenario.seat_rotation, game0=game0, n_games=n_games,
                          n_blocks=4 * threads, out=out, counter_rows=counter_rows)
